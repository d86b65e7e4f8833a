//! The club log's own records, recomputed (issue 29, `docs/TRANSPARENCY.md` §10): the
//! club's order holds together (`clubs.next_gid` one past `club_log`'s last gid, and on
//! PostgreSQL every hand's cursor one past its last ordered event); every stored hash tile
//! and entry bundle is the one the leaves give, recomputed from `club_log` as the builder
//! took them; every stored checkpoint's root is the root of the leaves at its size, and
//! its note is signed by one of the service's keys and says what its row says; every
//! checkpoint that a stored partial tile shows was published is still stored; and every
//! event of every finished hand is a leaf exactly once. Each finding names the database
//! table, the row and what the audit expected.

use std::collections::{BTreeSet, HashMap};

use replayer::log::Hash;
use replayer::tlog::{
    self, tile::encode_entry_bundle, tile::tile_bytes, Checkpoint, HashReader, MemoryHashes,
    NodeId, TileId, TileKind,
};

use super::{AuditError, Finding, Kind, Report};
use crate::clublog::{hand_salt, leaf_of};
use crate::store::{HandFilter, HandStatus};
use crate::Service;

/// Rows of `club_log` read at once.
const PAGE: i64 = 10_000;

/// How long after a hand ends its last events may still wait for the sequencer.
const ORDER_GRACE_MS: i64 = 5_000;

/// The table column of these findings: the log as a whole.
const LOG_TABLE: &str = "(club log)";

fn finding(table: &str, hand: Option<&str>, detail: String) -> Finding {
    Finding {
        table: table.to_string(),
        hand: hand.map(str::to_string),
        hand_no: None,
        kind: Kind::Log,
        detail,
    }
}

fn short(h: &Hash) -> String {
    h.to_hex()
}

