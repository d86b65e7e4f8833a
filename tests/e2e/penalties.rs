//! A penalty ruling counts in the table's match (docs/DISPUTES.md, "Penalties"), over HTTP
//! on both stores: a Hokm hand is played, disputed, and an official awards the cheating
//! penalty (§12.3); hand 2 starts from the match state with the award applied and names the
//! ruling in its `hand_started` (`adjustments`); the dispute says which hand carried it;
//! the table's match file (version 3) carries the signed ruling and verifies with the
//! replayer, as a library and as a command; the file without the ruling, with its award
//! changed, or with the ruling carried twice fails at the named rule. On a second table a
//! penalty that ends the match is carried after the last hand (starting a hand is `409
//! match_over`, the match file shows why), and a ruling once the match is over is recorded
//! and says it was not carried.

use replayer::log::{PublicKey, SigningKeyPair};
use replayer::matches::verify_match_value;
use replayer::verify::Options;
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::damaged::behind_the_back;
use crate::disputes::ruling;
use crate::games::{create_game_table, play_game_to_end, Game};
use crate::harness::{ok, problem, replayer, run, write_temp, Env, Store, TestApp};
use crate::play::{start_hand, Rng, Table};

/// The match state a finished hand left (its `hand_ended`'s `next_match`).
fn left(bundle: &Value) -> Value {
    bundle["records"]
        .as_array()
        .expect("records")
        .iter()
        .find(|r| r["event"]["body"]["type"] == "hand_ended")
        .map(|r| r["event"]["body"]["next_match"].clone())
        .expect("hand_ended")
}

/// Hokm's side of `seat` in a match state (4 seats: the parity of its place at the
/// table; fewer: the seat itself).
fn side(m: &Value, seat: u64) -> usize {
    let seating: Vec<u64> = m["seating"]
        .as_array()
        .expect("seating")
        .iter()
        .map(|s| s.as_u64().expect("seat"))
        .collect();
    if seating.len() == 4 {
        seating.iter().position(|s| *s == seat).expect("seated") % 2
    } else {
        usize::try_from(seat).expect("seat")
    }
}

async fn bundle(app: &TestApp, admin: &str, hand: &str) -> Value {
    let r = app
        .get(&format!("/v1/hands/{hand}/bundle"), Some(admin))
        .await;
    ok(&r, StatusCode::OK, "bundle");
    r.body
}

async fn match_file(app: &TestApp, admin: &str, table: &Table) -> Value {
    let r = app
        .get(&format!("/v1/tables/{}/bundle", table.id), Some(admin))
        .await;
    ok(&r, StatusCode::OK, "match file");
    r.body
}

async fn dispute(app: &TestApp, admin: &str, hand: &str, claim: &str) -> Value {
    let r = app
        .post(
            &format!("/v1/hands/{hand}/disputes"),
            Some(admin),
            json!({"kind": "wrong_score", "claim": claim}),
        )
        .await;
    ok(&r, StatusCode::CREATED, "open a dispute");
    r.body
}

/// A penalty ruling signed by the official over the dispute `d`; the dispute after it.
async fn penalty(
    app: &TestApp,
    club: &str,
    admin: &str,
    d: &Value,
    penalty: Value,
    official: &SigningKeyPair,
) -> Value {
    let body = ruling(
        club,
        d,
        "penalty",
        Some(penalty),
        "seat caught signalling to a partner",
        "Parvin Etesami",
        official,
    );
    let id = d["dispute_id"].as_str().expect("dispute_id");
    let r = app
        .post(&format!("/v1/disputes/{id}/rulings"), Some(admin), body)
        .await;
    ok(&r, StatusCode::CREATED, "penalty ruling");
    r.body
}

/// `replayer::matches::verify_match_value` with the service's key: (valid, rule of the
/// first break).
fn verdict(file: &Value, key: &PublicKey) -> replayer::matches::MatchVerdict {
    verify_match_value(
        file.clone(),
        &Options {
            trusted_keys: vec![*key],
        },
    )
    .expect("a readable match file")
}

