//! Bist-o-yek on the core's zones: where each card lies and who may see its face (§6.2
//! rules 1 and 5), no view showing a face its viewer may not see, and a lost or doubled card
//! caught by the dealer's fold (rule `cards`), live and when a recorded hand is folded again.

use super::*;
use crate::dealer::{DealerError, HandParams, LiveHand, SeedSource};
use crate::engine::{leak_of, CardRef, Engine, GameId, Standings, ToAct};
use crate::log::{Record, SeatInfo, SigningKeyPair};
use crate::zones::{Seen, ZoneId, Zones};
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use serde_json::json;

fn seat(i: u8) -> SeatIndex {
    SeatIndex(i)
}

/// Three seats in the middle of a duel: the banker s0 holds J♠ face down, s1's hand is 10♦
/// and 7♥ face down, s2's first card 8♥ waits face down.
fn mid_duel() -> Table {
    let mut t = Table::started(
        Rules::default(),
        &[5000, 1000, 1000],
        "JS 10D 8H 7H 8S QD 9D 6C",
    );
    t.act(s(0), Action::Deal);
    t.act(s(1), bet(200));
    t.act(s(1), hit());
    t
}

fn placed(t: &Table, zone: ZoneId) -> Vec<(Card, Seen)> {
    t.st.zones
        .cards(zone)
        .iter()
        .map(|p| (p.face, p.seen))
        .collect()
}

#[test]
fn before_the_first_shuffle_no_card_is_named() {
    let mut t = Table::new(Rules::default(), &[5000, 1000]);
    assert_eq!(t.st.zones.total(), 0);
    assert_eq!(BistOYek::view(&t.st, Viewer::Public).discard, 36);
    t.act(s(0), Action::AcceptBank);
    assert_eq!(t.st.zones.total(), 0, "the shuffle is not in yet");
    t.shuffle(&order(""));
    assert_eq!(t.st.zones.len(STOCK), 36);
    assert_eq!(BistOYek::view(&t.st, Viewer::Public).discard, 0);
}

#[test]
fn every_card_lies_in_its_zone_seen_by_whom_the_spec_says() {
    let mut t = mid_duel();
    let only = |i| Seen::seat(seat(i));
    assert_eq!(placed(&t, hidden_zone(seat(0))), vec![(c("JS"), only(0))]);
    assert_eq!(
        placed(&t, duel_zone(seat(1))),
        vec![(c("10D"), only(1)), (c("7H"), only(1))]
    );
    assert_eq!(placed(&t, waiting_zone(seat(2))), vec![(c("8H"), only(2))]);
    assert_eq!(t.st.zones.len(STOCK), 32);
    assert!(t
        .st
        .zones
        .cards(STOCK)
        .iter()
        .all(|p| p.seen == Seen::NOBODY));
    // Standing: the banker's card is turned up (step D) and joins his face-up hand.
    t.act(s(1), Action::Stand);
    assert_eq!(t.phase(), Phase::BankerTurn);
    assert!(t.st.zones.is_empty(hidden_zone(seat(0))));
    assert_eq!(placed(&t, BANKER_UP), vec![(c("JS"), Seen::EVERYONE)]);
    // He draws 8♠ face up (10) and stands; the showdown turns the player's hand up (17, S3)
    // and both hands go to the discard pile, seen by the table.
    t.act(s(0), Action::BankerHit);
    assert_eq!(
        placed(&t, BANKER_UP),
        vec![(c("JS"), Seen::EVERYONE), (c("8S"), Seen::EVERYONE)]
    );
    t.act(s(0), Action::BankerStand);
    assert_eq!(
        placed(&t, DISCARD),
        vec![
            (c("10D"), Seen::EVERYONE),
            (c("7H"), Seen::EVERYONE),
            (c("JS"), Seen::EVERYONE),
            (c("8S"), Seen::EVERYONE)
        ]
    );
    assert!(t.st.zones.is_empty(duel_zone(seat(1))));
    assert!(t.st.zones.is_empty(BANKER_UP));
    // Seat 2's duel: a fresh banker card, and his waiting 8♥ taken up into his hand.
    assert_eq!(placed(&t, hidden_zone(seat(0))), vec![(c("QD"), only(0))]);
    assert!(t.st.zones.is_empty(waiting_zone(seat(2))));
    assert_eq!(placed(&t, duel_zone(seat(2))), vec![(c("8H"), only(2))]);
}

