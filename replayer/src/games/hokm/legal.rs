//! Who may act and with what (spec §14.1).

use super::action::Legal;
use super::decide::{declarable, drawer, playable, ten_low_refusal};
use super::rules::{SuitCode, TrumpMethod};
use super::state::{cutter, dealer, side_seats, Phase, State};
use crate::engine::{Actor, SeatIndex, ToAct};
use crate::zones::ZoneId;

/// The seat the phase waits for, if any.
pub(super) fn main_actor(s: &State) -> Option<SeatIndex> {
    let h = s.hakem?;
    match s.phase {
        Phase::AwaitShuffle { .. } | Phase::HandOver => None,
        Phase::AwaitingCut => Some(cutter(h, s.table())),
        Phase::AwaitingTrump | Phase::FallbackTrump { .. } => Some(h),
        Phase::AwaitingDiscard { seat } | Phase::AwaitingBam { seat } => Some(seat),
        Phase::DrawTurn { turn } => Some(drawer(s, turn)),
        Phase::AwaitingDealerPeek => Some(dealer(h, s.table())),
        Phase::Playing => Some(s.to_play()),
    }
}

/// Whether the hand runs and the service may adjudicate (§12.3).
fn service_may_act(s: &State) -> bool {
    !s.now.over && !matches!(s.phase, Phase::AwaitShuffle { .. } | Phase::HandOver)
}

/// The legal actions of `actor` (see [`crate::engine::Game::legal_actions`]).
pub(super) fn legal_actions(s: &State, actor: Actor) -> Vec<Legal> {
    if actor == Actor::Service {
        return if service_may_act(s) {
            vec![Legal::AwardCheatingPenalty {
                sides: side_seats(s.table()),
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
    let n = s.n;
    match s.phase {
        Phase::AwaitingCut => vec![Legal::Cut {
            min: 1,
            max: s.deck_len.saturating_sub(1),
        }],
        Phase::AwaitingTrump => {
            let mut v = Vec::new();
            if s.rules.method_allowed(TrumpMethod::Direct, n) {
                v.push(Legal::DeclareTrump {
                    suits: declarable(s).into_iter().map(SuitCode).collect(),
                });
            }
            if ten_low_refusal(s).is_none() {
                v.push(Legal::RequestTenLowRedeal);
            }
            for (m, l) in [
                (TrumpMethod::SarGhermez, Legal::CallSarGhermez),
                (TrumpMethod::SarSiah, Legal::CallSarSiah),
                (TrumpMethod::BargVasat, Legal::CallBargVasat),
                (TrumpMethod::YaXYaY, Legal::CallYa),
            ] {
                if s.rules.method_allowed(m, n) {
                    v.push(l);
                }
            }
            v
        }
        Phase::FallbackTrump { .. } => vec![Legal::DeclareTrump {
            suits: declarable(s).into_iter().map(SuitCode).collect(),
        }],
        Phase::AwaitingDiscard { .. } => vec![Legal::Discard {
            count: if Some(seat) == s.hakem { 3 } else { 2 },
            from: s.zones.refs_in(ZoneId::Hand(seat)),
        }],
        Phase::DrawTurn { turn } if turn >= 21 => vec![Legal::ChooseFinal {
            cards: s.zones.refs_in(ZoneId::Stock).into_iter().take(2).collect(),
        }],
        Phase::DrawTurn { .. } => vec![Legal::KeepFirst, Legal::TakeSecond],
        Phase::AwaitingDealerPeek => vec![
            Legal::PeekPartnerPacket { rounds: vec![2, 3] },
            Legal::DeclinePeek,
        ],
        Phase::Playing => vec![Legal::Play {
            cards: playable(s, seat),
        }],
        Phase::AwaitingBam { .. } => vec![Legal::ContinueForBam, Legal::EndHand],
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
