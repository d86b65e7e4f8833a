//! Crashes at chosen moments (the random ones are `ops/crash.sh`'s).
//!
//! On a table without client entropy whose game shuffles as soon as a hand starts (Hokm
//! draws for the hakem), starting a hand writes `hand_started`, the shuffle and the
//! deal. These used to be two commits (the hand with its first event, then the shuffle
//! events with the idempotency record); a crash between them left a hand waiting for a
//! shuffle nobody was told to ask for, and a retry of the start with the same
//! `Idempotency-Key` was told `409 hand_in_progress` instead of getting its answer
//! (found by `ops/crash.sh`). A start is now one commit; this test makes that commit
//! fail where the second one used to begin.

use reqwest::StatusCode;
use serde_json::json;

use crate::harness::{ok, run, Store, TestApp};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_a_hand_start_that_deals_is_one_commit() {
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

        // Writing the shuffle's first event fails, as if the process had died there.
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

        // Nothing of the failed start is left: no hand in progress at the table.
        let hands = app
            .get(&format!("/v1/hands?table_id={table}"), Some(&admin))
            .await;
        ok(&hands, StatusCode::OK, "history");
        assert_eq!(
            hands.body["hands"].as_array().map(Vec::len),
            Some(0),
            "a failed start left a hand: {}",
            hands.text
        );

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
