//! The findings the service attaches to a dispute when it is opened: evidence as it stood
//! then, computed from the hand's stored log (and the service's own keys), never from a
//! hand held in memory. Every dispute gets the common findings (the hand's verdict, its
//! stored log, its match link and the match's verdict, the transparency log's slot); the
//! claim's kind adds the checks that bear on it ([`ClaimFinding`]).
//!
//! Only finished hands are disputed, so nothing here is secret: a seed is shown only as
//! the hand's own `seeds_revealed` event published it, and a hand is replayed only when
//! its log ends in that reveal (a quarantined hand quarantined while running never does:
//! its seeds stay sealed and its findings say it was not replayed).

use replayer::dealer::{LiveHand, SeedSource};
use replayer::dispute::DisputeKind;
use replayer::engine::{Actor, ScoreUnit, SeatIndex};
use replayer::games::registry;
use replayer::log::{
    action_message, hash_event, signature_message, Body, Hash, OpenedInput, Record,
};
use replayer::shuffle::ServerSeed;
use replayer::verify::{verify_value, Options};
use serde::Serialize;
use serde_json::{json, Value};

use crate::api::errors::{ApiError, ApiResult, Code};
use crate::store::{EventRow, HandRow, HandStatus, TableRow};
use crate::Service;

/// Version of the findings' shape (`docs/DISPUTES.md`, "Findings").
pub const FINDINGS_VERSION: u32 = 1;

/// Every finding of a dispute.
#[derive(Clone, Debug, Serialize)]
pub struct Findings {
    /// The shape's version (1).
    pub version: u32,
    /// When they were computed (unix ms).
    pub computed_ms: u64,
    /// The hand, as its row says.
    pub hand: HandFacts,
    /// The replayer's verdict on the hand's bundle as stored, with the service's keys.
    pub verdict: VerdictFinding,
    /// Whether the stored log rebuilds as the service rebuilds a hand (`hand_damaged`).
    pub stored_log: StoredLog,
    /// The hand's link to the one before it in its match, and the match's verdict.
    pub match_link: MatchLink,
    /// The club's transparency log: inclusion and consistency of the hand's events.
    pub log: LogFinding,
    /// What bears on the claim's kind.
    pub claim: ClaimFinding,
}

/// The hand disputed.
#[derive(Clone, Debug, Serialize)]
pub struct HandFacts {
    /// The hand.
    pub hand_id: String,
    /// Its table.
    pub table_id: String,
    /// Its number in the table's match.
    pub hand_no: i64,
    /// The game.
    pub game: String,
    /// `completed`, `abandoned` or `quarantined`.
    pub status: String,
    /// How many events its stored log has.
    pub events: u64,
    /// Players in seat order.
    pub players: Vec<String>,
}

/// A problem the replayer names.
#[derive(Clone, Debug, Serialize)]
pub struct ProblemView {
    /// The event, if one.
    pub event: Option<u64>,
    /// The seat concerned, if any.
    pub seat: Option<u8>,
    /// The check or rule that fails.
    pub rule: String,
    /// What was expected.
    pub expected: String,
    /// What was found.
    pub found: String,
}

/// The replayer's verdict on the hand.
#[derive(Clone, Debug, Serialize)]
pub struct VerdictFinding {
    /// Whether the hand verifies.
    pub valid: bool,
    /// `trusted_key`: checked against the service's own public keys.
    pub trust: String,
    /// The keys that signed its events.
    pub signers: Vec<String>,
    /// How many actions carry a valid player signature.
    pub player_signatures: usize,
    /// The outcome the replay computes, when the hand completed.
    pub outcome: Option<Value>,
    /// The first problem.
    pub problem: Option<ProblemView>,
}

/// The stored log, rebuilt as the service rebuilds a hand.
#[derive(Clone, Debug, Serialize)]
pub struct StoredLog {
    /// Whether it rebuilds.
    pub intact: bool,
    /// Where it first fails.
    pub seq: Option<u64>,
    /// The check that fails there (`hash`, `signature`, `chain`, an engine rule …).
    pub rule: Option<String>,
}

/// A link to a previous hand.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct PrevView {
    /// The previous hand.
    pub hand: String,
    /// The hash of its last event.
    pub hash: String,
}

/// The match's verdict.
#[derive(Clone, Debug, Serialize)]
pub struct MatchVerdictView {
    /// Whether every finished hand of the table verifies and chains.
    pub valid: bool,
    /// How many hands the match file holds.
    pub hands: usize,
    /// The first break: the hand's index and id, the check, expected and found.
    pub problem: Option<Value>,
}

/// The hand's place in its match.
#[derive(Clone, Debug, Serialize)]
pub struct MatchLink {
    /// The hand's number.
    pub hand_no: i64,
    /// The hand it must follow, per the store (the last hand before it that is not
    /// quarantined) and that hand's signed end.
    pub expected_prev: Option<PrevView>,
    /// The hand its first event names.
    pub found_prev: Option<PrevView>,
    /// Whether they agree.
    pub prev_ok: bool,
    /// Whether the match state it started from is the one its predecessor's signed end
    /// leaves (the match's initial state for a first hand).
    pub state_ok: bool,
    /// Why the expected link could not be read (the predecessor's record is broken).
    pub problem: Option<String>,
    /// The replayer's verdict on the table's whole match file.
    pub matches: MatchVerdictView,
}

