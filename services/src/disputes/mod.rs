//! Disputes over finished hands (docs/DISPUTES.md): a player of the hand, the club admin or
//! an auditor opens one on a hand (or one of its events) with a claim of a kind; the
//! service attaches its findings at once ([`findings`]) and records the dispute as a signed,
//! hash-chained record (`replayer::dispute`); a club official rules on it, signing the
//! ruling with their own key ([`rulings`]); anyone who may read the dispute reads it, its
//! history and a report in English or Persian ([`report`]).
//!
//! Who may do what: a seat token opens disputes on hands of its table in which its seat's
//! player sat, and sees only the disputes it opened; the admin sees every dispute of the
//! club and records rulings; an auditor opens, lists and reads every dispute of the club
//! but does not rule. Another club's dispute, or one a seat did not open, is `404`.

pub mod carry;
pub mod findings;
pub mod projection;
pub mod report;
pub mod rulings;

use actix_web::http::StatusCode;
use replayer::dispute::{
    seal_entry, verify_record, DisputeKind, Entry, EntryBody, EntryRecord, Opener,
    DISPUTE_FORMAT_VERSION,
};
use replayer::log::Hash;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};

use crate::api::errors::{ApiError, ApiResult, Code};
use crate::auth::{random_id, Caller, Role};
use crate::idempotency::{IdemCtx, Reply};
use crate::store::{
    DisputeEntryRow, DisputeFilter, DisputeRow, HandRow, HandStatus, StoreError, TableRow,
};
use crate::{now_ms, Service};

/// Longest claim, in characters.
pub const MAX_CLAIM: usize = 2000;
/// Default page of `GET /v1/disputes`.
pub const DEFAULT_LIMIT: u32 = 50;
/// Largest page of `GET /v1/disputes`.
pub const MAX_LIMIT: u32 = 200;

/// `POST /v1/hands/{hand_id}/disputes`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct OpenDispute {
    /// `unfair_deal`, `action_not_mine`, `wrong_score`, `rule_broken` or `record_altered`.
    pub kind: String,
    /// What is claimed: 1 to 2,000 characters, stored in Unicode NFC, trimmed (the rules
    /// of display names: no control, invisible or reordering characters).
    pub claim: String,
    /// The event of the hand the claim is about; required for `action_not_mine` and
    /// `rule_broken`.
    pub seq: Option<u64>,
}

/// Who opened a dispute.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct OpenerView {
    /// `seat`, `admin` or `auditor`.
    pub role: String,
    /// The seat token's or API key's id.
    pub id: String,
    /// The seat, for a seat token.
    pub seat: Option<u8>,
}

/// A registered official, as a ruling names them.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct OfficialRef {
    /// The official's name.
    pub name: String,
    /// Their Ed25519 public key (hex).
    pub public_key: String,
    /// Its id, `ed25519:…`.
    pub key_id: String,
}

/// One ruling of a dispute.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct RulingView {
    /// The ruling's entry in the dispute's record.
    pub seq: u64,
    /// `upheld`, `rejected` or `penalty`.
    pub decision: String,
    /// The penalty as the official gave it.
    #[schema(value_type = Option<Object>)]
    pub penalty: Option<Value>,
    /// What the game's rules make of it: who gains how much, and the spec section.
    #[schema(value_type = Option<Object>)]
    pub award: Option<Value>,
    /// Why.
    pub reason: String,
    /// Who ruled.
    pub official: OfficialRef,
    /// The official's signature (hex) over the ruling message.
    pub official_sig: String,
    /// The admin key that recorded it.
    pub recorded_by: String,
    /// When (unix ms).
    pub time_ms: u64,
    /// The entry's hash.
    pub hash: String,
    /// Whether a later ruling supersedes it.
    pub superseded: bool,
    /// A `penalty` ruling only: whether and where its award counts in the table's match
    /// (docs/DISPUTES.md, "Penalties").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub carried: Option<carry::CarryView>,
}

