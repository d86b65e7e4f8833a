//! `audit-service audit --club ID`: a club re-verified from the store. Clean: exit 0 and
//! no finding; a projection edited in the database behind the service's back (a table's
//! match state, a hand row's outcome): exit 1, naming what differs; no such club: exit 2.

use std::process::Command;

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::harness::{ok, run, Env, Store, TestApp, BIN};
use crate::play::{create_table, play_to_end, start_hand, step, Rng};

/// Runs `audit --club CLUB` (and `extra` flags) on the test's store: (exit code, stdout,
/// stderr).
fn audit(env: &Env, club: &str, extra: &[&str]) -> (i32, String, String) {
    let out = Command::new(BIN)
        .args(["audit", "--club", club])
        .args(extra)
        .args(env.store_flags())
        .env("RUST_LOG", "warn")
        .env_remove("DATABASE_URL")
        .env_remove("AUDIT_DATA_DIR")
        .env_remove("AUDIT_KEY_FILE")
        .output()
        .expect("run audit-service audit");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).expect("utf-8"),
        String::from_utf8(out.stderr).expect("utf-8"),
    )
}

/// `audit --json`, parsed: (exit code, document).
fn audit_json(env: &Env, club: &str) -> (i32, Value) {
    let (code, out, err) = audit(env, club, &["--json"]);
    let v: Value = serde_json::from_str(&out)
        .unwrap_or_else(|e| panic!("audit --json is not JSON ({e}): {out}; stderr: {err}"));
    (code, v)
}

/// A club as the audit finds it: one table of three seats, hands 1 and 2 finished (hand
/// 2 abandoned when `abandon_second`) and hand 3 in progress, a few events in.
struct Club {
    app: TestApp,
    club: String,
    admin: String,
    table: String,
    tokens: Vec<String>,
    hands: Vec<String>,
}

async fn club_with_hands(env: &Env, abandon_second: bool) -> Club {
    let app = TestApp::spawn(env).await;
    let (club, admin) = app.create_club("Yazd");
    let table = create_table(&app, &admin, 3).await;
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut hands = Vec::new();
    for n in 1..=2 {
        let h = start_hand(&app, &admin, &table).await;
        let id = h["hand_id"].as_str().unwrap().to_string();
        if n == 2 && abandon_second {
            step(&app, &admin, &id, &table.tokens, &mut rng).await;
            let r = app
                .post(
                    &format!("/v1/hands/{id}/abandon"),
                    Some(&admin),
                    json!({"reason": "the lights went out"}),
                )
                .await;
            ok(&r, StatusCode::OK, "abandon");
            assert_eq!(r.body["status"], "abandoned", "{}", r.text);
        } else {
            let done = play_to_end(&app, &admin, &id, &table.tokens, &mut rng).await;
            assert_eq!(done["status"], "completed", "{done}");
        }
        hands.push(id);
    }
    let h3 = start_hand(&app, &admin, &table).await;
    let id3 = h3["hand_id"].as_str().unwrap().to_string();
    for _ in 0..3 {
        assert!(
            step(&app, &admin, &id3, &table.tokens, &mut rng)
                .await
                .is_none(),
            "hand 3 should still be in progress"
        );
    }
    hands.push(id3);
    Club {
        app,
        club,
        admin,
        table: table.id,
        tokens: table.tokens,
        hands,
    }
}

/// Nothing secret in the audit's output: no API key, no seat token.
fn no_secrets(c: &Club, out: &str) {
    assert!(!out.contains(&c.admin), "the admin key leaked: {out}");
    for t in &c.tokens {
        assert!(!out.contains(t.as_str()), "a seat token leaked: {out}");
    }
}

async fn clean(env: Env, abandon_second: bool) {
    let c = club_with_hands(&env, abandon_second).await;
    let (code, out, err) = audit(&env, &c.club, &[]);
    assert_eq!(code, 0, "a clean club audits clean: {out}; stderr: {err}");
    assert_eq!(
        out.trim(),
        "audited 1 tables, 3 hands: 0 problems",
        "stderr: {err}"
    );
    no_secrets(&c, &out);

    let (code, v) = audit_json(&env, &c.club);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["club"], c.club.as_str());
    assert_eq!(v["tables"], 1);
    assert_eq!(v["hands"], 3);
    assert_eq!(v["problems"], json!([]), "{v}");
    no_secrets(&c, &v.to_string());

    // The audit read the store while the service kept running: it still serves.
    let t = c
        .app
        .get(&format!("/v1/tables/{}", c.table), Some(&c.admin))
        .await;
    ok(&t, StatusCode::OK, "table after the audit");
    // The match file the audit verified is the one the service serves: the finished
    // hands, in order, the hand in progress left out.
    let m = c
        .app
        .get(&format!("/v1/tables/{}/bundle", c.table), Some(&c.admin))
        .await;
    ok(&m, StatusCode::OK, "match file");
    let ids: Vec<&str> = m.body["hands"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["hand"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        [c.hands[0].as_str(), c.hands[1].as_str()],
        "{}",
        m.text
    );
}

