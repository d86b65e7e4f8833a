//! Given-when-then tests per rule: the deal, the auction, the widow laid away, trump by the
//! first lead, following suit, the 2-player piles, views.

use super::*;
use crate::engine::{HouseRules, SetupError, Viewer};
use serde_json::Value;

fn faces(t: &T, zone: ZoneId) -> Vec<Card> {
    t.state.zones.faces(zone)
}

#[test]
fn the_deal_gives_12_12_12_the_widow_and_the_last_12_to_the_dealer() {
    for dealer in 0..4u8 {
        let mut t = table(&Rules::default(), 4, dealer);
        let order: Vec<Card> = crate::cards::DeckKind::Standard52.cards();
        t.shuffle(&order);
        let slice = |a: usize, b: usize| order[a..b].to_vec();
        assert_eq!(
            faces(&t, ZoneId::Hand(seat((dealer + 1) % 4))),
            slice(0, 12)
        );
        assert_eq!(
            faces(&t, ZoneId::Hand(seat((dealer + 2) % 4))),
            slice(12, 24)
        );
        assert_eq!(
            faces(&t, ZoneId::Hand(seat((dealer + 3) % 4))),
            slice(24, 36)
        );
        assert_eq!(faces(&t, ZoneId::Pile(0)), slice(36, 40));
        // §5.5: D[51] is the dealer's.
        let mine = faces(&t, ZoneId::Hand(seat(dealer)));
        assert_eq!(mine, slice(40, 52));
        assert_eq!(mine.last(), order.last());
        // The opener is the dealer's right.
        assert_eq!(actor(&t), s((dealer + 1) % 4));
    }
}

#[test]
fn the_two_player_deal_lays_three_piles_each_and_the_widow() {
    for (pile_top, top_at) in [(PileTop::FirstDealt, 0usize), (PileTop::LastDealt, 3)] {
        let rules = Rules {
            pile_top,
            ..Rules::default()
        };
        let mut t = table(&rules, 2, 1);
        let order: Vec<Card> = crate::cards::DeckKind::Standard52.cards();
        t.shuffle(&order);
        let slice = |a: usize| order[a..a + 4].to_vec();
        // Dealer 1, non-dealer 0 (§13.2).
        assert_eq!(faces(&t, ZoneId::Hand(seat(0))), order[0..12].to_vec());
        assert_eq!(faces(&t, ZoneId::Hand(seat(1))), order[12..24].to_vec());
        assert_eq!(faces(&t, state::pile_zone(seat(0), 1)), slice(24));
        assert_eq!(faces(&t, state::pile_zone(seat(1), 1)), slice(28));
        assert_eq!(faces(&t, state::pile_zone(seat(0), 2)), slice(32));
        assert_eq!(faces(&t, state::pile_zone(seat(1), 2)), slice(36));
        assert_eq!(faces(&t, state::pile_zone(seat(0), 3)), slice(40));
        assert_eq!(faces(&t, ZoneId::Pile(0)), slice(44));
        assert_eq!(faces(&t, state::pile_zone(seat(1), 3)), slice(48));
        // Nobody, the owner included, sees a pile card.
        for v in [Viewer::Seat(seat(0)), Viewer::Seat(seat(1)), Viewer::Public] {
            let view = t.view(v);
            for p in view["piles"].as_array().unwrap() {
                for pile in p.as_array().unwrap() {
                    assert!(pile
                        .as_array()
                        .unwrap()
                        .iter()
                        .all(|x| x.get("face").is_none()));
                }
            }
        }
        assert_eq!(t.state.top_of(state::pile_zone(seat(0), 1)), Some(top_at));
        assert_eq!(actor(&t), s(0), "the non-dealer opens");
    }
}

#[test]
fn a_cut_by_the_dealers_left_rotates_the_deck() {
    let rules = Rules {
        cut: Cut::LeftOfDealer,
        ..Rules::default()
    };
    let mut t = table(&rules, 4, 0);
    let order: Vec<Card> = crate::cards::DeckKind::Standard52.cards();
    t.shuffle(&order);
    assert_eq!(t.state.phase, Phase::AwaitingCut);
    assert_eq!(actor(&t), s(3), "the dealer's left cuts");
    t.reject(s(1), Action::Cut { k: 5 }, "NotYourTurn");
    t.reject(s(3), Action::Cut { k: 0 }, "InvalidCut");
    t.reject(s(3), Action::Cut { k: 52 }, "InvalidCut");
    t.act(s(3), Action::Cut { k: 7 });
    let mut cut = order[7..].to_vec();
    cut.extend_from_slice(&order[..7]);
    assert_eq!(faces(&t, ZoneId::Hand(seat(1))), cut[0..12].to_vec());
    assert_eq!(faces(&t, ZoneId::Hand(seat(0))), cut[40..52].to_vec());
}

