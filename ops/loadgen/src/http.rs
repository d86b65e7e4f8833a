//! `loadgen http`: actions through the service's HTTP API against the store-only append
//! workload (`loadgen appends`), in one run.
//!
//! For each concurrency C, interleaved slices (store, HTTP, store, HTTP …) so that a
//! drift of the machine hits both alike:
//!
//! * **store**: the `appends` workload at C (one club, C Bist-o-yek tables, each a task
//!   driving its own `LiveHand` and calling `Store::create_hand` / `Store::append`
//!   directly: what the service does per request, without HTTP);
//! * **HTTP**: the real `audit-service serve` (release binary, its own process, a fresh
//!   PostgreSQL database of its own, a pool of C connections unless told otherwise), a
//!   club made with `audit-service club create`, C Bist-o-yek tables of 4 seats made with
//!   `POST /v1/tables` (no client entropy, as the store side), and C client tasks, one per
//!   table, each playing hands back to back: the admin starts a hand; then a seat that
//!   may act (from the hand's `to_act`) asks `GET …/legal-actions` with its own seat token
//!   (unless the answer to its own last write gave them: a seat acting again, as a hit
//!   after a hit) and sends one of them, sampled by the engine (`DynGame::sample_legal`),
//!   with its token and `expected_seq` (`POST …/actions`). When a slice ends the hand in
//!   progress at each table is abandoned (`POST …/abandon`), as the store side abandons
//!   its own.
//!
//! Why a separate process and not the service in this one: production runs the binary,
//! with its own actix workers and runtime, its allocator and real TCP; and its CPU can be
//! told apart from the client's (`/proc/<pid>/stat`), which is how the gap is explained.
//!
//! Why `GET …/legal-actions` before each action: the engines compute legal actions from
//! the whole state of a hand, which a seat's view does not carry (hidden cards, the
//! deck), and there is no engine function from a view; a client that does not copy the
//! rules asks, as docs/API.md's walk-through does. A write's answer carries the writer's
//! own legal actions after it (`legal_actions`), so a seat that acts twice in a row asks
//! once; a seat that has not acted since another one did asks again.
//!
//! Every loop is bounded in count and in time; the only traffic is to the service this
//! command starts on 127.0.0.1 and to the two database URLs given.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context as _};
use hyper::Method;
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use replayer::engine::GameId;
use replayer::games::registry;
use serde::de::IgnoredAny;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::appends::{appends_rig, appends_slice, Phase, SliceOpts};
use crate::common::{
    connect, durability_settings, machine_cpu, process_cpu_secs, random_bytes, random_seed,
    Latencies,
};

/// Most requests one table's client may send in a slice, whatever the duration.
const MAX_REQUESTS_PER_TASK: u64 = 5_000_000;
/// Most steps one hand may take before the client abandons it.
const MAX_HAND_STEPS: usize = 2_000;
/// Most unexpected answers one table's client may get in a slice before it stops.
const MAX_TABLE_ERRORS: u64 = 20;
/// The ratio the HTTP path must reach at the judged concurrency.
const TARGET_RATIO: f64 = 0.5;
/// Longest any one request may take.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Concurrencies (tables played at once), comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "1,8,32")]
    concurrency: Vec<usize>,
    /// Seconds per path (store and HTTP) and concurrency.
    #[arg(long, default_value_t = 20)]
    duration_secs: u64,
    /// Each concurrency alternates store and HTTP this many times (slices of
    /// duration / rounds seconds).
    #[arg(long, default_value_t = 4)]
    rounds: u64,
    /// The (throw-away) database of the store side.
    #[arg(long, env = "DATABASE_URL")]
    database_url: String,
    /// The (throw-away, fresh) database the service runs on: another one than the store
    /// side's, so that neither side's sequencer orders the other's events.
    #[arg(long)]
    service_database_url: String,
    /// The `audit-service` binary (built with --release).
    #[arg(long)]
    service_bin: PathBuf,
    /// The service's pool size (`--db-pool`); default: C, the store side's pool.
    #[arg(long)]
    service_db_pool: Option<usize>,
    /// The service's HTTP workers (`--workers`); default: the service's own (one per core).
    #[arg(long)]
    service_workers: Option<usize>,
    /// Seats per Bist-o-yek table.
    #[arg(long, default_value_t = 4)]
    players: u8,
    /// Concurrency at which the ratio target is judged.
    #[arg(long, default_value_t = 32)]
    target_at: usize,
    /// Seconds of HTTP play before the measured slices of each concurrency (the service's
    /// pool and the client's connections are opened, the code paths warm).
    #[arg(long, default_value_t = 2)]
    warmup_secs: u64,
}

// ---------------------------------------------------------------------------------------
// The service process

/// An `audit-service serve` started by this command; killed when dropped.
struct ServiceProc {
    child: Child,
    pid: String,
    url: String,
    dir: PathBuf,
}

