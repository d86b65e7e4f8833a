//! Tests of the Pasur engine: given-when-then per rule (`rules`), the spec's worked
//! examples TV-1…TV-10 (`vectors`), JSON shapes (`json`) and property tests (`props`).

use super::*;
use crate::cards::Card;
use crate::engine::{CardRef, SeatIndex};
use crate::testkit::{stack, Table};
use crate::zones::{Seen, ZoneId};

mod json;
mod props;
mod rules;
mod vectors;

/// A card from its code.
pub(super) fn c(code: &str) -> Card {
    code.parse().unwrap()
}

pub(super) fn cards(codes: &str) -> Vec<Card> {
    codes.split_whitespace().map(c).collect()
}

pub(super) fn s(i: u8) -> crate::engine::Actor {
    crate::engine::Actor::Seat(SeatIndex(i))
}

/// A first hand of `n` seats, dealer seat 0, under `rules`, shuffled with `top` first.
pub(super) fn dealt(rules: &Rules, n: u8, top: &str) -> Table<Pasur> {
    let mut t = Table::<Pasur>::new(
        rules,
        &Setup {
            seats: n,
            first_dealer: SeatIndex(0),
        },
    );
    t.shuffle_top(&cards(top));
    t
}

/// A position: a dealt hand whose hands and table are then laid out as given (every other
/// card back in the stock, in canonical order), with seat `turn` to play. Cards stay
/// conserved: they only move between zones.
pub(super) fn position(rules: &Rules, n: u8, hands: &[&str], table: &str) -> Table<Pasur> {
    let mut t = dealt(rules, n, "");
    let z = &mut t.state.zones;
    for i in 0..n {
        for r in z.refs_in(ZoneId::Hand(SeatIndex(i))) {
            z.move_card(ZoneId::Hand(SeatIndex(i)), r, ZoneId::Stock, Seen::NOBODY)
                .unwrap();
        }
    }
    for r in z.refs_in(ZoneId::Table) {
        z.move_card(ZoneId::Table, r, ZoneId::Stock, Seen::NOBODY)
            .unwrap();
    }
    for (i, h) in hands.iter().enumerate() {
        let seat = SeatIndex(u8::try_from(i).unwrap());
        for face in cards(h) {
            let r = z.find_face(ZoneId::Stock, face).unwrap().r;
            z.move_card(ZoneId::Stock, r, ZoneId::Hand(seat), Seen::seat(seat))
                .unwrap();
        }
    }
    for face in cards(table) {
        let r = z.find_face(ZoneId::Stock, face).unwrap().r;
        z.move_card(ZoneId::Stock, r, ZoneId::Table, Seen::EVERYONE)
            .unwrap();
    }
    t.check();
    t
}

/// The ref of `code` in `zone`.
pub(super) fn r_in(t: &Table<Pasur>, zone: ZoneId, code: &str) -> CardRef {
    t.state
        .zones
        .find_face(zone, c(code))
        .unwrap_or_else(|| panic!("{code} is not in {zone}"))
        .r
}

/// `seat` plays `card`, taking `capture` (`None`: no capture named).
pub(super) fn play(t: &Table<Pasur>, seat: u8, card: &str, capture: Option<&str>) -> Action {
    Action::Play {
        card: r_in(t, ZoneId::Hand(SeatIndex(seat)), card),
        capture: capture.map(|codes| {
            codes
                .split_whitespace()
                .map(|x| r_in(t, ZoneId::Table, x))
                .collect()
        }),
    }
}

/// The table's faces, sorted.
pub(super) fn table(t: &Table<Pasur>) -> Vec<Card> {
    let mut v = t.state.zones.faces(ZoneId::Table);
    v.sort();
    v
}

/// The faces `seat` has captured, sorted.
pub(super) fn won(t: &Table<Pasur>, seat: u8) -> Vec<Card> {
    let mut v = t.state.zones.faces(ZoneId::Won(SeatIndex(seat)));
    v.sort();
    v
}

pub(super) fn sorted(codes: &str) -> Vec<Card> {
    let mut v = cards(codes);
    v.sort();
    v
}

/// The capture sets of the legal family of `card` for the seat to play, as sorted faces.
pub(super) fn options_of(t: &Table<Pasur>, card: &str) -> Vec<Vec<Card>> {
    let seat = t.state.turn;
    let r = r_in(t, ZoneId::Hand(seat), card);
    let legal = Pasur::legal_actions(&t.state, crate::engine::Actor::Seat(seat));
    let Some(Legal::Play { captures, .. }) = legal
        .into_iter()
        .find(|l| matches!(l, Legal::Play { card, .. } if *card == r))
    else {
        return Vec::new();
    };
    let mut out: Vec<Vec<Card>> = captures
        .iter()
        .map(|set| {
            let mut f: Vec<Card> = set
                .iter()
                .map(|x| t.state.zones.face_in(ZoneId::Table, *x).unwrap())
                .collect();
            f.sort();
            f
        })
        .collect();
    out.sort();
    out
}

/// Whether `effects` hold a sur.
pub(super) fn has_sur(effects: &[Effect]) -> bool {
    effects.iter().any(|e| matches!(e, Effect::Sur { .. }))
}

/// A deck of 52 with `top` first.
pub(super) fn deck_top(top: &str) -> Vec<Card> {
    stack(&crate::cards::DeckKind::Standard52.cards(), &cards(top))
}
