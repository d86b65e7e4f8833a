//! `replayer log inclusion`, `replayer log consistency` and `replayer monitor`, run as real
//! processes against logs written with the library into directories, and served over HTTP
//! by a small server in the test (exit 0 holds, 1 does not, 2 unreadable or usage error).

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

use replayer::bundle::RawBundle;
use replayer::log::{Hash, SigningKeyPair};
use replayer::tlog::{
    bundle_last_leaf, consistency_proof, inclusion_proof, Checkpoint, ConsistencyProofFile,
    DirTiles, HandLogProof, HandSalt, LeafEntry, NoteSigner, Origin, TileHashReader, TiledLog,
};

const BASE: &str = "cards.example.org/v1";
const BUNDLE: &str = "../docs/vectors/bundles-v1/bluff-4-seats-relabel.json";

fn temp_dir(name: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let n = N.fetch_add(1, Ordering::SeqCst);
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("replayer-tlog-cli")
        .join(format!("{}-{n}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

impl std::fmt::Debug for Run {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "exit {:?}\n--- stdout\n{}\n--- stderr\n{}",
            self.code, self.stdout, self.stderr
        )
    }
}

fn run(args: &[&str]) -> Run {
    let o = Command::new(env!("CARGO_BIN_EXE_replayer"))
        .args(args)
        .output()
        .unwrap();
    Run {
        code: o.status.code(),
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

#[track_caller]
fn expect(r: &Run, code: i32, needle: &str) {
    assert_eq!(r.code, Some(code), "{r:?}");
    assert!(
        r.stdout.contains(needle) || r.stderr.contains(needle),
        "{needle:?} not in output: {r:?}"
    );
}

fn signer(club: &str) -> NoteSigner {
    let origin = Origin::for_club(BASE, club).unwrap();
    NoteSigner::new(origin.as_str(), SigningKeyPair::from_secret([4; 32])).unwrap()
}

fn filler(i: u64, tag: u8) -> LeafEntry {
    let mut e = [tag; 33];
    e[0] = 1;
    e[1..9].copy_from_slice(&i.to_be_bytes());
    LeafEntry(e)
}

/// A club log in `dir`: appends `entries` to what is there (of `from` leaves), writes the
/// partial tiles and a signed checkpoint; returns the checkpoint's text.
fn grow(dir: &Path, from: u64, entries: &[LeafEntry], s: &NoteSigner) -> String {
    let mut tiles = DirTiles::new(dir);
    let mut log = TiledLog::open(&tiles, from).unwrap();
    for e in entries {
        log.append(e.as_bytes(), &mut tiles).unwrap();
    }
    log.write_partials(&mut tiles).unwrap();
    let origin = Origin::new(s.verifier().name()).unwrap();
    let note = Checkpoint::new(origin, log.size(), log.root())
        .sign(s)
        .unwrap();
    std::fs::write(dir.join("checkpoint"), &note).unwrap();
    note
}

fn fillers(range: std::ops::Range<u64>, tag: u8) -> Vec<LeafEntry> {
    range.map(|i| filler(i, tag)).collect()
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_str().unwrap().to_string()
}

/// A club log of 700 leaves holding the test bundle's last event at leaf 300, and the
/// hand's log proof for size 700.
struct HandLog {
    dir: PathBuf,
    checkpoint: String,
    proof: String,
    vkey: String,
    club: String,
}

fn hand_log(name: &str) -> HandLog {
    let dir = temp_dir(name);
    let bundle: RawBundle =
        serde_json::from_str(&std::fs::read_to_string(BUNDLE).unwrap()).unwrap();
    let salt = HandSalt([0x0d; 32]);
    let leaf = bundle_last_leaf(&bundle, &salt).unwrap();
    let s = signer(&leaf.club);
    let logdir = dir.join("log");
    let mut entries = fillers(0..300, 7);
    entries.push(leaf.entry);
    entries.extend(fillers(301..700, 7));
    let note = grow(&logdir, 0, &entries, &s);
    let proof =
        inclusion_proof(&TileHashReader::new(DirTiles::new(&logdir), 700), 300, 700).unwrap();
    let hp = HandLogProof::new(s.verifier().name(), &bundle.hand, salt, 300, 700, proof);
    HandLog {
        checkpoint: write(&dir, "checkpoint-700", &note),
        proof: write(
            &dir,
            "proof.json",
            &serde_json::to_string_pretty(&hp).unwrap(),
        ),
        vkey: s.verifier().vkey(),
        club: leaf.club,
        dir,
    }
}

#[test]
fn inclusion_of_a_bundle_holds_and_every_tampering_is_caught() {
    let h = hand_log("inclusion");
    let ok = run(&[
        "log",
        "inclusion",
        BUNDLE,
        "--checkpoint",
        &h.checkpoint,
        "--proof",
        &h.proof,
        "--key",
        &h.vkey,
    ]);
    expect(&ok, 0, "VALID: the last event of hand");
    assert!(ok.stdout.contains("checked against"), "{ok:?}");
    // Without a key: holds, and says the signature was not checked.
    let nokey = run(&[
        "log",
        "inclusion",
        BUNDLE,
        "--checkpoint",
        &h.checkpoint,
        "--proof",
        &h.proof,
    ]);
    expect(&nokey, 0, "NOT checked");
    // A key file works like the key.
    let keyfile = write(&h.dir, "log.vkey", &format!("# the log\n{}\n", h.vkey));
    expect(
        &run(&[
            "log",
            "inclusion",
            BUNDLE,
            "--checkpoint",
            &h.checkpoint,
            "--proof",
            &h.proof,
            "--key",
            &keyfile,
        ]),
        0,
        "VALID",
    );

    // A proof hash changed.
    let mut p: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&h.proof).unwrap()).unwrap();
    let first = p["inclusion"][0].as_str().unwrap().to_string();
    let flipped = format!(
        "{}{}",
        if first.starts_with('0') { "1" } else { "0" },
        &first[1..]
    );
    p["inclusion"][0] = serde_json::json!(flipped);
    let bad = write(&h.dir, "bad-hash.json", &p.to_string());
    expect(
        &run(&[
            "log",
            "inclusion",
            BUNDLE,
            "--checkpoint",
            &h.checkpoint,
            "--proof",
            &bad,
            "--key",
            &h.vkey,
        ]),
        1,
        "NOT VALID",
    );
    // Another leaf index.
    let mut p2: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&h.proof).unwrap()).unwrap();
    p2["leaf_index"] = serde_json::json!(301);
    let bad = write(&h.dir, "bad-index.json", &p2.to_string());
    expect(
        &run(&[
            "log",
            "inclusion",
            BUNDLE,
            "--checkpoint",
            &h.checkpoint,
            "--proof",
            &bad,
        ]),
        1,
        "NOT VALID",
    );
    // Another salt: another leaf.
    let mut p3: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&h.proof).unwrap()).unwrap();
    p3["salt"] = serde_json::json!("0e".repeat(32));
    let bad = write(&h.dir, "bad-salt.json", &p3.to_string());
    expect(
        &run(&[
            "log",
            "inclusion",
            BUNDLE,
            "--checkpoint",
            &h.checkpoint,
            "--proof",
            &bad,
        ]),
        1,
        "NOT VALID",
    );
    // An edited last event: its leaf is no longer in the log.
    let mut b: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(BUNDLE).unwrap()).unwrap();
    let last = b["records"].as_array().unwrap().len() - 1;
    b["records"][last]["event"]["time_ms"] = serde_json::json!(1);
    let edited = write(&h.dir, "edited.json", &b.to_string());
    expect(
        &run(&[
            "log",
            "inclusion",
            &edited,
            "--checkpoint",
            &h.checkpoint,
            "--proof",
            &h.proof,
        ]),
        1,
        "NOT VALID",
    );
    // A checkpoint signed by another key: refused with the key, exit 1.
    let other = NoteSigner::new(
        Origin::for_club(BASE, &h.club).unwrap().as_str(),
        SigningKeyPair::from_secret([9; 32]),
    )
    .unwrap();
    expect(
        &run(&[
            "log",
            "inclusion",
            BUNDLE,
            "--checkpoint",
            &h.checkpoint,
            "--proof",
            &h.proof,
            "--key",
            &other.verifier().vkey(),
        ]),
        1,
        "no signature by a known key",
    );
    // Unreadable inputs and mismatches: exit 2.
    let garbage = write(&h.dir, "garbage", "not a checkpoint\n");
    expect(
        &run(&[
            "log",
            "inclusion",
            BUNDLE,
            "--checkpoint",
            &garbage,
            "--proof",
            &h.proof,
        ]),
        2,
        "malformed",
    );
    expect(
        &run(&[
            "log",
            "inclusion",
            BUNDLE,
            "--checkpoint",
            &h.checkpoint,
            "--proof",
            BUNDLE,
        ]),
        2,
        "not a log proof",
    );
    expect(
        &run(&[
            "log",
            "inclusion",
            BUNDLE,
            "--checkpoint",
            &h.checkpoint,
            "--proof",
            &h.proof,
            "--key",
            "nonsense",
        ]),
        2,
        "neither a verifier key",
    );
}