/// The transparency log's finding (`docs/DISPUTES.md`, "Findings"): whether the hand's
/// last event, as stored now, is in the club's log at the latest checkpoint, computed from
/// the service's own log. The salt is not shown (only the hand's bundle carries it): the
/// leaf hash is, which the log's public tiles also give. The consistency of this
/// checkpoint with the log's latest is checked at every read of the dispute
/// (`log_consistency`, [`super::log_consistency`]).
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum LogFinding {
    /// The leaf of the last event, recomputed from the stored event under the hand's
    /// salt, is leaf `leaf_index` of the checkpoint's tree by `inclusion`.
    Included {
        /// Where the leaf is, and the proof.
        #[serde(flatten)]
        at: LogPlace,
    },
    /// The log holds another leaf where the hand's last event was ordered: the event was
    /// changed after it was logged (or the log's tiles were).
    NotIncluded {
        /// Where the leaf should be, and the proof that does not lead to the root.
        #[serde(flatten)]
        at: LogPlace,
        /// What failed.
        detail: String,
    },
    /// The hand's last event is not under a signed checkpoint yet (the log builder runs
    /// every half second), or not ordered yet.
    NotInLogYet {
        /// Says so.
        detail: String,
    },
    /// The log could not be read to answer (a tile missing or malformed: `audit` names it).
    Unavailable {
        /// Why, without any secret.
        detail: String,
    },
}

/// A checkpoint as a finding shows it.
#[derive(Clone, Debug, Serialize)]
pub struct CheckpointFact {
    /// The log's origin.
    pub origin: String,
    /// Its tree size.
    pub size: u64,
    /// Its root, hex.
    pub root: String,
    /// The signed note, as stored.
    pub note: String,
}

/// The hand's last event in the club log.
#[derive(Clone, Debug, Serialize)]
pub struct LogPlace {
    /// The checkpoint checked against: the latest when the dispute was opened.
    pub checkpoint: CheckpointFact,
    /// The leaf index (the event's place in the club's order).
    pub leaf_index: u64,
    /// The last event's seq.
    pub seq: u64,
    /// The last event's hash, recomputed from the event as stored.
    pub event_hash: String,
    /// The leaf hash recomputed from it (RFC 6962 `SHA-256(0x00 || entry)`).
    pub leaf_hash: String,
    /// The inclusion proof of leaf `leaf_index` in the checkpoint's tree, from the
    /// log's tiles, bottom up.
    pub inclusion: Vec<String>,
}

/// One committed shuffle of the hand.
#[derive(Clone, Debug, Serialize)]
pub struct ShuffleFinding {
    /// The shuffle's number.
    pub shuffle: u32,
    /// The event that committed to it.
    pub committed_at: u64,
    /// The commitment.
    pub commitment: String,
    /// The server seed, as the hand's reveal published it.
    pub server_seed: Option<String>,
    /// Whether `SHA-256` of the revealed seed is the commitment.
    pub seed_matches: Option<bool>,
    /// The client seeds given for it, in order.
    pub client_seeds: Vec<Value>,
    /// The event that used it.
    pub used_at: Option<u64>,
    /// Why the engine asked for it.
    pub reason: Option<String>,
    /// How many cards it ordered.
    pub cards: Option<u32>,
    /// The seats asked that gave no client seed.
    pub missing: Vec<u8>,
}

/// An event's integrity.
#[derive(Clone, Debug, Serialize)]
pub struct EventIntegrity {
    /// Its seq.
    pub seq: i64,
    /// Its kind as stored.
    pub kind: String,
    /// Whether it reads as a signed record.
    pub reads: bool,
    /// Whether its hash is the hash of the event.
    pub hash_ok: bool,
    /// Whether its `prev` is the previous event's hash, and its seq its place.
    pub chain_ok: bool,
    /// The signing key.
    pub signer: Option<String>,
    /// Whether the signer is one of the service's keys.
    pub signer_known: bool,
    /// Whether the service's signature verifies.
    pub signature_ok: bool,
}

/// A stored projection against the log.
#[derive(Clone, Debug, Serialize)]
pub struct ProjectionCheck {
    /// What is compared.
    pub field: String,
    /// As stored.
    pub stored: Value,
    /// As the log says.
    pub logged: Value,
    /// Whether they are equal.
    pub equal: bool,
}

/// One seat's line of the settlement.
#[derive(Clone, Debug, Serialize)]
pub struct SettlementLine {
    /// The seat.
    pub seat: u8,
    /// Its player.
    pub player: String,
    /// Its balance or side's score before the hand.
    pub before: Option<i64>,
    /// What the hand gave it (toman or points).
    pub delta: i64,
    /// After the hand.
    pub after: Option<i64>,
    /// `won`, `lost` or `even`.
    pub judged: String,
    /// A title the game gives, if any.
    pub title: Option<String>,
    /// For money: whether before + delta = after.
    pub adds_up: Option<bool>,
}

