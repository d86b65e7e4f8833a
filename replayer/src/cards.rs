//! Cards and decks for every game we support.
//!
//! A card prints and parses in a short text form: rank then suit (`AS`, `10D`, `QH`, `7C`),
//! and the two jokers `BJ` (black joker) and `CJ` (coloured joker). `TD` is accepted as
//! another spelling of `10D`, and `X` as another spelling of `BJ` (the Sheytoonak spec's
//! name for its single joker). Every card also has an English and a Persian name.
//!
//! The **canonical order** (the order a deck is in before the committed shuffle, see
//! `docs/SHUFFLE.md`) is the one the rules specs share: suits S, H, D, C; within a suit the
//! ranks 2, 3, …, 10, J, Q, K, A; then `BJ`, then `CJ`. Every deck is the canonical order
//! with its removed cards left out; the two-pack Bluff deck is the 52-card order twice.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A suit, in canonical order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Suit {
    /// Spades, پیک (pik).
    Spades,
    /// Hearts, دل (del).
    Hearts,
    /// Diamonds, خشت (khesht).
    Diamonds,
    /// Clubs, خاج (khaj).
    Clubs,
}

impl Suit {
    /// All suits in canonical order.
    pub const ALL: [Suit; 4] = [Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs];

    /// The one-letter code.
    pub fn code(self) -> char {
        match self {
            Suit::Spades => 'S',
            Suit::Hearts => 'H',
            Suit::Diamonds => 'D',
            Suit::Clubs => 'C',
        }
    }

    /// English name.
    pub fn english(self) -> &'static str {
        match self {
            Suit::Spades => "spades",
            Suit::Hearts => "hearts",
            Suit::Diamonds => "diamonds",
            Suit::Clubs => "clubs",
        }
    }

    /// Persian name.
    pub fn persian(self) -> &'static str {
        match self {
            Suit::Spades => "پیک",
            Suit::Hearts => "دل",
            Suit::Diamonds => "خشت",
            Suit::Clubs => "خاج",
        }
    }

    /// Red suits (hearts, diamonds).
    pub fn is_red(self) -> bool {
        matches!(self, Suit::Hearts | Suit::Diamonds)
    }

    fn from_code(c: char) -> Option<Suit> {
        match c.to_ascii_uppercase() {
            'S' => Some(Suit::Spades),
            'H' => Some(Suit::Hearts),
            'D' => Some(Suit::Diamonds),
            'C' => Some(Suit::Clubs),
            _ => None,
        }
    }
}

/// A rank, in canonical (ascending) order: 2 … 10, J, Q, K, A.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Rank {
    /// 2
    Two,
    /// 3
    Three,
    /// 4
    Four,
    /// 5
    Five,
    /// 6
    Six,
    /// 7
    Seven,
    /// 8
    Eight,
    /// 9
    Nine,
    /// 10
    Ten,
    /// Jack, سرباز (sarbaz).
    Jack,
    /// Queen, بی‌بی (bibi).
    Queen,
    /// King, شاه (shah).
    King,
    /// Ace, تک (tak).
    Ace,
}

impl Rank {
    /// All ranks in canonical order.
    pub const ALL: [Rank; 13] = [
        Rank::Two,
        Rank::Three,
        Rank::Four,
        Rank::Five,
        Rank::Six,
        Rank::Seven,
        Rank::Eight,
        Rank::Nine,
        Rank::Ten,
        Rank::Jack,
        Rank::Queen,
        Rank::King,
        Rank::Ace,
    ];

