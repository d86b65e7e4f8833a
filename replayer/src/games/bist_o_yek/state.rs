//! Match, set-up, phases and the full-information hand state (spec §6.1).

use serde::{Deserialize, Serialize};

use super::rules::{total, Rules};
use crate::cards::DeckKind;
use crate::engine::{GameId, HouseRules, SeatIndex, SetupError, ShuffleRequest, Toman};
use crate::zones::{Placed, ZoneId, Zones};

/// Fewest seats (§3.1, L9: "I have played it with 2").
pub const MIN_SEATS: u8 = 2;
/// Most seats (§3.1, L9: "I have seen up to 10").
pub const MAX_SEATS: u8 = 10;

fn seat_zero() -> SeatIndex {
    SeatIndex(0)
}

/// Match set-up parameters that are not house rules (§9 last line). JSON `{"seats": n}` is
/// enough: `first_banker` defaults to seat 0 and empty `balances` mean that every seat starts
/// with `10 × bank_stake`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    /// Number of seats, the banker included: 2 to 10.
    pub seats: u8,
    /// The first seat offered the bank (D-27; the text is silent).
    #[serde(default = "seat_zero")]
    pub first_banker: SeatIndex,
    /// Opening balances, one per seat; empty for `10 × bank_stake` each.
    #[serde(default)]
    pub balances: Vec<Toman>,
}

/// What carries over from one hand (bank offers plus one banker's turn) to the next.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Match {
    /// Number of seats.
    pub seats: u8,
    /// Every seat's balance.
    pub balances: Vec<Toman>,
    /// The next seat to be offered the bank.
    pub candidate: SeatIndex,
    /// Consecutive declined offers so far (the match is over at `seats`).
    pub declines: u8,
    /// Whether the match is over (everyone declined, or `EndMatch`).
    pub over: bool,
    /// The number of the next hand of the match, counting from 1.
    pub turn: u32,
}

/// Why a committed shuffle is asked for (§6.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ShuffleReason {
    /// Full shuffle at the start of a banker's turn.
    NewTurn,
    /// Full shuffle after a bank khabar announcement (L39).
    Khabar,
    /// Full shuffle before a round under `shuffle_every_round`.
    Round,
    /// The stock ran out: the discard pile is shuffled into a new stock.
    Restock,
}

impl ShuffleReason {
    /// The reason as written in a [`crate::engine::ShuffleRequest`].
    pub fn as_str(self) -> &'static str {
        match self {
            ShuffleReason::NewTurn => "new_turn",
            ShuffleReason::Khabar => "khabar",
            ShuffleReason::Round => "round",
            ShuffleReason::Restock => "restock",
        }
    }

    /// Whether all 36 cards are collected and shuffled (every reason but `restock`).
    pub fn is_full(self) -> bool {
        !matches!(self, ShuffleReason::Restock)
    }
}

/// Where the engine goes on once a pending shuffle is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Resume {
    /// Enter `RoundStart` (after a `new_turn`, `khabar` or `round` shuffle).
    RoundStart,
    /// Go on with step A (the banker's card, then the players' first cards).
    Dealing,
    /// Go on opening the duel (step B: banker's card, swap, the player's first card).
    DuelOpening,
    /// Deal the player's next card face down.
    PlayerDrawFaceDown,
    /// Deal the player's next card face up (the banker's choice on the three-card rule).
    PlayerDrawFaceUp,
    /// Deal the banker's next card (face up).
    BankerDraw,
}

/// The phase of a hand (§6.3). The spec's `BankOffer` after step G is the next hand's first
/// phase; this hand then rests in `TurnOver`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "name", rename_all = "snake_case")]
pub enum Phase {
    /// The candidate may accept or decline the bank.
    BankOffer,
    /// Waiting for a committed shuffle; nobody may act.
    AwaitShuffle {
        /// Why.
        reason: ShuffleReason,
        /// What follows.
        resume: Resume,
    },
    /// Between rounds: the banker may announce bank khabar or deal.
    RoundStart,
    /// The banker decides whether to swap his unrevealed card.
    SwapDecision,
    /// The duel player must bet.
    AwaitBet,
    /// The duel player hits or stands; other seats may side-bet while the window is open.
    PlayerTurn,
    /// The banker chooses to deal the player's next card face up or down (three-card rule).
    FaceChoice,
    /// The duel player went over 21 and must say "suz" ("I went over").
    AwaitSuz,
    /// The banker draws or stands.
    BankerTurn,
    /// The banker's turn is over (step G); the hand is over.
    TurnOver,
    /// The match is over; the hand is over.
    MatchOver,
}

