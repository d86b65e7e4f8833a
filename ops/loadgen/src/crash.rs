//! `loadgen crash`: the load driver and the checker of `ops/crash.sh` (durability under
//! `kill -9`; see docs/DURABILITY.md and ops/README.md).
//!
//! * `crash drive`: creates tables in a club (Bist-o-yek of 2 to 4 seats, and some Hokm
//!   tables of 4), then plays hands at every table at once over HTTP until the service
//!   goes away (the script kills it) or `--max-secs` pass. Every event of every write the
//!   service acknowledged (a 2xx) is appended to `acked.log` as `hand seq hash`, one
//!   `write` per line, before the next request. A write whose answer never came (the
//!   connection broke) is written to `inflight.jsonl`: it may or may not have committed.
//!   Of every four tables of a game, two send every write with an `Idempotency-Key`
//!   and two play without client entropy (the service shuffles by itself).
//! * `crash check`, against the restarted service: every acknowledged event is in the
//!   hand's log with the same hash; each write in flight that carried an idempotency key,
//!   sent again, gets the recorded answer or runs once; every hand in progress plays on
//!   to its end, and a new hand is played at each table; every hand of every table is
//!   finished and its bundle verifies with `replayer verify --key <the service's key>`,
//!   as does each table's match file.
//!
//! Only the URL given is contacted (`ops/crash.sh` starts the service on 127.0.0.1).
//! Every loop is bounded in count and in time.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{bail, Context as _};
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use replayer::engine::GameId;
use replayer::games::registry;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::common::random_seed;

/// Most steps (one write each, about) a hand may take before the player gives up on it.
const MAX_HAND_STEPS: usize = 5_000;
/// Most unexpected answers a table may get before its driver stops playing it.
const MAX_TABLE_ERRORS: u64 = 20;
/// Longest a single request may take.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(60);
/// Page size of `GET /v1/hands/{id}/events` and of `GET /v1/hands`.
const EVENTS_PAGE: usize = 1000;
const HANDS_PAGE: usize = 200;

const TABLES_FILE: &str = "tables.jsonl";
const ACKED_FILE: &str = "acked.log";
const INFLIGHT_FILE: &str = "inflight.jsonl";
const DRIVER_FILE: &str = "driver.json";
const READY_FILE: &str = "ready";
const CHECK_FILE: &str = "check.json";

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(clap::Subcommand, Debug)]
enum Cmd {
    /// Create tables and play at all of them until the service goes away.
    Drive(DriveArgs),
    /// After a restart: acknowledged events present, hands continue, bundles verify.
    Check(CheckArgs),
}

#[derive(clap::Args, Debug)]
struct Common {
    /// The service, e.g. http://127.0.0.1:40123.
    #[arg(long)]
    url: String,
    /// The output of `audit-service club create --json` (its admin key is used).
    #[arg(long)]
    club_file: PathBuf,
    /// The folder of the round's files (tables, acknowledged events, writes in flight).
    #[arg(long)]
    state: PathBuf,
}

#[derive(clap::Args, Debug)]
struct DriveArgs {
    #[command(flatten)]
    common: Common,
    /// Tables played at once.
    #[arg(long, default_value_t = 16)]
    tables: usize,
    /// How many of them play Hokm (4 seats); the others play Bist-o-yek (2 to 4 seats).
    #[arg(long, default_value_t = 4)]
    hokm_tables: usize,
    /// Stop after this many seconds even if the service is still there.
    #[arg(long, default_value_t = 120)]
    max_secs: u64,
}

#[derive(clap::Args, Debug)]
struct CheckArgs {
    #[command(flatten)]
    common: Common,
    /// The `replayer` binary.
    #[arg(long)]
    replayer: PathBuf,
    /// New hands played at each table after the hands in progress are finished.
    #[arg(long, default_value_t = 1)]
    new_hands: usize,
    /// Give up (and fail) after this many seconds.
    #[arg(long, default_value_t = 900)]
    max_secs: u64,
    /// The service's PostgreSQL database, read to check the club-wide order (the
    /// sequencer's work); without it the embedded store in `--data-dir` is read.
    #[arg(long)]
    database_url: Option<String>,
    /// The service's data folder (its embedded store `dealer.db`).
    #[arg(long)]
    data_dir: Option<PathBuf>,
}

pub async fn run(args: Args) -> anyhow::Result<()> {
    match args.cmd {
        Cmd::Drive(a) => drive(a).await,
        Cmd::Check(a) => check(a).await,
    }
}

// ---------------------------------------------------------------------------------------
// State files

/// A table as created: what the checker needs to play on.
#[derive(Serialize, Deserialize, Debug, Clone)]
struct TableInfo {
    table_id: String,
    game: String,
    /// Seat tokens, by seat.
    tokens: Vec<String>,
    /// Whether its writes carry an `Idempotency-Key`.
    keyed: bool,
    /// Whether its seats add client seeds before each shuffle (else the service shuffles
    /// by itself, in the write that needs the shuffle).
    client_entropy: bool,
}

/// A write whose answer never came.
#[derive(Serialize, Deserialize, Debug, Clone)]
struct Inflight {
    table_id: String,
    /// The hand written to (none for a hand start).
    hand_id: Option<String>,
    /// The hand's next seq the write expected.
    expected_seq: Option<u64>,
    path: String,
    /// `admin` or the seat index whose token sent it.
    by: By,
    body: Value,
    idempotency_key: Option<String>,
}

#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
enum By {
    Admin,
    Seat(usize),
}

