//! The committed shuffle, version 1 (specified in `docs/SHUFFLE.md`, with test vectors in
//! `docs/vectors/shuffle-v1.json`).
//!
//! Before a shuffle is used, the service draws a secret [`ServerSeed`] and publishes its
//! [`Commitment`]. Players may each add a [`ClientSeed`]. The [`deck_seed`] hashes all of
//! them, with the hand id and the shuffle's number in the hand, into a [`DeckSeed`]; the
//! deck seed keys a ChaCha20 keystream (RFC 8439) that drives a Fisher–Yates shuffle of the
//! cards in canonical order ([`shuffle_cards`], [`permutation`]). At the end of the hand the
//! server seeds are revealed and anyone can recompute every order.
//!
//! ```
//! use replayer::cards::DeckKind;
//! use replayer::engine::SeatIndex;
//! use replayer::shuffle::{deck_seed, shuffle_cards, ClientSeed, ServerSeed};
//!
//! let server = ServerSeed::from_bytes([7; 32]);
//! let commitment = server.commitment(); // published before the shuffle is used
//! let seeds = [(SeatIndex(1), ClientSeed::new(b"lucky".to_vec())?)];
//! let seed = deck_seed(&server, "hand-1", 0, &seeds)?;
//! let order = shuffle_cards(&seed, &DeckKind::BistOYek36.cards());
//! assert_eq!(order.len(), 36);
//! // After the reveal, anyone can check the seed against the commitment.
//! assert_eq!(ServerSeed::from_hex(&server.to_hex())?.commitment(), commitment);
//! # Ok::<(), replayer::shuffle::ShuffleError>(())
//! ```

use std::fmt;

use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use sha2::{Digest, Sha256};

use crate::cards::Card;
use crate::engine::SeatIndex;

/// The version of the committed-shuffle algorithm this module implements. Any change to the
/// bytes hashed, the keystream, the sampling or the loop is a new version.
pub const SHUFFLE_VERSION: u32 = 1;

/// Domain tag of the commitment hash (followed by a `0x00` byte).
pub const COMMITMENT_TAG: &[u8] = b"persian-cards/commitment/v1";

/// Domain tag of the deck-seed hash (followed by a `0x00` byte).
pub const DECK_SEED_TAG: &[u8] = b"persian-cards/deck-seed/v1";

/// Shortest client seed, in bytes.
pub const MIN_CLIENT_SEED_LEN: usize = 1;

/// Longest client seed, in bytes.
pub const MAX_CLIENT_SEED_LEN: usize = 64;

/// Longest hand id, in bytes of UTF-8 (the shortest is 1 byte).
pub const MAX_HAND_ID_LEN: usize = 128;

/// Something wrong with a shuffle input. Messages never contain a seed or any part of one.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum ShuffleError {
    /// The operating system's random number generator could not produce a server seed.
    #[error("the operating system's random number generator failed: {0}")]
    OsRandom(getrandom::Error),
    /// Hex text for a fixed-size value (server seed, commitment, deck seed) has the wrong
    /// number of characters.
    #[error("{what}: expected {expected} hex characters, found {found}")]
    HexLength {
        /// What was being parsed.
        what: &'static str,
        /// The required number of hex characters.
        expected: usize,
        /// The number of characters found.
        found: usize,
    },
    /// Hex text for a variable-size value (a client seed) has an odd number of characters.
    #[error("{what}: expected an even number of hex characters, found {found}")]
    OddHexLength {
        /// What was being parsed.
        what: &'static str,
        /// The number of characters found.
        found: usize,
    },
    /// Hex text contains a character that is not a hex digit.
    #[error("{what}: expected only hex digits (0-9, a-f, A-F), found something else at character {position}")]
    NotHex {
        /// What was being parsed.
        what: &'static str,
        /// Zero-based position of the first offending character.
        position: usize,
    },
    /// A client seed is empty or longer than [`MAX_CLIENT_SEED_LEN`] bytes.
    #[error("client seed: expected 1 to 64 bytes, found {len}")]
    ClientSeedLength {
        /// The seed's length in bytes.
        len: usize,
    },
    /// The hand id is the empty string.
    #[error("hand id: expected 1 to 128 bytes of UTF-8, found an empty string")]
    EmptyHandId,
    /// The hand id is longer than [`MAX_HAND_ID_LEN`] bytes.
    #[error("hand id: expected 1 to 128 bytes of UTF-8, found {len} bytes")]
    HandIdTooLong {
        /// The hand id's length in bytes.
        len: usize,
    },
    /// Two client seeds were given for the same seat in one shuffle.
    #[error("more than one client seed for {seat} in one shuffle")]
    DuplicateSeat {
        /// The seat with more than one seed.
        seat: SeatIndex,
    },
}

