//! Every rule: checking actions (spec §6.5) and the automatic steps A–G (§6.4).
//!
//! `decide` never touches the caller's state: it works on a clone, emits effects one by one
//! and folds each into the clone with `evolve`, so the automatic steps chain on the state as
//! it stands after every fact, and returns the effects.

use super::action::Action;
use super::effect::{Case, Effect, ShownCard};
use super::evolve::evolve;
use super::rules::{BankerSwap, DealMode, TieRule};
use super::state::{duel_zone, right, EndReason, Phase, Resume, ShuffleReason, State, STOCK};
use crate::cards::Card;
use crate::engine::{Actor, CardRef, SeatIndex, Toman, Violation};

const SEC_PHASES: &str = "bist-o-yek §6.3";
const SEC_ACTIONS: &str = "bist-o-yek §6.5";
const SEC_LIMITS: &str = "bist-o-yek §5.3";
const SEC_SIDE: &str = "bist-o-yek §5.5";
const SEC_KHABAR: &str = "bist-o-yek §5.6";
const SEC_SHUFFLE: &str = "bist-o-yek §6.2";

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

    /// Enter a resting phase (no effect if the hand is already in it).
    fn enter(&mut self, phase: Phase) {
        if self.s.phase != phase {
            self.emit(Effect::Phase { phase });
        }
    }

    /// The top of the stock, or `None` after asking for a restock that resumes at `resume`.
    fn top(&mut self, resume: Resume) -> Option<(CardRef, Card)> {
        match self.s.zones.cards(STOCK).first() {
            Some(p) => Some((p.r, p.face)),
            None => {
                self.ask_shuffle(ShuffleReason::Restock, resume);
                None
            }
        }
    }

    fn ask_shuffle(&mut self, reason: ShuffleReason, resume: Resume) {
        self.enter(Phase::AwaitShuffle { reason, resume });
    }

    /// The banker (only called once the bank is accepted; the candidate otherwise).
    fn banker(&self) -> SeatIndex {
        self.s.banker.unwrap_or(self.s.candidate)
    }
}

fn wrong_phase(what: &str, phase: Phase) -> Violation {
    Violation::new(
        "WrongPhase",
        SEC_PHASES,
        format!("{what} is not allowed in phase {}", phase.name()),
    )
}

fn need_phase(s: &State, want: &[Phase], what: &str) -> Result<(), Violation> {
    if want.contains(&s.phase) {
        Ok(())
    } else {
        Err(wrong_phase(what, s.phase))
    }
}

fn need_seat(s: &State, actor: Actor, who: Option<SeatIndex>, role: &str) -> Result<(), Violation> {
    match (actor, who) {
        (Actor::Seat(a), Some(w)) if a == w && a.0 < s.seats => Ok(()),
        _ => Err(Violation::new(
            "WrongActor",
            SEC_PHASES,
            format!("only {role} may do this now, not {actor}"),
        )),
    }
}

/// The duel player, who must be `actor`.
fn need_duel_player(s: &State, actor: Actor) -> Result<SeatIndex, Violation> {
    let p = s.duel_player();
    need_seat(s, actor, p, "the duel player")?;
    p.ok_or_else(|| wrong_phase("this", s.phase))
}

fn name(a: &Action) -> &'static str {
    match a {
        Action::AcceptBank => "AcceptBank",
        Action::DeclineBank => "DeclineBank",
        Action::AnnounceKhabar => "AnnounceKhabar",
        Action::Deal => "Deal",
        Action::Swap => "Swap",
        Action::Keep => "Keep",
        Action::Bet { .. } => "Bet",
        Action::SideBet { .. } => "SideBet",
        Action::Hit { .. } => "Hit",
        Action::Stand => "Stand",
        Action::DealFaceUp => "DealFaceUp",
        Action::DealFaceDown => "DealFaceDown",
        Action::AnnounceSuz => "AnnounceSuz",
        Action::BankerHit => "BankerHit",
        Action::BankerStand => "BankerStand",
        Action::EndMatch => "EndMatch",
    }
}

