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

For a match file of version 3 (docs/vectors/match-v3/: hands that carry penalty rulings,
`hand_started`'s `adjustments`, EVENT-LOG.md §3.1) it also re-derives rule 7's adjustments:
each names an entry of the file's `rulings` whose hash, recomputed (DISPUTES.md, "The
record": SHA-256 of the dispute-entry tag and the entry's canonical bytes), is the hash
named; the entry is that dispute's `seq`, of the file's club, a `penalty` ruling on a hand
held earlier in the file, whose `award` is the adjustment's; no dispute is carried twice;
the entry's service signature verifies under one of the file's `ruling_keys` and its
official's signature over the ruling message; and `match_state` is the previous hand's end
with each award applied in order by Hokm's arithmetic (§12.3: the points to each side that
gains, then the round and match checks of §11.5 (4)-(5); the 2-player deuce is not
re-derived here and such a file is refused as unsupported). The award's recomputation from
the penalty needs the engine: the Rust test `penalty_match` does it.

Each file is also checked with an edited match state, two hands swapped and a link to the
wrong event: all three must be caught, or the check itself is broken; a version 3 file also
with its ruling removed and carried twice.

It does not re-run the games' engines or check signatures (check_event_vectors.py covers the
encoding and signatures; the Rust test `format_vectors` runs the whole verifier). The
canonical hash and the strict JSON reading are check_event_vectors.py's, imported.

    python3 -m pip install -r tests/python/requirements.txt
    python3 tests/python/check_match_vectors.py [match.json ...]

Prints "N passed, 0 failed" (one per match file) and exits 0 when every file matches;
otherwise names each failing file, hand and check and exits 1.
"""

import hashlib
import json
import sys
from pathlib import Path


MATCH_FORMAT = "persian-cards/match"
VECTORS = Path(__file__).resolve().parents[2] / "docs" / "vectors"
DEFAULT_DIRS = [VECTORS / "match-v1", VECTORS / "match-v3"]
ENTRY_HASH_TAG = b"persian-cards/dispute-entry/v1\x00"
ENTRY_SIG_TAG = b"persian-cards/dispute-entry-signature/v1\x00"
RULING_SIG_TAG = b"persian-cards/ruling/v1\x00"


# --- Canonical hash and strict reading: the event-format checker's own --------------------

from check_event_vectors import (  # noqa: E402
    _no_duplicates,
    _no_float,
    canonical,
    check_json,
    event_hash,
    key_id,
    verify,
)
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey  # noqa: E402


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


# --- Penalty rulings carried into the match (version 3) ----------------------------------

def entry_hash(entry):
    return hashlib.sha256(ENTRY_HASH_TAG + canonical(entry)).hexdigest()


def public(hex_key):
    return Ed25519PublicKey.from_public_bytes(bytes.fromhex(hex_key))


def side_of(state, seat):
    """Hokm's side of a seat: 4 seats, the parity of its place at the table; else the seat."""
    seating = state["seating"]
    if len(seating) == 4:
        return seating.index(seat) % 2
    return seat


def apply_award(rules, state, award):
    """Hokm §12.3 and §11.5 (4)-(5): the points to each side that gains, then the round and
    match checks; a round ended under new_round_hakem = redraw leaves no hakem."""
    if len(state["seating"]) == 2 and rules.get("deuce_2p", "off") != "off":
        raise ValueError("unsupported: the 2-player deuce is not re-derived here")
    s = json.loads(json.dumps(state))
    for group in award["beneficiaries"]:
        s["scores"][side_of(s, group[0])] += award["points"]
    best = max(s["scores"])
    if best >= rules["target_points"]:
        side = s["scores"].index(best)
        s["rounds"][side] = min(s["rounds"][side] + 1, 3)
        s["scores"] = [0] * len(s["scores"])
        s["deuce"] = False
        if s["rounds"][side] >= rules["rounds_to_win"]:
            s["over"] = True
            s["winner"] = side
        elif rules.get("new_round_hakem") == "redraw":
            s["hakem"] = None
    return s


