//! The openings of private actions through the service's own write and restore paths,
//! on the embedded store. No registered game has a private action yet (Bluff's face-down
//! plays name their cards by committed positions, in public `action` events), so the hand
//! here is the toy engine's (`replayer::toy`: two seats each choose a card in secret),
//! started, appended and restored as `start`, `mutate` and `restore` do it; only the
//! engine is looked up otherwise (the registry refuses the toy's borrowed game id).

use std::path::Path;

use actix_web::http::StatusCode;
use replayer::dealer::{self, HandParams, LiveHand, SeedSource};
use replayer::engine::{Actor, Engine, GameId, SeatIndex};
use replayer::log::{Body, OpenedInput, SeatInfo};
use replayer::toy::Toy;
use serde_json::{json, Value};

use super::{append, event_row, records, sealed};
use crate::config::StoreArgs;
use crate::idempotency::Reply;
use crate::keys::{input_aad, seed_aad};
use crate::store::{ApiKeyRow, ClubRow, HandRow, HandStatus, KeyRole, SeatRow, TableRow};
use crate::{now_ms, Service};

static TOY: Engine<Toy> = Engine::new();

const CLUB: &str = "c_toy";
const HAND: &str = "h_toy";

/// The service on the embedded store in `dir`, as `serve` opens it: the same folder
/// gives the same keys, seal key and database (a restart).
async fn service(dir: &Path) -> Service {
    Service::open(&StoreArgs::embedded(dir))
        .await
        .expect("open the service")
}

/// A club with a two-seat table, and a toy hand started on it as `start` starts a hand:
/// its row and first event with the sealed seed of shuffle 0, then what follows at once.
async fn start_toy(svc: &Service) -> (HandRow, LiveHand) {
    let store = svc.store.as_ref();
    store
        .create_club(
            &ClubRow {
                club_id: CLUB.into(),
                name: "Toy".into(),
                created_ms: 0,
            },
            &ApiKeyRow {
                club_id: CLUB.into(),
                key_id: "k_toy".into(),
                key_hash: "ab".repeat(32),
                role: KeyRole::Admin,
                created_ms: 0,
            },
        )
        .await
        .expect("club");
    let match_state = json!({"seats": 2, "over": false});
    store
        .create_table(
            &TableRow {
                club_id: CLUB.into(),
                table_id: "t_toy".into(),
                game: GameId::Sheytoonak.to_string(),
                rules: json!({}),
                setup: json!({}),
                match_state: match_state.clone(),
                match_version: 0,
                seats: (0..2i16)
                    .map(|i| SeatRow {
                        seat: i,
                        player: format!("p{i}"),
                        token_id: format!("st_toy{i}"),
                        token_hash: "cd".repeat(32),
                        public_key: None,
                    })
                    .collect(),
                created_ms: 0,
            },
            None,
        )
        .await
        .expect("table");
    let params = HandParams {
        hand_id: HAND.into(),
        club: CLUB.into(),
        table: "t_toy".into(),
        hand_no: 1,
        game: GameId::Sheytoonak,
        rules: json!({}),
        match_state,
        seats: (0..2)
            .map(|i| SeatInfo {
                seat: SeatIndex(i),
                player: format!("p{i}"),
                public_key: None,
            })
            .collect(),
        client_entropy: false,
        prev_hand: None,
    };
    let key = svc.keys.current();
    let now = now_ms();
    let (mut hand, mut all) =
        LiveHand::start_with_engine(params, &TOY, SeedSource::Os, key, now).expect("start");
    all.extend(hand.settle_after_start(key, now).expect("settle"));
    let now_i = i64::try_from(now).unwrap();
    let mut row = HandRow {
        club_id: CLUB.into(),
        hand_id: HAND.into(),
        table_id: "t_toy".into(),
        game: GameId::Sheytoonak.to_string(),
        hand_no: 1,
        status: HandStatus::InProgress,
        next_seq: 0,
        players: vec!["p0".into(), "p1".into()],
        started_ms: now_i,
        ended_ms: None,
        outcome: None,
        abandon_reason: None,
        quarantine: None,
    };
    // As `start` writes it: every event of the start and every seed, in one commit.
    let secrets = sealed::seal_seeds(svc, CLUB, &hand, 0).expect("seal");
    let rows: Vec<_> = all
        .iter()
        .map(|r| event_row(CLUB, r, now_i).unwrap())
        .collect();
    store
        .create_hand(&row, &rows, &secrets, None)
        .await
        .expect("create hand");
    row.next_seq = i64::try_from(rows.len()).unwrap();
    (row, hand)
}

