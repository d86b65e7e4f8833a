//! [`DisputeStore`] on the embedded SQLite file: every write one `BEGIN IMMEDIATE`
//! transaction, as the rest of the store.

use crate::store::check_idem;
use async_trait::async_trait;
use rusqlite::types::Value as SqlValue;
use rusqlite::{params, params_from_iter, Connection, ErrorCode, OptionalExtension, Row};

use super::{insert_idem, json, map_sqlite, require_club, SqliteStore};
use crate::store::disputes::{
    check_open, check_ruling, DisputeEntryRow, DisputeFilter, DisputeRow, DisputeStore,
    OfficialRow, Revocation, RulingAppend, DISPUTE_COLS, ENTRY_COLS, OFFICIAL_COLS,
    OFFICIAL_SELECT, REVOCATION_COLS,
};
use crate::store::{page_limit, IdemRow, StoreError};

fn official_row(r: &Row<'_>) -> rusqlite::Result<OfficialRow> {
    Ok(OfficialRow {
        club_id: r.get(0)?,
        key_id: r.get(1)?,
        name: r.get(2)?,
        public_key: r.get(3)?,
        registered_ms: r.get(4)?,
        registered_by: r.get(5)?,
        revoked: match r.get::<_, Option<i64>>(6)? {
            Some(revoked_ms) => Some(Revocation {
                revoked_ms,
                revoked_by: r.get(7)?,
                reason: r.get(8)?,
            }),
            None => None,
        },
    })
}

fn dispute_row(r: &Row<'_>) -> rusqlite::Result<DisputeRow> {
    Ok(DisputeRow {
        club_id: r.get(0)?,
        dispute_id: r.get(1)?,
        hand_id: r.get(2)?,
        table_id: r.get(3)?,
        event: r.get(4)?,
        kind: r.get(5)?,
        claim: r.get(6)?,
        status: r.get(7)?,
        opened_role: r.get(8)?,
        opened_by: r.get(9)?,
        opened_ms: r.get(10)?,
        updated_ms: r.get(11)?,
        entries: r.get(12)?,
        head: r.get(13)?,
    })
}

/// An entry row as read, its record still text.
fn raw_entry(r: &Row<'_>) -> rusqlite::Result<(DisputeEntryRow, String)> {
    Ok((
        DisputeEntryRow {
            club_id: r.get(0)?,
            dispute_id: r.get(1)?,
            seq: r.get(2)?,
            kind: r.get(3)?,
            hash: r.get(4)?,
            prev_hash: r.get(5)?,
            record: serde_json::Value::Null,
            created_ms: r.get(7)?,
        },
        r.get(6)?,
    ))
}

/// A write's error: its own unique and foreign key violations named, the rest mapped.
fn write_error(e: rusqlite::Error) -> StoreError {
    if let rusqlite::Error::SqliteFailure(f, Some(msg)) = &e {
        if f.code == ErrorCode::ConstraintViolation {
            match msg.strip_prefix("UNIQUE constraint failed: ") {
                Some("officials.club_id, officials.key_id") => {
                    return StoreError::Duplicate("official")
                }
                Some("official_revocations.club_id, official_revocations.key_id") => {
                    return StoreError::Duplicate("revocation")
                }
                Some("disputes.club_id, disputes.dispute_id") => {
                    return StoreError::Duplicate("dispute")
                }
                Some(cols) if cols.starts_with("dispute_entries.") => {
                    return StoreError::Conflict {
                        expected: 0,
                        found: 1,
                    }
                }
                _ => {}
            }
        }
    }
    map_sqlite(e)
}

fn require(
    tx: &Connection,
    sql: &str,
    a: &str,
    b: &str,
    what: &'static str,
) -> Result<(), StoreError> {
    let found = tx
        .prepare_cached(sql)
        .and_then(|mut s| s.exists(params![a, b]))
        .map_err(map_sqlite)?;
    if found {
        Ok(())
    } else {
        Err(StoreError::NotFound(what))
    }
}

fn insert_entry(tx: &Connection, e: &DisputeEntryRow) -> Result<(), StoreError> {
    let record = json(&e.record)?;
    tx.prepare_cached(&format!(
        "INSERT INTO dispute_entries ({ENTRY_COLS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)"
    ))
    .and_then(|mut s| {
        s.execute(params![
            e.club_id,
            e.dispute_id,
            e.seq,
            e.kind,
            e.hash,
            e.prev_hash,
            record,
            e.created_ms
        ])
    })
    .map_err(write_error)?;
    Ok(())
}

