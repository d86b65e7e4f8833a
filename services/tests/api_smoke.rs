//! Smoke test of the real `audit-service` binary over HTTP, once on a fresh PostgreSQL
//! database and once on the embedded store: a club made through the CLI, a 3-seat
//! bist-o-yek table, one complete hand played by asking each seat's legal actions, its
//! bundle verified offline against the key the service publishes, and a few refusals.
//!
//! PostgreSQL tests create a database `t_<random hex>` through `DATABASE_URL_ADMIN`
//! (default `postgres://postgres@127.0.0.1:5432/postgres`) and drop it afterwards. They
//! fail, never skip, when PostgreSQL is unreachable.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use replayer::engine::{Actor, SeatIndex};
use replayer::log::{action_message, PublicKey, SigningKeyPair};
use replayer::verify::{verify_value, Options, Trust};
use reqwest::{Client, Method, StatusCode};
use serde_json::{json, Value};
use tokio_postgres::NoTls;

const DEFAULT_ADMIN_URL: &str = "postgres://postgres@127.0.0.1:5432/postgres";
const BIN: &str = env!("CARGO_BIN_EXE_audit-service");

fn random_hex() -> String {
    let mut b = [0u8; 8];
    getrandom::fill(&mut b).expect("os random");
    hex::encode(b)
}

/// The flags that name the store, shared by `serve` and the CLI subcommands.
fn store_flags(data: &Path, db_url: Option<&str>) -> Vec<String> {
    let mut v = vec!["--data-dir".to_string(), data.display().to_string()];
    if let Some(u) = db_url {
        v.push("--database-url".into());
        v.push(u.to_string());
    }
    v
}

/// A running service; killed when dropped.
struct TestApp {
    child: Child,
    base: String,
    http: Client,
    flags: Vec<String>,
}

impl Drop for TestApp {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A response: status, content type and JSON body (Null when not JSON).
struct Res {
    status: StatusCode,
    content_type: String,
    body: Value,
}

impl TestApp {
    async fn spawn(data: &Path, db_url: Option<&str>) -> TestApp {
        let flags = store_flags(data, db_url);
        let mut child = Command::new(BIN)
            .arg("serve")
            .args(["--listen", "127.0.0.1:0", "--workers", "2"])
            .args(&flags)
            .env("RUST_LOG", "warn")
            .env_remove("DATABASE_URL")
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start audit-service");
        let stdout = child.stdout.take().expect("stdout");
        let line = tokio::task::spawn_blocking(move || {
            let mut line = String::new();
            BufReader::new(stdout).read_line(&mut line).map(|_| line)
        })
        .await
        .expect("reader")
        .expect("read the listening line");
        let base = line
            .trim()
            .strip_prefix("listening on ")
            .unwrap_or_else(|| panic!("unexpected first line: {line:?}"))
            .to_string();
        TestApp {
            child,
            base,
            http: Client::builder()
                .timeout(Duration::from_secs(30))
                .build()
                .expect("client"),
            flags,
        }
    }