    /// The rank's code as printed: `2`…`10`, `J`, `Q`, `K`, `A`.
    pub fn code(self) -> &'static str {
        match self {
            Rank::Two => "2",
            Rank::Three => "3",
            Rank::Four => "4",
            Rank::Five => "5",
            Rank::Six => "6",
            Rank::Seven => "7",
            Rank::Eight => "8",
            Rank::Nine => "9",
            Rank::Ten => "10",
            Rank::Jack => "J",
            Rank::Queen => "Q",
            Rank::King => "K",
            Rank::Ace => "A",
        }
    }

    /// Index 0 (two) … 12 (ace).
    pub fn index(self) -> u8 {
        self as u8
    }

    /// Numeric pip value for 2–10 (2…10), 11…14 for J, Q, K, A.
    pub fn pips(self) -> u8 {
        self as u8 + 2
    }

    /// English name.
    pub fn english(self) -> &'static str {
        match self {
            Rank::Two => "two",
            Rank::Three => "three",
            Rank::Four => "four",
            Rank::Five => "five",
            Rank::Six => "six",
            Rank::Seven => "seven",
            Rank::Eight => "eight",
            Rank::Nine => "nine",
            Rank::Ten => "ten",
            Rank::Jack => "jack",
            Rank::Queen => "queen",
            Rank::King => "king",
            Rank::Ace => "ace",
        }
    }

    /// Persian name.
    pub fn persian(self) -> &'static str {
        match self {
            Rank::Two => "دو",
            Rank::Three => "سه",
            Rank::Four => "چهار",
            Rank::Five => "پنج",
            Rank::Six => "شش",
            Rank::Seven => "هفت",
            Rank::Eight => "هشت",
            Rank::Nine => "نه",
            Rank::Ten => "ده",
            Rank::Jack => "سرباز",
            Rank::Queen => "بی‌بی",
            Rank::King => "شاه",
            Rank::Ace => "تک",
        }
    }

    fn from_code(s: &str) -> Option<Rank> {
        Some(match s.to_ascii_uppercase().as_str() {
            "2" => Rank::Two,
            "3" => Rank::Three,
            "4" => Rank::Four,
            "5" => Rank::Five,
            "6" => Rank::Six,
            "7" => Rank::Seven,
            "8" => Rank::Eight,
            "9" => Rank::Nine,
            "10" | "T" => Rank::Ten,
            "J" => Rank::Jack,
            "Q" => Rank::Queen,
            "K" => Rank::King,
            "A" => Rank::Ace,
            _ => return None,
        })
    }
}

/// A joker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Joker {
    /// The black joker, ژوکر سیاه, `BJ`.
    Black,
    /// The coloured joker, ژوکر رنگی, `CJ`.
    Coloured,
}

/// One playing card. Ordered canonically (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Card {
    /// A suited card. (Field order makes the derived ordering suit-major.)
    Suited {
        /// The suit.
        suit: Suit,
        /// The rank.
        rank: Rank,
    },
    /// A joker; sorts after every suited card.
    Joker(Joker),
}

impl Card {
    /// A suited card.
    pub const fn new(rank: Rank, suit: Suit) -> Card {
        Card::Suited { suit, rank }
    }

    /// The rank, for a suited card.
    pub fn rank(self) -> Option<Rank> {
        match self {
            Card::Suited { rank, .. } => Some(rank),
            Card::Joker(_) => None,
        }
    }

    /// The suit, for a suited card.
    pub fn suit(self) -> Option<Suit> {
        match self {
            Card::Suited { suit, .. } => Some(suit),
            Card::Joker(_) => None,
        }
    }

    /// Whether this is a joker.
    pub fn is_joker(self) -> bool {
        matches!(self, Card::Joker(_))
    }

    /// Canonical index: `13 × suit + rank` for suited cards (2S = 0 … AC = 51), 52 for `BJ`,
    /// 53 for `CJ`.
    pub fn canonical_index(self) -> u8 {
        match self {
            Card::Suited { suit, rank } => 13 * (suit as u8) + rank as u8,
            Card::Joker(Joker::Black) => 52,
            Card::Joker(Joker::Coloured) => 53,
        }
    }

    /// English name, e.g. "ace of spades", "black joker".
    pub fn english(self) -> String {
        match self {
            Card::Suited { suit, rank } => format!("{} of {}", rank.english(), suit.english()),
            Card::Joker(Joker::Black) => "black joker".to_string(),
            Card::Joker(Joker::Coloured) => "coloured joker".to_string(),
        }
    }

