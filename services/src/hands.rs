//! The hands domain: starting hands, driving each running hand's [`LiveHand`], appending
//! its signed records atomically, and reading hands back as each caller may see them.
//!
//! One `LiveHand` per running hand is kept in memory behind a tokio mutex, so requests on
//! one hand are serialized in this process. A change is made on a clone and swapped in only
//! after the store committed it; on any store error the clone is dropped, and on a
//! concurrency conflict the cached hand too (it is reloaded from the store on next use:
//! its records, and its server seeds and the openings of its private actions unsealed).
//! Across processes, the store's optimistic concurrency on the hand's next seq keeps
//! writers from forking a hand.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use actix_web::http::StatusCode;
use replayer::bundle::Bundle;
use replayer::dealer::{self, DealerError, HandOptions, HandParams, LiveHand, SeedSource};
use replayer::dispute::EntryRecord;
use replayer::engine::{Actor, GameId, SeatIndex, SetupError, ToAct, Viewer};
use replayer::games::registry;
use replayer::log::{Adjustment, Body, Hash, PlayerSig, PrevHand, PublicKey, Record, SeatInfo};
use replayer::seed_chain::SeedChainRef;
use replayer::shuffle::ClientSeed;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use crate::api::errors::{ApiError, ApiResult, Code};
use crate::auth::{random_id, Caller, Role};
use crate::idempotency::{IdemCtx, Reply};
use crate::store::{
    AppendRequest, EventRow, HandFilter, HandRow, HandStatus, HandUpdate, Quarantine,
    QuarantineRequest, RecordJson, Store, StoreError, TableUpdate,
};
use crate::{now_ms, Service};

pub(crate) mod continuity;
mod damage;
mod sealed;
mod steps;
#[cfg(test)]
mod tests;

pub use steps::{replay_steps, ReplayStep, ReplaySteps, STEPS_MAX};

pub(crate) use damage::Damage;

/// Most events read per store call.
const EVENT_PAGE: i64 = 1000;

/// A running hand as held in memory.
struct Loaded {
    hand: LiveHand,
    head: Hash,
    /// When its `hand_started` says it started (unix ms): what its row's `started_ms`
    /// must say.
    started_ms: u64,
}

type Slot = Arc<tokio::sync::Mutex<Option<Loaded>>>;

/// How long a running hand's row, once read from the store, stands in for another read
/// on the paths of play (an action, the legal actions). Within it, a change made by
/// another process is seen as follows: a write here that names another `seq` than the
/// cached row reads the row; one that fails on the cached row, having written nothing
/// (a seq conflict in the store, or an action the stale copy refuses), is tried once
/// more on the row as stored ([`mutate`]); the legal actions may lag by this long; a
/// quarantine there refuses this process's writes at most this long after. The appends
/// of this process move the cached row along but never make it fresher: only a read
/// does, or the hand's start, whose row is as written. (Each read is a round trip and most of the database's work per action on the
/// HTTP path: ops/README.md, fifth round.)
const HAND_ROW_TTL: Duration = Duration::from_secs(1);

/// The in-memory running hands, one mutex each, and the rows of the running hands as
/// last read (see [`HAND_ROW_TTL`]).
#[derive(Default)]
pub struct LiveHands {
    map: Mutex<HashMap<String, Slot>>,
    rows: Mutex<HashMap<String, (HandRow, Instant)>>,
}

impl std::fmt::Debug for LiveHands {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never the hands: they hold hidden cards and seeds.
        f.write_str("LiveHands")
    }
}

fn cache_key(club: &str, hand: &str) -> String {
    format!("{club}\u{0}{hand}")
}

impl LiveHands {
    fn slot(&self, club: &str, hand: &str) -> Slot {
        let mut map = self.map.lock().unwrap_or_else(|p| p.into_inner());
        map.entry(cache_key(club, hand)).or_default().clone()
    }

    fn forget(&self, club: &str, hand: &str) {
        let mut map = self.map.lock().unwrap_or_else(|p| p.into_inner());
        map.remove(&cache_key(club, hand));
        drop(map);
        self.forget_row(club, hand);
    }

    /// A running hand's row, read from the store less than [`HAND_ROW_TTL`] ago.
    fn fresh_row(&self, club: &str, hand: &str) -> Option<HandRow> {
        let rows = self.rows.lock().unwrap_or_else(|p| p.into_inner());
        rows.get(&cache_key(club, hand))
            .filter(|(_, read)| read.elapsed() < HAND_ROW_TTL)
            .map(|(row, _)| row.clone())
    }

    /// Keeps a running hand's row just read from the store (or just created).
    fn read_row(&self, row: &HandRow) {
        let mut rows = self.rows.lock().unwrap_or_else(|p| p.into_inner());
        if row.status != HandStatus::InProgress {
            rows.remove(&cache_key(&row.club_id, &row.hand_id));
            return;
        }
        // Rows of hands that ended elsewhere are dropped when stale, not kept for ever.
        if rows.len() >= 4 * 1024 {
            rows.retain(|_, (_, read)| read.elapsed() < HAND_ROW_TTL);
        }
        rows.insert(
            cache_key(&row.club_id, &row.hand_id),
            (row.clone(), Instant::now()),
        );
    }

    /// This process appended to a running hand: its cached row moves on to `next_seq`,
    /// no fresher than it was.
    fn appended(&self, club: &str, hand: &str, next_seq: i64) {
        let mut rows = self.rows.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((row, _)) = rows.get_mut(&cache_key(club, hand)) {
            row.next_seq = row.next_seq.max(next_seq);
        }
    }

    fn forget_row(&self, club: &str, hand: &str) {
        let mut rows = self.rows.lock().unwrap_or_else(|p| p.into_inner());
        rows.remove(&cache_key(club, hand));
    }

    /// How many hands are held in memory.
    pub fn len(&self) -> usize {
        self.map.lock().map(|m| m.len()).unwrap_or(0)
    }

    /// Whether no hand is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

// ---------------------------------------------------------------------------------------
// Request and response shapes

/// Who the hand waits for. The cards of a pending shuffle are not listed (a restock
/// shuffles discards that may never have been shown): only their number.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct ToActView {
    /// Actors who may act now: `{"seat": n}` or `"service"`.
    #[schema(value_type = Vec<Object>)]
    pub actors: Vec<Actor>,
    /// A committed shuffle the hand waits for (`POST …/deal`, or every seat's entropy).
    pub shuffle_pending: Option<PendingShuffle>,
}

/// A pending shuffle.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct PendingShuffle {
    /// Why the engine asks for it (`new_turn`, `restock`, …).
    pub reason: String,
    /// How many cards it will order.
    pub cards: usize,
}

impl From<ToAct> for ToActView {
    fn from(t: ToAct) -> Self {
        ToActView {
            actors: t.actors,
            shuffle_pending: t.shuffle.map(|s| PendingShuffle {
                reason: s.reason,
                cards: s.cards.len(),
            }),
        }
    }
}

/// `POST /v1/tables/{table_id}/hands` → 201.
#[derive(Debug, Serialize, ToSchema)]
pub struct HandStarted {
    /// The new hand.
    pub hand_id: String,
    /// Its table.
    pub table_id: String,
    /// Its number in the table's match, from 1.
    pub hand_no: u64,
    /// The game.
    pub game: String,
    /// `in_progress`.
    pub status: String,
    /// The seq the next event will have.
    pub next_seq: u64,
    /// Hash of the last event.
    pub head: String,
    /// Commitment to the server seed of shuffle 0.
    pub commitment: String,
    /// Whether seats add client seeds before each shuffle.
    pub client_entropy: bool,
    /// The seed chain the hand is dealt from: the table's anchor and length, and the
    /// hand's position (its first event says the same).
    #[schema(value_type = Option<Object>)]
    pub seed_chain: Option<SeedChainRef>,
    /// Whether every action by a seat must carry its player's signature.
    pub signatures_required: bool,
    /// The records appended (signed events).
    #[schema(value_type = Vec<Object>)]
    pub events: Vec<Record>,
    /// Who the hand waits for.
    pub to_act: ToActView,
}

/// The answer to entropy, deal, actions and abandon: what was appended.
#[derive(Debug, Serialize, ToSchema)]
pub struct Appended {
    /// The hand.
    pub hand_id: String,
    /// `in_progress`, `completed` or `abandoned`.
    pub status: String,
    /// The seq the next event will have.
    pub next_seq: u64,
    /// Hash of the last event.
    pub head: String,
    /// The records appended by this request, in order.
    #[schema(value_type = Vec<Object>)]
    pub events: Vec<Record>,
    /// Who the hand waits for now.
    pub to_act: ToActView,
    /// The caller's own legal actions now, as `GET …/legal-actions` would answer them
    /// (a seat's for a seat token, the service's for the admin key): empty when the
    /// caller may not act. A seat that acts again (a hit after a hit) needs no second
    /// request to know what it may do.
    #[schema(value_type = Vec<Object>)]
    pub legal_actions: Vec<Value>,
    /// The outcome, once completed.
    #[schema(value_type = Option<Object>)]
    pub outcome: Option<Value>,
}

/// `POST /v1/hands/{hand_id}/entropy`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EntropyRequest {
    /// 1 to 64 bytes, as hex.
    pub seed: String,
    /// If given, the hand's next seq must be this.
    pub expected_seq: Option<u64>,
}

/// `POST /v1/hands/{hand_id}/deal` (the body may be empty).
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DealRequest {
    /// If given, the hand's next seq must be this.
    pub expected_seq: Option<u64>,
}

