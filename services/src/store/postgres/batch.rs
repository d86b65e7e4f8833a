//! Group commit of one club's event writes.
//!
//! A durable COMMIT waits for its WAL flush (an fsync). Rather than one flush and a
//! handful of round trips per write, `append` and `create_hand` queue their write on
//! the club's queue; up to [`MAX_LEADERS`] tasks per club with queued writes (the
//! leaders) each take up to [`MAX_BATCH`] of them, at most one per hand and none whose
//! hand or idempotency key is in another leader's batch, and write them together, on
//! one pooled connection per batch (the pool hands out the connection returned last, so
//! the leaders' few connections keep their prepared statements and plans warm):
//!
//! * a batch of plain writes (appends with no idempotency key and no hand or table
//!   update, whatever secrets and inputs they carry: nearly all of them; and new hands
//!   with no idempotency key) is ONE statement in autocommit (`plain_statement`): it
//!   inserts the new hands with their seats and their cursors for the club's order
//!   (`log_cursors`), the first event of each append where its hand's log ends just
//!   before it and its hand has not ended, and for the hands that went in the other
//!   events, the secrets and the sealed inputs (the openings of private actions). Should a new hand be refused (a unique violation), the statement fails
//!   as a whole and every write of the batch is retried alone, which says why. When
//!   the writer knows from its own commits that every append of the batch goes right
//!   after its hand's last event ([`LogEnds`]: the common case), nothing is checked
//!   and every row goes in, or a unique violation fails the statement as above;
//! * a batch of hand ends (appends with a hand or table update) with no idempotency key,
//!   every one known to go right after its hand's last event, is one statement too: the
//!   plain statement with each hand's row and table's state updated in it (each by its
//!   primary key), and a check that every one of them was, which raises
//!   `dealer_refuse` (V15) when not, so that the statement fails as a whole and every
//!   write is retried alone, which says why (a stale table version, a quarantined hand);
//! * any other batch is one transaction of a few statements whatever its size:
//!   1. the idempotency records (one statement per write that has one): a used key
//!      refuses its write before it writes anything;
//!   2. each new hand with its player projection and its cursor (one statement per new
//!      hand);
//!   3. every append's first event in one statement, as in the plain statement; an
//!      append whose first event does not go in is refused (conflict, or unknown hand),
//!      having written nothing else;
//!   4. the rows of hands that end and the tables' new match states (one statement
//!      each per hand that ends);
//!   5. all sealed secrets in one statement, all sealed inputs in another;
//!   6. last, all the other events in one statement;
//!   7. COMMIT: one WAL flush for the whole batch.
//!
//!   Steps 4 to 6 are sent together (pipelined on the connection): the hand rows,
//!   secrets, inputs and events cost one round trip, and a table's update follows its
//!   hand row's answer (it checks the hand's table first).
//!
//! A hand's writers are ordered by the primary key of `events`, not by the hand's row:
//! an append's first event goes in only if the hand's last committed event is the one
//! before it and no other writer has its `seq`; a writer of the same `seq` still in
//! flight is waited for (`ON CONFLICT DO NOTHING`), and a later `seq` cannot go in
//! before this one commits. So the hand's row is written when the hand starts and when
//! it ends, and not by the appends in between; its stored `next_seq` is a lower bound,
//! and readers take the hand's next `seq` from its last event (`HAND_READ`).
//!
//! Plain writes and other writes go in separate batches, with leaders of their own, so
//! that one hand ending neither sends a batch of plain writes down the longer path nor
//! holds up their leaders.
//!
//! Each write gets its own outcome. A write refused in step 1 or 3 is left out and the
//! others go on. A write refused after it wrote something (a table conflict, or a
//! conflict after its idempotency record) rolls the attempt back, and the batch is
//! tried again without it. A write whose own statement (1, 2) hit a database error is
//! left out the same way and retried alone afterwards, on the one-transaction-per-write
//! path that gives it its exact error; a database error in a statement shared by the
//! whole batch (3, 4, 5, 6, or the plain statement) sends every write of the batch
//! there. The guarantees are those of one write per transaction: the hand's next `seq`
//! checked against the stored events, all of a write or none of it.
//!
//! One difference: a caller that stops waiting (its future is dropped) no longer
//! cancels its write; the write still commits or fails with its batch.

use std::collections::{HashMap, HashSet, VecDeque};
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::Poll;

use deadpool_postgres::{GenericClient, Object, Pool, Transaction};
use serde_json::Value;
use tokio::sync::{oneshot, Notify};
use tokio_postgres::types::ToSql;

use super::{
    append_one, client_of, create_hand_one, map_pg, new_hand_params, next_seq_of, AppendRequest,
    EventRow, HandRow, IdemRow, InputRow, SecretRow, StoreError, TableUpdate, HAND_COLS,
};
use crate::store::HandStatus;
use crate::store::RecordJson;

/// Most writes in one transaction.
pub(super) const MAX_BATCH: usize = 64;

/// Most batches of plain writes of one club in flight at once (each on its own
/// connection). With the club-wide order out of the write path, batches of one club no
/// longer wait on each other; more leaders keep more of the machine busy but make
/// smaller batches, which cost the database more CPU per event: at 32 hands on 2 cores
/// 2, 3 and 4 measured alike (ops/README.md).
pub(super) const MAX_LEADERS: usize = 2;

/// Most batches of other writes (hand ends, writes with an idempotency key) of one
/// club in flight at once, besides the plain ones: such a batch is one statement (hand
/// ends the writer knows the log ends of) or a transaction of a few round trips, and holding one of the plain leaders for it stalled the plain
/// writes behind it (a fifth of the leaders' time went to ends, 1 write in 50).
pub(super) const MAX_OTHER_LEADERS: usize = 1;

/// The two kinds of batch, each with its own leaders: plain writes (one statement) and
/// the others (one transaction).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Plain = 0,
    Other = 1,
}

impl Kind {
    fn of(op: &Op) -> Kind {
        if is_plain(op) {
            Kind::Plain
        } else {
            Kind::Other
        }
    }
}

/// Longest a leader waits for the writers of its last batch to come back (see
/// [`Writer::gather`]).
const LINGER: std::time::Duration = std::time::Duration::from_millis(2);

