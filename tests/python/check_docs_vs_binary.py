#!/usr/bin/env python3
"""The published formats say what the binary does (issue 32, point 7).

Each check below states something docs/BUNDLE.md, docs/EVENT-LOG.md, the JSON Schemas or
README.md says, and tests it against `replayer` (built here with cargo unless REPLAYER names
a binary) or against the documents themselves:

- schemas: every vector, and a simulated bundle and match file (plain, and dealt from a
  seed chain with player signatures required) of every game the binary has an engine for,
  pass the schema of their version; the schemas, EVENT-LOG §3 and BUNDLE §5 count the same
  nine body kinds; award `points` is u32 in text, both bundle schemas, the match schema and
  the binary;
- hex case: every event member the Notation of EVENT-LOG.md lists is refused in upper case
  by the rule it names, and every envelope member BUNDLE.md §1 lists is read in either case;
- match files (BUNDLE.md §8): quarantined hands right after the last hand, a gap before one,
  a match cut short, an unreadable hand inside a match, version 3 with empty arrays, the
  shape of a problem;
- EVENT-LOG §3.4: a wrong `cards` count is rule `shuffle_request`; §12 names every rule the
  verifier's fold and passes can report, and §12 A names both bundle versions;
- section numbers: every `docs/X.md` §N cited anywhere in the repository exists, and each
  document's sections run in order; README.md names every schema in docs/.

Ends with one line "N passed, M failed" (tests/python/check_all.py runs it).
"""

import copy
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
DOCS = REPO / "docs"
sys.path.insert(0, str(HERE))

import jsonschema  # noqa: E402
from cryptography.hazmat.primitives.asymmetric.ed25519 import (  # noqa: E402
    Ed25519PrivateKey,
)

from check_event_vectors import event_hash, signature_message  # noqa: E402

PASSED = 0
FAILED = 0
TEST_SECRET = bytes([1] * 32)  # the vectors' public test key (docs/vectors/README.md)
TMP = Path(tempfile.mkdtemp(prefix="docs-vs-binary-"))


def check(ok, what):
    global PASSED, FAILED
    if ok:
        PASSED += 1
    else:
        FAILED += 1
        print("FAIL %s" % what)


def replayer():
    """The binary: $REPLAYER, else a fresh debug build of the workspace's replayer."""
    if os.environ.get("REPLAYER"):
        return os.environ["REPLAYER"]
    subprocess.run(
        ["cargo", "build", "--locked", "-q", "-p", "replayer", "--bin", "replayer"],
        cwd=REPO,
        check=True,
    )
    target = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    return str(target / "debug" / "replayer")


BIN = None


def verify(doc, *args):
    """Run `replayer verify --json` on a document: (exit code, verdict or None, stderr)."""
    path = TMP / "doc.json"
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    p = subprocess.run(
        [BIN, "verify", "--json", str(path), *args], capture_output=True, text=True
    )
    try:
        v = json.loads(p.stdout)
    except ValueError:
        v = None
    return p.returncode, v, p.stderr


def load(path):
    return json.loads(Path(path).read_text(encoding="utf-8"))


def schema(name):
    s = load(DOCS / name)
    return jsonschema.Draft202012Validator(s)


SCHEMAS = {}


def valid_against(name, doc):
    if name not in SCHEMAS:
        SCHEMAS[name] = schema(name)
    return SCHEMAS[name].is_valid(doc)


def bundle_schema_of(b):
    return "bundle-v2.schema.json" if b.get("version") == 2 else "bundle-v1.schema.json"


def match_schema_of(m):
    return "match-v%d.schema.json" % m["version"]


def check_match_schema(m, what):
    check(valid_against(match_schema_of(m), m), "%s: %s" % (what, match_schema_of(m)))
    for i, h in enumerate(m["hands"]):
        check(valid_against(bundle_schema_of(h), h), "%s: hand %d, bundle schema" % (what, i))


def resign(bundle, secret=TEST_SECRET, start=0):
    """Re-hash, re-chain and re-sign every record from `start` on, as a signer would."""
    key = Ed25519PrivateKey.from_private_bytes(secret)
    records = bundle["records"]
    for i in range(start, len(records)):
        e = records[i]["event"]
        if i > start:
            e["prev"] = records[i - 1]["hash"].lower()
        h = event_hash(e)
        records[i]["hash"] = h.hex()
        records[i]["sig"] = key.sign(signature_message(h)).hex()
    return bundle


