//! `loadgen history`: bulk-loads a club history of ~N events (hands, their player
//! projection and their events, consistent with the schema), then times
//! `Store::list_hands_stored` (what `GET /v1/hands` reads) with a mix of filters and
//! cursor paging, and the hand reads of the service (`Store::get_hand`, a page of
//! `Store::list_events` as `GET …/events` reads it, a whole hand with
//! `Store::list_event_records`), of any hand of the history and of recent ones.
//!
//! With several sizes (`--events 1000000,10000000`) the history is loaded up to the
//! first, measured, grown to the next and measured again: the same clubs and tables go
//! on playing (a club's history grows with time, its players' too), and each later size
//! is judged against the first, per kind of call: p50 and p99 within 1.2 times.
//!
//! With `--first-size-database-url` (a second fresh database) and two sizes, the first
//! size is loaded into both databases alike, the main one is grown to the second, and
//! the two are then measured in interleaved rounds (first size, second size, first …),
//! as the append benchmark interleaves its phases: a drift of the machine over the
//! minutes of the load and the measurement then hits both sizes alike, instead of being
//! counted as the growth of the history.
//!
//! The load does not go through the append path: hands and `hand_players` are written
//! with binary COPY in one transaction, events with binary COPY in transactions of
//! `--chunk` rows, foreign keys enforced. Event records are real signed Bist-o-yek
//! records from simulated hands (a pool of templates, one per simulated hand), with
//! the hand id and time rewritten per stored hand: the rows have the size and shape of
//! real ones, but their hashes and signatures are the templates' (the benchmark never
//! verifies them; signing a million events would dominate the load time).

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};
use std::pin::pin;
use std::time::{Duration, Instant};

use anyhow::{bail, Context as _};
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use replayer::engine::GameId;
use replayer::games::registry;
use replayer::log::{Body, SigningKeyPair};
use serde_json::Value;
use services::store::{
    ApiKeyRow, ClubRow, HandFilter, HandStatus, KeyRole, PgStore, SeatRow, Store, TableRow,
};
use sha2::{Digest, Sha256};
use tokio_postgres::binary_copy::BinaryCopyInWriter;
use tokio_postgres::types::{ToSql, Type};

use crate::common::{connect, durability_settings, Latencies};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// History sizes in events, comma-separated and growing (about: whole hands are
    /// loaded). The history is loaded up to the first size and measured, then grown to
    /// the next (the same clubs and tables playing on: a club's history grows with time)
    /// and measured again, and so on; each later size is judged against the first.
    #[arg(long, value_delimiter = ',', default_value = "1000000")]
    events: Vec<u64>,
    /// Calls to time at each size (each page of a paged walk counts as one), round-robin
    /// over the list_hands kinds and the hand reads (500 of each kind by default, for a
    /// steadier p99).
    #[arg(long, default_value_t = 4_000)]
    queries: usize,
    /// The (throw-away) database to benchmark.
    #[arg(long, env = "DATABASE_URL")]
    database_url: String,
    /// A second (throw-away, fresh) database: the first size is loaded into it too, and
    /// the two sizes are measured in interleaved rounds (needs exactly two sizes).
    #[arg(long)]
    first_size_database_url: Option<String>,
    /// Interleaved rounds of measurement (with --first-size-database-url), at most 1,000.
    /// Many short rounds: a stall of the machine (a second or two, on a shared virtual
    /// machine) then falls on both sizes' calls alike, where rounds of thousands of calls
    /// (8 until the fourteenth round, ops/README.md) gave it to one size's tail.
    #[arg(long, default_value_t = 1_000)]
    rounds: usize,
    /// Clubs.
    #[arg(long, default_value_t = 3)]
    clubs: usize,
    /// Tables per club.
    #[arg(long, default_value_t = 12)]
    tables_per_club: usize,
    /// Players known to each club.
    #[arg(long, default_value_t = 150)]
    players_per_club: usize,
    /// Page size of every query.
    #[arg(long, default_value_t = 50)]
    page_size: i64,
    /// Events per COPY transaction.
    #[arg(long, default_value_t = 100_000)]
    chunk: usize,
    /// Seed of the generated history (same seed, same data and queries).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Before measuring, read every table and index the reads use (all but the club
    /// log's and its cursors') into PostgreSQL's buffers (`pg_prewarm`): the steady state
    /// of a server whose `shared_buffers` hold the history, rather than the first touch
    /// of each page after a bulk load. Needs `shared_buffers` larger than both databases'
    /// events with their indexes, or the second database's pages push out the first's.
    #[arg(long)]
    prewarm: bool,
}

