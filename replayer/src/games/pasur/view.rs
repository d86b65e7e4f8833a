//! What one viewer may see: the cards only through the core's zones, plus public facts
//! (§5.1: the table, surs, the turn, the deal and the play count are public; every card in
//! a captured pile was shown when taken; the hands are private).

use serde::Serialize;

use super::legal::to_act;
use super::state::{deals, Match, Phase, SideScore, State, SurMark};
use crate::engine::{Actor, SeatIndex, Viewer};
use crate::zones::{CardView, ZoneId, ZonesView};

/// One viewer's view of a hand.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct View {
    /// Who looks.
    pub viewer: Viewer,
    /// Number of seats.
    pub seats: u8,
    /// The seats of each side.
    pub sides: Vec<Vec<SeatIndex>>,
    /// The phase.
    pub phase: Phase,
    /// Who may act now.
    pub to_act: Vec<Actor>,
    /// Whether the committed shuffle is awaited.
    pub awaiting_shuffle: bool,
    /// The dealer.
    pub dealer: SeatIndex,
    /// Whose turn it is.
    pub turn: SeatIndex,
    /// The current deal, 1 to `deals` (0 before the first).
    pub deal: u8,
    /// Deals in the hand.
    pub deals: u8,
    /// Plays so far, 0 to 48.
    pub plays: u8,
    /// Cards left in the stock.
    pub stock: usize,
    /// The table's cards, face up.
    pub table: Vec<CardView>,
    /// Cards in each seat's hand.
    pub hand_sizes: Vec<usize>,
    /// Cards each seat has captured.
    pub captured: Vec<usize>,
    /// Surs per side.
    pub surs: Vec<u32>,
    /// Every sur, in order.
    pub sur_marks: Vec<SurMark>,
    /// The last capturer.
    pub last_capturer: Option<SeatIndex>,
    /// The hand's score per side, once scored.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub scored: Vec<SideScore>,
    /// The match as it stands.
    #[serde(rename = "match")]
    pub match_now: Match,
    /// Every card of the hand, zone by zone, faces only where the viewer may see them.
    pub zones: ZonesView,
}

pub(super) fn view(s: &State, viewer: Viewer) -> View {
    let seats: Vec<SeatIndex> = (0..s.n).map(SeatIndex).collect();
    View {
        viewer,
        seats: s.n,
        sides: super::state::side_seats(s.n, s.sides),
        phase: s.phase,
        to_act: to_act(s).actors,
        awaiting_shuffle: s.phase == Phase::AwaitShuffle,
        dealer: s.dealer,
        turn: s.turn,
        deal: s.deal_no,
        deals: deals(s.n),
        plays: s.plays,
        stock: s.zones.len(ZoneId::Stock),
        table: s.zones.zone_view(ZoneId::Table, viewer),
        hand_sizes: seats
            .iter()
            .map(|x| s.zones.len(ZoneId::Hand(*x)))
            .collect(),
        captured: seats.iter().map(|x| s.zones.len(ZoneId::Won(*x))).collect(),
        surs: s.surs.clone(),
        sur_marks: s.sur_marks.clone(),
        last_capturer: s.last_capturer,
        scored: s.scored.clone(),
        match_now: s.now.clone(),
        zones: s.zones.view(viewer),
    }
}
