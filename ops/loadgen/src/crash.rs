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
//! Only the URL given is contacted (`ops/crash.sh` starts the service on 127.0.0.1), and
//! the service's own store, read for the club's order. Every loop is bounded in count
//! and in time.
//!
//! `api` is the HTTP client, `play` a table's player (shared by both), `drive` and
//! `check` the two subcommands; this file holds the arguments and the round's files.

mod api;
mod check;
mod drive;
mod play;

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use anyhow::Context as _;
use rand_chacha::rand_core::RngCore;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use serde_json::Value;

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
    Drive(drive::DriveArgs),
    /// After a restart: acknowledged events present, hands continue, bundles verify.
    Check(check::CheckArgs),
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

pub async fn run(args: Args) -> anyhow::Result<()> {
    match args.cmd {
        Cmd::Drive(a) => drive::drive(a).await,
        Cmd::Check(a) => check::check(a).await,
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