/// Reads the relations the history's reads use into the server's buffers (see
/// `Args::prewarm`); says how many blocks and how long.
async fn prewarm(url: &str) -> anyhow::Result<()> {
    let t = Instant::now();
    let c = connect(url).await?;
    c.batch_execute("CREATE EXTENSION IF NOT EXISTS pg_prewarm")
        .await
        .context("CREATE EXTENSION pg_prewarm (postgresql-contrib)")?;
    let row = c
        .query_one(
            "SELECT coalesce(sum(pg_prewarm(c.oid::regclass)), 0)::bigint, \
                    coalesce(sum(pg_relation_size(c.oid)), 0)::bigint \
             FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace \
             WHERE n.nspname = 'public' AND c.relkind IN ('r', 'i') \
               AND c.relname NOT LIKE 'club\\_log%' AND c.relname NOT LIKE 'log\\_cursors%'",
            &[],
        )
        .await?;
    let (blocks, bytes): (i64, i64) = (row.get(0), row.get(1));
    println!(
        "prewarmed {}: {blocks} blocks ({:.2} GB) in {:.1} s",
        db_label(url),
        bytes as f64 / 1e9,
        t.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Most list_hands calls, whatever --queries says.
const MAX_QUERIES: usize = 1_000_000;
/// Regular players per table.
const REGULARS: usize = 10;
/// Simulated hands per seat count, as record templates.
const TEMPLATES_PER_SEATS: usize = 24;
/// Seat counts the tables use.
const SEAT_COUNTS: [u8; 4] = [3, 4, 5, 6];

/// One simulated hand's records, as stored columns.
struct Template {
    seats: u8,
    events: Vec<TemplateEvent>,
    outcome: Value,
}

struct TemplateEvent {
    kind: String,
    hash: String,
    prev_hash: String,
    record: Value,
}

/// One generated hand.
#[derive(Clone)]
struct GenHand {
    club: usize,
    table: usize,
    hand_id: String,
    hand_no: i64,
    status: HandStatus,
    started_ms: i64,
    ended_ms: Option<i64>,
    /// When it ends (or will: a hand in progress ends in a later stage).
    end_ms: i64,
    players: Vec<String>,
    template: usize,
    /// Events stored (a prefix of the template's for a hand in progress).
    events: usize,
    first_gid: i64,
}

#[derive(Clone)]
struct GenTable {
    id: String,
    seats: u8,
    regulars: Vec<String>,
    next_start: i64,
    hands: i64,
}

fn rng_below(rng: &mut ChaCha8Rng, n: usize) -> usize {
    usize::try_from(rng.next_u64() % u64::try_from(n.max(1)).unwrap_or(1)).unwrap_or(0)
}

fn templates() -> anyhow::Result<Vec<Template>> {
    let key = SigningKeyPair::from_secret([9; 32]);
    let mut out = Vec::new();
    for &seats in &SEAT_COUNTS {
        for i in 0..TEMPLATES_PER_SEATS {
            let seed: [u8; 32] = Sha256::digest(format!("history-{seats}-{i}")).into();
            let b = replayer::sim::simulate(GameId::BistOYek, seats, seed, &key, 0)?;
            let outcome = b
                .records
                .iter()
                .find_map(|r| match &r.event.body {
                    Body::HandEnded { outcome, .. } => Some(outcome.clone()),
                    _ => None,
                })
                .unwrap_or(Value::Null);
            let events = b
                .records
                .iter()
                .map(|r| {
                    Ok(TemplateEvent {
                        kind: r.event.body.kind().to_owned(),
                        hash: r.hash.to_hex(),
                        prev_hash: r.event.prev.to_hex(),
                        record: serde_json::to_value(r)?,
                    })
                })
                .collect::<anyhow::Result<Vec<_>>>()?;
            out.push(Template {
                seats,
                events,
                outcome,
            });
        }
    }
    Ok(out)
}

fn club_id(c: usize) -> String {
    format!("club-{c}")
}

/// A hand's id, shaped as the service makes them (`h_` and 16 hex characters of
/// randomness, here derived from the hand's place): hands of one table are scattered
/// over `events_pkey` and `hands_pkey` as in production, not next to each other as
/// `table-03-000123` would put them (which flattered the reads' locality).
fn hand_id(c: usize, t: usize, n: i64) -> String {
    let d = Sha256::digest(format!("history-hand-{c}-{t}-{n}"));
    format!("h_{}", hex::encode(&d[..8]))
}

fn player_name(c: usize, p: usize) -> String {
    format!("c{c}-player-{p:04}")
}

/// The history as it is generated, stage by stage: every table's next start, the clubs'
/// next gid, what is loaded so far.
#[derive(Clone)]
struct Generator {
    tables: Vec<Vec<GenTable>>,
    /// `(next start, club, table)`, earliest first.
    heap: BinaryHeap<Reverse<(i64, usize, usize)>>,
    next_gid: Vec<i64>,
    /// Events generated so far.
    total: u64,
    /// Every hand generated so far, as `(club, hand id)`: what the hand reads pick from.
    all: Vec<(usize, String)>,
    /// The hands left in progress by the last stage, to finish before the next.
    in_progress: Vec<GenHand>,
}

impl Generator {
    fn new(args: &Args, rng: &mut ChaCha8Rng, start_ms: i64) -> Generator {
        let mut tables: Vec<Vec<GenTable>> = Vec::new();
        let mut heap = BinaryHeap::new();
        for c in 0..args.clubs {
            let mut ts = Vec::new();
            for t in 0..args.tables_per_club {
                let seats = SEAT_COUNTS[rng_below(rng, SEAT_COUNTS.len())];
                let mut regulars = Vec::new();
                while regulars.len() < REGULARS.max(usize::from(seats)) {
                    let p = player_name(c, rng_below(rng, args.players_per_club));
                    if !regulars.contains(&p) {
                        regulars.push(p);
                    }
                }
                let next_start = start_ms + i64::try_from(rng_below(rng, 3_600_000)).unwrap_or(0);
                heap.push(Reverse((next_start, c, t)));
                ts.push(GenTable {
                    id: format!("table-{t:02}"),
                    seats,
                    regulars,
                    next_start,
                    hands: 0,
                });
            }
            tables.push(ts);
        }
        Generator {
            tables,
            heap,
            next_gid: vec![0i64; args.clubs],
            total: 0,
            all: Vec::new(),
            in_progress: Vec::new(),
        }
    }

    /// Generates the hands of every table in time order until `target` events in all
    /// (every stage so far); the last hand of every other table is left in progress.
    fn extend(
        &mut self,
        args: &Args,
        templates: &[Template],
        rng: &mut ChaCha8Rng,
        target: u64,
    ) -> Vec<GenHand> {
        let mut hands = Vec::new();
        // Bounded: every iteration adds at least one event.
        while self.total < target {
            let Some(Reverse((start, c, t))) = self.heap.pop() else {
                break;
            };
            let table = &mut self.tables[c][t];
            let candidates: Vec<usize> = (0..templates.len())
                .filter(|&i| templates[i].seats == table.seats)
                .collect();
            let template = candidates[rng_below(rng, candidates.len())];
            let n_events = templates[template].events.len();
            let duration = i64::try_from(n_events).unwrap_or(60)
                * (1_000 + i64::try_from(rng_below(rng, 4_000)).unwrap_or(0));
            // Mostly regulars, now and then someone from the whole club.
            let mut players: Vec<String> = Vec::new();
            while players.len() < usize::from(table.seats) {
                let p = if rng_below(rng, 10) == 0 {
                    player_name(c, rng_below(rng, args.players_per_club))
                } else {
                    table.regulars[rng_below(rng, table.regulars.len())].clone()
                };
                if !players.contains(&p) {
                    players.push(p);
                }
            }
            let abandoned = rng_below(rng, 20) == 0;
            table.hands += 1;
            let events = if abandoned {
                // Abandoned part-way: a prefix of the template (its reveal is not kept:
                // the row only has to be the size of one).
                (n_events / 2).max(1)
            } else {
                n_events
            };
            hands.push(GenHand {
                club: c,
                table: t,
                hand_id: hand_id(c, t, table.hands),
                hand_no: table.hands,
                status: if abandoned {
                    HandStatus::Abandoned
                } else {
                    HandStatus::Completed
                },
                started_ms: start,
                ended_ms: Some(start + duration),
                end_ms: start + duration,
                players,
                template,
                events,
                first_gid: self.next_gid[c],
            });
            self.next_gid[c] += i64::try_from(events).unwrap_or(0);
            self.total += u64::try_from(events).unwrap_or(0);
            // Next hand: a short pause, sometimes a long break (the table closes for the
            // night).
            let pause = if rng_below(rng, 25) == 0 {
                8 * 3_600_000 + i64::try_from(rng_below(rng, 8 * 3_600_000)).unwrap_or(0)
            } else {
                10_000 + i64::try_from(rng_below(rng, 300_000)).unwrap_or(0)
            };
            table.next_start = start + duration + pause;
            self.heap.push(Reverse((table.next_start, c, t)));
        }
        // The last hand of every other table is still being played.
        self.in_progress.clear();
        for c in 0..args.clubs {
            for t in (0..args.tables_per_club).step_by(2) {
                if let Some(h) = hands.iter_mut().rev().find(|h| h.club == c && h.table == t) {
                    h.status = HandStatus::InProgress;
                    h.ended_ms = None;
                    self.in_progress.push(h.clone());
                }
            }
        }
        self.all
            .extend(hands.iter().map(|h| (h.club, h.hand_id.clone())));
        hands
    }
}

/// The kinds of call timed, round-robin.
const KINDS: [&str; 10] = [
    "by table",
    "by player",
    "game+status",
    "time range",
    "paging (cursor)",
    "hand row",
    "hand events (page of 100)",
    "whole hand (row + all events)",
    "recent: hand events (page of 100)",
    "recent: whole hand (row + all events)",
];

/// The hands the `recent:` reads draw from: the newest of the history, the same number at
/// every size (about a busy club-day's). The other hand reads draw from the whole history.
const RECENT_HANDS: usize = 2_000;

/// Latencies by kind at one size.
#[derive(Default)]
struct Measured {
    events: u64,
    by_kind: BTreeMap<&'static str, (Latencies, usize, usize)>,
    all: Latencies,
    /// Buffers per call by kind: all (hit and read), and read (not in shared_buffers).
    buffers: BTreeMap<&'static str, (f64, f64)>,
}

/// Calls of each kind in the buffer census.
const CENSUS_CALLS: usize = 40;

/// The database's buffer counters: (hit, read).
async fn blocks(admin: &tokio_postgres::Client) -> anyhow::Result<(i64, i64)> {
    admin
        .batch_execute("SELECT pg_stat_clear_snapshot()")
        .await?;
    let r = admin
        .query_one(
            "SELECT blks_hit, blks_read FROM pg_stat_database WHERE datname = current_database()",
            &[],
        )
        .await?;
    Ok((r.get(0), r.get(1)))
}

/// How many shared buffers a call of each kind touches (`pg_stat_database` around
/// [`CENSUS_CALLS`] calls made on one connection, its statistics flushed after them):
/// the work a call does, which the machine's load does not change, unlike its latency.
/// "read" counts the buffers that were not in shared_buffers (read from the OS, its page
/// cache or the disk).
async fn census(
    url: &str,
    args: &Args,
    gen: &Generator,
    rng: &mut ChaCha8Rng,
    span: Span,
) -> anyhow::Result<BTreeMap<&'static str, (f64, f64)>> {
    let admin = &connect(url).await?;
    let one = PgStore::connect(url, 1)?;
    // The connection's prepared statements and catalog caches, first.
    for kind in KINDS {
        call(kind, args, &one, gen, rng, span).await?;
    }
    let flush = || async {
        let c = one
            .pool()
            .get()
            .await
            .map_err(|e| anyhow::anyhow!("pool: {e}"))?;
        c.batch_execute("SELECT pg_stat_force_next_flush()").await?;
        drop(c);
        // The backend flushes as it goes idle, before it answers the next query.
        tokio::time::sleep(Duration::from_millis(20)).await;
        anyhow::Ok(())
    };
    let mut out = BTreeMap::new();
    for kind in KINDS {
        flush().await?;
        let before = blocks(admin).await?;
        let mut pages = 0usize;
        for _ in 0..CENSUS_CALLS {
            pages += call(kind, args, &one, gen, rng, span).await?.len();
        }
        flush().await?;
        let after = blocks(admin).await?;
        let n = pages.max(1) as f64;
        out.insert(
            kind,
            (
                ((after.0 - before.0) + (after.1 - before.1)) as f64 / n,
                (after.1 - before.1) as f64 / n,
            ),
        );
    }
    println!();
    println!(
        "buffers per call ({CENSUS_CALLS} calls of each kind on one connection; a page of a \
         paged walk counts as one call):"
    );
    println!();
    println!("| kind | buffers per call | of which not in shared_buffers |");
    println!("|---|---|---|");
    for kind in KINDS {
        if let Some((all, read)) = out.get(kind) {
            println!("| {kind} | {all:.1} | {read:.1} |");
        }
    }
    Ok(out)
}

pub async fn run(args: Args) -> anyhow::Result<()> {
    if args.clubs == 0 || args.tables_per_club == 0 || args.players_per_club < 10 {
        bail!("need at least one club, one table and ten players per club");
    }
    if args.events.is_empty()
        || args.events.iter().any(|&e| e == 0 || e > 50_000_000)
        || args.events.windows(2).any(|w| w[0] >= w[1])
    {
        bail!("--events: growing sizes of 1 to 50,000,000, comma-separated");
    }
    let queries = args.queries.min(MAX_QUERIES);
    let admin = connect(&args.database_url).await?;
    let sizes: Vec<String> = args.events.iter().map(|e| e.to_string()).collect();
    println!(
        "# loadgen history — sizes {} events, {queries} timed calls at each",
        sizes.join(", ")
    );
    for (k, v) in durability_settings(&admin).await? {
        println!("SHOW {k:<20} = {v}");
    }
    if args.first_size_database_url.is_some() && args.events.len() != 2 {
        bail!("--first-size-database-url compares two sizes: give --events FIRST,SECOND");
    }

    let t0 = Instant::now();
    let templates = templates()?;
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed);
    // History starts on 2023-07-22; how far it reaches depends on --events.
    let start_ms = 1_690_000_000_000i64;
    let mut gen = Generator::new(&args, &mut rng, start_ms);
    println!(
        "{} templates ({:.1} s); {} clubs x {} tables, {} players per club",
        templates.len(),
        t0.elapsed().as_secs_f64(),
        args.clubs,
        args.tables_per_club,
        args.players_per_club
    );
    let store = set_up(&args.database_url, &gen, start_ms).await?;
    let mut copier = connect(&args.database_url).await?;
    // The first size's own database, when the sizes are measured interleaved.
    let mut first_db = match &args.first_size_database_url {
        Some(url) => {
            println!("first size also in database {}", db_label(url));
            Some((
                url.clone(),
                set_up(url, &gen, start_ms).await?,
                connect(url).await?,
            ))
        }
        None => None,
    };
    let mut first_gen: Option<(Generator, u64)> = None;
    let mut results: Vec<Measured> = Vec::new();
    let mut loaded = 0u64;
    for (stage, &target) in args.events.iter().enumerate() {
        // ---- grow the history to `target` events
        println!();
        println!("## {target} events");
        let t_gen = Instant::now();
        let finishing = std::mem::take(&mut gen.in_progress);
        let hands = gen.extend(&args, &templates, &mut rng, target);
        let new_events: usize = hands.iter().map(|h| h.events).sum();
        println!(
            "generated {} more hands, {new_events} more events ({:.1} s)",
            hands.len(),
            t_gen.elapsed().as_secs_f64()
        );
        loaded = load_stage(&mut copier, &args, &gen, &finishing, &hands, &templates).await?;
        if let (0, Some((_, _, c))) = (stage, first_db.as_mut()) {
            println!("the same into the first size's database:");
            let n = load_stage(c, &args, &gen, &finishing, &hands, &templates).await?;
            first_gen = Some((gen.clone(), n));
        }
        if first_db.is_some() {
            continue;
        }

        // ---- measure
        // The same sequence of kinds and choices at every size.
        let mut qrng = ChaCha8Rng::seed_from_u64(args.seed.wrapping_add(0x5eed));
        let span = span_of(&gen, start_ms);
        if args.prewarm {
            prewarm(&args.database_url).await?;
        }
        let mut m = measure(&args, &store, &gen, &mut qrng, queries, span).await?;
        m.buffers = census(&args.database_url, &args, &gen, &mut qrng, span).await?;
        m.events = loaded;
        results.push(m);
    }
    if let (Some((url, first_store, _)), Some((first, first_events))) = (&first_db, &first_gen) {
        if args.prewarm {
            prewarm(url).await?;
            prewarm(&args.database_url).await?;
        }
        let spans = [span_of(first, start_ms), span_of(&gen, start_ms)];
        let [mut a, mut b] = measure_interleaved(
            &args,
            [(first_store, first, spans[0]), (&store, &gen, spans[1])],
            queries,
        )
        .await?;
        let mut qrng = ChaCha8Rng::seed_from_u64(args.seed.wrapping_add(0x5eed));
        println!();
        println!("first size ({first_events} events):");
        a.buffers = census(url, &args, first, &mut qrng, spans[0]).await?;
        a.events = *first_events;
        let mut qrng = ChaCha8Rng::seed_from_u64(args.seed.wrapping_add(0x5eed));
        println!();
        println!("second size:");
        b.buffers = census(&args.database_url, &args, &gen, &mut qrng, spans[1]).await?;
        b.events = loaded;
        results = vec![a, b];
    }
    compare(&mut results);
    Ok(())
}

