//! Shelem over HTTP against PostgreSQL: complete matches to their end, 4 players (preset
//! P000 to 330) and the 2-player variant with its piles (preset P004 to 330), hand after
//! hand; the hakem's 4 laid-away cards go through the API as a private action (a salted
//! commitment in the log, opened at the reveal); every hand verified by the `replayer`
//! command; the score sheet (the scoreboard's match state) checked against each hand's
//! signed end; the seats' views checked to hide every other hand and the laid-away cards;
//! a refused bid named with its rule and section; the match file verified as a chain.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::harness::{ok, problem, replayer, run, verify_bundle, write_temp, Env, Store, TestApp};
use crate::play::{add_entropy, hand_ended, legal, start_hand, Rng, Table};

async fn create_shelem_table(
    app: &TestApp,
    admin: &str,
    seats: usize,
    rules: Value,
) -> (Table, Value) {
    let names = ["Parviz", "Simin «سیمین»", "Bijan", "Laleh O'Hara"];
    let seats: Vec<Value> = names[..seats]
        .iter()
        .map(|n| json!({"player": n}))
        .collect();
    let t = app
        .post(
            "/v1/tables",
            Some(admin),
            json!({"game": "shelem", "rules": rules, "seats": seats}),
        )
        .await;
    ok(&t, StatusCode::CREATED, "create shelem table");
    assert_eq!(t.body["game"], "shelem");
    let table = Table {
        id: t.body["table_id"].as_str().unwrap().to_string(),
        tokens: t.body["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["token"].as_str().unwrap().to_string())
            .collect(),
    };
    (table, t.body)
}

/// One concrete Shelem action from a seat's legal families: a pass more often than a bid
/// (so that auctions end), four random cards laid away, any playable card.
fn choose(legal: &[Value], rng: &mut Rng) -> Value {
    let of = |t: &str| legal.iter().find(|l| l["type"] == t);
    if let Some(c) = of("cut") {
        let (min, max) = (c["min"].as_u64().unwrap(), c["max"].as_u64().unwrap());
        return json!({"type": "cut", "k": min + rng.next() % (max - min + 1)});
    }
    if of("pass").is_some() && (of("bid").is_none() || rng.below(5) < 3) {
        return json!({"type": "pass"});
    }
    if let Some(b) = of("bid") {
        let (min, max) = (b["min"].as_u64().unwrap(), b["max"].as_u64().unwrap());
        let amount = (min + 5 * (rng.next() % 3)).min(max);
        return json!({"type": "bid", "amount": amount});
    }
    if let Some(l) = of("lay_away") {
        let mut from = l["from"].as_array().unwrap().clone();
        let mut cards = Vec::new();
        for _ in 0..4 {
            cards.push(from.remove(rng.below(from.len())));
        }
        return json!({"type": "lay_away", "cards": cards});
    }
    if let Some(p) = of("play") {
        let cards = p["cards"].as_array().unwrap();
        assert!(!cards.is_empty(), "a play family with no card");
        return json!({"type": "play", "card": cards[rng.below(cards.len())]});
    }
    panic!("no shelem family this test knows: {legal:?}");
}

/// A seat sees faces only of its own hand, of face-up cards (played, won, turned pile
/// tops), and of the cards it laid away itself.
fn faces_hidden(view: &Value, seat: u64) {
    let hakem = view["hakem"].as_u64();
    for z in view["zones"].as_array().unwrap() {
        let own = (z["zone"] == "hand" && z["of"] == seat)
            || (z["zone"] == "discard" && hakem == Some(seat));
        let secret = z["zone"] == "hand" || z["zone"] == "discard";
        if secret && !own {
            for c in z["cards"].as_array().unwrap() {
                assert!(c.get("face").is_none(), "seat {seat} sees {z}");
            }
        }
    }
}

async fn shelem_match(env: Env, seats: usize, rules: Value, seed: u64) {
    let app = TestApp::spawn(&env).await;
    let (_, admin) = app.create_club("Tabriz");
    // Bad house rules and a seat count the game does not allow are refused clearly.
    for (bad_rules, n) in [
        (json!({"target": 1201}), 4),
        (json!({"preset": "p004", "made_score": "points_taken"}), 4),
        (json!({"pile_top": "last_dealt"}), 4),
        (json!({}), 3),
    ] {
        let seats: Vec<Value> = (0..n).map(|i| json!({"player": format!("p{i}")})).collect();
        let r = app
            .post(
                "/v1/tables",
                Some(&admin),
                json!({"game": "shelem", "rules": bad_rules, "seats": seats}),
            )
            .await;
        assert!(r.status.is_client_error(), "{bad_rules} {n}: {}", r.text);
    }
    let (table, created) = create_shelem_table(&app, &admin, seats, rules.clone()).await;
    assert_eq!(created["rules"]["target"], 330, "{created}");
    assert!(
        created["rules"]["made_score"].is_string(),
        "scoring written out: {created}"
    );
    let mut rng = Rng(seed);
    let mut match_state = created["match_state"].clone();
    let mut hands: Vec<String> = Vec::new();
    let mut refused_once = false;
    let mut played = 0;
    let mut over = false;
    for k in 1..=60u64 {
        let h = start_hand(&app, &admin, &table).await;
        let hand = h["hand_id"].as_str().unwrap().to_string();
        let started = &h["events"][0]["event"]["body"];
        assert_eq!(started["match_state"], match_state, "hand {k}");
        for _ in 0..3000 {
            let g = app.get(&format!("/v1/hands/{hand}"), Some(&admin)).await;
            ok(&g, StatusCode::OK, "get hand");
            if g.body["status"] != "in_progress" {
                break;
            }
            if !g.body["to_act"]["shuffle_pending"].is_null() {
                add_entropy(&app, &admin, &hand, &table.tokens).await;
                continue;
            }
            let seat = g.body["to_act"]["actors"]
                .as_array()
                .unwrap()
                .iter()
                .find_map(|a| a["seat"].as_u64())
                .expect("a seat to act") as usize;
            let (seq, actions) = legal(&app, &hand, &table.tokens[seat]).await;
            if !refused_once && actions.iter().any(|a| a["type"] == "bid") {
                let r = app
                    .post(
                        &format!("/v1/hands/{hand}/actions"),
                        Some(&table.tokens[seat]),
                        json!({"action": {"type": "bid", "amount": 142}, "expected_seq": seq}),
                    )
                    .await;
                problem(&r, StatusCode::UNPROCESSABLE_ENTITY, "illegal_action");
                assert_eq!(r.body["rule"], "BidNotMultipleOf5", "{}", r.text);
                assert_eq!(r.body["section"], "shelem §6.2", "{}", r.text);
                refused_once = true;
            }
            let v = app
                .get(&format!("/v1/hands/{hand}"), Some(&table.tokens[seat]))
                .await;
            ok(&v, StatusCode::OK, "seat's hand");
            assert_eq!(v.body["viewer"], "seat", "{}", v.text);
            faces_hidden(&v.body["view"], seat as u64);
            let action = choose(&actions, &mut rng);
            let r = app
                .post(
                    &format!("/v1/hands/{hand}/actions"),
                    Some(&table.tokens[seat]),
                    json!({"action": action, "expected_seq": seq}),
                )
                .await;
            ok(&r, StatusCode::OK, &format!("seat {seat}: {action}"));
            if action["type"] == "lay_away" {
                // The log holds a commitment, not the cards.
                let e = &r.body["events"][0]["event"]["body"];
                assert_eq!(e["type"], "private_action", "{}", r.text);
                assert_eq!(e["public"], json!({"type": "lay_away"}));
                assert!(
                    !r.body["events"].to_string().contains("cards"),
                    "{}",
                    r.text
                );
                // Another seat's view hides the laid-away faces.
                let other = (seat + 1) % seats;
                let v = app
                    .get(&format!("/v1/hands/{hand}"), Some(&table.tokens[other]))
                    .await;
                ok(&v, StatusCode::OK, "the other seat's hand");
                for c in v.body["view"]["laid_away"].as_array().unwrap() {
                    assert!(c.get("face").is_none(), "{c}");
                }
            }
        }
        let bundle = verify_bundle(&app, &admin, &hand).await;
        let ended = hand_ended(&bundle);
        let next = ended["next_match"].clone();
        let outcome = &ended["outcome"];
        assert_eq!(outcome["next"], next);
        let row = &outcome["row"];
        // The sheet: one more row, totals = previous totals + the row's deltas.
        for t in 0..2 {
            assert_eq!(
                row["total"][t].as_i64().unwrap(),
                match_state["totals"][t].as_i64().unwrap() + row["delta"][t].as_i64().unwrap(),
                "{row}"
            );
        }
        assert_eq!(next["totals"], row["total"]);
        assert_eq!(
            next["sheet"].as_array().unwrap().len(),
            match_state["sheet"].as_array().unwrap().len() + 1
        );
        if row["outcome"] != "passed_out" {
            played += 1;
            assert_eq!(
                row["h"].as_u64().unwrap() + row["o"].as_u64().unwrap(),
                165,
                "{row}"
            );
            // The laid-away cards: committed while the hand ran, opened at the reveal.
            let recs = bundle["records"].as_array().unwrap();
            let private = recs
                .iter()
                .find(|r| r["event"]["body"]["type"] == "private_action")
                .expect("the lay-away as a private action");
            assert_eq!(
                private["event"]["body"]["public"],
                json!({"type": "lay_away"})
            );
            let last = &recs.last().unwrap()["event"]["body"];
            assert_eq!(last["inputs"][0]["action"]["type"], "lay_away", "{last}");
        }
        let board = app
            .get(&format!("/v1/tables/{}/scoreboard", table.id), Some(&admin))
            .await;
        ok(&board, StatusCode::OK, "scoreboard");
        assert_eq!(board.body["match_state"], next, "{}", board.text);
        assert_eq!(board.body["score_unit"], "points");
        if next["over"] == false {
            assert_eq!(board.body["next_role"], "dealer", "{}", board.text);
            assert_eq!(board.body["next_seat"], next["dealer"]);
        }
        hands.push(hand);
        match_state = next.clone();
        if next["over"] == true {
            over = true;
            let w = next["winner"].as_u64().unwrap() as usize;
            assert!(
                next["totals"][w].as_i64().unwrap() >= 330 || row["outcome"] == "shelem",
                "{next}"
            );
            break;
        }
    }
    assert!(
        over,
        "the match to 330 was not over after 60 hands: {match_state}"
    );
    assert!(refused_once);
    assert!(played > 0);
    problem(
        &app.post(
            &format!("/v1/tables/{}/hands", table.id),
            Some(&admin),
            json!({}),
        )
        .await,
        StatusCode::CONFLICT,
        "match_over",
    );
    let m = app
        .get(&format!("/v1/tables/{}/bundle", table.id), Some(&admin))
        .await;
    ok(&m, StatusCode::OK, "match file");
    let key = app.service_key().await;
    let file = write_temp(&m.body);
    let path = file.path().display().to_string();
    let (code, out, err) = replayer(&["verify", &path, "--key", &key]);
    assert_eq!(code, 0, "replayer verify of the match: {out}{err}");
    assert!(out.contains(&format!("{} hands", hands.len())), "{out}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_shelem_four_player_match_to_its_end() {
    run(Store::Pg, |env| {
        shelem_match(env, 4, json!({"target": 330}), 0x5eb1_7a3c_99d1_0f27)
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_shelem_two_player_match_to_its_end() {
    run(Store::Pg, |env| {
        shelem_match(
            env,
            2,
            json!({"target": 330, "preset": "p004", "pile_top": "last_dealt"}),
            0x0b5e_55ed_2c4a_6d11,
        )
    })
    .await;
}
