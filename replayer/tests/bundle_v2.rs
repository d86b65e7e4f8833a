//! Bundle version 2: a bundle that carries the log proof of its last event
//! (`docs/BUNDLE.md` §1, §4; `docs/TRANSPARENCY.md` §7).
//!
//! `docs/vectors/bundles-v2/bluff-4-seats-relabel.json` is the bundle
//! `docs/vectors/bundles-v1/bluff-4-seats-relabel.json` as version 2, with the log proof of
//! the hand-proof vector of `docs/vectors/transparency-v1.json` (the same small log of 11
//! leaves, leaf 5, salt `0x0d × 32`), its checkpoint signed, as the service signs its
//! checkpoints, by the key that signed the events (the public test key `0x01 × 32`).
//! [`bundle_v2_vector_matches_golden_file`] checks the generator still writes exactly that
//! file; [`regenerate_bundle_v2_vector`] writes it (`REGENERATE_VECTORS=1`). The
//! independent check is `tests/python/check_transparency_vectors.py`.

use std::path::PathBuf;
use std::process::Command;

use serde_json::{json, Value};

use replayer::log::{PublicKey, SigningKeyPair};
use replayer::tlog::{Checkpoint, NoteSigner, Origin};
use replayer::verify::{verify_value, BundleError, Options, Verdict};

/// The events' test signing key (`docs/vectors/README.md`): 0x01 × 32. Never use it.
const EVENT_SECRET: [u8; 32] = [0x01; 32];
/// Another test key: the transparency vectors' log key, 0x04 × 32.
const OTHER_SECRET: [u8; 32] = [0x04; 32];
const V1: &str = "bundles-v1/bluff-4-seats-relabel.json";
const V2: &str = "bundles-v2/bluff-4-seats-relabel.json";

fn vectors_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/vectors")
}

fn read_json(rel: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(vectors_dir().join(rel)).unwrap()).unwrap()
}

/// The hand-proof vector's checkpoint, re-signed by `secret` under its origin.
fn checkpoint_signed_by(secret: [u8; 32]) -> String {
    let t = read_json("transparency-v1.json");
    let cp = Checkpoint::parse_unverified(t["hand_proof"]["checkpoint"].as_str().unwrap()).unwrap();
    let signer = NoteSigner::new(cp.origin.as_str(), SigningKeyPair::from_secret(secret)).unwrap();
    Checkpoint::new(Origin::new(cp.origin.as_str()).unwrap(), cp.size, cp.root)
        .sign(&signer)
        .unwrap()
}

fn generate() -> String {
    let t = read_json("transparency-v1.json");
    let lp = &t["hand_proof"]["log_proof"];
    let mut b = read_json(V1);
    b["version"] = json!(2);
    b["log_proof"] = json!({
        "checkpoint": checkpoint_signed_by(EVENT_SECRET),
        "leaf_index": lp["leaf_index"],
        "salt": lp["salt"],
        "inclusion": lp["inclusion"],
    });
    serde_json::to_string(&b).unwrap() + "\n"
}

fn v2() -> Value {
    read_json(V2)
}

fn event_key() -> PublicKey {
    SigningKeyPair::from_secret(EVENT_SECRET).public()
}

fn verify(b: &Value, keys: Vec<PublicKey>) -> Result<Verdict, BundleError> {
    verify_value(b.clone(), &Options { trusted_keys: keys })
}

fn rule_of(b: &Value, keys: Vec<PublicKey>) -> String {
    let v = verify(b, keys).unwrap();
    assert!(!v.valid, "{v:?}");
    v.problem.unwrap().rule
}

#[test]
#[ignore = "writes docs/vectors/bundles-v2/bluff-4-seats-relabel.json; run with REGENERATE_VECTORS=1"]
fn regenerate_bundle_v2_vector() {
    if std::env::var("REGENERATE_VECTORS").as_deref() != Ok("1") {
        panic!("set REGENERATE_VECTORS=1 to write {V2}");
    }
    std::fs::create_dir_all(vectors_dir().join("bundles-v2")).unwrap();
    std::fs::write(vectors_dir().join(V2), generate()).unwrap();
}

