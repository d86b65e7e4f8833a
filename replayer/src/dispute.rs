//! The record of a dispute over a hand: its entries, hash-chained and signed like a hand's
//! events, and the message a club official signs to rule on it.
//!
//! Format version 1, specified in `docs/DISPUTES.md`. In short:
//!
//! * A dispute's record is a list of [`Entry`]s numbered from 0: entry 0 says who opened the
//!   dispute, on which hand (and event), of what kind, with what claim, and the findings the
//!   service attached at once; every later entry is a ruling. Nothing is ever edited: a later
//!   ruling supersedes an earlier one, and both stay.
//! * An entry's **hash** is `SHA-256("persian-cards/dispute-entry/v1" || 0x00 || JCS(entry))`;
//!   each entry holds the previous entry's hash in `prev` (64 zeros for entry 0), so the
//!   entries chain. The service signs `"persian-cards/dispute-entry-signature/v1" || 0x00 ||
//!   hash` with its Ed25519 key: an [`EntryRecord`] is the entry with its hash, signer and
//!   signature.
//! * A ruling is also signed by the official who made it, with their own Ed25519 key, over
//!   [`ruling_message`]: `"persian-cards/ruling/v1" || 0x00 || JCS({"club", "decision",
//!   "dispute", "hand", "official": {"name", "public_key"}, "penalty", "prev", "reason",
//!   "seq"})`, where `seq` and `prev` are the ruling entry's own: the official's signature
//!   pins the record they ruled on, so rulings form a chain the official signed too.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::engine::{Award, SeatIndex};
use crate::log::{canonical_bytes, Hash, KeyId, LogError, PublicKey, Signature, SigningKeyPair};

/// Version of the dispute entry format.
pub const DISPUTE_FORMAT_VERSION: u32 = 1;

const ENTRY_HASH_TAG: &[u8] = b"persian-cards/dispute-entry/v1\0";
const ENTRY_SIG_TAG: &[u8] = b"persian-cards/dispute-entry-signature/v1\0";
const RULING_SIG_TAG: &[u8] = b"persian-cards/ruling/v1\0";

/// What a dispute claims.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DisputeKind {
    /// The deal was not fair: the deck was steered.
    UnfairDeal,
    /// An action recorded for a seat was not made by its player.
    ActionNotMine,
    /// A score or a payment was settled wrongly.
    WrongScore,
    /// Another seat broke a rule and the action stood.
    RuleBroken,
    /// The record was altered after the fact.
    RecordAltered,
}

impl DisputeKind {
    /// Every kind, in the documented order.
    pub const ALL: [DisputeKind; 5] = [
        DisputeKind::UnfairDeal,
        DisputeKind::ActionNotMine,
        DisputeKind::WrongScore,
        DisputeKind::RuleBroken,
        DisputeKind::RecordAltered,
    ];

    /// The stable spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            DisputeKind::UnfairDeal => "unfair_deal",
            DisputeKind::ActionNotMine => "action_not_mine",
            DisputeKind::WrongScore => "wrong_score",
            DisputeKind::RuleBroken => "rule_broken",
            DisputeKind::RecordAltered => "record_altered",
        }
    }

    /// Parses the stable spelling.
    pub fn parse(s: &str) -> Option<DisputeKind> {
        DisputeKind::ALL.into_iter().find(|k| k.as_str() == s)
    }
}

/// What an official decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    /// The claim is upheld.
    Upheld,
    /// The claim is rejected.
    Rejected,
    /// The claim is upheld and a penalty the game's rules give is awarded.
    Penalty,
}

impl Decision {
    /// The stable spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Decision::Upheld => "upheld",
            Decision::Rejected => "rejected",
            Decision::Penalty => "penalty",
        }
    }

    /// Parses the stable spelling.
    pub fn parse(s: &str) -> Option<Decision> {
        [Decision::Upheld, Decision::Rejected, Decision::Penalty]
            .into_iter()
            .find(|d| d.as_str() == s)
    }
}

/// Who opened a dispute.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Opener {
    /// `seat`, `admin` or `auditor`.
    pub role: String,
    /// The seat token's or API key's public id.
    pub id: String,
    /// The seat, for a seat token.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<SeatIndex>,
}

/// A club official, as a ruling names them: the name and the Ed25519 public key the club
/// registered for them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Official {
    /// The official's name.
    pub name: String,
    /// The official's public key.
    pub public_key: PublicKey,
}

