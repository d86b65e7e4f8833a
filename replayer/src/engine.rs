//! The rules-engine interface shared by every game.
//!
//! Modelled on OpenSpiel's game API. A game is a type implementing [`Game`]:
//!
//! * typed **house rules** ([`Game::Rules`]) with documented defaults, recorded in the hand's
//!   first event;
//! * a **match** ([`Game::Match`]): what carries over from hand to hand (balances or scores,
//!   who deals, who is banker or hakem next, whether the match is over);
//! * a **hand state** ([`Game::State`]) created from the rules and the match;
//! * **who acts** next ([`Game::to_act`]): one or several seats (side bets, a bluff call),
//!   the service (ending a match by agreement), or *chance*: the engine waits for a committed
//!   shuffle of an exact multiset of cards ([`ToAct::shuffle`]);
//! * the **legal actions** of an actor ([`Game::legal_actions`]), described so that a client
//!   can offer them and the simulator can sample one ([`LegalAction::sample`]);
//! * **decide / evolve**: [`Game::decide`] holds every rule: it checks an action against the
//!   state and returns the public [`Game::Effect`]s it causes (or a [`Violation`] naming the
//!   rule), and [`Game::evolve`] folds one effect into the state and holds no rule at all;
//! * the **view** of one seat or of the public ([`Game::view`]); a seat's view never holds a
//!   card the rules keep hidden from that seat;
//! * the hand's **outcome** ([`Game::outcome`]) and the **next match state**
//!   ([`Game::next_match`]).
//!
//! Effects are public facts: they are written into the signed, hash-chained log, whose hashes
//! are visible while the hand is running, so an effect never carries a hidden card face. A
//! card dealt face down is named by its [`CardRef`] (which committed shuffle and which position
//! in it); its face follows from the deck once the seeds are revealed. [`Game::evolve`] reads
//! the face from the state's own stock, which came from the committed deck.
//!
//! The service and the verifier drive every game the same way through the object-safe
//! [`DynGame`] / [`DynHand`] pair, which speak JSON; [`crate::games::registry`] maps a
//! [`GameId`] to its engine.

use std::fmt;
use std::str::FromStr;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::cards::Card;

/// A seat at the table, numbered from 0. Each game's spec says which way play moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct SeatIndex(pub u8);

impl SeatIndex {
    /// The seat as a `usize`, for indexing per-seat vectors.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// The seat on this seat's right at a table of `n`, `(seat + 1) mod n`: where play
    /// passes in the Persian games (seats are numbered counter-clockwise).
    pub fn right(self, n: u8) -> SeatIndex {
        let next = self.0.saturating_add(1);
        SeatIndex(if next >= n { 0 } else { next })
    }
}

impl fmt::Display for SeatIndex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seat {}", self.0)
    }
}

/// An amount of money in toman. Integer, never negative.
pub type Toman = u64;

/// Who performs an action: a seat, or the service itself (ending a match by agreement,
/// logging a table decision). Chance (shuffles) is not an actor: it is a separate input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Actor {
    /// A seated player.
    Seat(SeatIndex),
    /// The audit service.
    Service,
}

impl fmt::Display for Actor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Actor::Seat(s) => s.fmt(f),
            Actor::Service => f.write_str("the service"),
        }
    }
}

/// Who looks at a hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Viewer {
    /// One seat: its own hidden cards and everything public.
    Seat(SeatIndex),
    /// Anyone: only what is public.
    Public,
    /// Everything, every hidden card included: for replaying a finished hand whose seeds
    /// are revealed, and for the service's own use. Never shown to a caller before the hand
    /// is over.
    All,
}

/// Names a physical card by where it came from: the `shuffle`-th committed shuffle of the
/// hand (0 for the first) and its `pos`-ition in that shuffle's order (0 = top). Public, and
/// says nothing about the face until the seeds are revealed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct CardRef {
    /// Index of the committed shuffle within the hand.
    pub shuffle: u32,
    /// Position in that shuffle's order, 0 = top.
    pub pos: u32,
}

/// The game ids used everywhere: the API, the bundle, the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GameId {
    /// Bist-o-yek (21).
    BistOYek,
    /// Hokm.
    Hokm,
    /// Shelem.
    Shelem,
    /// Ghahve.
    Ghahve,
    /// Pasur (Chahar Barg).
    Pasur,
    /// Haft Khabis.
    HaftKhabis,
    /// Bluff.
    Bluff,
    /// Sheytoonak.
    Sheytoonak,
}

impl GameId {
    /// Every game id.
    pub const ALL: [GameId; 8] = [
        GameId::BistOYek,
        GameId::Hokm,
        GameId::Shelem,
        GameId::Ghahve,
        GameId::Pasur,
        GameId::HaftKhabis,
        GameId::Bluff,
        GameId::Sheytoonak,
    ];

    /// The id as written: `bist-o-yek`, `hokm`, `shelem`, `ghahve`, `pasur`, `haft-khabis`,
    /// `bluff`, `sheytoonak`.
    pub fn as_str(self) -> &'static str {
        match self {
            GameId::BistOYek => "bist-o-yek",
            GameId::Hokm => "hokm",
            GameId::Shelem => "shelem",
            GameId::Ghahve => "ghahve",
            GameId::Pasur => "pasur",
            GameId::HaftKhabis => "haft-khabis",
            GameId::Bluff => "bluff",
            GameId::Sheytoonak => "sheytoonak",
        }
    }
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An unknown game id.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown game {0:?} (known games: bist-o-yek, hokm, shelem, ghahve, pasur, haft-khabis, bluff, sheytoonak)")]
pub struct UnknownGame(pub String);

