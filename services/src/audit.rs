//! `audit-service audit --club ID`: re-verifies a club from the store. Every finished hand
//! must verify as a bundle against the service's own keys, every table's finished hands
//! must chain as a match, every hand in progress must chain so far (hashes, signatures,
//! links), and every stored projection (a hand row's status and outcome, a table's match
//! state) must equal what the signed log says. Each difference is a [`Finding`].
//!
//! A running hand must also rebuild from the store as the service rebuilds it (its sealed
//! seeds unsealed and checked against their commitments, every event folded): a damaged
//! hand that nobody quarantined is a finding. A quarantined hand is listed apart
//! ([`Report::quarantined`]), not as a finding: its quarantine is known and recorded
//! (who, when, why, where its log failed), and the match goes on without it, which the
//! match check verifies. Listing it keeps it in front of the auditor; counting it as a
//! problem again at every audit would bury new findings. A quarantined hand whose log
//! verifies after all is a finding: nothing the service does quarantines a healthy hand,
//! so its row was edited (or its log mended) behind the service's back.
//!
//! Findings never quote an event body of a hand in progress, a seed still sealed, a
//! token or a key secret: only ids, rule names and public match states.

mod clublog;
mod clublog_records;
mod records;

use std::collections::HashSet;

use replayer::engine::GameId;
use replayer::games::registry;
use replayer::log::{hash_event, signature_message, Body, Hash, Record};
use replayer::matches::verify_match_value;
use replayer::verify::{verify_value, Options};
use serde::Serialize;
use serde_json::Value;

use crate::api::errors::{ApiError, Code};
use crate::store::{HandRow, HandStatus, StoreError, TableRow};
use crate::Service;

/// What kind of problem a finding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// A stored projection (a hand row, a table's match state) differs from the log.
    Mismatch,
    /// A table's hands do not chain as one match.
    Broken,
    /// A hand's own log does not verify.
    Invalid,
    /// The club's transparency log and the store disagree (docs/TRANSPARENCY.md §10).
    Log,
}

impl Kind {
    /// `MISMATCH`, `BROKEN` or `INVALID`, for the text output.
    pub fn label(self) -> &'static str {
        match self {
            Kind::Mismatch => "MISMATCH",
            Kind::Broken => "BROKEN",
            Kind::Invalid => "INVALID",
            Kind::Log => "LOG",
        }
    }
}

/// One problem found.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Finding {
    /// The table.
    pub table: String,
    /// The hand, when the problem is one hand's.
    pub hand: Option<String>,
    /// Its number in the table's match, when known.
    #[serde(skip)]
    pub hand_no: Option<i64>,
    /// What kind of problem.
    pub kind: Kind,
    /// What is wrong.
    pub detail: String,
}

impl std::fmt::Display for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} table {}", self.kind.label(), self.table)?;
        if let Some(h) = &self.hand {
            write!(f, " hand {h}")?;
            if let Some(n) = self.hand_no {
                write!(f, " (hand {n})")?;
            }
        }
        write!(f, ": {}", self.detail)
    }
}

/// A quarantined hand, as its row records it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Quarantined {
    /// The table.
    pub table: String,
    /// The hand.
    pub hand: String,
    /// Its number in the table's match.
    pub hand_no: i64,
    /// Why, as the club admin gave it.
    pub reason: String,
    /// When (unix ms).
    pub quarantined_ms: i64,
    /// The admin key that quarantined it.
    pub by: String,
    /// The event at which its log failed verification then.
    pub seq: i64,
    /// The check that failed there.
    pub rule: String,
}

impl std::fmt::Display for Quarantined {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "QUARANTINED table {} hand {} (hand {}): its log failed at event {} ({}); \
             quarantined by {} at {} ms: {}",
            self.table,
            self.hand,
            self.hand_no,
            self.seq,
            self.rule,
            self.by,
            self.quarantined_ms,
            self.reason
        )
    }
}

/// The audit of one club.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// The club.
    pub club: String,
    /// How many tables were audited.
    pub tables: usize,
    /// How many hands (finished, in progress or quarantined).
    pub hands: usize,
    /// Every problem found.
    pub problems: Vec<Finding>,
    /// The quarantined hands: listed, not problems (see the module's documentation).
    pub quarantined: Vec<Quarantined>,
}

