//! The event log: events, their canonical encoding, the hash chain and signatures.
//!
//! Format version 1, specified in `docs/EVENT-LOG.md` with test vectors in
//! `docs/vectors/event-log-v1.json`. In short:
//!
//! * An [`Event`] is a JSON object. Its **canonical bytes** are its RFC 8785 (JCS)
//!   serialization; every number in it must be an integer of magnitude at most 2^53 − 1.
//! * Its **hash** is `SHA-256("persian-cards/event/v1" || 0x00 || canonical bytes)`. The event
//!   holds the previous event's hash in `prev` (64 zeros for event 0), so the hashes chain.
//! * The service signs `"persian-cards/event-signature/v1" || 0x00 || hash` with Ed25519; a
//!   [`Record`] is the event with its hash, the signer's [`KeyId`] and the signature.
//! * A player who registered a key may sign their own action: the message is
//!   `"persian-cards/action/v1" || 0x00 || JCS({"action", "actor", "hand", "prev", "seq"})`,
//!   so it pins the history the player saw, and the signature goes inside the event
//!   (`player_sig`), so the service's hash covers it.

use std::fmt;

use ed25519_dalek::{Signer, SigningKey, VerifyingKey};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::cards::DeckKind;
use crate::engine::{Actor, Award, GameId, SeatIndex};
use crate::seed_chain::{ChainSeed, SeedChainRef};
use crate::shuffle::{ClientSeed, Commitment};

/// Version of the event format.
pub const EVENT_FORMAT_VERSION: u32 = 1;

const EVENT_HASH_TAG: &[u8] = b"persian-cards/event/v1\0";
const EVENT_SIG_TAG: &[u8] = b"persian-cards/event-signature/v1\0";
const ACTION_SIG_TAG: &[u8] = b"persian-cards/action/v1\0";

/// The largest integer the canonical encoding allows (I-JSON, RFC 7493).
pub const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// A problem with the log's encoding, hashes or signatures.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LogError {
    /// A number is not an integer or is too large for the canonical encoding.
    #[error("number {0} at {1} is not an integer between -(2^53-1) and 2^53-1")]
    BadNumber(String, String),
    /// JSON nested deeper than the log allows.
    #[error("JSON nested deeper than {0} levels")]
    TooDeep(usize),
    /// The canonical encoding failed.
    #[error("canonical encoding failed: {0}")]
    Encoding(String),
    /// A hex field has the wrong length or characters.
    #[error("{what}: expected {len} hex characters")]
    BadHex {
        /// Which field.
        what: &'static str,
        /// Expected number of hex characters.
        len: usize,
    },
    /// A public key is not a valid Ed25519 point.
    #[error("not a valid Ed25519 public key")]
    BadPublicKey,
}

/// How deep JSON may nest inside an event.
pub const MAX_DEPTH: usize = 32;

macro_rules! hex_bytes {
    ($name:ident, $len:expr, $what:expr, $doc:expr) => {
        #[doc = $doc]
        #[derive(Clone, Copy, PartialEq, Eq, Hash)]
        pub struct $name(pub [u8; $len]);

        impl $name {
            /// Lowercase hex.
            pub fn to_hex(&self) -> String {
                hex::encode(self.0)
            }

            /// Parse hex (either case).
            pub fn from_hex(s: &str) -> Result<Self, LogError> {
                let mut out = [0u8; $len];
                hex::decode_to_slice(s, &mut out).map_err(|_| LogError::BadHex {
                    what: $what,
                    len: 2 * $len,
                })?;
                Ok($name(out))
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.to_hex())
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}({})", stringify!($name), self.to_hex())
            }
        }

        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                // On the stack: every event's hashes and signature are written at least
                // twice (to be hashed, to be stored).
                let mut buf = [0u8; 2 * $len];
                hex::encode_to_slice(self.0, &mut buf).map_err(serde::ser::Error::custom)?;
                s.serialize_str(std::str::from_utf8(&buf).map_err(serde::ser::Error::custom)?)
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
                $name::from_hex(&s).map_err(serde::de::Error::custom)
            }
        }
    };
}

hex_bytes!(
    Hash,
    32,
    "hash",
    "A SHA-256 hash, written as 64 lowercase hex characters."
);
hex_bytes!(
    Signature,
    64,
    "signature",
    "An Ed25519 signature, written as 128 lowercase hex characters."
);

impl Hash {
    /// The `prev` of event 0: 32 zero bytes.
    pub const ZERO: Hash = Hash([0; 32]);
}

/// Identifies a public key: `ed25519:` and the first 16 hex characters of SHA-256 of the
/// 32-byte public key.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize, PartialOrd, Ord)]
#[serde(transparent)]
pub struct KeyId(pub String);

impl fmt::Display for KeyId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// An Ed25519 public key, written as 64 lowercase hex characters.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct PublicKey(pub VerifyingKey);

impl PublicKey {
    /// Parse 64 hex characters.
    pub fn from_hex(s: &str) -> Result<Self, LogError> {
        let mut b = [0u8; 32];
        hex::decode_to_slice(s.trim(), &mut b).map_err(|_| LogError::BadHex {
            what: "public key",
            len: 64,
        })?;
        VerifyingKey::from_bytes(&b)
            .map(PublicKey)
            .map_err(|_| LogError::BadPublicKey)
    }

    /// Lowercase hex.
    pub fn to_hex(&self) -> String {
        hex::encode(self.0.as_bytes())
    }

    /// The key's id.
    pub fn key_id(&self) -> KeyId {
        let d = Sha256::digest(self.0.as_bytes());
        KeyId(format!("ed25519:{}", hex::encode(&d[..8])))
    }

