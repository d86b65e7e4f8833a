//! `crash check`: after the restart, nothing acknowledged lost, writes in flight resolved,
//! hands continue, bundles and match files verify, the club's order complete.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context as _};
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use replayer::engine::GameId;
use serde::Serialize;
use serde_json::Value;

use super::api::Api;
use super::play::{Counts, Player};
use super::{
    admin_key, club_id, read_lines, By, Common, DriverReport, Inflight, TableInfo, ACKED_FILE,
    CHECK_FILE, DRIVER_FILE, INFLIGHT_FILE, TABLES_FILE,
};
use crate::common::random_seed;

/// Page size of `GET /v1/hands/{id}/events` and of `GET /v1/hands`.
const EVENTS_PAGE: usize = 1000;
const HANDS_PAGE: usize = 200;

#[derive(clap::Args, Debug)]
pub(super) struct CheckArgs {
    #[command(flatten)]
    common: Common,
    /// The `replayer` binary.
    #[arg(long)]
    replayer: PathBuf,
    /// New hands played at each table after the hands in progress are finished.
    #[arg(long, default_value_t = 1)]
    new_hands: usize,
    /// Give up (and fail) after this many seconds.
    #[arg(long, default_value_t = 900)]
    max_secs: u64,
    /// The service's PostgreSQL database, read to check the club-wide order (the
    /// sequencer's work); without it the embedded store in `--data-dir` is read.
    #[arg(long)]
    database_url: Option<String>,
    /// The service's data folder (its embedded store `dealer.db`).
    #[arg(long)]
    data_dir: Option<PathBuf>,
}

/// What the checker found.
#[derive(Serialize, Debug, Default)]
struct CheckReport {
    tables: usize,
    acked_writes: u64,
    acked_events: usize,
    in_flight: usize,
    /// Writes in flight found committed (their events are in the log) / not.
    in_flight_committed: usize,
    in_flight_retried_replayed: usize,
    in_flight_retried_ran: usize,
    /// Acknowledged events found in the log with the same hash.
    checked: usize,
    /// Acknowledged events missing from the log or with another hash.
    lost: usize,
    hands_continued: usize,
    new_hands: usize,
    bundles_verified: usize,
    matches_verified: usize,
    /// Events of the club in the club-wide order (each once, gids without a gap).
    club_order_events: usize,
    unexpected_in_drive: u64,
    failures: Vec<String>,
    secs: f64,
}

