//! Hidden information, owned by the core: every physical card of a hand lives in exactly one
//! **zone** (the stock, a seat's hand, a face-down pile, the table, a trick, a seat's won
//! cards, the discards, out of play) and knows **who may see its face** ([`Seen`]: nobody,
//! some seats, everyone).
//!
//! An engine keeps its cards in a [`Zones`] and moves them with its methods; it never keeps a
//! face of its own beside them. Three things then follow for every game, once:
//!
//! * **views**: [`Zones::view`] shows a viewer each card's [`CardRef`] and, only where the
//!   viewer may see it, its face. An engine's view embeds this [`ZonesView`] for its cards
//!   and adds only public facts (scores, trump, whose turn);
//! * **conservation**: [`Zones::check`] finds a card that was lost, duplicated or invented
//!   (every card installed by a committed shuffle is in exactly one zone);
//! * **no leak**: [`Zones::scramble_hidden`] swaps the faces of the cards a viewer may not
//!   see among themselves; a view that is a function of what the viewer may see is unchanged
//!   by it. The property suite checks this for every engine, at every step.
//!
//! A card is named in the public log only by its [`CardRef`]: the committed shuffle that
//! ordered it and its position there. When cards whose faces some seat has seen go back into
//! a hidden hand (Bluff's pile taken up), the engine asks for a **relabel**: a committed
//! shuffle of exactly those cards ([`Zones::refs_in`] names them, never their faces), after
//! which [`Zones::relabel`] gives them new refs in the shuffle's order, so later plays cannot
//! be linked to the faces that were seen.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::cards::Card;
use crate::engine::{CardRef, SeatIndex, Viewer};

/// Who may see a card's face: nobody, a set of seats, or everyone.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Seen {
    everyone: bool,
    /// Bit `s` set: seat `s` may see it.
    seats: u32,
}

impl Seen {
    /// Nobody (a face-down stock, a burned card).
    pub const NOBODY: Seen = Seen {
        everyone: false,
        seats: 0,
    };
    /// Everyone (a card played face up, a revealed card).
    pub const EVERYONE: Seen = Seen {
        everyone: true,
        seats: 0,
    };

    /// Exactly one seat (a card dealt to that seat's hand).
    pub fn seat(seat: SeatIndex) -> Seen {
        Seen::NOBODY.and(seat)
    }

    /// This and also `seat`.
    pub fn and(self, seat: SeatIndex) -> Seen {
        let bit = 1u32.checked_shl(u32::from(seat.0)).unwrap_or(0);
        Seen {
            everyone: self.everyone,
            seats: self.seats | bit,
        }
    }

    /// Whether everyone may see it.
    pub fn is_public(self) -> bool {
        self.everyone
    }

    /// Whether `seat` may see it.
    pub fn by_seat(self, seat: SeatIndex) -> bool {
        self.everyone
            || 1u32
                .checked_shl(u32::from(seat.0))
                .is_some_and(|bit| self.seats & bit != 0)
    }

    /// Whether `viewer` may see it ([`Viewer::All`] sees everything).
    pub fn by(self, viewer: Viewer) -> bool {
        match viewer {
            Viewer::All => true,
            Viewer::Public => self.everyone,
            Viewer::Seat(s) => self.by_seat(s),
        }
    }

    /// The seats named (without the everyone flag), in order.
    pub fn seats(self) -> Vec<SeatIndex> {
        (0u8..32)
            .filter(|s| self.seats & (1u32 << s) != 0)
            .map(SeatIndex)
            .collect()
    }
}

/// Serialized as `"everyone"`, or the list of seats that may see the face (`[]` = nobody).
impl Serialize for Seen {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.everyone {
            s.serialize_str("everyone")
        } else {
            self.seats().serialize(s)
        }
    }
}

/// Where a card is. Each game uses the zones it needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(tag = "zone", content = "of", rename_all = "snake_case")]
pub enum ZoneId {
    /// The undealt stock; position 0 is the top.
    Stock,
    /// A seat's hand.
    Hand(SeatIndex),
    /// A face-down pile, numbered per game (Bluff's pile is 0).
    Pile(u8),
    /// Cards laid out on the table (Pasur's table cards, a draw's turned cards).
    Table,
    /// The trick being played.
    Trick,
    /// Cards a seat has won (tricks, captures).
    Won(SeatIndex),
    /// Discards (face down unless the game says otherwise).
    Discard,
    /// Out of play for the rest of the hand (burned, set aside).
    Out,
}

