//! `replayer log inclusion`, `replayer log consistency` and `replayer monitor`: checking a
//! club log's proofs offline, and following a log for forks and rollbacks.
//!
//! Every command answers `Ok(true)` when what it checks holds (exit 0), `Ok(false)` when it
//! does not (exit 1: a proof that fails, a fork, a rollback, a signature that fails) and an
//! error when its inputs cannot be read or do not fit together (exit 2).

use std::io::Write;
use std::path::Path;

use anyhow::{anyhow, bail, Context, Result};
use serde::{Deserialize, Serialize};

use replayer::bundle::RawBundle;
use replayer::tlog::store::write_atomically;
use replayer::tlog::{
    consistency_proof, inclusion_proof, tree_root, verify_consistency, Checkpoint, CheckpointError,
    ConsistencyProofFile, HandLogProof, HandProofError, NoteError, NoteVerifier, ProofError,
    StoreError, TileHashReader,
};

use super::source::Source;

/// Write a line to standard output.
macro_rules! say {
    ($($t:tt)*) => {
        writeln!(std::io::stdout().lock(), $($t)*).context("cannot write to standard output")?
    };
}

/// A vkey given inline, or the path of a file holding one (its first non-empty line that
/// is not a `#` comment).
pub fn parse_vkey(spec: &str) -> Result<NoteVerifier> {
    let as_vkey = match NoteVerifier::from_vkey(spec) {
        Ok(v) => return Ok(v),
        Err(e) => e,
    };
    let path = Path::new(spec);
    if !path.is_file() {
        bail!("--key {spec:?} is neither a verifier key (NAME+KEYID+BASE64: {as_vkey}) nor a file");
    }
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read key file {}", path.display()))?;
    let line = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .ok_or_else(|| anyhow!("key file {} holds no verifier key", path.display()))?;
    NoteVerifier::from_vkey(line).with_context(|| format!("key file {}", path.display()))
}

/// A checkpoint that is signed by `key`, or (without a key) one read unverified. The outer
/// error: unreadable or malformed (exit 2); the inner: a signature or origin that fails
/// (exit 1).
fn read_checkpoint(
    text: &str,
    what: &str,
    key: Option<&NoteVerifier>,
) -> Result<std::result::Result<Checkpoint, String>> {
    let res = match key {
        Some(k) => Checkpoint::open(text, k),
        None => Checkpoint::parse_unverified(text),
    };
    match res {
        Ok(c) => Ok(Ok(c)),
        Err(CheckpointError::Malformed(m)) => Err(anyhow!("{what}: malformed checkpoint: {m}")),
        Err(CheckpointError::Note(NoteError::Malformed(m))) => {
            Err(anyhow!("{what}: malformed signed note: {m}"))
        }
        Err(e) => Ok(Err(format!("{what}: {e}"))),
    }
}

fn read_file_text(path: &Path) -> Result<String> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    String::from_utf8(bytes).map_err(|_| anyhow!("{} is not UTF-8", path.display()))
}

fn trust_line(key: Option<&NoteVerifier>) -> String {
    match key {
        Some(k) => format!("checkpoint signature: checked against {}", k.vkey()),
        None => "checkpoint signature: NOT checked; pass --key with the log's verifier key \
                 (NAME+KEYID+BASE64) to check who signed it"
            .to_string(),
    }
}

/// The log proof a bundle of version 2 carries, as a log proof file would give it: the
/// origin and tree size are its checkpoint's.
fn embedded_proof(bundle: &Path, raw: &RawBundle) -> Result<HandLogProof> {
    let Some(p) = &raw.log_proof else {
        bail!(
            "{}: the bundle carries no log proof (version {}); pass --proof with the hand's log proof file",
            bundle.display(),
            raw.version
        );
    };
    let cp = Checkpoint::parse_unverified(&p.checkpoint)
        .map_err(|e| anyhow!("{}: log_proof: the checkpoint: {e}", bundle.display()))?;
    Ok(HandLogProof::new(
        cp.origin.as_str(),
        &raw.hand,
        p.salt,
        p.leaf_index,
        cp.size,
        p.inclusion.clone(),
    ))
}

