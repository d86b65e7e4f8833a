//! A table's player: plays hands through the API with random legal actions, records
//! what was acknowledged and what was in flight.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use anyhow::Context as _;
use rand_chacha::rand_core::RngCore;
use rand_chacha::ChaCha8Rng;
use replayer::engine::GameId;
use replayer::games::registry;
use serde_json::{json, Value};

use super::api::{Api, Lost, Reply};
use super::{random_hex, By, Inflight, LineLog, TableInfo};

/// Most steps (one write each, about) a hand may take before the player gives up on it.
const MAX_HAND_STEPS: usize = 5_000;
/// Most unexpected answers a table may get before its driver stops playing it.
const MAX_TABLE_ERRORS: u64 = 20;

/// Counts shared by every table's player.
#[derive(Default)]
pub(super) struct Counts {
    pub(super) hands_started: AtomicU64,
    pub(super) hands_finished: AtomicU64,
    pub(super) acked_writes: AtomicU64,
    pub(super) acked_events: AtomicU64,
    pub(super) in_flight: AtomicU64,
    pub(super) unexpected: AtomicU64,
}

impl Counts {
    pub(super) fn add(c: &AtomicU64, n: u64) {
        c.fetch_add(n, Ordering::Relaxed);
    }

    pub(super) fn get(c: &AtomicU64) -> u64 {
        c.load(Ordering::Relaxed)
    }
}

/// A running hand as the player follows it.
#[derive(Debug, Clone)]
pub(super) struct HandState {
    pub(super) hand_id: String,
    pub(super) next_seq: u64,
    pub(super) status: String,
    pub(super) to_act: Value,
}

impl HandState {
    /// From a hand start, a write's answer or `GET /v1/hands/{id}`.
    pub(super) fn from_body(b: &Value) -> anyhow::Result<HandState> {
        Ok(HandState {
            hand_id: b["hand_id"].as_str().context("hand_id")?.to_owned(),
            next_seq: b["next_seq"].as_u64().context("next_seq")?,
            status: b["status"].as_str().context("status")?.to_owned(),
            to_act: b["to_act"].clone(),
        })
    }

    fn running(&self) -> bool {
        self.status == "in_progress"
    }
}

/// Why a player stopped.
#[derive(Debug)]
pub(super) enum Stop {
    /// The service went away (the write in flight, if any, is recorded).
    Gone,
    /// Something went wrong that is not a crash.
    Failed(String),
}

impl From<anyhow::Error> for Stop {
    fn from(e: anyhow::Error) -> Self {
        Stop::Failed(format!("{e:#}"))
    }
}

/// One table's player: plays hands with random legal actions, the way
/// `tests/e2e/play.rs` does, through the service's API only.
pub(super) struct Player {
    pub(super) api: Api,
    pub(super) admin: String,
    pub(super) table: TableInfo,
    pub(super) game: GameId,
    pub(super) rng: ChaCha8Rng,
    pub(super) counts: Arc<Counts>,
    /// Where acknowledged events go (the driver's log; the checker keeps none).
    pub(super) acked: Option<Arc<LineLog>>,
    /// Where writes in flight go (the driver only).
    pub(super) inflight: Option<Arc<LineLog>>,
    /// Requests sent with an idempotency key, for unique keys.
    pub(super) key_no: u64,
    /// Unexpected answers at this table.
    pub(super) errors: u64,
}

/// What a write came to.
enum Wrote {
    Ok(Value),
    Refused(Reply),
}

impl Player {
    fn token(&self, by: By) -> &str {
        match by {
            By::Admin => &self.admin,
            By::Seat(s) => self.table.tokens.get(s).map_or("", String::as_str),
        }
    }

    fn unexpected(&mut self, what: &str) -> Result<(), Stop> {
        self.errors += 1;
        Counts::add(&self.counts.unexpected, 1);
        eprintln!("[crash] table {}: unexpected: {what}", self.table.table_id);
        if self.errors >= MAX_TABLE_ERRORS {
            return Err(Stop::Failed(format!(
                "table {}: {} unexpected answers, last: {what}",
                self.table.table_id, self.errors
            )));
        }
        Ok(())
    }

