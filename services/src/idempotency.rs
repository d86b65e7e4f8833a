//! Idempotency keys: a POST that carries `Idempotency-Key` and succeeds has its response
//! recorded in the same transaction as its write; the same caller sending the same key
//! to the same path with the same body gets that response again, and the same key with
//! another request gets `422 idempotency_key_reused`.
//!
//! The stored key is scoped by caller (`ak:<key id>:<key>` or `st:<token id>:<key>`), and
//! the request fingerprint is `SHA-256(method, path, the body as canonical JSON)`.
//! Recorded responses are sealed with the seal key: some hold a secret shown once (seat
//! tokens) or a seat's own cards, which the database must not hold in the clear.

use actix_web::http::header::ContentType;
use actix_web::http::StatusCode;
use actix_web::HttpResponse;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use crate::api::errors::{ApiError, ApiResult, Code};
use crate::auth::Caller;
use crate::keys::SealKey;
use crate::store::{IdemRow, Store, StoreError};

/// Longest accepted `Idempotency-Key`.
pub const MAX_KEY_LEN: usize = 200;

/// The key and fingerprint of one request, as read from it.
#[derive(Clone, Debug)]
pub struct IdemKey {
    /// The client's key.
    pub key: String,
    /// Hex SHA-256 of method, path and canonical body.
    pub request_hash: String,
}

impl IdemKey {
    /// Reads the header value; `None` when absent.
    pub fn parse(
        header: Option<&str>,
        method: &str,
        path: &str,
        body: &Value,
    ) -> ApiResult<Option<IdemKey>> {
        let Some(key) = header else {
            return Ok(None);
        };
        if key.is_empty()
            || key.len() > MAX_KEY_LEN
            || !key.bytes().all(|b| (0x21..=0x7e).contains(&b))
        {
            return Err(ApiError::new(
                Code::InvalidIdempotencyKey,
                format!("Idempotency-Key must be 1 to {MAX_KEY_LEN} visible ASCII characters"),
            ));
        }
        let mut h = Sha256::new();
        h.update(b"persian-cards/idempotency/v1\0");
        h.update(method.as_bytes());
        h.update([0]);
        h.update(path.as_bytes());
        h.update([0]);
        // serde_json's maps are sorted by key: this is a canonical form of the body.
        h.update(serde_json::to_vec(body).unwrap_or_default());
        Ok(Some(IdemKey {
            key: key.to_string(),
            request_hash: hex::encode(h.finalize()),
        }))
    }
}

/// A response, fresh or replayed.
#[derive(Clone, Debug)]
pub struct Reply {
    /// The status.
    pub status: StatusCode,
    /// The JSON body, serialized once: the same bytes are sent and, under an idempotency
    /// key, recorded (a write's answer built as a `Value` tree first, then serialized,
    /// cost about 5% of the service's CPU at 32 tables).
    pub body: Box<RawValue>,
    /// Whether it is a recorded response replayed.
    pub replayed: bool,
}

/// A recorded response as sealed in its idempotency row: `{"status", "body"}`.
#[derive(Serialize, Deserialize)]
struct Recorded<B> {
    status: u16,
    body: B,
}

impl Reply {
    /// A fresh response.
    pub fn new(status: StatusCode, body: impl Serialize) -> ApiResult<Reply> {
        Ok(Reply {
            status,
            body: serde_json::value::to_raw_value(&body).map_err(ApiError::internal)?,
            replayed: false,
        })
    }

    /// The reply as recorded under an idempotency key (before sealing): `{status, body}`.
    fn recorded(&self) -> ApiResult<Vec<u8>> {
        serde_json::to_vec(&Recorded {
            status: self.status.as_u16(),
            body: &self.body,
        })
        .map_err(ApiError::internal)
    }

