//! Property tests: random legal hands for 4, 6 and 8 players under several house-rule sets,
//! and simulated hands through the live dealer, verified.
//!
//! After every step: every card is in exactly one place (`Zones::check`), hands and pile
//! hold the whole deck, and no view changes when the faces its viewer may not see are
//! scrambled. Every sampled action is allowed by its legal family and accepted; for a set
//! of probe actions, `decide` accepts exactly what `legal_actions` lists; folding the log
//! from the initial state gives the same state.

use super::*;
use crate::engine::LegalAction;
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

fn pick<'a, T>(rng: &mut ChaCha8Rng, v: &'a [T]) -> Option<&'a T> {
    let i = below(rng, v.len());
    v.get(i)
}

/// A uniformly random permutation (Fisher–Yates).
fn permutation(cards: &[Card], rng: &mut ChaCha8Rng) -> Vec<Card> {
    let mut v = cards.to_vec();
    for i in (1..v.len()).rev() {
        let j = below(rng, i + 1);
        v.swap(i, j);
    }
    v
}

fn arb_rules() -> impl Strategy<Value = Rules> {
    (
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        0u8..3,
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(
            |(aside, same, unlimited, pass, any_rank, leader, req, exe)| Rules {
                uneven_deal: if aside {
                    UnevenDeal::SetAsideRemainder
                } else {
                    UnevenDeal::DealAll
                },
                follow_count: if same {
                    FollowCount::SameAsLead
                } else {
                    FollowCount::Free
                },
                max_cards_per_play: if unlimited {
                    MaxCardsPerPlay::Unlimited
                } else {
                    MaxCardsPerPlay::FourPerDeck
                },
                allow_pass: pass,
                new_rank_after_lap: if any_rank {
                    NewRankAfterLap::Any
                } else {
                    NewRankAfterLap::MustDiffer
                },
                leader_after_challenge: match leader {
                    0 => LeaderAfterChallenge::Challenger,
                    1 => LeaderAfterChallenge::PileTaker,
                    _ => LeaderAfterChallenge::ChallengeWinner,
                },
                failed_challenge_liability: if req {
                    FailedChallengeLiability::Requester
                } else {
                    FailedChallengeLiability::Challenger
                },
                titles: if exe {
                    Titles::WithExecutioner
                } else {
                    Titles::KingViziersThief
                },
            },
        )
}

/// The checks after each action or shuffle.
fn check_state(st: &State, rng: &mut ChaCha8Rng) {
    assert_eq!(st.zones.check(), Ok(()));
    let n = st.seats;
    if st.phase != Phase::Deal {
        let held: usize = (0..n).map(|i| st.held(seat(i))).sum();
        let total = held + st.zones.len(state::PILE) + st.zones.len(ZoneId::Out);
        assert_eq!(total, st.deck().len(), "cards not conserved");
        let in_plays: usize = st.pile.iter().map(|p| p.cards.len()).sum();
        assert_eq!(in_plays, st.zones.len(state::PILE));
        assert!(st.zones.is_empty(ZoneId::Stock));
    }
    // No leak: scramble what each viewer may not see; its view is unchanged.
    let mut viewers = vec![Viewer::Public, Viewer::All];
    viewers.extend((0..n).map(|i| Viewer::Seat(seat(i))));
    for v in viewers {
        let before = Bluff::view(st, v);
        let mut copy = st.clone();
        let mut seed = rng.next_u64();
        copy.zones.scramble_hidden(v, |m| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            usize::try_from(seed >> 33).unwrap() % m
        });
        assert_eq!(Bluff::view(&copy, v), before, "the view of {v:?} leaks");
    }
    // Whoever is listed may act; a hand not over always offers something.
    let ta = Bluff::to_act(st);
    for a in &ta.actors {
        assert!(!Bluff::legal_actions(st, *a).is_empty(), "{a} listed idle");
    }
    assert_eq!(ta.is_over(), st.phase == Phase::Over);
    if st.phase == Phase::Play {
        assert!(
            st.held(st.turn) > 0,
            "the turn is with a seat without cards"
        );
    }
}

