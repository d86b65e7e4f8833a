//! Scenario 5: tampering with the stored log. PostgreSQL refuses UPDATE, DELETE and
//! TRUNCATE on `events` (append-only triggers); a superuser who disables the triggers and
//! edits one event of a finished hand is caught by verification at exactly that event.
//! The embedded store's triggers refuse UPDATE and DELETE too.

mod records;

use reqwest::StatusCode;
use serde_json::json;

use crate::harness::{ok, replayer, run, verify_bundle, write_temp, Env, Store, TestApp};
use crate::play::{create_table, play_to_end, start_hand, Rng};

fn refused<T: std::fmt::Debug>(what: &str, r: Result<T, tokio_postgres::Error>) {
    match r {
        Ok(v) => panic!("{what} was accepted: {v:?}"),
        Err(e) => {
            let msg = e
                .as_db_error()
                .map(|d| d.message().to_string())
                .unwrap_or_else(|| e.to_string());
            assert!(msg.contains("append-only"), "{what}: {msg}");
        }
    }
}

async fn tamper_pg(env: Env) {
    let app = TestApp::spawn(&env).await;
    let (_, admin) = app.create_club("Kish");
    let table = create_table(&app, &admin, 3).await;
    let h = start_hand(&app, &admin, &table).await;
    let hand = h["hand_id"].as_str().unwrap().to_string();
    let mut rng = Rng(0x7777_1111_3333_5555);
    play_to_end(&app, &admin, &hand, &table.tokens, &mut rng).await;
    let bundle = verify_bundle(&app, &admin, &hand).await;
    let (seq, amount) = bundle["records"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| &r["event"])
        .find(|e| e["body"]["type"] == "action" && e["body"]["action"]["type"] == "bet")
        .map(|e| {
            (
                e["seq"].as_i64().unwrap(),
                e["body"]["action"]["amount"].as_i64().unwrap(),
            )
        })
        .expect("a bet in the hand");

    let db = env.pg().await;
    let n_before: i64 = db
        .query_one("SELECT count(*) FROM events WHERE hand_id = $1", &[&hand])
        .await
        .unwrap()
        .get(0);
    refused(
        "UPDATE events",
        db.execute(
            "UPDATE events SET record = jsonb_set(record, '{event,body,action,amount}', to_jsonb($3::bigint)) \
             WHERE hand_id = $1 AND seq = $2",
            &[&hand, &seq, &(amount + 1)],
        )
        .await,
    );
    refused(
        "DELETE FROM events",
        db.execute("DELETE FROM events WHERE hand_id = $1", &[&hand])
            .await,
    );
    refused("TRUNCATE events", db.batch_execute("TRUNCATE events").await);
    let n_after: i64 = db
        .query_one("SELECT count(*) FROM events WHERE hand_id = $1", &[&hand])
        .await
        .unwrap()
        .get(0);
    assert_eq!(n_after, n_before);
    verify_bundle(&app, &admin, &hand).await;

    // A superuser turns the triggers off, changes one bet, and turns them on again.
    db.batch_execute("ALTER TABLE events DISABLE TRIGGER USER")
        .await
        .expect("disable triggers");
    let changed = db
        .execute(
            "UPDATE events SET record = jsonb_set(record, '{event,body,action,amount}', to_jsonb($3::bigint)) \
             WHERE hand_id = $1 AND seq = $2",
            &[&hand, &seq, &(amount + 1)],
        )
        .await
        .expect("update with the triggers off");
    assert_eq!(changed, 1);
    db.batch_execute("ALTER TABLE events ENABLE TRIGGER USER")
        .await
        .expect("enable triggers");
    refused(
        "UPDATE events once the triggers are back",
        db.execute("UPDATE events SET kind = kind WHERE hand_id = $1", &[&hand])
            .await,
    );

    let b = app
        .get(&format!("/v1/hands/{hand}/bundle"), Some(&admin))
        .await;
    ok(&b, StatusCode::OK, "the tampered hand's bundle");
    let rec = &b.body["records"][usize::try_from(seq).unwrap()]["event"];
    assert_eq!(
        rec["body"]["action"]["amount"],
        json!(amount + 1),
        "the bundle carries the edited record"
    );
    let v = app.post("/v1/verify", None, b.body.clone()).await;
    ok(&v, StatusCode::OK, "verify");
    assert_eq!(v.body["valid"], false, "{}", v.text);
    assert_eq!(v.body["problem"]["event"], seq, "{}", v.text);
    assert_eq!(v.body["problem"]["rule"], "hash", "{}", v.text);
    let key = app.service_key().await;
    let file = write_temp(&b.body);
    let path = file.path().display().to_string();
    let (code, out, err) = replayer(&["verify", &path, "--key", &key]);
    assert_eq!(code, 1, "replayer verify of a tampered bundle: {out} {err}");
    let (code, out, _) = replayer(&["verify", &path, "--key", &key, "--json"]);
    assert_eq!(code, 1);
    let verdict: serde_json::Value = serde_json::from_str(&out).expect("verify --json");
    assert_eq!(verdict["problem"]["event"], seq, "{out}");
}

async fn tamper_embedded(env: Env) {
    let app = TestApp::spawn(&env).await;
    let (_, admin) = app.create_club("Kish");
    let table = create_table(&app, &admin, 2).await;
    let h = start_hand(&app, &admin, &table).await;
    let hand = h["hand_id"].as_str().unwrap().to_string();
    let db_path = app.data_dir.join("dealer.db");
    let hand2 = hand.clone();
    tokio::task::spawn_blocking(move || {
        let db = rusqlite::Connection::open(&db_path).expect("open dealer.db");
        db.busy_timeout(std::time::Duration::from_secs(10)).unwrap();
        let count = |db: &rusqlite::Connection| -> i64 {
            db.query_row(
                "SELECT count(*) FROM events WHERE hand_id = ?1",
                [&hand2],
                |r| r.get(0),
            )
            .unwrap()
        };
        let before = count(&db);
        assert!(before >= 1);
        for sql in [
            "UPDATE events SET record = json_set(record, '$.event.time_ms', 0) WHERE hand_id = ?1",
            "UPDATE events SET kind = kind WHERE hand_id = ?1",
            "DELETE FROM events WHERE hand_id = ?1",
        ] {
            let e = db
                .execute(sql, [&hand2])
                .expect_err(&format!("{sql} must be refused"));
            assert!(e.to_string().contains("append-only"), "{sql}: {e}");
        }
        assert_eq!(count(&db), before);
    })
    .await
    .expect("sqlite checks");
    // The service still reads and writes the hand.
    let r = app
        .get(&format!("/v1/hands/{hand}/events"), Some(&admin))
        .await;
    ok(&r, StatusCode::OK, "events");
    let ab = app
        .post(
            &format!("/v1/hands/{hand}/abandon"),
            Some(&admin),
            json!({"reason": "tamper test over"}),
        )
        .await;
    ok(&ab, StatusCode::OK, "abandon");
    verify_bundle(&app, &admin, &hand).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_tampering_is_refused_then_detected() {
    run(Store::Pg, tamper_pg).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn embedded_events_are_append_only() {
    run(Store::Embedded, tamper_embedded).await;
}
