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

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::bundle::{RawBundle, BUNDLE_FORMAT, BUNDLE_VERSION, BUNDLE_VERSION_LOG_PROOF};
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
    #[error("unsupported bundle: format {format:?} version {version} (this verifier reads {BUNDLE_FORMAT:?} versions {BUNDLE_VERSION} and {BUNDLE_VERSION_LOG_PROOF})")]
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
    /// For a bundle of version 2, once its log proof is checked: where the hand's last event
    /// sits in its club's log. Absent for a bundle of version 1 (and when the hand itself
    /// fails first).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub log: Option<LogInclusion>,
}

/// A bundle's log proof, checked (`docs/BUNDLE.md` §4, pass 4): the hand's last event is
/// leaf `leaf_index` of the club log `origin` at `tree_size`, whose root is `root`, by a
/// checkpoint signed by `signer`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LogInclusion {
    /// The log's origin (the checkpoint's first line).
    pub origin: String,
    /// The checkpoint's tree size.
    pub tree_size: u64,
    /// The checkpoint's root, hex.
    pub root: String,
    /// The leaf of the hand's last event.
    pub leaf_index: u64,
    /// The key id (`ed25519:…`) of the key that signed the checkpoint.
    pub signer: KeyId,
}

/// What the verifier is told to trust.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The service keys the user trusts. Empty: trust the bundle's own keys, and say so.
    pub trusted_keys: Vec<PublicKey>,
}

/// A bundle read and checked for shape, ready to be folded. Each event is kept raw (its
/// hash is computed over it as given) and typed, when it reads as an event.
struct Parsed {
    raw: RawBundle,
    events: Vec<Result<Event, String>>,
}

/// JSON read strictly: a duplicate object key is an error (otherwise two readers could see
/// different content under one valid signature).
struct Strict(Value);

impl<'de> serde::Deserialize<'de> for Strict {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(StrictVisitor).map(Strict)
    }
}

struct StrictVisitor;

impl<'de> serde::de::Visitor<'de> for StrictVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("JSON")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut v = Vec::new();
        while let Some(Strict(x)) = seq.next_element()? {
            v.push(x);
        }
        Ok(Value::Array(v))
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut m = serde_json::Map::new();
        while let Some(k) = map.next_key::<String>()? {
            if m.contains_key(&k) {
                return Err(serde::de::Error::custom(format!(
                    "duplicate key {:?}",
                    k.chars().take(40).collect::<String>()
                )));
            }
            let Strict(v) = map.next_value()?;
            m.insert(k, v);
        }
        Ok(Value::Object(m))
    }
}

/// Longest message taken over from a parser: the input itself may be huge.
const MAX_MESSAGE: usize = 300;

fn short(s: impl std::fmt::Display) -> String {
    let s = s.to_string();
    if s.chars().count() <= MAX_MESSAGE {
        s
    } else {
        let mut t: String = s.chars().take(MAX_MESSAGE).collect();
        t.push('…');
        t
    }
}

/// Read JSON strictly (a duplicate object key is an error), for bundles and match files.
pub(crate) fn parse_strict(bytes: &[u8]) -> Result<Value, BundleError> {
    let Strict(value) = serde_json::from_slice(bytes).map_err(|e| BundleError::Json(short(e)))?;
    Ok(value)
}

fn parse(bytes: &[u8]) -> Result<Parsed, BundleError> {
    let Strict(value) = serde_json::from_slice(bytes).map_err(|e| BundleError::Json(short(e)))?;
    parse_value(value)
}

/// Objects where the format has objects: serde would also read a struct written as an array
/// of its fields, which is not the format.
fn require_objects(value: &Value) -> Result<(), BundleError> {
    let obj = value
        .as_object()
        .ok_or_else(|| BundleError::Shape("a bundle is a JSON object".into()))?;
    for (field, what) in [("records", "record"), ("keys", "key")] {
        if let Some(list) = obj.get(field).and_then(Value::as_array) {
            if let Some(i) = list.iter().position(|x| !x.is_object()) {
                return Err(BundleError::Shape(format!(
                    "{field}[{i}]: a {what} is a JSON object"
                )));
            }
        }
    }
    if obj.get("log_proof").is_some_and(|p| !p.is_object()) {
        return Err(BundleError::Shape(
            "log_proof: a log proof is a JSON object".into(),
        ));
    }
    Ok(())
}

