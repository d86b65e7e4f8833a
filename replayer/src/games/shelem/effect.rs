//! Effects: the public facts an action or a shuffle causes, written into the hash-chained
//! log while the hand runs (spec §15, "Events").
//!
//! An effect never carries the face of a card that is not public at that moment: cards are
//! named by their [`CardRef`]; a face appears beside its ref only when the rules make it
//! public (a played card, a 2-player pile top turned up, the discards at the count). The
//! one private action, laying 4 cards away, causes [`Effect::LaidAway`], which the dealer
//! keeps out of the log until the hand ends (the log holds a salted commitment instead).

use serde::{Deserialize, Serialize};

use super::state::{Phase, Row};
use crate::cards::Card;
use crate::engine::{CardRef, SeatIndex};
use crate::games::tricks::{Shown, SuitCode};

/// A public fact (JSON: internally tagged by `type`, snake_case).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Effect {
    /// The deal's committed shuffle was installed face down as the stock.
    Shuffled {
        /// The shuffle's number within the hand.
        shuffle: u32,
        /// How many cards.
        cards: u32,
    },
    /// The player on the dealer's left cut the deck at `k`.
    CutApplied {
        /// The cutter.
        seat: SeatIndex,
        /// Cards moved from the top to the bottom.
        k: u32,
    },
    /// A packet dealt face down to `seat`'s hand, seen by that seat only.
    Dealt {
        /// Who receives it.
        seat: SeatIndex,
        /// The cards.
        cards: Vec<CardRef>,
    },
    /// The widow's packet laid face down on the table, seen by nobody.
    WidowLaid {
        /// The cards.
        cards: Vec<CardRef>,
    },
    /// 2 players: a packet laid face down as `seat`'s pile `pile` (1 to 3), seen by nobody.
    PileLaid {
        /// Whose pile.
        seat: SeatIndex,
        /// 1, 2 or 3.
        pile: u8,
        /// The cards, in the order dealt.
        cards: Vec<CardRef>,
    },
    /// `seat` bid `amount`.
    BidMade {
        /// Who.
        seat: SeatIndex,
        /// The points.
        amount: u32,
    },
    /// `seat` passed, for the rest of the hand.
    Passed {
        /// Who.
        seat: SeatIndex,
    },
    /// The auction is won: `hakem` at `contract`.
    AuctionWon {
        /// The hakem.
        hakem: SeatIndex,
        /// The contract.
        contract: u32,
    },
    /// Every player passed: the deal is void (§6.5).
    PassedOut,
    /// The hakem takes the widow into his hand (seen by him only).
    WidowTaken {
        /// The hakem.
        seat: SeatIndex,
        /// The widow's cards.
        cards: Vec<CardRef>,
    },
    /// The hakem laid these 4 cards away, face down, seen by him only. Private: kept out
    /// of the log while the hand runs.
    LaidAway {
        /// The hakem.
        seat: SeatIndex,
        /// The cards.
        cards: Vec<CardRef>,
    },
    /// The hakem's first lead named trump (§7.5).
    TrumpSet {
        /// The suit.
        suit: SuitCode,
    },
    /// A card played face up to the trick.
    Played {
        /// Who.
        seat: SeatIndex,
        /// Which card and its face.
        card: Shown,
        /// 2 players: the pile it came from (1 to 3); absent for a hand card.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pile: Option<u8>,
    },
    /// 2 players: the top card of `seat`'s pile `pile` is turned face up (§13.5).
    PileTopTurned {
        /// Whose pile.
        seat: SeatIndex,
        /// 1, 2 or 3.
        pile: u8,
        /// The card and its face.
        card: Shown,
    },
    /// The trick is won by `seat` (the owner of the winning card), who leads the next.
    TrickWon {
        /// The trick's number, from 1.
        index: u8,
        /// The winner.
        seat: SeatIndex,
        /// His team.
        team: u8,
    },
    /// The count: the hakem's 4 laid-away cards are shown (§7.4).
    DiscardsRevealed {
        /// The hakem.
        seat: SeatIndex,
        /// The cards with their faces.
        cards: Vec<Shown>,
    },
    /// The hand is scored: its row on the sheet (§10, §12).
    HandScored {
        /// The row.
        row: Row,
    },
    /// `team` won the match (§11).
    MatchWon {
        /// The team.
        team: u8,
    },
    /// The dealer of the next hand.
    NextDealer {
        /// Who.
        seat: SeatIndex,
    },
    /// The hand enters a phase.
    Phase {
        /// The phase.
        phase: Phase,
    },
}

impl Effect {
    /// The faces this effect makes public (each is face up for everyone once folded).
    pub fn faces(&self) -> Vec<Card> {
        match self {
            Effect::Played { card, .. } | Effect::PileTopTurned { card, .. } => vec![card.face],
            Effect::DiscardsRevealed { cards, .. } => cards.iter().map(|c| c.face).collect(),
            _ => Vec::new(),
        }
    }
}
