//! A penalty ruling carried into a match (`docs/BUNDLE.md` §8, version 3; `docs/EVENT-LOG.md`
//! §3.1 `adjustments`): a two-hand Hokm match whose second hand starts from the first's end
//! with a cheating penalty's award applied verifies, and every way of getting it wrong is
//! named by its rule: the ruling missing or changed, signed by another service key or not by
//! its official, carried before the match's first hand, carried twice, with an award the
//! rules do not make, or a match state that does not follow.
//!
//! The committed vector `docs/vectors/match-v3/hokm-4-seats-2-hands-penalty.json` is this
//! match, rebuilt here byte for byte (fixed seeds and time, deterministic signatures):
//! `UPDATE_VECTORS=1 cargo test -p replayer --test penalty_match` rewrites it.

use std::path::Path;

use replayer::bundle::Bundle;
use replayer::dealer::{HandOptions, HandParams, SeedSource};
use replayer::dispute::{
    ruling_message, seal_entry, Decision, DisputeKind, Entry, EntryBody, EntryRecord, Official,
    Opener, RulingTerms, DISPUTE_FORMAT_VERSION,
};
use replayer::engine::{Award, GameId, SeatIndex};
use replayer::games::registry;
use replayer::log::{Adjustment, Body, Hash, PrevHand, SeatInfo, SigningKeyPair};
use replayer::matches::{verify_match_value, MatchFile, MatchVerdict};
use replayer::sim::{new_match_state, simulate_hand, simulate_hand_dealt};
use replayer::verify::Options;
use serde_json::{json, Value};

const NOW_MS: u64 = 1_767_225_600_000;
const CLUB: &str = "kish-club";
const TABLE: &str = "t-penalty";
const VECTOR: &str = "../docs/vectors/match-v3/hokm-4-seats-2-hands-penalty.json";

/// The public test key of the vectors (`docs/EVENT-LOG.md` §13): the service's.
fn service() -> SigningKeyPair {
    SigningKeyPair::from_secret([1; 32])
}

/// The official's key.
fn official_key() -> SigningKeyPair {
    SigningKeyPair::from_secret([2; 32])
}

fn trusted() -> Options {
    Options {
        trusted_keys: vec![service().public()],
    }
}

/// How a test bends the match it builds.
#[derive(Default)]
struct Bend {
    /// Change the award the ruling entry records (then resealed by the service).
    award: Option<fn(&mut Award)>,
    /// Carry the ruling twice into hand 2.
    twice: bool,
    /// Start hand 2 from hand 1's end without applying the award.
    no_apply: bool,
    /// Carry the ruling before hand 1 as well (it cannot be on an earlier hand).
    into_first: bool,
    /// Sign the ruling with another official key than the one it names.
    forged_official: bool,
}

fn seats() -> Vec<SeatInfo> {
    ["Dariush", "Shirin", "Babak", "Roya"]
        .iter()
        .zip(0u8..)
        .map(|(p, i)| SeatInfo {
            seat: SeatIndex(i),
            player: (*p).to_string(),
            public_key: None,
        })
        .collect()
}

fn left(b: &Bundle) -> Value {
    b.records
        .iter()
        .find_map(|r| match &r.event.body {
            Body::HandEnded { next_match, .. } => Some(next_match.clone()),
            _ => None,
        })
        .expect("hand 1 completes")
}

/// The dispute on `hand`: entry 0 (opened) and entry 1 (a penalty ruling), sealed by the
/// service.
fn ruling(hand: &str, penalty: &Value, award: Award, bend: &Bend) -> EntryRecord {
    let opened = seal_entry(
        Entry {
            v: DISPUTE_FORMAT_VERSION,
            club: CLUB.into(),
            dispute: "d_penalty".into(),
            hand: hand.into(),
            seq: 0,
            prev: Hash::ZERO,
            time_ms: NOW_MS + 10,
            body: EntryBody::Opened {
                table: TABLE.into(),
                event: None,
                kind: DisputeKind::RuleBroken,
                claim: "seat 1 signalled to seat 3".into(),
                opened_by: Opener {
                    role: "admin".into(),
                    id: "k_admin".into(),
                    seat: None,
                },
                findings: json!({"version": 1}),
            },
        },
        &service(),
    )
    .expect("seal");
    let official = Official {
        name: "Parvin Etesami".into(),
        public_key: official_key().public(),
    };
    let reason = "seat 1 signalled to seat 3 across the table";
    let msg = ruling_message(&RulingTerms {
        club: CLUB,
        dispute: "d_penalty",
        hand,
        seq: 1,
        prev: &opened.hash,
        decision: Decision::Penalty,
        penalty: Some(penalty),
        reason,
        official: &official,
    })
    .expect("message");
    let signer = if bend.forged_official {
        SigningKeyPair::from_secret([3; 32])
    } else {
        official_key()
    };
    seal_entry(
        Entry {
            v: DISPUTE_FORMAT_VERSION,
            club: CLUB.into(),
            dispute: "d_penalty".into(),
            hand: hand.into(),
            seq: 1,
            prev: opened.hash,
            time_ms: NOW_MS + 20,
            body: EntryBody::Ruling {
                decision: Decision::Penalty,
                penalty: Some(penalty.clone()),
                award: Some(award),
                reason: reason.into(),
                official,
                official_sig: signer.sign(&msg),
                recorded_by: "k_admin".into(),
            },
        },
        &service(),
    )
    .expect("seal")
}

