//! The service's pages for people (docs/API.md, "The replay page"): an address the replay
//! page does not take (`?step=abc`, an unknown parameter, a credential after `?`) answers
//! an HTML page in English and Persian with the page's own security headers, saying what
//! happened and what to do, and repeating nothing of the address; `/favicon.ico` is
//! served; a browser that opens an address with no page gets a page too. The API keeps
//! its problem+json answers.

use reqwest::header::ACCEPT;
use reqwest::StatusCode;
use serde_json::json;

use crate::harness::{problem, random_hex, run, Env, Store, TestApp};
use crate::play::{create_table, play_to_end, start_hand, Rng};

/// A browser's `Accept` for a page.
const BROWSER_ACCEPT: &str = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

struct Page {
    status: StatusCode,
    headers: reqwest::header::HeaderMap,
    text: String,
}

async fn browse(app: &TestApp, path: &str) -> Page {
    let res = app
        .http
        .get(format!("{}{path}", app.base))
        .header(ACCEPT, BROWSER_ACCEPT)
        .send()
        .await
        .unwrap_or_else(|e| panic!("GET {path}: {e}"));
    Page {
        status: res.status(),
        headers: res.headers().clone(),
        text: res.text().await.unwrap(),
    }
}

fn header<'a>(p: &'a Page, name: &str) -> &'a str {
    p.headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
}

/// The headers every page carries, equal to the replay page's own.
const PAGE_HEADERS: [&str; 4] = [
    "content-security-policy",
    "referrer-policy",
    "x-content-type-options",
    "cross-origin-opener-policy",
];

