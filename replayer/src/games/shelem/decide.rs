//! Every rule: checking actions and the shuffle, and the automatic steps (the deal, the end
//! of the auction, the widow, trick winners, the count, scoring, the sheet and the match).
//!
//! `decide` never touches the caller's state: it works on a clone, emits effects one by one
//! and folds each into the clone with `evolve`, so the automatic steps chain on the state as
//! it stands after every fact, and returns the effects.

use std::fmt;

use super::action::Action;
use super::effect::Effect;
use super::evolve::evolve;
use super::rules::{AllPass, Cut, MadeScore, MatchEnd, Scoring, ShelemScore};
use super::state::{
    pile_zone, points, team, HandKind, Phase, Row, State, BID_STEP, HAND_POINTS, MAX_BID, MIN_BID,
    TRICKS, WIDOW,
};
use crate::cards::Card;
use crate::engine::{Actor, CardRef, SeatIndex, Violation};
use crate::games::tricks::{self, Shown, SuitCode};
use crate::zones::ZoneId;

/// The rules an action or a shuffle can break (spec §15, "Violations"), with stable string
/// forms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// Not allowed in the current phase.
    WrongPhase,
    /// Another seat must act.
    NotYourTurn,
    /// The match is over (§11).
    MatchOver,
    /// A committed deck that is not the 52 cards, or not the one asked for (§5.3).
    InvalidDeck,
    /// A cut outside `1 ≤ k ≤ 51` (§14 `cut`).
    InvalidCut,
    /// A bid below 100 (§6.2.2).
    BidBelowMinimum,
    /// A bid that is not a multiple of 5 (§6.2.1).
    BidNotMultipleOf5,
    /// A bid above 165 (§6.2.3).
    BidAboveMaximum,
    /// A bid not above the high bid (§6.2.4).
    BidNotHigher,
    /// `last_seat_must_bid`: the last seat may not pass (§6.5).
    PassNotAllowed,
    /// Not exactly 4 cards laid away (§7.2).
    DiscardCount,
    /// A card named twice among those laid away (§7.2).
    DiscardDuplicate,
    /// A card laid away that is not among the hakem's 16 (§7.2).
    DiscardNotHeld,
    /// The card is not in the player's hand (§8).
    CardNotHeld,
    /// A card off the led suit while holding it: a renege (§8.2; 2 players §13.5).
    MustFollowSuit,
    /// 2 players: not a face-up top of one of the player's own piles, or the wrong source
    /// for the position (§13.5).
    CardNotAvailable,
}

