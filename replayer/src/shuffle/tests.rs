//! Unit tests of the committed shuffle, and the golden test vectors
//! (`docs/vectors/shuffle-v1.json`): [`shuffle_vectors_match_golden_file`] checks them, the
//! ignored [`regenerate_shuffle_vectors`] rewrites them (a format change: see
//! `docs/SHUFFLE.md`).

use std::collections::BTreeSet;
use std::path::PathBuf;

use serde::Deserialize;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use super::*;
use crate::cards::{canonical_sort, DeckKind, Suit};

// ---------------------------------------------------------------------------------------
// Keystream

fn from_hex_bytes(s: &str) -> Vec<u8> {
    hex::decode(s).unwrap()
}

fn le_words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

/// RFC 8439 §A.1, test vectors #1 and #2: key all zero, nonce all zero, blocks 0 and 1.
#[test]
fn keystream_is_rfc8439_chacha20_with_zero_nonce() {
    let block0 = from_hex_bytes(
        "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7\
         da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586",
    );
    let block1 = from_hex_bytes(
        "9f07e7be5551387a98ba977c732d080dcb0f29a048e3656912c6533e32ee7aed\
         29b721769ce64e43d57133b074d839d531ed1f28510afb45ace10a1f4b794d6f",
    );
    let mut expected = le_words(&block0);
    expected.extend(le_words(&block1));
    let words = keystream_words(&DeckSeed([0; 32]), 32);
    assert_eq!(words, expected);
    assert_eq!(words[0], 0xade0_b876);
}

/// RFC 8439 §A.1, test vector #3: key 00…01, nonce all zero, block 1 (words 16..32).
#[test]
fn keystream_uses_the_key_bytes_in_rfc8439_order() {
    let mut key = [0u8; 32];
    key[31] = 1;
    let block1 = from_hex_bytes(
        "3aeb5224ecf849929b9d828db1ced4dd832025e8018b8160b82284f3c949aa5a\
         8eca00bbb4a73bdad192b5c42f73f2fd4e273644c8b36125a64addeb006c13a0",
    );
    let words = keystream_words(&DeckSeed(key), 32);
    assert_eq!(words[16..], le_words(&block1)[..]);
}

// ---------------------------------------------------------------------------------------
// uniform() and Fisher–Yates on stub word sources

/// A word source that plays back `words` and counts how many were taken.
fn stub(
    words: &[u32],
) -> (
    impl FnMut() -> u32 + '_,
    std::rc::Rc<std::cell::Cell<usize>>,
) {
    let used = std::rc::Rc::new(std::cell::Cell::new(0));
    let counter = used.clone();
    let next = move || {
        let i = counter.get();
        counter.set(i + 1);
        words[i]
    };
    (next, used)
}

#[test]
fn uniform_rejects_words_at_or_above_the_zone() {
    // 2^32 mod 3 = 1, so the zone is 2^32 - 1 and only u32::MAX is rejected.
    let (mut next, used) = stub(&[u32::MAX, u32::MAX, 5]);
    assert_eq!(uniform(3, &mut next), Some(2));
    assert_eq!(used.get(), 3);

    // 2^32 mod 6 = 4: the zone ends at 0xFFFF_FFFC.
    let (mut next, used) = stub(&[0xFFFF_FFFC, 0xFFFF_FFFB]);
    assert_eq!(uniform(6, &mut next), Some(0xFFFF_FFFB % 6));
    assert_eq!(used.get(), 2);

    // 2^32 mod 52 = 48.
    let (mut next, used) = stub(&[0xFFFF_FFFF - 47, 0xFFFF_FFFF - 48]);
    assert_eq!(uniform(52, &mut next), Some((0xFFFF_FFFF - 48) % 52));
    assert_eq!(used.get(), 2);
}

#[test]
fn uniform_edge_bounds() {
    // A power of two never rejects.
    let (mut next, used) = stub(&[u32::MAX]);
    assert_eq!(uniform(1 << 32, &mut next), Some(u64::from(u32::MAX)));
    assert_eq!(used.get(), 1);
    let (mut next, used) = stub(&[u32::MAX]);
    assert_eq!(uniform(2, &mut next), Some(1));
    assert_eq!(used.get(), 1);
    // Bound 1 still consumes a word.
    let (mut next, used) = stub(&[12345]);
    assert_eq!(uniform(1, &mut next), Some(0));
    assert_eq!(used.get(), 1);
    // Outside 1..=2^32: no answer, nothing consumed.
    let (mut next, used) = stub(&[]);
    assert_eq!(uniform(0, &mut next), None);
    assert_eq!(uniform((1 << 32) + 1, &mut next), None);
    assert_eq!(used.get(), 0);
}

