//! Match, set-up, phases and the full-information hand state (spec §5.1).

use serde::{Deserialize, Serialize};

use super::rules::Rules;
use crate::cards::{Card, DeckKind, Rank};
use crate::engine::{
    GameId, HouseRules, Judged, ScoreUnit, SeatIndex, SeatResult, SetupError, ShuffleRequest,
    Standings,
};
use crate::zones::Zones;

/// Fewest seats.
pub const MIN_SEATS: u8 = 2;
/// Most seats.
pub const MAX_SEATS: u8 = 4;
/// Cards played in every hand (§4.2): 52 less the 4 table cards.
pub const PLAYS: u8 = 48;
/// Largest score a side may carry in a match state.
pub const MAX_SCORE: u32 = 100_000;

/// Match set-up: JSON `{"seats": n, "first_dealer": s}` (`first_dealer` defaults to seat 0;
/// the spec leaves it to a lot drawn outside the engine, §3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    /// 2, 3 or 4.
    pub seats: u8,
    /// The dealer of the first hand.
    #[serde(default = "seat_zero")]
    pub first_dealer: SeatIndex,
}

fn seat_zero() -> SeatIndex {
    SeatIndex(0)
}

/// What passes from hand to hand (§7). Validated when read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "RawMatch")]
pub struct Match {
    /// Number of seats.
    pub seats: u8,
    /// Each side's cumulative score (4 in partnership: side 0 = seats 0 and 2, side 1 =
    /// seats 1 and 3; otherwise one side per seat).
    pub scores: Vec<u32>,
    /// The dealer of the next hand.
    pub dealer: SeatIndex,
    /// The number of the next hand, from 1.
    pub hand: u32,
    /// `tie_break_eligibility = tied_only`: the sides that tied at the top at or above the
    /// target, the only ones that can still win; empty otherwise.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub eligible: Vec<u8>,
    /// Whether the match is over.
    pub over: bool,
    /// The side that won the match.
    pub winner: Option<u8>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMatch {
    seats: u8,
    scores: Vec<u32>,
    dealer: SeatIndex,
    hand: u32,
    #[serde(default)]
    eligible: Vec<u8>,
    over: bool,
    winner: Option<u8>,
}

impl TryFrom<RawMatch> for Match {
    type Error = String;

    fn try_from(r: RawMatch) -> Result<Self, String> {
        let m = Match {
            seats: r.seats,
            scores: r.scores,
            dealer: r.dealer,
            hand: r.hand,
            eligible: r.eligible,
            over: r.over,
            winner: r.winner,
        };
        check_match(&m)?;
        Ok(m)
    }
}

fn check_match(m: &Match) -> Result<(), String> {
    let n = m.seats;
    if !(MIN_SEATS..=MAX_SEATS).contains(&n) {
        return Err(format!("pasur is played by 2 to 4 seats, not {n}"));
    }
    let k = m.scores.len();
    if !(k == usize::from(n) || (n == 4 && k == 2)) {
        return Err(format!("{k} scores for {n} seats (one per side)"));
    }
    if m.scores.iter().any(|s| *s > MAX_SCORE) {
        return Err(format!("a score above {MAX_SCORE}"));
    }
    if m.dealer.0 >= n {
        return Err(format!("the dealer is not one of the {n} seats"));
    }
    if m.hand == 0 {
        return Err("hand numbers count from 1".into());
    }
    if m.eligible.iter().any(|s| usize::from(*s) >= k) {
        return Err("an eligible side that is not a side".into());
    }
    if m.winner.is_some_and(|w| usize::from(w) >= k) || m.winner.is_some() != m.over {
        return Err("the winner must be a side, given exactly when the match is over".into());
    }
    Ok(())
}

/// The number of sides for `n` seats under `rules` (§3).
pub fn side_count(rules: &Rules, n: u8) -> u8 {
    if rules.partnership(n) {
        2
    } else {
        n
    }
}

/// The side of `seat` when there are `sides` sides at a table of `n` (§3).
pub fn side_of(seat: SeatIndex, n: u8, sides: u8) -> u8 {
    if sides < n && sides > 0 {
        seat.0 % sides
    } else {
        seat.0
    }
}

/// The seats of each side.
pub fn side_seats(n: u8, sides: u8) -> Vec<Vec<SeatIndex>> {
    (0..sides)
        .map(|side| {
            (0..n)
                .map(SeatIndex)
                .filter(|s| side_of(*s, n, sides) == side)
                .collect()
        })
        .collect()
}

/// Deals in a hand, `D` (§4.2): 6, 4 or 3.
pub fn deals(n: u8) -> u8 {
    match n {
        2 => 6,
        3 => 4,
        _ => 3,
    }
}

/// A card's value in a sum, for a numeral (A = 1, 2–10 face value); `None` for J, Q, K
/// (D4).
pub fn value(c: Card) -> Option<u8> {
    match c.rank()? {
        Rank::Ace => Some(1),
        Rank::Jack | Rank::Queen | Rank::King => None,
        r => Some(r.pips()),
    }
}

/// The phase of a hand (§5.1; dealing and scoring are automatic steps, not phases anyone
/// waits in).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "name", rename_all = "snake_case")]
pub enum Phase {
    /// Waiting for the hand's committed shuffle.
    AwaitShuffle,
    /// Cards are played.
    Playing,
    /// The hand is over and scored.
    HandOver,
}

impl Phase {
    /// The phase's name, for messages.
    pub fn name(self) -> &'static str {
        match self {
            Phase::AwaitShuffle => "AwaitShuffle",
            Phase::Playing => "Playing",
            Phase::HandOver => "HandOver",
        }
    }
}