def rule_of(v):
    p = (v or {}).get("problem") or {}
    return p.get("rule"), p.get("event", p.get("index"))


# --- Simulated hands of every game, against the schemas ---------------------------------


def simulate(game, hands=None, extra=()):
    key = TMP / "test.key"
    key.write_text(TEST_SECRET.hex())
    out = TMP / ("%s-%s.json" % (game, hands or 1))
    for players in (4, 3, 2, 5, 6):
        args = [BIN, "simulate", "--game", game, "--players", str(players)]
        args += ["--seed", "2a" * 32, "--key-file", str(key), "-o", str(out)]
        if hands:
            args += ["--hands", str(hands)]
        p = subprocess.run(args + list(extra), capture_output=True, text=True)
        if p.returncode == 0:
            return load(out)
        if "no rules engine" in p.stderr:
            return None
    return None


def check_games():
    games = load(DOCS / "bundle-v1.schema.json")["$defs"]["game_id"]["enum"]
    simulated = []
    kinds_seen = set()
    for game in games:
        b = simulate(game)
        if b is None:
            print("game %s: no rules engine in this build, nothing to simulate" % game)
            continue
        simulated.append(game)
        check(valid_against("bundle-v1.schema.json", b), "%s: bundle against bundle-v1" % game)
        code, v, _ = verify(b)
        check(code == 0 and v["valid"], "%s: simulated bundle verifies" % game)
        kinds_seen |= {r["event"]["body"]["type"] for r in b["records"]}
        for extra in ((), ("--seed-chain", "5", "--signatures-required")):
            m = simulate(game, 3, extra)
            what = "%s match %s" % (game, " ".join(extra) or "plain")
            check(m is not None, "%s: simulated" % what)
            if m is None:
                continue
            check_match_schema(m, what)
            code, v, _ = verify(m)
            check(code == 0 and v["valid"], "%s: verifies" % what)
    check({"bist-o-yek", "hokm", "bluff"} <= set(simulated), "the three first games simulate")
    return kinds_seen


def check_vectors_against_schemas():
    for path in sorted((DOCS / "vectors").glob("bundles-v*/*.json")):
        b = load(path)
        check(valid_against(bundle_schema_of(b), b), "%s: its bundle schema" % path.name)
        code, v, _ = verify(b)
        check(code == 0, "%s: verifies" % path.name)
    for path in sorted((DOCS / "vectors").glob("match-v*/*.json")):
        m = load(path)
        check_match_schema(m, path.name)
        code, v, _ = verify(m)
        check(code == 0, "%s: verifies" % path.name)


def check_body_kinds(kinds_seen):
    for name in ("bundle-v1.schema.json", "bundle-v2.schema.json"):
        s = load(DOCS / name)
        kinds = None
        for m in re.finditer(r'"enum": \[([^\]]*)\]', (DOCS / name).read_text(encoding="utf-8")):
            names = re.findall(r'"([a-z_]+)"', m.group(1))
            if "hand_started" in names:
                kinds = names
        check(kinds is not None and len(kinds) == 9, "%s: an enum of nine body kinds" % name)
        check(kinds_seen <= set(kinds or []), "%s: every simulated body kind" % name)
    ev = (DOCS / "EVENT-LOG.md").read_text(encoding="utf-8")
    sec3 = ev[ev.index("## 3. Bodies"):ev.index("## 4. The record")]
    headed = re.findall(r"^### 3\.\d+ `([a-z_]+)`", sec3, re.M)
    check(len(headed) == 9, "EVENT-LOG §3 describes nine bodies (%d)" % len(headed))
    check("one of nine kinds" in sec3, "EVENT-LOG §3 says nine kinds")
    bundle = (DOCS / "BUNDLE.md").read_text(encoding="utf-8")
    check("eight kinds" not in bundle and "nine kinds" in bundle, "BUNDLE §5 says nine kinds")
    check("eight kinds" not in ev, "EVENT-LOG says eight kinds nowhere")


# --- Award points: u32 everywhere --------------------------------------------------------


