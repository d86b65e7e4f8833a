//! The spec's worked examples (§12), TV-1 … TV-8, with their sub-cases and rejected ("x")
//! alternatives. Default house rules and `first_banker = 0` unless stated.

use super::*;
use crate::engine::CardRef;

fn r(shuffle: u32, pos: u32) -> CardRef {
    CardRef { shuffle, pos }
}

/// TV-1 steps 1–7: s1 holds 10♦ 7♥ (17), the banker 9♣ 8♠ (17), in `BankerTurn`.
fn tv1_to_banker_17(top: &str) -> Table {
    let mut t = Table::new(Rules::default(), &[5000, 1000]);
    // 1. AcceptBank (s0): s0 4000, bank 1000.
    let e = t.act(s(0), Action::AcceptBank);
    assert_eq!(
        e,
        vec![
            Effect::BankAccepted {
                banker: SeatIndex(0),
                stake: 1000
            },
            Effect::Phase {
                phase: Phase::AwaitShuffle {
                    reason: ShuffleReason::NewTurn,
                    resume: Resume::RoundStart
                }
            }
        ]
    );
    assert_eq!(t.bal(), vec![4000, 1000]);
    assert_eq!(t.st.bank, 1000);
    // 2. Shuffle(order): RoundStart.
    let e = t.shuffle(&order(top));
    assert_eq!(
        e,
        vec![
            Effect::Shuffled {
                shuffle: 0,
                reason: ShuffleReason::NewTurn,
                cards: 36
            },
            Effect::Phase {
                phase: Phase::RoundStart
            }
        ]
    );
    // 3. Deal (s0): hidden 9♣, s1 gets 10♦; no swap (card not carried); AwaitBet.
    let e = t.act(s(0), Action::Deal);
    assert_eq!(
        e,
        vec![
            Effect::RoundDealt {
                round: 1,
                queue: vec![SeatIndex(1)]
            },
            Effect::HiddenDealt { card: r(0, 0) },
            Effect::WaitingDealt {
                seat: SeatIndex(1),
                card: r(0, 1)
            },
            Effect::DuelOpened {
                player: SeatIndex(1)
            },
            Effect::FirstCard {
                seat: SeatIndex(1),
                card: r(0, 1)
            },
            Effect::Phase {
                phase: Phase::AwaitBet
            },
        ]
    );
    assert_eq!(t.hidden(), Some(c("9C")));
    assert_eq!(t.player_cards(), vec![c("10D")]);
    // 4. Bet(200) (s1): s1 800.
    let e = t.act(s(1), bet(200));
    assert_eq!(
        e,
        vec![
            Effect::BetPlaced {
                seat: SeatIndex(1),
                amount: 200
            },
            Effect::Phase {
                phase: Phase::PlayerTurn
            }
        ]
    );
    assert_eq!(t.bal(), vec![4000, 800]);
    // 5. Hit (s1): 7♥, total 17 (dealt face down: no face in the effect).
    let e = t.act(s(1), hit());
    assert_eq!(
        e,
        vec![Effect::PlayerCardDealt {
            seat: SeatIndex(1),
            card: r(0, 2),
            face: None
        }]
    );
    assert_eq!(t.st.player_total(), 17);
    // 6. Stand (s1): the banker shows 9♣.
    let e = t.act(s(1), Action::Stand);
    assert_eq!(
        e,
        vec![
            Effect::PlayerStood {
                seat: SeatIndex(1),
                automatic: false
            },
            Effect::HiddenRevealed {
                card: r(0, 0),
                face: c("9C")
            },
            Effect::Phase {
                phase: Phase::BankerTurn
            }
        ]
    );
    t
}

