//! The spec's worked examples and test vectors (§17), given-when-then.

use super::*;

const D52: DeckKind = DeckKind::Standard52;

fn all_methods() -> Rules {
    Rules {
        cut: Cut::None,
        trump_methods: vec![
            TrumpMethod::Direct,
            TrumpMethod::SarGhermez,
            TrumpMethod::SarSiah,
            TrumpMethod::BargVasat,
            TrumpMethod::YaXYaY,
        ],
        ..Rules::default()
    }
}

/// The deck positions of seat `w`'s packets in a deal from hakem `h` (§6.3).
pub(super) fn positions(n: u8, h: u8, w: u8) -> Vec<usize> {
    let o = usize::from((w + n - h) % n);
    let n = usize::from(n);
    let rounds = match n {
        4 => 3,
        3 => 4,
        _ => 1,
    };
    let mut v: Vec<usize> = (o * 5..o * 5 + 5).collect();
    for r in 1..rounds {
        let start = 5 * n + (r - 1) * 4 * n + o * 4;
        v.extend(start..start + 4);
    }
    v
}

/// A deck giving each listed seat exactly these cards (in deal order), the rest canonical.
pub(super) fn deal(deck: DeckKind, n: u8, h: u8, hands: &[(u8, &str)]) -> Vec<Card> {
    let mut placed: Vec<(usize, String)> = Vec::new();
    for (w, codes) in hands {
        let pos = positions(n, h, *w);
        let list: Vec<&str> = codes.split_whitespace().collect();
        assert!(list.len() <= pos.len(), "too many cards for seat {w}");
        for (p, code) in pos.iter().zip(list) {
            placed.push((*p, code.to_string()));
        }
    }
    let refs: Vec<(usize, &str)> = placed.iter().map(|(p, s)| (*p, s.as_str())).collect();
    deck_with(deck, &refs)
}

const HEARTS: &str = "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH";

// ---------------------------------------------------------------------------------------
// §17.1 deals.

#[test]
fn v1_four_players_hakem_0_no_cut() {
    let mut t = Table::new(no_cut(), 4, Some(0));
    t.shuffle(&canonical(D52));
    assert_eq!(t.phase(), Phase::AwaitingTrump);
    assert_eq!(t.hand(0), cards("2S 3S 4S 5S 6S"));
    assert_eq!(t.hand(2), cards("QS KS AS 2H 3H"));
    // Until trump is fixed the hakem sees exactly his five (§6.4).
    let mine: Vec<Card> =
        t.st.zones
            .view(Viewer::Seat(seat(0)))
            .0
            .iter()
            .flat_map(|z| z.cards.iter().filter_map(|c| c.face))
            .collect();
    assert_eq!(mine, cards("2S 3S 4S 5S 6S"));
    t.act(s(0), Action::DeclareTrump { suit: suit("H") });
    assert_eq!(t.phase(), Phase::Playing);
    assert_eq!(t.hand(0), cards("2S 3S 4S 5S 6S 9H TH JH QH QD KD AD 2C"));
    assert_eq!(t.hand(1), cards("7S 8S 9S TS JS KH AH 2D 3D 3C 4C 5C 6C"));
    assert_eq!(t.hand(2), cards("QS KS AS 2H 3H 4D 5D 6D 7D 7C 8C 9C TC"));
    assert_eq!(t.hand(3), cards("4H 5H 6H 7H 8H 8D 9D TD JD JC QC KC AC"));
    assert_eq!(t.st.to_play(), seat(0));
    assert_eq!(t.replay(), t.st);
}

#[test]
fn v2_cut_at_seven_by_the_partner() {
    let mut t = Table::new(Rules::default(), 4, Some(0));
    t.shuffle(&canonical(D52));
    assert_eq!(t.phase(), Phase::AwaitingCut);
    t.reject(s(0), Action::Cut { k: 7 }, Rule::NotYourTurn);
    t.reject(s(2), Action::Cut { k: 0 }, Rule::InvalidCut);
    t.reject(s(2), Action::Cut { k: 52 }, Rule::InvalidCut);
    t.act(s(2), Action::Cut { k: 7 });
    assert_eq!(t.hand(0), cards("9S TS JS QS KS"));
    t.act(s(0), Action::DeclareTrump { suit: suit("S") });
    assert_eq!(t.hand(0), cards("9S TS JS QS KS 3D 4D 5D 6D 6C 7C 8C 9C"));
    assert_eq!(t.hand(1), cards("AS 2H 3H 4H 5H 7D 8D 9D TD TC JC QC KC"));
    assert_eq!(t.hand(2), cards("6H 7H 8H 9H TH JD QD KD AD AC 2S 3S 4S"));
    assert_eq!(t.hand(3), cards("JH QH KH AH 2D 2C 3C 4C 5C 5S 6S 7S 8S"));
    assert_eq!(t.replay(), t.st);
}

#[test]
fn v3_hakem_2_receives_first() {
    let mut t = Table::new(no_cut(), 4, Some(2));
    t.shuffle(&canonical(D52));
    assert_eq!(t.hand(2), cards("2S 3S 4S 5S 6S"));
    assert_eq!(t.hand(3), cards("7S 8S 9S TS JS"));
    assert_eq!(t.hand(0), cards("QS KS AS 2H 3H"));
    assert_eq!(t.hand(1), cards("4H 5H 6H 7H 8H"));
}

