//! The `replayer` command with `--game ghahve`, run as a real process: a simulated match
//! (`--hands K`) that `verify` checks as a chain, one hand under house rules, `replay` of a
//! step as a seat, `deck`, `view`, and clear errors for a seat count or a house rule the
//! spec does not allow.

use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::Value;

const SEED: &str = "6768617668652d63617264732d6f6e2d7468652d7461626c652d2d2d2d2d2d2d";

fn temp_path(name: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("replayer-ghahve-cli");
    std::fs::create_dir_all(&dir).unwrap();
    let n = N.fetch_add(1, Ordering::SeqCst);
    dir.join(format!("{}-{n}-{name}", std::process::id()))
}

/// (exit code, stdout, stderr)
fn run(args: &[&str]) -> (i32, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_replayer"))
        .args(args)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        err,
    )
}

#[test]
fn a_simulated_ghahve_match_verifies_as_a_chain() {
    let out = temp_path("match.json");
    let path = out.display().to_string();
    let (code, _, err) = run(&[
        "simulate",
        "--game",
        "ghahve",
        "--players",
        "4",
        "--hands",
        "4",
        "--rules",
        r#"{"target_score": 60, "buying": "on"}"#,
        "--seed",
        SEED,
        "-o",
        &path,
    ]);
    assert_eq!(code, 0, "{err}");
    let m: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let hands = m["hands"].as_array().unwrap().len();
    assert!((1..=4).contains(&hands), "{hands} hands");
    let (code, stdout, err) = run(&["verify", &path]);
    assert_eq!(code, 0, "{stdout}{err}");
    assert!(stdout.contains(&format!("{hands} hands")), "{stdout}");
}

#[test]
fn a_ghahve_hand_replays_as_a_seat_and_hides_the_other_hands() {
    let out = temp_path("hand.json");
    let path = out.display().to_string();
    let (code, _, err) = run(&[
        "simulate",
        "--game",
        "ghahve",
        "--players",
        "4",
        "--rules",
        r#"{"joker_lead": "calls_spades", "cj_release": "next_trick", "bj_deadline": 9}"#,
        "--seed",
        SEED,
        "-o",
        &path,
    ]);
    assert_eq!(code, 0, "{err}");
    let (code, stdout, err) = run(&["verify", &path]);
    assert_eq!(code, 0, "{stdout}{err}");
    let b: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let rules = &b["records"][0]["event"]["body"]["rules"];
    assert_eq!(rules["bj_deadline"], 9);
    assert_eq!(rules["target_score"], 501, "defaults are recorded: {rules}");
    // The first bid: by then every hand is dealt.
    let bid = b["records"]
        .as_array()
        .unwrap()
        .iter()
        .position(|r| r["event"]["body"]["action"]["type"] == "bid")
        .unwrap();
    let (code, stdout, err) = run(&[
        "replay",
        &path,
        "--step",
        &bid.to_string(),
        "--as",
        "2",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let step: Value = serde_json::from_str(&stdout).unwrap();
    let zones = step["table"]["zones"].as_array().unwrap();
    let mut own = 0;
    for z in zones.iter().filter(|z| z["zone"] == "hand") {
        for c in z["cards"].as_array().unwrap() {
            if z["of"] == 2 {
                assert!(c.get("face").is_some());
                own += 1;
            } else {
                assert!(c.get("face").is_none(), "seat 2 sees {z}");
            }
        }
    }
    assert_eq!(own, 13);
    let view_out = temp_path("hand.html");
    let (code, _, err) = run(&["view", &path, "--out", &view_out.display().to_string()]);
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::metadata(&view_out).unwrap().len() > 1000);
}

#[test]
fn the_ghahve_deck_has_both_jokers_and_no_red_twos() {
    let (code, stdout, err) = run(&["deck", "--game", "ghahve", "--seed", SEED]);
    assert_eq!(code, 0, "{err}");
    for card in ["BJ", "CJ", "2S", "2C", "3H", "3D"] {
        assert!(
            stdout
                .split_whitespace()
                .any(|w| w.trim_matches(|c: char| !c.is_ascii_alphanumeric()) == card),
            "{card}: {stdout}"
        );
    }
    for card in ["2H", "2D"] {
        assert!(
            !stdout
                .split_whitespace()
                .any(|w| w.trim_matches(|c: char| !c.is_ascii_alphanumeric()) == card),
            "{card}: {stdout}"
        );
    }
}

#[test]
fn ghahve_refuses_other_seat_counts_and_bad_rules_clearly() {
    for n in ["2", "3", "5"] {
        let (code, stdout, err) = run(&[
            "simulate",
            "--game",
            "ghahve",
            "--players",
            n,
            "--seed",
            SEED,
        ]);
        assert_eq!(code, 2, "{n} players: {err}");
        assert!(err.contains("4"), "{n}: {err}");
        assert!(stdout.is_empty());
    }
    let (code, _, err) = run(&[
        "simulate",
        "--game",
        "ghahve",
        "--players",
        "4",
        "--rules",
        r#"{"bj_deadline": 11}"#,
        "--seed",
        SEED,
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("bj_deadline"), "{err}");
}
