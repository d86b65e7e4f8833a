//! The club log's leaves: one per event of every hand of the club, in commit order, each a
//! blinded commitment that only readers of the hand's bundle can open.
//!
//! ```text
//! commitment = SHA-256( "persian-cards/tlog-leaf/v1" || 0x00 || salt (32 bytes)
//!                       || u32be(len club) || club || u32be(len hand) || hand
//!                       || u64be(seq) || event hash (32 bytes) )
//! entry      = 0x01 || commitment                      (33 bytes: version, commitment)
//! leaf hash  = SHA-256( 0x00 || entry )                (RFC 6962)
//! ```
//!
//! The salt is 32 random bytes per hand ([`HandSalt`]), given to whoever receives the hand's
//! bundle. Without it, an entry says nothing about its hand: an event hash alone could be
//! found by trying the few actions a seat could take after a known previous hash, but with
//! 256 unknown bits in every preimage no guess can be confirmed. Club and hand ids are
//! length-prefixed, so no two inputs share a preimage. `docs/TRANSPARENCY.md` §2.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use sha2::{Digest, Sha256};

use crate::log::{Hash, LogError};

use super::hash::leaf_hash;

/// The version byte that begins every leaf entry of this format.
pub const LEAF_VERSION: u8 = 1;
/// The domain tag of the leaf commitment (followed by `0x00`).
pub const LEAF_TAG: &[u8] = b"persian-cards/tlog-leaf/v1";
/// The length of a leaf entry: the version byte and the 32-byte commitment.
pub const LEAF_ENTRY_LEN: usize = 33;

/// A problem with a leaf's input or entry.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LeafError {
    /// A club or hand id too long for its `u32` length prefix.
    #[error("{0} is longer than 2^32 - 1 bytes")]
    TooLong(&'static str),
    /// An entry of another length or version.
    #[error("not a version-1 leaf entry of 33 bytes")]
    BadEntry,
}

/// The per-hand blinding salt: 32 random bytes, secret to everyone but the hand's bundle
/// readers and the service. Written as 64 lowercase hex characters; its `Debug` hides it.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct HandSalt(pub [u8; 32]);

impl HandSalt {
    /// A fresh salt from the operating system's CSPRNG.
    pub fn generate() -> Result<HandSalt, getrandom::Error> {
        let mut b = [0u8; 32];
        getrandom::fill(&mut b)?;
        Ok(HandSalt(b))
    }

    /// Parse 64 hex characters.
    pub fn from_hex(s: &str) -> Result<HandSalt, LogError> {
        Hash::from_hex(s)
            .map(|h| HandSalt(h.0))
            .map_err(|_| LogError::BadHex {
                what: "salt",
                len: 64,
            })
    }

    /// Lowercase hex.
    pub fn to_hex(&self) -> String {
        hex::encode(self.0)
    }
}

impl fmt::Debug for HandSalt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("HandSalt(…)")
    }
}

impl Serialize for HandSalt {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Hash(self.0).serialize(s)
    }
}

impl<'de> Deserialize<'de> for HandSalt {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Hash::deserialize(d).map(|h| HandSalt(h.0))
    }
}

/// What one leaf commits to: an event of a hand of a club.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LeafInput<'a> {
    /// The club's id (the `club` of the hand's `hand_started`).
    pub club: &'a str,
    /// The hand's id.
    pub hand: &'a str,
    /// The event's position in its hand.
    pub seq: u64,
    /// The event's hash (`docs/EVENT-LOG.md` §6).
    pub event_hash: Hash,
}

/// A leaf entry as the log stores and serves it: the version byte and the commitment.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct LeafEntry(pub [u8; LEAF_ENTRY_LEN]);

impl fmt::Debug for LeafEntry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "LeafEntry({})", hex::encode(self.0))
    }
}