/// Probe actions: `decide` accepts exactly what `legal_actions` allows.
fn probe(st: &State, rng: &mut ChaCha8Rng) {
    let n = st.seats;
    let mut actors = Bluff::to_act(st).actors;
    actors.push(s(u8::try_from(below(rng, usize::from(n))).unwrap()));
    actors.push(s(n));
    actors.push(Actor::Service);
    let all_refs: Vec<CardRef> = st.zones.iter().map(|(_, p)| p.r).collect();
    for actor in actors {
        let legal = Bluff::legal_actions(st, actor);
        let own: Vec<CardRef> = match actor {
            Actor::Seat(x) => st.zones.refs_in(ZoneId::Hand(x)),
            Actor::Service => Vec::new(),
        };
        let mut cands = vec![
            Action::Pass,
            Action::Challenge,
            Action::NoChallenge,
            Action::RequestChallenge,
            Action::Follow { cards: Vec::new() },
        ];
        for k in [1usize, 2, 3, 4, 5, 8, 9, own.len(), own.len() + 1] {
            let mut mine = own.clone();
            for i in (1..mine.len()).rev() {
                let j = below(rng, i + 1);
                mine.swap(i, j);
            }
            let chosen: Vec<CardRef> = mine.into_iter().take(k).collect();
            let r = *pick(rng, &Rank::ALL).unwrap();
            cands.push(Action::Lead {
                rank: r,
                cards: chosen.clone(),
            });
            if let Some(rr) = st.round_rank.or(st.ended_round_rank) {
                cands.push(Action::Lead {
                    rank: rr,
                    cards: chosen.clone(),
                });
            }
            cands.push(Action::Follow {
                cards: chosen.clone(),
            });
            if let Some(first) = chosen.first() {
                let mut dup = chosen.clone();
                dup.push(*first);
                cands.push(Action::Follow { cards: dup });
            }
        }
        if let Some(other) = pick(rng, &all_refs) {
            cands.push(Action::Follow {
                cards: vec![*other],
            });
        }
        for a in &cands {
            let allowed = legal.iter().any(|l| l.allows(a));
            match Bluff::decide(st, actor, a) {
                Ok(_) => assert!(allowed, "{a:?} by {actor} accepted, not listed: {legal:?}"),
                Err(v) => {
                    assert!(
                        !allowed,
                        "{a:?} by {actor} listed in {legal:?}, rejected: {v}"
                    );
                    assert!(v.section.starts_with("bluff §"));
                }
            }
        }
    }
}

/// What a random hand did.
#[derive(Debug, Default)]
struct Stats {
    over: bool,
    steps: usize,
    relabels: usize,
    seen: std::collections::BTreeMap<String, usize>,
}

impl Stats {
    fn count(&mut self, e: &Effect) {
        let j = serde_json::to_value(e).unwrap();
        let mut key = j["type"].as_str().unwrap().to_string();
        if let Some(v) = j["truthful"].as_bool() {
            key = format!("{key}:{v}");
        }
        *self.seen.entry(key).or_default() += 1;
    }
}

/// Play one hand at random (the simulator's way: a random actor among those listed, a
/// random legal family, a sample), checking everything.
fn play_hand(
    n: u8,
    rules: &Rules,
    rng: &mut ChaCha8Rng,
    max_steps: usize,
    probing: bool,
) -> (State, Stats) {
    let dealer = u8::try_from(below(rng, usize::from(n))).unwrap();
    let setup = Setup {
        seats: n,
        dealer: Some(seat(dealer)),
    };
    let m = Bluff::new_match(rules, &setup).unwrap();
    let init = Bluff::new_hand(rules, &m).unwrap();
    let mut st = init.clone();
    let mut log: Vec<(Effect, Option<Vec<Card>>)> = Vec::new();
    let mut stats = Stats::default();
    check_state(&st, rng);
    for step in 0..max_steps {
        stats.steps = step;
        let ta = Bluff::to_act(&st);
        if ta.is_over() {
            break;
        }
        if probing {
            probe(&st, rng);
        }
        if let Some(req) = ta.shuffle {
            assert!(ta.actors.is_empty());
            let order = permutation(&req.cards, rng);
            assert_eq!(
                Bluff::decide_shuffle(&st, st.shuffles + 1, &order)
                    .unwrap_err()
                    .rule,
                "BadShuffle"
            );
            assert_eq!(
                Bluff::decide_shuffle(&st, st.shuffles, &order[1..])
                    .unwrap_err()
                    .rule,
                "BadShuffle"
            );
            let before_faces = match st.phase {
                Phase::Relabel { seat } => {
                    stats.relabels += 1;
                    Some((seat, {
                        let mut f = st.zones.faces(ZoneId::Hand(seat));
                        f.sort();
                        f
                    }))
                }
                _ => None,
            };
            let effects = Bluff::decide_shuffle(&st, st.shuffles, &order).unwrap();
            for e in &effects {
                Bluff::evolve(&mut st, e, Some(&order));
                stats.count(e);
                log.push((e.clone(), Some(order.clone())));
            }
            if let Some((who, faces)) = before_faces {
                let mut f = st.zones.faces(ZoneId::Hand(who));
                f.sort();
                assert_eq!(f, faces, "a relabel keeps the faces");
                let k = st.shuffles - 1;
                for (i, p) in st.zones.cards(ZoneId::Hand(who)).iter().enumerate() {
                    assert_eq!(
                        p.r,
                        CardRef {
                            shuffle: k,
                            pos: u32::try_from(i).unwrap()
                        }
                    );
                    assert_eq!(p.seen, crate::zones::Seen::seat(who));
                }
            }
        } else {
            let actor = *pick(rng, &ta.actors).unwrap();
            let legal = Bluff::legal_actions(&st, actor);
            let l = pick(rng, &legal).unwrap().clone();
            let action = l.sample(rng);
            assert!(l.allows(&action), "{l:?} sampled {action:?}");
            let effects = match Bluff::decide(&st, actor, &action) {
                Ok(e) => e,
                Err(v) => panic!("legal {action:?} by {actor} rejected: {v}"),
            };
            assert!(!effects.is_empty());
            for e in &effects {
                Bluff::evolve(&mut st, e, None);
                stats.count(e);
                let j = serde_json::to_value(e).unwrap();
                assert_eq!(&serde_json::from_value::<Effect>(j).unwrap(), e);
                log.push((e.clone(), None));
            }
        }
        check_state(&st, rng);
    }
    stats.over = Bluff::to_act(&st).is_over();
    if stats.over {
        let o = Bluff::outcome(&st).unwrap();
        let mut order = o.order.clone();
        order.sort();
        assert_eq!(order, (0..n).map(seat).collect::<Vec<_>>());
        let res = Bluff::results(&o);
        assert_eq!(
            res.iter()
                .filter(|r| r.judged == crate::engine::Judged::Won)
                .count(),
            1
        );
        assert_eq!(
            res.iter()
                .filter(|r| r.judged == crate::engine::Judged::Lost)
                .count(),
            1
        );
        let next = Bluff::next_match(&st).unwrap();
        assert_eq!(next.dealer, state::right(seat(dealer), n));
        assert!(!next.over);
    }
    let mut replay = init;
    for (e, order) in &log {
        Bluff::evolve(&mut replay, e, order.as_deref());
    }
    assert_eq!(
        replay, st,
        "folding the effects does not give the same state"
    );
    (st, stats)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn random_play_keeps_every_invariant(
        rules in arb_rules(),
        n in prop_oneof![Just(4u8), Just(6u8), Just(8u8)],
        seed in any::<u64>(),
    ) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        play_hand(n, &rules, &mut rng, 400, true);
    }
}

