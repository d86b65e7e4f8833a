//! Folding effects into the state. No rule lives here: every decision was taken by
//! `decide`, and each effect is applied as the fact it states. Zone moves cannot fail for
//! an effect `decide` produced; a corrupted log is caught by `Zones::check` and by the
//! re-run of `decide` on verification.

use super::effect::Effect;
use super::state::{pile_zone, State, WIDOW};
use crate::cards::Card;
use crate::zones::{Seen, ZoneId};

/// Fold one effect (see [`crate::engine::Game::evolve`]).
pub(super) fn evolve(s: &mut State, e: &Effect, order: Option<&[Card]>) {
    match e {
        Effect::Shuffled { shuffle, .. } => {
            if let Some(order) = order {
                s.zones
                    .install(ZoneId::Stock, *shuffle, order, Seen::NOBODY);
            }
            s.shuffled = true;
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
        Effect::WidowLaid { cards } => {
            for r in cards {
                let _ = s.zones.move_card(ZoneId::Stock, *r, WIDOW, Seen::NOBODY);
            }
        }
        Effect::PileLaid { seat, pile, cards } => {
            for r in cards {
                let _ = s
                    .zones
                    .move_card(ZoneId::Stock, *r, pile_zone(*seat, *pile), Seen::NOBODY);
            }
        }
        Effect::BidMade { seat, amount } => s.calls.push(super::state::Call {
            seat: *seat,
            bid: Some(*amount),
        }),
        Effect::Passed { seat } => s.calls.push(super::state::Call {
            seat: *seat,
            bid: None,
        }),
        Effect::AuctionWon { hakem, contract } => {
            s.hakem = Some(*hakem);
            s.contract = Some(*contract);
            s.leader = *hakem;
        }
        Effect::PassedOut => {}
        Effect::WidowTaken { seat, cards } => {
            for r in cards {
                let _ = s
                    .zones
                    .move_card(WIDOW, *r, ZoneId::Hand(*seat), Seen::seat(*seat));
            }
        }
        Effect::LaidAway { seat, cards } => {
            for r in cards {
                let _ =
                    s.zones
                        .move_card(ZoneId::Hand(*seat), *r, ZoneId::Discard, Seen::seat(*seat));
            }
            s.laid = true;
        }
        Effect::TrumpSet { suit } => s.trump = Some(suit.0),
        Effect::Played { seat, card, pile } => {
            let from = match pile {
                Some(p) => pile_zone(*seat, *p),
                None => ZoneId::Hand(*seat),
            };
            let _ = s
                .zones
                .move_card(from, card.card, ZoneId::Trick, Seen::EVERYONE);
            s.trick_seats.push(*seat);
        }
        Effect::PileTopTurned { card, .. } => {
            let _ = s.zones.reveal(card.card);
            s.piles_open = true;
        }
        Effect::TrickWon { seat, .. } => {
            s.zones
                .move_all(ZoneId::Trick, ZoneId::Won(*seat), Seen::EVERYONE);
            if let Some(w) = s.won.get_mut(seat.index()) {
                *w = w.saturating_add(1);
            }
            s.trick_seats.clear();
            s.leader = *seat;
        }
        Effect::DiscardsRevealed { .. } => {
            s.zones.set_seen_all(ZoneId::Discard, Seen::EVERYONE);
            s.revealed = true;
        }
        Effect::HandScored { row } => {
            s.now.totals = row.total;
            s.now.sheet.push(row.clone());
            s.row = Some(row.clone());
        }
        Effect::MatchWon { team } => {
            s.now.over = true;
            s.now.winner = Some(*team);
        }
        Effect::NextDealer { seat } => s.now.dealer = *seat,
        Effect::Phase { phase } => s.phase = *phase,
    }
}
