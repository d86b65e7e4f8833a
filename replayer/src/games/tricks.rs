//! What the trick-taking games (Hokm, Shelem, Ghahve) share: the table order, teams of
//! partners sitting opposite, following suit, the winner of a trick under trump, renege
//! detection, a hakem or dealer who stays or passes on by the hand's result, and the draw
//! that deals face-up cards round the table to choose him.
//!
//! Everything here is a pure function of its arguments; no game state, no zones. A game keeps
//! its own state and calls these.
//!
//! **Seats and the table.** A [`SeatIndex`] names a player for the whole match. A *table* is
//! the seats in playing order (counter-clockwise: each one sits on the right of the one before,
//! and play passes to the right). It is `[0, 1, …, n − 1]` ([`identity`]) unless the players
//! were reseated (Hokm's `by_draw` partnership draw swaps two of them). Every rotation — the
//! deal, the turn to play, the draw, the hakem passing on — goes round the table, never by
//! player number: the Hokm defect of issue 30 was a draw that went by player number after a
//! reseat (hokm.md D25).

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::cards::{Card, Rank, Suit};
use crate::engine::{CardRef, SeatIndex};
use crate::zones::Placed;

// ---------------------------------------------------------------------------------------
// Suits in JSON.

/// A suit as written in JSON: its one-letter code (`"S"`, `"H"`, `"D"`, `"C"`).
/// A khal (خال) is a suit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SuitCode(pub Suit);

impl Serialize for SuitCode {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut buf = [0u8; 4];
        s.serialize_str(self.0.code().encode_utf8(&mut buf))
    }
}

impl<'de> Deserialize<'de> for SuitCode {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        Suit::ALL
            .into_iter()
            .find(|x| {
                let mut buf = [0u8; 4];
                x.code().encode_utf8(&mut buf) == s.as_ref()
            })
            .map(SuitCode)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown suit {s:?} (S, H, D, C)")))
    }
}

impl fmt::Display for SuitCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0.code())
    }
}

/// A card shown face up to everyone, with its public name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shown {
    /// Which card.
    pub card: CardRef,
    /// Its face.
    pub face: Card,
}

// ---------------------------------------------------------------------------------------
// The table.

/// The seats `0, 1, …, n − 1` in that order: the table before any reseating.
pub fn identity(n: u8) -> Vec<SeatIndex> {
    (0..n).map(SeatIndex).collect()
}

/// Where `s` sits at table `t` (0 for a seat that is not at the table).
pub fn place(s: SeatIndex, t: &[SeatIndex]) -> usize {
    t.iter().position(|x| *x == s).unwrap_or(0)
}

/// The seat `k` places to the right of `s` at table `t` (`k = 1`: who acts after `s`).
pub fn plus(s: SeatIndex, k: u8, t: &[SeatIndex]) -> SeatIndex {
    let n = t.len().max(1);
    t.get((place(s, t) + usize::from(k)) % n)
        .copied()
        .unwrap_or(s)
}

/// The seat on `s`'s right at table `t`: who acts after `s`.
pub fn right(s: SeatIndex, t: &[SeatIndex]) -> SeatIndex {
    plus(s, 1, t)
}

/// The seat on `s`'s left at table `t`: who acted before `s`.
pub fn left(s: SeatIndex, t: &[SeatIndex]) -> SeatIndex {
    plus(s, u8::try_from(t.len().saturating_sub(1)).unwrap_or(0), t)
}

/// The seats in table order starting at `first`: `first`, its right, … (every seat once).
pub fn round_from(first: SeatIndex, t: &[SeatIndex]) -> Vec<SeatIndex> {
    let n = u8::try_from(t.len()).unwrap_or(0);
    (0..n).map(|k| plus(first, k, t)).collect()
}

/// The team of `seat` at a 4-seat table `t` where partners sit opposite: 0 for the seats at
/// even places (the first seat's team), 1 for the others. With 2 or 3 seats every player is
/// his own side: the seat's own number.
pub fn side_of(seat: SeatIndex, t: &[SeatIndex]) -> u8 {
    if t.len() == 4 {
        u8::from(place(seat, t) % 2 == 1)
    } else {
        seat.0
    }
}

/// The number of sides at a table of `n`: 2 teams with 4 players, one side per seat
/// otherwise.
pub fn sides(n: u8) -> u8 {
    if n == 4 {
        2
    } else {
        n
    }
}

