//! Disputes (issue 12, point 4) over HTTP, on both stores: a Hokm hand is played; seats of
//! the hand open `wrong_score` and `action_not_mine` disputes and get their findings at once
//! (the settlement recomputed equals the recorded and stored outcome, the action's signer is
//! the service's current key); the admin registers an official, who signs a `rejected`
//! ruling and then a `penalty` (Hokm's cheating penalty, §12.3) that supersedes it, the two
//! chained in the dispute's record; reports in English and Persian as JSON and HTML. Every
//! role is tried, allowed and refused, and every bad input gets its named 4xx. A finished
//! hand damaged behind the service's back is disputed as `record_altered`, and the findings
//! name the event and the check.

use replayer::dispute::{ruling_message, Decision, Official, RulingTerms};
use replayer::log::{Hash, SigningKeyPair};
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::damaged::behind_the_back;
use crate::games::{create_game_table, play_game_to_end, Game};
use crate::harness::{ok, problem, problem_at, run, verify_bundle, Env, Res, Store, TestApp};
use crate::play::{create_table, play_to_end, start_hand, Rng};

fn h32(v: &Value) -> crate::clublog::H {
    hex::decode(v.as_str().unwrap())
        .unwrap()
        .try_into()
        .unwrap()
}

fn root_of(cp: &Value) -> crate::clublog::H {
    h32(&cp["root"])
}

/// The `log` finding says the hand's last event is in the club's log: checked with the e2e
/// suite's own RFC 6962 code, the leaf recomputed from the bundle and the salt of the
/// hand's log proof (which the finding itself does not show).
fn log_finding_holds(log: &Value, hand_proof: &Value, club: &str, hand: &str, records: &[Value]) {
    assert_eq!(log["status"], "included", "{log}");
    assert!(log.get("salt").is_none(), "no salt in the findings: {log}");
    let last = records.last().unwrap();
    let salt = hex::decode(hand_proof["salt"].as_str().unwrap()).unwrap();
    assert!(!log
        .to_string()
        .contains(hand_proof["salt"].as_str().unwrap()));
    let e = crate::clublog::entry(
        &salt,
        club,
        hand,
        last["event"]["seq"].as_u64().unwrap(),
        &hex::decode(last["hash"].as_str().unwrap()).unwrap(),
    );
    let leaf = crate::clublog::leaf_hash(&e);
    assert_eq!(hex::encode(leaf), log["leaf_hash"], "{log}");
    assert_eq!(log["leaf_index"], hand_proof["leaf_index"]);
    assert_eq!(log["event_hash"], last["hash"]);
    let cp = &log["checkpoint"];
    assert!(cp["note"]
        .as_str()
        .unwrap()
        .starts_with(cp["origin"].as_str().unwrap()));
    let proof: Vec<_> = log["inclusion"]
        .as_array()
        .unwrap()
        .iter()
        .map(h32)
        .collect();
    assert!(crate::clublog::verify_inclusion(
        log["leaf_index"].as_u64().unwrap(),
        cp["size"].as_u64().unwrap(),
        &leaf,
        &proof,
        &root_of(cp),
    ));
}

/// A dispute read says the log's latest checkpoint extends its finding's, with a proof the
/// suite's own RFC code accepts.
fn log_consistency_holds(d: &Value, log: &Value) {
    let c = &d["log_consistency"];
    assert_eq!(c["status"], "consistent", "{d}");
    let cp = &log["checkpoint"];
    assert_eq!(c["from"]["size"], cp["size"]);
    assert_eq!(c["from"]["root"], cp["root"]);
    let (m, n) = (
        c["from"]["size"].as_u64().unwrap(),
        c["to"]["size"].as_u64().unwrap(),
    );
    assert!(n >= m, "{c}");
    let proof: Vec<_> = c["proof"].as_array().unwrap().iter().map(h32).collect();
    assert!(crate::clublog::verify_consistency(
        m,
        n,
        &root_of(&c["from"]),
        &root_of(&c["to"]),
        &proof
    ));
}

/// A ruling body signed by `key` over the dispute `d` as `GET` shows it (its `next_seq` and
/// `head`).
pub(crate) fn ruling(
    club: &str,
    d: &Value,
    decision: &str,
    penalty: Option<Value>,
    reason: &str,
    name: &str,
    key: &SigningKeyPair,
) -> Value {
    let official = Official {
        name: name.to_string(),
        public_key: key.public(),
    };
    let prev = Hash::from_hex(d["head"].as_str().expect("head")).expect("hex");
    let msg = ruling_message(&RulingTerms {
        club,
        dispute: d["dispute_id"].as_str().expect("dispute_id"),
        hand: d["hand_id"].as_str().expect("hand_id"),
        seq: d["next_seq"].as_u64().expect("next_seq"),
        prev: &prev,
        decision: Decision::parse(decision).expect("decision"),
        penalty: penalty.as_ref(),
        reason,
        official: &official,
    })
    .expect("message");
    let mut body = json!({
        "decision": decision, "reason": reason,
        "official": {"name": name, "public_key": key.public().to_hex()},
        "official_sig": key.sign(&msg).to_hex(),
    });
    if let Some(p) = penalty {
        body["penalty"] = p;
    }
    body
}

