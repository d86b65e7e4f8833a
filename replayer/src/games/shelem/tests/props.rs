//! Whole matches by random legal play, for both seat counts and every sampled house-rule
//! set, through the test kit's given-when-then table (cards conserved, no view leaks, the
//! legal families agree with `decide`, after every step): every hand ends, H + O = 165,
//! the sheet adds up, the dealer rotates, and the match ends by §11.

use super::*;
use crate::engine::HouseRules;
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

fn permutation(rng: &mut ChaCha8Rng) -> Vec<Card> {
    let mut v = crate::cards::DeckKind::Standard52.cards();
    for i in (1..v.len()).rev() {
        let j = usize::try_from(rng.next_u64() % (i as u64 + 1)).unwrap();
        v.swap(i, j);
    }
    v
}

#[test]
fn random_matches_keep_every_rule() {
    use crate::engine::LegalAction;
    for (k, rules) in Rules::samples().into_iter().enumerate() {
        for n in [2u8, 4] {
            if rules.validate_for(n).is_err() {
                continue;
            }
            let rules = Rules {
                target: 330,
                ..rules.clone()
            };
            let mut rng = ChaCha8Rng::seed_from_u64(k as u64 * 10 + u64::from(n));
            let mut m = Shelem::new_match(
                &rules,
                &Setup {
                    seats: n,
                    first_dealer: seat(u8::try_from(k).unwrap() % n),
                },
            )
            .unwrap();
            let mut hands = 0;
            while !m.over && hands < 40 {
                let mut t = T::from_match(&rules, &m);
                t.shuffle(&permutation(&mut rng));
                let mut steps = 0;
                while t.state.phase != Phase::HandOver {
                    let a = actor(&t);
                    let legal = Shelem::legal_actions(&t.state, a);
                    let pick = &legal[usize::try_from(rng.next_u32()).unwrap() % legal.len()];
                    let action = pick.sample(&mut rng);
                    assert!(pick.allows(&action));
                    t.act(a, action);
                    steps += 1;
                    assert!(steps < 200, "the hand does not end");
                }
                let o = Shelem::outcome(&t.state).unwrap();
                if let (Some(h), Some(x)) = (o.row.h, o.row.o) {
                    assert_eq!(h + x, 165);
                    assert_eq!(
                        o.row.outcome == HandKind::Shelem,
                        o.tricks.contains(&0) && {
                            let ht = usize::from(team(o.row.hakem.unwrap(), n));
                            o.tricks[1 - ht] == 0
                        }
                    );
                    assert_eq!(u32::from(o.tricks[0] + o.tricks[1]), 12);
                }
                let next = o.next.clone();
                assert_eq!(next.sheet.len(), m.sheet.len() + 1);
                let moved = next.dealer == SeatIndex((m.dealer.0 + 1) % n);
                let same = next.dealer == m.dealer
                    && o.row.outcome == HandKind::PassedOut
                    && rules.all_pass == AllPass::RedealSameDealer;
                assert!(next.over || moved || same);
                // The match state passes its own checks when read back.
                let j = serde_json::to_value(&next).unwrap();
                assert_eq!(serde_json::from_value::<Match>(j).unwrap(), next);
                m = next;
                hands += 1;
            }
        }
    }
}
