//! Verification of a bundle, for anyone.

use actix_web::{web, HttpResponse};
use replayer::verify::{verify_bytes, Options};

use super::errors::{ApiError, ApiResult, Code, Problem};
use super::Raw;
use crate::Service;

/// Verifies a hand bundle (at most 16 MiB) against the service's own public keys. 200
/// with the verdict whether the hand is valid or not; 400 `bundle_unreadable` when the
/// body is not a bundle at all.
#[utoipa::path(post, path = "/v1/verify", operation_id = "verify_bundle", tag = "verify",
    request_body(content = Object, description = "A hand bundle (docs/BUNDLE.md)"),
    responses((status = 200, description = "The verdict: valid, trust, signers, outcome, problem", body = Object),
        (status = 400, body = Problem), (status = 413, body = Problem)))]
pub async fn verify(svc: web::Data<Service>, body: Raw) -> ApiResult<HttpResponse> {
    let opts = Options {
        trusted_keys: svc.keys.public_keys(),
    };
    let verdict = web::block(move || verify_bytes(&body.0, &opts))
        .await
        .map_err(ApiError::internal)?
        .map_err(|e| ApiError::new(Code::BundleUnreadable, e.to_string()))?;
    Ok(HttpResponse::Ok().json(verdict))
}
