//! Where tiles live: the [`TileReader`] and [`TileWriter`] traits, an in-memory store and a
//! directory laid out as the log serves it, and [`TileHashReader`], which answers any
//! complete subtree's hash of a tree of a given size from tiles alone, one tile read each.

use std::collections::hash_map::Entry;
use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::log::Hash;

use super::hash::perfect_root;
use super::proof::{HashReader, NodeId};
use super::tile::{decode_entry_bundle, tile_hashes, TileId, TileKind, TILE_HEIGHT};

/// A problem reading or writing stored tiles.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// A tile the tree size calls for is not there (nor its full version).
    #[error("tile {0} is missing")]
    Missing(String),
    /// A tile is not what its path says: wrong length, or an entry bundle badly framed.
    #[error("tile {path} is malformed: {reason}")]
    Malformed {
        /// The tile's path.
        path: String,
        /// What is wrong.
        reason: String,
    },
    /// A subtree that is not complete in the tree being read was asked for.
    #[error("subtree ({level}, {index}) is not complete in a tree of size {size}")]
    NodeNotInTree {
        /// The subtree's level.
        level: u8,
        /// Its index.
        index: u64,
        /// The tree size.
        size: u64,
    },
    /// The storage failed (a file could not be read or written, a fetch failed).
    #[error("{what}: {message}")]
    Io {
        /// What was being read or written.
        what: String,
        /// The cause.
        message: String,
    },
    /// A bug: a reader broke its contract.
    #[error("internal error: {0}")]
    Internal(String),
}

/// Reads tiles and entry bundles by their [`TileId`].
///
/// ```
/// use replayer::tlog::{MemoryTiles, TileId, TileReader};
/// let tiles = MemoryTiles::default();
/// assert_eq!(tiles.read_tile(&TileId::hashes(0, 0, 3)).unwrap(), None);
/// ```
pub trait TileReader {
    /// The tile's bytes, or `None` when the store has no such tile.
    fn read_tile(&self, tile: &TileId) -> Result<Option<Vec<u8>>, StoreError>;
}

/// Stores tiles and entry bundles.
pub trait TileWriter {
    /// Store a tile's bytes under its id (replacing what was there).
    fn write_tile(&mut self, tile: &TileId, bytes: &[u8]) -> Result<(), StoreError>;
}

impl<T: TileReader + ?Sized> TileReader for &T {
    fn read_tile(&self, tile: &TileId) -> Result<Option<Vec<u8>>, StoreError> {
        (**self).read_tile(tile)
    }
}

/// Read a tile as it is in a tree, falling back to its full version when the partial one is
/// gone (C2SP tlog-tiles lets a log delete a partial tile once the full one exists): the
/// first `width` hashes of the full tile are the partial tile's.
pub fn read_tile_or_full(reader: &dyn TileReader, tile: &TileId) -> Result<Vec<u8>, StoreError> {
    if let Some(b) = reader.read_tile(tile)? {
        return Ok(b);
    }
    if !tile.is_full() {
        if let Some(full) = reader.read_tile(&tile.full())? {
            return match tile.kind {
                TileKind::Hashes(_) => Ok(full
                    .get(..usize::from(tile.width) * 32)
                    .ok_or_else(|| StoreError::Malformed {
                        path: tile.full().path(),
                        reason: format!("{} bytes, not 8192", full.len()),
                    })?
                    .to_vec()),
                TileKind::Entries => {
                    let entries =
                        decode_entry_bundle(&full, 256).map_err(|e| StoreError::Malformed {
                            path: tile.full().path(),
                            reason: e.to_string(),
                        })?;
                    let first = entries.get(..usize::from(tile.width)).unwrap_or(&[]);
                    super::tile::encode_entry_bundle(first).map_err(|e| StoreError::Malformed {
                        path: tile.full().path(),
                        reason: e.to_string(),
                    })
                }
            };
        }
    }
    Err(StoreError::Missing(tile.path()))
}

/// The hashes of a tile of hashes, checked to be exactly its width.
pub fn read_hash_tile(reader: &dyn TileReader, tile: &TileId) -> Result<Vec<Hash>, StoreError> {
    let bytes = read_tile_or_full(reader, tile)?;
    tile_hashes(&bytes, tile.width).ok_or_else(|| StoreError::Malformed {
        path: tile.path(),
        reason: format!(
            "{} bytes where {} hashes take {}",
            bytes.len(),
            tile.width,
            usize::from(tile.width) * 32
        ),
    })
}

