//! Playing bist-o-yek over HTTP: tables, hands, and one step at a time by asking the
//! seat to act for its legal actions. Scenario 1: complete banker's turns at 3 and 5
//! seats, two hands in a row on one table, every bundle verified by the `replayer`
//! command and by `POST /v1/verify`.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::harness::{ok, run, verify_bundle, Env, Store, TestApp};

/// A small deterministic generator for choosing among legal actions.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    pub fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.next() % u64::try_from(n.max(1)).unwrap_or(1)).unwrap_or(0)
    }
}

pub struct Table {
    pub id: String,
    pub tokens: Vec<String>,
}

pub async fn create_table(app: &TestApp, admin: &str, seats: usize) -> Table {
    let names = ["Dariush", "Shirin", "Babak", "Roya", "Kaveh", "Nasrin"];
    let seats: Vec<Value> = (0..seats)
        .map(|i| json!({"player": names[i % names.len()]}))
        .collect();
    let t = app
        .post(
            "/v1/tables",
            Some(admin),
            json!({"game": "bist-o-yek", "seats": seats}),
        )
        .await;
    ok(&t, StatusCode::CREATED, "create table");
    Table {
        id: t.body["table_id"].as_str().unwrap().to_string(),
        tokens: t.body["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["token"].as_str().unwrap().to_string())
            .collect(),
    }
}

pub async fn start_hand(app: &TestApp, admin: &str, table: &Table) -> Value {
    let h = app
        .post(
            &format!("/v1/tables/{}/hands", table.id),
            Some(admin),
            json!({}),
        )
        .await;
    ok(&h, StatusCode::CREATED, "start hand");
    assert_eq!(h.body["status"], "in_progress");
    assert_eq!(h.body["commitment"].as_str().map(str::len), Some(64));
    h.body
}

/// One concrete action from the legal families: take the bank, announce khabar when
/// offered (it ends the banker's turn sooner), otherwise anything.
pub fn choose(legal: &[Value], rng: &mut Rng) -> Value {
    let of = |t: &str| legal.iter().find(|l| l["type"] == t);
    if let Some(a) = of("accept_bank").or_else(|| of("announce_khabar")) {
        return a.clone();
    }
    let l = &legal[rng.below(legal.len())];
    match l["type"].as_str().unwrap_or("") {
        t @ ("bet" | "side_bet") => {
            let (min, max) = (l["min"].as_u64().unwrap(), l["max"].as_u64().unwrap());
            let amount = min + rng.next() % (max - min + 1);
            json!({"type": t, "amount": amount})
        }
        "hit" => json!({"type": "hit"}),
        _ => l.clone(),
    }
}

/// What the next step of a running hand is.
pub enum Next {
    Over(Value),
    Shuffle,
    Seat(usize),
}

pub async fn next(app: &TestApp, admin: &str, hand: &str) -> Next {
    let h = app.get(&format!("/v1/hands/{hand}"), Some(admin)).await;
    ok(&h, StatusCode::OK, "get hand");
    if h.body["status"] != "in_progress" {
        return Next::Over(h.body);
    }
    let to_act = &h.body["to_act"];
    if !to_act["shuffle_pending"].is_null() {
        return Next::Shuffle;
    }
    let seat = to_act["actors"]
        .as_array()
        .unwrap()
        .iter()
        .find_map(|a| a["seat"].as_u64())
        .unwrap_or_else(|| panic!("a seat to act: {}", h.text)) as usize;
    Next::Seat(seat)
}

/// Every seat adds a client seed (the last one triggers the shuffle).
pub async fn add_entropy(app: &TestApp, admin: &str, hand: &str, tokens: &[String]) {
    for t in tokens {
        let r = app
            .post(
                &format!("/v1/hands/{hand}/entropy"),
                Some(t),
                json!({"seed": crate::harness::random_hex(16)}),
            )
            .await;
        // A seat out of play (a Bluff seat with no cards) is not asked.
        assert!(
            r.status == StatusCode::OK
                || r.body["code"] == "already_contributed"
                || r.body["code"] == "not_asked",
            "entropy: {}",
            r.text
        );
    }
    let h = app.get(&format!("/v1/hands/{hand}"), Some(admin)).await;
    if !h.body["to_act"]["shuffle_pending"].is_null() {
        let r = app
            .post(&format!("/v1/hands/{hand}/deal"), Some(admin), json!({}))
            .await;
        ok(&r, StatusCode::OK, "deal");
    }
}

/// The legal actions of `seat` (as its token sees them): (next_seq, actions).
pub async fn legal(app: &TestApp, hand: &str, token: &str) -> (u64, Vec<Value>) {
    let legal = app
        .get(&format!("/v1/hands/{hand}/legal-actions"), Some(token))
        .await;
    ok(&legal, StatusCode::OK, "legal actions");
    (
        legal.body["next_seq"].as_u64().expect("next_seq"),
        legal.body["legal_actions"].as_array().unwrap().clone(),
    )
}

/// One step: entropy when a shuffle is pending, else the seat to act plays a chosen
/// legal action with `expected_seq`. `Some(final hand)` once the hand is over.
pub async fn step(
    app: &TestApp,
    admin: &str,
    hand: &str,
    tokens: &[String],
    rng: &mut Rng,
) -> Option<Value> {
    match next(app, admin, hand).await {
        Next::Over(h) => Some(h),
        Next::Shuffle => {
            add_entropy(app, admin, hand, tokens).await;
            None
        }
        Next::Seat(seat) => {
            let (seq, actions) = legal(app, hand, &tokens[seat]).await;
            assert!(
                !actions.is_empty(),
                "seat {seat} to act has no legal action"
            );
            let action = choose(&actions, rng);
            let r = app
                .post(
                    &format!("/v1/hands/{hand}/actions"),
                    Some(&tokens[seat]),
                    json!({"action": action, "expected_seq": seq}),
                )
                .await;
            ok(&r, StatusCode::OK, "action");
            assert_eq!(
                r.body["events"][0]["event"]["seq"], seq,
                "the action's event has the expected seq"
            );
            // The answer carries the writer's own legal actions now: those
            // `GET …/legal-actions` gives the same token (none once the hand is over).
            let given = r.body["legal_actions"]
                .as_array()
                .unwrap_or_else(|| panic!("legal_actions in the answer: {}", r.text))
                .clone();
            if r.body["status"] == "in_progress" {
                let (now_seq, now) = legal(app, hand, &tokens[seat]).await;
                assert_eq!(now_seq, r.body["next_seq"].as_u64().unwrap());
                assert_eq!(
                    given, now,
                    "the answer's legal actions are the seat's own now"
                );
            } else {
                assert!(given.is_empty(), "no legal action once the hand is over");
            }
            None
        }
    }
}

/// Plays the hand to its end; the final hand as the admin sees it.
pub async fn play_to_end(
    app: &TestApp,
    admin: &str,
    hand: &str,
    tokens: &[String],
    rng: &mut Rng,
) -> Value {
    for _ in 0..3000 {
        if let Some(h) = step(app, admin, hand, tokens, rng).await {
            return h;
        }
    }
    panic!("the hand did not end");
}

/// The body of the hand's `hand_ended` event.
pub fn hand_ended(bundle: &Value) -> Value {
    bundle["records"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| &r["event"]["body"])
        .find(|b| b["type"] == "hand_ended")
        .cloned()
        .expect("a hand_ended event")
}

async fn two_hands(env: Env, seats: usize, seed: u64) {
    let app = TestApp::spawn(&env).await;
    let (_, admin) = app.create_club("Kish");
    let table = create_table(&app, &admin, seats).await;
    let mut rng = Rng(seed);

    // Hand 1.
    let h1 = start_hand(&app, &admin, &table).await;
    let hand1 = h1["hand_id"].as_str().unwrap().to_string();
    assert_eq!(h1["hand_no"], 1);
    let done = play_to_end(&app, &admin, &hand1, &table.tokens, &mut rng).await;
    assert_eq!(done["status"], "completed", "{done}");
    assert_eq!(done["viewer"], "all");
    let b1 = verify_bundle(&app, &admin, &hand1).await;
    let ended1 = hand_ended(&b1);
    let next1 = ended1["next_match"].clone();
    assert_eq!(
        ended1["outcome"], done["outcome"],
        "the outcome is the event's"
    );
    assert_eq!(next1["balances"], ended1["outcome"]["balances"]);
    assert_eq!(next1["seats"], seats);

    let t = app
        .get(&format!("/v1/tables/{}", table.id), Some(&admin))
        .await;
    ok(&t, StatusCode::OK, "table");
    assert_eq!(
        t.body["match_state"], next1,
        "the table carries the next match"
    );
    assert!(t.body["current_hand"].is_null());
    assert_eq!(
        next1["over"], false,
        "a single banker's turn should not end the match: {next1}"
    );

    // The attack of issue 9: one balance set to 5,000,000 in the table's stored match
    // state between two hands. The next hand must start from hand 1's signed end instead.
    if env.db_url.is_some() {
        let n = env
            .pg()
            .await
            .execute(
                "UPDATE game_tables SET match_state = \
                 jsonb_set(match_state, '{balances,1}', '5000000') WHERE table_id = $1",
                &[&table.id],
            )
            .await
            .unwrap();
        assert_eq!(n, 1, "the stored match state was edited");
    }

    // Hand 2: it starts from hand 1's next match state, and names hand 1.
    let h2 = start_hand(&app, &admin, &table).await;
    let hand2 = h2["hand_id"].as_str().unwrap().to_string();
    assert_ne!(hand1, hand2);
    assert_eq!(h2["hand_no"], 2);
    let started = &h2["events"][0]["event"]["body"];
    assert_eq!(started["type"], "hand_started");
    assert_eq!(started["hand_no"], 2);
    assert_eq!(
        started["match_state"], next1,
        "balances and the next candidate carry over"
    );
    assert_eq!(
        started["prev_hand"],
        json!({"hand": hand1, "hash": b1["records"].as_array().unwrap().last().unwrap()["hash"]}),
        "hand 2 names hand 1 and its last hash"
    );
    let candidate = next1["candidate"].as_u64().unwrap();
    assert_eq!(
        h2["to_act"]["actors"][0]["seat"], candidate,
        "the next banker candidate is offered the bank: {}",
        h2["to_act"]
    );
    let done2 = play_to_end(&app, &admin, &hand2, &table.tokens, &mut rng).await;
    assert_eq!(done2["status"], "completed");
    let b2 = verify_bundle(&app, &admin, &hand2).await;
    let ended2 = hand_ended(&b2);
    assert_eq!(ended2["outcome"]["turn"], 2);

    // The scoreboard: two hands, balances carried over.
    let board = app
        .get(&format!("/v1/tables/{}/scoreboard", table.id), Some(&admin))
        .await;
    ok(&board, StatusCode::OK, "scoreboard");
    assert_eq!(board.body["hands_played"], 2, "{}", board.text);
    assert_eq!(board.body["completed"], 2);
    assert_eq!(board.body["abandoned"], 0);
    let hands = board.body["hands"].as_array().unwrap();
    assert_eq!(hands.len(), 2);
    assert_eq!(hands[0]["hand_id"], hand1.as_str());
    assert_eq!(hands[1]["hand_id"], hand2.as_str());
    assert_eq!(board.body["match_state"], ended2["next_match"]);
    assert_eq!(board.body["next_seat"], ended2["next_match"]["candidate"]);
    let standings = board.body["standings"].as_array().unwrap();
    assert_eq!(standings.len(), seats);
    let balances0 = started_balances(&b1);
    for (i, s) in standings.iter().enumerate() {
        let net1 = ended1["outcome"]["net"][i].as_i64().unwrap();
        let net2 = ended2["outcome"]["net"][i].as_i64().unwrap();
        assert_eq!(s["seat"], i);
        assert_eq!(s["net_total"], net1 + net2, "seat {i}: {}", board.text);
        assert_eq!(s["balance"], ended2["outcome"]["balances"][i]);
        // Money is carried, not invented: start + nets = the final balance.
        assert_eq!(
            balances0[i] + net1 + net2,
            s["balance"].as_i64().unwrap(),
            "seat {i}"
        );
    }
    let history = app
        .get(&format!("/v1/hands?table_id={}", table.id), Some(&admin))
        .await;
    ok(&history, StatusCode::OK, "history");
    let ids: Vec<&str> = history.body["hands"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|h| h["hand_id"].as_str())
        .collect();
    assert_eq!(ids, vec![hand2.as_str(), hand1.as_str()], "newest first");

    // The match file: both hands, in order, verified as a chain by `replayer verify`.
    let m = app
        .get(&format!("/v1/tables/{}/bundle", table.id), Some(&admin))
        .await;
    ok(&m, StatusCode::OK, "match file");
    assert_eq!(m.body["format"], "persian-cards/match");
    assert_eq!(m.body["hands"][0]["hand"], hand1.as_str());
    assert_eq!(m.body["hands"][1]["hand"], hand2.as_str());
    let key = app.service_key().await;
    let file = crate::harness::write_temp(&m.body);
    let path = file.path().display().to_string();
    let (code, out, err) = crate::harness::replayer(&["verify", &path, "--key", &key]);
    assert_eq!(code, 0, "replayer verify of the match: {out} {err}");
    assert!(out.contains("2 hands"), "{out}");
    // Hand 1 removed: the chain breaks at the first hand.
    let mut cut = m.body.clone();
    cut["hands"].as_array_mut().unwrap().remove(0);
    let file = crate::harness::write_temp(&cut);
    let path = file.path().display().to_string();
    let (code, out, _) = crate::harness::replayer(&["verify", &path, "--key", &key]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("hand_no"), "{out}");
}

fn started_balances(bundle: &Value) -> Vec<i64> {
    bundle["records"][0]["event"]["body"]["match_state"]["balances"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b.as_i64().unwrap())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_three_seats_two_hands() {
    run(Store::Pg, |env| two_hands(env, 3, 0x9e37_79b9_7f4a_7c15)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_five_seats_two_hands() {
    run(Store::Pg, |env| two_hands(env, 5, 0x2545_f491_4f6c_dd1d)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn embedded_three_seats_two_hands() {
    run(Store::Embedded, |env| {
        two_hands(env, 3, 0x1234_5678_9abc_def1)
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn embedded_five_seats_two_hands() {
    run(Store::Embedded, |env| {
        two_hands(env, 5, 0x0ddc_0ffe_e0dd_f00d)
    })
    .await;
}

/// The entropy deadline: while the seats asked may still add client seeds, a seat cannot
/// deal without them (409 entropy_window_open, with how long to wait); the admin can; on a
/// table whose deadline is 0 a seat can at once, and the `shuffled` event names the seats
/// that gave no seed.
async fn entropy_deadline(env: Env) {
    let app = TestApp::spawn(&env).await;
    let (_, admin) = app.create_club("Kish");
    for deadline in [60_000u64, 0] {
        let t = app
            .post(
                "/v1/tables",
                Some(&admin),
                json!({"game": "bist-o-yek", "entropy_deadline_ms": deadline,
                       "seats": [{"player": "A"}, {"player": "B"}, {"player": "C"}]}),
            )
            .await;
        ok(&t, StatusCode::CREATED, "create table");
        let table = Table {
            id: t.body["table_id"].as_str().unwrap().to_string(),
            tokens: t.body["seats"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s["token"].as_str().unwrap().to_string())
                .collect(),
        };
        let h = start_hand(&app, &admin, &table).await;
        let hand = h["hand_id"].as_str().unwrap().to_string();
        let r = app
            .post(
                &format!("/v1/hands/{hand}/actions"),
                Some(&table.tokens[0]),
                json!({"action": {"type": "accept_bank"}}),
            )
            .await;
        ok(&r, StatusCode::OK, "accept the bank");
        let r = app
            .post(
                &format!("/v1/hands/{hand}/entropy"),
                Some(&table.tokens[1]),
                json!({"seed": "abcd"}),
            )
            .await;
        ok(&r, StatusCode::OK, "entropy");
        let deal = format!("/v1/hands/{hand}/deal");
        let r = app.post(&deal, Some(&table.tokens[2]), json!({})).await;
        if deadline > 0 {
            crate::harness::problem(&r, StatusCode::CONFLICT, "entropy_window_open");
            let wait = r.body["retry_after_ms"].as_u64().unwrap();
            assert!(wait > 0 && wait <= deadline, "{}", r.text);
            let r = app.post(&deal, Some(&admin), json!({})).await;
            ok(&r, StatusCode::OK, "the admin deals at any time");
            let shuffled = r.body["events"][0]["event"]["body"].clone();
            assert_eq!(shuffled["type"], "shuffled");
            assert_eq!(shuffled["missing"], json!([0, 2]), "{shuffled}");
        } else {
            ok(
                &r,
                StatusCode::OK,
                "a seat deals once the deadline (0) has passed",
            );
            let shuffled = r.body["events"][0]["event"]["body"].clone();
            assert_eq!(shuffled["missing"], json!([0, 2]), "{shuffled}");
        }
        let b = {
            let mut rng = Rng(7);
            play_to_end(&app, &admin, &hand, &table.tokens, &mut rng).await;
            verify_bundle(&app, &admin, &hand).await
        };
        assert_eq!(b["status"], "completed");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_entropy_deadline() {
    run(Store::Pg, entropy_deadline).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn embedded_entropy_deadline() {
    run(Store::Embedded, entropy_deadline).await;
}
