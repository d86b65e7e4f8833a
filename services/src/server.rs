//! Start-up: open the store and keys, start the sequencer, bind, print the address,
//! serve until SIGINT or SIGTERM, then let in-flight requests (and so their appends)
//! finish and order what they wrote.

use std::any::Any;
use std::collections::HashMap;
use std::io::Write;
use std::net::IpAddr;
use std::os::fd::AsFd;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use actix_web::{web, HttpServer};

use crate::config::ServeArgs;
use crate::limits::BodyLimits;
use crate::{api, store, Service, StartError};

/// Runs the HTTP server. Prints `listening on http://ADDR` on stdout once bound.
pub async fn serve(args: ServeArgs) -> Result<(), StartError> {
    let workers = args
        .workers
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let mut store_args = args.store.clone();
    store_args.http_workers = workers;
    let mut svc = Service::open(&store_args).await?;
    svc.log_base.clone_from(&args.public_base);
    let svc = web::Data::new(svc);
    tracing::info!(
        store = %args.store.describe(),
        key_id = %svc.keys.current().key_id(),
        "service ready"
    );
    // The club-wide order of new events (PostgreSQL orders them after commit; see
    // `store::Store::sequence`). Its work is in the database: a restart loses nothing.
    let metrics = svc.metrics.clone();
    let sequencer = store::spawn_sequencer(
        svc.store.clone(),
        store::SEQUENCER_PERIOD,
        move |outcome, took| {
            metrics.sequencer_seconds.observe(took.as_secs_f64());
            match outcome {
                Ok(n) => metrics.ordered.inc_by(n),
                Err(_) => metrics.sequencer_failures.inc(),
            }
        },
    );
    // The clubs' transparency logs (docs/TRANSPARENCY.md §10): tiles and a signed
    // checkpoint for the newly ordered events, every `LOG_PERIOD`.
    let log_builder = crate::clublog::spawn_log_builder(svc.clone().into_inner());
    let data = svc.clone();
    let limits = BodyLimits::new(
        Duration::from_millis(args.body_timeout_ms.max(1)),
        api::JSON_LIMIT,
        args.max_large_bodies,
        args.large_body_budget_mib.saturating_mul(1024 * 1024),
    )
    .with_per_client(args.max_large_bodies_per_client);
    // Called on each worker's thread, as it starts: the store's connections taken there
    // come from the worker's own pool (`PgStore::with_worker_pools`).
    // The bound address, for share links when `--public-base` is not set (never the
    // request's Host): known once bound, before the first request.
    let bound = api::shares::BoundAddr::default();
    let bound_app = bound.clone();
    let cap = ConnectionCap::new(
        args.max_connections_per_client
            .unwrap_or(args.max_connections / 8),
    );
    let reporter = spawn_stream_error_reporter();
    let server = HttpServer::new(move || {
        store::mark_worker_thread();
        api::app(data.clone(), limits.clone()).app_data(bound_app.clone())
    })
    .shutdown_timeout(args.shutdown_timeout)
    .workers(workers)
    // actix's cap is per worker.
    .max_connections(args.max_connections.div_ceil(workers).max(1))
    .client_request_timeout(Duration::from_millis(args.head_timeout_ms.max(1)))
    .client_disconnect_timeout(Duration::from_secs(1))
    .on_connect(move |conn, ext| cap.on_connect(conn, ext));
    let server = server.bind(&args.listen)?;
    let addr = server
        .addrs()
        .first()
        .copied()
        .ok_or_else(|| std::io::Error::other("bound to no address"))?;
    let _ = bound.0.set(format!("http://{addr}"));
    {
        let mut out = std::io::stdout().lock();
        writeln!(out, "listening on http://{addr}")?;
        out.flush()?;
    }
    tracing::info!(%addr, "listening");
    // actix stops accepting on SIGINT/SIGTERM and waits up to shutdown_timeout for the
    // requests in flight: an append that started completes.
    let served = server.run().await;
    // The appends that finished are ordered before the process goes.
    sequencer.abort();
    log_builder.abort();
    reporter.abort();
    if let Err(e) = store::sequence_all(svc.store.as_ref()).await {
        tracing::warn!(error = %e, "last sequencer pass failed; the next start orders the rest");
    }
    // ... and logged, so the last hands have a checkpoint before the process goes.
    if let Err(e) = crate::clublog::LogBuilder::default().build_all(&svc).await {
        tracing::warn!(error = %e, "last log builder pass failed; the next start logs the rest");
    }
    served?;
    tracing::info!("stopped");
    Ok(())
}

/// Open connections per peer address, past which a new connection is closed at once
/// (`--max-connections-per-client`): one client's slow request heads cannot fill the
/// connection cap and keep every other client waiting in the listen backlog until the
/// head deadline frees a place (issue 29). Behind a proxy that hides the clients'
/// addresses, the proxy is one client: cap there.
#[derive(Clone, Debug)]
pub struct ConnectionCap {
    per_client: usize,
    open: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

/// A connection's place in [`ConnectionCap`]; given back when the connection ends (it
/// lives in the connection's extensions).
struct ConnectionSlot {
    ip: IpAddr,
    open: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

impl Drop for ConnectionSlot {
    fn drop(&mut self) {
        let mut m = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(n) = m.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                m.remove(&self.ip);
            }
        }
    }
}

