//! Game history: a club's hands, newest first, filtered and paged with an opaque cursor.
//!
//! Times are unix milliseconds. `result` (won, lost, even) judges one `player` by the
//! `net` of their seat in the hand's outcome; it needs `player`, and matches only
//! completed hands.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};

use crate::api::errors::{ApiError, ApiResult, Code};
use crate::auth::{Caller, Role};
use crate::hands::QuarantineView;
use crate::store::{HandFilter, HandRow, HandStatus};
use crate::Service;

/// Default page size.
pub const DEFAULT_LIMIT: u32 = 50;
/// Largest page size.
pub const MAX_LIMIT: u32 = 200;
/// Most store pages scanned for one answer when filtering by `result` (or hiding running
/// hands from an auditor); past that the answer is shorter and `next_cursor` goes on.
const MAX_SCANS: usize = 20;

/// A hand in a list.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct HandSummary {
    /// The hand.
    pub hand_id: String,
    /// Its table.
    pub table_id: String,
    /// The game.
    pub game: String,
    /// Its number in the table's match.
    pub hand_no: i64,
    /// `in_progress`, `completed`, `abandoned` or `quarantined`.
    pub status: String,
    /// Players in seat order.
    pub players: Vec<String>,
    /// Unix ms.
    pub started_ms: i64,
    /// Unix ms, once over.
    pub ended_ms: Option<i64>,
    /// The outcome (completed hands): per-seat `net` and more, per game.
    #[schema(value_type = Option<Object>)]
    pub outcome: Option<Value>,
    /// Why it was abandoned.
    pub abandon_reason: Option<String>,
    /// Who quarantined it, when and why (quarantined hands).
    pub quarantine: Option<QuarantineView>,
}

impl From<HandRow> for HandSummary {
    fn from(h: HandRow) -> Self {
        HandSummary {
            hand_id: h.hand_id,
            table_id: h.table_id,
            game: h.game,
            hand_no: h.hand_no,
            status: h.status.as_str().to_string(),
            players: h.players,
            started_ms: h.started_ms,
            ended_ms: h.ended_ms,
            // A quarantined hand's outcome no longer counts: its log does not verify.
            outcome: h.outcome.filter(|_| h.status != HandStatus::Quarantined),
            abandon_reason: h.abandon_reason,
            quarantine: h.quarantine.as_ref().map(QuarantineView::from),
        }
    }
}

/// `GET /v1/hands` query.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct HistoryQuery {
    /// Only this table's hands.
    pub table_id: Option<String>,
    /// Only hands where a seat's player has this name (compared in Unicode NFC, white
    /// space around it trimmed, as names are stored).
    pub player: Option<String>,
    /// Only this game's hands.
    pub game: Option<String>,
    /// `completed`, `abandoned`, `in_progress` or `quarantined`.
    pub status: Option<String>,
    /// With `player`: `won` (net > 0), `lost` (net < 0) or `even` (net = 0).
    pub result: Option<String>,
    /// Started at or after (unix ms).
    pub from: Option<i64>,
    /// Started before (unix ms).
    pub to: Option<i64>,
    /// `next_cursor` of the previous page.
    pub cursor: Option<String>,
    /// Page size, 1 to 200 (default 50).
    pub limit: Option<u32>,
}