impl FromStr for GameId {
    type Err = UnknownGame;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        GameId::ALL
            .into_iter()
            .find(|g| g.as_str() == s)
            .ok_or_else(|| UnknownGame(s.chars().take(40).collect()))
    }
}

/// An action that the rules do not allow. `rule` is a stable identifier from the game's
/// spec (for Bist-o-yek the spec's violation names, such as `BetBelowMin`), `section` the
/// spec section, and `detail` a sentence for people. None of them ever holds a card or a
/// seed that the actor may not see.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[error("{rule}: {detail}")]
pub struct Violation {
    /// Stable rule identifier, e.g. `WrongPhase`, `BetBelowMin`.
    pub rule: String,
    /// Where the rule is in the game's spec, e.g. `bist-o-yek §5.3`.
    pub section: String,
    /// What is wrong, for people.
    pub detail: String,
}

impl Violation {
    /// A violation of `rule` (see the game's spec, `section`), explained by `detail`.
    pub fn new(
        rule: impl Into<String>,
        section: impl Into<String>,
        detail: impl Into<String>,
    ) -> Self {
        Violation {
            rule: rule.into(),
            section: section.into(),
            detail: detail.into(),
        }
    }
}

/// A hand or a match could not be set up: bad house rules, a player count the game does not
/// allow, an inconsistent match state.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// The house rules are invalid.
    #[error("invalid house rules: {0}")]
    Rules(String),
    /// The number of seats is not allowed by the game.
    #[error("{game} is played by {min} to {max} seats, not {found}")]
    Seats {
        /// The game.
        game: GameId,
        /// Fewest seats.
        min: u8,
        /// Most seats.
        max: u8,
        /// Seats asked for.
        found: usize,
    },
    /// The match set-up or match state is invalid.
    #[error("invalid match: {0}")]
    Match(String),
    /// The match is over: no new hand can start.
    #[error("the match is over")]
    MatchOver,
    /// The game has no engine yet.
    #[error("game {0} has no rules engine yet")]
    NoEngine(GameId),
}

/// A committed shuffle the engine waits for: the exact multiset of cards to be shuffled, in
/// canonical order, where they come from, and why (for the log and for people).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShuffleRequest {
    /// Why: `new_turn`, `khabar`, `restock`, `round`, `deal`, `draw`, `relabel`, ….
    pub reason: String,
    /// The cards to shuffle, in canonical order (sorted). Known to the state (which holds
    /// full information); never serialized (a relabel's cards are a hidden hand's faces), and
    /// never written to the log.
    #[serde(skip)]
    pub cards: Vec<Card>,
    /// Where the cards come from, by public names only: a fresh deck, or exactly these
    /// cards gathered from the table (a restock, a relabel).
    pub source: ShuffleSource,
    /// The seats asked for a client seed (on tables that take them): `None` for every seat;
    /// a game names only the seats still in play. The shuffle is used as soon as every
    /// seat asked has given one, or when the table's deadline has passed (the `shuffled`
    /// event then names the seats that gave none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ask: Option<Vec<SeatIndex>>,
}

impl ShuffleRequest {
    /// A fresh deck, in its canonical order.
    pub fn deck(reason: impl Into<String>, deck: crate::cards::DeckKind) -> ShuffleRequest {
        ShuffleRequest {
            reason: reason.into(),
            cards: deck.cards(),
            source: ShuffleSource::Deck(deck),
            ask: None,
        }
    }

    /// Ask only these seats for client seeds.
    pub fn asking(mut self, seats: Vec<SeatIndex>) -> ShuffleRequest {
        self.ask = Some(seats);
        self
    }

    /// Exactly the cards named `refs`, whose faces are `faces` (in any order; they are put in
    /// canonical order here).
    pub fn gather(
        reason: impl Into<String>,
        refs: Vec<CardRef>,
        mut faces: Vec<Card>,
    ) -> ShuffleRequest {
        crate::cards::canonical_sort(&mut faces);
        ShuffleRequest {
            reason: reason.into(),
            cards: faces,
            source: ShuffleSource::Gather(refs),
            ask: None,
        }
    }
}

/// Where the cards of a shuffle come from. Public: after the reveal an outsider derives the
/// exact multiset of every shuffle from it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ShuffleSource {
    /// A fresh deck, every card of it.
    Deck(crate::cards::DeckKind),
    /// Exactly these cards, gathered from where they were (a restock from the discards, a
    /// relabel of a hand whose cards some seat has seen).
    Gather(Vec<CardRef>),
}

/// Who the hand waits for.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToAct {
    /// The actors who may act now (possibly several).
    pub actors: Vec<Actor>,
    /// A committed shuffle the hand waits for. While this is set, no actor may act.
    pub shuffle: Option<ShuffleRequest>,
}

