//! Clubs and their API keys. A key's secret is shown once, when it is made; the store
//! keeps only its SHA-256.

use actix_web::http::StatusCode;
use serde::Serialize;
use utoipa::ToSchema;

use crate::api::errors::{ApiError, ApiResult, Code};
use crate::auth::{
    is_club_id, new_token, random_id, token_from, Caller, NewToken, API_KEY_PREFIX, CLUB_PREFIX,
};
use crate::idempotency::{IdemCtx, Reply};
use crate::names::display_name;
use crate::store::{ApiKeyRow, ClubRow, KeyRole, Store, StoreError};
use crate::{now_ms, Service};

/// Longest club name.
pub const MAX_NAME_LEN: usize = 100;

/// A new club with its first admin key.
#[derive(Debug, Serialize)]
pub struct NewClub {
    /// The club's id.
    pub club_id: String,
    /// Its name.
    pub name: String,
    /// The admin key's id.
    pub key_id: String,
    /// The admin key `ak_<club id>_<key id>_<secret>`: printed once.
    pub admin_key: String,
}

/// A new API key.
#[derive(Debug, Serialize, ToSchema)]
pub struct NewKey {
    /// The club.
    pub club_id: String,
    /// The key's id.
    pub key_id: String,
    /// `admin` or `auditor`.
    pub role: String,
    /// The key `ak_<club id>_<key id>_<secret>`: shown only in this response.
    pub api_key: String,
}

fn now() -> i64 {
    i64::try_from(now_ms()).unwrap_or(i64::MAX)
}

/// Creates a club and its admin key. The name is a display name ([`crate::names`]).
pub async fn create_club(store: &dyn Store, name: &str) -> ApiResult<NewClub> {
    let name = display_name(name, MAX_NAME_LEN).map_err(|e| ApiError::invalid_name("name", &e))?;
    let club = ClubRow {
        club_id: random_id(CLUB_PREFIX)?,
        name,
        created_ms: now(),
    };
    let key = new_token(API_KEY_PREFIX, &club.club_id)?;
    let row = key_row(&club.club_id, &key, KeyRole::Admin);
    store.create_club(&club, &row).await?;
    Ok(NewClub {
        club_id: club.club_id,
        name: club.name,
        key_id: key.id,
        admin_key: key.token,
    })
}

fn key_row(club_id: &str, key: &NewToken, role: KeyRole) -> ApiKeyRow {
    ApiKeyRow {
        club_id: club_id.to_string(),
        key_id: key.id.clone(),
        key_hash: key.hash.clone(),
        role,
        created_ms: now(),
    }
}

fn new_key(club_id: &str, key: NewToken, role: KeyRole) -> NewKey {
    NewKey {
        club_id: club_id.to_string(),
        key_id: key.id,
        role: role.as_str().to_string(),
        api_key: key.token,
    }
}

/// Adds an API key to a club (the CLI's `club add-key`).
pub async fn add_key(store: &dyn Store, club_id: &str, role: KeyRole) -> ApiResult<NewKey> {
    if !is_club_id(club_id) {
        // No club has such an id: the store would say the same.
        return Err(StoreError::NotFound("club").into());
    }
    let key = new_token(API_KEY_PREFIX, club_id)?;
    store.add_api_key(&key_row(club_id, &key, role)).await?;
    Ok(new_key(club_id, key, role))
}

/// `POST /v1/keys/auditor`: an admin adds an auditor key.
///
/// With an `Idempotency-Key`, the key's id and secret are derived from it (a keyed PRF
/// under the seal key, over the club, the scoped idempotency key and the request's
/// fingerprint), so a retry makes the very same key: it finds the key already stored and
/// answers it again; the same idempotency key with another request derives another
/// secret and is refused. Nothing but the key's hash is stored.
pub async fn add_auditor_key(
    svc: &Service,
    caller: &Caller,
    idem: Option<IdemCtx>,
) -> ApiResult<Reply> {
    caller.require_admin()?;
    let role = KeyRole::Auditor;
    let Some(ctx) = idem else {
        let k = add_key(svc.store.as_ref(), &caller.club_id, role).await?;
        return Reply::new(StatusCode::CREATED, k);
    };
    let scope = format!("{}\u{0}{}", ctx.club_id, ctx.key);
    let id = svc.seal.prf("auditor-key-id", scope.as_bytes());
    let secret = svc.seal.prf(
        "auditor-key-secret",
        format!("{scope}\u{0}{}", ctx.request_hash).as_bytes(),
    );
    let key = token_from(
        API_KEY_PREFIX,
        &caller.club_id,
        id.get(..8).unwrap_or(&id),
        &secret,
    )?;
    match svc
        .store
        .add_api_key(&key_row(&caller.club_id, &key, role))
        .await
    {
        Ok(()) => Reply::new(StatusCode::CREATED, new_key(&caller.club_id, key, role)),
        Err(StoreError::Duplicate(_)) => {
            let same = svc
                .store
                .find_api_key(&caller.club_id, &key.id)
                .await?
                .is_some_and(|r| r.key_hash == key.hash);
            if !same {
                return Err(ApiError::new(
                    Code::IdempotencyKeyReused,
                    "this Idempotency-Key was already used for a different request",
                ));
            }
            let mut r = Reply::new(StatusCode::CREATED, new_key(&caller.club_id, key, role))?;
            r.replayed = true;
            Ok(r)
        }
        Err(e) => Err(e.into()),
    }
}
