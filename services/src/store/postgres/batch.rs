//! Group commit of one club's event writes.
//!
//! A durable COMMIT waits for its WAL flush (an fsync). Rather than one flush and a
//! handful of round trips per write, `append` and `create_hand` queue their write on
//! the club's queue; up to [`MAX_LEADERS`] tasks per club with queued writes (the
//! leaders) each take up to [`MAX_BATCH`] of them, at most one per hand and none whose
//! hand or idempotency key is in another leader's batch, and write them together:
//!
//! * a batch of plain appends (no idempotency key, no table update: nearly all of
//!   them) is ONE statement in autocommit (`plain_statement`): it advances every hand
//!   whose `next_seq` is the expected one, and for those inserts the events, their
//!   `log_queue` rows and the secrets;
//! * any other batch is one transaction of a few statements whatever its size:
//!   1. the idempotency records (one statement per write that has one): a used key
//!      refuses its write before it writes anything;
//!   2. each new hand with its player projection (one statement per new hand);
//!   3. every append's hand in one `UPDATE ... WHERE next_seq = expected`: it locks,
//!      checks and advances each hand; a hand it does not match refuses its write
//!      (conflict, or unknown hand), which has written nothing;
//!   4. the tables' new match states (one statement per hand that ends);
//!   5. all sealed secrets in one statement;
//!   6. last, all the events and their `log_queue` rows in one statement;
//!   7. COMMIT: one WAL flush for the whole batch.
//!
//! Plain appends and other writes go in separate batches, so that one hand starting or
//! ending does not send a batch of plain appends down the longer path.
//!
//! Each write gets its own outcome. A write refused in step 1 or 3 is left out and the
//! others go on. A write refused after it wrote something (a table conflict, or a
//! conflict after its idempotency record) rolls the attempt back, and the batch is
//! tried again without it. A write whose own statement (1, 2) hit a database error is
//! left out the same way and retried alone afterwards, on the one-transaction-per-write
//! path that gives it its exact error; a database error in a statement shared by the
//! whole batch (3, 5, 6, or the plain statement) sends every write of the batch there.
//! The guarantees are those of one write per transaction: `next_seq` checked under the
//! hand's row lock, all of a write or none of it.
//!
//! One difference: a caller that stops waiting (its future is dropped) no longer
//! cancels its write; the write still commits or fails with its batch.

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard};

use deadpool_postgres::{GenericClient, Pool, Transaction};
use serde_json::Value;
use tokio::sync::{oneshot, Notify};

use crate::store::HandUpdate;

use super::{
    append_one, client_of, create_hand_one, map_pg, new_hand_params, AppendRequest, EventRow,
    HandRow, IdemRow, SecretRow, StoreError, HAND_COLS,
};

/// Most writes in one transaction.
pub(super) const MAX_BATCH: usize = 64;

/// Most batches of one club in flight at once (each on its own connection). With
/// the club-wide order out of the write path, batches of one club no longer wait on
/// each other; 2 to 4 measured alike at 32 hands on 2 cores (ops/README.md), and
/// fewer, larger batches cost the database less CPU per event.
pub(super) const MAX_LEADERS: usize = 2;

/// Longest a leader waits for the writers of its last batch to come back (see
/// [`Writer::gather`]).
const LINGER: std::time::Duration = std::time::Duration::from_millis(2);

/// One queued write.
pub(super) enum Op {
    /// `Store::append`.
    Append(AppendRequest),
    /// `Store::create_hand`.
    Create {
        hand: HandRow,
        first_event: EventRow,
        secrets: Vec<SecretRow>,
        idem: Option<IdemRow>,
    },
}

impl Op {
    fn club(&self) -> &str {
        match self {
            Op::Append(r) => &r.club_id,
            Op::Create { hand, .. } => &hand.club_id,
        }
    }

    fn idem_key(&self) -> Option<&str> {
        match self {
            Op::Append(r) => r.idem.as_ref().map(|i| i.key.as_str()),
            Op::Create { idem, .. } => idem.as_ref().map(|i| i.key.as_str()),
        }
    }

    fn hand(&self) -> &str {
        match self {
            Op::Append(r) => &r.hand_id,
            Op::Create { hand, .. } => &hand.hand_id,
        }
    }

    fn events(&self) -> &[EventRow] {
        match self {
            Op::Append(r) => &r.events,
            Op::Create { first_event, .. } => std::slice::from_ref(first_event),
        }
    }

    /// The write in a transaction of its own.
    async fn alone(&self, pool: &Pool) -> Result<(), StoreError> {
        match self {
            Op::Append(r) => append_one(pool, r).await,
            Op::Create {
                hand,
                first_event,
                secrets,
                idem,
            } => create_hand_one(pool, hand, first_event, secrets, idem.as_ref()).await,
        }
    }
}

struct Pending {
    op: Op,
    done: oneshot::Sender<Result<(), StoreError>>,
}

