//! Tests of the Hokm engine: given-when-then per rule (`rules`), the spec's worked examples
//! and test vectors §17 (`vectors`), JSON shapes (`json`) and property tests (`props`).

use super::*;
use crate::cards::{Card, DeckKind};
use crate::engine::{apply, apply_shuffle, Actor, CardRef, Game, SeatIndex, Viewer};
use crate::zones::ZoneId;

mod json;
mod props;
mod rules;
mod vectors;

/// A card from its code (`9C`, `TD`, `AS`).
pub(super) fn c(code: &str) -> Card {
    code.parse().unwrap()
}

pub(super) fn cards(codes: &str) -> Vec<Card> {
    codes.split_whitespace().map(c).collect()
}

pub(super) fn s(i: u8) -> Actor {
    Actor::Seat(SeatIndex(i))
}

pub(super) fn seat(i: u8) -> SeatIndex {
    SeatIndex(i)
}

pub(super) fn suit(code: &str) -> SuitCode {
    SuitCode(c(&format!("2{code}")).suit().unwrap())
}

/// A deck order of `deck`: the chosen cards at the chosen positions, the rest in canonical
/// order in the free positions.
pub(super) fn deck_with(deck: DeckKind, placed: &[(usize, &str)]) -> Vec<Card> {
    let all = deck.cards();
    let mut slots: Vec<Option<Card>> = vec![None; all.len()];
    for (pos, code) in placed {
        assert!(slots[*pos].is_none(), "position {pos} placed twice");
        slots[*pos] = Some(c(code));
    }
    let chosen: Vec<Card> = slots.iter().flatten().copied().collect();
    let mut rest = all.into_iter().filter(|x| !chosen.contains(x));
    let out: Vec<Card> = slots
        .into_iter()
        .map(|s| s.unwrap_or_else(|| rest.next().unwrap()))
        .collect();
    let mut sorted = out.clone();
    sorted.sort();
    assert_eq!(sorted, deck.cards(), "a card placed twice");
    out
}

/// Place whole packets: `(first position, "c1 c2 …")`.
pub(super) fn deck_packets(deck: DeckKind, packets: &[(usize, &str)]) -> Vec<Card> {
    let mut placed: Vec<(usize, String)> = Vec::new();
    for (start, codes) in packets {
        for (i, code) in codes.split_whitespace().enumerate() {
            placed.push((start + i, code.to_string()));
        }
    }
    let refs: Vec<(usize, &str)> = placed.iter().map(|(p, s)| (*p, s.as_str())).collect();
    deck_with(deck, &refs)
}

pub(super) fn canonical(deck: DeckKind) -> Vec<Card> {
    deck.cards()
}

/// A hand under test: the state, the log of effects (with the orders of shuffles) and
/// checks after every step.
pub(super) struct Table {
    pub st: State,
    pub init: State,
    pub log: Vec<(Effect, Option<Vec<Card>>)>,
}

/// Rules with no cut (for exact deck positions).
pub(super) fn no_cut() -> Rules {
    Rules {
        cut: Cut::None,
        ..Rules::default()
    }
}

impl Table {
    /// A new match of `n` seats with `rules`; given `hakem`, a match state whose next hand
    /// has that hakem (as after an earlier hand), else the match's first hand (the draw).
    pub fn new(rules: Rules, n: u8, hakem: Option<u8>) -> Table {
        let mut m = Hokm::new_match(&rules, &Setup { seats: n }).unwrap();
        m.hakem = hakem.map(SeatIndex);
        Table::from_match(&rules, &m)
    }

    pub fn from_match(rules: &Rules, m: &Match) -> Table {
        let st = Hokm::new_hand(rules, m).unwrap();
        Table {
            init: st.clone(),
            st,
            log: Vec::new(),
        }
    }

    /// The invariants that hold after every step.
    pub fn check(&self) {
        self.st.zones.check().unwrap();
    }

