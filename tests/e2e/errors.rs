//! Scenario 3: bad requests. Illegal actions, out-of-turn actions, malformed JSON, wrong
//! types, unknown ids, wrong tokens, oversized bodies: each is the documented 4xx as a
//! problem document, and none of them changes the hand (its `next_seq` and event count
//! are the same afterwards).

use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::harness::{
    hand_state, ok, problem_at, random_api_key, random_seat_token, run, verify_bundle, Env, Res,
    Store, TestApp,
};
use crate::play::{create_table, legal, next, play_to_end, start_hand, step, Next, Rng};

struct Probe<'a> {
    app: &'a TestApp,
    admin: &'a str,
    hand: &'a str,
    before: (u64, usize),
}

impl Probe<'_> {
    /// Asserts the problem, and that the hand did not change.
    async fn refused(&self, what: &str, r: Res, status: StatusCode, code: &str) -> Res {
        problem_at(&r, status, code, what);
        let after = hand_state(self.app, self.admin, self.hand).await;
        assert_eq!(after, self.before, "{what} changed the hand");
        r
    }
}

async fn errors(env: Env) {
    let app = TestApp::spawn(&env).await;
    let (club, admin) = app.create_club("Kish");
    let auditor = app.add_auditor_cli(&club);
    let table = create_table(&app, &admin, 3).await;
    let h = start_hand(&app, &admin, &table).await;
    let hand = h["hand_id"].as_str().unwrap().to_string();
    let tokens = &table.tokens;
    let actions = format!("/v1/hands/{hand}/actions");

    // Bank offer: a seat other than the candidate, and the candidate with a wrong action.
    let before = hand_state(&app, &admin, &hand).await;
    let p = Probe {
        app: &app,
        admin: &admin,
        hand: &hand,
        before,
    };
    let candidate = h["to_act"]["actors"][0]["seat"].as_u64().unwrap() as usize;
    let r = p
        .refused(
            "accept_bank out of turn",
            app.post(
                &actions,
                Some(&tokens[(candidate + 1) % 3]),
                json!({"action": {"type": "accept_bank"}}),
            )
            .await,
            StatusCode::UNPROCESSABLE_ENTITY,
            "illegal_action",
        )
        .await;
    assert_eq!(r.body["rule"], "WrongActor", "{}", r.text);
    assert!(r.body["section"]
        .as_str()
        .is_some_and(|s| s.starts_with("bist-o-yek")));
    let r = p
        .refused(
            "stand while the bank is offered",
            app.post(
                &actions,
                Some(&tokens[candidate]),
                json!({"action": {"type": "stand"}}),
            )
            .await,
            StatusCode::UNPROCESSABLE_ENTITY,
            "illegal_action",
        )
        .await;
    assert_eq!(r.body["rule"], "WrongPhase", "{}", r.text);

    // Play until a seat may bet.
    let mut rng = Rng(0xfeed_beef_1234_5678);
    let (bettor, seq, bet) = loop {
        if let Next::Seat(seat) = next(&app, &admin, &hand).await {
            let (seq, acts) = legal(&app, &hand, &tokens[seat]).await;
            if let Some(b) = acts.iter().find(|a| a["type"] == "bet") {
                break (seat, seq, b.clone());
            }
        }
        assert!(
            step(&app, &admin, &hand, tokens, &mut rng).await.is_none(),
            "the hand ended before any bet"
        );
    };
    let (min, max) = (bet["min"].as_u64().unwrap(), bet["max"].as_u64().unwrap());
    assert!(min >= 1 && min <= max, "{bet}");
    let before = hand_state(&app, &admin, &hand).await;
    assert_eq!(before.0, seq);
    let p = Probe {
        app: &app,
        admin: &admin,
        hand: &hand,
        before,
    };
    let me = Some(tokens[bettor].as_str());
    let other = Some(tokens[(bettor + 1) % 3].as_str());

    // Illegal actions.
    let r = p
        .refused(
            "bet below the minimum",
            app.post(
                &actions,
                me,
                json!({"action": {"type": "bet", "amount": min - 1}, "expected_seq": seq}),
            )
            .await,
            StatusCode::UNPROCESSABLE_ENTITY,
            "illegal_action",
        )
        .await;
    assert_eq!(r.body["rule"], "BetBelowMin", "{}", r.text);
    assert!(r.body["section"].is_string() && r.body["detail"].is_string());
    p.refused(
        "bet above the maximum",
        app.post(
            &actions,
            me,
            json!({"action": {"type": "bet", "amount": max + 1}}),
        )
        .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "illegal_action",
    )
    .await;
    let r = p
        .refused(
            "a bet out of turn",
            app.post(
                &actions,
                other,
                json!({"action": {"type": "bet", "amount": min}}),
            )
            .await,
            StatusCode::UNPROCESSABLE_ENTITY,
            "illegal_action",
        )
        .await;
    assert_eq!(r.body["rule"], "WrongActor", "{}", r.text);
    p.refused(
        "banker_stand by a player",
        app.post(&actions, me, json!({"action": {"type": "banker_stand"}}))
            .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "illegal_action",
    )
    .await;
    let r = p
        .refused(
            "a stale expected_seq",
            app.post(
                &actions,
                me,
                json!({"action": {"type": "bet", "amount": min}, "expected_seq": seq - 1}),
            )
            .await,
            StatusCode::CONFLICT,
            "seq_conflict",
        )
        .await;
    assert_eq!(r.body["next_seq"], seq, "{}", r.text);
    p.refused(
        "a future expected_seq",
        app.post(
            &actions,
            me,
            json!({"action": {"type": "bet", "amount": min}, "expected_seq": seq + 5}),
        )
        .await,
        StatusCode::CONFLICT,
        "seq_conflict",
    )
    .await;
    p.refused(
        "deal with no shuffle pending",
        app.post(&format!("/v1/hands/{hand}/deal"), Some(&admin), json!({}))
            .await,
        StatusCode::CONFLICT,
        "no_shuffle_pending",
    )
    .await;
    p.refused(
        "a client seed that is not hex",
        app.post(
            &format!("/v1/hands/{hand}/entropy"),
            me,
            json!({"seed": "not hex!"}),
        )
        .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "invalid_seed",
    )
    .await;

    // Malformed bodies and wrong types.
    let bad_bodies: Vec<(&str, Vec<u8>)> = vec![
        ("not JSON", b"{not json".to_vec()),
        (
            "truncated JSON",
            br#"{"action": {"type": "bet", "amount": 1"#.to_vec(),
        ),
        ("a JSON array", b"[]".to_vec()),
        ("a JSON string", br#""bet""#.to_vec()),
        ("no action", b"{}".to_vec()),
        (
            "fractional amount",
            br#"{"action": {"type": "bet", "amount": 100.5}}"#.to_vec(),
        ),
        (
            "huge amount",
            br#"{"action": {"type": "bet", "amount": 1e300}}"#.to_vec(),
        ),
        (
            "expected_seq as a string",
            format!(r#"{{"action": {{"type": "bet", "amount": {min}}}, "expected_seq": "{seq}"}}"#)
                .into_bytes(),
        ),
        (
            "an unknown member",
            format!(r#"{{"action": {{"type": "bet", "amount": {min}}}, "extra": 1}}"#).into_bytes(),
        ),
        ("invalid UTF-8", b"{\"action\": \"\xff\xfe\"}".to_vec()),
    ];
    for (what, body) in bad_bodies {
        p.refused(
            what,
            app.post_raw(&actions, me, body).await,
            StatusCode::BAD_REQUEST,
            "invalid_json",
        )
        .await;
    }
    // An `action` member that is JSON of the right envelope but not an action of the
    // game is the engine's refusal: 422 illegal_action, rule BadAction (observed; the
    // error table in docs/API.md lists "wrong type" under 400 invalid_json, which the
    // service applies to the request envelope only).
    let not_actions: Vec<(&str, Value)> = vec![
        (
            "amount as a string",
            json!({"action": {"type": "bet", "amount": min.to_string()}}),
        ),
        (
            "negative amount",
            json!({"action": {"type": "bet", "amount": -100}}),
        ),
        ("action as a string", json!({"action": "bet"})),
        ("no action type", json!({"action": {"amount": 100}})),
        (
            "an unknown action type",
            json!({"action": {"type": "fold"}}),
        ),
    ];
    for (what, body) in not_actions {
        let r = p
            .refused(
                what,
                app.post(&actions, me, body).await,
                StatusCode::UNPROCESSABLE_ENTITY,
                "illegal_action",
            )
            .await;
        assert_eq!(r.body["rule"], "BadAction", "{what}: {}", r.text);
    }

    // Oversized bodies: > 64 KiB.
    let pad = "x".repeat(70 * 1024);
    p.refused(
        "a 70 KiB action",
        app.post(
            &actions,
            me,
            json!({"action": {"type": "bet", "amount": min}, "pad": pad}),
        )
        .await,
        StatusCode::PAYLOAD_TOO_LARGE,
        "payload_too_large",
    )
    .await;
    p.refused(
        "a 70 KiB table",
        app.post(
            "/v1/tables",
            Some(&admin),
            json!({"game": "bist-o-yek", "seats": [{"player": pad}, {"player": "b"}]}),
        )
        .await,
        StatusCode::PAYLOAD_TOO_LARGE,
        "payload_too_large",
    )
    .await;

    // Unknown ids, routes, methods, queries.
    let nope = "h_00000000000000000000000000000000";
    for (what, r) in [
        (
            "an action on an unknown hand",
            app.post(
                &format!("/v1/hands/{nope}/actions"),
                Some(&admin),
                json!({"action": {"type": "end_match"}}),
            )
            .await,
        ),
        (
            "an unknown hand",
            app.get(&format!("/v1/hands/{nope}"), Some(&admin)).await,
        ),
        (
            "events of an unknown hand",
            app.get(&format!("/v1/hands/{nope}/events"), Some(&admin))
                .await,
        ),
        (
            "an unknown table",
            app.get("/v1/tables/t_nope", Some(&admin)).await,
        ),
        (
            "a hand on an unknown table",
            app.post("/v1/tables/t_nope/hands", Some(&admin), json!({}))
                .await,
        ),
        (
            "an unknown route",
            app.get("/v1/nothing", Some(&admin)).await,
        ),
    ] {
        p.refused(what, r, StatusCode::NOT_FOUND, "not_found").await;
    }
    p.refused(
        "DELETE a hand",
        app.call(
            Method::DELETE,
            &format!("/v1/hands/{hand}"),
            Some(&admin),
            None,
            None,
        )
        .await,
        StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
    )
    .await;
    for q in ["limit=0", "limit=1001", "from=-1", "bogus=1", "limit=abc"] {
        p.refused(
            q,
            app.get(&format!("/v1/hands/{hand}/events?{q}"), Some(&admin))
                .await,
            StatusCode::BAD_REQUEST,
            "invalid_query",
        )
        .await;
    }
    p.refused(
        "a replay step past the end",
        app.get(
            &format!("/v1/hands/{hand}/replay?step=100000"),
            Some(&admin),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "invalid_query",
    )
    .await;
    p.refused(
        "a bad history cursor",
        app.get("/v1/hands?cursor=not-a-cursor", Some(&admin)).await,
        StatusCode::BAD_REQUEST,
        "invalid_query",
    )
    .await;

    // Wrong tokens and roles.
    let body = json!({"action": {"type": "bet", "amount": min}, "expected_seq": seq});
    let wrong_secret = {
        let mut t = tokens[bettor].clone();
        let last = t.pop().unwrap();
        t.push(if last == '0' { '1' } else { '0' });
        t
    };
    for (what, tok) in [
        ("no token", None),
        ("a random seat token", Some(random_seat_token())),
        ("a random API key", Some(random_api_key())),
        ("the seat's token with a wrong secret", Some(wrong_secret)),
        ("a malformed token", Some("st_zz".to_string())),
    ] {
        p.refused(
            what,
            app.post(&actions, tok.as_deref(), body.clone()).await,
            StatusCode::UNAUTHORIZED,
            "unauthorized",
        )
        .await;
    }
    p.refused(
        "an auditor acting",
        app.post(&actions, Some(&auditor), body.clone()).await,
        StatusCode::FORBIDDEN,
        "forbidden",
    )
    .await;
    p.refused(
        "a seat abandoning",
        app.post(
            &format!("/v1/hands/{hand}/abandon"),
            me,
            json!({"reason": "bored"}),
        )
        .await,
        StatusCode::FORBIDDEN,
        "forbidden",
    )
    .await;
    p.refused(
        "the admin adding a client seed",
        app.post(
            &format!("/v1/hands/{hand}/entropy"),
            Some(&admin),
            json!({"seed": "abcd"}),
        )
        .await,
        StatusCode::FORBIDDEN,
        "forbidden",
    )
    .await;
    p.refused(
        "a seat creating a table",
        app.post(
            "/v1/tables",
            me,
            json!({"game": "bist-o-yek", "seats": [{"player": "a"}, {"player": "b"}]}),
        )
        .await,
        StatusCode::FORBIDDEN,
        "forbidden",
    )
    .await;
    p.refused(
        "an Idempotency-Key of 201 characters",
        app.post_idem(&actions, me, body.clone(), &"k".repeat(201))
            .await,
        StatusCode::BAD_REQUEST,
        "invalid_idempotency_key",
    )
    .await;
    p.refused(
        "a table with one seat",
        app.post(
            "/v1/tables",
            Some(&admin),
            json!({"game": "bist-o-yek", "seats": [{"player": "a"}]}),
        )
        .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "invalid_table",
    )
    .await;
    p.refused(
        "a table of an unknown game",
        app.post(
            "/v1/tables",
            Some(&admin),
            json!({"game": "poker", "seats": [{"player": "a"}, {"player": "b"}]}),
        )
        .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "invalid_table",
    )
    .await;

    // After all of that the legal bet is still accepted at the same seq.
    let r = app.post(&actions, me, body).await;
    ok(&r, StatusCode::OK, "the legal bet");
    assert_eq!(r.body["events"][0]["event"]["seq"], seq);
    assert_eq!(r.body["next_seq"], seq + 1);

    // The hand plays to its end; then writes are 409 hand_over, and it verifies.
    let done = play_to_end(&app, &admin, &hand, tokens, &mut rng).await;
    assert_eq!(done["status"], "completed");
    let over = hand_state(&app, &admin, &hand).await;
    let p = Probe {
        app: &app,
        admin: &admin,
        hand: &hand,
        before: over,
    };
    p.refused(
        "an action on a finished hand",
        app.post(&actions, me, json!({"action": {"type": "stand"}}))
            .await,
        StatusCode::CONFLICT,
        "hand_over",
    )
    .await;
    p.refused(
        "abandoning a finished hand",
        app.post(
            &format!("/v1/hands/{hand}/abandon"),
            Some(&admin),
            json!({"reason": "late"}),
        )
        .await,
        StatusCode::CONFLICT,
        "hand_over",
    )
    .await;
    let bundle = verify_bundle(&app, &admin, &hand).await;
    let n = bundle["records"].as_array().unwrap().len();
    assert_eq!(n, over.1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_errors_change_nothing() {
    run(Store::Pg, errors).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn embedded_errors_change_nothing() {
    run(Store::Embedded, errors).await;
}
