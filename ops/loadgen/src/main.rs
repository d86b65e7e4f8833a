//! `loadgen`: the store's performance benchmarks, run by hand against a throw-away
//! PostgreSQL database (see `ops/bench.sh` and `ops/README.md`). Never run in CI.
//!
//! * `appends`: durable append throughput and latency of `PgStore::append`, one club
//!   with C concurrent Bist-o-yek hands, against a baseline of plain single-row
//!   autocommit INSERTs of event-sized rows over the same pool settings; and the
//!   sequencer's lag, sampled during every append slice (`lag`).
//! * `history`: bulk-loads ~1M events with their hands, then times `Store::list_hands`
//!   with a mix of filters and cursor paging.
//! * `http`: actions through the HTTP API of a real `audit-service` (many tables, each
//!   seat acting with its token) against the `appends` workload, in one run.
//! * `clublog`: the club transparency log's checkpoint and proof costs at 1M and 10M
//!   leaves, and the append rate with its builder running against without it.
//! * `crash drive` / `crash check`: HTTP load on many tables of a running service, and
//!   after it was killed and restarted, the check that nothing acknowledged was lost
//!   (`ops/crash.sh`).
//!
//! Every loop is bounded in count and in time, and the only traffic is to the database
//! URL given (which `ops/bench.sh` points at 127.0.0.1), or for `crash` to the service's
//! URL (which `ops/crash.sh` starts on 127.0.0.1).

mod appends;
mod clublog;
mod common;
mod crash;
mod history;
mod http;
mod lag;

use clap::{Parser, Subcommand};

/// mimalloc rather than glibc malloc: under many threads, glibc's malloc and free took
/// about 15% of the CPU of the append workload (ops/README.md).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser, Debug)]
#[command(
    name = "loadgen",
    about = "Store benchmarks (append throughput, history queries) and the crash test's driver and checker"
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand, Debug)]
enum Cmd {
    /// Durable appends (one club, C concurrent hands) against plain INSERTs.
    Appends(appends::Args),
    /// Bulk-load ~N events, then time list_hands with a mix of filters.
    History(history::Args),
    /// Actions through the service's HTTP API against the store-only appends.
    Http(http::Args),
    /// Durability under kill -9: the load driver and the checker of ops/crash.sh.
    Crash(crash::Args),
    /// The club log: checkpoint and proof costs by log size, appends with it on and off.
    Clublog(clublog::Args),
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    rt.block_on(async {
        match cli.cmd {
            Cmd::Appends(a) => appends::run(a).await,
            Cmd::History(h) => history::run(h).await,
            Cmd::Http(h) => http::run(h).await,
            Cmd::Crash(c) => crash::run(c).await,
            Cmd::Clublog(c) => clublog::run(c).await,
        }
    })
}
