//! A dispute's row is a projection of its signed record (docs/DISPUTES.md): the hand, table,
//! event, kind, claim and opener that entry 0 records, the status the latest ruling gives,
//! how many entries there are and the hash of the last. A read checks the row against the
//! record before it shows, lists or reports either, and answers `409 record_damaged` naming
//! the row and what the record says when they differ: never an edited status, claim or
//! hand served as fact. `audit-service audit` makes the same check of every dispute.

use replayer::dispute::{EntryBody, EntryRecord};

use crate::api::errors::ApiError;
use crate::store::DisputeRow;

/// One difference between a dispute's stored rows and its signed record.
#[derive(Clone, Debug, PartialEq)]
pub struct Difference {
    /// The database table: `disputes` or `dispute_entries`.
    pub table: &'static str,
    /// The row's key.
    pub row: String,
    /// What the signed record says.
    pub expected: String,
}

impl Difference {
    /// As a `409 record_damaged`.
    pub fn error(&self) -> ApiError {
        ApiError::record_damaged(self.table, self.row.clone(), self.expected.clone())
    }
}

fn row_key(row: &DisputeRow) -> String {
    format!(
        "(club_id, dispute_id) = ({}, {})",
        row.club_id, row.dispute_id
    )
}

/// Every difference between `row` and its signed `record` (read in `seq` order), first
/// the entries' own (each of this club, dispute and hand, numbered from 0), then the row's
/// columns.
pub fn differences(row: &DisputeRow, record: &[EntryRecord]) -> Vec<Difference> {
    let mut out = Vec::new();
    let key = row_key(row);
    let mut col = |expected: String| {
        out.push(Difference {
            table: "disputes",
            row: key.clone(),
            expected,
        })
    };
    let Some(first) = record.first() else {
        col("an opening entry 0 in dispute_entries: the dispute has none".into());
        return out;
    };
    // The row's columns, as entry 0 records them.
    if first.entry.hand != row.hand_id {
        col(format!(
            "hand_id {}, as entry 0 records it",
            first.entry.hand
        ));
    }
    if let EntryBody::Opened {
        table,
        event,
        kind,
        claim,
        opened_by,
        ..
    } = &first.entry.body
    {
        if *table != row.table_id {
            col(format!("table_id {table}, as entry 0 records it"));
        }
        if event.map(|e| i64::try_from(e).unwrap_or(i64::MAX)) != row.event {
            col(format!(
                "event {}, as entry 0 records it",
                event.map_or_else(|| "null".to_string(), |e| e.to_string())
            ));
        }
        if kind.as_str() != row.kind {
            col(format!("kind {}, as entry 0 records it", kind.as_str()));
        }
        if *claim != row.claim {
            col(format!(
                "claim {:?}, as entry 0 records it",
                claim.chars().take(200).collect::<String>()
            ));
        }
        if opened_by.role != row.opened_role || opened_by.id != row.opened_by {
            col(format!(
                "opened_role {} and opened_by {}, as entry 0 records them",
                opened_by.role, opened_by.id
            ));
        }
    } else {
        col(format!(
            "an opening entry 0, not a {}",
            first.entry.body.kind()
        ));
    }
    if i64::try_from(first.entry.time_ms).ok() != Some(row.opened_ms) {
        col(format!(
            "opened_ms {}, as entry 0 records it",
            first.entry.time_ms
        ));
    }
    // The entries the row counts must all be there, and no more.
    let n = i64::try_from(record.len()).unwrap_or(i64::MAX);
    if n < row.entries {
        out.push(Difference {
            table: "dispute_entries",
            row: format!(
                "(club_id, dispute_id, seq) = ({}, {}, {n})",
                row.club_id, row.dispute_id
            ),
            expected: format!(
                "entry {n}: the dispute's row counts {} entries (head {}), its record holds {n}",
                row.entries, row.head
            ),
        });
        return out;
    }
    let Some(last) = record.last() else {
        return out;
    };
    let mut col = |expected: String| {
        out.push(Difference {
            table: "disputes",
            row: key.clone(),
            expected,
        })
    };
    if n != row.entries || last.hash.to_hex() != row.head {
        col(format!(
            "entries {n} and head {}, as its signed record ends",
            last.hash.to_hex()
        ));
    }
    let status = record
        .iter()
        .rev()
        .find_map(|r| match &r.entry.body {
            EntryBody::Ruling { decision, .. } => Some(decision.as_str()),
            EntryBody::Opened { .. } => None,
        })
        .unwrap_or("open");
    if status != row.status {
        col(format!(
            "status {status}, as its latest signed ruling (or, without one, its opening) gives"
        ));
    }
    if i64::try_from(last.entry.time_ms).ok() != Some(row.updated_ms) {
        col(format!(
            "updated_ms {}, as its last entry records it",
            last.entry.time_ms
        ));
    }
    // Every entry in place and of this dispute.
    for (i, r) in record.iter().enumerate() {
        let e = &r.entry;
        let i64_i = i64::try_from(i).unwrap_or(i64::MAX);
        if e.seq != u64::try_from(i).unwrap_or(u64::MAX)
            || e.club != row.club_id
            || e.dispute != row.dispute_id
            || e.hand != first.entry.hand
        {
            out.push(Difference {
                table: "dispute_entries",
                row: format!(
                    "(club_id, dispute_id, seq) = ({}, {}, {i64_i})",
                    row.club_id, row.dispute_id
                ),
                expected: format!(
                    "entry {i} of club {}, dispute {}, hand {}",
                    row.club_id, row.dispute_id, first.entry.hand
                ),
            });
            break;
        }
    }
    out
}

/// The first difference as a `409 record_damaged`, if any.
pub fn check(row: &DisputeRow, record: &[EntryRecord]) -> Result<(), ApiError> {
    match differences(row, record).first() {
        Some(d) => Err(d.error()),
        None => Ok(()),
    }
}
