//! Malformed bundles: the reader never panics, and a file that is not a readable bundle of
//! version 1 is an `Err(BundleError)` (exit code 2 in the CLI) whose message names the
//! problem. `replay_bytes` gets the same inputs and must not panic either.
//!
//! What is an error and what is a verdict: the envelope (not JSON, wrong shape, missing or
//! mistyped members, another format or version, no records, nesting beyond serde_json's
//! limit, duplicate keys anywhere, invalid UTF-8) is unreadable. An event that breaks the
//! event format (a fraction, a number beyond 2^53 − 1, nesting beyond 32, a member the
//! format does not know) is judged as a verdict at that record by pass 1 of the verifier.

use std::sync::OnceLock;

use replayer::engine::GameId;
use replayer::log::{hash_event_json, signature_message, SigningKeyPair};
use replayer::sim::simulate;
use replayer::verify::{replay_bytes, verify_bytes, BundleError, Options};
use serde_json::{json, Value};

fn service_key() -> SigningKeyPair {
    SigningKeyPair::from_secret([7; 32])
}

fn trusted() -> Options {
    Options {
        trusted_keys: vec![service_key().public()],
    }
}

/// A readable, valid bundle (3 players) as JSON.
fn good() -> &'static Value {
    static B: OnceLock<Value> = OnceLock::new();
    B.get_or_init(|| {
        let mut seed = [0u8; 32];
        seed[0] = 3;
        let b = simulate(GameId::BistOYek, 3, seed, &service_key(), 1_767_225_600_000).unwrap();
        serde_json::to_value(&b).unwrap()
    })
}

fn good_text() -> String {
    serde_json::to_string(good()).unwrap()
}

/// The bundle's text with the first occurrence of `from` replaced by `to`.
fn edit_text(from: &str, to: &str) -> Vec<u8> {
    let text = good_text();
    assert!(text.contains(from), "{from:?} is not in the bundle");
    text.replacen(from, to, 1).into_bytes()
}

fn with(member: &str, value: Value) -> Vec<u8> {
    let mut b = good().clone();
    b[member] = value;
    serde_json::to_vec(&b).unwrap()
}

fn without(member: &str) -> Vec<u8> {
    let mut b = good().clone();
    b.as_object_mut().unwrap().remove(member);
    serde_json::to_vec(&b).unwrap()
}

/// Longest error message accepted: a message names the problem, it does not echo the input.
const MAX_MESSAGE: usize = 2_000;

/// `bytes` is not a readable bundle: `verify_bytes` (with and without a trusted key) and
/// `replay_bytes` give an error, and the message contains every one of `needles`
/// (case-insensitively) and stays short.
#[track_caller]
fn expect_unreadable(bytes: &[u8], what: &str, needles: &[&str]) -> BundleError {
    let e = match verify_bytes(bytes, &Options::default()) {
        Err(e) => e,
        Ok(v) => panic!(
            "{what}: read as a bundle; verdict: valid {}, problem {:?}",
            v.valid, v.problem
        ),
    };
    let msg = e.to_string();
    assert!(
        msg.len() <= MAX_MESSAGE,
        "{what}: the error message is {} bytes long: {}…",
        msg.len(),
        msg.chars().take(200).collect::<String>()
    );
    let lower = msg.to_lowercase();
    for n in needles {
        assert!(
            lower.contains(&n.to_lowercase()),
            "{what}: the message {msg:?} does not mention {n:?}"
        );
    }
    assert_eq!(
        verify_bytes(bytes, &trusted()).err().as_ref(),
        Some(&e),
        "{what}: a trusted key changes nothing about readability"
    );
    for step in [None, Some(0), Some(3)] {
        assert!(
            replay_bytes(bytes, step, &Options::default()).is_err(),
            "{what}: replay step {step:?} read it"
        );
    }
    e
}

#[test]
fn the_good_bundle_is_readable_and_valid() {
    let v = verify_bytes(good_text().as_bytes(), &trusted()).unwrap();
    assert!(v.valid, "{:?}", v.problem);
    assert!(replay_bytes(good_text().as_bytes(), Some(3), &trusted()).is_ok());
}

