//! Every rule: checking actions (spec §5.2–§5.6) and committed shuffles (§4, the relabel).
//!
//! `decide` never touches the caller's state: it works on a clone, emits effects one by one
//! and folds each into the clone with `evolve`, so later steps see the state as it stands
//! after every fact, and returns the effects.

use super::action::Action;
use super::effect::{Effect, Revealed, ShuffleReason};
use super::evolve::evolve;
use super::rules::{FailedChallengeLiability, FollowCount, LeaderAfterChallenge, NewRankAfterLap};
use super::state::{right, LeadReason, Phase, PlayRecord, State, PILE};
use super::violation::Rule;
use crate::cards::{Card, Rank};
use crate::engine::{Actor, CardRef, SeatIndex, Violation};
use crate::zones::ZoneId;

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

    /// The window on the last play closes without a caught bluff: a pending out is
    /// confirmed (§5.5 `confirm_pending_out`).
    fn confirm_pending_out(&mut self) {
        if let Some(p) = self.s.pending_out {
            let place = u32::try_from(self.s.out_order.len())
                .unwrap_or(u32::MAX)
                .saturating_add(1);
            self.emit(Effect::WentOut { seat: p, place });
        }
    }

    /// The hand ends once exactly one seat holds cards and no out is pending (§5.6).
    fn end_if_over(&mut self) -> bool {
        if self.s.pending_out.is_some() {
            return false;
        }
        let holders = self.s.holders();
        match holders.as_slice() {
            [thief] => {
                let mut order = self.s.out_order.clone();
                order.push(*thief);
                self.emit(Effect::HandEnded {
                    thief: *thief,
                    order,
                });
                true
            }
            _ => false,
        }
    }

    /// After `seat` placed cards (or passed): a pending out, the turn to the next seat
    /// holding cards, and the lap check (§5.3 A1 steps 4–6).
    fn pass_turn(&mut self, seat: SeatIndex) {
        if self.s.held(seat) == 0 {
            self.emit(Effect::OutPending { seat });
        }
        if let Some(next) = self.s.next_active(seat) {
            self.emit(Effect::Turn { seat: next });
            if self.s.played_this_round.contains(&next) {
                if let Some(rank) = self.s.round_rank {
                    self.emit(Effect::RoundLapped { rank });
                }
            }
        }
    }
}

fn name(a: &Action) -> &'static str {
    match a {
        Action::Lead { .. } => "Lead",
        Action::Follow { .. } => "Follow",
        Action::Pass => "Pass",
        Action::Challenge => "Challenge",
        Action::NoChallenge => "NoChallenge",
        Action::RequestChallenge => "RequestChallenge",
    }
}

fn seat_of(s: &State, actor: Actor) -> Result<SeatIndex, Violation> {
    match actor {
        Actor::Seat(x) if x.0 < s.seats => Ok(x),
        other => {
            Err(Rule::NotASeat.violation(format!("{other} is not one of the {} seats", s.seats)))
        }
    }
}

fn need_turn(s: &State, seat: SeatIndex, what: &str) -> Result<(), Violation> {
    if seat == s.turn {
        Ok(())
    } else {
        Err(Rule::NotYourTurn
            .violation(format!("{what}: it is the turn of {}, not {seat}", s.turn)))
    }
}

/// Lead, follow and pass are not allowed in the two-player finish (§5.6).
fn need_not_final(s: &State, what: &str) -> Result<(), Violation> {
    if s.final_window() {
        Err(Rule::MustAnswer.violation(format!(
            "{what}: the other player emptied his hand; only Challenge or NoChallenge now"
        )))
    } else {
        Ok(())
    }
}

/// The cards of a play: at least one, distinct, in `seat`'s hand, at most the cap.
fn check_cards(s: &State, seat: SeatIndex, cards: &[CardRef]) -> Result<(), Violation> {
    if cards.is_empty() {
        return Err(Rule::NoCards.violation("a play places at least one card"));
    }
    for (i, c) in cards.iter().enumerate() {
        if cards.iter().skip(i + 1).any(|d| d == c) {
            return Err(Rule::DuplicateCard
                .violation(format!("card ({}, {}) is named twice", c.shuffle, c.pos)));
        }
        if s.zones.get(ZoneId::Hand(seat), *c).is_none() {
            return Err(Rule::NotInHand.violation(format!(
                "card ({}, {}) is not in the hand of {seat}",
                c.shuffle, c.pos
            )));
        }
    }
    let cap = s.cap(seat);
    if cards.len() > cap {
        return Err(Rule::TooManyCards.violation(format!(
            "{} cards in one play; at most {cap} here",
            cards.len()
        )));
    }
    Ok(())
}

fn count_of(cards: &[CardRef]) -> u32 {
    u32::try_from(cards.len()).unwrap_or(u32::MAX)
}

