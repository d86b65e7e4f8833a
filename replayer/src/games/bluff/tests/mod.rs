//! Tests of the Bluff engine: given-when-then per rule (`rules`), the spec's worked
//! examples TV-1…TV-10 (`vectors`), JSON shapes (`json`), property tests and simulated,
//! verified hands (`props`).

use super::*;
use crate::cards::{Card, Rank};
use crate::engine::{apply, apply_shuffle, Actor, CardRef, Game, SeatIndex, Viewer, Violation};
use crate::zones::ZoneId;

mod json;
mod props;
mod rules;
mod vectors;

/// A card from its code (`9C`, `10D`, `AS`).
pub(super) fn c(code: &str) -> Card {
    code.parse().unwrap()
}

pub(super) fn s(i: u8) -> Actor {
    Actor::Seat(SeatIndex(i))
}

pub(super) fn seat(i: u8) -> SeatIndex {
    SeatIndex(i)
}

pub(super) fn rank(code: &str) -> Rank {
    rank_code::parse(code).unwrap()
}

/// A stock order for `n` players: `placed` cards at the given positions, the rest of the
/// deck (the remaining multiset) in canonical order in the other positions.
pub(super) fn deck_with(n: u8, placed: &[(usize, &str)]) -> Vec<Card> {
    let mut rest = state::deck(n).cards();
    let mut slots: Vec<Option<Card>> = vec![None; rest.len()];
    for (pos, code) in placed {
        let card = c(code);
        let i = rest
            .iter()
            .position(|x| *x == card)
            .unwrap_or_else(|| panic!("{code} placed too often"));
        rest.remove(i);
        assert!(slots[*pos].is_none(), "position {pos} used twice");
        slots[*pos] = Some(card);
    }
    let mut rest = rest.into_iter();
    slots
        .into_iter()
        .map(|s| s.unwrap_or_else(|| rest.next().unwrap()))
        .collect()
}

/// The stock position of the `k`-th card (from 0) dealt to the seat at `distance` (1…n)
/// from the dealer (§4: `distance − 1 + k·n`).
pub(super) fn pos(n: u8, distance: u8, k: usize) -> usize {
    usize::from(distance) - 1 + k * usize::from(n)
}

/// A hand under test: the state, the log of effects (with the orders of shuffles) and checks
/// after every step.
pub(super) struct Table {
    pub st: State,
    pub init: State,
    pub log: Vec<(Effect, Option<Vec<Card>>)>,
    /// Number of seats.
    pub n: u8,
}

impl Table {
    /// A hand of `n` seats under `rules` with `dealer` (default `n − 1`), not dealt yet.
    pub fn new(n: u8, rules: Rules, dealer: Option<u8>) -> Table {
        let setup = Setup {
            seats: n,
            dealer: dealer.map(SeatIndex),
        };
        let m = Bluff::new_match(&rules, &setup).unwrap();
        let st = Bluff::new_hand(&rules, &m).unwrap();
        Table {
            init: st.clone(),
            st,
            log: Vec::new(),
            n,
        }
    }

    /// Dealt from `order`.
    pub fn dealt(n: u8, rules: Rules, dealer: Option<u8>, order: &[Card]) -> Table {
        let mut t = Table::new(n, rules, dealer);
        t.shuffle(order);
        assert_eq!(t.st.phase, Phase::Play);
        t
    }

    /// 4 players, default rules, dealer 3, dealt from `order`.
    pub fn four(order: &[Card]) -> Table {
        Table::dealt(4, Rules::default(), None, order)
    }

    /// The invariants that hold after every step: conservation (zones and counts), and no
    /// view changes when the faces its viewer may not see are scrambled.
    pub fn check(&self) {
        assert_eq!(self.st.zones.check(), Ok(()));
        if self.st.phase != Phase::Deal {
            let held: usize = (0..self.n).map(|i| self.st.held(seat(i))).sum();
            let total = held + self.st.zones.len(state::PILE) + self.st.zones.len(ZoneId::Out);
            assert_eq!(total, self.st.deck().len(), "cards not conserved");
            let in_plays: usize = self.st.pile.iter().map(|p| p.cards.len()).sum();
            assert_eq!(in_plays, self.st.zones.len(state::PILE));
        }
        let mut viewers = vec![Viewer::Public, Viewer::All];
        viewers.extend((0..self.n).map(|i| Viewer::Seat(seat(i))));
        for v in viewers {
            let before = serde_json::to_value(Bluff::view(&self.st, v)).unwrap();
            let mut copy = self.st.clone();
            let mut k = 12345usize;
            copy.zones.scramble_hidden(v, |m| {
                k = k.wrapping_mul(1_103_515_245).wrapping_add(12345);
                (k >> 8) % m
            });
            let after = serde_json::to_value(Bluff::view(&copy, v)).unwrap();
            assert_eq!(before, after, "the view of {v:?} leaks a hidden face");
        }
    }