    /// A recorded reply (unsealed), to be sent again: its body's bytes as recorded.
    fn replayed(plain: &[u8]) -> ApiResult<Reply> {
        let v: Recorded<Box<RawValue>> = serde_json::from_slice(plain)
            .map_err(|_| ApiError::internal("recorded response is not a status and a body"))?;
        let status = StatusCode::from_u16(v.status)
            .map_err(|_| ApiError::internal("recorded response has no valid status"))?;
        Ok(Reply {
            status,
            body: v.body,
            replayed: true,
        })
    }

    /// The HTTP response.
    pub fn into_response(self) -> HttpResponse {
        let mut r = HttpResponse::build(self.status);
        if self.replayed {
            r.insert_header(("Idempotent-Replayed", "true"));
        }
        r.content_type(ContentType::json())
            .body(String::from(Box::<str>::from(self.body)))
    }
}

/// The idempotency context of one request, handed to the domain so that it records the
/// response in the same transaction as its write.
#[derive(Clone, Debug)]
pub struct IdemCtx {
    /// The caller's club.
    pub club_id: String,
    /// The scoped key, as stored.
    pub key: String,
    /// The request's fingerprint.
    pub request_hash: String,
}

fn aad(club: &str, key: &str) -> Vec<u8> {
    format!("persian-cards/idempotent-response/v1|{club}|{key}").into_bytes()
}

/// The associated data of a response sealed since issue 29: the request's fingerprint is
/// bound too, so that a fingerprint edited (or swapped with another row's) in the
/// database no longer unseals, and a retry is not refused as a reused key on its word.
fn aad_v2(club: &str, key: &str, request_hash: &str) -> Vec<u8> {
    format!("persian-cards/idempotent-response/v2|{club}|{key}|{request_hash}").into_bytes()
}

/// How an idempotency row is named in a `record_damaged` problem and by the audit.
pub fn row_name(row: &IdemRow) -> String {
    format!("(club_id, key) = ({}, {})", row.club_id, row.key)
}

/// The reply an idempotency row records, checked: its response must unseal under its own
/// club, key and request fingerprint (or, for a row sealed before fingerprints were bound,
/// its club and key) as a status and a body, and its `status` column must be that status.
/// Anything else was changed behind the service's back: `409 record_damaged` naming the
/// row, never the sealed bytes.
pub fn recorded_reply(seal: &SealKey, row: &IdemRow) -> ApiResult<Reply> {
    let damaged =
        |expected: &str| ApiError::record_damaged("idempotency_keys", row_name(row), expected);
    let sealed = row
        .response
        .get("sealed")
        .and_then(Value::as_str)
        .and_then(|h| hex::decode(h).ok())
        .ok_or_else(|| damaged("a response of the form {\"sealed\": hex}"))?;
    let plain = seal
        .unseal(&aad_v2(&row.club_id, &row.key, &row.request_hash), &sealed)
        .or_else(|_| seal.unseal(&aad(&row.club_id, &row.key), &sealed))
        .map_err(|_| {
            damaged("a response sealed for this row's club, key and request fingerprint")
        })?;
    let reply = Reply::replayed(&plain)
        .map_err(|_| damaged("a sealed response that reads as a status and a body"))?;
    if i32::from(reply.status.as_u16()) != row.status {
        return Err(damaged(&format!(
            "status {} (the sealed response's)",
            reply.status.as_u16()
        )));
    }
    Ok(reply)
}

impl IdemCtx {
    /// The context of `key` sent by `caller`.
    pub fn new(caller: &Caller, key: IdemKey) -> IdemCtx {
        IdemCtx {
            club_id: caller.club_id.clone(),
            key: format!("{}:{}", caller.idem_scope(), key.key),
            request_hash: key.request_hash,
        }
    }

    /// The row recording `reply`, sealed.
    pub fn row(&self, seal: &SealKey, reply: &Reply, now_ms: i64) -> ApiResult<IdemRow> {
        let plain = reply.recorded()?;
        let sealed = seal.seal(
            &aad_v2(&self.club_id, &self.key, &self.request_hash),
            &plain,
        )?;
        Ok(IdemRow {
            club_id: self.club_id.clone(),
            key: self.key.clone(),
            request_hash: self.request_hash.clone(),
            status: i32::from(reply.status.as_u16()),
            response: json!({ "sealed": hex::encode(sealed) }),
            created_ms: now_ms,
        })
    }

