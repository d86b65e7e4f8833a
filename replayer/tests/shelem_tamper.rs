//! Tampering with simulated Shelem bundles (4 and 2 players, several house rules): a rogue
//! operator who holds the real service key edits one event and re-signs the chain;
//! re-running the Shelem engine on verification must catch the edit at exactly that event,
//! with the rule it breaks. The laid-away cards are a private action: a forger who changes
//! one of them must re-make its salted commitment too, and is caught where the hakem later
//! plays the card he no longer holds.

use replayer::engine::{Actor, GameId, SeatIndex};
use replayer::log::{hash_event_json, input_commitment, signature_message, Hash, SigningKeyPair};
use replayer::sim::{simulate_with, SimSpec};
use replayer::verify::{verify_value, Options};
use serde_json::{json, Value};

const NOW_MS: u64 = 1_767_225_600_000;

fn key() -> SigningKeyPair {
    SigningKeyPair::from_secret([29; 32])
}

/// Simulated hands that reached the play (not passed out), for both seat counts and a
/// spread of house rules.
fn bundles() -> Vec<(String, Value)> {
    let mut out = Vec::new();
    let rule_sets = [
        json!({}),
        json!({"preset": "p004", "cut": "left_of_dealer"}),
        json!({"preset": "p000_text", "all_pass": "last_seat_must_bid", "target": 330}),
        json!({"pile_top": "last_dealt", "preset": "custom", "made_score": "bid"}),
    ];
    for players in [4u8, 2] {
        for (k, rules) in rule_sets.iter().enumerate() {
            if players == 4 && rules.get("pile_top").is_some() {
                continue;
            }
            let mut found = 0;
            for s in 0u8..40 {
                let mut seed = [s; 32];
                seed[0] = players;
                seed[1] = k as u8;
                let spec = SimSpec {
                    game: GameId::Shelem,
                    players,
                    rules: rules.clone(),
                    setup: None,
                    seed,
                };
                let b = simulate_with(&spec, &key(), NOW_MS).unwrap();
                let v = serde_json::to_value(&b).unwrap();
                if actions(&v, "play").is_empty() {
                    continue;
                }
                out.push((format!("{players}p rules {k} seed {s}"), v));
                found += 1;
                if found == 2 {
                    break;
                }
            }
            assert_eq!(found, 2, "{players}p rules {k}: too few played hands");
        }
    }
    out
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

fn actions(b: &Value, kind: &str) -> Vec<usize> {
    (0..len(b))
        .filter(|i| body(b, *i)["type"] == "action" && body(b, *i)["action"]["type"] == kind)
        .collect()
}

fn effect<'a>(b: &'a Value, i: usize, kind: &str) -> Option<(usize, &'a Value)> {
    body(b, i)["effects"]
        .as_array()?
        .iter()
        .enumerate()
        .find(|(_, e)| e["type"] == kind)
}

#[track_caller]
fn caught(b: &Value) -> (u64, String) {
    let v = verify_value(
        b.clone(),
        &Options {
            trusted_keys: vec![key().public()],
        },
    )
    .unwrap();
    assert!(!v.valid, "the tampered bundle verified");
    let p = v.problem.unwrap();
    (p.event.unwrap(), p.rule)
}

fn seq(b: &Value, i: usize) -> u64 {
    b["records"][i]["event"]["seq"].as_u64().unwrap()
}

#[test]
fn honest_shelem_bundles_verify() {
    for (name, b) in bundles() {
        let v = verify_value(
            b,
            &Options {
                trusted_keys: vec![key().public()],
            },
        )
        .unwrap();
        assert!(v.valid, "{name}: {:?}", v.problem);
    }
}

