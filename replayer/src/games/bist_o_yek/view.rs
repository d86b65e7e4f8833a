//! What one viewer may see (spec §6.2 rule 5): the cards only through the core's zones,
//! plus public facts. The JSON keeps the shape it had before the cards moved into zones.

use serde::Serialize;

use super::legal::to_act;
use super::state::{Phase, Stake, State, DISCARD, STOCK};
use crate::cards::Card;
use crate::engine::{Actor, CardRef, SeatIndex, Toman, Viewer};
use crate::zones::Placed;

/// One card as a viewer sees it: always its public name, its face only if the viewer may
/// see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct CardView {
    /// Which card.
    pub card: CardRef,
    /// Whether it lies face up.
    pub face_up: bool,
    /// The face, if the viewer may see it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub face: Option<Card>,
}

/// A player's first card, dealt ahead of his duel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct WaitingView {
    /// The player.
    pub seat: SeatIndex,
    /// His card (face down).
    pub card: CardView,
}

/// The banker's face-down card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct HiddenView {
    /// The card (face only for the banker and for `Viewer::All`).
    pub card: CardView,
    /// It survived a duel unrevealed (after a suz).
    pub carried: bool,
}

/// The duel in progress.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DuelView {
    /// The player.
    pub player: SeatIndex,
    /// His hand.
    pub cards: Vec<CardView>,
    /// His total, when the viewer sees every card of the hand.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total: Option<u32>,
    /// Whether side bets may be placed on this hand now.
    pub side_open: bool,
    /// Whether the banker's swap was already offered in this duel.
    pub swap_offered: bool,
}

/// The bet limits with the bank as it stands (§5.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct BetLimits {
    /// Smallest main bet: `min(min_bet, bank)`.
    pub lo: Toman,
    /// Largest main bet: the bank, or `min(bank, x)` under `fixed(x)`.
    pub hi: Toman,
}

/// What a viewer sees of a hand.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct View {
    /// Who looks.
    pub viewer: Viewer,
    /// The hand's number in the match.
    pub turn: u32,
    /// The round of the banker's turn (0 before the first deal).
    pub round: u32,
    /// The phase.
    pub phase: Phase,
    /// Who may act now.
    pub to_act: Vec<Actor>,
    /// Every seat's balance.
    pub balances: Vec<Toman>,
    /// The bank.
    pub bank: Toman,
    /// What the banker posted.
    pub stake: Toman,
    /// The banker, once the bank is accepted.
    pub banker: Option<SeatIndex>,
    /// The bank candidate (during the offers).
    pub candidate: SeatIndex,
    /// Consecutive declined offers.
    pub declines: u8,
    /// Whether bank khabar was announced this turn.
    pub khabar: bool,
    /// The bank khabar threshold, once there is a banker.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub khabar_threshold: Option<Toman>,
    /// The bet limits, once there is a banker.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bet_limits: Option<BetLimits>,
    /// The stakes on the current duel.
    pub escrow: Vec<Stake>,
    /// Players still to duel this round, in order.
    pub queue: Vec<SeatIndex>,
    /// First cards dealt ahead of the duels.
    pub waiting: Vec<WaitingView>,
    /// The banker's face-down card.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hidden: Option<HiddenView>,
    /// The duel in progress.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duel: Option<DuelView>,
    /// The banker's face-up hand.
    pub banker_cards: Vec<CardView>,
    /// The banker's total, once he has cards up.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub banker_total: Option<u32>,
    /// Cards in the stock (never their order).
    pub stock: usize,
    /// Cards on the discard pile.
    pub discard: usize,
    /// The faces on the discard pile that the table saw (L52: players keep track of the
    /// cards gone).
    pub discard_seen: Vec<Card>,
}

/// A card as `viewer` sees it, from its zone: face up when everyone may see it, its face
/// only where `viewer` may.
fn card_view(p: &Placed, viewer: Viewer) -> CardView {
    CardView {
        card: p.r,
        face_up: p.seen.is_public(),
        face: p.seen.by(viewer).then_some(p.face),
    }
}

/// The view of `viewer` (see [`crate::engine::Game::view`]): every card through the zones,
/// so that a face is shown exactly where its zone lets `viewer` see it.
pub(super) fn view(s: &State, viewer: Viewer) -> View {
    let waiting = (0..s.seats)
        .map(SeatIndex)
        .filter_map(|seat| {
            s.waiting(seat).map(|p| WaitingView {
                seat,
                card: card_view(p, viewer),
            })
        })
        .collect();
    let hidden = s.hidden().map(|p| HiddenView {
        card: card_view(p, viewer),
        carried: s.carried,
    });
    let duel = s.duel.as_ref().map(|d| {
        let hand = s.duel_cards();
        let whole = hand.iter().all(|p| p.seen.by(viewer));
        DuelView {
            player: d.player,
            cards: hand.iter().map(|p| card_view(p, viewer)).collect(),
            total: (whole && !hand.is_empty()).then(|| s.player_total()),
            side_open: d.side_open,
            swap_offered: d.swap_offered,
        }
    });
    let up = s.banker_cards();
    let banker_cards: Vec<CardView> = up.iter().map(|p| card_view(p, viewer)).collect();
    let banker_total =
        (!up.is_empty() && up.iter().all(|p| p.seen.by(viewer))).then(|| s.banker_total());
    View {
        viewer,
        turn: s.turn,
        round: s.round,
        phase: s.phase,
        to_act: to_act(s).actors,
        balances: s.balance.clone(),
        bank: s.bank,
        stake: s.stake,
        banker: s.banker,
        candidate: s.candidate,
        declines: s.declines,
        khabar: s.khabar,
        khabar_threshold: s.banker.map(|_| s.threshold()),
        bet_limits: s.banker.map(|_| {
            let (lo, hi) = s.bet_limits();
            BetLimits { lo, hi }
        }),
        escrow: s.escrow.clone(),
        queue: s.queue.clone(),
        waiting,
        hidden,
        duel,
        banker_total,
        banker_cards,
        stock: s.zones.len(STOCK),
        discard: s.discard_len(),
        discard_seen: s
            .zones
            .cards(DISCARD)
            .iter()
            .filter(|p| p.seen.is_public())
            .map(|p| p.face)
            .collect(),
    }
}