    /// A POST. A 2xx is acknowledged: its events go to the log. No answer: the write is
    /// recorded as in flight (when the service is gone) and the player stops.
    async fn write(
        &mut self,
        path: &str,
        by: By,
        body: Value,
        hand: Option<&HandState>,
    ) -> Result<Wrote, Stop> {
        let key = if self.table.keyed {
            self.key_no += 1;
            Some(format!(
                "crash-{}-{}-{}",
                self.table.table_id,
                self.key_no,
                random_hex(&mut self.rng, 4)
            ))
        } else {
            None
        };
        let token = self.token(by).to_owned();
        let res = self
            .api
            .call(
                reqwest::Method::POST,
                path,
                Some(&token),
                Some(&body),
                key.as_deref(),
            )
            .await;
        match res {
            Ok(r) if r.ok() => {
                self.acknowledge(&r.body)?;
                Ok(Wrote::Ok(r.body))
            }
            Ok(r) => Ok(Wrote::Refused(r)),
            Err(lost) => {
                if self.api.alive().await {
                    // Not a crash: report it; the caller resynchronizes.
                    self.unexpected(&format!(
                        "POST {path}: no answer but the service runs: {lost}"
                    ))?;
                    return Err(Stop::Failed(format!("POST {path}: {lost}")));
                }
                if let (Lost::NoAnswer(_), Some(log)) = (&lost, &self.inflight) {
                    let rec = Inflight {
                        table_id: self.table.table_id.clone(),
                        hand_id: hand.map(|h| h.hand_id.clone()),
                        expected_seq: hand.map(|h| h.next_seq),
                        path: path.to_owned(),
                        by,
                        body,
                        idempotency_key: key,
                    };
                    log.line(&serde_json::to_string(&rec).map_err(anyhow::Error::from)?)?;
                    Counts::add(&self.counts.in_flight, 1);
                }
                Err(Stop::Gone)
            }
        }
    }

    /// Records an acknowledged answer's events.
    fn acknowledge(&self, body: &Value) -> anyhow::Result<()> {
        let hand = body["hand_id"].as_str().unwrap_or("");
        let events = body["events"].as_array().map_or(&[][..], Vec::as_slice);
        for r in events {
            let seq = r["event"]["seq"].as_u64().context("an event without seq")?;
            let hash = r["hash"].as_str().context("an event without hash")?;
            if let Some(log) = &self.acked {
                log.line(&format!("{hand} {seq} {hash}"))?;
            }
        }
        Counts::add(&self.counts.acked_writes, 1);
        Counts::add(&self.counts.acked_events, events.len() as u64);
        Ok(())
    }

    /// A read during play. No answer: the service is gone.
    async fn read(&mut self, path: &str, by: By) -> Result<Value, Stop> {
        let token = self.token(by).to_owned();
        match self.api.get(path, &token).await {
            Ok(r) if r.ok() => Ok(r.body),
            Ok(r) => Err(Stop::Failed(format!("GET {path}: {}", r.brief()))),
            Err(_) if !self.api.alive().await => Err(Stop::Gone),
            Err(e) => Err(Stop::Failed(format!("GET {path}: {e}"))),
        }
    }

    /// The hand as the admin sees it now.
    pub(super) async fn reload(&mut self, hand_id: &str) -> Result<HandState, Stop> {
        let b = self
            .read(&format!("/v1/hands/{hand_id}"), By::Admin)
            .await?;
        Ok(HandState::from_body(&b)?)
    }

    /// Starts the table's next hand. `None` when the table's match is over.
    pub(super) async fn start_hand(&mut self) -> Result<Option<HandState>, Stop> {
        let path = format!("/v1/tables/{}/hands", self.table.table_id);
        match self.write(&path, By::Admin, json!({}), None).await? {
            Wrote::Ok(b) => {
                Counts::add(&self.counts.hands_started, 1);
                Ok(Some(HandState::from_body(&b)?))
            }
            Wrote::Refused(r) if r.code() == "match_over" => Ok(None),
            Wrote::Refused(r) => Err(Stop::Failed(format!("start hand: {}", r.brief()))),
        }
    }

