//! [`DisputeStore`] on PostgreSQL. Every statement names the club; reads go to the primary
//! (a dispute is read right after it is written, and disputes are few).

use crate::store::check_idem;
use async_trait::async_trait;
use tokio_postgres::types::ToSql;
use tokio_postgres::Row;

use super::{commit, get, insert_idem, map_pg, violated, PgStore};
use crate::store::disputes::{
    check_open, check_ruling, DisputeEntryRow, DisputeFilter, DisputeRow, DisputeStore,
    OfficialRow, Revocation, RulingAppend, DISPUTE_COLS, ENTRY_COLS, OFFICIAL_COLS,
    OFFICIAL_SELECT, REVOCATION_COLS,
};
use crate::store::{page_limit, IdemRow, StoreError};

fn official_from(r: &Row) -> Result<OfficialRow, StoreError> {
    let revoked_ms: Option<i64> = get(r, "revoked_ms")?;
    Ok(OfficialRow {
        club_id: get(r, "club_id")?,
        key_id: get(r, "key_id")?,
        name: get(r, "name")?,
        public_key: get(r, "public_key")?,
        registered_ms: get(r, "registered_ms")?,
        registered_by: get(r, "registered_by")?,
        revoked: match revoked_ms {
            Some(revoked_ms) => Some(Revocation {
                revoked_ms,
                revoked_by: get(r, "revoked_by")?,
                reason: get(r, "reason")?,
            }),
            None => None,
        },
    })
}

fn dispute_from(r: &Row) -> Result<DisputeRow, StoreError> {
    Ok(DisputeRow {
        club_id: get(r, "club_id")?,
        dispute_id: get(r, "dispute_id")?,
        hand_id: get(r, "hand_id")?,
        table_id: get(r, "table_id")?,
        event: get(r, "event")?,
        kind: get(r, "kind")?,
        claim: get(r, "claim")?,
        status: get(r, "status")?,
        opened_role: get(r, "opened_role")?,
        opened_by: get(r, "opened_by")?,
        opened_ms: get(r, "opened_ms")?,
        updated_ms: get(r, "updated_ms")?,
        entries: get(r, "entries")?,
        head: get(r, "head")?,
    })
}

fn entry_from(r: &Row) -> Result<DisputeEntryRow, StoreError> {
    Ok(DisputeEntryRow {
        club_id: get(r, "club_id")?,
        dispute_id: get(r, "dispute_id")?,
        seq: get(r, "seq")?,
        kind: get(r, "kind")?,
        hash: get(r, "hash")?,
        prev_hash: get(r, "prev_hash")?,
        record: get(r, "record")?,
        created_ms: get(r, "created_ms")?,
    })
}

/// The error of a write's statement: its own unique violations named, the rest mapped.
fn write_error(e: tokio_postgres::Error) -> StoreError {
    match violated(&e) {
        Some("officials_pkey") => StoreError::Duplicate("official"),
        Some("official_revocations_pkey") => StoreError::Duplicate("revocation"),
        Some("disputes_pkey") => StoreError::Duplicate("dispute"),
        Some("dispute_entries_pkey") => StoreError::Conflict {
            expected: 0,
            found: 1,
        },
        _ => match e.as_db_error().map(|d| d.constraint()) {
            Some(Some("officials_club_fkey")) => StoreError::NotFound("club"),
            Some(Some("official_revocations_official_fkey")) => StoreError::NotFound("official"),
            Some(Some("disputes_hand_fkey")) => StoreError::NotFound("hand"),
            Some(Some("dispute_entries_dispute_fkey")) => StoreError::NotFound("dispute"),
            _ => map_pg(e),
        },
    }
}

async fn insert_entry(
    tx: &deadpool_postgres::Transaction<'_>,
    e: &DisputeEntryRow,
) -> Result<(), StoreError> {
    let stmt = tx
        .prepare_cached(&format!(
            "INSERT INTO dispute_entries ({ENTRY_COLS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"
        ))
        .await
        .map_err(map_pg)?;
    tx.execute(
        &stmt,
        &[
            &e.club_id,
            &e.dispute_id,
            &e.seq,
            &e.kind,
            &e.hash,
            &e.prev_hash,
            &e.record,
            &e.created_ms,
        ],
    )
    .await
    .map_err(write_error)?;
    Ok(())
}

