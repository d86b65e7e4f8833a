//! Officials and rulings. The club admin registers the officials whose Ed25519 keys may
//! sign rulings; a ruling names its official, is signed by them over
//! [`replayer::dispute::ruling_message`] (the dispute, the ruling's fields, and the seq and
//! hash of the entry it follows), is checked against the game's rules when it awards a
//! penalty, and is appended to the dispute's record, signed by the service too. Rulings are
//! never edited: a later one supersedes an earlier one, and both stay.

use actix_web::http::StatusCode;
use replayer::dispute::{
    ruling_message, seal_entry, Decision, Entry, EntryBody, Official, RulingTerms,
    DISPUTE_FORMAT_VERSION,
};
use replayer::engine::GameId;
use replayer::games::registry;
use replayer::log::{Body, Hash, PublicKey, Record, Signature};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use super::{dispute_row, entries, entry_row, view};
use crate::api::errors::{ApiError, ApiResult, Code};
use crate::auth::Caller;
use crate::idempotency::{IdemCtx, Reply};
use crate::store::{HandRow, OfficialRow, Revocation, RulingAppend, StoreError};
use crate::{now_ms, Service};

/// Longest official name, in characters.
pub const MAX_OFFICIAL_NAME: usize = 100;
/// Longest ruling reason, in characters.
pub const MAX_REASON: usize = 2000;
/// Longest revocation reason, in characters.
pub const MAX_REVOCATION_REASON: usize = 500;

/// `POST /v1/officials`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewOfficial {
    /// The official's name: a display name of 1 to 100 characters.
    pub name: String,
    /// Their Ed25519 public key, 64 hex characters.
    pub public_key: String,
}

/// A registered official.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct OfficialView {
    /// The key's id, `ed25519:…`.
    pub key_id: String,
    /// The official's name (NFC, trimmed).
    pub name: String,
    /// The public key (lowercase hex).
    pub public_key: String,
    /// When it was registered (unix ms).
    pub registered_ms: i64,
    /// The admin key that registered it.
    pub registered_by: String,
    /// When the admin revoked the key, if they did: it signs no ruling from then on (the
    /// rulings it signed before stand).
    pub revoked: Option<RevocationView>,
}

/// An official key's revocation.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct RevocationView {
    /// When (unix ms).
    pub revoked_ms: i64,
    /// The admin key that revoked it.
    pub revoked_by: String,
    /// Why, as the admin gave it.
    pub reason: String,
}

/// `POST /v1/officials/{key_id}/revocation`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewRevocation {
    /// Why: 1 to 500 characters (a display name's rules).
    pub reason: String,
}

/// `GET /v1/officials`.
#[derive(Debug, Serialize, ToSchema)]
pub struct OfficialList {
    /// The club's officials, in the order they were registered.
    pub officials: Vec<OfficialView>,
}

impl From<OfficialRow> for OfficialView {
    fn from(o: OfficialRow) -> Self {
        OfficialView {
            key_id: o.key_id,
            name: o.name,
            public_key: o.public_key,
            registered_ms: o.registered_ms,
            registered_by: o.registered_by,
            revoked: o.revoked.map(|r| RevocationView {
                revoked_ms: r.revoked_ms,
                revoked_by: r.revoked_by,
                reason: r.reason,
            }),
        }
    }
}

/// The official a ruling names.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct OfficialBody {
    /// The name the official is registered under.
    pub name: String,
    /// Their registered public key (hex).
    pub public_key: String,
}

/// `POST /v1/disputes/{dispute_id}/rulings`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RulingBody {
    /// `upheld`, `rejected` or `penalty`.
    pub decision: String,
    /// With `penalty` only: a penalty the hand's game gives, e.g. Hokm's
    /// `{"type": "cheating_penalty", "offender": 1, "beneficiary": 0}`.
    #[schema(value_type = Option<Object>)]
    pub penalty: Option<Value>,
    /// Why: 1 to 2,000 characters, sent as signed (already NFC, no white space around).
    pub reason: String,
    /// Who rules.
    pub official: OfficialBody,
    /// The official's Ed25519 signature (128 hex) over the ruling message
    /// (docs/DISPUTES.md, "The ruling's signature").
    pub official_sig: String,
    /// The hash of the entry the ruling follows (the dispute's `head`), if the client
    /// wants a stale ruling told apart from a bad signature (`409 dispute_moved_on`).
    pub prev: Option<String>,
}

