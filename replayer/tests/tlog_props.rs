//! Property tests of the club log: every inclusion and consistency proof computed from tiles
//! (for random tree sizes, with partial tiles at every level) verifies against the root
//! computed from all the leaves by the RFC's definition, and any change to a proof's hashes,
//! sizes or index makes it fail.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use proptest::prelude::*;

use replayer::log::Hash;
use replayer::tlog::{
    consistency_proof, inclusion_proof, leaf_hash, root_of, tree_root, verify_consistency,
    verify_inclusion, MemoryTiles, TileHashReader, TiledLog,
};

/// The leaf hashes of the test log's first `n` leaves (leaf `i`'s entry is `u64be(i)`).
fn leaves_of(n: u64) -> Vec<Hash> {
    static ALL: OnceLock<Vec<Hash>> = OnceLock::new();
    let all = ALL.get_or_init(|| {
        (0..BIG[BIG.len() - 1] + 1000)
            .map(|i| leaf_hash(&i.to_be_bytes()))
            .collect()
    });
    match all.get(..n as usize) {
        Some(prefix) => prefix.to_vec(),
        None => (0..n).map(|i| leaf_hash(&i.to_be_bytes())).collect(),
    }
}

/// The root of the first `n` leaves by the RFC's recursive definition ([`root_of`]),
/// remembered for large `n` (130 ms each at 66,000 leaves in a test build).
fn naive_root(n: u64) -> Hash {
    static CACHE: OnceLock<Mutex<HashMap<u64, Hash>>> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    if let Some(h) = cache.lock().unwrap().get(&n) {
        return *h;
    }
    let h = root_of(&leaves_of(n));
    if n > 5000 {
        cache.lock().unwrap().insert(n, h);
    }
    h
}

/// Write a log of `n` leaves into `tiles`, with the partial tiles of every size in `marks`.
fn build(n: u64, marks: &[u64]) -> MemoryTiles {
    let mut tiles = MemoryTiles::default();
    let mut log = TiledLog::new();
    for i in 0..n {
        log.append(&i.to_be_bytes(), &mut tiles).unwrap();
        if marks.contains(&(i + 1)) {
            log.write_partials(&mut tiles).unwrap();
        }
    }
    log.write_partials(&mut tiles).unwrap();
    tiles
}

/// Sizes past 65536 (a level-2 tile), built once: their tiles are slow to build.
const BIG: [u64; 5] = [65_535, 65_536, 65_537, 65_791, 66_000];

/// The tiles of a log of `n` leaves (partial tiles of size `n` written), and its leaves.
fn log_of(n: u64) -> (Arc<MemoryTiles>, Vec<Hash>) {
    static BIG_LOG: OnceLock<Arc<MemoryTiles>> = OnceLock::new();
    let tiles = if BIG.contains(&n) {
        BIG_LOG
            .get_or_init(|| Arc::new(build(BIG[BIG.len() - 1], &BIG)))
            .clone()
    } else {
        Arc::new(build(n, &[]))
    };
    (tiles, leaves_of(n))
}

/// A tree size with a fair share of the edges: tiny, around 256, and past 65536.
fn size() -> impl Strategy<Value = u64> {
    prop_oneof![
        4 => 1u64..40,
        4 => 200u64..800,
        1 => prop::sample::select(BIG.to_vec()),
    ]
}