/// One queued write.
// An append is moved into the queue once and out of it once: boxing it would add an
// allocation per append for no gain (clippy 1.95 started to flag the size difference).
#[allow(clippy::large_enum_variant)]
pub(super) enum Op {
    /// `Store::append`.
    Append(AppendRequest),
    /// `Store::create_hand`.
    Create {
        /// Boxed: a hand row is several times the size of the other variant.
        hand: Box<HandRow>,
        /// Its events from `seq` 0.
        events: Vec<EventRow>,
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
            Op::Create { events, .. } => events,
        }
    }

    /// The write in a transaction of its own, on the leader's connection.
    async fn alone(&self, client: &mut Object) -> Result<(), StoreError> {
        match self {
            Op::Append(r) => append_one(client, r).await,
            Op::Create {
                hand,
                events,
                secrets,
                idem,
            } => create_hand_one(client, hand, events, secrets, idem.as_ref()).await,
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
    /// By [`Kind`]: woken on each new write of the kind, and when a batch frees its
    /// hands, for a leader of the kind gathering its next batch (one notify for all
    /// leaders woke one of another kind as often as not).
    arrived: [Arc<Notify>; 2],
    /// Leader tasks running for the club, by [`Kind`].
    leaders: [usize; 2],
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
    /// Most batches of one club in flight at once, by [`Kind`].
    max_leaders: [usize; 2],
    /// Where this writer knows hands' logs to end (see [`LogEnds`]).
    ends: Mutex<LogEnds>,
}

impl Default for Writer {
    fn default() -> Self {
        Self {
            clubs: Mutex::default(),
            max_leaders: [MAX_LEADERS, MAX_OTHER_LEADERS],
            ends: Mutex::default(),
        }
    }
}

/// Most hands whose log end a [`Writer`] remembers; past it, the club's entries are
/// forgotten (a forgotten hand's next append is checked against the database, once).
const MAX_LOG_ENDS: usize = 1 << 16;

/// The next `seq` of in-progress hands, as this writer's own committed writes left
/// them: by club, then hand.
///
/// A hand's events are append-only, so when this writer has committed a hand's events
/// up to `n - 1`, event `n - 1` exists for ever: an append of that hand at
/// `expected_seq = n` leaves no gap whoever else writes the hand. Such an append is
/// *known* and skips the check of the hand's log end (one descent of `events_pkey`,
/// a tenth of the database's CPU per append in the benchmark): its events go in
/// unchecked, and the primary key of `events` refuses them should another writer (a
/// second service process, or a second store in this one) have taken that `seq`
/// meanwhile, which fails the batch's statement and sends its writes down the checked
/// path one by one (see [`plain_statement`]). Within one writer no two batches hold one
/// hand (`busy_hands`), so that happens only between writers.
///
/// An entry is written only from a committed outcome, before the batch's hands are
/// released, and dropped on any other outcome (refused, failed or unknown) and when the
/// hand ends.
///
/// This rests on the database keeping what it committed. A failover to a replica that
/// had not received the last commits, or a restore to an earlier point, would leave
/// entries ahead of the log, and an append at such an entry would leave a gap (which
/// verification reports, as it reports events deleted behind the store's back). Either
/// breaks the store's connections, and the pool's new ones forget every entry: each
/// connection the pool opens starts a new generation of the cache, and a batch that
/// ran across a new generation notes nothing.
#[derive(Default)]
struct LogEnds {
    clubs: HashMap<String, HashMap<String, i64>>,
    /// Bumped, and every entry forgotten, whenever the pool opens a connection (see
    /// [`Writer::connection_opened`]); a batch notes its outcomes only if no connection
    /// was opened while it ran.
    generation: u64,
}

impl LogEnds {
    fn get(&self, club: &str, hand: &str) -> Option<i64> {
        self.clubs.get(club)?.get(hand).copied()
    }

    /// How many hands it remembers.
    fn len(&self) -> usize {
        self.clubs.values().map(HashMap::len).sum()
    }

    fn set(&mut self, club: &str, hand: &str, next: i64) {
        if self.get(club, hand).is_none() && self.len() >= MAX_LOG_ENDS {
            self.clubs.remove(club);
            if self.len() >= MAX_LOG_ENDS {
                self.clubs.clear();
            }
        }
        self.clubs
            .entry(club.to_owned())
            .or_default()
            .insert(hand.to_owned(), next);
    }

    /// Forgets every entry and starts a new generation.
    fn reset(&mut self) {
        self.clubs.clear();
        self.generation = self.generation.wrapping_add(1);
    }

    fn forget(&mut self, club: &str, hand: &str) {
        if let Some(hands) = self.clubs.get_mut(club) {
            hands.remove(hand);
            if hands.is_empty() {
                self.clubs.remove(club);
            }
        }
    }
}

impl Writer {
    fn lock(&self) -> MutexGuard<'_, HashMap<String, ClubQueue>> {
        self.clubs.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn ends(&self) -> MutexGuard<'_, LogEnds> {
        self.ends.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Whether every append of the batch is known to go right after its hand's
    /// committed log end (see [`LogEnds`]); new hands need no check either.
    fn all_known(&self, club: &str, batch: &[Pending]) -> bool {
        let ends = self.ends();
        batch.iter().all(|p| match &p.op {
            Op::Append(r) => ends.get(club, &r.hand_id) == Some(r.expected_seq),
            Op::Create { .. } => true,
        })
    }

    /// The cache's generation, read before a batch runs (see [`LogEnds`]).
    fn generation(&self) -> u64 {
        self.ends().generation
    }

    /// The pool has opened a connection: the database may not be the one the cache's
    /// entries were learned from (see [`LogEnds`]).
    pub(super) fn connection_opened(&self) {
        self.ends().reset();
    }

    /// Notes where the batch's hands' logs end after its outcomes (see [`LogEnds`]),
    /// unless a connection was opened since `generation` was read.
    fn note_ends(
        &self,
        club: &str,
        generation: u64,
        batch: &[Pending],
        outcomes: &[Result<(), StoreError>],
    ) {
        let mut ends = self.ends();
        if ends.generation != generation {
            return;
        }
        for (p, o) in batch.iter().zip(outcomes) {
            let (hand, next, open) = match &p.op {
                Op::Append(r) => (
                    r.hand_id.as_str(),
                    r.expected_seq + i64::try_from(r.events.len()).unwrap_or(i64::MAX),
                    r.hand_update
                        .as_ref()
                        .is_none_or(|u| u.status == HandStatus::InProgress),
                ),
                Op::Create { hand, events, .. } => (
                    hand.hand_id.as_str(),
                    i64::try_from(events.len()).unwrap_or(i64::MAX),
                    hand.status == HandStatus::InProgress,
                ),
            };
            if o.is_ok() && open {
                ends.set(club, hand, next);
            } else {
                ends.forget(club, hand);
            }
        }
    }

    /// Queues a write and waits for its outcome, starting one more leader of its kind
    /// for the club if fewer than `max_leaders` of that kind run.
    ///
    /// The leader it starts runs in the caller's own task until the caller has its
    /// outcome, and only what is left of it (more batches, queued meanwhile) is spawned
    /// then (see [`InlineLeader`]). At low load, where nearly every write finds no leader
    /// running, a write then goes from its caller to the database and back without
    /// crossing to another task (and often another thread) and back: on a runtime of two
    /// worker threads such crossings cost the load generator about a third of its CPU per
    /// event at one hand (ops/README.md, seventh round).
    pub(super) async fn submit(self: &Arc<Self>, pool: &Pool, op: Op) -> Result<(), StoreError> {
        let club = op.club().to_owned();
        let kind = Kind::of(&op);
        let (done, mut outcome) = oneshot::channel();
        let start_leader = {
            let mut clubs = self.lock();
            let q = clubs.entry(club.clone()).or_default();
            q.pending.push_back(Pending { op, done });
            q.arrived[kind as usize].notify_one();
            let start = q.leaders[kind as usize] < self.max_leaders[kind as usize];
            if start {
                q.leaders[kind as usize] += 1;
            }
            start
        };
        let stopped = || {
            Err(StoreError::Unavailable(
                "the club's writer stopped: the write's outcome is unknown".into(),
            ))
        };
        if start_leader {
            let mut leader =
                InlineLeader(Some(Box::pin(lead(self.guard(club, kind), pool.clone()))));
            let got = std::future::poll_fn(|cx| {
                // The leader first: having sent this write's outcome it goes on, in the
                // same poll, to take the club's next batch, and when nothing is queued
                // it stops there, so that this caller's next write finds no leader and
                // leads again, in its own task.
                if let Some(f) = leader.0.as_mut() {
                    if f.as_mut().poll(cx).is_ready() {
                        leader.0 = None;
                    }
                }
                if leader.0.is_none() {
                    // The leader found nothing it could take (this write's hand is in
                    // another leader's batch), or stopped having sent the outcome.
                    return Poll::Ready(None);
                }
                // While the leader runs here, the outcome is looked at without leaving
                // this task's waker with it: the leader sends it from inside this very
                // poll, and a task woken while it runs is rescheduled as if it had
                // yielded, which on a runtime of several workers wakes a parked one
                // (a futex wake and a thread switch per write: about a third of the
                // load generator's CPU per append at one hand, ops/README.md, eighth
                // round). Another leader that took this write (it was queued where
                // another leader could see it) is noticed at this task's next wake-up,
                // which the running leader's own work brings (a database answer, a
                // pooled connection, or at most `LINGER`).
                match outcome.try_recv() {
                    Ok(r) => Poll::Ready(Some(Ok(r))),
                    Err(oneshot::error::TryRecvError::Empty) => Poll::Pending,
                    Err(oneshot::error::TryRecvError::Closed) => Poll::Ready(Some(Err(()))),
                }
            })
            .await;
            // What is left of the leader goes on in a task of its own.
            drop(leader);
            if let Some(r) = got {
                return r.unwrap_or_else(|_| stopped());
            }
        }
        outcome.await.unwrap_or_else(|_| stopped())
    }

    /// A leader's guard, its place in the count taken already.
    fn guard(self: &Arc<Self>, club: String, kind: Kind) -> LeadGuard {
        LeadGuard {
            writer: Arc::clone(self),
            club,
            kind,
            held: Vec::new(),
            armed: true,
        }
    }

    /// Starts a leader whose place in the count is taken already. The guard travels with
    /// the task from before it is spawned: if the task never runs (its runtime is
    /// shutting down), dropping it gives the count back.
    fn spawn_leader(self: &Arc<Self>, pool: &Pool, club: String, kind: Kind) {
        tokio::spawn(lead(self.guard(club, kind), pool.clone()));
    }

    /// Waits, at most [`LINGER`], until as many writes are queued as went in the last
    /// batch: the writers of a batch all get their outcome at once and come back with
    /// their next write a moment later, so a batch taken before they are back would be
    /// a small one. A lone writer (last batch of one) never waits: its leader stops when
    /// nothing is queued, and the writer's next write starts the next leader in its own
    /// task ([`Writer::submit`]).
    async fn gather(&self, club: &str, kind: Kind, last: usize) {
        if last <= 1 {
            return;
        }
        let deadline = tokio::time::Instant::now() + LINGER;
        // Bounded: each turn waits for a new write or for the deadline.
        for _ in 0..=MAX_BATCH {
            let arrived = {
                let clubs = self.lock();
                let Some(q) = clubs.get(club) else {
                    return;
                };
                let queued = q.pending.iter().filter(|p| Kind::of(&p.op) == kind).count();
                if queued >= last.min(MAX_BATCH) {
                    return;
                }
                Arc::clone(&q.arrived[kind as usize])
            };
            if tokio::time::timeout_at(deadline, arrived.notified())
                .await
                .is_err()
            {
                return;
            }
        }
    }

    /// The next batch of `kind`: up to [`MAX_BATCH`] writes of that kind in queue order,
    /// at most one per hand and none whose hand or idempotency key is in a batch in
    /// flight or in an earlier write left in the queue (those wait, in order, for a
    /// later batch). Its hands and keys are marked busy. Empty when nothing can be
    /// taken: then this leader stops, and the club's entry goes with the last leader
    /// once nothing is queued.
    fn take(&self, club: &str, kind: Kind) -> Vec<Pending> {
        let mut clubs = self.lock();
        let Some(q) = clubs.get_mut(club) else {
            return Vec::new();
        };
        let mut batch = Vec::new();
        let mut rest = VecDeque::new();
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
            if batch.len() < MAX_BATCH && free && Kind::of(&p.op) == kind {
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
            let n = &mut q.leaders[kind as usize];
            *n = n.saturating_sub(1);
            if q.leaders == [0, 0] && q.pending.is_empty() {
                clubs.remove(club);
            }
        }
        batch
    }

    /// The batch is written: its hands and keys are free again. Returns the kinds that
    /// have writes queued but no leader (they waited on this batch's hands while their
    /// own leaders found nothing to take and stopped): the caller starts one of each,
    /// whose place in the count is taken here.
    fn release(&self, club: &str, batch: &[Pending]) -> Vec<Kind> {
        let mut clubs = self.lock();
        let Some(q) = clubs.get_mut(club) else {
            return Vec::new();
        };
        for p in batch {
            q.busy_hands.remove(p.op.hand());
            if let Some(k) = p.op.idem_key() {
                q.busy_keys.remove(k);
            }
        }
        // A write that waited for one of these hands may be takeable now.
        for arrived in &q.arrived {
            arrived.notify_one();
        }
        let mut start = Vec::new();
        for kind in [Kind::Plain, Kind::Other] {
            if q.leaders[kind as usize] == 0 && q.pending.iter().any(|p| Kind::of(&p.op) == kind) {
                q.leaders[kind as usize] += 1;
                start.push(kind);
            }
        }
        start
    }
}

/// A leader run in the task of the write that started it ([`Writer::submit`]). Dropped
/// unfinished (its caller has its outcome, or stopped waiting for it), what is left of
/// it is spawned, so the writes of its batch still commit or fail with it, as with a
/// leader spawned from the start. Outside a runtime (one shutting down) it is dropped,
/// and its guard tells the batch's other writers their outcome is unknown.
struct InlineLeader(Option<Pin<Box<dyn Future<Output = ()> + Send>>>);

impl Drop for InlineLeader {
    fn drop(&mut self) {
        if let Some(rest) = self.0.take() {
            if let Ok(rt) = tokio::runtime::Handle::try_current() {
                rt.spawn(rest);
            }
        }
    }
}

/// A leader's place in its club's `leaders` count, from before its task is spawned
/// until it stops. Should it stop otherwise than by finding nothing to take (a panic,
/// or a task dropped by its runtime), the guard gives the count back and frees the
/// hands and keys of the batch it held (whose callers see an unknown outcome); and if
/// no other leader of its kind runs, the queued writes of its kind go (the club's whole
/// entry, if no leader runs at all), so that their callers see an unknown outcome too
/// instead of waiting for ever (the next write starts new leaders).
struct LeadGuard {
    writer: Arc<Writer>,
    club: String,
    kind: Kind,
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
        let n = &mut q.leaders[self.kind as usize];
        *n = n.saturating_sub(1);
        for (hand, key) in self.held.drain(..) {
            q.busy_hands.remove(&hand);
            if let Some(k) = key {
                q.busy_keys.remove(&k);
            }
        }
        if q.leaders == [0, 0] {
            clubs.remove(&self.club);
        } else if q.leaders[self.kind as usize] == 0 {
            // The other kind's leaders never take these writes, and may not release a
            // batch again to start a leader for them: their callers see an unknown
            // outcome rather than wait for ever.
            let kind = self.kind;
            q.pending.retain(|p| Kind::of(&p.op) != kind);
        }
    }
}

