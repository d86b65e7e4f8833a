//! Match, set-up, phases and the full-information hand state (spec §14.1).

use serde::{Deserialize, Serialize};

use super::rules::Rules;
use crate::cards::{Card, DeckKind, Joker};
use crate::engine::{
    GameId, HouseRules, Judged, ScoreUnit, SeatIndex, SeatResult, SetupError, ShuffleRequest,
    Standings,
};
use crate::games::tricks::{self, plus, right};
use crate::zones::{ZoneId, Zones};

/// Seats: exactly 4 (§4.1, G17).
pub const SEATS: u8 = 4;
/// Tricks in a hand: all 13 are played (§9.3, G15).
pub const TRICKS: u8 = 13;
/// The smallest bid (§7.3).
pub const MIN_BID: u8 = 2;
/// Largest score (either sign) a team may carry in a match state.
pub const MAX_SCORE: i64 = 100_000;

/// The black joker, ژوکر سیاه.
pub const BJ: Card = Card::Joker(Joker::Black);
/// The coloured joker, ژوکر رنگی.
pub const CJ: Card = Card::Joker(Joker::Coloured);

/// The face-down rest of the dealer-draw deck.
pub(super) const DRAW_PILE: ZoneId = ZoneId::Pile(0);
/// The face-up cards turned in the dealer draw.
pub(super) const DRAWN: ZoneId = ZoneId::Table;

/// Match set-up: JSON `{"seats": 4}`. The first dealer is drawn by lot (§5.1).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    /// 4.
    pub seats: u8,
}

/// What passes from hand to hand (§5.3, §11). Validated when read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "RawMatch")]
pub struct Match {
    /// Number of seats (4).
    pub seats: u8,
    /// Each team's running score (team 0 = the seats at places 0 and 2 of `seating`).
    pub scores: Vec<i64>,
    /// The dealer (pasur) of the next hand; `None` before the first hand: it starts with
    /// the draw.
    pub dealer: Option<SeatIndex>,
    /// Whether the match is over.
    pub over: bool,
    /// The team that won the match.
    pub winner: Option<u8>,
    /// The number of the next hand, from 1.
    pub hand: u32,
    /// The seats in table order (counter-clockwise); `[0, 1, 2, 3]` unless a `by_draw`
    /// partnership draw reseated the players.
    pub seating: Vec<SeatIndex>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMatch {
    seats: u8,
    scores: Vec<i64>,
    dealer: Option<SeatIndex>,
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
            dealer: r.dealer,
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
    if m.seats != SEATS {
        return Err(format!("ghahve is played by 4 seats, not {}", m.seats));
    }
    if m.scores.len() != 2 {
        return Err(format!("{} scores for 2 teams", m.scores.len()));
    }
    if m.scores.iter().any(|s| s.abs() > MAX_SCORE) {
        return Err(format!("a score beyond ±{MAX_SCORE}"));
    }
    if m.dealer.is_some_and(|d| d.0 >= SEATS) {
        return Err("the dealer is not one of the 4 seats".into());
    }
    if m.winner.is_some_and(|w| w >= 2) || m.winner.is_some() != m.over {
        return Err("the winner must be a team, given exactly when the match is over".into());
    }
    if m.hand == 0 {
        return Err("hand numbers count from 1".into());
    }
    let mut sorted = m.seating.clone();
    sorted.sort();
    if sorted != identity() {
        return Err("the seating must order the seats 0 to 3".into());
    }
    Ok(())
}

/// The seats in seat order.
pub fn identity() -> Vec<SeatIndex> {
    tricks::identity(SEATS)
}

/// The team of `seat` at table `t`: partners sit opposite (§4.2).
pub fn team_of(seat: SeatIndex, t: &[SeatIndex]) -> u8 {
    tricks::side_of(seat, t)
}

/// The cutter for dealer `d`: `L(d)`, the dealer's left (§5.2).
pub fn cutter(d: SeatIndex, t: &[SeatIndex]) -> SeatIndex {
    tricks::left(d, t)
}

/// The seats of each team at table `t`.
pub fn team_seats(t: &[SeatIndex]) -> Vec<Vec<SeatIndex>> {
    tricks::side_seats(t)
}

/// One packet of the deal (§6.2): to `seat`, at deal positions `start .. start + size`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Packet {
    pub seat: SeatIndex,
    pub start: u32,
    pub size: u32,
}

