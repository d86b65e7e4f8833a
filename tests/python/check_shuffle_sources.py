#!/usr/bin/env python3
"""Independent check of the `source` of `shuffled` events and of revealed faces
(docs/EVENT-LOG.md §3.4 and §11, docs/SHUFFLE.md §3-§7).

For every hand bundle in docs/vectors/bundles-v1/ (and every hand of every match file in
docs/vectors/match-v1/ and match-v3/) this derives, from the documents alone and in event order:

- for each `shuffled` event `k`, the exact multiset its `source` names: a fresh deck's cards
  (`{"deck": DECK}`, SHUFFLE.md §7), or the faces of the gathered references
  (`{"gather": [CardRef, ...]}`), each taken from the order of the earlier shuffle it names;
  put in canonical order, that is what shuffle `k` permutes;
- that `cards` equals the size of that multiset;
- shuffle `k`'s order, from its revealed server seed (checked against its commitment), the
  hand id, `k` and the client seeds recorded for `k` (SHUFFLE.md §3-§6);
- that the events are in their written form: every hex value lowercase, no optional member
  `null` (EVENT-LOG.md, Notation and §2);
- that every face shown in an effect (a `face` member in the same object as a `card` or
  `ref` member holding a CardRef `{"shuffle": k, "pos": p}`) is element `p` of shuffle `k`'s
  order.

The cards, decks and shuffle are check_shuffle_vectors.py's, imported (see check_all.py).

    python3 -m pip install -r tests/python/requirements.txt
    python3 tests/python/check_shuffle_sources.py [bundle-or-match.json ...]

Each hand is also checked with one face forged and with one `cards` count changed: both
must be caught, or the check itself is broken.

Prints "N passed, 0 failed" (one per hand) and exits 0 when every hand matches; otherwise
names each failing hand and check and exits 1.
"""

import hashlib
import json
import sys
from pathlib import Path


VECTORS = Path(__file__).resolve().parents[2] / "docs" / "vectors"
DEFAULT_DIRS = [VECTORS / "bundles-v1", VECTORS / "match-v1", VECTORS / "match-v3"]


# --- Cards, decks and the shuffle (docs/SHUFFLE.md §2-§7) --------------------------------
# The same from-the-document implementation that checks the shuffle vectors.

from check_shuffle_vectors import (  # noqa: E402
    ALL_54,
    Keystream,
    commitment,
    deck_cards,
    deck_seed_preimage,
    fisher_yates,
)


def canonical_sort(cards):
    """Canonical order (duplicates of a two-pack deck stay adjacent)."""
    return sorted(cards, key=ALL_54.index)


def deck_seed(server_seed, hand_id, shuffle, client_seeds):
    """client_seeds: list of (seat, bytes) in any order."""
    return hashlib.sha256(deck_seed_preimage(server_seed, hand_id, shuffle, client_seeds)).digest()


def shuffle_order(cards, seed):
    """The order (top first) of `cards` (in canonical order) under deck seed `seed`."""
    return [cards[i] for i in fisher_yates(len(cards), Keystream(seed))]


# --- The events (docs/EVENT-LOG.md §3, §11) --------------------------------------------

def is_ref(v):
    return (isinstance(v, dict) and set(v) == {"shuffle", "pos"}
            and all(isinstance(v[m], int) and not isinstance(v[m], bool) for m in v))


def faces_in(v):
    """Every (CardRef, face) shown in a JSON value: a `face` beside a `card` or `ref`."""
    if isinstance(v, list):
        for x in v:
            yield from faces_in(x)
    elif isinstance(v, dict):
        if isinstance(v.get("face"), str):
            for m in ("card", "ref"):
                if is_ref(v.get(m)):
                    yield v[m], v["face"]
        for x in v.values():
            yield from faces_in(x)


HEX_MEMBERS = [  # (path below the event, as a function) of every hex value of an event
    lambda e: [e["prev"]],
    lambda e: [e["body"].get("commitment")],
    lambda e: [e["body"].get("seed")] if e["body"]["type"] == "client_seed" else [],
    lambda e: [s.get("public_key") for s in e["body"].get("seats", [])],
    lambda e: [(e["body"].get("prev_hand") or {}).get("hash")],
    lambda e: [(e.get("player_sig") or {}).get("sig")],
    lambda e: [x.get("server_seed") for x in e["body"].get("seeds", [])],
]
OPTIONAL = [  # optional members: absent, never null (EVENT-LOG.md §2)
    lambda e: [("player_sig", e)],
    lambda e: [("prev_hand", e["body"])] if e["body"]["type"] == "hand_started" else [],
    lambda e: [("source", e["body"])] if e["body"]["type"] == "shuffled" else [],
    lambda e: [("public_key", s) for s in e["body"].get("seats", [])],
]


def written_form(events):
    """Every hex value lowercase, no optional member null (EVENT-LOG.md Notation, §2)."""
    out = []
    for e in events:
        for get in HEX_MEMBERS:
            for h in get(e):
                if h is not None and (h != h.lower() or any(c not in "0123456789abcdef" for c in h)):
                    out.append("event %d: hex %r is not lowercase hex" % (e["seq"], h))
        for get in OPTIONAL:
            for member, obj in get(e):
                if member in obj and obj[member] is None:
                    out.append("event %d: %s is null" % (e["seq"], member))
    return out