impl Report {
    /// The closing line of the text output.
    pub fn summary(&self) -> String {
        let mut line = format!(
            "audited {} tables, {} hands: {} problems",
            self.tables,
            self.hands,
            self.problems.len()
        );
        if !self.quarantined.is_empty() {
            line.push_str(&format!(", {} quarantined", self.quarantined.len()));
        }
        line
    }
}

/// Why the audit could not run.
#[derive(Debug, thiserror::Error)]
pub enum AuditError {
    /// The store holds no such club.
    #[error("no club {0:?} in this store")]
    NoSuchClub(String),
    /// The store failed.
    #[error("the store could not be read: {0}")]
    Store(String),
}

impl From<StoreError> for AuditError {
    fn from(e: StoreError) -> Self {
        AuditError::Store(e.to_string())
    }
}

/// An error of the shared hand readers: the store being down stops the audit; anything
/// else is the hand's own problem, `None`.
fn fatal(e: &ApiError) -> Option<AuditError> {
    (e.code == Code::Unavailable).then(|| AuditError::Store(e.detail.clone()))
}

/// Audits every table, hand and match of a club.
pub async fn audit_club(svc: &Service, club: &str) -> Result<Report, AuditError> {
    if !crate::plausible_id(club) || svc.store.get_club(club).await?.is_none() {
        return Err(AuditError::NoSuchClub(club.chars().take(128).collect()));
    }
    let opts = Options {
        trusted_keys: svc.keys.public_keys(),
    };
    let mut report = Report {
        club: club.to_string(),
        tables: 0,
        hands: 0,
        problems: Vec::new(),
        quarantined: Vec::new(),
    };
    let mut tables = svc.store.list_tables(club).await?;
    tables.sort_by(|a, b| (a.created_ms, &a.table_id).cmp(&(b.created_ms, &b.table_id)));
    for table in &tables {
        audit_table(svc, table, &opts, &mut report).await?;
    }
    report.problems.extend(records::disputes(svc, club).await?);
    report
        .problems
        .extend(records::idempotency(svc, club).await?);
    clublog::audit_log(svc, club, &mut report).await?;
    clublog_records::audit_log_records(svc, club, &mut report).await?;
    Ok(report)
}

/// The hand's status as its events say.
fn log_status(records: &[Record]) -> HandStatus {
    for r in records {
        match r.event.body {
            Body::HandEnded { .. } => return HandStatus::Completed,
            Body::Abandoned { .. } => return HandStatus::Abandoned,
            _ => {}
        }
    }
    HandStatus::InProgress
}

fn log_outcome(records: &[Record]) -> Option<&Value> {
    records.iter().find_map(|r| match &r.event.body {
        Body::HandEnded { outcome, .. } => Some(outcome),
        _ => None,
    })
}

fn started_from(records: &[Record]) -> Option<&Value> {
    match records.first().map(|r| &r.event.body) {
        Some(Body::HandStarted { match_state, .. }) => Some(match_state),
        _ => None,
    }
}

/// The match state a finished hand leaves, per its log: its `hand_ended.next_match`, or
/// for an abandoned hand the state it started from.
fn leaves(records: &[Record], status: HandStatus) -> Option<&Value> {
    match status {
        HandStatus::Completed => records.iter().find_map(|r| match &r.event.body {
            Body::HandEnded { next_match, .. } => Some(next_match),
            _ => None,
        }),
        _ => started_from(records),
    }
}

