//! The written form of an event (`docs/EVENT-LOG.md`, Notation and §2; `docs/BUNDLE.md` §1):
//! every hex value inside an event is lowercase and an optional member is absent, never
//! `null`. A verifier refuses an event that breaks either, even when the service's key signed
//! it: as rule `event_format` at that event, except an uppercase revealed `server_seed`,
//! refused as rule `server_seed` (pass 2). Only the envelope's `hash`, `sig` and
//! `keys[].public_key`, which no hash covers, are read in either case.
//!
//! Each test edits one field of a simulated bundle, re-hashes and re-signs it (and re-chains
//! what follows) with the service's own key, and checks the documented verdict; a control
//! makes the same edit in the written form and checks that the bundle stays valid, so that
//! the refusal is about the case or the `null`, not the edit.

use replayer::engine::{Actor, GameId};
use replayer::log::{action_message, hash_event_json, signature_message, Hash, SigningKeyPair};
use replayer::sim::{simulate, simulate_match, SimSpec};
use replayer::verify::{verify_value, Options, Verdict};
use serde_json::{json, Value};

/// 2026-01-01T00:00:00Z.
const NOW_MS: u64 = 1_767_225_600_000;

/// The service's key (a public test key).
fn service_key() -> SigningKeyPair {
    SigningKeyPair::from_secret([1; 32])
}

/// Seat 1's key (a public test key).
fn player_key() -> SigningKeyPair {
    SigningKeyPair::from_secret([2; 32])
}

fn trusted() -> Options {
    Options {
        trusted_keys: vec![service_key().public()],
    }
}

fn bundle() -> Value {
    let b = simulate(GameId::BistOYek, 3, [0x21; 32], &service_key(), NOW_MS).unwrap();
    serde_json::to_value(&b).unwrap()
}

/// Hand 2 of a simulated Hokm match: its `hand_started` has a `prev_hand`.
fn second_hand() -> Value {
    let spec = SimSpec::new(GameId::Hokm, 4, [0x22; 32]);
    let m = simulate_match(&spec, 2, &service_key(), NOW_MS).unwrap();
    assert_eq!(m.hands.len(), 2);
    serde_json::to_value(&m.hands[1]).unwrap()
}

fn n(b: &Value) -> usize {
    b["records"].as_array().unwrap().len()
}

fn event_mut(b: &mut Value, i: usize) -> &mut Value {
    &mut b["records"][i]["event"]
}

fn body(b: &Value, i: usize) -> &Value {
    &b["records"][i]["event"]["body"]
}

fn first(b: &Value, kind: &str) -> usize {
    (0..n(b)).find(|&i| body(b, i)["type"] == kind).unwrap()
}

/// Re-hash and re-sign record `i` as its event now is.
fn reseal(b: &mut Value, i: usize) {
    let key = service_key();
    let hash = hash_event_json(&b["records"][i]["event"]).unwrap();
    let sig = key.sign(&signature_message(&hash));
    b["records"][i]["hash"] = json!(hash.to_hex());
    b["records"][i]["sig"] = json!(sig.to_hex());
}

/// Re-seal record `i`, then re-chain and re-seal every record after it.
fn commit_edit(b: &mut Value, i: usize) {
    reseal(b, i);
    for j in i + 1..n(b) {
        let prev = b["records"][j - 1]["hash"].clone();
        event_mut(b, j)["prev"] = prev;
        reseal(b, j);
    }
}

fn verdict(b: &Value) -> Verdict {
    verify_value(b.clone(), &trusted()).expect("the bundle is readable")
}

fn assert_valid(b: &Value, what: &str) {
    let v = verdict(b);
    assert!(v.valid, "{what}: {:?}", v.problem);
}

fn assert_refused(b: &Value, event: usize, rule: &str, what: &str) {
    let v = verdict(b);
    assert!(!v.valid, "{what}: accepted");
    let p = v.problem.unwrap();
    assert_eq!(
        (p.event, p.rule.as_str()),
        (Some(event as u64), rule),
        "{what}: {p:?}"
    );
}