class Hand:
    """What one hand's events say about its shuffles."""

    def __init__(self, events):
        self.events = events
        self.hand_id = events[0]["hand"]
        last = events[-1]["body"]
        if last["type"] != "seeds_revealed":
            raise ValueError("the hand does not end with seeds_revealed")
        self.seeds = [bytes.fromhex(s["server_seed"]) for s in last["seeds"]]
        self.commitments = [e["body"]["commitment"] for e in events
                            if e["body"]["type"] in ("hand_started", "shuffle_committed")]
        self.orders = {}  # shuffle k -> its order, top first
        self.stats = {"deck": 0, "gather": 0, "faces": 0}

    def face_at(self, ref):
        k, p = ref["shuffle"], ref["pos"]
        if k not in self.orders:
            raise ValueError("reference %r names shuffle %d, not yet used" % (ref, k))
        order = self.orders[k]
        if not 0 <= p < len(order):
            raise ValueError("reference %r is beyond shuffle %d's %d cards" % (ref, k, len(order)))
        return order[p]

    def check(self):
        problems = []
        if len(self.seeds) != len(self.commitments):
            return ["%d seeds for %d commitments" % (len(self.seeds), len(self.commitments))]
        for k, (s, c) in enumerate(zip(self.seeds, self.commitments)):
            if commitment(s).hex() != c:
                problems.append("shuffle %d: the revealed seed does not match its commitment" % k)
        client = {}
        for e in self.events:
            b = e["body"]
            seq = e["seq"]
            if b["type"] == "client_seed":
                client.setdefault(b["shuffle"], []).append((b["seat"], bytes.fromhex(b["seed"])))
            elif b["type"] == "shuffled":
                k = b["shuffle"]
                src = b.get("source")
                if src is None:
                    problems.append("event %d: shuffled %d has no source" % (seq, k))
                    continue
                if set(src) == {"deck"}:
                    cards = deck_cards(src["deck"])
                    self.stats["deck"] += 1
                elif set(src) == {"gather"}:
                    cards = canonical_sort([self.face_at(r) for r in src["gather"]])
                    self.stats["gather"] += 1
                else:
                    problems.append("event %d: source %r is neither deck nor gather" % (seq, src))
                    continue
                if b["cards"] != len(cards):
                    problems.append("event %d: cards %d, but the source names %d cards"
                                    % (seq, b["cards"], len(cards)))
                seed = deck_seed(self.seeds[k], self.hand_id, k, client.get(k, []))
                self.orders[k] = shuffle_order(cards, seed)
            if b["type"] in ("shuffled", "action"):
                for ref, face in faces_in(b["effects"]):
                    self.stats["faces"] += 1
                    want = self.face_at(ref)
                    if face != want:
                        problems.append("event %d: face %s at %r, but that position of shuffle "
                                        "%d's order holds %s" % (seq, face, ref, ref["shuffle"], want))
        if self.stats["deck"] + self.stats["gather"] == 0:
            problems.append("no shuffled event")
        return problems


def hands_of(path):
    """(name, events) for every hand in a bundle or match file."""
    doc = json.loads(path.read_text(encoding="utf-8"))
    bundles = doc["hands"] if doc.get("format") == "persian-cards/match" else [doc]
    for i, b in enumerate(bundles):
        name = path.name if len(bundles) == 1 else "%s[hand %d]" % (path.name, i)
        yield name, [r["event"] for r in b["records"]]


def self_test(events):
    """The checks must catch a forged face and a wrong card count: returns problems if not."""
    import copy
    out = []
    forged = copy.deepcopy(events)
    for e in forged:
        b = e["body"]
        if b["type"] in ("shuffled", "action"):
            shown = list(faces_in(b["effects"]))
            if shown:
                ref, face = shown[0]
                for obj in _objects(b["effects"]):
                    if obj.get("face") == face and (obj.get("card") is ref or obj.get("ref") is ref):
                        obj["face"] = "2S" if face != "2S" else "3S"
                        break
                break
    if not Hand(forged).check():
        out.append("self-test: a forged face went unnoticed")
    miscount = copy.deepcopy(events)
    for e in miscount:
        if e["body"]["type"] == "shuffled":
            e["body"]["cards"] += 1
            break
    if not Hand(miscount).check():
        out.append("self-test: a wrong card count went unnoticed")
    return out


def _objects(v):
    if isinstance(v, list):
        for x in v:
            yield from _objects(x)
    elif isinstance(v, dict):
        yield v
        for x in v.values():
            yield from _objects(x)


def main(argv):
    paths = [Path(a) for a in argv[1:]] or sorted(
        p for d in DEFAULT_DIRS if d.is_dir() for p in d.glob("*.json"))
    passed = failed = 0
    totals = {"deck": 0, "gather": 0, "faces": 0}
    for path in paths:
        for name, events in hands_of(path):
            try:
                hand = Hand(events)
                problems = written_form(events) + hand.check()
                if not problems:
                    problems = self_test(events)
                for m in totals:
                    totals[m] += hand.stats[m]
            except Exception as e:  # a malformed hand is a failure, not a crash
                problems = ["error: %s: %s" % (type(e).__name__, e)]
            if problems:
                failed += 1
                for p in problems:
                    print("FAIL %s: %s" % (name, p))
            else:
                passed += 1
    print("checked %d deck and %d gather sources and %d shown faces"
          % (totals["deck"], totals["gather"], totals["faces"]))
    if not argv[1:] and (totals["gather"] == 0 or totals["faces"] == 0):
        print("FAIL vectors: no gather source or no shown face among the vectors")
        failed += 1
    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