/// The driver's counts, in `driver.json`.
#[derive(Serialize, Deserialize, Debug, Default, Clone)]
struct DriverReport {
    tables: u64,
    hands_started: u64,
    hands_finished: u64,
    acked_writes: u64,
    acked_events: u64,
    in_flight: u64,
    /// Answers that are neither a 2xx nor an expected refusal (a bug, not a crash).
    unexpected: u64,
    /// Seconds from the first hand to the end of the drive.
    secs: f64,
    /// Whether the drive ended because the service went away.
    service_gone: bool,
}

/// Appends lines to a file, one `write` each, so that a line is in the file before the
/// next request is sent.
struct LineLog {
    file: Mutex<File>,
}

impl LineLog {
    fn create(path: &Path) -> anyhow::Result<LineLog> {
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .with_context(|| format!("opening {}", path.display()))?;
        Ok(LineLog {
            file: Mutex::new(file),
        })
    }

    fn line(&self, text: &str) -> anyhow::Result<()> {
        let mut buf = String::with_capacity(text.len() + 1);
        buf.push_str(text);
        buf.push('\n');
        let mut f = self.file.lock().unwrap_or_else(|p| p.into_inner());
        f.write_all(buf.as_bytes())?;
        f.flush()?;
        Ok(())
    }
}

fn read_lines(path: &Path) -> anyhow::Result<Vec<String>> {
    match File::open(path) {
        Ok(f) => BufReader::new(f)
            .lines()
            .filter(|l| !matches!(l, Ok(s) if s.trim().is_empty()))
            .collect::<Result<Vec<_>, _>>()
            .with_context(|| format!("reading {}", path.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(e).with_context(|| format!("opening {}", path.display())),
    }
}

fn admin_key(club_file: &Path) -> anyhow::Result<String> {
    let text = std::fs::read_to_string(club_file)
        .with_context(|| format!("reading {}", club_file.display()))?;
    let v: Value = serde_json::from_str(text.trim()).context("the club file is not JSON")?;
    v["admin_key"]
        .as_str()
        .map(str::to_owned)
        .context("the club file has no admin_key")
}

fn club_id(club_file: &Path) -> anyhow::Result<String> {
    let text = std::fs::read_to_string(club_file)
        .with_context(|| format!("reading {}", club_file.display()))?;
    let v: Value = serde_json::from_str(text.trim()).context("the club file is not JSON")?;
    v["club_id"]
        .as_str()
        .map(str::to_owned)
        .context("the club file has no club_id")
}

fn random_hex(rng: &mut ChaCha8Rng, bytes: usize) -> String {
    let mut b = vec![0u8; bytes];
    rng.fill_bytes(&mut b);
    hex::encode(b)
}

// ---------------------------------------------------------------------------------------
// HTTP

/// An answer of the service.
#[derive(Debug)]
struct Reply {
    status: u16,
    body: Value,
    replayed: bool,
}

impl Reply {
    fn ok(&self) -> bool {
        (200..300).contains(&self.status)
    }

    fn code(&self) -> &str {
        self.body["code"].as_str().unwrap_or("")
    }

    fn brief(&self) -> String {
        let text = self.body.to_string();
        format!(
            "{} {}",
            self.status,
            text.chars().take(300).collect::<String>()
        )
    }
}

/// How a request failed to get an answer.
#[derive(Debug)]
enum Lost {
    /// The connection could not be made: the request never reached the service.
    Refused,
    /// The request may have reached the service, but no answer came back.
    NoAnswer(String),
}

impl std::fmt::Display for Lost {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Lost::Refused => f.write_str("connection refused"),
            Lost::NoAnswer(why) => write!(f, "no answer: {why}"),
        }
    }
}

#[derive(Clone)]
struct Api {
    http: reqwest::Client,
    base: String,
}

impl Api {
    fn new(url: &str) -> anyhow::Result<Api> {
        let http = reqwest::Client::builder()
            .timeout(REQUEST_TIMEOUT)
            .connect_timeout(Duration::from_secs(5))
            // Below actix's 5 s keep-alive: a pooled connection is never one the server
            // is closing, so a broken connection means the service went away.
            .pool_idle_timeout(Duration::from_secs(2))
            .build()?;
        Ok(Api {
            http,
            base: url.trim_end_matches('/').to_owned(),
        })
    }

    async fn call(
        &self,
        method: reqwest::Method,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
        idem: Option<&str>,
    ) -> Result<Reply, Lost> {
        let mut req = self.http.request(method, format!("{}{path}", self.base));
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        if let Some(k) = idem {
            req = req.header("Idempotency-Key", k);
        }
        if let Some(b) = body {
            req = req.json(b);
        }
        let res = req.send().await.map_err(|e| {
            if e.is_connect() {
                Lost::Refused
            } else {
                Lost::NoAnswer(e.to_string())
            }
        })?;
        let status = res.status().as_u16();
        let replayed = res.headers().get("Idempotent-Replayed").is_some();
        let bytes = res
            .bytes()
            .await
            .map_err(|e| Lost::NoAnswer(e.to_string()))?;
        let body = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        Ok(Reply {
            status,
            body,
            replayed,
        })
    }

    async fn get(&self, path: &str, token: &str) -> Result<Reply, Lost> {
        self.call(reqwest::Method::GET, path, Some(token), None, None)
            .await
    }

    /// A read that must succeed.
    async fn read(&self, path: &str, token: &str) -> anyhow::Result<Value> {
        match self.get(path, token).await {
            Ok(r) if r.ok() => Ok(r.body),
            Ok(r) => bail!("GET {path}: {}", r.brief()),
            Err(e) => bail!("GET {path}: {e}"),
        }
    }

    async fn alive(&self) -> bool {
        matches!(
            self.call(reqwest::Method::GET, "/healthz", None, None, None).await,
            Ok(r) if r.ok()
        )
    }
}

// ---------------------------------------------------------------------------------------
// Playing

