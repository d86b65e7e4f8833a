//! The event store: clubs, API keys, tables and seats, hands, their append-only event
//! log, sealed secrets (server seeds and the openings of private actions) and
//! idempotency records; disputes over finished hands ([`DisputeStore`]).
//!
//! One trait, [`Store`], with two implementations: [`PgStore`] (PostgreSQL through a
//! deadpool-postgres pool, the production store) and [`SqliteStore`] (an embedded
//! SQLite file, the default that needs no database server). The service holds one as
//! `Arc<dyn Store>`. Both apply the same migrations (`schema/postgres`,
//! `schema/sqlite`) with [`Store::migrate`] and pass one conformance suite
//! (`services/tests/store_conformance.rs`).
//!
//! The store never sees a secret in the clear: API keys and seat tokens arrive as
//! hashes, server seeds and the openings of private actions already sealed by the
//! caller.

mod checks;
mod disputes;
mod error;
mod postgres;
mod record;
mod shares;
mod sqlite;

use async_trait::async_trait;
use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use disputes::{
    DisputeEntryRow, DisputeFilter, DisputeRow, DisputeStore, OfficialRow, Revocation, RulingAppend,
};
pub use error::StoreError;
pub use postgres::{mark_worker_thread, PgStore};
pub use record::RecordJson;
pub use sqlite::SqliteStore;

// Share links (docs/API.md, "Share links").
pub use shares::{ShareRow, ShareStore};

// Reads for checking stored records against the signed ones (issue 29).
pub use checks::CheckStore;

/// A club: the unit of tenancy. Nothing of one club is ever visible to another.
#[derive(Debug, Clone, PartialEq)]
pub struct ClubRow {
    /// The club's id.
    pub club_id: String,
    /// Display name.
    pub name: String,
    /// When the club was created (unix milliseconds).
    pub created_ms: i64,
}

/// What an API key may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KeyRole {
    /// Club admin: creates tables and hands, reads everything of the club.
    Admin,
    /// Read-only: finished hands, bundles, disputes, checkpoints.
    Auditor,
}

impl KeyRole {
    /// The stored spelling: `"admin"` or `"auditor"`.
    pub fn as_str(self) -> &'static str {
        match self {
            KeyRole::Admin => "admin",
            KeyRole::Auditor => "auditor",
        }
    }

    /// Parses the stored spelling.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "admin" => Some(KeyRole::Admin),
            "auditor" => Some(KeyRole::Auditor),
            _ => None,
        }
    }
}

/// An API key of a club. The store holds only the hash of the key's secret.
#[derive(Debug, Clone, PartialEq)]
pub struct ApiKeyRow {
    /// The club the key belongs to.
    pub club_id: String,
    /// The key's public id, unique within the club.
    pub key_id: String,
    /// Lowercase hex of SHA-256 of the key's secret.
    pub key_hash: String,
    /// What the key may do.
    pub role: KeyRole,
    /// When the key was created (unix milliseconds).
    pub created_ms: i64,
}

/// A seat at a table, with the player's seat token (stored hashed).
#[derive(Debug, Clone, PartialEq)]
pub struct SeatRow {
    /// Seat index, 0-based, in play order.
    pub seat: i16,
    /// The player's name at this table.
    pub player: String,
    /// The seat token's public id, unique within the club.
    pub token_id: String,
    /// Lowercase hex of SHA-256 of the token's secret.
    pub token_hash: String,
    /// The player's Ed25519 public key (hex), where they registered one.
    pub public_key: Option<String>,
}

/// A table: a game, its house rules, its seats, and the match-level state carried from
/// hand to hand (running scores, who deals next ...).
#[derive(Debug, Clone, PartialEq)]
pub struct TableRow {
    /// The club the table belongs to.
    pub club_id: String,
    /// The table's id, unique within the club.
    pub table_id: String,
    /// Which game is played (the engine's name).
    pub game: String,
    /// House rules in force.
    pub rules: Value,
    /// Anything else fixed at creation (stakes, match length ...).
    pub setup: Value,
    /// Match-level state, replaced by appends that carry a [`TableUpdate`].
    pub match_state: Value,
    /// Bumped by one on each match-state change; the optimistic-concurrency version.
    pub match_version: i64,
    /// The seats, ordered by seat index.
    pub seats: Vec<SeatRow>,
    /// When the table was created (unix milliseconds).
    pub created_ms: i64,
}

/// A seed chain of a table (`docs/SHUFFLE.md` §12): the table's hands from
/// `first_hand_no` on are dealt from its positions 1, 2, … `length`. Only the anchor is
/// public; the chain itself arrives sealed by the caller.
#[derive(Debug, Clone, PartialEq)]
pub struct SeedChainRow {
    /// The club of the table.
    pub club_id: String,
    /// The table.
    pub table_id: String,
    /// The number of the table's hand dealt from position 1.
    pub first_hand_no: i64,
    /// How many positions the chain has (1 to 1,000,000).
    pub length: i32,
    /// The published anchor, 64 lowercase hex characters.
    pub anchor: String,
    /// The chain's tail and checkpoints, sealed.
    pub sealed: Vec<u8>,
    /// When it was set (unix milliseconds).
    pub created_ms: i64,
}

/// The columns of a [`SeedChainRow`], in its field order (both stores).
const SEED_CHAIN_COLS: &str =
    "club_id, table_id, first_hand_no, length, anchor, sealed, created_ms";

