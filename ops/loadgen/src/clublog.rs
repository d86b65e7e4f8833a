//! `loadgen clublog`: what the club transparency log costs (`docs/TRANSPARENCY.md`,
//! `ops/README.md`, "Club log benchmark").
//!
//! * **tlog**, in memory, no database: a log of synthetic 33-byte entries grown with
//!   `TiledLog::append` to each size of `--sizes` (1M and 10M by default), and at each
//!   size, timed per operation: a checkpoint (the right edge's partial tiles written, the
//!   root from the right edge, the note signed: what the service's builder does per
//!   checkpoint, besides its store writes), an inclusion proof and a consistency proof
//!   for random leaves and old sizes, each computed from the tiles (`TileHashReader`, one
//!   tile read per complete subtree, as the service computes them from its stored tiles),
//!   with the tiles read per proof. Every proof is checked (untimed). The cost should grow
//!   as log n: the ratio of each per-op time at the largest size to the smallest is
//!   printed beside log2(n) ratios.
//! * **appends** (with `--database-url`): the append workload of `loadgen appends` (one
//!   club, C tables of Bist-o-yek, `appends_rig` / `appends_slice`, the club-order
//!   sequencer running) in alternating slices with the service's own club log builder
//!   (`services::clublog::LogBuilder::build_all` every `LOG_PERIOD`, on a pool of its own)
//!   running beside it, and without it. Between slices, outside the measurement, the log
//!   catches up, so an "on" slice starts with no backlog. The ratio on / off of events
//!   per second is the figure (target ≥ 0.9).
//!
//! Bounded: the sizes are capped at 20M leaves (about 0.7 GB of hash tiles in memory),
//! the proofs per size at 100,000, the append slices by `--duration-secs`.

use std::cell::Cell;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context as _};
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use replayer::log::{Hash, SigningKeyPair};
use replayer::tlog::{
    consistency_proof, inclusion_proof, tree_root, verify_consistency, verify_inclusion,
    Checkpoint, HashReader, MemoryTiles, NoteSigner, Origin, StoreError, TileHashReader, TileId,
    TileKind, TileReader, TileWriter, TiledLog,
};
use services::store::{PgStore, Store};

use crate::appends::{appends_rig, appends_slice, Phase, SliceOpts};
use crate::common::{connect, durability_settings, random_seed};

/// Largest log the tlog part builds.
const MAX_SIZE: u64 = 20_000_000;
/// Most proofs of each kind per size.
const MAX_OPS: usize = 100_000;
/// The cost target: append rate with the club log on over off.
const TARGET_RATIO: f64 = 0.9;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Log sizes to measure, comma-separated, growing (the log is grown from one to the
    /// next).
    #[arg(long, value_delimiter = ',', default_value = "1000000,10000000")]
    sizes: Vec<u64>,
    /// Inclusion and consistency proofs timed at each size (each kind).
    #[arg(long, default_value_t = 5_000)]
    proofs: usize,
    /// Checkpoints timed at each size.
    #[arg(long, default_value_t = 500)]
    checkpoints: usize,
    /// The (throw-away) database for the append part; without it only the tlog part runs.
    #[arg(long, env = "DATABASE_URL")]
    database_url: Option<String>,
    /// Tables (concurrent hands) of the append part.
    #[arg(long, default_value_t = 8)]
    concurrency: usize,
    /// Seconds of appends, split evenly between "log on" and "log off".
    #[arg(long, default_value_t = 40)]
    duration_secs: u64,
    /// Rounds of (off, on) slices.
    #[arg(long, default_value_t = 4)]
    rounds: u64,
    /// Seats per Bist-o-yek table.
    #[arg(long, default_value_t = 4)]
    players: u8,
}