/// Every packet of the deal for dealer `d`: 5, 4, 4, from `d + 1` round to the dealer.
pub(super) fn deal_plan(d: SeatIndex, t: &[SeatIndex]) -> Vec<Packet> {
    let mut out = Vec::new();
    let mut start = 0u32;
    for size in [5u32, 4, 4] {
        for o in 1..=SEATS {
            out.push(Packet {
                seat: plus(d, o % SEATS, t),
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
    /// The first-dealer draw.
    Draw,
    /// A deal.
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

/// The phase of a hand (§14.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "name", rename_all = "snake_case")]
pub enum Phase {
    /// Waiting for a committed shuffle.
    AwaitShuffle {
        /// Which.
        reason: ShuffleReason,
    },
    /// The dealer's left cuts.
    AwaitingCut,
    /// Bids are made, d + 1 first (§7); a rebid after a purchase too (§8.6).
    Bidding,
    /// The lower team may buy the other's hands (§8).
    BuyWindow {
        /// The buyer team.
        team: u8,
    },
    /// Tricks are played (§9).
    Playing,
    /// The hand is over.
    HandOver,
}

impl Phase {
    /// The phase's name, for messages.
    pub fn name(self) -> &'static str {
        match self {
            Phase::AwaitShuffle { .. } => "AwaitShuffle",
            Phase::AwaitingCut => "AwaitingCut",
            Phase::Bidding => "Bidding",
            Phase::BuyWindow { .. } => "BuyWindow",
            Phase::Playing => "Playing",
            Phase::HandOver => "HandOver",
        }
    }
}

/// A purchase in force for the rebid (§8.6): `team` must reach `required`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Commitment {
    /// The buyer team.
    pub team: u8,
    /// Its contract must be at least this.
    pub required: u8,
}

/// A hand in progress with full information. Every card is in `zones`; no face is kept
/// anywhere else. Never show it to anyone: use the engine's `view`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub(super) rules: Rules,
    /// The match as the hand started.
    pub(super) start: Match,
    /// The match as it stands.
    pub(super) now: Match,
    pub(super) zones: Zones,
    /// Committed shuffles installed so far (= the next one's number).
    pub(super) shuffles: u32,
    pub(super) phase: Phase,
    /// This hand's dealer, once known.
    pub(super) dealer: Option<SeatIndex>,
    /// The seat of each card turned in the draw, in order.
    pub(super) draw_seats: Vec<SeatIndex>,
    /// The deal's size and cut.
    pub(super) deck_len: u32,
    pub(super) cut: u32,
    /// The current bidding round's bids, per seat.
    pub(super) bids: Vec<Option<u8>>,
    /// The contracts of the last complete bidding round, per team.
    pub(super) contracts: Option<[u8; 2]>,
    /// The purchase the current rebid must honour.
    pub(super) commitment: Option<Commitment>,
    /// Purchases so far in this hand.
    pub(super) buys: u8,
    /// The buy-window members who declined.
    pub(super) declined: Vec<SeatIndex>,
    /// Who leads the current trick.
    pub(super) leader: SeatIndex,
    /// Tricks won by each seat.
    pub(super) won: Vec<u8>,
    /// The black joker has been played.
    pub(super) bj_played: bool,
    /// The coloured joker may be played (§9.7).
    pub(super) cj_released: bool,
    /// Teams whose hand score is `−10 × C` by a cheating penalty (§12.3 `offender_fails`).
    pub(super) failed_by_penalty: Vec<u8>,
    /// Each team's points in this hand (hand score and penalties).
    pub(super) gained: Vec<i64>,
    /// Each team's hand score, once scored: contract, tricks, points.
    pub(super) scored: Vec<(u8, u8, i64)>,
}

fn seats_error(found: usize) -> SetupError {
    SetupError::Seats {
        game: GameId::Ghahve,
        min: SEATS,
        max: SEATS,
        found,
    }
}

/// Start a match.
pub(super) fn new_match(rules: &Rules, setup: &Setup) -> Result<Match, SetupError> {
    rules.validate()?;
    if setup.seats != SEATS {
        return Err(seats_error(usize::from(setup.seats)));
    }
    rules.validate_for(setup.seats)?;
    Ok(Match {
        seats: SEATS,
        scores: vec![0, 0],
        dealer: None,
        over: false,
        winner: None,
        hand: 1,
        seating: identity(),
    })
}

/// Start a hand: the draw if no dealer is known, else the deal shuffle.
pub(super) fn new_hand(rules: &Rules, m: &Match) -> Result<State, SetupError> {
    rules.validate()?;
    check_match(m).map_err(SetupError::Match)?;
    rules.validate_for(m.seats)?;
    if m.over {
        return Err(SetupError::MatchOver);
    }
    let reason = if m.dealer.is_some() {
        ShuffleReason::Deal
    } else {
        ShuffleReason::Draw
    };
    let leader = m
        .dealer
        .map(|d| right(d, &m.seating))
        .unwrap_or(SeatIndex(0));
    Ok(State {
        rules: rules.clone(),
        start: m.clone(),
        now: m.clone(),
        zones: Zones::new(),
        shuffles: 0,
        phase: Phase::AwaitShuffle { reason },
        dealer: m.dealer,
        draw_seats: Vec::new(),
        deck_len: 0,
        cut: 0,
        bids: vec![None; usize::from(SEATS)],
        contracts: None,
        commitment: None,
        buys: 0,
        declined: Vec::new(),
        leader,
        won: vec![0; usize::from(SEATS)],
        bj_played: false,
        cj_released: false,
        failed_by_penalty: Vec::new(),
        gained: vec![0, 0],
        scored: Vec::new(),
    })
}

impl State {
    /// The phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// This hand's dealer, once known.
    pub fn dealer(&self) -> Option<SeatIndex> {
        self.dealer
    }

    /// The match as it stands.
    pub fn match_now(&self) -> &Match {
        &self.now
    }

    /// Every card of the hand.
    pub fn zones(&self) -> &Zones {
        &self.zones
    }

    /// The seats in table order.
    pub fn table(&self) -> &[SeatIndex] {
        &self.now.seating
    }

    /// Tricks won by each team.
    pub fn team_tricks(&self) -> [u8; 2] {
        let mut v = [0u8; 2];
        for (i, w) in (0u8..).zip(&self.won) {
            let t = usize::from(team_of(SeatIndex(i), self.table()));
            if let Some(x) = v.get_mut(t) {
                *x = x.saturating_add(*w);
            }
        }
        v
    }

    /// Tricks completed so far.
    pub fn tricks_played(&self) -> u8 {
        self.won.iter().fold(0u8, |a, w| a.saturating_add(*w))
    }

    /// The number (from 1) of the trick being played.
    pub fn trick_no(&self) -> u8 {
        self.tricks_played().saturating_add(1)
    }

    /// The seat to play in the current trick.
    pub fn to_play(&self) -> SeatIndex {
        let k = u8::try_from(self.zones.len(ZoneId::Trick)).unwrap_or(0);
        plus(self.leader, k, self.table())
    }

    /// The bidding order d + 1, d + 2, d + 3, d (§7.1).
    pub fn bidding_order(&self) -> Vec<SeatIndex> {
        let d = self.dealer.unwrap_or(SeatIndex(0));
        (1..=SEATS)
            .map(|o| plus(d, o % SEATS, self.table()))
            .collect()
    }

    /// The next seat to bid, if the round is not complete.
    pub fn next_bidder(&self) -> Option<SeatIndex> {
        self.bidding_order()
            .into_iter()
            .find(|s| self.bids.get(s.index()).is_some_and(Option::is_none))
    }

    /// The buy-window member to decide next (§8.4).
    pub fn next_buy_decider(&self) -> Option<SeatIndex> {
        let Phase::BuyWindow { team } = self.phase else {
            return None;
        };
        self.bidding_order()
            .into_iter()
            .find(|s| team_of(*s, self.table()) == team && !self.declined.contains(s))
    }

    /// The shuffle a pending `reason` asks for.
    pub(super) fn shuffle_request(&self, reason: ShuffleReason) -> ShuffleRequest {
        ShuffleRequest::deck(reason.as_str(), DeckKind::Ghahve52)
    }
}

/// One team's line of a hand's score (§10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TeamScore {
    /// The final contract.
    pub contract: u8,
    /// Tricks taken.
    pub tricks: u8,
    /// The hand's score: `10C + (t − C)` if made, `−10C` if failed.
    pub points: i64,
}

/// The hand's result (see [`crate::engine::Game::outcome`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Outcome {
    /// The hand's number in the match.
    pub hand: u32,
    /// The dealer (none if a penalty ended the match before the draw finished).
    pub dealer: Option<SeatIndex>,
    /// Each team's score line, once all 13 tricks were played.
    pub teams: Vec<TeamScore>,
    /// Points each team gained in this hand (hand score plus penalties).
    pub points: Vec<i64>,
    /// Purchases made in this hand.
    pub buys: u8,
    /// The match after the hand.
    pub next: Match,
}

