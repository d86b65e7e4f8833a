//! Hands: start, entropy, deal, actions, abandon; the hand, its legal actions, events,
//! replay and bundle.

use actix_web::{web, HttpResponse};
use replayer::shuffle::ClientSeed;
use serde::Deserialize;
use utoipa::IntoParams;

use super::errors::{ApiError, ApiResult, Code, Problem};
use super::Post;
use crate::auth::{Caller, Reader};
use crate::hands::{
    self, AbandonRequest, ActionRequest, Appended, DealRequest, EntropyRequest, EventsPage,
    HandAnswer, HandStarted, LegalActions, Op, QuarantineBody, QuarantinedHand, ReplaySteps,
    ReplayView,
};
use crate::idempotency::idempotent;
use crate::Service;

/// Default and largest page of `GET …/events`.
const EVENTS_DEFAULT: i64 = 100;
const EVENTS_MAX: i64 = 1000;

/// `GET /v1/hands/{hand_id}/events` query.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct EventsQuery {
    /// First seq (default 0).
    pub from: Option<u64>,
    /// Most events (1 to 1000, default 100).
    pub limit: Option<u64>,
}

/// `GET /v1/hands/{hand_id}/replay/steps` query.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct StepsQuery {
    /// First step (default 0).
    pub from: Option<u64>,
    /// Most steps (1 to 1000, default 1000).
    pub limit: Option<u64>,
}

/// `GET /v1/hands/{hand_id}/replay` query.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ReplayQuery {
    /// The event to stop after (default: the last).
    pub step: Option<u64>,
}

/// Starts the next hand of the table's match (admin).
#[utoipa::path(post, path = "/v1/tables/{table_id}/hands", operation_id = "start_hand", tag = "hands",
    params(("table_id" = String, Path),
        ("Idempotency-Key" = Option<String>, Header, description = "Replays the first answer on retry")),
    request_body(content = super::Empty, description = "An empty object, or no body"),
    responses((status = 201, body = HandStarted), (status = 401, body = Problem), (status = 403, body = Problem),
        (status = 404, body = Problem), (status = 409, body = Problem, description = "hand_in_progress, match_over")),
    security(("bearer" = [])))]
pub async fn start(
    svc: web::Data<Service>,
    caller: Caller,
    path: web::Path<String>,
    req: Post<super::Empty>,
) -> ApiResult<HttpResponse> {
    idempotent(&svc, &caller, req.idem, |idem| {
        hands::start(&svc, &caller, &path, idem)
    })
    .await
}

/// A seat adds its client seed to the next shuffle (seat token).
#[utoipa::path(post, path = "/v1/hands/{hand_id}/entropy", operation_id = "add_client_seed", tag = "hands",
    params(("hand_id" = String, Path), ("Idempotency-Key" = Option<String>, Header)),
    request_body = EntropyRequest,
    responses((status = 200, body = Appended), (status = 403, body = Problem), (status = 404, body = Problem),
        (status = 409, body = Problem), (status = 422, body = Problem)),
    security(("bearer" = [])))]
pub async fn entropy(
    svc: web::Data<Service>,
    caller: Caller,
    path: web::Path<String>,
    req: Post<EntropyRequest>,
) -> ApiResult<HttpResponse> {
    let Post { body, idem } = req;
    let seed = ClientSeed::from_hex(&body.seed)
        .map_err(|e| ApiError::new(Code::InvalidSeed, e.to_string()))?;
    idempotent(&svc, &caller, idem, |idem| {
        hands::mutate(
            &svc,
            &caller,
            &path,
            body.expected_seq,
            Op::Entropy(seed),
            idem,
        )
    })
    .await
}

/// Uses the pending committed shuffle now, with the client seeds given so far (admin or
/// a seat of the table).
#[utoipa::path(post, path = "/v1/hands/{hand_id}/deal", operation_id = "deal_pending_shuffle", tag = "hands",
    params(("hand_id" = String, Path), ("Idempotency-Key" = Option<String>, Header)),
    request_body = DealRequest,
    responses((status = 200, body = Appended), (status = 404, body = Problem),
        (status = 409, body = Problem, description = "no_shuffle_pending, seq_conflict, hand_over")),
    security(("bearer" = [])))]
pub async fn deal(
    svc: web::Data<Service>,
    caller: Caller,
    path: web::Path<String>,
    req: Post<DealRequest>,
) -> ApiResult<HttpResponse> {
    let Post { body, idem } = req;
    idempotent(&svc, &caller, idem, |idem| {
        hands::mutate(&svc, &caller, &path, body.expected_seq, Op::Deal, idem)
    })
    .await
}

