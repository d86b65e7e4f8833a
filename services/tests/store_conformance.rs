//! One conformance suite for every `Store`: each behaviour is a plain async fn over a
//! [`Harness`], run once against PostgreSQL (`pg::<name>`) and once against SQLite
//! (`sqlite::<name>`).
//!
//! PostgreSQL tests each create a fresh database `t_<random hex>` through
//! `DATABASE_URL_ADMIN` (default `postgres://postgres@127.0.0.1:5432/postgres`), migrate
//! it, and drop it at the end. They fail, never skip, when PostgreSQL is unreachable.
//! SQLite tests use a fresh temporary folder.

use std::collections::{HashMap, HashSet};
use std::future::Future;
use std::path::PathBuf;
use std::sync::Arc;

use serde_json::json;
use services::store::{
    sequence_all, ApiKeyRow, AppendRequest, ClubLeafRow, ClubRow, DisputeEntryRow, DisputeFilter,
    DisputeRow, EventRow, HandFilter, HandRow, HandStatus, HandUpdate, IdemRow, InputRow, KeyRole,
    OfficialRow, PgStore, Quarantine, QuarantineRequest, RulingAppend, SeatRow, SecretRow,
    SeedChainRow, SqliteStore, Store, StoreError, TableRow, TableUpdate, TokenKind,
};
use tokio_postgres::NoTls;

const DEFAULT_ADMIN_URL: &str = "postgres://postgres@127.0.0.1:5432/postgres";

// ---------------------------------------------------------------------------------------
// Harness

/// A migrated store, and a way to reach its database behind its back.
struct Harness {
    store: Arc<dyn Store>,
    raw: Raw,
}

enum Raw {
    Pg(Box<tokio_postgres::Config>),
    Sqlite(PathBuf),
}

impl Harness {
    fn is_pg(&self) -> bool {
        matches!(self.raw, Raw::Pg(_))
    }

    /// Runs SQL on a connection of its own, outside the store; the error's message on
    /// failure.
    /// The first column of the first row of a query on PostgreSQL, as text.
    async fn pg_text(&self, sql: &str) -> String {
        let Raw::Pg(cfg) = &self.raw else {
            panic!("pg_text on SQLite");
        };
        let (client, conn) = cfg.connect(NoTls).await.expect("connect");
        let driver = tokio::spawn(conn);
        let row = client.query_one(sql, &[]).await.expect("query");
        let text: String = row.get(0);
        drop(client);
        let _ = driver.await;
        text
    }

    async fn raw_exec(&self, sql: &str) -> Result<(), String> {
        match &self.raw {
            Raw::Pg(cfg) => {
                let (client, conn) = cfg.connect(NoTls).await.map_err(|e| e.to_string())?;
                let driver = tokio::spawn(conn);
                let out = client
                    .batch_execute(sql)
                    .await
                    .map_err(|e| match e.as_db_error() {
                        Some(db) => db.message().to_owned(),
                        None => e.to_string(),
                    });
                drop(client);
                let _ = driver.await;
                out
            }
            Raw::Sqlite(path) => {
                let (path, sql) = (path.clone(), sql.to_owned());
                tokio::task::spawn_blocking(move || {
                    let conn = rusqlite::Connection::open(path).map_err(|e| e.to_string())?;
                    conn.execute_batch(&sql).map_err(|e| e.to_string())
                })
                .await
                .expect("sqlite task")
            }
        }
    }
}

fn random_hex() -> String {
    let mut b = [0u8; 8];
    getrandom::fill(&mut b).expect("os random");
    hex::encode(b)
}

/// Runs `test` on a fresh, migrated PostgreSQL database, dropped afterwards even when
/// the test panics.
async fn run_pg<F, Fut>(test: F)
where
    F: FnOnce(Harness) -> Fut + Send + 'static,
    Fut: Future<Output = ()> + Send + 'static,
{
    run_pg_empty(|cfg| async move {
        let store = PgStore::from_config(cfg.clone(), 8).expect("pool");
        store.migrate().await.expect("migrate");
        let harness = Harness {
            store: Arc::new(store),
            raw: Raw::Pg(Box::new(cfg)),
        };
        test(harness).await
    })
    .await
}

/// Runs `test` with the connection config of a fresh, empty PostgreSQL database,
/// dropped afterwards even when the test panics.
async fn run_pg_empty<F, Fut>(test: F)
where
    F: FnOnce(tokio_postgres::Config) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let admin_url =
        std::env::var("DATABASE_URL_ADMIN").unwrap_or_else(|_| DEFAULT_ADMIN_URL.to_owned());
    let admin_cfg: tokio_postgres::Config = admin_url
        .parse()
        .expect("DATABASE_URL_ADMIN is not a PostgreSQL URL");
    let (admin, conn) = admin_cfg.connect(NoTls).await.unwrap_or_else(|e| {
        panic!("PostgreSQL must be reachable for these tests (DATABASE_URL_ADMIN={admin_url}): {e}")
    });
    let driver = tokio::spawn(conn);
    let name = format!("t_{}", random_hex());
    admin
        .batch_execute(&format!("CREATE DATABASE {name}"))
        .await
        .expect("create test database");

    let mut cfg = admin_cfg.clone();
    cfg.dbname(&name);
    let outcome = tokio::spawn(test(cfg)).await;

    if let Err(e) = admin
        .batch_execute(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        .await
    {
        eprintln!("could not drop test database {name}: {e}");
    }
    drop(admin);
    let _ = driver.await;
    if let Err(e) = outcome {
        std::panic::resume_unwind(e.into_panic());
    }
}

/// Runs `test` on a fresh, migrated SQLite file in a temporary folder.
async fn run_sqlite<F, Fut>(test: F)
where
    F: FnOnce(Harness) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("data").join("dealer.sqlite3");
    let store = SqliteStore::open(&path).expect("open sqlite");
    store.migrate().await.expect("migrate");
    let harness = Harness {
        store: Arc::new(store),
        raw: Raw::Sqlite(path),
    };
    let outcome = tokio::spawn(test(harness)).await;
    drop(dir);
    if let Err(e) = outcome {
        std::panic::resume_unwind(e.into_panic());
    }
}

/// Generates `pg::<name>` and `sqlite::<name>` for each behaviour.
macro_rules! conformance {
    ($($name:ident),* $(,)?) => {
        mod pg {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    super::run_pg(super::$name).await
                }
            )*
        }
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    super::run_sqlite(super::$name).await
                }
            )*
        }
    };
}

conformance!(
    migrations_are_idempotent,
    clubs_and_api_keys,
    tables_with_seats_and_tokens,
    create_hand_and_append,
    a_start_that_deals_is_one_write,
    stale_append_conflicts_and_writes_nothing,
    an_append_after_the_end_is_refused,
    concurrent_appends_one_winner,
    a_write_whose_caller_stops_waiting_still_commits,
    many_hands_of_one_club_at_once,
    idempotency_conflict_writes_nothing,
    match_version_conflict,
    list_events_paging,
    event_records_are_the_events_without_their_places,
    events_past_a_gap_keep_their_places,
    a_finished_hand_ends_where_its_end_was_written,
    club_event_order,
    club_order_is_given_once,
    list_hands_filters_and_cursor,
    a_player_in_two_seats_is_listed_once,
    current_hand_and_one_in_progress_per_table,
    clubs_see_only_their_own_rows,
    events_are_append_only_in_the_database,
    club_leaves_keep_the_hash_as_ordered,
    inputs_go_only_with_their_events,
    quarantine_sets_a_hand_aside,
    seed_chains_by_hand_number,
    disputes_and_their_records,
);

// ---------------------------------------------------------------------------------------
// Fixtures

fn chain(club_id: &str, table_id: &str, first_hand_no: i64, length: i32) -> SeedChainRow {
    SeedChainRow {
        club_id: club_id.into(),
        table_id: table_id.into(),
        first_hand_no,
        length,
        anchor: hex64(u64::try_from(first_hand_no).unwrap()),
        sealed: vec![0xa5; 40],
        created_ms: 1,
    }
}

fn hex64(n: u64) -> String {
    format!("{n:064x}")
}

fn club(club_id: &str) -> ClubRow {
    ClubRow {
        club_id: club_id.into(),
        name: format!("Club {club_id}"),
        created_ms: 1_700_000_000_000,
    }
}

fn key(club_id: &str, key_id: &str, role: KeyRole) -> ApiKeyRow {
    ApiKeyRow {
        club_id: club_id.into(),
        key_id: key_id.into(),
        key_hash: hex64(7),
        role,
        created_ms: 1_700_000_000_001,
    }
}

fn table(club_id: &str, table_id: &str, game: &str, players: &[&str]) -> TableRow {
    TableRow {
        club_id: club_id.into(),
        table_id: table_id.into(),
        game: game.into(),
        rules: json!({ "target": 7, "kot_bonus": true }),
        setup: json!({ "stake": 1000 }),
        match_state: json!({ "scores": [0, 0] }),
        match_version: 0,
        seats: players
            .iter()
            .enumerate()
            .map(|(i, p)| SeatRow {
                seat: i as i16,
                player: (*p).into(),
                token_id: format!("tok-{club_id}-{table_id}-{i}"),
                token_hash: hex64(100 + i as u64),
                public_key: (i % 2 == 0).then(|| hex64(200 + i as u64)),
            })
            .collect(),
        created_ms: 1_700_000_000_002,
    }
}

fn hand(
    club_id: &str,
    hand_id: &str,
    table_id: &str,
    game: &str,
    hand_no: i64,
    started_ms: i64,
    players: &[&str],
) -> HandRow {
    HandRow {
        club_id: club_id.into(),
        hand_id: hand_id.into(),
        table_id: table_id.into(),
        game: game.into(),
        hand_no,
        status: HandStatus::InProgress,
        next_seq: 0,
        players: players.iter().map(|p| (*p).to_string()).collect(),
        started_ms,
        ended_ms: None,
        outcome: None,
        abandon_reason: None,
        quarantine: None,
    }
}

fn event(club_id: &str, hand_id: &str, seq: i64) -> EventRow {
    EventRow {
        club_id: club_id.into(),
        hand_id: hand_id.into(),
        seq,
        gid: None,
        kind: if seq == 0 { "hand_started" } else { "action" }.into(),
        hash: hex64(1000 + seq as u64),
        prev_hash: if seq == 0 {
            hex64(0)
        } else {
            hex64(999 + seq as u64)
        },
        record: json!({ "seq": seq, "hand": hand_id, "body": { "card": "7H" } }).into(),
        created_ms: 1_700_000_100_000 + seq,
    }
}

fn secret(club_id: &str, hand_id: &str, shuffle: i32) -> SecretRow {
    SecretRow {
        club_id: club_id.into(),
        hand_id: hand_id.into(),
        shuffle,
        sealed: vec![0, 1, 2, 255, shuffle as u8],
    }
}

/// A sealed input (opening of a private action) at `seq`; its bytes name the seq.
fn input(club_id: &str, hand_id: &str, seq: i64) -> InputRow {
    InputRow {
        club_id: club_id.into(),
        hand_id: hand_id.into(),
        seq,
        sealed: vec![9, 8, 7, 0, seq as u8],
    }
}

fn idem(club_id: &str, key: &str) -> IdemRow {
    IdemRow {
        club_id: club_id.into(),
        key: key.into(),
        request_hash: hex64(42),
        status: 201,
        response: json!({ "ok": true, "key": key }),
        created_ms: 1_700_000_000_003,
    }
}

fn append_req(club_id: &str, hand_id: &str, from: i64, n: i64) -> AppendRequest {
    AppendRequest {
        club_id: club_id.into(),
        hand_id: hand_id.into(),
        expected_seq: from,
        events: (from..from + n)
            .map(|s| event(club_id, hand_id, s))
            .collect(),
        hand_update: None,
        table_update: None,
        new_secrets: vec![],
        new_inputs: vec![],
        idem: None,
    }
}

fn completion() -> HandUpdate {
    HandUpdate {
        status: HandStatus::Completed,
        ended_ms: Some(1_700_000_200_000),
        outcome: Some(json!({ "winner": [0, 2], "points": 7 })),
        abandon_reason: None,
    }
}

/// A hand's abandonment, as an append that ends a hand carries it.
fn abandonment() -> HandUpdate {
    HandUpdate {
        status: HandStatus::Abandoned,
        ended_ms: Some(7_000),
        outcome: None,
        abandon_reason: Some("player left".into()),
    }
}

const PLAYERS: [&str; 4] = ["dariush", "shirin", "kaveh", "parisa"];

/// A club `club_id` with an admin key, and a hokm table `table_id` with four seats.
async fn club_with_table(s: &dyn Store, club_id: &str, table_id: &str) {
    s.create_club(
        &club(club_id),
        &key(club_id, &format!("key-{club_id}"), KeyRole::Admin),
    )
    .await
    .expect("create club");
    s.create_table(&table(club_id, table_id, "hokm", &PLAYERS), None)
        .await
        .expect("create table");
}

async fn start_hand(s: &dyn Store, h: &HandRow) {
    s.create_hand(h, &[event(&h.club_id, &h.hand_id, 0)], &[], None)
        .await
        .expect("create hand");
}

async fn seqs(s: &dyn Store, club_id: &str, hand_id: &str) -> Vec<i64> {
    s.list_events(club_id, hand_id, 0, 1000)
        .await
        .expect("list events")
        .iter()
        .map(|e| e.seq)
        .collect()
}

/// A hand's next seq as `get_hand` and as `list_hands` report it.
async fn next_seq_as_read(s: &dyn Store, club_id: &str, hand_id: &str) -> (i64, i64) {
    let got = s
        .get_hand(club_id, hand_id)
        .await
        .expect("get hand")
        .expect("the hand")
        .next_seq;
    let listed = s
        .list_hands(
            club_id,
            &HandFilter {
                limit: 100,
                ..HandFilter::default()
            },
        )
        .await
        .expect("list hands")
        .into_iter()
        .find(|h| h.hand_id == hand_id)
        .expect("the hand is listed")
        .next_seq;
    (got, listed)
}

fn conflict(r: Result<(), StoreError>) -> (i64, i64) {
    match r {
        Err(StoreError::Conflict { expected, found }) => (expected, found),
        other => panic!("expected a conflict, got {other:?}"),
    }
}

// ---------------------------------------------------------------------------------------
// Behaviours

async fn migrations_are_idempotent(h: Harness) {
    let s = &*h.store;
    s.migrate().await.expect("second migrate");
    s.migrate().await.expect("third migrate");
    s.ping().await.expect("ping");
    club_with_table(s, "c1", "t1").await;
    // Running again on a database with rows changes nothing.
    s.migrate().await.expect("migrate with data");
    assert_eq!(s.list_tables("c1").await.unwrap().len(), 1);
}

async fn clubs_and_api_keys(h: Harness) {
    let s = &*h.store;
    let admin = key("c1", "k-admin", KeyRole::Admin);
    s.create_club(&club("c1"), &admin).await.unwrap();
    assert_eq!(s.get_club("c1").await.unwrap(), Some(club("c1")));
    assert_eq!(s.get_club("nope").await.unwrap(), None);
    assert_eq!(
        s.find_api_key("c1", "k-admin").await.unwrap(),
        Some(admin.clone())
    );
    assert_eq!(s.find_api_key("c1", "nope").await.unwrap(), None);
    // A key is found in its own club only.
    assert_eq!(s.find_api_key("c2", "k-admin").await.unwrap(), None);

    let auditor = key("c1", "k-audit", KeyRole::Auditor);
    s.add_api_key(&auditor).await.unwrap();
    assert_eq!(
        s.find_api_key("c1", "k-audit").await.unwrap(),
        Some(auditor)
    );

    // The same club twice.
    assert!(matches!(
        s.create_club(&club("c1"), &key("c1", "k-other", KeyRole::Admin))
            .await,
        Err(StoreError::Duplicate("club"))
    ));
    assert_eq!(s.find_api_key("c1", "k-other").await.unwrap(), None);

    // A key id is unique within its club only: another club may use it, and each finds
    // its own.
    let other = ApiKeyRow {
        key_hash: "cd".repeat(32),
        ..key("c2", "k-admin", KeyRole::Admin)
    };
    s.create_club(&club("c2"), &other).await.unwrap();
    assert_eq!(s.find_api_key("c2", "k-admin").await.unwrap(), Some(other));
    assert_eq!(
        s.find_api_key("c1", "k-admin").await.unwrap(),
        Some(admin.clone())
    );
    // Keys made since the legacy token format have no route.
    assert_eq!(
        s.legacy_token_club(TokenKind::ApiKey, "k-admin")
            .await
            .unwrap(),
        None
    );

    assert!(matches!(
        s.add_api_key(&key("ghost", "k-ghost", KeyRole::Auditor))
            .await,
        Err(StoreError::NotFound("club"))
    ));
    assert!(matches!(
        s.add_api_key(&key("c1", "k-audit", KeyRole::Auditor)).await,
        Err(StoreError::Duplicate("api key"))
    ));
}

async fn tables_with_seats_and_tokens(h: Harness) {
    let s = &*h.store;
    s.create_club(&club("c1"), &key("c1", "k1", KeyRole::Admin))
        .await
        .unwrap();
    let t1 = table("c1", "t1", "hokm", &PLAYERS);
    s.create_table(&t1, Some(&idem("c1", "create-t1")))
        .await
        .unwrap();
    assert_eq!(s.get_table("c1", "t1").await.unwrap(), Some(t1.clone()));
    assert_eq!(s.get_table("c1", "t9").await.unwrap(), None);
    assert_eq!(
        s.get_idempotency("c1", "create-t1").await.unwrap(),
        Some(idem("c1", "create-t1"))
    );

    let t2 = table("c1", "t2", "shelem", &["a", "b", "c", "d"]);
    s.create_table(&t2, None).await.unwrap();
    let all = s.list_tables("c1").await.unwrap();
    assert_eq!(all, vec![t1.clone(), t2.clone()]);

    let found = s
        .find_seat_by_token("c1", "tok-c1-t2-3")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (found.club_id.as_str(), found.table_id.as_str()),
        ("c1", "t2")
    );
    assert_eq!(found.seat, t2.seats[3]);
    assert_eq!(s.find_seat_by_token("c1", "tok-nope").await.unwrap(), None);
    // A seat is found in its own club only.
    assert_eq!(
        s.find_seat_by_token("c2", "tok-c1-t2-3").await.unwrap(),
        None
    );
    assert_eq!(
        s.legacy_token_club(TokenKind::Seat, "tok-c1-t2-3")
            .await
            .unwrap(),
        None
    );

    // A seat token id is unique across the club's tables: the table with the clash is
    // not created.
    let mut t3 = table("c1", "t3", "hokm", &PLAYERS);
    t3.seats[1].token_id = "tok-c1-t1-0".into();
    assert!(matches!(
        s.create_table(&t3, None).await,
        Err(StoreError::Duplicate("seat token"))
    ));
    assert_eq!(s.get_table("c1", "t3").await.unwrap(), None);
    assert_eq!(
        s.find_seat_by_token("c1", "tok-c1-t3-0").await.unwrap(),
        None
    );
    // Another club may use the same token id.
    s.create_club(&club("c2"), &key("c2", "k2", KeyRole::Admin))
        .await
        .unwrap();
    let mut c2t1 = table("c2", "t1", "hokm", &PLAYERS);
    c2t1.seats[0].token_id = "tok-c1-t1-0".into();
    s.create_table(&c2t1, None).await.unwrap();
    let found = s
        .find_seat_by_token("c2", "tok-c1-t1-0")
        .await
        .unwrap()
        .unwrap();
    assert_eq!((found.club_id.as_str(), found.seat.seat), ("c2", 0));
    let found = s
        .find_seat_by_token("c1", "tok-c1-t1-0")
        .await
        .unwrap()
        .unwrap();
    assert_eq!((found.club_id.as_str(), found.seat.seat), ("c1", 0));

    assert!(matches!(
        s.create_table(&table("c1", "t1", "hokm", &["x"]), None)
            .await,
        Err(StoreError::Duplicate("table"))
    ));
    assert!(matches!(
        s.create_table(&table("ghost", "t1", "hokm", &PLAYERS), None)
            .await,
        Err(StoreError::NotFound("club"))
    ));

    // A used idempotency key: nothing of the second table is written.
    let t4 = table("c1", "t4", "hokm", &PLAYERS);
    assert!(matches!(
        s.create_table(&t4, Some(&idem("c1", "create-t1"))).await,
        Err(StoreError::IdempotencyConflict)
    ));
    assert_eq!(s.get_table("c1", "t4").await.unwrap(), None);
    assert_eq!(
        s.find_seat_by_token("c1", "tok-c1-t4-0").await.unwrap(),
        None
    );
}

