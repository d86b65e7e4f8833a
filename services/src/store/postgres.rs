//! [`Store`] on PostgreSQL, through a deadpool-postgres pool.
//!
//! Writes run in one READ COMMITTED transaction each. Two writers of one hand are
//! ordered by the primary key of `events`: an append's first event goes in only right
//! after the hand's last committed event, and a second writer of the same `seq` waits
//! for the first and then finds it taken (a clean conflict). The hand's row is written
//! when the hand starts and when it ends, not by every append (see `batch`). Locks are
//! always taken in the order idempotency key, new hand, events, hand, table, so writers
//! never deadlock one another.
//!
//! Every statement a request runs names one club (`club_id = $1`) on every table it
//! touches and joins on `club_id`, so that the database can be distributed by club
//! (docs/SCALING.md); the exceptions are the legacy token routes (a reference table) and
//! the sequencer's `clubs_to_sequence`.
//!
//! An append takes no club-wide lock and writes nothing but its events (and the rows of
//! a hand that ends): the sequencer ([`Store::sequence`]) finds each hand's new events
//! from the hand's cursor (`log_cursors`, written with the hand) and gives them their
//! place in the club's order (`club_log`) afterwards, under the club's row lock.
//!
//! `append` and `create_hand` of one club are group-committed: queued, then written
//! several at a time in one statement or transaction (one WAL flush), each write
//! keeping its own outcome; see `batch`. A write that cannot go in a batch runs alone
//! in a transaction of its own (`append_one`, `create_hand_one`), on the connection of
//! the batch's leader.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use deadpool_postgres::{
    GenericClient, Hook, Manager, ManagerConfig, Object, Pool, PoolError, QueueMode,
    RecyclingMethod, Runtime,
};
use tokio_postgres::error::SqlState;
use tokio_postgres::types::ToSql;
use tokio_postgres::{NoTls, Row};

use super::{
    check_append, check_idem, check_key_club, check_new_hand, check_new_table, check_seed_chain,
    page_limit, parse_role, parse_status, ApiKeyRow, AppendRequest, ClubRow, EventRow, HandFilter,
    HandRow, HandStatus, IdemRow, InputRow, QuarantineRequest, SeatLookup, SeatRow, SecretRow,
    SeedChainRow, Store, StoreError, TableRow, TableUpdate, TokenKind, SEED_CHAIN_COLS,
};
use super::{CheckpointRow, ClubLeafRow};

mod batch;
mod checks;
mod clublog;
mod disputes;
mod read;
mod shares;

use batch::{Op, Writer};

mod embedded {
    refinery::embed_migrations!("../schema/postgres");
}

/// Key of the session advisory lock that serializes concurrent migrations.
const MIGRATION_LOCK: i64 = 0x6465_616c_6572; // "dealer"

/// How long a request waits for a pooled connection before the store reports
/// [`StoreError::Unavailable`].
const POOL_WAIT: Duration = Duration::from_secs(10);

/// The production store: PostgreSQL through a connection pool.
///
/// Commits are durable (the server's default `synchronous_commit`); nothing here
/// relaxes it.
pub struct PgStore {
    pool: Pool,
    pg_config: tokio_postgres::Config,
    /// Group commit of event writes, per club (see `batch`).
    writer: Arc<Writer>,
    /// Routes this store's reads to a standby, in [`Store::reader`]'s store (`read`).
    router: Option<Arc<read::ReadRouter>>,
    /// [`Store::reader`]: this store with a router, when a standby is configured.
    reader: Option<Box<PgStore>>,
    /// Most connections, all pools together.
    max_size: usize,
    /// Connections in each HTTP worker's own pool; 0: none has one
    /// ([`PgStore::with_worker_pools`]).
    worker_pool_size: usize,
    /// This store's pools among a worker thread's ([`WORKER_POOLS`]).
    id: usize,
}

impl std::fmt::Debug for PgStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Not the config: it may hold a password.
        f.debug_struct("PgStore")
            .field("pool", &self.pool.status())
            .finish()
    }
}

impl PgStore {
    /// A store on the database at `url` (`postgres://user@host:port/db?...`) with at
    /// most `max_size` pooled connections. Connects lazily: a database that is down
    /// now shows as [`StoreError::Unavailable`] from the first call, not here.
    pub fn connect(url: &str, max_size: usize) -> Result<Self, StoreError> {
        // The parse error could quote the URL, password included: say only that it failed.
        let pg_config: tokio_postgres::Config = url
            .parse()
            .map_err(|_| StoreError::Config("malformed PostgreSQL URL".into()))?;
        Self::from_config(pg_config, max_size)
    }

    /// A store from an already built connection config.
    pub fn from_config(
        mut pg_config: tokio_postgres::Config,
        max_size: usize,
    ) -> Result<Self, StoreError> {
        if pg_config.get_connect_timeout().is_none() {
            pg_config.connect_timeout(Duration::from_secs(5));
        }
        let writer = Arc::new(Writer::default());
        let pool = build_pool(&pg_config, max_size, &writer)?;
        Ok(PgStore {
            pool,
            pg_config,
            writer,
            router: None,
            reader: None,
            max_size: max_size.max(1),
            worker_pool_size: 0,
            id: NEXT_STORE_ID.fetch_add(1, Ordering::Relaxed),
        })
    }

    /// Gives each of `workers` HTTP worker threads ([`mark_worker_thread`]) a pool of its
    /// own, out of this store's `max_size`: `(max_size - 1) / workers` connections each,
    /// the rest (at least one) left to the shared pool for every other thread (the
    /// sequencer, the log builder, administrative commands). The total stays at most
    /// `max_size`. Without at least two workers and one connection each besides the
    /// shared one, every thread shares the one pool, as before.
    ///
    /// Why: a pooled connection's I/O runs as a task on the runtime of the thread that
    /// opened it. An actix worker is a one-thread runtime, so a connection shared by two
    /// workers sends every query of the one to the other's thread and wakes it, and back:
    /// two cross-thread wake-ups per query (ops/README.md, fourteenth round). A worker's
    /// own connections answer on its own thread.
    pub fn with_worker_pools(mut self, workers: usize) -> Self {
        if workers >= 2 && self.max_size > workers {
            let each = (self.max_size - 1) / workers;
            self.pool.resize(self.max_size - each * workers);
            self.worker_pool_size = each;
        }
        self
    }

    /// The pool for a connection taken on this thread: on an HTTP worker thread
    /// ([`mark_worker_thread`]) of a store with worker pools ([`PgStore::with_worker_pools`]),
    /// the thread's own (made on first use); elsewhere the shared one.
    fn local_pool(&self) -> Pool {
        if self.worker_pool_size == 0 {
            return self.pool.clone();
        }
        WORKER_POOLS.with(|w| {
            let mut w = w.borrow_mut();
            let Some(pools) = w.as_mut() else {
                return self.pool.clone();
            };
            if let Some((_, p)) = pools.iter().find(|(id, _)| *id == self.id) {
                return p.clone();
            }
            match build_pool(&self.pg_config, self.worker_pool_size, &self.writer) {
                Ok(p) => {
                    pools.push((self.id, p.clone()));
                    p
                }
                // Not reached: building a pool with a valid size and a runtime cannot
                // fail. Were it to, the shared pool still serves.
                Err(_) => self.pool.clone(),
            }
        })
    }
}

/// Tells stores' pools apart in a thread's [`WORKER_POOLS`].
static NEXT_STORE_ID: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// On an HTTP worker thread ([`mark_worker_thread`]), the thread's own pool of each
    /// store with worker pools, by the store's id; `None` on any other thread.
    static WORKER_POOLS: RefCell<Option<Vec<(usize, Pool)>>> = const { RefCell::new(None) };
}

/// Marks the calling thread as an HTTP worker: a one-thread runtime that serves requests
/// for as long as it lives. Stores with worker pools ([`PgStore::with_worker_pools`]) take
/// connections on it from a pool of the thread's own, opened there, so that their I/O
/// runs on this thread.
pub fn mark_worker_thread() {
    WORKER_POOLS.with(|w| {
        w.borrow_mut().get_or_insert_with(Vec::new);
    });
}

/// A pool of at most `max_size` connections by `pg_config`, telling `writer` of every
/// connection it opens (see `batch::LogEnds`).
fn build_pool(
    pg_config: &tokio_postgres::Config,
    max_size: usize,
    writer: &Arc<Writer>,
) -> Result<Pool, StoreError> {
    let manager = Manager::from_config(
        pg_config.clone(),
        NoTls,
        ManagerConfig {
            recycling_method: RecyclingMethod::Fast,
        },
    );
    let opened = Arc::clone(writer);
    Pool::builder(manager)
        .max_size(max_size.max(1))
        // The connection returned last goes out first: the few connections that
        // do most of the work (a club's batch leaders) keep their prepared
        // statements and plans warm, where FIFO spread each batch over every
        // connection, to be planned afresh on each (ops/README.md, fourth round).
        .queue_mode(QueueMode::Lifo)
        // A new connection may be to another database than the one the writer's
        // knowledge of hands' log ends came from (a failover): it forgets it.
        .post_create(Hook::sync_fn(move |_, _| {
            opened.connection_opened();
            Ok(())
        }))
        .runtime(Runtime::Tokio1)
        .wait_timeout(Some(POOL_WAIT))
        .create_timeout(Some(Duration::from_secs(10)))
        .recycle_timeout(Some(Duration::from_secs(5)))
        .build()
        .map_err(|e| StoreError::Config(format!("connection pool: {e}")))
}

