//! Effects: the public facts an action or the shuffle causes, written into the
//! hash-chained log while the hand runs.
//!
//! An effect never carries the face of a card that is not public at that moment: cards
//! dealt to a hand are named by their [`CardRef`] only; a face appears beside its ref when
//! the card is face up on the table, played or captured.

use serde::{Deserialize, Serialize};

use super::state::{Phase, SideScore};
use crate::cards::Card;
use crate::engine::{CardRef, SeatIndex};

/// A card face up for everyone, with its public name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shown {
    /// Which card.
    pub card: CardRef,
    /// Its face.
    pub face: Card,
}

/// A public fact (JSON: internally tagged by `type`, snake_case).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Effect {
    /// The hand's committed shuffle was installed face down as the stock (§4.1).
    Shuffled {
        /// The shuffle's number within the hand.
        shuffle: u32,
        /// How many cards.
        cards: u32,
    },
    /// A packet dealt face down from the top of the stock to `seat` in deal `deal`.
    Dealt {
        /// The deal, 1 to D.
        deal: u8,
        /// Who receives it.
        seat: SeatIndex,
        /// The cards.
        cards: Vec<CardRef>,
    },
    /// Deal 1: four cards from the top of the stock face up on the table (§4.2).
    TableDealt {
        /// The cards, slots 1 to 4.
        cards: Vec<Shown>,
    },
    /// The table-jack rule (§4.3): the jack in slot `slot` goes back into the stock at
    /// index `at` (counted after the replacement was drawn), and the top card of the stock
    /// takes its place face up.
    TableJackReplaced {
        /// The slot, 1 to 4.
        slot: u8,
        /// The jack.
        jack: Shown,
        /// The replacement, the stock's top card.
        replacement: Shown,
        /// Where the jack went in the stock (0 = top).
        at: u32,
    },
    /// `seat` played `card` as play number `play`, taking `capture` from the table (none:
    /// the card stays on the table).
    Played {
        /// Who.
        seat: SeatIndex,
        /// The play's number in the hand, 1 to 48.
        play: u8,
        /// The card and its face.
        card: Shown,
        /// The table cards taken.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        capture: Vec<Shown>,
    },
    /// The capture just made is a sur (سور, it emptied the table, §5.5): 5 points to `side`.
    Sur {
        /// Who.
        seat: SeatIndex,
        /// The side scoring it.
        side: u8,
        /// The play's number.
        play: u8,
    },
    /// After play 48 the table's leftovers go to the last capturer's side (`None`: nobody
    /// captured in the hand; they are set aside, D19). Never a sur.
    LeftoversTaken {
        /// The last capturer.
        seat: Option<SeatIndex>,
        /// The cards.
        cards: Vec<Shown>,
    },
    /// The hand is scored (§6): each side's points, item by item, added to the match.
    HandScored {
        /// One entry per side.
        sides: Vec<SideScore>,
    },
    /// `tie_break_eligibility = tied_only`: these sides tied at the top at or above the
    /// target; only they can win from now on (§7).
    TiedAtTop {
        /// The sides.
        sides: Vec<u8>,
    },
    /// `side` won the match (§7).
    MatchWon {
        /// The side.
        side: u8,
    },
    /// The dealer of the next hand (the deal passes right, D14).
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
