//! JSON shapes of actions, legal families, effects, house rules and the match.

use super::*;
use crate::cards::DeckKind;
use crate::engine::{CardRef, Game};
use serde_json::json;

#[test]
fn actions_read_and_write_as_documented() {
    let cases = [
        (json!({"type": "cut", "k": 7}), Action::Cut { k: 7 }),
        (json!({"type": "bid", "n": 4}), Action::Bid { n: 4 }),
        (json!({"type": "buy"}), Action::Buy),
        (json!({"type": "decline_buy"}), Action::DeclineBuy),
        (
            json!({"type": "play", "card": {"shuffle": 1, "pos": 12}}),
            Action::Play {
                card: CardRef {
                    shuffle: 1,
                    pos: 12,
                },
            },
        ),
    ];
    for (j, a) in cases {
        assert_eq!(serde_json::from_value::<Action>(j.clone()).unwrap(), a);
        assert_eq!(serde_json::to_value(&a).unwrap(), j);
    }
    assert!(serde_json::from_value::<Action>(json!({"type": "bid", "n": 4, "x": 1})).is_err());
    assert!(serde_json::from_value::<Action>(json!({"type": "pass"})).is_err());
}

#[test]
fn house_rules_default_and_options_round_trip() {
    let d = serde_json::to_value(Rules::default()).unwrap();
    assert_eq!(
        d,
        json!({
            "dealer_draw": "highest_card",
            "partnerships": "fixed",
            "cut": "dealers_left_cuts",
            "team_bid_cap": 13,
            "buying": "off",
            "buy_increment": "seller_above_10",
            "max_buys_per_hand": "unlimited",
            "joker_lead": "free",
            "cj_release": "same_trick",
            "bj_deadline": 10,
            "target_score": 501,
            "cheating_penalty": {"award_points": 10}
        })
    );
    let r: Rules = serde_json::from_value(json!({
        "team_bid_cap": null, "max_buys_per_hand": {"at_most": 2},
        "cheating_penalty": "offender_fails", "target_score": 1001
    }))
    .unwrap();
    assert_eq!(r.team_bid_cap, None);
    assert_eq!(r.max_buys_per_hand, MaxBuys::AtMost(2));
    assert_eq!(r.cheating_penalty, CheatingPenalty::OffenderFails);
    assert_eq!(
        serde_json::from_value::<Rules>(serde_json::to_value(&r).unwrap()).unwrap(),
        r
    );
    use crate::engine::HouseRules;
    for bad in [
        json!({"team_bid_cap": 12}),
        json!({"bj_deadline": 11}),
        json!({"target_score": 0}),
        json!({"max_buys_per_hand": {"at_most": 0}}),
        json!({"cheating_penalty": {"award_points": 0}}),
    ] {
        let r: Rules = serde_json::from_value(bad.clone()).unwrap();
        assert!(r.validate().is_err(), "{bad}");
    }
    assert!(serde_json::from_value::<Rules>(json!({"trump": "H"})).is_err());
    for r in Rules::samples() {
        r.for_seats(4).unwrap();
    }
}

#[test]
fn the_match_state_is_checked_when_read() {
    let m = Ghahve::new_match(&Rules::default(), &Setup { seats: 4 }).unwrap();
    let j = serde_json::to_value(&m).unwrap();
    assert_eq!(
        j,
        json!({"seats": 4, "scores": [0, 0], "dealer": null, "over": false, "winner": null,
               "hand": 1, "seating": [0, 1, 2, 3]})
    );
    for bad in [
        json!({"seats": 3, "scores": [0, 0], "dealer": null, "over": false, "winner": null, "hand": 1, "seating": [0, 1, 2]}),
        json!({"seats": 4, "scores": [0], "dealer": null, "over": false, "winner": null, "hand": 1, "seating": [0, 1, 2, 3]}),
        json!({"seats": 4, "scores": [0, 0], "dealer": 4, "over": false, "winner": null, "hand": 1, "seating": [0, 1, 2, 3]}),
        json!({"seats": 4, "scores": [0, 0], "dealer": null, "over": true, "winner": null, "hand": 1, "seating": [0, 1, 2, 3]}),
        json!({"seats": 4, "scores": [0, 0], "dealer": null, "over": false, "winner": null, "hand": 1, "seating": [0, 1, 1, 3]}),
    ] {
        assert!(
            serde_json::from_value::<Match>(bad.clone()).is_err(),
            "{bad}"
        );
    }
    assert!(Ghahve::new_match(&Rules::default(), &Setup { seats: 3 }).is_err());
}

#[test]
fn effects_carry_no_hidden_face() {
    let t = dealt(&no_cut(), &DeckKind::Ghahve52.cards());
    for e in &t.log {
        let j = serde_json::to_value(e).unwrap();
        if j["type"] == "dealt" {
            assert!(j["cards"]
                .as_array()
                .unwrap()
                .iter()
                .all(|c| c.get("face").is_none()));
        }
        assert!(e.faces().is_empty(), "{j}");
    }
}
