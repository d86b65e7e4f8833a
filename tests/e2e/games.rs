//! Hokm and Bluff over HTTP: a complete Hokm match (hands one after another until the
//! scoreboard says the match is over, each hand verified, the chain of hands and the match
//! file checked), single Hokm hands for 3 and 2 players, Bluff hands for 4 and 6 players,
//! and the visibility suite for both games (every seat's view during play equals what
//! `replayer replay --as SEAT` re-derives from the finished bundle; no seat sees a face of
//! another seat's hand; outsiders get nothing; legal actions name only the seat's own
//! cards).
//!
//! Every scenario plays with a fixed seed; `GAMES_SEED=<hex>` replaces it, to explore other
//! games or reproduce one.

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::harness::{ok, problem, replayer, run, verify_bundle, write_temp, Env, Store, TestApp};
use crate::play::{add_entropy, hand_ended, legal, start_hand, Rng, Table};

/// `GAMES_SEED` (hex, not 0: xorshift would stay at 0) when set, else `seed`.
fn seed_or_env(seed: u64) -> u64 {
    let seed = std::env::var("GAMES_SEED")
        .ok()
        .map(|s| u64::from_str_radix(&s, 16).expect("GAMES_SEED is hex"))
        .unwrap_or(seed);
    assert_ne!(seed, 0, "a xorshift seed of 0 never moves");
    seed
}

/// The games these tests play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Game {
    Hokm,
    Bluff,
}

impl Game {
    pub fn id(self) -> &'static str {
        match self {
            Game::Hokm => "hokm",
            Game::Bluff => "bluff",
        }
    }
}

