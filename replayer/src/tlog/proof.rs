//! Inclusion and consistency proofs (RFC 9162 §2.1.3 and §2.1.4): generated from stored
//! hashes of complete subtrees, verified from the proof alone.
//!
//! Generation never rehashes the tree. Every hash a proof holds is the root of a range of
//! leaves `[lo, hi)` that the RFC's recursion visits; such a range splits into at most
//! 64 complete (perfect) subtrees, each a [`NodeId`] that a [`HashReader`] answers from
//! storage. Only one range of a proof can be incomplete (the first right sibling met
//! while descending to the left), so a proof for a tree of `n` leaves reads O(log n)
//! stored hashes, all asked for in one batch.
//!
//! ```
//! use replayer::tlog::{
//!     inclusion_proof, leaf_hash, root_of, verify_inclusion, MemoryHashes,
//! };
//!
//! let leaves: Vec<_> = (0u8..7).map(|i| leaf_hash(&[i])).collect();
//! let stored = MemoryHashes::from_leaves(&leaves);
//! let proof = inclusion_proof(&stored, 3, 7).unwrap();
//! verify_inclusion(&leaves[3], 3, 7, &proof, &root_of(&leaves)).unwrap();
//! ```

use crate::log::Hash;

use super::hash::{empty_root, node_hash, split_point};
use super::store::StoreError;

/// A complete subtree of the log: the `index`-th run of `2^level` leaves, that is the
/// leaves `[index · 2^level, (index + 1) · 2^level)`. Level 0 is a leaf.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId {
    /// The subtree's height: it holds `2^level` leaves.
    pub level: u8,
    /// Which subtree of that height, from the left.
    pub index: u64,
}

/// Reads the stored hashes of complete subtrees. A tile store answers each with one tile
/// read ([`super::TileHashReader`]); [`MemoryHashes`] keeps every level in memory.
pub trait HashReader {
    /// The hashes of the given complete subtrees, in the order asked. An implementation
    /// refuses a subtree that is not complete in the tree it reads.
    fn read_hashes(&self, nodes: &[NodeId]) -> Result<Vec<Hash>, StoreError>;
}