/// One side's points in a hand (§6.2).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideScore {
    /// The side.
    pub side: u8,
    /// Cards captured (leftovers included).
    pub cards: u32,
    /// Aces captured, 1 point each.
    pub aces: u32,
    /// Jacks captured, 1 point each.
    pub jacks: u32,
    /// Whether it captured the 2 of clubs (2 points).
    pub two_of_clubs: bool,
    /// Whether it captured the 10 of diamonds (3 points).
    pub ten_of_diamonds: bool,
    /// Clubs captured.
    pub clubs: u32,
    /// Whether it gets the clubs bonus (7 points).
    pub clubs_bonus: bool,
    /// Surs scored, 5 points each.
    pub surs: u32,
    /// The hand's points.
    pub points: u32,
}

/// A sur (سور, a capture that empties the table, §5.5), as the replay page marks it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SurMark {
    /// Who.
    pub seat: SeatIndex,
    /// The play's number in the hand, 1 to 48.
    pub play: u8,
}

/// A hand in progress with full information. Every card is in `zones`; no face is kept
/// anywhere else. Never show it to anyone: use the engine's `view`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub(super) rules: Rules,
    pub(super) n: u8,
    pub(super) sides: u8,
    /// The match as the hand started.
    pub(super) start: Match,
    /// The match as it stands.
    pub(super) now: Match,
    pub(super) zones: Zones,
    /// Committed shuffles installed so far.
    pub(super) shuffles: u32,
    pub(super) phase: Phase,
    pub(super) dealer: SeatIndex,
    /// The current deal, 1 to D (0 before the first).
    pub(super) deal_no: u8,
    /// Plays so far, 0 to 48.
    pub(super) plays: u8,
    /// Whose turn it is.
    pub(super) turn: SeatIndex,
    pub(super) last_capturer: Option<SeatIndex>,
    /// Surs per side.
    pub(super) surs: Vec<u32>,
    pub(super) sur_marks: Vec<SurMark>,
    /// The hand's score per side, once scored.
    pub(super) scored: Vec<SideScore>,
}

