//! Issue 29, point 3: the club transparency log edited behind the service's back, as a
//! database superuser would, on PostgreSQL and on the embedded store (where the table
//! exists there). Each edit must be named by `audit-service audit` (the database table,
//! the row and what the audit expected) and answered by the API with a named problem,
//! never a bare 500 and never the edited data as fact:
//!
//! - a flipped byte in a stored hash tile: the tile is `409 log_damaged`, the hand whose
//!   proof runs through it gets `409 log_damaged`, its bundle carries no log proof;
//! - every checkpoint but the latest deleted: `…/log/checkpoints/{size}` still answers the
//!   same note, byte for byte, signed again from the tiles; the audit names each lost row;
//! - a club's `next_gid` set back or forward: the sequencer refuses the club and says why
//!   (a log line), the hand's log proof is `409 log_damaged` (PostgreSQL) or the next
//!   hand's start is (the embedded store orders in the append); repaired, the club goes on;
//! - a hand's log cursor moved forward or back (PostgreSQL's `log_cursors`): the same.
//!
//! Every test counts its edits: tried, named by the audit, refused by the API, silent
//! (printed, for docs/DURABILITY.md).

use std::time::{Duration, Instant};

use reqwest::StatusCode;

use crate::clublog::{audit, get_bytes, log_proof, play_hand};
use crate::damaged::behind_the_back;
use crate::harness::{problem, run, Env, Store, TestApp};
use crate::play::{create_table, play_to_end, start_hand, Rng, Table};

/// The tally of one test's edits.
#[derive(Default, Debug)]
struct Tally {
    tried: u32,
    named: u32,
    refused: u32,
    silent: u32,
}

impl Tally {
    fn edit(&mut self, named: bool, refused: bool) {
        self.tried += 1;
        self.named += u32::from(named);
        self.refused += u32::from(refused);
        self.silent += u32::from(!named && !refused);
    }

    fn print(&self, what: &str) {
        eprintln!(
            "tamper figures ({what}): {} edits tried, {} named by the audit, {} refused by the API, {} silent",
            self.tried, self.named, self.refused, self.silent
        );
        assert_eq!(self.silent, 0, "{what}: silent edits");
    }
}

/// The audit's findings of kind LOG that mention every one of `words`.
fn audit_names(env: &Env, club: &str, words: &[&str]) -> bool {
    let (code, out) = audit(env, club);
    let named = out
        .lines()
        .any(|l| l.starts_with("LOG") && words.iter().all(|w| l.contains(w)));
    code != 0 && named
}

fn audit_clean(env: &Env, club: &str, what: &str) {
    let (code, out) = audit(env, club);
    assert_eq!(code, 0, "{what}: the audit is clean: {out}");
}

/// The latest checkpoint's size.
async fn latest_size(app: &TestApp, club: &str) -> u64 {
    let (s, _, note) = get_bytes(app, &format!("/v1/clubs/{club}/log/checkpoint")).await;
    assert_eq!(s, StatusCode::OK);
    let note = String::from_utf8(note).unwrap();
    note.lines().nth(1).unwrap().parse().unwrap()
}