    /// Persian name, e.g. "تک پیک", "ژوکر سیاه".
    pub fn persian(self) -> String {
        match self {
            Card::Suited { suit, rank } => format!("{} {}", rank.persian(), suit.persian()),
            Card::Joker(Joker::Black) => "ژوکر سیاه".to_string(),
            Card::Joker(Joker::Coloured) => "ژوکر رنگی".to_string(),
        }
    }

    /// The 54 distinct cards in canonical order.
    pub fn all() -> Vec<Card> {
        let mut v = Vec::with_capacity(54);
        for suit in Suit::ALL {
            for rank in Rank::ALL {
                v.push(Card::new(rank, suit));
            }
        }
        v.push(Card::Joker(Joker::Black));
        v.push(Card::Joker(Joker::Coloured));
        v
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Card::Suited { suit, rank } => write!(f, "{}{}", rank.code(), suit.code()),
            Card::Joker(Joker::Black) => f.write_str("BJ"),
            Card::Joker(Joker::Coloured) => f.write_str("CJ"),
        }
    }
}

/// A card's text could not be parsed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a card: {0:?} (expected a rank 2-10, J, Q, K, A followed by a suit S, H, D, C, or a joker BJ, CJ)")]
pub struct ParseCardError(pub String);

impl FromStr for Card {
    type Err = ParseCardError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        let err = || ParseCardError(s.chars().take(16).collect());
        match t.to_ascii_uppercase().as_str() {
            "BJ" | "X" => return Ok(Card::Joker(Joker::Black)),
            "CJ" => return Ok(Card::Joker(Joker::Coloured)),
            _ => {}
        }
        let mut chars = t.chars();
        let suit_char = chars.next_back().ok_or_else(err)?;
        let suit = Suit::from_code(suit_char).ok_or_else(err)?;
        let rank = Rank::from_code(chars.as_str()).ok_or_else(err)?;
        Ok(Card::new(rank, suit))
    }
}

impl Serialize for Card {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Card {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// Every deck the supported games use. Its id (`standard-52`, `bist-o-yek-36`,
/// `hokm-51-without-2C`, …) is recorded in the hand's first event and in the shuffle test
/// vectors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DeckKind {
    /// `standard-52`: the standard deck (Hokm for 2 and 4, Shelem, Pasur, Haft Khabis, Bluff).
    Standard52,
    /// `standard-54`: the standard deck with both jokers.
    Standard54,
    /// `bist-o-yek-36`: every 2, 3, 4 and 5 removed.
    BistOYek36,
    /// `hokm-51-without-2X`: 3-player Hokm, one 2 removed (house rule `removed_two`,
    /// default 2C).
    Hokm51 {
        /// The suit of the removed two.
        removed_two: Suit,
    },
    /// `ghahve-52`: both jokers in, 2D and 2H out.
    Ghahve52,
    /// `bluff-104`: two packs for large Bluff tables, the 52-card order twice.
    Bluff104,
    /// `sheytoonak-53`: 52 cards and one joker (`BJ`).
    Sheytoonak53,
}

impl fmt::Display for DeckKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DeckKind::Standard52 => f.write_str("standard-52"),
            DeckKind::Standard54 => f.write_str("standard-54"),
            DeckKind::BistOYek36 => f.write_str("bist-o-yek-36"),
            DeckKind::Hokm51 { removed_two } => {
                write!(f, "hokm-51-without-2{}", removed_two.code())
            }
            DeckKind::Ghahve52 => f.write_str("ghahve-52"),
            DeckKind::Bluff104 => f.write_str("bluff-104"),
            DeckKind::Sheytoonak53 => f.write_str("sheytoonak-53"),
        }
    }
}

/// A deck id could not be parsed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown deck {0:?} (known: standard-52, standard-54, bist-o-yek-36, hokm-51-without-2S|2H|2D|2C, ghahve-52, bluff-104, sheytoonak-53)")]
pub struct ParseDeckError(pub String);

