//! Property tests: random shuffles, random house rules and random legal play.
//!
//! After every action and every effect: money is conserved, every card is in exactly one
//! place, every face an effect carries is face up in the public view once folded, and no
//! view shows a seat a card it may not see. Every sampled legal action is accepted; for a
//! set of probe actions, `decide` accepts exactly what `legal_actions` lists; a rejected
//! action changes nothing; folding the log from the initial state gives the same state.

use super::*;
use crate::engine::LegalAction;
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

#[derive(Clone, Copy, Debug)]
enum Policy {
    /// Uniform over the seats that may act and their legal actions; the service's EndMatch
    /// now and then.
    Uniform,
    /// No EndMatch, banks accepted, big bets, bank khabar when possible: turns end.
    Aggressive,
    /// No EndMatch, banks accepted, small bets, bank khabar rarely: long turns, restocks.
    Patient,
}

fn below(rng: &mut ChaCha8Rng, n: u64) -> u64 {
    if n == 0 {
        0
    } else {
        rng.next_u64() % n
    }
}

fn chance(rng: &mut ChaCha8Rng, percent: u64) -> bool {
    below(rng, 100) < percent
}

fn pick<'a, T>(rng: &mut ChaCha8Rng, v: &'a [T]) -> Option<&'a T> {
    let i = usize::try_from(below(rng, u64::try_from(v.len()).unwrap())).unwrap();
    v.get(i)
}

/// A uniformly random permutation (Fisher–Yates).
fn permutation(cards: &[Card], rng: &mut ChaCha8Rng) -> Vec<Card> {
    let mut v = cards.to_vec();
    for i in (1..v.len()).rev() {
        let j = usize::try_from(below(rng, u64::try_from(i + 1).unwrap())).unwrap();
        v.swap(i, j);
    }
    v
}