impl Phase {
    /// The phase's name, for messages.
    pub fn name(self) -> &'static str {
        match self {
            Phase::BankOffer => "BankOffer",
            Phase::AwaitShuffle { .. } => "AwaitShuffle",
            Phase::RoundStart => "RoundStart",
            Phase::SwapDecision => "SwapDecision",
            Phase::AwaitBet => "AwaitBet",
            Phase::PlayerTurn => "PlayerTurn",
            Phase::FaceChoice => "FaceChoice",
            Phase::AwaitSuz => "AwaitSuz",
            Phase::BankerTurn => "BankerTurn",
            Phase::TurnOver => "TurnOver",
            Phase::MatchOver => "MatchOver",
        }
    }

    /// Whether the hand is over.
    pub fn is_over(self) -> bool {
        matches!(self, Phase::TurnOver | Phase::MatchOver)
    }
}

/// Why a banker's turn (and so the hand) ended (§8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// A settlement left the bank at 0 (D-8).
    BankEmpty,
    /// The round after a bank khabar announcement ended (L39).
    Khabar,
    /// At a round boundary no player could bet `lo` (D-10).
    NoPlayerCanBet,
    /// The service ended the match by the table's agreement (D-27).
    EndMatch,
    /// Every seat declined the bank in turn (§4.4).
    EveryoneDeclined,
}

/// One stake in escrow on the current duel (§5.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stake {
    /// The owner.
    pub seat: SeatIndex,
    /// The amount.
    pub amount: Toman,
    /// The main bet (true) or a side bet (false).
    pub main: bool,
}

// Where the spec's places of a card (§6.1, §6.2 rule 1) lie in the core's zones. Who may see
// a face (§6.2 rule 5) is the card's `Seen`: a face-down card its holder's seat, a face-up
// card everyone; a card keeps who saw it when it is discarded.

/// `stock`, top first, seen by nobody.
pub(super) const STOCK: ZoneId = ZoneId::Stock;
/// `discard`, in the order the cards went there; the faces the table saw are public.
pub(super) const DISCARD: ZoneId = ZoneId::Discard;
/// The banker's face-up hand: `hidden` once turned up (step D), then his draws.
pub(super) const BANKER_UP: ZoneId = ZoneId::Table;

/// `hidden`, the banker's face-down card: his hand, seen by him.
pub(super) fn hidden_zone(banker: SeatIndex) -> ZoneId {
    ZoneId::Hand(banker)
}

/// `waiting[s]`, the first card dealt to `s` ahead of his duel (`all_first`): face down in
/// front of him, pile `s`, seen by him.
pub(super) fn waiting_zone(seat: SeatIndex) -> ZoneId {
    ZoneId::Pile(seat.0)
}

/// The duel player's hand, each card seen by him, or by everyone once face up.
pub(super) fn duel_zone(player: SeatIndex) -> ZoneId {
    ZoneId::Hand(player)
}

/// The duel in progress (its cards are in [`duel_zone`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Duel {
    pub player: SeatIndex,
    pub swap_offered: bool,
    pub side_open: bool,
}