def check_points():
    ev = (DOCS / "EVENT-LOG.md").read_text(encoding="utf-8")
    row = [l for l in ev.splitlines() if l.startswith("| `award` |")]
    check(len(row) == 1 and "`points` (`u32`" in row[0], "EVENT-LOG §3.1: points is u32")
    for name in ("bundle-v1.schema.json", "bundle-v2.schema.json", "match-v3.schema.json"):
        text = (DOCS / name).read_text(encoding="utf-8")
        check("4294967295" in text, "%s: a u32 bound" % name)
    m = load(DOCS / "vectors/match-v3/hokm-4-seats-2-hands-penalty.json")
    hand = m["hands"][1]
    award = hand["records"][0]["event"]["body"]["adjustments"][0]["award"]
    for points, refused in ((2**32 - 1, False), (2**32, True), (2**53 - 1, True)):
        b = copy.deepcopy(hand)
        b["records"][0]["event"]["body"]["adjustments"][0]["award"]["points"] = points
        resign(b)
        code, v, _ = verify(b)
        rule, at = rule_of(v)
        check(
            (rule == "event_format" and at == 0) == refused,
            "points %d: the binary %s it (got %s at %s)"
            % (points, "refuses" if refused else "reads", rule, at),
        )
        check(
            valid_against("bundle-v1.schema.json", b) == (not refused),
            "points %d: the schema %s it" % (points, "refuses" if refused else "allows"),
        )
    check(award["points"] >= 1, "the vector's award has points")


# --- Hex case ----------------------------------------------------------------------------


def upper_at(doc, path):
    """Uppercase the hex string at `path` (a list of keys and indexes) in place."""
    o = doc
    for k in path[:-1]:
        o = o[k]
    o[path[-1]] = o[path[-1]].upper()
    return o[path[-1]]


def check_chain_ranges():
    """EVENT-LOG.md, Notation and §3.1: `length` and `position` are u32, then 1..1,000,000."""
    chained = load(DOCS / "vectors/match-v1/hokm-4-seats-3-hands-seed-chain.json")["hands"][0]
    for member, value, rule in [
        ("length", 0, "seed_chain"),
        ("length", 1_000_001, "seed_chain"),
        ("length", 2**32 - 1, "seed_chain"),
        ("length", 2**32, "event_format"),
        ("position", 0, "seed_chain"),
        ("position", 6, "seed_chain"),
        ("position", 2**32, "event_format"),
    ]:
        b = copy.deepcopy(chained)
        b["records"][0]["event"]["body"]["seed_chain"][member] = value
        resign(b)
        code, v, _ = verify(b)
        check(rule_of(v) == (rule, 0), "seed_chain %s %d: %s at 0 (got %s)" % (
            member, value, rule, rule_of(v)))
        # The schema cannot compare position with length (BUNDLE.md §5): it checks ranges.
        in_range = 1 <= value <= 1_000_000
        check(valid_against("bundle-v1.schema.json", b) == in_range,
              "seed_chain %s %d: the schema %s it" % (member, value,
                                                     "allows" if in_range else "refuses"))