async fn create_hand_and_append(h: Harness) {
    let s = &*h.store;
    club_with_table(s, "c1", "t1").await;
    assert_eq!(s.next_hand_no("c1", "t1").await.unwrap(), 1);
    let mut h1 = hand("c1", "h1", "t1", "hokm", 1, 5_000, &PLAYERS);
    h1.next_seq = 99; // ignored: the store keeps next_seq
    let secrets = [secret("c1", "h1", 0)];
    s.create_hand(
        &h1,
        &[event("c1", "h1", 0)],
        &secrets,
        Some(&idem("c1", "start-h1")),
    )
    .await
    .unwrap();
    let got = s.get_hand("c1", "h1").await.unwrap().unwrap();
    assert_eq!(
        got,
        HandRow {
            next_seq: 1,
            ..h1.clone()
        }
    );
    assert_eq!(s.current_hand("c1", "t1").await.unwrap(), Some(got));
    assert_eq!(s.next_hand_no("c1", "t1").await.unwrap(), 2);
    assert!(s.get_idempotency("c1", "start-h1").await.unwrap().is_some());

    // A plain append with an input, and the end of the hand with another.
    let mut plain = append_req("c1", "h1", 1, 1);
    plain.new_inputs = vec![input("c1", "h1", 1)];
    s.append(&plain).await.unwrap();
    let mut last = append_req("c1", "h1", 2, 3);
    last.hand_update = Some(completion());
    last.new_secrets = vec![secret("c1", "h1", 1)];
    last.new_inputs = vec![input("c1", "h1", 3)];
    s.append(&last).await.unwrap();

    sequence_all(s).await.unwrap();
    let events = s.list_events("c1", "h1", 0, 100).await.unwrap();
    assert_eq!(events.len(), 5);
    for (i, ev) in events.iter().enumerate() {
        let want = EventRow {
            gid: ev.gid,
            ..event("c1", "h1", i as i64)
        };
        assert_eq!(ev, &want);
        assert_eq!(ev.gid, Some(i as i64), "gid is the club-wide order");
    }
    let done = s.get_hand("c1", "h1").await.unwrap().unwrap();
    assert_eq!(done.next_seq, 5);
    assert_eq!(done.status, HandStatus::Completed);
    assert_eq!(done.ended_ms, Some(1_700_000_200_000));
    assert_eq!(done.outcome, completion().outcome);
    assert_eq!(done.abandon_reason, None);
    assert_eq!(s.current_hand("c1", "t1").await.unwrap(), None);
    assert_eq!(
        s.get_secrets("c1", "h1").await.unwrap(),
        vec![secret("c1", "h1", 0), secret("c1", "h1", 1)]
    );
    assert_eq!(
        s.get_inputs("c1", "h1").await.unwrap(),
        vec![input("c1", "h1", 1), input("c1", "h1", 3)],
        "inputs are kept once the hand is over, as secrets are"
    );

    // An abandoned hand keeps its reason (its abandonment and the reveal of its seeds
    // are one append, as the dealer makes them); a later update is refused, as every
    // append to a hand that is over.
    start_hand(s, &hand("c1", "h2", "t1", "hokm", 2, 6_000, &PLAYERS)).await;
    let mut abandon = append_req("c1", "h2", 1, 2);
    abandon.hand_update = Some(abandonment());
    s.append(&abandon).await.unwrap();
    let mut later = append_req("c1", "h2", 3, 1);
    later.hand_update = Some(HandUpdate {
        status: HandStatus::Abandoned,
        ended_ms: None,
        outcome: None,
        abandon_reason: None,
    });
    assert_eq!(conflict(s.append(&later).await), (3, 3));
    let h2 = s.get_hand("c1", "h2").await.unwrap().unwrap();
    assert_eq!(h2.status, HandStatus::Abandoned);
    assert_eq!(h2.ended_ms, Some(7_000));
    assert_eq!(h2.abandon_reason.as_deref(), Some("player left"));
    assert_eq!(h2.outcome, None);

    assert!(matches!(
        s.append(&append_req("c1", "ghost", 1, 1)).await,
        Err(StoreError::NotFound("hand"))
    ));
}

/// A start that deals at once (Hokm, Bluff, tables without client entropy) is one
/// `create_hand` with every event of the start and every seed: written whole, with or
/// without an idempotency record, and refused whole.
async fn a_start_that_deals_is_one_write(h: Harness) {
    let s = &*h.store;
    club_with_table(s, "c1", "t1").await;
    for t in ["t2", "t3"] {
        s.create_table(&table("c1", t, "hokm", &PLAYERS), None)
            .await
            .unwrap();
    }
    let three = |hand: &str| (0..3).map(|q| event("c1", hand, q)).collect::<Vec<_>>();
    for (table, hand_id, key) in [("t1", "h1", None), ("t2", "h2", Some("start-h2"))] {
        let h1 = hand("c1", hand_id, table, "hokm", 1, 5_000, &PLAYERS);
        let secrets = [secret("c1", hand_id, 0), secret("c1", hand_id, 1)];
        let idem_row = key.map(|k| idem("c1", k));
        s.create_hand(&h1, &three(hand_id), &secrets, idem_row.as_ref())
            .await
            .unwrap();
        assert_eq!(seqs(s, "c1", hand_id).await, vec![0, 1, 2], "{hand_id}");
        assert_eq!(
            s.get_secrets("c1", hand_id).await.unwrap(),
            secrets.to_vec()
        );
        assert_eq!(
            s.get_hand("c1", hand_id).await.unwrap().unwrap().next_seq,
            3,
            "{hand_id}"
        );
        // The hand goes on from seq 3, and a writer who thought it was at 1 is told 3.
        assert!(matches!(
            s.append(&append_req("c1", hand_id, 1, 1)).await,
            Err(StoreError::Conflict {
                expected: 1,
                found: 3
            })
        ));
        s.append(&append_req("c1", hand_id, 3, 1)).await.unwrap();
        assert_eq!(seqs(s, "c1", hand_id).await, vec![0, 1, 2, 3], "{hand_id}");
    }

    // A used key refuses the whole start: no hand, no event, no seed.
    let h3 = hand("c1", "h3", "t3", "hokm", 1, 5_000, &PLAYERS);
    assert!(matches!(
        s.create_hand(
            &h3,
            &three("h3"),
            &[secret("c1", "h3", 0)],
            Some(&idem("c1", "start-h2"))
        )
        .await,
        Err(StoreError::IdempotencyConflict)
    ));
    assert_eq!(s.get_hand("c1", "h3").await.unwrap(), None);
    assert_eq!(seqs(s, "c1", "h3").await, Vec::<i64>::new());
    assert_eq!(s.get_secrets("c1", "h3").await.unwrap(), vec![]);

    // Events that are not the hand's, consecutive from 0, are refused before anything
    // is written.
    let mut gap = three("h3");
    gap.remove(1);
    let mut other = three("h3");
    other[2] = event("c1", "h9", 2);
    for bad in [vec![], three("h3")[1..].to_vec(), gap, other] {
        assert!(matches!(
            s.create_hand(&h3, &bad, &[], None).await,
            Err(StoreError::Internal(_))
        ));
    }
    assert_eq!(s.get_hand("c1", "h3").await.unwrap(), None);
    sequence_all(s).await.unwrap();
    let order = s.list_club_events("c1", 0, 100).await.unwrap();
    assert_eq!(
        order.len(),
        8,
        "every event written has one place in the club's order"
    );
}

/// A hand that is over takes no more events: an append after the write that completed
/// it is refused and writes nothing, with a hand update or without (the service refuses
/// it first). On PostgreSQL this is what lets the sequencer drop a finished hand's cursor
/// once its events are ordered (V14): nothing can come after them.
async fn an_append_after_the_end_is_refused(h: Harness) {
    let s = &*h.store;
    club_with_table(s, "c1", "t1").await;
    start_hand(s, &hand("c1", "h1", "t1", "hokm", 1, 5_000, &PLAYERS)).await;
    let mut end = append_req("c1", "h1", 1, 1);
    end.hand_update = Some(completion());
    s.append(&end).await.unwrap();
    assert_eq!(
        conflict(s.append(&append_req("c1", "h1", 2, 2)).await),
        (2, 2)
    );
    let mut again = append_req("c1", "h1", 2, 1);
    again.hand_update = Some(completion());
    again.idem = Some(idem("c1", "after-the-end"));
    assert_eq!(conflict(s.append(&again).await), (2, 2));
    // Nor does a stale writer's append at a seq the end took.
    assert_eq!(
        conflict(s.append(&append_req("c1", "h1", 1, 1)).await),
        (1, 2)
    );
    let row = s.get_hand("c1", "h1").await.unwrap().unwrap();
    assert_eq!(row.status, HandStatus::Completed);
    assert_eq!(next_seq_as_read(s, "c1", "h1").await, (2, 2));
    assert_eq!(seqs(s, "c1", "h1").await, vec![0, 1]);
    // Its key was not used up by the refused write.
    let mut fresh = append_req("c1", "h1", 2, 1);
    fresh.idem = Some(idem("c1", "after-the-end"));
    assert_eq!(conflict(s.append(&fresh).await), (2, 2));
    sequence_all(s).await.unwrap();
    assert_eq!(s.list_club_events("c1", 0, 10).await.unwrap().len(), 2);
}

async fn stale_append_conflicts_and_writes_nothing(h: Harness) {
    let s = &*h.store;
    club_with_table(s, "c1", "t1").await;
    start_hand(s, &hand("c1", "h1", "t1", "hokm", 1, 5_000, &PLAYERS)).await;
    s.append(&append_req("c1", "h1", 1, 2)).await.unwrap();

    // Stale: a writer that saw next_seq 1.
    let mut stale = append_req("c1", "h1", 1, 2);
    stale.hand_update = Some(completion());
    stale.new_secrets = vec![secret("c1", "h1", 5)];
    stale.new_inputs = vec![input("c1", "h1", 2)];
    stale.idem = Some(idem("c1", "stale"));
    stale.table_update = Some(TableUpdate {
        table_id: "t1".into(),
        expected_match_version: 0,
        match_state: json!({ "scores": [7, 0] }),
    });
    assert_eq!(conflict(s.append(&stale).await), (1, 3));
    // Ahead of the log.
    assert_eq!(
        conflict(s.append(&append_req("c1", "h1", 7, 1)).await),
        (7, 3)
    );

    assert_eq!(seqs(s, "c1", "h1").await, vec![0, 1, 2]);
    let row = s.get_hand("c1", "h1").await.unwrap().unwrap();
    assert_eq!((row.next_seq, row.status), (3, HandStatus::InProgress));
    assert_eq!(row.outcome, None);
    assert!(s.get_secrets("c1", "h1").await.unwrap().is_empty());
    assert!(s.get_inputs("c1", "h1").await.unwrap().is_empty());
    assert_eq!(s.get_idempotency("c1", "stale").await.unwrap(), None);
    assert_eq!(
        s.get_table("c1", "t1")
            .await
            .unwrap()
            .unwrap()
            .match_version,
        0
    );

    // The writer catches up and succeeds.
    s.append(&append_req("c1", "h1", 3, 1)).await.unwrap();
    assert_eq!(seqs(s, "c1", "h1").await, vec![0, 1, 2, 3]);
}

async fn concurrent_appends_one_winner(h: Harness) {
    let s = Arc::clone(&h.store);
    club_with_table(&*s, "c1", "t1").await;
    start_hand(&*s, &hand("c1", "h1", "t1", "hokm", 1, 5_000, &PLAYERS)).await;

    // Eight writers race for seq 1.
    let tasks: Vec<_> = (0..8)
        .map(|w| {
            let s = Arc::clone(&s);
            tokio::spawn(async move {
                let mut req = append_req("c1", "h1", 1, 1);
                req.events[0].record = json!({ "writer": w }).into();
                s.append(&req).await
            })
        })
        .collect();
    let mut wins = 0;
    for t in tasks {
        match t.await.unwrap() {
            Ok(()) => wins += 1,
            Err(StoreError::Conflict {
                expected: 1,
                found: 2,
            }) => {}
            other => panic!("unexpected outcome {other:?}"),
        }
    }
    assert_eq!(wins, 1);
    assert_eq!(seqs(&*s, "c1", "h1").await, vec![0, 1]);

    // Eight writers each append three events, re-reading next_seq after each conflict.
    let tasks: Vec<_> = (0..8)
        .map(|w| {
            let s = Arc::clone(&s);
            tokio::spawn(async move {
                let mut written = 0;
                let mut conflicts = 0;
                while written < 3 {
                    let next = s.get_hand("c1", "h1").await.unwrap().unwrap().next_seq;
                    let mut req = append_req("c1", "h1", next, 1);
                    req.events[0].record = json!({ "writer": w, "n": written }).into();
                    match s.append(&req).await {
                        Ok(()) => written += 1,
                        Err(StoreError::Conflict { .. }) => conflicts += 1,
                        Err(e) => panic!("writer {w}: {e:?}"),
                    }
                    assert!(conflicts < 10_000, "writer {w} starved");
                }
            })
        })
        .collect();
    for t in tasks {
        t.await.unwrap();
    }
    sequence_all(s.as_ref()).await.unwrap();
    let events = s.list_events("c1", "h1", 0, 1000).await.unwrap();
    assert_eq!(
        events.iter().map(|e| e.seq).collect::<Vec<_>>(),
        (0..26).collect::<Vec<_>>()
    );
    let gids: Vec<i64> = events.iter().map(|e| e.gid.unwrap()).collect();
    assert_eq!(
        gids,
        (0..26).collect::<Vec<_>>(),
        "one hand: gid follows seq"
    );
    assert_eq!(s.get_hand("c1", "h1").await.unwrap().unwrap().next_seq, 26);
}