#[test]
fn bids_go_in_fives_from_100_to_165_and_must_climb() {
    let mut t = table(&Rules::default(), 4, 0);
    t.shuffle(&crate::cards::DeckKind::Standard52.cards());
    t.reject(s(2), Action::Bid { amount: 100 }, "NotYourTurn");
    t.reject(s(1), Action::Bid { amount: 95 }, "BidBelowMinimum");
    t.reject(s(1), Action::Bid { amount: 170 }, "BidAboveMaximum");
    t.reject(s(1), Action::Bid { amount: 102 }, "BidNotMultipleOf5");
    t.reject(s(1), Action::LayAway { cards: vec![] }, "WrongPhase");
    auction(&mut t, "1:100");
    t.reject(s(2), Action::Bid { amount: 100 }, "BidNotHigher");
    // Jumps are allowed; 165 ends the bidding: the others may only pass.
    auction(&mut t, "2:165");
    assert_eq!(
        Shelem::legal_actions(&t.state, s(3)),
        vec![Legal::Pass],
        "after 165 only a pass"
    );
    t.reject(s(3), Action::Bid { amount: 165 }, "BidNotHigher");
    auction(&mut t, "3:p 0:p 1:p");
    assert_eq!(t.state.hakem, Some(seat(2)));
    assert_eq!(t.state.contract, Some(165));
    assert_eq!(t.state.phase, Phase::Exchange { seat: seat(2) });
}

#[test]
fn a_pass_is_final_and_the_turn_skips_those_who_passed() {
    let mut t = table(&Rules::default(), 4, 0);
    t.shuffle(&crate::cards::DeckKind::Standard52.cards());
    auction(&mut t, "1:p 2:100 3:p 0:105");
    // Seat 1 passed: the turn goes from 0 to 2.
    assert_eq!(actor(&t), s(2));
    t.reject(s(1), Action::Bid { amount: 110 }, "NotYourTurn");
    auction(&mut t, "2:p");
    assert_eq!(t.state.hakem, Some(seat(0)));
}

#[test]
fn all_pass_voids_the_deal_and_the_deal_moves_on() {
    for (all_pass, next, line) in [
        (AllPass::RedealNextDealer, 0u8, true),
        (AllPass::RedealSameDealer, 3, false),
    ] {
        let rules = Rules {
            all_pass,
            ..Rules::default()
        };
        let mut t = table(&rules, 4, 0);
        // Hand 4 of the match: seat 3 deals, so the deal comes back to seat 0 next.
        let mut m = t.state.now.clone();
        m.dealer = seat(3);
        m.hand = 4;
        t = T::from_match(&rules, &m);
        t.shuffle(&crate::cards::DeckKind::Standard52.cards());
        auction(&mut t, "0:p 1:p 2:p 3:p");
        assert_eq!(t.state.phase, Phase::HandOver);
        let o = Shelem::outcome(&t.state).unwrap();
        assert_eq!(o.row.outcome, HandKind::PassedOut);
        assert_eq!(o.row.bid, None);
        assert_eq!(o.row.delta, [0, 0]);
        assert_eq!(o.row.rule_below, line);
        assert_eq!(o.next.dealer, seat(next));
        assert_eq!(o.next.hand, 5);
        assert!(!o.next.over);
    }
}

#[test]
fn last_seat_must_bid_when_the_others_passed() {
    let rules = Rules {
        all_pass: AllPass::LastSeatMustBid,
        ..Rules::default()
    };
    let mut t = table(&rules, 4, 1);
    t.shuffle(&crate::cards::DeckKind::Standard52.cards());
    auction(&mut t, "2:p 3:p 0:p");
    t.reject(s(1), Action::Pass, "PassNotAllowed");
    assert!(!Shelem::legal_actions(&t.state, s(1)).contains(&Legal::Pass));
    auction(&mut t, "1:100");
    assert_eq!(t.state.hakem, Some(seat(1)));
    // 2 players: the dealer must bid when the non-dealer passed.
    let mut t = table(&rules, 2, 0);
    t.shuffle(&crate::cards::DeckKind::Standard52.cards());
    auction(&mut t, "1:p");
    t.reject(s(0), Action::Pass, "PassNotAllowed");
}

