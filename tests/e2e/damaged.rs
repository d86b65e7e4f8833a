//! Damaged hands (issue 10, point 3): a hand whose stored log fails verification (a row
//! inserted into its log behind the service's back, or its sealed server seed swapped for
//! another hand's) answers `409 hand_damaged` naming the event and the rule, never a 500
//! and never a seed; the club admin quarantines it (recorded, shown by `GET`, history and
//! `audit-service audit`), and the table goes on: its next hand links to the last hand that
//! verifies and starts from the match state that hand left, and the table's match file,
//! which lists the quarantined hand, verifies with `replayer verify`. The same for a
//! finished hand damaged afterwards; and a quarantine forged in the database (a healthy
//! hand's row marked quarantined) is a finding of the audit.

use std::process::Command;

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::harness::{
    ok, problem, problem_at, replayer, run, verify_bundle, write_temp, Env, Store, TestApp, BIN,
};
use crate::play::{create_table, hand_ended, play_to_end, start_hand, step, Rng, Table};

/// How the running hand is damaged.
#[derive(Clone, Copy, Debug)]
enum Damage {
    /// A copy of its last event inserted as the next one (seq bumped, hash left as it
    /// was): the hash no longer holds at that event.
    InsertedRow,
    /// Its sealed server seed of shuffle 0 replaced by hand 1's: it no longer unseals as
    /// this hand's.
    SwappedSeed,
}

/// Runs SQL on the test's store behind the service's back (PostgreSQL text, `?1`-style
/// parameters rewritten for SQLite by the caller).
pub(crate) async fn behind_the_back(env: &Env, app: &TestApp, pg: String, sqlite: String) {
    if env.db_url.is_some() {
        let db = env.pg().await;
        db.batch_execute(&pg).await.expect("edit the store");
        return;
    }
    let path = app.data_dir.join("dealer.db");
    tokio::task::spawn_blocking(move || {
        let db = rusqlite::Connection::open(&path).expect("open dealer.db");
        db.busy_timeout(std::time::Duration::from_secs(10)).unwrap();
        db.execute_batch(&sqlite).expect("edit the store");
    })
    .await
    .expect("sqlite edit");
}

/// Damages `hand` (whose log has `events` events); `other` is a finished hand of the same
/// club. Returns the seq the damage is found at and the rule it breaks.
async fn damage(
    env: &Env,
    app: &TestApp,
    how: Damage,
    hand: &str,
    other: &str,
    events: u64,
) -> (u64, &'static str) {
    match how {
        Damage::InsertedRow => {
            let last = events - 1;
            behind_the_back(
                env,
                app,
                format!(
                    "INSERT INTO events (club_id, hand_id, seq, kind, hash, prev_hash, record, created_ms) \
                     SELECT club_id, hand_id, seq + 1, kind, hash, prev_hash, \
                            jsonb_set(record, '{{event,seq}}', to_jsonb(seq + 1)), created_ms \
                     FROM events WHERE hand_id = '{hand}' AND seq = {last}"
                ),
                format!(
                    "INSERT INTO events (club_id, hand_id, seq, kind, hash, prev_hash, record, created_ms) \
                     SELECT club_id, hand_id, seq + 1, kind, hash, prev_hash, \
                            json_set(record, '$.event.seq', seq + 1), created_ms \
                     FROM events WHERE hand_id = '{hand}' AND seq = {last}"
                ),
            )
            .await;
            (events, "hash")
        }
        Damage::SwappedSeed => {
            let sql = format!(
                "UPDATE hand_secrets SET sealed = \
                   (SELECT o.sealed FROM hand_secrets o WHERE o.hand_id = '{other}' AND o.shuffle = 0) \
                 WHERE hand_id = '{hand}' AND shuffle = 0"
            );
            behind_the_back(env, app, sql.clone(), sql).await;
            // Shuffle 0 is committed by the hand's first event.
            (0, "sealed_seed")
        }
    }
}

