//! [`Store`] on an embedded SQLite file: the default, which needs no database server.
//!
//! One connection behind a mutex, used from tokio's blocking pool. Every write is one
//! `BEGIN IMMEDIATE` transaction, which takes SQLite's single write lock up front: the
//! checks it makes (the hand's `next_seq`, the table's `match_version`, the idempotency
//! key) cannot be overtaken by another writer, in this process or another one.
//! The file is in WAL mode with `synchronous = FULL`, so a commit that returned is on
//! disk; foreign keys are enforced.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use async_trait::async_trait;
use rusqlite::types::Value as SqlValue;
use rusqlite::{
    params, params_from_iter, Connection, ErrorCode, OptionalExtension, Row, Transaction,
    TransactionBehavior,
};
use serde_json::Value;

use super::{
    check_append, check_idem, check_key_club, check_new_hand, check_new_table, check_seed_chain,
    page_limit, parse_role, parse_status, ApiKeyRow, AppendRequest, ClubRow, EventRow, HandFilter,
    HandRow, HandStatus, IdemRow, InputRow, QuarantineRequest, RecordJson, SeatLookup, SeatRow,
    SecretRow, SeedChainRow, Store, StoreError, TableRow, TableUpdate, TokenKind, SEED_CHAIN_COLS,
};
use super::{CheckpointRow, ClubLeafRow};

mod checks;
mod clublog;
mod disputes;
mod shares;

mod embedded {
    refinery::embed_migrations!("../schema/sqlite");
}

/// How long a write waits for another process's write lock before giving up with
/// [`StoreError::Unavailable`].
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// The embedded store: one SQLite file.
#[derive(Debug, Clone)]
pub struct SqliteStore {
    conn: Arc<Mutex<Connection>>,
    path: PathBuf,
}

/// `path` with `suffix` added to its file name (`dealer.db-wal`).
#[cfg(unix)]
fn sidecar(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

impl SqliteStore {
    /// Opens (creating if needed) the database file at `path`, and its folder. The file is
    /// readable by its owner only (0600; SQLite gives its `-wal` and `-shm` files the
    /// database file's mode), and so is a folder this creates (0700).
    pub fn open(path: impl AsRef<Path>) -> Result<Self, StoreError> {
        let path = path.as_ref().to_path_buf();
        let config = |what: &str, p: &Path, e: std::io::Error| {
            StoreError::Config(format!("cannot {what} {}: {e}", p.display()))
        };
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            let mut folder = std::fs::DirBuilder::new();
            folder.recursive(true);
            #[cfg(unix)]
            std::os::unix::fs::DirBuilderExt::mode(&mut folder, 0o700);
            folder
                .create(dir)
                .map_err(|e| config("create data folder", dir, e))?;
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .mode(0o600)
                .open(&path)
                .map_err(|e| config("create", &path, e))?;
            // A database made before this was 0644: it, and the WAL and shared-memory
            // files SQLite made beside it, become 0600.
            for file in ["", "-wal", "-shm"].map(|s| sidecar(&path, s)) {
                match std::fs::metadata(&file) {
                    Ok(m) if m.permissions().mode() & 0o077 != 0 => {
                        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600))
                            .map_err(|e| config("restrict", &file, e))?;
                    }
                    _ => {}
                }
            }
        }
        let conn = Connection::open(&path).map_err(map_sqlite)?;
        conn.busy_timeout(BUSY_TIMEOUT).map_err(map_sqlite)?;
        let mode: String = conn
            .query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))
            .map_err(map_sqlite)?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(StoreError::Config(format!(
                "{} cannot use WAL mode (got {mode})",
                path.display()
            )));
        }
        conn.pragma_update(None, "synchronous", "FULL")
            .map_err(map_sqlite)?;
        conn.pragma_update(None, "foreign_keys", true)
            .map_err(map_sqlite)?;
        Ok(SqliteStore {
            conn: Arc::new(Mutex::new(conn)),
            path,
        })
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Runs `f` on the connection on tokio's blocking pool.
    async fn run<T, F>(&self, f: F) -> Result<T, StoreError>
    where
        T: Send + 'static,
        F: FnOnce(&mut Connection) -> Result<T, StoreError> + Send + 'static,
    {
        let conn = Arc::clone(&self.conn);
        tokio::task::spawn_blocking(move || {
            // A panic while holding the lock left no transaction open (rusqlite rolls
            // back on drop), so the connection is still usable.
            let mut conn = conn.lock().unwrap_or_else(PoisonError::into_inner);
            f(&mut conn)
        })
        .await
        .map_err(|e| StoreError::Internal(format!("sqlite task: {e}")))?
    }

    /// Runs `f` in one `BEGIN IMMEDIATE` transaction, committed if `f` succeeds.
    async fn write<T, F>(&self, f: F) -> Result<T, StoreError>
    where
        T: Send + 'static,
        F: FnOnce(&Transaction<'_>) -> Result<T, StoreError> + Send + 'static,
    {
        self.run(move |conn| {
            let tx = conn
                .transaction_with_behavior(TransactionBehavior::Immediate)
                .map_err(map_sqlite)?;
            let out = f(&tx)?;
            tx.commit().map_err(map_sqlite)?;
            Ok(out)
        })
        .await
    }
}

// ---------------------------------------------------------------------------------------
// Errors

/// Maps an SQLite error. The checks each write makes first leave only races with other
/// processes and out-of-band rows to land here.
fn map_sqlite(e: rusqlite::Error) -> StoreError {
    if let rusqlite::Error::SqliteFailure(f, msg) = &e {
        let msg = msg.as_deref().unwrap_or_default();
        match f.code {
            ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked => {
                tracing::warn!(error = %e, "sqlite busy");
                return StoreError::Unavailable("database busy".into());
            }
            ErrorCode::ConstraintViolation => {
                if let Some(cols) = msg.strip_prefix("UNIQUE constraint failed: ") {
                    if let Some(err) = unique_violation(cols) {
                        return err;
                    }
                }
            }
            ErrorCode::CannotOpen
            | ErrorCode::DiskFull
            | ErrorCode::SystemIoFailure
            | ErrorCode::ReadOnly
            | ErrorCode::FileLockingProtocolFailed => {
                tracing::error!(error = %e, "sqlite unavailable");
                return StoreError::Unavailable(format!("sqlite: {e}"));
            }
            _ => {}
        }
    }
    tracing::error!(error = %e, "sqlite error");
    StoreError::Internal(format!("sqlite: {e}"))
}

