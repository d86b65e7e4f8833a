//! Disputes over finished hands and the officials who rule on them (docs/DISPUTES.md).

use actix_web::http::header;
use actix_web::{web, HttpRequest, HttpResponse};

use super::errors::{ApiError, ApiResult, Code, Problem};
use super::Post;
use crate::auth::Caller;
use crate::disputes::report::{self, Lang, Report, ReportQuery};
use crate::disputes::rulings::{
    self, NewOfficial, NewRevocation, OfficialList, OfficialView, RulingBody,
};
use crate::disputes::{self, DisputePage, DisputeQuery, DisputeView, OpenDispute};
use crate::idempotency::idempotent;
use crate::Service;

/// Opens a dispute on a finished hand: a seat of the hand, the club admin or an auditor.
/// The findings are computed at once and kept with the dispute.
#[utoipa::path(post, path = "/v1/hands/{hand_id}/disputes", operation_id = "open_dispute", tag = "disputes",
    params(("hand_id" = String, Path), ("Idempotency-Key" = Option<String>, Header)),
    request_body = OpenDispute,
    responses((status = 201, body = DisputeView),
        (status = 400, body = Problem, description = "invalid_json, invalid_name (claim)"),
        (status = 401, body = Problem), (status = 403, body = Problem, description = "a seat whose player did not sit in the hand"),
        (status = 404, body = Problem),
        (status = 409, body = Problem, description = "hand_in_progress"),
        (status = 422, body = Problem, description = "invalid_dispute (kind, seq)")),
    security(("bearer" = [])))]
pub async fn open(
    svc: web::Data<Service>,
    caller: Caller,
    path: web::Path<String>,
    req: Post<OpenDispute>,
) -> ApiResult<HttpResponse> {
    let Post { body, idem } = req;
    idempotent(&svc, &caller, idem, |idem| {
        disputes::open(&svc, &caller, &path, body, idem)
    })
    .await
}

/// The club's disputes, newest first (a seat token: the ones it opened).
#[utoipa::path(get, path = "/v1/disputes", operation_id = "list_disputes", tag = "disputes",
    params(DisputeQuery),
    responses((status = 200, body = DisputePage), (status = 400, body = Problem), (status = 401, body = Problem)),
    security(("bearer" = [])))]
pub async fn list(
    svc: web::Data<Service>,
    caller: Caller,
    q: web::Query<DisputeQuery>,
) -> ApiResult<HttpResponse> {
    Ok(HttpResponse::Ok().json(disputes::list(&svc, &caller, q.into_inner()).await?))
}

/// A dispute: its claim, findings, rulings and signed record.
#[utoipa::path(get, path = "/v1/disputes/{dispute_id}", operation_id = "get_dispute", tag = "disputes",
    params(("dispute_id" = String, Path)),
    responses((status = 200, body = DisputeView), (status = 401, body = Problem), (status = 404, body = Problem)),
    security(("bearer" = [])))]
pub async fn get(
    svc: web::Data<Service>,
    caller: Caller,
    path: web::Path<String>,
) -> ApiResult<HttpResponse> {
    Ok(HttpResponse::Ok().json(disputes::get(&svc, &caller, &path).await?))
}

/// Records a club official's signed ruling (admin). It supersedes any earlier ruling,
/// which stays in the dispute's history.
#[utoipa::path(post, path = "/v1/disputes/{dispute_id}/rulings", operation_id = "record_ruling", tag = "disputes",
    params(("dispute_id" = String, Path), ("Idempotency-Key" = Option<String>, Header)),
    request_body = RulingBody,
    responses((status = 201, body = DisputeView),
        (status = 400, body = Problem, description = "invalid_json, invalid_name (reason, official.name)"),
        (status = 403, body = Problem), (status = 404, body = Problem),
        (status = 409, body = Problem, description = "dispute_moved_on"),
        (status = 422, body = Problem, description = "invalid_ruling, unknown_official, official_revoked, bad_official_signature")),
    security(("bearer" = [])))]
pub async fn rule(
    svc: web::Data<Service>,
    caller: Caller,
    path: web::Path<String>,
    req: Post<RulingBody>,
) -> ApiResult<HttpResponse> {
    let Post { body, idem } = req;
    idempotent(&svc, &caller, idem, |idem| {
        rulings::rule(&svc, &caller, &path, body, idem)
    })
    .await
}