/// A caller that stops waiting for its write (an HTTP client gone, a request's
/// deadline) does not cancel it: once the write is queued, it commits or fails with its
/// batch. On PostgreSQL the first write of a quiet club leads its own batch in the
/// caller's task, and what is left of that leader must go on when the caller is dropped.
async fn a_write_whose_caller_stops_waiting_still_commits(h: Harness) {
    let s = Arc::clone(&h.store);
    club_with_table(&*s, "c1", "t1").await;
    start_hand(&*s, &hand("c1", "h1", "t1", "hokm", 1, 5_000, &PLAYERS)).await;
    for (seq, n) in [(1, 1), (2, 3)] {
        let req = append_req("c1", "h1", seq, n);
        let mut write = Box::pin(s.append(&req));
        // Polled once (the write is queued and under way; the embedded store's may be
        // over already), then dropped.
        if let Ok(done) = tokio::time::timeout(std::time::Duration::ZERO, &mut write).await {
            done.expect("the write");
        }
        drop(write);
        let want: Vec<i64> = (0..seq + n).collect();
        let mut got = Vec::new();
        for _ in 0..100 {
            got = seqs(&*s, "c1", "h1").await;
            if got == want {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        assert_eq!(got, want, "the abandoned write of seq {seq} committed");
    }
}

/// Twelve hands of one club written at once (the writes of a club may share a
/// transaction): each write keeps its own outcome, refused writes leave nothing, and
/// the club's gids stay contiguous, each hand's events in seq order.
async fn many_hands_of_one_club_at_once(h: Harness) {
    let s = Arc::clone(&h.store);
    s.create_club(&club("c1"), &key("c1", "k1", KeyRole::Admin))
        .await
        .unwrap();
    for t in 0..12 {
        s.create_table(&table("c1", &format!("t{t:02}"), "hokm", &PLAYERS), None)
            .await
            .unwrap();
    }
    let tasks: Vec<_> = (0..12)
        .map(|t| {
            let s = Arc::clone(&s);
            tokio::spawn(async move {
                let (hand_id, table_id) = (format!("h{t:02}"), format!("t{t:02}"));
                let mut hr = hand("c1", &hand_id, &table_id, "hokm", 1, 5_000 + t, &PLAYERS);
                hr.players[0] = format!("p{t}");
                let create_idem = (t % 2 == 0).then(|| idem("c1", &format!("create-{t}")));
                s.create_hand(
                    &hr,
                    &[event("c1", &hand_id, 0)],
                    &[secret("c1", &hand_id, 0)],
                    create_idem.as_ref(),
                )
                .await
                .unwrap();
                let mut next = 1;
                for k in 0..15_i64 {
                    let n = 1 + k % 2;
                    let mut req = append_req("c1", &hand_id, next, n);
                    if k % 5 == 4 {
                        req.new_secrets = vec![secret("c1", &hand_id, (k / 5 + 1) as i32)];
                    }
                    // Append 8 comes right after three refused writes (k == 7), which
                    // leave the writer not knowing where the hand's log ends: its input
                    // goes in on the checked path.
                    if k % 3 == 1 || k == 8 {
                        req.new_inputs = vec![input("c1", &hand_id, next + n - 1)];
                    }
                    if t % 2 == 1 && k % 4 == 0 {
                        req.idem = Some(idem("c1", &format!("a-{t}-{k}")));
                    }
                    s.append(&req).await.unwrap();
                    next += n;
                    if k == 7 {
                        // A stale writer: refused, nothing written.
                        let mut stale = append_req("c1", &hand_id, next - 1, 1);
                        stale.new_inputs = vec![input("c1", &hand_id, next - 1)];
                        assert_eq!(conflict(s.append(&stale).await), (next - 1, next));
                        // An idempotency key used before: refused, nothing written.
                        let mut again = append_req("c1", &hand_id, next, 1);
                        let used = if t % 2 == 0 {
                            format!("create-{t}")
                        } else {
                            format!("a-{t}-0")
                        };
                        again.idem = Some(idem("c1", &used));
                        assert!(matches!(
                            s.append(&again).await,
                            Err(StoreError::IdempotencyConflict)
                        ));
                        // A table update from a stale match version: refused whole.
                        let mut wrong = append_req("c1", &hand_id, next, 1);
                        wrong.new_inputs = vec![input("c1", &hand_id, next)];
                        wrong.table_update = Some(TableUpdate {
                            table_id: table_id.clone(),
                            expected_match_version: 5,
                            match_state: json!({ "scores": [9, 9] }),
                        });
                        assert_eq!(conflict(s.append(&wrong).await), (5, 0));
                    }
                }
                let mut last = append_req("c1", &hand_id, next, 1);
                last.hand_update = Some(completion());
                last.new_inputs = vec![input("c1", &hand_id, next)];
                last.table_update = Some(TableUpdate {
                    table_id: table_id.clone(),
                    expected_match_version: 0,
                    match_state: json!({ "scores": [t, 0] }),
                });
                s.append(&last).await.unwrap();
                next + 1
            })
        })
        .collect();
    let mut expected_len = HashMap::new();
    for (t, task) in tasks.into_iter().enumerate() {
        expected_len.insert(format!("h{t:02}"), task.await.unwrap());
    }
    sequence_all(s.as_ref()).await.unwrap();
    let all = s.list_club_events("c1", 0, 10_000).await.unwrap();
    // The log builder's feed is the same order, without the records; and so is any page
    // of it.
    let leaves = s.list_club_leaves("c1", 0, 10_000).await.unwrap();
    let expected: Vec<ClubLeafRow> = all
        .iter()
        .map(|e| ClubLeafRow {
            gid: e.gid.unwrap(),
            hand_id: e.hand_id.clone(),
            seq: e.seq,
            hash: e.hash.clone(),
        })
        .collect();
    assert_eq!(leaves, expected, "the leaves are the ordered events' own");
    let page = s.list_club_leaves("c1", 7, 5).await.unwrap();
    assert_eq!(page.as_slice(), &expected[7..12]);
    let total: i64 = expected_len.values().sum();
    assert_eq!(
        all.iter().map(|e| e.gid.unwrap()).collect::<Vec<_>>(),
        (0..total).collect::<Vec<_>>(),
        "gids contiguous from 0"
    );
    let mut by_hand: HashMap<String, Vec<i64>> = HashMap::new();
    for e in &all {
        by_hand.entry(e.hand_id.clone()).or_default().push(e.seq);
    }
    for (hand_id, len) in &expected_len {
        assert_eq!(
            by_hand[hand_id],
            (0..*len).collect::<Vec<_>>(),
            "{hand_id}: seqs in gid order"
        );
        let row = s.get_hand("c1", hand_id).await.unwrap().unwrap();
        assert_eq!((row.next_seq, row.status), (*len, HandStatus::Completed));
        assert_eq!(s.get_secrets("c1", hand_id).await.unwrap().len(), 4);
        // Appends 1, 4, 7, 8, 10 and 13 (each at its last event) and the end: the
        // refused writes left none.
        let mut want = Vec::new();
        let mut next = 1;
        for k in 0..15_i64 {
            next += 1 + k % 2;
            if k % 3 == 1 || k == 8 {
                want.push(input("c1", hand_id, next - 1));
            }
        }
        want.push(input("c1", hand_id, next));
        assert_eq!(
            s.get_inputs("c1", hand_id).await.unwrap(),
            want,
            "{hand_id}"
        );
        let t = row.table_id;
        let tr = s.get_table("c1", &t).await.unwrap().unwrap();
        assert_eq!(tr.match_version, 1, "{t}");
    }
    for t in 0..12 {
        let created = s
            .get_idempotency("c1", &format!("create-{t}"))
            .await
            .unwrap();
        assert_eq!(created.is_some(), t % 2 == 0);
    }
}

async fn idempotency_conflict_writes_nothing(h: Harness) {
    let s = &*h.store;
    club_with_table(s, "c1", "t1").await;
    s.create_table(&table("c1", "t2", "hokm", &["a", "b", "c", "d"]), None)
        .await
        .unwrap();
    start_hand(s, &hand("c1", "h1", "t1", "hokm", 1, 5_000, &PLAYERS)).await;

    let mut first = append_req("c1", "h1", 1, 1);
    first.idem = Some(idem("c1", "K"));
    s.append(&first).await.unwrap();

    // Right seq, used key: nothing at all is written.
    let mut again = append_req("c1", "h1", 2, 2);
    again.idem = Some(IdemRow {
        status: 200,
        ..idem("c1", "K")
    });
    again.hand_update = Some(completion());
    again.new_secrets = vec![secret("c1", "h1", 3)];
    again.table_update = Some(TableUpdate {
        table_id: "t1".into(),
        expected_match_version: 0,
        match_state: json!({ "scores": [1, 0] }),
    });
    assert!(matches!(
        s.append(&again).await,
        Err(StoreError::IdempotencyConflict)
    ));
    assert_eq!(seqs(s, "c1", "h1").await, vec![0, 1]);
    let row = s.get_hand("c1", "h1").await.unwrap().unwrap();
    assert_eq!((row.next_seq, row.status), (2, HandStatus::InProgress));
    assert!(s.get_secrets("c1", "h1").await.unwrap().is_empty());
    assert_eq!(
        s.get_table("c1", "t1")
            .await
            .unwrap()
            .unwrap()
            .match_version,
        0
    );
    assert_eq!(
        s.get_idempotency("c1", "K").await.unwrap(),
        Some(idem("c1", "K"))
    );

    // The same key on create_hand: no hand, no event, no gid used.
    assert!(matches!(
        s.create_hand(
            &hand("c1", "h2", "t2", "hokm", 1, 6_000, &PLAYERS),
            &[event("c1", "h2", 0)],
            &[secret("c1", "h2", 0)],
            Some(&idem("c1", "K")),
        )
        .await,
        Err(StoreError::IdempotencyConflict)
    ));
    assert_eq!(s.get_hand("c1", "h2").await.unwrap(), None);
    assert!(s.list_events("c1", "h2", 0, 10).await.unwrap().is_empty());
    sequence_all(s).await.unwrap();
    assert_eq!(s.list_club_events("c1", 0, 100).await.unwrap().len(), 2);

    // Keys are per club: another club may use "K".
    club_with_table(s, "c2", "t1").await;
    start_hand(s, &hand("c2", "h1", "t1", "hokm", 1, 5_000, &PLAYERS)).await;
    let mut other = append_req("c2", "h1", 1, 1);
    other.idem = Some(idem("c2", "K"));
    s.append(&other).await.unwrap();
}

async fn match_version_conflict(h: Harness) {
    let s = &*h.store;
    club_with_table(s, "c1", "t1").await;
    start_hand(s, &hand("c1", "h1", "t1", "hokm", 1, 5_000, &PLAYERS)).await;

    let mut end = append_req("c1", "h1", 1, 1);
    end.hand_update = Some(completion());
    end.table_update = Some(TableUpdate {
        table_id: "t1".into(),
        expected_match_version: 0,
        match_state: json!({ "scores": [7, 0], "hakem": 2 }),
    });
    s.append(&end).await.unwrap();
    let t = s.get_table("c1", "t1").await.unwrap().unwrap();
    assert_eq!(
        (t.match_version, t.match_state),
        (1, json!({ "scores": [7, 0], "hakem": 2 }))
    );

    start_hand(s, &hand("c1", "h2", "t1", "hokm", 2, 6_000, &PLAYERS)).await;
    let mut stale = append_req("c1", "h2", 1, 1);
    stale.hand_update = Some(completion());
    stale.table_update = Some(TableUpdate {
        table_id: "t1".into(),
        expected_match_version: 0,
        match_state: json!({ "scores": [0, 7] }),
    });
    assert_eq!(conflict(s.append(&stale).await), (0, 1));
    assert_eq!(seqs(s, "c1", "h2").await, vec![0]);
    let h2 = s.get_hand("c1", "h2").await.unwrap().unwrap();
    assert_eq!((h2.next_seq, h2.status), (1, HandStatus::InProgress));
    let t = s.get_table("c1", "t1").await.unwrap().unwrap();
    assert_eq!(
        (t.match_version, t.match_state),
        (1, json!({ "scores": [7, 0], "hakem": 2 }))
    );

    stale.table_update.as_mut().unwrap().expected_match_version = 1;
    s.append(&stale).await.unwrap();
    assert_eq!(
        s.get_table("c1", "t1")
            .await
            .unwrap()
            .unwrap()
            .match_version,
        2
    );
}

async fn list_events_paging(h: Harness) {
    let s = &*h.store;
    club_with_table(s, "c1", "t1").await;
    start_hand(s, &hand("c1", "h1", "t1", "hokm", 1, 5_000, &PLAYERS)).await;
    s.append(&append_req("c1", "h1", 1, 9)).await.unwrap();

    let mut pages = vec![];
    let mut from = 0;
    loop {
        let page = s.list_events("c1", "h1", from, 3).await.unwrap();
        if page.is_empty() {
            break;
        }
        from = page.last().unwrap().seq + 1;
        pages.push(page.iter().map(|e| e.seq).collect::<Vec<_>>());
    }
    assert_eq!(
        pages,
        vec![vec![0, 1, 2], vec![3, 4, 5], vec![6, 7, 8], vec![9]]
    );
    assert!(s.list_events("c1", "h1", 0, 0).await.unwrap().is_empty());
    assert!(s.list_events("c1", "h1", 0, -5).await.unwrap().is_empty());
    assert!(s.list_events("c1", "h1", 10, 5).await.unwrap().is_empty());
    assert_eq!(seqs(s, "c1", "h1").await, (0..10).collect::<Vec<_>>());
}

/// `list_event_records` pages a hand's log as `list_events` does, row for row, with no
/// place in the club's order (`gid` is `None`), ordered or not.
async fn event_records_are_the_events_without_their_places(h: Harness) {
    let s = &*h.store;
    club_with_table(s, "c1", "t1").await;
    start_hand(s, &hand("c1", "h1", "t1", "hokm", 1, 5_000, &PLAYERS)).await;
    s.append(&append_req("c1", "h1", 1, 9)).await.unwrap();
    // Some of the log ordered (all of it where the store orders as it appends), the rest
    // waiting: both kinds of rows read alike.
    s.sequence("c1", 5).await.unwrap();
    let with_places = s.list_events("c1", "h1", 0, 100).await.unwrap();
    assert_eq!(with_places.len(), 10);
    assert!(with_places.iter().any(|e| e.gid.is_some()));
    let bare = |e: &EventRow| EventRow {
        gid: None,
        ..e.clone()
    };
    for (from, limit) in [(0, 100), (0, 3), (3, 4), (9, 5), (10, 5), (0, 0), (0, -5)] {
        let records = s.list_event_records("c1", "h1", from, limit).await.unwrap();
        let want: Vec<EventRow> = with_places
            .iter()
            .filter(|e| e.seq >= from)
            .take(usize::try_from(limit).unwrap_or(0))
            .map(bare)
            .collect();
        assert_eq!(records, want, "from {from}, limit {limit}");
    }
    assert!(s
        .list_event_records("c1", "no-such-hand", 0, 10)
        .await
        .unwrap()
        .is_empty());
    assert!(s
        .list_event_records("c2", "h1", 0, 10)
        .await
        .unwrap()
        .is_empty());
}

/// An event missing from a hand's log (deleted behind the store's back) leaves a gap
/// that a page of `list_events` reads past: the events after it still show their places
/// in the club's order, on every page size.
async fn events_past_a_gap_keep_their_places(h: Harness) {
    let s = &*h.store;
    club_with_table(s, "c1", "t1").await;
    start_hand(s, &hand("c1", "h1", "t1", "hokm", 1, 5_000, &PLAYERS)).await;
    s.append(&append_req("c1", "h1", 1, 9)).await.unwrap();
    while s.sequence("c1", 100).await.unwrap() > 0 {}
    let placed: HashMap<i64, Option<i64>> = s
        .list_events("c1", "h1", 0, 100)
        .await
        .unwrap()
        .iter()
        .map(|e| (e.seq, e.gid))
        .collect();
    assert_eq!(placed.len(), 10);
    assert!(placed.values().all(Option::is_some), "{placed:?}");
    let gone = if h.is_pg() {
        "BEGIN; ALTER TABLE events DISABLE TRIGGER USER; DELETE FROM events WHERE seq IN (2, 3); \
         ALTER TABLE events ENABLE TRIGGER USER; COMMIT;"
    } else {
        "DROP TRIGGER IF EXISTS events_no_delete; DELETE FROM events WHERE seq IN (2, 3);"
    };
    h.raw_exec(gone).await.expect("behind the store's back");
    for (from, limit) in [(0, 100), (0, 4), (1, 3), (2, 2), (4, 1), (0, 1)] {
        let page = s.list_events("c1", "h1", from, limit).await.unwrap();
        let want: Vec<(i64, Option<i64>)> = [0, 1, 4, 5, 6, 7, 8, 9]
            .into_iter()
            .filter(|&seq| seq >= from)
            .take(usize::try_from(limit).unwrap())
            .map(|seq| (seq, placed[&seq]))
            .collect();
        assert_eq!(
            page.iter().map(|e| (e.seq, e.gid)).collect::<Vec<_>>(),
            want,
            "from {from}, limit {limit}"
        );
    }
}

/// A completed or abandoned hand's next `seq` is the one written with its end, on both
/// stores: a row added to its log behind the store's back afterwards (damage, which the
/// service's reads of the whole log report) does not make the hand longer in `get_hand`,
/// `list_hands` or `hand_by_no`. A running hand's is one past its last event.
async fn a_finished_hand_ends_where_its_end_was_written(h: Harness) {
    let s = &*h.store;
    club_with_table(s, "c1", "t1").await;
    s.create_table(&table("c1", "t2", "hokm", &PLAYERS), None)
        .await
        .unwrap();
    start_hand(s, &hand("c1", "h1", "t1", "hokm", 1, 5_000, &PLAYERS)).await;
    s.append(&append_req("c1", "h1", 1, 2)).await.unwrap();
    let mut end = append_req("c1", "h1", 3, 2);
    end.hand_update = Some(completion());
    s.append(&end).await.unwrap();
    start_hand(s, &hand("c1", "h2", "t2", "hokm", 1, 5_001, &PLAYERS)).await;
    let mut abandon = append_req("c1", "h2", 1, 2);
    abandon.hand_update = Some(abandonment());
    s.append(&abandon).await.unwrap();
    start_hand(s, &hand("c1", "h3", "t1", "hokm", 2, 5_002, &PLAYERS)).await;
    s.append(&append_req("c1", "h3", 1, 3)).await.unwrap();
    for (id, seq) in [("h1", 5), ("h2", 3)] {
        h.raw_exec(&format!(
            "INSERT INTO events (club_id, hand_id, seq, kind, hash, prev_hash, record, created_ms) \
             VALUES ('c1', '{id}', {seq}, 'action', 'ff', 'ee', '{{}}', 1)"
        ))
        .await
        .expect("behind the store's back");
    }
    let want = [("h1", 5), ("h2", 3), ("h3", 4)];
    for (id, next) in want {
        let row = s.get_hand("c1", id).await.unwrap().unwrap();
        assert_eq!(row.next_seq, next, "{id}: get_hand");
    }
    let listed: Vec<(String, i64)> = s
        .list_hands(
            "c1",
            &HandFilter {
                limit: 10,
                ..HandFilter::default()
            },
        )
        .await
        .unwrap()
        .into_iter()
        .map(|r| (r.hand_id, r.next_seq))
        .collect();
    assert_eq!(
        listed,
        [("h3", 4), ("h2", 3), ("h1", 5)].map(|(id, n)| (id.to_owned(), n)),
        "list_hands"
    );
    let by_no = s.hand_by_no("c1", "t1", 1).await.unwrap().unwrap();
    assert_eq!(by_no.next_seq, 5, "hand_by_no");
    // The added rows are in the log, for the reads that check it whole.
    assert_eq!(seqs(s, "c1", "h1").await, (0..=5).collect::<Vec<_>>());
}

async fn club_event_order(h: Harness) {
    let s = &*h.store;
    club_with_table(s, "c1", "t1").await;
    s.create_table(&table("c1", "t2", "hokm", &["a", "b", "c", "d"]), None)
        .await
        .unwrap();
    club_with_table(s, "c2", "t1").await;
    start_hand(s, &hand("c1", "h1", "t1", "hokm", 1, 5_000, &PLAYERS)).await;
    start_hand(s, &hand("c2", "h1", "t1", "hokm", 1, 5_000, &PLAYERS)).await;
    start_hand(s, &hand("c1", "h2", "t2", "hokm", 1, 5_001, &PLAYERS)).await;
    s.append(&append_req("c1", "h1", 1, 2)).await.unwrap();
    s.append(&append_req("c2", "h1", 1, 1)).await.unwrap();
    s.append(&append_req("c1", "h2", 1, 1)).await.unwrap();

    sequence_all(s).await.unwrap();
    let c1: Vec<(i64, String, i64)> = s
        .list_club_events("c1", 0, 100)
        .await
        .unwrap()
        .into_iter()
        .map(|e| (e.gid.unwrap(), e.hand_id, e.seq))
        .collect();
    assert_eq!(
        c1,
        vec![
            (0, "h1".into(), 0),
            (1, "h2".into(), 0),
            (2, "h1".into(), 1),
            (3, "h1".into(), 2),
            (4, "h2".into(), 1),
        ]
    );
    let c2 = s.list_club_events("c2", 0, 100).await.unwrap();
    assert_eq!(
        c2.iter().map(|e| e.gid.unwrap()).collect::<Vec<_>>(),
        vec![0, 1]
    );
    let tail = s.list_club_events("c1", 3, 1).await.unwrap();
    assert_eq!((tail.len(), tail[0].gid), (1, Some(3)));
}

/// Ordering is done once per event: a second pass finds nothing; later events come
/// after earlier ones; the club log refuses UPDATE and DELETE like the events.
async fn club_order_is_given_once(h: Harness) {
    let s = &*h.store;
    club_with_table(s, "c1", "t1").await;
    start_hand(s, &hand("c1", "h1", "t1", "hokm", 1, 5_000, &PLAYERS)).await;
    s.append(&append_req("c1", "h1", 1, 2)).await.unwrap();
    sequence_all(s).await.unwrap();
    assert_eq!(sequence_all(s).await.unwrap(), 0, "nothing left to order");
    assert_eq!(s.sequence("c1", 100).await.unwrap(), 0);
    assert_eq!(s.sequence("no-such-club", 100).await.unwrap(), 0);
    assert!(s.clubs_to_sequence().await.unwrap().is_empty());
    let first = s.list_club_events("c1", 0, 100).await.unwrap();
    assert_eq!(first.len(), 3);

    s.append(&append_req("c1", "h1", 3, 2)).await.unwrap();
    sequence_all(s).await.unwrap();
    let all = s.list_club_events("c1", 0, 100).await.unwrap();
    assert_eq!(&all[..3], &first[..], "earlier places never change");
    assert_eq!(
        all.iter()
            .map(|e| (e.gid.unwrap(), e.seq))
            .collect::<Vec<_>>(),
        (0..5).map(|i| (i, i)).collect::<Vec<_>>()
    );
    // Per-hand reads carry the same gids.
    let hand_events = s.list_events("c1", "h1", 0, 100).await.unwrap();
    assert_eq!(hand_events, all);

    for sql in [
        "UPDATE club_log SET gid = gid + 100",
        "UPDATE club_log SET seq = 4 WHERE gid = 0",
        "DELETE FROM club_log WHERE gid = 4",
    ] {
        let err = h.raw_exec(sql).await.expect_err(sql);
        assert!(err.contains("append-only"), "{sql}: {err}");
    }
    if h.is_pg() {
        let err = h.raw_exec("TRUNCATE club_log").await.expect_err("truncate");
        assert!(err.contains("append-only"), "{err}");
    }
    assert_eq!(s.list_club_events("c1", 0, 100).await.unwrap(), all);
}

/// The fixture of `list_hands_filters_and_cursor`: (hand_id, table, started_ms, status,
/// players).
fn history() -> Vec<(String, &'static str, i64, HandStatus, Vec<&'static str>)> {
    let mut v = vec![];
    for i in 0..14_i64 {
        let table = if i % 3 == 0 { "t2" } else { "t1" };
        // Ties on started_ms, so the hand_id tie-break is exercised.
        let started = 10_000 + (i / 2) * 1_000;
        let status = match i % 4 {
            0 => HandStatus::Abandoned,
            _ => HandStatus::Completed,
        };
        let players = if i % 2 == 0 {
            vec!["dariush", "shirin", "kaveh", "parisa"]
        } else {
            vec!["babak", "shirin", "mina", "omid"]
        };
        v.push((format!("h{i:02}"), table, started, status, players));
    }
    v
}

/// Which stored hands a filter case should return.
type Keep = Box<dyn Fn(&HandRow) -> bool + Send + Sync>;

async fn list_hands_filters_and_cursor(h: Harness) {
    let s = &*h.store;
    s.create_club(&club("c1"), &key("c1", "k1", KeyRole::Admin))
        .await
        .unwrap();
    s.create_table(&table("c1", "t1", "hokm", &PLAYERS), None)
        .await
        .unwrap();
    s.create_table(&table("c1", "t2", "shelem", &PLAYERS), None)
        .await
        .unwrap();
    let game = |t: &str| if t == "t1" { "hokm" } else { "shelem" };
    let fixture = history();
    for (i, (id, t, started, status, players)) in fixture.iter().enumerate() {
        let no = s.next_hand_no("c1", t).await.unwrap();
        start_hand(s, &hand("c1", id, t, game(t), no, *started, players)).await;
        // The last hand of each table stays in progress.
        let last_of_table = fixture[i + 1..].iter().all(|(_, t2, ..)| t2 != t);
        if !last_of_table {
            let mut end = append_req("c1", id, 1, 1);
            end.hand_update = Some(HandUpdate {
                status: *status,
                ended_ms: Some(started + 500),
                outcome: None,
                abandon_reason: (*status == HandStatus::Abandoned).then(|| "timeout".into()),
            });
            s.append(&end).await.unwrap();
        }
    }
    // Another club's hand never shows.
    club_with_table(s, "c2", "t1").await;
    start_hand(s, &hand("c2", "h99", "t1", "hokm", 1, 12_000, &PLAYERS)).await;

    let stored: Vec<HandRow> = {
        let mut v = vec![];
        for (id, ..) in &fixture {
            v.push(s.get_hand("c1", id).await.unwrap().unwrap());
        }
        v
    };
    let newest_first = |mut v: Vec<&HandRow>| {
        v.sort_by(|a, b| (b.started_ms, &b.hand_id).cmp(&(a.started_ms, &a.hand_id)));
        v.into_iter().map(|h| h.hand_id.clone()).collect::<Vec<_>>()
    };
    let ids = |v: Vec<HandRow>| v.into_iter().map(|h| h.hand_id).collect::<Vec<_>>();
    let all = HandFilter {
        limit: 100,
        ..Default::default()
    };

    let cases: Vec<(HandFilter, Keep)> = vec![
        (all.clone(), Box::new(|_| true)),
        (
            HandFilter {
                table_id: Some("t2".into()),
                ..all.clone()
            },
            Box::new(|h| h.table_id == "t2"),
        ),
        (
            HandFilter {
                player: Some("babak".into()),
                ..all.clone()
            },
            Box::new(|h| h.players.iter().any(|p| p == "babak")),
        ),
        (
            HandFilter {
                player: Some("shirin".into()),
                ..all.clone()
            },
            Box::new(|_| true),
        ),
        (
            HandFilter {
                player: Some("nobody".into()),
                ..all.clone()
            },
            Box::new(|_| false),
        ),
        (
            HandFilter {
                game: Some("shelem".into()),
                ..all.clone()
            },
            Box::new(|h| h.game == "shelem"),
        ),
        (
            HandFilter {
                status: Some(HandStatus::Abandoned),
                ..all.clone()
            },
            Box::new(|h| h.status == HandStatus::Abandoned),
        ),
        (
            HandFilter {
                status: Some(HandStatus::InProgress),
                ..all.clone()
            },
            Box::new(|h| h.status == HandStatus::InProgress),
        ),
        (
            HandFilter {
                started_from_ms: Some(12_000),
                started_to_ms: Some(15_000),
                ..all.clone()
            },
            Box::new(|h| (12_000..15_000).contains(&h.started_ms)),
        ),
        (
            HandFilter {
                table_id: Some("t1".into()),
                player: Some("dariush".into()),
                status: Some(HandStatus::Completed),
                started_from_ms: Some(11_000),
                ..all.clone()
            },
            Box::new(|h| {
                h.table_id == "t1"
                    && h.players.iter().any(|p| p == "dariush")
                    && h.status == HandStatus::Completed
                    && h.started_ms >= 11_000
            }),
        ),
    ];
    for (filter, keep) in &cases {
        let want = newest_first(stored.iter().filter(|h| keep(h)).collect());
        let exact = s.list_hands("c1", filter).await.unwrap();
        assert_eq!(ids(exact.clone()), want, "filter {filter:?}");
        // The listing of the rows as stored: the same hands and rows, each next seq at
        // most the true one.
        let as_stored = s.list_hands_stored("c1", filter).await.unwrap();
        assert_eq!(as_stored.len(), exact.len(), "filter {filter:?}");
        for (a, b) in as_stored.iter().zip(&exact) {
            assert!(a.next_seq <= b.next_seq, "{a:?} / {b:?}");
            let mut a = a.clone();
            a.next_seq = b.next_seq;
            assert_eq!(&a, b, "filter {filter:?}");
        }
    }
    // Sanity of the fixture itself.
    assert_eq!(ids(s.list_hands("c1", &all).await.unwrap()).len(), 14);
    assert_eq!(
        s.list_hands("c1", &cases[7].0).await.unwrap().len(),
        2,
        "one hand in progress per table"
    );

    // Cursor pagination, newest first, under several filters and page sizes.
    for (filter, _) in &cases {
        let want = ids(s.list_hands("c1", filter).await.unwrap());
        for page_size in [1, 3, 4, 100] {
            let mut got = vec![];
            let mut cursor = None;
            loop {
                let f = HandFilter {
                    cursor: cursor.clone(),
                    limit: page_size,
                    ..filter.clone()
                };
                let page = s.list_hands("c1", &f).await.unwrap();
                assert!(page.len() as i64 <= page_size);
                let Some(last) = page.last() else { break };
                cursor = Some((last.started_ms, last.hand_id.clone()));
                got.extend(page.into_iter().map(|h| h.hand_id));
            }
            assert_eq!(got, want, "pages of {page_size} under {filter:?}");
            let unique: HashSet<_> = got.iter().collect();
            assert_eq!(unique.len(), got.len());
        }
    }
    assert!(s
        .list_hands(
            "c1",
            &HandFilter {
                limit: 0,
                ..Default::default()
            }
        )
        .await
        .unwrap()
        .is_empty());
    assert_eq!(
        ids(s.list_hands("c2", &all).await.unwrap()),
        vec!["h99".to_string()]
    );
}

/// A player may hold two seats of one hand (nothing forbids it): listed by player, the
/// hand shows once, on every path a hand is written (a plain start; a start with an
/// idempotency key, which PostgreSQL writes in a transaction of its own), and pages
/// by cursor still meet every hand once.
async fn a_player_in_two_seats_is_listed_once(h: Harness) {
    let s = &*h.store;
    club_with_table(s, "c1", "t1").await;
    let twice = ["mina", "omid", "mina", "kaveh"];
    start_hand(s, &hand("c1", "h1", "t1", "hokm", 1, 10_000, &twice)).await;
    let mut end = append_req("c1", "h1", 1, 1);
    end.hand_update = Some(HandUpdate {
        status: HandStatus::Completed,
        ended_ms: Some(10_500),
        outcome: None,
        abandon_reason: None,
    });
    s.append(&end).await.unwrap();
    let h2 = hand("c1", "h2", "t1", "hokm", 2, 11_000, &twice);
    s.create_hand(&h2, &[event("c1", "h2", 0)], &[], Some(&idem("c1", "k-h2")))
        .await
        .unwrap();
    let by_mina = HandFilter {
        player: Some("mina".into()),
        limit: 100,
        ..Default::default()
    };
    let ids = |v: Vec<HandRow>| v.into_iter().map(|h| h.hand_id).collect::<Vec<_>>();
    assert_eq!(
        ids(s.list_hands("c1", &by_mina).await.unwrap()),
        vec!["h2", "h1"]
    );
    let mut got = vec![];
    let mut cursor = None;
    for _ in 0..10 {
        let page = s
            .list_hands(
                "c1",
                &HandFilter {
                    cursor: cursor.clone(),
                    limit: 1,
                    ..by_mina.clone()
                },
            )
            .await
            .unwrap();
        let Some(last) = page.last() else { break };
        cursor = Some((last.started_ms, last.hand_id.clone()));
        got.extend(ids(page));
    }
    assert_eq!(got, vec!["h2", "h1"]);
    // With the other filters too.
    let done = HandFilter {
        status: Some(HandStatus::Completed),
        table_id: Some("t1".into()),
        started_to_ms: Some(10_001),
        ..by_mina.clone()
    };
    assert_eq!(ids(s.list_hands("c1", &done).await.unwrap()), vec!["h1"]);
}

async fn current_hand_and_one_in_progress_per_table(h: Harness) {
    let s = &*h.store;
    club_with_table(s, "c1", "t1").await;
    s.create_table(&table("c1", "t2", "hokm", &["a", "b", "c", "d"]), None)
        .await
        .unwrap();
    assert_eq!(s.current_hand("c1", "t1").await.unwrap(), None);
    assert_eq!(s.last_hand("c1", "t1").await.unwrap(), None, "no hand yet");
    let h1 = hand("c1", "h1", "t1", "hokm", 1, 5_000, &PLAYERS);
    start_hand(s, &h1).await;
    assert_eq!(
        s.current_hand("c1", "t1").await.unwrap().unwrap().hand_id,
        "h1"
    );
    assert_eq!(
        s.last_hand("c1", "t1").await.unwrap(),
        s.current_hand("c1", "t1").await.unwrap(),
        "the hand in progress is the last"
    );

    // A second hand on the same table is refused, and leaves no trace.
    let h2 = hand("c1", "h2", "t1", "hokm", 2, 6_000, &PLAYERS);
    let r = s
        .create_hand(
            &h2,
            &[event("c1", "h2", 0)],
            &[secret("c1", "h2", 0)],
            Some(&idem("c1", "h2")),
        )
        .await;
    assert!(matches!(r, Err(StoreError::Conflict { .. })), "{r:?}");
    assert_eq!(s.get_hand("c1", "h2").await.unwrap(), None);
    assert!(s.list_events("c1", "h2", 0, 10).await.unwrap().is_empty());
    assert!(s.get_secrets("c1", "h2").await.unwrap().is_empty());
    assert_eq!(s.get_idempotency("c1", "h2").await.unwrap(), None);
    sequence_all(s).await.unwrap();
    assert_eq!(s.list_club_events("c1", 0, 100).await.unwrap().len(), 1);
    assert_eq!(
        s.current_hand("c1", "t1").await.unwrap().unwrap().hand_id,
        "h1"
    );

    // Another table is free.
    start_hand(s, &hand("c1", "h3", "t2", "hokm", 1, 6_000, &PLAYERS)).await;

    // Once h1 ends, the table takes its next hand.
    let mut end = append_req("c1", "h1", 1, 1);
    end.hand_update = Some(completion());
    s.append(&end).await.unwrap();
    assert_eq!(s.current_hand("c1", "t1").await.unwrap(), None);
    start_hand(s, &h2).await;
    assert_eq!(
        s.current_hand("c1", "t1").await.unwrap().unwrap().hand_id,
        "h2"
    );
    let mut end = append_req("c1", "h2", 1, 1);
    end.hand_update = Some(completion());
    s.append(&end).await.unwrap();

    // A table's hands by number, whatever their status; none past the last, and none
    // of another table's.
    for (no, id) in [(1, "h1"), (2, "h2")] {
        let got = s
            .hand_by_no("c1", "t1", no)
            .await
            .unwrap()
            .expect("the hand");
        assert_eq!((got.hand_id.as_str(), got.hand_no), (id, no));
        assert_eq!(got.status, HandStatus::Completed);
        assert_eq!(
            got.next_seq, 2,
            "its next seq, as every read of a hand gives it"
        );
    }
    assert_eq!(s.hand_by_no("c1", "t1", 3).await.unwrap(), None);
    assert_eq!(
        s.hand_by_no("c1", "t2", 1).await.unwrap().unwrap().hand_id,
        "h3"
    );
    assert_eq!(s.hand_by_no("c2", "t1", 1).await.unwrap(), None);
    // The last hand: the highest number, whatever its status, as a read by number gives it.
    assert_eq!(
        s.last_hand("c1", "t1").await.unwrap(),
        s.hand_by_no("c1", "t1", 2).await.unwrap(),
    );
    assert_eq!(
        s.last_hand("c1", "t2").await.unwrap().unwrap().hand_id,
        "h3"
    );
    assert_eq!(s.last_hand("c2", "t1").await.unwrap(), None);

    // A taken hand number is a conflict naming the next free one.
    let reused = hand("c1", "h4", "t1", "hokm", 2, 7_000, &PLAYERS);
    assert_eq!(
        conflict(
            s.create_hand(&reused, &[event("c1", "h4", 0)], &[], None)
                .await
        ),
        (2, 3)
    );
    assert_eq!(s.next_hand_no("c1", "t1").await.unwrap(), 3);
    assert_eq!(s.get_hand("c1", "h4").await.unwrap(), None);

    assert!(matches!(
        s.create_hand(
            &hand("c1", "h1", "t1", "hokm", 3, 7_000, &PLAYERS),
            &[event("c1", "h1", 0)],
            &[],
            None
        )
        .await,
        Err(StoreError::Duplicate("hand"))
    ));
    assert!(matches!(
        s.create_hand(
            &hand("c1", "h5", "t9", "hokm", 1, 7_000, &PLAYERS),
            &[event("c1", "h5", 0)],
            &[],
            None
        )
        .await,
        Err(StoreError::NotFound("table"))
    ));
}

async fn clubs_see_only_their_own_rows(h: Harness) {
    let s = &*h.store;
    club_with_table(s, "c1", "t1").await;
    s.create_club(&club("c2"), &key("c2", "k2", KeyRole::Admin))
        .await
        .unwrap();
    s.create_hand(
        &hand("c1", "h1", "t1", "hokm", 1, 5_000, &PLAYERS),
        &[event("c1", "h1", 0)],
        &[secret("c1", "h1", 0)],
        Some(&idem("c1", "start")),
    )
    .await
    .unwrap();

    assert_eq!(s.get_table("c2", "t1").await.unwrap(), None);
    assert!(s.list_tables("c2").await.unwrap().is_empty());
    assert_eq!(s.get_hand("c2", "h1").await.unwrap(), None);
    assert_eq!(s.current_hand("c2", "t1").await.unwrap(), None);
    assert!(s.list_events("c2", "h1", 0, 10).await.unwrap().is_empty());
    sequence_all(s).await.unwrap();
    assert!(s.list_club_events("c2", 0, 10).await.unwrap().is_empty());
    assert!(s.get_secrets("c2", "h1").await.unwrap().is_empty());
    assert_eq!(s.get_idempotency("c2", "start").await.unwrap(), None);
    let all = HandFilter {
        limit: 10,
        ..Default::default()
    };
    assert!(s.list_hands("c2", &all).await.unwrap().is_empty());
    // c2 cannot append to c1's hand by naming it.
    assert!(matches!(
        s.append(&append_req("c2", "h1", 1, 1)).await,
        Err(StoreError::NotFound("hand"))
    ));
    // Nor start a hand at c1's table.
    assert!(matches!(
        s.create_hand(
            &hand("c2", "h2", "t1", "hokm", 1, 5_000, &PLAYERS),
            &[event("c2", "h2", 0)],
            &[],
            None
        )
        .await,
        Err(StoreError::NotFound("table"))
    ));
}

/// An input is written with the event it opens, in the same append, or not at all: one
/// at a seq outside the append's events, two at one seq, or one of another hand refuse
/// the append whole. Clubs see only their own.
async fn inputs_go_only_with_their_events(h: Harness) {
    let s = &*h.store;
    club_with_table(s, "c1", "t1").await;
    start_hand(s, &hand("c1", "h1", "t1", "hokm", 1, 5_000, &PLAYERS)).await;
    let refused = [
        vec![input("c1", "h1", 0)],
        vec![input("c1", "h1", 3)],
        vec![input("c1", "h1", 1), input("c1", "h1", 1)],
        vec![input("c1", "h2", 1)],
        vec![input("c2", "h1", 1)],
    ];
    for inputs in refused {
        let mut req = append_req("c1", "h1", 1, 2);
        req.new_inputs = inputs.clone();
        assert!(
            matches!(s.append(&req).await, Err(StoreError::Internal(_))),
            "{inputs:?}"
        );
    }
    assert_eq!(seqs(s, "c1", "h1").await, vec![0]);
    assert!(s.get_inputs("c1", "h1").await.unwrap().is_empty());

    let mut req = append_req("c1", "h1", 1, 2);
    req.new_inputs = vec![input("c1", "h1", 2), input("c1", "h1", 1)];
    s.append(&req).await.unwrap();
    assert_eq!(
        s.get_inputs("c1", "h1").await.unwrap(),
        vec![input("c1", "h1", 1), input("c1", "h1", 2)],
        "by seq"
    );

    club_with_table(s, "c2", "t1").await;
    start_hand(s, &hand("c2", "h1", "t1", "hokm", 1, 5_000, &PLAYERS)).await;
    assert!(s.get_inputs("c2", "h1").await.unwrap().is_empty());
    let mut other = append_req("c2", "h1", 1, 1);
    other.new_inputs = vec![input("c2", "h1", 1)];
    s.append(&other).await.unwrap();
    assert_eq!(
        s.get_inputs("c2", "h1").await.unwrap(),
        vec![input("c2", "h1", 1)]
    );
    assert_eq!(s.get_inputs("c1", "h1").await.unwrap().len(), 2);
}

async fn events_are_append_only_in_the_database(h: Harness) {
    let s = &*h.store;
    club_with_table(s, "c1", "t1").await;
    start_hand(s, &hand("c1", "h1", "t1", "hokm", 1, 5_000, &PLAYERS)).await;
    s.append(&append_req("c1", "h1", 1, 2)).await.unwrap();
    let before = s.list_events("c1", "h1", 0, 10).await.unwrap();

    let mut attempts = vec![
        "UPDATE events SET kind = 'forged' WHERE seq = 1",
        "UPDATE events SET hash = prev_hash",
        "DELETE FROM events WHERE seq = 2",
        "DELETE FROM events",
    ];
    if h.is_pg() {
        attempts.push("TRUNCATE events");
        attempts.push("TRUNCATE events CASCADE");
    }
    for sql in attempts {
        let err = h.raw_exec(sql).await.expect_err(sql);
        // A plain TRUNCATE is stopped even before the trigger: the club log refers to
        // the events. With CASCADE it reaches the triggers (of both tables).
        let refused = err.contains("append-only")
            || (sql == "TRUNCATE events" && err.contains("referenced in a foreign key"));
        assert!(refused, "{sql}: {err}");
    }
    assert_eq!(s.list_events("c1", "h1", 0, 10).await.unwrap(), before);
    // Inserting stays possible (for the store).
    s.append(&append_req("c1", "h1", 3, 1)).await.unwrap();
}

/// The log builder's leaves carry each event's hash as it was when ordered (PostgreSQL
/// V16, SQLite V11), read from the club's order alone: an event rewritten behind the
/// store's back afterwards keeps its leaf (the audit names the difference). A row
/// ordered before those migrations has no hash of its own and reads its event's; it is
/// left out once that event is gone (the builder stops at the gap).
async fn club_leaves_keep_the_hash_as_ordered(h: Harness) {
    let s = &*h.store;
    club_with_table(s, "c1", "t1").await;
    start_hand(s, &hand("c1", "h1", "t1", "hokm", 1, 5_000, &PLAYERS)).await;
    s.append(&append_req("c1", "h1", 1, 2)).await.unwrap();
    sequence_all(s).await.unwrap();
    let ordered = s.list_club_leaves("c1", 0, 100).await.unwrap();
    assert_eq!(
        ordered.iter().map(|l| l.seq).collect::<Vec<_>>(),
        vec![0, 1, 2]
    );
    let behind = |pg: &str, lite: &str| {
        let sql = if h.is_pg() {
            format!("BEGIN; ALTER TABLE events DISABLE TRIGGER USER; ALTER TABLE club_log DISABLE TRIGGER USER; {pg} ALTER TABLE events ENABLE TRIGGER USER; ALTER TABLE club_log ENABLE TRIGGER USER; COMMIT;")
        } else {
            format!("DROP TRIGGER IF EXISTS events_no_update; DROP TRIGGER IF EXISTS events_no_delete; DROP TRIGGER IF EXISTS club_log_no_update; {lite}")
        };
        let h = &h;
        async move { h.raw_exec(&sql).await.expect("behind the store's back") }
    };
    let forged = "ab".repeat(32);
    let rewrite = format!("UPDATE events SET hash = '{forged}' WHERE seq = 1;");
    behind(&rewrite, &rewrite).await;
    assert_eq!(
        s.list_events("c1", "h1", 1, 1).await.unwrap()[0].hash,
        forged
    );
    assert_eq!(
        s.list_club_leaves("c1", 0, 100).await.unwrap(),
        ordered,
        "the leaves as ordered, not as rewritten"
    );

    // Rows ordered before the migration: their hashes are the events' as they are now,
    // and a row whose event is gone is left out.
    let old = "UPDATE club_log SET hash = NULL; DELETE FROM events WHERE seq = 2;";
    behind(old, old).await;
    let leaves = s.list_club_leaves("c1", 0, 100).await.unwrap();
    assert_eq!(
        leaves
            .iter()
            .map(|l| (l.gid, l.seq, l.hash.as_str()))
            .collect::<Vec<_>>(),
        vec![(0, 0, ordered[0].hash.as_str()), (1, 1, forged.as_str())],
        "read from the events"
    );
}

// ---------------------------------------------------------------------------------------
// PostgreSQL only

/// Someone with the power to switch the triggers off can still edit a row: the
/// database alone is not the last line, verification is. This is the scenario the
/// end-to-end tests build on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_superuser_can_bypass_the_triggers() {
    run_pg(|h| async move {
        let s = &*h.store;
        club_with_table(s, "c1", "t1").await;
        start_hand(s, &hand("c1", "h1", "t1", "hokm", 1, 5_000, &PLAYERS)).await;
        s.append(&append_req("c1", "h1", 1, 2)).await.unwrap();

        h.raw_exec(
            "BEGIN;
             ALTER TABLE events DISABLE TRIGGER USER;
             UPDATE events SET record = '{\"forged\": 1}' WHERE seq = 1;
             ALTER TABLE events ENABLE TRIGGER USER;
             COMMIT;",
        )
        .await
        .expect("disable triggers and update");
        h.raw_exec(
            "SET session_replication_role = replica;
             UPDATE events SET record = '{\"forged\": 2}' WHERE seq = 2;
             SET session_replication_role = origin;",
        )
        .await
        .expect("replica role and update");

        let events = s.list_events("c1", "h1", 0, 10).await.unwrap();
        assert_eq!(events[1].record, json!({ "forged": 1 }).into());
        assert_eq!(events[2].record, json!({ "forged": 2 }).into());
        // And the triggers are back on.
        let err = h.raw_exec("DELETE FROM events").await.unwrap_err();
        assert!(err.contains("append-only"), "{err}");
    })
    .await
}

/// Watches a future's wakes: how many came from the thread polling it, during its poll.
#[derive(Default)]
struct WakeSpy {
    inner: std::sync::Mutex<Option<std::task::Waker>>,
    polling: std::sync::Mutex<Option<std::thread::ThreadId>>,
    self_wakes: std::sync::atomic::AtomicUsize,
}

impl std::task::Wake for WakeSpy {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        let polling = *self.polling.lock().unwrap();
        if polling == Some(std::thread::current().id()) {
            self.self_wakes
                .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        }
        if let Some(w) = self.inner.lock().unwrap().as_ref() {
            w.wake_by_ref();
        }
    }
}

