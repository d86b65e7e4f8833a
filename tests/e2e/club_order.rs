//! The club-wide order on PostgreSQL (`club_log`): the service's sequencer gives every
//! event of a hand played over HTTP its place in the background, and a graceful stop
//! orders what the last requests wrote. Gids stay contiguous from 0 throughout.

use std::time::{Duration, Instant};

use crate::harness::{run, Env, Store, TestApp};
use crate::play::{create_table, play_to_end, start_hand, Rng};

/// (events stored, events ordered), after checking that the gids ordered so far are
/// 0, 1, 2 ... with no gap and name distinct, existing events.
async fn counts(env: &Env) -> (i64, i64) {
    let db = env.pg().await;
    let events: i64 = db
        .query_one("SELECT count(*) FROM events", &[])
        .await
        .expect("count events")
        .get(0);
    let row = db
        .query_one(
            "SELECT count(*), COALESCE(max(gid) + 1, 0), count(e.seq) \
             FROM club_log l LEFT JOIN events e \
             ON e.club_id = l.club_id AND e.hand_id = l.hand_id AND e.seq = l.seq",
            &[],
        )
        .await
        .expect("read club_log");
    let (ordered, next, found): (i64, i64, i64) = (row.get(0), row.get(1), row.get(2));
    assert_eq!(ordered, next, "gids contiguous from 0");
    assert_eq!(found, ordered, "every ordered event exists");
    (events, ordered)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_sequencer_orders_played_hands() {
    run(Store::Pg, |env| async move {
        let mut app = TestApp::spawn(&env).await;
        let (_club, admin) = app.create_club("Club order");
        let table = create_table(&app, &admin, 3).await;
        let mut rng = Rng(0x5eed_0dd5);
        let h = start_hand(&app, &admin, &table).await;
        let hand = h["hand_id"].as_str().expect("hand_id").to_string();
        play_to_end(&app, &admin, &hand, &table.tokens, &mut rng).await;

        // In the background: within a few sequencer periods all of it is ordered.
        let deadline = Instant::now() + Duration::from_secs(15);
        let played = loop {
            let (events, ordered) = counts(&env).await;
            if events > 0 && ordered == events {
                break events;
            }
            assert!(
                Instant::now() < deadline,
                "{ordered} of {events} events ordered after 15 s"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        };
        // This process's sequencer did it, and says so.
        let m = app.get("/metrics", None).await;
        let counted = m
            .text
            .lines()
            .find_map(|l| l.strip_prefix("club_order_events_total "))
            .unwrap_or_else(|| panic!("no club_order_events_total:\n{}", m.text));
        assert_eq!(counted.trim(), played.to_string());
        assert!(
            m.text.contains("sequencer_pass_seconds_count"),
            "{}",
            m.text
        );

        // The next hand's first events, then a graceful stop: nothing is left unordered.
        start_hand(&app, &admin, &table).await;
        let (events_before_stop, _) = counts(&env).await;
        app.terminate().await;
        let (events, ordered) = counts(&env).await;
        assert_eq!(events, events_before_stop);
        assert_eq!(ordered, events, "the stop orders the last writes");
        assert!(
            app.log().contains("stopped"),
            "graceful stop: {}",
            app.log()
        );
    })
    .await
}
