//! Properties over random hands and matches, for every seat count and every sample of the
//! house rules: the counts of §4.2, card conservation to the end (every card captured or
//! set aside), the hand's points (§10.10), the match's end (§7), and that scores on the
//! record are what the cards give.

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

use super::super::decide::match_end;
use super::*;
use crate::engine::{Game, HouseRules, LegalAction};

fn shuffled(rng: &mut ChaCha8Rng) -> Vec<Card> {
    let mut d = crate::cards::DeckKind::Standard52.cards();
    for i in (1..d.len()).rev() {
        let j = usize::try_from(rng.next_u32()).unwrap() % (i + 1);
        d.swap(i, j);
    }
    d
}

/// A whole hand from `m`, played with random legal actions; its table.
fn random_hand(rules: &Rules, m: &Match, rng: &mut ChaCha8Rng) -> Table<Pasur> {
    let mut t = Table::<Pasur>::from_match(rules, m);
    t.shuffle(&shuffled(rng));
    let mut guard = 0;
    while t.state.phase == Phase::Playing {
        let seat = t.state.turn;
        let legal = Pasur::legal_actions(&t.state, s(seat.0));
        assert!(!legal.is_empty(), "{seat} has no legal play");
        let i = usize::try_from(rng.next_u32()).unwrap() % legal.len();
        let a = legal[i].sample(rng);
        t.act(s(seat.0), a);
        guard += 1;
        assert!(guard <= 48);
    }
    t
}

fn sample_rules(n: u8) -> Vec<Rules> {
    Rules::samples()
        .into_iter()
        .filter(|r| r.for_seats(n).is_ok())
        .collect()
}

#[test]
fn every_hand_plays_48_cards_in_d_deals_and_scores_what_its_cards_give() {
    for n in 2..=4u8 {
        let rules = sample_rules(n);
        assert!(rules.len() >= 2, "{n}");
        for (ri, r) in rules.iter().enumerate() {
            for seed in 0..4u64 {
                let mut rng = ChaCha8Rng::seed_from_u64(seed * 100 + u64::from(n) * 10 + ri as u64);
                let m = Pasur::new_match(
                    r,
                    &Setup {
                        seats: n,
                        first_dealer: SeatIndex(u8::try_from(seed % u64::from(n)).unwrap()),
                    },
                )
                .unwrap();
                let t = random_hand(r, &m, &mut rng);
                let st = &t.state;
                assert_eq!(st.plays, PLAYS);
                assert_eq!(st.deal_no, deals(n));
                assert!(st.zones.is_empty(ZoneId::Stock));
                assert!(st.zones.is_empty(ZoneId::Table));
                // Every card is captured, or set aside when nobody captured.
                let mut all: Vec<Card> = (0..n)
                    .flat_map(|i| st.zones.faces(ZoneId::Won(SeatIndex(i))))
                    .chain(st.zones.faces(ZoneId::Out))
                    .collect();
                all.sort();
                assert_eq!(all, crate::cards::DeckKind::Standard52.cards());
                // Deals: D per hand, 4 cards to each seat in each.
                let dealt: usize = t
                    .log
                    .iter()
                    .filter_map(|e| match e {
                        Effect::Dealt { cards, .. } => Some(cards.len()),
                        _ => None,
                    })
                    .sum();
                assert_eq!(dealt, 48);
                // §10.10: the card points are 20 with the clubs bonus given, 13 without.
                let o = Pasur::outcome(st).unwrap();
                let card_points: u32 = o.sides.iter().map(|x| x.points - 5 * x.surs).sum();
                let bonus = o.sides.iter().filter(|x| x.clubs_bonus).count();
                assert!(bonus <= 1);
                assert_eq!(card_points, if bonus == 1 { 20 } else { 13 }, "{n} {r:?}");
                // Surs on the record are the Sur effects; none by a jack.
                let surs: u32 = o.sides.iter().map(|x| x.surs).sum();
                let sur_effects = t
                    .log
                    .iter()
                    .filter(|e| matches!(e, Effect::Sur { .. }))
                    .count();
                assert_eq!(surs as usize, sur_effects);
                for w in t.log.windows(2) {
                    if let [Effect::Played { card, .. }, Effect::Sur { .. }] = w {
                        assert_ne!(card.face.rank(), Some(crate::cards::Rank::Jack));
                    }
                }
                // The next match adds the hand's points and passes the deal right.
                let next = Pasur::next_match(st).unwrap();
                for x in &o.sides {
                    assert_eq!(
                        next.scores[usize::from(x.side)],
                        m.scores[usize::from(x.side)] + x.points
                    );
                }
                if !next.over {
                    assert_eq!(next.dealer, m.dealer.right(n));
                }
            }
        }
    }
}

#[test]
fn every_match_ends_by_the_rule_of_section_7() {
    for n in 2..=4u8 {
        for r in sample_rules(n) {
            // A short target so that matches end within a few hands.
            let r = Rules {
                target_score: 30,
                ..r
            };
            let mut rng = ChaCha8Rng::seed_from_u64(u64::from(n) * 7 + 1);
            let mut m = Pasur::new_match(
                &r,
                &Setup {
                    seats: n,
                    first_dealer: SeatIndex(0),
                },
            )
            .unwrap();
            let mut hands = 0;
            while !m.over {
                let t = random_hand(&r, &m, &mut rng);
                let next = Pasur::next_match(&t.state).unwrap();
                let expect = match_end(
                    r.tie_break_eligibility,
                    r.target_score,
                    &next.scores,
                    &m.eligible,
                );
                match expect {
                    Ok(w) => {
                        assert!(next.over);
                        assert_eq!(next.winner, Some(w));
                        assert!(next.scores[usize::from(w)] >= r.target_score);
                    }
                    Err(el) => {
                        assert!(!next.over);
                        assert_eq!(next.eligible, el);
                    }
                }
                assert_eq!(next.hand, m.hand + 1);
                m = next;
                hands += 1;
                assert!(hands < 50, "the match does not end");
            }
            assert!(Pasur::new_hand(&r, &m).is_err(), "a hand after the match");
        }
    }
}
