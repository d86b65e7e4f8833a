//! The club transparency log over HTTP (issue 12, point 1; docs/TRANSPARENCY.md), on both
//! stores: hands played at two tables become leaves of the club's log, served as C2SP
//! tlog-tiles under `/v1/clubs/{club}/log/` with signed checkpoints. Everything the log
//! serves is checked here with a small, separate implementation of RFC 6962 / RFC 9162
//! §2.1 (hashes, the tree head, inclusion and consistency proofs) written from the RFC's
//! text, not with the service's or the replayer's tlog code. Then the store is damaged
//! behind the service's back: an event rewritten, a hand deleted (both named by
//! `audit-service audit`), and the tiles rewritten to hide the hand, which a consistency
//! proof from an earlier checkpoint exposes.

use std::process::Command;
use std::time::{Duration, Instant};

use base64::engine::general_purpose::STANDARD;
use base64::Engine as _;
use ed25519_dalek::{Signature, Verifier, VerifyingKey};
use reqwest::StatusCode;
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::damaged::behind_the_back;
use crate::harness::{problem, replayer, run, write_temp, Env, Store, TestApp, BIN};
use crate::play::{create_table, play_to_end, start_hand, Rng, Table};

pub(crate) type H = [u8; 32];

// ---------------------------------------------------------------------------------------
// RFC 9162 §2.1, from the text.

fn sha(parts: &[&[u8]]) -> H {
    let mut h = Sha256::new();
    for p in parts {
        h.update(p);
    }
    h.finalize().into()
}

pub(crate) fn leaf_hash(entry: &[u8]) -> H {
    sha(&[&[0u8], entry])
}

fn node(l: &H, r: &H) -> H {
    sha(&[&[1u8], l, r])
}

/// The largest power of two smaller than `n` (n > 1).
fn split(n: usize) -> usize {
    let mut k = 1;
    while k * 2 < n {
        k *= 2;
    }
    k
}

/// MTH(D[n]) over leaf hashes.
fn mth(d: &[H]) -> H {
    match d.len() {
        0 => sha(&[]),
        1 => d[0],
        n => {
            let k = split(n);
            node(&mth(&d[..k]), &mth(&d[k..]))
        }
    }
}

/// PROOF(m, D[n]) (§2.1.4.1).
fn consistency_proof(m: usize, d: &[H]) -> Vec<H> {
    fn sub(m: usize, d: &[H], b: bool) -> Vec<H> {
        let n = d.len();
        if m == n {
            return if b { vec![] } else { vec![mth(d)] };
        }
        let k = split(n);
        if m <= k {
            let mut p = sub(m, &d[..k], b);
            p.push(mth(&d[k..]));
            p
        } else {
            let mut p = sub(m - k, &d[k..], false);
            p.push(mth(&d[..k]));
            p
        }
    }
    sub(m, d, true)
}

/// §2.1.3.2.
pub(crate) fn verify_inclusion(index: u64, size: u64, leaf: &H, proof: &[H], root: &H) -> bool {
    if index >= size {
        return false;
    }
    let (mut f, mut s, mut r) = (index, size - 1, *leaf);
    for p in proof {
        if s == 0 {
            return false;
        }
        if f & 1 == 1 || f == s {
            r = node(p, &r);
            if f & 1 == 0 {
                while f & 1 == 0 && f != 0 {
                    f >>= 1;
                    s >>= 1;
                }
            }
        } else {
            r = node(&r, p);
        }
        f >>= 1;
        s >>= 1;
    }
    s == 0 && r == *root
}

/// §2.1.4.2 (first size above 0).
pub(crate) fn verify_consistency(m: u64, n: u64, old: &H, new: &H, proof: &[H]) -> bool {
    if m == 0 || m > n {
        return false;
    }
    if m == n {
        return proof.is_empty() && old == new;
    }
    let mut p: Vec<H> = proof.to_vec();
    if m.is_power_of_two() {
        p.insert(0, *old);
    }
    let (mut f, mut s) = (m - 1, n - 1);
    while f & 1 == 1 {
        f >>= 1;
        s >>= 1;
    }
    let Some(first) = p.first() else { return false };
    let (mut fr, mut sr) = (*first, *first);
    for c in &p[1..] {
        if s == 0 {
            return false;
        }
        if f & 1 == 1 || f == s {
            fr = node(c, &fr);
            sr = node(c, &sr);
            if f & 1 == 0 {
                while f & 1 == 0 && f != 0 {
                    f >>= 1;
                    s >>= 1;
                }
            }
        } else {
            sr = node(&sr, c);
        }
        f >>= 1;
        s >>= 1;
    }
    fr == *old && sr == *new && s == 0
}