    /// One step of a running hand: the seats' client seeds (and the admin's deal if some
    /// seat is not asked) when a shuffle is pending, else one action of a seat to act.
    async fn step(&mut self, h: &mut HandState) -> Result<(), Stop> {
        let hand_id = h.hand_id.clone();
        if !h.to_act["shuffle_pending"].is_null() {
            if !self.table.client_entropy {
                // Without client entropy the service shuffles in the write that needs it:
                // a hand left waiting for a shuffle was cut between two of its commits.
                self.unexpected(&format!(
                    "hand {hand_id} (seq {}) waits for a shuffle on a table without client \
                     entropy: {}",
                    h.next_seq, h.to_act
                ))?;
            }
            let seats = if self.table.client_entropy {
                self.table.tokens.len()
            } else {
                0
            };
            for seat in 0..seats {
                let seed = random_hex(&mut self.rng, 16);
                let body = json!({"seed": seed, "expected_seq": h.next_seq});
                match self
                    .write(
                        &format!("/v1/hands/{hand_id}/entropy"),
                        By::Seat(seat),
                        body,
                        Some(h),
                    )
                    .await?
                {
                    Wrote::Ok(b) => *h = HandState::from_body(&b)?,
                    Wrote::Refused(r)
                        if matches!(r.code(), "already_contributed" | "not_asked") => {}
                    Wrote::Refused(r) => {
                        self.unexpected(&format!("entropy of seat {seat}: {}", r.brief()))?;
                        *h = self.reload(&hand_id).await?;
                    }
                }
                if h.to_act["shuffle_pending"].is_null() || !h.running() {
                    return Ok(());
                }
            }
            let body = json!({"expected_seq": h.next_seq});
            match self
                .write(
                    &format!("/v1/hands/{hand_id}/deal"),
                    By::Admin,
                    body,
                    Some(h),
                )
                .await?
            {
                Wrote::Ok(b) => *h = HandState::from_body(&b)?,
                Wrote::Refused(r) => {
                    self.unexpected(&format!("deal: {}", r.brief()))?;
                    *h = self.reload(&hand_id).await?;
                }
            }
            return Ok(());
        }
        let by = h.to_act["actors"]
            .as_array()
            .and_then(|a| a.iter().find_map(|x| x["seat"].as_u64()))
            .and_then(|s| usize::try_from(s).ok())
            .map_or(By::Admin, By::Seat);
        let legal = self
            .read(&format!("/v1/hands/{hand_id}/legal-actions"), by)
            .await?;
        let seq = legal["next_seq"].as_u64().context("next_seq")?;
        let families = legal["legal_actions"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        if families.is_empty() {
            self.unexpected(&format!("{by:?} to act has no legal action: {legal}"))?;
            *h = self.reload(&hand_id).await?;
            return Ok(());
        }
        let action = self.choose(&families)?;
        let body = json!({"action": action, "expected_seq": seq});
        h.next_seq = seq;
        match self
            .write(&format!("/v1/hands/{hand_id}/actions"), by, body, Some(h))
            .await?
        {
            Wrote::Ok(b) => *h = HandState::from_body(&b)?,
            Wrote::Refused(r) => {
                self.unexpected(&format!("{by:?} {action}: {}", r.brief()))?;
                *h = self.reload(&hand_id).await?;
            }
        }
        Ok(())
    }

    /// One concrete action of the legal families: in Bist-o-yek take the bank and
    /// announce khabar when offered (as the e2e suite does: turns end sooner); otherwise
    /// a random family, filled in by the engine's own sampler.
    fn choose(&mut self, families: &[Value]) -> anyhow::Result<Value> {
        if self.game == GameId::BistOYek {
            if let Some(a) = families
                .iter()
                .find(|l| l["type"] == "accept_bank" || l["type"] == "announce_khabar")
            {
                return Ok(a.clone());
            }
        }
        let i = usize::try_from(self.rng.next_u64() % families.len() as u64)?;
        let family = &families[i];
        registry(self.game)?
            .sample_legal(family, &mut self.rng)
            .with_context(|| format!("not a {} family: {family}", self.game.as_str()))
    }

    /// Plays the hand to its end.
    pub(super) async fn play_out(&mut self, mut h: HandState) -> Result<HandState, Stop> {
        for _ in 0..MAX_HAND_STEPS {
            if !h.running() {
                Counts::add(&self.counts.hands_finished, 1);
                return Ok(h);
            }
            self.step(&mut h).await?;
        }
        Err(Stop::Failed(format!(
            "hand {} did not end in {MAX_HAND_STEPS} steps",
            h.hand_id
        )))
    }
}