impl PgStore {
    /// This store with reads that may go to the hot standby at `read_url` (pool of at
    /// most `max_size`): those of [`Store::reader`]. See `read` for the rule.
    pub fn with_standby(mut self, read_url: &str, max_size: usize) -> Result<Self, StoreError> {
        let router = read::ReadRouter::new(read_url, max_size)?;
        self.reader = Some(Box::new(PgStore {
            pool: self.pool.clone(),
            pg_config: self.pg_config.clone(),
            writer: Arc::clone(&self.writer),
            router: Some(Arc::new(router)),
            reader: None,
            max_size: self.max_size,
            worker_pool_size: self.worker_pool_size,
            id: self.id,
        }));
        Ok(self)
    }

    /// The pool, for metrics.
    pub fn pool(&self) -> &Pool {
        &self.pool
    }

    async fn client(&self) -> Result<Object, StoreError> {
        client_of(&self.local_pool()).await
    }

    /// A connection for a read that a standby may serve: the primary's unless this is
    /// the [`Store::reader`] of a store with a standby.
    async fn read_client(&self) -> Result<Object, StoreError> {
        match &self.router {
            Some(r) => r.client(&self.local_pool()).await,
            None => self.client().await,
        }
    }

    /// A page of [`Store::list_hands`], each hand read as `cols` (`h` is `hands`).
    async fn list_hands_reading(
        &self,
        cols: &str,
        club_id: &str,
        filter: &HandFilter,
    ) -> Result<Vec<HandRow>, StoreError> {
        let status = filter.status.map(|s| s.as_str());
        let limit = page_limit(filter.limit);
        let mut params: Vec<&(dyn ToSql + Sync)> = vec![&club_id];
        let (mut sql, by) = match &filter.player {
            Some(p) => {
                // The player's hands newest first, from their own index, each joined to
                // its row: one index entry and one row per hand listed, however long the
                // player's history (an EXISTS per hand read all of the player's hands
                // and sorted them, ops/README.md, fifth round). DISTINCT ON: a player
                // may hold two seats of one hand.
                let mut inner = String::from(
                    "SELECT DISTINCT ON (p.started_ms, p.hand_id) p.started_ms, p.hand_id \
                     FROM hand_players p WHERE p.club_id = $1",
                );
                bind(&mut inner, &mut params, " AND p.player = $?", p);
                bind_bounds(filter, &mut inner, &mut params, "p");
                inner.push_str(" ORDER BY p.started_ms DESC, p.hand_id DESC");
                (
                    format!(
                        "SELECT {cols} FROM ({inner}) p JOIN hands h \
                         ON h.club_id = $1 AND h.hand_id = p.hand_id WHERE h.club_id = $1"
                    ),
                    "p",
                )
            }
            None => {
                let mut sql = format!("SELECT {cols} FROM hands h WHERE h.club_id = $1");
                bind_bounds(filter, &mut sql, &mut params, "h");
                (sql, "h")
            }
        };
        if let Some(t) = &filter.table_id {
            bind(&mut sql, &mut params, " AND h.table_id = $?", t);
        }
        if let Some(g) = &filter.game {
            bind(&mut sql, &mut params, " AND h.game = $?", g);
        }
        if let Some(s) = &status {
            bind(&mut sql, &mut params, " AND h.status = $?", s);
        }
        bind(
            &mut sql,
            &mut params,
            &format!(" ORDER BY {by}.started_ms DESC, {by}.hand_id DESC LIMIT $?"),
            &limit,
        );
        let client = self.read_client().await?;
        let rows = client.query(&sql, &params).await.map_err(map_pg)?;
        rows.iter().map(hand_from).collect()
    }
}

async fn client_of(pool: &Pool) -> Result<Object, StoreError> {
    pool.get().await.map_err(map_pool)
}

// ---------------------------------------------------------------------------------------
// Errors

fn map_pool(e: PoolError) -> StoreError {
    match e {
        PoolError::Backend(e) => map_pg(e),
        other => {
            tracing::warn!(error = %other, "postgres pool");
            StoreError::Unavailable(format!("connection pool: {other}"))
        }
    }
}

/// Maps a PostgreSQL error to a [`StoreError`] by its SQLSTATE and constraint name.
/// Callers that need context (the current `next_seq`, the next hand number) look for
/// their own constraints with [`violated`] first.
fn map_pg(e: tokio_postgres::Error) -> StoreError {
    if let Some(db) = e.as_db_error() {
        let code = db.code();
        if *code == SqlState::UNIQUE_VIOLATION {
            match db.constraint().unwrap_or_default() {
                "clubs_pkey" => return StoreError::Duplicate("club"),
                "api_keys_pkey" => return StoreError::Duplicate("api key"),
                "game_tables_pkey" => return StoreError::Duplicate("table"),
                "seats_pkey" => return StoreError::Duplicate("seat"),
                "seats_token_key" => return StoreError::Duplicate("seat token"),
                "hands_pkey" => return StoreError::Duplicate("hand"),
                "hand_secrets_pkey" => return StoreError::Duplicate("secret"),
                "hand_inputs_pkey" => return StoreError::Duplicate("input"),
                "idempotency_keys_pkey" => return StoreError::IdempotencyConflict,
                "seed_chains_pkey" => {
                    return StoreError::Conflict {
                        expected: 0,
                        found: 1,
                    }
                }
                "hands_in_progress_key" => {
                    return StoreError::Conflict {
                        expected: 0,
                        found: 1,
                    }
                }
                _ => {}
            }
        } else if *code == SqlState::FOREIGN_KEY_VIOLATION {
            match db.constraint().unwrap_or_default() {
                "api_keys_club_fkey" | "game_tables_club_fkey" | "idempotency_keys_club_fkey" => {
                    return StoreError::NotFound("club")
                }
                "hands_table_fkey" | "seed_chains_table_fkey" => {
                    return StoreError::NotFound("table")
                }
                "events_hand_fkey" | "hand_secrets_hand_fkey" | "hand_players_hand_fkey" => {
                    return StoreError::NotFound("hand")
                }
                _ => {}
            }
        }
        let c = code.code();
        let retryable = *code == SqlState::T_R_SERIALIZATION_FAILURE
            || *code == SqlState::T_R_DEADLOCK_DETECTED
            || c.starts_with("08") // connection exception
            || c.starts_with("53") // insufficient resources
            || c.starts_with("57P"); // shutdown, cannot connect now

        // The message names constraints and types, never a secret; the detail (which
        // quotes key values) is left out.
        let text = format!("postgres {c}: {}", db.message());
        if retryable {
            tracing::warn!(error = %text, "postgres unavailable");
            StoreError::Unavailable(text)
        } else {
            tracing::error!(error = %text, "postgres error");
            StoreError::Internal(text)
        }
    } else if e.is_closed()
        || std::error::Error::source(&e).is_some_and(|s| s.is::<std::io::Error>())
    {
        tracing::warn!(error = %e, "postgres connection");
        StoreError::Unavailable(format!("postgres connection: {e}"))
    } else {
        tracing::error!(error = %e, "postgres client error");
        StoreError::Internal(format!("postgres client: {e}"))
    }
}

/// The constraint a unique violation broke, if that is what `e` is.
fn violated(e: &tokio_postgres::Error) -> Option<&str> {
    let db = e.as_db_error()?;
    (*db.code() == SqlState::UNIQUE_VIOLATION).then(|| db.constraint())?
}

/// Why a write transaction stopped: a [`StoreError`], or a unique violation whose
/// report needs a fresh read after the rollback.
enum Fail {
    Store(StoreError),
    /// `events_pkey`: the hand already has an event at this `seq`.
    SeqTaken,
    /// `hands_hand_no_key`: the table already has a hand with this number.
    HandNoTaken,
}

impl From<StoreError> for Fail {
    fn from(e: StoreError) -> Self {
        Fail::Store(e)
    }
}

fn get<'a, T: tokio_postgres::types::FromSql<'a>>(
    row: &'a Row,
    idx: &str,
) -> Result<T, StoreError> {
    row.try_get(idx)
        .map_err(|e| StoreError::Internal(format!("postgres column {idx}: {e}")))
}

