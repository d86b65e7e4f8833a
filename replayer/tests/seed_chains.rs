//! Seed chains and required player signatures, end to end through the dealer and the
//! verifier (issue 12, points 2 and 3): a chained match verifies, hand by hand and link by
//! link; a chain seed that does not hash to the previous hand's or to the anchor is named
//! by its rule, in a single bundle and in a match file; an unsigned action in a hand that
//! requires signatures fails on replay; and live, an unsigned, forged or replayed
//! signature is refused.

use replayer::bundle::Bundle;
use replayer::dealer::{DealerError, HandOptions, HandParams, LiveHand, SeedSource};
use replayer::engine::{Actor, GameId, SeatIndex};
use replayer::log::{
    action_message, hash_event, seal, Body, PlayerSig, PrevHand, SeatInfo, SigningKeyPair,
};
use replayer::matches::{verify_match_value, MatchFile};
use replayer::seed_chain::{ChainLink, ChainSeed, SeedChain, SeedChainRef};
use replayer::sim::{self, SimSpec, TableOptions};
use replayer::verify::{verify_value, Options};
use serde_json::Value;

const SEED: [u8; 32] = [0x48; 32];

fn key() -> SigningKeyPair {
    SigningKeyPair::from_secret([1; 32])
}

fn chained_match(hands: u32, length: u32, signed: bool) -> MatchFile {
    let spec = SimSpec::new(GameId::Hokm, 4, SEED);
    sim::simulate_match_with(
        &spec,
        TableOptions {
            seed_chain: Some(length),
            signatures_required: signed,
        },
        hands,
        &key(),
        1_767_225_600_000,
    )
    .unwrap()
}

fn verdict_of(b: &Bundle) -> replayer::verify::Verdict {
    verify_value(serde_json::to_value(b).unwrap(), &Options::default()).unwrap()
}

fn match_problem(m: &MatchFile) -> Option<(usize, String)> {
    let v = verify_match_value(serde_json::to_value(m).unwrap(), &Options::default()).unwrap();
    v.problem
        .map(|p| (p.index, p.in_hand.map(|h| h.rule).unwrap_or(p.rule)))
}

/// Re-hash and re-sign every record from `from` on (with the test key that signed them),
/// as a forger holding the key would after editing event `from`.
fn reseal(b: &mut Bundle, from: usize) {
    let k = key();
    for i in from..b.records.len() {
        if i > 0 {
            b.records[i].event.prev = b.records[i - 1].hash;
        }
        b.records[i] = seal(b.records[i].event.clone(), &k).unwrap();
    }
}

fn header(b: &Bundle) -> SeedChainRef {
    match &b.records[0].event.body {
        Body::HandStarted {
            seed_chain: Some(c),
            ..
        } => *c,
        other => panic!("not a chained hand_started: {other:?}"),
    }
}

fn revealed_chain_seed(b: &Bundle) -> ChainSeed {
    match &b.records.last().unwrap().event.body {
        Body::SeedsRevealed {
            chain_seed: Some(c),
            ..
        } => *c,
        other => panic!("no chain seed revealed: {other:?}"),
    }
}

#[test]
fn a_chained_match_verifies_and_its_seeds_link_to_the_anchor() {
    let m = chained_match(3, 5, true);
    assert_eq!(m.hands.len(), 3);
    assert_eq!(match_problem(&m), None);
    let chain = SeedChain::from_tail(sim::simulated_chain_tail(&SEED), 5).unwrap();
    for (i, b) in m.hands.iter().enumerate() {
        let v = verdict_of(b);
        assert!(v.valid, "hand {i}: {:?}", v.problem);
        assert!(v.player_signatures > 0, "every seat's action is signed");
        let h = header(b);
        let k = u32::try_from(i + 1).unwrap();
        assert_eq!((h.position, h.length, h.anchor), (k, 5, chain.anchor()));
        let c = revealed_chain_seed(b);
        assert_eq!(c, chain.seed_at(k).unwrap());
        assert!(h.anchors(&c));
        // Every revealed server seed derives from the chain seed.
        if let Body::SeedsRevealed { seeds, .. } = &b.records.last().unwrap().event.body {
            for (j, s) in seeds.iter().enumerate() {
                assert_eq!(
                    s.server_seed,
                    c.server_seed(u32::try_from(j).unwrap()).to_hex()
                );
            }
        }
    }
}

