//! Reads off the primary (`--read-database-url`): a finished hand's reads are served by
//! the hot standby, and a write is never missing from a read that follows it, even with
//! the standby's replay paused (the read goes to the primary, and `/metrics` shows it
//! and the lag).
//!
//! The standby is the one `ops/test.sh` starts (`DATABASE_URL_READ_ADMIN`, else the
//! port it uses, 127.0.0.1:5433). Without one this test fails, as the PostgreSQL tests
//! do without PostgreSQL: run `ops/test.sh` once (it leaves the standby running for
//! later `cargo test` runs), or set `STANDBY_OPTIONAL=1` to let it pass without one.

use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::json;
use tokio_postgres::NoTls;

use crate::harness::{ok, read_admin_url, run, standby_url, Env, Store, TestApp};
use crate::play::{create_table, play_to_end, start_hand, step, Rng, Table};

/// The standby `ops/test.sh` starts, when `DATABASE_URL_READ_ADMIN` is not set.
const DEFAULT_READ_ADMIN_URL: &str = "postgres://postgres@127.0.0.1:5433/postgres";

/// A sample of `/metrics`: `name` (with its labels, as printed), or 0 when absent.
async fn metric(app: &TestApp, name: &str) -> i64 {
    let r = app.get("/metrics", None).await;
    ok(&r, StatusCode::OK, "metrics");
    r.text
        .lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' '))
        .map_or(0, |v| v.trim().parse::<f64>().expect("a number") as i64)
}

async fn routed(app: &TestApp, target: &str) -> i64 {
    metric(app, &format!("read_routed_total{{target=\"{target}\"}}")).await
}

/// Repeats `read` until the standby has served one more read, for up to 20 s (other
/// tests write to the same cluster, so the standby may be a moment behind at times).
async fn until_standby_serves<F, Fut>(app: &TestApp, mut read: F)
where
    F: FnMut() -> Fut,
    Fut: Future<Output = ()>,
{
    let before = routed(app, "standby").await;
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        read().await;
        if routed(app, "standby").await > before {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "no read went to the standby in 20 s; log: {}",
            app.log()
        );
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
}

async fn connect(url: &str) -> tokio_postgres::Client {
    let (client, conn) = tokio_postgres::connect(url, NoTls)
        .await
        .unwrap_or_else(|e| panic!("connect to {url}: {e}"));
    tokio::spawn(conn);
    client
}

