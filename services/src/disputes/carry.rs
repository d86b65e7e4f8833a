//! Carrying a penalty ruling's award into the table's match (docs/DISPUTES.md,
//! "Penalties"). When a hand starts, every dispute on an earlier hand of the table's match
//! whose ruling in force is a `penalty`, and whose award no earlier hand of the match
//! carried, is carried: its award is applied to the match state the hand starts from, by
//! the game's engine (`DynGame::apply_award`), in the order the rulings were recorded, and
//! the hand's `hand_started` names each (`adjustments`, docs/EVENT-LOG.md §3.1).
//!
//! Everything here is read from signed records, never from a projection: the rulings from
//! the disputes' stored entries, each record checked as signed by one of the service's keys
//! (`replayer::dispute::verify_record`), and what earlier hands carried from their own
//! `hand_started`, its hash and signature checked. The disputes' rows are only the index
//! that finds a table's disputes.
//!
//! A dispute's award counts once in the match: a later ruling on a dispute whose award was
//! carried is recorded but not carried (`dispute_carried`); a ruling superseded before any
//! hand carried it is not carried (`superseded`); one that comes when the match is over,
//! or after awards carried before it ended the match, is not carried (`match_over`).

use std::collections::BTreeMap;

use replayer::dispute::{verify_record, Decision, EntryBody, EntryRecord};
use replayer::engine::DynGame;
use replayer::log::{Adjustment, Body, PublicKey, Record};
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;

use crate::api::errors::{ApiError, ApiResult};
use crate::store::{DisputeFilter, HandRow, HandStatus, TableRow};
use crate::Service;

/// Disputes read per page when looking for a table's rulings.
const PAGE: i64 = 200;

/// Whether and where a penalty ruling's award counts in the table's match (the
/// `carried` of a ruling in `GET /v1/disputes/{id}`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct CarryView {
    /// `applied`: the hand `hand_id` (number `hand_no`) started from the match state with
    /// the award applied; `pending`: the table's next hand will start with it;
    /// `not_carried`: it does not count in the match, for `reason`.
    pub status: String,
    /// The hand that applied it (`applied`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hand_id: Option<String>,
    /// That hand's number in the match (`applied`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hand_no: Option<u64>,
    /// Why it is not carried (`not_carried`): `match_over` (the match was over before the
    /// award could count), `superseded` (a later ruling came before a hand carried it),
    /// `dispute_carried` (an earlier ruling of the dispute was carried: a dispute's award
    /// counts once), `hand_quarantined` (the ruled hand was quarantined: it is no hand of
    /// the match's chain).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

impl CarryView {
    fn applied(hand: &HandRow) -> CarryView {
        CarryView {
            status: "applied".into(),
            hand_id: Some(hand.hand_id.clone()),
            hand_no: u64::try_from(hand.hand_no).ok(),
            reason: None,
        }
    }

    fn pending() -> CarryView {
        CarryView {
            status: "pending".into(),
            hand_id: None,
            hand_no: None,
            reason: None,
        }
    }

    fn not_carried(reason: &str) -> CarryView {
        CarryView {
            status: "not_carried".into(),
            hand_id: None,
            hand_no: None,
            reason: Some(reason.into()),
        }
    }
}

/// A penalty ruling in force on an earlier hand of the match, not carried yet.
#[derive(Clone, Debug)]
pub(crate) struct Candidate {
    /// The ruling's signed entry.
    pub entry: EntryRecord,
    /// What a hand records of it.
    pub adjustment: Adjustment,
}

/// What the next hand of a table starts with: the adjustments it carries (in order, with
/// their signed entries) and the match state after them. Rulings after one that ended the
/// match are left out.
#[derive(Clone, Debug, Default)]
pub(crate) struct Plan {
    /// The rulings carried, in order.
    pub carried: Vec<Candidate>,
    /// The match state after them.
    pub state: Value,
}

impl Plan {
    /// The adjustments, as `hand_started` records them.
    pub fn adjustments(&self) -> Vec<Adjustment> {
        self.carried.iter().map(|c| c.adjustment.clone()).collect()
    }
}