    /// Runs a CLI subcommand with the same store flags; its stdout.
    fn cli(&self, args: &[&str]) -> String {
        let out = Command::new(BIN)
            .args(args)
            .args(&self.flags)
            .env("RUST_LOG", "warn")
            .env_remove("DATABASE_URL")
            .output()
            .expect("run audit-service");
        assert!(
            out.status.success(),
            "{args:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).expect("utf-8")
    }

    /// A new club's admin key.
    fn create_club(&self, name: &str) -> String {
        let out = self.cli(&["club", "create", "--name", name, "--json"]);
        let v: Value = serde_json::from_str(out.trim()).expect("club create --json");
        assert!(v["club_id"].as_str().is_some_and(|c| c.starts_with("c_")));
        v["admin_key"].as_str().expect("admin_key").to_string()
    }

    async fn call(
        &self,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<Vec<u8>>,
        idem: Option<&str>,
    ) -> Res {
        let mut req = self
            .http
            .request(method, format!("{}{path}", self.base))
            .header("content-type", "application/json");
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        if let Some(k) = idem {
            req = req.header("Idempotency-Key", k);
        }
        if let Some(b) = body {
            req = req.body(b);
        }
        let res = req.send().await.expect("request");
        let status = res.status();
        let content_type = res
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_string();
        let bytes = res.bytes().await.expect("body");
        Res {
            status,
            content_type,
            body: serde_json::from_slice(&bytes).unwrap_or(Value::Null),
        }
    }

    async fn get(&self, path: &str, token: Option<&str>) -> Res {
        self.call(Method::GET, path, token, None, None).await
    }

    async fn post(&self, path: &str, token: Option<&str>, body: Value) -> Res {
        let bytes = serde_json::to_vec(&body).expect("json");
        self.call(Method::POST, path, token, Some(bytes), None)
            .await
    }
}

fn ok(r: &Res, want: StatusCode, what: &str) {
    assert_eq!(r.status, want, "{what}: {}", r.body);
}

fn problem(r: &Res, status: StatusCode, code: &str) {
    assert_eq!(r.status, status, "{}", r.body);
    assert!(
        r.content_type.starts_with("application/problem+json"),
        "content type {}",
        r.content_type
    );
    assert_eq!(r.body["code"], code, "{}", r.body);
    assert_eq!(r.body["status"], status.as_u16());
    assert!(r.body["type"].is_string() && r.body["title"].is_string());
}

/// A small deterministic generator for choosing among legal actions.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.next() % u64::try_from(n.max(1)).unwrap_or(1)).unwrap_or(0)
    }
}

/// One concrete action from the legal families: take the bank, announce khabar when
/// offered (it ends the banker's turn sooner), otherwise anything.
fn choose(legal: &[Value], rng: &mut Rng) -> Value {
    let of = |t: &str| legal.iter().find(|l| l["type"] == t);
    if let Some(a) = of("accept_bank").or_else(|| of("announce_khabar")) {
        return a.clone();
    }
    let l = &legal[rng.below(legal.len())];
    match l["type"].as_str().unwrap_or("") {
        t @ ("bet" | "side_bet") => {
            let (min, max) = (l["min"].as_u64().unwrap(), l["max"].as_u64().unwrap());
            let amount = min + rng.next() % (max - min + 1);
            json!({"type": t, "amount": amount})
        }
        "hit" => json!({"type": "hit"}),
        _ => l.clone(),
    }
}

/// Plays the hand to its end over HTTP.
async fn play_hand(app: &TestApp, admin: &str, hand: &str, tokens: &[String], rng: &mut Rng) {
    for _ in 0..5000 {
        let h = app.get(&format!("/v1/hands/{hand}"), Some(admin)).await;
        ok(&h, StatusCode::OK, "get hand");
        if h.body["status"] != "in_progress" {
            return;
        }
        let to_act = &h.body["to_act"];
        if !to_act["shuffle_pending"].is_null() {
            for t in tokens {
                let mut seed = [0u8; 16];
                getrandom::fill(&mut seed).unwrap();
                let r = app
                    .post(
                        &format!("/v1/hands/{hand}/entropy"),
                        Some(t),
                        json!({"seed": hex::encode(seed)}),
                    )
                    .await;
                assert!(
                    r.status == StatusCode::OK || r.body["code"] == "already_contributed",
                    "entropy: {}",
                    r.body
                );
            }
            let h = app.get(&format!("/v1/hands/{hand}"), Some(admin)).await;
            if !h.body["to_act"]["shuffle_pending"].is_null() {
                let r = app
                    .post(&format!("/v1/hands/{hand}/deal"), Some(admin), json!({}))
                    .await;
                ok(&r, StatusCode::OK, "deal");
            }
            continue;
        }
        let seat = to_act["actors"]
            .as_array()
            .unwrap()
            .iter()
            .find_map(|a| a["seat"].as_u64())
            .expect("a seat to act") as usize;
        let legal = app
            .get(
                &format!("/v1/hands/{hand}/legal-actions"),
                Some(&tokens[seat]),
            )
            .await;
        ok(&legal, StatusCode::OK, "legal actions");
        let actions = legal.body["legal_actions"].as_array().unwrap().clone();
        assert!(
            !actions.is_empty(),
            "seat {seat} to act has no legal action"
        );
        let action = choose(&actions, rng);
        let r = app
            .post(
                &format!("/v1/hands/{hand}/actions"),
                Some(&tokens[seat]),
                json!({"action": action, "expected_seq": legal.body["next_seq"]}),
            )
            .await;
        ok(&r, StatusCode::OK, "action");
    }
    panic!("the hand did not end");
}

