//! Given-when-then tests, one or more per rule of the spec.

use super::*;
use crate::engine::{SetupError, ShuffleRequest};

// ---- §2 points and totals -------------------------------------------------------------

#[test]
fn points_follow_l6() {
    let p = |code: &str| points(c(code));
    assert_eq!(
        ["6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS", "AS"].map(p),
        [6, 7, 8, 9, 10, 2, 3, 4, 11]
    );
}

#[test]
fn two_aces_make_21_only_as_exactly_two_cards() {
    assert_eq!(total([c("AS"), c("AH")]), 21);
    assert_eq!(
        total([c("AS"), c("AH"), c("JS")]),
        24,
        "an ace is never 1 (D-1)"
    );
    assert_eq!(total([c("AS")]), 11);
    assert_eq!(total([c("AS"), c("10H")]), 21);
    assert_eq!(total([c("JS"), c("JH"), c("JD"), c("JC"), c("QS")]), 11);
}

// ---- Set-up ---------------------------------------------------------------------------

#[test]
fn setup_from_seats_alone_uses_defaults() {
    let setup: Setup = serde_json::from_str(r#"{"seats": 3}"#).unwrap();
    assert_eq!(
        setup,
        Setup {
            seats: 3,
            first_banker: SeatIndex(0),
            balances: vec![]
        }
    );
    let m = BistOYek::new_match(&Rules::default(), &setup).unwrap();
    assert_eq!(
        m,
        Match {
            seats: 3,
            balances: vec![10_000; 3],
            candidate: SeatIndex(0),
            declines: 0,
            over: false,
            turn: 1
        }
    );
}

#[test]
fn setup_is_validated() {
    let rules = Rules::default();
    let mk = |seats, first, balances: Vec<u64>| Setup {
        seats,
        first_banker: SeatIndex(first),
        balances,
    };
    for n in [0, 1, 11, 255] {
        assert!(matches!(
            BistOYek::new_match(&rules, &mk(n, 0, vec![])),
            Err(SetupError::Seats {
                min: 2,
                max: 10,
                ..
            })
        ));
    }
    assert!(BistOYek::new_match(&rules, &mk(10, 9, vec![])).is_ok());
    assert!(matches!(
        BistOYek::new_match(&rules, &mk(3, 3, vec![])),
        Err(SetupError::Match(_))
    ));
    assert!(matches!(
        BistOYek::new_match(&rules, &mk(3, 0, vec![1, 2])),
        Err(SetupError::Match(_))
    ));
    assert!(matches!(
        BistOYek::new_match(&rules, &mk(2, 0, vec![u64::MAX, 1])),
        Err(SetupError::Match(_))
    ));
    let bad = Rules {
        min_bet: 0,
        ..Rules::default()
    };
    assert!(matches!(
        BistOYek::new_match(&bad, &mk(2, 0, vec![])),
        Err(SetupError::Rules(_))
    ));
    let huge = Rules {
        bank_stake: u64::MAX / 4,
        khabar_multiple: 2,
        ..Rules::default()
    };
    assert!(BistOYek::new_match(&huge, &mk(2, 0, vec![])).is_err());
}

#[test]
fn a_match_that_is_over_starts_no_hand() {
    let m = Match {
        seats: 2,
        balances: vec![1, 2],
        candidate: SeatIndex(0),
        declines: 0,
        over: true,
        turn: 4,
    };
    assert_eq!(
        BistOYek::new_hand(&Rules::default(), &m).unwrap_err(),
        SetupError::MatchOver
    );
    let bad = Match {
        over: false,
        candidate: SeatIndex(2),
        ..m
    };
    assert!(BistOYek::new_hand(&Rules::default(), &bad).is_err());
}

#[test]
fn house_rules_ranges() {
    let ok = |r: Rules| r.validate().is_ok();
    let d = Rules::default;
    assert!(!ok(Rules {
        bank_stake: 0,
        ..d()
    }));
    assert!(!ok(Rules { min_bet: 0, ..d() }));
    assert!(!ok(Rules {
        max_bet: MaxBet::Fixed(49),
        ..d()
    }));
    assert!(ok(Rules {
        max_bet: MaxBet::Fixed(50),
        ..d()
    }));
    assert!(!ok(Rules {
        khabar_multiple: 1,
        ..d()
    }));
    assert!(ok(Rules {
        khabar_multiple: 2,
        ..d()
    }));
}

// ---- §4 roles: bank offers ------------------------------------------------------------

#[test]
fn a_declined_offer_passes_right_and_n_declines_end_the_match() {
    let mut t = Table::new(Rules::default(), &[5000, 5000, 5000]);
    assert_eq!(BistOYek::to_act(&t.st).actors, vec![s(0), Actor::Service]);
    t.reject(s(1), Action::AcceptBank, "WrongActor");
    t.reject(s(1), Action::DeclineBank, "WrongActor");
    t.reject(s(0), Action::Deal, "WrongPhase");
    let e = t.act(s(0), Action::DeclineBank);
    assert_eq!(
        e,
        vec![
            Effect::BankDeclined {
                seat: SeatIndex(0),
                declines: 1
            },
            Effect::BankOffered {
                candidate: SeatIndex(1),
                declines: 1
            }
        ]
    );
    t.act(s(1), Action::DeclineBank);
    let e = t.act(s(2), Action::DeclineBank);
    assert_eq!(
        e[1],
        Effect::MatchEnded {
            reason: EndReason::EveryoneDeclined
        }
    );
    assert_eq!(t.phase(), Phase::MatchOver);
    assert!(BistOYek::to_act(&t.st).is_over());
    t.reject(Actor::Service, Action::EndMatch, "WrongPhase");
    let o = BistOYek::outcome(&t.st).unwrap();
    assert_eq!(o.banker, None);
    assert_eq!(o.net, vec![0, 0, 0]);
    assert!(o.match_over);
    assert_eq!(o.reason, EndReason::EveryoneDeclined);
    let m = BistOYek::next_match(&t.st).unwrap();
    assert!(m.over);
    assert!(BistOYek::match_over(&m));
}

#[test]
fn a_candidate_short_of_the_stake_can_only_decline() {
    let mut t = Table::new(Rules::default(), &[999, 5000]);
    assert_eq!(
        BistOYek::legal_actions(&t.st, s(0)),
        vec![Legal::DeclineBank]
    );
    let v = t.reject(s(0), Action::AcceptBank, "StakeUnaffordable");
    assert_eq!(v.section, "bist-o-yek §6.5");
    t.act(s(0), Action::DeclineBank);
    t.act(s(1), Action::AcceptBank);
    assert_eq!(t.st.banker, Some(SeatIndex(1)));
    assert_eq!(t.bal(), vec![999, 4000]);
}

#[test]
fn accepting_posts_the_stake_and_asks_for_a_full_shuffle() {
    let mut t = Table::new(Rules::default(), &[5000, 1000]);
    t.act(s(0), Action::AcceptBank);
    let ta = BistOYek::to_act(&t.st);
    assert!(ta.actors.is_empty(), "no actor while a shuffle is pending");
    assert_eq!(
        ta.shuffle,
        Some(ShuffleRequest::deck("new_turn", DeckKind::BistOYek36))
    );
    for a in [Action::Deal, Action::AcceptBank, Action::EndMatch] {
        t.reject(s(0), a.clone(), "WrongPhase");
        t.reject(Actor::Service, a, "WrongPhase");
    }
}

// ---- §6.2 shuffles --------------------------------------------------------------------

#[test]
fn a_shuffle_must_be_a_permutation_of_the_requested_cards() {
    let mut t = Table::new(Rules::default(), &[5000, 1000]);
    let before = t.st.clone();
    assert_eq!(
        BistOYek::decide_shuffle(&t.st, 0, &order(""))
            .unwrap_err()
            .rule,
        "WrongPhase",
        "no shuffle pending at BankOffer"
    );
    t.act(s(0), Action::AcceptBank);
    let mut short = order("");
    short.pop();
    let mut dup = order("");
    dup[0] = dup[1];
    let mut foreign = order("");
    foreign[0] = c("2S");
    for bad in [short, dup, foreign, Vec::new()] {
        let before = t.st.clone();
        let v = apply_shuffle::<BistOYek>(&mut t.st, 0, &bad).unwrap_err();
        assert_eq!(v.rule, "BadShuffle");
        assert_eq!(t.st, before);
    }
    // The shuffle number must be the next one of the hand.
    assert_eq!(
        BistOYek::decide_shuffle(&t.st, 1, &order(""))
            .unwrap_err()
            .rule,
        "BadShuffle"
    );
    assert_ne!(before, t.st);
    t.shuffle(&order(""));
}

/// Play cheap rounds (minimum bet, stand, banker stands) until a shuffle is asked for.
fn play_until_shuffle(t: &mut Table, stop_at_bet: bool) {
    for _ in 0..200 {
        if BistOYek::to_act(&t.st).shuffle.is_some() {
            return;
        }
        match t.phase() {
            Phase::RoundStart => {
                t.act(s(0), Action::Deal);
            }
            Phase::AwaitBet => {
                let p = Actor::Seat(t.st.duel_player().unwrap());
                t.act(p, bet(50));
                if stop_at_bet && t.st.zones.is_empty(STOCK) {
                    return;
                }
            }
            Phase::PlayerTurn => {
                let p = Actor::Seat(t.st.duel_player().unwrap());
                t.act(p, Action::Stand);
            }
            Phase::BankerTurn => {
                t.act(s(0), Action::BankerStand);
            }
            Phase::SwapDecision => {
                t.act(s(0), Action::Keep);
            }
            other => panic!("unexpected phase {other:?}"),
        }
    }
    panic!("no shuffle asked for");
}

#[test]
fn an_empty_stock_is_restocked_from_the_discard_and_the_draw_goes_on() {
    // n = 2: each round uses 2 cards; after 18 rounds the next deal needs a restock.
    let mut t = Table::started(Rules::default(), &[100_000, 100_000], "");
    play_until_shuffle(&mut t, false);
    assert_eq!(
        t.phase(),
        Phase::AwaitShuffle {
            reason: ShuffleReason::Restock,
            resume: Resume::Dealing
        }
    );
    assert_eq!(t.st.round, 19);
    let req = BistOYek::to_act(&t.st).shuffle.unwrap();
    assert_eq!(req.reason, "restock");
    let mut discard: Vec<Card> = t.st.zones.faces(DISCARD);
    discard.sort();
    assert_eq!(req.cards, discard);
    assert_eq!(req.cards.len(), 36);
    t.reject(s(0), Action::Deal, "WrongPhase");
    // The restock is the discard pile, reversed.
    let mut new_order = discard.clone();
    new_order.reverse();
    let e = t.shuffle(&new_order);
    assert_eq!(
        e[0],
        Effect::Shuffled {
            shuffle: 1,
            reason: ShuffleReason::Restock,
            cards: 36
        }
    );
    assert_eq!(
        e[1],
        Effect::HiddenDealt {
            card: crate::engine::CardRef { shuffle: 1, pos: 0 }
        }
    );
    assert_eq!(t.hidden(), Some(new_order[0]));
    assert_eq!(t.phase(), Phase::AwaitBet);
    assert_eq!(t.replay(), t.st);
}

#[test]
fn a_restock_in_the_middle_of_a_hit() {
    // 17 rounds use 34 cards; round 18 deals the last 2; the hit needs a restock.
    let mut t = Table::started(Rules::default(), &[100_000, 100_000], "");
    play_until_shuffle(&mut t, true);
    assert_eq!(t.phase(), Phase::PlayerTurn);
    assert!(t.st.zones.is_empty(STOCK));
    let e = t.act(s(1), hit());
    assert_eq!(
        e,
        vec![Effect::Phase {
            phase: Phase::AwaitShuffle {
                reason: ShuffleReason::Restock,
                resume: Resume::PlayerDrawFaceDown
            }
        }]
    );
    let req = BistOYek::to_act(&t.st).shuffle.unwrap();
    assert_eq!(
        req.cards.len(),
        36 - 2,
        "the hidden card and the player's card are out"
    );
    let e = t.shuffle(&req.cards);
    assert!(matches!(
        e[1],
        Effect::PlayerCardDealt {
            face: None,
            card: crate::engine::CardRef { shuffle: 1, pos: 0 },
            ..
        }
    ));
    assert_eq!(t.player_cards().len(), 2);
    assert_eq!(t.replay(), t.st);
}

#[test]
fn shuffle_every_round_asks_for_a_round_shuffle() {
    let rules = Rules {
        shuffle_every_round: true,
        ..Rules::default()
    };
    let mut t = Table::started(rules, &[5000, 1000], "9C 10D");
    t.act(s(0), Action::Deal);
    t.act(s(1), bet(50));
    t.act(s(1), Action::Stand);
    let e = t.act(s(0), Action::BankerStand);
    assert_eq!(
        e.last(),
        Some(&Effect::Phase {
            phase: Phase::AwaitShuffle {
                reason: ShuffleReason::Round,
                resume: Resume::RoundStart
            }
        })
    );
    assert_eq!(
        BistOYek::to_act(&t.st).shuffle.unwrap().cards,
        DeckKind::BistOYek36.cards()
    );
    t.shuffle(&order(""));
    assert_eq!(t.phase(), Phase::RoundStart);
    assert!(t.st.zones.is_empty(DISCARD));
    assert_eq!(t.st.zones.len(STOCK), 36);
}

#[test]
fn without_shuffle_every_round_the_stock_carries_over() {
    let mut t = Table::started(Rules::default(), &[5000, 1000], "9C 10D");
    t.act(s(0), Action::Deal);
    t.act(s(1), bet(50));
    t.act(s(1), Action::Stand);
    t.act(s(0), Action::BankerStand);
    assert_eq!(t.phase(), Phase::RoundStart);
    assert_eq!(t.st.zones.len(STOCK), 34);
    assert_eq!(t.st.zones.len(DISCARD), 2);
}

// ---- §6.4 automatic steps -------------------------------------------------------------

#[test]
fn deal_all_first_gives_the_banker_his_card_first_then_the_players_to_the_right() {
    // n = 4, banker s2 (s0 and s1 decline): duels go s3, s0, s1.
    let mut t = Table::new(Rules::default(), &[5000, 5000, 5000, 5000]);
    t.act(s(0), Action::DeclineBank);
    t.act(s(1), Action::DeclineBank);
    t.act(s(2), Action::AcceptBank);
    assert_eq!(t.st.declines, 0);
    t.shuffle(&order("6S 7S 8S 9S"));
    let e = t.act(s(2), Action::Deal);
    assert_eq!(
        e[..5],
        [
            Effect::RoundDealt {
                round: 1,
                queue: vec![SeatIndex(3), SeatIndex(0), SeatIndex(1)]
            },
            Effect::HiddenDealt {
                card: crate::engine::CardRef { shuffle: 0, pos: 0 }
            },
            Effect::WaitingDealt {
                seat: SeatIndex(3),
                card: crate::engine::CardRef { shuffle: 0, pos: 1 }
            },
            Effect::WaitingDealt {
                seat: SeatIndex(0),
                card: crate::engine::CardRef { shuffle: 0, pos: 2 }
            },
            Effect::WaitingDealt {
                seat: SeatIndex(1),
                card: crate::engine::CardRef { shuffle: 0, pos: 3 }
            },
        ]
    );
    assert_eq!(t.st.duel_player(), Some(SeatIndex(3)));
    assert_eq!(t.hidden(), Some(c("6S")));
    assert_eq!(t.player_cards(), vec![c("7S")]);
}

#[test]
fn deal_one_at_a_time_deals_each_player_at_his_duel() {
    let rules = Rules {
        deal_mode: DealMode::OneAtATime,
        ..Rules::default()
    };
    let mut t = Table::started(rules, &[5000, 1000, 1000], "6S 7S 8S 9S 10S");
    let e = t.act(s(0), Action::Deal);
    assert!(!e
        .iter()
        .any(|e| matches!(e, Effect::WaitingDealt { .. } | Effect::FirstCard { .. })));
    assert_eq!(t.hidden(), Some(c("6S")));
    assert_eq!(t.player_cards(), vec![c("7S")]);
    assert!((0..3).all(|i| t.st.waiting(SeatIndex(i)).is_none()));
    t.act(s(1), bet(50));
    t.act(s(1), Action::Stand);
    t.act(s(0), Action::BankerStand); // 6 < 7: s1 wins
                                      // s2's duel: a fresh banker card, then s2's card.
    assert_eq!(t.hidden(), Some(c("8S")));
    assert_eq!(t.player_cards(), vec![c("9S")]);
}

#[test]
fn one_at_a_time_swap_comes_before_the_players_first_card() {
    let rules = Rules {
        deal_mode: DealMode::OneAtATime,
        ..Rules::default()
    };
    // s1: 10 + 10 + A = bust; the banker's 6♠ is carried to s2's duel.
    let mut t = Table::started(rules, &[5000, 1000, 1000], "6S 10S 10H AS 7S 8S");
    t.act(s(0), Action::Deal);
    t.act(s(1), bet(50));
    t.act(s(1), hit());
    t.act(s(1), hit());
    t.act(s(1), Action::AnnounceSuz);
    assert_eq!(t.phase(), Phase::SwapDecision);
    assert!(
        t.player_cards().is_empty(),
        "no card for s2 before the swap"
    );
    let e = t.act(s(0), Action::Swap);
    assert!(matches!(e[1], Effect::HiddenDealt { .. }));
    assert_eq!(t.hidden(), Some(c("7S")));
    assert_eq!(t.player_cards(), vec![c("8S")]);
}

#[test]
fn every_duel_swap_is_offered_at_every_opening_and_off_never() {
    let rules = Rules {
        banker_swap: BankerSwap::EveryDuel,
        ..Rules::default()
    };
    let mut t = Table::started(rules, &[5000, 1000], "6S 7S 8S");
    t.act(s(0), Action::Deal);
    assert_eq!(t.phase(), Phase::SwapDecision);
    assert_eq!(BistOYek::to_act(&t.st).actors, vec![s(0)]);
    t.reject(s(1), bet(50), "WrongPhase");
    t.reject(s(1), Action::Keep, "WrongActor");
    let e = t.act(s(0), Action::Keep);
    assert_eq!(
        e[0],
        Effect::Kept {
            card: crate::engine::CardRef { shuffle: 0, pos: 0 }
        }
    );
    assert_eq!(t.phase(), Phase::AwaitBet);
    assert_eq!(t.hidden(), Some(c("6S")));

    let off = Rules {
        banker_swap: BankerSwap::Off,
        ..Rules::default()
    };
    let mut t = Table::started(off, &[5000, 1000], "");
    t.act(s(0), Action::Deal);
    assert_eq!(t.phase(), Phase::AwaitBet);
}

#[test]
fn after_suz_a_replacement_that_is_carried_again_may_be_swapped_again() {
    // D-16: s1 busts, swap, s2 busts too, the replacement is carried to s3's duel.
    let mut t = Table::started(
        Rules::default(),
        &[5000, 1000, 1000, 1000],
        "6S 10S 10H 10D KS AS 7S QS AH",
    );
    t.act(s(0), Action::Deal);
    t.act(s(1), bet(50));
    t.act(s(1), hit()); // K♠: 14
    t.act(s(1), hit()); // A♠: 25
    t.act(s(1), Action::AnnounceSuz);
    assert_eq!(t.phase(), Phase::SwapDecision);
    t.act(s(0), Action::Swap); // 6♠ out, 7♠ in
    assert_eq!(t.hidden(), Some(c("7S")));
    t.act(s(2), bet(50));
    t.act(s(2), hit()); // Q♠: 13
    t.act(s(2), hit()); // A♥: 24
    t.act(s(2), Action::AnnounceSuz);
    assert!(t.st.carried);
    assert_eq!(t.phase(), Phase::SwapDecision);
    assert_eq!(t.st.duel_player(), Some(SeatIndex(3)));
}

#[test]
fn the_player_may_stand_on_one_card_and_the_banker_on_his_first() {
    let mut t = Table::started(Rules::default(), &[5000, 1000], "9C 10D");
    t.act(s(0), Action::Deal);
    t.act(s(1), bet(100));
    t.act(s(1), Action::Stand);
    let e = t.act(s(0), Action::BankerStand);
    assert!(e.contains(&Effect::DuelResult {
        player: SeatIndex(1),
        case: Case::S3,
        player_total: 10,
        banker_total: Some(9)
    }));
    assert_eq!(t.bal(), vec![4000, 1100]);
}

#[test]
fn a_bet_comes_first_and_only_the_duel_player_bets() {
    let mut t = Table::started(Rules::default(), &[5000, 1000, 1000], "");
    t.act(s(0), Action::Deal);
    t.reject(s(1), hit(), "WrongPhase");
    t.reject(s(1), Action::Stand, "WrongPhase");
    t.reject(s(2), bet(50), "WrongActor");
    t.reject(Actor::Service, bet(50), "WrongActor");
    t.act(s(1), bet(50));
    t.reject(s(1), bet(50), "WrongPhase");
}

#[test]
fn suz_is_illegal_when_not_bust() {
    let mut t = Table::started(Rules::default(), &[5000, 1000], "");
    t.act(s(0), Action::Deal);
    t.act(s(1), bet(50));
    t.reject(s(1), Action::AnnounceSuz, "WrongPhase");
}

#[test]
fn the_banker_acts_only_in_his_phases() {
    let mut t = Table::started(Rules::default(), &[5000, 1000], "9C 10D 8S");
    t.reject(s(1), Action::Deal, "WrongActor");
    t.reject(s(0), Action::BankerHit, "WrongPhase");
    t.act(s(0), Action::Deal);
    t.act(s(1), bet(50));
    t.reject(s(0), Action::BankerHit, "WrongPhase");
    t.reject(s(0), Action::Stand, "WrongActor");
    t.act(s(1), Action::Stand);
    t.reject(s(1), Action::BankerHit, "WrongActor");
    t.reject(s(1), hit(), "WrongPhase");
    t.reject(s(0), Action::DealFaceUp, "WrongPhase");
}

#[test]
fn the_banker_reaching_21_is_compared_at_once_and_over_21_loses() {
    // 10♣ then A♦: 21 against 10 + 7.
    let mut t = Table::started(Rules::default(), &[5000, 1000], "10C 10D 7H AD");
    t.act(s(0), Action::Deal);
    t.act(s(1), bet(100));
    t.act(s(1), hit());
    t.act(s(1), Action::Stand);
    let e = t.act(s(0), Action::BankerHit);
    assert!(e.contains(&Effect::DuelResult {
        player: SeatIndex(1),
        case: Case::S5,
        player_total: 17,
        banker_total: Some(21)
    }));
    assert_eq!(t.phase(), Phase::RoundStart);
}

#[test]
fn push_tie_rule_returns_the_stakes() {
    let rules = Rules {
        tie_rule: TieRule::Push,
        ..Rules::default()
    };
    let mut t = Table::started(rules, &[5000, 1000], "9C 10D 7H 8S");
    t.act(s(0), Action::Deal);
    t.act(s(1), bet(200));
    t.act(s(1), hit());
    t.act(s(1), Action::Stand);
    t.act(s(0), Action::BankerHit);
    let e = t.act(s(0), Action::BankerStand);
    assert!(e.contains(&Effect::Settled {
        seat: SeatIndex(1),
        amount: 200,
        main: true,
        case: Case::S4,
        escrow_to_owner: 200,
        escrow_to_bank: 0,
        bank_to_owner: 0
    }));
    assert_eq!(t.bal(), vec![4000, 1000]);
    assert_eq!(t.st.bank, 1000);
}

#[test]
fn a_fixed_max_bet_caps_main_and_side_bets() {
    let rules = Rules {
        max_bet: MaxBet::Fixed(300),
        side_bets: true,
        ..Rules::default()
    };
    let mut t = Table::started(rules, &[5000, 1000, 1000], "");
    t.act(s(0), Action::Deal);
    assert_eq!(
        BistOYek::legal_actions(&t.st, s(1)),
        vec![Legal::Bet { min: 50, max: 300 }]
    );
    t.reject(s(1), bet(301), "BetAboveMax");
    t.act(s(1), bet(300));
    assert_eq!(
        BistOYek::legal_actions(&t.st, s(2)),
        vec![Legal::SideBet { min: 50, max: 300 }]
    );
    t.reject(s(2), side(301), "BetAboveMax");
}

// ---- §5.5 side bets -------------------------------------------------------------------

#[test]
fn side_bets_off_by_default() {
    let mut t = Table::started(Rules::default(), &[5000, 1000, 1000], "");
    t.act(s(0), Action::Deal);
    t.act(s(1), bet(50));
    t.reject(s(2), side(50), "SideBetsOff");
    assert_eq!(BistOYek::to_act(&t.st).actors, vec![s(1)]);
}

#[test]
fn side_bet_rules() {
    let rules = Rules {
        side_bets: true,
        ..Rules::default()
    };
    let mut t = Table::started(rules, &[5000, 1000, 1000, 100], "");
    t.act(s(0), Action::Deal);
    // Not before the main bet.
    t.reject(s(2), side(50), "WrongPhase");
    t.act(s(1), bet(100));
    // The owner may not.
    t.reject(s(1), side(50), "SideBetNotAllowed");
    t.reject(Actor::Service, side(50), "WrongActor");
    // min_bet applies.
    t.reject(s(2), side(49), "BetBelowMin");
    // Covered by the balance.
    t.reject(s(3), side(150), "InsufficientFunds");
    t.act(s(2), side(100));
    // One per seat per duel.
    t.reject(s(2), side(50), "SideBetNotAllowed");
    t.act(s(3), side(100));
    assert_eq!(t.st.exposure(), 300);
    // The window closes at the owner's first hit.
    let e = t.act(s(1), hit());
    assert_eq!(e[0], Effect::SideBetsClosed);
    if t.phase() == Phase::PlayerTurn {
        t.reject(s(2), side(50), "WrongPhase");
        assert_eq!(BistOYek::to_act(&t.st).actors, vec![s(1)]);
    }
}

#[test]
fn the_side_bet_window_closes_on_stand() {
    let rules = Rules {
        side_bets: true,
        ..Rules::default()
    };
    let mut t = Table::started(rules, &[5000, 1000, 1000], "");
    t.act(s(0), Action::Deal);
    t.act(s(1), bet(100));
    let e = t.act(s(1), Action::Stand);
    assert_eq!(e[0], Effect::SideBetsClosed);
}

// ---- §5.6 bank khabar and §8 end of turn ----------------------------------------------

#[test]
fn khabar_only_at_round_start_by_the_banker() {
    let mut t = Table::started(Rules::default(), &[5000, 1000], "");
    t.given_bank(3000, 0);
    t.act(s(0), Action::Deal);
    t.reject(s(0), Action::AnnounceKhabar, "WrongPhase");
}

#[test]
fn nobody_can_bet_ends_the_turn_at_round_start() {
    let mut t = Table::new(Rules::default(), &[5000, 0, 10]);
    t.act(s(0), Action::AcceptBank);
    let e = t.shuffle(&order(""));
    assert_eq!(
        e[1..],
        [
            Effect::BankTaken {
                banker: SeatIndex(0),
                amount: 1000
            },
            Effect::TurnEnded {
                banker: SeatIndex(0),
                reason: EndReason::NoPlayerCanBet,
                next_candidate: SeatIndex(1)
            }
        ]
    );
    let o = BistOYek::outcome(&t.st).unwrap();
    assert_eq!(o.net, vec![0, 0, 0]);
    assert_eq!(o.reason, EndReason::NoPlayerCanBet);
}

#[test]
fn end_match_by_the_service_at_round_start_gives_the_banker_the_bank() {
    let mut t = Table::started(Rules::default(), &[5000, 1000], "");
    assert_eq!(BistOYek::to_act(&t.st).actors, vec![s(0), Actor::Service]);
    t.reject(s(0), Action::EndMatch, "WrongActor");
    t.given_bank(1500, 1);
    let e = t.act(Actor::Service, Action::EndMatch);
    assert_eq!(
        e,
        vec![
            Effect::BankTaken {
                banker: SeatIndex(0),
                amount: 1500
            },
            Effect::MatchEnded {
                reason: EndReason::EndMatch
            }
        ]
    );
    let o = BistOYek::outcome(&t.st).unwrap();
    assert_eq!(o.net, vec![500, -500]);
    assert!(o.match_over);
    assert!(BistOYek::next_match(&t.st).unwrap().over);
}

#[test]
fn end_match_at_a_bank_offer_and_not_during_a_duel() {
    let mut t = Table::new(Rules::default(), &[5000, 1000]);
    t.act(Actor::Service, Action::EndMatch);
    assert_eq!(t.phase(), Phase::MatchOver);
    let mut t = Table::started(Rules::default(), &[5000, 1000], "");
    t.act(s(0), Action::Deal);
    t.reject(Actor::Service, Action::EndMatch, "WrongPhase");
    assert!(BistOYek::legal_actions(&t.st, Actor::Service).is_empty());
}

#[test]
fn next_hand_starts_with_the_offer_to_the_right_of_the_outgoing_banker() {
    let mut t = Table::new(Rules::default(), &[5000, 5000, 5000]);
    t.act(s(0), Action::DeclineBank);
    t.act(s(1), Action::DeclineBank);
    t.act(s(2), Action::AcceptBank);
    t.shuffle(&order(""));
    t.given_bank(3000, 0);
    t.act(s(2), Action::AnnounceKhabar);
    t.shuffle(&order(""));
    t.act(s(2), Action::Deal);
    while !t.phase().is_over() {
        match t.phase() {
            Phase::AwaitBet => {
                let p = Actor::Seat(t.st.duel_player().unwrap());
                t.act(p, bet(50));
            }
            Phase::PlayerTurn => {
                let p = Actor::Seat(t.st.duel_player().unwrap());
                t.act(p, Action::Stand);
            }
            Phase::BankerTurn => {
                t.act(s(2), Action::BankerStand);
            }
            Phase::SwapDecision => {
                t.act(s(2), Action::Keep);
            }
            other => panic!("{other:?}"),
        }
    }
    let m = BistOYek::next_match(&t.st).unwrap();
    assert_eq!(m.candidate, SeatIndex(0), "right(2) = 0 with 3 seats");
    assert_eq!(m.turn, 2);
    assert_eq!(m.declines, 0);
    assert_eq!(m.balances, t.bal());
    assert_eq!(BistOYek::outcome(&t.st).unwrap().turn, 1);
}

// ---- Visibility -----------------------------------------------------------------------

#[test]
fn views_show_each_seat_its_own_cards_only() {
    let mut t = Table::started(Rules::default(), &[5000, 1000, 1000], "9C 10D 8H");
    t.act(s(0), Action::Deal);
    let public = BistOYek::view(&t.st, Viewer::Public);
    assert!(visible_faces(&public).is_empty());
    assert_eq!(public.stock, 33);
    let banker = BistOYek::view(&t.st, Viewer::Seat(SeatIndex(0)));
    assert_eq!(visible_faces(&banker), vec![c("9C")]);
    let s1 = BistOYek::view(&t.st, Viewer::Seat(SeatIndex(1)));
    assert_eq!(visible_faces(&s1), vec![c("10D")]);
    assert_eq!(s1.duel.as_ref().unwrap().total, Some(10));
    let s2 = BistOYek::view(&t.st, Viewer::Seat(SeatIndex(2)));
    assert_eq!(visible_faces(&s2), vec![c("8H")]);
    assert_eq!(s2.duel.as_ref().unwrap().total, None);
    let all = BistOYek::view(&t.st, Viewer::All);
    let mut faces = visible_faces(&all);
    faces.sort();
    let mut expected = vec![c("9C"), c("10D"), c("8H")];
    expected.sort();
    assert_eq!(faces, expected);
    let json = serde_json::to_string(&public).unwrap();
    for hidden in ["9C", "10D", "8H"] {
        assert!(!json.contains(hidden), "{hidden} leaked in {json}");
    }
}

#[test]
fn no_effect_names_a_face_down_card() {
    let mut t = Table::started(Rules::default(), &[5000, 1000, 1000], "9C 10D 8H 7S 6S");
    let e = t.act(s(0), Action::Deal);
    let json = serde_json::to_string(&e).unwrap();
    for hidden in ["9C", "10D", "8H"] {
        assert!(!json.contains(hidden), "{hidden} leaked in {json}");
    }
    t.act(s(1), bet(50));
    let e = t.act(s(1), hit());
    assert!(!serde_json::to_string(&e).unwrap().contains("7S"));
}

#[test]
fn violations_do_not_reveal_cards() {
    let mut t = Table::started(Rules::default(), &[5000, 1000], "9C JS QS KS");
    t.act(s(0), Action::Deal);
    t.act(s(1), bet(50));
    t.act(s(1), hit());
    t.act(s(1), hit());
    let v = t.reject(s(1), hit_exposing("AS"), "BadExposure");
    for code in ["9C", "JS", "QS", "KS", "AS"] {
        assert!(!v.detail.contains(code), "{}", v.detail);
    }
}

// ---- The engine registry --------------------------------------------------------------

#[test]
fn the_registry_drives_a_hand_in_json() {
    use crate::engine::DynGame;
    let g: &dyn DynGame = crate::games::registry(crate::engine::GameId::BistOYek).unwrap();
    assert_eq!(g.seats(), (2, 10));
    let rules = g
        .normalize_rules(&serde_json::json!({"side_bets": true}))
        .unwrap();
    assert_eq!(rules["min_bet"], 50);
    assert!(g
        .normalize_rules(&serde_json::json!({"no_such_rule": 1}))
        .is_err());
    let setup = g.default_setup(3).unwrap();
    let m = g.new_match(&rules, &setup).unwrap();
    assert_eq!(m["balances"], serde_json::json!([10000, 10000, 10000]));
    let mut h = g.new_hand(&rules, &m).unwrap();
    assert_eq!(h.deck(), DeckKind::BistOYek36);
    h.apply(s(0), &serde_json::json!({"type": "accept_bank"}))
        .unwrap();
    let v = h
        .apply(s(0), &serde_json::json!({"type": "no_such_action"}))
        .unwrap_err();
    assert_eq!(v.rule, "BadAction");
    let req = h.to_act().shuffle.unwrap();
    h.apply_shuffle(0, &req.cards).unwrap();
    h.apply(s(0), &serde_json::json!({"type": "deal"})).unwrap();
    h.apply(s(1), &serde_json::json!({"type": "bet", "amount": 100}))
        .unwrap();
    let legal = h.legal_actions(s(1));
    assert_eq!(legal[0], serde_json::json!({"type": "hit", "expose": []}));
    h.apply(s(1), &serde_json::json!({"type": "stand"}))
        .unwrap();
    assert_eq!(h.view(Viewer::Public)["phase"]["name"], "banker_turn");
}

#[test]
fn a_carried_banker_card_left_at_round_end_is_discarded_unseen() {
    // D-25: n = 2, s1 busts in the last duel of the round; 9♣ was never turned up.
    let mut t = Table::started(Rules::default(), &[5000, 1000], "9C 10D 8H 7S 6S");
    t.act(s(0), Action::Deal);
    t.act(s(1), bet(50));
    t.act(s(1), hit()); // 18
    t.act(s(1), hit()); // 25
    let e = t.act(s(1), Action::AnnounceSuz);
    let hidden_ref = crate::engine::CardRef { shuffle: 0, pos: 0 };
    assert!(e.contains(&Effect::Discarded {
        cards: vec![hidden_ref]
    }));
    assert_eq!(t.phase(), Phase::RoundStart);
    assert_eq!(t.hidden(), None);
    let public = BistOYek::view(&t.st, Viewer::Public);
    assert!(!public.discard_seen.contains(&c("9C")));
    assert!(
        public.discard_seen.contains(&c("8H")),
        "the shown hand was seen"
    );
    // The next round deals afresh.
    t.act(s(0), Action::Deal);
    assert_eq!(t.hidden(), Some(c("6S")));
}

#[test]
fn the_full_view_shows_every_hand_but_not_the_stock_order() {
    let mut t = Table::started(Rules::default(), &[5000, 1000, 1000], "9C 10D 8H 7S");
    t.act(s(0), Action::Deal);
    let all = serde_json::to_value(BistOYek::view(&t.st, Viewer::All)).unwrap();
    assert_eq!(all["stock"], 33);
    assert_eq!(all["hidden"]["card"]["face"], "9C");
    assert_eq!(all["waiting"][0]["card"]["face"], "8H");
    assert!(
        !all.to_string().contains("7S"),
        "the stock top is not shown"
    );
}

/// Regression (issue 9): a balance near 2^53 made the ending action fail (its numbers no
/// longer fit the signed log) and the table could never finish a hand. Such a match is
/// refused when it is set up or read; one at the limit plays to its end.
#[test]
fn match_money_is_bounded_so_a_hand_can_always_end() {
    use crate::engine::{Game, SetupError};
    let rules = Rules::default();
    let near = Setup {
        seats: 2,
        first_banker: SeatIndex(0),
        balances: vec![(1u64 << 53) - 10, 1000],
    };
    assert!(matches!(
        BistOYek::new_match(&rules, &near),
        Err(SetupError::Match(_))
    ));
    let edited = Match {
        seats: 2,
        balances: vec![(1u64 << 53) - 10, 1000],
        candidate: SeatIndex(0),
        declines: 0,
        over: false,
        turn: 3,
    };
    assert!(BistOYek::new_hand(&rules, &edited).is_err());
    let at_limit = Setup {
        seats: 2,
        first_banker: SeatIndex(0),
        balances: vec![super::super::state::MAX_TOTAL - 1000, 1000],
    };
    let m = BistOYek::new_match(&rules, &at_limit).unwrap();
    let spec = crate::sim::SimSpec {
        game: crate::engine::GameId::BistOYek,
        players: 2,
        rules: serde_json::json!({}),
        setup: Some(serde_json::to_value(&at_limit).unwrap()),
        seed: [4; 32],
    };
    let key = crate::log::SigningKeyPair::from_secret([1; 32]);
    let b = crate::sim::simulate_with(&spec, &key, 0).unwrap();
    assert_eq!(b.status, crate::dealer::HandStatus::Completed);
    assert!(m.balances.iter().sum::<u64>() <= super::super::state::MAX_TOTAL);
    let huge = Rules {
        bank_stake: u64::MAX / 2,
        ..Rules::default()
    };
    assert!(huge.validate().is_err());
}