#[test]
fn a_hand_without_a_chain_writes_no_chain_member() {
    let b = sim::simulate(GameId::Hokm, 4, SEED, &key(), 1).unwrap();
    let v = serde_json::to_value(&b).unwrap();
    let text = v.to_string();
    assert!(!text.contains("seed_chain") && !text.contains("chain_seed"));
    assert!(!text.contains("player_signatures"));
    assert!(verdict_of(&b).valid);
}

/// The second hand of a match, played from a chain link whose seed is not the chain's:
/// it carries the right anchor and position, but its chain seed is another.
fn match_with_a_forged_second_hand() -> MatchFile {
    let mut m = chained_match(1, 5, false);
    let first = &m.hands[0];
    let h = header(first);
    let Body::HandStarted {
        club,
        table,
        game,
        rules,
        seats,
        ..
    } = &first.records[0].event.body
    else {
        unreachable!()
    };
    let next_match = first
        .records
        .iter()
        .find_map(|r| match &r.event.body {
            Body::HandEnded { next_match, .. } => Some(next_match.clone()),
            _ => None,
        })
        .unwrap();
    let params = HandParams {
        hand_id: "forged-2".into(),
        club: club.clone(),
        table: table.clone(),
        hand_no: 2,
        game: *game,
        rules: rules.clone(),
        match_state: next_match,
        seats: seats.clone(),
        client_entropy: true,
        prev_hand: Some(PrevHand {
            hand: first.hand.clone(),
            hash: first.records.last().unwrap().hash,
        }),
    };
    let link = ChainLink {
        header: SeedChainRef { position: 2, ..h },
        seed: ChainSeed([0x66; 32]),
    };
    let b = sim::simulate_hand_dealt(
        params,
        HandOptions::default(),
        SeedSource::Chain(link),
        &[],
        [9; 32],
        &key(),
        1_767_225_600_000,
    )
    .unwrap();
    m.hands.push(b);
    m
}

#[test]
fn a_chain_seed_that_is_not_the_chains_is_caught_at_the_anchor_and_at_the_link() {
    let m = match_with_a_forged_second_hand();
    // Alone, the forged hand's chain seed does not hash down to the anchor.
    let v = verdict_of(&m.hands[1]);
    let p = v.problem.expect("not valid");
    assert_eq!(p.rule, "seed_chain_anchor", "{p:?}");
    assert_eq!(
        p.event,
        Some(u64::try_from(m.hands[1].records.len() - 1).unwrap())
    );
    // In the match, its link to hand 1's chain seed breaks.
    assert_eq!(match_problem(&m), Some((1, "seed_chain_link".into())));
}

#[test]
fn a_match_that_skips_a_position_breaks_at_seed_chain() {
    let mut m = chained_match(2, 5, false);
    // Hand 2 claims position 3 (re-sealed by a forger with the key).
    let b = &mut m.hands[1];
    if let Body::HandStarted { seed_chain, .. } = &mut b.records[0].event.body {
        seed_chain.as_mut().unwrap().position = 3;
    }
    reseal(b, 0);
    // Its hand_started changed, so the link from hand 2 to hand 1 still holds; the hand's
    // own anchor walk (3 steps from c_2) fails alone, and in the match the position.
    assert_eq!(verdict_of(b).problem.unwrap().rule, "seed_chain_anchor");
    assert_eq!(match_problem(&m), Some((1, "seed_chain".into())));
}

