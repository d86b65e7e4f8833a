//! [`CheckStore`] on the embedded SQLite file. The embedded store orders a hand's events
//! in the club's log in the append's own transaction: it has no sequencer cursors.

use async_trait::async_trait;
use rusqlite::params;

use super::{map_sqlite, SqliteStore};
use crate::store::checks::{CheckStore, CHAIN_LIST_SQL, HAND_PLAYERS_SQL, IDEM_PAGE_SQL};
use crate::store::{IdemRow, SeedChainRow, StoreError};

/// The shared statement text with SQLite's numbered parameters (`?1` for `$1`).
fn sqlite_text(sql: &str) -> String {
    sql.replace('$', "?")
}

#[async_trait]
impl CheckStore for SqliteStore {
    async fn hand_log_extent(&self, club_id: &str, hand_id: &str) -> Result<i64, StoreError> {
        let (club_id, hand_id) = (club_id.to_owned(), hand_id.to_owned());
        self.run(move |conn| {
            conn.prepare_cached(
                "SELECT COALESCE(max(seq) + 1, 0) FROM club_log WHERE club_id = ?1 AND hand_id = ?2",
            )
            .and_then(|mut s| s.query_row(params![club_id, hand_id], |r| r.get(0)))
            .map_err(map_sqlite)
        })
        .await
    }

    async fn seed_chains_of(
        &self,
        club_id: &str,
        table_id: &str,
    ) -> Result<Vec<SeedChainRow>, StoreError> {
        let (club_id, table_id) = (club_id.to_owned(), table_id.to_owned());
        self.run(move |conn| {
            let mut s = conn
                .prepare_cached(&sqlite_text(CHAIN_LIST_SQL))
                .map_err(map_sqlite)?;
            let rows = s
                .query_map(params![club_id, table_id], |r| {
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
                .map_err(map_sqlite)?;
            rows.collect::<Result<Vec<_>, _>>().map_err(map_sqlite)
        })
        .await
    }

    async fn hand_players_of(
        &self,
        club_id: &str,
        hand_id: &str,
    ) -> Result<Vec<(i64, String)>, StoreError> {
        let (club_id, hand_id) = (club_id.to_owned(), hand_id.to_owned());
        self.run(move |conn| {
            let mut s = conn
                .prepare_cached(&sqlite_text(HAND_PLAYERS_SQL))
                .map_err(map_sqlite)?;
            let rows = s
                .query_map(params![club_id, hand_id], |r| Ok((r.get(0)?, r.get(1)?)))
                .map_err(map_sqlite)?;
            rows.collect::<Result<Vec<_>, _>>().map_err(map_sqlite)
        })
        .await
    }

    async fn idempotency_page(
        &self,
        club_id: &str,
        after: &str,
        limit: i64,
    ) -> Result<Vec<IdemRow>, StoreError> {
        let (club_id, after) = (club_id.to_owned(), after.to_owned());
        self.run(move |conn| {
            let mut s = conn
                .prepare_cached(&sqlite_text(IDEM_PAGE_SQL))
                .map_err(map_sqlite)?;
            let raw = s
                .query_map(params![club_id, after, limit], |r| {
                    Ok((
                        r.get(0)?,
                        r.get(1)?,
                        r.get(2)?,
                        r.get(3)?,
                        r.get::<_, String>(4)?,
                        r.get(5)?,
                    ))
                })
                .map_err(map_sqlite)?
                .collect::<Result<Vec<(String, String, String, i32, String, i64)>, _>>()
                .map_err(map_sqlite)?;
            raw.into_iter()
                .map(
                    |(club_id, key, request_hash, status, response, created_ms)| {
                        Ok(IdemRow {
                            club_id,
                            key,
                            request_hash,
                            status,
                            // A response that no longer reads as JSON is the row's problem,
                            // for the caller to name: kept as a string.
                            response: serde_json::from_str(&response)
                                .unwrap_or(serde_json::Value::String(response)),
                            created_ms,
                        })
                    },
                )
                .collect()
        })
        .await
    }
}
