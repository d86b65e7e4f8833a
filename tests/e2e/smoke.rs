//! Smoke test of the real `audit-service` binary over HTTP, once on a fresh PostgreSQL
//! database and once on the embedded store: a club made through the CLI, a 3-seat
//! bist-o-yek table, one complete hand played by asking each seat's legal actions, its
//! bundle verified offline against the key the service publishes, player signatures,
//! and a few refusals.

use replayer::engine::{Actor, SeatIndex};
use replayer::log::{action_message, PublicKey, SigningKeyPair};
use replayer::verify::{verify_value, Options, Trust};
use reqwest::{Method, StatusCode};
use serde_json::json;

use crate::harness::{ok, problem, run, Env, Store, TestApp};
use crate::play::{play_to_end, Rng};

async fn smoke(env: Env) {
    let app = TestApp::spawn(&env).await;
    let (_, admin) = app.create_club("Kish");

    // Liveness, readiness, the keys, the API description.
    ok(&app.get("/healthz", None).await, StatusCode::OK, "healthz");
    ok(&app.get("/readyz", None).await, StatusCode::OK, "readyz");
    let keys = app.get("/v1/keys", None).await;
    ok(&keys, StatusCode::OK, "keys");
    let current = keys.body["current"].as_str().unwrap().to_string();
    let service_key = keys.body["keys"]
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["key_id"] == current.as_str())
        .map(|k| PublicKey::from_hex(k["public_key"].as_str().unwrap()).unwrap())
        .expect("the current key is listed");
    let spec = app.get("/v1/openapi.json", None).await;
    ok(&spec, StatusCode::OK, "openapi");
    assert!(spec.body["paths"]["/v1/hands/{hand_id}/actions"].is_object());

    // A 3-seat bist-o-yek table; its seat tokens are in this answer only.
    let create = json!({
        "game": "bist-o-yek",
        "seats": [{"player": "Dariush"}, {"player": "Shirin"}, {"player": "Babak"}],
    });
    let table = app
        .call(
            Method::POST,
            "/v1/tables",
            Some(&admin),
            Some(serde_json::to_vec(&create).unwrap()),
            Some("table-1"),
        )
        .await;
    ok(&table, StatusCode::CREATED, "create table");
    let table_id = table.body["table_id"].as_str().unwrap().to_string();
    assert!(table.body["rules"]
        .as_object()
        .is_some_and(|r| !r.is_empty()));
    let tokens: Vec<String> = table.body["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["token"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(tokens.len(), 3);

    // The same Idempotency-Key and body: the first answer again; another body: refused.
    let again = app
        .call(
            Method::POST,
            "/v1/tables",
            Some(&admin),
            Some(serde_json::to_vec(&create).unwrap()),
            Some("table-1"),
        )
        .await;
    ok(&again, StatusCode::CREATED, "idempotent replay");
    assert_eq!(again.body, table.body);
    let other = app
        .call(
            Method::POST,
            "/v1/tables",
            Some(&admin),
            Some(
                br#"{"game": "bist-o-yek", "seats": [{"player": "a"}, {"player": "b"}]}"#.to_vec(),
            ),
            Some("table-1"),
        )
        .await;
    problem(
        &other,
        StatusCode::UNPROCESSABLE_ENTITY,
        "idempotency_key_reused",
    );
    let tables = app.get("/v1/tables", Some(&admin)).await;
    assert_eq!(tables.body["tables"].as_array().unwrap().len(), 1);
    let t = app
        .get(&format!("/v1/tables/{table_id}"), Some(&admin))
        .await;
    ok(&t, StatusCode::OK, "get table");
    assert!(
        t.body["seats"][0].get("token").is_none(),
        "no tokens after creation"
    );

    // Play one complete hand.
    let started = app
        .post(
            &format!("/v1/tables/{table_id}/hands"),
            Some(&admin),
            json!({}),
        )
        .await;
    ok(&started, StatusCode::CREATED, "start hand");
    let hand = started.body["hand_id"].as_str().unwrap().to_string();
    assert_eq!(started.body["commitment"].as_str().unwrap().len(), 64);
    problem(
        &app.post(
            &format!("/v1/tables/{table_id}/hands"),
            Some(&admin),
            json!({}),
        )
        .await,
        StatusCode::CONFLICT,
        "hand_in_progress",
    );
    problem(
        &app.get(&format!("/v1/hands/{hand}/bundle"), Some(&admin))
            .await,
        StatusCode::CONFLICT,
        "hand_in_progress",
    );
    // A seat sees its own view; no seed is published while the hand runs.
    let seat_view = app
        .get(&format!("/v1/hands/{hand}"), Some(&tokens[0]))
        .await;
    ok(&seat_view, StatusCode::OK, "seat view");
    assert_eq!(seat_view.body["viewer"], "seat");

    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    play_to_end(&app, &admin, &hand, &tokens, &mut rng).await;

    let done = app.get(&format!("/v1/hands/{hand}"), Some(&admin)).await;
    assert_eq!(done.body["status"], "completed", "{}", done.body);
    assert_eq!(done.body["viewer"], "all");
    let events = app
        .get(&format!("/v1/hands/{hand}/events?limit=1000"), Some(&admin))
        .await;
    ok(&events, StatusCode::OK, "events");
    let n = events.body["events"].as_array().unwrap().len();
    let last = events.body["events"][n - 1]["event"]["body"]["type"].clone();
    assert_eq!(last, "seeds_revealed");
    let replay = app
        .get(&format!("/v1/hands/{hand}/replay?step=1"), Some(&tokens[1]))
        .await;
    ok(&replay, StatusCode::OK, "replay");
    assert_eq!(replay.body["step"], 1);

    // The bundle verifies offline against the key the service publishes, and online.
    let bundle = app
        .get(&format!("/v1/hands/{hand}/bundle"), Some(&admin))
        .await;
    ok(&bundle, StatusCode::OK, "bundle");
    let verdict = verify_value(
        bundle.body.clone(),
        &Options {
            trusted_keys: vec![service_key],
        },
    )
    .expect("a readable bundle");
    assert!(verdict.valid, "{:?}", verdict.problem);
    assert_eq!(verdict.trust, Trust::TrustedKey);
    let online = app.post("/v1/verify", None, bundle.body.clone()).await;
    ok(&online, StatusCode::OK, "verify");
    assert_eq!(online.body["valid"], true);
    problem(
        &app.post("/v1/verify", None, json!({"format": "nope"}))
            .await,
        StatusCode::BAD_REQUEST,
        "bundle_unreadable",
    );

    // The match moved on; the history and scoreboard show the hand.
    let board = app
        .get(&format!("/v1/tables/{table_id}/scoreboard"), Some(&admin))
        .await;
    ok(&board, StatusCode::OK, "scoreboard");
    assert_eq!(board.body["hands_played"], 1);
    let history = app.get("/v1/hands?status=completed", Some(&admin)).await;
    ok(&history, StatusCode::OK, "history");
    assert_eq!(history.body["hands"][0]["hand_id"], hand.as_str());

    // Refusals.
    problem(
        &app.get("/v1/tables", None).await,
        StatusCode::UNAUTHORIZED,
        "unauthorized",
    );
    problem(
        &app.call(
            Method::POST,
            "/v1/tables",
            Some(&admin),
            Some(b"{not json".to_vec()),
            None,
        )
        .await,
        StatusCode::BAD_REQUEST,
        "invalid_json",
    );
    // A NUL in an id or a query reaches no database (PostgreSQL text refuses it).
    problem(
        &app.get("/v1/hands/%00", Some(&admin)).await,
        StatusCode::NOT_FOUND,
        "not_found",
    );
    problem(
        &app.get("/v1/hands?player=%00", Some(&admin)).await,
        StatusCode::BAD_REQUEST,
        "invalid_query",
    );
    problem(
        &app.post("/v1/tables", Some(&tokens[0]), create.clone())
            .await,
        StatusCode::FORBIDDEN,
        "forbidden",
    );
    let second = app
        .post(
            &format!("/v1/tables/{table_id}/hands"),
            Some(&admin),
            json!({}),
        )
        .await;
    ok(&second, StatusCode::CREATED, "second hand");
    let hand2 = second.body["hand_id"].as_str().unwrap().to_string();
    let candidate = second.body["to_act"]["actors"][0]["seat"].as_u64().unwrap() as usize;
    let other_seat = (candidate + 1) % 3;
    let illegal = app
        .post(
            &format!("/v1/hands/{hand2}/actions"),
            Some(&tokens[other_seat]),
            json!({"action": {"type": "accept_bank"}}),
        )
        .await;
    problem(&illegal, StatusCode::UNPROCESSABLE_ENTITY, "illegal_action");
    assert!(illegal.body["rule"].as_str().is_some_and(|r| !r.is_empty()));
    assert!(illegal.body["section"].is_string());
    problem(
        &app.post(
            &format!("/v1/hands/{hand2}/actions"),
            Some(&tokens[candidate]),
            json!({"action": {"type": "accept_bank"}, "expected_seq": 999}),
        )
        .await,
        StatusCode::CONFLICT,
        "seq_conflict",
    );
    let auditor = app.post("/v1/keys/auditor", Some(&admin), json!({})).await;
    ok(&auditor, StatusCode::CREATED, "auditor key");
    let auditor = auditor.body["api_key"].as_str().unwrap().to_string();
    problem(
        &app.get(&format!("/v1/hands/{hand2}"), Some(&auditor)).await,
        StatusCode::NOT_FOUND,
        "not_found",
    );
    ok(
        &app.get(&format!("/v1/hands/{hand}/bundle"), Some(&auditor))
            .await,
        StatusCode::OK,
        "auditor reads a finished hand",
    );

    // A player who registered a key signs their own action; a bad signature is refused.
    player_signatures(&app, &admin).await;

    // Another club sees nothing of this one.
    let (_, other_admin) = app.create_club("Shiraz");
    for path in [
        format!("/v1/hands/{hand}"),
        format!("/v1/hands/{hand}/bundle"),
        format!("/v1/tables/{table_id}"),
    ] {
        problem(
            &app.get(&path, Some(&other_admin)).await,
            StatusCode::NOT_FOUND,
            "not_found",
        );
    }
    let abandon = app
        .post(
            &format!("/v1/hands/{hand2}/abandon"),
            Some(&other_admin),
            json!({"reason": "not yours"}),
        )
        .await;
    problem(&abandon, StatusCode::NOT_FOUND, "not_found");
    let metrics = app
        .http
        .get(format!("{}/metrics", app.base))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(metrics.contains("http_requests_total"));
    assert!(metrics.contains("store_append_seconds"));
}