/// The error for a unique violation, from SQLite's list of the columns involved.
fn unique_violation(cols: &str) -> Option<StoreError> {
    Some(match cols {
        "clubs.club_id" => StoreError::Duplicate("club"),
        "api_keys.club_id, api_keys.key_id" => StoreError::Duplicate("api key"),
        "game_tables.club_id, game_tables.table_id" => StoreError::Duplicate("table"),
        "seats.club_id, seats.token_id" => StoreError::Duplicate("seat token"),
        "seats.club_id, seats.table_id, seats.seat" => StoreError::Duplicate("seat"),
        "hands.club_id, hands.hand_id" => StoreError::Duplicate("hand"),
        "hands.club_id, hands.table_id" => StoreError::Conflict {
            expected: 0,
            found: 1,
        },
        "hand_secrets.club_id, hand_secrets.hand_id, hand_secrets.shuffle" => {
            StoreError::Duplicate("secret")
        }
        "hand_inputs.club_id, hand_inputs.hand_id, hand_inputs.seq" => {
            StoreError::Duplicate("input")
        }
        "idempotency_keys.club_id, idempotency_keys.key" => StoreError::IdempotencyConflict,
        "seed_chains.club_id, seed_chains.table_id, seed_chains.first_hand_no" => {
            StoreError::Conflict {
                expected: 0,
                found: 1,
            }
        }
        _ => return None,
    })
}

// ---------------------------------------------------------------------------------------
// Rows

const HAND_COLS: &str = "club_id, hand_id, table_id, game, hand_no, status, next_seq, players, \
     started_ms, ended_ms, outcome, abandon_reason";
/// A hand row's columns as read: [`HAND_COLS`] and the quarantine record.
const HAND_READ: &str = "club_id, hand_id, table_id, game, hand_no, status, next_seq, players, \
     started_ms, ended_ms, outcome, abandon_reason, quarantine";
/// An event's columns with its gid from `club_log` (`e` is `events`, `l` the club log,
/// joined on the event).
const EVENT_COLS: &str =
    "e.club_id, e.hand_id, e.seq, l.gid, e.kind, e.hash, e.prev_hash, e.record, e.created_ms";
/// [`EVENT_COLS`] of `events e` alone: the club order's place read as `NULL`.
const EVENT_COLS_NO_GID: &str =
    "e.club_id, e.hand_id, e.seq, NULL AS gid, e.kind, e.hash, e.prev_hash, e.record, e.created_ms";
const TABLE_COLS: &str =
    "club_id, table_id, game, rules, setup, match_state, match_version, created_ms";
const SEAT_COLS: &str = "club_id, table_id, seat, player, token_id, token_hash, public_key";

/// A row's columns as read, before the JSON and enum columns are decoded (decoding
/// errors are [`StoreError`]s, which rusqlite's row closures cannot return).
struct RawHand {
    club_id: String,
    hand_id: String,
    table_id: String,
    game: String,
    hand_no: i64,
    status: String,
    next_seq: i64,
    players: String,
    started_ms: i64,
    ended_ms: Option<i64>,
    outcome: Option<String>,
    abandon_reason: Option<String>,
    quarantine: Option<String>,
}

fn raw_hand(r: &Row<'_>) -> rusqlite::Result<RawHand> {
    Ok(RawHand {
        club_id: r.get(0)?,
        hand_id: r.get(1)?,
        table_id: r.get(2)?,
        game: r.get(3)?,
        hand_no: r.get(4)?,
        status: r.get(5)?,
        next_seq: r.get(6)?,
        players: r.get(7)?,
        started_ms: r.get(8)?,
        ended_ms: r.get(9)?,
        outcome: r.get(10)?,
        abandon_reason: r.get(11)?,
        quarantine: r.get(12)?,
    })
}

impl RawHand {
    fn decode(self) -> Result<HandRow, StoreError> {
        Ok(HandRow {
            club_id: self.club_id,
            hand_id: self.hand_id,
            table_id: self.table_id,
            game: self.game,
            hand_no: self.hand_no,
            status: parse_status(&self.status)?,
            next_seq: self.next_seq,
            players: serde_json::from_str(&self.players)?,
            started_ms: self.started_ms,
            ended_ms: self.ended_ms,
            outcome: self
                .outcome
                .as_deref()
                .map(serde_json::from_str)
                .transpose()?,
            abandon_reason: self.abandon_reason,
            quarantine: self
                .quarantine
                .as_deref()
                .map(serde_json::from_str)
                .transpose()?,
        })
    }
}

struct RawEvent {
    club_id: String,
    hand_id: String,
    seq: i64,
    gid: Option<i64>,
    kind: String,
    hash: String,
    prev_hash: String,
    record: String,
    created_ms: i64,
}

fn raw_event(r: &Row<'_>) -> rusqlite::Result<RawEvent> {
    Ok(RawEvent {
        club_id: r.get(0)?,
        hand_id: r.get(1)?,
        seq: r.get(2)?,
        gid: r.get(3)?,
        kind: r.get(4)?,
        hash: r.get(5)?,
        prev_hash: r.get(6)?,
        record: r.get(7)?,
        created_ms: r.get(8)?,
    })
}

impl RawEvent {
    fn decode(self) -> Result<EventRow, StoreError> {
        Ok(EventRow {
            club_id: self.club_id,
            hand_id: self.hand_id,
            seq: self.seq,
            gid: self.gid,
            kind: self.kind,
            hash: self.hash,
            prev_hash: self.prev_hash,
            record: RecordJson::from_text(self.record)?,
            created_ms: self.created_ms,
        })
    }
}

struct RawTable {
    club_id: String,
    table_id: String,
    game: String,
    rules: String,
    setup: String,
    match_state: String,
    match_version: i64,
    created_ms: i64,
}

fn raw_table(r: &Row<'_>) -> rusqlite::Result<RawTable> {
    Ok(RawTable {
        club_id: r.get(0)?,
        table_id: r.get(1)?,
        game: r.get(2)?,
        rules: r.get(3)?,
        setup: r.get(4)?,
        match_state: r.get(5)?,
        match_version: r.get(6)?,
        created_ms: r.get(7)?,
    })
}

impl RawTable {
    fn decode(self, seats: Vec<SeatRow>) -> Result<TableRow, StoreError> {
        Ok(TableRow {
            club_id: self.club_id,
            table_id: self.table_id,
            game: self.game,
            rules: serde_json::from_str(&self.rules)?,
            setup: serde_json::from_str(&self.setup)?,
            match_state: serde_json::from_str(&self.match_state)?,
            match_version: self.match_version,
            seats,
            created_ms: self.created_ms,
        })
    }
}

