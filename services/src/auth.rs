//! Who is calling: API keys (club admin, auditor) and seat tokens.
//!
//! Token formats (ids and secrets are lowercase hex, so URL-safe and free of `_`):
//!
//! * API key: `ak_<key id: 16 hex>_<secret: 64 hex>`
//! * seat token: `st_<token id: 16 hex>_<secret: 64 hex>`
//!
//! They are sent as `Authorization: Bearer <token>`. The store holds only
//! `hex(SHA-256(secret))`; the presented secret's hash is compared with it in constant
//! time. A token is never logged.

use std::future::Future;
use std::pin::Pin;

use actix_web::{dev::Payload, http::header, web, FromRequest, HttpRequest};
use replayer::engine::SeatIndex;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use crate::api::errors::{ApiError, ApiResult, Code};
use crate::store::KeyRole;
use crate::Service;

/// Prefix of API keys.
pub const API_KEY_PREFIX: &str = "ak";
/// Prefix of seat tokens.
pub const SEAT_TOKEN_PREFIX: &str = "st";

const ID_BYTES: usize = 8;
const SECRET_BYTES: usize = 32;

/// A freshly made token: shown once to its owner, stored as `id` and `hash`.
#[derive(Clone)]
pub struct NewToken {
    /// The public id.
    pub id: String,
    /// The whole token, `<prefix>_<id>_<secret>`: show once, never store or log.
    pub token: String,
    /// `hex(SHA-256(secret))`, for the store.
    pub hash: String,
}

impl std::fmt::Debug for NewToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "NewToken({})", self.id)
    }
}

fn random_bytes<const N: usize>() -> ApiResult<[u8; N]> {
    let mut b = [0u8; N];
    getrandom::fill(&mut b).map_err(|_| ApiError::internal("os random generator failed"))?;
    Ok(b)
}

/// A random id: `<prefix>_` and 16 hex characters (tables `t`, hands `h`, clubs `c`).
pub fn random_id(prefix: &str) -> ApiResult<String> {
    Ok(format!(
        "{prefix}_{}",
        hex::encode(random_bytes::<ID_BYTES>()?)
    ))
}

/// `hex(SHA-256(secret))`.
pub fn hash_secret(secret: &str) -> String {
    hex::encode(Sha256::digest(secret.as_bytes()))
}

/// A token from its parts.
pub fn token_from(prefix: &str, id_bytes: &[u8], secret_bytes: &[u8]) -> NewToken {
    let id = hex::encode(id_bytes);
    let secret = hex::encode(secret_bytes);
    NewToken {
        token: format!("{prefix}_{id}_{secret}"),
        hash: hash_secret(&secret),
        id,
    }
}

/// A fresh random token.
pub fn new_token(prefix: &str) -> ApiResult<NewToken> {
    Ok(token_from(
        prefix,
        &random_bytes::<ID_BYTES>()?,
        &random_bytes::<SECRET_BYTES>()?,
    ))
}

/// Splits `<prefix>_<id>_<secret>`; `None` unless well formed.
fn parse_token(token: &str) -> Option<(&str, &str, &str)> {
    let mut parts = token.splitn(3, '_');
    let (prefix, id, secret) = (parts.next()?, parts.next()?, parts.next()?);
    let hex_of = |s: &str, n: usize| s.len() == 2 * n && s.bytes().all(|b| b.is_ascii_hexdigit());
    (hex_of(id, ID_BYTES) && hex_of(secret, SECRET_BYTES)).then_some((prefix, id, secret))
}

/// Whether `SHA-256(secret)` equals the stored hex hash, in constant time.
fn secret_matches(secret: &str, stored_hex: &str) -> bool {
    let got = Sha256::digest(secret.as_bytes());
    let mut want = [0u8; 32];
    if hex::decode_to_slice(stored_hex, &mut want).is_err() {
        return false;
    }
    bool::from(got.as_slice().ct_eq(&want))
}

/// What a caller is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Role {
    /// A club admin key.
    Admin,
    /// A read-only auditor key.
    Auditor,
    /// A seat token: one seat of one table.
    Seat {
        /// The table.
        table_id: String,
        /// The seat.
        seat: SeatIndex,
    },
}