/// `F` polled with a [`WakeSpy`]'s waker (which passes every wake on).
struct Spied<F> {
    inner: std::pin::Pin<Box<F>>,
    spy: Arc<WakeSpy>,
}

impl<F: Future> Future for Spied<F> {
    type Output = F::Output;

    fn poll(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<F::Output> {
        *self.spy.inner.lock().unwrap() = Some(cx.waker().clone());
        *self.spy.polling.lock().unwrap() = Some(std::thread::current().id());
        let waker = std::task::Waker::from(Arc::clone(&self.spy));
        let out = self
            .inner
            .as_mut()
            .poll(&mut std::task::Context::from_waker(&waker));
        *self.spy.polling.lock().unwrap() = None;
        out
    }
}

/// A write that finds no leader for its club leads its batch in its own task, and its
/// outcome is sent from inside that task's poll. Were the outcome's receiver holding the
/// task's waker then, the task would wake itself, which a multi-thread runtime treats as
/// a yield: a parked worker is woken (a futex wake and a thread switch per write, about
/// a third of the load generator's CPU per append at one hand; ops/README.md, eighth
/// round). No lone write wakes its own task from inside its poll.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_a_write_led_in_its_own_task_does_not_wake_that_task() {
    run_pg(|h| async move {
        let s = &*h.store;
        club_with_table(s, "c1", "t1").await;
        start_hand(s, &hand("c1", "h1", "t1", "hokm", 1, 5_000, &PLAYERS)).await;
        for seq in 1..=6 {
            let req = append_req("c1", "h1", seq, 1);
            let spy = Arc::new(WakeSpy::default());
            Spied {
                inner: Box::pin(s.append(&req)),
                spy: Arc::clone(&spy),
            }
            .await
            .expect("the append");
            assert_eq!(
                spy.self_wakes.load(std::sync::atomic::Ordering::SeqCst),
                0,
                "the append at seq {seq} woke its own task from inside its poll"
            );
        }
        assert_eq!(seqs(s, "c1", "h1").await, (0..7).collect::<Vec<i64>>());
    })
    .await
}