/// Check `action` by `actor` (see [`crate::engine::Game::decide`]).
pub(super) fn decide(s: &State, actor: Actor, action: &Action) -> Result<Vec<Effect>, Violation> {
    let what = name(action);
    match s.phase {
        Phase::Play => {}
        Phase::Deal | Phase::Relabel { .. } => {
            return Err(Rule::WrongPhase.violation(format!(
                "{what} is not allowed while a committed shuffle is pending"
            )))
        }
        Phase::Over => {
            return Err(Rule::WrongPhase.violation(format!("{what}: the hand is over")));
        }
    }
    let seat = seat_of(s, actor)?;
    let mut cx = Cx::new(s);
    match action {
        Action::Lead { rank, cards } => {
            need_turn(s, seat, what)?;
            need_not_final(s, what)?;
            if s.round_rank.is_some() {
                return Err(Rule::MustFollow.violation(
                    "the round's rank stands: follow it (or challenge first)".to_string(),
                ));
            }
            check_cards(s, seat, cards)?;
            if s.lead_reason == LeadReason::AfterLap
                && s.rules.new_rank_after_lap == NewRankAfterLap::MustDiffer
                && s.ended_round_rank == Some(*rank)
            {
                return Err(Rule::SameRankAfterLap.violation(format!(
                    "the round of {} lapped: lead another rank",
                    rank.code()
                )));
            }
            cx.confirm_pending_out();
            play(&mut cx, seat, true, *rank, cards);
        }
        Action::Follow { cards } => {
            need_turn(s, seat, what)?;
            need_not_final(s, what)?;
            let Some(rank) = s.round_rank else {
                return Err(Rule::MustLead.violation("no round's rank stands: lead".to_string()));
            };
            check_cards(s, seat, cards)?;
            if s.rules.follow_count == FollowCount::SameAsLead {
                let want = usize::try_from(s.lead_count)
                    .unwrap_or(usize::MAX)
                    .min(s.held(seat));
                if cards.len() != want {
                    return Err(Rule::WrongCount.violation(format!(
                        "follow with {want} cards, as many as the lead (or all), not {}",
                        cards.len()
                    )));
                }
            }
            cx.confirm_pending_out();
            play(&mut cx, seat, false, rank, cards);
        }
        Action::Pass => {
            if !s.rules.allow_pass {
                return Err(Rule::PassNotAllowed
                    .violation("a player must place cards (000 «ملزم»)".to_string()));
            }
            need_turn(s, seat, what)?;
            need_not_final(s, what)?;
            if s.round_rank.is_none() {
                return Err(Rule::MustLead.violation("a lead cannot be passed".to_string()));
            }
            cx.confirm_pending_out();
            cx.emit(Effect::Passed { seat });
            cx.pass_turn(seat);
        }
        Action::Challenge => {
            let Some(last) = s.last_play().cloned() else {
                return Err(Rule::NoWindow.violation("no play is open to a challenge"));
            };
            if seat != s.turn {
                return Err(Rule::NotNextPlayer.violation(format!(
                    "only the next player, {}, may challenge; ask him (RequestChallenge)",
                    s.turn
                )));
            }
            if last.seat == seat {
                return Err(Rule::OwnPlay.violation("a seat cannot challenge its own play"));
            }
            challenge(&mut cx, seat, &last);
        }
        Action::NoChallenge => {
            if s.last_play().is_none() {
                return Err(Rule::NoWindow.violation("no play is open to a challenge"));
            }
            need_turn(s, seat, what)?;
            cx.emit(Effect::NotChallenged { seat });
            cx.confirm_pending_out();
            cx.end_if_over();
        }
        Action::RequestChallenge => {
            let Some(last) = s.last_play() else {
                return Err(Rule::NoWindow.violation("no play is open to a challenge"));
            };
            if seat == s.turn || seat == last.seat || s.held(seat) == 0 {
                return Err(Rule::CannotRequest.violation(format!(
                    "{seat} may not ask for a challenge: the player, the next player and seats \
                     without cards may not"
                )));
            }
            if s.requests.contains(&seat) {
                return Err(Rule::AlreadyRequested
                    .violation(format!("{seat} already asked for a challenge of this play")));
            }
            cx.emit(Effect::ChallengeRequested { by: seat });
        }
    }
    Ok(cx.out)
}

/// A1/A2 effects: the cards to the pile, then the turn.
fn play(cx: &mut Cx, seat: SeatIndex, lead: bool, rank: Rank, cards: &[CardRef]) {
    cx.emit(Effect::Played {
        seat,
        lead,
        rank,
        count: count_of(cards),
        cards: cards.to_vec(),
    });
    cx.pass_turn(seat);
}

