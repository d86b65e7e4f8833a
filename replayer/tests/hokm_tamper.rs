//! Tampering with simulated Hokm bundles: a rogue operator who holds the real service key
//! edits one event and re-signs the chain; re-running the Hokm engine on verification must
//! catch the edit at exactly that event.

use replayer::engine::GameId;
use replayer::log::{hash_event_json, signature_message, SigningKeyPair};
use replayer::sim::simulate;
use replayer::verify::{verify_value, Options};
use serde_json::{json, Value};

const NOW_MS: u64 = 1_767_225_600_000;

fn key() -> SigningKeyPair {
    SigningKeyPair::from_secret([13; 32])
}

fn bundle(players: u8) -> Value {
    let b = simulate(GameId::Hokm, players, [players; 32], &key(), NOW_MS).unwrap();
    serde_json::to_value(&b).unwrap()
}

fn body(b: &Value, i: usize) -> &Value {
    &b["records"][i]["event"]["body"]
}

/// Re-hash, re-sign and re-chain records `from..` with the real key.
fn rogue_commit(b: &mut Value, from: usize) {
    let k = key();
    let n = b["records"].as_array().unwrap().len();
    for j in from..n {
        if j > 0 {
            let prev = b["records"][j - 1]["hash"].clone();
            b["records"][j]["event"]["prev"] = prev;
        }
        let hash = hash_event_json(&b["records"][j]["event"]).unwrap();
        let sig = k.sign(&signature_message(&hash));
        b["records"][j]["hash"] = json!(hash.to_hex());
        b["records"][j]["sig"] = json!(sig.to_hex());
    }
}

fn actions(b: &Value, kind: &str) -> Vec<usize> {
    let n = b["records"].as_array().unwrap().len();
    (0..n)
        .filter(|i| body(b, *i)["type"] == "action" && body(b, *i)["action"]["type"] == kind)
        .collect()
}

#[track_caller]
fn caught_at(b: &Value, event: usize) -> String {
    let v = verify_value(
        b.clone(),
        &Options {
            trusted_keys: vec![key().public()],
        },
    )
    .unwrap();
    assert!(!v.valid, "the tampered bundle verified");
    let p = v.problem.unwrap();
    assert_eq!(p.event, Some(event as u64), "{p:?}");
    p.rule
}

#[test]
fn honest_hokm_bundles_verify() {
    for players in 2..=4 {
        let b = bundle(players);
        let v = verify_value(
            b,
            &Options {
                trusted_keys: vec![key().public()],
            },
        )
        .unwrap();
        assert!(v.valid, "{players}: {:?}", v.problem);
    }
}

#[test]
fn a_play_changed_to_another_card_is_caught_at_that_event() {
    for players in 2..=4 {
        let mut b = bundle(players);
        let plays = actions(&b, "play");
        let i = plays[plays.len() / 2];
        let pos = body(&b, i)["action"]["card"]["pos"].as_u64().unwrap();
        let other = (pos + 1) % 51;
        b["records"][i]["event"]["body"]["action"]["card"]["pos"] = json!(other);
        rogue_commit(&mut b, i);
        let rule = caught_at(&b, i);
        assert!(
            ["CardNotInHand", "MustFollowSuit", "NotYourTurn", "effects"].contains(&rule.as_str()),
            "{players}: {rule}"
        );
    }
}

#[test]
fn a_played_face_changed_in_the_effects_is_caught_at_that_event() {
    let mut b = bundle(4);
    let i = actions(&b, "play")[3];
    let face = body(&b, i)["effects"][0]["card"]["face"]
        .as_str()
        .unwrap()
        .to_string();
    let forged = if face == "AS" { "KS" } else { "AS" };
    b["records"][i]["event"]["body"]["effects"][0]["card"]["face"] = json!(forged);
    rogue_commit(&mut b, i);
    assert_eq!(caught_at(&b, i), "effects");
}

#[test]
fn a_trump_changed_after_the_fact_is_caught_at_the_declaration() {
    let mut b = bundle(4);
    let i = actions(&b, "declare_trump")[0];
    let suit = body(&b, i)["action"]["suit"].as_str().unwrap().to_string();
    let other = if suit == "H" { "S" } else { "H" };
    b["records"][i]["event"]["body"]["action"]["suit"] = json!(other);
    rogue_commit(&mut b, i);
    assert_eq!(caught_at(&b, i), "effects");
}

#[test]
fn a_deleted_play_is_caught_where_it_was() {
    let mut b = bundle(3);
    let i = actions(&b, "play")[5];
    b["records"].as_array_mut().unwrap().remove(i);
    let n = b["records"].as_array().unwrap().len();
    for j in i..n {
        b["records"][j]["event"]["seq"] = json!(j);
    }
    rogue_commit(&mut b, i);
    let rule = caught_at(&b, i);
    assert_ne!(rule, "hash");
}