/// A hand's records are read from its events alone: with the club's log locked by
/// another session (as a `REINDEX` or `VACUUM FULL` of it would), `list_event_records`
/// answers at once, where `list_events`, which reads each event's place, waits for the
/// lock. So restoring, reading, bundling and replaying a hand, and the reads of a hand
/// start, do not touch the club's log (ops/README.md, thirteenth round).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_event_records_read_nothing_of_the_club_log() {
    run_pg(|h| async move {
        let s = &*h.store;
        club_with_table(s, "c1", "t1").await;
        start_hand(s, &hand("c1", "h1", "t1", "hokm", 1, 5_000, &PLAYERS)).await;
        s.append(&append_req("c1", "h1", 1, 9)).await.unwrap();
        s.sequence("c1", 100).await.unwrap();
        let Raw::Pg(cfg) = &h.raw else { unreachable!() };
        let (locker, conn) = cfg.connect(NoTls).await.expect("connect");
        let driver = tokio::spawn(conn);
        locker
            .batch_execute("BEGIN; LOCK TABLE club_log IN ACCESS EXCLUSIVE MODE")
            .await
            .expect("lock the club log");
        let within = |f| tokio::time::timeout(std::time::Duration::from_secs(3), f);
        let records = within(s.list_event_records("c1", "h1", 0, 100))
            .await
            .expect("a hand's records are read with the club log locked")
            .unwrap();
        assert_eq!(records.len(), 10);
        assert!(
            within(s.list_events("c1", "h1", 0, 100)).await.is_err(),
            "list_events reads the club log (else this test shows nothing)"
        );
        locker.batch_execute("ROLLBACK").await.expect("unlock");
        drop(locker);
        let _ = driver.await;
    })
    .await
}

/// With worker pools, an HTTP worker thread takes its connections from a pool of its own,
/// opened on it: a worker whose thread is busy holds up no query of another worker. With
/// one shared pool, the connection a worker returned last goes to the next worker that
/// asks, and that connection's I/O runs as a task on the first worker's thread (a
/// one-thread runtime, as actix's workers are), so the second's query waits for the first
/// thread to run again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_a_workers_connections_are_its_own() {
    run_pg_empty(|cfg| async move {
        // 3 connections for 2 workers: one each, one shared.
        let store = Arc::new(
            PgStore::from_config(cfg, 3)
                .expect("pool")
                .with_worker_pools(2),
        );
        store.migrate().await.expect("migrate");
        let answered = tokio::task::spawn_blocking(move || {
            let worker = || {
                tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .expect("runtime")
            };
            let (ran_tx, ran_rx) = std::sync::mpsc::channel();
            let (go_on_tx, go_on_rx) = std::sync::mpsc::channel::<()>();
            let s = Arc::clone(&store);
            let busy = std::thread::spawn(move || {
                let rt = worker();
                services::store::mark_worker_thread();
                rt.block_on(s.get_club("c1"))
                    .expect("read on the first worker");
                ran_tx.send(()).expect("tell");
                // Busy with something else: its runtime runs no task until told.
                let _ = go_on_rx.recv_timeout(std::time::Duration::from_secs(30));
                rt.block_on(s.get_club("c1"))
                    .expect("read on the first worker again");
            });
            ran_rx.recv().expect("the first worker read");
            let s = Arc::clone(&store);
            let other = std::thread::spawn(move || {
                let rt = worker();
                services::store::mark_worker_thread();
                rt.block_on(async {
                    tokio::time::timeout(std::time::Duration::from_secs(3), s.get_club("c1"))
                        .await
                        .map(|r| r.expect("read on the second worker"))
                        .is_ok()
                })
            });
            let answered = other.join().expect("second worker");
            go_on_tx.send(()).expect("release");
            busy.join().expect("first worker");
            answered
        })
        .await
        .expect("workers");
        assert!(
            answered,
            "a worker's read waited for another worker's thread: their pools are shared"
        );
    })
    .await
}

/// The store's role, as an ordinary (non-owner, non-superuser) role, cannot change
/// event rows even with the triggers out of the picture: the privileges are revoked.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_ordinary_role_has_no_update_privilege() {
    run_pg(|h| async move {
        let s = &*h.store;
        club_with_table(s, "c1", "t1").await;
        start_hand(s, &hand("c1", "h1", "t1", "hokm", 1, 5_000, &PLAYERS)).await;
        let role = format!("r_{}", random_hex());
        h.raw_exec(&format!(
            "CREATE ROLE {role};
             GRANT SELECT, INSERT ON ALL TABLES IN SCHEMA public TO {role};"
        ))
        .await
        .unwrap();
        let err = h
            .raw_exec(&format!(
                "BEGIN; SET LOCAL ROLE {role}; UPDATE events SET kind = 'x'; COMMIT;"
            ))
            .await
            .unwrap_err();
        assert!(err.contains("permission denied"), "{err}");
        h.raw_exec(&format!("DROP OWNED BY {role}; DROP ROLE {role};"))
            .await
            .unwrap();
    })
    .await
}

/// A database that cannot be reached is `Unavailable` (a 503), not an internal error.
#[tokio::test]
async fn pg_unreachable_is_unavailable() {
    let store = PgStore::connect(
        "postgres://postgres@127.0.0.1:1/postgres?connect_timeout=2",
        2,
    )
    .expect("a well-formed URL");
    assert!(matches!(
        store.ping().await,
        Err(StoreError::Unavailable(_))
    ));
    assert!(matches!(
        store.migrate().await,
        Err(StoreError::Unavailable(_))
    ));
    assert!(matches!(
        store.get_hand("c1", "h1").await,
        Err(StoreError::Unavailable(_))
    ));
}

#[test]
fn malformed_pg_url_is_a_config_error_without_the_url() {
    let err = PgStore::connect("postgres://user:s3cret@host:notaport/db", 2).unwrap_err();
    assert!(matches!(err, StoreError::Config(_)));
    assert!(!err.to_string().contains("s3cret"));
}

/// Several service instances starting at once on a new database all end up migrated.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_concurrent_first_migrations() {
    run_pg_empty(|cfg| async move {
        let tasks: Vec<_> = (0..4)
            .map(|_| {
                let store = PgStore::from_config(cfg.clone(), 2).unwrap();
                tokio::spawn(async move { store.migrate().await })
            })
            .collect();
        for t in tasks {
            t.await.unwrap().expect("concurrent migrate");
        }
        let store = PgStore::from_config(cfg, 2).unwrap();
        store.migrate().await.unwrap();
        club_with_table(&store, "c1", "t1").await;
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_concurrent_first_migrations() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("dealer.sqlite3");
    let tasks: Vec<_> = (0..4)
        .map(|_| {
            // Separate connections, as separate processes would have.
            let store = SqliteStore::open(&path).unwrap();
            tokio::spawn(async move { store.migrate().await })
        })
        .collect();
    for t in tasks {
        t.await.unwrap().expect("concurrent migrate");
    }
    let store = SqliteStore::open(&path).unwrap();
    club_with_table(&store, "c1", "t1").await;
}

#[tokio::test]
async fn sqlite_creates_its_data_folder() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a").join("b").join("dealer.sqlite3");
    let store = SqliteStore::open(&path).unwrap();
    store.migrate().await.unwrap();
    store.ping().await.unwrap();
    assert!(path.exists());
    // Reopening an existing, migrated file works and keeps its rows.
    club_with_table(&store, "c1", "t1").await;
    drop(store);
    let again = SqliteStore::open(&path).unwrap();
    again.migrate().await.unwrap();
    assert_eq!(again.list_tables("c1").await.unwrap().len(), 1);
}

/// On PostgreSQL a plain append writes events (and their queue rows) only: the hand's
/// row is written when the hand starts and when it ends, so that appends never walk or
/// rewrite `hands`. Every read still gives the hand's next seq, from its events.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_plain_appends_leave_the_hand_row_alone() {
    run_pg(|h| async move {
        let s = &*h.store;
        club_with_table(s, "c1", "t1").await;
        start_hand(s, &hand("c1", "h1", "t1", "hokm", 1, 5_000, &PLAYERS)).await;
        let version = "SELECT xmin::text || '/' || next_seq || '/' || status FROM hands \
                       WHERE club_id = 'c1' AND hand_id = 'h1'";
        let before = h.pg_text(version).await;
        assert!(before.ends_with("/1/in_progress"), "{before}");
        // Two events, then one with the secret of a new shuffle: the statement's
        // optional parts.
        s.append(&append_req("c1", "h1", 1, 2)).await.unwrap();
        let mut with_secret = append_req("c1", "h1", 3, 1);
        with_secret.new_secrets = vec![secret("c1", "h1", 1)];
        s.append(&with_secret).await.unwrap();
        assert_eq!(
            h.pg_text(version).await,
            before,
            "the hand's row is untouched"
        );
        let shuffles: Vec<i32> = s
            .get_secrets("c1", "h1")
            .await
            .unwrap()
            .iter()
            .map(|x| x.shuffle)
            .collect();
        assert_eq!(shuffles, vec![1]);

        assert_eq!(next_seq_as_read(s, "c1", "h1").await, (4, 4));
        let current = s.current_hand("c1", "t1").await.unwrap().unwrap();
        assert_eq!(current.next_seq, 4);
        // A writer that saw an older next seq is told where the log ends.
        assert_eq!(
            conflict(s.append(&append_req("c1", "h1", 1, 1)).await),
            (1, 4)
        );

        // The end of the hand writes its row, with the final next seq.
        let mut end = append_req("c1", "h1", 4, 1);
        end.hand_update = Some(completion());
        s.append(&end).await.unwrap();
        let after = h.pg_text(version).await;
        assert!(after.ends_with("/5/completed"), "{after}");
        let got = s.get_hand("c1", "h1").await.unwrap().unwrap();
        assert_eq!((got.next_seq, got.status), (5, HandStatus::Completed));
        assert_eq!(seqs(s, "c1", "h1").await, vec![0, 1, 2, 3, 4]);
    })
    .await
}

/// A plain append and one with an idempotency key (a batch of the other kind, with
/// leaders of its own) racing for the same seq of one hand: exactly one goes in, the
/// other is told where the log ends and leaves nothing behind, and neither waits for
/// ever on the other kind's batch.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_plain_and_keyed_appends_race_for_one_seq() {
    run_pg(|h| async move {
        let s = &*h.store;
        club_with_table(s, "c1", "t1").await;
        start_hand(s, &hand("c1", "h1", "t1", "hokm", 1, 5_000, &PLAYERS)).await;
        for seq in 1..=20i64 {
            let plain = append_req("c1", "h1", seq, 1);
            let mut keyed = append_req("c1", "h1", seq, 1);
            keyed.idem = Some(idem("c1", &format!("k{seq}")));
            let (a, b) = tokio::time::timeout(std::time::Duration::from_secs(30), async {
                tokio::join!(s.append(&plain), s.append(&keyed))
            })
            .await
            .expect("neither write waits for ever");
            let keyed_won = b.is_ok();
            assert!(a.is_ok() != keyed_won, "exactly one goes in: {a:?} {b:?}");
            let lost = if keyed_won { a } else { b };
            assert_eq!(conflict(lost), (seq, seq + 1));
            let recorded = s
                .get_idempotency("c1", &format!("k{seq}"))
                .await
                .unwrap()
                .is_some();
            assert_eq!(recorded, keyed_won);
        }
        assert_eq!(seqs(s, "c1", "h1").await, (0..=20).collect::<Vec<i64>>());
    })
    .await
}

/// The ends of hands whose log ends the writer knows, with no idempotency key, go in one
/// statement (V15): the hands' rows and tables' states with their events. Ends sent at
/// once, one with a stale table version and one of a quarantined hand among them, each
/// get their own outcome, with nothing half-written: the statement fails as a whole on
/// a refusal and every end runs alone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_hand_ends_in_one_statement_keep_their_own_outcomes() {
    run_pg(|h| async move {
        let s = &*h.store;
        club_with_table(s, "c1", "t1").await;
        for t in ["t2", "t3", "t4"] {
            s.create_table(&table("c1", t, "hokm", &PLAYERS), None)
                .await
                .unwrap();
        }
        for round in 0..4i64 {
            for t in 1..=4 {
                let (tid, hid) = (format!("t{t}"), format!("h{t}-{round}"));
                start_hand(
                    s,
                    &hand("c1", &hid, &tid, "hokm", 1 + round, 5_000, &PLAYERS),
                )
                .await;
                s.append(&append_req("c1", &hid, 1, 1)).await.unwrap();
            }
            // h4 is set aside while its writer still holds it.
            s.quarantine_hand(&quarantine_req(
                "c1",
                &format!("h4-{round}"),
                HandStatus::InProgress,
            ))
            .await
            .unwrap();
            let end = |t: i64, version: i64| {
                let mut e = append_req("c1", &format!("h{t}-{round}"), 2, 2);
                e.hand_update = Some(completion());
                e.table_update = Some(TableUpdate {
                    table_id: format!("t{t}"),
                    expected_match_version: version,
                    match_state: json!({ "round": round }),
                });
                e
            };
            // t2's version is stale (it is `round`).
            let (e1, e2, e3, e4) = (
                end(1, round),
                end(2, round + 7),
                end(3, round),
                end(4, round),
            );
            let (a, b, c, d) =
                tokio::join!(s.append(&e1), s.append(&e2), s.append(&e3), s.append(&e4));
            a.unwrap();
            c.unwrap();
            assert_eq!(conflict(b), (round + 7, round));
            assert!(matches!(d, Err(StoreError::Conflict { .. })), "{d:?}");
            for (t, ended) in [(1, true), (2, false), (3, true), (4, false)] {
                let hid = format!("h{t}-{round}");
                let row = s.get_hand("c1", &hid).await.unwrap().unwrap();
                let table = s.get_table("c1", &format!("t{t}")).await.unwrap().unwrap();
                let want_status = match (t, ended) {
                    (4, _) => HandStatus::Quarantined,
                    (_, true) => HandStatus::Completed,
                    _ => HandStatus::InProgress,
                };
                assert_eq!(row.status, want_status, "{hid}");
                assert_eq!(
                    seqs(s, "c1", &hid).await.len(),
                    if ended { 4 } else { 2 },
                    "{hid}"
                );
                let version = match t {
                    1 | 3 => round + 1,
                    2 => round,
                    _ => 0,
                };
                assert_eq!(table.match_version, version, "t{t}");
            }
            // t2's hand ends with the right version after all.
            s.append(&end(2, round)).await.unwrap();
        }
    })
    .await
}

/// New hands without an idempotency key go in the same statement as plain appends. A
/// new hand the database refuses (here: its table has a hand in progress) fails that
/// statement as a whole; every write of the batch then runs alone and gets its own
/// outcome, with nothing half-written.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_a_refused_new_hand_leaves_its_batch_their_outcomes() {
    run_pg(|h| async move {
        let s = &*h.store;
        club_with_table(s, "c1", "t1").await;
        for t in ["t2", "t3"] {
            s.create_table(&table("c1", t, "hokm", &PLAYERS), None)
                .await
                .unwrap();
        }
        start_hand(s, &hand("c1", "h1", "t1", "hokm", 1, 5_000, &PLAYERS)).await;
        start_hand(s, &hand("c1", "h3", "t3", "hokm", 1, 5_000, &PLAYERS)).await;
        for round in 0..5i64 {
            // A second hand for t1 (refused), a first for t2 (in round 0), an append to h3.
            let late = hand(
                "c1",
                &format!("h1-{round}"),
                "t1",
                "hokm",
                2,
                6_000,
                &PLAYERS,
            );
            let fresh = hand(
                "c1",
                &format!("h2-{round}"),
                "t2",
                "hokm",
                1 + round,
                6_000,
                &PLAYERS,
            );
            let late_first = event("c1", &late.hand_id, 0);
            let fresh_first = event("c1", &fresh.hand_id, 0);
            let append = append_req("c1", "h3", 1 + round, 1);
            let fresh_secrets = [secret("c1", &fresh.hand_id, 0)];
            let (a, b, c) = tokio::join!(
                s.create_hand(&late, std::slice::from_ref(&late_first), &[], None),
                s.create_hand(
                    &fresh,
                    std::slice::from_ref(&fresh_first),
                    &fresh_secrets,
                    None
                ),
                s.append(&append),
            );
            assert!(matches!(a, Err(StoreError::Conflict { .. })), "{a:?}");
            if round == 0 {
                b.unwrap();
            } else {
                // t2 has hand h2-0 in progress.
                assert!(matches!(b, Err(StoreError::Conflict { .. })), "{b:?}");
            }
            c.unwrap();
            assert!(s.get_hand("c1", &late.hand_id).await.unwrap().is_none());
            assert!(seqs(s, "c1", &late.hand_id).await.is_empty());
        }
        let h2 = s.get_hand("c1", "h2-0").await.unwrap().unwrap();
        assert_eq!((h2.next_seq, h2.players.len()), (1, PLAYERS.len()));
        assert_eq!(s.get_secrets("c1", "h2-0").await.unwrap().len(), 1);
        for round in 1..5 {
            let id = format!("h2-{round}");
            assert!(s.get_hand("c1", &id).await.unwrap().is_none());
            assert!(s.get_secrets("c1", &id).await.unwrap().is_empty());
        }
        let listed = s
            .list_hands(
                "c1",
                &HandFilter {
                    player: Some(PLAYERS[1].into()),
                    table_id: Some("t2".into()),
                    limit: 10,
                    ..HandFilter::default()
                },
            )
            .await
            .unwrap();
        assert_eq!(listed.len(), 1, "the new hand's seats are there");
        assert_eq!(seqs(s, "c1", "h3").await, vec![0, 1, 2, 3, 4, 5]);
        // Everything written is in the club's order once sequenced, nothing else.
        sequence_all(s).await.unwrap();
        assert_eq!(
            s.list_club_events("c1", 0, 100).await.unwrap().len(),
            2 + 1 + 5
        );
    })
    .await
}

/// Club `c1` with `n` hokm tables `t1`..`tn`, hand `h{i}` in progress at table
/// `t{i+1}` (its first event written); the hands' ids.
async fn club_with_hands(s: &dyn Store, n: usize) -> Vec<String> {
    club_with_table(s, "c1", "t1").await;
    let mut ids = Vec::new();
    for i in 0..n {
        let t = format!("t{}", i + 1);
        if i > 0 {
            s.create_table(&table("c1", &t, "hokm", &PLAYERS), None)
                .await
                .expect("create table");
        }
        let id = format!("h{i}");
        start_hand(s, &hand("c1", &id, &t, "hokm", 1, 5_000, &PLAYERS)).await;
        ids.push(id);
    }
    ids
}

/// A second store on the database (another service process): its own writer, with
/// its own idea of where hands' logs end.
fn second_pg_store(h: &Harness) -> PgStore {
    let Raw::Pg(cfg) = &h.raw else {
        panic!("second_pg_store on SQLite");
    };
    PgStore::from_config((**cfg).clone(), 4).expect("pool")
}

