//! The club transparency log (`docs/TRANSPARENCY.md`, §10 says what the service does):
//! each club's ordered events (`club_log`, gid `g`) become leaf `g` of the club's log,
//! appended by a background builder ([`spawn_log_builder`]) that writes the tiles and a
//! signed checkpoint at least once a [`LOG_PERIOD`] while events arrive; proofs for a
//! hand's readers ([`hand_log_proof`]) and tiles for everyone are read back from the
//! store.
//!
//! The store is async and the library's tile readers are not, so every computation over
//! stored tiles runs twice ([`with_tiles`]): once over a reader that records which tiles
//! it asks for (answering zeros), then, with those tiles fetched, for real. Which tiles a
//! proof or a reopening reads depends only on the sizes and indexes, never on the hashes.

use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;
use std::time::Duration;

use replayer::log::{Hash, PublicKey, SigningKeyPair};
use replayer::tlog::{
    self, Checkpoint, HandSalt, LeafEntry, LeafInput, MemoryTiles, NoteSigner, Origin,
    TileHashReader, TileId, TileKind, TileReader, TiledLog,
};

use crate::keys::SealKey;
use crate::store::{CheckpointRow, EventRow, Store, StoreError};
use crate::Service;

/// The default `--public-base`: the scheme-less URL of the API root that names each
/// club's log (its origin is `<base>/clubs/<club>/log`). It names no real host: set the
/// service's public address in production, once, since the origin names the log for
/// ever.
pub const DEFAULT_PUBLIC_BASE: &str = "localhost/v1";

/// How often the builder looks for newly ordered events: a new checkpoint at least this
/// often while events arrive.
pub const LOG_PERIOD: Duration = Duration::from_millis(500);

/// Events appended to one club's log per checkpoint at most (one transaction's worth of
/// tiles, about 2.2 MB at this size); a larger backlog takes several checkpoints.
pub const LOG_BATCH: i64 = 16_384;

/// The PRF label of the hand salts.
const SALT_LABEL: &str = "persian-cards/tlog-hand-salt/v1";

