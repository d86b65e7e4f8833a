//! Property tests: random decks, every sampled house-rule set and random legal play over
//! whole hands, each through the core's harness (cards conserved, no view leaks, the legal
//! families agree with `decide` after every step); the log folded from the start gives the
//! same state; every hand ends with scores that follow from its contracts and tricks.

use super::*;
use crate::cards::{Card, DeckKind};
use crate::engine::{Actor, Game};
use crate::engine::{HouseRules, LegalAction};
use crate::zones::ZoneId;
use proptest::prelude::*;
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

fn permutation(rng: &mut ChaCha8Rng) -> Vec<Card> {
    let mut v = DeckKind::Ghahve52.cards();
    for i in (1..v.len()).rev() {
        let j = usize::try_from(rng.next_u64() % u64::try_from(i + 1).unwrap()).unwrap();
        v.swap(i, j);
    }
    v
}

fn run(rules: &Rules, seed: u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut t = T::new(rules, &Setup { seats: 4 });
    let init = t.state.clone();
    let mut orders: Vec<(usize, Vec<Card>)> = Vec::new();
    let mut steps = 0;
    while Ghahve::outcome(&t.state).is_none() {
        steps += 1;
        assert!(steps < 2000, "the hand does not end");
        let to_act = Ghahve::to_act(&t.state);
        if to_act.shuffle.is_some() {
            let order = permutation(&mut rng);
            orders.push((t.log.len(), order.clone()));
            t.shuffle(&order);
            continue;
        }
        let seats: Vec<Actor> = to_act
            .actors
            .iter()
            .copied()
            .filter(|a| matches!(a, Actor::Seat(_)))
            .collect();
        assert_eq!(seats.len(), 1, "exactly one seat acts at a time");
        let legal = Ghahve::legal_actions(&t.state, seats[0]);
        let family = &legal[usize::try_from(rng.next_u32()).unwrap() % legal.len()];
        let a = family.sample(&mut rng);
        assert!(family.allows(&a));
        t.act(seats[0], a);
    }
    // Folding the log from the start gives the same state.
    let mut st = init;
    let mut next_order = orders.iter().peekable();
    for (i, e) in t.log.iter().enumerate() {
        let order = match next_order.peek() {
            Some((at, o)) if *at == i => {
                next_order.next();
                Some(o.as_slice())
            }
            _ => None,
        };
        Ghahve::evolve(&mut st, e, order);
    }
    assert_eq!(st, t.state, "the fold of the log differs from live play");
    let o = Ghahve::outcome(&t.state).unwrap();
    assert_eq!(o.teams.len(), 2);
    let mut tricks = 0;
    for (team, line) in o.teams.iter().enumerate() {
        tricks += line.tricks;
        let failed = t
            .state
            .failed_by_penalty
            .contains(&u8::try_from(team).unwrap());
        if !failed {
            assert_eq!(line.points, hand_score(line.contract, line.tricks));
        }
        assert!(line.contract >= 4);
    }
    assert_eq!(tricks, 13);
    // Every card ended in a won trick.
    let won: usize = (0..4u8)
        .map(|i| t.state.zones.len(ZoneId::Won(seat(i))))
        .sum();
    assert_eq!(won, 52);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn random_hands_keep_every_invariant(seed in any::<u64>(), k in 0usize..4) {
        let samples = Rules::samples();
        let rules = samples[k % samples.len()].clone();
        run(&rules, seed);
    }
}
