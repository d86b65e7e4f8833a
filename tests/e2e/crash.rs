//! Crashes at chosen moments (the random ones are `ops/crash.sh`'s).
//!
//! Known gap, ignored until it is fixed (docs/DURABILITY.md, "Known gap"): on a table
//! without client entropy whose game shuffles as soon as a hand starts (Hokm draws for
//! the hakem), starting a hand is two commits: the hand with its first event, then the
//! shuffle events with the idempotency record. A crash between them leaves a hand that
//! waits for a shuffle nobody is told to ask for, and a retry of the start with the same
//! `Idempotency-Key` is told `409 hand_in_progress` instead of getting its answer.

use reqwest::StatusCode;
use serde_json::json;

use crate::harness::{ok, run, Store, TestApp};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "known gap: a hand start is two commits on a table without client entropy (docs/DURABILITY.md)"]
async fn pg_a_crash_between_the_two_commits_of_a_hand_start() {
    run(Store::Pg, |env| async move {
        let app = TestApp::spawn(&env).await;
        let (_, admin) = app.create_club("Kish");
        let seats: Vec<_> = ["Dariush", "Shirin", "Babak", "Roya"]
            .iter()
            .map(|p| json!({"player": p}))
            .collect();
        let t = app
            .post(
                "/v1/tables",
                Some(&admin),
                json!({"game": "hokm", "client_entropy": false, "seats": seats}),
            )
            .await;
        ok(&t, StatusCode::CREATED, "create table");
        let table = t.body["table_id"].as_str().unwrap().to_string();
        let path = format!("/v1/tables/{table}/hands");

        // The second commit fails, as if the process had died just before it.
        let pg = env.pg().await;
        pg.batch_execute(
            "CREATE FUNCTION crash_here() RETURNS trigger LANGUAGE plpgsql AS \
             $$ BEGIN RAISE EXCEPTION 'the process died here'; END $$; \
             CREATE TRIGGER crash_here BEFORE INSERT ON events FOR EACH ROW \
             WHEN (NEW.seq = 1) EXECUTE FUNCTION crash_here();",
        )
        .await
        .unwrap();
        let first = app
            .post_idem(&path, Some(&admin), json!({}), "start-1")
            .await;
        assert_eq!(
            first.status,
            StatusCode::INTERNAL_SERVER_ERROR,
            "{}",
            first.text
        );
        pg.batch_execute("DROP TRIGGER crash_here ON events")
            .await
            .unwrap();
        drop(app); // kill -9
        let app = TestApp::spawn(&env).await;

        // The client retries its start with the same key: it must get the start's
        // answer (recorded or run now), not a refusal.
        let again = app
            .post_idem(&path, Some(&admin), json!({}), "start-1")
            .await;
        assert_eq!(
            again.status,
            StatusCode::CREATED,
            "the retried start: {}",
            again.text
        );
        // And the hand moves on without a deal nobody is told to make: someone may act.
        let hand = again.body["hand_id"].as_str().unwrap();
        let h = app.get(&format!("/v1/hands/{hand}"), Some(&admin)).await;
        ok(&h, StatusCode::OK, "hand");
        assert!(
            h.body["to_act"]["shuffle_pending"].is_null(),
            "the hand waits for a shuffle: {}",
            h.body["to_act"]
        );
    })
    .await;
}