    /// `actor` does `a`; it must be legal and accepted.
    pub fn act(&mut self, actor: Actor, a: Action) -> Vec<Effect> {
        let legal = Hokm::legal_actions(&self.st, actor);
        assert!(
            legal.iter().any(|l| l.allows(&a)),
            "{a:?} by {actor} not in legal actions {legal:?} (phase {:?})",
            self.st.phase
        );
        let effects = match apply::<Hokm>(&mut self.st, actor, &a) {
            Ok(e) => e,
            Err(v) => panic!("{a:?} by {actor} rejected: {v}"),
        };
        self.log.extend(effects.iter().map(|e| (e.clone(), None)));
        self.check();
        effects
    }

    /// `actor` tries `a`; it must be rejected with `rule`, leaving the state unchanged.
    pub fn reject(&mut self, actor: Actor, a: Action, rule: Rule) {
        let before = self.st.clone();
        let legal = Hokm::legal_actions(&self.st, actor);
        assert!(
            !legal.iter().any(|l| l.allows(&a)),
            "{a:?} by {actor} is listed as legal: {legal:?}"
        );
        let v = apply::<Hokm>(&mut self.st, actor, &a).unwrap_err();
        assert_eq!(v.rule, rule.as_str(), "{a:?} by {actor}: {v}");
        assert!(v.section.starts_with("hokm §"), "{}", v.section);
        assert_eq!(self.st, before, "a rejected action changed the state");
    }

    /// The pending committed shuffle is `order`.
    pub fn shuffle(&mut self, order: &[Card]) -> Vec<Effect> {
        let req = Hokm::to_act(&self.st).shuffle.expect("no shuffle pending");
        let mut sorted = order.to_vec();
        sorted.sort();
        assert_eq!(sorted, req.cards, "order is not the requested multiset");
        let n = self.st.shuffles;
        let effects = apply_shuffle::<Hokm>(&mut self.st, n, order).unwrap();
        self.log
            .extend(effects.iter().map(|e| (e.clone(), Some(order.to_vec()))));
        self.check();
        effects
    }

    /// Fold the log from the initial state.
    pub fn replay(&self) -> State {
        let mut st = self.init.clone();
        for (e, order) in &self.log {
            Hokm::evolve(&mut st, e, order.as_deref());
        }
        st
    }

    pub fn phase(&self) -> Phase {
        self.st.phase
    }

    /// The faces of `seat`'s hand, in order received.
    pub fn hand(&self, i: u8) -> Vec<Card> {
        self.st.zones.faces(ZoneId::Hand(seat(i)))
    }

    /// The ref of the card with face `code` in `seat`'s hand.
    pub fn r(&self, i: u8, code: &str) -> CardRef {
        self.st
            .zones
            .find_face(ZoneId::Hand(seat(i)), c(code))
            .unwrap_or_else(|| panic!("{code} is not in the hand of seat {i}"))
            .r
    }

    /// Seat `i` plays `code`.
    pub fn play(&mut self, i: u8, code: &str) -> Vec<Effect> {
        let card = self.r(i, code);
        self.act(s(i), Action::Play { card })
    }

    /// The faces seat `viewer` sees in zone `zone`.
    pub fn seen(&self, viewer: Viewer, zone: ZoneId) -> Vec<Option<Card>> {
        self.st
            .zones
            .zone_view(zone, viewer)
            .into_iter()
            .map(|v| v.face)
            .collect()
    }

    /// Complete the current trick with the first playable card of each seat.
    pub fn play_any_trick(&mut self) {
        loop {
            if self.st.phase != Phase::Playing {
                return;
            }
            let who = self.st.to_play();
            let legal = Hokm::legal_actions(&self.st, Actor::Seat(who));
            let Some(Legal::Play { cards }) = legal.first() else {
                panic!("no play for {who}: {legal:?}");
            };
            let card = cards[0];
            self.act(Actor::Seat(who), Action::Play { card });
            if self.st.zones.is_empty(ZoneId::Trick) {
                return;
            }
        }
    }
}

#[test]
fn rules_default_is_valid() {
    use crate::engine::HouseRules;
    Rules::default().validate().unwrap();
}
