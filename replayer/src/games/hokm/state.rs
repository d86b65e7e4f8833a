//! Match, set-up, phases and the full-information hand state (spec §14.1).

use serde::{Deserialize, Serialize};

use super::rules::{Rules, SuitCode, TrumpMethod};
use crate::cards::{Card, DeckKind, Suit};
use crate::engine::{
    GameId, HouseRules, Judged, ScoreUnit, SeatIndex, SeatResult, SetupError, ShuffleRequest,
    Standings,
};
use crate::zones::{ZoneId, Zones};

/// Fewest seats.
pub const MIN_SEATS: u8 = 2;
/// Most seats.
pub const MAX_SEATS: u8 = 4;
/// Largest score a side may carry in a match state (deuce can run past the target).
pub const MAX_SCORE: u32 = 10_000;
/// Tricks that win a hand (§10.1).
pub const TRICKS_TO_WIN: u8 = 7;

/// The face-down rest of the hakem-draw deck.
pub(super) const DRAW_PILE: ZoneId = ZoneId::Pile(0);
/// The hakem's packets held back while a partner method runs (§7.7), seen by nobody.
pub(super) const WITHHELD: ZoneId = ZoneId::Pile(1);
/// The face-up cards turned in the hakem draw.
pub(super) const DRAWN: ZoneId = ZoneId::Table;

/// Match set-up: JSON `{"seats": n}`. The first hand starts with the hakem draw: the
/// hakem "must be chosen by lot" (000/004: "حاکم حتمأ باید با قرعه کشی انتخاب شود"), so
/// the set-up cannot name him.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    /// 2, 3 or 4.
    pub seats: u8,
}

/// What passes from hand to hand (§11). Validated when read: lengths fit the seat count,
/// numbers are bounded.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "RawMatch")]
pub struct Match {
    /// Number of seats.
    pub seats: u8,
    /// Points of each side in the current round (4p: team 0 = seats 0, 2; team 1 = seats
    /// 1, 3; 2p/3p: one side per seat).
    pub scores: Vec<u32>,
    /// Rounds won by each side.
    pub rounds: Vec<u8>,
    /// The hakem of the next hand; `None` before the first hand (and after a round under
    /// `new_round_hakem = redraw`): the hand starts with the hakem draw.
    pub hakem: Option<SeatIndex>,
    /// 2p: deuce was triggered in this round (§11.4).
    pub deuce: bool,
    /// Whether the match is over.
    pub over: bool,
    /// The side that won the match.
    pub winner: Option<u8>,
    /// The number of the next hand, from 1.
    pub hand: u32,
    /// The seats in table order (counter-clockwise); `[0, 1, …]` unless a `by_draw`
    /// partnership draw reseated the players (§5.3).
    pub seating: Vec<SeatIndex>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMatch {
    seats: u8,
    scores: Vec<u32>,
    rounds: Vec<u8>,
    hakem: Option<SeatIndex>,
    deuce: bool,
    over: bool,
    winner: Option<u8>,
    hand: u32,
    seating: Vec<SeatIndex>,
}

impl TryFrom<RawMatch> for Match {
    type Error = String;

    fn try_from(r: RawMatch) -> Result<Self, String> {
        let m = Match {
            seats: r.seats,
            scores: r.scores,
            rounds: r.rounds,
            hakem: r.hakem,
            deuce: r.deuce,
            over: r.over,
            winner: r.winner,
            hand: r.hand,
            seating: r.seating,
        };
        check_match(&m)?;
        Ok(m)
    }
}

fn check_match(m: &Match) -> Result<(), String> {
    let n = m.seats;
    if !(MIN_SEATS..=MAX_SEATS).contains(&n) {
        return Err(format!("hokm is played by 2 to 4 seats, not {n}"));
    }
    let sides = usize::from(sides(n));
    if m.scores.len() != sides || m.rounds.len() != sides {
        return Err(format!(
            "{} scores and {} rounds for {sides} sides",
            m.scores.len(),
            m.rounds.len()
        ));
    }
    if m.scores.iter().any(|s| *s > MAX_SCORE) {
        return Err(format!("a score above {MAX_SCORE}"));
    }
    if m.rounds.iter().any(|r| *r > 3) {
        return Err("more than 3 rounds won".into());
    }
    if m.hakem.is_some_and(|h| h.0 >= n) {
        return Err(format!("the hakem is not one of the {n} seats"));
    }
    if m.winner.is_some_and(|w| usize::from(w) >= sides) || m.winner.is_some() != m.over {
        return Err("the winner must be a side, given exactly when the match is over".into());
    }
    if m.hand == 0 {
        return Err("hand numbers count from 1".into());
    }
    let mut sorted = m.seating.clone();
    sorted.sort();
    if sorted != identity(n) {
        return Err(format!("the seating must order the seats 0 to {}", n - 1));
    }
    if n != 4 && m.seating != identity(n) {
        return Err("only 4 players are ever reseated".into());
    }
    Ok(())
}

pub use crate::games::tricks::{identity, plus, right, side_of, side_seats, sides};

/// The dealer (pasur, پاسور) for hakem `h`: his left, `h − 1` (§5.1).
pub fn dealer(h: SeatIndex, t: &[SeatIndex]) -> SeatIndex {
    plus(h, u8::try_from(t.len().saturating_sub(1)).unwrap_or(0), t)
}

/// The cutter for hakem `h`: the dealer's left, `h − 2` (§5.1, §6.2).
pub fn cutter(h: SeatIndex, t: &[SeatIndex]) -> SeatIndex {
    plus(h, u8::try_from(t.len().saturating_sub(2)).unwrap_or(0), t)
}

/// Cards per player: 13, or 17 with 3 players (§3.1, D1).
pub fn hand_size(n: u8) -> u8 {
    if n == 3 {
        17
    } else {
        13
    }
}

/// Deal rounds: 5 then 4s (§6.3); 2 players get one round of 5.
pub fn deal_rounds(n: u8) -> u8 {
    match n {
        3 => 4,
        4 => 3,
        _ => 1,
    }
}

/// One packet of the deal (§6.3): round `round` (0 first), to `seat`, at deal positions
/// `start .. start + size`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Packet {
    pub round: u8,
    pub seat: SeatIndex,
    pub start: u32,
    pub size: u32,
}

