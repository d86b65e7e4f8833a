//! Effects: the public facts an action or a shuffle causes, written into the hash-chained
//! log while the hand runs (spec §14.3).
//!
//! An effect never carries the face of a card that is not public at that moment: cards are
//! named by their [`CardRef`]; a face appears beside its ref only when the rules make it
//! public (a draw card, a played card).

use serde::{Deserialize, Serialize};

use super::state::{Phase, ShuffleReason};
use crate::cards::Card;
use crate::engine::{CardRef, SeatIndex};

pub use crate::games::tricks::Shown;

/// A public fact (JSON: internally tagged by `type`, snake_case).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Effect {
    /// A committed shuffle was installed face down: the draw deck, or the deal's stock.
    Shuffled {
        /// The shuffle's number within the hand.
        shuffle: u32,
        /// Why.
        reason: ShuffleReason,
        /// How many cards.
        cards: u32,
    },
    /// A draw card turned face up for `seat` (§5.1).
    DrawCard {
        /// Who receives it.
        seat: SeatIndex,
        /// Which card and its face.
        card: Shown,
    },
    /// The draw deck is spent before the draw is decided: it goes on with a fresh shuffle.
    DrawDeckSpent,
    /// `by_draw`: the table order after the partner draw (§4.4): the dealer kept his
    /// place, his partner moved opposite him.
    Reseated {
        /// The seats in table order (counter-clockwise).
        seating: Vec<SeatIndex>,
    },
    /// The first dealer is `seat`.
    DealerSet {
        /// The dealer.
        seat: SeatIndex,
    },
    /// The dealer's left cut the face-down deck at `k` (§5.2).
    CutApplied {
        /// The cutter.
        seat: SeatIndex,
        /// Cards moved from the top to the bottom.
        k: u32,
    },
    /// A packet dealt face down to `seat`, seen by that seat only (§6.2).
    Dealt {
        /// Who receives it.
        seat: SeatIndex,
        /// The cards.
        cards: Vec<CardRef>,
    },
    /// A public bid (§7).
    BidMade {
        /// Who.
        seat: SeatIndex,
        /// Tricks promised.
        n: u8,
    },
    /// The bidding round is complete: each team's contract (§7.5).
    ContractsSet {
        /// Team 0's contract.
        team0: u8,
        /// Team 1's contract.
        team1: u8,
    },
    /// The lower team may buy (§8.1): `team` must then bid at least `required`.
    BuyOffered {
        /// The buyer team.
        team: u8,
        /// `Req(S)`.
        required: u8,
    },
    /// `seat` bought for his team (§8.4).
    BuyDeclared {
        /// Who.
        seat: SeatIndex,
        /// The contract his team must reach.
        required: u8,
    },
    /// `seat` declined to buy.
    BuyDeclined {
        /// Who.
        seat: SeatIndex,
    },
    /// Every player passed his hand to his right (§8.5); all bids are cancelled.
    HandsSwapped,
    /// A card played face up to the trick (§9).
    Played {
        /// Who.
        seat: SeatIndex,
        /// Which card and its face.
        card: Shown,
    },
    /// The coloured joker may now be played (§9.7): in trick `trick`.
    JokerReleased {
        /// The trick from which `CJ` may be played.
        trick: u8,
    },
    /// The trick is won by `seat`, who leads the next (§9.9).
    TrickWon {
        /// The trick's number, from 1.
        index: u8,
        /// The winner.
        seat: SeatIndex,
    },
    /// One team's hand score (§10).
    HandScored {
        /// The team.
        team: u8,
        /// Its final contract.
        contract: u8,
        /// Tricks it took.
        tricks: u8,
        /// Points scored (negative when the contract failed).
        points: i64,
    },
    /// The cheating penalty (§12.3) against `offender`'s team: `points` to `team`, or
    /// (`points` 0, `fails`) the offending team's hand scores as failed.
    PenaltyAwarded {
        /// The offender.
        offender: SeatIndex,
        /// The team that gains.
        team: u8,
        /// Points to it.
        points: u32,
        /// `offender_fails`: the offender's team scores `−10 × C` for this hand.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        fails: bool,
    },
    /// The deal passes to the dealer's right (§5.3): his team got ahead.
    DealerPassed {
        /// The dealer of this hand.
        from: SeatIndex,
        /// The dealer of the next.
        to: SeatIndex,
    },
    /// The dealer deals again (§5.3): his team is not ahead.
    DealerStays {
        /// The dealer.
        seat: SeatIndex,
    },
    /// `team` won the match (§11).
    MatchWon {
        /// The team.
        team: u8,
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
            Effect::DrawCard { card, .. } | Effect::Played { card, .. } => vec![card.face],
            _ => Vec::new(),
        }
    }
}