/// A seat found by its club and token id, with the table it belongs to.
#[derive(Debug, Clone, PartialEq)]
pub struct SeatLookup {
    /// The club of the table.
    pub club_id: String,
    /// The table of the seat.
    pub table_id: String,
    /// The seat itself.
    pub seat: SeatRow,
}

/// Which kind of token a legacy route ([`Store::legacy_token_club`]) is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TokenKind {
    /// An API key (`ak_…`).
    ApiKey,
    /// A seat token (`st_…`).
    Seat,
}

impl TokenKind {
    /// The stored spelling, the token's prefix: `"ak"` or `"st"`.
    pub fn as_str(self) -> &'static str {
        match self {
            TokenKind::ApiKey => "ak",
            TokenKind::Seat => "st",
        }
    }
}

/// Where a hand stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HandStatus {
    /// Being played; at most one per table.
    InProgress,
    /// Played to the end and settled.
    Completed,
    /// Stopped before the end, for a recorded reason; its seeds are still revealed.
    Abandoned,
    /// Its stored log fails verification, and the club admin set it aside
    /// ([`HandRow::quarantine`] says who, when and why): no longer played, and no link of
    /// its table's match.
    Quarantined,
}

impl HandStatus {
    /// The stored spelling: `"in_progress"`, `"completed"`, `"abandoned"` or
    /// `"quarantined"`.
    pub fn as_str(self) -> &'static str {
        match self {
            HandStatus::InProgress => "in_progress",
            HandStatus::Completed => "completed",
            HandStatus::Abandoned => "abandoned",
            HandStatus::Quarantined => "quarantined",
        }
    }

    /// Parses the stored spelling.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "in_progress" => Some(HandStatus::InProgress),
            "completed" => Some(HandStatus::Completed),
            "abandoned" => Some(HandStatus::Abandoned),
            "quarantined" => Some(HandStatus::Quarantined),
            _ => None,
        }
    }
}

/// The record of a hand's quarantine, kept in its row (its log cannot carry it: the log
/// is what failed).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Quarantine {
    /// Why, as the admin gave it.
    pub reason: String,
    /// When (unix milliseconds).
    pub quarantined_ms: i64,
    /// The id of the admin key that quarantined it.
    pub by: String,
    /// The event at which the log failed verification then.
    pub seq: i64,
    /// The check that failed there.
    pub rule: String,
}

/// Quarantining a hand ([`Store::quarantine_hand`]).
#[derive(Debug, Clone, PartialEq)]
pub struct QuarantineRequest {
    /// The club of the hand.
    pub club_id: String,
    /// The hand.
    pub hand_id: String,
    /// The status the caller read: the hand is quarantined only if it still has it.
    pub expected_status: HandStatus,
    /// What to record.
    pub quarantine: Quarantine,
    /// The hand's end time, kept if it has one already.
    pub ended_ms: i64,
    /// The table's match state from now on: the state its next hand starts from.
    pub table_update: Option<TableUpdate>,
    /// The response to record under the request's idempotency key.
    pub idem: Option<IdemRow>,
}

/// A hand: one stream of events, numbered from 0.
#[derive(Debug, Clone, PartialEq)]
pub struct HandRow {
    /// The club the hand belongs to.
    pub club_id: String,
    /// The hand's id, unique within the club.
    pub hand_id: String,
    /// The table it is played at.
    pub table_id: String,
    /// Which game (copied from the table).
    pub game: String,
    /// 1, 2, 3 ... per table; see [`Store::next_hand_no`].
    pub hand_no: i64,
    /// Where the hand stands.
    pub status: HandStatus,
    /// The `seq` the next event must have. Kept by the store: ignored by
    /// [`Store::create_hand`], which sets it to one past the first event. A completed or
    /// abandoned hand's is one past the last event of the write that ended it, whatever
    /// rows were added to its log behind the store's back afterwards.
    pub next_seq: i64,
    /// Player names in seat order.
    pub players: Vec<String>,
    /// When the hand started (unix milliseconds).
    pub started_ms: i64,
    /// When it completed or was abandoned.
    pub ended_ms: Option<i64>,
    /// Tricks, points, payments: the engine's outcome, once settled.
    pub outcome: Option<Value>,
    /// Why the hand was abandoned, if it was.
    pub abandon_reason: Option<String>,
    /// Who quarantined the hand, when and why: set exactly when its status is
    /// [`HandStatus::Quarantined`]. Ignored by [`Store::create_hand`].
    pub quarantine: Option<Quarantine>,
}

/// One event of a hand's log, as signed by the service.
#[derive(Debug, Clone, PartialEq)]
pub struct EventRow {
    /// The club of the hand.
    pub club_id: String,
    /// The hand.
    pub hand_id: String,
    /// Position in the hand's stream, from 0, contiguous.
    pub seq: i64,
    /// The event's place in the club-wide order (`club_log`), given by the store:
    /// contiguous from 0 within a club, never changed, and a reader that has seen gids
    /// `0..n` never later finds a new event below `n`. Ignored on writes. On reads,
    /// `None` for an event that is committed but not yet ordered (see
    /// [`Store::sequence`]).
    pub gid: Option<i64>,
    /// The event's kind (e.g. "hand_started", "action", "seed_revealed").
    pub kind: String,
    /// Lowercase hex of this event's hash.
    pub hash: String,
    /// Lowercase hex of the previous event's hash (whatever the log format uses for
    /// the first event).
    pub prev_hash: String,
    /// The whole signed event record.
    pub record: RecordJson,
    /// When the store was asked to append it (unix milliseconds).
    pub created_ms: i64,
}

