//! The spec's worked examples and test vectors (ghahve.md §17), as given-when-then tests.

use super::*;
use crate::cards::{Card, DeckKind};
use crate::engine::{Actor, Game, Viewer};
use crate::zones::ZoneId;

/// §17.1's deal: the canonical deck, dealer seat 0, no cut.
fn canonical_deal(rules: &Rules) -> T {
    dealt(rules, &DeckKind::Ghahve52.cards())
}

#[test]
fn deal_vector_17_1_canonical_deck_dealer_0() {
    let t = canonical_deal(&no_cut());
    // Delivery order: seat 1, 2, 3, 0, packets of 5, 4, 4 (positions as in the table).
    let dealt: Vec<(u64, Vec<u64>)> = of_type(&t.log, "dealt")
        .iter()
        .map(|e| {
            (
                e["seat"].as_u64().unwrap(),
                e["cards"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|c| c["pos"].as_u64().unwrap())
                    .collect(),
            )
        })
        .collect();
    let seats: Vec<u64> = dealt.iter().map(|d| d.0).collect();
    assert_eq!(seats, vec![1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0]);
    assert_eq!(dealt[0].1, vec![0, 1, 2, 3, 4]);
    assert_eq!(dealt[3].1, vec![15, 16, 17, 18, 19]);
    assert_eq!(dealt[4].1, vec![20, 21, 22, 23]);
    assert_eq!(dealt[11].1, vec![48, 49, 50, 51]);
    assert_eq!(
        hand(&t, 1),
        sorted("2S 3S 4S 5S 6S TH JH QH KH AD 2C 3C 4C")
    );
    assert_eq!(
        hand(&t, 2),
        sorted("7S 8S 9S TS JS AH 3D 4D 5D 5C 6C 7C 8C")
    );
    assert_eq!(
        hand(&t, 3),
        sorted("QS KS AS 3H 4H 6D 7D 8D 9D 9C TC JC QC")
    );
    assert_eq!(
        hand(&t, 0),
        sorted("5H 6H 7H 8H 9H TD JD QD KD KC AC BJ CJ")
    );
    // Each packet is visible to its recipient only.
    for owner in 0..4u8 {
        for looker in 0..4u8 {
            let seen = t
                .state
                .zones
                .zone_view(ZoneId::Hand(seat(owner)), viewer(looker));
            assert_eq!(
                seen.iter().all(|c| c.face.is_some()),
                owner == looker,
                "seat {looker} looking at seat {owner}"
            );
            assert!(seen.iter().all(|c| c.face.is_some() == (owner == looker)));
        }
        assert!(t
            .state
            .zones
            .zone_view(ZoneId::Hand(seat(owner)), Viewer::Public)
            .iter()
            .all(|c| c.face.is_none()));
    }
    // Bidding starts at the dealer's right.
    assert_eq!(t.state.phase(), Phase::Bidding);
    assert_eq!(t.state.next_bidder(), Some(seat(1)));
}

#[test]
fn bidding_vector_17_2_contracts_six_and_five() {
    let mut t = canonical_deal(&no_cut());
    bid(&mut t, 1, 3);
    bid(&mut t, 2, 4);
    bid(&mut t, 3, 2);
    let e = bid(&mut t, 0, 2);
    let set = of_type(&e, "contracts_set");
    assert_eq!(set.len(), 1);
    assert_eq!(set[0]["team0"], 6);
    assert_eq!(set[0]["team1"], 5);
    assert_eq!(t.state.phase(), Phase::Playing);
    assert_eq!(t.state.to_play(), seat(1));
}

#[test]
fn bidding_vector_17_2_refusals() {
    let mut t = canonical_deal(&no_cut());
    t.reject(s(1), Action::Bid { n: 1 }, "BidBelowMinimum");
    t.reject(s(1), Action::Bid { n: 12 }, "BidAboveMaximum");
    bid(&mut t, 1, 11);
    bid(&mut t, 2, 2);
    t.reject(s(3), Action::Bid { n: 3 }, "BidAboveMaximum");
    assert_eq!(
        Ghahve::legal_actions(&t.state, s(3)),
        vec![Legal::Bid { min: 2, max: 2 }],
        "seat 3 must bid exactly 2"
    );
    bid(&mut t, 3, 2);
    // Without the cap any bid 2 to 13 (§13 team_bid_cap = none).
    let mut t = canonical_deal(&Rules {
        team_bid_cap: None,
        ..no_cut()
    });
    bid(&mut t, 1, 12);
    bid(&mut t, 2, 13);
    t.reject(s(3), Action::Bid { n: 14 }, "BidAboveMaximum");
    bid(&mut t, 3, 13);
}