/// `replayer log inclusion BUNDLE --checkpoint FILE [--proof FILE] [--tiles SRC] [--key VKEY]`;
/// without `--proof`, the proof the bundle carries (version 2).
pub fn inclusion(
    bundle: &Path,
    checkpoint: &Path,
    proof: Option<&Path>,
    tiles: Option<&str>,
    key: Option<&str>,
) -> Result<bool> {
    let key = key.map(parse_vkey).transpose()?;
    let bundle_bytes =
        std::fs::read(bundle).with_context(|| format!("cannot read {}", bundle.display()))?;
    let raw: RawBundle = serde_json::from_slice(&bundle_bytes)
        .map_err(|e| anyhow!("{}: not a hand bundle: {e}", bundle.display()))?;
    let log_proof: HandLogProof = match proof {
        Some(proof) => {
            let proof_bytes =
                std::fs::read(proof).with_context(|| format!("cannot read {}", proof.display()))?;
            let p: HandLogProof = serde_json::from_slice(&proof_bytes)
                .map_err(|e| anyhow!("{}: not a log proof: {e}", proof.display()))?;
            p.check_version()
                .map_err(|e| anyhow!("{}: {e}", proof.display()))?;
            p
        }
        None => embedded_proof(bundle, &raw)?,
    };
    let cp_text = read_file_text(checkpoint)?;
    let cp = match read_checkpoint(&cp_text, &checkpoint.display().to_string(), key.as_ref())? {
        Ok(c) => c,
        Err(why) => {
            say!("NOT VALID: {why}");
            return Ok(false);
        }
    };
    let computed = match tiles {
        Some(spec) => {
            let source = Source::open(spec)?;
            match inclusion_proof(
                &TileHashReader::new(&source, cp.size),
                log_proof.leaf_index,
                cp.size,
            ) {
                Ok(p) => Some(p),
                Err(ProofError::Read(e)) => return tile_failure(&source, e),
                Err(e) => {
                    say!("NOT VALID: {e}");
                    return Ok(false);
                }
            }
        }
        None => None,
    };
    match log_proof.verify(&raw, &cp, computed.as_deref()) {
        Ok(leaf) => {
            say!(
                "VALID: the last event of hand {} (seq {}, hash {}) is leaf {} of the log {} at size {}",
                leaf.hand,
                leaf.seq,
                leaf.event_hash,
                log_proof.leaf_index,
                cp.origin,
                cp.size
            );
            say!("  {}", trust_line(key.as_ref()));
            say!("  this proves the log holds the hand as the bundle gives it; `replayer verify` checks the hand itself");
            Ok(true)
        }
        Err(HandProofError::Proof(e)) => {
            say!("NOT VALID: hand {}: {e}", raw.hand);
            Ok(false)
        }
        Err(e) => Err(anyhow!("{e}")),
    }
}

/// A tile that could not be had: the log cannot prove what was asked (exit 1) when it is
/// missing or malformed; a failure to read at all is exit 2.
fn tile_failure(source: &Source, e: StoreError) -> Result<bool> {
    match e {
        StoreError::Missing(_)
        | StoreError::Malformed { .. }
        | StoreError::NodeNotInTree { .. } => {
            say!(
                "NOT VALID: the log at {} cannot prove it: {e}",
                source.describe()
            );
            Ok(false)
        }
        other => Err(anyhow!("{}: {other}", source.describe())),
    }
}