#[async_trait]
impl DisputeStore for SqliteStore {
    async fn add_official(
        &self,
        o: &OfficialRow,
        idem: Option<&IdemRow>,
    ) -> Result<(), StoreError> {
        check_idem(&o.club_id, idem)?;
        let (o, idem) = (o.clone(), idem.cloned());
        self.write(move |tx| {
            if let Some(idem) = &idem {
                insert_idem(tx, idem)?;
            }
            require_club(tx, &o.club_id)?;
            tx.prepare_cached(&format!(
                "INSERT INTO officials ({OFFICIAL_COLS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6)"
            ))
            .and_then(|mut s| {
                s.execute(params![
                    o.club_id,
                    o.key_id,
                    o.name,
                    o.public_key,
                    o.registered_ms,
                    o.registered_by
                ])
            })
            .map_err(write_error)?;
            Ok(())
        })
        .await
    }

    async fn get_official(
        &self,
        club_id: &str,
        key_id: &str,
    ) -> Result<Option<OfficialRow>, StoreError> {
        let (club_id, key_id) = (club_id.to_owned(), key_id.to_owned());
        self.run(move |conn| {
            conn.prepare_cached(&format!(
                "{OFFICIAL_SELECT} WHERE o.club_id = ?1 AND o.key_id = ?2"
            ))
            .and_then(|mut s| {
                s.query_row(params![club_id, key_id], official_row)
                    .optional()
            })
            .map_err(map_sqlite)
        })
        .await
    }

    async fn list_officials(&self, club_id: &str) -> Result<Vec<OfficialRow>, StoreError> {
        let club_id = club_id.to_owned();
        self.run(move |conn| {
            conn.prepare_cached(&format!(
                "{OFFICIAL_SELECT} WHERE o.club_id = ?1 ORDER BY o.registered_ms, o.key_id"
            ))
            .and_then(|mut s| {
                s.query_map(params![club_id], official_row)?
                    .collect::<rusqlite::Result<Vec<_>>>()
            })
            .map_err(map_sqlite)
        })
        .await
    }

    async fn revoke_official(
        &self,
        club_id: &str,
        key_id: &str,
        rev: &Revocation,
        idem: Option<&IdemRow>,
    ) -> Result<(), StoreError> {
        check_idem(club_id, idem)?;
        let (club_id, key_id, rev, idem) = (
            club_id.to_owned(),
            key_id.to_owned(),
            rev.clone(),
            idem.cloned(),
        );
        self.write(move |tx| {
            if let Some(idem) = &idem {
                insert_idem(tx, idem)?;
            }
            let known = tx
                .prepare_cached("SELECT 1 FROM officials WHERE club_id = ?1 AND key_id = ?2")
                .and_then(|mut s| s.query_row(params![club_id, key_id], |_| Ok(())).optional())
                .map_err(map_sqlite)?;
            if known.is_none() {
                return Err(StoreError::NotFound("official"));
            }
            tx.prepare_cached(&format!(
                "INSERT INTO official_revocations ({REVOCATION_COLS}) VALUES (?1, ?2, ?3, ?4, ?5)"
            ))
            .and_then(|mut s| {
                s.execute(params![
                    club_id,
                    key_id,
                    rev.revoked_ms,
                    rev.revoked_by,
                    rev.reason
                ])
            })
            .map_err(write_error)?;
            Ok(())
        })
        .await
    }

    async fn open_dispute(
        &self,
        d: &DisputeRow,
        entry: &DisputeEntryRow,
        idem: Option<&IdemRow>,
    ) -> Result<(), StoreError> {
        check_open(d, entry, idem)?;
        let (d, entry, idem) = (d.clone(), entry.clone(), idem.cloned());
        self.write(move |tx| {
            if let Some(idem) = &idem {
                insert_idem(tx, idem)?;
            }
            require(
                tx,
                "SELECT 1 FROM hands WHERE club_id = ?1 AND hand_id = ?2",
                &d.club_id,
                &d.hand_id,
                "hand",
            )?;
            tx.prepare_cached(&format!(
                "INSERT INTO disputes ({DISPUTE_COLS}) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)"
            ))
            .and_then(|mut s| {
                s.execute(params![
                    d.club_id,
                    d.dispute_id,
                    d.hand_id,
                    d.table_id,
                    d.event,
                    d.kind,
                    d.claim,
                    d.status,
                    d.opened_role,
                    d.opened_by,
                    d.opened_ms,
                    d.updated_ms,
                    d.entries,
                    d.head
                ])
            })
            .map_err(write_error)?;
            insert_entry(tx, &entry)
        })
        .await
    }

