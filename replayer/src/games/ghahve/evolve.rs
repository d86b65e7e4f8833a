//! Folding effects into the state. No rule lives here: every decision was taken by
//! `decide`, and each effect is applied as the fact it states.

use super::effect::Effect;
use super::state::{team_of, ShuffleReason, State, DRAWN, DRAW_PILE, MAX_SCORE, SEATS};
use crate::cards::Card;
use crate::engine::SeatIndex;
use crate::games::tricks::right;
use crate::zones::{Seen, ZoneId};

fn add(v: &mut [i64], team: u8, points: i64) {
    if let Some(x) = v.get_mut(usize::from(team)) {
        *x = x.saturating_add(points).clamp(-MAX_SCORE, MAX_SCORE);
    }
}

/// §8.5: every hand passes to the right; each card stays visible to whoever saw it (the
/// passer knows his former hand) and becomes visible to its new holder.
fn swap_hands(s: &mut State) {
    let t = s.table().to_vec();
    for i in 0..SEATS {
        let from = ZoneId::Hand(SeatIndex(i));
        let held = ZoneId::Pile(1u8.saturating_add(i));
        for p in s.zones.cards(from).to_vec() {
            let _ = s.zones.move_card(from, p.r, held, p.seen);
        }
    }
    for i in 0..SEATS {
        let seat = SeatIndex(i);
        let to = right(seat, &t);
        let held = ZoneId::Pile(1u8.saturating_add(i));
        for p in s.zones.cards(held).to_vec() {
            let _ = s
                .zones
                .move_card(held, p.r, ZoneId::Hand(to), p.seen.and(to));
        }
    }
}

/// Fold one effect (see [`crate::engine::Game::evolve`]).
pub(super) fn evolve(s: &mut State, e: &Effect, order: Option<&[Card]>) {
    match e {
        Effect::Shuffled {
            shuffle,
            reason,
            cards,
        } => {
            if let Some(order) = order {
                let zone = match reason {
                    ShuffleReason::Draw => DRAW_PILE,
                    ShuffleReason::Deal => ZoneId::Stock,
                };
                s.zones.install(zone, *shuffle, order, Seen::NOBODY);
            }
            if *reason == ShuffleReason::Deal {
                s.deck_len = *cards;
                s.cut = 0;
            }
            s.shuffles = shuffle.saturating_add(1);
        }
        Effect::DrawCard { seat, card } => {
            let _ = s
                .zones
                .move_card(DRAW_PILE, card.card, DRAWN, Seen::EVERYONE);
            s.draw_seats.push(*seat);
        }
        Effect::DrawDeckSpent => {
            // The spent draw cards stay where they are; a fresh draw deck follows.
        }
        Effect::Reseated { seating } => s.now.seating = seating.clone(),
        Effect::DealerSet { seat } => {
            s.dealer = Some(*seat);
            s.now.dealer = Some(*seat);
            s.leader = right(*seat, &s.now.seating);
        }
        Effect::CutApplied { k, .. } => {
            let n = usize::try_from(*k).unwrap_or(0);
            let _ = s
                .zones
                .move_top(ZoneId::Stock, n, ZoneId::Stock, Seen::NOBODY);
            s.cut = *k;
        }
        Effect::Dealt { seat, cards } => {
            for r in cards {
                let _ =
                    s.zones
                        .move_card(ZoneId::Stock, *r, ZoneId::Hand(*seat), Seen::seat(*seat));
            }
        }
        Effect::BidMade { seat, n } => {
            if let Some(b) = s.bids.get_mut(seat.index()) {
                *b = Some(*n);
            }
        }
        Effect::ContractsSet { team0, team1 } => {
            s.contracts = Some([*team0, *team1]);
            s.commitment = None;
            s.declined.clear();
        }
        Effect::BuyOffered { .. } => {}
        Effect::BuyDeclared { seat, required } => {
            s.commitment = Some(super::state::Commitment {
                team: team_of(*seat, &s.now.seating),
                required: *required,
            });
            s.buys = s.buys.saturating_add(1);
        }
        Effect::BuyDeclined { seat } => s.declined.push(*seat),
        Effect::HandsSwapped => {
            swap_hands(s);
            for b in &mut s.bids {
                *b = None;
            }
            s.declined.clear();
        }
        Effect::Played { seat, card } => {
            let _ = s.zones.move_card(
                ZoneId::Hand(*seat),
                card.card,
                ZoneId::Trick,
                Seen::EVERYONE,
            );
            if card.face == super::state::BJ {
                s.bj_played = true;
            }
        }
        Effect::JokerReleased { .. } => s.cj_released = true,
        Effect::TrickWon { seat, .. } => {
            s.zones
                .move_all(ZoneId::Trick, ZoneId::Won(*seat), Seen::EVERYONE);
            if let Some(w) = s.won.get_mut(seat.index()) {
                *w = w.saturating_add(1);
            }
            s.leader = *seat;
        }
        Effect::HandScored {
            team,
            contract,
            tricks,
            points,
        } => {
            add(&mut s.now.scores, *team, *points);
            add(&mut s.gained, *team, *points);
            s.scored.push((*contract, *tricks, *points));
        }
        Effect::PenaltyAwarded {
            offender,
            team,
            points,
            fails,
        } => {
            add(&mut s.now.scores, *team, i64::from(*points));
            add(&mut s.gained, *team, i64::from(*points));
            if *fails {
                let off = team_of(*offender, &s.now.seating);
                if !s.failed_by_penalty.contains(&off) {
                    s.failed_by_penalty.push(off);
                }
            }
        }
        Effect::DealerPassed { to, .. } => s.now.dealer = Some(*to),
        Effect::DealerStays { seat } => s.now.dealer = Some(*seat),
        Effect::MatchWon { team } => {
            s.now.over = true;
            s.now.winner = Some(*team);
        }
        Effect::Phase { phase } => s.phase = *phase,
    }
}
