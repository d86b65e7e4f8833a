//! The replay page's service side (docs/API.md, "The replay page" and "Share links"): share
//! links to a finished hand, read-only, for that hand only, expiring and revocable, their
//! tokens stored hashed and never logged; every step's view in one request, equal to the
//! per-step replay; the page's shell, with its Content-Security-Policy.

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::harness::{ok, problem, problem_at, run, Env, Store, TestApp};
use crate::play::{create_table, play_to_end, start_hand, Rng};

/// A finished hand on a fresh table: (admin, table tokens, hand id).
async fn finished_hand(app: &TestApp, admin: &str, seed: u64) -> (Vec<String>, String) {
    let table = create_table(app, admin, 3).await;
    let h = start_hand(app, admin, &table).await;
    let hand = h["hand_id"].as_str().unwrap().to_string();
    let done = play_to_end(app, admin, &hand, &table.tokens, &mut Rng(seed)).await;
    assert_eq!(done["status"], "completed", "{done}");
    (table.tokens, hand)
}

/// The token in a share link's fragment.
fn token_of(url: &str) -> String {
    let (_, frag) = url.split_once('#').expect("a fragment");
    frag.strip_prefix("share=").expect("#share=").to_string()
}

async fn share_links_read_one_finished_hand(env: Env) {
    let app = TestApp::spawn(&env).await;
    let (club, admin) = app.create_club("Kish");
    let auditor = app.add_auditor_cli(&club);

    // A running hand cannot be shared.
    let table = create_table(&app, &admin, 3).await;
    let running = start_hand(&app, &admin, &table).await["hand_id"]
        .as_str()
        .unwrap()
        .to_string();
    let r = app
        .post(
            &format!("/v1/hands/{running}/share"),
            Some(&admin),
            json!({}),
        )
        .await;
    problem(&r, StatusCode::CONFLICT, "hand_in_progress");
    play_to_end(&app, &admin, &running, &table.tokens, &mut Rng(7)).await;
    let other = running;

    let (tokens, hand) = finished_hand(&app, &admin, 11).await;
    let share_path = format!("/v1/hands/{hand}/share");
    // Only the admin shares; the expiry must be sane.
    for who in [&tokens[0], &auditor] {
        let r = app.post(&share_path, Some(who), json!({})).await;
        problem(&r, StatusCode::FORBIDDEN, "forbidden");
    }
    for bad in [
        json!({"expires_in_secs": 0}),
        json!({"expires_in_secs": 7_776_001}),
    ] {
        let r = app.post(&share_path, Some(&admin), bad.clone()).await;
        problem_at(
            &r,
            StatusCode::UNPROCESSABLE_ENTITY,
            "invalid_share",
            &bad.to_string(),
        );
    }
    let r = app
        .post(
            &share_path,
            Some(&admin),
            json!({"expires_in_secs": "soon"}),
        )
        .await;
    problem(&r, StatusCode::BAD_REQUEST, "invalid_json");
    let r = app
        .post("/v1/hands/h_nonexistent/share", Some(&admin), json!({}))
        .await;
    problem(&r, StatusCode::NOT_FOUND, "not_found");

    // The link: the page's URL, the token in its fragment; a week by default.
    let made = app.post(&share_path, Some(&admin), json!({})).await;
    ok(&made, StatusCode::CREATED, "share");
    let url = made.body["url"].as_str().unwrap().to_string();
    assert!(
        url.starts_with(&format!("{}/hands/{hand}#share=sh_{club}_", app.base)),
        "{url}"
    );
    let share_id = made.body["share_id"].as_str().unwrap().to_string();
    let expires = made.body["expires_ms"].as_i64().unwrap();
    let created = made.body["created_ms"].as_i64().unwrap();
    assert_eq!(expires - created, 7 * 24 * 3600 * 1000);
    let token = token_of(&url);
    let secret = token.rsplit('_').next().unwrap().to_string();

    // It reads the hand's GET routes, as an auditor would.
    let got = app.get(&format!("/v1/hands/{hand}"), Some(&token)).await;
    ok(&got, StatusCode::OK, "hand by share");
    assert_eq!(got.body["viewer"], "all");
    for path in [
        "events",
        "replay?step=3",
        "replay/steps",
        "bundle",
        "verify",
    ] {
        let r = app
            .get(&format!("/v1/hands/{hand}/{path}"), Some(&token))
            .await;
        ok(&r, StatusCode::OK, path);
    }
    let v = app
        .get(&format!("/v1/hands/{hand}/verify"), Some(&token))
        .await;
    assert_eq!(v.body["valid"], true, "{}", v.text);
    assert_eq!(v.body["trust"], "trusted_key", "{}", v.text);
    let proof = app
        .get(&format!("/v1/hands/{hand}/log-proof"), Some(&token))
        .await;
    assert!(
        proof.status == StatusCode::OK || proof.body["code"] == "not_in_log_yet",
        "{}",
        proof.text
    );
    // Nothing else: another hand is not there for it, every other route refuses it.
    let r = app.get(&format!("/v1/hands/{other}"), Some(&token)).await;
    problem(&r, StatusCode::NOT_FOUND, "not_found");
    let r = app
        .get(&format!("/v1/hands/{other}/bundle"), Some(&token))
        .await;
    problem(&r, StatusCode::NOT_FOUND, "not_found");
    for path in ["/v1/me", "/v1/tables", "/v1/hands", "/v1/disputes"] {
        let r = app.get(path, Some(&token)).await;
        problem_at(&r, StatusCode::FORBIDDEN, "forbidden", path);
    }
    for path in [
        format!("/v1/hands/{hand}/legal-actions"),
        format!("/v1/hands/{hand}/shares"),
    ] {
        let r = app.get(&path, Some(&token)).await;
        problem_at(&r, StatusCode::FORBIDDEN, "forbidden", &path);
    }
    let r = app
        .post(
            &format!("/v1/hands/{hand}/actions"),
            Some(&token),
            json!({"action": {"type": "stand"}}),
        )
        .await;
    problem(&r, StatusCode::FORBIDDEN, "forbidden");
    let r = app.post(&share_path, Some(&token), json!({})).await;
    problem(&r, StatusCode::FORBIDDEN, "forbidden");
    let r = app
        .post(
            &format!("/v1/hands/{hand}/disputes"),
            Some(&token),
            json!({"kind": "wrong_score", "claim": "short"}),
        )
        .await;
    problem(&r, StatusCode::FORBIDDEN, "forbidden");
    // A wrong secret, or the token cut: unauthorized.
    let wrong = format!(
        "{}{}",
        &token[..token.len() - 1],
        if token.ends_with('0') { '1' } else { '0' }
    );
    let r = app.get(&format!("/v1/hands/{hand}"), Some(&wrong)).await;
    problem(&r, StatusCode::UNAUTHORIZED, "unauthorized");
    let r = app
        .get(
            &format!("/v1/hands/{hand}"),
            Some(&token[..token.len() - 2]),
        )
        .await;
    problem(&r, StatusCode::UNAUTHORIZED, "unauthorized");

    // The admin lists the hand's links, never their tokens.
    let list = app
        .get(&format!("/v1/hands/{hand}/shares"), Some(&admin))
        .await;
    ok(&list, StatusCode::OK, "list");
    assert_eq!(list.body["shares"][0]["share_id"], share_id.as_str());
    assert_eq!(list.body["shares"][0]["status"], "active");
    assert!(!list.text.contains(&secret), "no token in the list");
    let r = app
        .get(&format!("/v1/hands/{hand}/shares"), Some(&auditor))
        .await;
    problem(&r, StatusCode::FORBIDDEN, "forbidden");

    // Revoked: refused at once; revoking again changes nothing.
    let del = format!("/v1/hands/{hand}/share/{share_id}");
    let r = app
        .call(Method::DELETE, &del, Some(&tokens[1]), None, None)
        .await;
    problem(&r, StatusCode::FORBIDDEN, "forbidden");
    let r = app
        .call(Method::DELETE, &del, Some(&admin), None, None)
        .await;
    ok(&r, StatusCode::OK, "revoke");
    assert_eq!(r.body["status"], "revoked");
    let revoked_ms = r.body["revoked_ms"].clone();
    let r = app.get(&format!("/v1/hands/{hand}"), Some(&token)).await;
    problem(&r, StatusCode::UNAUTHORIZED, "share_revoked");
    let r = app
        .call(Method::DELETE, &del, Some(&admin), None, None)
        .await;
    ok(&r, StatusCode::OK, "revoke again");
    assert_eq!(r.body["revoked_ms"], revoked_ms);
    let r = app
        .call(
            Method::DELETE,
            &format!("/v1/hands/{hand}/share/0123456789abcdef"),
            Some(&admin),
            None,
            None,
        )
        .await;
    problem(&r, StatusCode::NOT_FOUND, "not_found");
    let r = app
        .call(
            Method::DELETE,
            &format!("/v1/hands/{other}/share/{share_id}"),
            Some(&admin),
            None,
            None,
        )
        .await;
    problem(&r, StatusCode::NOT_FOUND, "not_found");

    // Expired: refused once its time is up.
    let short = app
        .post(&share_path, Some(&admin), json!({"expires_in_secs": 1}))
        .await;
    ok(&short, StatusCode::CREATED, "short share");
    let short_token = token_of(short.body["url"].as_str().unwrap());
    let r = app
        .get(&format!("/v1/hands/{hand}"), Some(&short_token))
        .await;
    ok(&r, StatusCode::OK, "before expiry");
    tokio::time::sleep(std::time::Duration::from_millis(1300)).await;
    let r = app
        .get(&format!("/v1/hands/{hand}"), Some(&short_token))
        .await;
    problem(&r, StatusCode::UNAUTHORIZED, "share_expired");
    let list = app
        .get(&format!("/v1/hands/{hand}/shares"), Some(&admin))
        .await;
    let statuses: Vec<&str> = list.body["shares"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["status"].as_str().unwrap())
        .collect();
    assert_eq!(statuses, ["expired", "revoked"], "{}", list.text);

    // An idempotent retry answers the same link and makes no second one.
    let a = app
        .post_idem(&share_path, Some(&admin), json!({}), "share-1")
        .await;
    let b = app
        .post_idem(&share_path, Some(&admin), json!({}), "share-1")
        .await;
    ok(&b, StatusCode::CREATED, "replayed share");
    assert_eq!(a.body, b.body);
    assert_eq!(b.replayed.as_deref(), Some("true"));

    // The store keeps the hash only; no log line holds a token.
    if env.db_url.is_some() {
        let pg = env.pg().await;
        let rows = pg
            .query("SELECT token_hash FROM hand_shares", &[])
            .await
            .unwrap();
        assert_eq!(rows.len(), 3);
        for r in rows {
            let h: String = r.get(0);
            assert_ne!(h, secret);
            assert_eq!(h.len(), 64);
        }
        let e = pg
            .execute("DELETE FROM hand_shares", &[])
            .await
            .expect_err("shares are never deleted");
        assert!(
            e.to_string().contains("never deleted") || format!("{e:?}").contains("never deleted"),
            "{e:?}"
        );
    }
    let log = app.log();
    assert!(!log.contains(&secret), "the service logged a share token");
    assert!(!log.contains(&short_token));
}

