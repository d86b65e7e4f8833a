//! Who may act and with what (spec §15).

use super::action::{bid_family, Legal};
use super::decide::{cutter, may_pass, min_bid, playable};
use super::state::{Phase, State};
use crate::engine::{Actor, SeatIndex, ToAct};
use crate::zones::ZoneId;

/// The seat the phase waits for, if any.
pub(super) fn main_actor(s: &State) -> Option<SeatIndex> {
    match s.phase {
        Phase::AwaitShuffle | Phase::HandOver => None,
        Phase::AwaitingCut => Some(cutter(s)),
        Phase::Bidding { seat } | Phase::Exchange { seat } => Some(seat),
        Phase::Playing => Some(s.to_play()),
    }
}

/// The legal actions of `actor` (see [`crate::engine::Game::legal_actions`]).
pub(super) fn legal_actions(s: &State, actor: Actor) -> Vec<Legal> {
    if s.now.over || main_actor(s).map(Actor::Seat) != Some(actor) {
        return Vec::new();
    }
    let Actor::Seat(seat) = actor else {
        return Vec::new();
    };
    match s.phase {
        Phase::AwaitingCut => vec![Legal::Cut { min: 1, max: 51 }],
        Phase::Bidding { .. } => {
            let mut v: Vec<Legal> = bid_family(min_bid(s)).into_iter().collect();
            if may_pass(s, seat) {
                v.push(Legal::Pass);
            }
            v
        }
        Phase::Exchange { .. } => vec![Legal::LayAway {
            count: 4,
            from: s.zones.refs_in(ZoneId::Hand(seat)),
        }],
        Phase::Playing => vec![Legal::Play {
            cards: playable(s, seat),
        }],
        Phase::AwaitShuffle | Phase::HandOver => Vec::new(),
    }
}

/// Who the hand waits for (see [`crate::engine::Game::to_act`]): the committed deck, or
/// the seat the phase waits for.
pub(super) fn to_act(s: &State) -> ToAct {
    if s.phase == Phase::AwaitShuffle {
        return ToAct {
            actors: Vec::new(),
            shuffle: Some(s.shuffle_request()),
        };
    }
    ToAct {
        actors: main_actor(s).map(Actor::Seat).into_iter().collect(),
        shuffle: None,
    }
}