/// The seats of each side at table `t` (see [`side_of`]), each list by seat number.
pub fn side_seats(t: &[SeatIndex]) -> Vec<Vec<SeatIndex>> {
    let n = u8::try_from(t.len()).unwrap_or(0);
    (0..sides(n))
        .map(|side| {
            (0..n)
                .map(SeatIndex)
                .filter(|x| side_of(*x, t) == side)
                .collect()
        })
        .collect()
}

// ---------------------------------------------------------------------------------------
// Following suit, the trick's winner, reneges.

/// The suit led: the first card's suit (`None` for an empty trick or a suitless card led,
/// such as a joker).
pub fn led_suit(trick: &[Card]) -> Option<Suit> {
    trick.first().and_then(|c| c.suit())
}

/// The cards of `hand` that may be played to a trick whose led suit is `led`: the cards of
/// that suit if the hand holds any, else every card (no obligation to trump or over-trump).
/// With nothing led (a lead, or a suitless lead), every card.
pub fn follow_suit(hand: &[Placed], led: Option<Suit>) -> Vec<CardRef> {
    let follow: Vec<CardRef> = match led {
        Some(l) => hand
            .iter()
            .filter(|p| p.face.suit() == Some(l))
            .map(|p| p.r)
            .collect(),
        None => Vec::new(),
    };
    if follow.is_empty() {
        hand.iter().map(|p| p.r).collect()
    } else {
        follow
    }
}

/// Whether playing `played` from `hand` (the faces held before the play, `played` among
/// them) to a trick led in `led` is a renege: a card off the led suit while the hand holds
/// that suit. A suitless card (a joker) never reneges here; a game that restricts jokers
/// checks that itself.
pub fn reneges(hand: &[Card], led: Option<Suit>, played: Card) -> bool {
    match (led, played.suit()) {
        (Some(l), Some(p)) => p != l && hand.iter().any(|c| c.suit() == Some(l)),
        _ => false,
    }
}

/// The winner of a trick, by index in play order: the highest trump if any trump was played,
/// else the highest card of the suit led. Cards of other suits (and suitless cards) never
/// win. An empty trick gives 0.
pub fn trick_winner(cards: &[Card], trump: Option<Suit>) -> usize {
    trick_winner_by(cards, |c| strength(c, led_suit(cards), trump))
}

/// The strength of `c` in a trick led in `led` under `trump`: `None` if it cannot win,
/// else a key that orders the cards that can (a trump above every card of the led suit).
pub fn strength(c: Card, led: Option<Suit>, trump: Option<Suit>) -> Option<(u8, Rank)> {
    let s = c.suit()?;
    let r = c.rank()?;
    if Some(s) == trump {
        Some((1, r))
    } else if Some(s) == led {
        Some((0, r))
    } else {
        None
    }
}

/// The winner of a trick under a game's own order: the index of the card with the highest
/// `key` (`None` = cannot win; the first card wins if none can). For a game with cards above
/// the suits, such as Ghahve's jokers, whose key ranks them above every trump.
pub fn trick_winner_by<K: Ord>(cards: &[Card], key: impl Fn(Card) -> Option<K>) -> usize {
    let mut best: Option<(usize, K)> = None;
    for (i, c) in cards.iter().enumerate() {
        if let Some(k) = key(*c) {
            if best.as_ref().is_none_or(|(_, b)| k > *b) {
                best = Some((i, k));
            }
        }
    }
    best.map(|(i, _)| i).unwrap_or(0)
}

// ---------------------------------------------------------------------------------------
// A hakem (or dealer) who rotates by result.

/// The next hakem after a hand of a partnership game: `hakem` stays if his side won the
/// hand, else the deal passes to the seat on his right (Hokm §5.4, Ghahve's dealer who keeps
/// dealing until his team loses the lead).
pub fn rotate_by_result(hakem: SeatIndex, hakem_side_won: bool, t: &[SeatIndex]) -> SeatIndex {
    if hakem_side_won {
        hakem
    } else {
        right(hakem, t)
    }
}

// ---------------------------------------------------------------------------------------
// The draw: face-up cards dealt round the table to choose the hakem (or first dealer) and,
// in a partnership draw, his partner.

/// The cards turned so far in a draw, each with the seat it went to, in order: the draw is
/// replayed from them each time, and asks for the next card when they run out.
#[derive(Clone, Debug, Default)]
pub struct DrawHistory {
    cards: Vec<(SeatIndex, Card)>,
    at: usize,
}

impl DrawHistory {
    /// The draw's cards so far: `(seat, face)` in the order turned.
    pub fn new(cards: Vec<(SeatIndex, Card)>) -> DrawHistory {
        DrawHistory { cards, at: 0 }
    }

