//! Every rule: the deal and the table-jack rule, captures, sur, leftovers, scoring and the
//! match.
//!
//! `decide` never touches the caller's state: it works on a clone, emits effects one by one
//! and folds each into the clone with `evolve`, so the automatic steps (the next deal, the
//! end of the hand) chain on the state as it stands after every fact.

use std::collections::BTreeSet;
use std::fmt;

use super::action::{as_set, Action};
use super::effect::{Effect, Shown};
use super::evolve::evolve;
use super::rules::{
    CaptureCompulsion, ClubsBonus, JackOnEmptyTable, SurForbidden, TableJackReturn,
    TieBreakEligibility,
};
use super::state::{deals, side_of, value, Phase, SideScore, State, PLAYS};
use crate::cards::{Card, Rank, Suit};
use crate::engine::{Actor, CardRef, SeatIndex, Violation};
use crate::zones::{Placed, ZoneId};

/// The rules an action or a shuffle can break, with stable string forms. The section
/// names the spec's precondition (§5.3 P1–P5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// Not allowed in the current phase (P1).
    WrongPhase,
    /// Another seat is to play (P1).
    NotYourTurn,
    /// The match is over (§7).
    MatchOver,
    /// The card is not in the player's hand (P2).
    CardNotInHand,
    /// A jack onto an empty table while holding another card (P3).
    JackOnEmptyTable,
    /// A captured card is not on the table (P4).
    CaptureNotOnTable,
    /// The same card named twice in a capture (P4).
    DuplicateCards,
    /// A numeral's capture whose values do not sum to 11 with the card played (P4).
    CaptureSum,
    /// A jack that does not take exactly every table card but K and Q (P4).
    JackMustTakeAll,
    /// A king or queen that does not take exactly one card of its own rank (P4).
    CourtCapture,
    /// A card left on the table that must capture (P5, P5′).
    MustCapture,
    /// No capture named where the card can take several sets (§5.2, D2).
    AmbiguousCapture,
    /// A committed shuffle that is not the one asked for (§4.1).
    BadShuffle,
}

