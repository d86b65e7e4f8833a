//! [`ShareStore`] on PostgreSQL. Every statement names the club; every read goes to the
//! primary (a revocation holds at once).

use crate::store::check_idem;
use async_trait::async_trait;
use tokio_postgres::Row;

use super::{commit, get, insert_idem, map_pg, violated, PgStore};
use crate::store::shares::{ShareRow, ShareStore, SHARE_COLS};
use crate::store::{IdemRow, StoreError};

fn share_from(r: &Row) -> Result<ShareRow, StoreError> {
    Ok(ShareRow {
        club_id: get(r, "club_id")?,
        share_id: get(r, "share_id")?,
        hand_id: get(r, "hand_id")?,
        token_hash: get(r, "token_hash")?,
        created_ms: get(r, "created_ms")?,
        expires_ms: get(r, "expires_ms")?,
        created_by: get(r, "created_by")?,
        revoked_ms: get(r, "revoked_ms")?,
        revoked_by: get(r, "revoked_by")?,
    })
}

fn write_error(e: tokio_postgres::Error) -> StoreError {
    match violated(&e) {
        Some("hand_shares_pkey") => StoreError::Duplicate("share"),
        _ => match e.as_db_error().map(|d| d.constraint()) {
            Some(Some("hand_shares_hand_fkey")) => StoreError::NotFound("hand"),
            _ => map_pg(e),
        },
    }
}

#[async_trait]
impl ShareStore for PgStore {
    async fn create_share(&self, s: &ShareRow, idem: Option<&IdemRow>) -> Result<(), StoreError> {
        check_idem(&s.club_id, idem)?;
        let mut client = self.client().await?;
        let tx = client.transaction().await.map_err(map_pg)?;
        if let Some(idem) = idem {
            insert_idem(&tx, idem).await?;
        }
        let stmt = tx
            .prepare_cached(&format!(
                "INSERT INTO hand_shares ({SHARE_COLS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)"
            ))
            .await
            .map_err(map_pg)?;
        tx.execute(
            &stmt,
            &[
                &s.club_id,
                &s.share_id,
                &s.hand_id,
                &s.token_hash,
                &s.created_ms,
                &s.expires_ms,
                &s.created_by,
                &s.revoked_ms,
                &s.revoked_by,
            ],
        )
        .await
        .map_err(write_error)?;
        commit(tx).await
    }

    async fn get_share(
        &self,
        club_id: &str,
        share_id: &str,
    ) -> Result<Option<ShareRow>, StoreError> {
        let client = self.client().await?;
        let stmt = client
            .prepare_cached(&format!(
                "SELECT {SHARE_COLS} FROM hand_shares WHERE club_id = $1 AND share_id = $2"
            ))
            .await
            .map_err(map_pg)?;
        let row = client
            .query_opt(&stmt, &[&club_id, &share_id])
            .await
            .map_err(map_pg)?;
        row.as_ref().map(share_from).transpose()
    }

    async fn list_shares(&self, club_id: &str, hand_id: &str) -> Result<Vec<ShareRow>, StoreError> {
        let client = self.client().await?;
        let stmt = client
            .prepare_cached(&format!(
                "SELECT {SHARE_COLS} FROM hand_shares WHERE club_id = $1 AND hand_id = $2 \
                 ORDER BY created_ms DESC, share_id DESC"
            ))
            .await
            .map_err(map_pg)?;
        let rows = client
            .query(&stmt, &[&club_id, &hand_id])
            .await
            .map_err(map_pg)?;
        rows.iter().map(share_from).collect()
    }

    async fn revoke_share(
        &self,
        club_id: &str,
        hand_id: &str,
        share_id: &str,
        by: &str,
        now_ms: i64,
    ) -> Result<Option<ShareRow>, StoreError> {
        let client = self.client().await?;
        let stmt = client
            .prepare_cached(
                "UPDATE hand_shares SET revoked_ms = $1, revoked_by = $2 \
                 WHERE club_id = $3 AND hand_id = $4 AND share_id = $5 AND revoked_ms IS NULL",
            )
            .await
            .map_err(map_pg)?;
        client
            .execute(&stmt, &[&now_ms, &by, &club_id, &hand_id, &share_id])
            .await
            .map_err(write_error)?;
        drop(client);
        Ok(self
            .get_share(club_id, share_id)
            .await?
            .filter(|s| s.hand_id == hand_id))
    }
}