/// The database's name in a URL, for the report (never the URL: it may hold a password).
fn db_label(url: &str) -> &str {
    url.rsplit('/')
        .next()
        .unwrap_or("?")
        .split('?')
        .next()
        .unwrap_or("?")
}

/// Where the history's hand starts lie when the generator is at this stage.
fn span_of(gen: &Generator, start_ms: i64) -> Span {
    let last_start = gen
        .tables
        .iter()
        .flatten()
        .map(|t| t.next_start)
        .min()
        .unwrap_or(start_ms);
    Span {
        first_start: start_ms,
        last_start,
    }
}

/// Migrates a fresh database and creates the history's clubs, tables and seats in it.
async fn set_up(url: &str, gen: &Generator, start_ms: i64) -> anyhow::Result<PgStore> {
    let store = PgStore::connect(url, 4)?;
    store.migrate().await?;
    let admin = connect(url).await?;
    let exists: i64 = admin
        .query_one("SELECT count(*) FROM hands", &[])
        .await?
        .get(0);
    if exists > 0 {
        bail!("the database already has hands: history needs a fresh database");
    }
    let def = registry(GameId::BistOYek)?;
    let rules = def.normalize_rules(&def.default_rules())?;
    for (c, ts) in gen.tables.iter().enumerate() {
        let club = club_id(c);
        store
            .create_club(
                &ClubRow {
                    club_id: club.clone(),
                    name: format!("history club {c}"),
                    created_ms: start_ms,
                },
                &ApiKeyRow {
                    club_id: club.clone(),
                    key_id: format!("key-{club}"),
                    key_hash: "ab".repeat(32),
                    role: KeyRole::Admin,
                    created_ms: start_ms,
                },
            )
            .await?;
        for t in ts {
            let setup = def.default_setup(t.seats)?;
            let match_state = def.new_match(&rules, &setup)?;
            store
                .create_table(
                    &TableRow {
                        club_id: club.clone(),
                        table_id: t.id.clone(),
                        game: GameId::BistOYek.as_str().to_owned(),
                        rules: rules.clone(),
                        setup,
                        match_state,
                        match_version: 0,
                        seats: t
                            .regulars
                            .iter()
                            .take(usize::from(t.seats))
                            .enumerate()
                            .map(|(s, p)| SeatRow {
                                seat: i16::try_from(s).unwrap_or(0),
                                player: p.clone(),
                                token_id: format!("tok-{club}-{}-{s}", t.id),
                                token_hash: "cd".repeat(32),
                                public_key: None,
                            })
                            .collect(),
                        created_ms: start_ms,
                    },
                    None,
                )
                .await?;
        }
    }
    Ok(store)
}