    /// Verify a signature over `msg` (strict: rejects malleable and small-order forms).
    pub fn verify(&self, msg: &[u8], sig: &Signature) -> bool {
        let s = ed25519_dalek::Signature::from_bytes(&sig.0);
        self.0.verify_strict(msg, &s).is_ok()
    }
}

impl fmt::Debug for PublicKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PublicKey({})", self.to_hex())
    }
}

impl Serialize for PublicKey {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_hex())
    }
}

impl<'de> Deserialize<'de> for PublicKey {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        PublicKey::from_hex(&s).map_err(serde::de::Error::custom)
    }
}

/// An Ed25519 signing key: the service's, or a player's (in tests and clients).
pub struct SigningKeyPair {
    key: SigningKey,
}

impl fmt::Debug for SigningKeyPair {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SigningKeyPair({})", self.key_id())
    }
}

impl SigningKeyPair {
    /// A fresh key from the operating system's CSPRNG.
    pub fn generate() -> Result<Self, getrandom::Error> {
        let mut secret = [0u8; 32];
        getrandom::fill(&mut secret)?;
        Ok(Self::from_secret(secret))
    }

    /// A key from its 32-byte secret.
    pub fn from_secret(secret: [u8; 32]) -> Self {
        SigningKeyPair {
            key: SigningKey::from_bytes(&secret),
        }
    }

    /// The 32-byte secret (for the key file; never log it).
    pub fn secret(&self) -> [u8; 32] {
        self.key.to_bytes()
    }

    /// The public key.
    pub fn public(&self) -> PublicKey {
        PublicKey(self.key.verifying_key())
    }

    /// The key id.
    pub fn key_id(&self) -> KeyId {
        self.public().key_id()
    }

    /// Sign raw bytes.
    pub fn sign(&self, msg: &[u8]) -> Signature {
        Signature(self.key.sign(msg).to_bytes())
    }
}

/// A seat as recorded in the hand's first event.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatInfo {
    /// The seat.
    pub seat: SeatIndex,
    /// The player's name at the table.
    pub player: String,
    /// The player's registered Ed25519 key, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub public_key: Option<PublicKey>,
}

/// A revealed server seed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RevealedSeed {
    /// Which shuffle of the hand.
    pub shuffle: u32,
    /// The server seed, 64 hex characters.
    pub server_seed: String,
}

/// The opening of a private action: its event's seq, the salt and the action. Secret until
/// the hand's reveal: its `Debug` shows the seq only.
#[derive(Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpenedInput {
    /// The `private_action` event it opens.
    pub seq: u64,
    /// The 32-byte salt.
    pub salt: Hash,
    /// The action, as the game's JSON.
    pub action: Value,
}

impl fmt::Debug for OpenedInput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OpenedInput")
            .field("seq", &self.seq)
            .finish_non_exhaustive()
    }
}

/// Domain tag of a private input's commitment.
pub const INPUT_COMMITMENT_TAG: &[u8] = b"persian-cards/private-input/v1";

/// The commitment to a private action: `SHA-256("persian-cards/private-input/v1" || 0x00 ||
/// salt || canonical({"action": ACTION, "actor": ACTOR, "hand": HAND, "seq": SEQ}))`. The
/// random 32-byte salt makes it impossible to confirm a guess of the choice while the hand
/// runs; hand, seq and actor bind it to its place.
pub fn input_commitment(
    hand: &str,
    seq: u64,
    actor: Actor,
    salt: &Hash,
    action: &Value,
) -> Result<Hash, LogError> {
    let body = serde_json::json!({ "action": action, "actor": actor, "hand": hand, "seq": seq });
    let bytes = canonical_bytes(&body)?;
    let mut h = Sha256::new();
    h.update(INPUT_COMMITMENT_TAG);
    h.update([0u8]);
    h.update(salt.0);
    h.update(&bytes);
    Ok(Hash(h.finalize().into()))
}

/// A penalty ruling on an earlier hand of the match, carried into the match state before a
/// hand (`hand_started`'s `adjustments`, `docs/EVENT-LOG.md` §3.1): the dispute, the seq and
/// hash of its signed ruling entry (`docs/DISPUTES.md`, "The record"), and the award the
/// game's rules made of the penalty, as the entry records it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Adjustment {
    /// The dispute.
    pub dispute: String,
    /// The ruling entry's seq in the dispute's record.
    pub seq: u64,
    /// The ruling entry's hash.
    pub hash: Hash,
    /// The award carried: who gains how many points.
    pub award: Award,
}

/// The link from a hand to the previous hand of its match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PrevHand {
    /// The previous hand's id.
    pub hand: String,
    /// The hash of its last event (`seeds_revealed`).
    pub hash: Hash,
}

/// A hand's rule on player signatures, in its first event: `"required"` (the only value
/// written; a hand without the member takes them where given, as optional).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PlayerSignatures {
    /// Every action by a seat carries its player's signature.
    Required,
}

