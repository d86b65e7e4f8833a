//! Matches as chains: a simulated match verifies, and each kind of break is named at the
//! hand where it happens (a missing, reordered or edited hand, a match state that does not
//! follow, a hand after the match is over).

use replayer::dealer::HandParams;
use replayer::engine::{GameId, SeatIndex};
use replayer::log::{Body, PrevHand, SeatInfo, SigningKeyPair};
use replayer::matches::{verify_match_value, MatchFile, QuarantinedHand};
use replayer::sim::{simulate_hand, simulate_match, SimSpec};
use replayer::verify::Options;
use serde_json::{json, Value};

const NOW_MS: u64 = 1_767_225_600_000;

fn key() -> SigningKeyPair {
    SigningKeyPair::from_secret([0x42; 32])
}

fn trusted() -> Options {
    Options {
        trusted_keys: vec![key().public()],
    }
}

/// A match of exactly `hands` hands (random play may end a match early: the first seed
/// whose match lasts that long).
fn bist_o_yek_match(hands: u32) -> MatchFile {
    (0u8..=255)
        .map(|s| {
            let spec = SimSpec::new(GameId::BistOYek, 3, [s; 32]);
            simulate_match(&spec, hands, &key(), NOW_MS).unwrap()
        })
        .find(|m| m.hands.len() == hands as usize)
        .expect("some seed plays a match this long")
}

fn verdict(m: &MatchFile) -> replayer::matches::MatchVerdict {
    verify_match_value(serde_json::to_value(m).unwrap(), &trusted()).unwrap()
}

#[test]
fn a_simulated_match_verifies_and_each_hand_names_the_one_before() {
    let m = bist_o_yek_match(4);
    assert_eq!(m.hands.len(), 4);
    let v = verdict(&m);
    assert!(v.valid, "{:?}", v.problem);
    for (i, h) in m.hands.iter().enumerate() {
        let Body::HandStarted {
            hand_no, prev_hand, ..
        } = &h.records[0].event.body
        else {
            panic!("first event is not hand_started")
        };
        assert_eq!(*hand_no, i as u64 + 1);
        match i {
            0 => assert!(prev_hand.is_none()),
            _ => {
                let before = &m.hands[i - 1];
                assert_eq!(
                    prev_hand.as_ref(),
                    Some(&PrevHand {
                        hand: before.hand.clone(),
                        hash: before.records.last().unwrap().hash,
                    })
                );
            }
        }
    }
    // The match state after the last hand is the last hand's next_match.
    let last = m.hands.last().unwrap();
    let next = last.records.iter().find_map(|r| match &r.event.body {
        Body::HandEnded { next_match, .. } => Some(next_match.clone()),
        _ => None,
    });
    assert_eq!(v.match_state, next);
}

#[test]
fn a_removed_hand_is_named_where_the_chain_breaks() {
    let mut m = bist_o_yek_match(4);
    m.hands.remove(1);
    let v = verdict(&m);
    assert!(!v.valid);
    let p = v.problem.unwrap();
    assert_eq!((p.index, p.rule.as_str()), (1, "hand_no"));
}

#[test]
fn swapped_hands_are_named() {
    let mut m = bist_o_yek_match(4);
    m.hands.swap(2, 3);
    let p = verdict(&m).problem.unwrap();
    assert_eq!((p.index, p.rule.as_str()), (2, "hand_no"));
}

#[test]
fn a_removed_first_hand_is_named() {
    let mut m = bist_o_yek_match(3);
    m.hands.remove(0);
    let p = verdict(&m).problem.unwrap();
    assert_eq!((p.index, p.rule.as_str()), (0, "hand_no"));
}

