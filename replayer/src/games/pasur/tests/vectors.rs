//! The spec's worked examples and test vectors (§11, TV-1 … TV-10), given-when-then.

use super::super::decide::{clubs_winner, match_end, score};
use super::*;

/// TV-1: 003's «2 3 6 = 11» and «7 4 = 11» as a scripted deal (n = 2, dealer seat 0).
#[test]
fn tv1_the_captures_2_3_6_and_7_4_as_a_scripted_deal() {
    let r = Rules::default();
    // Deal 1: seat 1's packet, seat 0's, the table; deal 2: seat 1's, seat 0's.
    let mut t = dealt(
        &r,
        2,
        "6C JD 7S KH  4D 8H QS 10C  2H 3S 9D KC  3D 5H JC 2S  QD 6S AH 9S",
    );
    assert_eq!(table(&t), sorted("2H 3S 9D KC"));
    assert_eq!(t.state.turn, SeatIndex(1));
    // 1: 6C takes {2H, 3S}: 2 + 3 + 6 = 11.
    let a = play(&t, 1, "6C", Some("2H 3S"));
    let e = t.act(s(1), a);
    assert!(!has_sur(&e));
    assert_eq!(table(&t), sorted("9D KC"));
    assert_eq!(t.state.last_capturer, Some(SeatIndex(1)));
    // 2: 4D needs 7: none; it stays.
    let a = play(&t, 0, "4D", Some(""));
    t.act(s(0), a);
    assert_eq!(table(&t), sorted("9D KC 4D"));
    // 3: 7S ⇒ ∅ is a violation (P5); 7S takes {4D}: 7 + 4 = 11.
    let a = play(&t, 1, "7S", Some(""));
    t.reject(s(1), a, "MustCapture");
    let a = play(&t, 1, "7S", Some("4D"));
    t.act(s(1), a);
    assert_eq!(table(&t), sorted("9D KC"));
    // 4: 10C needs an ace: none.
    let a = play(&t, 0, "10C", Some(""));
    t.act(s(0), a);
    // 5: KH takes one K.
    let a = play(&t, 1, "KH", Some("KC"));
    t.act(s(1), a);
    assert_eq!(table(&t), sorted("9D 10C"));
    // 6: QS: no Q on the table.
    let a = play(&t, 0, "QS", Some(""));
    t.act(s(0), a);
    // 7: JD ⇒ {9D} alone is a violation; JD takes every card but K and Q.
    let a = play(&t, 1, "JD", Some("9D"));
    t.reject(s(1), a, "JackMustTakeAll");
    let a = play(&t, 1, "JD", Some("9D 10C"));
    t.act(s(1), a);
    assert_eq!(table(&t), sorted("QS"));
    // 8: 8H stays; all hands are empty: deal 2, seat 1 to play.
    let a = play(&t, 0, "8H", Some(""));
    let e = t.act(s(0), a);
    assert!(e
        .iter()
        .any(|x| matches!(x, Effect::Dealt { deal: 2, seat, .. } if *seat == SeatIndex(1))));
    assert_eq!(t.state.deal_no, 2);
    assert_eq!(t.state.turn, SeatIndex(1));
    // 9: 3D takes {8H}.
    let a = play(&t, 1, "3D", Some("8H"));
    t.act(s(1), a);
    assert_eq!(table(&t), sorted("QS"));
    // 10: QD takes {QS}: the table is empty: a sur for seat 0 (play #10).
    let a = play(&t, 0, "QD", Some("QS"));
    let e = t.act(s(0), a);
    assert!(e.contains(&Effect::Sur {
        seat: SeatIndex(0),
        side: 0,
        play: 10
    }));
    // 11: JC onto the empty table while holding non-jacks: a violation (P3).
    let a = play(&t, 1, "JC", None);
    t.reject(s(1), a, "JackOnEmptyTable");
    let a = play(&t, 1, "5H", None);
    t.act(s(1), a);
    assert_eq!(table(&t), sorted("5H"));
    // 12: 6S takes {5H}: sur #2 for seat 0.
    let a = play(&t, 0, "6S", Some("5H"));
    let e = t.act(s(0), a);
    assert!(has_sur(&e));
    assert_eq!(won(&t, 1), sorted("6C 2H 3S 7S 4D KH KC JD 9D 10C 3D 8H"));
    assert_eq!(won(&t, 0), sorted("QD QS 6S 5H"));
    assert_eq!(t.state.surs, vec![2, 0]);
    assert_eq!(t.state.plays, 12);
}

