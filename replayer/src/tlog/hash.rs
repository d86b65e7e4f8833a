//! RFC 6962 / RFC 9162 §2.1.1 Merkle tree hashing, with SHA-256.
//!
//! * the hash of a leaf is `SHA-256(0x00 || entry)`;
//! * the hash of an inner node is `SHA-256(0x01 || left || right)`;
//! * the root of an empty tree is `SHA-256("")`;
//! * the root of `n > 1` leaves splits them at `k`, the largest power of two below `n`:
//!   `node(root(D[0:k]), root(D[k:n]))`.

use sha2::{Digest, Sha256};

use crate::log::Hash;

/// The byte before a leaf's entry (RFC 6962 §2.1).
pub const LEAF_PREFIX: u8 = 0x00;
/// The byte before two child hashes (RFC 6962 §2.1).
pub const NODE_PREFIX: u8 = 0x01;

/// The root of the empty tree: `SHA-256("")`.
pub fn empty_root() -> Hash {
    Hash(Sha256::digest([]).into())
}

/// The hash of a leaf: `SHA-256(0x00 || entry)`.
pub fn leaf_hash(entry: &[u8]) -> Hash {
    let mut h = Sha256::new();
    h.update([LEAF_PREFIX]);
    h.update(entry);
    Hash(h.finalize().into())
}

/// The hash of an inner node: `SHA-256(0x01 || left || right)`.
pub fn node_hash(left: &Hash, right: &Hash) -> Hash {
    let mut h = Sha256::new();
    h.update([NODE_PREFIX]);
    h.update(left.0);
    h.update(right.0);
    Hash(h.finalize().into())
}

/// The largest power of two strictly below `n` (for `n >= 2`); 0 for smaller `n`.
pub(crate) fn split_point(n: u64) -> u64 {
    if n < 2 {
        return 0;
    }
    1u64 << (63 - (n - 1).leading_zeros())
}

/// The root of a tree over the given leaf hashes, computed from all of them (the definition
/// of RFC 6962 §2.1; O(n)). The reference that stored-hash computations are tested against,
/// and what the tiles of one height are folded with.
pub fn root_of(leaves: &[Hash]) -> Hash {
    match leaves {
        [] => empty_root(),
        [one] => *one,
        _ => {
            // The largest power of two below `len >= 2`: within the slice.
            let k = 1usize << (usize::BITS - 1 - (leaves.len() - 1).leading_zeros());
            let (left, right) = leaves.split_at(k);
            node_hash(&root_of(left), &root_of(right))
        }
    }
}

/// The root of a perfect subtree over `2^k` consecutive hashes, folded pairwise (the same as
/// [`root_of`] for a power-of-two count, without recursion).
pub(crate) fn perfect_root(hashes: &[Hash]) -> Hash {
    let mut level: Vec<Hash> = hashes.to_vec();
    while level.len() > 1 {
        level = level
            .chunks(2)
            .map(|p| match p {
                [l, r] => node_hash(l, r),
                [one] => *one,
                _ => empty_root(),
            })
            .collect();
    }
    level.first().copied().unwrap_or_else(empty_root)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_root_is_sha256_of_nothing() {
        assert_eq!(
            empty_root().to_hex(),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }

    #[test]
    fn leaf_and_node_hashes_are_domain_separated() {
        // RFC 6962 test vector: the hash of the empty leaf.
        assert_eq!(
            leaf_hash(b"").to_hex(),
            "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d"
        );
        let a = leaf_hash(b"a");
        assert_ne!(node_hash(&a, &a), leaf_hash(&[a.0, a.0].concat()));
    }

    #[test]
    fn split_point_is_the_largest_power_of_two_below() {
        for (n, k) in [
            (2, 1),
            (3, 2),
            (4, 2),
            (5, 4),
            (8, 4),
            (9, 8),
            (1 << 40, 1 << 39),
        ] {
            assert_eq!(split_point(n), k, "n = {n}");
        }
        assert_eq!(split_point(u64::MAX), 1 << 63);
    }

    #[test]
    fn perfect_root_agrees_with_root_of() {
        let leaves: Vec<Hash> = (0u8..16).map(|i| leaf_hash(&[i])).collect();
        for k in [1, 2, 4, 8, 16] {
            assert_eq!(perfect_root(&leaves[..k]), root_of(&leaves[..k]));
        }
    }

    /// The RFC 6962 reference roots of the first leaves of its test data
    /// (certificate-transparency-go `merkle` tests), sizes 1 to 8.
    #[test]
    fn roots_of_the_rfc6962_test_tree() {
        let data: [&[u8]; 8] = [
            b"",
            b"\x00",
            b"\x10",
            b"\x20\x21",
            b"\x30\x31",
            b"\x40\x41\x42\x43",
            b"\x50\x51\x52\x53\x54\x55\x56\x57",
            b"\x60\x61\x62\x63\x64\x65\x66\x67\x68\x69\x6a\x6b\x6c\x6d\x6e\x6f",
        ];
        let leaves: Vec<Hash> = data.iter().map(|d| leaf_hash(d)).collect();
        let want = [
            "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
            "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
            "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
            "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
            "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
            "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
            "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
            "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
        ];
        for (n, w) in want.iter().enumerate() {
            assert_eq!(root_of(&leaves[..n + 1]).to_hex(), *w, "size {}", n + 1);
        }
    }
}