#[test]
fn tv1_text_example_17_against_17_banker_wins() {
    let mut t = tv1_to_banker_17("9C 10D 7H 8S 6H");
    // 7. BankerHit: 8♠, banker 17.
    let e = t.act(s(0), Action::BankerHit);
    assert_eq!(
        e,
        vec![Effect::BankerDrew {
            card: r(0, 3),
            face: c("8S")
        }]
    );
    assert_eq!(t.st.banker_total(), 17);
    // 8. BankerStand: 17 = 17, banker wins (S4): 200 → bank.
    let e = t.act(s(0), Action::BankerStand);
    assert_eq!(
        e,
        vec![
            Effect::BankerStood { total: 17 },
            Effect::HandShown {
                seat: SeatIndex(1),
                cards: vec![
                    ShownCard {
                        card: r(0, 1),
                        face: c("10D")
                    },
                    ShownCard {
                        card: r(0, 2),
                        face: c("7H")
                    }
                ],
                total: 17
            },
            Effect::DuelResult {
                player: SeatIndex(1),
                case: Case::S4,
                player_total: 17,
                banker_total: Some(17)
            },
            Effect::Settled {
                seat: SeatIndex(1),
                amount: 200,
                main: true,
                case: Case::S4,
                escrow_to_owner: 0,
                escrow_to_bank: 200,
                bank_to_owner: 0
            },
            Effect::Discarded {
                cards: vec![r(0, 1), r(0, 2), r(0, 0), r(0, 3)]
            },
            Effect::DuelClosed {
                player: SeatIndex(1)
            },
            Effect::Phase {
                phase: Phase::RoundStart
            },
        ]
    );
    // Expected: s0 4000, bank 1200, s1 800 (= 6000); round over, RoundStart; stock top 6♥.
    assert_eq!(t.bal(), vec![4000, 800]);
    assert_eq!(t.st.bank, 1200);
    assert_eq!(t.phase(), Phase::RoundStart);
    assert_eq!(t.st.zones.faces(STOCK)[0], c("6H"));
    assert_eq!(t.replay(), t.st);
}

#[test]
fn tv1b_the_banker_went_over() {
    let mut t = tv1_to_banker_17("9C 10D 7H 8S 6H");
    t.act(s(0), Action::BankerHit);
    // BankerHit: 6♥, banker 23 (S2): s1 800 + 200 + 200 = 1200, bank 800.
    let e = t.act(s(0), Action::BankerHit);
    assert!(e.contains(&Effect::Settled {
        seat: SeatIndex(1),
        amount: 200,
        main: true,
        case: Case::S2,
        escrow_to_owner: 200,
        escrow_to_bank: 0,
        bank_to_owner: 200
    }));
    assert_eq!(t.bal(), vec![4000, 1200]);
    assert_eq!(t.st.bank, 800);
    assert_eq!(t.phase(), Phase::RoundStart);
}

#[test]
fn tv1c_the_banker_was_lower() {
    // Order 9♣ 10♦ 7♥ 6♥ …: the banker's draw gives 15; BankerStand: 17 > 15 (S3).
    let mut t = tv1_to_banker_17("9C 10D 7H 6H");
    t.act(s(0), Action::BankerHit);
    assert_eq!(t.st.banker_total(), 15);
    let e = t.act(s(0), Action::BankerStand);
    assert!(e.contains(&Effect::DuelResult {
        player: SeatIndex(1),
        case: Case::S3,
        player_total: 17,
        banker_total: Some(15)
    }));
    assert_eq!(t.bal(), vec![4000, 1200]);
    assert_eq!(t.st.bank, 800);
}

/// TV-2 up to s1's suz and s2's duel opening.
fn tv2_after_suz(rules: Rules) -> Table {
    let mut t = Table::started(rules, &[5000, 1000, 1000], "JS 10D 8H 7H 8S QD 9D 6C");
    // 1. Deal: hidden J♠; s1 10♦, s2 8♥.
    t.act(s(0), Action::Deal);
    assert_eq!(t.bal(), vec![4000, 1000, 1000]);
    assert_eq!(t.hidden(), Some(c("JS")));
    assert_eq!(t.st.waiting(SeatIndex(2)).map(|w| w.face), Some(c("8H")));
    assert_eq!(t.player_cards(), vec![c("10D")]);
    // 2. Bet(200) (s1): s1 800. Hit: 7♥ (17). Hit: 8♠ (25): AwaitSuz.
    t.act(s(1), bet(200));
    t.act(s(1), hit());
    t.act(s(1), hit());
    assert_eq!(t.st.player_total(), 25);
    assert_eq!(t.phase(), Phase::AwaitSuz);
    // x Stand (s1): WrongPhase. (Hit too: suz is the only legal action.)
    t.reject(s(1), Action::Stand, "WrongPhase");
    t.reject(s(1), hit(), "WrongPhase");
    // 3. AnnounceSuz (s1): hand shown; 200 → bank (1200). J♠ stays hidden, carried.
    let e = t.act(s(1), Action::AnnounceSuz);
    assert!(matches!(e[0], Effect::HandShown { total: 25, .. }));
    assert!(e.contains(&Effect::BankerCardCarried { card: r(0, 0) }));
    // The banker does not reveal his card.
    assert!(!e.iter().any(|e| matches!(e, Effect::HiddenRevealed { .. })));
    assert_eq!(t.st.bank, 1200);
    assert_eq!(t.hidden(), Some(c("JS")));
    t
}

