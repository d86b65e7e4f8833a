//! Given-when-then tests per rule: phases and turns, the draw, the service's penalty, the
//! dealer's peek, views and the match across hands.

use super::*;

const D52: DeckKind = DeckKind::Standard52;

fn started(rules: Rules, n: u8) -> Table {
    let mut t = Table::new(rules, n, Some(0));
    let deck = Hokm::deck(&t.st.rules, &t.st.start);
    t.shuffle(&canonical(deck));
    t
}

#[test]
fn the_first_hand_starts_with_a_first_ace_draw() {
    let mut t = Table::new(Rules::default(), 4, None);
    let req = Hokm::to_act(&t.st).shuffle.unwrap();
    assert_eq!(req.reason, "draw");
    assert_eq!(req.cards, D52.cards());
    // Seats 0, 1, 2, 3, 0, …: the first ace falls to seat 2 at position 6.
    let e = t.shuffle(&deck_with(D52, &[(0, "2S"), (6, "AD"), (9, "AS")]));
    let draws: Vec<(u8, Card)> = e
        .iter()
        .filter_map(|x| match x {
            Effect::DrawCard { seat, card } => Some((seat.0, card.face)),
            _ => None,
        })
        .collect();
    assert_eq!(draws.len(), 7);
    assert_eq!(draws[6], (2, c("AD")));
    assert!(e.contains(&Effect::HakemSet { seat: seat(2) }));
    assert_eq!(Hokm::to_act(&t.st).shuffle.unwrap().reason, "deal");
    // Every draw card is public, with the seat it went to.
    assert!(t
        .seen(Viewer::Public, ZoneId::Table)
        .iter()
        .all(Option::is_some));
    let v = Hokm::view(&t.st, Viewer::Public);
    assert_eq!(v.drawn.len(), 7);
    assert_eq!(v.drawn[6].seat, seat(2));
    assert_eq!(v.drawn[6].card.face, Some(c("AD")));
    t.shuffle(&canonical(D52));
    assert_eq!(t.phase(), Phase::AwaitingCut);
    assert_eq!(Hokm::to_act(&t.st).actors[0], s(0), "the cutter is h + 2");
    assert_eq!(t.replay(), t.st);
}

#[test]
fn a_highest_card_draw_redraws_ties_for_first() {
    let rules = Rules {
        hakem_draw: HakemDraw::HighestCard,
        ..Rules::default()
    };
    let mut t = Table::new(rules, 3, None);
    // K, K, 5: seats 0 and 1 redraw: 3 and 9: seat 1 is hakem.
    t.shuffle(&deck_with(
        D52,
        &[(0, "KS"), (1, "KH"), (2, "5D"), (3, "3C"), (4, "9C")],
    ));
    assert_eq!(t.st.hakem, Some(seat(1)));
    assert_eq!(
        t.phase(),
        Phase::AwaitShuffle {
            reason: ShuffleReason::Deal
        }
    );
}

#[test]
fn a_spent_draw_deck_asks_for_another_draw_shuffle() {
    let rules = Rules {
        hakem_draw: HakemDraw::HighestCard,
        ..Rules::default()
    };
    let mut t = Table::new(rules, 2, None);
    // Every pair ties (A A, A A, K K, …): all 52 cards are turned without a hakem.
    let mut pairs: Vec<Card> = D52.cards();
    pairs.sort_by_key(|x| std::cmp::Reverse(x.rank()));
    let e = t.shuffle(&pairs);
    assert!(e.contains(&Effect::DrawDeckSpent));
    assert_eq!(t.st.hakem, None);
    let req = Hokm::to_act(&t.st).shuffle.unwrap();
    assert_eq!(req.reason, "draw");
    // The next draw deck settles it: 2S to seat 0, 3S to seat 1.
    t.shuffle(&canonical(D52));
    assert_eq!(t.st.hakem, Some(seat(1)));
    assert_eq!(t.st.zones.total(), 104);
    assert_eq!(t.replay(), t.st);
}

fn by_draw(draw: HakemDraw) -> Rules {
    Rules {
        hakem_draw: draw,
        partnerships: Partnerships::ByDraw,
        ..Rules::default()
    }
}

