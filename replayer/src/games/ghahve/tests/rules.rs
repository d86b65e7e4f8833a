//! Given-when-then per rule: the draw, the cut, turn order, bidding bounds, buying limits,
//! the penalty, match end and what each seat sees.

use super::*;
use crate::cards::{Card, DeckKind};
use crate::engine::{Actor, Game, Viewer};

#[test]
fn highest_card_draw_ranks_the_jokers_on_top() {
    let rules = Rules::default();
    let mut t = T::new(&rules, &Setup { seats: 4 });
    // Seats 0..3 get 5C, KD, CJ, AS: the coloured joker is highest.
    let e = t.shuffle_top(&cards("5C KD CJ AS"));
    assert_eq!(of_type(&e, "draw_card").len(), 4);
    assert_eq!(of_type(&e, "dealer_set")[0]["seat"], 2);
    assert_eq!(t.state.dealer(), Some(seat(2)));
    // The draw cards are public.
    let drawn = t.view(Viewer::Public)["drawn"].clone();
    assert_eq!(drawn[2]["card"]["face"], "CJ");
}

#[test]
fn highest_card_draw_redraws_exactly_the_tied_seats() {
    let mut t = T::new(&Rules::default(), &Setup { seats: 4 });
    // Seats 1 and 3 tie on kings; they draw again in seat order: 4H to 1, 9C to 3.
    let e = t.shuffle_top(&cards("5C KD 2S KH 4H 9C"));
    let seats: Vec<u64> = of_type(&e, "draw_card")
        .iter()
        .map(|d| d["seat"].as_u64().unwrap())
        .collect();
    assert_eq!(seats, vec![0, 1, 2, 3, 1, 3]);
    assert_eq!(t.state.dealer(), Some(seat(3)));
}

#[test]
fn first_ace_draw_skips_jokers() {
    let rules = Rules {
        dealer_draw: DealerDraw::FirstAce,
        ..Rules::default()
    };
    let mut t = T::new(&rules, &Setup { seats: 4 });
    let e = t.shuffle_top(&cards("CJ BJ 5C 2S AH"));
    assert_eq!(of_type(&e, "draw_card").len(), 5);
    assert_eq!(t.state.dealer(), Some(seat(0)), "the fifth card, to seat 0");
}

#[test]
fn by_draw_partners_sit_opposite_and_form_the_teams() {
    let rules = Rules {
        partnerships: Partnerships::ByDraw,
        ..Rules::default()
    };
    let mut t = T::new(&rules, &Setup { seats: 4 });
    // Seat 1 draws highest (AS), seat 2 second (KD): seat 2 moves opposite seat 1.
    let e = t.shuffle_top(&cards("5C AS KD 2C"));
    let seating = of_type(&e, "reseated");
    assert_eq!(seating[0]["seating"], serde_json::json!([0, 1, 3, 2]));
    assert_eq!(t.state.dealer(), Some(seat(1)));
    let table = t.state.table().to_vec();
    assert_eq!(team_of(seat(1), &table), team_of(seat(2), &table));
    assert_ne!(team_of(seat(1), &table), team_of(seat(3), &table));
    // The deal goes round the reseated table: dealer 1, so seat 3 (his right) bids first,
    // and seat 0 (his left) cuts.
    t.shuffle(&DeckKind::Ghahve52.cards());
    assert_eq!(Ghahve::to_act(&t.state).actors[0], s(0));
    t.act(s(0), Action::Cut { k: 10 });
    assert_eq!(t.state.next_bidder(), Some(seat(3)));
}