#[test]
fn an_edited_hand_is_named_with_its_own_problem() {
    let mut m = bist_o_yek_match(3);
    let mut v = serde_json::to_value(&m).unwrap();
    v["hands"][1]["records"][2]["event"]["time_ms"] = json!(NOW_MS + 1);
    let verdict = verify_match_value(v, &trusted()).unwrap();
    let p = verdict.problem.unwrap();
    assert_eq!((p.index, p.rule.as_str()), (1, "hand"));
    assert_eq!(p.in_hand.unwrap().event, Some(2));
    // And a hand replaced by another valid hand of another match breaks the link.
    let other = (0u8..=255)
        .rev()
        .map(|s| {
            simulate_match(
                &SimSpec::new(GameId::BistOYek, 3, [s; 32]),
                3,
                &key(),
                NOW_MS,
            )
        })
        .find_map(|r| {
            r.ok()
                .filter(|o| o.hands.len() == 3 && o.hands[2].hand != m.hands[2].hand)
        })
        .unwrap();
    m.hands[2] = other.hands[2].clone();
    let p = verdict_of(&m);
    assert_eq!((p.index, p.rule.as_str()), (2, "prev_hand"));
}

fn verdict_of(m: &MatchFile) -> replayer::matches::MatchProblem {
    verdict(m).problem.unwrap()
}

/// The attack of issue 9: one balance set to 5,000,000 in the stored match state between
/// two hands, and the next hand signed from it. The hand itself verifies (it is consistent
/// with what it says it started from); the match does not.
#[test]
fn a_match_state_edited_between_hands_is_caught() {
    let m = bist_o_yek_match(2);
    let first = &m.hands[0];
    let Body::HandStarted {
        rules,
        seats,
        club,
        table,
        ..
    } = first.records[0].event.body.clone()
    else {
        panic!()
    };
    let mut state: Value = first
        .records
        .iter()
        .find_map(|r| match &r.event.body {
            Body::HandEnded { next_match, .. } => Some(next_match.clone()),
            _ => None,
        })
        .unwrap();
    state["balances"][1] = json!(5_000_000u64);
    let forged = simulate_hand(
        HandParams {
            hand_id: "forged-2".into(),
            club,
            table,
            hand_no: 2,
            game: GameId::BistOYek,
            rules,
            match_state: state,
            seats,
            client_entropy: true,
            prev_hand: Some(PrevHand {
                hand: first.hand.clone(),
                hash: first.records.last().unwrap().hash,
            }),
        },
        [9; 32],
        &key(),
        NOW_MS,
    )
    .unwrap();
    let alone =
        replayer::verify::verify_value(serde_json::to_value(&forged).unwrap(), &trusted()).unwrap();
    assert!(
        alone.valid,
        "the forged hand verifies on its own: {:?}",
        alone.problem
    );
    let mut m2 = m.clone();
    m2.hands[1] = forged;
    let p = verdict_of(&m2);
    assert_eq!((p.index, p.rule.as_str()), (1, "match_state"));
}

#[test]
fn a_first_hand_that_names_a_previous_hand_does_not_verify() {
    let seats: Vec<SeatInfo> = (0..2)
        .map(|i| SeatInfo {
            seat: SeatIndex(i),
            player: format!("p{i}"),
            public_key: None,
        })
        .collect();
    let (rules, match_state) =
        replayer::sim::new_match_state(GameId::BistOYek, 2, &json!({}), None).unwrap();
    let r = simulate_hand(
        HandParams {
            hand_id: "h1".into(),
            club: "c".into(),
            table: "t".into(),
            hand_no: 1,
            game: GameId::BistOYek,
            rules,
            match_state,
            seats,
            client_entropy: false,
            prev_hand: Some(PrevHand {
                hand: "h0".into(),
                hash: replayer::log::Hash::ZERO,
            }),
        },
        [1; 32],
        &key(),
        NOW_MS,
    );
    assert!(r.is_err(), "the dealer refuses to start such a hand");
}