async fn smoke(db_url: Option<String>) {
    let data = tempfile::tempdir().expect("temp dir");
    let app = TestApp::spawn(data.path(), db_url.as_deref()).await;
    let admin = app.create_club("Kish");

    // Liveness, readiness, the keys, the API description.
    ok(&app.get("/healthz", None).await, StatusCode::OK, "healthz");
    ok(&app.get("/readyz", None).await, StatusCode::OK, "readyz");
    let keys = app.get("/v1/keys", None).await;
    ok(&keys, StatusCode::OK, "keys");
    let current = keys.body["current"].as_str().unwrap().to_string();
    let service_key = keys.body["keys"]
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["key_id"] == current.as_str())
        .map(|k| PublicKey::from_hex(k["public_key"].as_str().unwrap()).unwrap())
        .expect("the current key is listed");
    let spec = app.get("/v1/openapi.json", None).await;
    ok(&spec, StatusCode::OK, "openapi");
    assert!(spec.body["paths"]["/v1/hands/{hand_id}/actions"].is_object());

    // A 3-seat bist-o-yek table; its seat tokens are in this answer only.
    let create = json!({
        "game": "bist-o-yek",
        "seats": [{"player": "Dariush"}, {"player": "Shirin"}, {"player": "Babak"}],
    });
    let table = app
        .call(
            Method::POST,
            "/v1/tables",
            Some(&admin),
            Some(serde_json::to_vec(&create).unwrap()),
            Some("table-1"),
        )
        .await;
    ok(&table, StatusCode::CREATED, "create table");
    let table_id = table.body["table_id"].as_str().unwrap().to_string();
    assert!(table.body["rules"]
        .as_object()
        .is_some_and(|r| !r.is_empty()));
    let tokens: Vec<String> = table.body["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["token"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(tokens.len(), 3);

    // The same Idempotency-Key and body: the first answer again; another body: refused.
    let again = app
        .call(
            Method::POST,
            "/v1/tables",
            Some(&admin),
            Some(serde_json::to_vec(&create).unwrap()),
            Some("table-1"),
        )
        .await;
    ok(&again, StatusCode::CREATED, "idempotent replay");
    assert_eq!(again.body, table.body);
    let other = app
        .call(
            Method::POST,
            "/v1/tables",
            Some(&admin),
            Some(
                br#"{"game": "bist-o-yek", "seats": [{"player": "a"}, {"player": "b"}]}"#.to_vec(),
            ),
            Some("table-1"),
        )
        .await;
    problem(
        &other,
        StatusCode::UNPROCESSABLE_ENTITY,
        "idempotency_key_reused",
    );
    let tables = app.get("/v1/tables", Some(&admin)).await;
    assert_eq!(tables.body["tables"].as_array().unwrap().len(), 1);
    let t = app
        .get(&format!("/v1/tables/{table_id}"), Some(&admin))
        .await;
    ok(&t, StatusCode::OK, "get table");
    assert!(
        t.body["seats"][0].get("token").is_none(),
        "no tokens after creation"
    );

    // Play one complete hand.
    let started = app
        .post(
            &format!("/v1/tables/{table_id}/hands"),
            Some(&admin),
            json!({}),
        )
        .await;
    ok(&started, StatusCode::CREATED, "start hand");
    let hand = started.body["hand_id"].as_str().unwrap().to_string();
    assert_eq!(started.body["commitment"].as_str().unwrap().len(), 64);
    problem(
        &app.post(
            &format!("/v1/tables/{table_id}/hands"),
            Some(&admin),
            json!({}),
        )
        .await,
        StatusCode::CONFLICT,
        "hand_in_progress",
    );
    problem(
        &app.get(&format!("/v1/hands/{hand}/bundle"), Some(&admin))
            .await,
        StatusCode::CONFLICT,
        "hand_in_progress",
    );
    // A seat sees its own view; no seed is published while the hand runs.
    let seat_view = app
        .get(&format!("/v1/hands/{hand}"), Some(&tokens[0]))
        .await;
    ok(&seat_view, StatusCode::OK, "seat view");
    assert_eq!(seat_view.body["viewer"], "seat");

    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    play_hand(&app, &admin, &hand, &tokens, &mut rng).await;

    let done = app.get(&format!("/v1/hands/{hand}"), Some(&admin)).await;
    assert_eq!(done.body["status"], "completed", "{}", done.body);
    assert_eq!(done.body["viewer"], "all");
    let events = app
        .get(&format!("/v1/hands/{hand}/events?limit=1000"), Some(&admin))
        .await;
    ok(&events, StatusCode::OK, "events");
    let n = events.body["events"].as_array().unwrap().len();
    let last = events.body["events"][n - 1]["event"]["body"]["type"].clone();
    assert_eq!(last, "seeds_revealed");
    let replay = app
        .get(&format!("/v1/hands/{hand}/replay?step=1"), Some(&tokens[1]))
        .await;
    ok(&replay, StatusCode::OK, "replay");
    assert_eq!(replay.body["step"], 1);

    // The bundle verifies offline against the key the service publishes, and online.
    let bundle = app
        .get(&format!("/v1/hands/{hand}/bundle"), Some(&admin))
        .await;
    ok(&bundle, StatusCode::OK, "bundle");
    let verdict = verify_value(
        bundle.body.clone(),
        &Options {
            trusted_keys: vec![service_key],
        },
    )
    .expect("a readable bundle");
    assert!(verdict.valid, "{:?}", verdict.problem);
    assert_eq!(verdict.trust, Trust::TrustedKey);
    let online = app.post("/v1/verify", None, bundle.body.clone()).await;
    ok(&online, StatusCode::OK, "verify");
    assert_eq!(online.body["valid"], true);
    problem(
        &app.post("/v1/verify", None, json!({"format": "nope"}))
            .await,
        StatusCode::BAD_REQUEST,
        "bundle_unreadable",
    );

    // The match moved on; the history and scoreboard show the hand.
    let board = app
        .get(&format!("/v1/tables/{table_id}/scoreboard"), Some(&admin))
        .await;
    ok(&board, StatusCode::OK, "scoreboard");
    assert_eq!(board.body["hands_played"], 1);
    let history = app.get("/v1/hands?status=completed", Some(&admin)).await;
    ok(&history, StatusCode::OK, "history");
    assert_eq!(history.body["hands"][0]["hand_id"], hand.as_str());

    // Refusals.
    problem(
        &app.get("/v1/tables", None).await,
        StatusCode::UNAUTHORIZED,
        "unauthorized",
    );
    problem(
        &app.call(
            Method::POST,
            "/v1/tables",
            Some(&admin),
            Some(b"{not json".to_vec()),
            None,
        )
        .await,
        StatusCode::BAD_REQUEST,
        "invalid_json",
    );
    // A NUL in an id or a query reaches no database (PostgreSQL text refuses it).
    problem(
        &app.get("/v1/hands/%00", Some(&admin)).await,
        StatusCode::NOT_FOUND,
        "not_found",
    );
    problem(
        &app.get("/v1/hands?player=%00", Some(&admin)).await,
        StatusCode::BAD_REQUEST,
        "invalid_query",
    );
    problem(
        &app.post("/v1/tables", Some(&tokens[0]), create.clone())
            .await,
        StatusCode::FORBIDDEN,
        "forbidden",
    );
    let second = app
        .post(
            &format!("/v1/tables/{table_id}/hands"),
            Some(&admin),
            json!({}),
        )
        .await;
    ok(&second, StatusCode::CREATED, "second hand");
    let hand2 = second.body["hand_id"].as_str().unwrap().to_string();
    let candidate = second.body["to_act"]["actors"][0]["seat"].as_u64().unwrap() as usize;
    let other_seat = (candidate + 1) % 3;
    let illegal = app
        .post(
            &format!("/v1/hands/{hand2}/actions"),
            Some(&tokens[other_seat]),
            json!({"action": {"type": "accept_bank"}}),
        )
        .await;
    problem(&illegal, StatusCode::UNPROCESSABLE_ENTITY, "illegal_action");
    assert!(illegal.body["rule"].as_str().is_some_and(|r| !r.is_empty()));
    assert!(illegal.body["section"].is_string());
    problem(
        &app.post(
            &format!("/v1/hands/{hand2}/actions"),
            Some(&tokens[candidate]),
            json!({"action": {"type": "accept_bank"}, "expected_seq": 999}),
        )
        .await,
        StatusCode::CONFLICT,
        "seq_conflict",
    );
    let auditor = app.post("/v1/keys/auditor", Some(&admin), json!({})).await;
    ok(&auditor, StatusCode::CREATED, "auditor key");
    let auditor = auditor.body["api_key"].as_str().unwrap().to_string();
    problem(
        &app.get(&format!("/v1/hands/{hand2}"), Some(&auditor)).await,
        StatusCode::NOT_FOUND,
        "not_found",
    );
    ok(
        &app.get(&format!("/v1/hands/{hand}/bundle"), Some(&auditor))
            .await,
        StatusCode::OK,
        "auditor reads a finished hand",
    );

    // A player who registered a key signs their own action; a bad signature is refused.
    player_signatures(&app, &admin).await;

    // Another club sees nothing of this one.
    let other_admin = app.create_club("Shiraz");
    for path in [
        format!("/v1/hands/{hand}"),
        format!("/v1/hands/{hand}/bundle"),
        format!("/v1/tables/{table_id}"),
    ] {
        problem(
            &app.get(&path, Some(&other_admin)).await,
            StatusCode::NOT_FOUND,
            "not_found",
        );
    }
    let abandon = app
        .post(
            &format!("/v1/hands/{hand2}/abandon"),
            Some(&other_admin),
            json!({"reason": "not yours"}),
        )
        .await;
    problem(&abandon, StatusCode::NOT_FOUND, "not_found");
    let metrics = app
        .http
        .get(format!("{}/metrics", app.base))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(metrics.contains("http_requests_total"));
    assert!(metrics.contains("store_append_seconds"));
}

