//! Property tests: random shuffles, several house-rule sets and random legal play over
//! whole matches for 2, 3 and 4 players; and simulated hands that verify.
//!
//! After every action and every shuffle: every card is in exactly one zone
//! (`Zones::check`); every viewer's view is unchanged when the faces that viewer may not
//! see are scrambled; every face an effect carries is public once folded; the match's
//! numbers stay bounded. Every sampled legal action is allowed by its family and accepted;
//! for a set of probe actions, `decide` accepts exactly what `legal_actions` allows; a
//! rejected action changes nothing; folding the log from the initial state gives the same
//! state; every hand ends.

use super::*;
use crate::engine::LegalAction;
use crate::log::SigningKeyPair;
use crate::verify::{verify_value, Options};
use proptest::prelude::*;
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

fn below(rng: &mut ChaCha8Rng, n: usize) -> usize {
    if n == 0 {
        0
    } else {
        usize::try_from(rng.next_u64() % u64::try_from(n).unwrap()).unwrap()
    }
}

fn permutation(cards: &[Card], rng: &mut ChaCha8Rng) -> Vec<Card> {
    let mut v = cards.to_vec();
    for i in (1..v.len()).rev() {
        let j = below(rng, i + 1);
        v.swap(i, j);
    }
    v
}

const RULE_SETS: usize = 4;

/// House-rule set `k`, valid for `n` seats.
fn rule_set(k: usize, n: u8) -> Rules {
    let four = n == 4;
    match k {
        0 => Rules::default(),
        1 => Rules {
            cut: Cut::None,
            trump_methods: vec![
                TrumpMethod::Direct,
                TrumpMethod::SarGhermez,
                TrumpMethod::SarSiah,
                TrumpMethod::BargVasat,
                TrumpMethod::YaXYaY,
            ],
            ten_low: TenLow::Unlimited,
            dealer_peek: four,
            partnerships: if four {
                Partnerships::ByDraw
            } else {
                Partnerships::Fixed
            },
            bam: Bam::On,
            kot_3p: true,
            ..Rules::default()
        },
        2 => Rules {
            hakem_draw: HakemDraw::HighestCard,
            partnerships: if four {
                Partnerships::ByDraw
            } else {
                Partnerships::Fixed
            },
            cut: if four {
                Cut::PartnerCuts
            } else {
                Cut::DealersLeftCuts
            },
            target_points: 3,
            rounds_to_win: 2,
            new_round_hakem: NewRoundHakem::Redraw,
            kot_at_six: if four { KotAtSix::OnAny } else { KotAtSix::Off },
            deuce_2p: if n == 2 {
                Deuce2p::WinByTwo { cap: None }
            } else {
                Deuce2p::Off
            },
            peek_burned: true,
            bam_fail: BamFail::PlainWin,
            bam: Bam::On,
            cheating_penalty_points: 2,
            ..Rules::default()
        },
        _ => Rules {
            trump_methods: if four {
                vec![
                    TrumpMethod::SarGhermez,
                    TrumpMethod::SarSiah,
                    TrumpMethod::BargVasat,
                    TrumpMethod::YaXYaY,
                ]
            } else {
                vec![TrumpMethod::Direct]
            },
            colour_fallback: ColourFallback::AnySuit,
            ten_low: TenLow::MaxRedealsPerHand(2),
            deuce_2p: if n == 2 {
                Deuce2p::WinByTwo { cap: Some(8) }
            } else {
                Deuce2p::Off
            },
            kot_at_six: if four {
                KotAtSix::OnZero
            } else {
                KotAtSix::Off
            },
            kot_2p: false,
            target_points: 5,
            ..Rules::default()
        },
    }
}

/// Every viewer's view is a function of what that viewer may see.
fn check_no_leak(st: &State, rng: &mut ChaCha8Rng) {
    let mut viewers = vec![Viewer::Public];
    viewers.extend((0..st.n).map(|i| Viewer::Seat(SeatIndex(i))));
    for viewer in viewers {
        let before = Hokm::view(st, viewer);
        let mut other = st.clone();
        Hokm::zones_mut(&mut other).scramble_hidden(viewer, |k| below(rng, k));
        assert_eq!(
            Hokm::view(&other, viewer),
            before,
            "{viewer:?} sees a hidden face"
        );
    }
}