/// `seat` chooses the second card it may, through `append` as `mutate` writes an action.
async fn choose(svc: &Service, row: &HandRow, hand: &LiveHand, seat: u8) -> LiveHand {
    let actor = Actor::Seat(SeatIndex(seat));
    let card = hand.legal_actions(actor)[0]["cards"][1].clone();
    let mut next = hand.clone();
    let seq = next.next_seq();
    let seeds = next.server_seeds().len();
    let recs = next
        .act(
            actor,
            json!({"type": "choose", "card": card}),
            None,
            svc.keys.current(),
            now_ms(),
        )
        .expect("a legal choice");
    assert!(
        matches!(recs[0].event.body, Body::PrivateAction { .. }),
        "the choice is logged as a commitment"
    );
    let reply = Reply::new(StatusCode::OK, json!({})).unwrap();
    append(svc, row, seq, seeds, &next, &recs, None, None, &reply)
        .await
        .expect("prepare")
        .expect("append");
    next
}

/// The hand as `restore` rebuilds it from the store, on the toy engine.
async fn restored(svc: &Service) -> LiveHand {
    let row = svc
        .store
        .get_hand(CLUB, HAND)
        .await
        .unwrap()
        .expect("the hand");
    let all = records(svc.store.as_ref(), CLUB, HAND, None)
        .await
        .expect("records");
    let (seeds, openings) = sealed::secrets_of(svc, &row, &all).await.expect("secrets");
    LiveHand::restore_with_engine(&all, seeds, openings, SeedSource::Os, &TOY)
        .unwrap_or_else(|e| panic!("the hand restores: {e}"))
}