/// Check `action` by `actor` (see [`crate::engine::Game::decide`]).
pub(super) fn decide(s: &State, actor: Actor, action: &Action) -> Result<Vec<Effect>, Violation> {
    let what = name(action);
    if let Phase::AwaitShuffle { .. } = s.phase {
        return Err(Violation::new(
            "WrongPhase",
            SEC_PHASES,
            format!("{what} is not allowed while a committed shuffle is pending"),
        ));
    }
    let mut cx = Cx::new(s);
    match action {
        Action::AcceptBank => {
            need_phase(s, &[Phase::BankOffer], what)?;
            need_seat(s, actor, Some(s.candidate), "the bank candidate")?;
            let stake = s.rules.bank_stake;
            if s.bal(s.candidate) < stake {
                return Err(Violation::new(
                    "StakeUnaffordable",
                    SEC_ACTIONS,
                    format!(
                        "the bank stake is {stake}, more than the balance of {}",
                        s.candidate
                    ),
                ));
            }
            cx.emit(Effect::BankAccepted {
                banker: s.candidate,
                stake,
            });
            cx.ask_shuffle(ShuffleReason::NewTurn, Resume::RoundStart);
        }
        Action::DeclineBank => {
            need_phase(s, &[Phase::BankOffer], what)?;
            need_seat(s, actor, Some(s.candidate), "the bank candidate")?;
            let declines = s.declines.saturating_add(1);
            cx.emit(Effect::BankDeclined {
                seat: s.candidate,
                declines,
            });
            if declines >= s.seats {
                cx.emit(Effect::MatchEnded {
                    reason: EndReason::EveryoneDeclined,
                });
            } else {
                cx.emit(Effect::BankOffered {
                    candidate: right(s.candidate, s.seats),
                    declines,
                });
            }
        }
        Action::AnnounceKhabar => {
            need_phase(s, &[Phase::RoundStart], what)?;
            need_seat(s, actor, s.banker, "the banker")?;
            if s.khabar {
                return Err(Violation::new(
                    "KhabarAlreadyAnnounced",
                    SEC_KHABAR,
                    "bank khabar was already announced this turn",
                ));
            }
            let threshold = s.threshold();
            if s.bank < threshold {
                return Err(Violation::new(
                    "KhabarNotReached",
                    SEC_KHABAR,
                    format!("the bank holds {}, below the threshold {threshold}", s.bank),
                ));
            }
            cx.emit(Effect::KhabarAnnounced {
                banker: cx.banker(),
                bank: s.bank,
                threshold,
            });
            cx.ask_shuffle(ShuffleReason::Khabar, Resume::RoundStart);
        }
        Action::Deal => {
            need_phase(s, &[Phase::RoundStart], what)?;
            need_seat(s, actor, s.banker, "the banker")?;
            let (lo, _) = s.bet_limits();
            let queue: Vec<SeatIndex> = s
                .players_in_order()
                .into_iter()
                .filter(|p| s.bal(*p) >= lo)
                .collect();
            cx.emit(Effect::RoundDealt {
                round: s.round.saturating_add(1),
                queue,
            });
            dealing(&mut cx);
        }
        Action::Swap | Action::Keep => {
            need_phase(s, &[Phase::SwapDecision], what)?;
            need_seat(s, actor, s.banker, "the banker")?;
            if let Some(card) = s.hidden().map(|h| h.r) {
                if *action == Action::Swap {
                    cx.emit(Effect::Swapped { card });
                } else {
                    cx.emit(Effect::Kept { card });
                }
            }
            duel_opening(&mut cx);
        }
        Action::Bet { amount } => {
            need_phase(s, &[Phase::AwaitBet], what)?;
            let p = need_duel_player(s, actor)?;
            let amount = *amount;
            let (lo, hi) = s.bet_limits();
            if amount < lo {
                return Err(Violation::new(
                    "BetBelowMin",
                    SEC_LIMITS,
                    format!("the smallest bet now is {lo}, not {amount}"),
                ));
            }
            if amount > hi {
                return Err(Violation::new(
                    "BetAboveMax",
                    SEC_LIMITS,
                    format!("the largest bet now is {hi}, not {amount}"),
                ));
            }
            if amount > s.bal(p) {
                return Err(Violation::new(
                    "InsufficientFunds",
                    SEC_LIMITS,
                    format!("a bet of {amount} is more than the balance of {p}"),
                ));
            }
            cx.emit(Effect::BetPlaced { seat: p, amount });
            if s.rules.side_bets {
                cx.emit(Effect::SideBetsOpened);
            }
            cx.enter(Phase::PlayerTurn);
        }
        Action::SideBet { amount } => {
            need_phase(s, &[Phase::PlayerTurn], what)?;
            if !s.rules.side_bets {
                return Err(Violation::new(
                    "SideBetsOff",
                    SEC_SIDE,
                    "side bets are not played at this table",
                ));
            }
            let Some(duel) = s.duel.as_ref().filter(|d| d.side_open) else {
                return Err(Violation::new(
                    "WrongPhase",
                    SEC_SIDE,
                    "the side-bet window of this hand is closed",
                ));
            };
            let seat = match actor {
                Actor::Seat(x) if x.0 < s.seats => x,
                _ => {
                    return Err(Violation::new(
                        "WrongActor",
                        SEC_PHASES,
                        format!("only a seat at the table may side-bet, not {actor}"),
                    ))
                }
            };
            let p = duel.player;
            if Some(seat) == s.banker || seat == p || s.escrow.iter().any(|st| st.seat == seat) {
                return Err(Violation::new(
                    "SideBetNotAllowed",
                    SEC_SIDE,
                    format!(
                        "{seat} may not side-bet on this hand (the banker, the hand's owner and \
                         seats that already side-bet are excluded)"
                    ),
                ));
            }
            let amount = *amount;
            if amount < s.rules.min_bet {
                return Err(Violation::new(
                    "BetBelowMin",
                    SEC_SIDE,
                    format!("the smallest side bet is {}, not {amount}", s.rules.min_bet),
                ));
            }
            if let Some(x) = s.rules.stake_cap() {
                if amount > x {
                    return Err(Violation::new(
                        "BetAboveMax",
                        SEC_SIDE,
                        format!("the largest stake is {x}, not {amount}"),
                    ));
                }
            }
            if amount > s.bal(seat) {
                return Err(Violation::new(
                    "InsufficientFunds",
                    SEC_SIDE,
                    format!("a side bet of {amount} is more than the balance of {seat}"),
                ));
            }
            let exposure = s.exposure();
            if exposure.saturating_add(amount) > s.bank {
                return Err(Violation::new(
                    "ExposureAboveBank",
                    SEC_SIDE,
                    format!(
                        "the stakes on this hand would be {exposure} + {amount}, more than the \
                         bank ({})",
                        s.bank
                    ),
                ));
            }
            cx.emit(Effect::SideBetPlaced {
                seat,
                on: p,
                amount,
            });
        }
        Action::Hit { expose } => {
            need_phase(s, &[Phase::PlayerTurn], what)?;
            need_duel_player(s, actor)?;
            let Some(duel) = s.duel.as_ref() else {
                return Err(wrong_phase(what, s.phase));
            };
            let hand = s.duel_cards();
            let k = hand.len();
            let exposed = match expose {
                None => None,
                Some(_) if k < 3 => {
                    return Err(Violation::new(
                        "BadExposure",
                        SEC_ACTIONS,
                        "a card may be exposed only on a hit with 3 or more cards in hand",
                    ))
                }
                Some(c) => match hand.iter().find(|h| !h.seen.is_public() && h.face == *c) {
                    Some(h) => Some(*h),
                    None => {
                        return Err(Violation::new(
                            "BadExposure",
                            SEC_ACTIONS,
                            "the card to expose must be one of your face-down cards",
                        ))
                    }
                },
            };
            if duel.side_open {
                cx.emit(Effect::SideBetsClosed);
            }
            let p = duel.player;
            match exposed {
                Some(h) => {
                    cx.emit(Effect::CardExposed {
                        seat: p,
                        card: h.r,
                        face: h.face,
                    });
                    player_draw(&mut cx, false);
                }
                None if k >= 3 => cx.enter(Phase::FaceChoice),
                None => player_draw(&mut cx, false),
            }
        }
        Action::Stand => {
            need_phase(s, &[Phase::PlayerTurn], what)?;
            let p = need_duel_player(s, actor)?;
            if s.duel.as_ref().is_some_and(|d| d.side_open) {
                cx.emit(Effect::SideBetsClosed);
            }
            cx.emit(Effect::PlayerStood {
                seat: p,
                automatic: false,
            });
            banker_turn(&mut cx);
        }
        Action::DealFaceUp | Action::DealFaceDown => {
            need_phase(s, &[Phase::FaceChoice], what)?;
            need_seat(s, actor, s.banker, "the banker")?;
            player_draw(&mut cx, *action == Action::DealFaceUp);
        }
        Action::AnnounceSuz => {
            need_phase(s, &[Phase::AwaitSuz], what)?;
            need_duel_player(s, actor)?;
            show_hand(&mut cx);
            settle(&mut cx, Case::S1);
        }
        Action::BankerHit => {
            need_phase(s, &[Phase::BankerTurn], what)?;
            need_seat(s, actor, s.banker, "the banker")?;
            banker_draw(&mut cx);
        }
        Action::BankerStand => {
            need_phase(s, &[Phase::BankerTurn], what)?;
            need_seat(s, actor, s.banker, "the banker")?;
            cx.emit(Effect::BankerStood {
                total: s.banker_total(),
            });
            showdown(&mut cx);
        }
        Action::EndMatch => {
            need_phase(s, &[Phase::RoundStart, Phase::BankOffer], what)?;
            if actor != Actor::Service {
                return Err(Violation::new(
                    "WrongActor",
                    SEC_PHASES,
                    format!("only the service ends a match, not {actor}"),
                ));
            }
            if let Some(b) = s.banker {
                collect_cards(&mut cx);
                cx.emit(Effect::BankTaken {
                    banker: b,
                    amount: s.bank,
                });
            }
            cx.emit(Effect::MatchEnded {
                reason: EndReason::EndMatch,
            });
        }
    }
    Ok(cx.out)
}

