//! Tables: create, list, read, scoreboard.

use actix_web::{web, HttpResponse};

use super::errors::{ApiResult, Problem};
use super::Post;
use crate::auth::Caller;
use crate::idempotency::idempotent;
use crate::seed_chains::{self, NewSeedChain, SeedChainView};
use crate::tables::{self, CreateTable, Scoreboard, TableCreated, TableList, TableView};
use crate::Service;

/// Creates a table (admin). Each seat's token is in this answer only.
#[utoipa::path(post, path = "/v1/tables", operation_id = "create_table", tag = "tables",
    request_body = CreateTable,
    params(("Idempotency-Key" = Option<String>, Header, description = "Replays the first answer on retry")),
    responses((status = 201, body = TableCreated), (status = 400, body = Problem),
        (status = 401, body = Problem), (status = 403, body = Problem), (status = 422, body = Problem)),
    security(("bearer" = [])))]
pub async fn create(
    svc: web::Data<Service>,
    caller: Caller,
    req: Post<CreateTable>,
) -> ApiResult<HttpResponse> {
    let Post { body, idem } = req;
    idempotent(&svc, &caller, idem, |idem| {
        tables::create(&svc, &caller, body, idem)
    })
    .await
}

/// The club's tables (a seat token: its own table).
#[utoipa::path(get, path = "/v1/tables", operation_id = "list_tables", tag = "tables",
    responses((status = 200, body = TableList), (status = 401, body = Problem)),
    security(("bearer" = [])))]
pub async fn list(svc: web::Data<Service>, caller: Caller) -> ApiResult<HttpResponse> {
    Ok(HttpResponse::Ok().json(tables::list(&svc, &caller).await?))
}

/// A table, without tokens.
#[utoipa::path(get, path = "/v1/tables/{table_id}", operation_id = "get_table", tag = "tables",
    params(("table_id" = String, Path)),
    responses((status = 200, body = TableView), (status = 401, body = Problem), (status = 404, body = Problem)),
    security(("bearer" = [])))]
pub async fn get(
    svc: web::Data<Service>,
    caller: Caller,
    path: web::Path<String>,
) -> ApiResult<HttpResponse> {
    Ok(HttpResponse::Ok().json(tables::get(&svc, &caller, &path).await?))
}

/// The match scoreboard: finished hands with outcomes, standings, who is next, whether
/// the match is over.
#[utoipa::path(get, path = "/v1/tables/{table_id}/scoreboard", operation_id = "get_scoreboard", tag = "tables",
    params(("table_id" = String, Path)),
    responses((status = 200, body = Scoreboard), (status = 401, body = Problem), (status = 404, body = Problem)),
    security(("bearer" = [])))]
pub async fn scoreboard(
    svc: web::Data<Service>,
    caller: Caller,
    path: web::Path<String>,
) -> ApiResult<HttpResponse> {
    Ok(HttpResponse::Ok().json(tables::scoreboard(&svc, &caller, &path).await?))
}

/// The table's match file (`docs/BUNDLE.md`, "Match files"): every finished hand of its
/// match, in order, each a hand bundle; `replayer verify` checks the chain.
#[utoipa::path(get, path = "/v1/tables/{table_id}/bundle", operation_id = "get_match_file", tag = "tables",
    params(("table_id" = String, Path)),
    responses((status = 200, description = "The match file (docs/match-v1.schema.json)", body = Object),
        (status = 401, body = Problem), (status = 404, body = Problem)),
    security(("bearer" = [])))]
pub async fn match_file(
    svc: web::Data<Service>,
    caller: Caller,
    path: web::Path<String>,
) -> ApiResult<HttpResponse> {
    Ok(HttpResponse::Ok().json(crate::hands::match_file(&svc, &caller, &path).await?))
}

/// Sets a new seed chain (admin) for a table whose chain is used up: its next hands are
/// dealt from the new chain, whose anchor this answer publishes.
#[utoipa::path(post, path = "/v1/tables/{table_id}/seed-chain", operation_id = "renew_seed_chain", tag = "tables",
    params(("table_id" = String, Path),
        ("Idempotency-Key" = Option<String>, Header, description = "Replays the first answer on retry")),
    request_body = NewSeedChain,
    responses((status = 201, body = SeedChainView), (status = 400, body = Problem),
        (status = 401, body = Problem), (status = 403, body = Problem), (status = 404, body = Problem),
        (status = 409, body = Problem), (status = 422, body = Problem)),
    security(("bearer" = [])))]
pub async fn renew_seed_chain(
    svc: web::Data<Service>,
    caller: Caller,
    path: web::Path<String>,
    req: Post<NewSeedChain>,
) -> ApiResult<HttpResponse> {
    let Post { body, idem } = req;
    idempotent(&svc, &caller, idem, |idem| {
        seed_chains::renew(&svc, &caller, &path, body, idem)
    })
    .await
}