#[test]
fn fisher_yates_walks_down_from_the_last_position() {
    // n = 4: i = 3 (bound 4), i = 2 (bound 3), i = 1 (bound 2).
    // [0,1,2,3] --j=1--> [0,3,2,1] --j=2--> [0,3,2,1] --j=0--> [3,0,2,1]
    let (next, used) = stub(&[5, 8, 4]);
    assert_eq!(fisher_yates(4, next), vec![3, 0, 2, 1]);
    assert_eq!(used.get(), 3);

    // A rejected word is skipped and the next one used for the same i.
    let (next, used) = stub(&[u32::MAX, 0, 1]);
    // i = 2: bound 3 rejects u32::MAX, j = 0 → [2,1,0]; i = 1: j = 1 → unchanged.
    assert_eq!(fisher_yates(3, next), vec![2, 1, 0]);
    assert_eq!(used.get(), 3);
}

#[test]
fn fisher_yates_of_zero_or_one_item_uses_no_words() {
    let (next, used) = stub(&[]);
    assert_eq!(fisher_yates(0, next), Vec::<usize>::new());
    assert_eq!(used.get(), 0);
    let (next, used) = stub(&[]);
    assert_eq!(fisher_yates(1, next), vec![0]);
    assert_eq!(used.get(), 0);
}

// ---------------------------------------------------------------------------------------
// Seeds

fn seed(b: &[u8]) -> ClientSeed {
    ClientSeed::new(b.to_vec()).unwrap()
}

#[test]
fn commitment_is_the_tagged_hash_of_the_seed() {
    let s = ServerSeed::from_bytes([0x11; 32]);
    let mut pre = b"persian-cards/commitment/v1\0".to_vec();
    pre.extend_from_slice(&[0x11; 32]);
    let expected: [u8; 32] = Sha256::digest(&pre).into();
    assert_eq!(s.commitment(), Commitment(expected));
    assert_ne!(
        ServerSeed::from_bytes([0x12; 32]).commitment(),
        s.commitment()
    );
    let mut other = [0x11; 32];
    other[31] = 0x10;
    assert_ne!(ServerSeed::from_bytes(other).commitment(), s.commitment());
}

#[test]
fn generated_server_seeds_differ() {
    let a = ServerSeed::generate().unwrap();
    let b = ServerSeed::generate().unwrap();
    assert_ne!(a, b);
    assert_ne!(a.commitment(), b.commitment());
}

#[test]
fn deck_seed_changes_when_any_input_changes() {
    let server = ServerSeed::from_bytes([3; 32]);
    let seeds = vec![(SeatIndex(0), seed(b"a")), (SeatIndex(2), seed(b"bc"))];
    let base = deck_seed(&server, "hand-1", 0, &seeds).unwrap();

    let mut variants = vec![
        deck_seed(&ServerSeed::from_bytes([4; 32]), "hand-1", 0, &seeds).unwrap(),
        deck_seed(&server, "hand-2", 0, &seeds).unwrap(),
        deck_seed(&server, "hand-1 ", 0, &seeds).unwrap(),
        deck_seed(&server, "hand-1", 1, &seeds).unwrap(),
        deck_seed(&server, "hand-1", 2, &seeds).unwrap(),
        deck_seed(&server, "hand-1", 0, &[]).unwrap(),
        deck_seed(&server, "hand-1", 0, &seeds[..1]).unwrap(),
        deck_seed(
            &server,
            "hand-1",
            0,
            &[(SeatIndex(0), seed(b"A")), (SeatIndex(2), seed(b"bc"))],
        )
        .unwrap(),
        deck_seed(
            &server,
            "hand-1",
            0,
            &[(SeatIndex(0), seed(b"a")), (SeatIndex(2), seed(b"bd"))],
        )
        .unwrap(),
        // Same bytes, different seat numbers.
        deck_seed(
            &server,
            "hand-1",
            0,
            &[(SeatIndex(1), seed(b"a")), (SeatIndex(2), seed(b"bc"))],
        )
        .unwrap(),
        deck_seed(
            &server,
            "hand-1",
            0,
            &[(SeatIndex(0), seed(b"a")), (SeatIndex(3), seed(b"bc"))],
        )
        .unwrap(),
        // Same concatenated bytes, different split: the length prefixes tell them apart.
        deck_seed(
            &server,
            "hand-1",
            0,
            &[(SeatIndex(0), seed(b"ab")), (SeatIndex(2), seed(b"c"))],
        )
        .unwrap(),
        // Seeds swapped between seats.
        deck_seed(
            &server,
            "hand-1",
            0,
            &[(SeatIndex(0), seed(b"bc")), (SeatIndex(2), seed(b"a"))],
        )
        .unwrap(),
    ];
    variants.push(base);
    let distinct: BTreeSet<[u8; 32]> = variants.iter().map(|d| d.0).collect();
    assert_eq!(distinct.len(), variants.len());
}