/// Check a committed shuffle (see [`crate::engine::Game::decide_shuffle`]).
pub(super) fn decide_shuffle(
    s: &State,
    shuffle: u32,
    order: &[Card],
) -> Result<Vec<Effect>, Violation> {
    let Phase::AwaitShuffle { reason, resume } = s.phase else {
        return Err(Violation::new(
            "WrongPhase",
            SEC_PHASES,
            format!("no shuffle is pending in phase {}", s.phase.name()),
        ));
    };
    if shuffle != s.shuffles {
        return Err(Violation::new(
            "BadShuffle",
            SEC_SHUFFLE,
            format!(
                "this is shuffle number {} of the hand, not {shuffle}",
                s.shuffles
            ),
        ));
    }
    let expected = s.shuffle_request(reason).cards;
    let mut got = order.to_vec();
    crate::cards::canonical_sort(&mut got);
    if got != expected {
        return Err(Violation::new(
            "BadShuffle",
            SEC_SHUFFLE,
            format!(
                "a {} shuffle must be a permutation of the {} expected cards ({} given)",
                reason.as_str(),
                expected.len(),
                order.len()
            ),
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
    match resume {
        Resume::RoundStart => enter_round_start(&mut cx),
        Resume::Dealing => dealing(&mut cx),
        Resume::DuelOpening => duel_opening(&mut cx),
        Resume::PlayerDrawFaceDown => player_draw(&mut cx, false),
        Resume::PlayerDrawFaceUp => player_draw(&mut cx, true),
        Resume::BankerDraw => banker_draw(&mut cx),
    }
    Ok(cx.out)
}

/// Entering `RoundStart`: the turn ends if no player can bet `lo` (D-10).
fn enter_round_start(cx: &mut Cx) {
    if cx.s.anyone_can_bet() {
        cx.enter(Phase::RoundStart);
    } else {
        end_turn(cx, EndReason::NoPlayerCanBet);
    }
}

/// Step A (2)–(4): the banker's card, then (`all_first`) each player's first card.
fn dealing(cx: &mut Cx) {
    if cx.s.hidden().is_none() {
        let Some((card, _)) = cx.top(Resume::Dealing) else {
            return;
        };
        cx.emit(Effect::HiddenDealt { card });
    }
    if cx.s.rules.deal_mode == DealMode::AllFirst {
        let queue = cx.s.queue.clone();
        for seat in queue {
            if cx.s.waiting(seat).is_none() {
                let Some((card, _)) = cx.top(Resume::Dealing) else {
                    return;
                };
                cx.emit(Effect::WaitingDealt { seat, card });
            }
        }
    }
    next_duel(cx);
}

/// Step B (1): the next player who can bet, or F.
fn next_duel(cx: &mut Cx) {
    loop {
        let Some(p) = cx.s.queue.first().copied() else {
            return round_end(cx);
        };
        let (lo, _) = cx.s.bet_limits();
        if cx.s.bal(p) < lo {
            cx.emit(Effect::PlayerSkipped { seat: p });
            if let Some(card) = cx.s.waiting(p).map(|w| w.r) {
                cx.emit(Effect::Discarded { cards: vec![card] });
            }
            continue;
        }
        cx.emit(Effect::DuelOpened { player: p });
        return duel_opening(cx);
    }
}

/// Step B (2)–(5): the banker's card, the swap, the player's first card, the bet.
fn duel_opening(cx: &mut Cx) {
    if cx.s.hidden().is_none() {
        let Some((card, _)) = cx.top(Resume::DuelOpening) else {
            return;
        };
        cx.emit(Effect::HiddenDealt { card });
    }
    let Some((p, swap_offered)) = cx.s.duel.as_ref().map(|d| (d.player, d.swap_offered)) else {
        return;
    };
    let hand_empty = cx.s.zones.is_empty(duel_zone(p));
    if !swap_offered {
        if let Some(card) = cx.s.hidden().map(|h| h.r) {
            let allowed = match cx.s.rules.banker_swap {
                BankerSwap::Off => false,
                BankerSwap::AfterSuz => cx.s.carried,
                BankerSwap::EveryDuel => true,
            };
            if allowed {
                cx.emit(Effect::SwapOffered { card });
                cx.enter(Phase::SwapDecision);
                return;
            }
        }
    }
    if hand_empty {
        if let Some(card) = cx.s.waiting(p).map(|w| w.r) {
            cx.emit(Effect::FirstCard { seat: p, card });
        } else {
            let Some((card, _)) = cx.top(Resume::DuelOpening) else {
                return;
            };
            cx.emit(Effect::PlayerCardDealt {
                seat: p,
                card,
                face: None,
            });
        }
    }
    cx.enter(Phase::AwaitBet);
}

/// A card to the duel player, then step C.
fn player_draw(cx: &mut Cx, face_up: bool) {
    let resume = if face_up {
        Resume::PlayerDrawFaceUp
    } else {
        Resume::PlayerDrawFaceDown
    };
    let Some((card, face)) = cx.top(resume) else {
        return;
    };
    let Some(p) = cx.s.duel_player() else {
        return;
    };
    cx.emit(Effect::PlayerCardDealt {
        seat: p,
        card,
        face: face_up.then_some(face),
    });
    // Step C.
    let t = cx.s.player_total();
    if t == 21 {
        cx.emit(Effect::PlayerStood {
            seat: p,
            automatic: true,
        });
        banker_turn(cx);
    } else if t > 21 {
        cx.enter(Phase::AwaitSuz);
    } else {
        cx.enter(Phase::PlayerTurn);
    }
}

/// Step D: the banker's card is turned up; his turn.
fn banker_turn(cx: &mut Cx) {
    if let Some((card, face)) = cx.s.hidden().map(|h| (h.r, h.face)) {
        cx.emit(Effect::HiddenRevealed { card, face });
    }
    if cx.s.banker_total() >= 21 {
        showdown(cx);
    } else {
        cx.enter(Phase::BankerTurn);
    }
}

/// A card to the banker, face up; over 21 or at 21 the duel is settled at once.
fn banker_draw(cx: &mut Cx) {
    let Some((card, face)) = cx.top(Resume::BankerDraw) else {
        return;
    };
    cx.emit(Effect::BankerDrew { card, face });
    if cx.s.banker_total() >= 21 {
        showdown(cx);
    } else {
        cx.enter(Phase::BankerTurn);
    }
}

fn show_hand(cx: &mut Cx) {
    let Some(d) = cx.s.duel.as_ref() else {
        return;
    };
    let e = Effect::HandShown {
        seat: d.player,
        cards: cx
            .s
            .duel_cards()
            .iter()
            .map(|h| ShownCard {
                card: h.r,
                face: h.face,
            })
            .collect(),
        total: cx.s.player_total(),
    };
    cx.emit(e);
}

/// The player's hand is shown and compared with the banker's (§7).
fn showdown(cx: &mut Cx) {
    show_hand(cx);
    let pt = cx.s.player_total();
    let bt = cx.s.banker_total();
    let case = if bt > 21 {
        Case::S2
    } else if pt > bt {
        Case::S3
    } else if pt == bt {
        Case::S4
    } else {
        Case::S5
    };
    settle(cx, case);
}

/// Step E: every stake settled per §7, the hands discarded; then G if the bank is empty,
/// else B.
fn settle(cx: &mut Cx, case: Case) {
    let Some(p) = cx.s.duel_player() else {
        return;
    };
    cx.emit(Effect::DuelResult {
        player: p,
        case,
        player_total: cx.s.player_total(),
        banker_total: (case != Case::S1).then(|| cx.s.banker_total()),
    });
    let player_wins = matches!(case, Case::S2 | Case::S3);
    let push = case == Case::S4 && cx.s.rules.tie_rule == TieRule::Push;
    for st in cx.s.escrow.clone() {
        let a: Toman = st.amount;
        let (escrow_to_owner, escrow_to_bank, bank_to_owner) = if player_wins {
            (a, 0, a)
        } else if push {
            (a, 0, 0)
        } else {
            (0, a, 0)
        };
        cx.emit(Effect::Settled {
            seat: st.seat,
            amount: a,
            main: st.main,
            case,
            escrow_to_owner,
            escrow_to_bank,
            bank_to_owner,
        });
    }
    if case == Case::S1 {
        if let Some(card) = cx.s.hidden().map(|h| h.r) {
            cx.emit(Effect::BankerCardCarried { card });
        }
    }
    let mut cards: Vec<CardRef> = cx.s.duel_cards().iter().map(|h| h.r).collect();
    cards.extend(cx.s.banker_cards().iter().map(|h| h.r));
    if !cards.is_empty() {
        cx.emit(Effect::Discarded { cards });
    }
    cx.emit(Effect::DuelClosed { player: p });
    if cx.s.bank == 0 {
        end_turn(cx, EndReason::BankEmpty);
    } else {
        next_duel(cx);
    }
}

/// Step F: the round is over.
fn round_end(cx: &mut Cx) {
    if cx.s.khabar {
        return end_turn(cx, EndReason::Khabar);
    }
    if let Some(card) = cx.s.hidden().map(|h| h.r) {
        cx.emit(Effect::Discarded { cards: vec![card] });
    }
    if cx.s.rules.shuffle_every_round {
        cx.ask_shuffle(ShuffleReason::Round, Resume::RoundStart);
    } else {
        enter_round_start(cx);
    }
}

/// Every card still in a hand or a waiting slot goes to the discard pile.
fn collect_cards(cx: &mut Cx) {
    let s = &cx.s;
    let mut cards: Vec<CardRef> = s.hidden().iter().map(|h| h.r).collect();
    cards.extend((0..s.seats).filter_map(|i| s.waiting(SeatIndex(i)).map(|w| w.r)));
    cards.extend(s.duel_cards().iter().map(|h| h.r));
    cards.extend(s.banker_cards().iter().map(|h| h.r));
    if !cards.is_empty() {
        cx.emit(Effect::Discarded { cards });
    }
}

/// Step G: the banker takes the bank; his turn and the hand are over.
fn end_turn(cx: &mut Cx, reason: EndReason) {
    collect_cards(cx);
    let b = cx.banker();
    cx.emit(Effect::BankTaken {
        banker: b,
        amount: cx.s.bank,
    });
    cx.emit(Effect::TurnEnded {
        banker: b,
        reason,
        next_candidate: right(b, cx.s.seats),
    });
}
