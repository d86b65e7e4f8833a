//! Who may act and with what (spec §14.1).

use super::action::Legal;
use super::decide::{bid_range, main_actor, playable, window};
use super::rules::CheatingPenalty;
use super::state::{team_seats, Phase, State};
use crate::engine::{Actor, ToAct};

/// Whether the hand runs and the service may adjudicate (§12.3).
fn service_may_act(s: &State) -> bool {
    !s.now.over
        && s.rules.cheating_penalty != CheatingPenalty::None
        && !matches!(s.phase, Phase::AwaitShuffle { .. } | Phase::HandOver)
}

/// The legal actions of `actor` (see [`crate::engine::Game::legal_actions`]).
pub(super) fn legal_actions(s: &State, actor: Actor) -> Vec<Legal> {
    if actor == Actor::Service {
        return if service_may_act(s) {
            vec![Legal::AwardCheatingPenalty {
                sides: team_seats(s.table()),
            }]
        } else {
            Vec::new()
        };
    }
    if s.now.over || main_actor(s).map(Actor::Seat) != Some(actor) {
        return Vec::new();
    }
    let Actor::Seat(seat) = actor else {
        return Vec::new();
    };
    match s.phase {
        Phase::AwaitingCut => vec![Legal::Cut {
            min: 1,
            max: s.deck_len.saturating_sub(1),
        }],
        Phase::Bidding => {
            let (min, max) = bid_range(s, seat);
            vec![Legal::Bid { min, max }]
        }
        Phase::BuyWindow { .. } => {
            let mut v = Vec::new();
            if let Some((_, required)) = window(s) {
                v.push(Legal::Buy { required });
            }
            v.push(Legal::DeclineBuy);
            v
        }
        Phase::Playing => vec![Legal::Play {
            cards: playable(s, seat),
        }],
        Phase::AwaitShuffle { .. } | Phase::HandOver => Vec::new(),
    }
}

/// Who the hand waits for (see [`crate::engine::Game::to_act`]): a committed shuffle, or
/// the seat the phase waits for and the service (which may award a penalty).
pub(super) fn to_act(s: &State) -> ToAct {
    if let Phase::AwaitShuffle { reason } = s.phase {
        return ToAct {
            actors: Vec::new(),
            shuffle: Some(s.shuffle_request(reason)),
        };
    }
    let mut actors: Vec<Actor> = main_actor(s).map(Actor::Seat).into_iter().collect();
    if service_may_act(s) {
        actors.push(Actor::Service);
    }
    ToAct {
        actors,
        shuffle: None,
    }
}
