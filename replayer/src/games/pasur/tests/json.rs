//! JSON shapes: actions, house rules, the match, through the registry as the service and
//! the CLI read them.

use serde_json::json;

use super::*;
use crate::engine::GameId;
use crate::games::registry;

#[test]
fn an_action_reads_and_writes_as_documented() {
    let a: Action = serde_json::from_value(json!({
        "type": "play",
        "card": {"shuffle": 0, "pos": 7},
        "capture": [{"shuffle": 0, "pos": 9}, {"shuffle": 0, "pos": 10}]
    }))
    .unwrap();
    assert_eq!(
        a,
        Action::Play {
            card: CardRef { shuffle: 0, pos: 7 },
            capture: Some(vec![
                CardRef { shuffle: 0, pos: 9 },
                CardRef {
                    shuffle: 0,
                    pos: 10
                }
            ]),
        }
    );
    let b: Action =
        serde_json::from_value(json!({"type": "play", "card": {"shuffle": 0, "pos": 3}})).unwrap();
    assert_eq!(
        serde_json::to_value(&b).unwrap(),
        json!({"type": "play", "card": {"shuffle": 0, "pos": 3}})
    );
    assert!(serde_json::from_value::<Action>(
        json!({"type": "capture", "card": {"shuffle": 0, "pos": 3}})
    )
    .is_err());
    assert!(serde_json::from_value::<Action>(
        json!({"type": "play", "card": {"shuffle": 0, "pos": 3}, "sur": true})
    )
    .is_err());
}

#[test]
fn house_rules_default_and_refuse_unknown_options() {
    let def = registry(GameId::Pasur).unwrap();
    assert_eq!(
        def.default_rules(),
        json!({
            "four_player_mode": "partnership",
            "target_score": 62,
            "deal_packet": 4,
            "table_jack_return": "middle_of_stock",
            "capture_compulsion": "played_card_must_capture",
            "multi_set_capture": false,
            "sur_forbidden": "last_card",
            "jack_on_empty_table": "only_if_all_jacks",
            "clubs_bonus": "most_clubs",
            "tie_break_eligibility": "anyone"
        })
    );
    let r = def
        .normalize_rules_for(
            &json!({"target_score": 100, "clubs_bonus": "seven_or_more"}),
            3,
        )
        .unwrap();
    assert_eq!(r["target_score"], 100);
    assert_eq!(r["sur_forbidden"], "last_card");
    assert!(def
        .normalize_rules(&json!({"redeal_on_jacks": true}))
        .is_err());
    assert!(def
        .normalize_rules(&json!({"sur_forbidden": "sometimes"}))
        .is_err());
    assert!(def
        .normalize_rules_for(&json!({"four_player_mode": "individual"}), 2)
        .is_err());
    // The set-up's first dealer defaults to seat 0.
    assert_eq!(
        def.default_setup(3).unwrap(),
        json!({"seats": 3, "first_dealer": 0})
    );
}

#[test]
fn a_match_state_is_checked_when_read() {
    let def = registry(GameId::Pasur).unwrap();
    let good = json!({"seats": 4, "scores": [10, 20], "dealer": 3, "hand": 2,
                      "over": false, "winner": null});
    assert_eq!(def.seat_count(&good).unwrap(), 4);
    let st = def.standings(&good).unwrap();
    assert_eq!(st.per_seat, vec![10, 20, 10, 20]);
    assert_eq!(st.sides.len(), 2);
    for bad in [
        json!({"seats": 4, "scores": [10, 20, 30], "dealer": 0, "hand": 1, "over": false, "winner": null}),
        json!({"seats": 2, "scores": [10, 20], "dealer": 2, "hand": 1, "over": false, "winner": null}),
        json!({"seats": 2, "scores": [10, 20], "dealer": 0, "hand": 0, "over": false, "winner": null}),
        json!({"seats": 2, "scores": [10, 20], "dealer": 0, "hand": 1, "over": true, "winner": null}),
        json!({"seats": 5, "scores": [0, 0, 0, 0, 0], "dealer": 0, "hand": 1, "over": false, "winner": null}),
    ] {
        assert!(def.seat_count(&bad).is_err(), "{bad}");
    }
    // Partnership scores with individual rules do not start a hand.
    let ind = json!({"four_player_mode": "individual"});
    assert!(def.new_hand(&ind, &good).is_err());
}

#[test]
fn a_legal_family_reads_back_and_samples_a_legal_play() {
    let r = Rules::default();
    let t = position(&r, 2, &["9C", "7H 9S"], "4C 2D 2H 10S");
    let def = registry(GameId::Pasur).unwrap();
    let legal = Pasur::legal_actions(&t.state, s(1));
    assert_eq!(legal.len(), 2);
    let mut rng = <rand_chacha::ChaCha8Rng as rand_core::SeedableRng>::seed_from_u64(5);
    for l in &legal {
        let j = serde_json::to_value(l).unwrap();
        let a = def.sample_legal(&j, &mut rng).unwrap();
        let a: Action = serde_json::from_value(a).unwrap();
        assert!(Pasur::decide(&t.state, s(1), &a).is_ok());
    }
}