#[test]
fn not_json() {
    let e = expect_unreadable(b"hello", "not JSON", &["JSON"]);
    assert!(matches!(e, BundleError::Json(_)), "{e:?}");
    let e = expect_unreadable(b"{\"format\": ", "cut short", &["JSON"]);
    assert!(matches!(e, BundleError::Json(_)), "{e:?}");
    // The good bundle cut in the middle.
    let text = good_text();
    let e = expect_unreadable(&text.as_bytes()[..text.len() / 2], "half a file", &["JSON"]);
    assert!(matches!(e, BundleError::Json(_)), "{e:?}");
    // Trailing garbage after a good bundle.
    let e = expect_unreadable(format!("{text} x").as_bytes(), "trailing", &["JSON"]);
    assert!(matches!(e, BundleError::Json(_)), "{e:?}");
}

#[test]
fn empty_file_and_whitespace() {
    let e = expect_unreadable(b"", "empty file", &["JSON"]);
    assert!(matches!(e, BundleError::Json(_)), "{e:?}");
    let e = expect_unreadable(b" \n\t ", "whitespace only", &["JSON"]);
    assert!(matches!(e, BundleError::Json(_)), "{e:?}");
}

#[test]
fn json_but_not_an_object() {
    for (text, what) in [
        ("[]", "empty array"),
        ("[1, 2, 3]", "array"),
        ("null", "null"),
        ("42", "number"),
        ("\"bundle\"", "string"),
        ("true", "boolean"),
        ("{}", "empty object"),
    ] {
        let e = expect_unreadable(text.as_bytes(), what, &["not a hand bundle"]);
        assert!(matches!(e, BundleError::Shape(_)), "{what}: {e:?}");
    }
}

#[test]
fn a_bundle_written_as_a_json_array_is_not_a_bundle() {
    // BUG (verify.rs parse_value / bundle.rs RawBundle): serde's derived Deserialize also
    // takes a struct from a JSON array of its fields in order, and parse_value checks format
    // and version only when the value is an object. So the good bundle written as
    // [format, version, hand, game, status, keys, records] verifies as VALID, and so does
    // the same array with format "something-else" and version 99: the version policy
    // ("a verifier must refuse a bundle whose format or version it does not implement",
    // docs/BUNDLE.md §7) is bypassed. A bundle is a JSON object (docs/BUNDLE.md §1, the
    // schema's "type": "object").
    let b = good();
    let fields = [
        "format", "version", "hand", "game", "status", "keys", "records",
    ];
    let array: Vec<Value> = fields.iter().map(|f| b[*f].clone()).collect();
    let bytes = serde_json::to_vec(&array).unwrap();
    expect_unreadable(&bytes, "the bundle as an array", &["not a hand bundle"]);
    let mut other = array.clone();
    other[0] = json!("something-else");
    other[1] = json!(99);
    let bytes = serde_json::to_vec(&other).unwrap();
    expect_unreadable(&bytes, "an array of format something-else version 99", &[]);
}

#[test]
fn records_written_as_arrays_are_not_a_bundle() {
    // BUG (same cause, bundle.rs RawRecord): a record written as [event, hash, signer, sig]
    // is read as if it were the object the format requires.
    let mut b = good().clone();
    let records: Vec<Value> = b["records"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| json!([r["event"], r["hash"], r["signer"], r["sig"]]))
        .collect();
    b["records"] = json!(records);
    expect_unreadable(
        &serde_json::to_vec(&b).unwrap(),
        "records as arrays",
        &["not a hand bundle"],
    );
}

#[test]
fn keys_written_as_arrays_are_not_a_bundle() {
    // BUG (same cause, bundle.rs BundleKey): a key written as [key_id, public_key].
    let mut b = good().clone();
    let keys: Vec<Value> = b["keys"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| json!([k["key_id"], k["public_key"]]))
        .collect();
    b["keys"] = json!(keys);
    expect_unreadable(
        &serde_json::to_vec(&b).unwrap(),
        "keys as arrays",
        &["not a hand bundle"],
    );
}

