//! The audit of the stored records a club relies on besides the hands' own logs (issue 29):
//! every projection the signed records let it derive, each finding naming the database
//! table, the row's key and what the signed record says the row should hold.
//!
//! - a hand's row (`players`, `started_ms`) and its `hand_players` rows, against its
//!   `hand_started`;
//! - a table's row (game, rules, seats and their keys, client entropy, player
//!   signatures), against the `hand_started` of its latest hand that is not quarantined
//!   (those columns never change once a table is created);
//! - a table's `seed_chains` rows: each must unseal as its table's chain of its anchor
//!   and length, every chained hand must be dealt from the row that covers its number at
//!   its position, and a chain with positions left after the latest hand must still be
//!   there;
//! - every dispute's rows against its signed record (`disputes::projection`), and the
//!   record's own chain and signatures;
//! - every idempotency record: it must unseal under its own club, key and request
//!   fingerprint, with the status it records.

use replayer::dispute::verify_record;
use replayer::log::{Body, PlayerSignatures, Record};

use super::{Finding, Kind};
use crate::store::{DisputeFilter, HandRow, SeedChainRow, StoreError, TableRow};
use crate::Service;

/// The `table` of a finding about a club-wide record (an idempotency record).
const CLUB_TABLE: &str = "(club)";

/// A finding that a stored row differs from the signed record: `db_table row key:
/// expected …`.
pub(super) fn record_finding(
    table: &str,
    hand: Option<&HandRow>,
    db_table: &str,
    row: &str,
    expected: &str,
) -> Finding {
    Finding {
        table: table.to_string(),
        hand: hand.map(|h| h.hand_id.clone()),
        hand_no: hand.map(|h| h.hand_no),
        kind: Kind::Mismatch,
        detail: format!("{db_table} row {row}: expected {expected}"),
    }
}

/// A hand's row and `hand_players` rows against its `hand_started` (`first`).
pub(super) async fn hand_rows(
    svc: &Service,
    row: &HandRow,
    first: &Record,
) -> Result<Vec<Finding>, StoreError> {
    let Body::HandStarted { seats, .. } = &first.event.body else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    let key = format!("(club_id, hand_id) = ({}, {})", row.club_id, row.hand_id);
    let mut add = |db_table: &str, row_key: &str, expected: String| {
        out.push(record_finding(
            &row.table_id,
            Some(row),
            db_table,
            row_key,
            &expected,
        ))
    };
    let players: Vec<&str> = seats.iter().map(|s| s.player.as_str()).collect();
    if players != row.players.iter().map(String::as_str).collect::<Vec<_>>() {
        add(
            "hands",
            &key,
            format!("players {players:?}, as its hand_started records them"),
        );
    }
    if i64::try_from(first.event.time_ms).ok() != Some(row.started_ms) {
        add(
            "hands",
            &key,
            format!(
                "started_ms {}, as its hand_started records it",
                first.event.time_ms
            ),
        );
    }
    let stored = svc
        .store
        .checks()
        .hand_players_of(&row.club_id, &row.hand_id)
        .await?;
    let logged: Vec<(i64, String)> = seats
        .iter()
        .map(|s| (i64::from(s.seat.0), s.player.clone()))
        .collect();
    if stored != logged {
        // Name the first seat that differs (or is missing, or extra).
        let n = stored.len().max(logged.len());
        for i in 0..n {
            let (s, l) = (stored.get(i), logged.get(i));
            if s != l {
                let seat = l.or(s).map_or(0, |x| x.0);
                let expected = match l {
                    Some((seat, p)) => {
                        format!("seat {seat} player {p:?}, as its hand_started records it")
                    }
                    None => "no such row: its hand_started has no such seat".into(),
                };
                add(
                    "hand_players",
                    &format!(
                        "(club_id, hand_id, seat) = ({}, {}, {seat})",
                        row.club_id, row.hand_id
                    ),
                    expected,
                );
                break;
            }
        }
    }
    Ok(out)
}

