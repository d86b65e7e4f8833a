//! Folding effects into the state. No rule lives here: every decision was taken by
//! `decide`, and each effect is applied as the fact it states. A face-down draw takes the
//! card from the state's own stock top; a shuffle installs the committed order.

use super::effect::Effect;
use super::state::{Duel, Gone, Held, Hidden, Slot, Stake, State};
use crate::cards::Card;
use crate::engine::{CardRef, SeatIndex, Toman};

fn pop_top(s: &mut State) -> Option<Slot> {
    if s.stock.is_empty() {
        None
    } else {
        Some(s.stock.remove(0))
    }
}

fn credit(s: &mut State, seat: SeatIndex, amount: Toman) {
    if let Some(b) = s.balance.get_mut(seat.index()) {
        *b = b.saturating_add(amount);
    }
}

fn debit(s: &mut State, seat: SeatIndex, amount: Toman) {
    if let Some(b) = s.balance.get_mut(seat.index()) {
        *b = b.saturating_sub(amount);
    }
}

fn remove_first(queue: &mut Vec<SeatIndex>, seat: SeatIndex) {
    if let Some(i) = queue.iter().position(|q| *q == seat) {
        queue.remove(i);
    }
}

/// Take the card named `at` out of the hands (hidden, waiting, duel, banker) into the
/// discard pile; seen iff it was face up.
fn discard(s: &mut State, at: CardRef) {
    if s.hidden.is_some_and(|h| h.slot.at == at) {
        if let Some(h) = s.hidden.take() {
            s.discard.push(Gone {
                card: h.slot.card,
                seen: false,
                at: Some(h.slot.at),
            });
        }
        return;
    }
    for w in s.waiting.iter_mut() {
        if w.is_some_and(|slot| slot.at == at) {
            if let Some(slot) = w.take() {
                s.discard.push(Gone {
                    card: slot.card,
                    seen: false,
                    at: Some(slot.at),
                });
            }
            return;
        }
    }
    if let Some(d) = s.duel.as_mut() {
        if let Some(i) = d.hand.iter().position(|h| h.slot.at == at) {
            let h = d.hand.remove(i);
            s.discard.push(Gone {
                card: h.slot.card,
                seen: h.face_up,
                at: Some(h.slot.at),
            });
            return;
        }
    }
    if let Some(i) = s.banker_hand.iter().position(|slot| slot.at == at) {
        let slot = s.banker_hand.remove(i);
        s.discard.push(Gone {
            card: slot.card,
            seen: true,
            at: Some(slot.at),
        });
    }
}

fn install(s: &mut State, shuffle: u32, full: bool, order: &[Card]) {
    if full {
        // Everything is collected first.
        s.discard.clear();
        s.hidden = None;
        for w in s.waiting.iter_mut() {
            *w = None;
        }
        if let Some(d) = s.duel.as_mut() {
            d.hand.clear();
        }
        s.banker_hand.clear();
    } else {
        s.discard.clear();
    }
    s.stock = order
        .iter()
        .enumerate()
        .map(|(i, card)| Slot {
            card: *card,
            at: CardRef {
                shuffle,
                pos: u32::try_from(i).unwrap_or(u32::MAX),
            },
        })
        .collect();
}