fn broken_at(file: &Value, key: &PublicKey, rule: &str, what: &str) {
    let v = verdict(file, key);
    assert!(!v.valid, "{what}: still valid");
    let p = v.problem.expect("a problem");
    assert_eq!(p.rule, rule, "{what}: {p}");
    let f = write_temp(file);
    let (code, out, err) = replayer(&[
        "verify",
        &f.path().display().to_string(),
        "--key",
        &key.to_hex(),
    ]);
    assert_ne!(code, 0, "{what}: replayer verify accepts it: {out} {err}");
    assert!(out.contains(rule), "{what}: {out}");
}

/// A Hokm table of 4 at a new club whose first hand is played, with an official
/// registered to rule on its disputes.
struct Played {
    app: TestApp,
    club: String,
    admin: String,
    key: PublicKey,
    official: SigningKeyPair,
    rng: Rng,
    table: Table,
    /// The first hand's start (its answer) and id.
    h1: Value,
    hand1: String,
}

async fn first_hand_played(env: &Env, club: &str, official: u8, seed: u64) -> Played {
    let app = TestApp::spawn(env).await;
    let (club, admin) = app.create_club(club);
    let key = PublicKey::from_hex(&app.service_key().await).expect("service key");
    let official = SigningKeyPair::from_secret([official; 32]);
    let r = app
        .post(
            "/v1/officials",
            Some(&admin),
            json!({"name": "Parvin Etesami", "public_key": official.public().to_hex()}),
        )
        .await;
    ok(&r, StatusCode::CREATED, "register an official");
    let mut rng = Rng(seed);
    let (table, _) = create_game_table(&app, &admin, Game::Hokm, 4, json!({})).await;
    let h1 = start_hand(&app, &admin, &table).await;
    let hand1 = h1["hand_id"].as_str().unwrap().to_string();
    let done = play_game_to_end(&app, &admin, &hand1, &table.tokens, Game::Hokm, &mut rng).await;
    assert_eq!(done["status"], "completed", "{done}");
    Played {
        app,
        club,
        admin,
        key,
        official,
        rng,
        table,
        h1,
        hand1,
    }
}

