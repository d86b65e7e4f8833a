#!/usr/bin/env python3
"""Independent check of the links between the hands of a match file (docs/BUNDLE.md §8).

For every match file in docs/vectors/match-v1/ this re-derives, from BUNDLE.md §8 and
EVENT-LOG.md §5-§7 alone:

- every event's hash (RFC 8785 canonical bytes with Trail of Bits' `rfc8785`, SHA-256 with
  the event tag), compared with its record's `hash`, and each hand's chain (`prev`, `seq`);
- the header: each hand's `hand_started` names the file's `club`, `table` and `game`, and
  every hand is finished (`hand_ended` or `abandoned`, then `seeds_revealed`);
- `hand_no` = position + 1;
- `prev_hand`: absent in hand 1; in hand i > 1, {"hand": id of hand i - 1, "hash": the
  recomputed hash of hand i - 1's last event};
- `rules` and `seats` equal those of the hand before;
- `match_state` = the `next_match` of the previous hand's `hand_ended`, or, for a previous
  hand that was abandoned, the `match_state` it started from.

Each file is also checked with an edited match state, two hands swapped and a link to the
wrong event: all three must be caught, or the check itself is broken.

It does not re-run the games' engines or check signatures (check_event_vectors.py covers the
encoding and signatures; the Rust test `format_vectors` runs the whole verifier). The
canonical hash and the strict JSON reading are check_event_vectors.py's, imported.

    python3 -m pip install -r tests/python/requirements.txt
    python3 tests/python/check_match_vectors.py [match.json ...]

Prints "N passed, 0 failed" (one per match file) and exits 0 when every file matches;
otherwise names each failing file, hand and check and exits 1.
"""

import json
import sys
from pathlib import Path


MATCH_FORMAT = "persian-cards/match"
DEFAULT_DIR = Path(__file__).resolve().parents[2] / "docs" / "vectors" / "match-v1"


# --- Canonical hash and strict reading: the event-format checker's own --------------------

from check_event_vectors import (  # noqa: E402
    _no_duplicates,
    _no_float,
    canonical,
    check_json,
    event_hash,
)


def load(path):
    return json.loads(path.read_text(encoding="utf-8"),
                      object_pairs_hook=_no_duplicates, parse_float=_no_float)


# --- The links (docs/BUNDLE.md §8) -----------------------------------------------------

def check_hand(m, i, bundle, problems):
    """One hand's own chain; returns (hand_started body, hashes, last body before reveal)."""
    def fail(rule, text):
        problems.append("hand %d: %s: %s" % (i, rule, text))

    events = [r["event"] for r in bundle["records"]]
    hashes = []
    prev = "0" * 64
    for j, (r, e) in enumerate(zip(bundle["records"], events)):
        h = event_hash(e).hex()
        if h != r["hash"]:
            fail("hash", "event %d: computed %s, recorded %s" % (j, h, r["hash"]))
        if e["seq"] != j or e["prev"] != prev:
            fail("chain", "event %d: seq %r, prev %s" % (j, e["seq"], e["prev"]))
        if e["hand"] != bundle["hand"]:
            fail("hand_id", "event %d: hand %r" % (j, e["hand"]))
        prev = h
        hashes.append(h)
    start = events[0]["body"]
    if start["type"] != "hand_started":
        fail("hand", "event 0 is %s" % start["type"])
    kinds = [e["body"]["type"] for e in events]
    if len(kinds) < 2 or kinds[-1] != "seeds_revealed" or kinds[-2] not in ("hand_ended", "abandoned"):
        fail("hand", "not finished: its last events are %r" % kinds[-2:])
    if (start.get("club"), start.get("table"), start.get("game")) != (m["club"], m["table"], m["game"]):
        fail("match_header", "club/table/game %r" % ([start.get("club"), start.get("table"), start.get("game")],))
    return start, hashes, events[-2]["body"]


def check_match(m):
    problems = []
    if m.get("format") != MATCH_FORMAT or m.get("version") != 1:
        return ["not a match file of version 1"], 0
    if not m["hands"]:
        return ["no hands"], 0
    before = None  # (hand id, start, hashes, end) of the previous hand
    links = 0
    for i, bundle in enumerate(m["hands"]):
        start, hashes, end = check_hand(m, i, bundle, problems)

        def fail(rule, text, i=i):
            problems.append("hand %d: %s: %s" % (i, rule, text))

        if start.get("hand_no") != i + 1:
            fail("hand_no", "expected %d, found %r" % (i + 1, start.get("hand_no")))
        if before is None:
            if "prev_hand" in start:
                fail("prev_hand", "the first hand names a previous hand")
        else:
            prev_id, prev_start, prev_hashes, prev_end = before
            want = {"hand": prev_id, "hash": prev_hashes[-1]}
            if start.get("prev_hand") != want:
                fail("prev_hand", "expected %r, found %r" % (want, start.get("prev_hand")))
            for member in ("rules", "seats"):
                if start.get(member) != prev_start.get(member):
                    fail("same_match", "%s differ from the hand before" % member)
            if prev_end["type"] == "hand_ended":
                state = prev_end["next_match"]
            else:
                state = prev_start["match_state"]
            if start.get("match_state") != state:
                fail("match_state", "expected %r, found %r" % (state, start.get("match_state")))
            links += 1
        before = (bundle["hand"], start, hashes, end)
    return problems, links


def self_test(m):
    """The checks must catch a changed match state, a reordered hand and a broken link."""
    import copy
    out = []
    edited = copy.deepcopy(m)
    start = edited["hands"][1]["records"][0]["event"]["body"]
    start["match_state"] = {"edited": start["match_state"]}
    if not any("match_state" in p for p in check_match(edited)[0]):
        out.append("self-test: an edited match_state went unnoticed")
    swapped = copy.deepcopy(m)
    swapped["hands"][0], swapped["hands"][1] = swapped["hands"][1], swapped["hands"][0]
    if not any("hand_no" in p for p in check_match(swapped)[0]):
        out.append("self-test: reordered hands went unnoticed")
    relinked = copy.deepcopy(m)
    link = relinked["hands"][1]["records"][0]["event"]["body"]["prev_hand"]
    link["hash"] = relinked["hands"][0]["records"][-2]["hash"]
    if not any("prev_hand" in p for p in check_match(relinked)[0]):
        out.append("self-test: a link to the wrong event went unnoticed")
    return out


def main(argv):
    paths = [Path(a) for a in argv[1:]] or sorted(DEFAULT_DIR.glob("*.json"))
    passed = failed = 0
    for path in paths:
        try:
            m = load(path)
            out = check_match(m)
            problems, links = out if isinstance(out, tuple) else (out, 0)
            if not argv[1:] and links == 0:
                problems.append("no link between two hands to check")
            if not problems and links > 0:
                problems = self_test(m)
        except Exception as e:  # a malformed file is a failure, not a crash
            problems = ["error: %s: %s" % (type(e).__name__, e)]
            links = 0
        if problems:
            failed += 1
            for p in problems:
                print("FAIL %s: %s" % (path.name, p))
        else:
            passed += 1
            print("ok %s: %d hands, %d links" % (path.name, links + 1, links))
    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
