//! The OpenAPI description, generated from the handlers' annotations.

use actix_web::HttpResponse;
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};

use super::errors::Problem;
use super::{clubs, disputes, hands, health, history, log, shares, tables, verify, Empty};

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
                        "An API key `ak_<club id>_<key id>_<secret>` (club admin or auditor), a seat token `st_<club id>_<token id>_<secret>`, or a share link's token `sh_<club id>_<share id>_<secret>` (one finished hand's GET routes only)",
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
        tables::renew_seed_chain,
        hands::start, hands::entropy, hands::deal, hands::act, hands::abandon, hands::quarantine,
        hands::get, hands::legal_actions, hands::events, hands::replay, hands::bundle,
        hands::replay_steps, hands::verify, shares::create, shares::list, shares::revoke,
        log::checkpoint, log::checkpoint_at, log::key, log::tile, log::hand_proof,
        history::list,
        disputes::open, disputes::list, disputes::get, disputes::rule, disputes::report,
        disputes::add_official, disputes::officials, disputes::revoke_official,
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
        (name = "log", description = "The clubs' transparency logs (C2SP tlog-tiles) and hands' log proofs"),
        (name = "disputes", description = "Disputes over finished hands, their findings, rulings and reports"),
        (name = "verify", description = "Bundle verification"),
        (name = "health", description = "Liveness, readiness, metrics"),
    )
)]
pub struct ApiDoc;

/// `GET /v1/openapi.json`.
#[utoipa::path(get, path = "/v1/openapi.json", operation_id = "get_openapi", tag = "health",
    responses((status = 200, description = "This document")))]
pub async fn spec() -> HttpResponse {
    HttpResponse::Ok().json(ApiDoc::openapi())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// OpenAPI requires operation ids to be unique; utoipa's default (the handler's
    /// function name) gave `list` and `get` twice.
    #[test]
    fn operation_ids_are_unique_and_explicit() {
        let doc = serde_json::to_value(ApiDoc::openapi()).unwrap();
        let mut seen = std::collections::BTreeMap::new();
        for (path, item) in doc["paths"].as_object().unwrap() {
            for (method, op) in item.as_object().unwrap() {
                let id = op["operationId"]
                    .as_str()
                    .unwrap_or_else(|| panic!("{method} {path} has no operationId"));
                assert!(
                    id.contains('_'),
                    "{method} {path}: operationId {id:?} is a bare handler name"
                );
                if let Some(other) = seen.insert(id.to_string(), format!("{method} {path}")) {
                    panic!("operationId {id:?} is used by {other} and {method} {path}");
                }
            }
        }
        assert!(seen.len() >= 24, "{seen:?}");
    }
}