async fn counts(env: Env) {
    let Played {
        app,
        club,
        admin,
        key,
        official,
        mut rng,
        table,
        hand1,
        ..
    } = first_hand_played(&env, "Yazd", 0x42, 0x2545_f491_4f6c_dd1d).await;
    // Hand 1 of a Hokm match is disputed: a cheating penalty, seat 1 caught by seat 0.
    let after1 = left(&bundle(&app, &admin, &hand1).await);
    let d = dispute(&app, &admin, &hand1, "seat 1 signalled to seat 3").await;
    let pen = json!({"type": "cheating_penalty", "offender": 1, "beneficiary": 0});
    let ruled = penalty(&app, &club, &admin, &d, pen, &official).await;
    let r = &ruled["ruling"];
    assert_eq!(r["award"]["points"], 1, "{ruled}");
    assert_eq!(
        r["carried"],
        json!({"status": "pending"}),
        "the next hand will carry it: {ruled}"
    );
    let ruling_hash = r["hash"].as_str().unwrap().to_string();
    let dispute_id = d["dispute_id"].as_str().unwrap().to_string();

    // Hand 2 starts from hand 1's end with the point added, and names the ruling.
    let h2 = start_hand(&app, &admin, &table).await;
    let hand2 = h2["hand_id"].as_str().unwrap().to_string();
    let started = &h2["events"][0]["event"]["body"];
    assert_eq!(started["type"], "hand_started");
    let adj = started["adjustments"].as_array().expect("adjustments");
    assert_eq!(adj.len(), 1, "{started}");
    assert_eq!(adj[0]["dispute"], dispute_id.as_str());
    assert_eq!(adj[0]["seq"], 1);
    assert_eq!(adj[0]["hash"], ruling_hash.as_str());
    assert_eq!(adj[0]["award"], r["award"]);
    let mut want = after1.clone();
    let s = side(&after1, 0);
    want["scores"][s] = json!(after1["scores"][s].as_u64().unwrap() + 1);
    assert_eq!(started["match_state"], want, "the changed score");
    let t = app
        .get(&format!("/v1/tables/{}", table.id), Some(&admin))
        .await;
    assert_eq!(t.body["match_over"], false, "{}", t.text);
    let seen = app
        .get(&format!("/v1/disputes/{dispute_id}"), Some(&admin))
        .await;
    ok(&seen, StatusCode::OK, "the dispute");
    assert_eq!(
        seen.body["ruling"]["carried"],
        json!({"status": "applied", "hand_id": hand2, "hand_no": 2}),
        "{}",
        seen.text
    );
    // The dispute's report says it too, in English and Persian.
    let en = app
        .get(
            &format!("/v1/disputes/{dispute_id}/report?lang=en"),
            Some(&admin),
        )
        .await;
    ok(&en, StatusCode::OK, "the report");
    let last = &en.body["rulings"][0];
    assert_eq!(last["carried"]["status"], "applied", "{}", en.text);
    let words = last["carried_text"].as_str().unwrap_or_default();
    assert!(words.contains("hand 2"), "{words}");
    let fa = app
        .get(
            &format!("/v1/disputes/{dispute_id}/report?lang=fa&format=html"),
            Some(&admin),
        )
        .await;
    ok(&fa, StatusCode::OK, "the Persian page");
    assert!(fa.text.contains("در مسابقه به حساب آمد"), "{}", fa.text);
    let done = play_game_to_end(&app, &admin, &hand2, &table.tokens, Game::Hokm, &mut rng).await;
    assert_eq!(done["status"], "completed", "{done}");

    // The match file carries the signed ruling and verifies, as a library and a command.
    let file = match_file(&app, &admin, &table).await;
    assert_eq!(file["version"], 3, "{file}");
    assert_eq!(file["rulings"].as_array().map(Vec::len), Some(1));
    assert_eq!(file["rulings"][0]["hash"], ruling_hash.as_str());
    let v = verdict(&file, &key);
    assert!(v.valid, "{:?}", v.problem);
    assert_eq!(v.adjustments.len(), 1);
    assert_eq!(v.adjustments[0].applied_by.as_deref(), Some(hand2.as_str()));
    assert_eq!(v.adjustments[0].ruled_hand, hand1);
    let f = write_temp(&file);
    let (code, out, err) = replayer(&[
        "verify",
        &f.path().display().to_string(),
        "--key",
        &key.to_hex(),
    ]);
    assert_eq!(code, 0, "replayer verify: {out} {err}");
    assert!(out.contains("penalty ruling carried before hand"), "{out}");

    // Without the ruling, with its award changed, or carried twice: each names its rule.
    let mut without = file.clone();
    without["rulings"] = json!([]);
    broken_at(&without, &key, "adjustment_entry", "the ruling removed");
    let mut changed = file.clone();
    changed["rulings"][0]["entry"]["body"]["award"]["points"] = json!(3);
    broken_at(&changed, &key, "adjustment_entry", "the award changed");
    let mut twice = file.clone();
    twice["trailing_adjustments"] = json!([adj[0].clone()]);
    broken_at(&twice, &key, "adjustment_twice", "the ruling carried twice");
    let mut resigned = file.clone();
    resigned["rulings"][0]["signer"] = json!(official.key_id().0);
    broken_at(&resigned, &key, "adjustment_signature", "another signer");

    // A second table, to 2 points: a penalty to the side ahead ends the match.
    let (short, _) =
        create_game_table(&app, &admin, Game::Hokm, 2, json!({"target_points": 2})).await;
    let s1 = start_hand(&app, &admin, &short).await;
    let s_hand = s1["hand_id"].as_str().unwrap().to_string();
    let done = play_game_to_end(&app, &admin, &s_hand, &short.tokens, Game::Hokm, &mut rng).await;
    assert_eq!(done["status"], "completed", "{done}");
    let after = left(&bundle(&app, &admin, &s_hand).await);
    if after["over"] == false {
        // Seat `ahead` has 1 point; the other seat cheated.
        let ahead = u64::from(after["scores"][1].as_u64() > after["scores"][0].as_u64());
        let d = dispute(&app, &admin, &s_hand, "caught peeking").await;
        let pen = json!({"type": "cheating_penalty", "offender": 1 - ahead, "beneficiary": ahead});
        let ruled = penalty(&app, &club, &admin, &d, pen, &official).await;
        assert_eq!(ruled["ruling"]["carried"]["status"], "pending", "{ruled}");
        let r = app
            .post(
                &format!("/v1/tables/{}/hands", short.id),
                Some(&admin),
                json!({}),
            )
            .await;
        problem(&r, StatusCode::CONFLICT, "match_over");
        let t = app
            .get(&format!("/v1/tables/{}", short.id), Some(&admin))
            .await;
        ok(&t, StatusCode::OK, "the table");
        assert_eq!(t.body["match_over"], true, "the table says so: {}", t.text);
        let file = match_file(&app, &admin, &short).await;
        assert_eq!(file["version"], 3, "{file}");
        assert_eq!(
            file["trailing_adjustments"].as_array().map(Vec::len),
            Some(1),
            "the file shows the award that ended the match: {file}"
        );
        let v = verdict(&file, &key);
        assert!(v.valid, "{:?}", v.problem);
        assert_eq!(
            v.match_state.as_ref().map(|m| m["over"].clone()),
            Some(json!(true))
        );
        assert_eq!(v.adjustments[0].applied_by, None);
    }
    // The match is over: a further penalty is recorded, and says it was not carried.
    let d = dispute(&app, &admin, &s_hand, "and he cheated again").await;
    let pen = json!({"type": "cheating_penalty", "offender": 0, "beneficiary": 1});
    let late = penalty(&app, &club, &admin, &d, pen, &official).await;
    assert_eq!(late["status"], "penalty");
    assert_eq!(
        late["ruling"]["carried"],
        json!({"status": "not_carried", "reason": "match_over"}),
        "{late}"
    );
    let late_id = late["dispute_id"].as_str().unwrap();
    let seen = app
        .get(&format!("/v1/disputes/{late_id}"), Some(&admin))
        .await;
    ok(&seen, StatusCode::OK, "the late dispute");
    assert_eq!(seen.body["ruling"]["carried"]["reason"], "match_over");
    let r = app
        .post(
            &format!("/v1/tables/{}/hands", short.id),
            Some(&admin),
            json!({}),
        )
        .await;
    problem(&r, StatusCode::CONFLICT, "match_over");
    let file = match_file(&app, &admin, &short).await;
    let v = verdict(&file, &key);
    assert!(v.valid, "{:?}", v.problem);
}

