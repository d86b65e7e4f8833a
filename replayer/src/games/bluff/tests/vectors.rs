//! The spec's worked examples (§10), TV-1 … TV-10: given a deck with chosen cards at chosen
//! positions, when these actions, then these effects, hands and violations. n = 4, one
//! pack, dealer 3 (seat 0 starts) unless stated.

use super::*;

fn r(shuffle: u32, pos: u32) -> CardRef {
    CardRef { shuffle, pos }
}

/// TV-1: seat k receives committed indices k, k+4, …, k+48; 13 each.
#[test]
fn tv1_deal_one_at_a_time_from_the_dealers_right() {
    let order = deck_with(4, &[]);
    let mut t = Table::new(4, Rules::default(), None);
    let e = t.shuffle(&order);
    assert_eq!(
        e[0],
        Effect::Shuffled {
            shuffle: 0,
            reason: ShuffleReason::Deal,
            cards: 52
        }
    );
    for k in 0..4u8 {
        let want: Vec<CardRef> = (0..13).map(|i| r(0, u32::from(k) + 4 * i)).collect();
        assert_eq!(
            e[1 + usize::from(k)],
            Effect::Dealt {
                seat: seat(k),
                cards: want.clone()
            }
        );
        assert_eq!(t.refs(k), want);
        let faces: Vec<Card> = (0..13).map(|i| order[usize::from(k) + 4 * i]).collect();
        assert_eq!(t.st.zones.faces(ZoneId::Hand(seat(k))), faces);
    }
    assert_eq!(e[5], Effect::PlayStarted { starter: seat(0) });
    assert_eq!(e.len(), 6);
    assert_eq!(Bluff::to_act(&t.st).actors, vec![s(0)]);
    // Seat 0 sees its own faces only.
    let v = Bluff::view(&t.st, Viewer::Seat(seat(0)));
    assert!(v.hands[0].cards.iter().all(|c| c.face.is_some()));
    assert!(v.hands[1..]
        .iter()
        .all(|h| h.count == 13 && h.cards.iter().all(|c| c.face.is_none())));
}

/// Seat 0 holds 7H at its first position and 4C (or 7D) at its second.
fn tv2_table(second: &str) -> Table {
    Table::four(&deck_with(
        4,
        &[(pos(4, 1, 0), "7H"), (pos(4, 1, 1), second)],
    ))
}

/// TV-2: 000's example «2 تا 7» ("two sevens"): a false claim caught.
#[test]
fn tv2_a_false_claim_caught() {
    let mut t = tv2_table("4C");
    let played = t.cards(0, &["7H", "4C"]);
    let e = t.lead(0, "7", played.clone());
    assert_eq!(
        e,
        vec![
            Effect::Played {
                seat: seat(0),
                lead: true,
                rank: Rank::Seven,
                count: 2,
                cards: played.clone()
            },
            Effect::Turn { seat: seat(1) }
        ]
    );
    // The public claim is "two 7s"; nobody else sees the faces.
    let v = Bluff::view(&t.st, Viewer::Seat(seat(1)));
    assert_eq!(v.pile.len(), 1);
    assert_eq!((v.pile[0].rank, v.pile[0].count), (Rank::Seven, 2));
    assert!(v.pile[0].cards.iter().all(|c| c.face.is_none()));
    let all = Bluff::view(&t.st, Viewer::All);
    assert_eq!(
        all.pile[0].cards.iter().map(|c| c.face).collect::<Vec<_>>(),
        vec![Some(c("7H")), Some(c("4C"))]
    );
    let e = t.act(s(1), Action::Challenge);
    assert_eq!(
        e,
        vec![
            Effect::Challenged {
                challenger: seat(1),
                seat: seat(0),
                rank: Rank::Seven,
                cards: vec![
                    Revealed {
                        card: played[0],
                        face: c("7H")
                    },
                    Revealed {
                        card: played[1],
                        face: c("4C")
                    }
                ],
                truthful: false,
                taker: seat(0)
            },
            Effect::PileTaken {
                seat: seat(0),
                cards: 2
            },
            Effect::Turn { seat: seat(1) },
            Effect::Phase {
                phase: Phase::Relabel { seat: seat(0) }
            }
        ]
    );
    // Nobody acts before the relabel.
    assert!(Bluff::to_act(&t.st).actors.is_empty());
    t.reject(
        s(1),
        Action::Lead {
            rank: Rank::Two,
            cards: vec![t.refs(1)[0]],
        },
        Rule::WrongPhase,
    );
    let e = t.relabel();
    assert_eq!(
        e,
        vec![Effect::Relabelled {
            seat: seat(0),
            shuffle: 1,
            cards: 13
        }]
    );
    assert_eq!((t.held(0), t.held(1)), (13, 13));
    assert_eq!(t.st.zones.len(state::PILE), 0);
    // Seat 1 leads any rank.
    let legal = Bluff::legal_actions(&t.st, s(1));
    assert!(matches!(&legal[..], [Legal::Lead { ranks, max: 4, .. }] if ranks.len() == 13));
    assert_eq!(t.st.turn, seat(1));
}