def check_event_hex():
    """EVENT-LOG.md, Notation: each hex member of an event is refused in upper case."""
    ev = (DOCS / "EVENT-LOG.md").read_text(encoding="utf-8")
    notation = ev[ev.index("## Notation"):ev.index("## 1. JSON in events")]
    plain = load(DOCS / "vectors/match-v1/hokm-4-seats-3-hands.json")["hands"][0]
    chained = load(DOCS / "vectors/match-v1/hokm-4-seats-3-hands-seed-chain.json")["hands"][1]
    ruled = load(DOCS / "vectors/match-v3/hokm-4-seats-2-hands-penalty.json")["hands"][1]
    last = len(plain["records"]) - 1

    def seq_of(b, kind):
        return next(i for i, r in enumerate(b["records"]) if r["event"]["body"]["type"] == kind)

    signed = next(
        i for i, r in enumerate(chained["records"]) if "player_sig" in r["event"]
    )
    cs = seq_of(plain, "client_seed")
    sc = seq_of(plain, "shuffle_committed")
    cases = [
        # (name in the Notation, bundle, record, path inside the event, rule)
        ("`prev`", plain, 1, ["prev"], "event_format"),
        ("`commitment`", plain, 0, ["body", "commitment"], "event_format"),
        ("`shuffle_committed`", plain, sc, ["body", "commitment"], "event_format"),
        ("`seed`", plain, cs, ["body", "seed"], "event_format"),
        ("`public_key`", chained, 0, ["body", "seats", 0, "public_key"], "event_format"),
        ("`prev_hand.hash`", chained, 0, ["body", "prev_hand", "hash"], "event_format"),
        ("`player_sig.sig`", chained, signed, ["player_sig", "sig"], "event_format"),
        ("`anchor`", chained, 0, ["body", "seed_chain", "anchor"], "event_format"),
        ("`chain_seed`", chained, len(chained["records"]) - 1, ["body", "chain_seed"],
         "event_format"),
        ("`hash`", ruled, 0, ["body", "adjustments", 0, "hash"], "event_format"),
        ("`server_seed`", plain, last, ["body", "seeds", 1, "server_seed"], "server_seed"),
    ]
    for name, bundle, i, path, rule in cases:
        check(name in notation, "the Notation names %s" % name)
        b = copy.deepcopy(bundle)
        was = upper_at(b["records"][i]["event"], path)
        check(was != was.lower(), "%s at record %d has a letter to uppercase" % (name, i))
        resign(b, start=i)
        code, v, _ = verify(b)
        check(
            rule_of(v) == (rule, i),
            "uppercase %s: %s at %d (got %s)" % (name, rule, i, rule_of(v)),
        )
    # A private action's commitment and an opening's salt: no engine of this build may
    # seal one, so the events are built here; pass 1 judges their written form before any
    # engine sees them.
    check("private action's `commitment`" in notation, "the Notation names a private action's commitment")
    check("`inputs[].salt`" in notation, "the Notation names an opening's salt")
    for upper in (False, True):
        b = copy.deepcopy(plain)
        i = seq_of(b, "action")
        e = b["records"][i]["event"]
        e["body"] = {
            "type": "private_action",
            "actor": e["body"]["actor"],
            "commitment": "ab" * 32,
            "public": {"type": "arrange"},
        }
        if upper:
            e["body"]["commitment"] = e["body"]["commitment"].upper()
        resign(b, start=i)
        code, v, _ = verify(b)
        got = rule_of(v)
        check((got == ("event_format", i)) == upper,
              "private action commitment, %s: %s" % ("upper" if upper else "lower", got))
        b = copy.deepcopy(plain)
        body = b["records"][last]["event"]["body"]
        body["inputs"] = [{"seq": 3, "salt": ("cd" * 32).upper() if upper else "cd" * 32,
                           "action": {"type": "arrange"}}]
        resign(b, start=last)
        code, v, _ = verify(b)
        got = rule_of(v)
        check((got == ("event_format", last)) == upper,
              "opening salt, %s: %s" % ("upper" if upper else "lower", got))


def check_envelope_hex():
    """BUNDLE.md §1: the envelope members read in either case (and nothing else)."""
    bundle = (DOCS / "BUNDLE.md").read_text(encoding="utf-8")
    sec1 = bundle[bundle.index("## 1. The document"):bundle.index("## 2. Events")]
    v1 = load(DOCS / "vectors/bundles-v1/bluff-4-seats-relabel.json")
    v2 = load(DOCS / "vectors/bundles-v2/bluff-4-seats-relabel.json")
    for name, doc, path in [
        ("`hash`", v1, ["records", 2, "hash"]),
        ("`sig`", v1, ["records", 2, "sig"]),
        ("`keys[].public_key`", v1, ["keys", 0, "public_key"]),
        ("`log_proof.salt`", v2, ["log_proof", "salt"]),
        ("`log_proof.inclusion[]`", v2, ["log_proof", "inclusion", 0]),
    ]:
        check(name in sec1, "BUNDLE §1 lists %s as read in either case" % name)
        d = copy.deepcopy(doc)
        upper_at(d, path)
        code, v, err = verify(d)
        check(code == 0 and v["valid"], "uppercase %s is read (exit %d %s)" % (name, code, err))
    m = load(DOCS / "vectors/match-v3/hokm-4-seats-2-hands-penalty.json")
    sec8 = bundle[bundle.index("## 8. Match files"):bundle.index("## 9. Version 2")]
    for name, path in [
        ("`ruling_keys[].public_key`", ["ruling_keys", 0, "public_key"]),
        ("`rulings[].hash`", ["rulings", 0, "hash"]),
        ("`rulings[].sig`", ["rulings", 0, "sig"]),
        ("`prev`, `official.public_key`, `official_sig`", ["rulings", 0, "entry", "prev"]),
        ("`official.public_key`", ["rulings", 0, "entry", "body", "official", "public_key"]),
        ("`official_sig`", ["rulings", 0, "entry", "body", "official_sig"]),
    ]:
        check(name in sec8, "BUNDLE §8 lists %s as read in either case" % name)
        d = copy.deepcopy(m)
        upper_at(d, path)
        code, v, err = verify(d)
        check(code == 0 and v["valid"], "uppercase %s is read (exit %d %s)" % (name, code, err))