/// `(club_id, table_id, seat)` from a row of `SEAT_COLS`.
fn seat_row(r: &Row<'_>) -> rusqlite::Result<(String, String, SeatRow)> {
    Ok((
        r.get(0)?,
        r.get(1)?,
        SeatRow {
            seat: r.get(2)?,
            player: r.get(3)?,
            token_id: r.get(4)?,
            token_hash: r.get(5)?,
            public_key: r.get(6)?,
        },
    ))
}

fn json(v: &Value) -> Result<String, StoreError> {
    Ok(serde_json::to_string(v)?)
}

fn opt_json(v: Option<&Value>) -> Result<Option<String>, StoreError> {
    v.map(json).transpose()
}

// ---------------------------------------------------------------------------------------
// Statements shared by several writes

fn exists(tx: &Connection, sql: &str, a: &str, b: Option<&str>) -> Result<bool, StoreError> {
    let mut stmt = tx.prepare_cached(sql).map_err(map_sqlite)?;
    let found = match b {
        Some(b) => stmt.exists(params![a, b]),
        None => stmt.exists(params![a]),
    };
    found.map_err(map_sqlite)
}

fn require_club(tx: &Connection, club_id: &str) -> Result<(), StoreError> {
    if !exists(tx, "SELECT 1 FROM clubs WHERE club_id = ?1", club_id, None)? {
        return Err(StoreError::NotFound("club"));
    }
    Ok(())
}

/// Writes a hand's table's new match state, if its `match_version` is still the one the
/// update was computed from (then it goes up by one). `hand_table` is the hand's table.
fn update_table(
    tx: &Connection,
    club_id: &str,
    hand_table: &str,
    tu: &TableUpdate,
) -> Result<(), StoreError> {
    if tu.table_id != hand_table {
        return Err(StoreError::Internal(
            "table update for another table than the hand's".into(),
        ));
    }
    let version: i64 = tx
        .prepare_cached(
            "SELECT match_version FROM game_tables WHERE \
            club_id = ?1 AND table_id = ?2",
        )
        .and_then(|mut s| {
            s.query_row(params![club_id, tu.table_id], |r| r.get(0))
                .optional()
        })
        .map_err(map_sqlite)?
        .ok_or(StoreError::NotFound("table"))?;
    if version != tu.expected_match_version {
        return Err(StoreError::Conflict {
            expected: tu.expected_match_version,
            found: version,
        });
    }
    tx.prepare_cached(
        "UPDATE game_tables SET match_state = ?3, match_version = match_version + 1 \
         WHERE club_id = ?1 AND table_id = ?2",
    )
    .and_then(|mut s| {
        s.execute(params![
            club_id,
            tu.table_id,
            json(&tu.match_state).map_err(to_sql_err)?
        ])
    })
    .map_err(map_sqlite)?;
    Ok(())
}