async fn player_signatures(app: &TestApp, admin: &str) {
    let player = SigningKeyPair::from_secret([7; 32]);
    let table = app
        .post(
            "/v1/tables",
            Some(admin),
            json!({
                "game": "bist-o-yek",
                "seats": [{"player": "Roya", "public_key": player.public().to_hex()}, {"player": "Kaveh"}],
                "client_entropy": false,
            }),
        )
        .await;
    ok(&table, StatusCode::CREATED, "table with a player key");
    let table_id = table.body["table_id"].as_str().unwrap();
    let token = table.body["seats"][0]["token"]
        .as_str()
        .unwrap()
        .to_string();
    let started = app
        .post(
            &format!("/v1/tables/{table_id}/hands"),
            Some(admin),
            json!({}),
        )
        .await;
    ok(&started, StatusCode::CREATED, "start");
    let hand = started.body["hand_id"].as_str().unwrap().to_string();
    let seq = started.body["next_seq"].as_u64().unwrap();
    let head = replayer::log::Hash::from_hex(started.body["head"].as_str().unwrap()).unwrap();
    let action = json!({"type": "accept_bank"});
    let actor = Actor::Seat(SeatIndex(0));
    let sign = |seq: u64| {
        let msg = action_message(&hand, seq, &head, actor, &action).unwrap();
        json!({"key_id": player.key_id().0, "sig": player.sign(&msg).to_hex()})
    };
    let path = format!("/v1/hands/{hand}/actions");
    problem(
        &app.post(
            &path,
            Some(&token),
            json!({"action": action, "player_sig": sign(seq)}),
        )
        .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "expected_seq_required",
    );
    problem(
        &app.post(
            &path,
            Some(&token),
            json!({"action": action, "expected_seq": seq, "player_sig": sign(seq + 1)}),
        )
        .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "bad_player_signature",
    );
    let signed = app
        .post(
            &path,
            Some(&token),
            json!({"action": action, "expected_seq": seq, "player_sig": sign(seq)}),
        )
        .await;
    ok(&signed, StatusCode::OK, "signed action");
    assert_eq!(
        signed.body["events"][0]["event"]["player_sig"]["key_id"],
        player.key_id().0.as_str()
    );
    // Without client entropy the new turn's shuffle is used at once.
    let types: Vec<&str> = signed.body["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["event"]["body"]["type"].as_str())
        .collect();
    assert!(types.contains(&"shuffled"), "{types:?}");
    let abandoned = app
        .post(
            &format!("/v1/hands/{hand}/abandon"),
            Some(admin),
            json!({"reason": "test over"}),
        )
        .await;
    ok(&abandoned, StatusCode::OK, "abandon");
    assert_eq!(abandoned.body["status"], "abandoned");
    let bundle = app
        .get(&format!("/v1/hands/{hand}/bundle"), Some(admin))
        .await;
    let verdict = verify_value(bundle.body, &Options::default()).expect("readable");
    assert!(verdict.valid, "{:?}", verdict.problem);
    assert_eq!(verdict.player_signatures, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_plays_a_hand_and_its_bundle_verifies() {
    run(Store::Pg, smoke).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn embedded_store_plays_a_hand_and_its_bundle_verifies() {
    run(Store::Embedded, smoke).await;
}