/// What bears on the claim's kind.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ClaimFinding {
    /// Each shuffle's commitment, revealed seed and client seeds.
    UnfairDeal {
        /// Whether the hand's seeds were revealed.
        revealed: bool,
        /// Whether every revealed seed matches its commitment.
        all_match: bool,
        /// Whether the fold re-derived every shuffle with these seeds and found every
        /// recorded effect (the verdict's).
        fold_ok: bool,
        /// The shuffles.
        shuffles: Vec<ShuffleFinding>,
    },
    /// Who signed the action, and with which key.
    ActionNotMine {
        /// The event.
        seq: u64,
        /// Its kind.
        event_kind: String,
        /// Who acted, as the event says.
        actor: Option<Value>,
        /// The seat's player.
        player: Option<String>,
        /// The action.
        action: Option<Value>,
        /// The key the seat's player registered, as the hand's first event records it.
        registered_key: Option<Value>,
        /// The player's signature in the event, if any.
        player_sig: Option<Value>,
        /// Whether it verifies with the registered key over the action message.
        player_sig_valid: Option<bool>,
        /// The service key that signed the event.
        service_signer: Option<String>,
        /// Whether that is one of the service's keys.
        service_signer_known: bool,
        /// Whether it is the service's current key.
        service_signer_current: bool,
        /// Whether the service's hash and signature hold.
        service_signature_ok: bool,
        /// `signed_by_player`, `player_signature_invalid`, `unsigned_key_registered`,
        /// `unsigned_no_key`, `service_action` or `not_an_action`.
        conclusion: String,
    },
    /// The settlement recomputed by replaying the hand, step by step.
    WrongScore {
        /// Whether the hand was replayed.
        replayed: bool,
        /// Why not, or where the replay failed.
        problem: Option<String>,
        /// The outcome the replay computes.
        recomputed: Option<Value>,
        /// The outcome the log's `hand_ended` records.
        logged: Option<Value>,
        /// The outcome the hand's row holds (the projection history reads).
        stored: Option<Value>,
        /// Whether the hand replayed and its recomputed outcome is the logged one (both
        /// none for an abandoned hand).
        matches_log: bool,
        /// Whether the stored outcome is the logged one.
        matches_row: bool,
        /// `toman`, `points` or `none`.
        unit: Option<String>,
        /// One line per seat.
        lines: Vec<SettlementLine>,
        /// Whether the table's match state is this hand's end (`None` when later hands
        /// followed, or the hand did not complete).
        table_matches: Option<bool>,
        /// Every event with effects, in order: what the engine decided at each step.
        steps: Vec<Value>,
    },
    /// The state before the event, and whether the rules allowed the action.
    RuleBroken {
        /// The event.
        seq: u64,
        /// Its kind.
        event_kind: String,
        /// Who acted.
        actor: Option<Value>,
        /// The action.
        action: Option<Value>,
        /// Whether the hand was replayed up to the event.
        replayed: bool,
        /// Why not.
        problem: Option<String>,
        /// Who was to act then.
        to_act: Option<Value>,
        /// The actor's legal actions then.
        legal_actions: Vec<Value>,
        /// Whether the engine accepts the action there.
        accepted: Option<bool>,
        /// The rule it breaks, if it does not.
        violation: Option<Value>,
        /// Whether the recorded effects are the engine's.
        effects_match: Option<bool>,
    },
    /// Every event's integrity, and the stored projections against the log.
    RecordAltered {
        /// Each event.
        events: Vec<EventIntegrity>,
        /// The first event that fails, and the check.
        first_problem: Option<Value>,
        /// The hand's row and the table's state against the log.
        projections: Vec<ProjectionCheck>,
    },
}

/// A finished hand's stored events: each row, and its record when it reads as one.
pub(crate) struct Stored {
    pub(crate) rows: Vec<EventRow>,
    pub(crate) records: Vec<Option<Record>>,
}

impl Stored {
    /// The records up to the first that does not read.
    fn readable(&self) -> Vec<Record> {
        self.records.iter().map_while(Clone::clone).collect()
    }

    /// The hand's reveal, when its last event is one: its seeds and openings.
    fn reveal(&self) -> Option<(Vec<Option<ServerSeed>>, Vec<OpenedInput>)> {
        match self.records.last()?.as_ref().map(|r| &r.event.body)? {
            Body::SeedsRevealed { seeds, inputs, .. } => Some((
                seeds
                    .iter()
                    .map(|s| ServerSeed::from_hex(&s.server_seed).ok())
                    .collect(),
                inputs.clone(),
            )),
            _ => None,
        }
    }

    fn first(&self) -> Option<&Body> {
        self.records.first()?.as_ref().map(|r| &r.event.body)
    }

    fn ended(&self) -> Option<(&Value, &Value)> {
        self.records
            .iter()
            .flatten()
            .find_map(|r| match &r.event.body {
                Body::HandEnded {
                    outcome,
                    next_match,
                } => Some((outcome, next_match)),
                _ => None,
            })
    }
}

/// Reads every stored event of a hand (from the store its reads go to).
pub(crate) async fn load(svc: &Service, row: &HandRow) -> ApiResult<Stored> {
    const PAGE: i64 = 1000;
    let mut rows: Vec<EventRow> = Vec::new();
    loop {
        let from = i64::try_from(rows.len()).map_err(ApiError::internal)?;
        let page = crate::hands::reads_of(svc, row)
            .list_events(&row.club_id, &row.hand_id, from, PAGE)
            .await?;
        let n = page.len();
        rows.extend(page);
        if i64::try_from(n).unwrap_or(0) < PAGE {
            break;
        }
    }
    let records = rows
        .iter()
        .map(|r| r.record.parse::<Record>().ok())
        .collect();
    Ok(Stored { rows, records })
}

fn u64_of(v: i64) -> u64 {
    u64::try_from(v).unwrap_or(0)
}

/// The log's own status of a hand (its end event), for a bundle of a quarantined hand.
fn log_status(stored: &Stored) -> &'static str {
    for r in stored.records.iter().flatten() {
        match r.event.body {
            Body::HandEnded { .. } => return "completed",
            Body::Abandoned { .. } => return "abandoned",
            _ => {}
        }
    }
    "in_progress"
}

