//! Tests of the Ghahve engine: given-when-then per rule (`rules`), the spec's worked
//! examples and test vectors §17 (`vectors`), JSON shapes (`json`) and property tests
//! (`props`). The harness is the core's [`crate::testkit::Table`]: after every step it
//! checks card conservation, that no seat's or the public's view leaks a face, and that the
//! legal families agree with `decide`.

use super::*;
use crate::cards::{Card, DeckKind};
use crate::engine::{Actor, CardRef, Game, SeatIndex, Viewer};
use crate::testkit;
use crate::zones::ZoneId;

mod json;
mod props;
mod rules;
mod vectors;

pub(super) type T = testkit::Table<Ghahve>;

/// A card from its code (`9C`, `TD`, `AS`, `BJ`).
pub(super) fn c(code: &str) -> Card {
    code.parse().unwrap()
}

pub(super) fn cards(codes: &str) -> Vec<Card> {
    testkit::cards(codes)
}

pub(super) fn s(i: u8) -> Actor {
    Actor::Seat(SeatIndex(i))
}

/// Rules with no cut, so deck positions are deal positions.
pub(super) fn no_cut() -> Rules {
    Rules {
        cut: Cut::None,
        ..Rules::default()
    }
}

/// A match whose next hand is dealt by `dealer`, with these scores.
pub(super) fn match_with(rules: &Rules, dealer: u8, scores: [i64; 2]) -> Match {
    let mut m = Ghahve::new_match(rules, &Setup { seats: 4 }).unwrap();
    m.dealer = Some(SeatIndex(dealer));
    m.scores = scores.to_vec();
    m
}

/// The deck order that deals `hands` (13 codes per seat, seats 0 to 3) with dealer 0 and
/// no cut (§6.2: seat 1 gets positions 0–4, 20–23, 36–39, and so on round to seat 0).
pub(super) fn deck_for(hands: [&str; 4]) -> Vec<Card> {
    let mut order = vec![None; 52];
    let plan: [(u8, [usize; 3]); 4] = [
        (1, [0, 20, 36]),
        (2, [5, 24, 40]),
        (3, [10, 28, 44]),
        (0, [15, 32, 48]),
    ];
    for (seat, starts) in plan {
        let hand = cards(hands[usize::from(seat)]);
        assert_eq!(hand.len(), 13, "seat {seat} is given {} cards", hand.len());
        let positions = (starts[0]..starts[0] + 5)
            .chain(starts[1]..starts[1] + 4)
            .chain(starts[2]..starts[2] + 4);
        for (pos, card) in positions.zip(hand) {
            order[pos] = Some(card);
        }
    }
    let order: Vec<Card> = order.into_iter().map(Option::unwrap).collect();
    let mut sorted = order.clone();
    sorted.sort();
    assert_eq!(sorted, DeckKind::Ghahve52.cards(), "not the ghahve deck");
    order
}

/// A hand with dealer 0 under `rules` (no cut unless the rules cut), dealt from `order`.
pub(super) fn dealt(rules: &Rules, order: &[Card]) -> T {
    let m = match_with(rules, 0, [0, 0]);
    let mut t = T::from_match(rules, &m);
    t.shuffle(order);
    t
}

/// The ref of the card `code` in seat `i`'s hand.
pub(super) fn r(t: &T, i: u8, code: &str) -> CardRef {
    t.state
        .zones
        .find_face(ZoneId::Hand(SeatIndex(i)), c(code))
        .unwrap_or_else(|| panic!("{code} is not in the hand of seat {i}"))
        .r
}

/// The faces of seat `i`'s hand, sorted.
pub(super) fn hand(t: &T, i: u8) -> Vec<Card> {
    let mut h = t.state.zones.faces(ZoneId::Hand(SeatIndex(i)));
    h.sort();
    h
}

pub(super) fn sorted(codes: &str) -> Vec<Card> {
    let mut v = cards(codes);
    v.sort();
    v
}

pub(super) fn bid(t: &mut T, i: u8, n: u8) -> Vec<Effect> {
    t.act(s(i), Action::Bid { n })
}

pub(super) fn play(t: &mut T, i: u8, code: &str) -> Vec<Effect> {
    let card = r(t, i, code);
    t.act(s(i), Action::Play { card })
}

pub(super) fn try_play(t: &mut T, i: u8, code: &str, rule: Rule) {
    let card = r(t, i, code);
    let legal = Ghahve::legal_actions(&t.state, s(i));
    assert!(
        !legal.iter().any(|l| l.allows(&Action::Play { card })),
        "{code} by seat {i} is offered as legal"
    );
    t.reject(s(i), Action::Play { card }, rule.as_str());
    let refused = Ghahve::decide(&t.state, s(i), &Action::Play { card }).unwrap_err();
    assert!(
        refused.section.starts_with("ghahve §"),
        "{}",
        refused.section
    );
}

/// The faces seat `i` may play now, sorted.
pub(super) fn playable(t: &T, i: u8) -> Vec<Card> {
    let legal = Ghahve::legal_actions(&t.state, s(i));
    let Some(Legal::Play { cards }) = legal.first() else {
        panic!("seat {i} may not play: {legal:?}")
    };
    let mut v: Vec<Card> = cards
        .iter()
        .map(|r| t.state.zones.find(*r).unwrap().1.face)
        .collect();
    v.sort();
    v
}

/// Bid the four bids in order (d + 1 first).
pub(super) fn bids(t: &mut T, order: [(u8, u8); 4]) {
    for (i, n) in order {
        bid(t, i, n);
    }
}

/// Play one card for whoever is to play: the first legal card other than those in `avoid`
/// when there is one.
pub(super) fn play_next(t: &mut T, avoid: &[Card]) -> Vec<Effect> {
    let who = t.state.to_play();
    let legal = Ghahve::legal_actions(&t.state, Actor::Seat(who));
    let Some(Legal::Play { cards }) = legal.first() else {
        panic!("no play for {who}: {legal:?}")
    };
    let pick = cards
        .iter()
        .find(|r| !avoid.contains(&t.state.zones.find(**r).unwrap().1.face))
        .or(cards.first())
        .copied()
        .unwrap();
    t.act(Actor::Seat(who), Action::Play { card: pick })
}

/// The effects of type `kind` in `effects`, as JSON.
pub(super) fn of_type(effects: &[Effect], kind: &str) -> Vec<serde_json::Value> {
    effects
        .iter()
        .map(|e| serde_json::to_value(e).unwrap())
        .filter(|e| e["type"] == kind)
        .collect()
}

pub(super) fn seat(i: u8) -> SeatIndex {
    SeatIndex(i)
}

pub(super) fn viewer(i: u8) -> Viewer {
    Viewer::Seat(SeatIndex(i))
}

#[test]
fn rules_default_is_valid_and_for_four_only() {
    use crate::engine::HouseRules;
    Rules::default().validate().unwrap();
    assert!(Rules::default().for_seats(4).is_ok());
    for n in [2, 3, 5] {
        assert!(Rules::default().for_seats(n).is_err(), "{n} seats");
    }
}