#[test]
fn tv2_bust_suz_carried_card_swap() {
    let mut t = tv2_after_suz(Rules::default());
    // s2's duel opens: SwapDecision.
    assert_eq!(t.phase(), Phase::SwapDecision);
    assert!(t.st.carried);
    // 4. Swap (s0): J♠ to the discard unseen; hidden Q♦; AwaitBet.
    let e = t.act(s(0), Action::Swap);
    assert_eq!(
        e,
        vec![
            Effect::Swapped { card: r(0, 0) },
            Effect::HiddenDealt { card: r(0, 5) },
            Effect::FirstCard {
                seat: SeatIndex(2),
                card: r(0, 2)
            },
            Effect::Phase {
                phase: Phase::AwaitBet
            }
        ]
    );
    assert_eq!(t.hidden(), Some(c("QD")));
    assert!(!t.st.carried);
    let public = BistOYek::view(&t.st, Viewer::Public);
    assert!(!public.discard_seen.contains(&c("JS")), "J♠ went unseen");
    // x a second Swap: WrongPhase.
    t.reject(s(0), Action::Swap, "WrongPhase");
    // 5. Bet(100) (s2): s2 900. Stand (8). Banker shows Q♦ (3); 9♦ (12); 6♣ (18).
    t.act(s(2), bet(100));
    assert_eq!(t.bal()[2], 900);
    t.act(s(2), Action::Stand);
    assert_eq!(t.banker_cards(), vec![c("QD")]);
    t.act(s(0), Action::BankerHit);
    t.act(s(0), Action::BankerHit);
    assert_eq!(t.st.banker_total(), 18);
    // BankerStand: 18 > 8 (S5): 100 → bank.
    let e = t.act(s(0), Action::BankerStand);
    assert!(e.contains(&Effect::DuelResult {
        player: SeatIndex(2),
        case: Case::S5,
        player_total: 8,
        banker_total: Some(18)
    }));
    // Expected: s0 4000, s1 800, s2 900, bank 1300 (= 7000).
    assert_eq!(t.bal(), vec![4000, 800, 900]);
    assert_eq!(t.st.bank, 1300);
    assert_eq!(t.phase(), Phase::RoundStart);
    assert_eq!(t.replay(), t.st);
}

#[test]
fn tv2_with_banker_swap_off_the_carried_jack_is_the_bankers_first_card() {
    let rules = Rules {
        banker_swap: BankerSwap::Off,
        ..Rules::default()
    };
    let mut t = tv2_after_suz(rules);
    // Step 4 does not exist.
    assert_eq!(t.phase(), Phase::AwaitBet);
    t.reject(s(0), Action::Swap, "WrongPhase");
    t.act(s(2), bet(100));
    let e = t.act(s(2), Action::Stand);
    assert!(e.contains(&Effect::HiddenRevealed {
        card: r(0, 0),
        face: c("JS")
    }));
    assert_eq!(t.st.banker_total(), 2);
}

fn side_rules() -> Rules {
    Rules {
        side_bets: true,
        ..Rules::default()
    }
}