#[derive(Default)]
struct ClubQueue {
    pending: VecDeque<Pending>,
    /// Woken on each new write, for a leader gathering its next batch.
    arrived: Arc<Notify>,
    /// Leader tasks running for the club.
    leaders: usize,
    /// Hands and idempotency keys of the batches being written: a write that names
    /// one waits for the next batch, so batches in flight never wait on each other's
    /// row locks.
    busy_hands: HashSet<String>,
    busy_keys: HashSet<String>,
}

/// The per-club queues of writes waiting for a batch. A club has an entry exactly while
/// a leader task runs for it or a write waits for one.
pub(super) struct Writer {
    clubs: Mutex<HashMap<String, ClubQueue>>,
    /// Most batches of one club in flight at once.
    max_leaders: usize,
}

impl Default for Writer {
    fn default() -> Self {
        Self::new(MAX_LEADERS)
    }
}

impl Writer {
    pub(super) fn new(max_leaders: usize) -> Self {
        Self {
            clubs: Mutex::default(),
            max_leaders: max_leaders.max(1),
        }
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<String, ClubQueue>> {
        self.clubs.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Queues a write and waits for its outcome, starting one more leader for the club
    /// if fewer than `max_leaders` run.
    pub(super) async fn submit(self: &Arc<Self>, pool: &Pool, op: Op) -> Result<(), StoreError> {
        let club = op.club().to_owned();
        let (done, outcome) = oneshot::channel();
        let start_leader = {
            let mut clubs = self.lock();
            let q = clubs.entry(club.clone()).or_default();
            q.pending.push_back(Pending { op, done });
            q.arrived.notify_one();
            let start = q.leaders < self.max_leaders;
            if start {
                q.leaders += 1;
            }
            start
        };
        if start_leader {
            // The guard travels with the task from before it is spawned: if the task
            // never runs (its runtime is shutting down), dropping it gives the count back.
            let guard = LeadGuard {
                writer: Arc::clone(self),
                club,
                held: Vec::new(),
                armed: true,
            };
            tokio::spawn(lead(guard, pool.clone()));
        }
        outcome.await.unwrap_or_else(|_| {
            Err(StoreError::Unavailable(
                "the club's writer stopped: the write's outcome is unknown".into(),
            ))
        })
    }

    /// Waits, at most [`LINGER`], until as many writes are queued as went in the last
    /// batch: the writers of a batch all get their outcome at once and come back with
    /// their next write a moment later, so a batch taken before they are back would be
    /// a small one. A lone writer (last batch of one) never waits.
    async fn gather(&self, club: &str, last: usize) {
        let deadline = tokio::time::Instant::now() + LINGER;
        // Bounded: each turn waits for a new write or for the deadline.
        for _ in 0..=MAX_BATCH {
            let arrived = {
                let clubs = self.lock();
                let Some(q) = clubs.get(club) else {
                    return;
                };
                if q.pending.len() >= last.min(MAX_BATCH) {
                    return;
                }
                Arc::clone(&q.arrived)
            };
            if tokio::time::timeout_at(deadline, arrived.notified())
                .await
                .is_err()
            {
                return;
            }
        }
    }

    /// The next batch: up to [`MAX_BATCH`] writes in queue order, at most one per hand
    /// and none whose hand or idempotency key is in a batch in flight (those wait, in
    /// order, for a later batch). Its hands and keys are marked busy. Empty when
    /// nothing can be taken: then this leader stops, and the club's entry goes with
    /// the last leader once nothing is queued.
    fn take(&self, club: &str) -> Vec<Pending> {
        let mut clubs = self.lock();
        let Some(q) = clubs.get_mut(club) else {
            return Vec::new();
        };
        let mut batch = Vec::new();
        let mut rest = VecDeque::new();
        // A batch is all plain appends (one statement) or all other writes (one
        // transaction of a few statements), of the kind of the oldest takeable write:
        // one hand starting or ending would otherwise send a whole batch of plain
        // appends down the slower path.
        let mut plain: Option<bool> = None;
        // Hands and keys of writes this pass leaves in the queue: a later write of the
        // same hand (or key) must not overtake them.
        let mut skipped_hands: HashSet<String> = HashSet::new();
        let mut skipped_keys: HashSet<String> = HashSet::new();
        while let Some(p) = q.pending.pop_front() {
            let hand = p.op.hand();
            let key = p.op.idem_key();
            let free = !q.busy_hands.contains(hand)
                && !skipped_hands.contains(hand)
                && key.is_none_or(|k| !q.busy_keys.contains(k) && !skipped_keys.contains(k));
            let takes = batch.len() < MAX_BATCH
                && free
                && *plain.get_or_insert(is_plain(&p.op)) == is_plain(&p.op);
            if takes {
                q.busy_hands.insert(hand.to_owned());
                if let Some(k) = key {
                    q.busy_keys.insert(k.to_owned());
                }
                batch.push(p);
            } else {
                skipped_hands.insert(hand.to_owned());
                if let Some(k) = key {
                    skipped_keys.insert(k.to_owned());
                }
                rest.push_back(p);
            }
        }
        q.pending = rest;
        if batch.is_empty() {
            q.leaders = q.leaders.saturating_sub(1);
            if q.leaders == 0 && q.pending.is_empty() {
                clubs.remove(club);
            }
        }
        batch
    }

    /// The batch is written: its hands and keys are free again.
    fn release(&self, club: &str, batch: &[Pending]) {
        let mut clubs = self.lock();
        if let Some(q) = clubs.get_mut(club) {
            for p in batch {
                q.busy_hands.remove(p.op.hand());
                if let Some(k) = p.op.idem_key() {
                    q.busy_keys.remove(k);
                }
            }
            // A write that waited for one of these hands may be takeable now.
            q.arrived.notify_one();
        }
    }
}

/// A leader's place in its club's `leaders` count, from before its task is spawned
/// until it stops. Should it stop otherwise than by finding nothing to take (a panic,
/// or a task dropped by its runtime), the guard gives the count back and frees the
/// hands and keys of the batch it held (whose callers see an unknown outcome); and if
/// no other leader runs, the club's entry goes, so that queued callers see an unknown
/// outcome too instead of waiting for ever (the next write starts new leaders).
struct LeadGuard {
    writer: Arc<Writer>,
    club: String,
    /// Hand and idempotency key of each write of the batch in flight.
    held: Vec<(String, Option<String>)>,
    armed: bool,
}

impl Drop for LeadGuard {
    fn drop(&mut self) {
        if !self.armed {
            return;
        }
        let mut clubs = self.writer.lock();
        let Some(q) = clubs.get_mut(&self.club) else {
            return;
        };
        q.leaders = q.leaders.saturating_sub(1);
        for (hand, key) in self.held.drain(..) {
            q.busy_hands.remove(&hand);
            if let Some(k) = key {
                q.busy_keys.remove(&k);
            }
        }
        if q.leaders == 0 {
            clubs.remove(&self.club);
        }
    }
}

/// A leader: writes its club's queued writes, batch after batch, until none is left
/// for it.
async fn lead(mut guard: LeadGuard, pool: Pool) {
    let writer = Arc::clone(&guard.writer);
    let club = guard.club.clone();
    let mut last = 0usize;
    loop {
        writer.gather(&club, last).await;
        let batch = writer.take(&club);
        if batch.is_empty() {
            // `take` has given the leader's count back.
            guard.armed = false;
            return;
        }
        guard.held = batch
            .iter()
            .map(|p| (p.op.hand().to_owned(), p.op.idem_key().map(str::to_owned)))
            .collect();
        last = batch.len();
        let outcomes = run(&pool, &batch).await;
        writer.release(&club, &batch);
        guard.held.clear();
        for (p, r) in batch.into_iter().zip(outcomes) {
            let _ = p.done.send(r);
        }
    }
}

/// A copy of an error, for each write of a batch whose commit failed.
fn copy_err(e: &StoreError) -> StoreError {
    match e {
        StoreError::Conflict { expected, found } => StoreError::Conflict {
            expected: *expected,
            found: *found,
        },
        StoreError::IdempotencyConflict => StoreError::IdempotencyConflict,
        StoreError::NotFound(w) => StoreError::NotFound(w),
        StoreError::Duplicate(w) => StoreError::Duplicate(w),
        StoreError::Unavailable(s) => StoreError::Unavailable(s.clone()),
        StoreError::Config(s) => StoreError::Config(s.clone()),
        StoreError::Internal(s) => StoreError::Internal(s.clone()),
    }
}

/// The outcome of every write of the batch, in batch order.
async fn run(pool: &Pool, batch: &[Pending]) -> Vec<Result<(), StoreError>> {
    // Decided outcomes; `None` once the batch is over means: retry alone.
    let mut outcomes: Vec<Option<Result<(), StoreError>>> = batch.iter().map(|_| None).collect();
    // A batch of plain appends only (the common case) goes in one statement; any other
    // batch in one transaction of a few statements (one WAL flush either way).
    let all_plain = batch.iter().all(|p| is_plain(&p.op));
    if all_plain {
        let idx: Vec<usize> = (0..batch.len()).collect();
        if let Ok(decided) = plain_statement(pool, batch, &idx).await {
            for (o, d) in outcomes.iter_mut().zip(decided) {
                *o = d;
            }
        }
    }
    // Writes left out of the next attempt (refused, decided, or to be retried alone).
    let mut out: Vec<bool> = vec![all_plain; batch.len()];
    // Bounded: every restart leaves out one more write.
    for _ in 0..=batch.len() {
        if out.iter().all(|&o| o) {
            break;
        }
        match attempt(pool, batch, &out, &mut outcomes).await {
            Attempt::Committed(accepted) => {
                for i in accepted {
                    outcomes[i] = Some(Ok(()));
                }
                break;
            }
            Attempt::Restart(i, refusal) => {
                out[i] = true;
                outcomes[i] = refusal.map(Err);
            }
            Attempt::Database => break,
            Attempt::CommitFailed(e) => {
                for (i, o) in outcomes.iter_mut().enumerate() {
                    if !out[i] && o.is_none() {
                        *o = Some(Err(copy_err(&e)));
                    }
                }
                break;
            }
        }
    }
    let mut results = Vec::with_capacity(batch.len());
    for (p, o) in batch.iter().zip(outcomes) {
        results.push(match o {
            Some(r) => r,
            None => p.op.alone(pool).await,
        });
    }
    results
}

/// An append that only writes its hand, events and secrets.
fn is_plain(op: &Op) -> bool {
    matches!(op, Op::Append(r) if r.idem.is_none() && r.table_update.is_none())
}

/// Plain appends in ONE statement, committed on its own (autocommit): advances every
/// hand whose `next_seq` is the expected one, then, for those, inserts the events, the
/// queue rows for the club's order and the secrets. One round trip and one WAL flush
/// for the lot. The outcome of each, in `idx` order (`None`: not written, to be
/// retried alone); `Err` when the statement failed (then each is retried alone;
/// nothing was written).
async fn plain_statement(
    pool: &Pool,
    batch: &[Pending],
    idx: &[usize],
) -> Result<Vec<Option<Result<(), StoreError>>>, StoreError> {
    let mut reqs: Vec<&AppendRequest> = idx
        .iter()
        .filter_map(|&i| match &batch[i].op {
            Op::Append(r) => Some(r),
            Op::Create { .. } => None,
        })
        .collect();
    // Hands are locked in hand id order, as everywhere.
    let mut order: Vec<usize> = (0..reqs.len()).collect();
    order.sort_by(|&a, &b| reqs[a].hand_id.cmp(&reqs[b].hand_id));
    let sorted: Vec<&AppendRequest> = order.iter().map(|&k| reqs[k]).collect();
    let club = sorted[0].club_id.as_str();
    let h = HandCols::new(&sorted);
    let events: Vec<&EventRow> = sorted.iter().flat_map(|r| r.events.iter()).collect();
    let e = EventCols::new(&events);
    let secrets: Vec<&SecretRow> = sorted.iter().flat_map(|r| r.new_secrets.iter()).collect();
    let x = SecretCols::new(&secrets);
    let client = client_of(pool).await?;
    let stmt = client
        .prepare_cached(
            concat!(
                "WITH u AS (",
                update_hands_sql!(),
                " RETURNING h.hand_id, h.next_seq, \
                     h.next_seq - ($3::int8[])[array_position($2::text[], h.hand_id)] AS n), \
             i AS ( \
                 INSERT INTO events \
                 (club_id, hand_id, seq, kind, hash, prev_hash, record, created_ms) \
                 SELECT $1, e.hand_id, e.seq, e.kind, e.hash, e.prev_hash, e.record, \
                        e.created_ms \
                 FROM unnest($9::text[], $10::int8[], $11::text[], $12::text[], $13::text[], \
                             $14::jsonb[], $15::int8[]) \
                      AS e(hand_id, seq, kind, hash, prev_hash, record, created_ms) \
                 WHERE e.hand_id IN (SELECT hand_id FROM u)), \
             q AS ( \
                 INSERT INTO log_queue (club_id, hand_id, from_seq, to_seq) \
                 SELECT $1, u.hand_id, u.next_seq - u.n, u.next_seq FROM u), \
             s AS ( \
                 INSERT INTO hand_secrets (club_id, hand_id, shuffle, sealed) \
                 SELECT $1, x.hand_id, x.shuffle, x.sealed \
                 FROM unnest($16::text[], $17::int4[], $18::bytea[]) AS x(hand_id, shuffle, sealed) \
                 WHERE x.hand_id IN (SELECT hand_id FROM u)) \
             SELECT hand_id FROM u"
            ),
        )
        .await
        .map_err(map_pg)?;
    let rows = client
        .query(
            &stmt,
            &[
                &club,
                &h.ids,
                &h.expected,
                &h.next,
                &h.status,
                &h.ended,
                &h.outcome,
                &h.reason,
                &e.hand,
                &e.seq,
                &e.kind,
                &e.hash,
                &e.prev,
                &e.record,
                &e.created,
                &x.hand,
                &x.shuffle,
                &x.sealed,
            ],
        )
        .await
        .map_err(map_pg)?;
    let mut done: HashSet<String> = HashSet::new();
    for r in &rows {
        done.insert(
            r.try_get(0)
                .map_err(|e| StoreError::Internal(e.to_string()))?,
        );
    }
    let missed: Vec<&str> = reqs
        .iter()
        .filter(|r| !done.contains(&r.hand_id))
        .map(|r| r.hand_id.as_str())
        .collect();
    // The statement has committed: from here on, the writes in `done` are written
    // whatever happens. Why the others were not is looked up; should that fail, they
    // are retried alone, which says.
    let found: Option<HashMap<String, i64>> = if missed.is_empty() {
        Some(HashMap::new())
    } else {
        hands_next_seq(&client, club, &missed).await.ok()
    };
    Ok(reqs
        .drain(..)
        .map(|r| {
            if done.contains(&r.hand_id) {
                return Some(Ok(()));
            }
            let found = found.as_ref()?;
            Some(Err(match found.get(&r.hand_id) {
                None => StoreError::NotFound("hand"),
                Some(&n) => StoreError::Conflict {
                    expected: r.expected_seq,
                    found: n,
                },
            }))
        })
        .collect())
}

/// How one attempt at a batch's transaction ended.
enum Attempt {
    /// Committed: these writes are in (the others were refused without writing).
    Committed(Vec<usize>),
    /// Rolled back because write `i` cannot go in after it wrote something: refused
    /// with this error, or (`None`) to be retried alone for a database error of its
    /// own. The batch is tried again without it.
    Restart(usize, Option<StoreError>),
    /// Rolled back on a database error no single write can be blamed for: every
    /// undecided write is retried alone.
    Database,
    /// The COMMIT failed: the outcome of the writes in it is unknown.
    CommitFailed(StoreError),
}

/// One transaction for the batch's writes not left `out`. Refusals found before a
/// write wrote anything are recorded in `outcomes` and do not stop the others.
async fn attempt(
    pool: &Pool,
    batch: &[Pending],
    out: &[bool],
    outcomes: &mut [Option<Result<(), StoreError>>],
) -> Attempt {
    let Ok(mut client) = client_of(pool).await else {
        return Attempt::Database;
    };
    let Ok(tx) = client.transaction().await else {
        return Attempt::Database;
    };
    let result = stage_all(&tx, batch, out, outcomes).await;
    match result {
        Ok(accepted) if accepted.is_empty() => {
            let _ = tx.rollback().await;
            Attempt::Committed(accepted)
        }
        Ok(accepted) => match tx.commit().await {
            Ok(()) => Attempt::Committed(accepted),
            Err(e) => Attempt::CommitFailed(map_pg(e)),
        },
        Err(a) => {
            let _ = tx.rollback().await;
            a
        }
    }
}

fn restart_alone(i: usize) -> impl Fn(tokio_postgres::Error) -> Attempt {
    move |_| Attempt::Restart(i, None)
}

fn database(_: tokio_postgres::Error) -> Attempt {
    Attempt::Database
}

/// The statements of one attempt, up to (not including) COMMIT. Locks are taken in the
/// order idempotency keys, hands (by hand id), tables, club, as a single write does.
async fn stage_all(
    tx: &Transaction<'_>,
    batch: &[Pending],
    out: &[bool],
    outcomes: &mut [Option<Result<(), StoreError>>],
) -> Result<Vec<usize>, Attempt> {
    let mut live: Vec<usize> = (0..batch.len())
        .filter(|&i| !out[i] && outcomes[i].is_none())
        .collect();
    live.sort_by(|&a, &b| batch[a].op.hand().cmp(batch[b].op.hand()));

    // 1. Idempotency keys: a used one refuses its write before it writes anything.
    let mut wrote_idem = vec![false; batch.len()];
    let mut kept = Vec::with_capacity(live.len());
    for i in live {
        let idem = match &batch[i].op {
            Op::Append(r) => r.idem.as_ref(),
            Op::Create { idem, .. } => idem.as_ref(),
        };
        if let Some(idem) = idem {
            if !stage_idem(tx, idem).await.map_err(restart_alone(i))? {
                outcomes[i] = Some(Err(StoreError::IdempotencyConflict));
                continue;
            }
            wrote_idem[i] = true;
        }
        kept.push(i);
    }
    let live = kept;

    // 2. New hands, one statement each (hand row and player projection).
    for &i in &live {
        if let Op::Create { hand, .. } = &batch[i].op {
            stage_create(tx, hand).await.map_err(restart_alone(i))?;
        }
    }

    // 3. Every append's hand, in one statement: locked, checked against expected_seq
    //    and advanced where it matches.
    let appends: Vec<usize> = live
        .iter()
        .copied()
        .filter(|&i| matches!(batch[i].op, Op::Append(_)))
        .collect();
    let mut tables: HashMap<String, String> = HashMap::new();
    if !appends.is_empty() {
        let reqs: Vec<&AppendRequest> = appends
            .iter()
            .filter_map(|&i| match &batch[i].op {
                Op::Append(r) => Some(r),
                Op::Create { .. } => None,
            })
            .collect();
        for row in update_hands(tx, &reqs).await.map_err(database)? {
            let hand: String = row.try_get(0).map_err(|_| Attempt::Database)?;
            let table: String = row.try_get(1).map_err(|_| Attempt::Database)?;
            tables.insert(hand, table);
        }
        let missed: Vec<&str> = reqs
            .iter()
            .filter(|r| !tables.contains_key(&r.hand_id))
            .map(|r| r.hand_id.as_str())
            .collect();
        if !missed.is_empty() {
            let found = hands_next_seq(tx, &reqs[0].club_id, &missed)
                .await
                .map_err(database)?;
            for &i in &appends {
                let Op::Append(r) = &batch[i].op else {
                    continue;
                };
                if tables.contains_key(&r.hand_id) {
                    continue;
                }
                let e = match found.get(&r.hand_id) {
                    None => StoreError::NotFound("hand"),
                    Some(&n) => StoreError::Conflict {
                        expected: r.expected_seq,
                        found: n,
                    },
                };
                if wrote_idem[i] {
                    return Err(Attempt::Restart(i, Some(e)));
                }
                outcomes[i] = Some(Err(e));
            }
        }
    }
    let live: Vec<usize> = live
        .into_iter()
        .filter(|&i| match &batch[i].op {
            Op::Append(r) => tables.contains_key(&r.hand_id),
            Op::Create { .. } => true,
        })
        .collect();

    // 4. Tables' new match states (at the end of a hand).
    for &i in &live {
        let Op::Append(r) = &batch[i].op else {
            continue;
        };
        if let Some(tu) = &r.table_update {
            if tables.get(&r.hand_id) != Some(&tu.table_id) {
                return Err(Attempt::Restart(
                    i,
                    Some(StoreError::Internal(
                        "append: table update for another table".into(),
                    )),
                ));
            }
            if let Some(e) = update_table(tx, r).await.map_err(database)? {
                return Err(Attempt::Restart(i, Some(e)));
            }
        }
    }

    // 5. Sealed secrets of every write, in one statement.
    let secrets: Vec<&SecretRow> = live
        .iter()
        .flat_map(|&i| match &batch[i].op {
            Op::Append(r) => r.new_secrets.iter(),
            Op::Create { secrets, .. } => secrets.iter(),
        })
        .collect();
    insert_secrets(tx, &secrets).await.map_err(database)?;

    // 6. Last: every event, and the queue rows for the club's order.
    let mut accepted = live;
    accepted.sort_unstable();
    if !accepted.is_empty()
        && !insert_events(tx, batch, &accepted)
            .await
            .map_err(database)?
    {
        // Not every event went in: every write alone, which reports why.
        return Err(Attempt::Database);
    }
    Ok(accepted)
}

/// Records the idempotency key: `false` if it is used.
async fn stage_idem(tx: &Transaction<'_>, idem: &IdemRow) -> Result<bool, tokio_postgres::Error> {
    let stmt = tx
        .prepare_cached(
            "INSERT INTO idempotency_keys \
             (club_id, key, request_hash, status, response, created_ms) \
             VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (club_id, key) DO NOTHING",
        )
        .await?;
    let n = tx
        .execute(
            &stmt,
            &[
                &idem.club_id,
                &idem.key,
                &idem.request_hash,
                &idem.status,
                &idem.response,
                &idem.created_ms,
            ],
        )
        .await?;
    Ok(n > 0)
}

/// A new hand's row and player projection, in one statement.
async fn stage_create(tx: &Transaction<'_>, hand: &HandRow) -> Result<(), tokio_postgres::Error> {
    let stmt = tx
        .prepare_cached(&format!(
            "WITH h AS (INSERT INTO hands ({HAND_COLS}) \
                        VALUES ($1, $2, $3, $4, $5, $6, 1, $7, $8, $9, $10, $11) \
                        RETURNING club_id, hand_id) \
             INSERT INTO hand_players (club_id, hand_id, seat, player) \
             SELECT h.club_id, h.hand_id, (p.ord - 1)::smallint, p.player \
             FROM h, unnest($7::text[]) WITH ORDINALITY AS p(player, ord)"
        ))
        .await?;
    let status = hand.status.as_str();
    tx.execute(&stmt, &new_hand_params(hand, &status)).await?;
    Ok(())
}

/// Advances every hand whose `next_seq` is the expected one; returns `(hand_id,
/// table_id)` of those.
///
/// No join with an `unnest` of the arrays: each hand finds its values with
/// `array_position` (the ids are distinct), and `hand_id = ANY($2)` puts the batch's ids
/// in the index condition. Both join forms tried did much more work than the update:
/// on a young table with stale statistics PostgreSQL walked all of the club's hands
/// per batch, and with the ids in the index condition it still re-scanned the
/// `unnest` for every hand, building a whole-row copy of each of its rows for
/// `UPDATE ... FROM` (O(n²) per batch; 20% of the backends' CPU in the append
/// benchmark). The same holds for the plain-append statement.
async fn update_hands(
    tx: &Transaction<'_>,
    reqs: &[&AppendRequest],
) -> Result<Vec<tokio_postgres::Row>, tokio_postgres::Error> {
    let h = HandCols::new(reqs);
    let stmt = tx
        .prepare_cached(concat!(
            update_hands_sql!(),
            " RETURNING h.hand_id, h.table_id"
        ))
        .await?;
    tx.query(
        &stmt,
        &[
            &reqs[0].club_id,
            &h.ids,
            &h.expected,
            &h.next,
            &h.status,
            &h.ended,
            &h.outcome,
            &h.reason,
        ],
    )
    .await
}

/// The hand update shared by both batch paths: parameters `$1` club, `$2` hand ids,
/// `$3` expected `next_seq`, `$4` new `next_seq`, `$5`..`$8` status, ended_ms, outcome,
/// abandon reason (NULL: unchanged), as [`HandCols`] lists them. See [`update_hands`]
/// for why it is written without a join.
macro_rules! update_hands_sql {
    () => {
        "UPDATE hands AS h SET \
             next_seq = ($4::int8[])[array_position($2::text[], h.hand_id)], \
             status = COALESCE(($5::text[])[array_position($2::text[], h.hand_id)], \
                               h.status), \
             ended_ms = COALESCE(($6::int8[])[array_position($2::text[], h.hand_id)], \
                                 h.ended_ms), \
             outcome = COALESCE(($7::jsonb[])[array_position($2::text[], h.hand_id)], \
                                h.outcome), \
             abandon_reason = COALESCE( \
                 ($8::text[])[array_position($2::text[], h.hand_id)], h.abandon_reason) \
         WHERE h.club_id = $1 AND h.hand_id = ANY($2::text[]) \
           AND h.next_seq = ($3::int8[])[array_position($2::text[], h.hand_id)]"
    };
}
use update_hands_sql;

/// The appends' hand columns, one element per append, for [`update_hands_sql`].
struct HandCols<'a> {
    ids: Vec<&'a str>,
    expected: Vec<i64>,
    next: Vec<i64>,
    status: Vec<Option<&'a str>>,
    ended: Vec<Option<i64>>,
    outcome: Vec<Option<&'a Value>>,
    reason: Vec<Option<&'a str>>,
}

impl<'a> HandCols<'a> {
    fn new(reqs: &[&'a AppendRequest]) -> Self {
        let hu = |r: &&'a AppendRequest| -> Option<&'a HandUpdate> { r.hand_update.as_ref() };
        HandCols {
            ids: reqs.iter().map(|r| r.hand_id.as_str()).collect(),
            expected: reqs.iter().map(|r| r.expected_seq).collect(),
            next: reqs
                .iter()
                .map(|r| r.expected_seq + i64::try_from(r.events.len()).unwrap_or(i64::MAX))
                .collect(),
            status: reqs
                .iter()
                .map(|r| hu(r).map(|u| u.status.as_str()))
                .collect(),
            ended: reqs
                .iter()
                .map(|r| hu(r).and_then(|u| u.ended_ms))
                .collect(),
            outcome: reqs
                .iter()
                .map(|r| hu(r).and_then(|u| u.outcome.as_ref()))
                .collect(),
            reason: reqs
                .iter()
                .map(|r| hu(r).and_then(|u| u.abandon_reason.as_deref()))
                .collect(),
        }
    }
}

/// Event columns, one element per event (the club is a parameter of its own).
struct EventCols<'a> {
    hand: Vec<&'a str>,
    seq: Vec<i64>,
    kind: Vec<&'a str>,
    hash: Vec<&'a str>,
    prev: Vec<&'a str>,
    record: Vec<&'a Value>,
    created: Vec<i64>,
}

impl<'a> EventCols<'a> {
    fn new(events: &[&'a EventRow]) -> Self {
        EventCols {
            hand: events.iter().map(|e| e.hand_id.as_str()).collect(),
            seq: events.iter().map(|e| e.seq).collect(),
            kind: events.iter().map(|e| e.kind.as_str()).collect(),
            hash: events.iter().map(|e| e.hash.as_str()).collect(),
            prev: events.iter().map(|e| e.prev_hash.as_str()).collect(),
            record: events.iter().map(|e| &e.record).collect(),
            created: events.iter().map(|e| e.created_ms).collect(),
        }
    }
}

/// Sealed-secret columns, one element per secret (the club is a parameter of its own).
struct SecretCols<'a> {
    hand: Vec<&'a str>,
    shuffle: Vec<i32>,
    sealed: Vec<&'a [u8]>,
}

impl<'a> SecretCols<'a> {
    fn new(secrets: &[&'a SecretRow]) -> Self {
        SecretCols {
            hand: secrets.iter().map(|s| s.hand_id.as_str()).collect(),
            shuffle: secrets.iter().map(|s| s.shuffle).collect(),
            sealed: secrets.iter().map(|s| s.sealed.as_slice()).collect(),
        }
    }
}

/// `next_seq` of the hands that exist among `ids`.
async fn hands_next_seq(
    client: &impl GenericClient,
    club: &str,
    ids: &[&str],
) -> Result<HashMap<String, i64>, tokio_postgres::Error> {
    let stmt = client
        .prepare_cached(
            "SELECT hand_id, next_seq FROM hands WHERE club_id = $1 AND hand_id = ANY($2::text[])",
        )
        .await?;
    let rows = client.query(&stmt, &[&club, &ids]).await?;
    rows.iter()
        .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
        .collect()
}

/// The table's new match state if its version is the expected one; else why not.
async fn update_table(
    tx: &Transaction<'_>,
    req: &AppendRequest,
) -> Result<Option<StoreError>, tokio_postgres::Error> {
    let Some(tu) = &req.table_update else {
        return Ok(None);
    };
    let stmt = tx
        .prepare_cached(
            "UPDATE game_tables \
             SET match_state = $3, match_version = match_version + 1 \
             WHERE club_id = $1 AND table_id = $2 AND match_version = $4",
        )
        .await?;
    let updated = tx
        .execute(
            &stmt,
            &[
                &req.club_id,
                &tu.table_id,
                &tu.match_state,
                &tu.expected_match_version,
            ],
        )
        .await?;
    if updated > 0 {
        return Ok(None);
    }
    let stmt = tx
        .prepare_cached(
            "SELECT match_version FROM game_tables WHERE club_id = $1 AND table_id = $2",
        )
        .await?;
    Ok(Some(
        match tx.query_opt(&stmt, &[&req.club_id, &tu.table_id]).await? {
            None => StoreError::NotFound("table"),
            Some(r) => StoreError::Conflict {
                expected: tu.expected_match_version,
                found: r.try_get(0)?,
            },
        },
    ))
}

async fn insert_secrets(
    tx: &Transaction<'_>,
    secrets: &[&SecretRow],
) -> Result<(), tokio_postgres::Error> {
    if secrets.is_empty() {
        return Ok(());
    }
    // A batch is one club's.
    let club = secrets[0].club_id.as_str();
    let x = SecretCols::new(secrets);
    let stmt = tx
        .prepare_cached(
            "INSERT INTO hand_secrets (club_id, hand_id, shuffle, sealed) \
             SELECT $1, x.* FROM unnest($2::text[], $3::int4[], $4::bytea[]) \
                  AS x(hand_id, shuffle, sealed)",
        )
        .await?;
    tx.execute(&stmt, &[&club, &x.hand, &x.shuffle, &x.sealed])
        .await?;
    Ok(())
}

/// The last statement of the batch: inserts the events of every accepted write, and
/// queues each write's events for the club's order. `false` if not every event went in.
async fn insert_events(
    tx: &Transaction<'_>,
    batch: &[Pending],
    accepted: &[usize],
) -> Result<bool, tokio_postgres::Error> {
    let events: Vec<&EventRow> = accepted
        .iter()
        .flat_map(|&i| batch[i].op.events())
        .collect();
    let club = batch[accepted[0]].op.club();
    let n = i64::try_from(events.len()).unwrap_or(i64::MAX);
    // One queue row per write: its hand's events from..to.
    let spans: Vec<(&str, i64, i64)> = accepted
        .iter()
        .filter_map(|&i| {
            let evs = batch[i].op.events();
            Some((
                evs.first()?.hand_id.as_str(),
                evs.first()?.seq,
                evs.last()?.seq + 1,
            ))
        })
        .collect();
    let q_hand: Vec<&str> = spans.iter().map(|s| s.0).collect();
    let q_from: Vec<i64> = spans.iter().map(|s| s.1).collect();
    let q_to: Vec<i64> = spans.iter().map(|s| s.2).collect();
    let e = EventCols::new(&events);
    let stmt = tx
        .prepare_cached(
            "WITH q AS ( \
                 INSERT INTO log_queue (club_id, hand_id, from_seq, to_seq) \
                 SELECT $1, q.* FROM unnest($2::text[], $3::int8[], $4::int8[]) \
                      AS q(hand_id, from_seq, to_seq)) \
             INSERT INTO events \
             (club_id, hand_id, seq, kind, hash, prev_hash, record, created_ms) \
             SELECT $1, e.* \
             FROM unnest($5::text[], $6::int8[], $7::text[], $8::text[], $9::text[], \
                         $10::jsonb[], $11::int8[]) \
                  AS e(hand_id, seq, kind, hash, prev_hash, record, created_ms)",
        )
        .await?;
    let inserted = tx
        .execute(
            &stmt,
            &[
                &club, &q_hand, &q_from, &q_to, &e.hand, &e.seq, &e.kind, &e.hash, &e.prev,
                &e.record, &e.created,
            ],
        )
        .await?;
    Ok(i64::try_from(inserted).ok() == Some(n))
}
