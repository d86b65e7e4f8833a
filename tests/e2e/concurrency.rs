//! Scenario 4: concurrent writers on one hand. Racing submits with the same
//! `expected_seq` give exactly one success; retries with one `Idempotency-Key`
//! (sequential and concurrent) never write twice; the chain stays linear and verifies.

use std::sync::Arc;

use reqwest::StatusCode;
use serde_json::{json, Value};
use tokio::sync::Barrier;

use crate::harness::{
    hand_state, ok, problem, random_hex, run, verify_bundle, Env, Res, Store, TestApp,
};
use crate::play::{create_table, legal, next, play_to_end, start_hand, step, Next, Rng};

const N: usize = 8;

/// Sends `N` copies of one POST at once (released together by a barrier).
async fn race(
    app: &Arc<TestApp>,
    path: &str,
    token: &str,
    body: Value,
    idem: Option<&str>,
) -> Vec<Res> {
    let barrier = Arc::new(Barrier::new(N));
    let mut tasks = Vec::new();
    for _ in 0..N {
        let (app, barrier, path, token, body) = (
            app.clone(),
            barrier.clone(),
            path.to_string(),
            token.to_string(),
            body.clone(),
        );
        let idem = idem.map(str::to_string);
        tasks.push(tokio::spawn(async move {
            barrier.wait().await;
            let bytes = serde_json::to_vec(&body).unwrap();
            app.call(
                reqwest::Method::POST,
                &path,
                Some(&token),
                Some(bytes),
                idem.as_deref(),
            )
            .await
        }));
    }
    let mut out = Vec::new();
    for t in tasks {
        out.push(t.await.expect("task"));
    }
    out
}

/// Exactly one success among racing submits with one expected_seq; the others are
/// `409 seq_conflict` (or `422 illegal_action` when the state moved on first).
fn one_winner(results: &[Res], what: &str) -> Res {
    let statuses: Vec<u16> = results.iter().map(|r| r.status.as_u16()).collect();
    eprintln!("{what}: statuses {statuses:?}");
    let winners: Vec<&Res> = results
        .iter()
        .filter(|r| r.status == StatusCode::OK)
        .collect();
    assert_eq!(
        winners.len(),
        1,
        "{what}: exactly one success, got {:?}",
        results
            .iter()
            .map(|r| (r.status, &r.text))
            .collect::<Vec<_>>()
    );
    for r in results.iter().filter(|r| r.status != StatusCode::OK) {
        match r.status {
            StatusCode::CONFLICT => problem(r, StatusCode::CONFLICT, "seq_conflict"),
            StatusCode::UNPROCESSABLE_ENTITY => {
                problem(r, StatusCode::UNPROCESSABLE_ENTITY, "illegal_action")
            }
            _ => panic!("{what}: unexpected loser {} {}", r.status, r.text),
        }
    }
    winners[0].clone()
}

