//! Match, set-up, phases, the score sheet and the full-information hand state (spec §15).

use serde::{Deserialize, Serialize};

use super::rules::{Dest, Packet, Rules};
use crate::cards::{Card, DeckKind, Rank, Suit};
use crate::engine::{
    GameId, Judged, ScoreUnit, SeatIndex, SeatResult, SetupError, ShuffleRequest, Standings,
};
use crate::games::tricks::{self, SuitCode};
use crate::zones::{ZoneId, Zones};

/// Fewest seats.
pub const MIN_SEATS: u8 = 2;
/// Most seats.
pub const MAX_SEATS: u8 = 4;
/// Lowest bid (§6.2).
pub const MIN_BID: u32 = 100;
/// Highest bid: the whole hand (§6.6).
pub const MAX_BID: u32 = 165;
/// Bids go in fives (§6.2).
pub const BID_STEP: u32 = 5;
/// Tricks played in a hand (§8.1).
pub const TRICKS: u8 = 12;
/// Every point of a hand (§3.5).
pub const HAND_POINTS: u32 = 165;
/// Largest total (either sign) a match state may carry.
pub const MAX_TOTAL: i64 = 10_000_000;
/// Most rows a match's score sheet may hold.
pub const MAX_ROWS: usize = 10_000;

/// The widow, face down (seen by nobody until the hakem takes it).
pub(super) const WIDOW: ZoneId = ZoneId::Pile(0);

/// 2 players: the zone of pile `pile` (1 to 3) of `seat`.
pub(super) fn pile_zone(seat: SeatIndex, pile: u8) -> ZoneId {
    ZoneId::Pile(seat.0.saturating_mul(3).saturating_add(pile))
}

/// Match set-up: JSON `{"seats": 4, "first_dealer": 0}`. The first dealer is chosen by lot
/// outside the engine (§5.1) and given here (default seat 0).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    /// 4, or 2 for the 2-player variant (§13).
    pub seats: u8,
    /// The first dealer.
    #[serde(default = "seat0")]
    pub first_dealer: SeatIndex,
}

fn seat0() -> SeatIndex {
    SeatIndex(0)
}

/// How a hand ended for the sheet (§10, §12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HandKind {
    /// The hakem team took every trick.
    Shelem,
    /// The contract was made.
    Made,
    /// The hakem team took less than the opponents.
    Yasa,
    /// The contract failed.
    Failed,
    /// Every player passed.
    PassedOut,
}

/// One row of the score sheet (§12): the hand, its bid in the middle column and the two
/// teams' running totals. Teams: 4 players, team 0 = seats 0 and 2, team 1 = seats 1 and 3;
/// 2 players, each seat its own team.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Row {
    /// The hand's number, from 1 (passed-out deals included).
    pub hand_no: u32,
    /// The dealer.
    pub dealer: SeatIndex,
    /// The hakem (none when passed out).
    pub hakem: Option<SeatIndex>,
    /// The contract (none when passed out): the middle column.
    pub bid: Option<u32>,
    /// Points of the hakem team (H), when played.
    pub h: Option<u32>,
    /// Points of the opponents (O), when played.
    pub o: Option<u32>,
    /// How the hand ended.
    pub outcome: HandKind,
    /// The hand's score per team.
    pub delta: [i64; 2],
    /// The running totals per team after the hand: the left and right columns.
    pub total: [i64; 2],
    /// A line under the bid: the deal comes back to the first dealer next.
    pub rule_below: bool,
}

/// What passes from hand to hand (§15). Validated when read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "RawMatch")]
pub struct Match {
    /// 4 or 2.
    pub seats: u8,
    /// The first dealer of the match.
    pub first_dealer: SeatIndex,
    /// The dealer of the next hand.
    pub dealer: SeatIndex,
    /// The next hand's number, from 1.
    pub hand: u32,
    /// The teams' running totals.
    pub totals: [i64; 2],
    /// The score sheet, one row per hand.
    pub sheet: Vec<Row>,
    /// Whether the match is over.
    pub over: bool,
    /// The winning team.
    pub winner: Option<u8>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMatch {
    seats: u8,
    first_dealer: SeatIndex,
    dealer: SeatIndex,
    hand: u32,
    totals: [i64; 2],
    sheet: Vec<Row>,
    over: bool,
    winner: Option<u8>,
}

impl TryFrom<RawMatch> for Match {
    type Error = String;

