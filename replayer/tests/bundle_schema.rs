//! Bundles against the JSON Schema `docs/bundle-v1.schema.json` (see `docs/BUNDLE.md`).
//!
//! Simulated Bist-o-yek hands, hand-built bundles (sealed here without an engine) and the
//! chain of `docs/vectors/event-log-v1.json` must pass the schema; deliberately broken
//! bundles must fail it, and the verifier's reader must refuse them too.

use std::path::PathBuf;

use jsonschema::Validator;
use replayer::bundle::Bundle;
use replayer::cards::DeckKind;
use replayer::dealer::HandStatus;
use replayer::engine::{Actor, GameId, SeatIndex, SetupError};
use replayer::log::{
    seal, Body, Event, Hash, PlayerSig, Record, RevealedSeed, SeatInfo, SigningKeyPair,
    EVENT_FORMAT_VERSION,
};
use replayer::shuffle::{ClientSeed, ServerSeed, SHUFFLE_VERSION};
use replayer::sim::{simulate, SimError};
use replayer::verify::{verify_value, Options};
use serde_json::{json, Value};

fn repo_file(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(rel)
}

fn schema() -> Value {
    let text = std::fs::read_to_string(repo_file("docs/bundle-v1.schema.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn validator() -> Validator {
    let schema = schema();
    jsonschema::draft202012::meta::validate(&schema)
        .unwrap_or_else(|e| panic!("the schema is not a valid draft 2020-12 schema: {e}"));
    jsonschema::draft202012::new(&schema).unwrap()
}

fn assert_valid(v: &Validator, bundle: &Value, what: &str) {
    let errors: Vec<String> = v
        .iter_errors(bundle)
        .take(5)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{what}: {errors:#?}");
}

fn test_key() -> SigningKeyPair {
    // A public test key: 0x01 repeated 32 times.
    SigningKeyPair::from_secret([0x01; 32])
}

/// Seal `bodies` into a chain for `hand`, the player's signature going on the event given.
fn chain(hand: &str, bodies: Vec<(Body, Option<PlayerSig>)>) -> Vec<Record> {
    let key = test_key();
    let mut prev = Hash::ZERO;
    let mut out = Vec::new();
    for (i, (body, player_sig)) in bodies.into_iter().enumerate() {
        let seq = u64::try_from(i).unwrap();
        let event = Event {
            v: EVENT_FORMAT_VERSION,
            hand: hand.into(),
            seq,
            prev,
            time_ms: 1_767_225_600_000 + seq,
            body,
            player_sig,
        };
        let r = seal(event, &key).unwrap();
        prev = r.hash;
        out.push(r);
    }
    out
}

fn hand_started(seats: u8, commitment_seed: [u8; 32]) -> Body {
    Body::HandStarted {
        club: "club-1".into(),
        table: "table-1".into(),
        hand_no: 1,
        game: GameId::BistOYek,
        rules: json!({}),
        match_state: json!({}),
        seats: (0..seats)
            .map(|i| SeatInfo {
                seat: SeatIndex(i),
                player: format!("player-{i}"),
                public_key: (i == 1).then(|| SigningKeyPair::from_secret([0x02; 32]).public()),
            })
            .collect(),
        deck: DeckKind::BistOYek36,
        shuffle_version: SHUFFLE_VERSION,
        commitment: ServerSeed::from_bytes(commitment_seed).commitment(),
        client_entropy: true,
        prev_hand: None,
        seed_chain: None,
        player_signatures: None,
        adjustments: Vec::new(),
    }
}

/// A completed hand with every body type but `abandoned`, sealed by hand.
fn hand_built_completed() -> Value {
    let hand = "hand-built-1";
    let records = chain(
        hand,
        vec![
            (hand_started(2, [0x11; 32]), None),
            (
                Body::ClientSeed {
                    shuffle: 0,
                    seat: SeatIndex(0),
                    seed: ClientSeed::new(b"lucky".to_vec()).unwrap(),
                },
                None,
            ),
            (
                Body::Shuffled {
                    shuffle: 0,
                    reason: "new_turn".into(),
                    cards: 36,
                    effects: vec![
                        json!({"type": "deal", "seat": 0, "card": {"shuffle": 0, "pos": 0}}),
                    ],
                    source: Some(replayer::engine::ShuffleSource::Deck(DeckKind::BistOYek36)),
                    missing: Some(vec![SeatIndex(1)]),
                },
                None,
            ),
            (
                Body::ShuffleCommitted {
                    shuffle: 1,
                    commitment: ServerSeed::from_bytes([0x22; 32]).commitment(),
                },
                None,
            ),
            (
                Body::Action {
                    actor: Actor::Seat(SeatIndex(0)),
                    action: json!({"type": "bet", "amount": 200}),
                    effects: vec![json!({"type": "bet_placed", "seat": 0, "amount": 200})],
                },
                None,
            ),
            (
                Body::HandEnded {
                    outcome: json!({"net": [200, -200]}),
                    next_match: Value::Null,
                },
                None,
            ),
            (
                Body::SeedsRevealed {
                    seeds: vec![
                        RevealedSeed {
                            shuffle: 0,
                            server_seed: "11".repeat(32),
                        },
                        RevealedSeed {
                            shuffle: 1,
                            server_seed: "22".repeat(32),
                        },
                    ],
                    inputs: Vec::new(),
                    chain_seed: None,
                },
                None,
            ),
        ],
    );
    let b = Bundle::new(
        hand,
        GameId::BistOYek,
        HandStatus::Completed,
        vec![test_key().public()],
        records,
    );
    serde_json::to_value(&b).unwrap()
}

/// An abandoned hand, with an action by the service and a player-signed action.
fn hand_built_abandoned() -> Value {
    let hand = "دست-۱۲";
    let player = SigningKeyPair::from_secret([0x02; 32]);
    let action = json!({"type": "stand"});
    let msg =
        replayer::log::action_message(hand, 1, &Hash::ZERO, Actor::Seat(SeatIndex(1)), &action)
            .unwrap();
    let records = chain(
        hand,
        vec![
            (hand_started(4, [0x33; 32]), None),
            (
                Body::Action {
                    actor: Actor::Seat(SeatIndex(1)),
                    action,
                    effects: vec![],
                },
                Some(PlayerSig {
                    key_id: player.key_id(),
                    sig: player.sign(&msg),
                }),
            ),
            (
                Body::Action {
                    actor: Actor::Service,
                    action: json!({"type": "end_match"}),
                    effects: vec![],
                },
                None,
            ),
            (
                Body::Abandoned {
                    reason: "table closed".into(),
                },
                None,
            ),
            (
                Body::SeedsRevealed {
                    seeds: vec![RevealedSeed {
                        shuffle: 0,
                        server_seed: "33".repeat(32),
                    }],
                    inputs: Vec::new(),
                    chain_seed: None,
                },
                None,
            ),
        ],
    );
    let b = Bundle::new(
        hand,
        GameId::BistOYek,
        HandStatus::Abandoned,
        vec![test_key().public()],
        records,
    );
    serde_json::to_value(&b).unwrap()
}

/// The chain of the event-log golden vectors, as a bundle.
fn vectors_bundle() -> Value {
    let text = std::fs::read_to_string(repo_file("docs/vectors/event-log-v1.json")).unwrap();
    let file: Value = serde_json::from_str(&text).unwrap();
    let records: Vec<Value> = file["vectors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| json!({"event": v["event"], "hash": v["hash"], "signer": v["signer"], "sig": v["sig"]}))
        .collect();
    json!({
        "format": "persian-cards/hand-bundle",
        "version": 1,
        "hand": records[0]["event"]["hand"],
        "game": "bist-o-yek",
        "status": "completed",
        "keys": [{
            "key_id": file["service_key"]["key_id"],
            "public_key": file["service_key"]["public_key"],
        }],
        "records": records,
    })
}

#[test]
fn hand_built_bundles_match_the_schema() {
    let v = validator();
    for (what, b) in [
        ("completed", hand_built_completed()),
        ("abandoned", hand_built_abandoned()),
        ("event-log vectors", vectors_bundle()),
    ] {
        assert_valid(&v, &b, what);
        // The verifier's reader accepts the same document (the verdict itself needs the
        // Bist-o-yek engine and is not checked here).
        verify_value(b, &Options::default())
            .unwrap_or_else(|e| panic!("{what}: the verifier cannot read it: {e}"));
    }
}

#[test]
fn simulated_bist_o_yek_bundles_match_the_schema() {
    let v = validator();
    let key = test_key();
    let mut checked = 0;
    for (players, seed_byte) in [(2u8, 1u8), (2, 2), (4, 3), (4, 4), (10, 5), (10, 6)] {
        let seed = [seed_byte; 32];
        let bundle = match simulate(GameId::BistOYek, players, seed, &key, 1_767_225_600_000) {
            Ok(b) => b,
            Err(SimError::Setup(SetupError::NoEngine(GameId::BistOYek))) => {
                // The Bist-o-yek engine is not in this tree yet: nothing to simulate.
                eprintln!("skipped: no Bist-o-yek engine in this build");
                return;
            }
            Err(e) => panic!("{players} players, seed {seed_byte}: {e}"),
        };
        let value = serde_json::to_value(&bundle).unwrap();
        assert_valid(&v, &value, &format!("{players} players, seed {seed_byte}"));
        checked += 1;
    }
    assert_eq!(checked, 6);
}

/// Apply `edit` to a copy of the completed hand-built bundle.
fn broken(edit: impl FnOnce(&mut Value)) -> Value {
    let mut b = hand_built_completed();
    edit(&mut b);
    b
}

fn body_of(b: &mut Value, i: usize) -> &mut Value {
    &mut b["records"][i]["event"]["body"]
}

#[test]
fn broken_bundles_fail_the_schema() {
    let v = validator();
    let cases: Vec<(&str, Value)> = vec![
        (
            "missing status",
            broken(|b| {
                b.as_object_mut().unwrap().remove("status");
            }),
        ),
        (
            "missing event time_ms",
            broken(|b| {
                b["records"][1]["event"]
                    .as_object_mut()
                    .unwrap()
                    .remove("time_ms");
            }),
        ),
        (
            "missing body field",
            broken(|b| {
                body_of(b, 2).as_object_mut().unwrap().remove("cards");
            }),
        ),
        (
            "hash of 63 hex characters",
            broken(|b| {
                let h = b["records"][0]["hash"].as_str().unwrap()[1..].to_string();
                b["records"][0]["hash"] = json!(h);
            }),
        ),
        (
            "signature of 126 hex characters",
            broken(|b| {
                let s = b["records"][0]["sig"].as_str().unwrap()[2..].to_string();
                b["records"][0]["sig"] = json!(s);
            }),
        ),
        (
            "prev not hex",
            broken(|b| b["records"][1]["event"]["prev"] = json!("zz".repeat(32))),
        ),
        (
            "public key of 66 hex characters",
            broken(|b| b["keys"][0]["public_key"] = json!("ab".repeat(33))),
        ),
        (
            "unknown body type",
            broken(|b| body_of(b, 4)["type"] = json!("hand_paused")),
        ),
        (
            "extra bundle property",
            broken(|b| b["comment"] = json!("hi")),
        ),
        (
            "extra event property",
            broken(|b| b["records"][3]["event"]["note"] = json!("x")),
        ),
        (
            "extra record property",
            broken(|b| b["records"][3]["verified"] = json!(true)),
        ),
        (
            "extra body property",
            broken(|b| body_of(b, 3)["shuffle_version"] = json!(1)),
        ),
        ("unknown game", broken(|b| b["game"] = json!("poker"))),
        ("unknown status", broken(|b| b["status"] = json!("voided"))),
        ("bundle version 2", broken(|b| b["version"] = json!(2))),
        ("no records", broken(|b| b["records"] = json!([]))),
        (
            "fraction in game JSON",
            broken(|b| body_of(b, 4)["action"]["amount"] = json!(200.5)),
        ),
        (
            "integer above 2^53 - 1",
            broken(|b| body_of(b, 4)["action"]["amount"] = json!(9_007_199_254_740_992u64)),
        ),
        (
            "actor neither a seat nor the service",
            broken(|b| body_of(b, 4)["actor"] = json!("dealer")),
        ),
        (
            "seat above 255",
            broken(|b| body_of(b, 4)["actor"] = json!({"seat": 256})),
        ),
        (
            "client seed of 65 bytes",
            broken(|b| body_of(b, 1)["seed"] = json!("ab".repeat(65))),
        ),
        (
            "unknown deck",
            broken(|b| body_of(b, 0)["deck"] = json!("tarot-78")),
        ),
    ];
    for (what, b) in cases {
        assert!(!v.is_valid(&b), "the schema accepts a bundle with {what}");
        // Inside a signed event the change breaks the event's hash (not valid, exit 1);
        // in the envelope the bundle cannot be read (exit 2). Never valid.
        assert!(
            !matches!(verify_value(b, &Options::default()), Ok(v) if v.valid),
            "the verifier accepts a bundle with {what}"
        );
    }

    // Well-formed per the reader but not per the schema: the reader takes any string as a
    // key id (and then finds no such signer).
    let b = broken(|b| b["records"][0]["signer"] = json!("rsa:1234"));
    assert!(!v.is_valid(&b));
}

/// A simulated match file passes `docs/match-v1.schema.json`, and each of its hands the
/// bundle schema; a match file with an unknown member or no hands does not.
#[test]
fn simulated_match_files_match_the_schema() {
    let text = std::fs::read_to_string(repo_file("docs/match-v1.schema.json")).unwrap();
    let schema: Value = serde_json::from_str(&text).unwrap();
    jsonschema::draft202012::meta::validate(&schema).unwrap();
    let mv = jsonschema::draft202012::new(&schema).unwrap();
    let bv = validator();
    let spec = replayer::sim::SimSpec::new(GameId::BistOYek, 3, [5; 32]);
    let m = replayer::sim::simulate_match(&spec, 3, &test_key(), 1_767_225_600_000).unwrap();
    let v = serde_json::to_value(&m).unwrap();
    assert!(mv.is_valid(&v), "{:?}", mv.iter_errors(&v).next());
    for h in v["hands"].as_array().unwrap() {
        assert_valid(&bv, h, "a hand of a simulated match");
    }
    let mut extra = v.clone();
    extra["note"] = json!("x");
    assert!(!mv.is_valid(&extra));
    let mut empty = v;
    empty["hands"] = json!([]);
    assert!(!mv.is_valid(&empty));
}

/// A match file that lists a quarantined hand is version 2 and passes
/// `docs/match-v2.schema.json` (not the version 1 schema); the version 2 schema wants the
/// list, and each entry whole.
#[test]
fn match_files_with_quarantined_hands_match_the_v2_schema() {
    let load = |name: &str| -> Value {
        let text = std::fs::read_to_string(repo_file(name)).unwrap();
        let schema: Value = serde_json::from_str(&text).unwrap();
        jsonschema::draft202012::meta::validate(&schema).unwrap();
        schema
    };
    let v1 = jsonschema::draft202012::new(&load("docs/match-v1.schema.json")).unwrap();
    let v2 = jsonschema::draft202012::new(&load("docs/match-v2.schema.json")).unwrap();
    let spec = replayer::sim::SimSpec::new(GameId::BistOYek, 3, [5; 32]);
    let m = replayer::sim::simulate_match(&spec, 1, &test_key(), 1_767_225_600_000)
        .unwrap()
        .with_quarantined(vec![replayer::matches::QuarantinedHand {
            hand: "h-2".into(),
            hand_no: 2,
            reason: "a row was inserted into its log".into(),
            quarantined_ms: 1_767_225_600_000,
            seq: 4,
            rule: "hash".into(),
        }]);
    let v = serde_json::to_value(&m).unwrap();
    assert_eq!(v["version"], 2);
    assert!(v2.is_valid(&v), "{:?}", v2.iter_errors(&v).next());
    assert!(!v1.is_valid(&v));
    let mut none = v.clone();
    none.as_object_mut().unwrap().remove("quarantined");
    assert!(!v2.is_valid(&none));
    let mut partial = v;
    partial["quarantined"][0]
        .as_object_mut()
        .unwrap()
        .remove("reason");
    assert!(!v2.is_valid(&partial));
}