fn parse_value(value: Value) -> Result<Parsed, BundleError> {
    require_objects(&value)?;
    if let Some(obj) = value.as_object() {
        if let Some(v) = obj.get("version") {
            let ok = v.as_u64().is_some_and(|n| u32::try_from(n).is_ok());
            if !ok {
                return Err(BundleError::Shape(format!(
                    "version must be a whole number (this verifier reads versions {BUNDLE_VERSION} and {BUNDLE_VERSION_LOG_PROOF}), not {}",
                    short(v)
                )));
            }
        }
        let format = obj.get("format").and_then(Value::as_str).unwrap_or("");
        let version = obj.get("version").and_then(Value::as_u64);
        let known = version == Some(u64::from(BUNDLE_VERSION))
            || version == Some(u64::from(BUNDLE_VERSION_LOG_PROOF));
        if (format != BUNDLE_FORMAT || !known)
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
    let raw: RawBundle = serde_json::from_value(value).map_err(|e| BundleError::Shape(short(e)))?;
    // Version 2 is version 1 with the log proof, which it must carry (docs/BUNDLE.md §1).
    match (raw.version, raw.log_proof.is_some()) {
        (BUNDLE_VERSION, true) => {
            return Err(BundleError::Shape(format!(
                "unknown field `log_proof` in a bundle of version {BUNDLE_VERSION} (a bundle with a log proof is version {BUNDLE_VERSION_LOG_PROOF})"
            )))
        }
        (BUNDLE_VERSION_LOG_PROOF, false) => {
            return Err(BundleError::Shape(format!(
                "missing field `log_proof`: a bundle of version {BUNDLE_VERSION_LOG_PROOF} carries one"
            )))
        }
        _ => {}
    }
    if raw.records.is_empty() {
        return Err(BundleError::Empty);
    }
    let events = raw
        .records
        .iter()
        .map(|r| {
            log::check_json(&r.event).map_err(short)?;
            if !r.event.is_object() {
                return Err("an event is a JSON object".to_string());
            }
            let e = Event::deserialize(&r.event).map_err(short)?;
            // The event must be written exactly as the format writes it: objects (not
            // arrays of fields), no null or extra fields, card codes in their printed form.
            if serde_json::to_value(&e).ok().as_ref() != Some(&r.event) {
                return Err(
                    "the event is not written in the version 1 form (objects for every record, \
                     no null or unknown fields, cards as printed)"
                        .to_string(),
                );
            }
            Ok(e)
        })
        .collect();
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

fn at(i: usize) -> Option<u64> {
    Some(u64::try_from(i).unwrap_or(u64::MAX))
}

/// What verification found.
struct Run {
    hand: Option<LiveHand>,
    problem: Option<Problem>,
    signers: Vec<KeyId>,
    player_sigs: usize,
}

/// Pass 1, integrity, for every record in order: the hash of the event as given, the
/// signer, the signature, that the event reads as an event, its sequence number and its
/// link to the previous hash. A record changed, inserted, removed or reordered behind the
/// service's back fails here, at that record.
fn check_integrity(
    parsed: &Parsed,
    opts: &Options,
    upto: usize,
    signers: &mut Vec<KeyId>,
) -> Option<Problem> {
    let mut keys: BTreeMap<KeyId, PublicKey> = BTreeMap::new();
    for k in &parsed.raw.keys {
        if k.public_key.key_id() != k.key_id {
            return Some(simple(
                None,
                "bundle_key_id",
                format!("key id {}", k.public_key.key_id()),
                format!("key id {}", k.key_id),
            ));
        }
        keys.insert(k.key_id.clone(), k.public_key);
    }
    let trusted: BTreeMap<KeyId, PublicKey> =
        opts.trusted_keys.iter().map(|k| (k.key_id(), *k)).collect();
    let mut prev = crate::log::Hash::ZERO;
    // Signatures are checked in one batch after the other checks; the first problem of
    // either kind, by position, is the one reported.
    let mut batch: Vec<(Vec<u8>, crate::log::Signature, PublicKey)> = Vec::new();
    let mut other: Option<(usize, Problem)> = None;
    for (i, (raw, event)) in parsed
        .raw
        .records
        .iter()
        .zip(&parsed.events)
        .enumerate()
        .take(upto)
    {
        let fail = |p: Problem| Some((i, p));
        let hash = match event {
            // A record whose event read as an event passed check_json already.
            Ok(_) => log::canonical_bytes_unchecked(&raw.event).map(|b| log::hash_canonical(&b)),
            Err(_) => log::hash_event_json(&raw.event),
        };
        let hash = match hash {
            Ok(h) => h,
            Err(e) => {
                other = fail(simple(
                    at(i),
                    "encoding",
                    "an event the canonical encoding can carry".into(),
                    e.to_string(),
                ));
                break;
            }
        };
        if hash != raw.hash {
            other = fail(simple(
                at(i),
                "hash",
                format!("hash {hash} of the event as given"),
                format!("recorded hash {}", raw.hash),
            ));
            break;
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
            other = fail(simple(
                at(i),
                "signer",
                expected,
                format!("signer {}", raw.signer),
            ));
            break;
        };
        batch.push((signature_message(&hash), raw.sig, *key));
        if !signers.contains(&raw.signer) {
            signers.push(raw.signer.clone());
        }
        let event = match event {
            Ok(e) => e,
            Err(detail) => {
                other = fail(simple(
                    at(i),
                    "event_format",
                    "an event of format version 1".into(),
                    detail.clone(),
                ));
                break;
            }
        };
        let want = at(i).unwrap_or(u64::MAX);
        if event.seq != want {
            other = fail(simple(
                at(i),
                "sequence",
                format!("seq {want}"),
                format!("seq {}", event.seq),
            ));
            break;
        }
        if event.prev != prev {
            other = fail(simple(
                at(i),
                "chain",
                format!("prev = {prev}"),
                format!("prev = {}", event.prev),
            ));
            break;
        }
        if event.hand != parsed.raw.hand {
            other = fail(simple(
                at(i),
                "hand_id",
                format!("hand {}", parsed.raw.hand),
                format!("hand {}", event.hand),
            ));
            break;
        }
        prev = hash;
    }
    if !log::verify_batch(&batch) {
        // Find the first bad signature, one by one.
        for (i, (msg, sig, key)) in batch.iter().enumerate() {
            if !key.verify(msg, sig) {
                if other.as_ref().is_some_and(|(j, _)| *j < i) {
                    break;
                }
                let signer = parsed
                    .raw
                    .records
                    .get(i)
                    .map(|r| r.signer.0.clone())
                    .unwrap_or_default();
                return Some(simple(
                    at(i),
                    "signature",
                    format!("a valid signature by {signer}"),
                    "a signature that does not verify".into(),
                ));
            }
        }
    }
    other.map(|(_, p)| p)
}

/// Pass 2, the reveal: the last event must reveal a seed for every commitment, and each
/// seed must hash to its commitment; for a hand dealt from a seed chain, the reveal must
/// carry its chain seed, every seed must derive from it, and (with `anchor`) it must hash
/// down to the chain's anchor in `position` steps.
fn check_reveal(events: &[&Event], anchor: bool) -> Result<Vec<Option<ServerSeed>>, Problem> {
    let n = events.len();
    let mut commitments = Vec::new();
    for e in events {
        match &e.body {
            Body::HandStarted { commitment, .. } | Body::ShuffleCommitted { commitment, .. } => {
                commitments.push(*commitment)
            }
            _ => {}
        }
    }
    let Some(Body::SeedsRevealed { seeds, .. }) = events.last().map(|e| &e.body) else {
        return Err(simple(
            at(n),
            "complete",
            "the hand to end with seeds_revealed".into(),
            format!("the bundle stops after {n} events"),
        ));
    };
    let last = at(n.saturating_sub(1));
    if seeds.len() != commitments.len() {
        return Err(simple(
            last,
            "reveal_all",
            format!("{} seeds, one per commitment", commitments.len()),
            format!("{} seeds", seeds.len()),
        ));
    }
    let mut out = Vec::with_capacity(seeds.len());
    for (k, (r, c)) in seeds.iter().zip(&commitments).enumerate() {
        if usize::try_from(r.shuffle).ok() != Some(k) {
            return Err(simple(
                last,
                "reveal_order",
                format!("shuffle {k}"),
                format!("shuffle {}", r.shuffle),
            ));
        }
        // Every hex value in an event is lowercase (docs/EVENT-LOG.md, Notation): the other
        // hex members are refused as `event_format` when they are not written as the format
        // writes them; the server seed is a plain string there, so it is checked here.
        if r.server_seed.bytes().any(|b| b.is_ascii_uppercase()) {
            return Err(simple(
                last,
                "server_seed",
                "64 lowercase hex characters".into(),
                "hex with uppercase letters".into(),
            ));
        }
        let seed = ServerSeed::from_hex(&r.server_seed).map_err(|e| {
            simple(
                last,
                "server_seed",
                "64 lowercase hex characters".into(),
                e.to_string(),
            )
        })?;
        if seed.commitment() != *c {
            return Err(simple(
                last,
                "commitment",
                format!("a seed for shuffle {k} whose commitment is {c}"),
                format!("a seed whose commitment is {}", seed.commitment()),
            ));
        }
        out.push(Some(seed));
    }
    if let Some(Body::SeedsRevealed {
        seeds, chain_seed, ..
    }) = events.last().map(|e| &e.body)
    {
        let header = match events.first().map(|e| &e.body) {
            Some(Body::HandStarted { seed_chain, .. }) => seed_chain.as_ref(),
            _ => None,
        };
        crate::dealer::check_chain_seeds(header, seeds, chain_seed.as_ref())
            .map_err(|m| problem(last, m))?;
        if let (true, Some(h), Some(c)) = (anchor, header, chain_seed) {
            // A header out of range is named at event 0 when the fold starts.
            if h.check().is_ok() {
                crate::dealer::check_chain_anchor(h, c).map_err(|m| problem(last, m))?;
            }
        }
    }
    Ok(out)
}

/// The openings of private actions the stream's last event reveals (none if it is not a
/// reveal): folding a `private_action` needs its opening, as a shuffle needs its seed; the
/// reveal itself checks them against the commitments.
fn openings_of(events: &[&Event]) -> Vec<crate::log::OpenedInput> {
    match events.last().map(|e| &e.body) {
        Some(Body::SeedsRevealed { inputs, .. }) => inputs.clone(),
        _ => Vec::new(),
    }
}

/// Verify records `0..upto`: integrity, then (for a whole bundle) the reveal, then the fold
/// through the engine.
fn run(parsed: &Parsed, opts: &Options, upto: usize, whole: bool, anchor: bool) -> Run {
    let mut out = Run {
        hand: None,
        problem: None,
        signers: Vec::new(),
        player_sigs: 0,
    };
    if let Some(p) = check_integrity(parsed, opts, upto, &mut out.signers) {
        out.problem = Some(p);
        if whole {
            return out;
        }
    }
    // Every record that passed integrity reads as an event.
    let events: Vec<&Event> = parsed
        .events
        .iter()
        .take(upto)
        .map_while(|e| e.as_ref().ok())
        .collect();
    let all: Vec<&Event> = parsed
        .events
        .iter()
        .map_while(|e| e.as_ref().ok())
        .collect();
    let seeds = match check_reveal(&all, anchor) {
        Ok(s) => s,
        Err(p) => {
            if whole {
                out.problem = Some(p);
                return out;
            }
            Vec::new()
        }
    };
    for (i, (event, raw)) in events.iter().zip(&parsed.raw.records).enumerate() {
        let h = match out.hand.as_mut() {
            Some(h) => h,
            None => match LiveHand::begin(event, seeds.clone(), openings_of(&all)) {
                Ok(h) => out.hand.insert(h),
                Err(e) => {
                    let p = match e {
                        crate::dealer::DealerError::Fold { mismatch, .. } => {
                            problem(at(i), mismatch)
                        }
                        other => simple(
                            at(i),
                            "hand_started",
                            "a hand that can start".into(),
                            other.to_string(),
                        ),
                    };
                    out.problem.get_or_insert(p);
                    return out;
                }
            },
        };
        if let Err(m) = h.fold_record(event, raw.hash) {
            out.problem.get_or_insert(problem(at(i), m));
            return out;
        }
        if event.player_sig.is_some() {
            out.player_sigs += 1;
        }
    }
    out
}

/// Pass 4, the log proof of a bundle of version 2 (`docs/BUNDLE.md` §4): the checkpoint
/// must be signed, under its origin as the key name, by a trusted key (`--key`) or, without
/// one, by a key the bundle carries (rule `log_checkpoint`, which also covers a checkpoint
/// that does not read and one of another club's log); the leaf recomputed from the last
/// event under the salt must be leaf `leaf_index` of the checkpoint's tree by the inclusion
/// proof (rule `log_inclusion`: a proof, an index or a salt that was changed).
fn check_log(
    raw: &RawBundle,
    proof: &crate::bundle::BundleLogProof,
    opts: &Options,
) -> Result<LogInclusion, Problem> {
    use crate::tlog::{Checkpoint, HandLogProof, HandProofError, NoteVerifier};
    let log_problem = |rule: &str, expected: String, found: String| Problem {
        event: None,
        seat: None,
        rule: rule.to_string(),
        expected,
        found,
    };
    let unverified = Checkpoint::parse_unverified(&proof.checkpoint).map_err(|e| {
        log_problem(
            "log_checkpoint",
            "a signed checkpoint (docs/TRANSPARENCY.md §5)".into(),
            short(e),
        )
    })?;
    let origin = unverified.origin.as_str().to_string();
    let candidates: Vec<PublicKey> = if opts.trusted_keys.is_empty() {
        raw.keys.iter().map(|k| k.public_key).collect()
    } else {
        opts.trusted_keys.clone()
    };
    let mut opened = None;
    let mut why = None;
    for key in &candidates {
        let Ok(v) = NoteVerifier::new(&origin, *key) else {
            continue;
        };
        match Checkpoint::open(&proof.checkpoint, &v) {
            Ok(cp) => {
                opened = Some((cp, key.key_id()));
                break;
            }
            Err(e) => {
                why.get_or_insert_with(|| short(e));
            }
        }
    }
    let Some((cp, signer)) = opened else {
        let ids = candidates
            .iter()
            .map(|k| k.key_id().0)
            .collect::<Vec<_>>()
            .join(", ");
        let whose = if opts.trusted_keys.is_empty() {
            "the bundle's keys"
        } else {
            "the trusted keys"
        };
        return Err(log_problem(
            "log_checkpoint",
            format!("a checkpoint of {origin} signed by one of {whose} ({ids})"),
            why.unwrap_or_else(|| "no signature by any of them".into()),
        ));
    };
    let hand_proof = HandLogProof::new(
        cp.origin.as_str(),
        &raw.hand,
        proof.salt,
        proof.leaf_index,
        cp.size,
        proof.inclusion.clone(),
    );
    match hand_proof.verify(raw, &cp, None) {
        Ok(_) => Ok(LogInclusion {
            origin: cp.origin.to_string(),
            tree_size: cp.size,
            root: cp.root.to_hex(),
            leaf_index: proof.leaf_index,
            signer,
        }),
        Err(e @ HandProofError::OtherClub { .. }) => Err(log_problem(
            "log_checkpoint",
            "a checkpoint of the log of the hand's club".into(),
            short(e),
        )),
        Err(e) => Err(log_problem(
            "log_inclusion",
            format!(
                "the leaf of the last event (under the bundle's salt) at index {} of the tree of size {} with root {}",
                proof.leaf_index, cp.size, cp.root
            ),
            short(e),
        )),
    }
}

/// Verify a bundle given as bytes.
pub fn verify_bytes(bytes: &[u8], opts: &Options) -> Result<Verdict, BundleError> {
    verify_parsed(&parse(bytes)?, opts, true)
}

/// Verify a bundle given as JSON.
pub fn verify_value(value: Value, opts: &Options) -> Result<Verdict, BundleError> {
    verify_parsed(&parse_value(value)?, opts, true)
}

/// [`verify_value`] of a hand of a match file: a chained hand's chain seed is not walked
/// down to the anchor here (up to a million hashes a hand); the match verifies the links
/// between its hands instead, and walks only where a chain starts in the file.
pub(crate) fn verify_value_in_match(value: Value, opts: &Options) -> Result<Verdict, BundleError> {
    verify_parsed(&parse_value(value)?, opts, false)
}

fn verify_parsed(parsed: &Parsed, opts: &Options, anchor: bool) -> Result<Verdict, BundleError> {
    let n = parsed.events.len();
    let Run {
        hand,
        mut problem,
        signers,
        player_sigs,
    } = run(parsed, opts, n, true, anchor);
    if problem.is_none() {
        if let Some(h) = &hand {
            if parsed.raw.game != h.game() {
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
    let mut log = None;
    if problem.is_none() {
        if let Some(p) = &parsed.raw.log_proof {
            match check_log(&parsed.raw, p, opts) {
                Ok(l) => log = Some(l),
                Err(p) => problem = Some(p),
            }
        }
    }
    Ok(Verdict {
        valid: problem.is_none(),
        hand: parsed.raw.hand.clone(),
        game: parsed.raw.game,
        events: n,
        status: hand.as_ref().map(LiveHand::status),
        trust: if opts.trusted_keys.is_empty() {
            Trust::BundleKeysOnly
        } else {
            Trust::TrustedKey
        },
        signers,
        player_signatures: player_sigs,
        outcome: hand.as_ref().and_then(|h| h.outcome().cloned()),
        problem,
        log,
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
    replay_as(bytes, step, opts, Viewer::All)
}

/// Replay a bundle up to event `step`, showing the table as `viewer` saw it then: what the
/// service showed that seat (or the public) at that moment, re-derived offline.
pub fn replay_as(
    bytes: &[u8],
    step: Option<u64>,
    opts: &Options,
    viewer: Viewer,
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
    let Run { hand, problem, .. } = run(&parsed, opts, want.saturating_add(1), false, false);
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
        table: hand.view(viewer),
        to_act: hand.to_act(),
        last_action: hand.last_action().cloned(),
        status: hand.status(),
        problem,
    })
}

/// Fold a bundle once and call `each(step, hand)` with the hand after every event, as far
/// as the bundle holds together: up to (not including) its first record that fails the
/// integrity pass and its first event the fold refuses. Returns how many events the
/// bundle holds.
///
/// The hand after event `s` is the one [`replay_as`] shows for step `s` wherever that
/// step has no problem: the same integrity pass, the same seeds (revealed at the end, not
/// checked here: a reveal that does not open its commitments leaves every shuffle
/// unseeded, as in [`replay_as`]) and the same fold; the openings of private actions are
/// the ones the stream reveals at its end, for every step. One pass over the events
/// instead of one replay per step: the view of a long hand (`replayer view`) is then as
/// quick as its verification.
pub fn fold_steps(
    bytes: &[u8],
    opts: &Options,
    mut each: impl FnMut(u64, &LiveHand),
) -> Result<usize, BundleError> {
    let parsed = parse(bytes)?;
    let n = parsed.events.len();
    let mut signers = Vec::new();
    let stop = match check_integrity(&parsed, opts, n, &mut signers) {
        None => n,
        // A problem of no event (a key of the bundle) stops every step.
        Some(p) => p
            .event
            .and_then(|e| usize::try_from(e).ok())
            .map_or(0, |e| e.min(n)),
    };
    let all: Vec<&Event> = parsed
        .events
        .iter()
        .map_while(|e| e.as_ref().ok())
        .collect();
    let seeds = check_reveal(&all, false).unwrap_or_default();
    let openings = openings_of(&all);
    let mut hand: Option<LiveHand> = None;
    for (i, (event, raw)) in all.iter().zip(&parsed.raw.records).take(stop).enumerate() {
        let h = match hand.as_mut() {
            Some(h) => h,
            None => match LiveHand::begin(event, seeds.clone(), openings.clone()) {
                Ok(h) => hand.insert(h),
                Err(_) => break,
            },
        };
        if h.fold_record(event, raw.hash).is_err() {
            break;
        }
        each(u64::try_from(i).unwrap_or(u64::MAX), h);
    }
    Ok(n)
}

impl LiveHand {
    /// Start folding a recorded stream whose first event is `first`, with the seeds the
    /// stream reveals at its end.
    pub(crate) fn begin(
        first: &Event,
        seeds: Vec<Option<ServerSeed>>,
        openings: Vec<crate::log::OpenedInput>,
    ) -> Result<LiveHand, crate::dealer::DealerError> {
        let mut h = LiveHand::from_first_event(first, SeedSource::Os)?;
        h.set_seeds(seeds);
        h.set_openings(openings);
        Ok(h)
    }
}
