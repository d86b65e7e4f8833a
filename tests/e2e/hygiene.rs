//! Production hygiene (issue 10): what a client sends cannot grow the metrics or the log;
//! bodies are objects; unknown query parameters are refused; display names are NFC and
//! visible; the embedded store's files are the owner's only; the API description passes a
//! standard OpenAPI 3.1 validator.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::harness::{
    hand_state, ok, problem_at, random_hex, run, write_temp, Env, Store, TestApp, BIN,
};
use crate::play::{create_table, start_hand};

// ---------------------------------------------------------------------------------------
// Metrics and access logs

async fn made_up_methods(env: Env) {
    let app = TestApp::spawn(&env).await;
    let log_before = app.log().len();
    let long = 1000;
    for i in 0..300 {
        // A valid HTTP token, new every time, 1000 characters long.
        let name: String = random_hex(long / 2).to_uppercase();
        let method = Method::from_bytes(name.as_bytes()).expect("a token");
        let path = match i % 3 {
            0 => "/healthz".to_string(),
            1 => format!("/v1/hands/h_{}", random_hex(8)),
            _ => format!("/nowhere/{}", random_hex(8)),
        };
        let r = app.call(method, &path, None, None, None).await;
        assert!(r.status.is_client_error(), "{path}: {}", r.status);
    }
    let m = app.get("/metrics", None).await;
    ok(&m, StatusCode::OK, "metrics");
    assert!(
        m.text.len() < 32 * 1024,
        "/metrics is {} bytes after 300 made-up methods",
        m.text.len()
    );
    let series: Vec<&str> = m
        .text
        .lines()
        .filter(|l| l.starts_with("http_requests_total{"))
        .collect();
    assert!(series.len() <= 6, "{} series: {series:#?}", series.len());
    let label = |line: &str, name: &str| -> String {
        let start = line.find(&format!("{name}=\"")).expect("label") + name.len() + 2;
        line[start..]
            .split('"')
            .next()
            .unwrap_or_default()
            .to_string()
    };
    let mut other = 0u64;
    for l in &series {
        let method = label(l, "method");
        assert!(
            ["GET", "POST", "other"].contains(&method.as_str()),
            "method label {method:?} in {l}"
        );
        let status = label(l, "status");
        assert!(
            ["1xx", "2xx", "3xx", "4xx", "5xx"].contains(&status.as_str()),
            "status label {status:?} in {l}"
        );
        let route = label(l, "route");
        assert!(
            route == "unmatched" || (route.starts_with('/') && !route.contains("h_")),
            "route label {route:?} in {l}"
        );
        if method == "other" {
            other += l.rsplit(' ').next().unwrap().parse::<u64>().unwrap();
        }
    }
    assert_eq!(other, 300, "{series:#?}");
    assert!(
        series.iter().any(|l| l.contains("route=\"unmatched\"")),
        "{series:#?}"
    );
    // The access log names each request, with the method cut short.
    let log = app.log();
    let grown = &log[log_before..];
    let longest = grown.lines().map(str::len).max().unwrap_or(0);
    assert!(longest < 400, "a log line of {longest} bytes");
    assert!(
        grown.len() < 300 * 400,
        "the log grew by {} bytes for 300 requests",
        grown.len()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_made_up_methods_leave_metrics_and_log_bounded() {
    run(Store::Pg, made_up_methods).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn embedded_made_up_methods_leave_metrics_and_log_bounded() {
    run(Store::Embedded, made_up_methods).await;
}

// ---------------------------------------------------------------------------------------
// Bodies

async fn bodies(env: Env) {
    let app = TestApp::spawn(&env).await;
    let (_, admin) = app.create_club("Kish");
    let table = create_table(&app, &admin, 3).await;
    let seat = table.tokens[0].as_str();
    let hand_body = start_hand(&app, &admin, &table).await;
    let hand = hand_body["hand_id"].as_str().unwrap().to_string();
    let before = hand_state(&app, &admin, &hand).await;
    // The bank offer is pending: a running hand that a start would not replace.
    let t = &table.id;
    let writes: Vec<(String, &str)> = vec![
        ("/v1/tables".into(), admin.as_str()),
        ("/v1/keys/auditor".into(), admin.as_str()),
        (format!("/v1/tables/{t}/hands"), admin.as_str()),
        (format!("/v1/hands/{hand}/entropy"), seat),
        (format!("/v1/hands/{hand}/deal"), admin.as_str()),
        (format!("/v1/hands/{hand}/actions"), seat),
        (format!("/v1/hands/{hand}/abandon"), admin.as_str()),
    ];
    for (path, token) in &writes {
        for body in ["[]", "[{}]", "\"{}\"", "1", "true", "null"] {
            let r = app
                .post_raw(path, Some(token), body.as_bytes().to_vec())
                .await;
            problem_at(
                &r,
                StatusCode::BAD_REQUEST,
                "invalid_json",
                &format!("POST {path} {body}"),
            );
        }
    }
    // Nested objects too: a seat or a player signature as an array.
    for (path, token, body) in [
        (
            "/v1/tables".to_string(),
            admin.as_str(),
            json!({"game": "bist-o-yek", "seats": [["Dariush", null], ["Shirin", null]]}),
        ),
        (
            format!("/v1/hands/{hand}/actions"),
            seat,
            json!({"action": {"type": "accept_bank"}, "expected_seq": 1,
                   "player_sig": ["ed25519:0000000000000000", "00"]}),
        ),
    ] {
        let r = app.post(&path, Some(token), body.clone()).await;
        problem_at(
            &r,
            StatusCode::BAD_REQUEST,
            "invalid_json",
            &format!("POST {path} {body}"),
        );
    }
    let r = app.post_raw("/v1/verify", None, b"[]".to_vec()).await;
    problem_at(
        &r,
        StatusCode::BAD_REQUEST,
        "bundle_unreadable",
        "verify []",
    );

    // Nothing happened: one table, one key more than none, the same hand.
    assert_eq!(hand_state(&app, &admin, &hand).await, before);
    let tables = app.get("/v1/tables", Some(&admin)).await;
    assert_eq!(tables.body["tables"].as_array().unwrap().len(), 1);
    let listed = app.get("/v1/hands", Some(&admin)).await;
    assert_eq!(listed.body["hands"].as_array().unwrap().len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_bodies_must_be_objects() {
    run(Store::Pg, bodies).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn embedded_bodies_must_be_objects() {
    run(Store::Embedded, bodies).await;
}

// ---------------------------------------------------------------------------------------
// Queries

async fn queries(env: Env) {
    let app = TestApp::spawn(&env).await;
    let (_, admin) = app.create_club("Kish");
    let table = create_table(&app, &admin, 2).await;
    let hand = start_hand(&app, &admin, &table).await["hand_id"]
        .as_str()
        .unwrap()
        .to_string();
    let t = &table.id;
    let gets = [
        "/healthz".to_string(),
        "/readyz".into(),
        "/metrics".into(),
        "/v1/openapi.json".into(),
        "/v1/keys".into(),
        "/v1/me".into(),
        "/v1/tables".into(),
        format!("/v1/tables/{t}"),
        format!("/v1/tables/{t}/scoreboard"),
        format!("/v1/tables/{t}/bundle"),
        "/v1/hands".into(),
        format!("/v1/hands/{hand}"),
        format!("/v1/hands/{hand}/legal-actions"),
        format!("/v1/hands/{hand}/events"),
        format!("/v1/hands/{hand}/replay"),
        format!("/v1/hands/{hand}/bundle"),
    ];
    for path in &gets {
        for query in ["bogus=1", "bogus=&limit=5", "bogus"] {
            let r = app.get(&format!("{path}?{query}"), Some(&admin)).await;
            problem_at(
                &r,
                StatusCode::BAD_REQUEST,
                "invalid_query",
                &format!("GET {path}?{query}"),
            );
            assert_eq!(r.body["parameter"], "bogus", "{path}?{query}: {}", r.text);
            assert!(
                r.body["detail"]
                    .as_str()
                    .is_some_and(|d| d.contains("unknown query parameter `bogus`")),
                "{path}?{query}: {}",
                r.text
            );
        }
    }
    // A write with a query string is refused before it writes.
    let r = app
        .post(
            &format!("/v1/tables/{t}/hands?force=1"),
            Some(&admin),
            json!({}),
        )
        .await;
    problem_at(
        &r,
        StatusCode::BAD_REQUEST,
        "invalid_query",
        "POST …/hands?force=1",
    );
    // The documented parameters still work, and an empty query string is no parameter.
    for path in [
        "/v1/hands?limit=5&status=in_progress".to_string(),
        format!("/v1/hands/{hand}/events?from=0&limit=10"),
        format!("/v1/hands/{hand}/replay?step=0"),
        "/v1/tables?".into(),
        format!("/v1/hands/{hand}?"),
    ] {
        ok(&app.get(&path, Some(&admin)).await, StatusCode::OK, &path);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_unknown_query_parameters_are_refused() {
    run(Store::Pg, queries).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn embedded_unknown_query_parameters_are_refused() {
    run(Store::Embedded, queries).await;
}

// ---------------------------------------------------------------------------------------
// Display names

/// `s` percent-encoded for a query string (every byte but ASCII letters and digits).
fn query_value(s: &str) -> String {
    s.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

async fn names(env: Env) {
    let app = TestApp::spawn(&env).await;
    let (_, admin) = app.create_club("Kish");

    // Decomposed in, composed out; Persian's half-space kept; white space around trimmed.
    let persian = "علی\u{200C}رضا";
    let t = app
        .post(
            "/v1/tables",
            Some(&admin),
            json!({"game": "bist-o-yek",
                   "seats": [{"player": "Jose\u{301}"}, {"player": format!("  {persian} ")}]}),
        )
        .await;
    ok(&t, StatusCode::CREATED, "a table with a decomposed name");
    assert_eq!(t.body["seats"][0]["player"], "Jos\u{e9}", "{}", t.text);
    assert_eq!(t.body["seats"][1]["player"], persian, "{}", t.text);
    let table = t.body["table_id"].as_str().unwrap().to_string();
    let read = app.get(&format!("/v1/tables/{table}"), Some(&admin)).await;
    ok(&read, StatusCode::OK, "the table");
    assert_eq!(read.body["seats"][0]["player"], "Jos\u{e9}");
    assert_eq!(read.body["seats"][1]["player"], persian);
    let h = app
        .post(
            &format!("/v1/tables/{table}/hands"),
            Some(&admin),
            json!({}),
        )
        .await;
    ok(&h, StatusCode::CREATED, "start a hand");
    // The history finds the player by either spelling.
    for spelling in ["Jose\u{301}", "Jos\u{e9}"] {
        let found = app
            .get(
                &format!("/v1/hands?player={}", query_value(spelling)),
                Some(&admin),
            )
            .await;
        ok(&found, StatusCode::OK, "history by player");
        let hands = found.body["hands"].as_array().unwrap();
        assert_eq!(hands.len(), 1, "{spelling:?}: {}", found.text);
        assert_eq!(hands[0]["players"][0], "Jos\u{e9}");
    }

    // Refused: 400 naming the field and the problem; nothing is created.
    for (name, says) in [
        ("Ali\u{202E}azeR", "U+202E"),
        ("Ali\u{2066}Reza\u{2069}", "U+2066"),
        ("Ali\u{200F}", "U+200F"),
        ("Ali\u{200B}Reza", "U+200B"),
        ("Ali\u{FEFF}", "U+FEFF"),
        ("Ali\u{2060}Reza", "U+2060"),
        ("Ali\u{7}", "control"),
        ("   ", "empty"),
        ("", "empty"),
        ("\u{200C}Ali", "U+200C"),
        ("Ali\u{200C}Reza", "U+200C"),
        ("علی\u{200C} رضا", "U+200C"),
    ] {
        let r = app
            .post(
                "/v1/tables",
                Some(&admin),
                json!({"game": "bist-o-yek", "seats": [{"player": "Dariush"}, {"player": name}]}),
            )
            .await;
        problem_at(
            &r,
            StatusCode::BAD_REQUEST,
            "invalid_name",
            &format!("{name:?}"),
        );
        assert_eq!(r.body["field"], "seats[1].player", "{}", r.text);
        let detail = r.body["detail"].as_str().unwrap();
        assert!(
            detail.starts_with("seats[1].player ") && detail.contains(says),
            "{name:?}: {detail}"
        );
    }
    let tables = app.get("/v1/tables", Some(&admin)).await;
    assert_eq!(tables.body["tables"].as_array().unwrap().len(), 1);

    // Club names, through the command line.
    let club = |name: &str| {
        Command::new(BIN)
            .args(["club", "create", "--name", name, "--json"])
            .args(env.store_flags())
            .env("RUST_LOG", "warn")
            .env_remove("DATABASE_URL")
            .output()
            .expect("run audit-service")
    };
    let made = club("Cafe\u{301} Kish");
    assert!(made.status.success(), "{made:?}");
    let v: Value = serde_json::from_slice(&made.stdout).expect("--json");
    assert_eq!(v["name"], "Caf\u{e9} Kish");
    for (name, says) in [
        ("Kish\u{202E}", "U+202E"),
        ("Kish\u{200B}", "U+200B"),
        (" ", "empty"),
    ] {
        let refused = club(name);
        let err = String::from_utf8_lossy(&refused.stderr);
        assert!(
            !refused.status.success() && err.contains("name") && err.contains(says),
            "{name:?}: {refused:?}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_names_are_nfc_and_visible() {
    run(Store::Pg, names).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn embedded_names_are_nfc_and_visible() {
    run(Store::Embedded, names).await;
}

// ---------------------------------------------------------------------------------------
// The embedded store's files

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .permissions()
        .mode()
        & 0o777
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn embedded_database_files_are_the_owners_only() {
    run(Store::Embedded, |env: Env| async move {
        let app = TestApp::spawn(&env).await;
        let (_, admin) = app.create_club("Kish");
        create_table(&app, &admin, 2).await;
        // The running service holds the database open: its WAL and shared memory exist.
        for name in ["dealer.db", "dealer.db-wal", "dealer.db-shm"] {
            let path = app.data_dir.join(name);
            assert_eq!(mode(&path), 0o600, "{name} is {:o}", mode(&path));
        }

        // A data folder the store creates is 0700, parents included.
        let fresh = env.data.path().join("made").join("here");
        let out = Command::new(BIN)
            .args(["migrate", "--data-dir"])
            .arg(&fresh)
            .env("RUST_LOG", "warn")
            .env_remove("DATABASE_URL")
            .output()
            .expect("run audit-service migrate");
        assert!(out.status.success(), "{out:?}");
        for dir in [fresh.parent().unwrap(), fresh.as_path()] {
            assert_eq!(mode(dir), 0o700, "{} is {:o}", dir.display(), mode(dir));
        }
        assert_eq!(mode(&fresh.join("dealer.db")), 0o600);
    })
    .await;
}

// ---------------------------------------------------------------------------------------
// The API description

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn openapi_passes_a_standard_validator() {
    run(Store::Embedded, |env: Env| async move {
        let app = TestApp::spawn(&env).await;
        let spec = app.get("/v1/openapi.json", None).await;
        ok(&spec, StatusCode::OK, "openapi");
        let file = write_temp(&spec.body);
        let script = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../tests/python/check_openapi.py");
        let python = std::env::var("PYTHON").unwrap_or_else(|_| "python3".into());
        let out = Command::new(&python)
            .arg(&script)
            .arg(file.path())
            .output()
            .unwrap_or_else(|e| panic!("{python} must run for this test: {e}"));
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            !stderr.contains("No module named 'openapi_spec_validator'"),
            "the validator is not installed: python3 -m pip install -r tests/python/requirements.txt"
        );
        assert!(
            out.status.success(),
            "/v1/openapi.json fails OpenAPI 3.1 validation:\n{stdout}\n{stderr}"
        );
        assert!(stdout.trim_end().ends_with("1 passed, 0 failed"), "{stdout}");
    })
    .await;
}
