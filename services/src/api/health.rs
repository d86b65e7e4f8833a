//! Liveness, readiness and metrics.

use actix_web::{web, HttpResponse};
use serde_json::json;

use super::errors::{ApiError, ApiResult, Code, Problem};
use crate::Service;

/// The process is up.
#[utoipa::path(get, path = "/healthz", operation_id = "get_health", tag = "health",
    responses((status = 200, description = "`{\"status\": \"ok\"}`")))]
pub async fn healthz() -> HttpResponse {
    HttpResponse::Ok().json(json!({ "status": "ok" }))
}

/// The store answers (503 when it does not).
#[utoipa::path(get, path = "/readyz", operation_id = "get_readiness", tag = "health",
    responses((status = 200, description = "`{\"status\": \"ready\"}`"), (status = 503, body = Problem)))]
pub async fn readyz(svc: web::Data<Service>) -> ApiResult<HttpResponse> {
    match svc.store.ping().await {
        Ok(()) => Ok(HttpResponse::Ok().json(json!({ "status": "ready" }))),
        Err(e) => {
            tracing::warn!(cause = %e, "not ready");
            Err(ApiError::new(
                Code::Unavailable,
                "the store does not answer",
            ))
        }
    }
}

/// Prometheus metrics (text exposition format).
#[utoipa::path(get, path = "/metrics", operation_id = "get_metrics", tag = "health",
    responses((status = 200, description = "Prometheus text", content_type = "text/plain")))]
pub async fn metrics(svc: web::Data<Service>) -> HttpResponse {
    svc.store.refresh_metrics().await;
    HttpResponse::Ok()
        .content_type("text/plain; version=0.0.4")
        .body(svc.metrics.render())
}