#[test]
fn simulate_takes_house_rules_and_set_up_validated() {
    let mut spec = SimSpec::new(GameId::BistOYek, 3, [3; 32]);
    spec.rules = json!({"no_such_rule": 1});
    assert!(simulate_match(&spec, 1, &key(), NOW_MS).is_err());
    spec.rules = json!({});
    spec.setup = Some(json!({"seats": 4}));
    let e = simulate_match(&spec, 1, &key(), NOW_MS).unwrap_err();
    assert!(e.to_string().contains("4 seats"), "{e}");
    spec.setup = Some(json!({"seats": 3, "balances": [100, 200, 300]}));
    let m = simulate_match(&spec, 1, &key(), NOW_MS).unwrap();
    let Body::HandStarted { match_state, .. } = &m.hands[0].records[0].event.body else {
        panic!()
    };
    assert_eq!(match_state["balances"], json!([100, 200, 300]));
}

/// House rules are validated and defaulted knowing the seat count, and the hand's first
/// event writes them out in full: Hokm's `standard` cut and bam become what they mean for
/// the table, and an option for 4 players only is refused for 3.
#[test]
fn house_rules_are_written_out_for_the_seat_count() {
    for (n, cut, bam) in [
        (4u8, "partner_cuts", "on"),
        (3, "none", "off"),
        (2, "none", "off"),
    ] {
        let spec = SimSpec::new(GameId::Hokm, n, [n; 32]);
        let b = replayer::sim::simulate_with(&spec, &key(), NOW_MS).unwrap();
        let Body::HandStarted { rules, .. } = &b.records[0].event.body else {
            panic!()
        };
        assert_eq!(rules["cut"], cut, "{n} players");
        assert_eq!(rules["bam"], bam, "{n} players");
    }
    let e = replayer::sim::new_match_state(GameId::Hokm, 3, &json!({"dealer_peek": true}), None)
        .unwrap_err();
    assert!(e.to_string().contains("4 players"), "{e}");
}

/// The parts of a hand's first event that the next hand of its match repeats, and the
/// link and match state that hand leaves: (club, table, rules, seats, client entropy,
/// link to it, the match state after it).
fn continuation(
    hand: &replayer::bundle::Bundle,
) -> (String, String, Value, Vec<SeatInfo>, bool, PrevHand, Value) {
    let Body::HandStarted {
        club,
        table,
        rules,
        seats,
        client_entropy,
        ..
    } = hand.records[0].event.body.clone()
    else {
        panic!("first event is not hand_started")
    };
    let left = hand
        .records
        .iter()
        .find_map(|r| match &r.event.body {
            Body::HandEnded { next_match, .. } => Some(next_match.clone()),
            _ => None,
        })
        .expect("a completed hand");
    let link = PrevHand {
        hand: hand.hand.clone(),
        hash: hand.records.last().unwrap().hash,
    };
    (club, table, rules, seats, client_entropy, link, left)
}

fn quarantined(hand: &str, hand_no: u64) -> QuarantinedHand {
    QuarantinedHand {
        hand: hand.into(),
        hand_no,
        reason: "a row was inserted into its log".into(),
        quarantined_ms: NOW_MS,
        seq: 7,
        rule: "hash".into(),
    }
}

/// A match whose hand 2 was quarantined: hand 1, then hand 3 linking to hand 1 and
/// starting from the match state hand 1 left (`prev` and `state` override the link and
/// the state, to forge a wrong one), with hand 2 listed as quarantined.
fn match_around_quarantined(prev: Option<PrevHand>, state: Option<Value>) -> MatchFile {
    let m = bist_o_yek_match(2);
    let first = m.hands[0].clone();
    let (club, table, rules, seats, client_entropy, link, left) = continuation(&first);
    let third = simulate_hand(
        HandParams {
            hand_id: "hand-3".into(),
            club: club.clone(),
            table: table.clone(),
            hand_no: 3,
            game: GameId::BistOYek,
            rules,
            match_state: state.unwrap_or(left),
            seats,
            client_entropy,
            prev_hand: Some(prev.unwrap_or(link)),
        },
        [3; 32],
        &key(),
        NOW_MS,
    )
    .unwrap();
    MatchFile::new(&club, &table, GameId::BistOYek, vec![first, third])
        .with_quarantined(vec![quarantined("hand-2", 2)])
}