/// What an entry says.
// A ruling carries two keys' worth of bytes (the official's public key and signature); an
// entry is built once per request and never held in bulk, so it is not boxed.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum EntryBody {
    /// Entry 0: the dispute as opened, with the findings attached at once.
    Opened {
        /// The hand's table.
        table: String,
        /// The event of the hand the dispute is about, if one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        event: Option<u64>,
        /// What is claimed.
        kind: DisputeKind,
        /// The claim, in the opener's words (NFC, at most 2,000 characters).
        claim: String,
        /// Who opened it.
        opened_by: Opener,
        /// The findings the service attached when the dispute was opened: evidence as it
        /// stood then (`docs/DISPUTES.md`, "Findings").
        findings: Value,
    },
    /// A ruling by a club official, signed by them; it supersedes any ruling before it.
    Ruling {
        /// What is decided.
        decision: Decision,
        /// The penalty as the official gave it (`decision` `penalty` only).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        penalty: Option<Value>,
        /// What the game's rules make of the penalty: who gains how much, and where the
        /// rules say so.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        award: Option<Award>,
        /// Why, in the official's words.
        reason: String,
        /// Who ruled.
        official: Official,
        /// The official's signature over [`ruling_message`].
        official_sig: Signature,
        /// The id of the admin key that recorded the ruling.
        recorded_by: String,
    },
}

impl EntryBody {
    /// The `type` tag.
    pub fn kind(&self) -> &'static str {
        match self {
            EntryBody::Opened { .. } => "opened",
            EntryBody::Ruling { .. } => "ruling",
        }
    }
}

/// One entry of a dispute's record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// Format version (1).
    pub v: u32,
    /// The club.
    pub club: String,
    /// The dispute.
    pub dispute: String,
    /// The hand disputed.
    pub hand: String,
    /// Position in the dispute's record, from 0.
    pub seq: u64,
    /// Hash of the previous entry (zeros for entry 0).
    pub prev: Hash,
    /// When the service appended it, unix milliseconds.
    pub time_ms: u64,
    /// What it says.
    pub body: EntryBody,
}

/// An entry with its hash and the service's signature.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EntryRecord {
    /// The entry.
    pub entry: Entry,
    /// Its hash.
    pub hash: Hash,
    /// The service key that signed it.
    pub signer: KeyId,
    /// The service's signature over the hash.
    pub sig: Signature,
}

/// The hash of an entry: `SHA-256("persian-cards/dispute-entry/v1" || 0x00 || JCS(entry))`.
pub fn hash_entry(entry: &Entry) -> Result<Hash, LogError> {
    let json = serde_json::to_value(entry).map_err(|e| LogError::Encoding(e.to_string()))?;
    let bytes = canonical_bytes(&json)?;
    let mut h = Sha256::new();
    h.update(ENTRY_HASH_TAG);
    h.update(&bytes);
    Ok(Hash(h.finalize().into()))
}

/// The bytes the service signs for an entry hash.
pub fn entry_signature_message(hash: &Hash) -> Vec<u8> {
    let mut m = Vec::with_capacity(ENTRY_SIG_TAG.len() + 32);
    m.extend_from_slice(ENTRY_SIG_TAG);
    m.extend_from_slice(&hash.0);
    m
}

/// Hashes and signs an entry with the service's key.
pub fn seal_entry(entry: Entry, key: &SigningKeyPair) -> Result<EntryRecord, LogError> {
    let hash = hash_entry(&entry)?;
    let sig = key.sign(&entry_signature_message(&hash));
    Ok(EntryRecord {
        entry,
        hash,
        signer: key.key_id(),
        sig,
    })
}

/// What an official signs to rule: the ruling's fields and where it goes in the record.
#[derive(Clone, Debug, PartialEq)]
pub struct RulingTerms<'a> {
    /// The club.
    pub club: &'a str,
    /// The dispute.
    pub dispute: &'a str,
    /// The hand disputed.
    pub hand: &'a str,
    /// The ruling entry's seq (the dispute's next).
    pub seq: u64,
    /// The hash of the dispute's last entry before the ruling.
    pub prev: &'a Hash,
    /// The decision.
    pub decision: Decision,
    /// The penalty as given (`None` unless the decision is `penalty`).
    pub penalty: Option<&'a Value>,
    /// Why.
    pub reason: &'a str,
    /// Who rules.
    pub official: &'a Official,
}

