//! The penalty an official may award after a hand, ruling on a dispute (§12.3): the
//! cheating penalty's points to the team that caught the offender (the other team), carried
//! into the match before the next hand. The hand's own result stands.
//!
//! `offender_fails` re-scores the hand itself (the offending team's score for that hand
//! becomes `−10 × C`); it is awarded during the hand by the service
//! (`award_cheating_penalty`). An award after the hand can only add points to a side
//! (the engine's `Award`), so a ruling under `offender_fails` is refused here with the
//! reason.

use serde::Deserialize;
use serde_json::Value;

use super::decide::{match_winner, v, Rule};
use super::rules::{CheatingPenalty, Rules};
use super::state::{team_of, team_seats, Match, SEATS};
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
    v(Rule::BadPenalty, "§12.3", detail)
}

/// Checks a cheating penalty against the match the hand left (its seating gives the teams).
pub(super) fn penalty(rules: &Rules, m: &Match, penalty: &Value) -> Result<Award, Violation> {
    let Penalty::CheatingPenalty {
        offender,
        beneficiary,
    } = Penalty::deserialize(penalty).map_err(|e| {
        bad(format!(
            "not a ghahve penalty (the rules give `{CHEATING_PENALTY}` with `offender` and an \
             optional `beneficiary`): {e}"
        ))
    })?;
    let points =
        match rules.cheating_penalty {
            CheatingPenalty::AwardPoints(p) => p,
            CheatingPenalty::None => {
                return Err(v(
                    Rule::NoPenalty,
                    "§12.3",
                    "this table plays no cheating penalty",
                ))
            }
            CheatingPenalty::OffenderFails => return Err(bad(
                "under offender_fails the offending team's hand is scored as failed, which only \
                 the service's award during the hand can do",
            )),
        };
    if offender.0 >= SEATS {
        return Err(bad("the offender is not one of the 4 seats"));
    }
    let off = team_of(offender, &m.seating);
    if beneficiary.is_some_and(|b| b.0 >= SEATS || team_of(b, &m.seating) == off) {
        return Err(bad("the beneficiary must be a seat of the other team"));
    }
    let gaining = team_seats(&m.seating)
        .into_iter()
        .nth(usize::from(1 - off))
        .unwrap_or_default();
    Ok(Award {
        penalty: CHEATING_PENALTY.to_string(),
        section: "ghahve §12.3".to_string(),
        offender,
        beneficiaries: vec![gaining],
        points,
    })
}

/// Carries an award into the match between hands: its points to the other team, which may
/// end the match (§11.2). The next dealer stays the one the last hand passed the deal to.
pub(super) fn apply_award(rules: &Rules, m: &Match, award: &Award) -> Result<Match, Violation> {
    if award.penalty != CHEATING_PENALTY {
        return Err(bad(format!(
            "the rules of ghahve carry `{CHEATING_PENALTY}` into the match, not `{}`",
            award.penalty.chars().take(64).collect::<String>()
        )));
    }
    if m.over {
        return Err(v(Rule::MatchOver, "§11.5", "the match is over"));
    }
    if award.offender.0 >= SEATS {
        return Err(bad("the offender is not one of the 4 seats"));
    }
    let off = team_of(award.offender, &m.seating);
    let other = team_seats(&m.seating)
        .into_iter()
        .nth(usize::from(1 - off))
        .unwrap_or_default();
    if award.beneficiaries != vec![other] {
        return Err(bad(
            "the award must go to the whole other team, once, and to nobody else",
        ));
    }
    let mut next = m.clone();
    if let Some(x) = next.scores.get_mut(usize::from(1 - off)) {
        *x = x.saturating_add(i64::from(award.points));
    }
    if let Some(w) = match_winner(&next.scores, rules.target_score) {
        next.over = true;
        next.winner = Some(w);
    }
    Ok(next)
}