    /// The card `seat` drew next, or `Err(seat)` when that card is still to be turned.
    fn take(&mut self, seat: SeatIndex) -> Result<Card, SeatIndex> {
        match self.cards.get(self.at) {
            Some((who, card)) if *who == seat => {
                self.at = self.at.saturating_add(1);
                Ok(*card)
            }
            _ => Err(seat),
        }
    }
}

/// A draw's result, `(chosen, partner)`, or `Err(seat)`: the seat the next face-up card goes
/// to.
pub type Drawn = Result<(SeatIndex, Option<SeatIndex>), SeatIndex>;

/// The first-ace draw over table `t`: one card to each seat **round the table** from the
/// table's first place (`t[0]`, `t[1]`, …, then `t[0]` again); the first seat to receive an
/// ace is chosen. With `partner`, cards go on round the table to the other seats only and
/// the next ace is his partner.
pub fn first_ace(t: &[SeatIndex], partner: bool, h: &mut DrawHistory) -> Drawn {
    let n = t.len().max(1);
    let mut i = 0usize;
    let next = |i: &mut usize| {
        let seat = t.get(*i).copied().unwrap_or(SeatIndex(0));
        *i = (*i + 1) % n;
        seat
    };
    let ace = |c: Card| c.rank() == Some(Rank::Ace);
    let hakem = loop {
        let seat = next(&mut i);
        if ace(h.take(seat)?) {
            break seat;
        }
    };
    if !partner {
        return Ok((hakem, None));
    }
    loop {
        let seat = next(&mut i);
        if seat != hakem && ace(h.take(seat)?) {
            return Ok((hakem, Some(seat)));
        }
    }
}

/// The highest-card draw over table `t` by rank (A high, 2 low, suits ignored; a card
/// without a rank lowest): see [`highest_card_by`].
pub fn highest_card(t: &[SeatIndex], partner: bool, h: &mut DrawHistory) -> Drawn {
    highest_card_by(t, partner, h, |c| c.rank())
}

/// The highest-card draw over table `t` under a game's own order `key` (Ghahve ranks its
/// jokers above the ace): one card to each seat round the table from `t[0]`; the seats tied
/// for first (and, with `partner`, for second) draw again, in table order, until resolved.
/// A seat keeps its earlier draws, so a loser of a tie for first stays above the rest (Hokm
/// D15).
pub fn highest_card_by<K: Ord + Clone>(
    t: &[SeatIndex],
    partner: bool,
    h: &mut DrawHistory,
    key: impl Fn(Card) -> K,
) -> Drawn {
    let mut keys: Vec<(SeatIndex, Vec<K>)> = Vec::new();
    for seat in t {
        keys.push((*seat, vec![key(h.take(*seat)?)]));
    }
    loop {
        let mut order: Vec<&(SeatIndex, Vec<K>)> = keys.iter().collect();
        // Stable: equal keys keep table order.
        order.sort_by(|a, b| b.1.cmp(&a.1));
        let places = if partner { 2 } else { 1 };
        let mut tie: Option<Vec<SeatIndex>> = None;
        for place in 0..places {
            let Some(k) = order.get(place).map(|k| k.1.clone()) else {
                break;
            };
            let group: Vec<SeatIndex> = keys.iter().filter(|x| x.1 == k).map(|x| x.0).collect();
            if group.len() > 1 {
                tie = Some(group);
                break;
            }
        }
        let first = order.first().map(|k| k.0).unwrap_or(SeatIndex(0));
        let second = order.get(1).map(|k| k.0);
        match tie {
            None => return Ok((first, if partner { second } else { None })),
            Some(group) => {
                for seat in group {
                    let r = key(h.take(seat)?);
                    if let Some(k) = keys.iter_mut().find(|k| k.0 == seat) {
                        k.1.push(r);
                    }
                }
            }
        }
    }
}

