//! Actions (spec §14.1) and legal-action descriptions. Cards are named by their
//! [`CardRef`], never by their face.

use serde::{Deserialize, Serialize};

use super::rules::SuitCode;
use crate::cards::Suit;
use crate::engine::{CardRef, LegalAction, SeatIndex};

/// An action by a seat or by the service. Shuffles are not actions.
///
/// JSON: `{"type": "cut", "k": 7}`, `{"type": "declare_trump", "suit": "H"}`,
/// `{"type": "play", "card": {"shuffle": 1, "pos": 12}}`, ….
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// The cutter moves the top `k` cards of the face-down deck to the bottom (§6.2).
    Cut {
        /// 1 to N − 1.
        k: u32,
    },
    /// The hakem names trump (§7.3), or the fallback of a partner method (§7.4–§7.6).
    DeclareTrump {
        /// The suit.
        suit: SuitCode,
    },
    /// The hakem shows a five without A, K, Q, J and asks for a new deal (§7.2).
    RequestTenLowRedeal,
    /// Sar-e ghermez ("red head", §7.4).
    CallSarGhermez,
    /// Sar-e siah ("black head", §7.4).
    CallSarSiah,
    /// Barg-e vasat ("middle card", §7.5).
    CallBargVasat,
    /// Ya X ya Y ("either X or Y", §7.6).
    CallYa {
        /// The first suit.
        x: SuitCode,
        /// The second, different suit.
        y: SuitCode,
    },
    /// 2p: put cards aside face down (3 by the hakem, then 2, §8.1).
    Discard {
        /// The cards.
        cards: Vec<CardRef>,
    },
    /// 2p draw turn: keep the card seen, burn the next unseen (§8.2).
    KeepFirst,
    /// 2p draw turn: burn the card seen, take the next whatever it is (§8.2).
    TakeSecond,
    /// 2p turn 21: the hakem keeps one of the last two (§8.2).
    ChooseFinal {
        /// The card kept.
        card: CardRef,
    },
    /// 4p `dealer_peek`: the dealer looks at his partner's packet of round 2 or 3 (§12.5).
    PeekPartnerPacket {
        /// 2 or 3.
        round: u8,
    },
    /// 4p `dealer_peek`: the dealer does not look.
    DeclinePeek,
    /// Play a card to the trick (§9).
    Play {
        /// The card.
        card: CardRef,
    },
    /// At 7-0, the winner of trick 7 plays on for bam (§10.5).
    ContinueForBam,
    /// At 7-0, the winner of trick 7 ends the hand.
    EndHand,
    /// The service awards the cheating penalty (§12.3): `cheating_penalty_points` to the
    /// beneficiary's side, or (no beneficiary: the service caught it itself) to every side
    /// but the offender's. Accepted while the hand runs; the hand's result otherwise
    /// stands (D12).
    AwardCheatingPenalty {
        /// Who cheated.
        offender: SeatIndex,
        /// Who caught it (a seat of another side), if a player did.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        beneficiary: Option<SeatIndex>,
    },
}

