//! JSON shapes of the public types: what other people will read and write.

use super::*;
use serde_json::json;

#[test]
fn actions_read_and_write_their_documented_shape() {
    let cases = [
        (json!({"type": "cut", "k": 7}), Action::Cut { k: 7 }),
        (
            json!({"type": "declare_trump", "suit": "H"}),
            Action::DeclareTrump { suit: suit("H") },
        ),
        (
            json!({"type": "call_ya", "x": "D", "y": "C"}),
            Action::CallYa {
                x: suit("D"),
                y: suit("C"),
            },
        ),
        (
            json!({"type": "play", "card": {"shuffle": 1, "pos": 12}}),
            Action::Play {
                card: CardRef {
                    shuffle: 1,
                    pos: 12,
                },
            },
        ),
        (
            json!({"type": "discard", "cards": [{"shuffle": 1, "pos": 0}]}),
            Action::Discard {
                cards: vec![CardRef { shuffle: 1, pos: 0 }],
            },
        ),
        (json!({"type": "keep_first"}), Action::KeepFirst),
        (
            json!({"type": "award_cheating_penalty", "offender": 1}),
            Action::AwardCheatingPenalty {
                offender: seat(1),
                beneficiary: None,
            },
        ),
    ];
    for (j, a) in cases {
        assert_eq!(serde_json::from_value::<Action>(j.clone()).unwrap(), a);
        assert_eq!(serde_json::to_value(&a).unwrap(), j);
    }
    assert!(serde_json::from_value::<Action>(json!({"type": "cut", "k": 1, "x": 2})).is_err());
    assert!(
        serde_json::from_value::<Action>(json!({"type": "declare_trump", "suit": "X"})).is_err()
    );
}

#[test]
fn rules_setup_and_match_deny_unknown_fields_and_take_defaults() {
    let r: Rules = serde_json::from_value(json!({})).unwrap();
    assert_eq!(r, Rules::default());
    let r: Rules = serde_json::from_value(json!({
        "ten_low": {"max_redeals_per_hand": 2},
        "deuce_2p": {"win_by_two": {"cap": 8}},
        "trump_methods": ["direct", "sar_ghermez", "ya_x_ya_y"],
        "removed_two": "D"
    }))
    .unwrap();
    assert_eq!(r.ten_low, TenLow::MaxRedealsPerHand(2));
    assert_eq!(r.deuce_2p, Deuce2p::WinByTwo { cap: Some(8) });
    assert!(serde_json::from_value::<Rules>(json!({"bogus": 1})).is_err());
    let s: Setup = serde_json::from_value(json!({"seats": 4})).unwrap();
    assert_eq!(s.seats, 4);
    assert!(serde_json::from_value::<Setup>(json!({"seats": 4, "x": 1})).is_err());
    let m = Hokm::new_match(&Rules::default(), &s).unwrap();
    let j = serde_json::to_value(&m).unwrap();
    assert_eq!(
        j,
        json!({"seats": 4, "scores": [0, 0], "rounds": [0, 0], "hakem": null, "deuce": false,
               "over": false, "winner": null, "hand": 1, "seating": [0, 1, 2, 3]})
    );
    assert_eq!(serde_json::from_value::<Match>(j.clone()).unwrap(), m);
    let mut bad = j.clone();
    bad["scores"] = json!([0, 0, 0]);
    assert!(serde_json::from_value::<Match>(bad).is_err());
    let mut bad = j.clone();
    bad["hakem"] = json!(7);
    assert!(serde_json::from_value::<Match>(bad).is_err());
    let mut bad = j.clone();
    bad["seating"] = json!([0, 1, 1, 3]);
    assert!(serde_json::from_value::<Match>(bad).is_err());
    let mut bad = j;
    bad["extra"] = json!(1);
    assert!(serde_json::from_value::<Match>(bad).is_err());
}

#[test]
fn effects_name_cards_by_ref_and_show_only_public_faces() {
    let mut t = Table::new(no_cut(), 4, Some(0));
    let e = t.shuffle(&canonical(DeckKind::Standard52));
    let j = serde_json::to_value(&e).unwrap();
    assert_eq!(
        j[0],
        json!({"type": "shuffled", "shuffle": 0, "reason": "deal", "cards": 52})
    );
    assert_eq!(j[1]["type"], "dealt");
    assert!(j[1].get("faces").is_none());
    // No face is in the deal's effects at all.
    assert!(!j.to_string().contains("\"2S\""));
    t.act(s(0), Action::DeclareTrump { suit: suit("H") });
    let e = t.play(0, "2S");
    assert_eq!(
        serde_json::to_value(&e[0]).unwrap(),
        json!({"type": "played", "seat": 0, "card": {"card": {"shuffle": 0, "pos": 0}, "face": "2S"}})
    );
}

#[test]
fn the_engine_is_registered() {
    let g = crate::games::registry(GameId::Hokm).unwrap();
    assert_eq!(g.seats(), (2, 4));
    let setup = g.default_setup(3).unwrap();
    let m = g.new_match(&g.default_rules(), &setup).unwrap();
    let hand = g.new_hand(&g.default_rules(), &m).unwrap();
    assert_eq!(hand.to_act().shuffle.unwrap().reason, "draw");
    assert_eq!(hand.deck().to_string(), "hokm-51-without-2C");
    let st = g.standings(&m).unwrap();
    assert_eq!(st.unit, crate::engine::ScoreUnit::Points);
    assert_eq!(st.sides.len(), 3);
}
