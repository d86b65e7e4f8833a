//! The service's HTTP API as the driver and the checker call it.

use std::time::Duration;

use anyhow::bail;
use serde_json::Value;

/// Longest a single request may take.
pub(super) const REQUEST_TIMEOUT: Duration = Duration::from_secs(60);

/// An answer of the service.
#[derive(Debug)]
pub(super) struct Reply {
    pub(super) status: u16,
    pub(super) body: Value,
    pub(super) replayed: bool,
}

impl Reply {
    pub(super) fn ok(&self) -> bool {
        (200..300).contains(&self.status)
    }

    pub(super) fn code(&self) -> &str {
        self.body["code"].as_str().unwrap_or("")
    }

    pub(super) fn brief(&self) -> String {
        let text = self.body.to_string();
        format!(
            "{} {}",
            self.status,
            text.chars().take(300).collect::<String>()
        )
    }
}

/// How a request failed to get an answer.
#[derive(Debug)]
pub(super) enum Lost {
    /// The connection could not be made: the request never reached the service.
    Refused,
    /// The request may have reached the service, but no answer came back.
    NoAnswer(String),
}

impl std::fmt::Display for Lost {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Lost::Refused => f.write_str("connection refused"),
            Lost::NoAnswer(why) => write!(f, "no answer: {why}"),
        }
    }
}

#[derive(Clone)]
pub(super) struct Api {
    pub(super) http: reqwest::Client,
    pub(super) base: String,
}

impl Api {
    pub(super) fn new(url: &str) -> anyhow::Result<Api> {
        let http = reqwest::Client::builder()
            .timeout(REQUEST_TIMEOUT)
            .connect_timeout(Duration::from_secs(5))
            // Below actix's 5 s keep-alive: a pooled connection is never one the server
            // is closing, so a broken connection means the service went away.
            .pool_idle_timeout(Duration::from_secs(2))
            .build()?;
        Ok(Api {
            http,
            base: url.trim_end_matches('/').to_owned(),
        })
    }

    pub(super) async fn call(
        &self,
        method: reqwest::Method,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
        idem: Option<&str>,
    ) -> Result<Reply, Lost> {
        let mut req = self.http.request(method, format!("{}{path}", self.base));
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        if let Some(k) = idem {
            req = req.header("Idempotency-Key", k);
        }
        if let Some(b) = body {
            req = req.json(b);
        }
        let res = req.send().await.map_err(|e| {
            if e.is_connect() {
                Lost::Refused
            } else {
                Lost::NoAnswer(e.to_string())
            }
        })?;
        let status = res.status().as_u16();
        let replayed = res.headers().get("Idempotent-Replayed").is_some();
        let bytes = res
            .bytes()
            .await
            .map_err(|e| Lost::NoAnswer(e.to_string()))?;
        let body = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        Ok(Reply {
            status,
            body,
            replayed,
        })
    }

    pub(super) async fn get(&self, path: &str, token: &str) -> Result<Reply, Lost> {
        self.call(reqwest::Method::GET, path, Some(token), None, None)
            .await
    }

    /// A read that must succeed.
    pub(super) async fn read(&self, path: &str, token: &str) -> anyhow::Result<Value> {
        match self.get(path, token).await {
            Ok(r) if r.ok() => Ok(r.body),
            Ok(r) => bail!("GET {path}: {}", r.brief()),
            Err(e) => bail!("GET {path}: {e}"),
        }
    }

    pub(super) async fn alive(&self) -> bool {
        matches!(
            self.call(reqwest::Method::GET, "/healthz", None, None, None).await,
            Ok(r) if r.ok()
        )
    }
}