fn check_state(st: &State, rng: &mut ChaCha8Rng) {
    Hokm::zones(st).check().unwrap();
    check_no_leak(st, rng);
    let m = &st.now;
    assert!(m.scores.iter().all(|x| *x <= state::MAX_SCORE));
    assert!(m.rounds.iter().all(|r| *r <= st.rules.rounds_to_win));
    assert!(st.tricks_played() <= state::hand_size(st.n));
    assert!(st.zones.len(ZoneId::Trick) < usize::from(st.n));
}

/// Probe actions around the state: cards anywhere, every suit, every small choice.
fn probes(st: &State) -> Vec<Action> {
    let mut v = vec![
        Action::RequestTenLowRedeal,
        Action::CallSarGhermez,
        Action::CallSarSiah,
        Action::CallBargVasat,
        Action::KeepFirst,
        Action::TakeSecond,
        Action::DeclinePeek,
        Action::ContinueForBam,
        Action::EndHand,
        Action::Cut { k: 0 },
        Action::Cut { k: 1 },
        Action::Cut {
            k: st.deck_len.saturating_sub(1),
        },
        Action::Cut { k: st.deck_len },
    ];
    for x in crate::cards::Suit::ALL {
        v.push(Action::DeclareTrump { suit: SuitCode(x) });
        for y in crate::cards::Suit::ALL {
            v.push(Action::CallYa {
                x: SuitCode(x),
                y: SuitCode(y),
            });
        }
    }
    for round in 1..=4 {
        v.push(Action::PeekPartnerPacket { round });
    }
    for i in 0..st.n {
        let hand = st.zones.refs_in(ZoneId::Hand(SeatIndex(i)));
        for r in &hand {
            v.push(Action::Play { card: *r });
        }
        for k in 1..=4 {
            v.push(Action::Discard {
                cards: hand.iter().take(k).copied().collect(),
            });
        }
        if let Some(r) = hand.first() {
            v.push(Action::Discard {
                cards: vec![*r, *r, *r],
            });
        }
    }
    for r in st.zones.refs_in(ZoneId::Stock).into_iter().take(3) {
        v.push(Action::ChooseFinal { card: r });
    }
    v.push(Action::AwardCheatingPenalty {
        offender: SeatIndex(0),
        beneficiary: Some(SeatIndex(1)),
    });
    v.push(Action::AwardCheatingPenalty {
        offender: SeatIndex(0),
        beneficiary: Some(SeatIndex(0)),
    });
    v
}

fn check_probes(st: &State) {
    let mut actors: Vec<Actor> = (0..st.n).map(|i| Actor::Seat(SeatIndex(i))).collect();
    actors.push(Actor::Service);
    for actor in actors {
        let legal = Hokm::legal_actions(st, actor);
        for a in probes(st) {
            let allowed = legal.iter().any(|l| l.allows(&a));
            let accepted = Hokm::decide(st, actor, &a).is_ok();
            assert_eq!(
                allowed, accepted,
                "{a:?} by {actor} in {:?}: legal {legal:?}",
                st.phase
            );
        }
    }
}