/// A store appends to the hands it writes without checking their log's end (it knows
/// it from its own commits). When another process has appended to such a hand
/// meanwhile, that append is still refused as a conflict naming where the log ends,
/// writes nothing, and leaves the batch it went in their own outcomes; and the store's
/// next append to the hand, from the log's real end, goes in.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_a_second_process_appending_to_a_hand_is_caught() {
    run_pg(|h| async move {
        let s = &*h.store;
        let other = second_pg_store(&h);
        for id in club_with_hands(s, 4).await {
            s.append(&append_req("c1", &id, 1, 1)).await.unwrap();
        }
        // The other process's events say so.
        let theirs = |from: i64, n: i64| {
            let mut r = append_req("c1", "h1", from, n);
            for e in &mut r.events {
                let mut v = e.record.to_value().unwrap();
                v["writer"] = json!("other");
                e.record = v.into();
            }
            r
        };
        let mut end = 2i64;
        let mut by_other = Vec::new();
        for round in 0..3i64 {
            // The other process takes h1's next seq (one event, then two).
            let n = 1 + round.min(1);
            other.append(&theirs(end, n)).await.unwrap();
            by_other.extend(end..end + n);
            // This store's appends, in one batch or several: h1's is stale.
            let (a, b, c, d) = tokio::join!(
                s.append_owned(append_req("c1", "h0", 2 + round, 1)),
                s.append_owned(append_req("c1", "h1", end, 1)),
                s.append_owned(append_req("c1", "h2", 2 + round, 1)),
                s.append_owned(append_req("c1", "h3", 2 + round, 1)),
            );
            for r in [a, c, d] {
                r.unwrap();
            }
            assert_eq!(conflict(b), (end, end + n));
            end += n;
            // From the log's real end, the next append goes in.
            if round < 2 {
                s.append(&append_req("c1", "h1", end, 1)).await.unwrap();
                end += 1;
            }
        }
        for id in ["h0", "h2", "h3"] {
            assert_eq!(seqs(s, "c1", id).await, (0..=4).collect::<Vec<i64>>());
        }
        assert_eq!(seqs(s, "c1", "h1").await, (0..end).collect::<Vec<i64>>());
        // Each of h1's events is the one its writer wrote, once.
        for e in s.list_events("c1", "h1", 0, 100).await.unwrap() {
            let tagged = e.record.to_value().unwrap().get("writer").is_some();
            assert_eq!(tagged, by_other.contains(&e.seq), "event {}", e.seq);
        }
        // The club's order has every event once.
        sequence_all(s).await.unwrap();
        let ordered = s.list_club_events("c1", 0, 1000).await.unwrap();
        assert_eq!(ordered.len(), 5 * 3 + usize::try_from(end).unwrap());
        let unique: HashSet<(String, i64)> =
            ordered.iter().map(|e| (e.hand_id.clone(), e.seq)).collect();
        assert_eq!(unique.len(), ordered.len());
    })
    .await
}

/// A hand the store knows the end of, appended to by a stale caller (behind the log)
/// or one ahead of it (a gap): both are refused with where the log ends, as for a hand
/// it does not know, and nothing is written.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_a_known_hand_still_refuses_stale_and_gapped_appends() {
    run_pg(|h| async move {
        let s = &*h.store;
        club_with_table(s, "c1", "t1").await;
        start_hand(s, &hand("c1", "h1", "t1", "hokm", 1, 5_000, &PLAYERS)).await;
        s.append(&append_req("c1", "h1", 1, 2)).await.unwrap();
        assert_eq!(
            conflict(s.append(&append_req("c1", "h1", 2, 1)).await),
            (2, 3)
        );
        assert_eq!(
            conflict(s.append(&append_req("c1", "h1", 4, 1)).await),
            (4, 3)
        );
        assert_eq!(
            conflict(s.append(&append_req("c1", "h1", 0, 1)).await),
            (0, 3)
        );
        s.append(&append_req("c1", "h1", 3, 1)).await.unwrap();
        s.append(&append_req("c1", "h1", 4, 1)).await.unwrap();
        assert_eq!(seqs(s, "c1", "h1").await, (0..=4).collect::<Vec<i64>>());
    })
    .await
}

/// When the database ends the store's connections (a restart, an administrator), the
/// writes in flight fail with an error and the next ones go in on new connections:
/// nothing is lost, written twice or out of order, whatever their outcome said.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_writes_go_on_after_their_connections_are_killed() {
    run_pg(|h| async move {
        let s = h.store.clone();
        let hands = club_with_hands(&*s, 4).await.len();
        // Each hand's writer appends 120 times, re-reading the log's end after a failure.
        let mut writers = Vec::new();
        for i in 0..hands {
            let s = s.clone();
            writers.push(tokio::spawn(async move {
                let id = format!("h{i}");
                let (mut next, mut failures) = (1i64, 0u32);
                for _ in 0..120 {
                    match s.append_owned(append_req("c1", &id, next, 1)).await {
                        Ok(()) => next += 1,
                        Err(_) => {
                            failures += 1;
                            // The outcome may be unknown: read where the log ends (the
                            // read may fail too while connections are being killed).
                            let mut tries = 0;
                            next = loop {
                                match s.get_hand("c1", &id).await {
                                    Ok(h) => break h.expect("the hand").next_seq,
                                    Err(e) if tries < 50 => {
                                        tries += 1;
                                        let _ = e;
                                        tokio::time::sleep(std::time::Duration::from_millis(20))
                                            .await;
                                    }
                                    Err(e) => panic!("the store stays unreachable: {e}"),
                                }
                            };
                        }
                    }
                }
                (next, failures)
            }));
        }
        let killer = {
            let Raw::Pg(cfg) = &h.raw else { unreachable!() };
            let cfg = (**cfg).clone();
            tokio::spawn(async move {
                let mut killed = 0i64;
                for _ in 0..5 {
                    tokio::time::sleep(std::time::Duration::from_millis(40)).await;
                    killed += kill_sessions_on(&cfg).await;
                }
                killed
            })
        };
        let mut results = Vec::new();
        for w in writers {
            results.push(w.await.unwrap());
        }
        assert!(killer.await.unwrap() > 0, "connections were killed");
        for (i, (next, _)) in results.iter().enumerate() {
            let id = format!("h{i}");
            // The pool may still hold a connection the last kill closed: its first use
            // answers Unavailable (retryable), as the writers saw; a retry gets a live one.
            let mut tries = 0;
            let got = loop {
                match s.list_events("c1", &id, 0, 1000).await {
                    Ok(rows) => break rows.iter().map(|e| e.seq).collect::<Vec<i64>>(),
                    Err(StoreError::Unavailable(_)) if tries < 20 => tries += 1,
                    Err(e) => panic!("list events: {e}"),
                }
            };
            // Contiguous from 0, each seq once, and the writer's idea of the end is right.
            assert_eq!(got, (0..*next).collect::<Vec<i64>>());
        }
        // The writes after the last kill went in.
        let after: Vec<i64> = results.iter().map(|(n, _)| *n).collect();
        for (i, n) in after.iter().enumerate() {
            s.append_owned(append_req("c1", &format!("h{i}"), *n, 1))
                .await
                .unwrap();
        }
    })
    .await
}

/// Terminates every other session on the test database (as a restart or a failover
/// would); how many.
async fn kill_sessions(h: &Harness) -> i64 {
    let Raw::Pg(cfg) = &h.raw else {
        panic!("kill_sessions on SQLite");
    };
    kill_sessions_on(cfg).await
}

async fn kill_sessions_on(cfg: &tokio_postgres::Config) -> i64 {
    let (client, conn) = cfg.connect(NoTls).await.expect("connect");
    let driver = tokio::spawn(conn);
    let n: i64 = client
        .query_one(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity \
             WHERE datname = current_database() AND pid <> pg_backend_pid()",
            &[],
        )
        .await
        .expect("terminate")
        .get(0);
    drop(client);
    let _ = driver.await;
    n
}

/// With a pool of one connection, held by the batch's leader, a write of the batch
/// that must be retried alone (a refused new hand fails the batch's statement; a known
/// append whose seq another process took) runs on that connection and gets its own
/// outcome at once, rather than waiting for a second connection that never comes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_retries_alone_need_no_second_connection() {
    run_pg(|h| async move {
        let Raw::Pg(cfg) = &h.raw else { unreachable!() };
        let s = PgStore::from_config((**cfg).clone(), 1).expect("pool");
        let other = second_pg_store(&h);
        club_with_table(&s, "c1", "t1").await;
        start_hand(&s, &hand("c1", "h1", "t1", "hokm", 1, 5_000, &PLAYERS)).await;
        s.append(&append_req("c1", "h1", 1, 1)).await.unwrap();
        let within = |f| tokio::time::timeout(std::time::Duration::from_secs(5), f);
        // t1 has h1 in progress: a second hand is refused, the statement fails.
        let late = hand("c1", "h2", "t1", "hokm", 2, 6_000, &PLAYERS);
        let late_first = event("c1", "h2", 0);
        let r = within(s.create_hand(&late, std::slice::from_ref(&late_first), &[], None))
            .await
            .expect("the refused hand is answered at once");
        assert!(matches!(r, Err(StoreError::Conflict { .. })), "{r:?}");
        // Another process takes h1's seq 2; this store knows h1 ends at 2.
        other.append(&append_req("c1", "h1", 2, 1)).await.unwrap();
        let r = within(s.append(&append_req("c1", "h1", 2, 1)))
            .await
            .expect("the stale append is answered at once");
        assert_eq!(conflict(r), (2, 3));
        s.append(&append_req("c1", "h1", 3, 1)).await.unwrap();
        assert_eq!(seqs(&s, "c1", "h1").await, vec![0, 1, 2, 3]);
    })
    .await
}

/// A leader holds its connection for one batch at a time: with one connection, reads
/// go on between a busy club's batches.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_a_busy_club_leaves_the_pool_to_others() {
    run_pg(|h| async move {
        let Raw::Pg(cfg) = &h.raw else { unreachable!() };
        let s = Arc::new(PgStore::from_config((**cfg).clone(), 1).expect("pool"));
        let hands = club_with_hands(&*s, 4).await.len();
        let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let mut writers = Vec::new();
        for i in 0..hands {
            let (s, stop) = (s.clone(), stop.clone());
            writers.push(tokio::spawn(async move {
                let id = format!("h{i}");
                let mut next = 1i64;
                while !stop.load(std::sync::atomic::Ordering::Relaxed) && next < 2_000 {
                    s.append_owned(append_req("c1", &id, next, 1))
                        .await
                        .unwrap();
                    next += 1;
                }
                next
            }));
        }
        // Reads while the club writes: each within a second (a read that waited for the
        // pool for ever would fail after 10 s).
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        for _ in 0..20 {
            let read =
                tokio::time::timeout(std::time::Duration::from_secs(1), s.get_hand("c1", "h0"))
                    .await
                    .expect("a read gets a connection between the club's batches");
            read.unwrap().expect("the hand");
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        for (i, w) in writers.into_iter().enumerate() {
            let next = w.await.unwrap();
            assert!(next > 1, "h{i} was written");
            assert_eq!(
                seqs(&*s, "c1", &format!("h{i}")).await,
                (0..next).collect::<Vec<i64>>()
            );
        }
    })
    .await
}

/// Where the store knows a hand's log to end, it stops knowing on a new connection: a
/// database that lost its last commits (a failover to a replica behind the primary,
/// here: events deleted behind the store's back, then every connection ended) gets no
/// append past its log's end.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_a_new_connection_forgets_the_known_log_ends() {
    run_pg(|h| async move {
        let s = &*h.store;
        club_with_table(s, "c1", "t1").await;
        start_hand(s, &hand("c1", "h1", "t1", "hokm", 1, 5_000, &PLAYERS)).await;
        // One at a time, so that the pool has its connections by the last one.
        for seq in 1..=3 {
            s.append(&append_req("c1", "h1", seq, 1)).await.unwrap();
        }
        // The store knows h1 ends at 4; the database loses seqs 2 and 3.
        h.raw_exec(
            "SET session_replication_role = replica; \
             DELETE FROM events WHERE hand_id = 'h1' AND seq >= 2;",
        )
        .await
        .unwrap();
        assert!(kill_sessions(&h).await > 0);
        // A write on a connection the store has not yet seen closed fails, unwritten
        // (its outcome unknown to the store); the next one is on a new connection.
        let mut r = s.append(&append_req("c1", "h1", 4, 1)).await;
        for _ in 0..5 {
            if !matches!(r, Err(StoreError::Unavailable(_))) {
                break;
            }
            r = s.append(&append_req("c1", "h1", 4, 1)).await;
        }
        assert_eq!(conflict(r), (4, 2));
        assert_eq!(seqs(s, "c1", "h1").await, vec![0, 1]);
        s.append(&append_req("c1", "h1", 2, 1)).await.unwrap();
    })
    .await
}

// ---------------------------------------------------------------------------------------
// The club-wide order (club_log) and its sequencer

/// PostgreSQL orders events after their append commits: until the sequencer has run,
/// a new event has no gid and is not in the club's order; then it has one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_event_has_no_gid_until_sequenced() {
    run_pg(|h| async move {
        let s = &*h.store;
        club_with_table(s, "c1", "t1").await;
        start_hand(s, &hand("c1", "h1", "t1", "hokm", 1, 5_000, &PLAYERS)).await;
        s.append(&append_req("c1", "h1", 1, 2)).await.unwrap();
        assert!(
            s.list_events("c1", "h1", 0, 10)
                .await
                .unwrap()
                .iter()
                .all(|e| e.gid.is_none()),
            "not ordered yet"
        );
        assert!(s.list_club_events("c1", 0, 10).await.unwrap().is_empty());
        assert_eq!(s.clubs_to_sequence().await.unwrap(), vec!["c1".to_owned()]);
        assert_eq!(s.sequence("c1", 1).await.unwrap(), 1, "one append: seq 0");
        assert_eq!(s.list_club_events("c1", 0, 10).await.unwrap().len(), 1);
        assert_eq!(s.sequence("c1", 100).await.unwrap(), 2);
        let gids: Vec<Option<i64>> = s
            .list_events("c1", "h1", 0, 10)
            .await
            .unwrap()
            .iter()
            .map(|e| e.gid)
            .collect();
        assert_eq!(gids, vec![Some(0), Some(1), Some(2)]);
    })
    .await
}

/// Sequencers racing each other and the appends of eight hands: every event gets
/// exactly one gid, gids are contiguous from 0, each hand's events are in seq order,
/// and a reader polling the club's order never sees a gid appear below one it saw.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn pg_sequencers_race_appends() {
    run_pg(|h| async move {
        let store = h.store.clone();
        club_with_table(&*store, "c1", "t0").await;
        for t in 1..8 {
            let tid = format!("t{t}");
            store
                .create_table(&table("c1", &tid, "hokm", &PLAYERS), None)
                .await
                .unwrap();
        }
        let done = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let writers: Vec<_> = (0..8)
            .map(|t| {
                let s = store.clone();
                tokio::spawn(async move {
                    let (tid, hid) = (format!("t{t}"), format!("h{t}"));
                    start_hand(&*s, &hand("c1", &hid, &tid, "hokm", 1, 5_000, &PLAYERS)).await;
                    for k in 0..15 {
                        s.append(&append_req("c1", &hid, 1 + 2 * k, 2))
                            .await
                            .unwrap();
                    }
                })
            })
            .collect();
        let sequencers: Vec<_> = (0..2)
            .map(|_| {
                let (s, done) = (store.clone(), done.clone());
                tokio::spawn(async move {
                    // Bounded: stops once the writers are done (or after 10,000 turns).
                    for _ in 0..10_000 {
                        if done.load(std::sync::atomic::Ordering::SeqCst) {
                            break;
                        }
                        s.sequence("c1", 3).await.unwrap();
                        tokio::task::yield_now().await;
                    }
                })
            })
            .collect();
        let reader = {
            let (s, done) = (store.clone(), done.clone());
            tokio::spawn(async move {
                let mut seen = 0i64;
                for _ in 0..10_000 {
                    if done.load(std::sync::atomic::Ordering::SeqCst) {
                        break;
                    }
                    let page = s.list_club_events("c1", 0, 10_000).await.unwrap();
                    let gids: Vec<i64> = page.iter().map(|e| e.gid.unwrap()).collect();
                    assert_eq!(gids, (0..gids.len() as i64).collect::<Vec<_>>(), "no gaps");
                    assert!(gids.len() as i64 >= seen, "the order only grows");
                    seen = gids.len() as i64;
                    tokio::task::yield_now().await;
                }
            })
        };
        for w in writers {
            w.await.unwrap();
        }
        done.store(true, std::sync::atomic::Ordering::SeqCst);
        for q in sequencers {
            q.await.unwrap();
        }
        reader.await.unwrap();
        sequence_all(&*store).await.unwrap();

        let all = store.list_club_events("c1", 0, 10_000).await.unwrap();
        assert_eq!(
            all.iter().map(|e| e.gid.unwrap()).collect::<Vec<_>>(),
            (0..8 * 31).collect::<Vec<_>>()
        );
        let mut by_hand: HashMap<String, Vec<i64>> = HashMap::new();
        for e in &all {
            by_hand.entry(e.hand_id.clone()).or_default().push(e.seq);
        }
        assert_eq!(by_hand.len(), 8);
        for seqs in by_hand.values() {
            assert_eq!(seqs, &(0..31).collect::<Vec<_>>());
        }
    })
    .await
}

/// A club whose ordering fails does not hold up the others: the pass orders them and
/// then reports the error.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_one_failing_club_does_not_stop_the_sequencer() {
    run_pg(|h| async move {
        let s = &*h.store;
        club_with_table(s, "c1", "t1").await;
        club_with_table(s, "c2", "t1").await;
        start_hand(s, &hand("c1", "h1", "t1", "hokm", 1, 5_000, &PLAYERS)).await;
        sequence_all(s).await.unwrap();
        // A cursor moved back over an event of c1 that is ordered already: its club_log
        // row would be a duplicate, so ordering c1 fails.
        h.raw_exec("UPDATE log_cursors SET next_seq = 0 WHERE club_id = 'c1' AND hand_id = 'h1'")
            .await
            .unwrap();
        start_hand(s, &hand("c2", "h1", "t1", "hokm", 1, 5_000, &PLAYERS)).await;
        s.append(&append_req("c2", "h1", 1, 2)).await.unwrap();

        assert!(sequence_all(s).await.is_err(), "c1's failure is reported");
        let c2 = s.list_club_events("c2", 0, 10).await.unwrap();
        assert_eq!(c2.len(), 3, "c2 (after c1) was ordered all the same");
        assert_eq!(s.list_club_events("c1", 0, 10).await.unwrap().len(), 1);
    })
    .await
}

/// A hand's cursor (V14) is written with the hand, moved by the sequencer, and deleted
/// once the hand is completed or abandoned and all its events are ordered; a hand in
/// progress or quarantined keeps its own. With nothing left waiting, no club is to be
/// sequenced.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_a_finished_hands_cursor_goes_once_its_events_are_ordered() {
    run_pg(|h| async move {
        let s = &*h.store;
        club_with_table(s, "c1", "t1").await;
        for t in ["t2", "t3"] {
            s.create_table(&table("c1", t, "hokm", &PLAYERS), None)
                .await
                .unwrap();
        }
        let cursors = || async {
            h.pg_text(
                "SELECT COALESCE(string_agg(hand_id || ':' || next_seq, ' ' ORDER BY hand_id), '') \
                 FROM log_cursors",
            )
            .await
        };
        start_hand(s, &hand("c1", "h1", "t1", "hokm", 1, 5_000, &PLAYERS)).await;
        start_hand(s, &hand("c1", "h2", "t2", "hokm", 1, 5_000, &PLAYERS)).await;
        start_hand(s, &hand("c1", "h3", "t3", "hokm", 1, 5_000, &PLAYERS)).await;
        assert_eq!(cursors().await, "h1:0 h2:0 h3:0", "written with the hands");
        s.append(&append_req("c1", "h1", 1, 2)).await.unwrap();
        let mut end = append_req("c1", "h2", 1, 2);
        end.hand_update = Some(completion());
        s.append(&end).await.unwrap();
        s.quarantine_hand(&quarantine_req("c1", "h3", HandStatus::InProgress))
            .await
            .unwrap();

        // Ordered in steps of two events: the finished hand's cursor goes only with its
        // last event ordered.
        let mut steps = Vec::new();
        while s.sequence("c1", 2).await.unwrap() > 0 {
            steps.push(cursors().await);
        }
        assert_eq!(steps.last().unwrap(), "h1:3 h3:1");
        assert!(steps.iter().all(|c| c.contains("h1:") && c.contains("h3:")));
        assert_eq!(s.list_club_events("c1", 0, 100).await.unwrap().len(), 7);
        assert!(s.clubs_to_sequence().await.unwrap().is_empty());

        // An event written behind the store's back past a gap in a hand's log waits for
        // the missing one, and holds up no other hand.
        h.raw_exec(
            "INSERT INTO events (club_id, hand_id, seq, kind, hash, prev_hash, record, created_ms) \
             VALUES ('c1', 'h1', 4, 'action', 'ff', 'ee', '{}', 1)",
        )
        .await
        .unwrap();
        s.append(&append_req("c1", "h3", 1, 1)).await.unwrap();
        sequence_all(s).await.unwrap();
        let order: Vec<(String, i64)> = s
            .list_club_events("c1", 0, 100)
            .await
            .unwrap()
            .into_iter()
            .map(|e| (e.hand_id, e.seq))
            .collect();
        assert_eq!(order.len(), 8);
        assert_eq!(order[7], ("h3".to_owned(), 1));
        assert_eq!(cursors().await, "h1:3 h3:2");
    })
    .await
}