/// A hand in progress with full information (hidden cards and stock order included). Every
/// card is in `zones`; no face is kept anywhere else. Never show it to anyone: use
/// [`super::BistOYek`]'s `view`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub(super) rules: Rules,
    pub(super) seats: u8,
    pub(super) turn: u32,
    /// Σ balance + bank + Σ escrow, constant.
    pub(super) total: Toman,
    /// Balances when the hand started.
    pub(super) opening: Vec<Toman>,
    pub(super) balance: Vec<Toman>,
    pub(super) bank: Toman,
    pub(super) stake: Toman,
    pub(super) escrow: Vec<Stake>,
    pub(super) banker: Option<SeatIndex>,
    pub(super) candidate: SeatIndex,
    pub(super) declines: u8,
    pub(super) khabar: bool,
    pub(super) round: u32,
    /// Committed shuffles installed so far in this hand (= the next shuffle's number).
    /// Before the first, the 36 cards lie collected on the discard pile, not yet named by
    /// any shuffle, and `zones` is empty.
    pub(super) shuffles: u32,
    /// Every card named by a committed shuffle: stock, discard, waiting slots, `hidden`, the
    /// duel player's hand, the banker's hand (see [`STOCK`] and the zone functions).
    pub(super) zones: Zones,
    pub(super) queue: Vec<SeatIndex>,
    /// The banker's face-down card survived a duel unrevealed (after a suz).
    pub(super) carried: bool,
    pub(super) duel: Option<Duel>,
    pub(super) phase: Phase,
    pub(super) taken: Option<Toman>,
    pub(super) end: Option<EndReason>,
}

/// The seat on `seat`'s right: `(seat + 1) mod n` (§3.2).
pub(super) fn right(seat: SeatIndex, n: u8) -> SeatIndex {
    seat.right(n)
}

fn seats_error(found: usize) -> SetupError {
    SetupError::Seats {
        game: GameId::BistOYek,
        min: MIN_SEATS,
        max: MAX_SEATS,
        found,
    }
}

/// Start a match (see [`crate::engine::Game::new_match`]).
pub(super) fn new_match(rules: &Rules, setup: &Setup) -> Result<Match, SetupError> {
    rules.validate()?;
    let n = setup.seats;
    if !(MIN_SEATS..=MAX_SEATS).contains(&n) {
        return Err(seats_error(usize::from(n)));
    }
    if setup.first_banker.0 >= n {
        return Err(SetupError::Match(format!(
            "first_banker {} is not one of the {n} seats",
            setup.first_banker.0
        )));
    }
    let balances = if setup.balances.is_empty() {
        let each = rules.bank_stake.checked_mul(10).ok_or_else(|| {
            SetupError::Match("10 × bank_stake does not fit in a toman amount".into())
        })?;
        vec![each; usize::from(n)]
    } else {
        setup.balances.clone()
    };
    let m = Match {
        seats: n,
        balances,
        candidate: setup.first_banker,
        declines: 0,
        over: false,
        turn: 1,
    };
    check_match(&m)?;
    Ok(m)
}

fn check_match(m: &Match) -> Result<Toman, SetupError> {
    let n = m.seats;
    if !(MIN_SEATS..=MAX_SEATS).contains(&n) {
        return Err(seats_error(usize::from(n)));
    }
    if m.balances.len() != usize::from(n) {
        return Err(SetupError::Match(format!(
            "{} balances for {n} seats",
            m.balances.len()
        )));
    }
    if m.candidate.0 >= n {
        return Err(SetupError::Match(format!(
            "bank candidate {} is not one of the {n} seats",
            m.candidate.0
        )));
    }
    if m.declines >= n {
        return Err(SetupError::Match(format!(
            "{} consecutive declines at a table of {n}: the match is over",
            m.declines
        )));
    }
    let total = m
        .balances
        .iter()
        .try_fold(0u64, |acc, b| acc.checked_add(*b))
        .ok_or_else(|| SetupError::Match("the total of the balances overflows".into()))?;
    if total > MAX_TOTAL {
        return Err(SetupError::Match(format!(
            "the balances total {total} toman, more than the {MAX_TOTAL} a match may hold"
        )));
    }
    Ok(total)
}

/// The most money a match may hold, all balances together: every amount in a hand (bank,
/// bets, balances, nets) stays below it, far inside the integers the signed log can carry
/// (2^53 − 1), so a hand can always end.
pub const MAX_TOTAL: Toman = 1_000_000_000_000_000;