/// The entries of an entry bundle, checked to be exactly its width.
pub fn read_entry_bundle(
    reader: &dyn TileReader,
    tile: &TileId,
) -> Result<Vec<Vec<u8>>, StoreError> {
    let bytes = read_tile_or_full(reader, tile)?;
    decode_entry_bundle(&bytes, tile.width).map_err(|e| StoreError::Malformed {
        path: tile.path(),
        reason: e.to_string(),
    })
}

/// Answers the hash of any complete subtree of the tree of the first `size` leaves from the
/// tiles of that tree: subtree `(ℓ, i)` is read from the tile of level `ℓ / 8` that holds
/// its `2^(ℓ mod 8)` descendants at height `8·(ℓ / 8)`, and folded from them. One tile read
/// per distinct tile, whatever the batch.
///
/// The tiles come from wherever the reader takes them and are not trusted: a proof made
/// from bad tiles does not verify against the checkpoint's root.
pub struct TileHashReader<R> {
    reader: R,
    size: u64,
}

impl<R: TileReader> TileHashReader<R> {
    /// Read the tree of `size` leaves from `reader`.
    pub fn new(reader: R, size: u64) -> Self {
        TileHashReader { reader, size }
    }

    /// The tree size it reads.
    pub fn size(&self) -> u64 {
        self.size
    }
}

impl<R: TileReader> HashReader for TileHashReader<R> {
    fn read_hashes(&self, nodes: &[NodeId]) -> Result<Vec<Hash>, StoreError> {
        let mut tiles: HashMap<TileId, Vec<Hash>> = HashMap::new();
        let mut out = Vec::with_capacity(nodes.len());
        for n in nodes {
            let not_in_tree = || StoreError::NodeNotInTree {
                level: n.level,
                index: n.index,
                size: self.size,
            };
            // Complete in the tree: (index + 1) · 2^level <= size.
            let end = n
                .index
                .checked_add(1)
                .and_then(|e| e.checked_mul(1u64.checked_shl(u32::from(n.level))?))
                .ok_or_else(not_in_tree)?;
            if end > self.size {
                return Err(not_in_tree());
            }
            let tile_level = n.level / TILE_HEIGHT;
            let below = n.level % TILE_HEIGHT;
            // Its descendants at the tile's height: 2^below of them, from `first`.
            let first = n.index << below;
            let tile_index = first >> TILE_HEIGHT;
            let tile = TileId::in_tree(TileKind::Hashes(tile_level), tile_index, self.size)
                .ok_or_else(not_in_tree)?;
            let hashes = match tiles.entry(tile) {
                Entry::Occupied(e) => e.into_mut(),
                Entry::Vacant(e) => e.insert(read_hash_tile(&self.reader, &tile)?),
            };
            let at = usize::try_from(first % 256).map_err(|_| not_in_tree())?;
            let span = hashes
                .get(at..at + (1usize << below))
                .ok_or_else(not_in_tree)?;
            out.push(perfect_root(span));
        }
        Ok(out)
    }
}

/// Tiles in memory, keyed by path: for tests, and a model of what a directory holds.
#[derive(Debug, Default)]
pub struct MemoryTiles {
    tiles: Mutex<BTreeMap<String, Vec<u8>>>,
}

impl MemoryTiles {
    /// Every stored path, sorted.
    pub fn paths(&self) -> Vec<String> {
        self.tiles
            .lock()
            .map(|t| t.keys().cloned().collect())
            .unwrap_or_default()
    }

    /// Remove a tile (to test the fallback to full tiles, or a missing tile).
    pub fn remove(&self, tile: &TileId) -> Option<Vec<u8>> {
        self.tiles.lock().ok()?.remove(&tile.path())
    }

    /// Replace a tile's bytes as they are stored (to test tampering).
    pub fn put(&self, tile: &TileId, bytes: Vec<u8>) {
        if let Ok(mut t) = self.tiles.lock() {
            t.insert(tile.path(), bytes);
        }
    }
}

impl TileReader for MemoryTiles {
    fn read_tile(&self, tile: &TileId) -> Result<Option<Vec<u8>>, StoreError> {
        let t = self
            .tiles
            .lock()
            .map_err(|_| StoreError::Internal("tile map poisoned".into()))?;
        Ok(t.get(&tile.path()).cloned())
    }
}