/// Decode exactly 32 bytes of hex (either case).
fn decode_hex32(what: &'static str, s: &str) -> Result<[u8; 32], ShuffleError> {
    let found = s.chars().count();
    if found != 64 {
        return Err(ShuffleError::HexLength {
            what,
            expected: 64,
            found,
        });
    }
    if let Some(position) = s.chars().position(|c| !c.is_ascii_hexdigit()) {
        return Err(ShuffleError::NotHex { what, position });
    }
    let mut out = [0u8; 32];
    hex::decode_to_slice(s, &mut out).map_err(|e| hex_error(what, s, e))?;
    Ok(out)
}

/// Decode hex (either case) of any even length.
fn decode_hex_vec(what: &'static str, s: &str) -> Result<Vec<u8>, ShuffleError> {
    hex::decode(s).map_err(|e| hex_error(what, s, e))
}

/// Turn the `hex` crate's error into ours, without echoing the offending character (it may
/// be part of a seed).
fn hex_error(what: &'static str, s: &str, e: hex::FromHexError) -> ShuffleError {
    match e {
        hex::FromHexError::InvalidHexCharacter { index, .. } => ShuffleError::NotHex {
            what,
            // `index` counts bytes; report characters so non-ASCII input reads sensibly.
            position: s.get(..index).map_or(index, |p| p.chars().count()),
        },
        hex::FromHexError::OddLength => ShuffleError::OddHexLength {
            what,
            found: s.chars().count(),
        },
        hex::FromHexError::InvalidStringLength => ShuffleError::HexLength {
            what,
            expected: 64,
            found: s.chars().count(),
        },
    }
}

/// Deserialize a hex string and parse it with `parse`, turning its error into a serde error.
fn deserialize_hex<'de, D, T>(
    d: D,
    parse: impl FnOnce(&str) -> Result<T, ShuffleError>,
) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
{
    let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
    parse(&s).map_err(serde::de::Error::custom)
}

fn sha256(parts: &[&[u8]]) -> [u8; 32] {
    let mut h = Sha256::new();
    for p in parts {
        h.update(p);
    }
    h.finalize().into()
}

/// The service's secret for one shuffle: 32 bytes from the operating system's CSPRNG. Kept
/// secret until the end of the hand; only its [`Commitment`] is published before use.
///
/// `Debug` prints `ServerSeed(<redacted>)`; there is no `Display` and no serde, so a seed
/// only leaves the process through an explicit [`ServerSeed::to_hex`].
#[derive(Clone, PartialEq, Eq)]
pub struct ServerSeed([u8; 32]);

impl ServerSeed {
    /// Draw a fresh seed from the operating system's CSPRNG.
    pub fn generate() -> Result<Self, ShuffleError> {
        let mut bytes = [0u8; 32];
        getrandom::fill(&mut bytes).map_err(ShuffleError::OsRandom)?;
        Ok(ServerSeed(bytes))
    }

    /// A seed with the given bytes (a revealed seed, or a test vector).
    pub fn from_bytes(bytes: [u8; 32]) -> Self {
        ServerSeed(bytes)
    }

    /// Parse 64 hex characters (either case).
    pub fn from_hex(s: &str) -> Result<Self, ShuffleError> {
        decode_hex32("server seed", s).map(ServerSeed)
    }

    /// The seed as 64 lowercase hex characters. Only for revealing it.
    pub fn to_hex(&self) -> String {
        hex::encode(self.0)
    }

    /// The seed's bytes.
    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }

    /// `SHA-256("persian-cards/commitment/v1" || 0x00 || seed)`.
    pub fn commitment(&self) -> Commitment {
        Commitment(sha256(&[COMMITMENT_TAG, &[0], &self.0]))
    }
}

impl fmt::Debug for ServerSeed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ServerSeed(<redacted>)")
    }
}

/// The published commitment to a [`ServerSeed`]. Serializes as 64 lowercase hex characters.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Commitment(pub [u8; 32]);

impl Commitment {
    /// Parse 64 hex characters (either case).
    pub fn from_hex(s: &str) -> Result<Self, ShuffleError> {
        decode_hex32("commitment", s).map(Commitment)
    }