    async fn append_ruling(&self, r: &RulingAppend) -> Result<(), StoreError> {
        check_ruling(r)?;
        let r = r.clone();
        self.write(move |tx| {
            if let Some(idem) = &r.idem {
                insert_idem(tx, idem)?;
            }
            let found: Option<i64> = tx
                .prepare_cached(
                    "SELECT entries FROM disputes WHERE club_id = ?1 AND dispute_id = ?2",
                )
                .and_then(|mut s| {
                    s.query_row(params![r.club_id, r.dispute_id], |row| row.get(0))
                        .optional()
                })
                .map_err(map_sqlite)?;
            match found {
                None => return Err(StoreError::NotFound("dispute")),
                Some(n) if n != r.expected_entries => {
                    return Err(StoreError::Conflict {
                        expected: r.expected_entries,
                        found: n,
                    })
                }
                Some(_) => {}
            }
            tx.prepare_cached(
                "UPDATE disputes SET status = ?3, entries = entries + 1, head = ?4, \
                 updated_ms = ?5 WHERE club_id = ?1 AND dispute_id = ?2",
            )
            .and_then(|mut s| {
                s.execute(params![
                    r.club_id,
                    r.dispute_id,
                    r.status,
                    r.entry.hash,
                    r.entry.created_ms
                ])
            })
            .map_err(map_sqlite)?;
            insert_entry(tx, &r.entry)
        })
        .await
    }

    async fn get_dispute(
        &self,
        club_id: &str,
        dispute_id: &str,
    ) -> Result<Option<DisputeRow>, StoreError> {
        let (club_id, dispute_id) = (club_id.to_owned(), dispute_id.to_owned());
        self.run(move |conn| {
            conn.prepare_cached(&format!(
                "SELECT {DISPUTE_COLS} FROM disputes WHERE club_id = ?1 AND dispute_id = ?2"
            ))
            .and_then(|mut s| {
                s.query_row(params![club_id, dispute_id], dispute_row)
                    .optional()
            })
            .map_err(map_sqlite)
        })
        .await
    }

    async fn list_dispute_entries(
        &self,
        club_id: &str,
        dispute_id: &str,
    ) -> Result<Vec<DisputeEntryRow>, StoreError> {
        let (club_id, dispute_id) = (club_id.to_owned(), dispute_id.to_owned());
        self.run(move |conn| {
            let raws = conn
                .prepare_cached(&format!(
                    "SELECT {ENTRY_COLS} FROM dispute_entries WHERE club_id = ?1 AND \
                     dispute_id = ?2 ORDER BY seq"
                ))
                .and_then(|mut s| {
                    s.query_map(params![club_id, dispute_id], raw_entry)?
                        .collect::<rusqlite::Result<Vec<_>>>()
                })
                .map_err(map_sqlite)?;
            raws.into_iter()
                .map(|(mut row, text)| {
                    row.record = serde_json::from_str(&text)?;
                    Ok(row)
                })
                .collect()
        })
        .await
    }

    async fn list_disputes(
        &self,
        club_id: &str,
        f: &DisputeFilter,
    ) -> Result<Vec<DisputeRow>, StoreError> {
        let mut sql = format!("SELECT {DISPUTE_COLS} FROM disputes WHERE club_id = ?1");
        let mut args = vec![SqlValue::from(club_id.to_owned())];
        let mut bind = |clause: &str, v: SqlValue| {
            args.push(v);
            sql.push_str(&clause.replace("??", &format!("?{}", args.len())));
        };
        for (col, v) in [
            ("status", &f.status),
            ("kind", &f.kind),
            ("hand_id", &f.hand_id),
            ("table_id", &f.table_id),
            ("opened_by", &f.opened_by),
        ] {
            if let Some(v) = v {
                bind(&format!(" AND {col} = ??"), v.clone().into());
            }
        }
        if let Some((ms, id)) = &f.cursor {
            bind(" AND (opened_ms, dispute_id) < (??", (*ms).into());
            bind(", ??)", id.clone().into());
        }
        bind(
            " ORDER BY opened_ms DESC, dispute_id DESC LIMIT ??",
            page_limit(f.limit).into(),
        );
        self.run(move |conn| {
            conn.prepare_cached(&sql)
                .and_then(|mut s| {
                    s.query_map(params_from_iter(&args), dispute_row)?
                        .collect::<rusqlite::Result<Vec<_>>>()
                })
                .map_err(map_sqlite)
        })
        .await
    }
}