/// The check of a dispute's stored record, made at every read.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct RecordCheck {
    /// Whether every entry is in sequence, chained, hashed over itself, signed by one of
    /// the service's keys, and every ruling signed by its official.
    pub valid: bool,
    /// The first entry that fails, and the check.
    #[schema(value_type = Option<Object>)]
    pub problem: Option<Value>,
}

/// `GET /v1/disputes/{dispute_id}`: a dispute, its findings and its whole history.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct DisputeView {
    /// The dispute.
    pub dispute_id: String,
    /// The hand disputed.
    pub hand_id: String,
    /// Its table.
    pub table_id: String,
    /// The event of the hand disputed, if one.
    pub seq: Option<u64>,
    /// What is claimed.
    pub kind: String,
    /// The claim.
    pub claim: String,
    /// `open`, or the latest ruling's decision (`upheld`, `rejected`, `penalty`).
    pub status: String,
    /// Who opened it.
    pub opened_by: OpenerView,
    /// When (unix ms).
    pub opened_ms: i64,
    /// When its last entry was appended.
    pub updated_ms: i64,
    /// The next entry's seq: what a ruling is signed for.
    pub next_seq: u64,
    /// The hash of its last entry: what a ruling is signed over (`prev`).
    pub head: String,
    /// The findings attached when it was opened (docs/DISPUTES.md, "Findings").
    #[schema(value_type = Object)]
    pub findings: Value,
    /// The ruling in force: the latest.
    pub ruling: Option<RulingView>,
    /// Every ruling, oldest first.
    pub rulings: Vec<RulingView>,
    /// The check of its stored record.
    pub record_check: RecordCheck,
    /// At a read: whether the club log's latest checkpoint extends the one the findings'
    /// `log` was checked against (docs/DISPUTES.md, "Findings"), from the service's log.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Object)]
    pub log_consistency: Option<Value>,
    /// The signed record: every entry with its hash, signer and signature
    /// (replayer::dispute, docs/DISPUTES.md).
    #[schema(value_type = Vec<Object>)]
    pub record: Vec<EntryRecord>,
}

/// A dispute in a list.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct DisputeSummary {
    /// The dispute.
    pub dispute_id: String,
    /// The hand disputed.
    pub hand_id: String,
    /// Its table.
    pub table_id: String,
    /// The event disputed, if one.
    pub seq: Option<u64>,
    /// What is claimed.
    pub kind: String,
    /// The claim.
    pub claim: String,
    /// `open`, `upheld`, `rejected` or `penalty`.
    pub status: String,
    /// Who opened it (`role`, `id`).
    pub opened_role: String,
    /// The seat token's or API key's id.
    pub opened_by: String,
    /// When (unix ms).
    pub opened_ms: i64,
    /// When its last entry was appended.
    pub updated_ms: i64,
    /// How many rulings it has.
    pub rulings: i64,
}

/// `GET /v1/disputes`.
#[derive(Debug, Serialize, ToSchema)]
pub struct DisputePage {
    /// Disputes, newest first.
    pub disputes: Vec<DisputeSummary>,
    /// Pass as `cursor` for the next page; null on the last.
    pub next_cursor: Option<String>,
}

/// `GET /v1/disputes` query.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct DisputeQuery {
    /// `open`, `upheld`, `rejected` or `penalty`.
    pub status: Option<String>,
    /// A kind of claim.
    pub kind: Option<String>,
    /// Only this hand's disputes.
    pub hand_id: Option<String>,
    /// Only disputes of this table's hands.
    pub table_id: Option<String>,
    /// `next_cursor` of the previous page.
    pub cursor: Option<String>,
    /// Page size, 1 to 200 (default 50).
    pub limit: Option<u32>,
}

/// The statuses a dispute can have.
pub const STATUSES: [&str; 4] = ["open", "upheld", "rejected", "penalty"];

