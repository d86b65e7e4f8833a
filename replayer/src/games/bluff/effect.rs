//! Effects: the public facts an action or a shuffle causes, written into the hash-chained
//! log while the hand runs.
//!
//! An effect never carries the face of a card that is face down at that moment: cards are
//! named by their [`CardRef`]. The only faces in effects are those a challenge turns over,
//! which are public from that moment on.

use serde::{Deserialize, Serialize};

use super::rank_code;
use super::state::Phase;
use crate::cards::{Card, Rank};
use crate::engine::{CardRef, SeatIndex};

/// Why a committed shuffle was installed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ShuffleReason {
    /// The deal's stock (§4).
    Deal,
    /// A taker's hand, relabelled after he took up the pile.
    Relabel,
}

/// A card turned over by a challenge: its name and its face.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Revealed {
    /// Which card.
    pub card: CardRef,
    /// Its face, public from the challenge on.
    pub face: Card,
}

/// A public fact (JSON: internally tagged by `type`, snake_case).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Effect {
    /// The deal's committed shuffle was installed as the stock, face down. Names no face.
    Shuffled {
        /// The shuffle's number within the hand (0 first).
        shuffle: u32,
        /// Why (`deal`).
        reason: ShuffleReason,
        /// How many cards.
        cards: u32,
    },
    /// `seat` received `cards` from the stock, dealt one at a time from `dealer + 1` (§4):
    /// the seat at distance k from the dealer gets stock positions k−1, k−1+n, ….
    Dealt {
        /// The seat.
        seat: SeatIndex,
        /// Its cards, in the order received.
        cards: Vec<CardRef>,
    },
    /// The undealt remainder was set aside face down, out of play (`set_aside_remainder`).
    SetAside {
        /// The cards.
        cards: Vec<CardRef>,
    },
    /// Play begins with `starter` (`dealer + 1`), who leads.
    PlayStarted {
        /// The starter.
        starter: SeatIndex,
    },
    /// `seat` placed `cards` face down on the pile, claiming `cards.len()` cards of `rank`:
    /// a lead (a new round of `rank`) or a follow. The last play's challenge window opens.
    Played {
        /// Who played.
        seat: SeatIndex,
        /// Whether it is the lead of a new round.
        lead: bool,
        /// The claimed rank.
        #[serde(with = "rank_code::one")]
        rank: Rank,
        /// How many cards (the claimed count).
        count: u32,
        /// The cards placed.
        cards: Vec<CardRef>,
    },
    /// `seat` passed (`allow_pass`); the window closes.
    Passed {
        /// Who passed.
        seat: SeatIndex,
    },
    /// `seat` emptied his hand with the last play; he is out once it stands (§5.5).
    OutPending {
        /// The seat.
        seat: SeatIndex,
    },
    /// `seat` is out, `place`-th (§5.5).
    WentOut {
        /// The seat.
        seat: SeatIndex,
        /// 1 for the first out (the king).
        place: u32,
    },
    /// `seat`'s last play was a caught bluff: he holds the pile and is back in (§5.4 step 5).
    BackIn {
        /// The seat.
        seat: SeatIndex,
    },
    /// The turn passes to `seat`.
    Turn {
        /// Who acts next.
        seat: SeatIndex,
    },
    /// The turn reached a seat that already played in the round: the round of `rank` ended
    /// without a challenge, the pile stays, and the next play is a lead (§5.3 A1 step 6).
    RoundLapped {
        /// The round's rank.
        #[serde(with = "rank_code::one")]
        rank: Rank,
    },
    /// `by` asked the next player to challenge the last play (§5.3 A5).
    ChallengeRequested {
        /// The requester.
        by: SeatIndex,
    },
    /// The next player let the last play stand (§5.3 A4); the window closes.
    NotChallenged {
        /// The next player.
        seat: SeatIndex,
    },
    /// `challenger` turned over `seat`'s last play: its cards with their faces, the verdict
    /// (true iff every card is of the claimed `rank`) and who takes the pile (§5.4).
    Challenged {
        /// Who challenged.
        challenger: SeatIndex,
        /// Whose play.
        seat: SeatIndex,
        /// The claimed rank.
        #[serde(with = "rank_code::one")]
        rank: Rank,
        /// The play's cards, turned over.
        cards: Vec<Revealed>,
        /// Whether the claim was true.
        truthful: bool,
        /// Who takes the pile.
        taker: SeatIndex,
    },
    /// `seat` took up the whole pile (`cards` cards) into his hand; the round is over and
    /// the next play is a lead (§5.4 steps 4 and 6).
    PileTaken {
        /// The taker.
        seat: SeatIndex,
        /// How many cards.
        cards: u32,
    },
    /// The hand enters a phase (here: waiting for the relabel of a taker's hand).
    Phase {
        /// The phase.
        phase: Phase,
    },
    /// The taker's hand was relabelled from committed shuffle `shuffle`: its cards are now
    /// named `(shuffle, 0…cards−1)` in the shuffle's order and the old names are gone.
    Relabelled {
        /// The taker.
        seat: SeatIndex,
        /// The shuffle's number within the hand.
        shuffle: u32,
        /// How many cards.
        cards: u32,
    },
    /// The hand is over: only `thief` holds cards (§5.6). `order` is the finishing order,
    /// the thief last.
    HandEnded {
        /// The last seat holding cards.
        thief: SeatIndex,
        /// The seats out in order, then the thief.
        order: Vec<SeatIndex>,
    },
}

impl Effect {
    /// The faces this effect makes public.
    pub fn faces(&self) -> Vec<Card> {
        match self {
            Effect::Challenged { cards, .. } => cards.iter().map(|c| c.face).collect(),
            _ => Vec::new(),
        }
    }
}