#[test]
fn v4_three_players_51_cards_5_4_4_4() {
    let mut t = Table::new(Rules::default(), 3, Some(0));
    let deck = DeckKind::Hokm51 {
        removed_two: crate::cards::Suit::Clubs,
    };
    assert_eq!(Hokm::deck(&Rules::default(), &t.st.start), deck);
    // 3 players: no cut by default.
    t.shuffle(&canonical(deck));
    t.act(s(0), Action::DeclareTrump { suit: suit("D") });
    assert_eq!(
        t.hand(0),
        cards("2S 3S 4S 5S 6S 4H 5H 6H 7H 3D 4D 5D 6D 3C 4C 5C 6C")
    );
    assert_eq!(
        t.hand(1),
        cards("7S 8S 9S TS JS 8H 9H TH JH 7D 8D 9D TD 7C 8C 9C TC")
    );
    assert_eq!(
        t.hand(2),
        cards("QS KS AS 2H 3H QH KH AH 2D JD QD KD AD JC QC KC AC")
    );
}

/// 2p: declare ♥, discard, and draw with `KeepFirst` on every turn (`ChooseFinal` of the
/// first on 21), unless `turns` says otherwise.
fn two_player_to_play(t: &mut Table) {
    let h = t.st.hakem.unwrap().0;
    let o = 1 - h;
    t.act(s(h), Action::DeclareTrump { suit: suit("H") });
    let hand = t.hand(h);
    let cards_h: Vec<CardRef> = hand[1..4].iter().map(|x| t.r(h, &x.to_string())).collect();
    t.act(s(h), Action::Discard { cards: cards_h });
    let hand = t.hand(o);
    let cards_o: Vec<CardRef> = hand[3..5].iter().map(|x| t.r(o, &x.to_string())).collect();
    t.act(s(o), Action::Discard { cards: cards_o });
    for turn in 1..=21u8 {
        let who = if turn % 2 == 1 { h } else { o };
        if turn == 21 {
            let card = t.st.zones.refs_in(ZoneId::Stock)[0];
            t.act(s(who), Action::ChooseFinal { card });
        } else {
            t.act(s(who), Action::KeepFirst);
        }
    }
    assert_eq!(t.phase(), Phase::Playing);
}

#[test]
fn v5_two_players_discards_and_21_draw_turns() {
    let mut t = Table::new(Rules::default(), 2, Some(0));
    t.shuffle(&canonical(D52));
    assert_eq!(t.hand(0), cards("2S 3S 4S 5S 6S"));
    assert_eq!(t.hand(1), cards("7S 8S 9S TS JS"));
    assert_eq!(t.st.zones.len(ZoneId::Stock), 42);
    t.act(s(0), Action::DeclareTrump { suit: suit("H") });
    assert_eq!(t.phase(), Phase::AwaitingDiscard { seat: seat(0) });
    let two = vec![t.r(0, "2S"), t.r(0, "3S")];
    t.reject(
        s(0),
        Action::Discard { cards: two },
        Rule::WrongDiscardCount,
    );
    let dup = vec![t.r(0, "2S"), t.r(0, "2S"), t.r(0, "3S")];
    t.reject(s(0), Action::Discard { cards: dup }, Rule::DuplicateCards);
    let three = vec![t.r(0, "2S"), t.r(0, "3S"), t.r(0, "4S")];
    t.act(s(0), Action::Discard { cards: three });
    let two = vec![t.r(1, "7S"), t.r(1, "8S")];
    t.act(s(1), Action::Discard { cards: two });
    // Discards are seen by the discarder only.
    assert_eq!(
        t.seen(Viewer::Seat(seat(0)), ZoneId::Discard),
        vec![Some(c("2S")), Some(c("3S")), Some(c("4S")), None, None]
    );
    // Turn 1 (hakem): sees QS, keeps it; KS burned unseen.
    assert_eq!(t.phase(), Phase::DrawTurn { turn: 1 });
    assert_eq!(
        t.seen(Viewer::Seat(seat(0)), ZoneId::Stock)[0],
        Some(c("QS"))
    );
    assert_eq!(t.seen(Viewer::Seat(seat(1)), ZoneId::Stock)[0], None);
    t.act(s(0), Action::KeepFirst);
    assert!(t.hand(0).contains(&c("QS")));
    assert_eq!(t.seen(Viewer::Seat(seat(0)), ZoneId::Out), vec![None]);
    // Turn 2 (other): AS kept, 2H burned unseen.
    t.act(s(1), Action::KeepFirst);
    assert!(t.hand(1).contains(&c("AS")));
    // Turn 3 (hakem): sees 3H, takes the second: 3H burned seen by him, 4H kept.
    t.act(s(0), Action::TakeSecond);
    assert!(t.hand(0).contains(&c("4H")));
    assert_eq!(
        t.seen(Viewer::Seat(seat(0)), ZoneId::Out),
        vec![None, None, Some(c("3H"))]
    );
    for turn in 4..=20u8 {
        let who = if turn % 2 == 1 { 0 } else { 1 };
        t.act(s(who), Action::KeepFirst);
    }
    assert_eq!(t.phase(), Phase::DrawTurn { turn: 21 });
    t.reject(s(0), Action::KeepFirst, Rule::WrongPhase);
    let qc = CardRef {
        shuffle: 0,
        pos: 49,
    };
    t.reject(
        s(0),
        Action::ChooseFinal { card: qc },
        Rule::InvalidFinalChoice,
    );
    assert_eq!(
        t.seen(Viewer::Seat(seat(0)), ZoneId::Stock),
        vec![Some(c("KC")), Some(c("AC"))]
    );
    let ac = CardRef {
        shuffle: 0,
        pos: 51,
    };
    t.act(s(0), Action::ChooseFinal { card: ac });
    assert!(t.hand(0).contains(&c("AC")));
    assert_eq!(t.hand(0).len(), 13);
    assert_eq!(t.hand(1).len(), 13);
    assert_eq!(
        t.st.zones.len(ZoneId::Out) + t.st.zones.len(ZoneId::Discard),
        26
    );
    assert_eq!(t.phase(), Phase::Playing);
    assert_eq!(t.st.to_play(), seat(0));
    assert_eq!(t.replay(), t.st);
}

