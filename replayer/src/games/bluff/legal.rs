//! Who may act and with what (spec §5.2).

use super::action::Legal;
use super::rules::{FollowCount, NewRankAfterLap};
use super::state::{LeadReason, Phase, State};
use crate::cards::Rank;
use crate::engine::{Actor, SeatIndex, ToAct};
use crate::zones::ZoneId;

fn as_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// The legal actions of `actor` (see [`crate::engine::Game::legal_actions`]).
pub(super) fn legal_actions(s: &State, actor: Actor) -> Vec<Legal> {
    let seat = match actor {
        Actor::Seat(x) if x.0 < s.seats => x,
        _ => return Vec::new(),
    };
    if s.phase != Phase::Play {
        return Vec::new();
    }
    if seat != s.turn {
        return if s.may_request(seat) {
            vec![Legal::RequestChallenge]
        } else {
            Vec::new()
        };
    }
    let mut v = Vec::new();
    if let Some(last) = s.last_play() {
        if last.seat != seat {
            v.push(Legal::Challenge);
        }
        v.push(Legal::NoChallenge);
    }
    if s.final_window() {
        return v;
    }
    let cards = s.zones.refs_in(ZoneId::Hand(seat));
    let cap = as_u32(s.cap(seat));
    match s.round_rank {
        None => {
            let banned = (s.lead_reason == LeadReason::AfterLap
                && s.rules.new_rank_after_lap == NewRankAfterLap::MustDiffer)
                .then_some(s.ended_round_rank)
                .flatten();
            v.push(Legal::Lead {
                cards,
                max: cap,
                ranks: Rank::ALL
                    .into_iter()
                    .filter(|r| Some(*r) != banned)
                    .collect(),
            });
        }
        Some(rank) => {
            let (min, max) = match s.rules.follow_count {
                FollowCount::Free => (1, cap),
                FollowCount::SameAsLead => {
                    let k = s.lead_count.min(as_u32(s.held(seat)));
                    (k, k)
                }
            };
            v.push(Legal::Follow {
                cards,
                rank,
                min,
                max,
            });
            if s.rules.allow_pass {
                v.push(Legal::Pass);
            }
        }
    }
    v
}

/// Who the hand waits for (see [`crate::engine::Game::to_act`]): the seat whose turn it is,
/// then the seats that may ask for a challenge; or a committed shuffle.
pub(super) fn to_act(s: &State) -> ToAct {
    if let Some(req) = s.shuffle_request() {
        return ToAct {
            actors: Vec::new(),
            shuffle: Some(req),
        };
    }
    if s.phase != Phase::Play {
        return ToAct::default();
    }
    let mut actors = vec![Actor::Seat(s.turn)];
    actors.extend(
        (0..s.seats)
            .map(SeatIndex)
            .filter(|x| s.may_request(*x))
            .map(Actor::Seat),
    );
    ToAct {
        actors,
        shuffle: None,
    }
}