/// Records the idempotency row, first thing in the transaction, as in PostgreSQL.
fn insert_idem(tx: &Connection, idem: &IdemRow) -> Result<(), StoreError> {
    require_club(tx, &idem.club_id)?;
    if exists(
        tx,
        "SELECT 1 FROM idempotency_keys WHERE club_id = ?1 AND key = ?2",
        &idem.club_id,
        Some(&idem.key),
    )? {
        return Err(StoreError::IdempotencyConflict);
    }
    tx.prepare_cached(
        "INSERT INTO idempotency_keys (club_id, key, request_hash, status, response, created_ms) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )
    .and_then(|mut s| {
        s.execute(params![
            idem.club_id,
            idem.key,
            idem.request_hash,
            idem.status,
            json(&idem.response)
                .map_err(|e| rusqlite::Error::ToSqlConversionFailure(Box::new(e)))?,
            idem.created_ms
        ])
    })
    .map_err(map_sqlite)?;
    Ok(())
}

fn insert_key(tx: &Connection, key: &ApiKeyRow) -> Result<(), StoreError> {
    tx.prepare_cached(
        "INSERT INTO api_keys (club_id, key_id, key_hash, role, \
        created_ms) VALUES (?1, ?2, ?3, ?4, ?5)",
    )
    .and_then(|mut s| {
        s.execute(params![
            key.club_id,
            key.key_id,
            key.key_hash,
            key.role.as_str(),
            key.created_ms
        ])
    })
    .map_err(map_sqlite)?;
    Ok(())
}

/// Takes `n` club-wide event numbers. SQLite has one writer at a time, so an append
/// orders its own events in its transaction (PostgreSQL leaves it to the sequencer).
///
/// A club whose `next_gid` is not one past its order's last gid (edited behind the store's
/// back) is refused, naming the row: its next gids would collide or leave a gap.
fn claim_gids(tx: &Connection, club_id: &str, n: i64) -> Result<i64, StoreError> {
    if let Some(why) = clublog::order_damage(tx, club_id)? {
        return Err(StoreError::LogDamaged(why));
    }
    tx.prepare_cached(
        "UPDATE clubs SET next_gid = next_gid + ?2 WHERE club_id = ?1 RETURNING next_gid - ?2",
    )
    .and_then(|mut s| s.query_row(params![club_id, n], |r| r.get(0)).optional())
    .map_err(map_sqlite)?
    .ok_or(StoreError::NotFound("club"))
}

/// Inserts the events and their places `first_gid..` in the club's order.
fn insert_events(tx: &Connection, events: &[EventRow], first_gid: i64) -> Result<(), StoreError> {
    let mut stmt = tx
        .prepare_cached(
            "INSERT INTO events \
             (club_id, hand_id, seq, kind, hash, prev_hash, record, created_ms) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        )
        .map_err(map_sqlite)?;
    let mut log = tx
        .prepare_cached(
            "INSERT INTO club_log (club_id, gid, hand_id, seq, hash) VALUES (?1, ?2, ?3, ?4, ?5)",
        )
        .map_err(map_sqlite)?;
    for (gid, ev) in (first_gid..).zip(events) {
        stmt.execute(params![
            ev.club_id,
            ev.hand_id,
            ev.seq,
            ev.kind,
            ev.hash,
            ev.prev_hash,
            ev.record.get(),
            ev.created_ms
        ])
        .map_err(map_sqlite)?;
        log.execute(params![ev.club_id, gid, ev.hand_id, ev.seq, ev.hash])
            .map_err(map_sqlite)?;
    }
    Ok(())
}

fn insert_secrets(tx: &Connection, secrets: &[SecretRow]) -> Result<(), StoreError> {
    let mut stmt = tx
        .prepare_cached(
            "INSERT INTO hand_secrets (club_id, hand_id, shuffle, sealed) VALUES (?1, ?2, ?3, ?4)",
        )
        .map_err(map_sqlite)?;
    for s in secrets {
        stmt.execute(params![s.club_id, s.hand_id, s.shuffle, s.sealed])
            .map_err(map_sqlite)?;
    }
    Ok(())
}

fn insert_inputs(tx: &Connection, inputs: &[InputRow]) -> Result<(), StoreError> {
    let mut stmt = tx
        .prepare_cached(
            "INSERT INTO hand_inputs (club_id, hand_id, seq, sealed) VALUES (?1, ?2, ?3, ?4)",
        )
        .map_err(map_sqlite)?;
    for i in inputs {
        stmt.execute(params![i.club_id, i.hand_id, i.seq, i.sealed])
            .map_err(map_sqlite)?;
    }
    Ok(())
}

fn next_hand_no_on(conn: &Connection, club_id: &str, table_id: &str) -> Result<i64, StoreError> {
    conn.prepare_cached(
        "SELECT COALESCE(MAX(hand_no), 0) + 1 FROM hands WHERE club_id = ?1 AND table_id = ?2",
    )
    .and_then(|mut s| s.query_row(params![club_id, table_id], |r| r.get(0)))
    .map_err(map_sqlite)
}

/// One past the highest `seq` stored for the hand.
fn log_end_on(conn: &Connection, club_id: &str, hand_id: &str) -> Result<i64, StoreError> {
    conn.prepare_cached(
        "SELECT COALESCE(MAX(seq) + 1, 0) FROM events WHERE club_id = ?1 AND hand_id = ?2",
    )
    .and_then(|mut s| s.query_row(params![club_id, hand_id], |r| r.get(0)))
    .map_err(map_sqlite)
}

fn query_hands(
    conn: &Connection,
    sql: &str,
    args: &[SqlValue],
) -> Result<Vec<HandRow>, StoreError> {
    let mut stmt = conn.prepare_cached(sql).map_err(map_sqlite)?;
    let raws = stmt
        .query_map(params_from_iter(args), raw_hand)
        .and_then(|rows| rows.collect::<rusqlite::Result<Vec<_>>>())
        .map_err(map_sqlite)?;
    raws.into_iter().map(RawHand::decode).collect()
}

fn query_events(
    conn: &Connection,
    sql: &str,
    args: &[SqlValue],
) -> Result<Vec<EventRow>, StoreError> {
    let mut stmt = conn.prepare_cached(sql).map_err(map_sqlite)?;
    let raws = stmt
        .query_map(params_from_iter(args), raw_event)
        .and_then(|rows| rows.collect::<rusqlite::Result<Vec<_>>>())
        .map_err(map_sqlite)?;
    raws.into_iter().map(RawEvent::decode).collect()
}

// ---------------------------------------------------------------------------------------

impl SqliteStore {
    /// A page of a hand's events from `from_seq` on, read as `cols` from `from` (`e` is
    /// `events`).
    async fn hand_events(
        &self,
        cols: &str,
        from: &str,
        club_id: &str,
        hand_id: &str,
        from_seq: i64,
        limit: i64,
    ) -> Result<Vec<EventRow>, StoreError> {
        let args = vec![
            SqlValue::from(club_id.to_owned()),
            SqlValue::from(hand_id.to_owned()),
            SqlValue::from(from_seq),
            SqlValue::from(page_limit(limit)),
        ];
        let sql = format!(
            "SELECT {cols} FROM {from} \
             WHERE e.club_id = ?1 AND e.hand_id = ?2 AND e.seq >= ?3 ORDER BY e.seq LIMIT ?4"
        );
        self.run(move |conn| query_events(conn, &sql, &args)).await
    }

    /// The one hand of club `?1` that `cond` (parameters from `?2`) picks, as every read of
    /// a hand gives it (`HAND_READ`).
    async fn one_hand(
        &self,
        cond: &'static str,
        args: Vec<SqlValue>,
    ) -> Result<Option<HandRow>, StoreError> {
        self.run(move |conn| {
            let sql = format!("SELECT {HAND_READ} FROM hands WHERE club_id = ?1 AND {cond}");
            Ok(query_hands(conn, &sql, &args)?.pop())
        })
        .await
    }

    /// A table with its seats and, if given, its first seed chain and the idempotency
    /// record, in one transaction.
    async fn insert_table(
        &self,
        table: &TableRow,
        chain: Option<&SeedChainRow>,
        idem: Option<&IdemRow>,
    ) -> Result<(), StoreError> {
        check_new_table(table, idem)?;
        let (t, chain, idem) = (table.clone(), chain.cloned(), idem.cloned());
        self.write(move |tx| {
            if let Some(idem) = &idem {
                insert_idem(tx, idem)?;
            }
            require_club(tx, &t.club_id)?;
            tx.prepare_cached(&format!(
                "INSERT INTO game_tables ({TABLE_COLS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)"
            ))
            .and_then(|mut s| {
                s.execute(params![
                    t.club_id,
                    t.table_id,
                    t.game,
                    json(&t.rules).map_err(to_sql_err)?,
                    json(&t.setup).map_err(to_sql_err)?,
                    json(&t.match_state).map_err(to_sql_err)?,
                    t.match_version,
                    t.created_ms
                ])
            })
            .map_err(map_sqlite)?;
            let mut stmt = tx
                .prepare_cached(&format!(
                    "INSERT INTO seats ({SEAT_COLS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"
                ))
                .map_err(map_sqlite)?;
            for s in &t.seats {
                stmt.execute(params![
                    t.club_id,
                    t.table_id,
                    s.seat,
                    s.player,
                    s.token_id,
                    s.token_hash,
                    s.public_key
                ])
                .map_err(map_sqlite)?;
            }
            if let Some(c) = &chain {
                insert_seed_chain(tx, c)?;
            }
            Ok(())
        })
        .await
    }
}

/// Inserts a seed chain row.
fn insert_seed_chain(tx: &Connection, c: &SeedChainRow) -> Result<(), StoreError> {
    tx.prepare_cached(&format!(
        "INSERT INTO seed_chains ({SEED_CHAIN_COLS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"
    ))
    .and_then(|mut s| {
        s.execute(params![
            c.club_id,
            c.table_id,
            c.first_hand_no,
            c.length,
            c.anchor,
            c.sealed,
            c.created_ms
        ])
    })
    .map_err(map_sqlite)?;
    Ok(())
}

#[async_trait]
impl Store for SqliteStore {
    async fn migrate(&self) -> Result<(), StoreError> {
        self.run(|conn| {
            // Each migration commits with its history row. Another process migrating
            // the same file at once makes our run fail on the tables it just created;
            // a second run then sees its history and has nothing left to do. A broken
            // migration fails the second run the same way.
            // Under load the other migrator may still hold the file when we retry, so a
            // few retries with a growing pause.
            let mut attempt = 0u64;
            let report = loop {
                match embedded::migrations::runner().run(conn) {
                    Ok(r) => break r,
                    Err(e) if attempt < 5 => {
                        attempt += 1;
                        tracing::warn!(error = %e, attempt, "sqlite migration failed; retrying");
                        std::thread::sleep(std::time::Duration::from_millis(50 * attempt));
                    }
                    Err(e) => {
                        return Err(StoreError::Internal(format!("sqlite migration: {e}")));
                    }
                }
            };
            for m in report.applied_migrations() {
                tracing::info!(migration = %m, "applied");
            }
            Ok(())
        })
        .await
    }

    fn reader(&self) -> &dyn Store {
        self
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

    async fn ping(&self) -> Result<(), StoreError> {
        self.run(|conn| {
            conn.query_row("SELECT 1", [], |_| Ok(()))
                .map_err(map_sqlite)
        })
        .await
    }

    async fn create_club(&self, club: &ClubRow, admin_key: &ApiKeyRow) -> Result<(), StoreError> {
        check_key_club(club, admin_key)?;
        let (club, key) = (club.clone(), admin_key.clone());
        self.write(move |tx| {
            tx.prepare_cached("INSERT INTO clubs (club_id, name, created_ms) VALUES (?1, ?2, ?3)")
                .and_then(|mut s| s.execute(params![club.club_id, club.name, club.created_ms]))
                .map_err(map_sqlite)?;
            insert_key(tx, &key)
        })
        .await
    }

    async fn add_api_key(&self, key: &ApiKeyRow) -> Result<(), StoreError> {
        let key = key.clone();
        self.write(move |tx| {
            require_club(tx, &key.club_id)?;
            insert_key(tx, &key)
        })
        .await
    }

    async fn find_api_key(
        &self,
        club_id: &str,
        key_id: &str,
    ) -> Result<Option<ApiKeyRow>, StoreError> {
        let (club_id, key_id) = (club_id.to_owned(), key_id.to_owned());
        self.run(move |conn| {
            let raw = conn
                .prepare_cached(
                    "SELECT club_id, key_id, key_hash, role, created_ms \
                    FROM api_keys WHERE club_id = ?1 AND key_id = ?2",
                )
                .and_then(|mut s| {
                    s.query_row(params![club_id, key_id], |r| {
                        Ok((
                            r.get(0)?,
                            r.get(1)?,
                            r.get(2)?,
                            r.get::<_, String>(3)?,
                            r.get(4)?,
                        ))
                    })
                    .optional()
                })
                .map_err(map_sqlite)?;
            raw.map(|(club_id, key_id, key_hash, role, created_ms)| {
                Ok(ApiKeyRow {
                    club_id,
                    key_id,
                    key_hash,
                    role: parse_role(&role)?,
                    created_ms,
                })
            })
            .transpose()
        })
        .await
    }

    async fn legacy_token_club(
        &self,
        kind: TokenKind,
        token_id: &str,
    ) -> Result<Option<String>, StoreError> {
        let token_id = token_id.to_owned();
        self.run(move |conn| {
            conn.prepare_cached(
                "SELECT club_id FROM token_routes WHERE kind = ?1 AND token_id = ?2",
            )
            .and_then(|mut s| {
                s.query_row(params![kind.as_str(), token_id], |r| r.get(0))
                    .optional()
            })
            .map_err(map_sqlite)
        })
        .await
    }

    async fn get_club(&self, club_id: &str) -> Result<Option<ClubRow>, StoreError> {
        let club_id = club_id.to_owned();
        self.run(move |conn| {
            conn.prepare_cached("SELECT club_id, name, created_ms FROM clubs WHERE club_id = ?1")
                .and_then(|mut s| {
                    s.query_row(params![club_id], |r| {
                        Ok(ClubRow {
                            club_id: r.get(0)?,
                            name: r.get(1)?,
                            created_ms: r.get(2)?,
                        })
                    })
                    .optional()
                })
                .map_err(map_sqlite)
        })
        .await
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
        let (c, idem) = (chain.clone(), idem.cloned());
        self.write(move |tx| {
            if let Some(idem) = &idem {
                insert_idem(tx, idem)?;
            }
            if !exists(
                tx,
                "SELECT 1 FROM game_tables WHERE club_id = ?1 AND table_id = ?2",
                &c.club_id,
                Some(&c.table_id),
            )? {
                return Err(StoreError::NotFound("table"));
            }
            insert_seed_chain(tx, &c)
        })
        .await
    }

    async fn seed_chain(
        &self,
        club_id: &str,
        table_id: &str,
        hand_no: i64,
    ) -> Result<Option<SeedChainRow>, StoreError> {
        let (club_id, table_id) = (club_id.to_owned(), table_id.to_owned());
        self.run(move |conn| {
            conn.prepare_cached(&format!(
                "SELECT {SEED_CHAIN_COLS} FROM seed_chains \
                 WHERE club_id = ?1 AND table_id = ?2 AND first_hand_no <= ?3 \
                 ORDER BY first_hand_no DESC LIMIT 1"
            ))
            .and_then(|mut s| {
                s.query_row(params![club_id, table_id, hand_no], |r| {
                    Ok(SeedChainRow {
                        club_id: r.get(0)?,
                        table_id: r.get(1)?,
                        first_hand_no: r.get(2)?,
                        length: r.get(3)?,
                        anchor: r.get(4)?,
                        sealed: r.get(5)?,
                        created_ms: r.get(6)?,
                    })
                })
                .optional()
            })
            .map_err(map_sqlite)
        })
        .await
    }

    async fn get_table(
        &self,
        club_id: &str,
        table_id: &str,
    ) -> Result<Option<TableRow>, StoreError> {
        let (club_id, table_id) = (club_id.to_owned(), table_id.to_owned());
        self.run(move |conn| {
            let raw = conn
                .prepare_cached(&format!(
                    "SELECT {TABLE_COLS} FROM game_tables WHERE club_id = ?1 AND table_id = ?2"
                ))
                .and_then(|mut s| {
                    s.query_row(params![club_id, table_id], raw_table)
                        .optional()
                })
                .map_err(map_sqlite)?;
            let Some(raw) = raw else { return Ok(None) };
            let seats = conn
                .prepare_cached(&format!(
                    "SELECT {SEAT_COLS} FROM seats WHERE club_id = ?1 AND table_id = ?2 \
                        ORDER BY seat"
                ))
                .and_then(|mut s| {
                    s.query_map(params![club_id, table_id], seat_row)?
                        .map(|r| r.map(|(_, _, seat)| seat))
                        .collect::<rusqlite::Result<Vec<_>>>()
                })
                .map_err(map_sqlite)?;
            raw.decode(seats).map(Some)
        })
        .await
    }

    async fn list_tables(&self, club_id: &str) -> Result<Vec<TableRow>, StoreError> {
        let club_id = club_id.to_owned();
        self.run(move |conn| {
            let raws = conn
                .prepare_cached(&format!(
                    "SELECT {TABLE_COLS} FROM game_tables WHERE club_id = ?1 ORDER BY table_id"
                ))
                .and_then(|mut s| {
                    s.query_map(params![club_id], raw_table)?
                        .collect::<rusqlite::Result<Vec<_>>>()
                })
                .map_err(map_sqlite)?;
            let mut seats: HashMap<String, Vec<SeatRow>> = HashMap::new();
            let all = conn
                .prepare_cached(&format!(
                    "SELECT {SEAT_COLS} FROM seats WHERE club_id = ?1 ORDER BY table_id, seat"
                ))
                .and_then(|mut s| {
                    s.query_map(params![club_id], seat_row)?
                        .collect::<rusqlite::Result<Vec<_>>>()
                })
                .map_err(map_sqlite)?;
            for (_, table_id, seat) in all {
                seats.entry(table_id).or_default().push(seat);
            }
            raws.into_iter()
                .map(|raw| {
                    let s = seats.remove(&raw.table_id).unwrap_or_default();
                    raw.decode(s)
                })
                .collect()
        })
        .await
    }

    async fn find_seat_by_token(
        &self,
        club_id: &str,
        token_id: &str,
    ) -> Result<Option<SeatLookup>, StoreError> {
        let (club_id, token_id) = (club_id.to_owned(), token_id.to_owned());
        self.run(move |conn| {
            let found = conn
                .prepare_cached(&format!(
                    "SELECT {SEAT_COLS} FROM seats WHERE club_id = ?1 AND token_id = ?2"
                ))
                .and_then(|mut s| s.query_row(params![club_id, token_id], seat_row).optional())
                .map_err(map_sqlite)?;
            Ok(found.map(|(club_id, table_id, seat)| SeatLookup {
                club_id,
                table_id,
                seat,
            }))
        })
        .await
    }

    async fn next_hand_no(&self, club_id: &str, table_id: &str) -> Result<i64, StoreError> {
        let (club_id, table_id) = (club_id.to_owned(), table_id.to_owned());
        self.run(move |conn| next_hand_no_on(conn, &club_id, &table_id))
            .await
    }

    async fn create_hand(
        &self,
        hand: &HandRow,
        events: &[EventRow],
        secrets: &[SecretRow],
        idem: Option<&IdemRow>,
    ) -> Result<(), StoreError> {
        check_new_hand(hand, events, secrets, idem)?;
        let n = i64::try_from(events.len())
            .map_err(|_| StoreError::Internal("create_hand: too many events".into()))?;
        let (h, events, secrets, idem) = (
            hand.clone(),
            events.to_vec(),
            secrets.to_vec(),
            idem.cloned(),
        );
        self.write(move |tx| {
            if let Some(idem) = &idem {
                insert_idem(tx, idem)?;
            }
            if !exists(
                tx,
                "SELECT 1 FROM game_tables WHERE club_id = ?1 AND table_id = ?2",
                &h.club_id,
                Some(&h.table_id),
            )? {
                return Err(StoreError::NotFound("table"));
            }
            if exists(
                tx,
                "SELECT 1 FROM hands WHERE club_id = ?1 AND hand_id = ?2",
                &h.club_id,
                Some(&h.hand_id),
            )? {
                return Err(StoreError::Duplicate("hand"));
            }
            if h.status == HandStatus::InProgress
                && exists(
                    tx,
                    "SELECT 1 FROM hands WHERE club_id = ?1 AND table_id = ?2 AND \
                        status = 'in_progress'",
                    &h.club_id,
                    Some(&h.table_id),
                )?
            {
                return Err(StoreError::Conflict {
                    expected: 0,
                    found: 1,
                });
            }
            let next_no = next_hand_no_on(tx, &h.club_id, &h.table_id)?;
            let taken: bool = tx
                .prepare_cached(
                    "SELECT 1 FROM hands WHERE club_id = ?1 AND table_id = \
                    ?2 AND hand_no = ?3",
                )
                .and_then(|mut s| s.exists(params![h.club_id, h.table_id, h.hand_no]))
                .map_err(map_sqlite)?;
            if taken {
                return Err(StoreError::Conflict {
                    expected: h.hand_no,
                    found: next_no,
                });
            }
            // `next_seq` is exact here: the checks of later appends read it.
            tx.prepare_cached(&format!(
                "INSERT INTO hands ({HAND_COLS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?12, ?7, \
                    ?8, ?9, ?10, ?11)"
            ))
            .and_then(|mut s| {
                s.execute(params![
                    h.club_id,
                    h.hand_id,
                    h.table_id,
                    h.game,
                    h.hand_no,
                    h.status.as_str(),
                    serde_json::to_string(&h.players).map_err(|e| to_sql_err(e.into()))?,
                    h.started_ms,
                    h.ended_ms,
                    opt_json(h.outcome.as_ref()).map_err(to_sql_err)?,
                    h.abandon_reason,
                    n
                ])
            })
            .map_err(map_sqlite)?;
            let mut stmt = tx
                .prepare_cached(
                    "INSERT INTO hand_players (club_id, hand_id, seat, \
                    player) VALUES (?1, ?2, ?3, ?4)",
                )
                .map_err(map_sqlite)?;
            for (seat, player) in (0_i64..).zip(&h.players) {
                stmt.execute(params![h.club_id, h.hand_id, seat, player])
                    .map_err(map_sqlite)?;
            }
            let gid = claim_gids(tx, &h.club_id, n)?;
            insert_events(tx, &events, gid)?;
            insert_secrets(tx, &secrets)
        })
        .await
    }

    async fn append(&self, req: &AppendRequest) -> Result<(), StoreError> {
        check_append(req)?;
        let n = i64::try_from(req.events.len())
            .map_err(|_| StoreError::Internal("too many events".into()))?;
        let req = req.clone();
        self.write(move |tx| {
            if let Some(idem) = &req.idem {
                insert_idem(tx, idem)?;
            }
            let (next_seq, hand_table, status): (i64, String, String) = tx
                .prepare_cached(
                    "SELECT next_seq, table_id, status FROM hands WHERE club_id = \
                    ?1 AND hand_id = ?2",
                )
                .and_then(|mut s| {
                    s.query_row(params![req.club_id, req.hand_id], |r| {
                        Ok((r.get(0)?, r.get(1)?, r.get(2)?))
                    })
                    .optional()
                })
                .map_err(map_sqlite)?
                .ok_or(StoreError::NotFound("hand"))?;
            // A hand that is over takes no more events: one completed or abandoned (as on
            // PostgreSQL), or quarantined (one a writer still held in memory when it was
            // quarantined).
            if status != HandStatus::InProgress.as_str() || next_seq != req.expected_seq {
                return Err(StoreError::Conflict {
                    expected: req.expected_seq,
                    found: next_seq,
                });
            }
            let log_end = log_end_on(tx, &req.club_id, &req.hand_id)?;
            if log_end != next_seq {
                tracing::warn!(
                    club_id = %req.club_id,
                    hand_id = %req.hand_id,
                    "event row beyond next_seq"
                );
                return Err(StoreError::Conflict {
                    expected: req.expected_seq,
                    found: log_end,
                });
            }
            if let Some(tu) = &req.table_update {
                update_table(tx, &req.club_id, &hand_table, tu)?;
            }
            let gid = claim_gids(tx, &req.club_id, n)?;
            insert_events(tx, &req.events, gid)?;
            let hu = req.hand_update.as_ref();
            tx.prepare_cached(
                "UPDATE hands SET next_seq = ?3, \
                     status = COALESCE(?4, status), \
                     ended_ms = COALESCE(?5, ended_ms), \
                     outcome = COALESCE(?6, outcome), \
                     abandon_reason = COALESCE(?7, abandon_reason) \
                 WHERE club_id = ?1 AND hand_id = ?2",
            )
            .and_then(|mut s| {
                s.execute(params![
                    req.club_id,
                    req.hand_id,
                    req.expected_seq + n,
                    hu.map(|u| u.status.as_str()),
                    hu.and_then(|u| u.ended_ms),
                    opt_json(hu.and_then(|u| u.outcome.as_ref())).map_err(to_sql_err)?,
                    hu.and_then(|u| u.abandon_reason.as_deref())
                ])
            })
            .map_err(map_sqlite)?;
            insert_secrets(tx, &req.new_secrets)?;
            insert_inputs(tx, &req.new_inputs)
        })
        .await
    }

    async fn quarantine_hand(&self, req: &QuarantineRequest) -> Result<(), StoreError> {
        check_idem(&req.club_id, req.idem.as_ref())?;
        let req = req.clone();
        self.write(move |tx| {
            if let Some(idem) = &req.idem {
                insert_idem(tx, idem)?;
            }
            let (status, hand_table): (String, String) = tx
                .prepare_cached(
                    "SELECT status, table_id FROM hands WHERE club_id = ?1 AND hand_id = ?2",
                )
                .and_then(|mut s| {
                    s.query_row(params![req.club_id, req.hand_id], |r| {
                        Ok((r.get(0)?, r.get(1)?))
                    })
                    .optional()
                })
                .map_err(map_sqlite)?
                .ok_or(StoreError::NotFound("hand"))?;
            if status != req.expected_status.as_str() {
                return Err(StoreError::Conflict {
                    expected: 0,
                    found: 1,
                });
            }
            if let Some(tu) = &req.table_update {
                update_table(tx, &req.club_id, &hand_table, tu)?;
            }
            let record = serde_json::to_string(&req.quarantine)?;
            tx.prepare_cached(
                "UPDATE hands SET status = ?3, quarantine = ?4, \
                     ended_ms = COALESCE(ended_ms, ?5) \
                 WHERE club_id = ?1 AND hand_id = ?2",
            )
            .and_then(|mut s| {
                s.execute(params![
                    req.club_id,
                    req.hand_id,
                    HandStatus::Quarantined.as_str(),
                    record,
                    req.ended_ms
                ])
            })
            .map_err(map_sqlite)?;
            Ok(())
        })
        .await
    }

    async fn get_hand(&self, club_id: &str, hand_id: &str) -> Result<Option<HandRow>, StoreError> {
        let args = vec![
            SqlValue::from(club_id.to_owned()),
            SqlValue::from(hand_id.to_owned()),
        ];
        self.one_hand("hand_id = ?2", args).await
    }

    async fn list_events(
        &self,
        club_id: &str,
        hand_id: &str,
        from_seq: i64,
        limit: i64,
    ) -> Result<Vec<EventRow>, StoreError> {
        let from = "events e LEFT JOIN club_log l \
             ON l.club_id = e.club_id AND l.hand_id = e.hand_id AND l.seq = e.seq";
        self.hand_events(EVENT_COLS, from, club_id, hand_id, from_seq, limit)
            .await
    }

    async fn list_event_records(
        &self,
        club_id: &str,
        hand_id: &str,
        from_seq: i64,
        limit: i64,
    ) -> Result<Vec<EventRow>, StoreError> {
        self.hand_events(
            EVENT_COLS_NO_GID,
            "events e",
            club_id,
            hand_id,
            from_seq,
            limit,
        )
        .await
    }

    async fn list_club_events(
        &self,
        club_id: &str,
        from_gid: i64,
        limit: i64,
    ) -> Result<Vec<EventRow>, StoreError> {
        let args = vec![
            SqlValue::from(club_id.to_owned()),
            SqlValue::from(from_gid),
            SqlValue::from(page_limit(limit)),
        ];
        self.run(move |conn| {
            let sql = format!(
                "SELECT {EVENT_COLS} FROM club_log l JOIN events e \
                 ON e.club_id = l.club_id AND e.hand_id = l.hand_id AND e.seq = l.seq \
                 WHERE l.club_id = ?1 AND l.gid >= ?2 ORDER BY l.gid LIMIT ?3"
            );
            query_events(conn, &sql, &args)
        })
        .await
    }

    async fn list_club_leaves(
        &self,
        club_id: &str,
        from_gid: i64,
        limit: i64,
    ) -> Result<Vec<ClubLeafRow>, StoreError> {
        let club_id = club_id.to_owned();
        let limit = page_limit(limit);
        self.run(move |conn| {
            conn.prepare_cached(
                // The hash written with the row (V11); a row from before V11 reads its
                // event's, and is left out when that is gone (the builder stops there).
                "SELECT gid, hand_id, seq, hash FROM ( \
                     SELECT l.gid, l.hand_id, l.seq, \
                            COALESCE(l.hash, (SELECT e.hash FROM events e \
                                              WHERE e.club_id = l.club_id \
                                                AND e.hand_id = l.hand_id \
                                                AND e.seq = l.seq)) AS hash \
                     FROM club_log l \
                     WHERE l.club_id = ?1 AND l.gid >= ?2 ORDER BY l.gid LIMIT ?3) \
                 WHERE hash IS NOT NULL ORDER BY gid",
            )
            .and_then(|mut s| {
                s.query_map(params![club_id, from_gid, limit], |r| {
                    Ok(ClubLeafRow {
                        gid: r.get(0)?,
                        hand_id: r.get(1)?,
                        seq: r.get(2)?,
                        hash: r.get(3)?,
                    })
                })?
                .collect::<rusqlite::Result<Vec<_>>>()
            })
            .map_err(map_sqlite)
        })
        .await
    }

    async fn sequence(&self, _club_id: &str, _max_events: i64) -> Result<u64, StoreError> {
        // Appends order their own events (one writer at a time): nothing ever waits.
        Ok(0)
    }

    async fn clubs_to_sequence(&self) -> Result<Vec<String>, StoreError> {
        Ok(Vec::new())
    }

    async fn get_secrets(
        &self,
        club_id: &str,
        hand_id: &str,
    ) -> Result<Vec<SecretRow>, StoreError> {
        let (club_id, hand_id) = (club_id.to_owned(), hand_id.to_owned());
        self.run(move |conn| {
            conn.prepare_cached(
                "SELECT club_id, hand_id, shuffle, sealed FROM hand_secrets \
                 WHERE club_id = ?1 AND hand_id = ?2 ORDER BY shuffle",
            )
            .and_then(|mut s| {
                s.query_map(params![club_id, hand_id], |r| {
                    Ok(SecretRow {
                        club_id: r.get(0)?,
                        hand_id: r.get(1)?,
                        shuffle: r.get(2)?,
                        sealed: r.get(3)?,
                    })
                })?
                .collect()
            })
            .map_err(map_sqlite)
        })
        .await
    }

    async fn get_inputs(&self, club_id: &str, hand_id: &str) -> Result<Vec<InputRow>, StoreError> {
        let (club_id, hand_id) = (club_id.to_owned(), hand_id.to_owned());
        self.run(move |conn| {
            conn.prepare_cached(
                "SELECT club_id, hand_id, seq, sealed FROM hand_inputs \
                 WHERE club_id = ?1 AND hand_id = ?2 ORDER BY seq",
            )
            .and_then(|mut s| {
                s.query_map(params![club_id, hand_id], |r| {
                    Ok(InputRow {
                        club_id: r.get(0)?,
                        hand_id: r.get(1)?,
                        seq: r.get(2)?,
                        sealed: r.get(3)?,
                    })
                })?
                .collect()
            })
            .map_err(map_sqlite)
        })
        .await
    }

    async fn get_idempotency(
        &self,
        club_id: &str,
        key: &str,
    ) -> Result<Option<IdemRow>, StoreError> {
        let (club_id, key) = (club_id.to_owned(), key.to_owned());
        self.run(move |conn| {
            let raw = conn
                .prepare_cached(
                    "SELECT club_id, key, request_hash, status, response, created_ms \
                 FROM idempotency_keys \
                     WHERE club_id = ?1 AND key = ?2",
                )
                .and_then(|mut s| {
                    s.query_row(params![club_id, key], |r| {
                        Ok((
                            r.get(0)?,
                            r.get(1)?,
                            r.get(2)?,
                            r.get(3)?,
                            r.get::<_, String>(4)?,
                            r.get(5)?,
                        ))
                    })
                    .optional()
                })
                .map_err(map_sqlite)?;
            raw.map(
                |(club_id, key, request_hash, status, response, created_ms)| {
                    Ok(IdemRow {
                        club_id,
                        key,
                        request_hash,
                        status,
                        response: serde_json::from_str(&response)?,
                        created_ms,
                    })
                },
            )
            .transpose()
        })
        .await
    }

    async fn list_hands(
        &self,
        club_id: &str,
        filter: &HandFilter,
    ) -> Result<Vec<HandRow>, StoreError> {
        let mut sql = format!("SELECT {HAND_READ} FROM hands h WHERE h.club_id = ?1");
        let mut args = vec![SqlValue::from(club_id.to_owned())];
        let mut bind = |clause: &str, v: SqlValue| {
            args.push(v);
            sql.push_str(&clause.replace("??", &format!("?{}", args.len())));
        };
        if let Some(t) = &filter.table_id {
            bind(" AND h.table_id = ??", t.clone().into());
        }
        if let Some(g) = &filter.game {
            bind(" AND h.game = ??", g.clone().into());
        }
        if let Some(s) = filter.status {
            bind(" AND h.status = ??", s.as_str().to_owned().into());
        }
        if let Some(from) = filter.started_from_ms {
            bind(" AND h.started_ms >= ??", from.into());
        }
        if let Some(to) = filter.started_to_ms {
            bind(" AND h.started_ms < ??", to.into());
        }
        if let Some((ms, id)) = &filter.cursor {
            bind(" AND (h.started_ms, h.hand_id) < (??", (*ms).into());
            bind(", ??)", id.clone().into());
        }
        if let Some(p) = &filter.player {
            bind(
                " AND EXISTS (SELECT 1 FROM hand_players p WHERE p.club_id = h.club_id \
                 AND p.hand_id = h.hand_id AND p.player = ??)",
                p.clone().into(),
            );
        }
        bind(
            " ORDER BY h.started_ms DESC, h.hand_id DESC LIMIT ??",
            page_limit(filter.limit).into(),
        );
        self.run(move |conn| query_hands(conn, &sql, &args)).await
    }

    async fn hand_by_no(
        &self,
        club_id: &str,
        table_id: &str,
        hand_no: i64,
    ) -> Result<Option<HandRow>, StoreError> {
        let args = vec![
            SqlValue::from(club_id.to_owned()),
            SqlValue::from(table_id.to_owned()),
            SqlValue::from(hand_no),
        ];
        self.one_hand("table_id = ?2 AND hand_no = ?3", args).await
    }

    async fn last_hand(
        &self,
        club_id: &str,
        table_id: &str,
    ) -> Result<Option<HandRow>, StoreError> {
        let args = vec![
            SqlValue::from(club_id.to_owned()),
            SqlValue::from(table_id.to_owned()),
        ];
        self.one_hand("table_id = ?2 ORDER BY hand_no DESC LIMIT 1", args)
            .await
    }

    async fn current_hand(
        &self,
        club_id: &str,
        table_id: &str,
    ) -> Result<Option<HandRow>, StoreError> {
        let args = vec![
            SqlValue::from(club_id.to_owned()),
            SqlValue::from(table_id.to_owned()),
        ];
        self.one_hand("table_id = ?2 AND status = 'in_progress'", args)
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

/// Lets a JSON encoding error leave a rusqlite closure.
fn to_sql_err(e: StoreError) -> rusqlite::Error {
    rusqlite::Error::ToSqlConversionFailure(Box::new(e))
}