/// Each play: (record index, seat, face, from a pile, led suit of its trick or None).
fn plays(b: &Value) -> Vec<(usize, u64, String, bool, Option<char>)> {
    let mut out = Vec::new();
    let mut led: Option<char> = None;
    for i in actions(b, "play") {
        let (_, e) = effect(b, i, "played").unwrap();
        let face = e["card"]["face"].as_str().unwrap().to_string();
        let suit = face.chars().last().unwrap();
        out.push((
            i,
            e["seat"].as_u64().unwrap(),
            face,
            e.get("pile").is_some(),
            led,
        ));
        led = led.or(Some(suit));
        if effect(b, i, "trick_won").is_some() {
            led = None;
        }
    }
    out
}

#[test]
fn a_renege_is_caught_at_that_play() {
    let mut tried = 0;
    for (name, b) in bundles() {
        let p = plays(&b);
        // A follower who followed suit from his hand, and a card off that suit he played
        // from his hand later: he held it when he followed.
        let found = p
            .iter()
            .enumerate()
            .find_map(|(k, (i, seat, face, pile, led))| {
                let led = (*led)?;
                if *pile || !face.ends_with(led) {
                    return None;
                }
                p[k + 1..]
                    .iter()
                    .find(|(_, s2, f2, pile2, _)| s2 == seat && !pile2 && !f2.ends_with(led))
                    .map(|(j, ..)| (*i, *j))
            });
        let Some((i, j)) = found else { continue };
        let mut t = b.clone();
        let other = body(&b, j)["action"]["card"].clone();
        t["records"][i]["event"]["body"]["action"]["card"] = other;
        rogue_commit(&mut t, i);
        assert_eq!(
            caught(&t),
            (seq(&b, i), "MustFollowSuit".to_string()),
            "{name}"
        );
        tried += 1;
    }
    assert!(tried >= 4, "too few hands with a renege to forge: {tried}");
}

#[test]
fn a_changed_trump_is_caught_at_the_first_lead() {
    for (name, b) in bundles() {
        let i = actions(&b, "play")[0];
        let (k, e) = effect(&b, i, "trump_set").unwrap();
        let other = if e["suit"] == "H" { "S" } else { "H" };
        let mut t = b.clone();
        t["records"][i]["event"]["body"]["effects"][k]["suit"] = json!(other);
        rogue_commit(&mut t, i);
        assert_eq!(caught(&t), (seq(&b, i), "effects".to_string()), "{name}");
    }
}

#[test]
fn a_changed_bid_is_caught_at_that_bid() {
    for (name, b) in bundles() {
        let i = actions(&b, "bid")[0];
        let amount = body(&b, i)["action"]["amount"].as_u64().unwrap();
        let forged = if amount >= 160 {
            amount - 5
        } else {
            amount + 5
        };
        let mut t = b.clone();
        t["records"][i]["event"]["body"]["action"]["amount"] = json!(forged);
        rogue_commit(&mut t, i);
        assert_eq!(caught(&t), (seq(&b, i), "effects".to_string()), "{name}");
        // The same in the effect only.
        let mut t = b.clone();
        let (k, _) = effect(&b, i, "bid_made").unwrap();
        t["records"][i]["event"]["body"]["effects"][k]["amount"] = json!(forged);
        rogue_commit(&mut t, i);
        assert_eq!(caught(&t), (seq(&b, i), "effects".to_string()), "{name}");
    }
}