/// Every packet of the deal, in order, for hakem `h` at table `t`.
pub(super) fn deal_plan(h: SeatIndex, t: &[SeatIndex]) -> Vec<Packet> {
    let n = u8::try_from(t.len()).unwrap_or(0);
    let mut out = Vec::new();
    let mut start = 0u32;
    for round in 0..deal_rounds(n) {
        let size = if round == 0 { 5 } else { 4 };
        for o in 0..n {
            out.push(Packet {
                round,
                seat: plus(h, o, t),
                start,
                size,
            });
            start = start.saturating_add(size);
        }
    }
    out
}

/// Why a committed shuffle is asked for (§6.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ShuffleReason {
    /// The hakem draw: a full 52-card deck.
    Draw,
    /// A deal (also after a ten-low redeal): the playing deck.
    Deal,
}

impl ShuffleReason {
    /// As written in the shuffle request.
    pub fn as_str(self) -> &'static str {
        match self {
            ShuffleReason::Draw => "draw",
            ShuffleReason::Deal => "deal",
        }
    }
}

/// A colour of the sar-e ghermez / sar-e siah methods.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Colour {
    /// ♦ ♥.
    Red,
    /// ♣ ♠.
    Black,
}

impl Colour {
    /// The colour's two suits.
    pub fn suits(self) -> [Suit; 2] {
        match self {
            Colour::Red => [Suit::Diamonds, Suit::Hearts],
            Colour::Black => [Suit::Clubs, Suit::Spades],
        }
    }
}

/// The phase of a hand (§14.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "name", rename_all = "snake_case")]
pub enum Phase {
    /// Waiting for a committed shuffle.
    AwaitShuffle {
        /// Which.
        reason: ShuffleReason,
    },
    /// The cutter cuts the face-down deck.
    AwaitingCut,
    /// The hakem fixes trump (or asks for a ten-low redeal).
    AwaitingTrump,
    /// A partner method did not decide: the hakem declares; `colour` limits the suits
    /// to that colour's (§7.4 step 4), `None` = any suit.
    FallbackTrump {
        /// The colour whose suits are allowed, if limited.
        colour: Option<Colour>,
    },
    /// 2p: `seat` discards (§8.1).
    AwaitingDiscard {
        /// Who discards.
        seat: SeatIndex,
    },
    /// 2p: draw turn `turn` (1 to 21, §8.2).
    DrawTurn {
        /// The turn.
        turn: u8,
    },
    /// 4p `dealer_peek`: the dealer may look at one partner packet (§12.5).
    AwaitingDealerPeek,
    /// Tricks are played.
    Playing,
    /// `seat` (winner of the 7th trick at 7-0) chooses bam or not (§10.5).
    AwaitingBam {
        /// Who decides.
        seat: SeatIndex,
    },
    /// The hand is over.
    HandOver,
}

impl Phase {
    /// The phase's name, for messages.
    pub fn name(self) -> &'static str {
        match self {
            Phase::AwaitShuffle { .. } => "AwaitShuffle",
            Phase::AwaitingCut => "AwaitingCut",
            Phase::AwaitingTrump => "AwaitingTrump",
            Phase::FallbackTrump { .. } => "AwaitingFallbackTrump",
            Phase::AwaitingDiscard { .. } => "AwaitingDiscard",
            Phase::DrawTurn { .. } => "DrawTurn",
            Phase::AwaitingDealerPeek => "AwaitingDealerPeek",
            Phase::Playing => "Playing",
            Phase::AwaitingBam { .. } => "AwaitingBamDecision",
            Phase::HandOver => "HandOver",
        }
    }
}