/// A table's row against the `hand_started` (`first`) of its latest hand that is not
/// quarantined (`hand`).
pub(super) fn table_row(table: &TableRow, hand: &HandRow, first: &Record) -> Vec<Finding> {
    let Body::HandStarted {
        hand_no,
        game,
        rules,
        seats,
        client_entropy,
        player_signatures,
        ..
    } = &first.event.body
    else {
        return Vec::new();
    };
    let key = format!(
        "(club_id, table_id) = ({}, {})",
        table.club_id, table.table_id
    );
    let says = |what: String| format!("{what}, as hand {hand_no}'s hand_started records");
    let mut out = Vec::new();
    let mut add_to = |db_table: &str, row: &str, expected: String| {
        out.push(record_finding(
            &table.table_id,
            Some(hand),
            db_table,
            row,
            &expected,
        ))
    };
    if game.as_str() != table.game {
        add_to("game_tables", &key, says(format!("game {}", game.as_str())));
    }
    if *rules != table.rules {
        add_to(
            "game_tables",
            &key,
            says(format!(
                "rules {}",
                serde_json::to_string(rules).unwrap_or_default()
            )),
        );
    }
    let required = matches!(player_signatures, Some(PlayerSignatures::Required));
    if *client_entropy != crate::tables::client_entropy(table) {
        add_to(
            "game_tables",
            &key,
            says(format!("setup with client_entropy {client_entropy}")),
        );
    }
    if required != (crate::tables::signatures(table) == crate::tables::Signatures::Required) {
        add_to(
            "game_tables",
            &key,
            says(format!(
                "setup with player signatures {}",
                if required { "required" } else { "optional" }
            )),
        );
    }
    if seats.len() != table.seats.len() {
        add_to("seats", &key, says(format!("{} seats", seats.len())));
    }
    for (logged, stored) in seats.iter().zip(&table.seats) {
        let pk = logged.public_key.map(|k| k.to_hex());
        if i64::from(logged.seat.0) != i64::from(stored.seat)
            || logged.player != stored.player
            || pk != stored.public_key.as_ref().map(|k| k.to_ascii_lowercase())
        {
            add_to(
                "seats",
                &format!(
                    "(club_id, table_id, seat) = ({}, {}, {})",
                    table.club_id, table.table_id, logged.seat.0
                ),
                says(format!(
                    "seat {} player {:?}{}",
                    logged.seat.0,
                    logged.player,
                    pk.map(|k| format!(" key {k}")).unwrap_or_default()
                )),
            );
        }
    }
    out
}

/// A hand's first event, when it is a `hand_started` whose hash holds and which one of
/// the service's keys signed: the signed record the projections are checked against.
pub(super) fn sealed_start<'a>(svc: &Service, records: &'a [Record]) -> Option<&'a Record> {
    let first = records.first()?;
    let sealed = replayer::log::hash_event(&first.event).is_ok_and(|h| h == first.hash)
        && svc
            .keys
            .public(&first.signer)
            .is_some_and(|k| k.verify(&replayer::log::signature_message(&first.hash), &first.sig));
    (sealed && matches!(first.event.body, Body::HandStarted { .. })).then_some(first)
}

fn chain_key(r: &SeedChainRow) -> String {
    crate::seed_chains::row_name(r)
}

/// A table's seed chain rows against its hands' `hand_started` (`(hand row, first
/// event)`, by number, quarantined hands included: their chain positions are used).
pub(super) async fn seed_chains(
    svc: &Service,
    table: &TableRow,
    hands: &[(&HandRow, &Record)],
) -> Result<Vec<Finding>, StoreError> {
    let rows = svc
        .store
        .checks()
        .seed_chains_of(&table.club_id, &table.table_id)
        .await?;
    let mut out = Vec::new();
    let t = table.table_id.as_str();
    for r in &rows {
        if let Some(expected) = crate::seed_chains::row_damage(svc, r) {
            out.push(record_finding(
                t,
                None,
                "seed_chains",
                &chain_key(r),
                &expected,
            ));
        }
    }
    let covering = |no: i64| rows.iter().rev().find(|r| r.first_hand_no <= no);
    let mut last_chained: Option<(i64, u32, u32)> = None;
    for (h, first) in hands {
        let Body::HandStarted { seed_chain, .. } = &first.event.body else {
            continue;
        };
        let Some(c) = seed_chain else {
            continue;
        };
        last_chained = Some((h.hand_no, c.position, c.length));
        let want = format!(
            "anchor {}, length {}, first_hand_no {}: hand {} was dealt from position {} of \
             that chain",
            c.anchor.to_hex(),
            c.length,
            h.hand_no - i64::from(c.position) + 1,
            h.hand_no,
            c.position
        );
        match covering(h.hand_no) {
            None => out.push(record_finding(
                t,
                Some(h),
                "seed_chains",
                &format!(
                    "(club_id, table_id, first_hand_no) = ({}, {}, {})",
                    table.club_id,
                    table.table_id,
                    h.hand_no - i64::from(c.position) + 1
                ),
                &format!("a row of {want}; there is none"),
            )),
            Some(r) => {
                let position = h.hand_no - r.first_hand_no + 1;
                if r.anchor != c.anchor.to_hex()
                    || i64::from(r.length) != i64::from(c.length)
                    || position != i64::from(c.position)
                {
                    out.push(record_finding(
                        t,
                        Some(h),
                        "seed_chains",
                        &chain_key(r),
                        &want,
                    ));
                }
            }
        }
    }
    // A chain with positions left after the latest chained hand must still be there for
    // the next hand.
    if let Some((no, position, length)) = last_chained {
        if position < length && covering(no + 1).is_none() {
            out.push(record_finding(
                t,
                None,
                "seed_chains",
                &format!(
                    "(club_id, table_id, first_hand_no) = ({}, {}, {})",
                    table.club_id,
                    table.table_id,
                    no - i64::from(position) + 1
                ),
                &format!(
                    "the table's chain, {} of its {length} positions left after hand {no}; \
                     there is none",
                    length - position
                ),
            ));
        }
    }
    Ok(out)
}

