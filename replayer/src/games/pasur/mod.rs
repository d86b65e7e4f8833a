//! Pasur (پاسور), also Chahar Barg (چهاربرگ, "four cards"), Yazdah (یازده, "eleven") or
//! Sur: a fishing game for 2, 3 or 4 players (two partnerships at 4). A card played takes
//! table cards whose values make 11 with it; a jack (سرباز, sarbaz) takes every table card
//! but kings and queens; a king takes one king, a queen (بی‌بی, bibi) one queen. A *sur*
//! (سور) is a capture that empties the table: 5 points. Aces, jacks, the 2 of clubs, the
//! 10 of diamonds and the most clubs score; the match goes to 62 (or 100).
//!
//! The rules are `shared/rules/pasur.md` (state machine §5, scoring §6, match §7, house
//! rules §8, decisions D1–D20), written from the Persian sources `003_*.txt` and
//! `000_*.txt` / `004_*.txt`.
//!
//! In this service a **hand** is one pass through the 52-card pack: deal 1 (four cards to
//! each player, four face up to the table, the table-jack rule), the later deals, 48 plays,
//! the leftovers to the last capturer, scoring. [`Match`] carries the sides' scores, the
//! next dealer and, under `tie_break_eligibility = tied_only`, the sides still able to win.
//!
//! Hidden information lives in the core's [`crate::zones::Zones`]: the stock face down,
//! each hand seen by its seat, the table and every captured card face up. A play names its
//! card by [`crate::engine::CardRef`]; its face enters the log when the card is played.
//! The spec gives no penalty an official may award, so disputes take none
//! ([`crate::engine::no_penalty`]).

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
pub use decide::Rule;
pub use effect::{Effect, Shown};
pub use rules::{
    CaptureCompulsion, ClubsBonus, FourPlayerMode, JackOnEmptyTable, Rules, SurForbidden,
    TableJackReturn, TieBreakEligibility, MAX_TARGET,
};
pub use state::{
    deals, side_of, value, Match, Outcome, Phase, Setup, SideScore, State, SurMark, MAX_SEATS,
    MIN_SEATS, PLAYS,
};
pub use view::View;

use crate::cards::{Card, DeckKind};
use crate::engine::{
    Actor, Game, GameId, SeatResult, SetupError, Standings, ToAct, Viewer, Violation,
};
use crate::zones::Zones;

/// The Pasur rules engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pasur;

impl Game for Pasur {
    const ID: GameId = GameId::Pasur;
    const MIN_SEATS: u8 = MIN_SEATS;
    const MAX_SEATS: u8 = MAX_SEATS;

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
