//! The store of disputes (docs/DISPUTES.md): a club's officials, its disputes, and each
//! dispute's record of signed entries. Both stores implement [`DisputeStore`], reached from
//! any [`Store`](super::Store) by [`Store::disputes`](super::Store::disputes); every read
//! and write names the club, like the rest of the store.
//!
//! Entries and officials are append-only, in the database too (triggers, as for events):
//! a dispute's row changes only with an entry appended (its status, entry count and head),
//! in the same transaction.

use super::check_idem;
use async_trait::async_trait;
use serde_json::Value;

use super::{IdemRow, StoreError};

/// A club official whose Ed25519 key may sign rulings.
#[derive(Debug, Clone, PartialEq)]
pub struct OfficialRow {
    /// The club.
    pub club_id: String,
    /// The key's id (`ed25519:…`), unique within the club.
    pub key_id: String,
    /// The official's name (NFC, trimmed).
    pub name: String,
    /// The public key, 64 lowercase hex characters.
    pub public_key: String,
    /// When it was registered (unix milliseconds).
    pub registered_ms: i64,
    /// The admin key that registered it.
    pub registered_by: String,
    /// Its revocation, if the admin revoked it (ignored on writes).
    pub revoked: Option<Revocation>,
}

/// The revocation of an official's key: it signs no ruling from then on.
#[derive(Debug, Clone, PartialEq)]
pub struct Revocation {
    /// When (unix milliseconds).
    pub revoked_ms: i64,
    /// The admin key that revoked it.
    pub revoked_by: String,
    /// Why, as the admin gave it.
    pub reason: String,
}

/// A dispute: what it is about and where it stands. `status`, `entries`, `head` and
/// `updated_ms` are a projection of its entries, changed only with an entry appended.
#[derive(Debug, Clone, PartialEq)]
pub struct DisputeRow {
    /// The club.
    pub club_id: String,
    /// The dispute's id, unique within the club.
    pub dispute_id: String,
    /// The hand disputed.
    pub hand_id: String,
    /// The hand's table.
    pub table_id: String,
    /// The event of the hand disputed, if one.
    pub event: Option<i64>,
    /// `unfair_deal`, `action_not_mine`, `wrong_score`, `rule_broken` or
    /// `record_altered`.
    pub kind: String,
    /// The claim, as entry 0 records it.
    pub claim: String,
    /// `open`, or the latest ruling's decision: `upheld`, `rejected`, `penalty`.
    pub status: String,
    /// Who opened it: `seat`, `admin` or `auditor`.
    pub opened_role: String,
    /// The seat token's or API key's id.
    pub opened_by: String,
    /// When it was opened (unix milliseconds).
    pub opened_ms: i64,
    /// When its last entry was appended.
    pub updated_ms: i64,
    /// How many entries its record has: the next entry's seq.
    pub entries: i64,
    /// The hash of its last entry (lowercase hex).
    pub head: String,
}

/// One signed entry of a dispute's record.
#[derive(Debug, Clone, PartialEq)]
pub struct DisputeEntryRow {
    /// The club.
    pub club_id: String,
    /// The dispute.
    pub dispute_id: String,
    /// Position in the record, from 0.
    pub seq: i64,
    /// `opened` or `ruling`.
    pub kind: String,
    /// The entry's hash (lowercase hex).
    pub hash: String,
    /// The previous entry's hash.
    pub prev_hash: String,
    /// The signed entry, `{"entry", "hash", "signer", "sig"}`.
    pub record: Value,
    /// When it was appended (unix milliseconds).
    pub created_ms: i64,
}

/// Appending a ruling: the entry, and the dispute's row after it.
#[derive(Debug, Clone, PartialEq)]
pub struct RulingAppend {
    /// The club.
    pub club_id: String,
    /// The dispute.
    pub dispute_id: String,
    /// The dispute's entry count the ruling was made on: the entry's seq.
    pub expected_entries: i64,
    /// The entry.
    pub entry: DisputeEntryRow,
    /// The dispute's status from now on.
    pub status: String,
    /// The response to record under the request's idempotency key.
    pub idem: Option<IdemRow>,
}

/// Which disputes [`DisputeStore::list_disputes`] returns; every field but `limit`
/// narrows the list.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct DisputeFilter {
    /// Only disputes in this status.
    pub status: Option<String>,
    /// Only disputes of this kind.
    pub kind: Option<String>,
    /// Only disputes of this hand.
    pub hand_id: Option<String>,
    /// Only disputes of hands of this table.
    pub table_id: Option<String>,
    /// Only disputes opened by this seat token or API key id.
    pub opened_by: Option<String>,
    /// Only disputes strictly after this one, newest first: the `(opened_ms,
    /// dispute_id)` of the last dispute of the previous page.
    pub cursor: Option<(i64, String)>,
    /// At most this many (negative counts as 0).
    pub limit: i64,
}

