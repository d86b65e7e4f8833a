//! History: a club's hands, newest first.

use actix_web::{web, HttpResponse};

use super::errors::{ApiResult, Problem};
use crate::auth::Caller;
use crate::history::{self, HandPage, HistoryQuery};
use crate::Service;

/// Hands, newest first, filtered, paged by an opaque cursor. Times are unix ms.
#[utoipa::path(get, path = "/v1/hands", operation_id = "list_hands", tag = "history",
    params(HistoryQuery),
    responses((status = 200, body = HandPage), (status = 400, body = Problem), (status = 401, body = Problem)),
    security(("bearer" = [])))]
pub async fn list(
    svc: web::Data<Service>,
    caller: Caller,
    q: web::Query<HistoryQuery>,
) -> ApiResult<HttpResponse> {
    Ok(HttpResponse::Ok().json(history::list(&svc, &caller, q.into_inner()).await?))
}
