//! `replayer`: verify, replay, derive decks and simulate hands, offline.
//!
//! Exit codes (a contract clubs and auditors script against):
//! * `verify`: 0 the hand is valid, 1 the hand is not valid, 2 the file cannot be read or
//!   parsed (or a usage error).
//! * `log inclusion`, `log consistency`, `monitor`: 0 what is checked holds, 1 it does not
//!   (a proof that fails, a fork, a rollback, a signature that fails), 2 an input cannot be
//!   read or does not fit (or a usage error).
//! * every other command: 0 on success, 2 on any error.

// The log commands live beside this file, in `replayer/` (not directly in `src/bin/`, where
// cargo would take each file for a binary of its own).
#[cfg(feature = "http")]
#[path = "replayer/http.rs"]
mod http;
#[path = "replayer/source.rs"]
mod source;
#[path = "replayer/tlog_cmd.rs"]
mod tlog_cmd;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{anyhow, bail, Context, Result};
use clap::{Parser, Subcommand};
use serde_json::Value;

use replayer::cards::DeckKind;
use replayer::engine::{GameId, SeatIndex};
use replayer::log::{PublicKey, SigningKeyPair};
use replayer::shuffle::{deck_seed, permutation, ClientSeed, ServerSeed};
use replayer::verify::{self, Options, Trust};
use replayer::{bench, sim};