/// A leader: writes its club's queued writes, batch after batch, until none is left
/// for it.
async fn lead(mut guard: LeadGuard, pool: Pool) {
    let writer = Arc::clone(&guard.writer);
    let club = guard.club.clone();
    let kind = guard.kind;
    let mut last = 0usize;
    loop {
        // The batch's connection, its retries alone included. The pool hands out the
        // connection returned last (LIFO), so the few a club's leaders use keep their
        // prepared statements and plans warm.
        let mut conn: Option<Object> = None;
        writer.gather(&club, kind, last).await;
        let batch = writer.take(&club, kind);
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
        // The connection first: a new one forgets the known log ends (see `LogEnds`),
        // and must do so before this batch is judged by them.
        let opened = open(&pool, &mut conn).await.map(|_| ());
        let generation = writer.generation();
        let outcomes = match opened {
            Ok(()) => {
                let known = writer.all_known(&club, &batch);
                run(&pool, &mut conn, &batch, known).await
            }
            Err(e) => batch.iter().map(|_| Err(copy_err(&e))).collect(),
        };
        // Back to the pool before the next batch is gathered: others may need it.
        drop(conn);
        // Before the hands are released: the next batch of a hand sees where it ends.
        writer.note_ends(&club, generation, &batch, &outcomes);
        for k in writer.release(&club, &batch) {
            writer.spawn_leader(&pool, club.clone(), k);
        }
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
        StoreError::LogDamaged(s) => StoreError::LogDamaged(s.clone()),
    }
}

