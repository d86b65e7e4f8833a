//! What a hand's reader needs to check that the hand is in its club's log: the hand's salt,
//! the index of its last event's leaf, and the inclusion proof of that leaf in a tree size,
//! as one JSON document (a log proof, `persian-cards/log-proof` version 1). Until bundles
//! carry it, it travels as a file beside the bundle (`replayer log inclusion BUNDLE
//! --proof FILE --checkpoint FILE`). And the file form of a consistency proof.
//!
//! The last event's leaf is enough: its event hash chains every event before it
//! (`docs/EVENT-LOG.md` §7), so a log holding it holds the whole hand as it was then.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::bundle::RawBundle;
use crate::log::{hash_event_json, Hash};

use super::checkpoint::Checkpoint;
use super::leaf::{HandSalt, LeafEntry, LeafError, LeafInput};
use super::proof::{verify_consistency, verify_inclusion, ProofError};

/// The `format` of a log proof.
pub const LOG_PROOF_FORMAT: &str = "persian-cards/log-proof";
/// The `format` of a consistency proof file.
pub const CONSISTENCY_PROOF_FORMAT: &str = "persian-cards/log-consistency";
/// The version of both.
pub const PROOF_FILE_VERSION: u32 = 1;

/// Why a hand's log proof does not hold.
#[derive(Debug, thiserror::Error)]
pub enum HandProofError {
    /// The proof document is of another format or version.
    #[error("unsupported proof: format {format:?} version {version} (this reads {expected:?} version 1)")]
    Version {
        /// The format found.
        format: String,
        /// The version found.
        version: u32,
        /// The format expected.
        expected: &'static str,
    },
    /// The bundle lacks what the leaf is made of.
    #[error("bundle: {0}")]
    Bundle(String),
    /// The proof is for another hand.
    #[error("the proof is for hand {proof:?}, the bundle is hand {bundle:?}")]
    OtherHand {
        /// The proof's hand.
        proof: String,
        /// The bundle's hand.
        bundle: String,
    },
    /// The proof or checkpoint names another log than the hand's club's.
    #[error("the log is {origin:?}, which is not the log of the hand's club {club:?}")]
    OtherClub {
        /// The log's origin.
        origin: String,
        /// The hand's club.
        club: String,
    },
    /// The proof is for another log than the checkpoint's.
    #[error("the proof is for log {proof:?}, the checkpoint for log {checkpoint:?}")]
    OtherLog {
        /// The proof's origin.
        proof: String,
        /// The checkpoint's origin.
        checkpoint: String,
    },
    /// The proof is for another tree size than the checkpoint's.
    #[error("the proof is for tree size {proof}, the checkpoint has size {checkpoint}; get a proof for this checkpoint (or pass --tiles to compute one)")]
    OtherSize {
        /// The proof's tree size.
        proof: u64,
        /// The checkpoint's tree size.
        checkpoint: u64,
    },
    /// The leaf could not be made.
    #[error(transparent)]
    Leaf(#[from] LeafError),
    /// The inclusion proof does not verify.
    #[error("the hand's last event is not proved to be in the log: {0}")]
    Proof(#[from] ProofError),
}

/// A hand's log proof: the salt that opens its leaves and the inclusion proof of its last
/// event's leaf.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HandLogProof {
    /// Always [`LOG_PROOF_FORMAT`].
    pub format: String,
    /// Always [`PROOF_FILE_VERSION`].
    pub version: u32,
    /// The origin of the club's log.
    pub origin: String,
    /// The hand's id.
    pub hand: String,
    /// The hand's salt.
    pub salt: HandSalt,
    /// The index of the leaf of the hand's last event.
    pub leaf_index: u64,
    /// The tree size the proof is for.
    pub tree_size: u64,
    /// The inclusion proof, bottom up.
    pub inclusion: Vec<Hash>,
}

/// The leaf of a bundle's last event, and what it is made of.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BundleLeaf {
    /// The hand's club (from its `hand_started`).
    pub club: String,
    /// The hand's id.
    pub hand: String,
    /// The last event's `seq`.
    pub seq: u64,
    /// The last event's hash, computed from the event as the bundle gives it.
    pub event_hash: Hash,
    /// The leaf entry.
    pub entry: LeafEntry,
}

