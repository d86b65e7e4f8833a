//! Effects: the public facts an action or a shuffle causes, written into the hash-chained
//! log while the hand runs.
//!
//! An effect never carries the face of a card that is face down at that moment: such a card
//! is named only by its [`CardRef`]. Faces appear with their `CardRef` only when the rules make
//! them public: a card dealt face up, a card exposed on the three-card rule, the banker's card
//! turned up, the banker's draws, and a player's hand shown at the showdown or on suz. Every
//! money movement is its own effect (stake posted, bet into escrow, each settlement, the bank
//! taken), so `Σ balance + bank + Σ escrow` can be followed effect by effect.

use serde::{Deserialize, Serialize};

use super::state::{EndReason, Phase, ShuffleReason};
use crate::cards::Card;
use crate::engine::{CardRef, SeatIndex, Toman};

/// A settlement case (spec §7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Case {
    /// Suz: the player went over 21; the stake goes to the bank.
    S1,
    /// The banker went over 21; the player wins even money.
    S2,
    /// The player's total is higher; he wins even money.
    S3,
    /// Equal totals (21–21 included): the banker wins, or a push under `tie_rule = push`.
    S4,
    /// The banker's total is higher; the stake goes to the bank.
    S5,
}

/// A card shown face up, with its public name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShownCard {
    /// Which card.
    pub card: CardRef,
    /// Its face.
    pub face: Card,
}