fn role_name(role: &Role) -> &'static str {
    match role {
        Role::Admin => "admin",
        Role::Auditor => "auditor",
        Role::Seat { .. } => "seat",
    }
}

fn u64_of(v: i64) -> u64 {
    u64::try_from(v).unwrap_or(0)
}

fn i64_of(v: u64) -> i64 {
    i64::try_from(v).unwrap_or(i64::MAX)
}

/// A dispute the caller may see: its club's, and for a seat token one it opened; `404`
/// for anything else, exactly like an id that does not exist.
pub(crate) async fn dispute_row(
    svc: &Service,
    caller: &Caller,
    dispute_id: &str,
) -> ApiResult<DisputeRow> {
    if !crate::plausible_id(dispute_id) {
        return Err(ApiError::not_found("dispute"));
    }
    let row = svc
        .store
        .disputes()
        .get_dispute(&caller.club_id, dispute_id)
        .await?
        .ok_or_else(|| ApiError::not_found("dispute"))?;
    if matches!(caller.role, Role::Seat { .. })
        && (row.opened_role != "seat" || row.opened_by != caller.id)
    {
        return Err(ApiError::not_found("dispute"));
    }
    Ok(row)
}

/// The dispute's signed entries, read back.
pub(crate) async fn entries(svc: &Service, row: &DisputeRow) -> ApiResult<Vec<EntryRecord>> {
    read_entries(svc, row).await?.map_err(|seq| {
        ApiError::new(
            Code::DisputeDamaged,
            format!(
                "entry {seq} of dispute {} does not read as a dispute entry: the stored record \
                 was changed outside the service",
                row.dispute_id
            ),
        )
    })
}

/// The dispute's stored entries, read; `Err` names the first that does not read as an
/// entry (a record changed behind the service's back).
pub(crate) async fn read_entries(
    svc: &Service,
    row: &DisputeRow,
) -> ApiResult<Result<Vec<EntryRecord>, i64>> {
    Ok(svc
        .store
        .disputes()
        .list_dispute_entries(&row.club_id, &row.dispute_id)
        .await?
        .iter()
        .map(|e| serde_json::from_value::<EntryRecord>(e.record.clone()).map_err(|_| e.seq))
        .collect())
}

fn ruling_views(record: &[EntryRecord]) -> Vec<RulingView> {
    let mut out: Vec<RulingView> = record
        .iter()
        .filter_map(|r| match &r.entry.body {
            EntryBody::Ruling {
                decision,
                penalty,
                award,
                reason,
                official,
                official_sig,
                recorded_by,
            } => Some(RulingView {
                seq: r.entry.seq,
                decision: decision.as_str().to_string(),
                penalty: penalty.clone(),
                award: award.as_ref().and_then(|a| serde_json::to_value(a).ok()),
                reason: reason.clone(),
                official: OfficialRef {
                    name: official.name.clone(),
                    public_key: official.public_key.to_hex(),
                    key_id: official.public_key.key_id().0,
                },
                official_sig: official_sig.to_hex(),
                recorded_by: recorded_by.clone(),
                time_ms: r.entry.time_ms,
                hash: r.hash.to_hex(),
                superseded: true,
                carried: None,
            }),
            EntryBody::Opened { .. } => None,
        })
        .collect();
    if let Some(last) = out.last_mut() {
        last.superseded = false;
    }
    out
}

