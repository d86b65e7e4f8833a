//! Properties of simulated hands: for random seeds and 2 to 10 players, the simulated
//! bundle verifies with the service's key, money is conserved across the hand, the bundle
//! round-trips through JSON text, and it validates against `docs/bundle-v1.schema.json`.

use std::path::PathBuf;
use std::sync::OnceLock;

use jsonschema::Validator;
use proptest::prelude::*;
use proptest::test_runner::{Config as ProptestConfig, RngSeed};
use replayer::bundle::Bundle;
use replayer::dealer::HandStatus;
use replayer::engine::GameId;
use replayer::log::SigningKeyPair;
use replayer::sim::simulate;
use replayer::verify::{verify_bytes, Options, Trust};
use serde_json::Value;

const NOW_MS: u64 = 1_767_225_600_000;

fn service_key() -> &'static SigningKeyPair {
    static K: OnceLock<SigningKeyPair> = OnceLock::new();
    K.get_or_init(|| SigningKeyPair::from_secret([7; 32]))
}

fn validator() -> &'static Validator {
    static V: OnceLock<Validator> = OnceLock::new();
    V.get_or_init(|| {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/bundle-v1.schema.json");
        let schema: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        jsonschema::draft202012::meta::validate(&schema)
            .unwrap_or_else(|e| panic!("the schema is not a valid draft 2020-12 schema: {e}"));
        jsonschema::draft202012::new(&schema).unwrap()
    })
}

fn sum(v: &Value) -> u64 {
    v.as_array()
        .unwrap_or_else(|| panic!("not an array: {v}"))
        .iter()
        .map(|x| x.as_u64().unwrap())
        .sum()
}

fn net_sum(v: &Value) -> i64 {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_i64().unwrap())
        .sum()
}

/// Everything this file checks about one simulated hand.
fn check_hand(players: u8, seed: [u8; 32]) -> Result<(), TestCaseError> {
    let key = service_key();
    let bundle = simulate(GameId::BistOYek, players, seed, key, NOW_MS)
        .map_err(|e| TestCaseError::fail(format!("simulate: {e}")))?;
    let text = serde_json::to_string(&bundle).unwrap();

    // Verifies, with the service's key named.
    let opts = Options {
        trusted_keys: vec![key.public()],
    };
    let v = verify_bytes(text.as_bytes(), &opts).unwrap();
    prop_assert!(v.valid, "{:?}", v.problem);
    prop_assert_eq!(v.trust, Trust::TrustedKey);
    prop_assert!(matches!(
        v.status,
        Some(HandStatus::Completed | HandStatus::Abandoned)
    ));
    prop_assert_eq!(v.status, Some(bundle.status));
    prop_assert_eq!(v.events, bundle.records.len());
    prop_assert_eq!(v.signers.clone(), vec![key.key_id()]);
    // And without: valid, but only as far as the bundle's own keys go.
    let v2 = verify_bytes(text.as_bytes(), &Options::default()).unwrap();
    prop_assert!(v2.valid);
    prop_assert_eq!(v2.trust, Trust::BundleKeysOnly);

    // Round trip through JSON text: the same bundle, the same text.
    let back: Bundle = serde_json::from_str(&text).unwrap();
    prop_assert_eq!(&back, &bundle);
    prop_assert_eq!(serde_json::to_string(&back).unwrap(), text.clone());
    let pretty = serde_json::to_string_pretty(&bundle).unwrap();
    prop_assert!(verify_bytes(pretty.as_bytes(), &opts).unwrap().valid);

    // Money is conserved.
    let json: Value = serde_json::from_str(&text).unwrap();
    let records = json["records"].as_array().unwrap();
    let started = &records[0]["event"]["body"];
    prop_assert_eq!(started["type"].as_str(), Some("hand_started"));
    let seats = started["seats"].as_array().unwrap().len();
    prop_assert_eq!(seats, usize::from(players));
    let opening = sum(&started["match_state"]["balances"]);
    let ended: Vec<&Value> = records
        .iter()
        .map(|r| &r["event"]["body"])
        .filter(|b| b["type"] == "hand_ended")
        .collect();
    match bundle.status {
        HandStatus::Completed => {
            prop_assert_eq!(ended.len(), 1);
            let outcome = &ended[0]["outcome"];
            prop_assert_eq!(sum(&outcome["balances"]), opening, "outcome {}", outcome);
            prop_assert_eq!(net_sum(&outcome["net"]), 0, "outcome {}", outcome);
            prop_assert_eq!(outcome["balances"].as_array().unwrap().len(), seats);
            let next = &ended[0]["next_match"];
            prop_assert_eq!(sum(&next["balances"]), opening, "next_match {}", next);
            prop_assert_eq!(Some(outcome), v.outcome.as_ref());
        }
        HandStatus::Abandoned => prop_assert!(ended.is_empty()),
        HandStatus::InProgress => prop_assert!(false, "a simulated hand is finished"),
    }
    // The last event reveals a seed per commitment.
    let last = &records[records.len() - 1]["event"]["body"];
    prop_assert_eq!(last["type"].as_str(), Some("seeds_revealed"));
    let commitments = records
        .iter()
        .filter(|r| {
            let t = &r["event"]["body"]["type"];
            t == "hand_started" || t == "shuffle_committed"
        })
        .count();
    prop_assert_eq!(last["seeds"].as_array().unwrap().len(), commitments);

    // The schema.
    let errors: Vec<String> = validator()
        .iter_errors(&json)
        .take(5)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    prop_assert!(errors.is_empty(), "{:#?}", errors);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 40,
        max_shrink_iters: 32,
        rng_seed: RngSeed::Fixed(0x5eed_0001),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn every_simulated_hand_verifies_conserves_money_and_fits_the_schema(
        players in 2u8..=10,
        seed in any::<[u8; 32]>(),
    ) {
        check_hand(players, seed)?;
    }
}

#[test]
fn every_player_count_at_a_few_fixed_seeds() {
    for players in 2..=10u8 {
        for n in 0..2u8 {
            let mut seed = [0x5au8; 32];
            seed[0] = players;
            seed[1] = n;
            check_hand(players, seed)
                .unwrap_or_else(|e| panic!("{players} players, seed {n}: {e}"));
        }
    }
}

#[test]
fn simulation_is_deterministic_and_the_seed_matters() {
    let key = service_key();
    let a = simulate(GameId::BistOYek, 4, [9; 32], key, NOW_MS).unwrap();
    let b = simulate(GameId::BistOYek, 4, [9; 32], key, NOW_MS).unwrap();
    assert_eq!(a, b);
    let c = simulate(GameId::BistOYek, 4, [10; 32], key, NOW_MS).unwrap();
    assert_ne!(a.hand, c.hand);
    assert_ne!(a.records, c.records);
}

#[test]
fn player_counts_outside_2_to_10_are_refused() {
    for players in [0u8, 1, 11, 255] {
        let r = simulate(GameId::BistOYek, players, [1; 32], service_key(), NOW_MS);
        assert!(r.is_err(), "{players} players");
    }
    // A game with no engine yet is refused too.
    for game in [GameId::HaftKhabis, GameId::Sheytoonak] {
        let r = simulate(game, 4, [1; 32], service_key(), NOW_MS);
        assert!(r.is_err(), "{game:?}");
    }
}
