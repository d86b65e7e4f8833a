//! Match, set-up, phases and the full-information hand state (spec §5.1).
//!
//! Every card of the hand is in the state's [`Zones`]: the stock while dealing, the seats'
//! hands, the pile (`ZoneId::Pile(0)`, face down, each card seen by the seat that played
//! it) and, with `set_aside_remainder`, `ZoneId::Out`. No face is kept anywhere else; the
//! pile's play boundaries (which refs each play holds, its seat and claimed rank) are public
//! facts kept beside the zones.

use serde::{Deserialize, Serialize};

use super::rank_code;
use super::rules::{MaxCardsPerPlay, Rules, Titles};
use super::violation::Rule;
use crate::cards::{DeckKind, Rank};
use crate::engine::{
    CardRef, GameId, HouseRules, Judged, ScoreUnit, SeatIndex, SeatResult, SetupError,
    ShuffleRequest, Standings,
};
use crate::zones::{ZoneId, Zones};

/// Fewest seats (§3, 000: "at least 4").
pub const MIN_SEATS: u8 = 4;
/// Most seats (§3, 000: "at most 8").
pub const MAX_SEATS: u8 = 8;

/// The pile's zone.
pub(super) const PILE: ZoneId = ZoneId::Pile(0);

/// Match set-up: JSON `{"seats": n}` or `{"seats": n, "dealer": d}`. The dealer is chosen by
/// lot outside the engine (§3); without one it is seat `n − 1`, so seat 0 starts (§10).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    /// 4, 6 or 8.
    pub seats: u8,
    /// The dealer of the first hand.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dealer: Option<SeatIndex>,
}

/// What carries over between hands. The game is one hand (§6); if a series is played the
/// deal passes to the right. A match is never over by itself: the table stops when it
/// likes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Match {
    /// Number of seats: 4, 6 or 8.
    pub seats: u8,
    /// The dealer of the next hand.
    pub dealer: SeatIndex,
    /// Hands finished so far.
    pub hands_played: u32,
    /// Always `false`.
    pub over: bool,
}

/// Why the next lead is a lead (§5.1 `lead_reason`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LeadReason {
    /// The hand's first play.
    HandStart,
    /// The round lapped without a challenge.
    AfterLap,
    /// A challenge cleared the pile.
    AfterChallenge,
}

/// The phase of a hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "name", rename_all = "snake_case")]
pub enum Phase {
    /// Waiting for the committed shuffle of the deal.
    Deal,
    /// Seats play.
    Play,
    /// Waiting for the committed relabel shuffle of `seat`'s hand after he took the pile.
    Relabel {
        /// Who took the pile.
        seat: SeatIndex,
    },
    /// The hand is over.
    Over,
}

/// One play on the pile: public facts only (its cards' faces are in the zones).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayRecord {
    /// Who played.
    pub seat: SeatIndex,
    /// The claimed rank.
    #[serde(with = "rank_code::one")]
    pub rank: Rank,
    /// The cards placed, face down; the claimed count is their number.
    pub cards: Vec<CardRef>,
    /// Whether it was the lead of its round.
    pub lead: bool,
}

/// The last challenge, as public facts (the revealed faces are in its effect).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChallengeRecord {
    /// Who challenged.
    pub challenger: SeatIndex,
    /// Whose play was turned over.
    pub challenged: SeatIndex,
    /// The claimed rank.
    #[serde(with = "rank_code::one")]
    pub rank: Rank,
    /// How many cards were turned over.
    pub count: u32,
    /// Whether every card was of the claimed rank.
    pub truthful: bool,
    /// Who took the pile.
    pub taker: SeatIndex,
}

/// A hand in progress with full information. Never show it: use the engine's `view`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub(super) rules: Rules,
    pub(super) seats: u8,
    pub(super) dealer: SeatIndex,
    pub(super) hands_played: u32,
    pub(super) zones: Zones,
    /// Committed shuffles installed so far (= the next shuffle's number).
    pub(super) shuffles: u32,
    pub(super) phase: Phase,
    /// The pile's plays, bottom first.
    pub(super) pile: Vec<PlayRecord>,
    /// `None`: the seat to act must lead.
    pub(super) round_rank: Option<Rank>,
    /// The rank of the round that ended by lapping (for `must_differ`).
    pub(super) ended_round_rank: Option<Rank>,
    pub(super) lead_reason: LeadReason,
    /// The count of the round's lead (for `same_as_lead`).
    pub(super) lead_count: u32,
    pub(super) played_this_round: Vec<SeatIndex>,
    /// The last play may still be challenged.
    pub(super) window_open: bool,
    /// Seats that asked the next player to challenge the last play, in order.
    pub(super) requests: Vec<SeatIndex>,
    /// Emptied his hand with the last play; out once the window closes without a caught
    /// bluff.
    pub(super) pending_out: Option<SeatIndex>,
    pub(super) out_order: Vec<SeatIndex>,
    pub(super) turn: SeatIndex,
    pub(super) last_challenge: Option<ChallengeRecord>,
    pub(super) thief: Option<SeatIndex>,
}

