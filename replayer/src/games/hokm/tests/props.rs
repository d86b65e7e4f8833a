//! Property tests and simulated, verified hands.

use super::*;
use crate::log::SigningKeyPair;
use crate::verify::{verify_value, Options};

fn sim_verifies(n: u8, seed: u8) {
    let key = SigningKeyPair::from_secret([7; 32]);
    let b = crate::sim::simulate(GameId::Hokm, n, [seed; 32], &key, 0).unwrap();
    assert_eq!(
        b.status,
        crate::dealer::HandStatus::Completed,
        "{n} players, seed {seed}"
    );
    let value = serde_json::to_value(&b).unwrap();
    let verdict = verify_value(
        value,
        &Options {
            trusted_keys: vec![key.public()],
        },
    )
    .unwrap();
    assert!(
        verdict.valid,
        "{n} players, seed {seed}: {:?}",
        verdict.problem
    );
}

#[test]
fn simulated_hands_verify_for_2_3_and_4_players() {
    for n in 2..=4 {
        for seed in 0..4 {
            sim_verifies(n, seed);
        }
    }
}