/// A sealed server seed of one shuffle of a hand, encrypted by the caller.
#[derive(Debug, Clone, PartialEq)]
pub struct SecretRow {
    /// The club of the hand.
    pub club_id: String,
    /// The hand.
    pub hand_id: String,
    /// Which shuffle of the hand (0 for the first deck).
    pub shuffle: i32,
    /// The ciphertext.
    pub sealed: Vec<u8>,
}

/// The sealed opening of one private action of a hand (its action and salt, secret until
/// the hand's reveal), encrypted by the caller.
#[derive(Debug, Clone, PartialEq)]
pub struct InputRow {
    /// The club of the hand.
    pub club_id: String,
    /// The hand.
    pub hand_id: String,
    /// The seq of the `private_action` event it opens.
    pub seq: i64,
    /// The ciphertext.
    pub sealed: Vec<u8>,
}

/// A recorded response to a request that carried an idempotency key.
#[derive(Debug, Clone, PartialEq)]
pub struct IdemRow {
    /// The club that sent the request.
    pub club_id: String,
    /// The client's idempotency key, unique within the club.
    pub key: String,
    /// Hash of the request, to refuse the same key reused for another request.
    pub request_hash: String,
    /// The HTTP status that was answered.
    pub status: i32,
    /// The body that was answered.
    pub response: Value,
    /// When it was recorded (unix milliseconds).
    pub created_ms: i64,
}

/// The change to a hand that goes with an append.
#[derive(Debug, Clone, PartialEq)]
pub struct HandUpdate {
    /// The hand's new status.
    pub status: HandStatus,
    /// Set when `Some`, kept otherwise.
    pub ended_ms: Option<i64>,
    /// Set when `Some`, kept otherwise.
    pub outcome: Option<Value>,
    /// Set when `Some`, kept otherwise.
    pub abandon_reason: Option<String>,
}

/// The change to the hand's table that goes with an append: new match-level state,
/// written only if the table's `match_version` is still `expected_match_version`
/// (then it becomes `expected_match_version + 1`).
#[derive(Debug, Clone, PartialEq)]
pub struct TableUpdate {
    /// The table (of the same club).
    pub table_id: String,
    /// The version the new state was computed from.
    pub expected_match_version: i64,
    /// The new match-level state.
    pub match_state: Value,
}

/// One atomic append to a hand: its events and everything that changes with them.
#[derive(Debug, Clone, PartialEq)]
pub struct AppendRequest {
    /// The club of the hand.
    pub club_id: String,
    /// The hand.
    pub hand_id: String,
    /// The hand's `next_seq` the caller saw; the first event must have this `seq`.
    pub expected_seq: i64,
    /// One or more events with consecutive `seq` from `expected_seq`, all of this hand.
    pub events: Vec<EventRow>,
    /// Status, end time, outcome or abandon reason to record.
    pub hand_update: Option<HandUpdate>,
    /// New match-level state of the table.
    pub table_update: Option<TableUpdate>,
    /// Sealed seeds of further shuffles.
    pub new_secrets: Vec<SecretRow>,
    /// Sealed openings of the private actions among `events`, each at its event's `seq`.
    pub new_inputs: Vec<InputRow>,
    /// The response to record under the request's idempotency key.
    pub idem: Option<IdemRow>,
}

/// Which hands [`Store::list_hands`] returns. Every field but `limit` narrows the list.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct HandFilter {
    /// Only hands of this table.
    pub table_id: Option<String>,
    /// Only hands where some seat's player has this name.
    pub player: Option<String>,
    /// Only hands of this game.
    pub game: Option<String>,
    /// Only hands in this status.
    pub status: Option<HandStatus>,
    /// Only hands started at or after this time (unix milliseconds).
    pub started_from_ms: Option<i64>,
    /// Only hands started before this time (exclusive).
    pub started_to_ms: Option<i64>,
    /// Only hands strictly after this one in newest-first order: pass the
    /// `(started_ms, hand_id)` of the last hand of the previous page.
    pub cursor: Option<(i64, String)>,
    /// At most this many hands (negative counts as 0).
    pub limit: i64,
}