/// Two hands of a Hokm match; a cheating penalty (seat 1, caught by seat 0) ruled on hand
/// 1 is carried into hand 2.
fn build(bend: &Bend) -> MatchFile {
    let hokm = registry(GameId::Hokm).unwrap();
    let (rules, start) = new_match_state(GameId::Hokm, 4, &json!({}), None).unwrap();
    let params = |hand_id: &str, hand_no: u64, state: Value, prev: Option<PrevHand>| HandParams {
        hand_id: hand_id.into(),
        club: CLUB.into(),
        table: TABLE.into(),
        hand_no,
        game: GameId::Hokm,
        rules: rules.clone(),
        match_state: state,
        seats: seats(),
        client_entropy: true,
        prev_hand: prev,
    };
    let h1 = simulate_hand(
        params("h_penalty_1", 1, start, None),
        [0x48; 32],
        &service(),
        NOW_MS,
    )
    .unwrap();
    let after1 = left(&h1);
    let penalty = json!({"type": "cheating_penalty", "offender": 1, "beneficiary": 0});
    let mut award = hokm.penalty(&rules, &after1, &penalty).unwrap();
    if let Some(f) = bend.award {
        f(&mut award);
    }
    let entry = ruling(&h1.hand, &penalty, award.clone(), bend);
    let adj = Adjustment {
        dispute: entry.entry.dispute.clone(),
        seq: entry.entry.seq,
        hash: entry.hash,
        award: award.clone(),
    };
    let state2 = if bend.no_apply {
        after1.clone()
    } else {
        // A bent award the engine refuses leaves the score as it was: the verifier names
        // the award before it compares states.
        hokm.apply_award(&rules, &after1, &award)
            .unwrap_or_else(|_| after1.clone())
    };
    let mut adjustments = vec![adj.clone()];
    if bend.twice {
        adjustments.push(adj.clone());
    }
    let h2 = simulate_hand_dealt(
        params(
            "h_penalty_2",
            2,
            state2,
            Some(PrevHand {
                hand: h1.hand.clone(),
                hash: h1.records.last().unwrap().hash,
            }),
        ),
        HandOptions {
            adjustments,
            ..HandOptions::default()
        },
        SeedSource::Derived([0x49; 32]),
        &[],
        [0x49; 32],
        &service(),
        NOW_MS + 1_000,
    )
    .unwrap();
    let h1 = if bend.into_first {
        simulate_hand_dealt(
            params("h_penalty_1", 1, after1, None),
            HandOptions {
                adjustments: vec![adj],
                ..HandOptions::default()
            },
            SeedSource::Derived([0x48; 32]),
            &[],
            [0x48; 32],
            &service(),
            NOW_MS,
        )
        .unwrap()
    } else {
        h1
    };
    MatchFile::new(CLUB, TABLE, GameId::Hokm, vec![h1, h2]).with_rulings(
        vec![entry],
        vec![service().public()],
        Vec::new(),
    )
}

fn verdict(v: Value, opts: &Options) -> MatchVerdict {
    verify_match_value(v, opts).expect("a readable match file")
}

fn broken(file: Value, rule: &str, index: usize) {
    let v = verdict(file, &trusted());
    assert!(!v.valid, "{rule}: still valid");
    let p = v.problem.expect("a problem");
    assert_eq!((p.rule.as_str(), p.index), (rule, index), "{p}");
}

fn json_of(m: &MatchFile) -> Value {
    serde_json::to_value(m).unwrap()
}

#[test]
fn a_carried_penalty_verifies() {
    let m = build(&Bend::default());
    assert_eq!(m.version, 3);
    let Body::HandStarted {
        match_state,
        adjustments,
        ..
    } = &m.hands[1].records[0].event.body
    else {
        panic!("no hand_started")
    };
    assert_eq!(adjustments.len(), 1);
    let before = left(&m.hands[0]);
    assert_ne!(match_state, &before, "the award changed the score");
    let v = verdict(json_of(&m), &trusted());
    assert!(v.valid, "{:?}", v.problem);
    assert_eq!(v.adjustments.len(), 1);
    assert_eq!(v.adjustments[0].applied_by.as_deref(), Some("h_penalty_2"));
    assert_eq!(v.adjustments[0].ruled_hand, "h_penalty_1");
    // With no key given, the file's own keys.
    let alone = verdict(json_of(&m), &Options::default());
    assert!(alone.valid, "{:?}", alone.problem);
}

