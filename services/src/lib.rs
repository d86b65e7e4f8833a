#![warn(missing_docs)]
//! The dealer and referee service: an actix-web HTTP API over the pure core in
//! `replayer`, with an event store on PostgreSQL or an embedded SQLite file.
//!
//! * [`config`]: flags and environment;
//! * [`keys`]: the signing keyring and the seal key;
//! * [`auth`]: API keys and seat tokens;
//! * [`clubs`], [`tables`], [`hands`], [`history`]: the domain the handlers call;
//! * [`disputes`]: disputes over finished hands, their findings, rulings and reports;
//! * [`idempotency`]: `Idempotency-Key` handling;
//! * [`names`]: display names (players, clubs): NFC, nothing invisible;
//! * [`store`]: the event store;
//! * [`api`]: routes, extractors, errors, OpenAPI;
//! * [`server`]: start-up and graceful shutdown;
//! * [`audit`]: the `audit` command, re-verifying a club from the store;
//! * [`shares`]: share links, a club admin's read-only link to one finished hand.
//!
//! The HTTP API is described in `docs/API.md`.

pub mod api;
pub mod audit;
pub mod auth;
pub mod clublog;
pub mod clubs;
pub mod config;
pub mod disputes;
pub mod hands;
pub mod history;
pub mod idempotency;
pub mod keys;
pub mod limits;
pub mod metrics;
pub mod names;
pub mod seed_chains;
pub mod server;
pub mod shares;
pub mod store;
pub mod tables;

use std::sync::Arc;

use config::StoreArgs;
use keys::{KeyError, Keyring, SealKey};
use metrics::Metrics;
use store::{Store, StoreError};

/// Everything a request handler needs, shared by every worker.
pub struct Service {
    /// The event store.
    pub store: Arc<dyn Store>,
    /// The signing keys.
    pub keys: Keyring,
    /// The seal key for secrets at rest.
    pub seal: SealKey,
    /// Running hands held in memory.
    pub live: hands::LiveHands,
    /// Token rows read lately (`auth`).
    pub tokens: auth::TokenCache,
    /// Metrics.
    pub metrics: Metrics,
    /// The scheme-less URL of the API root that names the clubs' transparency logs
    /// (`serve --public-base`; [`clublog::DEFAULT_PUBLIC_BASE`] until set).
    pub log_base: String,
}

impl std::fmt::Debug for Service {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Service")
            .field("keys", &self.keys)
            .finish_non_exhaustive()
    }
}

/// Why the service could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// The store could not be opened or migrated.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The keys could not be loaded or created.
    #[error(transparent)]
    Keys(#[from] KeyError),
    /// The metrics registry refused a metric.
    #[error("metrics: {0}")]
    Metrics(#[from] prometheus::Error),
    /// The listening socket could not be bound, or the server failed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

impl Service {
    /// Opens the store (migrating it) and the keys.
    pub async fn open(args: &StoreArgs) -> Result<Service, StartError> {
        let keys = Keyring::load_or_create(&args.data_dir, args.key_file.as_deref())?;
        let seal = SealKey::load_or_create(&args.data_dir)?;
        let store = args.open_store().await?;
        let metrics = Metrics::new()?;
        for c in store.collectors() {
            metrics.register(c)?;
        }
        Ok(Service {
            store,
            keys,
            seal,
            live: hands::LiveHands::default(),
            tokens: auth::TokenCache::default(),
            metrics,
            log_base: clublog::DEFAULT_PUBLIC_BASE.to_string(),
        })
    }
}

/// Whether `s` can be an id this service gave: 1 to 128 bytes, no NUL (which PostgreSQL
/// text refuses). Anything else is looked up as nothing.
pub fn plausible_id(s: &str) -> bool {
    !s.is_empty() && s.len() <= 128 && !s.contains('\0')
}

/// Whether any string (or member name) in `v` holds a NUL character, which neither the
/// databases' JSON nor their text columns store.
pub fn has_nul(v: &serde_json::Value) -> bool {
    use serde_json::Value;
    match v {
        Value::String(s) => s.contains('\0'),
        Value::Array(a) => a.iter().any(has_nul),
        Value::Object(o) => o.iter().any(|(k, x)| k.contains('\0') || has_nul(x)),
        _ => false,
    }
}

/// Now, in unix milliseconds.
pub fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
        .unwrap_or(0)
}
