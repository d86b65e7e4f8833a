//! Scenario 6: liveness, readiness, metrics and the API description.

use reqwest::StatusCode;
use serde_json::Value;

use crate::harness::{ok, run, Env, Store, TestApp};
use crate::play::{create_table, start_hand};

async fn health(env: Env) {
    let app = TestApp::spawn(&env).await;
    let h = app.get("/healthz", None).await;
    ok(&h, StatusCode::OK, "healthz");
    assert_eq!(h.body["status"], "ok");
    let r = app.get("/readyz", None).await;
    ok(&r, StatusCode::OK, "readyz");
    assert_eq!(r.body["status"], "ready");

    // Some traffic, so that the counters have samples.
    let (_, admin) = app.create_club("Kish");
    let table = create_table(&app, &admin, 2).await;
    start_hand(&app, &admin, &table).await;

    let m = app.get("/metrics", None).await;
    ok(&m, StatusCode::OK, "metrics");
    for name in [
        "http_requests_total",
        "http_request_duration_seconds",
        "store_append_seconds",
        "hands_total",
        "club_order_events_total",
        "sequencer_pass_seconds",
        "sequencer_failures_total",
    ] {
        assert!(m.text.contains(name), "metrics lack {name}:\n{}", m.text);
    }
    assert!(
        m.text.lines().any(|l| l.starts_with("hands_total")
            && l.contains("started")
            && l.trim_end().ends_with(" 1")),
        "hands_total{{event=\"started\"}} 1:\n{}",
        m.text
    );
    assert!(
        m.text
            .lines()
            .any(|l| l.starts_with("http_requests_total") && l.contains("/v1/tables")),
        "requests are counted by route pattern:\n{}",
        m.text
    );
    assert!(
        !m.text.contains(&table.id),
        "metrics name route patterns, not paths"
    );

    let spec = app.get("/v1/openapi.json", None).await;
    ok(&spec, StatusCode::OK, "openapi");
    let parsed: Value = serde_json::from_str(&spec.text).expect("openapi.json parses");
    assert!(parsed["openapi"]
        .as_str()
        .is_some_and(|v| v.starts_with("3.")));
    let paths = parsed["paths"].as_object().expect("paths");
    for p in [
        "/v1/tables",
        "/v1/tables/{table_id}/hands",
        "/v1/hands/{hand_id}",
        "/v1/hands/{hand_id}/actions",
        "/v1/hands/{hand_id}/entropy",
        "/v1/hands/{hand_id}/deal",
        "/v1/hands/{hand_id}/abandon",
        "/v1/hands/{hand_id}/legal-actions",
        "/v1/hands/{hand_id}/events",
        "/v1/hands/{hand_id}/replay",
        "/v1/hands/{hand_id}/bundle",
        "/v1/verify",
        "/v1/keys",
    ] {
        assert!(
            paths.contains_key(p),
            "openapi lacks {p}: {:?}",
            paths.keys()
        );
    }
    assert!(paths["/v1/hands/{hand_id}/actions"]["post"].is_object());
    assert!(paths["/v1/hands/{hand_id}"]["get"].is_object());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_health() {
    run(Store::Pg, health).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn embedded_health() {
    run(Store::Embedded, health).await;
}