/// An action: a seat token acts for its seat, the admin key for the service.
#[utoipa::path(post, path = "/v1/hands/{hand_id}/actions", operation_id = "submit_action", tag = "hands",
    params(("hand_id" = String, Path), ("Idempotency-Key" = Option<String>, Header)),
    request_body = ActionRequest,
    responses((status = 200, body = Appended), (status = 403, body = Problem), (status = 404, body = Problem),
        (status = 409, body = Problem, description = "seq_conflict, hand_over"),
        (status = 422, body = Problem, description = "illegal_action (with rule and section), bad_player_signature")),
    security(("bearer" = [])))]
pub async fn act(
    svc: web::Data<Service>,
    caller: Caller,
    path: web::Path<String>,
    req: Post<ActionRequest>,
) -> ApiResult<HttpResponse> {
    let Post { body, idem } = req;
    let op = Op::Act {
        action: body.action,
        player_sig: body.player_sig,
    };
    idempotent(&svc, &caller, idem, |idem| {
        hands::mutate(&svc, &caller, &path, body.expected_seq, op, idem)
    })
    .await
}

/// Abandons the hand (admin); its seeds are revealed all the same.
#[utoipa::path(post, path = "/v1/hands/{hand_id}/abandon", operation_id = "abandon_hand", tag = "hands",
    params(("hand_id" = String, Path), ("Idempotency-Key" = Option<String>, Header)),
    request_body = AbandonRequest,
    responses((status = 200, body = Appended), (status = 403, body = Problem), (status = 404, body = Problem),
        (status = 409, body = Problem)),
    security(("bearer" = [])))]
pub async fn abandon(
    svc: web::Data<Service>,
    caller: Caller,
    path: web::Path<String>,
    req: Post<AbandonRequest>,
) -> ApiResult<HttpResponse> {
    let Post { body, idem } = req;
    idempotent(&svc, &caller, idem, |idem| {
        hands::mutate(
            &svc,
            &caller,
            &path,
            body.expected_seq,
            Op::Abandon(body.reason),
            idem,
        )
    })
    .await
}

/// Quarantines a hand whose stored log fails verification (admin): recorded in the hand's
/// row with who, when and why; the table may then start its next hand, which goes on from
/// the hand before the quarantined one.
#[utoipa::path(post, path = "/v1/hands/{hand_id}/quarantine", operation_id = "quarantine_hand", tag = "hands",
    params(("hand_id" = String, Path), ("Idempotency-Key" = Option<String>, Header)),
    request_body = QuarantineBody,
    responses((status = 200, body = QuarantinedHand), (status = 400, body = Problem, description = "invalid_json, invalid_name (reason)"),
        (status = 403, body = Problem), (status = 404, body = Problem),
        (status = 409, body = Problem, description = "hand_not_damaged, hand_not_latest, hand_quarantined")),
    security(("bearer" = [])))]
pub async fn quarantine(
    svc: web::Data<Service>,
    caller: Caller,
    path: web::Path<String>,
    req: Post<QuarantineBody>,
) -> ApiResult<HttpResponse> {
    let Post { body, idem } = req;
    idempotent(&svc, &caller, idem, |idem| {
        hands::quarantine(&svc, &caller, &path, &body.reason, idem)
    })
    .await
}

/// The hand as the caller may see it; a hand whose stored log fails verification is `409
/// hand_damaged`, a quarantined hand is its row and the record of its quarantine.
#[utoipa::path(get, path = "/v1/hands/{hand_id}", operation_id = "get_hand", tag = "hands",
    params(("hand_id" = String, Path)),
    responses((status = 200, body = HandAnswer), (status = 401, body = Problem), (status = 404, body = Problem),
        (status = 409, body = Problem, description = "hand_damaged")),
    security(("bearer" = [])))]
pub async fn get(
    svc: web::Data<Service>,
    Reader(caller): Reader,
    path: web::Path<String>,
) -> ApiResult<HttpResponse> {
    Ok(HttpResponse::Ok().json(hands::detail(&svc, &caller, &path).await?))
}

/// The caller's legal actions now (a seat: its own; the admin: the service's).
#[utoipa::path(get, path = "/v1/hands/{hand_id}/legal-actions", operation_id = "list_legal_actions", tag = "hands",
    params(("hand_id" = String, Path)),
    responses((status = 200, body = LegalActions), (status = 401, body = Problem), (status = 404, body = Problem)),
    security(("bearer" = [])))]
pub async fn legal_actions(
    svc: web::Data<Service>,
    caller: Caller,
    path: web::Path<String>,
) -> ApiResult<HttpResponse> {
    Ok(HttpResponse::Ok().json(hands::legal_actions(&svc, &caller, &path).await?))
}

/// The hand's signed records.
#[utoipa::path(get, path = "/v1/hands/{hand_id}/events", operation_id = "list_hand_events", tag = "hands",
    params(("hand_id" = String, Path), EventsQuery),
    responses((status = 200, body = EventsPage), (status = 400, body = Problem), (status = 404, body = Problem)),
    security(("bearer" = [])))]