def check_entry_is_hashed_in_written_form():
    """BUNDLE.md §8: any change to a ruling's entry but hex case breaks adjustment_entry."""
    m = load(DOCS / "vectors/match-v3/hokm-4-seats-2-hands-penalty.json")
    d = copy.deepcopy(m)
    d["rulings"][0]["entry"]["body"]["reason"] += "."
    code, v, _ = verify(d)
    check(rule_of(v) == ("adjustment_entry", 1), "a changed ruling entry: %s" % (rule_of(v),))


# --- Match files -------------------------------------------------------------------------


def check_matches():
    m = load(DOCS / "vectors/match-v1/hokm-4-seats-3-hands.json")
    n = len(m["hands"])
    q = {"hand": "q-%d" % (n + 1), "hand_no": n + 1, "reason": "a row edited, دست",
         "quarantined_ms": 1767225600000, "seq": 3, "rule": "hash"}

    def v2(*qs):
        d = copy.deepcopy(m)
        d["version"] = 2
        d["quarantined"] = list(qs)
        return d

    # Rule 3: right after the last hand is the normal case; a run too; a gap breaks.
    for doc, want, what in [
        (v2(q), None, "a quarantined hand numbered right after the last"),
        (v2(q, dict(q, hand="q-b", hand_no=n + 2)), None, "two in a run after the last"),
        (v2(dict(q, hand_no=n + 2)), ("hand_no", n), "one past a gap"),
        (v2(dict(q, hand_no=n + 3), dict(q, hand="q-a")), ("hand_no", n), "a run with a gap"),
        (v2(q, dict(q, hand_no=n + 2)), ("quarantined", 0), "one hand listed twice"),
    ]:
        check(valid_against("match-v2.schema.json", doc), "%s: match-v2 schema" % what)
        code, v, _ = verify(doc)
        got = None if v["valid"] else rule_of(v)
        check(got == want and code == (0 if want is None else 1),
              "%s: want %s, got %s (exit %d)" % (what, want, got, code))
        if want == ("hand_no", n):
            check(v["problem"]["hand"] == doc["quarantined"][0]["hand"],
                  "%s: the quarantined hand's id" % what)
    # Cut short after its last hand: valid (BUNDLE §8, what a match file cannot show).
    for k in range(1, n):
        d = copy.deepcopy(m)
        d["hands"] = d["hands"][:k]
        code, v, _ = verify(d)
        check(code == 0 and v["valid"] and v["hands"] == k, "cut after hand %d: valid" % k)
    # A hand removed from the middle: hand_no.
    d = copy.deepcopy(m)
    del d["hands"][1]
    code, v, _ = verify(d)
    check(rule_of(v) == ("hand_no", 1), "a hand removed from the middle: %s" % (rule_of(v),))
    # An unreadable hand: rule `hand`, exit 1, no in_hand, the hands before verified.
    for edit in ("format", "records", "extra"):
        d = copy.deepcopy(m)
        if edit == "format":
            d["hands"][1]["format"] = "persian-cards/other"
        elif edit == "records":
            d["hands"][1]["records"] = []
        else:
            d["hands"][1]["extra"] = 1
        code, v, _ = verify(d)
        p = (v or {}).get("problem") or {}
        check(code == 1 and p.get("rule") == "hand" and p.get("index") == 1
              and "in_hand" not in p and p.get("expected") == "a readable hand bundle"
              and len(v["verdicts"]) == 1,
              "an unreadable hand (%s): %s, exit %d" % (edit, p, code))
    # A hand that does not verify: `in_hand` carries its problem.
    d = copy.deepcopy(m)
    d["hands"][2]["records"][4]["event"]["time_ms"] += 1
    code, v, _ = verify(d)
    p = v["problem"]
    check(code == 1 and p["rule"] == "hand" and p["in_hand"]["rule"] == "hash"
          and p["in_hand"]["event"] == 4, "a hand that does not verify: in_hand %s" % p)
    check(set(p) == {"index", "hand", "in_hand", "rule", "expected", "found"},
          "a match problem's members: %s" % sorted(p))
    # Version 3: empty arrays read as absent, and allowed by the schema.
    d = copy.deepcopy(m)
    d.update(version=3, quarantined=[], trailing_adjustments=[], rulings=[], ruling_keys=[])
    check(valid_against("match-v3.schema.json", d), "version 3 with [] everywhere: schema")
    code, v, _ = verify(d)
    check(code == 0 and v["valid"], "version 3 with [] everywhere: valid")
    # Version 2 with no quarantined hand: unreadable, and the schema refuses it.
    d = v2()
    check(not valid_against("match-v2.schema.json", d), "version 2 with []: schema refuses")
    code, v, _ = verify(d)
    check(code == 2, "version 2 with []: unreadable (exit %d)" % code)