pub async fn run(args: Args) -> anyhow::Result<()> {
    if args.sizes.is_empty()
        || args.sizes.iter().any(|&s| s == 0 || s > MAX_SIZE)
        || args.sizes.windows(2).any(|w| w[0] >= w[1])
    {
        bail!("--sizes: growing positive numbers up to {MAX_SIZE}, comma-separated");
    }
    if args.proofs == 0
        || args.proofs > MAX_OPS
        || args.checkpoints == 0
        || args.checkpoints > MAX_OPS
    {
        bail!("--proofs and --checkpoints: 1 to {MAX_OPS}");
    }
    println!("# loadgen clublog");
    let sizes = args.sizes.clone();
    let (proofs, checkpoints) = (args.proofs, args.checkpoints);
    let rows = tokio::task::spawn_blocking(move || tlog_part(&sizes, proofs, checkpoints))
        .await
        .context("the tlog part panicked")??;
    report_tlog(&rows);
    if let Some(url) = &args.database_url {
        appends_part(&args, url).await?;
    } else {
        println!("\n(no --database-url: the append part is skipped)");
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// The tlog part.

/// Hash tiles in memory, entry bundles dropped (proofs read hash tiles only); counts reads.
#[derive(Default)]
struct HashTiles {
    tiles: HashMap<(u8, u64, u16), Vec<u8>>,
    reads: Cell<u64>,
}

impl TileReader for HashTiles {
    fn read_tile(&self, tile: &TileId) -> Result<Option<Vec<u8>>, StoreError> {
        self.reads.set(self.reads.get() + 1);
        Ok(match tile.kind {
            TileKind::Hashes(l) => self.tiles.get(&(l, tile.index, tile.width)).cloned(),
            TileKind::Entries => None,
        })
    }
}

impl TileWriter for HashTiles {
    fn write_tile(&mut self, tile: &TileId, bytes: &[u8]) -> Result<(), StoreError> {
        if let TileKind::Hashes(l) = tile.kind {
            self.tiles
                .insert((l, tile.index, tile.width), bytes.to_vec());
        }
        Ok(())
    }
}

/// What one size measured: mean microseconds per operation, and tile reads per proof.
struct SizeRow {
    size: u64,
    build_secs: f64,
    checkpoint_us: f64,
    edge_us: f64,
    sign_us: f64,
    inclusion_us: f64,
    inclusion_reads: f64,
    inclusion_len: f64,
    consistency_us: f64,
    consistency_reads: f64,
    consistency_len: f64,
}

fn entry(i: u64) -> [u8; 33] {
    let mut e = [0u8; 33];
    e[0] = 1;
    e[1..9].copy_from_slice(&i.to_be_bytes());
    e
}

fn tlog_part(sizes: &[u64], proofs: usize, checkpoints: usize) -> anyhow::Result<Vec<SizeRow>> {
    let mut tiles = HashTiles::default();
    let mut log = TiledLog::new();
    let origin = Origin::for_club("bench.example/v1", "bench-club")?;
    let signer = NoteSigner::new(origin.as_str(), SigningKeyPair::from_secret(random_seed()))?;
    let mut rng = ChaCha8Rng::from_seed(random_seed());
    let mut rows = Vec::new();
    for &size in sizes {
        let t = Instant::now();
        while log.size() < size {
            let i = log.size();
            log.append(&entry(i), &mut tiles)?;
        }
        log.write_partials(&mut tiles)?;
        let build_secs = t.elapsed().as_secs_f64();
        println!("grew the log to {size} leaves in {build_secs:.1} s");

        // Checkpoints: the right edge (partial tiles and root), then the signature.
        let mut scratch = MemoryTiles::default();
        let (mut edge, mut sign) = (Duration::ZERO, Duration::ZERO);
        let mut last_note = String::new();
        for _ in 0..checkpoints {
            let t = Instant::now();
            log.write_partials(&mut scratch)?;
            let root = log.root();
            let t2 = Instant::now();
            last_note = Checkpoint::new(origin.clone(), log.size(), root).sign(&signer)?;
            sign += t2.elapsed();
            edge += t2 - t;
        }
        let cp = Checkpoint::open(&last_note, &signer.verifier())?;
        let reader = TileHashReader::new(&tiles, size);
        if tree_root(&reader, size)? != cp.root {
            bail!("the tiles do not give the checkpoint's root at {size}");
        }

        // Inclusion proofs of random leaves.
        let idx: Vec<u64> = (0..proofs).map(|_| rng.next_u64() % size).collect();
        tiles.reads.set(0);
        let mut len = 0usize;
        let t = Instant::now();
        let mut out = Vec::with_capacity(proofs);
        for &i in &idx {
            let p = inclusion_proof(&reader, i, size)?;
            len += p.len();
            out.push(p);
        }
        let inc = t.elapsed();
        let inc_reads = tiles.reads.get();
        for (&i, p) in idx.iter().zip(&out) {
            let leaf = read_leaf(&reader, i)?;
            verify_inclusion(&leaf, i, size, p, &cp.root)
                .with_context(|| format!("inclusion proof of {i} at {size}"))?;
        }

        // Consistency proofs from random older sizes.
        let olds: Vec<u64> = (0..proofs).map(|_| 1 + rng.next_u64() % size).collect();
        tiles.reads.set(0);
        let mut clen = 0usize;
        let t = Instant::now();
        let mut cout = Vec::with_capacity(proofs);
        for &m in &olds {
            let p = consistency_proof(&reader, m, size)?;
            clen += p.len();
            cout.push(p);
        }
        let con = t.elapsed();
        let con_reads = tiles.reads.get();
        // Checked for a sample (each old root costs a root computation of its own).
        for (&m, p) in olds.iter().zip(&cout).take(200) {
            let old_root = tree_root(&reader, m)?;
            verify_consistency(m, size, p, &old_root, &cp.root)
                .with_context(|| format!("consistency proof {m} -> {size}"))?;
        }

        let n = checkpoints as f64;
        let k = proofs as f64;
        rows.push(SizeRow {
            size,
            build_secs,
            checkpoint_us: (edge + sign).as_secs_f64() * 1e6 / n,
            edge_us: edge.as_secs_f64() * 1e6 / n,
            sign_us: sign.as_secs_f64() * 1e6 / n,
            inclusion_us: inc.as_secs_f64() * 1e6 / k,
            inclusion_reads: inc_reads as f64 / k,
            inclusion_len: len as f64 / k,
            consistency_us: con.as_secs_f64() * 1e6 / k,
            consistency_reads: con_reads as f64 / k,
            consistency_len: clen as f64 / k,
        });
    }
    Ok(rows)
}

/// Leaf `i`'s hash, read from level 0.
fn read_leaf(reader: &dyn HashReader, i: u64) -> anyhow::Result<Hash> {
    let hs = reader.read_hashes(&[replayer::tlog::NodeId { level: 0, index: i }])?;
    hs.first().copied().context("no leaf hash")
}

fn report_tlog(rows: &[SizeRow]) {
    println!();
    println!("## club log operations, in memory (mean per operation)");
    println!(
        "{:>11} {:>10} {:>12} {:>10} {:>9} {:>12} {:>7} {:>7} {:>14} {:>7} {:>7}",
        "leaves",
        "build s",
        "checkpoint",
        "edge",
        "sign",
        "inclusion",
        "reads",
        "hashes",
        "consistency",
        "reads",
        "hashes"
    );
    for r in rows {
        println!(
            "{:>11} {:>10.1} {:>10.1}us {:>8.1}us {:>7.1}us {:>10.1}us {:>7.1} {:>7.1} {:>12.1}us {:>7.1} {:>7.1}",
            r.size,
            r.build_secs,
            r.checkpoint_us,
            r.edge_us,
            r.sign_us,
            r.inclusion_us,
            r.inclusion_reads,
            r.inclusion_len,
            r.consistency_us,
            r.consistency_reads,
            r.consistency_len
        );
    }
    if let (Some(a), Some(b)) = (rows.first(), rows.last()) {
        if a.size != b.size {
            let lg = (b.size as f64).log2() / (a.size as f64).log2();
            println!(
                "ratio {}/{}: checkpoint {:.2}, inclusion {:.2}, consistency {:.2} (log2 n ratio {:.2}, n ratio {:.1})",
                b.size,
                a.size,
                b.checkpoint_us / a.checkpoint_us,
                b.inclusion_us / a.inclusion_us,
                b.consistency_us / a.consistency_us,
                lg,
                b.size as f64 / a.size as f64
            );
        }
    }
}

// ---------------------------------------------------------------------------------------
// The append part.

/// A service over the benchmark's database, for its log builder: its own small pool, a
/// throw-away signing key and seal key.
fn builder_service(url: &str) -> anyhow::Result<services::Service> {
    let dir = std::env::temp_dir().join(format!("loadgen-clublog-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let keys = services::keys::Keyring::load_or_create(&dir, None)?;
    let _ = std::fs::remove_dir_all(&dir);
    Ok(services::Service {
        store: Arc::new(PgStore::connect(&crate::common::work_url(url), 2)?),
        keys,
        seal: services::keys::SealKey::from_bytes(random_seed()),
        live: services::hands::LiveHands::default(),
        tokens: services::auth::TokenCache::default(),
        metrics: services::metrics::Metrics::new()?,
        log_base: services::clublog::DEFAULT_PUBLIC_BASE.to_string(),
    })
}

/// Builds until the log holds every ordered event; returns the leaves added.
async fn catch_up(
    svc: &services::Service,
    builder: &mut services::clublog::LogBuilder,
) -> anyhow::Result<u64> {
    let mut total = 0;
    loop {
        let n = builder.build_all(svc).await?;
        total += n;
        if n == 0 {
            return Ok(total);
        }
    }
}

async fn appends_part(args: &Args, url: &str) -> anyhow::Result<()> {
    if args.concurrency == 0 || args.duration_secs < 2 || args.duration_secs > 3_600 {
        bail!("--concurrency ≥ 1, --duration-secs 2 to 3600");
    }
    let admin = connect(url).await?;
    println!();
    println!("## appends with the club log on and off");
    for (k, v) in durability_settings(&admin).await? {
        println!("SHOW {k:<20} = {v}");
    }
    let setup = PgStore::connect(url, 2)?;
    setup.migrate().await?;
    let svc = Arc::new(builder_service(url)?);
    let mut builder = services::clublog::LogBuilder::default();
    let rounds = args.rounds.clamp(1, args.duration_secs / 2);
    let slice = Duration::from_secs_f64(args.duration_secs as f64 / (2 * rounds) as f64);
    println!(
        "{} tables of Bist-o-yek ({} seats), {rounds} rounds of (off {:.1} s, on {:.1} s); builder every {} ms",
        args.concurrency,
        args.players,
        slice.as_secs_f64(),
        slice.as_secs_f64(),
        services::clublog::LOG_PERIOD.as_millis()
    );
    let opts = SliceOpts {
        database_url: url.to_string(),
        client_entropy: false,
        lag_every: Duration::from_millis(100),
        // The hands are driven inside the slices, on and off alike (the figures in
        // ops/README.md were measured so).
        prebuilt: false,
    };
    let mut rig = appends_rig(url, args.players, args.concurrency).await?;
    let (mut off, mut on) = (Phase::default(), Phase::default());
    let (mut checkpoints, mut leaves_during, mut backlog) = (0u64, 0u64, 0u64);
    for round in 0..rounds {
        // Alternate which goes first, so a drift of the machine hits both.
        for log_on in if round % 2 == 0 {
            [false, true]
        } else {
            [true, false]
        } {
            backlog += catch_up(&svc, &mut builder).await?;
            if !log_on {
                off.absorb(appends_slice(&opts, &mut rig, slice).await?);
                continue;
            }
            let stop = Arc::new(AtomicBool::new(false));
            let (s, svc2) = (stop.clone(), svc.clone());
            let mut b = std::mem::take(&mut builder);
            let task = tokio::spawn(async move {
                let mut tick = tokio::time::interval(services::clublog::LOG_PERIOD);
                tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
                let (mut passes, mut added) = (0u64, 0u64);
                while !s.load(Ordering::Relaxed) {
                    tick.tick().await;
                    if let Ok(n) = b.build_all(&svc2).await {
                        if n > 0 {
                            passes += 1;
                            added += n;
                        }
                    }
                }
                (b, passes, added)
            });
            on.absorb(appends_slice(&opts, &mut rig, slice).await?);
            stop.store(true, Ordering::Relaxed);
            let (b, passes, added) = task.await?;
            builder = b;
            checkpoints += passes;
            leaves_during += added;
        }
    }
    backlog += catch_up(&svc, &mut builder).await?;
    let (r_off, r_on) = (off.events_per_sec(), on.events_per_sec());
    let ratio = r_on / r_off.max(1e-9);
    println!(
        "log off: {} events in {:.1} s = {:.0} events/s ({} errors)",
        off.events, off.secs, r_off, off.errors
    );
    println!(
        "log on:  {} events in {:.1} s = {:.0} events/s ({} errors); {} checkpoints signed, {} leaves appended during the slices",
        on.events, on.secs, r_on, on.errors, checkpoints, leaves_during
    );
    println!("(leaves appended between slices, outside the measurement: {backlog})");
    println!(
        "ratio on/off: {ratio:.3} (target ≥ {TARGET_RATIO}): {}",
        if ratio >= TARGET_RATIO {
            "MET"
        } else {
            "NOT MET"
        }
    );
    if let Some(e) = off.first_error.as_ref().or(on.first_error.as_ref()) {
        println!("first error: {e}");
    }
    // The log built here must be the club's whole order, and its checkpoint verify.
    for club in svc.store.clubs_to_log().await? {
        println!("club {club} still has unlogged events (unexpected)");
    }
    Ok(())
}