/// The hand's bundle as stored (the records as they are, unreadable ones included), for
/// the verifier: the same bundle `GET …/bundle` serves, and for a quarantined hand the one
/// it would serve.
fn bundle_json(svc: &Service, row: &HandRow, stored: &Stored) -> Value {
    let mut keys: Vec<Value> = Vec::new();
    for r in stored.records.iter().flatten() {
        if let Some(k) = svc.keys.public(&r.signer) {
            let v = json!({"key_id": k.key_id(), "public_key": k});
            if !keys.contains(&v) {
                keys.push(v);
            }
        }
    }
    let records: Vec<Value> = stored
        .rows
        .iter()
        .map(|r| r.record.to_value().unwrap_or(Value::Null))
        .collect();
    let status = match row.status {
        HandStatus::Quarantined => log_status(stored),
        other => other.as_str(),
    };
    json!({
        "format": replayer::bundle::BUNDLE_FORMAT,
        "version": replayer::bundle::BUNDLE_VERSION,
        "hand": row.hand_id,
        "game": row.game,
        "status": status,
        "keys": keys,
        "records": records,
    })
}

fn problem_view(p: replayer::verify::Problem) -> ProblemView {
    ProblemView {
        event: p.event,
        seat: p.seat.map(|s| s.0),
        rule: p.rule,
        expected: p.expected,
        found: p.found,
    }
}

fn verdict(svc: &Service, row: &HandRow, stored: &Stored) -> VerdictFinding {
    let opts = Options {
        trusted_keys: svc.keys.public_keys(),
    };
    match verify_value(bundle_json(svc, row, stored), &opts) {
        Ok(v) => VerdictFinding {
            valid: v.valid,
            trust: "trusted_key".into(),
            signers: v.signers.iter().map(|k| k.0.clone()).collect(),
            player_signatures: v.player_signatures,
            outcome: v.outcome,
            problem: v.problem.map(problem_view),
        },
        Err(e) => VerdictFinding {
            valid: false,
            trust: "trusted_key".into(),
            signers: Vec::new(),
            player_signatures: 0,
            outcome: None,
            problem: Some(ProblemView {
                event: None,
                seat: None,
                rule: "bundle_unreadable".into(),
                expected: "a readable hand bundle".into(),
                found: e.to_string(),
            }),
        },
    }
}

async fn stored_log(svc: &Service, row: &HandRow) -> ApiResult<StoredLog> {
    let damage = match crate::hands::damage_of(svc, row).await {
        Ok(d) => d,
        // A quarantined hand is refused by the readers before its log is rebuilt: its
        // quarantine record says where the log failed.
        Err(e) if e.code == Code::HandQuarantined => {
            row.quarantine.as_ref().map(|q| crate::hands::Damage {
                seq: u64_of(q.seq),
                rule: q.rule.clone(),
            })
        }
        Err(e) => return Err(e),
    };
    Ok(match damage {
        None => StoredLog {
            intact: true,
            seq: None,
            rule: None,
        },
        Some(d) => StoredLog {
            intact: false,
            seq: Some(d.seq),
            rule: Some(d.rule),
        },
    })
}

/// The match state a hand must start from: the one the hand before left, with the awards
/// of the penalty rulings the hand carries (`hand_started`'s `adjustments`) applied in order
/// by the game's engine; `None` when the engine refuses one (the match file's verdict,
/// `matches`, names why).
fn with_adjustments(table: &TableRow, stored: &Stored, state: Value) -> Option<Value> {
    let Some(Body::HandStarted {
        adjustments, rules, ..
    }) = stored.first()
    else {
        return Some(state);
    };
    if adjustments.is_empty() {
        return Some(state);
    }
    let engine = table
        .game
        .parse::<replayer::engine::GameId>()
        .ok()
        .and_then(|g| replayer::games::registry(g).ok())?;
    adjustments
        .iter()
        .try_fold(state, |m, a| engine.apply_award(rules, &m, &a.award).ok())
}

async fn match_link(
    svc: &Service,
    row: &HandRow,
    table: &TableRow,
    stored: &Stored,
) -> ApiResult<MatchLink> {
    let (found_prev, started) = match stored.first() {
        Some(Body::HandStarted {
            prev_hand,
            match_state,
            ..
        }) => (
            prev_hand.as_ref().map(|p| PrevView {
                hand: p.hand.clone(),
                hash: p.hash.to_hex(),
            }),
            Some(match_state.clone()),
        ),
        _ => (None, None),
    };
    let expected = if row.hand_no <= 1 {
        crate::hands::initial_state(table).map(|s| (None, s))
    } else {
        crate::hands::match_link(svc, &row.club_id, table, row.hand_no).await
    };
    let (expected_prev, state, problem) = match expected {
        Ok((prev, state)) => (
            prev.map(|p| PrevView {
                hand: p.hand,
                hash: p.hash.to_hex(),
            }),
            with_adjustments(table, stored, state),
            None,
        ),
        Err(e) if e.code == Code::MatchBroken => (None, None, Some(e.detail)),
        Err(e) => return Err(e),
    };
    let matches = match crate::hands::match_file_of(svc, table).await {
        Ok(file) => {
            let opts = Options {
                trusted_keys: svc.keys.public_keys(),
            };
            let hands = file.hands.len();
            let value = serde_json::to_value(&file).map_err(ApiError::internal)?;
            match replayer::matches::verify_match_value(value, &opts) {
                Ok(v) => MatchVerdictView {
                    valid: v.valid,
                    hands,
                    problem: v
                        .problem
                        .map(|p| serde_json::to_value(p).unwrap_or(Value::Null)),
                },
                Err(e) => MatchVerdictView {
                    valid: false,
                    hands,
                    problem: Some(json!({"rule": "unreadable", "found": e.to_string()})),
                },
            }
        }
        Err(e) if e.code == Code::Unavailable => return Err(e),
        Err(e) => MatchVerdictView {
            valid: false,
            hands: 0,
            problem: Some(json!({"rule": e.code.as_str(), "found": e.detail})),
        },
    };
    Ok(MatchLink {
        hand_no: row.hand_no,
        prev_ok: problem.is_none() && expected_prev == found_prev,
        state_ok: state.is_some() && state == started,
        expected_prev,
        found_prev,
        problem,
        matches,
    })
}