#[test]
fn play_vectors_j1_j2_j3_with_the_canonical_deal() {
    let mut t = canonical_deal(&no_cut());
    bids(&mut t, [(1, 3), (2, 4), (3, 2), (0, 2)]);
    play(&mut t, 1, "TH");
    play(&mut t, 2, "AH");
    play(&mut t, 3, "3H");
    // J2: the coloured joker is locked although seat 0 holds the black one too.
    try_play(&mut t, 0, "CJ", Rule::ColouredJokerLocked);
    // J1: the black joker while holding hearts is legal, and wins.
    assert!(playable(&t, 0).contains(&c("BJ")));
    let e = play(&mut t, 0, "BJ");
    let won = of_type(&e, "trick_won");
    assert_eq!(won[0]["seat"], 0);
    assert_eq!(won[0]["index"], 1);
    // J3: trick 2, seat 0 leads the (released) coloured joker; the others play anything.
    assert_eq!(t.state.to_play(), seat(0));
    play(&mut t, 0, "CJ");
    assert_eq!(
        playable(&t, 1).len(),
        12,
        "seat 1 may play any of its cards"
    );
    play(&mut t, 1, "2C");
    play(&mut t, 2, "9S");
    let e = play(&mut t, 3, "AS");
    assert_eq!(
        of_type(&e, "trick_won")[0]["seat"],
        0,
        "CJ beats the ace of spades"
    );
}

/// Layout A of the generic vectors (dealer 0): seat 1 holds the hearts and KD, seat 2 the
/// black joker, diamonds and 2S, seat 3 the coloured joker and spades, seat 0 KS AS and clubs.
fn layout_a() -> Vec<Card> {
    deck_for([
        "KS AS 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
        "3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH KD",
        "BJ 3D 4D 5D 6D 7D 8D 9D TD JD QD AD 2S",
        "CJ 3S 4S 5S 6S 7S 8S 9S TS JS QS 2C 3C",
    ])
}

fn after_bids(rules: &Rules, order: &[Card]) -> T {
    let mut t = dealt(rules, order);
    bids(&mut t, [(1, 2), (2, 2), (3, 2), (0, 2)]);
    t
}

#[test]
fn play_vector_j4_coloured_joker_after_the_black_in_the_same_trick() {
    let mut t = after_bids(&no_cut(), &layout_a());
    play(&mut t, 1, "AH");
    let e = play(&mut t, 2, "BJ");
    assert_eq!(of_type(&e, "joker_released")[0]["trick"], 1);
    play(&mut t, 3, "CJ");
    let e = play(&mut t, 0, "4C");
    assert_eq!(of_type(&e, "trick_won")[0]["seat"], 3);
    // Under next_trick the coloured joker is still locked in that trick.
    let mut t = after_bids(
        &Rules {
            cj_release: CjRelease::NextTrick,
            ..no_cut()
        },
        &layout_a(),
    );
    play(&mut t, 1, "AH");
    let e = play(&mut t, 2, "BJ");
    assert!(of_type(&e, "joker_released").is_empty());
    try_play(&mut t, 3, "CJ", Rule::ColouredJokerLocked);
    play(&mut t, 3, "3S");
    let e = play(&mut t, 0, "4C");
    assert_eq!(of_type(&e, "trick_won")[0]["seat"], 2, "BJ beats the spade");
    assert_eq!(of_type(&e, "joker_released")[0]["trick"], 2);
}

#[test]
fn play_vector_j5_the_black_joker_by_trick_ten() {
    for deadline in [10u8, 9] {
        let mut t = after_bids(
            &Rules {
                bj_deadline: deadline,
                ..no_cut()
            },
            &layout_a(),
        );
        // Everyone avoids the black joker until its deadline trick.
        let bj = [c("BJ")];
        loop {
            if t.state.trick_no() == deadline && t.state.to_play() == seat(2) {
                break;
            }
            assert!(t.state.trick_no() <= deadline);
            play_next(&mut t, &bj);
        }
        assert!(hand(&t, 2).contains(&c("BJ")));
        assert_eq!(playable(&t, 2), vec![c("BJ")]);
        let other = hand(&t, 2).into_iter().find(|x| *x != c("BJ")).unwrap();
        try_play(&mut t, 2, &other.to_string(), Rule::MustPlayBlackJoker);
        play(&mut t, 2, "BJ");
    }
}