/// TV-2: sets that make 11, the choice between them, the ace as 1.
#[test]
fn tv2_choosing_between_sets_and_the_ace_as_one() {
    let r = Rules::default();
    let mut t = position(&r, 2, &["9C", "2C"], "3S 6D");
    let a = play(&t, 1, "2C", Some("3S 6D"));
    let e = t.act(s(1), a);
    assert!(has_sur(&e), "outside the window a sweep is a sur");

    let mut t = position(&r, 2, &["9C", "3C"], "2H 6D");
    let a = play(&t, 1, "3C", Some("2H 6D"));
    t.act(s(1), a);
    assert_eq!(won(&t, 1), sorted("3C 2H 6D"));

    // 7H on {4C, 2D, 2H, 10S}: {4C} or {2D, 2H}.
    let t = position(&r, 2, &["9C", "7H"], "4C 2D 2H 10S");
    assert_eq!(options_of(&t, "7H"), vec![sorted("2D 2H"), sorted("4C")]);
    let a = play(&t, 1, "7H", Some("4C 2D 2H"));
    let mut t2 = position(&r, 2, &["9C", "7H"], "4C 2D 2H 10S");
    t2.reject(s(1), a, "CaptureSum");
    let a = play(&t2, 1, "7H", Some(""));
    t2.reject(s(1), a, "MustCapture");
    // No capture named: refused, naming both sets.
    let a = play(&t2, 1, "7H", None);
    let err = Pasur::decide(&t2.state, s(1), &a).unwrap_err();
    assert_eq!(err.rule, "AmbiguousCapture");
    assert_eq!(err.section, "pasur §5.2");
    assert!(err.detail.contains("{4C}"), "{}", err.detail);
    assert!(
        err.detail.contains("{2D, 2H}") || err.detail.contains("{2H, 2D}"),
        "{}",
        err.detail
    );
    // With multi_set_capture the three together are legal ({4C} and {2D, 2H}).
    let multi = Rules {
        multi_set_capture: true,
        ..Rules::default()
    };
    let mut t3 = position(&multi, 2, &["9C", "7H"], "4C 2D 2H 10S");
    let a = play(&t3, 1, "7H", Some("4C 2D 2H"));
    t3.act(s(1), a);
    assert_eq!(table(&t3), sorted("10S"));

    // The ace counts 1.
    let mut t = position(&r, 2, &["9C", "AS"], "10D 3C");
    let a = play(&t, 1, "AS", Some("3C"));
    t.reject(s(1), a, "CaptureSum");
    let a = play(&t, 1, "AS", Some("10D"));
    t.act(s(1), a);
    let mut t = position(&r, 2, &["9C", "10C"], "AH");
    let a = play(&t, 1, "10C", Some("AH"));
    t.act(s(1), a);
    let t = position(&r, 2, &["9C", "AD"], "4D 6H 5S 5C");
    assert_eq!(options_of(&t, "AD"), vec![sorted("5S 5C"), sorted("6H 4D")]);
}

