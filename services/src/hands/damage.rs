//! Damaged hands: a hand whose stored log fails verification when the service rebuilds it
//! (a row inserted or edited behind the service's back, a sealed secret swapped or lost).
//!
//! Rebuilding a hand from the store checks, in order: each stored event reads as a signed
//! record, its hash holds and one of the service's keys signed it; its sealed secrets
//! unseal as this hand's; the fold of its events (sequence, chain links, commitments, every
//! action re-run through the engine); a running hand's server seeds against the commitments
//! the log made to them; a finished hand's log ends in its reveal. The first failure is a
//! [`Damage`]: the event it is found at and the check that fails, answered as
//! `409 hand_damaged` (never a 500). The answer names the seq and the rule only: never what
//! was expected or found, which could quote a seed, a hidden card or sealed bytes.

use replayer::dealer::DealerError;
use replayer::log::{hash_event, signature_message, verify_batch, Body, PublicKey, Record};
use replayer::shuffle::ServerSeed;

use crate::api::errors::{ApiError, Code};
use crate::Service;

/// The checks the service makes of a stored log besides the replayer's fold (whose rules
/// are the replayer's own: `chain`, `sequence`, `commitment`, an engine rule id …).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Check {
    /// A stored event does not read as a signed record.
    Record,
    /// The event's hash is not the hash of the event.
    Hash,
    /// The event is signed by a key the service does not hold.
    Signer,
    /// The event's signature does not verify.
    Signature,
    /// A sealed server seed does not unseal as this hand's seed of that shuffle.
    SealedSeed,
    /// A committed shuffle of a running hand has no sealed server seed.
    MissingSeed,
    /// A running hand's server seed is not the one its shuffle committed to.
    Commitment,
    /// A sealed opening of a private action does not unseal as the opening of that event.
    SealedInput,
    /// A finished hand's log does not end in its reveal.
    Reveal,
    /// The hand's first event does not set up a hand.
    HandStarted,
    /// A running hand's stored log ends before the club's log says it does: events it
    /// acknowledged (ordered in the club's log, or passed by its sequencer cursor) are
    /// gone. Found at the first missing event.
    Truncated,
}

impl Check {
    /// The stable name, as `rule` of a `hand_damaged` problem.
    pub fn as_str(self) -> &'static str {
        match self {
            Check::Record => "record",
            Check::Hash => "hash",
            Check::Signer => "signer",
            Check::Signature => "signature",
            Check::SealedSeed => "sealed_seed",
            Check::MissingSeed => "missing_seed",
            Check::Commitment => "commitment",
            Check::SealedInput => "sealed_input",
            Check::Reveal => "seeds_revealed",
            Check::HandStarted => "hand_started",
            Check::Truncated => "truncated",
        }
    }
}

/// Where a hand's stored log first fails verification, and the check that fails.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Damage {
    /// The event: for a sealed secret, the event that commits to it; for a missing reveal,
    /// the seq the reveal should have.
    pub seq: u64,
    /// The check: a [`Check`]'s name, or the replayer's rule.
    pub rule: String,
}

impl Damage {
    /// A failure of one of the service's own checks.
    pub fn at(seq: u64, check: Check) -> Damage {
        Damage {
            seq,
            rule: check.as_str().to_string(),
        }
    }

    /// The failure of restoring a hand from its records: the fold's event and rule (never
    /// what it expected or found).
    pub fn of_restore(e: &DealerError) -> Damage {
        match e {
            DealerError::Fold { seq, mismatch } => Damage {
                seq: *seq,
                rule: clip_rule(&mismatch.rule),
            },
            _ => Damage::at(0, Check::HandStarted),
        }
    }
}

impl Damage {
    /// The damage a `hand_damaged` error reports; `None` for any other error.
    pub fn of_error(e: &ApiError) -> Option<Damage> {
        if e.code != Code::HandDamaged {
            return None;
        }
        Some(Damage {
            seq: e.extra.get("seq").and_then(serde_json::Value::as_u64)?,
            rule: e
                .extra
                .get("rule")
                .and_then(serde_json::Value::as_str)?
                .to_string(),
        })
    }
}

/// A rule id as shown: the replayer's rule ids are short snake_case or CamelCase words.
fn clip_rule(rule: &str) -> String {
    rule.chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
        .take(64)
        .collect()
}

impl From<Damage> for ApiError {
    fn from(d: Damage) -> Self {
        ApiError::new(
            Code::HandDamaged,
            format!(
                "the hand's stored log fails verification at event {} (rule {}); the club \
                 admin may quarantine the hand (POST /v1/hands/{{hand_id}}/quarantine)",
                d.seq, d.rule
            ),
        )
        .with("seq", d.seq)
        .with("rule", d.rule)
    }
}

/// The seq of the event that commits to shuffle `k`: the first event for shuffle 0, its
/// `shuffle_committed` for a later one (the last event when the log has none).
pub fn commit_seq(records: &[Record], k: u32) -> u64 {
    if k == 0 {
        return 0;
    }
    records
        .iter()
        .find(|r| matches!(r.event.body, Body::ShuffleCommitted { shuffle, .. } if shuffle == k))
        .or(records.last())
        .map_or(0, |r| r.event.seq)
}

/// Each record's hash holds and one of the service's keys signed it. Signatures are
/// checked in one batch; when the batch fails, one at a time to find the first.
pub fn integrity(svc: &Service, records: &[Record]) -> Result<(), Damage> {
    let mut batch: Vec<(Vec<u8>, replayer::log::Signature, PublicKey)> =
        Vec::with_capacity(records.len());
    for (i, r) in records.iter().enumerate() {
        let seq = u64::try_from(i).unwrap_or(u64::MAX);
        match hash_event(&r.event) {
            Ok(h) if h == r.hash => {}
            _ => return Err(Damage::at(seq, Check::Hash)),
        }
        let key = svc
            .keys
            .public(&r.signer)
            .ok_or_else(|| Damage::at(seq, Check::Signer))?;
        batch.push((signature_message(&r.hash), r.sig, key));
    }
    if verify_batch(&batch) {
        return Ok(());
    }
    for (i, (msg, sig, key)) in batch.iter().enumerate() {
        if !key.verify(msg, sig) {
            return Err(Damage::at(
                u64::try_from(i).unwrap_or(u64::MAX),
                Check::Signature,
            ));
        }
    }
    Ok(())
}

/// A running hand's server seeds against the commitments its log made, shuffle by
/// shuffle: each committed shuffle has its seed, and the seed is the one committed to.
pub fn seeds_match(
    records: &[Record],
    commitments: &[replayer::shuffle::Commitment],
    seeds: &[Option<ServerSeed>],
) -> Result<(), Damage> {
    for (k, c) in commitments.iter().enumerate() {
        let shuffle = u32::try_from(k).unwrap_or(u32::MAX);
        match seeds.get(k) {
            Some(Some(s)) if s.commitment() == *c => {}
            Some(Some(_)) => {
                return Err(Damage::at(commit_seq(records, shuffle), Check::Commitment))
            }
            _ => return Err(Damage::at(commit_seq(records, shuffle), Check::MissingSeed)),
        }
    }
    Ok(())
}