#[test]
fn play_vectors_j6_j7_a_joker_while_holding_the_suit_but_no_trump() {
    // J6: K♦ led; seat 2 holds 5♦ and BJ and plays BJ: legal; it wins unless CJ follows.
    let mut t = after_bids(&no_cut(), &layout_a());
    play(&mut t, 1, "KD");
    play(&mut t, 2, "BJ");
    play(&mut t, 3, "3S");
    let e = play(&mut t, 0, "4C");
    assert_eq!(of_type(&e, "trick_won")[0]["seat"], 2);
    let mut t = after_bids(&no_cut(), &layout_a());
    play(&mut t, 1, "KD");
    play(&mut t, 2, "BJ");
    play(&mut t, 3, "CJ");
    let e = play(&mut t, 0, "4C");
    assert_eq!(of_type(&e, "trick_won")[0]["seat"], 3);
    // J7: K♦ led; seat 2 holds 5♦ and plays 2♠: a renege.
    let mut t = after_bids(&no_cut(), &layout_a());
    play(&mut t, 1, "KD");
    try_play(&mut t, 2, "2S", Rule::MustFollowSuit);
    assert_eq!(
        playable(&t, 2),
        sorted("BJ 3D 4D 5D 6D 7D 8D 9D TD JD QD AD")
    );
}

#[test]
fn play_vector_j8_a_void_player_trumps() {
    let order = deck_for([
        "AD KS AS 5C 6C 7C 8C 9C TC JC QC KC AC",
        "3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH KD",
        "3D 4D 5D 6D 7D 8D 9D TD JD QD BJ 2C 3C",
        "CJ 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS 4C",
    ]);
    let mut t = after_bids(&no_cut(), &order);
    play(&mut t, 1, "KD");
    play(&mut t, 2, "3D");
    play(&mut t, 3, "2S");
    let e = play(&mut t, 0, "AD");
    assert_eq!(of_type(&e, "trick_won")[0]["seat"], 3, "2♠ wins");
}

#[test]
fn play_vector_j9_jokers_are_not_spades() {
    let order = deck_for([
        "3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD AC",
        "7S 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC",
        "BJ 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
        "CJ 2S 3S 4S 5S 6S 8S 9S TS JS QS KS AS",
    ]);
    let mut t = after_bids(&no_cut(), &order);
    play(&mut t, 1, "7S");
    assert_eq!(
        playable(&t, 2),
        sorted("BJ 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"),
        "void in spades: any heart or the black joker"
    );
    play(&mut t, 2, "3H");
}

/// Layout D: seat 1 holds the black joker; seat 2 one spade (AS), hearts and diamonds;
/// seat 3 spades, 3H and the coloured joker; seat 0 5C.
fn layout_d() -> Vec<Card> {
    deck_for([
        "JS QS KS 5C 6D 7D 8D 9D TD JD QD KD AD",
        "BJ 2C 3C 4C 6C 7C 8C 9C TC JC QC KC 5D",
        "AS 4H 5H 6H 7H 8H 9H TH JH QH KH 3D 4D",
        "3H AH CJ 2S 3S 4S 5S 6S 7S 8S 9S TS AC",
    ])
}

#[test]
fn play_vectors_j10_j11_a_joker_lead() {
    // J10, free: a joker lead sets no suit; the black joker wins.
    let mut t = after_bids(&no_cut(), &layout_d());
    play(&mut t, 1, "BJ");
    assert_eq!(playable(&t, 2).len(), 13);
    play(&mut t, 2, "AS");
    play(&mut t, 3, "3H");
    let e = play(&mut t, 0, "5C");
    assert_eq!(of_type(&e, "trick_won")[0]["seat"], 1);
    // J11, calls_spades: the joker lead is a spade lead.
    let mut t = after_bids(
        &Rules {
            joker_lead: JokerLead::CallsSpades,
            ..no_cut()
        },
        &layout_d(),
    );
    play(&mut t, 1, "BJ");
    assert_eq!(playable(&t, 2), vec![c("AS")]);
    play(&mut t, 2, "AS");
    try_play(&mut t, 3, "3H", Rule::MustFollowSuit);
}

#[test]
fn scoring_vectors_17_4() {
    for (contract, tricks, score) in [
        (6, 8, 62),
        (6, 5, -60),
        (5, 5, 50),
        (7, 13, 76),
        (4, 0, -40),
    ] {
        assert_eq!(hand_score(contract, tricks), score, "{contract} / {tricks}");
    }
}

