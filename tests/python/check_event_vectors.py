#!/usr/bin/env python3
"""Independent check of the event log format, version 1 (docs/EVENT-LOG.md).

For every vector in docs/vectors/event-log-v1.json this re-derives, from the event JSON
alone: the canonical bytes (RFC 8785, with Trail of Bits' `rfc8785` package), the event hash
(hashlib), the chain link to the vector before, the signer's key id, the service's Ed25519
signature (verified with `cryptography`, and re-signed with the test secret: Ed25519 is
deterministic, so the bytes must be equal), and, where the event carries one, the player's
own signature over their action.

    python3 -m pip install -r tests/python/requirements.txt
    python3 tests/python/check_event_vectors.py [path/to/event-log-v1.json]

Prints "N passed, 0 failed" and exits 0 when every vector matches; otherwise names each
failing vector and check and exits 1.
"""

import hashlib
import json
import sys
from pathlib import Path

import rfc8785
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

EVENT_FORMAT_VERSION = 1
EVENT_HASH_TAG = b"persian-cards/event/v1"
EVENT_SIG_TAG = b"persian-cards/event-signature/v1"
ACTION_SIG_TAG = b"persian-cards/action/v1"
MAX_SAFE_INTEGER = 2**53 - 1
MAX_DEPTH = 32
DEFAULT_PATH = Path(__file__).resolve().parents[2] / "docs" / "vectors" / "event-log-v1.json"


# --- Reading JSON the way the format requires ------------------------------------------

def _no_duplicates(pairs):
    out = {}
    for k, v in pairs:
        if k in out:
            raise ValueError("duplicate key %r" % k)
        out[k] = v
    return out


def _no_float(text):
    raise ValueError("number %s is not an integer" % text)


def _no_constant(text):
    raise ValueError("%s is not JSON" % text)


def _integer(text):
    # "-0" is read as a float by the reference reader, and floats are not allowed.
    if text == "-0":
        raise ValueError("number -0 is not an integer the format allows")
    return int(text)


def load_strict(text):
    """Parse JSON keeping only what the event format allows: integers (no fraction, no
    exponent, no -0), no NaN/Infinity, no duplicate keys."""
    return json.loads(
        text,
        object_pairs_hook=_no_duplicates,
        parse_float=_no_float,
        parse_int=_integer,
        parse_constant=_no_constant,
    )


def check_json(v, depth=0, path=""):
    """The format's limits: integers of magnitude at most 2^53 - 1, nesting at most 32."""
    if depth > MAX_DEPTH:
        raise ValueError("nested deeper than %d levels at %s" % (MAX_DEPTH, path or "/"))
    if isinstance(v, bool) or v is None or isinstance(v, str):
        return
    if isinstance(v, int):
        if abs(v) > MAX_SAFE_INTEGER:
            raise ValueError("integer %d out of range at %s" % (v, path or "/"))
        return
    if isinstance(v, list):
        for i, x in enumerate(v):
            check_json(x, depth + 1, "%s/%d" % (path, i))
        return
    if isinstance(v, dict):
        for k, x in v.items():
            check_json(x, depth + 1, "%s/%s" % (path, k))
        return
    raise ValueError("unsupported JSON value %r at %s" % (v, path or "/"))


# --- The format ------------------------------------------------------------------------

def canonical(v):
    check_json(v)
    return rfc8785.dumps(v)


def event_hash(event):
    return hashlib.sha256(EVENT_HASH_TAG + b"\x00" + canonical(event)).digest()


def signature_message(hash_bytes):
    return EVENT_SIG_TAG + b"\x00" + hash_bytes


def action_message(hand, seq, prev, actor, action):
    body = {"action": action, "actor": actor, "hand": hand, "prev": prev, "seq": seq}
    return ACTION_SIG_TAG + b"\x00" + canonical(body)


def raw_public(public_key):
    return public_key.public_bytes(Encoding.Raw, PublicFormat.Raw)


def key_id(public_bytes):
    return "ed25519:" + hashlib.sha256(public_bytes).hexdigest()[:16]


def verify(public_key, sig, msg):
    try:
        public_key.verify(sig, msg)
        return True
    except InvalidSignature:
        return False