/// The seat on `seat`'s right: `(seat + 1) mod n` (§3).
pub(super) fn right(seat: SeatIndex, n: u8) -> SeatIndex {
    seat.right(n)
}

/// Packs for `n` players: 1 for 4, 2 for more (§2).
pub fn packs(n: u8) -> u8 {
    if n > 4 {
        2
    } else {
        1
    }
}

/// The deck for `n` players (§2).
pub fn deck(n: u8) -> DeckKind {
    if packs(n) > 1 {
        DeckKind::Bluff104
    } else {
        DeckKind::Standard52
    }
}

fn check_seats(n: u8) -> Result<(), SetupError> {
    if !(MIN_SEATS..=MAX_SEATS).contains(&n) {
        return Err(SetupError::Seats {
            game: GameId::Bluff,
            min: MIN_SEATS,
            max: MAX_SEATS,
            found: usize::from(n),
        });
    }
    if n % 2 != 0 {
        return Err(SetupError::Match(format!(
            "{} ({}): the number of players must be even (4, 6 or 8), not {n}",
            Rule::OddPlayerCount,
            Rule::OddPlayerCount.section()
        )));
    }
    Ok(())
}

fn check_dealer(dealer: SeatIndex, n: u8) -> Result<(), SetupError> {
    if dealer.0 >= n {
        return Err(SetupError::Match(format!(
            "dealer {} is not one of the {n} seats",
            dealer.0
        )));
    }
    Ok(())
}

/// Start a match (see [`crate::engine::Game::new_match`]).
pub(super) fn new_match(rules: &Rules, setup: &Setup) -> Result<Match, SetupError> {
    rules.validate()?;
    let n = setup.seats;
    check_seats(n)?;
    let dealer = setup.dealer.unwrap_or(SeatIndex(n.saturating_sub(1)));
    check_dealer(dealer, n)?;
    Ok(Match {
        seats: n,
        dealer,
        hands_played: 0,
        over: false,
    })
}

/// Start a hand: nothing dealt yet, waiting for the deal's committed shuffle.
pub(super) fn new_hand(rules: &Rules, m: &Match) -> Result<State, SetupError> {
    rules.validate()?;
    check_seats(m.seats)?;
    check_dealer(m.dealer, m.seats)?;
    if m.over {
        return Err(SetupError::MatchOver);
    }
    Ok(State {
        rules: rules.clone(),
        seats: m.seats,
        dealer: m.dealer,
        hands_played: m.hands_played,
        zones: Zones::new(),
        shuffles: 0,
        phase: Phase::Deal,
        pile: Vec::new(),
        round_rank: None,
        ended_round_rank: None,
        lead_reason: LeadReason::HandStart,
        lead_count: 0,
        played_this_round: Vec::new(),
        window_open: false,
        requests: Vec::new(),
        pending_out: None,
        out_order: Vec::new(),
        turn: right(m.dealer, m.seats),
        last_challenge: None,
        thief: None,
    })
}

impl State {
    /// The phase.
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

    /// The cards, zone by zone.
    pub fn zones(&self) -> &Zones {
        &self.zones
    }

    /// The pile's plays, bottom first.
    pub fn pile(&self) -> &[PlayRecord] {
        &self.pile
    }

    /// Seats out so far, in order.
    pub fn out_order(&self) -> &[SeatIndex] {
        &self.out_order
    }

    /// The deck of this hand.
    pub fn deck(&self) -> DeckKind {
        deck(self.seats)
    }

    /// All seats, in order.
    pub(super) fn all_seats(&self) -> impl Iterator<Item = SeatIndex> {
        (0..self.seats).map(SeatIndex)
    }

    /// How many cards `seat` holds.
    pub fn held(&self, seat: SeatIndex) -> usize {
        self.zones.len(ZoneId::Hand(seat))
    }

    /// The seats holding at least one card.
    pub(super) fn holders(&self) -> Vec<SeatIndex> {
        self.all_seats().filter(|s| self.held(*s) > 0).collect()
    }

    /// The first seat after `seat`, going right, that holds a card (§3 `next_active`).
    pub(super) fn next_active(&self, seat: SeatIndex) -> Option<SeatIndex> {
        let mut s = seat;
        for _ in 0..self.seats {
            s = right(s, self.seats);
            if s != seat && self.held(s) > 0 {
                return Some(s);
            }
        }
        None
    }

    /// The most cards one play may hold for `seat` (§5.3 `cap`, bounded by his hand).
    pub(super) fn cap(&self, seat: SeatIndex) -> usize {
        let held = self.held(seat);
        match self.rules.max_cards_per_play {
            MaxCardsPerPlay::FourPerDeck => held.min(4 * usize::from(packs(self.seats))),
            MaxCardsPerPlay::Unlimited => held,
        }
    }