#[test]
fn two_players_bid_until_one_passes() {
    let mut t = table(&Rules::default(), 2, 1);
    t.shuffle(&crate::cards::DeckKind::Standard52.cards());
    auction(&mut t, "0:100 1:110 0:120 1:p");
    assert_eq!(t.state.hakem, Some(seat(0)));
    assert_eq!(t.state.contract, Some(120));
    // The non-dealer may pass; then the dealer bids and is hakem at once (D25).
    let mut t = table(&Rules::default(), 2, 1);
    t.shuffle(&crate::cards::DeckKind::Standard52.cards());
    auction(&mut t, "0:p 1:100");
    assert_eq!(t.state.hakem, Some(seat(1)));
}

fn hakem_table() -> T {
    // Dealer 0; seat 1 holds the twelve lowest spades and hearts; seat 1 bids and is hakem.
    let mut t = table(&Rules::default(), 4, 0);
    t.shuffle(&deck(
        4,
        0,
        &[
            ("h1", "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S"),
            ("w", "2S AH KH QH"),
            ("h2", "2H 3H 4H 5H 6H 7H 8H 9H TH JH AD KD"),
        ],
    ));
    auction(&mut t, "1:100 2:p 3:p 0:p");
    t
}

#[test]
fn the_hakem_takes_the_widow_and_lays_four_away_in_secret() {
    let mut t = hakem_table();
    assert_eq!(t.state.zones.len(ZoneId::Hand(seat(1))), 16);
    // The widow's faces are the hakem's alone.
    let widow: Vec<CardRef> = t.state.zones.refs_in(ZoneId::Hand(seat(1)));
    for v in [Viewer::Seat(seat(0)), Viewer::Seat(seat(2)), Viewer::Public] {
        let hand = t.state.zones.zone_view(ZoneId::Hand(seat(1)), v);
        assert!(hand.iter().all(|x| x.face.is_none()), "{v:?}");
    }
    assert!(t
        .state
        .zones
        .zone_view(ZoneId::Hand(seat(1)), Viewer::Seat(seat(1)))
        .iter()
        .all(|x| x.face.is_some()));
    let a = Action::LayAway {
        cards: vec![r(&t, "AH"), r(&t, "KH"), r(&t, "QH")],
    };
    assert_eq!(
        Shelem::public_part(&a),
        Some(serde_json::json!({"type": "lay_away"}))
    );
    t.reject(s(1), a, "DiscardCount");
    let dup = r(&t, "AH");
    t.reject(
        s(1),
        Action::LayAway {
            cards: vec![dup, dup, r(&t, "KH"), r(&t, "QH")],
        },
        "DiscardDuplicate",
    );
    t.reject(
        s(1),
        Action::LayAway {
            cards: vec![r(&t, "AH"), r(&t, "KH"), r(&t, "QH"), r(&t, "2H")],
        },
        "DiscardNotHeld",
    );
    t.reject(
        s(2),
        Action::LayAway {
            cards: widow[..4].to_vec(),
        },
        "NotYourTurn",
    );
    lay_away(&mut t, "AH KH QH 2S");
    assert_eq!(t.state.zones.len(ZoneId::Hand(seat(1))), 12);
    assert_eq!(t.state.phase, Phase::Playing);
    for v in [Viewer::Seat(seat(0)), Viewer::Seat(seat(3)), Viewer::Public] {
        let laid = t.view(v)["laid_away"].clone();
        assert_eq!(laid.as_array().unwrap().len(), 4);
        assert!(laid
            .as_array()
            .unwrap()
            .iter()
            .all(|x| x.get("face").is_none()));
    }
    let mine = t.view(Viewer::Seat(seat(1)))["laid_away"].clone();
    assert!(mine
        .as_array()
        .unwrap()
        .iter()
        .all(|x| x.get("face").is_some()));
    assert!(
        Shelem::public_part(&Action::Pass).is_none(),
        "a pass is public"
    );
}

#[test]
fn the_first_lead_names_trump_and_a_renege_is_refused() {
    let mut t = hakem_table();
    lay_away(&mut t, "AH KH QH 2S");
    assert_eq!(t.state.trump, None);
    t.reject(s(2), Action::Play { card: r(&t, "2H") }, "NotYourTurn");
    t.reject(s(1), Action::Play { card: r(&t, "2H") }, "CardNotHeld");
    let e = play(&mut t, 1, "3S");
    assert_eq!(
        e[0],
        Effect::TrumpSet {
            suit: crate::games::tricks::SuitCode(crate::cards::Suit::Spades)
        }
    );
    assert_eq!(t.state.trump, Some(crate::cards::Suit::Spades));
    // Seat 2 holds no spade: any card. Seat 3 and 0 are dealt the rest.
    play(&mut t, 2, "AD");
    let seat3_spade = t
        .state
        .zones
        .faces(ZoneId::Hand(seat(3)))
        .into_iter()
        .find(|x| x.suit() == Some(crate::cards::Suit::Spades));
    assert!(
        seat3_spade.is_none(),
        "every spade is the hakem's or laid away"
    );
    let off = t.state.zones.cards(ZoneId::Hand(seat(3)))[0].r;
    t.act(s(3), Action::Play { card: off });
    let card = t.state.zones.cards(ZoneId::Hand(seat(0)))[0].r;
    let e = t.act(s(0), Action::Play { card });
    assert!(e.iter().any(|x| matches!(
        x,
        Effect::TrickWon {
            index: 1,
            seat: SeatIndex(1),
            team: 1
        }
    )));
    // Trick 2: seat 1 leads a spade again; seat 2 must follow hearts when hearts are led.
    play(&mut t, 1, "4S");
    assert_eq!(t.state.trick_seats.len(), 1);
}