#[test]
fn deck_seed_ignores_the_order_client_seeds_are_given_in() {
    let server = ServerSeed::from_bytes([5; 32]);
    let a = (SeatIndex(0), seed(b"x"));
    let b = (SeatIndex(1), seed(b"y"));
    let c = (SeatIndex(7), seed(b"z"));
    let sorted = deck_seed(&server, "h", 0, &[a.clone(), b.clone(), c.clone()]).unwrap();
    let shuffled = deck_seed(&server, "h", 0, &[c, a, b]).unwrap();
    assert_eq!(sorted, shuffled);
}

#[test]
fn deck_seed_rejects_bad_inputs() {
    let server = ServerSeed::from_bytes([6; 32]);
    assert_eq!(
        deck_seed(&server, "", 0, &[]),
        Err(ShuffleError::EmptyHandId)
    );
    let long = "x".repeat(129);
    assert_eq!(
        deck_seed(&server, &long, 0, &[]),
        Err(ShuffleError::HandIdTooLong { len: 129 })
    );
    assert!(deck_seed(&server, &"x".repeat(128), 0, &[]).is_ok());
    // 43 two-byte characters: 86 bytes, fine; 65 of them: 130 bytes, too long.
    assert!(deck_seed(&server, &"د".repeat(43), 0, &[]).is_ok());
    assert_eq!(
        deck_seed(&server, &"د".repeat(65), 0, &[]),
        Err(ShuffleError::HandIdTooLong { len: 130 })
    );
    let dup = [
        (SeatIndex(3), seed(b"a")),
        (SeatIndex(1), seed(b"b")),
        (SeatIndex(3), seed(b"c")),
    ];
    assert_eq!(
        deck_seed(&server, "h", 0, &dup),
        Err(ShuffleError::DuplicateSeat { seat: SeatIndex(3) })
    );
}

#[test]
fn client_seed_lengths() {
    assert_eq!(
        ClientSeed::new(vec![]),
        Err(ShuffleError::ClientSeedLength { len: 0 })
    );
    assert!(ClientSeed::new(vec![0]).is_ok());
    assert!(ClientSeed::new(vec![0; 64]).is_ok());
    assert_eq!(
        ClientSeed::new(vec![0; 65]),
        Err(ShuffleError::ClientSeedLength { len: 65 })
    );
    assert_eq!(
        ClientSeed::from_hex(""),
        Err(ShuffleError::ClientSeedLength { len: 0 })
    );
    assert_eq!(
        ClientSeed::from_hex("0aFf").unwrap().as_bytes(),
        &[0x0a, 0xff]
    );
    assert_eq!(
        ClientSeed::from_hex("abc"),
        Err(ShuffleError::OddHexLength {
            what: "client seed",
            found: 3
        })
    );
    assert_eq!(
        ClientSeed::from_hex("abzz"),
        Err(ShuffleError::NotHex {
            what: "client seed",
            position: 2
        })
    );
}