# --- EVENT-LOG §3.4 and §12 --------------------------------------------------------------


def check_cards_count():
    ev = (DOCS / "EVENT-LOG.md").read_text(encoding="utf-8")
    sec = ev[ev.index("### 3.4 `shuffled`"):ev.index("### 3.5 `action`")]
    check("a `cards` other than the engine's request" in sec
          and "`shuffle_request`" in sec, "EVENT-LOG §3.4 names shuffle_request for `cards`")
    b = load(DOCS / "vectors/bundles-v1/bist-o-yek-5-seats-restocks.json")
    for i, r in enumerate(b["records"]):
        if r["event"]["body"]["type"] != "shuffled":
            continue
        for delta in (1, -1):
            d = copy.deepcopy(b)
            d["records"][i]["event"]["body"]["cards"] += delta
            resign(d, start=i)
            code, v, _ = verify(d)
            check(rule_of(v) == ("shuffle_request", i),
                  "cards %+d at %d: %s" % (delta, i, rule_of(v)))


def rules_in_source():
    """Every rule name the verifier's passes and the fold can report."""
    names = set()
    for f in ("replayer/src/dealer.rs", "replayer/src/verify.rs"):
        src = (REPO / f).read_text(encoding="utf-8")
        names |= set(re.findall(r'Mismatch::new\(\s*"([a-z_]+)"', src))
        names |= set(re.findall(r'simple\(\s*[^,]+,\s*"([a-z_]+)"', src))
        names |= set(re.findall(r'rule: "([a-z_]+)"\.into\(\)', src))
    return names


def check_section_12():
    ev = (DOCS / "EVENT-LOG.md").read_text(encoding="utf-8")
    sec = ev[ev.index("## 12. Verification"):ev.index("### The verdict")]
    named = set(re.findall(r"`([a-z_]+)`", sec))
    found = rules_in_source()
    check(len(found) > 40, "rules found in the source: %d" % len(found))
    for r in sorted(found):
        check(r in named, "EVENT-LOG §12 names rule `%s`" % r)
    a = sec[sec.index("### A. Reading"):sec.index("### B. Judging")]
    check("the integer `1` or `2`" in a, "§12 A.2 names both bundle versions")
    vp = ev[ev.index("## 15. Version policy"):ev.index("## Summary of checks")]
    check("`private_action`" in vp, "§15 says how private_action came within version 1")


# --- Section numbers and the README ------------------------------------------------------


def sections(doc):
    text = (DOCS / doc).read_text(encoding="utf-8")
    return re.findall(r"^##+ (\d+(?:\.\d+)?)\.? ", text, re.M), text


def check_sections():
    for doc in sorted(p.name for p in DOCS.glob("*.md")):
        heads, _ = sections(doc)
        top = [int(h) for h in heads if "." not in h]
        check(top == list(range(top[0], top[0] + len(top))) if top else True,
              "%s: sections in order %s" % (doc, top))
    cite = re.compile(r"docs/([A-Z-]+\.md)`?,? §(\d+(?:\.\d+)?)")
    roots = ["docs", "replayer/src", "replayer/tests", "services/src", "tests", "viewer/src",
             "viewer/test", "ops", "README.md"]
    for root in roots:
        base = REPO / root
        files = [base] if base.is_file() else [p for p in base.rglob("*") if p.is_file()
                                               and p.suffix in (".md", ".rs", ".py", ".js",
                                                                ".mjs", ".json", ".sh")]
        for f in files:
            text = f.read_text(encoding="utf-8", errors="replace")
            for doc, num in cite.findall(text):
                if not (DOCS / doc).exists():
                    continue
                heads, _ = sections(doc)
                check(num in heads, "%s cites %s §%s, which does not exist" % (
                    f.relative_to(REPO), doc, num))
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    for s in sorted(p.name for p in DOCS.glob("*.schema.json")):
        check(s in readme, "README.md names docs/%s" % s)


def main():
    global BIN
    BIN = replayer()
    check_sections()
    check_body_kinds(check_games())
    check_vectors_against_schemas()
    check_points()
    check_chain_ranges()
    check_event_hex()
    check_envelope_hex()
    check_entry_is_hashed_in_written_form()
    check_matches()
    check_cards_count()
    check_section_12()
    print("%d passed, %d failed" % (PASSED, FAILED))
    return 0 if FAILED == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