// ---------------------------------------------------------------------------------------
// §17.2 trump methods.

fn partner_deck(packets: &[(usize, &str)]) -> Vec<Card> {
    deck_packets(D52, packets)
}

fn call(deck: &[Card], a: Action) -> (Table, Vec<Effect>) {
    let mut t = Table::new(all_methods(), 4, Some(0));
    t.shuffle(deck);
    let e = t.act(s(0), a);
    (t, e)
}

fn revealed(e: &[Effect]) -> Vec<Card> {
    e.iter()
        .filter_map(|x| match x {
            Effect::Revealed { cards, .. } => Some(cards.iter().map(|c| c.face)),
            _ => None,
        })
        .flatten()
        .collect()
}

#[test]
fn t1_sar_e_ghermez_higher_red_top() {
    let deck = partner_deck(&[(10, "KH 6H AD 3S 2D")]);
    let (t, e) = call(&deck, Action::CallSarGhermez);
    assert_eq!(t.st.trump, Some(crate::cards::Suit::Diamonds));
    assert_eq!(revealed(&e), cards("KH 6H AD 3S 2D"));
    assert_eq!(t.phase(), Phase::Playing);
    assert_eq!(t.hand(0).len(), 13);
}

#[test]
fn t2_sar_e_ghermez_tie_then_black_then_packet_three() {
    let deck = partner_deck(&[
        (10, "KH 6H AD AH 2D"),
        (28, "9S 7C 4S 2C"),
        (44, "QH JD 5C 3S"),
    ]);
    let (t, e) = call(&deck, Action::CallSarGhermez);
    assert_eq!(t.st.trump, Some(crate::cards::Suit::Hearts));
    assert_eq!(
        revealed(&e),
        cards("KH 6H AD AH 2D 9S 7C 4S 2C QH JD 5C 3S")
    );
    // The hakem's packets 2 and 3 were withheld until trump was fixed (§7.7).
    let fixed = e
        .iter()
        .position(|x| matches!(x, Effect::TrumpFixed { .. }))
        .unwrap();
    let withheld: Vec<usize> = e
        .iter()
        .enumerate()
        .filter(|(_, x)| matches!(x, Effect::Withheld { .. }))
        .map(|(i, _)| i)
        .collect();
    assert_eq!(withheld.len(), 2);
    assert!(withheld.iter().all(|i| *i < fixed));
    assert!(matches!(e[fixed + 1], Effect::Released { .. }));
    // The partner's revealed cards stay public (§7.4 step 5).
    let public: Vec<Option<Card>> = t.seen(Viewer::Public, ZoneId::Hand(seat(2)));
    assert_eq!(public.iter().flatten().count(), 13);
    assert_eq!(t.hand(0).len(), 13);
    assert_eq!(t.replay(), t.st);
}

#[test]
fn t3_sar_e_ghermez_undecided_falls_back_to_a_red_suit() {
    let deck = partner_deck(&[
        (10, "KH 6H AD AH 2D"),
        (28, "9S 7C 4S 2C"),
        (44, "5C 3S 6C 7S"),
    ]);
    let (mut t, _) = call(&deck, Action::CallSarGhermez);
    assert_eq!(
        t.phase(),
        Phase::FallbackTrump {
            colour: Some(Colour::Red)
        }
    );
    // The hakem still holds only his five; his packets are withheld.
    assert_eq!(t.hand(0).len(), 5);
    t.reject(
        s(0),
        Action::DeclareTrump { suit: suit("C") },
        Rule::SuitNotAllowed,
    );
    t.act(s(0), Action::DeclareTrump { suit: suit("H") });
    assert_eq!(t.st.trump, Some(crate::cards::Suit::Hearts));
    assert_eq!(t.hand(0).len(), 13);
    assert_eq!(t.phase(), Phase::Playing);
}

#[test]
fn t4_sar_e_ghermez_black_packet_then_one_red_suit() {
    let deck = partner_deck(&[(10, "AS KS QC 9C 4S"), (28, "5C 3H 8S 9S")]);
    let (t, _) = call(&deck, Action::CallSarGhermez);
    assert_eq!(t.st.trump, Some(crate::cards::Suit::Hearts));
}

#[test]
fn t5_sar_e_ghermez_no_red_card_any_suit() {
    let deck = deal(D52, 4, 0, &[(2, "2S 3S 4S 5S 6S 7S 8S 9S TS 2C 3C 4C 5C")]);
    let (mut t, _) = call(&deck, Action::CallSarGhermez);
    assert_eq!(t.phase(), Phase::FallbackTrump { colour: None });
    t.act(s(0), Action::DeclareTrump { suit: suit("C") });
    assert_eq!(t.st.trump, Some(crate::cards::Suit::Clubs));
}