#[test]
fn an_event_written_as_an_array_is_not_an_event_of_version_1() {
    // BUG (log.rs Event, same serde cause): an event is "a JSON object with exactly these
    // members" (docs/EVENT-LOG.md §2). Written as [v, hand, seq, prev, time_ms, body] and
    // hashed and signed in that form (by the service's key, or by anyone's when no key is
    // named), the verifier reads it as an event and the hand verifies; a verifier written
    // from the documents refuses it. Expected: rule "event_format" at that record.
    let key = service_key();
    let mut b = good().clone();
    let e = b["records"][0]["event"].clone();
    b["records"][0]["event"] = json!([
        e["v"],
        e["hand"],
        e["seq"],
        e["prev"],
        e["time_ms"],
        e["body"]
    ]);
    // Re-hash, re-sign and re-chain everything with the real key.
    let n = b["records"].as_array().unwrap().len();
    for i in 0..n {
        if i > 0 {
            b["records"][i]["event"]["prev"] = b["records"][i - 1]["hash"].clone();
        }
        let hash = hash_event_json(&b["records"][i]["event"]).unwrap();
        b["records"][i]["hash"] = json!(hash.to_hex());
        b["records"][i]["sig"] = json!(key.sign(&signature_message(&hash)).to_hex());
    }
    let v = verify_bytes(&serde_json::to_vec(&b).unwrap(), &trusted()).unwrap();
    let p = v.problem.as_ref().map(ToString::to_string);
    assert!(!v.valid, "an array-shaped event 0 verifies as valid");
    assert_eq!(
        v.problem.map(|p| (p.event, p.rule)),
        Some((Some(0), "event_format".to_string())),
        "{p:?}"
    );
}

#[test]
fn missing_members() {
    for member in [
        "format", "version", "records", "keys", "hand", "game", "status",
    ] {
        let e = expect_unreadable(
            &without(member),
            &format!("without {member}"),
            &["not a hand bundle", "missing field", member],
        );
        assert!(matches!(e, BundleError::Shape(_)), "{member}: {e:?}");
    }
    // A record without its hash, a key without its public key.
    let mut b = good().clone();
    b["records"][2].as_object_mut().unwrap().remove("hash");
    expect_unreadable(
        &serde_json::to_vec(&b).unwrap(),
        "a record without hash",
        &["missing field", "hash"],
    );
    let mut b = good().clone();
    b["keys"][0].as_object_mut().unwrap().remove("public_key");
    expect_unreadable(
        &serde_json::to_vec(&b).unwrap(),
        "a key without public_key",
        &["missing field", "public_key"],
    );
}

#[test]
fn unknown_members_in_the_envelope() {
    let e = expect_unreadable(
        &with("extra", json!(1)),
        "an extra member",
        &["unknown field", "extra"],
    );
    assert!(matches!(e, BundleError::Shape(_)), "{e:?}");
    let mut b = good().clone();
    b["records"][1]["note"] = json!("x");
    expect_unreadable(
        &serde_json::to_vec(&b).unwrap(),
        "an extra member in a record",
        &["unknown field", "note"],
    );
}

#[test]
fn wrong_types() {
    for (member, value, needle) in [
        ("records", json!({}), "map"),
        ("records", json!("all of them"), "string"),
        ("keys", json!({}), "map"),
        ("hand", json!(42), "integer"),
        ("game", json!(1), "integer"),
        ("status", json!(true), "boolean"),
    ] {
        let e = expect_unreadable(
            &with(member, value.clone()),
            &format!("{member} = {value}"),
            &["not a hand bundle", needle],
        );
        assert!(matches!(e, BundleError::Shape(_)), "{member}: {e:?}");
    }
    // Unknown game and status names.
    expect_unreadable(&with("game", json!("poker")), "game poker", &["poker"]);
    expect_unreadable(&with("status", json!("won")), "status won", &["won"]);
    // A record's hash that is not 64 hex characters, a signature of the wrong length.
    let mut b = good().clone();
    b["records"][0]["hash"] = json!("abc");
    expect_unreadable(&serde_json::to_vec(&b).unwrap(), "short hash", &["hash"]);
    let mut b = good().clone();
    b["records"][0]["sig"] = json!("00");
    expect_unreadable(
        &serde_json::to_vec(&b).unwrap(),
        "short sig",
        &["signature"],
    );
    let mut b = good().clone();
    b["keys"][0]["public_key"] = json!("zz");
    expect_unreadable(&serde_json::to_vec(&b).unwrap(), "bad key", &["public key"]);
}