#[test]
fn a_first_ace_partner_draw_reseats_the_partner_opposite() {
    let mut t = Table::new(by_draw(HakemDraw::FirstAce), 4, None);
    // Seat 1 gets the first ace; the cards go on to seats 2, 3, 0: seat 0's ace makes him
    // the partner, and he changes places with seat 3 (opposite seat 1).
    let e = t.shuffle(&deck_with(D52, &[(0, "2S"), (1, "AS"), (4, "AH")]));
    let draws: Vec<u8> = e
        .iter()
        .filter_map(|x| match x {
            Effect::DrawCard { seat, .. } => Some(seat.0),
            _ => None,
        })
        .collect();
    assert_eq!(draws, vec![0, 1, 2, 3, 0]);
    assert!(e.contains(&Effect::Reseated {
        seating: vec![seat(3), seat(1), seat(2), seat(0)]
    }));
    assert_eq!(t.st.hakem, Some(seat(1)));
    let m = &t.st.now;
    let st = Hokm::standings(m);
    assert_eq!(
        st.sides,
        vec![vec![seat(2), seat(3)], vec![seat(0), seat(1)]]
    );
    // Play goes hakem, his right (2), his partner (0), the other (3); the partner cuts.
    t.shuffle(&canonical(D52));
    assert_eq!(Hokm::to_act(&t.st).actors[0], s(0));
    t.act(s(0), Action::Cut { k: 3 });
    assert_eq!(t.hand(1).len(), 5);
    t.act(s(1), Action::DeclareTrump { suit: suit("H") });
    let first = t.st.zones.refs_in(ZoneId::Hand(seat(1)))[0];
    t.act(s(1), Action::Play { card: first });
    assert_eq!(t.st.to_play(), seat(2));
    assert_eq!(t.replay(), t.st);
}

#[test]
fn a_highest_card_partner_draw_resolves_ties_for_first_and_second() {
    let mut t = Table::new(by_draw(HakemDraw::HighestCard), 4, None);
    // K, K, 5, 3: seats 0 and 1 redraw 9 and 3: seat 0 is hakem, seat 1 (who lost the
    // tie for first) is second, his partner, and changes places with seat 2.
    t.shuffle(&deck_with(
        D52,
        &[
            (0, "KS"),
            (1, "KH"),
            (2, "5D"),
            (3, "3C"),
            (4, "9C"),
            (5, "3D"),
        ],
    ));
    assert_eq!(t.st.hakem, Some(seat(0)));
    assert_eq!(t.st.now.seating, vec![seat(0), seat(2), seat(1), seat(3)]);
    // 5, 5, K, 2: no tie for first; seats 0 and 1 tie for second and redraw.
    let mut t = Table::new(by_draw(HakemDraw::HighestCard), 4, None);
    t.shuffle(&deck_with(
        D52,
        &[
            (0, "5S"),
            (1, "5H"),
            (2, "KD"),
            (3, "2C"),
            (4, "3C"),
            (5, "4D"),
        ],
    ));
    assert_eq!(t.st.hakem, Some(seat(2)));
    assert_eq!(t.st.now.seating, vec![seat(1), seat(0), seat(2), seat(3)]);
    assert_eq!(t.st.draw_seats.len(), 6);
}

#[test]
fn actions_out_of_phase_or_turn_are_rejected() {
    let mut t = Table::new(Rules::default(), 4, Some(0));
    t.reject(
        s(0),
        Action::DeclareTrump { suit: suit("H") },
        Rule::WrongPhase,
    );
    t.shuffle(&canonical(D52));
    t.reject(
        s(0),
        Action::DeclareTrump { suit: suit("H") },
        Rule::WrongPhase,
    );
    t.act(s(2), Action::Cut { k: 1 });
    t.reject(
        s(1),
        Action::DeclareTrump { suit: suit("H") },
        Rule::NotYourTurn,
    );
    t.reject(s(0), Action::KeepFirst, Rule::WrongPhase);
    t.reject(s(0), Action::ContinueForBam, Rule::BamNotAvailable);
    t.reject(s(0), Action::DeclinePeek, Rule::PeekNotAllowed);
    t.act(s(0), Action::DeclareTrump { suit: suit("H") });
    let not_mine = t.st.zones.refs_in(ZoneId::Hand(seat(1)))[0];
    t.reject(s(0), Action::Play { card: not_mine }, Rule::CardNotInHand);
    let card = t.st.zones.refs_in(ZoneId::Hand(seat(1)))[0];
    t.reject(s(1), Action::Play { card }, Rule::NotYourTurn);
    t.reject(
        s(1),
        Action::AwardCheatingPenalty {
            offender: seat(0),
            beneficiary: None,
        },
        Rule::NotYourTurn,
    );
}

