//! Who may act and with what (spec §6.3).

use super::action::Legal;
use super::state::{Phase, State};
use crate::engine::{Actor, SeatIndex, ToAct};

/// The side bet range of `seat` on the current hand, if it may side-bet (§5.5).
fn side_bet_range(s: &State, seat: SeatIndex) -> Option<Legal> {
    let d = s.duel.as_ref()?;
    if !s.rules.side_bets
        || !d.side_open
        || seat.0 >= s.seats
        || Some(seat) == s.banker
        || seat == d.player
        || s.escrow.iter().any(|st| st.seat == seat)
    {
        return None;
    }
    let min = s.rules.min_bet;
    let mut max = s.bal(seat).min(s.bank.saturating_sub(s.exposure()));
    if let Some(x) = s.rules.stake_cap() {
        max = max.min(x);
    }
    (min <= max).then_some(Legal::SideBet { min, max })
}

/// The legal actions of `actor` (see [`crate::engine::Game::legal_actions`]).
pub(super) fn legal_actions(s: &State, actor: Actor) -> Vec<Legal> {
    let seat = match actor {
        Actor::Seat(x) if x.0 < s.seats => Some(x),
        _ => None,
    };
    let is = |who: Option<SeatIndex>| seat.is_some() && seat == who;
    let p = s.duel_player();
    match s.phase {
        Phase::BankOffer => {
            if actor == Actor::Service {
                vec![Legal::EndMatch]
            } else if is(Some(s.candidate)) {
                let mut v = Vec::new();
                if s.bal(s.candidate) >= s.rules.bank_stake {
                    v.push(Legal::AcceptBank);
                }
                v.push(Legal::DeclineBank);
                v
            } else {
                Vec::new()
            }
        }
        Phase::RoundStart => {
            if actor == Actor::Service {
                vec![Legal::EndMatch]
            } else if is(s.banker) {
                let mut v = Vec::new();
                if !s.khabar && s.bank >= s.threshold() {
                    v.push(Legal::AnnounceKhabar);
                }
                v.push(Legal::Deal);
                v
            } else {
                Vec::new()
            }
        }
        Phase::SwapDecision if is(s.banker) => vec![Legal::Swap, Legal::Keep],
        Phase::AwaitBet if is(p) => {
            let (lo, hi) = s.bet_limits();
            let max = hi.min(seat.map(|x| s.bal(x)).unwrap_or(0));
            if lo <= max {
                vec![Legal::Bet { min: lo, max }]
            } else {
                Vec::new()
            }
        }
        Phase::PlayerTurn => {
            if is(p) {
                let hand = s.duel_cards();
                let expose = if hand.len() >= 3 {
                    hand.iter()
                        .filter(|h| !h.seen.is_public())
                        .map(|h| h.face)
                        .collect()
                } else {
                    Vec::new()
                };
                vec![Legal::Hit { expose }, Legal::Stand]
            } else {
                seat.and_then(|x| side_bet_range(s, x))
                    .into_iter()
                    .collect()
            }
        }
        Phase::FaceChoice if is(s.banker) => vec![Legal::DealFaceUp, Legal::DealFaceDown],
        Phase::AwaitSuz if is(p) => vec![Legal::AnnounceSuz],
        Phase::BankerTurn if is(s.banker) => vec![Legal::BankerHit, Legal::BankerStand],
        _ => Vec::new(),
    }
}

/// Who the hand waits for (see [`crate::engine::Game::to_act`]): the main actor first, then
/// the other seats with a legal action (side bettors), then the service.
pub(super) fn to_act(s: &State) -> ToAct {
    if let Phase::AwaitShuffle { reason, .. } = s.phase {
        return ToAct {
            actors: Vec::new(),
            shuffle: Some(s.shuffle_request(reason)),
        };
    }
    let main = match s.phase {
        Phase::BankOffer => Some(s.candidate),
        Phase::RoundStart | Phase::SwapDecision | Phase::FaceChoice | Phase::BankerTurn => s.banker,
        Phase::AwaitBet | Phase::PlayerTurn | Phase::AwaitSuz => s.duel_player(),
        _ => None,
    };
    let mut actors = Vec::new();
    if let Some(m) = main {
        if !legal_actions(s, Actor::Seat(m)).is_empty() {
            actors.push(Actor::Seat(m));
        }
    }
    for i in 0..s.seats {
        let x = SeatIndex(i);
        if Some(x) != main && !legal_actions(s, Actor::Seat(x)).is_empty() {
            actors.push(Actor::Seat(x));
        }
    }
    if !legal_actions(s, Actor::Service).is_empty() {
        actors.push(Actor::Service);
    }
    ToAct {
        actors,
        shuffle: None,
    }
}