/// `409 hand_damaged` naming `seq` and `rule`, and no seed of the hand in the answer.
fn damaged(r: &crate::harness::Res, seq: u64, rule: &str, what: &str) {
    problem_at(r, StatusCode::CONFLICT, "hand_damaged", what);
    assert_eq!(r.body["seq"], seq, "{what}: {}", r.text);
    assert_eq!(r.body["rule"], rule, "{what}: {}", r.text);
    let detail = r.body["detail"].as_str().unwrap_or("");
    assert!(
        detail.contains(&format!("event {seq}")) && detail.contains(rule),
        "{what}: the detail names the event and the rule: {}",
        r.text
    );
    // Nothing that looks like a seed, a hash or sealed bytes: no run of 64 hex digits.
    let mut run = 0;
    for c in r.text.chars() {
        run = if c.is_ascii_hexdigit() { run + 1 } else { 0 };
        assert!(run < 64, "{what}: 64 hex digits in the answer: {}", r.text);
    }
}

/// Runs `audit --club CLUB` on the test's store: (exit code, stdout).
fn audit(env: &Env, club: &str, extra: &[&str]) -> (i32, String) {
    let out = Command::new(BIN)
        .args(["audit", "--club", club])
        .args(extra)
        .args(env.store_flags())
        .env("RUST_LOG", "warn")
        .env_remove("DATABASE_URL")
        .env_remove("AUDIT_DATA_DIR")
        .env_remove("AUDIT_KEY_FILE")
        .output()
        .expect("run audit-service audit");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).expect("utf-8"),
    )
}

/// The quarantined hand as an answer shows it.
fn quarantined(body: &Value, hand: &str, admin_id: &str, seq: u64, rule: &str, what: &str) {
    assert_eq!(body["hand_id"], hand, "{what}: {body}");
    assert_eq!(body["status"], "quarantined", "{what}: {body}");
    let q = &body["quarantine"];
    assert_eq!(
        q["reason"], "the log was edited behind our back",
        "{what}: {body}"
    );
    assert_eq!(q["by"], admin_id, "{what}: {body}");
    assert!(
        q["quarantined_ms"].as_i64().is_some_and(|t| t > 0),
        "{what}: {body}"
    );
    assert_eq!(q["seq"], seq, "{what}: {body}");
    assert_eq!(q["rule"], rule, "{what}: {body}");
}