impl fmt::Display for ZoneId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ZoneId::Stock => f.write_str("the stock"),
            ZoneId::Hand(s) => write!(f, "the hand of {s}"),
            ZoneId::Pile(k) => write!(f, "pile {k}"),
            ZoneId::Table => f.write_str("the table"),
            ZoneId::Trick => f.write_str("the trick"),
            ZoneId::Won(s) => write!(f, "the cards won by {s}"),
            ZoneId::Discard => f.write_str("the discards"),
            ZoneId::Out => f.write_str("out of play"),
        }
    }
}

/// One physical card: its public name, its face, and who may see the face.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Placed {
    /// The public name.
    pub r: CardRef,
    /// The face (known to the state, which holds full information).
    pub face: Card,
    /// Who may see the face.
    pub seen: Seen,
}

/// A zone operation that does not fit the cards where they are: a bug in an engine's rules
/// (they check first), or a corrupted state.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ZoneError {
    /// The card is not in that zone.
    #[error("card {r:?} is not in {zone}")]
    NotThere {
        /// The card.
        r: CardRef,
        /// Where it was looked for.
        zone: ZoneId,
    },
    /// The zone has fewer cards than asked for.
    #[error("{zone} holds {has} cards, not {want}")]
    TooFew {
        /// The zone.
        zone: ZoneId,
        /// Cards asked for.
        want: usize,
        /// Cards there.
        has: usize,
    },
    /// A card is in two places at once.
    #[error("card {0:?} is in two places")]
    Duplicated(CardRef),
    /// Cards came or went outside a committed shuffle.
    #[error("{found} cards in play, {expected} installed")]
    Count {
        /// Installed by shuffles (less those replaced by relabels).
        expected: usize,
        /// Found in the zones.
        found: usize,
    },
    /// A relabel's order is not a permutation of the zone's faces.
    #[error("the relabel order is not a permutation of the cards of {0}")]
    RelabelFaces(ZoneId),
    /// A full reshuffle's order is not a permutation of the faces in play.
    #[error("the reshuffle order is not a permutation of the cards in play")]
    ReshuffleFaces,
}

/// Every card of a hand, zone by zone. Cards keep their order within a zone (a stock's
/// top first, a hand in the order received, a pile from the bottom up).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Zones {
    zones: BTreeMap<ZoneId, Vec<Placed>>,
    installed: usize,
}

impl Zones {
    /// No cards yet.
    pub fn new() -> Zones {
        Zones::default()
    }

    /// Install a committed shuffle: its cards, in its order (top first), are appended to
    /// `zone`, each named `(shuffle, pos)` and seen by `seen`.
    pub fn install(&mut self, zone: ZoneId, shuffle: u32, order: &[Card], seen: Seen) {
        let list = self.zones.entry(zone).or_default();
        for (pos, face) in (0u32..).zip(order) {
            list.push(Placed {
                r: CardRef { shuffle, pos },
                face: *face,
                seen,
            });
        }
        self.installed = self.installed.saturating_add(order.len());
    }

    /// The cards of `zone`, in order.
    pub fn cards(&self, zone: ZoneId) -> &[Placed] {
        self.zones.get(&zone).map(Vec::as_slice).unwrap_or(&[])
    }

    /// How many cards `zone` holds.
    pub fn len(&self, zone: ZoneId) -> usize {
        self.cards(zone).len()
    }

    /// Whether `zone` holds no card.
    pub fn is_empty(&self, zone: ZoneId) -> bool {
        self.len(zone) == 0
    }

    /// The faces in `zone`, in order (for the rules; never for a view).
    pub fn faces(&self, zone: ZoneId) -> Vec<Card> {
        self.cards(zone).iter().map(|p| p.face).collect()
    }

    /// The refs in `zone`, in order: what a restock or relabel names in the log.
    pub fn refs_in(&self, zone: ZoneId) -> Vec<CardRef> {
        self.cards(zone).iter().map(|p| p.r).collect()
    }

