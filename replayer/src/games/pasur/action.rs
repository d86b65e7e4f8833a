//! The action (spec §5.3) and its legal families. Cards are named by their [`CardRef`]:
//! the played card is hidden until played, and the table's cards are public.

use serde::{Deserialize, Serialize};

use crate::engine::{CardRef, LegalAction};

/// Play a card (the only player action, §5.3).
///
/// JSON: `{"type": "play", "card": {"shuffle": 0, "pos": 7}, "capture": [{"shuffle": 0,
/// "pos": 9}, …]}`. `capture` is the set of table cards taken (`[]`: the card stays on the
/// table). Left out, the engine takes the one capture there is (for a jack: every card but
/// K and Q), leaves the card on the table when it can take nothing, and refuses a choice
/// between several sets, naming them (`AmbiguousCapture`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// Play `card`, taking `capture`.
    Play {
        /// The card played.
        card: CardRef,
        /// The table cards taken; `None`: the engine's choice where there is no choice.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        capture: Option<Vec<CardRef>>,
    },
}

/// A legal family: one card of the hand, with every capture the rules allow for it (`[]`:
/// it may be left on the table). Lists the actor's own card: give it to that actor only.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Legal {
    /// [`Action::Play`] of `card` with one of `captures`, or with no `capture` when at most
    /// one non-empty set is listed (and `[]` is listed when none is).
    Play {
        /// The card.
        card: CardRef,
        /// The legal capture sets, each sorted.
        captures: Vec<Vec<CardRef>>,
    },
}

fn below(rng: &mut dyn rand_core::RngCore, n: usize) -> usize {
    let n32 = u32::try_from(n).unwrap_or(u32::MAX).max(1);
    usize::try_from(rng.next_u32() % n32).unwrap_or(0)
}

/// `refs` sorted, or `None` if a card is named twice.
pub(super) fn as_set(refs: &[CardRef]) -> Option<Vec<CardRef>> {
    let mut v = refs.to_vec();
    v.sort_by_key(|r| (r.shuffle, r.pos));
    let n = v.len();
    v.dedup();
    (v.len() == n).then_some(v)
}

impl Legal {
    /// Whether `action` is one of the actions this entry stands for.
    pub fn allows(&self, action: &Action) -> bool {
        let (Legal::Play { card, captures }, Action::Play { card: c, capture }) = (self, action);
        if card != c {
            return false;
        }
        match capture {
            Some(set) => as_set(set).is_some_and(|s| captures.contains(&s)),
            None => {
                let real = captures.iter().filter(|s| !s.is_empty()).count();
                real == 1 || (real == 0 && captures.iter().any(Vec::is_empty))
            }
        }
    }
}

impl LegalAction<Action> for Legal {
    fn allows(&self, action: &Action) -> bool {
        Legal::allows(self, action)
    }

    fn sample(&self, rng: &mut dyn rand_core::RngCore) -> Action {
        let Legal::Play { card, captures } = self;
        Action::Play {
            card: *card,
            capture: Some(
                captures
                    .get(below(rng, captures.len()))
                    .cloned()
                    .unwrap_or_default(),
            ),
        }
    }
}
