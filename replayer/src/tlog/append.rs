//! Growing a tiled log: [`TiledLog`] keeps only the right edge of the tree (the hashes of
//! the unfinished tile of each level, and the entries of the unfinished entry bundle) and
//! writes each tile once it is full; [`TiledLog::write_partials`] writes the partial tiles
//! of the current size before a checkpoint for it is published.
//!
//! ```
//! use replayer::tlog::{inclusion_proof, MemoryTiles, TileHashReader, TiledLog};
//!
//! let mut tiles = MemoryTiles::default();
//! let mut log = TiledLog::new();
//! for i in 0u16..300 {
//!     log.append(&i.to_be_bytes(), &mut tiles).unwrap();
//! }
//! log.write_partials(&mut tiles).unwrap();
//! let root = log.root();
//! // Later, from the tiles alone: a proof for leaf 7 of the tree of 300.
//! let proof = inclusion_proof(&TileHashReader::new(&tiles, 300), 7, 300).unwrap();
//! assert_eq!(proof.len(), 9);
//! # let _ = root;
//! ```

use crate::log::Hash;

use super::hash::{empty_root, leaf_hash, node_hash, perfect_root};
use super::store::{read_entry_bundle, read_hash_tile, StoreError, TileReader, TileWriter};
use super::tile::{
    encode_entry_bundle, tile_bytes, EntryBundleError, TileId, TileKind, MAX_TILE_LEVEL,
    TILE_HEIGHT, TILE_WIDTH,
};

