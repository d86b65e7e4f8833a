//! Effects: the public facts an action or a shuffle causes, written into the hash-chained
//! log while the hand runs (spec §14.3).
//!
//! An effect never carries the face of a card that is not public at that moment: cards are
//! named by their [`CardRef`]; a face appears beside its ref only when the rules make it
//! public (a draw card, a partner reveal, a ten-low reveal, a played card).

use serde::{Deserialize, Serialize};

use super::rules::{SuitCode, TrumpMethod};
use super::state::{MatchEnd, Phase, ShuffleReason, WinKind};
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
    /// A hakem-draw card turned face up for `seat` (§5.2).
    DrawCard {
        /// Who receives it.
        seat: SeatIndex,
        /// Which card and its face.
        card: Shown,
    },
    /// The draw deck is spent before the draw is decided: it goes on with the next draw
    /// shuffle (§5.2 step 5).
    DrawDeckSpent,
    /// `by_draw`: the players' table order after the partner draw (§5.3): the hakem kept
    /// his place, his partner moved opposite him.
    Reseated {
        /// The seats in table order (counter-clockwise).
        seating: Vec<SeatIndex>,
    },
    /// The hakem is `seat`.
    HakemSet {
        /// The hakem.
        seat: SeatIndex,
    },
    /// The cutter cut the face-down deck at `k` (§6.2).
    CutApplied {
        /// The cutter.
        seat: SeatIndex,
        /// Cards moved from the top to the bottom.
        k: u32,
    },
    /// A packet dealt face down to `seat`, seen by that seat only.
    Dealt {
        /// Who receives it.
        seat: SeatIndex,
        /// The cards.
        cards: Vec<CardRef>,
    },
    /// The hakem's packet placed face down, seen by nobody, until trump is fixed (§7.7).
    Withheld {
        /// The hakem.
        seat: SeatIndex,
        /// The cards.
        cards: Vec<CardRef>,
    },
    /// The withheld packets go to the hakem's hand.
    Released {
        /// The hakem.
        seat: SeatIndex,
        /// The cards.
        cards: Vec<CardRef>,
    },
    /// Cards of `seat` turned face up for everyone: a partner reveal (taken from the
    /// stock when not yet dealt) or the ten-low five.
    Revealed {
        /// Whose cards.
        seat: SeatIndex,
        /// The cards with their faces.
        cards: Vec<Shown>,
    },
    /// The hakem called a partner method (§7.4–§7.6); `suits` are ya X ya Y's two.
    MethodCalled {
        /// The method.
        method: TrumpMethod,
        /// X and Y, for ya X ya Y.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        suits: Vec<SuitCode>,
    },
    /// Trump is fixed.
    TrumpFixed {
        /// The suit.
        suit: SuitCode,
        /// How.
        method: TrumpMethod,
    },
    /// Ten-low: the deal is annulled, its cards go out of play; `redeals` so far (§7.2).
    DealAnnulled {
        /// Redeals in this hand, this one included.
        redeals: u32,
    },
    /// 2p: `seat` put cards aside face down, seen by that seat only (§8.1).
    Discarded {
        /// Who.
        seat: SeatIndex,
        /// The cards.
        cards: Vec<CardRef>,
    },
    /// 2p: the drawer of turn `turn` looks at these stock cards privately (§8.2).
    Offered {
        /// The turn, 1 to 21.
        turn: u8,
        /// The drawer.
        seat: SeatIndex,
        /// The card(s) he sees.
        cards: Vec<CardRef>,
    },
    /// 2p: `seat` kept `kept` and burned `burned`; the burned card is seen by
    /// `burned_seen_by` (the drawer, if he saw it) or by nobody.
    Drawn {
        /// The drawer.
        seat: SeatIndex,
        /// The card kept.
        kept: CardRef,
        /// The card burned.
        burned: CardRef,
        /// Who may see the burned card.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        burned_seen_by: Option<SeatIndex>,
    },
    /// 4p `dealer_peek`: the dealer sees his partner's packet (§12.5); `cards` empty when
    /// he declined.
    Peeked {
        /// The dealer.
        seat: SeatIndex,
        /// The round looked at (0 if declined).
        round: u8,
        /// The cards he sees.
        cards: Vec<CardRef>,
    },
    /// A card played face up to the trick.
    Played {
        /// Who.
        seat: SeatIndex,
        /// Which card and its face.
        card: Shown,
    },
    /// The trick is won by `seat`, who leads the next.
    TrickWon {
        /// The trick's number, from 1.
        index: u8,
        /// The winner.
        seat: SeatIndex,
    },
    /// The winner of trick 7 chose: play on for bam, or end the hand (§10.5).
    BamChosen {
        /// Who chose.
        seat: SeatIndex,
        /// Whether he plays on.
        play_on: bool,
    },
    /// The hand is won by `side`: `points` added to its score.
    HandWon {
        /// The side.
        side: u8,
        /// How.
        kind: WinKind,
        /// Points scored.
        points: u32,
        /// A bam attempt failed.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        bam_failed: bool,
    },
    /// The cheating penalty: `points` to each side of `sides` (§12.3).
    PenaltyAwarded {
        /// The offender.
        offender: SeatIndex,
        /// The sides that score.
        sides: Vec<u8>,
        /// Points to each.
        points: u32,
    },
    /// 2p: both players stand on `T − 1`: deuce from now on (§11.4).
    DeuceStarted,
    /// `side` won the round; the scores start again at 0.
    RoundWon {
        /// The side.
        side: u8,
    },
    /// `side` won the match.
    MatchWon {
        /// The side.
        side: u8,
        /// Why.
        reason: MatchEnd,
    },
    /// The hakem of the next hand (`None`: a fresh draw).
    NextHakem {
        /// Who.
        seat: Option<SeatIndex>,
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
            Effect::Revealed { cards, .. } => cards.iter().map(|c| c.face).collect(),
            _ => Vec::new(),
        }
    }
}