impl ServiceProc {
    /// Starts the service on 127.0.0.1 (a free port) and waits for its `listening on`
    /// line.
    fn start(
        bin: &Path,
        db_url: &str,
        dir: &Path,
        pool: usize,
        workers: Option<usize>,
    ) -> anyhow::Result<ServiceProc> {
        std::fs::create_dir_all(dir)?;
        let out_path = dir.join("serve.out");
        let out = std::fs::File::create(&out_path)?;
        let err = std::fs::File::create(dir.join("serve.log"))?;
        let mut cmd = Command::new(bin);
        cmd.arg("serve")
            .args(["--listen", "127.0.0.1:0"])
            .arg("--database-url")
            .arg(db_url)
            .arg("--data-dir")
            .arg(dir.join("data"))
            .args(["--db-pool", &pool.to_string()])
            .args(["--shutdown-timeout", "5"]);
        if let Some(w) = workers {
            cmd.args(["--workers", &w.to_string()]);
        }
        let child = cmd
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(err)
            .spawn()
            .with_context(|| format!("starting {}", bin.display()))?;
        let pid = child.id().to_string();
        let mut svc = ServiceProc {
            child,
            pid,
            url: String::new(),
            dir: dir.to_owned(),
        };
        // Bounded: 600 polls of 100 ms.
        for _ in 0..600 {
            let text = std::fs::read_to_string(&out_path).unwrap_or_default();
            if let Some(url) = text
                .lines()
                .find_map(|l| l.strip_prefix("listening on "))
                .map(str::trim)
            {
                svc.url = url.to_owned();
                return Ok(svc);
            }
            if svc.child.try_wait()?.is_some() {
                bail!("audit-service exited at start:\n{}", svc.log_tail());
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        bail!(
            "audit-service did not listen within 60 s:\n{}",
            svc.log_tail()
        )
    }

    fn log_tail(&self) -> String {
        let text = std::fs::read_to_string(self.dir.join("serve.log")).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        lines[lines.len().saturating_sub(20)..].join("\n")
    }

    /// SIGTERM, then up to 10 s for the service to finish its requests and its last
    /// sequencer pass; SIGKILL after that.
    fn stop(&mut self) -> anyhow::Result<()> {
        if self.child.try_wait()?.is_some() {
            return Ok(());
        }
        let _ = Command::new("kill").args(["-TERM", &self.pid]).status();
        for _ in 0..100 {
            if self.child.try_wait()?.is_some() {
                return Ok(());
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        self.child.kill()?;
        self.child.wait()?;
        Ok(())
    }
}

impl Drop for ServiceProc {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// `audit-service club create --json` on the service's store: `(club_id, admin_key)`.
fn create_club(
    bin: &Path,
    db_url: &str,
    dir: &Path,
    name: &str,
) -> anyhow::Result<(String, String)> {
    let out = Command::new(bin)
        .args(["club", "create", "--json", "--name", name])
        .arg("--database-url")
        .arg(db_url)
        .arg("--data-dir")
        .arg(dir.join("data"))
        .stdin(Stdio::null())
        .output()
        .context("audit-service club create")?;
    if !out.status.success() {
        bail!(
            "audit-service club create: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let v: Value = serde_json::from_slice(&out.stdout).context("club create: not JSON")?;
    Ok((
        v["club_id"].as_str().context("club_id")?.to_owned(),
        v["admin_key"].as_str().context("admin_key")?.to_owned(),
    ))
}

// ---------------------------------------------------------------------------------------
// The client

/// What the client reads of `to_act`.
#[derive(Debug, Clone, Deserialize)]
struct ToAct {
    actors: Vec<Value>,
    shuffle_pending: Option<IgnoredAny>,
}

/// What the client reads of a hand start's or a write's answer (`HandStarted`,
/// `Appended`) or of `GET /v1/hands/{id}` (whose `events` are absent).
#[derive(Debug, Deserialize)]
struct Written {
    hand_id: String,
    next_seq: u64,
    status: String,
    #[serde(default)]
    events: Vec<IgnoredAny>,
    to_act: ToAct,
    /// The writer's own legal actions after the write (absent from other answers).
    #[serde(default)]
    legal_actions: Vec<Value>,
}

/// `GET …/legal-actions`.
#[derive(Debug, Deserialize)]
struct Legal {
    next_seq: u64,
    legal_actions: Vec<Value>,
}

/// A running hand as its table's client follows it.
#[derive(Debug, Clone)]
struct HandState {
    hand_id: String,
    next_seq: u64,
    to_act: ToAct,
    steps: usize,
    /// The legal actions at `next_seq` of the caller with this token, when the answer to
    /// its write gave them (a caller that may act again).
    known: Option<(String, Vec<Value>)>,
}

/// One table: its seat tokens and the hand running there.
#[derive(Debug)]
struct Table {
    table_id: String,
    tokens: Vec<String>,
    hand: Option<HandState>,
}

/// The kinds of request, for latencies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Start,
    Legal,
    Action,
    Deal,
    Abandon,
    Reload,
    NewTable,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Start => "POST …/hands (admin: start)",
            Kind::Legal => "GET …/legal-actions (seat)",
            Kind::Action => "POST …/actions (seat)",
            Kind::Deal => "POST …/deal (admin)",
            Kind::Abandon => "POST …/abandon (admin)",
            Kind::Reload => "GET /v1/hands/{id} (admin)",
            Kind::NewTable => "POST /v1/tables (admin)",
        }
    }
}

/// What every table's client of one run shares: where the service listens and the
/// club admin's key.
#[derive(Clone)]
struct Api {
    /// `host:port` of the service (plain HTTP on 127.0.0.1).
    authority: Arc<str>,
    admin: Arc<String>,
}

impl Api {
    fn new(url: &str, admin: String) -> anyhow::Result<Api> {
        let authority = url
            .trim_end_matches('/')
            .strip_prefix("http://")
            .with_context(|| format!("not a plain-HTTP address: {url}"))?;
        Ok(Api {
            authority: Arc::from(authority),
            admin: Arc::new(admin),
        })
    }
}

type Body = http_body_util::Full<bytes::Bytes>;
type Io = hyper_util::rt::TokioIo<tokio::net::TcpStream>;
type Sender = hyper::client::conn::http1::SendRequest<Body>;
type Driver = hyper::client::conn::http1::Connection<Io, Body>;

/// One table's keep-alive HTTP/1.1 connection to the service (hyper's connection API),
/// driven inside the table's own task: a request and its answer go from the task to
/// the socket and back without a hand-off to a connection task on another thread, as
/// a shared pooled client (reqwest's, before) does for every request. On the two cores
/// the load generator shares with the service and PostgreSQL, what the client costs is
/// taken from them (ops/README.md, eighth round). Opened on first use, and again after
/// any failure.
struct Conn {
    authority: Arc<str>,
    open: Option<(Sender, Pin<Box<Driver>>)>,
}

impl Conn {
    fn new(api: &Api) -> Conn {
        Conn {
            authority: api.authority.clone(),
            open: None,
        }
    }

    /// One request; `Ok((status, body bytes))`. At most [`REQUEST_TIMEOUT`], the
    /// connection included.
    async fn call(
        &mut self,
        method: Method,
        path: &str,
        token: &str,
        body: Option<&Value>,
    ) -> anyhow::Result<(u16, bytes::Bytes)> {
        let r = tokio::time::timeout(REQUEST_TIMEOUT, self.exchange(method, path, token, body))
            .await
            .map_err(|_| anyhow::anyhow!("{path}: no answer in {REQUEST_TIMEOUT:?}"))
            .and_then(|r| r);
        if r.is_err() {
            // Whatever state the connection is in, the next request opens a new one.
            self.open = None;
        }
        r
    }

    async fn exchange(
        &mut self,
        method: Method,
        path: &str,
        token: &str,
        body: Option<&Value>,
    ) -> anyhow::Result<(u16, bytes::Bytes)> {
        use http_body_util::BodyExt as _;
        if self.open.is_none() {
            let tcp = tokio::time::timeout(
                Duration::from_secs(5),
                tokio::net::TcpStream::connect(&*self.authority),
            )
            .await
            .context("connecting to the service: timed out")?
            .context("connecting to the service")?;
            tcp.set_nodelay(true)?;
            let (sender, conn) =
                hyper::client::conn::http1::handshake(hyper_util::rt::TokioIo::new(tcp)).await?;
            self.open = Some((sender, Box::pin(conn)));
        }
        let (sender, conn) = self.open.as_mut().context("no connection")?;
        let mut req = hyper::Request::builder()
            .method(method)
            .uri(path)
            .header(hyper::header::HOST, &*self.authority)
            .header(hyper::header::AUTHORIZATION, format!("Bearer {token}"));
        let bytes = match body {
            Some(b) => {
                req = req.header(hyper::header::CONTENT_TYPE, "application/json");
                bytes::Bytes::from(serde_json::to_vec(b)?)
            }
            None => bytes::Bytes::new(),
        };
        let req = req.body(Body::new(bytes))?;
        let exchange = async {
            sender.ready().await?;
            let res = sender.send_request(req).await?;
            let status = res.status().as_u16();
            let body = res.into_body().collect().await?.to_bytes();
            anyhow::Ok((status, body))
        };
        // The connection is polled with the exchange: it is what moves the bytes.
        tokio::select! {
            r = exchange => r,
            end = conn.as_mut() => {
                bail!("{path}: the service closed the connection ({end:?})")
            }
        }
    }
}

/// What one table's task did in a slice.
#[derive(Debug, Default)]
struct TaskOut {
    events: u64,
    actions: u64,
    requests: u64,
    hands_finished: u64,
    tables_made: u64,
    errors: u64,
    first_error: Option<String>,
    lat: BTreeMap<Kind, Latencies>,
}

impl TaskOut {
    fn error(&mut self, e: impl std::fmt::Display) {
        self.errors += 1;
        if self.first_error.is_none() {
            self.first_error = Some(e.to_string());
        }
    }
}

/// A table's client: the shared API, its connection, its RNG, its counts.
struct Client {
    api: Api,
    conn: Conn,
    rng: ChaCha8Rng,
    players: u8,
    out: TaskOut,
}

impl Client {
    /// Sends a request, times it, and parses a 2xx answer as `T`; a non-2xx is `Ok(Err)`
    /// with its status and body.
    async fn send<T: for<'de> Deserialize<'de>>(
        &mut self,
        kind: Kind,
        method: Method,
        path: &str,
        token: &str,
        body: Option<&Value>,
    ) -> anyhow::Result<Result<T, String>> {
        let t0 = Instant::now();
        let (status, bytes) = self.conn.call(method, path, token, body).await?;
        self.out.lat.entry(kind).or_default().push(t0.elapsed());
        self.out.requests += 1;
        if (200..300).contains(&status) {
            Ok(Ok(serde_json::from_slice(&bytes)
                .with_context(|| format!("{path}: unexpected answer"))?))
        } else {
            let text = String::from_utf8_lossy(&bytes);
            Ok(Err(format!(
                "{status} {}",
                text.chars().take(300).collect::<String>()
            )))
        }
    }

    /// A write's answer: counts its events; `None` once the hand is over.
    fn wrote(&mut self, w: Written, steps: usize) -> Option<HandState> {
        self.out.events += u64::try_from(w.events.len()).unwrap_or(0);
        self.follow(w, steps)
    }

    /// [`Self::wrote`], keeping the legal actions the answer gives the writer (`token`).
    fn wrote_as(&mut self, mut w: Written, steps: usize, token: &str) -> Option<HandState> {
        let legal = std::mem::take(&mut w.legal_actions);
        let legal = (!legal.is_empty()).then_some(legal);
        let mut h = self.wrote(w, steps)?;
        h.known = legal.map(|l| (token.to_owned(), l));
        Some(h)
    }

    /// The hand as an answer shows it; `None` once it is over.
    fn follow(&mut self, w: Written, steps: usize) -> Option<HandState> {
        if w.status == "in_progress" {
            Some(HandState {
                hand_id: w.hand_id,
                next_seq: w.next_seq,
                to_act: w.to_act,
                steps,
                known: None,
            })
        } else {
            self.out.hands_finished += 1;
            None
        }
    }

    /// A new table of Bist-o-yek with `players` seats, no client entropy.
    async fn new_table(&mut self) -> anyhow::Result<Table> {
        let seats: Vec<Value> = (0..self.players)
            .map(|i| json!({"player": format!("Player {i}")}))
            .collect();
        let body =
            json!({"game": GameId::BistOYek.as_str(), "seats": seats, "client_entropy": false});
        let admin = self.api.admin.clone();
        #[derive(Deserialize)]
        struct Seat {
            token: String,
        }
        #[derive(Deserialize)]
        struct Created {
            table_id: String,
            seats: Vec<Seat>,
        }
        let c: Created = self
            .send(
                Kind::NewTable,
                Method::POST,
                "/v1/tables",
                &admin,
                Some(&body),
            )
            .await?
            .map_err(|e| anyhow::anyhow!("create table: {e}"))?;
        self.out.tables_made += 1;
        Ok(Table {
            table_id: c.table_id,
            tokens: c.seats.into_iter().map(|s| s.token).collect(),
            hand: None,
        })
    }

    /// Starts the table's next hand; a table whose match is over is replaced first.
    async fn start(&mut self, t: &mut Table) -> anyhow::Result<()> {
        let admin = self.api.admin.clone();
        // Bounded: a new table's first hand cannot find its match over.
        for _ in 0..2 {
            let path = format!("/v1/tables/{}/hands", t.table_id);
            match self
                .send::<Written>(Kind::Start, Method::POST, &path, &admin, Some(&json!({})))
                .await?
            {
                Ok(w) => {
                    t.hand = self.wrote(w, 0);
                    return Ok(());
                }
                Err(e) if e.contains("match_over") => *t = self.new_table().await?,
                Err(e) => {
                    self.out.error(format!("start: {e}"));
                    return Ok(());
                }
            }
        }
        bail!("table {}: no hand could be started", t.table_id)
    }

    /// One step of a running hand: a deal if a shuffle is pending (not expected without
    /// client entropy), else a random legal action of a random seat that may act (the
    /// admin's for the service when no seat may).
    async fn step(&mut self, t: &mut Table, h: HandState) -> anyhow::Result<()> {
        let admin = self.api.admin.clone();
        let steps = h.steps + 1;
        if h.to_act.shuffle_pending.is_some() {
            let path = format!("/v1/hands/{}/deal", h.hand_id);
            let body = json!({"expected_seq": h.next_seq});
            match self
                .send::<Written>(Kind::Deal, Method::POST, &path, &admin, Some(&body))
                .await?
            {
                Ok(w) => t.hand = self.wrote(w, steps),
                Err(e) => {
                    self.out.error(format!("deal: {e}"));
                    t.hand = self.reload(&h.hand_id, steps).await?;
                }
            }
            return Ok(());
        }
        let seats: Vec<usize> = h
            .to_act
            .actors
            .iter()
            .filter_map(|a| a["seat"].as_u64())
            .filter_map(|s| usize::try_from(s).ok())
            .collect();
        let token = if seats.is_empty() {
            admin.as_str().to_owned()
        } else {
            let i = usize::try_from(self.rng.next_u32()).unwrap_or(0) % seats.len();
            let seat = seats.get(i).copied().unwrap_or(0);
            t.tokens
                .get(seat)
                .cloned()
                .with_context(|| format!("no token for seat {seat}"))?
        };
        let legal: Legal = match h.known {
            // The answer to this caller's own write gave them, for this seq.
            Some((ref known_token, ref legal)) if *known_token == token => Legal {
                next_seq: h.next_seq,
                legal_actions: legal.clone(),
            },
            _ => {
                let path = format!("/v1/hands/{}/legal-actions", h.hand_id);
                match self
                    .send(Kind::Legal, Method::GET, &path, &token, None)
                    .await?
                {
                    Ok(l) => l,
                    Err(e) => {
                        self.out.error(format!("legal-actions: {e}"));
                        t.hand = self.reload(&h.hand_id, steps).await?;
                        return Ok(());
                    }
                }
            }
        };
        if legal.legal_actions.is_empty() {
            self.out.error(format!(
                "no legal action for the actor to act at seq {}",
                legal.next_seq
            ));
            t.hand = self.reload(&h.hand_id, steps).await?;
            return Ok(());
        }
        // A family at random, filled in by the engine's sampler: the distribution of
        // `LiveHand::random_action`, which the store side uses.
        let n = u32::try_from(legal.legal_actions.len()).unwrap_or(u32::MAX);
        let i = usize::try_from(self.rng.next_u32() % n).unwrap_or(0);
        let family = legal.legal_actions.get(i).context("family")?;
        let action = registry(GameId::BistOYek)?
            .sample_legal(family, &mut self.rng)
            .with_context(|| format!("not a Bist-o-yek family: {family}"))?;
        let body = json!({"action": action, "expected_seq": legal.next_seq});
        let path = format!("/v1/hands/{}/actions", h.hand_id);
        match self
            .send::<Written>(Kind::Action, Method::POST, &path, &token, Some(&body))
            .await?
        {
            Ok(w) => {
                self.out.actions += 1;
                t.hand = self.wrote_as(w, steps, &token);
            }
            Err(e) => {
                self.out.error(format!("action {action}: {e}"));
                t.hand = self.reload(&h.hand_id, steps).await?;
            }
        }
        Ok(())
    }

    /// The hand as the admin sees it now (after an unexpected answer).
    async fn reload(&mut self, hand_id: &str, steps: usize) -> anyhow::Result<Option<HandState>> {
        let admin = self.api.admin.clone();
        let path = format!("/v1/hands/{hand_id}");
        let w: Written = self
            .send(Kind::Reload, Method::GET, &path, &admin, None)
            .await?
            .map_err(|e| anyhow::anyhow!("reload {hand_id}: {e}"))?;
        Ok(self.follow(w, steps))
    }

    /// Abandons the hand running at the table (end of a slice, or a hand too long).
    async fn abandon(&mut self, t: &mut Table, h: HandState, why: &str) -> anyhow::Result<()> {
        let admin = self.api.admin.clone();
        let path = format!("/v1/hands/{}/abandon", h.hand_id);
        let body = json!({"reason": why, "expected_seq": h.next_seq});
        match self
            .send::<Written>(Kind::Abandon, Method::POST, &path, &admin, Some(&body))
            .await?
        {
            Ok(w) => t.hand = self.wrote(w, h.steps),
            Err(e) => {
                self.out.error(format!("abandon: {e}"));
                t.hand = self.reload(&h.hand_id, h.steps).await?;
            }
        }
        Ok(())
    }

    /// Plays at the table until the deadline; the hand running then is abandoned.
    async fn play(&mut self, t: &mut Table, deadline: Instant) -> anyhow::Result<()> {
        while Instant::now() < deadline
            && self.out.requests < MAX_REQUESTS_PER_TASK
            && self.out.errors < MAX_TABLE_ERRORS
        {
            match t.hand.take() {
                None => self.start(t).await?,
                Some(h) if h.steps >= MAX_HAND_STEPS => {
                    self.abandon(t, h, "benchmark step limit").await?;
                }
                Some(h) => self.step(t, h).await?,
            }
        }
        if let Some(h) = t.hand.take() {
            self.abandon(t, h, "benchmark over").await?;
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------------------
// Measuring

/// What the HTTP side measured (one slice, or several absorbed).
#[derive(Debug, Default)]
struct HttpPhase {
    events: u64,
    actions: u64,
    requests: u64,
    hands_finished: u64,
    tables_made: u64,
    errors: u64,
    first_error: Option<String>,
    secs: f64,
    lat: BTreeMap<Kind, Latencies>,
    /// CPU seconds: the service's process, its database's backends, this process.
    service_cpu: f64,
    db_cpu: f64,
    loadgen_cpu: f64,
    machine_busy: u64,
    machine_total: u64,
    /// Transactions (commits and rollbacks) of the service's database.
    xacts: i64,
}

impl HttpPhase {
    fn absorb(&mut self, o: HttpPhase) {
        self.events += o.events;
        self.actions += o.actions;
        self.requests += o.requests;
        self.hands_finished += o.hands_finished;
        self.tables_made += o.tables_made;
        self.errors += o.errors;
        if self.first_error.is_none() {
            self.first_error = o.first_error;
        }
        self.secs += o.secs;
        for (k, l) in o.lat {
            self.lat.entry(k).or_default().extend(&l);
        }
        self.service_cpu += o.service_cpu;
        self.db_cpu += o.db_cpu;
        self.loadgen_cpu += o.loadgen_cpu;
        self.machine_busy += o.machine_busy;
        self.machine_total += o.machine_total;
        self.xacts += o.xacts;
    }

    fn per_sec(&self, n: u64) -> f64 {
        n as f64 / self.secs.max(1e-9)
    }

    fn all_requests(&self) -> Latencies {
        let mut all = Latencies::default();
        for l in self.lat.values() {
            all.extend(l);
        }
        all
    }

    /// Microseconds of CPU per event: service, database, client.
    fn cpu_us_per_event(&self) -> (f64, f64, f64) {
        let n = self.events.max(1) as f64;
        (
            1e6 * self.service_cpu / n,
            1e6 * self.db_cpu / n,
            1e6 * self.loadgen_cpu / n,
        )
    }

    fn machine_busy_pct(&self) -> f64 {
        100.0 * self.machine_busy as f64 / self.machine_total.max(1) as f64
    }
}

/// CPU seconds of every backend of the database `c` is connected to, but `c`'s own.
async fn db_backends_cpu(c: &tokio_postgres::Client) -> anyhow::Result<BTreeMap<i32, f64>> {
    let rows = c
        .query(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() \
             AND pid <> pg_backend_pid()",
            &[],
        )
        .await?;
    let mut out = BTreeMap::new();
    for r in rows {
        let pid: i32 = r.get(0);
        if let Some(s) = process_cpu_secs(&pid.to_string()) {
            out.insert(pid, s);
        }
    }
    Ok(out)
}

/// Transactions of the database `c` is connected to, as its statistics have them.
async fn db_xacts(c: &tokio_postgres::Client) -> anyhow::Result<i64> {
    c.batch_execute("SELECT pg_stat_clear_snapshot()").await?;
    let row = c
        .query_one(
            "SELECT (xact_commit + xact_rollback)::bigint FROM pg_stat_database \
             WHERE datname = current_database()",
            &[],
        )
        .await?;
    Ok(row.get(0))
}

/// Backends' CPU between two readings: those at both ends by difference, one that
/// started in between by all of its CPU (the pool opens connections on demand).
fn backends_delta(before: &BTreeMap<i32, f64>, after: &BTreeMap<i32, f64>) -> f64 {
    after
        .iter()
        .map(|(pid, s)| s - before.get(pid).copied().unwrap_or(0.0))
        .sum()
}

/// Statistics reach `pg_stat_database` when a backend goes idle, at most once a second:
/// this long after a slice its transactions are all counted.
const STATS_SETTLE: Duration = Duration::from_millis(1_100);

/// Plays at every table for `slice` and measures it.
async fn http_slice(
    api: &Api,
    side: &tokio_postgres::Client,
    service_pid: &str,
    tables: &mut Vec<Table>,
    players: u8,
    slice: Duration,
) -> anyhow::Result<HttpPhase> {
    let xacts0 = db_xacts(side).await?;
    let backends0 = db_backends_cpu(side).await?;
    let service0 = process_cpu_secs(service_pid).unwrap_or(0.0);
    let loadgen0 = process_cpu_secs("self").unwrap_or(0.0);
    let machine0 = machine_cpu().unwrap_or((0, 0));
    let start = Instant::now();
    let deadline = start + slice;
    let mut tasks = Vec::new();
    for mut t in std::mem::take(tables) {
        let mut client = Client {
            api: api.clone(),
            conn: Conn::new(api),
            rng: ChaCha8Rng::from_seed(random_seed()),
            players,
            out: TaskOut::default(),
        };
        tasks.push(tokio::spawn(async move {
            if let Err(e) = client.play(&mut t, deadline).await {
                client.out.error(format!("{e:#}"));
            }
            (t, client.out)
        }));
    }
    let mut p = HttpPhase::default();
    for task in tasks {
        let (t, out) = task.await?;
        tables.push(t);
        p.events += out.events;
        p.actions += out.actions;
        p.requests += out.requests;
        p.hands_finished += out.hands_finished;
        p.tables_made += out.tables_made;
        p.errors += out.errors;
        if p.first_error.is_none() {
            p.first_error = out.first_error;
        }
        for (k, l) in out.lat {
            p.lat.entry(k).or_default().extend(&l);
        }
    }
    p.secs = start.elapsed().as_secs_f64();
    p.service_cpu = process_cpu_secs(service_pid).unwrap_or(0.0) - service0;
    p.loadgen_cpu = process_cpu_secs("self").unwrap_or(0.0) - loadgen0;
    let machine = machine_cpu().unwrap_or((0, 0));
    p.machine_busy = machine.0.saturating_sub(machine0.0);
    p.machine_total = machine.1.saturating_sub(machine0.1);
    p.db_cpu = backends_delta(&backends0, &db_backends_cpu(side).await?);
    tokio::time::sleep(STATS_SETTLE).await;
    p.xacts = db_xacts(side).await? - xacts0;
    Ok(p)
}

/// The database name of `url`, for the report (never the whole URL: it may hold a
/// password).
fn db_name(url: &str) -> String {
    url.rsplit('/')
        .next()
        .and_then(|s| s.split('?').next())
        .unwrap_or("?")
        .to_owned()
}

pub async fn run(args: Args) -> anyhow::Result<()> {
    if args.concurrency.is_empty() || args.concurrency.contains(&0) {
        bail!("--concurrency: positive numbers, comma-separated");
    }
    if args.duration_secs == 0 || args.duration_secs > 3_600 {
        bail!("--duration-secs: 1 to 3600");
    }
    if args.database_url == args.service_database_url {
        bail!("--service-database-url must be another database than --database-url");
    }
    let admin = connect(&args.database_url).await?;
    println!(
        "# loadgen http — {} s per path and concurrency",
        args.duration_secs
    );
    for (k, v) in durability_settings(&admin).await? {
        println!("SHOW {k:<20} = {v}");
    }
    let sc: String = admin
        .query_one("SELECT current_setting('synchronous_commit')", &[])
        .await?
        .get(0);
    if sc != "on" {
        bail!("synchronous_commit is {sc}, not on: the benchmark measures durable commits only");
    }
    {
        use services::store::Store as _;
        services::store::PgStore::connect(&args.database_url, 2)?
            .migrate()
            .await?;
    }
    let work = std::env::temp_dir().join(format!("loadgen-http-{}", hex::encode(random_bytes(6))));
    std::fs::create_dir_all(&work)?;
    println!(
        "store side: database {}; service: {} on database {}, files in {}",
        db_name(&args.database_url),
        args.service_bin.display(),
        db_name(&args.service_database_url),
        work.display()
    );
    println!(
        "hands: Bist-o-yek, {} seats, no client entropy; per action the seat asks \
         GET …/legal-actions (unless its own last write's answer gave them), then POSTs \
         one with its token and expected_seq",
        args.players
    );
    let rounds = args.rounds.clamp(1, args.duration_secs);
    let slice = Duration::from_secs_f64(args.duration_secs as f64 / rounds as f64);
    println!(
        "each concurrency: {rounds} rounds of (store {:.1} s, HTTP {:.1} s), after {} s of HTTP warm-up",
        slice.as_secs_f64(),
        slice.as_secs_f64(),
        args.warmup_secs
    );
    println!();
    let opts = SliceOpts {
        database_url: args.database_url.clone(),
        client_entropy: false,
        lag_every: Duration::from_millis(100),
        prebuilt: false,
    };
    let result = measure_all(&args, &opts, &work, rounds, slice).await;
    if result.is_ok() {
        let _ = std::fs::remove_dir_all(&work);
    } else {
        println!("service files kept in {}", work.display());
    }
    let rows = result?;
    report(&args, rows)
}

/// Every concurrency: its own service process, club and tables, then the slices.
async fn measure_all(
    args: &Args,
    opts: &SliceOpts,
    work: &Path,
    rounds: u64,
    slice: Duration,
) -> anyhow::Result<Vec<(usize, Phase, HttpPhase)>> {
    let mut rows = Vec::new();
    for &c in &args.concurrency {
        let dir = work.join(format!("c{c}"));
        let pool = args.service_db_pool.unwrap_or(c).max(1);
        let mut svc = ServiceProc::start(
            &args.service_bin,
            &args.service_database_url,
            &dir,
            pool,
            args.service_workers,
        )?;
        let (club_id, admin_key) = create_club(
            &args.service_bin,
            &args.service_database_url,
            &dir,
            &format!("benchmark club, {c} tables"),
        )?;
        println!(
            "[C={c:>3}] service pid {} at {} (pool {pool}), club {club_id}",
            svc.pid, svc.url
        );
        let api = Api::new(&svc.url, admin_key)?;
        let side = connect(&args.service_database_url).await?;
        let mut setup = Client {
            api: api.clone(),
            conn: Conn::new(&api),
            rng: ChaCha8Rng::from_seed(random_seed()),
            players: args.players,
            out: TaskOut::default(),
        };
        let mut tables = Vec::with_capacity(c);
        for _ in 0..c {
            tables.push(setup.new_table().await?);
        }
        // Warm-up: the service's pool opens its connections, the client its keep-alive
        // connections; not measured.
        let warm = http_slice(
            &api,
            &side,
            &svc.pid,
            &mut tables,
            args.players,
            Duration::from_secs(args.warmup_secs),
        )
        .await?;
        if warm.errors > 0 {
            bail!(
                "warm-up: {} unexpected answers, first: {}",
                warm.errors,
                warm.first_error.unwrap_or_default()
            );
        }
        let mut rig = appends_rig(&args.database_url, args.players, c).await?;
        let mut store = Phase::default();
        let mut http = HttpPhase::default();
        for _ in 0..rounds {
            store.absorb(appends_slice(opts, &mut rig, slice).await?);
            http.absorb(http_slice(&api, &side, &svc.pid, &mut tables, args.players, slice).await?);
        }
        svc.stop()?;
        report_concurrency(c, &store, &http);
        rows.push((c, store, http));
    }
    Ok(rows)
}

fn report_concurrency(c: usize, store: &Phase, http: &HttpPhase) {
    let mut sl = store.lat.clone();
    println!(
        "[C={c:>3} store] {:>8.0} events/s {:>8.0} appends/s  p50 {:>6.2} ms  p99 {:>7.2} ms  errors {}",
        store.events_per_sec(),
        store.ops_per_sec(),
        sl.pct_ms(50.0),
        sl.pct_ms(99.0),
        store.errors
    );
    if let Some(e) = &store.first_error {
        println!("    first error: {e}");
    }
    let mut all = http.all_requests();
    println!(
        "[C={c:>3} HTTP ] {:>8.0} events/s {:>8.0} actions/s {:>8.0} requests/s  p50 {:>6.2} ms  \
         p99 {:>7.2} ms  hands finished {}  new tables {}  errors {}",
        http.per_sec(http.events),
        http.per_sec(http.actions),
        http.per_sec(http.requests),
        all.pct_ms(50.0),
        all.pct_ms(99.0),
        http.hands_finished,
        http.tables_made,
        http.errors
    );
    if let Some(e) = &http.first_error {
        println!("    first error: {e}");
    }
}

fn report(args: &Args, mut rows: Vec<(usize, Phase, HttpPhase)>) -> anyhow::Result<()> {
    println!();
    println!("## Results");
    println!();
    println!(
        "| C | path | events/s | actions/s | requests/s | p50 ms | p99 ms | service CPU µs/event | PostgreSQL µs/event | load generator µs/event | DB transactions per action | machine busy | errors |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    for (c, store, http) in &mut rows {
        let (db_us, service_us) = store.cpu_us_per_event();
        println!(
            "| {c} | store (appends) | {:.0} | {:.0} appends | | {:.2} | {:.2} | {service_us:.0} (in the load generator) | {db_us:.0} | | {:.2} per append | {:.0}% | {} |",
            store.events_per_sec(),
            store.ops_per_sec(),
            store.lat.pct_ms(50.0),
            store.lat.pct_ms(99.0),
            store.commits as f64 / store.ops.max(1) as f64,
            store.machine_busy_pct(),
            store.errors
        );
        let (svc_us, db_us, client_us) = http.cpu_us_per_event();
        let mut all = http.all_requests();
        println!(
            "| {c} | HTTP | {:.0} | {:.0} | {:.0} | {:.2} | {:.2} | {svc_us:.0} | {db_us:.0} | {client_us:.0} | {:.2} | {:.0}% | {} |",
            http.per_sec(http.events),
            http.per_sec(http.actions),
            http.per_sec(http.requests),
            all.pct_ms(50.0),
            all.pct_ms(99.0),
            http.xacts as f64 / http.actions.max(1) as f64,
            http.machine_busy_pct(),
            http.errors
        );
    }
    println!();
    println!("HTTP latency per request:");
    println!();
    println!("| C | request | count | per s | p50 ms | p99 ms |");
    println!("|---|---|---|---|---|---|");
    for (c, _, http) in &mut rows {
        let secs = http.secs;
        for (k, l) in &mut http.lat {
            println!(
                "| {c} | {} | {} | {:.0} | {:.2} | {:.2} |",
                k.name(),
                l.len(),
                l.len() as f64 / secs.max(1e-9),
                l.pct_ms(50.0),
                l.pct_ms(99.0)
            );
        }
    }
    println!();
    let mut failed = false;
    for (c, store, http) in &rows {
        let ratio = http.per_sec(http.events) / store.events_per_sec().max(1e-9);
        let verdict = if *c == args.target_at {
            let pass = ratio >= TARGET_RATIO;
            failed |= !pass;
            format!(
                "  target >= {TARGET_RATIO} at {}: {}",
                args.target_at,
                if pass { "PASS" } else { "FAIL" }
            )
        } else {
            String::new()
        };
        println!("ratio at C={c:<3} HTTP events/s / store events/s = {ratio:.3}{verdict}");
    }
    // Where the gap is: CPU per event of each part, on the same cores.
    for (c, store, http) in &rows {
        let (s_db, s_svc) = store.cpu_us_per_event();
        let (h_svc, h_db, h_client) = http.cpu_us_per_event();
        println!(
            "CPU at C={c:<3} µs per event: store path = database {s_db:.0} + service work {s_svc:.0} \
             = {:.0}; HTTP path = database {h_db:.0} + service process {h_svc:.0} + client \
             {h_client:.0} = {:.0}; machine busy {:.0}% / {:.0}%",
            s_db + s_svc,
            h_db + h_svc + h_client,
            store.machine_busy_pct(),
            http.machine_busy_pct()
        );
    }
    let judged = rows.iter().any(|(c, _, _)| *c == args.target_at);
    if rows.iter().any(|(_, s, h)| s.errors + h.errors > 0) {
        bail!("errors during the benchmark (see above)");
    }
    if !judged {
        println!(
            "RESULT: not judged (the target is judged at C={}, not measured)",
            args.target_at
        );
    } else if failed {
        println!("RESULT: FAIL");
    } else {
        println!("RESULT: PASS");
    }
    Ok(())
}