/// `replayer log consistency OLD NEW (--tiles SRC | --proof FILE) [--key VKEY]`.
pub fn consistency(
    old: &Path,
    new: &Path,
    tiles: Option<&str>,
    proof: Option<&Path>,
    key: Option<&str>,
) -> Result<bool> {
    let key = key.map(parse_vkey).transpose()?;
    let mut cps = Vec::new();
    for path in [old, new] {
        match read_checkpoint(
            &read_file_text(path)?,
            &path.display().to_string(),
            key.as_ref(),
        )? {
            Ok(c) => cps.push(c),
            Err(why) => {
                say!("NOT VALID: {why}");
                return Ok(false);
            }
        }
    }
    let (Some(o), Some(n)) = (cps.first(), cps.get(1)) else {
        bail!("internal: two checkpoints expected");
    };
    if o.origin != n.origin {
        bail!(
            "the checkpoints are of different logs: {} and {}",
            o.origin,
            n.origin
        );
    }
    let trust = trust_line(key.as_ref());
    if let Some(verdict) = compare_sizes(o, n)? {
        say!("  {trust}");
        return Ok(verdict);
    }
    let hashes = match (tiles, proof) {
        (Some(_), Some(_)) => bail!("give --tiles or --proof, not both"),
        (None, None) => bail!(
            "a consistency proof is needed: --tiles DIR_OR_URL (computed from the log's tiles) or --proof FILE"
        ),
        (None, Some(p)) => {
            let f: ConsistencyProofFile = serde_json::from_slice(
                &std::fs::read(p).with_context(|| format!("cannot read {}", p.display()))?,
            )
            .map_err(|e| anyhow!("{}: not a consistency proof: {e}", p.display()))?;
            return match f.verify(o, n) {
                Ok(()) => {
                    say_consistent(o, n)?;
                    say!("  {trust}");
                    Ok(true)
                }
                Err(HandProofError::Proof(e)) => {
                    say_fork(o, n, &e)?;
                    Ok(false)
                }
                Err(e) => Err(anyhow!("{}: {e}", p.display())),
            };
        }
        (Some(spec), None) => {
            let source = Source::open(spec)?;
            let reader = TileHashReader::new(&source, n.size);
            match tiles_agree(&source, &reader, n)? {
                Some(false) => return Ok(false),
                Some(true) => {}
                None => return Ok(false),
            }
            match consistency_proof(&reader, o.size, n.size) {
                Ok(p) => p,
                Err(ProofError::Read(e)) => return tile_failure(&source, e),
                Err(e) => bail!("{e}"),
            }
        }
    };
    match verify_consistency(o.size, n.size, &hashes, &o.root, &n.root) {
        Ok(()) => {
            say_consistent(o, n)?;
            say!("  {trust}");
            Ok(true)
        }
        Err(e) => {
            say_fork(o, n, &e)?;
            Ok(false)
        }
    }
}

/// The verdict when the sizes alone decide: a rollback, a fork at equal sizes, or the same
/// checkpoint. `None` when a proof is needed.
fn compare_sizes(o: &Checkpoint, n: &Checkpoint) -> Result<Option<bool>> {
    if n.size < o.size {
        say!(
            "ROLLBACK: the log {} went back from size {} to size {}",
            o.origin,
            o.size,
            n.size
        );
        return Ok(Some(false));
    }
    if n.size == o.size {
        if n.root == o.root {
            say!(
                "CONSISTENT: the log {} is unchanged at size {}",
                o.origin,
                o.size
            );
            return Ok(Some(true));
        }
        say!(
            "FORK: the log {} signed two different trees of size {}: root {} and root {}",
            o.origin,
            o.size,
            o.root,
            n.root
        );
        return Ok(Some(false));
    }
    Ok(None)
}

fn say_consistent(o: &Checkpoint, n: &Checkpoint) -> Result<()> {
    say!(
        "CONSISTENT: the log {} at size {} extends its tree of size {}",
        o.origin,
        n.size,
        o.size
    );
    Ok(())
}

fn say_fork(o: &Checkpoint, n: &Checkpoint, e: &ProofError) -> Result<()> {
    say!(
        "FORK: the log {} at size {} (root {}) is not proved to extend its tree of size {} (root {}): {e}",
        o.origin,
        n.size,
        n.root,
        o.size,
        o.root
    );
    Ok(())
}

/// Whether the tiles give the checkpoint's root: `Some(true)` yes, `Some(false)` no (said),
/// `None` a tile missing or malformed (said). A log whose tiles do not match its signed
/// checkpoint serves others a different tree.
fn tiles_agree(
    source: &Source,
    reader: &TileHashReader<&Source>,
    cp: &Checkpoint,
) -> Result<Option<bool>> {
    match tree_root(reader, cp.size) {
        Ok(root) if root == cp.root => Ok(Some(true)),
        Ok(root) => {
            say!(
                "FORK: the tiles at {} give root {} for size {}, the checkpoint says {}",
                source.describe(),
                root,
                cp.size,
                cp.root
            );
            Ok(Some(false))
        }
        Err(e) => tile_failure(source, e).map(|_| None),
    }
}