#[test]
fn hex_round_trips_and_errors() {
    let s = ServerSeed::from_bytes([0xab; 32]);
    assert_eq!(s.to_hex(), "ab".repeat(32));
    assert_eq!(ServerSeed::from_hex(&"AB".repeat(32)).unwrap(), s);
    assert_eq!(
        ServerSeed::from_hex(&s.to_hex()).unwrap().as_bytes(),
        &[0xab; 32]
    );
    let c = s.commitment();
    assert_eq!(Commitment::from_hex(&c.to_hex()).unwrap(), c);
    assert_eq!(c.to_string(), c.to_hex());
    let d = DeckSeed([0x5a; 32]);
    assert_eq!(DeckSeed::from_hex(&d.to_hex()).unwrap(), d);

    let err = ServerSeed::from_hex("abc").unwrap_err();
    assert_eq!(
        err,
        ShuffleError::HexLength {
            what: "server seed",
            expected: 64,
            found: 3
        }
    );
    assert_eq!(
        err.to_string(),
        "server seed: expected 64 hex characters, found 3"
    );
    let mut bad = "0".repeat(63);
    bad.push('g');
    assert_eq!(
        Commitment::from_hex(&bad),
        Err(ShuffleError::NotHex {
            what: "commitment",
            position: 63
        })
    );
    let mut non_ascii = "0".repeat(63);
    non_ascii.push('é');
    assert_eq!(
        DeckSeed::from_hex(&non_ascii),
        Err(ShuffleError::NotHex {
            what: "deck seed",
            position: 63
        })
    );
}

#[test]
fn serde_uses_lowercase_hex_and_accepts_either_case() {
    let c = Commitment([0xcd; 32]);
    let j = serde_json::to_string(&c).unwrap();
    assert_eq!(j, format!("\"{}\"", "cd".repeat(32)));
    assert_eq!(serde_json::from_str::<Commitment>(&j).unwrap(), c);
    let upper = format!("\"{}\"", "CD".repeat(32));
    assert_eq!(serde_json::from_str::<Commitment>(&upper).unwrap(), c);
    let e = serde_json::from_str::<Commitment>("\"cdcd\"").unwrap_err();
    assert!(e.to_string().contains("expected 64 hex characters"), "{e}");

    let cs = seed(&[0xDE, 0xAD]);
    assert_eq!(serde_json::to_string(&cs).unwrap(), "\"dead\"");
    assert_eq!(serde_json::from_str::<ClientSeed>("\"DEAD\"").unwrap(), cs);
    assert!(serde_json::from_str::<ClientSeed>("\"\"").is_err());
    assert!(serde_json::from_str::<ClientSeed>(&format!("\"{}\"", "00".repeat(65))).is_err());
}

#[test]
fn secrets_are_redacted_in_debug_and_errors() {
    let s = ServerSeed::from_bytes([0xab; 32]);
    assert_eq!(format!("{s:?}"), "ServerSeed(<redacted>)");
    let d = DeckSeed([0xab; 32]);
    assert_eq!(format!("{d:?}"), "DeckSeed(<redacted>)");
    let mut almost = "ab".repeat(31);
    almost.push_str("zz");
    let msg = ServerSeed::from_hex(&almost).unwrap_err().to_string();
    assert!(!msg.contains("abab") && !msg.contains("zz"), "{msg}");
}

// ---------------------------------------------------------------------------------------
// Permutations

fn test_seed(i: u32) -> DeckSeed {
    DeckSeed(Sha256::digest(format!("test-seed-{i}")).into())
}

#[test]
fn permutation_is_a_permutation() {
    for n in [0usize, 1, 2, 3, 36, 51, 52, 53, 54, 104, 1000] {
        for i in 0..5 {
            let mut p = permutation(&test_seed(i), n);
            p.sort_unstable();
            assert_eq!(p, (0..n).collect::<Vec<_>>());
        }
    }
}

#[test]
fn shuffle_cards_applies_the_permutation() {
    let deck = DeckKind::Bluff104.cards();
    let s = test_seed(9);
    let order = shuffle_cards(&s, &deck);
    let p = permutation(&s, deck.len());
    for (pos, &i) in p.iter().enumerate() {
        assert_eq!(order[pos], deck[i]);
    }
    let mut sorted = order.clone();
    canonical_sort(&mut sorted);
    let mut expected = deck.clone();
    canonical_sort(&mut expected);
    assert_eq!(sorted, expected);
}

