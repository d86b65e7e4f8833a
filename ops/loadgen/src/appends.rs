//! `loadgen appends`: durable append throughput of `PgStore::append` against plain
//! INSERTs.
//!
//! For each concurrency C, two phases of `--duration-secs` each:
//!
//! * **baseline**: C tasks, each doing single-row autocommit INSERTs into `bench_plain`
//!   (the columns, types and primary key of `events`, no other index, no foreign key,
//!   no trigger) of a row the size of a typical Bist-o-yek `action` event, taking a
//!   connection from a deadpool pool built by `PgStore::connect` (the very same pool
//!   settings), one connection per INSERT like the store takes one per call.
//! * **appends**: one new club with C tables; C tasks each play Bist-o-yek hands at
//!   their table through a `LiveHand` with random legal actions (as `replayer::sim`),
//!   signing every event, and write them with `Store::create_hand` (the first event)
//!   and `Store::append` (every later batch of records, with `expected_seq`, the sealed
//!   secret of each new shuffle, and at the end of a hand the hand's outcome and the
//!   table's next match state).
//!
//! Throughput counts events (an append of k events counts k) over the phase's wall
//! time; latency is per call of `append`/`create_hand` (or per INSERT), pool wait
//! included.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context as _};
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use replayer::dealer::{HandParams, HandStatus as LiveStatus, LiveHand, SeedSource};
use replayer::engine::{Actor, GameId, SeatIndex};
use replayer::games::registry;
use replayer::log::{Body, Record, SeatInfo, SigningKeyPair};
use replayer::shuffle::ClientSeed;
use serde_json::Value;
use services::store::{
    ApiKeyRow, AppendRequest, ClubRow, EventRow, HandRow, HandStatus, HandUpdate, KeyRole, PgStore,
    RecordJson, SeatRow, SecretRow, Store, TableRow, TableUpdate,
};

use crate::common::{
    connect, durability_settings, machine_cpu, now_ms, process_cpu_secs, random_bytes, random_seed,
    sample_waits, server_counters, work_backends_cpu, work_url, Latencies, ServerCounters,
    WaitSummary,
};
use crate::lag::{sample_lag, LagSamples};

/// Most events one benchmark hand may take before it is abandoned.
const MAX_HAND_STEPS: usize = 2_000;
/// Most operations one task may do in a phase, whatever the duration.
const MAX_OPS_PER_TASK: u64 = 5_000_000;
/// Sealed secret size: a 12-byte nonce, the 32-byte seed, a 16-byte tag.
const SEALED_LEN: usize = 60;
/// The ratio the appends must reach, by concurrency (issue 10: 0.8 at 1 and 8 hands,
/// 0.9 at 32); a concurrency not listed is not judged.
fn target_ratio(c: usize) -> Option<f64> {
    match c {
        1 | 8 => Some(0.8),
        32 => Some(0.9),
        _ => None,
    }
}

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Concurrencies to measure, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "1,8,32")]
    hands_concurrency: Vec<usize>,
    /// Seconds per phase (baseline and appends, for each concurrency).
    #[arg(long, default_value_t = 20)]
    duration_secs: u64,
    /// The (throw-away) database to benchmark.
    #[arg(long, env = "DATABASE_URL")]
    database_url: String,
    /// Seats per Bist-o-yek table.
    #[arg(long, default_value_t = 4)]
    players: u8,
    /// Tables collect client seeds: before each shuffle every seat adds one (one append
    /// each). Off by default: the dealer shuffles on its own (see ops/README.md).
    #[arg(long)]
    client_entropy: bool,
    /// Each concurrency alternates baseline and appends this many times (slices of
    /// duration / rounds seconds), so a drift of the machine's fsync speed hits both.
    #[arg(long, default_value_t = 4)]
    rounds: u64,
    /// How often the sequencer's lag is sampled during an append slice (ms).
    #[arg(long, default_value_t = 100)]
    lag_every_ms: u64,
    /// Drive the hands while writing them (the client's engine, signing and row building
    /// inside the timed slice, as `loadgen http`'s store side does), instead of building
    /// every write of the slice's hands before it starts, as the baseline's rows are.
    #[arg(long)]
    live_hands: bool,
}

impl Args {
    /// What an append slice needs to know.
    fn slice_opts(&self) -> SliceOpts {
        SliceOpts {
            database_url: self.database_url.clone(),
            client_entropy: self.client_entropy,
            lag_every: Duration::from_millis(self.lag_every_ms.clamp(10, 10_000)),
            prebuilt: !self.live_hands,
        }
    }
}

/// How an append slice runs (shared with `loadgen http`, whose store side is this
/// workload).
#[derive(Debug, Clone)]
pub(crate) struct SliceOpts {
    /// The (throw-away) database.
    pub(crate) database_url: String,
    /// Tables collect client seeds.
    pub(crate) client_entropy: bool,
    /// How often the sequencer's lag is sampled.
    pub(crate) lag_every: Duration,
    /// Every write of the slice's hands is built before the slice starts (see
    /// [`prebuild_hands`]); else the hands are driven inside it ([`play_table`]).
    pub(crate) prebuilt: bool,
}

