//! The club transparency log's tiles and checkpoints in PostgreSQL
//! (schema/postgres/V11). Always on the primary: a checkpoint and the tiles it needs
//! are read from the same database they were written to.

use tokio_postgres::Row;

use super::{commit, map_pg, PgStore};
use crate::store::{CheckpointRow, StoreError};

const CHECKPOINT_COLS: &str = "club_id, size, root, note, created_ms";

fn checkpoint_from(r: &Row) -> Result<CheckpointRow, StoreError> {
    let root: Vec<u8> = r.try_get(2).map_err(map_pg)?;
    let root = <[u8; 32]>::try_from(root.as_slice())
        .map_err(|_| StoreError::Internal("checkpoint root is not 32 bytes".into()))?;
    Ok(CheckpointRow {
        club_id: r.try_get(0).map_err(map_pg)?,
        size: r.try_get(1).map_err(map_pg)?,
        root,
        note: r.try_get(3).map_err(map_pg)?,
        created_ms: r.try_get(4).map_err(map_pg)?,
    })
}

impl PgStore {
    pub(super) async fn clublog_tile(
        &self,
        club_id: &str,
        path: &str,
    ) -> Result<Option<Vec<u8>>, StoreError> {
        let client = self.client().await?;
        let stmt = client
            .prepare_cached("SELECT bytes FROM log_tiles WHERE club_id = $1 AND path = $2")
            .await
            .map_err(map_pg)?;
        let row = client
            .query_opt(&stmt, &[&club_id, &path])
            .await
            .map_err(map_pg)?;
        row.map(|r| r.try_get(0).map_err(map_pg)).transpose()
    }

    pub(super) async fn clublog_publish(
        &self,
        club_id: &str,
        tiles: &[(String, Vec<u8>)],
        cp: &CheckpointRow,
    ) -> Result<bool, StoreError> {
        let mut client = self.client().await?;
        let tx = client.transaction().await.map_err(map_pg)?;
        // The checkpoint first: a builder that lost a race with another one (several
        // service processes) finds its size taken, waiting for the other's commit on
        // the primary key, and writes nothing (dropping the transaction rolls it back).
        let stmt = tx
            .prepare_cached(&format!(
                "INSERT INTO log_checkpoints ({CHECKPOINT_COLS}) VALUES ($1, $2, $3, $4, $5) \
                 ON CONFLICT (club_id, size) DO NOTHING RETURNING 1"
            ))
            .await
            .map_err(map_pg)?;
        let root = cp.root.to_vec();
        let inserted = tx
            .query_opt(
                &stmt,
                &[&club_id, &cp.size, &root, &cp.note, &cp.created_ms],
            )
            .await
            .map_err(map_pg)?;
        if inserted.is_none() {
            return Ok(false);
        }
        let paths: Vec<&str> = tiles.iter().map(|(p, _)| p.as_str()).collect();
        let bytes: Vec<&[u8]> = tiles.iter().map(|(_, b)| b.as_slice()).collect();
        let stmt = tx
            .prepare_cached(
                "INSERT INTO log_tiles (club_id, path, bytes) \
                 SELECT $1, p, b FROM unnest($2::text[], $3::bytea[]) AS t(p, b) \
                 ON CONFLICT (club_id, path) DO UPDATE SET bytes = excluded.bytes",
            )
            .await
            .map_err(map_pg)?;
        tx.execute(&stmt, &[&club_id, &paths, &bytes])
            .await
            .map_err(map_pg)?;
        commit(tx).await?;
        Ok(true)
    }

    pub(super) async fn clublog_checkpoint(
        &self,
        club_id: &str,
        size: Option<i64>,
    ) -> Result<Option<CheckpointRow>, StoreError> {
        let client = self.client().await?;
        let row = match size {
            Some(size) => {
                let stmt = client
                    .prepare_cached(&format!(
                        "SELECT {CHECKPOINT_COLS} FROM log_checkpoints \
                         WHERE club_id = $1 AND size = $2"
                    ))
                    .await
                    .map_err(map_pg)?;
                client.query_opt(&stmt, &[&club_id, &size]).await
            }
            None => {
                let stmt = client
                    .prepare_cached(&format!(
                        "SELECT {CHECKPOINT_COLS} FROM log_checkpoints \
                         WHERE club_id = $1 ORDER BY size DESC LIMIT 1"
                    ))
                    .await
                    .map_err(map_pg)?;
                client.query_opt(&stmt, &[&club_id]).await
            }
        }
        .map_err(map_pg)?;
        row.as_ref().map(checkpoint_from).transpose()
    }

    pub(super) async fn clublog_order(
        &self,
        club_id: &str,
        from_gid: i64,
        limit: i64,
    ) -> Result<Vec<(i64, String, i64)>, StoreError> {
        let client = self.client().await?;
        let stmt = client
            .prepare_cached(
                "SELECT gid, hand_id, seq FROM club_log WHERE club_id = $1 AND gid >= $2 \
                 ORDER BY gid LIMIT $3",
            )
            .await
            .map_err(map_pg)?;
        let rows = client
            .query(&stmt, &[&club_id, &from_gid, &limit.max(0)])
            .await
            .map_err(map_pg)?;
        rows.iter()
            .map(|r| {
                Ok((
                    r.try_get(0).map_err(map_pg)?,
                    r.try_get(1).map_err(map_pg)?,
                    r.try_get(2).map_err(map_pg)?,
                ))
            })
            .collect()
    }

