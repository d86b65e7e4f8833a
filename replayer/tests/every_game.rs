//! The property suite and the tamper suite, for every registered game, every player count
//! it allows and a spread of its house rules (`HouseRules::samples`): a new engine is
//! covered by registering it.
//!
//! Per hand, before every step (`replayer::testkit::check_hand`): cards conserved, no view
//! of any seat or of the public leaks a face it may not see (every engine keeps its cards in
//! the core's zones, so both hold for every game, and some hand of each game and player
//! count must have hidden cards for them to check), the legal families are what
//! `decide` accepts, somebody or a shuffle can always move the hand on; then the bundle
//! verifies and its replay equals the live hand. Per match: a simulated match verifies as a
//! chain. Tampering: an edited effect, an edited outcome, an action replaced by another, a
//! removed event, each re-signed by the operator's own key, is caught at that event.

use replayer::engine::GameId;
use replayer::games::registry;
use replayer::log::{hash_event, seal, Body, Event, Hash, Record, SigningKeyPair};
use replayer::matches::verify_match_value;
use replayer::sim::{simulate_match, simulate_with, SimSpec};
use replayer::testkit::{check_hand, every_game};
use replayer::verify::{verify_value, Options};
use serde_json::Value;

/// Seeds per game, player count and house-rule sample (more with `EVERY_GAME_SEEDS`).
fn seeds() -> u8 {
    std::env::var("EVERY_GAME_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3)
}

fn key() -> SigningKeyPair {
    SigningKeyPair::from_secret([0x5a; 32])
}

fn opts() -> Options {
    Options {
        trusted_keys: vec![key().public()],
    }
}

fn seed(game: GameId, players: u8, rules: usize, s: u8) -> [u8; 32] {
    let mut b = [0u8; 32];
    b[0] = GameId::ALL.iter().position(|g| *g == game).unwrap() as u8;
    b[1] = players;
    b[2] = rules as u8;
    b[3] = s;
    b
}

#[test]
fn every_game_hand_keeps_every_invariant_at_every_step() {
    let mut hands = 0;
    for (game, n) in every_game() {
        let samples = registry(game).unwrap().rule_samples();
        assert!(!samples.is_empty());
        let mut ran = 0;
        let mut hidden = 0;
        for (ri, rules) in samples.iter().enumerate() {
            // House rules are validated knowing the seat count: a sample for other counts
            // is refused here, as the service would refuse the table.
            if replayer::sim::new_match_state(game, n, rules, None).is_err() {
                continue;
            }
            ran += 1;
            for s in 0..seeds() {
                let mut spec = SimSpec::new(game, n, seed(game, n, ri, s));
                spec.rules = rules.clone();
                let checked = check_hand(&spec, &key()).unwrap_or_else(|e| {
                    panic!("{game}, {n} players, house rules {rules}, seed {s}: {e}")
                });
                assert!(checked.steps > 1);
                hidden = hidden.max(checked.hidden);
                hands += 1;
            }
        }
        assert!(
            ran >= 2,
            "{game}, {n} players: fewer than 2 house-rule samples apply"
        );
        // Every engine keeps its cards in the core's zones: conservation and no-leak were
        // checked on hidden cards, not on an empty table.
        assert!(
            hidden > 0,
            "{game}, {n} players: no hand ever hid a card in the engine's zones"
        );
    }
    assert!(hands > 0);
}

#[test]
fn every_game_match_verifies_as_a_chain() {
    for (game, n) in every_game() {
        let spec = SimSpec::new(game, n, seed(game, n, 99, 0));
        let m = simulate_match(&spec, 3, &key(), 0).unwrap();
        let v = verify_match_value(serde_json::to_value(&m).unwrap(), &opts()).unwrap();
        assert!(v.valid, "{game}, {n} players: {:?}", v.problem);
        assert_eq!(v.hands, m.hands.len());
    }
}

/// Re-chain and re-sign every record from `from` on, as an operator with the service's key
/// would after editing record `from`.
fn reseal(records: &mut [Record], from: usize) {
    let mut prev: Hash = if from == 0 {
        Hash::ZERO
    } else {
        records[from - 1].hash
    };
    for r in records.iter_mut().skip(from) {
        let mut e: Event = r.event.clone();
        e.prev = prev;
        *r = seal(e, &key()).unwrap();
        prev = r.hash;
    }
}

fn problem_at(records: &[Record]) -> (Option<u64>, String) {
    let b = replayer::bundle::Bundle::new(
        &records[0].event.hand,
        game_of(records),
        replayer::dealer::HandStatus::Completed,
        vec![key().public()],
        records.to_vec(),
    );
    let v = verify_value(serde_json::to_value(&b).unwrap(), &opts()).unwrap();
    let p = v.problem.expect("a tampered hand must not verify");
    (p.event, p.rule)
}

fn game_of(records: &[Record]) -> GameId {
    match &records[0].event.body {
        Body::HandStarted { game, .. } => *game,
        _ => panic!("no hand_started"),
    }
}

#[test]
fn every_game_tampering_is_caught_at_the_edited_event() {
    for (game, n) in every_game() {
        let b = simulate_with(&SimSpec::new(game, n, seed(game, n, 77, 0)), &key(), 0).unwrap();
        let records = b.records.clone();
        assert_eq!(hash_event(&records[0].event).unwrap(), records[0].hash);
        let actions: Vec<usize> = records
            .iter()
            .enumerate()
            .filter(|(_, r)| {
                matches!(&r.event.body, Body::Action { effects, .. } if !effects.is_empty())
            })
            .map(|(i, _)| i)
            .collect();
        assert!(!actions.is_empty(), "{game}: no action with effects");

        // An effect removed from an action.
        let i = actions[actions.len() / 2];
        let mut t = records.clone();
        if let Body::Action { effects, .. } = &mut t[i].event.body {
            effects.pop();
        }
        reseal(&mut t, i);
        assert_eq!(problem_at(&t), (Some(i as u64), "effects".into()), "{game}");

        // The outcome changed.
        let end = records
            .iter()
            .position(|r| matches!(r.event.body, Body::HandEnded { .. }))
            .unwrap();
        let mut t = records.clone();
        if let Body::HandEnded { outcome, .. } = &mut t[end].event.body {
            *outcome = serde_json::json!({"edited": true});
        }
        reseal(&mut t, end);
        assert_eq!(
            problem_at(&t),
            (Some(end as u64), "outcome".into()),
            "{game}"
        );

        // An action given a member it does not have (junk smuggled into the signed log):
        // caught at that event as a bad action.
        let i = actions[0];
        let mut t = records.clone();
        if let Body::Action { action, .. } = &mut t[i].event.body {
            *action = mangle(action);
        }
        reseal(&mut t, i);
        assert_eq!(problem_at(&t).0, Some(i as u64), "{game}");

        // An event removed.
        let mut t = records.clone();
        t.remove(i);
        reseal(&mut t, i);
        assert_eq!(problem_at(&t).0, Some(i as u64), "{game}");
    }
}

/// Another action: an extra member, which a strict action type refuses.
fn mangle(action: &Value) -> Value {
    let mut a = action.clone();
    if let Some(o) = a.as_object_mut() {
        o.insert("smuggled".into(), Value::from("x".repeat(64)));
    }
    a
}