/// A page of a hand's events from `from_seq` on ([`EVENTS_PAGE_SQL`]: without their places
/// in the club's order).
async fn events_page(
    client: &Object,
    club_id: &str,
    hand_id: &str,
    from_seq: i64,
    limit: i64,
) -> Result<Vec<EventRow>, StoreError> {
    let stmt = client
        .prepare_cached(EVENTS_PAGE_SQL)
        .await
        .map_err(map_pg)?;
    let rows = client
        .query(&stmt, &[&club_id, &hand_id, &from_seq, &limit])
        .await
        .map_err(map_pg)?;
    rows.iter().map(event_from).collect()
}

// ---------------------------------------------------------------------------------------
// Rows

/// A hand row's columns, for an INSERT.
const HAND_COLS: &str = "club_id, hand_id, table_id, game, hand_no, status, next_seq, players, \
     started_ms, ended_ms, outcome, abandon_reason";
/// The next `seq` of the hand `h` (a row of `hands`). A running (or quarantined) hand's
/// is one past its last event, one step back along `events_pkey`. A completed or
/// abandoned hand's is the one its row recorded with its end: the write that ended it
/// wrote it with its last events, and the hand takes no more (`batch::first_events_sql`),
/// so the index is not read (PostgreSQL evaluates only the `CASE` branch taken). It is
/// what the embedded store reads for every hand, and where the service ended the hand: a
/// row added behind the store's back past that end is damage, which the reads of the
/// whole log report (`hands::restore`), not a longer hand.
macro_rules! next_seq_sql {
    () => {
        "CASE WHEN h.status IN ('completed', 'abandoned') THEN h.next_seq \
              ELSE COALESCE((SELECT e.seq + 1 FROM events e \
                             WHERE e.club_id = h.club_id AND e.hand_id = h.hand_id \
                             ORDER BY e.seq DESC LIMIT 1), h.next_seq) END"
    };
}

/// A hand row's columns as read (`h` is `hands`). The stored `next_seq` is written with
/// the hand's status (at its start and its end), not by the appends in between (their
/// events' primary key is what orders them, see `batch`), so a running hand's next `seq`
/// is read as one past its last event (see [`next_seq_sql`]).
const HAND_READ: &str = concat!(
    "h.club_id, h.hand_id, h.table_id, h.game, h.hand_no, h.status, ",
    next_seq_sql!(),
    " AS next_seq, h.players, h.started_ms, h.ended_ms, h.outcome, h.abandon_reason, \
     h.quarantine"
);
/// A hand row's columns as stored (`h` is `hands`): `next_seq` as the row has it, a lower
/// bound (see [`HAND_READ`]), for the listings that show none ([`Store::list_hands_stored`]).
const HAND_STORED: &str = "h.club_id, h.hand_id, h.table_id, h.game, h.hand_no, h.status, \
     h.next_seq, h.players, h.started_ms, h.ended_ms, h.outcome, h.abandon_reason, h.quarantine";
/// An event's columns with its gid from `club_log` (`e` is `events`, `l` the club log,
/// joined on the event).
const EVENT_COLS: &str =
    "e.club_id, e.hand_id, e.seq, l.gid, e.kind, e.hash, e.prev_hash, e.record, e.created_ms";
/// A page of a hand's events (club, hand, first `seq`, limit), as [`EVENT_COLS`] without
/// the club order's place (read as `NULL`).
const EVENTS_PAGE_SQL: &str = "SELECT e.club_id, e.hand_id, e.seq, NULL::bigint AS gid, e.kind, \
    e.hash, e.prev_hash, e.record, e.created_ms FROM events e \
    WHERE e.club_id = $1 AND e.hand_id = $2 AND e.seq >= $3 ORDER BY e.seq LIMIT $4";
const TABLE_COLS: &str =
    "club_id, table_id, game, rules, setup, match_state, match_version, created_ms";
const SEAT_COLS: &str = "club_id, table_id, seat, player, token_id, token_hash, public_key";

fn hand_from(row: &Row) -> Result<HandRow, StoreError> {
    Ok(HandRow {
        club_id: get(row, "club_id")?,
        hand_id: get(row, "hand_id")?,
        table_id: get(row, "table_id")?,
        game: get(row, "game")?,
        hand_no: get(row, "hand_no")?,
        status: parse_status(get(row, "status")?)?,
        next_seq: get(row, "next_seq")?,
        players: get(row, "players")?,
        started_ms: get(row, "started_ms")?,
        ended_ms: get(row, "ended_ms")?,
        outcome: get(row, "outcome")?,
        abandon_reason: get(row, "abandon_reason")?,
        quarantine: get::<Option<serde_json::Value>>(row, "quarantine")?
            .map(serde_json::from_value)
            .transpose()?,
    })
}

fn event_from(row: &Row) -> Result<EventRow, StoreError> {
    Ok(EventRow {
        club_id: get(row, "club_id")?,
        hand_id: get(row, "hand_id")?,
        seq: get(row, "seq")?,
        gid: get(row, "gid")?,
        kind: get(row, "kind")?,
        hash: get(row, "hash")?,
        prev_hash: get(row, "prev_hash")?,
        record: get(row, "record")?,
        created_ms: get(row, "created_ms")?,
    })
}

fn table_from(row: &Row, seats: Vec<SeatRow>) -> Result<TableRow, StoreError> {
    Ok(TableRow {
        club_id: get(row, "club_id")?,
        table_id: get(row, "table_id")?,
        game: get(row, "game")?,
        rules: get(row, "rules")?,
        setup: get(row, "setup")?,
        match_state: get(row, "match_state")?,
        match_version: get(row, "match_version")?,
        seats,
        created_ms: get(row, "created_ms")?,
    })
}

fn seat_from(row: &Row) -> Result<SeatRow, StoreError> {
    Ok(SeatRow {
        seat: get(row, "seat")?,
        player: get(row, "player")?,
        token_id: get(row, "token_id")?,
        token_hash: get(row, "token_hash")?,
        public_key: get(row, "public_key")?,
    })
}

fn idem_from(row: &Row) -> Result<IdemRow, StoreError> {
    Ok(IdemRow {
        club_id: get(row, "club_id")?,
        key: get(row, "key")?,
        request_hash: get(row, "request_hash")?,
        status: get(row, "status")?,
        response: get(row, "response")?,
        created_ms: get(row, "created_ms")?,
    })
}

// ---------------------------------------------------------------------------------------
// Statements shared by several writes

/// Records the idempotency row first: a second request with the same key waits for the
/// first to commit and then fails here, before it touches anything else.
async fn insert_idem(
    tx: &deadpool_postgres::Transaction<'_>,
    idem: &IdemRow,
) -> Result<(), StoreError> {
    let stmt = tx
        .prepare_cached(
            "INSERT INTO idempotency_keys \
             (club_id, key, request_hash, status, response, created_ms) \
             VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (club_id, key) DO NOTHING",
        )
        .await
        .map_err(map_pg)?;
    let n = tx
        .execute(
            &stmt,
            &[
                &idem.club_id,
                &idem.key,
                &idem.request_hash,
                &idem.status,
                &idem.response,
                &idem.created_ms,
            ],
        )
        .await
        .map_err(map_pg)?;
    if n == 0 {
        return Err(StoreError::IdempotencyConflict);
    }
    Ok(())
}

