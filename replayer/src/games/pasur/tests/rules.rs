//! Given-when-then per rule: set-up, turn, ownership, captures, compulsion options, the
//! jack on an empty table, dealing orders, sides.

use super::*;
use crate::engine::{Game, HouseRules, SetupError};

fn setup(n: u8) -> Setup {
    Setup {
        seats: n,
        first_dealer: SeatIndex(0),
    }
}

#[test]
fn two_to_four_seats_and_nothing_else() {
    let r = Rules::default();
    for n in [0u8, 1, 5, 8] {
        assert!(
            matches!(
                Pasur::new_match(&r, &setup(n)),
                Err(SetupError::Seats { min: 2, max: 4, .. })
            ),
            "{n}"
        );
    }
    for n in 2..=4 {
        let m = Pasur::new_match(&r, &setup(n)).unwrap();
        assert_eq!(m.scores.len(), if n == 4 { 2 } else { usize::from(n) });
    }
}

#[test]
fn house_rules_are_validated_with_the_seat_count() {
    let ind = Rules {
        four_player_mode: FourPlayerMode::Individual,
        ..Rules::default()
    };
    for n in [2u8, 3] {
        assert!(matches!(ind.for_seats(n), Err(SetupError::Rules(_))), "{n}");
        assert!(Pasur::new_match(&ind, &setup(n)).is_err());
    }
    let m = Pasur::new_match(&ind, &setup(4)).unwrap();
    assert_eq!(m.scores.len(), 4);
    for bad in [
        Rules {
            deal_packet: 3,
            ..Rules::default()
        },
        Rules {
            target_score: 0,
            ..Rules::default()
        },
        Rules {
            target_score: MAX_TARGET + 1,
            ..Rules::default()
        },
    ] {
        assert!(bad.validate().is_err(), "{bad:?}");
    }
    // Every sample is valid for some seat count, and the defaults for all.
    for n in 2..=4 {
        assert!(Rules::default().for_seats(n).is_ok());
    }
    assert!(Rules::samples().iter().all(|r| r.validate().is_ok()));
    // A first dealer off the table.
    assert!(Pasur::new_match(
        &Rules::default(),
        &Setup {
            seats: 3,
            first_dealer: SeatIndex(3)
        }
    )
    .is_err());
}

#[test]
fn a_play_before_the_deal_or_out_of_turn_or_of_another_card_is_refused() {
    let r = Rules::default();
    let t = Table::<Pasur>::new(
        &r,
        &Setup {
            seats: 2,
            first_dealer: SeatIndex(0),
        },
    );
    let a = Action::Play {
        card: CardRef { shuffle: 0, pos: 0 },
        capture: None,
    };
    let err = Pasur::decide(&t.state, s(1), &a).unwrap_err();
    assert_eq!(
        (err.rule.as_str(), err.section.as_str()),
        ("WrongPhase", "pasur §5.3 P1")
    );

    let mut t = position(&r, 2, &["9C 4D", "8H"], "3S");
    let a = play(&t, 0, "9C", None);
    t.reject(s(0), a, "NotYourTurn");
    let a = Action::Play {
        card: r_in(&t, ZoneId::Hand(SeatIndex(0)), "4D"),
        capture: None,
    };
    t.reject(s(1), a, "CardNotInHand");
    // A table card is no card of the hand either.
    let a = Action::Play {
        card: r_in(&t, ZoneId::Table, "3S"),
        capture: None,
    };
    t.reject(s(1), a, "CardNotInHand");
    // A capture naming a card that is not on the table, or one twice.
    let a = Action::Play {
        card: r_in(&t, ZoneId::Hand(SeatIndex(1)), "8H"),
        capture: Some(vec![r_in(&t, ZoneId::Hand(SeatIndex(0)), "4D")]),
    };
    t.reject(s(1), a, "CaptureNotOnTable");
    let three = r_in(&t, ZoneId::Table, "3S");
    let a = Action::Play {
        card: r_in(&t, ZoneId::Hand(SeatIndex(1)), "8H"),
        capture: Some(vec![three, three]),
    };
    t.reject(s(1), a, "DuplicateCards");
    // The service is not a player.
    let a = play(&t, 1, "8H", None);
    t.reject(crate::engine::Actor::Service, a, "NotYourTurn");
}

#[test]
fn a_court_is_never_part_of_a_sum() {
    let r = Rules::default();
    let mut t = position(&r, 2, &["9C", "6H"], "5D QS");
    let a = play(&t, 1, "6H", Some("5D QS"));
    t.reject(s(1), a, "CaptureSum");
    let err = Pasur::decide(&t.state, s(1), &play(&t, 1, "6H", Some("QS"))).unwrap_err();
    assert!(err.detail.contains("never part of a sum"), "{}", err.detail);
}

#[test]
fn the_compulsion_options() {
    // Default: the card that can capture must; a card that cannot may stay.
    let d = Rules::default();
    let mut t = position(&d, 2, &["2C", "9C 6H"], "5D");
    let a = play(&t, 1, "6H", Some(""));
    t.reject(s(1), a, "MustCapture");
    let a = play(&t, 1, "9C", Some(""));
    t.act(s(1), a);

    // Optional: a numeral may stay though it could capture; a jack still takes.
    let opt = Rules {
        capture_compulsion: CaptureCompulsion::Optional,
        ..Rules::default()
    };
    let mut t = position(&opt, 2, &["2C", "9C 6H JS"], "5D");
    assert_eq!(options_of(&t, "6H"), vec![vec![], sorted("5D")]);
    let a = play(&t, 1, "JS", Some(""));
    t.reject(s(1), a, "JackMustTakeAll");
    let a = play(&t, 1, "6H", Some(""));
    t.act(s(1), a);
    assert_eq!(table(&t), sorted("5D 6H"));

    // Must capture if able: 9C may not stay while 6H can take 5D.
    let strict = Rules {
        capture_compulsion: CaptureCompulsion::MustCaptureIfAble,
        ..Rules::default()
    };
    let mut t = position(&strict, 2, &["2C", "9C 6H"], "5D");
    assert!(options_of(&t, "9C").is_empty());
    let a = play(&t, 1, "9C", Some(""));
    t.reject(s(1), a, "MustCapture");
    let a = play(&t, 1, "6H", None);
    t.act(s(1), a);
}

