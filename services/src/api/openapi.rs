//! The OpenAPI description, generated from the handlers' annotations.

use actix_web::HttpResponse;
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};

use super::errors::Problem;
use super::{clubs, hands, health, history, tables, verify, Empty};

/// Adds the bearer scheme.
struct Bearer;

impl Modify for Bearer {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .description(Some(
                        "An API key `ak_<id>_<secret>` (club admin or auditor) or a seat token `st_<id>_<secret>`",
                    ))
                    .build(),
            ),
        );
    }
}

/// The API.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "Persian card-game dealer and referee",
        description = "Provably fair dealing and refereeing: committed shuffles, engine-checked actions, a signed hash-chained event log, hand bundles anyone can verify. See docs/API.md.",
        version = "1"
    ),
    paths(
        health::healthz, health::readyz, health::metrics,
        clubs::keys, clubs::add_auditor, clubs::me,
        tables::create, tables::list, tables::get, tables::scoreboard, tables::match_file,
        hands::start, hands::entropy, hands::deal, hands::act, hands::abandon,
        hands::get, hands::legal_actions, hands::events, hands::replay, hands::bundle,
        history::list,
        verify::verify,
        spec,
    ),
    components(schemas(Problem, Empty)),
    modifiers(&Bearer),
    tags(
        (name = "keys", description = "Signing keys and API keys"),
        (name = "tables", description = "Tables and their matches"),
        (name = "hands", description = "Playing and reading hands"),
        (name = "history", description = "Game history"),
        (name = "verify", description = "Bundle verification"),
        (name = "health", description = "Liveness, readiness, metrics"),
    )
)]
pub struct ApiDoc;

/// `GET /v1/openapi.json`.
#[utoipa::path(get, path = "/v1/openapi.json", tag = "health",
    responses((status = 200, description = "This document")))]
pub async fn spec() -> HttpResponse {
    HttpResponse::Ok().json(ApiDoc::openapi())
}