/// Inserts a hand's events (`from_seq..` in order). The sequencer finds them from the
/// hand's cursor ([`sequence_club`]).
async fn insert_events(
    tx: &deadpool_postgres::Transaction<'_>,
    events: &[EventRow],
) -> Result<(), Fail> {
    let stmt = tx
        .prepare_cached(
            "INSERT INTO events \
             (club_id, hand_id, seq, kind, hash, prev_hash, record, created_ms) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .await
        .map_err(map_pg)?;
    for ev in events {
        tx.execute(
            &stmt,
            &[
                &ev.club_id,
                &ev.hand_id,
                &ev.seq,
                &ev.kind,
                &ev.hash,
                &ev.prev_hash,
                &ev.record,
                &ev.created_ms,
            ],
        )
        .await
        .map_err(|e| match violated(&e) {
            // Someone else's row at this seq: a lost race, reported as a conflict.
            Some("events_pkey") => Fail::SeqTaken,
            _ => Fail::Store(map_pg(e)),
        })?;
    }
    Ok(())
}

async fn insert_secrets(
    tx: &deadpool_postgres::Transaction<'_>,
    secrets: &[SecretRow],
) -> Result<(), StoreError> {
    if secrets.is_empty() {
        return Ok(());
    }
    let stmt = tx
        .prepare_cached(
            "INSERT INTO hand_secrets (club_id, hand_id, shuffle, sealed) VALUES ($1, $2, $3, $4)",
        )
        .await
        .map_err(map_pg)?;
    for s in secrets {
        tx.execute(&stmt, &[&s.club_id, &s.hand_id, &s.shuffle, &s.sealed])
            .await
            .map_err(map_pg)?;
    }
    Ok(())
}

async fn insert_inputs(
    tx: &deadpool_postgres::Transaction<'_>,
    inputs: &[InputRow],
) -> Result<(), StoreError> {
    if inputs.is_empty() {
        return Ok(());
    }
    let stmt = tx
        .prepare_cached(
            "INSERT INTO hand_inputs (club_id, hand_id, seq, sealed) VALUES ($1, $2, $3, $4)",
        )
        .await
        .map_err(map_pg)?;
    for i in inputs {
        tx.execute(&stmt, &[&i.club_id, &i.hand_id, &i.seq, &i.sealed])
            .await
            .map_err(map_pg)?;
    }
    Ok(())
}

async fn next_hand_no_on(
    client: &Object,
    club_id: &str,
    table_id: &str,
) -> Result<i64, StoreError> {
    let stmt = client
        .prepare_cached(
            // Not MAX(hand_no): planned, on young statistics, as a read of every hand
            // of the table through hands_table_started_idx (121 rows for a table after
            // 20 s of the benchmark, growing with its history); one step back along
            // hands_hand_no_key instead.
            "SELECT COALESCE((SELECT hand_no FROM hands WHERE club_id = $1 AND table_id = $2 \
                              ORDER BY hand_no DESC LIMIT 1), 0) + 1 AS n",
        )
        .await
        .map_err(map_pg)?;
    let row = client
        .query_one(&stmt, &[&club_id, &table_id])
        .await
        .map_err(map_pg)?;
    get(&row, "n")
}

/// The hand's next `seq` (one past its last event); `None` for an unknown hand. The
/// hand's stored `next_seq` is only a lower bound (see `batch`).
async fn next_seq_of(
    client: &impl GenericClient,
    club_id: &str,
    hand_id: &str,
) -> Result<Option<i64>, tokio_postgres::Error> {
    Ok(log_end_of(client, club_id, hand_id).await?.map(|(n, _)| n))
}

/// The hand's next `seq`, and whether it has ended (completed or abandoned: it takes no
/// more events, see `batch::first_events_sql`); `None` for an unknown hand.
async fn log_end_of(
    client: &impl GenericClient,
    club_id: &str,
    hand_id: &str,
) -> Result<Option<(i64, bool)>, tokio_postgres::Error> {
    let stmt = client
        .prepare_cached(concat!(
            "SELECT ",
            next_seq_sql!(),
            ", h.status IN ('completed', 'abandoned') \
             FROM hands h WHERE h.club_id = $1 AND h.hand_id = $2"
        ))
        .await?;
    client
        .query_opt(&stmt, &[&club_id, &hand_id])
        .await?
        .map(|row| Ok((row.try_get(0)?, row.try_get(1)?)))
        .transpose()
}

async fn seats_of(
    client: &Object,
    club_id: &str,
    table_id: &str,
) -> Result<Vec<SeatRow>, StoreError> {
    let stmt = client
        .prepare_cached(&format!(
            "SELECT {SEAT_COLS} FROM seats WHERE club_id = $1 AND table_id = $2 ORDER BY seat"
        ))
        .await
        .map_err(map_pg)?;
    let rows = client
        .query(&stmt, &[&club_id, &table_id])
        .await
        .map_err(map_pg)?;
    rows.iter().map(seat_from).collect()
}

/// The one hand of club `$1` that `cond` (on `hands h`, parameters from `$2`) picks, as
/// every read of a hand gives it ([`HAND_READ`]).
async fn one_hand(
    client: &Object,
    cond: &str,
    params: &[&(dyn ToSql + Sync)],
) -> Result<Option<HandRow>, StoreError> {
    let stmt = client
        .prepare_cached(&format!(
            "SELECT {HAND_READ} FROM hands h WHERE h.club_id = $1 AND {cond}"
        ))
        .await
        .map_err(map_pg)?;
    let row = client.query_opt(&stmt, params).await.map_err(map_pg)?;
    row.as_ref().map(hand_from).transpose()
}

async fn commit(tx: deadpool_postgres::Transaction<'_>) -> Result<(), StoreError> {
    // A failed COMMIT leaves the outcome unknown to us; callers retry with their
    // idempotency key, which tells them whether it happened.
    tx.commit().await.map_err(map_pg)
}

// ---------------------------------------------------------------------------------------

impl PgStore {
    /// A table with its seats and, if given, its first seed chain and the idempotency
    /// record, in one transaction.
    async fn insert_table(
        &self,
        table: &TableRow,
        chain: Option<&SeedChainRow>,
        idem: Option<&IdemRow>,
    ) -> Result<(), StoreError> {
        check_new_table(table, idem)?;
        let mut client = self.client().await?;
        let tx = client.transaction().await.map_err(map_pg)?;
        if let Some(idem) = idem {
            insert_idem(&tx, idem).await?;
        }
        let stmt = tx
            .prepare_cached(&format!(
                "INSERT INTO game_tables ({TABLE_COLS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"
            ))
            .await
            .map_err(map_pg)?;
        tx.execute(
            &stmt,
            &[
                &table.club_id,
                &table.table_id,
                &table.game,
                &table.rules,
                &table.setup,
                &table.match_state,
                &table.match_version,
                &table.created_ms,
            ],
        )
        .await
        .map_err(map_pg)?;
        let stmt = tx
            .prepare_cached(&format!(
                "INSERT INTO seats ({SEAT_COLS}) VALUES ($1, $2, $3, $4, $5, $6, $7)"
            ))
            .await
            .map_err(map_pg)?;
        for s in &table.seats {
            tx.execute(
                &stmt,
                &[
                    &table.club_id,
                    &table.table_id,
                    &s.seat,
                    &s.player,
                    &s.token_id,
                    &s.token_hash,
                    &s.public_key,
                ],
            )
            .await
            .map_err(map_pg)?;
        }
        if let Some(chain) = chain {
            insert_seed_chain(&tx, chain).await?;
        }
        commit(tx).await
    }
}

/// Inserts a seed chain row in `tx`.
async fn insert_seed_chain(
    tx: &deadpool_postgres::Transaction<'_>,
    c: &SeedChainRow,
) -> Result<(), StoreError> {
    let stmt = tx
        .prepare_cached(&format!(
            "INSERT INTO seed_chains ({SEED_CHAIN_COLS}) VALUES ($1, $2, $3, $4, $5, $6, $7)"
        ))
        .await
        .map_err(map_pg)?;
    tx.execute(
        &stmt,
        &[
            &c.club_id,
            &c.table_id,
            &c.first_hand_no,
            &c.length,
            &c.anchor,
            &c.sealed,
            &c.created_ms,
        ],
    )
    .await
    .map_err(map_pg)?;
    Ok(())
}

#[async_trait]
impl Store for PgStore {
    async fn migrate(&self) -> Result<(), StoreError> {
        // A connection of its own, closed at the end: the advisory lock dies with it,
        // whatever happens in between.
        let (mut client, connection) = self.pg_config.connect(NoTls).await.map_err(map_pg)?;
        let driver = tokio::spawn(async move {
            if let Err(e) = connection.await {
                tracing::warn!(error = %e, "migration connection");
            }
        });
        let result = async {
            client
                .execute("SELECT pg_advisory_lock($1)", &[&MIGRATION_LOCK])
                .await
                .map_err(map_pg)?;
            let report = embedded::migrations::runner()
                .run_async(&mut client)
                .await
                .map_err(|e| StoreError::Internal(format!("postgres migration: {e}")))?;
            for m in report.applied_migrations() {
                tracing::info!(migration = %m, "applied");
            }
            Ok(())
        }
        .await;
        drop(client);
        let _ = driver.await;
        result
    }

    fn disputes(&self) -> &dyn super::DisputeStore {
        self
    }

    fn shares(&self) -> &dyn super::ShareStore {
        self
    }

    fn checks(&self) -> &dyn super::CheckStore {
        self
    }

    fn reader(&self) -> &dyn Store {
        match &self.reader {
            Some(r) => r.as_ref(),
            None => self,
        }
    }

    fn collectors(&self) -> Vec<Box<dyn prometheus::core::Collector>> {
        self.reader
            .as_ref()
            .and_then(|r| r.router.as_ref())
            .map_or_else(Vec::new, |r| r.collectors())
    }

    async fn refresh_metrics(&self) {
        if let Some(r) = self.reader.as_ref().and_then(|r| r.router.as_ref()) {
            r.refresh(&self.local_pool()).await;
        }
    }

    async fn ping(&self) -> Result<(), StoreError> {
        let client = self.client().await?;
        client.simple_query("SELECT 1").await.map_err(map_pg)?;
        Ok(())
    }

    async fn create_club(&self, club: &ClubRow, admin_key: &ApiKeyRow) -> Result<(), StoreError> {
        check_key_club(club, admin_key)?;
        let mut client = self.client().await?;
        let tx = client.transaction().await.map_err(map_pg)?;
        let stmt = tx
            .prepare_cached("INSERT INTO clubs (club_id, name, created_ms) VALUES ($1, $2, $3)")
            .await
            .map_err(map_pg)?;
        tx.execute(&stmt, &[&club.club_id, &club.name, &club.created_ms])
            .await
            .map_err(map_pg)?;
        insert_key(&tx, admin_key).await?;
        commit(tx).await
    }

    async fn add_api_key(&self, key: &ApiKeyRow) -> Result<(), StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await.map_err(map_pg)?;
        insert_key(&tx, key).await?;
        commit(tx).await
    }

    async fn find_api_key(
        &self,
        club_id: &str,
        key_id: &str,
    ) -> Result<Option<ApiKeyRow>, StoreError> {
        let client = self.client().await?;
        let stmt = client
            .prepare_cached(
                "SELECT club_id, key_id, key_hash, role, created_ms FROM \
                api_keys WHERE club_id = $1 AND key_id = $2",
            )
            .await
            .map_err(map_pg)?;
        let row = client
            .query_opt(&stmt, &[&club_id, &key_id])
            .await
            .map_err(map_pg)?;
        row.map(|r| {
            Ok(ApiKeyRow {
                club_id: get(&r, "club_id")?,
                key_id: get(&r, "key_id")?,
                key_hash: get(&r, "key_hash")?,
                role: parse_role(get(&r, "role")?)?,
                created_ms: get(&r, "created_ms")?,
            })
        })
        .transpose()
    }

    async fn legacy_token_club(
        &self,
        kind: TokenKind,
        token_id: &str,
    ) -> Result<Option<String>, StoreError> {
        let client = self.client().await?;
        let stmt = client
            .prepare_cached("SELECT club_id FROM token_routes WHERE kind = $1 AND token_id = $2")
            .await
            .map_err(map_pg)?;
        let row = client
            .query_opt(&stmt, &[&kind.as_str(), &token_id])
            .await
            .map_err(map_pg)?;
        row.map(|r| get(&r, "club_id")).transpose()
    }

    async fn get_club(&self, club_id: &str) -> Result<Option<ClubRow>, StoreError> {
        let client = self.client().await?;
        let stmt = client
            .prepare_cached("SELECT club_id, name, created_ms FROM clubs WHERE club_id = $1")
            .await
            .map_err(map_pg)?;
        let row = client.query_opt(&stmt, &[&club_id]).await.map_err(map_pg)?;
        row.map(|r| {
            Ok(ClubRow {
                club_id: get(&r, "club_id")?,
                name: get(&r, "name")?,
                created_ms: get(&r, "created_ms")?,
            })
        })
        .transpose()
    }

    async fn create_table(
        &self,
        table: &TableRow,
        idem: Option<&IdemRow>,
    ) -> Result<(), StoreError> {
        self.insert_table(table, None, idem).await
    }

    async fn create_chained_table(
        &self,
        table: &TableRow,
        chain: &SeedChainRow,
        idem: Option<&IdemRow>,
    ) -> Result<(), StoreError> {
        check_seed_chain(chain, Some(table), idem)?;
        self.insert_table(table, Some(chain), idem).await
    }

    async fn add_seed_chain(
        &self,
        chain: &SeedChainRow,
        idem: Option<&IdemRow>,
    ) -> Result<(), StoreError> {
        check_seed_chain(chain, None, idem)?;
        let mut client = self.client().await?;
        let tx = client.transaction().await.map_err(map_pg)?;
        if let Some(idem) = idem {
            insert_idem(&tx, idem).await?;
        }
        insert_seed_chain(&tx, chain).await?;
        commit(tx).await
    }

    async fn seed_chain(
        &self,
        club_id: &str,
        table_id: &str,
        hand_no: i64,
    ) -> Result<Option<SeedChainRow>, StoreError> {
        let client = self.client().await?;
        let stmt = client
            .prepare_cached(&format!(
                "SELECT {SEED_CHAIN_COLS} FROM seed_chains \
                 WHERE club_id = $1 AND table_id = $2 AND first_hand_no <= $3 \
                 ORDER BY first_hand_no DESC LIMIT 1"
            ))
            .await
            .map_err(map_pg)?;
        let row = client
            .query_opt(&stmt, &[&club_id, &table_id, &hand_no])
            .await
            .map_err(map_pg)?;
        Ok(row.map(|r| SeedChainRow {
            club_id: r.get(0),
            table_id: r.get(1),
            first_hand_no: r.get(2),
            length: r.get(3),
            anchor: r.get(4),
            sealed: r.get(5),
            created_ms: r.get(6),
        }))
    }

    async fn get_table(
        &self,
        club_id: &str,
        table_id: &str,
    ) -> Result<Option<TableRow>, StoreError> {
        let client = self.read_client().await?;
        let stmt = client
            .prepare_cached(&format!(
                "SELECT {TABLE_COLS} FROM game_tables WHERE club_id = $1 AND table_id = $2"
            ))
            .await
            .map_err(map_pg)?;
        // The table and its seats sent together (pipelined on the one connection): one
        // round trip, not two. Every hand start and every hand end reads its table.
        let (row, seats) = tokio::try_join!(
            async {
                client
                    .query_opt(&stmt, &[&club_id, &table_id])
                    .await
                    .map_err(map_pg)
            },
            seats_of(&client, club_id, table_id),
        )?;
        let Some(row) = row else {
            return Ok(None);
        };
        table_from(&row, seats).map(Some)
    }

    async fn list_tables(&self, club_id: &str) -> Result<Vec<TableRow>, StoreError> {
        let client = self.read_client().await?;
        let stmt = client
            .prepare_cached(&format!(
                "SELECT {TABLE_COLS} FROM game_tables WHERE club_id = $1 ORDER BY table_id"
            ))
            .await
            .map_err(map_pg)?;
        let tables = client.query(&stmt, &[&club_id]).await.map_err(map_pg)?;
        let stmt = client
            .prepare_cached(&format!(
                "SELECT {SEAT_COLS} FROM seats WHERE club_id = $1 ORDER BY table_id, seat"
            ))
            .await
            .map_err(map_pg)?;
        let mut seats: HashMap<String, Vec<SeatRow>> = HashMap::new();
        for r in client.query(&stmt, &[&club_id]).await.map_err(map_pg)? {
            seats
                .entry(get(&r, "table_id")?)
                .or_default()
                .push(seat_from(&r)?);
        }
        tables
            .iter()
            .map(|r| {
                let id: String = get(r, "table_id")?;
                table_from(r, seats.remove(&id).unwrap_or_default())
            })
            .collect()
    }

    async fn find_seat_by_token(
        &self,
        club_id: &str,
        token_id: &str,
    ) -> Result<Option<SeatLookup>, StoreError> {
        let client = self.client().await?;
        let stmt = client
            .prepare_cached(&format!(
                "SELECT {SEAT_COLS} FROM seats WHERE club_id = $1 AND token_id = $2"
            ))
            .await
            .map_err(map_pg)?;
        let row = client
            .query_opt(&stmt, &[&club_id, &token_id])
            .await
            .map_err(map_pg)?;
        row.map(|r| {
            Ok(SeatLookup {
                club_id: get(&r, "club_id")?,
                table_id: get(&r, "table_id")?,
                seat: seat_from(&r)?,
            })
        })
        .transpose()
    }

    async fn next_hand_no(&self, club_id: &str, table_id: &str) -> Result<i64, StoreError> {
        let client = self.client().await?;
        next_hand_no_on(&client, club_id, table_id).await
    }

    async fn create_hand(
        &self,
        hand: &HandRow,
        events: &[EventRow],
        secrets: &[SecretRow],
        idem: Option<&IdemRow>,
    ) -> Result<(), StoreError> {
        check_new_hand(hand, events, secrets, idem)?;
        self.writer
            .submit(
                &self.local_pool(),
                Op::Create {
                    hand: Box::new(hand.clone()),
                    events: events.to_vec(),
                    secrets: secrets.to_vec(),
                    idem: idem.cloned(),
                },
            )
            .await
    }

    async fn append(&self, req: &AppendRequest) -> Result<(), StoreError> {
        self.append_owned(req.clone()).await
    }

    async fn append_owned(&self, req: AppendRequest) -> Result<(), StoreError> {
        check_append(&req)?;
        self.writer
            .submit(&self.local_pool(), Op::Append(req))
            .await
    }

    async fn quarantine_hand(&self, req: &QuarantineRequest) -> Result<(), StoreError> {
        check_idem(&req.club_id, req.idem.as_ref())?;
        let mut client = self.client().await?;
        let tx = client.transaction().await.map_err(map_pg)?;
        if let Some(idem) = &req.idem {
            insert_idem(&tx, idem).await?;
        }
        // The hand's row is locked until the commit: an append that ends the hand waits
        // for it, then finds the hand no longer in progress (`batch::end_hand`).
        let stmt = tx
            .prepare_cached(
                "SELECT status, table_id FROM hands WHERE club_id = $1 AND hand_id = $2 \
                 FOR UPDATE",
            )
            .await
            .map_err(map_pg)?;
        let row = tx
            .query_opt(&stmt, &[&req.club_id, &req.hand_id])
            .await
            .map_err(map_pg)?
            .ok_or(StoreError::NotFound("hand"))?;
        let status: String = get(&row, "status")?;
        let table: String = get(&row, "table_id")?;
        if status != req.expected_status.as_str() {
            return Err(StoreError::Conflict {
                expected: 0,
                found: 1,
            });
        }
        if let Some(tu) = &req.table_update {
            if tu.table_id != table {
                return Err(StoreError::Internal(
                    "table update for another table than the hand's".into(),
                ));
            }
            if let Some(refused) = batch::update_table_state(&tx, &req.club_id, tu)
                .await
                .map_err(map_pg)?
            {
                return Err(refused);
            }
        }
        let record = serde_json::to_value(&req.quarantine)?;
        let stmt = tx
            .prepare_cached(
                "UPDATE hands SET status = $3, quarantine = $4, \
                     ended_ms = COALESCE(ended_ms, $5) \
                 WHERE club_id = $1 AND hand_id = $2",
            )
            .await
            .map_err(map_pg)?;
        tx.execute(
            &stmt,
            &[
                &req.club_id,
                &req.hand_id,
                &HandStatus::Quarantined.as_str(),
                &record,
                &req.ended_ms,
            ],
        )
        .await
        .map_err(map_pg)?;
        commit(tx).await
    }

    async fn get_hand(&self, club_id: &str, hand_id: &str) -> Result<Option<HandRow>, StoreError> {
        let client = self.read_client().await?;
        one_hand(&client, "h.hand_id = $2", &[&club_id, &hand_id]).await
    }

    async fn list_events(
        &self,
        club_id: &str,
        hand_id: &str,
        from_seq: i64,
        limit: i64,
    ) -> Result<Vec<EventRow>, StoreError> {
        // The events, and their places in the club's order read in a second statement
        // over the page's `seq`s, sent together (tokio-postgres pipelines them: one round
        // trip). Not a join: once a pooled connection's prepared statement settles on
        // the generic plan, PostgreSQL runs the join as an index probe into `club_log`
        // per event, about ten times the buffers of this range read (ops/README.md,
        // thirteenth round). Two snapshots: a place read in the second that the first's
        // time had not given yet is still the event's own (places are never changed).
        let client = self.read_client().await?;
        let limit = page_limit(limit);
        let places = client
            .prepare_cached(
                "SELECT seq, gid FROM club_log \
                 WHERE club_id = $1 AND hand_id = $2 AND seq >= $3 AND seq < $4",
            )
            .await
            .map_err(map_pg)?;
        // A page of a log without a gap holds exactly the `seq`s from `from_seq` to
        // `end` (excluded).
        let end = from_seq.saturating_add(limit);
        let range: [&(dyn ToSql + Sync); 4] = [&club_id, &hand_id, &from_seq, &end];
        let (mut out, mut placed) = tokio::try_join!(
            events_page(&client, club_id, hand_id, from_seq, limit),
            async { client.query(&places, &range).await.map_err(map_pg) },
        )?;
        // Past a gap (an event missing from the log, behind the store's back) the page
        // reaches further: those events' places are read as well.
        if let Some(last) = out.last().map(|e| e.seq).filter(|&last| last >= end) {
            let past = last.saturating_add(1);
            placed.extend(
                client
                    .query(&places, &[&club_id, &hand_id, &end, &past])
                    .await
                    .map_err(map_pg)?,
            );
        }
        let mut gids = HashMap::with_capacity(placed.len());
        for row in &placed {
            gids.insert(get::<i64>(row, "seq")?, get::<i64>(row, "gid")?);
        }
        for e in &mut out {
            e.gid = gids.get(&e.seq).copied();
        }
        Ok(out)
    }

    async fn list_event_records(
        &self,
        club_id: &str,
        hand_id: &str,
        from_seq: i64,
        limit: i64,
    ) -> Result<Vec<EventRow>, StoreError> {
        let client = self.read_client().await?;
        events_page(&client, club_id, hand_id, from_seq, page_limit(limit)).await
    }

    async fn list_club_events(
        &self,
        club_id: &str,
        from_gid: i64,
        limit: i64,
    ) -> Result<Vec<EventRow>, StoreError> {
        let client = self.read_client().await?;
        let stmt = client
            .prepare_cached(&format!(
                "SELECT {EVENT_COLS} FROM club_log l JOIN events e \
                 ON e.club_id = l.club_id AND e.hand_id = l.hand_id AND e.seq = l.seq \
                 WHERE l.club_id = $1 AND l.gid >= $2 ORDER BY l.gid LIMIT $3"
            ))
            .await
            .map_err(map_pg)?;
        let rows = client
            .query(&stmt, &[&club_id, &from_gid, &page_limit(limit)])
            .await
            .map_err(map_pg)?;
        rows.iter().map(event_from).collect()
    }

    async fn list_club_leaves(
        &self,
        club_id: &str,
        from_gid: i64,
        limit: i64,
    ) -> Result<Vec<ClubLeafRow>, StoreError> {
        let client = self.read_client().await?;
        let stmt = client
            .prepare_cached(
                // The hash the sequencer wrote (V16); a row ordered before V16 has
                // none, and reads its event's, which a row whose event is gone lacks
                // (it is left out: the builder stops at the gap).
                "SELECT gid, hand_id, seq, hash FROM ( \
                     SELECT l.gid, l.hand_id, l.seq, \
                            COALESCE(l.hash, (SELECT e.hash FROM events e \
                                              WHERE e.club_id = l.club_id \
                                                AND e.hand_id = l.hand_id \
                                                AND e.seq = l.seq)) AS hash \
                     FROM club_log l \
                     WHERE l.club_id = $1 AND l.gid >= $2 ORDER BY l.gid LIMIT $3) x \
                 WHERE hash IS NOT NULL ORDER BY gid",
            )
            .await
            .map_err(map_pg)?;
        let rows = client
            .query(&stmt, &[&club_id, &from_gid, &page_limit(limit)])
            .await
            .map_err(map_pg)?;
        rows.iter()
            .map(|r| {
                Ok(ClubLeafRow {
                    gid: r.try_get(0).map_err(map_pg)?,
                    hand_id: r.try_get(1).map_err(map_pg)?,
                    seq: r.try_get(2).map_err(map_pg)?,
                    hash: r.try_get(3).map_err(map_pg)?,
                })
            })
            .collect()
    }

    async fn sequence(&self, club_id: &str, max_events: i64) -> Result<u64, StoreError> {
        sequence_club(&self.pool, club_id, max_events).await
    }

    async fn clubs_to_sequence(&self) -> Result<Vec<String>, StoreError> {
        let client = self.client().await?;
        let stmt = client
            // The clubs with a cursor that has committed events past it, or whose hand
            // has ended (its cursor is to go): two probes of a primary key per cursor,
            // and there is one cursor per hand in progress. The one statement that reads
            // across clubs, for the sequencer, not a request (docs/SCALING.md).
            .prepare_cached(
                "SELECT DISTINCT l.club_id FROM log_cursors l \
                 WHERE EXISTS (SELECT 1 FROM events e \
                               WHERE e.club_id = l.club_id AND e.hand_id = l.hand_id \
                                 AND e.seq >= l.next_seq) \
                    OR EXISTS (SELECT 1 FROM hands h \
                               WHERE h.club_id = l.club_id AND h.hand_id = l.hand_id \
                                 AND h.status IN ('completed', 'abandoned')) \
                 ORDER BY l.club_id",
            )
            .await
            .map_err(map_pg)?;
        let rows = client.query(&stmt, &[]).await.map_err(map_pg)?;
        rows.iter().map(|r| get(r, "club_id")).collect()
    }

    async fn get_secrets(
        &self,
        club_id: &str,
        hand_id: &str,
    ) -> Result<Vec<SecretRow>, StoreError> {
        let client = self.read_client().await?;
        let stmt = client
            .prepare_cached(
                "SELECT club_id, hand_id, shuffle, sealed FROM hand_secrets \
                 WHERE club_id = $1 AND hand_id = $2 ORDER BY shuffle",
            )
            .await
            .map_err(map_pg)?;
        let rows = client
            .query(&stmt, &[&club_id, &hand_id])
            .await
            .map_err(map_pg)?;
        rows.iter()
            .map(|r| {
                Ok(SecretRow {
                    club_id: get(r, "club_id")?,
                    hand_id: get(r, "hand_id")?,
                    shuffle: get(r, "shuffle")?,
                    sealed: get(r, "sealed")?,
                })
            })
            .collect()
    }

    async fn get_inputs(&self, club_id: &str, hand_id: &str) -> Result<Vec<InputRow>, StoreError> {
        let client = self.read_client().await?;
        let stmt = client
            .prepare_cached(
                "SELECT club_id, hand_id, seq, sealed FROM hand_inputs \
                 WHERE club_id = $1 AND hand_id = $2 ORDER BY seq",
            )
            .await
            .map_err(map_pg)?;
        let rows = client
            .query(&stmt, &[&club_id, &hand_id])
            .await
            .map_err(map_pg)?;
        rows.iter()
            .map(|r| {
                Ok(InputRow {
                    club_id: get(r, "club_id")?,
                    hand_id: get(r, "hand_id")?,
                    seq: get(r, "seq")?,
                    sealed: get(r, "sealed")?,
                })
            })
            .collect()
    }

    async fn get_idempotency(
        &self,
        club_id: &str,
        key: &str,
    ) -> Result<Option<IdemRow>, StoreError> {
        let client = self.client().await?;
        let stmt = client
            .prepare_cached(
                "SELECT club_id, key, request_hash, status, response, created_ms \
                 FROM idempotency_keys \
                 WHERE club_id = $1 AND key = $2",
            )
            .await
            .map_err(map_pg)?;
        let row = client
            .query_opt(&stmt, &[&club_id, &key])
            .await
            .map_err(map_pg)?;
        row.as_ref().map(idem_from).transpose()
    }

    async fn list_hands(
        &self,
        club_id: &str,
        filter: &HandFilter,
    ) -> Result<Vec<HandRow>, StoreError> {
        self.list_hands_reading(HAND_READ, club_id, filter).await
    }

    async fn list_hands_stored(
        &self,
        club_id: &str,
        filter: &HandFilter,
    ) -> Result<Vec<HandRow>, StoreError> {
        self.list_hands_reading(HAND_STORED, club_id, filter).await
    }

    async fn hand_by_no(
        &self,
        club_id: &str,
        table_id: &str,
        hand_no: i64,
    ) -> Result<Option<HandRow>, StoreError> {
        let client = self.client().await?;
        let params: [&(dyn ToSql + Sync); 3] = [&club_id, &table_id, &hand_no];
        one_hand(&client, "h.table_id = $2 AND h.hand_no = $3", &params).await
    }

    async fn last_hand(
        &self,
        club_id: &str,
        table_id: &str,
    ) -> Result<Option<HandRow>, StoreError> {
        let client = self.client().await?;
        // One step back along hands_hand_no_key, as `next_hand_no_on`.
        one_hand(
            &client,
            "h.table_id = $2 ORDER BY h.hand_no DESC LIMIT 1",
            &[&club_id, &table_id],
        )
        .await
    }

    async fn current_hand(
        &self,
        club_id: &str,
        table_id: &str,
    ) -> Result<Option<HandRow>, StoreError> {
        let client = self.client().await?;
        one_hand(
            &client,
            "h.table_id = $2 AND h.status = 'in_progress'",
            &[&club_id, &table_id],
        )
        .await
    }

    async fn log_tile(&self, club_id: &str, path: &str) -> Result<Option<Vec<u8>>, StoreError> {
        self.clublog_tile(club_id, path).await
    }

    async fn publish_log(
        &self,
        club_id: &str,
        tiles: &[(String, Vec<u8>)],
        checkpoint: &CheckpointRow,
    ) -> Result<bool, StoreError> {
        self.clublog_publish(club_id, tiles, checkpoint).await
    }

    async fn latest_checkpoint(&self, club_id: &str) -> Result<Option<CheckpointRow>, StoreError> {
        self.clublog_checkpoint(club_id, None).await
    }

    async fn checkpoint_at(
        &self,
        club_id: &str,
        size: i64,
    ) -> Result<Option<CheckpointRow>, StoreError> {
        self.clublog_checkpoint(club_id, Some(size)).await
    }

    async fn list_club_order(
        &self,
        club_id: &str,
        from_gid: i64,
        limit: i64,
    ) -> Result<Vec<(i64, String, i64)>, StoreError> {
        self.clublog_order(club_id, from_gid, limit).await
    }

    async fn clubs_to_log(&self) -> Result<Vec<String>, StoreError> {
        self.clublog_clubs().await
    }

    async fn list_log_tile_paths(&self, club_id: &str) -> Result<Vec<String>, StoreError> {
        self.clublog_tile_paths(club_id).await
    }

    async fn list_checkpoints(&self, club_id: &str) -> Result<Vec<CheckpointRow>, StoreError> {
        self.clublog_checkpoints(club_id).await
    }

    async fn club_order_damage(&self, club_id: &str) -> Result<Option<String>, StoreError> {
        self.clublog_order_damage(club_id).await
    }
}