pub(super) async fn check(a: CheckArgs) -> anyhow::Result<()> {
    let t0 = Instant::now();
    let deadline = t0 + Duration::from_secs(a.max_secs);
    let state = &a.common.state;
    let admin = admin_key(&a.common.club_file)?;
    let api = Api::new(&a.common.url)?;
    let tables: Vec<TableInfo> = read_lines(&state.join(TABLES_FILE))?
        .iter()
        .map(|l| serde_json::from_str(l))
        .collect::<Result<_, _>>()
        .context("tables.jsonl")?;
    let inflight: Vec<Inflight> = read_lines(&state.join(INFLIGHT_FILE))?
        .iter()
        .map(|l| serde_json::from_str(l))
        .collect::<Result<_, _>>()
        .context("inflight.jsonl")?;
    let driver: DriverReport = std::fs::read(state.join(DRIVER_FILE))
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_default();
    // hand -> seq -> hash, as acknowledged.
    let mut acked: BTreeMap<String, BTreeMap<u64, String>> = BTreeMap::new();
    let mut acked_events = 0;
    for line in read_lines(&state.join(ACKED_FILE))? {
        let mut f = line.split_whitespace();
        let (Some(hand), Some(seq), Some(hash)) = (f.next(), f.next(), f.next()) else {
            bail!("acked.log: a malformed line {line:?}");
        };
        acked
            .entry(hand.to_owned())
            .or_default()
            .insert(seq.parse()?, hash.to_owned());
        acked_events += 1;
    }
    let r = CheckReport {
        tables: tables.len(),
        acked_writes: driver.acked_writes,
        acked_events,
        in_flight: inflight.len(),
        unexpected_in_drive: driver.unexpected,
        ..CheckReport::default()
    };
    if !api.alive().await {
        bail!("the service at {} does not answer", a.common.url);
    }
    let mut c = Checker {
        api,
        admin,
        tables,
        acked,
        r,
    };
    c.acknowledged_in_log().await;
    c.in_flight(&inflight).await?;
    c.play_on(a.new_hands, deadline).await?;
    let sizes = c.verify_all(&a.replayer, state).await?;
    // Step 5: the club-wide order resumed: every event of the club has its place once, and
    //    the places run from 0 without a gap (the sequencer's queue survived the crash).
    if a.database_url.is_some() || a.data_dir.is_some() {
        let club = club_id(&a.common.club_file)?;
        match club_order(&a, &club, &sizes).await {
            Ok(n) => c.r.club_order_events = n,
            Err(e) => c.r.failures.push(format!("club order: {e:#}")),
        }
    }
    let mut r = c.r;
    if driver.unexpected > 0 {
        r.failures.push(format!(
            "{} unexpected answers during the drive (see its log)",
            driver.unexpected
        ));
    }
    r.secs = t0.elapsed().as_secs_f64();
    for f in &r.failures {
        eprintln!("[crash] FAIL {f}");
    }
    std::fs::write(state.join(CHECK_FILE), serde_json::to_vec_pretty(&r)?)?;
    println!(
        "tables {}, acknowledged {} writes / {} events, in flight at kill {} (committed {}; \
         sent again with their key: {} replayed, {} ran), checked {}, lost {}, hands continued \
         {}, new hands {}, bundles verified {}, match files verified {}, club order {} events, \
         failures {}, check {:.1} s",
        r.tables,
        r.acked_writes,
        r.acked_events,
        r.in_flight,
        r.in_flight_committed,
        r.in_flight_retried_replayed,
        r.in_flight_retried_ran,
        r.checked,
        r.lost,
        r.hands_continued,
        r.new_hands,
        r.bundles_verified,
        r.matches_verified,
        r.club_order_events,
        r.failures.len(),
        r.secs
    );
    if !r.failures.is_empty() {
        std::process::exit(1);
    }
    Ok(())
}

/// What the checks share: the service, the round's tables and acknowledged events, and
/// the report they fill in.
struct Checker {
    api: Api,
    admin: String,
    tables: Vec<TableInfo>,
    /// hand -> seq -> hash, as acknowledged.
    acked: BTreeMap<String, BTreeMap<u64, String>>,
    r: CheckReport,
}

impl Checker {
    /// Step 1: every acknowledged event is in its hand's log, with the same hash.
    async fn acknowledged_in_log(&mut self) {
        for (hand, want) in &self.acked {
            let log = match hand_log(&self.api, &self.admin, hand).await {
                Ok(l) => l,
                Err(e) => {
                    self.r.lost += want.len();
                    self.r
                        .failures
                        .push(format!("hand {hand}: its log cannot be read: {e:#}"));
                    continue;
                }
            };
            for (seq, hash) in want {
                match log.get(seq) {
                    Some(h) if h == hash => self.r.checked += 1,
                    Some(h) => {
                        self.r.lost += 1;
                        self.r.failures.push(format!(
                            "hand {hand} seq {seq}: acknowledged hash {hash}, the log has {h}"
                        ));
                    }
                    None => {
                        self.r.lost += 1;
                        self.r.failures.push(format!(
                            "hand {hand} seq {seq}: acknowledged, not in the log (log ends at {})",
                            log.len()
                        ));
                    }
                }
            }
        }
    }