/// The outcome of every write of the batch, in batch order, on the leader's
/// connection `conn` (replaced through [`open`] should the database close it).
/// `known`: every append of the batch goes right after its hand's log end as this
/// writer committed it (see [`LogEnds`]).
async fn run(
    pool: &Pool,
    conn: &mut Option<Object>,
    batch: &[Pending],
    known: bool,
) -> Vec<Result<(), StoreError>> {
    // Decided outcomes; `None` once the batch is over means: retry alone.
    let mut outcomes: Vec<Option<Result<(), StoreError>>> = batch.iter().map(|_| None).collect();
    // A batch of plain writes only (the common case) goes in one statement, and so does
    // one whose appends are all known, hand ends included, with no idempotency key (the
    // ends' checks are part of the statement, see `plain_statement`); any other batch in
    // one transaction of a few statements (one WAL flush either way).
    let one_statement = batch.iter().all(|p| is_plain(&p.op))
        || (known && batch.iter().all(|p| p.op.idem_key().is_none()));
    if one_statement {
        let idx: Vec<usize> = (0..batch.len()).collect();
        let plain = match open(pool, conn).await {
            Ok(client) => plain_statement(client, batch, &idx, known).await,
            Err(_) => Err(PlainFailed::RetryAlone),
        };
        match plain {
            Ok(decided) => {
                for (o, d) in outcomes.iter_mut().zip(decided) {
                    *o = d;
                }
            }
            Err(PlainFailed::RetryAlone) => {}
            Err(PlainFailed::Unknown) => {
                // Retried alone, a write that did commit would be told it conflicts
                // (its seq, or its hand, is taken): say what is known instead.
                for o in outcomes.iter_mut() {
                    *o = Some(Err(StoreError::Unavailable(
                        "the connection to the database failed as the write was sent: \
                         its outcome is unknown"
                            .into(),
                    )));
                }
            }
        }
    }
    // Writes left out of the next attempt (refused, decided, or to be retried alone).
    let mut out: Vec<bool> = vec![one_statement; batch.len()];
    // Bounded: every restart leaves out one more write.
    for _ in 0..=batch.len() {
        if out.iter().all(|&o| o) {
            break;
        }
        let Ok(client) = open(pool, conn).await else {
            break;
        };
        match attempt(client, batch, &out, &mut outcomes).await {
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
    // The writes to retry alone run on the leader's connection: another one from the
    // pool could be a long wait (or none at all) when leaders hold them all.
    let mut results = Vec::with_capacity(batch.len());
    for (p, o) in batch.iter().zip(outcomes) {
        results.push(match o {
            Some(r) => r,
            None => match open(pool, conn).await {
                Ok(client) => p.op.alone(client).await,
                Err(e) => Err(e),
            },
        });
    }
    results
}

/// The leader's connection, taken from the pool if it has none or the database has
/// closed it (a closed one goes back to the pool, which drops it).
async fn open<'c>(pool: &Pool, conn: &'c mut Option<Object>) -> Result<&'c mut Object, StoreError> {
    if conn.as_ref().is_some_and(|c| c.is_closed()) {
        *conn = None;
    }
    match conn {
        Some(c) => Ok(c),
        None => Ok(conn.insert(client_of(pool).await?)),
    }
}

/// A write that fits the one-statement path: an append that writes events, secrets and
/// inputs only (not the hand's row, its table or an idempotency record), or a new hand
/// without an idempotency record.
fn is_plain(op: &Op) -> bool {
    match op {
        Op::Append(r) => r.idem.is_none() && r.hand_update.is_none() && r.table_update.is_none(),
        Op::Create { idem, .. } => idem.is_none(),
    }
}

/// Why the plain statement gave no outcome per write.
enum PlainFailed {
    /// Nothing was written: the database refused the statement, or it never went out.
    /// Every write is retried alone, which says why.
    RetryAlone,
    /// The statement went out and its answer was lost (the connection failed): it may
    /// have committed.
    Unknown,
}