/// `POST /v1/hands/{hand_id}/actions`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ActionRequest {
    /// The game's action, e.g. `{"type": "bet", "amount": 100}`.
    #[schema(value_type = Object)]
    pub action: Value,
    /// If given, the hand's next seq must be this. Required with `player_sig`.
    pub expected_seq: Option<u64>,
    /// The player's own Ed25519 signature over `action_message(hand, expected_seq, actor,
    /// action)` (docs/EVENT-LOG.md §9): `{"key_id": "ed25519:…", "sig": "<128 hex>"}`.
    #[schema(value_type = Option<Object>)]
    pub player_sig: Option<PlayerSig>,
}

/// `POST /v1/hands/{hand_id}/abandon`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AbandonRequest {
    /// Why (recorded in the log; at most 500 characters are kept).
    pub reason: String,
    /// If given, the hand's next seq must be this.
    pub expected_seq: Option<u64>,
}

/// A client seed given for a shuffle.
#[derive(Debug, Serialize, ToSchema)]
pub struct ClientSeedView {
    /// The shuffle.
    pub shuffle: u32,
    /// The seat.
    pub seat: u8,
    /// The seed, hex.
    pub seed: String,
}

/// `GET /v1/hands/{hand_id}`: the hand as the caller may see it.
#[derive(Debug, Serialize, ToSchema)]
pub struct HandDetail {
    /// The hand.
    pub hand_id: String,
    /// Its table.
    pub table_id: String,
    /// Its number in the match.
    pub hand_no: i64,
    /// The game.
    pub game: String,
    /// `in_progress`, `completed` or `abandoned`.
    pub status: String,
    /// The seq the next event will have.
    pub next_seq: u64,
    /// Hash of the last event.
    pub head: String,
    /// Players in seat order.
    pub players: Vec<String>,
    /// Unix ms.
    pub started_ms: i64,
    /// Unix ms, once over.
    pub ended_ms: Option<i64>,
    /// Commitments to every server seed so far, by shuffle.
    pub commitments: Vec<String>,
    /// Client seeds given so far.
    pub client_seeds: Vec<ClientSeedView>,
    /// The shuffle whose client seeds are being collected.
    pub next_shuffle: u32,
    /// Who the hand waits for.
    pub to_act: ToActView,
    /// `seat`, `public` or `all` (once the hand is over).
    pub viewer: String,
    /// The engine's view of the table for that viewer.
    #[schema(value_type = Object)]
    pub view: Value,
    /// The last action.
    #[schema(value_type = Option<Object>)]
    pub last_action: Option<Value>,
    /// The outcome, once completed.
    #[schema(value_type = Option<Object>)]
    pub outcome: Option<Value>,
    /// Why it was abandoned.
    pub abandon_reason: Option<String>,
}

/// `GET /v1/hands/{hand_id}/legal-actions`.
#[derive(Debug, Serialize, ToSchema)]
pub struct LegalActions {
    /// The hand.
    pub hand_id: String,
    /// The seq the next event will have (sign actions for it).
    pub next_seq: u64,
    /// The hand's head, the hash of its last event (sign actions after it).
    pub head: String,
    /// Whether every action by a seat must carry its player's signature.
    pub signatures_required: bool,
    /// Whose actions: `{"seat": n}` for a seat token, `"service"` for the admin.
    #[schema(value_type = Object)]
    pub actor: Option<Actor>,
    /// The game's legal actions (families such as `{"type": "bet", "min": 50, "max": 500}`).
    #[schema(value_type = Vec<Object>)]
    pub legal_actions: Vec<Value>,
    /// Who the hand waits for.
    pub to_act: ToActView,
}

/// `GET /v1/hands/{hand_id}/events`.
#[derive(Debug, Serialize, ToSchema)]
pub struct EventsPage {
    /// The hand.
    pub hand_id: String,
    /// The signed records, in seq order.
    #[schema(value_type = Vec<Object>)]
    pub events: Vec<RecordJson>,
    /// `from` for the next page, when there may be more.
    pub next_from: Option<i64>,
}

/// `GET /v1/hands/{hand_id}/replay?step=N`.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReplayView {
    /// The hand.
    pub hand_id: String,
    /// The event shown (its seq).
    pub step: u64,
    /// How many events the hand has now.
    pub events: u64,
    /// The record of event `step`.
    #[schema(value_type = Object)]
    pub event: RecordJson,
    /// The hand's status after that event.
    pub status: String,
    /// `seat`, `public` or `all`.
    pub viewer: String,
    /// The table after that event, as the caller may see it.
    #[schema(value_type = Object)]
    pub view: Value,
    /// Who the hand waited for after that event.
    pub to_act: ToActView,
    /// The last action up to that event.
    #[schema(value_type = Option<Object>)]
    pub last_action: Option<Value>,
}

/// Who quarantined a hand, when and why, and where its log failed then.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct QuarantineView {
    /// Why, as the club admin gave it.
    pub reason: String,
    /// When (unix ms).
    pub quarantined_ms: i64,
    /// The id of the admin key that quarantined it.
    pub by: String,
    /// The event at which the hand's stored log failed verification.
    pub seq: i64,
    /// The check that failed there (`hash`, `chain`, `sealed_seed`, …).
    pub rule: String,
}

impl From<&Quarantine> for QuarantineView {
    fn from(q: &Quarantine) -> Self {
        QuarantineView {
            reason: q.reason.clone(),
            quarantined_ms: q.quarantined_ms,
            by: q.by.clone(),
            seq: q.seq,
            rule: q.rule.clone(),
        }
    }
}

/// A quarantined hand, as `GET /v1/hands/{hand_id}` and the quarantine answer show it:
/// its row only. Its log failed verification, so nothing is rebuilt from it (no view, no
/// outcome); its events are still served as stored.
#[derive(Debug, Serialize, ToSchema)]
pub struct QuarantinedHand {
    /// The hand.
    pub hand_id: String,
    /// Its table.
    pub table_id: String,
    /// Its number in the match (no link of the match's chain any more).
    pub hand_no: i64,
    /// The game.
    pub game: String,
    /// `quarantined`.
    pub status: String,
    /// Players in seat order.
    pub players: Vec<String>,
    /// Unix ms.
    pub started_ms: i64,
    /// Unix ms: when it ended, or else when it was quarantined.
    pub ended_ms: Option<i64>,
    /// Who quarantined it, when and why.
    pub quarantine: QuarantineView,
}

/// `GET /v1/hands/{hand_id}`: a hand rebuilt from its log, or a quarantined hand.
#[derive(Debug, Serialize, ToSchema)]
#[serde(untagged)]
pub enum HandAnswer {
    /// A hand rebuilt from its log (`status` `in_progress`, `completed` or `abandoned`).
    Hand(HandDetail),
    /// A quarantined hand (`status` `quarantined`).
    Quarantined(QuarantinedHand),
}

/// `POST /v1/hands/{hand_id}/quarantine`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct QuarantineBody {
    /// Why: 1 to 500 characters, shown to everyone who may read the hand (the same rules
    /// as display names: no control, invisible or reordering characters).
    pub reason: String,
}

/// Longest quarantine reason, in characters.
pub const MAX_QUARANTINE_REASON: usize = 500;

// ---------------------------------------------------------------------------------------
// Conversions

fn store_status(s: dealer::HandStatus) -> HandStatus {
    match s {
        dealer::HandStatus::InProgress => HandStatus::InProgress,
        dealer::HandStatus::Completed => HandStatus::Completed,
        dealer::HandStatus::Abandoned => HandStatus::Abandoned,
    }
}

/// The log's own status of a hand in the store; `None` for a quarantined hand, whose log
/// is not to be trusted to say.
fn dealer_status(s: HandStatus) -> Option<dealer::HandStatus> {
    match s {
        HandStatus::InProgress => Some(dealer::HandStatus::InProgress),
        HandStatus::Completed => Some(dealer::HandStatus::Completed),
        HandStatus::Abandoned => Some(dealer::HandStatus::Abandoned),
        HandStatus::Quarantined => None,
    }
}

/// `409 hand_quarantined`, for anything but reading a quarantined hand's row and events.
fn quarantined_error(row: &HandRow) -> ApiError {
    let mut e = ApiError::new(
        Code::HandQuarantined,
        "the hand is quarantined: its stored log failed verification and the club admin set \
         it aside; GET /v1/hands/{hand_id} says who, when and why, and its events are still \
         served as stored",
    );
    if let Some(q) = &row.quarantine {
        e = e.with("seq", q.seq).with("rule", q.rule.clone());
    }
    e
}

fn u64_of(v: i64) -> u64 {
    u64::try_from(v).unwrap_or(0)
}

fn i64_of(v: u64) -> i64 {
    i64::try_from(v).unwrap_or(i64::MAX)
}