/// Whole random hands end, for every player count, under the default and the other rule
/// sets; every kind of fact shows up.
#[test]
fn random_hands_end_with_titles() {
    let mut rng = ChaCha8Rng::seed_from_u64(104);
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let mut seen = std::collections::BTreeMap::<String, usize>::new();
    let mut ended = 0;
    let mut hands = 0;
    let mut steps = Vec::new();
    for n in [4u8, 6, 8] {
        for i in 0..6 {
            let rules = if i == 0 {
                Rules::default()
            } else {
                use proptest::strategy::ValueTree;
                arb_rules().new_tree(&mut runner).unwrap().current()
            };
            let (_, stats) = play_hand(n, &rules, &mut rng, 20_000, false);
            hands += 1;
            ended += usize::from(stats.over);
            steps.push((n, stats.steps, stats.relabels));
            for (k, v) in stats.seen {
                *seen.entry(k).or_default() += v;
            }
        }
    }
    eprintln!("{ended} of {hands} ended; (n, steps, relabels): {steps:?}; {seen:#?}");
    assert_eq!(ended, hands, "every random hand ends");
    for key in [
        "dealt",
        "play_started",
        "played",
        "out_pending",
        "went_out",
        "turn",
        "round_lapped",
        "challenge_requested",
        "not_challenged",
        "challenged:true",
        "challenged:false",
        "back_in",
        "passed",
        "set_aside",
        "shuffled",
        "relabelled",
        "pile_taken",
        "phase",
        "hand_ended",
    ] {
        assert!(seen.contains_key(key), "random play never produced {key}");
    }
}

/// A simulated hand through the live dealer (committed shuffles, signed log, the relabels
/// included) verifies and completes, for 4, 6 and 8 players.
#[test]
fn simulated_hands_verify_and_complete() {
    use crate::dealer::HandStatus;
    use crate::engine::GameId;
    use crate::log::SigningKeyPair;
    use crate::verify::{verify_value, Options};
    let key = SigningKeyPair::from_secret([11; 32]);
    for n in [4u8, 6, 8] {
        for k in 0..3u8 {
            let mut seed = [0xb1u8; 32];
            seed[0] = n;
            seed[1] = k;
            let bundle = crate::sim::simulate(GameId::Bluff, n, seed, &key, 0)
                .unwrap_or_else(|e| panic!("{n} players: {e}"));
            assert_eq!(
                bundle.status,
                HandStatus::Completed,
                "{n} players, seed {k}"
            );
            let json = serde_json::to_value(&bundle).unwrap();
            let v = verify_value(
                json,
                &Options {
                    trusted_keys: vec![key.public()],
                },
            )
            .unwrap();
            assert!(v.valid, "{n} players, seed {k}: {:?}", v.problem);
            assert_eq!(v.status, Some(HandStatus::Completed));
        }
    }
}