#[test]
fn four_item_shuffle_is_roughly_uniform() {
    // 2000 shuffles: each (position, item) pair expects 500; the band is ~7 sigma wide.
    let mut counts = [[0u32; 4]; 4];
    for i in 0..2000 {
        for (pos, item) in permutation(&test_seed(i), 4).into_iter().enumerate() {
            counts[pos][item] += 1;
        }
    }
    for row in counts {
        for c in row {
            assert!((370..=630).contains(&c), "{counts:?}");
        }
    }
}

// ---------------------------------------------------------------------------------------
// Golden vectors

fn vectors_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/vectors/shuffle-v1.json")
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct VectorFile {
    version: u32,
    #[allow(dead_code)]
    description: String,
    vectors: Vec<Vector>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Vector {
    name: String,
    server_seed: String,
    commitment: String,
    hand_id: String,
    shuffle: u32,
    client_seeds: Vec<SeedEntry>,
    deck_seed_preimage: String,
    deck_seed: String,
    deck: Option<String>,
    cards: Option<Vec<String>>,
    n: usize,
    first_words: Vec<u32>,
    words_used: usize,
    permutation: Vec<usize>,
    order: Option<Vec<String>>,
    packs: Option<Vec<u8>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SeedEntry {
    seat: u8,
    seed: String,
}

/// The permutation and the number of keystream words it consumed.
fn permutation_counting(seed: &DeckSeed, n: usize) -> (Vec<usize>, usize) {
    let mut next = word_source(seed);
    let mut used = 0;
    let p = fisher_yates(n, || {
        used += 1;
        next()
    });
    (p, used)
}

fn card_codes(cards: &[Card]) -> Vec<String> {
    cards.iter().map(|c| c.to_string()).collect()
}

#[test]
fn shuffle_vectors_match_golden_file() {
    let text = std::fs::read_to_string(vectors_path()).unwrap();
    let file: VectorFile = serde_json::from_str(&text).unwrap();
    assert_eq!(file.version, SHUFFLE_VERSION);
    let mut sizes = BTreeSet::new();
    let mut rejections = 0;
    for v in &file.vectors {
        let name = &v.name;
        let server = ServerSeed::from_hex(&v.server_seed).unwrap();
        assert_eq!(
            server.to_hex(),
            v.server_seed,
            "{name}: server seed not lowercase"
        );
        assert_eq!(
            server.commitment().to_hex(),
            v.commitment,
            "{name}: commitment"
        );
        let seeds: Vec<(SeatIndex, ClientSeed)> = v
            .client_seeds
            .iter()
            .map(|e| (SeatIndex(e.seat), ClientSeed::from_hex(&e.seed).unwrap()))
            .collect();
        let pre = deck_seed_preimage(&server, &v.hand_id, v.shuffle, &seeds).unwrap();
        assert_eq!(hex::encode(pre), v.deck_seed_preimage, "{name}: preimage");
        let ds = deck_seed(&server, &v.hand_id, v.shuffle, &seeds).unwrap();
        assert_eq!(ds.to_hex(), v.deck_seed, "{name}: deck seed");
        assert_eq!(
            keystream_words(&ds, 8),
            v.first_words,
            "{name}: first words"
        );
        let (perm, used) = permutation_counting(&ds, v.n);
        assert_eq!(perm, v.permutation, "{name}: permutation");
        assert_eq!(permutation(&ds, v.n), v.permutation, "{name}: permutation");
        assert_eq!(used, v.words_used, "{name}: words used");
        if used > v.n.saturating_sub(1) {
            rejections += 1;
        }

        let cards: Option<Vec<Card>> = match (&v.deck, &v.cards) {
            (Some(deck), cards) => {
                let deck: DeckKind = deck.parse().unwrap();
                let expected = deck.cards();
                if let Some(cards) = cards {
                    assert_eq!(cards, &card_codes(&expected), "{name}: deck's cards");
                }
                Some(expected)
            }
            (None, Some(cards)) => {
                let parsed: Vec<Card> = cards.iter().map(|c| c.parse().unwrap()).collect();
                let mut sorted = parsed.clone();
                canonical_sort(&mut sorted);
                assert_eq!(parsed, sorted, "{name}: cards not in canonical order");
                assert_eq!(&card_codes(&parsed), cards, "{name}: card codes");
                Some(parsed)
            }
            (None, None) => None,
        };
        match cards {
            Some(cards) => {
                assert_eq!(cards.len(), v.n, "{name}: n");
                let order = shuffle_cards(&ds, &cards);
                assert_eq!(Some(card_codes(&order)), v.order, "{name}: order");
            }
            None => assert_eq!(v.order, None, "{name}: order without cards"),
        }
        let packs = v
            .deck
            .as_deref()
            .map(|d| d.parse::<DeckKind>().unwrap())
            .filter(|d| d.spec().packs > 1)
            .map(|d| {
                perm.iter()
                    .filter_map(|p| d.pack_of(*p))
                    .collect::<Vec<u8>>()
            });
        assert_eq!(packs, v.packs, "{name}: packs");
        sizes.insert(v.n);
    }
    // What the file must keep covering.
    for n in [0, 1, 2, 36, 51, 52, 53, 54, 104] {
        assert!(sizes.contains(&n), "no vector with {n} items");
    }
    assert!(rejections > 0, "no vector exercises rejection sampling");
}

fn sha(s: &str) -> [u8; 32] {
    Sha256::digest(s).into()
}

/// The vectors' inputs: name, server seed, hand id, shuffle number, client seeds in the
/// order given (not sorted), and what is shuffled.
struct Spec {
    name: &'static str,
    server: [u8; 32],
    hand_id: String,
    shuffle: u32,
    seeds: Vec<(u8, Vec<u8>)>,
    what: What,
}

enum What {
    Deck(DeckKind),
    Cards(&'static str),
    Items(usize),
}

/// Server seed of the rejection-sampling vector, and the hand id found by
/// [`find_rejection_hand_id`] whose `bluff-104` shuffle rejects a keystream word.
const REJECTION_SERVER: &str = "vector-rejection";
const REJECTION_HAND_ID: &str = "rejection-search-237313";

fn specs() -> Vec<Spec> {
    let mut counting = [0u8; 32];
    for (i, b) in counting.iter_mut().enumerate() {
        *b = u8::try_from(i).unwrap();
    }
    vec![
        Spec {
            name: "36-cards-no-client-seeds",
            server: counting,
            hand_id: "hand-0001".into(),
            shuffle: 0,
            seeds: vec![],
            what: What::Deck(DeckKind::BistOYek36),
        },
        Spec {
            name: "52-cards-one-client-seed",
            server: sha("vector-2"),
            hand_id: "table-7/hand-42".into(),
            shuffle: 0,
            seeds: vec![(2, b"hello".to_vec())],
            what: What::Deck(DeckKind::Standard52),
        },
        Spec {
            name: "51-cards-three-client-seeds-given-out-of-order",
            server: sha("vector-3"),
            hand_id: "hokm-3p-0017".into(),
            shuffle: 0,
            seeds: vec![
                (2, vec![0x00]),
                (0, vec![0xff; 64]),
                (1, vec![1, 2, 3, 4, 5, 6, 7]),
            ],
            what: What::Deck(DeckKind::Hokm51 {
                removed_two: Suit::Clubs,
            }),
        },
        Spec {
            name: "54-cards-shuffle-2",
            server: sha("vector-4"),
            hand_id: "hand-0001".into(),
            shuffle: 2,
            seeds: vec![(3, b"restock please".to_vec())],
            what: What::Deck(DeckKind::Standard54),
        },
        Spec {
            name: "53-cards-three-client-seeds",
            server: sha("vector-5"),
            hand_id: "sheytoonak/2025-01-01/9".into(),
            shuffle: 0,
            seeds: vec![
                (4, sha("client-4").to_vec()),
                (0, b"a".to_vec()),
                (1, b"zz".to_vec()),
            ],
            what: What::Deck(DeckKind::Sheytoonak53),
        },
        Spec {
            name: "52-cards-with-jokers-no-client-seeds",
            server: sha("vector-6"),
            hand_id: "ghahve-1".into(),
            shuffle: 0,
            seeds: vec![],
            what: What::Deck(DeckKind::Ghahve52),
        },
        Spec {
            name: "104-cards-two-client-seeds",
            server: sha("vector-7"),
            hand_id: "bluff-big-table-3".into(),
            shuffle: 0,
            seeds: vec![(7, b"seven".to_vec()), (5, b"five".to_vec())],
            what: What::Deck(DeckKind::Bluff104),
        },
        Spec {
            name: "36-cards-persian-hand-id-and-seed",
            server: sha("vector-8"),
            hand_id: "دست-۱۲".into(),
            shuffle: 0,
            seeds: vec![(1, "سلام".as_bytes().to_vec())],
            what: What::Deck(DeckKind::BistOYek36),
        },
        Spec {
            name: "52-cards-longest-hand-id-longest-seed-seat-255-shuffle-258",
            server: sha("vector-9"),
            hand_id: "x".repeat(128),
            shuffle: 258,
            seeds: vec![(255, vec![0xa5; 64])],
            what: What::Deck(DeckKind::Standard52),
        },
        Spec {
            name: "51-cards-without-2S-shuffle-2",
            server: sha("vector-10"),
            hand_id: "hokm-3p-0018".into(),
            shuffle: 2,
            seeds: vec![(1, b"one".to_vec()), (0, b"zero".to_vec())],
            what: What::Deck(DeckKind::Hokm51 {
                removed_two: Suit::Spades,
            }),
        },
        Spec {
            name: "restock-of-20-cards-shuffle-2",
            server: sha("vector-11"),
            hand_id: "pasur-0042".into(),
            shuffle: 2,
            seeds: vec![(1, b"p1".to_vec()), (0, b"p0".to_vec())],
            what: What::Cards("3S 7S 10S QS 2H 5H 9H JH AH 4D 6D 8D KD 3C 5C 7C 9C JC QC AC"),
        },
        Spec {
            name: "104-cards-rejection-sampling",
            server: sha(REJECTION_SERVER),
            hand_id: REJECTION_HAND_ID.into(),
            shuffle: 0,
            seeds: vec![],
            what: What::Deck(DeckKind::Bluff104),
        },
        Spec {
            name: "permutation-of-0",
            server: sha("vector-n0"),
            hand_id: "permutation-only".into(),
            shuffle: 0,
            seeds: vec![],
            what: What::Items(0),
        },
        Spec {
            name: "permutation-of-1",
            server: sha("vector-n1"),
            hand_id: "permutation-only".into(),
            shuffle: 0,
            seeds: vec![],
            what: What::Items(1),
        },
        Spec {
            name: "permutation-of-2",
            server: sha("vector-n2"),
            hand_id: "permutation-only".into(),
            shuffle: 0,
            seeds: vec![(0, b"a".to_vec())],
            what: What::Items(2),
        },
    ]
}

fn build_vector(spec: &Spec) -> Value {
    let server = ServerSeed::from_bytes(spec.server);
    let seeds: Vec<(SeatIndex, ClientSeed)> = spec
        .seeds
        .iter()
        .map(|(seat, bytes)| (SeatIndex(*seat), seed(bytes)))
        .collect();
    let pre = deck_seed_preimage(&server, &spec.hand_id, spec.shuffle, &seeds).unwrap();
    let ds = deck_seed(&server, &spec.hand_id, spec.shuffle, &seeds).unwrap();
    let (deck, cards) = match &spec.what {
        What::Deck(d) => (Some(d.to_string()), Some(d.cards())),
        What::Cards(list) => {
            let cards: Vec<Card> = list.split(' ').map(|c| c.parse().unwrap()).collect();
            (None, Some(cards))
        }
        What::Items(_) => (None, None),
    };
    let n = match (&spec.what, &cards) {
        (What::Items(n), _) => *n,
        (_, Some(c)) => c.len(),
        (_, None) => unreachable!(),
    };
    let (perm, used) = permutation_counting(&ds, n);
    json!({
        "name": spec.name,
        "server_seed": server.to_hex(),
        "commitment": server.commitment().to_hex(),
        "hand_id": spec.hand_id,
        "shuffle": spec.shuffle,
        "client_seeds": spec.seeds.iter().map(|(seat, bytes)| json!({
            "seat": seat,
            "seed": hex::encode(bytes),
        })).collect::<Vec<_>>(),
        "deck_seed_preimage": hex::encode(pre),
        "deck_seed": ds.to_hex(),
        "deck": deck,
        "cards": cards.as_deref().map(card_codes),
        "n": n,
        "first_words": keystream_words(&ds, 8),
        "words_used": used,
        "permutation": perm,
        "order": cards.as_deref().map(|c| card_codes(&shuffle_cards(&ds, c))),
        "packs": match &spec.what {
            What::Deck(d) if d.spec().packs > 1 =>
                Some(perm.iter().filter_map(|p| d.pack_of(*p)).collect::<Vec<u8>>()),
            _ => None,
        },
    })
}

/// Keys in the order they are written, with each value on one line.
const VECTOR_KEYS: [&str; 16] = [
    "name",
    "server_seed",
    "commitment",
    "hand_id",
    "shuffle",
    "client_seeds",
    "deck_seed_preimage",
    "deck_seed",
    "deck",
    "cards",
    "n",
    "first_words",
    "words_used",
    "permutation",
    "order",
    "packs",
];

const DESCRIPTION: &str = "Committed shuffle v1 test vectors; see docs/SHUFFLE.md. \
client_seeds are listed in the order they were given, not sorted by seat. \
packs (several-pack decks only, else null) is the pack of each card of order. \
Generated by `REGENERATE_VECTORS=1 cargo test -p replayer regenerate_shuffle_vectors -- --ignored`; \
any change to this file is a format change.";

fn render_file(vectors: &[Value]) -> String {
    let mut out = String::from("{\n");
    out.push_str(&format!("  \"version\": {SHUFFLE_VERSION},\n"));
    out.push_str(&format!(
        "  \"description\": {},\n",
        serde_json::to_string(DESCRIPTION).unwrap()
    ));
    out.push_str("  \"vectors\": [\n");
    for (i, v) in vectors.iter().enumerate() {
        out.push_str("    {\n");
        for (k, key) in VECTOR_KEYS.iter().enumerate() {
            let value = serde_json::to_string(&v[*key]).unwrap();
            let comma = if k + 1 < VECTOR_KEYS.len() { "," } else { "" };
            out.push_str(&format!("      \"{key}\": {value}{comma}\n"));
        }
        let comma = if i + 1 < vectors.len() { "," } else { "" };
        out.push_str(&format!("    }}{comma}\n"));
    }
    out.push_str("  ]\n}\n");
    out
}

/// A tool, not a check: rewrites `docs/vectors/shuffle-v1.json` when `REGENERATE_VECTORS=1`.
/// Any change it makes to the file is a format change and needs a new shuffle version.
#[test]
#[ignore = "tool: REGENERATE_VECTORS=1 rewrites docs/vectors/shuffle-v1.json"]
fn regenerate_shuffle_vectors() {
    let vectors: Vec<Value> = specs().iter().map(build_vector).collect();
    let rejection = vectors
        .iter()
        .find(|v| v["name"] == "104-cards-rejection-sampling")
        .unwrap();
    assert!(rejection["words_used"].as_u64().unwrap() > 103);
    let text = render_file(&vectors);
    // The rendering must parse back as the checker expects.
    let _: VectorFile = serde_json::from_str(&text).unwrap();
    if std::env::var("REGENERATE_VECTORS").as_deref() == Ok("1") {
        std::fs::write(vectors_path(), text).unwrap();
        eprintln!("wrote {}", vectors_path().display());
    } else {
        eprintln!(
            "set REGENERATE_VECTORS=1 to write {}",
            vectors_path().display()
        );
    }
}

/// A tool: finds a hand id whose `bluff-104` shuffle (server seed `sha256("vector-rejection")`,
/// shuffle 0, no client seeds) rejects at least one keystream word.
#[test]
#[ignore = "tool: searches for the rejection-sampling vector's hand id"]
fn find_rejection_hand_id() {
    let server = ServerSeed::from_bytes(sha(REJECTION_SERVER));
    for i in 0u64.. {
        let hand_id = format!("rejection-search-{i}");
        let ds = deck_seed(&server, &hand_id, 0, &[]).unwrap();
        let (_, used) = permutation_counting(&ds, 104);
        if used > 103 {
            eprintln!("{hand_id} uses {used} words");
            return;
        }
    }
}
