//! Folding effects into the state. No rule lives here: every decision was taken by
//! `decide`, and each effect is applied as the fact it states. A shuffle effect installs the
//! committed order (`order`); cards move between zones by their refs.

use super::effect::{Effect, ShuffleReason};
use super::state::{ChallengeRecord, LeadReason, Phase, PlayRecord, State, PILE};
use crate::cards::Card;
use crate::zones::{Seen, ZoneId};

/// Fold one effect (see [`crate::engine::Game::evolve`]).
pub(super) fn evolve(s: &mut State, e: &Effect, order: Option<&[Card]>) {
    match e {
        Effect::Shuffled {
            shuffle, reason, ..
        } => {
            if let (ShuffleReason::Deal, Some(order)) = (reason, order) {
                s.zones
                    .install(ZoneId::Stock, *shuffle, order, Seen::NOBODY);
            }
            s.shuffles = shuffle.saturating_add(1);
        }
        Effect::Dealt { seat, cards } => {
            for r in cards {
                // A ref that is not in the stock is a corrupted log; `Zones::check` and the
                // verifier's effect comparison catch it.
                let _ =
                    s.zones
                        .move_card(ZoneId::Stock, *r, ZoneId::Hand(*seat), Seen::seat(*seat));
            }
        }
        Effect::SetAside { cards } => {
            for r in cards {
                let _ = s
                    .zones
                    .move_card(ZoneId::Stock, *r, ZoneId::Out, Seen::NOBODY);
            }
        }
        Effect::PlayStarted { starter } => {
            s.phase = Phase::Play;
            s.turn = *starter;
            s.lead_reason = LeadReason::HandStart;
        }
        Effect::Played {
            seat,
            lead,
            rank,
            count,
            cards,
        } => {
            for r in cards {
                let _ = s
                    .zones
                    .move_card(ZoneId::Hand(*seat), *r, PILE, Seen::seat(*seat));
            }
            s.pile.push(PlayRecord {
                seat: *seat,
                rank: *rank,
                cards: cards.clone(),
                lead: *lead,
            });
            if *lead {
                s.round_rank = Some(*rank);
                s.ended_round_rank = None;
                s.lead_count = *count;
                s.played_this_round = vec![*seat];
            } else {
                s.played_this_round.push(*seat);
            }
            s.window_open = true;
            s.requests.clear();
        }
        Effect::Passed { seat } => {
            s.window_open = false;
            s.requests.clear();
            s.played_this_round.push(*seat);
        }
        Effect::OutPending { seat } => s.pending_out = Some(*seat),
        Effect::WentOut { seat, .. } => {
            s.out_order.push(*seat);
            s.pending_out = None;
        }
        Effect::BackIn { .. } => s.pending_out = None,
        Effect::Turn { seat } => s.turn = *seat,
        Effect::RoundLapped { rank } => {
            s.ended_round_rank = Some(*rank);
            s.round_rank = None;
            s.lead_reason = LeadReason::AfterLap;
            s.played_this_round.clear();
        }
        Effect::ChallengeRequested { by } => s.requests.push(*by),
        Effect::NotChallenged { .. } => {
            s.window_open = false;
            s.requests.clear();
        }
        Effect::Challenged {
            challenger,
            seat,
            rank,
            cards,
            truthful,
            taker,
        } => {
            for c in cards {
                let _ = s.zones.reveal(c.card);
            }
            s.window_open = false;
            s.last_challenge = Some(ChallengeRecord {
                challenger: *challenger,
                challenged: *seat,
                rank: *rank,
                count: u32::try_from(cards.len()).unwrap_or(u32::MAX),
                truthful: *truthful,
                taker: *taker,
            });
        }
        Effect::PileTaken { seat, .. } => {
            s.zones
                .move_all(PILE, ZoneId::Hand(*seat), Seen::seat(*seat));
            s.pile.clear();
            s.round_rank = None;
            s.ended_round_rank = None;
            s.played_this_round.clear();
            s.lead_reason = LeadReason::AfterChallenge;
            s.window_open = false;
            s.requests.clear();
        }
        Effect::Phase { phase } => s.phase = *phase,
        Effect::Relabelled { seat, shuffle, .. } => {
            if let Some(order) = order {
                let _ = s
                    .zones
                    .relabel(ZoneId::Hand(*seat), *shuffle, order, Seen::seat(*seat));
            }
            s.shuffles = shuffle.saturating_add(1);
            s.phase = Phase::Play;
        }
        Effect::HandEnded { thief, .. } => {
            s.thief = Some(*thief);
            s.phase = Phase::Over;
            s.window_open = false;
            s.requests.clear();
        }
    }
}