impl LeafEntry {
    /// The entry of `input` blinded with `salt`.
    pub fn new(salt: &HandSalt, input: &LeafInput<'_>) -> Result<LeafEntry, LeafError> {
        let club_len =
            u32::try_from(input.club.len()).map_err(|_| LeafError::TooLong("club id"))?;
        let hand_len =
            u32::try_from(input.hand.len()).map_err(|_| LeafError::TooLong("hand id"))?;
        let mut h = Sha256::new();
        h.update(LEAF_TAG);
        h.update([0u8]);
        h.update(salt.0);
        h.update(club_len.to_be_bytes());
        h.update(input.club.as_bytes());
        h.update(hand_len.to_be_bytes());
        h.update(input.hand.as_bytes());
        h.update(input.seq.to_be_bytes());
        h.update(input.event_hash.0);
        let mut e = [0u8; LEAF_ENTRY_LEN];
        e[0] = LEAF_VERSION;
        e[1..].copy_from_slice(&h.finalize());
        Ok(LeafEntry(e))
    }

    /// Read an entry as served in an entry bundle.
    pub fn from_bytes(bytes: &[u8]) -> Result<LeafEntry, LeafError> {
        let e: [u8; LEAF_ENTRY_LEN] = bytes.try_into().map_err(|_| LeafError::BadEntry)?;
        if e[0] != LEAF_VERSION {
            return Err(LeafError::BadEntry);
        }
        Ok(LeafEntry(e))
    }

    /// The entry's bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }

    /// Its RFC 6962 leaf hash, `SHA-256(0x00 || entry)`.
    pub fn leaf_hash(&self) -> Hash {
        leaf_hash(&self.0)
    }
}

/// The leaf entries of a hand's events, in order: `events` are `(seq, event hash)` pairs.
pub fn hand_leaves(
    salt: &HandSalt,
    club: &str,
    hand: &str,
    events: &[(u64, Hash)],
) -> Result<Vec<LeafEntry>, LeafError> {
    events
        .iter()
        .map(|&(seq, event_hash)| {
            LeafEntry::new(
                salt,
                &LeafInput {
                    club,
                    hand,
                    seq,
                    event_hash,
                },
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(seq: u64) -> LeafInput<'static> {
        LeafInput {
            club: "tehran-club",
            hand: "tehran-club/table-3/hand-42",
            seq,
            event_hash: Hash([0xab; 32]),
        }
    }

    #[test]
    fn an_entry_is_a_version_byte_and_a_commitment() {
        let salt = HandSalt([0x5a; 32]);
        let e = LeafEntry::new(&salt, &input(3)).unwrap();
        assert_eq!(e.0[0], LEAF_VERSION);
        assert_eq!(LeafEntry::from_bytes(e.as_bytes()).unwrap(), e);
        assert_eq!(e.leaf_hash(), leaf_hash(e.as_bytes()));
        // Everything it commits to changes it.
        assert_ne!(LeafEntry::new(&HandSalt([0x5b; 32]), &input(3)).unwrap(), e);
        assert_ne!(LeafEntry::new(&salt, &input(4)).unwrap(), e);
        let mut other = input(3);
        other.event_hash = Hash([0xac; 32]);
        assert_ne!(LeafEntry::new(&salt, &other).unwrap(), e);
    }

    #[test]
    fn length_prefixes_keep_club_and_hand_apart() {
        let salt = HandSalt([1; 32]);
        let a = LeafInput {
            club: "ab",
            hand: "c",
            seq: 0,
            event_hash: Hash::ZERO,
        };
        let b = LeafInput {
            club: "a",
            hand: "bc",
            ..a
        };
        assert_ne!(
            LeafEntry::new(&salt, &a).unwrap(),
            LeafEntry::new(&salt, &b).unwrap()
        );
    }

    #[test]
    fn entries_of_other_shapes_are_refused() {
        assert_eq!(LeafEntry::from_bytes(&[1; 32]), Err(LeafError::BadEntry));
        let mut e = [1u8; 33];
        e[0] = 2;
        assert_eq!(LeafEntry::from_bytes(&e), Err(LeafError::BadEntry));
    }

    #[test]
    fn the_salt_never_shows_in_debug() {
        let s = HandSalt([0x5a; 32]);
        assert!(!format!("{s:?}").contains("5a5a"));
        assert_eq!(HandSalt::from_hex(&s.to_hex()).unwrap(), s);
        assert!(HandSalt::from_hex("00").is_err());
    }
}