/// Fold one effect (see [`crate::engine::Game::evolve`]).
pub(super) fn evolve(s: &mut State, e: &Effect, order: Option<&[Card]>) {
    match e {
        Effect::BankDeclined { declines, .. } => s.declines = *declines,
        Effect::BankOffered {
            candidate,
            declines,
        } => {
            s.candidate = *candidate;
            s.declines = *declines;
        }
        Effect::BankAccepted { banker, stake } => {
            debit(s, *banker, *stake);
            s.bank = s.bank.saturating_add(*stake);
            s.stake = *stake;
            s.banker = Some(*banker);
            s.declines = 0;
        }
        Effect::Phase { phase } => s.phase = *phase,
        Effect::Shuffled {
            shuffle, reason, ..
        } => {
            if let Some(order) = order {
                install(s, *shuffle, reason.is_full(), order);
            }
            s.shuffles = shuffle.saturating_add(1);
        }
        Effect::KhabarAnnounced { .. } => s.khabar = true,
        Effect::RoundDealt { round, queue } => {
            s.round = *round;
            s.queue = queue.clone();
        }
        Effect::HiddenDealt { .. } => {
            if let Some(slot) = pop_top(s) {
                s.hidden = Some(Hidden {
                    slot,
                    carried: false,
                });
            }
        }
        Effect::WaitingDealt { seat, .. } => {
            if let Some(slot) = pop_top(s) {
                if let Some(w) = s.waiting.get_mut(seat.index()) {
                    *w = Some(slot);
                }
            }
        }
        Effect::PlayerSkipped { seat } => remove_first(&mut s.queue, *seat),
        Effect::DuelOpened { player } => {
            remove_first(&mut s.queue, *player);
            s.duel = Some(Duel {
                player: *player,
                hand: Vec::new(),
                swap_offered: false,
                side_open: false,
            });
        }
        Effect::SwapOffered { .. } => {
            if let Some(d) = s.duel.as_mut() {
                d.swap_offered = true;
            }
        }
        Effect::Swapped { card } => discard(s, *card),
        Effect::Kept { .. }
        | Effect::PlayerStood { .. }
        | Effect::BankerStood { .. }
        | Effect::DuelResult { .. } => {}
        Effect::FirstCard { seat, .. } => {
            let slot = s.waiting.get_mut(seat.index()).and_then(Option::take);
            if let (Some(slot), Some(d)) = (slot, s.duel.as_mut()) {
                d.hand.push(Held {
                    slot,
                    face_up: false,
                });
            }
        }
        Effect::PlayerCardDealt { face, .. } => {
            if let Some(slot) = pop_top(s) {
                if let Some(d) = s.duel.as_mut() {
                    d.hand.push(Held {
                        slot,
                        face_up: face.is_some(),
                    });
                }
            }
        }
        Effect::CardExposed { card, .. } => {
            if let Some(d) = s.duel.as_mut() {
                for h in d.hand.iter_mut().filter(|h| h.slot.at == *card) {
                    h.face_up = true;
                }
            }
        }
        Effect::BetPlaced { seat, amount } => {
            debit(s, *seat, *amount);
            s.escrow.push(Stake {
                seat: *seat,
                amount: *amount,
                main: true,
            });
        }
        Effect::SideBetsOpened => {
            if let Some(d) = s.duel.as_mut() {
                d.side_open = true;
            }
        }
        Effect::SideBetsClosed => {
            if let Some(d) = s.duel.as_mut() {
                d.side_open = false;
            }
        }
        Effect::SideBetPlaced { seat, amount, .. } => {
            debit(s, *seat, *amount);
            s.escrow.push(Stake {
                seat: *seat,
                amount: *amount,
                main: false,
            });
        }
        Effect::HiddenRevealed { .. } => {
            if let Some(h) = s.hidden.take() {
                s.banker_hand.push(h.slot);
            }
        }
        Effect::BankerDrew { .. } => {
            if let Some(slot) = pop_top(s) {
                s.banker_hand.push(slot);
            }
        }
        Effect::HandShown { .. } => {
            if let Some(d) = s.duel.as_mut() {
                for h in d.hand.iter_mut() {
                    h.face_up = true;
                }
            }
        }
        Effect::Settled {
            seat,
            escrow_to_owner,
            escrow_to_bank,
            bank_to_owner,
            ..
        } => {
            if let Some(i) = s.escrow.iter().position(|st| st.seat == *seat) {
                s.escrow.remove(i);
            }
            credit(s, *seat, escrow_to_owner.saturating_add(*bank_to_owner));
            s.bank = s
                .bank
                .saturating_add(*escrow_to_bank)
                .saturating_sub(*bank_to_owner);
        }
        Effect::BankerCardCarried { .. } => {
            if let Some(h) = s.hidden.as_mut() {
                h.carried = true;
            }
        }
        Effect::Discarded { cards } => {
            for c in cards {
                discard(s, *c);
            }
        }
        Effect::DuelClosed { .. } => s.duel = None,
        Effect::BankTaken { banker, amount } => {
            s.bank = s.bank.saturating_sub(*amount);
            credit(s, *banker, *amount);
            s.taken = Some(*amount);
        }
        Effect::TurnEnded { reason, .. } => {
            s.end = Some(*reason);
            s.khabar = false;
            s.queue.clear();
            s.phase = super::state::Phase::TurnOver;
        }
        Effect::MatchEnded { reason } => {
            s.end = Some(*reason);
            s.queue.clear();
            s.phase = super::state::Phase::MatchOver;
        }
    }
}