/// The hand's records restored up to (not including) event `upto`, with the seeds and
/// openings its reveal published.
fn replay_to(stored: &Stored, upto: usize) -> Result<LiveHand, String> {
    let Some((seeds, openings)) = stored.reveal() else {
        return Err(
            "the hand's seeds were never revealed (its log does not end in seeds_revealed): \
             it is not replayed"
                .into(),
        );
    };
    let records = stored.readable();
    let prefix = records
        .get(..upto.min(records.len()))
        .ok_or_else(|| "no such event".to_string())?;
    if prefix.len() < upto {
        return Err(format!(
            "event {} does not read as a signed record",
            prefix.len()
        ));
    }
    LiveHand::restore(prefix, seeds, openings, SeedSource::Os).map_err(|e| e.to_string())
}

fn unfair_deal(stored: &Stored, verdict: &VerdictFinding) -> ClaimFinding {
    let revealed: Vec<Option<String>> = match stored.records.last().and_then(Option::as_ref) {
        Some(Record {
            event:
                replayer::log::Event {
                    body: Body::SeedsRevealed { seeds, .. },
                    ..
                },
            ..
        }) => seeds.iter().map(|s| Some(s.server_seed.clone())).collect(),
        _ => Vec::new(),
    };
    let mut shuffles: Vec<ShuffleFinding> = Vec::new();
    for r in stored.records.iter().flatten() {
        let seq = r.event.seq;
        match &r.event.body {
            Body::HandStarted { commitment, .. } => shuffles.push(shuffle(0, seq, commitment)),
            Body::ShuffleCommitted {
                shuffle: k,
                commitment,
            } => shuffles.push(shuffle(*k, seq, commitment)),
            Body::ClientSeed {
                shuffle: k,
                seat,
                seed,
            } => {
                if let Some(s) = shuffles.iter_mut().find(|s| s.shuffle == *k) {
                    s.client_seeds
                        .push(json!({"seat": seat, "seed": seed.to_hex(), "seq": seq}));
                }
            }
            Body::Shuffled {
                shuffle: k,
                reason,
                cards,
                missing,
                ..
            } => {
                if let Some(s) = shuffles.iter_mut().find(|s| s.shuffle == *k) {
                    s.used_at = Some(seq);
                    s.reason = Some(reason.clone());
                    s.cards = Some(*cards);
                    s.missing = missing.iter().flatten().map(|m| m.0).collect();
                }
            }
            _ => {}
        }
    }
    for s in &mut shuffles {
        let seed = usize::try_from(s.shuffle)
            .ok()
            .and_then(|k| revealed.get(k).cloned().flatten());
        s.seed_matches = seed.as_deref().map(|h| {
            ServerSeed::from_hex(h).is_ok_and(|seed| seed.commitment().to_hex() == s.commitment)
        });
        s.server_seed = seed;
    }
    ClaimFinding::UnfairDeal {
        revealed: !revealed.is_empty(),
        all_match: !revealed.is_empty() && shuffles.iter().all(|s| s.seed_matches == Some(true)),
        fold_ok: verdict.valid,
        shuffles,
    }
}

fn shuffle(k: u32, seq: u64, commitment: &replayer::shuffle::Commitment) -> ShuffleFinding {
    ShuffleFinding {
        shuffle: k,
        committed_at: seq,
        commitment: commitment.to_hex(),
        server_seed: None,
        seed_matches: None,
        client_seeds: Vec::new(),
        used_at: None,
        reason: None,
        cards: None,
        missing: Vec::new(),
    }
}

fn actor_json(a: &Actor) -> Value {
    serde_json::to_value(a).unwrap_or(Value::Null)
}

/// Whether a record's hash holds and one of the service's keys signed it.
fn service_signature_ok(svc: &Service, r: &Record) -> bool {
    hash_event(&r.event).is_ok_and(|h| h == r.hash)
        && svc
            .keys
            .public(&r.signer)
            .is_some_and(|k| k.verify(&signature_message(&r.hash), &r.sig))
}