/// Loads one stage (the hands it finishes, its new hands and their events) into the
/// database of `copier`, vacuums and checkpoints; the events the database holds now.
async fn load_stage(
    copier: &mut tokio_postgres::Client,
    args: &Args,
    gen: &Generator,
    finishing: &[GenHand],
    hands: &[GenHand],
    templates: &[Template],
) -> anyhow::Result<u64> {
    let new_events: usize = hands.iter().map(|h| h.events).sum();
    let t_load = Instant::now();
    finish_hands(copier, finishing, templates).await?;
    load_hands(copier, hands, templates).await?;
    load_events(copier, hands, templates, args.chunk).await?;
    for (c, n) in gen.next_gid.iter().enumerate() {
        copier
            .execute(
                "UPDATE clubs SET next_gid = $2 WHERE club_id = $1",
                &[&club_id(c), n],
            )
            .await?;
    }
    let load_secs = t_load.elapsed().as_secs_f64();
    let t_an = Instant::now();
    // One statement per call: VACUUM cannot run in the implicit transaction of a
    // batch. Every table the reads use is vacuumed (visibility map, statistics), so
    // that no autovacuum of the freshly loaded rows runs during the measurement.
    for sql in [
        "VACUUM (ANALYZE) hands",
        "VACUUM (ANALYZE) hand_players",
        "VACUUM (ANALYZE) events",
        "VACUUM (ANALYZE) club_log",
    ] {
        copier.batch_execute(sql).await?;
    }
    let vacuum_secs = t_an.elapsed().as_secs_f64();
    // Nor a checkpoint of the load's dirty pages (needs a superuser, as in appends).
    let _ = copier.batch_execute("CHECKPOINT").await;
    let sizes = copier
        .query_one(
            "SELECT pg_size_pretty(pg_total_relation_size('events')), \
             pg_size_pretty(pg_total_relation_size('hands')), \
             pg_size_pretty(pg_total_relation_size('hand_players')), \
             pg_size_pretty(pg_total_relation_size('club_log')), \
             (SELECT count(*) FROM events), (SELECT count(*) FROM hands)",
            &[],
        )
        .await?;
    let loaded: i64 = sizes.get(4);
    let hands_now: i64 = sizes.get(5);
    println!(
        "loaded {new_events} events in {load_secs:.1} s ({:.0} events/s), VACUUM ANALYZE \
         {vacuum_secs:.1} s; now {loaded} events, {hands_now} hands; events {}, hands {}, \
         hand_players {}, club_log {} (with indexes)",
        new_events as f64 / load_secs.max(1e-9),
        sizes.get::<_, String>(0),
        sizes.get::<_, String>(1),
        sizes.get::<_, String>(2),
        sizes.get::<_, String>(3),
    );
    Ok(u64::try_from(loaded).unwrap_or(0))
}

