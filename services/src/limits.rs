//! What one client may hold of the server: how long its request head and body may take to
//! arrive, and how many large bodies may be in flight at once.
//!
//! A body is read chunk by chunk as it arrives, never into a buffer sized from the
//! client's `Content-Length`, so a stalled client holds only what it has sent. The whole
//! body must arrive within the body deadline (`408 body_timeout`, and the connection is
//! closed). A body larger than [`JSON_LIMIT`](crate::api::JSON_LIMIT) (only
//! `POST /v1/verify` takes one) first takes room from a budget shared by the process: a
//! count of large bodies and a total of their declared sizes. When either is spent the
//! request is answered at once with `503 busy` and `Retry-After`, before any of its body is
//! read. One client (one peer address) may have at most `--max-large-bodies-per-client`
//! (default 1) of them in flight: past it, its next one is `503 busy` too, so slow uploads
//! from one client never hold the budget that every other client needs (behind a proxy
//! that hides the clients' addresses, the proxy is one client: cap there). The connection
//! cap itself is actix-web's (`max_connections`, per worker), and the
//! head deadline is its `client_request_timeout`.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use actix_web::dev::Payload;
use actix_web::error::PayloadError;
use actix_web::http::header;
use actix_web::web::{Bytes, BytesMut};
use actix_web::HttpRequest;
use futures_util::StreamExt;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::api::errors::{ApiError, Code};

/// Large bodies one client may send at once unless `--max-large-bodies-per-client` says.
pub const DEFAULT_PER_CLIENT: usize = 1;

/// Unit of the large-body byte budget: one permit per started KiB.
const KIB: usize = 1024;

/// The body limits of a running server.
#[derive(Clone, Debug)]
pub struct BodyLimits {
    /// How long a body may take to arrive, from the moment the handler starts to read it.
    pub deadline: Duration,
    /// Bodies above this many bytes are large: they need room in the budget.
    pub large_above: usize,
    /// Large bodies in flight.
    count: Arc<Semaphore>,
    /// KiB of large bodies in flight (by declared or maximal size).
    bytes: Arc<Semaphore>,
    /// The budget's total, in KiB (for the error message).
    budget_kib: usize,
    /// The budget's count (for the error message).
    max_large: usize,
    /// Large bodies one client (one peer address) may have in flight at once: slow uploads
    /// from one client cannot hold the whole budget (issue 29).
    per_client: usize,
    /// Large bodies in flight per peer address.
    clients: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

/// A client's place among the large bodies in flight; given back when dropped.
#[derive(Debug)]
struct ClientSlot {
    ip: IpAddr,
    clients: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

impl Drop for ClientSlot {
    fn drop(&mut self) {
        let mut m = self.clients.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(n) = m.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                m.remove(&self.ip);
            }
        }
    }
}

/// Room taken in the large-body budget; given back when dropped.
#[derive(Debug)]
pub struct LargeBody {
    _count: OwnedSemaphorePermit,
    _bytes: OwnedSemaphorePermit,
    _client: Option<ClientSlot>,
}

impl BodyLimits {
    /// Limits allowing `max_large` large bodies totalling at most `budget_bytes` at once,
    /// [`DEFAULT_PER_CLIENT`] of them from one client.
    pub fn new(
        deadline: Duration,
        large_above: usize,
        max_large: usize,
        budget_bytes: usize,
    ) -> Self {
        let budget_kib = budget_bytes.div_ceil(KIB).max(1);
        BodyLimits {
            deadline,
            large_above,
            count: Arc::new(Semaphore::new(max_large.max(1))),
            bytes: Arc::new(Semaphore::new(budget_kib)),
            budget_kib,
            max_large: max_large.max(1),
            per_client: DEFAULT_PER_CLIENT,
            clients: Arc::default(),
        }
    }

    /// The same limits with at most `n` (at least 1) large bodies from one client at once.
    pub fn with_per_client(mut self, n: usize) -> Self {
        self.per_client = n.max(1);
        self
    }