/// The dispute as `GET` shows it, from its row and its record.
pub(crate) fn view(svc: &Service, row: &DisputeRow, record: Vec<EntryRecord>) -> DisputeView {
    let (claim, opened_by, findings) = match record.first().map(|r| &r.entry.body) {
        Some(EntryBody::Opened {
            claim,
            opened_by,
            findings,
            ..
        }) => (
            claim.clone(),
            OpenerView {
                role: opened_by.role.clone(),
                id: opened_by.id.clone(),
                seat: opened_by.seat.map(|s| s.0),
            },
            findings.clone(),
        ),
        _ => (
            row.claim.clone(),
            OpenerView {
                role: row.opened_role.clone(),
                id: row.opened_by.clone(),
                seat: None,
            },
            Value::Null,
        ),
    };
    let check = verify_record(&record, &svc.keys.public_keys());
    let rulings = ruling_views(&record);
    DisputeView {
        dispute_id: row.dispute_id.clone(),
        hand_id: row.hand_id.clone(),
        table_id: row.table_id.clone(),
        seq: row.event.map(u64_of),
        kind: row.kind.clone(),
        claim,
        status: row.status.clone(),
        opened_by,
        opened_ms: row.opened_ms,
        updated_ms: row.updated_ms,
        next_seq: u64_of(row.entries),
        head: row.head.clone(),
        findings,
        ruling: rulings.last().cloned(),
        rulings,
        record_check: RecordCheck {
            valid: check.is_ok(),
            problem: check
                .err()
                .map(|p| serde_json::json!({"entry": p.entry, "rule": p.rule})),
        },
        log_consistency: None,
        record,
    }
}

/// Whether the club log's latest checkpoint extends the checkpoint the dispute's `log`
/// finding was checked against when it was opened (its size and root as the signed
/// findings give them, not as the store gives them now): `consistent` with the proof,
/// `inconsistent` (a fork or a rollback: the log was rewritten since), `not_applicable`
/// (the findings name no checkpoint: the hand was not under one yet) or `unavailable`
/// (the log's tiles cannot give the proof now).
pub(crate) async fn log_consistency(
    svc: &Service,
    club: &str,
    findings: &Value,
) -> ApiResult<Value> {
    use serde_json::json;
    let cp = &findings["log"]["checkpoint"];
    let old = cp["size"].as_u64();
    let old_root = cp["root"].as_str().and_then(|r| Hash::from_hex(r).ok());
    let (Some(old), Some(old_root)) = (old, old_root) else {
        return Ok(json!({"status": "not_applicable",
            "detail": "the findings name no checkpoint of the club log"}));
    };
    let from = json!({"size": old, "root": old_root.to_hex()});
    let latest = svc.store.latest_checkpoint(club).await?;
    let latest = latest.and_then(|c| replayer::tlog::Checkpoint::parse_unverified(&c.note).ok());
    let Some(new) = latest else {
        return Ok(json!({"status": "inconsistent", "from": from,
            "detail": "the club log has no readable checkpoint now (a rollback)"}));
    };
    let to = json!({"size": new.size, "root": new.root.to_hex()});
    if new.size < old {
        return Ok(json!({"status": "inconsistent", "from": from, "to": to,
            "detail": "the club log is smaller than when the dispute was opened (a rollback)"}));
    }
    let proof = match crate::clublog::consistency(svc.store.as_ref(), club, old, new.size).await {
        Ok(p) => p,
        Err(crate::clublog::LogError::Store(e)) => return Err(e.into()),
        Err(e) => {
            tracing::warn!(club_id = %club, error = %e, "no consistency proof for a dispute");
            return Ok(json!({"status": "unavailable", "from": from, "to": to,
                "detail": "the club log's tiles cannot give the proof (audit-service audit names why)"}));
        }
    };
    let hexes: Vec<String> = proof.iter().map(Hash::to_hex).collect();
    Ok(
        match replayer::tlog::verify_consistency(old, new.size, &proof, &old_root, &new.root) {
            Ok(()) => json!({"status": "consistent", "from": from, "to": to, "proof": hexes}),
            Err(e) => json!({"status": "inconsistent", "from": from, "to": to, "proof": hexes,
                "detail": format!("the latest checkpoint does not extend the one of the findings (a fork): {e}")}),
        },
    )
}