class TestKey:
    def __init__(self, entry):
        self.private = Ed25519PrivateKey.from_private_bytes(bytes.fromhex(entry["secret"]))
        self.public_bytes = raw_public(self.private.public_key())
        self.public = Ed25519PublicKey.from_public_bytes(bytes.fromhex(entry["public_key"]))
        self.entry = entry

    def problems(self, what):
        out = []
        if self.public_bytes.hex() != self.entry["public_key"]:
            out.append("%s: public_key is not the secret's public key" % what)
        if key_id(self.public_bytes) != self.entry["key_id"]:
            out.append("%s: key_id: expected %r, computed %r"
                       % (what, self.entry["key_id"], key_id(self.public_bytes)))
        return out


# --- Checking ------------------------------------------------------------------------

def check_vector(index, v, prev_hash, service, player):
    """Returns a list of mismatch descriptions (empty when the vector passes)."""
    problems = []

    def expect(field, want, got):
        if want != got:
            problems.append("%s: expected %r, computed %r" % (field, want, got))

    event = v["event"]
    canon = canonical(event)
    expect("canonical_hex", v["canonical_hex"], canon.hex())
    expect("canonical", v["canonical"], canon.decode("utf-8"))
    h = event_hash(event)
    expect("hash", v["hash"], h.hex())

    expect("v", EVENT_FORMAT_VERSION, event.get("v"))
    expect("seq", index, event.get("seq"))
    expect("prev", prev_hash, event.get("prev"))

    expect("signer", v["signer"], key_id(service.public_bytes))
    recorded = bytes.fromhex(v["sig"])
    if not verify(service.public, recorded, signature_message(bytes.fromhex(v["hash"]))):
        problems.append("sig: does not verify under the service key")
    expect("sig (re-signed)", v["sig"], service.private.sign(signature_message(h)).hex())

    ps = event.get("player_sig")
    if ps is None:
        expect("player_message_hex", None, v.get("player_message_hex"))
    else:
        body = event["body"]
        if body.get("type") != "action":
            problems.append("player_sig: on a %r event" % body.get("type"))
        else:
            # prev enters the player's message as lowercase hex, however the event writes it.
            msg = action_message(event["hand"], event["seq"], event["prev"].lower(),
                                 body["actor"], body["action"])
            expect("player_message_hex", v.get("player_message_hex"), msg.hex())
            expect("player_message", v.get("player_message"),
                   msg[len(ACTION_SIG_TAG) + 1:].decode("utf-8"))
            seat = body["actor"].get("seat") if isinstance(body["actor"], dict) else None
            expect("player_sig actor seat", player.entry.get("seat"), seat)
            expect("player_sig.key_id", ps["key_id"], key_id(player.public_bytes))
            if not verify(player.public, bytes.fromhex(ps["sig"]), msg):
                problems.append("player_sig: does not verify under the player key")
            expect("player_sig (re-signed)", ps["sig"], player.private.sign(msg).hex())
    return problems, h.hex()


def main(argv):
    path = Path(argv[1]) if len(argv) > 1 else DEFAULT_PATH
    doc = load_strict(path.read_text(encoding="utf-8"))
    if doc.get("version") != EVENT_FORMAT_VERSION:
        print("FAIL: file version %r, this checker implements %d"
              % (doc.get("version"), EVENT_FORMAT_VERSION))
        return 1
    tags = (doc.get("event_hash_tag"), doc.get("event_signature_tag"),
            doc.get("action_signature_tag"))
    if tags != (EVENT_HASH_TAG.decode(), EVENT_SIG_TAG.decode(), ACTION_SIG_TAG.decode()):
        print("FAIL: domain tags %r differ from this checker's" % (tags,))
        return 1
    service = TestKey(doc["service_key"])
    player = TestKey(doc["player_key"])
    key_problems = service.problems("service_key") + player.problems("player_key")
    for p in key_problems:
        print("FAIL %s" % p)

    passed = failed = 0
    prev = "00" * 32
    for i, v in enumerate(doc["vectors"]):
        name = v.get("name", "<unnamed>")
        try:
            problems, computed = check_vector(i, v, prev, service, player)
        except Exception as e:  # a malformed vector is a failure, not a crash
            problems, computed = ["error: %s: %s" % (type(e).__name__, e)], None
        # The next event links to the hash recorded here (a wrong one is reported above).
        prev = v.get("hash", computed)
        if problems:
            failed += 1
            for p in problems:
                print("FAIL %s: %s" % (name, p))
        else:
            passed += 1
    if key_problems:
        failed += 1
    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