/// Counts shared by every table's player.
#[derive(Default)]
struct Counts {
    hands_started: AtomicU64,
    hands_finished: AtomicU64,
    acked_writes: AtomicU64,
    acked_events: AtomicU64,
    in_flight: AtomicU64,
    unexpected: AtomicU64,
}

impl Counts {
    fn add(c: &AtomicU64, n: u64) {
        c.fetch_add(n, Ordering::Relaxed);
    }

    fn get(c: &AtomicU64) -> u64 {
        c.load(Ordering::Relaxed)
    }
}

/// A running hand as the player follows it.
#[derive(Debug, Clone)]
struct HandState {
    hand_id: String,
    next_seq: u64,
    status: String,
    to_act: Value,
}

impl HandState {
    /// From a hand start, a write's answer or `GET /v1/hands/{id}`.
    fn from_body(b: &Value) -> anyhow::Result<HandState> {
        Ok(HandState {
            hand_id: b["hand_id"].as_str().context("hand_id")?.to_owned(),
            next_seq: b["next_seq"].as_u64().context("next_seq")?,
            status: b["status"].as_str().context("status")?.to_owned(),
            to_act: b["to_act"].clone(),
        })
    }

    fn running(&self) -> bool {
        self.status == "in_progress"
    }
}

/// Why a player stopped.
#[derive(Debug)]
enum Stop {
    /// The service went away (the write in flight, if any, is recorded).
    Gone,
    /// Something went wrong that is not a crash.
    Failed(String),
}

impl From<anyhow::Error> for Stop {
    fn from(e: anyhow::Error) -> Self {
        Stop::Failed(format!("{e:#}"))
    }
}

/// One table's player: plays hands with random legal actions, the way
/// `tests/e2e/play.rs` does, through the service's API only.
struct Player {
    api: Api,
    admin: String,
    table: TableInfo,
    game: GameId,
    rng: ChaCha8Rng,
    counts: Arc<Counts>,
    /// Where acknowledged events go (the driver's log; the checker keeps none).
    acked: Option<Arc<LineLog>>,
    /// Where writes in flight go (the driver only).
    inflight: Option<Arc<LineLog>>,
    /// Requests sent with an idempotency key, for unique keys.
    key_no: u64,
    /// Unexpected answers at this table.
    errors: u64,
}

/// What a write came to.
enum Wrote {
    Ok(Value),
    Refused(Reply),
}

impl Player {
    fn token(&self, by: By) -> &str {
        match by {
            By::Admin => &self.admin,
            By::Seat(s) => self.table.tokens.get(s).map_or("", String::as_str),
        }
    }

    fn unexpected(&mut self, what: &str) -> Result<(), Stop> {
        self.errors += 1;
        Counts::add(&self.counts.unexpected, 1);
        eprintln!("[crash] table {}: unexpected: {what}", self.table.table_id);
        if self.errors >= MAX_TABLE_ERRORS {
            return Err(Stop::Failed(format!(
                "table {}: {} unexpected answers, last: {what}",
                self.table.table_id, self.errors
            )));
        }
        Ok(())
    }

    /// A POST. A 2xx is acknowledged: its events go to the log. No answer: the write is
    /// recorded as in flight (when the service is gone) and the player stops.
    async fn write(
        &mut self,
        path: &str,
        by: By,
        body: Value,
        hand: Option<&HandState>,
    ) -> Result<Wrote, Stop> {
        let key = if self.table.keyed {
            self.key_no += 1;
            Some(format!(
                "crash-{}-{}-{}",
                self.table.table_id,
                self.key_no,
                random_hex(&mut self.rng, 4)
            ))
        } else {
            None
        };
        let token = self.token(by).to_owned();
        let res = self
            .api
            .call(
                reqwest::Method::POST,
                path,
                Some(&token),
                Some(&body),
                key.as_deref(),
            )
            .await;
        match res {
            Ok(r) if r.ok() => {
                self.acknowledge(&r.body)?;
                Ok(Wrote::Ok(r.body))
            }
            Ok(r) => Ok(Wrote::Refused(r)),
            Err(lost) => {
                if self.api.alive().await {
                    // Not a crash: report it; the caller resynchronizes.
                    self.unexpected(&format!(
                        "POST {path}: no answer but the service runs: {lost}"
                    ))?;
                    return Err(Stop::Failed(format!("POST {path}: {lost}")));
                }
                if let (Lost::NoAnswer(_), Some(log)) = (&lost, &self.inflight) {
                    let rec = Inflight {
                        table_id: self.table.table_id.clone(),
                        hand_id: hand.map(|h| h.hand_id.clone()),
                        expected_seq: hand.map(|h| h.next_seq),
                        path: path.to_owned(),
                        by,
                        body,
                        idempotency_key: key,
                    };
                    log.line(&serde_json::to_string(&rec).map_err(anyhow::Error::from)?)?;
                    Counts::add(&self.counts.in_flight, 1);
                }
                Err(Stop::Gone)
            }
        }
    }

    /// Records an acknowledged answer's events.
    fn acknowledge(&self, body: &Value) -> anyhow::Result<()> {
        let hand = body["hand_id"].as_str().unwrap_or("");
        let events = body["events"].as_array().map_or(&[][..], Vec::as_slice);
        for r in events {
            let seq = r["event"]["seq"].as_u64().context("an event without seq")?;
            let hash = r["hash"].as_str().context("an event without hash")?;
            if let Some(log) = &self.acked {
                log.line(&format!("{hand} {seq} {hash}"))?;
            }
        }
        Counts::add(&self.counts.acked_writes, 1);
        Counts::add(&self.counts.acked_events, events.len() as u64);
        Ok(())
    }