/// The value at `path` below event `i` (an element number or a member name per step).
fn field_mut<'a>(b: &'a mut Value, i: usize, path: &[&str]) -> &'a mut Value {
    let mut v = event_mut(b, i);
    for p in path {
        v = match p.parse::<usize>() {
            Ok(k) => &mut v[k],
            Err(_) => &mut v[*p],
        };
    }
    v
}

fn upper(v: &Value) -> Value {
    json!(v.as_str().unwrap().to_uppercase())
}

/// Edit a string member of event `i` (at `path` below the event) to uppercase, re-sign,
/// and check the verdict; the control re-writes it in lowercase and must stay valid.
fn check_hex(mut b: Value, i: usize, path: &[&str], rule: &str, refused_at: usize) {
    let what = format!("{} of event {i}", path.join("."));
    let mut control = b.clone();
    let field = field_mut(&mut b, i, path);
    let text = field.as_str().unwrap().to_string();
    assert!(
        text.chars().any(|c| c.is_ascii_alphabetic()),
        "{what}: {text} has no letter to change"
    );
    *field = json!(text.to_uppercase());
    commit_edit(&mut b, i);
    assert_refused(&b, refused_at, rule, &what);
    commit_edit(&mut control, i);
    assert_valid(&control, &format!("{what} (control)"));
}

#[test]
fn uppercase_prev_is_event_format() {
    let b = bundle();
    // An event whose prev has a letter in it.
    let i = (1..n(&b))
        .find(|&i| {
            b["records"][i]["event"]["prev"]
                .as_str()
                .unwrap()
                .chars()
                .any(|c| c.is_ascii_alphabetic())
        })
        .unwrap();
    check_hex(b, i, &["prev"], "event_format", i);
}

#[test]
fn uppercase_commitments_are_event_format() {
    check_hex(bundle(), 0, &["body", "commitment"], "event_format", 0);
    let b = bundle();
    let i = first(&b, "shuffle_committed");
    check_hex(b, i, &["body", "commitment"], "event_format", i);
}

#[test]
fn uppercase_client_seed_is_event_format() {
    let b = bundle();
    let i = (0..n(&b))
        .find(|&i| {
            body(&b, i)["type"] == "client_seed"
                && body(&b, i)["seed"]
                    .as_str()
                    .unwrap()
                    .chars()
                    .any(|c| c.is_ascii_alphabetic())
        })
        .unwrap();
    check_hex(b, i, &["body", "seed"], "event_format", i);
}

#[test]
fn uppercase_prev_hand_hash_is_event_format() {
    let b = second_hand();
    assert!(body(&b, 0)["prev_hand"].is_object());
    check_hex(b, 0, &["body", "prev_hand", "hash"], "event_format", 0);
}

#[test]
fn uppercase_server_seed_is_refused_as_server_seed() {
    let b = bundle();
    let last = n(&b) - 1;
    check_hex(
        b,
        last,
        &["body", "seeds", "1", "server_seed"],
        "server_seed",
        last,
    );
}

/// Give seat 1 a registered key (event 0) and let it sign its first action.
fn with_player_key(mut b: Value) -> (Value, usize) {
    let pk = player_key();
    event_mut(&mut b, 0)["body"]["seats"][1]["public_key"] = json!(pk.public().to_hex());
    commit_edit(&mut b, 0);
    let a = (0..n(&b))
        .find(|&i| body(&b, i)["type"] == "action" && body(&b, i)["actor"] == json!({"seat": 1}))
        .unwrap();
    let e = &b["records"][a]["event"];
    let prev = Hash::from_hex(e["prev"].as_str().unwrap()).unwrap();
    let actor: Actor = serde_json::from_value(e["body"]["actor"].clone()).unwrap();
    let msg = action_message(
        e["hand"].as_str().unwrap(),
        e["seq"].as_u64().unwrap(),
        &prev,
        actor,
        &e["body"]["action"],
    )
    .unwrap();
    let sig = pk.sign(&msg);
    event_mut(&mut b, a)["player_sig"] = json!({"key_id": pk.key_id().0, "sig": sig.to_hex()});
    commit_edit(&mut b, a);
    let v = verdict(&b);
    assert!(v.valid, "{:?}", v.problem);
    assert_eq!(v.player_signatures, 1);
    (b, a)
}