/// `GET /v1/disputes/{dispute_id}`.
pub async fn get(svc: &Service, caller: &Caller, dispute_id: &str) -> ApiResult<DisputeView> {
    let row = dispute_row(svc, caller, dispute_id).await?;
    let record = entries(svc, &row).await?;
    projection::check(&row, &record)?;
    let mut v = view(svc, &row, record);
    with_carry(svc, &row, &mut v).await?;
    v.log_consistency = Some(log_consistency(svc, &row.club_id, &v.findings).await?);
    Ok(v)
}

/// Says, for each penalty ruling of the view, whether and where its award counts in the
/// table's match ([`carry::carry_views`]).
pub(crate) async fn with_carry(
    svc: &Service,
    row: &DisputeRow,
    v: &mut DisputeView,
) -> ApiResult<()> {
    let mut carried = carry::carry_views(svc, &row.table_id, &row.club_id, &v.record).await?;
    for r in &mut v.rulings {
        r.carried = carried.remove(&r.seq);
    }
    v.ruling = v.rulings.last().cloned();
    Ok(())
}

fn bad_query(detail: impl Into<String>) -> ApiError {
    ApiError::new(Code::InvalidQuery, detail)
}

fn encode_cursor(ms: i64, id: &str) -> String {
    hex::encode(format!("d1:{ms}:{id}"))
}

fn decode_cursor(c: &str) -> ApiResult<(i64, String)> {
    let bad = || bad_query("cursor is not a cursor this service gave");
    let text = hex::decode(c)
        .ok()
        .and_then(|b| String::from_utf8(b).ok())
        .filter(|t| !t.contains('\0'))
        .ok_or_else(bad)?;
    let mut parts = text.splitn(3, ':');
    match (parts.next(), parts.next(), parts.next()) {
        (Some("d1"), Some(ms), Some(id)) => {
            ms.parse().map(|ms| (ms, id.to_string())).map_err(|_| bad())
        }
        _ => Err(bad()),
    }
}

/// `GET /v1/disputes`: the club's disputes (a seat token: the ones it opened), newest
/// first.
pub async fn list(svc: &Service, caller: &Caller, q: DisputeQuery) -> ApiResult<DisputePage> {
    let texts = [&q.status, &q.kind, &q.hand_id, &q.table_id, &q.cursor];
    if texts.iter().any(|t| {
        t.as_deref()
            .is_some_and(|t| t.contains('\0') || t.len() > 256)
    }) {
        return Err(bad_query(
            "parameters may not contain NUL or exceed 256 bytes",
        ));
    }
    let limit = q.limit.unwrap_or(DEFAULT_LIMIT);
    if limit == 0 || limit > MAX_LIMIT {
        return Err(bad_query(format!("limit must be 1 to {MAX_LIMIT}")));
    }
    if let Some(s) = q.status.as_deref() {
        if !STATUSES.contains(&s) {
            return Err(bad_query(
                "status must be open, upheld, rejected or penalty",
            ));
        }
    }
    if let Some(k) = q.kind.as_deref() {
        if DisputeKind::parse(k).is_none() {
            return Err(bad_query(
                "kind must be unfair_deal, action_not_mine, wrong_score, rule_broken or \
                 record_altered",
            ));
        }
    }
    let opened_by = match caller.role {
        Role::Seat { .. } => Some(caller.id.clone()),
        _ => None,
    };
    let filter = DisputeFilter {
        status: q.status,
        kind: q.kind,
        hand_id: q.hand_id,
        table_id: q.table_id,
        opened_by,
        cursor: q.cursor.as_deref().map(decode_cursor).transpose()?,
        limit: i64::from(limit) + 1,
    };
    let mut rows = svc
        .store
        .disputes()
        .list_disputes(&caller.club_id, &filter)
        .await?;
    // A seat's list: the disputes its token opened (an API key's id never equals a seat
    // token's by accident of the filter: the role is checked too).
    rows.retain(|r| filter.opened_by.is_none() || r.opened_role == "seat");
    let want = usize::try_from(limit).unwrap_or(50);
    let next_cursor = if rows.len() > want {
        rows.truncate(want);
        rows.last()
            .map(|r| encode_cursor(r.opened_ms, &r.dispute_id))
    } else {
        None
    };
    // Every row listed is checked against its signed record (issue 29): a list never
    // shows an edited status, claim or hand as fact.
    futures_util::future::try_join_all(rows.iter().map(|r| async move {
        let record = entries(svc, r).await?;
        projection::check(r, &record)
    }))
    .await?;
    Ok(DisputePage {
        disputes: rows
            .into_iter()
            .map(|r| DisputeSummary {
                seq: r.event.map(u64_of),
                rulings: r.entries.saturating_sub(1),
                dispute_id: r.dispute_id,
                hand_id: r.hand_id,
                table_id: r.table_id,
                kind: r.kind,
                claim: r.claim,
                status: r.status,
                opened_role: r.opened_role,
                opened_by: r.opened_by,
                opened_ms: r.opened_ms,
                updated_ms: r.updated_ms,
            })
            .collect(),
        next_cursor,
    })
}

