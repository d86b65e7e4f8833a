//! Bluff (بلوف, "Cheat"): players place cards face down claiming a rank and a count; the
//! rank is kept for the round, so players lie ("bluff") when they must; only the **next**
//! player may challenge («اعلام بلوف», "declaring bluff"), and the loser of a challenge
//! takes the whole pile. The first out is the king (shah, شاه), the second to the
//! next-to-last are viziers (vazir, وزیر), and the last holding cards is the thief (dozd,
//! دزد).
//!
//! The rules are `shared/rules/bluff.md` (state machine §5, house rules §7, decisions §8,
//! worked examples TV-1…TV-10 §10), from the «بلوف» section of `000_b8483bbf6b91d88b.txt`.
//!
//! Hidden information lives in the core's [`crate::zones::Zones`]: the deal's stock, each
//! hand, and the face-down pile (`ZoneId::Pile(0)`, each card seen by the seat that played
//! it). A challenge reveals exactly the challenged play's cards. When a seat takes up the
//! pile, some of those cards' faces were seen and their refs are public, so the taker's
//! whole hand is **relabelled** from a committed shuffle of exactly its cards before anyone
//! acts again: later plays cannot be linked to the faces that were seen.
//!
//! Decisions beyond the spec: a relabel follows every pick-up, the last one too (the hand
//! ends once it is in); a seat may ask for a challenge once per play, and only while it
//! holds cards; faces carry no pack index (with two packs a card's identity is its
//! [`crate::engine::CardRef`]).
//!
//! Layout: [`rules`](Rules) (house rules), `state` (match, phases, the state), `decide`
//! (every rule), `evolve` (folding effects, no rule), `legal` (who acts, with what), `view`
//! (what a viewer sees), `violation` (the typed rule ids).

mod action;
mod decide;
mod effect;
mod evolve;
mod legal;
mod rank_code;
mod rules;
mod state;
mod view;
mod violation;

#[cfg(test)]
mod tests;

pub use action::{Action, Legal};
pub use effect::{Effect, Revealed, ShuffleReason};
pub use rules::{
    FailedChallengeLiability, FollowCount, LeaderAfterChallenge, MaxCardsPerPlay, NewRankAfterLap,
    Rules, Titles, UnevenDeal,
};
pub use state::{
    deck, packs, titles_for, ChallengeRecord, LeadReason, Match, Outcome, Phase, PlayRecord, Setup,
    State, Title, MAX_SEATS, MIN_SEATS,
};
pub use view::{HandView, PlayView, View};
pub use violation::Rule;

use crate::cards::{Card, DeckKind};
use crate::engine::{
    Actor, Game, GameId, SeatResult, SetupError, Standings, ToAct, Viewer, Violation,
};
use crate::zones::Zones;

/// The Bluff rules engine.
///
/// ```
/// use replayer::cards::DeckKind;
/// use replayer::engine::{apply, apply_shuffle, Actor, Game, SeatIndex};
/// use replayer::games::bluff::{Action, Bluff, Rules, Setup};
/// use replayer::zones::ZoneId;
///
/// let rules = Rules::default();
/// let m = Bluff::new_match(&rules, &Setup { seats: 4, dealer: None }).unwrap();
/// let mut hand = Bluff::new_hand(&rules, &m).unwrap();
/// // The deal waits for a committed shuffle of the 52 cards (here: canonical order).
/// let order = DeckKind::Standard52.cards();
/// apply_shuffle::<Bluff>(&mut hand, 0, &order).unwrap();
/// // Seat 0 (right of dealer 3) leads "two sevens" with two of its cards, named by ref.
/// let mine = hand.zones().refs_in(ZoneId::Hand(SeatIndex(0)));
/// let lead = Action::Lead { rank: replayer::cards::Rank::Seven, cards: mine[..2].to_vec() };
/// apply::<Bluff>(&mut hand, Actor::Seat(SeatIndex(0)), &lead).unwrap();
/// // Seat 1 calls the bluff; the taker's hand then waits for its relabel shuffle.
/// apply::<Bluff>(&mut hand, Actor::Seat(SeatIndex(1)), &Action::Challenge).unwrap();
/// assert_eq!(Bluff::to_act(&hand).shuffle.unwrap().reason, "relabel");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Bluff;

impl Game for Bluff {
    const ID: GameId = GameId::Bluff;
    const MIN_SEATS: u8 = MIN_SEATS;
    const MAX_SEATS: u8 = MAX_SEATS;

    /// An even number of players only (bluff §3).
    fn seat_counts() -> Vec<u8> {
        vec![4, 6, 8]
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

    fn deck(_rules: &Rules, m: &Match) -> DeckKind {
        state::deck(m.seats)
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