    pub(super) async fn clublog_clubs(&self) -> Result<Vec<String>, StoreError> {
        let client = self.client().await?;
        // The one read across clubs of the log builder (docs/SCALING.md), as the
        // sequencer's: one row per club, compared with its latest checkpoint.
        let stmt = client
            .prepare_cached(
                "SELECT c.club_id FROM clubs c WHERE c.next_gid > \
                 COALESCE((SELECT max(k.size) FROM log_checkpoints k \
                           WHERE k.club_id = c.club_id), 0) \
                 ORDER BY c.club_id",
            )
            .await
            .map_err(map_pg)?;
        let rows = client.query(&stmt, &[]).await.map_err(map_pg)?;
        rows.iter().map(|r| r.try_get(0).map_err(map_pg)).collect()
    }
}

/// What [`order_damage`] reads: the club's `next_gid`, the last gid of `club_log`, and the
/// first hand whose cursor is not one past its last ordered event (with the cursor and
/// that last seq).
const ORDER_DAMAGE: &str = "\
    SELECT c.next_gid, \
           (SELECT g.gid FROM club_log g WHERE g.club_id = $1 ORDER BY g.gid DESC LIMIT 1) \
               AS last_gid, \
           x.hand_id, x.next_seq, \
           (SELECT max(g.seq) FROM club_log g \
            WHERE g.club_id = $1 AND g.hand_id = x.hand_id) AS last_seq \
    FROM clubs c LEFT JOIN LATERAL ( \
        SELECT l.hand_id, l.next_seq FROM log_cursors l \
        WHERE l.club_id = $1 \
          AND ((l.next_seq > 0 AND NOT EXISTS ( \
                   SELECT 1 FROM club_log g WHERE g.club_id = $1 \
                     AND g.hand_id = l.hand_id AND g.seq = l.next_seq - 1)) \
               OR EXISTS ( \
                   SELECT 1 FROM club_log g WHERE g.club_id = $1 \
                     AND g.hand_id = l.hand_id AND g.seq = l.next_seq)) \
        ORDER BY l.hand_id LIMIT 1) x ON true \
    WHERE c.club_id = $1";

/// Whether the club's order holds together, on a client or in the sequencer's
/// transaction (under the club's row lock): `Some` names the damage.
pub(super) async fn order_damage(
    client: &impl deadpool_postgres::GenericClient,
    club_id: &str,
) -> Result<Option<String>, StoreError> {
    let stmt = client.prepare_cached(ORDER_DAMAGE).await.map_err(map_pg)?;
    let Some(row) = client.query_opt(&stmt, &[&club_id]).await.map_err(map_pg)? else {
        return Ok(None);
    };
    let next_gid: i64 = row.try_get(0).map_err(map_pg)?;
    let last_gid: Option<i64> = row.try_get(1).map_err(map_pg)?;
    let want = last_gid.map_or(0, |g| g + 1);
    if next_gid != want {
        return Ok(Some(crate::store::gid_damage(club_id, next_gid, last_gid)));
    }
    let hand: Option<String> = row.try_get(2).map_err(map_pg)?;
    if let Some(hand) = hand {
        let cursor: i64 = row.try_get(3).map_err(map_pg)?;
        let last_seq: Option<i64> = row.try_get(4).map_err(map_pg)?;
        let want = last_seq.map_or(0, |s| s + 1);
        let how = if cursor > want {
            format!(
                "moved forward: events {want} to {} would be left out of the log",
                cursor - 1
            )
        } else {
            format!(
                "moved back: events {cursor} to {} would be ordered twice",
                want - 1
            )
        };
        return Ok(Some(format!(
            "log_cursors row ({club_id}, {hand}): next_seq is {cursor}, expected {want} (one past the hand's last event in club_log): {how}"
        )));
    }
    Ok(None)
}

impl PgStore {
    pub(super) async fn clublog_tile_paths(
        &self,
        club_id: &str,
    ) -> Result<Vec<String>, StoreError> {
        let client = self.client().await?;
        let stmt = client
            .prepare_cached("SELECT path FROM log_tiles WHERE club_id = $1 ORDER BY path")
            .await
            .map_err(map_pg)?;
        let rows = client.query(&stmt, &[&club_id]).await.map_err(map_pg)?;
        rows.iter().map(|r| r.try_get(0).map_err(map_pg)).collect()
    }

    pub(super) async fn clublog_checkpoints(
        &self,
        club_id: &str,
    ) -> Result<Vec<CheckpointRow>, StoreError> {
        let client = self.client().await?;
        let stmt = client
            .prepare_cached(&format!(
                "SELECT {CHECKPOINT_COLS} FROM log_checkpoints WHERE club_id = $1 ORDER BY size"
            ))
            .await
            .map_err(map_pg)?;
        let rows = client.query(&stmt, &[&club_id]).await.map_err(map_pg)?;
        rows.iter().map(checkpoint_from).collect()
    }

    pub(super) async fn clublog_order_damage(
        &self,
        club_id: &str,
    ) -> Result<Option<String>, StoreError> {
        let client = self.client().await?;
        order_damage(&client, club_id).await
    }
}
