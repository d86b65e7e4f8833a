//! Every rule: checking actions and shuffles, and the automatic steps (the draw, the deal,
//! partner reveals, trick winners, scoring, the match).
//!
//! `decide` never touches the caller's state: it works on a clone, emits effects one by one
//! and folds each into the clone with `evolve`, so the automatic steps chain on the state as
//! it stands after every fact, and returns the effects.

use std::fmt;

use super::action::Action;
use super::effect::{Effect, Shown};
use super::evolve::evolve;
use super::penalty::CHEATING_PENALTY;
use super::rules::{BamFail, ColourFallback, Deuce2p, KotAtSix, NewRoundHakem, SuitCode, TenLow};
use super::rules::{HakemDraw, Partnerships, TrumpMethod};
use super::state::{
    cutter, deal_plan, dealer, hand_size, plus, right, side_of, sides, Colour, MatchEnd, Packet,
    Phase, ShuffleReason, State, WinKind, DRAWN, DRAW_PILE, TRICKS_TO_WIN, WITHHELD,
};
use crate::cards::{Card, Rank, Suit};
use crate::engine::{Actor, Award, CardRef, SeatIndex, Violation};
use crate::games::tricks::{self, DrawHistory};
use crate::zones::ZoneId;

/// The rules an action or a shuffle can break (spec §14.2), with stable string forms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// Not allowed in the current phase.
    WrongPhase,
    /// Another actor must act.
    NotYourTurn,
    /// The match is over (§11.6).
    MatchOver,
    /// A cut outside `1 ≤ k ≤ N − 1` (§6.2).
    InvalidCut,
    /// Ten-low is not played (§7.2).
    TenLowDisabled,
    /// The hakem's five hold an A, K, Q or J.
    TenLowNotEligible,
    /// No more ten-low redeals in this hand.
    TenLowLimitReached,
    /// The trump method is not allowed (options, or fewer than 4 players).
    MethodNotAllowed,
    /// Ya X ya Y with X = Y.
    InvalidSuitPair,
    /// The suit may not be declared now.
    SuitNotAllowed,
    /// 2p: not 3 (hakem) or 2 (other) discards.
    WrongDiscardCount,
    /// The same card named twice.
    DuplicateCards,
    /// The card is not in the actor's hand.
    CardNotInHand,
    /// 2p turn 21: not one of the two cards seen.
    InvalidFinalChoice,
    /// A card off the led suit while holding it (§9.4).
    MustFollowSuit,
    /// The dealer's peek is not allowed (§12.5).
    PeekNotAllowed,
    /// Bam is not available now (§10.5).
    BamNotAvailable,
    /// A penalty that names a seat outside the table or the offender's own side.
    BadPenalty,
    /// A committed shuffle that is not the one asked for.
    BadShuffle,
}