/// How a hand was won (§10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WinKind {
    /// 7 tricks, the others had some.
    Plain,
    /// Kot (کوت): the hakem's side won 7-0.
    Kot,
    /// Por kot (پر کوت, "full kot"): the hakem's opponents won 7-0.
    PorKot,
    /// Kot at six (§10.6) scored 1 instead of 2 or 3.
    KotAtSix,
    /// 3p: nobody reached 7 and the player with 5 won (§10.4).
    SixSixFive,
    /// Bam completed: every trick (§10.5).
    Bam,
}

/// Why the match ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchEnd {
    /// A side won `rounds_to_win` rounds.
    Rounds,
    /// Bam.
    Bam,
}

/// A hand in progress with full information. Every card is in `zones`; no face is kept
/// anywhere else. Never show it to anyone: use the engine's `view`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub(super) rules: Rules,
    pub(super) n: u8,
    /// The match as the hand started.
    pub(super) start: Match,
    /// The match as it stands (scores, rounds, hakem for the next hand).
    pub(super) now: Match,
    pub(super) zones: Zones,
    /// Committed shuffles installed so far (= the next one's number).
    pub(super) shuffles: u32,
    pub(super) phase: Phase,
    pub(super) hakem: Option<SeatIndex>,
    /// The seat of each card turned in the hakem draw, in order (the faces are in the
    /// zone of drawn cards).
    pub(super) draw_seats: Vec<SeatIndex>,
    /// The current deal's shuffle, its size and its cut.
    pub(super) deal_shuffle: Option<u32>,
    pub(super) deck_len: u32,
    pub(super) cut: u32,
    pub(super) redeals: u32,
    pub(super) trump: Option<Suit>,
    pub(super) method: Option<TrumpMethod>,
    /// Who leads the current trick.
    pub(super) leader: SeatIndex,
    /// Tricks won by each seat.
    pub(super) won: Vec<u8>,
    /// The side attempting bam.
    pub(super) bam: Option<u8>,
    /// The dealer's peek was taken or declined.
    pub(super) peeked: bool,
    /// The hand's winner and how.
    pub(super) result: Option<(u8, WinKind)>,
    /// Points each side gained in this hand (the hand's score and penalties).
    pub(super) gained: Vec<u32>,
}

fn seats_error(found: usize) -> SetupError {
    SetupError::Seats {
        game: GameId::Hokm,
        min: MIN_SEATS,
        max: MAX_SEATS,
        found,
    }
}

/// Start a match.
pub(super) fn new_match(rules: &Rules, setup: &Setup) -> Result<Match, SetupError> {
    rules.validate()?;
    let n = setup.seats;
    if !(MIN_SEATS..=MAX_SEATS).contains(&n) {
        return Err(seats_error(usize::from(n)));
    }
    rules.validate_for(n)?;
    let k = usize::from(sides(n));
    Ok(Match {
        seats: n,
        scores: vec![0; k],
        rounds: vec![0; k],
        hakem: None,
        deuce: false,
        over: false,
        winner: None,
        hand: 1,
        seating: identity(n),
    })
}

/// The playing deck (§3.1): 51 cards with 3 players.
pub(super) fn playing_deck(rules: &Rules, n: u8) -> DeckKind {
    if n == 3 {
        DeckKind::Hokm51 {
            removed_two: rules.removed_two.0,
        }
    } else {
        DeckKind::Standard52
    }
}

/// Start a hand: the hakem draw if no hakem is known, else the deal shuffle.
pub(super) fn new_hand(rules: &Rules, m: &Match) -> Result<State, SetupError> {
    rules.validate()?;
    check_match(m).map_err(SetupError::Match)?;
    rules.validate_for(m.seats)?;
    if m.over {
        return Err(SetupError::MatchOver);
    }
    let n = m.seats;
    let reason = if m.hakem.is_some() {
        ShuffleReason::Deal
    } else {
        ShuffleReason::Draw
    };
    Ok(State {
        rules: rules.clone(),
        n,
        start: m.clone(),
        now: m.clone(),
        zones: Zones::new(),
        shuffles: 0,
        phase: Phase::AwaitShuffle { reason },
        hakem: m.hakem,
        draw_seats: Vec::new(),
        deal_shuffle: None,
        deck_len: 0,
        cut: 0,
        redeals: 0,
        trump: None,
        method: None,
        leader: m.hakem.unwrap_or(SeatIndex(0)),
        won: vec![0; usize::from(n)],
        bam: None,
        peeked: false,
        result: None,
        gained: vec![0; usize::from(sides(n))],
    })
}

