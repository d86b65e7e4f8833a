//! The dealer driven directly by the toy engine (`replayer::toy`): several shuffles in one
//! hand (a deal and two relabels), a private input from two seats that may act at once,
//! public reveals, exact gathered sources; the hand restored from its records with the
//! openings its reveal carries, and tampering with an opening caught.

use replayer::dealer::{HandParams, HandStatus, LiveHand, SeedSource};
use replayer::engine::{Actor, Engine, GameId, SeatIndex, ShuffleSource, Viewer};
use replayer::log::{seal, Body, Hash, OpenedInput, Record, SeatInfo, SigningKeyPair};
use replayer::testkit::Table;
use replayer::toy::{Action, Rules, Setup, Toy};
use serde_json::{json, Value};

static TOY: Engine<Toy> = Engine::new();

fn key() -> SigningKeyPair {
    SigningKeyPair::from_secret([0x33; 32])
}

fn params() -> HandParams {
    HandParams {
        hand_id: "toy-1".into(),
        club: "c".into(),
        table: "t".into(),
        hand_no: 1,
        game: GameId::Sheytoonak,
        rules: json!({}),
        match_state: json!({"seats": 2, "over": false}),
        seats: (0..2)
            .map(|i| SeatInfo {
                seat: SeatIndex(i),
                player: format!("p{i}"),
                public_key: None,
            })
            .collect(),
        client_entropy: false,
        prev_hand: None,
    }
}

fn seat(i: u8) -> Actor {
    Actor::Seat(SeatIndex(i))
}

/// A whole toy hand: (records, the chosen card of seat 0 and of seat 1).
fn play() -> (Vec<Record>, Vec<Value>) {
    let (mut hand, mut records) =
        LiveHand::start_with_engine(params(), &TOY, SeedSource::Derived([5; 32]), &key(), 1)
            .unwrap();
    records.extend(hand.settle_after_start(&key(), 1).unwrap());
    // Both seats may act now.
    let to_act = hand.to_act();
    assert_eq!(to_act.actors, vec![seat(0), seat(1)], "two actors at once");
    let mut chosen = Vec::new();
    for i in [1u8, 0] {
        let legal = hand.legal_actions(seat(i));
        let card = legal[0]["cards"][1].clone();
        let action = json!({"type": "choose", "card": card});
        let out = hand.act(seat(i), action.clone(), None, &key(), 1).unwrap();
        let first = &out[0].event.body;
        let Body::PrivateAction {
            actor,
            commitment,
            public,
        } = first
        else {
            panic!("a private action is sealed: {first:?}")
        };
        assert_eq!(*actor, seat(i));
        assert_eq!(public, &json!({"type": "choose"}));
        assert_ne!(*commitment, Hash::ZERO);
        let text = serde_json::to_string(&out[0]).unwrap();
        assert!(
            !text.contains("\"card\""),
            "no plaintext in the log: {text}"
        );
        chosen.push(action);
        records.extend(out);
        if i == 1 {
            // While seat 0 still chooses, its view holds no face of seat 1's cards.
            let v = hand.view(Viewer::Seat(SeatIndex(0)));
            let mine = hand.view(Viewer::Seat(SeatIndex(1)));
            let theirs = faces_in_zone(&mine, "pile", 1);
            assert_eq!(theirs.len(), 1, "seat 1 sees its own chosen card");
            assert!(faces_in_zone(&v, "pile", 1).is_empty(), "{v}");
        }
    }
    assert_eq!(hand.status(), HandStatus::Completed);
    chosen.reverse();
    (records, chosen)
}

/// The faces a view shows in one zone.
fn faces_in_zone(view: &Value, zone: &str, of: u8) -> Vec<String> {
    view["zones"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|z| z["zone"] == zone && z["of"] == of)
        .flat_map(|z| z["cards"].as_array().unwrap().clone())
        .filter_map(|c| c["face"].as_str().map(str::to_string))
        .collect()
}

fn openings(records: &[Record]) -> (Vec<Option<replayer::shuffle::ServerSeed>>, Vec<OpenedInput>) {
    match &records.last().unwrap().event.body {
        Body::SeedsRevealed { seeds, inputs, .. } => (
            seeds
                .iter()
                .map(|s| replayer::shuffle::ServerSeed::from_hex(&s.server_seed).ok())
                .collect(),
            inputs.clone(),
        ),
        other => panic!("the hand ends in a reveal, not {other:?}"),
    }
}

fn restore(records: &[Record]) -> Result<LiveHand, String> {
    let (seeds, inputs) = openings(records);
    LiveHand::restore_with_engine(records, seeds, inputs, SeedSource::Os, &TOY)
        .map_err(|e| e.to_string())
}

