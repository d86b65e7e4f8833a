#!/usr/bin/env python3
"""Independent check of seed chains (docs/SHUFFLE.md §12) and player action signatures
(docs/EVENT-LOG.md §9), from the documents alone.

1. docs/vectors/seed-chain-v1.json: for every chain, walks from the tail down to the anchor
   (c_{i-1} = SHA-256("persian-cards/seed-chain/v1" || 0x00 || u32be(i) || c_i)), and checks
   the preimage of the last step, every element listed, each position's chain seed and the
   element before it, and each shuffle's server seed (SHA-256("persian-cards/chain-server-seed/v1"
   || 0x00 || c_k || u32be(j))), its preimage and commitment; for every player signature, the
   message (the tag and RFC 8785 JCS of {action, actor, hand, prev, seq}), the key id, the
   Ed25519 signature (verified, and re-signed with the test secret: Ed25519 is deterministic).
2. Every match file in docs/vectors/match-v1/ whose hands are dealt from a seed chain: each
   hand's revealed chain seed derives every revealed server seed; the first chained hand's
   chain seed hashes down to the anchor in `position` steps; each later hand's hashes down
   to the hand before's in as many steps as their positions differ, which is their
   difference in hand numbers; and, where the hand requires player signatures, every
   action by a seat carries one that verifies under the seat's key.

    python3 -m pip install -r tests/python/requirements.txt
    python3 tests/python/check_chain_vectors.py

Prints "N passed, 0 failed" and exits 0 when every check holds; otherwise names each
failing vector and check and exits 1.
"""

import hashlib
import json
import struct
import sys
from pathlib import Path

import rfc8785
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

STEP_TAG = b"persian-cards/seed-chain/v1"
SERVER_SEED_TAG = b"persian-cards/chain-server-seed/v1"
COMMITMENT_TAG = b"persian-cards/commitment/v1"
ACTION_TAG = b"persian-cards/action/v1"
VECTORS = Path(__file__).resolve().parents[2] / "docs" / "vectors"

passed = 0
failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL %s" % what)


def step(c, i):
    """c_{i-1} from c_i."""
    return hashlib.sha256(STEP_TAG + b"\x00" + struct.pack(">I", i) + c).digest()


def walk(c, position, steps):
    """The element `steps` positions below c, which is at `position`."""
    for i in range(position, position - steps, -1):
        c = step(c, i)
    return c


def server_seed_preimage(c, j):
    return SERVER_SEED_TAG + b"\x00" + c + struct.pack(">I", j)


def server_seed(c, j):
    return hashlib.sha256(server_seed_preimage(c, j)).digest()


def commitment(seed):
    return hashlib.sha256(COMMITMENT_TAG + b"\x00" + seed).hexdigest()


def key_id(pub):
    return "ed25519:" + hashlib.sha256(pub).hexdigest()[:16]


def action_message(hand, seq, prev, actor, action):
    body = {"action": action, "actor": actor, "hand": hand, "prev": prev, "seq": seq}
    return ACTION_TAG + b"\x00" + rfc8785.dumps(body)


def verifies(pub, sig_hex, msg):
    try:
        Ed25519PublicKey.from_public_bytes(pub).verify(bytes.fromhex(sig_hex), msg)
        return True
    except (InvalidSignature, ValueError):
        return False


def check_chain(c):
    name = c["name"]
    tail, length = bytes.fromhex(c["tail"]), c["length"]
    check(
        bytes.fromhex(c["last_step_preimage_hex"])
        == STEP_TAG + b"\x00" + struct.pack(">I", length) + tail,
        "%s: last_step_preimage_hex" % name,
    )
    elements = [None] * (length + 1)
    x = tail
    for i in range(length, 0, -1):
        elements[i] = x
        x = step(x, i)
    elements[0] = x
    check(elements[0].hex() == c["anchor"], "%s: anchor" % name)
    if c["elements"] is not None:
        check([e.hex() for e in elements] == c["elements"], "%s: elements" % name)
    for p in c["positions"]:
        k = p["position"]
        ck = elements[k]
        check(ck.hex() == p["chain_seed"], "%s: chain seed of position %d" % (name, k))
        check(step(ck, k) == elements[k - 1], "%s: H(c_%d) = c_%d" % (name, k, k - 1))
        check(step(ck, k).hex() == p["previous"], "%s: previous of %d" % (name, k))
        check(walk(ck, k, k) == elements[0], "%s: c_%d walks to the anchor" % (name, k))
        for s in p["server_seeds"]:
            j = s["shuffle"]
            pre = server_seed_preimage(ck, j)
            seed = hashlib.sha256(pre).digest()
            where = "%s: position %d shuffle %d" % (name, k, j)
            check(pre.hex() == s["preimage_hex"], where + ": preimage")
            check(seed.hex() == s["server_seed"], where + ": server seed")
            check(commitment(seed) == s["commitment"], where + ": commitment")