/// The API error for a refusal of the dealer.
pub fn dealer_error(e: DealerError) -> ApiError {
    match e {
        DealerError::Illegal(v) => ApiError::new(Code::IllegalAction, v.detail)
            .with("rule", v.rule)
            .with("section", v.section),
        DealerError::HandOver => ApiError::new(Code::HandOver, "the hand is over"),
        DealerError::EntropyOff => {
            ApiError::new(Code::EntropyOff, "this table does not take client seeds")
        }
        DealerError::AlreadyContributed(s) => ApiError::new(
            Code::AlreadyContributed,
            format!("{s} already gave a client seed for this shuffle"),
        ),
        DealerError::NotAsked(s) => ApiError::new(
            Code::NotAsked,
            format!("the pending shuffle asks {s} for no client seed (it is out of play)"),
        ),
        DealerError::NoShufflePending => ApiError::new(
            Code::NoShufflePending,
            "no shuffle is pending: the hand is not waiting for a deal",
        ),
        DealerError::BadPlayerSignature(m) => ApiError::new(Code::BadPlayerSignature, m),
        DealerError::PlayerSignatureRequired(s) => ApiError::new(
            Code::PlayerSignatureRequired,
            format!(
                "the table requires player signatures: sign the action of {s} for the hand's \
                 next seq and head (replayer sign-action) and send it as player_sig with \
                 expected_seq"
            ),
        ),
        DealerError::Setup(SetupError::MatchOver) => {
            ApiError::new(Code::MatchOver, "the table's match is over")
        }
        // Only input reaches the encoding checks: numbers that are not integers, nesting
        // too deep.
        DealerError::Log(e) => ApiError::new(Code::InvalidJson, e.to_string()),
        other => ApiError::internal(other),
    }
}

fn event_row(club: &str, r: &Record, now: i64) -> ApiResult<EventRow> {
    Ok(EventRow {
        club_id: club.to_string(),
        hand_id: r.event.hand.clone(),
        seq: i64_of(r.event.seq),
        gid: None,
        kind: r.event.body.kind().to_string(),
        hash: r.hash.to_hex(),
        prev_hash: r.event.prev.to_hex(),
        record: RecordJson::of(r).map_err(ApiError::internal)?,
        created_ms: now,
    })
}

/// A stored event as a signed record; one that does not read as one is damage.
fn stored_record(row: &EventRow) -> ApiResult<Record> {
    row.record.parse().map_err(|_| {
        ApiError::from(Damage::at(
            u64::try_from(row.seq).unwrap_or(0),
            damage::Check::Record,
        ))
    })
}

fn viewer_of(caller: &Caller, finished: bool) -> Viewer {
    if finished {
        return Viewer::All;
    }
    match caller.role {
        Role::Seat { seat, .. } => Viewer::Seat(seat),
        _ => Viewer::Public,
    }
}

fn viewer_name(v: Viewer) -> &'static str {
    match v {
        Viewer::Seat(_) => "seat",
        Viewer::Public => "public",
        Viewer::All => "all",
    }
}

// ---------------------------------------------------------------------------------------
// Reading hands from the store

/// The store a hand's reads go to: the primary while the hand runs (it is being
/// written), else [`Store::reader`], which a hot standby may serve.
pub(crate) fn reads_of<'a>(svc: &'a Service, row: &HandRow) -> &'a dyn Store {
    match row.status {
        HandStatus::InProgress | HandStatus::Quarantined => svc.store.as_ref(),
        HandStatus::Completed | HandStatus::Abandoned => svc.store.reader(),
    }
}

/// The hand row, if the caller may see the hand: another club's hand, another table's
/// for a seat, a running hand for an auditor are all 404. Read from the primary: for
/// the writes.
async fn hand_row(svc: &Service, caller: &Caller, hand_id: &str) -> ApiResult<HandRow> {
    hand_row_in(svc.store.as_ref(), caller, hand_id).await
}

/// [`hand_row`] for a read-only request: from [`Store::reader`], which serves it off a
/// standby only when that has every write acknowledged so far.
async fn read_hand_row(svc: &Service, caller: &Caller, hand_id: &str) -> ApiResult<HandRow> {
    hand_row_in(svc.store.reader(), caller, hand_id).await
}

/// [`hand_row`] on the paths of play (an action, the legal actions): a running hand's
/// row as read less than [`HAND_ROW_TTL`] ago, else read now (and kept). Read now also
/// when the caller expects a `seq` other than the cached row's: the caller may know of
/// an append by another process. The second member says whether the row came from the
/// cache.
async fn playing_hand_row(
    svc: &Service,
    caller: &Caller,
    hand_id: &str,
    expected_seq: Option<u64>,
) -> ApiResult<(HandRow, bool)> {
    if crate::plausible_id(hand_id) {
        if let Some(row) = svc.live.fresh_row(&caller.club_id, hand_id) {
            if expected_seq.is_none_or(|e| i64::try_from(e).is_ok_and(|e| e == row.next_seq)) {
                visible(caller, &row)?;
                return Ok((row, true));
            }
        }
    }
    let row = hand_row(svc, caller, hand_id).await?;
    svc.live.read_row(&row);
    Ok((row, false))
}

async fn hand_row_in(store: &dyn Store, caller: &Caller, hand_id: &str) -> ApiResult<HandRow> {
    if !crate::plausible_id(hand_id) {
        return Err(ApiError::not_found("hand"));
    }
    let row = store
        .get_hand(&caller.club_id, hand_id)
        .await?
        .ok_or_else(|| ApiError::not_found("hand"))?;
    visible(caller, &row)?;
    Ok(row)
}

/// Another club's hand, another table's for a seat, a running hand for an auditor: 404.
fn visible(caller: &Caller, row: &HandRow) -> ApiResult<()> {
    let hidden = row.club_id != caller.club_id
        || !caller.sees_table(&row.table_id)
        || (caller.role == Role::Auditor && row.status == HandStatus::InProgress);
    if hidden {
        return Err(ApiError::not_found("hand"));
    }
    Ok(())
}

/// Events `0..=upto` of a hand (all of them without `upto`), as records. A stored event
/// that does not read as a signed record is `hand_damaged`.
pub(crate) async fn records(
    store: &dyn Store,
    club: &str,
    hand: &str,
    upto: Option<u64>,
) -> ApiResult<Vec<Record>> {
    let mut out = Vec::new();
    loop {
        let from = i64::try_from(out.len()).map_err(ApiError::internal)?;
        let mut limit = EVENT_PAGE;
        if let Some(last) = upto {
            let remaining = i64_of(last).saturating_add(1).saturating_sub(from);
            if remaining <= 0 {
                break;
            }
            limit = limit.min(remaining);
        }
        let rows = store.list_event_records(club, hand, from, limit).await?;
        let n = rows.len();
        for r in &rows {
            out.push(stored_record(r)?);
        }
        if i64::try_from(n).unwrap_or(0) < limit {
            break;
        }
    }
    Ok(out)
}

fn match_broken(hand_no: i64, why: &str) -> ApiError {
    ApiError::new(
        Code::MatchBroken,
        format!(
            "hand {hand_no} of this table's match {why}; an auditor should look at the table \
             (if that hand's log is damaged, the club admin may quarantine it)"
        ),
    )
}

/// The hand a table's hand `hand_no` follows in its match: the last hand before it that is
/// not quarantined (quarantined hands are no links of the chain, `docs/BUNDLE.md` §8);
/// `None` when every hand before it is quarantined. A number missing on the way is `409
/// match_broken`.
async fn predecessor(
    svc: &Service,
    club: &str,
    table: &crate::store::TableRow,
    hand_no: i64,
    known: Option<HandRow>,
) -> ApiResult<Option<HandRow>> {
    // One row per number read, by the table's unique hand number (a hand start listed
    // the table's last 16 hands before, each with its next seq: the heaviest of its
    // reads). Bounded: one read per number, down to the first hand. `known`, the row of
    // hand `hand_no - 1` when the caller has just read it, is not read again.
    let mut want = hand_no - 1;
    let mut known = known.filter(|h| h.hand_no == want && h.table_id == table.table_id);
    while want >= 1 {
        let row = match known.take() {
            Some(h) => Some(h),
            None => svc.store.hand_by_no(club, &table.table_id, want).await?,
        };
        match row {
            Some(h) if h.status != HandStatus::Quarantined => return Ok(Some(h)),
            Some(_) => want -= 1,
            None => return Err(match_broken(want, "is missing")),
        }
    }
    Ok(None)
}

/// The match state a table's match starts from, by its game from its house rules and
/// set-up (what the table was created with).
pub(crate) fn initial_state(table: &crate::store::TableRow) -> ApiResult<Value> {
    let game: GameId = table.game.parse().map_err(ApiError::internal)?;
    registry(game)
        .and_then(|e| e.new_match(&table.rules, &crate::tables::game_setup(table)))
        .map_err(ApiError::internal)
}

/// The previous hand of a table's match and the match state the next hand starts from,
/// both read from that hand's signed log, never from the table's stored match state: that
/// is a projection, and an edit to it must not reach the next hand (the audit names it).
/// The previous hand's last event must be sealed by one of the service's keys.
/// Quarantined hands are skipped: the hand after one starts as if it had never been dealt,
/// from the hand before it (or, when there is none, from the match's initial state).
pub(crate) async fn match_link(
    svc: &Service,
    club: &str,
    table: &crate::store::TableRow,
    hand_no: i64,
) -> ApiResult<(Option<PrevHand>, Value)> {
    let (prev, state, _) = match_link_after(svc, club, table, hand_no, None).await?;
    Ok((prev, state))
}