/// A public fact (JSON: internally tagged by `type`, snake_case).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Effect {
    /// The candidate declined the bank; `declines` consecutive declines so far.
    BankDeclined {
        /// Who declined.
        seat: SeatIndex,
        /// Consecutive declines, this one included.
        declines: u8,
    },
    /// The bank is offered to `candidate`.
    BankOffered {
        /// The new candidate.
        candidate: SeatIndex,
        /// Consecutive declines so far.
        declines: u8,
    },
    /// Money: `stake` moves from the banker's balance into the bank (§5.2).
    BankAccepted {
        /// The new banker (bankdar).
        banker: SeatIndex,
        /// The stake posted.
        stake: Toman,
    },
    /// The hand enters a phase (including waiting for a committed shuffle).
    Phase {
        /// The phase.
        phase: Phase,
    },
    /// A committed shuffle was installed as the stock: a full shuffle collects all 36 cards
    /// first, a restock shuffles the discard pile. Names no face.
    Shuffled {
        /// The shuffle's number within the hand (0 first).
        shuffle: u32,
        /// Why.
        reason: ShuffleReason,
        /// How many cards.
        cards: u32,
    },
    /// The banker announced bank khabar ("bank news", L36–L39).
    KhabarAnnounced {
        /// The banker.
        banker: SeatIndex,
        /// The bank at the announcement.
        bank: Toman,
        /// `khabar_multiple × stake`.
        threshold: Toman,
    },
    /// A round is dealt (step A): `queue` are the players who will duel, in order.
    RoundDealt {
        /// The round's number within the turn, from 1.
        round: u32,
        /// Players to duel, in order.
        queue: Vec<SeatIndex>,
    },
    /// The banker dealt himself a face-down card.
    HiddenDealt {
        /// Which card.
        card: CardRef,
    },
    /// A player's first card was dealt face down ahead of his duel (`all_first`).
    WaitingDealt {
        /// The player.
        seat: SeatIndex,
        /// Which card.
        card: CardRef,
    },
    /// A player was skipped: his balance is below `lo` (D-10).
    PlayerSkipped {
        /// The player.
        seat: SeatIndex,
    },
    /// A duel opens with `player`.
    DuelOpened {
        /// The player.
        player: SeatIndex,
    },
    /// The banker is offered the swap of his unrevealed card.
    SwapOffered {
        /// The banker's face-down card.
        card: CardRef,
    },
    /// The banker put his unrevealed card on the discard pile, unseen.
    Swapped {
        /// The card set aside.
        card: CardRef,
    },
    /// The banker kept his unrevealed card.
    Kept {
        /// The card kept.
        card: CardRef,
    },
    /// The player's waiting card becomes the first card of his duel hand (face down).
    FirstCard {
        /// The player.
        seat: SeatIndex,
        /// Which card.
        card: CardRef,
    },
    /// A card was dealt to the duel player: face down (`face` absent) or face up.
    PlayerCardDealt {
        /// The player.
        seat: SeatIndex,
        /// Which card.
        card: CardRef,
        /// The face, only when dealt face up.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        face: Option<Card>,
    },
    /// The player turned one of his face-down cards up (three-card rule, L35).
    CardExposed {
        /// The player.
        seat: SeatIndex,
        /// Which card.
        card: CardRef,
        /// Its face.
        face: Card,
    },
    /// Money: the main bet moves from the player's balance into escrow.
    BetPlaced {
        /// The player.
        seat: SeatIndex,
        /// The amount.
        amount: Toman,
    },
    /// Side bets on this hand may now be placed.
    SideBetsOpened,
    /// Side bets on this hand are closed.
    SideBetsClosed,
    /// Money: a side bet on `on`'s hand moves from `seat`'s balance into escrow.
    SideBetPlaced {
        /// The side bettor.
        seat: SeatIndex,
        /// Whose hand it backs.
        on: SeatIndex,
        /// The amount.
        amount: Toman,
    },
    /// The player stands; `automatic` at 21 (D-2).
    PlayerStood {
        /// The player.
        seat: SeatIndex,
        /// Whether the engine stood for him at 21.
        automatic: bool,
    },
    /// The banker turned his face-down card up: his first card (L26).
    HiddenRevealed {
        /// Which card.
        card: CardRef,
        /// Its face.
        face: Card,
    },
    /// The banker drew a card, face up.
    BankerDrew {
        /// Which card.
        card: CardRef,
        /// Its face.
        face: Card,
    },
    /// The banker stands at `total`.
    BankerStood {
        /// The banker's total.
        total: u32,
    },
    /// The player's hand is turned face up (showdown or suz).
    HandShown {
        /// The player.
        seat: SeatIndex,
        /// The hand.
        cards: Vec<ShownCard>,
        /// Its total.
        total: u32,
    },
    /// The duel's result.
    DuelResult {
        /// The player.
        player: SeatIndex,
        /// The case of §7.
        case: Case,
        /// The player's total.
        player_total: u32,
        /// The banker's total (none on suz: the banker does not play).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        banker_total: Option<u32>,
    },
    /// Money: one stake settled. Its `amount` leaves escrow: `escrow_to_owner` back to the
    /// owner and `escrow_to_bank` into the bank; on a win `bank_to_owner` is paid from the
    /// bank.
    Settled {
        /// The stake's owner.
        seat: SeatIndex,
        /// The stake.
        amount: Toman,
        /// Main bet or side bet.
        main: bool,
        /// The case of §7.
        case: Case,
        /// Escrow back to the owner.
        escrow_to_owner: Toman,
        /// Escrow into the bank.
        escrow_to_bank: Toman,
        /// Bank to the owner.
        bank_to_owner: Toman,
    },
    /// After a suz the banker's card stays unrevealed and serves the next duel (D-15).
    BankerCardCarried {
        /// Which card.
        card: CardRef,
    },
    /// Cards went to the discard pile (face-down ones unseen).
    Discarded {
        /// Which cards.
        cards: Vec<CardRef>,
    },
    /// The duel is over.
    DuelClosed {
        /// The player.
        player: SeatIndex,
    },
    /// Money: the banker takes the bank (end of his turn, or `EndMatch`).
    BankTaken {
        /// The banker.
        banker: SeatIndex,
        /// The amount (possibly 0).
        amount: Toman,
    },
    /// The banker's turn is over (step G); the hand is over.
    TurnEnded {
        /// The banker.
        banker: SeatIndex,
        /// Why.
        reason: EndReason,
        /// The seat to be offered the bank next (`right(banker)`).
        next_candidate: SeatIndex,
    },
    /// The match is over; the hand is over.
    MatchEnded {
        /// Why.
        reason: EndReason,
    },
}

impl Effect {
    /// The card faces this effect makes public (each must be face up once it is folded).
    pub fn faces(&self) -> Vec<Card> {
        match self {
            Effect::PlayerCardDealt { face, .. } => face.iter().copied().collect(),
            Effect::CardExposed { face, .. }
            | Effect::HiddenRevealed { face, .. }
            | Effect::BankerDrew { face, .. } => vec![*face],
            Effect::HandShown { cards, .. } => cards.iter().map(|c| c.face).collect(),
            _ => Vec::new(),
        }
    }
}