/// TV-3: a true claim challenged: the challenger takes the pile and leads.
#[test]
fn tv3_a_true_claim_challenged() {
    let mut t = tv2_table("7D");
    let played = t.cards(0, &["7H", "7D"]);
    t.lead(0, "7", played);
    let e = t.act(s(1), Action::Challenge);
    assert!(matches!(
        &e[0],
        Effect::Challenged {
            truthful: true,
            taker,
            ..
        } if *taker == seat(1)
    ));
    t.relabel();
    assert_eq!((t.held(0), t.held(1)), (11, 15));
    assert_eq!(t.st.turn, seat(1));
    assert!(matches!(
        &Bluff::legal_actions(&t.st, s(1))[..],
        [Legal::Lead { .. }]
    ));
}

/// TV-3 with `failed_challenge_liability = requester`: seat 2 asked, seat 2 takes the pile,
/// seat 1 still leads.
#[test]
fn tv3_requester_takes_the_pile_under_requester_liability() {
    let rules = Rules {
        failed_challenge_liability: FailedChallengeLiability::Requester,
        ..Rules::default()
    };
    let order = deck_with(4, &[(pos(4, 1, 0), "7H"), (pos(4, 1, 1), "7D")]);
    let mut t = Table::dealt(4, rules, None, &order);
    let played = t.cards(0, &["7H", "7D"]);
    t.lead(0, "7", played);
    let e = t.act(s(2), Action::RequestChallenge);
    assert_eq!(e, vec![Effect::ChallengeRequested { by: seat(2) }]);
    let e = t.act(s(1), Action::Challenge);
    assert!(matches!(
        &e[0],
        Effect::Challenged { truthful: true, taker, .. } if *taker == seat(2)
    ));
    t.relabel();
    assert_eq!((t.held(1), t.held(2)), (13, 15));
    assert_eq!(t.st.turn, seat(1));
}

/// TV-3 by default: a request has no effect; the challenger takes the pile.
#[test]
fn tv3_a_request_changes_nothing_by_default() {
    let mut t = tv2_table("7D");
    let played = t.cards(0, &["7H", "7D"]);
    t.lead(0, "7", played);
    t.act(s(2), Action::RequestChallenge);
    t.act(s(1), Action::Challenge);
    t.relabel();
    assert_eq!((t.held(1), t.held(2)), (15, 13));
}

/// TV-4: only the next player may challenge; others may ask him; once he plays, the play
/// stands.
#[test]
fn tv4_only_the_next_player_may_challenge() {
    let mut t = tv2_table("4C");
    let played = t.cards(0, &["7H", "4C"]);
    t.lead(0, "7", played);
    let v = t.reject(s(2), Action::Challenge, Rule::NotNextPlayer);
    assert!(v.detail.contains("seat 1"), "{v}");
    t.act(s(2), Action::RequestChallenge);
    t.reject(s(2), Action::RequestChallenge, Rule::AlreadyRequested);
    t.reject(s(0), Action::RequestChallenge, Rule::CannotRequest);
    t.reject(s(1), Action::RequestChallenge, Rule::CannotRequest);
    let one = t.refs(1)[..1].to_vec();
    t.follow(1, one);
    // The window is on seat 1's play now: seat 0's play can no longer be challenged.
    assert_eq!(t.st.last_play().map(|p| p.seat), Some(seat(1)));
    assert!(t.st.requests.is_empty());
    t.reject(s(1), Action::Challenge, Rule::NotNextPlayer);
    t.reject(s(3), Action::Challenge, Rule::NotNextPlayer);
}

