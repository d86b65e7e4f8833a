//! Tiles and entry bundles as C2SP tlog-tiles names and lays them out.
//!
//! * `tile/<L>/<N>[.p/<W>]`: the `N`-th tile of level `L`, the hashes of the complete
//!   subtrees of height `8·L` numbered `256·N` to `256·N + W − 1`, 32 bytes each,
//!   concatenated. A full tile holds 256 hashes; a partial one (`.p/<W>`) 1 to 255, and
//!   exists only for the right edge of a tree size that was checkpointed.
//! * `tile/entries/<N>[.p/<W>]`: the entries of leaves `256·N …`, each as a big-endian
//!   `u16` length and the entry's bytes.
//! * `N` is written in groups of three digits, every group but the last prefixed by `x`:
//!   1234067 is `x001/x234/067`.

use std::fmt;

use crate::log::Hash;

/// Hashes per full tile (C2SP tlog-tiles: tiles of height 8).
pub const TILE_WIDTH: u64 = 256;
/// The height of a tile: a tile of level `L` holds subtrees of height `TILE_HEIGHT · L`.
pub const TILE_HEIGHT: u8 = 8;
/// The largest tile level a `u64` tree size can reach (`8 · 7 = 56 < 64`).
pub const MAX_TILE_LEVEL: u8 = 7;
/// The largest entry an entry bundle can carry (its length is a `u16`).
pub const MAX_ENTRY_LEN: usize = u16::MAX as usize;

/// What a tile holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TileKind {
    /// Merkle tree hashes of the given tile level.
    Hashes(u8),
    /// Log entries (an entry bundle).
    Entries,
}

/// One tile or entry bundle: its kind, its index within its level and its width (256 for
/// a full tile).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TileId {
    /// Hashes of a level, or entries.
    pub kind: TileKind,
    /// `N`: which tile of its level, from the left.
    pub index: u64,
    /// `W`: how many hashes or entries it holds, 1 to 256.
    pub width: u16,
}

/// A tile path that is not one C2SP tlog-tiles allows.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("malformed tile path {path:?}: {reason}")]
pub struct TilePathError {
    /// The path, cut to 100 characters.
    pub path: String,
    /// What is wrong with it.
    pub reason: &'static str,
}

/// A malformed entry bundle.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EntryBundleError {
    /// The bundle ends inside an entry's length or bytes.
    #[error("entry bundle truncated in entry {0}")]
    Truncated(usize),
    /// The bundle holds a different number of entries from its width.
    #[error("entry bundle holds {found} entries where its width is {width}")]
    WrongCount {
        /// The tile's width.
        width: u16,
        /// How many it holds.
        found: usize,
    },
    /// An entry is too long for a `u16` length.
    #[error("entry of {0} bytes is longer than 65535")]
    EntryTooLong(usize),
}

impl TileId {
    /// The tile of hashes at `level`, `index`, `width`.
    pub fn hashes(level: u8, index: u64, width: u16) -> TileId {
        TileId {
            kind: TileKind::Hashes(level),
            index,
            width,
        }
    }

    /// The entry bundle `index` of `width` entries.
    pub fn entries(index: u64, width: u16) -> TileId {
        TileId {
            kind: TileKind::Entries,
            index,
            width,
        }
    }

    /// Whether it is a full tile (256 wide).
    pub fn is_full(&self) -> bool {
        u64::from(self.width) == TILE_WIDTH
    }

    /// The same tile at full width.
    pub fn full(&self) -> TileId {
        TileId {
            width: TILE_WIDTH as u16,
            ..*self
        }
    }

    /// The tile of `kind` and `index` as it is in a tree of `size` leaves: full, partial of
    /// the width that size gives, or `None` when the tree has nothing in it yet.
    pub fn in_tree(kind: TileKind, index: u64, size: u64) -> Option<TileId> {
        let level = match kind {
            TileKind::Hashes(l) => l,
            TileKind::Entries => 0,
        };
        let shift = u32::from(level) * u32::from(TILE_HEIGHT);
        // How many complete subtrees of the tile's height the tree holds.
        let count = size.checked_shr(shift).unwrap_or(0);
        let start = index.checked_mul(TILE_WIDTH)?;
        let width = count.checked_sub(start)?.min(TILE_WIDTH);
        if width == 0 {
            return None;
        }
        Some(TileId {
            kind,
            index,
            width: u16::try_from(width).ok()?,
        })
    }

    /// The path of the tile under a log's prefix, e.g. `tile/0/x001/234.p/7`.
    pub fn path(&self) -> String {
        let mut p = match self.kind {
            TileKind::Hashes(l) => format!("tile/{l}/"),
            TileKind::Entries => "tile/entries/".to_string(),
        };
        p.push_str(&encode_index(self.index));
        if !self.is_full() {
            p.push_str(&format!(".p/{}", self.width));
        }
        p
    }

