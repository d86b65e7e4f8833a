//! The HTTP API under `/v1`: one module per resource, each handler short and calling the
//! domain. This module builds the application: routes, body and query extractors with
//! their limits, the metrics and access-log middleware, and problem+json for every error
//! (unknown routes included).

pub mod clubs;
pub mod disputes;
pub mod errors;
pub mod hands;
pub mod health;
pub mod history;
pub mod log;
pub mod openapi;
pub mod page_error;
pub mod shares;
pub mod strict;
pub mod tables;
pub mod verify;
pub mod viewer;

use std::borrow::Cow;
use std::future::Future;
use std::pin::Pin;
use std::time::Instant;

use actix_web::body::MessageBody;
use actix_web::dev::{Payload, Service as _, ServiceFactory, ServiceRequest, ServiceResponse};
use actix_web::error::QueryPayloadError;
use actix_web::web::{self, Bytes};
use actix_web::{App, FromRequest, HttpRequest, HttpResponse};
use futures_util::future::Either;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::idempotency::IdemKey;
use crate::limits::BodyLimits;
use crate::metrics::UNMATCHED_ROUTE;
use crate::Service;
use errors::{ApiError, ApiResult, Code};

/// Largest JSON body.
pub const JSON_LIMIT: usize = 64 * 1024;
/// Largest bundle accepted by `POST /v1/verify`.
pub const BUNDLE_LIMIT: usize = 16 * 1024 * 1024;

/// The largest body a route takes (app data; [`JSON_LIMIT`] where a route sets none).
#[derive(Clone, Copy, Debug)]
pub struct BodyLimit(pub usize);

/// Reads the request's body under the server's [`BodyLimits`]: room for a large body is
/// taken (or `503 busy` answered) before anything is read, then the body is read as it
/// arrives within the deadline.
fn read_body(
    req: &HttpRequest,
    payload: &mut Payload,
) -> impl Future<Output = ApiResult<Bytes>> + 'static {
    let limits = req.app_data::<BodyLimits>().cloned().unwrap_or_default();
    let limit = req.app_data::<BodyLimit>().map_or(JSON_LIMIT, |l| l.0);
    let room = limits.admit(req, limit);
    let mut payload = payload.take();
    async move {
        let _room = room?;
        limits.read(&mut payload, limit).await
    }
}

/// The raw body, within the route's limit.
pub struct Raw(pub Bytes);

impl FromRequest for Raw {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = ApiResult<Raw>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let fut = read_body(req, payload);
        Box::pin(async move { fut.await.map(Raw) })
    }
}

/// A JSON object body (at most 64 KiB; an empty body reads as `{}`) with the request's
/// `Idempotency-Key`. Anything else (an array, a string, …) is `400 invalid_json`, and so
/// is an array where a nested object is expected ([`strict`]).
pub struct Post<T> {
    /// The body.
    pub body: T,
    /// The idempotency key and the request's fingerprint.
    pub idem: Option<IdemKey>,
}

impl<T: DeserializeOwned + 'static> FromRequest for Post<T> {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = ApiResult<Post<T>>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let fut = read_body(req, payload);
        // The credentials are checked before anything about the body is said.
        let gate = crate::auth::Gate::of(req);
        let header = req
            .headers()
            .get("Idempotency-Key")
            .map(|v| v.to_str().map(str::to_string));
        let method = req.method().as_str().to_string();
        let path = req.path().to_string();
        Box::pin(async move {
            let read = async move {
                let bytes = fut.await?;
                read_post(&bytes, header, &method, &path)
            };
            match read.await {
                Ok(post) => Ok(post),
                Err(e) => Err(gate.first(e).await),
            }
        })
    }
}

/// A body's JSON read as [`Post`] takes it: an object (empty body: `{}`), no member twice
/// in an object at any depth, no NUL, then the Idempotency-Key and the struct.
fn read_post<T: DeserializeOwned>(
    bytes: &[u8],
    header: Option<Result<String, actix_web::http::header::ToStrError>>,
    method: &str,
    path: &str,
) -> ApiResult<Post<T>> {
    {
        let value: Value = if bytes.iter().all(u8::is_ascii_whitespace) {
            Value::Object(serde_json::Map::new())
        } else {
            strict::parse_unique(bytes)
                .map_err(|e| ApiError::new(Code::InvalidJson, format!("not JSON: {e}")))?
        };
        if !value.is_object() {
            return Err(ApiError::new(
                Code::InvalidJson,
                "the body must be a JSON object",
            ));
        }
        if crate::has_nul(&value) {
            return Err(ApiError::new(
                Code::InvalidJson,
                "strings may not contain the NUL character",
            ));
        }
        let header = match header {
            None => None,
            Some(Ok(h)) => Some(h),
            Some(Err(_)) => {
                return Err(ApiError::new(
                    Code::InvalidIdempotencyKey,
                    "Idempotency-Key must be visible ASCII",
                ))
            }
        };
        let idem = IdemKey::parse(header.as_deref(), method, path, &value)?;
        let body = strict::from_value(&value)
            .map_err(|e| ApiError::new(Code::InvalidJson, e.to_string()))?;
        Ok(Post { body, idem })
    }
}

