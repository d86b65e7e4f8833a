//! Bluff hands as an auditor sees them: simulated through the live dealer (committed deal
//! and relabel shuffles, signed hash-chained log), verified offline, replayed with the seeds
//! revealed, and caught when a rogue operator rewrites a challenge's verdict.

use replayer::dealer::HandStatus;
use replayer::engine::GameId;
use replayer::log::{hash_event_json, signature_message, SigningKeyPair};
use replayer::sim::simulate;
use replayer::verify::{replay_bytes, verify_value, Options};
use serde_json::{json, Value};

const NOW_MS: u64 = 1_767_225_600_000;

fn key() -> SigningKeyPair {
    SigningKeyPair::from_secret([23; 32])
}

fn trusted() -> Options {
    Options {
        trusted_keys: vec![key().public()],
    }
}

fn sim(players: u8, n: u8) -> Value {
    let mut seed = [0x42u8; 32];
    seed[0] = players;
    seed[1] = n;
    let b = simulate(GameId::Bluff, players, seed, &key(), NOW_MS)
        .unwrap_or_else(|e| panic!("simulate {players} players, seed {n}: {e}"));
    assert_eq!(
        b.status,
        HandStatus::Completed,
        "{players} players, seed {n}"
    );
    serde_json::to_value(&b).unwrap()
}

fn bodies(b: &Value) -> Vec<&Value> {
    b["records"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| &r["event"]["body"])
        .collect()
}

/// Every effect of the bundle, with the index of its event.
fn effects(b: &Value) -> Vec<(usize, &Value)> {
    bodies(b)
        .into_iter()
        .enumerate()
        .flat_map(|(i, body)| {
            body["effects"]
                .as_array()
                .map(|v| v.iter().map(move |e| (i, e)).collect::<Vec<_>>())
                .unwrap_or_default()
        })
        .collect()
}

#[test]
fn simulated_hands_verify_with_a_relabel_after_every_pick_up() {
    for players in [4u8, 6, 8] {
        for n in 0..2u8 {
            let b = sim(players, n);
            let v = verify_value(b.clone(), &trusted()).unwrap();
            assert!(v.valid, "{players}/{n}: {:?}", v.problem);
            assert_eq!(v.status, Some(HandStatus::Completed));
            let taken = effects(&b)
                .iter()
                .filter(|(_, e)| e["type"] == "pile_taken")
                .count();
            let relabels: Vec<&Value> = bodies(&b)
                .into_iter()
                .filter(|x| x["type"] == "shuffled" && x["reason"] == "relabel")
                .collect();
            assert_eq!(relabels.len(), taken, "one relabel per pick-up");
            let deals = bodies(&b)
                .into_iter()
                .filter(|x| x["type"] == "shuffled" && x["reason"] == "deal")
                .count();
            assert_eq!(deals, 1);
            // Titles: one king, one thief, everyone placed once.
            let ended = bodies(&b)
                .into_iter()
                .find(|x| x["type"] == "hand_ended")
                .unwrap();
            let titles: Vec<&str> = ended["outcome"]["titles"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t.as_str().unwrap())
                .collect();
            assert_eq!(titles.len(), usize::from(players));
            assert_eq!(titles.iter().filter(|t| **t == "king").count(), 1);
            assert_eq!(titles.iter().filter(|t| **t == "thief").count(), 1);
        }
    }
}

/// While the hand runs, only a challenge's effect carries faces (the cards it turned over).
#[test]
fn no_effect_carries_a_hidden_face() {
    for players in [4u8, 6, 8] {
        let b = sim(players, 7);
        for (i, e) in effects(&b) {
            let text = e.to_string();
            if e["type"] == "challenged" {
                let cards = e["cards"].as_array().unwrap();
                assert!(cards.iter().all(|c| c["face"].is_string()));
            } else {
                assert!(!text.contains("face"), "event {i}: {text}");
            }
        }
    }
}

/// After the reveal, a replay shows every play's true cards (the view of `Viewer::All`).
#[test]
fn a_replay_shows_every_plays_true_cards() {
    let b = sim(4, 3);
    let bytes = serde_json::to_vec(&b).unwrap();
    let mut checked = 0;
    for (i, body) in bodies(&b).into_iter().enumerate() {
        let played = body["effects"]
            .as_array()
            .and_then(|v| v.iter().find(|e| e["type"] == "played"));
        let Some(played) = played else { continue };
        let step = replay_bytes(&bytes, Some(u64::try_from(i).unwrap()), &trusted()).unwrap();
        assert!(step.problem.is_none());
        let last = step.table["pile"]
            .as_array()
            .unwrap()
            .last()
            .unwrap()
            .clone();
        assert_eq!(last["seat"], played["seat"]);
        assert_eq!(last["rank"], played["rank"]);
        let cards = last["cards"].as_array().unwrap();
        assert_eq!(Some(cards.len()), played["cards"].as_array().map(Vec::len));
        assert!(cards.iter().all(|c| c["face"].is_string()), "{last}");
        checked += 1;
        if checked >= 25 {
            break;
        }
    }
    assert!(checked > 0);
}

/// A rogue operator who rewrites a challenge's verdict (or a revealed face) and re-signs
/// the log with the real key is caught at that event: the verifier recomputes the verdict
/// from the committed cards.
#[test]
fn a_rewritten_verdict_is_caught() {
    let b = sim(4, 1);
    let (at, _) = effects(&b)
        .into_iter()
        .find(|(_, e)| e["type"] == "challenged")
        .expect("a simulated hand has a challenge");
    for edit in ["truthful", "face"] {
        let mut t = b.clone();
        let list = t["records"][at]["event"]["body"]["effects"]
            .as_array_mut()
            .unwrap();
        let e = list.iter_mut().find(|e| e["type"] == "challenged").unwrap();
        if edit == "truthful" {
            let was = e["truthful"].as_bool().unwrap();
            e["truthful"] = json!(!was);
        } else {
            let face = e["cards"][0]["face"].as_str().unwrap().to_string();
            e["cards"][0]["face"] = json!(if face == "AS" { "KS" } else { "AS" });
        }
        // Re-chain and re-sign from the edited event on, with the service's own key.
        let n = t["records"].as_array().unwrap().len();
        for j in at..n {
            if j > at {
                let prev = t["records"][j - 1]["hash"].clone();
                t["records"][j]["event"]["prev"] = prev;
            }
            let hash = hash_event_json(&t["records"][j]["event"]).unwrap();
            let sig = key().sign(&signature_message(&hash));
            t["records"][j]["hash"] = json!(hash.to_hex());
            t["records"][j]["sig"] = json!(sig.to_hex());
        }
        let v = verify_value(t, &trusted()).unwrap();
        assert!(!v.valid, "a rewritten {edit} verified");
        let p = v.problem.unwrap();
        assert_eq!(p.event, Some(u64::try_from(at).unwrap()), "{edit}: {p}");
    }
}

/// Bluff bundles fit the bundle format's JSON Schema.
#[test]
fn bundles_fit_the_schema() {
    let path =
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/bundle-v1.schema.json");
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let validator = jsonschema::draft202012::new(&schema).unwrap();
    for players in [4u8, 6, 8] {
        let b = sim(players, 5);
        let errors: Vec<String> = validator
            .iter_errors(&b)
            .take(5)
            .map(|e| format!("{e} at {}", e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{players} players: {errors:#?}");
    }
}