fn action_not_mine(svc: &Service, row: &HandRow, stored: &Stored, seq: u64) -> ClaimFinding {
    let record = usize::try_from(seq)
        .ok()
        .and_then(|i| stored.records.get(i))
        .and_then(Option::as_ref);
    let seats = match stored.first() {
        Some(Body::HandStarted { seats, .. }) => seats.clone(),
        _ => Vec::new(),
    };
    let event_kind = record.map_or_else(
        || "unreadable".to_string(),
        |r| r.event.body.kind().to_string(),
    );
    let (actor, action) = match record.map(|r| &r.event.body) {
        Some(Body::Action { actor, action, .. }) => (Some(*actor), Some(action.clone())),
        Some(Body::PrivateAction { actor, public, .. }) => (Some(*actor), Some(public.clone())),
        _ => (None, None),
    };
    let seat: Option<SeatIndex> = match actor {
        Some(Actor::Seat(s)) => Some(s),
        _ => None,
    };
    let info = seat.and_then(|s| seats.iter().find(|i| i.seat == s));
    let registered = info.and_then(|i| i.public_key);
    let player_sig = record.and_then(|r| r.event.player_sig.clone());
    let player_sig_valid = match (record, &player_sig, registered, actor, &action) {
        (Some(r), Some(ps), Some(key), Some(actor), Some(action)) => Some(
            ps.key_id == key.key_id()
                && action_message(&r.event.hand, r.event.seq, &r.event.prev, actor, action)
                    .is_ok_and(|m| key.verify(&m, &ps.sig)),
        ),
        (_, Some(_), _, _, _) => Some(false),
        _ => None,
    };
    let conclusion = match (actor, &player_sig, player_sig_valid, registered) {
        (None, _, _, _) => "not_an_action",
        (Some(Actor::Service), _, _, _) => "service_action",
        (Some(_), Some(_), Some(true), _) => "signed_by_player",
        (Some(_), Some(_), _, _) => "player_signature_invalid",
        (Some(_), None, _, Some(_)) => "unsigned_key_registered",
        (Some(_), None, _, None) => "unsigned_no_key",
    };
    let current = svc.keys.current().key_id();
    ClaimFinding::ActionNotMine {
        seq,
        event_kind,
        actor: actor.as_ref().map(actor_json),
        player: seat.and_then(|s| row.players.get(s.index()).cloned()),
        action,
        registered_key: registered.map(|k| json!({"key_id": k.key_id(), "public_key": k})),
        player_sig: player_sig.map(|p| json!({"key_id": p.key_id, "sig": p.sig})),
        player_sig_valid,
        service_signer: record.map(|r| r.signer.0.clone()),
        service_signer_known: record.is_some_and(|r| svc.keys.public(&r.signer).is_some()),
        service_signer_current: record.is_some_and(|r| r.signer == current),
        service_signature_ok: record.is_some_and(|r| service_signature_ok(svc, r)),
        conclusion: conclusion.to_string(),
    }
}

/// Whether the table's match state is meant to be this hand's end: the hand completed and
/// no later hand of the table (but quarantined ones) finished after it.
async fn is_latest(svc: &Service, row: &HandRow, table: &TableRow) -> ApiResult<bool> {
    if row.status != HandStatus::Completed {
        return Ok(false);
    }
    let hands = crate::hands::table_hands(svc, table).await?;
    Ok(!hands.iter().any(|h| {
        h.hand_no > row.hand_no && matches!(h.status, HandStatus::Completed | HandStatus::Abandoned)
    }))
}

async fn wrong_score(
    svc: &Service,
    row: &HandRow,
    table: &TableRow,
    stored: &Stored,
) -> ApiResult<ClaimFinding> {
    let logged = stored.ended().map(|(o, _)| o.clone());
    let next_logged = stored.ended().map(|(_, n)| n.clone());
    let stored_outcome = row.outcome.clone();
    let steps: Vec<Value> = stored
        .records
        .iter()
        .flatten()
        .filter_map(|r| match &r.event.body {
            Body::Action {
                actor,
                action,
                effects,
            } => Some(json!({"seq": r.event.seq, "type": "action", "actor": actor,
                              "action": action, "effects": effects})),
            Body::Shuffled {
                shuffle, effects, ..
            } => Some(
                json!({"seq": r.event.seq, "type": "shuffled", "shuffle": shuffle,
                              "effects": effects}),
            ),
            Body::HandEnded { outcome, .. } => {
                Some(json!({"seq": r.event.seq, "type": "hand_ended", "outcome": outcome}))
            }
            _ => None,
        })
        .collect();
    let total = stored.records.len();
    let (replayed, problem, recomputed) = match replay_to(stored, total) {
        Ok(h) => (true, None, h.outcome().cloned()),
        Err(e) => (false, Some(e), None),
    };
    let mut lines = Vec::new();
    let mut unit = None;
    if let (Some(outcome), Ok(game)) = (
        recomputed.as_ref().or(logged.as_ref()),
        row.game.parse::<replayer::engine::GameId>(),
    ) {
        if let Ok(engine) = registry(game) {
            let started = match stored.first() {
                Some(Body::HandStarted { match_state, .. }) => engine.standings(match_state).ok(),
                _ => None,
            };
            let after = next_logged.as_ref().and_then(|m| engine.standings(m).ok());
            let u = started.as_ref().or(after.as_ref()).map(|s| s.unit);
            unit = u.map(|u| match u {
                ScoreUnit::Toman => "toman",
                ScoreUnit::Points => "points",
                ScoreUnit::None => "none",
            });
            for r in engine.results(outcome).unwrap_or_default() {
                let i = r.seat.index();
                let before = started.as_ref().and_then(|s| s.per_seat.get(i).copied());
                let after = after.as_ref().and_then(|s| s.per_seat.get(i).copied());
                lines.push(SettlementLine {
                    seat: r.seat.0,
                    player: row.players.get(i).cloned().unwrap_or_default(),
                    before,
                    delta: r.delta,
                    after,
                    judged: serde_json::to_value(r.judged)
                        .ok()
                        .and_then(|v| v.as_str().map(str::to_string))
                        .unwrap_or_default(),
                    title: r.title.clone(),
                    adds_up: match (u, before, after) {
                        (Some(ScoreUnit::Toman), Some(b), Some(a)) => {
                            Some(b.checked_add(r.delta) == Some(a))
                        }
                        _ => None,
                    },
                });
            }
        }
    }
    let table_matches = if is_latest(svc, row, table).await? {
        next_logged.as_ref().map(|n| *n == table.match_state)
    } else {
        None
    };
    Ok(ClaimFinding::WrongScore {
        replayed,
        problem,
        // An abandoned hand has no outcome either way: replayed, nothing to differ.
        matches_log: replayed && recomputed == logged,
        matches_row: stored_outcome == logged,
        recomputed,
        logged,
        stored: stored_outcome,
        unit: unit.map(str::to_string),
        lines,
        table_matches,
        steps,
    })
}

