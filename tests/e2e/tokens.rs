//! Tokens name their club (docs/API.md, Authentication; docs/SCALING.md): the format of
//! every token the service issues, tokens whose club part is altered, and tokens of the
//! legacy format that were issued before, which keep working.

use reqwest::StatusCode;
use serde_json::json;

use crate::harness::{legacy_token, ok, problem_at, random_hex, run, Env, Res, Store, TestApp};
use crate::play::create_table;

/// A token's parts, read from the right as the service reads them: (prefix, club id,
/// id, secret).
fn parts(token: &str) -> (&str, &str, &str, &str) {
    let (prefix, rest) = token.split_once('_').expect("prefix");
    let (rest, secret) = rest.rsplit_once('_').expect("secret");
    let (club, id) = rest.rsplit_once('_').expect("club and id");
    (prefix, club, id, secret)
}

fn is_hex(s: &str, chars: usize) -> bool {
    s.len() == chars && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// The token with `club` in place of its club part.
fn naming(token: &str, club: &str) -> String {
    let (prefix, _, id, secret) = parts(token);
    format!("{prefix}_{club}_{id}_{secret}")
}

/// A legacy token spelt the new way, with `club` put in.
fn legacy_naming(token: &str, club: &str) -> String {
    let (prefix, rest) = token.split_once('_').expect("prefix");
    format!("{prefix}_{club}_{rest}")
}

/// The token in the legacy spelling, without its club part.
fn without_club(token: &str) -> String {
    let (prefix, _, id, secret) = parts(token);
    format!("{prefix}_{id}_{secret}")
}

async fn me(app: &TestApp, token: &str) -> Res {
    app.get("/v1/me", Some(token)).await
}

async fn tokens_name_their_club(env: Env) {
    let app = TestApp::spawn(&env).await;
    let (club, admin) = app.create_club("Kish");
    let (other_club, other_admin) = app.create_club("Qeshm");
    let auditor_cli = app.add_auditor_cli(&club);
    let r = app.post("/v1/keys/auditor", Some(&admin), json!({})).await;
    ok(&r, StatusCode::CREATED, "auditor key");
    let auditor_api = r.body["api_key"].as_str().unwrap().to_string();
    let table = create_table(&app, &admin, 2).await;

    // Every token the service issues: `<prefix>_<club id>_<16 hex>_<64 hex>`.
    for (want, token) in [
        ("ak", &admin),
        ("ak", &auditor_cli),
        ("ak", &auditor_api),
        ("st", &table.tokens[0]),
        ("st", &table.tokens[1]),
    ] {
        let (prefix, c, id, secret) = parts(token);
        assert_eq!((prefix, c), (want, club.as_str()), "{token}");
        assert!(is_hex(id, 16) && is_hex(secret, 64), "{token}");
        let r = me(&app, token).await;
        ok(&r, StatusCode::OK, "me");
        assert_eq!(
            (&r.body["club_id"], &r.body["id"]),
            (&json!(club), &json!(id))
        );
    }
    let r = me(&app, &table.tokens[1]).await;
    assert_eq!(
        (&r.body["role"], &r.body["table_id"], &r.body["seat"]),
        (&json!("seat"), &json!(table.id), &json!(1))
    );
    assert_eq!(me(&app, &other_admin).await.body["club_id"], other_club);

    // A token is looked up in the club it names: naming another club, or none, it is
    // nobody's.
    let unknown_club = format!("c_{}", random_hex(8));
    for (what, token) in [
        (
            "the admin key naming another club",
            naming(&admin, &other_club),
        ),
        (
            "the admin key naming an unknown club",
            naming(&admin, &unknown_club),
        ),
        (
            "the other admin key naming this club",
            naming(&other_admin, &club),
        ),
        (
            "a seat token naming another club",
            naming(&table.tokens[0], &other_club),
        ),
        (
            "an auditor key naming another club",
            naming(&auditor_api, &other_club),
        ),
        ("a club id of another shape", naming(&admin, "c1")),
        (
            "a club id in capitals",
            naming(&admin, &club.to_uppercase()),
        ),
        // New tokens have no legacy route.
        ("the admin key without its club", without_club(&admin)),
        (
            "a seat token without its club",
            without_club(&table.tokens[0]),
        ),
    ] {
        problem_at(
            &me(&app, &token).await,
            StatusCode::UNAUTHORIZED,
            "unauthorized",
            what,
        );
    }
    // The metric of legacy tokens stays at zero.
    let m = app.get("/metrics", None).await;
    assert!(
        m.text.contains("legacy_tokens_total{kind=\"ak\"} 0"),
        "{}",
        m.text
    );
    assert!(
        m.text.contains("legacy_tokens_total{kind=\"st\"} 0"),
        "{}",
        m.text
    );
}

/// Runs `sql` on the service's store behind its back.
async fn exec(env: &Env, app: &TestApp, sql: String) {
    if env.db_url.is_some() {
        env.pg().await.batch_execute(&sql).await.expect(&sql);
        return;
    }
    let path = app.data_dir.join("dealer.db");
    tokio::task::spawn_blocking(move || {
        let db = rusqlite::Connection::open(&path).expect("open dealer.db");
        db.busy_timeout(std::time::Duration::from_secs(10)).unwrap();
        db.execute_batch(&sql).expect(&sql);
    })
    .await
    .expect("sqlite");
}

/// A key and a seat token issued before tokens named their club keep working: written
/// as the code then wrote them (ids alone, the hash of the secret), with the routes the
/// migration to club-routed tokens wrote for them (services/tests/store_conformance.rs
/// runs that migration on rows of the older schema).
async fn legacy_tokens_still_authenticate(env: Env) {
    let app = TestApp::spawn(&env).await;
    let (club, admin) = app.create_club("Kish");
    let (other_club, _) = app.create_club("Qeshm");
    let table = create_table(&app, &admin, 2).await;
    let other_table = create_table(&app, &admin, 2).await;
    let (key_id, key_hash, key) = legacy_token("ak");
    let (seat_id, seat_hash, seat) = legacy_token("st");
    // A key whose route leads to a club it is not in (as if the key were gone).
    let (stray_id, stray_hash, stray) = legacy_token("ak");
    exec(
        &env,
        &app,
        format!(
            "INSERT INTO api_keys (club_id, key_id, key_hash, role, created_ms) \
                 VALUES ('{club}', '{key_id}', '{key_hash}', 'admin', 0), \
                        ('{club}', '{stray_id}', '{stray_hash}', 'admin', 0); \
             UPDATE seats SET token_id = '{seat_id}', token_hash = '{seat_hash}' \
                 WHERE club_id = '{club}' AND table_id = '{}' AND seat = 1; \
             INSERT INTO token_routes (kind, token_id, club_id) \
                 VALUES ('ak', '{key_id}', '{club}'), ('st', '{seat_id}', '{club}'), \
                        ('ak', '{stray_id}', '{other_club}');",
            table.id
        ),
    )
    .await;

    let r = me(&app, &key).await;
    ok(&r, StatusCode::OK, "a legacy admin key");
    assert_eq!(
        (&r.body["club_id"], &r.body["role"], &r.body["id"]),
        (&json!(club), &json!("admin"), &json!(key_id))
    );
    let r = me(&app, &seat).await;
    ok(&r, StatusCode::OK, "a legacy seat token");
    assert_eq!(
        (&r.body["club_id"], &r.body["table_id"], &r.body["seat"]),
        (&json!(club), &json!(table.id), &json!(1))
    );
    // It is the seat's token, with the seat's rights: its own table only.
    let r = app.get("/v1/tables", Some(&seat)).await;
    ok(&r, StatusCode::OK, "tables of a legacy seat");
    let ids: Vec<&str> = r.body["tables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["table_id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, [table.id.as_str()]);
    let r = app
        .get(&format!("/v1/tables/{}", other_table.id), Some(&seat))
        .await;
    problem_at(&r, StatusCode::NOT_FOUND, "not_found", "another table");

    // A legacy token also works spelt the new way, its club put in.
    ok(
        &me(&app, &legacy_naming(&key, &club)).await,
        StatusCode::OK,
        "a legacy key with its club",
    );

    let wrong_secret = {
        let mut t = key.clone();
        let last = t.pop().unwrap();
        t.push(if last == '0' { '1' } else { '0' });
        t
    };
    for (what, token) in [
        ("a legacy key with a wrong secret", wrong_secret),
        ("a legacy key routed to a club it is not in", stray),
        (
            "a legacy key naming another club",
            legacy_naming(&key, &other_club),
        ),
        ("an unknown legacy key", legacy_token("ak").2),
        ("an unknown legacy seat token", legacy_token("st").2),
        // Kinds do not mix: the seat's id as a key.
        ("a legacy seat id as a key", format!("ak_{}", &seat[3..])),
    ] {
        problem_at(
            &me(&app, &token).await,
            StatusCode::UNAUTHORIZED,
            "unauthorized",
            what,
        );
    }

    // Only legacy authentications that succeeded count: the key's one, the seat's three.
    let m = app.get("/metrics", None).await;
    assert!(
        m.text.contains("legacy_tokens_total{kind=\"ak\"} 1"),
        "{}",
        m.text
    );
    assert!(
        m.text.contains("legacy_tokens_total{kind=\"st\"} 3"),
        "{}",
        m.text
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_tokens_name_their_club() {
    run(Store::Pg, tokens_name_their_club).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn embedded_tokens_name_their_club() {
    run(Store::Embedded, tokens_name_their_club).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_legacy_tokens_still_authenticate() {
    run(Store::Pg, legacy_tokens_still_authenticate).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn embedded_legacy_tokens_still_authenticate() {
    run(Store::Embedded, legacy_tokens_still_authenticate).await;
}