/// The first break in a hand's stream so far: each event in sequence, of this hand,
/// linked to the one before, hashed over itself and signed by one of the service's keys;
/// the first a `hand_started`. Never quotes an event.
fn chain_break(svc: &Service, hand_id: &str, records: &[Record]) -> Option<String> {
    if records.is_empty() {
        return Some("the hand has no events".into());
    }
    let mut prev = Hash::ZERO;
    for (i, r) in records.iter().enumerate() {
        let e = &r.event;
        if e.seq != u64::try_from(i).unwrap_or(u64::MAX) {
            return Some(format!("event {i}: seq {} out of order", e.seq));
        }
        if e.hand != hand_id {
            return Some(format!("event {i}: belongs to another hand"));
        }
        if e.prev != prev {
            return Some(format!(
                "event {i}: prev {} does not link to the event before ({})",
                e.prev.to_hex(),
                prev.to_hex()
            ));
        }
        match hash_event(e) {
            Ok(h) if h == r.hash => {}
            Ok(h) => {
                return Some(format!(
                    "event {i}: hash: expected {}, found {}",
                    h.to_hex(),
                    r.hash.to_hex()
                ))
            }
            Err(err) => return Some(format!("event {i}: cannot be hashed: {err}")),
        }
        match svc.keys.public(&r.signer) {
            None => {
                return Some(format!(
                    "event {i}: signer {} is not one of the service's keys",
                    r.signer
                ))
            }
            Some(k) if !k.verify(&signature_message(&r.hash), &r.sig) => {
                return Some(format!("event {i}: signature does not verify"))
            }
            Some(_) => {}
        }
        if i == 0 && !matches!(e.body, Body::HandStarted { .. }) {
            return Some(format!(
                "event 0: hand_started: expected hand_started, found {}",
                e.body.kind()
            ));
        }
        prev = r.hash;
    }
    None
}

fn compact(v: &Value) -> String {
    serde_json::to_string(v).unwrap_or_else(|_| "?".into())
}