/// The carried views of a dispute's rulings, oldest first, from its report.
async fn carried_views(app: &TestApp, admin: &str, dispute_id: &str) -> Vec<Value> {
    let r = app
        .get(
            &format!("/v1/disputes/{dispute_id}/report?lang=en"),
            Some(admin),
        )
        .await;
    ok(&r, StatusCode::OK, "the report");
    r.body["rulings"]
        .as_array()
        .expect("rulings")
        .iter()
        .map(|x| x["carried"].clone())
        .collect()
}

/// A dispute's award counts once, and only its ruling in force counts: a penalty
/// superseded before any hand carried it is `not_carried`/`superseded` and the later one
/// is carried instead; a ruling that rejects the claim carries nothing; a ruling after
/// the dispute's award was carried is `not_carried`/`dispute_carried` and the next hand
/// carries nothing; the match file verifies throughout.
async fn carry_rules(env: Env) {
    let Played {
        app,
        club,
        admin,
        key,
        official,
        mut rng,
        table,
        hand1,
        ..
    } = first_hand_played(&env, "Kerman", 0x43, 0x9e37_79b9_7f4a_7c15).await;
    let after1 = left(&bundle(&app, &admin, &hand1).await);

    // Dispute A: a penalty to seat 0's side, then, before any hand, one to seat 1's.
    let a = dispute(&app, &admin, &hand1, "seat 1 signalled").await;
    let a_id = a["dispute_id"].as_str().unwrap().to_string();
    let first = json!({"type": "cheating_penalty", "offender": 1, "beneficiary": 0});
    let a1 = penalty(&app, &club, &admin, &a, first, &official).await;
    let second = json!({"type": "cheating_penalty", "offender": 0, "beneficiary": 1});
    let a2 = penalty(&app, &club, &admin, &a1, second, &official).await;
    assert_eq!(
        carried_views(&app, &admin, &a_id).await,
        vec![
            json!({"status": "not_carried", "reason": "superseded"}),
            json!({"status": "pending"}),
        ],
        "the first penalty is superseded, the second will be carried"
    );
    // Dispute B: the claim rejected; nothing to carry.
    let b = dispute(&app, &admin, &hand1, "a misdeal").await;
    let body = ruling(
        &club,
        &b,
        "rejected",
        None,
        "the deal was sound",
        "Parvin Etesami",
        &official,
    );
    let b_id = b["dispute_id"].as_str().unwrap();
    let r = app
        .post(&format!("/v1/disputes/{b_id}/rulings"), Some(&admin), body)
        .await;
    ok(&r, StatusCode::CREATED, "a rejection");
    assert!(r.body["ruling"].get("carried").is_none(), "{}", r.text);

    // Hand 2 carries A's ruling in force only: seat 1's side gains the point.
    let h2 = start_hand(&app, &admin, &table).await;
    let hand2 = h2["hand_id"].as_str().unwrap().to_string();
    let started = &h2["events"][0]["event"]["body"];
    let adj = started["adjustments"].as_array().expect("adjustments");
    assert_eq!(adj.len(), 1, "{started}");
    assert_eq!(adj[0]["dispute"], a_id.as_str());
    assert_eq!(
        adj[0]["seq"], 2,
        "the ruling in force, not the superseded one"
    );
    assert_eq!(adj[0]["hash"], a2["ruling"]["hash"]);
    let mut want = after1.clone();
    let s = side(&after1, 1);
    want["scores"][s] = json!(after1["scores"][s].as_u64().unwrap() + 1);
    assert_eq!(started["match_state"], want, "the changed score");

    // A third ruling on A, after its award counted: recorded, not carried again.
    let third = json!({"type": "cheating_penalty", "offender": 2, "beneficiary": 1});
    let a3 = penalty(&app, &club, &admin, &a2, third, &official).await;
    assert_eq!(
        a3["ruling"]["carried"],
        json!({"status": "not_carried", "reason": "dispute_carried"}),
        "{a3}"
    );
    assert_eq!(
        carried_views(&app, &admin, &a_id).await,
        vec![
            json!({"status": "not_carried", "reason": "superseded"}),
            json!({"status": "applied", "hand_id": hand2, "hand_no": 2}),
            json!({"status": "not_carried", "reason": "dispute_carried"}),
        ]
    );
    let done = play_game_to_end(&app, &admin, &hand2, &table.tokens, Game::Hokm, &mut rng).await;
    assert_eq!(done["status"], "completed", "{done}");

    // Dispute C: a penalty whose stored entry is then changed behind the service's back
    // so that it no longer reads. Its view says so (never a 500), and no hand carries it.
    let c = dispute(&app, &admin, &hand1, "seat 3 looked at the stock").await;
    let c_id = c["dispute_id"].as_str().unwrap().to_string();
    let pen = json!({"type": "cheating_penalty", "offender": 3, "beneficiary": 0});
    let c1 = penalty(&app, &club, &admin, &c, pen, &official).await;
    behind_the_back(
        &env,
        &app,
        format!(
            "ALTER TABLE dispute_entries DISABLE TRIGGER USER; \
             UPDATE dispute_entries SET record = '{{}}' WHERE dispute_id = '{c_id}' AND seq = 1; \
             ALTER TABLE dispute_entries ENABLE TRIGGER USER"
        ),
        format!(
            "DROP TRIGGER IF EXISTS dispute_entries_no_update; \
             UPDATE dispute_entries SET record = '{{}}' WHERE dispute_id = '{c_id}' AND seq = 1"
        ),
    )
    .await;
    let r = app.get(&format!("/v1/disputes/{c_id}"), Some(&admin)).await;
    problem(&r, StatusCode::CONFLICT, "dispute_damaged");
    assert!(r.text.contains("entry 1"), "{}", r.text);
    // A further ruling on it is refused the same way.
    let body = ruling(
        &club,
        &c1,
        "rejected",
        None,
        "on second thoughts",
        "Parvin Etesami",
        &official,
    );
    let r = app
        .post(&format!("/v1/disputes/{c_id}/rulings"), Some(&admin), body)
        .await;
    problem(&r, StatusCode::CONFLICT, "dispute_damaged");
    if left(&bundle(&app, &admin, &hand2).await)["over"] == false {
        let h3 = start_hand(&app, &admin, &table).await;
        let started = &h3["events"][0]["event"]["body"];
        assert!(
            started.get("adjustments").is_none(),
            "hand 3 carries nothing: {started}"
        );
    }
    let file = match_file(&app, &admin, &table).await;
    assert_eq!(file["rulings"].as_array().map(Vec::len), Some(1), "{file}");
    let v = verdict(&file, &key);
    assert!(v.valid, "{:?}", v.problem);
    assert_eq!(v.adjustments.len(), 1);
    assert_eq!(v.adjustments[0].applied_by.as_deref(), Some(hand2.as_str()));
}