impl ToAct {
    /// Nobody and nothing: the hand is over.
    pub fn is_over(&self) -> bool {
        self.actors.is_empty() && self.shuffle.is_none()
    }
}

/// A legal action as offered to an actor: either one concrete action, or a family (a bet
/// between two amounts) the simulator can sample from.
pub trait LegalAction<A>: Serialize {
    /// Pick one concrete action of this family, uniformly or near it.
    fn sample(&self, rng: &mut dyn rand_core::RngCore) -> A;
    /// Whether `action` is one of this family. The property suite checks that `decide`
    /// accepts exactly the actions some legal family allows.
    fn allows(&self, action: &A) -> bool;
}

/// How a seat did in one finished hand, as a player would say it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Judged {
    /// Won the hand (money won, the hand's points, first out).
    Won,
    /// Lost it.
    Lost,
    /// Neither.
    Even,
}

/// One seat's typed result of a finished hand: what the service reads instead of a game's
/// JSON keys (history's `result=won|lost|even`, the scoreboard's totals).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatResult {
    /// The seat.
    pub seat: SeatIndex,
    /// What the hand added to the seat's standing: toman won (+) or lost (−), or points
    /// scored by the seat's side.
    pub delta: i64,
    /// Won, lost or even.
    pub judged: Judged,
    /// A title the game gives (Bluff's `king`, `vizier`, `thief`), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
}

/// What a match's standings are counted in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ScoreUnit {
    /// Money: balances.
    Toman,
    /// Points (a side's score).
    Points,
    /// No running score (a game of one hand).
    None,
}

/// Where a match stands, typed: per seat, its balance or its side's score; who holds the
/// role that moves from hand to hand; whether the match is over.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standings {
    /// What `per_seat` counts.
    pub unit: ScoreUnit,
    /// One number per seat (a team's score is shown for each of its seats).
    pub per_seat: Vec<i64>,
    /// The sides, when seats play in teams (Hokm's partnerships); empty otherwise.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sides: Vec<Vec<SeatIndex>>,
    /// The role that passes from hand to hand (`banker`, `hakem`, `dealer`) and who holds it
    /// next.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next: Option<(String, SeatIndex)>,
    /// Whether the match is over.
    pub over: bool,
}

/// What a game's rules make of a penalty an official awards when ruling on a dispute over
/// a finished hand ([`Game::penalty`]): who is penalized, who gains and how much, and where
/// the rules say so. The hand's own result stands; the award is recorded with the ruling.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Award {
    /// The penalty's name, as the ruling gives it (e.g. `cheating_penalty`).
    pub penalty: String,
    /// Where the game's spec gives it, e.g. `hokm §12.3`.
    pub section: String,
    /// The seat penalized.
    pub offender: SeatIndex,
    /// The sides that gain, each as its seats.
    pub beneficiaries: Vec<Vec<SeatIndex>>,
    /// The points each of them gains.
    pub points: u32,
}

/// The refusal of a penalty by a game whose rules give none an official may award.
pub fn no_penalty(game: GameId) -> Violation {
    Violation::new(
        "NoPenalty",
        format!("{game} rules"),
        format!("the rules of {game} give no penalty an official may award after a hand"),
    )
}

/// A value that can be a game's house rules: serializable, with documented defaults, and a
/// validity check.
pub trait HouseRules: Serialize + DeserializeOwned + Default + Clone + fmt::Debug {
    /// Check the values against the spec's ranges.
    fn validate(&self) -> Result<(), SetupError>;

    /// The rules in force for `seats` players: checked against the seat count (an option for
    /// 4 players only is refused for 3), and every default that depends on it made explicit
    /// (Hokm's cut and bam), so that the hand's first event says exactly what was played.
    fn for_seats(&self, _seats: u8) -> Result<Self, SetupError> {
        self.validate()?;
        Ok(self.clone())
    }

    /// A spread of valid house rules for the property suite (every option away from its
    /// default at least once); the defaults alone unless the game lists more.
    fn samples() -> Vec<Self> {
        vec![Self::default()]
    }
}