    /// Step 2: writes in flight, committed or not; those with an idempotency key, sent
    /// again, get the recorded answer (with the events the log has) or run once.
    async fn in_flight(&mut self, inflight: &[Inflight]) -> anyhow::Result<()> {
        let by_table: HashMap<&str, &TableInfo> = self
            .tables
            .iter()
            .map(|t| (t.table_id.as_str(), t))
            .collect();
        for w in inflight {
            let Some(t) = by_table.get(w.table_id.as_str()) else {
                self.r.failures.push(format!(
                    "a write in flight at an unknown table {}",
                    w.table_id
                ));
                continue;
            };
            let committed = match (&w.hand_id, w.expected_seq) {
                (Some(hand), Some(seq)) => {
                    let log = hand_log(&self.api, &self.admin, hand).await?;
                    log.len() as u64 > seq
                }
                _ => {
                    // A hand start: committed if the table has a hand nobody acknowledged.
                    let hands = table_hands(&self.api, &self.admin, &t.table_id).await?;
                    hands
                        .iter()
                        .any(|h| !self.acked.contains_key(h["hand_id"].as_str().unwrap_or("")))
                }
            };
            if committed {
                self.r.in_flight_committed += 1;
            }
            let Some(key) = &w.idempotency_key else {
                continue;
            };
            let token = match w.by {
                By::Admin => self.admin.clone(),
                By::Seat(s) => t.tokens.get(s).cloned().unwrap_or_default(),
            };
            let again = self
                .api
                .call(
                    reqwest::Method::POST,
                    &w.path,
                    Some(&token),
                    Some(&w.body),
                    Some(key),
                )
                .await;
            match again {
                Ok(res) if res.ok() => {
                    if res.replayed != committed {
                        self.r.failures.push(format!(
                            "{} {}: committed {committed} but the retry was {}",
                            w.path,
                            key,
                            if res.replayed {
                                "replayed"
                            } else {
                                "run again"
                            }
                        ));
                    }
                    if res.replayed {
                        self.r.in_flight_retried_replayed += 1;
                        // The recorded answer's events are the log's.
                        let hand = res.body["hand_id"].as_str().unwrap_or("").to_owned();
                        let log = hand_log(&self.api, &self.admin, &hand).await?;
                        for ev in res.body["events"].as_array().map_or(&[][..], Vec::as_slice) {
                            let seq = ev["event"]["seq"].as_u64().unwrap_or(u64::MAX);
                            if log.get(&seq).map(String::as_str) != ev["hash"].as_str() {
                                self.r.failures.push(format!(
                                    "{}: the replayed answer's event {seq} is not the log's",
                                    w.path
                                ));
                            }
                        }
                    } else {
                        self.r.in_flight_retried_ran += 1;
                    }
                }
                Ok(res) => self.r.failures.push(format!(
                    "{} sent again with its key {key}: {}",
                    w.path,
                    res.brief()
                )),
                Err(e) => bail!("{} sent again: {e}", w.path),
            }
        }
        Ok(())
    }

    /// Step 3: every hand in progress plays on to its end; then new hands at every table.
    async fn play_on(&mut self, new_hands: usize, deadline: Instant) -> anyhow::Result<()> {
        let counts = Arc::new(Counts::default());
        let mut rng = ChaCha8Rng::from_seed(random_seed());
        for t in &self.tables {
            if Instant::now() > deadline {
                self.r.failures.push("out of time".into());
                break;
            }
            let game: GameId = t.game.parse().map_err(|e| anyhow::anyhow!("{e}"))?;
            let mut p = Player {
                api: self.api.clone(),
                admin: self.admin.clone(),
                table: t.clone(),
                game,
                rng: ChaCha8Rng::seed_from_u64(rng.next_u64()),
                counts: counts.clone(),
                acked: None,
                inflight: None,
                key_no: 0,
                errors: 0,
            };
            let info = self
                .api
                .read(&format!("/v1/tables/{}", t.table_id), &self.admin)
                .await
                .with_context(|| format!("table {} after the restart", t.table_id))?;
            if let Some(hand) = info["current_hand"].as_str() {
                let res = match p.reload(hand).await {
                    Ok(h) => p.play_out(h).await,
                    Err(e) => Err(e),
                };
                match res {
                    Ok(_) => self.r.hands_continued += 1,
                    Err(e) => self
                        .r
                        .failures
                        .push(format!("hand {hand} cannot continue: {e:?}")),
                }
            }
            for _ in 0..new_hands {
                let res = match p.start_hand().await {
                    Ok(Some(h)) => p.play_out(h).await.map(Some),
                    Ok(None) => Ok(None),
                    Err(e) => Err(e),
                };
                match res {
                    Ok(Some(_)) => self.r.new_hands += 1,
                    Ok(None) => break,
                    Err(e) => {
                        self.r.failures.push(format!(
                            "table {}: a new hand cannot be played: {e:?}",
                            t.table_id
                        ));
                        break;
                    }
                }
            }
            if p.errors > 0 {
                self.r.failures.push(format!(
                    "table {}: {} unexpected answers while playing on",
                    t.table_id, p.errors
                ));
            }
        }
        Ok(())
    }

