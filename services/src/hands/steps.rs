//! `GET /v1/hands/{hand_id}/replay/steps`: the table after every event at once, for the
//! replay page (one request instead of one `replay?step=N` per event, each of which folds
//! the hand from its start again).
//!
//! The hand is rebuilt with exactly the checks of every other read ([`super::restore`]):
//! the stored log's integrity, its sealed or revealed seeds, every event folded through
//! the engine; it is only folded one event at a time, and the view after each event kept.

use replayer::dealer::{DealerError, LiveHand};
use replayer::log::{Body, Record};
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;

use super::damage::{self, Damage};
use super::{
    read_hand_row, reads_of, records, sealed, seed_source_of, viewer_name, viewer_of, ToActView,
};
use crate::api::errors::{ApiError, ApiResult, Code};
use crate::auth::Caller;
use crate::store::{HandRow, HandStatus, RecordJson};
use crate::Service;

/// Most steps in one answer.
pub const STEPS_MAX: u64 = 1000;

/// One step of [`ReplaySteps`].
#[derive(Debug, Serialize, ToSchema)]
pub struct ReplayStep {
    /// The event (its seq).
    pub step: u64,
    /// The record of that event.
    #[schema(value_type = Object)]
    pub event: RecordJson,
    /// The hand's status after it.
    pub status: String,
    /// The table after it, as the caller may see it.
    #[schema(value_type = Object)]
    pub view: Value,
    /// Who the hand waited for after it.
    pub to_act: ToActView,
    /// The last action up to it.
    #[schema(value_type = Option<Object>)]
    pub last_action: Option<Value>,
}

/// `GET /v1/hands/{hand_id}/replay/steps?from=&limit=`.
#[derive(Debug, Serialize, ToSchema)]
pub struct ReplaySteps {
    /// The hand.
    pub hand_id: String,
    /// Its game.
    pub game: String,
    /// How many events the hand has now.
    pub events: u64,
    /// `seat`, `public` or `all` (as for `replay`).
    pub viewer: String,
    /// Steps `from` to `from + limit - 1` (at most to the last event).
    pub steps: Vec<ReplayStep>,
    /// `from` for the next page, when there are more steps.
    pub next_from: Option<u64>,
}

/// Folds the stored hand one event at a time, calling `each` after each event, with the
/// checks of [`super::restore`]. The hand's event count.
async fn fold_each(
    svc: &Service,
    row: &HandRow,
    mut each: impl FnMut(&Record, &LiveHand) -> ApiResult<()>,
) -> ApiResult<u64> {
    let all = records(reads_of(svc, row), &row.club_id, &row.hand_id, None).await?;
    let total = u64::try_from(all.len()).unwrap_or(u64::MAX);
    damage::integrity(svc, &all)?;
    let sealed_kept = sealed::kept_sealed(row, &all);
    let revealed = matches!(
        all.last().map(|r| &r.event.body),
        Some(Body::SeedsRevealed { .. })
    );
    if !sealed_kept && !revealed {
        return Err(Damage::at(total, damage::Check::Reveal).into());
    }
    let (seeds, openings) = sealed::secrets_of(svc, row, &all).await?;
    let source = seed_source_of(svc, row, &all).await?;
    let Some((first, rest)) = all.split_first() else {
        return Err(Damage::at(0, damage::Check::Record).into());
    };
    let mut hand = LiveHand::restore(std::slice::from_ref(first), seeds, openings, source)
        .map_err(|e| ApiError::from(Damage::of_restore(&e)))?;
    each(first, &hand)?;
    for r in rest {
        hand.fold_record(&r.event, r.hash).map_err(|mismatch| {
            ApiError::from(Damage::of_restore(&DealerError::Fold {
                seq: r.event.seq,
                mismatch,
            }))
        })?;
        each(r, &hand)?;
    }
    if sealed_kept {
        damage::seeds_match(&all, hand.commitments(), hand.server_seeds())?;
    } else if !hand.is_revealed() {
        return Err(Damage::at(total, damage::Check::Reveal).into());
    }
    Ok(total)
}

/// `GET /v1/hands/{hand_id}/replay/steps`: steps `from..from + limit` (limit 1 to
/// [`STEPS_MAX`]), each as `replay?step=N` shows it to this caller.
pub async fn replay_steps(
    svc: &Service,
    caller: &Caller,
    hand_id: &str,
    from: u64,
    limit: u64,
) -> ApiResult<ReplaySteps> {
    let row = read_hand_row(svc, caller, hand_id).await?;
    if row.status == HandStatus::Quarantined {
        return Err(super::quarantined_error(&row));
    }
    let last = super::u64_of(row.next_seq).saturating_sub(1);
    if from > last {
        return Err(ApiError::new(
            Code::InvalidQuery,
            format!("from {from} is past the hand's last event ({last})"),
        ));
    }
    let viewer = viewer_of(caller, row.status != HandStatus::InProgress);
    let end = from.saturating_add(limit);
    let mut steps = Vec::new();
    let total = fold_each(svc, &row, |r, h| {
        let seq = r.event.seq;
        if seq >= from && seq < end {
            steps.push(ReplayStep {
                step: seq,
                event: RecordJson::of(r).map_err(ApiError::internal)?,
                status: h.status().as_str().to_string(),
                view: h.view(viewer),
                to_act: h.to_act().into(),
                last_action: h.last_action().cloned(),
            });
        }
        Ok(())
    })
    .await?;
    Ok(ReplaySteps {
        hand_id: row.hand_id.clone(),
        game: row.game.clone(),
        events: total,
        viewer: viewer_name(viewer).to_string(),
        steps,
        next_from: (end < total).then_some(end),
    })
}