#[test]
fn a_toy_hand_runs_three_shuffles_two_private_inputs_and_verifies() {
    let (records, chosen) = play();
    let shuffles: Vec<(&str, &ShuffleSource)> = records
        .iter()
        .filter_map(|r| match &r.event.body {
            Body::Shuffled { reason, source, .. } => Some((reason.as_str(), source.as_ref()?)),
            _ => None,
        })
        .collect();
    assert_eq!(shuffles.len(), 3, "a deal and two relabels");
    assert!(matches!(shuffles[0], ("deal", ShuffleSource::Deck(_))));
    for (reason, source) in &shuffles[1..] {
        assert_eq!(*reason, "relabel");
        let ShuffleSource::Gather(refs) = source else {
            panic!("a relabel gathers")
        };
        assert_eq!(refs.len(), 3, "a relabel names exactly the hand's cards");
    }
    // The relabel of seat 0 gathers the card seat 0 chose (everyone saw its face).
    let ShuffleSource::Gather(refs0) = shuffles[1].1 else {
        panic!()
    };
    let chosen0: replayer::engine::CardRef =
        serde_json::from_value(chosen[0]["card"].clone()).unwrap();
    assert!(refs0.contains(&chosen0));
    let (_, inputs) = openings(&records);
    assert_eq!(inputs.len(), 2);
    assert_eq!(
        inputs[0].action, chosen[1],
        "openings in seq order: seat 1 chose first"
    );
    let h = restore(&records).expect("the toy hand verifies from its records");
    assert_eq!(h.status(), HandStatus::Completed);
    assert_eq!(
        h.outcome(),
        records.iter().find_map(|r| match &r.event.body {
            Body::HandEnded { outcome, .. } => Some(outcome),
            _ => None,
        })
    );
}

fn reseal_last(records: &mut [Record], edit: impl FnOnce(&mut Vec<OpenedInput>)) {
    let n = records.len();
    let mut e = records[n - 1].event.clone();
    if let Body::SeedsRevealed { inputs, .. } = &mut e.body {
        edit(inputs);
    }
    records[n - 1] = seal(e, &key()).unwrap();
}

#[test]
fn an_edited_or_missing_opening_is_caught() {
    let (records, _) = play();
    let private_seq = records
        .iter()
        .find(|r| matches!(r.event.body, Body::PrivateAction { .. }))
        .unwrap()
        .event
        .seq;
    // Another card claimed for the first private action.
    let mut t = records.clone();
    reseal_last(&mut t, |inputs| {
        let other = if inputs[0].action["card"]["pos"] == 0 {
            1
        } else {
            0
        };
        inputs[0].action["card"]["pos"] = json!(other);
    });
    let e = restore(&t).unwrap_err();
    assert!(
        e.contains(&format!("event {private_seq}")) && e.contains("private_input"),
        "{e}"
    );
    // An opening left out.
    let mut t = records.clone();
    reseal_last(&mut t, |inputs| {
        inputs.remove(0);
    });
    let e = restore(&t).unwrap_err();
    assert!(e.contains("private_input"), "{e}");
    // Another salt.
    let mut t = records;
    reseal_last(&mut t, |inputs| inputs[1].salt = Hash([9; 32]));
    let e = restore(&t).unwrap_err();
    assert!(e.contains("private_input"), "{e}");
}

#[test]
fn a_private_choice_in_plain_sight_is_refused_on_replay() {
    let (records, chosen) = play();
    let i = records
        .iter()
        .position(|r| matches!(r.event.body, Body::PrivateAction { .. }))
        .unwrap();
    let mut t = records[..i].to_vec();
    let mut e = records[i].event.clone();
    e.body = Body::Action {
        actor: seat(1),
        action: chosen[1].clone(),
        effects: vec![],
    };
    t.push(seal(e, &key()).unwrap());
    let (seeds, inputs) = openings(&records);
    let err = LiveHand::restore_with_engine(&t, seeds, inputs, SeedSource::Os, &TOY)
        .unwrap_err()
        .to_string();
    assert!(err.contains("private_input"), "{err}");
}

/// Given-when-then on the toy with the shared kit: the core's invariants hold at every
/// step (cards conserved, no view leaks, legal families agree with decide), and a choice
/// stays hidden from the other seat until both have chosen.
#[test]
fn the_toy_keeps_a_choice_hidden_until_both_chose() {
    let mut t: Table<Toy> = Table::new(&Rules {}, &Setup { seats: 2 });
    let deck = replayer::cards::DeckKind::Standard52.cards();
    t.shuffle(&deck);
    let hand1 = t.view(Viewer::Seat(SeatIndex(1)));
    let c1: replayer::engine::CardRef = serde_json::from_value(
        hand1["zones"]
            .as_array()
            .unwrap()
            .iter()
            .find(|z| z["zone"] == "hand" && z["of"] == 1)
            .unwrap()["cards"][0]["ref"]
            .clone(),
    )
    .unwrap();
    t.act(seat(1), Action::Choose { card: c1 });
    // Seat 1 chose 5S (canonical deck: seat 0 holds 2S 3S 4S, seat 1 5S 6S 7S).
    let seen_by_0 = t.view(Viewer::Seat(SeatIndex(0)));
    assert!(!seen_by_0.to_string().contains("5S"), "{seen_by_0}");
    assert_eq!(
        faces_in_zone(&t.view(Viewer::Seat(SeatIndex(1))), "pile", 1),
        vec!["5S"]
    );
    t.reject(seat(1), Action::Choose { card: c1 }, "WrongPhase");
    let c0 = replayer::engine::CardRef { shuffle: 0, pos: 0 };
    t.act(seat(0), Action::Choose { card: c0 });
    // Both faces are public now (2S and 7S from the canonical deck: seat 1 wins).
    let public = t.view(Viewer::Public).to_string();
    assert!(
        public.contains("\"face\":\"2S\"") && public.contains("\"face\":\"5S\""),
        "{public}"
    );
}