/// Seat 0 leads K with 1 card, seats 1, 2, 3 follow with 2, 1, 3: 7 cards, the turn laps.
fn tv5_lapped(rules: Rules) -> Table {
    let mut t = Table::dealt(4, rules, None, &deck_with(4, &[]));
    let a = t.refs(0)[..1].to_vec();
    t.lead(0, "K", a);
    let b = t.refs(1)[..2].to_vec();
    t.follow(1, b);
    let c2 = t.refs(2)[..1].to_vec();
    t.follow(2, c2);
    let d = t.refs(3)[..3].to_vec();
    let e = t.follow(3, d);
    assert_eq!(
        e[1..],
        [
            Effect::Turn { seat: seat(0) },
            Effect::RoundLapped { rank: Rank::King }
        ]
    );
    assert_eq!(t.st.zones.len(state::PILE), 7);
    t
}

/// TV-5: a round passes without a challenge: the lapping starter may challenge, else leads
/// another rank; the pile stays.
#[test]
fn tv5_a_round_passes_without_a_challenge() {
    let mut t = tv5_lapped(Rules::default());
    let legal = Bluff::legal_actions(&t.st, s(0));
    assert_eq!(legal[..2], [Legal::Challenge, Legal::NoChallenge]);
    assert!(matches!(&legal[2], Legal::Lead { ranks, .. }
        if ranks.len() == 12 && !ranks.contains(&Rank::King)));
    let one = t.refs(0)[..1].to_vec();
    t.reject(
        s(0),
        Action::Lead {
            rank: Rank::King,
            cards: one.clone(),
        },
        Rule::SameRankAfterLap,
    );
    t.reject(s(0), Action::Follow { cards: one.clone() }, Rule::MustLead);
    t.lead(0, "4", one);
    assert_eq!(t.st.zones.len(state::PILE), 8);
    assert_eq!(t.st.pile.len(), 5);
}

/// TV-5 with `new_rank_after_lap = any`: the same rank may be led again.
#[test]
fn tv5_any_rank_after_a_lap_under_any() {
    let rules = Rules {
        new_rank_after_lap: NewRankAfterLap::Any,
        ..Rules::default()
    };
    let mut t = tv5_lapped(rules);
    let one = t.refs(0)[..1].to_vec();
    t.lead(0, "K", one);
}

/// TV-5: the starter challenges seat 3's lie: seat 3 takes all 7 cards, seat 0 leads any
/// rank, K included.
#[test]
fn tv5_the_lapping_starter_challenges_the_last_play() {
    let mut t = tv5_lapped(Rules::default());
    // Seat 3 played 3 of its canonical cards under "K": not all kings.
    let e = t.act(s(0), Action::Challenge);
    assert!(matches!(
        &e[0],
        Effect::Challenged { truthful: false, taker, seat: who, cards, .. }
            if *taker == seat(3) && *who == seat(3) && cards.len() == 3
    ));
    assert_eq!(
        e[1],
        Effect::PileTaken {
            seat: seat(3),
            cards: 7
        }
    );
    t.relabel();
    assert_eq!(t.held(3), 10 + 7);
    let one = t.refs(0)[..1].to_vec();
    t.lead(0, "K", one);
}