/// A [`HandFilter`]'s time bounds and cursor on the table aliased `t`: they narrow the
/// index walk that gives a page its order, `hands_started_idx` (or the table's) for `h`,
/// the player's rows of `hand_players` by start (V8) for `p`.
fn bind_bounds<'a>(
    filter: &'a HandFilter,
    sql: &mut String,
    params: &mut Vec<&'a (dyn ToSql + Sync)>,
    t: &str,
) {
    if let Some(from) = &filter.started_from_ms {
        bind(sql, params, &format!(" AND {t}.started_ms >= $?"), from);
    }
    if let Some(to) = &filter.started_to_ms {
        bind(sql, params, &format!(" AND {t}.started_ms < $?"), to);
    }
    if let Some((ms, id)) = &filter.cursor {
        bind(
            sql,
            params,
            &format!(" AND ({t}.started_ms, {t}.hand_id) < ($?"),
            ms,
        );
        bind(sql, params, ", $?)", id);
    }
}

/// Appends `clause` to `sql` with its `$?` replaced by the next parameter number.
fn bind<'a>(
    sql: &mut String,
    params: &mut Vec<&'a (dyn ToSql + Sync)>,
    clause: &str,
    p: &'a (dyn ToSql + Sync),
) {
    params.push(p);
    sql.push_str(&clause.replace("$?", &format!("${}", params.len())));
}