/// `GET /v1/hands`.
#[derive(Debug, Serialize, ToSchema)]
pub struct HandPage {
    /// Hands, newest first.
    pub hands: Vec<HandSummary>,
    /// Pass as `cursor` for the next page; absent on the last page.
    pub next_cursor: Option<String>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Judged {
    Won,
    Lost,
    Even,
}

fn bad(detail: impl Into<String>) -> ApiError {
    ApiError::new(Code::InvalidQuery, detail)
}

fn encode_cursor(ms: i64, id: &str) -> String {
    hex::encode(format!("v1:{ms}:{id}"))
}

fn decode_cursor(c: &str) -> ApiResult<(i64, String)> {
    let text = hex::decode(c)
        .ok()
        .and_then(|b| String::from_utf8(b).ok())
        .filter(|t| !t.contains('\0'))
        .ok_or_else(|| bad("cursor is not a cursor this service gave"))?;
    let mut parts = text.splitn(3, ':');
    match (parts.next(), parts.next(), parts.next()) {
        (Some("v1"), Some(ms), Some(id)) => ms
            .parse()
            .map(|ms| (ms, id.to_string()))
            .map_err(|_| bad("cursor is not a cursor this service gave")),
        _ => Err(bad("cursor is not a cursor this service gave")),
    }
}

/// How `player` did in a finished hand, from the engine's typed results (never from the
/// game's JSON keys).
fn judge(h: &HandRow, player: &str) -> Option<Judged> {
    if h.status != HandStatus::Completed {
        return None;
    }
    let seat = h.players.iter().position(|p| p == player)?;
    let game: replayer::engine::GameId = h.game.parse().ok()?;
    let results = replayer::games::registry(game)
        .ok()?
        .results(h.outcome.as_ref()?)
        .ok()?;
    let r = results.iter().find(|r| r.seat.index() == seat)?;
    Some(match r.judged {
        replayer::engine::Judged::Won => Judged::Won,
        replayer::engine::Judged::Lost => Judged::Lost,
        replayer::engine::Judged::Even => Judged::Even,
    })
}

/// `GET /v1/hands`.
pub async fn list(svc: &Service, caller: &Caller, mut q: HistoryQuery) -> ApiResult<HandPage> {
    // Names are stored normalized: a decomposed spelling finds them too.
    q.player = q.player.as_deref().map(crate::names::normalize);
    let texts = [
        &q.table_id,
        &q.player,
        &q.game,
        &q.status,
        &q.result,
        &q.cursor,
    ];
    if texts.iter().any(|t| {
        t.as_deref()
            .is_some_and(|t| t.contains('\0') || t.len() > 256)
    }) {
        return Err(bad("parameters may not contain NUL or exceed 256 bytes"));
    }
    let limit = q.limit.unwrap_or(DEFAULT_LIMIT);
    if limit == 0 || limit > MAX_LIMIT {
        return Err(bad(format!("limit must be 1 to {MAX_LIMIT}")));
    }
    let status = q
        .status
        .as_deref()
        .map(|s| {
            HandStatus::parse(s).ok_or_else(|| {
                bad("status must be completed, abandoned, in_progress or quarantined")
            })
        })
        .transpose()?;
    let result = match q.result.as_deref() {
        None => None,
        Some("won") => Some(Judged::Won),
        Some("lost") => Some(Judged::Lost),
        Some("even") => Some(Judged::Even),
        Some(_) => return Err(bad("result must be won, lost or even")),
    };
    if result.is_some() && q.player.is_none() {
        return Err(bad("result needs player"));
    }
    let mut table_id = q.table_id.clone();
    if let Some((own, _)) = caller.seat() {
        if table_id.as_deref().is_some_and(|t| t != own) {
            return Ok(HandPage {
                hands: Vec::new(),
                next_cursor: None,
            });
        }
        table_id = Some(own.to_string());
    }
    let auditor = caller.role == Role::Auditor;
    if auditor && status == Some(HandStatus::InProgress) {
        return Ok(HandPage {
            hands: Vec::new(),
            next_cursor: None,
        });
    }
    let want = usize::try_from(limit).unwrap_or(50);
    let batch = i64::from(limit).saturating_add(1);
    let mut filter = HandFilter {
        table_id,
        player: q.player.clone(),
        game: q.game.clone(),
        status,
        started_from_ms: q.from,
        started_to_ms: q.to,
        cursor: q.cursor.as_deref().map(decode_cursor).transpose()?,
        limit: batch,
    };
    let mut out: Vec<HandRow> = Vec::new();
    let mut scans = 0;
    let mut next_cursor = None;
    loop {
        // The summaries show no next seq: the rows as stored (no step into each hand's
        // events).
        let page = svc
            .store
            .reader()
            .list_hands_stored(&caller.club_id, &filter)
            .await?;
        let exhausted = i64::try_from(page.len()).unwrap_or(0) < batch;
        let mut last = None;
        for h in page {
            last = Some((h.started_ms, h.hand_id.clone()));
            let keep = !(auditor && h.status == HandStatus::InProgress)
                && match (result, q.player.as_deref()) {
                    (Some(r), Some(p)) => judge(&h, p) == Some(r),
                    _ => true,
                };
            if keep {
                out.push(h);
                if out.len() > want {
                    break;
                }
            }
        }
        scans += 1;
        if out.len() > want {
            out.truncate(want);
            next_cursor = out.last().map(|h| encode_cursor(h.started_ms, &h.hand_id));
            break;
        }
        if exhausted {
            break;
        }
        if scans >= MAX_SCANS {
            next_cursor = last.as_ref().map(|(ms, id)| encode_cursor(*ms, id));
            break;
        }
        filter.cursor = last;
    }
    Ok(HandPage {
        hands: out.into_iter().map(HandSummary::from).collect(),
        next_cursor,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursors_round_trip_and_reject_garbage() {
        let c = encode_cursor(1_700_000_000_000, "h_abc");
        assert_eq!(
            decode_cursor(&c).unwrap(),
            (1_700_000_000_000, "h_abc".into())
        );
        assert!(decode_cursor("zz").is_err());
        assert!(decode_cursor(&hex::encode("v2:1:x")).is_err());
    }
}
