//! The hand bundle, versions 1 and 2: one self-contained JSON document with everything
//! needed to verify a hand offline. Specified in `docs/BUNDLE.md`, described by the JSON
//! Schemas `docs/bundle-v1.schema.json` and `docs/bundle-v2.schema.json`. Version 2 is
//! version 1 with one more member, `log_proof`: the inclusion proof of the hand's last
//! event in its club's transparency log against a signed checkpoint
//! (`docs/TRANSPARENCY.md` §7); a bundle without one is written as version 1.
//!
//! ```json
//! { "format": "persian-cards/hand-bundle", "version": 1,
//!   "hand": "…", "game": "bist-o-yek", "status": "completed",
//!   "keys": [ { "key_id": "ed25519:…", "public_key": "…" } ],
//!   "records": [ { "event": {…}, "hash": "…", "signer": "ed25519:…", "sig": "…" }, … ] }
//! ```
//!
//! Everything about the hand (club, table, rules, seats, commitments, client seeds, revealed
//! seeds, every action and effect, the outcome) is inside the signed events; the header only
//! repeats the hand id, game and status for convenience, and the verifier checks that they
//! agree with the events. `keys` carries the public keys of the signers; trust in them comes
//! from outside (`replayer verify --key`).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::dealer::HandStatus;
use crate::engine::GameId;
use crate::log::{Hash, KeyId, PublicKey, Record, Signature};
use crate::tlog::HandSalt;

/// The `format` field of every bundle.
pub const BUNDLE_FORMAT: &str = "persian-cards/hand-bundle";
/// The bundle format version of a bundle without a log proof.
pub const BUNDLE_VERSION: u32 = 1;
/// The bundle format version of a bundle that carries a log proof (`log_proof`).
pub const BUNDLE_VERSION_LOG_PROOF: u32 = 2;

/// A bundle's proof that its hand is in its club's transparency log (bundle version 2,
/// `docs/BUNDLE.md` §1 and `docs/TRANSPARENCY.md` §7): the leaf of the hand's last event,
/// recomputed from the bundle under `salt`, is leaf `leaf_index` of the tree the signed
/// `checkpoint` heads, by the `inclusion` proof. The log's origin and the tree size are the
/// checkpoint's. `salt` is the hand's secret: only the bundle's readers receive it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BundleLogProof {
    /// The signed checkpoint (a C2SP signed note), as the log served it.
    pub checkpoint: String,
    /// The index of the leaf of the hand's last event.
    pub leaf_index: u64,
    /// The hand's salt (64 hex characters).
    pub salt: HandSalt,
    /// The inclusion proof of that leaf in the checkpoint's tree, bottom up.
    pub inclusion: Vec<Hash>,
}

/// A signer's public key as carried in a bundle.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BundleKey {
    /// The key's id.
    pub key_id: KeyId,
    /// The key.
    pub public_key: PublicKey,
}

/// A hand bundle, as written.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Bundle {
    /// Always [`BUNDLE_FORMAT`].
    pub format: String,
    /// [`BUNDLE_VERSION`], or [`BUNDLE_VERSION_LOG_PROOF`] with a log proof.
    pub version: u32,
    /// The hand's id.
    pub hand: String,
    /// The game.
    pub game: GameId,
    /// How the hand ended.
    pub status: HandStatus,
    /// The signers' public keys (and the key that signed the checkpoint of `log_proof`).
    pub keys: Vec<BundleKey>,
    /// Every event of the hand, in order.
    pub records: Vec<Record>,
    /// Version 2: the inclusion proof of the last event in the club's log.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub log_proof: Option<BundleLogProof>,
}

impl Bundle {
    /// A bundle of a hand's records, carrying the given signer keys.
    pub fn new(
        hand: &str,
        game: GameId,
        status: HandStatus,
        keys: Vec<PublicKey>,
        records: Vec<Record>,
    ) -> Bundle {
        Bundle {
            format: BUNDLE_FORMAT.to_string(),
            version: BUNDLE_VERSION,
            hand: hand.to_string(),
            game,
            status,
            keys: keys
                .into_iter()
                .map(|k| BundleKey {
                    key_id: k.key_id(),
                    public_key: k,
                })
                .collect(),
            records,
            log_proof: None,
        }
    }

    /// This bundle as version 2, carrying `proof`; `signer` (the key that signed the
    /// checkpoint) is added to `keys` if it is not there.
    pub fn with_log_proof(mut self, proof: BundleLogProof, signer: Option<PublicKey>) -> Bundle {
        if let Some(k) = signer {
            if !self.keys.iter().any(|b| b.public_key == k) {
                self.keys.push(BundleKey {
                    key_id: k.key_id(),
                    public_key: k,
                });
            }
        }
        self.version = BUNDLE_VERSION_LOG_PROOF;
        self.log_proof = Some(proof);
        self
    }
}

/// A record as read for verification: the event stays raw JSON, so that its hash is computed
/// over exactly the bytes that were given.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawRecord {
    /// The event, as given.
    pub event: Value,
    /// The recorded hash.
    pub hash: Hash,
    /// The recorded signer.
    pub signer: KeyId,
    /// The recorded signature.
    pub sig: Signature,
}

/// A bundle as read for verification.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawBundle {
    /// Must be [`BUNDLE_FORMAT`].
    pub format: String,
    /// [`BUNDLE_VERSION`] or [`BUNDLE_VERSION_LOG_PROOF`].
    pub version: u32,
    /// The hand's id.
    pub hand: String,
    /// The game.
    pub game: GameId,
    /// How the hand ended.
    pub status: HandStatus,
    /// The signers' public keys.
    pub keys: Vec<BundleKey>,
    /// The records.
    pub records: Vec<RawRecord>,
    /// Version 2 only (and there required): the log proof.
    #[serde(default)]
    pub log_proof: Option<BundleLogProof>,
}
