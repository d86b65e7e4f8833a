//! Ghahve (قهوه, "coffee"): the 4-player partnership bidding game of the Hokm family, with
//! two jokers above spades, which are always trump.
//!
//! The rules are `shared/rules/ghahve.md` (engine model §14, house rules §13, decisions
//! G1–G18), written from the Persian sources `000_*.txt`, `004_*.txt` (which alone has
//! buying and selling) and, by analogy, `002_*.txt`.
//!
//! In this service a **hand** is one deal: the draw for the first dealer (first hand only),
//! the cut, the deal of 5-4-4, a round of bids (تعهد, ta'ahod) of at least 2 tricks each,
//! purchases of the other team's hands if the table plays them, and all 13 tricks. [`Match`]
//! carries the teams' scores, the next dealer (pasur, پاسور: he deals again until his team
//! gets ahead, §5.3) and whether a team reached the target (501 or 1001, §11).
//!
//! Terms: *joker-e rangi* (ژوکر رنگی, the coloured joker `CJ`, highest card, locked until
//! the black one is played), *joker-e siah* (ژوکر سیاه, the black joker `BJ`, second
//! highest, to be played by the 10th trick), *kharid o forush-e dast* (خرید و فروش دست,
//! buying and selling hands).
//!
//! The trick-taking machinery shared with Hokm and Shelem (the table and its teams, the
//! led suit, the winner by strength, the first-ace draw, the partner reseating, the dealer
//! who stays or passes by result) comes from [`crate::games::tricks`]; Ghahve adds the
//! jokers' order and restrictions on top.
//!
//! Hidden information lives in the core's [`crate::zones::Zones`]. After a purchase each
//! card stays visible to whoever saw it before, so a player keeps seeing the hand he passed
//! to his right (§8.5) and nothing else.
//!
//! `VoidHand` (§12.1) is the dealer's abandon, not a game action: the next hand starts from
//! the match state the void hand started from, dealt from a fresh committed shuffle. Not
//! built: physical-table recording (§12.2) and table talk (§12.4), which do not arise in
//! digital dealing.

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
pub use decide::{hand_score, match_winner, next_dealer, Rule};
pub use effect::{Effect, Shown};
pub use rules::{
    BuyIncrement, Buying, CheatingPenalty, CjRelease, Cut, DealerDraw, JokerLead, MaxBuys,
    Partnerships, Rules,
};
pub use state::{
    team_of, team_seats, Commitment, Match, Outcome, Phase, Setup, ShuffleReason, State, TeamScore,
    SEATS,
};
pub use view::{DrawnView, View};

use crate::cards::{Card, DeckKind};
use crate::engine::{
    Actor, Award, Game, GameId, SeatResult, SetupError, Standings, ToAct, Viewer, Violation,
};
use crate::zones::Zones;

/// The Ghahve rules engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ghahve;

impl Game for Ghahve {
    const ID: GameId = GameId::Ghahve;
    const MIN_SEATS: u8 = SEATS;
    const MAX_SEATS: u8 = SEATS;

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
        DeckKind::Ghahve52
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
        penalty::apply_award(rules, m, award)
    }
}
