//! The harness: a fresh store per test (a PostgreSQL database `e2e_<random hex>` or an
//! embedded data folder), the real `audit-service` binary started on `--listen
//! 127.0.0.1:0` with its stderr captured to a file, an HTTP client that records every
//! response body (for the leak checks), and the `replayer` command.

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use reqwest::{Client, Method, StatusCode};
use serde_json::{json, Value};
use tokio_postgres::NoTls;

pub const DEFAULT_ADMIN_URL: &str = "postgres://postgres@127.0.0.1:5432/postgres";
pub const BIN: &str = env!("CARGO_BIN_EXE_audit-service");

/// Which store the service runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Store {
    Pg,
    Embedded,
}

pub fn random_hex(bytes: usize) -> String {
    let mut b = vec![0u8; bytes];
    getrandom::fill(&mut b).expect("os random");
    hex::encode(b)
}

/// A test's own store: a data folder, a log folder and, for PostgreSQL, a database URL.
pub struct Env {
    pub data: tempfile::TempDir,
    pub logs: tempfile::TempDir,
    pub db_url: Option<String>,
    /// The same database on the hot standby (`DATABASE_URL_READ_ADMIN`), if one runs:
    /// the service then reads off it (`--read-database-url`).
    pub read_url: Option<String>,
}

impl Env {
    /// The flags that name the store, shared by `serve` and the CLI subcommands.
    pub fn store_flags(&self) -> Vec<String> {
        let mut v = vec![
            "--data-dir".to_string(),
            self.data.path().display().to_string(),
        ];
        if let Some(u) = &self.db_url {
            v.push("--database-url".into());
            v.push(u.clone());
        }
        if let Some(u) = &self.read_url {
            v.push("--read-database-url".into());
            v.push(u.clone());
        }
        v
    }

    /// Connects to the test database as a plain SQL session (PostgreSQL only).
    pub async fn pg(&self) -> tokio_postgres::Client {
        let url = self.db_url.as_deref().expect("a PostgreSQL test");
        let (client, conn) = tokio_postgres::connect(url, NoTls)
            .await
            .expect("connect to the test database");
        tokio::spawn(conn);
        client
    }
}

fn admin_url() -> String {
    std::env::var("DATABASE_URL_ADMIN").unwrap_or_else(|_| DEFAULT_ADMIN_URL.to_owned())
}

