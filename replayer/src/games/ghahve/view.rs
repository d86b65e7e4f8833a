//! What one viewer may see: the cards only through the core's zones, plus public facts
//! (bids, contracts, tricks, scores). A seat sees its own hand and, after a purchase, the
//! hand it passed on (§8.5); nobody sees another hand's faces.

use serde::Serialize;

use super::legal::to_act;
use super::state::{Commitment, Match, Phase, State, DRAWN};
use crate::engine::{Actor, SeatIndex, Viewer};
use crate::zones::{CardView, ZoneId, ZonesView};

/// One viewer's view of a hand.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct View {
    /// Who looks.
    pub viewer: Viewer,
    /// Number of seats.
    pub seats: u8,
    /// The phase.
    pub phase: Phase,
    /// Who may act now.
    pub to_act: Vec<Actor>,
    /// Whether a committed shuffle is awaited.
    pub awaiting_shuffle: bool,
    /// The dealer (pasur), once known.
    pub dealer: Option<SeatIndex>,
    /// Trump: always spades (§3.3).
    pub trump: &'static str,
    /// The cut of the current deal.
    pub cut: u32,
    /// The current bidding round's bids, per seat.
    pub bids: Vec<Option<u8>>,
    /// The contracts of the last complete bidding round, per team.
    pub contracts: Option<[u8; 2]>,
    /// A purchase the current rebid must honour.
    pub commitment: Option<Commitment>,
    /// Purchases so far in this hand.
    pub buys: u8,
    /// Who leads the current trick.
    pub leader: SeatIndex,
    /// The trick being played, from 1.
    pub trick_no: u8,
    /// Tricks won by each seat.
    pub tricks_won: Vec<u8>,
    /// Tricks won by each team.
    pub team_tricks: [u8; 2],
    /// The black joker has been played.
    pub bj_played: bool,
    /// The coloured joker may be played.
    pub cj_released: bool,
    /// The current trick, in play order from the leader.
    pub trick: Vec<CardView>,
    /// The dealer draw: each face-up card with the seat it went to, in order.
    pub drawn: Vec<DrawnView>,
    /// The match as it stands (scores, next dealer once decided).
    #[serde(rename = "match")]
    pub match_now: Match,
    /// Every card of the hand, zone by zone, faces only where the viewer may see them.
    pub zones: ZonesView,
}

/// One card of the dealer draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct DrawnView {
    /// Who received it.
    pub seat: SeatIndex,
    /// The card (face up).
    pub card: CardView,
}

pub(super) fn view(s: &State, viewer: Viewer) -> View {
    View {
        viewer,
        seats: s.now.seats,
        phase: s.phase,
        to_act: to_act(s).actors,
        awaiting_shuffle: matches!(s.phase, Phase::AwaitShuffle { .. }),
        dealer: s.dealer,
        trump: "S",
        cut: s.cut,
        bids: s.bids.clone(),
        contracts: s.contracts,
        commitment: s.commitment,
        buys: s.buys,
        leader: s.leader,
        trick_no: s.trick_no(),
        tricks_won: s.won.clone(),
        team_tricks: s.team_tricks(),
        bj_played: s.bj_played,
        cj_released: s.cj_released,
        trick: s.zones.zone_view(ZoneId::Trick, viewer),
        drawn: s
            .draw_seats
            .iter()
            .zip(s.zones.zone_view(DRAWN, viewer))
            .map(|(seat, card)| DrawnView { seat: *seat, card })
            .collect(),
        match_now: s.now.clone(),
        zones: s.zones.view(viewer),
    }
}
