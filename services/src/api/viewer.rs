//! The replay page (`viewer/`, embedded in the binary through `replayer::viewer`): the
//! shell at `/hands/{hand_id}` (anyone may load it: it holds no data), its script and
//! style sheet under `/viewer/`, `/viewer/` itself, the page that opens a dropped bundle
//! or match file, and the service's icon, `/favicon.ico`. An address these pages do not
//! take answers a page for people ([`super::page_error`]), never problem+json.
//!
//! The page asks the API for the hand with the caller's credential, which it reads from
//! the URL's fragment (`#token=…`, `#share=…`) or from what the user types in: never from
//! a query string, which would reach this server's logs. A strict Content-Security-Policy
//! lets it load its own script and style sheet and talk to this service only.

use std::sync::OnceLock;

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse};
use replayer::viewer;

use super::page_error::{self, PageKind};

fn shell() -> &'static str {
    static SHELL: OnceLock<String> = OnceLock::new();
    SHELL.get_or_init(viewer::served_shell)
}

/// The headers of every page and asset: the page's policy, no referrer, no sniffing.
pub(crate) fn page_headers(
    res: &mut actix_web::HttpResponseBuilder,
) -> &mut actix_web::HttpResponseBuilder {
    res.insert_header((header::CONTENT_SECURITY_POLICY, viewer::SERVED_CSP))
        .insert_header((header::REFERRER_POLICY, "no-referrer"))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .insert_header(("Cross-Origin-Opener-Policy", "same-origin"))
}

/// `GET /hands/{hand_id}`: the replay page's shell (the same for every hand: the page
/// reads the hand's id and the step from its own address). The only query it takes is
/// `?step=N`; anything else answers a page that says what was wrong
/// ([`page_error::check_page_query`]), `400`.
pub async fn hand_page(req: HttpRequest) -> HttpResponse {
    shell_or_error(&req, PageKind::Hand)
}

/// `GET /viewer/`: the page with nothing opened (it reads a dropped file).
pub async fn viewer_page(req: HttpRequest) -> HttpResponse {
    shell_or_error(&req, PageKind::Viewer)
}

fn shell_or_error(req: &HttpRequest, kind: PageKind) -> HttpResponse {
    if let Some(problem) = page_error::check_page_query(req.query_string()) {
        return page_error::page(problem, kind);
    }
    page_headers(&mut HttpResponse::Ok())
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .content_type("text/html; charset=utf-8")
        .body(shell())
}

/// The service's icon (a card with a spade, 16 and 32 pixels), for every page.
pub const FAVICON: &[u8] = include_bytes!("assets/favicon.ico");

/// `GET /favicon.ico`.
pub async fn favicon() -> HttpResponse {
    page_headers(&mut HttpResponse::Ok())
        .insert_header((header::CACHE_CONTROL, "public, max-age=86400"))
        .content_type("image/x-icon")
        .body(FAVICON)
}

/// `GET /viewer/page-error.js`: the error page's script.
pub async fn error_script() -> HttpResponse {
    page_headers(&mut HttpResponse::Ok())
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .content_type("text/javascript; charset=utf-8")
        .body(page_error::SCRIPT)
}

/// `GET /viewer/page-error.css`: the error page's style sheet.
pub async fn error_style() -> HttpResponse {
    page_headers(&mut HttpResponse::Ok())
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .content_type("text/css; charset=utf-8")
        .body(page_error::STYLE)
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