/// Every hand of a table, from the primary store (a start must not miss the hand that
/// just ended), in `hand_no` order.
async fn hands_of(svc: &Service, table: &TableRow) -> ApiResult<Vec<HandRow>> {
    crate::hands::table_hands_in(svc.store.as_ref(), table).await
}

/// A hand's `hand_started`, when it reads and is hashed and signed by one of the service's
/// keys.
async fn started(svc: &Service, hand: &HandRow) -> ApiResult<Option<Record>> {
    let first = svc
        .store
        .list_event_records(&hand.club_id, &hand.hand_id, 0, 1)
        .await?
        .first()
        .and_then(|r| r.record.parse::<Record>().ok());
    Ok(first.filter(|first| {
        replayer::log::hash_event(&first.event).is_ok_and(|h| h == first.hash)
            && svc.keys.public(&first.signer).is_some_and(|k| {
                k.verify(&replayer::log::signature_message(&first.hash), &first.sig)
            })
            && matches!(first.event.body, Body::HandStarted { .. })
    }))
}

/// What the hands of the match (every hand of `hands` but quarantined ones) carried, by
/// dispute: the ruling's seq and the hand that carried it. A hand whose first event is not
/// sealed by the service is `409 match_broken` when `strict` (starting a hand: what it
/// carried cannot be known, so nothing may be carried again), and is passed over (logged)
/// for a view.
async fn carried_by<'a>(
    svc: &Service,
    hands: &'a [HandRow],
    strict: bool,
) -> ApiResult<BTreeMap<String, (u64, &'a HandRow)>> {
    let mut out = BTreeMap::new();
    for h in hands.iter().filter(|h| h.status != HandStatus::Quarantined) {
        match started(svc, h).await? {
            Some(Record {
                event:
                    replayer::log::Event {
                        body: Body::HandStarted { adjustments, .. },
                        ..
                    },
                ..
            }) => {
                for a in adjustments {
                    out.entry(a.dispute).or_insert((a.seq, h));
                }
            }
            _ if strict => {
                return Err(ApiError::new(
                    crate::api::errors::Code::MatchBroken,
                    format!(
                        "hand {} of this table's match does not start with a hand_started \
                         sealed by the service; an auditor should look at the table (if its \
                         log is damaged, the club admin may quarantine it)",
                        h.hand_no
                    ),
                ))
            }
            _ => tracing::warn!(
                club_id = %h.club_id,
                hand = %h.hand_id,
                "a hand's first event is not sealed by the service: what it carried is not read"
            ),
        }
    }
    Ok(out)
}

/// The signed records of the table's disputes, each checked as a whole against the
/// service's keys; a record that fails is left out (and logged): it is no ruling the
/// service can stand behind. In the order their rows list them (newest first).
async fn records_of(svc: &Service, table: &TableRow) -> ApiResult<Vec<Vec<EntryRecord>>> {
    let keys: Vec<PublicKey> = svc.keys.public_keys();
    // Only disputes whose latest ruling is a penalty can carry one (a dispute's row
    // status is its latest decision); the rest are never read nor checked.
    let mut filter = DisputeFilter {
        table_id: Some(table.table_id.clone()),
        status: Some(Decision::Penalty.as_str().to_string()),
        limit: PAGE,
        ..DisputeFilter::default()
    };
    let mut out = Vec::new();
    loop {
        let page = svc
            .store
            .disputes()
            .list_disputes(&table.club_id, &filter)
            .await?;
        let full = i64::try_from(page.len()).unwrap_or(0) == PAGE;
        filter.cursor = page.last().map(|d| (d.opened_ms, d.dispute_id.clone()));
        for d in &page {
            let record = match super::read_entries(svc, d).await? {
                Ok(record) => record,
                Err(entry) => {
                    tracing::warn!(
                        club_id = %table.club_id,
                        dispute = %d.dispute_id,
                        entry,
                        "a dispute's stored entry does not read: its rulings are not carried"
                    );
                    continue;
                }
            };
            if penalty_in_force(&record).is_none() {
                continue;
            }
            if let Err(p) = verify_record(&record, &keys) {
                tracing::warn!(
                    club_id = %table.club_id,
                    dispute = %d.dispute_id,
                    entry = p.entry,
                    rule = %p.rule,
                    "a dispute's stored record fails its check: its rulings are not carried"
                );
                continue;
            }
            out.push(record);
        }
        if !full {
            return Ok(out);
        }
    }
}