/// What happened. Tagged by `type`.
// `hand_started` is the largest body (its header, and the adjustments carried into it); a
// hand holds one, and a few hundred events at most, so the others' unused bytes cost little,
// while boxing it would reach into every match on a body across the workspace.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Body {
    /// Event 0: the hand, its house rules and seats, and the commitment to shuffle 0.
    HandStarted {
        /// The club.
        club: String,
        /// The table.
        table: String,
        /// Which hand of the table's match (1, 2, …).
        hand_no: u64,
        /// The game.
        game: GameId,
        /// The house rules in force (normalized, every option written out).
        rules: Value,
        /// The match state the hand starts from (balances or scores, dealer, banker …).
        match_state: Value,
        /// The seats.
        seats: Vec<SeatInfo>,
        /// The deck.
        deck: DeckKind,
        /// The shuffle algorithm's version (`docs/SHUFFLE.md`).
        shuffle_version: u32,
        /// Commitment to the server seed of shuffle 0.
        commitment: Commitment,
        /// Whether seats may add client seeds before each shuffle.
        client_entropy: bool,
        /// The previous hand of the match, for every hand but a match's first: its id and
        /// the hash of its last event. `match_state` must be what that hand's verified end
        /// says (`docs/BUNDLE.md`, "Match files"). Absent in a match's first hand.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        prev_hand: Option<PrevHand>,
        /// The seed chain the hand is dealt from (`docs/SHUFFLE.md` §12): the chain's anchor
        /// and length as published for the table, and the hand's position in it. Absent for
        /// a hand whose server seeds are drawn one by one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seed_chain: Option<SeedChainRef>,
        /// `"required"`: every action by a seat must carry its player's signature (every
        /// seat then has a registered key). Absent: player signatures are optional.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        player_signatures: Option<PlayerSignatures>,
        /// The penalty rulings on earlier hands of the match carried into the match state
        /// before this hand, in the order applied: `match_state` is the state the previous
        /// hand left with each award applied (`docs/BUNDLE.md` §8, rule 7). Absent when
        /// none.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        adjustments: Vec<Adjustment>,
    },
    /// A commitment to the server seed of a further shuffle (1, 2, …), published right after
    /// the previous shuffle was used, before anyone can know whether it will be needed.
    ShuffleCommitted {
        /// The shuffle's number.
        shuffle: u32,
        /// SHA-256 commitment to its server seed.
        commitment: Commitment,
    },
    /// A seat's client seed for a shuffle.
    ClientSeed {
        /// The shuffle it enters.
        shuffle: u32,
        /// The seat.
        seat: SeatIndex,
        /// The seed.
        seed: ClientSeed,
    },
    /// A committed shuffle was used: its order (secret until the reveal) entered the hand.
    Shuffled {
        /// The shuffle's number.
        shuffle: u32,
        /// Why the engine asked for it.
        reason: String,
        /// How many cards it ordered.
        cards: u32,
        /// The engine's public effects.
        effects: Vec<Value>,
        /// Where its cards came from, by public names: `{"deck": DECK}` or `{"gather":
        /// [CardRef, …]}`. Absent in hands written before sources were recorded.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        source: Option<crate::engine::ShuffleSource>,
        /// On a table that takes client seeds: the seats asked for one that gave none (the
        /// shuffle went ahead without them). Absent in hands written before it was recorded.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        missing: Option<Vec<SeatIndex>>,
    },
    /// An action by a seat or the service, accepted by the engine.
    Action {
        /// Who acted.
        actor: Actor,
        /// The action, as the game's JSON.
        action: Value,
        /// The engine's public effects.
        effects: Vec<Value>,
    },
    /// A seat's secret choice (Sheytoonak's arrangement of a hand, Shelem's laid-away
    /// cards), accepted by the engine: in the log only as a salted commitment to the action
    /// (see [`input_commitment`]); the plaintext and salt are opened in `seeds_revealed`.
    PrivateAction {
        /// Who acted.
        actor: Actor,
        /// The commitment to the action.
        commitment: Hash,
        /// What may be said of it while the hand runs (the engine's public part, e.g.
        /// `{"type": "arrange"}`). Its effects are not in the log: they follow from the
        /// opening.
        public: Value,
    },
    /// The hand is over: its outcome and the match state that follows.
    HandEnded {
        /// The outcome (points, payments).
        outcome: Value,
        /// The match after this hand.
        next_match: Value,
    },
    /// The hand was abandoned before its end; its seeds are revealed all the same.
    Abandoned {
        /// Why.
        reason: String,
    },
    /// The last event: every server seed of the hand, and the opening of every private
    /// action.
    SeedsRevealed {
        /// One per committed shuffle, in order.
        seeds: Vec<RevealedSeed>,
        /// One per `private_action`, in `seq` order (absent when there were none).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        inputs: Vec<OpenedInput>,
        /// For a hand dealt from a seed chain, its chain seed `c_position`, from which every
        /// server seed above derives; absent otherwise.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        chain_seed: Option<ChainSeed>,
    },
}

impl Body {
    /// The `type` tag.
    pub fn kind(&self) -> &'static str {
        match self {
            Body::HandStarted { .. } => "hand_started",
            Body::ShuffleCommitted { .. } => "shuffle_committed",
            Body::ClientSeed { .. } => "client_seed",
            Body::Shuffled { .. } => "shuffled",
            Body::Action { .. } => "action",
            Body::PrivateAction { .. } => "private_action",
            Body::HandEnded { .. } => "hand_ended",
            Body::Abandoned { .. } => "abandoned",
            Body::SeedsRevealed { .. } => "seeds_revealed",
        }
    }
}

/// A player's own signature over their action.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerSig {
    /// The signing player's key id (of the key in the hand's first event).
    pub key_id: KeyId,
    /// Ed25519 signature over [`action_message`].
    pub sig: Signature,
}

/// One event of a hand's stream.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Event {
    /// Event format version (1).
    pub v: u32,
    /// The hand's id.
    pub hand: String,
    /// Position in the hand's stream, from 0.
    pub seq: u64,
    /// Hash of the previous event (zeros for event 0).
    pub prev: Hash,
    /// When the service appended it, Unix milliseconds.
    pub time_ms: u64,
    /// What happened.
    pub body: Body,
    /// The acting player's own signature, for actions by a seat with a registered key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player_sig: Option<PlayerSig>,
}