/// The openings a finished hand's reveal publishes.
fn revealed(hand: &LiveHand, all: &[replayer::log::Record]) -> Vec<OpenedInput> {
    assert_ne!(hand.status(), dealer::HandStatus::InProgress);
    match &all.last().expect("records").event.body {
        Body::SeedsRevealed { inputs, .. } => inputs.clone(),
        other => panic!("the hand ends in its reveal, not {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_running_hand_with_a_private_choice_goes_on_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let svc = service(dir.path()).await;
    let (row, hand) = start_toy(&svc).await;
    let hand = choose(&svc, &row, &hand, 1).await;
    let before = hand.openings();
    assert_eq!(before.len(), 1);
    drop(svc);

    // Another process (or this one, started again) knows the hand only from the store.
    let svc = service(dir.path()).await;
    let back = restored(&svc).await;
    assert_eq!(back.next_seq(), hand.next_seq());
    assert_eq!(
        back.openings(),
        before,
        "the opening, unsealed as it was made"
    );
    let done = choose(&svc, &row, &back, 0).await;
    assert_eq!(done.status(), dealer::HandStatus::Completed);

    // The reveal opens both choices, the one made before the restart as it was made;
    // and the finished hand restores from the reveal alone, checking each opening
    // against its commitment.
    let all = records(svc.store.as_ref(), CLUB, HAND, None).await.unwrap();
    let opened = revealed(&done, &all);
    assert_eq!(opened.len(), 2);
    assert!(opened.contains(&before[0]));
    let finished = restored(&svc).await;
    assert_eq!(finished.status(), dealer::HandStatus::Completed);
    assert_eq!(finished.openings(), opened);
    // Kept after the end, as sealed seeds are.
    assert_eq!(svc.store.get_inputs(CLUB, HAND).await.unwrap().len(), 2);
}

/// Every string, object and the salt an opening holds, as they would appear in a
/// plaintext: canonical JSON of the action and of each of its values, member names.
fn plaintext_needles(o: &OpenedInput) -> Vec<Vec<u8>> {
    let canon = |v: &Value| replayer::log::canonical_bytes(v).unwrap();
    let mut out = vec![
        canon(&o.action),
        o.salt.to_hex().into_bytes(),
        o.salt.0.to_vec(),
        b"\"salt\"".to_vec(),
        b"\"action\"".to_vec(),
    ];
    if let Value::Object(m) = &o.action {
        for (k, v) in m {
            out.push(format!("\"{k}\"").into_bytes());
            out.push(canon(v));
        }
    }
    out
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    !needle.is_empty() && hay.windows(needle.len()).any(|w| w == needle)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sealed_opening_holds_no_plaintext_and_opens_only_in_its_place() {
    let dir = tempfile::tempdir().unwrap();
    let svc = service(dir.path()).await;
    let (row, hand) = start_toy(&svc).await;
    let hand = choose(&svc, &row, &hand, 1).await;
    let opening = hand.openings().remove(0);

    // The row as the database holds it.
    let rows = svc.store.get_inputs(CLUB, HAND).await.unwrap();
    assert_eq!(rows.len(), 1);
    let sealed = &rows[0].sealed;
    assert_eq!(u64::try_from(rows[0].seq).unwrap(), opening.seq);
    for n in plaintext_needles(&opening) {
        assert!(
            !contains(sealed, &n),
            "the sealed row holds {:?} in the clear",
            String::from_utf8_lossy(&n)
        );
    }

    // It opens under its own associated data only: not as a seed, not at another seq,
    // hand or club.
    let seq = opening.seq;
    let plain = svc
        .seal
        .unseal(&input_aad(CLUB, HAND, seq), sealed)
        .expect("opens in its place");
    let json = serde_json::to_value(&opening).unwrap();
    assert_eq!(plain, replayer::log::canonical_bytes(&json).unwrap());
    for aad in [
        seed_aad(CLUB, HAND, u32::try_from(seq).unwrap()),
        input_aad(CLUB, HAND, seq + 1),
        input_aad(CLUB, "h_other", seq),
        input_aad("c_other", HAND, seq),
    ] {
        assert!(svc.seal.unseal(&aad, sealed).is_err());
    }
}

/// The hand a table's next hand follows in its match: the one numbered just before it,
/// whatever its status but quarantined; a number missing on the way (a row deleted
/// behind the service's back) is `409 match_broken` naming it, never a skip past it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hand_follows_the_number_before_it_and_a_missing_number_breaks_the_match() {
    let dir = tempfile::tempdir().unwrap();
    let svc = service(dir.path()).await;
    let (first, _) = start_toy(&svc).await;
    let table = svc
        .store
        .get_table(CLUB, "t_toy")
        .await
        .unwrap()
        .expect("the table");
    // Hand 3 of the table, ended, with no hand 2 before it.
    let third = HandRow {
        hand_id: "h_toy3".into(),
        hand_no: 3,
        status: HandStatus::Completed,
        next_seq: 1,
        ..first.clone()
    };
    let events = records(svc.store.as_ref(), CLUB, HAND, Some(0))
        .await
        .unwrap()
        .iter()
        .map(|r| event_row(CLUB, r, 0).unwrap())
        .map(|mut e| {
            e.hand_id = third.hand_id.clone();
            e
        })
        .collect::<Vec<_>>();
    svc.store
        .create_hand(&third, &events, &[], None)
        .await
        .expect("hand 3");

    let before = |no| super::predecessor(&svc, CLUB, &table, no, None);
    assert_eq!(
        before(1).await.unwrap(),
        None,
        "the first hand follows none"
    );
    let h = before(2).await.unwrap().expect("hand 1");
    assert_eq!((h.hand_id.as_str(), h.hand_no), (HAND, 1));
    let h = before(4).await.unwrap().expect("hand 3");
    assert_eq!((h.hand_id.as_str(), h.hand_no), ("h_toy3", 3));
    // A row of the number before, just read by the caller, is taken as it is; one of
    // another number is not.
    let known = HandRow {
        outcome: Some(json!({"as": "the caller read it"})),
        ..third.clone()
    };
    let h = super::predecessor(&svc, CLUB, &table, 4, Some(known.clone()))
        .await
        .unwrap();
    assert_eq!(h, Some(known.clone()), "the caller's row, not read again");
    let h = super::predecessor(&svc, CLUB, &table, 2, Some(known))
        .await
        .unwrap()
        .expect("hand 1");
    assert_eq!((h.hand_id.as_str(), h.hand_no), (HAND, 1));
    let e = before(3).await.expect_err("hand 2 is missing");
    let body = e.body();
    assert_eq!(body["status"], StatusCode::CONFLICT.as_u16(), "{body}");
    assert_eq!(body["code"], "match_broken", "{body}");
    assert!(
        body["detail"]
            .as_str()
            .unwrap_or_default()
            .contains("hand 2 "),
        "{body}"
    );
}

/// A hand's start keeps the row it wrote as the running hand's cached row (as a read
/// would), equal to the row as stored: the hand's first action does not read it back,
/// and a retry that compares the cached row with the stored one sees no difference.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_started_hands_row_is_cached_as_stored() {
    let dir = tempfile::tempdir().unwrap();
    let svc = service(dir.path()).await;
    // A club id of the shape seat tokens carry (the toy's is not).
    let club = "c_0123456789abcdef";
    svc.store
        .create_club(
            &ClubRow {
                club_id: club.into(),
                name: "Bist".into(),
                created_ms: 0,
            },
            &ApiKeyRow {
                club_id: club.into(),
                key_id: "k_bist".into(),
                key_hash: "cd".repeat(32),
                role: KeyRole::Admin,
                created_ms: 0,
            },
        )
        .await
        .expect("club");
    let admin = crate::auth::Caller {
        club_id: club.into(),
        id: "k_bist".into(),
        role: crate::auth::Role::Admin,
    };
    let req = serde_json::from_value(json!({
        "game": "bist-o-yek",
        "seats": [{"player": "Azar"}, {"player": "Bahram"}],
        "client_entropy": false,
    }))
    .unwrap();
    let made = crate::tables::create(&svc, &admin, req, None)
        .await
        .expect("a table");
    let made: Value = serde_json::from_str(made.body.get()).unwrap();
    let table = made["table_id"].as_str().expect("table_id");
    let started = super::start(&svc, &admin, table, None)
        .await
        .expect("a hand");
    let started: Value = serde_json::from_str(started.body.get()).unwrap();
    let hand = started["hand_id"].as_str().expect("hand_id");
    let stored = svc
        .store
        .get_hand(club, hand)
        .await
        .unwrap()
        .expect("the stored row");
    assert_eq!(
        svc.live.fresh_row(club, hand),
        Some(stored.clone()),
        "the start's row is cached as stored"
    );
    assert_eq!(started["next_seq"], stored.next_seq, "{started}");
}
