//! Prometheus metrics: requests by route and status, append latency, conflicts, hands.
//!
//! Every label value comes from a closed set the service chooses, never from what a client
//! sends: the matched route pattern or `unmatched`, a known method or `other`, a status
//! class. A client cannot add series (a request with a made-up method name lands in
//! `method="other"`).

use prometheus::{
    Encoder, Histogram, HistogramOpts, HistogramVec, IntCounter, IntCounterVec, Opts, Registry,
    TextEncoder,
};

use crate::store::TokenKind;

/// The service's metrics, in their own registry.
#[derive(Clone)]
pub struct Metrics {
    registry: Registry,
    /// `http_requests_total{method, route, status}`: see [`Metrics::observe_request`].
    requests: IntCounterVec,
    /// `http_request_duration_seconds{route}`.
    request_seconds: HistogramVec,
    /// `store_append_seconds{op}`: how long one atomic append (or hand creation) took.
    pub append_seconds: HistogramVec,
    /// `append_conflicts_total{kind}`: `seq` (optimistic concurrency) or `idempotency`.
    pub conflicts: IntCounterVec,
    /// `hands_total{event}`: `started`, `completed`, `abandoned`, `quarantined`.
    pub hands: IntCounterVec,
    /// `club_order_events_total`: events this process's sequencer gave their place in
    /// their club's order.
    pub ordered: IntCounter,
    /// `sequencer_pass_seconds`: one pass of the sequencer over the clubs with waiting
    /// events.
    pub sequencer_seconds: Histogram,
    /// `sequencer_failures_total`: passes that failed (retried next period).
    pub sequencer_failures: IntCounter,
    /// `legacy_tokens_total{kind}`: callers who authenticated with a token in the
    /// deprecated format that does not name its club (`ak` or `st`): when it stays at 0,
    /// the format and its routes can go (docs/SCALING.md).
    legacy_tokens: IntCounterVec,
}

impl std::fmt::Debug for Metrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Metrics")
    }
}

/// The route label of a request that matched no route.
pub const UNMATCHED_ROUTE: &str = "unmatched";

/// The methods that get their own `method` label; any other is `other`.
const KNOWN_METHODS: [&str; 9] = [
    "GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "CONNECT", "TRACE",
];

/// The `method` label: the method itself when it is one of HTTP's standard methods, else
/// `other`.
pub fn method_label(method: &str) -> &'static str {
    KNOWN_METHODS
        .iter()
        .find(|m| **m == method)
        .copied()
        .unwrap_or("other")
}

/// The `status` label: the status class, `1xx` to `5xx` (`other` outside 100 to 599).
pub fn status_class(status: u16) -> &'static str {
    match status {
        100..=199 => "1xx",
        200..=299 => "2xx",
        300..=399 => "3xx",
        400..=499 => "4xx",
        500..=599 => "5xx",
        _ => "other",
    }
}

impl Metrics {
    /// Counts one request and its latency. `route` is the matched route pattern (the
    /// routes are the service's own, so a closed set) or [`UNMATCHED_ROUTE`]; the method
    /// and status are reduced to [`method_label`] and [`status_class`].
    pub fn observe_request(&self, method: &str, route: &str, status: u16, secs: f64) {
        self.requests
            .with_label_values(&[method_label(method), route, status_class(status)])
            .inc();
        self.request_seconds
            .with_label_values(&[route])
            .observe(secs);
    }