#[test]
fn a_jack_on_an_empty_table_by_option() {
    let d = Rules::default();
    let mut t = position(&d, 2, &["2C", "JC 5H"], "");
    let a = play(&t, 1, "JC", None);
    t.reject(s(1), a, "JackOnEmptyTable");
    let allowed = Rules {
        jack_on_empty_table: JackOnEmptyTable::Allowed,
        ..Rules::default()
    };
    let mut t = position(&allowed, 2, &["2C", "JC 5H"], "");
    let a = play(&t, 1, "JC", None);
    t.act(s(1), a);
    assert_eq!(table(&t), sorted("JC"));
}

/// The cards dealt to each seat in deal 1, in order, and the table.
fn first_deal(t: &Table<Pasur>) -> (Vec<(SeatIndex, Vec<u32>)>, Vec<u32>) {
    let mut hands = Vec::new();
    let mut table = Vec::new();
    for e in &t.log {
        match e {
            Effect::Dealt { seat, cards, .. } => {
                hands.push((*seat, cards.iter().map(|r| r.pos).collect()))
            }
            Effect::TableDealt { cards } => table = cards.iter().map(|x| x.card.pos).collect(),
            _ => {}
        }
    }
    (hands, table)
}

#[test]
fn deal_one_in_packets_from_the_dealers_right_then_the_table() {
    // Dealer seat 2 of 4: seats 3, 0, 1, 2 receive packets of 4, then 4 to the table.
    let r = Rules::default();
    let mut t = Table::<Pasur>::new(
        &r,
        &Setup {
            seats: 4,
            first_dealer: SeatIndex(2),
        },
    );
    t.shuffle(&deck_top(
        "2S 3S 4S 5S 6S 7S 8S 9S 2H 3H 4H 5H 6H 7H 8H 9H 2D 3D 4D 5D",
    ));
    let (hands, table) = first_deal(&t);
    assert_eq!(
        hands,
        vec![
            (SeatIndex(3), vec![0, 1, 2, 3]),
            (SeatIndex(0), vec![4, 5, 6, 7]),
            (SeatIndex(1), vec![8, 9, 10, 11]),
            (SeatIndex(2), vec![12, 13, 14, 15]),
        ]
    );
    assert_eq!(table, vec![16, 17, 18, 19]);
    assert_eq!(t.state.turn, SeatIndex(3));
    assert_eq!(t.state.zones.len(ZoneId::Stock), 32);

    // deal_packet = 1: one card at a time, four rounds; the table after every player.
    let one = Rules {
        deal_packet: 1,
        ..Rules::default()
    };
    let mut t = Table::<Pasur>::new(
        &one,
        &Setup {
            seats: 3,
            first_dealer: SeatIndex(0),
        },
    );
    t.shuffle(&deck_top("2S 3S 4S 5S 6S 7S 8S 9S 2H 3H 4H 5H 6H 7H 8H 9H"));
    let (hands, table) = first_deal(&t);
    let to = |seat: u8| -> Vec<u32> {
        hands
            .iter()
            .filter(|(x, _)| *x == SeatIndex(seat))
            .flat_map(|(_, p)| p.clone())
            .collect()
    };
    assert_eq!(to(1), vec![0, 3, 6, 9]);
    assert_eq!(to(2), vec![1, 4, 7, 10]);
    assert_eq!(to(0), vec![2, 5, 8, 11]);
    assert_eq!(table, vec![12, 13, 14, 15]);
}

#[test]
fn partners_capture_and_sur_for_their_side() {
    let r = Rules::default();
    // 4 players in partnership, dealer 0: seat 1 plays first; seat 3's sur is side 1's.
    let mut t = position(&r, 4, &["2C", "9D", "3C", "KS"], "KH");
    t.state.turn = SeatIndex(3);
    let a = play(&t, 3, "KS", None);
    let e = t.act(s(3), a);
    assert!(e.contains(&Effect::Sur {
        seat: SeatIndex(3),
        side: 1,
        play: 1
    }));
    assert_eq!(t.state.surs, vec![0, 1]);
    // Individually, seat 3 is its own side.
    let ind = Rules {
        four_player_mode: FourPlayerMode::Individual,
        ..Rules::default()
    };
    let mut t = position(&ind, 4, &["2C", "9D", "3C", "KS"], "KH");
    t.state.turn = SeatIndex(3);
    let a = play(&t, 3, "KS", None);
    t.act(s(3), a);
    assert_eq!(t.state.surs, vec![0, 0, 0, 1]);
}

#[test]
fn a_shuffle_that_is_not_the_deck_is_refused() {
    let r = Rules::default();
    let t = Table::<Pasur>::new(
        &r,
        &Setup {
            seats: 2,
            first_dealer: SeatIndex(0),
        },
    );
    let mut short = deck_top("");
    short.pop();
    let err = Pasur::decide_shuffle(&t.state, 0, &short).unwrap_err();
    assert_eq!(err.rule, "BadShuffle");
    let err = Pasur::decide_shuffle(&t.state, 1, &deck_top("")).unwrap_err();
    assert_eq!(err.rule, "BadShuffle");
}