/// [`match_link`], given the row of hand `hand_no - 1` when the caller has just read it
/// (a hand start reads the table's last hand); with the previous hand's first event, read
/// with its end and sealed by one of the service's keys, which a start checks the table
/// against ([`continuity`]).
async fn match_link_after(
    svc: &Service,
    club: &str,
    table: &crate::store::TableRow,
    hand_no: i64,
    last: Option<HandRow>,
) -> ApiResult<(Option<PrevHand>, Value, Option<Record>)> {
    if hand_no <= 1 {
        return Ok((None, table.match_state.clone(), None));
    }
    let Some(prev) = predecessor(svc, club, table, hand_no, last).await? else {
        return Ok((None, initial_state(table)?, None));
    };
    let broken = |why: &str| match_broken(prev.hand_no, why);
    // Only the end of the hand is read (its last two events: hand_ended or abandoned, then
    // the reveal), and its first event only for an abandoned hand: starting a hand does not
    // read its predecessor whole.
    let tail_from = prev.next_seq.saturating_sub(2).max(0);
    let (tail, first) = tokio::try_join!(
        svc.store
            .list_event_records(club, &prev.hand_id, tail_from, 2),
        svc.store.list_event_records(club, &prev.hand_id, 0, 1),
    )?;
    let first = first
        .first()
        .and_then(|r| r.record.parse::<Record>().ok())
        .filter(|r| sealed_by_service(svc, r))
        .ok_or_else(|| broken("does not start with a sealed hand_started"))?;
    let tail: Vec<Record> = tail
        .iter()
        .map(|r| r.record.parse::<Record>())
        .collect::<Result<_, _>>()
        .map_err(|_| broken("does not end in a sealed reveal"))?;
    let Some(last) = tail.last() else {
        return Err(broken("has no events"));
    };
    if !sealed_by_service(svc, last) || !matches!(last.event.body, Body::SeedsRevealed { .. }) {
        return Err(broken("does not end in a sealed reveal"));
    }
    let ended = tail.iter().find_map(|r| match &r.event.body {
        Body::HandEnded { next_match, .. } => Some(next_match.clone()),
        _ => None,
    });
    let state = match ended {
        Some(next) => next,
        None => match &first.event.body {
            Body::HandStarted { match_state, .. } => match_state.clone(),
            _ => return Err(broken("does not start with hand_started")),
        },
    };
    if state != table.match_state {
        tracing::warn!(
            club,
            table = %table.table_id,
            "the table's stored match state differs from its last hand's log; the log's is used"
        );
    }
    Ok((
        Some(PrevHand {
            hand: prev.hand_id.clone(),
            hash: last.hash,
        }),
        state,
        Some(first),
    ))
}

/// Whether a record's hash holds over its event and one of the service's keys signed it.
fn sealed_by_service(svc: &Service, r: &Record) -> bool {
    replayer::log::hash_event(&r.event).is_ok_and(|h| h == r.hash)
        && svc
            .keys
            .public(&r.signer)
            .is_some_and(|k| k.verify(&replayer::log::signature_message(&r.hash), &r.sig))
}

/// Rebuild a hand from its records (all, or `0..=upto`), its seeds and the openings of
/// its private actions: unsealed from the store while it runs, from its reveal once over.
/// Every check of [`damage`] is made on the way: a log that fails one is `409
/// hand_damaged` naming the event and the rule, never a 500.
async fn restore(svc: &Service, row: &HandRow, upto: Option<u64>) -> ApiResult<(Loaded, u64)> {
    let store = reads_of(svc, row);
    // How many events the club's log has of a running hand, read before its events (both
    // only grow, so a healthy log holds at least as many): a log that holds fewer lost
    // events it had acknowledged, and must not play on from an earlier one.
    let extent = if row.status == HandStatus::InProgress {
        store
            .checks()
            .hand_log_extent(&row.club_id, &row.hand_id)
            .await?
    } else {
        0
    };
    let all = records(store, &row.club_id, &row.hand_id, None).await?;
    let total = u64::try_from(all.len()).unwrap_or(u64::MAX);
    if i64::try_from(all.len()).unwrap_or(i64::MAX) < extent {
        return Err(Damage::at(total, damage::Check::Truncated).into());
    }
    let upto_n = upto.map_or(all.len(), |u| {
        usize::try_from(u).unwrap_or(usize::MAX).saturating_add(1)
    });
    let prefix = all.get(..upto_n.min(all.len())).unwrap_or(&[]);
    damage::integrity(svc, prefix)?;
    let sealed_kept = sealed::kept_sealed(row, &all);
    if !sealed_kept
        && !matches!(
            all.last().map(|r| &r.event.body),
            Some(Body::SeedsRevealed { .. })
        )
    {
        // A hand that is over restores its seeds from its reveal: without one, name the
        // missing reveal rather than the first shuffle the fold cannot make.
        return Err(Damage::at(total, damage::Check::Reveal).into());
    }
    let (seeds, openings) = sealed::secrets_of(svc, row, &all).await?;
    let source = seed_source_of(svc, row, &all).await?;
    let hand = LiveHand::restore(prefix, seeds, openings, source)
        .map_err(|e| ApiError::from(Damage::of_restore(&e)))?;
    if sealed_kept {
        damage::seeds_match(prefix, hand.commitments(), hand.server_seeds())?;
    } else if upto.is_none() && !hand.is_revealed() {
        return Err(Damage::at(total, damage::Check::Reveal).into());
    }
    let head = prefix.last().map_or(Hash::ZERO, |r| r.hash);
    let started_ms = prefix.first().map_or(0, |r| r.event.time_ms);
    Ok((
        Loaded {
            hand,
            head,
            started_ms,
        },
        total,
    ))
}

/// Where a running hand's further server seeds come from: its table's seed chain, at the
/// hand's position, when its first event names one (so the shuffles still to come derive
/// from its chain seed, which its reveal publishes); the operating system otherwise, and
/// for a finished hand (its seeds are in its reveal).
async fn seed_source_of(svc: &Service, row: &HandRow, all: &[Record]) -> ApiResult<SeedSource> {
    let chained = matches!(
        all.first().map(|r| &r.event.body),
        Some(Body::HandStarted {
            seed_chain: Some(_),
            ..
        })
    );
    if !chained || !sealed::kept_sealed(row, all) {
        return Ok(SeedSource::Os);
    }
    let table = table_of(svc, row).await?;
    match crate::seed_chains::link_for(svc, &table, row.hand_no).await {
        Ok(Some(link)) => Ok(SeedSource::Chain(link)),
        // The table's chain does not reach this hand: the header is not the table's.
        Ok(None)
        | Err(ApiError {
            code: Code::SeedChainExhausted,
            ..
        }) => Err(Damage::at(0, damage::Check::HandStarted).into()),
        Err(e) => Err(e),
    }
}

/// Where a hand's stored log first fails verification, read fresh from the store (never
/// from a hand held in memory); `None` when the whole log verifies.
pub(crate) async fn damage_of(svc: &Service, row: &HandRow) -> ApiResult<Option<Damage>> {
    match restore(svc, row, None).await {
        Ok(_) => Ok(None),
        Err(e) => Damage::of_error(&e).map(Some).ok_or(e),
    }
}