/// Migration 14 replaces the queue with a cursor per hand, each at the hand's first
/// event not yet ordered: from its oldest queue row, or past its last ordered event;
/// hands that are over with nothing queued get none. The files run as they are, on
/// rows written the V13 way.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_migration_14_starts_each_cursor_at_the_first_waiting_event() {
    run_pg_empty(|cfg| async move {
        // h1 (events 0, 1) and h2 (event 0) in progress, all ordered by V2.
        let (client, driver) = pg_v1_with_rows(&cfg).await;
        for sql in [
            include_str!("../../schema/postgres/V2__club_log_sequencer.sql"),
            include_str!("../../schema/postgres/V3__hand_row_at_start_and_end.sql"),
            include_str!("../../schema/postgres/V4__no_per_row_hand_checks.sql"),
            include_str!("../../schema/postgres/V5__hand_inputs.sql"),
            include_str!("../../schema/postgres/V6__quarantine.sql"),
            include_str!("../../schema/postgres/V7__club_routed_tokens.sql"),
            include_str!("../../schema/postgres/V8__history_by_player.sql"),
            include_str!("../../schema/postgres/V9__seed_chains.sql"),
            include_str!("../../schema/postgres/V10__disputes.sql"),
            include_str!("../../schema/postgres/V11__club_log.sql"),
            include_str!("../../schema/postgres/V12__hand_shares.sql"),
            include_str!("../../schema/postgres/V13__official_revocations.sql"),
        ] {
            client.batch_execute(sql).await.unwrap();
        }
        client
            .batch_execute(
                // h1: events 2 and 3-4 queued. h2: completed with its event 1 queued.
                // h3: completed, all ordered. h4: quarantined, all ordered.
                "INSERT INTO game_tables (club_id, table_id, game, rules, setup, match_state, \
                     match_version, created_ms) \
                 VALUES ('c1', 't3', 'hokm', '{}', '{}', '{}', 0, 1); \
                 INSERT INTO events (club_id, hand_id, seq, kind, hash, prev_hash, record, created_ms) \
                 VALUES ('c1', 'h1', 2, 'action', 'dd', 'cc', '{}', 1), \
                        ('c1', 'h1', 3, 'action', 'ee', 'dd', '{}', 1), \
                        ('c1', 'h1', 4, 'action', 'ff', 'ee', '{}', 1), \
                        ('c1', 'h2', 1, 'hand_ended', 'b1', 'bb', '{}', 1); \
                 INSERT INTO log_queue (club_id, hand_id, from_seq, to_seq) \
                 VALUES ('c1', 'h1', 2, 3), ('c1', 'h2', 1, 2), ('c1', 'h1', 3, 5); \
                 UPDATE hands SET status = 'completed', next_seq = 2 WHERE hand_id = 'h2'; \
                 INSERT INTO hands (club_id, hand_id, table_id, game, hand_no, status, next_seq, \
                     players, started_ms, quarantine) \
                 VALUES ('c1', 'h3', 't3', 'hokm', 1, 'completed', 1, '{a}', 1, NULL), \
                        ('c1', 'h4', 't3', 'hokm', 2, 'quarantined', 1, '{a}', 1, '{}'); \
                 INSERT INTO events (club_id, hand_id, seq, kind, hash, prev_hash, record, created_ms) \
                 VALUES ('c1', 'h3', 0, 'hand_started', 'c0', '00', '{}', 1), \
                        ('c1', 'h4', 0, 'hand_started', 'd0', '00', '{}', 1); \
                 INSERT INTO club_log (club_id, gid, hand_id, seq) \
                 VALUES ('c1', 3, 'h3', 0), ('c1', 4, 'h4', 0); \
                 UPDATE clubs SET next_gid = 5 WHERE club_id = 'c1';",
            )
            .await
            .unwrap();
        client
            .batch_execute(include_str!("../../schema/postgres/V14__log_cursors.sql"))
            .await
            .unwrap();
        let rows = client
            .query(
                "SELECT hand_id, next_seq FROM log_cursors WHERE club_id = 'c1' ORDER BY hand_id",
                &[],
            )
            .await
            .unwrap();
        let got: Vec<(String, i64)> = rows.iter().map(|r| (r.get(0), r.get(1))).collect();
        assert_eq!(
            got,
            vec![("h1".into(), 2), ("h2".into(), 1), ("h4".into(), 1)]
        );
        let queue: Option<String> = client
            .query_one("SELECT to_regclass('log_queue')::text", &[])
            .await
            .unwrap()
            .get(0);
        assert_eq!(queue, None, "the queue is gone");
        drop(client);
        let _ = driver.await;
    })
    .await
}

/// Migration 2 moves the club order V1 wrote (events.gid) into club_log unchanged, on
/// both databases: the V1 and V2 files run as they are, on rows written the V1 way.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_migration_2_keeps_the_v1_order() {
    run_pg_empty(|cfg| async move {
        let (client, driver) = pg_v1_with_rows(&cfg).await;
        client
            .batch_execute(include_str!(
                "../../schema/postgres/V2__club_log_sequencer.sql"
            ))
            .await
            .unwrap();
        let rows = client
            .query(
                "SELECT gid, hand_id, seq FROM club_log WHERE club_id = 'c1' ORDER BY gid",
                &[],
            )
            .await
            .unwrap();
        let got: Vec<(i64, String, i64)> = rows
            .iter()
            .map(|r| (r.get(0), r.get(1), r.get(2)))
            .collect();
        assert_eq!(got, v1_order());
        let n: i64 = client
            .query_one("SELECT count(*) FROM events", &[])
            .await
            .unwrap()
            .get(0);
        assert_eq!(n, 3);
        drop(client);
        let _ = driver.await;
    })
    .await
}

