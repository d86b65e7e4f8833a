//! Actions (spec §15) and legal-action descriptions. Cards are named by their
//! [`CardRef`], never by their face.

use serde::{Deserialize, Serialize};

use super::state::{BID_STEP, MAX_BID};
use crate::engine::{CardRef, LegalAction};

/// An action by a seat. Shuffles are not actions.
///
/// JSON: `{"type": "bid", "amount": 125}`, `{"type": "pass"}`,
/// `{"type": "lay_away", "cards": [{"shuffle": 0, "pos": 3}, …]}` (private: the log holds
/// only a salted commitment to it until the hand ends), `{"type": "play", "card": …}`,
/// `{"type": "cut", "k": 7}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// The player on the dealer's left cuts: the top `k` cards go to the bottom (§14 `cut`).
    Cut {
        /// 1 to 51.
        k: u32,
    },
    /// Bid `amount` points (§6.2): a multiple of 5, 100 to 165, above the high bid.
    Bid {
        /// The points.
        amount: u32,
    },
    /// Leave the auction for the rest of the hand (§6.3).
    Pass,
    /// The hakem lays 4 cards of his 16 away, face down (§7.1). A private action.
    LayAway {
        /// The 4 cards.
        cards: Vec<CardRef>,
    },
    /// Play a card to the trick (§8; 2 players: from the hand at positions 1–2, a face-up
    /// top of one's own piles at 3–4, §13.5). The hakem's first lead names trump (§7.5).
    Play {
        /// The card.
        card: CardRef,
    },
}

/// A legal action, or a family of them, as offered to one actor. `lay_away` and `play`
/// list the actor's own cards: give them to that actor only.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Legal {
    /// [`Action::Cut`] with `min ≤ k ≤ max`.
    Cut {
        /// Smallest k.
        min: u32,
        /// Largest k.
        max: u32,
    },
    /// [`Action::Bid`] with a multiple of `step` from `min` to `max`.
    Bid {
        /// The lowest bid allowed now.
        min: u32,
        /// 165.
        max: u32,
        /// 5.
        step: u32,
    },
    /// [`Action::Pass`].
    Pass,
    /// [`Action::LayAway`] of exactly `count` different cards of `from`.
    LayAway {
        /// 4.
        count: u8,
        /// The hakem's 16 cards.
        from: Vec<CardRef>,
    },
    /// [`Action::Play`] with one of these cards.
    Play {
        /// The playable cards.
        cards: Vec<CardRef>,
    },
}

fn below(rng: &mut dyn rand_core::RngCore, n: usize) -> usize {
    let n32 = u32::try_from(n).unwrap_or(u32::MAX).max(1);
    usize::try_from(rng.next_u32() % n32).unwrap_or(0)
}

fn distinct(v: &[CardRef]) -> bool {
    v.iter()
        .enumerate()
        .all(|(i, a)| v.iter().skip(i.saturating_add(1)).all(|b| a != b))
}

impl Legal {
    /// Whether `action` is one of the actions this entry stands for.
    pub fn allows(&self, action: &Action) -> bool {
        match (self, action) {
            (Legal::Cut { min, max }, Action::Cut { k }) => min <= k && k <= max,
            (Legal::Bid { min, max, step }, Action::Bid { amount }) => {
                min <= amount && amount <= max && *step > 0 && amount % step == 0
            }
            (Legal::Pass, Action::Pass) => true,
            (Legal::LayAway { count, from }, Action::LayAway { cards }) => {
                cards.len() == usize::from(*count)
                    && distinct(cards)
                    && cards.iter().all(|c| from.contains(c))
            }
            (Legal::Play { cards }, Action::Play { card }) => cards.contains(card),
            _ => false,
        }
    }
}

impl LegalAction<Action> for Legal {
    fn sample(&self, rng: &mut dyn rand_core::RngCore) -> Action {
        match self {
            Legal::Cut { min, max } => {
                let span = usize::try_from(max.saturating_sub(*min)).unwrap_or(0) + 1;
                Action::Cut {
                    k: min.saturating_add(u32::try_from(below(rng, span)).unwrap_or(0)),
                }
            }
            Legal::Bid { min, max, step } => {
                let step = (*step).max(1);
                // Low bids are likelier, so that random auctions go on for a while and
                // contracts are sometimes made.
                let steps = usize::try_from(max.saturating_sub(*min) / step).unwrap_or(0) + 1;
                let k = below(rng, steps).min(below(rng, steps));
                Action::Bid {
                    amount: min
                        .saturating_add(step.saturating_mul(u32::try_from(k).unwrap_or(0)))
                        .min(MAX_BID),
                }
            }
            Legal::Pass => Action::Pass,
            Legal::LayAway { count, from } => {
                let mut pool = from.clone();
                let mut cards = Vec::new();
                for _ in 0..*count {
                    if pool.is_empty() {
                        break;
                    }
                    cards.push(pool.remove(below(rng, pool.len())));
                }
                Action::LayAway { cards }
            }
            Legal::Play { cards } => Action::Play {
                card: cards
                    .get(below(rng, cards.len()))
                    .copied()
                    .unwrap_or(CardRef { shuffle: 0, pos: 0 }),
            },
        }
    }

    fn allows(&self, action: &Action) -> bool {
        Legal::allows(self, action)
    }
}

/// The bid family from `min` (already rounded to the step).
pub(super) fn bid_family(min: u32) -> Option<Legal> {
    (min <= MAX_BID).then_some(Legal::Bid {
        min,
        max: MAX_BID,
        step: BID_STEP,
    })
}
