//! Seed chains: a table's pre-commitment to the server seeds of its next N hands
//! (`docs/SHUFFLE.md` §12).
//!
//! The service draws a secret 32-byte **tail** `c_N` when the table is created and hashes
//! it down to the **anchor** `c_0`:
//!
//! ```text
//! c_{i-1} = SHA-256("persian-cards/seed-chain/v1" || 0x00 || u32be(i) || c_i)    i = N … 1
//! ```
//!
//! It publishes only the anchor and `N`. The hand at **position** `k` (1-based) of the chain
//! is dealt from `c_k`: the server seed of its shuffle `j` is
//!
//! ```text
//! server_seed_j = SHA-256("persian-cards/chain-server-seed/v1" || 0x00 || c_k || u32be(j))
//! ```
//!
//! and the commitments in the log are made to those seeds as always. `c_k` is revealed with
//! the hand's seeds; anyone then checks `H(c_k) = c_{k-1}`, the previous hand's revealed
//! chain seed (or, for `k = 1`, the anchor), and that every revealed server seed derives from
//! it. Since `c_k` is a preimage of values already public, the operator could not pick a
//! hand's seeds after the table was created without breaking SHA-256.
//!
//! The service keeps the tail sealed, with a checkpoint every [`CHECKPOINT_INTERVAL`]
//! positions, so a hand's chain seed costs at most `CHECKPOINT_INTERVAL − 1` hashes
//! ([`SeedChain::seed_at`]) instead of up to `N − 1`.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use sha2::{Digest, Sha256};

use crate::log::Hash;
use crate::shuffle::ServerSeed;

/// The longest chain a table may commit to: deriving a seed costs up to this many
/// hashes, and so does checking a single hand's chain seed against the anchor.
pub const MAX_CHAIN_LENGTH: u32 = 1_000_000;

/// Positions between two stored checkpoints of a chain.
pub const CHECKPOINT_INTERVAL: u32 = 1024;

/// Domain tag of a chain step.
pub const CHAIN_STEP_TAG: &[u8] = b"persian-cards/seed-chain/v1";

/// Domain tag of a server seed derived from a chain seed.
pub const CHAIN_SERVER_SEED_TAG: &[u8] = b"persian-cards/chain-server-seed/v1";

/// Format tag of a chain's stored checkpoints ([`SeedChain::to_bytes`]).
const STORED_TAG: &[u8] = b"persian-cards/seed-chain-checkpoints/v1\0";

/// Why a chain cannot be made or used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ChainError {
    /// A length of 0 or above [`MAX_CHAIN_LENGTH`].
    #[error("a seed chain has 1 to {MAX_CHAIN_LENGTH} positions, not {0}")]
    Length(u64),
    /// A position outside `1..=length`: the chain is used up, or the position is wrong.
    #[error("position {position} is outside the chain's 1 to {length}")]
    Position {
        /// The position asked for.
        position: u64,
        /// The chain's length.
        length: u32,
    },
    /// Stored checkpoints that do not read as a chain of this length.
    #[error("the stored seed chain is malformed")]
    Stored,
    /// The operating system's random number generator failed.
    #[error("the operating system's random number generator failed")]
    OsRandom,
}

/// One element `c_i` of a seed chain: secret until the hand that uses it reveals it. Its
/// `Debug` never shows the bytes; serialized as 64 lowercase hex characters.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct ChainSeed(pub [u8; 32]);

impl ChainSeed {
    /// A fresh tail from the operating system's CSPRNG.
    pub fn generate() -> Result<ChainSeed, ChainError> {
        let mut b = [0u8; 32];
        getrandom::fill(&mut b).map_err(|_| ChainError::OsRandom)?;
        Ok(ChainSeed(b))
    }

    /// 64 lowercase hex characters. Only for revealing it.
    pub fn to_hex(&self) -> String {
        hex::encode(self.0)
    }

    /// Parse 64 hex characters (either case).
    pub fn from_hex(s: &str) -> Result<ChainSeed, crate::log::LogError> {
        Hash::from_hex(s).map(|h| ChainSeed(h.0))
    }

