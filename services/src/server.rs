//! Start-up: open the store and keys, start the sequencer, bind, print the address,
//! serve until SIGINT or SIGTERM, then let in-flight requests (and so their appends)
//! finish and order what they wrote.

use std::io::Write;
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
    );
    // Called on each worker's thread, as it starts: the store's connections taken there
    // come from the worker's own pool (`PgStore::with_worker_pools`).
    let server = HttpServer::new(move || {
        store::mark_worker_thread();
        api::app(data.clone(), limits.clone())
    })
    .shutdown_timeout(args.shutdown_timeout)
    .workers(workers)
    // actix's cap is per worker.
    .max_connections(args.max_connections.div_ceil(workers).max(1))
    .client_request_timeout(Duration::from_millis(args.head_timeout_ms.max(1)))
    .client_disconnect_timeout(Duration::from_secs(1));
    let server = server.bind(&args.listen)?;
    let addr = server
        .addrs()
        .first()
        .copied()
        .ok_or_else(|| std::io::Error::other("bound to no address"))?;
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