/// The hand a caller disputes: its club's, visible to the caller (another table's for a
/// seat is `404`, as every read of it), finished (`409 hand_in_progress` while it runs:
/// its findings would need what is still hidden), and for a seat token one in which its
/// seat's player sat (`403` otherwise).
async fn disputed_hand(
    svc: &Service,
    caller: &Caller,
    hand_id: &str,
) -> ApiResult<(HandRow, TableRow)> {
    if !crate::plausible_id(hand_id) {
        return Err(ApiError::not_found("hand"));
    }
    let row = svc
        .store
        .get_hand(&caller.club_id, hand_id)
        .await?
        .ok_or_else(|| ApiError::not_found("hand"))?;
    if !caller.sees_table(&row.table_id)
        || (caller.role == Role::Auditor && row.status == HandStatus::InProgress)
    {
        return Err(ApiError::not_found("hand"));
    }
    if row.status == HandStatus::InProgress {
        return Err(ApiError::new(
            Code::HandInProgress,
            "a hand can be disputed once it is over (completed, abandoned or quarantined): \
             its findings need what the rules keep hidden until then",
        ));
    }
    let table = svc
        .store
        .get_table(&row.club_id, &row.table_id)
        .await?
        .ok_or_else(|| ApiError::internal("a hand's table is missing"))?;
    if let Some((_, seat)) = caller.seat() {
        let sat = table
            .seats
            .iter()
            .find(|s| i64::from(s.seat) == i64::from(seat.0))
            .is_some_and(|s| row.players.get(seat.index()) == Some(&s.player));
        if !sat {
            return Err(ApiError::forbidden(
                "this seat's player did not sit in the hand: a player may dispute only a \
                 hand they played",
            ));
        }
    }
    Ok((row, table))
}

fn invalid(field: &str, detail: impl Into<String>) -> ApiError {
    ApiError::new(Code::InvalidDispute, detail).with("field", field)
}