/// Runs `f` on a fresh store of the given kind; a PostgreSQL database is dropped
/// afterwards, even when `f` panics. Fails (never skips) when PostgreSQL is unreachable.
pub async fn run<F, Fut>(store: Store, f: F)
where
    F: FnOnce(Env) -> Fut,
    Fut: std::future::Future<Output = ()> + Send + 'static,
{
    let data = tempfile::tempdir().expect("temp dir");
    let logs = tempfile::tempdir().expect("temp dir");
    if store == Store::Embedded {
        let env = Env {
            data,
            logs,
            db_url: None,
            read_url: None,
        };
        if let Err(e) = tokio::spawn(f(env)).await {
            std::panic::resume_unwind(e.into_panic());
        }
        return;
    }
    let admin_url = admin_url();
    let admin_cfg: tokio_postgres::Config = admin_url.parse().expect("DATABASE_URL_ADMIN");
    let (client, conn) = admin_cfg.connect(NoTls).await.unwrap_or_else(|e| {
        panic!("PostgreSQL must be reachable for these tests (DATABASE_URL_ADMIN={admin_url}): {e}")
    });
    let driver = tokio::spawn(conn);
    let name = format!("e2e_{}", random_hex(8));
    client
        .batch_execute(&format!("CREATE DATABASE {name}"))
        .await
        .expect("create test database");
    let url = url_of(&admin_url, &name);
    let read_url = match read_admin_url() {
        Some(read_admin) => Some(standby_url(&read_admin, &name).await),
        None => None,
    };
    let env = Env {
        data,
        logs,
        db_url: Some(url),
        read_url,
    };
    let outcome = tokio::spawn(f(env)).await;
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

/// `admin_url` with its database replaced by `name`.
fn url_of(admin_url: &str, name: &str) -> String {
    match admin_url.rsplit_once('/') {
        Some((base, rest)) if !base.ends_with('/') => {
            let query = rest
                .split_once('?')
                .map(|(_, q)| format!("?{q}"))
                .unwrap_or_default();
            format!("{base}/{name}{query}")
        }
        _ => format!("{admin_url}/{name}"),
    }
}

/// The superuser URL of the hot standby of the test cluster (`DATABASE_URL_READ_ADMIN`,
/// set by `ops/test.sh`), if one runs.
pub fn read_admin_url() -> Option<String> {
    std::env::var("DATABASE_URL_READ_ADMIN")
        .ok()
        .filter(|u| !u.trim().is_empty())
}

/// The URL of database `name` on the standby, once the standby has replayed its
/// creation (fails after 60 s: a test may hold replay paused for a moment, not longer).
pub async fn standby_url(read_admin: &str, name: &str) -> String {
    let url = url_of(read_admin, name);
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    loop {
        match tokio_postgres::connect(&url, NoTls).await {
            Ok((client, conn)) => {
                drop(client);
                let _ = conn.await;
                return url;
            }
            Err(e) if std::time::Instant::now() > deadline => {
                panic!("database {name} did not reach the standby ({read_admin}): {e}")
            }
            Err(_) => tokio::time::sleep(Duration::from_millis(20)).await,
        }
    }
}

/// One captured response.
#[derive(Clone, Debug)]
pub struct Captured {
    pub method: String,
    pub path: String,
    pub status: u16,
    pub body: String,
}

/// A response: status, content type, the `Idempotent-Replayed` header, the raw text and
/// the JSON body (Null when not JSON).
#[derive(Clone, Debug)]
pub struct Res {
    pub status: StatusCode,
    pub content_type: String,
    pub replayed: Option<String>,
    pub text: String,
    pub body: Value,
}

/// A running service; killed when dropped.
pub struct TestApp {
    child: Child,
    pub base: String,
    pub http: Client,
    flags: Vec<String>,
    log_path: PathBuf,
    pub data_dir: PathBuf,
    /// Every response body received, in order.
    pub captured: Arc<Mutex<Vec<Captured>>>,
}

impl Drop for TestApp {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl TestApp {
    pub async fn spawn(env: &Env) -> TestApp {
        TestApp::spawn_with(env, &[]).await
    }

    /// The process id of the server.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Starts the service with further `serve` flags.
    pub async fn spawn_with(env: &Env, extra: &[&str]) -> TestApp {
        let flags = env.store_flags();
        let log_path = env.logs.path().join(format!("serve-{}.log", random_hex(4)));
        let log = File::create(&log_path).expect("log file");
        let mut child = Command::new(BIN)
            .arg("serve")
            .args(["--listen", "127.0.0.1:0", "--workers", "2"])
            .args(&flags)
            .args(extra)
            .env("RUST_LOG", "info")
            .env_remove("DATABASE_URL")
            .env_remove("AUDIT_READ_DATABASE_URL")
            .env_remove("AUDIT_DATA_DIR")
            .env_remove("AUDIT_KEY_FILE")
            .stdout(Stdio::piped())
            .stderr(Stdio::from(log))
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
        let Some(base) = line.trim().strip_prefix("listening on ") else {
            let log = std::fs::read_to_string(&log_path).unwrap_or_default();
            panic!("unexpected first line: {line:?}; stderr: {log}");
        };
        TestApp {
            base: base.to_string(),
            child,
            http: Client::builder()
                .timeout(Duration::from_secs(60))
                // The server closes a keep-alive connection after 5 s idle; a pooled
                // one reused just then fails to send ("connection closed before
                // message completed"). Never reuse one that idled for 2 s.
                .pool_idle_timeout(Duration::from_secs(2))
                .build()
                .expect("client"),
            flags,
            log_path,
            data_dir: env.data.path().to_path_buf(),
            captured: Arc::default(),
        }
    }

    /// Stops the service as `ops/stop.sh` does (SIGTERM) and waits for it to exit;
    /// panics if it has not exited cleanly within 30 s.
    pub async fn terminate(&mut self) {
        let pid = self.child.id().to_string();
        let sent = Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .expect("run kill");
        assert!(sent.success(), "kill -TERM {pid}");
        for _ in 0..300 {
            if let Some(status) = self.child.try_wait().expect("wait for the service") {
                assert!(
                    status.success(),
                    "the service exited with {status}: {}",
                    self.log()
                );
                return;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("the service did not stop within 30 s of SIGTERM");
    }

    /// The service's stderr so far.
    pub fn log(&self) -> String {
        std::fs::read_to_string(&self.log_path).expect("read the service log")
    }

    /// Runs a CLI subcommand with the same store flags; its stdout.
    pub fn cli(&self, args: &[&str]) -> String {
        let out = Command::new(BIN)
            .args(args)
            .args(&self.flags)
            .env("RUST_LOG", "warn")
            .env_remove("DATABASE_URL")
            .env_remove("AUDIT_READ_DATABASE_URL")
            .output()
            .expect("run audit-service");
        assert!(
            out.status.success(),
            "{args:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).expect("utf-8")
    }

    /// A new club: (club id, admin key).
    pub fn create_club(&self, name: &str) -> (String, String) {
        let out = self.cli(&["club", "create", "--name", name, "--json"]);
        let v: Value = serde_json::from_str(out.trim()).expect("club create --json");
        let club = v["club_id"].as_str().expect("club_id").to_string();
        assert!(club.starts_with("c_"), "{v}");
        (
            club,
            v["admin_key"].as_str().expect("admin_key").to_string(),
        )
    }

    /// A new auditor key through the CLI.
    pub fn add_auditor_cli(&self, club: &str) -> String {
        let out = self.cli(&[
            "club", "add-key", "--club", club, "--role", "auditor", "--json",
        ]);
        let v: Value = serde_json::from_str(out.trim()).expect("club add-key --json");
        assert_eq!(v["role"], "auditor", "{v}");
        v["api_key"].as_str().expect("api_key").to_string()
    }

    pub async fn call(
        &self,
        method: Method,
        path: &str,
        token: Option<&str>,
        body: Option<Vec<u8>>,
        idem: Option<&str>,
    ) -> Res {
        let mut req = self
            .http
            .request(method.clone(), format!("{}{path}", self.base))
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
        let res = req
            .send()
            .await
            .unwrap_or_else(|e| panic!("{method} {path}: {e}"));
        let status = res.status();
        let header = |name: &str| {
            res.headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_string)
        };
        let content_type = header("content-type").unwrap_or_default();
        let replayed = header("idempotent-replayed");
        let text = res.text().await.expect("body");
        self.captured.lock().unwrap().push(Captured {
            method: method.to_string(),
            path: path.to_string(),
            status: status.as_u16(),
            body: text.clone(),
        });
        Res {
            status,
            content_type,
            replayed,
            body: serde_json::from_str(&text).unwrap_or(Value::Null),
            text,
        }
    }

    pub async fn get(&self, path: &str, token: Option<&str>) -> Res {
        self.call(Method::GET, path, token, None, None).await
    }

    pub async fn post(&self, path: &str, token: Option<&str>, body: Value) -> Res {
        let bytes = serde_json::to_vec(&body).expect("json");
        self.call(Method::POST, path, token, Some(bytes), None)
            .await
    }

    pub async fn post_idem(&self, path: &str, token: Option<&str>, body: Value, key: &str) -> Res {
        let bytes = serde_json::to_vec(&body).expect("json");
        self.call(Method::POST, path, token, Some(bytes), Some(key))
            .await
    }

    pub async fn post_raw(&self, path: &str, token: Option<&str>, body: Vec<u8>) -> Res {
        self.call(Method::POST, path, token, Some(body), None).await
    }

    /// The current signing key's public key (hex), from `GET /v1/keys`.
    pub async fn service_key(&self) -> String {
        let keys = self.get("/v1/keys", None).await;
        ok(&keys, StatusCode::OK, "keys");
        let current = keys.body["current"].as_str().expect("current").to_string();
        keys.body["keys"]
            .as_array()
            .expect("keys")
            .iter()
            .find(|k| k["key_id"] == current.as_str())
            .and_then(|k| k["public_key"].as_str())
            .expect("the current key is listed")
            .to_string()
    }

    /// The bodies captured so far.
    pub fn captured(&self) -> Vec<Captured> {
        self.captured.lock().unwrap().clone()
    }
}

pub fn ok(r: &Res, want: StatusCode, what: &str) {
    assert_eq!(r.status, want, "{what}: {}", r.text);
}

/// Asserts a problem document with this status and code.
pub fn problem(r: &Res, status: StatusCode, code: &str) {
    problem_at(r, status, code, "");
}

/// [`problem`], naming the request in the failure message.
pub fn problem_at(r: &Res, status: StatusCode, code: &str, what: &str) {
    assert_eq!(
        r.status, status,
        "{what}: expected {status} {code}, got: {}",
        r.text
    );
    assert!(
        r.content_type.starts_with("application/problem+json"),
        "{what}: content type {:?} for {}",
        r.content_type,
        r.text
    );
    assert_eq!(r.body["code"], code, "{what}: {}", r.text);
    assert_eq!(r.body["status"], status.as_u16(), "{what}: {}", r.text);
    assert!(
        r.body["type"].as_str().is_some_and(|t| !t.is_empty())
            && r.body["title"].as_str().is_some_and(|t| !t.is_empty()),
        "{what}: type and title: {}",
        r.text
    );
}

/// A token of the right shape that the service never issued, of a club that does not
/// exist.
pub fn random_api_key() -> String {
    format!(
        "ak_c_{}_{}_{}",
        random_hex(8),
        random_hex(8),
        random_hex(32)
    )
}

pub fn random_seat_token() -> String {
    format!(
        "st_c_{}_{}_{}",
        random_hex(8),
        random_hex(8),
        random_hex(32)
    )
}

/// A token in the legacy format, `<prefix>_<id>_<secret>`, as the service made them
/// before tokens named their club: (id, hex SHA-256 of the secret, token).
pub fn legacy_token(prefix: &str) -> (String, String, String) {
    use sha2::Digest;
    let (id, secret) = (random_hex(8), random_hex(32));
    let hash = hex::encode(sha2::Sha256::digest(secret.as_bytes()));
    let token = format!("{prefix}_{id}_{secret}");
    (id, hash, token)
}

/// The `replayer` command, built once if `cargo test` did not build it.
pub fn replayer_bin() -> PathBuf {
    static BIN_PATH: OnceLock<PathBuf> = OnceLock::new();
    BIN_PATH
        .get_or_init(|| {
            let exe = std::env::current_exe().expect("current exe");
            // …/<target>/<profile>/deps/e2e-xxxx
            let profile_dir = exe
                .parent()
                .and_then(Path::parent)
                .expect("the test binary lives in <target>/<profile>/deps")
                .to_path_buf();
            let name = format!("replayer{}", std::env::consts::EXE_SUFFIX);
            let path = profile_dir.join(&name);
            if path.exists() {
                return path;
            }
            let target_dir = std::env::var_os("CARGO_TARGET_DIR")
                .map(PathBuf::from)
                .unwrap_or_else(|| profile_dir.parent().expect("target dir").to_path_buf());
            let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
            let workspace = Path::new(env!("CARGO_MANIFEST_DIR"))
                .parent()
                .expect("workspace");
            let mut cmd = Command::new(cargo);
            cmd.args(["build", "-p", "replayer", "--bin", "replayer"])
                .env("CARGO_TARGET_DIR", &target_dir)
                .current_dir(workspace);
            if profile_dir.file_name().is_some_and(|n| n == "release") {
                cmd.arg("--release");
            }
            let status = cmd.status().unwrap_or_else(|e| {
                panic!("the replayer binary is missing at {path:?} and cargo could not run: {e}")
            });
            assert!(
                status.success() && path.exists(),
                "the replayer binary is missing at {path:?} and `cargo build -p replayer --bin replayer` failed ({status})"
            );
            path
        })
        .clone()
}

/// Runs `replayer` with these arguments: (exit code, stdout, stderr).
pub fn replayer(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(replayer_bin())
        .args(args)
        .output()
        .expect("run replayer");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Writes a JSON document to a temp file; the file lives as long as the handle.
pub fn write_temp(v: &Value) -> tempfile::NamedTempFile {
    let f = tempfile::NamedTempFile::new().expect("temp file");
    std::fs::write(f.path(), serde_json::to_vec_pretty(v).unwrap()).expect("write");
    f
}

/// The bundle of a finished hand, checked three ways: the chain is linear, the
/// `replayer verify` command accepts it (exit 0) with the service's public key, and
/// `POST /v1/verify` says valid.
pub async fn verify_bundle(app: &TestApp, token: &str, hand: &str) -> Value {
    let bundle = app
        .get(&format!("/v1/hands/{hand}/bundle"), Some(token))
        .await;
    ok(&bundle, StatusCode::OK, "bundle");
    check_chain(bundle.body["records"].as_array().expect("records"));
    let key = app.service_key().await;
    let file = write_temp(&bundle.body);
    let path = file.path().display().to_string();
    let (code, out, err) = replayer(&["verify", &path, "--key", &key]);
    assert_eq!(
        code, 0,
        "replayer verify of hand {hand}: stdout {out} stderr {err}"
    );
    let online = app.post("/v1/verify", None, bundle.body.clone()).await;
    ok(&online, StatusCode::OK, "verify");
    assert_eq!(online.body["valid"], true, "{}", online.text);
    assert_eq!(online.body["trust"], "trusted_key", "{}", online.text);
    assert_eq!(online.body["hand"], hand);
    bundle.body
}

/// The records are seq 0..n, contiguous, each `prev` the previous record's hash.
pub fn check_chain(records: &[Value]) {
    assert!(!records.is_empty());
    let first_prev = records[0]["event"]["prev"].as_str().expect("prev");
    assert!(
        first_prev.chars().all(|c| c == '0'),
        "event 0's prev is the zero hash: {first_prev}"
    );
    for (i, r) in records.iter().enumerate() {
        assert_eq!(r["event"]["seq"], json!(i), "seq of record {i}");
        if i > 0 {
            assert_eq!(
                r["event"]["prev"],
                records[i - 1]["hash"],
                "record {i}'s prev is record {}'s hash",
                i - 1
            );
        }
    }
}

/// Every server seed revealed in a bundle's last event.
pub fn revealed_seeds(bundle: &Value) -> Vec<String> {
    let records = bundle["records"].as_array().expect("records");
    let last = &records[records.len() - 1]["event"]["body"];
    assert_eq!(last["type"], "seeds_revealed", "{last}");
    let seeds: Vec<String> = last["seeds"]
        .as_array()
        .expect("seeds")
        .iter()
        .map(|s| s["server_seed"].as_str().expect("server_seed").to_string())
        .collect();
    assert!(!seeds.is_empty());
    for s in &seeds {
        assert_eq!(s.len(), 64, "a server seed is 64 hex characters: {s}");
    }
    seeds
}

/// The hand's next seq and the number of its events (as the admin sees them).
pub async fn hand_state(app: &TestApp, admin: &str, hand: &str) -> (u64, usize) {
    let h = app.get(&format!("/v1/hands/{hand}"), Some(admin)).await;
    ok(&h, StatusCode::OK, "get hand");
    let ev = app
        .get(&format!("/v1/hands/{hand}/events?limit=1000"), Some(admin))
        .await;
    ok(&ev, StatusCode::OK, "events");
    let n = ev.body["events"].as_array().expect("events").len();
    let next = h.body["next_seq"].as_u64().expect("next_seq");
    assert_eq!(next as usize, n, "next_seq is the event count");
    (next, n)
}