/// An empty JSON object body (`{}` or nothing).
#[derive(Debug, Default, serde::Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Empty {}

/// No route: problem+json, except for a browser asking for a page outside the API
/// (`Accept: text/html`, a path not under `/v1`), which gets a page saying so.
async fn not_found(req: HttpRequest) -> ApiResult<HttpResponse> {
    let path = req.path();
    let api = path == "/v1" || path.starts_with("/v1/");
    if !api && page_error::wants_html(&req) {
        return Ok(page_error::page(
            page_error::PageProblem::NoSuchPage,
            page_error::PageKind::None,
        ));
    }
    Err(ApiError::new(Code::NotFound, "no such route"))
}

async fn method_not_allowed() -> ApiResult<HttpResponse> {
    Err(ApiError::new(
        Code::MethodNotAllowed,
        "this route does not take this method",
    ))
}

/// A query string that the route's query struct (`deny_unknown_fields`) refused, as a
/// problem naming the parameter: `unknown query parameter `x`, expected one of …`.
fn query_error(e: &QueryPayloadError) -> ApiError {
    let QueryPayloadError::Deserialize(e) = e else {
        return ApiError::new(Code::InvalidQuery, "the query string could not be read");
    };
    let text = e.to_string();
    // serde's wording for an unknown member: "unknown field `x`, expected …".
    let unknown = text
        .strip_prefix("unknown field `")
        .and_then(|rest| rest.split_once('`'));
    match unknown {
        Some((name, rest)) => {
            let rest = match rest {
                ", there are no fields" => ": this route takes no query parameters",
                expected => expected,
            };
            ApiError::new(
                Code::InvalidQuery,
                format!("unknown query parameter `{}`{rest}", clip(name, 64)),
            )
            .with("parameter", clip(name, 64).into_owned())
        }
        None => ApiError::new(Code::InvalidQuery, clip(&text, 300).into_owned()),
    }
}

/// A resource whose unmatched methods answer 405 as problem+json.
fn bare_resource(path: &str) -> actix_web::Resource {
    web::resource(path).default_service(web::to(method_not_allowed))
}

/// A resource whose unmatched methods answer 405 as problem+json, for a route that takes
/// a query: its handler reads it with `web::Query` of a `deny_unknown_fields` struct. A
/// request with a query is authenticated first (the caller is kept for the handler), so
/// that a caller without credentials learns `401`, never what is wrong with the query.
fn resource_with_query(
    path: &str,
) -> actix_web::Resource<
    impl ServiceFactory<
        ServiceRequest,
        Config = (),
        Response = ServiceResponse,
        Error = actix_web::Error,
        InitError = (),
    >,
> {
    bare_resource(path).wrap(actix_web::middleware::from_fn(gate_query))
}

/// [`resource_with_query`]'s gate: a request with a query to a route that authenticates is
/// authenticated before its handler reads the query.
async fn gate_query(
    req: ServiceRequest,
    next: actix_web::middleware::Next<actix_web::body::BoxBody>,
) -> Result<ServiceResponse, actix_web::Error> {
    if req.query_string().is_empty() || crate::auth::is_public(req.path()) {
        return next.call(req).await;
    }
    match crate::auth::Gate::of(req.request()).caller().await {
        Ok(caller) => {
            if let Some(caller) = caller {
                actix_web::HttpMessage::extensions_mut(&req).insert(caller);
            }
            next.call(req).await
        }
        Err(e) => Ok(req.error_response(e)),
    }
}

/// A resource whose unmatched methods answer 405 as problem+json, for a route that takes
/// no query parameter: any is `400 invalid_query`.
fn resource(
    path: &str,
) -> actix_web::Resource<
    impl ServiceFactory<
        ServiceRequest,
        Config = (),
        Response = ServiceResponse,
        Error = actix_web::Error,
        InitError = (),
    >,
> {
    bare_resource(path).wrap_fn(|req, srv| {
        match web::Query::<Empty>::from_query(req.query_string()) {
            Ok(_) => Either::Left(srv.call(req)),
            Err(e) => {
                // The credentials first: a caller without them learns `401` only.
                let gate = crate::auth::Gate::of(req.request());
                let err = query_error(&e);
                Either::Right(Box::pin(async move {
                    let err = gate.first(err).await;
                    Ok(req.error_response(err))
                }) as Pin<Box<dyn Future<Output = _>>>)
            }
        }
    })
}

