//! The committed bundle and match vectors (`docs/vectors/bundles-v1/`, `docs/vectors/match-v1/`,
//! described in `docs/vectors/README.md`) must keep verifying: the Python checks
//! (`tests/python/check_shuffle_sources.py`, `check_match_vectors.py`) re-derive their shuffle
//! sources, faces and match links from the documents alone, so a change to the format that
//! these files no longer follow must break a test here too.

use std::path::{Path, PathBuf};

use replayer::log::SigningKeyPair;
use replayer::matches::verify_match_value;
use replayer::verify::{verify_value, Options, Trust};
use serde_json::Value;

/// The vectors are signed with the public test key whose secret is `0x01` × 32
/// (`docs/EVENT-LOG.md` §13).
fn trusted() -> Options {
    Options {
        trusted_keys: vec![SigningKeyPair::from_secret([1; 32]).public()],
    }
}

fn schema(name: &str) -> jsonschema::Validator {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../docs")
        .join(name);
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    jsonschema::draft202012::new(&schema).unwrap()
}

fn vectors(dir: &str) -> Vec<(PathBuf, Value)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../docs/vectors")
        .join(dir);
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            let v = serde_json::from_str(&text).unwrap();
            (p, v)
        })
        .collect()
}

#[test]
fn bundle_vectors_verify() {
    let all = vectors("bundles-v1");
    assert!(all.len() >= 2, "too few bundle vectors");
    let mut gathers = 0;
    for (path, v) in all {
        let records = v["records"].as_array().unwrap();
        gathers += records
            .iter()
            .filter(|r| r["event"]["body"]["source"].get("gather").is_some())
            .count();
        let verdict = verify_value(v, &trusted()).unwrap();
        assert!(verdict.valid, "{}: {:?}", path.display(), verdict.problem);
        assert_eq!(verdict.trust, Trust::TrustedKey);
    }
    assert!(gathers > 0, "no vector has a gather source");
}

#[test]
fn match_vectors_verify() {
    let all = vectors("match-v1");
    assert!(!all.is_empty(), "no match vector");
    for (path, v) in all {
        let hands = v["hands"].as_array().unwrap().len();
        assert!(hands >= 2, "{}: {hands} hands", path.display());
        let verdict = verify_match_value(v, &trusted()).unwrap();
        assert!(verdict.valid, "{}: {:?}", path.display(), verdict.problem);
        assert_eq!(verdict.hands, hands);
    }
}

/// The vectors follow the JSON Schemas, whose hex patterns are lowercase like the written form
/// of an event (`docs/BUNDLE.md` §5): an uppercase `prev` fails the schema.
#[test]
fn vectors_follow_the_schemas() {
    let bundle = schema("bundle-v1.schema.json");
    let mut hands: Vec<Value> = vectors("bundles-v1").into_iter().map(|(_, v)| v).collect();
    for (path, m) in vectors("match-v1") {
        let errors: Vec<String> = schema("match-v1.schema.json")
            .iter_errors(&m)
            .map(|e| e.to_string())
            .collect();
        assert!(errors.is_empty(), "{}: {errors:?}", path.display());
        hands.extend(m["hands"].as_array().unwrap().iter().cloned());
    }
    for b in &hands {
        let errors: Vec<String> = bundle.iter_errors(b).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{}: {errors:?}", b["hand"]);
    }
    let mut upper = hands[0].clone();
    let prev = upper["records"][1]["event"]["prev"]
        .as_str()
        .unwrap()
        .to_uppercase();
    upper["records"][1]["event"]["prev"] = Value::String(prev);
    assert!(!bundle.is_valid(&upper));
}

/// The match vectors of version 3 (`docs/vectors/match-v3/`: hands that carry penalty
/// rulings) verify, follow `docs/match-v3.schema.json` (and not version 1's), and their
/// hands, one with `adjustments`, follow the bundle schema.
#[test]
fn match_v3_vectors_verify_and_follow_their_schema() {
    let all = vectors("match-v3");
    assert!(!all.is_empty(), "no match-v3 vector");
    let v3 = schema("match-v3.schema.json");
    let v1 = schema("match-v1.schema.json");
    let bundle = schema("bundle-v1.schema.json");
    for (path, m) in all {
        let errors: Vec<String> = v3.iter_errors(&m).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{}: {errors:?}", path.display());
        assert!(!v1.is_valid(&m), "{}: a version 1 file?", path.display());
        for b in m["hands"].as_array().unwrap() {
            let errors: Vec<String> = bundle.iter_errors(b).map(|e| e.to_string()).collect();
            assert!(errors.is_empty(), "{}: {errors:?}", b["hand"]);
        }
        let verdict = verify_match_value(m, &trusted()).unwrap();
        assert!(verdict.valid, "{}: {:?}", path.display(), verdict.problem);
        assert!(!verdict.adjustments.is_empty(), "{}", path.display());
    }
}