#[test]
fn t6_t7_t8_sar_e_ghermez_sar_e_siah_barg_e_vasat_on_v1() {
    let deck = canonical(D52);
    let (t, _) = call(&deck, Action::CallSarGhermez);
    assert_eq!(t.st.trump, Some(crate::cards::Suit::Hearts));
    let (t, _) = call(&deck, Action::CallSarSiah);
    assert_eq!(t.st.trump, Some(crate::cards::Suit::Spades));
    let (t, e) = call(&deck, Action::CallBargVasat);
    assert_eq!(t.st.trump, Some(crate::cards::Suit::Spades));
    assert_eq!(revealed(&e), cards("AS"));
    // Only position 12 is public; the partner's other cards stay private.
    assert_eq!(
        t.seen(Viewer::Public, ZoneId::Hand(seat(2)))
            .iter()
            .flatten()
            .count(),
        1
    );
}

#[test]
fn t9_ya_diamonds_ya_clubs_on_v1() {
    let deck = canonical(D52);
    let (t, e) = call(
        &deck,
        Action::CallYa {
            x: suit("D"),
            y: suit("C"),
        },
    );
    assert_eq!(t.st.trump, Some(crate::cards::Suit::Diamonds));
    assert_eq!(revealed(&e), cards("QS KS AS 2H 3H 4D"));
    let kinds: Vec<String> = e
        .iter()
        .filter_map(|x| match x {
            Effect::Withheld { seat, .. } => Some(format!("withheld {}", seat.0)),
            Effect::Dealt { seat, cards } => Some(format!("dealt {} {}", seat.0, cards.len())),
            Effect::TrumpFixed { .. } => Some("trump".into()),
            Effect::Released { seat, .. } => Some(format!("released {}", seat.0)),
            _ => None,
        })
        .collect();
    assert_eq!(
        kinds[..6],
        [
            "withheld 0",
            "dealt 1 4",
            "dealt 2 3",
            "trump",
            "released 0",
            "dealt 3 4"
        ]
    );
    assert_eq!(t.hand(2)[5..9], cards("4D 5D 6D 7D")[..]);
    assert_eq!(
        t.seen(Viewer::Public, ZoneId::Hand(seat(2)))
            .iter()
            .flatten()
            .count(),
        6
    );
    assert_eq!(t.replay(), t.st);
}

#[test]
fn t10_ya_hearts_ya_clubs_stops_at_the_fourth_card() {
    let (t, e) = call(
        &canonical(D52),
        Action::CallYa {
            x: suit("H"),
            y: suit("C"),
        },
    );
    assert_eq!(t.st.trump, Some(crate::cards::Suit::Hearts));
    assert_eq!(revealed(&e), cards("QS KS AS 2H"));
    assert_eq!(
        t.seen(Viewer::Public, ZoneId::Hand(seat(2)))[..5],
        [
            Some(c("QS")),
            Some(c("KS")),
            Some(c("AS")),
            Some(c("2H")),
            None
        ]
    );
}

#[test]
fn t11_ya_with_one_suit_twice_is_rejected() {
    let mut t = Table::new(all_methods(), 4, Some(0));
    t.shuffle(&canonical(D52));
    t.reject(
        s(0),
        Action::CallYa {
            x: suit("H"),
            y: suit("H"),
        },
        Rule::InvalidSuitPair,
    );
}

#[test]
fn t12_partner_methods_need_four_players() {
    let rules = Rules {
        trump_methods: vec![TrumpMethod::Direct, TrumpMethod::SarGhermez],
        ..Rules::default()
    };
    let mut t = Table::new(rules, 3, Some(0));
    t.shuffle(&canonical(DeckKind::Hokm51 {
        removed_two: crate::cards::Suit::Clubs,
    }));
    t.reject(s(0), Action::CallSarGhermez, Rule::MethodNotAllowed);
}

// ---------------------------------------------------------------------------------------
// §17.3 ten-low.

fn ten_low(on: TenLow) -> Rules {
    Rules {
        ten_low: on,
        cut: Cut::None,
        ..Rules::default()
    }
}

#[test]
fn ten_low_eligible_five_is_shown_and_redealt() {
    let mut t = Table::new(ten_low(TenLow::MaxRedealsPerHand(1)), 4, Some(0));
    t.shuffle(&deck_packets(D52, &[(0, "TS 9H 7D 4C 2S")]));
    let e = t.act(s(0), Action::RequestTenLowRedeal);
    assert_eq!(revealed(&e), cards("TS 9H 7D 4C 2S"));
    assert_eq!(
        t.phase(),
        Phase::AwaitShuffle {
            reason: ShuffleReason::Deal
        }
    );
    assert_eq!(
        t.seen(Viewer::Public, ZoneId::Out).iter().flatten().count(),
        5
    );
    // The next commitment is dealt; the same hakem; the limit is reached.
    t.shuffle(&deck_packets(D52, &[(0, "TS 9H 7D 4C 2S")]));
    assert_eq!(t.phase(), Phase::AwaitingTrump);
    assert_eq!(t.st.hakem, Some(seat(0)));
    t.reject(s(0), Action::RequestTenLowRedeal, Rule::TenLowLimitReached);
    assert_eq!(t.replay(), t.st);
}

