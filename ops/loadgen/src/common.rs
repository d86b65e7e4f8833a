//! Shared helpers: latency percentiles, a side connection to the database, server
//! settings and statistics, and a sampler of `pg_stat_activity` wait events.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use anyhow::Context as _;
use tokio_postgres::{Client, NoTls};

/// Unix milliseconds now.
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}

/// `n` bytes from the OS.
pub fn random_bytes(n: usize) -> Vec<u8> {
    let mut b = vec![0u8; n];
    getrandom::fill(&mut b).expect("os random");
    b
}

/// 32 bytes from the OS.
pub fn random_seed() -> [u8; 32] {
    let mut b = [0u8; 32];
    getrandom::fill(&mut b).expect("os random");
    b
}

/// Latency samples in microseconds.
#[derive(Default, Debug, Clone)]
pub struct Latencies {
    samples: Vec<u64>,
    sorted: bool,
}

impl Latencies {
    /// Records one sample.
    pub fn push(&mut self, d: Duration) {
        self.samples
            .push(u64::try_from(d.as_micros()).unwrap_or(u64::MAX));
        self.sorted = false;
    }

    /// Adds another set's samples.
    pub fn extend(&mut self, other: &Latencies) {
        self.samples.extend_from_slice(&other.samples);
        self.sorted = false;
    }

    /// Number of samples.
    pub fn len(&self) -> usize {
        self.samples.len()
    }

    /// The `p`-th percentile (0..=100) in milliseconds, exact (nearest rank).
    pub fn pct_ms(&mut self, p: f64) -> f64 {
        if self.samples.is_empty() {
            return 0.0;
        }
        if !self.sorted {
            self.samples.sort_unstable();
            self.sorted = true;
        }
        let n = self.samples.len();
        let rank = ((p / 100.0) * n as f64).ceil() as usize;
        let i = rank.clamp(1, n) - 1;
        self.samples[i] as f64 / 1000.0
    }
}

/// The `application_name` of the connections that do the measured work.
pub const WORK_APP: &str = "loadgen-work";

/// `url` with `application_name` set to [`WORK_APP`], so the wait sampler sees only
/// the measured connections.
pub fn work_url(url: &str) -> String {
    let sep = if url.contains('?') { '&' } else { '?' };
    format!("{url}{sep}application_name={WORK_APP}")
}

/// A connection of its own (not from a pool), driven by a spawned task.
pub async fn connect(url: &str) -> anyhow::Result<Client> {
    let (client, conn) = tokio_postgres::connect(url, NoTls)
        .await
        .context("connecting to PostgreSQL")?;
    tokio::spawn(async move {
        let _ = conn.await;
    });
    Ok(client)
}

/// The server settings that decide durability and commit cost, as `name = value` lines.
pub async fn durability_settings(c: &Client) -> anyhow::Result<Vec<(String, String)>> {
    let mut out = Vec::new();
    for name in [
        "server_version",
        "synchronous_commit",
        "fsync",
        "wal_sync_method",
        "commit_delay",
        "full_page_writes",
        "shared_buffers",
    ] {
        let rows = c.simple_query(&format!("SHOW {name}")).await?;
        let v = rows
            .iter()
            .find_map(|m| match m {
                tokio_postgres::SimpleQueryMessage::Row(r) => r.get(0).map(str::to_owned),
                _ => None,
            })
            .unwrap_or_default();
        out.push((name.to_owned(), v));
    }
    Ok(out)
}

/// Cluster-wide WAL flush count and this database's commit count, to compute how many
/// commits share one WAL flush (group commit).
#[derive(Debug, Clone, Copy, Default)]
pub struct ServerCounters {
    pub wal_syncs: i64,
    pub commits: i64,
    /// WAL written by the whole cluster, and its full-page images.
    pub wal_bytes: i64,
    pub wal_fpi: i64,
}

pub async fn server_counters(c: &Client) -> anyhow::Result<ServerCounters> {
    // Statistics are cached per transaction: clear the snapshot first.
    c.batch_execute("SELECT pg_stat_clear_snapshot()").await?;
    let row = c
        .query_one(
            "SELECT (SELECT wal_sync FROM pg_stat_wal)::bigint, \
             (SELECT xact_commit FROM pg_stat_database WHERE datname = current_database())::bigint, \
             (SELECT wal_bytes FROM pg_stat_wal)::bigint, (SELECT wal_fpi FROM pg_stat_wal)::bigint",
            &[],
        )
        .await?;
    Ok(ServerCounters {
        wal_syncs: row.get(0),
        commits: row.get(1),
        wal_bytes: row.get(2),
        wal_fpi: row.get(3),
    })
}

