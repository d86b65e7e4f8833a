//! Verification and replay of a hand bundle.
//!
//! [`verify_bytes`] checks, event by event and in this order: the event's hash over its
//! canonical bytes, the signer (against the keys the user trusts, or else the bundle's own
//! keys), the service's signature, then the fold: sequence, chain link, commitments and
//! revealed seeds, client seeds, each shuffle re-derived and each action re-run through the
//! game's engine with its effects compared, and the recorded outcome against the recomputed
//! one. The verdict names the first problem: event, seat, check, expected and found.
//!
//! A bundle that cannot be read (not JSON, wrong shape, numbers the canonical encoding
//! cannot carry, nesting too deep) is a [`BundleError`], not a verdict.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;

use crate::bundle::{RawBundle, BUNDLE_FORMAT, BUNDLE_VERSION};
use crate::dealer::{HandStatus, LiveHand, Mismatch, SeedSource};
use crate::engine::{GameId, SeatIndex, ToAct, Viewer};
use crate::log::{self, signature_message, Body, Event, KeyId, PublicKey};
use crate::shuffle::ServerSeed;

/// The bundle cannot be read: the verifier has nothing to judge.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BundleError {
    /// Not JSON.
    #[error("not valid JSON: {0}")]
    Json(String),
    /// JSON, but not a bundle of this format.
    #[error("not a hand bundle: {0}")]
    Shape(String),
    /// A bundle of another format or version.
    #[error("unsupported bundle: format {format:?} version {version} (this verifier reads {BUNDLE_FORMAT:?} version {BUNDLE_VERSION})")]
    Version {
        /// The format found.
        format: String,
        /// The version found.
        version: u32,
    },
    /// An event is not a well-formed event.
    #[error("record {index}: {detail}")]
    Event {
        /// Position of the record in the bundle.
        index: usize,
        /// What is wrong.
        detail: String,
    },
    /// There are no records.
    #[error("the bundle has no records")]
    Empty,
}

/// How far the signatures can be trusted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Trust {
    /// Every signer is a key the user named.
    TrustedKey,
    /// No key was named: signatures were checked only against the keys the bundle itself
    /// carries, which anyone forging a bundle could replace.
    BundleKeysOnly,
}

/// The first problem found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Problem {
    /// The event (its position in the stream, which is its sequence number in a sound
    /// stream); `None` for a problem with the bundle as a whole.
    pub event: Option<u64>,
    /// The seat concerned, if any.
    pub seat: Option<SeatIndex>,
    /// The check or rule that fails.
    pub rule: String,
    /// What was expected.
    pub expected: String,
    /// What was found.
    pub found: String,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.event {
            Some(e) => write!(f, "event {e}")?,
            None => f.write_str("bundle")?,
        }
        if let Some(s) = self.seat {
            write!(f, ", {s}")?;
        }
        write!(
            f,
            ": {}: expected {}, found {}",
            self.rule, self.expected, self.found
        )
    }
}

/// The verifier's verdict.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Verdict {
    /// Whether the hand is valid.
    pub valid: bool,
    /// The hand's id.
    pub hand: String,
    /// The game.
    pub game: GameId,
    /// How many records the bundle holds.
    pub events: usize,
    /// The hand's status per its events.
    pub status: Option<HandStatus>,
    /// How far the signatures can be trusted.
    pub trust: Trust,
    /// The signing keys seen.
    pub signers: Vec<KeyId>,
    /// How many actions carried a valid player signature.
    pub player_signatures: usize,
    /// The outcome, when the hand completed.
    pub outcome: Option<Value>,
    /// The first problem, when not valid.
    pub problem: Option<Problem>,
}

/// What the verifier is told to trust.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The service keys the user trusts. Empty: trust the bundle's own keys, and say so.
    pub trusted_keys: Vec<PublicKey>,
}

/// A bundle read and checked for shape, ready to be folded.
struct Parsed {
    raw: RawBundle,
    events: Vec<Event>,
}

fn parse(bytes: &[u8]) -> Result<Parsed, BundleError> {
    let value: Value =
        serde_json::from_slice(bytes).map_err(|e| BundleError::Json(e.to_string()))?;
    parse_value(value)
}

fn parse_value(value: Value) -> Result<Parsed, BundleError> {
    if let Some(obj) = value.as_object() {
        let format = obj.get("format").and_then(Value::as_str).unwrap_or("");
        let version = obj.get("version").and_then(Value::as_u64);
        if (format != BUNDLE_FORMAT || version != Some(u64::from(BUNDLE_VERSION)))
            && obj.contains_key("format")
            && obj.contains_key("version")
        {
            return Err(BundleError::Version {
                format: format.chars().take(60).collect(),
                version: version
                    .and_then(|v| u32::try_from(v).ok())
                    .unwrap_or(u32::MAX),
            });
        }
    }
    let raw: RawBundle =
        serde_json::from_value(value).map_err(|e| BundleError::Shape(e.to_string()))?;
    if raw.format != BUNDLE_FORMAT || raw.version != BUNDLE_VERSION {
        return Err(BundleError::Version {
            format: raw.format.chars().take(60).collect(),
            version: raw.version,
        });
    }
    if raw.records.is_empty() {
        return Err(BundleError::Empty);
    }
    let mut events = Vec::with_capacity(raw.records.len());
    for (index, r) in raw.records.iter().enumerate() {
        log::check_json(&r.event).map_err(|e| BundleError::Event {
            index,
            detail: e.to_string(),
        })?;
        let e: Event = serde_json::from_value(r.event.clone()).map_err(|e| BundleError::Event {
            index,
            detail: e.to_string(),
        })?;
        events.push(e);
    }
    Ok(Parsed { raw, events })
}