#[async_trait]
impl DisputeStore for PgStore {
    async fn add_official(
        &self,
        o: &OfficialRow,
        idem: Option<&IdemRow>,
    ) -> Result<(), StoreError> {
        check_idem(&o.club_id, idem)?;
        let mut client = self.client().await?;
        let tx = client.transaction().await.map_err(map_pg)?;
        if let Some(idem) = idem {
            insert_idem(&tx, idem).await?;
        }
        let stmt = tx
            .prepare_cached(&format!(
                "INSERT INTO officials ({OFFICIAL_COLS}) VALUES ($1, $2, $3, $4, $5, $6)"
            ))
            .await
            .map_err(map_pg)?;
        tx.execute(
            &stmt,
            &[
                &o.club_id,
                &o.key_id,
                &o.name,
                &o.public_key,
                &o.registered_ms,
                &o.registered_by,
            ],
        )
        .await
        .map_err(write_error)?;
        commit(tx).await
    }

    async fn get_official(
        &self,
        club_id: &str,
        key_id: &str,
    ) -> Result<Option<OfficialRow>, StoreError> {
        let client = self.client().await?;
        let stmt = client
            .prepare_cached(&format!(
                "{OFFICIAL_SELECT} WHERE o.club_id = $1 AND o.key_id = $2"
            ))
            .await
            .map_err(map_pg)?;
        let row = client
            .query_opt(&stmt, &[&club_id, &key_id])
            .await
            .map_err(map_pg)?;
        row.as_ref().map(official_from).transpose()
    }

    async fn list_officials(&self, club_id: &str) -> Result<Vec<OfficialRow>, StoreError> {
        let client = self.client().await?;
        let stmt = client
            .prepare_cached(&format!(
                "{OFFICIAL_SELECT} WHERE o.club_id = $1 ORDER BY o.registered_ms, o.key_id"
            ))
            .await
            .map_err(map_pg)?;
        let rows = client.query(&stmt, &[&club_id]).await.map_err(map_pg)?;
        rows.iter().map(official_from).collect()
    }

    async fn revoke_official(
        &self,
        club_id: &str,
        key_id: &str,
        rev: &Revocation,
        idem: Option<&IdemRow>,
    ) -> Result<(), StoreError> {
        check_idem(club_id, idem)?;
        let mut client = self.client().await?;
        let tx = client.transaction().await.map_err(map_pg)?;
        if let Some(idem) = idem {
            insert_idem(&tx, idem).await?;
        }
        let stmt = tx
            .prepare_cached(&format!(
                "INSERT INTO official_revocations ({REVOCATION_COLS}) VALUES ($1, $2, $3, $4, $5)"
            ))
            .await
            .map_err(map_pg)?;
        tx.execute(
            &stmt,
            &[
                &club_id,
                &key_id,
                &rev.revoked_ms,
                &rev.revoked_by,
                &rev.reason,
            ],
        )
        .await
        .map_err(write_error)?;
        commit(tx).await
    }

    async fn open_dispute(
        &self,
        d: &DisputeRow,
        entry: &DisputeEntryRow,
        idem: Option<&IdemRow>,
    ) -> Result<(), StoreError> {
        check_open(d, entry, idem)?;
        let mut client = self.client().await?;
        let tx = client.transaction().await.map_err(map_pg)?;
        if let Some(idem) = idem {
            insert_idem(&tx, idem).await?;
        }
        let stmt = tx
            .prepare_cached(&format!(
                "INSERT INTO disputes ({DISPUTE_COLS}) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)"
            ))
            .await
            .map_err(map_pg)?;
        tx.execute(
            &stmt,
            &[
                &d.club_id,
                &d.dispute_id,
                &d.hand_id,
                &d.table_id,
                &d.event,
                &d.kind,
                &d.claim,
                &d.status,
                &d.opened_role,
                &d.opened_by,
                &d.opened_ms,
                &d.updated_ms,
                &d.entries,
                &d.head,
            ],
        )
        .await
        .map_err(write_error)?;
        insert_entry(&tx, entry).await?;
        commit(tx).await
    }

