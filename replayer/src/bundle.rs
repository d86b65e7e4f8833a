//! The hand bundle, version 1: one self-contained JSON document with everything needed to
//! verify a hand offline. Specified in `docs/BUNDLE.md`, described by the JSON Schema
//! `docs/bundle-v1.schema.json`.
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

/// The `format` field of every bundle.
pub const BUNDLE_FORMAT: &str = "persian-cards/hand-bundle";
/// The bundle format version.
pub const BUNDLE_VERSION: u32 = 1;

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
    /// Always [`BUNDLE_VERSION`].
    pub version: u32,
    /// The hand's id.
    pub hand: String,
    /// The game.
    pub game: GameId,
    /// How the hand ended.
    pub status: HandStatus,
    /// The signers' public keys.
    pub keys: Vec<BundleKey>,
    /// Every event of the hand, in order.
    pub records: Vec<Record>,
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
        }
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
    /// Must be [`BUNDLE_VERSION`].
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
}