async fn audit_table(
    svc: &Service,
    table: &TableRow,
    opts: &Options,
    report: &mut Report,
) -> Result<(), AuditError> {
    let t = table.table_id.clone();
    let mut found: Vec<Finding> = Vec::new();
    let mut add = |hand: Option<&HandRow>, kind: Kind, detail: String| {
        found.push(Finding {
            table: t.clone(),
            hand: hand.map(|h| h.hand_id.clone()),
            hand_no: hand.map(|h| h.hand_no),
            kind,
            detail,
        });
    };
    let hands = crate::hands::table_hands(svc, table)
        .await
        .map_err(|e| AuditError::Store(e.detail))?;
    report.tables += 1;
    report.hands += hands.len();

    // Hands whose own log fails: the match check does not name them again.
    let mut invalid: HashSet<String> = HashSet::new();
    // The match state the last finished hand leaves, per the log.
    let mut last_finished: Option<(&HandRow, i64, Option<Value>)> = None;
    // The state a hand in progress started from, per the log.
    let mut running_from: Option<(&HandRow, Value)> = None;
    // Stored rows checked against the signed records (`records`), and each hand's signed
    // hand_started, for the table's own rows.
    let mut rows_found: Vec<Finding> = Vec::new();
    let mut starts: Vec<(&HandRow, Record)> = Vec::new();

    for row in &hands {
        if let (HandStatus::Quarantined, Some(q)) = (row.status, &row.quarantine) {
            report.quarantined.push(Quarantined {
                table: t.clone(),
                hand: row.hand_id.clone(),
                hand_no: row.hand_no,
                reason: q.reason.clone(),
                quarantined_ms: q.quarantined_ms,
                by: q.by.clone(),
                seq: q.seq,
                rule: q.rule.clone(),
            });
            match crate::hands::damage_of(svc, row).await {
                Ok(Some(_)) => {}
                Ok(None) => add(
                    Some(row),
                    Kind::Mismatch,
                    "quarantined, but its stored log verifies: the service quarantines only \
                     a hand whose log fails verification"
                        .into(),
                ),
                Err(e) => {
                    if let Some(f) = fatal(&e) {
                        return Err(f);
                    }
                }
            }
            continue;
        }
        let records = match crate::hands::records(
            crate::hands::reads_of(svc, row),
            &row.club_id,
            &row.hand_id,
            None,
        )
        .await
        {
            Ok(r) => r,
            Err(e) => {
                if let Some(f) = fatal(&e) {
                    return Err(f);
                }
                invalid.insert(row.hand_id.clone());
                add(
                    Some(row),
                    Kind::Invalid,
                    "its stored events do not read as signed records".into(),
                );
                continue;
            }
        };
        if let Some(first) = records::sealed_start(svc, &records) {
            rows_found.extend(records::hand_rows(svc, row, first).await?);
            starts.push((row, first.clone()));
        }
        let status = log_status(&records);
        let broken = chain_break(svc, &row.hand_id, &records);
        // The hand's number in the match as its log says (the stored one is a projection).
        let mut log_no = row.hand_no;
        if let Some(Body::HandStarted {
            table,
            hand_no,
            game,
            ..
        }) = records.first().map(|r| &r.event.body)
        {
            log_no = i64::try_from(*hand_no).unwrap_or(-1);
            let stored = (row.table_id.as_str(), row.hand_no, row.game.as_str());
            let logged = (table.as_str(), log_no, game.as_str());
            if stored != logged {
                add(
                    Some(row),
                    Kind::Mismatch,
                    format!(
                        "stored table, hand_no, game ({}, {}, {}) differ from the log's hand_started ({}, {}, {})",
                        stored.0, stored.1, stored.2, logged.0, logged.1, logged.2
                    ),
                );
            }
        }
        if row.status == HandStatus::InProgress {
            if status != HandStatus::InProgress {
                add(
                    Some(row),
                    Kind::Mismatch,
                    format!(
                        "stored status in_progress differs from the log's ({})",
                        status.as_str()
                    ),
                );
            }
            if let Some(b) = broken {
                add(Some(row), Kind::Invalid, b);
                continue;
            }
            // Rebuilt as the service rebuilds it: sealed seeds, their commitments, the fold.
            match crate::hands::damage_of(svc, row).await {
                Ok(None) => {
                    if let Some(m) = started_from(&records) {
                        running_from = Some((row, m.clone()));
                    }
                }
                Ok(Some(d)) => add(
                    Some(row),
                    Kind::Invalid,
                    format!(
                        "event {}: {}: the hand does not rebuild from the store (damaged: the \
                         club admin may quarantine it)",
                        d.seq, d.rule
                    ),
                ),
                Err(e) => {
                    if let Some(f) = fatal(&e) {
                        return Err(f);
                    }
                    add(Some(row), Kind::Invalid, e.detail);
                }
            }
            continue;
        }

        // A finished hand: its projections, then its bundle.
        if status != row.status {
            add(
                Some(row),
                Kind::Mismatch,
                format!(
                    "stored status {} differs from the log's ({})",
                    row.status.as_str(),
                    status.as_str()
                ),
            );
        }
        if row.outcome.as_ref() != log_outcome(&records) {
            add(
                Some(row),
                Kind::Mismatch,
                "stored outcome differs from the log's hand_ended".into(),
            );
        }
        let log_reason = records.iter().find_map(|r| match &r.event.body {
            Body::Abandoned { reason } => Some(reason.as_str()),
            _ => None,
        });
        if row.abandon_reason.as_deref() != log_reason {
            add(
                Some(row),
                Kind::Mismatch,
                "stored abandon_reason differs from the log's abandoned event".into(),
            );
        }
        if last_finished.as_ref().is_none_or(|(_, n, _)| *n < log_no) {
            last_finished = Some((row, log_no, leaves(&records, status).cloned()));
        }
        if let Some(b) = broken {
            invalid.insert(row.hand_id.clone());
            add(Some(row), Kind::Invalid, b);
            continue;
        }
        let verdict = match crate::hands::bundle_of(svc, row).await {
            Ok(bundle) => serde_json::to_value(&bundle)
                .map_err(|e| e.to_string())
                .and_then(|v| verify_value(v, opts).map_err(|e| e.to_string())),
            Err(e) => {
                if let Some(f) = fatal(&e) {
                    return Err(f);
                }
                Err(e.detail)
            }
        };
        match verdict {
            Ok(v) if v.valid => {}
            Ok(v) => {
                invalid.insert(row.hand_id.clone());
                let detail = v
                    .problem
                    .map_or_else(|| "does not verify".to_string(), |p| p.to_string());
                add(Some(row), Kind::Invalid, detail);
            }
            Err(e) => {
                invalid.insert(row.hand_id.clone());
                add(Some(row), Kind::Invalid, format!("bundle: {e}"));
            }
        }
    }

    // The table's rows against its hands' signed starts.
    let by_no: Vec<(&HandRow, &Record)> = starts.iter().map(|(h, r)| (*h, r)).collect();
    if let Some((h, first)) = by_no.iter().max_by_key(|(h, _)| h.hand_no) {
        rows_found.extend(records::table_row(table, h, first));
    }
    rows_found.extend(records::seed_chains(svc, table, &by_no).await?);
    found.extend(rows_found);

    // The match: every finished hand, chained.
    if last_finished.is_some() {
        let verdict = match crate::hands::match_file_of(svc, table).await {
            Ok(file) => Some(
                serde_json::to_value(&file)
                    .map_err(|e| e.to_string())
                    .and_then(|v| verify_match_value(v, opts).map_err(|e| e.to_string())),
            ),
            Err(e) => {
                if let Some(f) = fatal(&e) {
                    return Err(f);
                }
                // Only a hand whose bundle cannot be built stops the match file: when a
                // hand was named invalid above, the match adds nothing.
                invalid
                    .is_empty()
                    .then(|| Err(format!("the match file could not be built: {}", e.detail)))
            }
        };
        match verdict {
            None => {}
            Some(Ok(v)) if v.valid => {}
            Some(Ok(v)) => match v.problem {
                Some(p) if p.rule == "hand" && invalid.contains(&p.hand) => {}
                Some(p) => {
                    let row = hands.iter().find(|h| h.hand_id == p.hand);
                    found.push(Finding {
                        table: table.table_id.clone(),
                        hand: Some(p.hand.clone()),
                        hand_no: row.map(|h| h.hand_no),
                        kind: Kind::Broken,
                        detail: format!("match: {p}"),
                    });
                }
                None => found.push(Finding {
                    table: table.table_id.clone(),
                    hand: None,
                    hand_no: None,
                    kind: Kind::Broken,
                    detail: "match: does not verify".into(),
                }),
            },
            Some(Err(e)) => found.push(Finding {
                table: table.table_id.clone(),
                hand: None,
                hand_no: None,
                kind: Kind::Broken,
                detail: format!("match: {e}"),
            }),
        }
    }

    // The table's stored match state.
    let mismatch = |detail: String| Finding {
        table: table.table_id.clone(),
        hand: None,
        hand_no: None,
        kind: Kind::Mismatch,
        detail,
    };
    match (&last_finished, &running_from) {
        (Some((h, n, Some(state))), _) => {
            if *state != table.match_state {
                found.push(mismatch(format!(
                    "stored match_state differs from the log's after hand {} ({}): expected {}, found {}",
                    n,
                    h.hand_id,
                    compact(state),
                    compact(&table.match_state)
                )));
            }
        }
        (Some((h, n, None)), _) => found.push(mismatch(format!(
            "match_state: hand {} ({}) leaves no match state in its log",
            n, h.hand_id
        ))),
        (None, running) => {
            if let Err(e) = valid_state(table) {
                found.push(mismatch(format!("stored match_state is not valid: {e}")));
            }
            if let Some((h, state)) = running {
                if *state != table.match_state {
                    found.push(mismatch(format!(
                        "stored match_state differs from the one hand {} ({}) started from: expected {}, found {}",
                        h.hand_no,
                        h.hand_id,
                        compact(state),
                        compact(&table.match_state)
                    )));
                }
            }
        }
    }
    report.problems.extend(found);
    Ok(())
}

/// Whether a table's stored match state is one of its game's, for its seats.
fn valid_state(table: &TableRow) -> Result<(), String> {
    let game: GameId = table.game.parse().map_err(|e| format!("{e}"))?;
    let engine = registry(game).map_err(|e| e.to_string())?;
    let n = engine
        .seat_count(&table.match_state)
        .map_err(|e| e.to_string())?;
    if usize::from(n) != table.seats.len() {
        return Err(format!(
            "a match of {n} seats at a table of {}",
            table.seats.len()
        ));
    }
    Ok(())
}
