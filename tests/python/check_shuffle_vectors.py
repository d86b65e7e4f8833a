#!/usr/bin/env python3
"""Independent re-implementation of the committed shuffle, version 1 (docs/SHUFFLE.md).

Re-derives every vector in docs/vectors/shuffle-v1.json from its inputs using only
hashlib and the ChaCha20 of the `cryptography` package, and compares each field.

    python3 -m pip install -r tests/python/requirements.txt
    python3 tests/python/check_shuffle_vectors.py [path/to/shuffle-v1.json]

Prints "N passed, 0 failed" and exits 0 when every vector matches; otherwise names each
failing vector and field and exits 1.
"""

import hashlib
import json
import struct
import sys
from pathlib import Path

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms

SHUFFLE_VERSION = 1
COMMITMENT_TAG = b"persian-cards/commitment/v1"
DECK_SEED_TAG = b"persian-cards/deck-seed/v1"
DEFAULT_PATH = Path(__file__).resolve().parents[2] / "docs" / "vectors" / "shuffle-v1.json"


# --- Cards and decks -----------------------------------------------------------------

SUITS = ["S", "H", "D", "C"]
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
ALL_54 = [r + s for s in SUITS for r in RANKS] + ["BJ", "CJ"]
STANDARD_52 = ALL_54[:52]


# Decks made of several identical packs, one after the other.
DECK_PACKS = {"bluff-104": 2}


def deck_cards(deck_id):
    """The deck's cards in canonical order, from its id."""
    if deck_id == "standard-52":
        return list(STANDARD_52)
    if deck_id == "standard-54":
        return list(ALL_54)
    if deck_id == "bist-o-yek-36":
        return [c for c in STANDARD_52 if c[:-1] not in ("2", "3", "4", "5")]
    if deck_id.startswith("hokm-51-without-2") and deck_id[-1:] in SUITS and len(deck_id) == 18:
        gone = "2" + deck_id[-1]
        return [c for c in STANDARD_52 if c != gone]
    if deck_id == "ghahve-52":
        return [c for c in ALL_54 if c not in ("2D", "2H")]
    if deck_id == "bluff-104":
        return STANDARD_52 + STANDARD_52
    if deck_id == "sheytoonak-53":
        return STANDARD_52 + ["BJ"]
    raise ValueError("unknown deck id %r" % deck_id)


def canonical_key(card):
    return ALL_54.index(card)


# --- The algorithm -------------------------------------------------------------------

def enc(b):
    return struct.pack(">I", len(b)) + b


def commitment(server_seed):
    return hashlib.sha256(COMMITMENT_TAG + b"\x00" + server_seed).digest()


def deck_seed_preimage(server_seed, hand_id, shuffle, client_seeds):
    """client_seeds: list of (seat, bytes) in any order."""
    hand = hand_id.encode("utf-8")
    if not 1 <= len(hand) <= 128:
        raise ValueError("hand id must be 1..=128 bytes")
    if len(server_seed) != 32:
        raise ValueError("server seed must be 32 bytes")
    ordered = sorted(client_seeds, key=lambda e: e[0])
    seats = [seat for seat, _ in ordered]
    if len(set(seats)) != len(seats):
        raise ValueError("duplicate seat")
    out = DECK_SEED_TAG + b"\x00" + server_seed + enc(hand)
    out += struct.pack(">I", shuffle) + struct.pack(">I", len(ordered))
    for seat, seed in ordered:
        if not 0 <= seat <= 255:
            raise ValueError("seat out of range")
        if not 1 <= len(seed) <= 64:
            raise ValueError("client seed must be 1..=64 bytes")
        out += struct.pack(">I", seat) + enc(seed)
    return out


class Keystream:
    """RFC 8439 ChaCha20 keystream (key = deck seed, nonce = 0, counter from 0) as
    little-endian 32-bit words. `cryptography` takes a 16-byte nonce: the 4-byte
    little-endian initial block counter followed by the 12-byte nonce."""

    def __init__(self, key):
        cipher = Cipher(algorithms.ChaCha20(key, b"\x00" * 16), mode=None)
        self._enc = cipher.encryptor()
        self._words = []
        self._pos = 0
        self.used = 0

    def next_word(self):
        if self._pos == len(self._words):
            block = self._enc.update(b"\x00" * 64)
            self._words = list(struct.unpack("<16I", block))
            self._pos = 0
        w = self._words[self._pos]
        self._pos += 1
        self.used += 1
        return w


def uniform(bound, ks):
    assert 1 <= bound <= 1 << 32
    zone = (1 << 32) - ((1 << 32) % bound)
    while True:
        x = ks.next_word()
        if x < zone:
            return x % bound


def fisher_yates(n, ks):
    a = list(range(n))
    for i in range(n - 1, 0, -1):
        j = uniform(i + 1, ks)
        a[i], a[j] = a[j], a[i]
    return a


# --- Checking ------------------------------------------------------------------------

def check_vector(v):
    """Returns a list of mismatch descriptions (empty when the vector passes)."""
    problems = []

    def expect(field, got):
        if got != v.get(field):
            problems.append("%s: expected %r, computed %r" % (field, v.get(field), got))

    server = bytes.fromhex(v["server_seed"])
    expect("commitment", commitment(server).hex())
    seeds = [(e["seat"], bytes.fromhex(e["seed"])) for e in v["client_seeds"]]
    pre = deck_seed_preimage(server, v["hand_id"], v["shuffle"], seeds)
    expect("deck_seed_preimage", pre.hex())
    ds = hashlib.sha256(pre).digest()
    expect("deck_seed", ds.hex())

    ks = Keystream(ds)
    expect("first_words", [ks.next_word() for _ in range(8)])

    if v["deck"] is not None:
        cards = deck_cards(v["deck"])
        if v.get("cards") is not None:
            expect("cards", cards)
    elif v.get("cards") is not None:
        cards = v["cards"]
        if sorted(cards, key=canonical_key) != cards:
            problems.append("cards: not in canonical order")
    else:
        cards = None
    n = len(cards) if cards is not None else v["n"]
    expect("n", n)

    ks = Keystream(ds)
    perm = fisher_yates(n, ks)
    expect("permutation", perm)
    expect("words_used", ks.used)
    expect("order", [cards[i] for i in perm] if cards is not None else None)
    # The pack of each dealt card of a several-pack deck: its canonical position divided by
    # the size of one pack (SHUFFLE.md section 7).
    packs = DECK_PACKS.get(v["deck"], 1)
    if packs > 1:
        per_pack = n // packs
        expect("packs", [i // per_pack for i in perm])
    else:
        expect("packs", None)
    return problems


def main(argv):
    path = Path(argv[1]) if len(argv) > 1 else DEFAULT_PATH
    doc = json.loads(path.read_text(encoding="utf-8"))
    if doc.get("version") != SHUFFLE_VERSION:
        print("FAIL: file version %r, this checker implements %d"
              % (doc.get("version"), SHUFFLE_VERSION))
        return 1
    passed = failed = 0
    for v in doc["vectors"]:
        name = v.get("name", "<unnamed>")
        try:
            problems = check_vector(v)
        except Exception as e:  # a malformed vector is a failure, not a crash
            problems = ["error: %s: %s" % (type(e).__name__, e)]
        if problems:
            failed += 1
            for p in problems:
                print("FAIL %s: %s" % (name, p))
        else:
            passed += 1
    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