/// Seat 2 gets down to 2 cards (`last`, kept) by default rules: three lapped rounds in
/// which seat 2 plays 4, 4 and 3 cards, then a round of 9 where seats 0 and 1 play one
/// card each. Seat 2 is to act, holding `last`.
fn tv6_before(last: [&str; 2]) -> Table {
    let order = deck_with(4, &[(pos(4, 3, 11), last[0]), (pos(4, 3, 12), last[1])]);
    let mut t = Table::four(&order);
    for (rank_code, k) in [("2", 4), ("3", 4), ("4", 3)] {
        if t.st.window_open && t.st.turn == seat(0) {
            t.act(s(0), Action::NoChallenge);
        }
        let a = t.any_cards(0, 1, &[]);
        t.lead(0, rank_code, a);
        let b = t.any_cards(1, 1, &[]);
        t.follow(1, b);
        let cc = t.any_cards(2, k, &last);
        t.follow(2, cc);
        let d = t.any_cards(3, 1, &[]);
        t.follow(3, d);
    }
    let a = t.any_cards(0, 1, &[]);
    t.lead(0, "9", a);
    let b = t.any_cards(1, 1, &[]);
    t.follow(1, b);
    assert_eq!(t.held(2), 2);
    assert_eq!(t.faces(2), {
        let mut v = vec![c(last[0]), c(last[1])];
        v.sort();
        v
    });
    t
}

/// TV-6: going out: seat 2 plays its last two cards under 9; out is pending.
fn tv6_out_pending(last: [&str; 2]) -> Table {
    let mut t = tv6_before(last);
    let cards = t.cards(2, &last);
    let e = t.follow(2, cards);
    assert_eq!(
        e[1..],
        [
            Effect::OutPending { seat: seat(2) },
            Effect::Turn { seat: seat(3) }
        ]
    );
    assert_eq!(t.st.pending_out, Some(seat(2)));
    t
}

/// TV-6 (a): seat 3 follows: seat 2 is out first, the king.
#[test]
fn tv6a_a_follow_confirms_the_out() {
    let mut t = tv6_out_pending(["9S", "9D"]);
    let d = t.any_cards(3, 1, &[]);
    let e = t.follow(3, d);
    assert_eq!(
        e[0],
        Effect::WentOut {
            seat: seat(2),
            place: 1
        }
    );
    assert_eq!(t.st.out_order, vec![seat(2)]);
    assert_eq!(
        titles_for(&[seat(2), seat(0), seat(1), seat(3)], Titles::default())[0],
        (seat(2), Title::King)
    );
    // The turn skips seat 2 from now on.
    assert_eq!(t.st.turn, seat(0));
}

/// TV-6 (b): seat 3 challenges a true play: seat 3 takes the pile, seat 2 is out, seat 3
/// leads.
#[test]
fn tv6b_a_true_last_play_challenged() {
    let mut t = tv6_out_pending(["9S", "9D"]);
    let e = t.act(s(3), Action::Challenge);
    assert!(matches!(&e[0], Effect::Challenged { truthful: true, .. }));
    assert_eq!(
        e[2],
        Effect::WentOut {
            seat: seat(2),
            place: 1
        }
    );
    t.relabel();
    assert_eq!(t.st.out_order, vec![seat(2)]);
    assert_eq!(t.st.turn, seat(3));
    assert_eq!(t.held(2), 0);
}

/// TV-6 (c): seat 2 bluffed with its last cards `[9S, 3D]`: caught, seat 2 takes the pile
/// and is back in; seat 3 leads.
#[test]
fn tv6c_a_false_last_play_caught() {
    let mut t = tv6_out_pending(["9S", "3D"]);
    let pile = t.st.zones.len(state::PILE);
    let e = t.act(s(3), Action::Challenge);
    assert!(
        matches!(&e[0], Effect::Challenged { truthful: false, taker, .. } if *taker == seat(2))
    );
    assert_eq!(e[2], Effect::BackIn { seat: seat(2) });
    t.relabel();
    assert!(t.st.out_order.is_empty());
    assert_eq!(t.st.pending_out, None);
    assert_eq!(t.held(2), pile);
    assert_eq!(t.st.turn, seat(3));
}