    /// The element before this one: `c_{i-1}` from `c_i` at `position` i.
    pub fn step(&self, position: u32) -> ChainSeed {
        ChainSeed(
            Sha256::new()
                .chain_update(CHAIN_STEP_TAG)
                .chain_update([0u8])
                .chain_update(position.to_be_bytes())
                .chain_update(self.0)
                .finalize()
                .into(),
        )
    }

    /// The element `steps` positions before this one, which is at `position`: `steps`
    /// hashes. `None` when `steps > position`.
    pub fn back(&self, position: u32, steps: u32) -> Option<ChainSeed> {
        let to = position.checked_sub(steps)?;
        let mut c = *self;
        for i in ((to + 1)..=position).rev() {
            c = c.step(i);
        }
        Some(c)
    }

    /// The anchor `c_0` of the chain this element is at `position` of: `position` hashes.
    pub fn anchor(&self, position: u32) -> Hash {
        Hash(self.back(position, position).unwrap_or(*self).0)
    }

    /// The server seed of shuffle `shuffle` of the hand dealt from this chain seed.
    pub fn server_seed(&self, shuffle: u32) -> ServerSeed {
        ServerSeed::from_bytes(
            Sha256::new()
                .chain_update(CHAIN_SERVER_SEED_TAG)
                .chain_update([0u8])
                .chain_update(self.0)
                .chain_update(shuffle.to_be_bytes())
                .finalize()
                .into(),
        )
    }
}

impl fmt::Debug for ChainSeed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ChainSeed(<redacted>)")
    }
}

impl Serialize for ChainSeed {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Hash(self.0).serialize(s)
    }
}

impl<'de> Deserialize<'de> for ChainSeed {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Hash::deserialize(d).map(|h| ChainSeed(h.0))
    }
}

/// What a hand's first event says of the chain it is dealt from (`hand_started`'s
/// `seed_chain`): the chain's published anchor and length, and the hand's position in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeedChainRef {
    /// The anchor `c_0`, published when the chain was set.
    pub anchor: Hash,
    /// How many positions the chain has.
    pub length: u32,
    /// The hand's position, 1 to `length`.
    pub position: u32,
}

impl SeedChainRef {
    /// Whether the numbers are in range: `1 ≤ position ≤ length ≤ MAX_CHAIN_LENGTH`.
    pub fn check(&self) -> Result<(), ChainError> {
        if self.length == 0 || self.length > MAX_CHAIN_LENGTH {
            return Err(ChainError::Length(u64::from(self.length)));
        }
        if self.position == 0 || self.position > self.length {
            return Err(ChainError::Position {
                position: u64::from(self.position),
                length: self.length,
            });
        }
        Ok(())
    }

    /// Whether `seed`, at this position, hashes down to the anchor (`position` hashes).
    pub fn anchors(&self, seed: &ChainSeed) -> bool {
        seed.anchor(self.position) == self.anchor
    }
}

/// A hand's place in a chain together with its secret chain seed: what the service deals
/// a chained hand from ([`crate::dealer::SeedSource::Chain`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChainLink {
    /// What the hand's first event records.
    pub header: SeedChainRef,
    /// `c_position`, secret until the hand's reveal.
    pub seed: ChainSeed,
}

/// A whole chain as the service keeps it (sealed): its anchor and length, and its elements
/// at every multiple of [`CHECKPOINT_INTERVAL`] and at the tail.
#[derive(Clone, PartialEq, Eq)]
pub struct SeedChain {
    length: u32,
    anchor: Hash,
    /// Element `i` is `c_p` for `p = min((i + 1) × CHECKPOINT_INTERVAL, length)`.
    checkpoints: Vec<ChainSeed>,
}

impl fmt::Debug for SeedChain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SeedChain")
            .field("length", &self.length)
            .field("anchor", &self.anchor)
            .finish_non_exhaustive()
    }
}

fn check_length(length: u32) -> Result<(), ChainError> {
    if length == 0 || length > MAX_CHAIN_LENGTH {
        return Err(ChainError::Length(u64::from(length)));
    }
    Ok(())
}

fn checkpoint_count(length: u32) -> usize {
    usize::try_from(length.div_ceil(CHECKPOINT_INTERVAL)).unwrap_or(usize::MAX)
}

impl SeedChain {
    /// A new chain of `length` positions from a fresh random tail: `length` hashes.
    pub fn generate(length: u32) -> Result<SeedChain, ChainError> {
        check_length(length)?;
        SeedChain::from_tail(ChainSeed::generate()?, length)
    }