/// The store behind the service: one implementation per database engine.
///
/// Every write is one transaction: it commits whole or not at all. Every read and write
/// names the club, and never returns another club's rows; each touches that one club's
/// rows only, so that the store can be distributed by club (docs/SCALING.md). The
/// exceptions, named as such: [`Store::legacy_token_club`] (a reference table, read by
/// token id) and [`Store::clubs_to_sequence`] (the sequencer's scan over all clubs).
///
/// # Example
///
/// ```
/// use std::sync::Arc;
/// use services::store::{ApiKeyRow, ClubRow, KeyRole, SqliteStore, Store};
///
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let dir = tempfile::tempdir()?;
/// let rt = tokio::runtime::Runtime::new()?;
/// rt.block_on(async {
///     let store: Arc<dyn Store> = Arc::new(SqliteStore::open(dir.path().join("dealer.db"))?);
///     store.migrate().await?;
///     let club = ClubRow { club_id: "c1".into(), name: "Kish".into(), created_ms: 0 };
///     let admin = ApiKeyRow {
///         club_id: "c1".into(),
///         key_id: "k1".into(),
///         key_hash: "ab".repeat(32),
///         role: KeyRole::Admin,
///         created_ms: 0,
///     };
///     store.create_club(&club, &admin).await?;
///     let found = store.find_api_key("c1", "k1").await?.expect("stored");
///     assert_eq!(found.club_id, "c1");
///     Ok::<_, services::store::StoreError>(())
/// })?;
/// # Ok(())
/// # }
/// ```
#[async_trait]
pub trait Store: Send + Sync {
    /// Applies the embedded migrations not yet applied. Safe to run again, and from
    /// several processes at once.
    async fn migrate(&self) -> Result<(), StoreError>;

    /// Readiness: `Ok` when the database answers a trivial query.
    async fn ping(&self) -> Result<(), StoreError>;

    /// The store for reads that a hot standby may serve (history, finished hands,
    /// bundles, replays, match files): PostgreSQL with a read URL routes each read to
    /// the standby when it has replayed every write acknowledged so far, else to the
    /// primary, so a reader never sees older data than it has written. Without a
    /// standby, the store itself. Writes through it go to the primary as usual.
    fn reader(&self) -> &dyn Store;

    /// The disputes of this store's clubs: officials, disputes and their records
    /// ([`DisputeStore`]), on the same database.
    fn disputes(&self) -> &dyn DisputeStore;

    /// The share links of this store's clubs' hands ([`ShareStore`]), on the same
    /// database (the primary: a revocation holds at once).
    fn shares(&self) -> &dyn ShareStore;

    /// The reads that check stored records against the signed ones, on the same database.
    fn checks(&self) -> &dyn CheckStore;

    /// The store's own metrics (the standby's lag, where routed reads went), for the
    /// service's registry.
    fn collectors(&self) -> Vec<Box<dyn prometheus::core::Collector>> {
        Vec::new()
    }

    /// Brings the gauges of [`Store::collectors`] up to date (called at scrape time).
    async fn refresh_metrics(&self) {}

    /// Creates a club with its first admin key, both or neither.
    /// [`StoreError::Duplicate`] if the club exists.
    async fn create_club(&self, club: &ClubRow, admin_key: &ApiKeyRow) -> Result<(), StoreError>;

    /// Adds a key to an existing club. [`StoreError::NotFound`] for an unknown club,
    /// [`StoreError::Duplicate`] for a key id the club uses already.
    async fn add_api_key(&self, key: &ApiKeyRow) -> Result<(), StoreError>;

    /// Finds a key of a club by its id.
    async fn find_api_key(
        &self,
        club_id: &str,
        key_id: &str,
    ) -> Result<Option<ApiKeyRow>, StoreError>;

    /// The club of a token issued before tokens named their club (PostgreSQL schema V7,
    /// SQLite V5), from its kind and id; `None` for any other. Read from `token_routes`,
    /// which those migrations filled with the API keys and seat tokens that existed then
    /// and nothing writes since: a reference table, not a club's, and the one lookup by
    /// a token id alone. Deprecated with the token format that needs it.
    async fn legacy_token_club(
        &self,
        kind: TokenKind,
        token_id: &str,
    ) -> Result<Option<String>, StoreError>;

    /// Reads a club.
    async fn get_club(&self, club_id: &str) -> Result<Option<ClubRow>, StoreError>;

    /// Creates a table with its seats and, if given, the idempotency record, all or
    /// nothing. [`StoreError::NotFound`] for an unknown club, [`StoreError::Duplicate`]
    /// for a table id or seat token id the club uses already,
    /// [`StoreError::IdempotencyConflict`] for a used idempotency key.
    async fn create_table(
        &self,
        table: &TableRow,
        idem: Option<&IdemRow>,
    ) -> Result<(), StoreError>;

    /// [`Store::create_table`] with the table's first seed chain, in the same transaction:
    /// a chained table never exists without its chain. The chain must be the table's, from
    /// hand 1.
    async fn create_chained_table(
        &self,
        table: &TableRow,
        chain: &SeedChainRow,
        idem: Option<&IdemRow>,
    ) -> Result<(), StoreError>;

    /// Gives a table a further seed chain (its chain before is used up), with the
    /// idempotency record if given. [`StoreError::NotFound`] for an unknown table,
    /// [`StoreError::Conflict`] when the table has a chain from that hand number already,
    /// [`StoreError::IdempotencyConflict`] for a used idempotency key.
    async fn add_seed_chain(
        &self,
        chain: &SeedChainRow,
        idem: Option<&IdemRow>,
    ) -> Result<(), StoreError>;

    /// The seed chain a table's hand `hand_no` is dealt from: its chain with the greatest
    /// `first_hand_no` not above `hand_no`; `None` for a table without one.
    async fn seed_chain(
        &self,
        club_id: &str,
        table_id: &str,
        hand_no: i64,
    ) -> Result<Option<SeedChainRow>, StoreError>;

    /// Reads a table with its seats.
    async fn get_table(
        &self,
        club_id: &str,
        table_id: &str,
    ) -> Result<Option<TableRow>, StoreError>;

