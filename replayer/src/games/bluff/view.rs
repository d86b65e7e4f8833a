//! What one viewer may see: cards only through the zones' views (each card by its ref, its
//! face where the viewer may see it), plus public facts.

use serde::Serialize;

use super::legal::to_act;
use super::rank_code;
use super::state::{ChallengeRecord, LeadReason, Phase, State, PILE};
use crate::cards::Rank;
use crate::engine::{Actor, SeatIndex, Viewer};
use crate::zones::{CardView, ZoneId};

/// One seat's hand as a viewer sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HandView {
    /// The seat.
    pub seat: SeatIndex,
    /// How many cards it holds (public).
    pub count: usize,
    /// Its cards: refs, faces only for the seat itself (and `Viewer::All`).
    pub cards: Vec<CardView>,
}

/// One play on the pile.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlayView {
    /// Who played.
    pub seat: SeatIndex,
    /// The claimed rank.
    #[serde(with = "rank_code::one")]
    pub rank: Rank,
    /// The claimed count.
    pub count: usize,
    /// Whether it led its round.
    pub lead: bool,
    /// Its cards: faces only for the seat that played them (and `Viewer::All`, which so
    /// shows every play's true cards once the hand is replayed).
    pub cards: Vec<CardView>,
}

/// What a viewer sees of a hand.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct View {
    /// Who looks.
    pub viewer: Viewer,
    /// Number of seats.
    pub seats: u8,
    /// The dealer.
    pub dealer: SeatIndex,
    /// The phase.
    pub phase: Phase,
    /// Who may act now.
    pub to_act: Vec<Actor>,
    /// Whose turn it is (from the deal to the end of the hand).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub turn: Option<SeatIndex>,
    /// The round's rank; `null` when the next play is a lead.
    #[serde(serialize_with = "rank_code::opt::serialize")]
    pub round_rank: Option<Rank>,
    /// The rank of the round that lapped (a lead after a lap must differ under
    /// `must_differ`).
    #[serde(serialize_with = "rank_code::opt::serialize")]
    pub ended_round_rank: Option<Rank>,
    /// Why the next lead is a lead.
    pub lead_reason: LeadReason,
    /// Seats that played in this round.
    pub played_this_round: Vec<SeatIndex>,
    /// Whether the last play may still be challenged.
    pub window_open: bool,
    /// Seats that asked the next player to challenge it.
    pub requests: Vec<SeatIndex>,
    /// A seat that emptied his hand with the last play.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pending_out: Option<SeatIndex>,
    /// Seats out, in order.
    pub out_order: Vec<SeatIndex>,
    /// The last challenge.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_challenge: Option<ChallengeRecord>,
    /// Every seat's hand.
    pub hands: Vec<HandView>,
    /// Cards on the pile.
    pub pile_size: usize,
    /// The pile's plays, bottom first.
    pub pile: Vec<PlayView>,
    /// Cards set aside (`set_aside_remainder`).
    pub set_aside: Vec<CardView>,
    /// The thief, once the hand is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub thief: Option<SeatIndex>,
}

/// The view of `viewer` (see [`crate::engine::Game::view`]).
pub(super) fn view(s: &State, viewer: Viewer) -> View {
    let pile_cards = s.zones.zone_view(PILE, viewer);
    let pile = s
        .pile
        .iter()
        .map(|p| PlayView {
            seat: p.seat,
            rank: p.rank,
            count: p.cards.len(),
            lead: p.lead,
            cards: pile_cards
                .iter()
                .filter(|c| p.cards.contains(&c.r))
                .copied()
                .collect(),
        })
        .collect();
    View {
        viewer,
        seats: s.seats,
        dealer: s.dealer,
        phase: s.phase,
        to_act: to_act(s).actors,
        turn: matches!(s.phase, Phase::Play | Phase::Relabel { .. }).then_some(s.turn),
        round_rank: s.round_rank,
        ended_round_rank: s.ended_round_rank,
        lead_reason: s.lead_reason,
        played_this_round: s.played_this_round.clone(),
        window_open: s.window_open,
        requests: s.requests.clone(),
        pending_out: s.pending_out,
        out_order: s.out_order.clone(),
        last_challenge: s.last_challenge,
        hands: s
            .all_seats()
            .map(|seat| HandView {
                seat,
                count: s.held(seat),
                cards: s.zones.zone_view(ZoneId::Hand(seat), viewer),
            })
            .collect(),
        pile_size: s.zones.len(PILE),
        pile,
        set_aside: s.zones.zone_view(ZoneId::Out, viewer),
        thief: s.thief,
    }
}