/// One game's rules engine. See the module documentation for the shape.
///
/// ```
/// use replayer::engine::{Actor, Game, SeatIndex};
/// use replayer::games::bist_o_yek::{BistOYek, Rules, Setup, Action};
///
/// let rules = Rules::default();
/// let setup = Setup { seats: 2, first_banker: SeatIndex(0), balances: vec![5000, 1000] };
/// let m = BistOYek::new_match(&rules, &setup).unwrap();
/// let state = BistOYek::new_hand(&rules, &m).unwrap();
/// // The first banker candidate is offered the bank.
/// assert_eq!(BistOYek::to_act(&state).actors[0], Actor::Seat(SeatIndex(0)));
/// let effects = BistOYek::decide(&state, Actor::Seat(SeatIndex(0)), &Action::AcceptBank).unwrap();
/// assert!(!effects.is_empty());
/// ```
pub trait Game: 'static {
    /// The game's id.
    const ID: GameId;
    /// Fewest seats.
    const MIN_SEATS: u8;
    /// Most seats.
    const MAX_SEATS: u8;

    /// The seat counts the game is played by (every count from `MIN_SEATS` to `MAX_SEATS`
    /// unless the game says otherwise: Bluff is played by 4, 6 or 8).
    fn seat_counts() -> Vec<u8> {
        (Self::MIN_SEATS..=Self::MAX_SEATS).collect()
    }

    /// House rules.
    type Rules: HouseRules;
    /// Match set-up parameters that are not house rules (seats, first dealer, opening
    /// balances).
    type Setup: Serialize + DeserializeOwned + Clone + fmt::Debug;
    /// What carries over between hands.
    type Match: Serialize + DeserializeOwned + Clone + fmt::Debug + PartialEq;
    /// A hand in progress, with full information (hidden cards included).
    type State: Clone + fmt::Debug;
    /// An action by a seat or the service.
    type Action: Serialize + DeserializeOwned + Clone + fmt::Debug + PartialEq;
    /// A legal action or family of actions, as offered to an actor (and read back from its
    /// JSON by a client or a test that picks one: [`DynGame::sample_legal`]).
    type Legal: LegalAction<Self::Action> + DeserializeOwned;
    /// A public fact caused by an action or a shuffle, recorded in the log.
    type Effect: Serialize + DeserializeOwned + Clone + fmt::Debug + PartialEq;
    /// What one viewer may see of the state.
    type View: Serialize;
    /// The hand's result: points, payments.
    type Outcome: Serialize + DeserializeOwned + Clone + fmt::Debug + PartialEq;

    /// The deck the hand is dealt from (its id goes into the first event).
    fn deck(rules: &Self::Rules, m: &Self::Match) -> crate::cards::DeckKind;

    /// Start a match.
    fn new_match(rules: &Self::Rules, setup: &Self::Setup) -> Result<Self::Match, SetupError>;

    /// Start a hand of the match.
    fn new_hand(rules: &Self::Rules, m: &Self::Match) -> Result<Self::State, SetupError>;

    /// Who the hand waits for.
    fn to_act(state: &Self::State) -> ToAct;

    /// The legal actions of `actor` now (empty when it is not its turn).
    fn legal_actions(state: &Self::State, actor: Actor) -> Vec<Self::Legal>;

    /// Check `action` by `actor` against every rule; the effects it causes, or the violated
    /// rule. Never changes the state.
    fn decide(
        state: &Self::State,
        actor: Actor,
        action: &Self::Action,
    ) -> Result<Vec<Self::Effect>, Violation>;

    /// Check a committed shuffle (`order`, top first) against the pending
    /// [`ShuffleRequest`]; the effects it causes (which never name a face).
    fn decide_shuffle(
        state: &Self::State,
        shuffle: u32,
        order: &[Card],
    ) -> Result<Vec<Self::Effect>, Violation>;

    /// A seat's secret choice (Sheytoonak's arrangement of the hand offered to a neighbour,
    /// the cards Shelem's hakem lays away): `Some(public part)` for such an action, `None`
    /// (the default) for a public one. The dealer writes a private action into the public
    /// log only as a salted commitment with this public part (say `{"type": "arrange"}`),
    /// keeps the plaintext sealed, and opens it when the hand ends; verification checks the
    /// opening and re-runs it. Its effects stay out of the log (re-derived from the opening),
    /// and the state's zones keep each card's face to whoever may see it.
    fn public_part(_action: &Self::Action) -> Option<Value> {
        None
    }

    /// Fold one effect into the state. Holds no rule; `order` is `Some` for the effect that
    /// installs a committed shuffle (the engine's own shuffle effect).
    fn evolve(state: &mut Self::State, effect: &Self::Effect, order: Option<&[Card]>);

    /// What `viewer` may see.
    fn view(state: &Self::State, viewer: Viewer) -> Self::View;

    /// The outcome, once the hand is over.
    fn outcome(state: &Self::State) -> Option<Self::Outcome>;

    /// The match after this (finished) hand.
    fn next_match(state: &Self::State) -> Option<Self::Match>;

    /// Each seat's typed result of a finished hand.
    fn results(outcome: &Self::Outcome) -> Vec<SeatResult>;

    /// The state's cards: every engine keeps every card of the hand in the core's
    /// [`crate::zones::Zones`], and no face anywhere else, and derives its views from them.
    /// The dealer checks card conservation through it at every event (rule `cards`), live
    /// and on verification, and the property suite checks that no view leaks a face.
    fn zones(state: &Self::State) -> &crate::zones::Zones;

    /// The same, to change (the no-leak check scrambles the faces a viewer may not see).
    fn zones_mut(state: &mut Self::State) -> &mut crate::zones::Zones;

    /// Where a match stands, typed.
    fn standings(m: &Self::Match) -> Standings;

    /// Whether the match is over (no further hand can start).
    fn match_over(m: &Self::Match) -> bool;

    /// How many seats the match is played by (the hand's first event must list exactly
    /// these).
    fn seat_count(m: &Self::Match) -> u8;

    /// The names of the penalties an official may award when ruling on a dispute over a
    /// finished hand of this game (the `type` of [`Game::penalty`]'s input); none unless
    /// the game's rules give one.
    fn penalty_names() -> &'static [&'static str] {
        &[]
    }

    /// Checks a penalty an official awards after a hand that left the match `m`, under the
    /// house rules `rules` the hand was played by: `penalty` is `{"type": NAME, …}` with a
    /// name of [`Game::penalty_names`]. The award as the rules make it, or the violation
    /// (rule and section) of a penalty they do not give.
    fn penalty(
        _rules: &Self::Rules,
        _m: &Self::Match,
        _penalty: &Value,
    ) -> Result<Award, Violation> {
        Err(no_penalty(Self::ID))
    }

    /// Carries an award ([`Game::penalty`]'s, recorded with a ruling on an earlier hand)
    /// into the match `m` between hands, under the house rules `rules` of the match: the
    /// match state the next hand starts from. The rules' arithmetic for the penalty, round
    /// and match end included, as when the penalty is awarded during a hand. A game whose
    /// rules give no penalty refuses with `NoPenalty` (the default); a match that is over
    /// takes no award (`MatchOver`).
    ///
    /// ```
    /// use replayer::engine::Game;
    /// use replayer::games::hokm::{Hokm, Rules, Setup};
    /// use serde_json::json;
    ///
    /// let rules = Rules::default();
    /// let m = Hokm::new_match(&rules, &Setup { seats: 4 }).unwrap();
    /// let p = json!({"type": "cheating_penalty", "offender": 1, "beneficiary": 0});
    /// let award = Hokm::penalty(&rules, &m, &p).unwrap();
    /// let after = Hokm::apply_award(&rules, &m, &award).unwrap();
    /// assert_eq!(after.scores, vec![rules.cheating_penalty_points, 0]);
    /// ```
    fn apply_award(
        _rules: &Self::Rules,
        _m: &Self::Match,
        _award: &Award,
    ) -> Result<Self::Match, Violation> {
        Err(no_penalty(Self::ID))
    }
}