/// Whether the request asks for HTML: `format=html`, or no `format` and an `Accept`
/// header naming `text/html`.
fn wants_html(req: &HttpRequest, format: Option<&str>) -> ApiResult<bool> {
    match format {
        Some("html") => Ok(true),
        Some("json") => Ok(false),
        Some(_) => Err(
            ApiError::new(Code::InvalidQuery, "format must be json or html")
                .with("parameter", "format"),
        ),
        None => Ok(req
            .headers()
            .get(header::ACCEPT)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|a| a.to_ascii_lowercase().contains("text/html"))),
    }
}

/// The Content-Security-Policy of the dispute report's HTML page: its one inline style
/// sheet, nothing else; never framed.
pub const REPORT_CSP: &str = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// The dispute's report: the claim, the findings, the rulings and the hand step by step,
/// in English or Persian, as JSON or HTML.
#[utoipa::path(get, path = "/v1/disputes/{dispute_id}/report", operation_id = "get_dispute_report", tag = "disputes",
    params(("dispute_id" = String, Path), ReportQuery),
    responses((status = 200, body = Report, description = "JSON, or with format=html (or Accept: text/html) an HTML page"),
        (status = 400, body = Problem), (status = 401, body = Problem), (status = 404, body = Problem)),
    security(("bearer" = [])))]
pub async fn report(
    svc: web::Data<Service>,
    caller: Caller,
    path: web::Path<String>,
    q: web::Query<ReportQuery>,
    req: HttpRequest,
) -> ApiResult<HttpResponse> {
    let lang = Lang::parse(q.lang.as_deref())?;
    let html = wants_html(&req, q.format.as_deref())?;
    let view = disputes::get(&svc, &caller, &path).await?;
    let r = report::build(&svc, &caller.club_id, &view, lang).await?;
    Ok(if html {
        HttpResponse::Ok()
            .content_type("text/html; charset=utf-8")
            // The page holds what players and officials wrote: it runs no script, loads
            // nothing, is framed by no one and sends no referrer (its address names the
            // dispute).
            .insert_header((header::CONTENT_SECURITY_POLICY, REPORT_CSP))
            .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
            .insert_header((header::X_FRAME_OPTIONS, "DENY"))
            .insert_header((header::REFERRER_POLICY, "no-referrer"))
            .insert_header((header::CACHE_CONTROL, "private, no-store"))
            .body(report::html(&r))
    } else {
        HttpResponse::Ok().json(r)
    })
}

/// Registers a club official's Ed25519 key, with which they sign rulings (admin).
#[utoipa::path(post, path = "/v1/officials", operation_id = "register_official", tag = "disputes",
    params(("Idempotency-Key" = Option<String>, Header)),
    request_body = NewOfficial,
    responses((status = 201, body = OfficialView), (status = 400, body = Problem, description = "invalid_json, invalid_name"),
        (status = 403, body = Problem), (status = 409, body = Problem, description = "official_exists"),
        (status = 422, body = Problem, description = "invalid_official")),
    security(("bearer" = [])))]
pub async fn add_official(
    svc: web::Data<Service>,
    caller: Caller,
    req: Post<NewOfficial>,
) -> ApiResult<HttpResponse> {
    let Post { body, idem } = req;
    idempotent(&svc, &caller, idem, |idem| {
        rulings::register(&svc, &caller, body, idem)
    })
    .await
}

/// Revokes a club official's key (admin): it signs no ruling from then on; the rulings it
/// signed before stand.
#[utoipa::path(post, path = "/v1/officials/{key_id}/revocation", operation_id = "revoke_official", tag = "disputes",
    params(("key_id" = String, Path), ("Idempotency-Key" = Option<String>, Header)),
    request_body = NewRevocation,
    responses((status = 201, body = OfficialView), (status = 400, body = Problem, description = "invalid_json, invalid_name (reason)"),
        (status = 403, body = Problem), (status = 404, body = Problem),
        (status = 409, body = Problem, description = "revocation_exists")),
    security(("bearer" = [])))]
pub async fn revoke_official(
    svc: web::Data<Service>,
    caller: Caller,
    path: web::Path<String>,
    req: Post<NewRevocation>,
) -> ApiResult<HttpResponse> {
    let Post { body, idem } = req;
    idempotent(&svc, &caller, idem, |idem| {
        rulings::revoke(&svc, &caller, &path, body, idem)
    })
    .await
}

/// The club's officials (admin, auditor).
#[utoipa::path(get, path = "/v1/officials", operation_id = "list_officials", tag = "disputes",
    responses((status = 200, body = OfficialList), (status = 401, body = Problem), (status = 403, body = Problem)),
    security(("bearer" = [])))]
pub async fn officials(svc: web::Data<Service>, caller: Caller) -> ApiResult<HttpResponse> {
    Ok(HttpResponse::Ok().json(rulings::list(&svc, &caller).await?))
}
