//! [`CheckStore`] on PostgreSQL.

use async_trait::async_trait;

use super::{get, idem_from, map_pg, PgStore};
use crate::store::checks::{CheckStore, CHAIN_LIST_SQL, HAND_PLAYERS_SQL, IDEM_PAGE_SQL};
use crate::store::{IdemRow, SeedChainRow, StoreError};

#[async_trait]
impl CheckStore for PgStore {
    async fn hand_log_extent(&self, club_id: &str, hand_id: &str) -> Result<i64, StoreError> {
        let client = self.client().await?;
        let stmt = client
            .prepare_cached(
                "SELECT GREATEST( \
                   COALESCE((SELECT max(seq) + 1 FROM club_log \
                             WHERE club_id = $1 AND hand_id = $2), 0), \
                   COALESCE((SELECT next_seq FROM log_cursors \
                             WHERE club_id = $1 AND hand_id = $2), 0))::BIGINT",
            )
            .await
            .map_err(map_pg)?;
        let row = client
            .query_one(&stmt, &[&club_id, &hand_id])
            .await
            .map_err(map_pg)?;
        Ok(row.get(0))
    }

    async fn seed_chains_of(
        &self,
        club_id: &str,
        table_id: &str,
    ) -> Result<Vec<SeedChainRow>, StoreError> {
        let client = self.client().await?;
        let stmt = client
            .prepare_cached(CHAIN_LIST_SQL)
            .await
            .map_err(map_pg)?;
        let rows = client
            .query(&stmt, &[&club_id, &table_id])
            .await
            .map_err(map_pg)?;
        rows.iter()
            .map(|r| {
                Ok(SeedChainRow {
                    club_id: get(r, "club_id")?,
                    table_id: get(r, "table_id")?,
                    first_hand_no: get(r, "first_hand_no")?,
                    length: get(r, "length")?,
                    anchor: get(r, "anchor")?,
                    sealed: get(r, "sealed")?,
                    created_ms: get(r, "created_ms")?,
                })
            })
            .collect()
    }

    async fn hand_players_of(
        &self,
        club_id: &str,
        hand_id: &str,
    ) -> Result<Vec<(i64, String)>, StoreError> {
        let client = self.client().await?;
        let stmt = client
            .prepare_cached(HAND_PLAYERS_SQL)
            .await
            .map_err(map_pg)?;
        let rows = client
            .query(&stmt, &[&club_id, &hand_id])
            .await
            .map_err(map_pg)?;
        rows.iter()
            .map(|r| {
                let seat: i16 = get(r, "seat")?;
                Ok((i64::from(seat), get(r, "player")?))
            })
            .collect()
    }

    async fn idempotency_page(
        &self,
        club_id: &str,
        after: &str,
        limit: i64,
    ) -> Result<Vec<IdemRow>, StoreError> {
        let client = self.client().await?;
        let stmt = client.prepare_cached(IDEM_PAGE_SQL).await.map_err(map_pg)?;
        let rows = client
            .query(&stmt, &[&club_id, &after, &limit])
            .await
            .map_err(map_pg)?;
        rows.iter().map(idem_from).collect()
    }
}