/// Check an action and fold its effects: the new state's effects, or the violation (the
/// state is then unchanged).
pub fn apply<G: Game>(
    state: &mut G::State,
    actor: Actor,
    action: &G::Action,
) -> Result<Vec<G::Effect>, Violation> {
    let effects = G::decide(state, actor, action)?;
    for e in &effects {
        G::evolve(state, e, None);
    }
    Ok(effects)
}

/// Check a committed shuffle and fold its effects.
pub fn apply_shuffle<G: Game>(
    state: &mut G::State,
    shuffle: u32,
    order: &[Card],
) -> Result<Vec<G::Effect>, Violation> {
    let effects = G::decide_shuffle(state, shuffle, order)?;
    for e in &effects {
        G::evolve(state, e, Some(order));
    }
    Ok(effects)
}

/// An input that is not valid JSON for the game's types.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{what} is not valid for {game}: {detail}")]
pub struct BadJson {
    /// The game.
    pub game: GameId,
    /// What was being read: "action", "house rules", "match set-up", "match state".
    pub what: &'static str,
    /// serde's message.
    pub detail: String,
}

/// Object-safe, JSON-speaking access to one game's engine. Implemented for every [`Game`]
/// by [`Engine`].
pub trait DynGame: Send + Sync {
    /// The game's id.
    fn id(&self) -> GameId;
    /// Fewest and most seats.
    fn seats(&self) -> (u8, u8);
    /// Every seat count the game is played by ([`Game::seat_counts`]).
    fn seat_counts(&self) -> Vec<u8>;
    /// The default house rules, as JSON.
    fn default_rules(&self) -> Value;
    /// Read, complete with defaults, and validate house rules; returns them normalized.
    fn normalize_rules(&self, rules: &Value) -> Result<Value, SetupError>;
    /// The same for a table of `seats` players ([`HouseRules::for_seats`]): what a hand's
    /// first event records.
    fn normalize_rules_for(&self, rules: &Value, seats: u8) -> Result<Value, SetupError>;
    /// A default match set-up for `seats` players (the simulator's and a new table's
    /// default), as JSON.
    fn default_setup(&self, seats: u8) -> Result<Value, SetupError>;
    /// Start a match.
    fn new_match(&self, rules: &Value, setup: &Value) -> Result<Value, SetupError>;
    /// Whether a match is over.
    fn match_over(&self, m: &Value) -> Result<bool, SetupError>;
    /// Start a hand.
    fn new_hand(&self, rules: &Value, m: &Value) -> Result<Box<dyn DynHand>, SetupError>;
    /// A spread of valid house rules for the property suite ([`HouseRules::samples`]).
    fn rule_samples(&self) -> Vec<Value>;
    /// One concrete action of a legal family given as JSON (as `legal-actions` serves it):
    /// how a client, the simulator or the end-to-end suite picks a move in any registered
    /// game without knowing its actions. `None` for JSON that is not a family of the game.
    fn sample_legal(&self, family: &Value, rng: &mut dyn rand_core::RngCore) -> Option<Value>;
    /// How many seats a match state is for.
    fn seat_count(&self, m: &Value) -> Result<u8, SetupError>;
    /// Where a match state stands, typed.
    fn standings(&self, m: &Value) -> Result<Standings, SetupError>;
    /// Each seat's typed result, from a recorded outcome.
    fn results(&self, outcome: &Value) -> Result<Vec<SeatResult>, SetupError>;
    /// [`Game::penalty_names`].
    fn penalty_names(&self) -> &'static [&'static str];
    /// [`Game::penalty`], on the JSON of the hand's house rules and match state.
    fn penalty(&self, rules: &Value, m: &Value, penalty: &Value) -> Result<Award, Violation>;
    /// [`Game::apply_award`], on the JSON of the match's house rules and match state: the
    /// match state after the award.
    fn apply_award(&self, rules: &Value, m: &Value, award: &Award) -> Result<Value, Violation>;
}