/// The reseating after a partnership draw: the chosen seat keeps his place; his partner and
/// the player opposite him exchange places if they differ (Hokm §5.3). Needs 4 seats;
/// otherwise the table is returned unchanged.
pub fn reseat_partner(chosen: SeatIndex, partner: SeatIndex, t: &[SeatIndex]) -> Vec<SeatIndex> {
    let mut seating = t.to_vec();
    if t.len() != 4 {
        return seating;
    }
    let opposite = plus(chosen, 2, &seating);
    let a = seating.iter().position(|x| *x == partner);
    let b = seating.iter().position(|x| *x == opposite);
    if let (Some(a), Some(b)) = (a, b) {
        seating.swap(a, b);
    }
    seating
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(code: &str) -> Card {
        code.parse().unwrap()
    }

    fn cards(codes: &str) -> Vec<Card> {
        codes.split_whitespace().map(c).collect()
    }

    fn seats(v: &[u8]) -> Vec<SeatIndex> {
        v.iter().copied().map(SeatIndex).collect()
    }

    #[test]
    fn the_table_goes_round_by_place_not_number() {
        let t = seats(&[0, 1, 3, 2]);
        assert_eq!(right(SeatIndex(1), &t), SeatIndex(3));
        assert_eq!(right(SeatIndex(2), &t), SeatIndex(0));
        assert_eq!(left(SeatIndex(0), &t), SeatIndex(2));
        assert_eq!(plus(SeatIndex(3), 2, &t), SeatIndex(0));
        assert_eq!(round_from(SeatIndex(3), &t), seats(&[3, 2, 0, 1]));
        // Partners sit opposite: places 0 and 2 (seats 0 and 3) against 1 and 2.
        assert_eq!(side_seats(&t), vec![seats(&[0, 3]), seats(&[1, 2])]);
        assert_eq!(
            side_seats(&identity(4)),
            vec![seats(&[0, 2]), seats(&[1, 3])]
        );
        assert_eq!(side_seats(&identity(2)), vec![seats(&[0]), seats(&[1])]);
    }

    #[test]
    fn the_highest_trump_or_the_highest_of_the_led_suit_wins() {
        assert_eq!(trick_winner(&cards("5H AH KS 2H"), None), 1);
        assert_eq!(trick_winner(&cards("5H AH 2S 9H"), Some(Suit::Spades)), 2);
        assert_eq!(trick_winner(&cards("5H AH 2S 3S"), Some(Suit::Spades)), 3);
        // An off-suit ace never wins.
        assert_eq!(trick_winner(&cards("5H AD AC 2H"), Some(Suit::Spades)), 0);
        assert_eq!(trick_winner(&[], None), 0);
    }

    #[test]
    fn a_renege_is_an_off_suit_card_while_holding_the_suit() {
        let hand = cards("2H 9S KD");
        assert!(reneges(&hand, Some(Suit::Hearts), c("9S")));
        assert!(!reneges(&hand, Some(Suit::Hearts), c("2H")));
        assert!(!reneges(&hand, Some(Suit::Clubs), c("9S")));
        assert!(!reneges(&hand, None, c("KD")));
    }

    #[test]
    fn the_hakem_stays_on_a_win_and_passes_right_on_a_loss() {
        let t = seats(&[0, 1, 3, 2]);
        assert_eq!(rotate_by_result(SeatIndex(1), true, &t), SeatIndex(1));
        assert_eq!(rotate_by_result(SeatIndex(1), false, &t), SeatIndex(3));
    }

    #[test]
    fn a_first_ace_draw_deals_round_the_reseated_table() {
        let t = seats(&[0, 1, 3, 2]);
        // The fourth card goes to the table's fourth place, seat 2 (not seat 3).
        let mut h = DrawHistory::new(t.iter().copied().zip(cards("2S 3S 4S AH")).collect());
        assert_eq!(first_ace(&t, false, &mut h), Ok((SeatIndex(2), None)));
        let mut h = DrawHistory::new(vec![(SeatIndex(0), c("2S"))]);
        assert_eq!(first_ace(&t, false, &mut h), Err(SeatIndex(1)));
        let mut h = DrawHistory::new(vec![(SeatIndex(0), c("2S")), (SeatIndex(1), c("2H"))]);
        assert_eq!(first_ace(&t, false, &mut h), Err(SeatIndex(3)));
    }

    #[test]
    fn a_highest_card_draw_redraws_ties_in_table_order() {
        let t = seats(&[0, 1, 3, 2]);
        let mut h = DrawHistory::new(t.iter().copied().zip(cards("5S KS 2S KH")).collect());
        // Seats 1 and 2 tie for first; seat 1 redraws first (place 1 before place 3).
        assert_eq!(highest_card(&t, false, &mut h), Err(SeatIndex(1)));
    }

    #[test]
    fn a_partner_draw_reseats_the_partner_opposite() {
        assert_eq!(
            reseat_partner(SeatIndex(1), SeatIndex(2), &identity(4)),
            seats(&[0, 1, 3, 2])
        );
        assert_eq!(
            reseat_partner(SeatIndex(1), SeatIndex(3), &identity(4)),
            identity(4)
        );
    }
}