#[test]
fn a_renege_in_a_hearts_trick_is_refused() {
    let mut t = table(&Rules::default(), 4, 3);
    t.shuffle(&deck(
        4,
        3,
        &[
            ("h0", "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"),
            ("h1", "AH 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC"),
            ("w", "AS KS QS JS"),
        ],
    ));
    auction(&mut t, "0:100 1:p 2:p 3:p");
    lay_away(&mut t, "AS KS QS JS");
    play(&mut t, 0, "2H");
    assert_eq!(t.state.trump, Some(crate::cards::Suit::Hearts));
    // Seat 1 holds AH: a club is a renege.
    let before = t.state.clone();
    t.reject(s(1), Action::Play { card: r(&t, "2C") }, "MustFollowSuit");
    let v = Shelem::decide(&t.state, s(1), &Action::Play { card: r(&t, "2C") }).unwrap_err();
    assert_eq!(v.section, "shelem §8.2");
    assert_eq!(t.state, before);
    play(&mut t, 1, "AH");
}

fn two_player_table(rules: &Rules) -> T {
    // Dealer 1: seat 0 is the non-dealer; seat 0 bids and is hakem.
    let mut t = table(rules, 2, 1);
    t.shuffle(&deck(
        2,
        1,
        &[
            ("h0", "AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S"),
            ("h1", "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H"),
            ("p0.1", "2S AD KD QD"),
            ("p1.1", "2H AC KC QC"),
            ("p0.2", "JD TD 9D 8D"),
            ("p1.2", "JC TC 9C 8C"),
            ("p0.3", "7D 6D 5D 4D"),
            ("w", "3D 2D 7C 6C"),
            ("p1.3", "5C 4C 3C 2C"),
        ],
    ));
    auction(&mut t, "0:100 1:p");
    lay_away(&mut t, "3D 2D 7C 6C");
    t
}

#[test]
fn two_players_play_hand_hand_pile_pile_and_the_piles_turn_up() {
    let mut t = two_player_table(&Rules::default());
    // Position 1: a pile card is not a hand card.
    t.reject(s(0), Action::Play { card: r(&t, "2S") }, "CardNotHeld");
    play(&mut t, 0, "3S");
    assert!(!t.state.piles_open);
    let e = play(&mut t, 1, "3H");
    // After position 2 of trick 1: the six tops are turned up.
    let turned: Vec<Card> = e
        .iter()
        .filter_map(|x| match x {
            Effect::PileTopTurned { card, .. } => Some(card.face),
            _ => None,
        })
        .collect();
    assert_eq!(turned, cards("2S JD 7D 2H JC 5C"));
    // Position 3: the leader plays one of his tops; a hand card is the wrong source.
    assert_eq!(actor(&t), s(0));
    t.reject(s(0), Action::Play { card: r(&t, "4S") }, "CardNotAvailable");
    t.reject(s(0), Action::Play { card: r(&t, "AD") }, "CardNotAvailable");
    // Spades led: his top 2S must be played (follow suit among the tops).
    t.reject(s(0), Action::Play { card: r(&t, "JD") }, "MustFollowSuit");
    let e = play(&mut t, 0, "2S");
    // The card beneath is turned at once.
    assert!(e
        .iter()
        .any(|x| matches!(x, Effect::PileTopTurned { card, .. } if card.face == c("AD"))));
    // Position 4: seat 1 has no spade among his tops: any top.
    t.reject(s(1), Action::Play { card: r(&t, "4H") }, "CardNotAvailable");
    let e = play(&mut t, 1, "JC");
    assert!(e.iter().any(|x| matches!(
        x,
        Effect::TrickWon {
            seat: SeatIndex(0),
            ..
        }
    )));
    // Trick 2: the winner leads from his hand.
    assert_eq!(actor(&t), s(0));
    play_out(&mut t, first);
    let o = Shelem::outcome(&t.state).unwrap();
    assert_eq!(o.row.h.unwrap() + o.row.o.unwrap(), 165);
}