/// What went wrong making or checking a proof.
#[derive(Debug, thiserror::Error)]
pub enum ProofError {
    /// The leaf index is not below the tree size.
    #[error("leaf index {index} is not in a tree of size {size}")]
    IndexOutOfRange {
        /// The leaf's index.
        index: u64,
        /// The tree size.
        size: u64,
    },
    /// The old tree is larger than the new one.
    #[error("old tree size {old} is larger than new tree size {new}")]
    OldLargerThanNew {
        /// The old size.
        old: u64,
        /// The new size.
        new: u64,
    },
    /// The proof has the wrong number of hashes for its sizes and index.
    #[error("the proof has {found} hashes where {expected} are needed")]
    WrongLength {
        /// How many hashes the sizes call for.
        expected: usize,
        /// How many the proof has.
        found: usize,
    },
    /// The root the proof leads to is not the expected root.
    #[error("the proof leads to root {computed}, not the expected {expected}")]
    RootMismatch {
        /// The root the checkpoint (or caller) gives.
        expected: Hash,
        /// The root computed from the proof.
        computed: Hash,
    },
    /// The old root of a consistency proof is not the one the proof leads to.
    #[error("the proof leads to old root {computed}, not the expected {expected}")]
    OldRootMismatch {
        /// The old root given.
        expected: Hash,
        /// The old root computed from the proof.
        computed: Hash,
    },
    /// Two trees of the same size with different roots: a fork.
    #[error("two different roots for tree size {size}: {old} and {new}")]
    SameSizeDifferentRoots {
        /// The size.
        size: u64,
        /// The old root.
        old: Hash,
        /// The new root.
        new: Hash,
    },
    /// A stored hash could not be read.
    #[error(transparent)]
    Read(#[from] StoreError),
}

/// The ranges `[lo, hi)` whose roots make the inclusion proof of leaf `m` in `[lo, hi)`,
/// bottom up (RFC 9162 §2.1.3.1, PATH).
fn inclusion_ranges(m: u64, mut lo: u64, mut hi: u64, out: &mut Vec<(u64, u64)>) {
    // Top down, then reversed: the recursion `PATH(m, D[lo:hi])` unrolled.
    let start = out.len();
    while hi - lo > 1 {
        let k = split_point(hi - lo);
        if m < lo + k {
            out.push((lo + k, hi));
            hi = lo + k;
        } else {
            out.push((lo, lo + k));
            lo += k;
        }
    }
    out[start..].reverse();
}

/// The ranges whose roots make the consistency proof from `m` to `[lo, hi)`, bottom up
/// (RFC 9162 §2.1.4.1, SUBPROOF(m, D[lo:hi], b)).
fn consistency_ranges(mut m: u64, mut lo: u64, hi: u64, mut b: bool) -> Vec<(u64, u64)> {
    let mut hi = hi;
    let mut out = Vec::new();
    loop {
        let n = hi - lo;
        if m == n {
            if !b {
                out.push((lo, hi));
            }
            break;
        }
        let k = split_point(n);
        if m <= k {
            out.push((lo + k, hi));
            hi = lo + k;
        } else {
            out.push((lo, lo + k));
            m -= k;
            lo += k;
            b = false;
        }
    }
    out.reverse();
    out
}

/// The complete subtrees whose hashes give the root of `[lo, hi)`, left to right. `lo` is
/// a multiple of the largest power of two not above `hi - lo` for every range the proofs
/// visit, so the subtrees follow the binary digits of `hi - lo`, largest first.
fn range_nodes(lo: u64, hi: u64, out: &mut Vec<NodeId>) {
    let mut at = lo;
    let mut left = hi - lo;
    while left > 0 {
        let level = 63 - left.leading_zeros();
        let size = 1u64 << level;
        out.push(NodeId {
            // `level <= 63`.
            level: u8::try_from(level).unwrap_or(63),
            index: at >> level,
        });
        at += size;
        left -= size;
    }
}

/// The roots of the given ranges, read from `reader` in one batch.
fn range_roots(reader: &dyn HashReader, ranges: &[(u64, u64)]) -> Result<Vec<Hash>, StoreError> {
    let mut nodes = Vec::new();
    let mut counts = Vec::with_capacity(ranges.len());
    for &(lo, hi) in ranges {
        let before = nodes.len();
        range_nodes(lo, hi, &mut nodes);
        counts.push(nodes.len() - before);
    }
    let hashes = reader.read_hashes(&nodes)?;
    if hashes.len() != nodes.len() {
        return Err(StoreError::Internal(format!(
            "asked for {} hashes, got {}",
            nodes.len(),
            hashes.len()
        )));
    }
    let mut out = Vec::with_capacity(ranges.len());
    let mut rest = hashes.as_slice();
    for c in counts {
        let (these, after) = rest.split_at(c);
        rest = after;
        // Fold from the right: the root of 2^a + 2^b + … (a > b > …) leaves is
        // node(2^a subtree, root of the rest).
        let mut it = these.iter().rev();
        let Some(last) = it.next() else {
            out.push(empty_root());
            continue;
        };
        out.push(it.fold(*last, |acc, h| node_hash(h, &acc)));
    }
    Ok(out)
}

/// The root of the tree of the first `size` leaves, from stored hashes (at most 64 reads).
pub fn tree_root(reader: &dyn HashReader, size: u64) -> Result<Hash, StoreError> {
    if size == 0 {
        return Ok(empty_root());
    }
    Ok(range_roots(reader, &[(0, size)])?
        .first()
        .copied()
        .unwrap_or_else(empty_root))
}

/// The inclusion proof of leaf `index` in the tree of the first `size` leaves (RFC 9162
/// §2.1.3.1), bottom up, from stored hashes.
pub fn inclusion_proof(
    reader: &dyn HashReader,
    index: u64,
    size: u64,
) -> Result<Vec<Hash>, ProofError> {
    if index >= size {
        return Err(ProofError::IndexOutOfRange { index, size });
    }
    let mut ranges = Vec::new();
    inclusion_ranges(index, 0, size, &mut ranges);
    Ok(range_roots(reader, &ranges)?)
}

/// The consistency proof from the tree of the first `old` leaves to the tree of the first
/// `new` leaves (RFC 9162 §2.1.4.1), from stored hashes. Empty when `old` is 0 or equal to
/// `new`.
pub fn consistency_proof(
    reader: &dyn HashReader,
    old: u64,
    new: u64,
) -> Result<Vec<Hash>, ProofError> {
    if old > new {
        return Err(ProofError::OldLargerThanNew { old, new });
    }
    if old == 0 || old == new {
        return Ok(Vec::new());
    }
    let ranges = consistency_ranges(old, 0, new, true);
    Ok(range_roots(reader, &ranges)?)
}

/// How many hashes the inclusion proof of `index` in a tree of `size` holds.
fn inclusion_len(index: u64, size: u64) -> usize {
    let mut ranges = Vec::new();
    inclusion_ranges(index, 0, size, &mut ranges);
    ranges.len()
}

/// Check an inclusion proof (RFC 9162 §2.1.3.2): that the leaf with hash `leaf` is leaf
/// `index` of the tree of `size` leaves whose root is `root`.
pub fn verify_inclusion(
    leaf: &Hash,
    index: u64,
    size: u64,
    proof: &[Hash],
    root: &Hash,
) -> Result<(), ProofError> {
    if index >= size {
        return Err(ProofError::IndexOutOfRange { index, size });
    }
    let expected = inclusion_len(index, size);
    if proof.len() != expected {
        return Err(ProofError::WrongLength {
            expected,
            found: proof.len(),
        });
    }
    let computed = root_from_inclusion(leaf, index, size, proof)?;
    if computed != *root {
        return Err(ProofError::RootMismatch {
            expected: *root,
            computed,
        });
    }
    Ok(())
}

/// The root an inclusion proof leads to (the loop of RFC 9162 §2.1.3.2).
fn root_from_inclusion(
    leaf: &Hash,
    index: u64,
    size: u64,
    proof: &[Hash],
) -> Result<Hash, ProofError> {
    let mut f_n = index;
    let mut s_n = size - 1;
    let mut r = *leaf;
    for p in proof {
        if s_n == 0 {
            return Err(ProofError::WrongLength {
                expected: inclusion_len(index, size),
                found: proof.len(),
            });
        }
        if f_n & 1 == 1 || f_n == s_n {
            r = node_hash(p, &r);
            if f_n & 1 == 0 {
                while f_n & 1 == 0 && f_n != 0 {
                    f_n >>= 1;
                    s_n >>= 1;
                }
            }
        } else {
            r = node_hash(&r, p);
        }
        f_n >>= 1;
        s_n >>= 1;
    }
    if s_n != 0 {
        return Err(ProofError::WrongLength {
            expected: inclusion_len(index, size),
            found: proof.len(),
        });
    }
    Ok(r)
}

/// Check a consistency proof (RFC 9162 §2.1.4.2): that the tree of `old` leaves with root
/// `old_root` is a prefix of the tree of `new` leaves with root `new_root`.
///
/// Equal sizes need an empty proof and equal roots; an old size of 0 needs an empty proof
/// and the empty tree's root.
pub fn verify_consistency(
    old: u64,
    new: u64,
    proof: &[Hash],
    old_root: &Hash,
    new_root: &Hash,
) -> Result<(), ProofError> {
    if old > new {
        return Err(ProofError::OldLargerThanNew { old, new });
    }
    if old == new || old == 0 {
        if !proof.is_empty() {
            return Err(ProofError::WrongLength {
                expected: 0,
                found: proof.len(),
            });
        }
        if old == 0 {
            let empty = empty_root();
            if *old_root != empty {
                return Err(ProofError::OldRootMismatch {
                    expected: *old_root,
                    computed: empty,
                });
            }
            return Ok(());
        }
        if old_root != new_root {
            return Err(ProofError::SameSizeDifferentRoots {
                size: old,
                old: *old_root,
                new: *new_root,
            });
        }
        return Ok(());
    }
    let expected = consistency_ranges(old, 0, new, true).len();
    if proof.len() != expected {
        return Err(ProofError::WrongLength {
            expected,
            found: proof.len(),
        });
    }
    let wrong = || ProofError::WrongLength {
        expected,
        found: proof.len(),
    };
    // RFC 9162 §2.1.4.2: when `old` is a power of two, the old root is the first hash.
    let with_old;
    let path: &[Hash] = if old.is_power_of_two() {
        with_old = [std::slice::from_ref(old_root), proof].concat();
        &with_old
    } else {
        proof
    };
    let mut f_n = old - 1;
    let mut s_n = new - 1;
    while f_n & 1 == 1 {
        f_n >>= 1;
        s_n >>= 1;
    }
    let (first, rest) = path.split_first().ok_or_else(wrong)?;
    let mut f_r = *first;
    let mut s_r = *first;
    for c in rest {
        if s_n == 0 {
            return Err(wrong());
        }
        if f_n & 1 == 1 || f_n == s_n {
            f_r = node_hash(c, &f_r);
            s_r = node_hash(c, &s_r);
            if f_n & 1 == 0 {
                while f_n & 1 == 0 && f_n != 0 {
                    f_n >>= 1;
                    s_n >>= 1;
                }
            }
        } else {
            s_r = node_hash(&s_r, c);
        }
        f_n >>= 1;
        s_n >>= 1;
    }
    if s_n != 0 {
        return Err(wrong());
    }
    if f_r != *old_root {
        return Err(ProofError::OldRootMismatch {
            expected: *old_root,
            computed: f_r,
        });
    }
    if s_r != *new_root {
        return Err(ProofError::RootMismatch {
            expected: *new_root,
            computed: s_r,
        });
    }
    Ok(())
}

/// Every level of a tree in memory: the stored hashes of a small log, for tests and for
/// building proofs over a handful of leaves.
#[derive(Clone, Debug, Default)]
pub struct MemoryHashes {
    /// `levels[l][i]` is the hash of the complete subtree `(l, i)`.
    levels: Vec<Vec<Hash>>,
}

impl MemoryHashes {
    /// The stored hashes of a tree over these leaf hashes.
    pub fn from_leaves(leaves: &[Hash]) -> MemoryHashes {
        let mut levels = vec![leaves.to_vec()];
        while let Some(top) = levels.last() {
            if top.len() < 2 {
                break;
            }
            let next: Vec<Hash> = top
                .chunks_exact(2)
                .filter_map(|p| match p {
                    [l, r] => Some(node_hash(l, r)),
                    _ => None,
                })
                .collect();
            levels.push(next);
        }
        MemoryHashes { levels }
    }