#[test]
fn bundle_v2_vector_matches_golden_file() {
    let text = std::fs::read_to_string(vectors_dir().join(V2)).unwrap();
    assert!(
        text == generate(),
        "docs/vectors/{V2} is not what the generator writes: the format changed"
    );
}

#[test]
fn a_v2_bundle_verifies_with_its_log_proof() {
    for keys in [vec![], vec![event_key()]] {
        let v = verify(&v2(), keys).unwrap();
        assert!(v.valid, "{v:?}");
        let log = v.log.unwrap();
        assert_eq!((log.leaf_index, log.tree_size), (5, 11));
        assert_eq!(log.signer, event_key().key_id());
        assert!(log.origin.ends_with("/log"), "{}", log.origin);
    }
    // A v1 bundle has no `log` in its verdict, and its JSON is as before.
    let v = verify(&read_json(V1), vec![]).unwrap();
    assert!(v.valid && v.log.is_none());
    assert!(serde_json::to_value(&v).unwrap().get("log").is_none());
}

#[test]
fn a_tampered_inclusion_proof_is_refused_as_log_inclusion() {
    let mut b = v2();
    let h = b["log_proof"]["inclusion"][0].as_str().unwrap().to_string();
    let flipped = format!("{}{}", if h.starts_with('0') { "1" } else { "0" }, &h[1..]);
    b["log_proof"]["inclusion"][0] = json!(flipped);
    assert_eq!(rule_of(&b, vec![]), "log_inclusion");
    // A hash too many or too few.
    let mut b = v2();
    b["log_proof"]["inclusion"].as_array_mut().unwrap().pop();
    assert_eq!(rule_of(&b, vec![]), "log_inclusion");
    // Another leaf index.
    let mut b = v2();
    b["log_proof"]["leaf_index"] = json!(4);
    assert_eq!(rule_of(&b, vec![]), "log_inclusion");
    let mut b = v2();
    b["log_proof"]["leaf_index"] = json!(11);
    assert_eq!(rule_of(&b, vec![]), "log_inclusion");
}

#[test]
fn a_tampered_salt_is_refused_as_log_inclusion() {
    let mut b = v2();
    b["log_proof"]["salt"] = json!("0e".repeat(32));
    assert_eq!(rule_of(&b, vec![event_key()]), "log_inclusion");
}

#[test]
fn a_tampered_checkpoint_is_refused_as_log_checkpoint() {
    // The size changed in the signed text: the signature no longer holds.
    let mut b = v2();
    let cp = b["log_proof"]["checkpoint"]
        .as_str()
        .unwrap()
        .replacen("\n11\n", "\n12\n", 1);
    b["log_proof"]["checkpoint"] = json!(cp);
    assert_eq!(rule_of(&b, vec![]), "log_checkpoint");
    // Signed by a key that is neither trusted nor carried.
    let mut b = v2();
    b["log_proof"]["checkpoint"] = json!(checkpoint_signed_by(OTHER_SECRET));
    assert_eq!(rule_of(&b, vec![]), "log_checkpoint");
    assert_eq!(rule_of(&b, vec![event_key()]), "log_checkpoint");
    // ... which verifies when that key is trusted too (and signed the events' key's way).
    let other = SigningKeyPair::from_secret(OTHER_SECRET).public();
    let v = verify(&b, vec![event_key(), other]).unwrap();
    assert!(v.valid, "{v:?}");
    // Not a checkpoint at all.
    let mut b = v2();
    b["log_proof"]["checkpoint"] = json!("not a note\n");
    assert_eq!(rule_of(&b, vec![]), "log_checkpoint");
}

#[test]
fn the_hand_is_judged_before_its_log_proof() {
    let mut b = v2();
    b["records"][3]["event"]["time_ms"] = json!(1);
    b["log_proof"]["salt"] = json!("0e".repeat(32));
    assert_eq!(rule_of(&b, vec![]), "hash");
}

