//! Tampering with simulated Ghahve bundles: a rogue operator who holds the real service key
//! edits one event and re-signs the chain; re-running the Ghahve engine on verification must
//! catch the edit at exactly that event, naming the rule it breaks: a renege, a changed
//! bid, the coloured joker played before the black one, a moved trick winner, a changed
//! score.

use replayer::engine::GameId;
use replayer::log::{hash_event_json, signature_message, SigningKeyPair};
use replayer::sim::{simulate_with, SimSpec};
use replayer::verify::{replay_bytes, verify_value, Options};
use serde_json::{json, Value};

const NOW_MS: u64 = 1_767_225_600_000;

fn key() -> SigningKeyPair {
    SigningKeyPair::from_secret([0x47; 32])
}

fn opts() -> Options {
    Options {
        trusted_keys: vec![key().public()],
    }
}

fn bundle(seed: u8, rules: Value) -> Value {
    let mut spec = SimSpec::new(GameId::Ghahve, 4, [seed; 32]);
    spec.rules = rules;
    let b = simulate_with(&spec, &key(), NOW_MS).unwrap();
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
    let v = verify_value(b.clone(), &opts()).unwrap();
    assert!(!v.valid, "the tampered bundle verified");
    let p = v.problem.unwrap();
    assert_eq!(p.event, Some(event as u64), "{p:?}");
    p.rule
}

/// The whole table (every face) just before event `i`.
fn table_before(b: &Value, i: usize) -> Value {
    let bytes = serde_json::to_vec(b).unwrap();
    replay_bytes(&bytes, Some(i as u64 - 1), &opts())
        .unwrap()
        .table
}

/// `(ref, face)` of every card in `seat`'s hand in `table`.
fn hand_of(table: &Value, seat: u64) -> Vec<(Value, String)> {
    table["zones"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|z| z["zone"] == "hand" && z["of"] == seat)
        .flat_map(|z| z["cards"].as_array().unwrap().iter())
        .map(|c| (c["ref"].clone(), c["face"].as_str().unwrap().to_string()))
        .collect()
}

fn suit(face: &str) -> Option<char> {
    if face == "BJ" || face == "CJ" {
        None
    } else {
        face.chars().last()
    }
}

#[test]
fn honest_ghahve_bundles_verify() {
    for (seed, rules) in [
        (1u8, json!({})),
        (
            2,
            json!({"buying": "on", "joker_lead": "calls_spades", "cj_release": "next_trick"}),
        ),
        (
            3,
            json!({"team_bid_cap": null, "buying": "on", "bj_deadline": 9, "cut": "none"}),
        ),
    ] {
        let b = bundle(seed, rules.clone());
        let v = verify_value(b, &opts()).unwrap();
        assert!(v.valid, "{rules}: {:?}", v.problem);
    }
}

#[test]
fn a_renege_is_caught_at_that_play_as_must_follow_suit() {
    let mut found = 0;
    for seed in 1..=6u8 {
        let b = bundle(seed, json!({}));
        for i in actions(&b, "play") {
            let table = table_before(&b, i);
            let Some(led) = table["trick"][0]["face"].as_str().and_then(suit) else {
                continue;
            };
            let seat = body(&b, i)["actor"]["seat"].as_u64().unwrap();
            let hand = hand_of(&table, seat);
            if !hand.iter().any(|(_, f)| suit(f) == Some(led)) {
                continue;
            }
            let Some((off, _)) = hand.iter().find(|(_, f)| suit(f).is_some_and(|s| s != led))
            else {
                continue;
            };
            let mut t = b.clone();
            t["records"][i]["event"]["body"]["action"]["card"] = off.clone();
            rogue_commit(&mut t, i);
            assert_eq!(caught_at(&t, i), "MustFollowSuit", "seed {seed}, event {i}");
            found += 1;
            break;
        }
    }
    assert!(found >= 3, "too few hands with a renege to forge ({found})");
}

