//! Hokm (حکم, "the command": trump): a trick-taking game for 4 players in two
//! partnerships, or 3 or 2 players alone; a side that takes 7 tricks wins the hand.
//!
//! The rules are `shared/rules/hokm.md` (engine model §14, house rules §13, decisions
//! D1–D23), written from the Persian sources `000_*.txt`, `002_*.txt` and `004_*.txt`.
//!
//! In this service a **hand** is one deal, played until it is decided. [`Match`] carries
//! what passes between hands: the sides' scores, rounds won, the next hakem (none before the
//! first hand: the hand then starts with the hakem draw) and whether the match is over.
//!
//! Terms: *hakem* (حاکم, the player who declares trump, receives the first packet and
//! leads), *kot* (کوت, a 7-0 hand), *por kot* (پر کوت, "full kot": the hakem's side loses
//! 7-0), *bam* (بام, "roof": going on after 7-0 to win every trick), *pasur* (پاسور, the
//! dealer).
//!
//! Hidden information lives in the core's [`crate::zones::Zones`]: every card of the hand
//! (the draw deck, the stock, hands, the hakem's withheld packets, the trick, won tricks,
//! 2-player discards and burned cards) is in a zone that knows who may see its face. No face
//! is kept anywhere else in the state. Effects and actions name cards by their
//! [`crate::engine::CardRef`].
//!
//! The service adjudicates with `AwardCheatingPenalty` (§12.3): the points go to the
//! beneficiary's side at once (they can end the round or the match, which then ends the
//! hand); the hand's own result stands (D12).
//!
//! `VoidHand` (§12.1) is the dealer's abandon, not a game action: a platform fault is met by
//! the table's admin abandoning the hand, which still reveals its seeds; the next hand of the
//! match starts from the match state the void hand started from (same scores, same hakem)
//! and is dealt from a fresh committed shuffle, so nobody is penalised. Not built:
//! physical-table recording (§12.2) and table talk (§12.4), which do not arise in digital
//! dealing. `dealer_seat = hakem_right_allowed` is accepted and
//! recorded but changes nothing: the dealer never changes the deal positions (D23).

mod action;
mod decide;
mod effect;
mod evolve;
mod legal;
mod penalty;
mod rules;
mod state;
mod view;

#[cfg(test)]
mod tests;

pub use action::{Action, Legal};
pub use decide::Rule;
pub use effect::{Effect, Shown};
pub use rules::{
    Bam, BamFail, ColourFallback, Cut, DealerSeat, Deuce2p, HakemDraw, KotAtSix, NewRoundHakem,
    Partnerships, Rules, SuitCode, TenLow, TrumpMethod,
};
pub use state::{
    side_of, sides, Colour, Match, MatchEnd, Outcome, Phase, Setup, ShuffleReason, State, WinKind,
    MAX_SEATS, MIN_SEATS,
};
pub use view::{DrawnView, View};

use crate::cards::{Card, DeckKind};
use crate::engine::{
    Actor, Award, Game, GameId, SeatResult, SetupError, Standings, ToAct, Viewer, Violation,
};
use crate::zones::Zones;

/// The Hokm rules engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hokm;

impl Game for Hokm {
    const ID: GameId = GameId::Hokm;
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

    fn deck(rules: &Rules, m: &Match) -> DeckKind {
        state::playing_deck(rules, m.seats)
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

    fn penalty_names() -> &'static [&'static str] {
        &[penalty::CHEATING_PENALTY]
    }

    fn penalty(rules: &Rules, m: &Match, p: &serde_json::Value) -> Result<Award, Violation> {
        penalty::penalty(rules, m, p)
    }

    fn apply_award(rules: &Rules, m: &Match, award: &Award) -> Result<Match, Violation> {
        decide::apply_award(rules, m, award)
    }
}