#[test]
fn a_pile_card_played_by_the_owner_of_the_winning_card_wins_the_trick() {
    let mut t = two_player_table(&Rules::default());
    play(&mut t, 0, "3S");
    play(&mut t, 1, "AH");
    play(&mut t, 0, "2S");
    play(&mut t, 1, "JC");
    // 3S (trump) beats 2S: seat 0's hand card wins.
    assert_eq!(t.state.won, vec![1, 0]);
    assert_eq!(
        t.view(Viewer::Public)["team_tricks"],
        serde_json::json!([1, 0])
    );
}

#[test]
fn views_show_own_cards_and_public_facts_only() {
    let mut t = hakem_table();
    lay_away(&mut t, "AH KH QH 2S");
    for i in 0..4u8 {
        let v: Value = t.view(Viewer::Seat(seat(i)));
        for z in v["zones"].as_array().unwrap() {
            let mine = z["zone"] == "hand" && z["of"] == i;
            let discard = z["zone"] == "discard" && i == 1;
            for card in z["cards"].as_array().unwrap() {
                assert_eq!(card.get("face").is_some(), mine || discard, "{z}");
            }
        }
    }
}

#[test]
fn house_rules_are_checked_with_the_seat_count() {
    let bad = |r: Rules, n: u8| {
        let e = Shelem::new_match(
            &r,
            &Setup {
                seats: n,
                first_dealer: seat(0),
            },
        )
        .unwrap_err();
        assert!(
            matches!(e, SetupError::Rules(_) | SetupError::Seats { .. }),
            "{e}"
        );
    };
    bad(Rules::default(), 3);
    bad(Rules::default(), 5);
    bad(
        Rules {
            pile_top: PileTop::LastDealt,
            ..Rules::default()
        },
        4,
    );
    bad(
        Rules {
            target: 1201,
            ..Rules::default()
        },
        4,
    );
    bad(
        Rules {
            target: 0,
            ..Rules::default()
        },
        4,
    );
    bad(
        Rules {
            preset: Preset::P004,
            made_score: Some(MadeScore::PointsTaken),
            ..Rules::default()
        },
        4,
    );
    bad(
        Rules {
            preset: Preset::Custom,
            bid165_multiplier: Some(3),
            ..Rules::default()
        },
        4,
    );
    // A 4-player schedule is refused at a 2-player table.
    bad(Rules::samples()[4].clone(), 2);
    let e = Shelem::new_match(
        &Rules::default(),
        &Setup {
            seats: 4,
            first_dealer: seat(4),
        },
    )
    .unwrap_err();
    assert!(matches!(e, SetupError::Match(_)));
    // The normalized rules write every scoring field out.
    let r = Rules {
        preset: Preset::P004,
        ..Rules::default()
    }
    .for_seats(2)
    .unwrap();
    assert_eq!(r.made_score, Some(MadeScore::Bid));
    assert_eq!(r.yasa, Some(false));
    assert_eq!(r.shelem_score, Some(ShelemScore::Fixed165));
    assert_eq!(r.bid165_multiplier, Some(2));
    for sample in Rules::samples() {
        sample.validate().unwrap();
    }
}

#[test]
fn a_custom_deal_schedule_is_followed() {
    let rules = Rules::samples()[4].clone();
    let mut t = table(&rules, 4, 2);
    let order: Vec<Card> = crate::cards::DeckKind::Standard52.cards();
    t.shuffle(&order);
    assert_eq!(faces(&t, ZoneId::Pile(0)), order[0..4].to_vec());
    assert_eq!(faces(&t, ZoneId::Hand(seat(3))), order[4..16].to_vec());
    assert_eq!(faces(&t, ZoneId::Hand(seat(2))), order[40..52].to_vec());
}

#[test]
fn a_bad_deck_is_refused() {
    let t = table(&Rules::default(), 4, 0);
    let mut order: Vec<Card> = crate::cards::DeckKind::Standard52.cards();
    order[0] = order[1];
    let v = Shelem::decide_shuffle(&t.state, 0, &order).unwrap_err();
    assert_eq!(v.rule, "InvalidDeck");
    assert_eq!(v.section, "shelem §5.3");
    let v = Shelem::decide_shuffle(&t.state, 1, &crate::cards::DeckKind::Standard52.cards())
        .unwrap_err();
    assert_eq!(v.rule, "InvalidDeck");
}