fn seats_error(found: usize) -> SetupError {
    SetupError::Seats {
        game: GameId::Pasur,
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
    if setup.first_dealer.0 >= n {
        return Err(SetupError::Match(format!(
            "the first dealer is not one of the {n} seats"
        )));
    }
    Ok(Match {
        seats: n,
        scores: vec![0; usize::from(side_count(rules, n))],
        dealer: setup.first_dealer,
        hand: 1,
        eligible: Vec::new(),
        over: false,
        winner: None,
    })
}

/// Start a hand: it waits for the committed shuffle of the 52 cards.
pub(super) fn new_hand(rules: &Rules, m: &Match) -> Result<State, SetupError> {
    rules.validate()?;
    check_match(m).map_err(SetupError::Match)?;
    rules.validate_for(m.seats)?;
    let sides = side_count(rules, m.seats);
    if m.scores.len() != usize::from(sides) {
        return Err(SetupError::Match(format!(
            "{} scores, but the house rules make {sides} sides",
            m.scores.len()
        )));
    }
    if m.over {
        return Err(SetupError::MatchOver);
    }
    Ok(State {
        rules: rules.clone(),
        n: m.seats,
        sides,
        start: m.clone(),
        now: m.clone(),
        zones: Zones::new(),
        shuffles: 0,
        phase: Phase::AwaitShuffle,
        dealer: m.dealer,
        deal_no: 0,
        plays: 0,
        turn: m.dealer.right(m.seats),
        last_capturer: None,
        surs: vec![0; usize::from(sides)],
        sur_marks: Vec::new(),
        scored: Vec::new(),
    })
}

impl State {
    /// The phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Whose turn it is.
    pub fn turn(&self) -> SeatIndex {
        self.turn
    }

    /// The dealer of this hand.
    pub fn dealer(&self) -> SeatIndex {
        self.dealer
    }

    /// Plays so far.
    pub fn plays(&self) -> u8 {
        self.plays
    }

    /// The current deal (1 to D).
    pub fn deal_no(&self) -> u8 {
        self.deal_no
    }

    /// Surs per side.
    pub fn surs(&self) -> &[u32] {
        &self.surs
    }

    /// The match as it stands.
    pub fn match_now(&self) -> &Match {
        &self.now
    }

    /// Every card of the hand.
    pub fn zones(&self) -> &Zones {
        &self.zones
    }

    /// The side of `seat`.
    pub fn side(&self, seat: SeatIndex) -> u8 {
        side_of(seat, self.n, self.sides)
    }

    /// The shuffle the hand waits for.
    pub(super) fn shuffle_request(&self) -> ShuffleRequest {
        ShuffleRequest::deck("deal", DeckKind::Standard52)
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
    /// The dealer.
    pub dealer: SeatIndex,
    /// The last capturer, who took the leftovers (none if nobody captured, D19).
    pub last_capturer: Option<SeatIndex>,
    /// Each side's points, item by item.
    pub sides: Vec<SideScore>,
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
        dealer: s.dealer,
        last_capturer: s.last_capturer,
        sides: s.scored.clone(),
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
    let sides = u8::try_from(o.next.scores.len()).unwrap_or(0);
    let best = o.sides.iter().map(|x| x.points).max().unwrap_or(0);
    let top = o.sides.iter().filter(|x| x.points == best).count();
    (0..o.seats)
        .map(|i| {
            let seat = SeatIndex(i);
            let side = side_of(seat, o.seats, sides);
            let pts = o
                .sides
                .iter()
                .find(|x| x.side == side)
                .map_or(0, |x| x.points);
            let judged = match o.next.winner {
                Some(w) if w == side => Judged::Won,
                Some(_) => Judged::Lost,
                None if pts == best && top == 1 => Judged::Won,
                None if pts == best => Judged::Even,
                None => Judged::Lost,
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
    let sides = u8::try_from(m.scores.len()).unwrap_or(0);
    Standings {
        unit: ScoreUnit::Points,
        per_seat: (0..m.seats)
            .map(|i| {
                let side = side_of(SeatIndex(i), m.seats, sides);
                i64::from(m.scores.get(usize::from(side)).copied().unwrap_or(0))
            })
            .collect(),
        sides: if sides < m.seats {
            side_seats(m.seats, sides)
        } else {
            Vec::new()
        },
        next: (!m.over).then(|| ("dealer".to_string(), m.dealer)),
        over: m.over,
    }
}
