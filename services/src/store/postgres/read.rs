//! Reads off the primary: a second pool on a PostgreSQL hot standby, and the rule that
//! decides, read by read, whether the standby may serve it.
//!
//! The rule is by WAL position. Before a routed read the router asks the primary for
//! `pg_current_wal_lsn()` and, at the same time, the standby for
//! `pg_last_wal_replay_lsn()` on the connection the read will use. A write a client has
//! been told succeeded has committed, and a commit is visible only once its WAL record
//! is written (the service never turns `synchronous_commit` off), so its record ends at
//! or below the primary's position. When the standby has replayed at least that far,
//! the read on that same connection (replay only moves forward) sees every write
//! acknowledged before the read began: no client reads older data than it has written,
//! nor older than anything it read before. Otherwise the read goes to the primary.
//! There is no waiting: a standby a few milliseconds behind costs one primary read, not
//! latency.
//!
//! A standby that does not answer (or one that is no longer in recovery: promoted, or a
//! URL that names a primary) sends reads to the primary, and is not tried again for
//! [`STANDBY_BACKOFF`], so a dead standby does not add a connect attempt to every read.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use deadpool_postgres::{Manager, ManagerConfig, Object, Pool, RecyclingMethod, Runtime};
use prometheus::core::Collector;
use prometheus::{IntCounterVec, IntGauge, Opts};
use tokio_postgres::NoTls;

use super::{client_of, map_pg};
use crate::store::StoreError;

/// How long reads skip a standby that failed to answer.
pub(super) const STANDBY_BACKOFF: Duration = Duration::from_secs(1);

/// `SELECT` of the primary's WAL write position, in bytes from `0/0`.
const PRIMARY_LSN: &str = "SELECT (pg_current_wal_lsn() - '0/0'::pg_lsn)::int8";

/// `SELECT` of the standby's replay position, in bytes from `0/0` (NULL when the server
/// is not in recovery).
const REPLAY_LSN: &str = "SELECT (pg_last_wal_replay_lsn() - '0/0'::pg_lsn)::int8";

/// Where a routed read went: the closed label set of `read_routed_total`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Target {
    /// The standby had replayed every acknowledged write.
    Standby,
    /// The standby was behind, down, or not a standby.
    Primary,
}

impl Target {
    fn label(self) -> &'static str {
        match self {
            Target::Standby => "standby",
            Target::Primary => "primary",
        }
    }
}

/// Routes reads between the primary's pool (the caller's: a worker's own, see
/// `PgStore::with_worker_pools`) and a standby's.
pub(super) struct ReadRouter {
    standby: Pool,
    /// Until when the standby is skipped after a failure.
    skip_until: Mutex<Option<Instant>>,
    /// `read_routed_total{target}`.
    routed: IntCounterVec,
    /// `standby_replay_lag_bytes`: WAL the standby has still to replay (-1 unknown).
    lag_bytes: IntGauge,
    /// `standby_up`: 1 when the standby answered the last look, as a standby.
    up: IntGauge,
}