/// Scenario: hand 1 is played to its end; hand 2 is started and played a few steps, found
/// healthy by quarantine (`409 hand_not_damaged`), then damaged behind the service's back
/// and the service restarted (nothing of the hand left in memory). Its `GET`, abandon,
/// legal actions, replay and bundle answer `409 hand_damaged`, and the audit fails. The
/// seats and an auditor may not quarantine it; the admin does; it shows as quarantined in
/// `GET`, history and the audit (which then passes). Hand 3 starts from hand 1's end,
/// links to hand 1, plays to its end, and the match file of hands 1 and 3 with hand 2
/// listed as quarantined verifies.
async fn damaged_hand_is_quarantined(env: Env, how: Damage) {
    let app = TestApp::spawn(&env).await;
    let (club, admin) = app.create_club("Bam");
    let auditor = app.add_auditor_cli(&club);
    let table: Table = create_table(&app, &admin, 3).await;
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let me = app.get("/v1/me", Some(&admin)).await;
    ok(&me, StatusCode::OK, "me");
    let admin_id = me.body["id"].as_str().expect("id").to_string();

    let h1 = start_hand(&app, &admin, &table).await;
    let hand1 = h1["hand_id"].as_str().unwrap().to_string();
    let done = play_to_end(&app, &admin, &hand1, &table.tokens, &mut rng).await;
    assert_eq!(done["status"], "completed", "{done}");
    let bundle1 = verify_bundle(&app, &admin, &hand1).await;
    let records1 = bundle1["records"].as_array().unwrap();
    let last1 = records1[records1.len() - 1]["hash"].clone();
    let left1 = hand_ended(&bundle1)["next_match"].clone();

    let h2 = start_hand(&app, &admin, &table).await;
    let hand2 = h2["hand_id"].as_str().unwrap().to_string();
    for _ in 0..3 {
        assert!(
            step(&app, &admin, &hand2, &table.tokens, &mut rng)
                .await
                .is_none(),
            "hand 2 should still be in progress"
        );
    }
    let reason = json!({"reason": "the log was edited behind our back"});
    let healthy = app
        .post(
            &format!("/v1/hands/{hand2}/quarantine"),
            Some(&admin),
            reason.clone(),
        )
        .await;
    problem(&healthy, StatusCode::CONFLICT, "hand_not_damaged");
    let before = app.get(&format!("/v1/hands/{hand2}"), Some(&admin)).await;
    ok(&before, StatusCode::OK, "hand 2 before the damage");
    let events = before.body["next_seq"].as_u64().expect("next_seq");

    let (seq, rule) = damage(&env, &app, how, &hand2, &hand1, events).await;
    drop(app);
    let app = TestApp::spawn(&env).await;

    // (a), (b): every read or write that rebuilds the hand says what is wrong, never 500.
    let get = app.get(&format!("/v1/hands/{hand2}"), Some(&admin)).await;
    damaged(&get, seq, rule, "GET of the damaged hand");
    let seat = app
        .get(&format!("/v1/hands/{hand2}"), Some(&table.tokens[0]))
        .await;
    damaged(&seat, seq, rule, "a seat's GET of the damaged hand");
    let legal = app
        .get(
            &format!("/v1/hands/{hand2}/legal-actions"),
            Some(&table.tokens[1]),
        )
        .await;
    damaged(&legal, seq, rule, "legal actions of the damaged hand");
    let abandon = app
        .post(
            &format!("/v1/hands/{hand2}/abandon"),
            Some(&admin),
            json!({"reason": "cannot go on"}),
        )
        .await;
    damaged(&abandon, seq, rule, "abandon of the damaged hand");
    let bundle = app
        .get(&format!("/v1/hands/{hand2}/bundle"), Some(&admin))
        .await;
    damaged(&bundle, seq, rule, "bundle of the damaged hand");
    let started = app
        .post(
            &format!("/v1/tables/{}/hands", table.id),
            Some(&admin),
            json!({}),
        )
        .await;
    problem(&started, StatusCode::CONFLICT, "hand_in_progress");
    // The events themselves are served as stored: they are the evidence.
    let ev = app
        .get(
            &format!("/v1/hands/{hand2}/events?limit=1000"),
            Some(&admin),
        )
        .await;
    ok(&ev, StatusCode::OK, "events of the damaged hand");

    // An unquarantined damaged hand fails the audit.
    let (code, out) = audit(&env, &club, &[]);
    assert_eq!(code, 1, "a damaged hand fails the audit: {out}");
    assert!(
        out.lines()
            .any(|l| l.starts_with("INVALID") && l.contains(&hand2)),
        "{out}"
    );

    // (c) Only the club admin quarantines, with a reason.
    for (token, status, who) in [
        (&table.tokens[0], StatusCode::FORBIDDEN, "a seat"),
        (&auditor, StatusCode::FORBIDDEN, "an auditor"),
    ] {
        let r = app
            .post(
                &format!("/v1/hands/{hand2}/quarantine"),
                Some(token),
                reason.clone(),
            )
            .await;
        assert_eq!(r.status, status, "{who}: {}", r.text);
    }
    let no_reason = app
        .post(
            &format!("/v1/hands/{hand2}/quarantine"),
            Some(&admin),
            json!({}),
        )
        .await;
    problem(&no_reason, StatusCode::BAD_REQUEST, "invalid_json");
    let blank = app
        .post(
            &format!("/v1/hands/{hand2}/quarantine"),
            Some(&admin),
            json!({"reason": "  "}),
        )
        .await;
    problem(&blank, StatusCode::BAD_REQUEST, "invalid_name");
    let long = app
        .post(
            &format!("/v1/hands/{hand2}/quarantine"),
            Some(&admin),
            json!({"reason": "x".repeat(501)}),
        )
        .await;
    problem(&long, StatusCode::BAD_REQUEST, "invalid_name");
    let older = app
        .post(
            &format!("/v1/hands/{hand1}/quarantine"),
            Some(&admin),
            reason.clone(),
        )
        .await;
    problem(&older, StatusCode::CONFLICT, "hand_not_latest");

    let q = app
        .post(
            &format!("/v1/hands/{hand2}/quarantine"),
            Some(&admin),
            reason.clone(),
        )
        .await;
    ok(&q, StatusCode::OK, "quarantine");
    quarantined(
        &q.body,
        &hand2,
        &admin_id,
        seq,
        rule,
        "the quarantine's answer",
    );
    let again = app
        .post(
            &format!("/v1/hands/{hand2}/quarantine"),
            Some(&admin),
            reason.clone(),
        )
        .await;
    problem(&again, StatusCode::CONFLICT, "hand_quarantined");

    // Shown by GET (admin, seat and auditor alike), history and its status filter.
    for (token, who) in [
        (&admin, "admin"),
        (&table.tokens[2], "seat"),
        (&auditor, "auditor"),
    ] {
        let g = app.get(&format!("/v1/hands/{hand2}"), Some(token)).await;
        ok(
            &g,
            StatusCode::OK,
            &format!("GET of the quarantined hand ({who})"),
        );
        quarantined(&g.body, &hand2, &admin_id, seq, rule, who);
    }
    let b = app
        .get(&format!("/v1/hands/{hand2}/bundle"), Some(&admin))
        .await;
    problem(&b, StatusCode::CONFLICT, "hand_quarantined");
    let ab = app
        .post(
            &format!("/v1/hands/{hand2}/abandon"),
            Some(&admin),
            json!({"reason": "too late"}),
        )
        .await;
    problem(&ab, StatusCode::CONFLICT, "hand_quarantined");
    for token in [&admin, &auditor] {
        let list = app.get("/v1/hands?status=quarantined", Some(token)).await;
        ok(&list, StatusCode::OK, "history of quarantined hands");
        let hands = list.body["hands"].as_array().unwrap();
        assert_eq!(hands.len(), 1, "{}", list.text);
        quarantined(&hands[0], &hand2, &admin_id, seq, rule, "history");
    }
    let all = app
        .get(&format!("/v1/hands?table_id={}", table.id), Some(&admin))
        .await;
    ok(&all, StatusCode::OK, "history");
    let statuses: Vec<&str> = all.body["hands"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["status"].as_str().unwrap())
        .collect();
    assert_eq!(statuses, ["quarantined", "completed"], "{}", all.text);

    // The audit lists it, and passes: a recorded quarantine is not a new finding.
    let (code, out) = audit(&env, &club, &[]);
    assert_eq!(
        code, 0,
        "a quarantined hand is listed, not a failure: {out}"
    );
    let line = out
        .lines()
        .find(|l| l.starts_with("QUARANTINED"))
        .unwrap_or_else(|| panic!("the quarantined hand is listed: {out}"));
    assert!(
        line.contains(&hand2) && line.contains(rule) && line.contains("the log was edited"),
        "{line}"
    );
    assert!(
        out.trim_end()
            .ends_with("audited 1 tables, 2 hands: 0 problems, 1 quarantined"),
        "{out}"
    );
    let (code, out) = audit(&env, &club, &["--json"]);
    assert_eq!(code, 0, "{out}");
    let v: Value = serde_json::from_str(&out).expect("audit --json");
    assert_eq!(v["problems"], json!([]), "{v}");
    assert_eq!(v["quarantined"][0]["hand"], hand2.as_str(), "{v}");
    assert_eq!(v["quarantined"][0]["rule"], rule, "{v}");

    // (d) The table goes on from hand 1's end.
    let h3 = start_hand(&app, &admin, &table).await;
    let hand3 = h3["hand_id"].as_str().unwrap().to_string();
    assert_eq!(h3["hand_no"], 3);
    let first = &h3["events"][0]["event"]["body"];
    assert_eq!(
        first["prev_hand"],
        json!({"hand": hand1, "hash": last1}),
        "hand 3 links to the last hand that verifies"
    );
    assert_eq!(
        first["match_state"], left1,
        "hand 3 starts where hand 1 ended"
    );
    let done = play_to_end(&app, &admin, &hand3, &table.tokens, &mut rng).await;
    assert_eq!(done["status"], "completed", "{done}");
    verify_bundle(&app, &admin, &hand3).await;

    let m = app
        .get(&format!("/v1/tables/{}/bundle", table.id), Some(&auditor))
        .await;
    ok(&m, StatusCode::OK, "match file");
    assert_eq!(
        m.body["version"], 2,
        "a match with a quarantined hand is version 2"
    );
    let ids: Vec<&str> = m.body["hands"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["hand"].as_str().unwrap())
        .collect();
    assert_eq!(ids, [hand1.as_str(), hand3.as_str()], "{}", m.text);
    assert_eq!(
        m.body["quarantined"][0]["hand"],
        hand2.as_str(),
        "{}",
        m.text
    );
    assert_eq!(m.body["quarantined"][0]["hand_no"], 2, "{}", m.text);
    let key = app.service_key().await;
    let file = write_temp(&m.body);
    let path = file.path().display().to_string();
    let (code, out, err) = replayer(&["verify", &path, "--key", &key]);
    assert_eq!(code, 0, "replayer verify of the match: {out} {err}");
    assert!(
        out.contains("quarantined"),
        "the verdict names the quarantined hand: {out}"
    );
    let (code, _) = audit(&env, &club, &[]);
    assert_eq!(code, 0, "the club audits clean after hand 3");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_hand_with_an_inserted_row_is_quarantined() {
    run(Store::Pg, |env| {
        damaged_hand_is_quarantined(env, Damage::InsertedRow)
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn embedded_hand_with_an_inserted_row_is_quarantined() {
    run(Store::Embedded, |env| {
        damaged_hand_is_quarantined(env, Damage::InsertedRow)
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_hand_with_a_swapped_seed_is_quarantined() {
    run(Store::Pg, |env| {
        damaged_hand_is_quarantined(env, Damage::SwappedSeed)
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn embedded_hand_with_a_swapped_seed_is_quarantined() {
    run(Store::Embedded, |env| {
        damaged_hand_is_quarantined(env, Damage::SwappedSeed)
    })
    .await;
}

/// Scenario: a finished hand damaged afterwards. Hands 1 and 2 are played to their ends;
/// one event of hand 2 is edited in the database (the triggers that keep events
/// append-only set aside, as only the database's owner could). Its `GET` is `409
/// hand_damaged` at that event (its bundle is still served as stored: it is the
/// evidence), and the admin quarantines it: the table's match state goes back to the one
/// hand 1 left, hand 3 starts from it and links to hand 1, and the match file verifies.
async fn finished_damaged_hand_is_quarantined(env: Env) {
    let app = TestApp::spawn(&env).await;
    let (club, admin) = app.create_club("Tabas");
    let table = create_table(&app, &admin, 3).await;
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut bundles = Vec::new();
    let mut ids = Vec::new();
    for _ in 0..2 {
        let h = start_hand(&app, &admin, &table).await;
        let id = h["hand_id"].as_str().unwrap().to_string();
        let done = play_to_end(&app, &admin, &id, &table.tokens, &mut rng).await;
        assert_eq!(done["status"], "completed", "{done}");
        bundles.push(verify_bundle(&app, &admin, &id).await);
        ids.push(id);
    }
    let (hand1, hand2) = (&ids[0], &ids[1]);
    let records1 = bundles[0]["records"].as_array().unwrap();
    let last1 = records1[records1.len() - 1]["hash"].clone();
    let left1 = hand_ended(&bundles[0])["next_match"].clone();
    let t = app
        .get(&format!("/v1/tables/{}", table.id), Some(&admin))
        .await;
    assert_eq!(
        t.body["match_state"],
        hand_ended(&bundles[1])["next_match"],
        "the table carries hand 2's end"
    );

    let seq = 2;
    behind_the_back(
        &env,
        &app,
        format!(
            "ALTER TABLE events DISABLE TRIGGER USER; \
             UPDATE events SET record = jsonb_set(record, '{{event,time_ms}}', '1') \
             WHERE hand_id = '{hand2}' AND seq = {seq}; \
             ALTER TABLE events ENABLE TRIGGER USER"
        ),
        format!(
            "DROP TRIGGER IF EXISTS events_no_update; \
             UPDATE events SET record = json_set(record, '$.event.time_ms', 1) \
             WHERE hand_id = '{hand2}' AND seq = {seq}"
        ),
    )
    .await;

    let get = app.get(&format!("/v1/hands/{hand2}"), Some(&admin)).await;
    damaged(&get, seq, "hash", "GET of the damaged finished hand");
    let b = app
        .get(&format!("/v1/hands/{hand2}/bundle"), Some(&admin))
        .await;
    ok(&b, StatusCode::OK, "the damaged hand's bundle, as stored");
    let v = app.post("/v1/verify", None, b.body.clone()).await;
    assert_eq!(v.body["valid"], false, "{}", v.text);
    assert_eq!(v.body["problem"]["event"], seq, "{}", v.text);

    let q = app
        .post(
            &format!("/v1/hands/{hand2}/quarantine"),
            Some(&admin),
            json!({"reason": "the log was edited behind our back"}),
        )
        .await;
    ok(&q, StatusCode::OK, "quarantine of a finished hand");
    assert_eq!(q.body["status"], "quarantined", "{}", q.text);
    assert_eq!(q.body["quarantine"]["seq"], seq, "{}", q.text);
    let t = app
        .get(&format!("/v1/tables/{}", table.id), Some(&admin))
        .await;
    assert_eq!(
        t.body["match_state"], left1,
        "the table's match state is hand 1's end again"
    );
    let sb = app
        .get(&format!("/v1/tables/{}/scoreboard", table.id), Some(&admin))
        .await;
    ok(&sb, StatusCode::OK, "scoreboard");
    assert_eq!(
        (&sb.body["completed"], &sb.body["quarantined"]),
        (&json!(1), &json!(1)),
        "{}",
        sb.text
    );

    let h3 = start_hand(&app, &admin, &table).await;
    let hand3 = h3["hand_id"].as_str().unwrap().to_string();
    let first = &h3["events"][0]["event"]["body"];
    assert_eq!(first["prev_hand"], json!({"hand": hand1, "hash": last1}));
    assert_eq!(first["match_state"], left1);
    let done = play_to_end(&app, &admin, &hand3, &table.tokens, &mut rng).await;
    assert_eq!(done["status"], "completed", "{done}");
    let m = app
        .get(&format!("/v1/tables/{}/bundle", table.id), Some(&admin))
        .await;
    ok(&m, StatusCode::OK, "match file");
    let key = app.service_key().await;
    let file = write_temp(&m.body);
    let path = file.path().display().to_string();
    let (code, out, err) = replayer(&["verify", &path, "--key", &key]);
    assert_eq!(code, 0, "replayer verify of the match: {out} {err}");
    let (code, out) = audit(&env, &club, &[]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains(&format!("QUARANTINED table {} hand {hand2}", table.id)),
        "{out}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_finished_damaged_hand_is_quarantined() {
    run(Store::Pg, finished_damaged_hand_is_quarantined).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn embedded_finished_damaged_hand_is_quarantined() {
    run(Store::Embedded, finished_damaged_hand_is_quarantined).await;
}

/// Scenario: a row added past a finished hand's end behind the service's back (a copy of
/// its reveal as the next event). The hand's recorded end does not move: replaying past
/// it is refused as past the hand's last event. Every read of the whole log, `GET`, the
/// replay's default (last) step and the replay's steps, answers `409 hand_damaged` at the
/// added row, on both stores (the default replay step was shown as healthy: it restored
/// the hand only up to its recorded end), and the audit fails. The table's next hand
/// links to the signed reveal the hand was ended with, as it does for every finished hand
/// (its start reads only its predecessor's sealed end).
async fn a_row_past_a_finished_end_is_damage(env: Env) {
    let app = TestApp::spawn(&env).await;
    let (club, admin) = app.create_club("Kashan");
    let table = create_table(&app, &admin, 3).await;
    let mut rng = Rng(0x6a09_e667_f3bc_c908);
    let h = start_hand(&app, &admin, &table).await;
    let hand = h["hand_id"].as_str().unwrap().to_string();
    let done = play_to_end(&app, &admin, &hand, &table.tokens, &mut rng).await;
    assert_eq!(done["status"], "completed", "{done}");
    let bundle = verify_bundle(&app, &admin, &hand).await;
    let records = bundle["records"].as_array().unwrap();
    let events = u64::try_from(records.len()).unwrap();
    let reveal = records[records.len() - 1]["hash"].clone();

    let (seq, rule) = damage(&env, &app, Damage::InsertedRow, &hand, "", events).await;
    assert_eq!(seq, events);
    let get = app.get(&format!("/v1/hands/{hand}"), Some(&admin)).await;
    damaged(&get, seq, rule, "GET of the hand");
    let replay = app
        .get(&format!("/v1/hands/{hand}/replay"), Some(&admin))
        .await;
    damaged(&replay, seq, rule, "the replay's last step");
    let steps = app
        .get(
            &format!("/v1/hands/{hand}/replay/steps?from=0"),
            Some(&admin),
        )
        .await;
    damaged(&steps, seq, rule, "the replay's steps");
    let past = app
        .get(&format!("/v1/hands/{hand}/replay?step={seq}"), Some(&admin))
        .await;
    problem_at(
        &past,
        StatusCode::BAD_REQUEST,
        "invalid_query",
        "a step past the recorded end",
    );
    assert!(
        past.text
            .contains(&format!("past the hand's last event ({})", events - 1)),
        "{}",
        past.text
    );
    let (code, out) = audit(&env, &club, &[]);
    assert_eq!(code, 1, "a damaged hand fails the audit: {out}");
    assert!(
        out.lines()
            .any(|l| l.starts_with("INVALID") && l.contains(&hand)),
        "{out}"
    );

    let next = start_hand(&app, &admin, &table).await;
    assert_eq!(
        next["events"][0]["event"]["body"]["prev_hand"],
        json!({"hand": hand, "hash": reveal}),
        "the next hand links to the reveal the hand was ended with"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_a_row_past_a_finished_end_is_damage() {
    run(Store::Pg, a_row_past_a_finished_end_is_damage).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn embedded_a_row_past_a_finished_end_is_damage() {
    run(Store::Embedded, a_row_past_a_finished_end_is_damage).await;
}

/// Scenario: a healthy hand's row marked quarantined in the database behind the service's
/// back (to drop a hand from its match). The service never quarantines a hand whose log
/// verifies, so the audit names it (`MISMATCH`, exit 1) besides listing it.
async fn forged_quarantine_is_a_finding(env: Env) {
    let app = TestApp::spawn(&env).await;
    let (club, admin) = app.create_club("Nain");
    let table = create_table(&app, &admin, 3).await;
    let mut rng = Rng(0x3c6e_f372_fe94_f82b);
    let h = start_hand(&app, &admin, &table).await;
    let hand = h["hand_id"].as_str().unwrap().to_string();
    let done = play_to_end(&app, &admin, &hand, &table.tokens, &mut rng).await;
    assert_eq!(done["status"], "completed", "{done}");
    let record =
        r#"{"reason": "forged", "quarantined_ms": 1, "by": "nobody", "seq": 0, "rule": "hash"}"#;
    behind_the_back(
        &env,
        &app,
        format!(
            "UPDATE hands SET status = 'quarantined', quarantine = '{record}'::jsonb \
             WHERE hand_id = '{hand}'"
        ),
        format!(
            "UPDATE hands SET status = 'quarantined', quarantine = '{record}' \
             WHERE hand_id = '{hand}'"
        ),
    )
    .await;
    let (code, out) = audit(&env, &club, &[]);
    assert_eq!(
        code, 1,
        "a quarantine of a healthy hand is a finding: {out}"
    );
    assert!(
        out.lines().any(|l| l.starts_with("MISMATCH")
            && l.contains(&hand)
            && l.contains("its stored log verifies")),
        "{out}"
    );
    assert!(
        out.contains(&format!("QUARANTINED table {} hand {hand}", table.id)),
        "{out}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_forged_quarantine_is_a_finding() {
    run(Store::Pg, forged_quarantine_is_a_finding).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn embedded_forged_quarantine_is_a_finding() {
    run(Store::Embedded, forged_quarantine_is_a_finding).await;
}

/// The checks the other tests do not reach, each named in its answer: a running hand whose
/// sealed seed was deleted (`missing_seed` at the event that committed to it), and a
/// finished hand whose reveal was deleted (`seeds_revealed` at the seq it should have;
/// it was `server_seed` at the first deal, which the fold could not make without it); a
/// quarantine sent twice with one `Idempotency-Key` gets the recorded answer again; and
/// quarantining a table's first hand puts the table back to the match's initial state
/// (that was a 500: the initial state was computed from the stored setup as a whole,
/// entropy settings included), so the next hand starts afresh.
async fn every_damage_names_its_check(env: Env) {
    let app = TestApp::spawn(&env).await;
    let (_club, admin) = app.create_club("Yazd");
    let mut rng = Rng(0x5851_f42d_4c95_7f2d);

    // A finished hand, then its reveal deleted.
    let t1 = create_table(&app, &admin, 2).await;
    let h = start_hand(&app, &admin, &t1).await;
    let finished = h["hand_id"].as_str().unwrap().to_string();
    let done = play_to_end(&app, &admin, &finished, &t1.tokens, &mut rng).await;
    assert_eq!(done["status"], "completed", "{done}");
    let bundle = verify_bundle(&app, &admin, &finished).await;
    let last = bundle["records"].as_array().unwrap().len() as u64 - 1;
    assert_eq!(
        bundle["records"][last as usize]["event"]["body"]["type"],
        "seeds_revealed"
    );

    // A running hand of another table, then its sealed seed of shuffle 0 deleted.
    let t2 = create_table(&app, &admin, 3).await;
    let h = start_hand(&app, &admin, &t2).await;
    let running = h["hand_id"].as_str().unwrap().to_string();
    assert!(step(&app, &admin, &running, &t2.tokens, &mut rng)
        .await
        .is_none());

    behind_the_back(
        &env,
        &app,
        format!(
            "ALTER TABLE events DISABLE TRIGGER USER; \
             DELETE FROM events WHERE hand_id = '{finished}' AND seq = {last}; \
             ALTER TABLE events ENABLE TRIGGER USER; \
             DELETE FROM hand_secrets WHERE hand_id = '{running}' AND shuffle = 0"
        ),
        format!(
            "DROP TRIGGER IF EXISTS events_no_delete; \
             DELETE FROM events WHERE hand_id = '{finished}' AND seq = {last}; \
             DELETE FROM hand_secrets WHERE hand_id = '{running}' AND shuffle = 0"
        ),
    )
    .await;
    drop(app);
    let app = TestApp::spawn(&env).await;

    let get = app
        .get(&format!("/v1/hands/{finished}"), Some(&admin))
        .await;
    damaged(
        &get,
        last,
        "seeds_revealed",
        "a finished hand without its reveal",
    );
    let get = app.get(&format!("/v1/hands/{running}"), Some(&admin)).await;
    damaged(
        &get,
        0,
        "missing_seed",
        "a running hand without its sealed seed",
    );

    let path = format!("/v1/hands/{running}/quarantine");
    let body = json!({"reason": "the log was edited behind our back"});
    let first = app
        .post_idem(&path, Some(&admin), body.clone(), "quarantine-1")
        .await;
    ok(&first, StatusCode::OK, "quarantine");
    assert_eq!(
        first.body["quarantine"]["rule"], "missing_seed",
        "{}",
        first.text
    );
    let again = app
        .post_idem(&path, Some(&admin), body.clone(), "quarantine-1")
        .await;
    ok(&again, StatusCode::OK, "the same quarantine sent again");
    assert_eq!(again.body, first.body, "the recorded answer, not a new one");
    let other = app
        .post_idem(&path, Some(&admin), body, "quarantine-2")
        .await;
    problem(&other, StatusCode::CONFLICT, "hand_quarantined");
    let next = start_hand(&app, &admin, &t2).await;
    let first = &next["events"][0]["event"]["body"];
    assert!(first["prev_hand"].is_null(), "{first}");
    assert_eq!(
        first["match_state"],
        h["events"][0]["event"]["body"]["match_state"]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_every_damage_names_its_check() {
    run(Store::Pg, every_damage_names_its_check).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn embedded_every_damage_names_its_check() {
    run(Store::Embedded, every_damage_names_its_check).await;
}
