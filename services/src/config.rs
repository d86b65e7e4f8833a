//! Configuration: command-line flags with environment fallbacks, shared by `serve` and
//! the administrative subcommands.

use std::path::PathBuf;
use std::sync::Arc;

use crate::store::{PgStore, SqliteStore, Store, StoreError};

/// Where the data lives: the database (PostgreSQL, or the embedded SQLite file in the data
/// folder) and the key files.
#[derive(Clone, Debug, clap::Args)]
pub struct StoreArgs {
    /// PostgreSQL URL (postgres://user@host:port/db). Without one, the embedded store in
    /// --data-dir is used.
    #[arg(long, env = "DATABASE_URL", hide_env_values = true)]
    pub database_url: Option<String>,

    /// The data folder: signing keys, the seal key and (without --database-url) the
    /// embedded database.
    #[arg(long, env = "AUDIT_DATA_DIR", default_value = "./data")]
    pub data_dir: PathBuf,

    /// Read the service's Ed25519 signing key (64 hex characters) from this file instead
    /// of <data-dir>/keys.
    #[arg(long, env = "AUDIT_KEY_FILE")]
    pub key_file: Option<PathBuf>,

    /// Most PostgreSQL connections in the pool.
    #[arg(long, env = "AUDIT_DB_POOL", default_value_t = 16)]
    pub db_pool: usize,

    /// PostgreSQL URL of a hot standby of --database-url's database: history, finished
    /// hands, bundles, replays and match files are read there whenever it has replayed
    /// every write acknowledged so far, else from the primary (PostgreSQL only). Its
    /// pool has at most --db-pool connections.
    #[arg(long, env = "AUDIT_READ_DATABASE_URL", hide_env_values = true)]
    pub read_database_url: Option<String>,

    /// The HTTP worker threads the store will serve (set by `serve`, not a flag; 0 for
    /// the other commands): on PostgreSQL each gets a pool of its own out of --db-pool
    /// (`PgStore::with_worker_pools`).
    #[arg(skip)]
    pub http_workers: usize,
}

impl StoreArgs {
    /// Flags for the embedded store in `data_dir`.
    pub fn embedded(data_dir: impl Into<PathBuf>) -> StoreArgs {
        StoreArgs {
            database_url: None,
            data_dir: data_dir.into(),
            key_file: None,
            db_pool: 16,
            read_database_url: None,
            http_workers: 0,
        }
    }

    /// The PostgreSQL URL, if one is given and not empty.
    pub fn database_url(&self) -> Option<&str> {
        self.database_url
            .as_deref()
            .map(str::trim)
            .filter(|u| !u.is_empty())
    }

    /// The standby's PostgreSQL URL, if one is given and not empty.
    pub fn read_database_url(&self) -> Option<&str> {
        self.read_database_url
            .as_deref()
            .map(str::trim)
            .filter(|u| !u.is_empty())
    }

    /// The embedded database file.
    pub fn sqlite_path(&self) -> PathBuf {
        self.data_dir.join("dealer.db")
    }

    /// Opens the store and applies pending migrations.
    pub async fn open_store(&self) -> Result<Arc<dyn Store>, StoreError> {
        let store: Arc<dyn Store> = match (self.database_url(), self.read_database_url()) {
            (Some(url), read) => {
                let pg = PgStore::connect(url, self.db_pool)?.with_worker_pools(self.http_workers);
                match read {
                    Some(read) => Arc::new(pg.with_standby(read, self.db_pool)?),
                    None => Arc::new(pg),
                }
            }
            (None, Some(_)) => {
                return Err(StoreError::Config(
                    "--read-database-url needs --database-url: the embedded store has no \
                     standby to read from"
                        .into(),
                ))
            }
            (None, None) => Arc::new(SqliteStore::open(self.sqlite_path())?),
        };
        store.migrate().await?;
        Ok(store)
    }

    /// Which store, for logs (never the URL: it may hold a password).
    pub fn describe(&self) -> String {
        match self.database_url() {
            Some(_) if self.read_database_url().is_some() => {
                "postgresql, with reads off a standby".to_string()
            }
            Some(_) => "postgresql".to_string(),
            None => format!("embedded sqlite at {}", self.sqlite_path().display()),
        }
    }
}