    /// Step 4: every hand of every table is finished, and its bundle verifies; so does
    /// each table's match file. Returns each hand's number of events.
    async fn verify_all(
        &mut self,
        replayer: &Path,
        state: &Path,
    ) -> anyhow::Result<HashMap<String, u64>> {
        let keys = self.api.read("/v1/keys", &self.admin).await?;
        let current = keys["current"].as_str().context("current key")?;
        let key = keys["keys"]
            .as_array()
            .and_then(|ks| ks.iter().find(|k| k["key_id"] == current))
            .and_then(|k| k["public_key"].as_str())
            .context("the current key is listed")?
            .to_owned();
        let dir = state.join("bundles");
        std::fs::create_dir_all(&dir)?;
        let mut seen = HashSet::new();
        // hand -> its number of events, from the bundles.
        let mut sizes: HashMap<String, u64> = HashMap::new();
        for t in &self.tables {
            for h in table_hands(&self.api, &self.admin, &t.table_id).await? {
                let hand = h["hand_id"].as_str().context("hand_id")?.to_owned();
                seen.insert(hand.clone());
                if h["status"] == "in_progress" {
                    self.r
                        .failures
                        .push(format!("hand {hand} is still in progress after the check"));
                    continue;
                }
                let bundle = self
                    .api
                    .read(&format!("/v1/hands/{hand}/bundle"), &self.admin)
                    .await?;
                let n = bundle["records"].as_array().map_or(0, Vec::len);
                sizes.insert(hand.clone(), u64::try_from(n)?);
                match verify(replayer, &dir, &hand, &bundle, &key).await? {
                    None => self.r.bundles_verified += 1,
                    Some(why) => self
                        .r
                        .failures
                        .push(format!("bundle of hand {hand}: {why}")),
                }
            }
            let m = self
                .api
                .read(&format!("/v1/tables/{}/bundle", t.table_id), &self.admin)
                .await?;
            if m["hands"].as_array().is_some_and(|h| !h.is_empty()) {
                match verify(replayer, &dir, &t.table_id, &m, &key).await? {
                    None => self.r.matches_verified += 1,
                    Some(why) => self
                        .r
                        .failures
                        .push(format!("match file of table {}: {why}", t.table_id)),
                }
            }
        }
        for hand in self.acked.keys() {
            if !seen.contains(hand) {
                self.r
                    .failures
                    .push(format!("hand {hand} was acknowledged but is not listed"));
            }
        }
        Ok(sizes)
    }
}

/// A hand's log: seq -> hash, every page.
async fn hand_log(api: &Api, admin: &str, hand: &str) -> anyhow::Result<BTreeMap<u64, String>> {
    let mut out = BTreeMap::new();
    let mut from = 0u64;
    for _ in 0..10_000 {
        let page = api
            .read(
                &format!("/v1/hands/{hand}/events?from={from}&limit={EVENTS_PAGE}"),
                admin,
            )
            .await?;
        for r in page["events"].as_array().map_or(&[][..], Vec::as_slice) {
            let seq = r["event"]["seq"].as_u64().context("seq")?;
            let hash = r["hash"].as_str().context("hash")?;
            out.insert(seq, hash.to_owned());
        }
        match page["next_from"].as_u64() {
            Some(n) if n > from => from = n,
            _ => return Ok(out),
        }
    }
    bail!("hand {hand}: too many pages of events")
}