#[test]
fn version_written_as_a_string_is_a_wrong_type_not_version_4294967295() {
    // BUG (verify.rs parse_value): a version that is not a u64 (the string "1", 1.0, a
    // negative or a huge number) is reported as "unsupported bundle: … version 4294967295",
    // a number that is nowhere in the file. The message should say what was found.
    for (text, what) in [
        ("\"1\"", "version \"1\""),
        ("1.0", "version 1.0"),
        ("-1", "version -1"),
        ("4294967297", "version 2^32 + 1"),
    ] {
        let bytes = edit_text("\"version\":1", &format!("\"version\":{text}"));
        let e = expect_unreadable(&bytes, what, &["version"]);
        let msg = e.to_string();
        assert!(
            !msg.contains("4294967295"),
            "{what}: the message names a version that is not in the file: {msg}"
        );
    }
}

#[test]
fn unsupported_version_or_format() {
    let e = expect_unreadable(
        &with("version", json!(3)),
        "version 3",
        &["unsupported bundle", "version 3"],
    );
    assert!(
        matches!(e, BundleError::Version { version: 3, .. }),
        "{e:?}"
    );
    // Version 2 is read, and must carry its log proof (docs/BUNDLE.md §9).
    let e = expect_unreadable(
        &with("version", json!(2)),
        "version 2 without log_proof",
        &["log_proof"],
    );
    assert!(matches!(e, BundleError::Shape(_)), "{e:?}");
    let e = expect_unreadable(&with("version", json!(0)), "version 0", &["version 0"]);
    assert!(
        matches!(e, BundleError::Version { version: 0, .. }),
        "{e:?}"
    );
    let e = expect_unreadable(
        &with("format", json!("persian-cards/hand-bundle-v2")),
        "another format",
        &["unsupported bundle", "hand-bundle-v2"],
    );
    assert!(matches!(e, BundleError::Version { .. }), "{e:?}");
    let e = expect_unreadable(&with("format", json!(7)), "format 7", &["format"]);
    assert!(matches!(
        e,
        BundleError::Version { .. } | BundleError::Shape(_)
    ));
    // A very long format name is cut in the message.
    expect_unreadable(
        &with("format", json!("f".repeat(100_000))),
        "long format",
        &[],
    );
}

#[test]
fn no_records() {
    let e = expect_unreadable(
        &with("records", json!([])),
        "empty records",
        &["no records"],
    );
    assert_eq!(e, BundleError::Empty);
}

#[test]
fn huge_numbers_in_the_envelope() {
    // 1e999 is out of f64 range: not JSON serde_json will read.
    let e = expect_unreadable(
        &edit_text("\"version\":1", "\"version\":1e999"),
        "version 1e999",
        &["number out of range"],
    );
    assert!(matches!(e, BundleError::Json(_)), "{e:?}");
    let e = expect_unreadable(
        &edit_text(
            "\"version\":1",
            "\"version\":123456789012345678901234567890",
        ),
        "a 30-digit version",
        &["version"],
    );
    assert!(matches!(e, BundleError::Shape(_)), "{e:?}");
    // In an extra member, and in a member that should be a string.
    let text = good_text();
    let bytes = format!("{}, \"x\": 1e999}}", &text[..text.len() - 1]).into_bytes();
    expect_unreadable(&bytes, "an extra member 1e999", &["number out of range"]);
    let bytes = format!(
        "{}, \"x\": 123456789012345678901234567890}}",
        &text[..text.len() - 1]
    )
    .into_bytes();
    expect_unreadable(&bytes, "an extra 30-digit member", &["unknown field"]);
    expect_unreadable(
        &edit_text(
            "\"hand\":\"",
            "\"hand\":123456789012345678901234567890,\"h\":\"",
        ),
        "a 30-digit hand",
        &["not a hand bundle"],
    );
    expect_unreadable(
        &edit_text("\"hand\":\"", "\"hand\":-1e999,\"h\":\""),
        "hand -1e999",
        &["number out of range"],
    );
}

