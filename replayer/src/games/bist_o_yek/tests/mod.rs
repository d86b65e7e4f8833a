//! Tests of the Bist-o-yek engine: given-when-then per rule (`rules`), the spec's worked
//! examples TV-1…TV-8 (`vectors`), JSON shapes (`json`) and property tests (`props`).

use super::state::{duel_zone, hidden_zone, waiting_zone, BANKER_UP, DISCARD, STOCK};
use super::*;
use crate::cards::{Card, DeckKind};
use crate::engine::{apply, apply_shuffle, Actor, Game, HouseRules, SeatIndex, Viewer, Violation};

mod json;
mod props;
mod rules;
mod vectors;
mod zones;

/// A card from its code (`9C`, `10D`, `AS`).
pub(super) fn c(code: &str) -> Card {
    code.parse().unwrap()
}

/// A stock order: the listed top cards first, then the rest of the 36-card deck in
/// canonical order.
pub(super) fn order(top: &str) -> Vec<Card> {
    let mut v: Vec<Card> = top.split_whitespace().map(c).collect();
    for card in DeckKind::BistOYek36.cards() {
        if !v.contains(&card) {
            v.push(card);
        }
    }
    assert_eq!(v.len(), 36, "duplicate card in {top:?}");
    v
}

pub(super) fn s(i: u8) -> Actor {
    Actor::Seat(SeatIndex(i))
}

pub(super) fn bet(amount: u64) -> Action {
    Action::Bet { amount }
}

pub(super) fn side(amount: u64) -> Action {
    Action::SideBet { amount }
}

pub(super) fn hit() -> Action {
    Action::Hit { expose: None }
}

pub(super) fn hit_exposing(code: &str) -> Action {
    Action::Hit {
        expose: Some(c(code)),
    }
}

/// A hand under test: the state, the log of effects (with the orders of shuffles) and checks
/// after every step.
pub(super) struct Table {
    pub st: State,
    pub init: State,
    pub log: Vec<(Effect, Option<Vec<Card>>)>,
}

impl Table {
    /// A new hand with `rules`, balances as given and seat 0 the first candidate.
    pub fn new(rules: Rules, balances: &[u64]) -> Table {
        let setup = Setup {
            seats: u8::try_from(balances.len()).unwrap(),
            first_banker: SeatIndex(0),
            balances: balances.to_vec(),
        };
        let m = BistOYek::new_match(&rules, &setup).unwrap();
        Table::from_match(&rules, &m)
    }

    pub fn from_match(rules: &Rules, m: &Match) -> Table {
        let st = BistOYek::new_hand(rules, m).unwrap();
        Table {
            init: st.clone(),
            st,
            log: Vec::new(),
        }
    }

    /// Seat 0 accepts the bank and the new-turn shuffle is `order(top)`: `RoundStart`.
    pub fn started(rules: Rules, balances: &[u64], top: &str) -> Table {
        let mut t = Table::new(rules, balances);
        t.act(s(0), Action::AcceptBank);
        t.shuffle(&order(top));
        assert_eq!(t.st.phase, Phase::RoundStart);
        t
    }

    /// The invariants that hold after every step.
    pub fn check(&self) {
        assert_eq!(
            self.st.money_now(),
            Some(self.st.total),
            "money not conserved"
        );
        check_cards(&self.st);
    }

    /// `actor` does `a`; it must be accepted.
    pub fn act(&mut self, actor: Actor, a: Action) -> Vec<Effect> {
        let legal = BistOYek::legal_actions(&self.st, actor);
        assert!(
            legal.iter().any(|l| l.allows(&a)),
            "{a:?} by {actor} not in legal actions {legal:?} (phase {:?})",
            self.st.phase
        );
        let effects = match apply::<BistOYek>(&mut self.st, actor, &a) {
            Ok(e) => e,
            Err(v) => panic!("{a:?} by {actor} rejected: {v}"),
        };
        self.log.extend(effects.iter().map(|e| (e.clone(), None)));
        self.check();
        effects
    }

