//! The club transparency log's tiles and checkpoints in SQLite (schema/sqlite/V8).

use rusqlite::{params, OptionalExtension, Row};

use super::{map_sqlite, SqliteStore};
use crate::store::{CheckpointRow, StoreError};

const CHECKPOINT_COLS: &str = "club_id, size, root, note, created_ms";

fn checkpoint_from(r: &Row<'_>) -> rusqlite::Result<(String, i64, Vec<u8>, String, i64)> {
    Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
}

fn to_row(
    (club_id, size, root, note, created_ms): (String, i64, Vec<u8>, String, i64),
) -> Result<CheckpointRow, StoreError> {
    let root = <[u8; 32]>::try_from(root.as_slice())
        .map_err(|_| StoreError::Internal("checkpoint root is not 32 bytes".into()))?;
    Ok(CheckpointRow {
        club_id,
        size,
        root,
        note,
        created_ms,
    })
}

impl SqliteStore {
    pub(super) async fn clublog_tile(
        &self,
        club_id: &str,
        path: &str,
    ) -> Result<Option<Vec<u8>>, StoreError> {
        let (club_id, path) = (club_id.to_owned(), path.to_owned());
        self.run(move |conn| {
            conn.prepare_cached("SELECT bytes FROM log_tiles WHERE club_id = ?1 AND path = ?2")
                .and_then(|mut s| s.query_row(params![club_id, path], |r| r.get(0)).optional())
                .map_err(map_sqlite)
        })
        .await
    }

    pub(super) async fn clublog_publish(
        &self,
        club_id: &str,
        tiles: &[(String, Vec<u8>)],
        cp: &CheckpointRow,
    ) -> Result<bool, StoreError> {
        let (club_id, tiles, cp) = (club_id.to_owned(), tiles.to_vec(), cp.clone());
        self.write(move |tx| {
            let exists: Option<i64> = tx
                .prepare_cached("SELECT 1 FROM log_checkpoints WHERE club_id = ?1 AND size = ?2")
                .and_then(|mut s| {
                    s.query_row(params![club_id, cp.size], |r| r.get(0))
                        .optional()
                })
                .map_err(map_sqlite)?;
            if exists.is_some() {
                return Ok(false);
            }
            let mut put = tx
                .prepare_cached(
                    "INSERT INTO log_tiles (club_id, path, bytes) VALUES (?1, ?2, ?3) \
                     ON CONFLICT (club_id, path) DO UPDATE SET bytes = excluded.bytes",
                )
                .map_err(map_sqlite)?;
            for (path, bytes) in &tiles {
                put.execute(params![club_id, path, bytes])
                    .map_err(map_sqlite)?;
            }
            tx.prepare_cached(&format!(
                "INSERT INTO log_checkpoints ({CHECKPOINT_COLS}) VALUES (?1, ?2, ?3, ?4, ?5)"
            ))
            .and_then(|mut s| {
                s.execute(params![
                    club_id,
                    cp.size,
                    cp.root.to_vec(),
                    cp.note,
                    cp.created_ms
                ])
            })
            .map_err(map_sqlite)?;
            Ok(true)
        })
        .await
    }

    pub(super) async fn clublog_checkpoint(
        &self,
        club_id: &str,
        size: Option<i64>,
    ) -> Result<Option<CheckpointRow>, StoreError> {
        let club_id = club_id.to_owned();
        self.run(move |conn| {
            let found = match size {
                Some(size) => conn
                    .prepare_cached(&format!(
                        "SELECT {CHECKPOINT_COLS} FROM log_checkpoints \
                         WHERE club_id = ?1 AND size = ?2"
                    ))
                    .and_then(|mut s| {
                        s.query_row(params![club_id, size], checkpoint_from)
                            .optional()
                    }),
                None => conn
                    .prepare_cached(&format!(
                        "SELECT {CHECKPOINT_COLS} FROM log_checkpoints \
                         WHERE club_id = ?1 ORDER BY size DESC LIMIT 1"
                    ))
                    .and_then(|mut s| s.query_row(params![club_id], checkpoint_from).optional()),
            }
            .map_err(map_sqlite)?;
            found.map(to_row).transpose()
        })
        .await
    }

