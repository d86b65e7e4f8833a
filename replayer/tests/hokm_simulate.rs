//! Simulated Hokm hands through the public API: for random seeds and 2 to 4 players, the
//! bundle verifies with the service's key, fits `docs/bundle-v1.schema.json`, round-trips
//! through JSON, and its outcome's points and next match agree with the typed results and
//! standings the registry reads.

use std::path::PathBuf;
use std::sync::OnceLock;

use jsonschema::Validator;
use proptest::prelude::*;
use proptest::test_runner::{Config as ProptestConfig, RngSeed};
use replayer::bundle::Bundle;
use replayer::dealer::HandStatus;
use replayer::engine::{GameId, Judged};
use replayer::games::registry;
use replayer::log::SigningKeyPair;
use replayer::sim::simulate;
use replayer::verify::{verify_value, Options, Trust};
use serde_json::Value;

const NOW_MS: u64 = 1_767_225_600_000;

fn service_key() -> &'static SigningKeyPair {
    static K: OnceLock<SigningKeyPair> = OnceLock::new();
    K.get_or_init(|| SigningKeyPair::from_secret([11; 32]))
}

fn validator() -> &'static Validator {
    static V: OnceLock<Validator> = OnceLock::new();
    V.get_or_init(|| {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/bundle-v1.schema.json");
        let schema: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        jsonschema::draft202012::new(&schema).unwrap()
    })
}

fn check_hand(players: u8, seed: [u8; 32]) -> Result<(), TestCaseError> {
    let key = service_key();
    let bundle = simulate(GameId::Hokm, players, seed, key, NOW_MS)
        .map_err(|e| TestCaseError::fail(format!("simulate: {e}")))?;
    prop_assert_eq!(bundle.status, HandStatus::Completed);
    let json = serde_json::to_value(&bundle).unwrap();
    let opts = Options {
        trusted_keys: vec![key.public()],
    };
    let v = verify_value(json.clone(), &opts).unwrap();
    prop_assert!(v.valid, "{:?}", v.problem);
    prop_assert_eq!(v.trust, Trust::TrustedKey);

    let back: Bundle = serde_json::from_value(json.clone()).unwrap();
    prop_assert_eq!(&back, &bundle);

    let errors: Vec<String> = validator()
        .iter_errors(&json)
        .take(5)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    prop_assert!(errors.is_empty(), "{:#?}", errors);

    // The outcome, the typed results and the next match's standings agree.
    let ended = json["records"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| &r["event"]["body"])
        .find(|b| b["type"] == "hand_ended")
        .unwrap();
    let engine = registry(GameId::Hokm).unwrap();
    let results = engine.results(&ended["outcome"]).unwrap();
    prop_assert_eq!(results.len(), usize::from(players));
    let standings = engine.standings(&ended["next_match"]).unwrap();
    let winner = ended["outcome"]["winner"].as_u64();
    for r in &results {
        let side = if players == 4 {
            u64::from(r.seat.0 % 2)
        } else {
            u64::from(r.seat.0)
        };
        let expected = match winner {
            Some(w) if w == side => Judged::Won,
            Some(_) => Judged::Lost,
            None => r.judged,
        };
        prop_assert_eq!(r.judged, expected);
        prop_assert!(r.delta >= 0);
        prop_assert!(standings.per_seat[r.seat.0 as usize] >= 0);
    }
    prop_assert!(results.iter().any(|r| r.delta > 0), "someone scored");
    prop_assert_eq!(
        standings.over,
        ended["next_match"]["over"].as_bool().unwrap()
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 24,
        max_shrink_iters: 16,
        rng_seed: RngSeed::Fixed(0x40c0_0001),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn every_simulated_hokm_hand_verifies_and_fits_the_schema(
        players in 2u8..=4,
        seed in any::<[u8; 32]>(),
    ) {
        check_hand(players, seed)?;
    }
}

#[test]
fn a_simulated_hokm_hand_is_deterministic() {
    let key = service_key();
    let a = simulate(GameId::Hokm, 4, [3; 32], key, NOW_MS).unwrap();
    let b = simulate(GameId::Hokm, 4, [3; 32], key, NOW_MS).unwrap();
    assert_eq!(a, b);
}