    /// 64 lowercase hex characters.
    pub fn to_hex(&self) -> String {
        hex::encode(self.0)
    }
}

impl fmt::Display for Commitment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_hex())
    }
}

impl Serialize for Commitment {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_hex())
    }
}

impl<'de> Deserialize<'de> for Commitment {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        deserialize_hex(d, Commitment::from_hex)
    }
}

/// A player's contribution to a shuffle: 1 to 64 arbitrary bytes. Serializes as lowercase
/// hex.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ClientSeed(Vec<u8>);

impl ClientSeed {
    /// A client seed; [`ShuffleError::ClientSeedLength`] unless 1 to 64 bytes long.
    pub fn new(bytes: Vec<u8>) -> Result<Self, ShuffleError> {
        if (MIN_CLIENT_SEED_LEN..=MAX_CLIENT_SEED_LEN).contains(&bytes.len()) {
            Ok(ClientSeed(bytes))
        } else {
            Err(ShuffleError::ClientSeedLength { len: bytes.len() })
        }
    }

    /// Parse 2 to 128 hex characters (either case).
    pub fn from_hex(s: &str) -> Result<Self, ShuffleError> {
        ClientSeed::new(decode_hex_vec("client seed", s)?)
    }

    /// Lowercase hex.
    pub fn to_hex(&self) -> String {
        hex::encode(&self.0)
    }

    /// The seed's bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }
}

impl Serialize for ClientSeed {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_hex())
    }
}

impl<'de> Deserialize<'de> for ClientSeed {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        deserialize_hex(d, ClientSeed::from_hex)
    }
}

/// The 32-byte key of one shuffle's keystream. Secret until the server seed is revealed, so
/// `Debug` prints `DeckSeed(<redacted>)`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct DeckSeed(pub [u8; 32]);

impl DeckSeed {
    /// Parse 64 hex characters (either case).
    pub fn from_hex(s: &str) -> Result<Self, ShuffleError> {
        decode_hex32("deck seed", s).map(DeckSeed)
    }

    /// 64 lowercase hex characters.
    pub fn to_hex(&self) -> String {
        hex::encode(self.0)
    }
}

impl fmt::Debug for DeckSeed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("DeckSeed(<redacted>)")
    }
}

/// `u32be(len)`, for a length the caller has already bounded (hand ids ≤ 128 bytes, client
/// seeds ≤ 64 bytes, ≤ 256 seeds, one per seat), so the saturation never happens.
fn length_prefix(len: usize) -> [u8; 4] {
    u32::try_from(len).unwrap_or(u32::MAX).to_be_bytes()
}

/// The byte string hashed into a deck seed (see `docs/SHUFFLE.md`), after validation.
/// Exposed for the spec's worked example and for debugging other implementations.
pub fn deck_seed_preimage(
    server: &ServerSeed,
    hand_id: &str,
    shuffle: u32,
    client_seeds: &[(SeatIndex, ClientSeed)],
) -> Result<Vec<u8>, ShuffleError> {
    if hand_id.is_empty() {
        return Err(ShuffleError::EmptyHandId);
    }
    if hand_id.len() > MAX_HAND_ID_LEN {
        return Err(ShuffleError::HandIdTooLong { len: hand_id.len() });
    }
    let mut sorted: Vec<&(SeatIndex, ClientSeed)> = client_seeds.iter().collect();
    sorted.sort_by_key(|(seat, _)| *seat);
    for pair in sorted.windows(2) {
        if let [(a, _), (b, _)] = pair {
            if a == b {
                return Err(ShuffleError::DuplicateSeat { seat: *a });
            }
        }
    }

    let mut pre = Vec::with_capacity(DECK_SEED_TAG.len() + 1 + 32 + 4 + hand_id.len() + 8);
    pre.extend_from_slice(DECK_SEED_TAG);
    pre.push(0);
    pre.extend_from_slice(server.as_bytes());
    pre.extend_from_slice(&length_prefix(hand_id.len()));
    pre.extend_from_slice(hand_id.as_bytes());
    pre.extend_from_slice(&shuffle.to_be_bytes());
    pre.extend_from_slice(&length_prefix(sorted.len()));
    for (seat, seed) in sorted {
        pre.extend_from_slice(&u32::from(seat.0).to_be_bytes());
        pre.extend_from_slice(&length_prefix(seed.as_bytes().len()));
        pre.extend_from_slice(seed.as_bytes());
    }
    Ok(pre)
}

