//! Production hygiene (issue 10): what a client sends cannot grow the metrics or the log.

use reqwest::{Method, StatusCode};

use crate::harness::{ok, random_hex, run, Env, Store, TestApp};

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