async fn insert_key(
    tx: &deadpool_postgres::Transaction<'_>,
    key: &ApiKeyRow,
) -> Result<(), StoreError> {
    let stmt = tx
        .prepare_cached(
            "INSERT INTO api_keys (club_id, key_id, key_hash, role, created_ms) VALUES \
                ($1, $2, $3, $4, $5)",
        )
        .await
        .map_err(map_pg)?;
    tx.execute(
        &stmt,
        &[
            &key.club_id,
            &key.key_id,
            &key.key_hash,
            &key.role.as_str(),
            &key.created_ms,
        ],
    )
    .await
    .map_err(map_pg)?;
    Ok(())
}

// ---------------------------------------------------------------------------------------
// One write in a transaction of its own: the path of a write that could not go in a batch.

/// Starts a hand in a transaction of its own.
/// The parameters `$1`…`$11` of a new hand's row, in the order of `HAND_COLS` less
/// `next_seq` (written as the literal 1): one list for both insert paths, so they cannot
/// drift apart.
fn new_hand_params<'a>(hand: &'a HandRow, status: &'a &'a str) -> [&'a (dyn ToSql + Sync); 11] {
    [
        &hand.club_id,
        &hand.hand_id,
        &hand.table_id,
        &hand.game,
        &hand.hand_no,
        status,
        &hand.players,
        &hand.started_ms,
        &hand.ended_ms,
        &hand.outcome,
        &hand.abandon_reason,
    ]
}