impl ReadRouter {
    /// A router over a new pool of at most `max_size` connections to the standby at
    /// `url`. Connects lazily, like the primary's pool.
    pub(super) fn new(url: &str, max_size: usize) -> Result<Self, StoreError> {
        // The parse error could quote the URL, password included: say only that it failed.
        let mut cfg: tokio_postgres::Config = url
            .parse()
            .map_err(|_| StoreError::Config("malformed read PostgreSQL URL".into()))?;
        if cfg.get_connect_timeout().is_none() {
            cfg.connect_timeout(Duration::from_secs(2));
        }
        let manager = Manager::from_config(
            cfg,
            NoTls,
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        let standby = Pool::builder(manager)
            .max_size(max_size.max(1))
            .runtime(Runtime::Tokio1)
            // Short: a read waits for the primary rather than for a busy standby.
            .wait_timeout(Some(Duration::from_millis(500)))
            .create_timeout(Some(Duration::from_secs(2)))
            .recycle_timeout(Some(Duration::from_secs(2)))
            .build()
            .map_err(|e| StoreError::Config(format!("read connection pool: {e}")))?;
        let metric = |e: prometheus::Error| StoreError::Config(format!("metrics: {e}"));
        let routed = IntCounterVec::new(
            Opts::new(
                "read_routed_total",
                "Reads that may go to the standby, by where they went (standby or primary)",
            ),
            &["target"],
        )
        .map_err(metric)?;
        // Both series from the start, so a rate over either is defined.
        for t in [Target::Standby, Target::Primary] {
            routed.with_label_values(&[t.label()]);
        }
        let lag_bytes = IntGauge::new(
            "standby_replay_lag_bytes",
            "WAL bytes the standby has received or not, but not yet replayed, at the last \
             scrape (-1: unknown, the standby did not answer)",
        )
        .map_err(metric)?;
        let up = IntGauge::new(
            "standby_up",
            "1 when the read standby answered the last scrape as a server in recovery",
        )
        .map_err(metric)?;
        Ok(ReadRouter {
            standby,
            skip_until: Mutex::new(None),
            routed,
            lag_bytes,
            up,
        })
    }

    /// A connection for one read: the standby's when it has replayed every write
    /// acknowledged so far, else one of `primary`.
    pub(super) async fn client(&self, primary: &Pool) -> Result<Object, StoreError> {
        if self.skipping() {
            return self.on_primary(primary, None).await;
        }
        let (primary_lsn, standby) = tokio::join!(Self::primary_lsn(primary), self.standby_lsn());
        let (on_primary, lsn) = primary_lsn?;
        match standby {
            Ok((client, Some(replayed))) if replayed >= lsn => {
                self.count(Target::Standby);
                Ok(client)
            }
            Ok(_) => self.on_primary(primary, Some(on_primary)).await,
            Err(e) => {
                tracing::warn!(error = %e, "read standby unavailable; reading from the primary");
                self.skip();
                self.on_primary(primary, Some(on_primary)).await
            }
        }
    }

    /// Refreshes `standby_replay_lag_bytes` and `standby_up` (at scrape time), the
    /// primary's position read on a connection of `primary`.
    pub(super) async fn refresh(&self, primary: &Pool) {
        let (primary, standby) = tokio::join!(Self::primary_lsn(primary), self.standby_lsn());
        match standby {
            Ok((_, Some(replayed))) => {
                self.up.set(1);
                match primary {
                    Ok((_, lsn)) => self.lag_bytes.set(lsn.saturating_sub(replayed).max(0)),
                    Err(_) => self.lag_bytes.set(-1),
                }
            }
            Ok((_, None)) | Err(_) => {
                self.up.set(0);
                self.lag_bytes.set(-1);
            }
        }
    }

    /// The router's metrics, for the service's registry.
    pub(super) fn collectors(&self) -> Vec<Box<dyn Collector>> {
        vec![
            Box::new(self.routed.clone()),
            Box::new(self.lag_bytes.clone()),
            Box::new(self.up.clone()),
        ]
    }

    async fn on_primary(
        &self,
        primary: &Pool,
        client: Option<Object>,
    ) -> Result<Object, StoreError> {
        let client = match client {
            Some(c) => c,
            None => client_of(primary).await?,
        };
        self.count(Target::Primary);
        Ok(client)
    }

    fn count(&self, target: Target) {
        self.routed.with_label_values(&[target.label()]).inc();
    }

    async fn primary_lsn(primary: &Pool) -> Result<(Object, i64), StoreError> {
        let client = client_of(primary).await?;
        let stmt = client.prepare_cached(PRIMARY_LSN).await.map_err(map_pg)?;
        let lsn: i64 = client.query_one(&stmt, &[]).await.map_err(map_pg)?.get(0);
        Ok((client, lsn))
    }

    async fn standby_lsn(&self) -> Result<(Object, Option<i64>), StoreError> {
        let client = client_of(&self.standby).await?;
        let stmt = client.prepare_cached(REPLAY_LSN).await.map_err(map_pg)?;
        let lsn: Option<i64> = client.query_one(&stmt, &[]).await.map_err(map_pg)?.get(0);
        Ok((client, lsn))
    }

    fn skipping(&self) -> bool {
        let mut until = self.skip_until.lock().unwrap_or_else(|p| p.into_inner());
        match *until {
            Some(t) if Instant::now() < t => true,
            Some(_) => {
                *until = None;
                false
            }
            None => false,
        }
    }

    fn skip(&self) {
        let mut until = self.skip_until.lock().unwrap_or_else(|p| p.into_inner());
        *until = Some(Instant::now() + STANDBY_BACKOFF);
    }
}