#[test]
fn the_coloured_joker_played_too_early_is_caught_as_locked() {
    let mut found = 0;
    for seed in 1..=12u8 {
        let b = bundle(seed, json!({}));
        for i in actions(&b, "play") {
            let table = table_before(&b, i);
            if table["cj_released"] == true || table["trick_no"].as_u64() == Some(10) {
                continue;
            }
            let seat = body(&b, i)["actor"]["seat"].as_u64().unwrap();
            let Some((cj, _)) = hand_of(&table, seat).into_iter().find(|(_, f)| f == "CJ") else {
                continue;
            };
            if body(&b, i)["action"]["card"] == cj {
                continue;
            }
            let mut t = b.clone();
            t["records"][i]["event"]["body"]["action"]["card"] = cj;
            rogue_commit(&mut t, i);
            assert_eq!(caught_at(&t, i), "ColouredJokerLocked", "seed {seed}");
            found += 1;
            break;
        }
    }
    assert!(
        found >= 3,
        "too few hands to forge an early coloured joker ({found})"
    );
}

#[test]
fn a_changed_bid_is_caught_at_that_bid() {
    let b = bundle(4, json!({}));
    let i = actions(&b, "bid")[1];
    // Below the minimum: refused by the rules.
    let mut t = b.clone();
    t["records"][i]["event"]["body"]["action"]["n"] = json!(1);
    rogue_commit(&mut t, i);
    assert_eq!(caught_at(&t, i), "BidBelowMinimum");
    // A legal but different bid: the recorded effects no longer follow.
    let n = body(&b, i)["action"]["n"].as_u64().unwrap();
    let mut t = b.clone();
    t["records"][i]["event"]["body"]["action"]["n"] = json!(if n == 2 { 3 } else { 2 });
    rogue_commit(&mut t, i);
    assert_eq!(caught_at(&t, i), "effects");
    // The bid left alone but its effect edited.
    let mut t = b.clone();
    t["records"][i]["event"]["body"]["effects"][0]["n"] = json!(n + 1);
    rogue_commit(&mut t, i);
    assert_eq!(caught_at(&t, i), "effects");
}

/// The play event whose effects hold `kind`, and the effect's index there.
fn effect_at(b: &Value, kind: &str) -> (usize, usize) {
    for i in actions(b, "play") {
        if let Some(k) = body(b, i)["effects"]
            .as_array()
            .unwrap()
            .iter()
            .position(|e| e["type"] == kind)
        {
            return (i, k);
        }
    }
    panic!("no {kind}")
}

#[test]
fn a_moved_trick_winner_is_caught_at_that_trick() {
    let b = bundle(5, json!({}));
    let (i, k) = effect_at(&b, "trick_won");
    let winner = body(&b, i)["effects"][k]["seat"].as_u64().unwrap();
    let mut t = b.clone();
    t["records"][i]["event"]["body"]["effects"][k]["seat"] = json!((winner + 1) % 4);
    rogue_commit(&mut t, i);
    assert_eq!(caught_at(&t, i), "effects");
}

#[test]
fn a_changed_score_is_caught_where_it_was_scored() {
    let b = bundle(6, json!({}));
    let (i, k) = effect_at(&b, "hand_scored");
    let points = body(&b, i)["effects"][k]["points"].as_i64().unwrap();
    let mut t = b.clone();
    t["records"][i]["event"]["body"]["effects"][k]["points"] = json!(points + 10);
    rogue_commit(&mut t, i);
    assert_eq!(caught_at(&t, i), "effects");
    // The outcome's running score edited instead.
    let end = b["records"]
        .as_array()
        .unwrap()
        .iter()
        .position(|r| r["event"]["body"]["type"] == "hand_ended")
        .unwrap();
    let mut t = b.clone();
    let s = t["records"][end]["event"]["body"]["outcome"]["next"]["scores"][0]
        .as_i64()
        .unwrap();
    t["records"][end]["event"]["body"]["outcome"]["next"]["scores"][0] = json!(s + 1);
    rogue_commit(&mut t, end);
    assert_eq!(caught_at(&t, end), "outcome");
}
