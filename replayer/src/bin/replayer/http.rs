//! Reading a log over HTTP(S) with a small blocking client.

use std::time::Duration;

use anyhow::{anyhow, Result};

/// A log's URL prefix.
pub struct HttpSource {
    prefix: String,
    agent: ureq::Agent,
}

impl HttpSource {
    /// The log served under `prefix` (a trailing slash is added when missing).
    pub fn new(prefix: &str) -> Self {
        let mut prefix = prefix.to_string();
        if !prefix.ends_with('/') {
            prefix.push('/');
        }
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .timeout_global(Some(Duration::from_secs(30)))
            .http_status_as_error(false)
            .build()
            .into();
        HttpSource { prefix, agent }
    }

    /// The prefix, ending in `/`.
    pub fn prefix(&self) -> &str {
        &self.prefix
    }

    /// GET `prefix + path`: the body, `None` on 404, an error on any other status that is
    /// not a success or on a body larger than `limit` bytes.
    pub fn get(&self, path: &str, limit: u64) -> Result<Option<Vec<u8>>> {
        let url = format!("{}{path}", self.prefix);
        let mut resp = self
            .agent
            .get(&url)
            .call()
            .map_err(|e| anyhow!("GET {url}: {e}"))?;
        let status = resp.status().as_u16();
        if status == 404 {
            return Ok(None);
        }
        if !(200..300).contains(&status) {
            return Err(anyhow!("GET {url}: HTTP status {status}"));
        }
        let body = resp
            .body_mut()
            .with_config()
            .limit(limit)
            .read_to_vec()
            .map_err(|e| anyhow!("GET {url}: {e}"))?;
        Ok(Some(body))
    }
}