/// An authenticated caller.
#[derive(Clone, Debug)]
pub struct Caller {
    /// The caller's club.
    pub club_id: String,
    /// The key id or seat token id.
    pub id: String,
    /// What the caller may do.
    pub role: Role,
}

impl Caller {
    /// 403 unless a club admin.
    pub fn require_admin(&self) -> ApiResult<()> {
        match self.role {
            Role::Admin => Ok(()),
            _ => Err(ApiError::forbidden("this needs the club's admin key")),
        }
    }

    /// 403 for auditors (who only read).
    pub fn require_writer(&self) -> ApiResult<()> {
        match self.role {
            Role::Auditor => Err(ApiError::forbidden("an auditor key is read-only")),
            _ => Ok(()),
        }
    }

    /// The namespace of this caller's idempotency keys.
    pub fn idem_scope(&self) -> String {
        match self.role {
            Role::Seat { .. } => format!("{SEAT_TOKEN_PREFIX}:{}", self.id),
            _ => format!("{API_KEY_PREFIX}:{}", self.id),
        }
    }

    /// The seat, for a seat token.
    pub fn seat(&self) -> Option<(&str, SeatIndex)> {
        match &self.role {
            Role::Seat { table_id, seat } => Some((table_id, *seat)),
            _ => None,
        }
    }

    /// Whether this caller may see anything of `table_id` (admins and auditors: any
    /// table of their club; seats: their own table).
    pub fn sees_table(&self, table_id: &str) -> bool {
        match &self.role {
            Role::Seat { table_id: t, .. } => t == table_id,
            _ => true,
        }
    }
}

/// Resolves a bearer token to a caller; `None` when unknown or wrong.
pub async fn authenticate(svc: &Service, token: &str) -> ApiResult<Option<Caller>> {
    let Some((prefix, id, secret)) = parse_token(token) else {
        return Ok(None);
    };
    // A fixed dummy hash, compared against when the id is unknown, so that unknown and
    // known ids take about as long.
    const DUMMY: &str = "0000000000000000000000000000000000000000000000000000000000000000";
    match prefix {
        API_KEY_PREFIX => {
            let row = svc.store.find_api_key(id).await?;
            let ok = secret_matches(secret, row.as_ref().map_or(DUMMY, |r| r.key_hash.as_str()));
            Ok(row.filter(|_| ok).map(|r| Caller {
                club_id: r.club_id,
                id: r.key_id,
                role: match r.role {
                    KeyRole::Admin => Role::Admin,
                    KeyRole::Auditor => Role::Auditor,
                },
            }))
        }
        SEAT_TOKEN_PREFIX => {
            let row = svc.store.find_seat_by_token(id).await?;
            let ok = secret_matches(
                secret,
                row.as_ref().map_or(DUMMY, |r| r.seat.token_hash.as_str()),
            );
            Ok(row.filter(|_| ok).and_then(|r| {
                Some(Caller {
                    club_id: r.club_id,
                    id: r.seat.token_id,
                    role: Role::Seat {
                        table_id: r.table_id,
                        seat: SeatIndex(u8::try_from(r.seat.seat).ok()?),
                    },
                })
            }))
        }
        _ => Ok(None),
    }
}

fn bearer(req: &HttpRequest) -> Option<String> {
    let v = req.headers().get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = v.trim().split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| token.trim().to_string())
}

impl FromRequest for Caller {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = ApiResult<Caller>>>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let svc = req.app_data::<web::Data<Service>>().cloned();
        let token = bearer(req);
        Box::pin(async move {
            let svc = svc.ok_or_else(|| ApiError::internal("service state missing"))?;
            let token = token.ok_or_else(|| {
                ApiError::new(
                    Code::Unauthorized,
                    "send an API key or seat token as Authorization: Bearer <token>",
                )
            })?;
            authenticate(&svc, &token)
                .await?
                .ok_or_else(|| ApiError::new(Code::Unauthorized, "the token is not valid"))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_parse_and_match() {
        let t = new_token(API_KEY_PREFIX).unwrap();
        let (p, id, secret) = parse_token(&t.token).unwrap();
        assert_eq!(p, "ak");
        assert_eq!(id, t.id);
        assert!(secret_matches(secret, &t.hash));
        assert!(!secret_matches(secret, &hash_secret("other")));
        assert!(parse_token("ak_12_34").is_none());
        assert!(parse_token("nonsense").is_none());
    }
}