/// Start a hand (see [`crate::engine::Game::new_hand`]): bank offer to the match's candidate;
/// the 36 cards lie collected on the discard pile until the first shuffle.
pub(super) fn new_hand(rules: &Rules, m: &Match) -> Result<State, SetupError> {
    rules.validate()?;
    if m.over {
        return Err(SetupError::MatchOver);
    }
    let total = check_match(m)?;
    Ok(State {
        rules: rules.clone(),
        seats: m.seats,
        turn: m.turn,
        total,
        opening: m.balances.clone(),
        balance: m.balances.clone(),
        bank: 0,
        stake: 0,
        escrow: Vec::new(),
        banker: None,
        candidate: m.candidate,
        declines: m.declines,
        khabar: false,
        round: 0,
        shuffles: 0,
        zones: Zones::new(),
        queue: Vec::new(),
        carried: false,
        duel: None,
        phase: Phase::BankOffer,
        taken: None,
        end: None,
    })
}

impl State {
    /// The current phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The house rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Number of seats.
    pub fn seats(&self) -> u8 {
        self.seats
    }

    /// Every seat's balance.
    pub fn balances(&self) -> &[Toman] {
        &self.balance
    }

    /// The bank.
    pub fn bank(&self) -> Toman {
        self.bank
    }

    /// The stakes on the current duel.
    pub fn escrow(&self) -> &[Stake] {
        &self.escrow
    }

    /// The banker, once the bank is accepted.
    pub fn banker(&self) -> Option<SeatIndex> {
        self.banker
    }

    /// The money at the table (Σ balance + bank + Σ escrow), constant over the hand.
    pub fn total_money(&self) -> Toman {
        self.total
    }

    /// Σ balance + bank + Σ escrow as it stands now (equal to [`State::total_money`] after
    /// every effect); `None` on overflow.
    pub fn money_now(&self) -> Option<Toman> {
        let balances = self
            .balance
            .iter()
            .try_fold(0u64, |acc, b| acc.checked_add(*b))?;
        let escrow = self
            .escrow
            .iter()
            .try_fold(0u64, |acc, s| acc.checked_add(s.amount))?;
        balances.checked_add(self.bank)?.checked_add(escrow)
    }

    /// Every card of the hand named by a committed shuffle, zone by zone (empty before the
    /// hand's first shuffle).
    pub fn zones(&self) -> &Zones {
        &self.zones
    }

    /// Cards on the discard pile: all 36 before the hand's first shuffle.
    pub(super) fn discard_len(&self) -> usize {
        if self.shuffles == 0 {
            DeckKind::BistOYek36.cards().len()
        } else {
            self.zones.len(DISCARD)
        }
    }

    /// `hidden`: the banker's face-down card, if he has one.
    pub(super) fn hidden(&self) -> Option<&Placed> {
        self.banker
            .and_then(|b| self.zones.cards(hidden_zone(b)).first())
    }

    /// `waiting[seat]`: the first card dealt to `seat` ahead of his duel, if any.
    pub(super) fn waiting(&self, seat: SeatIndex) -> Option<&Placed> {
        self.zones.cards(waiting_zone(seat)).first()
    }

    /// The duel player's hand (empty without a duel).
    pub(super) fn duel_cards(&self) -> &[Placed] {
        match &self.duel {
            Some(d) => self.zones.cards(duel_zone(d.player)),
            None => &[],
        }
    }

    /// The banker's face-up hand.
    pub(super) fn banker_cards(&self) -> &[Placed] {
        self.zones.cards(BANKER_UP)
    }

    pub(super) fn bal(&self, seat: SeatIndex) -> Toman {
        self.balance.get(seat.index()).copied().unwrap_or(0)
    }

    pub(super) fn bet_limits(&self) -> (Toman, Toman) {
        self.rules.bet_limits(self.bank)
    }

    pub(super) fn threshold(&self) -> Toman {
        self.rules.khabar_threshold(self.stake)
    }

    /// Σ of the stakes on the current duel.
    pub(super) fn exposure(&self) -> Toman {
        self.escrow
            .iter()
            .fold(0u64, |acc, s| acc.saturating_add(s.amount))
    }

    /// Non-banker seats in playing order `right(b), right²(b), …`.
    pub(super) fn players_in_order(&self) -> Vec<SeatIndex> {
        let Some(b) = self.banker else {
            return Vec::new();
        };
        let mut out = Vec::new();
        let mut s = right(b, self.seats);
        while s != b && out.len() < usize::from(self.seats) {
            out.push(s);
            s = right(s, self.seats);
        }
        out
    }