async fn get(app: &TestApp, path: &str, token: &str) -> Value {
    let r = app.get(path, Some(token)).await;
    ok(&r, StatusCode::OK, path);
    r.body
}

fn field(r: &Res, code: &str, name: &str, what: &str) {
    let status = if code == "invalid_name" {
        StatusCode::BAD_REQUEST
    } else {
        StatusCode::UNPROCESSABLE_ENTITY
    };
    problem_at(r, status, code, what);
    assert_eq!(r.body["field"], name, "{what}: {}", r.text);
}

/// Whether SQL behind the service's back is refused (the append-only triggers).
async fn refused(env: &Env, app: &TestApp, sql: &str) -> bool {
    if env.db_url.is_some() {
        return env.pg().await.batch_execute(sql).await.is_err();
    }
    let path = app.data_dir.join("dealer.db");
    let sql = sql.to_string();
    tokio::task::spawn_blocking(move || {
        let db = rusqlite::Connection::open(&path).expect("open dealer.db");
        db.busy_timeout(std::time::Duration::from_secs(10)).unwrap();
        db.execute_batch(&sql).is_err()
    })
    .await
    .expect("sqlite")
}

async fn lifecycle(env: Env) {
    let app = TestApp::spawn(&env).await;
    let (club, admin) = app.create_club("Shiraz");
    let auditor = app.add_auditor_cli(&club);
    let (_, other_admin) = app.create_club("Tabriz");
    let (table, _) = create_game_table(&app, &admin, Game::Hokm, 4, json!({})).await;
    let (other_table, _) = create_game_table(&app, &admin, Game::Hokm, 4, json!({})).await;
    let mut rng = Rng(0x5851_f42d_4c95_7f2d);
    let h = start_hand(&app, &admin, &table).await;
    let hand = h["hand_id"].as_str().unwrap().to_string();
    let done = play_game_to_end(&app, &admin, &hand, &table.tokens, Game::Hokm, &mut rng).await;
    assert_eq!(done["status"], "completed", "{done}");
    let bundle = verify_bundle(&app, &admin, &hand).await;
    let records = bundle["records"].as_array().unwrap();
    // An action by a seat other than seat 1 (who opens the wrong_score dispute): the deal,
    // and so who acts first, changes from run to run.
    let (seq_a, seat_a) = records
        .iter()
        .find_map(|r| {
            let b = &r["event"]["body"];
            (b["type"] == "action")
                .then(|| b["actor"]["seat"].as_u64())
                .flatten()
                .filter(|s| *s != 1)
                .map(|s| (r["event"]["seq"].as_u64().unwrap(), s as usize))
        })
        .expect("an action by a seat");
    let keys = get(&app, "/v1/keys", &admin).await;
    let current = keys["current"].as_str().unwrap().to_string();
    let open = format!("/v1/hands/{hand}/disputes");
    // The hand under a checkpoint of the club log, so that its log finding is `included`.
    let hand_proof = crate::clublog::log_proof(&app, &admin, &hand).await;

    // A seat of the hand opens a wrong_score dispute; its findings are there at once.
    let claim = "<script>alert('x')</script> the points of hand 1 are wrong";
    let wrong = json!({"kind": "wrong_score", "claim": claim});
    let r = app
        .post_idem(&open, Some(&table.tokens[1]), wrong.clone(), "ws-1")
        .await;
    ok(&r, StatusCode::CREATED, "open wrong_score");
    let ws = r.body.clone();
    let ws_id = ws["dispute_id"].as_str().unwrap().to_string();
    assert!(ws_id.starts_with("d_"), "{}", r.text);
    assert_eq!(ws["status"], "open");
    assert_eq!(ws["claim"], claim);
    assert_eq!(ws["opened_by"]["role"], "seat");
    assert_eq!(ws["opened_by"]["seat"], 1);
    assert_eq!(ws["next_seq"], 1);
    assert_eq!(ws["record_check"]["valid"], true, "{}", r.text);
    let f = &ws["findings"];
    assert_eq!(f["verdict"]["valid"], true, "{f}");
    assert_eq!(f["verdict"]["trust"], "trusted_key");
    assert_eq!(f["stored_log"]["intact"], true, "{f}");
    assert_eq!(f["match_link"]["prev_ok"], true, "{f}");
    assert_eq!(f["match_link"]["state_ok"], true, "{f}");
    assert_eq!(f["match_link"]["matches"]["valid"], true, "{f}");
    log_finding_holds(&f["log"], &hand_proof, &club, &hand, records);
    // At a read, the log's latest checkpoint extends the finding's.
    let d = get(&app, &format!("/v1/disputes/{ws_id}"), &admin).await;
    log_consistency_holds(&d, &f["log"]);
    let c = &f["claim"];
    assert_eq!(c["kind"], "wrong_score");
    assert_eq!(c["replayed"], true, "{c}");
    assert_eq!(c["matches_log"], true, "{c}");
    assert_eq!(c["matches_row"], true, "{c}");
    assert_eq!(
        c["recomputed"], done["outcome"],
        "the recomputed settlement"
    );
    assert_eq!(c["logged"], done["outcome"]);
    assert_eq!(c["unit"], "points");
    assert_eq!(c["lines"].as_array().unwrap().len(), 4, "{c}");
    assert_eq!(c["table_matches"], true, "{c}");
    assert!(c["steps"].as_array().unwrap().len() > 10, "{c}");
    // Retried with its key: the same dispute, replayed; the key for another body: 422.
    let again = app
        .post_idem(&open, Some(&table.tokens[1]), wrong.clone(), "ws-1")
        .await;
    ok(&again, StatusCode::CREATED, "retry");
    assert_eq!(again.replayed.as_deref(), Some("true"));
    assert_eq!(again.body["dispute_id"], ws_id.as_str());
    let reused = app
        .post_idem(
            &open,
            Some(&table.tokens[1]),
            json!({"kind": "unfair_deal", "claim": "x"}),
            "ws-1",
        )
        .await;
    problem(
        &reused,
        StatusCode::UNPROCESSABLE_ENTITY,
        "idempotency_key_reused",
    );

    // The seat that acted says it never did: who signed, with which key.
    let r = app
        .post(
            &open,
            Some(&table.tokens[seat_a]),
            json!({"kind": "action_not_mine", "claim": "I never played that card", "seq": seq_a}),
        )
        .await;
    ok(&r, StatusCode::CREATED, "open action_not_mine");
    let anm = r.body.clone();
    let anm_id = anm["dispute_id"].as_str().unwrap().to_string();
    let c = &anm["findings"]["claim"];
    assert_eq!(c["kind"], "action_not_mine");
    assert_eq!(c["seq"], seq_a);
    assert_eq!(c["actor"]["seat"], seat_a as u64, "{c}");
    assert_eq!(c["service_signer"], current.as_str(), "{c}");
    assert_eq!(c["service_signer_known"], true);
    assert_eq!(c["service_signer_current"], true);
    assert_eq!(c["service_signature_ok"], true);
    assert_eq!(c["conclusion"], "unsigned_no_key", "{c}");
    assert!(
        c["player_sig"].is_null() && c["registered_key"].is_null(),
        "{c}"
    );

    // Every other kind opens too; unfair_deal lists each shuffle's commitment and seed.
    let r = app
        .post(
            &open,
            Some(&auditor),
            json!({"kind": "unfair_deal", "claim": "the deck was stacked"}),
        )
        .await;
    ok(&r, StatusCode::CREATED, "an auditor opens unfair_deal");
    let c = &r.body["findings"]["claim"];
    assert_eq!(c["revealed"], true, "{c}");
    assert_eq!(c["all_match"], true, "{c}");
    assert_eq!(c["fold_ok"], true, "{c}");
    let shuffles = c["shuffles"].as_array().unwrap();
    assert!(!shuffles.is_empty());
    for s in shuffles {
        assert_eq!(s["seed_matches"], true, "{s}");
        assert_eq!(s["server_seed"].as_str().map(str::len), Some(64), "{s}");
    }
    assert_eq!(r.body["opened_by"]["role"], "auditor");
    let r = app
        .post(
            &open,
            Some(&admin),
            json!({"kind": "rule_broken", "claim": "he did not follow suit", "seq": seq_a}),
        )
        .await;
    ok(&r, StatusCode::CREATED, "the admin opens rule_broken");
    let c = &r.body["findings"]["claim"];
    assert_eq!(c["replayed"], true, "{c}");
    assert_eq!(c["accepted"], true, "{c}");
    assert_eq!(c["effects_match"], true, "{c}");
    assert!(!c["legal_actions"].as_array().unwrap().is_empty(), "{c}");
    let r = app
        .post(
            &open,
            Some(&admin),
            json!({"kind": "record_altered", "claim": "you changed the score"}),
        )
        .await;
    ok(&r, StatusCode::CREATED, "the admin opens record_altered");
    let c = &r.body["findings"]["claim"];
    assert!(c["first_problem"].is_null(), "{c}");
    assert!(c["projections"]
        .as_array()
        .unwrap()
        .iter()
        .all(|p| p["equal"] == true));

    // Who may see what.
    let mine = get(&app, "/v1/disputes", &table.tokens[1]).await;
    let ids: Vec<&str> = mine["disputes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["dispute_id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, vec![ws_id.as_str()], "a seat lists only its own");
    let all = get(&app, "/v1/disputes", &auditor).await;
    assert_eq!(all["disputes"].as_array().unwrap().len(), 5, "{all}");
    assert_eq!(
        get(&app, "/v1/disputes", &admin).await["disputes"]
            .as_array()
            .unwrap()
            .len(),
        5
    );
    ok(
        &app.get(&format!("/v1/disputes/{anm_id}"), Some(&auditor))
            .await,
        StatusCode::OK,
        "an auditor reads any",
    );
    problem(
        &app.get(&format!("/v1/disputes/{anm_id}"), Some(&table.tokens[1]))
            .await,
        StatusCode::NOT_FOUND,
        "not_found",
    );
    for path in [
        format!("/v1/disputes/{ws_id}"),
        format!("/v1/disputes/{ws_id}/report"),
    ] {
        problem(
            &app.get(&path, Some(&other_admin)).await,
            StatusCode::NOT_FOUND,
            "not_found",
        );
        problem(
            &app.get(&path, Some(&other_table.tokens[0])).await,
            StatusCode::NOT_FOUND,
            "not_found",
        );
    }
    assert!(get(&app, "/v1/disputes", &other_admin).await["disputes"]
        .as_array()
        .unwrap()
        .is_empty());
    // A seat of another table does not see the hand at all.
    problem(
        &app.post(
            &open,
            Some(&other_table.tokens[0]),
            json!({"kind": "wrong_score", "claim": "x"}),
        )
        .await,
        StatusCode::NOT_FOUND,
        "not_found",
    );
    problem(
        &app.post(
            &open,
            Some(&other_admin),
            json!({"kind": "wrong_score", "claim": "x"}),
        )
        .await,
        StatusCode::NOT_FOUND,
        "not_found",
    );
    // A seat whose player did not sit in the hand (the seat was given to another player
    // since) may not dispute it.
    let t = &table.id;
    behind_the_back(
        &env,
        &app,
        format!("UPDATE seats SET player = 'Someone else' WHERE table_id = '{t}' AND seat = 2"),
        format!("UPDATE seats SET player = 'Someone else' WHERE table_id = '{t}' AND seat = 2"),
    )
    .await;
    problem(
        &app.post(
            &open,
            Some(&table.tokens[2]),
            json!({"kind": "wrong_score", "claim": "x"}),
        )
        .await,
        StatusCode::FORBIDDEN,
        "forbidden",
    );
    // A running hand is not disputed until it is over.
    let running = start_hand(&app, &admin, &other_table).await["hand_id"]
        .as_str()
        .unwrap()
        .to_string();
    problem(
        &app.post(
            &format!("/v1/hands/{running}/disputes"),
            Some(&other_table.tokens[0]),
            json!({"kind": "unfair_deal", "claim": "x"}),
        )
        .await,
        StatusCode::CONFLICT,
        "hand_in_progress",
    );
    problem(
        &app.post(
            &format!("/v1/hands/{running}/disputes"),
            Some(&auditor),
            json!({"kind": "unfair_deal", "claim": "x"}),
        )
        .await,
        StatusCode::NOT_FOUND,
        "not_found",
    );

    // Bad inputs.
    let seat1 = Some(table.tokens[1].as_str());
    let events = records.len();
    let cases = [
        (
            json!({"kind": "unfair", "claim": "x"}),
            "invalid_dispute",
            "kind",
        ),
        (
            json!({"kind": "rule_broken", "claim": "x", "seq": events}),
            "invalid_dispute",
            "seq",
        ),
        (
            json!({"kind": "action_not_mine", "claim": "x"}),
            "invalid_dispute",
            "seq",
        ),
        (
            json!({"kind": "wrong_score", "claim": "   "}),
            "invalid_name",
            "claim",
        ),
        (
            json!({"kind": "wrong_score", "claim": "x".repeat(2001)}),
            "invalid_name",
            "claim",
        ),
        (
            json!({"kind": "wrong_score", "claim": "a\u{202e}b"}),
            "invalid_name",
            "claim",
        ),
    ];
    for (body, code, name) in cases {
        let r = app.post(&open, seat1, body.clone()).await;
        let what: String = body.to_string().chars().take(60).collect();
        field(&r, code, name, &what);
    }
    problem(
        &app.post(
            &open,
            seat1,
            json!({"kind": "wrong_score", "claim": "x", "extra": 1}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "invalid_json",
    );
    for q in [
        "bogus=1",
        "status=closed",
        "kind=unfair",
        "limit=0",
        "cursor=zz",
    ] {
        problem(
            &app.get(&format!("/v1/disputes?{q}"), Some(&admin)).await,
            StatusCode::BAD_REQUEST,
            "invalid_query",
        );
    }
    problem(
        &app.get(&format!("/v1/disputes/{ws_id}?bogus=1"), Some(&admin))
            .await,
        StatusCode::BAD_REQUEST,
        "invalid_query",
    );

    // Officials: registered by the admin only; listed to the admin and auditors.
    let official = SigningKeyPair::from_secret([0x42; 32]);
    let stranger = SigningKeyPair::from_secret([0x43; 32]);
    let reg = json!({"name": "Hamid Rezaei", "public_key": official.public().to_hex()});
    for token in [&auditor, &table.tokens[1]] {
        problem(
            &app.post("/v1/officials", Some(token), reg.clone()).await,
            StatusCode::FORBIDDEN,
            "forbidden",
        );
    }
    let r = app
        .post_idem("/v1/officials", Some(&admin), reg.clone(), "official-1")
        .await;
    ok(&r, StatusCode::CREATED, "register an official");
    assert_eq!(r.body["key_id"], official.key_id().0.as_str());
    let r = app
        .post_idem("/v1/officials", Some(&admin), reg.clone(), "official-1")
        .await;
    assert_eq!(r.replayed.as_deref(), Some("true"), "{}", r.text);
    problem(
        &app.post("/v1/officials", Some(&admin), reg.clone()).await,
        StatusCode::CONFLICT,
        "official_exists",
    );
    let r = app
        .post(
            "/v1/officials",
            Some(&admin),
            json!({"name": "X", "public_key": "zz"}),
        )
        .await;
    field(&r, "invalid_official", "public_key", "a bad key");
    let listed = get(&app, "/v1/officials", &auditor).await;
    assert_eq!(listed["officials"].as_array().unwrap().len(), 1, "{listed}");
    problem(
        &app.get("/v1/officials", Some(&table.tokens[0])).await,
        StatusCode::FORBIDDEN,
        "forbidden",
    );

    // Rulings: who may, and what is refused.
    let rulings = format!("/v1/disputes/{ws_id}/rulings");
    let d = get(&app, &format!("/v1/disputes/{ws_id}"), &admin).await;
    let reason = "the settlement recomputes to the recorded outcome";
    let rejected = ruling(
        &club,
        &d,
        "rejected",
        None,
        reason,
        "Hamid Rezaei",
        &official,
    );
    for token in [&auditor, &table.tokens[1]] {
        problem(
            &app.post(&rulings, Some(token), rejected.clone()).await,
            StatusCode::FORBIDDEN,
            "forbidden",
        );
    }
    problem(
        &app.post(&rulings, Some(&other_admin), rejected.clone())
            .await,
        StatusCode::NOT_FOUND,
        "not_found",
    );
    let unregistered = ruling(
        &club,
        &d,
        "rejected",
        None,
        reason,
        "Hamid Rezaei",
        &stranger,
    );
    problem(
        &app.post(&rulings, Some(&admin), unregistered).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "unknown_official",
    );
    let mut forged = rejected.clone();
    forged["official_sig"] = json!(
        ruling(
            &club,
            &d,
            "rejected",
            None,
            reason,
            "Hamid Rezaei",
            &stranger
        )["official_sig"]
    );
    problem(
        &app.post(&rulings, Some(&admin), forged).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "bad_official_signature",
    );
    let mut altered = rejected.clone();
    altered["decision"] = json!("upheld");
    problem(
        &app.post(&rulings, Some(&admin), altered).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "bad_official_signature",
    );
    let renamed = ruling(&club, &d, "rejected", None, reason, "Someone", &official);
    problem(
        &app.post(&rulings, Some(&admin), renamed).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "unknown_official",
    );
    let mut maybe = rejected.clone();
    maybe["decision"] = json!("maybe");
    field(
        &app.post(&rulings, Some(&admin), maybe).await,
        "invalid_ruling",
        "decision",
        "an unknown decision",
    );
    let no_penalty = ruling(
        &club,
        &d,
        "penalty",
        None,
        reason,
        "Hamid Rezaei",
        &official,
    );
    field(
        &app.post(&rulings, Some(&admin), no_penalty).await,
        "invalid_ruling",
        "penalty",
        "penalty without one",
    );
    let bad_penalty = ruling(
        &club,
        &d,
        "penalty",
        Some(json!({"type": "cheating_penalty", "offender": 9})),
        reason,
        "Hamid Rezaei",
        &official,
    );
    let r = app.post(&rulings, Some(&admin), bad_penalty).await;
    field(
        &r,
        "invalid_ruling",
        "penalty",
        "a penalty the rules do not give",
    );
    assert_eq!(r.body["rule"], "BadPenalty", "{}", r.text);
    assert_eq!(r.body["section"], "hokm §12.3", "{}", r.text);

    // The official rejects the claim.
    let r = app
        .post_idem(&rulings, Some(&admin), rejected.clone(), "rule-1")
        .await;
    ok(&r, StatusCode::CREATED, "rejected");
    assert_eq!(r.body["status"], "rejected", "{}", r.text);
    assert_eq!(r.body["ruling"]["decision"], "rejected");
    assert_eq!(r.body["ruling"]["official"]["name"], "Hamid Rezaei");
    let r = app
        .post_idem(&rulings, Some(&admin), rejected.clone(), "rule-1")
        .await;
    assert_eq!(r.replayed.as_deref(), Some("true"), "{}", r.text);
    // Signed over the old head again: the dispute has moved on.
    let mut stale = rejected.clone();
    stale["prev"] = d["head"].clone();
    let r = app.post(&rulings, Some(&admin), stale).await;
    problem(&r, StatusCode::CONFLICT, "dispute_moved_on");
    assert_eq!(r.body["next_seq"], 2, "{}", r.text);
    problem(
        &app.post(&rulings, Some(&admin), rejected.clone()).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "bad_official_signature",
    );

    // Then a penalty supersedes it: Hokm's cheating penalty, seat 1 caught by seat 0.
    let d = get(&app, &format!("/v1/disputes/{ws_id}"), &admin).await;
    let penalty = json!({"type": "cheating_penalty", "offender": 1, "beneficiary": 0});
    let body = ruling(
        &club,
        &d,
        "penalty",
        Some(penalty.clone()),
        "seat 1 showed his cards to his partner",
        "Hamid Rezaei",
        &official,
    );
    let r = app.post(&rulings, Some(&admin), body).await;
    ok(&r, StatusCode::CREATED, "penalty");
    let d = r.body.clone();
    assert_eq!(d["status"], "penalty");
    assert_eq!(d["next_seq"], 3);
    let award = &d["ruling"]["award"];
    assert_eq!(award["penalty"], "cheating_penalty", "{award}");
    assert_eq!(award["points"], 1, "{award}");
    assert_eq!(award["beneficiaries"], json!([[0, 2]]), "{award}");
    let history = d["rulings"].as_array().unwrap();
    assert_eq!(history.len(), 2);
    assert_eq!(history[0]["decision"], "rejected");
    assert_eq!(history[0]["superseded"], true);
    assert_eq!(history[1]["superseded"], false);
    let record = d["record"].as_array().unwrap();
    assert_eq!(record.len(), 3);
    for i in 1..3 {
        assert_eq!(record[i]["entry"]["prev"], record[i - 1]["hash"], "chained");
        assert_eq!(record[i]["signer"], current.as_str());
    }
    assert_eq!(d["record_check"]["valid"], true, "{}", d["record_check"]);
    // Read back as stored, by the seat that opened it.
    let back = get(&app, &format!("/v1/disputes/{ws_id}"), &table.tokens[1]).await;
    assert_eq!(back["record"], d["record"]);
    assert_eq!(back["record_check"]["valid"], true);

    // Filters and pages.
    let only = |q: &str| format!("/v1/disputes?{q}");
    let n = |v: &Value| v["disputes"].as_array().unwrap().len();
    assert_eq!(n(&get(&app, &only("status=penalty"), &admin).await), 1);
    assert_eq!(n(&get(&app, &only("status=open"), &admin).await), 4);
    assert_eq!(
        n(&get(&app, &only("kind=action_not_mine"), &auditor).await),
        1
    );
    assert_eq!(
        n(&get(&app, &only(&format!("hand_id={hand}")), &admin).await),
        5
    );
    assert_eq!(
        n(&get(&app, &only(&format!("table_id={}", other_table.id)), &admin).await),
        0
    );
    let mut seen = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let q = match &cursor {
            Some(c) => format!("limit=2&cursor={c}"),
            None => "limit=2".into(),
        };
        let page = get(&app, &only(&q), &admin).await;
        for d in page["disputes"].as_array().unwrap() {
            seen.push(d["dispute_id"].as_str().unwrap().to_string());
        }
        match page["next_cursor"].as_str() {
            Some(c) => cursor = Some(c.to_string()),
            None => break,
        }
    }
    seen.sort();
    seen.dedup();
    assert_eq!(seen.len(), 5, "paging sees every dispute once");

    // The report, in English and Persian, as JSON and HTML.
    let report = format!("/v1/disputes/{ws_id}/report");
    let en = get(&app, &report, &table.tokens[1]).await;
    assert_eq!(en["format"], "persian-cards/dispute-report");
    assert_eq!(
        (en["lang"].clone(), en["dir"].clone()),
        (json!("en"), json!("ltr"))
    );
    assert_eq!(en["dispute"]["claim"], claim);
    assert_eq!(en["dispute"]["status"], "penalty");
    assert_eq!(en["rulings"].as_array().unwrap().len(), 2);
    assert_eq!(en["steps"].as_array().unwrap().len(), records.len());
    assert_eq!(en["findings"], d["findings"]);
    let lines = en["summary"].as_array().unwrap();
    assert!(lines
        .iter()
        .any(|l| l["finding"] == "claim" && l["ok"] == true));
    assert!(lines.iter().any(|l| l["finding"] == "log"
        && l["ok"] == true
        && l["text"]
            .as_str()
            .unwrap()
            .contains("Transparency log: the hand's last event is leaf")
        && l["text"]
            .as_str()
            .unwrap()
            .contains("The log's latest checkpoint extends that one.")));
    let fa = get(&app, &format!("{report}?lang=fa&format=json"), &admin).await;
    assert_eq!(
        (fa["lang"].clone(), fa["dir"].clone()),
        (json!("fa"), json!("rtl"))
    );
    assert!(
        fa["title"].as_str().unwrap().contains("گزارش اعتراض"),
        "{}",
        fa["title"]
    );
    assert_eq!(fa["dispute"]["status_label"], "جریمه");
    for (query, lang) in [("format=html", "en"), ("format=html&lang=fa", "fa")] {
        let r = app.get(&format!("{report}?{query}"), Some(&admin)).await;
        ok(&r, StatusCode::OK, query);
        assert!(
            r.content_type.starts_with("text/html"),
            "{}",
            r.content_type
        );
        assert!(
            !r.text.contains("<script>"),
            "the claim is escaped: {}",
            r.text
        );
        assert!(
            r.text
                .contains("&lt;script&gt;alert('x')&lt;/script&gt; the points"),
            "{query}"
        );
        assert!(r.text.contains("Hamid Rezaei"));
        assert!(r.text.contains("seat 1 showed his cards to his partner"));
        if lang == "fa" {
            assert!(
                r.text.contains(r#"<html lang="fa" dir="rtl">"#),
                "{}",
                &r.text[..200]
            );
            assert!(r.text.contains("دست، گام به گام"));
        } else {
            assert!(r.text.contains(r#"<html lang="en" dir="ltr">"#));
            assert!(r.text.contains("The hand, step by step"));
        }
    }
    let negotiated = app
        .http
        .get(format!("{}{report}", app.base))
        .bearer_auth(&admin)
        .header("Accept", "text/html,application/xhtml+xml")
        .send()
        .await
        .unwrap();
    assert!(negotiated
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|t| t.starts_with("text/html")));
    for q in ["lang=de", "format=pdf", "bogus=1"] {
        problem(
            &app.get(&format!("{report}?{q}"), Some(&admin)).await,
            StatusCode::BAD_REQUEST,
            "invalid_query",
        );
    }
    let anm_report = get(&app, &format!("/v1/disputes/{anm_id}/report"), &admin).await;
    let marked: Vec<&Value> = anm_report["steps"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["disputed"] == true)
        .collect();
    assert_eq!(marked.len(), 1);
    assert_eq!(marked[0]["seq"], seq_a);

    // The official's key revoked (admin only, once): it signs no further ruling; the
    // rulings it signed stand, and the record still checks.
    let key_id = official.public().key_id().0;
    let revoke = format!("/v1/officials/{key_id}/revocation");
    let why = json!({"reason": "the key was on a lost phone"});
    for token in [&table.tokens[0], &auditor] {
        problem(
            &app.post(&revoke, Some(token), why.clone()).await,
            StatusCode::FORBIDDEN,
            "forbidden",
        );
    }
    problem(
        &app.post(&revoke, Some(&other_admin), why.clone()).await,
        StatusCode::NOT_FOUND,
        "not_found",
    );
    problem(
        &app.post(
            &format!("/v1/officials/{}/revocation", stranger.public().key_id().0),
            Some(&admin),
            why.clone(),
        )
        .await,
        StatusCode::NOT_FOUND,
        "not_found",
    );
    let r = app
        .post_idem(&revoke, Some(&admin), why.clone(), "revoke-1")
        .await;
    ok(&r, StatusCode::CREATED, "revoke");
    assert_eq!(r.body["key_id"], key_id.as_str());
    assert_eq!(r.body["revoked"]["reason"], "the key was on a lost phone");
    let again = app
        .post_idem(&revoke, Some(&admin), why.clone(), "revoke-1")
        .await;
    ok(&again, StatusCode::CREATED, "the same revocation replayed");
    assert_eq!(again.body, r.body);
    problem(
        &app.post(&revoke, Some(&admin), why.clone()).await,
        StatusCode::CONFLICT,
        "revocation_exists",
    );
    let listed = get(&app, "/v1/officials", &auditor).await;
    assert_eq!(
        listed["officials"][0]["revoked"]["revoked_by"], r.body["revoked"]["revoked_by"],
        "{listed}"
    );
    let d = get(&app, &format!("/v1/disputes/{ws_id}"), &admin).await;
    let body = ruling(
        &club,
        &d,
        "upheld",
        None,
        "upheld after all",
        "Hamid Rezaei",
        &official,
    );
    problem(
        &app.post(&rulings, Some(&admin), body).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "official_revoked",
    );
    let d = get(&app, &format!("/v1/disputes/{ws_id}"), &admin).await;
    assert_eq!(d["record_check"]["valid"], true, "{d}");
    assert_eq!(d["status"], "penalty", "the rulings it signed stand");

    // The record is append-only in the database itself.
    for sql in [
        "UPDATE dispute_entries SET kind = 'ruling'",
        "DELETE FROM dispute_entries",
        "DELETE FROM officials",
        "DELETE FROM official_revocations",
    ] {
        assert!(refused(&env, &app, sql).await, "{sql} must be refused");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_dispute_lifecycle() {
    run(Store::Pg, lifecycle).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn embedded_dispute_lifecycle() {
    run(Store::Embedded, lifecycle).await;
}

/// A finished hand edited behind the service's back (one event's time): a `record_altered`
/// dispute still opens, and its findings name the event and the check; after the admin
/// quarantines the hand, it can still be disputed.
async fn altered_record(env: Env) {
    let app = TestApp::spawn(&env).await;
    let (_, admin) = app.create_club("Bam");
    let table = create_table(&app, &admin, 3).await;
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut ids = Vec::new();
    for _ in 0..2 {
        let h = start_hand(&app, &admin, &table).await;
        let id = h["hand_id"].as_str().unwrap().to_string();
        let done = play_to_end(&app, &admin, &id, &table.tokens, &mut rng).await;
        assert_eq!(done["status"], "completed", "{done}");
        ids.push(id);
    }
    let hand2 = &ids[1];
    let seq = 2;
    // The club log holds hand 2 as it was played; then its event 2 and its last event are
    // edited behind the service's back.
    crate::clublog::log_proof(&app, &admin, hand2).await;
    let b2 = app
        .get(&format!("/v1/hands/{hand2}/bundle"), Some(&admin))
        .await;
    ok(&b2, StatusCode::OK, "bundle of hand 2");
    let last = b2.body["records"].as_array().unwrap().len() - 1;
    behind_the_back(
        &env,
        &app,
        format!(
            "ALTER TABLE events DISABLE TRIGGER USER; \
             UPDATE events SET record = jsonb_set(record, '{{event,time_ms}}', '1') \
             WHERE hand_id = '{hand2}' AND seq IN ({seq}, {last}); \
             ALTER TABLE events ENABLE TRIGGER USER"
        ),
        format!(
            "DROP TRIGGER IF EXISTS events_no_update; \
             UPDATE events SET record = json_set(record, '$.event.time_ms', 1) \
             WHERE hand_id = '{hand2}' AND seq IN ({seq}, {last})"
        ),
    )
    .await;
    let open = format!("/v1/hands/{hand2}/disputes");
    let r = app
        .post(
            &open,
            Some(&table.tokens[0]),
            json!({"kind": "record_altered", "claim": "you changed the record of hand 2"}),
        )
        .await;
    ok(&r, StatusCode::CREATED, "a damaged hand is disputed");
    let f = &r.body["findings"];
    assert_eq!(
        f["claim"]["first_problem"],
        json!({"seq": seq, "rule": "hash"}),
        "{f}"
    );
    let e = &f["claim"]["events"][seq as usize];
    assert_eq!(
        (e["hash_ok"].clone(), e["signature_ok"].clone()),
        (json!(false), json!(true)),
        "{e}"
    );
    assert_eq!(
        f["stored_log"],
        json!({"intact": false, "seq": seq, "rule": "hash"}),
        "{f}"
    );
    assert_eq!(f["verdict"]["valid"], false, "{f}");
    assert_eq!(f["verdict"]["problem"]["event"], seq, "{f}");
    assert_eq!(f["verdict"]["problem"]["rule"], "hash", "{f}");
    // The log holds the last event as it was played, not as it is stored now.
    assert_eq!(f["log"]["status"], "not_included", "{f}");
    assert_eq!(f["log"]["seq"], last, "{f}");
    let id = r.body["dispute_id"].as_str().unwrap();
    let report = get(&app, &format!("/v1/disputes/{id}/report"), &admin).await;
    let claim_line = report["summary"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["finding"] == "claim")
        .cloned()
        .unwrap();
    assert_eq!(claim_line["ok"], false);
    let log_line = report["summary"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["finding"] == "log")
        .cloned()
        .unwrap();
    assert_eq!(log_line["ok"], false, "{log_line}");
    assert!(
        claim_line["text"]
            .as_str()
            .unwrap()
            .contains("event 2 fails the hash check"),
        "{claim_line}"
    );
    // Other kinds on the damaged hand: no 500, and the replay says where it stops.
    let r = app
        .post(
            &open,
            Some(&admin),
            json!({"kind": "wrong_score", "claim": "the score is wrong"}),
        )
        .await;
    ok(&r, StatusCode::CREATED, "wrong_score on a damaged hand");
    let c = &r.body["findings"]["claim"];
    assert_eq!(
        (c["replayed"].clone(), c["matches_log"].clone()),
        (json!(false), json!(false)),
        "{c}"
    );
    assert!(
        c["problem"].as_str().unwrap().contains("event 2"),
        "the replay stops at the edited event: {c}"
    );
    // Quarantined, it is still disputed.
    let q = app
        .post(
            &format!("/v1/hands/{hand2}/quarantine"),
            Some(&admin),
            json!({"reason": "the log was edited behind our back"}),
        )
        .await;
    ok(&q, StatusCode::OK, "quarantine");
    let r = app
        .post(
            &open,
            Some(&table.tokens[1]),
            json!({"kind": "unfair_deal", "claim": "the deal of hand 2 was rigged"}),
        )
        .await;
    ok(&r, StatusCode::CREATED, "a quarantined hand is disputed");
    assert_eq!(r.body["findings"]["hand"]["status"], "quarantined");
    assert_eq!(r.body["findings"]["stored_log"]["seq"], seq);
    // The first hand still verifies: its disputes find nothing wrong.
    let r = app
        .post(
            &format!("/v1/hands/{}/disputes", ids[0]),
            Some(&table.tokens[2]),
            json!({"kind": "record_altered", "claim": "hand 1 was changed"}),
        )
        .await;
    ok(&r, StatusCode::CREATED, "hand 1");
    assert!(
        r.body["findings"]["claim"]["first_problem"].is_null(),
        "{}",
        r.text
    );
    assert_eq!(
        r.body["findings"]["log"]["status"], "included",
        "{}",
        r.text
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_dispute_finds_an_altered_record() {
    run(Store::Pg, altered_record).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn embedded_dispute_finds_an_altered_record() {
    run(Store::Embedded, altered_record).await;
}