/// A problem appending to the log.
#[derive(Debug, thiserror::Error)]
pub enum AppendError {
    /// The entry cannot be framed in an entry bundle.
    #[error(transparent)]
    Entry(#[from] EntryBundleError),
    /// The log holds 2^64 − 1 leaves.
    #[error("the log is full")]
    Full,
    /// A tile could not be written.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// The right edge of a tiled log: everything needed to append, to write tiles and to compute
/// the root, for any size, in at most `8 · 255` hashes and 255 entries of memory.
#[derive(Clone, Debug, Default)]
pub struct TiledLog {
    size: u64,
    /// `edge[L]`: the hashes of the unfinished tile of level `L` (0 to 255 of them).
    edge: Vec<Vec<Hash>>,
    /// The entries of the unfinished entry bundle.
    entries: Vec<Vec<u8>>,
}

impl TiledLog {
    /// An empty log.
    pub fn new() -> Self {
        TiledLog::default()
    }

    /// Continue a log of `size` leaves from its stored tiles: reads the partial tile of
    /// each level and the partial entry bundle that size has (or the full ones they fell
    /// back to), nothing else.
    pub fn open(reader: &dyn TileReader, size: u64) -> Result<Self, StoreError> {
        let mut edge = Vec::new();
        for level in 0..=MAX_TILE_LEVEL {
            let shift = u32::from(level) * u32::from(TILE_HEIGHT);
            let count = size.checked_shr(shift).unwrap_or(0);
            if count == 0 {
                break;
            }
            let index = count / TILE_WIDTH;
            let hashes = match TileId::in_tree(TileKind::Hashes(level), index, size) {
                Some(t) => read_hash_tile(reader, &t)?,
                None => Vec::new(),
            };
            edge.push(hashes);
        }
        let entries = match TileId::in_tree(TileKind::Entries, size / TILE_WIDTH, size) {
            Some(t) => read_entry_bundle(reader, &t)?,
            None => Vec::new(),
        };
        Ok(TiledLog {
            size,
            edge,
            entries,
        })
    }

    /// How many leaves the log holds.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// Append one entry (its leaf hash is `SHA-256(0x00 || entry)`), writing every tile
    /// and entry bundle it completes. Returns the new leaf's index.
    pub fn append(
        &mut self,
        entry: &[u8],
        writer: &mut dyn TileWriter,
    ) -> Result<u64, AppendError> {
        if entry.len() > super::tile::MAX_ENTRY_LEN {
            return Err(EntryBundleError::EntryTooLong(entry.len()).into());
        }
        let index = self.size;
        let next = index.checked_add(1).ok_or(AppendError::Full)?;
        self.entries.push(entry.to_vec());
        if self.entries.len() as u64 == TILE_WIDTH {
            let bundle = encode_entry_bundle(&self.entries)?;
            writer.write_tile(&TileId::entries(index / TILE_WIDTH, 256), &bundle)?;
            self.entries.clear();
        }
        // Push the leaf hash into level 0; a tile that fills is written, and its root goes
        // one level up.
        let mut carry = leaf_hash(entry);
        let mut level = 0usize;
        loop {
            if self.edge.len() <= level {
                self.edge.push(Vec::new());
            }
            let Some(row) = self.edge.get_mut(level) else {
                return Err(StoreError::Internal("edge level missing".into()).into());
            };
            row.push(carry);
            if row.len() as u64 != TILE_WIDTH {
                break;
            }
            let tile_level = u8::try_from(level).map_err(|_| AppendError::Full)?;
            let shift = u32::from(tile_level + 1) * u32::from(TILE_HEIGHT);
            // The index of this full tile within its level.
            let tile_index = index.checked_shr(shift).unwrap_or(0);
            writer.write_tile(
                &TileId::hashes(tile_level, tile_index, 256),
                &tile_bytes(row),
            )?;
            carry = perfect_root(row);
            row.clear();
            level += 1;
        }
        self.size = next;
        Ok(index)
    }

    /// Write the partial tiles and the partial entry bundle of the current size (the `.p/W`
    /// files), which readers need until the tiles fill. Call before publishing a checkpoint
    /// of this size.
    pub fn write_partials(&self, writer: &mut dyn TileWriter) -> Result<(), StoreError> {
        for (level, row) in self.edge.iter().enumerate() {
            if row.is_empty() {
                continue;
            }
            let level = u8::try_from(level).map_err(|_| StoreError::Internal("level".into()))?;
            let shift = u32::from(level) * u32::from(TILE_HEIGHT);
            let index = self.size.checked_shr(shift).unwrap_or(0) / TILE_WIDTH;
            let width =
                u16::try_from(row.len()).map_err(|_| StoreError::Internal("width".into()))?;
            writer.write_tile(&TileId::hashes(level, index, width), &tile_bytes(row))?;
        }
        if !self.entries.is_empty() {
            let width = u16::try_from(self.entries.len())
                .map_err(|_| StoreError::Internal("width".into()))?;
            let bundle = encode_entry_bundle(&self.entries)
                .map_err(|e| StoreError::Internal(e.to_string()))?;
            writer.write_tile(&TileId::entries(self.size / TILE_WIDTH, width), &bundle)?;
        }
        Ok(())
    }

    /// The root of the tree of the current size, from the right edge alone: the perfect
    /// subtrees that the binary digits of the size name, folded from the right.
    pub fn root(&self) -> Hash {
        let mut acc: Option<Hash> = None;
        for bit in 0..64u32 {
            if self.size & (1u64 << bit) == 0 {
                continue;
            }
            let level = usize::try_from(bit / u32::from(TILE_HEIGHT)).unwrap_or(usize::MAX);
            let below = bit % u32::from(TILE_HEIGHT);
            let Some(row) = self.edge.get(level) else {
                continue;
            };
            // The subtree of this bit holds the 2^below hashes of the row just before
            // those of the lower bits of the row's width.
            let width = row.len();
            let end = width & !((1usize << below) - 1);
            let start = end.saturating_sub(1usize << below);
            let Some(span) = row.get(start..end) else {
                continue;
            };
            let h = perfect_root(span);
            acc = Some(match acc {
                None => h,
                Some(right) => node_hash(&h, &right),
            });
        }
        acc.unwrap_or_else(empty_root)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tlog::hash::root_of;
    use crate::tlog::proof::{consistency_proof, inclusion_proof, tree_root};
    use crate::tlog::store::{MemoryTiles, TileHashReader};

    fn entry(i: u64) -> Vec<u8> {
        i.to_be_bytes().to_vec()
    }

    #[test]
    fn roots_from_the_edge_agree_with_the_definition() {
        let mut tiles = MemoryTiles::default();
        let mut log = TiledLog::new();
        let mut leaves = Vec::new();
        assert_eq!(log.root(), empty_root());
        for i in 0..(256 * 256 + 700) {
            log.append(&entry(i), &mut tiles).unwrap();
            leaves.push(leaf_hash(&entry(i)));
            let n = i + 1;
            if n < 600 || n % 9973 == 0 || n == 65536 || n == 65537 {
                assert_eq!(log.root(), root_of(&leaves), "size {n}");
            }
        }
        assert_eq!(log.root(), root_of(&leaves));
        // Full tiles were written as they filled: 256 full level-0 tiles, one level 1.
        assert!(tiles
            .read_tile(&TileId::hashes(1, 0, 256))
            .unwrap()
            .is_some());
        assert!(tiles
            .read_tile(&TileId::entries(256, 256))
            .unwrap()
            .is_some());
        log.write_partials(&mut tiles).unwrap();
        let n = log.size();
        let r = TileHashReader::new(&tiles, n);
        assert_eq!(tree_root(&r, n).unwrap(), log.root());
        // Reopened from the tiles, the log goes on identically.
        let mut again = TiledLog::open(&tiles, n).unwrap();
        assert_eq!(again.root(), log.root());
        again.append(b"next", &mut tiles).unwrap();
        log.append(b"next", &mut MemoryTiles::default()).unwrap();
        assert_eq!(again.root(), log.root());
    }

    #[test]
    fn proofs_from_tiles_match_proofs_from_all_hashes() {
        let mut tiles = MemoryTiles::default();
        let mut log = TiledLog::new();
        let mut leaves = Vec::new();
        let mut sizes = Vec::new();
        for i in 0..5000u64 {
            log.append(&entry(i), &mut tiles).unwrap();
            leaves.push(leaf_hash(&entry(i)));
            if [1, 255, 256, 257, 1000, 4097, 5000].contains(&(i + 1)) {
                log.write_partials(&mut tiles).unwrap();
                sizes.push(i + 1);
            }
        }
        let all = crate::tlog::proof::MemoryHashes::from_leaves(&leaves);
        for &n in &sizes {
            let r = TileHashReader::new(&tiles, n);
            for m in [0, 1, n / 3, n - 1].into_iter().filter(|&m| m < n) {
                assert_eq!(
                    inclusion_proof(&r, m, n).unwrap(),
                    inclusion_proof(&all, m, n).unwrap()
                );
            }
            for &old in &sizes {
                if old <= n {
                    assert_eq!(
                        consistency_proof(&r, old, n).unwrap(),
                        consistency_proof(&all, old, n).unwrap()
                    );
                }
            }
        }
    }

    #[test]
    fn an_entry_too_long_for_a_bundle_is_refused() {
        let mut log = TiledLog::new();
        let mut tiles = MemoryTiles::default();
        assert!(matches!(
            log.append(&vec![0; 70_000], &mut tiles),
            Err(AppendError::Entry(_))
        ));
        assert_eq!(log.size(), 0);
    }
}