/// `POST /v1/officials` (admin): registers an official's key.
pub async fn register(
    svc: &Service,
    caller: &Caller,
    body: NewOfficial,
    idem: Option<IdemCtx>,
) -> ApiResult<Reply> {
    caller.require_admin()?;
    let name = crate::names::display_name(&body.name, MAX_OFFICIAL_NAME)
        .map_err(|e| ApiError::invalid_name("name", &e))?;
    let key = PublicKey::from_hex(&body.public_key).map_err(|e| {
        ApiError::new(Code::InvalidOfficial, format!("public_key: {e}")).with("field", "public_key")
    })?;
    crate::keys::refuse_weak(&key, "public_key")?;
    let row = OfficialRow {
        club_id: caller.club_id.clone(),
        key_id: key.key_id().0,
        name,
        public_key: key.to_hex(),
        registered_ms: i64::try_from(now_ms()).unwrap_or(i64::MAX),
        registered_by: caller.id.clone(),
        revoked: None,
    };
    let reply = Reply::new(StatusCode::CREATED, OfficialView::from(row.clone()))?;
    let idem_row = idem
        .as_ref()
        .map(|c| c.row(&svc.seal, &reply, row.registered_ms))
        .transpose()?;
    match svc
        .store
        .disputes()
        .add_official(&row, idem_row.as_ref())
        .await
    {
        Ok(()) => Ok(reply),
        Err(StoreError::Duplicate(_)) => Err(ApiError::new(
            Code::OfficialExists,
            format!(
                "{} is already registered as an official of this club",
                row.key_id
            ),
        )),
        Err(StoreError::IdempotencyConflict) => replayed(svc, idem.as_ref()).await,
        Err(e) => Err(e.into()),
    }
}

async fn replayed(svc: &Service, idem: Option<&IdemCtx>) -> ApiResult<Reply> {
    IdemCtx::replayed(idem, svc.store.as_ref(), &svc.seal).await
}

/// `POST /v1/officials/{key_id}/revocation` (admin): revokes an official's key. It signs
/// no ruling from then on; the rulings it signed before stand, and the record is never
/// rewritten.
pub async fn revoke(
    svc: &Service,
    caller: &Caller,
    key_id: &str,
    body: NewRevocation,
    idem: Option<IdemCtx>,
) -> ApiResult<Reply> {
    caller.require_admin()?;
    let reason = crate::names::display_name(&body.reason, MAX_REVOCATION_REASON)
        .map_err(|e| ApiError::invalid_name("reason", &e))?;
    let not_found = || ApiError::not_found("official");
    if !crate::plausible_id(key_id) {
        return Err(not_found());
    }
    let official = svc
        .store
        .disputes()
        .get_official(&caller.club_id, key_id)
        .await?
        .ok_or_else(not_found)?;
    if official.revoked.is_some() {
        return Err(revoked_already(key_id));
    }
    let rev = Revocation {
        revoked_ms: i64::try_from(now_ms()).unwrap_or(i64::MAX),
        revoked_by: caller.id.clone(),
        reason,
    };
    let view = OfficialView::from(OfficialRow {
        revoked: Some(rev.clone()),
        ..official
    });
    let reply = Reply::new(StatusCode::CREATED, view)?;
    let idem_row = idem
        .as_ref()
        .map(|c| c.row(&svc.seal, &reply, rev.revoked_ms))
        .transpose()?;
    match svc
        .store
        .disputes()
        .revoke_official(&caller.club_id, key_id, &rev, idem_row.as_ref())
        .await
    {
        Ok(()) => Ok(reply),
        Err(StoreError::Duplicate(_)) => Err(revoked_already(key_id)),
        Err(StoreError::NotFound(_)) => Err(not_found()),
        Err(StoreError::IdempotencyConflict) => replayed(svc, idem.as_ref()).await,
        Err(e) => Err(e.into()),
    }
}

fn revoked_already(key_id: &str) -> ApiError {
    ApiError::new(
        Code::RevocationExists,
        format!("{key_id} is revoked already"),
    )
}

