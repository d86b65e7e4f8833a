//! The store of share links (docs/API.md, "Share links"): a club admin's read-only,
//! expiring, revocable link to one finished hand. Both stores implement [`ShareStore`],
//! reached from any [`Store`](super::Store) by [`Store::shares`](super::Store::shares).
//!
//! The store holds only the hash of a link's secret. A share is never deleted; revoking
//! it sets `revoked_ms` and `revoked_by` once (the databases refuse any other change).
//! Shares are read from the primary: a revocation must hold at once.

use async_trait::async_trait;

use super::{IdemRow, StoreError};

/// One share link of a hand.
#[derive(Debug, Clone, PartialEq)]
pub struct ShareRow {
    /// The club.
    pub club_id: String,
    /// The share's public id (16 hex), unique within the club.
    pub share_id: String,
    /// The hand shared.
    pub hand_id: String,
    /// Lowercase hex of SHA-256 of the link's secret.
    pub token_hash: String,
    /// When it was made (unix milliseconds).
    pub created_ms: i64,
    /// When it stops working (unix milliseconds), after `created_ms`.
    pub expires_ms: i64,
    /// The admin key that made it.
    pub created_by: String,
    /// When it was revoked, if it was.
    pub revoked_ms: Option<i64>,
    /// The admin key that revoked it.
    pub revoked_by: Option<String>,
}

/// The columns of `hand_shares`, in [`ShareRow`] order (both stores).
pub(super) const SHARE_COLS: &str = "club_id, share_id, hand_id, token_hash, created_ms, \
     expires_ms, created_by, revoked_ms, revoked_by";

/// Share links, on the store's database.
#[async_trait]
pub trait ShareStore: Send + Sync {
    /// Records a new share (with the idempotency record of the request that made it, in
    /// the same transaction). [`StoreError::NotFound`] for a hand the club does not have,
    /// [`StoreError::Duplicate`] for a share id the club has.
    async fn create_share(
        &self,
        share: &ShareRow,
        idem: Option<&IdemRow>,
    ) -> Result<(), StoreError>;

    /// One share of the club.
    async fn get_share(
        &self,
        club_id: &str,
        share_id: &str,
    ) -> Result<Option<ShareRow>, StoreError>;

    /// Every share of a hand, newest first.
    async fn list_shares(&self, club_id: &str, hand_id: &str) -> Result<Vec<ShareRow>, StoreError>;

    /// Revokes a share of a hand, if it is not revoked yet; the row as it then stands
    /// (`None`: the hand has no such share).
    async fn revoke_share(
        &self,
        club_id: &str,
        hand_id: &str,
        share_id: &str,
        by: &str,
        now_ms: i64,
    ) -> Result<Option<ShareRow>, StoreError>;
}
