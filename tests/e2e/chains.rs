//! Issue 12, points 2 and 3, over HTTP on both stores.
//!
//! Seed chains: a table created with `"seed_chain": {"length": 3}` publishes its anchor;
//! its three hands are dealt from positions 1, 2, 3; the match file and each bundle verify
//! with the `replayer` command, and each hand's revealed chain seed hashes to the one
//! before (and the first to the anchor); a fourth hand is refused `409
//! seed_chain_exhausted` until the admin sets a new chain, and the match verifies across
//! the two chains. No chain seed appears in any response or log line before its hand's
//! reveal.
//!
//! Required player signatures: a table that requires them needs a key for every seat; an
//! unsigned action is `422 player_signature_required`, a forged one or one replayed from
//! an earlier seq `422 bad_player_signature`; a hand played with signatures (some made by
//! `replayer sign-action`) verifies, every action counted as player-signed.

use replayer::engine::{Actor, SeatIndex};
use replayer::log::{action_message, Hash, SigningKeyPair};
use replayer::seed_chain::ChainSeed;
use replayer::verify::{verify_value, Options};
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::harness::{ok, problem, replayer, run, write_temp, Env, Store, TestApp};
use crate::play::{choose, next, play_to_end, start_hand, Next, Rng, Table};

fn hex32(s: &str) -> [u8; 32] {
    Hash::from_hex(s).expect("64 hex").0
}

/// The chain seed a finished hand's bundle reveals, with its header.
fn chain_of(bundle: &Value) -> (Value, ChainSeed) {
    let records = bundle["records"].as_array().expect("records");
    let header = records[0]["event"]["body"]["seed_chain"].clone();
    assert!(
        header.is_object(),
        "a chained hand names its chain: {header}"
    );
    let last = &records[records.len() - 1]["event"]["body"];
    let seed = ChainSeed::from_hex(last["chain_seed"].as_str().expect("chain_seed")).unwrap();
    (header, seed)
}