/// TV-7: seat 0 leads 5 with its last 2 cards; seat 1's follow confirms seat 0 out; the
/// turn skips seat 0 and laps at seat 1, which leads another rank.
#[test]
fn tv7_a_lap_with_a_player_gone_out() {
    let mut t = Table::four(&deck_with(4, &[]));
    for rank_code in ["2", "3", "4"] {
        if t.st.window_open && t.st.turn == seat(0) {
            t.act(s(0), Action::NoChallenge);
        }
        let k = if rank_code == "4" { 3 } else { 4 };
        let a = t.any_cards(0, k, &[]);
        t.lead(0, rank_code, a);
        for i in 1..4 {
            let x = t.any_cards(i, 1, &[]);
            t.follow(i, x);
        }
    }
    t.act(s(0), Action::NoChallenge);
    assert_eq!(t.held(0), 2);
    let last = t.refs(0);
    t.lead(0, "5", last);
    assert_eq!(t.st.pending_out, Some(seat(0)));
    let x = t.any_cards(1, 1, &[]);
    let e = t.follow(1, x);
    assert_eq!(
        e[0],
        Effect::WentOut {
            seat: seat(0),
            place: 1
        }
    );
    for i in 2..4 {
        let x = t.any_cards(i, 1, &[]);
        t.follow(i, x);
    }
    assert_eq!(t.st.turn, seat(1));
    assert_eq!(t.st.ended_round_rank, Some(Rank::Five));
    let one = t.refs(1)[..1].to_vec();
    t.reject(
        s(1),
        Action::Lead {
            rank: Rank::Five,
            cards: one.clone(),
        },
        Rule::SameRankAfterLap,
    );
    t.lead(1, "6", one);
}

/// Only seats 1 and 3 hold cards and seat 1 has played its last (`max_cards_per_play =
/// unlimited` gets there fast: seats 0 and 2 play their whole hands).
fn tv8_final_window() -> Table {
    let rules = Rules {
        max_cards_per_play: MaxCardsPerPlay::Unlimited,
        ..Rules::default()
    };
    let mut t = Table::dealt(4, rules, None, &deck_with(4, &[]));
    let all0 = t.refs(0);
    t.lead(0, "2", all0);
    let x = t.any_cards(1, 1, &[]);
    t.follow(1, x);
    let all2 = t.refs(2);
    t.follow(2, all2);
    let x = t.any_cards(3, 1, &[]);
    t.follow(3, x);
    assert_eq!(t.st.out_order, vec![seat(0), seat(2)]);
    // The turn skips seat 0 and laps at seat 1.
    assert_eq!(t.st.turn, seat(1));
    t.act(s(1), Action::NoChallenge);
    let all1 = t.refs(1);
    t.lead(1, "3", all1);
    assert_eq!(t.st.pending_out, Some(seat(1)));
    t
}

/// TV-8: the two-player finish: seat 3 may only challenge or not; no challenge ends the
/// hand with seat 3 the thief.
#[test]
fn tv8_two_player_finish() {
    let mut t = tv8_final_window();
    assert_eq!(
        Bluff::legal_actions(&t.st, s(3)),
        vec![Legal::Challenge, Legal::NoChallenge]
    );
    assert_eq!(Bluff::to_act(&t.st).actors, vec![s(3)]);
    let one = t.refs(3)[..1].to_vec();
    t.reject(s(3), Action::Follow { cards: one }, Rule::MustAnswer);
    let e = t.act(s(3), Action::NoChallenge);
    assert_eq!(
        e,
        vec![
            Effect::NotChallenged { seat: seat(3) },
            Effect::WentOut {
                seat: seat(1),
                place: 3
            },
            Effect::HandEnded {
                thief: seat(3),
                order: vec![seat(0), seat(2), seat(1), seat(3)]
            }
        ]
    );
    assert!(Bluff::to_act(&t.st).is_over());
    let v = Bluff::view(&t.st, Viewer::Public);
    assert_eq!((v.turn, v.thief), (None, Some(seat(3))));
    let o = Bluff::outcome(&t.st).unwrap();
    assert_eq!(
        o.titles,
        vec![Title::King, Title::Vizier, Title::Vizier, Title::Thief]
    );
    let m = Bluff::next_match(&t.st).unwrap();
    assert_eq!((m.dealer, m.hands_played, m.over), (seat(0), 1, false));
}