async fn player_signatures(app: &TestApp, admin: &str) {
    let player = SigningKeyPair::from_secret([7; 32]);
    let table = app
        .post(
            "/v1/tables",
            Some(admin),
            json!({
                "game": "bist-o-yek",
                "seats": [{"player": "Roya", "public_key": player.public().to_hex()}, {"player": "Kaveh"}],
                "client_entropy": false,
            }),
        )
        .await;
    ok(&table, StatusCode::CREATED, "table with a player key");
    let table_id = table.body["table_id"].as_str().unwrap();
    let token = table.body["seats"][0]["token"]
        .as_str()
        .unwrap()
        .to_string();
    let started = app
        .post(
            &format!("/v1/tables/{table_id}/hands"),
            Some(admin),
            json!({}),
        )
        .await;
    ok(&started, StatusCode::CREATED, "start");
    let hand = started.body["hand_id"].as_str().unwrap().to_string();
    let seq = started.body["next_seq"].as_u64().unwrap();
    let head = replayer::log::Hash::from_hex(started.body["head"].as_str().unwrap()).unwrap();
    let action = json!({"type": "accept_bank"});
    let actor = Actor::Seat(SeatIndex(0));
    let sign = |seq: u64| {
        let msg = action_message(&hand, seq, &head, actor, &action).unwrap();
        json!({"key_id": player.key_id().0, "sig": player.sign(&msg).to_hex()})
    };
    let path = format!("/v1/hands/{hand}/actions");
    problem(
        &app.post(
            &path,
            Some(&token),
            json!({"action": action, "player_sig": sign(seq)}),
        )
        .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "expected_seq_required",
    );
    problem(
        &app.post(
            &path,
            Some(&token),
            json!({"action": action, "expected_seq": seq, "player_sig": sign(seq + 1)}),
        )
        .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "bad_player_signature",
    );
    let signed = app
        .post(
            &path,
            Some(&token),
            json!({"action": action, "expected_seq": seq, "player_sig": sign(seq)}),
        )
        .await;
    ok(&signed, StatusCode::OK, "signed action");
    assert_eq!(
        signed.body["events"][0]["event"]["player_sig"]["key_id"],
        player.key_id().0.as_str()
    );
    // Without client entropy the new turn's shuffle is used at once.
    let types: Vec<&str> = signed.body["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["event"]["body"]["type"].as_str())
        .collect();
    assert!(types.contains(&"shuffled"), "{types:?}");
    let abandoned = app
        .post(
            &format!("/v1/hands/{hand}/abandon"),
            Some(admin),
            json!({"reason": "test over"}),
        )
        .await;
    ok(&abandoned, StatusCode::OK, "abandon");
    assert_eq!(abandoned.body["status"], "abandoned");
    let bundle = app
        .get(&format!("/v1/hands/{hand}/bundle"), Some(admin))
        .await;
    let verdict = verify_value(bundle.body, &Options::default()).expect("readable");
    assert!(verdict.valid, "{:?}", verdict.problem);
    assert_eq!(verdict.player_signatures, 1);
}

/// Runs `f` with the URL of a fresh PostgreSQL database, dropped afterwards.
async fn with_pg_database<F, Fut>(f: F)
where
    F: FnOnce(String) -> Fut,
    Fut: std::future::Future<Output = ()> + Send + 'static,
{
    let admin_url =
        std::env::var("DATABASE_URL_ADMIN").unwrap_or_else(|_| DEFAULT_ADMIN_URL.to_owned());
    let admin_cfg: tokio_postgres::Config = admin_url.parse().expect("DATABASE_URL_ADMIN");
    let (client, conn) = admin_cfg.connect(NoTls).await.unwrap_or_else(|e| {
        panic!("PostgreSQL must be reachable for these tests (DATABASE_URL_ADMIN={admin_url}): {e}")
    });
    let driver = tokio::spawn(conn);
    let name = format!("t_{}", random_hex());
    client
        .batch_execute(&format!("CREATE DATABASE {name}"))
        .await
        .expect("create test database");
    // The admin URL with the database name replaced.
    let url = match admin_url.rsplit_once('/') {
        Some((base, rest)) if !base.ends_with('/') => {
            let query = rest
                .split_once('?')
                .map(|(_, q)| format!("?{q}"))
                .unwrap_or_default();
            format!("{base}/{name}{query}")
        }
        _ => format!("{admin_url}/{name}"),
    };
    let outcome = tokio::spawn(f(url)).await;
    if let Err(e) = client
        .batch_execute(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        .await
    {
        eprintln!("could not drop test database {name}: {e}");
    }
    drop(client);
    let _ = driver.await;
    if let Err(e) = outcome {
        std::panic::resume_unwind(e.into_panic());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_plays_a_hand_and_its_bundle_verifies() {
    with_pg_database(|url| smoke(Some(url))).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn embedded_store_plays_a_hand_and_its_bundle_verifies() {
    smoke(None).await;
}
