//! Share links of a finished hand (club admin): make, list, revoke.

use actix_web::{web, HttpRequest, HttpResponse};

use super::errors::{ApiError, ApiResult, Problem};
use super::Post;
use crate::auth::Caller;
use crate::idempotency::idempotent;
use crate::shares::{self, ShareCreated, ShareList, ShareRequest, ShareView};
use crate::Service;

/// The address the server is bound to, `http://<ip>:<port>`, set once it is bound
/// (`server::serve`): what a share link names when `--public-base` is not set.
#[derive(Clone, Debug, Default)]
pub struct BoundAddr(pub std::sync::Arc<std::sync::OnceLock<String>>);

/// Where the service's pages are reached, for a link: `--public-base` (scheme-less, the
/// API root: `cards.example.org/v1` gives `https://cards.example.org`) once it is set,
/// else the address the server is bound to (`http://127.0.0.1:8080`). Never a request's
/// `Host` or `X-Forwarded-Host`, which the client chooses: a link made from them could
/// send a player, with the share's token, to any host (issue 29).
fn page_base(svc: &Service, req: &HttpRequest) -> ApiResult<String> {
    if svc.log_base != crate::clublog::DEFAULT_PUBLIC_BASE {
        let base = svc.log_base.trim_end_matches('/');
        let base = base.strip_suffix("/v1").unwrap_or(base);
        if base.starts_with("http://") || base.starts_with("https://") {
            return Ok(base.to_string());
        }
        return Ok(format!("https://{base}"));
    }
    req.app_data::<BoundAddr>()
        .and_then(|b| b.0.get().cloned())
        .ok_or_else(|| ApiError::internal("share link: neither --public-base nor a bound address"))
}

/// Makes a read-only, expiring link to a finished hand's replay page (admin).
#[utoipa::path(post, path = "/v1/hands/{hand_id}/share", operation_id = "share_hand", tag = "hands",
    params(("hand_id" = String, Path), ("Idempotency-Key" = Option<String>, Header)),
    request_body = ShareRequest,
    responses((status = 201, body = ShareCreated), (status = 401, body = Problem), (status = 403, body = Problem),
        (status = 404, body = Problem), (status = 409, body = Problem, description = "hand_in_progress, hand_quarantined"),
        (status = 422, body = Problem, description = "invalid_share")),
    security(("bearer" = [])))]
pub async fn create(
    svc: web::Data<Service>,
    caller: Caller,
    path: web::Path<String>,
    http: HttpRequest,
    req: Post<ShareRequest>,
) -> ApiResult<HttpResponse> {
    let Post { body, idem } = req;
    let base = page_base(&svc, &http)?;
    idempotent(&svc, &caller, idem, |idem| {
        shares::create(&svc, &caller, &path, &body, &base, idem)
    })
    .await
}

/// The hand's share links, newest first (admin; never their tokens).
#[utoipa::path(get, path = "/v1/hands/{hand_id}/shares", operation_id = "list_hand_shares", tag = "hands",
    params(("hand_id" = String, Path)),
    responses((status = 200, body = ShareList), (status = 401, body = Problem), (status = 403, body = Problem),
        (status = 404, body = Problem)),
    security(("bearer" = [])))]
pub async fn list(
    svc: web::Data<Service>,
    caller: Caller,
    path: web::Path<String>,
) -> ApiResult<HttpResponse> {
    Ok(HttpResponse::Ok().json(shares::list(&svc, &caller, &path).await?))
}

/// Revokes a share link at once (admin); revoking it again changes nothing.
#[utoipa::path(delete, path = "/v1/hands/{hand_id}/share/{share_id}", operation_id = "revoke_hand_share", tag = "hands",
    params(("hand_id" = String, Path), ("share_id" = String, Path)),
    responses((status = 200, body = ShareView), (status = 401, body = Problem), (status = 403, body = Problem),
        (status = 404, body = Problem)),
    security(("bearer" = [])))]
pub async fn revoke(
    svc: web::Data<Service>,
    caller: Caller,
    path: web::Path<(String, String)>,
) -> ApiResult<HttpResponse> {
    let (hand, share) = path.into_inner();
    Ok(HttpResponse::Ok().json(shares::revoke(&svc, &caller, &hand, &share).await?))
}
