//! Pasur (Chahar Barg) over HTTP against PostgreSQL: a complete 4-seat partnership match
//! (hands one after another until the scoreboard says it is over, each hand verified, the
//! match file checked as a chain), the refusals a client meets (an ambiguous capture with
//! no choice names the sets; a capture that does not make 11; a seat count Pasur is not
//! played by; house rules refused for the seat count), a seat's view that hides the other
//! hands, and a dispute whose automatic findings catch a capture edited behind the
//! service's back so that it no longer sums to 11.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::damaged::behind_the_back;
use crate::harness::{ok, problem, replayer, run, verify_bundle, write_temp, Env, Store, TestApp};
use crate::play::{add_entropy, hand_ended, legal, start_hand, Rng, Table};

async fn create_table(app: &TestApp, admin: &str, seats: usize, rules: Value) -> (Table, Value) {
    let names = ["Parvin", "Hamid", "Golnar", "Siamak 'Sia' Rahimi"];
    let seats: Vec<Value> = (0..seats)
        .map(|i| json!({"player": names[i % names.len()]}))
        .collect();
    let t = app
        .post(
            "/v1/tables",
            Some(admin),
            json!({"game": "pasur", "rules": rules, "seats": seats}),
        )
        .await;
    ok(&t, StatusCode::CREATED, "create a pasur table");
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

/// The seat to play, or the finished hand; entropy and the deal when a shuffle waits.
async fn seat_to_play(
    app: &TestApp,
    admin: &str,
    hand: &str,
    tokens: &[String],
) -> Result<usize, Value> {
    loop {
        let h = app.get(&format!("/v1/hands/{hand}"), Some(admin)).await;
        ok(&h, StatusCode::OK, "get hand");
        if h.body["status"] != "in_progress" {
            return Err(h.body);
        }
        if !h.body["to_act"]["shuffle_pending"].is_null() {
            add_entropy(app, admin, hand, tokens).await;
            continue;
        }
        let seats: Vec<u64> = h.body["to_act"]["actors"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|a| a["seat"].as_u64())
            .collect();
        assert_eq!(seats.len(), 1, "one seat plays at a time: {}", h.text);
        return Ok(usize::try_from(seats[0]).unwrap());
    }
}

/// A play from the legal families: a card, with one of its legal captures.
fn choose(families: &[Value], rng: &mut Rng) -> Value {
    let f = &families[rng.below(families.len())];
    assert_eq!(f["type"], "play", "{f}");
    let captures = f["captures"].as_array().unwrap();
    assert!(
        !captures.is_empty(),
        "a family with no capture to make: {f}"
    );
    json!({"type": "play", "card": f["card"], "capture": captures[rng.below(captures.len())]})
}

/// Plays a hand to its end. Along the way, once each: a capture left out where the card
/// can take several sets is refused naming them, and a capture of another table card than
/// the legal ones is refused with the rule it breaks. Returns the finished hand.
async fn play_hand(
    app: &TestApp,
    admin: &str,
    hand: &str,
    tokens: &[String],
    rng: &mut Rng,
    refusals: &mut (bool, bool),
) -> Value {
    for _ in 0..200 {
        let seat = match seat_to_play(app, admin, hand, tokens).await {
            Ok(s) => s,
            Err(done) => return done,
        };
        let (seq, families) = legal(app, hand, &tokens[seat]).await;
        assert!(
            !families.is_empty(),
            "seat {seat} is to play but has nothing legal"
        );
        // No other seat may play now.
        let other = (seat + 1) % tokens.len();
        let (_, none) = legal(app, hand, &tokens[other]).await;
        assert!(
            none.is_empty(),
            "seat {other} is offered a play out of turn"
        );
        if !refusals.0 {
            if let Some(f) = families.iter().find(|f| {
                f["captures"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|c| !c.as_array().unwrap().is_empty())
                    .count()
                    >= 2
            }) {
                let r = app
                    .post(
                        &format!("/v1/hands/{hand}/actions"),
                        Some(&tokens[seat]),
                        json!({"action": {"type": "play", "card": f["card"]}, "expected_seq": seq}),
                    )
                    .await;
                problem(&r, StatusCode::UNPROCESSABLE_ENTITY, "illegal_action");
                assert_eq!(r.body["rule"], "AmbiguousCapture", "{}", r.text);
                assert_eq!(r.body["section"], "pasur §5.2", "{}", r.text);
                assert!(r.text.contains(" or {"), "the sets are named: {}", r.text);
                refusals.0 = true;
            }
        }
        if !refusals.1 {
            let view = app
                .get(&format!("/v1/hands/{hand}"), Some(&tokens[seat]))
                .await;
            ok(&view, StatusCode::OK, "the seat's view");
            {
                let table: Vec<Value> = view.body["view"]["table"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default();
                // A card with legal captures, and a table card in none of them.
                for f in &families {
                    let caps: Vec<Value> = f["captures"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .flat_map(|c| c.as_array().unwrap().clone())
                        .collect();
                    if caps.is_empty() {
                        continue;
                    }
                    if let Some(stray) = table
                        .iter()
                        .map(|c| c["ref"].clone())
                        .find(|r| !caps.contains(r))
                    {
                        let r = app
                            .post(
                                &format!("/v1/hands/{hand}/actions"),
                                Some(&tokens[seat]),
                                json!({"action": {"type": "play", "card": f["card"], "capture": [stray]}, "expected_seq": seq}),
                            )
                            .await;
                        problem(&r, StatusCode::UNPROCESSABLE_ENTITY, "illegal_action");
                        let rule = r.body["rule"].as_str().unwrap();
                        assert!(
                            ["CaptureSum", "CourtCapture", "JackMustTakeAll"].contains(&rule),
                            "{}",
                            r.text
                        );
                        assert!(
                            r.body["section"]
                                .as_str()
                                .unwrap()
                                .starts_with("pasur §5.3 P4"),
                            "{}",
                            r.text
                        );
                        refusals.1 = true;
                        break;
                    }
                }
            }
        }
        let action = choose(&families, rng);
        let r = app
            .post(
                &format!("/v1/hands/{hand}/actions"),
                Some(&tokens[seat]),
                json!({"action": action, "expected_seq": seq}),
            )
            .await;
        ok(&r, StatusCode::OK, &format!("seat {seat}: {action}"));
    }
    panic!("the pasur hand did not end in 200 steps");
}

fn last_hash(bundle: &Value) -> Value {
    bundle["records"].as_array().unwrap().last().unwrap()["hash"].clone()
}

/// Scenario: a complete 4-seat partnership match to 40 points.
async fn pasur_match(env: Env, seed: u64) {
    let app = TestApp::spawn(&env).await;
    let (_, admin) = app.create_club("Kerman pasur club");
    let rules = json!({"target_score": 40, "sur_forbidden": "last_four_cards"});
    let (table, created) = create_table(&app, &admin, 4, rules).await;
    assert_eq!(created["rules"]["target_score"], 40, "{created}");
    assert_eq!(
        created["rules"]["four_player_mode"], "partnership",
        "{created}"
    );
    let mut rng = Rng(seed);
    let mut refusals = (false, false);
    let mut match_state = created["match_state"].clone();
    assert_eq!(match_state["scores"], json!([0, 0]), "{match_state}");
    let mut prev: Option<(String, Value)> = None;
    let mut hands: Vec<String> = Vec::new();
    for k in 1..=20u64 {
        let h = start_hand(&app, &admin, &table).await;
        let hand = h["hand_id"].as_str().unwrap().to_string();
        let started = &h["events"][0]["event"]["body"];
        assert_eq!(started["game"], "pasur");
        assert_eq!(
            started["rules"]["sur_forbidden"], "last_four_cards",
            "the house rules are in the header"
        );
        assert_eq!(started["match_state"], match_state, "hand {k}");
        match &prev {
            None => assert!(started["prev_hand"].is_null()),
            Some((id, b)) => assert_eq!(
                started["prev_hand"],
                json!({"hand": id, "hash": last_hash(b)})
            ),
        }
        let done = play_hand(&app, &admin, &hand, &table.tokens, &mut rng, &mut refusals).await;
        assert_eq!(done["status"], "completed", "{done}");
        let bundle = verify_bundle(&app, &admin, &hand).await;
        let ended = hand_ended(&bundle);
        let next = ended["next_match"].clone();
        assert_eq!(ended["outcome"]["next"], next);
        // 48 plays, and the hand's points as the engine itemizes them.
        let plays = bundle["records"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["event"]["body"]["type"] == "action")
            .count();
        assert_eq!(plays, 48, "hand {k}");
        let sides = ended["outcome"]["sides"].as_array().unwrap();
        assert_eq!(sides.len(), 2);
        let cards: u64 = sides.iter().map(|s| s["cards"].as_u64().unwrap()).sum();
        assert_eq!(cards, 52, "every card is captured: {sides:?}");
        for s in sides {
            let side = s["side"].as_u64().unwrap() as usize;
            let before = match_state["scores"][side].as_u64().unwrap();
            assert_eq!(
                next["scores"][side].as_u64().unwrap(),
                before + s["points"].as_u64().unwrap()
            );
        }
        // The scoreboard: each seat shows its side's score.
        let board = app
            .get(&format!("/v1/tables/{}/scoreboard", table.id), Some(&admin))
            .await;
        ok(&board, StatusCode::OK, "scoreboard");
        let b = &board.body;
        assert_eq!(b["match_state"], next, "{}", board.text);
        assert_eq!(b["hands_played"], k);
        assert_eq!(b["score_unit"], "points");
        assert_eq!(b["sides"], json!([[0, 2], [1, 3]]), "{}", board.text);
        assert_eq!(b["match_over"], next["over"]);
        for (i, s) in b["standings"].as_array().unwrap().iter().enumerate() {
            assert_eq!(
                s["balance"],
                next["scores"][i % 2],
                "seat {i}: {}",
                board.text
            );
        }
        if next["over"] == true {
            assert!(b["next_seat"].is_null());
        } else {
            assert_eq!(b["next_role"], "dealer", "{}", board.text);
            assert_eq!(b["next_seat"], next["dealer"]);
            assert_eq!(
                next["dealer"].as_u64().unwrap(),
                (match_state["dealer"].as_u64().unwrap() + 1) % 4,
                "the deal passes right"
            );
        }
        hands.push(hand.clone());
        match_state = next.clone();
        prev = Some((hand, bundle));
        if next["over"] == true {
            let w = next["winner"].as_u64().unwrap() as usize;
            assert!(next["scores"][w].as_u64().unwrap() >= 40, "{next}");
            assert!(
                next["scores"][w].as_u64().unwrap() > next["scores"][1 - w].as_u64().unwrap(),
                "{next}"
            );
            // History: the winning side's players won the last hand's match.
            let player = done["players"][w].as_str().unwrap();
            let hist = app
                .get(
                    &format!(
                        "/v1/hands?table_id={}&player={}&result=won",
                        table.id,
                        urlencode(player)
                    ),
                    Some(&admin),
                )
                .await;
            ok(&hist, StatusCode::OK, "history");
            assert!(
                hist.body["hands"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|h| h["hand_id"] == hands.last().unwrap().as_str()),
                "{}",
                hist.text
            );
            break;
        }
    }
    assert_eq!(
        match_state["over"], true,
        "the match to 40 did not end: {match_state}"
    );
    assert!(hands.len() >= 2, "a match to 40 takes two hands at least");
    assert!(refusals.0 || refusals.1, "no refusal was ever tried");
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

    // The match file verifies as a chain; with a hand removed it does not.
    let m = app
        .get(&format!("/v1/tables/{}/bundle", table.id), Some(&admin))
        .await;
    ok(&m, StatusCode::OK, "match file");
    let key = app.service_key().await;
    let file = write_temp(&m.body);
    let (code, out, err) = replayer(&["verify", &file.path().display().to_string(), "--key", &key]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains(&format!("{} hands", hands.len())), "{out}");
    let mut cut = m.body.clone();
    cut["hands"].as_array_mut().unwrap().remove(0);
    let file = write_temp(&cut);
    let (code, _, _) = replayer(&["verify", &file.path().display().to_string(), "--key", &key]);
    assert_eq!(code, 1);

    // A dispute over a capture: the findings replay it and the engine accepts it.
    let (last, bundle) = prev.unwrap();
    let records = bundle["records"].as_array().unwrap();
    let (seq, _) = records
        .iter()
        .enumerate()
        .find(|(_, r)| {
            let e = &r["event"]["body"]["effects"][0];
            e["type"] == "played"
                && e["capture"].as_array().is_some_and(|c| c.len() >= 2)
                && !["J", "Q", "K"]
                    .iter()
                    .any(|x| e["card"]["face"].as_str().unwrap().starts_with(x))
        })
        .expect("a numeral capture of two cards or more");
    let open = format!("/v1/hands/{last}/disputes");
    let r = app
        .post(
            &open,
            Some(&admin),
            json!({"kind": "rule_broken", "claim": "those cards do not make 11", "seq": seq}),
        )
        .await;
    ok(&r, StatusCode::CREATED, "a rule_broken dispute");
    let c = &r.body["findings"]["claim"];
    assert_eq!(c["accepted"], true, "{c}");
    assert_eq!(c["effects_match"], true, "{c}");

    // The capture edited behind the service's back: one card dropped, so it no longer
    // makes 11. A new dispute's findings say the engine refuses it there, and why.
    let action = &records[seq]["event"]["body"]["action"];
    let mut capture = action["capture"].as_array().unwrap().clone();
    capture.pop();
    let capture = Value::from(capture).to_string();
    behind_the_back(
        &env,
        &app,
        format!(
            "ALTER TABLE events DISABLE TRIGGER USER; \
             UPDATE events SET record = jsonb_set(record, '{{event,body,action,capture}}', '{capture}'::jsonb) \
             WHERE hand_id = '{last}' AND seq = {seq}; \
             ALTER TABLE events ENABLE TRIGGER USER"
        ),
        format!(
            "DROP TRIGGER IF EXISTS events_no_update; \
             UPDATE events SET record = json_set(record, '$.event.body.action.capture', json('{capture}')) \
             WHERE hand_id = '{last}' AND seq = {seq}"
        ),
    )
    .await;
    let r = app
        .post(
            &open,
            Some(&table.tokens[1]),
            json!({"kind": "rule_broken", "claim": "2 + 3 is not 11", "seq": seq}),
        )
        .await;
    ok(
        &r,
        StatusCode::CREATED,
        "a rule_broken dispute on the edited capture",
    );
    let c = &r.body["findings"]["claim"];
    assert_eq!(c["accepted"], false, "{c}");
    assert_eq!(c["violation"]["rule"], "CaptureSum", "{c}");
    assert_eq!(c["violation"]["section"], "pasur §5.3 P4", "{c}");
    assert_eq!(r.body["findings"]["verdict"]["valid"], false);
    assert_eq!(r.body["findings"]["verdict"]["problem"]["event"], seq);
}

fn urlencode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_pasur_partnership_match_to_its_end() {
    run(Store::Pg, |env| pasur_match(env, 0x3c6e_f372_fe94_f82b)).await;
}

/// Scenario: tables Pasur does not take, a 2-seat and a 3-seat hand, a seat's view.
async fn pasur_tables(env: Env) {
    let app = TestApp::spawn(&env).await;
    let (_, admin) = app.create_club("باشگاه چهاربرگ");
    for seats in [1usize, 5] {
        let players: Vec<Value> = (0..seats)
            .map(|i| json!({"player": format!("p{i}")}))
            .collect();
        let r = app
            .post(
                "/v1/tables",
                Some(&admin),
                json!({"game": "pasur", "seats": players}),
            )
            .await;
        assert!(r.status.is_client_error(), "{seats} seats: {}", r.text);
        assert!(r.text.contains("2 to 4"), "{}", r.text);
    }
    let players: Vec<Value> = (0..3).map(|i| json!({"player": format!("p{i}")})).collect();
    let r = app
        .post(
            "/v1/tables",
            Some(&admin),
            json!({"game": "pasur", "seats": players, "rules": {"four_player_mode": "individual"}}),
        )
        .await;
    assert!(r.status.is_client_error(), "{}", r.text);
    assert!(r.text.contains("four_player_mode"), "{}", r.text);

    let mut rng = Rng(0x510e_527f_ade6_82d1);
    for seats in [2usize, 3] {
        let (table, _) =
            create_table(&app, &admin, seats, json!({"clubs_bonus": "seven_or_more"})).await;
        let h = start_hand(&app, &admin, &table).await;
        let hand = h["hand_id"].as_str().unwrap().to_string();
        // Mid-hand, a seat sees its own cards and the table, not another seat's hand.
        let seat = seat_to_play(&app, &admin, &hand, &table.tokens)
            .await
            .unwrap();
        let v = app
            .get(&format!("/v1/hands/{hand}"), Some(&table.tokens[seat]))
            .await;
        ok(&v, StatusCode::OK, "the seat's view");
        {
            let zones = v.body["view"]["zones"].as_array().unwrap();
            for z in zones {
                let own = z["zone"] == "hand" && z["of"] == seat;
                let open = z["zone"] == "table";
                for c in z["cards"].as_array().unwrap() {
                    if z["zone"] == "hand" {
                        assert_eq!(c["face"].is_string(), own, "{z}");
                    }
                    // The stock is face down, but for a jack turned up among the first
                    // table cards and put back into it (pasur §4.3): every seat saw it.
                    if z["zone"] == "stock" {
                        if let Some(face) = c["face"].as_str() {
                            assert!(face.starts_with('J'), "{z}");
                        }
                    }
                    if open {
                        assert!(c["face"].is_string(), "{z}");
                    }
                }
            }
        }
        let mut refusals = (true, true);
        let done = play_hand(&app, &admin, &hand, &table.tokens, &mut rng, &mut refusals).await;
        assert_eq!(done["status"], "completed", "{done}");
        let bundle = verify_bundle(&app, &admin, &hand).await;
        let ended = hand_ended(&bundle);
        assert_eq!(ended["outcome"]["sides"].as_array().unwrap().len(), seats);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_pasur_tables_views_and_seat_counts() {
    run(Store::Pg, pasur_tables).await;
}
