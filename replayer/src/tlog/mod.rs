//! The club transparency log: every event of every hand of a club is a leaf of one Merkle
//! tree (RFC 6962 hashing), served as a C2SP tlog-tiles log with signed-note checkpoints,
//! so that a club can prove later that no hand was rewritten or dropped, while the public
//! log says nothing about any hand. Specified in `docs/TRANSPARENCY.md`, with test vectors
//! in `docs/vectors/transparency-v1.json`.
//!
//! * [`hash`]: leaf and node hashes, the root of a list of leaves;
//! * [`proof`]: inclusion and consistency proofs from stored subtree hashes ([`HashReader`]),
//!   and their verification;
//! * [`tile`]: tile and entry-bundle ids, paths and framing;
//! * [`store`]: tile storage ([`TileReader`], [`TileWriter`]; in memory, in a directory) and
//!   [`TileHashReader`], which answers subtree hashes from tiles;
//! * [`append`]: [`TiledLog`], the right edge of a growing log;
//! * [`note`] and [`checkpoint`]: signed notes and checkpoints;
//! * [`leaf`]: the blinded leaf of an event;
//! * [`hand_proof`]: what a hand's reader checks its hand against.
//!
//! The service appends with [`TiledLog::append`] (one [`LeafEntry`] per committed event),
//! publishes with [`TiledLog::write_partials`] and [`Checkpoint::sign`], and answers proofs
//! with [`inclusion_proof`] and [`consistency_proof`] over a [`TileHashReader`].

pub mod append;
pub mod checkpoint;
pub mod hand_proof;
pub mod hash;
pub mod leaf;
pub mod note;
pub mod proof;
pub mod store;
pub mod tile;

pub use append::{AppendError, TiledLog};
pub use checkpoint::{Checkpoint, CheckpointError, Origin};
pub use hand_proof::{
    bundle_last_leaf, BundleLeaf, ConsistencyProofFile, HandLogProof, HandProofError,
};
pub use hash::{empty_root, leaf_hash, node_hash, root_of};
pub use leaf::{hand_leaves, HandSalt, LeafEntry, LeafError, LeafInput};
pub use note::{ed25519_key_id, open_note, NoteError, NoteSigner, NoteVerifier};
pub use proof::{
    consistency_proof, inclusion_proof, tree_root, verify_consistency, verify_inclusion,
    HashReader, MemoryHashes, NodeId, ProofError,
};
pub use store::{DirTiles, MemoryTiles, StoreError, TileHashReader, TileReader, TileWriter};
pub use tile::{TileId, TileKind, TilePathError};