/// TV-8, a caught bluff instead: seat 1 takes the pile and play goes on, seat 3 leading.
#[test]
fn tv8_a_caught_bluff_in_the_final_window_goes_on() {
    let mut t = tv8_final_window();
    let e = t.act(s(3), Action::Challenge);
    assert!(matches!(
        &e[0],
        Effect::Challenged {
            truthful: false,
            ..
        }
    ));
    t.relabel();
    assert_eq!(t.st.phase, Phase::Play);
    assert_eq!(t.st.turn, seat(3));
    // The whole pile: 13 + 1 + 13 + 1 + 12 cards.
    assert_eq!(t.held(1), 40);
    assert!(t.st.out_order == vec![seat(0), seat(2)] && t.st.pending_out.is_none());
}

/// TV-8, a true last play challenged: seat 1 is out, seat 3 took the pile and is the
/// thief once his hand is relabelled.
#[test]
fn tv8_a_true_last_play_challenged_ends_the_hand_after_the_relabel() {
    let rules = Rules {
        max_cards_per_play: MaxCardsPerPlay::Unlimited,
        ..Rules::default()
    };
    // Seat 1 (distance 2) holds all four 3s at its last four positions.
    let order = deck_with(
        4,
        &[
            (pos(4, 2, 9), "3S"),
            (pos(4, 2, 10), "3H"),
            (pos(4, 2, 11), "3D"),
            (pos(4, 2, 12), "3C"),
        ],
    );
    let mut t = Table::dealt(4, rules, None, &order);
    let all0 = t.refs(0);
    t.lead(0, "2", all0);
    let x = t.any_cards(1, 8, &["3S", "3H", "3D", "3C"]);
    t.follow(1, x);
    let all2 = t.refs(2);
    t.follow(2, all2);
    let x = t.any_cards(3, 1, &[]);
    t.follow(3, x);
    t.act(s(1), Action::NoChallenge);
    let x = t.any_cards(1, 1, &["3S", "3H", "3D", "3C"]);
    t.lead(1, "4", x);
    let x = t.any_cards(3, 1, &[]);
    t.follow(3, x);
    // Lap at seat 1, which leads its four 3s, truthfully.
    t.act(s(1), Action::NoChallenge);
    let threes = t.refs(1);
    assert_eq!(threes.len(), 4);
    t.lead(1, "3", threes);
    let e = t.act(s(3), Action::Challenge);
    assert!(matches!(&e[0], Effect::Challenged { truthful: true, .. }));
    assert!(!Bluff::to_act(&t.st).is_over(), "the relabel comes first");
    let e = t.relabel();
    assert!(matches!(
        e.last(),
        Some(Effect::HandEnded { thief, .. }) if *thief == seat(3)
    ));
    assert_eq!(
        Bluff::outcome(&t.st).unwrap().order,
        vec![seat(0), seat(2), seat(1), seat(3)]
    );
}

/// TV-9: six players, two packs, dealer 5: seats 0 and 1 get 18, the others 17; the cap is
/// 8 cards, so a lead of 5 is legal (with 4 players it is not).
#[test]
fn tv9_six_players() {
    let mut t = Table::dealt(6, Rules::default(), Some(5), &deck_with(6, &[]));
    let sizes: Vec<usize> = (0..6).map(|i| t.held(i)).collect();
    assert_eq!(sizes, vec![18, 18, 17, 17, 17, 17]);
    assert_eq!(t.st.deck(), crate::cards::DeckKind::Bluff104);
    // Faces repeat across the packs; refs stay unique.
    let five = t.refs(0)[..5].to_vec();
    let nine = t.refs(0)[..9].to_vec();
    t.reject(
        s(0),
        Action::Lead {
            rank: Rank::Queen,
            cards: nine,
        },
        Rule::TooManyCards,
    );
    t.lead(0, "Q", five);

    let mut four = Table::four(&deck_with(4, &[]));
    let five = four.refs(0)[..5].to_vec();
    four.reject(
        s(0),
        Action::Lead {
            rank: Rank::Queen,
            cards: five,
        },
        Rule::TooManyCards,
    );
}