/// The leaf of a bundle's last event under `salt`. The event hash is recomputed from the
/// event as given (not taken from the record), so an event edited after the fact gives
/// another leaf; whether the bundle itself is valid is `replayer verify`'s question.
pub fn bundle_last_leaf(bundle: &RawBundle, salt: &HandSalt) -> Result<BundleLeaf, HandProofError> {
    let bad = |s: &str| HandProofError::Bundle(s.to_string());
    let first = bundle.records.first().ok_or_else(|| bad("no records"))?;
    let last = bundle.records.last().ok_or_else(|| bad("no records"))?;
    let club = first
        .event
        .pointer("/body/club")
        .and_then(Value::as_str)
        .ok_or_else(|| bad("the first event names no club"))?;
    let hand = last
        .event
        .get("hand")
        .and_then(Value::as_str)
        .ok_or_else(|| bad("the last event names no hand"))?;
    if hand != bundle.hand {
        return Err(bad("the last event's hand is not the bundle's"));
    }
    let seq = last
        .event
        .get("seq")
        .and_then(Value::as_u64)
        .ok_or_else(|| bad("the last event has no seq"))?;
    let event_hash =
        hash_event_json(&last.event).map_err(|e| HandProofError::Bundle(e.to_string()))?;
    let entry = LeafEntry::new(
        salt,
        &LeafInput {
            club,
            hand,
            seq,
            event_hash,
        },
    )?;
    Ok(BundleLeaf {
        club: club.to_string(),
        hand: hand.to_string(),
        seq,
        event_hash,
        entry,
    })
}

impl HandLogProof {
    /// A log proof of this version.
    pub fn new(
        origin: &str,
        hand: &str,
        salt: HandSalt,
        leaf_index: u64,
        tree_size: u64,
        inclusion: Vec<Hash>,
    ) -> Self {
        HandLogProof {
            format: LOG_PROOF_FORMAT.to_string(),
            version: PROOF_FILE_VERSION,
            origin: origin.to_string(),
            hand: hand.to_string(),
            salt,
            leaf_index,
            tree_size,
            inclusion,
        }
    }

    /// Refuse another format or version.
    pub fn check_version(&self) -> Result<(), HandProofError> {
        if self.format != LOG_PROOF_FORMAT || self.version != PROOF_FILE_VERSION {
            return Err(HandProofError::Version {
                format: self.format.chars().take(100).collect(),
                version: self.version,
                expected: LOG_PROOF_FORMAT,
            });
        }
        Ok(())
    }

    /// Check that the bundle's last event is leaf `leaf_index` of the tree `checkpoint`
    /// heads, with this proof's hashes (or `inclusion`, a proof for the checkpoint's size
    /// computed elsewhere, e.g. from tiles). The checkpoint's signature is the caller's
    /// business ([`Checkpoint::open`]).
    pub fn verify(
        &self,
        bundle: &RawBundle,
        checkpoint: &Checkpoint,
        inclusion: Option<&[Hash]>,
    ) -> Result<BundleLeaf, HandProofError> {
        self.check_version()?;
        if self.hand != bundle.hand {
            return Err(HandProofError::OtherHand {
                proof: self.hand.clone(),
                bundle: bundle.hand.clone(),
            });
        }
        if self.origin != checkpoint.origin.as_str() {
            return Err(HandProofError::OtherLog {
                proof: self.origin.clone(),
                checkpoint: checkpoint.origin.to_string(),
            });
        }
        let leaf = bundle_last_leaf(bundle, &self.salt)?;
        if checkpoint.origin.club() != Some(leaf.club.as_str()) {
            return Err(HandProofError::OtherClub {
                origin: checkpoint.origin.to_string(),
                club: leaf.club.clone(),
            });
        }
        let proof = match inclusion {
            Some(p) => p,
            None if self.tree_size == checkpoint.size => &self.inclusion,
            None => {
                return Err(HandProofError::OtherSize {
                    proof: self.tree_size,
                    checkpoint: checkpoint.size,
                })
            }
        };
        verify_inclusion(
            &leaf.entry.leaf_hash(),
            self.leaf_index,
            checkpoint.size,
            proof,
            &checkpoint.root,
        )?;
        Ok(leaf)
    }
}

/// A consistency proof as a file: the proof from tree size `old_size` to `new_size` of the
/// log `origin`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConsistencyProofFile {
    /// Always [`CONSISTENCY_PROOF_FORMAT`].
    pub format: String,
    /// Always [`PROOF_FILE_VERSION`].
    pub version: u32,
    /// The log's origin.
    pub origin: String,
    /// The old tree size.
    pub old_size: u64,
    /// The new tree size.
    pub new_size: u64,
    /// The proof's hashes (RFC 9162 §2.1.4.1 order).
    pub proof: Vec<Hash>,
}

