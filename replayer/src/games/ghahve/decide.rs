//! Every rule: checking actions and shuffles, and the automatic steps (the draw, the deal,
//! contracts and the buy window, trick winners, scoring, the match and the next dealer).
//!
//! `decide` never touches the caller's state: it works on a clone, emits effects one by one
//! and folds each into the clone with `evolve`, so the automatic steps chain on the state as
//! it stands after every fact, and returns the effects.

use std::fmt;

use super::action::Action;
use super::effect::{Effect, Shown};
use super::evolve::evolve;
use super::rules::{CheatingPenalty, CjRelease, Cut, DealerDraw, JokerLead, MaxBuys, Partnerships};
use super::state::{
    cutter, deal_plan, identity, team_of, Phase, ShuffleReason, State, BJ, CJ, DRAWN, DRAW_PILE,
    MIN_BID, SEATS, TRICKS,
};
use crate::cards::{Card, Joker, Rank, Suit};
use crate::engine::{Actor, CardRef, SeatIndex, Violation};
use crate::games::tricks::{self, plus, DrawHistory};
use crate::zones::ZoneId;

/// The rules an action or a shuffle can break (spec §14.2), with stable string forms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// Not allowed in the current phase.
    WrongPhase,
    /// Another actor must act.
    NotYourTurn,
    /// The match is over (§11.5).
    MatchOver,
    /// A cut outside `1 ≤ k ≤ 51` (§5.2).
    InvalidCut,
    /// A bid below 2 (§7.3).
    BidBelowMinimum,
    /// A bid that takes the team total above the cap, or above 13 (§7.4).
    BidAboveMaximum,
    /// No purchase is possible now (§8, §14.2).
    BuyNotAvailable,
    /// The buyer team's rebid does not reach `Req(S)` (§8.6).
    BuyerCommitmentNotMet,
    /// The card is not in the actor's hand.
    CardNotInHand,
    /// A card off the led suit while holding it, other than a playable joker (§9.5).
    MustFollowSuit,
    /// The coloured joker before the black one (§9.7).
    ColouredJokerLocked,
    /// In the deadline trick the holder of the black joker must play it (§9.8).
    MustPlayBlackJoker,
    /// A penalty that names a seat outside the table or the offender's own team.
    BadPenalty,
    /// The table plays no cheating penalty (`cheating_penalty = none`).
    NoPenalty,
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
            Rule::BidBelowMinimum => "BidBelowMinimum",
            Rule::BidAboveMaximum => "BidAboveMaximum",
            Rule::BuyNotAvailable => "BuyNotAvailable",
            Rule::BuyerCommitmentNotMet => "BuyerCommitmentNotMet",
            Rule::CardNotInHand => "CardNotInHand",
            Rule::MustFollowSuit => "MustFollowSuit",
            Rule::ColouredJokerLocked => "ColouredJokerLocked",
            Rule::MustPlayBlackJoker => "MustPlayBlackJoker",
            Rule::BadPenalty => "BadPenalty",
            Rule::NoPenalty => "NoPenalty",
            Rule::BadShuffle => "BadShuffle",
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

pub(super) fn v(rule: Rule, section: &str, detail: impl Into<String>) -> Violation {
    Violation::new(rule.as_str(), format!("ghahve {section}"), detail)
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

    fn dealer(&self) -> SeatIndex {
        self.s.dealer.unwrap_or(SeatIndex(0))
    }
}