#[test]
fn a_card_discarded_unseen_keeps_only_the_seat_that_saw_it() {
    // TV-2: after s1's suz, the banker swaps his carried J♠ out, unseen by the table.
    let mut t = Table::started(
        Rules::default(),
        &[5000, 1000, 1000],
        "JS 10D 8H 7H 8S QD 9D 6C",
    );
    t.act(s(0), Action::Deal);
    t.act(s(1), bet(200));
    t.act(s(1), hit());
    t.act(s(1), hit());
    t.act(s(1), Action::AnnounceSuz);
    t.act(s(0), Action::Swap);
    let js = t.st.zones.find_face(DISCARD, c("JS")).copied();
    assert_eq!(js.map(|p| p.seen), Some(Seen::seat(seat(0))));
    for viewer in [Viewer::Public, Viewer::Seat(seat(0)), Viewer::Seat(seat(1))] {
        let v = BistOYek::view(&t.st, viewer);
        assert!(!v.discard_seen.contains(&c("JS")), "{viewer:?}");
    }
}

#[test]
fn a_full_shuffle_gathers_every_card_under_new_names() {
    let rules = Rules {
        shuffle_every_round: true,
        ..Rules::default()
    };
    let mut t = Table::started(rules, &[5000, 1000], "9C 10D");
    t.act(s(0), Action::Deal);
    t.act(s(1), bet(50));
    t.act(s(1), Action::Stand);
    t.act(s(0), Action::BankerStand);
    // The round is over: every card is gathered under the names of shuffle 1.
    let mut again = order("");
    again.reverse();
    t.shuffle(&again);
    assert_eq!(t.st.zones.len(STOCK), 36);
    assert!(t.st.zones.iter().all(|(_, p)| p.r.shuffle == 1));
    assert_eq!(t.st.zones.faces(STOCK), again);
    assert_eq!(t.replay(), t.st);
}

/// Every viewer's view at every step of a hand is unchanged when the faces it may not see
/// are swapped among themselves.
fn assert_no_leak(st: &State) {
    let mut viewers = vec![Viewer::Public];
    viewers.extend((0..st.seats).map(|i| Viewer::Seat(seat(i))));
    for v in viewers {
        for seed in [1u64, 2, 3, 17, 99, 1234] {
            assert_eq!(leak_of::<BistOYek>(st, v, seed), None);
        }
    }
}

#[test]
fn no_view_shows_a_face_its_viewer_may_not_see() {
    // The banker's card, a waiting card and a player's face-down cards, then face up.
    let mut t = mid_duel();
    assert_no_leak(&t.st);
    t.act(s(1), Action::Stand);
    assert_no_leak(&t.st);
    t.act(s(0), Action::BankerHit);
    t.act(s(0), Action::BankerStand);
    assert_no_leak(&t.st);
    // TV-5, the three-card rule: a face-down card exposed, or one dealt face up.
    for expose in [true, false] {
        let mut t = Table::started(Rules::default(), &[5000, 1000], "9C JS QS 6C 7D");
        t.act(s(0), Action::Deal);
        t.act(s(1), bet(100));
        t.act(s(1), hit());
        t.act(s(1), hit());
        assert_no_leak(&t.st);
        if expose {
            t.act(s(1), hit_exposing("JS"));
        } else {
            t.act(s(1), hit());
            assert_no_leak(&t.st);
            t.act(s(0), Action::DealFaceUp);
        }
        assert_eq!(t.st.player_total(), 18);
        assert_no_leak(&t.st);
    }
}

#[test]
fn scrambling_what_one_seat_may_not_see_moves_faces_other_seats_see() {
    // The check has teeth: the faces seat 1 may not see include the banker's J♠ and seat
    // 2's 8♥, so scrambling them changes the banker's or seat 2's own view, never seat 1's.
    let t = mid_duel();
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut others_changed = false;
    for _ in 0..20 {
        let mut other = t.st.clone();
        BistOYek::zones_mut(&mut other).scramble_hidden(Viewer::Seat(seat(1)), |n| {
            usize::try_from(rng.next_u64() % u64::try_from(n).unwrap()).unwrap()
        });
        assert_eq!(
            BistOYek::view(&other, Viewer::Seat(seat(1))),
            BistOYek::view(&t.st, Viewer::Seat(seat(1)))
        );
        others_changed |= BistOYek::view(&other, Viewer::Seat(seat(0)))
            != BistOYek::view(&t.st, Viewer::Seat(seat(0)))
            || BistOYek::view(&other, Viewer::Seat(seat(2)))
                != BistOYek::view(&t.st, Viewer::Seat(seat(2)));
    }
    assert!(others_changed);
}

