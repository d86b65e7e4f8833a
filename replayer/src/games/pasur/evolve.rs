//! Folding effects into the state. No rule lives here: every decision was taken by
//! `decide`, and each effect is applied as the fact it states. Zone moves cannot fail for
//! an effect `decide` produced; a corrupted log is caught by `Zones::check` and by the
//! re-run of `decide` on verification.

use super::effect::Effect;
use super::state::{State, SurMark, MAX_SCORE};
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
            s.shuffles = shuffle.saturating_add(1);
        }
        Effect::Dealt { deal, seat, cards } => {
            for r in cards {
                let _ =
                    s.zones
                        .move_card(ZoneId::Stock, *r, ZoneId::Hand(*seat), Seen::seat(*seat));
            }
            s.deal_no = *deal;
        }
        Effect::TableDealt { cards } => {
            for c in cards {
                let _ = s
                    .zones
                    .move_card(ZoneId::Stock, c.card, ZoneId::Table, Seen::EVERYONE);
            }
        }
        Effect::TableJackReplaced {
            jack,
            replacement,
            at,
            ..
        } => {
            let slot = s
                .zones
                .cards(ZoneId::Table)
                .iter()
                .position(|p| p.r == jack.card)
                .unwrap_or(0);
            let _ = s.zones.move_card_at(
                ZoneId::Stock,
                replacement.card,
                ZoneId::Table,
                slot,
                Seen::EVERYONE,
            );
            // The jack was seen by everyone on the table, and everyone saw where it went.
            let _ = s.zones.move_card_at(
                ZoneId::Table,
                jack.card,
                ZoneId::Stock,
                usize::try_from(*at).unwrap_or(usize::MAX),
                Seen::EVERYONE,
            );
        }
        Effect::Played {
            seat,
            play,
            card,
            capture,
        } => {
            let to = if capture.is_empty() {
                ZoneId::Table
            } else {
                ZoneId::Won(*seat)
            };
            let _ = s
                .zones
                .move_card(ZoneId::Hand(*seat), card.card, to, Seen::EVERYONE);
            for c in capture {
                let _ =
                    s.zones
                        .move_card(ZoneId::Table, c.card, ZoneId::Won(*seat), Seen::EVERYONE);
            }
            if !capture.is_empty() {
                s.last_capturer = Some(*seat);
            }
            s.plays = *play;
            s.turn = seat.right(s.n);
        }
        Effect::Sur { seat, side, play } => {
            if let Some(x) = s.surs.get_mut(usize::from(*side)) {
                *x = x.saturating_add(1);
            }
            s.sur_marks.push(SurMark {
                seat: *seat,
                play: *play,
            });
        }
        Effect::LeftoversTaken { seat, cards } => {
            let to = seat.map_or(ZoneId::Out, ZoneId::Won);
            for c in cards {
                let _ = s.zones.move_card(ZoneId::Table, c.card, to, Seen::EVERYONE);
            }
        }
        Effect::HandScored { sides } => {
            for x in sides {
                if let Some(v) = s.now.scores.get_mut(usize::from(x.side)) {
                    *v = v.saturating_add(x.points).min(MAX_SCORE);
                }
            }
            s.scored = sides.clone();
        }
        Effect::TiedAtTop { sides } => s.now.eligible = sides.clone(),
        Effect::MatchWon { side } => {
            s.now.over = true;
            s.now.winner = Some(*side);
            s.now.eligible.clear();
        }
        Effect::NextDealer { seat } => s.now.dealer = *seat,
        Effect::Phase { phase } => s.phase = *phase,
    }
}