/// Runs `f` on the current state of a hand: the cached one for a running hand (reloaded
/// if the store has moved on), a fresh restore for a finished one.
async fn with_hand<T>(svc: &Service, row: &HandRow, f: impl FnOnce(&Loaded) -> T) -> ApiResult<T> {
    if row.status == HandStatus::Quarantined {
        return Err(quarantined_error(row));
    }
    if row.status != HandStatus::InProgress {
        // Ended, maybe by another process: nothing of it stays in memory here.
        svc.live.forget(&row.club_id, &row.hand_id);
        let (loaded, _) = restore(svc, row, None).await?;
        return Ok(f(&loaded));
    }
    let slot = svc.live.slot(&row.club_id, &row.hand_id);
    let mut guard = slot.lock().await;
    if guard
        .as_ref()
        .is_none_or(|l| l.hand.next_seq() < u64_of(row.next_seq))
    {
        *guard = Some(restore(svc, row, None).await?.0);
    }
    let loaded = guard
        .as_ref()
        .ok_or_else(|| ApiError::internal("hand not loaded"))?;
    let out = f(loaded);
    if loaded.hand.status() != dealer::HandStatus::InProgress {
        *guard = None;
        svc.live.forget(&row.club_id, &row.hand_id);
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------------
// Writing

/// What one request asks of a running hand.
#[derive(Clone, Debug)]
pub enum Op {
    /// A seat's client seed.
    Entropy(ClientSeed),
    /// Use the pending shuffle now.
    Deal,
    /// An action by the caller.
    Act {
        /// The action.
        action: Value,
        /// The player's signature.
        player_sig: Option<PlayerSig>,
    },
    /// Abandon the hand.
    Abandon(String),
}

impl Op {
    fn actor(&self, caller: &Caller) -> ApiResult<Actor> {
        let seat = caller.seat().map(|(_, s)| Actor::Seat(s));
        match (self, &caller.role) {
            (_, Role::Auditor) => Err(ApiError::forbidden("an auditor key is read-only")),
            (Op::Entropy(_), Role::Admin) => Err(ApiError::forbidden(
                "client seeds come from the seats: use a seat token",
            )),
            (Op::Abandon(_), Role::Seat { .. }) => Err(ApiError::forbidden(
                "only the club admin may abandon a hand",
            )),
            (_, Role::Admin) => Ok(Actor::Service),
            (_, Role::Seat { .. }) => {
                seat.ok_or_else(|| ApiError::internal("seat caller without seat"))
            }
        }
    }
}

/// The table a hand is played at.
async fn table_of(svc: &Service, row: &HandRow) -> ApiResult<crate::store::TableRow> {
    svc.store
        .get_table(&row.club_id, &row.table_id)
        .await?
        .ok_or_else(|| ApiError::internal("a hand's table is missing"))
}

/// The hand and table changes that go with records that end a hand.
async fn ending_updates(
    svc: &Service,
    row: &HandRow,
    hand: &LiveHand,
    now: i64,
) -> ApiResult<(Option<HandUpdate>, Option<TableUpdate>)> {
    let status = store_status(hand.status());
    if status == HandStatus::InProgress {
        return Ok((None, None));
    }
    let hand_update = HandUpdate {
        status,
        ended_ms: Some(now),
        outcome: hand.outcome().cloned(),
        abandon_reason: None,
    };
    let table_update = match hand.next_match() {
        Some(m) if status == HandStatus::Completed && !m.is_null() => {
            let table = svc
                .store
                .get_table(&row.club_id, &row.table_id)
                .await?
                .ok_or_else(|| ApiError::internal("the hand's table is gone"))?;
            Some(TableUpdate {
                table_id: row.table_id.clone(),
                expected_match_version: table.match_version,
                match_state: m.clone(),
            })
        }
        _ => None,
    };
    Ok((Some(hand_update), table_update))
}

fn count_end(svc: &Service, hand: &LiveHand) {
    match hand.status() {
        dealer::HandStatus::Completed => svc.metrics.hands.with_label_values(&["completed"]).inc(),
        dealer::HandStatus::Abandoned => svc.metrics.hands.with_label_values(&["abandoned"]).inc(),
        dealer::HandStatus::InProgress => {}
    }
}

/// Appends `new_records` made by `next` from the state at seq `expected_seq` (whose hand
/// knew `seeds_before` server seeds), with the hand and table changes they imply and the
/// idempotency record of `reply`. The outer error is a failure to prepare the write; the
/// inner result is the store's answer.
#[allow(clippy::too_many_arguments)]
async fn append(
    svc: &Service,
    row: &HandRow,
    expected_seq: u64,
    seeds_before: usize,
    next: &LiveHand,
    new_records: &[Record],
    abandon_reason: Option<String>,
    idem: Option<&IdemCtx>,
    reply: &Reply,
) -> ApiResult<Result<(), StoreError>> {
    let now = i64_of(now_ms());
    let events = new_records
        .iter()
        .map(|r| event_row(&row.club_id, r, now))
        .collect::<ApiResult<Vec<_>>>()?;
    let new_secrets = sealed::seal_seeds(svc, &row.club_id, next, seeds_before)?;
    // The openings of the private actions among the new records: theirs are the only
    // openings at or past `expected_seq`.
    let new_inputs = sealed::seal_inputs(svc, &row.club_id, next, expected_seq)?;
    let idem = idem.map(|c| c.row(&svc.seal, reply, now)).transpose()?;
    let (mut hand_update, table_update) = ending_updates(svc, row, next, now).await?;
    if let Some(u) = hand_update.as_mut() {
        u.abandon_reason = abandon_reason;
    }
    let req = AppendRequest {
        club_id: row.club_id.clone(),
        hand_id: row.hand_id.clone(),
        expected_seq: i64_of(expected_seq),
        events,
        hand_update,
        table_update,
        new_secrets,
        new_inputs,
        idem,
    };
    let t0 = Instant::now();
    let res = svc.store.append_owned(req).await;
    svc.metrics
        .append_seconds
        .with_label_values(&["append"])
        .observe(t0.elapsed().as_secs_f64());
    match &res {
        Err(StoreError::Conflict { .. }) => svc.metrics.conflicts.with_label_values(&["seq"]).inc(),
        Err(StoreError::IdempotencyConflict) => svc
            .metrics
            .conflicts
            .with_label_values(&["idempotency"])
            .inc(),
        _ => {}
    }
    Ok(res)
}

fn seq_conflict(expected: u64, next: u64) -> ApiError {
    ApiError::new(
        Code::SeqConflict,
        format!("expected_seq {expected} is not the hand's next seq {next}"),
    )
    .with("next_seq", next)
}

/// Entropy, deal, an action or abandon on a running hand.
pub async fn mutate(
    svc: &Service,
    caller: &Caller,
    hand_id: &str,
    expected_seq: Option<u64>,
    op: Op,
    idem: Option<IdemCtx>,
) -> ApiResult<Reply> {
    let actor = op.actor(caller)?;
    if let Op::Act { action, player_sig } = &op {
        replayer::log::check_json(action)
            .map_err(|e| ApiError::new(Code::InvalidJson, format!("action: {e}")))?;
        if player_sig.is_some() && expected_seq.is_none() {
            return Err(ApiError::new(
                Code::ExpectedSeqRequired,
                "a player signature covers the event's seq: send expected_seq with it",
            ));
        }
    }
    let (row, cached) = playing_hand_row(svc, caller, hand_id, expected_seq).await?;
    if !cached {
        let mut unsure = false;
        return mutate_row(svc, row, actor, expected_seq, op, idem, &mut unsure).await;
    }
    // The row came from this process's cache: the hand may have moved on in another
    // process since. A request that fails on it, having written nothing, is tried once
    // more on the row as stored now (so the cache never turns a request that would have
    // gone through into an error).
    let mut unsure = false;
    let first = mutate_row(
        svc,
        row.clone(),
        actor,
        expected_seq,
        op.clone(),
        idem.clone(),
        &mut unsure,
    )
    .await;
    match first {
        Err(e) if !unsure => {
            // Only the cached row is dropped: the hand held in memory is restored by
            // `mutate_row` if the stored row shows it behind. When the row as stored is
            // the cached one, the hand has not moved on and the refusal stands.
            svc.live.forget_row(&row.club_id, &row.hand_id);
            let stored = hand_row(svc, caller, hand_id).await?;
            svc.live.read_row(&stored);
            if stored == row {
                return Err(e);
            }
            mutate_row(svc, stored, actor, expected_seq, op, idem, &mut unsure).await
        }
        other => other,
    }
}

/// [`mutate`] on the hand's row as read. `unsure` is set when the store was asked to
/// write and its answer leaves the outcome open (not a refusal).
async fn mutate_row(
    svc: &Service,
    row: HandRow,
    actor: Actor,
    expected_seq: Option<u64>,
    op: Op,
    idem: Option<IdemCtx>,
    unsure: &mut bool,
) -> ApiResult<Reply> {
    if row.status == HandStatus::Quarantined {
        svc.live.forget(&row.club_id, &row.hand_id);
        return Err(quarantined_error(&row));
    }
    if row.status != HandStatus::InProgress {
        svc.live.forget(&row.club_id, &row.hand_id);
        return Err(ApiError::new(Code::HandOver, "the hand is over"));
    }
    let slot = svc.live.slot(&row.club_id, &row.hand_id);
    let mut guard = slot.lock().await;
    // A request with the same key may have been handled while this one waited.
    if let Some(ctx) = &idem {
        if let Some(r) = ctx.lookup(svc.store.as_ref(), &svc.seal).await? {
            return Ok(r);
        }
    }
    if guard
        .as_ref()
        .is_none_or(|l| l.hand.next_seq() < u64_of(row.next_seq))
    {
        *guard = Some(restore(svc, &row, None).await?.0);
    }
    let loaded = guard
        .as_ref()
        .ok_or_else(|| ApiError::internal("hand not loaded"))?;
    if loaded.hand.status() != dealer::HandStatus::InProgress {
        *guard = None;
        svc.live.forget(&row.club_id, &row.hand_id);
        return Err(ApiError::new(Code::HandOver, "the hand is over"));
    }
    let seq = loaded.hand.next_seq();
    if let Some(e) = expected_seq {
        if e != seq {
            return Err(seq_conflict(e, seq));
        }
    }
    let mut next = loaded.hand.clone();
    let started_ms = loaded.started_ms;
    let seeds_before = next.server_seeds().len();
    let key = svc.keys.current();
    let now = now_ms();
    let mut abandon_reason = None;
    let records = match op {
        Op::Entropy(seed) => match actor {
            Actor::Seat(s) => next.contribute(s, seed, key, now),
            Actor::Service => Err(DealerError::EntropyOff),
        },
        Op::Deal => {
            // A seat may force the shuffle without the others' seeds only once the table's
            // deadline has passed since the hand began waiting; the admin at any time. The
            // `shuffled` event names the seats that gave none.
            let open_until = match actor {
                Actor::Seat(_) => {
                    next.last_time_ms()
                        .saturating_add(crate::tables::entropy_deadline_ms(
                            &table_of(svc, &row).await?,
                        ))
                }
                Actor::Service => 0,
            };
            if now < open_until {
                return Err(ApiError::new(
                    Code::EntropyWindowOpen,
                    format!(
                        "the seats asked may add client seeds for {} ms more",
                        open_until - now
                    ),
                )
                .with("retry_after_ms", open_until - now));
            }
            next.shuffle_now(key, now)
        }
        Op::Act { action, player_sig } => next.act(actor, action, player_sig, key, now),
        Op::Abandon(reason) => {
            let reason: String = reason.chars().take(500).collect();
            abandon_reason = Some(reason.clone());
            next.abandon(&reason, key, now)
        }
    }
    .map_err(dealer_error)?;
    let head = records.last().map_or(loaded.head, |r| r.hash);
    let reply = Reply::new(
        StatusCode::OK,
        Appended {
            hand_id: row.hand_id.clone(),
            status: next.status().as_str().to_string(),
            next_seq: next.next_seq(),
            head: head.to_hex(),
            events: records.clone(),
            to_act: next.to_act().into(),
            legal_actions: next.legal_actions(actor),
            outcome: next.outcome().cloned(),
        },
    )?;
    *unsure = true;
    let res = append(
        svc,
        &row,
        seq,
        seeds_before,
        &next,
        &records,
        abandon_reason,
        idem.as_ref(),
        &reply,
    )
    .await;
    // Open only when the store was asked and neither wrote nor refused for sure.
    *unsure = matches!(
        &res,
        Ok(Err(e)) if !matches!(e, StoreError::Conflict { .. } | StoreError::IdempotencyConflict)
    );
    match res? {
        Ok(()) => {
            *unsure = false;
            if next.status() == dealer::HandStatus::InProgress {
                svc.live
                    .appended(&row.club_id, &row.hand_id, i64_of(next.next_seq()));
                *guard = Some(Loaded {
                    hand: next,
                    head,
                    started_ms,
                });
            } else {
                count_end(svc, &next);
                *guard = None;
                svc.live.forget(&row.club_id, &row.hand_id);
            }
            Ok(reply)
        }
        Err(StoreError::Conflict { .. }) => {
            *guard = None;
            svc.live.forget_row(&row.club_id, &row.hand_id);
            Err(ApiError::new(
                Code::SeqConflict,
                "another request appended to this hand first; reload and retry",
            ))
        }
        Err(StoreError::IdempotencyConflict) => {
            IdemCtx::replayed(idem.as_ref(), svc.store.as_ref(), &svc.seal).await
        }
        Err(e) => Err(e.into()),
    }
}

/// Quarantines a damaged hand (club admin): its stored log fails verification, so it can
/// neither go on nor end, and would hold its table for ever. The hand may be running or
/// finished, but must be its table's latest (a later hand already links to it otherwise)
/// and its log must fail verification now (`409 hand_not_damaged` for a healthy hand:
/// abandon that one). Nothing is appended to its log (it is what failed) nor to the club's
/// order of events (which orders signed events only): the quarantine is recorded in the
/// hand's row, and the table's match state becomes the one its next hand will start from,
/// the state the hand before the quarantined one left (`docs/BUNDLE.md` §8).
pub async fn quarantine(
    svc: &Service,
    caller: &Caller,
    hand_id: &str,
    reason: &str,
    idem: Option<IdemCtx>,
) -> ApiResult<Reply> {
    caller.require_admin()?;
    let reason = crate::names::display_name(reason, MAX_QUARANTINE_REASON)
        .map_err(|e| ApiError::invalid_name("reason", &e))?;
    let row = hand_row(svc, caller, hand_id).await?;
    if row.status == HandStatus::Quarantined {
        return Err(quarantined_error(&row));
    }
    let club = row.club_id.as_str();
    let table = table_of(svc, &row).await?;
    let next_no = svc.store.next_hand_no(club, &row.table_id).await?;
    if next_no != row.hand_no.saturating_add(1) {
        return Err(ApiError::new(
            Code::HandNotLatest,
            format!(
                "hand {} of this table's match already follows this one (hand {}) and links \
                 to it: only the table's latest hand can be quarantined",
                next_no - 1,
                row.hand_no
            ),
        ));
    }
    // This process's writers of the hand wait; the log is read fresh from the store.
    let slot = svc.live.slot(club, &row.hand_id);
    let mut guard = slot.lock().await;
    let Some(found) = damage_of(svc, &row).await? else {
        return Err(ApiError::new(
            Code::HandNotDamaged,
            "the hand's stored log verifies: only a damaged hand can be quarantined; abandon \
             a healthy hand instead (its seeds are revealed)",
        ));
    };
    // The state the table's next hand starts from, the quarantined hand skipped.
    let next_state = if row.hand_no <= 1 {
        Some(initial_state(&table)?)
    } else {
        match match_link(svc, club, &table, row.hand_no).await {
            Ok((_, state)) => Some(state),
            Err(e) if e.code == Code::MatchBroken => {
                // The hand before is damaged too: starting the next hand will say so.
                tracing::warn!(club, table = %table.table_id, "quarantine: the hand before is broken");
                None
            }
            Err(e) => return Err(e),
        }
    };
    let table_update = next_state
        .filter(|s| *s != table.match_state)
        .map(|match_state| TableUpdate {
            table_id: table.table_id.clone(),
            expected_match_version: table.match_version,
            match_state,
        });
    let now = i64_of(now_ms());
    let record = Quarantine {
        reason,
        quarantined_ms: now,
        by: caller.id.clone(),
        seq: i64_of(found.seq),
        rule: found.rule.clone(),
    };
    let mut shown = row.clone();
    shown.status = HandStatus::Quarantined;
    shown.ended_ms = row.ended_ms.or(Some(now));
    shown.quarantine = Some(record.clone());
    let answer = quarantined_view(&shown)?;
    let reply = Reply::new(StatusCode::OK, answer)?;
    let req = QuarantineRequest {
        club_id: row.club_id.clone(),
        hand_id: row.hand_id.clone(),
        expected_status: row.status,
        quarantine: record,
        ended_ms: now,
        table_update,
        idem: idem
            .as_ref()
            .map(|c| c.row(&svc.seal, &reply, now))
            .transpose()?,
    };
    match svc.store.quarantine_hand(&req).await {
        Ok(()) => {}
        Err(StoreError::Conflict { .. }) => {
            return Err(ApiError::new(
                Code::SeqConflict,
                "the hand or its table changed while it was being quarantined; reload and retry",
            ))
        }
        Err(StoreError::IdempotencyConflict) => {
            return IdemCtx::replayed(idem.as_ref(), svc.store.as_ref(), &svc.seal).await;
        }
        Err(e) => return Err(e.into()),
    }
    *guard = None;
    drop(guard);
    svc.live.forget(club, &row.hand_id);
    svc.metrics.hands.with_label_values(&["quarantined"]).inc();
    tracing::warn!(
        club,
        hand = %row.hand_id,
        seq = found.seq,
        rule = %found.rule,
        "hand quarantined: its stored log fails verification"
    );
    Ok(reply)
}

/// Starts the next hand of a table's match.
pub async fn start(
    svc: &Service,
    caller: &Caller,
    table_id: &str,
    idem: Option<IdemCtx>,
) -> ApiResult<Reply> {
    caller.require_admin()?;
    if !crate::plausible_id(table_id) {
        return Err(ApiError::not_found("table"));
    }
    let club = caller.club_id.as_str();
    // Two independent reads, at once (each on a connection of its own): a hand start's
    // reads are round trips one after another, and its latency is the table's. The
    // table's last hand tells whether one is in progress (at most one is, and it is the
    // last), the next hand's number, and the hand it follows in its match.
    let (table, last) = tokio::try_join!(
        svc.store.get_table(club, table_id),
        svc.store.last_hand(club, table_id),
    )?;
    let table = table.ok_or_else(|| ApiError::not_found("table"))?;
    let game: GameId = table.game.parse().map_err(|_| {
        ApiError::record_damaged(
            "game_tables",
            continuity::row_name("game_tables", &table, None),
            "a game the service deals (the one the table was created with)",
        )
    })?;
    let engine = registry(game).map_err(ApiError::internal)?;
    if last
        .as_ref()
        .is_some_and(|h| h.status == HandStatus::InProgress)
    {
        return Err(ApiError::new(
            Code::HandInProgress,
            "the table has a hand in progress",
        ));
    }
    let hand_no = last.as_ref().map_or(1, |h| h.hand_no.saturating_add(1));
    // The match's link to the previous hand and the table's seed chain, read at once;
    // their errors count in this order.
    let (linked, chain) = tokio::join!(
        match_link_after(svc, club, &table, hand_no, last),
        crate::seed_chains::link_for(svc, &table, hand_no),
    );
    let (prev_hand, match_state, prev_first) = linked?;
    if let Some(e) = prev_first
        .as_ref()
        .and_then(|p| continuity::game_differs(&table, &p.event.body))
    {
        return Err(e);
    }
    if engine
        .match_over(&match_state)
        .map_err(ApiError::internal)?
    {
        return Err(ApiError::new(Code::MatchOver, "the table's match is over"));
    }
    // The penalty rulings on earlier hands not carried yet count before this hand.
    let plan = crate::disputes::carry::plan(svc, &table, engine, hand_no, match_state).await?;
    if engine.match_over(&plan.state).map_err(ApiError::internal)? {
        return Err(ApiError::new(
            Code::MatchOver,
            "the table's match is over: the penalty rulings carried into it ended it (the \
             table's match file shows them)",
        ));
    }
    let adjustments = plan.adjustments();
    let match_state = plan.state;
    let seats = table
        .seats
        .iter()
        .map(|s| {
            Ok(SeatInfo {
                seat: SeatIndex(u8::try_from(s.seat).map_err(ApiError::internal)?),
                player: s.player.clone(),
                public_key: s
                    .public_key
                    .as_deref()
                    .map(PublicKey::from_hex)
                    .transpose()
                    .map_err(ApiError::internal)?,
            })
        })
        .collect::<ApiResult<Vec<_>>>()?;
    let client_entropy = crate::tables::client_entropy(&table);
    let options = HandOptions {
        signatures_required: crate::tables::signatures(&table)
            == crate::tables::Signatures::Required,
        adjustments,
    };
    let source = match chain? {
        Some(link) => SeedSource::Chain(link),
        None => SeedSource::Os,
    };
    let hand_id = random_id("h")?;
    let params = HandParams {
        hand_id: hand_id.clone(),
        club: club.to_string(),
        table: table_id.to_string(),
        hand_no: u64_of(hand_no),
        game,
        rules: table.rules.clone(),
        match_state,
        seats,
        client_entropy,
        prev_hand,
    };
    let key = svc.keys.current();
    let now = now_ms();
    let (mut hand, mut all) =
        LiveHand::start_with_options(params, options, source, key, now).map_err(dealer_error)?;
    // The table's stored rows must be what the match's signed record says (its rules,
    // seats and seed chain never change but for a new chain once one is used up).
    if let (Some(prev), Some(next)) = (&prev_first, all.first()) {
        if let Some(d) = continuity::differences(&prev.event.body, &next.event.body).first() {
            return Err(d.error(&table));
        }
    }
    let commitment = hand
        .commitments()
        .first()
        .map(|c| c.to_hex())
        .unwrap_or_default();
    // A game that shuffles as soon as the hand starts (Hokm, Bluff, or any table
    // without client entropy) deals here: those events are written with the start, in
    // its one commit.
    all.extend(hand.settle_after_start(key, now).map_err(dealer_error)?);
    if hand.status() != dealer::HandStatus::InProgress {
        // No game ends a hand before anyone acts; a start that did would need the
        // table's match state written with it, which a start does not write.
        return Err(ApiError::internal(
            "the game ended the hand in its own start",
        ));
    }
    let head = all.last().map_or(Hash::ZERO, |r| r.hash);
    let reply = Reply::new(
        StatusCode::CREATED,
        HandStarted {
            hand_id: hand_id.clone(),
            table_id: table_id.to_string(),
            hand_no: u64_of(hand_no),
            game: table.game.clone(),
            status: hand.status().as_str().to_string(),
            next_seq: hand.next_seq(),
            head: head.to_hex(),
            commitment,
            client_entropy,
            seed_chain: hand.seed_chain().copied(),
            signatures_required: hand.signatures_required(),
            events: all.clone(),
            to_act: hand.to_act().into(),
        },
    )?;
    let now_i = i64_of(now);
    let row = HandRow {
        club_id: club.to_string(),
        hand_id: hand_id.clone(),
        table_id: table_id.to_string(),
        game: table.game.clone(),
        hand_no,
        status: HandStatus::InProgress,
        next_seq: 0,
        players: table.seats.iter().map(|s| s.player.clone()).collect(),
        started_ms: now_i,
        ended_ms: None,
        outcome: None,
        abandon_reason: None,
        quarantine: None,
    };
    let rows = all
        .iter()
        .map(|r| event_row(club, r, now_i))
        .collect::<ApiResult<Vec<_>>>()?;
    let secrets = sealed::seal_seeds(svc, club, &hand, 0)?;
    let idem_row = idem
        .as_ref()
        .map(|c| c.row(&svc.seal, &reply, now_i))
        .transpose()?;
    let t0 = Instant::now();
    let created = svc
        .store
        .create_hand(&row, &rows, &secrets, idem_row.as_ref())
        .await;
    svc.metrics
        .append_seconds
        .with_label_values(&["create_hand"])
        .observe(t0.elapsed().as_secs_f64());
    match created {
        Ok(()) => {}
        Err(StoreError::Conflict { .. }) => {
            svc.metrics.conflicts.with_label_values(&["seq"]).inc();
            return Err(ApiError::new(
                Code::HandInProgress,
                "the table has a hand in progress",
            ));
        }
        Err(StoreError::IdempotencyConflict) => {
            svc.metrics
                .conflicts
                .with_label_values(&["idempotency"])
                .inc();
            return Err(StoreError::IdempotencyConflict.into());
        }
        Err(e) => return Err(e.into()),
    }
    svc.metrics.hands.with_label_values(&["started"]).inc();
    // The row as just written is as fresh as one just read: kept, its first action does
    // not read it back (a read of the row per hand, ops/README.md tenth round).
    svc.live.read_row(&HandRow {
        next_seq: i64_of(hand.next_seq()),
        ..row
    });
    let slot = svc.live.slot(club, &hand_id);
    *slot.lock().await = Some(Loaded {
        hand,
        head,
        started_ms: now,
    });
    Ok(reply)
}

// ---------------------------------------------------------------------------------------
// Reading

/// A quarantined hand's row as shown; an internal error for a row that is not a
/// quarantined hand with its record.
fn quarantined_view(row: &HandRow) -> ApiResult<QuarantinedHand> {
    let q = row
        .quarantine
        .as_ref()
        .filter(|_| row.status == HandStatus::Quarantined)
        .ok_or_else(|| ApiError::internal("a quarantined hand without its record"))?;
    Ok(QuarantinedHand {
        hand_id: row.hand_id.clone(),
        table_id: row.table_id.clone(),
        hand_no: row.hand_no,
        game: row.game.clone(),
        status: row.status.as_str().to_string(),
        players: row.players.clone(),
        started_ms: row.started_ms,
        ended_ms: row.ended_ms,
        quarantine: q.into(),
    })
}

/// `GET /v1/hands/{hand_id}`.
pub async fn detail(svc: &Service, caller: &Caller, hand_id: &str) -> ApiResult<HandAnswer> {
    let row = read_hand_row(svc, caller, hand_id).await?;
    if row.status == HandStatus::Quarantined {
        return quarantined_view(&row).map(HandAnswer::Quarantined);
    }
    let shown = with_hand(svc, &row, |l| {
        let h = &l.hand;
        let finished = h.status() != dealer::HandStatus::InProgress;
        let viewer = viewer_of(caller, finished);
        row_differs(&row, h.seats(), l.started_ms).map_or_else(
            || {
                Ok(HandDetail {
                    hand_id: row.hand_id.clone(),
                    table_id: row.table_id.clone(),
                    hand_no: row.hand_no,
                    game: row.game.clone(),
                    status: h.status().as_str().to_string(),
                    next_seq: h.next_seq(),
                    head: l.head.to_hex(),
                    players: row.players.clone(),
                    started_ms: row.started_ms,
                    ended_ms: row.ended_ms,
                    commitments: h.commitments().iter().map(|c| c.to_hex()).collect(),
                    client_seeds: h
                        .client_seeds()
                        .iter()
                        .enumerate()
                        .flat_map(|(k, list)| {
                            list.iter().map(move |(seat, seed)| ClientSeedView {
                                shuffle: u32::try_from(k).unwrap_or(u32::MAX),
                                seat: seat.0,
                                seed: seed.to_hex(),
                            })
                        })
                        .collect(),
                    next_shuffle: h.next_shuffle(),
                    to_act: h.to_act().into(),
                    viewer: viewer_name(viewer).to_string(),
                    view: h.view(viewer),
                    last_action: h.last_action().cloned(),
                    outcome: h.outcome().cloned(),
                    abandon_reason: row.abandon_reason.clone(),
                })
            },
            Err,
        )
    })
    .await?;
    shown.map(HandAnswer::Hand)
}

/// Where a hand's row differs from its signed `hand_started` (its seats, its start time):
/// `409 record_damaged` naming the row, never the edited players or time shown as fact.
fn row_differs(row: &HandRow, seats: &[SeatInfo], started_ms: u64) -> Option<ApiError> {
    let key = format!("(club_id, hand_id) = ({}, {})", row.club_id, row.hand_id);
    let players: Vec<&str> = seats.iter().map(|s| s.player.as_str()).collect();
    if players != row.players.iter().map(String::as_str).collect::<Vec<_>>() {
        return Some(ApiError::record_damaged(
            "hands",
            key,
            format!("players {players:?}, as its hand_started records them"),
        ));
    }
    if i64::try_from(started_ms).ok() != Some(row.started_ms) {
        return Some(ApiError::record_damaged(
            "hands",
            key,
            format!("started_ms {started_ms}, as its hand_started records it"),
        ));
    }
    None
}

/// `GET /v1/hands/{hand_id}/legal-actions`.
pub async fn legal_actions(
    svc: &Service,
    caller: &Caller,
    hand_id: &str,
) -> ApiResult<LegalActions> {
    let (row, _) = playing_hand_row(svc, caller, hand_id, None).await?;
    let actor = match caller.role {
        Role::Seat { seat, .. } => Some(Actor::Seat(seat)),
        Role::Admin => Some(Actor::Service),
        Role::Auditor => None,
    };
    with_hand(svc, &row, |l| LegalActions {
        hand_id: row.hand_id.clone(),
        next_seq: l.hand.next_seq(),
        head: l.head.to_hex(),
        signatures_required: l.hand.signatures_required(),
        actor,
        legal_actions: actor.map(|a| l.hand.legal_actions(a)).unwrap_or_default(),
        to_act: l.hand.to_act().into(),
    })
    .await
}

/// `GET /v1/hands/{hand_id}/events`.
pub async fn events(
    svc: &Service,
    caller: &Caller,
    hand_id: &str,
    from: i64,
    limit: i64,
) -> ApiResult<EventsPage> {
    let row = read_hand_row(svc, caller, hand_id).await?;
    let rows = reads_of(svc, &row)
        .list_events(&row.club_id, &row.hand_id, from, limit)
        .await?;
    let full = i64::try_from(rows.len()).unwrap_or(0) == limit;
    let next_from = rows
        .last()
        .filter(|_| full)
        .map(|r| r.seq.saturating_add(1));
    Ok(EventsPage {
        hand_id: row.hand_id,
        events: rows.into_iter().map(|r| r.record).collect(),
        next_from,
    })
}

/// `GET /v1/hands/{hand_id}/replay?step=N` (the last event when `step` is `None`).
pub async fn replay(
    svc: &Service,
    caller: &Caller,
    hand_id: &str,
    step: Option<u64>,
) -> ApiResult<ReplayView> {
    let row = read_hand_row(svc, caller, hand_id).await?;
    if row.status == HandStatus::Quarantined {
        return Err(quarantined_error(&row));
    }
    let last = u64_of(row.next_seq).saturating_sub(1);
    if let Some(step) = step.filter(|&s| s > last) {
        return Err(ApiError::new(
            Code::InvalidQuery,
            format!("step {step} is past the hand's last event ({last})"),
        ));
    }
    let finished = row.status != HandStatus::InProgress;
    // Without a step, the whole log is restored and checked: the last step shows only a
    // log that verifies to its end (a row added past a finished hand's recorded end is
    // `hand_damaged` here, as in `GET`).
    let (loaded, total) = restore(svc, &row, step).await?;
    let step = step.unwrap_or(total.saturating_sub(1));
    let viewer = viewer_of(caller, finished);
    let event = svc
        .store
        .list_event_records(&row.club_id, &row.hand_id, i64_of(step), 1)
        .await?
        .into_iter()
        .next()
        .map(|r| r.record)
        .ok_or_else(|| ApiError::not_found("event"))?;
    let h = &loaded.hand;
    Ok(ReplayView {
        hand_id: row.hand_id.clone(),
        step,
        events: total,
        event,
        status: h.status().as_str().to_string(),
        viewer: viewer_name(viewer).to_string(),
        view: h.view(viewer),
        to_act: h.to_act().into(),
        last_action: h.last_action().cloned(),
    })
}

/// `GET /v1/hands/{hand_id}/bundle`: once the hand is over.
pub async fn bundle(svc: &Service, caller: &Caller, hand_id: &str) -> ApiResult<Bundle> {
    let row = read_hand_row(svc, caller, hand_id).await?;
    if row.status == HandStatus::InProgress {
        // A running hand that cannot be rebuilt will never be over: say why.
        with_hand(svc, &row, |_| ()).await?;
        return Err(ApiError::new(
            Code::HandInProgress,
            "the bundle is available once the hand is over",
        ));
    }
    let bundle = bundle_of(svc, &row).await?;
    // Version 2 with the log proof once the hand's last event is under a checkpoint
    // (docs/BUNDLE.md §1); before that, or if the log cannot prove it now, version 1: the
    // bundle itself is never held back by the log.
    match crate::clublog::bundle_log_proof(svc, &row.club_id, &row.hand_id).await {
        Ok(Some((proof, signer))) => Ok(bundle.with_log_proof(proof, signer)),
        Ok(None) => Ok(bundle),
        Err(e) => {
            tracing::warn!(club_id = %row.club_id, hand_id = %row.hand_id, error = %e,
                "no log proof for the hand's bundle");
            Ok(bundle)
        }
    }
}

/// The row of a finished hand whose bundle the caller may read (the checks of
/// [`bundle`]), for what goes with a bundle (its log proof, `api::log`).
pub(crate) async fn bundle_reader_row(
    svc: &Service,
    caller: &Caller,
    hand_id: &str,
) -> ApiResult<HandRow> {
    let row = read_hand_row(svc, caller, hand_id).await?;
    if row.status == HandStatus::InProgress {
        return Err(ApiError::new(
            Code::HandInProgress,
            "the log proof is available once the hand is over",
        ));
    }
    Ok(row)
}

/// `GET /v1/tables/{table_id}/bundle`: the table's match file (`docs/BUNDLE.md`, "Match
/// files"): every finished hand of its match, in order. A hand in progress is left out.
pub async fn match_file(
    svc: &Service,
    caller: &Caller,
    table_id: &str,
) -> ApiResult<replayer::matches::MatchFile> {
    let table = crate::tables::table_row(svc, caller, table_id).await?;
    match_file_of(svc, &table).await
}

/// Every hand of a table (its club's), in progress or not, in `hand_no` order.
pub(crate) async fn table_hands(
    svc: &Service,
    table: &crate::store::TableRow,
) -> ApiResult<Vec<HandRow>> {
    table_hands_in(svc.store.reader(), table).await
}

/// [`table_hands`], read from `store`.
pub(crate) async fn table_hands_in(
    store: &dyn Store,
    table: &crate::store::TableRow,
) -> ApiResult<Vec<HandRow>> {
    let mut rows: Vec<HandRow> = Vec::new();
    let mut filter = HandFilter {
        table_id: Some(table.table_id.clone()),
        limit: 500,
        ..HandFilter::default()
    };
    loop {
        let page = store.list_hands(&table.club_id, &filter).await?;
        let full = page.len() == 500;
        filter.cursor = page.last().map(|h| (h.started_ms, h.hand_id.clone()));
        rows.extend(page);
        if !full {
            break;
        }
    }
    rows.sort_by_key(|h| h.hand_no);
    Ok(rows)
}

/// The match file of a table already read (and authorized): every finished hand of its
/// match, in order. Shared by [`match_file`] and the `audit` command.
pub(crate) async fn match_file_of(
    svc: &Service,
    table: &crate::store::TableRow,
) -> ApiResult<replayer::matches::MatchFile> {
    let rows = table_hands(svc, table).await?;
    let mut hands = Vec::with_capacity(rows.len());
    let mut quarantined = Vec::new();
    for row in rows.iter().filter(|h| h.status != HandStatus::InProgress) {
        match &row.quarantine {
            Some(q) if row.status == HandStatus::Quarantined => {
                quarantined.push(replayer::matches::QuarantinedHand {
                    hand: row.hand_id.clone(),
                    hand_no: u64_of(row.hand_no),
                    reason: q.reason.clone(),
                    quarantined_ms: u64_of(q.quarantined_ms),
                    seq: u64_of(q.seq),
                    rule: q.rule.clone(),
                })
            }
            _ => hands.push(bundle_of(svc, row).await?),
        }
    }
    let game: GameId = table.game.parse().map_err(ApiError::internal)?;
    let in_progress = rows.iter().any(|h| h.status == HandStatus::InProgress);
    let (rulings, keys, trailing) = rulings_of(svc, table, game, &hands, in_progress).await?;
    Ok(
        replayer::matches::MatchFile::new(&table.club_id, &table.table_id, game, hands)
            .with_quarantined(quarantined)
            .with_rulings(rulings, keys, trailing),
    )
}

/// The signed ruling entries a match file carries (`docs/BUNDLE.md` §8, version 3): every
/// entry the hands' `adjustments` name, read from the disputes' stored records, and, when no
/// hand is running, the rulings the table's next hand would carry (or that ended the
/// match: `trailing_adjustments`); with the service keys that signed them.
async fn rulings_of(
    svc: &Service,
    table: &crate::store::TableRow,
    game: GameId,
    hands: &[Bundle],
    in_progress: bool,
) -> ApiResult<(Vec<EntryRecord>, Vec<PublicKey>, Vec<Adjustment>)> {
    let mut named: Vec<Adjustment> = Vec::new();
    for b in hands {
        if let Some(Body::HandStarted { adjustments, .. }) =
            b.records.first().map(|r| &r.event.body)
        {
            named.extend(adjustments.iter().cloned());
        }
    }
    let mut rulings: Vec<EntryRecord> = Vec::new();
    for a in &named {
        if rulings.iter().any(|r| r.hash == a.hash) {
            continue;
        }
        let stored = svc
            .store
            .disputes()
            .list_dispute_entries(&table.club_id, &a.dispute)
            .await?;
        // The entry as stored: the verifier names a changed one.
        if let Some(r) = stored
            .iter()
            .filter_map(|e| serde_json::from_value::<EntryRecord>(e.record.clone()).ok())
            .find(|r| r.entry.seq == a.seq)
        {
            rulings.push(r);
        }
    }
    let mut trailing = Vec::new();
    if !in_progress && !hands.is_empty() {
        let engine = registry(game).map_err(ApiError::internal)?;
        let hand_no = svc
            .store
            .next_hand_no(&table.club_id, &table.table_id)
            .await?;
        // A table whose last hand cannot be linked to has no next hand to carry anything
        // into: its file shows the hands as they are, and the verifier names the break.
        if let Ok((_, state)) = match_link(svc, &table.club_id, table, hand_no).await {
            if !engine.match_over(&state).map_err(ApiError::internal)? {
                let plan = crate::disputes::carry::plan(svc, table, engine, hand_no, state).await?;
                for c in plan.carried {
                    trailing.push(c.adjustment);
                    if !rulings.iter().any(|r| r.hash == c.entry.hash) {
                        rulings.push(c.entry);
                    }
                }
            }
        }
    }
    let mut keys: Vec<PublicKey> = Vec::new();
    for r in &rulings {
        if let Some(k) = svc.keys.public(&r.signer) {
            if !keys.contains(&k) {
                keys.push(k);
            }
        }
    }
    Ok((rulings, keys, trailing))
}

/// A finished hand's bundle, read from the store: its records and the service keys that
/// signed them.
///
/// The records are served as stored, even when they do not verify: the bundle is the
/// evidence, and the verifier names the first problem (a signer that is not one of the
/// service's keys among them: its key is not in `keys`).
pub(crate) async fn bundle_of(svc: &Service, row: &HandRow) -> ApiResult<Bundle> {
    let status = dealer_status(row.status).ok_or_else(|| quarantined_error(row))?;
    let records = records(reads_of(svc, row), &row.club_id, &row.hand_id, None).await?;
    let mut keys: Vec<PublicKey> = Vec::new();
    for r in &records {
        if let Some(k) = svc.keys.public(&r.signer) {
            if !keys.contains(&k) {
                keys.push(k);
            }
        }
    }
    let game: GameId = row.game.parse().map_err(ApiError::internal)?;
    Ok(Bundle::new(&row.hand_id, game, status, keys, records))
}