    /// Parse a tile path (without the log's prefix), refusing anything C2SP tlog-tiles
    /// does not allow: leading zeros, a level above 63, a width of 0 or above 255, a group
    /// of other than three digits, a missing or extra `x`.
    pub fn parse(path: &str) -> Result<TileId, TilePathError> {
        let bad = |reason| TilePathError {
            path: path.chars().take(100).collect(),
            reason,
        };
        let rest = path
            .strip_prefix("tile/")
            .ok_or_else(|| bad("does not begin with tile/"))?;
        let (kind_part, rest) = rest.split_once('/').ok_or_else(|| bad("no tile index"))?;
        let kind = if kind_part == "entries" {
            TileKind::Entries
        } else {
            let level = parse_decimal(kind_part).ok_or_else(|| bad("level is not a decimal"))?;
            if level > 63 {
                return Err(bad("level above 63"));
            }
            TileKind::Hashes(u8::try_from(level).map_err(|_| bad("level above 63"))?)
        };
        let (index_part, width) = match rest.split_once(".p/") {
            Some((i, w)) => {
                let w = parse_decimal(w).ok_or_else(|| bad("width is not a decimal"))?;
                if w == 0 || w >= TILE_WIDTH {
                    return Err(bad("partial width not between 1 and 255"));
                }
                (i, u16::try_from(w).map_err(|_| bad("width too large"))?)
            }
            None => (rest, TILE_WIDTH as u16),
        };
        let index = decode_index(index_part).ok_or_else(|| bad("malformed tile index"))?;
        Ok(TileId { kind, index, width })
    }
}

impl fmt::Display for TileId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.path())
    }
}

/// A decimal with no sign and no leading zero (but `0` itself).
fn parse_decimal(s: &str) -> Option<u64> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) || (s.len() > 1 && s.starts_with('0'))
    {
        return None;
    }
    s.parse().ok()
}