/// `GET /v1/officials` (admin, auditor).
pub async fn list(svc: &Service, caller: &Caller) -> ApiResult<OfficialList> {
    if caller.seat().is_some() {
        return Err(ApiError::forbidden(
            "the club's officials are listed to its admin and auditors",
        ));
    }
    Ok(OfficialList {
        officials: svc
            .store
            .disputes()
            .list_officials(&caller.club_id)
            .await?
            .into_iter()
            .map(OfficialView::from)
            .collect(),
    })
}

fn invalid(field: &str, detail: impl Into<String>) -> ApiError {
    ApiError::new(Code::InvalidRuling, detail).with("field", field)
}

/// The house rules and the match state a hand leaves (the state its `hand_ended` gives,
/// or the one it started from when it did not complete), from its first and end events.
async fn rules_and_match(svc: &Service, hand: &HandRow) -> ApiResult<(Value, Value)> {
    let stored = super::findings::load(svc, hand).await?;
    let records: Vec<&Record> = stored.records.iter().flatten().collect();
    let Some(Body::HandStarted {
        rules, match_state, ..
    }) = records.first().map(|r| &r.event.body)
    else {
        return Err(invalid(
            "penalty",
            "the hand's log does not start with hand_started: its rules cannot be read",
        ));
    };
    let after = records
        .iter()
        .find_map(|r| match &r.event.body {
            Body::HandEnded { next_match, .. } => Some(next_match.clone()),
            _ => None,
        })
        .unwrap_or_else(|| match_state.clone());
    Ok((rules.clone(), after))
}