impl FromStr for DeckKind {
    type Err = ParseDeckError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(match s {
            "standard-52" => DeckKind::Standard52,
            "standard-54" => DeckKind::Standard54,
            "bist-o-yek-36" => DeckKind::BistOYek36,
            "ghahve-52" => DeckKind::Ghahve52,
            "bluff-104" => DeckKind::Bluff104,
            "sheytoonak-53" => DeckKind::Sheytoonak53,
            other => {
                let suit = other
                    .strip_prefix("hokm-51-without-2")
                    .filter(|rest| rest.len() == 1)
                    .and_then(|rest| rest.chars().next())
                    .and_then(Suit::from_code)
                    .ok_or_else(|| ParseDeckError(other.chars().take(40).collect()))?;
                DeckKind::Hokm51 { removed_two: suit }
            }
        })
    }
}

impl Serialize for DeckKind {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for DeckKind {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// What a deck is made of, as data: which ranks of the four suits, which cards are left out,
/// which jokers are added, and how many packs. Every [`DeckKind`] is one of these
/// ([`DeckKind::spec`]); its cards in canonical order follow from it ([`DeckSpec::cards`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeckSpec {
    /// The ranks of every suit, lowest first (`6 … A` for Bist-o-yek, `2 … A` otherwise).
    pub ranks: Vec<Rank>,
    /// Suited cards left out (Hokm's removed two, Ghahve's `2H` and `2D`).
    pub removed: Vec<Card>,
    /// Jokers added after the suited cards, in canonical order.
    pub jokers: Vec<Joker>,
    /// How many identical packs the deck holds, one after the other (2 for `bluff-104`).
    pub packs: u8,
}

impl DeckSpec {
    fn standard() -> DeckSpec {
        DeckSpec {
            ranks: Rank::ALL.to_vec(),
            removed: Vec::new(),
            jokers: Vec::new(),
            packs: 1,
        }
    }

    /// The cards of one pack in canonical order: every suit with its ranks, less the removed
    /// cards, then the jokers.
    pub fn pack(&self) -> Vec<Card> {
        let mut out = Vec::new();
        for suit in Suit::ALL {
            for rank in &self.ranks {
                let card = Card::new(*rank, suit);
                if !self.removed.contains(&card) {
                    out.push(card);
                }
            }
        }
        out.extend(self.jokers.iter().map(|j| Card::Joker(*j)));
        out
    }

    /// The deck in canonical order: the pack, `packs` times.
    pub fn cards(&self) -> Vec<Card> {
        let pack = self.pack();
        std::iter::repeat_n(pack, usize::from(self.packs))
            .flatten()
            .collect()
    }
}

/// Written as `{"ranks": ["6", …, "A"], "removed": ["2C"], "jokers": ["BJ"], "packs": 1}`.
impl Serialize for DeckSpec {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("DeckSpec", 4)?;
        let ranks: Vec<&str> = self.ranks.iter().map(|r| r.code()).collect();
        st.serialize_field("ranks", &ranks)?;
        st.serialize_field("removed", &self.removed)?;
        let jokers: Vec<Card> = self.jokers.iter().map(|j| Card::Joker(*j)).collect();
        st.serialize_field("jokers", &jokers)?;
        st.serialize_field("packs", &self.packs)?;
        st.end()
    }
}

