//! The penalty an official may award after a hand, ruling on a dispute: the cheating
//! penalty of §12.3, the same award as the service's in-hand `award_cheating_penalty`
//! (`cheating_penalty_points` to the side that caught the offender, or to every other side
//! when no player caught it). The hand's result otherwise stands (D12).

use serde::Deserialize;
use serde_json::Value;

use super::rules::Rules;
use super::state::{side_of, sides, Match};
use crate::engine::{Award, SeatIndex, Violation};

/// The name a ruling gives the cheating penalty.
pub const CHEATING_PENALTY: &str = "cheating_penalty";

/// `{"type": "cheating_penalty", "offender": seat, "beneficiary"?: seat}`.
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
enum Penalty {
    CheatingPenalty {
        offender: SeatIndex,
        #[serde(default)]
        beneficiary: Option<SeatIndex>,
    },
}

fn bad(detail: impl Into<String>) -> Violation {
    Violation::new("BadPenalty", "hokm §12.3", detail)
}

/// Checks a cheating penalty against the match the hand left (its seating gives the sides).
pub(super) fn penalty(rules: &Rules, m: &Match, penalty: &Value) -> Result<Award, Violation> {
    let Penalty::CheatingPenalty {
        offender,
        beneficiary,
    } = Penalty::deserialize(penalty).map_err(|e| {
        bad(format!(
            "not a hokm penalty (the rules give `{CHEATING_PENALTY}` with `offender` and an \
             optional `beneficiary`): {e}"
        ))
    })?;
    let n = m.seats;
    let table = &m.seating;
    if offender.0 >= n {
        return Err(bad(format!("the offender is not one of the {n} seats")));
    }
    let off = side_of(offender, table);
    let gaining: Vec<u8> = match beneficiary {
        Some(b) if b.0 >= n || side_of(b, table) == off => {
            return Err(bad(
                "the beneficiary must be a seat of another side than the offender's",
            ))
        }
        Some(b) => vec![side_of(b, table)],
        None => (0..sides(n)).filter(|x| *x != off).collect(),
    };
    let beneficiaries = gaining
        .iter()
        .map(|side| {
            (0..n)
                .map(SeatIndex)
                .filter(|s| side_of(*s, table) == *side)
                .collect()
        })
        .collect();
    Ok(Award {
        penalty: CHEATING_PENALTY.to_string(),
        section: "hokm §12.3".to_string(),
        offender,
        beneficiaries,
        points: rules.cheating_penalty_points,
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::engine::{Game, HouseRules};
    use crate::games::hokm::{Hokm, Setup};

    fn four() -> (Rules, Match) {
        let rules = Rules::default().for_seats(4).unwrap();
        let m = Hokm::new_match(&rules, &Setup { seats: 4 }).unwrap();
        (rules, m)
    }

    #[test]
    fn a_caught_cheat_gives_the_catchers_side_the_points() {
        let (rules, m) = four();
        let a = Hokm::penalty(
            &rules,
            &m,
            &json!({"type": "cheating_penalty", "offender": 1, "beneficiary": 2}),
        )
        .unwrap();
        assert_eq!(a.offender, SeatIndex(1));
        assert_eq!(a.beneficiaries, vec![vec![SeatIndex(0), SeatIndex(2)]]);
        assert_eq!(a.points, rules.cheating_penalty_points);
        assert_eq!(a.section, "hokm §12.3");
    }

    #[test]
    fn without_a_catcher_every_other_side_gains() {
        let rules = Rules::default().for_seats(3).unwrap();
        let m = Hokm::new_match(&rules, &Setup { seats: 3 }).unwrap();
        let a = Hokm::penalty(
            &rules,
            &m,
            &json!({"type": "cheating_penalty", "offender": 0}),
        )
        .unwrap();
        assert_eq!(
            a.beneficiaries,
            vec![vec![SeatIndex(1)], vec![SeatIndex(2)]]
        );
    }

    #[test]
    fn penalties_the_rules_do_not_give_are_refused() {
        let (rules, m) = four();
        for bad in [
            json!({"type": "cheating_penalty", "offender": 4}),
            json!({"type": "cheating_penalty", "offender": 1, "beneficiary": 3}),
            json!({"type": "cheating_penalty", "offender": 1, "points": 5}),
            json!({"type": "lose_the_match", "offender": 1}),
            json!({"offender": 1}),
        ] {
            let v = Hokm::penalty(&rules, &m, &bad).unwrap_err();
            assert_eq!(v.rule, "BadPenalty", "{bad}");
        }
    }

    fn caught(m: &Match, rules: &Rules) -> Award {
        Hokm::penalty(
            rules,
            m,
            &json!({"type": "cheating_penalty", "offender": 1, "beneficiary": 0}),
        )
        .unwrap()
    }

    #[test]
    fn an_award_carried_into_the_match_adds_its_points() {
        let (rules, mut m) = four();
        m.scores = vec![3, 2];
        m.hakem = Some(SeatIndex(1));
        m.hand = 4;
        let after = Hokm::apply_award(&rules, &m, &caught(&m, &rules)).unwrap();
        assert_eq!(after.scores, vec![4, 2]);
        assert_eq!(after.rounds, m.rounds);
        assert_eq!((after.hakem, after.hand, after.over), (m.hakem, 4, false));
    }

    #[test]
    fn the_carried_award_is_the_in_hand_award() {
        use crate::engine::{apply, Actor};
        use crate::games::hokm::Action;
        for (scores, rounds_to_win) in [(vec![0, 0], 1), (vec![6, 5], 2), (vec![6, 6], 1)] {
            let mut rules = Rules::default().for_seats(4).unwrap();
            rules.rounds_to_win = rounds_to_win;
            let mut m = Hokm::new_match(&rules, &Setup { seats: 4 }).unwrap();
            m.scores = scores;
            m.hakem = Some(SeatIndex(2));
            let mut hand = Hokm::new_hand(&rules, &m).unwrap();
            // As if the deal were done: the service adjudicates during play.
            hand.phase = super::super::Phase::AwaitingCut;
            apply::<Hokm>(
                &mut hand,
                Actor::Service,
                &Action::AwardCheatingPenalty {
                    offender: SeatIndex(1),
                    beneficiary: Some(SeatIndex(0)),
                },
            )
            .unwrap();
            let carried = Hokm::apply_award(&rules, &m, &caught(&m, &rules)).unwrap();
            let in_hand = hand.match_now();
            assert_eq!(carried.scores, in_hand.scores);
            assert_eq!(carried.rounds, in_hand.rounds);
            assert_eq!(carried.over, in_hand.over);
            assert_eq!(carried.winner, in_hand.winner);
            assert_eq!(carried.deuce, in_hand.deuce);
        }
    }

    #[test]
    fn a_carried_award_that_reaches_the_target_ends_the_round() {
        let (mut rules, mut m) = four();
        rules.rounds_to_win = 2;
        m.scores = vec![6, 4];
        m.hakem = Some(SeatIndex(3));
        let after = Hokm::apply_award(&rules, &m, &caught(&m, &rules)).unwrap();
        assert_eq!(after.scores, vec![0, 0], "a new round starts at 0-0");
        assert_eq!(after.rounds, vec![1, 0]);
        assert!(!after.over);
        assert_eq!(after.hakem, Some(SeatIndex(3)), "the hakem stays");
        rules.new_round_hakem = super::super::NewRoundHakem::Redraw;
        let redraw = Hokm::apply_award(&rules, &m, &caught(&m, &rules)).unwrap();
        assert_eq!(
            redraw.hakem, None,
            "a new round under redraw starts with the draw"
        );
    }

    #[test]
    fn a_carried_award_that_wins_the_last_round_ends_the_match() {
        let (rules, mut m) = four();
        assert_eq!(rules.rounds_to_win, 1);
        m.scores = vec![6, 6];
        let after = Hokm::apply_award(&rules, &m, &caught(&m, &rules)).unwrap();
        assert!(after.over);
        assert_eq!(after.winner, Some(0));
        assert_eq!(after.rounds, vec![1, 0]);
        let v = Hokm::apply_award(&rules, &after, &caught(&m, &rules)).unwrap_err();
        assert_eq!(v.rule, "MatchOver");
    }

    #[test]
    fn an_award_the_rules_do_not_make_is_not_carried() {
        let (rules, m) = four();
        let good = caught(&m, &rules);
        let mut own_side = good.clone();
        own_side.beneficiaries = vec![vec![SeatIndex(1), SeatIndex(3)]];
        let mut half_side = good.clone();
        half_side.beneficiaries = vec![vec![SeatIndex(0)]];
        let mut twice = good.clone();
        twice.beneficiaries = vec![good.beneficiaries[0].clone(), good.beneficiaries[0].clone()];
        let mut other = good.clone();
        other.penalty = "lose_the_match".into();
        let mut nobody = good.clone();
        nobody.beneficiaries = vec![];
        for bad in [own_side, half_side, twice, other, nobody] {
            let v = Hokm::apply_award(&rules, &m, &bad).unwrap_err();
            assert_eq!(v.rule, "BadPenalty", "{bad:?}");
        }
    }

    #[test]
    fn a_game_without_penalties_carries_none() {
        let hokm = crate::games::registry(crate::engine::GameId::Hokm).unwrap();
        let (rules, m) = four();
        let award = caught(&m, &rules);
        let bist = crate::games::registry(crate::engine::GameId::BistOYek).unwrap();
        let setup = bist.default_setup(3).unwrap();
        let bm = bist.new_match(&bist.default_rules(), &setup).unwrap();
        let v = bist
            .apply_award(&bist.default_rules(), &bm, &award)
            .unwrap_err();
        assert_eq!(v.rule, "NoPenalty");
        let after = hokm
            .apply_award(
                &serde_json::to_value(&rules).unwrap(),
                &serde_json::to_value(&m).unwrap(),
                &award,
            )
            .unwrap();
        assert_eq!(after["scores"], json!([1, 0]));
    }
}
