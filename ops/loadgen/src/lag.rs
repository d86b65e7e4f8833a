//! The sequencer's lag, sampled during an append slice: how many of a club's committed
//! events wait for their place in the club's order (past their hand's cursor in
//! `log_cursors`), and how old the oldest of them is.
//!
//! One connection of its own (not one of the measured ones: its `application_name` is
//! not `loadgen-work`), one statement per sample: per cursor of the club (one per hand
//! in progress), two descents of `events`' primary key, to the hand's last event and to
//! its first waiting one. The statement's own CPU is
//! measured (its backend's, from `/proc`) and reported, so a reader can see that the
//! sampling did not distort the run.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::common::{connect, process_cpu_secs, Latencies};

/// What the sampler saw during one slice (or, absorbed, during several).
#[derive(Debug, Default, Clone)]
pub struct LagSamples {
    /// Samples taken.
    pub samples: u64,
    /// Age of the oldest waiting event at each sample (0 when none waited), as
    /// durations: `now - created_ms` of the oldest waiting event.
    pub age: Latencies,
    /// Events waiting at each sample.
    pub waiting: Vec<u64>,
    /// CPU seconds the sampler's own backend spent.
    pub sampler_cpu: f64,
    /// The sequencer's passes: events ordered, and how long each took.
    pub passes: Vec<(u64, Duration)>,
}

impl LagSamples {
    /// Adds another slice's samples.
    pub fn absorb(&mut self, o: LagSamples) {
        self.samples += o.samples;
        self.age.extend(&o.age);
        self.waiting.extend(o.waiting);
        self.sampler_cpu += o.sampler_cpu;
        self.passes.extend(o.passes);
    }

    /// The longest sequencer pass.
    pub fn longest_pass(&self) -> Duration {
        self.passes
            .iter()
            .map(|(_, d)| *d)
            .max()
            .unwrap_or_default()
    }

    /// Most events waiting at any sample.
    pub fn max_waiting(&self) -> u64 {
        self.waiting.iter().copied().max().unwrap_or(0)
    }
}

/// How far behind the sequencer may be at full append rate (the target).
pub const LAG_TARGET: Duration = Duration::from_secs(1);

/// The age of the oldest waiting event and the number of events waiting, for a club.
/// `created_ms` is stamped when the writer builds the append, so the age includes the
/// append's own latency (a few milliseconds) as well as the wait for the sequencer.
///
/// A hand's waiting events are those from its cursor's `next_seq` to its last event
/// (a hand's committed events are a prefix of its `seq`s), and its oldest waiting event
/// is the one at `next_seq`; a cursor with no event there has none waiting.
const SAMPLE_SQL: &str = "\
    SELECT COALESCE(sum(GREATEST(w.n, 0)), 0)::bigint AS waiting, \
           COALESCE((extract(epoch FROM clock_timestamp()) * 1000)::bigint \
                    - min(w.created_ms), 0)::bigint AS age_ms \
    FROM (SELECT (SELECT e.seq + 1 FROM events e \
                  WHERE e.club_id = $1 AND e.hand_id = l.hand_id \
                  ORDER BY e.seq DESC LIMIT 1) - l.next_seq AS n, \
                 (SELECT e.created_ms FROM events e \
                  WHERE e.club_id = $1 AND e.hand_id = l.hand_id \
                    AND e.seq = l.next_seq) AS created_ms \
          FROM log_cursors l WHERE l.club_id = $1) w";

/// Samples the lag of `club_id` every `every` until `stop` is set, at most `max_secs`.
pub async fn sample_lag(
    url: String,
    club_id: String,
    stop: Arc<AtomicBool>,
    every: Duration,
    max_secs: u64,
) -> anyhow::Result<LagSamples> {
    let c = connect(&url).await?;
    let pid: i32 = c.query_one("SELECT pg_backend_pid()", &[]).await?.get(0);
    let pid = pid.to_string();
    let stmt = c.prepare(SAMPLE_SQL).await?;
    let cpu0 = process_cpu_secs(&pid).unwrap_or(0.0);
    let mut out = LagSamples::default();
    let end = Instant::now() + Duration::from_secs(max_secs);
    let limit =
        max_secs.saturating_mul(1000) / u64::try_from(every.as_millis()).unwrap_or(1).max(1) + 1;
    let mut next = Instant::now();
    while !stop.load(Ordering::Relaxed) && Instant::now() < end && out.samples < limit {
        let row = c.query_one(&stmt, &[&club_id]).await?;
        let waiting: i64 = row.get(0);
        let age_ms: i64 = row.get(1);
        out.waiting.push(u64::try_from(waiting).unwrap_or(0));
        out.age
            .push(Duration::from_millis(u64::try_from(age_ms).unwrap_or(0)));
        out.samples += 1;
        // A fixed rate, whatever the statement took.
        next += every;
        tokio::time::sleep_until(next.into()).await;
    }
    out.sampler_cpu = process_cpu_secs(&pid).unwrap_or(0.0) - cpu0;
    Ok(out)
}

/// The verdict on the lag of one concurrency: its largest sampled age against
/// [`LAG_TARGET`].
pub fn verdict(lag: &mut LagSamples) -> (f64, f64, bool) {
    let max = lag.age.pct_ms(100.0);
    let p99 = lag.age.pct_ms(99.0);
    (max, p99, max < LAG_TARGET.as_secs_f64() * 1000.0)
}