pub async fn events(
    svc: web::Data<Service>,
    Reader(caller): Reader,
    path: web::Path<String>,
    q: web::Query<EventsQuery>,
) -> ApiResult<HttpResponse> {
    let from = i64::try_from(q.from.unwrap_or(0))
        .map_err(|_| ApiError::new(Code::InvalidQuery, "from is too large"))?;
    let limit = q
        .limit
        .map_or(Ok(EVENTS_DEFAULT), |l| i64::try_from(l).map_err(|_| ()))
        .ok()
        .filter(|l| (1..=EVENTS_MAX).contains(l))
        .ok_or_else(|| ApiError::new(Code::InvalidQuery, "limit must be 1 to 1000"))?;
    Ok(HttpResponse::Ok().json(hands::events(&svc, &caller, &path, from, limit).await?))
}

/// The table after event `step`, as the caller may see it (everything once the hand is
/// over).
#[utoipa::path(get, path = "/v1/hands/{hand_id}/replay", operation_id = "replay_hand", tag = "hands",
    params(("hand_id" = String, Path), ReplayQuery),
    responses((status = 200, body = ReplayView), (status = 400, body = Problem), (status = 404, body = Problem)),
    security(("bearer" = [])))]
pub async fn replay(
    svc: web::Data<Service>,
    Reader(caller): Reader,
    path: web::Path<String>,
    q: web::Query<ReplayQuery>,
) -> ApiResult<HttpResponse> {
    Ok(HttpResponse::Ok().json(hands::replay(&svc, &caller, &path, q.step).await?))
}

/// The hand bundle (replayer::bundle, docs/BUNDLE.md), once the hand is over.
#[utoipa::path(get, path = "/v1/hands/{hand_id}/bundle", operation_id = "get_hand_bundle", tag = "hands",
    params(("hand_id" = String, Path)),
    responses((status = 200, description = "The bundle: version 2 (docs/bundle-v2.schema.json) with the log proof of its last event once that event is under a signed checkpoint of the club log, else version 1 (docs/bundle-v1.schema.json)", body = Object),
        (status = 404, body = Problem), (status = 409, body = Problem, description = "hand_in_progress, hand_damaged, hand_quarantined")),
    security(("bearer" = [])))]
pub async fn bundle(
    svc: web::Data<Service>,
    Reader(caller): Reader,
    path: web::Path<String>,
) -> ApiResult<HttpResponse> {
    Ok(HttpResponse::Ok().json(hands::bundle(&svc, &caller, &path).await?))
}

/// The table after every event (a page of steps), as the caller may see it: what `replay`
/// answers for each step, in one request (the replay page draws from it).
#[utoipa::path(get, path = "/v1/hands/{hand_id}/replay/steps", operation_id = "replay_hand_steps", tag = "hands",
    params(("hand_id" = String, Path), StepsQuery),
    responses((status = 200, body = ReplaySteps), (status = 400, body = Problem), (status = 401, body = Problem),
        (status = 404, body = Problem), (status = 409, body = Problem, description = "hand_damaged, hand_quarantined")),
    security(("bearer" = [])))]
pub async fn replay_steps(
    svc: web::Data<Service>,
    Reader(caller): Reader,
    path: web::Path<String>,
    q: web::Query<StepsQuery>,
) -> ApiResult<HttpResponse> {
    let limit = q.limit.unwrap_or(hands::STEPS_MAX);
    if !(1..=hands::STEPS_MAX).contains(&limit) {
        return Err(ApiError::new(Code::InvalidQuery, "limit must be 1 to 1000"));
    }
    let from = q.from.unwrap_or(0);
    Ok(HttpResponse::Ok().json(hands::replay_steps(&svc, &caller, &path, from, limit).await?))
}

/// The service's verdict on a finished hand: its bundle verified by the replayer against
/// the service's own public keys, as `POST /v1/verify` answers for it.
#[utoipa::path(get, path = "/v1/hands/{hand_id}/verify", operation_id = "verify_hand", tag = "verify",
    params(("hand_id" = String, Path)),
    responses((status = 200, description = "The verdict: valid, trust, signers, outcome, problem", body = Object),
        (status = 401, body = Problem), (status = 404, body = Problem),
        (status = 409, body = Problem, description = "hand_in_progress, hand_damaged, hand_quarantined")),
    security(("bearer" = [])))]
pub async fn verify(
    svc: web::Data<Service>,
    Reader(caller): Reader,
    path: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let bundle = hands::bundle(&svc, &caller, &path).await?;
    let opts = replayer::verify::Options {
        trusted_keys: svc.keys.public_keys(),
    };
    let verdict = web::block(move || {
        let value = serde_json::to_value(&bundle).map_err(ApiError::internal)?;
        replayer::verify::verify_value(value, &opts).map_err(ApiError::internal)
    })
    .await
    .map_err(ApiError::internal)??;
    Ok(HttpResponse::Ok()
        .insert_header(("Cache-Control", "private, no-store"))
        .json(verdict))
}