/// The store of disputes. See the module documentation.
#[async_trait]
pub trait DisputeStore: Send + Sync {
    /// Registers an official, with the idempotency record, all or nothing.
    /// [`StoreError::Duplicate`] (`"official"`) for a key the club has registered already,
    /// [`StoreError::NotFound`] for an unknown club, [`StoreError::IdempotencyConflict`]
    /// for a used idempotency key.
    async fn add_official(
        &self,
        official: &OfficialRow,
        idem: Option<&IdemRow>,
    ) -> Result<(), StoreError>;

    /// An official of the club by key id.
    async fn get_official(
        &self,
        club_id: &str,
        key_id: &str,
    ) -> Result<Option<OfficialRow>, StoreError>;

    /// The club's officials, in the order they were registered.
    async fn list_officials(&self, club_id: &str) -> Result<Vec<OfficialRow>, StoreError>;

    /// Revokes an official's key, with the idempotency record, all or nothing.
    /// [`StoreError::NotFound`] (`"official"`) for a key the club never registered,
    /// [`StoreError::Duplicate`] (`"revocation"`) for a key revoked already,
    /// [`StoreError::IdempotencyConflict`] for a used idempotency key.
    async fn revoke_official(
        &self,
        club_id: &str,
        key_id: &str,
        revocation: &Revocation,
        idem: Option<&IdemRow>,
    ) -> Result<(), StoreError>;

    /// Opens a dispute: its row and entry 0, with the idempotency record, all or nothing.
    /// [`StoreError::NotFound`] for an unknown hand, [`StoreError::Duplicate`]
    /// (`"dispute"`) for an id in use, [`StoreError::IdempotencyConflict`] for a used
    /// idempotency key.
    async fn open_dispute(
        &self,
        dispute: &DisputeRow,
        entry: &DisputeEntryRow,
        idem: Option<&IdemRow>,
    ) -> Result<(), StoreError>;

    /// Appends a ruling to a dispute and updates its row, with the idempotency record,
    /// all or nothing. [`StoreError::NotFound`] for an unknown dispute;
    /// [`StoreError::Conflict`] when the dispute no longer has `expected_entries` entries
    /// (another ruling came first); [`StoreError::IdempotencyConflict`] for a used key.
    async fn append_ruling(&self, req: &RulingAppend) -> Result<(), StoreError>;

    /// Reads a dispute.
    async fn get_dispute(
        &self,
        club_id: &str,
        dispute_id: &str,
    ) -> Result<Option<DisputeRow>, StoreError>;

    /// A dispute's entries, in seq order.
    async fn list_dispute_entries(
        &self,
        club_id: &str,
        dispute_id: &str,
    ) -> Result<Vec<DisputeEntryRow>, StoreError>;

    /// A page of a club's disputes, newest first (`opened_ms DESC, dispute_id DESC`).
    async fn list_disputes(
        &self,
        club_id: &str,
        filter: &DisputeFilter,
    ) -> Result<Vec<DisputeRow>, StoreError>;
}

/// The columns of a dispute row, shared by both stores' statements.
pub(super) const DISPUTE_COLS: &str = "club_id, dispute_id, hand_id, table_id, event, kind, \
     claim, status, opened_role, opened_by, opened_ms, updated_ms, entries, head";

/// The columns of an official row.
pub(super) const OFFICIAL_COLS: &str =
    "club_id, key_id, name, public_key, registered_ms, registered_by";

/// An official row as read, with its revocation if any (both stores; a `WHERE` on `o.`
/// and an `ORDER BY` follow).
pub(super) const OFFICIAL_SELECT: &str = "SELECT o.club_id, o.key_id, o.name, o.public_key, \
     o.registered_ms, o.registered_by, r.revoked_ms, r.revoked_by, r.reason \
     FROM officials o LEFT JOIN official_revocations r \
     ON r.club_id = o.club_id AND r.key_id = o.key_id";

/// The columns of a revocation row.
pub(super) const REVOCATION_COLS: &str = "club_id, key_id, revoked_ms, revoked_by, reason";

/// The columns of a dispute entry row.
pub(super) const ENTRY_COLS: &str =
    "club_id, dispute_id, seq, kind, hash, prev_hash, record, created_ms";

/// Checks the shape of a new dispute: entry 0 of this dispute, the idempotency record of
/// its club.
pub(super) fn check_open(
    d: &DisputeRow,
    e: &DisputeEntryRow,
    idem: Option<&IdemRow>,
) -> Result<(), StoreError> {
    if e.club_id != d.club_id || e.dispute_id != d.dispute_id || e.seq != 0 || d.entries != 1 {
        return Err(StoreError::Internal(
            "open_dispute: entry 0 of this dispute".into(),
        ));
    }
    check_idem(&d.club_id, idem)
}

/// Checks the shape of a ruling append.
pub(super) fn check_ruling(r: &RulingAppend) -> Result<(), StoreError> {
    if r.entry.club_id != r.club_id
        || r.entry.dispute_id != r.dispute_id
        || r.entry.seq != r.expected_entries
        || r.idem.as_ref().is_some_and(|i| i.club_id != r.club_id)
    {
        return Err(StoreError::Internal(
            "append_ruling: the entry must be the dispute's next, of its club".into(),
        ));
    }
    Ok(())
}