/// `page` is the error page for `problem` with status `status`, the shell's headers, both
/// languages, and none of `secrets`.
fn error_page(page: &Page, shell: &Page, status: StatusCode, problem: &str, secrets: &[&str]) {
    let what = format!("{problem} ({status})");
    assert_eq!(page.status, status, "{what}: {}", page.text);
    assert!(
        header(page, "content-type").starts_with("text/html"),
        "{what}: {}",
        header(page, "content-type")
    );
    for h in PAGE_HEADERS {
        assert!(!header(shell, h).is_empty(), "the shell sends {h}");
        assert_eq!(header(page, h), header(shell, h), "{what}: {h}");
    }
    assert_eq!(header(page, "cache-control"), "no-store", "{what}");
    let t = &page.text;
    assert!(
        t.contains(&format!(r#"data-problem="{problem}""#)),
        "{what}: {t}"
    );
    assert!(t.contains(r#"<section lang="en" dir="ltr">"#), "{what}");
    assert!(t.contains(r#"<section lang="fa" dir="rtl">"#), "{what}");
    // Persian words, in Persian letters, and a way on.
    assert!(t.contains("نشانی") || t.contains("صفحه"), "{what}");
    assert!(t.contains(r#"class="again""#), "{what}");
    assert!(
        t.contains(r#"<link rel="icon" href="/favicon.ico">"#),
        "{what}"
    );
    assert!(
        t.contains(r#"<script src="/viewer/page-error.js" defer></script>"#),
        "{what}"
    );
    assert!(!t.contains("<script>"), "{what}: no inline script");
    for s in secrets {
        assert!(!t.contains(s), "{what}: the page repeats {s:?}");
    }
}

async fn page_routes_answer_people(env: Env) {
    let app = TestApp::spawn(&env).await;
    let hand = format!("h_{}", random_hex(8));
    let shell = browse(&app, &format!("/hands/{hand}")).await;
    assert_eq!(shell.status, StatusCode::OK);
    assert!(shell
        .text
        .contains(r#"<link rel="icon" href="/favicon.ico">"#));

    // Steps that are not one whole number.
    for (q, secret) in [
        ("step=abc", "abc"),
        // (the page's own words name “?step=”: nothing of this address to look for)
        ("step=", "step=1&"),
        ("step=-4", "-4"),
        ("step=1.5", "1.5"),
        ("step=%D9%A3", "%D9%A3"),
        ("step=1&step=2", "step=1&step=2"),
        ("step=99999999999999999999", "99999999999999999999"),
    ] {
        for base in [format!("/hands/{hand}"), "/viewer/".to_string()] {
            let p = browse(&app, &format!("{base}?{q}")).await;
            error_page(&p, &shell, StatusCode::BAD_REQUEST, "bad_step", &[secret]);
        }
    }
    // Parameters the page does not take.
    for q in [
        "lang=fa",
        "step=2&hand=1",
        "x",
        "%ZZ=1",
        "ステップ=3",
        "s%C3%A1ra!=1",
    ] {
        let p = browse(&app, &format!("/hands/{hand}?{q}")).await;
        error_page(&p, &shell, StatusCode::BAD_REQUEST, "unknown_query", &[q]);
    }
    // A credential after `?`: named as one, never shown.
    let secret = random_hex(16);
    let share = format!("sh_c_{}_{}_{secret}", random_hex(8), random_hex(8));
    let key = format!("ak_c_{}_{}_{secret}", random_hex(8), random_hex(8));
    let seat = format!("st_c_{}_{}_{secret}", random_hex(8), random_hex(8));
    for q in [
        format!("share={share}"),
        format!("token={key}"),
        format!("step=3&access_token={seat}"),
        share.clone(),
        format!("step=1&x={seat}"),
        format!("TOKEN={}", random_hex(20)),
    ] {
        let p = browse(&app, &format!("/hands/{hand}?{q}")).await;
        error_page(
            &p,
            &shell,
            StatusCode::BAD_REQUEST,
            "credential_in_query",
            &[&secret, &q],
        );
    }
    // The addresses the page takes still open it.
    for q in ["", "?step=0", "?step=23", "?step=18446744073709551615"] {
        for base in [format!("/hands/{hand}"), "/viewer/".to_string()] {
            let p = browse(&app, &format!("{base}{q}")).await;
            assert_eq!(p.status, StatusCode::OK, "{base}{q}");
            assert_eq!(p.text, shell.text, "{base}{q}");
        }
    }
    // The error page's script and style sheet, under the page's policy.
    for (path, ty) in [
        ("/viewer/page-error.js", "text/javascript"),
        ("/viewer/page-error.css", "text/css"),
    ] {
        let p = browse(&app, path).await;
        assert_eq!(p.status, StatusCode::OK, "{path}");
        assert!(header(&p, "content-type").starts_with(ty), "{path}");
        assert_eq!(
            header(&p, "content-security-policy"),
            header(&shell, "content-security-policy")
        );
    }
    // A method the page does not take stays a problem (no browser sends it).
    let r = app
        .call(
            reqwest::Method::POST,
            &format!("/hands/{hand}"),
            None,
            None,
            None,
        )
        .await;
    problem(&r, StatusCode::METHOD_NOT_ALLOWED, "method_not_allowed");
}

async fn no_page_here_and_the_api_keeps_its_problems(env: Env) {
    let app = TestApp::spawn(&env).await;
    let hand = format!("h_{}", random_hex(8));
    let shell = browse(&app, &format!("/hands/{hand}")).await;
    for path in ["/nowhere", "/hands/", &format!("/hands/{hand}/x"), "/سارا"] {
        let p = browse(&app, path).await;
        error_page(&p, &shell, StatusCode::NOT_FOUND, "no_such_page", &[]);
        assert!(p.text.contains(r#"href="/viewer/""#), "{path}");
        // A program (no `Accept: text/html`) still gets the problem.
        let r = app.get(path, None).await;
        problem(&r, StatusCode::NOT_FOUND, "not_found");
    }
    // Under /v1 a browser gets the API's answers as documented.
    for path in ["/v1/nowhere", "/v1"] {
        let p = browse(&app, path).await;
        assert_eq!(p.status, StatusCode::NOT_FOUND, "{path}");
        assert!(
            header(&p, "content-type").starts_with("application/problem+json"),
            "{path}"
        );
    }
    let (_, admin) = app.create_club("Tabriz, the “club”!");
    let p = app
        .http
        .get(format!("{}/v1/hands/{hand}/replay?step=abc", app.base))
        .header(ACCEPT, BROWSER_ACCEPT)
        .bearer_auth(&admin)
        .send()
        .await
        .unwrap();
    assert_eq!(p.status(), StatusCode::BAD_REQUEST);
    let ty = p.headers()["content-type"].to_str().unwrap().to_string();
    assert!(ty.starts_with("application/problem+json"), "{ty}");
    let body: serde_json::Value = p.json().await.unwrap();
    assert_eq!(body["code"], "invalid_query", "{body}");
}

async fn the_icon_is_served(env: Env) {
    let app = TestApp::spawn(&env).await;
    for q in ["", "?v=2"] {
        let res = app
            .http
            .get(format!("{}/favicon.ico{q}", app.base))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), StatusCode::OK);
        assert_eq!(res.headers()["content-type"], "image/x-icon");
        assert!(res.headers().contains_key("x-content-type-options"));
        let b = res.bytes().await.unwrap();
        // An ICO (reserved 0, type 1) of PNG images, each where its directory says.
        assert_eq!(&b[..4], &[0, 0, 1, 0]);
        let n = u16::from_le_bytes([b[4], b[5]]) as usize;
        assert!(n >= 1);
        for i in 0..n {
            let e = &b[6 + 16 * i..22 + 16 * i];
            let len = u32::from_le_bytes([e[8], e[9], e[10], e[11]]) as usize;
            let off = u32::from_le_bytes([e[12], e[13], e[14], e[15]]) as usize;
            assert_eq!(&b[off..off + 8], b"\x89PNG\r\n\x1a\n", "image {i}");
            assert!(off + len <= b.len());
        }
    }
}

/// A share link whose address was damaged after its key, or revoked: the page route answers
/// a page (the key in the fragment never reaches it), and the API says why the key is
/// refused, as documented.
async fn share_links_and_the_page_route(env: Env) {
    let app = TestApp::spawn(&env).await;
    let (_, admin) = app.create_club("Shiraz");
    let table = create_table(&app, &admin, 3).await;
    let h = start_hand(&app, &admin, &table).await;
    let hand = h["hand_id"].as_str().unwrap().to_string();
    play_to_end(&app, &admin, &hand, &table.tokens, &mut Rng(29)).await;
    let r = app
        .post(&format!("/v1/hands/{hand}/share"), Some(&admin), json!({}))
        .await;
    assert!(r.status.is_success(), "{}", r.text);
    let url = r.body["url"].as_str().unwrap().to_string();
    let token = url.split_once("#share=").unwrap().1.to_string();
    let shell = browse(&app, &format!("/hands/{hand}")).await;
    let p = browse(&app, &format!("/hands/{hand}?share={token}")).await;
    error_page(
        &p,
        &shell,
        StatusCode::BAD_REQUEST,
        "credential_in_query",
        &[&token],
    );
    // Revoked: the page route still serves the page (the fragment is the browser's), the
    // API refuses the key by name.
    let share_id = r.body["share_id"].as_str().unwrap();
    let r = app
        .call(
            reqwest::Method::DELETE,
            &format!("/v1/hands/{hand}/share/{share_id}"),
            Some(&admin),
            None,
            None,
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let p = browse(&app, &format!("/hands/{hand}?step=3")).await;
    assert_eq!(p.status, StatusCode::OK);
    let r = app.get(&format!("/v1/hands/{hand}"), Some(&token)).await;
    problem(&r, StatusCode::UNAUTHORIZED, "share_revoked");
    assert!(!app.log().contains(&token), "the key is never logged");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn embedded_page_routes_answer_people() {
    run(Store::Embedded, page_routes_answer_people).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn embedded_no_page_here_and_the_api_keeps_its_problems() {
    run(Store::Embedded, no_page_here_and_the_api_keeps_its_problems).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn embedded_the_icon_is_served() {
    run(Store::Embedded, the_icon_is_served).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn embedded_share_links_and_the_page_route() {
    run(Store::Embedded, share_links_and_the_page_route).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_share_links_and_the_page_route() {
    run(Store::Pg, share_links_and_the_page_route).await;
}