#[test]
fn direct_declaration_can_be_switched_off() {
    let rules = Rules {
        cut: Cut::None,
        trump_methods: vec![TrumpMethod::BargVasat],
        ..Rules::default()
    };
    let mut t = started(rules, 4);
    t.reject(
        s(0),
        Action::DeclareTrump { suit: suit("H") },
        Rule::MethodNotAllowed,
    );
    t.act(s(0), Action::CallBargVasat);
    assert_eq!(t.phase(), Phase::Playing);
}

#[test]
fn a_penalty_adds_points_and_can_end_the_match() {
    let rules = Rules {
        cut: Cut::None,
        cheating_penalty_points: 3,
        ..Rules::default()
    };
    let m = Match {
        seats: 4,
        scores: vec![1, 5],
        rounds: vec![0, 0],
        hakem: Some(seat(0)),
        deuce: false,
        over: false,
        winner: None,
        hand: 4,
        seating: state::identity(4),
    };
    let mut t = Table::from_match(&rules, &m);
    t.shuffle(&canonical(D52));
    t.reject(
        Actor::Service,
        Action::AwardCheatingPenalty {
            offender: seat(0),
            beneficiary: Some(seat(2)),
        },
        Rule::BadPenalty,
    );
    // Seat 1 reneged; seat 0's team caught it: 1 + 3 = 4, the hand goes on.
    t.act(
        Actor::Service,
        Action::AwardCheatingPenalty {
            offender: seat(1),
            beneficiary: Some(seat(0)),
        },
    );
    assert_eq!(t.st.now.scores, vec![4, 5]);
    assert_eq!(t.phase(), Phase::AwaitingTrump);
    // The service catches seat 0: team 1 reaches 8 ≥ 7: the match is over, so is the hand.
    t.act(
        Actor::Service,
        Action::AwardCheatingPenalty {
            offender: seat(0),
            beneficiary: None,
        },
    );
    assert_eq!(t.phase(), Phase::HandOver);
    let o = Hokm::outcome(&t.st).unwrap();
    assert_eq!(o.winner, None);
    assert_eq!(o.points, vec![3, 3]);
    assert_eq!(o.next.winner, Some(1));
    assert_eq!(o.next.hand, 5);
    let r = Hokm::results(&o);
    assert_eq!(r[1].judged, crate::engine::Judged::Won);
    assert_eq!(r[0].judged, crate::engine::Judged::Lost);
    t.reject(
        s(0),
        Action::DeclareTrump { suit: suit("H") },
        Rule::MatchOver,
    );
    assert!(Hokm::new_hand(&rules, &o.next).is_err());
}

#[test]
fn the_dealer_may_peek_once_at_a_partner_packet() {
    let rules = Rules {
        cut: Cut::None,
        dealer_peek: true,
        ..Rules::default()
    };
    let mut t = started(rules, 4);
    t.act(s(0), Action::DeclareTrump { suit: suit("H") });
    assert_eq!(t.phase(), Phase::AwaitingDealerPeek);
    t.reject(s(1), Action::DeclinePeek, Rule::NotYourTurn);
    t.act(s(3), Action::PeekPartnerPacket { round: 3 });
    // The dealer (3) now sees his partner's (1) round-3 packet: 3C 4C 5C 6C.
    let seen: Vec<Card> = t
        .seen(Viewer::Seat(seat(3)), ZoneId::Hand(seat(1)))
        .into_iter()
        .flatten()
        .collect();
    assert_eq!(seen, cards("3C 4C 5C 6C"));
    assert_eq!(t.phase(), Phase::Playing);
}