/// What the measured connections' backends were doing, sampled every `every`.
#[derive(Debug, Default, Clone)]
pub struct WaitSummary {
    /// Samples taken.
    pub samples: u64,
    /// Backend observations, by state (`running`, `idle` in the pool, `idle in transaction`,
    /// or the wait event `Type:Event` of an active backend).
    pub counts: BTreeMap<String, u64>,
}

impl WaitSummary {
    /// The busiest states, as `name pct%` (share of all backend observations).
    pub fn top(&self, n: usize) -> Vec<(String, f64)> {
        let total: u64 = self.counts.values().sum();
        let mut v: Vec<(String, u64)> = self.counts.iter().map(|(k, c)| (k.clone(), *c)).collect();
        v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        v.into_iter()
            .take(n)
            .map(|(k, c)| (k, 100.0 * c as f64 / total.max(1) as f64))
            .collect()
    }
}

/// Samples `pg_stat_activity` for this database until `stop` is set (at most
/// `max_secs`), every `every`.
pub async fn sample_waits(
    url: String,
    stop: Arc<AtomicBool>,
    every: Duration,
    max_secs: u64,
) -> anyhow::Result<WaitSummary> {
    let c = connect(&url).await?;
    let stmt = c
        .prepare(
            "SELECT state, wait_event_type, wait_event FROM pg_stat_activity \
             WHERE datname = current_database() AND application_name = $1",
        )
        .await?;
    let mut out = WaitSummary::default();
    let end = Instant::now() + Duration::from_secs(max_secs);
    let limit =
        max_secs.saturating_mul(1000) / u64::try_from(every.as_millis()).unwrap_or(1).max(1) + 1;
    while !stop.load(Ordering::Relaxed) && Instant::now() < end && out.samples < limit {
        for r in c.query(&stmt, &[&WORK_APP]).await? {
            let state: Option<String> = r.get(0);
            let wt: Option<String> = r.get(1);
            let we: Option<String> = r.get(2);
            let key = match (state.as_deref(), wt, we) {
                (Some("active"), Some(t), Some(e)) => format!("{t}:{e}"),
                (Some("active"), _, _) => "running (CPU)".to_owned(),
                (Some("idle in transaction"), _, _) => "idle in transaction (client)".to_owned(),
                (Some("idle"), _, _) => "idle (in the pool / client)".to_owned(),
                (s, _, _) => s.unwrap_or("?").to_owned(),
            };
            *out.counts.entry(key).or_default() += 1;
        }
        out.samples += 1;
        tokio::time::sleep(every).await;
    }
    Ok(out)
}

/// CPU seconds (user + system) of a process, from `/proc/<pid>/stat` (Linux; USER_HZ
/// is 100 for every /proc interface). `None` where it cannot be read.
pub fn process_cpu_secs(pid: &str) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name may hold spaces: fields are counted after its closing ')'.
    let rest = stat.rsplit_once(')')?.1;
    let f: Vec<&str> = rest.split_whitespace().collect();
    // rest starts at field 3 (state); utime and stime are fields 14 and 15.
    let utime: f64 = f.get(11)?.parse().ok()?;
    let stime: f64 = f.get(12)?.parse().ok()?;
    Some((utime + stime) / 100.0)
}

/// Busy and total CPU time of the whole machine, in jiffies, from `/proc/stat`.
pub fn machine_cpu() -> Option<(u64, u64)> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    let line = stat.lines().next()?;
    let v: Vec<u64> = line
        .split_whitespace()
        .skip(1)
        .filter_map(|x| x.parse().ok())
        .collect();
    let total: u64 = v.iter().take(8).sum();
    // idle and iowait
    let idle = v.get(3).copied().unwrap_or(0) + v.get(4).copied().unwrap_or(0);
    Some((total.saturating_sub(idle), total))
}

/// CPU seconds of the backends of the measured connections (see [`WORK_APP`]) of this
/// database, by pid.
pub async fn work_backends_cpu(c: &Client) -> anyhow::Result<BTreeMap<i32, f64>> {
    let rows = c
        .query(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() \
             AND application_name = $1",
            &[&WORK_APP],
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