#[test]
fn inclusion_against_a_newer_checkpoint_is_computed_from_tiles() {
    let h = hand_log("inclusion-tiles");
    let logdir = h.dir.join("log");
    let s = signer(&h.club);
    let newer = grow(&logdir, 700, &fillers(700..1500, 8), &s);
    let newer = write(&h.dir, "checkpoint-1500", &newer);
    // The proof file is for size 700: against size 1500 it needs --tiles.
    expect(
        &run(&[
            "log",
            "inclusion",
            BUNDLE,
            "--checkpoint",
            &newer,
            "--proof",
            &h.proof,
        ]),
        2,
        "--tiles",
    );
    let logdir = logdir.to_str().unwrap();
    expect(
        &run(&[
            "log",
            "inclusion",
            BUNDLE,
            "--checkpoint",
            &newer,
            "--proof",
            &h.proof,
            "--tiles",
            logdir,
            "--key",
            &h.vkey,
        ]),
        0,
        "at size 1500",
    );
}

#[test]
fn consistency_from_tiles_or_a_proof_file_and_forks_and_rollbacks() {
    let dir = temp_dir("consistency");
    let s = signer("kish-club");
    let logdir = dir.join("log");
    let c100 = write(&dir, "c100", &grow(&logdir, 0, &fillers(0..100, 1), &s));
    let c300 = write(&dir, "c300", &grow(&logdir, 100, &fillers(100..300, 1), &s));
    let c1000 = write(
        &dir,
        "c1000",
        &grow(&logdir, 300, &fillers(300..1000, 1), &s),
    );
    let tiles = logdir.to_str().unwrap();
    let vkey = s.verifier().vkey();
    for (old, new) in [
        (&c100, &c300),
        (&c300, &c1000),
        (&c100, &c1000),
        (&c300, &c300),
    ] {
        expect(
            &run(&[
                "log",
                "consistency",
                old,
                new,
                "--tiles",
                tiles,
                "--key",
                &vkey,
            ]),
            0,
            "CONSISTENT",
        );
    }
    expect(
        &run(&["log", "consistency", &c1000, &c300, "--tiles", tiles]),
        1,
        "ROLLBACK",
    );
    // A proof file.
    let p = consistency_proof(
        &TileHashReader::new(DirTiles::new(&logdir), 1000),
        300,
        1000,
    )
    .unwrap();
    let file = ConsistencyProofFile::new(s.verifier().name(), 300, 1000, p.clone());
    let pf = write(&dir, "c.json", &serde_json::to_string(&file).unwrap());
    expect(
        &run(&["log", "consistency", &c300, &c1000, "--proof", &pf]),
        0,
        "CONSISTENT",
    );
    let mut bad = file.clone();
    bad.proof[1] = Hash([0; 32]);
    let pf = write(&dir, "bad.json", &serde_json::to_string(&bad).unwrap());
    expect(
        &run(&["log", "consistency", &c300, &c1000, "--proof", &pf]),
        1,
        "FORK",
    );
    // A fork: another log under the same key, sharing the first 100 leaves only.
    let forkdir = dir.join("fork");
    grow(&forkdir, 0, &fillers(0..100, 1), &s);
    let f300 = write(
        &dir,
        "f300",
        &grow(&forkdir, 100, &fillers(100..300, 2), &s),
    );
    expect(
        &run(&["log", "consistency", &c300, &f300, "--tiles", tiles]),
        1,
        "FORK",
    );
    expect(
        &run(&["log", "consistency", &c100, &f300, "--tiles", tiles]),
        1,
        "FORK",
    );
    expect(
        &run(&[
            "log",
            "consistency",
            &c100,
            &f300,
            "--tiles",
            forkdir.to_str().unwrap(),
        ]),
        0,
        "CONSISTENT",
    );
    // Usage errors.
    expect(
        &run(&["log", "consistency", &c100, &c300]),
        2,
        "a consistency proof is needed",
    );
    let other = signer("other-club");
    let o = write(
        &dir,
        "o",
        &grow(&dir.join("other"), 0, &fillers(0..5, 1), &other),
    );
    expect(
        &run(&["log", "consistency", &c100, &o, "--tiles", tiles]),
        2,
        "different logs",
    );
    // A missing tile: the log cannot prove it.
    std::fs::remove_dir_all(logdir.join("tile/1")).unwrap();
    expect(
        &run(&["log", "consistency", &c100, &c1000, "--tiles", tiles]),
        1,
        "cannot prove",
    );
}