/// `N` in three-digit groups, all but the last prefixed by `x`.
fn encode_index(n: u64) -> String {
    let mut groups = Vec::new();
    let mut n = n;
    loop {
        groups.push(n % 1000);
        n /= 1000;
        if n == 0 {
            break;
        }
    }
    let last = groups.len() - 1;
    groups
        .iter()
        .rev()
        .enumerate()
        .map(|(i, g)| {
            if i == last {
                format!("{g:03}")
            } else {
                format!("x{g:03}")
            }
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// The inverse of [`encode_index`], refusing every other spelling (so that one tile has
/// one path): a group of other than three digits, an `x` missing or misplaced, a leading
/// `x000` group, a value beyond `u64`.
fn decode_index(s: &str) -> Option<u64> {
    let groups: Vec<&str> = s.split('/').collect();
    let (last, init) = groups.split_last()?;
    let mut n: u64 = 0;
    for (i, g) in init.iter().enumerate() {
        let digits = g.strip_prefix('x')?;
        if i == 0 && digits == "000" {
            return None;
        }
        n = n.checked_mul(1000)?.checked_add(three_digits(digits)?)?;
    }
    n.checked_mul(1000)?.checked_add(three_digits(last)?)
}

fn three_digits(s: &str) -> Option<u64> {
    if s.len() != 3 || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// The hashes of a tile's bytes, which must be exactly `width` hashes.
pub fn tile_hashes(bytes: &[u8], width: u16) -> Option<Vec<Hash>> {
    if bytes.len() != usize::from(width) * 32 {
        return None;
    }
    Some(
        bytes
            .chunks_exact(32)
            .filter_map(|c| <[u8; 32]>::try_from(c).ok().map(Hash))
            .collect(),
    )
}

/// A tile's bytes: its hashes, concatenated.
pub fn tile_bytes(hashes: &[Hash]) -> Vec<u8> {
    hashes.iter().flat_map(|h| h.0).collect()
}

/// An entry bundle: each entry as a big-endian `u16` length and its bytes.
pub fn encode_entry_bundle<E: AsRef<[u8]>>(entries: &[E]) -> Result<Vec<u8>, EntryBundleError> {
    let mut out = Vec::new();
    for e in entries {
        let e = e.as_ref();
        let len = u16::try_from(e.len()).map_err(|_| EntryBundleError::EntryTooLong(e.len()))?;
        out.extend_from_slice(&len.to_be_bytes());
        out.extend_from_slice(e);
    }
    Ok(out)
}

/// The entries of an entry bundle of `width` entries.
pub fn decode_entry_bundle(bytes: &[u8], width: u16) -> Result<Vec<Vec<u8>>, EntryBundleError> {
    let mut out = Vec::new();
    let mut rest = bytes;
    while !rest.is_empty() {
        let truncated = EntryBundleError::Truncated(out.len());
        let (len, after) = rest.split_first_chunk::<2>().ok_or(truncated.clone())?;
        let len = usize::from(u16::from_be_bytes(*len));
        if after.len() < len {
            return Err(truncated);
        }
        let (entry, after) = after.split_at(len);
        out.push(entry.to_vec());
        rest = after;
    }
    if out.len() != usize::from(width) {
        return Err(EntryBundleError::WrongCount {
            width,
            found: out.len(),
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_follow_the_spec_examples() {
        assert_eq!(
            TileId::hashes(0, 1234067, 256).path(),
            "tile/0/x001/x234/067"
        );
        assert_eq!(TileId::hashes(1, 0, 17).path(), "tile/1/000.p/17");
        assert_eq!(TileId::entries(1000, 3).path(), "tile/entries/x001/000.p/3");
        assert_eq!(TileId::hashes(2, 999, 256).path(), "tile/2/999");
        assert_eq!(
            TileId::hashes(3, u64::MAX, 256).path(),
            "tile/3/x018/x446/x744/x073/x709/x551/615"
        );
    }

    #[test]
    fn tree_of_70000_has_the_spec_tiles() {
        // C2SP tlog-tiles: 273 full level-0 tiles, one partial of width 112, one full
        // level-1 tile, a partial level-1 tile of width 17, a partial level-2 tile of 1.
        let s = 70_000;
        assert!(TileId::in_tree(TileKind::Hashes(0), 272, s)
            .unwrap()
            .is_full());
        assert_eq!(
            TileId::in_tree(TileKind::Hashes(0), 273, s).unwrap().width,
            112
        );
        assert_eq!(TileId::in_tree(TileKind::Hashes(0), 274, s), None);
        assert!(TileId::in_tree(TileKind::Hashes(1), 0, s)
            .unwrap()
            .is_full());
        assert_eq!(
            TileId::in_tree(TileKind::Hashes(1), 1, s).unwrap().width,
            17
        );
        assert_eq!(TileId::in_tree(TileKind::Hashes(2), 0, s).unwrap().width, 1);
        assert_eq!(TileId::in_tree(TileKind::Hashes(3), 0, s), None);
        assert_eq!(
            TileId::in_tree(TileKind::Entries, 273, s).unwrap().width,
            112
        );
        // A tree of 256: a full level-0 tile and a level-1 tile of width 1.
        assert!(TileId::in_tree(TileKind::Hashes(0), 0, 256)
            .unwrap()
            .is_full());
        assert_eq!(
            TileId::in_tree(TileKind::Hashes(1), 0, 256).unwrap().width,
            1
        );
        assert_eq!(
            TileId::in_tree(TileKind::Hashes(7), u64::MAX, u64::MAX),
            None
        );
    }

    #[test]
    fn malformed_paths_are_refused() {
        for p in [
            "",
            "tile",
            "tile/0",
            "tile/0/",
            "tiles/0/000",
            "tile/00/000",
            "tile/64/000",
            "tile/-1/000",
            "tile/+1/000",
            "tile/0/0",
            "tile/0/0000",
            "tile/0/x000/001",
            "tile/0/001/002",
            "tile/0/x1/002",
            "tile/0/x001/x002",
            "tile/0/xx01/002",
            "tile/0/000.p/0",
            "tile/0/000.p/256",
            "tile/0/000.p/07",
            "tile/0/000.p/",
            "tile/0/000.p",
            "tile/0/000/",
            "tile/0/x018/x446/x744/x073/x709/x551/616",
            "tile/entries/",
            "tile/entries/00a",
            "tile/0/０００",
            "/tile/0/000",
        ] {
            assert!(TileId::parse(p).is_err(), "{p:?} was accepted");
        }
    }

    #[test]
    fn entry_bundles_round_trip_and_refuse_bad_framing() {
        let entries = vec![vec![1u8, 2, 3], vec![], vec![9u8; 300]];
        let b = encode_entry_bundle(&entries).unwrap();
        assert_eq!(&b[..5], &[0, 3, 1, 2, 3]);
        assert_eq!(decode_entry_bundle(&b, 3).unwrap(), entries);
        assert_eq!(
            decode_entry_bundle(&b, 2),
            Err(EntryBundleError::WrongCount { width: 2, found: 3 })
        );
        assert_eq!(
            decode_entry_bundle(&b[..b.len() - 1], 3),
            Err(EntryBundleError::Truncated(2))
        );
        assert_eq!(
            decode_entry_bundle(&[0], 1),
            Err(EntryBundleError::Truncated(0))
        );
        assert!(encode_entry_bundle(&[vec![0u8; 65536]]).is_err());
    }

    #[test]
    fn tile_bytes_must_match_the_width() {
        let h = vec![Hash([1; 32]), Hash([2; 32])];
        let b = tile_bytes(&h);
        assert_eq!(tile_hashes(&b, 2).unwrap(), h);
        assert!(tile_hashes(&b, 1).is_none());
        assert!(tile_hashes(&b[..63], 2).is_none());
    }

    mod props {
        use super::*;
        use proptest::prelude::*;

        proptest! {
            #[test]
            fn tile_paths_round_trip(index in any::<u64>(), level in 0u8..64, width in 1u16..=256, entries in any::<bool>()) {
                let t = if entries { TileId::entries(index, width) } else { TileId::hashes(level, index, width) };
                prop_assert_eq!(TileId::parse(&t.path()), Ok(t));
            }

            #[test]
            fn arbitrary_strings_never_panic_and_parse_only_to_their_own_path(s in "tile/[0-9a-z./x]{0,30}") {
                if let Ok(t) = TileId::parse(&s) {
                    prop_assert_eq!(t.path(), s);
                }
            }
        }
    }
}