#[test]
fn the_first_hand_of_a_match_file_is_walked_to_the_anchor() {
    let mut m = chained_match(1, 5, false);
    let b = &mut m.hands[0];
    if let Body::HandStarted { seed_chain, .. } = &mut b.records[0].event.body {
        seed_chain.as_mut().unwrap().anchor = replayer::log::Hash([7; 32]);
    }
    reseal(b, 0);
    assert_eq!(match_problem(&m), Some((0, "seed_chain_anchor".into())));
}

#[test]
fn a_reveal_without_its_chain_seed_or_with_another_is_named() {
    let m = chained_match(1, 3, false);
    let mut missing = m.hands[0].clone();
    let last = missing.records.len() - 1;
    if let Body::SeedsRevealed { chain_seed, .. } = &mut missing.records[last].event.body {
        *chain_seed = None;
    }
    reseal(&mut missing, last);
    let p = verdict_of(&missing).problem.unwrap();
    assert_eq!(
        (p.rule.as_str(), p.event),
        ("seed_chain", Some(last as u64))
    );

    let mut other = m.hands[0].clone();
    if let Body::SeedsRevealed { chain_seed, .. } = &mut other.records[last].event.body {
        *chain_seed = Some(ChainSeed([0x55; 32]));
    }
    reseal(&mut other, last);
    let p = verdict_of(&other).problem.unwrap();
    assert_eq!(
        (p.rule.as_str(), p.event),
        ("seed_chain_seeds", Some(last as u64))
    );
}

#[test]
fn a_position_out_of_the_chain_is_refused_at_event_0() {
    let m = chained_match(1, 3, false);
    for position in [0, 4] {
        let mut b = m.hands[0].clone();
        if let Body::HandStarted { seed_chain, .. } = &mut b.records[0].event.body {
            seed_chain.as_mut().unwrap().position = position;
        }
        reseal(&mut b, 0);
        let p = verdict_of(&b).problem.unwrap();
        assert_eq!((p.rule.as_str(), p.event), ("seed_chain", Some(0)), "{p:?}");
    }
}

#[test]
fn an_unsigned_action_in_a_hand_that_requires_signatures_fails_on_replay() {
    let m = chained_match(1, 2, true);
    let mut b = m.hands[0].clone();
    let i = b
        .records
        .iter()
        .position(|r| r.event.player_sig.is_some())
        .expect("a signed action");
    b.records[i].event.player_sig = None;
    reseal(&mut b, i);
    let p = verdict_of(&b).problem.unwrap();
    assert_eq!(p.rule, "player_signature_required", "{p:?}");
    assert_eq!(p.event, Some(i as u64));
    assert!(p.seat.is_some());
}

#[test]
fn a_hand_that_requires_signatures_needs_a_key_for_every_seat() {
    let m = chained_match(1, 2, true);
    let mut b = m.hands[0].clone();
    if let Body::HandStarted { seats, .. } = &mut b.records[0].event.body {
        seats[2].public_key = None;
    }
    reseal(&mut b, 0);
    let p = verdict_of(&b).problem.unwrap();
    assert_eq!(
        (p.rule.as_str(), p.event, p.seat),
        ("player_signatures", Some(0), Some(SeatIndex(2)))
    );
}