impl ConnectionCap {
    /// At most `per_client` (at least 1) open connections per peer address.
    pub fn new(per_client: usize) -> Self {
        ConnectionCap {
            per_client: per_client.max(1),
            open: Arc::default(),
        }
    }

    /// Takes the connection's place, or shuts it down (both ways, at once: the server
    /// reads its end and closes it) when its client holds its share already.
    pub fn on_connect(&self, conn: &dyn Any, ext: &mut actix_web::dev::Extensions) {
        let Some(stream) = conn.downcast_ref::<actix_web::rt::net::TcpStream>() else {
            return;
        };
        let Ok(peer) = stream.peer_addr() else {
            return;
        };
        let ip = peer.ip();
        let admitted = {
            let mut m = self.open.lock().unwrap_or_else(PoisonError::into_inner);
            let n = m.entry(ip).or_insert(0);
            if *n < self.per_client {
                *n += 1;
                true
            } else {
                false
            }
        };
        if admitted {
            ext.insert(ConnectionSlot {
                ip,
                open: self.open.clone(),
            });
            return;
        }
        // A duplicate of the socket's descriptor, shut down: `shutdown` acts on the
        // socket, whichever descriptor names it.
        let shut = stream
            .as_fd()
            .try_clone_to_owned()
            .map(std::net::TcpStream::from)
            .and_then(|s| s.shutdown(std::net::Shutdown::Both));
        REFUSED_CONNECTIONS.fetch_add(1, Ordering::Relaxed);
        if let Err(e) = shut {
            tracing::warn!(error = %e, "could not close a connection past its client's cap");
        }
    }
}

/// Connections closed at once because their client held its share ([`ConnectionCap`]).
static REFUSED_CONNECTIONS: AtomicU64 = AtomicU64::new(0);

/// Connections that ended in a protocol error (a malformed request head, a body cut
/// short): counted by [`StreamErrors`] instead of logged one by one.
static STREAM_ERRORS: AtomicU64 = AtomicU64::new(0);

/// A tracing layer that takes actix-http's `stream error` lines, one ERROR line per
/// malformed request or broken connection (18,000 in 25 s from one client, issue 29), out
/// of the log and counts them; [`spawn_stream_error_reporter`] says how many there were,
/// at WARN, at most once per [`STREAM_ERROR_PERIOD`]. A client's mistake is not the
/// server's error, and one client must not be able to flood the log.
#[derive(Clone, Copy, Debug, Default)]
pub struct StreamErrors;

impl<S: tracing::Subscriber> tracing_subscriber::Layer<S> for StreamErrors {
    fn event_enabled(
        &self,
        event: &tracing::Event<'_>,
        _: tracing_subscriber::layer::Context<'_, S>,
    ) -> bool {
        let meta = event.metadata();
        if *meta.level() != tracing::Level::ERROR || !meta.target().starts_with("actix_http::h1") {
            return true;
        }
        struct Message(bool);
        impl tracing::field::Visit for Message {
            fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
                if field.name() == "message" {
                    self.0 = format!("{value:?}").starts_with("stream error");
                }
            }
        }
        let mut m = Message(false);
        event.record(&mut m);
        if m.0 {
            STREAM_ERRORS.fetch_add(1, Ordering::Relaxed);
            return false;
        }
        true
    }
}

/// How often the counts of [`StreamErrors`] and [`ConnectionCap`] are logged (when they
/// moved).
pub const STREAM_ERROR_PERIOD: Duration = Duration::from_secs(10);

/// Logs, at WARN and at most once per [`STREAM_ERROR_PERIOD`], how many connections ended
/// in a protocol error and how many were closed past their client's cap since the last
/// line, with the totals.
pub fn spawn_stream_error_reporter() -> tokio::task::JoinHandle<()> {
    tokio::spawn(async {
        let mut tick = tokio::time::interval(STREAM_ERROR_PERIOD);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let (mut errors, mut refused) = (0u64, 0u64);
        loop {
            tick.tick().await;
            let (e, r) = (
                STREAM_ERRORS.load(Ordering::Relaxed),
                REFUSED_CONNECTIONS.load(Ordering::Relaxed),
            );
            if e != errors || r != refused {
                tracing::warn!(
                    malformed = e - errors,
                    malformed_total = e,
                    refused = r - refused,
                    refused_total = r,
                    period_s = STREAM_ERROR_PERIOD.as_secs(),
                    "connections that ended in a protocol error (a malformed request, a body cut short) or were closed past their client's connection cap in the last period"
                );
                (errors, refused) = (e, r);
            }
        }
    })
}