/// Seeds of a deterministic deck search: a deal on which bids 1: 3, 2: 4, 3: 2, 0: 2
/// (team 0 = 6, team 1 = 5) and first-legal-card play give team 0 exactly 8 tricks.
fn deck_where_team_0_takes_8() -> Vec<Card> {
    use rand_chacha::ChaCha8Rng;
    use rand_core::{RngCore, SeedableRng};
    for seed in 0..4000u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut order = DeckKind::Ghahve52.cards();
        for i in (1..order.len()).rev() {
            let j = usize::try_from(rng.next_u64() % u64::try_from(i + 1).unwrap()).unwrap();
            order.swap(i, j);
        }
        let mut st = Ghahve::new_hand(&no_cut(), &match_with(&no_cut(), 0, [0, 0])).unwrap();
        crate::engine::apply_shuffle::<Ghahve>(&mut st, 0, &order).unwrap();
        for (i, n) in [(1u8, 3u8), (2, 4), (3, 2), (0, 2)] {
            crate::engine::apply::<Ghahve>(&mut st, s(i), &Action::Bid { n }).unwrap();
        }
        while st.phase() == Phase::Playing {
            let who = st.to_play();
            let Some(Legal::Play { cards }) = Ghahve::legal_actions(&st, Actor::Seat(who))
                .into_iter()
                .next()
            else {
                panic!("no play")
            };
            let card = cards[0];
            crate::engine::apply::<Ghahve>(&mut st, Actor::Seat(who), &Action::Play { card })
                .unwrap();
        }
        if st.team_tricks() == [8, 5] {
            return order;
        }
    }
    panic!("no deal in 4000 gives team 0 eight tricks");
}

/// The found deal played with `scores` before it: the effects of the whole hand.
fn hand_of_62_and_50(scores: [i64; 2], target: u32) -> T {
    let rules = Rules {
        target_score: target,
        ..no_cut()
    };
    let mut t = T::from_match(&rules, &match_with(&rules, 0, scores));
    t.shuffle(&deck_where_team_0_takes_8());
    bids(&mut t, [(1, 3), (2, 4), (3, 2), (0, 2)]);
    while t.state.phase() == Phase::Playing {
        play_next(&mut t, &[]);
    }
    t
}

#[test]
fn hand_example_17_4_bid_6_took_8_is_62() {
    let t = hand_of_62_and_50([0, 0], 501);
    let scored = of_type(&t.log, "hand_scored");
    assert_eq!(scored.len(), 2);
    assert_eq!(
        (
            scored[0]["team"].clone(),
            scored[0]["contract"].clone(),
            scored[0]["tricks"].clone(),
            scored[0]["points"].clone()
        ),
        (0.into(), 6.into(), 8.into(), 62.into())
    );
    assert_eq!(
        (
            scored[1]["contract"].clone(),
            scored[1]["tricks"].clone(),
            scored[1]["points"].clone()
        ),
        (5.into(), 5.into(), 50.into())
    );
    let o = Ghahve::outcome(&t.state).unwrap();
    assert_eq!(o.points, vec![62, 50]);
    assert_eq!(o.next.scores, vec![62, 50]);
    // §5.3: the dealer's team got ahead, so the deal passes to his right.
    assert_eq!(o.next.dealer, Some(seat(1)));
    assert_eq!(of_type(&t.log, "dealer_passed")[0]["to"], 1);
}

#[test]
fn match_end_vector_17_7() {
    // 495 – 480 before; +62 and +50: both reach 501, team 0 is higher and wins.
    let t = hand_of_62_and_50([495, 480], 501);
    let o = Ghahve::outcome(&t.state).unwrap();
    assert_eq!(o.next.scores, vec![557, 530]);
    assert!(o.next.over);
    assert_eq!(o.next.winner, Some(0));
    assert_eq!(of_type(&t.log, "match_won")[0]["team"], 0);
    assert!(Ghahve::new_hand(&no_cut(), &o.next).is_err());
    // Had both ended on 530, another hand is played (G13); the dealer's team is not ahead.
    let t = hand_of_62_and_50([468, 480], 501);
    let o = Ghahve::outcome(&t.state).unwrap();
    assert_eq!(o.next.scores, vec![530, 530]);
    assert!(!o.next.over);
    assert_eq!(o.next.dealer, Some(seat(0)));
    assert_eq!(match_winner(&[557, 530], 501), Some(0));
    assert_eq!(match_winner(&[530, 530], 501), None);
    assert_eq!(match_winner(&[400, 1001], 1001), Some(1));
}

/// (dealer, team 0 contract/tricks, team 1 contract/tricks, totals after, next dealer).
type Row = (u8, (u8, u8), (u8, u8), [i64; 2], u8);