    /// A read during play. No answer: the service is gone.
    async fn read(&mut self, path: &str, by: By) -> Result<Value, Stop> {
        let token = self.token(by).to_owned();
        match self.api.get(path, &token).await {
            Ok(r) if r.ok() => Ok(r.body),
            Ok(r) => Err(Stop::Failed(format!("GET {path}: {}", r.brief()))),
            Err(_) if !self.api.alive().await => Err(Stop::Gone),
            Err(e) => Err(Stop::Failed(format!("GET {path}: {e}"))),
        }
    }

    /// The hand as the admin sees it now.
    async fn reload(&mut self, hand_id: &str) -> Result<HandState, Stop> {
        let b = self
            .read(&format!("/v1/hands/{hand_id}"), By::Admin)
            .await?;
        Ok(HandState::from_body(&b)?)
    }

    /// Starts the table's next hand. `None` when the table's match is over.
    async fn start_hand(&mut self) -> Result<Option<HandState>, Stop> {
        let path = format!("/v1/tables/{}/hands", self.table.table_id);
        match self.write(&path, By::Admin, json!({}), None).await? {
            Wrote::Ok(b) => {
                Counts::add(&self.counts.hands_started, 1);
                Ok(Some(HandState::from_body(&b)?))
            }
            Wrote::Refused(r) if r.code() == "match_over" => Ok(None),
            Wrote::Refused(r) => Err(Stop::Failed(format!("start hand: {}", r.brief()))),
        }
    }