    /// All of a club's tables with their seats, ordered by table id.
    async fn list_tables(&self, club_id: &str) -> Result<Vec<TableRow>, StoreError>;

    /// Finds a seat of a club by its token id.
    async fn find_seat_by_token(
        &self,
        club_id: &str,
        token_id: &str,
    ) -> Result<Option<SeatLookup>, StoreError>;

    /// The `hand_no` the table's next hand gets: one past the highest so far, 1 for the
    /// first. A racing `create_hand` with the same number gets a conflict.
    async fn next_hand_no(&self, club_id: &str, table_id: &str) -> Result<i64, StoreError>;

    /// Starts a hand: the hand row, its player projection, the events its start makes
    /// (`seq` 0 and on: `hand_started`, and the first shuffle and deal when the game
    /// shuffles at once), the sealed seeds of those shuffles and the idempotency record,
    /// all in one transaction. A start is one commit, so a crash never leaves a hand
    /// that began but did not deal, nor a request whose key replays half of it.
    ///
    /// [`StoreError::Conflict`] if the table already has a hand in progress or the
    /// `hand_no` is taken, [`StoreError::NotFound`] for an unknown table,
    /// [`StoreError::Duplicate`] for a hand id in use,
    /// [`StoreError::IdempotencyConflict`] for a used idempotency key.
    async fn create_hand(
        &self,
        hand: &HandRow,
        events: &[EventRow],
        secrets: &[SecretRow],
        idem: Option<&IdemRow>,
    ) -> Result<(), StoreError>;

    /// Appends events to a hand, with the hand, table, secret, input and idempotency
    /// changes that go with them, all in one transaction.
    ///
    /// [`StoreError::NotFound`] for an unknown hand or table; [`StoreError::Conflict`]
    /// when the hand's `next_seq` is not `expected_seq` or the table's `match_version`
    /// is not the expected one; [`StoreError::IdempotencyConflict`] when the
    /// idempotency key is used. On any error nothing is written.
    async fn append(&self, req: &AppendRequest) -> Result<(), StoreError>;

    /// [`Store::append`] of a request the caller has no further use for: a store that
    /// queues its writes (PostgreSQL) takes it as it is rather than copying it.
    async fn append_owned(&self, req: AppendRequest) -> Result<(), StoreError> {
        self.append(&req).await
    }

    /// Quarantines a hand: its status becomes [`HandStatus::Quarantined`] with the
    /// record of who, when and why, its end time is set if it had none, and its table's
    /// match state changes as asked, all or nothing. No event is written: the hand's log
    /// is what failed.
    ///
    /// From then on an append that ends the hand is refused ([`StoreError::Conflict`]),
    /// so a writer that still held the hand in memory cannot overwrite the quarantine. An
    /// append that does not end it is refused too on SQLite; on PostgreSQL such appends
    /// never read the hand's row (their events' primary key orders them, see `batch`), so
    /// one in flight may still add events to the quarantined hand's log, which changes
    /// nothing: the hand stays quarantined and its log is no link of any chain.
    ///
    /// [`StoreError::NotFound`] for an unknown hand; [`StoreError::Conflict`] when the
    /// hand's status is no longer `expected_status` or the table's `match_version` is not
    /// the expected one; [`StoreError::IdempotencyConflict`] for a used idempotency key.
    async fn quarantine_hand(&self, req: &QuarantineRequest) -> Result<(), StoreError>;

    /// Reads a hand.
    async fn get_hand(&self, club_id: &str, hand_id: &str) -> Result<Option<HandRow>, StoreError>;

    /// Up to `limit` events of a hand from `from_seq` on, in `seq` order.
    async fn list_events(
        &self,
        club_id: &str,
        hand_id: &str,
        from_seq: i64,
        limit: i64,
    ) -> Result<Vec<EventRow>, StoreError>;

    /// [`Store::list_events`] without the events' places in the club's order: every row's
    /// `gid` is `None`, and nothing of the club's order is read. For readers of a hand's
    /// log as such (its records: a hand restored, read whole, bundled, replayed, the end of
    /// the previous hand at a start), which never look at `gid`: the events' own read,
    /// with nothing of the club's order (which `list_events` reads as well, on
    /// PostgreSQL in a second statement; ops/README.md, thirteenth round).
    async fn list_event_records(
        &self,
        club_id: &str,
        hand_id: &str,
        from_seq: i64,
        limit: i64,
    ) -> Result<Vec<EventRow>, StoreError>;

    /// Up to `limit` events of a club, across hands, from club-wide order `from_gid` on,
    /// in `gid` order (the feed for the club's Merkle log). Only events already ordered
    /// (see [`Store::sequence`]).
    async fn list_club_events(
        &self,
        club_id: &str,
        from_gid: i64,
        limit: i64,
    ) -> Result<Vec<EventRow>, StoreError>;

    /// What the club's log needs of [`Store::list_club_events`]: each event's place, hand,
    /// seq and hash, never its record (the log builder's feed: reading and decoding every
    /// record cost the database more than the rest of the builder's pass). The hash is the
    /// one stored with the event's place when it was ordered (PostgreSQL V16, SQLite V11),
    /// not read from `events`; a place ordered before has none and gives its event's, and
    /// is left out when that event is gone.
    async fn list_club_leaves(
        &self,
        club_id: &str,
        from_gid: i64,
        limit: i64,
    ) -> Result<Vec<ClubLeafRow>, StoreError>;