/// Every hand of a table, newest first.
async fn table_hands(api: &Api, admin: &str, table: &str) -> anyhow::Result<Vec<Value>> {
    let mut out = Vec::new();
    let mut cursor: Option<String> = None;
    for _ in 0..10_000 {
        let mut path = format!("/v1/hands?table_id={table}&limit={HANDS_PAGE}");
        if let Some(c) = &cursor {
            path.push_str("&cursor=");
            path.push_str(c);
        }
        let page = api.read(&path, admin).await?;
        out.extend(page["hands"].as_array().cloned().unwrap_or_default());
        match page["next_cursor"].as_str() {
            Some(c) => cursor = Some(c.to_owned()),
            None => return Ok(out),
        }
    }
    bail!("table {table}: too many pages of hands")
}

/// `replayer verify FILE --key KEY`: `None` when it exits 0, else why not.
async fn verify(
    replayer: &Path,
    dir: &Path,
    name: &str,
    doc: &Value,
    key: &str,
) -> anyhow::Result<Option<String>> {
    let path = dir.join(format!("{name}.json"));
    std::fs::write(&path, serde_json::to_vec(doc)?)?;
    let (bin, key) = (replayer.to_path_buf(), key.to_owned());
    let p = path.clone();
    let out = tokio::task::spawn_blocking(move || {
        std::process::Command::new(bin)
            .arg("verify")
            .arg(&p)
            .args(["--key", &key])
            .output()
    })
    .await?
    .with_context(|| format!("running {}", replayer.display()))?;
    if out.status.success() {
        std::fs::remove_file(&path)?;
        return Ok(None);
    }
    Ok(Some(format!(
        "replayer verify exit {:?} (kept {}): {} {}",
        out.status.code(),
        path.display(),
        String::from_utf8_lossy(&out.stdout).trim(),
        String::from_utf8_lossy(&out.stderr).trim()
    )))
}

/// Reads the club-wide order from the store itself (no endpoint serves it): every event
/// of every hand (`sizes`) must have exactly one place, the places `0..n` without a gap,
/// each hand's events in `seq` order. The service's sequencer orders PostgreSQL's events
/// every 500 ms, so this waits up to 15 s for it. Returns n.
async fn club_order(
    a: &CheckArgs,
    club: &str,
    sizes: &HashMap<String, u64>,
) -> anyhow::Result<usize> {
    use services::store::{PgStore, SqliteStore, Store};
    let store: Box<dyn Store> = match (&a.database_url, &a.data_dir) {
        (Some(url), _) => Box::new(PgStore::connect(url, 2)?),
        (None, Some(dir)) => Box::new(SqliteStore::open(dir.join("dealer.db"))?),
        (None, None) => bail!("no store named"),
    };
    let want: u64 = sizes.values().sum();
    let mut last = 0;
    for _ in 0..30 {
        let mut order = Vec::new();
        let mut from = 0i64;
        for _ in 0..100_000 {
            let page = store.list_club_events(club, from, 4096).await?;
            let Some(end) = page.last().and_then(|e| e.gid) else {
                break;
            };
            order.extend(page.into_iter().map(|e| (e.gid, e.hand_id, e.seq)));
            from = end + 1;
        }
        last = order.len();
        if u64::try_from(order.len())? < want {
            tokio::time::sleep(Duration::from_millis(500)).await;
            continue;
        }
        let mut next: HashMap<&str, i64> = HashMap::new();
        for (i, (gid, hand, seq)) in order.iter().enumerate() {
            if *gid != Some(i64::try_from(i)?) {
                bail!("place {i} holds gid {gid:?}: a gap or a repeat");
            }
            let n = next.entry(hand.as_str()).or_insert(0);
            if *seq != *n {
                bail!("gid {i}: hand {hand} seq {seq}, expected seq {n}");
            }
            *n += 1;
        }
        for (hand, size) in sizes {
            let got = next.get(hand.as_str()).copied().unwrap_or(0);
            if u64::try_from(got)? != *size {
                bail!("hand {hand}: {got} events in the club order, {size} in its bundle");
            }
        }
        if u64::try_from(order.len())? != want {
            bail!(
                "{} events in the club order, {want} in the bundles",
                order.len()
            );
        }
        return Ok(order.len());
    }
    bail!("after 15 s, {last} events in the club order of {want} in the bundles")
}