/// A penalty on a hand that is then quarantined (its log damaged behind the service's
/// back) is no ruling on a hand of the match: `not_carried`/`hand_quarantined`, and the
/// next hand starts from the match's initial state without it.
async fn quarantined_hand(env: Env) {
    let Played {
        app,
        club,
        admin,
        official,
        table,
        h1,
        hand1,
        ..
    } = first_hand_played(&env, "Tabas", 0x44, 0x2545_f491_4f6c_dd1d).await;
    let initial = h1["events"][0]["event"]["body"]["match_state"].clone();
    let d = dispute(&app, &admin, &hand1, "seat 2 signalled").await;
    let d_id = d["dispute_id"].as_str().unwrap().to_string();
    let pen = json!({"type": "cheating_penalty", "offender": 2, "beneficiary": 1});
    let ruled = penalty(&app, &club, &admin, &d, pen, &official).await;
    assert_eq!(ruled["ruling"]["carried"], json!({"status": "pending"}));

    // A row slipped into hand 1's log after its last event; the admin quarantines it.
    let last = bundle(&app, &admin, &hand1).await["records"]
        .as_array()
        .expect("records")
        .len()
        - 1;
    let copy = |set: &str| {
        format!(
            "INSERT INTO events (club_id, hand_id, seq, kind, hash, prev_hash, record, created_ms) \
             SELECT club_id, hand_id, seq + 1, kind, hash, prev_hash, {set}, created_ms \
             FROM events WHERE hand_id = '{hand1}' AND seq = {last}"
        )
    };
    behind_the_back(
        &env,
        &app,
        copy("jsonb_set(record, '{event,seq}', to_jsonb(seq + 1))"),
        copy("json_set(record, '$.event.seq', seq + 1)"),
    )
    .await;
    let q = app
        .post(
            &format!("/v1/hands/{hand1}/quarantine"),
            Some(&admin),
            json!({"reason": "a row was added to the log"}),
        )
        .await;
    ok(&q, StatusCode::OK, "quarantine hand 1");
    let seen = app.get(&format!("/v1/disputes/{d_id}"), Some(&admin)).await;
    ok(&seen, StatusCode::OK, "the dispute");
    assert_eq!(
        seen.body["ruling"]["carried"],
        json!({"status": "not_carried", "reason": "hand_quarantined"}),
        "{}",
        seen.text
    );
    let h2 = start_hand(&app, &admin, &table).await;
    let started = &h2["events"][0]["event"]["body"];
    assert!(
        started.get("adjustments").is_none(),
        "nothing carried from a quarantined hand: {started}"
    );
    assert_eq!(started["match_state"], initial, "the match starts again");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_a_ruling_on_a_quarantined_hand_is_not_carried() {
    run(Store::Pg, quarantined_hand).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn embedded_a_ruling_on_a_quarantined_hand_is_not_carried() {
    run(Store::Embedded, quarantined_hand).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_only_the_ruling_in_force_counts_once() {
    run(Store::Pg, carry_rules).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn embedded_only_the_ruling_in_force_counts_once() {
    run(Store::Embedded, carry_rules).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_penalty_counts_in_the_match() {
    run(Store::Pg, counts).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn embedded_penalty_counts_in_the_match() {
    run(Store::Embedded, counts).await;
}