    /// Gives the club's committed, not yet ordered events their `gid`s, oldest first (a
    /// hand's events in `seq` order), up to `max_events` of them; returns how many
    /// events it ordered (0: nothing was waiting). Safe to run from
    /// several tasks or processes at once: they take turns on the club.
    ///
    /// PostgreSQL orders events here, after their append committed, so that an append
    /// takes no club-wide lock ([`spawn_sequencer`] runs it in the background); SQLite,
    /// with one writer at a time anyway, orders events in the append's own
    /// transaction and has nothing left to do here.
    async fn sequence(&self, club_id: &str, max_events: i64) -> Result<u64, StoreError>;

    /// The clubs that have committed events waiting for [`Store::sequence`] (or, on
    /// PostgreSQL, a finished hand's cursor to remove): the one read across clubs, by the background sequencer, not by a request.
    async fn clubs_to_sequence(&self) -> Result<Vec<String>, StoreError>;

    /// A hand's sealed secrets, by shuffle.
    async fn get_secrets(&self, club_id: &str, hand_id: &str)
        -> Result<Vec<SecretRow>, StoreError>;

    /// A hand's sealed openings of private actions, by `seq`.
    async fn get_inputs(&self, club_id: &str, hand_id: &str) -> Result<Vec<InputRow>, StoreError>;

    /// The recorded response for an idempotency key.
    async fn get_idempotency(
        &self,
        club_id: &str,
        key: &str,
    ) -> Result<Option<IdemRow>, StoreError>;

    /// A page of a club's hands, newest first (`started_ms DESC, hand_id DESC`).
    async fn list_hands(
        &self,
        club_id: &str,
        filter: &HandFilter,
    ) -> Result<Vec<HandRow>, StoreError>;

    /// [`Store::list_hands`] for a listing that shows no hand's next `seq` (the history
    /// API's): the same hands, in the same order, but each [`HandRow::next_seq`] is the
    /// row's stored value, which may be below the hand's true next seq (see there).
    /// PostgreSQL finds the true one a step back along the hand's events, one index
    /// descent per hand listed, which made a page cost more as the history grew (its leaf
    /// pages fall out of the cache; ops/README.md, fifth round); a store that keeps the
    /// true value in the row returns it.
    async fn list_hands_stored(
        &self,
        club_id: &str,
        filter: &HandFilter,
    ) -> Result<Vec<HandRow>, StoreError> {
        self.list_hands(club_id, filter).await
    }

    /// The table's hand number `hand_no`, if there is one (whatever its status).
    async fn hand_by_no(
        &self,
        club_id: &str,
        table_id: &str,
        hand_no: i64,
    ) -> Result<Option<HandRow>, StoreError>;

    /// The table's hand with the highest number, if any (whatever its status): at most
    /// one hand of a table is in progress, and a hand starts only after the one before
    /// it ended, so this is also the hand in progress when there is one, and one below
    /// the next hand's number (a hand start's one read of the table's hands).
    async fn last_hand(&self, club_id: &str, table_id: &str)
        -> Result<Option<HandRow>, StoreError>;

    /// The table's hand in progress, if any.
    async fn current_hand(
        &self,
        club_id: &str,
        table_id: &str,
    ) -> Result<Option<HandRow>, StoreError>;

    /// A stored tile or entry bundle of the club's transparency log, by its path
    /// (`tile/0/x001/234.p/7`), as written by [`Store::publish_log`].
    async fn log_tile(&self, club_id: &str, path: &str) -> Result<Option<Vec<u8>>, StoreError>;

    /// Publishes a new size of the club's log: writes `tiles` (path and bytes; a tile
    /// already stored must have the same bytes, the database refuses any change), then
    /// the signed checkpoint, in one transaction. Returns `false`, writing nothing, when
    /// a checkpoint of that size exists already (another builder got there first).
    async fn publish_log(
        &self,
        club_id: &str,
        tiles: &[(String, Vec<u8>)],
        checkpoint: &CheckpointRow,
    ) -> Result<bool, StoreError>;

    /// The club's checkpoint of the largest size, if it has one.
    async fn latest_checkpoint(&self, club_id: &str) -> Result<Option<CheckpointRow>, StoreError>;

    /// The club's checkpoint of this size, if one was signed.
    async fn checkpoint_at(
        &self,
        club_id: &str,
        size: i64,
    ) -> Result<Option<CheckpointRow>, StoreError>;

    /// Up to `limit` entries of the club-wide order from `from_gid` on, as `(gid, hand,
    /// seq)`, whether or not the store still holds the events they name (the audit's
    /// view of `club_log`; [`Store::list_club_events`] joins the events).
    async fn list_club_order(
        &self,
        club_id: &str,
        from_gid: i64,
        limit: i64,
    ) -> Result<Vec<(i64, String, i64)>, StoreError>;

    /// The clubs whose ordered events go beyond their log's latest checkpoint: the log
    /// builder's scan across clubs, like [`Store::clubs_to_sequence`], not a request's.
    async fn clubs_to_log(&self) -> Result<Vec<String>, StoreError>;

    /// Every stored tile and entry bundle path of the club's log (the audit's view of
    /// `log_tiles`), sorted.
    async fn list_log_tile_paths(&self, club_id: &str) -> Result<Vec<String>, StoreError>;

