//! `replayer bench`: verification speed against raw Ed25519 verification, measured in the
//! same run on the same machine.
//!
//! The ratio printed is `time of the bare signature checks / time of full verification`
//! for the same events: 1.0 would mean verification costs what checking its signatures one
//! by one costs; above 1.0, batch verification of a hand's signatures (`log::verify_batch`)
//! pays for the rest of verification and more. The target is at least 1.5 (issue 32).
//!
//! `--game G` measures any registered game; for a game other than Bist-o-yek the same run
//! also measures Bist-o-yek (same number of hands) and prints G's ratio relative to it, so
//! that an engine's re-run cost is compared on the same machine at the same moment.

use std::fmt::Write as _;
use std::time::Instant;

use sha2::{Digest, Sha256};

use crate::engine::GameId;
use crate::log::{signature_message, SigningKeyPair};
use crate::sim::{simulate, SimError};
use crate::verify::{verify_bytes, Options};

/// Measured figures.
#[derive(Clone, Debug)]
pub struct Figures {
    /// Hands verified.
    pub hands: usize,
    /// Events verified.
    pub events: usize,
    /// Seconds for full verification of all hands.
    pub verify_secs: f64,
    /// Seconds for the bare Ed25519 checks of the same events.
    pub raw_secs: f64,
}

impl Figures {
    /// `raw_secs / verify_secs`.
    pub fn ratio(&self) -> f64 {
        if self.verify_secs > 0.0 {
            self.raw_secs / self.verify_secs
        } else {
            0.0
        }
    }
}

/// Simulate `hands` hands of `game` with `players` seats, then time their verification and
/// the bare signature checks.
pub fn measure(game: GameId, hands: usize, players: u8) -> Result<Figures, SimError> {
    let key = SigningKeyPair::from_secret([42; 32]);
    let mut bundles = Vec::with_capacity(hands);
    let mut messages = Vec::new();
    for i in 0..hands {
        let seed: [u8; 32] = Sha256::digest(format!("bench-{i}")).into();
        let b = simulate(game, players, seed, &key, 0)?;
        for r in &b.records {
            messages.push((signature_message(&r.hash), r.sig));
        }
        bundles.push(serde_json::to_vec(&b).unwrap_or_default());
    }
    let opts = Options {
        trusted_keys: vec![key.public()],
    };
    let start = Instant::now();
    let mut valid = 0usize;
    for b in &bundles {
        if verify_bytes(b, &opts).is_ok_and(|v| v.valid) {
            valid += 1;
        }
    }
    let verify_secs = start.elapsed().as_secs_f64();
    let public = key.public();
    let start = Instant::now();
    let mut ok = 0usize;
    for (m, s) in &messages {
        if public.verify(m, s) {
            ok += 1;
        }
    }
    let raw_secs = start.elapsed().as_secs_f64();
    debug_assert_eq!(valid, hands);
    debug_assert_eq!(ok, messages.len());
    Ok(Figures {
        hands: valid,
        events: messages.len(),
        verify_secs,
        raw_secs,
    })
}

/// Run the benchmark of `game` and format its report (with Bist-o-yek's figures of the same
/// run beside a game of another kind).
pub fn run(game: GameId, hands: usize, players: u8) -> Result<String, SimError> {
    let f = measure(game, hands, players)?;
    let mut out = String::new();
    let _ = writeln!(out, "game                    {game} ({players} players)");
    report(&mut out, &f);
    if game != GameId::BistOYek {
        let base = measure(GameId::BistOYek, hands, 4)?;
        let _ = writeln!(out, "bist-o-yek, same run (4 players):");
        report(&mut out, &base);
        let rel = if base.ratio() > 0.0 {
            f.ratio() / base.ratio()
        } else {
            0.0
        };
        let _ = writeln!(
            out,
            "{game} ratio / bist-o-yek ratio {rel:.3}  (target >= 0.9)"
        );
    }
    Ok(out)
}

fn report(out: &mut String, f: &Figures) {
    let per = |n: usize, s: f64| if s > 0.0 { n as f64 / s } else { 0.0 };
    let _ = writeln!(out, "hands verified          {}", f.hands);
    let _ = writeln!(out, "events verified         {}", f.events);
    let _ = writeln!(
        out,
        "hands per second        {:.1}",
        per(f.hands, f.verify_secs)
    );
    let _ = writeln!(
        out,
        "events per second       {:.1}",
        per(f.events, f.verify_secs)
    );
    let _ = writeln!(
        out,
        "raw Ed25519 verify/s    {:.1}",
        per(f.events, f.raw_secs)
    );
    let _ = writeln!(
        out,
        "ratio (raw signature time / full verification time) {:.3}  (target >= 1.5)",
        f.ratio()
    );
}
