//! Keys: the service's public signing keys, auditor keys, and who the caller is.

use actix_web::{web, HttpResponse};
use serde::Serialize;
use utoipa::ToSchema;

use super::errors::{ApiResult, Problem};
use super::{Empty, Post};
use crate::auth::{Caller, Role};
use crate::clubs::{self, NewKey};
use crate::idempotency::idempotent;
use crate::keys::KeyInfo;
use crate::Service;

/// `GET /v1/keys`.
#[derive(Debug, Serialize, ToSchema)]
pub struct Keys {
    /// The key id new events are signed with.
    pub current: String,
    /// The current key first, then every older key (hands signed by them still verify).
    pub keys: Vec<KeyInfo>,
}

/// `GET /v1/me`.
#[derive(Debug, Serialize, ToSchema)]
pub struct Me {
    /// The caller's club.
    pub club_id: String,
    /// `admin`, `auditor` or `seat`.
    pub role: String,
    /// The key id or seat token id.
    pub id: String,
    /// A seat token's table.
    pub table_id: Option<String>,
    /// A seat token's seat.
    pub seat: Option<u8>,
}

/// The service's public signing keys: trust these when verifying a bundle.
#[utoipa::path(get, path = "/v1/keys", operation_id = "list_signing_keys", tag = "keys",
    responses((status = 200, body = Keys)))]
pub async fn keys(svc: web::Data<Service>) -> HttpResponse {
    HttpResponse::Ok().json(Keys {
        current: svc.keys.current().key_id().0,
        keys: svc.keys.list(),
    })
}

/// Adds an auditor key to the caller's club (admin). The key is shown only in this answer.
#[utoipa::path(post, path = "/v1/keys/auditor", operation_id = "create_auditor_key", tag = "keys",
    request_body(content = Empty, description = "An empty object, or no body"),
    params(("Idempotency-Key" = Option<String>, Header, description = "Replays the same key on retry")),
    responses((status = 201, body = NewKey), (status = 401, body = Problem), (status = 403, body = Problem)),
    security(("bearer" = [])))]
pub async fn add_auditor(
    svc: web::Data<Service>,
    caller: Caller,
    req: Post<Empty>,
) -> ApiResult<HttpResponse> {
    idempotent(&svc, &caller, req.idem, |idem| {
        clubs::add_auditor_key(&svc, &caller, idem)
    })
    .await
}

/// Who the caller is.
#[utoipa::path(get, path = "/v1/me", operation_id = "get_caller", tag = "keys",
    responses((status = 200, body = Me), (status = 401, body = Problem)),
    security(("bearer" = [])))]
pub async fn me(caller: Caller) -> HttpResponse {
    let (role, table_id, seat) = match &caller.role {
        Role::Admin => ("admin", None, None),
        Role::Auditor => ("auditor", None, None),
        Role::Seat { table_id, seat } => ("seat", Some(table_id.clone()), Some(seat.0)),
    };
    HttpResponse::Ok().json(Me {
        club_id: caller.club_id,
        role: role.to_string(),
        id: caller.id,
        table_id,
        seat,
    })
}