fn read_state(p: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

/// The monitor's whole story against one source (a directory or a URL serving `dir`).
fn monitor_story(dir: &Path, url: &str) {
    let s = signer("tabriz-club");
    let vkey = s.verifier().vkey();
    let state = dir.join("state.json");
    let st = state.to_str().unwrap();
    let logdir = dir.join("log");
    grow(&logdir, 0, &fillers(0..10, 1), &s);
    expect(
        &run(&["monitor", url, "--state", st, "--key", &vkey]),
        0,
        "FIRST",
    );
    assert!(read_state(&state)["checkpoint"]
        .as_str()
        .unwrap()
        .contains("\n10\n"));
    // Unchanged, then grown.
    expect(
        &run(&["monitor", url, "--state", st, "--key", &vkey]),
        0,
        "unchanged",
    );
    grow(&logdir, 10, &fillers(10..600, 1), &s);
    expect(
        &run(&["monitor", url, "--state", st, "--key", &vkey]),
        0,
        "CONSISTENT",
    );
    let seen = read_state(&state);
    assert!(seen["checkpoint"].as_str().unwrap().contains("\n600\n"));

    // A fork: the log is replaced by one that differs from leaf 5 on, and larger.
    let forked = dir.join("forked");
    grow(&forked, 0, &fillers(0..5, 1), &s);
    grow(&forked, 5, &fillers(5..700, 3), &s);
    let _ = std::fs::remove_dir_all(&logdir);
    std::fs::rename(&forked, &logdir).unwrap();
    expect(
        &run(&["monitor", url, "--state", st, "--key", &vkey]),
        1,
        "FORK",
    );
    assert_eq!(read_state(&state), seen, "a fork must not move the state");

    // A rollback: a smaller log.
    let _ = std::fs::remove_dir_all(&logdir);
    grow(&logdir, 0, &fillers(0..200, 1), &s);
    expect(
        &run(&["monitor", url, "--state", st, "--key", &vkey]),
        1,
        "ROLLBACK",
    );
    assert_eq!(read_state(&state), seen);

    // Same size, another root.
    let _ = std::fs::remove_dir_all(&logdir);
    grow(&logdir, 0, &fillers(0..600, 4), &s);
    expect(
        &run(&["monitor", url, "--state", st, "--key", &vkey]),
        1,
        "FORK",
    );

    // A checkpoint signed by another key; a wrong key; tiles that do not match.
    let other = NoteSigner::new(s.verifier().name(), SigningKeyPair::from_secret([8; 32])).unwrap();
    expect(
        &run(&[
            "monitor",
            url,
            "--state",
            st,
            "--key",
            &other.verifier().vkey(),
        ]),
        2,
        "does not open with the key",
    );
    let _ = std::fs::remove_dir_all(&logdir);
    grow(&logdir, 0, &fillers(0..600, 1), &other);
    expect(
        &run(&["monitor", url, "--state", st, "--key", &vkey]),
        1,
        "NOT VALID",
    );
    let _ = std::fs::remove_dir_all(&logdir);
    grow(&logdir, 0, &fillers(0..650, 1), &s);
    let tile = logdir.join("tile/0/002.p/138");
    let mut bytes = std::fs::read(&tile).unwrap();
    bytes[0] ^= 1;
    std::fs::write(&tile, bytes).unwrap();
    expect(
        &run(&["monitor", url, "--state", st, "--key", &vkey]),
        1,
        "FORK: the tiles",
    );
    assert_eq!(read_state(&state), seen);
    // A state file that is not one: exit 2.
    let junk = dir.join("junk.json");
    std::fs::write(&junk, "{}").unwrap();
    expect(
        &run(&[
            "monitor",
            url,
            "--state",
            junk.to_str().unwrap(),
            "--key",
            &vkey,
        ]),
        2,
        "not a monitor state",
    );
}

#[test]
fn monitor_a_directory() {
    let dir = temp_dir("monitor-dir");
    let url = dir.join("log");
    monitor_story(&dir, url.to_str().unwrap());
}

/// Serve `root`'s files over HTTP/1.1 on 127.0.0.1 (GET only, 404 for anything missing,
/// one request per connection), from a thread that lives as long as the test process.
fn serve(root: PathBuf) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut line = String::new();
            if reader.read_line(&mut line).is_err() {
                continue;
            }
            loop {
                let mut h = String::new();
                if reader.read_line(&mut h).map_or(true, |n| n == 0) || h == "\r\n" {
                    break;
                }
            }
            let path = line
                .split_whitespace()
                .nth(1)
                .unwrap_or("/")
                .trim_start_matches('/');
            let file = root.join(path);
            let reply = match (path.contains(".."), std::fs::read(&file)) {
                (false, Ok(body)) if file.is_file() => {
                    let mut r = format!(
                        "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nContent-Type: application/octet-stream\r\nConnection: close\r\n\r\n",
                        body.len()
                    )
                    .into_bytes();
                    r.extend(body);
                    r
                }
                _ => b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                    .to_vec(),
            };
            let _ = stream.write_all(&reply);
        }
    });
    format!("http://{addr}/log")
}

#[test]
fn monitor_over_http() {
    let dir = temp_dir("monitor-http");
    let url = serve(dir.clone());
    monitor_story(&dir, &url);
    // Nothing listening: exit 2, not a verdict.
    let free = TcpListener::bind("127.0.0.1:0").unwrap();
    let dead = format!("http://{}/log", free.local_addr().unwrap());
    drop(free);
    let s = signer("tabriz-club");
    expect(
        &run(&[
            "monitor",
            &dead,
            "--state",
            dir.join("s2").to_str().unwrap(),
            "--key",
            &s.verifier().vkey(),
        ]),
        2,
        "GET",
    );
}