/// The deck seed of shuffle number `shuffle` (0 for the hand's first) of hand `hand_id`:
///
/// `SHA-256("persian-cards/deck-seed/v1" || 0x00 || server_seed || enc(hand_id) ||
/// u32be(shuffle) || u32be(count) || for each client seed by ascending seat:
/// u32be(seat) || enc(seed))`, where `enc(x) = u32be(len(x)) || x`.
///
/// `client_seeds` may be in any order (they are sorted by seat here); at most one per seat.
/// The hand id must be 1 to 128 bytes of UTF-8.
pub fn deck_seed(
    server: &ServerSeed,
    hand_id: &str,
    shuffle: u32,
    client_seeds: &[(SeatIndex, ClientSeed)],
) -> Result<DeckSeed, ShuffleError> {
    let pre = deck_seed_preimage(server, hand_id, shuffle, client_seeds)?;
    Ok(DeckSeed(sha256(&[&pre])))
}

/// The keystream of a deck seed as 32-bit words: the RFC 8439 ChaCha20 block function with
/// key = deck seed, nonce = 12 zero bytes, block counter from 0, read as consecutive
/// little-endian words.
fn word_source(seed: &DeckSeed) -> impl FnMut() -> u32 {
    // rand_chacha's 64-bit counter and 64-bit stream id, both zero here, lay out the same
    // state words as RFC 8439's 32-bit counter and zero 96-bit nonce for the first 2^32
    // blocks; `next_u32` returns the keystream's words in order. Tested against the RFC.
    let mut rng = ChaCha20Rng::from_seed(seed.0);
    move || rng.next_u32()
}

/// The first `count` keystream words of a deck seed (for test vectors and debugging).
pub fn keystream_words(seed: &DeckSeed, count: usize) -> Vec<u32> {
    let mut next = word_source(seed);
    (0..count).map(|_| next()).collect()
}

/// 2^32, the number of distinct keystream words.
const WORDS: u64 = 1 << 32;

/// An unbiased integer in `0..bound` by rejection sampling, for `1 <= bound <= 2^32`:
/// `zone = 2^32 - (2^32 mod bound)`; draw words until one is below `zone`; return it
/// `mod bound`. Always consumes at least one word, even for `bound == 1`. Returns `None`
/// (consuming nothing) for a bound outside that range.
fn uniform(bound: u64, next: &mut impl FnMut() -> u32) -> Option<u64> {
    if bound == 0 || bound > WORDS {
        return None;
    }
    let zone = WORDS - WORDS % bound;
    loop {
        let x = u64::from(next());
        if x < zone {
            return Some(x % bound);
        }
    }
}

/// Fisher–Yates over `n` items with the given word source: start from `[0, 1, …, n-1]`; for
/// `i` from `n-1` down to 1, `j = uniform(i + 1)`, swap positions `i` and `j`. Consumes no
/// words for `n <= 1`.
///
/// # Panics
///
/// If `n > 2^32` (no uniform draw is defined; such a list would need 32 GiB).
fn fisher_yates(n: usize, mut next: impl FnMut() -> u32) -> Vec<usize> {
    let mut a: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        let bound = u64::try_from(i).map_or(u64::MAX, |i| i.saturating_add(1));
        let j = uniform(bound, &mut next).and_then(|j| usize::try_from(j).ok());
        let Some(j) = j else {
            panic!("a committed shuffle is defined for at most 2^32 items, not {n}");
        };
        // j <= i < n, so both positions exist.
        a.swap(i, j);
    }
    a
}

/// The committed permutation of `n` items: `result[p]` is the canonical index of the item
/// that ends up at position `p` (0 = top of the stock, dealt first).
///
/// # Panics
///
/// If `n > 2^32`; every deck has at most 104 cards.
pub fn permutation(seed: &DeckSeed, n: usize) -> Vec<usize> {
    fisher_yates(n, word_source(seed))
}

/// The committed order of `cards_in_canonical_order`, top (dealt first) first: position `p`
/// holds `cards_in_canonical_order[permutation(seed, n)[p]]`.
///
/// The caller passes a whole deck ([`crate::cards::DeckKind::cards`]) or, for a mid-hand
/// restock, the engine's set of cards sorted with [`crate::cards::canonical_sort`].
pub fn shuffle_cards(seed: &DeckSeed, cards_in_canonical_order: &[Card]) -> Vec<Card> {
    permutation(seed, cards_in_canonical_order.len())
        .into_iter()
        .filter_map(|i| cards_in_canonical_order.get(i).copied())
        .collect()
}

#[cfg(test)]
mod tests;