    fn try_from(r: RawMatch) -> Result<Self, String> {
        let m = Match {
            seats: r.seats,
            first_dealer: r.first_dealer,
            dealer: r.dealer,
            hand: r.hand,
            totals: r.totals,
            sheet: r.sheet,
            over: r.over,
            winner: r.winner,
        };
        check_match(&m)?;
        Ok(m)
    }
}

fn check_match(m: &Match) -> Result<(), String> {
    let n = m.seats;
    if n != 2 && n != 4 {
        return Err(format!("shelem is played by 4 or 2 seats, not {n}"));
    }
    if m.first_dealer.0 >= n || m.dealer.0 >= n {
        return Err(format!("the dealer is not one of the {n} seats"));
    }
    if m.totals.iter().any(|t| t.abs() > MAX_TOTAL) {
        return Err(format!("a total beyond ±{MAX_TOTAL}"));
    }
    if m.winner.is_some_and(|w| w > 1) || m.winner.is_some() != m.over {
        return Err("the winner must be a team, given exactly when the match is over".into());
    }
    if m.hand == 0 {
        return Err("hand numbers count from 1".into());
    }
    if m.sheet.len() > MAX_ROWS {
        return Err(format!("more than {MAX_ROWS} rows on the sheet"));
    }
    let mut total = [0i64; 2];
    for (i, row) in m.sheet.iter().enumerate() {
        for (t, d) in total.iter_mut().zip(row.delta) {
            *t = t.saturating_add(d);
        }
        if row.total != total {
            return Err(format!("row {} of the sheet does not add up", i + 1));
        }
        if row.dealer.0 >= n || row.hakem.is_some_and(|h| h.0 >= n) {
            return Err(format!("row {} names a seat not at the table", i + 1));
        }
    }
    if total != m.totals {
        return Err("the totals are not the sum of the sheet".into());
    }
    Ok(())
}

/// A team: 4 players, `seat mod 2` (partners opposite); 2 players, the seat.
pub fn team(seat: SeatIndex, n: u8) -> u8 {
    if n == 4 {
        tricks::side_of(seat, &tricks::identity(4))
    } else {
        seat.0 % 2
    }
}

/// The counter value of a card (§3.3): 5 for a five, 10 for a ten or an ace.
pub fn points(c: Card) -> u32 {
    match c.rank() {
        Some(Rank::Five) => 5,
        Some(Rank::Ten | Rank::Ace) => 10,
        _ => 0,
    }
}

/// The phase of a hand (§15).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "name", rename_all = "snake_case")]
pub enum Phase {
    /// Waiting for the deal's committed shuffle.
    AwaitShuffle,
    /// The player on the dealer's left cuts (`cut = left_of_dealer`).
    AwaitingCut,
    /// The auction: `seat` bids or passes.
    Bidding {
        /// Whose turn.
        seat: SeatIndex,
    },
    /// The hakem lays 4 cards away (a private action).
    Exchange {
        /// The hakem.
        seat: SeatIndex,
    },
    /// Tricks are played.
    Playing,
    /// The hand is over.
    HandOver,
}

impl Phase {
    /// The phase's name, for messages.
    pub fn name(self) -> &'static str {
        match self {
            Phase::AwaitShuffle => "AwaitingDeal",
            Phase::AwaitingCut => "AwaitingCut",
            Phase::Bidding { .. } => "Bidding",
            Phase::Exchange { .. } => "Exchange",
            Phase::Playing => "Playing",
            Phase::HandOver => "HandOver",
        }
    }
}

/// One bid or pass of the auction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Call {
    /// Who.
    pub seat: SeatIndex,
    /// The bid, or `None` for a pass.
    pub bid: Option<u32>,
}