/// Every route.
///
/// actix matches a request against the routes of a scope in the order they are listed, and
/// each route with a `{parameter}` is a regular expression run on the path: with the
/// hands' routes last, an action went through ten of them, about a tenth of the service's
/// CPU under load (ops/README.md, fifth round). So the routes of a game in play come first,
/// the busiest first. No two routes match the same path (a parameter never matches a `/`),
/// so the order changes nothing else. The router runs them with the `regex` crate (actix-web's
/// `unicode` feature) rather than `regex-lite`, whose backtracking-free but automaton-less
/// matcher was still 4.7% of the service's CPU at 32 tables (0.8% now; seventh round).
pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.service(resource("/healthz").route(web::get().to(health::healthz)))
        .service(resource("/readyz").route(web::get().to(health::readyz)))
        .service(resource("/metrics").route(web::get().to(health::metrics)))
        .service(
            web::scope("/v1")
                // A game in play: a seat's action and its legal actions, the hand, client
                // seeds, deals, the next hand.
                .service(resource("/hands/{hand_id}/actions").route(web::post().to(hands::act)))
                .service(
                    resource("/hands/{hand_id}/legal-actions")
                        .route(web::get().to(hands::legal_actions)),
                )
                .service(resource("/hands/{hand_id}").route(web::get().to(hands::get)))
                .service(resource("/hands/{hand_id}/entropy").route(web::post().to(hands::entropy)))
                .service(resource("/hands/{hand_id}/deal").route(web::post().to(hands::deal)))
                .service(resource("/tables/{table_id}/hands").route(web::post().to(hands::start)))
                .service(
                    resource_with_query("/hands/{hand_id}/events")
                        .route(web::get().to(hands::events)),
                )
                .service(resource("/openapi.json").route(web::get().to(openapi::spec)))
                .service(resource("/keys").route(web::get().to(clubs::keys)))
                .service(resource("/keys/auditor").route(web::post().to(clubs::add_auditor)))
                .service(resource("/me").route(web::get().to(clubs::me)))
                .service(
                    resource("/tables")
                        .route(web::get().to(tables::list))
                        .route(web::post().to(tables::create)),
                )
                .service(resource("/tables/{table_id}").route(web::get().to(tables::get)))
                .service(
                    resource("/tables/{table_id}/scoreboard")
                        .route(web::get().to(tables::scoreboard)),
                )
                .service(
                    resource("/tables/{table_id}/bundle").route(web::get().to(tables::match_file)),
                )
                .service(
                    resource("/tables/{table_id}/seed-chain")
                        .route(web::post().to(tables::renew_seed_chain)),
                )
                .service(resource_with_query("/hands").route(web::get().to(history::list)))
                .service(resource("/hands/{hand_id}/abandon").route(web::post().to(hands::abandon)))
                .service(
                    resource("/hands/{hand_id}/quarantine")
                        .route(web::post().to(hands::quarantine)),
                )
                .service(
                    resource_with_query("/hands/{hand_id}/replay")
                        .route(web::get().to(hands::replay)),
                )
                .service(resource("/hands/{hand_id}/bundle").route(web::get().to(hands::bundle)))
                .service(
                    resource_with_query("/hands/{hand_id}/replay/steps")
                        .route(web::get().to(hands::replay_steps)),
                )
                .service(resource("/hands/{hand_id}/verify").route(web::get().to(hands::verify)))
                .service(resource("/hands/{hand_id}/share").route(web::post().to(shares::create)))
                .service(resource("/hands/{hand_id}/shares").route(web::get().to(shares::list)))
                .service(
                    resource("/hands/{hand_id}/share/{share_id}")
                        .route(web::delete().to(shares::revoke)),
                )
                .service(
                    resource("/hands/{hand_id}/log-proof").route(web::get().to(log::hand_proof)),
                )
                .service(
                    resource("/clubs/{club_id}/log/checkpoint")
                        .route(web::get().to(log::checkpoint)),
                )
                .service(
                    resource("/clubs/{club_id}/log/checkpoints/{size}")
                        .route(web::get().to(log::checkpoint_at)),
                )
                .service(resource("/clubs/{club_id}/log/key").route(web::get().to(log::key)))
                .service(
                    resource("/clubs/{club_id}/log/tile/{tile:.*}").route(web::get().to(log::tile)),
                )
                .service(
                    resource("/hands/{hand_id}/disputes").route(web::post().to(disputes::open)),
                )
                .service(resource_with_query("/disputes").route(web::get().to(disputes::list)))
                .service(resource("/disputes/{dispute_id}").route(web::get().to(disputes::get)))
                .service(
                    resource("/disputes/{dispute_id}/rulings")
                        .route(web::post().to(disputes::rule)),
                )
                .service(
                    resource_with_query("/disputes/{dispute_id}/report")
                        .route(web::get().to(disputes::report)),
                )
                .service(
                    resource("/officials")
                        .route(web::get().to(disputes::officials))
                        .route(web::post().to(disputes::add_official)),
                )
                .service(
                    resource("/officials/{key_id}/revocation")
                        .route(web::post().to(disputes::revoke_official)),
                )
                .service(
                    resource("/verify")
                        .app_data(BodyLimit(BUNDLE_LIMIT))
                        .route(web::post().to(verify::verify)),
                ),
        )
        // The replay page: a shell with no data, and its assets. After the API, whose
        // paths never match them: its pattern `/hands/{hand_id}` is one more regular
        // expression that every API request was tried against first (0.8% of the
        // service's CPU at 32 tables, eighth round).
        // A page's query is checked by the page itself: a wrong one answers a page for
        // people, not problem+json.
        .service(resource_with_query("/hands/{hand_id}").route(web::get().to(viewer::hand_page)))
        .service(resource_with_query("/viewer/").route(web::get().to(viewer::viewer_page)))
        .service(resource("/viewer/viewer.js").route(web::get().to(viewer::script)))
        .service(resource("/viewer/viewer.css").route(web::get().to(viewer::style)))
        .service(resource("/viewer/page-error.js").route(web::get().to(viewer::error_script)))
        .service(resource("/viewer/page-error.css").route(web::get().to(viewer::error_style)))
        .service(resource_with_query("/favicon.ico").route(web::get().to(viewer::favicon)));
}

