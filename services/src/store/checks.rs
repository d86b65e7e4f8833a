//! Reads that the service's record checks and `audit-service audit` need beyond a hand's
//! own path (issue 29): how far the club's log has ordered a hand, a table's seed chain
//! rows, a hand's `hand_players` projection, a club's idempotency records. Both stores
//! implement [`CheckStore`], reached from any [`Store`](super::Store) by
//! [`Store::checks`](super::Store::checks).

use async_trait::async_trait;

use super::{IdemRow, SeedChainRow, StoreError};

/// The columns of `seed_chains`, in [`SeedChainRow`] order, with the row key first: the
/// same text on both stores.
pub(super) const CHAIN_LIST_SQL: &str = "SELECT club_id, table_id, first_hand_no, length, \
     anchor, sealed, created_ms FROM seed_chains WHERE club_id = $1 AND table_id = $2 \
     ORDER BY first_hand_no";

/// `hand_players` of one hand, by seat: the same text on both stores.
pub(super) const HAND_PLAYERS_SQL: &str =
    "SELECT seat, player FROM hand_players WHERE club_id = $1 AND hand_id = $2 ORDER BY seat";

/// A page of a club's idempotency records after a key, by key: the same text on both
/// stores.
pub(super) const IDEM_PAGE_SQL: &str =
    "SELECT club_id, key, request_hash, status, response, created_ms FROM idempotency_keys \
     WHERE club_id = $1 AND key > $2 ORDER BY key LIMIT $3";

/// Reads for checking stored records against the signed ones.
#[async_trait]
pub trait CheckStore: Send + Sync {
    /// How many events of a hand the club's log says it has: one past the highest `seq`
    /// of the hand in `club_log`, or its sequencer cursor (`log_cursors.next_seq`, on
    /// PostgreSQL) when that is further; 0 when neither knows the hand. A hand's stored
    /// log holds at least as many events, read after this (both only grow).
    async fn hand_log_extent(&self, club_id: &str, hand_id: &str) -> Result<i64, StoreError>;

    /// Every seed chain row of a table, by `first_hand_no`.
    async fn seed_chains_of(
        &self,
        club_id: &str,
        table_id: &str,
    ) -> Result<Vec<SeedChainRow>, StoreError>;

    /// A hand's `hand_players` rows, `(seat, player)` by seat.
    async fn hand_players_of(
        &self,
        club_id: &str,
        hand_id: &str,
    ) -> Result<Vec<(i64, String)>, StoreError>;

    /// Up to `limit` of a club's idempotency records whose key sorts after `after`, by key.
    async fn idempotency_page(
        &self,
        club_id: &str,
        after: &str,
        limit: i64,
    ) -> Result<Vec<IdemRow>, StoreError>;
}