#[test]
fn a_view_showing_the_banker_card_to_another_seat_is_caught() {
    let t = mid_duel();
    let caught = (1u64..=20)
        .any(|seed| leak_of::<Faulty<PEEK>>(&t.st, Viewer::Seat(seat(1)), seed).is_some());
    assert!(
        caught,
        "the no-leak check missed the banker's J♠ shown to seat 1"
    );
    // The banker may see his own card: no leak in his view.
    for seed in 1u64..=20 {
        assert_eq!(
            leak_of::<Faulty<PEEK>>(&t.st, Viewer::Seat(seat(0)), seed),
            None
        );
    }
}

// ---- a faulty engine in the dealer: rule `cards` ----------------------------------------

/// Bist-o-yek with one fault: the banker's hidden card shown to every seat (`PEEK`), or lost
/// (`LOSE`) or doubled onto the discard pile (`DOUBLE`) as it is dealt.
struct Faulty<const F: u8>;

const PEEK: u8 = 0;
const LOSE: u8 = 1;
const DOUBLE: u8 = 2;

impl<const F: u8> Game for Faulty<F> {
    const ID: GameId = GameId::BistOYek;
    const MIN_SEATS: u8 = MIN_SEATS;
    const MAX_SEATS: u8 = MAX_SEATS;

    type Rules = Rules;
    type Setup = Setup;
    type Match = Match;
    type State = State;
    type Action = Action;
    type Legal = Legal;
    type Effect = Effect;
    type View = View;
    type Outcome = Outcome;

    fn deck(rules: &Rules, m: &Match) -> DeckKind {
        BistOYek::deck(rules, m)
    }
    fn new_match(rules: &Rules, setup: &Setup) -> Result<Match, crate::engine::SetupError> {
        BistOYek::new_match(rules, setup)
    }
    fn new_hand(rules: &Rules, m: &Match) -> Result<State, crate::engine::SetupError> {
        BistOYek::new_hand(rules, m)
    }
    fn to_act(state: &State) -> ToAct {
        BistOYek::to_act(state)
    }
    fn legal_actions(state: &State, actor: Actor) -> Vec<Legal> {
        BistOYek::legal_actions(state, actor)
    }
    fn decide(state: &State, actor: Actor, action: &Action) -> Result<Vec<Effect>, Violation> {
        BistOYek::decide(state, actor, action)
    }
    fn decide_shuffle(
        state: &State,
        shuffle: u32,
        order: &[Card],
    ) -> Result<Vec<Effect>, Violation> {
        BistOYek::decide_shuffle(state, shuffle, order)
    }
    fn evolve(state: &mut State, effect: &Effect, order: Option<&[Card]>) {
        BistOYek::evolve(state, effect, order);
        if let Effect::HiddenDealt { card } = effect {
            match F {
                LOSE => assert!(state.zones.lose_for_test(*card)),
                DOUBLE => assert!(state.zones.duplicate_for_test(*card, DISCARD)),
                _ => {}
            }
        }
    }
    fn view(state: &State, viewer: Viewer) -> View {
        let mut v = BistOYek::view(state, viewer);
        if F == PEEK {
            if let Some(h) = v.hidden.as_mut() {
                h.card.face = state.hidden().map(|p| p.face);
            }
        }
        v
    }
    fn outcome(state: &State) -> Option<Outcome> {
        BistOYek::outcome(state)
    }
    fn next_match(state: &State) -> Option<Match> {
        BistOYek::next_match(state)
    }
    fn results(o: &Outcome) -> Vec<crate::engine::SeatResult> {
        BistOYek::results(o)
    }
    fn zones(state: &State) -> &Zones {
        BistOYek::zones(state)
    }
    fn zones_mut(state: &mut State) -> &mut Zones {
        BistOYek::zones_mut(state)
    }
    fn standings(m: &Match) -> Standings {
        BistOYek::standings(m)
    }
    fn match_over(m: &Match) -> bool {
        BistOYek::match_over(m)
    }
    fn seat_count(m: &Match) -> u8 {
        BistOYek::seat_count(m)
    }
}

