//! Given-when-then tests, one or more per rule of spec §3–§5 and per house rule of §7.

use super::*;
use crate::engine::{SetupError, ShuffleSource};

fn fresh() -> Table {
    Table::four(&deck_with(4, &[]))
}

#[test]
fn only_4_6_or_8_players() {
    for n in [4u8, 6, 8] {
        let m = Bluff::new_match(
            &Rules::default(),
            &Setup {
                seats: n,
                dealer: None,
            },
        )
        .unwrap();
        assert_eq!(m.dealer, seat(n - 1), "default dealer n − 1");
        assert_eq!((m.hands_played, m.over), (0, false));
    }
    for n in [5u8, 7] {
        let e = Bluff::new_match(
            &Rules::default(),
            &Setup {
                seats: n,
                dealer: None,
            },
        )
        .unwrap_err();
        assert!(
            matches!(&e, SetupError::Match(m) if m.contains("OddPlayerCount") && m.contains("§3")),
            "{e}"
        );
    }
    for n in [0u8, 2, 3, 9, 10] {
        let e = Bluff::new_match(
            &Rules::default(),
            &Setup {
                seats: n,
                dealer: None,
            },
        )
        .unwrap_err();
        assert!(matches!(e, SetupError::Seats { min: 4, max: 8, .. }), "{e}");
    }
    let e = Bluff::new_match(
        &Rules::default(),
        &Setup {
            seats: 4,
            dealer: Some(seat(4)),
        },
    )
    .unwrap_err();
    assert!(matches!(e, SetupError::Match(_)));
}

#[test]
fn decks_and_packs_follow_the_player_count() {
    assert_eq!((packs(4), deck(4)), (1, crate::cards::DeckKind::Standard52));
    assert_eq!((packs(6), deck(6)), (2, crate::cards::DeckKind::Bluff104));
    assert_eq!((packs(8), deck(8)), (2, crate::cards::DeckKind::Bluff104));
    let t = Table::dealt(8, Rules::default(), None, &deck_with(8, &[]));
    assert!((0..8).all(|i| t.held(i) == 13));
}

#[test]
fn the_deal_waits_for_its_shuffle_and_checks_it() {
    let t = Table::new(4, Rules::default(), None);
    let ta = Bluff::to_act(&t.st);
    let req = ta.shuffle.clone().unwrap();
    assert!(ta.actors.is_empty());
    assert_eq!(req.reason, "deal");
    assert_eq!(
        req.source,
        ShuffleSource::Deck(crate::cards::DeckKind::Standard52)
    );
    let order = deck_with(4, &[]);
    assert_eq!(
        Bluff::decide_shuffle(&t.st, 1, &order).unwrap_err().rule,
        "BadShuffle"
    );
    assert_eq!(
        Bluff::decide_shuffle(&t.st, 0, &order[1..])
            .unwrap_err()
            .rule,
        "BadShuffle"
    );
    let mut twice = order.clone();
    twice[0] = twice[1];
    assert_eq!(
        Bluff::decide_shuffle(&t.st, 0, &twice).unwrap_err().rule,
        "BadShuffle"
    );
    let v = Bluff::decide(&t.st, s(0), &Action::Challenge).unwrap_err();
    assert_eq!(v.rule, "WrongPhase");
    let t = fresh();
    assert_eq!(
        Bluff::decide_shuffle(&t.st, 1, &order).unwrap_err().rule,
        "WrongPhase"
    );
}

#[test]
fn only_the_seat_to_act_plays() {
    let mut t = fresh();
    let one = t.refs(1)[..1].to_vec();
    t.reject(
        s(1),
        Action::Lead {
            rank: Rank::Two,
            cards: one,
        },
        Rule::NotYourTurn,
    );
    let one = t.refs(0)[..1].to_vec();
    t.reject(
        Actor::Service,
        Action::Lead {
            rank: Rank::Two,
            cards: one.clone(),
        },
        Rule::NotASeat,
    );
    t.reject(
        s(4),
        Action::Lead {
            rank: Rank::Two,
            cards: one,
        },
        Rule::NotASeat,
    );
    assert!(Bluff::legal_actions(&t.st, s(1)).is_empty());
    assert!(Bluff::legal_actions(&t.st, Actor::Service).is_empty());
}

#[test]
fn the_cards_of_a_play_are_checked() {
    let mut t = fresh();
    let lead = |cards: Vec<CardRef>| Action::Lead {
        rank: Rank::Seven,
        cards,
    };
    t.reject(s(0), lead(Vec::new()), Rule::NoCards);
    let a = t.refs(0)[0];
    t.reject(s(0), lead(vec![a, a]), Rule::DuplicateCard);
    let theirs = t.refs(1)[0];
    t.reject(s(0), lead(vec![a, theirs]), Rule::NotInHand);
    t.reject(
        s(0),
        lead(vec![CardRef { shuffle: 7, pos: 0 }]),
        Rule::NotInHand,
    );
    let five = t.refs(0)[..5].to_vec();
    t.reject(s(0), lead(five), Rule::TooManyCards);
    t.reject(s(0), Action::Follow { cards: vec![a] }, Rule::MustLead);
    let four = t.refs(0)[..4].to_vec();
    t.act(s(0), lead(four));
    let b = t.refs(1)[0];
    t.reject(
        s(1),
        Action::Lead {
            rank: Rank::Two,
            cards: vec![b],
        },
        Rule::MustFollow,
    );
}