/// Object-safe, JSON-speaking access to one hand in progress.
pub trait DynHand: Send + Sync + fmt::Debug {
    /// The game.
    fn game(&self) -> GameId;
    /// The deck.
    fn deck(&self) -> crate::cards::DeckKind;
    /// Who the hand waits for.
    fn to_act(&self) -> ToAct;
    /// Legal actions of `actor`, as JSON.
    fn legal_actions(&self, actor: Actor) -> Vec<Value>;
    /// A random legal action of `actor`, if any (for the simulator and property tests).
    fn random_action(&self, actor: Actor, rng: &mut dyn rand_core::RngCore) -> Option<Value>;
    /// Check and apply an action given as JSON. A JSON that is not an action of this game is
    /// a `Violation` with rule `BadAction`.
    fn apply(&mut self, actor: Actor, action: &Value) -> Result<Vec<Value>, Violation>;
    /// Check and apply a committed shuffle.
    fn apply_shuffle(&mut self, shuffle: u32, order: &[Card]) -> Result<Vec<Value>, Violation>;
    /// The public part of a private action ([`Game::public_part`]); `None` for a public
    /// action and for JSON that is not an action of the game.
    fn public_part(&self, action: &Value) -> Option<Value>;
    /// The view of `viewer`, as JSON.
    fn view(&self, viewer: Viewer) -> Value;
    /// The outcome, once over.
    fn outcome(&self) -> Option<Value>;
    /// The next match state, once over.
    fn next_match(&self) -> Option<Value>;
    /// A copy.
    fn clone_box(&self) -> Box<dyn DynHand>;
    /// Every card of the hand ([`Game::zones`]).
    fn zones(&self) -> &crate::zones::Zones;
    /// The no-leak check for one viewer: the faces `viewer` may not see are permuted among
    /// themselves (choices drawn from `seed`) and the view must not change. `Some` names
    /// what changed.
    fn leak(&self, viewer: Viewer, seed: u64) -> Option<String>;
    /// The legal families of `actor` against `decide`: a sample of every family is allowed
    /// by it and accepted by `decide`. `Err` names the first family that fails.
    fn check_legal(&self, actor: Actor, rng: &mut dyn rand_core::RngCore) -> Result<(), String>;
    /// The other half of "legal actions are exactly what `decide` accepts": of `candidates`
    /// (actions seen anywhere in the hand so far, as JSON), every one `decide` accepts from
    /// `actor` now is allowed by one of `actor`'s legal families.
    fn check_only_legal(&self, actor: Actor, candidates: &[Value]) -> Result<(), String>;
    /// A sample of every legal family of `actor` now, as JSON (probe material for
    /// [`DynHand::check_only_legal`]).
    fn samples(&self, actor: Actor, rng: &mut dyn rand_core::RngCore) -> Vec<Value>;
}

/// Adapter from a typed [`Game`] to [`DynGame`].
pub struct Engine<G: Game>(std::marker::PhantomData<fn() -> G>);

impl<G: Game> Engine<G> {
    /// The adapter.
    pub const fn new() -> Self {
        Engine(std::marker::PhantomData)
    }
}

impl<G: Game> Default for Engine<G> {
    fn default() -> Self {
        Self::new()
    }
}

fn from_json<T: DeserializeOwned>(
    game: GameId,
    what: &'static str,
    v: &Value,
) -> Result<T, BadJson> {
    T::deserialize(v).map_err(|e| BadJson {
        game,
        what,
        detail: e.to_string(),
    })
}

/// Strict actions, for every game: what the input has that the action read from it does
/// not (a member the action type ignores, at any depth). A member given as `null` where the
/// action leaves it out means "none" and is fine. `None` when the input is the action.
fn not_in(input: &Value, read: &Value) -> Option<String> {
    match (input, read) {
        (Value::Object(i), Value::Object(r)) => i.iter().find_map(|(k, v)| match r.get(k) {
            None if v.is_null() => None,
            None => Some(format!(
                "unknown member {:?}",
                k.chars().take(40).collect::<String>()
            )),
            Some(rv) => not_in(v, rv)
                .map(|e| format!("in {:?}: {e}", k.chars().take(40).collect::<String>())),
        }),
        (Value::Array(i), Value::Array(r)) if i.len() == r.len() => {
            i.iter().zip(r).find_map(|(a, b)| not_in(a, b))
        }
        (Value::Array(_), Value::Array(_)) => Some("a list of another length".into()),
        _ => None,
    }
}

fn to_json<T: Serialize>(v: &T) -> Value {
    // Serializing our own plain data types into a `Value` cannot fail (no maps with
    // non-string keys, no floats that are not finite).
    serde_json::to_value(v).unwrap_or(Value::Null)
}

fn rules_of<G: Game>(rules: &Value) -> Result<G::Rules, SetupError> {
    let r: G::Rules =
        from_json(G::ID, "house rules", rules).map_err(|e| SetupError::Rules(e.detail))?;
    r.validate()?;
    Ok(r)
}