#[test]
fn sqlite_migration_2_keeps_the_v1_order() {
    let dir = tempfile::tempdir().unwrap();
    let mut conn = rusqlite::Connection::open(dir.path().join("m.sqlite3")).unwrap();
    conn.pragma_update(None, "foreign_keys", true).unwrap();
    conn.execute_batch(include_str!("../../schema/sqlite/V1__initial.sql"))
        .unwrap();
    conn.execute_batch(&v1_rows(r#"["a"]"#)).unwrap();
    // As refinery runs it: in one transaction.
    let tx = conn.transaction().unwrap();
    tx.execute_batch(include_str!("../../schema/sqlite/V2__club_log.sql"))
        .unwrap();
    tx.commit().unwrap();
    let mut stmt = conn
        .prepare("SELECT gid, hand_id, seq FROM club_log WHERE club_id = 'c1' ORDER BY gid")
        .unwrap();
    let got: Vec<(i64, String, i64)> = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(got, v1_order());
    let n: i64 = conn
        .query_row("SELECT count(*) FROM events", [], |r| r.get(0))
        .unwrap();
    assert_eq!(n, 3);
    // The rebuilt events table is still append-only.
    let err = conn.execute("DELETE FROM events", []).unwrap_err();
    assert!(err.to_string().contains("append-only"), "{err}");
}

/// The migrations as the store embeds them, to stop short of a version.
mod pg_migrations {
    refinery::embed_migrations!("../schema/postgres");
}
mod sqlite_migrations {
    refinery::embed_migrations!("../schema/sqlite");
}

/// The last PostgreSQL schema version whose tokens do not name their club.
const PG_BEFORE_ROUTED_TOKENS: i32 = 6;
/// The same for SQLite.
const SQLITE_BEFORE_ROUTED_TOKENS: i32 = 4;

/// Keys and seats as the code before club-routed tokens wrote them: ids unique across
/// clubs, found by id alone.
const LEGACY_TOKEN_ROWS: &str = "
    INSERT INTO clubs (club_id, name, created_ms) VALUES ('c1', 'One', 1), ('c2', 'Two', 1);
    INSERT INTO api_keys (club_id, key_id, key_hash, role, created_ms)
        VALUES ('c1', 'k1', 'HASH', 'admin', 1), ('c2', 'k2', 'HASH', 'auditor', 1);
    INSERT INTO game_tables (club_id, table_id, game, rules, setup, match_state, match_version, created_ms)
        VALUES ('c1', 't1', 'hokm', '{}', '{}', '{}', 0, 1);
    INSERT INTO seats (club_id, table_id, seat, player, token_id, token_hash)
        VALUES ('c1', 't1', 0, 'a', 's0', 'HASH'), ('c1', 't1', 1, 'b', 's1', 'HASH');
";

fn legacy_token_rows() -> String {
    LEGACY_TOKEN_ROWS.replace("HASH", &hex64(7))
}

/// After the migration to club-routed tokens, a store migrated from a database with
/// tokens of the old format: every key and seat that existed has its route, the rows
/// are found by club and id, and ids are free to be used again in other clubs; keys
/// made since have no route.
async fn routes_of_the_tokens_issued_before(s: &dyn Store) {
    for (kind, id, club) in [
        (TokenKind::ApiKey, "k1", "c1"),
        (TokenKind::ApiKey, "k2", "c2"),
        (TokenKind::Seat, "s0", "c1"),
        (TokenKind::Seat, "s1", "c1"),
    ] {
        assert_eq!(
            s.legacy_token_club(kind, id).await.unwrap().as_deref(),
            Some(club),
            "{kind:?} {id}"
        );
    }
    // Kinds do not mix, nor do unknown ids route.
    assert_eq!(
        s.legacy_token_club(TokenKind::Seat, "k1").await.unwrap(),
        None
    );
    assert_eq!(
        s.legacy_token_club(TokenKind::ApiKey, "nope")
            .await
            .unwrap(),
        None
    );
    assert_eq!(
        s.find_api_key("c1", "k1").await.unwrap().map(|k| k.role),
        Some(KeyRole::Admin)
    );
    let seat = s.find_seat_by_token("c1", "s1").await.unwrap().unwrap();
    assert_eq!((seat.table_id.as_str(), seat.seat.seat), ("t1", 1));

    // Ids are unique within a club now: c2 may take c1's key id, and the old route
    // still leads to c1.
    s.add_api_key(&key("c2", "k1", KeyRole::Auditor))
        .await
        .unwrap();
    s.add_api_key(&key("c1", "k-new", KeyRole::Auditor))
        .await
        .unwrap();
    assert_eq!(
        s.legacy_token_club(TokenKind::ApiKey, "k1")
            .await
            .unwrap()
            .as_deref(),
        Some("c1")
    );
    assert_eq!(
        s.legacy_token_club(TokenKind::ApiKey, "k-new")
            .await
            .unwrap(),
        None
    );
    assert!(matches!(
        s.add_api_key(&key("c1", "k1", KeyRole::Auditor)).await,
        Err(StoreError::Duplicate("api key"))
    ));
}

/// Migration 8 gives every seat row its hand's start, so that a store migrated from V7
/// lists a player's hands by the new index, in order, with nothing left out.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_migration_8_gives_the_seats_their_hands_start() {
    run_pg_empty(|cfg| async move {
        let (mut client, conn) = cfg.connect(NoTls).await.unwrap();
        let driver = tokio::spawn(conn);
        pg_migrations::migrations::runner()
            .set_target(refinery::Target::Version(7))
            .run_async(&mut client)
            .await
            .unwrap();
        client
            .batch_execute(
                "INSERT INTO clubs (club_id, name, created_ms) VALUES ('c1', 'One', 1);
                 INSERT INTO game_tables (club_id, table_id, game, rules, setup, match_state,
                     match_version, created_ms) VALUES ('c1', 't1', 'hokm', '{}', '{}', '{}', 0, 1);
                 INSERT INTO hands (club_id, hand_id, table_id, game, hand_no, status, next_seq,
                     players, started_ms) VALUES
                     ('c1', 'h1', 't1', 'hokm', 1, 'completed', 1, '{a,b}', 100),
                     ('c1', 'h2', 't1', 'hokm', 2, 'completed', 1, '{b,a}', 300),
                     ('c1', 'h3', 't1', 'hokm', 3, 'in_progress', 1, '{a,c}', 200);
                 INSERT INTO hand_players (club_id, hand_id, seat, player) VALUES
                     ('c1', 'h1', 0, 'a'), ('c1', 'h1', 1, 'b'),
                     ('c1', 'h2', 0, 'b'), ('c1', 'h2', 1, 'a'),
                     ('c1', 'h3', 0, 'a'), ('c1', 'h3', 1, 'c');",
            )
            .await
            .unwrap();
        let store = PgStore::from_config(cfg, 2).unwrap();
        store.migrate().await.unwrap();
        let missing: i64 = client
            .query_one(
                "SELECT count(*) FROM hand_players p JOIN hands h USING (club_id, hand_id) \
                 WHERE p.started_ms IS DISTINCT FROM h.started_ms",
                &[],
            )
            .await
            .unwrap()
            .get(0);
        assert_eq!(missing, 0);
        let listed = |player: &str| {
            let filter = HandFilter {
                player: Some(player.into()),
                limit: 10,
                ..Default::default()
            };
            let store = &store;
            async move {
                store
                    .list_hands("c1", &filter)
                    .await
                    .unwrap()
                    .into_iter()
                    .map(|h| h.hand_id)
                    .collect::<Vec<_>>()
            }
        };
        assert_eq!(listed("a").await, vec!["h2", "h3", "h1"]);
        assert_eq!(listed("c").await, vec!["h3"]);
        drop(client);
        let _ = driver.await;
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_migration_7_routes_the_tokens_issued_before_it() {
    run_pg_empty(|cfg| async move {
        let (mut client, conn) = cfg.connect(NoTls).await.unwrap();
        let driver = tokio::spawn(conn);
        pg_migrations::migrations::runner()
            .set_target(refinery::Target::Version(PG_BEFORE_ROUTED_TOKENS))
            .run_async(&mut client)
            .await
            .unwrap();
        client.batch_execute(&legacy_token_rows()).await.unwrap();
        drop(client);
        let _ = driver.await;
        let store = PgStore::from_config(cfg, 2).unwrap();
        store.migrate().await.unwrap();
        routes_of_the_tokens_issued_before(&store).await;
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_migration_5_routes_the_tokens_issued_before_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("dealer.sqlite3");
    {
        let mut conn = rusqlite::Connection::open(&path).unwrap();
        conn.pragma_update(None, "foreign_keys", true).unwrap();
        sqlite_migrations::migrations::runner()
            .set_target(refinery::Target::Version(SQLITE_BEFORE_ROUTED_TOKENS))
            .run(&mut conn)
            .unwrap();
        conn.execute_batch(&legacy_token_rows()).unwrap();
    }
    let store = SqliteStore::open(&path).unwrap();
    store.migrate().await.unwrap();
    routes_of_the_tokens_issued_before(&store).await;
}

/// Rows as V1 wrote them: two hands whose events interleave in the club's order.
/// `players` is the database's literal for a list of one player.
/// A connection to an empty PostgreSQL database on which the V1 file has run, with the
/// rows [`V1_ROWS`] as V1 wrote them; and the task driving the connection.
async fn pg_v1_with_rows(
    cfg: &tokio_postgres::Config,
) -> (
    tokio_postgres::Client,
    tokio::task::JoinHandle<Result<(), tokio_postgres::Error>>,
) {
    let (client, conn) = cfg.connect(NoTls).await.unwrap();
    let driver = tokio::spawn(conn);
    client
        .batch_execute(include_str!("../../schema/postgres/V1__initial.sql"))
        .await
        .unwrap();
    client.batch_execute(&v1_rows("{a}")).await.unwrap();
    (client, driver)
}

fn v1_rows(players: &str) -> String {
    V1_ROWS.replace("PLAYERS", players)
}

const V1_ROWS: &str = "
    INSERT INTO clubs (club_id, name, created_ms, next_gid) VALUES ('c1', 'Club', 1, 3);
    INSERT INTO game_tables (club_id, table_id, game, rules, setup, match_state, match_version, created_ms)
        VALUES ('c1', 't1', 'hokm', '{}', '{}', '{}', 0, 1), ('c1', 't2', 'hokm', '{}', '{}', '{}', 0, 1);
    INSERT INTO hands (club_id, hand_id, table_id, game, hand_no, status, next_seq, players, started_ms)
        VALUES ('c1', 'h1', 't1', 'hokm', 1, 'in_progress', 2, 'PLAYERS', 1),
               ('c1', 'h2', 't2', 'hokm', 1, 'in_progress', 1, 'PLAYERS', 1);
    INSERT INTO events (club_id, hand_id, seq, gid, kind, hash, prev_hash, record, created_ms)
        VALUES ('c1', 'h1', 0, 0, 'hand_started', 'aa', '00', '{}', 1),
               ('c1', 'h2', 0, 1, 'hand_started', 'bb', '00', '{}', 1),
               ('c1', 'h1', 1, 2, 'action', 'cc', 'aa', '{}', 1);
";

fn v1_order() -> Vec<(i64, String, i64)> {
    vec![
        (0, "h1".into(), 0),
        (1, "h2".into(), 0),
        (2, "h1".into(), 1),
    ]
}

// ---------------------------------------------------------------------------------------
// Ready for Citus (docs/SCALING.md)

/// The tables that are not distributed by club: Citus reference tables, one copy on
/// every node. Each is named in docs/SCALING.md with its reason; none has a foreign key.
const REFERENCE_TABLES: &[&str] = &["token_routes"];

/// refinery's bookkeeping of applied migrations: a local table of the coordinator.
const LOCAL_TABLES: &[&str] = &["refinery_schema_history"];

/// Every table but [`REFERENCE_TABLES`] and [`LOCAL_TABLES`], as the catalog lists it.
const CATALOG_TABLES: &str = "SELECT c.oid, c.relname::text AS name FROM pg_class c \
     JOIN pg_namespace n ON n.oid = c.relnamespace \
     WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND c.relname <> ALL($1)";

/// The migrated PostgreSQL schema can be distributed by club as it is: every table but
/// the named exceptions has a `club_id` of one type and collation (which co-location
/// needs), every primary key and unique index leads with it (so Citus can enforce it
/// on one shard), and every foreign key joins `club_id` to `club_id` (so it never
/// crosses clubs, hence shards). Reference tables have no foreign keys at all.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_catalog_is_ready_for_citus() {
    run_pg(|h| async move {
        let Raw::Pg(cfg) = &h.raw else { unreachable!() };
        let (db, conn) = cfg.connect(NoTls).await.expect("connect");
        let driver = tokio::spawn(conn);
        let skip: Vec<&str> = REFERENCE_TABLES
            .iter()
            .chain(LOCAL_TABLES)
            .copied()
            .collect();
        let names = |sql: String, params: Vec<Vec<&'static str>>| {
            let db = &db;
            async move {
                let params: Vec<&(dyn tokio_postgres::types::ToSql + Sync)> = params
                    .iter()
                    .map(|p| p as &(dyn tokio_postgres::types::ToSql + Sync))
                    .collect();
                let rows = db.query(&sql, &params).await.expect(&sql);
                rows.iter()
                    .map(|r| r.get::<_, String>(0))
                    .collect::<Vec<_>>()
            }
        };

        let mut tables = names(
            format!("SELECT name FROM ({CATALOG_TABLES}) t"),
            vec![skip.clone()],
        )
        .await;
        tables.sort();
        assert!(tables.contains(&"events".to_string()), "{tables:?}");

        let no_club = names(
            format!(
                "SELECT t.name FROM ({CATALOG_TABLES}) t \
                 WHERE NOT EXISTS (SELECT 1 FROM pg_attribute a \
                     WHERE a.attrelid = t.oid AND a.attname = 'club_id' \
                     AND NOT a.attisdropped AND a.attnotnull \
                     AND a.atttypid = 'text'::regtype \
                     AND a.attcollation = 'pg_catalog.\"C\"'::regcollation) \
                 ORDER BY 1"
            ),
            vec![skip.clone()],
        )
        .await;
        assert!(
            no_club.is_empty(),
            "tables without a NOT NULL club_id TEXT COLLATE \"C\": {no_club:?}"
        );

        let unique_not_by_club = names(
            format!(
                "SELECT t.name || '.' || i.relname FROM ({CATALOG_TABLES}) t \
                 JOIN pg_index x ON x.indrelid = t.oid \
                 JOIN pg_class i ON i.oid = x.indexrelid \
                 LEFT JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = x.indkey[0] \
                 WHERE (x.indisunique OR x.indisexclusion) \
                   AND a.attname IS DISTINCT FROM 'club_id' \
                 ORDER BY 1"
            ),
            vec![skip.clone()],
        )
        .await;
        assert!(
            unique_not_by_club.is_empty(),
            "primary keys and unique indexes that do not lead with club_id: \
             {unique_not_by_club:?}"
        );

        // Foreign keys of every table, the exceptions included.
        let across_clubs = names(
            "SELECT c.relname || '.' || con.conname FROM pg_constraint con \
             JOIN pg_class c ON c.oid = con.conrelid \
             JOIN pg_namespace n ON n.oid = c.relnamespace \
             WHERE con.contype = 'f' AND n.nspname = 'public' \
               AND (c.relname = ANY($1) OR NOT EXISTS ( \
                   SELECT 1 FROM unnest(con.conkey, con.confkey) AS k(col, fcol) \
                   JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.col \
                   JOIN pg_attribute f ON f.attrelid = con.confrelid AND f.attnum = k.fcol \
                   WHERE a.attname = 'club_id' AND f.attname = 'club_id')) \
             ORDER BY 1"
                .to_string(),
            vec![REFERENCE_TABLES.to_vec()],
        )
        .await;
        assert!(
            across_clubs.is_empty(),
            "foreign keys that do not join club_id to club_id, or from a reference \
             table: {across_clubs:?}"
        );

        // docs/SCALING.md distributes exactly these tables by club, co-located with
        // `clubs`, and makes the reference tables reference tables.
        let (distributed, reference) = scaling_doc_tables();
        assert_eq!(
            distributed, tables,
            "the tables docs/SCALING.md distributes by club_id, and the catalog's"
        );
        let mut want_reference: Vec<String> =
            REFERENCE_TABLES.iter().map(|t| t.to_string()).collect();
        want_reference.sort();
        assert_eq!(
            reference, want_reference,
            "the reference tables of docs/SCALING.md"
        );

        // The named exceptions exist: a stale name here would hide nothing, but would
        // mislead the reader.
        let exceptions = names(
            "SELECT relname::text FROM pg_class WHERE relkind = 'r' AND relname = ANY($1) \
             ORDER BY 1"
                .to_string(),
            vec![skip.clone()],
        )
        .await;
        let mut want: Vec<String> = skip.iter().map(|s| s.to_string()).collect();
        want.sort();
        assert_eq!(exceptions, want, "the named reference and local tables");

        drop(db);
        let _ = driver.await;
    })
    .await
}

/// The tables of the `create_distributed_table` and `create_reference_table` calls of
/// docs/SCALING.md, each list sorted. A distributed table must be distributed by
/// `club_id` and, but for `clubs`, co-located with `clubs`.
fn scaling_doc_tables() -> (Vec<String>, Vec<String>) {
    let doc = include_str!("../../docs/SCALING.md");
    let named = |line: &str, call: &str| -> Option<String> {
        let rest = &line[line.find(call)? + call.len()..];
        Some(rest.split('\'').next()?.to_string())
    };
    let (mut distributed, mut reference) = (Vec::new(), Vec::new());
    for line in doc.lines().filter(|l| l.starts_with("SELECT ")) {
        if let Some(t) = named(line, "create_distributed_table('") {
            assert!(line.contains(&format!("('{t}', 'club_id'")), "{line}");
            assert!(
                t == "clubs" || line.contains("colocate_with => 'clubs')"),
                "{line}"
            );
            distributed.push(t);
        } else if let Some(t) = named(line, "create_reference_table('") {
            reference.push(t);
        }
    }
    distributed.sort();
    reference.sort();
    (distributed, reference)
}

/// The SQLite schema keeps the same shape, so that both stores mean the same by "unique":
/// every unique index leads with `club_id`, every foreign key joins it to `club_id`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_catalog_leads_with_club_id() {
    run_sqlite(|h| async move {
        let Raw::Sqlite(path) = &h.raw else {
            unreachable!()
        };
        let conn = rusqlite::Connection::open(path).unwrap();
        let skip: Vec<String> = REFERENCE_TABLES
            .iter()
            .chain(LOCAL_TABLES)
            .map(|t| format!("'{t}'"))
            .collect();
        let skip = skip.join(", ");
        let names = |sql: &str| -> Vec<String> {
            let mut stmt = conn.prepare(sql).expect(sql);
            stmt.query_map([], |r| r.get(0))
                .unwrap()
                .collect::<Result<_, _>>()
                .unwrap()
        };
        let unique_not_by_club = names(&format!(
            "SELECT m.name || '.' || il.name FROM sqlite_schema m \
             JOIN pragma_index_list(m.name) il \
             JOIN pragma_index_info(il.name) ii ON ii.seqno = 0 \
             WHERE m.type = 'table' AND il.\"unique\" AND m.name NOT IN ({skip}) \
               AND ii.name IS NOT 'club_id' \
             ORDER BY 1"
        ));
        assert!(
            unique_not_by_club.is_empty(),
            "unique indexes that do not lead with club_id: {unique_not_by_club:?}"
        );
        let across_clubs = names(
            "SELECT m.name || ' -> ' || fk.\"table\" FROM sqlite_schema m \
             JOIN pragma_foreign_key_list(m.name) fk \
             WHERE m.type = 'table' GROUP BY m.name, fk.id \
             HAVING sum(fk.\"from\" = 'club_id' AND fk.\"to\" = 'club_id') = 0 \
             ORDER BY 1",
        );
        assert!(
            across_clubs.is_empty(),
            "foreign keys that do not join club_id to club_id: {across_clubs:?}"
        );
    })
    .await
}

fn quarantine_req(club_id: &str, hand_id: &str, expected: HandStatus) -> QuarantineRequest {
    QuarantineRequest {
        club_id: club_id.into(),
        hand_id: hand_id.into(),
        expected_status: expected,
        quarantine: Quarantine {
            reason: "a row was inserted behind our back".into(),
            quarantined_ms: 9_000,
            by: "key-c1".into(),
            seq: 3,
            rule: "hash".into(),
        },
        ended_ms: 9_000,
        table_update: None,
        idem: None,
    }
}

/// A running hand is quarantined: its row records who, when and why, with its end time;
/// it is no longer the table's hand in progress (a next hand may start), it is listed by
/// its status, and an append that ends it afterwards (a writer that still held it) is
/// refused, and so is a second quarantine. A finished hand keeps its end time; a stale
/// match version refuses the whole quarantine; an unknown hand is not found.
async fn quarantine_sets_a_hand_aside(h: Harness) {
    let s = &*h.store;
    club_with_table(s, "c1", "t1").await;
    start_hand(s, &hand("c1", "h1", "t1", "hokm", 1, 5_000, &PLAYERS)).await;
    s.append(&append_req("c1", "h1", 1, 2)).await.unwrap();

    let mut q = quarantine_req("c1", "h1", HandStatus::InProgress);
    q.idem = Some(idem("c1", "quarantine-h1"));
    q.table_update = Some(TableUpdate {
        table_id: "t1".into(),
        expected_match_version: 0,
        match_state: json!({ "scores": [0, 0], "restarted": true }),
    });
    s.quarantine_hand(&q).await.unwrap();
    let row = s.get_hand("c1", "h1").await.unwrap().unwrap();
    assert_eq!(row.status, HandStatus::Quarantined);
    assert_eq!(row.quarantine.as_ref(), Some(&q.quarantine));
    assert_eq!(row.ended_ms, Some(9_000));
    assert!(s
        .get_idempotency("c1", "quarantine-h1")
        .await
        .unwrap()
        .is_some());
    let t = s.get_table("c1", "t1").await.unwrap().unwrap();
    assert_eq!(
        (t.match_version, t.match_state["restarted"].clone()),
        (1, json!(true))
    );
    assert_eq!(s.current_hand("c1", "t1").await.unwrap(), None);
    let listed = s
        .list_hands(
            "c1",
            &HandFilter {
                status: Some(HandStatus::Quarantined),
                limit: 10,
                ..HandFilter::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(listed, vec![row.clone()]);

    // A writer that still held the hand cannot end it now.
    let mut end = append_req("c1", "h1", 3, 1);
    end.hand_update = Some(completion());
    assert!(matches!(
        s.append(&end).await,
        Err(StoreError::Conflict { .. })
    ));
    let after = s.get_hand("c1", "h1").await.unwrap().unwrap();
    assert_eq!(
        (after.status, after.outcome),
        (HandStatus::Quarantined, None)
    );
    assert_eq!(seqs(s, "c1", "h1").await, vec![0, 1, 2]);
    assert!(matches!(
        s.quarantine_hand(&quarantine_req("c1", "h1", HandStatus::InProgress))
            .await,
        Err(StoreError::Conflict { .. })
    ));

    // The table's next hand starts; a finished hand keeps its end time; a stale match
    // version refuses the quarantine whole.
    start_hand(s, &hand("c1", "h2", "t1", "hokm", 2, 10_000, &PLAYERS)).await;
    let mut done = append_req("c1", "h2", 1, 1);
    done.hand_update = Some(completion());
    s.append(&done).await.unwrap();
    let mut stale = quarantine_req("c1", "h2", HandStatus::Completed);
    stale.table_update = Some(TableUpdate {
        table_id: "t1".into(),
        expected_match_version: 0,
        match_state: json!({ "scores": [1, 1] }),
    });
    assert!(matches!(
        s.quarantine_hand(&stale).await,
        Err(StoreError::Conflict { .. })
    ));
    assert_eq!(
        s.get_hand("c1", "h2").await.unwrap().unwrap().status,
        HandStatus::Completed
    );
    s.quarantine_hand(&quarantine_req("c1", "h2", HandStatus::Completed))
        .await
        .unwrap();
    let h2 = s.get_hand("c1", "h2").await.unwrap().unwrap();
    assert_eq!(h2.status, HandStatus::Quarantined);
    assert_eq!(h2.ended_ms, completion().ended_ms);
    assert!(matches!(
        s.quarantine_hand(&quarantine_req("c1", "ghost", HandStatus::InProgress))
            .await,
        Err(StoreError::NotFound("hand"))
    ));
}

/// A chained table is created with its chain in one write; the chain a hand is dealt from
/// is the one with the greatest first hand not above it; a second chain from the same hand
/// is a conflict; a chain for an unknown table is not found.
async fn seed_chains_by_hand_number(h: Harness) {
    let s = h.store.as_ref();
    s.create_club(&club("c1"), &key("c1", "k1", KeyRole::Admin))
        .await
        .unwrap();
    let t = table("c1", "t1", "hokm", &PLAYERS);
    s.create_chained_table(&t, &chain("c1", "t1", 1, 3), Some(&idem("c1", "mk-t1")))
        .await
        .unwrap();
    assert!(s.get_table("c1", "t1").await.unwrap().is_some());
    assert_eq!(s.seed_chain("c1", "t1", 0).await.unwrap(), None);
    let first = s.seed_chain("c1", "t1", 1).await.unwrap().unwrap();
    assert_eq!(first, chain("c1", "t1", 1, 3));
    assert_eq!(
        s.seed_chain("c1", "t1", 9).await.unwrap(),
        Some(first.clone())
    );
    s.add_seed_chain(&chain("c1", "t1", 4, 2), None)
        .await
        .unwrap();
    assert_eq!(s.seed_chain("c1", "t1", 3).await.unwrap(), Some(first));
    assert_eq!(
        s.seed_chain("c1", "t1", 5).await.unwrap(),
        Some(chain("c1", "t1", 4, 2))
    );
    assert!(matches!(
        s.add_seed_chain(&chain("c1", "t1", 4, 9), None).await,
        Err(StoreError::Conflict { .. })
    ));
    assert!(matches!(
        s.add_seed_chain(&chain("c1", "nope", 1, 9), None).await,
        Err(StoreError::NotFound("table"))
    ));
    // A failed chained table leaves neither table nor chain.
    let t2 = table("c1", "t2", "hokm", &PLAYERS);
    assert!(matches!(
        s.create_chained_table(&t2, &chain("c1", "t2", 1, 3), Some(&idem("c1", "mk-t1")))
            .await,
        Err(StoreError::IdempotencyConflict)
    ));
    assert!(s.get_table("c1", "t2").await.unwrap().is_none());
    assert_eq!(s.seed_chain("c1", "t2", 1).await.unwrap(), None);
    // Another club sees none of it.
    assert_eq!(s.seed_chain("c2", "t1", 1).await.unwrap(), None);
}

// ---------------------------------------------------------------------------------------
// Disputes

fn dispute(club_id: &str, dispute_id: &str, hand_id: &str, opened_ms: i64) -> DisputeRow {
    DisputeRow {
        club_id: club_id.into(),
        dispute_id: dispute_id.into(),
        hand_id: hand_id.into(),
        table_id: "t1".into(),
        event: Some(3),
        kind: "wrong_score".into(),
        claim: "paid short".into(),
        status: "open".into(),
        opened_role: "seat".into(),
        opened_by: "tok-1".into(),
        opened_ms,
        updated_ms: opened_ms,
        entries: 1,
        head: hex64(1),
    }
}

fn dispute_entry(club_id: &str, dispute_id: &str, seq: i64) -> DisputeEntryRow {
    DisputeEntryRow {
        club_id: club_id.into(),
        dispute_id: dispute_id.into(),
        seq,
        kind: if seq == 0 { "opened" } else { "ruling" }.into(),
        hash: hex64(u64::try_from(seq).unwrap() + 1),
        prev_hash: hex64(u64::try_from(seq).unwrap()),
        record: json!({ "entry": { "seq": seq, "dispute": dispute_id } }),
        created_ms: 5_000 + seq,
    }
}

/// Officials are registered once per key and club; a dispute opens with entry 0 (and its
/// idempotency record) or not at all; a ruling appends only on the entry count it was made
/// on (a second ruling on the same count conflicts and writes nothing), moving the row's
/// status, count and head with it; lists filter, page newest first, and never show another
/// club's; entries and officials are append-only in the database.
async fn disputes_and_their_records(h: Harness) {
    let s = &*h.store;
    let d = s.disputes();
    club_with_table(s, "c1", "t1").await;
    club_with_table(s, "c2", "t1").await;
    start_hand(s, &hand("c1", "h1", "t1", "hokm", 1, 5_000, &PLAYERS)).await;

    let o = OfficialRow {
        club_id: "c1".into(),
        key_id: "ed25519:0011223344556677".into(),
        name: "Hamid".into(),
        public_key: hex64(9),
        registered_ms: 1,
        registered_by: "key-c1".into(),
        revoked: None,
    };
    d.add_official(&o, Some(&idem("c1", "off-1")))
        .await
        .unwrap();
    assert!(matches!(
        d.add_official(&o, None).await,
        Err(StoreError::Duplicate("official"))
    ));
    assert_eq!(d.list_officials("c1").await.unwrap(), vec![o.clone()]);
    assert!(d.list_officials("c2").await.unwrap().is_empty());
    assert_eq!(
        d.get_official("c1", &o.key_id).await.unwrap(),
        Some(o.clone())
    );
    assert_eq!(d.get_official("c2", &o.key_id).await.unwrap(), None);

    // A revocation: once, of a registered key, read back with the official; append-only.
    let rev = services::store::Revocation {
        revoked_ms: 2,
        revoked_by: "key-c1".into(),
        reason: "key lost".into(),
    };
    assert!(matches!(
        d.revoke_official("c1", "ed25519:ffffffffffffffff", &rev, None)
            .await,
        Err(StoreError::NotFound(_))
    ));
    assert!(matches!(
        d.revoke_official("c2", &o.key_id, &rev, None).await,
        Err(StoreError::NotFound(_))
    ));
    let o2 = OfficialRow {
        key_id: "ed25519:8899aabbccddeeff".into(),
        public_key: hex64(10),
        registered_ms: 3,
        ..o.clone()
    };
    d.add_official(&o2, None).await.unwrap();
    d.revoke_official("c1", &o2.key_id, &rev, Some(&idem("c1", "rev-1")))
        .await
        .unwrap();
    assert!(matches!(
        d.revoke_official("c1", &o2.key_id, &rev, None).await,
        Err(StoreError::Duplicate("revocation"))
    ));
    let revoked = OfficialRow {
        revoked: Some(rev.clone()),
        ..o2.clone()
    };
    assert_eq!(
        d.get_official("c1", &o2.key_id).await.unwrap(),
        Some(revoked.clone())
    );
    assert_eq!(
        d.list_officials("c1").await.unwrap(),
        vec![o.clone(), revoked]
    );

    // A dispute of an unknown hand is refused whole, its idempotency key unused.
    let ghost = dispute("c1", "d0", "h-none", 10);
    assert!(matches!(
        d.open_dispute(
            &ghost,
            &dispute_entry("c1", "d0", 0),
            Some(&idem("c1", "k0"))
        )
        .await,
        Err(StoreError::NotFound(_))
    ));
    assert!(s.get_idempotency("c1", "k0").await.unwrap().is_none());

    let d1 = dispute("c1", "d1", "h1", 10);
    d.open_dispute(&d1, &dispute_entry("c1", "d1", 0), Some(&idem("c1", "k1")))
        .await
        .unwrap();
    assert!(matches!(
        d.open_dispute(&d1, &dispute_entry("c1", "d1", 0), None)
            .await,
        Err(StoreError::Duplicate("dispute"))
    ));
    let mut d2 = dispute("c1", "d2", "h1", 20);
    d2.kind = "unfair_deal".into();
    d2.opened_by = "tok-2".into();
    d.open_dispute(&d2, &dispute_entry("c1", "d2", 0), None)
        .await
        .unwrap();
    assert_eq!(d.get_dispute("c1", "d1").await.unwrap(), Some(d1.clone()));
    assert_eq!(d.get_dispute("c2", "d1").await.unwrap(), None);

    let ruling = |expected: i64, idem_key: Option<&str>| RulingAppend {
        club_id: "c1".into(),
        dispute_id: "d1".into(),
        expected_entries: expected,
        entry: dispute_entry("c1", "d1", expected),
        status: "rejected".into(),
        idem: idem_key.map(|k| idem("c1", k)),
    };
    d.append_ruling(&ruling(1, Some("r1"))).await.unwrap();
    // The same count again (another official's ruling signed over the same head).
    assert!(matches!(
        d.append_ruling(&ruling(1, Some("r2"))).await,
        Err(StoreError::Conflict {
            expected: 1,
            found: 2
        })
    ));
    assert!(s.get_idempotency("c1", "r2").await.unwrap().is_none());
    let mut other_club = ruling(1, None);
    other_club.club_id = "c2".into();
    other_club.entry.club_id = "c2".into();
    assert!(matches!(
        d.append_ruling(&other_club).await,
        Err(StoreError::NotFound(_))
    ));
    let row = d.get_dispute("c1", "d1").await.unwrap().unwrap();
    assert_eq!(
        (row.status.as_str(), row.entries, row.head.as_str()),
        ("rejected", 2, hex64(2).as_str())
    );
    let entries = d.list_dispute_entries("c1", "d1").await.unwrap();
    assert_eq!(
        entries.iter().map(|e| e.seq).collect::<Vec<_>>(),
        vec![0, 1]
    );
    assert_eq!(entries[1], dispute_entry("c1", "d1", 1));

    let list = |f: DisputeFilter| async move {
        d.list_disputes("c1", &f)
            .await
            .unwrap()
            .into_iter()
            .map(|r| r.dispute_id)
            .collect::<Vec<_>>()
    };
    let all = DisputeFilter {
        limit: 10,
        ..DisputeFilter::default()
    };
    assert_eq!(list(all.clone()).await, vec!["d2", "d1"]);
    for (f, want) in [
        (
            DisputeFilter {
                status: Some("rejected".into()),
                ..all.clone()
            },
            vec!["d1"],
        ),
        (
            DisputeFilter {
                kind: Some("unfair_deal".into()),
                ..all.clone()
            },
            vec!["d2"],
        ),
        (
            DisputeFilter {
                opened_by: Some("tok-1".into()),
                ..all.clone()
            },
            vec!["d1"],
        ),
        (
            DisputeFilter {
                hand_id: Some("h1".into()),
                ..all.clone()
            },
            vec!["d2", "d1"],
        ),
        (
            DisputeFilter {
                table_id: Some("t9".into()),
                ..all.clone()
            },
            vec![],
        ),
        (
            DisputeFilter {
                limit: 1,
                ..all.clone()
            },
            vec!["d2"],
        ),
        (
            DisputeFilter {
                cursor: Some((20, "d2".into())),
                ..all.clone()
            },
            vec!["d1"],
        ),
    ] {
        assert_eq!(list(f.clone()).await, want, "{f:?}");
    }
    assert!(d.list_disputes("c2", &all).await.unwrap().is_empty());

    for sql in [
        "UPDATE dispute_entries SET kind = 'opened'",
        "DELETE FROM dispute_entries",
        "UPDATE officials SET name = 'x'",
        "DELETE FROM officials",
        "UPDATE official_revocations SET reason = 'x'",
        "DELETE FROM official_revocations",
    ] {
        assert!(h.raw_exec(sql).await.is_err(), "{sql} must be refused");
    }
    assert_eq!(d.list_dispute_entries("c1", "d1").await.unwrap().len(), 2);
}