impl DeckKind {
    /// What the deck is made of.
    pub fn spec(self) -> DeckSpec {
        let two = |suit| Card::new(Rank::Two, suit);
        match self {
            DeckKind::Standard52 => DeckSpec::standard(),
            DeckKind::Standard54 => DeckSpec {
                jokers: vec![Joker::Black, Joker::Coloured],
                ..DeckSpec::standard()
            },
            DeckKind::BistOYek36 => DeckSpec {
                ranks: Rank::ALL.into_iter().filter(|r| *r >= Rank::Six).collect(),
                ..DeckSpec::standard()
            },
            DeckKind::Hokm51 { removed_two } => DeckSpec {
                removed: vec![two(removed_two)],
                ..DeckSpec::standard()
            },
            DeckKind::Ghahve52 => DeckSpec {
                removed: vec![two(Suit::Hearts), two(Suit::Diamonds)],
                jokers: vec![Joker::Black, Joker::Coloured],
                ..DeckSpec::standard()
            },
            DeckKind::Bluff104 => DeckSpec {
                packs: 2,
                ..DeckSpec::standard()
            },
            DeckKind::Sheytoonak53 => DeckSpec {
                jokers: vec![Joker::Black],
                ..DeckSpec::standard()
            },
        }
    }

    /// The deck's cards in canonical order.
    pub fn cards(self) -> Vec<Card> {
        self.spec().cards()
    }

    /// Number of cards.
    pub fn len(self) -> usize {
        self.cards().len()
    }

    /// Never true: every deck has cards.
    pub fn is_empty(self) -> bool {
        false
    }

    /// Which pack (0-based) the card at canonical position `position` of the deck belongs to:
    /// `position` divided by the size of one pack. Always 0 in a one-pack deck. A whole-deck
    /// shuffle's permutation names canonical positions, so the pack of every dealt card
    /// follows from it (`docs/SHUFFLE.md` §7). `None` past the end of the deck.
    pub fn pack_of(self, position: usize) -> Option<u8> {
        let spec = self.spec();
        let per_pack = spec.pack().len();
        if per_pack == 0 || position >= per_pack * usize::from(spec.packs) {
            return None;
        }
        u8::try_from(position / per_pack).ok()
    }
}

/// Sort cards into canonical order (the order a subset is in before a committed shuffle of it).
pub fn canonical_sort(cards: &mut [Card]) {
    cards.sort();
}