/// §5.4: turn `last` over, decide who takes the pile, and who leads.
fn challenge(cx: &mut Cx, challenger: SeatIndex, last: &PlayRecord) {
    let cards: Vec<Revealed> = last
        .cards
        .iter()
        .filter_map(|r| {
            cx.s.zones
                .face_in(PILE, *r)
                .map(|face| Revealed { card: *r, face })
        })
        .collect();
    let truthful = cards.iter().all(|c| c.face.rank() == Some(last.rank));
    let taker = if !truthful {
        last.seat
    } else {
        match (cx.s.rules.failed_challenge_liability, cx.s.requests.first()) {
            (FailedChallengeLiability::Requester, Some(r)) => *r,
            _ => challenger,
        }
    };
    let pile = u32::try_from(cx.s.zones.len(PILE)).unwrap_or(u32::MAX);
    cx.emit(Effect::Challenged {
        challenger,
        seat: last.seat,
        rank: last.rank,
        cards,
        truthful,
        taker,
    });
    cx.emit(Effect::PileTaken {
        seat: taker,
        cards: pile,
    });
    if cx.s.pending_out == Some(last.seat) {
        if truthful {
            cx.confirm_pending_out();
        } else {
            cx.emit(Effect::BackIn { seat: last.seat });
        }
    }
    if cx.s.holders().len() > 1 {
        let designated = match cx.s.rules.leader_after_challenge {
            LeaderAfterChallenge::Challenger => challenger,
            LeaderAfterChallenge::PileTaker => taker,
            LeaderAfterChallenge::ChallengeWinner => {
                if truthful {
                    last.seat
                } else {
                    challenger
                }
            }
        };
        let leader = if cx.s.held(designated) > 0 {
            Some(designated)
        } else {
            cx.s.next_active(designated)
        };
        if let Some(leader) = leader {
            cx.emit(Effect::Turn { seat: leader });
        }
    }
    cx.emit(Effect::Phase {
        phase: Phase::Relabel { seat: taker },
    });
}

fn bad_shuffle(detail: String) -> Violation {
    Rule::BadShuffle.violation(detail)
}

/// Check a committed shuffle (see [`crate::engine::Game::decide_shuffle`]).
pub(super) fn decide_shuffle(
    s: &State,
    shuffle: u32,
    order: &[Card],
) -> Result<Vec<Effect>, Violation> {
    let Some(request) = s.shuffle_request() else {
        return Err(Rule::WrongPhase.violation("no committed shuffle is pending"));
    };
    if shuffle != s.shuffles {
        return Err(bad_shuffle(format!(
            "this is shuffle number {} of the hand, not {shuffle}",
            s.shuffles
        )));
    }
    // Both sorted: the two-pack deck's canonical order is the 52-card order twice.
    let mut got = order.to_vec();
    crate::cards::canonical_sort(&mut got);
    let mut want = request.cards;
    crate::cards::canonical_sort(&mut want);
    if got != want {
        return Err(bad_shuffle(format!(
            "a {} shuffle must be a permutation of the {} cards asked for ({} given)",
            request.reason,
            want.len(),
            order.len()
        )));
    }
    let mut cx = Cx::new(s);
    let cards = count_of_cards(order);
    match s.phase {
        Phase::Relabel { seat } => {
            let e = Effect::Relabelled {
                seat,
                shuffle,
                cards,
            };
            evolve(&mut cx.s, &e, Some(order));
            cx.out.push(e);
            cx.end_if_over();
        }
        _ => {
            let e = Effect::Shuffled {
                shuffle,
                reason: ShuffleReason::Deal,
                cards,
            };
            evolve(&mut cx.s, &e, Some(order));
            cx.out.push(e);
            deal(&mut cx);
        }
    }
    Ok(cx.out)
}

fn count_of_cards(order: &[Card]) -> u32 {
    u32::try_from(order.len()).unwrap_or(u32::MAX)
}

/// §4: all cards one at a time from `dealer + 1`, to the right; with 6 players and
/// `set_aside_remainder`, the last 2 stock cards are set aside.
fn deal(cx: &mut Cx) {
    let n = usize::from(cx.s.seats);
    let stock = cx.s.zones.refs_in(ZoneId::Stock);
    let rem = match cx.s.rules.uneven_deal {
        super::rules::UnevenDeal::DealAll => 0,
        super::rules::UnevenDeal::SetAsideRemainder => stock.len() % n.max(1),
    };
    let dealt = stock.len().saturating_sub(rem);
    let mut hands: Vec<Vec<CardRef>> = vec![Vec::new(); n];
    for (i, r) in stock.iter().take(dealt).enumerate() {
        if let Some(h) = hands.get_mut(i % n.max(1)) {
            h.push(*r);
        }
    }
    let mut seat = cx.s.dealer;
    for cards in hands {
        seat = right(seat, cx.s.seats);
        cx.emit(Effect::Dealt { seat, cards });
    }
    if rem > 0 {
        cx.emit(Effect::SetAside {
            cards: stock.iter().skip(dealt).copied().collect(),
        });
    }
    let starter = right(cx.s.dealer, cx.s.seats);
    cx.emit(Effect::PlayStarted { starter });
}