    /// The answer to a write the store refused because this key's record went in first (a
    /// request with the same key committed meanwhile): its recorded reply. Without a
    /// context, or should the record be gone, the refusal stands.
    pub async fn replayed(
        ctx: Option<&IdemCtx>,
        store: &dyn Store,
        seal: &SealKey,
    ) -> ApiResult<Reply> {
        match ctx {
            Some(ctx) => ctx
                .lookup(store, seal)
                .await?
                .ok_or_else(|| StoreError::IdempotencyConflict.into()),
            None => Err(StoreError::IdempotencyConflict.into()),
        }
    }

    /// The recorded reply for this key: replayed when the request is the same, 422 when
    /// the key was used for another request.
    pub async fn lookup(&self, store: &dyn Store, seal: &SealKey) -> ApiResult<Option<Reply>> {
        let Some(row) = store.get_idempotency(&self.club_id, &self.key).await? else {
            return Ok(None);
        };
        // The row is checked first: an edited fingerprint must not pass for a reused key.
        let reply = recorded_reply(seal, &row)?;
        if row.request_hash != self.request_hash {
            return Err(ApiError::new(
                Code::IdempotencyKeyReused,
                "this Idempotency-Key was already used for a different request",
            ));
        }
        Ok(Some(reply))
    }
}

/// Runs a POST under its idempotency key: a recorded response is replayed; otherwise `op`
/// runs with the context it records its response under, in its own write.
pub async fn idempotent<F, Fut>(
    svc: &crate::Service,
    caller: &Caller,
    key: Option<IdemKey>,
    op: F,
) -> ApiResult<HttpResponse>
where
    F: FnOnce(Option<IdemCtx>) -> Fut,
    Fut: std::future::Future<Output = ApiResult<Reply>>,
{
    let ctx = key.map(|k| IdemCtx::new(caller, k));
    if let Some(c) = &ctx {
        if let Some(r) = c.lookup(svc.store.as_ref(), &svc.seal).await? {
            return Ok(r.into_response());
        }
    }
    match op(ctx.clone()).await {
        Ok(r) => Ok(r.into_response()),
        // Another request with this key may have committed while this one ran (it then
        // finds the hand moved on, the table busy, or the key taken): answer what that
        // one answered.
        Err(e) => {
            if let Some(c) = &ctx {
                if let Ok(Some(r)) = c.lookup(svc.store.as_ref(), &svc.seal).await {
                    return Ok(r.into_response());
                }
            }
            Err(e)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reply recorded and replayed keeps its status and its body's bytes; a reply
    /// recorded before the body was kept serialized (a `Value`, keys sorted) replays as
    /// it was; a record without a body or with no valid status is an internal error.
    #[test]
    fn a_recorded_reply_replays_as_recorded() {
        let fresh = Reply::new(
            StatusCode::CREATED,
            json!({"hand_id": "h_1", "events": [{"seq": 0}], "next_seq": 1}),
        )
        .unwrap();
        let again = Reply::replayed(&fresh.recorded().unwrap()).unwrap();
        assert_eq!(again.status, StatusCode::CREATED);
        assert_eq!(again.body.get(), fresh.body.get());
        assert!(again.replayed && !fresh.replayed);

        let old = br#"{"body":{"a":1,"b":[true,null]},"status":200}"#;
        let old = Reply::replayed(old).unwrap();
        assert_eq!(
            (old.status, old.body.get()),
            (StatusCode::OK, r#"{"a":1,"b":[true,null]}"#)
        );

        for bad in [
            &br#"{"status":200}"#[..],
            br#"{"status":1000,"body":{}}"#,
            b"[]",
        ] {
            let e = Reply::replayed(bad).expect_err("not a recorded reply");
            assert_eq!(e.code, Code::Internal, "{}", String::from_utf8_lossy(bad));
        }
    }
}