fn rule_broken(stored: &Stored, seq: u64) -> ClaimFinding {
    let i = usize::try_from(seq).unwrap_or(usize::MAX);
    let record = stored.records.get(i).and_then(Option::as_ref);
    let event_kind = record.map_or_else(
        || "unreadable".to_string(),
        |r| r.event.body.kind().to_string(),
    );
    let (actor, action, effects) = match record.map(|r| &r.event.body) {
        Some(Body::Action {
            actor,
            action,
            effects,
        }) => (Some(*actor), Some(action.clone()), Some(effects.clone())),
        _ => (None, None, None),
    };
    let mut f = ClaimFinding::RuleBroken {
        seq,
        event_kind,
        actor: actor.as_ref().map(actor_json),
        action: action.clone(),
        replayed: false,
        problem: None,
        to_act: None,
        legal_actions: Vec::new(),
        accepted: None,
        violation: None,
        effects_match: None,
    };
    let ClaimFinding::RuleBroken {
        replayed,
        problem,
        to_act,
        legal_actions,
        accepted,
        violation,
        effects_match,
        ..
    } = &mut f
    else {
        return f;
    };
    let (Some(actor), Some(action)) = (actor, action) else {
        *problem = Some("the event is not an action: no rule of play applies to it".into());
        return f;
    };
    match replay_to(stored, i) {
        Err(e) => *problem = Some(e),
        Ok(hand) => {
            *replayed = true;
            *to_act = serde_json::to_value(hand.to_act()).ok();
            *legal_actions = hand.legal_actions(actor);
            let mut engine = hand.engine().clone_box();
            match engine.apply(actor, &action) {
                Ok(got) => {
                    *accepted = Some(true);
                    *effects_match = effects.map(|e| e == got);
                }
                Err(v) => {
                    *accepted = Some(false);
                    *violation = serde_json::to_value(v).ok();
                }
            }
        }
    }
    f
}

async fn record_altered(
    svc: &Service,
    row: &HandRow,
    table: &TableRow,
    stored: &Stored,
) -> ApiResult<ClaimFinding> {
    let mut events = Vec::new();
    let mut first_problem: Option<Value> = None;
    let mut prev = Hash::ZERO;
    for (i, (r, rec)) in stored.rows.iter().zip(&stored.records).enumerate() {
        let at = i64::try_from(i).unwrap_or(i64::MAX);
        let mut e = EventIntegrity {
            seq: r.seq,
            kind: r.kind.clone(),
            reads: rec.is_some(),
            hash_ok: false,
            chain_ok: false,
            signer: None,
            signer_known: false,
            signature_ok: false,
        };
        if let Some(rec) = rec {
            e.hash_ok = hash_event(&rec.event).is_ok_and(|h| h == rec.hash);
            e.chain_ok = rec.event.prev == prev
                && i64::try_from(rec.event.seq).ok() == Some(at)
                && r.seq == at
                && rec.event.hand == row.hand_id;
            e.signer = Some(rec.signer.0.clone());
            let key = svc.keys.public(&rec.signer);
            e.signer_known = key.is_some();
            e.signature_ok = key.is_some_and(|k| k.verify(&signature_message(&rec.hash), &rec.sig));
            prev = rec.hash;
        }
        if first_problem.is_none() {
            let rule = [
                (!e.reads, "record"),
                (!e.hash_ok, "hash"),
                (!e.chain_ok, "chain"),
                (!e.signer_known, "signer"),
                (!e.signature_ok, "signature"),
            ]
            .into_iter()
            .find_map(|(bad, rule)| bad.then_some(rule));
            if let Some(rule) = rule {
                first_problem = Some(json!({"seq": r.seq, "rule": rule}));
            }
        }
        events.push(e);
    }
    let mut projections = Vec::new();
    let mut check = |field: &str, stored: Value, logged: Value| {
        projections.push(ProjectionCheck {
            field: field.to_string(),
            equal: stored == logged,
            stored,
            logged,
        });
    };
    if let Some(Body::HandStarted {
        table: t,
        hand_no,
        game,
        ..
    }) = stored.first()
    {
        check("table_id", json!(row.table_id), json!(t));
        check("hand_no", json!(row.hand_no), json!(hand_no));
        check("game", json!(row.game), json!(game));
    }
    let logged_status = log_status(stored);
    if row.status != HandStatus::Quarantined {
        check("status", json!(row.status.as_str()), json!(logged_status));
        check(
            "outcome",
            json!(row.outcome),
            json!(stored.ended().map(|(o, _)| o)),
        );
        let reason = stored
            .records
            .iter()
            .flatten()
            .find_map(|r| match &r.event.body {
                Body::Abandoned { reason } => Some(reason.clone()),
                _ => None,
            });
        check("abandon_reason", json!(row.abandon_reason), json!(reason));
    }
    if is_latest(svc, row, table).await? {
        if let Some((_, next)) = stored.ended() {
            check("table.match_state", table.match_state.clone(), next.clone());
        }
    }
    Ok(ClaimFinding::RecordAltered {
        events,
        first_problem,
        projections,
    })
}