    /// The chain of `length` positions whose tail `c_length` is `tail`: `length` hashes.
    pub fn from_tail(tail: ChainSeed, length: u32) -> Result<SeedChain, ChainError> {
        check_length(length)?;
        let mut checkpoints = vec![tail; checkpoint_count(length)];
        let mut c = tail;
        for i in (1..=length).rev() {
            // c is c_i: keep it if i is a checkpoint's position.
            if i % CHECKPOINT_INTERVAL == 0 && i < length {
                let idx = usize::try_from(i / CHECKPOINT_INTERVAL - 1).unwrap_or(usize::MAX);
                if let Some(slot) = checkpoints.get_mut(idx) {
                    *slot = c;
                }
            }
            c = c.step(i);
        }
        Ok(SeedChain {
            length,
            anchor: Hash(c.0),
            checkpoints,
        })
    }

    /// The published anchor `c_0`.
    pub fn anchor(&self) -> Hash {
        self.anchor
    }

    /// How many positions the chain has.
    pub fn length(&self) -> u32 {
        self.length
    }

    /// The chain seed `c_position` (1 to `length`): at most `CHECKPOINT_INTERVAL − 1`
    /// hashes from the nearest checkpoint at or after it.
    pub fn seed_at(&self, position: u32) -> Result<ChainSeed, ChainError> {
        if position == 0 || position > self.length {
            return Err(ChainError::Position {
                position: u64::from(position),
                length: self.length,
            });
        }
        let idx = (position - 1) / CHECKPOINT_INTERVAL;
        let at = (idx + 1)
            .saturating_mul(CHECKPOINT_INTERVAL)
            .min(self.length);
        let c = self
            .checkpoints
            .get(usize::try_from(idx).map_err(|_| ChainError::Stored)?)
            .ok_or(ChainError::Stored)?;
        c.back(at, at - position).ok_or(ChainError::Stored)
    }

    /// The link the hand at `position` is dealt from.
    pub fn link(&self, position: u32) -> Result<ChainLink, ChainError> {
        Ok(ChainLink {
            header: SeedChainRef {
                anchor: self.anchor,
                length: self.length,
                position,
            },
            seed: self.seed_at(position)?,
        })
    }