/// TV-3: the jack.
#[test]
fn tv3_jack_cases() {
    let r = Rules::default();
    let mut t = position(&r, 2, &["9C", "JC"], "5C 9D QH KS JD");
    let a = play(&t, 1, "JC", Some("5C 9D JD"));
    let e = t.act(s(1), a);
    assert_eq!(table(&t), sorted("QH KS"));
    assert!(!has_sur(&e));

    let mut t = position(&r, 2, &["9C", "JH"], "5C 9D");
    let a = play(&t, 1, "JH", None);
    let e = t.act(s(1), a);
    assert!(table(&t).is_empty());
    assert!(!has_sur(&e), "a jack never scores a sur");

    let mut t = position(&r, 2, &["9C", "JS"], "QH KS");
    let a = play(&t, 1, "JS", None);
    t.act(s(1), a);
    assert_eq!(table(&t), sorted("QH KS JS"));

    // An empty table and a hand of jacks only: the jack is legal and stays.
    let mut t = position(&r, 2, &["4H JD", "JS JH"], "");
    let a = play(&t, 1, "JS", None);
    t.act(s(1), a);
    assert_eq!(table(&t), sorted("JS"));
    // The next player's 4H cannot take it; JD can, and no sur.
    assert_eq!(options_of(&t, "4H"), vec![Vec::<Card>::new()]);
    let a = play(&t, 0, "JD", None);
    let e = t.act(s(0), a);
    assert!(table(&t).is_empty());
    assert!(!has_sur(&e));
}

/// TV-4: king and queen.
#[test]
fn tv4_king_and_queen() {
    let r = Rules::default();
    let mut t = position(&r, 2, &["9C", "KD"], "KH KC 6S");
    assert_eq!(options_of(&t, "KD"), vec![sorted("KH"), sorted("KC")]);
    let a = play(&t, 1, "KD", Some("KH KC"));
    t.reject(s(1), a, "CourtCapture");
    let a = play(&t, 1, "KD", Some(""));
    t.reject(s(1), a, "MustCapture");
    let a = play(&t, 1, "KD", None);
    t.reject(s(1), a, "AmbiguousCapture");
    let a = play(&t, 1, "KD", Some("KC"));
    t.act(s(1), a);
    assert_eq!(table(&t), sorted("KH 6S"));

    let mut t = position(&r, 2, &["9C", "KS"], "KH");
    let a = play(&t, 1, "KS", None);
    assert!(has_sur(&t.act(s(1), a)));

    let mut t = position(&r, 2, &["9C", "QD"], "6S");
    let a = play(&t, 1, "QD", None);
    t.act(s(1), a);
    assert_eq!(table(&t), sorted("6S QD"));
}

/// A position at play `before + 1` in deal `deal`: seat 1 plays `card` on `table`.
fn late(rules: &Rules, before: u8, deal: u8, card: &str, on: &str) -> Vec<Effect> {
    let mut t = position(rules, 2, &["2C", card], on);
    t.state.plays = before;
    t.state.deal_no = deal;
    let a = play(&t, 1, card, None);
    Pasur::decide(&t.state, s(1), &a).unwrap()
}

/// TV-5: the sur windows.
#[test]
fn tv5_sur_windows() {
    let with = |w: SurForbidden| Rules {
        sur_forbidden: w,
        ..Rules::default()
    };
    use SurForbidden::*;
    // Play #48, 10C on {AD}: a sur only under `never`.
    for (w, sur) in [
        (LastCard, false),
        (LastFourCards, false),
        (LastDeal, false),
        (Never, true),
    ] {
        let e = late(&with(w), 47, 6, "10C", "AD");
        assert_eq!(has_sur(&e), sur, "{w:?}");
    }
    // Play #46, 9H on {2S}, deal 6.
    for (w, sur) in [(LastCard, true), (LastFourCards, false), (LastDeal, false)] {
        assert_eq!(has_sur(&late(&with(w), 45, 6, "9H", "2S")), sur, "{w:?}");
    }
    // Play #41 with n = 2 (deal 6 = plays #41–#48).
    for (w, sur) in [(LastCard, true), (LastFourCards, true), (LastDeal, false)] {
        assert_eq!(has_sur(&late(&with(w), 40, 6, "9H", "2S")), sur, "{w:?}");
    }
}