impl Rule {
    /// The stable identifier.
    pub fn as_str(self) -> &'static str {
        match self {
            Rule::WrongPhase => "WrongPhase",
            Rule::NotYourTurn => "NotYourTurn",
            Rule::MatchOver => "MatchOver",
            Rule::InvalidDeck => "InvalidDeck",
            Rule::InvalidCut => "InvalidCut",
            Rule::BidBelowMinimum => "BidBelowMinimum",
            Rule::BidNotMultipleOf5 => "BidNotMultipleOf5",
            Rule::BidAboveMaximum => "BidAboveMaximum",
            Rule::BidNotHigher => "BidNotHigher",
            Rule::PassNotAllowed => "PassNotAllowed",
            Rule::DiscardCount => "DiscardCount",
            Rule::DiscardDuplicate => "DiscardDuplicate",
            Rule::DiscardNotHeld => "DiscardNotHeld",
            Rule::CardNotHeld => "CardNotHeld",
            Rule::MustFollowSuit => "MustFollowSuit",
            Rule::CardNotAvailable => "CardNotAvailable",
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

pub(super) fn v(rule: Rule, section: &str, detail: impl Into<String>) -> Violation {
    Violation::new(rule.as_str(), format!("shelem {section}"), detail)
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
}

fn name(a: &Action) -> &'static str {
    match a {
        Action::Cut { .. } => "Cut",
        Action::Bid { .. } => "Bid",
        Action::Pass => "Pass",
        Action::LayAway { .. } => "LayAway",
        Action::Play { .. } => "Play",
    }
}

fn wrong_phase(what: &str, phase: Phase) -> Violation {
    v(
        Rule::WrongPhase,
        "§15",
        format!("{what} is not allowed in phase {}", phase.name()),
    )
}

fn need_seat(actor: Actor, who: SeatIndex, role: &str) -> Result<(), Violation> {
    if actor == Actor::Seat(who) {
        Ok(())
    } else {
        Err(v(
            Rule::NotYourTurn,
            "§15",
            format!("only {role} ({who}) may do this now, not {actor}"),
        ))
    }
}

// ---------------------------------------------------------------------------------------
// Scoring (§10) and the match end (§11), as pure functions.

/// The score of a played hand (§10's algorithm): the hakem team's delta, how it ended, and
/// whether it wins the match outright (`shelem_score = wins_match`). `h` is the hakem
/// team's points, `b` the contract; the opponents always score `165 − h`.
pub fn score_hand(b: u32, h: u32, shelem: bool, sc: &Scoring) -> (i64, HandKind, bool) {
    let o = HAND_POINTS.saturating_sub(h);
    let (base, kind, wins) = if shelem {
        let base = match sc.shelem {
            ShelemScore::Fixed330 => 330,
            ShelemScore::Fixed165 | ShelemScore::WinsMatch => 165,
        };
        (base, HandKind::Shelem, sc.shelem == ShelemScore::WinsMatch)
    } else if h >= b {
        let base = match sc.made {
            MadeScore::PointsTaken => i64::from(h),
            MadeScore::Bid => i64::from(b),
        };
        (base, HandKind::Made, false)
    } else if sc.yasa && h < o {
        (-165, HandKind::Yasa, false)
    } else {
        (-i64::from(b), HandKind::Failed, false)
    };
    let mult = if b == MAX_BID {
        i64::from(sc.bid165)
    } else {
        1
    };
    let delta = if wins { 165 } else { base * mult };
    (delta, kind, wins)
}

/// The winner of the match after a scored hand, if it ends (§11.3): `totals` after the
/// hand, `hakem_team` the last hand's hakem team.
pub fn match_winner(totals: [i64; 2], target: u32, rule: MatchEnd, hakem_team: u8) -> Option<u8> {
    let t = i64::from(target);
    let reached = |x: usize| totals[x] >= t;
    match rule {
        MatchEnd::HigherTotalTieContinues => {
            if (reached(0) || reached(1)) && totals[0] != totals[1] {
                Some(if totals[0] > totals[1] { 0 } else { 1 })
            } else {
                None
            }
        }
        MatchEnd::HakemTeamFirst => {
            let h = usize::from(hakem_team.min(1));
            if reached(h) {
                Some(hakem_team.min(1))
            } else if reached(1 - h) {
                u8::try_from(1 - h).ok()
            } else {
                None
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// The shuffle and the deal.

/// Check the committed deck (see [`crate::engine::Game::decide_shuffle`]).
pub(super) fn decide_shuffle(
    s: &State,
    shuffle: u32,
    order: &[Card],
) -> Result<Vec<Effect>, Violation> {
    if s.phase != Phase::AwaitShuffle {
        return Err(v(Rule::InvalidDeck, "§5.3", "no deal is awaited"));
    }
    if shuffle != 0 {
        return Err(v(
            Rule::InvalidDeck,
            "§5.3",
            format!("shuffle {shuffle} given, shuffle 0 expected"),
        ));
    }
    let mut sorted = order.to_vec();
    sorted.sort();
    if sorted != s.shuffle_request().cards {
        return Err(v(
            Rule::InvalidDeck,
            "§5.3",
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
    if cx.s.rules.cut == Cut::LeftOfDealer {
        cx.phase(Phase::AwaitingCut);
    } else {
        deal(&mut cx);
    }
    Ok(cx.out)
}

/// The cutter: the player on the dealer's left.
pub(super) fn cutter(s: &State) -> SeatIndex {
    s.plus(s.dealer, s.n.saturating_sub(1))
}

/// The deal (§5.4, §13.2) from the top of the (cut) stock, then the auction.
fn deal(cx: &mut Cx) {
    for (p, zone, _) in cx.s.plan() {
        let k = usize::from(p.cards);
        let cards: Vec<CardRef> =
            cx.s.zones
                .cards(ZoneId::Stock)
                .iter()
                .take(k)
                .map(|x| x.r)
                .collect();
        let e = match zone {
            ZoneId::Hand(seat) => Effect::Dealt { seat, cards },
            ZoneId::Pile(0) => Effect::WidowLaid { cards },
            ZoneId::Pile(z) => Effect::PileLaid {
                seat: SeatIndex((z - 1) / 3),
                pile: (z - 1) % 3 + 1,
                cards,
            },
            _ => continue,
        };
        cx.emit(e);
    }
    let opener = cx.s.plus(cx.s.dealer, 1);
    cx.phase(Phase::Bidding { seat: opener });
}

// ---------------------------------------------------------------------------------------
// The auction (§6).

/// The next seat to bid after `seat`, skipping those who passed (`None`: nobody left).
fn next_bidder(s: &State, seat: SeatIndex) -> Option<SeatIndex> {
    (1..=s.n).map(|k| s.plus(seat, k)).find(|x| !s.passed(*x))
}

/// The lowest bid allowed now.
pub(super) fn min_bid(s: &State) -> u32 {
    s.high()
        .map_or(MIN_BID, |(_, b)| b.saturating_add(BID_STEP))
}

/// Whether `seat` may pass now (`last_seat_must_bid`, §6.5).
pub(super) fn may_pass(s: &State, seat: SeatIndex) -> bool {
    let others_passed = (0..s.n)
        .map(SeatIndex)
        .filter(|x| *x != seat && s.passed(*x))
        .count();
    !(s.rules.all_pass == AllPass::LastSeatMustBid
        && s.high().is_none()
        && others_passed + 1 == usize::from(s.n))
}

fn after_call(cx: &mut Cx, seat: SeatIndex) {
    let n = usize::from(cx.s.n);
    let passed = (0..cx.s.n).filter(|x| cx.s.passed(SeatIndex(*x))).count();
    match cx.s.high() {
        Some((hakem, contract)) if passed + 1 >= n => {
            cx.emit(Effect::AuctionWon { hakem, contract });
            let cards = cx.s.zones.refs_in(WIDOW);
            cx.emit(Effect::WidowTaken { seat: hakem, cards });
            cx.phase(Phase::Exchange { seat: hakem });
        }
        None if passed >= n => passed_out(cx),
        _ => match next_bidder(&cx.s, seat) {
            Some(next) => cx.phase(Phase::Bidding { seat: next }),
            None => passed_out(cx),
        },
    }
}

/// Every player passed (§6.5, D8, D23): a passed-out row; the deal moves on (or not).
fn passed_out(cx: &mut Cx) {
    cx.emit(Effect::PassedOut);
    let moves_on = cx.s.rules.all_pass != AllPass::RedealSameDealer;
    let row = Row {
        hand_no: cx.s.start.hand,
        dealer: cx.s.dealer,
        hakem: None,
        bid: None,
        h: None,
        o: None,
        outcome: HandKind::PassedOut,
        delta: [0, 0],
        total: cx.s.now.totals,
        rule_below: moves_on && cx.s.plus(cx.s.dealer, 1) == cx.s.now.first_dealer,
    };
    cx.emit(Effect::HandScored { row });
    let next = if moves_on {
        cx.s.plus(cx.s.dealer, 1)
    } else {
        cx.s.dealer
    };
    cx.emit(Effect::NextDealer { seat: next });
    cx.phase(Phase::HandOver);
}

// ---------------------------------------------------------------------------------------
// Play (§8, §13.5).

/// 2 players: the face-up tops of `seat`'s piles, with the pile of each.
pub(super) fn tops(s: &State, seat: SeatIndex) -> Vec<(u8, CardRef, Card)> {
    if !s.piles_open {
        return Vec::new();
    }
    (1..=3u8)
        .filter_map(|pile| {
            let z = pile_zone(seat, pile);
            let i = s.top_of(z)?;
            let p = s.zones.cards(z).get(i)?;
            p.seen.is_public().then_some((pile, p.r, p.face))
        })
        .collect()
}

/// The cards `seat` may play now: from the hand (following suit), or at a 2-player
/// table's positions 3–4 a face-up top of his own piles (following suit among them).
pub(super) fn playable(s: &State, seat: SeatIndex) -> Vec<CardRef> {
    let led = tricks::led_suit(&s.zones.faces(ZoneId::Trick));
    if s.from_pile() {
        let t = tops(s, seat);
        let follow: Vec<CardRef> = t
            .iter()
            .filter(|x| led.is_some() && x.2.suit() == led)
            .map(|x| x.1)
            .collect();
        if follow.is_empty() {
            t.iter().map(|x| x.1).collect()
        } else {
            follow
        }
    } else {
        tricks::follow_suit(s.zones.cards(ZoneId::Hand(seat)), led)
    }
}

fn play(cx: &mut Cx, seat: SeatIndex, card: CardRef, face: Card, pile: Option<u8>) {
    let first_lead = cx.s.trump.is_none() && cx.s.trick_seats.is_empty();
    if first_lead {
        if let Some(suit) = face.suit() {
            cx.emit(Effect::TrumpSet {
                suit: SuitCode(suit),
            });
        }
    }
    cx.emit(Effect::Played {
        seat,
        card: Shown { card, face },
        pile,
    });
    if cx.s.n == 2 {
        if let Some(p) = pile {
            turn_top(cx, seat, p);
        }
        if !cx.s.piles_open && cx.s.trick_seats.len() == 2 {
            // D26: after position 2 of trick 1, every pile's top is turned up.
            for i in 0..2u8 {
                let owner = cx.s.plus(cx.s.leader, i);
                for p in 1..=3u8 {
                    turn_top(cx, owner, p);
                }
            }
        }
    }
    if cx.s.trick_seats.len() < 4 {
        return;
    }
    let faces = cx.s.zones.faces(ZoneId::Trick);
    let i = tricks::trick_winner(&faces, cx.s.trump);
    let winner = cx.s.trick_seats.get(i).copied().unwrap_or(cx.s.leader);
    let index = cx.s.tricks_played().saturating_add(1);
    cx.emit(Effect::TrickWon {
        index,
        seat: winner,
        team: team(winner, cx.s.n),
    });
    if cx.s.tricks_played() >= TRICKS {
        count(cx);
    }
}

/// Turn the top of `seat`'s pile `pile` face up, if it has one still face down.
fn turn_top(cx: &mut Cx, seat: SeatIndex, pile: u8) {
    let z = pile_zone(seat, pile);
    let Some(i) = cx.s.top_of(z) else { return };
    let Some(p) = cx.s.zones.cards(z).get(i).copied() else {
        return;
    };
    if !p.seen.is_public() {
        cx.emit(Effect::PileTopTurned {
            seat,
            pile,
            card: Shown {
                card: p.r,
                face: p.face,
            },
        });
    }
}

/// The count (§9), the score (§10), the row (§12) and the match end (§11).
fn count(cx: &mut Cx) {
    let Some(hakem) = cx.s.hakem else { return };
    let b = cx.s.contract.unwrap_or(MIN_BID);
    let n = cx.s.n;
    let discards: Vec<Shown> =
        cx.s.zones
            .cards(ZoneId::Discard)
            .iter()
            .map(|p| Shown {
                card: p.r,
                face: p.face,
            })
            .collect();
    cx.emit(Effect::DiscardsRevealed {
        seat: hakem,
        cards: discards.clone(),
    });
    let ht = team(hakem, n);
    let mut pts = [0u32; 2];
    for i in 0..n {
        let seat = SeatIndex(i);
        let t = usize::from(team(seat, n));
        let sum: u32 =
            cx.s.zones
                .faces(ZoneId::Won(seat))
                .into_iter()
                .map(points)
                .sum();
        pts[t] = pts[t].saturating_add(sum);
    }
    let tricks = cx.s.team_tricks();
    let hi = usize::from(ht);
    let oi = 1 - hi;
    let h = 5 * (u32::from(tricks[hi]) + 1)
        + pts[hi]
        + discards.iter().map(|c| points(c.face)).sum::<u32>();
    let o = 5 * u32::from(tricks[oi]) + pts[oi];
    // §9: H + O = 165 always (the cards are conserved, checked at every event).
    let shelem = tricks[oi] == 0;
    let scoring = cx.s.rules.scoring();
    let (hd, kind, wins) = score_hand(b, h, shelem, &scoring);
    let mut delta = [0i64; 2];
    delta[hi] = hd;
    delta[oi] = i64::from(o);
    let totals = [
        cx.s.now.totals[0].saturating_add(delta[0]),
        cx.s.now.totals[1].saturating_add(delta[1]),
    ];
    let row = Row {
        hand_no: cx.s.start.hand,
        dealer: cx.s.dealer,
        hakem: Some(hakem),
        bid: Some(b),
        h: Some(h),
        o: Some(o),
        outcome: kind,
        delta,
        total: totals,
        rule_below: cx.s.plus(cx.s.dealer, 1) == cx.s.now.first_dealer,
    };
    cx.emit(Effect::HandScored { row });
    let winner = if wins {
        Some(ht)
    } else {
        match_winner(totals, cx.s.rules.target, cx.s.rules.match_end, ht)
    };
    match winner {
        Some(t) => cx.emit(Effect::MatchWon { team: t }),
        None => {
            let next = cx.s.plus(cx.s.dealer, 1);
            cx.emit(Effect::NextDealer { seat: next });
        }
    }
    cx.phase(Phase::HandOver);
}

// ---------------------------------------------------------------------------------------
// Actions.

/// Check `action` by `actor` (see [`crate::engine::Game::decide`]).
pub(super) fn decide(s: &State, actor: Actor, action: &Action) -> Result<Vec<Effect>, Violation> {
    let what = name(action);
    if s.now.over {
        return Err(v(Rule::MatchOver, "§11", "the match is over"));
    }
    if matches!(s.phase, Phase::AwaitShuffle | Phase::HandOver) {
        return Err(wrong_phase(what, s.phase));
    }
    let mut cx = Cx::new(s);
    match action {
        Action::Cut { k } => {
            if s.phase != Phase::AwaitingCut {
                return Err(wrong_phase(what, s.phase));
            }
            need_seat(actor, cutter(s), "the dealer's left")?;
            if *k == 0 || *k >= 52 {
                return Err(v(
                    Rule::InvalidCut,
                    "§14",
                    format!("a cut must move 1 to 51 cards, not {k}"),
                ));
            }
            cx.emit(Effect::CutApplied {
                seat: cutter(s),
                k: *k,
            });
            deal(&mut cx);
        }
        Action::Bid { amount } => {
            let Phase::Bidding { seat } = s.phase else {
                return Err(wrong_phase(what, s.phase));
            };
            need_seat(actor, seat, "the seat to bid")?;
            let b = *amount;
            if b < MIN_BID {
                return Err(v(
                    Rule::BidBelowMinimum,
                    "§6.2",
                    format!("a bid is at least {MIN_BID}, not {b}"),
                ));
            }
            if b > MAX_BID {
                return Err(v(
                    Rule::BidAboveMaximum,
                    "§6.2",
                    format!("a bid is at most {MAX_BID}, not {b}"),
                ));
            }
            if b % BID_STEP != 0 {
                return Err(v(
                    Rule::BidNotMultipleOf5,
                    "§6.2",
                    format!("a bid is a multiple of 5, not {b}"),
                ));
            }
            if let Some((_, high)) = s.high() {
                if b <= high {
                    return Err(v(
                        Rule::BidNotHigher,
                        "§6.2",
                        format!("a bid must be above the high bid {high}, not {b}"),
                    ));
                }
            }
            cx.emit(Effect::BidMade { seat, amount: b });
            after_call(&mut cx, seat);
        }
        Action::Pass => {
            let Phase::Bidding { seat } = s.phase else {
                return Err(wrong_phase(what, s.phase));
            };
            need_seat(actor, seat, "the seat to bid")?;
            if !may_pass(s, seat) {
                return Err(v(
                    Rule::PassNotAllowed,
                    "§6.5",
                    "every other player has passed with no bid: the last must bid",
                ));
            }
            cx.emit(Effect::Passed { seat });
            after_call(&mut cx, seat);
        }
        Action::LayAway { cards } => {
            let Phase::Exchange { seat } = s.phase else {
                return Err(wrong_phase(what, s.phase));
            };
            need_seat(actor, seat, "the hakem")?;
            if cards.len() != 4 {
                return Err(v(
                    Rule::DiscardCount,
                    "§7.2",
                    format!("the hakem lays away exactly 4 cards, not {}", cards.len()),
                ));
            }
            if cards
                .iter()
                .enumerate()
                .any(|(i, a)| cards.iter().skip(i.saturating_add(1)).any(|b| a == b))
            {
                return Err(v(Rule::DiscardDuplicate, "§7.2", "a card is named twice"));
            }
            if cards
                .iter()
                .any(|c| s.zones.get(ZoneId::Hand(seat), *c).is_none())
            {
                return Err(v(
                    Rule::DiscardNotHeld,
                    "§7.2",
                    "a card laid away is not among the hakem's 16",
                ));
            }
            cx.emit(Effect::LaidAway {
                seat,
                cards: cards.clone(),
            });
            cx.phase(Phase::Playing);
        }
        Action::Play { card } => {
            if s.phase != Phase::Playing {
                return Err(wrong_phase(what, s.phase));
            }
            let seat = s.to_play();
            need_seat(actor, seat, "the seat to play")?;
            if s.from_pile() {
                let Some((pile, _, face)) = tops(s, seat).into_iter().find(|x| x.1 == *card) else {
                    return Err(v(
                        Rule::CardNotAvailable,
                        "§13.5",
                        format!("{seat} plays a face-up top of his own piles now"),
                    ));
                };
                if !playable(s, seat).contains(card) {
                    return Err(v(
                        Rule::MustFollowSuit,
                        "§13.5",
                        format!("{seat} has a pile top of the led suit and must play it"),
                    ));
                }
                play(&mut cx, seat, *card, face, Some(pile));
            } else {
                let Some(face) = s.zones.face_in(ZoneId::Hand(seat), *card) else {
                    if s.n == 2 && tops(s, seat).iter().any(|x| x.1 == *card) {
                        return Err(v(
                            Rule::CardNotAvailable,
                            "§13.5",
                            format!("{seat} plays from his hand now, not from a pile"),
                        ));
                    }
                    return Err(v(
                        Rule::CardNotHeld,
                        "§8",
                        format!("that card is not in the hand of {seat}"),
                    ));
                };
                if !playable(s, seat).contains(card) {
                    return Err(v(
                        Rule::MustFollowSuit,
                        "§8.2",
                        format!("{seat} holds the led suit and must follow it"),
                    ));
                }
                play(&mut cx, seat, *card, face, None);
            }
        }
    }
    Ok(cx.out)
}