/// TV-3 steps 1–3: s0 Hossein (banker), s1 Javad, s2 "me".
fn tv3_after_side_bet(top: &str) -> Table {
    let mut t = Table::started(side_rules(), &[2000, 2000, 2000], top);
    // 1. Deal: s0 1000, bank 1000; hidden 10♠; Javad A♥; me 7♣.
    t.act(s(0), Action::Deal);
    assert_eq!(t.bal(), vec![1000, 2000, 2000]);
    assert_eq!(t.hidden(), Some(c("10S")));
    assert_eq!(t.player_cards(), vec![c("AH")]);
    assert_eq!(t.st.waiting(SeatIndex(2)).map(|w| w.face), Some(c("7C")));
    // 2. Bet(400) (s1): s1 1600; the side-bet window opens.
    let e = t.act(s(1), bet(400));
    assert!(e.contains(&Effect::SideBetsOpened));
    assert_eq!(t.bal()[1], 1600);
    assert_eq!(
        BistOYek::to_act(&t.st).actors,
        vec![s(1), s(2)],
        "Javad, and me for a side bet"
    );
    assert_eq!(
        BistOYek::legal_actions(&t.st, s(2)),
        vec![Legal::SideBet { min: 50, max: 600 }]
    );
    // x SideBet(700) (s2) instead: 400 + 700 > 1000, ExposureAboveBank.
    t.reject(s(2), side(700), "ExposureAboveBank");
    // x SideBet(100) (s0): SideBetNotAllowed.
    t.reject(s(0), side(100), "SideBetNotAllowed");
    // 3. SideBet(300) (s2): s2 1700.
    let e = t.act(s(2), side(300));
    assert_eq!(
        e,
        vec![Effect::SideBetPlaced {
            seat: SeatIndex(2),
            on: SeatIndex(1),
            amount: 300
        }]
    );
    assert_eq!(t.bal()[2], 1700);
    t
}

/// TV-3a: "we win".
fn tv3a() -> Table {
    let mut t = tv3_after_side_bet("10S AH 7C 10H 9S 6D AS 8C 9C");
    // 4. Hit (s1): 10♥, A + 10 = 21, automatic stand, side bets closed; banker shows 10♠.
    let e = t.act(s(1), hit());
    assert_eq!(e[0], Effect::SideBetsClosed);
    assert!(e.contains(&Effect::PlayerStood {
        seat: SeatIndex(1),
        automatic: true
    }));
    assert_eq!(t.banker_cards(), vec![c("10S")]);
    assert_eq!(t.phase(), Phase::BankerTurn);
    // x SideBet now: WrongPhase.
    t.reject(s(2), side(50), "WrongPhase");
    // 5. BankerHit: 9♠ (19). 6. BankerStand: 21 > 19 (S3) for both stakes.
    t.act(s(0), Action::BankerHit);
    let e = t.act(s(0), Action::BankerStand);
    let settled: Vec<_> = e
        .iter()
        .filter(|e| matches!(e, Effect::Settled { .. }))
        .collect();
    assert_eq!(
        settled,
        vec![
            &Effect::Settled {
                seat: SeatIndex(1),
                amount: 400,
                main: true,
                case: Case::S3,
                escrow_to_owner: 400,
                escrow_to_bank: 0,
                bank_to_owner: 400
            },
            &Effect::Settled {
                seat: SeatIndex(2),
                amount: 300,
                main: false,
                case: Case::S3,
                escrow_to_owner: 300,
                escrow_to_bank: 0,
                bank_to_owner: 300
            }
        ]
    );
    // Expected: Javad 2400, me 2300, bank 300, s0 1000 (= 6000).
    assert_eq!(t.bal(), vec![1000, 2400, 2300]);
    assert_eq!(t.st.bank, 300);
    t
}

#[test]
fn tv3a_side_bet_example_we_win() {
    let t = tv3a();
    // My duel opens next.
    assert_eq!(t.st.duel_player(), Some(SeatIndex(2)));
}

#[test]
fn tv3b_side_bet_example_we_lose() {
    let mut t = tv3_after_side_bet("10S AH 7C KH 9H");
    // Hit: K♥ (15); Hit: 9♥ (24); AnnounceSuz: both stakes to the bank.
    t.act(s(1), hit());
    assert_eq!(t.st.player_total(), 15);
    t.act(s(1), hit());
    assert_eq!(t.phase(), Phase::AwaitSuz);
    let e = t.act(s(1), Action::AnnounceSuz);
    assert_eq!(
        e.iter()
            .filter(|e| matches!(
                e,
                Effect::Settled {
                    case: Case::S1,
                    escrow_to_bank: _,
                    ..
                }
            ))
            .count(),
        2
    );
    // Expected: bank 1700, Javad 1600, me 1700, s0 1000 (= 6000).
    assert_eq!(t.st.bank, 1700);
    assert_eq!(t.bal(), vec![1000, 1600, 1700]);
    // 10♠ carried; my duel opens with SwapDecision.
    assert_eq!(t.hidden(), Some(c("10S")));
    assert!(t.st.carried);
    assert_eq!(t.phase(), Phase::SwapDecision);
    assert_eq!(t.st.duel_player(), Some(SeatIndex(2)));
}