/// TV-6: the leftovers go to the last capturer's side, and are no sur.
#[test]
fn tv6_leftovers_to_the_last_capturer() {
    let r = Rules::default();
    let mut t = position(&r, 2, &["5D", "9S"], "QH");
    t.state.plays = 47;
    t.state.deal_no = 6;
    t.state.turn = SeatIndex(0);
    t.state.last_capturer = Some(SeatIndex(1));
    let a = play(&t, 0, "5D", None);
    let e = t.act(s(0), a);
    assert!(!has_sur(&e));
    assert!(e.iter().any(|x| matches!(x,
        Effect::LeftoversTaken { seat: Some(SeatIndex(1)), cards } if cards.len() == 2)));
    assert_eq!(won(&t, 1), sorted("QH 5D"));
    assert_eq!(t.state.phase, Phase::HandOver);
}

/// The stock's faces, top first.
fn stock(t: &Table<Pasur>) -> Vec<Card> {
    t.state.zones.faces(ZoneId::Stock)
}

/// Play on with the first legal capture until `until` holds.
fn play_until(t: &mut Table<Pasur>, until: impl Fn(&State) -> bool) -> Vec<Effect> {
    let mut all = Vec::new();
    while !until(&t.state) {
        let seat = t.state.turn;
        let legal = Pasur::legal_actions(&t.state, crate::engine::Actor::Seat(seat));
        let Legal::Play { card, captures } = legal.first().unwrap().clone();
        let capture = captures.last().cloned();
        all.extend(t.act(
            crate::engine::Actor::Seat(seat),
            Action::Play { card, capture },
        ));
    }
    all
}

/// TV-7: the table-jack replacement (n = 2, `middle_of_stock`, and `bottom_of_stock`).
#[test]
fn tv7_table_jack_replacement() {
    let hands = "2S 3S 4S 5S 2D 3D 4D 5D";
    let top = format!("{hands} JH 5C JD QS 3H JC 7S");
    let deck = deck_top(&top);
    let x = |i: usize| deck[12 + i]; // the stock as dealt, before the table jacks
    let t0 = dealt(&Rules::default(), 2, &top);
    let mut t = t0;
    assert_eq!(t.state.zones.faces(ZoneId::Table), cards("3H 5C 7S QS"));
    let replaced: Vec<(u8, Card, Card, u32)> = t
        .log
        .iter()
        .filter_map(|e| match e {
            Effect::TableJackReplaced {
                slot,
                jack,
                replacement,
                at,
            } => Some((*slot, jack.face, replacement.face, *at)),
            _ => None,
        })
        .collect();
    assert_eq!(
        replaced,
        vec![
            (1, c("JH"), c("3H"), 19),
            (3, c("JD"), c("JC"), 19),
            (3, c("JC"), c("7S"), 19),
        ]
    );
    let st = stock(&t);
    assert_eq!(st.len(), 40);
    assert_eq!(st[0], x(3));
    assert_eq!(&st[17..20], &cards("JH JD JC")[..]);
    assert_eq!(st[16], x(19));
    // Deal 4 takes indices 16–23: seat 1 (first) receives x19, JH, JD, JC.
    let e = play_until(&mut t, |s| s.deal_no >= 4);
    let packet = e
        .iter()
        .find_map(|x| match x {
            Effect::Dealt {
                deal: 4,
                seat,
                cards,
            } if *seat == SeatIndex(1) => Some(cards.clone()),
            _ => None,
        })
        .unwrap();
    let faces: Vec<Card> = packet
        .iter()
        .map(|r| t.state.zones.find(*r).unwrap().1.face)
        .collect();
    assert_eq!(faces, vec![x(19), c("JH"), c("JD"), c("JC")]);

    // Bottom of the stock: the three jacks end it and go to the dealer in deal 6.
    let bottom = Rules {
        table_jack_return: TableJackReturn::BottomOfStock,
        ..Rules::default()
    };
    let mut t = dealt(&bottom, 2, &top);
    let st = stock(&t);
    assert_eq!(&st[37..40], &cards("JH JD JC")[..]);
    let e = play_until(&mut t, |s| s.deal_no >= 6);
    let to_dealer = e
        .iter()
        .find_map(|x| match x {
            Effect::Dealt {
                deal: 6,
                seat,
                cards,
            } if *seat == SeatIndex(0) => Some(cards.clone()),
            _ => None,
        })
        .unwrap();
    let faces: Vec<Card> = to_dealer
        .iter()
        .map(|r| t.state.zones.find(*r).unwrap().1.face)
        .collect();
    assert_eq!(&faces[1..], &cards("JH JD JC")[..]);
}

