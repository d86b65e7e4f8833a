//! Actions (spec §14.1) and legal-action descriptions. Cards are named by their
//! [`CardRef`], never by their face.

use serde::{Deserialize, Serialize};

use crate::engine::{CardRef, LegalAction, SeatIndex};

/// An action by a seat or by the service. Shuffles are not actions.
///
/// JSON: `{"type": "cut", "k": 7}`, `{"type": "bid", "n": 4}`, `{"type": "buy"}`,
/// `{"type": "decline_buy"}`, `{"type": "play", "card": {"shuffle": 1, "pos": 12}}`, ….
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// The dealer's left moves the top `k` cards of the face-down deck to the bottom (§5.2).
    Cut {
        /// 1 to 51.
        k: u32,
    },
    /// A bid (تعهد, ta'ahod): the tricks the bidder will win (§7).
    Bid {
        /// 2 or more.
        n: u8,
    },
    /// The lower team buys the other team's hands (§8.4).
    Buy,
    /// A member of the lower team does not buy.
    DeclineBuy,
    /// Play a card to the trick (§9).
    Play {
        /// The card.
        card: CardRef,
    },
    /// The service awards the cheating penalty (§12.3) against `offender`'s team; under
    /// `award_points` the points go to the other team.
    AwardCheatingPenalty {
        /// Who cheated.
        offender: SeatIndex,
        /// Who caught it (a seat of the other team), if a player did.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        beneficiary: Option<SeatIndex>,
    },
}

/// A legal action, or a family of them, as offered to one actor. A `play` lists the
/// actor's own cards: give it to that actor only.
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
    /// [`Action::Bid`] with `min ≤ n ≤ max`.
    Bid {
        /// Smallest bid.
        min: u8,
        /// Largest bid.
        max: u8,
    },
    /// [`Action::Buy`]; the buyer team's contract must then reach `required`.
    Buy {
        /// `Req(S)`.
        required: u8,
    },
    /// [`Action::DeclineBuy`].
    DeclineBuy,
    /// [`Action::Play`] with one of these cards.
    Play {
        /// The playable cards.
        cards: Vec<CardRef>,
    },
    /// [`Action::AwardCheatingPenalty`]: any offender, and no beneficiary or a seat of the
    /// other team.
    AwardCheatingPenalty {
        /// The seats of each team.
        sides: Vec<Vec<SeatIndex>>,
    },
}

fn below(rng: &mut dyn rand_core::RngCore, n: usize) -> usize {
    let n32 = u32::try_from(n).unwrap_or(u32::MAX).max(1);
    usize::try_from(rng.next_u32() % n32).unwrap_or(0)
}

impl Legal {
    /// Whether `action` is one of the actions this entry stands for.
    pub fn allows(&self, action: &Action) -> bool {
        match (self, action) {
            (Legal::Cut { min, max }, Action::Cut { k }) => min <= k && k <= max,
            (Legal::Bid { min, max }, Action::Bid { n }) => min <= n && n <= max,
            (Legal::Buy { .. }, Action::Buy) | (Legal::DeclineBuy, Action::DeclineBuy) => true,
            (Legal::Play { cards }, Action::Play { card }) => cards.contains(card),
            (
                Legal::AwardCheatingPenalty { sides },
                Action::AwardCheatingPenalty {
                    offender,
                    beneficiary,
                },
            ) => {
                let side = |x: SeatIndex| sides.iter().position(|s| s.contains(&x));
                side(*offender).is_some()
                    && beneficiary.is_none_or(|b| side(b).is_some() && side(b) != side(*offender))
            }
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
            Legal::Cut { min, max } => {
                let span = max.saturating_sub(*min).saturating_add(1).max(1);
                Action::Cut {
                    k: min.saturating_add(rng.next_u32() % span),
                }
            }
            Legal::Bid { min, max } => {
                // Lean to the low bids, as players do: a uniform pick over 2..=11 makes
                // nearly every contract fail.
                let span = usize::from(max.saturating_sub(*min)).saturating_add(1);
                let k = below(rng, span).min(below(rng, span));
                Action::Bid {
                    n: min.saturating_add(u8::try_from(k).unwrap_or(0)),
                }
            }
            Legal::Buy { .. } => Action::Buy,
            Legal::DeclineBuy => Action::DeclineBuy,
            Legal::Play { cards } => Action::Play {
                card: cards
                    .get(below(rng, cards.len()))
                    .copied()
                    .unwrap_or(CardRef { shuffle: 0, pos: 0 }),
            },
            Legal::AwardCheatingPenalty { sides } => {
                let all: Vec<SeatIndex> = sides.iter().flatten().copied().collect();
                let offender = all
                    .get(below(rng, all.len()))
                    .copied()
                    .unwrap_or(SeatIndex(0));
                let others: Vec<SeatIndex> = sides
                    .iter()
                    .filter(|s| !s.contains(&offender))
                    .flatten()
                    .copied()
                    .collect();
                let k = below(rng, others.len().saturating_add(1));
                Action::AwardCheatingPenalty {
                    offender,
                    beneficiary: others.get(k).copied(),
                }
            }
        }
    }
}