#[test]
fn tv4_the_whole_bank_empties_the_bank() {
    // Continues 3a. My duel opens: the banker has no card, draws 6♦ (not carried, no swap);
    // I hold 7♣; lo = 50, hi = 300.
    let mut t = tv3a();
    assert_eq!(t.hidden(), Some(c("6D")));
    assert!(!t.st.carried);
    assert_eq!(t.phase(), Phase::AwaitBet);
    assert_eq!(t.player_cards(), vec![c("7C")]);
    assert_eq!(t.st.bet_limits(), (50, 300));
    // (x with only 250 in balance, Bet(300): InsufficientFunds.)
    {
        let mut poor = Table {
            st: t.st.clone(),
            init: t.init.clone(),
            log: Vec::new(),
        };
        poor.st.balance[2] = 250;
        poor.st.balance[0] += 2050;
        poor.check();
        poor.reject(s(2), bet(300), "InsufficientFunds");
    }
    // 1. Bet(300) (s2, the whole bank): s2 2000.
    t.act(s(2), bet(300));
    assert_eq!(t.bal()[2], 2000);
    // x SideBet(50) (s1): ExposureAboveBank.
    t.reject(s(1), side(50), "ExposureAboveBank");
    assert!(BistOYek::legal_actions(&t.st, s(1)).is_empty());
    // 2. Hit: A♠ (18). Stand. Banker shows 6♦; 8♣ (14); 9♣ (23): S2, s2 2600.
    t.act(s(2), hit());
    assert_eq!(t.st.player_total(), 18);
    t.act(s(2), Action::Stand);
    t.act(s(0), Action::BankerHit);
    assert_eq!(t.st.banker_total(), 14);
    let e = t.act(s(0), Action::BankerHit);
    // Expected: bank 0, so the turn ends at once; s0 receives 0.
    let n = e.len();
    assert_eq!(
        e[n - 2..],
        [
            Effect::BankTaken {
                banker: SeatIndex(0),
                amount: 0
            },
            Effect::TurnEnded {
                banker: SeatIndex(0),
                reason: EndReason::BankEmpty,
                next_candidate: SeatIndex(1)
            }
        ]
    );
    assert_eq!(t.bal(), vec![1000, 2400, 2600]);
    assert_eq!(t.st.bank, 0);
    assert_eq!(t.phase(), Phase::TurnOver);
    assert!(BistOYek::to_act(&t.st).is_over());
    // s0's result −1000; BankOffer to s1 (Javad, on Hossein's right).
    let o = BistOYek::outcome(&t.st).unwrap();
    assert_eq!(o.net, vec![-1000, 400, 600]);
    assert_eq!(o.taken, 0);
    assert_eq!(o.stake, 1000);
    assert_eq!(o.reason, EndReason::BankEmpty);
    assert!(!o.match_over);
    let m = BistOYek::next_match(&t.st).unwrap();
    assert_eq!(m.candidate, SeatIndex(1));
    assert_eq!(m.balances, vec![1000, 2400, 2600]);
    let next = BistOYek::new_hand(&side_rules(), &m).unwrap();
    assert_eq!(next.phase, Phase::BankOffer);
    assert_eq!(BistOYek::to_act(&next).actors[0], s(1));
}

/// TV-5 up to s1 holding J♠ Q♠ 6♣ (11) after a Bet(100).
fn tv5_three_cards() -> Table {
    let mut t = Table::started(Rules::default(), &[5000, 1000], "9C JS QS 6C 7D");
    t.act(s(0), Action::Deal);
    t.act(s(1), bet(100));
    // x with 2 cards … (here 1): Hit{expose: J♠}: BadExposure.
    t.reject(s(1), hit_exposing("JS"), "BadExposure");
    t.act(s(1), hit());
    assert_eq!(t.st.player_total(), 5);
    // x with 2 cards, Hit{expose: J♠}: BadExposure.
    t.reject(s(1), hit_exposing("JS"), "BadExposure");
    t.act(s(1), hit());
    assert_eq!(t.st.player_total(), 11);
    assert_eq!(
        BistOYek::legal_actions(&t.st, s(1)),
        vec![
            Legal::Hit {
                expose: vec![c("JS"), c("QS"), c("6C")]
            },
            Legal::Stand
        ]
    );
    t
}