/// TV-9 with `uneven_deal = set_aside_remainder`: everyone gets 17 and 2 cards are out of
/// play, face down.
#[test]
fn tv9_set_aside_remainder() {
    let rules = Rules {
        uneven_deal: UnevenDeal::SetAsideRemainder,
        ..Rules::default()
    };
    let mut t = Table::new(6, rules, Some(5));
    let e = t.shuffle(&deck_with(6, &[]));
    assert!(e.contains(&Effect::SetAside {
        cards: vec![r(0, 102), r(0, 103)]
    }));
    let sizes: Vec<usize> = (0..6).map(|i| t.held(i)).collect();
    assert_eq!(sizes, vec![17; 6]);
    let v = Bluff::view(&t.st, Viewer::Seat(seat(0)));
    assert_eq!(v.set_aside.len(), 2);
    assert!(v.set_aside.iter().all(|c| c.face.is_none()));
}

/// TV-10: titles by finishing order.
#[test]
fn tv10_titles() {
    let order = [seat(2), seat(0), seat(3), seat(1)];
    assert_eq!(
        titles_for(&order, Titles::KingViziersThief),
        vec![
            (seat(2), Title::King),
            (seat(0), Title::Vizier),
            (seat(3), Title::Vizier),
            (seat(1), Title::Thief)
        ]
    );
    assert_eq!(
        titles_for(&order, Titles::WithExecutioner),
        vec![
            (seat(2), Title::King),
            (seat(0), Title::Vizier),
            (seat(3), Title::Executioner),
            (seat(1), Title::Thief)
        ]
    );
    let o = Outcome {
        hand: 1,
        dealer: seat(3),
        order: order.to_vec(),
        titles: vec![Title::Vizier, Title::Thief, Title::King, Title::Executioner],
    };
    let res = Bluff::results(&o);
    use crate::engine::Judged;
    assert_eq!(
        res.iter()
            .map(|x| (x.judged, x.title.as_deref(), x.delta))
            .collect::<Vec<_>>(),
        vec![
            (Judged::Even, Some("vizier"), 0),
            (Judged::Lost, Some("thief"), 0),
            (Judged::Won, Some("king"), 0),
            (Judged::Even, Some("executioner"), 0)
        ]
    );
}

/// The relabel after a pick-up: the old refs are gone, the taker's hand holds fresh refs
/// `(k, 0…)` of the relabel shuffle in its order, the faces are the same multiset, and only
/// the taker sees them.
#[test]
fn relabel_after_each_pick_up() {
    let mut t = tv2_table("4C");
    let played = t.cards(0, &["7H", "4C"]);
    let old_hand = t.refs(0);
    t.lead(0, "7", played.clone());
    let faces_before = {
        let mut v = t.faces(0);
        v.extend([c("7H"), c("4C")]);
        v.sort();
        v
    };
    t.act(s(1), Action::Challenge);
    let req = Bluff::to_act(&t.st).shuffle.unwrap();
    assert_eq!(req.reason, "relabel");
    let mut want_faces = req.cards.clone();
    want_faces.sort();
    assert_eq!(want_faces, faces_before);
    assert_eq!(
        req.source,
        crate::engine::ShuffleSource::Gather(t.refs(0)),
        "the request names the hand by refs"
    );
    let mut order = faces_before.clone();
    order.rotate_left(5);
    t.shuffle(&order);
    for old in old_hand.iter().chain(&played) {
        assert!(t.st.zones.find(*old).is_none(), "old ref {old:?} survives");
    }
    let fresh: Vec<CardRef> = (0..13).map(|i| r(1, i)).collect();
    assert_eq!(t.refs(0), fresh);
    assert_eq!(t.st.zones.faces(ZoneId::Hand(seat(0))), order);
    assert_eq!(t.faces(0), faces_before);
    for i in 1..4 {
        let v = Bluff::view(&t.st, Viewer::Seat(seat(i)));
        assert!(v.hands[0].cards.iter().all(|x| x.face.is_none()));
    }
    // A second pick-up: shuffle number 2 relabels the new taker's hand.
    let one = t.refs(1)[..1].to_vec();
    t.lead(1, "A", one);
    t.act(s(2), Action::Challenge);
    let taker = match t.st.last_challenge {
        Some(ch) => ch.taker,
        None => unreachable!(),
    };
    t.relabel();
    assert!(t
        .st
        .zones
        .cards(ZoneId::Hand(taker))
        .iter()
        .all(|p| p.r.shuffle == 2));
}