static HONEST: Engine<BistOYek> = Engine::new();
static LOSES: Engine<Faulty<LOSE>> = Engine::new();
static DOUBLES: Engine<Faulty<DOUBLE>> = Engine::new();

fn key() -> SigningKeyPair {
    SigningKeyPair::from_secret([0x21; 32])
}

fn params() -> HandParams {
    let rules = json!({});
    let m = BistOYek::new_match(
        &Rules::default(),
        &Setup {
            seats: 2,
            first_banker: seat(0),
            balances: vec![5000, 1000],
        },
    )
    .unwrap();
    HandParams {
        hand_id: "bist-zones-1".into(),
        club: "c".into(),
        table: "t".into(),
        hand_no: 1,
        game: GameId::BistOYek,
        rules,
        match_state: serde_json::to_value(m).unwrap(),
        seats: (0..2)
            .map(|i| SeatInfo {
                seat: seat(i),
                player: format!("p{i}"),
                public_key: None,
            })
            .collect(),
        client_entropy: false,
        prev_hand: None,
    }
}

/// The bank accepted, the new-turn shuffle in: the records so far, the hand at `RoundStart`.
fn started(def: &'static dyn crate::engine::DynGame) -> (LiveHand, Vec<Record>) {
    let (mut hand, mut records) =
        LiveHand::start_with_engine(params(), def, SeedSource::Derived([9; 32]), &key(), 1)
            .unwrap();
    records.extend(hand.settle_after_start(&key(), 1).unwrap());
    records.extend(
        hand.act(s(0), json!({"type": "accept_bank"}), None, &key(), 2)
            .unwrap(),
    );
    assert_eq!(hand.to_act().actors.first(), Some(&s(0)));
    (hand, records)
}

fn cards_rule(err: DealerError) -> (u64, String) {
    match err {
        DealerError::Fold { seq, mismatch } => (seq, mismatch.rule),
        other => panic!("expected a fold mismatch, got {other}"),
    }
}

#[test]
fn a_lost_or_doubled_card_is_caught_live_by_rule_cards() {
    for def in [&LOSES as &'static dyn crate::engine::DynGame, &DOUBLES] {
        let (mut hand, records) = started(def);
        let err = hand
            .act(s(0), json!({"type": "deal"}), None, &key(), 3)
            .unwrap_err();
        assert_eq!(cards_rule(err), (records.len() as u64, "cards".to_string()));
    }
}

#[test]
fn a_lost_or_doubled_card_is_caught_by_rule_cards_when_a_hand_is_folded_again() {
    // An honest hand, folded again through the faulty engines (as verification folds).
    let (mut hand, mut records) = started(&HONEST);
    let deal_seq = records.len() as u64;
    records.extend(
        hand.act(s(0), json!({"type": "deal"}), None, &key(), 3)
            .unwrap(),
    );
    let seeds = hand.server_seeds().to_vec();
    LiveHand::restore_with_engine(&records, seeds.clone(), Vec::new(), SeedSource::Os, &HONEST)
        .unwrap();
    for def in [&LOSES as &'static dyn crate::engine::DynGame, &DOUBLES] {
        let err =
            LiveHand::restore_with_engine(&records, seeds.clone(), Vec::new(), SeedSource::Os, def)
                .unwrap_err();
        assert_eq!(cards_rule(err), (deal_seq, "cards".to_string()));
    }
}

#[test]
fn the_faulty_zones_fail_the_core_check() {
    let mut t = mid_duel();
    let hidden: CardRef = t.st.hidden().unwrap().r;
    let mut lost = t.st.clone();
    assert!(lost.zones.lose_for_test(hidden));
    assert!(BistOYek::zones(&lost).check().is_err());
    assert!(t.st.zones.duplicate_for_test(hidden, DISCARD));
    assert!(BistOYek::zones(&t.st).check().is_err());
}