async fn chained_table(app: &TestApp, admin: &str, length: u32) -> (Table, Value) {
    let t = app
        .post(
            "/v1/tables",
            Some(admin),
            json!({"game": "bist-o-yek", "seats": [{"player": "Dariush"}, {"player": "Shirin"}],
                   "client_entropy": false, "seed_chain": {"length": length}}),
        )
        .await;
    ok(&t, StatusCode::CREATED, "create a chained table");
    let chain = t.body["seed_chain"].clone();
    assert_eq!(chain["length"], length, "{chain}");
    assert_eq!(chain["next_position"], 1);
    assert_eq!(chain["remaining"], length);
    assert_eq!(chain["anchor"].as_str().map(str::len), Some(64));
    let table = Table {
        id: t.body["table_id"].as_str().unwrap().to_string(),
        tokens: t.body["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["token"].as_str().unwrap().to_string())
            .collect(),
    };
    (table, chain)
}

/// The verdict of `replayer verify --json --key SERVICE_KEY` on a document.
async fn cli_verdict(app: &TestApp, doc: &Value) -> (i32, Value) {
    let key = app.service_key().await;
    let file = write_temp(doc);
    let path = file.path().display().to_string();
    let (code, out, err) = replayer(&["verify", &path, "--key", &key, "--json"]);
    let v: Value = serde_json::from_str(&out).unwrap_or_else(|_| panic!("{out} {err}"));
    (code, v)
}

async fn seed_chain(env: Env) {
    let app = TestApp::spawn(&env).await;
    let (_, admin) = app.create_club("Kish");
    let (table, chain) = chained_table(&app, &admin, 3).await;
    let anchor = chain["anchor"].as_str().unwrap().to_string();
    let got = app
        .get(&format!("/v1/tables/{}", table.id), Some(&admin))
        .await;
    ok(&got, StatusCode::OK, "get table");
    assert_eq!(
        got.body["seed_chain"], chain,
        "GET shows the anchor as created"
    );

    let mut rng = Rng(12);
    let mut hands = Vec::new();
    // How many responses had been captured when each hand's chain seed was revealed.
    let mut revealed_at = Vec::new();
    for k in 1..=3u64 {
        let h = start_hand(&app, &admin, &table).await;
        assert_eq!(h["seed_chain"]["position"], k, "{h}");
        assert_eq!(h["seed_chain"]["anchor"], anchor.as_str());
        let id = h["hand_id"].as_str().unwrap().to_string();
        let done = play_to_end(&app, &admin, &id, &table.tokens, &mut rng).await;
        assert_ne!(done["status"], "in_progress");
        revealed_at.push(app.captured().len());
        hands.push(id);
    }
    // Used up: a fourth hand waits for a new chain.
    let t = app
        .get(&format!("/v1/tables/{}", table.id), Some(&admin))
        .await;
    assert_eq!(t.body["seed_chain"]["remaining"], 0, "{}", t.text);
    problem(
        &app.post(
            &format!("/v1/tables/{}/hands", table.id),
            Some(&admin),
            json!({}),
        )
        .await,
        StatusCode::CONFLICT,
        "seed_chain_exhausted",
    );

    // The bundles: each verifies on its own (the CLI walks its chain seed to the anchor),
    // and the chain seeds link.
    let mut seeds = Vec::new();
    for (i, id) in hands.iter().enumerate() {
        let b = app
            .get(&format!("/v1/hands/{id}/bundle"), Some(&admin))
            .await;
        ok(&b, StatusCode::OK, "bundle");
        let (code, verdict) = cli_verdict(&app, &b.body).await;
        assert_eq!(code, 0, "{verdict}");
        let (header, c) = chain_of(&b.body);
        assert_eq!(header["position"], i + 1);
        let k = u32::try_from(i + 1).unwrap();
        assert_eq!(c.anchor(k).to_hex(), anchor, "hand {k} walks to the anchor");
        if let Some(prev) = seeds.last() {
            assert_eq!(c.step(k), *prev, "H(c_{k}) = c_{}", k - 1);
        } else {
            assert_eq!(c.step(1).0, hex32(&anchor), "H(c_1) = the anchor");
        }
        seeds.push(c);
    }
    // No chain seed was shown before its hand revealed it: c_2 and c_3 (c_3 is the tail)
    // first appear in the answer that appends their hand's seeds_revealed, after the hand
    // before ended; nor are they in the service's log.
    let captured = app.captured();
    for (i, c) in seeds.iter().enumerate().skip(1) {
        let secret = c.to_hex();
        let first = captured
            .iter()
            .position(|r| r.body.contains(&secret))
            .expect("the chain seed is revealed");
        assert!(
            first >= revealed_at[i - 1] && captured[first].body.contains("seeds_revealed"),
            "chain seed {} first shown in {} {}, not in its hand's reveal",
            i + 1,
            captured[first].method,
            captured[first].path
        );
    }
    let log = app.log();
    for c in &seeds {
        assert!(
            !log.contains(&c.to_hex()),
            "a chain seed in the service's log"
        );
    }

    // A new chain only once the old one is used up, and the match verifies across both.
    problem(
        &app.post(
            &format!("/v1/tables/{}/seed-chain", table.id),
            Some(&admin),
            json!({"length": 0}),
        )
        .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "invalid_table",
    );
    let renewed = app
        .post(
            &format!("/v1/tables/{}/seed-chain", table.id),
            Some(&admin),
            json!({"length": 2}),
        )
        .await;
    ok(&renewed, StatusCode::CREATED, "a new chain");
    assert_eq!(renewed.body["first_hand_no"], 4, "{}", renewed.text);
    assert_ne!(renewed.body["anchor"], anchor.as_str());
    problem(
        &app.post(
            &format!("/v1/tables/{}/seed-chain", table.id),
            Some(&admin),
            json!({"length": 2}),
        )
        .await,
        StatusCode::CONFLICT,
        "seed_chain_in_use",
    );
    let h4 = start_hand(&app, &admin, &table).await;
    assert_eq!(h4["seed_chain"]["position"], 1);
    assert_eq!(h4["seed_chain"]["anchor"], renewed.body["anchor"]);
    let id4 = h4["hand_id"].as_str().unwrap().to_string();
    play_to_end(&app, &admin, &id4, &table.tokens, &mut rng).await;

    let m = app
        .get(&format!("/v1/tables/{}/bundle", table.id), Some(&admin))
        .await;
    ok(&m, StatusCode::OK, "match file");
    assert_eq!(m.body["hands"].as_array().unwrap().len(), 4);
    let (code, verdict) = cli_verdict(&app, &m.body).await;
    assert_eq!(code, 0, "the match verifies across both chains: {verdict}");

    // A match whose link is broken: hand 3 left out and hand 4 renumbered is caught, and
    // so is a chain seed that does not hash to the one before (a bundle re-signed by a
    // forger would fail the signature first; the library's rule is tested in the
    // replayer's own tests).
    let mut gap = m.body.clone();
    gap["hands"].as_array_mut().unwrap().remove(1);
    let (code, verdict) = cli_verdict(&app, &gap).await;
    assert_eq!(code, 1, "{verdict}");

    // A table dealt without a chain cannot begin one.
    let plain = crate::play::create_table(&app, &admin, 2).await;
    problem(
        &app.post(
            &format!("/v1/tables/{}/seed-chain", plain.id),
            Some(&admin),
            json!({"length": 5}),
        )
        .await,
        StatusCode::CONFLICT,
        "no_seed_chain",
    );
    let bad = app
        .post(
            "/v1/tables",
            Some(&admin),
            json!({"game": "bist-o-yek", "seats": [{"player": "A"}, {"player": "B"}],
                   "seed_chain": {"length": 1_000_001}}),
        )
        .await;
    problem(&bad, StatusCode::UNPROCESSABLE_ENTITY, "invalid_table");
}

/// A chained hand running when the service stops is restored from the store by the next
/// process, which deals its further shuffles from the same chain seed and reveals it: the
/// hand verifies and links to the anchor.
async fn restart(env: Env) {
    let mut app = TestApp::spawn(&env).await;
    let (_, admin) = app.create_club("Kish");
    let (table, chain) = chained_table(&app, &admin, 2).await;
    let h = start_hand(&app, &admin, &table).await;
    let hand = h["hand_id"].as_str().unwrap().to_string();
    app.terminate().await;
    let app = TestApp::spawn(&env).await;
    let mut rng = Rng(77);
    let done = play_to_end(&app, &admin, &hand, &table.tokens, &mut rng).await;
    assert_ne!(done["status"], "in_progress");
    let b = app
        .get(&format!("/v1/hands/{hand}/bundle"), Some(&admin))
        .await;
    ok(&b, StatusCode::OK, "bundle");
    let (code, verdict) = cli_verdict(&app, &b.body).await;
    assert_eq!(code, 0, "{verdict}");
    let (_, c) = chain_of(&b.body);
    assert_eq!(c.anchor(1).to_hex(), chain["anchor"].as_str().unwrap());
}

/// The legal actions of the seat to act: (seat, actions, the answer).
async fn seat_to_act(
    app: &TestApp,
    admin: &str,
    hand: &str,
    table: &Table,
) -> Option<(usize, Value)> {
    loop {
        match next(app, admin, hand).await {
            Next::Over(_) => return None,
            Next::Shuffle => {
                let r = app
                    .post(&format!("/v1/hands/{hand}/deal"), Some(admin), json!({}))
                    .await;
                ok(&r, StatusCode::OK, "deal");
            }
            Next::Seat(seat) => {
                let legal = app
                    .get(
                        &format!("/v1/hands/{hand}/legal-actions"),
                        Some(&table.tokens[seat]),
                    )
                    .await;
                ok(&legal, StatusCode::OK, "legal actions");
                assert_eq!(legal.body["signatures_required"], true);
                return Some((seat, legal.body));
            }
        }
    }
}

fn sign(
    key: &SigningKeyPair,
    hand: &str,
    seq: u64,
    head: &str,
    seat: usize,
    action: &Value,
) -> Value {
    let head = Hash::from_hex(head).unwrap();
    let actor = Actor::Seat(SeatIndex(u8::try_from(seat).unwrap()));
    let msg = action_message(hand, seq, &head, actor, action).unwrap();
    json!({"key_id": key.key_id().0, "sig": key.sign(&msg).to_hex()})
}

async fn signatures(env: Env) {
    let app = TestApp::spawn(&env).await;
    let (_, admin) = app.create_club("Kish");
    let keys: Vec<SigningKeyPair> = (0..2u8)
        .map(|i| SigningKeyPair::from_secret([40 + i; 32]))
        .collect();
    let stranger = SigningKeyPair::from_secret([99; 32]);

    let missing = app
        .post(
            "/v1/tables",
            Some(&admin),
            json!({"game": "bist-o-yek", "signatures": "required", "client_entropy": false,
                   "seats": [{"player": "Roya", "public_key": keys[0].public().to_hex()}, {"player": "Kaveh"}]}),
        )
        .await;
    problem(
        &missing,
        StatusCode::UNPROCESSABLE_ENTITY,
        "public_key_required",
    );
    assert_eq!(
        missing.body["field"], "seats[1].public_key",
        "{}",
        missing.text
    );

    // A key file for seat 1, made by `replayer keygen`, for `replayer sign-action`.
    let dir = tempfile::tempdir().unwrap();
    let key_file = dir.path().join("seat1.key");
    let key_path = key_file.display().to_string();
    let (code, out, err) = replayer(&["keygen", "--out", &key_path, "--json"]);
    assert_eq!(code, 0, "{out} {err}");
    let made: Value = serde_json::from_str(&out).unwrap();
    let (code, _, _) = replayer(&["keygen", "--out", &key_path]);
    assert_eq!(code, 2, "keygen never overwrites a key file");
    let seat1 =
        SigningKeyPair::from_secret(hex32(std::fs::read_to_string(&key_file).unwrap().trim()));
    assert_eq!(made["public_key"], seat1.public().to_hex());
    let keys = [keys[0].public(), seat1.public()];
    let signers = [SigningKeyPair::from_secret([40; 32]), seat1];

    let t = app
        .post(
            "/v1/tables",
            Some(&admin),
            json!({"game": "bist-o-yek", "signatures": "required", "client_entropy": false,
                   "seats": [{"player": "Roya", "public_key": keys[0].to_hex()},
                             {"player": "Kaveh", "public_key": keys[1].to_hex()}]}),
        )
        .await;
    ok(&t, StatusCode::CREATED, "a table that requires signatures");
    assert_eq!(t.body["signatures"], "required");
    let table = Table {
        id: t.body["table_id"].as_str().unwrap().to_string(),
        tokens: t.body["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["token"].as_str().unwrap().to_string())
            .collect(),
    };
    let h = start_hand(&app, &admin, &table).await;
    assert_eq!(h["signatures_required"], true);
    let hand = h["hand_id"].as_str().unwrap().to_string();
    let path = format!("/v1/hands/{hand}/actions");

    let (seat, legal) = seat_to_act(&app, &admin, &hand, &table)
        .await
        .expect("a seat acts");
    let mut rng = Rng(5);
    let action = choose(legal["legal_actions"].as_array().unwrap(), &mut rng);
    let seq = legal["next_seq"].as_u64().unwrap();
    let head = legal["head"].as_str().unwrap().to_string();
    let token = &table.tokens[seat];

    problem(
        &app.post(
            &path,
            Some(token),
            json!({"action": action, "expected_seq": seq}),
        )
        .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "player_signature_required",
    );
    // Forged: signed by another key under the seat's key id.
    let mut forged = sign(&stranger, &hand, seq, &head, seat, &action);
    forged["key_id"] = json!(signers[seat].key_id().0);
    problem(
        &app.post(
            &path,
            Some(token),
            json!({"action": action, "expected_seq": seq, "player_sig": forged}),
        )
        .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "bad_player_signature",
    );
    let good = sign(&signers[seat], &hand, seq, &head, seat, &action);
    let r = app
        .post(
            &path,
            Some(token),
            json!({"action": action, "expected_seq": seq, "player_sig": good}),
        )
        .await;
    ok(&r, StatusCode::OK, "a signed action");
    let first = (seat, action.clone());
    let mut signed = 1;

    // The rest of the hand: the seat whose signature was just accepted tries it again at
    // the next seq (a replay), then signs properly; seat 1 signs with `replayer
    // sign-action --from` the legal-actions answer.
    let mut replayed = false;
    while let Some((seat, legal)) = seat_to_act(&app, &admin, &hand, &table).await {
        let action = choose(legal["legal_actions"].as_array().unwrap(), &mut rng);
        let seq = legal["next_seq"].as_u64().unwrap();
        let token = &table.tokens[seat];
        if !replayed {
            // The first action and its valid signature, sent again as this seq's event.
            replayed = true;
            problem(
                &app.post(
                    &path,
                    Some(&table.tokens[first.0]),
                    json!({"action": first.1, "expected_seq": seq, "player_sig": good}),
                )
                .await,
                StatusCode::UNPROCESSABLE_ENTITY,
                "bad_player_signature",
            );
        }
        let body = if seat == 1 {
            let state = write_temp(&legal);
            let action_text = action.to_string();
            let (code, out, err) = replayer(&[
                "sign-action",
                "--key",
                &key_path,
                "--seat",
                "1",
                "--from",
                &state.path().display().to_string(),
                "--action",
                &action_text,
                "--body",
            ]);
            assert_eq!(code, 0, "sign-action: {out} {err}");
            serde_json::from_str::<Value>(out.trim()).unwrap()
        } else {
            let head = legal["head"].as_str().unwrap();
            json!({"action": action, "expected_seq": seq,
                   "player_sig": sign(&signers[seat], &hand, seq, head, seat, &action)})
        };
        let r = app.post(&path, Some(token), body).await;
        ok(&r, StatusCode::OK, "signed action");
        signed += 1;
    }
    assert!(
        replayed,
        "the hand had a second action to replay a signature on"
    );

    let b = app
        .get(&format!("/v1/hands/{hand}/bundle"), Some(&admin))
        .await;
    ok(&b, StatusCode::OK, "bundle");
    let records = b.body["records"].as_array().unwrap();
    assert_eq!(
        records[0]["event"]["body"]["player_signatures"], "required",
        "the header says signatures are required"
    );
    let verdict = verify_value(b.body.clone(), &Options::default()).expect("readable");
    assert!(verdict.valid, "{:?}", verdict.problem);
    assert_eq!(verdict.player_signatures, signed);
    let (code, v) = cli_verdict(&app, &b.body).await;
    assert_eq!(code, 0, "{v}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_seed_chain_links_hands_to_the_anchor() {
    run(Store::Pg, seed_chain).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn embedded_seed_chain_links_hands_to_the_anchor() {
    run(Store::Embedded, seed_chain).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_required_signatures_refuse_unsigned_forged_and_replayed_actions() {
    run(Store::Pg, signatures).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn embedded_required_signatures_refuse_unsigned_forged_and_replayed_actions() {
    run(Store::Embedded, signatures).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_chained_hand_goes_on_after_a_restart() {
    run(Store::Pg, restart).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn embedded_chained_hand_goes_on_after_a_restart() {
    run(Store::Embedded, restart).await;
}
