//! Bist-o-yek (بیست و یک, "twenty-one"): a banker (bankdar, بانکدار) posts a bank and plays
//! one separate hand, a **duel**, against each other player in turn; the banker wins ties.
//!
//! The rules are `shared/rules/bist-o-yek.md` (phases §6, automatic steps A–G §6.4,
//! settlement S1–S5 §7, house rules §9, decisions D-1…D-27), written from one informal
//! Persian text (L1–L55 of `000_b8483bbf6b91d88b.txt`).
//!
//! In this service a **hand** is the bank offer(s) plus **one banker's turn**, from his
//! stake to step G (he takes the bank), or offers that end the match (everyone declines,
//! or `EndMatch`). [`Match`] carries the balances and the next bank candidate from hand to
//! hand.
//!
//! Terms: *suz* (سوز, "I went over": a player over 21), *bank khabar* (بانک خبر, "bank
//! news": the banker's notice that he takes the bank after one more round), *kol-e bank*
//! (کل بانک, "the whole bank": a bet of everything in the bank), *tak*/*shah*/*bibi*/*sarbaz*
//! (ace/king/queen/jack).
//!
//! Hidden information lives in the core's [`crate::zones::Zones`] (spec §6.2): the stock
//! (`Stock`, seen by nobody), the discard pile (`Discard`, each card keeping who saw it: the
//! faces the table saw are public), each player's first card dealt ahead of his duel
//! (`Pile(s)`, seen by seat `s`), the banker's face-down card (`Hand(banker)`, seen by him),
//! the duel player's hand (`Hand(p)`, each card seen by `p`, or by everyone once face up) and
//! the banker's face-up hand (`Table`, seen by everyone). No face is kept anywhere else in the
//! state, and the views are derived from the zones, so the core checks card conservation at
//! every event (rule `cards`) and that no view leaks a face. A full shuffle gathers every
//! card under the new shuffle's names ([`crate::zones::Zones::reshuffle_all`]); a restock
//! renames the discards ([`crate::zones::Zones::relabel`]) and makes them the stock. Before
//! the hand's first shuffle the 36 cards lie collected on the discard pile, not yet named,
//! and the zones are empty.
//!
//! Layout: [`rules`](Rules) (house rules, points), `state` (match, phases, the state, where
//! each card lies), `decide` (every rule), `evolve` (folding effects, no rule), `legal` (who
//! acts, with what), `view` (what a viewer sees).

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
pub use effect::{Case, Effect, ShownCard};
pub use rules::{points, total, BankerSwap, DealMode, MaxBet, Rules, TieRule};
pub use state::{
    EndReason, Match, Outcome, Phase, Resume, Setup, ShuffleReason, Stake, State, MAX_SEATS,
    MAX_TOTAL, MIN_SEATS,
};
pub use view::{BetLimits, CardView, DuelView, HiddenView, View, WaitingView};

use crate::cards::{Card, DeckKind};
use crate::engine::{
    Actor, Game, GameId, SeatResult, SetupError, Standings, ToAct, Viewer, Violation,
};
use crate::zones::Zones;

/// The Bist-o-yek rules engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BistOYek;

impl Game for BistOYek {
    const ID: GameId = GameId::BistOYek;
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
        DeckKind::BistOYek36
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