def carry(m, i, start, state, held, carried, problems):
    """Rule 7's adjustments of one hand (or, i = len(hands), after the last); the state after."""
    def fail(rule, text):
        problems.append("hand %d: %s: %s" % (i, rule, text))

    keys = {k["key_id"]: k["public_key"] for k in m.get("ruling_keys", [])}
    for a in start.get("adjustments", []):
        named = [r for r in m.get("rulings", []) if r["hash"] == a["hash"]]
        if not named:
            fail("adjustment_entry", "no ruling with hash %s" % a["hash"])
            return state
        r = named[0]
        e = r["entry"]
        if entry_hash(e) != r["hash"] or e["dispute"] != a["dispute"] or e["seq"] != a["seq"] \
                or e["club"] != m["club"]:
            fail("adjustment_entry", "entry %s/%s does not hash to %s" % (e["dispute"], e["seq"], a["hash"]))
            return state
        k = keys.get(r["signer"])
        msg = ENTRY_SIG_TAG + bytes.fromhex(r["hash"])
        if k is None or key_id(bytes.fromhex(k)) != r["signer"] \
                or not verify(public(k), bytes.fromhex(r["sig"]), msg):
            fail("adjustment_signature", "entry %s/%s" % (e["dispute"], e["seq"]))
            return state
        b = e["body"]
        terms = {"club": e["club"], "decision": b["decision"], "dispute": e["dispute"],
                 "hand": e["hand"], "official": b["official"], "penalty": b.get("penalty"),
                 "prev": e["prev"], "reason": b["reason"], "seq": e["seq"]}
        if b["type"] != "ruling" or not verify(public(b["official"]["public_key"]),
                                              bytes.fromhex(b["official_sig"]),
                                              RULING_SIG_TAG + canonical(terms)):
            fail("adjustment_official", "entry %s/%s" % (e["dispute"], e["seq"]))
            return state
        if e["hand"] not in held:
            fail("adjustment_hand", "a ruling on hand %s, not an earlier hand" % e["hand"])
            return state
        if e["dispute"] in carried:
            fail("adjustment_twice", "dispute %s carried again" % e["dispute"])
            return state
        if b["decision"] != "penalty" or b.get("award") != a["award"]:
            fail("adjustment_award", "entry %s/%s: award %r, the hand's %r"
                 % (e["dispute"], e["seq"], b.get("award"), a["award"]))
            return state
        carried.add(e["dispute"])
        state = apply_award(start["rules"], state, a["award"])
    return state


def check_match(m):
    problems = []
    version = m.get("version")
    if m.get("format") != MATCH_FORMAT or version not in (1, 3):
        return ["not a match file of version 1 or 3"], 0
    if not m["hands"]:
        return ["no hands"], 0
    if version == 1 and any(k in m for k in ("rulings", "ruling_keys", "trailing_adjustments")):
        return ["version 1 with the members of version 3"], 0
    before = None  # (hand id, start, hashes, end) of the previous hand
    links = 0
    held = []  # ids of the hands checked so far
    carried = set()  # disputes whose award the match carried
    for i, bundle in enumerate(m["hands"]):
        start, hashes, end = check_hand(m, i, bundle, problems)

        def fail(rule, text, i=i):
            problems.append("hand %d: %s: %s" % (i, rule, text))

        if start.get("hand_no") != i + 1:
            fail("hand_no", "expected %d, found %r" % (i + 1, start.get("hand_no")))
        if before is None:
            if "prev_hand" in start:
                fail("prev_hand", "the first hand names a previous hand")
            if start.get("adjustments"):
                fail("adjustment_hand", "the first hand carries a ruling")
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
            state = carry(m, i, start, state, held, carried, problems)
            if start.get("match_state") != state:
                fail("match_state", "expected %r, found %r" % (state, start.get("match_state")))
            links += 1
        before = (bundle["hand"], start, hashes, end)
        held.append(bundle["hand"])
    if before is not None and m.get("trailing_adjustments"):
        _, last_start, _, last_end = before
        state = last_end.get("next_match", last_start["match_state"])
        after = dict(last_start, adjustments=m["trailing_adjustments"])
        carry(m, len(m["hands"]), after, state, held, carried, problems)
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
    if m.get("version") == 3:
        removed = copy.deepcopy(m)
        removed["rulings"] = []
        if not any("adjustment_entry" in p for p in check_match(removed)[0]):
            out.append("self-test: a removed ruling went unnoticed")
        twice = copy.deepcopy(m)
        adjusted = [b for b in twice["hands"]
                    if b["records"][0]["event"]["body"].get("adjustments")]
        twice["trailing_adjustments"] = adjusted[0]["records"][0]["event"]["body"]["adjustments"]
        if not any("adjustment_twice" in p for p in check_match(twice)[0]):
            out.append("self-test: a ruling carried twice went unnoticed")
    return out


def main(argv):
    paths = [Path(a) for a in argv[1:]] or sorted(
        p for d in DEFAULT_DIRS if d.is_dir() for p in d.glob("*.json"))
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