/// Plays hands until the log holds them all, each under a checkpoint of its own (the
/// builder signs one per pass): the hands and every checkpoint size seen.
async fn logged_hands(
    app: &TestApp,
    admin: &str,
    table: &Table,
    club: &str,
    n: usize,
    rng: &mut Rng,
) -> (Vec<String>, Vec<u64>) {
    let mut hands = vec![];
    let mut sizes = vec![];
    for _ in 0..n {
        let h = play_hand(app, admin, table, rng).await;
        let p = log_proof(app, admin, &h).await;
        // Wait for the hand's own checkpoint: its last event's leaf is the last leaf.
        let want = p["leaf_index"].as_u64().unwrap() + 1;
        let deadline = Instant::now() + Duration::from_secs(20);
        while latest_size(app, club).await < want {
            assert!(Instant::now() < deadline, "no checkpoint of size {want}");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        sizes.push(latest_size(app, club).await);
        hands.push(h);
    }
    sizes.dedup();
    (hands, sizes)
}

/// SQL that writes `bytes` over the stored tile `path`, triggers off (PostgreSQL) or
/// dropped (SQLite).
fn overwrite_tile(club: &str, path: &str, bytes: &[u8]) -> (String, String) {
    let hx = hex::encode(bytes);
    (
        format!(
            "ALTER TABLE log_tiles DISABLE TRIGGER USER; \
             UPDATE log_tiles SET bytes = decode('{hx}', 'hex') WHERE club_id = '{club}' AND path = '{path}'; \
             ALTER TABLE log_tiles ENABLE TRIGGER USER;"
        ),
        format!(
            "DROP TRIGGER IF EXISTS log_tiles_no_update; \
             UPDATE log_tiles SET bytes = X'{hx}' WHERE club_id = '{club}' AND path = '{path}';"
        ),
    )
}

/// A flipped byte in a stored hash tile, then every checkpoint but the latest deleted.
async fn tiles_and_checkpoints(store: Store) {
    run(store, |env| async move {
        let app = TestApp::spawn(&env).await;
        let (club, admin) = app.create_club("Log tamper");
        let table = create_table(&app, &admin, 3).await;
        let mut rng = Rng(0x29_0003 ^ store as u64);
        let (hands, sizes) = logged_hands(&app, &admin, &table, &club, 3, &mut rng).await;
        assert!(sizes.len() >= 2, "several checkpoints: {sizes:?}");
        audit_clean(&env, &club, "before the edits");
        let mut tally = Tally::default();
        let size = *sizes.last().unwrap();
        assert!(size < 256, "three hands fill less than one tile: {size}");

        // 1. A byte flipped in the level-0 hash tile of the latest checkpoint, in the hash
        //    of the first hand's first leaf (its proof runs through it).
        let path = format!("tile/0/000.p/{size}");
        let (s, _, good) = get_bytes(&app, &format!("/v1/clubs/{club}/log/{path}")).await;
        assert_eq!(s, StatusCode::OK);
        let first_proof = log_proof(&app, &admin, &hands[0]).await;
        let mut bad = good.clone();
        bad[5] ^= 0x20;
        let (pg, lite) = overwrite_tile(&club, &path, &bad);
        behind_the_back(&env, &app, pg, lite).await;
        let r = app.get(&format!("/v1/clubs/{club}/log/{path}"), None).await;
        problem(&r, StatusCode::CONFLICT, "log_damaged");
        assert!(
            r.text.contains(&path),
            "the problem names the tile: {}",
            r.text
        );
        // The first hand's last leaf is not leaf 0: its proof needs leaf 0's hash.
        assert!(first_proof["leaf_index"].as_u64().unwrap() > 0);
        let p = app
            .get(&format!("/v1/hands/{}/log-proof", hands[0]), Some(&admin))
            .await;
        problem(&p, StatusCode::CONFLICT, "log_damaged");
        let b = app
            .get(&format!("/v1/hands/{}/bundle", hands[0]), Some(&admin))
            .await;
        assert_eq!(b.status, StatusCode::OK, "{}", b.text);
        assert!(
            b.body.get("log_proof").is_none(),
            "no proof from a damaged tile: {}",
            b.text
        );
        let named = audit_names(&env, &club, &["log_tiles", &path, "expected"]);
        assert!(named, "the audit names the tile: {}", audit(&env, &club).1);
        tally.edit(named, r.status == StatusCode::CONFLICT);
        let (pg, lite) = overwrite_tile(&club, &path, &good);
        behind_the_back(&env, &app, pg, lite).await;
        audit_clean(&env, &club, "the tile put back");
        let p = app
            .get(&format!("/v1/hands/{}/log-proof", hands[0]), Some(&admin))
            .await;
        assert_eq!(p.status, StatusCode::OK, "{}", p.text);

        // 2. Every checkpoint but the latest deleted: each is served again, the same
        //    bytes (Ed25519 signs deterministically), and the audit names each lost row.
        let mut notes = vec![];
        for s in &sizes {
            let (st, cc, note) =
                get_bytes(&app, &format!("/v1/clubs/{club}/log/checkpoints/{s}")).await;
            assert_eq!(st, StatusCode::OK);
            assert!(cc.contains("immutable"), "{cc}");
            notes.push(note);
        }
        behind_the_back(
            &env,
            &app,
            format!(
                "ALTER TABLE log_checkpoints DISABLE TRIGGER USER; \
                 DELETE FROM log_checkpoints WHERE club_id = '{club}' AND size < {size}; \
                 ALTER TABLE log_checkpoints ENABLE TRIGGER USER;"
            ),
            format!(
                "DROP TRIGGER IF EXISTS log_checkpoints_no_delete; \
                 DELETE FROM log_checkpoints WHERE club_id = '{club}' AND size < {size};"
            ),
        )
        .await;
        let (code, out) = audit(&env, &club);
        assert_ne!(code, 0, "{out}");
        for (s, note) in sizes.iter().zip(&notes) {
            let (st, _, again) =
                get_bytes(&app, &format!("/v1/clubs/{club}/log/checkpoints/{s}")).await;
            assert_eq!(st, StatusCode::OK, "checkpoint {s} after the deletion");
            assert_eq!(
                &again, note,
                "checkpoint {s} is the same note, signed again"
            );
            if *s < size {
                let named = out.lines().any(|l| {
                    l.starts_with("LOG")
                        && l.contains(&format!("log_checkpoints row ({club}, {s})"))
                        && l.contains("missing")
                });
                assert!(named, "the audit names checkpoint {s}: {out}");
                // Refused as a loss? Served again from signed data: never a silent 404.
                tally.edit(named, true);
            }
        }
        // A size never published is signed on request too; beyond the latest is 404.
        let (st, _, _) = get_bytes(
            &app,
            &format!("/v1/clubs/{club}/log/checkpoints/{}", size + 1),
        )
        .await;
        assert_eq!(st, StatusCode::NOT_FOUND);
        tally.print(&format!("{store:?}: tiles and checkpoints"));
    })
    .await
}

/// `clubs.next_gid` set back, then set forward; on PostgreSQL a hand's cursor moved
/// forward, then back.
async fn order_edits(store: Store) {
    run(store, |env| async move {
        let app = TestApp::spawn(&env).await;
        let (club, admin) = app.create_club("Order tamper");
        let table = create_table(&app, &admin, 3).await;
        let mut rng = Rng(0x29_0033 ^ store as u64);
        logged_hands(&app, &admin, &table, &club, 1, &mut rng).await;
        audit_clean(&env, &club, "before the edits");
        let mut tally = Tally::default();

        for delta in [-3i64, 4] {
            let set = format!(
                "UPDATE clubs SET next_gid = next_gid + ({delta}) WHERE club_id = '{club}';"
            );
            behind_the_back(&env, &app, set.clone(), set).await;
            // Every ordered event is logged: club_log holds gids 0..size.
            let want = latest_size(&app, &club).await as i64;
            let found = want + delta;
            let named = audit_names(
                &env,
                &club,
                &["clubs row", &format!("next_gid is {found}, expected {want}")],
            );
            assert!(named, "the audit names next_gid: {}", audit(&env, &club).1);
            let refused = if store == Store::Pg {
                // The hand is played; the sequencer refuses to order it, and says why.
                let h = play_hand(&app, &admin, &table, &mut rng).await;
                tokio::time::sleep(Duration::from_millis(1200)).await;
                let p = app
                    .get(&format!("/v1/hands/{h}/log-proof"), Some(&admin))
                    .await;
                problem(&p, StatusCode::CONFLICT, "log_damaged");
                assert!(p.text.contains("next_gid"), "{}", p.text);
                let log = app.log();
                assert!(
                    log.contains("the club's order is damaged") && log.contains("next_gid"),
                    "the sequencer says why: {log}"
                );
                // Repaired (the club's next_gid put back), the hand is ordered and logged.
                let back = format!(
                    "UPDATE clubs SET next_gid = next_gid - ({delta}) WHERE club_id = '{club}';"
                );
                behind_the_back(&env, &app, back.clone(), back).await;
                log_proof(&app, &admin, &h).await;
                true
            } else {
                // The embedded store orders in the append: the next hand's start is
                // refused, naming the row, and nothing is written.
                let r = app
                    .post(
                        &format!("/v1/tables/{}/hands", table.id),
                        Some(&admin),
                        serde_json::json!({}),
                    )
                    .await;
                problem(&r, StatusCode::CONFLICT, "log_damaged");
                assert!(r.text.contains("next_gid"), "{}", r.text);
                let back = format!(
                    "UPDATE clubs SET next_gid = next_gid - ({delta}) WHERE club_id = '{club}';"
                );
                behind_the_back(&env, &app, back.clone(), back).await;
                let h = play_hand(&app, &admin, &table, &mut rng).await;
                log_proof(&app, &admin, &h).await;
                true
            };
            tally.edit(named, refused);
            audit_clean(&env, &club, "next_gid put back");
        }

        if store == Store::Pg {
            for delta in [2i64, -1] {
                // A hand in progress whose events so far are ordered.
                let h = start_hand(&app, &admin, &table).await;
                let hand = h["hand_id"].as_str().unwrap().to_string();
                let deadline = Instant::now() + Duration::from_secs(20);
                let db = env.pg().await;
                loop {
                    let ordered: i64 = db
                        .query_one(
                            "SELECT count(*) FROM club_log WHERE club_id = $1 AND hand_id = $2",
                            &[&club, &hand],
                        )
                        .await
                        .unwrap()
                        .get(0);
                    let cursor: i64 = db
                        .query_one(
                            "SELECT next_seq FROM log_cursors WHERE club_id = $1 AND hand_id = $2",
                            &[&club, &hand],
                        )
                        .await
                        .unwrap()
                        .get(0);
                    if ordered > 0 && cursor == ordered {
                        break;
                    }
                    assert!(Instant::now() < deadline, "the hand's start is ordered");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                let cursor: i64 = db
                    .query_one(
                        "SELECT next_seq FROM log_cursors WHERE club_id = $1 AND hand_id = $2",
                        &[&club, &hand],
                    )
                    .await
                    .unwrap()
                    .get(0);
                db.execute(
                    "UPDATE log_cursors SET next_seq = next_seq + $3 WHERE club_id = $1 AND hand_id = $2",
                    &[&club, &hand, &delta],
                )
                .await
                .unwrap();
                play_to_end(&app, &admin, &hand, &table.tokens, &mut rng).await;
                tokio::time::sleep(Duration::from_millis(1200)).await;
                let p = app
                    .get(&format!("/v1/hands/{hand}/log-proof"), Some(&admin))
                    .await;
                problem(&p, StatusCode::CONFLICT, "log_damaged");
                assert!(p.text.contains("log_cursors"), "{}", p.text);
                let found = cursor + delta;
                let named = audit_names(
                    &env,
                    &club,
                    &["log_cursors row", &hand, &format!("next_seq is {found}, expected {cursor}")],
                );
                assert!(named, "the audit names the cursor: {}", audit(&env, &club).1);
                tally.edit(named, true);
                db.execute(
                    "UPDATE log_cursors SET next_seq = next_seq - $3 WHERE club_id = $1 AND hand_id = $2",
                    &[&club, &hand, &delta],
                )
                .await
                .unwrap();
                log_proof(&app, &admin, &hand).await;
                audit_clean(&env, &club, "the cursor put back");
            }
        }
        tally.print(&format!("{store:?}: the club's order"));
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn embedded_log_tiles_and_checkpoints_tampered() {
    tiles_and_checkpoints(Store::Embedded).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_log_tiles_and_checkpoints_tampered() {
    tiles_and_checkpoints(Store::Pg).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn embedded_club_order_tampered() {
    order_edits(Store::Embedded).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_club_order_tampered() {
    order_edits(Store::Pg).await;
}