/// `POST /v1/hands/{hand_id}/disputes`: opens a dispute, with its findings, as entry 0 of
/// its signed record.
pub async fn open(
    svc: &Service,
    caller: &Caller,
    hand_id: &str,
    body: OpenDispute,
    idem: Option<IdemCtx>,
) -> ApiResult<Reply> {
    let kind = DisputeKind::parse(&body.kind).ok_or_else(|| {
        invalid(
            "kind",
            "kind must be unfair_deal, action_not_mine, wrong_score, rule_broken or \
             record_altered",
        )
    })?;
    let claim = crate::names::display_name(&body.claim, MAX_CLAIM)
        .map_err(|e| ApiError::invalid_name("claim", &e))?;
    let (row, table) = disputed_hand(svc, caller, hand_id).await?;
    let stored = findings::load(svc, &row).await?;
    let events = u64::try_from(stored.rows.len()).unwrap_or(u64::MAX);
    if let Some(seq) = body.seq {
        if seq >= events {
            return Err(invalid(
                "seq",
                format!(
                    "the hand has no event {seq}: its events are 0 to {}",
                    events.saturating_sub(1)
                ),
            ));
        }
    }
    if body.seq.is_none() && matches!(kind, DisputeKind::ActionNotMine | DisputeKind::RuleBroken) {
        return Err(invalid(
            "seq",
            format!(
                "a {} dispute names the action's event: send seq",
                kind.as_str()
            ),
        ));
    }
    let found = findings::compute(svc, &row, &table, &stored, kind, body.seq).await?;
    let findings = serde_json::to_value(&found).map_err(ApiError::internal)?;
    let now = now_ms();
    let dispute_id = random_id("d")?;
    let opener = Opener {
        role: role_name(&caller.role).to_string(),
        id: caller.id.clone(),
        seat: caller.seat().map(|(_, s)| s),
    };
    let entry = Entry {
        v: DISPUTE_FORMAT_VERSION,
        club: caller.club_id.clone(),
        dispute: dispute_id.clone(),
        hand: row.hand_id.clone(),
        seq: 0,
        prev: Hash::ZERO,
        time_ms: now,
        body: EntryBody::Opened {
            table: row.table_id.clone(),
            event: body.seq,
            kind,
            claim: claim.clone(),
            opened_by: opener.clone(),
            findings,
        },
    };
    // Findings hold only integers, strings and the log's own JSON: a failure here is ours.
    let record = seal_entry(entry, svc.keys.current()).map_err(ApiError::internal)?;
    let now_i = i64_of(now);
    let dispute = DisputeRow {
        club_id: caller.club_id.clone(),
        dispute_id: dispute_id.clone(),
        hand_id: row.hand_id.clone(),
        table_id: row.table_id.clone(),
        event: body.seq.map(i64_of),
        kind: kind.as_str().to_string(),
        claim,
        status: "open".to_string(),
        opened_role: opener.role.clone(),
        opened_by: caller.id.clone(),
        opened_ms: now_i,
        updated_ms: now_i,
        entries: 1,
        head: record.hash.to_hex(),
    };
    let entry_row = entry_row(&dispute, &record, now_i)?;
    let reply = Reply::new(StatusCode::CREATED, view(svc, &dispute, vec![record]))?;
    let idem_row = idem
        .as_ref()
        .map(|c| c.row(&svc.seal, &reply, now_i))
        .transpose()?;
    match svc
        .store
        .disputes()
        .open_dispute(&dispute, &entry_row, idem_row.as_ref())
        .await
    {
        Ok(()) => Ok(reply),
        Err(StoreError::IdempotencyConflict) => {
            IdemCtx::replayed(idem.as_ref(), svc.store.as_ref(), &svc.seal).await
        }
        Err(e) => Err(e.into()),
    }
}

/// The stored row of a signed entry.
pub(crate) fn entry_row(
    dispute: &DisputeRow,
    record: &EntryRecord,
    now: i64,
) -> ApiResult<DisputeEntryRow> {
    Ok(DisputeEntryRow {
        club_id: dispute.club_id.clone(),
        dispute_id: dispute.dispute_id.clone(),
        seq: i64_of(record.entry.seq),
        kind: record.entry.body.kind().to_string(),
        hash: record.hash.to_hex(),
        prev_hash: record.entry.prev.to_hex(),
        record: serde_json::to_value(record).map_err(ApiError::internal)?,
        created_ms: now,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursors_round_trip_and_reject_garbage() {
        let c = encode_cursor(1_700_000_000_000, "d_abc");
        assert_eq!(
            decode_cursor(&c).unwrap(),
            (1_700_000_000_000, "d_abc".into())
        );
        assert!(decode_cursor("zz").is_err());
        assert!(decode_cursor(&hex::encode("v1:1:x")).is_err());
    }
}