/// Completes the hands a previous stage left in progress: their players went on.
async fn finish_hands(
    client: &tokio_postgres::Client,
    hands: &[GenHand],
    templates: &[Template],
) -> anyhow::Result<()> {
    for h in hands {
        client
            .execute(
                "UPDATE hands SET status = 'completed', ended_ms = $3, outcome = $4 \
                 WHERE club_id = $1 AND hand_id = $2 AND status = 'in_progress'",
                &[
                    &club_id(h.club),
                    &h.hand_id,
                    &h.end_ms,
                    &templates[h.template].outcome,
                ],
            )
            .await?;
    }
    Ok(())
}

/// Where the history's hand starts lie, for the time-range kind.
#[derive(Clone, Copy)]
struct Span {
    first_start: i64,
    last_start: i64,
}

/// One call of `kind`: its pages' (latency, rows) (hand reads have one page).
async fn call(
    kind: &str,
    args: &Args,
    store: &PgStore,
    gen: &Generator,
    rng: &mut ChaCha8Rng,
    span: Span,
) -> anyhow::Result<Vec<(Duration, usize)>> {
    let day = 86_400_000i64;
    let c = rng_below(rng, args.clubs);
    let club = club_id(c);
    let table = &gen.tables[c][rng_below(rng, args.tables_per_club)];
    let (recent, read_kind) = match kind.strip_prefix("recent: ") {
        Some(k) => (true, k),
        None => (false, kind),
    };
    if let Some(read) = read_kind
        .strip_prefix("hand ")
        .or(read_kind.strip_prefix("whole hand"))
    {
        // Any hand of the history, old or new; or one of the newest.
        let from = if recent {
            gen.all.len().saturating_sub(RECENT_HANDS)
        } else {
            0
        };
        let (hc, hand) = &gen.all[from + rng_below(rng, gen.all.len() - from)];
        let hclub = club_id(*hc);
        let q0 = Instant::now();
        let rows = match read {
            "row" => usize::from(store.get_hand(&hclub, hand).await?.is_some()),
            "events (page of 100)" => store.list_events(&hclub, hand, 0, 100).await?.len(),
            _ => {
                // What GET /v1/hands/{id} and the bundle read of a finished hand: its
                // row, then all of its events in pages of 1,000, without their places in
                // the club's order (`Store::list_event_records`, as `hands::records`).
                let row = store.get_hand(&hclub, hand).await?;
                let mut n = usize::from(row.is_some());
                let mut from = 0i64;
                // Bounded: a template hand has far fewer than 1,000 x 100 events.
                for _ in 0..100 {
                    let page = store.list_event_records(&hclub, hand, from, 1000).await?;
                    n += page.len();
                    if page.len() < 1000 {
                        break;
                    }
                    from += 1000;
                }
                n
            }
        };
        return Ok(vec![(q0.elapsed(), rows)]);
    }
    let mut filter = HandFilter {
        limit: args.page_size,
        ..HandFilter::default()
    };
    let mut pages = 1usize;
    match kind {
        "by table" => filter.table_id = Some(table.id.clone()),
        "by player" => {
            filter.player = Some(table.regulars[rng_below(rng, table.regulars.len())].clone());
        }
        "game+status" => {
            filter.game = Some(GameId::BistOYek.as_str().to_owned());
            filter.status = Some(match rng_below(rng, 3) {
                0 => HandStatus::Completed,
                1 => HandStatus::Abandoned,
                _ => HandStatus::InProgress,
            });
        }
        "time range" => {
            // One day somewhere in the club's history.
            let width = span.last_start - span.first_start - day;
            let width = usize::try_from(width.max(1)).unwrap_or(1);
            let from = span.first_start + i64::try_from(rng_below(rng, width)).unwrap_or(0);
            filter.started_from_ms = Some(from);
            filter.started_to_ms = Some(from + day);
        }
        _ => {
            // Whole club, or one table, or one player: 3 to 5 pages.
            match rng_below(rng, 3) {
                0 => {}
                1 => filter.table_id = Some(table.id.clone()),
                _ => {
                    filter.player =
                        Some(table.regulars[rng_below(rng, table.regulars.len())].clone());
                }
            }
            pages = 3 + rng_below(rng, 3);
        }
    }
    let mut out = Vec::new();
    for _ in 0..pages {
        let q0 = Instant::now();
        // What GET /v1/hands reads: the rows as stored (no next seq per hand).
        let rows = store.list_hands_stored(&club, &filter).await?;
        out.push((q0.elapsed(), rows.len()));
        match rows.last() {
            Some(last) if i64::try_from(rows.len()).unwrap_or(0) == args.page_size => {
                filter.cursor = Some((last.started_ms, last.hand_id.clone()));
            }
            _ => break,
        }
    }
    Ok(out)
}