    /// `actor` does `a`; it must be listed and accepted.
    pub fn act(&mut self, actor: Actor, a: Action) -> Vec<Effect> {
        let legal = Bluff::legal_actions(&self.st, actor);
        assert!(
            legal.iter().any(|l| l.allows(&a)),
            "{a:?} by {actor} not in legal actions {legal:?}"
        );
        let effects = match apply::<Bluff>(&mut self.st, actor, &a) {
            Ok(e) => e,
            Err(v) => panic!("{a:?} by {actor} rejected: {v}"),
        };
        self.log.extend(effects.iter().map(|e| (e.clone(), None)));
        self.check();
        effects
    }

    /// `actor` tries `a`; it must be rejected with `rule`, leaving the state unchanged.
    pub fn reject(&mut self, actor: Actor, a: Action, rule: Rule) -> Violation {
        let before = self.st.clone();
        let legal = Bluff::legal_actions(&self.st, actor);
        assert!(
            !legal.iter().any(|l| l.allows(&a)),
            "{a:?} by {actor} is listed as legal: {legal:?}"
        );
        let v = apply::<Bluff>(&mut self.st, actor, &a).unwrap_err();
        assert_eq!(v.rule, rule.as_str(), "{a:?} by {actor}: {v}");
        assert_eq!(v.section, rule.section());
        assert_eq!(self.st, before, "a rejected action changed the state");
        v
    }

    /// The pending committed shuffle is `order`.
    pub fn shuffle(&mut self, order: &[Card]) -> Vec<Effect> {
        let req = Bluff::to_act(&self.st).shuffle.expect("no shuffle pending");
        let mut sorted = order.to_vec();
        sorted.sort();
        let mut want = req.cards;
        want.sort();
        assert_eq!(sorted, want, "order is not the requested multiset");
        let k = self.st.shuffles;
        let effects = apply_shuffle::<Bluff>(&mut self.st, k, order).unwrap();
        self.log
            .extend(effects.iter().map(|e| (e.clone(), Some(order.to_vec()))));
        self.check();
        effects
    }

    /// The pending relabel, with the hand's faces in reverse order as the committed order.
    pub fn relabel(&mut self) -> Vec<Effect> {
        let Phase::Relabel { seat } = self.st.phase else {
            panic!("no relabel pending: {:?}", self.st.phase);
        };
        let mut order = self.st.zones.faces(ZoneId::Hand(seat));
        order.reverse();
        self.shuffle(&order)
    }

    /// Fold the log from the initial state.
    pub fn replay(&self) -> State {
        let mut st = self.init.clone();
        for (e, order) in &self.log {
            Bluff::evolve(&mut st, e, order.as_deref());
        }
        st
    }

    /// The refs in `seat`'s hand.
    pub fn refs(&self, i: u8) -> Vec<CardRef> {
        self.st.zones.refs_in(ZoneId::Hand(seat(i)))
    }

    /// The faces in `seat`'s hand, sorted.
    pub fn faces(&self, i: u8) -> Vec<Card> {
        let mut v = self.st.zones.faces(ZoneId::Hand(seat(i)));
        v.sort();
        v
    }

    /// The ref of the first card `code` in `seat`'s hand.
    pub fn card(&self, i: u8, code: &str) -> CardRef {
        let face = c(code);
        self.st
            .zones
            .find_face(ZoneId::Hand(seat(i)), face)
            .unwrap_or_else(|| panic!("seat {i} does not hold {code}"))
            .r
    }

    /// The refs of these cards in `seat`'s hand.
    pub fn cards(&self, i: u8, codes: &[&str]) -> Vec<CardRef> {
        codes.iter().map(|x| self.card(i, x)).collect()
    }

    /// `k` cards of `seat`'s hand, none of them with a face in `keep`.
    pub fn any_cards(&self, i: u8, k: usize, keep: &[&str]) -> Vec<CardRef> {
        let keep: Vec<Card> = keep.iter().map(|x| c(x)).collect();
        let v: Vec<CardRef> = self
            .st
            .zones
            .cards(ZoneId::Hand(seat(i)))
            .iter()
            .filter(|p| !keep.contains(&p.face))
            .map(|p| p.r)
            .take(k)
            .collect();
        assert_eq!(v.len(), k, "seat {i} has too few cards to spare");
        v
    }

    pub fn held(&self, i: u8) -> usize {
        self.st.held(seat(i))
    }

    pub fn lead(&mut self, i: u8, r: &str, cards: Vec<CardRef>) -> Vec<Effect> {
        self.act(
            s(i),
            Action::Lead {
                rank: rank(r),
                cards,
            },
        )
    }

    pub fn follow(&mut self, i: u8, cards: Vec<CardRef>) -> Vec<Effect> {
        self.act(s(i), Action::Follow { cards })
    }
}

/// Folding the log gives the same state, in every test that uses a table.
impl Drop for Table {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            assert_eq!(self.replay(), self.st, "folding the log differs");
        }
    }
}

#[test]
fn rules_default_is_valid() {
    use crate::engine::HouseRules;
    Rules::default().validate().unwrap();
}
