//! Issue 29: every edit a database superuser makes to a record a club relies on, besides
//! the events themselves (`tamper.rs`) and the club log (`tamper_log.rs`), is named by
//! `audit-service audit` (the database table, the row's key and what the signed record
//! says it should hold) and answered by the API with a named problem (`409
//! record_damaged` with `record: {table, row, expected}`, or `409 hand_damaged`), never a
//! bare 500 and never the edited data served as fact.
//!
//! One club per store holds every record edited: tables whose rules, seats or set-up are
//! edited after their first hand, chained tables whose seed chain row is deleted or edited,
//! finished hands whose row or `hand_players` rows are edited, disputes with a signed
//! ruling whose rows or entries are edited or deleted, and idempotency records swapped or
//! edited. The club audits clean first; then every edit is made at once (each on a record
//! of its own), the audit is run once, and each edit's own API request is made. A running
//! hand rolled back (its last event deleted while the service is down) is its own test.
//!
//! A few edits are out of the audit's reach by design (docs/DURABILITY.md, "Tamper
//! figures"): they are tried too, and the suite asserts they stay what the document says
//! (no 500; and the figures printed count them as silent).

use std::collections::BTreeMap;
use std::process::Command;

use replayer::log::SigningKeyPair;
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::harness::{ok, run, Env, Res, Store, TestApp, BIN};
use crate::play::{create_table, play_to_end, start_hand, step, Rng, Table};

/// Runs SQL as the database superuser with the append-only triggers out of the way:
/// PostgreSQL in `session_replication_role = replica` (no user trigger fires); SQLite by
/// dropping every trigger, editing, and creating them again in one transaction.
pub(crate) async fn as_superuser(env: &Env, app: &TestApp, pg: &str, sqlite: &str) {
    if env.db_url.is_some() {
        let db = env.pg().await;
        db.batch_execute(&format!(
            "SET session_replication_role = replica; {pg}; SET session_replication_role = DEFAULT"
        ))
        .await
        .unwrap_or_else(|e| panic!("superuser edit {pg}: {e}"));
        return;
    }
    let path = app.data_dir.join("dealer.db");
    let sql = sqlite.to_string();
    tokio::task::spawn_blocking(move || {
        let mut db = rusqlite::Connection::open(&path).expect("open dealer.db");
        db.busy_timeout(std::time::Duration::from_secs(10)).unwrap();
        let tx = db.transaction().expect("begin");
        let triggers: Vec<(String, String)> = {
            let mut s = tx
                .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'")
                .unwrap();
            let rows = s
                .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
                .unwrap()
                .collect::<Result<Vec<_>, _>>()
                .unwrap();
            rows
        };
        for (name, _) in &triggers {
            tx.execute_batch(&format!("DROP TRIGGER \"{name}\""))
                .unwrap();
        }
        tx.execute_batch(&sql)
            .unwrap_or_else(|e| panic!("superuser edit {sql}: {e}"));
        for (_, create) in &triggers {
            tx.execute_batch(create).unwrap();
        }
        tx.commit().expect("commit");
    })
    .await
    .expect("sqlite edit");
}