#[test]
fn ten_low_with_a_jack_is_not_eligible_and_off_is_disabled() {
    let deck = deck_packets(D52, &[(0, "JC 2D 3D 4D 5D")]);
    let mut t = Table::new(ten_low(TenLow::Unlimited), 4, Some(0));
    t.shuffle(&deck);
    t.reject(s(0), Action::RequestTenLowRedeal, Rule::TenLowNotEligible);
    let mut t = Table::new(ten_low(TenLow::Off), 4, Some(0));
    t.shuffle(&deck_packets(D52, &[(0, "TS 9H 7D 4C 2S")]));
    t.reject(s(0), Action::RequestTenLowRedeal, Rule::TenLowDisabled);
}

// ---------------------------------------------------------------------------------------
// §17.4 tricks.

/// A 2p deck: the hakem's five at 0–4 and the other's at 5–9; the other then keeps
/// positions 12, 16, …, 48 (with [`two_player_to_play`]'s choices), given by `kept`.
fn two_player_deck(hakem: &str, other: &str, kept: &str) -> Vec<Card> {
    let mut placed: Vec<(usize, String)> = Vec::new();
    for (i, x) in hakem.split_whitespace().enumerate() {
        placed.push((i, x.into()));
    }
    for (i, x) in other.split_whitespace().enumerate() {
        placed.push((5 + i, x.into()));
    }
    for (i, x) in kept.split_whitespace().enumerate() {
        placed.push((12 + 4 * i, x.into()));
    }
    let refs: Vec<(usize, &str)> = placed.iter().map(|(p, s)| (*p, s.as_str())).collect();
    deck_with(D52, &refs)
}

#[test]
fn k1_must_follow_with_a_diamond() {
    let mut t = Table::new(Rules::default(), 2, Some(0));
    t.shuffle(&two_player_deck("AD", "6D KD", ""));
    two_player_to_play(&mut t);
    t.play(0, "AD");
    let Legal::Play { cards: ok } = &Hokm::legal_actions(&t.st, s(1))[0] else {
        panic!()
    };
    assert!(ok.contains(&t.r(1, "6D")) && ok.contains(&t.r(1, "KD")));
    let spade = t.r(1, "6S");
    t.reject(s(1), Action::Play { card: spade }, Rule::MustFollowSuit);
    t.play(1, "6D");
    assert_eq!(t.st.leader, seat(0));
    assert_eq!(t.st.won, vec![1, 0]);
}

const NO_DIAMONDS: &str = "7S 8S 9S TS JS QS KS AS 2C 3C";

#[test]
fn k2_a_void_player_ruffs_with_the_two_of_trump() {
    let mut t = Table::new(Rules::default(), 2, Some(0));
    t.shuffle(&two_player_deck("AD", "2H 5S 6S", NO_DIAMONDS));
    two_player_to_play(&mut t);
    t.play(0, "AD");
    t.play(1, "2H");
    assert_eq!(t.st.won, vec![0, 1]);
    assert_eq!(t.st.to_play(), seat(1));
}

#[test]
fn k3_a_void_player_may_discard_instead_of_ruffing() {
    let mut t = Table::new(Rules::default(), 2, Some(0));
    t.shuffle(&two_player_deck("AD", "2H 5S 6S", NO_DIAMONDS));
    two_player_to_play(&mut t);
    t.play(0, "AD");
    t.play(1, "5S");
    assert_eq!(t.st.won, vec![1, 0]);
}

fn four_player_trick(hands: &[(u8, &str)], trump: &str) -> Table {
    let mut t = Table::new(no_cut(), 4, Some(0));
    t.shuffle(&deal(D52, 4, 0, hands));
    t.act(s(0), Action::DeclareTrump { suit: suit(trump) });
    t
}

#[test]
fn k4_the_two_of_trump_beats_the_ace_led() {
    let mut t = four_player_trick(&[(0, "AS"), (1, "3S"), (2, HEARTS), (3, "KS")], "H");
    t.play(0, "AS");
    t.play(1, "3S");
    t.play(2, "2H");
    t.play(3, "KS");
    assert_eq!(t.st.won, vec![0, 0, 1, 0]);
}

#[test]
fn k5_the_higher_trump_wins() {
    let mut t = four_player_trick(
        &[
            (0, "AS"),
            (1, "3S"),
            (2, "2H 3H 4H 6H 7H 8H 9H TH JH QH KH AH 2C"),
            (3, "5H 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD"),
        ],
        "H",
    );
    t.play(0, "AS");
    t.play(1, "3S");
    t.play(2, "2H");
    t.play(3, "5H");
    assert_eq!(t.st.won, vec![0, 0, 0, 1]);
}

#[test]
fn k6_trumping_while_holding_the_led_suit_is_rejected() {
    let mut t = four_player_trick(&[(0, "KD"), (1, "QD 2C")], "C");
    t.play(0, "KD");
    let two = t.r(1, "2C");
    t.reject(s(1), Action::Play { card: two }, Rule::MustFollowSuit);
}

// ---------------------------------------------------------------------------------------
// §17.5 scoring and rotation.

/// Test set-up only ("given these tricks won"): the trick counts per seat and the leader.
fn given_tricks(t: &mut Table, won: &[u8], leader: u8) {
    t.st.won = won.to_vec();
    t.st.leader = seat(leader);
}