/// What one phase measured.
#[derive(Debug, Default)]
pub(crate) struct Phase {
    pub(crate) events: u64,
    pub(crate) ops: u64,
    pub(crate) errors: u64,
    pub(crate) first_error: Option<String>,
    pub(crate) secs: f64,
    pub(crate) lat: Latencies,
    /// Seconds the tasks spent in client-side work (driving hands, signing, building
    /// rows): CPU taken from the same 2 cores the server runs on.
    pub(crate) client_secs: f64,
    pub(crate) waits: WaitSummary,
    /// Commits of this database and WAL flushes of the cluster during the phase.
    pub(crate) commits: i64,
    pub(crate) wal_syncs: i64,
    /// WAL bytes and full-page images the cluster wrote during the phase (the
    /// sequencer's and every other database's included).
    pub(crate) wal_bytes: i64,
    pub(crate) wal_fpi: i64,
    /// CPU seconds of the measured connections' backends, and of this process.
    pub(crate) server_cpu: f64,
    pub(crate) loadgen_cpu: f64,
    /// Busy and total CPU time of the whole machine (jiffies).
    pub(crate) machine_busy: u64,
    pub(crate) machine_total: u64,
    /// Events written but not yet in the club's order when the phase ended (the
    /// sequencer's lag; appends only).
    pub(crate) unordered_at_end: u64,
    /// The sequencer's lag sampled during the phase (appends only).
    pub(crate) lag: LagSamples,
    /// Prebuilt slices: writes that had to be built inside the slice (none when the
    /// prebuilt hands sufficed).
    pub(crate) live_ops: u64,
}

impl Phase {
    pub(crate) fn events_per_sec(&self) -> f64 {
        self.events as f64 / self.secs.max(1e-9)
    }
    pub(crate) fn ops_per_sec(&self) -> f64 {
        self.ops as f64 / self.secs.max(1e-9)
    }
    fn commits_per_flush(&self) -> f64 {
        self.commits as f64 / self.wal_syncs.max(1) as f64
    }

    /// Adds another slice of the same phase.
    pub(crate) fn absorb(&mut self, o: Phase) {
        self.events += o.events;
        self.ops += o.ops;
        self.errors += o.errors;
        if self.first_error.is_none() {
            self.first_error = o.first_error;
        }
        self.secs += o.secs;
        self.lat.extend(&o.lat);
        self.client_secs += o.client_secs;
        self.waits.samples += o.waits.samples;
        for (k, v) in o.waits.counts {
            *self.waits.counts.entry(k).or_default() += v;
        }
        self.commits += o.commits;
        self.wal_syncs += o.wal_syncs;
        self.wal_bytes += o.wal_bytes;
        self.wal_fpi += o.wal_fpi;
        self.server_cpu += o.server_cpu;
        self.loadgen_cpu += o.loadgen_cpu;
        self.machine_busy += o.machine_busy;
        self.machine_total += o.machine_total;
        self.unordered_at_end = self.unordered_at_end.max(o.unordered_at_end);
        self.lag.absorb(o.lag);
        self.live_ops += o.live_ops;
    }

    /// Microseconds of CPU per event: the measured backends', and this process's.
    pub(crate) fn cpu_us_per_event(&self) -> (f64, f64) {
        let n = self.events.max(1) as f64;
        (1e6 * self.server_cpu / n, 1e6 * self.loadgen_cpu / n)
    }

    /// Share of the whole machine's CPU that was busy (every process, ours or not).
    pub(crate) fn machine_busy_pct(&self) -> f64 {
        100.0 * self.machine_busy as f64 / self.machine_total.max(1) as f64
    }
}

#[derive(Debug, Default)]
struct TaskOut {
    events: u64,
    ops: u64,
    errors: u64,
    first_error: Option<String>,
    lat: Latencies,
    client_secs: f64,
    /// Writes built inside the slice because the prebuilt ones ran out.
    live_ops: u64,
}

impl TaskOut {
    fn error(&mut self, e: impl std::fmt::Display) {
        self.errors += 1;
        if self.first_error.is_none() {
            self.first_error = Some(e.to_string());
        }
    }
}

fn merge(outs: Vec<TaskOut>, secs: f64) -> Phase {
    let mut p = Phase {
        secs,
        ..Phase::default()
    };
    for o in outs {
        p.events += o.events;
        p.ops += o.ops;
        p.errors += o.errors;
        if p.first_error.is_none() {
            p.first_error = o.first_error;
        }
        p.lat.extend(&o.lat);
        p.client_secs += o.client_secs;
        p.live_ops += o.live_ops;
    }
    p
}

/// A typical `action` event row: hash, previous hash and record of the median-sized
/// action of a few simulated Bist-o-yek hands.
struct RowTemplate {
    hash: String,
    prev_hash: String,
    /// As the store sends a record: its JSON text (see `RecordJson`).
    record: RecordJson,
    json_len: usize,
}

fn action_template(players: u8) -> anyhow::Result<RowTemplate> {
    let key = SigningKeyPair::from_secret([7; 32]);
    let mut actions: Vec<(usize, Record)> = Vec::new();
    for i in 0u8..8 {
        let b =
            replayer::sim::simulate(GameId::BistOYek, players, [i; 32], &key, 1_700_000_000_000)?;
        for r in b.records {
            if matches!(r.event.body, Body::Action { .. }) {
                let len = serde_json::to_vec(&r)?.len();
                actions.push((len, r));
            }
        }
    }
    actions.sort_by_key(|(l, _)| *l);
    let (json_len, r) = actions
        .get(actions.len() / 2)
        .cloned()
        .context("no action in the simulated hands")?;
    Ok(RowTemplate {
        hash: r.hash.to_hex(),
        prev_hash: r.event.prev.to_hex(),
        record: RecordJson::of(&r)?,
        json_len,
    })
}