impl TileWriter for MemoryTiles {
    fn write_tile(&mut self, tile: &TileId, bytes: &[u8]) -> Result<(), StoreError> {
        self.put(tile, bytes.to_vec());
        Ok(())
    }
}

/// Tiles as files under a directory, at their C2SP paths (`DIR/tile/0/x001/234`), ready to
/// be served as static files under the log's prefix. The checkpoint is `DIR/checkpoint`.
#[derive(Clone, Debug)]
pub struct DirTiles {
    root: PathBuf,
}

impl DirTiles {
    /// The tiles under `root`.
    pub fn new(root: impl Into<PathBuf>) -> Self {
        DirTiles { root: root.into() }
    }

    /// The directory.
    pub fn root(&self) -> &Path {
        &self.root
    }

    fn file(&self, tile: &TileId) -> PathBuf {
        self.root.join(tile.path())
    }
}

/// Write a file by writing a temporary file beside it and renaming it over: a reader sees
/// the old bytes or the new, never a part.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), StoreError> {
    let io = |e: std::io::Error| StoreError::Io {
        what: format!("writing {}", path.display()),
        message: e.to_string(),
    };
    let dir = path.parent().unwrap_or_else(|| Path::new("."));
    std::fs::create_dir_all(dir).map_err(io)?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{name}.tmp.{}", std::process::id()));
    let mut f = std::fs::File::create(&tmp).map_err(io)?;
    f.write_all(bytes).map_err(io)?;
    f.sync_all().map_err(io)?;
    drop(f);
    std::fs::rename(&tmp, path).map_err(io)
}

impl TileReader for DirTiles {
    fn read_tile(&self, tile: &TileId) -> Result<Option<Vec<u8>>, StoreError> {
        let path = self.file(tile);
        match std::fs::read(&path) {
            Ok(b) => Ok(Some(b)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(StoreError::Io {
                what: format!("reading {}", path.display()),
                message: e.to_string(),
            }),
        }
    }
}

impl TileWriter for DirTiles {
    fn write_tile(&mut self, tile: &TileId, bytes: &[u8]) -> Result<(), StoreError> {
        write_atomically(&self.file(tile), bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tlog::hash::{leaf_hash, root_of};
    use crate::tlog::tile::tile_bytes;

    #[test]
    fn a_missing_partial_tile_falls_back_to_the_full_one() {
        let mut m = MemoryTiles::default();
        let hashes: Vec<Hash> = (0u8..=255).map(|i| leaf_hash(&[i])).collect();
        m.write_tile(&TileId::hashes(0, 0, 256), &tile_bytes(&hashes))
            .unwrap();
        let got = read_hash_tile(&m, &TileId::hashes(0, 0, 5)).unwrap();
        assert_eq!(got, hashes[..5].to_vec());
        assert!(matches!(
            read_hash_tile(&m, &TileId::hashes(0, 1, 5)),
            Err(StoreError::Missing(p)) if p == "tile/0/001.p/5"
        ));
        // A tile of the wrong length is malformed.
        m.put(&TileId::hashes(0, 1, 2), vec![0; 63]);
        assert!(matches!(
            read_hash_tile(&m, &TileId::hashes(0, 1, 2)),
            Err(StoreError::Malformed { .. })
        ));
        // The reader of a tree of 5 answers its leaves and subtrees, and no more.
        let r = TileHashReader::new(&m, 5);
        let got = r
            .read_hashes(&[NodeId { level: 2, index: 0 }, NodeId { level: 0, index: 4 }])
            .unwrap();
        assert_eq!(got, vec![root_of(&hashes[..4]), hashes[4]]);
        assert!(matches!(
            r.read_hashes(&[NodeId { level: 1, index: 2 }]),
            Err(StoreError::NodeNotInTree { .. })
        ));
        assert!(r
            .read_hashes(&[NodeId {
                level: 63,
                index: u64::MAX
            }])
            .is_err());
    }

    #[test]
    fn a_directory_stores_tiles_at_their_paths() {
        let dir = std::env::temp_dir().join(format!("tlog-dir-{}", std::process::id()));
        let mut d = DirTiles::new(&dir);
        let t = TileId::hashes(1, 1234, 3);
        d.write_tile(&t, &[7; 96]).unwrap();
        assert!(dir.join("tile/1/x001/234.p/3").is_file());
        assert_eq!(d.read_tile(&t).unwrap(), Some(vec![7; 96]));
        assert_eq!(d.read_tile(&TileId::hashes(1, 1234, 4)).unwrap(), None);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