/// `replay/steps` answers, for each step, what `replay?step=N` answers for it, to the same
/// caller: everything once the hand is over, a seat's own view while it runs.
async fn replay_steps_are_the_replays(env: Env) {
    let app = TestApp::spawn(&env).await;
    let (_, admin) = app.create_club("Kish");
    let (_, hand) = finished_hand(&app, &admin, 5).await;
    let all = app
        .get(&format!("/v1/hands/{hand}/replay/steps"), Some(&admin))
        .await;
    ok(&all, StatusCode::OK, "steps");
    assert_eq!(all.body["viewer"], "all");
    assert_eq!(all.body["next_from"], Value::Null);
    let steps = all.body["steps"].as_array().unwrap().clone();
    let n = all.body["events"].as_u64().unwrap();
    assert_eq!(steps.len() as u64, n);
    for k in [0, 1, n / 2, n - 1] {
        let one = app
            .get(&format!("/v1/hands/{hand}/replay?step={k}"), Some(&admin))
            .await;
        ok(&one, StatusCode::OK, "replay");
        let s = &steps[k as usize];
        assert_eq!(s["step"], k);
        assert_eq!(s["view"], one.body["view"], "step {k}");
        assert_eq!(s["to_act"], one.body["to_act"], "step {k}");
        assert_eq!(s["status"], one.body["status"], "step {k}");
        assert_eq!(s["event"]["hash"], one.body["event"]["hash"], "step {k}");
    }
    // Pages.
    let page = app
        .get(
            &format!("/v1/hands/{hand}/replay/steps?from=2&limit=3"),
            Some(&admin),
        )
        .await;
    ok(&page, StatusCode::OK, "page");
    let got: Vec<u64> = page.body["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["step"].as_u64().unwrap())
        .collect();
    assert_eq!(got, [2, 3, 4]);
    assert_eq!(page.body["next_from"], 5);
    for q in ["limit=0", "limit=1001", "from=100000", "bogus=1"] {
        let r = app
            .get(&format!("/v1/hands/{hand}/replay/steps?{q}"), Some(&admin))
            .await;
        problem_at(&r, StatusCode::BAD_REQUEST, "invalid_query", q);
    }

    // A running hand: a seat sees its own cards only, at every step.
    let table = create_table(&app, &admin, 3).await;
    let h = start_hand(&app, &admin, &table).await;
    let running = h["hand_id"].as_str().unwrap().to_string();
    let mut rng = Rng(3);
    for _ in 0..12 {
        if crate::play::step(&app, &admin, &running, &table.tokens, &mut rng)
            .await
            .is_some()
        {
            break;
        }
    }
    let seat = app
        .get(
            &format!("/v1/hands/{running}/replay/steps"),
            Some(&table.tokens[1]),
        )
        .await;
    ok(&seat, StatusCode::OK, "seat steps");
    if seat.body["viewer"] == "seat" {
        for s in seat.body["steps"].as_array().unwrap() {
            let k = s["step"].as_u64().unwrap();
            let one = app
                .get(
                    &format!("/v1/hands/{running}/replay?step={k}"),
                    Some(&table.tokens[1]),
                )
                .await;
            assert_eq!(s["view"], one.body["view"], "seat view at step {k}");
            assert_eq!(s["view"]["viewer"], json!({"seat": 1}));
        }
        // The auditor sees no running hand.
        let me = app.get("/v1/me", Some(&admin)).await;
        let auditor = app.add_auditor_cli(me.body["club_id"].as_str().unwrap());
        let r = app
            .get(&format!("/v1/hands/{running}/replay/steps"), Some(&auditor))
            .await;
        problem(&r, StatusCode::NOT_FOUND, "not_found");
    }
}

/// The page: a shell with no data, anyone may load it, a strict policy; credentials never
/// in its query.
async fn the_page_is_a_shell(env: Env) {
    let app = TestApp::spawn(&env).await;
    let res = app
        .http
        .get(format!("{}/hands/h_0123456789abcdef", app.base))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let csp = res
        .headers()
        .get("content-security-policy")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string();
    assert!(
        csp.contains("default-src 'none'") && csp.contains("connect-src 'self'"),
        "{csp}"
    );
    assert!(res
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .starts_with("text/html"));
    let html = res.text().await.unwrap();
    assert!(html.contains("/viewer/viewer.js") && html.contains("/viewer/viewer.css"));
    assert!(
        !html.contains("h_0123456789abcdef"),
        "the shell is the same for every hand"
    );
    let r = app.get("/hands/h_1?step=23", None).await;
    assert_eq!(r.status, StatusCode::OK);
    // A page's bad address answers a page for people (tests/e2e/pages.rs).
    let r = app.get("/hands/h_1?token=ak_x", None).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert!(
        r.content_type.starts_with("text/html"),
        "{}",
        r.content_type
    );
    assert!(r.text.contains(r#"data-problem="credential_in_query""#));
    for (path, ty) in [
        ("/viewer/viewer.js", "text/javascript"),
        ("/viewer/viewer.css", "text/css"),
        ("/viewer/", "text/html"),
    ] {
        let r = app.get(path, None).await;
        assert_eq!(r.status, StatusCode::OK, "{path}");
        assert!(r.content_type.starts_with(ty), "{path}: {}", r.content_type);
    }
    let r = app
        .call(Method::POST, "/hands/h_1", None, Some(b"{}".to_vec()), None)
        .await;
    problem(&r, StatusCode::METHOD_NOT_ALLOWED, "method_not_allowed");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_share_links_read_one_finished_hand() {
    run(Store::Pg, share_links_read_one_finished_hand).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn embedded_share_links_read_one_finished_hand() {
    run(Store::Embedded, share_links_read_one_finished_hand).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_replay_steps_are_the_replays() {
    run(Store::Pg, replay_steps_are_the_replays).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn embedded_replay_steps_are_the_replays() {
    run(Store::Embedded, replay_steps_are_the_replays).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn embedded_the_page_is_a_shell() {
    run(Store::Embedded, the_page_is_a_shell).await;
}