/// Audits the club log's records; adds its findings to `report`.
pub(super) async fn audit_log_records(
    svc: &Service,
    club: &str,
    report: &mut Report,
) -> Result<(), AuditError> {
    let store = svc.store.as_ref();
    let problems = &mut report.problems;

    // The order itself: what the sequencer checks before it orders anything.
    if let Some(why) = store.club_order_damage(club).await? {
        problems.push(finding(LOG_TABLE, None, why));
    }

    // Every leaf of the order, as the builder made it (gid, hand, seq, hash as ordered),
    // and every (hand, seq) the order names.
    let mut leaves = Vec::new();
    let mut ordered: HashMap<(String, i64), Vec<i64>> = HashMap::new();
    let mut contiguous = true;
    let mut from = 0i64;
    loop {
        let page = store.list_club_leaves(club, from, PAGE).await?;
        let Some(last) = page.last() else { break };
        from = last.gid + 1;
        for row in &page {
            if contiguous && row.gid == i64::try_from(leaves.len()).unwrap_or(i64::MAX) {
                let salt = hand_salt(&svc.seal, club, &row.hand_id);
                match leaf_of(club, &salt, &row.hand_id, row.seq, &row.hash) {
                    Ok(l) => leaves.push(l),
                    Err(e) => {
                        problems.push(finding(
                            LOG_TABLE,
                            Some(&row.hand_id),
                            format!("club_log row gid {}: {e}", row.gid),
                        ));
                        contiguous = false;
                    }
                }
            } else {
                // A gap (named by the log's own audit): the tiles are rebuilt up to it.
                contiguous = false;
            }
        }
        if page.len() < usize::try_from(PAGE).unwrap_or(usize::MAX) {
            break;
        }
    }
    let mut from = 0i64;
    loop {
        let page = store.list_club_order(club, from, PAGE).await?;
        let Some(last) = page.last() else { break };
        from = last.0 + 1;
        for (gid, hand, seq) in page {
            ordered.entry((hand, seq)).or_default().push(gid);
        }
    }

    // Every event of every finished hand is a leaf exactly once.
    finished_hands(svc, club, &ordered, problems).await?;

    let checkpoints = store.list_checkpoints(club).await?;
    let Some(latest) = checkpoints.last() else {
        return Ok(());
    };
    let size = u64::try_from(latest.size).unwrap_or(0);
    let built = u64::try_from(leaves.len()).unwrap_or(0).min(size);
    let hashes: Vec<Hash> = leaves
        .iter()
        .take(usize::try_from(built).unwrap_or(usize::MAX))
        .map(|l| l.leaf_hash())
        .collect();
    let tree = MemoryHashes::from_leaves(&hashes);

    // Every checkpoint: its note saying what its row says, its root the leaves' (the
    // latest one's signature is the log's own audit's to check, once).
    for cp in &checkpoints {
        let at = u64::try_from(cp.size).unwrap_or(0);
        let row = format!("log_checkpoints row ({club}, {})", cp.size);
        match Checkpoint::parse_unverified(&cp.note) {
            Ok(parsed) => {
                if parsed.size != at || parsed.root.0 != cp.root {
                    problems.push(finding(
                        LOG_TABLE,
                        None,
                        format!(
                            "{row}: its note says size {} root {}, its row size {} root {}",
                            parsed.size,
                            short(&parsed.root),
                            cp.size,
                            short(&Hash(cp.root))
                        ),
                    ));
                }
            }
            Err(e) => problems.push(finding(
                LOG_TABLE,
                None,
                format!("{row}: its note does not read: {e}"),
            )),
        }
        if at <= built {
            let want = tlog::tree_root(&tree, at).unwrap_or_else(|_| tlog::empty_root());
            if want.0 != cp.root {
                problems.push(finding(
                    LOG_TABLE,
                    None,
                    format!(
                        "{row}: root {}, expected {} (recomputed from the first {at} leaves of club_log)",
                        short(&Hash(cp.root)),
                        short(&want)
                    ),
                ));
            }
        }
    }

    // Every stored tile and entry bundle, against the one the leaves give; and the
    // checkpoints that the partial tiles show were published.
    let paths = store.list_log_tile_paths(club).await?;
    let stored_sizes: BTreeSet<i64> = checkpoints.iter().map(|c| c.size).collect();
    let mut lost: BTreeSet<i64> = BTreeSet::new();
    for path in &paths {
        let row = format!("log_tiles row ({club}, {path})");
        let Ok(id) = TileId::parse(path) else {
            problems.push(finding(LOG_TABLE, None, format!("{row}: not a tile path")));
            continue;
        };
        // A partial tile at the leaves' level is written with the checkpoint of the size
        // it ends at (docs/TRANSPARENCY.md §10): that checkpoint must still be stored.
        let level0 = matches!(id.kind, TileKind::Entries | TileKind::Hashes(0));
        if level0 && !id.is_full() {
            let published = i64::try_from(id.index * 256 + u64::from(id.width)).unwrap_or(i64::MAX);
            if !stored_sizes.contains(&published) && lost.insert(published) {
                problems.push(finding(
                    LOG_TABLE,
                    None,
                    format!(
                        "log_checkpoints row ({club}, {published}) is missing: deleted (the partial tile {path} was published with it; GET …/log/checkpoints/{published} signs it again from the tiles)"
                    ),
                ));
            }
        }
        let Some(bytes) = store.log_tile(club, path).await? else {
            continue;
        };
        match expected_tile(&id, &leaves, &tree, built) {
            None => {
                if tree_holds(&id, size) {
                    // Within the checkpoint's tree but beyond the leaves that could be
                    // rebuilt (a gap in club_log, named by the log's own audit).
                    continue;
                }
                problems.push(finding(
                    LOG_TABLE,
                    None,
                    format!("{row}: beyond the latest checkpoint (size {size})"),
                ));
            }
            Some(want) if want == bytes => {}
            Some(want) => {
                problems.push(finding(
                    LOG_TABLE,
                    None,
                    format!("{row}: {}", tile_difference(&id, &bytes, &want)),
                ));
            }
        }
    }
    Ok(())
}

/// Whether the tree of `size` holds the tile (full, or partial up to its width).
fn tree_holds(id: &TileId, size: u64) -> bool {
    TileId::in_tree(id.kind, id.index, size).is_some_and(|t| {
        if id.is_full() {
            t.is_full()
        } else {
            t.width >= id.width
        }
    })
}

