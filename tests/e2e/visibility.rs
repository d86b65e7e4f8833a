//! Scenario 2: who may see what. While a hand runs, outsiders, other seats, another club's
//! admin and auditors see nothing they should not; no captured response body (errors
//! included) and no line of the service's log carries a server seed or a token; a seat's
//! view never carries another seat's face-down card.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::harness::{
    ok, problem, random_api_key, random_seat_token, replayer, revealed_seeds, run, verify_bundle,
    write_temp, Env, Store, TestApp,
};
use crate::play::{add_entropy, choose, create_table, legal, next, start_hand, Next, Rng};

/// A card's name `{shuffle, pos}` and its face.
type CardFace = (Value, Value);

/// Face-down cards of other owners in a view: (leaks, how many hidden entries were seen).
/// `me` is the viewing seat (None for the public view).
fn foreign_hidden(view: &Value, me: Option<u64>) -> (Vec<String>, usize) {
    let mut leaks = Vec::new();
    let mut seen = 0;
    let mut check = |what: String, card: &Value| {
        seen += 1;
        if card.get("face").is_some_and(|f| !f.is_null()) {
            leaks.push(format!("{what}: {card}"));
        }
    };
    for w in view["waiting"].as_array().into_iter().flatten() {
        if w["seat"].as_u64() != me {
            check(format!("waiting card of seat {}", w["seat"]), &w["card"]);
        }
    }
    if let Some(h) = view.get("hidden").filter(|h| !h.is_null()) {
        if view["banker"].as_u64().is_none() || view["banker"].as_u64() != me {
            check("the banker's hidden card".into(), &h["card"]);
        }
    }
    if let Some(d) = view.get("duel").filter(|d| !d.is_null()) {
        if d["player"].as_u64() != me {
            for c in d["cards"].as_array().into_iter().flatten() {
                if c["face_up"] == false {
                    check(format!("duel card of seat {}", d["player"]), c);
                }
            }
        }
    }
    (leaks, seen)
}

/// A seat's own face-down cards in its view all carry their face.
fn own_hidden_faces(view: &Value, me: u64) -> Vec<CardFace> {
    let mut own = Vec::new();
    for w in view["waiting"].as_array().into_iter().flatten() {
        if w["seat"].as_u64() == Some(me) {
            own.push((w["card"]["card"].clone(), w["card"]["face"].clone()));
        }
    }
    if let Some(d) = view.get("duel").filter(|d| !d.is_null()) {
        if d["player"].as_u64() == Some(me) {
            for c in d["cards"].as_array().into_iter().flatten() {
                if c["face_up"] == false {
                    own.push((c["card"].clone(), c["face"].clone()));
                }
            }
        }
    }
    own
}

/// Every card entry `{card: {shuffle, pos}, face}` in a view that carries a face.
fn faces_in(v: &Value, out: &mut Vec<CardFace>) {
    match v {
        Value::Object(m) => {
            if let (Some(card), Some(face)) = (m.get("card"), m.get("face")) {
                if card.get("pos").is_some() && !face.is_null() {
                    out.push((card.clone(), face.clone()));
                }
            }
            m.values().for_each(|x| faces_in(x, out));
        }
        Value::Array(a) => a.iter().for_each(|x| faces_in(x, out)),
        _ => {}
    }
}