/// Times `queries` calls (after 100 warm-up calls), round-robin over [`KINDS`].
async fn measure(
    args: &Args,
    store: &PgStore,
    gen: &Generator,
    rng: &mut ChaCha8Rng,
    queries: usize,
    span: Span,
) -> anyhow::Result<Measured> {
    let mut m = Measured::default();
    let mut turn = 0usize;
    let t_q = Instant::now();
    calls(
        args,
        store,
        gen,
        rng,
        span,
        WARMUP.min(queries),
        &mut turn,
        None,
    )
    .await?;
    calls(
        args,
        store,
        gen,
        rng,
        span,
        queries,
        &mut turn,
        Some(&mut m),
    )
    .await?;
    report(args, &m, t_q.elapsed(), "one client");
    Ok(m)
}

/// Warm-up calls per database before the timed ones.
const WARMUP: usize = 100;

/// The two sizes' databases, each `(store, generator at its size, span)`, measured in
/// `--rounds` interleaved rounds of `queries / rounds` calls each (first, second, first
/// …), after [`WARMUP`] calls on each; each database's calls go on round-robin over
/// [`KINDS`] from round to round, with the same random choices for both.
async fn measure_interleaved(
    args: &Args,
    dbs: [(&PgStore, &Generator, Span); 2],
    queries: usize,
) -> anyhow::Result<[Measured; 2]> {
    let rounds = args.rounds.clamp(1, 1_000);
    let per_round = queries.div_ceil(rounds).max(1);
    let seed = args.seed.wrapping_add(0x5eed);
    let mut rngs = [
        ChaCha8Rng::seed_from_u64(seed),
        ChaCha8Rng::seed_from_u64(seed),
    ];
    let mut turns = [0usize; 2];
    let mut out = [Measured::default(), Measured::default()];
    let mut spent = [Duration::ZERO; 2];
    for (k, (store, gen, span)) in dbs.iter().enumerate() {
        calls(
            args,
            store,
            gen,
            &mut rngs[k],
            *span,
            WARMUP,
            &mut turns[k],
            None,
        )
        .await?;
    }
    println!();
    println!("interleaved: {rounds} rounds of {per_round} calls on each size's database");
    for _ in 0..rounds {
        for (k, (store, gen, span)) in dbs.iter().enumerate() {
            let t = Instant::now();
            calls(
                args,
                store,
                gen,
                &mut rngs[k],
                *span,
                per_round,
                &mut turns[k],
                Some(&mut out[k]),
            )
            .await?;
            spent[k] += t.elapsed();
        }
    }
    for (k, name) in ["first size", "second size"].iter().enumerate() {
        report(args, &out[k], spent[k], name);
    }
    Ok(out)
}