impl Rule {
    /// The stable identifier.
    pub fn as_str(self) -> &'static str {
        match self {
            Rule::WrongPhase => "WrongPhase",
            Rule::NotYourTurn => "NotYourTurn",
            Rule::MatchOver => "MatchOver",
            Rule::CardNotInHand => "CardNotInHand",
            Rule::JackOnEmptyTable => "JackOnEmptyTable",
            Rule::CaptureNotOnTable => "CaptureNotOnTable",
            Rule::DuplicateCards => "DuplicateCards",
            Rule::CaptureSum => "CaptureSum",
            Rule::JackMustTakeAll => "JackMustTakeAll",
            Rule::CourtCapture => "CourtCapture",
            Rule::MustCapture => "MustCapture",
            Rule::AmbiguousCapture => "AmbiguousCapture",
            Rule::BadShuffle => "BadShuffle",
        }
    }

    /// The spec section, as violations cite it.
    pub fn section(self) -> &'static str {
        match self {
            Rule::WrongPhase | Rule::NotYourTurn => "pasur §5.3 P1",
            Rule::MatchOver => "pasur §7",
            Rule::CardNotInHand => "pasur §5.3 P2",
            Rule::JackOnEmptyTable => "pasur §5.3 P3",
            Rule::CaptureNotOnTable
            | Rule::DuplicateCards
            | Rule::CaptureSum
            | Rule::JackMustTakeAll
            | Rule::CourtCapture => "pasur §5.3 P4",
            Rule::MustCapture => "pasur §5.3 P5",
            Rule::AmbiguousCapture => "pasur §5.2",
            Rule::BadShuffle => "pasur §4.1",
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

fn v(rule: Rule, detail: impl Into<String>) -> Violation {
    Violation::new(rule.as_str(), rule.section(), detail)
}

/// A clone of the state with the effects emitted so far.
struct Cx {
    s: State,
    out: Vec<Effect>,
}

impl Cx {
    fn new(s: &State) -> Self {
        Cx {
            s: s.clone(),
            out: Vec::new(),
        }
    }

    fn emit(&mut self, e: Effect) {
        evolve(&mut self.s, &e, None);
        self.out.push(e);
    }
}

fn is_rank(c: Card, r: Rank) -> bool {
    c.rank() == Some(r)
}

fn faces_of(cards: &[Placed]) -> String {
    cards
        .iter()
        .map(|p| p.face.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

// ---------------------------------------------------------------------------------------
// What a card may take (§5.2).

/// Sets of `nums` (table numerals, value each) whose values sum to `need`, as bit masks.
fn sum_sets(nums: &[(CardRef, u8)], need: u8) -> Vec<u64> {
    fn go(nums: &[(CardRef, u8)], i: usize, left: u8, mask: u64, out: &mut Vec<u64>) {
        if left == 0 {
            if mask != 0 {
                out.push(mask);
            }
            return;
        }
        for j in i..nums.len().min(64) {
            let Some((_, val)) = nums.get(j) else { break };
            if *val <= left {
                go(nums, j + 1, left - val, mask | (1u64 << j), out);
            }
        }
    }
    let mut out = Vec::new();
    go(nums, 0, need, 0, &mut out);
    out
}

/// Every non-empty union of disjoint sets each summing to `need` (`multi_set_capture`).
fn multi_sets(nums: &[(CardRef, u8)], need: u8) -> Vec<u64> {
    let groups = sum_sets(nums, need);
    let mut found: BTreeSet<u64> = BTreeSet::new();
    // Unions of disjoint groups: grow from each union found, groups taken in order.
    fn go(groups: &[u64], from: usize, used: u64, found: &mut BTreeSet<u64>) {
        for (k, g) in groups.iter().enumerate().skip(from) {
            if used & g == 0 {
                let u = used | g;
                found.insert(u);
                go(groups, k + 1, u, found);
            }
        }
    }
    go(&groups, 0, 0, &mut found);
    found.into_iter().collect()
}

fn refs_of(nums: &[(CardRef, u8)], mask: u64) -> Vec<CardRef> {
    let mut v: Vec<CardRef> = nums
        .iter()
        .enumerate()
        .filter(|(j, _)| *j < 64 && mask & (1u64 << j) != 0)
        .map(|(_, (r, _))| *r)
        .collect();
    v.sort_by_key(|r| (r.shuffle, r.pos));
    v
}

/// The table's numerals with their values.
fn numerals(table: &[Placed]) -> Vec<(CardRef, u8)> {
    table
        .iter()
        .filter_map(|p| value(p.face).map(|val| (p.r, val)))
        .collect()
}

/// `JSET(T)`: every table card but kings and queens, sorted.
pub(super) fn jset(table: &[Placed]) -> Vec<CardRef> {
    let mut v: Vec<CardRef> = table
        .iter()
        .filter(|p| !is_rank(p.face, Rank::King) && !is_rank(p.face, Rank::Queen))
        .map(|p| p.r)
        .collect();
    v.sort_by_key(|r| (r.shuffle, r.pos));
    v
}

/// Every non-empty capture `card` may make from `table` (§5.2), each sorted.
pub(super) fn capture_sets(multi: bool, card: Card, table: &[Placed]) -> Vec<Vec<CardRef>> {
    match card.rank() {
        Some(Rank::Jack) => {
            let j = jset(table);
            if j.is_empty() {
                Vec::new()
            } else {
                vec![j]
            }
        }
        Some(r @ (Rank::King | Rank::Queen)) => table
            .iter()
            .filter(|p| is_rank(p.face, r))
            .map(|p| vec![p.r])
            .collect(),
        _ => {
            let Some(val) = value(card) else {
                return Vec::new();
            };
            let need = 11u8.saturating_sub(val);
            let nums = numerals(table);
            let masks = if multi {
                multi_sets(&nums, need)
            } else {
                sum_sets(&nums, need)
            };
            masks.into_iter().map(|m| refs_of(&nums, m)).collect()
        }
    }
}

/// Whether `seat` may leave `card` on the table (§5.3 P5, with the jack's rule of P4).
fn may_trail(s: &State, seat: SeatIndex, card: Card, sets: &[Vec<CardRef>]) -> bool {
    if sets.is_empty() {
        if s.rules.capture_compulsion != CaptureCompulsion::MustCaptureIfAble {
            return true;
        }
        let table = s.zones.cards(ZoneId::Table);
        return s
            .zones
            .cards(ZoneId::Hand(seat))
            .iter()
            .all(|p| capture_sets(s.rules.multi_set_capture, p.face, table).is_empty());
    }
    s.rules.capture_compulsion == CaptureCompulsion::Optional && !is_rank(card, Rank::Jack)
}

/// P3: a jack onto an empty table while the hand holds another card.
fn jack_refused(s: &State, seat: SeatIndex, card: Card) -> bool {
    is_rank(card, Rank::Jack)
        && s.zones.is_empty(ZoneId::Table)
        && s.rules.jack_on_empty_table == JackOnEmptyTable::OnlyIfAllJacks
        && s.zones
            .cards(ZoneId::Hand(seat))
            .iter()
            .any(|p| !is_rank(p.face, Rank::Jack))
}

/// The legal captures of `card` for `seat` now (`[]` where it may stay on the table);
/// empty when the card may not be played at all.
pub(super) fn options(s: &State, seat: SeatIndex, card: Card) -> Vec<Vec<CardRef>> {
    if jack_refused(s, seat, card) {
        return Vec::new();
    }
    let sets = capture_sets(
        s.rules.multi_set_capture,
        card,
        s.zones.cards(ZoneId::Table),
    );
    let mut out = Vec::new();
    if may_trail(s, seat, card, &sets) {
        out.push(Vec::new());
    }
    out.extend(sets);
    out
}

// ---------------------------------------------------------------------------------------
// The deal (§4).

fn deal_round(cx: &mut Cx, deal: u8) {
    let n = cx.s.n;
    let packet = usize::from(cx.s.rules.deal_packet.max(1));
    let rounds = 4 / packet;
    for _ in 0..rounds {
        for k in 1..=n {
            let seat = SeatIndex((cx.s.dealer.0 + k) % n);
            let cards: Vec<CardRef> =
                cx.s.zones
                    .refs_in(ZoneId::Stock)
                    .into_iter()
                    .take(packet)
                    .collect();
            cx.emit(Effect::Dealt { deal, seat, cards });
        }
    }
}

fn shown_top(cx: &Cx, k: usize) -> Vec<Shown> {
    cx.s.zones
        .cards(ZoneId::Stock)
        .iter()
        .take(k)
        .map(|p| Shown {
            card: p.r,
            face: p.face,
        })
        .collect()
}

/// §4.3: each table slot in turn, while it holds a jack, the jack goes back into the stock
/// and the stock's top card takes its place.
fn table_jacks(cx: &mut Cx) {
    for slot in 0..4usize {
        // At most the 4 jacks and the cards between: bounded by the deck.
        for _ in 0..52 {
            let Some(p) = cx.s.zones.cards(ZoneId::Table).get(slot).copied() else {
                break;
            };
            if !is_rank(p.face, Rank::Jack) {
                break;
            }
            let Some(top) = shown_top(cx, 1).first().copied() else {
                break;
            };
            let left = cx.s.zones.len(ZoneId::Stock).saturating_sub(1);
            let at = match cx.s.rules.table_jack_return {
                TableJackReturn::MiddleOfStock => left / 2,
                TableJackReturn::BottomOfStock => left,
            };
            cx.emit(Effect::TableJackReplaced {
                slot: u8::try_from(slot + 1).unwrap_or(0),
                jack: Shown {
                    card: p.r,
                    face: p.face,
                },
                replacement: top,
                at: u32::try_from(at).unwrap_or(u32::MAX),
            });
        }
    }
}

pub(super) fn decide_shuffle(
    s: &State,
    shuffle: u32,
    order: &[Card],
) -> Result<Vec<Effect>, Violation> {
    if s.phase != Phase::AwaitShuffle {
        return Err(v(Rule::BadShuffle, "no shuffle is pending"));
    }
    if shuffle != s.shuffles {
        return Err(v(
            Rule::BadShuffle,
            format!("shuffle {shuffle} given, shuffle {} expected", s.shuffles),
        ));
    }
    let mut sorted = order.to_vec();
    sorted.sort();
    if sorted != s.shuffle_request().cards {
        return Err(v(
            Rule::BadShuffle,
            "the order is not a permutation of the 52 cards",
        ));
    }
    let mut cx = Cx::new(s);
    let e = Effect::Shuffled {
        shuffle,
        cards: u32::try_from(order.len()).unwrap_or(u32::MAX),
    };
    evolve(&mut cx.s, &e, Some(order));
    cx.out.push(e);
    deal_round(&mut cx, 1);
    let table = shown_top(&cx, 4);
    cx.emit(Effect::TableDealt { cards: table });
    table_jacks(&mut cx);
    cx.emit(Effect::Phase {
        phase: Phase::Playing,
    });
    Ok(cx.out)
}

// ---------------------------------------------------------------------------------------
// A play (§5.3).

fn set_names(sets: &[Vec<CardRef>], table: &[Placed]) -> String {
    sets.iter()
        .map(|set| {
            let faces: Vec<String> = set
                .iter()
                .filter_map(|r| table.iter().find(|p| p.r == *r))
                .map(|p| p.face.to_string())
                .collect();
            format!("{{{}}}", faces.join(", "))
        })
        .collect::<Vec<_>>()
        .join(" or ")
}

/// Check a named capture of `card` against §5.2: `Ok` with the cards taken.
fn check_capture(
    s: &State,
    seat: SeatIndex,
    card: Card,
    named: &[CardRef],
) -> Result<Vec<Placed>, Violation> {
    let table = s.zones.cards(ZoneId::Table);
    let Some(set) = as_set(named) else {
        return Err(v(Rule::DuplicateCards, "a table card is named twice"));
    };
    let mut taken = Vec::new();
    for r in &set {
        match table.iter().find(|p| p.r == *r) {
            Some(p) => taken.push(*p),
            None => {
                return Err(v(
                    Rule::CaptureNotOnTable,
                    format!(
                        "card {}/{} is not on the table (the table holds {})",
                        r.shuffle,
                        r.pos,
                        if table.is_empty() {
                            "nothing".to_string()
                        } else {
                            faces_of(table)
                        }
                    ),
                ))
            }
        }
    }
    let legal = capture_sets(s.rules.multi_set_capture, card, table);
    match card.rank() {
        Some(Rank::Jack) => {
            let all = jset(table);
            if set != all {
                return Err(v(
                    Rule::JackMustTakeAll,
                    format!(
                        "a jack takes every table card but kings and queens: {{{}}}, not {{{}}}",
                        faces_of(
                            &table
                                .iter()
                                .filter(|p| all.contains(&p.r))
                                .copied()
                                .collect::<Vec<_>>()
                        ),
                        faces_of(&taken)
                    ),
                ));
            }
        }
        Some(r @ (Rank::King | Rank::Queen)) => {
            if !set.is_empty() && (set.len() != 1 || !taken.iter().all(|p| is_rank(p.face, r))) {
                return Err(v(
                    Rule::CourtCapture,
                    format!(
                        "a {} takes exactly one {} and nothing else, not {{{}}}",
                        r.english(),
                        r.english(),
                        faces_of(&taken)
                    ),
                ));
            }
        }
        _ => {
            if !set.is_empty() && !legal.contains(&set) {
                let val = value(card).unwrap_or(0);
                let courts = taken.iter().any(|p| value(p.face).is_none());
                let sum: u32 = taken
                    .iter()
                    .filter_map(|p| value(p.face))
                    .map(u32::from)
                    .sum();
                let detail = if courts {
                    format!(
                        "{{{}}}: a jack, queen or king is never part of a sum",
                        faces_of(&taken)
                    )
                } else if s.rules.multi_set_capture {
                    format!(
                        "{{{}}} cannot be split into sets that each make 11 with a {val}",
                        faces_of(&taken)
                    )
                } else {
                    format!(
                        "{{{}}} sums to {sum}; with a {val} that is {}, not 11",
                        faces_of(&taken),
                        sum + u32::from(val)
                    )
                };
                return Err(v(Rule::CaptureSum, detail));
            }
        }
    }
    if set.is_empty() && !may_trail(s, seat, card, &legal) {
        return Err(if legal.is_empty() {
            v(
                Rule::MustCapture,
                "another card in the hand can capture: a card may stay on the table only \
                 when none can (must_capture_if_able)",
            )
        } else {
            v(
                Rule::MustCapture,
                format!(
                    "the card can take {}: it must capture",
                    set_names(&legal, table)
                ),
            )
        });
    }
    Ok(taken)
}

fn sur_forbidden(s: &State, play: u8) -> bool {
    match s.rules.sur_forbidden {
        SurForbidden::LastCard => play >= PLAYS,
        SurForbidden::LastFourCards => play >= PLAYS - 3,
        SurForbidden::LastDeal => s.deal_no >= deals(s.n),
        SurForbidden::Never => false,
    }
}

/// Check `action` by `actor` (see [`crate::engine::Game::decide`]).
pub(super) fn decide(s: &State, actor: Actor, action: &Action) -> Result<Vec<Effect>, Violation> {
    let Action::Play { card, capture } = action;
    if s.now.over {
        return Err(v(Rule::MatchOver, "the match is over"));
    }
    if s.phase != Phase::Playing {
        return Err(v(
            Rule::WrongPhase,
            format!("a play is not allowed in phase {}", s.phase.name()),
        ));
    }
    let seat = s.turn;
    if actor != Actor::Seat(seat) {
        return Err(v(
            Rule::NotYourTurn,
            format!("{seat} is to play, not {actor}"),
        ));
    }
    let Some(face) = s.zones.face_in(ZoneId::Hand(seat), *card) else {
        return Err(v(
            Rule::CardNotInHand,
            format!(
                "card {}/{} is not in the hand of {seat}",
                card.shuffle, card.pos
            ),
        ));
    };
    if jack_refused(s, seat, face) {
        return Err(v(
            Rule::JackOnEmptyTable,
            "a jack may not be played onto an empty table while the hand holds a card that \
             is not a jack",
        ));
    }
    let table = s.zones.cards(ZoneId::Table);
    let taken = match capture {
        Some(named) => check_capture(s, seat, face, named)?,
        None => {
            let sets = capture_sets(s.rules.multi_set_capture, face, table);
            match sets.as_slice() {
                [] => check_capture(s, seat, face, &[])?,
                [one] => check_capture(s, seat, face, one)?,
                _ => {
                    return Err(v(
                        Rule::AmbiguousCapture,
                        format!(
                            "the card can take {}: name the capture",
                            set_names(&sets, table)
                        ),
                    ))
                }
            }
        }
    };
    let mut cx = Cx::new(s);
    let play = s.plays.saturating_add(1);
    cx.emit(Effect::Played {
        seat,
        play,
        card: Shown { card: *card, face },
        capture: taken
            .iter()
            .map(|p| Shown {
                card: p.r,
                face: p.face,
            })
            .collect(),
    });
    if !taken.is_empty()
        && cx.s.zones.is_empty(ZoneId::Table)
        && !is_rank(face, Rank::Jack)
        && !sur_forbidden(&cx.s, play)
    {
        let side = cx.s.side(seat);
        cx.emit(Effect::Sur { seat, side, play });
    }
    if play >= PLAYS {
        end_hand(&mut cx);
    } else if (0..s.n).all(|i| cx.s.zones.is_empty(ZoneId::Hand(SeatIndex(i)))) {
        let next = cx.s.deal_no.saturating_add(1);
        deal_round(&mut cx, next);
    }
    Ok(cx.out)
}

// ---------------------------------------------------------------------------------------
// The end of the hand (§6) and the match (§7).

/// Each side's score from the cards it captured and its surs (§6.2, §6.3).
pub(super) fn score(s: &State) -> Vec<SideScore> {
    let mut out: Vec<SideScore> = (0..s.sides)
        .map(|side| SideScore {
            side,
            surs: s.surs.get(usize::from(side)).copied().unwrap_or(0),
            ..SideScore::default()
        })
        .collect();
    for i in 0..s.n {
        let side = usize::from(side_of(SeatIndex(i), s.n, s.sides));
        let Some(x) = out.get_mut(side) else { continue };
        for p in s.zones.cards(ZoneId::Won(SeatIndex(i))) {
            let c = p.face;
            x.cards += 1;
            x.aces += u32::from(is_rank(c, Rank::Ace));
            x.jacks += u32::from(is_rank(c, Rank::Jack));
            x.two_of_clubs |= c == Card::new(Rank::Two, Suit::Clubs);
            x.ten_of_diamonds |= c == Card::new(Rank::Ten, Suit::Diamonds);
            x.clubs += u32::from(c.suit() == Some(Suit::Clubs));
        }
    }
    let clubs: Vec<u32> = out.iter().map(|x| x.clubs).collect();
    if let Some(w) = clubs_winner(s.rules.clubs_bonus, &clubs) {
        if let Some(x) = out.get_mut(w) {
            x.clubs_bonus = true;
        }
    }
    for x in &mut out {
        x.points = x.aces
            + x.jacks
            + if x.two_of_clubs { 2 } else { 0 }
            + if x.ten_of_diamonds { 3 } else { 0 }
            + if x.clubs_bonus { 7 } else { 0 }
            + 5 * x.surs;
    }
    out
}

/// The side that gets the clubs bonus, if any (§6.3).
pub(super) fn clubs_winner(rule: ClubsBonus, clubs: &[u32]) -> Option<usize> {
    let most = clubs.iter().copied().max()?;
    let at_most: Vec<usize> = (0..clubs.len())
        .filter(|i| clubs.get(*i) == Some(&most))
        .collect();
    match rule {
        ClubsBonus::SevenOrMore => {
            (0..clubs.len()).find(|i| clubs.get(*i).is_some_and(|c| *c >= 7))
        }
        ClubsBonus::MostClubsNoneOnTie => {
            if at_most.len() == 1 {
                at_most.first().copied()
            } else {
                None
            }
        }
        ClubsBonus::MostClubs => {
            if at_most.len() == 1 {
                return at_most.first().copied();
            }
            if at_most.len() == clubs.len() {
                return None;
            }
            let fewest = clubs.iter().copied().min()?;
            let at_fewest: Vec<usize> = (0..clubs.len())
                .filter(|i| clubs.get(*i) == Some(&fewest))
                .collect();
            if at_fewest.len() == 1 {
                at_fewest.first().copied()
            } else {
                None
            }
        }
    }
}

/// The match after a hand: `Ok(side)` won, `Err(sides)` the sides still eligible under
/// `tied_only` (empty: anyone), from the scores after the hand (§7).
pub(super) fn match_end(
    rule: TieBreakEligibility,
    target: u32,
    scores: &[u32],
    eligible: &[u8],
) -> Result<u8, Vec<u8>> {
    let among: Vec<u8> = if eligible.is_empty() {
        (0..u8::try_from(scores.len()).unwrap_or(0)).collect()
    } else {
        eligible.to_vec()
    };
    let score = |x: u8| scores.get(usize::from(x)).copied().unwrap_or(0);
    let m = among.iter().map(|x| score(*x)).max().unwrap_or(0);
    let top: Vec<u8> = among.iter().copied().filter(|x| score(*x) == m).collect();
    if let (true, [one]) = (m >= target, top.as_slice()) {
        return Ok(*one);
    }
    if m >= target && rule == TieBreakEligibility::TiedOnly {
        return Err(top);
    }
    Err(eligible.to_vec())
}

fn end_hand(cx: &mut Cx) {
    let left: Vec<Shown> =
        cx.s.zones
            .cards(ZoneId::Table)
            .iter()
            .map(|p| Shown {
                card: p.r,
                face: p.face,
            })
            .collect();
    if !left.is_empty() {
        cx.emit(Effect::LeftoversTaken {
            seat: cx.s.last_capturer,
            cards: left,
        });
    }
    let sides = score(&cx.s);
    cx.emit(Effect::HandScored { sides });
    let r = &cx.s.rules;
    match match_end(
        r.tie_break_eligibility,
        r.target_score,
        &cx.s.now.scores,
        &cx.s.now.eligible,
    ) {
        Ok(side) => cx.emit(Effect::MatchWon { side }),
        Err(eligible) => {
            if eligible != cx.s.now.eligible {
                cx.emit(Effect::TiedAtTop { sides: eligible });
            }
            let seat = cx.s.dealer.right(cx.s.n);
            cx.emit(Effect::NextDealer { seat });
        }
    }
    cx.emit(Effect::Phase {
        phase: Phase::HandOver,
    });
}
