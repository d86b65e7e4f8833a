//! JSON shapes of the public types: what other people will read and write.

use super::*;
use serde_json::json;

#[test]
fn actions_read_and_write_their_documented_shape() {
    let r0 = CardRef { shuffle: 0, pos: 3 };
    let cases = [
        (
            json!({"type": "bid", "amount": 125}),
            Action::Bid { amount: 125 },
        ),
        (json!({"type": "pass"}), Action::Pass),
        (json!({"type": "cut", "k": 7}), Action::Cut { k: 7 }),
        (
            json!({"type": "play", "card": {"shuffle": 0, "pos": 3}}),
            Action::Play { card: r0 },
        ),
        (
            json!({"type": "lay_away", "cards": [{"shuffle": 0, "pos": 3}]}),
            Action::LayAway { cards: vec![r0] },
        ),
    ];
    for (j, a) in cases {
        assert_eq!(serde_json::from_value::<Action>(j.clone()).unwrap(), a);
        assert_eq!(serde_json::to_value(&a).unwrap(), j);
    }
    assert!(
        serde_json::from_value::<Action>(json!({"type": "bid", "amount": 100, "x": 1})).is_err()
    );
    assert!(serde_json::from_value::<Action>(json!({"type": "declare_trump"})).is_err());
}

#[test]
fn rules_take_defaults_presets_and_deny_unknown_fields() {
    let r: Rules = serde_json::from_value(json!({})).unwrap();
    assert_eq!(r, Rules::default());
    let r: Rules = serde_json::from_value(json!({
        "preset": "p000_text", "target": 660, "all_pass": "last_seat_must_bid",
        "match_end": "hakem_team_first", "pile_top": "last_dealt", "cut": "left_of_dealer",
        "irregularity": "forfeit"
    }))
    .unwrap();
    assert_eq!(r.scoring().shelem, ShelemScore::WinsMatch);
    let r: Rules = serde_json::from_value(json!({
        "preset": "custom", "made_score": "bid", "yasa": false,
        "shelem_score": "fixed165", "bid165_multiplier": 2
    }))
    .unwrap();
    assert_eq!(r.scoring(), Preset::P004.scoring());
    let r: Rules = serde_json::from_value(json!({
        "deal_schedule": {"packets": [
            {"to": "widow", "cards": 4},
            {"to": "hand", "offset": 1, "cards": 12},
            {"to": "hand", "offset": 2, "cards": 12},
            {"to": "hand", "offset": 3, "cards": 12},
            {"to": "hand", "offset": 0, "cards": 12}
        ]}
    }))
    .unwrap();
    assert_eq!(r, Rules::samples()[4]);
    assert!(serde_json::from_value::<Rules>(json!({"players": 4})).is_err());
    assert!(serde_json::from_value::<Rules>(json!({"preset": "p005"})).is_err());
    // The normalized rules (the hand's first event) name every scoring field.
    use crate::engine::HouseRules;
    let n = serde_json::to_value(Rules::default().for_seats(4).unwrap()).unwrap();
    assert_eq!(n["made_score"], "points_taken");
    assert_eq!(n["yasa"], true);
    assert_eq!(n["shelem_score"], "fixed330");
    assert_eq!(n["bid165_multiplier"], 1);
    assert_eq!(n["target"], 1200);
}

#[test]
fn a_match_state_is_checked_when_read() {
    let m = Shelem::new_match(
        &Rules::default(),
        &Setup {
            seats: 2,
            first_dealer: seat(1),
        },
    )
    .unwrap();
    let j = serde_json::to_value(&m).unwrap();
    assert_eq!(serde_json::from_value::<Match>(j.clone()).unwrap(), m);
    let mut bad = j.clone();
    bad["totals"] = json!([5, 0]);
    assert!(
        serde_json::from_value::<Match>(bad).is_err(),
        "totals not on the sheet"
    );
    let mut bad = j.clone();
    bad["seats"] = json!(3);
    assert!(serde_json::from_value::<Match>(bad).is_err());
    let mut bad = j;
    bad["dealer"] = json!(2);
    assert!(serde_json::from_value::<Match>(bad).is_err());
    let s: Setup = serde_json::from_value(json!({"seats": 4})).unwrap();
    assert_eq!(s.first_dealer, seat(0));
}