fn problem(event: Option<u64>, m: Mismatch) -> Problem {
    Problem {
        event,
        seat: m.seat,
        rule: m.rule,
        expected: m.expected,
        found: m.found,
    }
}

fn simple(event: Option<u64>, rule: &str, expected: String, found: String) -> Problem {
    Problem {
        event,
        seat: None,
        rule: rule.to_string(),
        expected,
        found,
    }
}

/// The seeds revealed by the last event, if it reveals them.
fn revealed_seeds(events: &[Event]) -> Vec<Option<ServerSeed>> {
    match events.last().map(|e| &e.body) {
        Some(Body::SeedsRevealed { seeds }) => seeds
            .iter()
            .map(|s| ServerSeed::from_hex(&s.server_seed).ok())
            .collect(),
        _ => Vec::new(),
    }
}

/// Fold events `0..=last` (all when `last` is `None`), checking hashes and signatures too.
/// Returns the hand as folded so far and the first problem.
fn run(
    parsed: &Parsed,
    opts: &Options,
    last: Option<usize>,
) -> (Option<LiveHand>, Option<Problem>, Vec<KeyId>, usize) {
    let mut keys: BTreeMap<KeyId, PublicKey> = BTreeMap::new();
    let trusted: BTreeMap<KeyId, PublicKey> =
        opts.trusted_keys.iter().map(|k| (k.key_id(), *k)).collect();
    for k in &parsed.raw.keys {
        if k.public_key.key_id() != k.key_id {
            return (
                None,
                Some(simple(
                    None,
                    "bundle_key_id",
                    format!("key id {}", k.public_key.key_id()),
                    format!("key id {}", k.key_id),
                )),
                Vec::new(),
                0,
            );
        }
        keys.insert(k.key_id.clone(), k.public_key);
    }
    let seeds = revealed_seeds(&parsed.events);
    let mut hand: Option<LiveHand> = None;
    let mut signers: Vec<KeyId> = Vec::new();
    let mut player_sigs = 0usize;
    let end = last.map_or(parsed.events.len(), |l| l.saturating_add(1));
    for (i, (raw, event)) in parsed
        .raw
        .records
        .iter()
        .zip(&parsed.events)
        .enumerate()
        .take(end)
    {
        let at = Some(u64::try_from(i).unwrap_or(u64::MAX));
        let hash = match log::hash_event_json(&raw.event) {
            Ok(h) => h,
            Err(e) => {
                return (
                    hand,
                    Some(simple(
                        at,
                        "encoding",
                        "a canonical event".into(),
                        e.to_string(),
                    )),
                    signers,
                    player_sigs,
                )
            }
        };
        if hash != raw.hash {
            return (
                hand,
                Some(simple(
                    at,
                    "hash",
                    format!("hash {hash} of the event as given"),
                    format!("recorded hash {}", raw.hash),
                )),
                signers,
                player_sigs,
            );
        }
        let key = if opts.trusted_keys.is_empty() {
            keys.get(&raw.signer)
        } else {
            trusted.get(&raw.signer)
        };
        let Some(key) = key else {
            let expected = if opts.trusted_keys.is_empty() {
                "a signer whose key the bundle carries".to_string()
            } else {
                format!(
                    "a signer among the trusted keys ({})",
                    trusted
                        .keys()
                        .map(|k| k.0.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            };
            return (
                hand,
                Some(simple(
                    at,
                    "signer",
                    expected,
                    format!("signer {}", raw.signer),
                )),
                signers,
                player_sigs,
            );
        };
        if !key.verify(&signature_message(&hash), &raw.sig) {
            return (
                hand,
                Some(simple(
                    at,
                    "signature",
                    format!("a valid signature by {}", raw.signer),
                    "a signature that does not verify".into(),
                )),
                signers,
                player_sigs,
            );
        }
        if !signers.contains(&raw.signer) {
            signers.push(raw.signer.clone());
        }
        let h = match hand.as_mut() {
            Some(h) => h,
            None => match LiveHand::begin(event, seeds.clone()) {
                Ok(h) => hand.insert(h),
                Err(e) => {
                    let p = match e {
                        crate::dealer::DealerError::Fold { mismatch, .. } => problem(at, mismatch),
                        other => simple(
                            at,
                            "hand_started",
                            "a hand that can start".into(),
                            other.to_string(),
                        ),
                    };
                    return (hand, Some(p), signers, player_sigs);
                }
            },
        };
        if let Err(m) = h.fold_record(event, raw.hash) {
            return (hand, Some(problem(at, m)), signers, player_sigs);
        }
        if event.player_sig.is_some() {
            player_sigs += 1;
        }
    }
    (hand, None, signers, player_sigs)
}

/// Verify a bundle given as bytes.
pub fn verify_bytes(bytes: &[u8], opts: &Options) -> Result<Verdict, BundleError> {
    verify_parsed(&parse(bytes)?, opts)
}

/// Verify a bundle given as JSON.
pub fn verify_value(value: Value, opts: &Options) -> Result<Verdict, BundleError> {
    verify_parsed(&parse_value(value)?, opts)
}

fn verify_parsed(parsed: &Parsed, opts: &Options) -> Result<Verdict, BundleError> {
    let (hand, mut problem, signers, player_signatures) = run(parsed, opts, None);
    let n = parsed.events.len();
    let status = hand.as_ref().map(LiveHand::status);
    if problem.is_none() {
        if let Some(h) = &hand {
            if !h.is_revealed() {
                problem = Some(simple(
                    Some(u64::try_from(n).unwrap_or(u64::MAX)),
                    "complete",
                    "the hand to end with seeds_revealed".into(),
                    format!("the bundle stops after {n} events"),
                ));
            } else if parsed.raw.hand != h.hand_id() {
                problem = Some(simple(
                    None,
                    "header",
                    format!("hand {}", h.hand_id()),
                    format!("hand {}", parsed.raw.hand),
                ));
            } else if parsed.raw.game != h.game() {
                problem = Some(simple(
                    None,
                    "header",
                    format!("game {}", h.game()),
                    format!("game {}", parsed.raw.game),
                ));
            } else if parsed.raw.status != h.status() {
                problem = Some(simple(
                    None,
                    "header",
                    format!("status {}", h.status().as_str()),
                    format!("status {}", parsed.raw.status.as_str()),
                ));
            }
        }
    }
    Ok(Verdict {
        valid: problem.is_none(),
        hand: parsed.raw.hand.clone(),
        game: parsed.raw.game,
        events: n,
        status,
        trust: if opts.trusted_keys.is_empty() {
            Trust::BundleKeysOnly
        } else {
            Trust::TrustedKey
        },
        signers,
        player_signatures,
        outcome: hand.as_ref().and_then(|h| h.outcome().cloned()),
        problem,
    })
}

/// The table after one event of a bundle.
#[derive(Clone, Debug, Serialize)]
pub struct ReplayStep {
    /// The event shown (its position).
    pub step: u64,
    /// How many events the bundle holds.
    pub events: usize,
    /// The event itself.
    pub event: Value,
    /// The whole table: every seat's cards (the seeds are revealed), money, phase.
    pub table: Value,
    /// Who the hand waits for after this event.
    pub to_act: ToAct,
    /// The last action so far.
    pub last_action: Option<Value>,
    /// The hand's status after this event.
    pub status: HandStatus,
    /// A problem met on the way, if the bundle does not verify up to this event.
    pub problem: Option<Problem>,
}

/// Replay a bundle up to event `step` (the last event when `None`).
pub fn replay_bytes(
    bytes: &[u8],
    step: Option<u64>,
    opts: &Options,
) -> Result<ReplayStep, BundleError> {
    let parsed = parse(bytes)?;
    let n = parsed.events.len();
    let last_index = n.saturating_sub(1);
    let want = match step {
        Some(s) => usize::try_from(s).unwrap_or(usize::MAX),
        None => last_index,
    };
    if want > last_index {
        return Err(BundleError::Shape(format!(
            "step {want} is past the last event ({last_index})"
        )));
    }
    let (hand, problem, _, _) = run(&parsed, opts, Some(want));
    let Some(hand) = hand else {
        return Err(BundleError::Shape(problem.map_or_else(
            || "the first event cannot be replayed".into(),
            |p| p.to_string(),
        )));
    };
    let event = parsed
        .raw
        .records
        .get(want)
        .map(|r| r.event.clone())
        .unwrap_or(Value::Null);
    Ok(ReplayStep {
        step: u64::try_from(want).unwrap_or(u64::MAX),
        events: n,
        event,
        table: hand.view(Viewer::All),
        to_act: hand.to_act(),
        last_action: hand.last_action().cloned(),
        status: hand.status(),
        problem,
    })
}

impl LiveHand {
    /// Start folding a recorded stream whose first event is `first`, with the seeds the
    /// stream reveals at its end.
    pub(crate) fn begin(
        first: &Event,
        seeds: Vec<Option<ServerSeed>>,
    ) -> Result<LiveHand, crate::dealer::DealerError> {
        let mut h = LiveHand::from_first_event(first, SeedSource::Os)?;
        h.set_seeds(seeds);
        Ok(h)
    }
}