    /// The chain's secret form, to be sealed: a tag, `u32be(length)`, then every checkpoint
    /// (32 bytes each, in order). Never log it.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(STORED_TAG.len() + 4 + 32 * self.checkpoints.len());
        out.extend_from_slice(STORED_TAG);
        out.extend_from_slice(&self.length.to_be_bytes());
        for c in &self.checkpoints {
            out.extend_from_slice(&c.0);
        }
        out
    }

    /// Read [`SeedChain::to_bytes`] back, with the anchor published for it. The bytes are
    /// trusted to be the chain's (they come out of an authenticated seal): the anchor is not
    /// re-derived, which would cost `length` hashes.
    pub fn from_bytes(anchor: Hash, bytes: &[u8]) -> Result<SeedChain, ChainError> {
        let rest = bytes.strip_prefix(STORED_TAG).ok_or(ChainError::Stored)?;
        let (len, rest) = rest.split_first_chunk::<4>().ok_or(ChainError::Stored)?;
        let length = u32::from_be_bytes(*len);
        check_length(length).map_err(|_| ChainError::Stored)?;
        if rest.len() != 32 * checkpoint_count(length) {
            return Err(ChainError::Stored);
        }
        let checkpoints = rest
            .chunks_exact(32)
            .map(|c| <[u8; 32]>::try_from(c).map(ChainSeed))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|_| ChainError::Stored)?;
        Ok(SeedChain {
            length,
            anchor,
            checkpoints,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive(tail: ChainSeed, length: u32) -> Vec<ChainSeed> {
        // out[i] = c_i
        let mut out = vec![tail; usize::try_from(length).unwrap() + 1];
        let mut c = tail;
        for i in (1..=length).rev() {
            out[usize::try_from(i).unwrap()] = c;
            c = c.step(i);
        }
        out[0] = c;
        out
    }

    #[test]
    fn every_position_derives_as_the_naive_walk_does() {
        for length in [1, 2, 1023, 1024, 1025, 2048, 3000] {
            let tail = ChainSeed([7; 32]);
            let chain = SeedChain::from_tail(tail, length).unwrap();
            let all = naive(tail, length);
            assert_eq!(chain.anchor().0, all[0].0, "length {length}");
            for k in 1..=length {
                let c = chain.seed_at(k).unwrap();
                assert_eq!(c, all[usize::try_from(k).unwrap()], "length {length} k {k}");
                // One step down is the element before; k steps down is the anchor.
                assert_eq!(c.step(k), all[usize::try_from(k - 1).unwrap()]);
            }
            assert!(chain.seed_at(0).is_err());
            assert!(chain.seed_at(length + 1).is_err());
            let k = length.min(5);
            assert!(chain
                .link(k)
                .unwrap()
                .header
                .anchors(&chain.seed_at(k).unwrap()));
        }
    }

    #[test]
    fn stored_checkpoints_round_trip_and_refuse_bad_bytes() {
        let chain = SeedChain::from_tail(ChainSeed([3; 32]), 2500).unwrap();
        let bytes = chain.to_bytes();
        let back = SeedChain::from_bytes(chain.anchor(), &bytes).unwrap();
        assert_eq!(back, chain);
        assert_eq!(back.seed_at(17).unwrap(), chain.seed_at(17).unwrap());
        assert!(SeedChain::from_bytes(chain.anchor(), &bytes[..bytes.len() - 1]).is_err());
        assert!(SeedChain::from_bytes(chain.anchor(), b"nonsense").is_err());
        let mut zero = bytes.clone();
        let at = STORED_TAG.len();
        zero[at..at + 4].copy_from_slice(&0u32.to_be_bytes());
        assert!(SeedChain::from_bytes(chain.anchor(), &zero).is_err());
    }

    #[test]
    fn lengths_out_of_range_are_refused() {
        assert_eq!(
            SeedChain::from_tail(ChainSeed([1; 32]), 0).unwrap_err(),
            ChainError::Length(0)
        );
        assert!(SeedChain::generate(MAX_CHAIN_LENGTH + 1).is_err());
        let r = SeedChainRef {
            anchor: Hash::ZERO,
            length: 3,
            position: 4,
        };
        assert!(r.check().is_err());
        assert!(SeedChainRef { position: 0, ..r }.check().is_err());
        assert!(SeedChainRef { position: 3, ..r }.check().is_ok());
    }

    #[test]
    fn a_chain_seed_never_shows_in_debug() {
        let c = ChainSeed([0xab; 32]);
        assert!(!format!("{c:?}").contains("abab"));
        let chain = SeedChain::from_tail(c, 3).unwrap();
        assert!(!format!("{chain:?}").contains("abab"));
    }

    /// Prints what deriving costs (`cargo test -p replayer --release seed_chain_costs --
    /// --ignored --nocapture`): building a chain of the longest length, and a seed at the
    /// worst position with and without checkpoints.
    #[test]
    #[ignore]
    fn seed_chain_costs() {
        let t = std::time::Instant::now();
        let chain = SeedChain::from_tail(ChainSeed([9; 32]), MAX_CHAIN_LENGTH).unwrap();
        let build = t.elapsed();
        let t = std::time::Instant::now();
        let worst = chain.seed_at(1).unwrap();
        let checkpointed = t.elapsed();
        let t = std::time::Instant::now();
        let _ = ChainSeed([9; 32]).back(MAX_CHAIN_LENGTH, MAX_CHAIN_LENGTH - 1);
        let from_tail = t.elapsed();
        let t = std::time::Instant::now();
        let _ = worst.anchor(1);
        let _ = chain
            .seed_at(MAX_CHAIN_LENGTH)
            .unwrap()
            .anchor(MAX_CHAIN_LENGTH);
        let anchor_walk = t.elapsed();
        println!(
            "chain of {MAX_CHAIN_LENGTH}: build {build:?}; seed at position 1 from checkpoints \
             {checkpointed:?}, from the tail alone {from_tail:?}; walk from position \
             {MAX_CHAIN_LENGTH} to the anchor {anchor_walk:?}; stored {} bytes",
            chain.to_bytes().len()
        );
    }
}
