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
//! read. The connection cap itself is actix-web's (`max_connections`, per worker), and the
//! head deadline is its `client_request_timeout`.

use std::sync::Arc;
use std::time::Duration;

use actix_web::dev::Payload;
use actix_web::error::PayloadError;
use actix_web::http::header;
use actix_web::web::{Bytes, BytesMut};
use actix_web::HttpRequest;
use futures_util::StreamExt;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::api::errors::{ApiError, Code};

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
}

/// Room taken in the large-body budget; given back when dropped.
#[derive(Debug)]
pub struct LargeBody {
    _count: OwnedSemaphorePermit,
    _bytes: OwnedSemaphorePermit,
}

impl BodyLimits {
    /// Limits allowing `max_large` large bodies totalling at most `budget_bytes` at once.
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
        }
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
        let count = self.count.clone().try_acquire_owned().map_err(|_| busy())?;
        let bytes = self
            .bytes
            .clone()
            .try_acquire_many_owned(kib)
            .map_err(|_| busy())?;
        Ok(Some(LargeBody {
            _count: count,
            _bytes: bytes,
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