/// Whether a ruling entry's official signed it: their signature verifies over
/// [`ruling_message`] of the entry's own terms. `false` for any other kind of entry.
pub fn official_signed(e: &Entry) -> bool {
    let EntryBody::Ruling {
        decision,
        penalty,
        reason,
        official,
        official_sig,
        ..
    } = &e.body
    else {
        return false;
    };
    ruling_message(&RulingTerms {
        club: &e.club,
        dispute: &e.dispute,
        hand: &e.hand,
        seq: e.seq,
        prev: &e.prev,
        decision: *decision,
        penalty: penalty.as_ref(),
        reason,
        official,
    })
    .is_ok_and(|m| official.public_key.verify(&m, official_sig))
}

/// The bytes an official signs to rule: `"persian-cards/ruling/v1" || 0x00 ||
/// JCS({"club", "decision", "dispute", "hand", "official": {"name", "public_key"},
/// "penalty", "prev", "reason", "seq"})`, with `penalty` `null` when there is none.
pub fn ruling_message(t: &RulingTerms<'_>) -> Result<Vec<u8>, LogError> {
    let v = serde_json::json!({
        "club": t.club,
        "decision": t.decision,
        "dispute": t.dispute,
        "hand": t.hand,
        "official": t.official,
        "penalty": t.penalty,
        "prev": t.prev,
        "reason": t.reason,
        "seq": t.seq,
    });
    let mut m = RULING_SIG_TAG.to_vec();
    m.extend(canonical_bytes(&v)?);
    Ok(m)
}

/// The first thing wrong with a dispute's record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, thiserror::Error)]
#[error("entry {entry}: {rule}")]
pub struct ChainProblem {
    /// The entry.
    pub entry: u64,
    /// The check that fails: `sequence`, `chain`, `dispute`, `hash`, `signer`,
    /// `signature`, `opened_first` or `official_signature`.
    pub rule: &'static str,
}