/// `POST /v1/disputes/{dispute_id}/rulings` (admin): records an official's signed ruling.
pub async fn rule(
    svc: &Service,
    caller: &Caller,
    dispute_id: &str,
    body: RulingBody,
    idem: Option<IdemCtx>,
) -> ApiResult<Reply> {
    caller.require_admin()?;
    let row = dispute_row(svc, caller, dispute_id).await?;
    let decision = Decision::parse(&body.decision)
        .ok_or_else(|| invalid("decision", "decision must be upheld, rejected or penalty"))?;
    let reason = crate::names::display_name(&body.reason, MAX_REASON)
        .map_err(|e| ApiError::invalid_name("reason", &e))?;
    if reason != body.reason {
        return Err(ApiError::new(
            Code::InvalidName,
            "reason must be sent as it is signed: in Unicode NFC, without white space around it",
        )
        .with("field", "reason"));
    }
    let name = crate::names::display_name(&body.official.name, MAX_OFFICIAL_NAME)
        .map_err(|e| ApiError::invalid_name("official.name", &e))?;
    let key = PublicKey::from_hex(&body.official.public_key).map_err(|e| {
        ApiError::new(Code::UnknownOfficial, format!("official.public_key: {e}"))
            .with("field", "official.public_key")
    })?;
    let sig = Signature::from_hex(&body.official_sig).map_err(|e| {
        ApiError::new(Code::BadOfficialSignature, format!("official_sig: {e}"))
            .with("field", "official_sig")
    })?;
    let registered = svc
        .store
        .disputes()
        .get_official(&caller.club_id, &key.key_id().0)
        .await?
        .filter(|o| o.public_key == key.to_hex());
    match registered {
        None => {
            return Err(ApiError::new(
                Code::UnknownOfficial,
                format!(
                    "{} is not registered as an official of this club (POST /v1/officials)",
                    key.key_id()
                ),
            ))
        }
        Some(o) if o.name != name || name != body.official.name => {
            return Err(ApiError::new(
                Code::UnknownOfficial,
                "the official's key is registered under another name: send the name exactly \
                 as registered (it is signed)",
            ))
        }
        Some(o) if o.revoked.is_some() => {
            return Err(ApiError::new(
                Code::OfficialRevoked,
                format!("{} was revoked: it signs no further ruling", key.key_id()),
            ))
        }
        Some(_) => {}
    }
    let hand = svc
        .store
        .get_hand(&row.club_id, &row.hand_id)
        .await?
        .ok_or_else(|| ApiError::internal("a disputed hand is missing"))?;
    let award = match (decision, &body.penalty) {
        (Decision::Penalty, Some(p)) => {
            let game: GameId = hand.game.parse().map_err(ApiError::internal)?;
            let engine = registry(game).map_err(ApiError::internal)?;
            let (rules, after) = rules_and_match(svc, &hand).await?;
            let award = engine.penalty(&rules, &after, p).map_err(|v| {
                let names = engine.penalty_names();
                invalid(
                    "penalty",
                    format!(
                        "{} (the rules of {} give: {})",
                        v.detail,
                        game,
                        if names.is_empty() {
                            "none".to_string()
                        } else {
                            names.join(", ")
                        }
                    ),
                )
                .with("rule", v.rule)
                .with("section", v.section)
            })?;
            Some(award)
        }
        (Decision::Penalty, None) => {
            return Err(invalid(
                "penalty",
                "a penalty ruling names the penalty the game's rules give",
            ))
        }
        (_, Some(_)) => {
            return Err(invalid(
                "penalty",
                "only a ruling whose decision is penalty awards a penalty",
            ))
        }
        (_, None) => None,
    };
    let head = Hash::from_hex(&row.head).map_err(ApiError::internal)?;
    let seq = u64::try_from(row.entries).map_err(ApiError::internal)?;
    let moved_on = || {
        ApiError::new(
            Code::DisputeMovedOn,
            format!(
                "the dispute's last entry is now {} ({}): sign the ruling again over it",
                seq.saturating_sub(1),
                row.head
            ),
        )
        .with("next_seq", seq)
        .with("head", row.head.clone())
    };
    if let Some(prev) = &body.prev {
        if !prev.eq_ignore_ascii_case(&row.head) {
            return Err(moved_on());
        }
    }
    let official = Official {
        name,
        public_key: key,
    };
    let msg = ruling_message(&RulingTerms {
        club: &row.club_id,
        dispute: &row.dispute_id,
        hand: &row.hand_id,
        seq,
        prev: &head,
        decision,
        penalty: body.penalty.as_ref(),
        reason: &reason,
        official: &official,
    })
    .map_err(|e| invalid("penalty", format!("the ruling cannot be encoded: {e}")))?;
    if !key.verify(&msg, &sig) {
        return Err(ApiError::new(
            Code::BadOfficialSignature,
            format!(
                "the official's signature does not verify over the ruling for entry {seq} \
                 following {} (docs/DISPUTES.md, \"The ruling's signature\")",
                row.head
            ),
        ));
    }
    let now = now_ms();
    let entry = Entry {
        v: DISPUTE_FORMAT_VERSION,
        club: row.club_id.clone(),
        dispute: row.dispute_id.clone(),
        hand: row.hand_id.clone(),
        seq,
        prev: head,
        time_ms: now,
        body: EntryBody::Ruling {
            decision,
            penalty: body.penalty.clone(),
            award,
            reason,
            official,
            official_sig: sig,
            recorded_by: caller.id.clone(),
        },
    };
    let record = seal_entry(entry, svc.keys.current()).map_err(ApiError::internal)?;
    let now_i = i64::try_from(now).unwrap_or(i64::MAX);
    let mut after = row.clone();
    after.status = decision.as_str().to_string();
    after.entries = row.entries.saturating_add(1);
    after.head = record.hash.to_hex();
    after.updated_ms = now_i;
    let entry_row = entry_row(&after, &record, now_i)?;
    let mut all = entries(svc, &row).await?;
    // A ruling is signed over the record's head, never over a row edited behind its back.
    super::projection::check(&row, &all)?;
    all.push(record);
    let mut shown = view(svc, &after, all);
    super::with_carry(svc, &after, &mut shown).await?;
    let reply = Reply::new(StatusCode::CREATED, shown)?;
    let req = RulingAppend {
        club_id: row.club_id.clone(),
        dispute_id: row.dispute_id.clone(),
        expected_entries: row.entries,
        entry: entry_row,
        status: after.status.clone(),
        idem: idem
            .as_ref()
            .map(|c| c.row(&svc.seal, &reply, now_i))
            .transpose()?,
    };
    match svc.store.disputes().append_ruling(&req).await {
        Ok(()) => Ok(reply),
        Err(StoreError::Conflict { .. }) => Err(moved_on()),
        Err(StoreError::IdempotencyConflict) => replayed(svc, idem.as_ref()).await,
        Err(e) => Err(e.into()),
    }
}