async fn edited_match_state(env: Env) {
    let c = club_with_hands(&env, false).await;
    let db = env.pg().await;
    let n = db
        .execute(
            "UPDATE game_tables SET match_state = jsonb_set(match_state, '{balances,1}', '5000000') \
             WHERE table_id = $1",
            &[&c.table],
        )
        .await
        .expect("the table's match_state is a projection the database lets an admin edit");
    assert_eq!(n, 1);

    let (code, out, err) = audit(&env, &c.club, &[]);
    assert_eq!(
        code, 1,
        "an edited match_state is a problem: {out}; stderr: {err}"
    );
    let line = out
        .lines()
        .find(|l| l.starts_with("MISMATCH") && l.contains("match_state"))
        .unwrap_or_else(|| panic!("no match_state finding: {out}"));
    assert!(
        line.contains(&c.table),
        "the finding names the table: {line}"
    );
    assert!(out.contains("5000000"), "the stored value is shown: {out}");
    assert!(
        out.trim_end()
            .ends_with("audited 1 tables, 3 hands: 1 problems"),
        "{out}"
    );
    no_secrets(&c, &out);

    let (code, v) = audit_json(&env, &c.club);
    assert_eq!(code, 1);
    let problems = v["problems"].as_array().unwrap();
    assert_eq!(problems.len(), 1, "{v}");
    assert_eq!(problems[0]["table"], c.table.as_str());
    assert_eq!(problems[0]["hand"], Value::Null);
    assert_eq!(problems[0]["kind"], "mismatch");
    assert!(
        problems[0]["detail"]
            .as_str()
            .unwrap()
            .contains("match_state"),
        "{v}"
    );
}

async fn edited_outcome(env: Env) {
    let c = club_with_hands(&env, false).await;
    let first = &c.hands[0];
    let db = env.pg().await;
    let n = db
        .execute(
            "UPDATE hands SET outcome = jsonb_set(outcome, '{edited}', 'true') WHERE hand_id = $1",
            &[first],
        )
        .await
        .expect("the hands table takes an UPDATE (no trigger guards it)");
    assert_eq!(n, 1);

    let (code, out, err) = audit(&env, &c.club, &[]);
    assert_eq!(
        code, 1,
        "an edited outcome is a problem: {out}; stderr: {err}"
    );
    let line = out
        .lines()
        .find(|l| l.starts_with("MISMATCH") && l.contains("outcome"))
        .unwrap_or_else(|| panic!("no outcome finding: {out}"));
    assert!(
        line.contains(first.as_str()) && line.contains(&c.table) && line.contains("(hand 1)"),
        "the finding names the table and the hand: {line}"
    );
    assert!(
        out.trim_end()
            .ends_with("audited 1 tables, 3 hands: 1 problems"),
        "only the outcome differs: {out}"
    );

    let (code, v) = audit_json(&env, &c.club);
    assert_eq!(code, 1);
    let problems = v["problems"].as_array().unwrap();
    assert_eq!(problems.len(), 1, "{v}");
    assert_eq!(problems[0]["hand"], first.as_str());
    assert_eq!(problems[0]["kind"], "mismatch");

    // The events table still refuses edits: the log itself stays as signed.
    let refused = db
        .execute("UPDATE events SET kind = kind WHERE hand_id = $1", &[first])
        .await;
    assert!(refused.is_err(), "events are append-only");
}