/// A hand in progress with full information. Every card is in `zones`; no face is kept
/// anywhere else. Never show it to anyone: use the engine's `view`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub(super) rules: Rules,
    pub(super) n: u8,
    /// The match as the hand started.
    pub(super) start: Match,
    /// The match as it stands.
    pub(super) now: Match,
    pub(super) zones: Zones,
    pub(super) phase: Phase,
    pub(super) dealer: SeatIndex,
    /// The deal's shuffle, once installed.
    pub(super) shuffled: bool,
    pub(super) cut: u32,
    /// The auction so far.
    pub(super) calls: Vec<Call>,
    /// The hakem and the contract, once the auction is won.
    pub(super) hakem: Option<SeatIndex>,
    pub(super) contract: Option<u32>,
    /// The hakem took the widow and laid 4 cards away.
    pub(super) laid: bool,
    pub(super) trump: Option<Suit>,
    /// Who leads the current trick.
    pub(super) leader: SeatIndex,
    /// Who played each card of the current trick, in order.
    pub(super) trick_seats: Vec<SeatIndex>,
    /// Tricks won by each seat.
    pub(super) won: Vec<u8>,
    /// The discards are shown (the count).
    pub(super) revealed: bool,
    /// 2p: the pile tops are turned (after position 2 of trick 1).
    pub(super) piles_open: bool,
    /// The hand's row on the sheet, once scored.
    pub(super) row: Option<Row>,
}

fn seats_error(found: usize) -> SetupError {
    SetupError::Seats {
        game: GameId::Shelem,
        min: MIN_SEATS,
        max: MAX_SEATS,
        found,
    }
}

/// Start a match.
pub(super) fn new_match(rules: &Rules, setup: &Setup) -> Result<Match, SetupError> {
    use crate::engine::HouseRules;
    rules.validate()?;
    let n = setup.seats;
    if n != 2 && n != 4 {
        return Err(seats_error(usize::from(n)));
    }
    rules.validate_for(n)?;
    if setup.first_dealer.0 >= n {
        return Err(SetupError::Match(format!(
            "the first dealer must be one of the {n} seats"
        )));
    }
    Ok(Match {
        seats: n,
        first_dealer: setup.first_dealer,
        dealer: setup.first_dealer,
        hand: 1,
        totals: [0, 0],
        sheet: Vec::new(),
        over: false,
        winner: None,
    })
}

/// Start a hand: the deal's committed shuffle is awaited.
pub(super) fn new_hand(rules: &Rules, m: &Match) -> Result<State, SetupError> {
    use crate::engine::HouseRules;
    rules.validate()?;
    check_match(m).map_err(SetupError::Match)?;
    rules.validate_for(m.seats)?;
    if m.over {
        return Err(SetupError::MatchOver);
    }
    let n = m.seats;
    Ok(State {
        rules: rules.clone(),
        n,
        start: m.clone(),
        now: m.clone(),
        zones: Zones::new(),
        phase: Phase::AwaitShuffle,
        dealer: m.dealer,
        shuffled: false,
        cut: 0,
        calls: Vec::new(),
        hakem: None,
        contract: None,
        laid: false,
        trump: None,
        leader: m.dealer,
        trick_seats: Vec::new(),
        won: vec![0; usize::from(n)],
        revealed: false,
        piles_open: false,
        row: None,
    })
}

impl State {
    /// The phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The dealer.
    pub fn dealer(&self) -> SeatIndex {
        self.dealer
    }

    /// The hakem, once the auction is won.
    pub fn hakem(&self) -> Option<SeatIndex> {
        self.hakem
    }

    /// The contract, once the auction is won.
    pub fn contract(&self) -> Option<u32> {
        self.contract
    }

    /// Trump, once led.
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

    /// The table order.
    pub fn table(&self) -> Vec<SeatIndex> {
        tricks::identity(self.n)
    }

    /// The seat `k` places right of `s`.
    pub fn plus(&self, s: SeatIndex, k: u8) -> SeatIndex {
        SeatIndex(s.0.saturating_add(k) % self.n.max(1))
    }

    /// The highest bid so far and its bidder.
    pub fn high(&self) -> Option<(SeatIndex, u32)> {
        self.calls
            .iter()
            .rev()
            .find_map(|c| c.bid.map(|b| (c.seat, b)))
    }