#[test]
fn unlimited_plays_up_to_the_hand() {
    let rules = Rules {
        max_cards_per_play: MaxCardsPerPlay::Unlimited,
        ..Rules::default()
    };
    let mut t = Table::dealt(4, rules, None, &deck_with(4, &[]));
    let nine = t.refs(0)[..9].to_vec();
    t.lead(0, "9", nine);
    let all = t.refs(1);
    t.follow(1, all);
    assert_eq!(t.st.pending_out, Some(seat(1)));
}

#[test]
fn same_as_lead_fixes_the_followers_count() {
    let rules = Rules {
        follow_count: FollowCount::SameAsLead,
        ..Rules::default()
    };
    let mut t = Table::dealt(4, rules, None, &deck_with(4, &[]));
    let three = t.refs(0)[..3].to_vec();
    t.lead(0, "8", three);
    assert!(matches!(
        &Bluff::legal_actions(&t.st, s(1))[..],
        [
            Legal::Challenge,
            Legal::NoChallenge,
            Legal::Follow { min: 3, max: 3, .. }
        ]
    ));
    let two = t.refs(1)[..2].to_vec();
    t.reject(s(1), Action::Follow { cards: two }, Rule::WrongCount);
    let three = t.refs(1)[..3].to_vec();
    t.follow(1, three);
}

#[test]
fn same_as_lead_takes_all_of_a_smaller_hand() {
    let rules = Rules {
        follow_count: FollowCount::SameAsLead,
        max_cards_per_play: MaxCardsPerPlay::Unlimited,
        ..Rules::default()
    };
    let mut t = Table::dealt(4, rules, None, &deck_with(4, &[]));
    // Seat 1 plays 11, keeps 2; seat 0's lap lead of 3 then asks seat 1 for its 2.
    let one = t.refs(0)[..1].to_vec();
    t.lead(0, "2", one);
    let one = t.refs(1)[..1].to_vec();
    t.follow(1, one);
    let one = t.refs(2)[..1].to_vec();
    t.follow(2, one);
    let one = t.refs(3)[..1].to_vec();
    t.follow(3, one);
    let eleven = t.refs(0)[..11].to_vec();
    t.lead(0, "3", eleven);
    let eleven = t.refs(1)[..11].to_vec();
    t.follow(1, eleven);
    let eleven = t.refs(2)[..11].to_vec();
    t.follow(2, eleven);
    let eleven = t.refs(3)[..11].to_vec();
    t.follow(3, eleven);
    // Seat 0 has 1 card left and leads it; seat 1 (1 card left) must play it.
    let last = t.refs(0);
    t.lead(0, "4", last);
    let mine = t.refs(1);
    assert_eq!(mine.len(), 1);
    t.follow(1, mine);
}

#[test]
fn no_pass_by_default() {
    let mut t = fresh();
    let one = t.refs(0)[..1].to_vec();
    t.lead(0, "J", one);
    t.reject(s(1), Action::Pass, Rule::PassNotAllowed);
}

#[test]
fn with_allow_pass_a_round_of_passes_laps() {
    let rules = Rules {
        allow_pass: true,
        ..Rules::default()
    };
    let mut t = Table::dealt(4, rules, None, &deck_with(4, &[]));
    t.reject(s(0), Action::Pass, Rule::MustLead);
    let one = t.refs(0)[..1].to_vec();
    t.lead(0, "J", one);
    let e = t.act(s(1), Action::Pass);
    assert_eq!(
        e,
        vec![
            Effect::Passed { seat: seat(1) },
            Effect::Turn { seat: seat(2) }
        ]
    );
    assert!(!t.st.window_open, "a pass closes the window");
    t.act(s(2), Action::Pass);
    let e = t.act(s(3), Action::Pass);
    assert_eq!(e.last(), Some(&Effect::RoundLapped { rank: Rank::Jack }));
    // Nothing to challenge: seat 0 leads another rank.
    assert!(matches!(
        &Bluff::legal_actions(&t.st, s(0))[..],
        [Legal::Lead { ranks, .. }] if !ranks.contains(&Rank::Jack)
    ));
}