/// A 4p hand from `m` in which seat `w` holds every heart (trump ♥): after `won` (given),
/// `w` leads and wins tricks until the hand is over (bam declined).
fn hand_won_by(rules: &Rules, m: &Match, w: u8, won: &[u8]) -> Table {
    let h = m.hakem.unwrap().0;
    let mut t = Table::from_match(rules, m);
    t.shuffle(&deal(D52, 4, h, &[(w, HEARTS)]));
    t.act(s(h), Action::DeclareTrump { suit: suit("H") });
    given_tricks(&mut t, won, w);
    while t.phase() == Phase::Playing {
        let lead = t
            .hand(w)
            .into_iter()
            .find(|x| x.suit() == t.st.trump)
            .unwrap();
        assert_eq!(t.st.to_play(), seat(w));
        t.play(w, &lead.to_string());
        t.play_any_trick();
    }
    if let Phase::AwaitingBam { seat: b } = t.phase() {
        t.act(Actor::Seat(b), Action::EndHand);
    }
    assert_eq!(t.phase(), Phase::HandOver);
    t
}

fn four_player_match(scores: [u32; 2], hakem: u8) -> Match {
    Match {
        seats: 4,
        scores: scores.to_vec(),
        rounds: vec![0, 0],
        hakem: Some(seat(hakem)),
        deuce: false,
        over: false,
        winner: None,
        hand: 1,
        seating: state::identity(4),
    }
}

#[test]
fn scoring_and_rotation_table_17_5() {
    let rules = no_cut();
    let m = four_player_match([0, 0], 0);
    // Hand 1: hakem 0, 7–3 → team 0 +1, hakem stays.
    let t = hand_won_by(&rules, &m, 0, &[6, 2, 0, 1]);
    let o = Hokm::outcome(&t.st).unwrap();
    assert_eq!(
        (o.winner, o.kind, o.tricks.clone()),
        (Some(0), Some(WinKind::Plain), vec![7, 3])
    );
    let m = o.next;
    assert_eq!((m.scores.clone(), m.hakem), (vec![1, 0], Some(seat(0))));
    // Hand 2: 5–7 → team 1 +1, hakem → 1 (dealer 0).
    let t = hand_won_by(&rules, &m, 1, &[3, 3, 2, 3]);
    let m = Hokm::next_match(&t.st).unwrap();
    assert_eq!((m.scores.clone(), m.hakem), (vec![1, 1], Some(seat(1))));
    assert_eq!(state::dealer(seat(1), &state::identity(4)), seat(0));
    // Hand 3: hakem 1, 0–7 → kot, team 1 +2.
    let t = hand_won_by(&rules, &m, 1, &[0, 0, 0, 0]);
    assert_eq!(Hokm::outcome(&t.st).unwrap().kind, Some(WinKind::Kot));
    let m = Hokm::next_match(&t.st).unwrap();
    assert_eq!((m.scores.clone(), m.hakem), (vec![1, 3], Some(seat(1))));
    // Hand 4: hakem 1, 7–0 to team 0 → por kot +3, hakem → 2.
    let t = hand_won_by(&rules, &m, 0, &[0, 0, 0, 0]);
    assert_eq!(Hokm::outcome(&t.st).unwrap().kind, Some(WinKind::PorKot));
    let m = Hokm::next_match(&t.st).unwrap();
    assert_eq!((m.scores.clone(), m.hakem), (vec![4, 3], Some(seat(2))));
    // Hand 5: hakem 2, 7–2 → +1.
    let t = hand_won_by(&rules, &m, 2, &[3, 1, 3, 1]);
    let m = Hokm::next_match(&t.st).unwrap();
    assert_eq!((m.scores.clone(), m.hakem), (vec![5, 3], Some(seat(2))));
    // Hand 6: hakem 2, 7–0 → kot +2: 7–3, team 0 wins the match.
    let t = hand_won_by(&rules, &m, 2, &[0, 0, 0, 0]);
    let o = Hokm::outcome(&t.st).unwrap();
    assert_eq!(o.points, vec![2, 0]);
    assert!(o.next.over);
    assert_eq!(o.next.winner, Some(0));
    assert_eq!(o.next.rounds, vec![1, 0]);
    let r = Hokm::results(&o);
    assert_eq!(r[0].delta, 2);
    assert_eq!(r[1].judged, crate::engine::Judged::Lost);
    assert_eq!(r[2].judged, crate::engine::Judged::Won);
    let st = Hokm::standings(&o.next);
    assert!(st.over && st.next.is_none());
    assert_eq!(
        st.sides,
        vec![vec![seat(0), seat(2)], vec![seat(1), seat(3)]]
    );
}

fn kot_at_six(k: KotAtSix) -> Rules {
    Rules {
        kot_at_six: k,
        ..no_cut()
    }
}