    /// How many leaves it holds.
    pub fn size(&self) -> u64 {
        self.levels.first().map_or(0, |l| l.len() as u64)
    }
}

impl HashReader for MemoryHashes {
    fn read_hashes(&self, nodes: &[NodeId]) -> Result<Vec<Hash>, StoreError> {
        nodes
            .iter()
            .map(|n| {
                self.levels
                    .get(usize::from(n.level))
                    .and_then(|l| l.get(usize::try_from(n.index).ok()?))
                    .copied()
                    .ok_or(StoreError::NodeNotInTree {
                        level: n.level,
                        index: n.index,
                        size: self.size(),
                    })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::super::hash::{leaf_hash, root_of};
    use super::*;

    fn leaves(n: u64) -> Vec<Hash> {
        (0..n).map(|i| leaf_hash(&i.to_be_bytes())).collect()
    }

    #[test]
    fn every_inclusion_proof_of_small_trees_verifies_and_has_rfc_length() {
        for n in 1..=40u64 {
            let l = leaves(n);
            let m = MemoryHashes::from_leaves(&l);
            let root = root_of(&l);
            assert_eq!(tree_root(&m, n).unwrap(), root);
            for i in 0..n {
                let p = inclusion_proof(&m, i, n).unwrap();
                verify_inclusion(&l[i as usize], i, n, &p, &root).unwrap();
                // Another leaf's hash, or another index, does not verify.
                let other = (i + 1) % n;
                if other != i {
                    assert!(verify_inclusion(&l[other as usize], i, n, &p, &root).is_err());
                }
            }
        }
    }

    #[test]
    fn every_consistency_proof_of_small_trees_verifies() {
        let l = leaves(40);
        let m = MemoryHashes::from_leaves(&l);
        for new in 1..=40u64 {
            let new_root = root_of(&l[..new as usize]);
            for old in 0..=new {
                let old_root = root_of(&l[..old as usize]);
                let p = consistency_proof(&m, old, new).unwrap();
                verify_consistency(old, new, &p, &old_root, &new_root)
                    .unwrap_or_else(|e| panic!("{old} -> {new}: {e}"));
                if old > 0 && old < new {
                    let wrong = leaf_hash(b"wrong");
                    assert!(verify_consistency(old, new, &p, &wrong, &new_root).is_err());
                    assert!(verify_consistency(old, new, &p, &old_root, &wrong).is_err());
                }
            }
        }
    }

    /// The example tree of RFC 9162 §2.1.5, seven leaves with hashes a … f and j, inner
    /// nodes g = (a, b), h = (c, d), i = (e, f), k = (g, h), l = (i, j).
    #[test]
    fn proof_lengths_match_the_rfc_examples() {
        let l = leaves(7);
        let m = MemoryHashes::from_leaves(&l);
        // §2.1.5: inclusion of b (index 1): [a, h, l]; of d (3): [c, g, l]; of e (4):
        // [f, j, k]; of g (6): [i, k].
        assert_eq!(inclusion_proof(&m, 0, 7).unwrap().len(), 3);
        assert_eq!(inclusion_proof(&m, 3, 7).unwrap().len(), 3);
        assert_eq!(inclusion_proof(&m, 4, 7).unwrap().len(), 3);
        let p6 = inclusion_proof(&m, 6, 7).unwrap();
        assert_eq!(p6, vec![root_of(&l[4..6]), root_of(&l[0..4])]);
        // Consistency from 3 to 7: [c, d, g, l]; from 4 to 7: [l]; from 6 to 7: [i, j, k].
        let c37 = consistency_proof(&m, 3, 7).unwrap();
        assert_eq!(c37, vec![l[2], l[3], root_of(&l[0..2]), root_of(&l[4..7])]);
        assert_eq!(
            consistency_proof(&m, 4, 7).unwrap(),
            vec![root_of(&l[4..7])]
        );
        assert_eq!(
            consistency_proof(&m, 6, 7).unwrap(),
            vec![root_of(&l[4..6]), l[6], root_of(&l[0..4])]
        );
    }

    #[test]
    fn bad_arguments_are_named() {
        let l = leaves(5);
        let m = MemoryHashes::from_leaves(&l);
        assert!(matches!(
            inclusion_proof(&m, 5, 5),
            Err(ProofError::IndexOutOfRange { index: 5, size: 5 })
        ));
        assert!(matches!(
            consistency_proof(&m, 6, 5),
            Err(ProofError::OldLargerThanNew { old: 6, new: 5 })
        ));
        // A node the store does not have.
        assert!(matches!(
            inclusion_proof(&m, 0, 9),
            Err(ProofError::Read(StoreError::NodeNotInTree { .. }))
        ));
        let root = root_of(&l);
        let p = inclusion_proof(&m, 2, 5).unwrap();
        assert!(matches!(
            verify_inclusion(&l[2], 2, 5, &p[..1], &root),
            Err(ProofError::WrongLength { .. })
        ));
        assert!(matches!(
            verify_consistency(3, 3, &[], &root, &l[0]),
            Err(ProofError::SameSizeDifferentRoots { .. })
        ));
        assert!(verify_consistency(0, 5, &[], &empty_root(), &root).is_ok());
        assert!(verify_consistency(0, 5, &[], &root, &root).is_err());
    }
}