#[test]
fn a_missing_or_changed_ruling_is_named() {
    let mut v = json_of(&build(&Bend::default()));
    v["rulings"] = json!([]);
    broken(v, "adjustment_entry", 1);
    let mut v = json_of(&build(&Bend::default()));
    v["rulings"][0]["entry"]["body"]["award"]["points"] = json!(5);
    broken(v, "adjustment_entry", 1);
    let mut v = json_of(&build(&Bend::default()));
    v["rulings"][0]["entry"]["dispute"] = json!("d_other");
    broken(v, "adjustment_entry", 1);
}

#[test]
fn a_ruling_signed_by_another_key_is_named() {
    let mut v = json_of(&build(&Bend::default()));
    let other = SigningKeyPair::from_secret([9; 32]);
    let hash = Hash::from_hex(v["rulings"][0]["hash"].as_str().unwrap()).unwrap();
    let sig = other.sign(&replayer::dispute::entry_signature_message(&hash));
    v["rulings"][0]["signer"] = json!(other.key_id().0);
    v["rulings"][0]["sig"] = json!(sig.to_hex());
    broken(v, "adjustment_signature", 1);
    let v = json_of(&build(&Bend {
        forged_official: true,
        ..Bend::default()
    }));
    broken(v, "adjustment_official", 1);
}

#[test]
fn an_award_the_rules_do_not_make_is_named() {
    let v = json_of(&build(&Bend {
        award: Some(|a| a.points = 3),
        ..Bend::default()
    }));
    broken(v, "adjustment_award", 1);
    let v = json_of(&build(&Bend {
        award: Some(|a| a.beneficiaries = vec![vec![SeatIndex(1), SeatIndex(3)]]),
        ..Bend::default()
    }));
    broken(v, "adjustment_award", 1);
}

#[test]
fn a_ruling_carried_twice_is_named() {
    broken(
        json_of(&build(&Bend {
            twice: true,
            ..Bend::default()
        })),
        "adjustment_twice",
        1,
    );
    let mut v = json_of(&build(&Bend::default()));
    let adj = v["hands"][1]["records"][0]["event"]["body"]["adjustments"][0].clone();
    v["trailing_adjustments"] = json!([adj]);
    broken(v, "adjustment_twice", 2);
}

#[test]
fn a_ruling_before_the_first_hand_is_named() {
    broken(
        json_of(&build(&Bend {
            into_first: true,
            ..Bend::default()
        })),
        "adjustment_hand",
        0,
    );
}

#[test]
fn a_match_state_without_the_award_is_named() {
    broken(
        json_of(&build(&Bend {
            no_apply: true,
            ..Bend::default()
        })),
        "match_state",
        1,
    );
}

#[test]
fn pending_rulings_after_the_last_hand_are_checked_and_counted() {
    // Hand 2 alone carries nothing: the ruling shown as pending after hand 1.
    let full = build(&Bend::default());
    let mut m = full.clone();
    m.hands.truncate(1);
    let adj = match &full.hands[1].records[0].event.body {
        Body::HandStarted { adjustments, .. } => adjustments[0].clone(),
        _ => panic!(),
    };
    let m = m.with_rulings(full.rulings.clone(), vec![service().public()], vec![adj]);
    let v = verdict(json_of(&m), &trusted());
    assert!(v.valid, "{:?}", v.problem);
    assert_eq!(v.adjustments[0].applied_by, None);
    let Body::HandStarted { match_state, .. } = &full.hands[1].records[0].event.body else {
        panic!()
    };
    assert_eq!(v.match_state.as_ref(), Some(match_state));
}

/// The committed vector is this match, byte for byte.
#[test]
fn the_match_v3_vector_is_this_match() {
    let m = build(&Bend::default());
    let text = serde_json::to_string(&m).unwrap();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(VECTOR);
    if std::env::var_os("UPDATE_VECTORS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, format!("{text}\n")).unwrap();
    }
    let committed = std::fs::read_to_string(&path).expect("the committed vector");
    assert_eq!(
        committed.trim_end(),
        text,
        "the vector changed: a format change"
    );
    let v = verdict(serde_json::from_str(&committed).unwrap(), &trusted());
    assert!(v.valid, "{:?}", v.problem);
}