impl ConsistencyProofFile {
    /// A consistency proof file of this version.
    pub fn new(origin: &str, old_size: u64, new_size: u64, proof: Vec<Hash>) -> Self {
        ConsistencyProofFile {
            format: CONSISTENCY_PROOF_FORMAT.to_string(),
            version: PROOF_FILE_VERSION,
            origin: origin.to_string(),
            old_size,
            new_size,
            proof,
        }
    }

    /// Check that `new` extends `old` with this proof.
    pub fn verify(&self, old: &Checkpoint, new: &Checkpoint) -> Result<(), HandProofError> {
        if self.format != CONSISTENCY_PROOF_FORMAT || self.version != PROOF_FILE_VERSION {
            return Err(HandProofError::Version {
                format: self.format.chars().take(100).collect(),
                version: self.version,
                expected: CONSISTENCY_PROOF_FORMAT,
            });
        }
        for c in [old, new] {
            if c.origin.as_str() != self.origin {
                return Err(HandProofError::OtherLog {
                    proof: self.origin.clone(),
                    checkpoint: c.origin.to_string(),
                });
            }
        }
        if (self.old_size, self.new_size) != (old.size, new.size) {
            return Err(HandProofError::OtherSize {
                proof: self.new_size,
                checkpoint: new.size,
            });
        }
        Ok(verify_consistency(
            old.size,
            new.size,
            &self.proof,
            &old.root,
            &new.root,
        )?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tlog::checkpoint::Origin;
    use crate::tlog::hash::root_of;
    use crate::tlog::proof::{inclusion_proof, MemoryHashes};

    fn bundle() -> RawBundle {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../docs/vectors/bundles-v1/bluff-4-seats-relabel.json"
        );
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    }

    /// A log of 6 leaves whose leaf 2 is the bundle's last event; its checkpoint and proof.
    fn setup(b: &RawBundle) -> (Checkpoint, HandLogProof) {
        let salt = HandSalt([9; 32]);
        let leaf = bundle_last_leaf(b, &salt).unwrap();
        let mut leaves: Vec<Hash> = (0u8..6).map(|i| Hash([i; 32])).collect();
        leaves[2] = leaf.entry.leaf_hash();
        let origin = Origin::for_club("x.example", &leaf.club).unwrap();
        let cp = Checkpoint::new(origin.clone(), 6, root_of(&leaves));
        let p = inclusion_proof(&MemoryHashes::from_leaves(&leaves), 2, 6).unwrap();
        (
            cp,
            HandLogProof::new(origin.as_str(), &b.hand, salt, 2, 6, p),
        )
    }

    #[test]
    fn a_hand_proof_holds_only_for_its_hand_log_and_size() {
        let b = bundle();
        let (cp, proof) = setup(&b);
        let leaf = proof.verify(&b, &cp, None).unwrap();
        assert_eq!(leaf.seq + 1, b.records.len() as u64);
        assert_eq!(Some(&leaf.event_hash), b.records.last().map(|r| &r.hash));

        let mut other = proof.clone();
        other.hand = "another".into();
        assert!(matches!(
            other.verify(&b, &cp, None),
            Err(HandProofError::OtherHand { .. })
        ));
        let mut other = proof.clone();
        other.origin = "elsewhere/log".into();
        assert!(matches!(
            other.verify(&b, &cp, None),
            Err(HandProofError::OtherLog { .. })
        ));
        // The checkpoint of another club's log, with a proof that names it.
        let foreign = Checkpoint::new(Origin::for_club("x.example", "kish").unwrap(), 6, cp.root);
        let mut other = proof.clone();
        other.origin = foreign.origin.to_string();
        assert!(matches!(
            other.verify(&b, &foreign, None),
            Err(HandProofError::OtherClub { .. })
        ));
        let bigger = Checkpoint::new(cp.origin.clone(), 7, cp.root);
        assert!(matches!(
            proof.verify(&b, &bigger, None),
            Err(HandProofError::OtherSize { .. })
        ));
        let mut other = proof.clone();
        other.version = 2;
        assert!(matches!(
            other.verify(&b, &cp, None),
            Err(HandProofError::Version { .. })
        ));
        let mut other = proof.clone();
        other.salt = HandSalt([8; 32]);
        assert!(matches!(
            other.verify(&b, &cp, None),
            Err(HandProofError::Proof(_))
        ));
        // The salt never shows in what the proof prints.
        assert!(!format!("{proof:?}").contains("0909"));
    }
}