/// Flags of `serve`.
#[derive(Clone, Debug, clap::Args)]
pub struct ServeArgs {
    /// Address to listen on (port 0: any free port; the bound address is printed).
    #[arg(long, env = "AUDIT_LISTEN", default_value = "127.0.0.1:8080")]
    pub listen: String,

    /// The scheme-less URL of the API root as the public reaches it (e.g.
    /// `cards.example.org/v1`): each club's transparency log is named
    /// `<base>/clubs/<club>/log` (docs/TRANSPARENCY.md §1). Set it once: it names the
    /// logs for ever.
    #[arg(long, env = "AUDIT_PUBLIC_BASE", default_value = crate::clublog::DEFAULT_PUBLIC_BASE,
        value_parser = parse_public_base)]
    pub public_base: String,

    /// HTTP worker threads (default: one per CPU core).
    #[arg(long, env = "AUDIT_WORKERS")]
    pub workers: Option<usize>,

    /// Seconds to let in-flight requests finish after SIGINT/SIGTERM.
    #[arg(long, env = "AUDIT_SHUTDOWN_TIMEOUT", default_value_t = 30)]
    pub shutdown_timeout: u64,

    /// Log as JSON lines instead of text.
    #[arg(long, env = "AUDIT_LOG_JSON")]
    pub log_json: bool,

    /// Milliseconds a client has to send a request's head once it connects (or between
    /// requests on a kept-alive connection) before the connection is closed.
    #[arg(long, env = "AUDIT_HEAD_TIMEOUT_MS", default_value_t = 5_000)]
    pub head_timeout_ms: u64,

    /// Milliseconds a client has to send a whole request body once the server starts to
    /// read it; a slower body gets `408 body_timeout` and its connection is closed.
    #[arg(long, env = "AUDIT_BODY_TIMEOUT_MS", default_value_t = 10_000)]
    pub body_timeout_ms: u64,

    /// Open connections at most, over all workers; past it new connections wait in the
    /// listen backlog. Keep it well under the process's file-descriptor limit.
    #[arg(long, env = "AUDIT_MAX_CONNECTIONS", default_value_t = 8_192)]
    pub max_connections: usize,

    /// Bodies above 64 KiB (bundles sent to `POST /v1/verify`) received at once, at most;
    /// past it such a request gets `503 busy` with `Retry-After` before its body is read.
    #[arg(long, env = "AUDIT_MAX_LARGE_BODIES", default_value_t = 4)]
    pub max_large_bodies: usize,

    /// Bodies above 64 KiB one client (one peer address) may send at once, at most; past
    /// it its next one gets `503 busy`, so that one client's slow uploads cannot hold the
    /// whole budget.
    #[arg(long, env = "AUDIT_MAX_LARGE_BODIES_PER_CLIENT", default_value_t = crate::limits::DEFAULT_PER_CLIENT)]
    pub max_large_bodies_per_client: usize,

    /// Open connections one client (one peer address) may hold at once, at most
    /// (default: an eighth of `--max-connections`); a connection past it is closed at
    /// once, so that one client's slow request heads cannot fill the connection cap.
    #[arg(long, env = "AUDIT_MAX_CONNECTIONS_PER_CLIENT")]
    pub max_connections_per_client: Option<usize>,

    /// MiB of large bodies received at once, at most (by declared size, 16 MiB for a body
    /// that declares none).
    #[arg(long, env = "AUDIT_LARGE_BODY_BUDGET_MIB", default_value_t = 64)]
    pub large_body_budget_mib: usize,

    /// The store and keys.
    #[command(flatten)]
    pub store: StoreArgs,
}

/// A `--public-base` that makes a valid log origin.
fn parse_public_base(s: &str) -> Result<String, String> {
    replayer::tlog::Origin::for_club(s, "club")
        .map(|_| s.to_string())
        .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_read_url_without_postgresql_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let mut args = StoreArgs::embedded(dir.path());
        args.read_database_url = Some("postgres://postgres@127.0.0.1:5433/x".into());
        let err = args.open_store().await.err().expect("refused");
        assert!(
            matches!(&err, StoreError::Config(m) if m.contains("--read-database-url needs --database-url")),
            "{err}"
        );
        assert!(!args.sqlite_path().exists(), "nothing is created");
    }
}
