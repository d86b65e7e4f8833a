//! Start-up: open the store and keys, bind, print the address, serve until SIGINT or
//! SIGTERM, then let in-flight requests (and so their appends) finish.

use std::io::Write;

use actix_web::{web, HttpServer};

use crate::config::ServeArgs;
use crate::{api, Service, StartError};

/// Runs the HTTP server. Prints `listening on http://ADDR` on stdout once bound.
pub async fn serve(args: ServeArgs) -> Result<(), StartError> {
    let svc = web::Data::new(Service::open(&args.store).await?);
    tracing::info!(
        store = %args.store.describe(),
        key_id = %svc.keys.current().key_id(),
        "service ready"
    );
    let data = svc.clone();
    let mut server =
        HttpServer::new(move || api::app(data.clone())).shutdown_timeout(args.shutdown_timeout);
    if let Some(w) = args.workers {
        server = server.workers(w.max(1));
    }
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
    server.run().await?;
    tracing::info!("stopped");
    Ok(())
}