/// TV-8: a hand's score.
#[test]
fn tv8_hand_scoring() {
    let r = Rules::default();
    let mut t = position(&r, 2, &["9H", "9S"], "");
    let z = &mut t.state.zones;
    for (seat, codes) in [
        (0u8, "AC 2C 3C 5C 7C 9C QC KC AH JS 10D"),
        (1, "4C 6C 8C 10C JC AD AS JD JH"),
    ] {
        for face in cards(codes) {
            let r = z.find_face(ZoneId::Stock, face).unwrap().r;
            z.move_card(
                ZoneId::Stock,
                r,
                ZoneId::Won(SeatIndex(seat)),
                Seen::EVERYONE,
            )
            .unwrap();
        }
    }
    t.state.surs = vec![1, 0];
    let sc = score(&t.state);
    assert_eq!(
        sc[0],
        SideScore {
            side: 0,
            cards: 11,
            aces: 2,
            jacks: 1,
            two_of_clubs: true,
            ten_of_diamonds: true,
            clubs: 8,
            clubs_bonus: true,
            surs: 1,
            points: 20,
        }
    );
    assert_eq!(sc[1].points, 5);
    assert_eq!((sc[1].aces, sc[1].jacks, sc[1].clubs), (2, 3, 5));
    assert!(!sc[1].clubs_bonus);
}

/// TV-9: the clubs bonus with three players.
#[test]
fn tv9_clubs_bonus_with_three_players() {
    use ClubsBonus::*;
    for (counts, most, seven, none_on_tie) in [
        ([7, 4, 2], Some(0), Some(0), Some(0)),
        ([6, 4, 3], Some(0), None, Some(0)),
        ([5, 5, 3], Some(2), None, None),
        ([6, 6, 1], Some(2), None, None),
    ] {
        assert_eq!(clubs_winner(MostClubs, &counts), most, "{counts:?}");
        assert_eq!(clubs_winner(SevenOrMore, &counts), seven, "{counts:?}");
        assert_eq!(
            clubs_winner(MostClubsNoneOnTie, &counts),
            none_on_tie,
            "{counts:?}"
        );
    }
    // Four individuals: a tie for most leaves a unique fewest (§6.3).
    assert_eq!(clubs_winner(MostClubs, &[4, 4, 3, 2]), Some(3));
    assert_eq!(clubs_winner(MostClubs, &[4, 4, 4, 1]), Some(3));
    // Every side tied (leftovers set aside): nobody.
    assert_eq!(clubs_winner(MostClubs, &[0, 0]), None);
}

/// TV-10: the end of the match at 62.
#[test]
fn tv10_match_end() {
    use TieBreakEligibility::*;
    assert_eq!(match_end(Anyone, 62, &[65, 70], &[]), Ok(1));
    assert_eq!(match_end(Anyone, 62, &[64, 64], &[]), Err(vec![]));
    assert_eq!(match_end(Anyone, 62, &[70, 70, 50], &[]), Err(vec![]));
    assert_eq!(match_end(TiedOnly, 62, &[70, 70, 50], &[]), Err(vec![0, 1]));
    assert_eq!(match_end(Anyone, 62, &[74, 73, 78], &[]), Ok(2));
    assert_eq!(match_end(TiedOnly, 62, &[74, 73, 78], &[0, 1]), Ok(0));
    // Below the target nobody wins.
    assert_eq!(match_end(Anyone, 62, &[61, 20], &[]), Err(vec![]));
}