    /// Where the card named `r` is, and the card.
    pub fn find(&self, r: CardRef) -> Option<(ZoneId, &Placed)> {
        self.zones
            .iter()
            .find_map(|(z, list)| list.iter().find(|p| p.r == r).map(|p| (*z, p)))
    }

    /// The card named `r` in `zone`.
    pub fn get(&self, zone: ZoneId, r: CardRef) -> Option<&Placed> {
        self.cards(zone).iter().find(|p| p.r == r)
    }

    /// The face of the card named `r` in `zone`.
    pub fn face_in(&self, zone: ZoneId, r: CardRef) -> Option<Card> {
        self.get(zone, r).map(|p| p.face)
    }

    /// The first card of `zone` with face `face` (faces are unique in a one-pack deck).
    pub fn find_face(&self, zone: ZoneId, face: Card) -> Option<&Placed> {
        self.cards(zone).iter().find(|p| p.face == face)
    }

    /// Move the card `r` from `from` to the end of `to`, seen by `seen`.
    pub fn move_card(
        &mut self,
        from: ZoneId,
        r: CardRef,
        to: ZoneId,
        seen: Seen,
    ) -> Result<Placed, ZoneError> {
        let list = self.zones.get_mut(&from);
        let i = list
            .as_ref()
            .and_then(|l| l.iter().position(|p| p.r == r))
            .ok_or(ZoneError::NotThere { r, zone: from })?;
        let mut card = match list {
            Some(l) => l.remove(i),
            None => return Err(ZoneError::NotThere { r, zone: from }),
        };
        card.seen = seen;
        self.zones.entry(to).or_default().push(card);
        Ok(card)
    }

    /// Move the card `r` from `from` to position `index` of `to` (0 = the top of a stock; an
    /// index past the end appends), seen by `seen`: Pasur's table jack put back into the
    /// middle of the stock (`pasur` §4.3), or its replacement laid in the jack's place.
    pub fn move_card_at(
        &mut self,
        from: ZoneId,
        r: CardRef,
        to: ZoneId,
        index: usize,
        seen: Seen,
    ) -> Result<Placed, ZoneError> {
        let list = self.zones.get_mut(&from);
        let i = list
            .as_ref()
            .and_then(|l| l.iter().position(|p| p.r == r))
            .ok_or(ZoneError::NotThere { r, zone: from })?;
        let mut card = match list {
            Some(l) => l.remove(i),
            None => return Err(ZoneError::NotThere { r, zone: from }),
        };
        card.seen = seen;
        let dest = self.zones.entry(to).or_default();
        let at = index.min(dest.len());
        dest.insert(at, card);
        Ok(card)
    }

    /// Move the first `n` cards of `from` (the top of a stock) to the end of `to`, seen by
    /// `seen`; returns them.
    pub fn move_top(
        &mut self,
        from: ZoneId,
        n: usize,
        to: ZoneId,
        seen: Seen,
    ) -> Result<Vec<Placed>, ZoneError> {
        let has = self.len(from);
        if has < n {
            return Err(ZoneError::TooFew {
                zone: from,
                want: n,
                has,
            });
        }
        let mut taken: Vec<Placed> = match self.zones.get_mut(&from) {
            Some(l) => l.drain(..n).collect(),
            None => Vec::new(),
        };
        for c in &mut taken {
            c.seen = seen;
        }
        self.zones
            .entry(to)
            .or_default()
            .extend(taken.iter().copied());
        Ok(taken)
    }

    /// Move every card of `from` to the end of `to`, seen by `seen`.
    pub fn move_all(&mut self, from: ZoneId, to: ZoneId, seen: Seen) -> Vec<Placed> {
        let n = self.len(from);
        self.move_top(from, n, to, seen).unwrap_or_default()
    }

    /// Let `seat` see the face of `r` too.
    pub fn show_to(&mut self, r: CardRef, seat: SeatIndex) -> Result<(), ZoneError> {
        self.set_seen_with(r, |s| s.and(seat))
    }

    /// Turn the card `r` face up for everyone.
    pub fn reveal(&mut self, r: CardRef) -> Result<(), ZoneError> {
        self.set_seen_with(r, |_| Seen::EVERYONE)
    }

    /// Set who may see every card of `zone`.
    pub fn set_seen_all(&mut self, zone: ZoneId, seen: Seen) {
        if let Some(l) = self.zones.get_mut(&zone) {
            for c in l {
                c.seen = seen;
            }
        }
    }