async fn swapped_hand_numbers(env: Env) {
    let c = club_with_hands(&env, false).await;
    let (h1, h2) = (&c.hands[0], &c.hands[1]);
    let db = env.pg().await;
    // (club, table, hand_no) is unique: swap through a free number.
    for (no, hand) in [(100i64, h1), (1, h2), (2, h1)] {
        let n = db
            .execute(
                "UPDATE hands SET hand_no = $1 WHERE hand_id = $2",
                &[&no, hand],
            )
            .await
            .expect("the hands table takes an UPDATE of hand_no");
        assert_eq!(n, 1);
    }

    let (code, out, err) = audit(&env, &c.club, &[]);
    assert_eq!(code, 1, "swapped hands are a problem: {out}; stderr: {err}");
    let broken = out
        .lines()
        .find(|l| l.starts_with("BROKEN") && l.contains("match: hand 0"))
        .unwrap_or_else(|| panic!("no break of the match: {out}"));
    assert!(
        broken.contains(&c.table) && broken.contains(h2.as_str()),
        "the break names the table and the hand now first: {broken}"
    );
    for h in [h1, h2] {
        assert!(
            out.lines().any(|l| l.starts_with("MISMATCH")
                && l.contains(h.as_str())
                && l.contains("hand_no")),
            "hand {h}'s stored hand_no is named: {out}"
        );
    }
    assert!(
        out.trim_end()
            .ends_with("audited 1 tables, 3 hands: 3 problems"),
        "{out}"
    );
    let (code, v) = audit_json(&env, &c.club);
    assert_eq!(code, 1);
    let kinds: Vec<&str> = v["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["mismatch", "mismatch", "broken"], "{v}");
}

async fn lost_signing_key(env: Env) {
    let c = club_with_hands(&env, false).await;
    // The club log has signed a checkpoint with that key (its builder runs every 500 ms:
    // on a busy machine the hands can be over before the first one).
    let path = format!("/v1/clubs/{}/log/checkpoint", c.club);
    let mut signed = false;
    for _ in 0..300 {
        if c.app.get(&path, None).await.status == StatusCode::OK {
            signed = true;
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(signed, "the club log signed no checkpoint within 30 s");
    // The key that signed every hand is rotated out, then its file lost: the audit, which
    // trusts only the key ring's keys, can no longer vouch for any event.
    let keys = env.data.path().join("keys");
    let old = std::fs::read_to_string(keys.join("current")).expect("keys/current");
    c.app.cli(&["keys", "rotate"]);
    std::fs::remove_file(keys.join(format!("{}.key", old.trim()))).expect("remove the old key");

    let (code, out, err) = audit(&env, &c.club, &[]);
    assert_eq!(
        code, 1,
        "unknown signers are a problem: {out}; stderr: {err}"
    );
    for (n, h) in c.hands.iter().enumerate() {
        let line = out
            .lines()
            .find(|l| l.contains(h.as_str()))
            .unwrap_or_else(|| panic!("hand {h} is not named: {out}"));
        assert!(
            line.starts_with("INVALID")
                && line.contains(&format!("(hand {})", n + 1))
                && line.contains("event 0: signer ed25519:")
                && line.contains("is not one of the service's keys"),
            "{line}"
        );
    }
    // The club log's checkpoints were signed by the lost key too: one more problem, the
    // log's (docs/TRANSPARENCY.md §10), and the match's break is not named twice.
    assert!(
        out.lines()
            .any(|l| l.starts_with("LOG")
                && l.contains("is not signed by any of the service's keys")),
        "the club log's checkpoint is named: {out}"
    );
    assert!(
        out.trim_end()
            .ends_with("audited 1 tables, 3 hands: 4 problems"),
        "the match's break at an invalid hand is not named twice: {out}"
    );
    no_secrets(&c, &out);
}

async fn unknown_club(env: Env) {
    let app = TestApp::spawn(&env).await;
    let (club, _) = app.create_club("Qom");
    let (code, out, err) = audit(&env, "c_no_such_club", &[]);
    assert_eq!(code, 2, "no such club: exit 2: {out}; stderr: {err}");
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains("no club \"c_no_such_club\""),
        "a clear message: {err}"
    );
    assert!(!err.contains("panicked"), "{err}");
    // A club with no table audits clean.
    let (code, out, err) = audit(&env, &club, &[]);
    assert_eq!(code, 0, "{out}; stderr: {err}");
    assert_eq!(out.trim(), "audited 0 tables, 0 hands: 0 problems");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_clean_club_audits_clean() {
    run(Store::Pg, |env| clean(env, false)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn embedded_clean_club_audits_clean() {
    run(Store::Embedded, |env| clean(env, false)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_abandoned_hand_audits_clean() {
    run(Store::Pg, |env| clean(env, true)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_edited_match_state_is_named() {
    run(Store::Pg, edited_match_state).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_edited_outcome_is_named() {
    run(Store::Pg, edited_outcome).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_swapped_hand_numbers_break_the_match() {
    run(Store::Pg, swapped_hand_numbers).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn embedded_lost_signing_key_is_named() {
    run(Store::Embedded, lost_signing_key).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_unknown_club_exits_2() {
    run(Store::Pg, unknown_club).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn embedded_unknown_club_exits_2() {
    run(Store::Embedded, unknown_club).await;
}

#[test]
fn unreachable_store_exits_2() {
    let data = tempfile::tempdir().expect("temp dir");
    let out = Command::new(BIN)
        .args(["audit", "--club", "c_any", "--data-dir"])
        .arg(data.path())
        .args(["--database-url", "postgres://postgres@127.0.0.1:1/none"])
        .env("RUST_LOG", "off")
        .output()
        .expect("run audit-service audit");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("cannot audit"), "a clear message: {err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(out.stdout.is_empty());
}