pub async fn run(args: Args) -> anyhow::Result<()> {
    if args.hands_concurrency.is_empty() || args.hands_concurrency.contains(&0) {
        bail!("--hands-concurrency: positive numbers, comma-separated");
    }
    if args.duration_secs == 0 || args.duration_secs > 3_600 {
        bail!("--duration-secs: 1 to 3600");
    }
    let admin = connect(&args.database_url).await?;
    println!("# loadgen appends — {} s per phase", args.duration_secs);
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

    // Schema: the store's migrations, and the baseline's plain table.
    let setup_store = PgStore::connect(&args.database_url, 2)?;
    setup_store.migrate().await?;
    admin
        .batch_execute(
            "CREATE TABLE IF NOT EXISTS bench_plain ( \
                club_id TEXT COLLATE \"C\" NOT NULL, hand_id TEXT COLLATE \"C\" NOT NULL, \
                seq BIGINT NOT NULL, kind TEXT NOT NULL, \
                hash TEXT NOT NULL, prev_hash TEXT NOT NULL, record JSONB NOT NULL, \
                created_ms BIGINT NOT NULL, \
                CONSTRAINT bench_plain_pkey PRIMARY KEY (club_id, hand_id, seq))",
        )
        .await?;
    let template = Arc::new(action_template(args.players)?);
    println!(
        "baseline row: an `action` record of {} bytes of JSON (median of 8 simulated hands)",
        template.json_len
    );
    println!(
        "hands: Bist-o-yek, {} seats, client entropy {}; one club per concurrency, one table per task",
        args.players,
        if args.client_entropy { "on" } else { "off" }
    );
    println!(
        "{}",
        if args.live_hands {
            "writes: driven inside each slice (--live-hands): the client's engine, signing and rows are timed"
        } else {
            "writes: every hand of a slice built before it (as the baseline's rows), then written; \
             each table's last hand finished after the slice, unmeasured"
        }
    );
    println!();

    let rounds = args.rounds.clamp(1, args.duration_secs);
    let slice = Duration::from_secs_f64(args.duration_secs as f64 / rounds as f64);
    println!(
        "each concurrency: {rounds} rounds of (baseline {:.1} s, appends {:.1} s)",
        slice.as_secs_f64(),
        slice.as_secs_f64()
    );
    let opts = args.slice_opts();
    let mut rows = Vec::new();
    for &c in &args.hands_concurrency {
        let _ = admin.batch_execute("TRUNCATE bench_plain").await;
        let _ = admin.batch_execute("CHECKPOINT").await;
        let base_store = PgStore::connect(&work_url(&args.database_url), c)?;
        let pool = base_store.pool().clone();
        warm_pool(&pool, c).await?;
        let mut rig = appends_rig(&args.database_url, args.players, c).await?;
        let mut base = Phase::default();
        let mut app = Phase::default();
        for round in 0..rounds {
            base.absorb(baseline_slice(&args, &pool, c, round, template.clone(), slice).await?);
            app.absorb(appends_slice(&opts, &mut rig, slice).await?);
        }
        report_phase("baseline", c, &base);
        report_phase("appends", c, &app);
        rows.push((c, base, app));
    }

    println!();
    println!("## Results (synchronous_commit = {sc})");
    println!();
    println!(
        "| C | phase | events/s | appends/s | ev/append | p50 ms | p99 ms | commits/WAL flush | server CPU µs/event | loadgen CPU µs/event | machine busy | errors |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|");
    for (c, base, app) in &mut rows {
        for (name, p) in [("baseline", &mut *base), ("appends", &mut *app)] {
            let (server_us, loadgen_us) = p.cpu_us_per_event();
            println!(
                "| {c} | {name} | {:.0} | {:.0} | {:.2} | {:.2} | {:.2} | {:.1} | {:.0} | {:.0} | {:.0}% | {} |",
                p.events_per_sec(),
                p.ops_per_sec(),
                p.events as f64 / p.ops.max(1) as f64,
                p.lat.pct_ms(50.0),
                p.lat.pct_ms(99.0),
                p.commits_per_flush(),
                server_us,
                loadgen_us,
                p.machine_busy_pct(),
                p.errors,
            );
        }
    }
    println!();
    let mut failed = false;
    for (c, base, app) in &rows {
        let ratio = app.events_per_sec() / base.events_per_sec().max(1e-9);
        let ops_ratio = app.ops_per_sec() / base.events_per_sec().max(1e-9);
        let verdict = match target_ratio(*c) {
            Some(t) => {
                let pass = ratio >= t;
                failed |= !pass;
                format!("  target >= {t}: {}", if pass { "PASS" } else { "FAIL" })
            }
            None => String::new(),
        };
        println!(
            "ratio at C={c:<3} appends events/s / baseline rows/s = {ratio:.3} \
             (appends/s / baseline = {ops_ratio:.3}){verdict}"
        );
    }
    // Where the gap is: the database's CPU per row against the client's. On a machine
    // the service does not share with PostgreSQL, the database's ratio bounds the rate.
    for (c, base, app) in &rows {
        let (base_db, base_client) = base.cpu_us_per_event();
        let (app_db, app_client) = app.cpu_us_per_event();
        println!(
            "CPU at C={c:<3} database µs per baseline row / per appended event = \
             {base_db:.0} / {app_db:.0} = {:.3}; client {base_client:.0} / {app_client:.0}",
            base_db / app_db.max(1e-9)
        );
    }
    // The sequencer keeps up: its lag at full append rate, judged at 8 hands and more.
    println!();
    println!(
        "| C | sequencer lag max ms | p99 ms | p50 ms | most events waiting (sampled) | events waiting at a slice's end (most) | samples | longest pass ms | target |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    let mut lag_failed = false;
    for (c, _, app) in &rows {
        let mut lag = app.lag.clone();
        let (max, p99, ok) = crate::lag::verdict(&mut lag);
        let judged = *c >= 8;
        lag_failed |= judged && !ok;
        println!(
            "| {c} | {max:.0} | {p99:.0} | {:.0} | {} | {} | {} | {:.0} | {} |",
            lag.age.pct_ms(50.0),
            lag.max_waiting(),
            app.unordered_at_end,
            lag.samples,
            lag.longest_pass().as_secs_f64() * 1000.0,
            match (judged, ok) {
                (false, _) => "not judged",
                (true, true) => "PASS (< 1 s)",
                (true, false) => "FAIL (>= 1 s)",
            }
        );
    }
    println!(
        "RESULT (sequencer lag < {} s at C >= 8): {}",
        crate::lag::LAG_TARGET.as_secs(),
        if lag_failed { "FAIL" } else { "PASS" }
    );
    println!();
    let judged = rows.iter().any(|(c, _, _)| target_ratio(*c).is_some());
    if rows.iter().any(|(_, b, a)| b.errors + a.errors > 0) {
        bail!("errors during the benchmark (see above)");
    }
    if !judged {
        println!("RESULT: not judged (targets are judged at C = 1, 8 and 32, none measured)");
    } else if failed {
        println!("RESULT: FAIL");
    } else {
        println!("RESULT: PASS");
    }
    Ok(())
}

fn report_phase(name: &str, c: usize, p: &Phase) {
    let mut lat = p.lat.clone();
    println!(
        "[C={c:>3} {name:<8}] {:>8.0} events/s {:>8.0} ops/s  p50 {:>7.2} ms  p99 {:>7.2} ms  \
         {:.1} commits per WAL flush  errors {}",
        p.events_per_sec(),
        p.ops_per_sec(),
        lat.pct_ms(50.0),
        lat.pct_ms(99.0),
        p.commits_per_flush(),
        p.errors
    );
    if let Some(e) = &p.first_error {
        println!("    first error: {e}");
    }
    if p.live_ops > 0 {
        println!(
            "    {} writes built inside the slice: the prebuilt hands ran out",
            p.live_ops
        );
    }
    if name == "appends" {
        let mut lag = p.lag.clone();
        println!(
            "    club order: {} events still waiting for the sequencer at the end of a slice \
             (most); sequencer lag max {:.0} ms, p99 {:.0} ms, p50 {:.0} ms, most events \
             waiting {} ({} samples; the sampler's backend {:.1} ms CPU); {} sequencer \
             passes, the longest {:.0} ms (most events in one pass {})",
            p.unordered_at_end,
            lag.age.pct_ms(100.0),
            lag.age.pct_ms(99.0),
            lag.age.pct_ms(50.0),
            lag.max_waiting(),
            lag.samples,
            lag.sampler_cpu * 1000.0,
            lag.passes.len(),
            lag.longest_pass().as_secs_f64() * 1000.0,
            lag.passes.iter().map(|(n, _)| *n).max().unwrap_or(0),
        );
    }
    println!(
        "    WAL per event: {:.0} bytes, {:.1} full-page images per 1,000 events",
        p.wal_bytes as f64 / p.events.max(1) as f64,
        1000.0 * p.wal_fpi as f64 / p.events.max(1) as f64
    );
    let (server_us, loadgen_us) = p.cpu_us_per_event();
    println!(
        "    CPU per event: backends {server_us:.0} µs, loadgen {loadgen_us:.0} µs \
         (of which driving hands and building rows {:.0} µs); machine busy {:.0}%",
        1e6 * p.client_secs / p.events.max(1) as f64,
        p.machine_busy_pct()
    );
    let waits: Vec<String> = p
        .waits
        .top(6)
        .into_iter()
        .map(|(k, pct)| format!("{k} {pct:.0}%"))
        .collect();
    println!(
        "    backends ({} samples): {}",
        p.waits.samples,
        waits.join(", ")
    );
}

/// Starts the wait sampler and reads the counters; returns what `finish` needs.
/// What a phase's observers read at its start.
struct Before {
    counters: ServerCounters,
    backends: BTreeMap<i32, f64>,
    loadgen: f64,
    machine: (u64, u64),
}

async fn observe_start(
    url: &str,
    secs: u64,
) -> anyhow::Result<(
    Arc<AtomicBool>,
    tokio::task::JoinHandle<anyhow::Result<WaitSummary>>,
    Before,
)> {
    let stop = Arc::new(AtomicBool::new(false));
    let sampler = tokio::spawn(sample_waits(
        url.to_owned(),
        stop.clone(),
        Duration::from_millis(50),
        secs + 30,
    ));
    let side = connect(url).await?;
    let before = Before {
        counters: server_counters(&side).await?,
        backends: work_backends_cpu(&side).await?,
        loadgen: process_cpu_secs("self").unwrap_or(0.0),
        machine: machine_cpu().unwrap_or((0, 0)),
    };
    Ok((stop, sampler, before))
}

async fn observe_end(
    url: &str,
    p: &mut Phase,
    stop: Arc<AtomicBool>,
    sampler: tokio::task::JoinHandle<anyhow::Result<WaitSummary>>,
    before: Before,
) -> anyhow::Result<()> {
    let loadgen = process_cpu_secs("self").unwrap_or(0.0);
    let machine = machine_cpu().unwrap_or((0, 0));
    stop.store(true, Ordering::Relaxed);
    p.waits = sampler.await??;
    let side = connect(url).await?;
    let after = server_counters(&side).await?;
    let backends = work_backends_cpu(&side).await?;
    p.commits = after.commits - before.counters.commits;
    p.wal_syncs = after.wal_syncs - before.counters.wal_syncs;
    p.wal_bytes = after.wal_bytes - before.counters.wal_bytes;
    p.wal_fpi = after.wal_fpi - before.counters.wal_fpi;
    // Backends that were there at both ends (the pools are opened before the phase).
    p.server_cpu = backends
        .iter()
        .filter_map(|(pid, s)| before.backends.get(pid).map(|b| s - b))
        .sum();
    p.loadgen_cpu = loadgen - before.loadgen;
    p.machine_busy = machine.0.saturating_sub(before.machine.0);
    p.machine_total = machine.1.saturating_sub(before.machine.1);
    Ok(())
}

/// Opens `n` pooled connections at once and gives them back, so no phase times
/// connection set-up.
async fn warm_pool(pool: &deadpool_postgres::Pool, n: usize) -> anyhow::Result<()> {
    let mut held = Vec::with_capacity(n);
    for _ in 0..n {
        held.push(pool.get().await.map_err(|e| anyhow::anyhow!("pool: {e}"))?);
    }
    Ok(())
}

async fn baseline_slice(
    args: &Args,
    pool: &deadpool_postgres::Pool,
    c: usize,
    round: u64,
    t: Arc<RowTemplate>,
    slice: Duration,
) -> anyhow::Result<Phase> {
    let (stop, sampler, before) = observe_start(&args.database_url, slice.as_secs() + 1).await?;
    let start = Instant::now();
    let deadline = start + slice;
    let mut tasks = Vec::new();
    for task in 0..c {
        let pool = pool.clone();
        let t = t.clone();
        tasks.push(tokio::spawn(async move {
            let mut out = TaskOut::default();
            let mut i: u64 = 0;
            while Instant::now() < deadline && i < MAX_OPS_PER_TASK {
                let hand_id = format!("b{c}-r{round}-{task}-{}", i / 64);
                let seq = i64::try_from(i % 64).unwrap_or(0);
                let created = now_ms();
                let t0 = Instant::now();
                let r: Result<(), String> = async {
                    let client = pool.get().await.map_err(|e| e.to_string())?;
                    let stmt = client
                        .prepare_cached(
                            "INSERT INTO bench_plain (club_id, hand_id, seq, kind, hash, \
                             prev_hash, record, created_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                        )
                        .await
                        .map_err(|e| e.to_string())?;
                    client
                        .execute(
                            &stmt,
                            &[
                                &"bench", &hand_id, &seq, &"action", &t.hash,
                                &t.prev_hash, &t.record, &created,
                            ],
                        )
                        .await
                        .map_err(|e| e.to_string())?;
                    Ok(())
                }
                .await;
                match r {
                    Ok(()) => {
                        out.lat.push(t0.elapsed());
                        out.events += 1;
                        out.ops += 1;
                    }
                    Err(e) => out.error(e),
                }
                i += 1;
            }
            out
        }));
    }
    let mut outs = Vec::new();
    for t in tasks {
        outs.push(t.await?);
    }
    let mut p = merge(outs, start.elapsed().as_secs_f64());
    observe_end(&args.database_url, &mut p, stop, sampler, before).await?;
    Ok(p)
}

/// One table's match, carried from hand to hand.
#[derive(Clone)]
struct TableState {
    club_id: String,
    table_id: String,
    rules: Value,
    setup: Value,
    match_state: Value,
    match_version: i64,
    seats: Vec<SeatInfo>,
    hands_played: u64,
}

/// One club with C tables, and the pool of the store that writes to it.
pub(crate) struct AppendsRig {
    store: Arc<PgStore>,
    club_id: String,
    tables: Vec<TableState>,
    key: Arc<SigningKeyPair>,
    /// Events to prebuild per table for the next slice: 1.5 times the most one table
    /// wrote in a slice so far (a first guess before the first).
    prebuild_events: u64,
}

/// A club with `c` Bist-o-yek tables of `players` seats, and a store of `c` pooled
/// connections (warm) to write to it.
pub(crate) async fn appends_rig(
    database_url: &str,
    players: u8,
    c: usize,
) -> anyhow::Result<AppendsRig> {
    let store = Arc::new(PgStore::connect(&work_url(database_url), c)?);
    warm_pool(store.pool(), c).await?;
    let def = registry(GameId::BistOYek)?;
    let rules = def.normalize_rules(&def.default_rules())?;
    let setup = def.default_setup(players)?;
    let match_state = def.new_match(&rules, &setup)?;
    let tag = hex::encode(random_bytes(4));
    let club_id = format!("bench-c{c}-{tag}");
    let created = now_ms();
    store
        .create_club(
            &ClubRow {
                club_id: club_id.clone(),
                name: format!("benchmark club, {c} hands"),
                created_ms: created,
            },
            &ApiKeyRow {
                club_id: club_id.clone(),
                key_id: format!("key-{club_id}"),
                key_hash: "ab".repeat(32),
                role: KeyRole::Admin,
                created_ms: created,
            },
        )
        .await?;
    let mut tables = Vec::new();
    for t in 0..c {
        let table_id = format!("t{t:03}");
        let seats: Vec<SeatInfo> = (0..players)
            .map(|s| SeatInfo {
                seat: SeatIndex(s),
                player: format!("p{}", (t * usize::from(players) + usize::from(s)) % 97),
                public_key: None,
            })
            .collect();
        store
            .create_table(
                &TableRow {
                    club_id: club_id.clone(),
                    table_id: table_id.clone(),
                    game: GameId::BistOYek.as_str().to_owned(),
                    rules: rules.clone(),
                    setup: setup.clone(),
                    match_state: match_state.clone(),
                    match_version: 0,
                    seats: seats
                        .iter()
                        .map(|s| SeatRow {
                            seat: i16::from(s.seat.0),
                            player: s.player.clone(),
                            token_id: format!("tok-{club_id}-{table_id}-{}", s.seat.0),
                            token_hash: "cd".repeat(32),
                            public_key: None,
                        })
                        .collect(),
                    created_ms: created,
                },
                None,
            )
            .await?;
        tables.push(TableState {
            club_id: club_id.clone(),
            table_id,
            rules: rules.clone(),
            setup: setup.clone(),
            match_state: match_state.clone(),
            match_version: 0,
            seats,
            hands_played: 0,
        });
    }
    Ok(AppendsRig {
        store,
        club_id,
        tables,
        key: Arc::new(SigningKeyPair::from_secret(random_seed())),
        prebuild_events: 0,
    })
}

/// Plays at every table of the rig for `slice`; the hands running at the end are
/// abandoned (and revealed), so the next slice starts new ones.
pub(crate) async fn appends_slice(
    opts: &SliceOpts,
    rig: &mut AppendsRig,
    slice: Duration,
) -> anyhow::Result<Phase> {
    // Prebuilt: every table's hands for the slice, before anything is measured.
    let mut scripts: Vec<Option<Vec<HandScript>>> = Vec::new();
    if opts.prebuilt {
        if rig.prebuild_events == 0 {
            // A first guess, 20,000 events/s over all tables (and never less than 5,000
            // per table), then 1.5 times what the busiest table wrote.
            let per =
                (20_000.0 * slice.as_secs_f64() / rig.tables.len().max(1) as f64).max(5_000.0);
            rig.prebuild_events = (per * 1.5) as u64;
        }
        let mut jobs = Vec::new();
        for table in &rig.tables {
            let hand_no = rig
                .store
                .next_hand_no(&table.club_id, &table.table_id)
                .await?;
            let mut gen = table.clone();
            let key = rig.key.clone();
            let want = rig.prebuild_events.max(200);
            let entropy = opts.client_entropy;
            jobs.push(tokio::task::spawn_blocking(move || {
                prebuild_hands(&mut gen, hand_no, &key, entropy, want)
            }));
        }
        for j in jobs {
            scripts.push(Some(j.await??));
        }
    } else {
        scripts.resize_with(rig.tables.len(), || None);
    }
    let (stop, sampler, before) = observe_start(&opts.database_url, slice.as_secs() + 1).await?;
    // The sequencer's lag, on a connection of its own (see `lag`).
    let lag_stop = Arc::new(AtomicBool::new(false));
    let lag_sampler = tokio::spawn(sample_lag(
        opts.database_url.clone(),
        rig.club_id.clone(),
        lag_stop.clone(),
        opts.lag_every,
        slice.as_secs() + 30,
    ));
    let start = Instant::now();
    let deadline = start + slice;
    // The club's order is given by the sequencer as in the service, measured with the
    // appends (its connection is one of the store's).
    let passes = Arc::new(std::sync::Mutex::new(Vec::new()));
    let noted = passes.clone();
    let sequencer = services::store::spawn_sequencer(
        rig.store.clone() as Arc<dyn Store>,
        services::store::SEQUENCER_PERIOD,
        move |outcome, took| {
            if let Ok(n) = outcome {
                let mut v = noted.lock().unwrap_or_else(|p| p.into_inner());
                v.push((n, took));
            }
        },
    );
    let mut tasks = Vec::new();
    for (mut table, script) in std::mem::take(&mut rig.tables).into_iter().zip(scripts) {
        let store = rig.store.clone();
        let key = rig.key.clone();
        let entropy = opts.client_entropy;
        tasks.push(tokio::spawn(async move {
            let mut out = TaskOut::default();
            let res = match script {
                Some(hands) => {
                    write_hands(
                        &*store, &mut table, hands, &key, entropy, deadline, &mut out,
                    )
                    .await
                }
                None => play_table(&*store, &mut table, &key, entropy, deadline, &mut out).await,
            };
            if let Err(e) = res {
                out.error(format!("{e:#}"));
            }
            (table, out)
        }));
    }
    let mut outs = Vec::new();
    for t in tasks {
        let (table, out) = t.await?;
        rig.tables.push(table);
        outs.push(out);
    }
    // Prebuilt: the slice is its time, and counts what completed in it (each table's
    // last hand is finished after it, unmeasured, so no hand is left running).
    let secs = if opts.prebuilt {
        rig.prebuild_events = outs
            .iter()
            .map(|o| o.events * 3 / 2)
            .max()
            .unwrap_or(0)
            .max(rig.prebuild_events / 2);
        slice.as_secs_f64()
    } else {
        start.elapsed().as_secs_f64()
    };
    let mut p = merge(outs, secs);
    lag_stop.store(true, Ordering::Relaxed);
    observe_end(&opts.database_url, &mut p, stop, sampler, before).await?;
    p.lag = lag_sampler.await??;
    sequencer.abort();
    p.lag.passes = std::mem::take(&mut *passes.lock().unwrap_or_else(|p| p.into_inner()));
    // What the sequencer had not reached yet; ordered now, outside the measurement.
    p.unordered_at_end = services::store::sequence_all(&*rig.store).await?;
    Ok(p)
}

fn event_row(club_id: &str, hand_id: &str, r: &Record, now: i64) -> anyhow::Result<EventRow> {
    Ok(EventRow {
        club_id: club_id.to_owned(),
        hand_id: hand_id.to_owned(),
        seq: i64::try_from(r.event.seq)?,
        gid: None,
        kind: r.event.body.kind().to_owned(),
        hash: r.hash.to_hex(),
        prev_hash: r.event.prev.to_hex(),
        record: RecordJson::of(r)?,
        created_ms: now,
    })
}

/// Sealed secrets for the shuffles these records commit to.
fn secrets_for(club_id: &str, hand_id: &str, records: &[Record]) -> Vec<SecretRow> {
    records
        .iter()
        .filter_map(|r| match &r.event.body {
            Body::ShuffleCommitted { shuffle, .. } => Some(SecretRow {
                club_id: club_id.to_owned(),
                hand_id: hand_id.to_owned(),
                shuffle: i32::try_from(*shuffle).unwrap_or(i32::MAX),
                sealed: random_bytes(SEALED_LEN),
            }),
            _ => None,
        })
        .collect()
}

/// A new hand at `table` (its id from `table.hands_played`): the dealer's hand, the
/// records after its first event (those the start settles included), its row, its first
/// event's row and the sealed seed of shuffle 0.
fn start_rows(
    table: &TableState,
    hand_no: i64,
    key: &SigningKeyPair,
    entropy: bool,
) -> anyhow::Result<(LiveHand, Vec<Record>, HandRow, EventRow, SecretRow)> {
    let hand_id = format!("{}-h{}", table.table_id, table.hands_played);
    let now = now_ms();
    let params = HandParams {
        hand_id: hand_id.clone(),
        club: table.club_id.clone(),
        table: table.table_id.clone(),
        hand_no: u64::try_from(hand_no)?,
        game: GameId::BistOYek,
        rules: table.rules.clone(),
        match_state: table.match_state.clone(),
        seats: table.seats.clone(),
        client_entropy: entropy,
        // The load generator measures the store, not matches: its hands are not chained.
        prev_hand: None,
    };
    let (mut hand, mut records) = LiveHand::start(
        params,
        SeedSource::Derived(random_seed()),
        key,
        u64::try_from(now)?,
    )?;
    let first = records.remove(0);
    let first = event_row(&table.club_id, &hand_id, &first, now)?;
    let row = HandRow {
        club_id: table.club_id.clone(),
        hand_id: hand_id.clone(),
        table_id: table.table_id.clone(),
        game: GameId::BistOYek.as_str().to_owned(),
        hand_no,
        status: HandStatus::InProgress,
        next_seq: 1,
        players: table.seats.iter().map(|s| s.player.clone()).collect(),
        started_ms: now,
        ended_ms: None,
        outcome: None,
        abandon_reason: None,
        quarantine: None,
    };
    let secret0 = SecretRow {
        club_id: table.club_id.clone(),
        hand_id,
        shuffle: 0,
        sealed: random_bytes(SEALED_LEN),
    };
    records.extend(hand.settle_after_start(key, u64::try_from(now)?)?);
    Ok((hand, records, row, first, secret0))
}

/// The next batch of a running hand's records: those left over, else its next step
/// (an abandon past [`MAX_HAND_STEPS`] or `out_of_time`). Empty once the hand is over.
fn next_batch(
    hand: &mut LiveHand,
    records: &mut Vec<Record>,
    steps: &mut usize,
    rng: &mut ChaCha8Rng,
    key: &SigningKeyPair,
    out_of_time: bool,
) -> anyhow::Result<Vec<Record>> {
    if records.is_empty() {
        if hand.status() != LiveStatus::InProgress {
            return Ok(Vec::new());
        }
        let now = u64::try_from(now_ms())?;
        if *steps >= MAX_HAND_STEPS || out_of_time {
            // Out of steps, or out of time: abandon (its reveal is appended too, so no
            // hand is left in progress at the table).
            let reason = if *steps >= MAX_HAND_STEPS {
                "benchmark step limit"
            } else {
                "benchmark over"
            };
            *records = hand.abandon(reason, key, now)?;
        } else {
            *steps += 1;
            *records = next_records(hand, rng, key, now)?;
            if records.is_empty() {
                *records = hand.abandon("no legal action", key, now)?;
            }
        }
    }
    Ok(std::mem::take(records))
}

/// The append of `batch` (records of `hand` at `table` from `next_seq`), with the hand's
/// and table's changes when it ends the hand; the table's match state moves on with it.
fn append_request(
    table: &mut TableState,
    hand: &LiveHand,
    hand_id: &str,
    batch: &[Record],
    next_seq: i64,
) -> anyhow::Result<AppendRequest> {
    let now = now_ms();
    let events = batch
        .iter()
        .map(|r| event_row(&table.club_id, hand_id, r, now))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let (hand_update, table_update) = if hand.status() != LiveStatus::InProgress {
        let status = if hand.status() == LiveStatus::Completed {
            HandStatus::Completed
        } else {
            HandStatus::Abandoned
        };
        let tu = hand
            .next_match()
            .filter(|m| !m.is_null())
            .map(|m| TableUpdate {
                table_id: table.table_id.clone(),
                expected_match_version: table.match_version,
                match_state: m.clone(),
            });
        (
            Some(HandUpdate {
                status,
                ended_ms: Some(now),
                outcome: hand.outcome().cloned(),
                abandon_reason: (status == HandStatus::Abandoned).then(|| "benchmark".to_owned()),
            }),
            tu,
        )
    } else {
        (None, None)
    };
    if let Some(tu) = &table_update {
        table.match_state = tu.match_state.clone();
        table.match_version += 1;
    }
    Ok(AppendRequest {
        club_id: table.club_id.clone(),
        hand_id: hand_id.to_owned(),
        expected_seq: next_seq,
        new_secrets: secrets_for(&table.club_id, hand_id, batch),
        new_inputs: Vec::new(),
        events,
        hand_update,
        table_update,
        idem: None,
    })
}

/// Every write of one hand, built ahead of the slice.
struct HandScript {
    hand: HandRow,
    first: EventRow,
    secret0: SecretRow,
    appends: Vec<AppendRequest>,
}

/// Plays hands at a copy of a table (`gen`, moved along as the hands end) until `want`
/// events are built: the same hands as [`play_table`] drives, with every write built
/// ahead, as the baseline's rows are. Hand numbers from `hand_no` on.
fn prebuild_hands(
    gen: &mut TableState,
    mut hand_no: i64,
    key: &SigningKeyPair,
    entropy: bool,
    want: u64,
) -> anyhow::Result<Vec<HandScript>> {
    let mut rng = ChaCha8Rng::from_seed(random_seed());
    let def = registry(GameId::BistOYek)?;
    let mut built = 0u64;
    let mut hands = Vec::new();
    while built < want {
        gen.hands_played += 1;
        if def.match_over(&gen.match_state)? {
            gen.match_state = def.new_match(&gen.rules, &gen.setup)?;
        }
        let (mut hand, mut records, row, first, secret0) = start_rows(gen, hand_no, key, entropy)?;
        hand_no += 1;
        built += 1;
        let mut appends = Vec::new();
        let mut next_seq: i64 = 1;
        let mut steps = 0usize;
        loop {
            let batch = next_batch(&mut hand, &mut records, &mut steps, &mut rng, key, false)?;
            if batch.is_empty() {
                break;
            }
            let req = append_request(gen, &hand, &row.hand_id, &batch, next_seq)?;
            let n = i64::try_from(req.events.len())?;
            built += u64::try_from(n)?;
            next_seq += n;
            appends.push(req);
        }
        hands.push(HandScript {
            hand: row,
            first,
            secret0,
            appends,
        });
    }
    Ok(hands)
}

/// Writes prebuilt hands at one table until the deadline, counting what completes before
/// it; the hand under way then is finished unmeasured, and the rest dropped. Should they
/// run out first, the table plays on as [`play_table`] (counted in `live_ops`).
async fn write_hands(
    store: &dyn Store,
    table: &mut TableState,
    hands: Vec<HandScript>,
    key: &SigningKeyPair,
    entropy: bool,
    deadline: Instant,
    out: &mut TaskOut,
) -> anyhow::Result<()> {
    for mut h in hands {
        if Instant::now() >= deadline {
            return Ok(());
        }
        table.hands_played += 1;
        // Rows are stamped when written, as the writer does (the sequencer's lag is
        // measured from `created_ms`); the signed records keep the time they were built.
        h.first.created_ms = now_ms();
        let t0 = Instant::now();
        store
            .create_hand(&h.hand, std::slice::from_ref(&h.first), &[h.secret0], None)
            .await
            .context("create_hand")?;
        let done = Instant::now();
        if done <= deadline {
            out.lat.push(done - t0);
            out.ops += 1;
            out.events += 1;
        }
        for mut req in h.appends {
            let now = now_ms();
            for e in &mut req.events {
                e.created_ms = now;
            }
            let n = u64::try_from(req.events.len())?;
            let tu = req.table_update.clone();
            let t0 = Instant::now();
            store.append_owned(req).await.context("append")?;
            let done = Instant::now();
            if done <= deadline {
                out.lat.push(done - t0);
                out.ops += 1;
                out.events += n;
            }
            if let Some(tu) = tu {
                table.match_state = tu.match_state;
                table.match_version += 1;
            }
        }
    }
    if Instant::now() < deadline {
        let before = out.ops;
        play_table(store, table, key, entropy, deadline, out).await?;
        out.live_ops += out.ops - before;
    }
    Ok(())
}

/// Plays hands at one table until the deadline: each hand created with its first event,
/// then every batch of records the dealer produces appended with `expected_seq`.
async fn play_table(
    store: &dyn Store,
    table: &mut TableState,
    key: &SigningKeyPair,
    entropy: bool,
    deadline: Instant,
    out: &mut TaskOut,
) -> anyhow::Result<()> {
    let mut rng = ChaCha8Rng::from_seed(random_seed());
    let def = registry(GameId::BistOYek)?;
    while Instant::now() < deadline && out.ops < MAX_OPS_PER_TASK {
        let hand_no = store.next_hand_no(&table.club_id, &table.table_id).await?;
        table.hands_played += 1;
        if def.match_over(&table.match_state)? {
            table.match_state = def.new_match(&table.rules, &table.setup)?;
        }
        // Client side: start the hand.
        let g0 = Instant::now();
        let (mut hand, mut records, row, first, secret0) =
            start_rows(table, hand_no, key, entropy)?;
        out.client_secs += g0.elapsed().as_secs_f64();

        let t0 = Instant::now();
        store
            .create_hand(&row, std::slice::from_ref(&first), &[secret0], None)
            .await
            .context("create_hand")?;
        out.lat.push(t0.elapsed());
        out.ops += 1;
        out.events += 1;
        let mut next_seq: i64 = 1;

        let mut steps = 0usize;
        loop {
            let g0 = Instant::now();
            let out_of_time = Instant::now() >= deadline;
            let batch = next_batch(
                &mut hand,
                &mut records,
                &mut steps,
                &mut rng,
                key,
                out_of_time,
            )?;
            if batch.is_empty() {
                break;
            }
            let req = append_request(table, &hand, &row.hand_id, &batch, next_seq)?;
            let n = i64::try_from(req.events.len())?;
            out.client_secs += g0.elapsed().as_secs_f64();

            let t0 = Instant::now();
            store.append_owned(req).await.context("append")?;
            out.lat.push(t0.elapsed());
            out.ops += 1;
            out.events += u64::try_from(n)?;
            next_seq += n;
        }
    }
    Ok(())
}

/// The next records of a running hand: a client seed (entropy on) or a deal when a
/// shuffle is pending, else a random legal action of a random seat that may act (as
/// `replayer::sim`).
fn next_records(
    hand: &mut LiveHand,
    rng: &mut ChaCha8Rng,
    key: &SigningKeyPair,
    now: u64,
) -> anyhow::Result<Vec<Record>> {
    let to_act = hand.to_act();
    if to_act.shuffle.is_some() {
        let k = hand.next_shuffle();
        let given = hand
            .client_seeds()
            .get(usize::try_from(k).unwrap_or(usize::MAX))
            .map_or(0, Vec::len);
        if given < hand.seats().len() {
            let seat = hand
                .seats()
                .iter()
                .map(|s| s.seat)
                .find(|s| {
                    !hand
                        .client_seeds()
                        .get(usize::try_from(k).unwrap_or(usize::MAX))
                        .is_some_and(|l| l.iter().any(|(x, _)| x == s))
                })
                .unwrap_or(SeatIndex(0));
            let mut b = vec![0u8; 16];
            rng.fill_bytes(&mut b);
            return Ok(hand.contribute(seat, ClientSeed::new(b)?, key, now)?);
        }
        return Ok(hand.shuffle_now(key, now)?);
    }
    let seats: Vec<Actor> = to_act
        .actors
        .iter()
        .copied()
        .filter(|a| matches!(a, Actor::Seat(_)))
        .collect();
    let actor = if seats.is_empty() {
        match to_act.actors.first() {
            Some(a) => *a,
            None => return Ok(Vec::new()),
        }
    } else {
        let i = usize::try_from(rng.next_u32()).unwrap_or(0) % seats.len();
        seats.get(i).copied().unwrap_or(Actor::Service)
    };
    let Some(action) = hand.random_action(actor, rng) else {
        return Ok(Vec::new());
    };
    Ok(hand.act(actor, action, None, key, now)?)
}