    /// One step of a running hand: the seats' client seeds (and the admin's deal if some
    /// seat is not asked) when a shuffle is pending, else one action of a seat to act.
    async fn step(&mut self, h: &mut HandState) -> Result<(), Stop> {
        let hand_id = h.hand_id.clone();
        if !h.to_act["shuffle_pending"].is_null() {
            if !self.table.client_entropy {
                // Without client entropy the service shuffles in the write that needs it:
                // a hand left waiting for a shuffle was cut between two of its commits.
                self.unexpected(&format!(
                    "hand {hand_id} (seq {}) waits for a shuffle on a table without client \
                     entropy: {}",
                    h.next_seq, h.to_act
                ))?;
            }
            let seats = if self.table.client_entropy {
                self.table.tokens.len()
            } else {
                0
            };
            for seat in 0..seats {
                let seed = random_hex(&mut self.rng, 16);
                let body = json!({"seed": seed, "expected_seq": h.next_seq});
                match self
                    .write(
                        &format!("/v1/hands/{hand_id}/entropy"),
                        By::Seat(seat),
                        body,
                        Some(h),
                    )
                    .await?
                {
                    Wrote::Ok(b) => *h = HandState::from_body(&b)?,
                    Wrote::Refused(r)
                        if matches!(r.code(), "already_contributed" | "not_asked") => {}
                    Wrote::Refused(r) => {
                        self.unexpected(&format!("entropy of seat {seat}: {}", r.brief()))?;
                        *h = self.reload(&hand_id).await?;
                    }
                }
                if h.to_act["shuffle_pending"].is_null() || !h.running() {
                    return Ok(());
                }
            }
            let body = json!({"expected_seq": h.next_seq});
            match self
                .write(
                    &format!("/v1/hands/{hand_id}/deal"),
                    By::Admin,
                    body,
                    Some(h),
                )
                .await?
            {
                Wrote::Ok(b) => *h = HandState::from_body(&b)?,
                Wrote::Refused(r) => {
                    self.unexpected(&format!("deal: {}", r.brief()))?;
                    *h = self.reload(&hand_id).await?;
                }
            }
            return Ok(());
        }
        let by = h.to_act["actors"]
            .as_array()
            .and_then(|a| a.iter().find_map(|x| x["seat"].as_u64()))
            .and_then(|s| usize::try_from(s).ok())
            .map_or(By::Admin, By::Seat);
        let legal = self
            .read(&format!("/v1/hands/{hand_id}/legal-actions"), by)
            .await?;
        let seq = legal["next_seq"].as_u64().context("next_seq")?;
        let families = legal["legal_actions"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        if families.is_empty() {
            self.unexpected(&format!("{by:?} to act has no legal action: {legal}"))?;
            *h = self.reload(&hand_id).await?;
            return Ok(());
        }
        let action = self.choose(&families)?;
        let body = json!({"action": action, "expected_seq": seq});
        h.next_seq = seq;
        match self
            .write(&format!("/v1/hands/{hand_id}/actions"), by, body, Some(h))
            .await?
        {
            Wrote::Ok(b) => *h = HandState::from_body(&b)?,
            Wrote::Refused(r) => {
                self.unexpected(&format!("{by:?} {action}: {}", r.brief()))?;
                *h = self.reload(&hand_id).await?;
            }
        }
        Ok(())
    }

    /// One concrete action of the legal families: in Bist-o-yek take the bank and
    /// announce khabar when offered (as the e2e suite does: turns end sooner); otherwise
    /// a random family, filled in by the engine's own sampler.
    fn choose(&mut self, families: &[Value]) -> anyhow::Result<Value> {
        if self.game == GameId::BistOYek {
            if let Some(a) = families
                .iter()
                .find(|l| l["type"] == "accept_bank" || l["type"] == "announce_khabar")
            {
                return Ok(a.clone());
            }
        }
        let i = usize::try_from(self.rng.next_u64() % families.len() as u64)?;
        let family = &families[i];
        registry(self.game)?
            .sample_legal(family, &mut self.rng)
            .with_context(|| format!("not a {} family: {family}", self.game.as_str()))
    }

    /// Plays the hand to its end.
    async fn play_out(&mut self, mut h: HandState) -> Result<HandState, Stop> {
        for _ in 0..MAX_HAND_STEPS {
            if !h.running() {
                Counts::add(&self.counts.hands_finished, 1);
                return Ok(h);
            }
            self.step(&mut h).await?;
        }
        Err(Stop::Failed(format!(
            "hand {} did not end in {MAX_HAND_STEPS} steps",
            h.hand_id
        )))
    }
}

// ---------------------------------------------------------------------------------------
// drive

async fn create_table(
    api: &Api,
    admin: &str,
    game: GameId,
    seats: usize,
    keyed: bool,
    client_entropy: bool,
) -> anyhow::Result<TableInfo> {
    let names = ["Dariush", "Shirin", "Babak", "Roya"];
    let seats: Vec<Value> = (0..seats)
        .map(|i| json!({"player": names[i % names.len()]}))
        .collect();
    let body = json!({"game": game.as_str(), "seats": seats, "client_entropy": client_entropy});
    let r = api
        .call(
            reqwest::Method::POST,
            "/v1/tables",
            Some(admin),
            Some(&body),
            None,
        )
        .await
        .map_err(|e| anyhow::anyhow!("create table: {e}"))?;
    if r.status != 201 {
        bail!("create table: {}", r.brief());
    }
    let tokens = r.body["seats"]
        .as_array()
        .context("seats")?
        .iter()
        .map(|s| s["token"].as_str().map(str::to_owned).context("token"))
        .collect::<anyhow::Result<Vec<_>>>()?;
    Ok(TableInfo {
        table_id: r.body["table_id"].as_str().context("table_id")?.to_owned(),
        game: game.as_str().to_owned(),
        tokens,
        keyed,
        client_entropy,
    })
}

/// One table's loop: hands back to back until the service goes away or time is up; a
/// table whose match is over is replaced by a new one.
async fn drive_table(mut p: Player, tables: Arc<LineLog>, until: Instant) -> Result<(), Stop> {
    while Instant::now() < until {
        let h = match p.start_hand().await? {
            Some(h) => h,
            None => {
                let seats = p.table.tokens.len();
                let (keyed, entropy) = (p.table.keyed, p.table.client_entropy);
                let t = match create_table(&p.api, &p.admin, p.game, seats, keyed, entropy).await {
                    Ok(t) => t,
                    Err(_) if !p.api.alive().await => return Err(Stop::Gone),
                    Err(e) => return Err(e.into()),
                };
                tables.line(&serde_json::to_string(&t).map_err(anyhow::Error::from)?)?;
                p.table = t;
                continue;
            }
        };
        p.play_out(h).await?;
    }
    Ok(())
}

async fn drive(a: DriveArgs) -> anyhow::Result<()> {
    let admin = admin_key(&a.common.club_file)?;
    let api = Api::new(&a.common.url)?;
    std::fs::create_dir_all(&a.common.state)?;
    let tables_log = Arc::new(LineLog::create(&a.common.state.join(TABLES_FILE))?);
    let acked = Arc::new(LineLog::create(&a.common.state.join(ACKED_FILE))?);
    let inflight = Arc::new(LineLog::create(&a.common.state.join(INFLIGHT_FILE))?);
    let counts = Arc::new(Counts::default());
    let mut rng = ChaCha8Rng::from_seed(random_seed());

    let mut players = Vec::new();
    for i in 0..a.tables {
        let (game, seats) = if i < a.hokm_tables {
            (GameId::Hokm, 4)
        } else {
            (GameId::BistOYek, 2 + i % 3)
        };
        // Every four tables of a game: with and without idempotency keys, with and
        // without client entropy.
        let j = if i < a.hokm_tables {
            i
        } else {
            i - a.hokm_tables
        };
        let table = create_table(&api, &admin, game, seats, j % 2 == 1, j % 4 < 2).await?;
        tables_log.line(&serde_json::to_string(&table)?)?;
        players.push(Player {
            api: api.clone(),
            admin: admin.clone(),
            table,
            game,
            rng: ChaCha8Rng::seed_from_u64(rng.next_u64()),
            counts: counts.clone(),
            acked: Some(acked.clone()),
            inflight: Some(inflight.clone()),
            key_no: 0,
            errors: 0,
        });
    }
    std::fs::write(a.common.state.join(READY_FILE), b"")?;
    eprintln!(
        "[crash] drive: {} tables ({} hokm), playing",
        a.tables,
        a.hokm_tables.min(a.tables)
    );

    let t0 = Instant::now();
    let until = t0 + Duration::from_secs(a.max_secs);
    let tasks: Vec<_> = players
        .into_iter()
        .map(|p| tokio::spawn(drive_table(p, tables_log.clone(), until)))
        .collect();
    let mut gone = false;
    let mut failed = Vec::new();
    for t in tasks {
        match t.await? {
            Ok(()) => {}
            Err(Stop::Gone) => gone = true,
            Err(Stop::Failed(why)) => failed.push(why),
        }
    }
    let report = DriverReport {
        tables: u64::try_from(read_lines(&a.common.state.join(TABLES_FILE))?.len())?,
        hands_started: Counts::get(&counts.hands_started),
        hands_finished: Counts::get(&counts.hands_finished),
        acked_writes: Counts::get(&counts.acked_writes),
        acked_events: Counts::get(&counts.acked_events),
        in_flight: Counts::get(&counts.in_flight),
        unexpected: Counts::get(&counts.unexpected) + failed.len() as u64,
        secs: t0.elapsed().as_secs_f64(),
        service_gone: gone,
    };
    std::fs::write(
        a.common.state.join(DRIVER_FILE),
        serde_json::to_vec_pretty(&report)?,
    )?;
    for f in &failed {
        eprintln!("[crash] drive: a table stopped: {f}");
    }
    println!("{}", serde_json::to_string(&report)?);
    Ok(())
}

// ---------------------------------------------------------------------------------------
// check

/// What the checker found.
#[derive(Serialize, Debug, Default)]
struct CheckReport {
    tables: usize,
    acked_writes: u64,
    acked_events: usize,
    in_flight: usize,
    /// Writes in flight found committed (their events are in the log) / not.
    in_flight_committed: usize,
    in_flight_retried_replayed: usize,
    in_flight_retried_ran: usize,
    /// Acknowledged events found in the log with the same hash.
    checked: usize,
    /// Acknowledged events missing from the log or with another hash.
    lost: usize,
    hands_continued: usize,
    new_hands: usize,
    bundles_verified: usize,
    matches_verified: usize,
    /// Events of the club in the club-wide order (each once, gids without a gap).
    club_order_events: usize,
    unexpected_in_drive: u64,
    failures: Vec<String>,
    secs: f64,
}

async fn check(a: CheckArgs) -> anyhow::Result<()> {
    let t0 = Instant::now();
    let deadline = t0 + Duration::from_secs(a.max_secs);
    let state = &a.common.state;
    let admin = admin_key(&a.common.club_file)?;
    let api = Api::new(&a.common.url)?;
    let tables: Vec<TableInfo> = read_lines(&state.join(TABLES_FILE))?
        .iter()
        .map(|l| serde_json::from_str(l))
        .collect::<Result<_, _>>()
        .context("tables.jsonl")?;
    let inflight: Vec<Inflight> = read_lines(&state.join(INFLIGHT_FILE))?
        .iter()
        .map(|l| serde_json::from_str(l))
        .collect::<Result<_, _>>()
        .context("inflight.jsonl")?;
    let driver: DriverReport = std::fs::read(state.join(DRIVER_FILE))
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_default();
    // hand -> seq -> hash, as acknowledged.
    let mut acked: BTreeMap<String, BTreeMap<u64, String>> = BTreeMap::new();
    let mut acked_events = 0;
    for line in read_lines(&state.join(ACKED_FILE))? {
        let mut f = line.split_whitespace();
        let (Some(hand), Some(seq), Some(hash)) = (f.next(), f.next(), f.next()) else {
            bail!("acked.log: a malformed line {line:?}");
        };
        acked
            .entry(hand.to_owned())
            .or_default()
            .insert(seq.parse()?, hash.to_owned());
        acked_events += 1;
    }
    let mut r = CheckReport {
        tables: tables.len(),
        acked_writes: driver.acked_writes,
        acked_events,
        in_flight: inflight.len(),
        unexpected_in_drive: driver.unexpected,
        ..CheckReport::default()
    };
    if !api.alive().await {
        bail!("the service at {} does not answer", a.common.url);
    }

    // 1. Every acknowledged event is in its hand's log, with the same hash.
    for (hand, want) in &acked {
        let log = match hand_log(&api, &admin, hand).await {
            Ok(l) => l,
            Err(e) => {
                r.lost += want.len();
                r.failures
                    .push(format!("hand {hand}: its log cannot be read: {e:#}"));
                continue;
            }
        };
        for (seq, hash) in want {
            match log.get(seq) {
                Some(h) if h == hash => r.checked += 1,
                Some(h) => {
                    r.lost += 1;
                    r.failures.push(format!(
                        "hand {hand} seq {seq}: acknowledged hash {hash}, the log has {h}"
                    ));
                }
                None => {
                    r.lost += 1;
                    r.failures.push(format!(
                        "hand {hand} seq {seq}: acknowledged, not in the log (log ends at {})",
                        log.len()
                    ));
                }
            }
        }
    }

    // 2. Writes in flight: committed or not; those with an idempotency key, sent again,
    //    get the recorded answer (with the events the log has) or run once.
    let by_table: HashMap<&str, &TableInfo> =
        tables.iter().map(|t| (t.table_id.as_str(), t)).collect();
    for w in &inflight {
        let Some(t) = by_table.get(w.table_id.as_str()) else {
            r.failures.push(format!(
                "a write in flight at an unknown table {}",
                w.table_id
            ));
            continue;
        };
        let committed = match (&w.hand_id, w.expected_seq) {
            (Some(hand), Some(seq)) => {
                let log = hand_log(&api, &admin, hand).await?;
                log.len() as u64 > seq
            }
            _ => {
                // A hand start: committed if the table has a hand nobody acknowledged.
                let hands = table_hands(&api, &admin, &t.table_id).await?;
                hands
                    .iter()
                    .any(|h| !acked.contains_key(h["hand_id"].as_str().unwrap_or("")))
            }
        };
        if committed {
            r.in_flight_committed += 1;
        }
        let Some(key) = &w.idempotency_key else {
            continue;
        };
        let token = match w.by {
            By::Admin => admin.clone(),
            By::Seat(s) => t.tokens.get(s).cloned().unwrap_or_default(),
        };
        let again = api
            .call(
                reqwest::Method::POST,
                &w.path,
                Some(&token),
                Some(&w.body),
                Some(key),
            )
            .await;
        match again {
            Ok(res) if res.ok() => {
                if res.replayed != committed {
                    r.failures.push(format!(
                        "{} {}: committed {committed} but the retry was {}",
                        w.path,
                        key,
                        if res.replayed {
                            "replayed"
                        } else {
                            "run again"
                        }
                    ));
                }
                if res.replayed {
                    r.in_flight_retried_replayed += 1;
                    // The recorded answer's events are the log's.
                    let hand = res.body["hand_id"].as_str().unwrap_or("").to_owned();
                    let log = hand_log(&api, &admin, &hand).await?;
                    for ev in res.body["events"].as_array().map_or(&[][..], Vec::as_slice) {
                        let seq = ev["event"]["seq"].as_u64().unwrap_or(u64::MAX);
                        if log.get(&seq).map(String::as_str) != ev["hash"].as_str() {
                            r.failures.push(format!(
                                "{}: the replayed answer's event {seq} is not the log's",
                                w.path
                            ));
                        }
                    }
                } else {
                    r.in_flight_retried_ran += 1;
                }
            }
            Ok(res) => r.failures.push(format!(
                "{} sent again with its key {key}: {}",
                w.path,
                res.brief()
            )),
            Err(e) => bail!("{} sent again: {e}", w.path),
        }
    }

    // 3. Every hand in progress plays on to its end; then new hands.
    let counts = Arc::new(Counts::default());
    let mut rng = ChaCha8Rng::from_seed(random_seed());
    for t in &tables {
        if Instant::now() > deadline {
            r.failures.push("out of time".into());
            break;
        }
        let game: GameId = t.game.parse().map_err(|e| anyhow::anyhow!("{e}"))?;
        let mut p = Player {
            api: api.clone(),
            admin: admin.clone(),
            table: t.clone(),
            game,
            rng: ChaCha8Rng::seed_from_u64(rng.next_u64()),
            counts: counts.clone(),
            acked: None,
            inflight: None,
            key_no: 0,
            errors: 0,
        };
        let info = api
            .read(&format!("/v1/tables/{}", t.table_id), &admin)
            .await
            .with_context(|| format!("table {} after the restart", t.table_id))?;
        if let Some(hand) = info["current_hand"].as_str() {
            let res = match p.reload(hand).await {
                Ok(h) => p.play_out(h).await,
                Err(e) => Err(e),
            };
            match res {
                Ok(_) => r.hands_continued += 1,
                Err(e) => r
                    .failures
                    .push(format!("hand {hand} cannot continue: {e:?}")),
            }
        }
        for _ in 0..a.new_hands {
            let res = match p.start_hand().await {
                Ok(Some(h)) => p.play_out(h).await.map(Some),
                Ok(None) => Ok(None),
                Err(e) => Err(e),
            };
            match res {
                Ok(Some(_)) => r.new_hands += 1,
                Ok(None) => break,
                Err(e) => {
                    r.failures.push(format!(
                        "table {}: a new hand cannot be played: {e:?}",
                        t.table_id
                    ));
                    break;
                }
            }
        }
        if p.errors > 0 {
            r.failures.push(format!(
                "table {}: {} unexpected answers while playing on",
                t.table_id, p.errors
            ));
        }
    }

    // 4. Every hand of every table is finished, and its bundle verifies; so does each
    //    table's match file.
    let keys = api.read("/v1/keys", &admin).await?;
    let current = keys["current"].as_str().context("current key")?;
    let key = keys["keys"]
        .as_array()
        .and_then(|ks| ks.iter().find(|k| k["key_id"] == current))
        .and_then(|k| k["public_key"].as_str())
        .context("the current key is listed")?
        .to_owned();
    let dir = state.join("bundles");
    std::fs::create_dir_all(&dir)?;
    let mut seen = HashSet::new();
    // hand -> its number of events, from the bundles.
    let mut sizes: HashMap<String, u64> = HashMap::new();
    for t in &tables {
        for h in table_hands(&api, &admin, &t.table_id).await? {
            let hand = h["hand_id"].as_str().context("hand_id")?.to_owned();
            seen.insert(hand.clone());
            if h["status"] == "in_progress" {
                r.failures
                    .push(format!("hand {hand} is still in progress after the check"));
                continue;
            }
            let bundle = api
                .read(&format!("/v1/hands/{hand}/bundle"), &admin)
                .await?;
            let n = bundle["records"].as_array().map_or(0, Vec::len);
            sizes.insert(hand.clone(), u64::try_from(n)?);
            match verify(&a.replayer, &dir, &hand, &bundle, &key).await? {
                None => r.bundles_verified += 1,
                Some(why) => r.failures.push(format!("bundle of hand {hand}: {why}")),
            }
        }
        let m = api
            .read(&format!("/v1/tables/{}/bundle", t.table_id), &admin)
            .await?;
        if m["hands"].as_array().is_some_and(|h| !h.is_empty()) {
            match verify(&a.replayer, &dir, &t.table_id, &m, &key).await? {
                None => r.matches_verified += 1,
                Some(why) => r
                    .failures
                    .push(format!("match file of table {}: {why}", t.table_id)),
            }
        }
    }
    for hand in acked.keys() {
        if !seen.contains(hand) {
            r.failures
                .push(format!("hand {hand} was acknowledged but is not listed"));
        }
    }
    // 5. The club-wide order resumed: every event of the club has its place once, and
    //    the places run from 0 without a gap (the sequencer's queue survived the crash).
    if a.database_url.is_some() || a.data_dir.is_some() {
        let club = club_id(&a.common.club_file)?;
        match club_order(&a, &club, &sizes).await {
            Ok(n) => r.club_order_events = n,
            Err(e) => r.failures.push(format!("club order: {e:#}")),
        }
    }
    if driver.unexpected > 0 {
        r.failures.push(format!(
            "{} unexpected answers during the drive (see its log)",
            driver.unexpected
        ));
    }
    r.secs = t0.elapsed().as_secs_f64();
    for f in &r.failures {
        eprintln!("[crash] FAIL {f}");
    }
    std::fs::write(state.join(CHECK_FILE), serde_json::to_vec_pretty(&r)?)?;
    println!(
        "tables {}, acknowledged {} writes / {} events, in flight at kill {} (committed {}; \
         sent again with their key: {} replayed, {} ran), checked {}, lost {}, hands continued \
         {}, new hands {}, bundles verified {}, match files verified {}, club order {} events, \
         failures {}, check {:.1} s",
        r.tables,
        r.acked_writes,
        r.acked_events,
        r.in_flight,
        r.in_flight_committed,
        r.in_flight_retried_replayed,
        r.in_flight_retried_ran,
        r.checked,
        r.lost,
        r.hands_continued,
        r.new_hands,
        r.bundles_verified,
        r.matches_verified,
        r.club_order_events,
        r.failures.len(),
        r.secs
    );
    if !r.failures.is_empty() {
        std::process::exit(1);
    }
    Ok(())
}

/// A hand's log: seq -> hash, every page.
async fn hand_log(api: &Api, admin: &str, hand: &str) -> anyhow::Result<BTreeMap<u64, String>> {
    let mut out = BTreeMap::new();
    let mut from = 0u64;
    for _ in 0..10_000 {
        let page = api
            .read(
                &format!("/v1/hands/{hand}/events?from={from}&limit={EVENTS_PAGE}"),
                admin,
            )
            .await?;
        for r in page["events"].as_array().map_or(&[][..], Vec::as_slice) {
            let seq = r["event"]["seq"].as_u64().context("seq")?;
            let hash = r["hash"].as_str().context("hash")?;
            out.insert(seq, hash.to_owned());
        }
        match page["next_from"].as_u64() {
            Some(n) if n > from => from = n,
            _ => return Ok(out),
        }
    }
    bail!("hand {hand}: too many pages of events")
}

/// Every hand of a table, newest first.
async fn table_hands(api: &Api, admin: &str, table: &str) -> anyhow::Result<Vec<Value>> {
    let mut out = Vec::new();
    let mut cursor: Option<String> = None;
    for _ in 0..10_000 {
        let mut path = format!("/v1/hands?table_id={table}&limit={HANDS_PAGE}");
        if let Some(c) = &cursor {
            path.push_str("&cursor=");
            path.push_str(c);
        }
        let page = api.read(&path, admin).await?;
        out.extend(page["hands"].as_array().cloned().unwrap_or_default());
        match page["next_cursor"].as_str() {
            Some(c) => cursor = Some(c.to_owned()),
            None => return Ok(out),
        }
    }
    bail!("table {table}: too many pages of hands")
}

/// `replayer verify FILE --key KEY`: `None` when it exits 0, else why not.
async fn verify(
    replayer: &Path,
    dir: &Path,
    name: &str,
    doc: &Value,
    key: &str,
) -> anyhow::Result<Option<String>> {
    let path = dir.join(format!("{name}.json"));
    std::fs::write(&path, serde_json::to_vec(doc)?)?;
    let (bin, key) = (replayer.to_path_buf(), key.to_owned());
    let p = path.clone();
    let out = tokio::task::spawn_blocking(move || {
        std::process::Command::new(bin)
            .arg("verify")
            .arg(&p)
            .args(["--key", &key])
            .output()
    })
    .await?
    .with_context(|| format!("running {}", replayer.display()))?;
    if out.status.success() {
        std::fs::remove_file(&path)?;
        return Ok(None);
    }
    Ok(Some(format!(
        "replayer verify exit {:?} (kept {}): {} {}",
        out.status.code(),
        path.display(),
        String::from_utf8_lossy(&out.stdout).trim(),
        String::from_utf8_lossy(&out.stderr).trim()
    )))
}

/// Reads the club-wide order from the store itself (no endpoint serves it): every event
/// of every hand (`sizes`) must have exactly one place, the places `0..n` without a gap,
/// each hand's events in `seq` order. The service's sequencer orders PostgreSQL's events
/// every 500 ms, so this waits up to 15 s for it. Returns n.
async fn club_order(
    a: &CheckArgs,
    club: &str,
    sizes: &HashMap<String, u64>,
) -> anyhow::Result<usize> {
    use services::store::{PgStore, SqliteStore, Store};
    let store: Box<dyn Store> = match (&a.database_url, &a.data_dir) {
        (Some(url), _) => Box::new(PgStore::connect(url, 2)?),
        (None, Some(dir)) => Box::new(SqliteStore::open(dir.join("dealer.db"))?),
        (None, None) => bail!("no store named"),
    };
    let want: u64 = sizes.values().sum();
    let mut last = 0;
    for _ in 0..30 {
        let mut order = Vec::new();
        let mut from = 0i64;
        for _ in 0..100_000 {
            let page = store.list_club_events(club, from, 4096).await?;
            let Some(end) = page.last().and_then(|e| e.gid) else {
                break;
            };
            order.extend(page.into_iter().map(|e| (e.gid, e.hand_id, e.seq)));
            from = end + 1;
        }
        last = order.len();
        if u64::try_from(order.len())? < want {
            tokio::time::sleep(Duration::from_millis(500)).await;
            continue;
        }
        let mut next: HashMap<&str, i64> = HashMap::new();
        for (i, (gid, hand, seq)) in order.iter().enumerate() {
            if *gid != Some(i64::try_from(i)?) {
                bail!("place {i} holds gid {gid:?}: a gap or a repeat");
            }
            let n = next.entry(hand.as_str()).or_insert(0);
            if *seq != *n {
                bail!("gid {i}: hand {hand} seq {seq}, expected seq {n}");
            }
            *n += 1;
        }
        for (hand, size) in sizes {
            let got = next.get(hand.as_str()).copied().unwrap_or(0);
            if u64::try_from(got)? != *size {
                bail!("hand {hand}: {got} events in the club order, {size} in its bundle");
            }
        }
        if u64::try_from(order.len())? != want {
            bail!(
                "{} events in the club order, {want} in the bundles",
                order.len()
            );
        }
        return Ok(order.len());
    }
    bail!("after 15 s, {last} events in the club order of {want} in the bundles")
}