/// A quarantined hand is skipped by the chain: its number is accounted for, the next hand
/// links to the hand before it and starts from the state that hand left; the verdict lists
/// it. The file is version 2; without the list, the gap is a missing hand.
#[test]
fn a_quarantined_hand_is_skipped_by_the_chain_and_listed() {
    let m = match_around_quarantined(None, None);
    assert_eq!(m.version, 2);
    let v = verdict(&m);
    assert!(v.valid, "{:?}", v.problem);
    assert_eq!(v.quarantined, vec![quarantined("hand-2", 2)]);
    assert_eq!(v.verdicts.len(), 2);
    let json = serde_json::to_value(&m).unwrap();
    assert_eq!(json["quarantined"][0]["hand_no"], 2);

    // Without the list, hand 3 follows hand 1 with a gap.
    let bare = MatchFile::new(&m.club, &m.table, m.game, m.hands.clone());
    assert_eq!(bare.version, 1);
    let p = verdict_of(&bare);
    assert_eq!((p.index, p.rule.as_str()), (1, "hand_no"));

    // Hand 1 quarantined too, and the list says so: then hand 1 is a bundle as well.
    let twice = m.clone().with_quarantined(vec![
        quarantined("hand-2", 2),
        quarantined(&m.hands[0].hand, 1),
    ]);
    assert_eq!(verdict_of(&twice).rule, "quarantined");
    let same_no = m
        .clone()
        .with_quarantined(vec![quarantined("hand-2", 2), quarantined("other", 2)]);
    assert_eq!(verdict_of(&same_no).rule, "quarantined");
    // A quarantined hand numbered past the end of the match.
    let past = m
        .clone()
        .with_quarantined(vec![quarantined("hand-2", 2), quarantined("hand-9", 9)]);
    let p = verdict_of(&past);
    assert_eq!((p.index, p.rule.as_str()), (2, "hand_no"));
    // The last hands quarantined: hand 4 after hand 3.
    let last = m
        .clone()
        .with_quarantined(vec![quarantined("hand-2", 2), quarantined("hand-4", 4)]);
    let v = verdict(&last);
    assert!(v.valid, "{:?}", v.problem);
    assert_eq!(v.quarantined.len(), 2);
}

/// Across a quarantined hand the links are checked as anywhere else: hand 3 may not name
/// the quarantined hand, nor start from another match state than hand 1 left.
#[test]
fn the_hand_after_a_quarantined_one_links_to_the_hand_before_it() {
    let to_quarantined = match_around_quarantined(
        Some(PrevHand {
            hand: "hand-2".into(),
            hash: replayer::log::Hash::ZERO,
        }),
        None,
    );
    let p = verdict_of(&to_quarantined);
    assert_eq!((p.index, p.rule.as_str()), (1, "prev_hand"));

    let m = bist_o_yek_match(2);
    let (_, _, _, _, _, _, mut left) = continuation(&m.hands[0]);
    left["balances"][1] = json!(5_000_000u64);
    let edited = match_around_quarantined(None, Some(left));
    let p = verdict_of(&edited);
    assert_eq!((p.index, p.rule.as_str()), (1, "match_state"));
}

/// Version 1 has no `quarantined` member, and version 2 must list at least one hand.
#[test]
fn quarantined_hands_need_version_2() {
    let m = match_around_quarantined(None, None);
    let mut v1 = serde_json::to_value(&m).unwrap();
    v1["version"] = json!(1);
    let e = verify_match_value(v1, &trusted()).unwrap_err();
    assert!(e.to_string().contains("quarantined"), "{e}");
    let mut empty = serde_json::to_value(&m).unwrap();
    empty["quarantined"] = json!([]);
    assert!(verify_match_value(empty, &trusted()).is_err());
    let mut none = serde_json::to_value(&m).unwrap();
    none.as_object_mut().unwrap().remove("quarantined");
    assert!(verify_match_value(none, &trusted()).is_err());
    // Version 3 (penalty rulings, tests/penalty_match.rs) is known; 4 is not.
    let mut v4 = serde_json::to_value(&m).unwrap();
    v4["version"] = json!(4);
    assert!(verify_match_value(v4, &trusted()).is_err());
}