#[test]
fn dealer_rotation_vector_17_5() {
    // (hand, dealer, team 0 C/t, team 1 C/t, totals after, next dealer)
    let rows: [Row; 5] = [
        (0, (6, 5), (5, 8), [-60, 53], 0),
        (0, (6, 8), (5, 5), [2, 103], 0),
        (0, (7, 10), (4, 3), [75, 63], 1),
        (1, (5, 6), (6, 7), [126, 124], 1),
        (1, (4, 3), (8, 10), [86, 206], 2),
    ];
    let mut totals = [0i64, 0];
    let table = crate::games::tricks::identity(4);
    for (dealer, (c0, t0), (c1, t1), after, next) in rows {
        totals[0] += hand_score(c0, t0);
        totals[1] += hand_score(c1, t1);
        assert_eq!(totals, after);
        // §5.3 invariant: at the start of every hand the dealer's team is not ahead.
        assert_eq!(
            next_dealer(seat(dealer), &totals, &table),
            seat(next),
            "after totals {after:?}"
        );
    }
}

#[test]
fn buying_vector_17_6() {
    let rules = Rules {
        buying: Buying::On,
        ..no_cut()
    };
    let mut t = canonical_deal(&rules);
    bid(&mut t, 1, 2);
    bid(&mut t, 2, 4);
    bid(&mut t, 3, 2);
    let e = bid(&mut t, 0, 3);
    let set = of_type(&e, "contracts_set");
    assert_eq!(
        (set[0]["team0"].clone(), set[0]["team1"].clone()),
        (7.into(), 4.into())
    );
    let offer = of_type(&e, "buy_offered");
    assert_eq!(
        (offer[0]["team"].clone(), offer[0]["required"].clone()),
        (1.into(), 9.into())
    );
    assert_eq!(t.state.phase(), Phase::BuyWindow { team: 1 });
    // Only seat 1, the buyer team's first in bidding order, decides now.
    t.reject(s(3), Action::Buy, "NotYourTurn");
    t.reject(s(0), Action::Buy, "NotYourTurn");
    let e = t.act(s(1), Action::Buy);
    assert_eq!(of_type(&e, "buy_declared")[0]["required"], 9);
    assert_eq!(of_type(&e, "hands_swapped").len(), 1);
    // Hands pass right: seat 1 holds seat 0's former hand.
    assert_eq!(
        hand(&t, 1),
        sorted("5H 6H 7H 8H 9H TD JD QD KD KC AC BJ CJ")
    );
    assert_eq!(
        hand(&t, 2),
        sorted("2S 3S 4S 5S 6S TH JH QH KH AD 2C 3C 4C")
    );
    // Seat 0 still sees his former hand, now seat 1's; seat 2 does not.
    let seen = |looker: u8| {
        t.state
            .zones
            .zone_view(ZoneId::Hand(seat(1)), viewer(looker))
            .iter()
            .all(|c| c.face.is_some())
    };
    assert!(seen(0) && seen(1));
    assert!(!seen(2) && !seen(3));
    // Rebid: the buyers must reach 9.
    bid(&mut t, 1, 5);
    bid(&mut t, 2, 2);
    t.reject(s(3), Action::Bid { n: 3 }, "BuyerCommitmentNotMet");
    assert_eq!(
        Ghahve::legal_actions(&t.state, s(3)),
        vec![Legal::Bid { min: 4, max: 8 }]
    );
    bid(&mut t, 3, 4);
    let e = bid(&mut t, 0, 2);
    let set = of_type(&e, "contracts_set");
    assert_eq!(
        (set[0]["team0"].clone(), set[0]["team1"].clone()),
        (4.into(), 9.into())
    );
    assert_eq!(of_type(&e, "buy_offered")[0]["required"], 11);
    assert_eq!(t.state.phase(), Phase::BuyWindow { team: 0 });
    t.act(s(2), Action::DeclineBuy);
    t.reject(s(2), Action::DeclineBuy, "NotYourTurn");
    t.act(s(0), Action::DeclineBuy);
    assert_eq!(t.state.phase(), Phase::Playing);
    assert_eq!(t.state.to_play(), seat(1));
}

#[test]
fn req_table_17_6() {
    let seller = Rules::default();
    let result = Rules {
        buy_increment: BuyIncrement::ResultAbove10,
        ..Rules::default()
    };
    for s in 4..=8u8 {
        assert_eq!(seller.required(s), Some(s + 2));
        assert_eq!(result.required(s), Some(s + 2));
    }
    let want: [(u8, Option<u8>, Option<u8>); 5] = [
        (9, Some(11), Some(10)),
        (10, Some(12), Some(11)),
        (11, Some(12), Some(12)),
        (12, Some(13), Some(13)),
        (13, None, None),
    ];
    for (s, a, b) in want {
        assert_eq!(seller.required(s), a, "seller_above_10, S = {s}");
        assert_eq!(result.required(s), b, "result_above_10, S = {s}");
    }
}
