//! `replayer verify` checks a hand's service signatures as one batch and falls back to strict
//! one-by-one verification only to name the first bad one (`docs/EVENT-LOG.md` §8, §12 B
//! pass 1). The verdict must be the one strict verification gives: here every record of
//! simulated hands of every game gets, in turn, a signature in a form strict verification
//! refuses but some looser check accepts, made with the real service key (so only the
//! signature is wrong), and the verdict must name rule `signature` at exactly that record
//! (records spread over the whole hand, first and last included),
//! with the hash, signer and every other record still good.

use curve25519_dalek::constants::{ED25519_BASEPOINT_POINT, EIGHT_TORSION};
use curve25519_dalek::edwards::EdwardsPoint;
use curve25519_dalek::scalar::Scalar;
use curve25519_dalek::traits::Identity;
use replayer::engine::GameId;
use replayer::log::{signature_message, Hash, SigningKeyPair};
use replayer::sim::simulate;
use replayer::verify::{verify_value, Options};
use serde_json::Value;
use sha2::{Digest, Sha512};

const NOW_MS: u64 = 1_767_225_600_000;
const SECRET: [u8; 32] = [0x3c; 32];

/// L, the order of the base point, little-endian.
const GROUP_ORDER: [u8; 32] = [
    0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10,
];

fn key() -> SigningKeyPair {
    SigningKeyPair::from_secret(SECRET)
}

/// A signature by the key's holder over `msg` with `R = [r]B + torsion`, `S = r + k·a`
/// (`torsion` the identity gives an honest signature with nonce `r`).
fn crafted(msg: &[u8], r: u64, torsion: EdwardsPoint) -> [u8; 64] {
    let secret = ed25519_dalek::SigningKey::from_bytes(&SECRET);
    let a = secret.to_scalar();
    let r = Scalar::from(r);
    let big_r = (ED25519_BASEPOINT_POINT * r + torsion).compress();
    let mut h = Sha512::new();
    h.update(big_r.as_bytes());
    h.update(secret.verifying_key().as_bytes());
    h.update(msg);
    let k = Scalar::from_bytes_mod_order_wide(&h.finalize().into());
    let s = r + k * a;
    let mut out = [0u8; 64];
    out[..32].copy_from_slice(big_r.as_bytes());
    out[32..].copy_from_slice(s.as_bytes());
    out
}

/// The same signature with `S + L` in place of `S` (the equation holds mod L).
fn with_s_plus_l(sig: [u8; 64]) -> [u8; 64] {
    let mut out = sig;
    let mut carry = 0u16;
    for j in 0..32 {
        let v = u16::from(sig[32 + j]) + u16::from(GROUP_ORDER[j]) + carry;
        out[32 + j] = (v & 0xff) as u8;
        carry = v >> 8;
    }
    assert_eq!(carry, 0);
    out
}

fn hash_of(record: &Value) -> Hash {
    Hash::from_hex(record["hash"].as_str().unwrap()).unwrap()
}

#[test]
fn a_signature_in_a_form_strict_verification_refuses_is_named_at_its_record() {
    let opts = Options {
        trusted_keys: vec![key().public()],
    };
    for (game, players) in [
        (GameId::BistOYek, 5u8),
        (GameId::Hokm, 4),
        (GameId::Bluff, 4),
    ] {
        let bundle = simulate(game, players, [players; 32], &key(), NOW_MS).unwrap();
        let bundle = serde_json::to_value(&bundle).unwrap();
        let good = verify_value(bundle.clone(), &opts).unwrap();
        assert!(good.valid, "{game}: {:?}", good.problem);
        let n = bundle["records"].as_array().unwrap().len();
        // The first and last records and every eleventh between (debug builds verify slowly).
        let records = (0..n).filter(|i| *i == 0 || *i + 1 == n || i % 11 == usize::from(players));
        for i in records {
            let msg = signature_message(&hash_of(&bundle["records"][i]));
            let honest = crafted(&msg, 1_000 + i as u64, EdwardsPoint::identity());
            let forms: [(&str, [u8; 64]); 4] = [
                (
                    "a small-order R (S = k·a)",
                    crafted(&msg, 0, EIGHT_TORSION[i % 8]),
                ),
                (
                    "an R with a small-order component",
                    crafted(&msg, 77 + i as u64, EIGHT_TORSION[1 + i % 7]),
                ),
                ("a non-canonical S (S + L)", with_s_plus_l(honest)),
                ("a non-canonical S on an R of small order", {
                    with_s_plus_l(crafted(&msg, 0, EIGHT_TORSION[4]))
                }),
            ];
            // The honest signature made the same way verifies: the crafting is right.
            let mut ok = bundle.clone();
            ok["records"][i]["sig"] = Value::String(hex::encode(honest));
            assert!(
                verify_value(ok, &opts).unwrap().valid,
                "{game}, record {i}: honest crafted signature"
            );
            for (what, sig) in forms {
                let mut b = bundle.clone();
                b["records"][i]["sig"] = Value::String(hex::encode(sig));
                let v = verify_value(b, &opts).unwrap();
                let p = v
                    .problem
                    .unwrap_or_else(|| panic!("{game}, record {i}: {what} was accepted"));
                assert_eq!(
                    (p.event, p.rule.as_str()),
                    (Some(i as u64), "signature"),
                    "{game}, record {i}: {what}: {p}"
                );
            }
        }
    }
}

/// With a bad signature at record `j` and another problem at an earlier record `i`, the
/// earlier one is named, as checking record by record names it; with the other problem
/// later, the signature is.
#[test]
fn the_first_problem_is_the_one_record_by_record_checking_names() {
    let opts = Options {
        trusted_keys: vec![key().public()],
    };
    let bundle = simulate(GameId::Hokm, 4, [9; 32], &key(), NOW_MS).unwrap();
    let bundle = serde_json::to_value(&bundle).unwrap();
    let n = bundle["records"].as_array().unwrap().len();
    for (sig_at, other_at) in [(3usize, 7usize), (7, 3), (0, n - 1), (n - 1, 0)] {
        let mut b = bundle.clone();
        let msg = signature_message(&hash_of(&b["records"][sig_at]));
        b["records"][sig_at]["sig"] =
            Value::String(hex::encode(crafted(&msg, 0, EIGHT_TORSION[2])));
        b["records"][other_at]["signer"] = Value::String("ed25519:0000000000000000".into());
        let p = verify_value(b, &opts).unwrap().problem.unwrap();
        let want = if sig_at < other_at {
            (sig_at, "signature")
        } else {
            (other_at, "signer")
        };
        assert_eq!(
            (p.event, p.rule.as_str()),
            (Some(want.0 as u64), want.1),
            "signature at {sig_at}, signer at {other_at}: {p}"
        );
    }
}