/// Plain writes in ONE statement, committed on its own (autocommit): inserts the new
/// hands with their seats and cursors, and the first event of every append whose hand's
/// log ends just before it ([`first_events_sql`]); then, for those hands, the other
/// events, the secrets and the inputs. One round trip and one
/// WAL flush for the lot. The outcome of each, in `idx` order (`None`: not written, to be
/// retried alone).
///
/// When every append is `known` to go right after its hand's log end (see
/// [`LogEnds`]), nothing is checked: every row goes in, or a unique violation (a seq
/// another process took, a table's hand in progress or hand number taken) fails the
/// statement as a whole and every write is retried alone.
async fn plain_statement(
    client: &Object,
    batch: &[Pending],
    idx: &[usize],
    known: bool,
) -> Result<Vec<Option<Result<(), StoreError>>>, PlainFailed> {
    if let [i] = idx {
        if let Op::Append(r) = &batch[*i].op {
            if let ([event], true, true, true, true) = (
                r.events.as_slice(),
                known,
                r.new_secrets.is_empty(),
                r.new_inputs.is_empty(),
                r.hand_update.is_none() && r.table_update.is_none(),
            ) {
                return lone_event(client, event).await.map(|()| vec![Some(Ok(()))]);
            }
        }
    }
    // In hand id order, as everywhere.
    let mut sorted: Vec<usize> = idx.to_vec();
    sorted.sort_by(|&a, &b| batch[a].op.hand().cmp(batch[b].op.hand()));
    let mut appends: Vec<&AppendRequest> = Vec::new();
    // Appends that end their hand (or move its table's match on): only when known.
    let mut ends: Vec<&AppendRequest> = Vec::new();
    let mut creates: Vec<&HandRow> = Vec::new();
    // The events that go in unchecked: those after the appends' first ones (all of an
    // append's when it is known), and the new hands' first events.
    let mut others: Vec<&EventRow> = Vec::new();
    let mut secrets: Vec<&SecretRow> = Vec::new();
    let mut inputs: Vec<&InputRow> = Vec::new();
    let skip = usize::from(!known);
    for &i in &sorted {
        match &batch[i].op {
            Op::Append(r) => {
                appends.push(r);
                if r.hand_update.is_some() || r.table_update.is_some() {
                    ends.push(r);
                }
                others.extend(r.events.iter().skip(skip));
                secrets.extend(r.new_secrets.iter());
                inputs.extend(r.new_inputs.iter());
            }
            Op::Create {
                hand,
                events,
                secrets: s,
                ..
            } => {
                creates.push(&**hand);
                others.extend(events.iter());
                secrets.extend(s.iter());
            }
        }
    }
    if !ends.is_empty() && !known {
        // Their checks would need the first events' outcomes: a transaction's work.
        return Err(PlainFailed::RetryAlone);
    }
    let club = batch[sorted[0]].op.club();
    let firsts: Vec<&EventRow> = if known {
        Vec::new()
    } else {
        appends.iter().filter_map(|r| r.events.first()).collect()
    };
    let f = EventCols::new(&firsts);
    let n = NewHandCols::new(&creates);
    let e = EventCols::new(&others);
    let x = SecretCols::new(&secrets);
    let o = InputCols::new(&inputs);
    let u: Vec<EndCols> = ends.iter().map(|r| EndCols::new(r)).collect();

    // The statement names only the parts this batch has: nearly every write is an
    // append of one event without a new shuffle, and each part of the statement costs
    // its setup on every execution even when it has no row.
    let mut params: Vec<&(dyn ToSql + Sync)> = vec![&club];
    let mut parts: Vec<String> = Vec::new();
    let mut ok: Vec<&str> = Vec::new();
    if !firsts.is_empty() {
        parts.push(format!("f AS ({})", first_events_sql!()));
        params.extend(f.params());
        ok.push("SELECT hand_id FROM f");
    }
    if !creates.is_empty() {
        let hands = placeholders(params.len(), NewHandCols::TYPES);
        let players = placeholders(
            params.len() + NewHandCols::TYPES.len(),
            NewHandCols::PLAYER_TYPES,
        );
        // hands.players from the seats' rows, so that each array is one parameter.
        parts.push(format!(
            "n AS ( \
                 INSERT INTO hands ({HAND_COLS}) \
                 SELECT $1, x.hand_id, x.table_id, x.game, x.hand_no, x.status, 1, \
                        COALESCE((SELECT array_agg(p.player ORDER BY p.seat) \
                                  FROM unnest({players}) AS p(hand_id, seat, player, started_ms) \
                                  WHERE p.hand_id = x.hand_id), '{{}}'), \
                        x.started_ms, x.ended_ms, x.outcome, x.abandon_reason \
                 FROM unnest({hands}) AS x(hand_id, table_id, game, hand_no, status, \
                      started_ms, ended_ms, outcome, abandon_reason) \
                 RETURNING hand_id), \
             p AS ( \
                 INSERT INTO hand_players (club_id, hand_id, seat, player, started_ms) \
                 SELECT $1, p.* FROM unnest({players}) AS p(hand_id, seat, player, started_ms)), \
             c AS (INSERT INTO log_cursors (club_id, hand_id) SELECT $1, hand_id FROM n)"
        ));
        params.extend(n.params());
        ok.push("SELECT hand_id FROM n");
    }
    // The hands whose writes go in: new hands, and appends whose first event went in.
    // Read in that order, so the new hands are inserted before the appends' events,
    // as in a transaction batch (one lock order for both paths). Not needed when
    // nothing is checked: then every row goes in, or a refusal fails the statement.
    ok.reverse();
    let only_ok = if known {
        ""
    } else {
        parts.push(format!("ok AS ({})", ok.join(" UNION ALL ")));
        " WHERE hand_id IN (SELECT hand_id FROM ok)"
    };
    if !others.is_empty() {
        parts.push(format!(
            "r AS ( \
                 INSERT INTO events \
                 (club_id, hand_id, seq, kind, hash, prev_hash, record, created_ms) \
                 SELECT $1, e.* FROM unnest({}) \
                      AS e(hand_id, seq, kind, hash, prev_hash, record, created_ms){only_ok})",
            placeholders(params.len(), EventCols::TYPES)
        ));
        params.extend(e.params());
    }
    if !secrets.is_empty() {
        parts.push(format!(
            "s AS ( \
                 INSERT INTO hand_secrets (club_id, hand_id, shuffle, sealed) \
                 SELECT $1, x.* FROM unnest({}) AS x(hand_id, shuffle, sealed){only_ok})",
            placeholders(params.len(), SecretCols::TYPES)
        ));
        params.extend(x.params());
    }
    if !inputs.is_empty() {
        // Only appends carry inputs, each at one of its own events (`check_append`): they
        // go in exactly when their hand's events do.
        parts.push(format!(
            "i AS ( \
                 INSERT INTO hand_inputs (club_id, hand_id, seq, sealed) \
                 SELECT $1, x.* FROM unnest({}) AS x(hand_id, seq, sealed){only_ok})",
            placeholders(params.len(), InputCols::TYPES)
        ));
        params.extend(o.params());
    }
    // What a known batch's statement returns: 1, or a refusal (hand ends).
    let mut check = String::from("1");
    if !ends.is_empty() {
        // Per append that ends its hand: the hand's row, unless quarantined (as
        // `update_hand_row`), and its table's new match state where the version is the
        // expected one and the table is the hand's (as `end_hand`); should one miss its
        // row, the statement fails as a whole and every write is retried alone, which
        // says why. One statement part per row, each by its primary key: an `UPDATE ...
        // FROM unnest(...)` could be planned as a walk of the club's hands (see
        // `first_events_sql`). A batch has few ends (one, nearly always).
        let mut checks: Vec<String> = Vec::new();
        for (k, e) in u.iter().enumerate() {
            let n = params.len();
            parts.push(format!(
                "uh{k} AS ( \
                     UPDATE hands SET next_seq = ${}, status = COALESCE(${}, status), \
                         ended_ms = COALESCE(${}, ended_ms), \
                         outcome = COALESCE(${}, outcome), \
                         abandon_reason = COALESCE(${}, abandon_reason) \
                     WHERE club_id = $1 AND hand_id = ${} AND status <> 'quarantined' \
                     RETURNING table_id)",
                n + 1,
                n + 2,
                n + 3,
                n + 4,
                n + 5,
                n + 6
            ));
            params.extend(e.hand_params());
            checks.push(format!("(SELECT count(*) FROM uh{k}) = 1"));
            if let Some(t) = e.table_params() {
                let n = params.len();
                parts.push(format!(
                    "ut{k} AS ( \
                         UPDATE game_tables \
                         SET match_state = ${}, match_version = match_version + 1 \
                         WHERE club_id = $1 AND table_id = ${} AND match_version = ${} \
                           AND table_id = (SELECT table_id FROM uh{k}) \
                         RETURNING 1)",
                    n + 1,
                    n + 2,
                    n + 3
                ));
                params.extend(t);
                checks.push(format!("(SELECT count(*) FROM ut{k}) = 1"));
            }
        }
        check = format!(
            "CASE WHEN {} THEN 1 ELSE dealer_refuse('hand end') END",
            checks.join(" AND ")
        );
    }
    let sql = if known {
        format!("WITH {} SELECT {check}", parts.join(", "))
    } else {
        format!("WITH {} SELECT hand_id FROM ok", parts.join(", "))
    };
    let stmt = client
        .prepare_cached(&sql)
        .await
        .map_err(|_| PlainFailed::RetryAlone)?;
    let rows = client
        .query(&stmt, &params)
        .await
        .map_err(|e| plain_failed(&e))?;
    if known {
        // Every row went in, or the statement failed.
        return Ok(idx.iter().map(|_| Some(Ok(()))).collect());
    }
    let mut done: HashSet<String> = HashSet::new();
    for r in &rows {
        done.insert(r.try_get(0).map_err(|_| PlainFailed::Unknown)?);
    }
    let missed: Vec<&str> = appends
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
        next_seqs(client, club, &missed).await.ok()
    };
    Ok(idx
        .iter()
        .map(|&i| {
            let op = &batch[i].op;
            if done.contains(op.hand()) {
                return Some(Ok(()));
            }
            match op {
                Op::Append(r) => Some(Err(refusal(r, found.as_ref()?))),
                // A new hand's row went in with the statement, or the statement failed.
                Op::Create { .. } => None,
            }
        })
        .collect())
}