    /// Fresh metrics.
    pub fn new() -> Result<Metrics, prometheus::Error> {
        let registry = Registry::new();
        let requests = IntCounterVec::new(
            Opts::new(
                "http_requests_total",
                "HTTP requests by method (or other), route pattern (or unmatched) and status class",
            ),
            &["method", "route", "status"],
        )?;
        let request_seconds = HistogramVec::new(
            HistogramOpts::new("http_request_duration_seconds", "HTTP request latency"),
            &["route"],
        )?;
        let append_seconds = HistogramVec::new(
            HistogramOpts::new(
                "store_append_seconds",
                "Latency of one atomic store write (append or hand creation)",
            )
            .buckets(vec![
                0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5,
            ]),
            &["op"],
        )?;
        let conflicts = IntCounterVec::new(
            Opts::new(
                "append_conflicts_total",
                "Writes refused by optimistic concurrency or a concurrent idempotency key",
            ),
            &["kind"],
        )?;
        let hands = IntCounterVec::new(
            Opts::new(
                "hands_total",
                "Hands started, completed, abandoned and quarantined",
            ),
            &["event"],
        )?;
        let ordered = IntCounter::new(
            "club_order_events_total",
            "Events given their place in their club's order by this process's sequencer",
        )?;
        let sequencer_seconds = Histogram::with_opts(
            HistogramOpts::new(
                "sequencer_pass_seconds",
                "One pass of the sequencer over the clubs with waiting events",
            )
            .buckets(vec![0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1.0, 5.0]),
        )?;
        let sequencer_failures = IntCounter::new(
            "sequencer_failures_total",
            "Sequencer passes that failed (the next period tries again)",
        )?;
        let legacy_tokens = IntCounterVec::new(
            Opts::new(
                "legacy_tokens_total",
                "Callers authenticated by a token in the deprecated format without its club",
            ),
            &["kind"],
        )?;
        // Shown at 0 from the start, so that "none since" can be read off.
        for kind in [TokenKind::ApiKey, TokenKind::Seat] {
            legacy_tokens.with_label_values(&[kind.as_str()]);
        }
        registry.register(Box::new(requests.clone()))?;
        registry.register(Box::new(request_seconds.clone()))?;
        registry.register(Box::new(append_seconds.clone()))?;
        registry.register(Box::new(conflicts.clone()))?;
        registry.register(Box::new(hands.clone()))?;
        registry.register(Box::new(ordered.clone()))?;
        registry.register(Box::new(sequencer_seconds.clone()))?;
        registry.register(Box::new(sequencer_failures.clone()))?;
        registry.register(Box::new(legacy_tokens.clone()))?;
        Ok(Metrics {
            registry,
            requests,
            request_seconds,
            append_seconds,
            conflicts,
            hands,
            ordered,
            sequencer_seconds,
            sequencer_failures,
            legacy_tokens,
        })
    }

    /// Counts a caller authenticated by a token in the legacy format.
    pub fn observe_legacy_token(&self, kind: TokenKind) {
        self.legacy_tokens.with_label_values(&[kind.as_str()]).inc();
    }

    /// Adds a metric kept elsewhere (the store's: see `Store::collectors`).
    pub fn register(
        &self,
        c: Box<dyn prometheus::core::Collector>,
    ) -> Result<(), prometheus::Error> {
        self.registry.register(c)
    }

    /// The Prometheus text exposition.
    pub fn render(&self) -> String {
        let mut buf = Vec::new();
        if TextEncoder::new()
            .encode(&self.registry.gather(), &mut buf)
            .is_err()
        {
            return String::new();
        }
        String::from_utf8(buf).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_come_from_closed_sets() {
        assert_eq!(method_label("GET"), "GET");
        assert_eq!(method_label("POST"), "POST");
        assert_eq!(method_label("get"), "other");
        assert_eq!(method_label(&"X".repeat(5000)), "other");
        assert_eq!(status_class(200), "2xx");
        assert_eq!(status_class(201), "2xx");
        assert_eq!(status_class(409), "4xx");
        assert_eq!(status_class(503), "5xx");
        assert_eq!(status_class(999), "other");
    }

    #[test]
    fn made_up_methods_add_no_series() {
        let m = Metrics::new().unwrap();
        for i in 0..100 {
            m.observe_request(&format!("M{i:0>200}"), UNMATCHED_ROUTE, 404, 0.001);
        }
        m.observe_request("GET", "/healthz", 200, 0.001);
        let text = m.render();
        let series = text
            .lines()
            .filter(|l| l.starts_with("http_requests_total{"))
            .collect::<Vec<_>>();
        assert_eq!(series.len(), 2, "{text}");
        assert!(
            text.contains(
                r#"http_requests_total{method="other",route="unmatched",status="4xx"} 100"#
            ),
            "{text}"
        );
    }
}
