//! Folding effects into the state. No rule lives here: every decision was taken by
//! `decide`, and each effect is applied as the fact it states. A face-down draw takes the
//! card from the top of the stock zone; a shuffle installs the committed order. Zone moves
//! cannot fail for an effect `decide` produced; a corrupted log is caught by `Zones::check`
//! and by the re-run of `decide` on verification.

use super::effect::Effect;
use super::state::{
    duel_zone, hidden_zone, waiting_zone, Duel, Stake, State, BANKER_UP, DISCARD, STOCK,
};
use crate::cards::Card;
use crate::engine::{CardRef, SeatIndex, Toman};
use crate::zones::{Seen, ZoneId};

/// Draw the top of the stock into `to`, seen by `seen`.
fn draw(s: &mut State, to: ZoneId, seen: Seen) {
    let _ = s.zones.move_top(STOCK, 1, to, seen);
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

/// Take the card named `at` out of the hands (hidden, waiting, duel, banker) onto the
/// discard pile, keeping who saw it: the table saw it iff it was face up.
fn discard(s: &mut State, at: CardRef) {
    let Some((from, seen)) = s.zones.find(at).map(|(z, p)| (z, p.seen)) else {
        return;
    };
    if from == STOCK || from == DISCARD {
        return;
    }
    if s.banker.is_some_and(|b| from == hidden_zone(b)) {
        s.carried = false;
    }
    let _ = s.zones.move_card(from, at, DISCARD, seen);
}

fn install(s: &mut State, shuffle: u32, full: bool, order: &[Card]) {
    if full {
        // Everything is collected first (nothing is named before the hand's first shuffle).
        s.carried = false;
        if s.shuffles == 0 {
            s.zones.install(STOCK, shuffle, order, Seen::NOBODY);
        } else {
            let _ = s.zones.reshuffle_all(STOCK, shuffle, order, Seen::NOBODY);
        }
    } else {
        // A restock: the discards, gathered under the shuffle's new names, are the stock.
        let _ = s.zones.relabel(DISCARD, shuffle, order, Seen::NOBODY);
        s.zones.move_all(DISCARD, STOCK, Seen::NOBODY);
    }
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
            if let Some(b) = s.banker {
                draw(s, hidden_zone(b), Seen::seat(b));
                s.carried = false;
            }
        }
        Effect::WaitingDealt { seat, .. } => draw(s, waiting_zone(*seat), Seen::seat(*seat)),
        Effect::PlayerSkipped { seat } => remove_first(&mut s.queue, *seat),
        Effect::DuelOpened { player } => {
            remove_first(&mut s.queue, *player);
            s.duel = Some(Duel {
                player: *player,
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
        Effect::FirstCard { seat, card } => {
            let _ = s.zones.move_card(
                waiting_zone(*seat),
                *card,
                duel_zone(*seat),
                Seen::seat(*seat),
            );
        }
        Effect::PlayerCardDealt { seat, face, .. } => {
            let seen = if face.is_some() {
                Seen::EVERYONE
            } else {
                Seen::seat(*seat)
            };
            draw(s, duel_zone(*seat), seen);
        }
        Effect::CardExposed { seat, card, .. } => {
            if s.zones.get(duel_zone(*seat), *card).is_some() {
                let _ = s.zones.reveal(*card);
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
            if let Some(b) = s.banker {
                s.zones.move_all(hidden_zone(b), BANKER_UP, Seen::EVERYONE);
                s.carried = false;
            }
        }
        Effect::BankerDrew { .. } => draw(s, BANKER_UP, Seen::EVERYONE),
        Effect::HandShown { seat, .. } => s.zones.set_seen_all(duel_zone(*seat), Seen::EVERYONE),
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
            if s.hidden().is_some() {
                s.carried = true;
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
