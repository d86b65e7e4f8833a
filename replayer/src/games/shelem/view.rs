//! What one viewer may see: the cards only through the core's zones, plus public facts.

use serde::Serialize;

use super::legal::to_act;
use super::state::{pile_zone, Call, Match, Phase, Row, State, WIDOW};
use crate::engine::{Actor, SeatIndex, Viewer};
use crate::games::tricks::SuitCode;
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
    /// Whether the committed deck is awaited.
    pub awaiting_shuffle: bool,
    /// The dealer.
    pub dealer: SeatIndex,
    /// The cut of the deal (0: none).
    pub cut: u32,
    /// The auction so far, in order.
    pub calls: Vec<Call>,
    /// The high bid and its bidder.
    pub high: Option<(SeatIndex, u32)>,
    /// The hakem, once the auction is won.
    pub hakem: Option<SeatIndex>,
    /// The contract.
    pub contract: Option<u32>,
    /// Trump, once led.
    pub trump: Option<SuitCode>,
    /// Who leads the current trick.
    pub leader: SeatIndex,
    /// The current trick, in play order.
    pub trick: Vec<CardView>,
    /// Who played each card of the current trick (2 players: the leader and the other
    /// twice each, hand cards then pile cards).
    pub trick_seats: Vec<SeatIndex>,
    /// Tricks won by each seat.
    pub tricks_won: Vec<u8>,
    /// Tricks won by each team.
    pub team_tricks: [u8; 2],
    /// The widow while it lies on the table (faces hidden from everyone).
    pub widow: Vec<CardView>,
    /// The cards laid away (faces seen by the hakem, by everyone after the count).
    pub laid_away: Vec<CardView>,
    /// 2 players: each seat's three piles, top first (face-up tops with their faces).
    pub piles: Vec<Vec<Vec<CardView>>>,
    /// The hand's row on the sheet, once scored.
    pub row: Option<Row>,
    /// The match as it stands (totals, the sheet, the next dealer).
    #[serde(rename = "match")]
    pub match_now: Match,
    /// Every card of the hand, zone by zone, faces only where the viewer may see them.
    pub zones: ZonesView,
}

pub(super) fn view(s: &State, viewer: Viewer) -> View {
    let t = to_act(s);
    let piles = if s.n == 2 {
        (0..2u8)
            .map(|seat| {
                (1..=3u8)
                    .map(|p| {
                        let mut v = s.zones.zone_view(pile_zone(SeatIndex(seat), p), viewer);
                        if s.rules.pile_top == super::rules::PileTop::LastDealt {
                            v.reverse();
                        }
                        v
                    })
                    .collect()
            })
            .collect()
    } else {
        Vec::new()
    };
    View {
        viewer,
        seats: s.n,
        phase: s.phase,
        to_act: t.actors,
        awaiting_shuffle: s.phase == Phase::AwaitShuffle,
        dealer: s.dealer,
        cut: s.cut,
        calls: s.calls.clone(),
        high: s.high(),
        hakem: s.hakem,
        contract: s.contract,
        trump: s.trump.map(SuitCode),
        leader: s.leader,
        trick: s.zones.zone_view(ZoneId::Trick, viewer),
        trick_seats: s.trick_seats.clone(),
        tricks_won: s.won.clone(),
        team_tricks: s.team_tricks(),
        widow: s.zones.zone_view(WIDOW, viewer),
        laid_away: s.zones.zone_view(ZoneId::Discard, viewer),
        piles,
        row: s.row.clone(),
        match_now: s.now.clone(),
        zones: s.zones.view(viewer),
    }
}