pub async fn create_game_table(
    app: &TestApp,
    admin: &str,
    game: Game,
    seats: usize,
    rules: Value,
) -> (Table, Value) {
    let names = [
        "Dariush", "Shirin", "Babak", "Roya", "Kaveh", "Nasrin", "Arash", "Leila",
    ];
    let seats: Vec<Value> = (0..seats)
        .map(|i| json!({"player": names[i % names.len()]}))
        .collect();
    let t = app
        .post(
            "/v1/tables",
            Some(admin),
            json!({"game": game.id(), "rules": rules, "seats": seats}),
        )
        .await;
    ok(&t, StatusCode::CREATED, "create table");
    assert_eq!(t.body["game"], game.id());
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

fn pick(v: &[Value], rng: &mut Rng) -> Value {
    assert!(!v.is_empty(), "a family with nothing to choose from");
    v[rng.below(v.len())].clone()
}

/// `k` distinct entries of `v`, at random.
fn some(v: &[Value], k: usize, rng: &mut Rng) -> Vec<Value> {
    let mut pool = v.to_vec();
    let mut out = Vec::with_capacity(k);
    while out.len() < k && !pool.is_empty() {
        out.push(pool.swap_remove(rng.below(pool.len())));
    }
    out
}

fn between(lo: u64, hi: u64, rng: &mut Rng) -> u64 {
    assert!(lo <= hi, "an empty range {lo}..={hi}");
    lo + rng.next() % (hi - lo + 1)
}

/// One concrete action of a legal family (as the engines' `LegalAction::sample` does:
/// replayer/src/games/{hokm,bluff}/action.rs).
pub fn concretize(game: Game, family: &Value, rng: &mut Rng) -> Value {
    let t = family["type"].as_str().expect("a family's type");
    let arr = |k: &str| -> Vec<Value> {
        family[k]
            .as_array()
            .unwrap_or_else(|| panic!("{t}: {k} in {family}"))
            .clone()
    };
    let num = |k: &str| -> u64 {
        family[k]
            .as_u64()
            .unwrap_or_else(|| panic!("{t}: {k} in {family}"))
    };
    match (game, t) {
        (Game::Hokm, "cut") => json!({"type": t, "k": between(num("min"), num("max"), rng)}),
        (Game::Hokm, "declare_trump") => json!({"type": t, "suit": pick(&arr("suits"), rng)}),
        (Game::Hokm, "call_ya") => {
            let suits = ["S", "H", "D", "C"];
            let i = rng.below(4);
            let j = (i + 1 + rng.below(3)) % 4;
            json!({"type": t, "x": suits[i], "y": suits[j]})
        }
        (Game::Hokm, "discard") => {
            let count = usize::try_from(num("count")).unwrap();
            json!({"type": t, "cards": some(&arr("from"), count, rng)})
        }
        (Game::Hokm, "choose_final") => json!({"type": t, "card": pick(&arr("cards"), rng)}),
        (Game::Hokm, "peek_partner_packet") => {
            json!({"type": t, "round": pick(&arr("rounds"), rng)})
        }
        (Game::Hokm, "play") => json!({"type": t, "card": pick(&arr("cards"), rng)}),
        (Game::Hokm, "award_cheating_penalty") => {
            let all: Vec<Value> = arr("sides")
                .iter()
                .flat_map(|s| s.as_array().cloned().unwrap_or_default())
                .collect();
            json!({"type": t, "offender": pick(&all, rng)})
        }
        (Game::Bluff, "lead") => {
            let k = between(1, num("max"), rng);
            json!({
                "type": t,
                "rank": pick(&arr("ranks"), rng),
                "cards": some(&arr("cards"), usize::try_from(k).unwrap(), rng),
            })
        }
        (Game::Bluff, "follow") => {
            let k = between(num("min").max(1), num("max"), rng);
            json!({"type": t, "cards": some(&arr("cards"), usize::try_from(k).unwrap(), rng)})
        }
        _ => {
            // A family that is a single action: nothing to fill in.
            assert_eq!(
                family.as_object().map(serde_json::Map::len),
                Some(1),
                "a {} family this test does not know: {family}",
                game.id()
            );
            family.clone()
        }
    }
}

/// One concrete action from a seat's legal families. Bluff: challenge now and then (a
/// pick-up asks for a relabel shuffle mid-hand), otherwise mostly play on.
pub fn choose(game: Game, legal: &[Value], rng: &mut Rng) -> Value {
    assert!(!legal.is_empty());
    let of = |t: &str| legal.iter().find(|l| l["type"] == t);
    if game == Game::Bluff {
        if let Some(c) = of("challenge") {
            if rng.below(5) == 0 {
                return c.clone();
            }
        }
        let play = of("lead").or_else(|| of("follow"));
        if let Some(nc) = of("no_challenge") {
            if play.is_none() || rng.below(6) == 0 {
                return nc.clone();
            }
        }
        if let Some(p) = play {
            return concretize(game, p, rng);
        }
    }
    let family = pick(legal, rng);
    concretize(game, &family, rng)
}

/// The seats that may act now (the main actor first), or why none may.
pub enum Turn {
    Over(Value),
    Shuffle,
    Seats(Vec<usize>),
}

pub async fn turn(app: &TestApp, admin: &str, hand: &str) -> Turn {
    let h = app.get(&format!("/v1/hands/{hand}"), Some(admin)).await;
    ok(&h, StatusCode::OK, "get hand");
    if h.body["status"] != "in_progress" {
        return Turn::Over(h.body);
    }
    if !h.body["to_act"]["shuffle_pending"].is_null() {
        return Turn::Shuffle;
    }
    let seats: Vec<usize> = h.body["to_act"]["actors"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|a| a["seat"].as_u64())
        .map(|s| usize::try_from(s).unwrap())
        .collect();
    assert!(!seats.is_empty(), "a seat to act: {}", h.text);
    Turn::Seats(seats)
}

/// One step of a running hand: entropy when a shuffle is pending, else a seat acts (in
/// Bluff, now and then a seat that is not next asks for a challenge). `Some(final hand)`
/// once the hand is over.
pub async fn game_step(
    app: &TestApp,
    admin: &str,
    hand: &str,
    tokens: &[String],
    game: Game,
    rng: &mut Rng,
) -> Option<Value> {
    let seats = match turn(app, admin, hand).await {
        Turn::Over(h) => return Some(h),
        Turn::Shuffle => {
            add_entropy(app, admin, hand, tokens).await;
            return None;
        }
        Turn::Seats(s) => s,
    };
    let mut seat = seats[0];
    if seats.len() > 1 && game == Game::Bluff && rng.below(8) == 0 {
        seat = seats[1 + rng.below(seats.len() - 1)];
    }
    let (seq, actions) = legal(app, hand, &tokens[seat]).await;
    assert!(
        !actions.is_empty(),
        "seat {seat}, listed to act, has no legal action"
    );
    let action = choose(game, &actions, rng);
    let r = app
        .post(
            &format!("/v1/hands/{hand}/actions"),
            Some(&tokens[seat]),
            json!({"action": action, "expected_seq": seq}),
        )
        .await;
    ok(&r, StatusCode::OK, &format!("seat {seat}: {action}"));
    assert_eq!(r.body["events"][0]["event"]["seq"], seq);
    None
}

pub async fn play_game_to_end(
    app: &TestApp,
    admin: &str,
    hand: &str,
    tokens: &[String],
    game: Game,
    rng: &mut Rng,
) -> Value {
    for _ in 0..5000 {
        if let Some(h) = game_step(app, admin, hand, tokens, game, rng).await {
            return h;
        }
    }
    panic!("the {} hand did not end", game.id());
}

/// The side of `seat` at a Hokm table seated in `seating` order: with 4 players the
/// parity of its place (partners sit opposite), else the seat itself.
fn hokm_side(seat: usize, seating: &Value) -> usize {
    let t: Vec<u64> = seating
        .as_array()
        .expect("seating")
        .iter()
        .map(|s| s.as_u64().unwrap())
        .collect();
    if t.len() == 4 {
        t.iter().position(|x| *x == seat as u64).unwrap() % 2
    } else {
        seat
    }
}

fn hokm_sides(seating: &Value) -> Value {
    let n = seating.as_array().unwrap().len();
    let k = if n == 4 { 2 } else { n };
    json!((0..k)
        .map(|side| {
            (0..n)
                .filter(|s| hokm_side(*s, seating) == side)
                .collect::<Vec<_>>()
        })
        .collect::<Vec<_>>())
}

/// How many committed shuffles a hand used.
fn shuffles(bundle: &Value) -> usize {
    bundle["records"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["event"]["body"]["type"] == "shuffled")
        .count()
}

fn last_hash(bundle: &Value) -> Value {
    bundle["records"].as_array().unwrap().last().unwrap()["hash"].clone()
}

/// Runs `replayer verify FILE --key KEY` on a document: (exit code, stdout + stderr).
fn verify_file(doc: &Value, key: &str) -> (i32, String) {
    let file = write_temp(doc);
    let path = file.path().display().to_string();
    let (code, out, err) = replayer(&["verify", &path, "--key", key]);
    (code, format!("{out}{err}"))
}

/// Scenario: a complete 4-seat Hokm match to 3 points.
async fn hokm_match(env: Env, rules: Value, seed: u64) {
    let app = TestApp::spawn(&env).await;
    let (_, admin) = app.create_club("Tabriz");
    let (table, created) = create_game_table(&app, &admin, Game::Hokm, 4, rules).await;
    assert_eq!(created["rules"]["target_points"], 3, "{created}");
    let mut rng = Rng(seed_or_env(seed));
    let mut prev: Option<(String, Value)> = None;
    let mut match_state = created["match_state"].clone();
    assert_eq!(match_state["over"], false);
    let mut hands: Vec<String> = Vec::new();
    let mut net = [0i64; 4];
    let mut over = false;
    for k in 1..=30u64 {
        let h = start_hand(&app, &admin, &table).await;
        let hand = h["hand_id"].as_str().unwrap().to_string();
        assert_eq!(h["hand_no"], k);
        let started = &h["events"][0]["event"]["body"];
        assert_eq!(started["type"], "hand_started");
        assert_eq!(started["hand_no"], k);
        assert_eq!(
            started["match_state"],
            match_state,
            "hand {k} starts from the match state hand {} ended with",
            k - 1
        );
        match &prev {
            None => assert!(started["prev_hand"].is_null(), "{started}"),
            Some((id, b)) => assert_eq!(
                started["prev_hand"],
                json!({"hand": id, "hash": last_hash(b)}),
                "hand {k} names hand {}",
                k - 1
            ),
        }
        let done = play_game_to_end(&app, &admin, &hand, &table.tokens, Game::Hokm, &mut rng).await;
        assert_eq!(done["status"], "completed", "{done}");
        let bundle = verify_bundle(&app, &admin, &hand).await;
        let ended = hand_ended(&bundle);
        let next = ended["next_match"].clone();
        assert_eq!(ended["outcome"], done["outcome"]);
        assert_eq!(ended["outcome"]["next"], next, "{ended}");
        assert_eq!(next["hand"], k + 1);

        // The scoreboard says what the hand's signed end says.
        let board = app
            .get(&format!("/v1/tables/{}/scoreboard", table.id), Some(&admin))
            .await;
        ok(&board, StatusCode::OK, "scoreboard");
        let b = &board.body;
        assert_eq!(b["match_state"], next, "{}", board.text);
        assert_eq!(b["hands_played"], k);
        assert_eq!(b["completed"], k);
        assert_eq!(b["score_unit"], "points", "{}", board.text);
        assert_eq!(b["sides"], hokm_sides(&next["seating"]), "{}", board.text);
        assert_eq!(b["match_over"], next["over"], "{}", board.text);
        assert!(b["current_hand"].is_null());
        if next["over"] == true {
            assert!(b["next_seat"].is_null(), "{}", board.text);
            assert!(b["next_role"].is_null(), "{}", board.text);
        } else {
            assert_eq!(b["next_role"], "hakem", "{}", board.text);
            assert_eq!(b["next_seat"], next["hakem"], "{}", board.text);
            assert!(next["hakem"].is_u64(), "{next}");
        }
        let standings = b["standings"].as_array().unwrap();
        assert_eq!(standings.len(), 4);
        for (i, s) in standings.iter().enumerate() {
            let side = hokm_side(i, &next["seating"]);
            net[i] += ended["outcome"]["points"]
                [hokm_side(i, &ended["outcome"]["next"]["seating"])]
            .as_i64()
            .unwrap();
            assert_eq!(s["seat"], i);
            assert_eq!(
                s["balance"], next["scores"][side],
                "seat {i}: its side's points: {}",
                board.text
            );
            assert_eq!(s["net_total"], net[i], "seat {i}: {}", board.text);
        }
        let t = app
            .get(&format!("/v1/tables/{}", table.id), Some(&admin))
            .await;
        ok(&t, StatusCode::OK, "table");
        assert_eq!(t.body["match_state"], next);
        assert_eq!(t.body["match_over"], next["over"]);

        // History judges each seat by its side's result.
        if let Some(w) = ended["outcome"]["winner"].as_u64() {
            for i in 0..4 {
                let side = hokm_side(i, &next["seating"]) as u64;
                let result = if side == w { "won" } else { "lost" };
                let player = done["players"][i].as_str().unwrap();
                let hist = app
                    .get(
                        &format!(
                            "/v1/hands?table_id={}&player={player}&result={result}",
                            table.id
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
                        .any(|h| h["hand_id"] == hand.as_str()),
                    "seat {i} (side {side}, winner {w}) {result} hand {k}: {}",
                    hist.text
                );
            }
        }
        hands.push(hand.clone());
        match_state = next.clone();
        prev = Some((hand, bundle));
        if next["over"] == true {
            over = true;
            assert!(next["winner"].is_u64(), "{next}");
            break;
        }
    }
    assert!(
        over,
        "the match to 3 points was not over after 30 hands: {match_state}"
    );
    assert!(
        hands.len() >= 2,
        "a match to 3 points takes 2 hands at least"
    );
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

    // The match file: every hand, in order, verified as a chain.
    let m = app
        .get(&format!("/v1/tables/{}/bundle", table.id), Some(&admin))
        .await;
    ok(&m, StatusCode::OK, "match file");
    assert_eq!(m.body["format"], "persian-cards/match");
    let listed: Vec<&str> = m.body["hands"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["hand"].as_str().unwrap())
        .collect();
    assert_eq!(listed, hands.iter().map(String::as_str).collect::<Vec<_>>());
    let key = app.service_key().await;
    let (code, out) = verify_file(&m.body, &key);
    assert_eq!(code, 0, "replayer verify of the match: {out}");
    assert!(out.contains(&format!("{} hands", hands.len())), "{out}");
    // One hand removed (a middle one when there is one): the chain breaks.
    let gone = if hands.len() > 2 { 1 } else { 0 };
    let mut cut = m.body.clone();
    cut["hands"].as_array_mut().unwrap().remove(gone);
    let (code, out) = verify_file(&cut, &key);
    assert_eq!(code, 1, "hand {} removed: {out}", gone + 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_hokm_match_to_three_points() {
    run(Store::Pg, |env| {
        hokm_match(env, json!({"target_points": 3}), 0x6a09_e667_f3bc_c908)
    })
    .await;
}

/// The partnerships drawn (the players reseated), every trump method, ten-low redeals.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn embedded_hokm_match_partners_by_draw() {
    let rules = json!({
        "target_points": 3,
        "partnerships": "by_draw",
        "trump_methods": ["direct", "sar_ghermez", "sar_siah", "barg_vasat", "ya_x_ya_y"],
        "ten_low": "unlimited",
        "hakem_draw": "highest_card",
    });
    run(Store::Embedded, |env| {
        hokm_match(env, rules, 0x428a_2f98_d728_ae22)
    })
    .await;
}

/// Scenario: one Hokm hand at 3 seats and one at 2, each played to its end and verified.
async fn hokm_few(env: Env, seed: u64) {
    let app = TestApp::spawn(&env).await;
    let (_, admin) = app.create_club("Yazd");
    let mut rng = Rng(seed_or_env(seed));
    for seats in [3usize, 2] {
        let (table, _) = create_game_table(&app, &admin, Game::Hokm, seats, json!({})).await;
        let h = start_hand(&app, &admin, &table).await;
        let hand = h["hand_id"].as_str().unwrap().to_string();
        let done = play_game_to_end(&app, &admin, &hand, &table.tokens, Game::Hokm, &mut rng).await;
        assert_eq!(done["status"], "completed", "{seats} seats: {done}");
        assert_eq!(done["outcome"]["seats"], seats);
        let bundle = verify_bundle(&app, &admin, &hand).await;
        let ended = hand_ended(&bundle);
        assert_eq!(ended["next_match"]["hand"], 2);
        assert_eq!(ended["next_match"]["seats"], seats);
        let tricks: u64 = ended["outcome"]["tricks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_u64().unwrap())
            .sum();
        assert!(tricks >= 7, "a hand is decided by 7 tricks: {ended}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_hokm_three_and_two_seats() {
    run(Store::Pg, |env| hokm_few(env, 0xbb67_ae85_84ca_a73b)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn embedded_hokm_three_and_two_seats() {
    run(Store::Embedded, |env| hokm_few(env, 0x3c6e_f372_fe94_f82b)).await;
}

/// Scenario: Bluff hands for 4 and 6 players, played to the end and verified; the
/// outcome names the king and the thief; `replayer replay --as SEAT --step N` shows a
/// seat's table at a step.
async fn bluff_hands(env: Env, seat_counts: &'static [usize], seed: u64) {
    let app = TestApp::spawn(&env).await;
    let (_, admin) = app.create_club("Rasht");
    let mut rng = Rng(seed_or_env(seed));
    for &seats in seat_counts {
        let (table, _) = create_game_table(&app, &admin, Game::Bluff, seats, json!({})).await;
        let h = start_hand(&app, &admin, &table).await;
        let hand = h["hand_id"].as_str().unwrap().to_string();
        let done =
            play_game_to_end(&app, &admin, &hand, &table.tokens, Game::Bluff, &mut rng).await;
        assert_eq!(done["status"], "completed", "{seats} seats: {done}");
        let titles: Vec<&str> = done["outcome"]["titles"]
            .as_array()
            .unwrap_or_else(|| panic!("titles: {done}"))
            .iter()
            .map(|t| t.as_str().unwrap())
            .collect();
        assert_eq!(titles.len(), seats);
        assert_eq!(
            titles.iter().filter(|t| **t == "king").count(),
            1,
            "{titles:?}"
        );
        assert_eq!(
            titles.iter().filter(|t| **t == "thief").count(),
            1,
            "{titles:?}"
        );
        // History judges each seat by its title: the king won, the thief lost, the
        // others are even.
        for (i, title) in titles.iter().enumerate() {
            let want = match *title {
                "king" => "won",
                "thief" => "lost",
                _ => "even",
            };
            for (result, listed) in [
                ("won", want == "won"),
                ("lost", want == "lost"),
                ("even", want == "even"),
            ] {
                let player = done["players"][i].as_str().unwrap();
                let hist = app
                    .get(
                        &format!(
                            "/v1/hands?table_id={}&player={player}&result={result}",
                            table.id
                        ),
                        Some(&admin),
                    )
                    .await;
                ok(&hist, StatusCode::OK, "history");
                let ids: Vec<&str> = hist.body["hands"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter_map(|h| h["hand_id"].as_str())
                    .collect();
                assert_eq!(
                    ids.contains(&hand.as_str()),
                    listed,
                    "seat {i} ({title}), result={result}: {}",
                    hist.text
                );
            }
        }
        let bundle = verify_bundle(&app, &admin, &hand).await;
        assert_eq!(hand_ended(&bundle)["outcome"], done["outcome"]);
        assert!(
            shuffles(&bundle) >= 2,
            "{seats} seats: no relabel shuffle after a pick-up was exercised"
        );
        let file = write_temp(&bundle);
        let path = file.path().display().to_string();
        let n = bundle["records"].as_array().unwrap().len();
        let step = (n / 2).to_string();
        let (code, out, err) = replayer(&["replay", &path, "--as", "1", "--step", &step]);
        assert_eq!(code, 0, "replayer replay --as 1 --step {step}: {out} {err}");
        assert!(!out.trim().is_empty());
        let (code, out, err) = replayer(&["replay", &path, "--as", "1", "--step", &step, "--json"]);
        assert_eq!(code, 0, "{err}");
        let v: Value = serde_json::from_str(&out).expect("replay --json");
        assert_eq!(v["step"], n / 2);
        let (leaks, _) = foreign_faces(Game::Bluff, &v["table"], Some(1), &[]);
        assert!(leaks.is_empty(), "seat 1's replay shows {leaks:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_bluff_four_and_six_seats() {
    run(Store::Pg, |env| {
        bluff_hands(env, &[4, 6], 0xa54f_f53a_5f1d_36f1)
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn embedded_bluff_four_seats() {
    run(Store::Embedded, |env| {
        bluff_hands(env, &[4], 0x510e_527f_ade6_82d1)
    })
    .await;
}

// ---------------------------------------------------------------------------------------
// Visibility

/// Each seat's hand in a view: (seat, its cards `{"ref", "face"?}`).
fn hands_in(game: Game, view: &Value) -> Vec<(u64, Vec<Value>)> {
    match game {
        Game::Hokm => view["zones"]
            .as_array()
            .expect("zones")
            .iter()
            .filter(|z| z["zone"] == "hand")
            .map(|z| {
                (
                    z["of"].as_u64().expect("a hand's seat"),
                    z["cards"].as_array().unwrap().clone(),
                )
            })
            .collect(),
        Game::Bluff => view["hands"]
            .as_array()
            .expect("hands")
            .iter()
            .map(|h| {
                (
                    h["seat"].as_u64().expect("a hand's seat"),
                    h["cards"].as_array().unwrap().clone(),
                )
            })
            .collect(),
    }
}

/// Faces shown of cards the viewer `me` (None: the public) may not see: another seat's
/// hand (and, in Bluff, another seat's plays on the pile), unless the signed public log
/// already turned that very card face up for everyone (`published`: a Hokm partner
/// method's or ten-low's reveal). Also how many cards of other seats were looked at.
fn foreign_faces(
    game: Game,
    view: &Value,
    me: Option<u64>,
    published: &[(Value, Value)],
) -> (Vec<String>, usize) {
    let mut leaks = Vec::new();
    let mut seen = 0;
    let mut check = |what: String, card: &Value| {
        seen += 1;
        if let Some(face) = card.get("face").filter(|f| !f.is_null()) {
            if !published.contains(&(card["ref"].clone(), face.clone())) {
                leaks.push(format!("{what}: {card}"));
            }
        }
    };
    for (seat, cards) in hands_in(game, view) {
        if Some(seat) != me {
            for c in &cards {
                check(format!("a card in the hand of seat {seat}"), c);
            }
        }
    }
    if game == Game::Bluff {
        for p in view["pile"].as_array().expect("pile") {
            if p["seat"].as_u64() != me {
                for c in p["cards"].as_array().unwrap() {
                    check(format!("a pile card played by seat {}", p["seat"]), c);
                }
            }
        }
    }
    (leaks, seen)
}

/// Every card the public log has shown face up so far: `{"card": ref, "face"}` in the
/// effects of the hand's events.
async fn published_faces(app: &TestApp, admin: &str, hand: &str) -> Vec<(Value, Value)> {
    fn walk(v: &Value, out: &mut Vec<(Value, Value)>) {
        match v {
            Value::Object(m) => {
                if let (Some(card), Some(face)) = (m.get("card"), m.get("face")) {
                    if card.get("pos").is_some() && !face.is_null() {
                        out.push((card.clone(), face.clone()));
                    }
                }
                m.values().for_each(|x| walk(x, out));
            }
            Value::Array(a) => a.iter().for_each(|x| walk(x, out)),
            _ => {}
        }
    }
    let ev = app
        .get(&format!("/v1/hands/{hand}/events?limit=1000"), Some(admin))
        .await;
    ok(&ev, StatusCode::OK, "events");
    assert!(ev.body["next_from"].is_null(), "more than 1000 events");
    let mut out = Vec::new();
    for r in ev.body["events"].as_array().unwrap() {
        walk(&r["event"]["body"]["effects"], &mut out);
    }
    out
}

/// Every card ref `{shuffle, pos}` named anywhere in a JSON value.
fn refs_in(v: &Value, out: &mut Vec<Value>) {
    match v {
        Value::Object(m) => {
            if m.len() == 2 && m.contains_key("shuffle") && m.contains_key("pos") {
                out.push(v.clone());
            }
            m.values().for_each(|x| refs_in(x, out));
        }
        Value::Array(a) => a.iter().for_each(|x| refs_in(x, out)),
        _ => {}
    }
}

async fn outsiders_get_nothing(
    app: &TestApp,
    hand: &str,
    other_seat: &str,
    other_admin: &str,
    what: &str,
) {
    for path in [
        format!("/v1/hands/{hand}"),
        format!("/v1/hands/{hand}/events"),
        format!("/v1/hands/{hand}/replay?step=0"),
        format!("/v1/hands/{hand}/legal-actions"),
        format!("/v1/hands/{hand}/bundle"),
    ] {
        let w = format!("{what}: {path}");
        let r = app.get(&path, None).await;
        assert_eq!(
            r.status,
            StatusCode::UNAUTHORIZED,
            "{w} without a token: {}",
            r.text
        );
        let r = app.get(&path, Some(other_seat)).await;
        assert_eq!(
            r.status,
            StatusCode::NOT_FOUND,
            "{w}, another table's seat: {}",
            r.text
        );
        let r = app.get(&path, Some(other_admin)).await;
        assert_eq!(
            r.status,
            StatusCode::NOT_FOUND,
            "{w}, another club: {}",
            r.text
        );
    }
    let r = app
        .post(
            &format!("/v1/hands/{hand}/actions"),
            Some(other_seat),
            json!({"action": {"type": "no_challenge"}}),
        )
        .await;
    assert_eq!(
        r.status,
        StatusCode::NOT_FOUND,
        "{what}: another table's seat acts: {}",
        r.text
    );
}

/// Scenario: who sees what in a running hand of `game`.
async fn visibility(env: Env, game: Game, seats: usize, rules: Value, seed: u64) {
    let app = TestApp::spawn(&env).await;
    let (_, admin) = app.create_club("Kerman");
    let (_, other_admin) = app.create_club("Qazvin");
    let (table, _) = create_game_table(&app, &admin, game, seats, rules).await;
    let (other_table, _) = create_game_table(&app, &admin, game, seats, json!({})).await;
    let h = start_hand(&app, &admin, &table).await;
    let hand = h["hand_id"].as_str().unwrap().to_string();
    start_hand(&app, &admin, &other_table).await;
    let other_seat = other_table.tokens[0].clone();
    outsiders_get_nothing(&app, &hand, &other_seat, &other_admin, "at the start").await;

    let mut rng = Rng(seed_or_env(seed));
    // (next seq of the moment, seat, the seat's view then)
    let mut views: Vec<(u64, u64, Value)> = Vec::new();
    let mut foreign_seen = 0;
    let mut own_seen = 0;
    let mut legal_refs = 0;
    let mut steps = 0;
    loop {
        steps += 1;
        assert!(steps < 5000, "the hand did not end");
        let pv = app.get(&format!("/v1/hands/{hand}"), Some(&admin)).await;
        ok(&pv, StatusCode::OK, "admin view");
        if pv.body["status"] != "in_progress" {
            break;
        }
        assert_eq!(pv.body["viewer"], "public");
        let published = published_faces(&app, &admin, &hand).await;
        let (leaks, _) = foreign_faces(game, &pv.body["view"], None, &published);
        assert!(leaks.is_empty(), "the public view shows {leaks:?}");
        let seq = pv.body["next_seq"].as_u64().unwrap();
        // Whose hand each card is in (the public view lists every hand's refs).
        let owner = |r: &Value| -> Option<u64> {
            hands_in(game, &pv.body["view"])
                .into_iter()
                .find(|(_, cards)| cards.iter().any(|c| &c["ref"] == r))
                .map(|(s, _)| s)
        };
        for (i, tok) in table.tokens.iter().enumerate() {
            let me = i as u64;
            let v = app.get(&format!("/v1/hands/{hand}"), Some(tok)).await;
            ok(&v, StatusCode::OK, "seat view");
            assert_eq!(v.body["viewer"], "seat");
            assert_eq!(v.body["next_seq"], seq, "nothing moved between the reads");
            let view = v.body["view"].clone();
            let (leaks, seen) = foreign_faces(game, &view, Some(me), &published);
            assert!(leaks.is_empty(), "seat {i}'s view shows {leaks:?}");
            foreign_seen += seen;
            for (seat, cards) in hands_in(game, &view) {
                if seat == me {
                    for c in &cards {
                        assert!(
                            c["face"].is_object() || c["face"].is_string(),
                            "seat {i} sees its own card: {c}"
                        );
                        own_seen += 1;
                    }
                }
            }
            // The seat's replay of the latest event, rebuilt by the service from the
            // store, is the same table.
            let rp = app
                .get(
                    &format!("/v1/hands/{hand}/replay?step={}", seq - 1),
                    Some(tok),
                )
                .await;
            ok(&rp, StatusCode::OK, "seat replay");
            assert_eq!(rp.body["viewer"], "seat");
            assert_eq!(
                rp.body["view"],
                view,
                "seat {i}: the service's replay of step {} differs from its live view",
                seq - 1
            );
            views.push((seq, me, view));
            let l = app
                .get(&format!("/v1/hands/{hand}/legal-actions"), Some(tok))
                .await;
            ok(&l, StatusCode::OK, "legal actions");
            assert_eq!(l.body["actor"]["seat"], i);
            let mut named = Vec::new();
            refs_in(&l.body["legal_actions"], &mut named);
            for r in &named {
                if let Some(o) = owner(r) {
                    assert_eq!(
                        o, me,
                        "seat {i}'s legal actions name card {r} of seat {o}: {}",
                        l.text
                    );
                }
            }
            legal_refs += named.len();
        }
        if steps % 25 == 0 {
            outsiders_get_nothing(&app, &hand, &other_seat, &other_admin, "mid-hand").await;
        }
        if game_step(&app, &admin, &hand, &table.tokens, game, &mut rng)
            .await
            .is_some()
        {
            break;
        }
    }
    assert!(foreign_seen > 0, "no other seat's card was ever looked at");
    assert!(own_seen > 0, "no seat ever held a card");
    assert!(legal_refs > 0, "no legal action ever named a card");

    // The hand is over: each recorded seat view is what the engine's seat view of the
    // signed log says, re-derived offline by `replayer replay --as SEAT`.
    let bundle = verify_bundle(&app, &admin, &hand).await;
    if game == Game::Bluff {
        assert!(
            shuffles(&bundle) >= 2,
            "no pile was taken up (no relabel shuffle): the views after one were not checked"
        );
    }
    let file = write_temp(&bundle);
    let path = file.path().display().to_string();
    for (seq, seat, view) in &views {
        let step = (seq - 1).to_string();
        let (code, out, err) = replayer(&[
            "replay",
            &path,
            "--step",
            &step,
            "--as",
            &seat.to_string(),
            "--json",
        ]);
        assert_eq!(code, 0, "replayer replay --step {step} --as {seat}: {err}");
        let r: Value = serde_json::from_str(&out).expect("replay --json");
        assert_eq!(
            &r["table"], view,
            "seat {seat} at step {step}: the service showed what the engine's seat view \
             is not"
        );
    }
    assert!(views.len() > seats * 5);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_hokm_visibility() {
    run(Store::Pg, |env| {
        visibility(env, Game::Hokm, 4, json!({}), 0x9b05_688c_2b3e_6c1f)
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_hokm_two_seats_visibility() {
    run(Store::Pg, |env| {
        visibility(
            env,
            Game::Hokm,
            2,
            json!({"peek_burned": true, "cut": "dealers_left_cuts"}),
            0x1f83_d9ab_fb41_bd6b,
        )
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_bluff_visibility() {
    run(Store::Pg, |env| {
        visibility(env, Game::Bluff, 4, json!({}), 0x5be0_cd19_137e_2179)
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn embedded_bluff_six_seats_visibility() {
    run(Store::Embedded, |env| {
        visibility(env, Game::Bluff, 6, json!({}), 0xcbbb_9d5d_c105_9ed8)
    })
    .await;
}

/// Bluff's other house rules: two cards set aside, follows as many as the lead, passing,
/// no cap on a play.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_bluff_six_seats_house_rules_visibility() {
    let rules = json!({
        "uneven_deal": "set_aside_remainder",
        "follow_count": "same_as_lead",
        "max_cards_per_play": "unlimited",
        "allow_pass": true,
        "leader_after_challenge": "pile_taker",
        "failed_challenge_liability": "requester",
        "titles": "with_executioner",
    });
    run(Store::Pg, |env| {
        visibility(env, Game::Bluff, 6, rules, 0x7137_4491_23ef_65cd)
    })
    .await;
}

/// Hokm's partner trump methods (the hakem's packets held back, the partner's cards
/// turned) with the partnerships drawn.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_hokm_partner_methods_visibility() {
    let rules = json!({
        "partnerships": "by_draw",
        "trump_methods": ["sar_ghermez", "sar_siah", "barg_vasat", "ya_x_ya_y"],
        "ten_low": "unlimited",
    });
    run(Store::Pg, |env| {
        visibility(env, Game::Hokm, 4, rules, 0xd807_aa98_a303_0242)
    })
    .await;
}

/// 3-player Hokm (51 cards) with the dealer's left cutting, ten-low redeals and bam.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn embedded_hokm_three_seats_visibility() {
    let rules = json!({
        "hakem_draw": "highest_card",
        "cut": "dealers_left_cuts",
        "removed_two": "H",
        "ten_low": "unlimited",
        "bam": "on",
        "kot_3p": true,
    });
    run(Store::Embedded, |env| {
        visibility(env, Game::Hokm, 3, rules, 0x1f83_d9ab_fb41_bd6c)
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_bluff_eight_seats() {
    run(Store::Pg, |env| {
        bluff_hands(env, &[8], 0x0123_4567_89ab_cdef)
    })
    .await;
}
