//! Actions (spec §5.3) and legal-action descriptions.
//!
//! The acting seat is the actor, so actions carry no `seat` field. Cards are named by their
//! [`CardRef`] only: a face never enters an action.

use serde::{Deserialize, Serialize};

use super::rank_code;
use crate::cards::Rank;
use crate::engine::{CardRef, LegalAction};

/// An action by a seat (spec §5.3). Shuffles are not actions.
///
/// JSON: `{"type": "lead", "rank": "7", "cards": [{"shuffle": 0, "pos": 4}, …]}`,
/// `{"type": "follow", "cards": […]}`, `{"type": "pass"}`, `{"type": "challenge"}`,
/// `{"type": "no_challenge"}`, `{"type": "request_challenge"}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    tag = "type",
    rename_all = "snake_case",
    deny_unknown_fields,
    from = "ActionWire"
)]
pub enum Action {
    /// A1: place `cards` face down claiming they are all of `rank` (the claim's count is
    /// their number).
    Lead {
        /// The claimed rank.
        #[serde(with = "rank_code::one")]
        rank: Rank,
        /// The cards placed.
        cards: Vec<CardRef>,
    },
    /// A2: place `cards` face down under the round's rank.
    Follow {
        /// The cards placed.
        cards: Vec<CardRef>,
    },
    /// Pass instead of following (only with `allow_pass`).
    Pass,
    /// A3: the next player turns the last play over («اعلام بلوف», "declaring bluff").
    Challenge,
    /// A4: the next player lets the last play stand.
    NoChallenge,
    /// A5: a seat that is not next asks the next player to challenge.
    RequestChallenge,
}

/// [`Action`] as read: serde's `deny_unknown_fields` does not reach the unit variants of
/// an internally tagged enum, so they are read as empty struct variants, which it does.
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
enum ActionWire {
    Lead {
        #[serde(with = "rank_code::one")]
        rank: Rank,
        cards: Vec<CardRef>,
    },
    Follow {
        cards: Vec<CardRef>,
    },
    Pass {},
    Challenge {},
    NoChallenge {},
    RequestChallenge {},
}

impl From<ActionWire> for Action {
    fn from(w: ActionWire) -> Action {
        match w {
            ActionWire::Lead { rank, cards } => Action::Lead { rank, cards },
            ActionWire::Follow { cards } => Action::Follow { cards },
            ActionWire::Pass {} => Action::Pass,
            ActionWire::Challenge {} => Action::Challenge,
            ActionWire::NoChallenge {} => Action::NoChallenge,
            ActionWire::RequestChallenge {} => Action::RequestChallenge,
        }
    }
}

/// A legal action, or a family of them, as offered to one actor. A `lead` or `follow`
/// lists the actor's own cards (refs only): give it to that actor.
///
/// JSON: `{"type": "lead", "cards": [...], "max": 4, "ranks": ["2", …, "A"]}`,
/// `{"type": "follow", "cards": [...], "rank": "7", "min": 1, "max": 4}`, `{"type":
/// "challenge"}`, ….
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Legal {
    /// [`Action::Lead`] of 1 to `max` distinct cards of `cards`, claiming one of `ranks`.
    Lead {
        /// The actor's cards.
        cards: Vec<CardRef>,
        /// Most cards in the play.
        max: u32,
        /// The ranks that may be claimed.
        #[serde(with = "rank_code::many")]
        ranks: Vec<Rank>,
    },
    /// [`Action::Follow`] of `min` to `max` distinct cards of `cards`; the claim is `rank`.
    Follow {
        /// The actor's cards.
        cards: Vec<CardRef>,
        /// The round's rank, claimed by the follow.
        #[serde(with = "rank_code::one")]
        rank: Rank,
        /// Fewest cards.
        min: u32,
        /// Most cards.
        max: u32,
    },
    /// [`Action::Pass`].
    Pass,
    /// [`Action::Challenge`].
    Challenge,
    /// [`Action::NoChallenge`].
    NoChallenge,
    /// [`Action::RequestChallenge`].
    RequestChallenge,
}

/// Whether `chosen` are distinct cards of `own`, between `min` and `max` of them.
fn fits(own: &[CardRef], chosen: &[CardRef], min: u32, max: u32) -> bool {
    let n = u32::try_from(chosen.len()).unwrap_or(u32::MAX);
    n >= min
        && n <= max
        && chosen.iter().all(|c| own.contains(c))
        && chosen
            .iter()
            .enumerate()
            .all(|(i, c)| !chosen.iter().skip(i + 1).any(|d| d == c))
}

fn below(rng: &mut dyn rand_core::RngCore, n: usize) -> usize {
    let n64 = u64::try_from(n).unwrap_or(u64::MAX);
    if n64 == 0 {
        0
    } else {
        usize::try_from(rng.next_u64() % n64).unwrap_or(0)
    }
}

/// A count between `min` and `max`, uniformly.
fn count(rng: &mut dyn rand_core::RngCore, min: u32, max: u32) -> usize {
    let lo = usize::try_from(min).unwrap_or(0);
    let hi = usize::try_from(max).unwrap_or(0).max(lo);
    lo.saturating_add(below(rng, hi.saturating_sub(lo).saturating_add(1)))
}

/// `k` distinct cards of `own`, at random.
fn some_cards(rng: &mut dyn rand_core::RngCore, own: &[CardRef], k: usize) -> Vec<CardRef> {
    let mut pool = own.to_vec();
    let mut out = Vec::with_capacity(k);
    while out.len() < k && !pool.is_empty() {
        let i = below(rng, pool.len());
        out.push(pool.swap_remove(i));
    }
    out
}

impl Legal {
    /// Whether `action` is one of the actions this entry stands for.
    pub fn allows(&self, action: &Action) -> bool {
        match (self, action) {
            (
                Legal::Lead { cards, max, ranks },
                Action::Lead {
                    rank,
                    cards: chosen,
                },
            ) => ranks.contains(rank) && fits(cards, chosen, 1, *max),
            (
                Legal::Follow {
                    cards, min, max, ..
                },
                Action::Follow { cards: chosen },
            ) => fits(cards, chosen, (*min).max(1), *max),
            (Legal::Pass, Action::Pass)
            | (Legal::Challenge, Action::Challenge)
            | (Legal::NoChallenge, Action::NoChallenge)
            | (Legal::RequestChallenge, Action::RequestChallenge) => true,
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
            Legal::Lead { cards, max, ranks } => {
                let k = count(rng, 1, *max);
                let rank = ranks
                    .get(below(rng, ranks.len()))
                    .copied()
                    .unwrap_or(Rank::Ace);
                Action::Lead {
                    rank,
                    cards: some_cards(rng, cards, k),
                }
            }
            Legal::Follow {
                cards, min, max, ..
            } => {
                let k = count(rng, (*min).max(1), *max);
                Action::Follow {
                    cards: some_cards(rng, cards, k),
                }
            }
            Legal::Pass => Action::Pass,
            Legal::Challenge => Action::Challenge,
            Legal::NoChallenge => Action::NoChallenge,
            Legal::RequestChallenge => Action::RequestChallenge,
        }
    }
}