def check_signature(v):
    name = v["name"]
    secret = bytes.fromhex(v["secret"])
    priv = Ed25519PrivateKey.from_private_bytes(secret)
    pub = priv.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    check(pub.hex() == v["public_key"], "%s: public key" % name)
    check(key_id(pub) == v["key_id"] == v["player_sig"]["key_id"], "%s: key id" % name)
    msg = action_message(v["hand"], v["seq"], v["head"], v["actor"], v["action"])
    check(msg.hex() == v["message_hex"], "%s: message" % name)
    check(msg[len(ACTION_TAG) + 1:].decode("utf-8") == v["message"], "%s: JCS part" % name)
    check(verifies(pub, v["player_sig"]["sig"], msg), "%s: signature verifies" % name)
    check(priv.sign(msg).hex() == v["player_sig"]["sig"], "%s: re-signed" % name)


def check_match(path):
    m = json.loads(path.read_text(encoding="utf-8"))
    before = None  # (hand_no, header, chain seed) of the hand before in the file
    chained = 0
    for i, b in enumerate(m["hands"]):
        events = [r["event"] for r in b["records"]]
        start, last = events[0]["body"], events[-1]["body"]
        header = start.get("seed_chain")
        where = "%s hand %d" % (path.name, i)
        if header is None:
            check("chain_seed" not in last, where + ": no chain seed without a chain")
            check(before is None or before[1] is None, where + ": chained after chained")
            before = (start["hand_no"], None, None)
            continue
        chained += 1
        c = bytes.fromhex(last["chain_seed"])
        k = header["position"]
        check(1 <= k <= header["length"], where + ": position in the chain")
        for j, s in enumerate(last["seeds"]):
            check(server_seed(c, j).hex() == s["server_seed"], where + ": seed %d derives" % j)
        if before is None or before[1] is None or before[1]["anchor"] != header["anchor"]:
            check(walk(c, k, k).hex() == header["anchor"], where + ": walks to the anchor")
            if before is None:
                check(k == start["hand_no"], where + ": the first hand's position")
        else:
            d = start["hand_no"] - before[0]
            check(k == before[1]["position"] + d, where + ": position follows")
            check(walk(c, k, d) == before[2], where + ": links to the hand before")
        if start.get("player_signatures") == "required":
            keys = {s["seat"]: bytes.fromhex(s["public_key"]) for s in start["seats"]}
            for e in events:
                body = e["body"]
                if body["type"] != "action" or not isinstance(body["actor"], dict):
                    continue
                ps = e.get("player_sig")
                seat = body["actor"]["seat"]
                msg = action_message(e["hand"], e["seq"], e["prev"], body["actor"], body["action"])
                check(
                    ps is not None
                    and ps["key_id"] == key_id(keys[seat])
                    and verifies(keys[seat], ps["sig"], msg),
                    "%s event %d: the seat's signature" % (where, e["seq"]),
                )
        before = (start["hand_no"], header, c)
    return chained


def main():
    v = json.loads((VECTORS / "seed-chain-v1.json").read_text(encoding="utf-8"))
    check(v["version"] == 1, "seed-chain-v1.json: version")
    check(v["chain_step_tag"].encode() == STEP_TAG, "chain_step_tag")
    check(v["chain_server_seed_tag"].encode() == SERVER_SEED_TAG, "chain_server_seed_tag")
    check(v["action_signature_tag"].encode() == ACTION_TAG, "action_signature_tag")
    for c in v["chains"]:
        check_chain(c)
    for s in v["player_signatures"]:
        check_signature(s)
    chained = sum(check_match(p) for p in sorted((VECTORS / "match-v1").glob("*.json")))
    check(chained > 0, "match-v1: at least one chained match vector")
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
