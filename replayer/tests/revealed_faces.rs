//! A revealed face is tied to its position by the committed order (`docs/EVENT-LOG.md` §11,
//! §12 B pass 3): the face at CardRef `(shuffle k, pos p)` is element `p` of shuffle `k`'s
//! order, which the engine re-derives from the revealed seed. A rogue operator who holds the
//! service's real key and changes a face shown in an effect, then re-signs and re-chains the
//! hand, is caught at that event as rule `effects`, because the engine's recomputed effect
//! shows the committed face.

use replayer::engine::GameId;
use replayer::log::{hash_event_json, signature_message, SigningKeyPair};
use replayer::sim::simulate;
use replayer::verify::{verify_value, Options};
use serde_json::{json, Value};

/// 2026-01-01T00:00:00Z.
const NOW_MS: u64 = 1_767_225_600_000;

fn service_key() -> SigningKeyPair {
    SigningKeyPair::from_secret([1; 32])
}

fn n(b: &Value) -> usize {
    b["records"].as_array().unwrap().len()
}

/// JSON pointers (below the event's `effects`) of every `face` member that sits beside a
/// `card` or `ref` member holding a CardRef.
fn faces(v: &Value, at: String, out: &mut Vec<String>) {
    match v {
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                faces(x, format!("{at}/{i}"), out);
            }
        }
        Value::Object(o) => {
            let is_ref = |m: &str| {
                o.get(m).and_then(Value::as_object).is_some_and(|r| {
                    r.len() == 2 && r.contains_key("shuffle") && r.contains_key("pos")
                })
            };
            if o.get("face").is_some_and(Value::is_string) && (is_ref("card") || is_ref("ref")) {
                out.push(format!("{at}/face"));
            }
            for (k, x) in o {
                faces(x, format!("{at}/{k}"), out);
            }
        }
        _ => {}
    }
}

/// Every (event, pointer into the record) of a face shown in an effect.
fn shown_faces(b: &Value) -> Vec<(usize, String)> {
    let mut all = Vec::new();
    for i in 0..n(b) {
        let mut out = Vec::new();
        faces(
            &b["records"][i]["event"]["body"]["effects"],
            format!("/records/{i}/event/body/effects"),
            &mut out,
        );
        all.extend(out.into_iter().map(|p| (i, p)));
    }
    all
}

/// Re-hash and re-sign record `i` and every record after it, re-chaining `prev`.
fn rogue_commit(b: &mut Value, i: usize) {
    let key = service_key();
    for j in i..n(b) {
        if j > i {
            let prev = b["records"][j - 1]["hash"].clone();
            b["records"][j]["event"]["prev"] = prev;
        }
        let hash = hash_event_json(&b["records"][j]["event"]).unwrap();
        let sig = key.sign(&signature_message(&hash));
        b["records"][j]["hash"] = json!(hash.to_hex());
        b["records"][j]["sig"] = json!(sig.to_hex());
    }
}

fn trusted() -> Options {
    Options {
        trusted_keys: vec![service_key().public()],
    }
}

/// Change the `nth` shown face of a simulated hand and check the verdict.
fn check(game: GameId, players: u8, seed: u8, nth: usize, other: (&str, &str)) {
    let bundle = simulate(game, players, [seed; 32], &service_key(), NOW_MS).unwrap();
    let mut b = serde_json::to_value(&bundle).unwrap();
    let v = verify_value(b.clone(), &trusted()).unwrap();
    assert!(v.valid, "{:?}", v.problem);
    let shown = shown_faces(&b);
    assert!(
        shown.len() > nth,
        "{game:?}: only {} shown faces",
        shown.len()
    );
    let (i, ptr) = &shown[nth];
    let face = b.pointer(ptr).unwrap().as_str().unwrap().to_string();
    let forged = if face == other.0 { other.1 } else { other.0 };
    *b.pointer_mut(ptr).unwrap() = json!(forged);
    rogue_commit(&mut b, *i);
    let v = verify_value(b, &trusted()).unwrap();
    let p = v.problem.expect("a forged face is caught");
    assert_eq!(
        (p.event, p.rule.as_str()),
        (Some(*i as u64), "effects"),
        "{game:?}: {face} -> {forged} at {ptr}: {p:?}"
    );
}

#[test]
fn a_forged_face_in_a_bist_o_yek_effect_is_caught_as_effects_at_that_event() {
    for nth in [0, 3] {
        check(GameId::BistOYek, 4, 0x31, nth, ("6S", "7S"));
    }
}

#[test]
fn a_forged_face_in_a_hokm_effect_is_caught_as_effects_at_that_event() {
    for nth in [0, 10] {
        check(GameId::Hokm, 4, 0x32, nth, ("AS", "KS"));
    }
}
