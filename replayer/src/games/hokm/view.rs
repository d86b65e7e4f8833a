//! What one viewer may see: the cards only through the core's zones, plus public facts.

use serde::Serialize;

use super::legal::to_act;
use super::rules::{SuitCode, TrumpMethod};
use super::state::{dealer, Match, Phase, State, DRAWN};
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
    /// The hakem, once known.
    pub hakem: Option<SeatIndex>,
    /// The dealer, once the hakem is known.
    pub dealer: Option<SeatIndex>,
    /// Trump, once fixed.
    pub trump: Option<SuitCode>,
    /// The trump method called or used.
    pub method: Option<TrumpMethod>,
    /// The cut of the current deal.
    pub cut: u32,
    /// Ten-low redeals so far in this hand.
    pub redeals: u32,
    /// Who leads the current trick.
    pub leader: SeatIndex,
    /// Tricks won by each seat.
    pub tricks_won: Vec<u8>,
    /// Tricks won by each side.
    pub side_tricks: Vec<u8>,
    /// The side attempting bam.
    pub bam: Option<u8>,
    /// The current trick, in play order from the leader.
    pub trick: Vec<CardView>,
    /// The hakem draw: each face-up card with the seat it went to, in order.
    pub drawn: Vec<DrawnView>,
    /// The match as it stands (scores, rounds, next hakem once decided).
    #[serde(rename = "match")]
    pub match_now: Match,
    /// Every card of the hand, zone by zone, faces only where the viewer may see them.
    pub zones: ZonesView,
}

/// One card of the hakem draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct DrawnView {
    /// Who received it.
    pub seat: SeatIndex,
    /// The card (face up).
    pub card: CardView,
}

pub(super) fn view(s: &State, viewer: Viewer) -> View {
    let t = to_act(s);
    View {
        viewer,
        seats: s.n,
        phase: s.phase,
        to_act: t.actors,
        awaiting_shuffle: matches!(s.phase, Phase::AwaitShuffle { .. }),
        hakem: s.hakem,
        dealer: s.hakem.map(|h| dealer(h, s.table())),
        trump: s.trump.map(SuitCode),
        method: s.method,
        cut: s.cut,
        redeals: s.redeals,
        leader: s.leader,
        tricks_won: s.won.clone(),
        side_tricks: s.side_tricks(),
        bam: s.bam,
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