/// The commonest batch of all, at low load: one append of one event, known to go right
/// after its hand's log end (see [`LogEnds`]), with no secret or input. Its own statement
/// of plain values, with the same meaning as [`plain_statement`]'s for it (the event goes
/// in unchecked, or a unique violation fails the statement and the write is retried
/// alone): without the arrays, `unnest` and the parts a batch of several needs, the
/// database does a third less work for it (ops/README.md, sixth round). The event is all
/// it writes: the sequencer finds it from its hand's cursor (`log_cursors`).
async fn lone_event(client: &Object, e: &EventRow) -> Result<(), PlainFailed> {
    let stmt = client
        .prepare_cached(
            "INSERT INTO events \
             (club_id, hand_id, seq, kind, hash, prev_hash, record, created_ms) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .await
        .map_err(|_| PlainFailed::RetryAlone)?;
    client
        .execute(
            &stmt,
            &[
                &e.club_id,
                &e.hand_id,
                &e.seq,
                &e.kind,
                &e.hash,
                &e.prev_hash,
                &e.record,
                &e.created_ms,
            ],
        )
        .await
        .map_err(|e| plain_failed(&e))?;
    Ok(())
}

/// Why a plain statement that failed with `e` gave no outcome (see [`outcome_unknown`]).
fn plain_failed(e: &tokio_postgres::Error) -> PlainFailed {
    if outcome_unknown(e) {
        PlainFailed::Unknown
    } else {
        PlainFailed::RetryAlone
    }
}

/// Whether a statement that failed with `e` may have committed all the same: its
/// answer was lost (no error from the server), or the server ended the session, which
/// it may do after the statement's commit (`FATAL`, `PANIC`; connection exceptions,
/// class 08; operator intervention such as a shutdown, class 57P). An ERROR from the
/// server means the statement was rolled back.
fn outcome_unknown(e: &tokio_postgres::Error) -> bool {
    e.as_db_error()
        .is_none_or(|db| session_ended(db.parsed_severity(), db.code().code()))
}

/// Whether a server error of this severity and SQLSTATE ends the session, so that the
/// statement may have committed before it (see [`outcome_unknown`]).
fn session_ended(severity: Option<tokio_postgres::error::Severity>, code: &str) -> bool {
    use tokio_postgres::error::Severity;
    matches!(severity, Some(Severity::Fatal | Severity::Panic))
        || code.starts_with("08")
        || code.starts_with("57P")
}

/// Why an append whose first event did not go in was refused: its hand is unknown, or
/// its `expected_seq` is not the hand's next `seq` (`found`, from [`next_seqs`]).
fn refusal(r: &AppendRequest, found: &HashMap<String, i64>) -> StoreError {
    match found.get(&r.hand_id) {
        None => StoreError::NotFound("hand"),
        Some(&n) => StoreError::Conflict {
            expected: r.expected_seq,
            found: n,
        },
    }
}

/// `$n::type, ...` for parameters numbered from `after + 1`, one per type.
fn placeholders(after: usize, types: &[&str]) -> String {
    types
        .iter()
        .enumerate()
        .map(|(i, t)| format!("${}::{t}", after + 1 + i))
        .collect::<Vec<_>>()
        .join(", ")
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
    client: &mut Object,
    batch: &[Pending],
    out: &[bool],
    outcomes: &mut [Option<Result<(), StoreError>>],
) -> Attempt {
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

    // 3. Every append's first event, in one statement: it goes in only where the
    //    hand's log ends just before it (its `seq - 1` is there and its `seq` is not),
    //    and once it is in, no other writer can append at that `seq` until this
    //    transaction ends. An append whose first event did not go in is refused.
    let appends: Vec<&AppendRequest> = live
        .iter()
        .filter_map(|&i| match &batch[i].op {
            Op::Append(r) => Some(r),
            Op::Create { .. } => None,
        })
        .collect();
    let mut appended: HashSet<String> = HashSet::new();
    if !appends.is_empty() {
        let club = appends[0].club_id.as_str();
        let firsts: Vec<&EventRow> = appends.iter().filter_map(|r| r.events.first()).collect();
        for row in first_events(tx, club, &firsts).await.map_err(database)? {
            appended.insert(row.try_get(0).map_err(|_| Attempt::Database)?);
        }
        let missed: Vec<&str> = appends
            .iter()
            .filter(|r| !appended.contains(&r.hand_id))
            .map(|r| r.hand_id.as_str())
            .collect();
        if !missed.is_empty() {
            let found = next_seqs(tx, club, &missed).await.map_err(database)?;
            for &i in &live {
                let Op::Append(r) = &batch[i].op else {
                    continue;
                };
                if appended.contains(&r.hand_id) {
                    continue;
                }
                let e = refusal(r, &found);
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
            Op::Append(r) => appended.contains(&r.hand_id),
            Op::Create { .. } => true,
        })
        .collect();

    // 4.-6. The rows of hands that end and the tables' new match states (statements of
    //    their own per hand that ends), all sealed secrets in one statement, all sealed
    //    inputs in one, and last every other event in one: sent
    //    together (pipelined) and run by the server in the order sent, so they cost one
    //    round trip, not one each.
    let ends: Vec<(usize, &AppendRequest)> = live
        .iter()
        .filter_map(|&i| match &batch[i].op {
            Op::Append(r) if r.hand_update.is_some() || r.table_update.is_some() => Some((i, r)),
            _ => None,
        })
        .collect();
    let secrets: Vec<&SecretRow> = live
        .iter()
        .flat_map(|&i| match &batch[i].op {
            Op::Append(r) => r.new_secrets.iter(),
            Op::Create { secrets, .. } => secrets.iter(),
        })
        .collect();
    let inputs: Vec<&InputRow> = live
        .iter()
        .flat_map(|&i| match &batch[i].op {
            Op::Append(r) => r.new_inputs.iter(),
            Op::Create { .. } => [].iter(),
        })
        .collect();
    let mut accepted = live;
    accepted.sort_unstable();
    let (ended, (), (), all_in) = tokio::try_join!(
        futures_util::future::try_join_all(ends.iter().map(|&(_, r)| end_hand(tx, r))),
        insert_secrets(tx, &secrets),
        insert_inputs(tx, &inputs),
        async {
            if accepted.is_empty() {
                Ok(true)
            } else {
                insert_events(tx, batch, &accepted).await
            }
        },
    )
    .map_err(database)?;
    for (&(i, _), refused) in ends.iter().zip(ended) {
        if let Some(e) = refused {
            return Err(Attempt::Restart(i, Some(e)));
        }
    }
    if !all_in {
        // Not every event went in: every write alone, which reports why.
        return Err(Attempt::Database);
    }
    Ok(accepted)
}

/// The end of a hand whose first event is in: its row (see [`update_hand_row`]) and
/// its table's new match state. `Some` refuses the write: the table update names
/// another table than the hand's, or the table's `match_version` is not the expected one.
pub(super) async fn end_hand(
    tx: &Transaction<'_>,
    r: &AppendRequest,
) -> Result<Option<StoreError>, tokio_postgres::Error> {
    let table = update_hand_row(tx, r).await?;
    if table.is_none() {
        // No hand to end: it was quarantined while this writer held it.
        return Ok(Some(StoreError::Conflict {
            expected: r.expected_seq,
            found: r.expected_seq,
        }));
    }
    let Some(tu) = &r.table_update else {
        return Ok(None);
    };
    if table.as_deref() != Some(tu.table_id.as_str()) {
        return Ok(Some(StoreError::Internal(
            "append: table update for another table".into(),
        )));
    }
    update_table(tx, r).await
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
                        RETURNING club_id, hand_id), \
                  c AS (INSERT INTO log_cursors (club_id, hand_id) \
                        SELECT club_id, hand_id FROM h) \
             INSERT INTO hand_players (club_id, hand_id, seat, player, started_ms) \
             SELECT h.club_id, h.hand_id, (p.ord - 1)::smallint, p.player, $8 \
             FROM h, unnest($7::text[]) WITH ORDINALITY AS p(player, ord)"
        ))
        .await?;
    let status = hand.status.as_str();
    tx.execute(&stmt, &new_hand_params(hand, &status)).await?;
    Ok(())
}

/// Inserts the first event of each append (`$1` club, `$2`..`$8` the event columns as
/// [`EventCols`] lists them) where its hand's log, as committed, ends just before it
/// (the hand's last event is `seq - 1`) and no other writer has taken its `seq` since
/// (`ON CONFLICT DO NOTHING`, which waits for such a writer still in flight). Returns
/// the hands whose event went in.
///
/// This, not the hand's row, orders a hand's writers: a plain append never writes
/// `hands`. The check is one step back along `events_pkey` (the only index of
/// `events`), in a scalar subquery rather than `EXISTS`, so PostgreSQL cannot turn it
/// into a join that walks the club's events. (A batch `UPDATE hands ... WHERE hand_id =
/// ANY(...)` was planned, on young statistics, as a walk of every hand of the club
/// through another index: 1,100 rows read per batch after a minute of the benchmark,
/// growing with the club.)
///
/// A hand that has been completed or abandoned takes no more events: once the write that
/// ended it is in, its cursor for the club's order can go (`log_cursors`, V14). A writer
/// whose append raced that end wanted the end's `seq` and finds it taken; a writer that
/// knows its hand's log end ([`LogEnds`]) forgets it when it ends the hand itself.
macro_rules! first_events_sql {
    () => {
        "INSERT INTO events \
         (club_id, hand_id, seq, kind, hash, prev_hash, record, created_ms) \
         SELECT $1, e.* \
         FROM unnest($2::text[], $3::int8[], $4::text[], $5::text[], $6::text[], \
                     $7::jsonb[], $8::int8[]) \
              AS e(hand_id, seq, kind, hash, prev_hash, record, created_ms) \
         WHERE (SELECT p.seq FROM events p \
                WHERE p.club_id = $1 AND p.hand_id = e.hand_id \
                ORDER BY p.seq DESC LIMIT 1) = e.seq - 1 \
           AND (SELECT h.status FROM hands h \
                WHERE h.club_id = $1 AND h.hand_id = e.hand_id) \
               NOT IN ('completed', 'abandoned') \
         ON CONFLICT (club_id, hand_id, seq) DO NOTHING \
         RETURNING hand_id"
    };
}
use first_events_sql;