impl<G: Game> DynGame for Engine<G>
where
    G::State: Send + Sync,
{
    fn id(&self) -> GameId {
        G::ID
    }

    fn seats(&self) -> (u8, u8) {
        (G::MIN_SEATS, G::MAX_SEATS)
    }

    fn seat_counts(&self) -> Vec<u8> {
        G::seat_counts()
    }

    fn default_rules(&self) -> Value {
        to_json(&G::Rules::default())
    }

    fn normalize_rules(&self, rules: &Value) -> Result<Value, SetupError> {
        Ok(to_json(&rules_of::<G>(rules)?))
    }

    fn normalize_rules_for(&self, rules: &Value, seats: u8) -> Result<Value, SetupError> {
        Ok(to_json(&rules_of::<G>(rules)?.for_seats(seats)?))
    }

    fn default_setup(&self, seats: u8) -> Result<Value, SetupError> {
        let setup = serde_json::json!({ "seats": seats });
        let s: G::Setup =
            from_json(G::ID, "match set-up", &setup).map_err(|e| SetupError::Match(e.detail))?;
        Ok(to_json(&s))
    }

    fn new_match(&self, rules: &Value, setup: &Value) -> Result<Value, SetupError> {
        let r = rules_of::<G>(rules)?;
        let s: G::Setup =
            from_json(G::ID, "match set-up", setup).map_err(|e| SetupError::Match(e.detail))?;
        Ok(to_json(&G::new_match(&r, &s)?))
    }

    fn match_over(&self, m: &Value) -> Result<bool, SetupError> {
        let m: G::Match =
            from_json(G::ID, "match state", m).map_err(|e| SetupError::Match(e.detail))?;
        Ok(G::match_over(&m))
    }

    fn seat_count(&self, m: &Value) -> Result<u8, SetupError> {
        let m: G::Match =
            from_json(G::ID, "match state", m).map_err(|e| SetupError::Match(e.detail))?;
        Ok(G::seat_count(&m))
    }

    fn rule_samples(&self) -> Vec<Value> {
        G::Rules::samples().iter().map(to_json).collect()
    }

    fn sample_legal(&self, family: &Value, rng: &mut dyn rand_core::RngCore) -> Option<Value> {
        let l = G::Legal::deserialize(family).ok()?;
        Some(to_json(&l.sample(rng)))
    }

    fn standings(&self, m: &Value) -> Result<Standings, SetupError> {
        let m: G::Match =
            from_json(G::ID, "match state", m).map_err(|e| SetupError::Match(e.detail))?;
        Ok(G::standings(&m))
    }

    fn results(&self, outcome: &Value) -> Result<Vec<SeatResult>, SetupError> {
        let o: G::Outcome =
            from_json(G::ID, "outcome", outcome).map_err(|e| SetupError::Match(e.detail))?;
        Ok(G::results(&o))
    }

    fn penalty_names(&self) -> &'static [&'static str] {
        G::penalty_names()
    }

    fn penalty(&self, rules: &Value, m: &Value, penalty: &Value) -> Result<Award, Violation> {
        let bad = |what: &str, e: String| {
            Violation::new(
                "BadPenalty",
                format!("{} rules", G::ID),
                format!("{what}: {e}"),
            )
        };
        let r = rules_of::<G>(rules).map_err(|e| bad("the hand's house rules", e.to_string()))?;
        let m: G::Match =
            from_json(G::ID, "match state", m).map_err(|e| bad("the match state", e.detail))?;
        G::penalty(&r, &m, penalty)
    }

    fn apply_award(&self, rules: &Value, m: &Value, award: &Award) -> Result<Value, Violation> {
        let bad = |what: &str, e: String| {
            Violation::new(
                "BadPenalty",
                format!("{} rules", G::ID),
                format!("{what}: {e}"),
            )
        };
        let r = rules_of::<G>(rules).map_err(|e| bad("the match's house rules", e.to_string()))?;
        let m: G::Match =
            from_json(G::ID, "match state", m).map_err(|e| bad("the match state", e.detail))?;
        G::apply_award(&r, &m, award).map(|next| to_json(&next))
    }

    fn new_hand(&self, rules: &Value, m: &Value) -> Result<Box<dyn DynHand>, SetupError> {
        let r = rules_of::<G>(rules)?;
        let m: G::Match =
            from_json(G::ID, "match state", m).map_err(|e| SetupError::Match(e.detail))?;
        if G::match_over(&m) {
            return Err(SetupError::MatchOver);
        }
        let deck = G::deck(&r, &m);
        let state = G::new_hand(&r, &m)?;
        Ok(Box::new(Hand::<G> { state, deck }))
    }
}

/// A typed hand behind [`DynHand`].
pub struct Hand<G: Game> {
    /// The state.
    pub state: G::State,
    deck: crate::cards::DeckKind,
}

impl<G: Game> Clone for Hand<G> {
    fn clone(&self) -> Self {
        Hand {
            state: self.state.clone(),
            deck: self.deck,
        }
    }
}

impl<G: Game> fmt::Debug for Hand<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Never print the state: it holds hidden cards.
        f.debug_struct("Hand")
            .field("game", &G::ID)
            .finish_non_exhaustive()
    }
}