/// The monitor's memory: the last checkpoint it accepted, as signed.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct MonitorState {
    /// Always `persian-cards/monitor-state`.
    format: String,
    /// Always 1.
    version: u32,
    /// The log's origin.
    origin: String,
    /// The signed checkpoint, as the log served it.
    checkpoint: String,
}

const STATE_FORMAT: &str = "persian-cards/monitor-state";

/// `replayer monitor URL --state FILE --key VKEY`.
pub fn monitor(url: &str, state_path: &Path, key: &str) -> Result<bool> {
    let key = parse_vkey(key)?;
    let source = Source::open(url)?;
    let previous = match std::fs::read(state_path) {
        Ok(b) => {
            let s: MonitorState = serde_json::from_slice(&b).map_err(|e| {
                anyhow!(
                    "state file {}: not a monitor state: {e}",
                    state_path.display()
                )
            })?;
            if s.format != STATE_FORMAT || s.version != 1 {
                bail!(
                    "state file {}: unsupported format {:?} version {}",
                    state_path.display(),
                    s.format,
                    s.version
                );
            }
            let c = Checkpoint::open(&s.checkpoint, &key).map_err(|e| {
                anyhow!(
                    "state file {}: its checkpoint does not open with the key given: {e}",
                    state_path.display()
                )
            })?;
            Some(c)
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => bail!("cannot read state file {}: {e}", state_path.display()),
    };
    let note = source.checkpoint()?;
    let latest = match read_checkpoint(
        &note,
        &format!("{}checkpoint", with_slash(&source)),
        Some(&key),
    )? {
        Ok(c) => c,
        Err(why) => {
            say!("NOT VALID: {why}");
            return Ok(false);
        }
    };
    let reader = TileHashReader::new(&source, latest.size);
    match tiles_agree(&source, &reader, &latest)? {
        Some(true) => {}
        _ => return Ok(false),
    }
    let Some(prev) = previous else {
        save_state(state_path, &latest, &note)?;
        say!(
            "FIRST: recorded the log {} at size {} (root {}); later runs check that it only grows",
            latest.origin,
            latest.size,
            latest.root
        );
        return Ok(true);
    };
    if prev.origin != latest.origin {
        bail!(
            "state file {} is for the log {}, but {} serves the log {}",
            state_path.display(),
            prev.origin,
            source.describe(),
            latest.origin
        );
    }
    if let Some(verdict) = compare_sizes(&prev, &latest)? {
        if !verdict {
            say!("  kept the state file as it was; the log's checkpoint now:\n{note}");
        }
        return Ok(verdict);
    }
    let proof = match consistency_proof(&reader, prev.size, latest.size) {
        Ok(p) => p,
        Err(ProofError::Read(e)) => return tile_failure(&source, e),
        Err(e) => bail!("{e}"),
    };
    if let Err(e) = verify_consistency(prev.size, latest.size, &proof, &prev.root, &latest.root) {
        say_fork(&prev, &latest, &e)?;
        say!("  kept the state file as it was; the log's checkpoint now:\n{note}");
        return Ok(false);
    }
    save_state(state_path, &latest, &note)?;
    say_consistent(&prev, &latest)?;
    Ok(true)
}

fn with_slash(source: &Source) -> String {
    let d = source.describe();
    if d.ends_with('/') {
        d
    } else {
        format!("{d}/")
    }
}

fn save_state(path: &Path, cp: &Checkpoint, note: &str) -> Result<()> {
    let s = MonitorState {
        format: STATE_FORMAT.to_string(),
        version: 1,
        origin: cp.origin.to_string(),
        checkpoint: note.to_string(),
    };
    let text = serde_json::to_string_pretty(&s)? + "\n";
    write_atomically(path, text.as_bytes())
        .with_context(|| format!("cannot write state file {}", path.display()))
}
