//! Who may act and with what.

use super::action::Legal;
use super::decide::options;
use super::state::{Phase, State};
use crate::engine::{Actor, ToAct};
use crate::zones::ZoneId;

/// The legal actions of `actor` (see [`crate::engine::Game::legal_actions`]): one family
/// per card of the hand that may be played, with its legal captures.
pub(super) fn legal_actions(s: &State, actor: Actor) -> Vec<Legal> {
    if s.now.over || s.phase != Phase::Playing || actor != Actor::Seat(s.turn) {
        return Vec::new();
    }
    let seat = s.turn;
    s.zones
        .cards(ZoneId::Hand(seat))
        .iter()
        .filter_map(|p| {
            let captures = options(s, seat, p.face);
            (!captures.is_empty()).then_some(Legal::Play {
                card: p.r,
                captures,
            })
        })
        .collect()
}

/// Who the hand waits for: the shuffle, the seat whose turn it is, or nobody.
pub(super) fn to_act(s: &State) -> ToAct {
    match s.phase {
        Phase::AwaitShuffle => ToAct {
            actors: Vec::new(),
            shuffle: Some(s.shuffle_request()),
        },
        Phase::Playing if !s.now.over => ToAct {
            actors: vec![Actor::Seat(s.turn)],
            shuffle: None,
        },
        _ => ToAct::default(),
    }
}
