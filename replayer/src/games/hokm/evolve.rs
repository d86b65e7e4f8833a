//! Folding effects into the state. No rule lives here: every decision was taken by
//! `decide`, and each effect is applied as the fact it states. Zone moves cannot fail for
//! an effect `decide` produced; a corrupted log is caught by `Zones::check` and by the
//! re-run of `decide` on verification.

use super::effect::Effect;
use super::state::{side_of, ShuffleReason, State, DRAWN, DRAW_PILE, MAX_SCORE, WITHHELD};
use crate::cards::Card;
use crate::engine::SeatIndex;
use crate::zones::{Seen, ZoneId};

fn add(v: &mut [u32], i: u8, points: u32) {
    if let Some(x) = v.get_mut(usize::from(i)) {
        *x = x.saturating_add(points).min(MAX_SCORE);
    }
}

/// Move every card of `from` to `to`, each keeping who may see it.
fn move_keeping_seen(s: &mut State, from: ZoneId, to: ZoneId) {
    let cards: Vec<_> = s.zones.cards(from).to_vec();
    for p in cards {
        let _ = s.zones.move_card(from, p.r, to, p.seen);
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
                s.deal_shuffle = Some(*shuffle);
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
        Effect::DrawDeckSpent => {}
        Effect::Reseated { seating } => s.now.seating = seating.clone(),
        Effect::MethodCalled { method, .. } => s.method = Some(*method),
        Effect::HakemSet { seat } => {
            s.hakem = Some(*seat);
            s.leader = *seat;
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
        Effect::Withheld { cards, .. } => {
            for r in cards {
                let _ = s.zones.move_card(ZoneId::Stock, *r, WITHHELD, Seen::NOBODY);
            }
        }
        Effect::Released { seat, cards } => {
            for r in cards {
                let _ = s
                    .zones
                    .move_card(WITHHELD, *r, ZoneId::Hand(*seat), Seen::seat(*seat));
            }
        }
        Effect::Revealed { seat, cards } => {
            for c in cards {
                if s.zones.get(ZoneId::Stock, c.card).is_some() {
                    let _ = s.zones.move_card(
                        ZoneId::Stock,
                        c.card,
                        ZoneId::Hand(*seat),
                        Seen::EVERYONE,
                    );
                } else {
                    let _ = s.zones.reveal(c.card);
                }
            }
        }
        Effect::TrumpFixed { suit, method } => {
            s.trump = Some(suit.0);
            s.method = Some(*method);
        }
        Effect::DealAnnulled { redeals } => {
            s.redeals = *redeals;
            for i in 0..s.n {
                move_keeping_seen(s, ZoneId::Hand(SeatIndex(i)), ZoneId::Out);
            }
            move_keeping_seen(s, WITHHELD, ZoneId::Out);
            move_keeping_seen(s, ZoneId::Stock, ZoneId::Out);
            s.deal_shuffle = None;
            s.trump = None;
            s.method = None;
        }
        Effect::Discarded { seat, cards } => {
            for r in cards {
                let _ =
                    s.zones
                        .move_card(ZoneId::Hand(*seat), *r, ZoneId::Discard, Seen::seat(*seat));
            }
        }
        Effect::Offered { seat, cards, .. } => {
            for r in cards {
                let _ = s.zones.show_to(*r, *seat);
            }
        }
        Effect::Drawn {
            seat,
            kept,
            burned,
            burned_seen_by,
        } => {
            let _ = s
                .zones
                .move_card(ZoneId::Stock, *kept, ZoneId::Hand(*seat), Seen::seat(*seat));
            let seen = burned_seen_by.map_or(Seen::NOBODY, Seen::seat);
            let _ = s.zones.move_card(ZoneId::Stock, *burned, ZoneId::Out, seen);
        }
        Effect::Peeked { seat, cards, .. } => {
            for r in cards {
                let _ = s.zones.show_to(*r, *seat);
            }
            s.peeked = true;
        }
        Effect::Played { seat, card } => {
            let _ = s.zones.move_card(
                ZoneId::Hand(*seat),
                card.card,
                ZoneId::Trick,
                Seen::EVERYONE,
            );
        }
        Effect::TrickWon { seat, .. } => {
            s.zones
                .move_all(ZoneId::Trick, ZoneId::Won(*seat), Seen::EVERYONE);
            if let Some(w) = s.won.get_mut(seat.index()) {
                *w = w.saturating_add(1);
            }
            s.leader = *seat;
        }
        Effect::BamChosen { seat, play_on } => {
            if *play_on {
                s.bam = Some(side_of(*seat, &s.now.seating));
            }
        }
        Effect::HandWon {
            side, kind, points, ..
        } => {
            add(&mut s.now.scores, *side, *points);
            add(&mut s.gained, *side, *points);
            s.result = Some((*side, *kind));
        }
        Effect::PenaltyAwarded { sides, points, .. } => {
            for side in sides {
                add(&mut s.now.scores, *side, *points);
                add(&mut s.gained, *side, *points);
            }
        }
        Effect::DeuceStarted => s.now.deuce = true,
        Effect::RoundWon { side } => {
            if let Some(r) = s.now.rounds.get_mut(usize::from(*side)) {
                *r = r.saturating_add(1).min(3);
            }
            for x in &mut s.now.scores {
                *x = 0;
            }
            s.now.deuce = false;
        }
        Effect::MatchWon { side, .. } => {
            s.now.over = true;
            s.now.winner = Some(*side);
        }
        Effect::NextHakem { seat } => s.now.hakem = *seat,
        Effect::Phase { phase } => s.phase = *phase,
    }
}