    fn set_seen_with(&mut self, r: CardRef, f: impl Fn(Seen) -> Seen) -> Result<(), ZoneError> {
        for list in self.zones.values_mut() {
            if let Some(c) = list.iter_mut().find(|p| p.r == r) {
                c.seen = f(c.seen);
                return Ok(());
            }
        }
        Err(ZoneError::NotThere {
            r,
            zone: ZoneId::Out,
        })
    }

    /// Relabel the cards of `zone` from a committed shuffle of exactly their faces: the
    /// zone's cards are replaced by `(shuffle, pos)` for `order`'s positions, seen by
    /// `seen`. The old refs are gone for good, so nobody can follow a seen card into the
    /// hand. `order` must be a permutation of the zone's faces.
    pub fn relabel(
        &mut self,
        zone: ZoneId,
        shuffle: u32,
        order: &[Card],
        seen: Seen,
    ) -> Result<(), ZoneError> {
        let mut have = self.faces(zone);
        let mut want = order.to_vec();
        have.sort();
        want.sort();
        if have != want {
            return Err(ZoneError::RelabelFaces(zone));
        }
        let list = self.zones.entry(zone).or_default();
        list.clear();
        for (pos, face) in (0u32..).zip(order) {
            list.push(Placed {
                r: CardRef { shuffle, pos },
                face: *face,
                seen,
            });
        }
        // The relabel's cards replace as many old ones: the count in play is unchanged.
        Ok(())
    }

    /// A full reshuffle mid-hand (Bist-o-yek's new turn, bank khabar and every-round
    /// shuffles: "all 36 cards, everything collected first"): every card in play, wherever
    /// it is, is gathered and replaced by `(shuffle, pos)` for `order`'s positions, in `zone`,
    /// seen by `seen`. As with [`Zones::relabel`], the old refs are gone for good and the
    /// count in play is unchanged. `order` must be a permutation of the faces in play; the
    /// zones are unchanged otherwise.
    pub fn reshuffle_all(
        &mut self,
        zone: ZoneId,
        shuffle: u32,
        order: &[Card],
        seen: Seen,
    ) -> Result<(), ZoneError> {
        let mut have: Vec<Card> = self.iter().map(|(_, p)| p.face).collect();
        let mut want = order.to_vec();
        have.sort();
        want.sort();
        if have != want {
            return Err(ZoneError::ReshuffleFaces);
        }
        self.zones.clear();
        let list = self.zones.entry(zone).or_default();
        for (pos, face) in (0u32..).zip(order) {
            list.push(Placed {
                r: CardRef { shuffle, pos },
                face: *face,
                seen,
            });
        }
        Ok(())
    }

    /// Every card, zone by zone.
    pub fn iter(&self) -> impl Iterator<Item = (ZoneId, &Placed)> {
        self.zones
            .iter()
            .flat_map(|(z, l)| l.iter().map(move |p| (*z, p)))
    }

    /// Cards in all zones together.
    pub fn total(&self) -> usize {
        self.zones.values().map(Vec::len).sum()
    }

    /// Conservation: every card is in exactly one place, and as many cards are in play as
    /// the committed shuffles installed.
    pub fn check(&self) -> Result<(), ZoneError> {
        let mut seen = std::collections::HashSet::new();
        for (_, p) in self.iter() {
            if !seen.insert(p.r) {
                return Err(ZoneError::Duplicated(p.r));
            }
        }
        let found = self.total();
        if found != self.installed {
            return Err(ZoneError::Count {
                expected: self.installed,
                found,
            });
        }
        Ok(())
    }

    /// What `viewer` may see: every zone with a card in it, each card by its ref, with its
    /// face only where `viewer` may see it.
    pub fn view(&self, viewer: Viewer) -> ZonesView {
        ZonesView(
            self.zones
                .iter()
                .filter(|(_, l)| !l.is_empty())
                .map(|(z, l)| ZoneView {
                    zone: *z,
                    cards: l.iter().map(|p| CardView::of(p, viewer)).collect(),
                })
                .collect(),
        )
    }

    /// The cards of one zone as `viewer` may see them.
    pub fn zone_view(&self, zone: ZoneId, viewer: Viewer) -> Vec<CardView> {
        self.cards(zone)
            .iter()
            .map(|p| CardView::of(p, viewer))
            .collect()
    }