impl Rule {
    /// The stable identifier.
    pub fn as_str(self) -> &'static str {
        match self {
            Rule::WrongPhase => "WrongPhase",
            Rule::NotYourTurn => "NotYourTurn",
            Rule::MatchOver => "MatchOver",
            Rule::InvalidCut => "InvalidCut",
            Rule::TenLowDisabled => "TenLowDisabled",
            Rule::TenLowNotEligible => "TenLowNotEligible",
            Rule::TenLowLimitReached => "TenLowLimitReached",
            Rule::MethodNotAllowed => "MethodNotAllowed",
            Rule::InvalidSuitPair => "InvalidSuitPair",
            Rule::SuitNotAllowed => "SuitNotAllowed",
            Rule::WrongDiscardCount => "WrongDiscardCount",
            Rule::DuplicateCards => "DuplicateCards",
            Rule::CardNotInHand => "CardNotInHand",
            Rule::InvalidFinalChoice => "InvalidFinalChoice",
            Rule::MustFollowSuit => "MustFollowSuit",
            Rule::PeekNotAllowed => "PeekNotAllowed",
            Rule::BamNotAvailable => "BamNotAvailable",
            Rule::BadPenalty => "BadPenalty",
            Rule::BadShuffle => "BadShuffle",
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

fn v(rule: Rule, section: &str, detail: impl Into<String>) -> Violation {
    Violation::new(rule.as_str(), format!("hokm {section}"), detail)
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

    fn phase(&mut self, phase: Phase) {
        if self.s.phase != phase {
            self.emit(Effect::Phase { phase });
        }
    }

    fn hakem(&self) -> SeatIndex {
        self.s.hakem.unwrap_or(SeatIndex(0))
    }
}

fn name(a: &Action) -> &'static str {
    match a {
        Action::Cut { .. } => "Cut",
        Action::DeclareTrump { .. } => "DeclareTrump",
        Action::RequestTenLowRedeal => "RequestTenLowRedeal",
        Action::CallSarGhermez => "CallSarGhermez",
        Action::CallSarSiah => "CallSarSiah",
        Action::CallBargVasat => "CallBargVasat",
        Action::CallYa { .. } => "CallYa",
        Action::Discard { .. } => "Discard",
        Action::KeepFirst => "KeepFirst",
        Action::TakeSecond => "TakeSecond",
        Action::ChooseFinal { .. } => "ChooseFinal",
        Action::PeekPartnerPacket { .. } => "PeekPartnerPacket",
        Action::DeclinePeek => "DeclinePeek",
        Action::Play { .. } => "Play",
        Action::ContinueForBam => "ContinueForBam",
        Action::EndHand => "EndHand",
        Action::AwardCheatingPenalty { .. } => "AwardCheatingPenalty",
    }
}

fn wrong_phase(what: &str, phase: Phase) -> Violation {
    v(
        Rule::WrongPhase,
        "§14.1",
        format!("{what} is not allowed in phase {}", phase.name()),
    )
}

fn need_seat(actor: Actor, who: SeatIndex, role: &str) -> Result<(), Violation> {
    if actor == Actor::Seat(who) {
        Ok(())
    } else {
        Err(v(
            Rule::NotYourTurn,
            "§14.1",
            format!("only {role} ({who}) may do this now, not {actor}"),
        ))
    }
}

/// Whether the card may be a ten-low card: 10 or lower (§7.2).
fn low(c: Card) -> bool {
    c.rank().is_some_and(|r| r <= Rank::Ten)
}

/// Whether the hakem's five are ten-low (no A, K, Q, J).
pub(super) fn ten_low_eligible(s: &State) -> bool {
    let h = s.hakem.unwrap_or(SeatIndex(0));
    let five = s.hand_faces(h);
    !five.is_empty() && five.into_iter().all(low)
}

/// Why a ten-low request is refused now, if it is.
pub(super) fn ten_low_refusal(s: &State) -> Option<Violation> {
    let max = match s.rules.ten_low {
        TenLow::Off => {
            return Some(v(
                Rule::TenLowDisabled,
                "§7.2",
                "ten-low redeals are not played at this table",
            ))
        }
        TenLow::MaxRedealsPerHand(m) => Some(m),
        TenLow::Unlimited => None,
    };
    if max.is_some_and(|m| s.redeals >= m) {
        return Some(v(
            Rule::TenLowLimitReached,
            "§7.2",
            format!("{} ten-low redeals already in this hand", s.redeals),
        ));
    }
    if !ten_low_eligible(s) {
        return Some(v(
            Rule::TenLowNotEligible,
            "§7.2",
            "the hakem's five hold an ace, king, queen or jack",
        ));
    }
    None
}

/// The suits the hakem may declare in `phase` (direct: all; fallback: per §7.4 step 4).
pub(super) fn declarable(s: &State) -> Vec<Suit> {
    match s.phase {
        Phase::FallbackTrump {
            colour: Some(colour),
        } if s.rules.colour_fallback == ColourFallback::ColourSuits => colour.suits().to_vec(),
        _ => Suit::ALL.to_vec(),
    }
}

/// The refs of `seat`'s hand the seat may play now (§9.4).
pub(super) fn playable(s: &State, seat: SeatIndex) -> Vec<CardRef> {
    let led = tricks::led_suit(&s.zones.faces(ZoneId::Trick));
    tricks::follow_suit(s.zones.cards(ZoneId::Hand(seat)), led)
}

// ---------------------------------------------------------------------------------------
// Shuffles, the draw and the deal.

/// Check a committed shuffle (see [`crate::engine::Game::decide_shuffle`]).
pub(super) fn decide_shuffle(
    s: &State,
    shuffle: u32,
    order: &[Card],
) -> Result<Vec<Effect>, Violation> {
    let Phase::AwaitShuffle { reason } = s.phase else {
        return Err(v(Rule::BadShuffle, "§6.1", "no shuffle is pending"));
    };
    if shuffle != s.shuffles {
        return Err(v(
            Rule::BadShuffle,
            "§6.1",
            format!("shuffle {shuffle} given, shuffle {} expected", s.shuffles),
        ));
    }
    let mut sorted = order.to_vec();
    sorted.sort();
    let req = s.shuffle_request(reason);
    if sorted != req.cards {
        return Err(v(
            Rule::BadShuffle,
            "§6.1",
            format!("the order is not a permutation of the {} deck", req.reason),
        ));
    }
    let mut cx = Cx::new(s);
    let e = Effect::Shuffled {
        shuffle,
        reason,
        cards: u32::try_from(order.len()).unwrap_or(u32::MAX),
    };
    evolve(&mut cx.s, &e, Some(order));
    cx.out.push(e);
    match reason {
        ShuffleReason::Draw => draw(&mut cx),
        ShuffleReason::Deal => {
            if cx.s.rules.cut_on(cx.s.n) {
                cx.phase(Phase::AwaitingCut);
            } else {
                deal_round_one(&mut cx);
            }
        }
    }
    Ok(cx.out)
}

/// Where the hakem draw stands: decided, or waiting for a card for `seat`.
enum DrawStep {
    /// The hakem and, under `by_draw`, his partner.
    Done(SeatIndex, Option<SeatIndex>),
    /// The next face-up card goes to this seat.
    Next(SeatIndex),
}

/// Whether this draw also picks the hakem's partner (§5.2 step 3, §5.3): 4 players,
/// `by_draw`, and the match's first draw (later redraws pick the hakem only, so the teams
/// and their scores stay together).
fn draws_partner(s: &State) -> bool {
    s.n == 4 && s.rules.partnerships == Partnerships::ByDraw && s.start.hand == 1
}

/// The hakem draw (§5.2) as a procedure over the cards turned so far: its result, or the
/// seat that receives the next card. The cards go round the table by place (`t[0]`, `t[1]`,
/// …) at the table as it stands, also after a `by_draw` reseat (D25).
fn draw_step(s: &State) -> DrawStep {
    let mut h = DrawHistory::new(
        s.draw_seats
            .iter()
            .copied()
            .zip(s.zones.cards(DRAWN).iter().map(|p| p.face))
            .collect(),
    );
    let partner = draws_partner(s);
    let result = match s.rules.hakem_draw {
        HakemDraw::FirstAce => tricks::first_ace(s.table(), partner, &mut h),
        HakemDraw::HighestCard => tricks::highest_card(s.table(), partner, &mut h),
    };
    match result {
        Ok((hakem, p)) => DrawStep::Done(hakem, p),
        Err(seat) => DrawStep::Next(seat),
    }
}

/// The hakem draw (§5.2) on the installed draw deck: turn cards until it is decided, or
/// ask for another draw shuffle if the deck is spent (§5.2 step 5).
fn draw(cx: &mut Cx) {
    loop {
        match draw_step(&cx.s) {
            DrawStep::Next(seat) => {
                let Some(p) = cx.s.zones.cards(DRAW_PILE).first().copied() else {
                    cx.emit(Effect::DrawDeckSpent);
                    cx.phase(Phase::AwaitShuffle {
                        reason: ShuffleReason::Draw,
                    });
                    return;
                };
                cx.emit(Effect::DrawCard {
                    seat,
                    card: Shown {
                        card: p.r,
                        face: p.face,
                    },
                });
            }
            DrawStep::Done(hakem, partner) => {
                if let Some(p) = partner {
                    // §5.3: the hakem keeps his place; his partner and the player opposite
                    // him exchange places if they differ.
                    let seating = tricks::reseat_partner(hakem, p, cx.s.table());
                    cx.emit(Effect::Reseated { seating });
                }
                cx.emit(Effect::HakemSet { seat: hakem });
                cx.phase(Phase::AwaitShuffle {
                    reason: ShuffleReason::Deal,
                });
                return;
            }
        }
    }
}

/// The next packet of the deal, from the cards dealt so far.
fn next_packet(s: &State) -> Option<Packet> {
    let h = s.hakem?;
    let stock = u32::try_from(s.zones.len(ZoneId::Stock)).ok()?;
    let dealt = s.deck_len.checked_sub(stock)?;
    deal_plan(h, s.table())
        .into_iter()
        .find(|p| p.start == dealt)
}

/// The refs of the stock's top `size` cards.
fn top_refs(s: &State, size: u32) -> Vec<CardRef> {
    let k = usize::try_from(size).unwrap_or(0);
    s.zones
        .cards(ZoneId::Stock)
        .iter()
        .take(k)
        .map(|p| p.r)
        .collect()
}

fn top_shown(s: &State, size: u32) -> Vec<Shown> {
    let k = usize::try_from(size).unwrap_or(0);
    s.zones
        .cards(ZoneId::Stock)
        .iter()
        .take(k)
        .map(|p| Shown {
            card: p.r,
            face: p.face,
        })
        .collect()
}

/// Deal a packet privately to its seat.
fn deal_private(cx: &mut Cx, p: Packet) {
    let cards = top_refs(&cx.s, p.size);
    cx.emit(Effect::Dealt {
        seat: p.seat,
        cards,
    });
}

/// Round 1 of the deal (§6.3), then the trump declaration.
fn deal_round_one(cx: &mut Cx) {
    while let Some(p) = next_packet(&cx.s).filter(|p| p.round == 0) {
        deal_private(cx, p);
    }
    cx.phase(Phase::AwaitingTrump);
}

/// Trump is fixed: release the withheld packets, deal the rest, go on (§7.7, §8).
fn trump_fixed(cx: &mut Cx, suit: Suit, method: TrumpMethod) {
    let h = cx.hakem();
    cx.emit(Effect::TrumpFixed {
        suit: SuitCode(suit),
        method,
    });
    let held = cx.s.zones.refs_in(WITHHELD);
    if !held.is_empty() {
        cx.emit(Effect::Released {
            seat: h,
            cards: held,
        });
    }
    if cx.s.n == 2 {
        cx.phase(Phase::AwaitingDiscard { seat: h });
        return;
    }
    while let Some(p) = next_packet(&cx.s) {
        deal_private(cx, p);
    }
    if cx.s.n == 4 && cx.s.rules.dealer_peek && !cx.s.peeked {
        cx.phase(Phase::AwaitingDealerPeek);
    } else {
        cx.phase(Phase::Playing);
    }
}

// ---------------------------------------------------------------------------------------
// Partner methods (§7.4–§7.7).

/// The outcome of looking at one revealed packet under a colour method.
enum ColourLook {
    Trump(Suit),
    /// Undecided; whether a card of the colour was seen.
    Undecided(bool),
}

/// §7.4 step 2 on the packet just revealed (D3, D4).
fn look_colour(cards: &[Card], colour: Colour) -> ColourLook {
    let [a, b] = colour.suits();
    let top = |s: Suit| {
        cards
            .iter()
            .filter(|c| c.suit() == Some(s))
            .map(|c| c.rank())
            .max()
    };
    match (top(a), top(b)) {
        (None, None) => ColourLook::Undecided(false),
        (Some(_), None) => ColourLook::Trump(a),
        (None, Some(_)) => ColourLook::Trump(b),
        (Some(x), Some(y)) if x > y => ColourLook::Trump(a),
        (Some(x), Some(y)) if y > x => ColourLook::Trump(b),
        _ => ColourLook::Undecided(true),
    }
}

/// Deal on, in order, up to the partner's next packet: the hakem's packets withheld, the
/// others private. Returns the partner's packet (not yet dealt), if any is left.
fn deal_to_partner(cx: &mut Cx, partner: SeatIndex) -> Option<Packet> {
    let h = cx.hakem();
    while let Some(p) = next_packet(&cx.s) {
        if p.seat == partner {
            return Some(p);
        }
        if p.seat == h {
            let cards = top_refs(&cx.s, p.size);
            cx.emit(Effect::Withheld { seat: h, cards });
        } else {
            deal_private(cx, p);
        }
    }
    None
}

fn sar(cx: &mut Cx, colour: Colour, method: TrumpMethod) {
    let h = cx.hakem();
    let partner = plus(h, 2, cx.s.table());
    cx.emit(Effect::MethodCalled {
        method,
        suits: Vec::new(),
    });
    // Packet 1 is in the partner's hand: reveal it.
    let first: Vec<Shown> =
        cx.s.zones
            .cards(ZoneId::Hand(partner))
            .iter()
            .map(|p| Shown {
                card: p.r,
                face: p.face,
            })
            .collect();
    let mut packet = first;
    let mut seen_colour = false;
    loop {
        let faces: Vec<Card> = packet.iter().map(|c| c.face).collect();
        cx.emit(Effect::Revealed {
            seat: partner,
            cards: packet,
        });
        match look_colour(&faces, colour) {
            ColourLook::Trump(suit) => {
                trump_fixed(cx, suit, method);
                return;
            }
            ColourLook::Undecided(saw) => seen_colour |= saw,
        }
        match deal_to_partner(cx, partner) {
            Some(p) => packet = top_shown(&cx.s, p.size),
            None => break,
        }
    }
    cx.phase(Phase::FallbackTrump {
        colour: seen_colour.then_some(colour),
    });
}

fn barg_vasat(cx: &mut Cx) {
    let h = cx.hakem();
    let partner = plus(h, 2, cx.s.table());
    cx.emit(Effect::MethodCalled {
        method: TrumpMethod::BargVasat,
        suits: Vec::new(),
    });
    // The third card of the partner's round-1 packet: deck position 12.
    let Some(p) = cx.s.zones.cards(ZoneId::Hand(partner)).get(2).copied() else {
        return;
    };
    cx.emit(Effect::Revealed {
        seat: partner,
        cards: vec![Shown {
            card: p.r,
            face: p.face,
        }],
    });
    if let Some(suit) = p.face.suit() {
        trump_fixed(cx, suit, TrumpMethod::BargVasat);
    }
}

fn ya(cx: &mut Cx, x: Suit, y: Suit) {
    let h = cx.hakem();
    let partner = plus(h, 2, cx.s.table());
    let method = TrumpMethod::YaXYaY;
    cx.emit(Effect::MethodCalled {
        method,
        suits: vec![SuitCode(x), SuitCode(y)],
    });
    let hits = |c: Card| c.suit().filter(|s| *s == x || *s == y);
    // Round 1: already in the partner's hand, one card at a time.
    let first: Vec<_> = cx.s.zones.cards(ZoneId::Hand(partner)).to_vec();
    for p in first {
        cx.emit(Effect::Revealed {
            seat: partner,
            cards: vec![Shown {
                card: p.r,
                face: p.face,
            }],
        });
        if let Some(suit) = hits(p.face) {
            trump_fixed(cx, suit, method);
            return;
        }
    }
    while let Some(packet) = deal_to_partner(cx, partner) {
        let cards = top_shown(&cx.s, packet.size);
        let mut found = None;
        let mut k = 0u32;
        for c in cards {
            k = k.saturating_add(1);
            cx.emit(Effect::Revealed {
                seat: partner,
                cards: vec![c],
            });
            if let Some(suit) = hits(c.face) {
                found = Some(suit);
                break;
            }
        }
        if let Some(suit) = found {
            let rest = packet.size.saturating_sub(k);
            if rest > 0 {
                let cards = top_refs(&cx.s, rest);
                cx.emit(Effect::Dealt {
                    seat: partner,
                    cards,
                });
            }
            trump_fixed(cx, suit, method);
            return;
        }
    }
    cx.phase(Phase::FallbackTrump { colour: None });
}

// ---------------------------------------------------------------------------------------
// Two players (§8).

/// The drawer of 2p turn `t`: the hakem on odd turns.
pub(super) fn drawer(s: &State, t: u8) -> SeatIndex {
    let h = s.hakem.unwrap_or(SeatIndex(0));
    if t % 2 == 1 {
        h
    } else {
        right(h, s.table())
    }
}

fn offer(cx: &mut Cx, turn: u8) {
    let seat = drawer(&cx.s, turn);
    let k = if turn >= 21 { 2 } else { 1 };
    let cards = top_refs(&cx.s, k);
    cx.emit(Effect::Offered { turn, seat, cards });
    cx.phase(Phase::DrawTurn { turn });
}

fn after_draw_turn(cx: &mut Cx, turn: u8) {
    if turn >= 21 || cx.s.zones.len(ZoneId::Stock) < 2 {
        cx.phase(Phase::Playing);
    } else {
        offer(cx, turn.saturating_add(1));
    }
}

// ---------------------------------------------------------------------------------------
// Tricks, scoring and the match (§9–§11).

/// Whether kot and por kot score 2 and 3 with `n` players.
fn kot_scores(s: &State) -> bool {
    match s.n {
        4 => true,
        2 => s.rules.kot_2p,
        _ => s.rules.kot_3p,
    }
}

/// Check the round and match end after points were added (§11.5 steps 4–5); whether a
/// round ended.
fn round_check(cx: &mut Cx) -> bool {
    let t = cx.s.rules.target_points;
    let scores = cx.s.now.scores.clone();
    let winner = match cx.s.rules.deuce_2p {
        Deuce2p::WinByTwo { cap } if cx.s.n == 2 => {
            let floor = t.saturating_sub(1);
            if !cx.s.now.deuce && scores.iter().all(|x| *x == floor) {
                cx.emit(Effect::DeuceStarted);
            }
            if cx.s.now.deuce {
                (0u8..).zip(&scores).find_map(|(i, x)| {
                    let other = scores
                        .iter()
                        .enumerate()
                        .filter(|(j, _)| *j != usize::from(i))
                        .map(|(_, y)| *y)
                        .max()
                        .unwrap_or(0);
                    let by_two = *x > t && *x >= other.saturating_add(2);
                    let capped = cap.is_some_and(|c| *x >= c);
                    (by_two || capped).then_some(i)
                })
            } else {
                (0u8..).zip(&scores).find(|(_, x)| **x >= t).map(|(i, _)| i)
            }
        }
        _ => {
            let best = scores.iter().copied().max().unwrap_or(0);
            if best >= t {
                (0u8..)
                    .zip(&scores)
                    .find(|(_, x)| **x == best)
                    .map(|(i, _)| i)
            } else {
                None
            }
        }
    };
    let Some(side) = winner else {
        return false;
    };
    cx.emit(Effect::RoundWon { side });
    let rounds = cx.s.now.rounds.get(usize::from(side)).copied().unwrap_or(0);
    if rounds >= cx.s.rules.rounds_to_win {
        cx.emit(Effect::MatchWon {
            side,
            reason: MatchEnd::Rounds,
        });
    }
    true
}

/// Add a cheating penalty's points to the sides that gain (§12.3), then the round and match
/// checks of §11.5 steps (4)–(5): the arithmetic of the in-hand `AwardCheatingPenalty`
/// and of an award carried into the match between hands ([`apply_award`]).
fn award_points(cx: &mut Cx, offender: SeatIndex, sides_to: Vec<u8>, points: u32) {
    cx.emit(Effect::PenaltyAwarded {
        offender,
        sides: sides_to,
        points,
    });
    round_check(cx);
    if cx.s.now.over {
        cx.phase(Phase::HandOver);
    }
}

/// Carries a cheating penalty an official awarded on a finished hand (§12.3, A17) into the
/// match `m` between hands: the award's points go to the sides it names, exactly as the
/// in-hand `AwardCheatingPenalty` adds them ([`award_points`]), which may end the round or
/// the match (§11.5 steps (4)–(5)). The next hand's hakem stays the one the last hand
/// passed it to (step (6) belongs to a hand's end), except that a round ended here under
/// `new_round_hakem = redraw` starts the next round with the draw, as a round ended by a
/// penalty during a hand does.
pub(super) fn apply_award(
    rules: &super::rules::Rules,
    m: &super::state::Match,
    award: &Award,
) -> Result<super::state::Match, Violation> {
    if award.penalty != CHEATING_PENALTY {
        return Err(v(
            Rule::BadPenalty,
            "§12.3",
            format!(
                "the rules of hokm carry `{CHEATING_PENALTY}` into the match, not `{}`",
                award.penalty.chars().take(64).collect::<String>()
            ),
        ));
    }
    if m.over {
        return Err(v(Rule::MatchOver, "§11.6", "the match is over"));
    }
    let s = super::state::new_hand(rules, m).map_err(|e| {
        v(
            Rule::BadPenalty,
            "§12.3",
            format!("the match state cannot take the award: {e}"),
        )
    })?;
    let n = s.n;
    let table = s.table();
    if award.offender.0 >= n {
        return Err(v(
            Rule::BadPenalty,
            "§12.3",
            format!("the offender is not one of the {n} seats"),
        ));
    }
    let off = side_of(award.offender, table);
    let mut sides_to: Vec<u8> = Vec::with_capacity(award.beneficiaries.len());
    for group in &award.beneficiaries {
        let side = group.first().map(|seat| side_of(*seat, table));
        let whole: Option<Vec<SeatIndex>> = side.map(|x| {
            (0..n)
                .map(SeatIndex)
                .filter(|seat| side_of(*seat, table) == x)
                .collect()
        });
        match (side, whole) {
            (Some(x), Some(seats)) if x != off && seats == *group && !sides_to.contains(&x) => {
                sides_to.push(x)
            }
            _ => {
                return Err(v(
                    Rule::BadPenalty,
                    "§12.3",
                    "each beneficiary must be a whole side, once, other than the offender's",
                ))
            }
        }
    }
    if sides_to.is_empty() {
        return Err(v(
            Rule::BadPenalty,
            "§12.3",
            "the award names no side that gains",
        ));
    }
    let mut cx = Cx::new(&s);
    award_points(&mut cx, award.offender, sides_to, award.points);
    let mut next = cx.s.now;
    let new_round = next.rounds != m.rounds;
    if new_round && !next.over && rules.new_round_hakem == NewRoundHakem::Redraw {
        next.hakem = None;
    }
    Ok(next)
}

/// The hand is won by `side` (§10): score it, check the round and match, pass the hakem.
fn finish(cx: &mut Cx, side: u8, six_six_five: bool, bam_failed: bool) {
    let h = cx.hakem();
    let n = cx.s.n;
    let hside = side_of(h, cx.s.table());
    let tricks = cx.s.side_tricks();
    let others_zero = (0u8..).zip(&tricks).all(|(i, t)| i == side || *t == 0);
    let seven_zero = others_zero || bam_failed;
    let plain_fail = bam_failed && cx.s.rules.bam_fail == BamFail::PlainWin;
    let mut hakem_to_kotted = false;
    let (kind, points) = if six_six_five {
        (WinKind::SixSixFive, 1)
    } else if seven_zero && kot_scores(&cx.s) && !plain_fail {
        let (kind, points) = if side == hside {
            (WinKind::Kot, 2)
        } else {
            (WinKind::PorKot, 3)
        };
        // Kot at six (§10.6, D7): the kotted team stood on T − 1 before the hand.
        let floor = cx.s.rules.target_points.saturating_sub(1);
        let before = &cx.s.start.scores;
        let kotted = (0u8..).zip(before).find(|(i, _)| *i != side);
        let kotting = before.get(usize::from(side)).copied().unwrap_or(0);
        let trigger = n == 4
            && kotted.is_some_and(|(_, x)| *x == floor)
            && match cx.s.rules.kot_at_six {
                KotAtSix::Off => false,
                KotAtSix::OnZero => kotting == 0,
                KotAtSix::OnAny => true,
            };
        if trigger {
            hakem_to_kotted = true;
            (WinKind::KotAtSix, 1)
        } else {
            (kind, points)
        }
    } else {
        (WinKind::Plain, 1)
    };
    cx.emit(Effect::HandWon {
        side,
        kind,
        points,
        bam_failed,
    });
    let round_ended = round_check(cx);
    if !cx.s.now.over {
        // A round may also have ended earlier in this hand, by a penalty award.
        let new_round = round_ended || cx.s.now.rounds != cx.s.start.rounds;
        let next = if new_round && cx.s.rules.new_round_hakem == NewRoundHakem::Redraw {
            None
        } else if n == 4 {
            let stays = (side == hside) != hakem_to_kotted;
            Some(tricks::rotate_by_result(h, stays, cx.s.table()))
        } else {
            Some(SeatIndex(side))
        };
        cx.emit(Effect::NextHakem { seat: next });
    }
    cx.phase(Phase::HandOver);
}

/// After a trick is won: the hand's end, bam, or the next trick (§10.1, §10.5).
fn after_trick(cx: &mut Cx, winner: SeatIndex) {
    let n = cx.s.n;
    let wside = side_of(winner, cx.s.table());
    let tricks = cx.s.side_tricks();
    let played = cx.s.tricks_played();
    let total = hand_size(n);
    if let Some(b) = cx.s.bam {
        if wside != b {
            finish(cx, b, false, true);
        } else if played >= total {
            cx.emit(Effect::HandWon {
                side: b,
                kind: WinKind::Bam,
                points: 0,
                bam_failed: false,
            });
            cx.emit(Effect::MatchWon {
                side: b,
                reason: MatchEnd::Bam,
            });
            cx.phase(Phase::HandOver);
        }
        return;
    }
    let mine = tricks.get(usize::from(wside)).copied().unwrap_or(0);
    if mine >= TRICKS_TO_WIN {
        let others_zero = (0u8..).zip(&tricks).all(|(i, t)| i == wside || *t == 0);
        if others_zero && cx.s.rules.bam_on(n) && played < total {
            cx.phase(Phase::AwaitingBam { seat: winner });
        } else {
            finish(cx, wside, false, false);
        }
    } else if played >= total {
        // 3p 6-6-5 (§10.4): the player with the fewest tricks (5) wins.
        let least = (0u8..)
            .zip(&tricks)
            .min_by_key(|(_, t)| **t)
            .map(|(i, _)| i)
            .unwrap_or(0);
        finish(cx, least, true, false);
    }
}

fn play(cx: &mut Cx, seat: SeatIndex, card: CardRef, face: Card) {
    cx.emit(Effect::Played {
        seat,
        card: Shown { card, face },
    });
    let n = usize::from(cx.s.n);
    if cx.s.zones.len(ZoneId::Trick) < n {
        return;
    }
    let faces = cx.s.zones.faces(ZoneId::Trick);
    let i = tricks::trick_winner(&faces, cx.s.trump);
    let winner = plus(cx.s.leader, u8::try_from(i).unwrap_or(0), cx.s.table());
    let index = cx.s.tricks_played().saturating_add(1);
    cx.emit(Effect::TrickWon {
        index,
        seat: winner,
    });
    after_trick(cx, winner);
}

// ---------------------------------------------------------------------------------------
// Actions.

/// Check `action` by `actor` (see [`crate::engine::Game::decide`]).
pub(super) fn decide(s: &State, actor: Actor, action: &Action) -> Result<Vec<Effect>, Violation> {
    let what = name(action);
    if s.now.over {
        return Err(v(Rule::MatchOver, "§11.6", "the match is over"));
    }
    if matches!(s.phase, Phase::AwaitShuffle { .. } | Phase::HandOver) {
        return Err(wrong_phase(what, s.phase));
    }
    let n = s.n;
    let h = s.hakem.unwrap_or(SeatIndex(0));
    let mut cx = Cx::new(s);
    match action {
        Action::AwardCheatingPenalty {
            offender,
            beneficiary,
        } => {
            if actor != Actor::Service {
                return Err(v(
                    Rule::NotYourTurn,
                    "§12.3",
                    "only the service adjudicates a cheating penalty",
                ));
            }
            if offender.0 >= n {
                return Err(v(
                    Rule::BadPenalty,
                    "§12.3",
                    format!("the offender is not one of the {n} seats"),
                ));
            }
            let off = side_of(*offender, s.table());
            let sides_to: Vec<u8> = match beneficiary {
                Some(b) if b.0 >= n || side_of(*b, s.table()) == off => {
                    return Err(v(
                        Rule::BadPenalty,
                        "§12.3",
                        "the beneficiary must be a seat of another side than the offender's",
                    ))
                }
                Some(b) => vec![side_of(*b, s.table())],
                None => (0..sides(n)).filter(|x| *x != off).collect(),
            };
            award_points(
                &mut cx,
                *offender,
                sides_to,
                s.rules.cheating_penalty_points,
            );
        }
        Action::Cut { k } => {
            if s.phase != Phase::AwaitingCut {
                return Err(wrong_phase(what, s.phase));
            }
            need_seat(actor, cutter(h, s.table()), "the cutter")?;
            if *k == 0 || *k >= s.deck_len {
                return Err(v(
                    Rule::InvalidCut,
                    "§6.2",
                    format!(
                        "a cut must move 1 to {} cards, not {k}",
                        s.deck_len.saturating_sub(1)
                    ),
                ));
            }
            cx.emit(Effect::CutApplied {
                seat: cutter(h, s.table()),
                k: *k,
            });
            deal_round_one(&mut cx);
        }
        Action::RequestTenLowRedeal => {
            if s.phase != Phase::AwaitingTrump {
                return Err(wrong_phase(what, s.phase));
            }
            need_seat(actor, h, "the hakem")?;
            if let Some(refusal) = ten_low_refusal(s) {
                return Err(refusal);
            }
            let five: Vec<Shown> = s
                .zones
                .cards(ZoneId::Hand(h))
                .iter()
                .map(|p| Shown {
                    card: p.r,
                    face: p.face,
                })
                .collect();
            cx.emit(Effect::Revealed {
                seat: h,
                cards: five,
            });
            cx.emit(Effect::DealAnnulled {
                redeals: s.redeals.saturating_add(1),
            });
            cx.phase(Phase::AwaitShuffle {
                reason: ShuffleReason::Deal,
            });
        }
        Action::DeclareTrump { suit } => {
            let fallback = matches!(s.phase, Phase::FallbackTrump { .. });
            if s.phase != Phase::AwaitingTrump && !fallback {
                return Err(wrong_phase(what, s.phase));
            }
            need_seat(actor, h, "the hakem")?;
            if !fallback && !s.rules.method_allowed(TrumpMethod::Direct, n) {
                return Err(v(
                    Rule::MethodNotAllowed,
                    "§7.1",
                    "direct declaration is not among this table's trump methods",
                ));
            }
            if !declarable(s).contains(&suit.0) {
                return Err(v(
                    Rule::SuitNotAllowed,
                    "§7.4",
                    format!("{suit} may not be declared: the call promised the other colour"),
                ));
            }
            let method = if fallback {
                s.method.unwrap_or(TrumpMethod::Direct)
            } else {
                TrumpMethod::Direct
            };
            trump_fixed(&mut cx, suit.0, method);
        }
        Action::CallSarGhermez
        | Action::CallSarSiah
        | Action::CallBargVasat
        | Action::CallYa { .. } => {
            if s.phase != Phase::AwaitingTrump {
                return Err(wrong_phase(what, s.phase));
            }
            need_seat(actor, h, "the hakem")?;
            let method = match action {
                Action::CallSarGhermez => TrumpMethod::SarGhermez,
                Action::CallSarSiah => TrumpMethod::SarSiah,
                Action::CallBargVasat => TrumpMethod::BargVasat,
                _ => TrumpMethod::YaXYaY,
            };
            if !s.rules.method_allowed(method, n) {
                return Err(v(
                    Rule::MethodNotAllowed,
                    "§7.1",
                    format!(
                        "{what} is not allowed at this table (options, or fewer than 4 players)"
                    ),
                ));
            }
            match action {
                Action::CallSarGhermez => sar(&mut cx, Colour::Red, method),
                Action::CallSarSiah => sar(&mut cx, Colour::Black, method),
                Action::CallBargVasat => barg_vasat(&mut cx),
                Action::CallYa { x, y } => {
                    if x == y {
                        return Err(v(
                            Rule::InvalidSuitPair,
                            "§7.6",
                            "ya X ya Y needs two different suits",
                        ));
                    }
                    ya(&mut cx, x.0, y.0);
                }
                _ => {}
            }
        }
        Action::Discard { cards } => {
            let Phase::AwaitingDiscard { seat } = s.phase else {
                return Err(wrong_phase(what, s.phase));
            };
            need_seat(actor, seat, "the discarding player")?;
            let want = if seat == h { 3 } else { 2 };
            if cards.len() != want {
                return Err(v(
                    Rule::WrongDiscardCount,
                    "§8.1",
                    format!(
                        "{seat} must discard exactly {want} cards, not {}",
                        cards.len()
                    ),
                ));
            }
            if cards
                .iter()
                .enumerate()
                .any(|(i, a)| cards.iter().skip(i.saturating_add(1)).any(|b| a == b))
            {
                return Err(v(Rule::DuplicateCards, "§8.1", "a card is named twice"));
            }
            if cards
                .iter()
                .any(|c| s.zones.get(ZoneId::Hand(seat), *c).is_none())
            {
                return Err(v(
                    Rule::CardNotInHand,
                    "§8.1",
                    format!("a discarded card is not in the hand of {seat}"),
                ));
            }
            cx.emit(Effect::Discarded {
                seat,
                cards: cards.clone(),
            });
            if seat == h {
                cx.phase(Phase::AwaitingDiscard {
                    seat: right(h, s.table()),
                });
            } else {
                offer(&mut cx, 1);
            }
        }
        Action::KeepFirst | Action::TakeSecond | Action::ChooseFinal { .. } => {
            let Phase::DrawTurn { turn } = s.phase else {
                return Err(wrong_phase(what, s.phase));
            };
            let seat = drawer(s, turn);
            need_seat(actor, seat, "the drawer")?;
            let top = top_refs(s, 2);
            let (Some(first), Some(second)) = (top.first().copied(), top.get(1).copied()) else {
                return Err(wrong_phase(what, s.phase));
            };
            let last = turn >= 21;
            let (kept, burned, seen) = match action {
                Action::KeepFirst if !last => (first, second, s.rules.peek_burned.then_some(seat)),
                Action::TakeSecond if !last => (second, first, Some(seat)),
                Action::ChooseFinal { card } if last => {
                    if *card == first {
                        (first, second, Some(seat))
                    } else if *card == second {
                        (second, first, Some(seat))
                    } else {
                        return Err(v(
                            Rule::InvalidFinalChoice,
                            "§8.2",
                            "the final choice must be one of the two cards seen",
                        ));
                    }
                }
                Action::ChooseFinal { .. } => {
                    return Err(v(
                        Rule::InvalidFinalChoice,
                        "§8.2",
                        "a final choice only on turn 21",
                    ))
                }
                _ => {
                    return Err(v(
                        Rule::WrongPhase,
                        "§8.2",
                        format!("{what} is not allowed on turn {turn}"),
                    ))
                }
            };
            cx.emit(Effect::Drawn {
                seat,
                kept,
                burned,
                burned_seen_by: seen,
            });
            after_draw_turn(&mut cx, turn);
        }
        Action::PeekPartnerPacket { .. } | Action::DeclinePeek => {
            if !s.rules.dealer_peek || n != 4 {
                return Err(v(
                    Rule::PeekNotAllowed,
                    "§12.5",
                    "the dealer may not look at his partner's cards at this table",
                ));
            }
            if s.phase != Phase::AwaitingDealerPeek {
                return Err(wrong_phase(what, s.phase));
            }
            let d = dealer(h, s.table());
            need_seat(actor, d, "the dealer")?;
            let partner = plus(d, 2, s.table());
            let (round, cards) = match action {
                Action::PeekPartnerPacket { round } => {
                    if !(2..=3).contains(round) {
                        return Err(v(
                            Rule::PeekNotAllowed,
                            "§12.5",
                            "only the partner's packet of round 2 or 3",
                        ));
                    }
                    (*round, packet_refs(s, *round, partner))
                }
                _ => (0, Vec::new()),
            };
            cx.emit(Effect::Peeked {
                seat: d,
                round,
                cards,
            });
            cx.phase(Phase::Playing);
        }
        Action::Play { card } => {
            if s.phase != Phase::Playing {
                return Err(wrong_phase(what, s.phase));
            }
            let seat = s.to_play();
            need_seat(actor, seat, "the seat to play")?;
            let Some(face) = s.zones.face_in(ZoneId::Hand(seat), *card) else {
                return Err(v(
                    Rule::CardNotInHand,
                    "§9",
                    format!("that card is not in the hand of {seat}"),
                ));
            };
            if !playable(s, seat).contains(card) {
                return Err(v(
                    Rule::MustFollowSuit,
                    "§9.4",
                    format!("{seat} holds the led suit and must follow it"),
                ));
            }
            play(&mut cx, seat, *card, face);
        }
        Action::ContinueForBam | Action::EndHand => {
            let Phase::AwaitingBam { seat } = s.phase else {
                return Err(v(
                    Rule::BamNotAvailable,
                    "§10.5",
                    "bam is offered only when a side reaches 7 tricks with the others at 0",
                ));
            };
            need_seat(actor, seat, "the winner of the 7th trick")?;
            let play_on = *action == Action::ContinueForBam;
            cx.emit(Effect::BamChosen { seat, play_on });
            if play_on {
                cx.phase(Phase::Playing);
            } else {
                finish(&mut cx, side_of(seat, s.table()), false, false);
            }
        }
    }
    Ok(cx.out)
}

/// The refs of `seat`'s packet of round `round` (1-based), from the deal positions and the
/// cut (§6.3).
fn packet_refs(s: &State, round: u8, seat: SeatIndex) -> Vec<CardRef> {
    let (Some(h), Some(shuffle)) = (s.hakem, s.deal_shuffle) else {
        return Vec::new();
    };
    let Some(p) = deal_plan(h, s.table())
        .into_iter()
        .find(|p| p.round.saturating_add(1) == round && p.seat == seat)
    else {
        return Vec::new();
    };
    let n = s.deck_len.max(1);
    (p.start..p.start.saturating_add(p.size))
        .map(|pos| CardRef {
            shuffle,
            pos: pos.saturating_add(s.cut) % n,
        })
        .collect()
}