#[derive(Parser)]
#[command(
    name = "replayer",
    version,
    about = "Verify and replay Persian card-game hands offline: committed shuffles, signed hash-chained event logs, rules engines"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Verify a hand bundle or a match file (all hands of one match: every hand, and the
    /// chain from hand to hand). A bundle of version 2 also has its log proof checked: the
    /// checkpoint signed by a trusted key (--key, else the bundle's keys), the last event's
    /// leaf included in it. Exit 0 valid, 1 not valid, 2 unreadable.
    Verify {
        /// The bundle or match file (JSON); `-` reads standard input.
        file: PathBuf,
        /// A trusted service public key: 64 hex characters, or a file holding such keys (one
        /// per line, or the service's `/v1/keys` JSON). Repeatable. Without one, signatures
        /// are checked only against the keys the bundle itself carries.
        #[arg(long = "key", value_name = "HEX|FILE")]
        keys: Vec<String>,
        /// Print the verdict as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Show the table after event N (the last event by default).
    Replay {
        /// The bundle (JSON); `-` reads standard input.
        file: PathBuf,
        /// The event to stop after.
        #[arg(long)]
        step: Option<u64>,
        /// Show the table as this seat saw it then (a seat number), or as the public saw it
        /// (`public`); everything by default.
        #[arg(long = "as", value_name = "SEAT|public")]
        viewer: Option<String>,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Write the replay page for a bundle or match file as one self-contained HTML file:
    /// the table step by step, the file verified in the browser, the rules re-run by this
    /// replayer (its verdict and every step's view are inside the page). With no FILE, the
    /// page that opens a file dropped on it. No request leaves the page.
    View {
        /// The bundle or match file (JSON); `-` reads standard input.
        file: Option<PathBuf>,
        /// Where to write the page (default: FILE with `.html`, or `replay.html`).
        #[arg(long, value_name = "PATH")]
        out: Option<PathBuf>,
        /// Open the page in the default browser once written.
        #[arg(long)]
        open: bool,
    },
    /// Print the deck a seed gives.
    Deck {
        /// The game (sets the deck): bist-o-yek, hokm, shelem, ghahve, pasur, haft-khabis,
        /// bluff, sheytoonak.
        #[arg(long)]
        game: String,
        /// The server seed, 64 hex characters.
        #[arg(long)]
        seed: String,
        /// A client seed, `HEX` (seats 0, 1, … in the order given) or `SEAT:HEX`.
        /// Repeatable.
        #[arg(long = "client-seed", value_name = "[SEAT:]HEX")]
        client_seeds: Vec<String>,
        /// The hand's id (it enters the deck seed).
        #[arg(long, default_value = "hand")]
        hand: String,
        /// Which shuffle of the hand.
        #[arg(long, default_value_t = 0)]
        shuffle: u32,
        /// Players at the table (3-player Hokm plays 51 cards).
        #[arg(long)]
        players: Option<u8>,
        /// Use this deck instead of the game's (e.g. bluff-104).
        #[arg(long)]
        deck: Option<String>,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Play a complete hand with random legal actions and write its signed bundle; with
    /// `--hands K`, a match of K hands (fewer if the match ends first) as a match file.
    Simulate {
        /// The game.
        #[arg(long)]
        game: String,
        /// Number of players.
        #[arg(long)]
        players: u8,
        /// Play a match of this many hands and write a match file instead of one bundle.
        #[arg(long)]
        hands: Option<u32>,
        /// House rules: a JSON object, or a file holding one (any subset: defaults fill the
        /// rest; validated as the service validates a new table's).
        #[arg(long, value_name = "JSON|FILE")]
        rules: Option<String>,
        /// The match set-up: a JSON object, or a file holding one (the game's default for
        /// --players when absent).
        #[arg(long, value_name = "JSON|FILE")]
        setup: Option<String>,
        /// 64 hex characters: the first server seed, and the seed of the random players.
        #[arg(long)]
        seed: Option<String>,
        /// Write the bundle here instead of standard output.
        #[arg(short = 'o', long = "output")]
        output: Option<PathBuf>,
        /// Sign with this key (a file holding the 32-byte secret as 64 hex characters)
        /// instead of a fresh one.
        #[arg(long = "key-file")]
        key_file: Option<PathBuf>,
        /// Deal the match from a seed chain of this many positions (1 to 1,000,000), as a
        /// table created with `"seed_chain": {"length": N}` does.
        #[arg(long = "seed-chain", value_name = "N")]
        seed_chain: Option<u32>,
        /// Give every seat a key, require player signatures and sign every seat's action,
        /// as a table created with `"signatures": "required"` does.
        #[arg(long = "signatures-required")]
        signatures_required: bool,
    },
    /// Make a player key: writes its secret to a new key file (64 hex characters, the
    /// Ed25519 secret; readable by its owner only) and prints the public key to register
    /// as the seat's `public_key`, and its key id.
    Keygen {
        /// The key file to create (refused if it exists).
        #[arg(long = "out", value_name = "FILE")]
        out: PathBuf,
        /// Print `{"public_key", "key_id", "key_file"}` as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Sign a seat's action for a hand whose table requires (or takes) player signatures:
    /// the signature covers the hand id, the seq the action's event will have, the hand's
    /// current head hash and the action (docs/EVENT-LOG.md §9).
    SignAction {
        /// The player's key file (as `replayer keygen` writes it: 64 hex characters).
        #[arg(long = "key", value_name = "FILE")]
        key: PathBuf,
        /// The seat acting (0, 1, …).
        #[arg(long)]
        seat: u8,
        /// The action: a JSON object, a file holding one, or `-` for standard input.
        #[arg(long, value_name = "JSON|FILE|-")]
        action: String,
        /// The hand's state as the service shows it (`GET /v1/hands/{id}` or
        /// `GET /v1/hands/{id}/legal-actions`, as JSON: its `hand_id`, `next_seq` and
        /// `head`), a file or `-` for standard input; --hand, --seq and --head override it.
        #[arg(long = "from", value_name = "FILE|-")]
        from: Option<PathBuf>,
        /// The hand's id.
        #[arg(long)]
        hand: Option<String>,
        /// The seq the action's event will have: the hand's `next_seq`.
        #[arg(long)]
        seq: Option<u64>,
        /// The hand's head: the hash of its last event, 64 hex characters.
        #[arg(long)]
        head: Option<String>,
        /// Print the `player_sig` object, `{"key_id", "sig"}`, as one line of JSON.
        #[arg(long, conflicts_with = "body")]
        json: bool,
        /// Print the whole body of `POST /v1/hands/{id}/actions`: `{"action",
        /// "expected_seq", "player_sig"}`, as one line of JSON.
        #[arg(long)]
        body: bool,
    },
    /// Check a club transparency log's proofs offline (docs/TRANSPARENCY.md). Exit 0 the
    /// proof holds, 1 it does not, 2 unreadable.
    Log {
        #[command(subcommand)]
        command: LogCommand,
    },
    /// Follow a club log: fetch its checkpoint, check it with --key, check from the log's
    /// tiles that it extends the checkpoint seen last (kept in --state), and record it.
    /// Exit 0 consistent (or first run), 1 a fork, a rollback or a checkpoint or tiles
    /// that fail, 2 unreadable or unreachable.
    Monitor {
        /// The log's URL prefix (`https://…/log/`), or a directory laid out the same way
        /// (`checkpoint`, `tile/…`).
        url: String,
        /// The state file: the last checkpoint accepted (created on the first run, replaced
        /// atomically after each consistent one, left as it was on a fork or rollback).
        #[arg(long, value_name = "FILE")]
        state: PathBuf,
        /// The log's verifier key, `NAME+KEYID+BASE64`, or a file holding it.
        #[arg(long, value_name = "VKEY|FILE")]
        key: String,
    },
    /// Measure verification speed against raw Ed25519 verification on this machine (for a
    /// game other than bist-o-yek, beside Bist-o-yek's figures of the same run).
    Bench {
        /// The game: any registered one (default bist-o-yek).
        #[arg(long, default_value = "bist-o-yek")]
        game: String,
        /// Hands to simulate and verify.
        #[arg(long, default_value_t = 200)]
        hands: usize,
        /// Players per hand (default: 4, or the game's most if it cannot seat 4).
        #[arg(long)]
        players: Option<u8>,
    },
}

#[derive(Subcommand)]
enum LogCommand {
    /// Check that a hand's last event is in its club's log at a checkpoint: the leaf is
    /// recomputed from the bundle and the salt of the log proof (`--proof`, or the one a
    /// bundle of version 2 carries).
    Inclusion {
        /// The hand bundle.
        bundle: PathBuf,
        /// The signed checkpoint to check against.
        #[arg(long, value_name = "FILE")]
        checkpoint: PathBuf,
        /// The hand's log proof (`persian-cards/log-proof`): its salt, its last event's
        /// leaf index and an inclusion proof. Without it, the proof the bundle carries
        /// (bundle version 2); for a checkpoint of another size than the bundle's, pass
        /// --tiles too.
        #[arg(long, value_name = "FILE")]
        proof: Option<PathBuf>,
        /// Compute the inclusion proof for the checkpoint's size from the log's tiles (a
        /// directory or URL prefix) instead of using the proof file's.
        #[arg(long, value_name = "DIR|URL")]
        tiles: Option<String>,
        /// The log's verifier key (`NAME+KEYID+BASE64`, or a file holding it). Without it
        /// the checkpoint's signature is not checked, and the report says so.
        #[arg(long, value_name = "VKEY|FILE")]
        key: Option<String>,
    },
    /// Check that the checkpoint NEW extends the checkpoint OLD of the same log: a rollback
    /// (NEW smaller) or a fork (same size, other root; or a proof that fails) exits 1.
    Consistency {
        /// The older signed checkpoint.
        old: PathBuf,
        /// The newer signed checkpoint.
        new: PathBuf,
        /// Compute the proof from the log's tiles: a directory or URL prefix (also checks
        /// that the tiles give NEW's root).
        #[arg(long, value_name = "DIR|URL")]
        tiles: Option<String>,
        /// A consistency proof file (`persian-cards/log-consistency`).
        #[arg(long, value_name = "FILE")]
        proof: Option<PathBuf>,
        /// The log's verifier key (`NAME+KEYID+BASE64`, or a file holding it). Without it
        /// the signatures are not checked, and the report says so.
        #[arg(long, value_name = "VKEY|FILE")]
        key: Option<String>,
    },
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = match e.kind() {
                clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion => 0,
                _ => 2,
            };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    match cli.command {
        Command::Verify { file, keys, json } => match run_verify(&file, &keys, json) {
            Ok(true) => ExitCode::SUCCESS,
            Ok(false) => ExitCode::from(1),
            Err(e) => {
                {
                    let _ = writeln!(std::io::stderr(), "replayer verify: {e:#}");
                }
                ExitCode::from(2)
            }
        },
        Command::Log { command } => {
            let res = match command {
                LogCommand::Inclusion {
                    bundle,
                    checkpoint,
                    proof,
                    tiles,
                    key,
                } => tlog_cmd::inclusion(
                    &bundle,
                    &checkpoint,
                    proof.as_deref(),
                    tiles.as_deref(),
                    key.as_deref(),
                ),
                LogCommand::Consistency {
                    old,
                    new,
                    tiles,
                    proof,
                    key,
                } => tlog_cmd::consistency(
                    &old,
                    &new,
                    tiles.as_deref(),
                    proof.as_deref(),
                    key.as_deref(),
                ),
            };
            verdict_code(res, "replayer log")
        }
        Command::Monitor { url, state, key } => {
            verdict_code(tlog_cmd::monitor(&url, &state, &key), "replayer monitor")
        }
        other => match run(other) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                {
                    let _ = writeln!(std::io::stderr(), "replayer: {e:#}");
                }
                ExitCode::from(2)
            }
        },
    }
}

/// Exit 0 for a check that holds, 1 for one that does not, 2 for an error.
fn verdict_code(res: Result<bool>, what: &str) -> ExitCode {
    match res {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "{what}: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// Write a line to standard output; a closed or full output is an error (exit 2), not a
/// panic.
macro_rules! out {
    ($($t:tt)*) => {
        writeln!(std::io::stdout().lock(), $($t)*).context("cannot write to standard output")?
    };
}

/// Write text to standard output without a newline.
macro_rules! out_raw {
    ($($t:tt)*) => {
        write!(std::io::stdout().lock(), $($t)*).context("cannot write to standard output")?
    };
}

fn read_input(file: &Path) -> Result<Vec<u8>> {
    if file == Path::new("-") {
        let mut buf = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin(), &mut buf)
            .context("cannot read standard input")?;
        Ok(buf)
    } else {
        std::fs::read(file).with_context(|| format!("cannot read {}", file.display()))
    }
}

fn parse_keys(specs: &[String]) -> Result<Vec<PublicKey>> {
    let mut out = Vec::new();
    for spec in specs {
        if let Ok(k) = PublicKey::from_hex(spec) {
            out.push(k);
            continue;
        }
        let path = Path::new(spec);
        if !path.exists() {
            bail!("--key {spec:?} is neither 64 hex characters of a public key nor a file");
        }
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read key file {}", path.display()))?;
        let before = out.len();
        if let Ok(v) = serde_json::from_str::<Value>(&text) {
            let list = v
                .get("keys")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            for k in list {
                if let Some(h) = k.get("public_key").and_then(Value::as_str) {
                    out.push(
                        PublicKey::from_hex(h).with_context(|| {
                            format!("key file {}: bad public key", path.display())
                        })?,
                    );
                }
            }
        } else {
            for line in text
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty() && !l.starts_with('#'))
            {
                out.push(PublicKey::from_hex(line).with_context(|| {
                    format!("key file {}: {line:?} is not a public key", path.display())
                })?);
            }
        }
        if out.len() == before {
            bail!("key file {} holds no public key", path.display());
        }
    }
    Ok(out)
}

fn run_verify(file: &Path, keys: &[String], json: bool) -> Result<bool> {
    let trusted_keys = parse_keys(keys)?;
    let bytes = read_input(file)?;
    let is_match = serde_json::from_slice::<Value>(&bytes)
        .map(|v| replayer::matches::is_match_file(&v))
        .unwrap_or(false);
    if is_match {
        return run_verify_match(file, &bytes, trusted_keys, json);
    }
    let verdict = verify::verify_bytes(&bytes, &Options { trusted_keys })
        .map_err(|e| anyhow!("{}: {e}", file.display()))?;
    if json {
        out!("{}", serde_json::to_string_pretty(&verdict)?);
    } else {
        if verdict.valid {
            out!(
                "VALID: hand {} ({}), {} events, status {}",
                verdict.hand,
                verdict.game,
                verdict.events,
                verdict.status.map_or("unknown", |s| s.as_str())
            );
        } else {
            out!("NOT VALID: hand {} ({})", verdict.hand, verdict.game);
            if let Some(p) = &verdict.problem {
                out!("  first problem: {p}");
            }
        }
        let signers = verdict
            .signers
            .iter()
            .map(|k| k.0.as_str())
            .collect::<Vec<_>>()
            .join(", ");
        match verdict.trust {
            Trust::TrustedKey => out!("  signatures: checked against the trusted key(s) given: {signers}"),
            Trust::BundleKeysOnly => out!(
                "  signatures: checked ONLY against the key(s) the bundle itself carries ({signers}); \
                 anyone can re-sign a forged bundle with a key of their own. Pass --key with the \
                 service's published public key to check who signed it."
            ),
        }
        if verdict.player_signatures > 0 {
            out!(
                "  player signatures verified: {}",
                verdict.player_signatures
            );
        }
        if let Some(o) = &verdict.outcome {
            out!("  outcome: {o}");
        }
        if let Some(l) = &verdict.log {
            out!(
                "  club log: the last event is leaf {} of {} at size {} (root {}), checkpoint signed by {}",
                l.leaf_index,
                l.origin,
                l.tree_size,
                l.root,
                l.signer
            );
        }
    }
    Ok(verdict.valid)
}

/// A JSON object given inline or as a file's path.
fn json_arg(arg: &str, what: &str) -> Result<Value> {
    let text = if arg.trim_start().starts_with('{') {
        arg.to_string()
    } else {
        std::fs::read_to_string(arg).with_context(|| {
            format!("{what} {arg:?} is neither a JSON object nor a readable file")
        })?
    };
    let v: Value =
        serde_json::from_str(&text).with_context(|| format!("{what}: not valid JSON"))?;
    if !v.is_object() {
        bail!("{what}: must be a JSON object");
    }
    Ok(v)
}

fn run_verify_match(
    file: &Path,
    bytes: &[u8],
    trusted_keys: Vec<PublicKey>,
    json: bool,
) -> Result<bool> {
    let v = replayer::matches::verify_match_bytes(bytes, &Options { trusted_keys })
        .map_err(|e| anyhow!("{}: {e}", file.display()))?;
    if json {
        out!("{}", serde_json::to_string_pretty(&v)?);
        return Ok(v.valid);
    }
    if v.valid {
        out!(
            "VALID: match of table {} ({}), {} hands, each verified and each linked to the one before",
            v.table,
            v.game,
            v.hands
        );
        if let Some(m) = &v.match_state {
            out!("  match state after the last hand: {m}");
        }
    } else {
        out!("NOT VALID: match of table {} ({})", v.table, v.game);
        if let Some(p) = &v.problem {
            out!("  first break: {p}");
        }
    }
    // The file's own words: cut, and escaped so that they cannot drive the terminal.
    let shown = |s: &str, max: usize| {
        s.chars()
            .take(max)
            .flat_map(char::escape_debug)
            .collect::<String>()
    };
    for q in &v.quarantined {
        out!(
            "  hand {} ({}) quarantined by the service, NOT verified and skipped by the chain: \
             its log failed at event {} ({}); reason given: \"{}\"",
            q.hand_no,
            shown(&q.hand, 128),
            q.seq,
            shown(&q.rule, 64),
            shown(&q.reason, 500)
        );
    }
    for a in &v.adjustments {
        let seats = |g: &[SeatIndex]| {
            g.iter()
                .map(|s| s.0.to_string())
                .collect::<Vec<_>>()
                .join("+")
        };
        out!(
            "  penalty ruling carried {}: dispute {} entry {} on hand {}: {} ({}), offender seat              {}, {} point(s) to seats {}",
            match &a.applied_by {
                Some(h) => format!("before hand {}", shown(h, 128)),
                None => "after the last hand".to_string(),
            },
            shown(&a.dispute, 128),
            a.seq,
            shown(&a.ruled_hand, 128),
            shown(&a.award.penalty, 64),
            shown(&a.award.section, 64),
            a.award.offender.0,
            a.award.points,
            a.award
                .beneficiaries
                .iter()
                .map(|g| seats(g))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    match v.trust {
        Trust::TrustedKey => out!("  signatures: checked against the trusted key(s) given"),
        Trust::BundleKeysOnly => out!(
            "  signatures: checked ONLY against the keys the bundles themselves carry; pass \
             --key with the service's published public key to check who signed them."
        ),
    }
    Ok(v.valid)
}

fn parse_client_seeds(specs: &[String]) -> Result<Vec<(SeatIndex, ClientSeed)>> {
    let mut out = Vec::new();
    for (i, spec) in specs.iter().enumerate() {
        let (seat, hex) = match spec.split_once(':') {
            Some((s, h)) => (
                s.parse::<u8>().with_context(|| {
                    format!("--client-seed {spec:?}: seat {s:?} is not a number 0-255")
                })?,
                h,
            ),
            None => (
                u8::try_from(i).map_err(|_| anyhow!("too many client seeds"))?,
                spec.as_str(),
            ),
        };
        let seed = ClientSeed::from_hex(hex).with_context(|| format!("--client-seed {spec:?}"))?;
        out.push((SeatIndex(seat), seed));
    }
    Ok(out)
}

/// A key file: the 32-byte Ed25519 secret as 64 hex characters (white space around it is
/// ignored).
fn read_key_file(path: &Path) -> Result<SigningKeyPair> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read key file {}", path.display()))?;
    Ok(SigningKeyPair::from_secret(parse_seed32(
        &text,
        &format!("key file {}", path.display()),
    )?))
}

/// Create `path` (never overwriting) readable by its owner only, holding `secret` and a
/// newline.
fn write_new_secret(path: &Path, secret: &str) -> Result<()> {
    let mut opts = std::fs::OpenOptions::new();
    opts.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.mode(0o600);
    }
    let mut f = opts.open(path).with_context(|| {
        format!(
            "cannot create key file {} (it must not exist)",
            path.display()
        )
    })?;
    f.write_all(secret.as_bytes())
        .and_then(|()| f.write_all(b"\n"))
        .with_context(|| format!("cannot write key file {}", path.display()))
}

fn parse_seed32(hex_str: &str, what: &str) -> Result<[u8; 32]> {
    let mut b = [0u8; 32];
    hex::decode_to_slice(hex_str.trim(), &mut b)
        .map_err(|_| anyhow!("{what} must be 64 hex characters (32 bytes)"))?;
    Ok(b)
}

fn run(cmd: Command) -> Result<()> {
    match cmd {
        Command::Verify { .. } | Command::Log { .. } | Command::Monitor { .. } => {
            bail!("internal: handled separately")
        }
        Command::Replay {
            file,
            step,
            viewer,
            json,
        } => {
            let viewer = match viewer.as_deref() {
                None => replayer::engine::Viewer::All,
                Some("public") => replayer::engine::Viewer::Public,
                Some(s) => replayer::engine::Viewer::Seat(SeatIndex(
                    s.parse()
                        .map_err(|_| anyhow!("--as {s:?}: a seat number or \"public\""))?,
                )),
            };
            let bytes = read_input(&file)?;
            let r = verify::replay_as(&bytes, step, &Options::default(), viewer)
                .map_err(|e| anyhow!("{}: {e}", file.display()))?;
            if json {
                out!("{}", serde_json::to_string_pretty(&r)?);
            } else {
                out_raw!("{}", sim::render_replay(&r));
            }
            Ok(())
        }
        Command::View { file, out, open } => {
            let embedded = match &file {
                Some(f) => {
                    let bytes = read_input(f)?;
                    let generator = format!("replayer {}", env!("CARGO_PKG_VERSION"));
                    Some(
                        replayer::viewer::embed(&bytes, &generator)
                            .map_err(|e| anyhow!("{}: {e}", f.display()))?,
                    )
                }
                None => None,
            };
            let page = replayer::viewer::standalone(embedded.as_ref());
            let out = match (out, &file) {
                (Some(o), _) => o,
                (None, Some(f)) if f != Path::new("-") => f.with_extension("html"),
                _ => PathBuf::from("replay.html"),
            };
            std::fs::write(&out, page)
                .with_context(|| format!("cannot write {}", out.display()))?;
            out!("{}", out.display());
            if open {
                open_in_browser(&out)?;
            }
            Ok(())
        }
        Command::Deck {
            game,
            seed,
            client_seeds,
            hand,
            shuffle,
            players,
            deck,
            json,
        } => {
            let game: GameId = game.parse()?;
            let deck = match deck {
                Some(d) => d.parse::<DeckKind>()?,
                None => replayer::games::playing_deck(game, players)?,
            };
            let server = ServerSeed::from_bytes(parse_seed32(&seed, "--seed")?);
            let clients = parse_client_seeds(&client_seeds)?;
            let ds = deck_seed(&server, &hand, shuffle, &clients)?;
            let cards = deck.cards();
            let positions = permutation(&ds, cards.len());
            let order: Vec<_> = positions
                .iter()
                .filter_map(|p| cards.get(*p).copied())
                .collect();
            // Which pack each dealt card comes from, for a deck of several packs.
            let spec = deck.spec();
            let packs: Option<Vec<u8>> = (spec.packs > 1)
                .then(|| positions.iter().filter_map(|p| deck.pack_of(*p)).collect());
            if json {
                let mut v = serde_json::json!({
                    "game": game, "deck": deck, "deck_spec": spec, "hand": hand, "shuffle": shuffle,
                    "commitment": server.commitment(),
                    "client_seeds": clients.iter().map(|(s, c)| serde_json::json!({"seat": s, "seed": c})).collect::<Vec<_>>(),
                    "deck_seed": ds.to_hex(),
                    "permutation": positions,
                    "order": order,
                });
                if let (Some(p), Some(obj)) = (&packs, v.as_object_mut()) {
                    obj.insert("packs".into(), serde_json::json!(p));
                }
                out!("{}", serde_json::to_string_pretty(&v)?);
            } else {
                out!("game        {game}");
                out!("deck        {deck} ({} cards)", order.len());
                out!("hand        {hand}, shuffle {shuffle}");
                out!("commitment  {}", server.commitment());
                for (s, c) in &clients {
                    out!("client seed {s}: {}", c.to_hex());
                }
                out!("deck seed   {}", ds.to_hex());
                out!("order (top first):");
                for (i, c) in order.iter().enumerate() {
                    let pack = packs
                        .as_ref()
                        .and_then(|p| p.get(i))
                        .map(|p| format!(" pack {} of {}", p + 1, spec.packs))
                        .unwrap_or_default();
                    out!(
                        "{i:>4}  {:<4} {:<22} {}{pack}",
                        c.to_string(),
                        c.english(),
                        c.persian()
                    );
                }
            }
            Ok(())
        }
        Command::Simulate {
            game,
            players,
            hands,
            rules,
            setup,
            seed,
            output,
            key_file,
            seed_chain,
            signatures_required,
        } => {
            let game: GameId = game.parse()?;
            let rules = match rules {
                Some(r) => json_arg(&r, "--rules")?,
                None => Value::Object(serde_json::Map::new()),
            };
            let setup = setup.map(|s| json_arg(&s, "--setup")).transpose()?;
            let seed = match seed {
                Some(s) => parse_seed32(&s, "--seed")?,
                None => {
                    let mut b = [0u8; 32];
                    getrandom::fill(&mut b).map_err(|e| anyhow!("no randomness: {e}"))?;
                    b
                }
            };
            let key = match key_file {
                Some(p) => read_key_file(&p)?,
                None => SigningKeyPair::generate().map_err(|e| anyhow!("no randomness: {e}"))?,
            };
            let now_ms = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
                .unwrap_or(0);
            let spec = sim::SimSpec {
                game,
                players,
                rules,
                setup,
                seed,
            };
            let text = match hands {
                Some(0) => bail!("--hands must be at least 1"),
                Some(k) => serde_json::to_string_pretty(&sim::simulate_match_with(
                    &spec,
                    sim::TableOptions {
                        seed_chain,
                        signatures_required,
                    },
                    k,
                    &key,
                    now_ms,
                )?)?,
                None if seed_chain.is_some() || signatures_required => {
                    let m = sim::simulate_match_with(
                        &spec,
                        sim::TableOptions {
                            seed_chain,
                            signatures_required,
                        },
                        1,
                        &key,
                        now_ms,
                    )?;
                    let first = m.hands.into_iter().next().context("no hand was played")?;
                    serde_json::to_string_pretty(&first)?
                }
                None => serde_json::to_string_pretty(&sim::simulate_with(&spec, &key, now_ms)?)?,
            };
            match output {
                Some(p) => std::fs::write(&p, text + "\n")
                    .with_context(|| format!("cannot write {}", p.display()))?,
                None => {
                    let mut out = std::io::stdout().lock();
                    out.write_all(text.as_bytes())?;
                    out.write_all(b"\n")?;
                }
            }
            Ok(())
        }
        Command::Keygen { out, json } => {
            let key = SigningKeyPair::generate().map_err(|e| anyhow!("no randomness: {e}"))?;
            write_new_secret(&out, &hex::encode(key.secret()))?;
            let public = key.public();
            if json {
                out!(
                    "{}",
                    serde_json::json!({
                        "public_key": public.to_hex(),
                        "key_id": public.key_id(),
                        "key_file": out.display().to_string(),
                    })
                );
            } else {
                out!("public_key {}", public.to_hex());
                out!("key_id     {}", public.key_id());
                out!("key file   {} (keep it secret)", out.display());
            }
            Ok(())
        }
        Command::SignAction {
            key,
            seat,
            action,
            from,
            hand,
            seq,
            head,
            json,
            body,
        } => {
            if from.as_deref() == Some(Path::new("-")) && action == "-" {
                bail!("--from - and --action - cannot both read standard input");
            }
            let key = read_key_file(&key)?;
            let state = match &from {
                Some(f) => {
                    let bytes = read_input(f)?;
                    serde_json::from_slice::<Value>(&bytes)
                        .with_context(|| format!("--from {}: not JSON", f.display()))?
                }
                None => Value::Null,
            };
            let hand = match hand {
                Some(h) => h,
                None => state
                    .get("hand_id")
                    .and_then(Value::as_str)
                    .map(str::to_string)
                    .context("the hand: give --hand, or --from with a hand_id")?,
            };
            let seq = match seq {
                Some(s) => s,
                None => state
                    .get("next_seq")
                    .and_then(Value::as_u64)
                    .context("the seq: give --seq, or --from with a next_seq")?,
            };
            let head = match head {
                Some(h) => h,
                None => state
                    .get("head")
                    .and_then(Value::as_str)
                    .map(str::to_string)
                    .context("the head: give --head, or --from with a head")?,
            };
            let head = replayer::log::Hash::from_hex(head.trim())
                .map_err(|_| anyhow!("--head must be 64 hex characters (the hand's head hash)"))?;
            let action = if action == "-" {
                let bytes = read_input(Path::new("-"))?;
                serde_json::from_slice::<Value>(&bytes).context("--action -: not JSON")?
            } else {
                json_arg(&action, "--action")?
            };
            if !action.is_object() {
                bail!("--action: must be a JSON object");
            }
            let actor = replayer::engine::Actor::Seat(SeatIndex(seat));
            let msg = replayer::log::action_message(&hand, seq, &head, actor, &action)
                .map_err(|e| anyhow!("--action: {e}"))?;
            let sig = replayer::log::PlayerSig {
                key_id: key.key_id(),
                sig: key.sign(&msg),
            };
            if body {
                out!(
                    "{}",
                    serde_json::json!({"action": action, "expected_seq": seq, "player_sig": sig})
                );
            } else if json {
                out!("{}", serde_json::to_string(&sig)?);
            } else {
                out!("hand     {hand}");
                out!("seq      {seq}");
                out!("head     {head}");
                out!("seat     {seat}");
                out!("key_id   {}", sig.key_id);
                out!("sig      {}", sig.sig);
                out!("message  {}", hex::encode(&msg));
            }
            Ok(())
        }
        Command::Bench {
            game,
            hands,
            players,
        } => {
            let game: GameId = game.parse()?;
            let def = replayer::games::registry(game)?;
            let counts = def.seat_counts();
            let players = match players {
                Some(p) if counts.contains(&p) => p,
                Some(p) => bail!("{game} is played by {counts:?} players, not {p}"),
                None if counts.contains(&4) => 4,
                None => counts.last().copied().unwrap_or(2),
            };
            let report = bench::run(game, hands, players)?;
            out_raw!("{report}");
            Ok(())
        }
    }
}

/// Opens a file in the desktop's browser (`xdg-open`, `open` on macOS, `start` on
/// Windows).
fn open_in_browser(path: &Path) -> Result<()> {
    let (cmd, args): (&str, Vec<&std::ffi::OsStr>) = if cfg!(target_os = "macos") {
        ("open", vec![path.as_os_str()])
    } else if cfg!(windows) {
        (
            "cmd",
            vec![
                "/C".as_ref(),
                "start".as_ref(),
                "".as_ref(),
                path.as_os_str(),
            ],
        )
    } else {
        ("xdg-open", vec![path.as_os_str()])
    };
    let status = std::process::Command::new(cmd)
        .args(args)
        .status()
        .with_context(|| format!("cannot run {cmd} to open {}", path.display()))?;
    if !status.success() {
        bail!("{cmd} could not open {} ({status})", path.display());
    }
    Ok(())
}