fn flip(h: &Hash, bit: u8) -> Hash {
    let mut b = h.0;
    b[usize::from(bit / 8)] ^= 1 << (bit % 8);
    Hash(b)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn inclusion_proofs_from_tiles_verify_and_tampering_fails(
        n in size(),
        index_seed in any::<u64>(),
        which in any::<prop::sample::Index>(),
        bit in any::<u8>(),
        other_seed in any::<u64>(),
    ) {
        let (tiles, leaves) = log_of(n);
        let reader = TileHashReader::new(&*tiles, n);
        let root = naive_root(n);
        prop_assert_eq!(tree_root(&reader, n).unwrap(), root);
        let index = index_seed % n;
        let leaf = leaves[index as usize];
        let proof = inclusion_proof(&reader, index, n).unwrap();
        prop_assert!(verify_inclusion(&leaf, index, n, &proof, &root).is_ok());

        // Any one hash changed.
        if !proof.is_empty() {
            let mut bad = proof.clone();
            let j = which.index(bad.len());
            bad[j] = flip(&bad[j], bit);
            prop_assert!(verify_inclusion(&leaf, index, n, &bad, &root).is_err());
            // A hash dropped, or one added.
            prop_assert!(verify_inclusion(&leaf, index, n, &proof[1..], &root).is_err());
        }
        let mut longer = proof.clone();
        longer.push(root);
        prop_assert!(verify_inclusion(&leaf, index, n, &longer, &root).is_err());
        // Another index (with its own leaf, or this leaf).
        if n > 1 {
            let other = (index + 1 + other_seed % (n - 1)) % n;
            prop_assert!(verify_inclusion(&leaf, other, n, &proof, &root).is_err());
            prop_assert!(verify_inclusion(&leaves[other as usize], other, n, &proof, &root).is_err());
        }
        // Another tree size, against that tree's root.
        let other_n = index + 1 + other_seed % (n + 5);
        if other_n != n {
            let other_root = naive_root(other_n);
            prop_assert!(verify_inclusion(&leaf, index, other_n, &proof, &other_root).is_err());
        }
        // An index out of range.
        prop_assert!(verify_inclusion(&leaf, n, n, &proof, &root).is_err());
    }

    #[test]
    fn consistency_proofs_from_tiles_verify_and_tampering_fails(
        n in size(),
        old_seed in any::<u64>(),
        which in any::<prop::sample::Index>(),
        bit in any::<u8>(),
        other_seed in any::<u64>(),
    ) {
        let (tiles, _) = log_of(n);
        let reader = TileHashReader::new(&*tiles, n);
        let old = old_seed % (n + 1);
        let root = naive_root;
        let proof = consistency_proof(&reader, old, n).unwrap();
        prop_assert!(verify_consistency(old, n, &proof, &root(old), &root(n)).is_ok());

        if !proof.is_empty() {
            let mut bad = proof.clone();
            let j = which.index(bad.len());
            bad[j] = flip(&bad[j], bit);
            prop_assert!(verify_consistency(old, n, &bad, &root(old), &root(n)).is_err());
            prop_assert!(verify_consistency(old, n, &proof[1..], &root(old), &root(n)).is_err());
        }
        let mut longer = proof.clone();
        longer.push(root(n));
        prop_assert!(verify_consistency(old, n, &longer, &root(old), &root(n)).is_err());
        // Another old size, against its own root: not 0 and, for an empty proof, not n
        // (the empty proof rightly holds for both).
        let other_old = 1 + other_seed % n;
        if other_old != old && !(proof.is_empty() && other_old == n) {
            prop_assert!(
                verify_consistency(other_old, n, &proof, &root(other_old), &root(n)).is_err()
            );
        }
        // Another new size, against its own root.
        if old > 0 && old < n {
            let other_new = old + other_seed % (n - old);
            if other_new != n {
                prop_assert!(
                    verify_consistency(old, other_new, &proof, &root(old), &root(other_new)).is_err()
                );
            }
        }
        // A root that is not the tree's.
        if old > 0 && old < n {
            prop_assert!(verify_consistency(old, n, &proof, &flip(&root(old), bit), &root(n)).is_err());
            prop_assert!(verify_consistency(old, n, &proof, &root(old), &flip(&root(n), bit)).is_err());
        }
    }

    /// A log reopened from its tiles at any size goes on exactly as the one that never
    /// stopped.
    #[test]
    fn a_reopened_log_goes_on_identically(n in 0u64..700, more in 1u64..300) {
        let (tiles, _) = log_of(n);
        let mut reopened = TiledLog::open(&*tiles, n).unwrap();
        let all = leaves_of(n + more);
        let mut sink = MemoryTiles::default();
        for i in n..n + more {
            reopened.append(&i.to_be_bytes(), &mut sink).unwrap();
        }
        prop_assert_eq!(reopened.root(), root_of(&all));
        prop_assert_eq!(reopened.root(), naive_root(n + more));
    }
}