#[test]
fn views_show_own_cards_and_public_facts_only() {
    let mut t = started(no_cut(), 4);
    t.act(s(0), Action::DeclareTrump { suit: suit("S") });
    t.play(0, "2S");
    let v = Hokm::view(&t.st, Viewer::Seat(seat(1)));
    assert_eq!(v.trump, Some(suit("S")));
    assert_eq!(v.trick[0].face, Some(c("2S")));
    assert_eq!(v.to_act[0], s(1));
    let faces: usize = v
        .zones
        .0
        .iter()
        .map(|z| z.cards.iter().filter(|c| c.face.is_some()).count())
        .sum();
    assert_eq!(faces, 13 + 1, "own hand and the card on the trick");
    let json = serde_json::to_value(&v).unwrap();
    assert_eq!(json["phase"]["name"], "playing");
}

#[test]
fn the_hakem_passes_to_the_winner_with_two_or_three_players() {
    // 2p: the non-hakem wins (given 6 tricks and he leads with all trumps).
    let mut t = Table::new(Rules::default(), 2, Some(0));
    t.shuffle(&canonical(D52));
    t.act(s(0), Action::DeclareTrump { suit: suit("C") });
    let h = t.hand(0);
    let three: Vec<CardRef> = h[..3].iter().map(|x| t.r(0, &x.to_string())).collect();
    t.act(s(0), Action::Discard { cards: three });
    let o = t.hand(1);
    let two: Vec<CardRef> = o[..2].iter().map(|x| t.r(1, &x.to_string())).collect();
    t.act(s(1), Action::Discard { cards: two });
    for turn in 1..=20u8 {
        t.act(s(if turn % 2 == 1 { 0 } else { 1 }), Action::TakeSecond);
    }
    let card = t.st.zones.refs_in(ZoneId::Stock)[1];
    t.act(s(0), Action::ChooseFinal { card });
    while t.phase() == Phase::Playing {
        t.play_any_trick();
    }
    let o = Hokm::outcome(&t.st).unwrap();
    let w = o.winner.unwrap();
    assert_eq!(o.next.hakem, Some(seat(w)));
    assert_eq!(o.tricks.iter().copied().max(), Some(7));
    assert_eq!(t.replay(), t.st);
}

#[test]
fn rounds_and_redraw_at_a_new_round() {
    let rules = Rules {
        rounds_to_win: 2,
        new_round_hakem: NewRoundHakem::Redraw,
        cheating_penalty_points: 7,
        ..no_cut()
    };
    let mut t = Table::new(rules.clone(), 3, Some(1));
    t.shuffle(&canonical(DeckKind::Hokm51 {
        removed_two: crate::cards::Suit::Clubs,
    }));
    t.act(
        Actor::Service,
        Action::AwardCheatingPenalty {
            offender: seat(0),
            beneficiary: Some(seat(2)),
        },
    );
    // Seat 2 wins round 1; the scores restart and the hand goes on.
    assert_eq!(t.st.now.rounds, vec![0, 0, 1]);
    assert_eq!(t.st.now.scores, vec![0, 0, 0]);
    assert_eq!(t.phase(), Phase::AwaitingTrump);
    t.act(s(1), Action::DeclareTrump { suit: suit("H") });
    while t.phase() == Phase::Playing {
        t.play_any_trick();
    }
    let next = Hokm::next_match(&t.st).unwrap();
    assert!(!next.over);
    assert_eq!(next.hand, 2);
    // A round ended during this hand: under `redraw` the next hand starts with a draw.
    assert_eq!(next.hakem, None);
    assert_eq!(next.rounds, vec![0, 0, 1]);
}