#[test]
fn tv5a_three_cards_expose_one() {
    let mut t = tv5_three_cards();
    // Hit{expose: J♠}: J♠ face up, 7♦ dealt face down (18).
    let e = t.act(s(1), hit_exposing("JS"));
    assert_eq!(
        e,
        vec![
            Effect::CardExposed {
                seat: SeatIndex(1),
                card: r(0, 1),
                face: c("JS")
            },
            Effect::PlayerCardDealt {
                seat: SeatIndex(1),
                card: r(0, 4),
                face: None
            }
        ]
    );
    assert_eq!(t.st.player_total(), 18);
    let public = BistOYek::view(&t.st, Viewer::Public);
    let faces: Vec<_> = public.duel.unwrap().cards.iter().map(|c| c.face).collect();
    assert_eq!(faces, vec![Some(c("JS")), None, None, None]);
    // x later Hit{expose: J♠} again: BadExposure.
    t.reject(s(1), hit_exposing("JS"), "BadExposure");
    // A card not in the hand at all: BadExposure.
    t.reject(s(1), hit_exposing("AS"), "BadExposure");
}

#[test]
fn tv5b_three_cards_banker_deals_face_up() {
    let mut t = tv5_three_cards();
    // Hit{expose: None}: FaceChoice.
    let e = t.act(s(1), hit());
    assert_eq!(
        e,
        vec![Effect::Phase {
            phase: Phase::FaceChoice
        }]
    );
    assert_eq!(
        BistOYek::legal_actions(&t.st, s(0)),
        vec![Legal::DealFaceUp, Legal::DealFaceDown]
    );
    t.reject(s(1), Action::DealFaceUp, "WrongActor");
    // DealFaceUp (s0): 7♦ face up (18).
    let e = t.act(s(0), Action::DealFaceUp);
    assert_eq!(
        e,
        vec![
            Effect::PlayerCardDealt {
                seat: SeatIndex(1),
                card: r(0, 4),
                face: Some(c("7D"))
            },
            Effect::Phase {
                phase: Phase::PlayerTurn
            }
        ]
    );
    assert_eq!(t.st.player_total(), 18);
}

#[test]
fn tv5b_dealt_face_down_is_also_legal() {
    let mut t = tv5_three_cards();
    t.act(s(1), hit());
    let e = t.act(s(0), Action::DealFaceDown);
    assert_eq!(
        e[0],
        Effect::PlayerCardDealt {
            seat: SeatIndex(1),
            card: r(0, 4),
            face: None
        }
    );
}

#[test]
fn tv6_two_aces_both_21_banker_wins() {
    let mut t = Table::started(Rules::default(), &[5000, 1000], "10C AS AH AD");
    t.act(s(0), Action::Deal);
    t.act(s(1), bet(100));
    // Hit: A♥, two aces = 21, automatic stand; banker shows 10♣.
    let e = t.act(s(1), hit());
    assert!(e.contains(&Effect::PlayerStood {
        seat: SeatIndex(1),
        automatic: true
    }));
    assert_eq!(t.st.player_total(), 21);
    assert_eq!(t.banker_cards(), vec![c("10C")]);
    // x Hit (s1) after A♥: WrongPhase.
    t.reject(s(1), hit(), "WrongPhase");
    // BankerHit: A♦, 21, automatic comparison: 21 = 21, banker wins, 100 → bank.
    let e = t.act(s(0), Action::BankerHit);
    assert!(e.contains(&Effect::DuelResult {
        player: SeatIndex(1),
        case: Case::S4,
        player_total: 21,
        banker_total: Some(21)
    }));
    assert_eq!(t.st.bank, 1100);
    assert_eq!(t.bal(), vec![4000, 900]);
}

/// TV-7 set-up: n = 3, banker s0, `RoundStart`; then "given" the bank.
fn tv7_table(top: &str) -> Table {
    Table::started(Rules::default(), &[5000, 5000, 5000], top)
}