/// Play one hand from `m` to its end; returns the next match.
fn play_hand(rules: &Rules, m: &Match, rng: &mut ChaCha8Rng, probe: bool) -> Match {
    let mut st = Hokm::new_hand(rules, m).unwrap();
    let init = st.clone();
    let mut log: Vec<(Effect, Option<Vec<Card>>)> = Vec::new();
    let mut steps = 0;
    loop {
        steps += 1;
        assert!(steps < 3000, "the hand does not end");
        assert!(st.shuffles < 40, "the hand keeps asking for shuffles");
        check_state(&st, rng);
        if probe {
            check_probes(&st);
        }
        let ta = Hokm::to_act(&st);
        if let Some(req) = ta.shuffle {
            let order = permutation(&req.cards, rng);
            let k = st.shuffles;
            let e = crate::engine::apply_shuffle::<Hokm>(&mut st, k, &order).unwrap();
            log.extend(e.into_iter().map(|x| (x, Some(order.clone()))));
            continue;
        }
        if ta.actors.is_empty() {
            break;
        }
        let seats: Vec<Actor> = ta
            .actors
            .iter()
            .copied()
            .filter(|a| *a != Actor::Service)
            .collect();
        let actor = if seats.is_empty() || below(rng, 100) < 2 {
            ta.actors[below(rng, ta.actors.len())]
        } else {
            seats[below(rng, seats.len())]
        };
        let legal = Hokm::legal_actions(&st, actor);
        assert!(!legal.is_empty(), "{actor} to act without legal actions");
        let l = &legal[below(rng, legal.len())];
        let a = l.sample(rng);
        assert!(l.allows(&a), "{a:?} sampled from {l:?} not allowed");
        let e = crate::engine::apply::<Hokm>(&mut st, actor, &a)
            .unwrap_or_else(|v| panic!("{a:?} by {actor} rejected: {v}"));
        for x in &e {
            // Every face an effect carries is public once folded.
            for f in x.faces() {
                let public = st
                    .zones
                    .iter()
                    .any(|(_, p)| p.face == f && p.seen.is_public());
                assert!(public, "{x:?} carries a face that is not public");
            }
        }
        log.extend(e.into_iter().map(|x| (x, None)));
    }
    let mut again = init;
    for (e, order) in &log {
        Hokm::evolve(&mut again, e, order.as_deref());
    }
    assert_eq!(again, st, "folding the log gives another state");
    let o = Hokm::outcome(&st).expect("a finished hand has an outcome");
    let next = Hokm::next_match(&st).unwrap();
    assert_eq!(o.next, next);
    assert_eq!(next.hand, m.hand + 1);
    // The next match reads back as valid JSON.
    let j = serde_json::to_value(&next).unwrap();
    assert_eq!(serde_json::from_value::<Match>(j).unwrap(), next);
    assert_eq!(Hokm::results(&o).len(), usize::from(m.seats));
    next
}

fn play_match(seed: u64, n: u8, k: usize, probe: bool) {
    let rules = rule_set(k, n);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut m = Hokm::new_match(&rules, &Setup { seats: n }).unwrap();
    for _ in 0..12 {
        if m.over {
            break;
        }
        m = play_hand(&rules, &m, &mut rng, probe);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn random_matches_keep_every_invariant(seed in any::<u64>(), n in 2u8..=4, k in 0..RULE_SETS) {
        play_match(seed, n, k, false);
    }

    #[test]
    fn decide_accepts_exactly_the_legal_actions(seed in any::<u64>(), n in 2u8..=4, k in 0..RULE_SETS) {
        let rules = rule_set(k, n);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let m = Hokm::new_match(&rules, &Setup { seats: n }).unwrap();
        play_hand(&rules, &m, &mut rng, true);
    }
}

#[test]
fn every_rule_set_is_valid_for_every_seat_count() {
    for n in 2..=4 {
        for k in 0..RULE_SETS {
            Hokm::new_match(&rule_set(k, n), &Setup { seats: n }).unwrap();
        }
    }
}

fn sim_verifies(n: u8, seed: u8) {
    let key = SigningKeyPair::from_secret([7; 32]);
    let b = crate::sim::simulate(GameId::Hokm, n, [seed; 32], &key, 0).unwrap();
    assert_eq!(
        b.status,
        crate::dealer::HandStatus::Completed,
        "{n} players, seed {seed}"
    );
    let value = serde_json::to_value(&b).unwrap();
    let verdict = verify_value(
        value,
        &Options {
            trusted_keys: vec![key.public()],
        },
    )
    .unwrap();
    assert!(
        verdict.valid,
        "{n} players, seed {seed}: {:?}",
        verdict.problem
    );
}

#[test]
fn simulated_hands_verify_for_2_3_and_4_players() {
    for n in 2..=4 {
        for seed in 0..4 {
            sim_verifies(n, seed);
        }
    }
}