async fn create_hand_one(
    client: &mut Object,
    hand: &HandRow,
    events: &[EventRow],
    secrets: &[SecretRow],
    idem: Option<&IdemRow>,
) -> Result<(), StoreError> {
    check_new_hand(hand, events, secrets, idem)?;
    let tx = client.transaction().await.map_err(map_pg)?;
    let result: Result<(), Fail> = async {
        if let Some(idem) = idem {
            insert_idem(&tx, idem).await?;
        }
        let stmt = tx
            .prepare_cached(&format!(
                // With its cursor for the club's order (`log_cursors`).
                "WITH h AS (INSERT INTO hands ({HAND_COLS}) VALUES ($1, $2, $3, $4, $5, $6, 1, \
                    $7, $8, $9, $10, $11) RETURNING club_id, hand_id) \
                 INSERT INTO log_cursors (club_id, hand_id) SELECT club_id, hand_id FROM h"
            ))
            .await
            .map_err(map_pg)?;
        let status = hand.status.as_str();
        tx.execute(&stmt, &new_hand_params(hand, &status))
            .await
            .map_err(|e| match violated(&e) {
                Some("hands_hand_no_key") => Fail::HandNoTaken,
                _ => Fail::Store(map_pg(e)),
            })?;
        let stmt = tx
            .prepare_cached(
                "INSERT INTO hand_players (club_id, hand_id, seat, \
                player, started_ms) VALUES ($1, $2, $3, $4, $5)",
            )
            .await
            .map_err(map_pg)?;
        for (seat, player) in (0_i16..).zip(&hand.players) {
            tx.execute(
                &stmt,
                &[
                    &hand.club_id,
                    &hand.hand_id,
                    &seat,
                    player,
                    &hand.started_ms,
                ],
            )
            .await
            .map_err(map_pg)?;
        }
        insert_events(&tx, events).await?;
        insert_secrets(&tx, secrets).await?;
        Ok(())
    }
    .await;
    match result {
        Ok(()) => commit(tx).await,
        Err(Fail::Store(e)) => Err(e),
        Err(Fail::HandNoTaken) => {
            // The number was taken: report the table's actual next number.
            let _ = tx.rollback().await;
            let found = next_hand_no_on(client, &hand.club_id, &hand.table_id).await?;
            Err(StoreError::Conflict {
                expected: hand.hand_no,
                found,
            })
        }
        Err(Fail::SeqTaken) => Err(StoreError::Internal(
            "create_hand: event rows without a hand".into(),
        )),
    }
}