    /// Every stored checkpoint of the club's log, smallest first (the audit's view of
    /// `log_checkpoints`).
    async fn list_checkpoints(&self, club_id: &str) -> Result<Vec<CheckpointRow>, StoreError>;

    /// Whether the club's order holds together (`docs/TRANSPARENCY.md` §10): `clubs.next_gid`
    /// one past the last gid of `club_log`, and on PostgreSQL every hand's cursor
    /// (`log_cursors.next_seq`) one past its last ordered event. `Some` names the first
    /// row that does not, and what it should hold; the sequencer refuses such a club
    /// ([`StoreError::LogDamaged`]).
    async fn club_order_damage(&self, club_id: &str) -> Result<Option<String>, StoreError>;
}

/// One ordered event as a leaf of its club's log sees it ([`Store::list_club_leaves`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClubLeafRow {
    /// Its place in the club-wide order.
    pub gid: i64,
    /// Its hand.
    pub hand_id: String,
    /// Its seq in the hand.
    pub seq: i64,
    /// Lowercase hex of its hash.
    pub hash: String,
}

/// A signed checkpoint of a club's transparency log (`docs/TRANSPARENCY.md` §5).
#[derive(Debug, Clone, PartialEq)]
pub struct CheckpointRow {
    /// The club.
    pub club_id: String,
    /// The tree size: the log holds the club's events of gid `0..size`.
    pub size: i64,
    /// The tree's root hash.
    pub root: [u8; 32],
    /// The signed note, as served.
    pub note: String,
    /// When it was signed (unix milliseconds).
    pub created_ms: i64,
}

/// Checks the shape of an append before touching the database: events present, all of
/// the request's hand, consecutive from `expected_seq`; secrets, inputs and the
/// idempotency record of the same club and hand, each input at one of the append's own
/// events.
fn check_append(req: &AppendRequest) -> Result<(), StoreError> {
    if req.events.is_empty() {
        return Err(StoreError::Internal("append: no events".into()));
    }
    for (i, ev) in req.events.iter().enumerate() {
        let want = i64::try_from(i)
            .ok()
            .and_then(|i| req.expected_seq.checked_add(i));
        if ev.club_id != req.club_id || ev.hand_id != req.hand_id || Some(ev.seq) != want {
            return Err(StoreError::Internal(
                "append: events must belong to the hand and be consecutive from expected_seq"
                    .into(),
            ));
        }
    }
    check_secrets(&req.club_id, &req.hand_id, &req.new_secrets)?;
    check_inputs(req)?;
    check_idem(&req.club_id, req.idem.as_ref())
}

fn check_secrets(club_id: &str, hand_id: &str, secrets: &[SecretRow]) -> Result<(), StoreError> {
    if secrets
        .iter()
        .any(|s| s.club_id != club_id || s.hand_id != hand_id)
    {
        return Err(StoreError::Internal("secret of another hand".into()));
    }
    Ok(())
}

/// Inputs of the request's hand, each at the seq of one of its events, at most one per
/// seq: an opening is written with its `private_action` event, never on its own (which
/// is what lets the batched PostgreSQL append write a hand's inputs exactly when its
/// events go in).
fn check_inputs(req: &AppendRequest) -> Result<(), StoreError> {
    let n = i64::try_from(req.events.len()).unwrap_or(i64::MAX);
    let end = req.expected_seq.saturating_add(n);
    let mut seen = std::collections::HashSet::new();
    for i in &req.new_inputs {
        if i.club_id != req.club_id || i.hand_id != req.hand_id {
            return Err(StoreError::Internal("input of another hand".into()));
        }
        if i.seq < req.expected_seq || i.seq >= end || !seen.insert(i.seq) {
            return Err(StoreError::Internal(
                "append: each input must open one of the append's events, once".into(),
            ));
        }
    }
    Ok(())
}

fn check_idem(club_id: &str, idem: Option<&IdemRow>) -> Result<(), StoreError> {
    if idem.is_some_and(|i| i.club_id != club_id) {
        return Err(StoreError::Internal(
            "idempotency record of another club".into(),
        ));
    }
    Ok(())
}

/// Checks the shape of a new hand: one or more events of this hand, consecutive from
/// `seq` 0, at most `i16::MAX` players, secrets and idempotency record of the same club
/// and hand.
fn check_new_hand(
    hand: &HandRow,
    events: &[EventRow],
    secrets: &[SecretRow],
    idem: Option<&IdemRow>,
) -> Result<(), StoreError> {
    if events.is_empty()
        || (0_i64..).zip(events).any(|(seq, ev)| {
            ev.club_id != hand.club_id || ev.hand_id != hand.hand_id || ev.seq != seq
        })
    {
        return Err(StoreError::Internal(
            "create_hand: the events must be the hand's, consecutive from seq 0".into(),
        ));
    }
    if i16::try_from(hand.players.len()).is_err() {
        return Err(StoreError::Internal("create_hand: too many players".into()));
    }
    check_secrets(&hand.club_id, &hand.hand_id, secrets)?;
    check_idem(&hand.club_id, idem)
}

fn check_new_table(table: &TableRow, idem: Option<&IdemRow>) -> Result<(), StoreError> {
    check_idem(&table.club_id, idem)
}

