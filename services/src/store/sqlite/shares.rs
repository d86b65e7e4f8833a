//! [`ShareStore`] on the embedded SQLite file.

use crate::store::check_idem;
use async_trait::async_trait;
use rusqlite::{params, ErrorCode, OptionalExtension, Row};

use super::{insert_idem, map_sqlite, SqliteStore};
use crate::store::shares::{ShareRow, ShareStore, SHARE_COLS};
use crate::store::{IdemRow, StoreError};

fn share_row(r: &Row<'_>) -> rusqlite::Result<ShareRow> {
    Ok(ShareRow {
        club_id: r.get(0)?,
        share_id: r.get(1)?,
        hand_id: r.get(2)?,
        token_hash: r.get(3)?,
        created_ms: r.get(4)?,
        expires_ms: r.get(5)?,
        created_by: r.get(6)?,
        revoked_ms: r.get(7)?,
        revoked_by: r.get(8)?,
    })
}

fn write_error(e: rusqlite::Error) -> StoreError {
    if let rusqlite::Error::SqliteFailure(f, Some(msg)) = &e {
        if f.code == ErrorCode::ConstraintViolation {
            if msg.starts_with("UNIQUE constraint failed: hand_shares.") {
                return StoreError::Duplicate("share");
            }
            if msg.starts_with("FOREIGN KEY constraint failed") {
                return StoreError::NotFound("hand");
            }
        }
    }
    map_sqlite(e)
}

fn get(conn: &rusqlite::Connection, club: &str, id: &str) -> Result<Option<ShareRow>, StoreError> {
    conn.prepare_cached(&format!(
        "SELECT {SHARE_COLS} FROM hand_shares WHERE club_id = ?1 AND share_id = ?2"
    ))
    .and_then(|mut s| s.query_row(params![club, id], share_row).optional())
    .map_err(map_sqlite)
}

#[async_trait]
impl ShareStore for SqliteStore {
    async fn create_share(
        &self,
        share: &ShareRow,
        idem: Option<&IdemRow>,
    ) -> Result<(), StoreError> {
        check_idem(&share.club_id, idem)?;
        let (s, idem) = (share.clone(), idem.cloned());
        self.write(move |tx| {
            if let Some(idem) = &idem {
                insert_idem(tx, idem)?;
            }
            tx.prepare_cached(&format!(
                "INSERT INTO hand_shares ({SHARE_COLS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)"
            ))
            .and_then(|mut st| {
                st.execute(params![
                    s.club_id,
                    s.share_id,
                    s.hand_id,
                    s.token_hash,
                    s.created_ms,
                    s.expires_ms,
                    s.created_by,
                    s.revoked_ms,
                    s.revoked_by
                ])
            })
            .map_err(write_error)?;
            Ok(())
        })
        .await
    }

    async fn get_share(
        &self,
        club_id: &str,
        share_id: &str,
    ) -> Result<Option<ShareRow>, StoreError> {
        let (club, id) = (club_id.to_owned(), share_id.to_owned());
        self.run(move |conn| get(conn, &club, &id)).await
    }

    async fn list_shares(&self, club_id: &str, hand_id: &str) -> Result<Vec<ShareRow>, StoreError> {
        let (club, hand) = (club_id.to_owned(), hand_id.to_owned());
        self.run(move |conn| {
            conn.prepare_cached(&format!(
                "SELECT {SHARE_COLS} FROM hand_shares WHERE club_id = ?1 AND hand_id = ?2 \
                 ORDER BY created_ms DESC, share_id DESC"
            ))
            .and_then(|mut s| {
                s.query_map(params![club, hand], share_row)?
                    .collect::<rusqlite::Result<Vec<_>>>()
            })
            .map_err(map_sqlite)
        })
        .await
    }

    async fn revoke_share(
        &self,
        club_id: &str,
        hand_id: &str,
        share_id: &str,
        by: &str,
        now_ms: i64,
    ) -> Result<Option<ShareRow>, StoreError> {
        let (club, hand, id, by) = (
            club_id.to_owned(),
            hand_id.to_owned(),
            share_id.to_owned(),
            by.to_owned(),
        );
        self.write(move |tx| {
            tx.prepare_cached(
                "UPDATE hand_shares SET revoked_ms = ?1, revoked_by = ?2 \
                 WHERE club_id = ?3 AND hand_id = ?4 AND share_id = ?5 AND revoked_ms IS NULL",
            )
            .and_then(|mut s| s.execute(params![now_ms, by, club, hand, id]))
            .map_err(write_error)?;
            Ok(get(tx, &club, &id)?.filter(|s| s.hand_id == hand))
        })
        .await
    }
}