/// The application: shared state, limits, error mapping, metrics and access logs, routes.
pub fn app(
    svc: web::Data<Service>,
    limits: BodyLimits,
) -> App<
    impl ServiceFactory<
        ServiceRequest,
        Config = (),
        Response = ServiceResponse<impl MessageBody>,
        Error = actix_web::Error,
        InitError = (),
    >,
> {
    let metrics = svc.metrics.clone();
    App::new()
        .app_data(svc)
        .app_data(limits)
        .app_data(web::QueryConfig::default().error_handler(|e, _| query_error(&e).into()))
        .app_data(
            web::PathConfig::default()
                .error_handler(|e, _| ApiError::new(Code::NotFound, e.to_string()).into()),
        )
        .configure(routes)
        .default_service(web::to(not_found))
        .wrap_fn(move |req, srv| {
            let start = Instant::now();
            // Only the method's first characters are kept: a client may send any token.
            let method = clip(req.method().as_str(), LOGGED_METHOD_CHARS).into_owned();
            let metrics = metrics.clone();
            let fut = srv.call(req);
            async move {
                let mut res = fut.await?;
                // No answer is ever to be sniffed as another type (JSON above all).
                let nosniff = actix_web::http::header::X_CONTENT_TYPE_OPTIONS;
                if !res.headers().contains_key(&nosniff) {
                    res.headers_mut().insert(
                        nosniff,
                        actix_web::http::header::HeaderValue::from_static("nosniff"),
                    );
                }
                let route = res
                    .request()
                    .match_pattern()
                    .unwrap_or_else(|| UNMATCHED_ROUTE.to_string());
                let status = res.status().as_u16();
                let secs = start.elapsed().as_secs_f64();
                metrics.observe_request(&method, &route, status, secs);
                // The route pattern and the error code, never the path's query, a header
                // or a body: no token or secret can reach the log. The method is cut to
                // a few characters.
                let code = res
                    .response()
                    .error()
                    .and_then(|e| e.as_error::<ApiError>())
                    .map_or("", |e| e.code.as_str());
                tracing::info!(
                    method = %method,
                    route = %route,
                    status,
                    code,
                    ms = %format_args!("{:.2}", secs * 1000.0),
                    "request"
                );
                Ok(res)
            }
        })
}

/// How many characters of a request's method an access log line keeps.
const LOGGED_METHOD_CHARS: usize = 24;

/// `s` cut to at most `max` characters (an ellipsis marks a cut), with anything that is
/// not printable ASCII escaped, for a log line that holds what a client sent.
pub fn clip(s: &str, max: usize) -> Cow<'_, str> {
    let printable = |c: char| c.is_ascii_graphic() || c == ' ';
    if s.chars().count() <= max && s.chars().all(printable) {
        return Cow::Borrowed(s);
    }
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i == max {
            out.push('…');
            break;
        }
        if printable(c) {
            out.push(c);
        } else {
            out.extend(c.escape_default());
        }
    }
    Cow::Owned(out)
}