/// The bytes the leaves give the tile, or `None` when they do not reach it.
fn expected_tile(
    id: &TileId,
    leaves: &[tlog::LeafEntry],
    tree: &MemoryHashes,
    built: u64,
) -> Option<Vec<u8>> {
    let first = id.index.checked_mul(256)?;
    let width = u64::from(id.width);
    match id.kind {
        TileKind::Entries => {
            if first + width > built {
                return None;
            }
            let from = usize::try_from(first).ok()?;
            let to = usize::try_from(first + width).ok()?;
            let entries: Vec<&[u8]> = leaves.get(from..to)?.iter().map(|l| l.as_bytes()).collect();
            encode_entry_bundle(&entries).ok()
        }
        TileKind::Hashes(level) => {
            let node_level = level.checked_mul(8)?;
            let span = 1u64.checked_shl(u32::from(node_level))?;
            if (first + width).checked_mul(span)? > built {
                return None;
            }
            let nodes: Vec<NodeId> = (first..first + width)
                .map(|index| NodeId {
                    level: node_level,
                    index,
                })
                .collect();
            tree.read_hashes(&nodes).ok().map(|h| tile_bytes(&h))
        }
    }
}

/// What differs between a stored tile and the one the leaves give: the first hash (or
/// entry) that differs, as stored and as expected.
fn tile_difference(id: &TileId, stored: &[u8], want: &[u8]) -> String {
    let unit = match id.kind {
        TileKind::Hashes(_) => 32,
        TileKind::Entries => 2 + tlog::leaf::LEAF_ENTRY_LEN,
    };
    let what = match id.kind {
        TileKind::Hashes(_) => "hash",
        TileKind::Entries => "entry",
    };
    if stored.len() != want.len() {
        return format!(
            "{} bytes, expected {} (recomputed from the leaves of club_log)",
            stored.len(),
            want.len()
        );
    }
    let at = stored
        .iter()
        .zip(want)
        .position(|(a, b)| a != b)
        .unwrap_or(0);
    let k = at / unit;
    let cut = |b: &[u8]| hex::encode(&b[k * unit..((k + 1) * unit).min(b.len())]);
    format!(
        "{what} {k} (byte {at}) is {}, expected {} (recomputed from the leaves of club_log): changed after it was published",
        cut(stored),
        cut(want)
    )
}

/// Every event of every finished hand (completed or abandoned, not quarantined) is in
/// `club_log` exactly once.
async fn finished_hands(
    svc: &Service,
    club: &str,
    ordered: &HashMap<(String, i64), Vec<i64>>,
    problems: &mut Vec<Finding>,
) -> Result<(), AuditError> {
    let now = i64::try_from(crate::now_ms()).unwrap_or(i64::MAX);
    let mut filter = HandFilter {
        limit: 500,
        ..HandFilter::default()
    };
    loop {
        let page = svc.store.list_hands(club, &filter).await?;
        let full = page.len() == 500;
        filter.cursor = page.last().map(|h| (h.started_ms, h.hand_id.clone()));
        for h in page {
            if !matches!(h.status, HandStatus::Completed | HandStatus::Abandoned) {
                continue;
            }
            if h.ended_ms.is_some_and(|e| e + ORDER_GRACE_MS > now) {
                continue;
            }
            let mut missing = Vec::new();
            for seq in 0..h.next_seq {
                match ordered.get(&(h.hand_id.clone(), seq)).map(Vec::len) {
                    None | Some(0) => missing.push(seq.to_string()),
                    Some(1) => {}
                    Some(_) => {
                        let gids = &ordered[&(h.hand_id.clone(), seq)];
                        problems.push(finding(
                            &h.table_id,
                            Some(&h.hand_id),
                            format!(
                                "club_log rows gid {:?} all name event {seq}: expected it once",
                                gids
                            ),
                        ));
                    }
                }
            }
            if !missing.is_empty() {
                problems.push(finding(
                    &h.table_id,
                    Some(&h.hand_id),
                    format!(
                        "events {} of the finished hand (next_seq {}) have no club_log row: expected every event of a finished hand to be a leaf of the club log (left out of the club's order)",
                        missing.join(", "),
                        h.next_seq
                    ),
                ));
            }
        }
        if !full {
            break;
        }
    }
    Ok(())
}