/// The ruling in force of a record when it is a penalty with its award.
fn penalty_in_force(record: &[EntryRecord]) -> Option<Candidate> {
    let last = record.last()?;
    match &last.entry.body {
        EntryBody::Ruling {
            decision: Decision::Penalty,
            award: Some(award),
            ..
        } => Some(Candidate {
            entry: last.clone(),
            adjustment: Adjustment {
                dispute: last.entry.dispute.clone(),
                seq: last.entry.seq,
                hash: last.hash,
                award: award.clone(),
            },
        }),
        _ => None,
    }
}

/// The plan for hand `hand_no` of a table, which starts (before any award) from `state`:
/// the penalty rulings in force on the earlier, unquarantined hands of the match that no
/// earlier hand carried, applied in the order they were recorded, until the match ends.
pub(crate) async fn plan(
    svc: &Service,
    table: &TableRow,
    engine: &'static dyn DynGame,
    hand_no: i64,
    state: Value,
) -> ApiResult<Plan> {
    let mut out = Plan {
        state,
        ..Plan::default()
    };
    if hand_no <= 1 {
        return Ok(out);
    }
    let records = records_of(svc, table).await?;
    let mut candidates: Vec<Candidate> =
        records.iter().filter_map(|r| penalty_in_force(r)).collect();
    if candidates.is_empty() {
        return Ok(out);
    }
    let hands: Vec<HandRow> = hands_of(svc, table)
        .await?
        .into_iter()
        .filter(|h| h.hand_no < hand_no)
        .collect();
    let carried = carried_by(svc, &hands, true).await?;
    candidates.retain(|c| {
        let ruled = hands.iter().find(|h| h.hand_id == c.entry.entry.hand);
        ruled.is_some_and(|h| {
            h.status != HandStatus::Quarantined && h.status != HandStatus::InProgress
        }) && !carried.contains_key(&c.adjustment.dispute)
    });
    candidates.sort_by(|a, b| {
        (a.entry.entry.time_ms, &a.adjustment.dispute)
            .cmp(&(b.entry.entry.time_ms, &b.adjustment.dispute))
    });
    let n = u8::try_from(table.seats.len()).map_err(ApiError::internal)?;
    let rules = engine
        .normalize_rules_for(&table.rules, n)
        .map_err(ApiError::internal)?;
    for c in candidates {
        if engine.match_over(&out.state).map_err(ApiError::internal)? {
            break;
        }
        let after = engine
            .apply_award(&rules, &out.state, &c.adjustment.award)
            .map_err(|v| {
                ApiError::internal(format!(
                    "a recorded award does not apply to the match: {}",
                    v.rule
                ))
            })?;
        out.state = after;
        out.carried.push(c);
    }
    Ok(out)
}

