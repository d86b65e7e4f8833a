//! The club transparency log's part of the audit (`docs/TRANSPARENCY.md` §10): the latest
//! checkpoint must be signed by one of the service's keys and be the root of the stored
//! tiles; every leaf under it must be the leaf of the event the club-wide order puts
//! there, recomputed from the store's event and the hand's salt; and every stored event
//! old enough to be ordered must be in that order. A hand deleted from the store, an
//! event rewritten, an event inserted, or tiles rewritten, is each a finding that names
//! the hand (or the leaves, where the order names nothing). A quarantined hand's events
//! are left out: its log failed, and its quarantine is on record.

use std::collections::{BTreeMap, HashMap, HashSet};

use replayer::tlog::{self, tile::decode_entry_bundle, Checkpoint, NoteVerifier, TileId, TileKind};

use super::{AuditError, Finding, Kind, Report};
use crate::clublog::{event_leaf, hand_salt, read_tile, with_tiles, LogError};
use crate::store::{EventRow, HandFilter, HandStatus};
use crate::Service;

/// Pages of the club-wide order read at once.
const PAGE: i64 = 10_000;

/// How long after its commit an event must be ordered and logged before the audit calls
/// it missing from the log (the sequencer and builder run every half second).
const LOG_GRACE_MS: i64 = 5_000;

/// The table column of a finding about the log as a whole.
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

fn store_err(e: LogError) -> AuditError {
    AuditError::Store(e.to_string())
}