    /// Whether some non-banker seat can bet `lo` (D-10).
    pub(super) fn anyone_can_bet(&self) -> bool {
        let (lo, _) = self.bet_limits();
        self.players_in_order().iter().any(|p| self.bal(*p) >= lo)
    }

    pub(super) fn duel_player(&self) -> Option<SeatIndex> {
        self.duel.as_ref().map(|d| d.player)
    }

    pub(super) fn player_total(&self) -> u32 {
        total(self.duel_cards().iter().map(|p| p.face))
    }

    pub(super) fn banker_total(&self) -> u32 {
        total(self.banker_cards().iter().map(|p| p.face))
    }

    /// The shuffle a pending `reason` asks for: the whole deck, or (a restock) exactly the
    /// discards, named by their refs.
    pub(super) fn shuffle_request(&self, reason: ShuffleReason) -> ShuffleRequest {
        if reason.is_full() {
            ShuffleRequest::deck(reason.as_str(), DeckKind::BistOYek36)
        } else {
            ShuffleRequest::gather(
                reason.as_str(),
                self.zones.refs_in(DISCARD),
                self.zones.faces(DISCARD),
            )
        }
    }
}

/// The hand's result (see [`crate::engine::Game::outcome`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// The hand's number in the match.
    pub turn: u32,
    /// Who banked, if anyone accepted.
    pub banker: Option<SeatIndex>,
    /// What the banker posted (0 if nobody banked).
    pub stake: Toman,
    /// What the banker took from the bank at the end of his turn (step G or `EndMatch`).
    pub taken: Toman,
    /// Each seat's net result over the hand (balance after − balance before).
    pub net: Vec<i64>,
    /// Balances after the hand.
    pub balances: Vec<Toman>,
    /// Why the turn ended.
    pub reason: EndReason,
    /// Whether the match is over.
    pub match_over: bool,
}

fn net(after: Toman, before: Toman) -> i64 {
    let d = i128::from(after) - i128::from(before);
    i64::try_from(d).unwrap_or(if d < 0 { i64::MIN } else { i64::MAX })
}

pub(super) fn outcome(s: &State) -> Option<Outcome> {
    if !s.phase.is_over() {
        return None;
    }
    let reason = s.end?;
    Some(Outcome {
        turn: s.turn,
        banker: s.banker,
        stake: s.stake,
        taken: s.taken.unwrap_or(0),
        net: s
            .balance
            .iter()
            .zip(s.opening.iter())
            .map(|(a, b)| net(*a, *b))
            .collect(),
        balances: s.balance.clone(),
        reason,
        match_over: s.phase == Phase::MatchOver,
    })
}

pub(super) fn next_match(s: &State) -> Option<Match> {
    if !s.phase.is_over() {
        return None;
    }
    let candidate = match s.banker {
        Some(b) => right(b, s.seats),
        None => s.candidate,
    };
    Some(Match {
        seats: s.seats,
        balances: s.balance.clone(),
        candidate,
        declines: 0,
        over: s.phase == Phase::MatchOver,
        turn: s.turn.saturating_add(1),
    })
}

/// Each seat's typed result: its net in toman (see [`crate::engine::Game::results`]).
pub(super) fn results(o: &Outcome) -> Vec<crate::engine::SeatResult> {
    use crate::engine::{Judged, SeatResult};
    (0u8..)
        .zip(&o.net)
        .map(|(i, net)| SeatResult {
            seat: SeatIndex(i),
            delta: *net,
            judged: match net {
                n if *n > 0 => Judged::Won,
                n if *n < 0 => Judged::Lost,
                _ => Judged::Even,
            },
            title: None,
        })
        .collect()
}

/// Balances, and the next seat offered the bank (see [`crate::engine::Game::standings`]).
pub(super) fn standings(m: &Match) -> crate::engine::Standings {
    use crate::engine::{ScoreUnit, Standings};
    Standings {
        unit: ScoreUnit::Toman,
        per_seat: m
            .balances
            .iter()
            .map(|b| i64::try_from(*b).unwrap_or(i64::MAX))
            .collect(),
        sides: Vec::new(),
        next: (!m.over).then(|| ("banker".to_string(), m.candidate)),
        over: m.over,
    }
}