/// A seed chain of the given table (of its club), with a plausible anchor and length.
fn check_seed_chain(
    chain: &SeedChainRow,
    table: Option<&TableRow>,
    idem: Option<&IdemRow>,
) -> Result<(), StoreError> {
    let ours = table.is_none_or(|t| t.club_id == chain.club_id && t.table_id == chain.table_id);
    if !ours
        || chain.first_hand_no < 1
        || !(1..=1_000_000).contains(&chain.length)
        || chain.anchor.len() != 64
        || (table.is_some() && chain.first_hand_no != 1)
    {
        return Err(StoreError::Internal(
            "seed chain: of another table, or out of range".into(),
        ));
    }
    check_idem(&chain.club_id, idem)
}

fn check_key_club(club: &ClubRow, key: &ApiKeyRow) -> Result<(), StoreError> {
    if club.club_id != key.club_id {
        return Err(StoreError::Internal(
            "create_club: admin key of another club".into(),
        ));
    }
    Ok(())
}

/// The finding for a `next_gid` that is not one past `club_log`'s last gid.
pub(crate) fn gid_damage(club_id: &str, next_gid: i64, last_gid: Option<i64>) -> String {
    let want = last_gid.map_or(0, |g| g + 1);
    let end = last_gid.map_or_else(
        || "club_log has no row".to_string(),
        |g| format!("club_log ends at gid {g}"),
    );
    let how = if next_gid < want {
        "set back: the next events would take gids already given"
    } else {
        "set forward: the log would wait for ever on the gids skipped"
    };
    format!("clubs row {club_id}: next_gid is {next_gid}, expected {want} ({end}): {how}")
}

/// Events ordered by one call of [`Store::sequence`] at most (one transaction).
pub const SEQUENCE_BATCH: i64 = 4096;

/// How often the service's background sequencer orders waiting events.
pub const SEQUENCER_PERIOD: std::time::Duration = std::time::Duration::from_millis(500);

/// Orders every club's waiting events ([`Store::sequence`]) once: returns how many.
/// A club that fails does not hold up the others: the pass goes on, and then returns
/// the first error.
pub async fn sequence_all(store: &dyn Store) -> Result<u64, StoreError> {
    let mut total = 0u64;
    let mut first_error = None;
    for club in store.clubs_to_sequence().await? {
        // Bounded: each turn orders a full batch or ends the club's turn; appends that
        // keep arriving are left for the next pass.
        for _ in 0..64 {
            match store.sequence(&club, SEQUENCE_BATCH).await {
                Ok(n) => {
                    total += n;
                    // Fewer events than a full batch: none was left waiting.
                    if n < SEQUENCE_BATCH.unsigned_abs() {
                        break;
                    }
                }
                Err(StoreError::LogDamaged(why)) => {
                    // Refused until repaired: said once a minute per club, not every pass.
                    if damage_due(&club) {
                        tracing::error!(club_id = %club, damage = %why,
                            "the club's order is damaged: its events are not ordered or logged until it is repaired (audit-service audit names it)");
                    }
                    first_error.get_or_insert(StoreError::LogDamaged(why));
                    break;
                }
                Err(e) => {
                    tracing::warn!(club_id = %club, error = %e, "could not order the club's events");
                    first_error.get_or_insert(e);
                    break;
                }
            }
        }
    }
    match first_error {
        Some(e) => Err(e),
        None => Ok(total),
    }
}

/// Whether a club's damaged order is due to be said again (once a minute per club).
fn damage_due(club: &str) -> bool {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    use std::time::{Duration, Instant};
    static SAID: OnceLock<Mutex<HashMap<String, Instant>>> = OnceLock::new();
    let mut said = SAID
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let now = Instant::now();
    match said.get(club) {
        Some(t) if now.duration_since(*t) < Duration::from_secs(60) => false,
        _ => {
            said.insert(club.to_string(), now);
            true
        }
    }
}

/// Runs [`sequence_all`] every `period` until the returned handle is aborted or the
/// runtime stops, telling `on_pass` each pass's outcome and duration. A failure is
/// logged and the next pass tries again: waiting events stay queued in the database,
/// so nothing is lost, and a restart picks them up.
pub fn spawn_sequencer<F>(
    store: std::sync::Arc<dyn Store>,
    period: std::time::Duration,
    on_pass: F,
) -> tokio::task::JoinHandle<()>
where
    F: Fn(Result<u64, &StoreError>, std::time::Duration) + Send + 'static,
{
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(period);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            let start = std::time::Instant::now();
            let outcome = sequence_all(store.as_ref()).await;
            if let Err(e) = &outcome {
                if !matches!(e, StoreError::LogDamaged(_)) {
                    tracing::warn!(error = %e, "sequencer pass failed; retrying next period");
                }
            }
            on_pass(outcome.as_ref().map(|n| *n), start.elapsed());
        }
    })
}

/// Clamps a page size to what the databases accept.
fn page_limit(limit: i64) -> i64 {
    limit.max(0)
}

fn parse_role(s: &str) -> Result<KeyRole, StoreError> {
    KeyRole::parse(s).ok_or_else(|| StoreError::Internal("unknown key role in database".into()))
}

fn parse_status(s: &str) -> Result<HandStatus, StoreError> {
    HandStatus::parse(s)
        .ok_or_else(|| StoreError::Internal("unknown hand status in database".into()))
}