/// Hand `index` of the match signed afresh from `state` with `seats`, linked to the hand
/// before it.
fn forged_after(
    m: &MatchFile,
    hand_no: u64,
    state: Value,
    seats: Vec<SeatInfo>,
) -> replayer::bundle::Bundle {
    let last = m.hands.last().unwrap();
    let Body::HandStarted {
        rules, club, table, ..
    } = last.records[0].event.body.clone()
    else {
        panic!()
    };
    simulate_hand(
        HandParams {
            hand_id: format!("forged-{hand_no}"),
            club,
            table,
            hand_no,
            game: GameId::BistOYek,
            rules,
            match_state: state,
            seats,
            client_entropy: true,
            prev_hand: Some(PrevHand {
                hand: last.hand.clone(),
                hash: last.records.last().unwrap().hash,
            }),
        },
        [7; 32],
        &key(),
        NOW_MS,
    )
    .unwrap()
}

fn started(b: &replayer::bundle::Bundle) -> (Value, Vec<SeatInfo>) {
    match &b.records[0].event.body {
        Body::HandStarted {
            match_state, seats, ..
        } => (match_state.clone(), seats.clone()),
        _ => panic!("no hand_started"),
    }
}

fn ended(b: &replayer::bundle::Bundle) -> Value {
    b.records
        .iter()
        .find_map(|r| match &r.event.body {
            Body::HandEnded { next_match, .. } => Some(next_match.clone()),
            _ => None,
        })
        .unwrap()
}

/// A hand linked to the right hand and starting from its end, but with another player in
/// a seat, is not a hand of the same match.
#[test]
fn a_hand_with_other_seats_breaks_the_match_at_same_match() {
    let m = bist_o_yek_match(1);
    let (_, mut seats) = started(&m.hands[0]);
    seats[1].player = "mallory".into();
    let forged = forged_after(&m, 2, ended(&m.hands[0]), seats);
    let mut m2 = m.clone();
    m2.hands.push(forged);
    let p = verdict_of(&m2);
    assert_eq!((p.index, p.rule.as_str()), (1, "same_match"), "{p:?}");
    // The same hand with the match's own seats is accepted: the seats were the break.
    let (_, seats) = started(&m.hands[0]);
    let mut m3 = m.clone();
    m3.hands
        .push(forged_after(&m, 2, ended(&m.hands[0]), seats));
    assert!(verdict(&m3).valid, "{:?}", verdict(&m3).problem);
}

/// A match that ended (a player took every toman) takes no further hand, even one that
/// links to its last hand and is signed by the dealer's key.
#[test]
fn a_hand_after_the_match_ended_breaks_it_at_after_match_over() {
    let m = (0u8..=255)
        .map(|s| {
            let spec = SimSpec::new(GameId::BistOYek, 2, [s; 32]);
            simulate_match(&spec, 40, &key(), NOW_MS).unwrap()
        })
        .find(|m| m.hands.len() < 40)
        .expect("some seed plays a match to its end");
    assert!(verdict(&m).valid, "{:?}", verdict(&m).problem);
    let last = m.hands.last().unwrap();
    // The forged hand starts from the state its predecessor started from: a state in
    // which the match was still on, so the dealer will deal it.
    let (state, seats) = started(last);
    let n = m.hands.len();
    let forged = forged_after(&m, u64::try_from(n).unwrap() + 1, state, seats);
    let mut m2 = m.clone();
    m2.hands.push(forged);
    let p = verdict_of(&m2);
    assert_eq!((p.index, p.rule.as_str()), (n, "after_match_over"), "{p:?}");
}