/// `audit-service audit --club CLUB --json` on the test's store: (exit code, document).
pub(crate) fn audit_json(env: &Env, club: &str) -> (i32, Value) {
    let out = Command::new(BIN)
        .args(["audit", "--club", club, "--json"])
        .args(env.store_flags())
        .env("RUST_LOG", "warn")
        .env_remove("DATABASE_URL")
        .env_remove("AUDIT_DATA_DIR")
        .env_remove("AUDIT_KEY_FILE")
        .output()
        .expect("run audit-service audit");
    let text = String::from_utf8(out.stdout).expect("utf-8");
    let v: Value = serde_json::from_str(&text).unwrap_or_else(|e| {
        panic!(
            "audit --json is not JSON ({e}): {text}; stderr: {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code().unwrap_or(-1), v)
}

/// The API request that must answer a named problem after an edit.
#[derive(Clone, Debug)]
enum Probe {
    /// `POST /v1/tables/{table}/hands`.
    StartHand(String),
    /// `GET /v1/hands/{hand}`.
    GetHand(String),
    /// `GET /v1/disputes/{dispute}`.
    GetDispute(String),
    /// The same `POST` again with the same `Idempotency-Key`.
    Retry {
        path: String,
        body: Value,
        key: String,
    },
    /// No request of the API shows the record on its own (a projection only filters).
    None,
}

/// Whether an edit is one the audit must name: everything but the few that no signed
/// record covers (docs/DURABILITY.md says why).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Reach {
    Covered,
    OutOfReach,
}

/// One edit: what is changed, on which record, and how it must show.
struct Case {
    name: String,
    /// The database table edited.
    db_table: &'static str,
    /// An id the finding's and the problem's row key must name.
    row_id: String,
    pg: String,
    sqlite: String,
    probe: Probe,
    reach: Reach,
}

/// What one edit came to.
#[derive(Debug)]
struct Outcome {
    audit_named: bool,
    api_named: bool,
}

fn table_of(t: &Table) -> String {
    t.id.clone()
}

/// A table of `seats` with hand 1 played to its end.
async fn played_table(app: &TestApp, admin: &str, seats: usize, rng: &mut Rng) -> Table {
    let table = create_table(app, admin, seats).await;
    let h = start_hand(app, admin, &table).await;
    let id = h["hand_id"].as_str().unwrap().to_string();
    play_to_end(app, admin, &id, &table.tokens, rng).await;
    table
}

/// A table dealt from a seed chain of `length` positions, with hand 1 played.
async fn chained_table(app: &TestApp, admin: &str, length: u32, rng: &mut Rng) -> Table {
    let t = app
        .post(
            "/v1/tables",
            Some(admin),
            json!({"game": "bist-o-yek",
                   "seats": [{"player": "Parisa"}, {"player": "O'Brien, Jr."}],
                   "client_entropy": false, "seed_chain": {"length": length}}),
        )
        .await;
    ok(&t, StatusCode::CREATED, "create a chained table");
    let table = Table {
        id: t.body["table_id"].as_str().unwrap().to_string(),
        tokens: t.body["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["token"].as_str().unwrap().to_string())
            .collect(),
    };
    let h = start_hand(app, admin, &table).await;
    assert_eq!(h["seed_chain"]["position"], 1, "{h}");
    let id = h["hand_id"].as_str().unwrap().to_string();
    play_to_end(app, admin, &id, &table.tokens, rng).await;
    table
}

/// Does a finding of the audit name this edit: its database table, the row's key (by an
/// id in it) and what was expected?
fn named_by_audit(problems: &[Value], c: &Case) -> Option<String> {
    let head = format!("{} row ", c.db_table);
    problems
        .iter()
        .filter_map(|p| p["detail"].as_str())
        .find(|d| d.starts_with(&head) && d.contains(&c.row_id) && d.contains(": expected "))
        .map(str::to_string)
        .or_else(|| {
            // A running hand's log is named by its hand and the check it fails.
            problems
                .iter()
                .find(|p| {
                    c.db_table == "events"
                        && p["hand"] == c.row_id.as_str()
                        && p["detail"]
                            .as_str()
                            .is_some_and(|d| d.contains("truncated"))
                })
                .map(|p| p.to_string())
        })
}

/// Does the answer name the edit: `409 record_damaged` naming the table and the row, or
/// `409 hand_damaged` for a hand's log?
fn named_by_api(r: &Res, c: &Case) -> bool {
    assert_ne!(
        r.status,
        StatusCode::INTERNAL_SERVER_ERROR,
        "{}: a bare 500: {}",
        c.name,
        r.text
    );
    if r.status != StatusCode::CONFLICT {
        return false;
    }
    match r.body["code"].as_str() {
        Some("record_damaged") => {
            let rec = &r.body["record"];
            rec["table"] == c.db_table
                && rec["row"].as_str().is_some_and(|k| k.contains(&c.row_id))
                && rec["expected"].as_str().is_some_and(|e| !e.is_empty())
        }
        Some("hand_damaged") => c.db_table == "events",
        _ => false,
    }
}

async fn probe(app: &TestApp, admin: &str, p: &Probe) -> Option<Res> {
    Some(match p {
        Probe::StartHand(t) => {
            app.post(&format!("/v1/tables/{t}/hands"), Some(admin), json!({}))
                .await
        }
        Probe::GetHand(h) => app.get(&format!("/v1/hands/{h}"), Some(admin)).await,
        Probe::GetDispute(d) => app.get(&format!("/v1/disputes/{d}"), Some(admin)).await,
        Probe::Retry { path, body, key } => {
            app.post_idem(path, Some(admin), body.clone(), key).await
        }
        Probe::None => return None,
    })
}

/// A dispute opened by the admin on `hand`, ruled `rejected` by `official`.
async fn ruled_dispute(
    app: &TestApp,
    club: &str,
    admin: &str,
    hand: &str,
    claim: &str,
    official: &SigningKeyPair,
) -> String {
    let d = app
        .post(
            &format!("/v1/hands/{hand}/disputes"),
            Some(admin),
            json!({"kind": "wrong_score", "claim": claim}),
        )
        .await;
    ok(&d, StatusCode::CREATED, "open a dispute");
    let id = d.body["dispute_id"].as_str().unwrap().to_string();
    let body = crate::disputes::ruling(
        club,
        &d.body,
        "rejected",
        None,
        "the settlement recomputed equals the recorded one",
        "Hamid Rezaei",
        official,
    );
    let r = app
        .post(&format!("/v1/disputes/{id}/rulings"), Some(admin), body)
        .await;
    ok(&r, StatusCode::CREATED, "rule on the dispute");
    id
}

fn hand_id(h: &Value) -> String {
    h["hand_id"].as_str().unwrap().to_string()
}

/// Every case of the club, set up over the API.
async fn setup(app: &TestApp, club: &str, admin: &str) -> Vec<Case> {
    let mut rng = Rng(0x2929_5eed_0bad_f00d);
    let mut cases = Vec::new();
    let mut case = |name: &str,
                    db_table: &'static str,
                    row_id: &str,
                    pg_sql: String,
                    sqlite_sql: String,
                    probe: Probe,
                    reach: Reach| {
        cases.push(Case {
            name: name.to_string(),
            db_table,
            row_id: row_id.to_string(),
            pg: pg_sql,
            sqlite: sqlite_sql,
            probe,
            reach,
        })
    };
    let same = |s: String| (s.clone(), s);

    // Tables: rules, seats and set-up edited after the table's first hand.
    let t = table_of(&played_table(app, admin, 2, &mut rng).await);
    case(
        "game_tables.rules (side_bets flipped)",
        "game_tables",
        &t,
        format!("UPDATE game_tables SET rules = jsonb_set(rules, '{{side_bets}}', to_jsonb(NOT (rules->>'side_bets')::boolean)) WHERE table_id = '{t}'"),
        format!("UPDATE game_tables SET rules = json_set(rules, '$.side_bets', json(CASE WHEN json_extract(rules, '$.side_bets') THEN 'false' ELSE 'true' END)) WHERE table_id = '{t}'"),
        Probe::StartHand(t.clone()),
        Reach::Covered,
    );
    let t = table_of(&played_table(app, admin, 3, &mut rng).await);
    case(
        "game_tables.rules (khabar_multiple + 1)",
        "game_tables",
        &t,
        format!("UPDATE game_tables SET rules = jsonb_set(rules, '{{khabar_multiple}}', to_jsonb((rules->>'khabar_multiple')::int + 1)) WHERE table_id = '{t}'"),
        format!("UPDATE game_tables SET rules = json_set(rules, '$.khabar_multiple', json_extract(rules, '$.khabar_multiple') + 1) WHERE table_id = '{t}'"),
        Probe::StartHand(t.clone()),
        Reach::Covered,
    );
    let t = table_of(&played_table(app, admin, 2, &mut rng).await);
    case(
        "game_tables.game",
        "game_tables",
        &t,
        format!("UPDATE game_tables SET game = 'hokm' WHERE table_id = '{t}'"),
        format!("UPDATE game_tables SET game = 'hokm' WHERE table_id = '{t}'"),
        Probe::StartHand(t.clone()),
        Reach::Covered,
    );
    let t = table_of(&played_table(app, admin, 2, &mut rng).await);
    case(
        "game_tables.setup (client_entropy off)",
        "game_tables",
        &t,
        format!("UPDATE game_tables SET setup = jsonb_set(setup, '{{client_entropy}}', 'false') WHERE table_id = '{t}'"),
        format!("UPDATE game_tables SET setup = json_set(setup, '$.client_entropy', json('false')) WHERE table_id = '{t}'"),
        Probe::StartHand(t.clone()),
        Reach::Covered,
    );
    let t = table_of(&played_table(app, admin, 3, &mut rng).await);
    let (a, b) = same(format!(
        "UPDATE seats SET player = 'Mallory «مهمان»' WHERE table_id = '{t}' AND seat = 1"
    ));
    case(
        "seats.player",
        "seats",
        &t,
        a,
        b,
        Probe::StartHand(t.clone()),
        Reach::Covered,
    );
    let t = table_of(&played_table(app, admin, 2, &mut rng).await);
    let key = SigningKeyPair::from_secret([0x17; 32]).public().to_hex();
    let (a, b) = same(format!(
        "UPDATE seats SET public_key = '{key}' WHERE table_id = '{t}' AND seat = 0"
    ));
    case(
        "seats.public_key",
        "seats",
        &t,
        a,
        b,
        Probe::StartHand(t.clone()),
        Reach::Covered,
    );
    // Before a table's first hand nothing signed names its rules: out of reach.
    let fresh = create_table(app, admin, 2).await;
    let t = fresh.id.clone();
    case(
        "game_tables.rules before the table's first hand",
        "game_tables",
        &t,
        format!("UPDATE game_tables SET rules = jsonb_set(rules, '{{side_bets}}', to_jsonb(NOT (rules->>'side_bets')::boolean)) WHERE table_id = '{t}'"),
        format!("UPDATE game_tables SET rules = json_set(rules, '$.side_bets', json(CASE WHEN json_extract(rules, '$.side_bets') THEN 'false' ELSE 'true' END)) WHERE table_id = '{t}'"),
        Probe::StartHand(t.clone()),
        Reach::OutOfReach,
    );

    // Seed chains: deleted, or any column edited, after the chain's first hand.
    let chain_edits: [(&str, String, String); 5] = [
        (
            "seed_chains row deleted",
            "DELETE FROM seed_chains WHERE table_id = '{t}'".into(),
            "DELETE FROM seed_chains WHERE table_id = '{t}'".into(),
        ),
        (
            "seed_chains.anchor",
            format!("UPDATE seed_chains SET anchor = '{}' WHERE table_id = '{{t}}'", "ab".repeat(32)),
            format!("UPDATE seed_chains SET anchor = '{}' WHERE table_id = '{{t}}'", "ab".repeat(32)),
        ),
        (
            "seed_chains.sealed (one byte)",
            "UPDATE seed_chains SET sealed = set_byte(sealed, 30, get_byte(sealed, 30) # 1) WHERE table_id = '{t}'".into(),
            "UPDATE seed_chains SET sealed = randomblob(length(sealed)) WHERE table_id = '{t}'".into(),
        ),
        (
            "seed_chains.length",
            "UPDATE seed_chains SET length = 3 WHERE table_id = '{t}'".into(),
            "UPDATE seed_chains SET length = 3 WHERE table_id = '{t}'".into(),
        ),
        (
            "seed_chains.first_hand_no",
            "UPDATE seed_chains SET first_hand_no = 2 WHERE table_id = '{t}'".into(),
            "UPDATE seed_chains SET first_hand_no = 2 WHERE table_id = '{t}'".into(),
        ),
    ];
    for (name, p, s) in chain_edits {
        let t = table_of(&chained_table(app, admin, 4, &mut rng).await);
        case(
            name,
            "seed_chains",
            &t,
            p.replace("{t}", &t),
            s.replace("{t}", &t),
            Probe::StartHand(t.clone()),
            Reach::Covered,
        );
    }

    // Finished hands: their row and their hand_players rows.
    let table = create_table(app, admin, 3).await;
    let mut hands = Vec::new();
    for _ in 0..4 {
        let h = hand_id(&start_hand(app, admin, &table).await);
        play_to_end(app, admin, &h, &table.tokens, &mut rng).await;
        hands.push(h);
    }
    let h = &hands[0];
    case(
        "hands.players",
        "hands",
        h,
        format!(
            "UPDATE hands SET players = ARRAY['Mallory', 'Shirin', 'Babak'] WHERE hand_id = '{h}'"
        ),
        format!(
            "UPDATE hands SET players = '[\"Mallory\",\"Shirin\",\"Babak\"]' WHERE hand_id = '{h}'"
        ),
        Probe::GetHand(h.clone()),
        Reach::Covered,
    );
    let h = &hands[1];
    let (a, b) = same(format!(
        "UPDATE hands SET started_ms = started_ms - 86400000 WHERE hand_id = '{h}'"
    ));
    case(
        "hands.started_ms",
        "hands",
        h,
        a,
        b,
        Probe::GetHand(h.clone()),
        Reach::Covered,
    );
    let h = &hands[2];
    let (a, b) = same(format!(
        "UPDATE hand_players SET player = 'Mallory' WHERE hand_id = '{h}' AND seat = 0"
    ));
    case(
        "hand_players.player",
        "hand_players",
        h,
        a,
        b,
        Probe::None,
        Reach::Covered,
    );
    let h = &hands[3];
    let (a, b) = same(format!(
        "DELETE FROM hand_players WHERE hand_id = '{h}' AND seat = 2"
    ));
    case(
        "hand_players row deleted",
        "hand_players",
        h,
        a,
        b,
        Probe::None,
        Reach::Covered,
    );

    // Disputes, each with a signed ruling.
    let official = SigningKeyPair::from_secret([0x5a; 32]);
    let reg = app
        .post(
            "/v1/officials",
            Some(admin),
            json!({"name": "Hamid Rezaei", "public_key": official.public().to_hex()}),
        )
        .await;
    ok(&reg, StatusCode::CREATED, "register an official");
    let dt = create_table(app, admin, 2).await;
    let dh = hand_id(&start_hand(app, admin, &dt).await);
    play_to_end(app, admin, &dh, &dt.tokens, &mut rng).await;
    let other = hands[0].clone();
    let dispute_edits: Vec<(&str, &'static str, &str, Reach)> = vec![
        ("disputes.status", "disputes", "UPDATE disputes SET status = 'upheld' WHERE dispute_id = '{d}'", Reach::Covered),
        ("disputes.claim", "disputes", "UPDATE disputes SET claim = 'the banker paid me short, says the edited row' WHERE dispute_id = '{d}'", Reach::Covered),
        ("disputes.hand_id", "disputes", "UPDATE disputes SET hand_id = '{other}' WHERE dispute_id = '{d}'", Reach::Covered),
        ("disputes.kind", "disputes", "UPDATE disputes SET kind = 'unfair_deal' WHERE dispute_id = '{d}'", Reach::Covered),
        ("disputes.event", "disputes", "UPDATE disputes SET event = 0 WHERE dispute_id = '{d}'", Reach::Covered),
        ("disputes.opened_by", "disputes", "UPDATE disputes SET opened_by = 'ak_mallory' WHERE dispute_id = '{d}'", Reach::Covered),
        ("disputes.updated_ms", "disputes", "UPDATE disputes SET updated_ms = updated_ms + 1000 WHERE dispute_id = '{d}'", Reach::Covered),
        ("disputes.entries and head", "disputes", "UPDATE disputes SET entries = 1, head = (SELECT hash FROM dispute_entries WHERE dispute_id = '{d}' AND seq = 0) WHERE dispute_id = '{d}'", Reach::Covered),
        ("dispute_entries ruling deleted", "dispute_entries", "DELETE FROM dispute_entries WHERE dispute_id = '{d}' AND seq = 1", Reach::Covered),
        ("dispute_entries ruling deleted, row rolled back", "disputes", "DELETE FROM dispute_entries WHERE dispute_id = '{d}' AND seq = 1; UPDATE disputes SET entries = 1, status = 'open', updated_ms = opened_ms, head = (SELECT hash FROM dispute_entries WHERE dispute_id = '{d}' AND seq = 0) WHERE dispute_id = '{d}'", Reach::OutOfReach),
        ("dispute deleted", "disputes", "DELETE FROM dispute_entries WHERE dispute_id = '{d}'; DELETE FROM disputes WHERE dispute_id = '{d}'", Reach::OutOfReach),
    ];
    for (i, (name, db_table, sql, reach)) in dispute_edits.into_iter().enumerate() {
        let claim = format!("ادعای شماره {i}: the score of hand 1 is wrong (\"{name}\")");
        let d = ruled_dispute(app, club, admin, &dh, &claim, &official).await;
        let sql = sql.replace("{d}", &d).replace("{other}", &other);
        case(
            name,
            db_table,
            &d,
            sql.clone(),
            sql,
            Probe::GetDispute(d.clone()),
            reach,
        );
    }

    // Idempotency records: a recorded response swapped in from another row, a request
    // fingerprint, a status, a response no longer sealed.
    let mut recorded = BTreeMap::new();
    for (i, key) in [
        "idem-swap-a",
        "idem-swap-b",
        "idem-hash",
        "idem-status",
        "idem-unsealed",
    ]
    .iter()
    .enumerate()
    {
        let body = json!({"game": "bist-o-yek",
                          "seats": [{"player": format!("Ali {i}")}, {"player": "Sara"}]});
        let r = app
            .post_idem("/v1/tables", Some(admin), body.clone(), key)
            .await;
        ok(
            &r,
            StatusCode::CREATED,
            "create a table under an Idempotency-Key",
        );
        let again = app
            .post_idem("/v1/tables", Some(admin), body.clone(), key)
            .await;
        ok(&again, StatusCode::CREATED, "the same request replayed");
        assert_eq!(again.body, r.body, "a replay answers as recorded");
        recorded.insert(*key, body);
    }
    let idem = |key: &str| Probe::Retry {
        path: "/v1/tables".into(),
        body: recorded[key].clone(),
        key: key.into(),
    };
    let (a, b) = same("UPDATE idempotency_keys SET response = (SELECT response FROM idempotency_keys WHERE key LIKE '%:idem-swap-b') WHERE key LIKE '%:idem-swap-a'".into());
    case(
        "idempotency_keys.response swapped in from another row",
        "idempotency_keys",
        ":idem-swap-a",
        a,
        b,
        idem("idem-swap-a"),
        Reach::Covered,
    );
    let (a, b) = same(format!(
        "UPDATE idempotency_keys SET request_hash = '{}' WHERE key LIKE '%:idem-hash'",
        "a".repeat(64)
    ));
    case(
        "idempotency_keys.request_hash",
        "idempotency_keys",
        ":idem-hash",
        a,
        b,
        idem("idem-hash"),
        Reach::Covered,
    );
    let (a, b) =
        same("UPDATE idempotency_keys SET status = 200 WHERE key LIKE '%:idem-status'".into());
    case(
        "idempotency_keys.status",
        "idempotency_keys",
        ":idem-status",
        a,
        b,
        idem("idem-status"),
        Reach::Covered,
    );
    case(
        "idempotency_keys.response not sealed",
        "idempotency_keys",
        ":idem-unsealed",
        "UPDATE idempotency_keys SET response = '{\"sealed\": \"00\"}'::jsonb WHERE key LIKE '%:idem-unsealed'".into(),
        "UPDATE idempotency_keys SET response = '{\"sealed\":\"00\"}' WHERE key LIKE '%:idem-unsealed'".into(),
        idem("idem-unsealed"),
        Reach::Covered,
    );
    cases
}

/// Prints the figures of a run, as docs/DURABILITY.md quotes them.
fn figures(store: &str, cases: &[Case], outcomes: &[Outcome]) {
    let tried = cases.len();
    let audit = outcomes.iter().filter(|o| o.audit_named).count();
    let probed = cases
        .iter()
        .filter(|c| !matches!(c.probe, Probe::None))
        .count();
    let api = outcomes.iter().filter(|o| o.api_named).count();
    let silent = outcomes
        .iter()
        .filter(|o| !o.audit_named && !o.api_named)
        .count();
    eprintln!(
        "TAMPER FIGURES {store}: {tried} edits tried, {audit} named by the audit, {api} of \
         {probed} probed refused by the API with a named problem, {silent} silent"
    );
    for (c, o) in cases.iter().zip(outcomes) {
        eprintln!(
            "TAMPER {store} {:<55} audit {:<5} api {:<5} {:?}",
            c.name, o.audit_named, o.api_named, c.reach
        );
    }
}

async fn records_suite(env: Env) {
    let app = TestApp::spawn(&env).await;
    let (club, admin) = app.create_club("Tabriz «تبریز»");
    let store = if env.db_url.is_some() {
        "pg"
    } else {
        "embedded"
    };
    let cases = setup(&app, &club, &admin).await;
    let (code, before) = audit_json(&env, &club);
    assert_eq!(code, 0, "the club audits clean before any edit: {before}");

    for c in &cases {
        as_superuser(&env, &app, &c.pg, &c.sqlite).await;
    }
    let (code, after) = audit_json(&env, &club);
    let problems = after["problems"].as_array().cloned().unwrap_or_default();
    assert_eq!(code, 1, "the audit finds the edits: {after}");

    let mut outcomes = Vec::new();
    for c in &cases {
        let finding = named_by_audit(&problems, c);
        let api = match probe(&app, &admin, &c.probe).await {
            Some(r) => {
                let named = named_by_api(&r, c);
                if c.reach == Reach::Covered {
                    assert!(
                        named,
                        "{}: the API must answer a named problem for the edited record, got {} {}",
                        c.name, r.status, r.text
                    );
                }
                named
            }
            None => false,
        };
        if c.reach == Reach::Covered {
            assert!(
                finding.is_some(),
                "{}: the audit must name {} row {}: {}",
                c.name,
                c.db_table,
                c.row_id,
                serde_json::to_string_pretty(&problems).unwrap()
            );
        }
        outcomes.push(Outcome {
            audit_named: finding.is_some(),
            api_named: api,
        });
    }
    // The dispute list shows no edited row as fact.
    let list = app.get("/v1/disputes", Some(&admin)).await;
    assert_eq!(list.status, StatusCode::CONFLICT, "{}", list.text);
    assert_eq!(list.body["code"], "record_damaged", "{}", list.text);
    figures(store, &cases, &outcomes);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_every_edited_record_is_named() {
    run(Store::Pg, records_suite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn embedded_every_edited_record_is_named() {
    run(Store::Embedded, records_suite).await;
}

/// Issue 29, point 5: a running hand whose last event is deleted while the service is
/// down does not play on from the event before: it is `409 hand_damaged` (rule
/// `truncated`, at the first missing event), and the audit names it.
async fn rolled_back(env: Env) {
    let mut app = TestApp::spawn(&env).await;
    let (club, admin) = app.create_club("Rasht");
    let table = create_table(&app, &admin, 3).await;
    let hand = hand_id(&start_hand(&app, &admin, &table).await);
    let mut rng = Rng(0x0dd_ba11);
    for _ in 0..4 {
        assert!(
            step(&app, &admin, &hand, &table.tokens, &mut rng)
                .await
                .is_none(),
            "the hand runs on"
        );
    }
    let h = app.get(&format!("/v1/hands/{hand}"), Some(&admin)).await;
    ok(&h, StatusCode::OK, "the running hand");
    let next = h.body["next_seq"].as_u64().unwrap();
    // Wait until the club's log has ordered every event of the hand (PostgreSQL orders
    // them in the background).
    if env.db_url.is_some() {
        let db = env.pg().await;
        for _ in 0..200 {
            let ordered: i64 = db
                .query_one(
                    "SELECT COALESCE(max(seq) + 1, 0) FROM club_log WHERE hand_id = $1",
                    &[&hand],
                )
                .await
                .unwrap()
                .get(0);
            if u64::try_from(ordered).unwrap() == next {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
    }
    let (code, v) = audit_json(&env, &club);
    assert_eq!(code, 0, "clean before: {v}");
    app.terminate().await;
    let last = next - 1;
    let sql = format!("DELETE FROM events WHERE hand_id = '{hand}' AND seq = {last}");
    as_superuser(&env, &app, &sql, &sql).await;
    let app = TestApp::spawn(&env).await;
    for path in [
        format!("/v1/hands/{hand}"),
        format!("/v1/hands/{hand}/legal-actions"),
    ] {
        let r = app.get(&path, Some(&admin)).await;
        assert_eq!(r.status, StatusCode::CONFLICT, "{path}: {}", r.text);
        assert_eq!(r.body["code"], "hand_damaged", "{path}: {}", r.text);
        assert_eq!(r.body["rule"], "truncated", "{path}: {}", r.text);
        assert_eq!(r.body["seq"], last, "{path}: {}", r.text);
    }
    let (code, v) = audit_json(&env, &club);
    assert_eq!(code, 1, "{v}");
    let named = v["problems"].as_array().unwrap().iter().any(|p| {
        p["hand"] == hand.as_str()
            && p["detail"]
                .as_str()
                .is_some_and(|d| d.contains(&format!("event {last}: truncated")))
    });
    assert!(named, "the audit names the rolled-back hand: {v}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_a_rolled_back_running_hand_is_damaged() {
    run(Store::Pg, rolled_back).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn embedded_a_rolled_back_running_hand_is_damaged() {
    run(Store::Embedded, rolled_back).await;
}