/// A Bist-o-yek hand at a table that requires signatures, dealt live: an unsigned action
/// is refused, a forged signature and a valid one replayed at a later seq too.
#[test]
fn live_required_signatures_refuse_unsigned_forged_and_replayed_actions() {
    let keys: Vec<SigningKeyPair> = (0..2u8)
        .map(|i| SigningKeyPair::from_secret([10 + i; 32]))
        .collect();
    let seats = keys
        .iter()
        .enumerate()
        .map(|(i, k)| SeatInfo {
            seat: SeatIndex(u8::try_from(i).unwrap()),
            player: format!("p{i}"),
            public_key: Some(k.public()),
        })
        .collect();
    let game = GameId::BistOYek;
    let (rules, match_state) =
        sim::new_match_state(game, 2, &Value::Object(Default::default()), None).unwrap();
    let params = HandParams {
        hand_id: "live".into(),
        club: "c".into(),
        table: "t".into(),
        hand_no: 1,
        game,
        rules,
        match_state,
        seats,
        client_entropy: false,
        prev_hand: None,
    };
    let k = key();
    let (mut hand, _) = LiveHand::start_with_options(
        params,
        HandOptions {
            signatures_required: true,
            ..HandOptions::default()
        },
        SeedSource::Derived([3; 32]),
        &k,
        1,
    )
    .unwrap();
    hand.settle_after_start(&k, 1).unwrap();
    let actor = *hand
        .to_act()
        .actors
        .iter()
        .find(|a| matches!(a, Actor::Seat(_)))
        .expect("a seat to act");
    let Actor::Seat(seat) = actor else {
        unreachable!()
    };
    let action = hand.legal_actions(actor).remove(0);
    let sign = |by: &SigningKeyPair, seq: u64, head| {
        let msg = action_message("live", seq, &head, actor, &action).unwrap();
        PlayerSig {
            key_id: keys[seat.index()].key_id(),
            sig: by.sign(&msg),
        }
    };
    assert!(matches!(
        hand.act(actor, action.clone(), None, &k, 2),
        Err(DealerError::PlayerSignatureRequired(s)) if s == seat
    ));
    let forged = sign(
        &SigningKeyPair::from_secret([77; 32]),
        hand.next_seq(),
        hand.head(),
    );
    assert!(matches!(
        hand.act(actor, action.clone(), Some(forged), &k, 2),
        Err(DealerError::BadPlayerSignature(_))
    ));
    let good = sign(&keys[seat.index()], hand.next_seq(), hand.head());
    let records = hand
        .act(actor, action.clone(), Some(good.clone()), &k, 2)
        .unwrap();
    assert_eq!(records[0].event.player_sig.as_ref(), Some(&good));
    assert_eq!(hash_event(&records[0].event).unwrap(), records[0].hash);
    // The same signature again, at the next seq: refused, whoever acts now.
    if hand.status() == replayer::dealer::HandStatus::InProgress {
        assert!(matches!(
            hand.act(actor, action, Some(good), &k, 3),
            Err(DealerError::BadPlayerSignature(_))
        ));
    }
}

/// `replayer verify --json --key KEY FILE` on a document: its exit code and verdict.
fn cli_verify(doc: &Value, name: &str) -> (i32, Value) {
    let dir = std::env::temp_dir().join(format!("seed-chains-cli-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("doc.json");
    std::fs::write(&path, serde_json::to_vec(doc).unwrap()).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_replayer"))
        .args(["verify", "--json", "--key", &key().public().to_hex()])
        .arg(&path)
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    (
        out.status.code().unwrap_or(-1),
        serde_json::from_str(&text).unwrap_or(Value::Null),
    )
}

#[test]
fn replayer_verify_catches_a_broken_chain_link_from_the_command_line() {
    let m = match_with_a_forged_second_hand();
    let (code, v) = cli_verify(&serde_json::to_value(&m).unwrap(), "match");
    assert_eq!(code, 1, "{v}");
    assert_eq!(v["problem"]["index"], 1, "{v}");
    let rule = match &v["problem"]["in_hand"] {
        Value::Null => v["problem"]["rule"].clone(),
        h => h["rule"].clone(),
    };
    assert_eq!(rule, "seed_chain_link", "{v}");
    let (code, v) = cli_verify(&serde_json::to_value(&m.hands[1]).unwrap(), "hand");
    assert_eq!(code, 1, "{v}");
    assert_eq!(v["problem"]["rule"], "seed_chain_anchor", "{v}");
    // The honest match verifies.
    let (code, v) = cli_verify(
        &serde_json::to_value(chained_match(2, 5, false)).unwrap(),
        "ok",
    );
    assert_eq!(code, 0, "{v}");
}
