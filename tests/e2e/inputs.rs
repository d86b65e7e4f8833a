//! A hand's secrets across restarts and the seams between hands: a Bluff hand goes on
//! after the service is killed and started again, and across two processes; the sealed
//! rows of `hand_secrets` and `hand_inputs` hold nothing in the clear; starting a hand
//! after a previous hand whose signed end is missing or altered is `409 match_broken`; a
//! seat the pending shuffle does not ask gives no client seed (`409 not_asked`); an
//! abandoned Hokm hand is void (spec hokm §12.1): the next hand starts from the match
//! state the abandoned one started from.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::games::{create_game_table, game_step, play_game_to_end, Game};
use crate::harness::{ok, problem, replayer, run, verify_bundle, write_temp, Env, Store, TestApp};
use crate::play::{add_entropy, create_table, legal, play_to_end, start_hand, Rng, Table};

/// The kinds of a hand's events so far, in seq order.
async fn kinds(app: &TestApp, admin: &str, hand: &str) -> Vec<String> {
    let ev = app
        .get(&format!("/v1/hands/{hand}/events?limit=1000"), Some(admin))
        .await;
    ok(&ev, StatusCode::OK, "events");
    ev.body["events"]
        .as_array()
        .expect("events")
        .iter()
        .map(|r| {
            r["event"]["body"]["type"]
                .as_str()
                .expect("type")
                .to_string()
        })
        .collect()
}

/// Plays a Bluff hand on until it has `plays` more plays (actions) than it had, and at
/// least one committed shuffle after the deal (a relabel: a taker's hand holds cards
/// again whose faces only he may see): the hand is still running.
async fn play_on(
    app: &TestApp,
    admin: &str,
    hand: &str,
    table: &Table,
    plays: usize,
    rng: &mut Rng,
) {
    let count = |k: &[String], t: &str| k.iter().filter(|x| *x == t).count();
    let k = kinds(app, admin, hand).await;
    let want = count(&k, "action") + plays;
    for _ in 0..2000 {
        let k = kinds(app, admin, hand).await;
        if count(&k, "action") >= want && count(&k, "shuffled") >= 2 {
            return;
        }
        if let Some(h) = game_step(app, admin, hand, &table.tokens, Game::Bluff, rng).await {
            panic!("the hand ended before {plays} more plays and a relabel: {h}");
        }
    }
    panic!("no {plays} more plays");
}

/// A Bluff table of four with a hand started: (table, hand id).
async fn bluff_hand(app: &TestApp, admin: &str) -> (Table, String) {
    let (table, _) = create_game_table(app, admin, Game::Bluff, 4, json!({})).await;
    let h = start_hand(app, admin, &table).await;
    (table, h["hand_id"].as_str().unwrap().to_string())
}

/// The last event of a finished hand's bundle: its reveal.
fn reveal(bundle: &Value) -> &Value {
    let records = bundle["records"].as_array().expect("records");
    let last = &records[records.len() - 1]["event"]["body"];
    assert_eq!(last["type"], "seeds_revealed", "{last}");
    last
}

/// The seqs of a bundle's `private_action` events, and those its reveal opens.
fn private_and_opened(bundle: &Value) -> (Vec<u64>, Vec<u64>) {
    let private = bundle["records"]
        .as_array()
        .expect("records")
        .iter()
        .filter(|r| r["event"]["body"]["type"] == "private_action")
        .map(|r| r["event"]["seq"].as_u64().expect("seq"))
        .collect();
    let opened = reveal(bundle)["inputs"]
        .as_array()
        .map(|a| a.iter().map(|i| i["seq"].as_u64().expect("seq")).collect())
        .unwrap_or_default();
    (private, opened)
}