#[test]
fn the_dealers_left_cuts_between_1_and_51() {
    let rules = Rules::default();
    let mut t = T::from_match(&rules, &match_with(&rules, 0, [0, 0]));
    t.shuffle(&DeckKind::Ghahve52.cards());
    assert_eq!(t.state.phase(), Phase::AwaitingCut);
    t.reject(s(1), Action::Cut { k: 5 }, "NotYourTurn");
    t.reject(s(3), Action::Cut { k: 0 }, "InvalidCut");
    t.reject(s(3), Action::Cut { k: 52 }, "InvalidCut");
    let e = t.act(s(3), Action::Cut { k: 20 });
    assert_eq!(of_type(&e, "cut_applied")[0]["k"], 20);
    // The dealing deck is D[20..51] ++ D[0..19]: seat 1's first packet is deck 20..24.
    let first = &of_type(&e, "dealt")[0];
    assert_eq!(first["seat"], 1);
    let pos: Vec<u64> = first["cards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["pos"].as_u64().unwrap())
        .collect();
    assert_eq!(pos, vec![20, 21, 22, 23, 24]);
    assert!(hand(&t, 1).contains(&c("TH")));
}

#[test]
fn actions_out_of_turn_or_phase_are_refused() {
    let mut t = dealt(&no_cut(), &DeckKind::Ghahve52.cards());
    t.reject(s(0), Action::Bid { n: 3 }, "NotYourTurn");
    t.reject(s(1), Action::Buy, "BuyNotAvailable");
    let card = r(&t, 1, "2S");
    t.reject(s(1), Action::Play { card }, "WrongPhase");
    t.reject(s(1), Action::Cut { k: 3 }, "WrongPhase");
    bids(&mut t, [(1, 3), (2, 4), (3, 2), (0, 2)]);
    t.reject(s(2), Action::Bid { n: 3 }, "WrongPhase");
    let card = r(&t, 2, "7S");
    t.reject(s(2), Action::Play { card }, "NotYourTurn");
    // A card of another seat's hand is not in the player's hand.
    let other = r(&t, 2, "7S");
    t.reject(s(1), Action::Play { card: other }, "CardNotInHand");
}

#[test]
fn buying_is_only_for_the_lower_team_and_within_the_limit() {
    let order = DeckKind::Ghahve52.cards();
    // Equal contracts: no window.
    let rules = Rules {
        buying: Buying::On,
        ..no_cut()
    };
    let mut t = dealt(&rules, &order);
    bids(&mut t, [(1, 3), (2, 3), (3, 3), (0, 3)]);
    assert_eq!(t.state.phase(), Phase::Playing);
    // A seller contract of 13 cannot be bought (Req above 13).
    let mut t = dealt(&rules, &order);
    bids(&mut t, [(1, 2), (2, 11), (3, 2), (0, 2)]);
    assert_eq!(t.state.phase(), Phase::Playing);
    // At most one purchase: after it, no window even if the other team is now lower.
    let once = Rules {
        buying: Buying::On,
        max_buys_per_hand: MaxBuys::AtMost(1),
        ..no_cut()
    };
    let mut t = dealt(&once, &order);
    bids(&mut t, [(1, 2), (2, 4), (3, 2), (0, 3)]);
    t.act(s(1), Action::Buy);
    bids(&mut t, [(1, 5), (2, 2), (3, 4), (0, 2)]);
    assert_eq!(t.state.phase(), Phase::Playing);
    assert_eq!(t.state.buys, 1);
    // Off: never.
    let mut t = dealt(&no_cut(), &order);
    bids(&mut t, [(1, 2), (2, 4), (3, 2), (0, 3)]);
    assert_eq!(t.state.phase(), Phase::Playing);
    t.reject(s(1), Action::Buy, "BuyNotAvailable");
}

#[test]
fn without_the_cap_the_buyers_first_bidder_must_leave_room() {
    let rules = Rules {
        buying: Buying::On,
        team_bid_cap: None,
        ..no_cut()
    };
    let mut t = dealt(&rules, &DeckKind::Ghahve52.cards());
    // Team 0 = 13 + 13 = 26 cannot be bought; 12 + 12 = 24 can: Req(24) = 25.
    bids(&mut t, [(1, 2), (2, 12), (3, 2), (0, 12)]);
    assert_eq!(of_type(&t.log, "buy_offered")[0]["required"], 25);
    t.act(s(1), Action::Buy);
    // The buyers' first bidder must bid at least 25 − 13 = 12.
    t.reject(s(1), Action::Bid { n: 11 }, "BuyerCommitmentNotMet");
    bid(&mut t, 1, 12);
    bid(&mut t, 2, 2);
    t.reject(s(3), Action::Bid { n: 12 }, "BuyerCommitmentNotMet");
    bid(&mut t, 3, 13);
}

#[test]
fn a_seat_sees_its_own_hand_and_nothing_hidden() {
    let t = dealt(&no_cut(), &DeckKind::Ghahve52.cards());
    for i in 0..4u8 {
        let v = t.view(viewer(i));
        let zones = v["zones"].as_array().unwrap();
        for z in zones {
            let own = z["zone"] == "hand" && z["of"] == i;
            for card in z["cards"].as_array().unwrap() {
                assert_eq!(card.get("face").is_some(), own, "seat {i}: {z}");
            }
        }
        assert_eq!(v["trump"], "S");
    }
    let public = t.view(Viewer::Public);
    assert!(public["zones"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|z| z["cards"].as_array().unwrap().iter())
        .all(|c| c.get("face").is_none()));
}

#[test]
fn the_cheating_penalty_awards_points_and_can_end_the_match() {
    let rules = Rules {
        target_score: 100,
        ..no_cut()
    };
    let mut t = T::from_match(&rules, &match_with(&rules, 0, [95, 40]));
    t.shuffle(&DeckKind::Ghahve52.cards());
    t.reject(
        s(1),
        Action::AwardCheatingPenalty {
            offender: seat(1),
            beneficiary: None,
        },
        "NotYourTurn",
    );
    t.reject(
        Actor::Service,
        Action::AwardCheatingPenalty {
            offender: seat(1),
            beneficiary: Some(seat(3)),
        },
        "BadPenalty",
    );
    let e = t.act(
        Actor::Service,
        Action::AwardCheatingPenalty {
            offender: seat(1),
            beneficiary: Some(seat(2)),
        },
    );
    assert_eq!(of_type(&e, "penalty_awarded")[0]["points"], 10);
    assert_eq!(of_type(&e, "match_won")[0]["team"], 0);
    assert_eq!(t.state.phase(), Phase::HandOver);
    t.reject(s(1), Action::Bid { n: 3 }, "MatchOver");
    let o = Ghahve::outcome(&t.state).unwrap();
    assert_eq!(o.next.scores, vec![105, 40]);
    assert!(o.teams.is_empty(), "the hand was not played out");
}

#[test]
fn offender_fails_scores_the_offending_team_as_failed() {
    let rules = Rules {
        cheating_penalty: CheatingPenalty::OffenderFails,
        ..no_cut()
    };
    let mut t = dealt(&rules, &DeckKind::Ghahve52.cards());
    bids(&mut t, [(1, 2), (2, 2), (3, 2), (0, 2)]);
    t.act(
        Actor::Service,
        Action::AwardCheatingPenalty {
            offender: seat(2),
            beneficiary: None,
        },
    );
    while t.state.phase() == Phase::Playing {
        play_next(&mut t, &[]);
    }
    let scored = of_type(&t.log, "hand_scored");
    assert_eq!(scored[0]["team"], 0);
    assert_eq!(
        scored[0]["points"], -40,
        "team 0's contract of 4 failed by penalty"
    );
    let team1 = scored[1]["tricks"].as_i64().unwrap();
    assert_eq!(
        scored[1]["points"].as_i64().unwrap(),
        hand_score(4, team1 as u8)
    );
    // `none`: the service has nothing to award.
    let none = Rules {
        cheating_penalty: CheatingPenalty::None,
        ..no_cut()
    };
    let mut t = dealt(&none, &DeckKind::Ghahve52.cards());
    assert!(Ghahve::legal_actions(&t.state, Actor::Service).is_empty());
    t.reject(
        Actor::Service,
        Action::AwardCheatingPenalty {
            offender: seat(2),
            beneficiary: None,
        },
        "NoPenalty",
    );
}

#[test]
fn a_ruling_after_the_hand_carries_the_points_into_the_match() {
    let rules = Rules::default();
    let m = match_with(&rules, 1, [120, 130]);
    let p = serde_json::json!({"type": "cheating_penalty", "offender": 1, "beneficiary": 0});
    let award = Ghahve::penalty(&rules, &m, &p).unwrap();
    assert_eq!(award.beneficiaries, vec![vec![seat(0), seat(2)]]);
    assert_eq!(award.points, 10);
    assert_eq!(award.section, "ghahve §12.3");
    let next = Ghahve::apply_award(&rules, &m, &award).unwrap();
    assert_eq!(next.scores, vec![130, 130]);
    assert_eq!(next.dealer, Some(seat(1)));
    let bad = serde_json::json!({"type": "cheating_penalty", "offender": 1, "beneficiary": 3});
    assert_eq!(
        Ghahve::penalty(&rules, &m, &bad).unwrap_err().rule,
        "BadPenalty"
    );
    let fails = Rules {
        cheating_penalty: CheatingPenalty::OffenderFails,
        ..Rules::default()
    };
    assert_eq!(
        Ghahve::penalty(&fails, &m, &p).unwrap_err().rule,
        "BadPenalty"
    );
}

#[test]
fn the_hand_always_offers_a_move_and_ends_after_13_tricks() {
    use rand_chacha::ChaCha8Rng;
    use rand_core::{RngCore, SeedableRng};
    for seed in 0..20u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut order = DeckKind::Ghahve52.cards();
        for i in (1..order.len()).rev() {
            let j = usize::try_from(rng.next_u64() % u64::try_from(i + 1).unwrap()).unwrap();
            order.swap(i, j);
        }
        let mut t = after_two_each(&order);
        let mut plays = 0;
        while t.state.phase() == Phase::Playing {
            play_next(&mut t, &[]);
            plays += 1;
        }
        assert_eq!(plays, 52);
        assert_eq!(t.state.tricks_played(), 13);
        assert!(t.state.bj_played, "the black joker is always played");
        assert_eq!(t.state.team_tricks().iter().sum::<u8>(), 13);
    }
}

fn after_two_each(order: &[Card]) -> T {
    let mut t = dealt(&no_cut(), order);
    bids(&mut t, [(1, 2), (2, 2), (3, 2), (0, 2)]);
    t
}
