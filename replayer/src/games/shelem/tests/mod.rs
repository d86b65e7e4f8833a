//! Tests of the Shelem engine: given-when-then per rule (`rules`), the spec's worked
//! example §18 and scoring table §10 (`vectors`), JSON shapes (`json`) and whole random
//! matches (`props`). The test kit's property and tamper suites run for Shelem through the
//! registry (`replayer/tests/every_game.rs`, `replayer/tests/shelem_tamper.rs`).

use super::*;
use crate::cards::Card;
use crate::engine::{Actor, CardRef, Game, SeatIndex};
use crate::testkit::Table;
use crate::zones::ZoneId;

mod json;
mod props;
mod rules;
mod vectors;

pub(super) type T = Table<Shelem>;

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

/// A 52-card deck for a deal by `dealer` under the text's schedule for `n` seats, where
/// `places` fixes cards per place: `("h0", "AS KS")` seat 0's hand, `("w", …)` the widow,
/// `("p1.2", …)` seat 1's pile 2, in that packet's deal order. Unnamed slots take the other
/// cards in canonical order.
pub(super) fn deck(n: u8, dealer: u8, places: &[(&str, &str)]) -> Vec<Card> {
    let schedule = text_schedule(n);
    let mut slots: Vec<(String, Option<Card>)> = Vec::new();
    for p in &schedule {
        let name = match p.dest {
            Dest::Hand { offset } => format!("h{}", (dealer + offset) % n),
            Dest::Widow => "w".to_string(),
            Dest::Pile { offset, pile } => format!("p{}.{pile}", (dealer + offset) % n),
        };
        for _ in 0..p.cards {
            slots.push((name.clone(), None));
        }
    }
    let mut used: Vec<Card> = Vec::new();
    for (place, codes) in places {
        let mut it = cards(codes).into_iter();
        for slot in slots.iter_mut().filter(|x| x.0 == *place) {
            match it.next() {
                Some(card) => {
                    assert!(!used.contains(&card), "{card} placed twice");
                    used.push(card);
                    slot.1 = Some(card);
                }
                None => break,
            }
        }
        assert!(it.next().is_none(), "too many cards for {place}");
    }
    let mut rest = crate::cards::DeckKind::Standard52
        .cards()
        .into_iter()
        .filter(|x| !used.contains(x));
    slots
        .into_iter()
        .map(|(_, card)| card.unwrap_or_else(|| rest.next().unwrap()))
        .collect()
}

/// A match of `n` seats under `rules` whose first dealer is `dealer`.
pub(super) fn table(rules: &Rules, n: u8, dealer: u8) -> T {
    T::new(
        rules,
        &Setup {
            seats: n,
            first_dealer: seat(dealer),
        },
    )
}

/// The ref of the card `code` wherever it is (hand, pile).
pub(super) fn r(t: &T, code: &str) -> CardRef {
    let face = c(code);
    t.state
        .zones
        .iter()
        .find(|(_, p)| p.face == face)
        .map(|(_, p)| p.r)
        .unwrap()
}

/// Seat `i` plays `code`.
pub(super) fn play(t: &mut T, i: u8, code: &str) -> Vec<Effect> {
    let card = r(t, code);
    t.act(s(i), Action::Play { card })
}

/// The seat to act now.
pub(super) fn actor(t: &T) -> Actor {
    Shelem::to_act(&t.state).actors[0]
}

/// Bids and passes in order: `"1:110 2:115 3:p"`.
pub(super) fn auction(t: &mut T, calls: &str) {
    for call in calls.split_whitespace() {
        let (who, what) = call.split_once(':').unwrap();
        let who: u8 = who.parse().unwrap();
        let a = if what == "p" {
            Action::Pass
        } else {
            Action::Bid {
                amount: what.parse().unwrap(),
            }
        };
        t.act(s(who), a);
    }
}

/// The hakem lays away `codes`.
pub(super) fn lay_away(t: &mut T, codes: &str) -> Vec<Effect> {
    let h = t.state.hakem.unwrap();
    let cards: Vec<CardRef> = codes.split_whitespace().map(|x| r(t, x)).collect();
    t.act(Actor::Seat(h), Action::LayAway { cards })
}

/// Play the rest of the hand with `pick` choosing among each seat's playable cards (in
/// the order `legal_actions` lists them).
pub(super) fn play_out(t: &mut T, mut pick: impl FnMut(&T, SeatIndex, &[CardRef]) -> CardRef) {
    while t.state.phase == Phase::Playing {
        let who = t.state.to_play();
        let legal = Shelem::legal_actions(&t.state, Actor::Seat(who));
        let Some(Legal::Play { cards }) = legal.first() else {
            panic!("no play for {who}: {legal:?}");
        };
        let card = pick(t, who, cards);
        t.act(Actor::Seat(who), Action::Play { card });
    }
}

/// The first playable card.
pub(super) fn first(_: &T, _: SeatIndex, cards: &[CardRef]) -> CardRef {
    cards[0]
}

#[test]
fn rules_default_is_valid() {
    use crate::engine::HouseRules;
    Rules::default().validate().unwrap();
    assert_eq!(Rules::default().scoring(), Preset::P000.scoring());
}