impl<G: Game> DynHand for Hand<G>
where
    G::State: Send + Sync,
{
    fn game(&self) -> GameId {
        G::ID
    }

    fn deck(&self) -> crate::cards::DeckKind {
        self.deck
    }

    fn to_act(&self) -> ToAct {
        G::to_act(&self.state)
    }

    fn legal_actions(&self, actor: Actor) -> Vec<Value> {
        G::legal_actions(&self.state, actor)
            .iter()
            .map(to_json)
            .collect()
    }

    fn random_action(&self, actor: Actor, rng: &mut dyn rand_core::RngCore) -> Option<Value> {
        let legal = G::legal_actions(&self.state, actor);
        if legal.is_empty() {
            return None;
        }
        let len = u32::try_from(legal.len()).unwrap_or(u32::MAX);
        let i = usize::try_from(rng.next_u32() % len).unwrap_or(0);
        legal.get(i).map(|l| to_json(&l.sample(rng)))
    }

    fn apply(&mut self, actor: Actor, action: &Value) -> Result<Vec<Value>, Violation> {
        let a: G::Action = from_json(G::ID, "action", action).map_err(|e| {
            Violation::new(
                "BadAction",
                format!("{} actions", G::ID),
                format!("not an action of {}: {}", G::ID, e.detail),
            )
        })?;
        if let Some(extra) = not_in(action, &to_json(&a)) {
            return Err(Violation::new(
                "BadAction",
                format!("{} actions", G::ID),
                format!("not an action of {}: {extra}", G::ID),
            ));
        }
        Ok(apply::<G>(&mut self.state, actor, &a)?
            .iter()
            .map(to_json)
            .collect())
    }

    fn public_part(&self, action: &Value) -> Option<Value> {
        G::Action::deserialize(action)
            .ok()
            .and_then(|a| G::public_part(&a))
    }

    fn apply_shuffle(&mut self, shuffle: u32, order: &[Card]) -> Result<Vec<Value>, Violation> {
        Ok(apply_shuffle::<G>(&mut self.state, shuffle, order)?
            .iter()
            .map(to_json)
            .collect())
    }

    fn view(&self, viewer: Viewer) -> Value {
        to_json(&G::view(&self.state, viewer))
    }

    fn outcome(&self) -> Option<Value> {
        G::outcome(&self.state).map(|o| to_json(&o))
    }

    fn next_match(&self) -> Option<Value> {
        G::next_match(&self.state).map(|m| to_json(&m))
    }

    fn clone_box(&self) -> Box<dyn DynHand> {
        Box::new(self.clone())
    }

    fn zones(&self) -> &crate::zones::Zones {
        G::zones(&self.state)
    }

    fn leak(&self, viewer: Viewer, seed: u64) -> Option<String> {
        leak_of::<G>(&self.state, viewer, seed)
    }

    fn check_legal(&self, actor: Actor, rng: &mut dyn rand_core::RngCore) -> Result<(), String> {
        check_legal_of::<G>(&self.state, actor, rng)
    }

    fn check_only_legal(&self, actor: Actor, candidates: &[Value]) -> Result<(), String> {
        let legal = G::legal_actions(&self.state, actor);
        for c in candidates {
            let Ok(a) = G::Action::deserialize(c) else {
                continue;
            };
            if G::decide(&self.state, actor, &a).is_ok() && !legal.iter().any(|l| l.allows(&a)) {
                return Err(format!(
                    "{actor}: decide accepts {c}, which no legal family allows"
                ));
            }
        }
        Ok(())
    }

    fn samples(&self, actor: Actor, rng: &mut dyn rand_core::RngCore) -> Vec<Value> {
        G::legal_actions(&self.state, actor)
            .iter()
            .map(|l| to_json(&l.sample(rng)))
            .collect()
    }
}

/// The no-leak check of [`DynHand::leak`] on a typed state.
pub fn leak_of<G: Game>(state: &G::State, viewer: Viewer, seed: u64) -> Option<String> {
    let mut scrambled = state.clone();
    let mut x = seed | 1;
    G::zones_mut(&mut scrambled).scramble_hidden(viewer, |n| {
        // xorshift64: enough to permute for a property check.
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        usize::try_from(x % u64::try_from(n.max(1)).unwrap_or(1)).unwrap_or(0)
    });
    let before = to_json(&G::view(state, viewer));
    let after = to_json(&G::view(&scrambled, viewer));
    (before != after)
        .then(|| format!("the view of {viewer:?} changes when faces it may not see are swapped"))
}

/// The check of [`DynHand::check_legal`] on a typed state.
pub fn check_legal_of<G: Game>(
    state: &G::State,
    actor: Actor,
    rng: &mut dyn rand_core::RngCore,
) -> Result<(), String> {
    for family in G::legal_actions(state, actor) {
        let a = family.sample(rng);
        if !family.allows(&a) {
            return Err(format!(
                "{actor}: the family {} does not allow its own sample {}",
                to_json(&family),
                to_json(&a)
            ));
        }
        if let Err(v) = G::decide(state, actor, &a) {
            return Err(format!(
                "{actor}: decide refuses the legal {} ({v})",
                to_json(&a)
            ));
        }
    }
    Ok(())
}