/// A hand with private actions and their openings fits the bundle's JSON Schema.
#[test]
fn a_hand_with_private_actions_fits_the_bundle_schema() {
    let (records, _) = play();
    let b = replayer::bundle::Bundle::new(
        "toy-1",
        GameId::Sheytoonak,
        HandStatus::Completed,
        vec![key().public()],
        records,
    );
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/bundle-v1.schema.json");
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let v = jsonschema::draft202012::new(&schema).unwrap();
    let doc = serde_json::to_value(&b).unwrap();
    let first = v
        .iter_errors(&doc)
        .next()
        .map(|e| format!("{e} at {}", e.instance_path()));
    assert_eq!(first, None);
}

/// The client-seed policy is per shuffle: a Bluff relabel asks only the seats still in play;
/// a seat out of play is refused; a shuffle forced without some seeds names them in the log,
/// and a log that names other seats does not verify.
#[test]
fn a_shuffle_asks_the_seats_in_play_and_names_those_that_gave_none() {
    use replayer::shuffle::ClientSeed;
    let spec = replayer::sim::SimSpec::new(GameId::Bluff, 4, [12; 32]);
    let (rules, match_state) =
        replayer::sim::new_match_state(GameId::Bluff, 4, &spec.rules, None).unwrap();
    let mut p = params();
    p.game = GameId::Bluff;
    p.rules = rules;
    p.match_state = match_state;
    p.client_entropy = true;
    p.seats = (0..4)
        .map(|i| SeatInfo {
            seat: SeatIndex(i),
            player: format!("p{i}"),
            public_key: None,
        })
        .collect();
    let (mut hand, mut records) =
        LiveHand::start(p, SeedSource::Derived([12; 32]), &key(), 1).unwrap();
    assert_eq!(hand.asked_seats().len(), 4, "the deal asks every seat");
    // Seats 0 and 2 give seeds; the admin forces the deal.
    for s in [0u8, 2] {
        records.extend(
            hand.contribute(
                SeatIndex(s),
                ClientSeed::new(vec![s; 8]).unwrap(),
                &key(),
                1,
            )
            .unwrap(),
        );
    }
    records.extend(hand.shuffle_now(&key(), 1).unwrap());
    let i = records
        .iter()
        .position(|r| matches!(r.event.body, Body::Shuffled { .. }))
        .unwrap();
    let Body::Shuffled { missing, .. } = &records[i].event.body else {
        panic!()
    };
    assert_eq!(missing.as_deref(), Some(&[SeatIndex(1), SeatIndex(3)][..]));
    // The same log naming other seats does not verify.
    let mut forged = records[..=i].to_vec();
    let mut e = forged[i].event.clone();
    if let Body::Shuffled { missing, .. } = &mut e.body {
        *missing = Some(vec![SeatIndex(3)]);
    }
    forged[i] = seal(e, &key()).unwrap();
    let seeds = hand.server_seeds().to_vec();
    let err = LiveHand::restore(&forged, seeds, Vec::new(), SeedSource::Os)
        .unwrap_err()
        .to_string();
    assert!(err.contains("shuffle_missing"), "{err}");
}

/// A running hand's secrets never reach a debug print: not the private choices, not their
/// salts (the hand's state is printed nowhere, but a `{:?}` of the hand must stay safe).
#[test]
fn a_debug_print_of_a_running_hand_shows_no_private_choice() {
    let (mut hand, _) =
        LiveHand::start_with_engine(params(), &TOY, SeedSource::Derived([5; 32]), &key(), 1)
            .unwrap();
    hand.settle_after_start(&key(), 1).unwrap();
    let legal = hand.legal_actions(seat(0));
    let action = json!({"type": "choose", "card": legal[0]["cards"][2].clone()});
    hand.act(seat(0), action, None, &key(), 1).unwrap();
    let openings = hand.openings();
    assert_eq!(openings.len(), 1);
    let printed = format!("{hand:?} {openings:?}");
    assert!(!printed.contains(&openings[0].salt.to_hex()), "{printed}");
    assert!(!printed.contains("choose"), "{printed}");
}