fn name(a: &Action) -> &'static str {
    match a {
        Action::Cut { .. } => "Cut",
        Action::Bid { .. } => "Bid",
        Action::Buy => "Buy",
        Action::DeclineBuy => "DeclineBuy",
        Action::Play { .. } => "Play",
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

fn need_seat(actor: Actor, who: Option<SeatIndex>, role: &str) -> Result<SeatIndex, Violation> {
    match who {
        Some(w) if actor == Actor::Seat(w) => Ok(w),
        Some(w) => Err(v(
            Rule::NotYourTurn,
            "§14.1",
            format!("only {role} ({w}) may do this now, not {actor}"),
        )),
        None => Err(v(
            Rule::NotYourTurn,
            "§14.1",
            format!("nobody may do this now, not {actor}"),
        )),
    }
}

// ---------------------------------------------------------------------------------------
// Jokers, following suit and the trick's winner (§9).

/// The suit the others must follow in the current trick: the led card's suit; a joker
/// lead sets none under `free`, spades under `calls_spades` (§9.6, G1).
pub(super) fn led(s: &State) -> Option<Suit> {
    let first = s.zones.cards(ZoneId::Trick).first()?.face;
    match first.suit() {
        Some(suit) => Some(suit),
        None if s.rules.joker_lead == JokerLead::CallsSpades => Some(Suit::Spades),
        None => None,
    }
}

/// Whether this is the black joker's deadline trick (§9.8, G3).
fn deadline_trick(s: &State) -> bool {
    s.trick_no() == s.rules.bj_deadline
}

/// The refs of `seat`'s hand the seat may play now (§9.5, §9.7, §9.8).
pub(super) fn playable(s: &State, seat: SeatIndex) -> Vec<CardRef> {
    let hand = s.zones.cards(ZoneId::Hand(seat));
    if deadline_trick(s) {
        if let Some(bj) = hand.iter().find(|p| p.face == BJ) {
            return vec![bj.r];
        }
    }
    let free: Vec<_> = hand
        .iter()
        .filter(|p| p.face != CJ || s.cj_released)
        .copied()
        .collect();
    let Some(l) = led(s) else {
        return free.iter().map(|p| p.r).collect();
    };
    if free.iter().any(|p| p.face.suit() == Some(l)) {
        // The led suit, or a joker he may play ("ژوکرها را میتوان در هر زمان … بازی کنیم").
        free.iter()
            .filter(|p| p.face.suit() == Some(l) || p.face.is_joker())
            .map(|p| p.r)
            .collect()
    } else {
        free.iter().map(|p| p.r).collect()
    }
}

/// Why `seat` may not play `face` now, if he may not (the first rule it breaks).
fn play_refusal(s: &State, seat: SeatIndex, card: CardRef, face: Card) -> Option<Violation> {
    let hand = s.zones.faces(ZoneId::Hand(seat));
    if deadline_trick(s) && hand.contains(&BJ) && face != BJ {
        return Some(v(
            Rule::MustPlayBlackJoker,
            "§9.8",
            format!(
                "trick {} is the black joker's deadline: {seat} holds it and must play it",
                s.rules.bj_deadline
            ),
        ));
    }
    if face == CJ && !s.cj_released {
        return Some(v(
            Rule::ColouredJokerLocked,
            "§9.7",
            "the coloured joker may not be played before the black joker",
        ));
    }
    if !playable(s, seat).contains(&card) {
        return Some(v(
            Rule::MustFollowSuit,
            "§9.5",
            format!("{seat} holds the led suit and must follow it (or play a joker)"),
        ));
    }
    None
}

/// A card's power in a trick (§3.5, §9.9): `CJ` > `BJ` > spades > the led suit; `None`
/// for a card that cannot win.
fn power(c: Card, led: Option<Suit>) -> Option<(u8, Option<Rank>)> {
    match c {
        Card::Joker(Joker::Coloured) => Some((3, None)),
        Card::Joker(Joker::Black) => Some((2, None)),
        _ => tricks::strength(c, led, Some(Suit::Spades)).map(|(k, r)| (k, Some(r))),
    }
}

/// The winner of a complete trick, by index in play order (§9.9).
pub(super) fn trick_winner(cards: &[Card]) -> usize {
    let led = tricks::led_suit(cards);
    tricks::trick_winner_by(cards, |c| power(c, led))
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
    if sorted != s.shuffle_request(reason).cards {
        return Err(v(
            Rule::BadShuffle,
            "§6.1",
            "the order is not a permutation of the ghahve deck",
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
        ShuffleReason::Deal if cx.s.rules.cut == Cut::DealersLeftCuts => {
            cx.phase(Phase::AwaitingCut)
        }
        ShuffleReason::Deal => deal(&mut cx),
    }
    Ok(cx.out)
}

/// A draw card's strength (§5.1): `CJ` > `BJ` > A > K > … > 2, suits ignored.
fn draw_strength(c: Card) -> u8 {
    match c {
        Card::Joker(Joker::Coloured) => 14,
        Card::Joker(Joker::Black) => 13,
        Card::Suited { rank, .. } => rank.index(),
    }
}

/// Whether the draw also picks the dealer's partner (§4.4): `by_draw`, first hand.
fn draws_partner(s: &State) -> bool {
    s.rules.partnerships == Partnerships::ByDraw && s.start.hand == 1
}

/// The first-dealer draw (§5.1) over the cards turned so far: the dealer and (under
/// `by_draw`) his partner, or the seat the next card goes to. Cards go round the table in
/// seat order 0 to 3 (the table before any reseating).
fn draw_step(s: &State) -> Result<(SeatIndex, Option<SeatIndex>), SeatIndex> {
    let faces = s.zones.faces(DRAWN);
    let partner = draws_partner(s);
    let table = identity();
    let mut h = DrawHistory::new(s.draw_seats.iter().copied().zip(faces).collect());
    match s.rules.dealer_draw {
        DealerDraw::FirstAce => tricks::first_ace(&table, partner, &mut h),
        DealerDraw::HighestCard => tricks::highest_card_by(&table, partner, &mut h, draw_strength),
    }
}

/// Turn draw cards until the first dealer is known, or ask for another draw deck.
fn draw(cx: &mut Cx) {
    loop {
        match draw_step(&cx.s) {
            Err(seat) => {
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
            Ok((dealer, partner)) => {
                if let Some(p) = partner {
                    let seating = tricks::reseat_partner(dealer, p, cx.s.table());
                    if seating != cx.s.table() {
                        cx.emit(Effect::Reseated { seating });
                    }
                }
                cx.emit(Effect::DealerSet { seat: dealer });
                cx.phase(Phase::AwaitShuffle {
                    reason: ShuffleReason::Deal,
                });
                return;
            }
        }
    }
}

/// The whole deal (§6.2): packets 5, 4, 4 from the dealer's right round to the dealer,
/// each seen by its recipient only; then the bidding.
fn deal(cx: &mut Cx) {
    for p in deal_plan(cx.dealer(), cx.s.table()) {
        let k = usize::try_from(p.size).unwrap_or(0);
        let cards: Vec<CardRef> =
            cx.s.zones
                .refs_in(ZoneId::Stock)
                .into_iter()
                .take(k)
                .collect();
        cx.emit(Effect::Dealt {
            seat: p.seat,
            cards,
        });
    }
    cx.phase(Phase::Bidding);
}

// ---------------------------------------------------------------------------------------
// Bidding and buying (§7, §8).

/// The bids `seat` may make now: `(min, max)` (§7.3, §7.4, §8.6).
pub(super) fn bid_range(s: &State, seat: SeatIndex) -> (u8, u8) {
    let partner = plus(seat, 2, s.table());
    let partner_bid = s.bids.get(partner.index()).copied().flatten();
    let max = match s.rules.team_bid_cap {
        Some(cap) => cap.saturating_sub(partner_bid.unwrap_or(MIN_BID)),
        None => 13,
    };
    let mut min = MIN_BID;
    if let Some(c) = s.commitment {
        if c.team == team_of(seat, s.table()) {
            // The partner's bid if made, else the most he could still bid.
            let other = partner_bid.unwrap_or(match s.rules.team_bid_cap {
                Some(cap) => cap.saturating_sub(MIN_BID),
                None => 13,
            });
            min = min.max(c.required.saturating_sub(other));
        }
    }
    (min, max)
}

fn bid(cx: &mut Cx, seat: SeatIndex, n: u8) -> Result<(), Violation> {
    if n < MIN_BID {
        return Err(v(
            Rule::BidBelowMinimum,
            "§7.3",
            format!("a bid is at least {MIN_BID} tricks, not {n}"),
        ));
    }
    let (min, max) = bid_range(&cx.s, seat);
    if n > max {
        return Err(v(
            Rule::BidAboveMaximum,
            "§7.4",
            format!("{seat} may bid at most {max} (a team's bids total at most 13), not {n}"),
        ));
    }
    if n < min {
        return Err(v(
            Rule::BuyerCommitmentNotMet,
            "§8.6",
            format!(
                "the buyers must bid {} together: {seat} must bid at least {min}",
                cx.s.commitment.map(|c| c.required).unwrap_or(0)
            ),
        ));
    }
    cx.emit(Effect::BidMade { seat, n });
    if cx.s.next_bidder().is_none() {
        contracts(cx);
    }
    Ok(())
}

/// `Req(S)` of the window that would open now for the lower team, if one opens (§8.1–§8.4).
pub(super) fn window(s: &State) -> Option<(u8, u8)> {
    if s.rules.buying != super::rules::Buying::On {
        return None;
    }
    if let MaxBuys::AtMost(m) = s.rules.max_buys_per_hand {
        if s.buys >= m {
            return None;
        }
    }
    let [a, b] = s.contracts?;
    let (buyer, seller) = match a.cmp(&b) {
        std::cmp::Ordering::Less => (0u8, b),
        std::cmp::Ordering::Greater => (1u8, a),
        std::cmp::Ordering::Equal => return None,
    };
    s.rules.required(seller).map(|req| (buyer, req))
}

/// The bidding round is complete: the contracts, then a buy window or the play.
fn contracts(cx: &mut Cx) {
    let mut c = [0u8; 2];
    for seat in identity() {
        let t = usize::from(team_of(seat, cx.s.table()));
        let b = cx.s.bids.get(seat.index()).copied().flatten().unwrap_or(0);
        if let Some(x) = c.get_mut(t) {
            *x = x.saturating_add(b);
        }
    }
    cx.emit(Effect::ContractsSet {
        team0: c[0],
        team1: c[1],
    });
    match window(&cx.s) {
        Some((team, required)) => {
            cx.emit(Effect::BuyOffered { team, required });
            cx.phase(Phase::BuyWindow { team });
        }
        None => cx.phase(Phase::Playing),
    }
}

// ---------------------------------------------------------------------------------------
// Tricks, scoring and the match (§9–§11).

fn play(cx: &mut Cx, seat: SeatIndex, card: CardRef, face: Card) {
    cx.emit(Effect::Played {
        seat,
        card: Shown { card, face },
    });
    let trick = cx.s.trick_no();
    if face == BJ && cx.s.rules.cj_release == CjRelease::SameTrick && !cx.s.cj_released {
        cx.emit(Effect::JokerReleased { trick });
    }
    if cx.s.zones.len(ZoneId::Trick) < usize::from(SEATS) {
        return;
    }
    let faces = cx.s.zones.faces(ZoneId::Trick);
    let i = trick_winner(&faces);
    let winner = plus(cx.s.leader, u8::try_from(i).unwrap_or(0), cx.s.table());
    cx.emit(Effect::TrickWon {
        index: trick,
        seat: winner,
    });
    if faces.contains(&BJ) && !cx.s.cj_released && trick < TRICKS {
        cx.emit(Effect::JokerReleased {
            trick: trick.saturating_add(1),
        });
    }
    if cx.s.tricks_played() >= TRICKS {
        finish(cx);
    }
}

/// A team's hand score (§10): made, `10C + (t − C)`; failed, `−10C`.
pub fn hand_score(contract: u8, tricks: u8) -> i64 {
    let c = i64::from(contract);
    let t = i64::from(tricks);
    if t >= c {
        10 * c + (t - c)
    } else {
        -10 * c
    }
}

/// The team that wins the match on `scores` against `target` (§11.2): the only team at or
/// above it, or the higher of two; none on equality.
pub fn match_winner(scores: &[i64], target: u32) -> Option<u8> {
    let t = i64::from(target);
    let a = scores.first().copied().unwrap_or(0);
    let b = scores.get(1).copied().unwrap_or(0);
    match (a >= t, b >= t) {
        (true, false) => Some(0),
        (false, true) => Some(1),
        (true, true) if a > b => Some(0),
        (true, true) if b > a => Some(1),
        _ => None,
    }
}

/// The next dealer (§5.3): the deal passes to the dealer's right when his team is strictly
/// ahead on `scores`; otherwise (behind or level) he deals again (G6).
pub fn next_dealer(dealer: SeatIndex, scores: &[i64], t: &[SeatIndex]) -> SeatIndex {
    let mine = usize::from(team_of(dealer, t));
    let ahead = scores.get(mine) > scores.get(1 - mine);
    tricks::rotate_by_result(dealer, !ahead, t)
}

/// Score both teams, end the match or pass the deal (§5.3, §10, §11).
fn finish(cx: &mut Cx) {
    let contracts = cx.s.contracts.unwrap_or([0, 0]);
    let tricks = cx.s.team_tricks();
    for team in 0..2u8 {
        let c = contracts.get(usize::from(team)).copied().unwrap_or(0);
        let t = tricks.get(usize::from(team)).copied().unwrap_or(0);
        let points = if cx.s.failed_by_penalty.contains(&team) {
            -10 * i64::from(c)
        } else {
            hand_score(c, t)
        };
        cx.emit(Effect::HandScored {
            team,
            contract: c,
            tricks: t,
            points,
        });
    }
    if let Some(team) = match_winner(&cx.s.now.scores, cx.s.rules.target_score) {
        cx.emit(Effect::MatchWon { team });
    } else {
        let d = cx.dealer();
        let next = next_dealer(d, &cx.s.now.scores, cx.s.table());
        if next == d {
            cx.emit(Effect::DealerStays { seat: d });
        } else {
            cx.emit(Effect::DealerPassed { from: d, to: next });
        }
    }
    cx.phase(Phase::HandOver);
}

/// The cheating penalty during a hand (§12.3): `award_points` to the catching team (which
/// may end the match, §11), or the offending team's hand fails.
fn penalty(
    cx: &mut Cx,
    offender: SeatIndex,
    beneficiary: Option<SeatIndex>,
) -> Result<(), Violation> {
    let s = &cx.s;
    if offender.0 >= SEATS {
        return Err(v(
            Rule::BadPenalty,
            "§12.3",
            "the offender is not one of the 4 seats",
        ));
    }
    let off = team_of(offender, s.table());
    if beneficiary.is_some_and(|b| b.0 >= SEATS || team_of(b, s.table()) == off) {
        return Err(v(
            Rule::BadPenalty,
            "§12.3",
            "the beneficiary must be a seat of the other team",
        ));
    }
    let team = 1 - off;
    match s.rules.cheating_penalty {
        CheatingPenalty::None => {
            return Err(v(
                Rule::NoPenalty,
                "§12.3",
                "this table plays no cheating penalty",
            ))
        }
        CheatingPenalty::AwardPoints(points) => {
            cx.emit(Effect::PenaltyAwarded {
                offender,
                team,
                points,
                fails: false,
            });
            if let Some(w) = match_winner(&cx.s.now.scores, cx.s.rules.target_score) {
                cx.emit(Effect::MatchWon { team: w });
                cx.phase(Phase::HandOver);
            }
        }
        CheatingPenalty::OffenderFails => cx.emit(Effect::PenaltyAwarded {
            offender,
            team,
            points: 0,
            fails: true,
        }),
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// Actions.

/// Check `action` by `actor` (see [`crate::engine::Game::decide`]).
pub(super) fn decide(s: &State, actor: Actor, action: &Action) -> Result<Vec<Effect>, Violation> {
    let what = name(action);
    if s.now.over {
        return Err(v(Rule::MatchOver, "§11.5", "the match is over"));
    }
    if matches!(s.phase, Phase::AwaitShuffle { .. } | Phase::HandOver) {
        return Err(wrong_phase(what, s.phase));
    }
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
            penalty(&mut cx, *offender, *beneficiary)?;
        }
        Action::Cut { k } => {
            if s.phase != Phase::AwaitingCut {
                return Err(wrong_phase(what, s.phase));
            }
            let seat = need_seat(
                actor,
                s.dealer.map(|d| cutter(d, s.table())),
                "the dealer's left",
            )?;
            if *k == 0 || *k >= s.deck_len {
                return Err(v(
                    Rule::InvalidCut,
                    "§5.2",
                    format!(
                        "a cut moves 1 to {} cards, not {k}",
                        s.deck_len.saturating_sub(1)
                    ),
                ));
            }
            cx.emit(Effect::CutApplied { seat, k: *k });
            deal(&mut cx);
        }
        Action::Bid { n } => {
            if s.phase != Phase::Bidding {
                return Err(wrong_phase(what, s.phase));
            }
            let seat = need_seat(actor, s.next_bidder(), "the next bidder")?;
            bid(&mut cx, seat, *n)?;
        }
        Action::Buy | Action::DeclineBuy => {
            let Phase::BuyWindow { team } = s.phase else {
                return Err(v(
                    Rule::BuyNotAvailable,
                    "§8",
                    "no purchase is open: only after a bidding round, to the lower team",
                ));
            };
            let seat = need_seat(actor, s.next_buy_decider(), "the buyer team's next member")?;
            if *action == Action::Buy {
                let Some((_, required)) = window(s).filter(|w| w.0 == team) else {
                    return Err(v(Rule::BuyNotAvailable, "§8.3", "no purchase is possible"));
                };
                cx.emit(Effect::BuyDeclared { seat, required });
                cx.emit(Effect::HandsSwapped);
                cx.phase(Phase::Bidding);
            } else {
                cx.emit(Effect::BuyDeclined { seat });
                if cx.s.next_buy_decider().is_none() {
                    cx.phase(Phase::Playing);
                }
            }
        }
        Action::Play { card } => {
            if s.phase != Phase::Playing {
                return Err(wrong_phase(what, s.phase));
            }
            let seat = need_seat(actor, Some(s.to_play()), "the seat to play")?;
            let Some(face) = s.zones.face_in(ZoneId::Hand(seat), *card) else {
                return Err(v(
                    Rule::CardNotInHand,
                    "§9",
                    format!("that card is not in the hand of {seat}"),
                ));
            };
            if let Some(refusal) = play_refusal(s, seat, *card, face) {
                return Err(refusal);
            }
            play(&mut cx, seat, *card, face);
        }
    }
    Ok(cx.out)
}

/// The seat the phase waits for, if any.
pub(super) fn main_actor(s: &State) -> Option<SeatIndex> {
    match s.phase {
        Phase::AwaitShuffle { .. } | Phase::HandOver => None,
        Phase::AwaitingCut => s.dealer.map(|d| cutter(d, s.table())),
        Phase::Bidding => s.next_bidder(),
        Phase::BuyWindow { .. } => s.next_buy_decider(),
        Phase::Playing => Some(s.to_play()),
    }
}