    /// For the no-leak property: permute the faces of the cards `viewer` may not see among
    /// themselves, with `pick(n)` choosing an index below `n`. A view that depends only on
    /// what `viewer` may see is the same before and after.
    pub fn scramble_hidden(&mut self, viewer: Viewer, mut pick: impl FnMut(usize) -> usize) {
        let mut slots: Vec<(ZoneId, usize)> = Vec::new();
        for (z, l) in &self.zones {
            for (i, p) in l.iter().enumerate() {
                if !p.seen.by(viewer) {
                    slots.push((*z, i));
                }
            }
        }
        let mut faces: Vec<Card> = slots
            .iter()
            .filter_map(|(z, i)| self.zones.get(z).and_then(|l| l.get(*i)).map(|p| p.face))
            .collect();
        // Fisher-Yates with the caller's choices.
        for k in (1..faces.len()).rev() {
            let j = pick(k + 1).min(k);
            faces.swap(k, j);
        }
        for ((z, i), face) in slots.into_iter().zip(faces) {
            if let Some(p) = self.zones.get_mut(&z).and_then(|l| l.get_mut(i)) {
                p.face = face;
            }
        }
    }
}

/// What a buggy engine might do to its cards, for the tests that the conservation check
/// ([`Zones::check`], rule `cards` in the dealer's fold) catches it.
#[cfg(test)]
impl Zones {
    /// Take the card `r` out of play without a trace; `false` if it is nowhere.
    pub(crate) fn lose_for_test(&mut self, r: CardRef) -> bool {
        for list in self.zones.values_mut() {
            if let Some(i) = list.iter().position(|p| p.r == r) {
                list.remove(i);
                return true;
            }
        }
        false
    }

    /// Put a second copy of the card `r` at the end of `zone`; `false` if it is nowhere.
    pub(crate) fn duplicate_for_test(&mut self, r: CardRef, zone: ZoneId) -> bool {
        let Some(copy) = self.find(r).map(|(_, p)| *p) else {
            return false;
        };
        self.zones.entry(zone).or_default().push(copy);
        true
    }
}

/// A card as one viewer sees it: always its ref, and its face where the viewer may see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct CardView {
    /// The card's public name.
    #[serde(rename = "ref")]
    pub r: CardRef,
    /// The face, or absent when hidden from the viewer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub face: Option<Card>,
}

impl CardView {
    fn of(p: &Placed, viewer: Viewer) -> CardView {
        CardView {
            r: p.r,
            face: p.seen.by(viewer).then_some(p.face),
        }
    }
}

/// One zone as one viewer sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ZoneView {
    /// Which zone.
    #[serde(flatten)]
    pub zone: ZoneId,
    /// Its cards, in order.
    pub cards: Vec<CardView>,
}