/// Whether and where each penalty ruling of a dispute counts in its table's match, by the
/// ruling's seq.
pub(crate) async fn carry_views(
    svc: &Service,
    table_id: &str,
    club: &str,
    record: &[EntryRecord],
) -> ApiResult<BTreeMap<u64, CarryView>> {
    let penalties: Vec<&EntryRecord> = record
        .iter()
        .filter(|r| {
            matches!(
                r.entry.body,
                EntryBody::Ruling {
                    decision: Decision::Penalty,
                    award: Some(_),
                    ..
                }
            )
        })
        .collect();
    let mut out = BTreeMap::new();
    if penalties.is_empty() {
        return Ok(out);
    }
    let Some(table) = svc.store.get_table(club, table_id).await? else {
        return Ok(out);
    };
    let hands = hands_of(svc, &table).await?;
    let carried = carried_by(svc, &hands, false).await?;
    let last_seq = record.last().map(|r| r.entry.seq);
    let dispute = record.first().map(|r| r.entry.dispute.clone());
    let ruled = record
        .first()
        .and_then(|r| hands.iter().find(|h| h.hand_id == r.entry.hand));
    let was = dispute.as_ref().and_then(|d| carried.get(d));
    let in_progress = hands.iter().any(|h| h.status == HandStatus::InProgress);
    for r in penalties {
        let seq = r.entry.seq;
        let view = match was {
            Some((s, h)) if *s == seq => CarryView::applied(h),
            // A ruling before the one carried was superseded by it; one after it came
            // when the dispute's award had counted already.
            Some((s, _)) if seq < *s => CarryView::not_carried("superseded"),
            Some(_) => CarryView::not_carried("dispute_carried"),
            None if Some(seq) != last_seq => CarryView::not_carried("superseded"),
            None if ruled.is_some_and(|h| h.status == HandStatus::Quarantined) => {
                CarryView::not_carried("hand_quarantined")
            }
            // The running hand started without it; the hand after it carries it, unless
            // the match ends first (then this says so once the hand is over).
            None if in_progress => CarryView::pending(),
            None => next_hand_view(svc, &table, &r.entry.dispute, seq).await?,
        };
        out.insert(seq, view);
    }
    Ok(out)
}

/// Whether the table's next hand would carry the ruling, or the match is over first.
async fn next_hand_view(
    svc: &Service,
    table: &TableRow,
    dispute: &str,
    seq: u64,
) -> ApiResult<CarryView> {
    let game: replayer::engine::GameId = table.game.parse().map_err(ApiError::internal)?;
    let engine = replayer::games::registry(game).map_err(ApiError::internal)?;
    let hand_no = svc
        .store
        .next_hand_no(&table.club_id, &table.table_id)
        .await?;
    // A match whose last hand cannot be linked to starts no hand until an auditor or the
    // admin settles it (quarantine): the award waits for that hand.
    let Ok((_, state)) = crate::hands::match_link(svc, &table.club_id, table, hand_no).await else {
        return Ok(CarryView::pending());
    };
    if engine.match_over(&state).map_err(ApiError::internal)? {
        return Ok(CarryView::not_carried("match_over"));
    }
    // A ruling being recorded is not in the store yet: it would come last, after every
    // ruling the plan carries, and is not carried if they end the match.
    let Ok(plan) = plan(svc, table, engine, hand_no, state).await else {
        return Ok(CarryView::pending());
    };
    let carried = plan
        .carried
        .iter()
        .any(|c| c.adjustment.dispute == dispute && c.adjustment.seq == seq);
    if !carried && engine.match_over(&plan.state).map_err(ApiError::internal)? {
        return Ok(CarryView::not_carried("match_over"));
    }
    Ok(CarryView::pending())
}

/// Whether the penalty awards the table's next hand would carry end its match (then no hand
/// starts: `409 match_over`). `false` while a hand runs (it carried what there was), and
/// when the last hand cannot be linked to (`409 match_broken` is the answer then).
pub(crate) async fn awards_end_match(svc: &Service, table: &TableRow) -> ApiResult<bool> {
    if svc
        .store
        .current_hand(&table.club_id, &table.table_id)
        .await?
        .is_some()
    {
        return Ok(false);
    }
    let game: replayer::engine::GameId = table.game.parse().map_err(ApiError::internal)?;
    let engine = replayer::games::registry(game).map_err(ApiError::internal)?;
    let hand_no = svc
        .store
        .next_hand_no(&table.club_id, &table.table_id)
        .await?;
    if hand_no <= 1 {
        return Ok(false);
    }
    let Ok((_, state)) = crate::hands::match_link(svc, &table.club_id, table, hand_no).await else {
        return Ok(false);
    };
    let Ok(plan) = plan(svc, table, engine, hand_no, state).await else {
        return Ok(false);
    };
    Ok(!plan.carried.is_empty() && engine.match_over(&plan.state).unwrap_or(false))
}