    /// The play the window is open on.
    pub(super) fn last_play(&self) -> Option<&PlayRecord> {
        if self.window_open {
            self.pile.last()
        } else {
            None
        }
    }

    /// Two-player finish (§5.6): a seat emptied his hand with the last play and only the
    /// seat to act holds cards; it may only challenge or not.
    pub(super) fn final_window(&self) -> bool {
        self.window_open && self.pending_out.is_some() && self.holders().len() <= 1
    }

    /// Whether `seat` may ask the next player to challenge now (§5.3 A5).
    pub(super) fn may_request(&self, seat: SeatIndex) -> bool {
        self.phase == Phase::Play
            && seat.0 < self.seats
            && seat != self.turn
            && self.held(seat) > 0
            && !self.requests.contains(&seat)
            && self.last_play().is_some_and(|p| p.seat != seat)
    }

    /// The committed shuffle the hand waits for, if any.
    pub(super) fn shuffle_request(&self) -> Option<ShuffleRequest> {
        match self.phase {
            Phase::Deal => Some(ShuffleRequest::deck("deal", self.deck())),
            Phase::Relabel { seat } => {
                let hand = ZoneId::Hand(seat);
                // Client seeds only from the seats still in play (holding cards).
                let in_play = (0..self.seats)
                    .map(SeatIndex)
                    .filter(|s| *s == seat || self.held(*s) > 0)
                    .collect();
                Some(
                    ShuffleRequest::gather(
                        "relabel",
                        self.zones.refs_in(hand),
                        self.zones.faces(hand),
                    )
                    .asking(in_play),
                )
            }
            Phase::Play | Phase::Over => None,
        }
    }
}

/// A title by finishing order (§6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Title {
    /// First out: shah (شاه), the king.
    King,
    /// Vazir (وزیر).
    Vizier,
    /// Jallad (جلاد), the next-to-last under `with_executioner`.
    Executioner,
    /// Dozd (دزد), the last holding cards, who carries out the king's order.
    Thief,
}

impl Title {
    /// The title as written in results: `king`, `vizier`, `executioner`, `thief`.
    pub fn as_str(self) -> &'static str {
        match self {
            Title::King => "king",
            Title::Vizier => "vizier",
            Title::Executioner => "executioner",
            Title::Thief => "thief",
        }
    }
}

/// The hand's result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Outcome {
    /// The hand's number in the match, from 1.
    pub hand: u32,
    /// Who dealt.
    pub dealer: SeatIndex,
    /// Finishing order: the seats out, in order, then the thief.
    pub order: Vec<SeatIndex>,
    /// Each seat's title, by seat.
    pub titles: Vec<Title>,
}

/// The titles of `order` (first out first, the thief last) under `titles` (§6).
pub fn titles_for(order: &[SeatIndex], titles: Titles) -> Vec<(SeatIndex, Title)> {
    let n = order.len();
    order
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let t = if i == 0 {
                Title::King
            } else if i + 1 == n {
                Title::Thief
            } else if i + 2 == n && titles == Titles::WithExecutioner {
                Title::Executioner
            } else {
                Title::Vizier
            };
            (*s, t)
        })
        .collect()
}

pub(super) fn outcome(s: &State) -> Option<Outcome> {
    if s.phase != Phase::Over {
        return None;
    }
    let mut order = s.out_order.clone();
    order.extend(s.thief);
    let mut titles = vec![Title::Vizier; usize::from(s.seats)];
    for (seat, t) in titles_for(&order, s.rules.titles) {
        if let Some(x) = titles.get_mut(seat.index()) {
            *x = t;
        }
    }
    Some(Outcome {
        hand: s.hands_played.saturating_add(1),
        dealer: s.dealer,
        order,
        titles,
    })
}

pub(super) fn next_match(s: &State) -> Option<Match> {
    if s.phase != Phase::Over {
        return None;
    }
    Some(Match {
        seats: s.seats,
        dealer: right(s.dealer, s.seats),
        hands_played: s.hands_played.saturating_add(1),
        over: false,
    })
}

/// Per seat: the king won, the thief lost, the others are even; the title; no score
/// (`delta` 0: Bluff keeps no running score, the punishment is out of scope, §6).
pub(super) fn results(o: &Outcome) -> Vec<SeatResult> {
    (0u8..)
        .zip(&o.titles)
        .map(|(i, t)| SeatResult {
            seat: SeatIndex(i),
            delta: 0,
            judged: match t {
                Title::King => Judged::Won,
                Title::Thief => Judged::Lost,
                Title::Vizier | Title::Executioner => Judged::Even,
            },
            title: Some(t.as_str().to_string()),
        })
        .collect()
}

pub(super) fn standings(m: &Match) -> Standings {
    Standings {
        unit: ScoreUnit::None,
        per_seat: vec![0; usize::from(m.seats)],
        sides: Vec::new(),
        next: Some(("dealer".to_string(), m.dealer)),
        over: m.over,
    }
}