    pub(super) async fn clublog_order(
        &self,
        club_id: &str,
        from_gid: i64,
        limit: i64,
    ) -> Result<Vec<(i64, String, i64)>, StoreError> {
        let club_id = club_id.to_owned();
        let limit = limit.max(0);
        self.run(move |conn| {
            conn.prepare_cached(
                "SELECT gid, hand_id, seq FROM club_log WHERE club_id = ?1 AND gid >= ?2 \
                 ORDER BY gid LIMIT ?3",
            )
            .and_then(|mut s| {
                s.query_map(params![club_id, from_gid, limit], |r| {
                    Ok((r.get(0)?, r.get(1)?, r.get(2)?))
                })?
                .collect::<rusqlite::Result<Vec<_>>>()
            })
            .map_err(map_sqlite)
        })
        .await
    }

    pub(super) async fn clublog_clubs(&self) -> Result<Vec<String>, StoreError> {
        self.run(move |conn| {
            conn.prepare_cached(
                "SELECT c.club_id FROM clubs c WHERE c.next_gid > \
                 COALESCE((SELECT max(k.size) FROM log_checkpoints k \
                           WHERE k.club_id = c.club_id), 0) \
                 ORDER BY c.club_id",
            )
            .and_then(|mut s| {
                s.query_map([], |r| r.get(0))?
                    .collect::<rusqlite::Result<Vec<String>>>()
            })
            .map_err(map_sqlite)
        })
        .await
    }
}

/// Whether `clubs.next_gid` is one past `club_log`'s last gid: `Some` names the damage.
/// SQLite has no cursors: an append orders its own events.
pub(super) fn order_damage(
    conn: &rusqlite::Connection,
    club_id: &str,
) -> Result<Option<String>, StoreError> {
    let row: Option<(i64, Option<i64>)> = conn
        .prepare_cached(
            "SELECT c.next_gid, \
                    (SELECT g.gid FROM club_log g WHERE g.club_id = ?1 ORDER BY g.gid DESC LIMIT 1) \
             FROM clubs c WHERE c.club_id = ?1",
        )
        .and_then(|mut s| s.query_row(params![club_id], |r| Ok((r.get(0)?, r.get(1)?))).optional())
        .map_err(map_sqlite)?;
    Ok(row.and_then(|(next_gid, last_gid)| {
        (next_gid != last_gid.map_or(0, |g| g + 1))
            .then(|| crate::store::gid_damage(club_id, next_gid, last_gid))
    }))
}

impl SqliteStore {
    pub(super) async fn clublog_tile_paths(
        &self,
        club_id: &str,
    ) -> Result<Vec<String>, StoreError> {
        let club_id = club_id.to_owned();
        self.run(move |conn| {
            conn.prepare_cached("SELECT path FROM log_tiles WHERE club_id = ?1 ORDER BY path")
                .and_then(|mut s| {
                    s.query_map(params![club_id], |r| r.get(0))?
                        .collect::<rusqlite::Result<Vec<String>>>()
                })
                .map_err(map_sqlite)
        })
        .await
    }

    pub(super) async fn clublog_checkpoints(
        &self,
        club_id: &str,
    ) -> Result<Vec<CheckpointRow>, StoreError> {
        let club_id = club_id.to_owned();
        self.run(move |conn| {
            let rows = conn
                .prepare_cached(&format!(
                    "SELECT {CHECKPOINT_COLS} FROM log_checkpoints WHERE club_id = ?1 ORDER BY size"
                ))
                .and_then(|mut s| {
                    s.query_map(params![club_id], checkpoint_from)?
                        .collect::<rusqlite::Result<Vec<_>>>()
                })
                .map_err(map_sqlite)?;
            rows.into_iter().map(to_row).collect()
        })
        .await
    }

    pub(super) async fn clublog_order_damage(
        &self,
        club_id: &str,
    ) -> Result<Option<String>, StoreError> {
        let club_id = club_id.to_owned();
        self.run(move |conn| order_damage(conn, &club_id)).await
    }
}