/// Every non-empty zone as one viewer sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct ZonesView(pub Vec<ZoneView>);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::DeckKind;

    fn deck() -> Vec<Card> {
        DeckKind::Standard52.cards()
    }

    #[test]
    fn a_dealt_card_is_seen_by_its_seat_only() {
        let mut z = Zones::new();
        z.install(ZoneId::Stock, 0, &deck(), Seen::NOBODY);
        let dealt = z
            .move_top(
                ZoneId::Stock,
                5,
                ZoneId::Hand(SeatIndex(1)),
                Seen::seat(SeatIndex(1)),
            )
            .unwrap_or_default();
        assert_eq!(dealt.len(), 5);
        let own = z.zone_view(ZoneId::Hand(SeatIndex(1)), Viewer::Seat(SeatIndex(1)));
        assert!(own.iter().all(|c| c.face.is_some()));
        let other = z.zone_view(ZoneId::Hand(SeatIndex(1)), Viewer::Seat(SeatIndex(0)));
        assert!(other.iter().all(|c| c.face.is_none()));
        assert!(z
            .zone_view(ZoneId::Stock, Viewer::Public)
            .iter()
            .all(|c| c.face.is_none()));
        assert_eq!(z.check(), Ok(()));
    }

    #[test]
    fn a_lost_or_doubled_card_is_caught() {
        let mut z = Zones::new();
        z.install(ZoneId::Stock, 0, &deck(), Seen::NOBODY);
        let mut lost = z.clone();
        if let Some(l) = lost.zones.get_mut(&ZoneId::Stock) {
            l.pop();
        }
        assert!(matches!(lost.check(), Err(ZoneError::Count { .. })));
        let mut doubled = z.clone();
        if let Some(l) = doubled.zones.get_mut(&ZoneId::Stock) {
            let first = l[0];
            l.pop();
            l.push(first);
        }
        assert!(matches!(doubled.check(), Err(ZoneError::Duplicated(_))));
    }

    #[test]
    fn a_relabel_cuts_the_link_to_seen_faces() {
        let mut z = Zones::new();
        z.install(ZoneId::Stock, 0, &deck(), Seen::NOBODY);
        let seat = SeatIndex(2);
        z.move_top(ZoneId::Stock, 4, ZoneId::Hand(seat), Seen::seat(seat))
            .unwrap_or_default();
        let first = z.refs_in(ZoneId::Hand(seat))[0];
        z.reveal(first).unwrap_or_default();
        let mut order = z.faces(ZoneId::Hand(seat));
        order.reverse();
        assert_eq!(
            z.relabel(ZoneId::Hand(seat), 1, &order, Seen::seat(seat)),
            Ok(())
        );
        assert!(z.find(first).is_none());
        assert!(z.cards(ZoneId::Hand(seat)).iter().all(|p| p.r.shuffle == 1));
        assert_eq!(z.check(), Ok(()));
        assert_eq!(
            z.relabel(ZoneId::Hand(seat), 2, &deck()[4..8], Seen::seat(seat)),
            Err(ZoneError::RelabelFaces(ZoneId::Hand(seat)))
        );
    }

    #[test]
    fn scrambling_leaves_visible_faces_alone() {
        let mut z = Zones::new();
        z.install(ZoneId::Stock, 0, &deck(), Seen::NOBODY);
        let seat = SeatIndex(0);
        z.move_top(ZoneId::Stock, 13, ZoneId::Hand(seat), Seen::seat(seat))
            .unwrap_or_default();
        let before = z.view(Viewer::Seat(seat));
        let mut n = 7usize;
        z.scramble_hidden(Viewer::Seat(seat), |k| {
            n = n.wrapping_mul(31).wrapping_add(17);
            n % k
        });
        assert_eq!(z.view(Viewer::Seat(seat)), before);
        assert_ne!(z.faces(ZoneId::Stock), deck()[13..].to_vec());
    }

    #[test]
    fn a_full_reshuffle_gathers_every_card_under_new_refs() {
        let mut z = Zones::new();
        z.install(ZoneId::Stock, 0, &deck(), Seen::NOBODY);
        let seat = SeatIndex(1);
        z.move_top(ZoneId::Stock, 3, ZoneId::Hand(seat), Seen::seat(seat))
            .unwrap_or_default();
        z.move_top(ZoneId::Stock, 2, ZoneId::Discard, Seen::EVERYONE)
            .unwrap_or_default();
        let mut order = deck();
        order.reverse();
        assert_eq!(
            z.reshuffle_all(ZoneId::Stock, 1, &order, Seen::NOBODY),
            Ok(())
        );
        assert_eq!(z.faces(ZoneId::Stock), order);
        assert!(z
            .iter()
            .all(|(zone, p)| zone == ZoneId::Stock && p.r.shuffle == 1 && p.seen == Seen::NOBODY));
        assert_eq!(z.check(), Ok(()));
        // Not the cards in play: refused, nothing changed.
        let before = z.clone();
        assert_eq!(
            z.reshuffle_all(ZoneId::Stock, 2, &deck()[1..], Seen::NOBODY),
            Err(ZoneError::ReshuffleFaces)
        );
        assert_eq!(z, before);
    }

    #[test]
    fn seen_serializes_as_everyone_or_seats() {
        assert_eq!(
            serde_json::to_string(&Seen::EVERYONE).ok().as_deref(),
            Some("\"everyone\"")
        );
        let s = Seen::seat(SeatIndex(1)).and(SeatIndex(3));
        assert_eq!(serde_json::to_string(&s).ok().as_deref(), Some("[1,3]"));
        assert_eq!(
            serde_json::to_string(&Seen::NOBODY).ok().as_deref(),
            Some("[]")
        );
    }
}