/// The log finding: the hand's last event (as stored now) against the club log's latest
/// checkpoint, with the proof from the log's tiles.
async fn log_finding(svc: &Service, row: &HandRow, stored: &Stored) -> ApiResult<LogFinding> {
    use replayer::tlog::{verify_inclusion, Checkpoint, LeafEntry, LeafInput};
    let not_yet = |detail: &str| LogFinding::NotInLogYet {
        detail: detail.to_string(),
    };
    let club = row.club_id.as_str();
    let Some(last) = stored.rows.last() else {
        return Ok(not_yet("the hand has no stored event"));
    };
    let Some(gid) = last.gid.and_then(|g| u64::try_from(g).ok()) else {
        return Ok(not_yet(
            "the hand's last event is not ordered in the club's log yet",
        ));
    };
    let Some(cp) = svc.store.latest_checkpoint(club).await? else {
        return Ok(not_yet("the club's log has no checkpoint yet"));
    };
    let size = u64_of(cp.size);
    if gid >= size {
        return Ok(not_yet(
            "the hand's last event is not under a signed checkpoint yet",
        ));
    }
    let Ok(parsed) = Checkpoint::parse_unverified(&cp.note) else {
        return Ok(LogFinding::Unavailable {
            detail: "the latest stored checkpoint does not read as a checkpoint".into(),
        });
    };
    // The event as stored now: its hash recomputed from the event, or (an event that does
    // not read) the stored hash column.
    let event_hash = match stored.records.last().and_then(Option::as_ref) {
        Some(r) => hash_event(&r.event).ok(),
        None => Hash::from_hex(&last.hash).ok(),
    };
    let Some(event_hash) = event_hash else {
        return Ok(LogFinding::Unavailable {
            detail: "the hand's last event has no hash the leaf can be made of".into(),
        });
    };
    let salt = crate::clublog::hand_salt(&svc.seal, club, &row.hand_id);
    let Ok(entry) = LeafEntry::new(
        &salt,
        &LeafInput {
            club,
            hand: &row.hand_id,
            seq: u64_of(last.seq),
            event_hash,
        },
    ) else {
        return Ok(LogFinding::Unavailable {
            detail: "the hand's ids cannot make a leaf".into(),
        });
    };
    let proof = match crate::clublog::inclusion(svc.store.as_ref(), club, gid, size).await {
        Ok(p) => p,
        Err(crate::clublog::LogError::Store(e)) => return Err(e.into()),
        Err(e) => {
            tracing::warn!(club_id = %club, error = %e, "no inclusion proof for a dispute");
            return Ok(LogFinding::Unavailable {
                detail:
                    "the club log's tiles cannot give the proof (audit-service audit names why)"
                        .into(),
            });
        }
    };
    let at = LogPlace {
        checkpoint: CheckpointFact {
            origin: parsed.origin.to_string(),
            size,
            root: parsed.root.to_hex(),
            note: cp.note.clone(),
        },
        leaf_index: gid,
        seq: u64_of(last.seq),
        event_hash: event_hash.to_hex(),
        leaf_hash: entry.leaf_hash().to_hex(),
        inclusion: proof.iter().map(Hash::to_hex).collect(),
    };
    Ok(
        match verify_inclusion(&entry.leaf_hash(), gid, size, &proof, &parsed.root) {
            Ok(()) => LogFinding::Included { at },
            Err(e) => LogFinding::NotIncluded {
                at,
                detail: format!(
                    "the leaf of the hand's last event as stored is not the log's leaf {gid}: {e}"
                ),
            },
        },
    )
}

/// The findings of a dispute of `kind` on `row` (a finished hand of `table`), about event
/// `event` if given (which the caller checked the hand has).
pub(crate) async fn compute(
    svc: &Service,
    row: &HandRow,
    table: &TableRow,
    stored: &Stored,
    kind: DisputeKind,
    event: Option<u64>,
) -> ApiResult<Findings> {
    let verdict = verdict(svc, row, stored);
    let claim = match kind {
        DisputeKind::UnfairDeal => unfair_deal(stored, &verdict),
        DisputeKind::ActionNotMine => action_not_mine(svc, row, stored, event.unwrap_or(0)),
        DisputeKind::WrongScore => wrong_score(svc, row, table, stored).await?,
        DisputeKind::RuleBroken => rule_broken(stored, event.unwrap_or(0)),
        DisputeKind::RecordAltered => record_altered(svc, row, table, stored).await?,
    };
    Ok(Findings {
        version: FINDINGS_VERSION,
        computed_ms: crate::now_ms(),
        hand: HandFacts {
            hand_id: row.hand_id.clone(),
            table_id: row.table_id.clone(),
            hand_no: row.hand_no,
            game: row.game.clone(),
            status: row.status.as_str().to_string(),
            events: u64::try_from(stored.rows.len()).unwrap_or(u64::MAX),
            players: row.players.clone(),
        },
        verdict,
        stored_log: stored_log(svc, row).await?,
        match_link: match_link(svc, row, table, stored).await?,
        log: log_finding(svc, row, stored).await?,
        claim,
    })
}