    /// Takes a place for one more large body of the client at `ip`, or `None` when it has
    /// its share in flight already.
    fn client_slot(&self, ip: IpAddr) -> Option<ClientSlot> {
        let mut m = self.clients.lock().unwrap_or_else(PoisonError::into_inner);
        let n = m.entry(ip).or_insert(0);
        if *n >= self.per_client {
            return None;
        }
        *n += 1;
        Some(ClientSlot {
            ip,
            clients: self.clients.clone(),
        })
    }

    /// Takes room for a body of at most `limit` bytes if it may be large (its declared
    /// length, or `limit` when it declares none, is above `large_above`). `None` for a small
    /// body; `503 busy` when the budget is spent.
    pub fn admit(&self, req: &HttpRequest, limit: usize) -> Result<Option<LargeBody>, ApiError> {
        let declared = declared_length(req);
        if let Some(len) = declared {
            if len > limit {
                return Err(too_large(limit));
            }
        }
        let size = declared.unwrap_or(limit);
        if size <= self.large_above {
            return Ok(None);
        }
        let kib = u32::try_from(size.div_ceil(KIB).min(self.budget_kib)).unwrap_or(u32::MAX);
        let busy = || {
            ApiError::new(
                Code::Busy,
                format!(
                    "too many large bodies are being received (at most {} at once, {} MiB in all); retry shortly",
                    self.max_large,
                    self.budget_kib / KIB
                ),
            )
            .with("retry_after_s", 1)
        };
        // One client's share first: its slow uploads wait for each other, not for everyone.
        let client = match req.peer_addr() {
            Some(peer) => Some(self.client_slot(peer.ip()).ok_or_else(|| {
                ApiError::new(
                    Code::Busy,
                    format!(
                        "this client is already sending {} large bodies, as many as one client may at once; retry when one is done",
                        self.per_client
                    ),
                )
                .with("retry_after_s", 1)
            })?),
            None => None,
        };
        let count = self.count.clone().try_acquire_owned().map_err(|_| busy())?;
        let bytes = self
            .bytes
            .clone()
            .try_acquire_many_owned(kib)
            .map_err(|_| busy())?;
        Ok(Some(LargeBody {
            _count: count,
            _bytes: bytes,
            _client: client,
        }))
    }

    /// Reads the body (at most `limit` bytes) as it arrives, within the deadline.
    pub async fn read(&self, payload: &mut Payload, limit: usize) -> Result<Bytes, ApiError> {
        let deadline = tokio::time::Instant::now() + self.deadline;
        let mut buf = BytesMut::new();
        loop {
            let next = tokio::time::timeout_at(deadline, payload.next())
                .await
                .map_err(|_| {
                    ApiError::new(
                        Code::BodyTimeout,
                        format!(
                            "the body did not arrive within {} ms",
                            self.deadline.as_millis()
                        ),
                    )
                })?;
            match next {
                None => return Ok(buf.freeze()),
                Some(Ok(chunk)) => {
                    if buf.len().saturating_add(chunk.len()) > limit {
                        return Err(too_large(limit));
                    }
                    buf.extend_from_slice(&chunk);
                }
                Some(Err(PayloadError::Overflow)) => return Err(too_large(limit)),
                Some(Err(_)) => {
                    return Err(ApiError::new(
                        Code::InvalidJson,
                        "the body could not be read",
                    ))
                }
            }
        }
    }
}

impl Default for BodyLimits {
    fn default() -> Self {
        BodyLimits::new(
            Duration::from_secs(10),
            crate::api::JSON_LIMIT,
            4,
            crate::api::BUNDLE_LIMIT * 4,
        )
    }
}

fn declared_length(req: &HttpRequest) -> Option<usize> {
    req.headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok())
}

fn too_large(limit: usize) -> ApiError {
    ApiError::new(
        Code::PayloadTooLarge,
        format!(
            "the body is too large (at most {} KiB here; JSON bodies: at most 64 KiB, bundles: at most 16 MiB)",
            limit / KIB
        ),
    )
}