fn arb_rules() -> impl Strategy<Value = Rules> {
    (
        // Huge stakes up to the match limit (MAX_TOTAL over 10 seats of 10 stakes each).
        prop_oneof![1u64..=5000, Just(1000u64), (1u64 << 36)..(1u64 << 43)],
        0u64..=100,
        prop::option::of(0u64..=300),
        2u64..=5,
        any::<bool>(),
        any::<bool>(),
        0u8..3,
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(
            |(
                bank_stake,
                min_pct,
                fixed_pct,
                khabar_multiple,
                side_bets,
                push,
                swap,
                one,
                every,
            )| {
                let min_bet = (bank_stake.saturating_mul(min_pct) / 100).max(1);
                Rules {
                    bank_stake,
                    min_bet,
                    max_bet: match fixed_pct {
                        None => MaxBet::WholeBank,
                        Some(p) => MaxBet::Fixed(min_bet + bank_stake.saturating_mul(p) / 100),
                    },
                    khabar_multiple,
                    side_bets,
                    tie_rule: if push {
                        TieRule::Push
                    } else {
                        TieRule::BankerWins
                    },
                    banker_swap: match swap {
                        0 => BankerSwap::Off,
                        1 => BankerSwap::AfterSuz,
                        _ => BankerSwap::EveryDuel,
                    },
                    deal_mode: if one {
                        DealMode::OneAtATime
                    } else {
                        DealMode::AllFirst
                    },
                    shuffle_every_round: every,
                }
            },
        )
}

fn random_match(rules: &Rules, seats: u8, rng: &mut ChaCha8Rng) -> Match {
    let balances = if chance(rng, 20) {
        Vec::new()
    } else {
        (0..seats)
            .map(|_| {
                if chance(rng, 20) {
                    below(rng, rules.min_bet.saturating_mul(2))
                } else {
                    below(rng, rules.bank_stake.saturating_mul(16))
                        .min(crate::games::bist_o_yek::MAX_TOTAL / u64::from(seats))
                }
            })
            .collect()
    };
    let setup = Setup {
        seats,
        first_banker: SeatIndex(u8::try_from(below(rng, u64::from(seats))).unwrap()),
        balances,
    };
    BistOYek::new_match(rules, &setup).unwrap()
}

/// Pick an actor and an action among the legal ones.
fn choose(st: &State, rng: &mut ChaCha8Rng, policy: Policy) -> Option<(Actor, Action)> {
    let actors = BistOYek::to_act(st).actors;
    let actor = match policy {
        Policy::Uniform => {
            // The service ends the match now and then only.
            let seats: Vec<Actor> = actors
                .iter()
                .copied()
                .filter(|a| *a != Actor::Service)
                .collect();
            if seats.is_empty() || chance(rng, 5) {
                *pick(rng, &actors)?
            } else {
                *pick(rng, &seats)?
            }
        }
        Policy::Aggressive | Policy::Patient => {
            let seats: Vec<Actor> = actors
                .iter()
                .copied()
                .filter(|a| *a != Actor::Service)
                .collect();
            // The main actor comes first; side bettors now and then.
            if seats.len() > 1 && chance(rng, 25) {
                *pick(rng, &seats[1..])?
            } else {
                *seats.first()?
            }
        }
    };
    let legal = BistOYek::legal_actions(st, actor);
    assert!(
        !legal.is_empty(),
        "{actor} listed in to_act without legal actions"
    );
    let l = match policy {
        Policy::Uniform => pick(rng, &legal)?.clone(),
        Policy::Aggressive | Policy::Patient => {
            let khabar = if matches!(policy, Policy::Patient) {
                3
            } else {
                50
            };
            if legal.contains(&Legal::AcceptBank) {
                Legal::AcceptBank
            } else if legal.contains(&Legal::AnnounceKhabar) && chance(rng, khabar) {
                Legal::AnnounceKhabar
            } else {
                let options: Vec<Legal> = legal
                    .iter()
                    .filter(|l| **l != Legal::EndMatch)
                    .cloned()
                    .collect();
                pick(rng, &options)?.clone()
            }
        }
    };
    let action = match (&l, policy) {
        (Legal::Bet { max, .. } | Legal::SideBet { max, .. }, Policy::Aggressive)
            if chance(rng, 60) =>
        {
            if matches!(l, Legal::Bet { .. }) {
                Action::Bet { amount: *max }
            } else {
                Action::SideBet { amount: *max }
            }
        }
        (Legal::Bet { min, .. }, Policy::Patient) if chance(rng, 90) => {
            Action::Bet { amount: *min }
        }
        _ => l.sample(rng),
    };
    assert!(l.allows(&action), "{l:?} sampled {action:?}");
    Some((actor, action))
}

/// The cards `seat` may see the face of without them being face up.
fn own_cards(st: &State, seat: SeatIndex) -> Vec<Card> {
    let mut v: Vec<Card> = st.waiting(seat).map(|w| w.face).into_iter().collect();
    if st.duel_player() == Some(seat) {
        v.extend(st.duel_cards().iter().map(|h| h.face));
    }
    if st.banker == Some(seat) {
        v.extend(st.hidden().map(|h| h.face));
    }
    v
}

/// The checks after each folded effect.
fn check_effect(st: &State, e: &Effect) {
    assert_eq!(
        st.money_now(),
        Some(st.total),
        "money not conserved after {e:?}"
    );
    let public = visible_faces(&BistOYek::view(st, Viewer::Public));
    for f in e.faces() {
        assert!(
            public.contains(&f),
            "{e:?} carries {f}, which is not face up"
        );
    }
}

/// The checks after each action or shuffle.
fn check_state(st: &State) {
    assert_eq!(st.money_now(), Some(st.total), "money not conserved");
    check_cards(st);
    let public = visible_faces(&BistOYek::view(st, Viewer::Public));
    let mut face_up: Vec<Card> = st.banker_cards().iter().map(|h| h.face).collect();
    face_up.extend(
        st.duel_cards()
            .iter()
            .filter(|h| h.seen.is_public())
            .map(|h| h.face),
    );
    face_up.extend(
        st.zones
            .cards(DISCARD)
            .iter()
            .filter(|h| h.seen.is_public())
            .map(|h| h.face),
    );
    face_up.sort();
    let mut p = public.clone();
    p.sort();
    assert_eq!(
        p, face_up,
        "the public view shows exactly the face-up cards"
    );
    for i in 0..st.seats {
        let seat = SeatIndex(i);
        let own = own_cards(st, seat);
        for f in visible_faces(&BistOYek::view(st, Viewer::Seat(seat))) {
            assert!(
                public.contains(&f) || own.contains(&f),
                "{seat} sees {f} which is not his"
            );
        }
    }
    let all = BistOYek::view(st, Viewer::All);
    assert_eq!(
        visible_faces(&all).len(),
        st.zones.total()
            - st.zones.len(STOCK)
            - st.zones
                .cards(DISCARD)
                .iter()
                .filter(|h| !h.seen.is_public())
                .count()
    );
    // Phase-specific shape.
    if st.phase == Phase::PlayerTurn {
        assert!(st.player_total() < 21);
    }
    if st.phase == Phase::AwaitSuz {
        assert!(st.player_total() > 21);
    }
    if st.phase == Phase::BankerTurn {
        assert!(st.banker_total() < 21);
        assert!(st.player_total() <= 21);
    }
    if let Some(d) = &st.duel {
        assert!(st.zones.len(duel_zone(d.player)) <= 9);
        let main: Vec<_> = st.escrow.iter().filter(|s| s.main).collect();
        assert!(main.len() <= 1);
        assert!(main.iter().all(|s| s.seat == d.player));
        assert!(
            st.exposure() <= st.bank,
            "stakes on a hand never exceed the bank"
        );
    } else {
        assert!(st.escrow.is_empty());
    }
}

/// Probe actions: `decide` accepts exactly what `legal_actions` allows, and a rejected
/// action leaves the state unchanged.
fn probe(st: &State, rng: &mut ChaCha8Rng) {
    let (lo, hi) = st.bet_limits();
    let mut amounts = vec![
        0,
        1,
        lo.saturating_sub(1),
        lo,
        lo.saturating_add(1),
        hi.saturating_sub(1),
        hi,
        hi.saturating_add(1),
        st.rules.min_bet.saturating_sub(1),
        st.rules.min_bet,
        st.bank,
        st.bank.saturating_add(1),
        below(rng, hi.saturating_add(2)),
        u64::MAX,
    ];
    amounts.extend(st.balance.iter().flat_map(|b| [*b, b.saturating_add(1)]));
    let mut cands = vec![
        Action::AcceptBank,
        Action::DeclineBank,
        Action::AnnounceKhabar,
        Action::Deal,
        Action::Swap,
        Action::Keep,
        Action::Stand,
        Action::DealFaceUp,
        Action::DealFaceDown,
        Action::AnnounceSuz,
        Action::BankerHit,
        Action::BankerStand,
        Action::EndMatch,
        hit(),
    ];
    for a in &amounts {
        cands.push(bet(*a));
        cands.push(side(*a));
    }
    for h in st.duel_cards() {
        cands.push(Action::Hit {
            expose: Some(h.face),
        });
    }
    let deck = DeckKind::BistOYek36.cards();
    cands.push(Action::Hit {
        expose: pick(rng, &deck).copied(),
    });
    // The actors who may act, one seat that may not, and the service.
    let mut actors = BistOYek::to_act(st).actors;
    actors.push(Actor::Seat(SeatIndex(
        u8::try_from(below(rng, u64::from(st.seats))).unwrap(),
    )));
    actors.push(Actor::Seat(SeatIndex(st.seats)));
    actors.push(Actor::Service);
    for actor in actors {
        let legal = BistOYek::legal_actions(st, actor);
        for a in &cands {
            let allowed = legal.iter().any(|l| l.allows(a));
            let mut copy = st.clone();
            match apply::<BistOYek>(&mut copy, actor, a) {
                Ok(_) => assert!(
                    allowed,
                    "{a:?} by {actor} accepted but not listed in {legal:?}"
                ),
                Err(v) => {
                    assert!(
                        !allowed,
                        "{a:?} by {actor} listed in {legal:?} but rejected: {v}"
                    );
                    assert_eq!(&copy, st, "a rejected action changed the state");
                    assert!(v.section.starts_with("bist-o-yek §"));
                }
            }
        }
    }
}

/// What a random hand did.
#[derive(Debug, Default)]
struct Stats {
    over: bool,
    turn_ended: bool,
    steps: usize,
    /// How often each kind of effect (its JSON `type`, with the case, reason or phase)
    /// occurred.
    seen: std::collections::BTreeMap<String, usize>,
}

impl Stats {
    fn count(&mut self, e: &Effect) {
        let j = serde_json::to_value(e).unwrap();
        let mut key = j["type"].as_str().unwrap().to_string();
        for field in ["case", "reason"] {
            if let Some(v) = j[field].as_str() {
                key = format!("{key}:{v}");
            }
        }
        if let Some(v) = j["phase"]["name"].as_str() {
            key = format!("{key}:{v}");
        }
        if let Some(v) = j["phase"]["resume"].as_str() {
            key = format!("{key}:{v}");
        }
        if j["type"] == "player_card_dealt" && j.get("face").is_some() {
            key = format!("{key}:face_up");
        }
        *self.seen.entry(key).or_default() += 1;
    }
}

/// Play one hand at random, checking everything; the state at the end.
fn play_hand(
    rules: &Rules,
    m: &Match,
    rng: &mut ChaCha8Rng,
    policy: Policy,
    max_steps: usize,
    probing: bool,
) -> (State, Stats) {
    let init = BistOYek::new_hand(rules, m).unwrap();
    let mut st = init.clone();
    let mut log: Vec<(Effect, Option<Vec<Card>>)> = Vec::new();
    let mut stats = Stats::default();
    check_state(&st);
    for step in 0..max_steps {
        stats.steps = step;
        let ta = BistOYek::to_act(&st);
        if ta.is_over() {
            break;
        }
        if probing {
            probe(&st, rng);
        }
        if let Some(req) = ta.shuffle {
            assert!(ta.actors.is_empty());
            let order = permutation(&req.cards, rng);
            // A wrong number or a wrong multiset first: rejected.
            assert_eq!(
                BistOYek::decide_shuffle(&st, st.shuffles.wrapping_add(1), &order)
                    .unwrap_err()
                    .rule,
                "BadShuffle"
            );
            if !order.is_empty() {
                assert_eq!(
                    BistOYek::decide_shuffle(&st, st.shuffles, &order[1..])
                        .unwrap_err()
                        .rule,
                    "BadShuffle"
                );
            }
            let effects = BistOYek::decide_shuffle(&st, st.shuffles, &order).unwrap();
            for e in &effects {
                BistOYek::evolve(&mut st, e, Some(&order));
                check_effect(&st, e);
                stats.count(e);
                log.push((e.clone(), Some(order.clone())));
            }
        } else {
            let Some((actor, action)) = choose(&st, rng, policy) else {
                panic!("nobody can act in {:?}", st.phase);
            };
            let before = st.clone();
            let effects = match BistOYek::decide(&st, actor, &action) {
                Ok(e) => e,
                Err(v) => panic!("legal {action:?} by {actor} rejected: {v}"),
            };
            assert_eq!(st, before);
            assert!(!effects.is_empty());
            for e in &effects {
                BistOYek::evolve(&mut st, e, None);
                check_effect(&st, e);
                stats.count(e);
                // Effects survive JSON.
                let j = serde_json::to_value(e).unwrap();
                assert_eq!(&serde_json::from_value::<Effect>(j).unwrap(), e);
                log.push((e.clone(), None));
            }
        }
        check_state(&st);
    }
    stats.over = BistOYek::to_act(&st).is_over();
    if stats.over {
        let o = BistOYek::outcome(&st).unwrap();
        stats.turn_ended = st.phase == Phase::TurnOver;
        assert_eq!(o.balances, st.balance);
        assert_eq!(st.bank, 0);
        let sum: i128 = o.net.iter().map(|n| i128::from(*n)).sum();
        assert_eq!(sum, 0, "a hand moves money between seats only");
        if let Some(b) = o.banker {
            let banker_net = i128::from(o.taken) - i128::from(o.stake);
            assert_eq!(i128::from(o.net[b.index()]), banker_net);
        }
    } else {
        assert!(BistOYek::outcome(&st).is_none());
        assert!(BistOYek::next_match(&st).is_none());
    }
    // Fold consistency: the log replayed from the initial state.
    let mut replay = init;
    for (e, order) in &log {
        BistOYek::evolve(&mut replay, e, order.as_deref());
    }
    assert_eq!(
        replay, st,
        "folding the effects does not give the same state"
    );
    (st, stats)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn random_play_keeps_every_invariant(
        rules in arb_rules(),
        seats in 2u8..=10,
        seed in any::<u64>(),
        uniform in any::<bool>(),
    ) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let policy = if uniform { Policy::Uniform } else { Policy::Aggressive };
        let mut m = random_match(&rules, seats, &mut rng);
        let total: u64 = m.balances.iter().sum();
        // A few hands of the match in a row.
        for _ in 0..3 {
            if BistOYek::match_over(&m) {
                break;
            }
            let (st, stats) = play_hand(&rules, &m, &mut rng, policy, 250, true);
            if !stats.over {
                break;
            }
            let next = BistOYek::next_match(&st).unwrap();
            prop_assert_eq!(next.balances.iter().sum::<u64>(), total);
            prop_assert_eq!(next.turn, m.turn + 1);
            if let (Some(b), false) = (st.banker, next.over) {
                prop_assert_eq!(next.candidate, state_right(b, seats));
            }
            m = next;
        }
    }
}