#[test]
fn kot_at_six_vectors() {
    let cases = [
        // (before, hakem, off, on_zero, on_any) as (scores, next hakem or winner)
        (
            [6, 0],
            0u8,
            ([6, 3], Some(1u8)),
            ([6, 1], Some(0u8)),
            ([6, 1], Some(0u8)),
        ),
        (
            [6, 0],
            1,
            ([6, 2], Some(1)),
            ([6, 1], Some(2)),
            ([6, 1], Some(2)),
        ),
        ([6, 4], 0, ([0, 0], None), ([0, 0], None), ([6, 5], Some(0))),
    ];
    for (before, h, off, zero, any) in cases {
        for (rule, (scores, next)) in [
            (KotAtSix::Off, off),
            (KotAtSix::OnZero, zero),
            (KotAtSix::OnAny, any),
        ] {
            let m = four_player_match(before, h);
            // Team 1 wins 7-0 with seat 1 holding every trump.
            let t = hand_won_by(&kot_at_six(rule), &m, 1, &[0, 0, 0, 0]);
            let m2 = Hokm::next_match(&t.st).unwrap();
            let what = format!("{before:?} hakem {h} {rule:?}");
            match next {
                Some(nh) => {
                    assert_eq!(m2.scores, scores.to_vec(), "{what}");
                    assert_eq!(m2.hakem, Some(seat(nh)), "{what}");
                    assert!(!m2.over, "{what}");
                }
                None => {
                    // 6–7: team 1 wins the round and the match.
                    assert!(m2.over, "{what}");
                    assert_eq!(m2.winner, Some(1), "{what}");
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Bam (§17.5).

#[test]
fn bam_completed_wins_the_match() {
    let m = four_player_match([0, 0], 0);
    let mut t = Table::from_match(&no_cut(), &m);
    t.shuffle(&deal(D52, 4, 0, &[(1, HEARTS)]));
    t.act(s(0), Action::DeclareTrump { suit: suit("H") });
    t.reject(s(0), Action::ContinueForBam, Rule::BamNotAvailable);
    while t.phase() == Phase::Playing {
        t.play_any_trick();
    }
    assert_eq!(t.phase(), Phase::AwaitingBam { seat: seat(1) });
    t.act(s(1), Action::ContinueForBam);
    while t.phase() == Phase::Playing {
        t.play_any_trick();
    }
    let o = Hokm::outcome(&t.st).unwrap();
    assert_eq!(o.kind, Some(WinKind::Bam));
    assert_eq!(o.tricks, vec![0, 13]);
    assert!(o.next.over);
    assert_eq!(o.next.winner, Some(1));
}

fn bam_fails(fail: BamFail) -> Outcome {
    let rules = Rules {
        bam_fail: fail,
        ..no_cut()
    };
    let m = four_player_match([0, 0], 0);
    let mut t = Table::from_match(&rules, &m);
    t.shuffle(&deal(
        D52,
        4,
        0,
        &[
            (0, "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AC"),
            (1, "6H 7H 8H 9H TH JH QH KH AH 2C 3C 4C 5C"),
            (2, "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD"),
            (3, "2H 3H 4H 5H 6C 7C 8C 9C TC JC QC KC AS"),
        ],
    ));
    t.act(s(0), Action::DeclareTrump { suit: suit("H") });
    t.play(0, "2S");
    t.play(1, "6H");
    t.play(2, "2D");
    t.play(3, "AS");
    for lead in ["AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H"] {
        if let Phase::AwaitingBam { .. } = t.phase() {
            t.reject(s(0), Action::ContinueForBam, Rule::NotYourTurn);
            t.act(s(1), Action::ContinueForBam);
        }
        t.play(1, lead);
        t.play_any_trick();
    }
    assert_eq!(t.st.side_tricks(), vec![0, 9]);
    // Trick 10: team 0 wins it; the hand ends at once.
    t.play(1, "2C");
    t.play_any_trick();
    assert_eq!(t.phase(), Phase::HandOver);
    Hokm::outcome(&t.st).unwrap()
}

#[test]
fn bam_failed_scores_as_at_seven_or_plain() {
    let o = bam_fails(BamFail::AsAtSeven);
    assert_eq!(
        (o.winner, o.kind, o.points.clone()),
        (Some(1), Some(WinKind::PorKot), vec![0, 3])
    );
    let o = bam_fails(BamFail::PlainWin);
    assert_eq!(
        (o.winner, o.kind, o.points),
        (Some(1), Some(WinKind::Plain), vec![0, 1])
    );
}

// ---------------------------------------------------------------------------------------
// §17.6 three players.

const D51: DeckKind = DeckKind::Hokm51 {
    removed_two: crate::cards::Suit::Clubs,
};

fn three_player_hand(won: &[u8], w: u8) -> Table {
    let mut t = Table::new(Rules::default(), 3, Some(0));
    t.shuffle(&deal(D51, 3, 0, &[(w, HEARTS)]));
    t.act(s(0), Action::DeclareTrump { suit: suit("H") });
    given_tricks(&mut t, won, w);
    let lead = t.hand(w)[0];
    t.play(w, &lead.to_string());
    t.play_any_trick();
    t
}

#[test]
fn three_players_six_six_five_the_five_wins() {
    // After 16 tricks Hamed 6, Mahdi 6, Ali 4; Ali takes trick 17: 6-6-5.
    let t = three_player_hand(&[6, 6, 4], 2);
    let o = Hokm::outcome(&t.st).unwrap();
    assert_eq!(o.tricks, vec![6, 6, 5]);
    assert_eq!((o.winner, o.kind), (Some(2), Some(WinKind::SixSixFive)));
    assert_eq!(o.points, vec![0, 0, 1]);
    assert_eq!(o.next.hakem, Some(seat(2)));
    assert_eq!(state::dealer(seat(2), &state::identity(3)), seat(1));
}

#[test]
fn three_players_seven_at_trick_fifteen_ends_the_hand() {
    let t = three_player_hand(&[4, 6, 4], 1);
    let o = Hokm::outcome(&t.st).unwrap();
    assert_eq!(o.tricks, vec![4, 7, 4]);
    assert_eq!((o.winner, o.points.clone()), (Some(1), vec![0, 1, 0]));
    assert_eq!(o.next.hakem, Some(seat(1)));
}

// ---------------------------------------------------------------------------------------
// §17.7 two-player deuce, driven by points added to the match (penalty awards go through
// the same round check as a hand's points, §11.5).

fn deuce(rule: Deuce2p, start: [u32; 2], steps: &[(u8, u32)]) -> Match {
    let mut m = Match {
        seats: 2,
        scores: start.to_vec(),
        rounds: vec![0, 0],
        hakem: Some(seat(0)),
        deuce: false,
        over: false,
        winner: None,
        hand: 1,
        seating: state::identity(2),
    };
    for (to, points) in steps {
        if m.over {
            break;
        }
        let rules = Rules {
            deuce_2p: rule,
            cheating_penalty_points: *points,
            ..Rules::default()
        };
        let mut t = Table::from_match(&rules, &m);
        t.shuffle(&canonical(D52));
        t.act(
            Actor::Service,
            Action::AwardCheatingPenalty {
                offender: seat(1 - to),
                beneficiary: Some(seat(*to)),
            },
        );
        m = t.st.now.clone();
    }
    m
}

#[test]
fn two_player_deuce_vectors_17_7() {
    let off = Deuce2p::Off;
    let none = Deuce2p::WinByTwo { cap: None };
    let cap8 = Deuce2p::WinByTwo { cap: Some(8) };
    // 6–6 → 7–6.
    let m = deuce(off, [6, 5], &[(1, 1), (0, 1)]);
    assert_eq!(m.winner, Some(0));
    let m = deuce(none, [6, 5], &[(1, 1), (0, 1)]);
    assert!(!m.over && m.deuce);
    let m = deuce(cap8, [6, 5], &[(1, 1), (0, 1)]);
    assert!(!m.over);
    // → 8–6.
    for rule in [none, cap8] {
        let m = deuce(rule, [6, 5], &[(1, 1), (0, 1), (0, 1)]);
        assert_eq!(m.winner, Some(0), "{rule:?}");
    }
    // → 7–7 → 8–7.
    let steps = [(1, 1), (0, 1), (1, 1), (0, 1)];
    let m = deuce(none, [6, 5], &steps);
    assert!(!m.over);
    let m = deuce(cap8, [6, 5], &steps);
    assert_eq!(m.winner, Some(0));
    // … → 8–7 → 9–7.
    let steps = [(1, 1), (0, 1), (1, 1), (0, 1), (0, 1)];
    assert_eq!(deuce(none, [6, 5], &steps).winner, Some(0));
    // 6–6 → 8–6 (kot: 2 points).
    for rule in [off, none, cap8] {
        assert_eq!(deuce(rule, [6, 5], &[(1, 1), (0, 2)]).winner, Some(0));
        // 5–6 → 7–6: deuce never triggered.
        assert_eq!(deuce(rule, [5, 6], &[(0, 2)]).winner, Some(0));
    }
}

/// A 2p hand from `m` won 7–`loser` by `w` (given the tricks before the last, canonical
/// deck, every draw `KeepFirst`): the hakem then holds A♦ over the other's diamonds, the
/// other K♥ over the hakem's hearts (trump ♥).
fn two_player_hand_won_by(rules: &Rules, m: &Match, w: u8, loser: u8) -> Match {
    let mut t = Table::from_match(rules, m);
    t.shuffle(&canonical(D52));
    two_player_to_play(&mut t);
    let mut won = vec![loser, loser];
    won[usize::from(w)] = 6;
    given_tricks(&mut t, &won, w);
    let lead = if Some(seat(w)) == m.hakem { "AD" } else { "KH" };
    t.play(w, lead);
    t.play_any_trick();
    assert_eq!(t.phase(), Phase::HandOver);
    Hokm::next_match(&t.st).unwrap()
}

#[test]
fn two_player_deuce_by_whole_hands() {
    let m = Match {
        seats: 2,
        scores: vec![6, 5],
        rounds: vec![0, 0],
        hakem: Some(seat(0)),
        deuce: false,
        over: false,
        winner: None,
        hand: 3,
        seating: state::identity(2),
    };
    for (rule, over) in [
        (Deuce2p::Off, true),
        (Deuce2p::WinByTwo { cap: None }, false),
        (Deuce2p::WinByTwo { cap: Some(8) }, false),
    ] {
        let rules = Rules {
            deuce_2p: rule,
            ..Rules::default()
        };
        // B wins 7–3: 6–6, deuce starts; the winner is the next hakem.
        let m1 = two_player_hand_won_by(&rules, &m, 1, 3);
        assert_eq!(m1.scores, vec![6, 6]);
        assert_eq!(m1.deuce, rule != Deuce2p::Off);
        assert_eq!(m1.hakem, Some(seat(1)));
        // A wins 7–2: 7–6.
        let m2 = two_player_hand_won_by(&rules, &m1, 0, 2);
        assert_eq!(m2.over, over, "{rule:?}");
        if over {
            assert_eq!(m2.winner, Some(0));
        } else {
            assert_eq!(m2.scores, vec![7, 6]);
            // A wins again: 8–6 wins under both deuce rules.
            let m3 = two_player_hand_won_by(&rules, &m2, 0, 1);
            assert_eq!(m3.winner, Some(0), "{rule:?}");
        }
    }
}