#[test]
fn tv7_khabar_not_reached_at_2950() {
    let mut t = tv7_table("");
    t.given_bank(2950, 1);
    t.reject(s(0), Action::AnnounceKhabar, "KhabarNotReached");
    assert_eq!(
        BistOYek::legal_actions(&t.st, s(0)),
        vec![Legal::Deal],
        "no AnnounceKhabar below the threshold"
    );
}

/// At 3200: AnnounceKhabar, the khabar shuffle `order(top)`, `RoundStart`, the second
/// announcement rejected.
fn tv7_announced(top: &str) -> Table {
    let mut t = tv7_table("");
    t.given_bank(3200, 1);
    assert_eq!(
        BistOYek::legal_actions(&t.st, s(0)),
        vec![Legal::AnnounceKhabar, Legal::Deal]
    );
    // Only the banker, only at RoundStart.
    t.reject(s(1), Action::AnnounceKhabar, "WrongActor");
    let e = t.act(s(0), Action::AnnounceKhabar);
    assert_eq!(
        e,
        vec![
            Effect::KhabarAnnounced {
                banker: SeatIndex(0),
                bank: 3200,
                threshold: 3000
            },
            Effect::Phase {
                phase: Phase::AwaitShuffle {
                    reason: ShuffleReason::Khabar,
                    resume: Resume::RoundStart
                }
            }
        ]
    );
    // Shuffle (all 36).
    let req = BistOYek::to_act(&t.st).shuffle.unwrap();
    assert_eq!(req.reason, "khabar");
    assert_eq!(req.cards, DeckKind::BistOYek36.cards());
    t.reject(s(0), Action::Deal, "WrongPhase");
    t.reject(Actor::Service, Action::EndMatch, "WrongPhase");
    let e = t.shuffle(&order(top));
    assert_eq!(
        e[0],
        Effect::Shuffled {
            shuffle: 1,
            reason: ShuffleReason::Khabar,
            cards: 36
        }
    );
    assert_eq!(t.phase(), Phase::RoundStart);
    // x AnnounceKhabar again: KhabarAlreadyAnnounced.
    t.reject(s(0), Action::AnnounceKhabar, "KhabarAlreadyAnnounced");
    t
}

#[test]
fn tv7_khabar_round_then_the_banker_takes_100() {
    let mut t = tv7_announced("6S 10S 10H AS 7S 6H AH");
    // Deal; a duel with every player; the bank holds 100 at the round's end.
    t.act(s(0), Action::Deal);
    t.act(s(1), bet(1600));
    t.act(s(1), hit()); // A♠: 21, automatic stand
    t.act(s(0), Action::BankerHit); // 6 + 7
    t.act(s(0), Action::BankerStand); // 21 > 13: s1 wins 1600
    assert_eq!(t.st.bank, 1600);
    t.act(s(2), bet(1500));
    t.act(s(2), hit()); // A♥: 21
    let e = t.act(s(0), Action::BankerStand); // 21 > 6: s2 wins 1500
                                              // The banker's balance + 100, bank 0, BankOffer to right(banker).
    let n = e.len();
    assert_eq!(
        e[n - 2..],
        [
            Effect::BankTaken {
                banker: SeatIndex(0),
                amount: 100
            },
            Effect::TurnEnded {
                banker: SeatIndex(0),
                reason: EndReason::Khabar,
                next_candidate: SeatIndex(1)
            }
        ]
    );
    assert_eq!(t.st.bank, 0);
    assert_eq!(t.bal(), vec![4100, 2800 + 1600, 5000 + 1500]);
    let o = BistOYek::outcome(&t.st).unwrap();
    assert_eq!(o.taken, 100);
    assert_eq!(o.reason, EndReason::Khabar);
    assert_eq!(BistOYek::next_match(&t.st).unwrap().candidate, SeatIndex(1));
}

#[test]
fn tv7_khabar_round_then_the_banker_takes_4500() {
    let mut t = tv7_announced("10S 6S 6H 7S 9S 10H");
    t.act(s(0), Action::Deal);
    t.act(s(1), bet(1000));
    t.act(s(1), hit()); // 13
    t.act(s(1), Action::Stand);
    t.act(s(0), Action::BankerHit); // 10 + 9 = 19
    t.act(s(0), Action::BankerStand); // S5
    assert_eq!(t.st.bank, 4200);
    t.act(s(2), bet(300));
    t.act(s(2), Action::Stand); // 6
    let e = t.act(s(0), Action::BankerStand); // 10 > 6
    assert!(e.contains(&Effect::BankTaken {
        banker: SeatIndex(0),
        amount: 4500
    }));
    assert_eq!(t.st.bank, 0);
    assert_eq!(t.bal()[0], 4000 + 4500);
    assert_eq!(t.phase(), Phase::TurnOver);
}

