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
}