    /// Whether `seat` has passed.
    pub fn passed(&self, seat: SeatIndex) -> bool {
        self.calls.iter().any(|c| c.seat == seat && c.bid.is_none())
    }

    /// Tricks played so far (complete ones).
    pub fn tricks_played(&self) -> u8 {
        self.won.iter().fold(0u8, |a, w| a.saturating_add(*w))
    }

    /// Tricks won by each team.
    pub fn team_tricks(&self) -> [u8; 2] {
        let mut v = [0u8; 2];
        for (i, w) in (0u8..).zip(&self.won) {
            let t = usize::from(team(SeatIndex(i), self.n));
            v[t] = v[t].saturating_add(*w);
        }
        v
    }

    /// The seat to play the next card of the current trick. 4 players: round the table
    /// from the leader. 2 players: leader (hand), other (hand), leader (pile), other (pile).
    pub fn to_play(&self) -> SeatIndex {
        let k = u8::try_from(self.trick_seats.len()).unwrap_or(0);
        self.plus(self.leader, k)
    }

    /// 2 players: whether the next card comes from a pile (positions 3 and 4).
    pub fn from_pile(&self) -> bool {
        self.n == 2 && self.trick_seats.len() >= 2
    }

    /// 2 players: the index in pile `zone` of its top card, if any (§13.2 `pile_top`).
    pub(super) fn top_of(&self, zone: ZoneId) -> Option<usize> {
        let len = self.zones.len(zone);
        if len == 0 {
            return None;
        }
        Some(match self.rules.pile_top {
            super::rules::PileTop::FirstDealt => 0,
            super::rules::PileTop::LastDealt => len - 1,
        })
    }

    /// The committed shuffle this hand waits for: a fresh 52-card deck.
    pub(super) fn shuffle_request(&self) -> ShuffleRequest {
        ShuffleRequest::deck("deal", DeckKind::Standard52)
    }

    /// Where each packet of the deal goes: `(dest zone, seen by, start, size)`.
    pub(super) fn plan(&self) -> Vec<(Packet, ZoneId, u32)> {
        let mut out = Vec::new();
        let mut start = 0u32;
        for p in self.rules.schedule(self.n) {
            let zone = match p.dest {
                Dest::Hand { offset } => ZoneId::Hand(self.plus(self.dealer, offset)),
                Dest::Widow => WIDOW,
                Dest::Pile { offset, pile } => pile_zone(self.plus(self.dealer, offset), pile),
            };
            out.push((p, zone, start));
            start = start.saturating_add(u32::from(p.cards));
        }
        out
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
    /// Trump, if led.
    pub trump: Option<SuitCode>,
    /// Tricks won by each team.
    pub tricks: [u8; 2],
    /// The hand's row on the sheet.
    pub row: Row,
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
        trump: s.trump.map(SuitCode),
        tricks: s.team_tricks(),
        row: s.row.clone()?,
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

/// The seats of each team.
pub fn team_seats(n: u8) -> Vec<Vec<SeatIndex>> {
    (0..2u8)
        .map(|t| (0..n).map(SeatIndex).filter(|x| team(*x, n) == t).collect())
        .collect()
}

pub(super) fn results(o: &Outcome) -> Vec<SeatResult> {
    (0..o.seats)
        .map(|i| {
            let seat = SeatIndex(i);
            let t = usize::from(team(seat, o.seats));
            let delta = o.row.delta.get(t).copied().unwrap_or(0);
            let other = o.row.delta.get(1 - t).copied().unwrap_or(0);
            let judged = match o.next.winner {
                Some(w) if usize::from(w) == t => Judged::Won,
                Some(_) => Judged::Lost,
                None if o.row.outcome == HandKind::PassedOut => Judged::Even,
                None if delta > other => Judged::Won,
                None if delta < other => Judged::Lost,
                None => Judged::Even,
            };
            SeatResult {
                seat,
                delta,
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
                let t = usize::from(team(SeatIndex(i), m.seats));
                m.totals.get(t).copied().unwrap_or(0)
            })
            .collect(),
        sides: team_seats(m.seats),
        next: if m.over {
            None
        } else {
            Some(("dealer".to_string(), m.dealer))
        },
        over: m.over,
    }
}