/// `depth` nested arrays around `inner`, as text (never built as a `Value`, whose drop
/// would recurse as deep).
fn nested(depth: usize, inner: &str) -> String {
    format!("{}{inner}{}", "[".repeat(depth), "]".repeat(depth))
}

#[test]
fn deep_nesting_does_not_overflow_the_stack() {
    let text = good_text();
    for depth in [129, 1_000, 100_000] {
        // In an extra member of the envelope.
        let bytes = format!(
            "{}, \"x\": {}}}",
            &text[..text.len() - 1],
            nested(depth, "1")
        );
        let e = expect_unreadable(bytes.as_bytes(), "deep extra member", &["recursion limit"]);
        assert!(matches!(e, BundleError::Json(_)), "{e:?}");
        // As the hand id.
        let bytes = edit_text(
            "\"hand\":\"",
            &format!("\"hand\":{},\"h\":\"", nested(depth, "")),
        );
        expect_unreadable(&bytes, "deep hand", &["recursion limit"]);
        // Inside an event's action, and of objects.
        let bytes = edit_text(
            "\"action\":{",
            &format!("\"action\":{{\"x\":{},", nested(depth, "")),
        );
        expect_unreadable(&bytes, "deep action", &["recursion limit"]);
        let objects = format!("{}1{}", "{\"a\":".repeat(depth), "}".repeat(depth));
        let bytes = edit_text("\"action\":{", &format!("\"action\":{{\"x\":{objects},"));
        expect_unreadable(&bytes, "deep objects", &["recursion limit"]);
        // The whole file.
        expect_unreadable(
            nested(depth, "").as_bytes(),
            "deep file",
            &["recursion limit"],
        );
    }
}

#[test]
fn duplicate_keys_anywhere_are_refused() {
    let text = good_text();
    // At the top, with the second value the good one: a lenient reader keeping the last
    // would accept this.
    let bytes = format!("{{\"format\": \"other\", {}", &text[1..]);
    let e = expect_unreadable(
        bytes.as_bytes(),
        "duplicate format",
        &["duplicate key", "format"],
    );
    assert!(matches!(e, BundleError::Json(_)), "{e:?}");
    // In a record, in an event and deep in an action's effects.
    let bytes = edit_text("\"signer\":", "\"signer\":\"x\",\"signer\":");
    expect_unreadable(&bytes, "duplicate signer", &["duplicate key", "signer"]);
    let bytes = edit_text("\"time_ms\":", "\"time_ms\":1,\"time_ms\":");
    expect_unreadable(&bytes, "duplicate time_ms", &["duplicate key", "time_ms"]);
    let bytes = edit_text("\"amount\":", "\"amount\":0,\"amount\":");
    expect_unreadable(&bytes, "duplicate amount", &["duplicate key", "amount"]);
    // The same key twice with the same value is still a duplicate.
    let bytes = edit_text(
        "\"club\":\"simulated\"",
        "\"club\":\"simulated\",\"club\":\"simulated\"",
    );
    expect_unreadable(&bytes, "duplicate equal club", &["duplicate key", "club"]);
}

