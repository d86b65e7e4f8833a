//! Tampering with simulated Pasur bundles: a rogue operator who holds the real service key
//! edits one event and re-signs the chain; re-running the Pasur engine on verification must
//! catch the edit at exactly that event, with the rule it breaks.

use replayer::engine::GameId;
use replayer::log::{hash_event_json, signature_message, SigningKeyPair};
use replayer::sim::simulate;
use replayer::verify::{verify_value, Options};
use serde_json::{json, Value};

const NOW_MS: u64 = 1_767_225_600_000;

fn key() -> SigningKeyPair {
    SigningKeyPair::from_secret([31; 32])
}

fn bundle(players: u8, seed: u8) -> Value {
    let mut s = [seed; 32];
    s[0] = players;
    let b = simulate(GameId::Pasur, players, s, &key(), NOW_MS).unwrap();
    serde_json::to_value(&b).unwrap()
}

fn body(b: &Value, i: usize) -> &Value {
    &b["records"][i]["event"]["body"]
}

fn len(b: &Value) -> usize {
    b["records"].as_array().unwrap().len()
}

/// Re-hash, re-sign and re-chain records `from..` with the real key.
fn rogue_commit(b: &mut Value, from: usize) {
    let k = key();
    for j in from..len(b) {
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

fn verdict(b: &Value) -> replayer::verify::Verdict {
    verify_value(
        b.clone(),
        &Options {
            trusted_keys: vec![key().public()],
        },
    )
    .unwrap()
}

#[track_caller]
fn caught_at(b: &Value, event: usize) -> String {
    let v = verdict(b);
    assert!(!v.valid, "the tampered bundle verified");
    let p = v.problem.unwrap();
    assert_eq!(p.event, Some(event as u64), "{p:?}");
    p.rule
}

/// Plays (record index, the `played` effect) of a bundle.
fn plays(b: &Value) -> Vec<(usize, Value)> {
    (0..len(b))
        .filter(|i| body(b, *i)["type"] == "action")
        .map(|i| (i, body(b, i)["effects"][0].clone()))
        .filter(|(_, e)| e["type"] == "played")
        .collect()
}

fn rank(face: &Value) -> String {
    let f = face.as_str().unwrap();
    f[..f.len() - 1].to_string()
}

#[test]
fn honest_pasur_bundles_verify_for_every_seat_count() {
    for players in 2..=4 {
        for seed in 1..4 {
            let b = bundle(players, seed);
            let v = verdict(&b);
            assert!(v.valid, "{players}/{seed}: {:?}", v.problem);
            assert_eq!(plays(&b).len(), 48);
        }
    }
}

/// A numeral's capture of several cards, one card dropped from the action: the sum is no
/// longer 11, and the engine says so at that event.
#[test]
fn a_capture_that_does_not_sum_to_11_is_caught_at_that_event() {
    let mut found = 0;
    for players in 2..=4 {
        for seed in 1..6 {
            let b = bundle(players, seed);
            let Some((i, _)) = plays(&b).into_iter().find(|(_, e)| {
                let r = rank(&e["card"]["face"]);
                !["J", "Q", "K"].contains(&r.as_str())
                    && e["capture"].as_array().is_some_and(|c| c.len() >= 2)
            }) else {
                continue;
            };
            let mut t = b.clone();
            let cap = t["records"][i]["event"]["body"]["action"]["capture"]
                .as_array_mut()
                .unwrap();
            assert!(cap.len() >= 2);
            cap.pop();
            rogue_commit(&mut t, i);
            assert_eq!(caught_at(&t, i), "CaptureSum", "{players}/{seed}");
            found += 1;
        }
    }
    assert!(
        found >= 3,
        "too few multi-card captures to tamper with: {found}"
    );
}

/// A sur forged for a jack's capture (the jack never scores one) and a jack made to leave
/// a card behind: each caught at that event.
#[test]
fn a_sur_by_a_jack_is_caught_at_that_event() {
    let mut found = 0;
    for players in 2..=4 {
        for seed in 1..6 {
            let b = bundle(players, seed);
            let Some((i, e)) = plays(&b).into_iter().find(|(_, e)| {
                rank(&e["card"]["face"]) == "J"
                    && e["capture"].as_array().is_some_and(|c| !c.is_empty())
            }) else {
                continue;
            };
            let effects = body(&b, i)["effects"].as_array().unwrap();
            assert!(
                effects.iter().all(|x| x["type"] != "sur"),
                "the engine gave a jack a sur"
            );
            let side = if players == 4 {
                e["seat"].as_u64().unwrap() % 2
            } else {
                e["seat"].as_u64().unwrap()
            };
            let mut t = b.clone();
            t["records"][i]["event"]["body"]["effects"]
                .as_array_mut()
                .unwrap()
                .insert(
                    1,
                    json!({"type": "sur", "seat": e["seat"], "side": side, "play": e["play"]}),
                );
            rogue_commit(&mut t, i);
            assert_eq!(caught_at(&t, i), "effects", "{players}/{seed}");

            if e["capture"].as_array().unwrap().len() >= 2 {
                let mut t = b.clone();
                t["records"][i]["event"]["body"]["action"]["capture"]
                    .as_array_mut()
                    .unwrap()
                    .pop();
                rogue_commit(&mut t, i);
                assert_eq!(caught_at(&t, i), "JackMustTakeAll", "{players}/{seed}");
            }
            found += 1;
        }
    }
    assert!(found >= 3, "too few jack captures to tamper with: {found}");
}

/// The hand's score changed: in the scoring effect (caught at the last play) and in the
/// recorded outcome (caught at the hand's end).
#[test]
fn a_changed_score_is_caught_where_it_was_changed() {
    for players in 2..=4 {
        let b = bundle(players, 9);
        let (last, _) = plays(&b).pop().unwrap();
        let k = body(&b, last)["effects"]
            .as_array()
            .unwrap()
            .iter()
            .position(|e| e["type"] == "hand_scored")
            .expect("the last play scores the hand");
        let mut t = b.clone();
        let pts = &mut t["records"][last]["event"]["body"]["effects"][k]["sides"][0]["points"];
        *pts = json!(pts.as_u64().unwrap() + 5);
        rogue_commit(&mut t, last);
        assert_eq!(caught_at(&t, last), "effects", "{players}");

        let end = (0..len(&b))
            .find(|i| body(&b, *i)["type"] == "hand_ended")
            .unwrap();
        let mut t = b.clone();
        let pts = &mut t["records"][end]["event"]["body"]["outcome"]["sides"][1]["points"];
        *pts = json!(pts.as_u64().unwrap() + 7);
        rogue_commit(&mut t, end);
        assert_eq!(caught_at(&t, end), "outcome", "{players}");
    }
}

/// A played card swapped for another ref: not in the hand, or a capture that no longer
/// fits; caught at that event.
#[test]
fn a_play_changed_to_another_card_is_caught_at_that_event() {
    for players in 2..=4 {
        let mut b = bundle(players, 4);
        let ps = plays(&b);
        let (i, _) = ps[ps.len() / 2];
        let pos = body(&b, i)["action"]["card"]["pos"].as_u64().unwrap();
        b["records"][i]["event"]["body"]["action"]["card"]["pos"] = json!((pos + 1) % 52);
        rogue_commit(&mut b, i);
        let rule = caught_at(&b, i);
        assert!(
            [
                "CardNotInHand",
                "CaptureSum",
                "JackMustTakeAll",
                "CourtCapture",
                "MustCapture",
                "JackOnEmptyTable",
                "effects"
            ]
            .contains(&rule.as_str()),
            "{players}: {rule}"
        );
    }
}