#[test]
fn a_card_laid_away_changed_with_its_commitment_remade_is_caught_where_it_is_played() {
    for (name, b) in bundles() {
        let p = (0..len(&b))
            .find(|i| body(&b, *i)["type"] == "private_action")
            .unwrap();
        assert_eq!(body(&b, p)["public"], json!({"type": "lay_away"}), "{name}");
        let hakem = body(&b, p)["actor"]["seat"].as_u64().unwrap();
        let last = len(&b) - 1;
        assert_eq!(body(&b, last)["type"], "seeds_revealed");
        let inputs = body(&b, last)["inputs"].as_array().unwrap().clone();
        assert_eq!(inputs.len(), 1);
        // A card the hakem plays from his hand: claim it was laid away instead.
        let (j, ..) = plays(&b)
            .into_iter()
            .find(|(_, seat, _, pile, _)| *seat == hakem && !pile)
            .unwrap();
        let card = body(&b, j)["action"]["card"].clone();
        let mut action = inputs[0]["action"].clone();
        action["cards"][0] = card;
        let salt = Hash::from_hex(inputs[0]["salt"].as_str().unwrap()).unwrap();
        let commitment = input_commitment(
            b["hand"].as_str().unwrap(),
            seq(&b, p),
            Actor::Seat(SeatIndex(hakem as u8)),
            &salt,
            &action,
        )
        .unwrap();
        let mut t = b.clone();
        t["records"][p]["event"]["body"]["commitment"] = json!(commitment.to_hex());
        t["records"][last]["event"]["body"]["inputs"][0]["action"] = action;
        rogue_commit(&mut t, p);
        assert_eq!(
            caught(&t),
            (seq(&b, j), "CardNotHeld".to_string()),
            "{name}"
        );
    }
}

#[test]
fn a_moved_trick_winner_is_caught_at_that_trick() {
    for (name, b) in bundles() {
        let i = *actions(&b, "play")
            .iter()
            .filter(|i| effect(&b, **i, "trick_won").is_some())
            .nth(2)
            .unwrap();
        let (k, e) = effect(&b, i, "trick_won").unwrap();
        let n = if name.starts_with('4') { 4 } else { 2 };
        let other = (e["seat"].as_u64().unwrap() + 1) % n;
        let mut t = b.clone();
        t["records"][i]["event"]["body"]["effects"][k]["seat"] = json!(other);
        rogue_commit(&mut t, i);
        assert_eq!(caught(&t), (seq(&b, i), "effects".to_string()), "{name}");
    }
}

#[test]
fn a_changed_score_is_caught_at_the_count() {
    for (name, b) in bundles() {
        let i = *actions(&b, "play").last().unwrap();
        let (k, e) = effect(&b, i, "hand_scored").unwrap();
        let d = e["row"]["delta"][1].as_i64().unwrap();
        let mut t = b.clone();
        t["records"][i]["event"]["body"]["effects"][k]["row"]["delta"][1] = json!(d + 5);
        t["records"][i]["event"]["body"]["effects"][k]["row"]["total"][1] =
            json!(e["row"]["total"][1].as_i64().unwrap() + 5);
        rogue_commit(&mut t, i);
        assert_eq!(caught(&t), (seq(&b, i), "effects".to_string()), "{name}");
    }
}

/// A replay stopped inside a finished hand folds the private action from the opening the
/// hand's last event reveals: the step after the lay-away shows the hakem with 12 cards and
/// the 4 laid away (before, a step short of the reveal found no opening).
#[test]
fn a_replay_step_after_the_lay_away_folds_its_opening() {
    use replayer::verify::replay_bytes;
    for (name, b) in bundles() {
        let p = (0..len(&b))
            .find(|i| body(&b, *i)["type"] == "private_action")
            .unwrap();
        let hakem = body(&b, p)["actor"]["seat"].as_u64().unwrap();
        let bytes = serde_json::to_vec(&b).unwrap();
        let opts = Options {
            trusted_keys: vec![key().public()],
        };
        let before = replay_bytes(&bytes, Some(p as u64 - 1), &opts).unwrap();
        let at = replay_bytes(&bytes, Some(p as u64), &opts).unwrap();
        assert!(at.problem.is_none(), "{name}: {:?}", at.problem);
        let cards = |t: &Value, zone: &str| {
            t["zones"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|z| z["zone"] == zone && (zone != "hand" || z["of"] == hakem))
                .map(|z| z["cards"].as_array().unwrap().len())
                .sum::<usize>()
        };
        assert_eq!(cards(&before.table, "hand"), 16, "{name}");
        assert_eq!(cards(&at.table, "hand"), 12, "{name}");
        assert_eq!(cards(&at.table, "discard"), 4, "{name}");
        assert_eq!(at.table["phase"]["name"], "playing", "{name}");
    }
}