fn state_right(b: SeatIndex, n: u8) -> SeatIndex {
    SeatIndex((b.0 + 1) % n)
}

/// Most random hands under the aggressive policy reach the end of the banker's turn.
#[test]
fn random_hands_reach_the_end_of_the_turn() {
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let mut ended = 0;
    let mut turn_ended = 0;
    let mut steps = 0;
    let mut seen = std::collections::BTreeMap::<String, usize>::new();
    let hands = 800;
    for _ in 0..hands {
        let rules = arb_rules().new_tree(&mut runner).unwrap().current();
        let seats = u8::try_from(2 + below(&mut rng, 9)).unwrap();
        let m = random_match(&rules, seats, &mut rng);
        let (_, stats) = play_hand(&rules, &m, &mut rng, Policy::Aggressive, 3000, false);
        ended += usize::from(stats.over);
        turn_ended += usize::from(stats.turn_ended);
        steps += stats.steps;
        for (k, v) in stats.seen {
            *seen.entry(k).or_default() += v;
        }
    }
    assert!(
        ended * 10 >= hands * 9,
        "only {ended} of {hands} hands ended"
    );
    assert!(
        turn_ended * 2 >= hands,
        "only {turn_ended} of {hands} hands ended with a banker's turn"
    );
    // Long turns for the restocks.
    for _ in 0..60 {
        let rules = Rules {
            shuffle_every_round: false,
            ..arb_rules().new_tree(&mut runner).unwrap().current()
        };
        let seats = u8::try_from(2 + below(&mut rng, 9)).unwrap();
        let m = random_match(&rules, seats, &mut rng);
        let (_, stats) = play_hand(&rules, &m, &mut rng, Policy::Patient, 1500, false);
        for (k, v) in stats.seen {
            *seen.entry(k).or_default() += v;
        }
    }
    eprintln!("{ended} of {hands} hands ended ({turn_ended} turns), {steps} steps: {seen:#?}");
    // Every kind of fact shows up in random play.
    for key in [
        "bank_accepted",
        "bank_declined",
        "bank_offered",
        "khabar_announced",
        "round_dealt",
        "hidden_dealt",
        "waiting_dealt",
        "player_skipped",
        "duel_opened",
        "swap_offered",
        "swapped",
        "kept",
        "first_card",
        "player_card_dealt",
        "player_card_dealt:face_up",
        "card_exposed",
        "bet_placed",
        "side_bets_opened",
        "side_bets_closed",
        "side_bet_placed",
        "player_stood",
        "hidden_revealed",
        "banker_drew",
        "banker_stood",
        "hand_shown",
        "banker_card_carried",
        "discarded",
        "duel_closed",
        "settled:S1",
        "settled:S2",
        "settled:S3",
        "settled:S4",
        "settled:S5",
        "shuffled:new_turn",
        "shuffled:khabar",
        "shuffled:round",
        "shuffled:restock",
        "phase:await_shuffle:dealing",
        "phase:await_shuffle:duel_opening",
        "phase:await_shuffle:player_draw_face_down",
        "phase:await_shuffle:player_draw_face_up",
        "phase:await_shuffle:banker_draw",
        "match_ended:everyone_declined",
        "phase:face_choice",
        "phase:await_suz",
        "phase:swap_decision",
        "bank_taken",
        "turn_ended:bank_empty",
        "turn_ended:khabar",
        "turn_ended:no_player_can_bet",
    ] {
        assert!(seen.contains_key(key), "random play never produced {key}");
    }
}

/// Long random matches with the uniform policy: nothing breaks, with probing off.
#[test]
fn long_uniform_hands() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    for _ in 0..40 {
        let rules = arb_rules().new_tree(&mut runner).unwrap().current();
        let seats = u8::try_from(2 + below(&mut rng, 9)).unwrap();
        let m = random_match(&rules, seats, &mut rng);
        play_hand(&rules, &m, &mut rng, Policy::Uniform, 1500, false);
    }
}