async fn visibility(env: Env) {
    let app = TestApp::spawn(&env).await;
    let (club, admin) = app.create_club("Kish");
    let (_, other_admin) = app.create_club("Shiraz");
    let auditor_cli = app.add_auditor_cli(&club);
    let auditor_api = app.post("/v1/keys/auditor", Some(&admin), json!({})).await;
    ok(&auditor_api, StatusCode::CREATED, "auditor key");
    assert_eq!(auditor_api.body["role"], "auditor");
    let auditor_api = auditor_api.body["api_key"].as_str().unwrap().to_string();
    let auditors = [auditor_cli.clone(), auditor_api.clone()];

    let table = create_table(&app, &admin, 3).await;
    let other_table = create_table(&app, &admin, 2).await;
    let h = start_hand(&app, &admin, &table).await;
    let hand = h["hand_id"].as_str().unwrap().to_string();
    let oh = start_hand(&app, &admin, &other_table).await;
    let other_hand = oh["hand_id"].as_str().unwrap().to_string();
    let t = &table.id;

    let hand_paths = |hand: &str| {
        vec![
            format!("/v1/hands/{hand}"),
            format!("/v1/hands/{hand}/events"),
            format!("/v1/hands/{hand}/replay?step=0"),
            format!("/v1/hands/{hand}/legal-actions"),
            format!("/v1/hands/{hand}/bundle"),
        ]
    };

    // Outsiders: no token, a random token of either kind, a garbage header.
    for path in hand_paths(&hand).into_iter().chain([
        format!("/v1/tables/{t}"),
        format!("/v1/tables/{t}/scoreboard"),
    ]) {
        problem(
            &app.get(&path, None).await,
            StatusCode::UNAUTHORIZED,
            "unauthorized",
        );
        for tok in [random_api_key(), random_seat_token(), "garbage".to_string()] {
            problem(
                &app.get(&path, Some(&tok)).await,
                StatusCode::UNAUTHORIZED,
                "unauthorized",
            );
        }
        // Another club's admin: exactly like an id that does not exist.
        problem(
            &app.get(&path, Some(&other_admin)).await,
            StatusCode::NOT_FOUND,
            "not_found",
        );
    }
    // A running hand is 404 for auditors (every read of it, the bundle too).
    for a in &auditors {
        for path in hand_paths(&hand) {
            problem(
                &app.get(&path, Some(a)).await,
                StatusCode::NOT_FOUND,
                "not_found",
            );
        }
        let tb = app.get(&format!("/v1/tables/{t}"), Some(a)).await;
        ok(&tb, StatusCode::OK, "auditor reads the table");
        assert!(
            tb.body["current_hand"].is_null(),
            "current_hand is hidden from auditors: {}",
            tb.text
        );
        let hist = app.get("/v1/hands", Some(a)).await;
        ok(&hist, StatusCode::OK, "auditor history");
        assert!(
            hist.body["hands"].as_array().unwrap().is_empty(),
            "an auditor sees finished hands only: {}",
            hist.text
        );
        problem(
            &app.post(&format!("/v1/tables/{t}/hands"), Some(a), json!({}))
                .await,
            StatusCode::FORBIDDEN,
            "forbidden",
        );
    }
    // The bundle of a running hand is 409 for those who may read the hand.
    problem(
        &app.get(&format!("/v1/hands/{hand}/bundle"), Some(&admin))
            .await,
        StatusCode::CONFLICT,
        "hand_in_progress",
    );
    problem(
        &app.get(&format!("/v1/hands/{hand}/bundle"), Some(&table.tokens[0]))
            .await,
        StatusCode::CONFLICT,
        "hand_in_progress",
    );
    // A seat token: another table and its hands are 404; it may not write another
    // table's hand either.
    for path in hand_paths(&other_hand).into_iter().chain([
        format!("/v1/tables/{}", other_table.id),
        format!("/v1/tables/{}/scoreboard", other_table.id),
    ]) {
        problem(
            &app.get(&path, Some(&table.tokens[1])).await,
            StatusCode::NOT_FOUND,
            "not_found",
        );
    }
    problem(
        &app.post(
            &format!("/v1/hands/{other_hand}/actions"),
            Some(&table.tokens[0]),
            json!({"action": {"type": "accept_bank"}}),
        )
        .await,
        StatusCode::NOT_FOUND,
        "not_found",
    );
    let tables = app.get("/v1/tables", Some(&table.tokens[1])).await;
    ok(&tables, StatusCode::OK, "a seat lists its tables");
    let ids: Vec<&str> = tables.body["tables"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|x| x["table_id"].as_str())
        .collect();
    assert_eq!(ids, vec![t.as_str()], "a seat sees its own table only");
    for tbl in tables.body["tables"].as_array().unwrap() {
        for s in tbl["seats"].as_array().into_iter().flatten() {
            assert!(s.get("token").is_none(), "no tokens in a listing");
        }
    }

    // Another seat may not act for the candidate (the token acts as its own seat).
    let candidate = h["to_act"]["actors"][0]["seat"].as_u64().unwrap() as usize;
    let intruder = (candidate + 1) % 3;
    let r = app
        .post(
            &format!("/v1/hands/{hand}/actions"),
            Some(&table.tokens[intruder]),
            json!({"action": {"type": "accept_bank"}}),
        )
        .await;
    problem(&r, StatusCode::UNPROCESSABLE_ENTITY, "illegal_action");
    assert!(
        ["WrongActor", "WrongPhase"].contains(&r.body["rule"].as_str().unwrap_or("")),
        "{}",
        r.text
    );
    let seat_legal = app
        .get(
            &format!("/v1/hands/{hand}/legal-actions"),
            Some(&table.tokens[intruder]),
        )
        .await;
    ok(
        &seat_legal,
        StatusCode::OK,
        "legal actions of a seat not to act",
    );
    assert_eq!(seat_legal.body["actor"]["seat"], intruder);
    assert_eq!(
        seat_legal.body["legal_actions"],
        json!([]),
        "{}",
        seat_legal.text
    );

    // Play, looking at the table through every seat and the admin at each step.
    let mut rng = Rng(0x5151_7a7a_0101_f00d);
    let mut foreign_seen = 0;
    let mut own_seen = 0;
    // (seq of the moment, seat, its own face-down cards with faces as it saw them)
    let mut own_views: Vec<(u64, u64, Vec<CardFace>)> = Vec::new();
    let mut steps = 0;
    let mut mark = 0;
    loop {
        steps += 1;
        assert!(steps < 3000, "the hand did not end");
        let hv = app.get(&format!("/v1/hands/{hand}"), Some(&admin)).await;
        ok(&hv, StatusCode::OK, "admin view");
        if hv.body["status"] != "in_progress" {
            break;
        }
        assert_eq!(hv.body["viewer"], "public");
        let (leaks, seen) = foreign_hidden(&hv.body["view"], None);
        assert!(leaks.is_empty(), "the admin's public view shows {leaks:?}");
        foreign_seen += seen;
        let seq = hv.body["next_seq"].as_u64().unwrap();
        for (i, tok) in table.tokens.iter().enumerate() {
            let me = i as u64;
            let v = app.get(&format!("/v1/hands/{hand}"), Some(tok)).await;
            ok(&v, StatusCode::OK, "seat view");
            assert_eq!(v.body["viewer"], "seat");
            let (leaks, seen) = foreign_hidden(&v.body["view"], Some(me));
            assert!(leaks.is_empty(), "seat {i}'s view shows {leaks:?}");
            foreign_seen += seen;
            let own = own_hidden_faces(&v.body["view"], me);
            for (card, face) in &own {
                assert!(!face.is_null(), "seat {i} sees its own card {card}");
            }
            own_seen += own.len();
            if !own.is_empty() {
                own_views.push((seq - 1, me, own));
            }
            let rp = app
                .get(
                    &format!("/v1/hands/{hand}/replay?step={}", seq - 1),
                    Some(tok),
                )
                .await;
            ok(&rp, StatusCode::OK, "seat replay");
            let (leaks, _) = foreign_hidden(&rp.body["view"], Some(me));
            assert!(leaks.is_empty(), "seat {i}'s replay shows {leaks:?}");
            ok(
                &app.get(&format!("/v1/hands/{hand}/events?from=0"), Some(tok))
                    .await,
                StatusCode::OK,
                "seat events",
            );
            ok(
                &app.get(&format!("/v1/hands/{hand}/legal-actions"), Some(tok))
                    .await,
                StatusCode::OK,
                "seat legal actions",
            );
        }
        match next(&app, &admin, &hand).await {
            Next::Over(_) => break,
            Next::Shuffle => add_entropy(&app, &admin, &hand, &table.tokens).await,
            Next::Seat(seat) => {
                // Bad requests mid-hand: their error bodies are captured too.
                let other = (seat + 1) % 3;
                let r = app
                    .post(
                        &format!("/v1/hands/{hand}/actions"),
                        Some(&table.tokens[other]),
                        json!({"action": {"type": "stand"}}),
                    )
                    .await;
                assert!(r.status.is_client_error(), "{}", r.text);
                let (seq, actions) = legal(&app, &hand, &table.tokens[seat]).await;
                let action = choose(&actions, &mut rng);
                // Everything captured before this action is from the running hand
                // (the action that ends it rightly carries the revealed seeds).
                mark = app.captured.lock().unwrap().len();
                let r = app
                    .post(
                        &format!("/v1/hands/{hand}/actions"),
                        Some(&table.tokens[seat]),
                        json!({"action": action, "expected_seq": seq}),
                    )
                    .await;
                ok(&r, StatusCode::OK, "action");
            }
        }
    }
    assert!(
        foreign_seen > 0,
        "no moment with another seat's face-down card was observed: the check proved nothing"
    );
    assert!(own_seen > 0, "no seat ever held a face-down card");
    let during = app.captured()[..mark].to_vec();
    assert!(during.len() > 100, "the hand's responses were captured");

    // The hand is over: the seeds are public now.
    let bundle = verify_bundle(&app, &admin, &hand).await;
    let seeds = revealed_seeds(&bundle);
    for c in &during {
        for s in &seeds {
            assert!(
                !c.body.contains(s.as_str()),
                "{} {} ({}) carried server seed {s} before the end: {}",
                c.method,
                c.path,
                c.status,
                c.body
            );
        }
    }

    // The true faces, from the `replayer replay` command: what each seat saw of its
    // own face-down cards was the truth.
    let file = write_temp(&bundle);
    let path = file.path().display().to_string();
    let mut checked = 0;
    for (step, seat, own) in own_views.iter().take(6) {
        let (code, out, err) = replayer(&["replay", &path, "--step", &step.to_string(), "--json"]);
        assert_eq!(code, 0, "replayer replay: {err}");
        let v: Value = serde_json::from_str(&out).expect("replay --json");
        let mut faces = Vec::new();
        faces_in(&v, &mut faces);
        for (card, face) in own {
            let truth = faces.iter().find(|(c, _)| c == card).map(|(_, f)| f);
            assert_eq!(
                truth,
                Some(face),
                "seat {seat}'s card {card} at step {step}: replayer says {truth:?}"
            );
            checked += 1;
        }
    }
    assert!(checked > 0);

    // Finished: auditors read everything; another club still nothing.
    for a in &auditors {
        for path in hand_paths(&hand)
            .into_iter()
            .filter(|p| !p.ends_with("legal-actions"))
        {
            ok(&app.get(&path, Some(a)).await, StatusCode::OK, &path);
        }
        let hv = app.get(&format!("/v1/hands/{hand}"), Some(a)).await;
        assert_eq!(hv.body["viewer"], "all");
        problem(
            &app.post(
                &format!("/v1/hands/{hand}/abandon"),
                Some(a),
                json!({"reason": "x"}),
            )
            .await,
            StatusCode::FORBIDDEN,
            "forbidden",
        );
    }
    for path in hand_paths(&hand) {
        problem(
            &app.get(&path, Some(&other_admin)).await,
            StatusCode::NOT_FOUND,
            "not_found",
        );
    }
    ok(
        &app.get(&format!("/v1/hands/{hand}/bundle"), Some(&table.tokens[0]))
            .await,
        StatusCode::OK,
        "a seat reads its finished hand's bundle",
    );

    // The log: no seed, no token, no secret.
    let log = app.log();
    assert!(!log.is_empty(), "the service logs at info");
    let mut secrets: Vec<String> = seeds.clone();
    for tok in [&admin, &other_admin, &auditor_cli, &auditor_api]
        .into_iter()
        .chain(table.tokens.iter())
        .chain(other_table.tokens.iter())
    {
        secrets.push(tok.clone());
        secrets.push(tok.rsplit('_').next().unwrap().to_string());
    }
    for s in &secrets {
        assert!(!log.contains(s.as_str()), "the service log carries {s}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_visibility() {
    run(Store::Pg, visibility).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn embedded_visibility() {
    run(Store::Embedded, visibility).await;
}