    /// `actor` tries `a`; it must be rejected with `rule`, leaving the state unchanged.
    pub fn reject(&mut self, actor: Actor, a: Action, rule: &str) -> Violation {
        let before = self.st.clone();
        let legal = BistOYek::legal_actions(&self.st, actor);
        assert!(
            !legal.iter().any(|l| l.allows(&a)),
            "{a:?} by {actor} is listed as legal: {legal:?}"
        );
        let v = apply::<BistOYek>(&mut self.st, actor, &a).unwrap_err();
        assert_eq!(v.rule, rule, "{a:?} by {actor}: {v}");
        assert!(v.section.starts_with("bist-o-yek §"), "{}", v.section);
        assert_eq!(self.st, before, "a rejected action changed the state");
        v
    }

    /// The pending committed shuffle is `order`.
    pub fn shuffle(&mut self, order: &[Card]) -> Vec<Effect> {
        let req = BistOYek::to_act(&self.st)
            .shuffle
            .expect("no shuffle pending");
        let mut sorted = order.to_vec();
        sorted.sort();
        assert_eq!(sorted, req.cards, "order is not the requested multiset");
        let n = self.st.shuffles;
        let effects = apply_shuffle::<BistOYek>(&mut self.st, n, order).unwrap();
        self.log
            .extend(effects.iter().map(|e| (e.clone(), Some(order.to_vec()))));
        self.check();
        effects
    }

    pub fn bal(&self) -> Vec<u64> {
        self.st.balance.clone()
    }

    pub fn phase(&self) -> Phase {
        self.st.phase
    }

    /// Test set-up only ("given a bank of …"): move money between the bank and `seat`.
    pub fn given_bank(&mut self, bank: u64, seat: u8) {
        let i = usize::from(seat);
        if bank >= self.st.bank {
            self.st.balance[i] -= bank - self.st.bank;
        } else {
            self.st.balance[i] += self.st.bank - bank;
        }
        self.st.bank = bank;
        self.check();
    }

    /// Fold the log from the initial state: must give the current state (not after
    /// [`Table::given_bank`], which changes the state outside the log).
    pub fn replay(&self) -> State {
        let mut st = self.init.clone();
        for (e, order) in &self.log {
            BistOYek::evolve(&mut st, e, order.as_deref());
        }
        st
    }

    pub fn player_cards(&self) -> Vec<Card> {
        self.st.duel_cards().iter().map(|h| h.face).collect()
    }

    pub fn banker_cards(&self) -> Vec<Card> {
        self.st.banker_cards().iter().map(|h| h.face).collect()
    }

    pub fn hidden(&self) -> Option<Card> {
        self.st.hidden().map(|h| h.face)
    }
}

/// Card conservation: nothing named before the hand's first shuffle; after it, the core's
/// check holds and the zones hold the 36 cards of the deck, each once.
pub(super) fn check_cards(st: &State) {
    let z = BistOYek::zones(st);
    if st.shuffles == 0 {
        assert_eq!(z.total(), 0, "cards named before the first shuffle");
        return;
    }
    z.check()
        .unwrap_or_else(|e| panic!("cards not conserved: {e}"));
    let mut cards: Vec<Card> = z.iter().map(|(_, p)| p.face).collect();
    cards.sort();
    assert_eq!(cards, DeckKind::BistOYek36.cards(), "cards not conserved");
}

/// The faces a view shows (face up, or seen by this viewer).
pub(super) fn visible_faces(v: &View) -> Vec<Card> {
    let mut out: Vec<Card> = v.waiting.iter().filter_map(|w| w.card.face).collect();
    out.extend(v.hidden.iter().filter_map(|h| h.card.face));
    if let Some(d) = &v.duel {
        out.extend(d.cards.iter().filter_map(|c| c.face));
    }
    out.extend(v.banker_cards.iter().filter_map(|c| c.face));
    out.extend(v.discard_seen.iter().copied());
    out
}

#[test]
fn rules_default_is_valid() {
    Rules::default().validate().unwrap();
}