/// Every dispute of the club: its record's chain and signatures, and its rows against it.
pub(super) async fn disputes(svc: &Service, club: &str) -> Result<Vec<Finding>, StoreError> {
    const PAGE: i64 = 200;
    let keys = svc.keys.public_keys();
    let mut filter = DisputeFilter {
        limit: PAGE,
        ..DisputeFilter::default()
    };
    let mut out = Vec::new();
    loop {
        let page = svc.store.disputes().list_disputes(club, &filter).await?;
        let full = i64::try_from(page.len()).unwrap_or(0) == PAGE;
        filter.cursor = page.last().map(|d| (d.opened_ms, d.dispute_id.clone()));
        for d in &page {
            let finding = |db_table: &str, row: &str, expected: &str| {
                let mut f = record_finding(&d.table_id, None, db_table, row, expected);
                f.hand = Some(d.hand_id.clone());
                f
            };
            let rows = svc
                .store
                .disputes()
                .list_dispute_entries(&d.club_id, &d.dispute_id)
                .await?;
            let mut record = Vec::new();
            let mut unreadable = None;
            for e in &rows {
                match serde_json::from_value(e.record.clone()) {
                    Ok(r) => record.push(r),
                    Err(_) => {
                        unreadable = Some(e.seq);
                        break;
                    }
                }
            }
            if let Some(seq) = unreadable {
                out.push(finding(
                    "dispute_entries",
                    &format!(
                        "(club_id, dispute_id, seq) = ({}, {}, {seq})",
                        d.club_id, d.dispute_id
                    ),
                    "a signed dispute entry (docs/DISPUTES.md)",
                ));
                continue;
            }
            if let Err(p) = verify_record(&record, &keys) {
                out.push(finding(
                    "dispute_entries",
                    &format!(
                        "(club_id, dispute_id, seq) = ({}, {}, {})",
                        d.club_id, d.dispute_id, p.entry
                    ),
                    &format!("an entry that passes the record's check {}", p.rule),
                ));
            }
            for diff in crate::disputes::projection::differences(d, &record) {
                out.push(finding(diff.table, &diff.row, &diff.expected));
            }
        }
        if !full {
            break;
        }
    }
    Ok(out)
}

/// Every idempotency record of the club.
pub(super) async fn idempotency(svc: &Service, club: &str) -> Result<Vec<Finding>, StoreError> {
    const PAGE: i64 = 500;
    let mut out = Vec::new();
    let mut after = String::new();
    loop {
        let page = svc
            .store
            .checks()
            .idempotency_page(club, &after, PAGE)
            .await?;
        for row in &page {
            if let Err(e) = crate::idempotency::recorded_reply(&svc.seal, row) {
                let expected = e
                    .extra
                    .get("record")
                    .and_then(|r| r.get("expected"))
                    .and_then(serde_json::Value::as_str)
                    .unwrap_or("a recorded response")
                    .to_string();
                out.push(record_finding(
                    CLUB_TABLE,
                    None,
                    "idempotency_keys",
                    &crate::idempotency::row_name(row),
                    &expected,
                ));
            }
        }
        match page.last() {
            Some(last) if i64::try_from(page.len()).unwrap_or(0) == PAGE => {
                after = last.key.clone();
            }
            _ => break,
        }
    }
    Ok(out)
}