pub(super) fn outcome(s: &State) -> Option<Outcome> {
    if s.phase != Phase::HandOver {
        return None;
    }
    Some(Outcome {
        hand: s.start.hand,
        dealer: s.dealer,
        teams: s
            .scored
            .iter()
            .map(|(c, t, p)| TeamScore {
                contract: *c,
                tricks: *t,
                points: *p,
            })
            .collect(),
        points: s.gained.clone(),
        buys: s.buys,
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
    (0..SEATS)
        .map(|i| {
            let seat = SeatIndex(i);
            let team = team_of(seat, &o.next.seating);
            let mine = o.points.get(usize::from(team)).copied().unwrap_or(0);
            let theirs = o.points.get(usize::from(1 - team)).copied().unwrap_or(0);
            let judged = match o.next.winner {
                Some(w) if w == team => Judged::Won,
                Some(_) => Judged::Lost,
                None if mine > theirs => Judged::Won,
                None if mine < theirs => Judged::Lost,
                None => Judged::Even,
            };
            SeatResult {
                seat,
                delta: mine,
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
                let team = team_of(SeatIndex(i), &m.seating);
                m.scores.get(usize::from(team)).copied().unwrap_or(0)
            })
            .collect(),
        sides: team_seats(&m.seating),
        next: if m.over {
            None
        } else {
            m.dealer.map(|d| ("dealer".to_string(), d))
        },
        over: m.over,
    }
}