    async fn append_ruling(&self, r: &RulingAppend) -> Result<(), StoreError> {
        check_ruling(r)?;
        let mut client = self.client().await?;
        let tx = client.transaction().await.map_err(map_pg)?;
        if let Some(idem) = &r.idem {
            insert_idem(&tx, idem).await?;
        }
        // The row first, guarded by the entry count the ruling was made on: a second
        // ruling on the same count waits for the first and then updates nothing.
        let stmt = tx
            .prepare_cached(
                "UPDATE disputes SET status = $4, entries = entries + 1, head = $5, \
                 updated_ms = $6 WHERE club_id = $1 AND dispute_id = $2 AND entries = $3",
            )
            .await
            .map_err(map_pg)?;
        let n = tx
            .execute(
                &stmt,
                &[
                    &r.club_id,
                    &r.dispute_id,
                    &r.expected_entries,
                    &r.status,
                    &r.entry.hash,
                    &r.entry.created_ms,
                ],
            )
            .await
            .map_err(map_pg)?;
        if n == 0 {
            let found: Option<i64> = tx
                .query_opt(
                    "SELECT entries FROM disputes WHERE club_id = $1 AND dispute_id = $2",
                    &[&r.club_id, &r.dispute_id],
                )
                .await
                .map_err(map_pg)?
                .map(|row| get(&row, "entries"))
                .transpose()?;
            return Err(match found {
                None => StoreError::NotFound("dispute"),
                Some(found) => StoreError::Conflict {
                    expected: r.expected_entries,
                    found,
                },
            });
        }
        insert_entry(&tx, &r.entry).await?;
        commit(tx).await
    }

    async fn get_dispute(
        &self,
        club_id: &str,
        dispute_id: &str,
    ) -> Result<Option<DisputeRow>, StoreError> {
        let client = self.client().await?;
        let stmt = client
            .prepare_cached(&format!(
                "SELECT {DISPUTE_COLS} FROM disputes WHERE club_id = $1 AND dispute_id = $2"
            ))
            .await
            .map_err(map_pg)?;
        let row = client
            .query_opt(&stmt, &[&club_id, &dispute_id])
            .await
            .map_err(map_pg)?;
        row.as_ref().map(dispute_from).transpose()
    }

    async fn list_dispute_entries(
        &self,
        club_id: &str,
        dispute_id: &str,
    ) -> Result<Vec<DisputeEntryRow>, StoreError> {
        let client = self.client().await?;
        let stmt = client
            .prepare_cached(&format!(
                "SELECT {ENTRY_COLS} FROM dispute_entries WHERE club_id = $1 AND \
                 dispute_id = $2 ORDER BY seq"
            ))
            .await
            .map_err(map_pg)?;
        let rows = client
            .query(&stmt, &[&club_id, &dispute_id])
            .await
            .map_err(map_pg)?;
        rows.iter().map(entry_from).collect()
    }

    async fn list_disputes(
        &self,
        club_id: &str,
        f: &DisputeFilter,
    ) -> Result<Vec<DisputeRow>, StoreError> {
        let mut sql = format!("SELECT {DISPUTE_COLS} FROM disputes WHERE club_id = $1");
        let mut args: Vec<Box<dyn ToSql + Sync + Send>> = vec![Box::new(club_id.to_owned())];
        let mut bind = |clause: &str, v: Box<dyn ToSql + Sync + Send>| {
            args.push(v);
            sql.push_str(&clause.replace("$$", &format!("${}", args.len())));
        };
        for (col, v) in [
            ("status", &f.status),
            ("kind", &f.kind),
            ("hand_id", &f.hand_id),
            ("table_id", &f.table_id),
            ("opened_by", &f.opened_by),
        ] {
            if let Some(v) = v {
                bind(&format!(" AND {col} = $$"), Box::new(v.clone()));
            }
        }
        if let Some((ms, id)) = &f.cursor {
            bind(" AND (opened_ms, dispute_id) < ($$", Box::new(*ms));
            bind(", $$)", Box::new(id.clone()));
        }
        bind(
            " ORDER BY opened_ms DESC, dispute_id DESC LIMIT $$",
            Box::new(page_limit(f.limit)),
        );
        let client = self.client().await?;
        let params: Vec<&(dyn ToSql + Sync)> = args
            .iter()
            .map(|a| a.as_ref() as &(dyn ToSql + Sync))
            .collect();
        let rows = client.query(&sql, &params).await.map_err(map_pg)?;
        rows.iter().map(dispute_from).collect()
    }
}