#[test]
fn invalid_utf8_and_bad_strings() {
    // A byte that is not UTF-8 inside a string, and outside any string.
    let mut bytes = good_text().into_bytes();
    let at = good_text().find("simulated").unwrap() + 3;
    bytes[at] = 0xff;
    let e = expect_unreadable(&bytes, "0xff in a string", &["JSON"]);
    assert!(matches!(e, BundleError::Json(_)), "{e:?}");
    let mut bytes = good_text().into_bytes();
    bytes.insert(1, 0xc3);
    expect_unreadable(&bytes, "0xc3 between tokens", &["JSON"]);
    // An overlong encoding of '/', and a UTF-8 encoded surrogate.
    for bad in [&[0xc0u8, 0xaf][..], &[0xed, 0xa0, 0x80][..]] {
        let mut bytes = good_text().into_bytes();
        let at = good_text().find("simulated").unwrap();
        bytes.splice(at..at, bad.iter().copied());
        expect_unreadable(&bytes, "invalid UTF-8 sequence", &["JSON"]);
    }
    // A lone surrogate escape (docs/EVENT-LOG.md §1 refuses it).
    let bytes = edit_text("\"club\":\"simulated\"", "\"club\":\"\\ud800\"");
    expect_unreadable(&bytes, "lone surrogate", &["JSON"]);
    // A control character written raw inside a string.
    let bytes = edit_text("\"club\":\"simulated\"", "\"club\":\"a\u{1}b\"");
    expect_unreadable(&bytes, "raw control character", &["JSON"]);
}

#[test]
fn twenty_megabytes_of_junk() {
    // Bytes that are not JSON: refused at the first byte, quickly.
    let junk: Vec<u8> = (0..20_000_000u32)
        .map(|i| u8::try_from(i.wrapping_mul(2_654_435_761) >> 24).unwrap())
        .collect();
    let t = std::time::Instant::now();
    let e = expect_unreadable(&junk, "20 MB of junk", &["JSON"]);
    assert!(matches!(e, BundleError::Json(_)), "{e:?}");
    assert!(t.elapsed().as_secs() < 20);
    // 20 MB of spaces then junk.
    let mut spaces = vec![b' '; 20_000_000];
    spaces.push(b'x');
    expect_unreadable(&spaces, "20 MB of spaces", &["JSON"]);
}