/// [`first_events_sql`] on its own, in a batch's transaction.
async fn first_events(
    tx: &Transaction<'_>,
    club: &str,
    firsts: &[&EventRow],
) -> Result<Vec<tokio_postgres::Row>, tokio_postgres::Error> {
    let f = EventCols::new(firsts);
    let stmt = tx.prepare_cached(first_events_sql!()).await?;
    let mut params: Vec<&(dyn ToSql + Sync)> = vec![&club];
    params.extend(f.params());
    tx.query(&stmt, &params).await
}

/// Records the end of a hand (status, end time, outcome, abandon reason, final
/// `next_seq`) and returns its table; `None` for an unknown hand or a quarantined one.
/// Once the append's first event is in, no other writer of the hand gets this far.
async fn update_hand_row(
    tx: &Transaction<'_>,
    r: &AppendRequest,
) -> Result<Option<String>, tokio_postgres::Error> {
    let hu = r.hand_update.as_ref();
    let next = r.expected_seq + i64::try_from(r.events.len()).unwrap_or(i64::MAX);
    let stmt = tx
        .prepare_cached(
            "UPDATE hands SET next_seq = $3, \
                 status = COALESCE($4, status), \
                 ended_ms = COALESCE($5, ended_ms), \
                 outcome = COALESCE($6, outcome), \
                 abandon_reason = COALESCE($7, abandon_reason) \
             WHERE club_id = $1 AND hand_id = $2 AND status <> 'quarantined' \
             RETURNING table_id",
        )
        .await?;
    let row = tx
        .query_opt(
            &stmt,
            &[
                &r.club_id,
                &r.hand_id,
                &next,
                &hu.map(|u| u.status.as_str()),
                &hu.and_then(|u| u.ended_ms),
                &hu.and_then(|u| u.outcome.as_ref()),
                &hu.and_then(|u| u.abandon_reason.as_deref()),
            ],
        )
        .await?;
    row.map(|r| r.try_get(0)).transpose()
}

/// The hand row and table state an append that ends its hand (or moves its table's match
/// on) writes, as statement parameters: see [`plain_statement`].
struct EndCols<'a> {
    hand: &'a str,
    next: i64,
    status: Option<&'a str>,
    ended_ms: Option<i64>,
    outcome: Option<&'a Value>,
    reason: Option<&'a str>,
    table: Option<&'a TableUpdate>,
}

impl<'a> EndCols<'a> {
    fn new(r: &'a AppendRequest) -> Self {
        let hu = r.hand_update.as_ref();
        EndCols {
            hand: &r.hand_id,
            next: r.expected_seq + i64::try_from(r.events.len()).unwrap_or(i64::MAX),
            status: hu.map(|u| u.status.as_str()),
            ended_ms: hu.and_then(|u| u.ended_ms),
            outcome: hu.and_then(|u| u.outcome.as_ref()),
            reason: hu.and_then(|u| u.abandon_reason.as_deref()),
            table: r.table_update.as_ref(),
        }
    }

    /// The hand row's: next seq, status, end time, outcome, abandon reason, hand id.
    fn hand_params(&self) -> [&(dyn ToSql + Sync); 6] {
        [
            &self.next,
            &self.status,
            &self.ended_ms,
            &self.outcome,
            &self.reason,
            &self.hand,
        ]
    }

    /// The table's, if any: new match state, table id, expected version.
    fn table_params(&self) -> Option<[&(dyn ToSql + Sync); 3]> {
        self.table.map(|t| -> [&(dyn ToSql + Sync); 3] {
            [&t.match_state, &t.table_id, &t.expected_match_version]
        })
    }
}

/// Event columns, one element per event (the club is a parameter of its own).
struct EventCols<'a> {
    hand: Vec<&'a str>,
    seq: Vec<i64>,
    kind: Vec<&'a str>,
    hash: Vec<&'a str>,
    prev: Vec<&'a str>,
    record: Vec<&'a RecordJson>,
    created: Vec<i64>,
}

impl<'a> EventCols<'a> {
    const TYPES: &'static [&'static str] = &[
        "text[]", "int8[]", "text[]", "text[]", "text[]", "jsonb[]", "int8[]",
    ];

    /// The arrays as statement parameters, in the order of [`Self::TYPES`].
    fn params(&self) -> [&(dyn ToSql + Sync); 7] {
        [
            &self.hand,
            &self.seq,
            &self.kind,
            &self.hash,
            &self.prev,
            &self.record,
            &self.created,
        ]
    }

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

/// New hands' columns, one element per hand, and their seats' rows, one element per
/// seat (the club is a parameter of its own; `next_seq` is 1).
struct NewHandCols<'a> {
    hand: Vec<&'a str>,
    table: Vec<&'a str>,
    game: Vec<&'a str>,
    hand_no: Vec<i64>,
    status: Vec<&'static str>,
    started: Vec<i64>,
    ended: Vec<Option<i64>>,
    outcome: Vec<Option<&'a Value>>,
    reason: Vec<Option<&'a str>>,
    p_hand: Vec<&'a str>,
    p_seat: Vec<i16>,
    p_player: Vec<&'a str>,
    /// The hand's start, on each of its seats' rows (for the history by player, V8).
    p_started: Vec<i64>,
}

impl<'a> NewHandCols<'a> {
    const TYPES: &'static [&'static str] = &[
        "text[]", "text[]", "text[]", "int8[]", "text[]", "int8[]", "int8[]", "jsonb[]", "text[]",
    ];
    const PLAYER_TYPES: &'static [&'static str] = &["text[]", "int2[]", "text[]", "int8[]"];

    /// The arrays as statement parameters: the hands' in the order of [`Self::TYPES`],
    /// then the seats' in the order of [`Self::PLAYER_TYPES`].
    fn params(&self) -> [&(dyn ToSql + Sync); 13] {
        [
            &self.hand,
            &self.table,
            &self.game,
            &self.hand_no,
            &self.status,
            &self.started,
            &self.ended,
            &self.outcome,
            &self.reason,
            &self.p_hand,
            &self.p_seat,
            &self.p_player,
            &self.p_started,
        ]
    }

    fn new(hands: &[&'a HandRow]) -> Self {
        let mut c = NewHandCols {
            hand: Vec::new(),
            table: Vec::new(),
            game: Vec::new(),
            hand_no: Vec::new(),
            status: Vec::new(),
            started: Vec::new(),
            ended: Vec::new(),
            outcome: Vec::new(),
            reason: Vec::new(),
            p_hand: Vec::new(),
            p_seat: Vec::new(),
            p_player: Vec::new(),
            p_started: Vec::new(),
        };
        for h in hands {
            c.hand.push(&h.hand_id);
            c.table.push(&h.table_id);
            c.game.push(&h.game);
            c.hand_no.push(h.hand_no);
            c.status.push(h.status.as_str());
            c.started.push(h.started_ms);
            c.ended.push(h.ended_ms);
            c.outcome.push(h.outcome.as_ref());
            c.reason.push(h.abandon_reason.as_deref());
            // check_new_hand has bounded the seats to i16.
            for (seat, player) in (0i16..).zip(&h.players) {
                c.p_hand.push(&h.hand_id);
                c.p_seat.push(seat);
                c.p_player.push(player);
                c.p_started.push(h.started_ms);
            }
        }
        c
    }
}