/// What went wrong building or reading a club's log.
#[derive(Debug, thiserror::Error)]
pub enum LogError {
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The stored tiles do not read as the log (missing or malformed).
    #[error("tiles: {0}")]
    Tiles(#[from] tlog::StoreError),
    /// Appending failed.
    #[error("append: {0}")]
    Append(#[from] tlog::AppendError),
    /// The club's id or the public base cannot make an origin, or a checkpoint did not sign.
    #[error("checkpoint: {0}")]
    Checkpoint(#[from] tlog::CheckpointError),
    /// The signer could not be made.
    #[error("note: {0}")]
    Note(#[from] tlog::NoteError),
    /// A proof could not be computed.
    #[error("proof: {0}")]
    Proof(#[from] tlog::ProofError),
    /// The stored log does not agree with itself or with its signed checkpoint (a tile,
    /// a proof, the club's order): the text names what, and nothing from it is served.
    #[error("{0}")]
    Damaged(String),
    /// A stored event cannot be a leaf (its hash or seq is malformed).
    #[error("event {hand}#{seq}: {why}")]
    BadEvent {
        /// The event's hand.
        hand: String,
        /// Its seq.
        seq: i64,
        /// What is wrong.
        why: &'static str,
    },
}

/// The salt of a hand's leaves (`docs/TRANSPARENCY.md` §2): HMAC-SHA-256, under a key
/// derived from the service's seal key, of the club and hand ids (length-prefixed). It
/// is as unpredictable as a random salt to anyone without the seal key, needs no write
/// at the hand's start, and can be recomputed by whoever holds the seal key (the
/// service, its audit). See `docs/TRANSPARENCY.md` §10 for why it is derived.
pub fn hand_salt(seal: &SealKey, club: &str, hand: &str) -> HandSalt {
    let mut msg = Vec::with_capacity(8 + club.len() + hand.len());
    msg.extend_from_slice(&u32::try_from(club.len()).unwrap_or(u32::MAX).to_be_bytes());
    msg.extend_from_slice(club.as_bytes());
    msg.extend_from_slice(&u32::try_from(hand.len()).unwrap_or(u32::MAX).to_be_bytes());
    msg.extend_from_slice(hand.as_bytes());
    HandSalt(seal.prf(SALT_LABEL, &msg))
}

/// The leaf entry of a stored event of `club` under `salt`.
pub fn event_leaf(club: &str, salt: &HandSalt, ev: &EventRow) -> Result<LeafEntry, LogError> {
    leaf_of(club, salt, &ev.hand_id, ev.seq, &ev.hash)
}

/// [`event_leaf`] from the event's hand, seq and hash (all a leaf holds of it).
pub fn leaf_of(
    club: &str,
    salt: &HandSalt,
    hand: &str,
    seq: i64,
    hash: &str,
) -> Result<LeafEntry, LogError> {
    let bad = |why| LogError::BadEvent {
        hand: hand.to_owned(),
        seq,
        why,
    };
    let event_hash = Hash::from_hex(hash).map_err(|_| bad("hash is not 64 hex digits"))?;
    let seq = u64::try_from(seq).map_err(|_| bad("negative seq"))?;
    LeafEntry::new(
        salt,
        &LeafInput {
            club,
            hand,
            seq,
            event_hash,
        },
    )
    .map_err(|_| bad("ids too long for a leaf"))
}

/// The signer of `club`'s checkpoints: the service's current signing key, named by the
/// log's origin.
pub fn log_signer(
    key: &SigningKeyPair,
    base: &str,
    club: &str,
) -> Result<(Origin, NoteSigner), LogError> {
    let origin = Origin::for_club(base, club)?;
    let signer = NoteSigner::new(origin.as_str(), SigningKeyPair::from_secret(key.secret()))?;
    Ok((origin, signer))
}

/// A tile reader that records what it is asked for and answers zeros of the right
/// length: the first pass of [`with_tiles`].
#[derive(Default)]
struct Recorder(RefCell<BTreeSet<TileId>>);

impl TileReader for Recorder {
    fn read_tile(&self, tile: &TileId) -> Result<Option<Vec<u8>>, tlog::StoreError> {
        self.0.borrow_mut().insert(*tile);
        let w = usize::from(tile.width);
        Ok(Some(match tile.kind {
            TileKind::Hashes(_) => vec![0; 32 * w],
            // `w` empty entries, each its two-byte length.
            TileKind::Entries => vec![0; 2 * w],
        }))
    }
}

/// Runs `f` over the club's stored tiles: first over a recorder, to learn which tiles it
/// reads, then over those tiles fetched from the store (a partial tile that is not
/// stored is fetched at full width, which the library falls back to).
pub async fn with_tiles<T>(
    store: &dyn Store,
    club: &str,
    f: impl Fn(&dyn TileReader) -> Result<T, LogError>,
) -> Result<T, LogError> {
    let recorder = Recorder::default();
    // The answers are zeros: what `f` makes of them is thrown away.
    let _ = f(&recorder);
    let wanted = recorder.0.into_inner();
    let tiles = MemoryTiles::default();
    for tile in wanted {
        match store.log_tile(club, &tile.path()).await? {
            Some(bytes) => tiles.put(&tile, bytes),
            None if !tile.is_full() => {
                if let Some(bytes) = store.log_tile(club, &tile.full().path()).await? {
                    tiles.put(&tile.full(), bytes);
                }
            }
            None => {}
        }
    }
    f(&tiles)
}

/// The club's log at its latest checkpoint, reopened from its tiles.
async fn open_log(store: &dyn Store, club: &str, size: u64) -> Result<TiledLog, LogError> {
    with_tiles(store, club, |r| Ok(TiledLog::open(r, size)?)).await
}

/// A tile as a tree that holds it reads it: stored, or cut from its full version.
pub async fn read_tile(store: &dyn Store, club: &str, tile: &TileId) -> Result<Vec<u8>, LogError> {
    with_tiles(store, club, |r| {
        Ok(tlog::store::read_tile_or_full(r, tile)?)
    })
    .await
}

/// The inclusion proof of leaf `index` in the club's tree of `size`, from its tiles.
pub async fn inclusion(
    store: &dyn Store,
    club: &str,
    index: u64,
    size: u64,
) -> Result<Vec<Hash>, LogError> {
    with_tiles(store, club, |r| {
        Ok(tlog::inclusion_proof(
            &TileHashReader::new(r, size),
            index,
            size,
        )?)
    })
    .await
}

/// The consistency proof from size `old` to `new` of the club's log, from its tiles.
pub async fn consistency(
    store: &dyn Store,
    club: &str,
    old: u64,
    new: u64,
) -> Result<Vec<Hash>, LogError> {
    with_tiles(store, club, |r| {
        Ok(tlog::consistency_proof(
            &TileHashReader::new(r, new),
            old,
            new,
        )?)
    })
    .await
}

/// The log builder's memory between passes: each club's right edge as of its last
/// checkpoint, so a pass reads no tile back (it reopens from the store only when
/// another builder moved the log on, or after a restart).
#[derive(Default)]
pub struct LogBuilder {
    logs: HashMap<String, TiledLog>,
}

impl LogBuilder {
    /// Appends the club's newly ordered events (up to [`LOG_BATCH`]) to its log and
    /// publishes the tiles and a checkpoint; returns how many leaves it added. Each
    /// leaf holds the event's hash as the sequencer ordered it. Stops before a gap in
    /// what the store gives (an ordered row from before the hashes were kept whose event
    /// is gone): the log never skips a gid (and `audit` names the gap).
    pub async fn build_club(&mut self, svc: &Service, club: &str) -> Result<u64, LogError> {
        let store = svc.store.as_ref();
        let size = store
            .latest_checkpoint(club)
            .await?
            .map_or(0, |c| u64::try_from(c.size).unwrap_or(0));
        let mut log = match self.logs.remove(club) {
            Some(log) if log.size() == size => log,
            _ => open_log(store, club, size).await?,
        };
        let from = i64::try_from(size).unwrap_or(i64::MAX);
        let events = store.list_club_leaves(club, from, LOG_BATCH).await?;
        let mut tiles = MemoryTiles::default();
        let mut salts: HashMap<String, HandSalt> = HashMap::new();
        let mut added = 0u64;
        for ev in &events {
            let want = i64::try_from(log.size()).unwrap_or(i64::MAX);
            if ev.gid != want {
                tracing::warn!(club_id = %club, gid = want,
                    "the club's log is stuck: the event ordered at this gid is not in the store");
                break;
            }
            let salt = *salts
                .entry(ev.hand_id.clone())
                .or_insert_with(|| hand_salt(&svc.seal, club, &ev.hand_id));
            let entry = leaf_of(club, &salt, &ev.hand_id, ev.seq, &ev.hash)?;
            log.append(entry.as_bytes(), &mut tiles)?;
            added += 1;
        }
        if added == 0 {
            self.logs.insert(club.to_string(), log);
            return Ok(0);
        }
        log.write_partials(&mut tiles)?;
        let (origin, signer) = log_signer(svc.keys.current(), &svc.log_base, club)?;
        let note = Checkpoint::new(origin, log.size(), log.root()).sign(&signer)?;
        let mut rows = Vec::new();
        for path in tiles.paths() {
            let id = TileId::parse(&path).map_err(|e| tlog::StoreError::Internal(e.to_string()))?;
            if let Some(bytes) = tiles.read_tile(&id)? {
                rows.push((path, bytes));
            }
        }
        let cp = CheckpointRow {
            club_id: club.to_string(),
            size: i64::try_from(log.size()).unwrap_or(i64::MAX),
            root: log.root().0,
            note,
            created_ms: i64::try_from(crate::now_ms()).unwrap_or(i64::MAX),
        };
        if store.publish_log(club, &rows, &cp).await? {
            self.logs.insert(club.to_string(), log);
            Ok(added)
        } else {
            // Another builder published this size first: reopen from the store next time.
            Ok(0)
        }
    }

    /// One pass over every club with events beyond its latest checkpoint; returns how many
    /// leaves were added. A club that fails does not hold up the others; the first error
    /// is returned after the pass.
    pub async fn build_all(&mut self, svc: &Service) -> Result<u64, LogError> {
        let mut total = 0;
        let mut first_error = None;
        for club in svc.store.clubs_to_log().await? {
            match self.build_club(svc, &club).await {
                Ok(n) => total += n,
                Err(e) => {
                    tracing::warn!(club_id = %club, error = %e, "could not extend the club's log");
                    self.logs.remove(&club);
                    first_error.get_or_insert(e);
                }
            }
        }
        match first_error {
            Some(e) => Err(e),
            None => Ok(total),
        }
    }
}

/// Runs [`LogBuilder::build_all`] every [`LOG_PERIOD`] until the handle is aborted. A
/// failed pass is logged and tried again: the log's state is in the store, so a restart
/// or a retry goes on from the last checkpoint.
pub fn spawn_log_builder(svc: Arc<Service>) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut builder = LogBuilder::default();
        let mut tick = tokio::time::interval(LOG_PERIOD);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            if let Err(e) = builder.build_all(&svc).await {
                tracing::warn!(error = %e, "log builder pass failed; retrying next period");
            }
        }
    })
}

/// A hand's log proof (`docs/TRANSPARENCY.md` §7): its salt and the inclusion proof of
/// its last event against the club's latest checkpoint. [`ProofOutcome::NotYet`] while
/// that event is not under a checkpoint (the builder runs every [`LOG_PERIOD`]).
pub async fn hand_log_proof(
    svc: &Service,
    club: &str,
    hand: &str,
) -> Result<ProofOutcome, LogError> {
    let store = svc.store.as_ref();
    let Some(cp) = store.latest_checkpoint(club).await? else {
        return Ok(ProofOutcome::NotYet);
    };
    let Some(row) = store.get_hand(club, hand).await? else {
        return Ok(ProofOutcome::NotYet);
    };
    let last = store
        .list_events(club, hand, row.next_seq.saturating_sub(1), 1)
        .await?;
    let Some(ev) = last.first() else {
        return not_yet(store, club).await;
    };
    let Some(gid) = ev.gid.filter(|g| *g < cp.size) else {
        return not_yet(store, club).await;
    };
    let (index, size) = (
        u64::try_from(gid).unwrap_or(0),
        u64::try_from(cp.size).unwrap_or(0),
    );
    let origin = Checkpoint::parse_unverified(&cp.note)?.origin;
    let proof = inclusion(store, club, index, size).await?;
    // Never a proof that does not lead to the signed root: the leaf is recomputed from
    // the stored event, the path from the stored tiles; either damaged is named.
    let salt = hand_salt(&svc.seal, club, hand);
    let leaf = leaf_of(club, &salt, hand, ev.seq, &ev.hash)?;
    if tlog::verify_inclusion(&leaf.leaf_hash(), index, size, &proof, &Hash(cp.root)).is_err() {
        return Err(LogError::Damaged(format!(
            "the inclusion proof of leaf {index} (event {} of hand {hand}), computed from the stored tiles, does not lead to the root of the signed checkpoint of size {size}: the hand's event or the log's tiles were changed after it was logged",
            ev.seq
        )));
    }
    Ok(ProofOutcome::Proof(Box::new((
        tlog::HandLogProof::new(
            origin.as_str(),
            hand,
            hand_salt(&svc.seal, club, hand),
            index,
            size,
            proof,
        ),
        cp.note,
    ))))
}

/// The log proof a hand's bundle carries (bundle version 2, `docs/BUNDLE.md` §1): the
/// [`hand_log_proof`] against the latest checkpoint, with the service key that signed that
/// checkpoint (for the bundle's `keys`). `None` while the hand's last event is not under a
/// checkpoint: the bundle is then version 1.
pub async fn bundle_log_proof(
    svc: &Service,
    club: &str,
    hand: &str,
) -> Result<Option<(replayer::bundle::BundleLogProof, Option<PublicKey>)>, LogError> {
    let ProofOutcome::Proof(p) = hand_log_proof(svc, club, hand).await? else {
        return Ok(None);
    };
    let (proof, note) = *p;
    let signer = svc.keys.public_keys().into_iter().find(|k| {
        tlog::NoteVerifier::new(&proof.origin, *k)
            .is_ok_and(|v| Checkpoint::open(&note, &v).is_ok())
    });
    Ok(Some((
        replayer::bundle::BundleLogProof {
            checkpoint: note,
            leaf_index: proof.leaf_index,
            salt: proof.salt,
            inclusion: proof.inclusion,
        },
        signer,
    )))
}

/// A hand's last event is not under a checkpoint: not yet, unless the club's order is
/// damaged (then it never will be, and the damage is named).
async fn not_yet(store: &dyn Store, club: &str) -> Result<ProofOutcome, LogError> {
    match store.club_order_damage(club).await? {
        Some(why) => Err(LogError::Damaged(why)),
        None => Ok(ProofOutcome::NotYet),
    }
}

/// The hashes a tile or entry bundle stands for: a hash tile's own, an entry bundle's
/// leaf hashes.
fn tile_node_hashes(id: &TileId, bytes: &[u8]) -> Option<Vec<Hash>> {
    match id.kind {
        TileKind::Hashes(_) => tlog::tile::tile_hashes(bytes, id.width),
        TileKind::Entries => tlog::tile::decode_entry_bundle(bytes, id.width)
            .ok()
            .map(|e| e.iter().map(|e| tlog::leaf_hash(e)).collect()),
    }
}

/// Checks a stored tile or entry bundle against the signed checkpoint (`size`, `root`)
/// before it is served: its hashes, grouped into the complete subtrees they make (one for
/// a full tile, one per bit of a partial tile's width), must each be a node of the signed
/// tree, proven by the path above it, read from the other stored tiles. A tile changed
/// behind the store's back (a flipped byte) does not lead to the root: it is named, never
/// served.
pub async fn check_tile(
    store: &dyn Store,
    club: &str,
    id: &TileId,
    bytes: &[u8],
    size: u64,
    root: &Hash,
) -> Result<(), LogError> {
    let damaged = || {
        LogError::Damaged(format!(
            "stored tile {} does not agree with the signed checkpoint of size {size}: changed after it was published",
            id.path()
        ))
    };
    let hashes = tile_node_hashes(id, bytes).ok_or_else(damaged)?;
    let base_level: u32 = match id.kind {
        TileKind::Hashes(l) => 8 * u32::from(l),
        TileKind::Entries => 0,
    };
    // The complete subtrees the tile's hashes make, left to right: (level, index, hash).
    let mut nodes = Vec::new();
    let mut at = 0usize;
    let width = usize::from(id.width);
    for bit in (0..=8u32).rev() {
        let n = 1usize << bit;
        if width & n == 0 {
            continue;
        }
        let Some(chunk) = hashes.get(at..at + n) else {
            return Err(damaged());
        };
        let first = id.index * 256 + at as u64;
        nodes.push((base_level + bit, first >> bit, tlog::root_of(chunk)));
        at += n;
    }
    let paths = with_tiles(store, club, |r| {
        let reader = TileHashReader::new(r, size);
        nodes
            .iter()
            .map(|(level, index, _)| {
                let leaf = index.checked_shl(*level).unwrap_or(u64::MAX);
                Ok(tlog::inclusion_proof(&reader, leaf, size)?)
            })
            .collect::<Result<Vec<_>, LogError>>()
    })
    .await;
    let paths = match paths {
        Ok(p) => p,
        Err(LogError::Store(e)) => return Err(e.into()),
        Err(_) => return Err(damaged()),
    };
    for ((level, index, hash), path) in nodes.iter().zip(paths) {
        let above = path
            .get(usize::try_from(*level).unwrap_or(usize::MAX)..)
            .ok_or_else(damaged)?;
        let width = size.div_ceil(1u64 << level);
        tlog::verify_inclusion(hash, *index, width, above, root).map_err(|_| damaged())?;
    }
    Ok(())
}

/// The signed note of the club's checkpoint of `size` (`GET …/log/checkpoints/{size}`):
/// the stored one, or, for a size up to the latest checkpoint's whose row is not stored
/// (never published, or lost), one signed now by the current key over the root that the
/// stored tiles give at that size, once a consistency proof from it to the latest signed
/// checkpoint verifies. Ed25519 signatures are deterministic: a lost note comes back byte
/// for byte while its key is the current one. `Ok(None)` past the latest size or at 0.
pub async fn checkpoint_note(
    svc: &Service,
    club: &str,
    size: i64,
) -> Result<Option<(String, bool)>, LogError> {
    let store = svc.store.as_ref();
    if let Some(cp) = store.checkpoint_at(club, size).await? {
        return Ok(Some((cp.note, true)));
    }
    let Some(latest) = store.latest_checkpoint(club).await? else {
        return Ok(None);
    };
    if size <= 0 || size >= latest.size {
        return Ok(None);
    }
    let (old, new) = (
        u64::try_from(size).unwrap_or(0),
        u64::try_from(latest.size).unwrap_or(0),
    );
    let computed = with_tiles(store, club, |r| {
        let reader = TileHashReader::new(r, new);
        let old_root = tlog::tree_root(&reader, old)?;
        let proof = tlog::consistency_proof(&reader, old, new)?;
        Ok((old_root, proof))
    })
    .await;
    let damaged = || {
        LogError::Damaged(format!(
            "the stored tiles give no root at size {size} consistent with the signed checkpoint of size {new}: the log's tiles were changed after they were published"
        ))
    };
    let (old_root, proof) = match computed {
        Ok(c) => c,
        Err(LogError::Store(e)) => return Err(e.into()),
        Err(_) => return Err(damaged()),
    };
    tlog::verify_consistency(old, new, &proof, &old_root, &Hash(latest.root))
        .map_err(|_| damaged())?;
    let (origin, signer) = log_signer(svc.keys.current(), &svc.log_base, club)?;
    let note = Checkpoint::new(origin, old, old_root).sign(&signer)?;
    tracing::warn!(club_id = %club, size, "no stored checkpoint of this size: served one signed again from the tiles (if it was published, its row is lost: the audit names it)");
    Ok(Some((note, false)))
}

/// What [`hand_log_proof`] found.
#[derive(Debug)]
pub enum ProofOutcome {
    /// The proof, and the signed checkpoint it leads to.
    Proof(Box<(tlog::HandLogProof, String)>),
    /// The hand's last event is not under a checkpoint yet.
    NotYet,
}