/// `n` calls, round-robin over [`KINDS`] from `*turn` on; timed into `m` when given (a
/// page of a paged walk counts as one call).
#[allow(clippy::too_many_arguments)]
async fn calls(
    args: &Args,
    store: &PgStore,
    gen: &Generator,
    rng: &mut ChaCha8Rng,
    span: Span,
    n: usize,
    turn: &mut usize,
    mut m: Option<&mut Measured>,
) -> anyhow::Result<()> {
    let mut done = 0usize;
    // Bounded: each turn does at least one call.
    for _ in 0..n.saturating_mul(2).max(1) {
        if done >= n {
            break;
        }
        let kind = KINDS[*turn % KINDS.len()];
        *turn += 1;
        for (d, rows) in call(kind, args, store, gen, rng, span).await? {
            if let Some(m) = m.as_deref_mut() {
                let e = m.by_kind.entry(kind).or_default();
                e.0.push(d);
                e.1 += 1;
                e.2 += rows;
                m.all.push(d);
            }
            done += 1;
        }
    }
    Ok(())
}

/// The per-kind table of one measurement.
fn report(args: &Args, m: &Measured, took: Duration, what: &str) {
    println!();
    println!(
        "list_hands_stored (page size {}) and hand reads: {} timed calls after {WARMUP} warm-up, \
         {what}, {:.1} s",
        args.page_size,
        m.all.len(),
        took.as_secs_f64()
    );
    println!();
    println!("| kind | calls | avg rows | p50 ms | p99 ms |");
    println!("|---|---|---|---|---|");
    let mut by_kind = m.by_kind.clone();
    for kind in KINDS {
        if let Some((lat, calls, rows)) = by_kind.get_mut(kind) {
            println!(
                "| {kind} | {calls} | {:.1} | {:.2} | {:.2} |",
                *rows as f64 / (*calls).max(1) as f64,
                lat.pct_ms(50.0),
                lat.pct_ms(99.0)
            );
        }
    }
    let mut all = m.all.clone();
    println!(
        "| overall | {} | | {:.2} | {:.2} |",
        all.len(),
        all.pct_ms(50.0),
        all.pct_ms(99.0)
    );
}

/// The largest ratio of a later size's latency to the first size's that passes.
const TARGET_GROWTH: f64 = 1.2;

/// Each later size against the first: p50 and p99 per kind, their ratios, PASS/FAIL.
fn compare(results: &mut [Measured]) {
    let Some((first, later)) = results.split_first_mut() else {
        return;
    };
    if later.is_empty() {
        return;
    }
    let mut failed = false;
    for m in later.iter_mut() {
        println!();
        println!(
            "## {} events against {} events (target: p50 and p99 within {TARGET_GROWTH}x)",
            m.events, first.events
        );
        println!();
        println!(
            "| kind | p50 ms | p50 ms | ratio | p99 ms | p99 ms | ratio | target | buffers per call | buffers per call |"
        );
        println!("|---|---|---|---|---|---|---|---|---|---|");
        for kind in KINDS {
            let (Some(a), Some(b)) = (first.by_kind.get_mut(kind), m.by_kind.get_mut(kind)) else {
                continue;
            };
            let (a50, a99) = (a.0.pct_ms(50.0), a.0.pct_ms(99.0));
            let (b50, b99) = (b.0.pct_ms(50.0), b.0.pct_ms(99.0));
            let (r50, r99) = (b50 / a50.max(1e-6), b99 / a99.max(1e-6));
            let pass = r50 <= TARGET_GROWTH && r99 <= TARGET_GROWTH;
            failed |= !pass;
            let bufs = |m: &Measured| {
                m.buffers.get(kind).map_or("?".to_owned(), |(all, read)| {
                    format!("{all:.1} ({read:.1} read)")
                })
            };
            println!(
                "| {kind} | {a50:.2} | {b50:.2} | {r50:.2} | {a99:.2} | {b99:.2} | {r99:.2} | {} | {} | {} |",
                if pass { "PASS" } else { "FAIL" },
                bufs(first),
                bufs(m),
            );
        }
    }
    println!();
    println!("RESULT: {}", if failed { "FAIL" } else { "PASS" });
}

fn status_str(s: HandStatus) -> &'static str {
    s.as_str()
}