/// Appends in a transaction of its own, in the order a batch writes (see `batch`): the
/// idempotency record, the events (whose primary key decides between two writers of one
/// `seq`), then the hand's row when the hand ends, the table, the secrets and inputs.
async fn append_one(client: &mut Object, req: &AppendRequest) -> Result<(), StoreError> {
    check_append(req)?;
    let tx = client.transaction().await.map_err(map_pg)?;
    let result: Result<(), Fail> = async {
        if let Some(idem) = &req.idem {
            insert_idem(&tx, idem).await?;
        }
        let (found, ended) = log_end_of(&tx, &req.club_id, &req.hand_id)
            .await
            .map_err(map_pg)?
            .ok_or(StoreError::NotFound("hand"))?;
        // A hand that has ended takes no more events (see `batch::first_events_sql`).
        if found != req.expected_seq || ended {
            return Err(StoreError::Conflict {
                expected: req.expected_seq,
                found,
            }
            .into());
        }
        // A writer that got here first with the same `seq` makes this a unique
        // violation (after waiting for its commit): `SeqTaken`, below.
        insert_events(&tx, &req.events).await?;
        if req.hand_update.is_some() || req.table_update.is_some() {
            // The hand's row and its table's state, as a batch writes them.
            if let Some(refused) = batch::end_hand(&tx, req).await.map_err(map_pg)? {
                return Err(refused.into());
            }
        }
        insert_secrets(&tx, &req.new_secrets).await?;
        insert_inputs(&tx, &req.new_inputs).await?;
        Ok(())
    }
    .await;
    match result {
        Ok(()) => commit(tx).await,
        Err(Fail::Store(e)) => Err(e),
        Err(Fail::SeqTaken | Fail::HandNoTaken) => {
            // A unique violation on (club_id, hand_id, seq): another writer's event at
            // this seq committed first. Report where the log ends now.
            let _ = tx.rollback().await;
            let found = next_seq_of(&*client, &req.club_id, &req.hand_id)
                .await
                .map_err(map_pg)?
                .ok_or(StoreError::NotFound("hand"))?;
            Err(StoreError::Conflict {
                expected: req.expected_seq,
                found,
            })
        }
    }
}

/// The sequencer's step for one club, in one transaction: locks the club's row (so
/// sequencers of a club take turns, and each batch's gids commit after the previous
/// batch's), reads every cursor of the club (`log_cursors`, V14: one per hand whose
/// events may be waiting) and, from each, the hand's committed events not yet ordered,
/// and writes up to `max_events` of them in `club_log`, from `clubs.next_gid` on; then
/// moves the cursors, and deletes those of hands that have ended (completed or
/// abandoned, in the same snapshot as their events) with every event ordered.
///
/// A hand's committed events are a prefix of its `seq`s (an append goes in only right
/// after the hand's last committed event), so a hand's waiting events are those from its
/// cursor on; only a gap-free run of them is taken, so an event that went in behind the
/// store's back with a `seq` past a missing one waits for that one for ever. The order
/// across hands is that of the transactions that wrote the events, oldest first (by
/// `age(xmin)`, which wraparound does not disturb; each hand's running newest, so that a
/// hand's events stay in `seq` order even when a later append's transaction had its id
/// first), then hand id and `seq`: the order the appends were written in, as the queue's
/// ids gave it before V14.
/// Returns how many events it ordered.
async fn sequence_club(pool: &Pool, club_id: &str, max_events: i64) -> Result<u64, StoreError> {
    let mut client = client_of(pool).await?;
    let tx = client.transaction().await.map_err(map_pg)?;
    let stmt = tx
        .prepare_cached("SELECT next_gid FROM clubs WHERE club_id = $1 FOR NO KEY UPDATE")
        .await
        .map_err(map_pg)?;
    let Some(row) = tx.query_opt(&stmt, &[&club_id]).await.map_err(map_pg)? else {
        return Ok(0);
    };
    let first: i64 = get(&row, "next_gid")?;
    // A club whose order does not hold together (its `next_gid` or a hand's cursor
    // edited behind the store's back) is not ordered on: every gid given from a wrong
    // `next_gid` would collide or leave a gap, and a wrong cursor would leave events out
    // of the log or order them twice. The error names the row (docs/TRANSPARENCY.md §10).
    if let Some(why) = clublog::order_damage(&tx, club_id).await? {
        let _ = tx.rollback().await;
        return Err(StoreError::LogDamaged(why));
    }
    let stmt = tx
        .prepare_cached(
            "WITH c AS ( \
                 SELECT l.hand_id, l.next_seq, h.status \
                 FROM log_cursors l LEFT JOIN hands h \
                      ON h.club_id = l.club_id AND h.hand_id = l.hand_id \
                 WHERE l.club_id = $1), \
             w AS ( \
                 SELECT c.hand_id, x.seq, x.hash, x.newness, \
                        x.seq - c.next_seq + 1 \
                        - row_number() OVER (PARTITION BY c.hand_id ORDER BY x.seq) AS gap \
                 FROM c CROSS JOIN LATERAL ( \
                     SELECT seq, hash, -age(xmin) AS newness FROM events \
                     WHERE club_id = $1 AND hand_id = c.hand_id AND seq >= c.next_seq \
                     ORDER BY seq LIMIT $2) x), \
             k AS ( \
                 SELECT hand_id, seq, hash, \
                        row_number() OVER (ORDER BY t, hand_id, seq) - 1 AS n \
                 FROM (SELECT hand_id, seq, hash, \
                              max(newness) OVER (PARTITION BY hand_id ORDER BY seq) AS t \
                       FROM w WHERE gap = 0) o \
                 ORDER BY n LIMIT $2), \
             i AS ( \
                 INSERT INTO club_log (club_id, gid, hand_id, seq, hash) \
                 SELECT $1, $3 + k.n, k.hand_id, k.seq, k.hash FROM k \
                 RETURNING 1), \
             m AS (SELECT hand_id, max(seq) + 1 AS next FROM k GROUP BY hand_id), \
             d AS ( \
                 DELETE FROM log_cursors l USING c LEFT JOIN m ON m.hand_id = c.hand_id \
                 WHERE l.club_id = $1 AND l.hand_id = c.hand_id \
                   AND c.status IN ('completed', 'abandoned') \
                   AND NOT EXISTS (SELECT 1 FROM events x \
                                   WHERE x.club_id = $1 AND x.hand_id = c.hand_id \
                                     AND x.seq >= COALESCE(m.next, c.next_seq)) \
                 RETURNING l.hand_id), \
             u AS ( \
                 UPDATE log_cursors l SET next_seq = m.next FROM m \
                 WHERE l.club_id = $1 AND l.hand_id = m.hand_id \
                   AND m.hand_id NOT IN (SELECT hand_id FROM d)) \
             UPDATE clubs SET next_gid = next_gid + (SELECT count(*) FROM i) \
             WHERE club_id = $1 \
             RETURNING next_gid",
        )
        .await
        .map_err(map_pg)?;
    let row = tx
        .query_one(&stmt, &[&club_id, &max_events.max(0), &first])
        .await
        .map_err(map_pg)?;
    let next: i64 = get(&row, "next_gid")?;
    commit(tx).await?;
    Ok(u64::try_from(next - first).unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::PgStore;

    fn split(max_size: usize, workers: usize) -> (usize, usize) {
        let s = PgStore::connect("postgres://nobody@127.0.0.1:1/none", max_size)
            .expect("a lazy pool")
            .with_worker_pools(workers);
        (s.pool.status().max_size, s.worker_pool_size)
    }

    /// The workers' pools and the shared one hold at most `--db-pool` together, the shared
    /// one at least one connection; too few for that, or one worker: one shared pool.
    #[test]
    fn worker_pools_share_out_the_connections() {
        assert_eq!(split(16, 2), (2, 7));
        assert_eq!(split(32, 2), (2, 15));
        assert_eq!(split(3, 2), (1, 1));
        assert_eq!(split(17, 4), (1, 4));
        for (max, workers) in [(16, 2), (32, 2), (3, 2), (17, 4), (100, 7)] {
            let (shared, each) = split(max, workers);
            assert!(
                shared >= 1 && shared + each * workers <= max,
                "{max} over {workers}"
            );
        }
        assert_eq!(split(2, 2), (2, 0));
        assert_eq!(split(16, 1), (16, 0));
        assert_eq!(split(16, 0), (16, 0));
    }
}