#[test]
fn versions_and_log_proof_go_together() {
    let mut b = v2();
    b["version"] = json!(1);
    assert!(matches!(verify(&b, vec![]), Err(BundleError::Shape(_))));
    let mut b = read_json(V1);
    b["version"] = json!(2);
    assert!(matches!(verify(&b, vec![]), Err(BundleError::Shape(_))));
    let mut b = v2();
    b["version"] = json!(3);
    assert!(matches!(
        verify(&b, vec![]),
        Err(BundleError::Version { .. })
    ));
    // A log proof of the wrong shape makes the bundle unreadable (the envelope).
    for bad in [
        json!(["cp", 5, "00", []]),
        json!({"checkpoint": "x", "leaf_index": 5, "salt": "0d", "inclusion": []}),
        json!({"checkpoint": "x", "leaf_index": 5, "salt": "0d".repeat(32), "inclusion": [], "extra": 1}),
    ] {
        let mut b = v2();
        b["log_proof"] = bad;
        assert!(matches!(verify(&b, vec![]), Err(BundleError::Shape(_))));
    }
}

fn replayer(args: &[&str]) -> (i32, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_replayer"))
        .args(args)
        .output()
        .unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr),
    )
}

#[test]
fn the_cli_checks_a_v2_bundle_and_uses_its_proof() {
    let dir = std::env::temp_dir().join(format!("bundle-v2-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = vectors_dir().join(V2);
    let p = path.to_str().unwrap();
    let key = event_key().to_hex();
    let (code, out) = replayer(&["verify", p, "--key", &key]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("club log: the last event is leaf 5"), "{out}");
    let (code, out) = replayer(&["verify", p, "--json"]);
    assert_eq!(code, 0, "{out}");

    // A tampered salt: exit 1, naming the rule.
    let mut b = v2();
    b["log_proof"]["salt"] = json!("0e".repeat(32));
    let bad = dir.join("bad.json");
    std::fs::write(&bad, serde_json::to_string(&b).unwrap()).unwrap();
    let (code, out) = replayer(&["verify", bad.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("log_inclusion"), "{out}");
    assert!(
        !out.contains(&"0e".repeat(32)),
        "the salt is not printed: {out}"
    );

    // `log inclusion` without --proof uses the bundle's.
    let cp = dir.join("cp");
    std::fs::write(&cp, v2()["log_proof"]["checkpoint"].as_str().unwrap()).unwrap();
    let cp = cp.to_str().unwrap();
    let origin = Checkpoint::parse_unverified(v2()["log_proof"]["checkpoint"].as_str().unwrap())
        .unwrap()
        .origin;
    let vkey = replayer::tlog::NoteVerifier::new(origin.as_str(), event_key())
        .unwrap()
        .vkey();
    let (code, out) = replayer(&["log", "inclusion", p, "--checkpoint", cp, "--key", &vkey]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("is leaf 5"), "{out}");
    let (code, out) = replayer(&[
        "log",
        "inclusion",
        bad.to_str().unwrap(),
        "--checkpoint",
        cp,
        "--key",
        &vkey,
    ]);
    assert_eq!(code, 1, "{out}");
    // A v1 bundle without --proof: a usage error.
    let v1 = vectors_dir().join(V1);
    let (code, out) = replayer(&["log", "inclusion", v1.to_str().unwrap(), "--checkpoint", cp]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("no log proof"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

fn schema(rel: &str) -> jsonschema::Validator {
    let text = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../docs")
            .join(rel),
    )
    .unwrap();
    let schema: Value = serde_json::from_str(&text).unwrap();
    jsonschema::draft202012::meta::validate(&schema)
        .unwrap_or_else(|e| panic!("{rel} is not a valid draft 2020-12 schema: {e}"));
    jsonschema::draft202012::new(&schema).unwrap()
}

#[test]
fn the_v2_schema_takes_v2_bundles_only() {
    let v2_schema = schema("bundle-v2.schema.json");
    let v1_schema = schema("bundle-v1.schema.json");
    let errors: Vec<String> = v2_schema
        .iter_errors(&v2())
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    assert!(!v1_schema.is_valid(&v2()));
    assert!(!v2_schema.is_valid(&read_json(V1)));
    for (member, bad) in [
        ("salt", json!("0D".repeat(32))),
        ("leaf_index", json!(-1)),
        ("inclusion", json!(["00"])),
        ("checkpoint", json!("no signature\n")),
    ] {
        let mut b = v2();
        b["log_proof"][member] = bad;
        assert!(!v2_schema.is_valid(&b), "{member}");
    }
    let mut b = v2();
    b["log_proof"]["extra"] = json!(1);
    assert!(!v2_schema.is_valid(&b));
}