/// Format a list of cards as space-separated codes.
pub fn format_cards(cards: &[Card]) -> String {
    cards
        .iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_indices_match_the_specs() {
        assert_eq!("2S".parse::<Card>().unwrap().canonical_index(), 0);
        assert_eq!("AS".parse::<Card>().unwrap().canonical_index(), 12);
        assert_eq!("2H".parse::<Card>().unwrap().canonical_index(), 13);
        assert_eq!("AC".parse::<Card>().unwrap().canonical_index(), 51);
        assert_eq!("BJ".parse::<Card>().unwrap().canonical_index(), 52);
        let all = Card::all();
        for (i, c) in all.iter().enumerate() {
            assert_eq!(usize::from(c.canonical_index()), i, "{c}");
        }
    }

    #[test]
    fn print_and_parse_round_trip() {
        for c in Card::all() {
            let s = c.to_string();
            assert_eq!(s.parse::<Card>().unwrap(), c);
        }
        assert_eq!("TD".parse::<Card>().unwrap().to_string(), "10D");
        assert_eq!("qh".parse::<Card>().unwrap().to_string(), "QH");
        assert_eq!("X".parse::<Card>().unwrap().to_string(), "BJ");
        for bad in ["", "1S", "11H", "AZ", "A", "S", "JK", "10"] {
            assert!(bad.parse::<Card>().is_err(), "{bad}");
        }
    }

    #[test]
    fn names() {
        let c: Card = "AS".parse().unwrap();
        assert_eq!(c.english(), "ace of spades");
        assert_eq!(c.persian(), "تک پیک");
        assert_eq!("QH".parse::<Card>().unwrap().persian(), "بی‌بی دل");
        assert_eq!("JD".parse::<Card>().unwrap().persian(), "سرباز خشت");
        assert_eq!("KC".parse::<Card>().unwrap().persian(), "شاه خاج");
    }

    #[test]
    fn deck_sizes() {
        assert_eq!(DeckKind::Standard52.len(), 52);
        assert_eq!(DeckKind::Standard54.len(), 54);
        assert_eq!(DeckKind::BistOYek36.len(), 36);
        assert_eq!(
            DeckKind::Hokm51 {
                removed_two: Suit::Clubs
            }
            .len(),
            51
        );
        assert_eq!(DeckKind::Ghahve52.len(), 52);
        assert_eq!(DeckKind::Bluff104.len(), 104);
        assert_eq!(DeckKind::Sheytoonak53.len(), 53);
        let g = DeckKind::Ghahve52.cards();
        assert!(!g.contains(&"2D".parse().unwrap()));
        assert!(g.contains(&"CJ".parse().unwrap()));
        let b = DeckKind::BistOYek36.cards();
        assert_eq!(b[0].to_string(), "6S");
        assert_eq!(b[35].to_string(), "AC");
    }

    /// The decks as data give exactly the card lists the shuffle vectors were made from
    /// (written out here the way they were before decks were data).
    #[test]
    fn deck_specs_give_the_documented_card_lists() {
        let standard = || Card::all().into_iter().filter(|c| !c.is_joker());
        let c = |s: &str| s.parse::<Card>().unwrap();
        let cases: Vec<(DeckKind, Vec<Card>)> = vec![
            (DeckKind::Standard52, standard().collect()),
            (DeckKind::Standard54, Card::all()),
            (
                DeckKind::BistOYek36,
                standard()
                    .filter(|x| x.rank().is_some_and(|r| r >= Rank::Six))
                    .collect(),
            ),
            (
                DeckKind::Hokm51 {
                    removed_two: Suit::Diamonds,
                },
                standard().filter(|x| *x != c("2D")).collect(),
            ),
            (
                DeckKind::Ghahve52,
                Card::all()
                    .into_iter()
                    .filter(|x| *x != c("2D") && *x != c("2H"))
                    .collect(),
            ),
            (DeckKind::Bluff104, standard().chain(standard()).collect()),
            (
                DeckKind::Sheytoonak53,
                standard().chain(std::iter::once(c("BJ"))).collect(),
            ),
        ];
        for (deck, want) in cases {
            assert_eq!(deck.cards(), want, "{deck}");
        }
    }

    #[test]
    fn pack_index_of_two_pack_decks() {
        let d = DeckKind::Bluff104;
        assert_eq!(d.spec().packs, 2);
        assert_eq!(d.pack_of(0), Some(0));
        assert_eq!(d.pack_of(51), Some(0));
        assert_eq!(d.pack_of(52), Some(1));
        assert_eq!(d.pack_of(103), Some(1));
        assert_eq!(d.pack_of(104), None);
        assert_eq!(DeckKind::Sheytoonak53.pack_of(52), Some(0));
        assert_eq!(DeckKind::Sheytoonak53.pack_of(53), None);
        let j = serde_json::to_value(
            DeckKind::Hokm51 {
                removed_two: Suit::Clubs,
            }
            .spec(),
        )
        .unwrap();
        assert_eq!(j["removed"], serde_json::json!(["2C"]));
        assert_eq!(j["packs"], 1);
        assert_eq!(j["ranks"][0], "2");
        let j = serde_json::to_value(DeckKind::Sheytoonak53.spec()).unwrap();
        assert_eq!(j["jokers"], serde_json::json!(["BJ"]));
    }

    #[test]
    fn deck_ids_serialize_kebab_case() {
        for d in [
            DeckKind::Standard52,
            DeckKind::Standard54,
            DeckKind::BistOYek36,
            DeckKind::Hokm51 {
                removed_two: Suit::Clubs,
            },
            DeckKind::Ghahve52,
            DeckKind::Bluff104,
            DeckKind::Sheytoonak53,
        ] {
            let j = serde_json::to_string(&d).unwrap();
            assert_eq!(serde_json::from_str::<DeckKind>(&j).unwrap(), d);
        }
        assert_eq!(
            serde_json::to_string(&DeckKind::BistOYek36).unwrap(),
            "\"bist-o-yek-36\""
        );
        assert!("hokm-51-without-2X".parse::<DeckKind>().is_err());
    }
}