#[test]
fn uppercase_seat_public_key_is_event_format() {
    let (b, _) = with_player_key(bundle());
    check_hex(
        b,
        0,
        &["body", "seats", "1", "public_key"],
        "event_format",
        0,
    );
}

#[test]
fn uppercase_player_signature_is_event_format() {
    let (b, a) = with_player_key(bundle());
    check_hex(b, a, &["player_sig", "sig"], "event_format", a);
}

/// Set an optional member to `null` in event `i`, re-sign, and expect `event_format` there.
fn check_null(mut b: Value, i: usize, object: &[&str], member: &str) {
    let v = field_mut(&mut b, i, object);
    v.as_object_mut()
        .unwrap()
        .insert(member.to_string(), Value::Null);
    commit_edit(&mut b, i);
    assert_refused(
        &b,
        i,
        "event_format",
        &format!("{member}: null in event {i}"),
    );
}

#[test]
fn null_optional_members_are_event_format() {
    let b = bundle();
    // player_sig on an action with none.
    let a = first(&b, "action");
    check_null(b.clone(), a, &[], "player_sig");
    // A seat's public_key.
    check_null(b.clone(), 0, &["body", "seats", "0"], "public_key");
    // prev_hand in a match's first hand.
    assert!(body(&b, 0).get("prev_hand").is_none());
    check_null(b.clone(), 0, &["body"], "prev_hand");
    // source of a shuffled event, replaced by null.
    let s = first(&b, "shuffled");
    assert!(body(&b, s)["source"].is_object());
    check_null(b, s, &["body"], "source");
}

#[test]
fn a_missing_source_is_still_accepted() {
    // Hands written before sources were recorded leave it out (EVENT-LOG.md §3.4).
    let mut b = bundle();
    let s = first(&b, "shuffled");
    event_mut(&mut b, s)["body"]
        .as_object_mut()
        .unwrap()
        .remove("source");
    commit_edit(&mut b, s);
    assert_valid(&b, "shuffled without source");
}

#[test]
fn the_envelope_reads_hex_in_either_case() {
    let mut b = bundle();
    let i = 3;
    let (hash, sig) = (
        upper(&b["records"][i]["hash"]),
        upper(&b["records"][i]["sig"]),
    );
    let public_key = upper(&b["keys"][0]["public_key"]);
    b["records"][i]["hash"] = hash;
    b["records"][i]["sig"] = sig;
    b["keys"][0]["public_key"] = public_key;
    assert_valid(&b, "uppercase envelope hex");
    let v = verify_value(b, &Options::default()).unwrap();
    assert!(v.valid, "{:?}", v.problem);
}

#[test]
fn key_ids_are_compared_as_written() {
    let mut b = bundle();
    let signer = upper(&b["records"][2]["signer"]);
    b["records"][2]["signer"] = signer;
    assert_refused(&b, 2, "signer", "uppercase signer");
    let mut b = bundle();
    let key_id = upper(&b["keys"][0]["key_id"]);
    b["keys"][0]["key_id"] = key_id;
    let v = verify_value(b, &Options::default()).unwrap();
    assert_eq!(v.problem.unwrap().rule, "bundle_key_id");
}

/// The hand id's length (1 to 128 bytes) is checked when the hand starts, at event 0, as rule
/// `hand_id` (`docs/EVENT-LOG.md` §2 and §12 B pass 3, Start), not first when a shuffle
/// derives a deck seed.
#[test]
fn a_hand_id_over_128_bytes_is_refused_at_event_0() {
    for (id, ok) in [("x".repeat(128), true), ("x".repeat(129), false)] {
        let mut b = bundle();
        b["hand"] = json!(id);
        for i in 0..n(&b) {
            event_mut(&mut b, i)["hand"] = json!(id);
        }
        commit_edit(&mut b, 0);
        if ok {
            // Renamed, the hand's deck seeds change, so it fails later (its recorded
            // effects are another deck's), but not at the start.
            let p = verdict(&b).problem.unwrap();
            assert_ne!(p.rule, "hand_id", "{p:?}");
            assert_ne!(p.event, Some(0), "{p:?}");
        } else {
            assert_refused(&b, 0, "hand_id", "a hand id of 129 bytes");
        }
    }
}