impl State {
    /// The phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The hakem, once known.
    pub fn hakem(&self) -> Option<SeatIndex> {
        self.hakem
    }

    /// Trump, once fixed.
    pub fn trump(&self) -> Option<Suit> {
        self.trump
    }

    /// The match as it stands.
    pub fn match_now(&self) -> &Match {
        &self.now
    }

    /// Every card of the hand.
    pub fn zones(&self) -> &Zones {
        &self.zones
    }

    /// Tricks won by each side.
    pub fn side_tricks(&self) -> Vec<u8> {
        let mut v = vec![0u8; usize::from(sides(self.n))];
        for (i, w) in (0u8..).zip(&self.won) {
            if let Some(x) = v.get_mut(usize::from(side_of(SeatIndex(i), self.table()))) {
                *x = x.saturating_add(*w);
            }
        }
        v
    }

    /// Tricks played so far.
    pub fn tricks_played(&self) -> u8 {
        self.won.iter().fold(0u8, |a, w| a.saturating_add(*w))
    }

    /// The seat to play in the current trick.
    pub fn to_play(&self) -> SeatIndex {
        let k = u8::try_from(self.zones.len(ZoneId::Trick)).unwrap_or(0);
        plus(self.leader, k, self.table())
    }

    /// The seats in table order.
    pub fn table(&self) -> &[SeatIndex] {
        &self.now.seating
    }

    /// The faces of `seat`'s hand (for the rules only).
    pub(super) fn hand_faces(&self, seat: SeatIndex) -> Vec<Card> {
        self.zones.faces(ZoneId::Hand(seat))
    }

    /// The shuffle a pending `reason` asks for.
    pub(super) fn shuffle_request(&self, reason: ShuffleReason) -> ShuffleRequest {
        match reason {
            ShuffleReason::Draw => ShuffleRequest::deck("draw", DeckKind::Standard52),
            ShuffleReason::Deal => ShuffleRequest::deck("deal", playing_deck(&self.rules, self.n)),
        }
    }
}

/// The hand's result (see [`crate::engine::Game::outcome`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Outcome {
    /// The hand's number in the match.
    pub hand: u32,
    /// Number of seats.
    pub seats: u8,
    /// The hakem (none if the match ended before the draw finished).
    pub hakem: Option<SeatIndex>,
    /// Trump, if fixed.
    pub trump: Option<SuitCode>,
    /// Tricks won by each side.
    pub tricks: Vec<u8>,
    /// The side that won the hand and how (none if a penalty ended the match first).
    pub winner: Option<u8>,
    /// How.
    pub kind: Option<WinKind>,
    /// Points each side gained in this hand (hand score plus penalties).
    pub points: Vec<u32>,
    /// The match after the hand.
    pub next: Match,
}

pub(super) fn outcome(s: &State) -> Option<Outcome> {
    if s.phase != Phase::HandOver {
        return None;
    }
    Some(Outcome {
        hand: s.start.hand,
        seats: s.n,
        hakem: s.hakem,
        trump: s.trump.map(SuitCode),
        tricks: s.side_tricks(),
        winner: s.result.map(|r| r.0),
        kind: s.result.map(|r| r.1),
        points: s.gained.clone(),
        next: next_of(s),
    })
}

fn next_of(s: &State) -> Match {
    let mut m = s.now.clone();
    m.hand = m.hand.saturating_add(1);
    m
}

pub(super) fn next_match(s: &State) -> Option<Match> {
    (s.phase == Phase::HandOver).then(|| next_of(s))
}

pub(super) fn results(o: &Outcome) -> Vec<SeatResult> {
    (0..o.seats)
        .map(|i| {
            let seat = SeatIndex(i);
            let side = side_of(seat, &o.next.seating);
            let pts = o.points.get(usize::from(side)).copied().unwrap_or(0);
            let judged = match (o.winner, o.next.winner) {
                (Some(w), _) | (None, Some(w)) if w == side => Judged::Won,
                (Some(_), _) | (None, Some(_)) => Judged::Lost,
                (None, None) => Judged::Even,
            };
            SeatResult {
                seat,
                delta: i64::from(pts),
                judged,
                title: None,
            }
        })
        .collect()
}

pub(super) fn standings(m: &Match) -> Standings {
    Standings {
        unit: ScoreUnit::Points,
        per_seat: (0..m.seats)
            .map(|i| {
                let side = side_of(SeatIndex(i), &m.seating);
                i64::from(m.scores.get(usize::from(side)).copied().unwrap_or(0))
            })
            .collect(),
        sides: side_seats(&m.seating),
        next: if m.over {
            None
        } else {
            m.hakem.map(|h| ("hakem".to_string(), h))
        },
        over: m.over,
    }
}