/// Sealed-secret columns, one element per secret (the club is a parameter of its own).
struct SecretCols<'a> {
    hand: Vec<&'a str>,
    shuffle: Vec<i32>,
    sealed: Vec<&'a [u8]>,
}

impl<'a> SecretCols<'a> {
    const TYPES: &'static [&'static str] = &["text[]", "int4[]", "bytea[]"];

    /// The arrays as statement parameters, in the order of [`Self::TYPES`].
    fn params(&self) -> [&(dyn ToSql + Sync); 3] {
        [&self.hand, &self.shuffle, &self.sealed]
    }

    fn new(secrets: &[&'a SecretRow]) -> Self {
        SecretCols {
            hand: secrets.iter().map(|s| s.hand_id.as_str()).collect(),
            shuffle: secrets.iter().map(|s| s.shuffle).collect(),
            sealed: secrets.iter().map(|s| s.sealed.as_slice()).collect(),
        }
    }
}

/// Sealed-input columns, one element per input (the club is a parameter of its own).
struct InputCols<'a> {
    hand: Vec<&'a str>,
    seq: Vec<i64>,
    sealed: Vec<&'a [u8]>,
}

impl<'a> InputCols<'a> {
    const TYPES: &'static [&'static str] = &["text[]", "int8[]", "bytea[]"];

    /// The arrays as statement parameters, in the order of [`Self::TYPES`].
    fn params(&self) -> [&(dyn ToSql + Sync); 3] {
        [&self.hand, &self.seq, &self.sealed]
    }

    fn new(inputs: &[&'a InputRow]) -> Self {
        InputCols {
            hand: inputs.iter().map(|i| i.hand_id.as_str()).collect(),
            seq: inputs.iter().map(|i| i.seq).collect(),
            sealed: inputs.iter().map(|i| i.sealed.as_slice()).collect(),
        }
    }
}

/// The next `seq` (one past the last event) of each hand that exists among `ids`.
/// One lookup per hand by its primary key: only appends that were refused come here.
async fn next_seqs(
    client: &impl GenericClient,
    club: &str,
    ids: &[&str],
) -> Result<HashMap<String, i64>, tokio_postgres::Error> {
    let mut found = HashMap::new();
    for id in ids {
        if let Some(n) = next_seq_of(client, club, id).await? {
            found.insert((*id).to_owned(), n);
        }
    }
    Ok(found)
}

/// The table's new match state if its version is the expected one; else why not.
async fn update_table(
    tx: &Transaction<'_>,
    req: &AppendRequest,
) -> Result<Option<StoreError>, tokio_postgres::Error> {
    match &req.table_update {
        Some(tu) => update_table_state(tx, &req.club_id, tu).await,
        None => Ok(None),
    }
}

/// Writes a table's new match state if its `match_version` is still the expected one (it
/// then goes up by one); `Some` refuses: the table is unknown, or its version moved on.
pub(super) async fn update_table_state(
    tx: &Transaction<'_>,
    club_id: &str,
    tu: &TableUpdate,
) -> Result<Option<StoreError>, tokio_postgres::Error> {
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
                &club_id,
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
        match tx.query_opt(&stmt, &[&club_id, &tu.table_id]).await? {
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
    let mut params: Vec<&(dyn ToSql + Sync)> = vec![&club];
    params.extend(x.params());
    tx.execute(&stmt, &params).await?;
    Ok(())
}

async fn insert_inputs(
    tx: &Transaction<'_>,
    inputs: &[&InputRow],
) -> Result<(), tokio_postgres::Error> {
    let Some(first) = inputs.first() else {
        return Ok(());
    };
    // A batch is one club's.
    let club = first.club_id.as_str();
    let o = InputCols::new(inputs);
    let stmt = tx
        .prepare_cached(
            "INSERT INTO hand_inputs (club_id, hand_id, seq, sealed) \
             SELECT $1, x.* FROM unnest($2::text[], $3::int8[], $4::bytea[]) \
                  AS x(hand_id, seq, sealed)",
        )
        .await?;
    let mut params: Vec<&(dyn ToSql + Sync)> = vec![&club];
    params.extend(o.params());
    tx.execute(&stmt, &params).await?;
    Ok(())
}

/// The last statement of the batch: inserts the events of every accepted write but the
/// appends' first ones (in already, step 3). `false` if not every event went in.
async fn insert_events(
    tx: &Transaction<'_>,
    batch: &[Pending],
    accepted: &[usize],
) -> Result<bool, tokio_postgres::Error> {
    let events: Vec<&EventRow> = accepted
        .iter()
        .flat_map(|&i| {
            // An append's first event is in already (step 3); a new hand's is not.
            let skip = usize::from(matches!(batch[i].op, Op::Append(_)));
            batch[i].op.events().iter().skip(skip)
        })
        .collect();
    let club = batch[accepted[0]].op.club();
    let n = i64::try_from(events.len()).unwrap_or(i64::MAX);
    let e = EventCols::new(&events);
    let stmt = tx
        .prepare_cached(
            "INSERT INTO events \
             (club_id, hand_id, seq, kind, hash, prev_hash, record, created_ms) \
             SELECT $1, e.* \
             FROM unnest($2::text[], $3::int8[], $4::text[], $5::text[], $6::text[], \
                         $7::jsonb[], $8::int8[]) \
                  AS e(hand_id, seq, kind, hash, prev_hash, record, created_ms)",
        )
        .await?;
    let mut params: Vec<&(dyn ToSql + Sync)> = vec![&club];
    params.extend(e.params());
    let inserted = tx.execute(&stmt, &params).await?;
    Ok(i64::try_from(inserted).ok() == Some(n))
}

#[cfg(test)]
mod tests {
    use super::{session_ended, LogEnds, MAX_LOG_ENDS};
    use tokio_postgres::error::{Severity, SqlState};

    #[test]
    fn a_session_ended_by_the_server_leaves_the_outcome_unknown() {
        let ended = [
            (Some(Severity::Fatal), SqlState::ADMIN_SHUTDOWN),
            (Some(Severity::Error), SqlState::ADMIN_SHUTDOWN),
            (Some(Severity::Error), SqlState::CRASH_SHUTDOWN),
            (Some(Severity::Panic), SqlState::INTERNAL_ERROR),
            (None, SqlState::CONNECTION_FAILURE),
            (Some(Severity::Fatal), SqlState::UNIQUE_VIOLATION),
        ];
        for (severity, code) in ended {
            assert!(
                session_ended(severity, code.code()),
                "{severity:?} {code:?}"
            );
        }
        // Plain errors roll the statement back: its writes can be retried.
        let rolled_back = [
            (Some(Severity::Error), SqlState::UNIQUE_VIOLATION),
            (Some(Severity::Error), SqlState::QUERY_CANCELED),
            (Some(Severity::Error), SqlState::T_R_SERIALIZATION_FAILURE),
            (None, SqlState::UNDEFINED_TABLE),
        ];
        for (severity, code) in rolled_back {
            assert!(
                !session_ended(severity, code.code()),
                "{severity:?} {code:?}"
            );
        }
    }

    #[test]
    fn log_ends_are_set_forgotten_and_bounded() {
        let mut e = LogEnds::default();
        e.set("c1", "h1", 3);
        e.set("c1", "h1", 4);
        e.set("c2", "h1", 9);
        assert_eq!(
            (e.get("c1", "h1"), e.get("c2", "h1"), e.len()),
            (Some(4), Some(9), 2)
        );
        e.forget("c1", "h1");
        e.forget("c1", "unknown");
        assert_eq!((e.get("c1", "h1"), e.len()), (None, 1));
        assert!(!e.clubs.contains_key("c1"));
        for i in 0..MAX_LOG_ENDS + 10 {
            e.set("c3", &format!("h{i}"), 1);
            assert!(e.len() <= MAX_LOG_ENDS);
        }
        // Past the bound the club's entries went, not the newest one.
        assert_eq!(e.get("c3", &format!("h{}", MAX_LOG_ENDS + 9)), Some(1));
    }
}