async fn reads_off_the_standby(mut env: Env, read_admin: String) {
    if env.read_url.is_none() {
        let db = env.db_url.as_deref().expect("a PostgreSQL test");
        let name = db.rsplit('/').next().unwrap_or_default();
        let name = name.split('?').next().unwrap_or_default().to_string();
        env.read_url = Some(standby_url(&read_admin, &name).await);
    }
    let standby = Arc::new(connect(env.read_url.as_deref().unwrap()).await);
    let app = Arc::new(TestApp::spawn(&env).await);
    let (_club, admin) = app.create_club("Tabriz");
    let table = create_table(&app, &admin, 3).await;
    let mut rng = Rng(0x5eed_0f5a_7e00);

    // A finished hand: its detail, events, replay, bundle and the history are read off
    // the standby once it has caught up.
    let h = start_hand(&app, &admin, &table).await;
    let first = h["hand_id"].as_str().unwrap().to_string();
    let done = play_to_end(&app, &admin, &first, &table.tokens, &mut rng).await;
    assert_eq!(done["status"], "completed", "{done}");
    for path in [
        format!("/v1/hands/{first}"),
        format!("/v1/hands/{first}/events"),
        format!("/v1/hands/{first}/replay?step=3"),
        format!("/v1/hands/{first}/bundle"),
        "/v1/hands".to_string(),
    ] {
        until_standby_serves(&app, || async {
            ok(&app.get(&path, Some(&admin)).await, StatusCode::OK, &path);
        })
        .await;
    }
    assert_eq!(metric(&app, "standby_up").await, 1);

    // Replay paused: the standby holds still while the primary moves on.
    standby
        .batch_execute("SELECT pg_wal_replay_pause()")
        .await
        .expect("pause replay");
    // In a task of its own, so that replay is resumed even when an assertion fails.
    let outcome = {
        let (app, standby) = (Arc::clone(&app), Arc::clone(&standby));
        let (admin, table_id, tokens) = (admin.clone(), table.id.clone(), table.tokens.clone());
        tokio::spawn(async move {
            let (app, standby) = (app.as_ref(), standby.as_ref());
            let table = &Table {
                id: table_id,
                tokens,
            };
            let rng = &mut Rng(0x0ddb_a110);
            let primary_before = routed(app, "primary").await;
            let h = start_hand(app, &admin, table).await;
            let second = h["hand_id"].as_str().unwrap().to_string();
            step(app, &admin, &second, &table.tokens, rng).await;
            let r = app
                .post(
                    &format!("/v1/hands/{second}/abandon"),
                    Some(&admin),
                    json!({"reason": "the standby is paused"}),
                )
                .await;
            ok(&r, StatusCode::OK, "abandon");
            // The standby has not seen the hand ...
            let on_standby: i64 = standby
                .query_one("SELECT count(*) FROM hands WHERE hand_id = $1", &[&second])
                .await
                .expect("query the standby")
                .get(0);
            assert_eq!(
                on_standby, 0,
                "replay is paused: the standby must be behind"
            );
            // ... yet every read right after the write has it.
            let list = app.get("/v1/hands", Some(&admin)).await;
            ok(&list, StatusCode::OK, "history");
            let newest = &list.body["hands"][0];
            assert_eq!(newest["hand_id"], second.as_str(), "{}", list.text);
            assert_eq!(newest["status"], "abandoned", "{}", list.text);
            let b = app
                .get(&format!("/v1/hands/{second}/bundle"), Some(&admin))
                .await;
            ok(&b, StatusCode::OK, "bundle of the hand just abandoned");
            let d = app.get(&format!("/v1/hands/{second}"), Some(&admin)).await;
            ok(&d, StatusCode::OK, "detail of the hand just abandoned");
            assert_eq!(d.body["status"], "abandoned", "{}", d.text);
            assert!(
                routed(app, "primary").await >= primary_before + 3,
                "the reads behind a paused standby go to the primary"
            );
            assert!(
                metric(app, "standby_replay_lag_bytes").await > 0,
                "the lag shows in /metrics"
            );
            second
        })
    };
    let outcome = outcome.await;
    // Resumed whatever happened: other tests share the standby.
    standby
        .batch_execute("SELECT pg_wal_replay_resume()")
        .await
        .expect("resume replay");
    let second = match outcome {
        Ok(second) => second,
        Err(e) => std::panic::resume_unwind(e.into_panic()),
    };

    // Caught up again: the standby serves the new hand's reads.
    until_standby_serves(&app, || async {
        let b = app
            .get(&format!("/v1/hands/{second}/bundle"), Some(&admin))
            .await;
        ok(&b, StatusCode::OK, "bundle");
    })
    .await;
    let deadline = Instant::now() + Duration::from_secs(20);
    while metric(&app, "standby_replay_lag_bytes").await != 0 {
        // Other tests' writes may keep it just above 0 at times: it only has to get
        // there once.
        assert!(Instant::now() < deadline, "the standby did not catch up");
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_reads_go_to_the_standby_and_never_miss_a_write() {
    let read_admin = read_admin_url().unwrap_or_else(|| DEFAULT_READ_ADMIN_URL.to_string());
    if let Err(e) = tokio_postgres::connect(&read_admin, NoTls).await {
        if std::env::var("STANDBY_OPTIONAL").as_deref() == Ok("1") {
            eprintln!("no standby at {read_admin} ({e}); STANDBY_OPTIONAL=1: not tested");
            return;
        }
        panic!(
            "a hot standby must be reachable for this test (DATABASE_URL_READ_ADMIN=\
             {read_admin}): {e}; ops/test.sh starts one, STANDBY_OPTIONAL=1 skips this test"
        );
    }
    run(Store::Pg, move |env| reads_off_the_standby(env, read_admin)).await;
}