#[test]
fn windows_for_challenges_and_requests() {
    let mut t = fresh();
    t.reject(s(0), Action::Challenge, Rule::NoWindow);
    t.reject(s(0), Action::NoChallenge, Rule::NoWindow);
    t.reject(s(2), Action::RequestChallenge, Rule::NoWindow);
    let one = t.refs(0)[..1].to_vec();
    t.lead(0, "Q", one);
    t.reject(s(2), Action::NoChallenge, Rule::NotYourTurn);
    assert_eq!(Bluff::to_act(&t.st).actors, vec![s(1), s(2), s(3)]);
    let e = t.act(s(1), Action::NoChallenge);
    assert_eq!(e, vec![Effect::NotChallenged { seat: seat(1) }]);
    // The window is closed for good; seat 1 must still follow.
    t.reject(s(1), Action::Challenge, Rule::NoWindow);
    t.reject(s(1), Action::NoChallenge, Rule::NoWindow);
    t.reject(s(3), Action::RequestChallenge, Rule::NoWindow);
    assert!(matches!(
        &Bluff::legal_actions(&t.st, s(1))[..],
        [Legal::Follow {
            rank: Rank::Queen,
            min: 1,
            max: 4,
            ..
        }]
    ));
    assert_eq!(Bluff::to_act(&t.st).actors, vec![s(1)]);
}

#[test]
fn a_seat_without_cards_cannot_request() {
    let rules = Rules {
        max_cards_per_play: MaxCardsPerPlay::Unlimited,
        ..Rules::default()
    };
    let mut t = Table::dealt(4, rules, None, &deck_with(4, &[]));
    let all = t.refs(0);
    t.lead(0, "5", all);
    let one = t.refs(1)[..1].to_vec();
    t.follow(1, one);
    assert_eq!(t.st.out_order, vec![seat(0)]);
    t.reject(s(0), Action::RequestChallenge, Rule::CannotRequest);
    assert!(!Bluff::to_act(&t.st).actors.contains(&s(0)));
}

fn challenged_true(leader: LeaderAfterChallenge) -> Table {
    let rules = Rules {
        leader_after_challenge: leader,
        ..Rules::default()
    };
    let order = deck_with(4, &[(pos(4, 1, 0), "7H"), (pos(4, 1, 1), "7D")]);
    let mut t = Table::dealt(4, rules, None, &order);
    let sevens = t.cards(0, &["7H", "7D"]);
    t.lead(0, "7", sevens);
    t.act(s(1), Action::Challenge);
    t.relabel();
    t
}

fn challenged_false(leader: LeaderAfterChallenge) -> Table {
    let rules = Rules {
        leader_after_challenge: leader,
        ..Rules::default()
    };
    let order = deck_with(4, &[(pos(4, 1, 0), "7H"), (pos(4, 1, 1), "4C")]);
    let mut t = Table::dealt(4, rules, None, &order);
    let cards = t.cards(0, &["7H", "4C"]);
    t.lead(0, "7", cards);
    t.act(s(1), Action::Challenge);
    t.relabel();
    t
}

#[test]
fn leader_after_a_challenge() {
    use LeaderAfterChallenge::*;
    // Challenger: seat 1 either way.
    assert_eq!(challenged_true(Challenger).st.turn, seat(1));
    assert_eq!(challenged_false(Challenger).st.turn, seat(1));
    // Pile taker: seat 1 took a true play, seat 0 a caught bluff.
    assert_eq!(challenged_true(PileTaker).st.turn, seat(1));
    assert_eq!(challenged_false(PileTaker).st.turn, seat(0));
    // Challenge winner: seat 0 was right, seat 1 caught the bluff.
    assert_eq!(challenged_true(ChallengeWinner).st.turn, seat(0));
    assert_eq!(challenged_false(ChallengeWinner).st.turn, seat(1));
}

#[test]
fn the_public_view_shows_no_hidden_face() {
    let mut t = tv_public();
    let v = Bluff::view(&t.st, Viewer::Public);
    assert!(v
        .hands
        .iter()
        .all(|h| h.cards.iter().all(|c| c.face.is_none())));
    assert!(v
        .pile
        .iter()
        .all(|p| p.cards.iter().all(|c| c.face.is_none())));
    assert_eq!(v.pile_size, 3);
    assert_eq!(v.hands.iter().map(|h| h.count).sum::<usize>(), 49);
    // The player sees his own play.
    let own = Bluff::view(&t.st, Viewer::Seat(seat(0)));
    assert!(own.pile[0].cards.iter().all(|c| c.face.is_some()));
    assert!(own.pile[1].cards.iter().all(|c| c.face.is_none()));
    t.act(s(2), Action::NoChallenge);
    let j = serde_json::to_value(Bluff::view(&t.st, Viewer::Public)).unwrap();
    assert_eq!(j["round_rank"], "10");
    assert_eq!(j["phase"]["name"], "play");
}

fn tv_public() -> Table {
    let mut t = fresh();
    let two = t.refs(0)[..2].to_vec();
    t.lead(0, "10", two);
    let one = t.refs(1)[..1].to_vec();
    t.follow(1, one);
    t
}

#[test]
fn violations_cite_the_spec_and_name_no_face() {
    let mut t = fresh();
    let theirs = t.refs(1)[..1].to_vec();
    let v = t.reject(
        s(0),
        Action::Lead {
            rank: Rank::Ace,
            cards: theirs,
        },
        Rule::NotInHand,
    );
    assert!(v.section.starts_with("bluff §"));
    for card in crate::cards::DeckKind::Standard52.cards() {
        assert!(!v.detail.contains(&format!(" {card}")), "{v}");
    }
}
