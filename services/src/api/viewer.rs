//! The replay page (`viewer/`, embedded in the binary through `replayer::viewer`): the
//! shell at `/hands/{hand_id}` (anyone may load it: it holds no data), its script and
//! style sheet under `/viewer/`, and `/viewer/` itself, the page that opens a dropped
//! bundle or match file.
//!
//! The page asks the API for the hand with the caller's credential, which it reads from
//! the URL's fragment (`#token=…`, `#share=…`) or from what the user types in: never from
//! a query string, which would reach this server's logs. A strict Content-Security-Policy
//! lets it load its own script and style sheet and talk to this service only.

use std::sync::OnceLock;

use actix_web::http::header;
use actix_web::{web, HttpResponse};
use replayer::viewer;

fn shell() -> &'static str {
    static SHELL: OnceLock<String> = OnceLock::new();
    SHELL.get_or_init(viewer::served_shell)
}

fn page_headers(res: &mut actix_web::HttpResponseBuilder) -> &mut actix_web::HttpResponseBuilder {
    res.insert_header((header::CONTENT_SECURITY_POLICY, viewer::SERVED_CSP))
        .insert_header((header::REFERRER_POLICY, "no-referrer"))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .insert_header(("Cross-Origin-Opener-Policy", "same-origin"))
}

/// The query the page's address may carry: the step to open at (the page reads it
/// itself). Anything else is refused, a credential above all: it goes in the fragment.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PageQuery {
    /// The step to open at.
    pub step: Option<u64>,
}

/// `GET /hands/{hand_id}`: the replay page's shell (the same for every hand: the page
/// reads the hand's id and the step from its own address).
pub async fn hand_page(_query: web::Query<PageQuery>) -> HttpResponse {
    page_headers(&mut HttpResponse::Ok())
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .content_type("text/html; charset=utf-8")
        .body(shell())
}

/// `GET /viewer/viewer.js`.
pub async fn script() -> HttpResponse {
    page_headers(&mut HttpResponse::Ok())
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .content_type("text/javascript; charset=utf-8")
        .body(viewer::VIEWER_JS)
}

/// `GET /viewer/viewer.css`.
pub async fn style() -> HttpResponse {
    page_headers(&mut HttpResponse::Ok())
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .content_type("text/css; charset=utf-8")
        .body(viewer::VIEWER_CSS)
}
