//! The club transparency log: every event of every hand of a club is a leaf of one Merkle
//! tree (RFC 6962 hashing), served as a C2SP tlog-tiles log with signed-note checkpoints.
//!
//! * [`hash`]: leaf and node hashes, the root of a list of leaves;
//! * [`proof`]: inclusion and consistency proofs from stored subtree hashes ([`HashReader`]),
//!   and their verification;
//! * [`tile`]: tile and entry-bundle ids, paths and framing;
//! * [`store`]: tile storage ([`TileReader`], [`TileWriter`]; in memory, in a directory) and
//!   [`TileHashReader`], which answers subtree hashes from tiles;
//! * [`append`]: [`TiledLog`], the right edge of a growing log;
//! * [`note`] and [`checkpoint`]: signed notes and checkpoints.

pub mod append;
pub mod checkpoint;
pub mod hash;
pub mod note;
pub mod proof;
pub mod store;
pub mod tile;

pub use append::{AppendError, TiledLog};
pub use checkpoint::{Checkpoint, CheckpointError, Origin};
pub use hash::{empty_root, leaf_hash, node_hash, root_of};
pub use note::{ed25519_key_id, open_note, NoteError, NoteSigner, NoteVerifier};
pub use proof::{
    consistency_proof, inclusion_proof, tree_root, verify_consistency, verify_inclusion,
    HashReader, MemoryHashes, NodeId, ProofError,
};
pub use store::{DirTiles, MemoryTiles, StoreError, TileHashReader, TileReader, TileWriter};
pub use tile::{TileId, TileKind, TilePathError};