#[test]
fn invalid_rules_and_matches_are_refused() {
    use crate::engine::HouseRules;
    let bad = [
        Rules {
            target_points: 0,
            ..Rules::default()
        },
        Rules {
            rounds_to_win: 4,
            ..Rules::default()
        },
        Rules {
            trump_methods: vec![],
            ..Rules::default()
        },
        Rules {
            ten_low: TenLow::MaxRedealsPerHand(0),
            ..Rules::default()
        },
    ];
    for r in bad {
        assert!(r.validate().is_err(), "{r:?}");
    }
    for r in [
        Rules {
            partnerships: Partnerships::ByDraw,
            ..Rules::default()
        },
        Rules {
            dealer_peek: true,
            ..Rules::default()
        },
    ] {
        assert!(Hokm::new_match(&r, &Setup { seats: 2 }).is_err());
    }
    let partner = Rules {
        cut: Cut::PartnerCuts,
        ..Rules::default()
    };
    assert!(Hokm::new_match(&partner, &Setup { seats: 3 }).is_err());
    assert!(Hokm::new_match(&Rules::default(), &Setup { seats: 5 }).is_err());
}

/// Issue 30 (hokm.md D24, D25): after a `by_draw` reseat, a new round's hakem redraw deals
/// its face-up cards round the table by place, not by player number, and draws no partner.
#[test]
fn a_new_round_redraw_after_a_reseat_deals_round_the_table() {
    let rules = Rules {
        new_round_hakem: NewRoundHakem::Redraw,
        ..by_draw(HakemDraw::FirstAce)
    };
    let mut m = Hokm::new_match(&rules, &Setup { seats: 4 }).unwrap();
    // The match's first draw reseated seats 2 and 3; a round was won; hand 5 redraws.
    m.seating = vec![seat(0), seat(1), seat(3), seat(2)];
    m.rounds = vec![1, 0];
    m.hand = 5;
    m.hakem = None;
    let mut t = Table::from_match(&rules, &m);
    // No ace in the first three cards: the fourth place (seat 2) gets the ace.
    let e = t.shuffle(&deck_with(
        D52,
        &[(0, "2S"), (1, "3S"), (2, "4S"), (3, "AH")],
    ));
    let draws: Vec<u8> = e
        .iter()
        .filter_map(|x| match x {
            Effect::DrawCard { seat, .. } => Some(seat.0),
            _ => None,
        })
        .collect();
    assert_eq!(draws, vec![0, 1, 3, 2], "the draw goes round the table");
    assert_eq!(t.st.hakem, Some(seat(2)));
    // Seat 2 sits at place 3: team 1 with seat 1.
    assert_eq!(side_of(seat(2), t.st.table()), 1);
    // Partners are not drawn again (D24): no reseat.
    assert!(!e.iter().any(|x| matches!(x, Effect::Reseated { .. })));
    assert_eq!(t.st.table(), &[seat(0), seat(1), seat(3), seat(2)]);
    assert_eq!(t.replay(), t.st);
}

/// The same for a highest-card redraw: the tied seats redraw in table order.
#[test]
fn a_new_round_highest_card_redraw_follows_the_table() {
    let rules = Rules {
        new_round_hakem: NewRoundHakem::Redraw,
        ..by_draw(HakemDraw::HighestCard)
    };
    let mut m = Hokm::new_match(&rules, &Setup { seats: 4 }).unwrap();
    m.seating = vec![seat(0), seat(3), seat(2), seat(1)];
    m.rounds = vec![0, 1];
    m.hand = 3;
    let mut t = Table::from_match(&rules, &m);
    // Places 0..3 are seats 0, 3, 2, 1: 5, K, 2, K: seats 3 and 1 tie and redraw, seat 3
    // first: 4 then 9: seat 1 is hakem.
    let e = t.shuffle(&deck_with(
        D52,
        &[
            (0, "5S"),
            (1, "KS"),
            (2, "2S"),
            (3, "KH"),
            (4, "4D"),
            (5, "9D"),
        ],
    ));
    let draws: Vec<u8> = e
        .iter()
        .filter_map(|x| match x {
            Effect::DrawCard { seat, .. } => Some(seat.0),
            _ => None,
        })
        .collect();
    assert_eq!(draws, vec![0, 3, 2, 1, 3, 1]);
    assert_eq!(t.st.hakem, Some(seat(1)));
    assert_eq!(t.replay(), t.st);
}