/// Audits the club's log against the store; adds its findings to `report`.
pub(super) async fn audit_log(
    svc: &Service,
    club: &str,
    report: &mut Report,
) -> Result<(), AuditError> {
    let store = svc.store.as_ref();
    let Some(cp) = store.latest_checkpoint(club).await? else {
        return Ok(());
    };
    let problems = &mut report.problems;
    let size = u64::try_from(cp.size).unwrap_or(0);

    // The checkpoint: signed by one of the service's keys, saying what its row says.
    match Checkpoint::parse_unverified(&cp.note) {
        Ok(parsed) => {
            let signed = svc.keys.public_keys().into_iter().any(|pk| {
                NoteVerifier::new(parsed.origin.as_str(), pk)
                    .is_ok_and(|v| Checkpoint::open(&cp.note, &v).is_ok())
            });
            if !signed {
                problems.push(finding(
                    LOG_TABLE,
                    None,
                    format!("checkpoint of size {size} is not signed by any of the service's keys"),
                ));
            }
            if parsed.size != size || parsed.root.0 != cp.root {
                problems.push(finding(
                    LOG_TABLE,
                    None,
                    format!("checkpoint of size {size}: its note and its row disagree"),
                ));
            }
        }
        Err(e) => problems.push(finding(
            LOG_TABLE,
            None,
            format!("checkpoint of size {size} does not read: {e}"),
        )),
    }

    // The stored leaves, from the entry bundles.
    let mut leaves: Vec<Option<Vec<u8>>> = Vec::new();
    for k in 0..size.div_ceil(256) {
        let Some(id) = TileId::in_tree(TileKind::Entries, k, size) else {
            break;
        };
        let got = match read_tile(store, club, &id).await {
            Ok(bytes) => decode_entry_bundle(&bytes, id.width).map_err(|e| e.to_string()),
            Err(LogError::Store(e)) => return Err(e.into()),
            Err(e) => Err(e.to_string()),
        };
        match got {
            Ok(entries) => leaves.extend(entries.into_iter().map(Some)),
            Err(why) => {
                problems.push(finding(
                    LOG_TABLE,
                    None,
                    format!("entry bundle {} cannot be read: {why}", id.path()),
                ));
                leaves.extend((0..id.width).map(|_| None));
            }
        }
    }

    // The tiles must give the checkpoint's root, from the entries and from the hashes.
    if leaves.iter().all(Option::is_some) {
        let hashes: Vec<_> = leaves
            .iter()
            .flatten()
            .map(|e| tlog::leaf_hash(e))
            .collect();
        if tlog::root_of(&hashes).0 != cp.root {
            problems.push(finding(
                LOG_TABLE,
                None,
                format!("the stored entries do not give the root of the checkpoint of size {size}: tiles rewritten"),
            ));
        }
    }
    let root = with_tiles(store, club, |r| {
        Ok(tlog::tree_root(&tlog::TileHashReader::new(r, size), size)?)
    })
    .await;
    match root {
        Ok(root) if root.0 == cp.root => {}
        Ok(_) => problems.push(finding(
            LOG_TABLE,
            None,
            format!("the stored hash tiles do not give the root of the checkpoint of size {size}: tiles rewritten"),
        )),
        Err(LogError::Store(e)) => return Err(e.into()),
        Err(e) => problems.push(finding(
            LOG_TABLE,
            None,
            format!("the hash tiles of size {size} cannot be read: {e}"),
        )),
    }

    // Every stored event of every hand, by (hand, seq).
    let mut hands = HashMap::new();
    let mut quarantined = HashSet::new();
    let mut filter = HandFilter {
        limit: 500,
        ..HandFilter::default()
    };
    loop {
        let page = store.list_hands(club, &filter).await?;
        let full = page.len() == 500;
        filter.cursor = page.last().map(|h| (h.started_ms, h.hand_id.clone()));
        for h in page {
            if h.status == HandStatus::Quarantined {
                // Its log failed and it was set aside, on record (the report lists it):
                // what was done to its events is not a new finding.
                quarantined.insert(h.hand_id.clone());
            }
            hands.insert(h.hand_id.clone(), h.table_id.clone());
        }
        if !full {
            break;
        }
    }
    let mut events: BTreeMap<(String, i64), EventRow> = BTreeMap::new();
    for hand in hands.keys().filter(|h| !quarantined.contains(*h)) {
        let mut from = 0;
        loop {
            let page = store.list_events(club, hand, from, PAGE).await?;
            let full = page.len() == usize::try_from(PAGE).unwrap_or(usize::MAX);
            from = page.last().map_or(from, |e| e.seq + 1);
            for ev in page {
                events.insert((ev.hand_id.clone(), ev.seq), ev);
            }
            if !full {
                break;
            }
        }
    }
    // Events the store no longer holds but whose hand's rows remain are listed by hand.
    let table_of = |hand: &str| hands.get(hand).map_or(LOG_TABLE, String::as_str);

    // Each leaf against the event the order puts there.
    let mut missing: BTreeMap<String, Vec<(i64, i64)>> = BTreeMap::new();
    let mut next_gid = 0i64;
    let mut from = 0i64;
    loop {
        let page = store.list_club_order(club, from, PAGE).await?;
        let Some(last) = page.last() else { break };
        from = last.0 + 1;
        for (gid, hand, seq) in page {
            if gid >= cp.size {
                continue;
            }
            if gid != next_gid {
                problems.push(finding(
                    LOG_TABLE,
                    None,
                    format!(
                        "leaves {next_gid} to {} name no event in the club-wide order",
                        gid - 1
                    ),
                ));
            }
            next_gid = gid + 1;
            let stored = leaves
                .get(usize::try_from(gid).unwrap_or(usize::MAX))
                .cloned()
                .flatten();
            if quarantined.contains(&hand) {
                continue;
            }
            match events.remove(&(hand.clone(), seq)) {
                None => missing.entry(hand).or_default().push((seq, gid)),
                Some(ev) => {
                    let salt = hand_salt(&svc.seal, club, &hand);
                    let leaf = event_leaf(club, &salt, &ev).map_err(store_err);
                    let same = matches!((&leaf, &stored), (Ok(l), Some(s)) if l.as_bytes() == s.as_slice());
                    if !same && stored.is_some() {
                        problems.push(finding(
                            table_of(&hand),
                            Some(&hand),
                            format!("event {seq} is not the event leaf {gid} of the club log committed to: rewritten since it was logged"),
                        ));
                    }
                }
            }
        }
    }
    if next_gid < cp.size {
        problems.push(finding(
            LOG_TABLE,
            None,
            format!(
                "leaves {next_gid} to {} name no event in the club-wide order",
                cp.size - 1
            ),
        ));
    }
    for (hand, gone) in missing {
        let seqs: Vec<String> = gone.iter().map(|(s, _)| s.to_string()).collect();
        let gids: Vec<String> = gone.iter().map(|(_, g)| g.to_string()).collect();
        let detail = if hands.contains_key(&hand) {
            format!(
                "events {} (leaves {}) are in the club log but not in the store: removed",
                seqs.join(", "),
                gids.join(", ")
            )
        } else {
            format!(
                "the hand is in the club log (events {}, leaves {}) but not in the store: removed",
                seqs.join(", "),
                gids.join(", ")
            )
        };
        problems.push(finding(table_of(&hand), Some(&hand), detail));
    }
    // Stored events that are in no leaf: inserted behind the service's back (an event it
    // wrote is ordered and logged within a second or two).
    for ((hand, seq), ev) in events {
        let logged = ev.gid.is_some_and(|g| g < cp.size);
        if !logged && ev.gid.is_none() && ev.created_ms + LOG_GRACE_MS < cp.created_ms {
            problems.push(finding(
                table_of(&hand),
                Some(&hand),
                format!("event {seq} is in the store but in no leaf of the club log: inserted"),
            ));
        }
    }
    Ok(())
}