/// A legal action, or a family of them, as offered to one actor. A `play`, `discard` or
/// `choose_final` lists the actor's own cards: give it to that actor only.
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
    /// [`Action::DeclareTrump`] with one of these suits.
    DeclareTrump {
        /// The suits allowed.
        suits: Vec<SuitCode>,
    },
    /// [`Action::RequestTenLowRedeal`].
    RequestTenLowRedeal,
    /// [`Action::CallSarGhermez`].
    CallSarGhermez,
    /// [`Action::CallSarSiah`].
    CallSarSiah,
    /// [`Action::CallBargVasat`].
    CallBargVasat,
    /// [`Action::CallYa`] with two different suits.
    CallYa,
    /// [`Action::Discard`] of exactly `count` different cards of `from`.
    Discard {
        /// How many.
        count: u8,
        /// The cards that may be discarded.
        from: Vec<CardRef>,
    },
    /// [`Action::KeepFirst`].
    KeepFirst,
    /// [`Action::TakeSecond`].
    TakeSecond,
    /// [`Action::ChooseFinal`] with one of these.
    ChooseFinal {
        /// The two cards.
        cards: Vec<CardRef>,
    },
    /// [`Action::PeekPartnerPacket`] of one of these rounds.
    PeekPartnerPacket {
        /// 2 and 3.
        rounds: Vec<u8>,
    },
    /// [`Action::DeclinePeek`].
    DeclinePeek,
    /// [`Action::Play`] with one of these cards.
    Play {
        /// The playable cards.
        cards: Vec<CardRef>,
    },
    /// [`Action::ContinueForBam`].
    ContinueForBam,
    /// [`Action::EndHand`].
    EndHand,
    /// [`Action::AwardCheatingPenalty`]: any offender, and no beneficiary or a seat of
    /// another side.
    AwardCheatingPenalty {
        /// The seats of each side.
        sides: Vec<Vec<SeatIndex>>,
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
            (Legal::DeclareTrump { suits }, Action::DeclareTrump { suit }) => suits.contains(suit),
            (Legal::RequestTenLowRedeal, Action::RequestTenLowRedeal)
            | (Legal::CallSarGhermez, Action::CallSarGhermez)
            | (Legal::CallSarSiah, Action::CallSarSiah)
            | (Legal::CallBargVasat, Action::CallBargVasat)
            | (Legal::KeepFirst, Action::KeepFirst)
            | (Legal::TakeSecond, Action::TakeSecond)
            | (Legal::DeclinePeek, Action::DeclinePeek)
            | (Legal::ContinueForBam, Action::ContinueForBam)
            | (Legal::EndHand, Action::EndHand) => true,
            (Legal::CallYa, Action::CallYa { x, y }) => x != y,
            (Legal::Discard { count, from }, Action::Discard { cards }) => {
                cards.len() == usize::from(*count)
                    && distinct(cards)
                    && cards.iter().all(|c| from.contains(c))
            }
            (Legal::ChooseFinal { cards }, Action::ChooseFinal { card })
            | (Legal::Play { cards }, Action::Play { card }) => cards.contains(card),
            (Legal::PeekPartnerPacket { rounds }, Action::PeekPartnerPacket { round }) => {
                rounds.contains(round)
            }
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
            Legal::DeclareTrump { suits } => Action::DeclareTrump {
                suit: suits
                    .get(below(rng, suits.len()))
                    .copied()
                    .unwrap_or(SuitCode(Suit::Spades)),
            },
            Legal::RequestTenLowRedeal => Action::RequestTenLowRedeal,
            Legal::CallSarGhermez => Action::CallSarGhermez,
            Legal::CallSarSiah => Action::CallSarSiah,
            Legal::CallBargVasat => Action::CallBargVasat,
            Legal::CallYa => {
                let i = below(rng, 4);
                let j = (i + 1 + below(rng, 3)) % 4;
                let pick = |k: usize| SuitCode(Suit::ALL.get(k).copied().unwrap_or(Suit::Spades));
                Action::CallYa {
                    x: pick(i),
                    y: pick(j),
                }
            }
            Legal::Discard { count, from } => {
                let mut pool = from.clone();
                let mut cards = Vec::new();
                for _ in 0..*count {
                    if pool.is_empty() {
                        break;
                    }
                    cards.push(pool.remove(below(rng, pool.len())));
                }
                Action::Discard { cards }
            }
            Legal::KeepFirst => Action::KeepFirst,
            Legal::TakeSecond => Action::TakeSecond,
            Legal::ChooseFinal { cards } => Action::ChooseFinal {
                card: cards
                    .get(below(rng, cards.len()))
                    .copied()
                    .unwrap_or(CardRef { shuffle: 0, pos: 0 }),
            },
            Legal::PeekPartnerPacket { rounds } => Action::PeekPartnerPacket {
                round: rounds.get(below(rng, rounds.len())).copied().unwrap_or(2),
            },
            Legal::DeclinePeek => Action::DeclinePeek,
            Legal::Play { cards } => Action::Play {
                card: cards
                    .get(below(rng, cards.len()))
                    .copied()
                    .unwrap_or(CardRef { shuffle: 0, pos: 0 }),
            },
            Legal::ContinueForBam => Action::ContinueForBam,
            Legal::EndHand => Action::EndHand,
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