async fn load_hands(
    client: &mut tokio_postgres::Client,
    hands: &[GenHand],
    templates: &[Template],
) -> anyhow::Result<()> {
    let t0 = Instant::now();
    let tx = client.transaction().await?;
    {
        let sink = tx
            .copy_in(
                "COPY hands (club_id, hand_id, table_id, game, hand_no, status, next_seq, players, \
                 started_ms, ended_ms, outcome, abandon_reason) FROM STDIN (FORMAT binary)",
            )
            .await?;
        let types = [
            Type::TEXT,
            Type::TEXT,
            Type::TEXT,
            Type::TEXT,
            Type::INT8,
            Type::TEXT,
            Type::INT8,
            Type::TEXT_ARRAY,
            Type::INT8,
            Type::INT8,
            Type::JSONB,
            Type::TEXT,
        ];
        let mut w = pin!(BinaryCopyInWriter::new(sink, &types));
        for h in hands {
            let club = club_id(h.club);
            let table = format!("table-{:02}", h.table);
            let next_seq = i64::try_from(h.events)?;
            let outcome =
                (h.status == HandStatus::Completed).then(|| templates[h.template].outcome.clone());
            let reason = (h.status == HandStatus::Abandoned).then_some("player left");
            let row: [&(dyn ToSql + Sync); 12] = [
                &club,
                &h.hand_id,
                &table,
                &GameId::BistOYek.as_str(),
                &h.hand_no,
                &status_str(h.status),
                &next_seq,
                &h.players,
                &h.started_ms,
                &h.ended_ms,
                &outcome,
                &reason,
            ];
            w.as_mut().write(&row).await.context("COPY hands")?;
        }
        w.finish().await?;
    }
    {
        let sink = tx
            .copy_in(
                "COPY hand_players (club_id, hand_id, seat, player, started_ms) \
                 FROM STDIN (FORMAT binary)",
            )
            .await?;
        let types = [Type::TEXT, Type::TEXT, Type::INT2, Type::TEXT, Type::INT8];
        let mut w = pin!(BinaryCopyInWriter::new(sink, &types));
        for h in hands {
            let club = club_id(h.club);
            for (seat, p) in (0i16..).zip(&h.players) {
                let row: [&(dyn ToSql + Sync); 5] = [&club, &h.hand_id, &seat, p, &h.started_ms];
                w.as_mut().write(&row).await.context("COPY hand_players")?;
            }
        }
        w.finish().await?;
    }
    tx.commit().await?;
    println!(
        "  COPY hands + hand_players: {} hands in {:.1} s",
        hands.len(),
        t0.elapsed().as_secs_f64()
    );
    Ok(())
}

async fn load_events(
    client: &mut tokio_postgres::Client,
    hands: &[GenHand],
    templates: &[Template],
    chunk: usize,
) -> anyhow::Result<()> {
    let t0 = Instant::now();
    let chunk = chunk.max(1_000);
    let types = [
        Type::TEXT,
        Type::TEXT,
        Type::INT8,
        Type::TEXT,
        Type::TEXT,
        Type::TEXT,
        Type::JSONB,
        Type::INT8,
    ];
    let log_types = [Type::TEXT, Type::INT8, Type::TEXT, Type::INT8, Type::TEXT];
    let mut i = 0usize;
    let mut total = 0usize;
    let mut last_report = Instant::now();
    while i < hands.len() {
        let tx = client.transaction().await?;
        let sink = tx
            .copy_in(
                "COPY events (club_id, hand_id, seq, kind, hash, prev_hash, record, created_ms) \
                 FROM STDIN (FORMAT binary)",
            )
            .await?;
        let mut w = pin!(BinaryCopyInWriter::new(sink, &types));
        let mut in_chunk = 0usize;
        // The events' places in their club's order, written after them (club_log).
        let mut log_rows: Vec<(String, i64, String, i64, String)> = Vec::new();
        while i < hands.len() && in_chunk < chunk {
            let h = &hands[i];
            i += 1;
            let club = club_id(h.club);
            let t = &templates[h.template];
            let span = h.ended_ms.unwrap_or(h.started_ms + 60_000) - h.started_ms;
            let n = i64::try_from(h.events)?;
            for (k, ev) in t.events.iter().take(h.events).enumerate() {
                let seq = i64::try_from(k)?;
                let time = h.started_ms + span * seq / n.max(1);
                let mut record = ev.record.clone();
                if let Some(e) = record.get_mut("event") {
                    e["hand"] = Value::String(h.hand_id.clone());
                    e["time_ms"] = Value::from(time);
                }
                log_rows.push((
                    club.clone(),
                    h.first_gid + seq,
                    h.hand_id.clone(),
                    seq,
                    ev.hash.clone(),
                ));
                let row: [&(dyn ToSql + Sync); 8] = [
                    &club,
                    &h.hand_id,
                    &seq,
                    &ev.kind,
                    &ev.hash,
                    &ev.prev_hash,
                    &record,
                    &time,
                ];
                w.as_mut().write(&row).await.context("COPY events")?;
                in_chunk += 1;
            }
        }
        w.finish().await?;
        let sink = tx
            .copy_in("COPY club_log (club_id, gid, hand_id, seq, hash) FROM STDIN (FORMAT binary)")
            .await?;
        let mut w = pin!(BinaryCopyInWriter::new(sink, &log_types));
        for (club, gid, hand, seq, hash) in &log_rows {
            let row: [&(dyn ToSql + Sync); 5] = [club, gid, hand, seq, hash];
            w.as_mut().write(&row).await.context("COPY club_log")?;
        }
        w.finish().await?;
        tx.commit().await?;
        total += in_chunk;
        if last_report.elapsed() > Duration::from_secs(10) {
            println!(
                "  COPY events: {total} so far ({:.0}/s)",
                total as f64 / t0.elapsed().as_secs_f64().max(1e-9)
            );
            last_report = Instant::now();
        }
    }
    println!(
        "  COPY events: {total} in {:.1} s, transactions of ~{chunk}",
        t0.elapsed().as_secs_f64()
    );
    Ok(())
}