/// Scenario: a Bluff hand is played partway (seats holding cards whose faces only they
/// may see, some of them relabelled from a committed shuffle), the service is killed (no
/// graceful stop) and started again on the same store. The hand reads back the same,
/// goes on, is moved on by a second process while the first holds it in memory, ends,
/// and its bundle verifies; the reveal opens every private action the hand had (Bluff's
/// face-down plays name their cards by committed positions in public `action` events,
/// so today it has none: the sealed openings of private actions are exercised by the
/// service's own tests, on the toy engine).
async fn bluff_hand_goes_on_after_a_restart(env: Env) {
    let app = TestApp::spawn(&env).await;
    let (_, admin) = app.create_club("Qazvin");
    let (table, hand) = bluff_hand(&app, &admin).await;
    let mut rng = Rng(0x1f83_d9ab_fb41_bd6b);
    play_on(&app, &admin, &hand, &table, 8, &mut rng).await;
    let seen = app.get(&format!("/v1/hands/{hand}"), Some(&admin)).await;
    ok(&seen, StatusCode::OK, "the hand before the restart");
    let mine = app
        .get(&format!("/v1/hands/{hand}"), Some(&table.tokens[0]))
        .await;
    ok(&mine, StatusCode::OK, "seat 0's hand before the restart");
    drop(app);

    let app = TestApp::spawn(&env).await;
    let again = app.get(&format!("/v1/hands/{hand}"), Some(&admin)).await;
    ok(&again, StatusCode::OK, "the hand after the restart");
    assert_eq!(again.body["status"], "in_progress", "{}", again.text);
    assert_eq!(again.body["next_seq"], seen.body["next_seq"]);
    assert_eq!(
        again.body["view"], seen.body["view"],
        "the same table as before"
    );
    let mine_again = app
        .get(&format!("/v1/hands/{hand}"), Some(&table.tokens[0]))
        .await;
    ok(
        &mine_again,
        StatusCode::OK,
        "seat 0's hand after the restart",
    );
    assert_eq!(
        mine_again.body["view"], mine.body["view"],
        "seat 0 sees the faces it saw"
    );
    // A few more plays here, then a second process moves the hand on while this one
    // holds it in memory, then this one again.
    play_on(&app, &admin, &hand, &table, 3, &mut rng).await;
    let other = TestApp::spawn(&env).await;
    play_on(&other, &admin, &hand, &table, 3, &mut rng).await;
    drop(other);
    let done = play_game_to_end(&app, &admin, &hand, &table.tokens, Game::Bluff, &mut rng).await;
    assert_eq!(done["status"], "completed", "{done}");

    let bundle = verify_bundle(&app, &admin, &hand).await;
    let (private, opened) = private_and_opened(&bundle);
    assert_eq!(opened, private, "the reveal opens every private action");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_bluff_hand_goes_on_after_a_restart() {
    run(Store::Pg, bluff_hand_goes_on_after_a_restart).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn embedded_bluff_hand_goes_on_after_a_restart() {
    run(Store::Embedded, bluff_hand_goes_on_after_a_restart).await;
}

/// The rows of a sealed-secrets table (`hand_secrets` by shuffle, `hand_inputs` by seq)
/// of a hand, read behind the service's back: (shuffle or seq, sealed bytes).
async fn sealed_rows(env: &Env, app: &TestApp, table: &str, hand: &str) -> Vec<(i64, Vec<u8>)> {
    let key = if table == "hand_secrets" {
        "shuffle"
    } else {
        "seq"
    };
    let sql = format!("SELECT {key}, sealed FROM {table} WHERE hand_id = $1 ORDER BY {key}");
    if env.db_url.is_some() {
        let db = env.pg().await;
        return db
            .query(&sql, &[&hand])
            .await
            .unwrap_or_else(|e| panic!("read {table}: {e}"))
            .iter()
            .map(|r| {
                let k: i64 = if key == "shuffle" {
                    i64::from(r.get::<_, i32>(0))
                } else {
                    r.get(0)
                };
                (k, r.get(1))
            })
            .collect();
    }
    let path = app.data_dir.join("dealer.db");
    let (hand, sql) = (hand.to_string(), sql.replace("$1", "?1"));
    tokio::task::spawn_blocking(move || {
        let db = rusqlite::Connection::open(&path).expect("open dealer.db");
        db.busy_timeout(std::time::Duration::from_secs(10)).unwrap();
        let mut stmt = db.prepare(&sql).expect("read the table");
        let rows = stmt
            .query_map([&hand], |r| Ok((r.get(0)?, r.get(1)?)))
            .expect("read the table");
        rows.map(|r| r.expect("a row")).collect()
    })
    .await
    .expect("sqlite read")
}

/// Every string in a JSON value, quoted as canonical JSON writes it.
fn quoted_strings(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => out.push(serde_json::to_string(s).unwrap()),
        Value::Array(a) => a.iter().for_each(|x| quoted_strings(x, out)),
        Value::Object(o) => o.values().for_each(|x| quoted_strings(x, out)),
        _ => {}
    }
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    !needle.is_empty() && hay.windows(needle.len()).any(|w| w == needle)
}

/// Scenario: the hand's secrets at rest, read from the database itself. While a Bluff
/// hand runs, `hand_secrets` holds one sealed row per committed shuffle and
/// `hand_inputs` one per private action (none in Bluff today). Once the hand is over and
/// its reveal has made them public, no row holds any of them in the clear: no server
/// seed (hex or bytes), no opening's action, card or salt; and the rows written while the
/// hand ran are kept as they were.
async fn sealed_rows_hold_no_plaintext(env: Env) {
    let app = TestApp::spawn(&env).await;
    let (_, admin) = app.create_club("Sari");
    let (table, hand) = bluff_hand(&app, &admin).await;
    let mut rng = Rng(0x5be0_cd19_137e_2179);
    play_on(&app, &admin, &hand, &table, 8, &mut rng).await;
    let k = kinds(&app, &admin, &hand).await;
    // Shuffle 0 is committed in hand_started, every later one in shuffle_committed.
    let committed = k.iter().filter(|x| *x == "shuffle_committed").count() + 1;
    let secrets_running = sealed_rows(&env, &app, "hand_secrets", &hand).await;
    let inputs_running = sealed_rows(&env, &app, "hand_inputs", &hand).await;
    assert_eq!(
        secrets_running.len(),
        committed,
        "one sealed seed per committed shuffle: {k:?}"
    );
    assert_eq!(
        inputs_running.len(),
        k.iter().filter(|x| *x == "private_action").count(),
        "one sealed opening per private action"
    );
    let done = play_game_to_end(&app, &admin, &hand, &table.tokens, Game::Bluff, &mut rng).await;
    assert_eq!(done["status"], "completed", "{done}");
    let bundle = verify_bundle(&app, &admin, &hand).await;
    let secrets = sealed_rows(&env, &app, "hand_secrets", &hand).await;
    let inputs = sealed_rows(&env, &app, "hand_inputs", &hand).await;
    assert!(secrets.starts_with(&secrets_running) && inputs.starts_with(&inputs_running));

    let r = reveal(&bundle);
    let seeds: Vec<&str> = r["seeds"]
        .as_array()
        .expect("seeds")
        .iter()
        .map(|s| s["server_seed"].as_str().expect("server_seed"))
        .collect();
    assert_eq!(
        secrets.len(),
        seeds.len(),
        "one sealed row per revealed seed"
    );
    let mut needles: Vec<Vec<u8>> = Vec::new();
    for s in &seeds {
        needles.push(s.as_bytes().to_vec());
        needles.push(hex::decode(s).expect("seed hex"));
    }
    let openings = r["inputs"].as_array().cloned().unwrap_or_default();
    assert_eq!(inputs.len(), openings.len(), "one sealed row per opening");
    for o in &openings {
        let salt = o["salt"].as_str().expect("salt");
        needles.push(salt.as_bytes().to_vec());
        needles.push(hex::decode(salt).expect("salt hex"));
        needles.push(serde_json::to_vec(&o["action"]).unwrap());
        let mut strings = Vec::new();
        quoted_strings(&o["action"], &mut strings);
        needles.extend(strings.into_iter().map(String::into_bytes));
    }
    for (what, rows) in [("hand_secrets", &secrets), ("hand_inputs", &inputs)] {
        for (k, sealed) in rows {
            for n in &needles {
                assert!(
                    !contains(sealed, n),
                    "{what} row {k} holds {:?} in the clear",
                    String::from_utf8_lossy(n)
                );
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_sealed_rows_hold_no_plaintext() {
    run(Store::Pg, sealed_rows_hold_no_plaintext).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn embedded_sealed_rows_hold_no_plaintext() {
    run(Store::Embedded, sealed_rows_hold_no_plaintext).await;
}

/// Runs SQL on the test's store behind the service's back: the append-only triggers of
/// `events` are set aside for it (as only the database's owner could).
async fn edit_events(env: &Env, app: &TestApp, pg: &str, sqlite: &str) {
    if env.db_url.is_some() {
        let db = env.pg().await;
        db.batch_execute(&format!(
            "ALTER TABLE events DISABLE TRIGGER USER; {pg}; ALTER TABLE events ENABLE TRIGGER USER"
        ))
        .await
        .expect("edit events");
        return;
    }
    let path = app.data_dir.join("dealer.db");
    let sql = format!(
        "DROP TRIGGER IF EXISTS events_no_update; DROP TRIGGER IF EXISTS events_no_delete; {sqlite};"
    );
    tokio::task::spawn_blocking(move || {
        let db = rusqlite::Connection::open(&path).expect("open dealer.db");
        db.busy_timeout(std::time::Duration::from_secs(10)).unwrap();
        db.execute_batch(&sql).expect("edit events");
    })
    .await
    .expect("sqlite edit");
}

/// Starting the table's next hand is `409 match_broken`, and starts nothing.
async fn refused_as_broken(app: &TestApp, admin: &str, table: &Table, what: &str) {
    let r = app
        .post(
            &format!("/v1/tables/{}/hands", table.id),
            Some(admin),
            json!({}),
        )
        .await;
    problem(&r, StatusCode::CONFLICT, "match_broken");
    assert!(
        r.body["detail"].as_str().is_some_and(|d| d.contains(what)),
        "{}",
        r.text
    );
    let hands = app
        .get(&format!("/v1/hands?table_id={}", table.id), Some(admin))
        .await;
    ok(&hands, StatusCode::OK, "history");
    assert_eq!(
        hands.body["hands"].as_array().map(Vec::len),
        Some(1),
        "no hand started: {}",
        hands.text
    );
}

/// Scenario: the previous hand's signed end is altered, then missing. Hand 1 is played
/// to its end; its last event (the reveal) is edited in the database (its hash no longer
/// holds), and hand 2 is refused; then the reveal is deleted (the hand now ends in
/// `hand_ended`, not a sealed reveal), and hand 2 is refused again.
async fn match_broken_without_a_sealed_end(env: Env) {
    let app = TestApp::spawn(&env).await;
    let (_, admin) = app.create_club("Zanjan");
    let table = create_table(&app, &admin, 3).await;
    let h = start_hand(&app, &admin, &table).await;
    let hand = h["hand_id"].as_str().unwrap().to_string();
    let mut rng = Rng(0x9b05_688c_2b3e_6c1f);
    play_to_end(&app, &admin, &hand, &table.tokens, &mut rng).await;
    let bundle = verify_bundle(&app, &admin, &hand).await;
    let records = bundle["records"].as_array().unwrap();
    let last = records.len() - 1;
    assert_eq!(records[last]["event"]["body"]["type"], "seeds_revealed");

    edit_events(
        &env,
        &app,
        &format!(
            "UPDATE events SET record = jsonb_set(record, '{{event,time_ms}}', '1') \
             WHERE hand_id = '{hand}' AND seq = {last}"
        ),
        &format!(
            "UPDATE events SET record = json_set(record, '$.event.time_ms', 1) \
             WHERE hand_id = '{hand}' AND seq = {last}"
        ),
    )
    .await;
    refused_as_broken(&app, &admin, &table, "does not end in a sealed reveal").await;

    let delete = format!("DELETE FROM events WHERE hand_id = '{hand}' AND seq = {last}");
    edit_events(&env, &app, &delete, &delete).await;
    refused_as_broken(&app, &admin, &table, "does not end in a sealed reveal").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_match_broken_without_a_sealed_end() {
    run(Store::Pg, match_broken_without_a_sealed_end).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn embedded_match_broken_without_a_sealed_end() {
    run(Store::Embedded, match_broken_without_a_sealed_end).await;
}

/// The hand as the admin sees it.
async fn hand_body(app: &TestApp, admin: &str, hand: &str) -> Value {
    let h = app.get(&format!("/v1/hands/{hand}"), Some(admin)).await;
    ok(&h, StatusCode::OK, "get hand");
    h.body
}

/// Scenario: a seat out of play is not asked for a client seed. Bluff seats play as
/// many cards as they may and never challenge until a seat has gone out; then the next
/// seat that may challenge does, the pile is taken up, and the taker's hand waits for
/// its relabel shuffle, which asks only the seats still holding cards. The seat that is
/// out gets `409 not_asked` and writes nothing; the seats asked give theirs, and the
/// hand plays on to a verified end.
async fn not_asked_when_out_of_play(env: Env) {
    let app = TestApp::spawn(&env).await;
    let (_, admin) = app.create_club("Ardabil");
    let (table, hand) = bluff_hand(&app, &admin).await;
    let mut rng = Rng(0x6a09_e667_bb67_ae85);
    let mut refused = false;
    for _ in 0..400 {
        let h = hand_body(&app, &admin, &hand).await;
        assert_eq!(
            h["status"], "in_progress",
            "a relabel after a seat went out: {h}"
        );
        let view = &h["view"];
        let out: Vec<usize> = view["out_order"]
            .as_array()
            .expect("out_order")
            .iter()
            .map(|s| s.as_u64().unwrap() as usize)
            .collect();
        let pending = &h["to_act"]["shuffle_pending"];
        if !pending.is_null() {
            if pending["reason"] == "relabel" && !out.is_empty() {
                let seq = h["next_seq"].clone();
                for &seat in &out {
                    let r = app
                        .post(
                            &format!("/v1/hands/{hand}/entropy"),
                            Some(&table.tokens[seat]),
                            json!({"seed": crate::harness::random_hex(16)}),
                        )
                        .await;
                    problem(&r, StatusCode::CONFLICT, "not_asked");
                }
                let after = hand_body(&app, &admin, &hand).await;
                assert_eq!(after["next_seq"], seq, "a refused seed writes nothing");
                refused = true;
                break;
            }
            add_entropy(&app, &admin, &hand, &table.tokens).await;
            continue;
        }
        let seat = h["to_act"]["actors"][0]["seat"]
            .as_u64()
            .unwrap_or_else(|| panic!("a seat to act: {h}")) as usize;
        let (seq, actions) = legal(&app, &hand, &table.tokens[seat]).await;
        let of = |t: &str| actions.iter().find(|a| a["type"] == t);
        let action = if let (Some(c), false) = (of("challenge"), out.is_empty()) {
            c.clone()
        } else if let Some(l) = of("lead") {
            let max = l["max"].as_u64().unwrap() as usize;
            let cards: Vec<Value> = l["cards"]
                .as_array()
                .unwrap()
                .iter()
                .take(max)
                .cloned()
                .collect();
            json!({"type": "lead", "rank": l["ranks"][0], "cards": cards})
        } else if let Some(f) = of("follow") {
            let max = f["max"].as_u64().unwrap() as usize;
            let cards: Vec<Value> = f["cards"]
                .as_array()
                .unwrap()
                .iter()
                .take(max)
                .cloned()
                .collect();
            json!({"type": "follow", "cards": cards})
        } else {
            of("no_challenge")
                .cloned()
                .unwrap_or_else(|| panic!("seat {seat}: {actions:?}"))
        };
        let r = app
            .post(
                &format!("/v1/hands/{hand}/actions"),
                Some(&table.tokens[seat]),
                json!({"action": action, "expected_seq": seq}),
            )
            .await;
        ok(&r, StatusCode::OK, &format!("seat {seat}: {action}"));
    }
    assert!(refused, "no relabel shuffle came after a seat went out");
    add_entropy(&app, &admin, &hand, &table.tokens).await;
    let done = play_game_to_end(&app, &admin, &hand, &table.tokens, Game::Bluff, &mut rng).await;
    assert_eq!(done["status"], "completed", "{done}");
    verify_bundle(&app, &admin, &hand).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_not_asked_when_out_of_play() {
    run(Store::Pg, not_asked_when_out_of_play).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn embedded_not_asked_when_out_of_play() {
    run(Store::Embedded, not_asked_when_out_of_play).await;
}

/// Scenario: an abandoned Hokm hand is void (spec hokm §12.1: redealt, same hakem,
/// nobody penalised). Hand 1 is played to its end; hand 2 starts from its end, is played
/// a few steps and abandoned by the admin; hand 3 starts from the very match state hand
/// 2 started from (scores, hakem and all), names hand 2 as its predecessor, and once it
/// is over the match file of the three verifies.
async fn abandoned_hokm_hand_is_void(env: Env) {
    let app = TestApp::spawn(&env).await;
    let (_, admin) = app.create_club("Kerman");
    let (table, _) = create_game_table(&app, &admin, Game::Hokm, 4, json!({})).await;
    let mut rng = Rng(0x510e_527f_9b05_688c);

    let h1 = start_hand(&app, &admin, &table).await;
    let hand1 = h1["hand_id"].as_str().unwrap().to_string();
    let done = play_game_to_end(&app, &admin, &hand1, &table.tokens, Game::Hokm, &mut rng).await;
    assert_eq!(done["status"], "completed", "{done}");

    let h2 = start_hand(&app, &admin, &table).await;
    let hand2 = h2["hand_id"].as_str().unwrap().to_string();
    let started2 = h2["events"][0]["event"]["body"]["match_state"].clone();
    assert!(
        started2["hakem"].is_u64(),
        "hand 1 chose a hakem: {started2}"
    );
    for _ in 0..6 {
        if let Some(h) = game_step(&app, &admin, &hand2, &table.tokens, Game::Hokm, &mut rng).await
        {
            panic!("hand 2 ended within six steps: {h}");
        }
    }
    let ab = app
        .post(
            &format!("/v1/hands/{hand2}/abandon"),
            Some(&admin),
            json!({"reason": "the platform misdealt"}),
        )
        .await;
    ok(&ab, StatusCode::OK, "abandon");
    assert_eq!(ab.body["status"], "abandoned", "{}", ab.text);
    let bundle2 = verify_bundle(&app, &admin, &hand2).await;
    let records2 = bundle2["records"].as_array().unwrap();
    let last2 = records2[records2.len() - 1]["hash"].clone();

    let t = app
        .get(&format!("/v1/tables/{}", table.id), Some(&admin))
        .await;
    ok(&t, StatusCode::OK, "table");
    assert_eq!(
        t.body["match_state"], started2,
        "the void hand left the match state alone"
    );

    let h3 = start_hand(&app, &admin, &table).await;
    let hand3 = h3["hand_id"].as_str().unwrap().to_string();
    assert_eq!(h3["hand_no"], 3);
    let started3 = &h3["events"][0]["event"]["body"];
    assert_eq!(
        started3["match_state"], started2,
        "the hand after a void hand starts as the void hand did"
    );
    assert_eq!(started3["match_state"]["hakem"], started2["hakem"]);
    assert_eq!(started3["match_state"]["scores"], started2["scores"]);
    assert_eq!(
        started3["prev_hand"],
        json!({"hand": hand2, "hash": last2}),
        "hand 3 names the void hand"
    );

    let done = play_game_to_end(&app, &admin, &hand3, &table.tokens, Game::Hokm, &mut rng).await;
    assert_eq!(done["status"], "completed", "{done}");
    verify_bundle(&app, &admin, &hand3).await;
    let m = app
        .get(&format!("/v1/tables/{}/bundle", table.id), Some(&admin))
        .await;
    ok(&m, StatusCode::OK, "match file");
    assert_eq!(m.body["hands"].as_array().map(Vec::len), Some(3));
    let key = app.service_key().await;
    let file = write_temp(&m.body);
    let path = file.path().display().to_string();
    let (code, out, err) = replayer(&["verify", &path, "--key", &key]);
    assert_eq!(code, 0, "replayer verify of the match: {out} {err}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_abandoned_hokm_hand_is_void() {
    run(Store::Pg, abandoned_hokm_hand_is_void).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn embedded_abandoned_hokm_hand_is_void() {
    run(Store::Embedded, abandoned_hokm_hand_is_void).await;
}
