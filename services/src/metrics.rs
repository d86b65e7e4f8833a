//! Prometheus metrics: requests by route and status, append latency, conflicts, hands.

use prometheus::{
    Encoder, Histogram, HistogramOpts, HistogramVec, IntCounter, IntCounterVec, Opts, Registry,
    TextEncoder,
};

/// The service's metrics, in their own registry.
#[derive(Clone)]
pub struct Metrics {
    registry: Registry,
    /// `http_requests_total{method, route, status}`: route is the matched pattern.
    pub requests: IntCounterVec,
    /// `http_request_duration_seconds{route}`.
    pub request_seconds: HistogramVec,
    /// `store_append_seconds{op}`: how long one atomic append (or hand creation) took.
    pub append_seconds: HistogramVec,
    /// `append_conflicts_total{kind}`: `seq` (optimistic concurrency) or `idempotency`.
    pub conflicts: IntCounterVec,
    /// `hands_total{event}`: `started`, `completed`, `abandoned`.
    pub hands: IntCounterVec,
    /// `club_order_events_total`: events this process's sequencer gave their place in
    /// their club's order.
    pub ordered: IntCounter,
    /// `sequencer_pass_seconds`: one pass of the sequencer over the clubs with waiting
    /// events.
    pub sequencer_seconds: Histogram,
    /// `sequencer_failures_total`: passes that failed (retried next period).
    pub sequencer_failures: IntCounter,
}

impl std::fmt::Debug for Metrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Metrics")
    }
}

impl Metrics {
    /// Fresh metrics.
    pub fn new() -> Result<Metrics, prometheus::Error> {
        let registry = Registry::new();
        let requests = IntCounterVec::new(
            Opts::new("http_requests_total", "HTTP requests by route and status"),
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
            Opts::new("hands_total", "Hands started, completed and abandoned"),
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
        registry.register(Box::new(requests.clone()))?;
        registry.register(Box::new(request_seconds.clone()))?;
        registry.register(Box::new(append_seconds.clone()))?;
        registry.register(Box::new(conflicts.clone()))?;
        registry.register(Box::new(hands.clone()))?;
        registry.register(Box::new(ordered.clone()))?;
        registry.register(Box::new(sequencer_seconds.clone()))?;
        registry.register(Box::new(sequencer_failures.clone()))?;
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
        })
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
