//! Shelem (شلم): a trick-taking game for 4 players in two partnerships (or 2 players, each
//! with three piles on the table for a partner) with an auction for the right to take the
//! widow and name trump; a hand is worth 165 points.
//!
//! The rules are `shared/rules/shelem.md` (engine model §15, house rules §14, decisions
//! D1–D31, worked example §18), written from the Persian sources `000_*.txt` and `004_*.txt`.
//!
//! In this service a **hand** is one deal: the committed deck, the deal, the auction, the
//! widow and the 12 tricks, or a deal every player passes (a passed-out row). [`Match`]
//! carries the first dealer, the next dealer, the teams' totals and the score sheet, one
//! [`Row`] per hand, which is the match's standings.
//!
//! Terms: *hakem* (حاکم, the auction's winner, who takes the widow and leads trump),
//! *widow* (۴ برگ روی زمین, the 4 cards on the table), *yasa* (یاسا, the hakem team took less
//! than the opponents), *shelem* (شلم, the hakem team took every trick).
//!
//! Hidden information lives in the core's [`crate::zones::Zones`]: the stock, the hands, the
//! widow (`Pile(0)`, seen by nobody until the hakem takes it), the cards laid away
//! (`Discard`, seen by the hakem until the count), a 2-player table's six piles (`Pile(3s +
//! p)`, face down until turned up, §13.5), the trick and won tricks. Laying the 4 cards away
//! is a **private action** ([`crate::engine::Game::public_part`]): the log holds a salted
//! commitment to it while the hand runs, and the dealer opens it when the hand ends.
//!
//! The trick-taking pieces (following suit, the trick's winner, teams) are the shared
//! [`crate::games::tricks`].

mod action;
mod decide;
mod effect;
mod evolve;
mod legal;
mod rules;
mod state;
mod view;

#[cfg(test)]
mod tests;

pub use action::{Action, Legal};
pub use decide::{match_winner, score_hand, Rule};
pub use effect::Effect;
pub use rules::{
    text_schedule, AllPass, Cut, DealSchedule, Dest, Irregularity, MadeScore, MatchEnd, Packet,
    PileTop, Preset, Rules, Scoring, ShelemScore,
};
pub use state::{
    points, team, team_seats, Call, HandKind, Match, Outcome, Phase, Row, Setup, State,
    HAND_POINTS, MAX_BID, MAX_SEATS, MIN_BID, MIN_SEATS,
};
pub use view::View;

use crate::cards::{Card, DeckKind};
use crate::engine::{
    Actor, Game, GameId, SeatResult, SetupError, Standings, ToAct, Viewer, Violation,
};
use crate::zones::Zones;

/// The Shelem rules engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Shelem;

impl Game for Shelem {
    const ID: GameId = GameId::Shelem;
    const MIN_SEATS: u8 = MIN_SEATS;
    const MAX_SEATS: u8 = MAX_SEATS;

    fn seat_counts() -> Vec<u8> {
        vec![2, 4]
    }

    type Rules = Rules;
    type Setup = Setup;
    type Match = Match;
    type State = State;
    type Action = Action;
    type Legal = Legal;
    type Effect = Effect;
    type View = View;
    type Outcome = Outcome;

    fn deck(_rules: &Rules, _m: &Match) -> DeckKind {
        DeckKind::Standard52
    }

    fn new_match(rules: &Rules, setup: &Setup) -> Result<Match, SetupError> {
        state::new_match(rules, setup)
    }

    fn new_hand(rules: &Rules, m: &Match) -> Result<State, SetupError> {
        state::new_hand(rules, m)
    }

    fn to_act(state: &State) -> ToAct {
        legal::to_act(state)
    }

    fn legal_actions(state: &State, actor: Actor) -> Vec<Legal> {
        legal::legal_actions(state, actor)
    }

    fn decide(state: &State, actor: Actor, action: &Action) -> Result<Vec<Effect>, Violation> {
        decide::decide(state, actor, action)
    }

    fn decide_shuffle(
        state: &State,
        shuffle: u32,
        order: &[Card],
    ) -> Result<Vec<Effect>, Violation> {
        decide::decide_shuffle(state, shuffle, order)
    }

    /// Laying 4 cards away is the hakem's secret choice (§7.4): the log holds
    /// `{"type": "lay_away"}` and a salted commitment until the hand ends.
    fn public_part(action: &Action) -> Option<serde_json::Value> {
        match action {
            Action::LayAway { .. } => Some(serde_json::json!({"type": "lay_away"})),
            _ => None,
        }
    }

    fn evolve(state: &mut State, effect: &Effect, order: Option<&[Card]>) {
        evolve::evolve(state, effect, order)
    }

    fn view(state: &State, viewer: Viewer) -> View {
        view::view(state, viewer)
    }

    fn outcome(state: &State) -> Option<Outcome> {
        state::outcome(state)
    }

    fn next_match(state: &State) -> Option<Match> {
        state::next_match(state)
    }

    fn results(o: &Outcome) -> Vec<SeatResult> {
        state::results(o)
    }

    fn zones(state: &State) -> &Zones {
        &state.zones
    }

    fn zones_mut(state: &mut State) -> &mut Zones {
        &mut state.zones
    }

    fn standings(m: &Match) -> Standings {
        state::standings(m)
    }

    fn match_over(m: &Match) -> bool {
        m.over
    }

    fn seat_count(m: &Match) -> u8 {
        m.seats
    }
}