#[test]
fn tv8_bet_limits_with_a_bank_of_1000() {
    let mut t = Table::started(Rules::default(), &[5000, 500], "");
    t.act(s(0), Action::Deal);
    assert_eq!(
        BistOYek::legal_actions(&t.st, s(1)),
        vec![Legal::Bet { min: 50, max: 500 }]
    );
    t.reject(s(1), bet(40), "BetBelowMin");
    t.reject(s(1), bet(1001), "BetAboveMax");
    t.reject(s(1), bet(600), "InsufficientFunds");
    t.reject(s(0), bet(500), "WrongActor");
    t.act(s(1), bet(500));
}

#[test]
fn tv8_bank_of_30_only_the_whole_bank() {
    let mut t = Table::started(Rules::default(), &[5000, 500], "");
    t.given_bank(30, 0);
    t.act(s(0), Action::Deal);
    assert_eq!(t.st.bet_limits(), (30, 30));
    assert_eq!(
        BistOYek::legal_actions(&t.st, s(1)),
        vec![Legal::Bet { min: 30, max: 30 }]
    );
    t.reject(s(1), bet(20), "BetBelowMin");
    t.reject(s(1), bet(31), "BetAboveMax");
    t.act(s(1), bet(30));
}

#[test]
fn tv8_a_player_with_20_is_not_dealt_in() {
    // Bank 30 at the deal: a seat with 20 cannot bet lo = 30 and gets no card.
    let mut t = Table::started(Rules::default(), &[5000, 500, 20], "");
    t.given_bank(30, 0);
    let e = t.act(s(0), Action::Deal);
    assert_eq!(
        e[0],
        Effect::RoundDealt {
            round: 1,
            queue: vec![SeatIndex(1)]
        }
    );
    assert_eq!(t.st.waiting(SeatIndex(2)), None);
}

#[test]
fn tv8_a_player_who_fell_below_lo_is_skipped_and_his_card_discarded_unseen() {
    // With side bets: bank 100; s2 has 70, side-bets 50 on s1 and loses: 20 < lo = 50.
    let mut t = Table::started(side_rules(), &[5000, 1000, 70], "10S 6S 6H");
    t.given_bank(100, 0);
    t.act(s(0), Action::Deal);
    assert_eq!(t.st.queue, vec![SeatIndex(2)]);
    t.act(s(1), bet(50));
    t.act(s(2), side(50));
    assert_eq!(t.bal()[2], 20);
    t.act(s(1), Action::Stand); // 6
    let e = t.act(s(0), Action::BankerStand); // 10 > 6
    let waiting_ref = r(0, 2);
    let skip = e
        .iter()
        .position(|e| *e == Effect::PlayerSkipped { seat: SeatIndex(2) })
        .expect("s2 skipped");
    assert_eq!(
        e[skip + 1],
        Effect::Discarded {
            cards: vec![waiting_ref]
        }
    );
    assert_eq!(t.st.bank, 200);
    let public = BistOYek::view(&t.st, Viewer::Public);
    assert!(!public.discard_seen.contains(&c("6H")), "discarded unseen");
    assert_eq!(t.phase(), Phase::RoundStart);
}

#[test]
fn tv8_lo_rising_with_the_bank_skips_a_player() {
    // Bank 30: lo = 30; s1 loses the whole bank (bank 60, lo 50): s2 with 40 is skipped.
    let mut t = Table::started(Rules::default(), &[5000, 100, 40], "10S 6S 6H");
    t.given_bank(30, 0);
    t.act(s(0), Action::Deal);
    t.act(s(1), bet(30));
    t.act(s(1), Action::Stand);
    let e = t.act(s(0), Action::BankerStand);
    assert!(e.contains(&Effect::PlayerSkipped { seat: SeatIndex(2) }));
    assert_eq!(t.st.bank, 60);
}