/// An event with its hash and the service's signature: one entry of the log and of the
/// bundle.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// The event.
    pub event: Event,
    /// Its hash.
    pub hash: Hash,
    /// The signing key's id.
    pub signer: KeyId,
    /// The service's signature over the hash.
    pub sig: Signature,
}

/// Check that every number in `v` is an integer the canonical encoding can carry, and that
/// nesting stays within [`MAX_DEPTH`].
pub fn check_json(v: &Value) -> Result<(), LogError> {
    /// What is wrong, and the path to it from the innermost step outwards.
    enum Bad {
        Deep,
        Number(String, Vec<String>),
    }
    // The path is built only on the way back from an error: a good value costs no
    // allocation.
    fn walk(v: &Value, depth: usize) -> Result<(), Bad> {
        if depth > MAX_DEPTH {
            return Err(Bad::Deep);
        }
        match v {
            Value::Number(n) => {
                let ok = n.as_u64().is_some_and(|u| u <= MAX_SAFE_INTEGER)
                    || n.as_i64()
                        .is_some_and(|i| i.unsigned_abs() <= MAX_SAFE_INTEGER);
                if ok {
                    Ok(())
                } else {
                    Err(Bad::Number(
                        n.to_string().chars().take(40).collect(),
                        Vec::new(),
                    ))
                }
            }
            Value::Array(a) => {
                for (i, x) in a.iter().enumerate() {
                    walk(x, depth + 1).map_err(|b| b.within(|| i.to_string()))?;
                }
                Ok(())
            }
            Value::Object(o) => {
                for (k, x) in o {
                    walk(x, depth + 1).map_err(|b| b.within(|| k.chars().take(40).collect()))?;
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }
    impl Bad {
        fn within(self, step: impl FnOnce() -> String) -> Bad {
            match self {
                Bad::Deep => Bad::Deep,
                Bad::Number(n, mut path) => {
                    path.push(step());
                    Bad::Number(n, path)
                }
            }
        }
    }
    walk(v, 0).map_err(|b| match b {
        Bad::Deep => LogError::TooDeep(MAX_DEPTH),
        Bad::Number(n, path) => {
            let path: String = path.iter().rev().map(|s| format!("/{s}")).collect();
            LogError::BadNumber(
                n,
                if path.is_empty() {
                    "/".to_string()
                } else {
                    path
                },
            )
        }
    })
}

/// RFC 8785 canonical bytes of a JSON value (after [`check_json`]).
pub fn canonical_bytes(v: &Value) -> Result<Vec<u8>, LogError> {
    check_json(v)?;
    canonical_bytes_unchecked(v)
}

/// The hash of an event given as JSON: `SHA-256(tag || 0x00 || JCS(event))`.
pub fn hash_event_json(event: &Value) -> Result<Hash, LogError> {
    let bytes = canonical_bytes(event)?;
    Ok(hash_canonical(&bytes))
}

/// The hash of an event's canonical bytes (already checked with [`check_json`]).
pub fn hash_canonical(bytes: &[u8]) -> Hash {
    let mut h = Sha256::new();
    h.update(EVENT_HASH_TAG);
    h.update(bytes);
    Hash(h.finalize().into())
}

/// Canonical bytes of JSON already checked with [`check_json`].
///
/// RFC 8785 (JCS) output is serde_json's compact output whenever every object's keys
/// come in UTF-16 code-unit order and every number is an integer within +-(2^53 - 1):
/// both escape exactly `"`, `\` and the control characters (as `\b \t \n \f \r`, the
/// others as `\u00xx` in lower case) and write everything else as it is, and both write
/// such an integer as its plain decimal digits. serde_json's map keeps keys sorted by
/// their UTF-8 bytes, which is the UTF-16 order as long as no key holds a character
/// beyond U+FFFF. So the value takes that path when [`jcs_ordered`] finds its keys in
/// order; otherwise (such a key, or a serde_json built to keep insertion order) it goes
/// through `serde_jcs`, which sorts. The two agree on every value tested
/// (`canonical_fast_path_is_jcs` and the vectors in `docs/`); the fast one is several
/// times quicker, and every event is encoded once to be hashed.
pub fn canonical_bytes_unchecked(v: &Value) -> Result<Vec<u8>, LogError> {
    if jcs_ordered(v) {
        serde_json::to_vec(v).map_err(|e| LogError::Encoding(e.to_string()))
    } else {
        serde_jcs::to_vec(v).map_err(|e| LogError::Encoding(e.to_string()))
    }
}

/// True when every object in `v` iterates its keys in strictly increasing UTF-16 order
/// as checked by comparing their UTF-8 bytes, with no key holding a character beyond
/// U+FFFF (where the two orders part).
fn jcs_ordered(v: &Value) -> bool {
    match v {
        Value::Array(a) => a.iter().all(jcs_ordered),
        Value::Object(o) => {
            let mut prev: Option<&str> = None;
            for (k, x) in o {
                // A 4-byte UTF-8 sequence (lead byte 0xF0..) is a character beyond U+FFFF.
                if k.bytes().any(|b| b >= 0xF0) || prev.is_some_and(|p| p >= k.as_str()) {
                    return false;
                }
                if !jcs_ordered(x) {
                    return false;
                }
                prev = Some(k);
            }
            true
        }
        _ => true,
    }
}

const BATCH_TAG: &[u8] = b"persian-cards/signature-batch/v1\0";

/// Verify many signatures at once (Ed25519 batch verification): true only if every
/// signature would pass [`PublicKey::verify`] (strict) one by one. On false, check them one
/// by one to find the bad one (false is also the answer for any signature in a form the
/// batch does not take: those are left to the strict check).
///
/// The batch takes a signature only in the form strict verification accepts: `S` below the
/// group order, `R` a canonical encoding of a point that is not of small order, and a key
/// that is not weak and has no small-order component. Each signature `i` gets an odd
/// 128-bit coefficient `z_i` from a ChaCha20 stream seeded with a SHA-512 of every input,
/// and the batch holds when
/// `[-Σ z_i·S_i] B + Σ z_i·R_i + Σ_A (Σ_{i by A} z_i·k_i) A` is the identity (the
/// cofactorless equation; the keys' terms merged, one per distinct key, which is what makes
/// a hand's batch cheap: a hand has one signer). `docs/EVENT-LOG.md` §8 says why this
/// gives the strict verdict.
pub fn verify_batch(items: &[(Vec<u8>, Signature, PublicKey)]) -> bool {
    use curve25519_dalek::constants::ED25519_BASEPOINT_POINT;
    use curve25519_dalek::edwards::{CompressedEdwardsY, EdwardsPoint};
    use curve25519_dalek::scalar::Scalar;
    use curve25519_dalek::traits::{IsIdentity, VartimeMultiscalarMul};
    use rand_core::{RngCore, SeedableRng};
    use sha2::Sha512;

    if items.is_empty() {
        return true;
    }
    // The distinct keys, each checked once: not weak, no small-order component.
    let mut keys: Vec<(&PublicKey, Scalar)> = Vec::new();
    let mut transcript = Sha512::new();
    transcript.update(BATCH_TAG);
    let mut terms: Vec<(EdwardsPoint, Scalar, Scalar, usize)> = Vec::with_capacity(items.len());
    for (msg, sig, key) in items {
        let key_index = match keys.iter().position(|(k, _)| *k == key) {
            Some(i) => i,
            None => {
                if !batchable_key(key) {
                    return false;
                }
                keys.push((key, Scalar::ZERO));
                keys.len() - 1
            }
        };
        let mut r_bytes = [0u8; 32];
        let mut s_bytes = [0u8; 32];
        r_bytes.copy_from_slice(&sig.0[..32]);
        s_bytes.copy_from_slice(&sig.0[32..]);
        let Some(s) = Option::<Scalar>::from(Scalar::from_canonical_bytes(s_bytes)) else {
            return false;
        };
        if !canonical_point_encoding(&r_bytes) {
            return false;
        }
        let Some(r) = CompressedEdwardsY(r_bytes).decompress() else {
            return false;
        };
        if r.is_small_order() {
            return false;
        }
        let mut h = Sha512::new();
        h.update(r_bytes);
        h.update(key.0.as_bytes());
        h.update(msg);
        let hram: [u8; 64] = h.finalize().into();
        transcript.update(hram);
        transcript.update(s_bytes);
        terms.push((r, s, Scalar::from_bytes_mod_order_wide(&hram), key_index));
    }
    let digest: [u8; 64] = transcript.finalize().into();
    let mut seed = [0u8; 32];
    seed.copy_from_slice(&digest[..32]);
    let mut rng = rand_chacha::ChaCha20Rng::from_seed(seed);
    let mut scalars: Vec<Scalar> = Vec::with_capacity(terms.len() + keys.len() + 1);
    let mut points: Vec<EdwardsPoint> = Vec::with_capacity(terms.len() + keys.len() + 1);
    let mut b = Scalar::ZERO;
    for (r, s, k, key_index) in terms {
        let mut z = [0u8; 16];
        rng.fill_bytes(&mut z);
        z[0] |= 1;
        let z = Scalar::from(u128::from_le_bytes(z));
        b -= z * s;
        if let Some(entry) = keys.get_mut(key_index) {
            entry.1 += z * k;
        }
        scalars.push(z);
        points.push(r);
    }
    scalars.push(b);
    points.push(ED25519_BASEPOINT_POINT);
    for (key, coefficient) in keys {
        scalars.push(coefficient);
        points.push(key.0.to_edwards());
    }
    EdwardsPoint::vartime_multiscalar_mul(scalars, points).is_identity()
}

/// A key the batch takes: not weak (of small order) and without a small-order component.
/// The answer is remembered for the last keys asked about (a service has one or a few):
/// the check costs a scalar multiplication, as much as verifying a signature.
fn batchable_key(key: &PublicKey) -> bool {
    use std::sync::{Mutex, OnceLock};
    const REMEMBERED: usize = 64;
    static TORSION_FREE: OnceLock<Mutex<Vec<[u8; 32]>>> = OnceLock::new();
    let bytes = *key.0.as_bytes();
    let known = TORSION_FREE.get_or_init(|| Mutex::new(Vec::new()));
    if known.lock().is_ok_and(|k| k.contains(&bytes)) {
        return true;
    }
    if key.0.is_weak() || !key.0.to_edwards().is_torsion_free() {
        return false;
    }
    if let Ok(mut k) = known.lock() {
        if k.len() >= REMEMBERED {
            k.remove(0);
        }
        k.push(bytes);
    }
    true
}

/// A point's 32 bytes are the canonical encoding: the y coordinate (the low 255 bits,
/// little-endian) below p = 2^255 - 19. (x = 0 with the sign bit set is the other
/// non-canonical form; its points, y = ±1, are of small order and refused as such.)
fn canonical_point_encoding(bytes: &[u8; 32]) -> bool {
    // y >= p exactly when the low 255 bits are all ones but for the lowest byte, which is
    // at least 0xed (p = 2^255 - 19 = 0x7fff…ffed).
    let high_ones = bytes[1..31].iter().all(|&b| b == 0xff) && bytes[31] & 0x7f == 0x7f;
    !(high_ones && bytes[0] >= 0xed)
}

/// The JSON form of an event.
pub fn event_json(event: &Event) -> Result<Value, LogError> {
    serde_json::to_value(event).map_err(|e| LogError::Encoding(e.to_string()))
}

/// The hash of an event.
pub fn hash_event(event: &Event) -> Result<Hash, LogError> {
    hash_event_json(&event_json(event)?)
}

/// The bytes the service signs for an event hash.
pub fn signature_message(hash: &Hash) -> Vec<u8> {
    let mut m = Vec::with_capacity(EVENT_SIG_TAG.len() + 32);
    m.extend_from_slice(EVENT_SIG_TAG);
    m.extend_from_slice(&hash.0);
    m
}

/// Hash and sign an event.
pub fn seal(event: Event, key: &SigningKeyPair) -> Result<Record, LogError> {
    let hash = hash_event(&event)?;
    let sig = key.sign(&signature_message(&hash));
    Ok(Record {
        event,
        hash,
        signer: key.key_id(),
        sig,
    })
}

/// The bytes a player signs for an action: the tag, then the JCS of
/// `{"action": …, "actor": …, "hand": …, "prev": …, "seq": …}` where `seq` is the sequence
/// number the action's event will have and `prev` the hash of the event before it (the
/// hand's head as the player saw it), so the signature pins the history the player acted on.
pub fn action_message(
    hand: &str,
    seq: u64,
    prev: &Hash,
    actor: Actor,
    action: &Value,
) -> Result<Vec<u8>, LogError> {
    let v = serde_json::json!({ "hand": hand, "seq": seq, "prev": prev, "actor": actor, "action": action });
    let mut m = ACTION_SIG_TAG.to_vec();
    m.extend(canonical_bytes(&v)?);
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_ids_are_stable_and_short() {
        let k = SigningKeyPair::from_secret([7; 32]);
        let id = k.key_id();
        assert!(id.0.starts_with("ed25519:"));
        assert_eq!(id.0.len(), "ed25519:".len() + 16);
        assert_eq!(SigningKeyPair::from_secret([7; 32]).key_id(), id);
        assert_ne!(SigningKeyPair::from_secret([8; 32]).key_id(), id);
    }

    #[test]
    fn canonical_bytes_sort_keys_and_reject_floats_and_huge_numbers() {
        let v = serde_json::json!({"b": 1, "a": [true, null, "x"]});
        assert_eq!(
            canonical_bytes(&v).unwrap(),
            br#"{"a":[true,null,"x"],"b":1}"#.to_vec()
        );
        assert!(matches!(
            canonical_bytes(&serde_json::json!({"a": 1.5})),
            Err(LogError::BadNumber(..))
        ));
        assert!(matches!(
            canonical_bytes(&serde_json::json!({"a": [9007199254740992u64]})),
            Err(LogError::BadNumber(..))
        ));
        assert!(canonical_bytes(&serde_json::json!(9007199254740991u64)).is_ok());
        let mut deep = serde_json::json!(1);
        for _ in 0..40 {
            deep = serde_json::json!([deep]);
        }
        assert!(matches!(canonical_bytes(&deep), Err(LogError::TooDeep(_))));
    }

    #[test]
    fn a_bad_number_is_named_by_its_path() {
        let v = serde_json::json!({"a": [1, {"bb": 2.5}]});
        match canonical_bytes(&v) {
            Err(LogError::BadNumber(n, path)) => {
                assert_eq!(n, "2.5");
                assert_eq!(path, "/a/1/bb");
            }
            other => panic!("{other:?}"),
        }
        match canonical_bytes(&serde_json::json!(1e300)) {
            Err(LogError::BadNumber(_, path)) => assert_eq!(path, "/"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn keys_beyond_u_ffff_take_the_sorting_path() {
        // U+1F600 sorts after U+FF61 by code point (and UTF-8), before it in UTF-16.
        let v = serde_json::json!({"\u{ff61}": 1, "\u{1f600}": 2});
        assert!(!jcs_ordered(&v));
        let bytes = canonical_bytes(&v).unwrap();
        assert_eq!(bytes, "{\"\u{1f600}\":2,\"\u{ff61}\":1}".as_bytes());
        assert!(jcs_ordered(
            &serde_json::json!({"a": {"b": [{"c": 1}]}, "é": 2})
        ));
    }

    mod canonical_fast_path {
        use super::*;
        use proptest::prelude::*;

        fn text() -> impl Strategy<Value = String> {
            // Control characters, quotes, backslashes, ASCII, the BMP's high end and
            // characters beyond U+FFFF: everything where escaping or ordering differ.
            proptest::collection::vec(
                prop_oneof![
                    (0u32..0x20).prop_map(|c| char::from_u32(c).unwrap()),
                    Just('"'),
                    Just('\\'),
                    Just('\u{7f}'),
                    Just('\u{2028}'),
                    proptest::char::range('a', 'e'),
                    proptest::char::range('\u{e000}', '\u{e002}'),
                    proptest::char::range('\u{fff0}', '\u{ffff}'),
                    proptest::char::range('\u{10000}', '\u{10002}'),
                    any::<char>(),
                ],
                0..6,
            )
            .prop_map(|cs| cs.into_iter().collect())
        }

        fn json() -> impl Strategy<Value = Value> {
            let leaf = prop_oneof![
                Just(Value::Null),
                any::<bool>().prop_map(Value::Bool),
                (-(MAX_SAFE_INTEGER as i64)..=MAX_SAFE_INTEGER as i64)
                    .prop_map(|i| serde_json::json!(i)),
                (0..=MAX_SAFE_INTEGER).prop_map(|u| serde_json::json!(u)),
                text().prop_map(Value::String),
            ];
            leaf.prop_recursive(4, 48, 6, |inner| {
                prop_oneof![
                    proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                    proptest::collection::vec((text(), inner), 0..6)
                        .prop_map(|kv| Value::Object(kv.into_iter().collect())),
                ]
            })
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(2000))]
            /// The fast path and serde_jcs give the same bytes, whichever path a value takes.
            #[test]
            fn canonical_fast_path_is_jcs(v in json()) {
                let ours = canonical_bytes(&v).unwrap();
                let jcs = serde_jcs::to_vec(&v).unwrap();
                prop_assert_eq!(ours, jcs);
            }
        }
    }

    #[test]
    fn seal_then_verify_and_detect_a_changed_byte() {
        let k = SigningKeyPair::from_secret([1; 32]);
        let e = Event {
            v: 1,
            hand: "h1".into(),
            seq: 0,
            prev: Hash::ZERO,
            time_ms: 1,
            body: Body::Abandoned {
                reason: "test".into(),
            },
            player_sig: None,
        };
        let r = seal(e.clone(), &k).unwrap();
        assert!(k.public().verify(&signature_message(&r.hash), &r.sig));
        let mut e2 = e;
        e2.time_ms = 2;
        let h2 = hash_event(&e2).unwrap();
        assert_ne!(h2, r.hash);
        assert!(!k.public().verify(&signature_message(&h2), &r.sig));
    }

    /// L, the order of the base point, little-endian.
    const GROUP_ORDER: [u8; 32] = [
        0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde,
        0x14, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10,
    ];

    /// Signatures the key's holder crafts in forms strict verification refuses. `r` is the
    /// nonce scalar, `torsion` a small-order point added to `R`; `S = r + k·a`.
    fn crafted(
        key: &SigningKeyPair,
        msg: &[u8],
        r: u64,
        torsion: curve25519_dalek::edwards::EdwardsPoint,
    ) -> Signature {
        use curve25519_dalek::constants::ED25519_BASEPOINT_POINT;
        use curve25519_dalek::scalar::Scalar;
        use sha2::Sha512;
        let a = key.key.to_scalar();
        let r = Scalar::from(r);
        let big_r = (ED25519_BASEPOINT_POINT * r + torsion).compress();
        let mut h = Sha512::new();
        h.update(big_r.as_bytes());
        h.update(key.public().0.as_bytes());
        h.update(msg);
        let k = Scalar::from_bytes_mod_order_wide(&h.finalize().into());
        let s = r + k * a;
        let mut out = [0u8; 64];
        out[..32].copy_from_slice(big_r.as_bytes());
        out[32..].copy_from_slice(s.as_bytes());
        Signature(out)
    }

    fn batch_of(key: &SigningKeyPair, n: u8) -> Vec<(Vec<u8>, Signature, PublicKey)> {
        (0..n)
            .map(|i| {
                let msg = signature_message(&Hash([i; 32]));
                let sig = key.sign(&msg);
                (msg, sig, key.public())
            })
            .collect()
    }

    #[test]
    fn the_batch_accepts_valid_signatures_of_several_keys_and_refuses_one_bad() {
        for seed in 1..=6u8 {
            let k1 = SigningKeyPair::from_secret([seed; 32]);
            let k2 = SigningKeyPair::from_secret([seed.wrapping_mul(37); 32]);
            let mut items = batch_of(&k1, 5 + seed);
            items.extend(batch_of(&k2, seed));
            let last = items.len() - 1;
            items.swap(1, last);
            assert!(verify_batch(&items), "seed {seed}");
            for i in 0..items.len() {
                let mut bad = items.clone();
                bad[i].1 .0[seed as usize % 64] ^= 1 << (i % 8);
                assert!(!verify_batch(&bad), "seed {seed}, changed signature {i}");
                let mut other = items.clone();
                other[i].0[40] ^= 4;
                assert!(!verify_batch(&other), "seed {seed}, changed message {i}");
            }
        }
        assert!(verify_batch(&[]));
    }

    /// The batch never accepts what strict one-by-one verification refuses: a weak (small
    /// order) key, a non-canonical `S` (`S + L`), a small-order `R`, an `R` with a small-order
    /// component, all of which satisfy some form of the verification equation.
    #[test]
    fn the_batch_refuses_every_form_strict_verification_refuses() {
        use curve25519_dalek::constants::EIGHT_TORSION;
        use curve25519_dalek::edwards::EdwardsPoint;
        use curve25519_dalek::scalar::Scalar;
        use curve25519_dalek::traits::Identity;
        let key = SigningKeyPair::from_secret([7; 32]);
        let good = batch_of(&key, 4);

        // A weak key: the identity point. `R = [S]B` satisfies the cofactorless equation.
        let weak =
            PublicKey(VerifyingKey::from_bytes(&EdwardsPoint::identity().compress().0).unwrap());
        let s = Scalar::from(12345u64);
        let mut sig = [0u8; 64];
        sig[..32].copy_from_slice(EdwardsPoint::mul_base(&s).compress().as_bytes());
        sig[32..].copy_from_slice(s.as_bytes());
        let msg = signature_message(&Hash([9; 32]));
        assert!(!weak.verify(&msg, &Signature(sig)));
        let mut items = good.clone();
        items.push((msg.clone(), Signature(sig), weak));
        assert!(!verify_batch(&items), "weak key");

        // A non-canonical S: S + L passes the equation mod L.
        for i in 0..good.len() {
            let (m, sig, k) = &good[i];
            let mut s_bytes = [0u8; 32];
            s_bytes.copy_from_slice(&sig.0[32..]);
            let mut wide = [0u8; 33];
            let l = GROUP_ORDER;
            let mut carry = 0u16;
            for j in 0..32 {
                let v = u16::from(s_bytes[j]) + u16::from(l[j]) + carry;
                wide[j] = (v & 0xff) as u8;
                carry = v >> 8;
            }
            wide[32] = carry as u8;
            assert_eq!(wide[32], 0, "S + L fits in 32 bytes");
            let mut bad = sig.0;
            bad[32..].copy_from_slice(&wide[..32]);
            assert!(!k.verify(m, &Signature(bad)));
            let mut items = good.clone();
            items[i].1 = Signature(bad);
            assert!(!verify_batch(&items), "non-canonical S at {i}");
        }

        // A small-order R by the key's holder: R = identity, S = k·a.
        for (t, torsion) in EIGHT_TORSION.iter().enumerate() {
            let msg = signature_message(&Hash([t as u8 + 20; 32]));
            let sig = crafted(&key, &msg, 0, *torsion);
            assert!(!key.public().verify(&msg, &sig), "small-order R {t}");
            let mut items = good.clone();
            items.insert(t % 4, (msg, sig, key.public()));
            assert!(!verify_batch(&items), "small-order R {t}");
        }

        // An R with a small-order component (R = rB + T): the cofactored equation holds, the
        // cofactorless one does not. ed25519-dalek's verify_batch accepts some of these
        // (when the coefficient kills T); this batch never does, one such signature at a time.
        let mut dalek_accepted = 0;
        for n in 0..64u64 {
            let t = EIGHT_TORSION[1 + (n as usize % 7)];
            let msg = signature_message(&Hash([n as u8; 32]));
            let sig = crafted(&key, &msg, 1000 + n, t);
            assert!(!key.public().verify(&msg, &sig), "mixed R {n}");
            let mut items = good.clone();
            items.push((msg, sig, key.public()));
            assert!(!verify_batch(&items), "mixed R {n}");
            let msgs: Vec<&[u8]> = items.iter().map(|(m, _, _)| m.as_slice()).collect();
            let sigs: Vec<ed25519_dalek::Signature> = items
                .iter()
                .map(|(_, s, _)| ed25519_dalek::Signature::from_bytes(&s.0))
                .collect();
            let keys: Vec<VerifyingKey> = items.iter().map(|(_, _, k)| k.0).collect();
            if ed25519_dalek::verify_batch(&msgs, &sigs, &keys).is_ok() {
                dalek_accepted += 1;
            }
        }
        assert!(dalek_accepted > 0, "the gap this batch closes exists");
    }

    /// A key with a small-order component never enters the batch: strict verification
    /// decides each of its signatures (it accepts some of them, when `k·T` vanishes).
    #[test]
    fn a_key_with_a_small_order_component_is_left_to_strict_verification() {
        use curve25519_dalek::constants::{ED25519_BASEPOINT_POINT, EIGHT_TORSION};
        use curve25519_dalek::scalar::Scalar;
        use sha2::Sha512;
        let a = Scalar::from(0x5eed_u64);
        let mut strict_accepted = 0;
        for (t, torsion) in EIGHT_TORSION.iter().enumerate().skip(1) {
            let point = ED25519_BASEPOINT_POINT * a + torsion;
            let key = PublicKey(VerifyingKey::from_bytes(&point.compress().0).unwrap());
            assert!(!key.0.is_weak());
            for n in 0..16u8 {
                let msg = signature_message(&Hash([n; 32]));
                let r = Scalar::from(u64::from(n) + 3);
                let big_r = (ED25519_BASEPOINT_POINT * r).compress();
                let mut h = Sha512::new();
                h.update(big_r.as_bytes());
                h.update(key.0.as_bytes());
                h.update(&msg);
                let k = Scalar::from_bytes_mod_order_wide(&h.finalize().into());
                let mut sig = [0u8; 64];
                sig[..32].copy_from_slice(big_r.as_bytes());
                sig[32..].copy_from_slice((r + k * a).as_bytes());
                let sig = Signature(sig);
                if key.verify(&msg, &sig) {
                    strict_accepted += 1;
                }
                assert!(
                    !verify_batch(&[(msg, sig, key)]),
                    "torsion {t}, message {n}"
                );
            }
        }
        assert!(
            strict_accepted > 0,
            "strict verification accepts some of them"
        );
    }

    #[test]
    fn canonical_point_encodings() {
        let mut p = [0xffu8; 32];
        p[31] = 0x7f;
        for low in [0xedu8, 0xee, 0xff] {
            p[0] = low;
            assert!(!canonical_point_encoding(&p), "{low:x}");
            let mut signed = p;
            signed[31] |= 0x80;
            assert!(
                !canonical_point_encoding(&signed),
                "{low:x} with the sign bit"
            );
        }
        p[0] = 0xec;
        assert!(canonical_point_encoding(&p));
        p[0] = 0xed;
        p[5] = 0xfe;
        assert!(canonical_point_encoding(&p));
        assert!(canonical_point_encoding(&[0; 32]));
    }

    #[test]
    fn hex_types_reject_bad_lengths() {
        assert!(Hash::from_hex("00").is_err());
        assert!(Hash::from_hex(&"zz".repeat(32)).is_err());
        assert!(Hash::from_hex(&"AB".repeat(32)).is_ok());
        assert!(PublicKey::from_hex(&"00".repeat(31)).is_err());
    }
}