async fn concurrency(env: Env) {
    let app = Arc::new(TestApp::spawn(&env).await);
    let (_, admin) = app.create_club("Kish");
    let table = create_table(&app, &admin, 3).await;
    let tokens = table.tokens.clone();
    let h = start_hand(&app, &admin, &table).await;
    let hand = h["hand_id"].as_str().unwrap().to_string();
    let actions = format!("/v1/hands/{hand}/actions");
    let entropy = format!("/v1/hands/{hand}/entropy");

    // 1. N seats' worth of the same accept_bank with the same expected_seq.
    let candidate = h["to_act"]["actors"][0]["seat"].as_u64().unwrap() as usize;
    let before = hand_state(&app, &admin, &hand).await;
    let results = race(
        &app,
        &actions,
        &tokens[candidate],
        json!({"action": {"type": "accept_bank"}, "expected_seq": before.0}),
        None,
    )
    .await;
    let win = one_winner(&results, "accept_bank race");
    let after = hand_state(&app, &admin, &hand).await;
    let written = win.body["events"].as_array().unwrap().len();
    assert!(written >= 1);
    assert_eq!(after.1, before.1 + written, "one write only");
    for r in results.iter().filter(|r| r.status == StatusCode::CONFLICT) {
        assert_eq!(r.body["next_seq"], after.0, "{}", r.text);
    }
    assert!(
        !win.body["to_act"]["shuffle_pending"].is_null(),
        "{}",
        win.text
    );

    // 2. Sequential retries with one Idempotency-Key: the same answer, one write.
    let before = hand_state(&app, &admin, &hand).await;
    let body0 = json!({"seed": random_hex(16)});
    let first = app
        .post_idem(&entropy, Some(&tokens[0]), body0.clone(), "seed-0")
        .await;
    ok(&first, StatusCode::OK, "entropy");
    assert!(first.replayed.is_none(), "the first answer is not a replay");
    for _ in 0..3 {
        let again = app
            .post_idem(&entropy, Some(&tokens[0]), body0.clone(), "seed-0")
            .await;
        assert_eq!(again.status, first.status);
        assert_eq!(again.body, first.body, "the recorded answer again");
        assert_eq!(again.replayed.as_deref(), Some("true"));
    }
    assert_eq!(hand_state(&app, &admin, &hand).await.1, before.1 + 1);
    // Without the key a retry is a new request: already contributed, nothing written.
    let r = app.post(&entropy, Some(&tokens[0]), body0.clone()).await;
    problem(&r, StatusCode::CONFLICT, "already_contributed");
    // The same key with another body or another path: refused, nothing written.
    let r = app
        .post_idem(
            &entropy,
            Some(&tokens[0]),
            json!({"seed": random_hex(16)}),
            "seed-0",
        )
        .await;
    problem(
        &r,
        StatusCode::UNPROCESSABLE_ENTITY,
        "idempotency_key_reused",
    );
    let r = app
        .post_idem(
            &format!("/v1/hands/{hand}/deal"),
            Some(&tokens[0]),
            json!({}),
            "seed-0",
        )
        .await;
    problem(
        &r,
        StatusCode::UNPROCESSABLE_ENTITY,
        "idempotency_key_reused",
    );
    assert_eq!(hand_state(&app, &admin, &hand).await.1, before.1 + 1);

    // 3. Concurrent retries with one key: one write, every answer the same (or
    //    idempotency_in_flight, to be retried).
    let before = hand_state(&app, &admin, &hand).await;
    let body1 = json!({"seed": random_hex(16)});
    let results = race(&app, &entropy, &tokens[1], body1.clone(), Some("seed-1")).await;
    let oks: Vec<&Res> = results
        .iter()
        .filter(|r| r.status == StatusCode::OK)
        .collect();
    assert!(!oks.is_empty(), "someone wrote");
    for r in &results {
        if r.status == StatusCode::OK {
            assert_eq!(r.body, oks[0].body, "every answer is the recorded one");
        } else {
            problem(r, StatusCode::CONFLICT, "idempotency_in_flight");
        }
    }
    assert_eq!(
        oks.iter().filter(|r| r.replayed.is_none()).count(),
        1,
        "exactly one answer is original"
    );
    assert_eq!(hand_state(&app, &admin, &hand).await.1, before.1 + 1);
    let replay = app
        .post_idem(&entropy, Some(&tokens[1]), body1, "seed-1")
        .await;
    assert_eq!(replay.body, oks[0].body);

    // The key is scoped to its caller: seat 2 may use "seed-1" for its own request.
    let before = hand_state(&app, &admin, &hand).await;
    let r = app
        .post_idem(
            &entropy,
            Some(&tokens[2]),
            json!({"seed": random_hex(16)}),
            "seed-1",
        )
        .await;
    ok(&r, StatusCode::OK, "another caller, the same key");
    assert!(r.replayed.is_none());
    let types: Vec<&str> = r.body["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["event"]["body"]["type"].as_str())
        .collect();
    assert_eq!(types[0], "client_seed", "{types:?}");
    assert!(
        types.contains(&"shuffled"),
        "the last seed shuffles: {types:?}"
    );
    assert_eq!(
        hand_state(&app, &admin, &hand).await.1,
        before.1 + types.len()
    );

    // 4. A racing action with one Idempotency-Key and one expected_seq.
    let mut rng = Rng(0x0bad_cafe_dead_beef);
    let seat = loop {
        match next(&app, &admin, &hand).await {
            Next::Seat(s) => break s,
            Next::Over(h) => panic!("over too soon: {h}"),
            Next::Shuffle => {
                step(&app, &admin, &hand, &tokens, &mut rng).await;
            }
        }
    };
    let (seq, acts) = legal(&app, &hand, &tokens[seat]).await;
    let action = crate::play::choose(&acts, &mut rng);
    let before = hand_state(&app, &admin, &hand).await;
    let body = json!({"action": action, "expected_seq": seq});
    let results = race(&app, &actions, &tokens[seat], body.clone(), Some("act-1")).await;
    let oks: Vec<&Res> = results
        .iter()
        .filter(|r| r.status == StatusCode::OK)
        .collect();
    assert!(!oks.is_empty());
    for r in &results {
        if r.status == StatusCode::OK {
            assert_eq!(r.body, oks[0].body);
        } else {
            // A request that lost the race before the key was recorded may see the
            // moved hand; the documented answer is in-flight.
            problem(r, StatusCode::CONFLICT, "idempotency_in_flight");
        }
    }
    let written = oks[0].body["events"].as_array().unwrap().len();
    assert_eq!(hand_state(&app, &admin, &hand).await.1, before.1 + written);

    // 5. A race without keys at the next step too, then the hand to its end.
    if let Next::Seat(seat) = next(&app, &admin, &hand).await {
        let (seq, acts) = legal(&app, &hand, &tokens[seat]).await;
        let action = crate::play::choose(&acts, &mut rng);
        let before = hand_state(&app, &admin, &hand).await;
        let results = race(
            &app,
            &actions,
            &tokens[seat],
            json!({"action": action, "expected_seq": seq}),
            None,
        )
        .await;
        let win = one_winner(&results, "action race");
        let n = win.body["events"].as_array().unwrap().len();
        assert_eq!(hand_state(&app, &admin, &hand).await.1, before.1 + n);
    }
    let done = play_to_end(&app, &admin, &hand, &tokens, &mut rng).await;
    assert_eq!(done["status"], "completed");
    let bundle = verify_bundle(&app, &admin, &hand).await;
    let seeds0: Vec<&Value> = bundle["records"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| &r["event"]["body"])
        .filter(|b| b["type"] == "client_seed" && b["shuffle"] == 0)
        .collect();
    assert_eq!(seeds0.len(), 3, "one client seed per seat for shuffle 0");
    let accepts = bundle["records"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["event"]["body"]["action"]["type"] == "accept_bank")
        .count();
    assert_eq!(accepts, 1, "the accept_bank race wrote once");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_concurrent_writers() {
    run(Store::Pg, concurrency).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn embedded_concurrent_writers() {
    run(Store::Embedded, concurrency).await;
}

/// Two service processes on one database play one hand in turns, each request within a
/// second of the last (the life of a cached hand row, `HAND_ROW_TTL`): every step's
/// legal actions are read where the last write was made, and the action is sent to the
/// other process, which last saw the hand a step or more before. An action naming the
/// seq the other process left goes through (the cache is passed by), and so does one
/// naming none (tried again on the stored row); the hand stays one chain and verifies.
async fn two_processes(env: Env) {
    let a = TestApp::spawn(&env).await;
    let b = TestApp::spawn(&env).await;
    let (_, admin) = a.create_club("Tabas");
    let table = create_table(&a, &admin, 3).await;
    let h = start_hand(&a, &admin, &table).await;
    let hand = h["hand_id"].as_str().unwrap().to_string();
    let apps = [&a, &b];
    let mut rng = Rng(11);
    let mut last = 0usize;
    let (mut with_seq, mut without_seq) = (0, 0);
    let mut over = None;
    for n in 0..3000usize {
        let at = n % 2;
        let app = apps[at];
        // Whose turn, asked where the hand was last written: a read at `app` would
        // bring its copy of the hand up to date.
        match next(apps[last], &admin, &hand).await {
            Next::Over(h) => {
                over = Some(h);
                break;
            }
            Next::Shuffle => {
                crate::play::add_entropy(app, &admin, &hand, &table.tokens).await;
            }
            Next::Seat(seat) => {
                // Read where the hand was last written: that process holds it as stored.
                let (seq, actions) = legal(apps[last], &hand, &table.tokens[seat]).await;
                let action = crate::play::choose(&actions, &mut rng);
                let body = if n % 4 < 2 {
                    with_seq += 1;
                    json!({"action": action, "expected_seq": seq})
                } else {
                    without_seq += 1;
                    json!({"action": action})
                };
                let r = app
                    .post(
                        &format!("/v1/hands/{hand}/actions"),
                        Some(&table.tokens[seat]),
                        body,
                    )
                    .await;
                ok(&r, StatusCode::OK, "an action at the other process");
                assert_eq!(r.body["events"][0]["event"]["seq"], seq, "{}", r.text);
            }
        }
        last = at;
    }
    let h = over.expect("the hand ended");
    assert_eq!(h["status"], "completed", "{h}");
    assert!(
        with_seq > 0 && without_seq > 0,
        "{with_seq} / {without_seq}"
    );
    verify_bundle(&a, &admin, &hand).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_two_processes_play_one_hand() {
    run(Store::Pg, two_processes).await;
}