#[test]
fn a_twenty_megabyte_string_is_not_echoed_in_the_message() {
    // BUG (verify.rs parse_value, BundleError::Shape): serde's "invalid type: string …" and
    // "unknown variant …" messages quote the whole value, so a 20 MB string as the file, or
    // as the game or status, gives a 20 MB error message (which the CLI prints to stderr).
    let s = "x".repeat(20_000_000);
    let mut failures = Vec::new();
    for (what, bytes) in [
        ("the file", serde_json::to_vec(&json!(s)).unwrap()),
        ("the game", with("game", json!(s))),
        ("the status", with("status", json!(s))),
    ] {
        match verify_bytes(&bytes, &Options::default()) {
            Ok(_) => failures.push(format!("a 20 MB string as {what}: read as a bundle")),
            Err(e) if e.to_string().len() > MAX_MESSAGE => failures.push(format!(
                "a 20 MB string as {what}: a {}-byte message",
                e.to_string().len()
            )),
            Err(e) => assert!(e.to_string().contains("not a hand bundle"), "{e}"),
        }
        assert!(replay_bytes(&bytes, None, &Options::default()).is_err());
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn a_twenty_megabyte_key_or_signer_is_refused_without_echo() {
    let s = "ab".repeat(10_000_000);
    let mut b = good().clone();
    b["keys"][0]["public_key"] = json!(s);
    expect_unreadable(
        &serde_json::to_vec(&b).unwrap(),
        "20 MB key",
        &["public key"],
    );
    let mut b = good().clone();
    b["records"][0]["hash"] = json!(s);
    expect_unreadable(&serde_json::to_vec(&b).unwrap(), "20 MB hash", &["hash"]);
}

// ---------------------------------------------------------------------------------------
// Events that break the event format are verdicts at that record (pass 1), not errors.

/// The good bundle as text, with the value at `pointer` (in record `i`'s event) replaced by
/// the raw JSON text `raw`.
fn raw_in_event(i: usize, pointer: &str, raw: &str) -> Vec<u8> {
    let mut b = good().clone();
    *b["records"][i]["event"].pointer_mut(pointer).unwrap() = json!("__RAW__");
    serde_json::to_string(&b)
        .unwrap()
        .replacen("\"__RAW__\"", raw, 1)
        .into_bytes()
}

/// Verify bytes that must be readable: invalid, first problem `rule` at `event`; replay
/// does not panic and, past the event, shows the problem.
#[track_caller]
fn expect_verdict_bytes(bytes: &[u8], event: u64, rule: &str, what: &str) {
    let v = verify_bytes(bytes, &trusted())
        .unwrap_or_else(|e| panic!("{what}: should be readable, got {e}"));
    assert!(!v.valid, "{what}: valid");
    let p = v.problem.unwrap();
    assert_eq!(
        (p.event, p.rule.as_str()),
        (Some(event), rule),
        "{what}: {p}"
    );
    for step in [0, event, event + 1] {
        match replay_bytes(bytes, Some(step), &trusted()) {
            Ok(r) if step >= event => {
                assert!(
                    r.problem.is_some(),
                    "{what}: replay to {step} shows no problem"
                )
            }
            Ok(_) | Err(_) => {}
        }
    }
    match replay_bytes(bytes, None, &trusted()) {
        Ok(r) => assert!(r.problem.is_some(), "{what}: replay shows no problem"),
        // Nothing to show when event 0 itself cannot be read.
        Err(e) => assert_eq!(event, 0, "{what}: replay refused: {e}"),
    }
}

#[test]
fn numbers_the_event_format_refuses_are_an_encoding_problem_at_that_record() {
    // Note: docs/EVENT-LOG.md §1 and docs/BUNDLE.md §2 still say such a bundle is
    // unreadable (exit 2); the verifier reports rule "encoding" at that record (exit 1).
    for raw in [
        "1.5",
        "1.0",
        "1e3",
        "-0.0",
        "9007199254740992",
        "-9007199254740992",
        "18446744073709551616",
        "123456789012345678901234567890",
    ] {
        let bytes = raw_in_event(4, "/time_ms", raw);
        expect_verdict_bytes(&bytes, 4, "encoding", &format!("time_ms {raw}"));
        let bytes = raw_in_event(0, "/body/rules/min_bet", raw);
        expect_verdict_bytes(&bytes, 0, "encoding", &format!("min_bet {raw}"));
    }
    // The largest integers the format allows are fine for the encoding (the hash is then
    // simply wrong).
    for raw in ["9007199254740991", "-9007199254740991"] {
        let bytes = raw_in_event(4, "/time_ms", raw);
        expect_verdict_bytes(&bytes, 4, "hash", &format!("time_ms {raw}"));
    }
}

#[test]
fn nesting_beyond_32_in_an_event_is_an_encoding_problem_at_that_record() {
    for depth in [33, 40, 120] {
        // The action object is at depth 2 (event, body, action): nest inside it.
        let bytes = raw_in_event(6, "/body", &format!("{{\"x\":{}}}", nested(depth, "")));
        expect_verdict_bytes(&bytes, 6, "encoding", &format!("depth {depth}"));
    }
    // Within the limit: only the hash is wrong.
    let bytes = raw_in_event(6, "/body", &format!("{{\"x\":{}}}", nested(20, "")));
    expect_verdict_bytes(&bytes, 6, "hash", "depth 20");
}

#[test]
fn events_of_the_wrong_shape_are_verdicts_at_that_record() {
    // Not an object, or an object that is not an event: the hash (over the value as given)
    // no longer matches, at that record.
    for raw in ["null", "5", "\"event\"", "[]", "{}", "{\"v\":1}"] {
        let mut b = good().clone();
        b["records"][3]["event"] = json!("__RAW__");
        let bytes = serde_json::to_string(&b)
            .unwrap()
            .replacen("\"__RAW__\"", raw, 1)
            .into_bytes();
        expect_verdict_bytes(&bytes, 3, "hash", raw);
    }
}