#[test]
fn the_tests_rfc_code_agrees_with_itself() {
    let d: Vec<H> = (0u8..13).map(|i| leaf_hash(&[i])).collect();
    for n in 1..=d.len() {
        for m in 1..=n {
            let p = consistency_proof(m, &d[..n]);
            assert!(verify_consistency(
                m as u64,
                n as u64,
                &mth(&d[..m]),
                &mth(&d[..n]),
                &p
            ));
            let bad = mth(&d[..m.saturating_sub(1)]);
            if m > 1 {
                assert!(!verify_consistency(
                    m as u64,
                    n as u64,
                    &bad,
                    &mth(&d[..n]),
                    &p
                ));
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Reading the log as anyone would.

/// `N` as tlog-tiles spells it: groups of three digits, all but the last prefixed `x`.
pub(crate) fn index_path(mut n: u64) -> String {
    let mut groups = vec![];
    loop {
        groups.push(n % 1000);
        n /= 1000;
        if n == 0 {
            break;
        }
    }
    groups.reverse();
    let last = groups.len() - 1;
    groups
        .iter()
        .enumerate()
        .map(|(i, g)| {
            if i < last {
                format!("x{g:03}")
            } else {
                format!("{g:03}")
            }
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// Level-0 (or entry bundle) paths of the tree of `size`.
pub(crate) fn tile_paths(kind: &str, size: u64) -> Vec<(String, u64)> {
    (0..size.div_ceil(256))
        .map(|k| {
            let w = (size - 256 * k).min(256);
            let p = format!("tile/{kind}/{}", index_path(k));
            (if w < 256 { format!("{p}.p/{w}") } else { p }, w)
        })
        .collect()
}

pub(crate) async fn get_bytes(app: &TestApp, path: &str) -> (StatusCode, String, Vec<u8>) {
    let r = app
        .http
        .get(format!("{}{path}", app.base))
        .send()
        .await
        .expect("GET");
    let status = r.status();
    let cc = r
        .headers()
        .get("cache-control")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string();
    (status, cc, r.bytes().await.expect("body").to_vec())
}

/// The leaf hashes of the club's tree of `size`, from its level-0 tiles, checked against
/// its entry bundles.
async fn leaves(app: &TestApp, club: &str, size: u64) -> (Vec<H>, Vec<Vec<u8>>) {
    let mut hashes = vec![];
    for (p, w) in tile_paths("0", size) {
        let (s, _, b) = get_bytes(app, &format!("/v1/clubs/{club}/log/{p}")).await;
        assert_eq!(s, StatusCode::OK, "{p}");
        assert_eq!(b.len() as u64, 32 * w, "{p}");
        hashes.extend(b.chunks(32).map(|c| <H>::try_from(c).unwrap()));
    }
    let mut entries = vec![];
    for (p, w) in tile_paths("entries", size) {
        let (s, _, b) = get_bytes(app, &format!("/v1/clubs/{club}/log/{p}")).await;
        assert_eq!(s, StatusCode::OK, "{p}");
        let mut rest = &b[..];
        for _ in 0..w {
            let len = u16::from_be_bytes([rest[0], rest[1]]) as usize;
            entries.push(rest[2..2 + len].to_vec());
            rest = &rest[2 + len..];
        }
        assert!(rest.is_empty(), "{p}: exactly {w} entries");
    }
    (hashes, entries)
}

struct Cp {
    text: String,
    origin: String,
    size: u64,
    root: H,
}

/// Opens a signed checkpoint with the vkey: minimal parsing, Ed25519 by ed25519-dalek.
fn open_checkpoint(note: &str, vkey: &str) -> Cp {
    let (text, sigs) = note
        .split_once("\n\n")
        .expect("a blank line before the signatures");
    let text = format!("{text}\n");
    let mut lines = text.lines();
    let origin = lines.next().unwrap().to_string();
    let size: u64 = lines.next().unwrap().parse().unwrap();
    let root: H = STANDARD
        .decode(lines.next().unwrap())
        .unwrap()
        .try_into()
        .unwrap();
    let mut parts = vkey.trim().splitn(3, '+');
    let (name, id, key) = (
        parts.next().unwrap(),
        parts.next().unwrap(),
        parts.next().unwrap(),
    );
    assert_eq!(name, origin, "the key is named by the origin");
    let key = STANDARD.decode(key).unwrap();
    assert_eq!(key[0], 1, "an Ed25519 vkey");
    let vk = VerifyingKey::from_bytes(&key[1..].try_into().unwrap()).unwrap();
    let line = sigs
        .lines()
        .find_map(|l| l.strip_prefix(&format!("\u{2014} {name} ")))
        .expect("a signature by the log's key");
    let sig = STANDARD.decode(line).unwrap();
    assert_eq!(hex::encode(&sig[..4]), id, "key id");
    let sig = Signature::from_slice(&sig[4..]).unwrap();
    vk.verify(text.as_bytes(), &sig)
        .expect("the checkpoint's signature verifies");
    Cp {
        text,
        origin,
        size,
        root,
    }
}

/// The leaf entry of docs/TRANSPARENCY.md §2, computed here.
pub(crate) fn entry(salt: &[u8], club: &str, hand: &str, seq: u64, event_hash: &[u8]) -> Vec<u8> {
    let c = sha(&[
        b"persian-cards/tlog-leaf/v1",
        &[0],
        salt,
        &(club.len() as u32).to_be_bytes(),
        club.as_bytes(),
        &(hand.len() as u32).to_be_bytes(),
        hand.as_bytes(),
        &seq.to_be_bytes(),
        event_hash,
    ]);
    let mut e = vec![1u8];
    e.extend_from_slice(&c);
    e
}

/// The hand's log proof, once its last event is under a checkpoint.
pub(crate) async fn log_proof(app: &TestApp, token: &str, hand: &str) -> Value {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let r = app
            .get(&format!("/v1/hands/{hand}/log-proof"), Some(token))
            .await;
        if r.status == StatusCode::OK {
            return r.body;
        }
        assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
        assert_eq!(r.body["code"], "not_in_log_yet", "{}", r.text);
        assert!(Instant::now() < deadline, "no log proof after 20 s");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

pub(crate) async fn play_hand(app: &TestApp, admin: &str, table: &Table, rng: &mut Rng) -> String {
    let h = start_hand(app, admin, table).await;
    let hand = h["hand_id"].as_str().unwrap().to_string();
    play_to_end(app, admin, &hand, &table.tokens, rng).await;
    hand
}

async fn bundle(app: &TestApp, admin: &str, hand: &str) -> Value {
    let b = app
        .get(&format!("/v1/hands/{hand}/bundle"), Some(admin))
        .await;
    assert_eq!(b.status, StatusCode::OK, "{}", b.text);
    b.body
}

pub(crate) fn audit(env: &Env, club: &str) -> (i32, String) {
    let out = Command::new(BIN)
        .args(["audit", "--club", club])
        .args(env.store_flags())
        .env("RUST_LOG", "warn")
        .env_remove("DATABASE_URL")
        .env_remove("AUDIT_DATA_DIR")
        .env_remove("AUDIT_KEY_FILE")
        .output()
        .expect("run audit");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

async fn club_log_tiles_and_tampering(store: Store) {
    run(store, |env| async move {
        let app = TestApp::spawn(&env).await;
        let (club, admin) = app.create_club("Log club");
        let a = create_table(&app, &admin, 3).await;
        let b = create_table(&app, &admin, 3).await;
        let mut rng = Rng(0x10_6c1b);
        let h1 = play_hand(&app, &admin, &a, &mut rng).await;
        // A bundle asked for the moment its hand ends is served, whether or not the log
        // holds the hand yet: version 1 without a log proof, or version 2 with one.
        let early = bundle(&app, &admin, &h1).await;
        assert!(
            (early["version"] == 1 && early.get("log_proof").is_none())
                || (early["version"] == 2 && early["log_proof"].is_object()),
            "{early}"
        );
        let h2 = play_hand(&app, &admin, &b, &mut rng).await;

        // The log's key and a checkpoint covering both hands.
        let proof2 = log_proof(&app, &admin, &h2).await;
        let proof1 = log_proof(&app, &admin, &h1).await;
        let vkey = app.get(&format!("/v1/clubs/{club}/log/key"), None).await;
        assert_eq!(vkey.status, StatusCode::OK, "{}", vkey.text);
        let (s, cc, note) = get_bytes(&app, &format!("/v1/clubs/{club}/log/checkpoint")).await;
        assert_eq!(s, StatusCode::OK);
        assert_eq!(cc, "no-cache");
        let cp1 = open_checkpoint(std::str::from_utf8(&note).unwrap(), &vkey.text);
        assert_eq!(cp1.origin, format!("localhost/v1/clubs/{club}/log"));
        assert!(cp1.size >= proof2["tree_size"].as_u64().unwrap());

        // The root, recomputed from the level-0 tiles; the entries give the same hashes.
        let (hashes1, entries1) = leaves(&app, &club, cp1.size).await;
        assert_eq!(mth(&hashes1), cp1.root, "level-0 tiles give the checkpoint's root");
        let from_entries: Vec<H> = entries1.iter().map(|e| leaf_hash(e)).collect();
        assert_eq!(from_entries, hashes1, "entry bundles and level-0 tiles agree");

        // Each hand's log proof: its leaf recomputed here from the bundle and the salt,
        // included in the checkpoint of its size (served by size).
        let mut bundles = vec![];
        for (hand, proof) in [(&h1, &proof1), (&h2, &proof2)] {
            let bundle = bundle(&app, &admin, hand).await;
            let last = bundle["records"].as_array().unwrap().last().unwrap().clone();
            let salt = hex::decode(proof["salt"].as_str().unwrap()).unwrap();
            let e = entry(
                &salt,
                &club,
                hand,
                last["event"]["seq"].as_u64().unwrap(),
                &hex::decode(last["hash"].as_str().unwrap()).unwrap(),
            );
            let index = proof["leaf_index"].as_u64().unwrap();
            let size = proof["tree_size"].as_u64().unwrap();
            let (s, _, note) =
                get_bytes(&app, &format!("/v1/clubs/{club}/log/checkpoints/{size}")).await;
            assert_eq!(s, StatusCode::OK);
            let cp = open_checkpoint(std::str::from_utf8(&note).unwrap(), &vkey.text);
            let path: Vec<H> = proof["inclusion"]
                .as_array()
                .unwrap()
                .iter()
                .map(|h| hex::decode(h.as_str().unwrap()).unwrap().try_into().unwrap())
                .collect();
            assert!(
                verify_inclusion(index, size, &leaf_hash(&e), &path, &cp.root),
                "hand {hand}'s last event is in the log"
            );
            assert_eq!(entries1[index as usize], e, "the served entry is the leaf");
            // And as docs/TRANSPARENCY.md tells a reader to check it.
            let (bf, pf) = (write_temp(&bundle), write_temp(proof));
            let cf = tempfile::NamedTempFile::new().unwrap();
            std::fs::write(cf.path(), &note).unwrap();
            let (code, out, err) = replayer(&[
                "log",
                "inclusion",
                bf.path().to_str().unwrap(),
                "--checkpoint",
                cf.path().to_str().unwrap(),
                "--proof",
                pf.path().to_str().unwrap(),
                "--key",
                vkey.text.trim(),
            ]);
            assert_eq!(code, 0, "replayer log inclusion: {out} {err}");

            // Once the hand is under a checkpoint its bundle is version 2 and carries the
            // proof (docs/BUNDLE.md): checked here with the test's RFC code, then by
            // `replayer verify` against the service's published keys.
            assert_eq!(bundle["version"], 2, "{bundle}");
            let lp = &bundle["log_proof"];
            assert_eq!(lp["salt"], proof["salt"]);
            assert_eq!(lp["leaf_index"], proof["leaf_index"]);
            let embedded = open_checkpoint(lp["checkpoint"].as_str().unwrap(), &vkey.text);
            assert!(embedded.size >= size);
            let path: Vec<H> = lp["inclusion"]
                .as_array()
                .unwrap()
                .iter()
                .map(|h| hex::decode(h.as_str().unwrap()).unwrap().try_into().unwrap())
                .collect();
            assert!(verify_inclusion(index, embedded.size, &leaf_hash(&e), &path, &embedded.root));
            let keys = app.get("/v1/keys", Some(&admin)).await;
            let kf = write_temp(&keys.body);
            let (code, out, err) = replayer(&[
                "verify",
                bf.path().to_str().unwrap(),
                "--key",
                kf.path().to_str().unwrap(),
                "--json",
            ]);
            assert_eq!(code, 0, "replayer verify of a v2 bundle: {out} {err}");
            let verdict: Value = serde_json::from_str(&out).unwrap();
            assert_eq!(verdict["log"]["leaf_index"], index, "{verdict}");
            assert_eq!(verdict["log"]["tree_size"], embedded.size, "{verdict}");
            // `log inclusion` with the proof the bundle carries.
            let ef = tempfile::NamedTempFile::new().unwrap();
            std::fs::write(ef.path(), lp["checkpoint"].as_str().unwrap()).unwrap();
            let (code, out, err) = replayer(&[
                "log",
                "inclusion",
                bf.path().to_str().unwrap(),
                "--checkpoint",
                ef.path().to_str().unwrap(),
                "--key",
                vkey.text.trim(),
            ]);
            assert_eq!(code, 0, "replayer log inclusion, embedded proof: {out} {err}");
            // A changed salt, proof hash or checkpoint is refused, by its rule.
            let flip = |h: &str| {
                let mut b = hex::decode(h).unwrap();
                b[0] ^= 1;
                hex::encode(b)
            };
            let mut bad_salt = bundle.clone();
            bad_salt["log_proof"]["salt"] = Value::from(flip(lp["salt"].as_str().unwrap()));
            let mut bad_proof = bundle.clone();
            if let Some(h) = lp["inclusion"][0].as_str() {
                bad_proof["log_proof"]["inclusion"][0] = Value::from(flip(h));
            } else {
                bad_proof["log_proof"]["leaf_index"] = Value::from(index + 1);
            }
            let mut bad_cp = bundle.clone();
            bad_cp["log_proof"]["checkpoint"] = Value::from(
                lp["checkpoint"]
                    .as_str()
                    .unwrap()
                    .replacen(&format!("\n{}\n", embedded.size), &format!("\n{}\n", embedded.size + 1), 1),
            );
            for (doc, rule) in [
                (bad_salt, "log_inclusion"),
                (bad_proof, "log_inclusion"),
                (bad_cp, "log_checkpoint"),
            ] {
                let f = write_temp(&doc);
                let (code, out, err) = replayer(&[
                    "verify",
                    f.path().to_str().unwrap(),
                    "--key",
                    kf.path().to_str().unwrap(),
                    "--json",
                ]);
                assert_eq!(code, 1, "{rule}: {out} {err}");
                let verdict: Value = serde_json::from_str(&out).unwrap();
                assert_eq!(verdict["problem"]["rule"], rule, "{verdict}");
            }
            bundles.push((hand.clone(), bundle, salt));
        }

        // The public log leaks no salt; the proof is for the hand's readers only.
        for (_, _, salt) in &bundles {
            let salt_hex = hex::encode(salt);
            for path in [
                format!("/v1/clubs/{club}/log/checkpoint"),
                format!("/v1/clubs/{club}/log/key"),
            ] {
                let (_, _, body) = get_bytes(&app, &path).await;
                assert!(!String::from_utf8_lossy(&body).contains(&salt_hex), "{path}");
            }
            let all: Vec<u8> = entries1.concat();
            assert!(!all.windows(32).any(|w| w == &salt[..]), "no salt in the entries");
            let history = app.get("/v1/hands", Some(&admin)).await;
            assert!(!history.text.contains(&salt_hex), "no salt in the history");
        }
        let anon = app.get(&format!("/v1/hands/{h1}/log-proof"), None).await;
        assert_eq!(anon.status, StatusCode::UNAUTHORIZED);

        // Tiles: cached for ever when full; strict paths; nothing beyond the checkpoint.
        let (_, cc, _) = get_bytes(&app, &format!("/v1/clubs/{club}/log/{}", tile_paths("0", cp1.size)[0].0)).await;
        assert!(cc.starts_with("public"), "{cc}");
        for bad in ["tile/0/5", "tile/00/005", "tile/0/005.p/07", "tile/0/005.p/256", "tile/x/000"] {
            let r = app.get(&format!("/v1/clubs/{club}/log/{bad}"), None).await;
            problem(&r, StatusCode::BAD_REQUEST, "invalid_tile_path");
        }
        for beyond in ["tile/0/x001/000", "tile/1/000", "tile/entries/999", "tile/0/000.p/255"] {
            let r = app.get(&format!("/v1/clubs/{club}/log/{beyond}"), None).await;
            // Once the tree has 255 leaves, tile 0's first 255 hashes exist (as a partial
            // tile or as the start of the full one): hands vary in length, so the first
            // checkpoint may be past it.
            if beyond.ends_with("p/255") && cp1.size >= 255 {
                continue;
            }
            problem(&r, StatusCode::NOT_FOUND, "not_found");
        }
        let r = app.get("/v1/clubs/no-such-club/log/checkpoint", None).await;
        problem(&r, StatusCode::NOT_FOUND, "not_found");

        // A third hand: a later checkpoint that extends the first (proof by the test's code).
        let h3 = play_hand(&app, &admin, &b, &mut rng).await;
        log_proof(&app, &admin, &h3).await;
        let (_, _, note) = get_bytes(&app, &format!("/v1/clubs/{club}/log/checkpoint")).await;
        let cp2 = open_checkpoint(std::str::from_utf8(&note).unwrap(), &vkey.text);
        assert!(cp2.size > cp1.size);
        assert_ne!(cp2.text, cp1.text);
        let (hashes2, _) = leaves(&app, &club, cp2.size).await;
        assert_eq!(mth(&hashes2), cp2.root);
        let p = consistency_proof(cp1.size as usize, &hashes2);
        assert!(verify_consistency(cp1.size, cp2.size, &cp1.root, &cp2.root, &p));
        let (code, out) = audit(&env, &club);
        assert_eq!(code, 0, "clean before the damage: {out}");

        // Damage behind the service's back: hand 1's last event rewritten, hand 2 deleted.
        let last1 = bundles[0].1["records"].as_array().unwrap().len() - 1;
        let forged = "ab".repeat(32);
        behind_the_back(
            &env,
            &app,
            format!(
                "ALTER TABLE events DISABLE TRIGGER USER; \
                 UPDATE events SET hash = '{forged}' WHERE hand_id = '{h1}' AND seq = {last1}; \
                 DELETE FROM events WHERE hand_id = '{h2}'; \
                 ALTER TABLE events ENABLE TRIGGER USER; \
                 DELETE FROM hand_secrets WHERE hand_id = '{h2}'; \
                 DELETE FROM hand_inputs WHERE hand_id = '{h2}'; \
                 DELETE FROM hand_players WHERE hand_id = '{h2}'; \
                 DELETE FROM hands WHERE hand_id = '{h2}';"
            ),
            format!(
                "DROP TRIGGER IF EXISTS events_no_update; DROP TRIGGER IF EXISTS events_no_delete; \
                 UPDATE events SET hash = '{forged}' WHERE hand_id = '{h1}' AND seq = {last1}; \
                 DELETE FROM events WHERE hand_id = '{h2}'; \
                 DELETE FROM hand_secrets WHERE hand_id = '{h2}'; \
                 DELETE FROM hand_inputs WHERE hand_id = '{h2}'; \
                 DELETE FROM hand_players WHERE hand_id = '{h2}'; \
                 DELETE FROM hands WHERE hand_id = '{h2}';"
            ),
        )
        .await;
        let (code, out) = audit(&env, &club);
        assert_ne!(code, 0, "the audit fails: {out}");
        let named = |hand: &str, what: &str| {
            out.lines()
                .any(|l| l.starts_with("LOG") && l.contains(hand) && l.contains(what))
        };
        assert!(named(&h1, "rewritten"), "the rewritten event is named: {out}");
        assert!(named(&h2, "removed"), "the deleted hand is named: {out}");
        // The service no longer knows hand 2, but the bundle its reader saved (version 2)
        // still proves, offline, that the log holds it.
        let gone = app.get(&format!("/v1/hands/{h2}/bundle"), Some(&admin)).await;
        assert_eq!(gone.status, StatusCode::NOT_FOUND, "{}", gone.text);
        let saved = write_temp(&bundles[1].1);
        let (code, out2, err2) = replayer(&["verify", saved.path().to_str().unwrap(), "--json"]);
        assert_eq!(code, 0, "the saved bundle of the deleted hand: {out2} {err2}");
        assert!(out2.contains("\"log\""), "{out2}");
        // The rewritten event's leaf is not the one the log holds.
        let (_, b1, salt1) = &bundles[0];
        let e = entry(salt1, &club, &h1, last1 as u64, &hex::decode(&forged).unwrap());
        let i1 = proof1["leaf_index"].as_u64().unwrap() as usize;
        assert_ne!(hashes2[i1], leaf_hash(&e));
        assert!(b1["records"].is_array());

        // The tiles rewritten to hide hand 2: its leaves taken out, the later ones moved
        // down, the end padded with copies of the last. The served tiles no longer give
        // the checkpoints' roots, and no consistency proof leads from the earlier one.
        let (_, b2, salt2) = &bundles[1];
        let hidden: Vec<H> = b2["records"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                leaf_hash(&entry(
                    salt2,
                    &club,
                    &h2,
                    r["event"]["seq"].as_u64().unwrap(),
                    &hex::decode(r["hash"].as_str().unwrap()).unwrap(),
                ))
            })
            .collect();
        let mut rewritten: Vec<H> = hashes2.iter().filter(|h| !hidden.contains(h)).copied().collect();
        assert_eq!(rewritten.len(), hashes2.len() - hidden.len(), "hand 2's leaves found");
        while rewritten.len() < hashes2.len() {
            rewritten.push(*rewritten.last().unwrap());
        }
        let mut pg = String::from("ALTER TABLE log_tiles DISABLE TRIGGER USER; ");
        let mut lite = String::from("DROP TRIGGER IF EXISTS log_tiles_no_update; ");
        for size in [cp1.size, cp2.size] {
            for (k, (path, w)) in tile_paths("0", size).into_iter().enumerate() {
                let bytes: Vec<u8> = rewritten[k * 256..k * 256 + w as usize].concat();
                let hx = hex::encode(&bytes);
                pg.push_str(&format!(
                    "UPDATE log_tiles SET bytes = decode('{hx}', 'hex') WHERE club_id = '{club}' AND path = '{path}'; "
                ));
                lite.push_str(&format!(
                    "UPDATE log_tiles SET bytes = X'{hx}' WHERE club_id = '{club}' AND path = '{path}'; "
                ));
            }
        }
        pg.push_str("ALTER TABLE log_tiles ENABLE TRIGGER USER;");
        behind_the_back(&env, &app, pg, lite).await;
        // The service never serves them as the log (issue 29): each rewritten tile is
        // `409 log_damaged`, naming it.
        refused_tiles(&app, &club, cp2.size).await;
        let root = mth(&rewritten);
        assert_ne!(root, cp2.root, "the rewritten tiles do not give the checkpoint's root");
        let p = consistency_proof(cp1.size as usize, &rewritten);
        assert!(
            !verify_consistency(cp1.size, cp2.size, &cp1.root, &root, &p),
            "no consistency proof from the earlier checkpoint to the rewritten log"
        );
        let (code, out) = audit(&env, &club);
        assert_ne!(code, 0);
        assert!(out.contains("tiles rewritten"), "{out}");
    })
    .await
}

/// Every level-0 tile of the tree of `size` (rewritten behind the service's back) is
/// refused with a problem that names it; the entry bundles, left as they were, are refused
/// too: the path that would prove them runs through the rewritten tiles.
async fn refused_tiles(app: &TestApp, club: &str, size: u64) {
    for (p, _) in tile_paths("0", size) {
        let r = app.get(&format!("/v1/clubs/{club}/log/{p}"), None).await;
        problem(&r, StatusCode::CONFLICT, "log_damaged");
        assert!(r.text.contains(&p), "the problem names {p}: {}", r.text);
    }
    for (p, _) in tile_paths("entries", size) {
        let r = app.get(&format!("/v1/clubs/{club}/log/{p}"), None).await;
        problem(&r, StatusCode::CONFLICT, "log_damaged");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn embedded_clublog_tiles_proofs_and_tampering() {
    club_log_tiles_and_tampering(Store::Embedded).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_clublog_tiles_proofs_and_tampering() {
    club_log_tiles_and_tampering(Store::Pg).await;
}