/// Checks a dispute's record: entries in sequence from 0 and of one dispute, each linked to
/// the one before, its hash over itself, signed by one of `service_keys`; entry 0 (and only
/// it) an opening; every ruling signed by its official over [`ruling_message`].
pub fn verify_record(
    records: &[EntryRecord],
    service_keys: &[PublicKey],
) -> Result<(), ChainProblem> {
    let mut prev = Hash::ZERO;
    let first = records.first().map(|r| (&r.entry.club, &r.entry.dispute));
    for (i, r) in records.iter().enumerate() {
        let at = u64::try_from(i).unwrap_or(u64::MAX);
        let fail = |rule| ChainProblem { entry: at, rule };
        let e = &r.entry;
        if e.seq != at || e.v != DISPUTE_FORMAT_VERSION {
            return Err(fail("sequence"));
        }
        if Some((&e.club, &e.dispute)) != first {
            return Err(fail("dispute"));
        }
        if e.prev != prev {
            return Err(fail("chain"));
        }
        if hash_entry(e).ok() != Some(r.hash) {
            return Err(fail("hash"));
        }
        let key = service_keys
            .iter()
            .find(|k| k.key_id() == r.signer)
            .ok_or_else(|| fail("signer"))?;
        if !key.verify(&entry_signature_message(&r.hash), &r.sig) {
            return Err(fail("signature"));
        }
        match (&e.body, i) {
            (EntryBody::Opened { .. }, 0) => {}
            (EntryBody::Ruling { .. }, 0) | (EntryBody::Opened { .. }, _) => {
                return Err(fail("opened_first"))
            }
            (EntryBody::Ruling { .. }, _) => {
                if !official_signed(e) {
                    return Err(fail("official_signature"));
                }
            }
        }
        prev = r.hash;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn opened(service: &SigningKeyPair) -> EntryRecord {
        opened_with(service, "the banker paid me short")
    }

    fn opened_with(service: &SigningKeyPair, claim: &str) -> EntryRecord {
        seal_entry(
            Entry {
                v: 1,
                club: "c_1".into(),
                dispute: "d_1".into(),
                hand: "h_1".into(),
                seq: 0,
                prev: Hash::ZERO,
                time_ms: 1,
                body: EntryBody::Opened {
                    table: "t_1".into(),
                    event: Some(4),
                    kind: DisputeKind::WrongScore,
                    claim: claim.into(),
                    opened_by: Opener {
                        role: "seat".into(),
                        id: "aa".into(),
                        seat: Some(SeatIndex(1)),
                    },
                    findings: json!({"verdict": {"valid": true}}),
                },
            },
            service,
        )
        .unwrap()
    }

    fn ruling(
        service: &SigningKeyPair,
        official_key: &SigningKeyPair,
        prev: &EntryRecord,
        decision: Decision,
    ) -> EntryRecord {
        let official = Official {
            name: "Hamid".into(),
            public_key: official_key.public(),
        };
        let seq = prev.entry.seq + 1;
        let reason = "the settlement recomputes to the stored outcome";
        let msg = ruling_message(&RulingTerms {
            club: "c_1",
            dispute: "d_1",
            hand: "h_1",
            seq,
            prev: &prev.hash,
            decision,
            penalty: None,
            reason,
            official: &official,
        })
        .unwrap();
        seal_entry(
            Entry {
                v: 1,
                club: "c_1".into(),
                dispute: "d_1".into(),
                hand: "h_1".into(),
                seq,
                prev: prev.hash,
                time_ms: 2,
                body: EntryBody::Ruling {
                    decision,
                    penalty: None,
                    award: None,
                    reason: reason.into(),
                    official_sig: official_key.sign(&msg),
                    official,
                    recorded_by: "k".into(),
                },
            },
            service,
        )
        .unwrap()
    }

    #[test]
    fn a_record_of_an_opening_and_two_rulings_verifies() {
        let service = SigningKeyPair::from_secret([1; 32]);
        let official = SigningKeyPair::from_secret([2; 32]);
        let e0 = opened(&service);
        let e1 = ruling(&service, &official, &e0, Decision::Rejected);
        let e2 = ruling(&service, &official, &e1, Decision::Upheld);
        let all = vec![e0, e1, e2];
        verify_record(&all, &[service.public()]).unwrap();
        // The JSON form reads back as the same records.
        let text = serde_json::to_string(&all).unwrap();
        let back: Vec<EntryRecord> = serde_json::from_str(&text).unwrap();
        assert_eq!(back, all);
    }

    #[test]
    fn any_change_is_caught_at_its_entry() {
        let service = SigningKeyPair::from_secret([1; 32]);
        let official = SigningKeyPair::from_secret([2; 32]);
        let e0 = opened(&service);
        let e1 = ruling(&service, &official, &e0, Decision::Rejected);
        let good = vec![e0.clone(), e1.clone()];

        let mut edited = good.clone();
        if let EntryBody::Ruling { reason, .. } = &mut edited[1].entry.body {
            reason.push('!');
        }
        assert_eq!(
            verify_record(&edited, &[service.public()]),
            Err(ChainProblem {
                entry: 1,
                rule: "hash"
            })
        );
        // Re-sealed by the service after the edit: the official's signature still fails.
        let resealed = seal_entry(edited[1].entry.clone(), &service).unwrap();
        let forged = vec![e0.clone(), resealed];
        assert_eq!(
            verify_record(&forged, &[service.public()]),
            Err(ChainProblem {
                entry: 1,
                rule: "official_signature"
            })
        );
        assert_eq!(
            verify_record(&good, &[official.public()]),
            Err(ChainProblem {
                entry: 0,
                rule: "signer"
            })
        );
        assert_eq!(
            verify_record(std::slice::from_ref(&e1), &[service.public()]),
            Err(ChainProblem {
                entry: 0,
                rule: "sequence"
            })
        );
        // A ruling signed over another record (another prev) does not fit this one.
        let other = opened_with(&service, "another claim");
        let stray = ruling(&service, &official, &other, Decision::Upheld);
        assert_eq!(
            verify_record(&[e0, stray], &[service.public()]),
            Err(ChainProblem {
                entry: 1,
                rule: "chain"
            })
        );
    }

    #[test]
    fn kinds_and_decisions_read_their_spellings() {
        for k in DisputeKind::ALL {
            assert_eq!(DisputeKind::parse(k.as_str()), Some(k));
            assert_eq!(json!(k), json!(k.as_str()));
        }
        assert_eq!(DisputeKind::parse("unfair"), None);
        assert_eq!(Decision::parse("penalty"), Some(Decision::Penalty));
        assert_eq!(Decision::parse("maybe"), None);
    }
}
