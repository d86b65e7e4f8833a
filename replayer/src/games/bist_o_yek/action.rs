//! Actions (spec §6.5) and legal-action descriptions.

use serde::{Deserialize, Serialize};

use crate::cards::Card;
use crate::engine::{LegalAction, Toman};

/// An action by a seat or by the service (spec §6.5). Shuffles are not actions: they come in
/// through `decide_shuffle`.
///
/// JSON: `{"type": "bet", "amount": 200}`, `{"type": "hit"}`, `{"type": "hit", "expose":
/// "JS"}`, `{"type": "accept_bank"}`, …. Strict: a member the action does not have is
/// refused (`BadAction`), so nothing rides into the signed log inside an action.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// The candidate takes the role of banker (bankdar) and posts `bank_stake`.
    AcceptBank,
    /// The candidate turns the bank down (L40: "I don't want to be banker").
    DeclineBank,
    /// The banker announces bank khabar ("bank news": he will take the bank after one more
    /// round, L36–L39).
    AnnounceKhabar,
    /// The banker deals a round (step A).
    Deal,
    /// The banker puts his unrevealed card down and takes another (L33).
    Swap,
    /// The banker keeps his unrevealed card.
    Keep,
    /// The duel player's main bet (L19–L23).
    Bet {
        /// The amount.
        amount: Toman,
    },
    /// Another seat bets on the duel player's hand (L41–L48).
    SideBet {
        /// The amount.
        amount: Toman,
    },
    /// The duel player asks for another card; from 3 cards on he may turn one of his
    /// face-down cards up (`expose`, L35).
    Hit {
        /// The face-down card to turn up (only with 3 or more cards in hand).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        expose: Option<Card>,
    },
    /// The duel player takes no more cards.
    Stand,
    /// The banker deals the player's next card face up (three-card rule, L35).
    DealFaceUp,
    /// The banker deals the player's next card face down (three-card rule, L35).
    DealFaceDown,
    /// The busted player says "suz" ("I went over", L29).
    AnnounceSuz,
    /// The banker draws a card.
    BankerHit,
    /// The banker takes no more cards.
    BankerStand,
    /// The service ends the match by the table's agreement (D-27).
    EndMatch,
}

/// A legal action, or a family of them, as offered to one actor.
///
/// JSON: `{"type": "bet", "min": 50, "max": 1000}`, `{"type": "hit", "expose": ["JS",
/// "QS", "6C"]}`, `{"type": "stand"}`, …. A `hit` lists the actor's own face-down cards: give
/// it to that actor only.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Legal {
    /// [`Action::AcceptBank`].
    AcceptBank,
    /// [`Action::DeclineBank`].
    DeclineBank,
    /// [`Action::AnnounceKhabar`].
    AnnounceKhabar,
    /// [`Action::Deal`].
    Deal,
    /// [`Action::Swap`].
    Swap,
    /// [`Action::Keep`].
    Keep,
    /// [`Action::Bet`] with `min ≤ amount ≤ max`.
    Bet {
        /// Smallest legal amount.
        min: Toman,
        /// Largest legal amount.
        max: Toman,
    },
    /// [`Action::SideBet`] with `min ≤ amount ≤ max`.
    SideBet {
        /// Smallest legal amount.
        min: Toman,
        /// Largest legal amount.
        max: Toman,
    },
    /// [`Action::Hit`] with no exposure, or exposing one of these face-down cards.
    Hit {
        /// The cards that may be exposed (empty below 3 cards).
        expose: Vec<Card>,
    },
    /// [`Action::Stand`].
    Stand,
    /// [`Action::DealFaceUp`].
    DealFaceUp,
    /// [`Action::DealFaceDown`].
    DealFaceDown,
    /// [`Action::AnnounceSuz`].
    AnnounceSuz,
    /// [`Action::BankerHit`].
    BankerHit,
    /// [`Action::BankerStand`].
    BankerStand,
    /// [`Action::EndMatch`].
    EndMatch,
}

fn pick(rng: &mut dyn rand_core::RngCore, min: Toman, max: Toman) -> Toman {
    match max.checked_sub(min) {
        None => min,
        Some(span) => match span.checked_add(1) {
            Some(width) => min.saturating_add(rng.next_u64() % width),
            None => rng.next_u64(),
        },
    }
}

impl Legal {
    /// Whether `action` is one of the actions this entry stands for.
    pub fn allows(&self, action: &Action) -> bool {
        match (self, action) {
            (Legal::AcceptBank, Action::AcceptBank)
            | (Legal::DeclineBank, Action::DeclineBank)
            | (Legal::AnnounceKhabar, Action::AnnounceKhabar)
            | (Legal::Deal, Action::Deal)
            | (Legal::Swap, Action::Swap)
            | (Legal::Keep, Action::Keep)
            | (Legal::Stand, Action::Stand)
            | (Legal::DealFaceUp, Action::DealFaceUp)
            | (Legal::DealFaceDown, Action::DealFaceDown)
            | (Legal::AnnounceSuz, Action::AnnounceSuz)
            | (Legal::BankerHit, Action::BankerHit)
            | (Legal::BankerStand, Action::BankerStand)
            | (Legal::EndMatch, Action::EndMatch) => true,
            (Legal::Bet { min, max }, Action::Bet { amount })
            | (Legal::SideBet { min, max }, Action::SideBet { amount }) => {
                min <= amount && amount <= max
            }
            (Legal::Hit { expose }, Action::Hit { expose: e }) => match e {
                None => true,
                Some(c) => expose.contains(c),
            },
            _ => false,
        }
    }
}

impl LegalAction<Action> for Legal {
    fn allows(&self, action: &Action) -> bool {
        Legal::allows(self, action)
    }

    fn sample(&self, rng: &mut dyn rand_core::RngCore) -> Action {
        match self {
            Legal::AcceptBank => Action::AcceptBank,
            Legal::DeclineBank => Action::DeclineBank,
            Legal::AnnounceKhabar => Action::AnnounceKhabar,
            Legal::Deal => Action::Deal,
            Legal::Swap => Action::Swap,
            Legal::Keep => Action::Keep,
            Legal::Bet { min, max } => Action::Bet {
                amount: pick(rng, *min, *max),
            },
            Legal::SideBet { min, max } => Action::SideBet {
                amount: pick(rng, *min, *max),
            },
            Legal::Hit { expose } => {
                // One choice more than the cards: none.
                let choices = u64::try_from(expose.len())
                    .unwrap_or(u64::MAX)
                    .saturating_add(1);
                let i = usize::try_from(rng.next_u64() % choices).unwrap_or(usize::MAX);
                Action::Hit {
                    expose: expose.get(i).copied(),
                }
            }
            Legal::Stand => Action::Stand,
            Legal::DealFaceUp => Action::DealFaceUp,
            Legal::DealFaceDown => Action::DealFaceDown,
            Legal::AnnounceSuz => Action::AnnounceSuz,
            Legal::BankerHit => Action::BankerHit,
            Legal::BankerStand => Action::BankerStand,
            Legal::EndMatch => Action::EndMatch,
        }
    }
}
