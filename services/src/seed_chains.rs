//! Seed chains of tables (`docs/SHUFFLE.md` §12): a table created with `"seed_chain":
//! {"length": N}` pre-commits to the server seeds of its next N hands by publishing only
//! the chain's anchor. The chain (its tail and checkpoints) is sealed under the seal key
//! like server seeds, never logged or returned; hand `first_hand_no + k − 1` of the table
//! is dealt from position `k`. A used-up chain stops the table (`409
//! seed_chain_exhausted`) until the admin sets a new one.

use actix_web::http::StatusCode;
use replayer::seed_chain::{ChainLink, SeedChain, MAX_CHAIN_LENGTH};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::api::errors::{ApiError, ApiResult, Code};
use crate::auth::Caller;
use crate::idempotency::{IdemCtx, Reply};
use crate::keys::chain_aad;
use crate::store::{SeedChainRow, StoreError, TableRow};
use crate::{now_ms, Service};

/// `seed_chain` of `POST /v1/tables`, and the body of `POST
/// /v1/tables/{table_id}/seed-chain`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewSeedChain {
    /// How many hands the chain commits to: 1 to 1,000,000.
    pub length: u32,
}

/// A table's seed chain as shown: the anchor and where the table stands in it. Never the
/// chain's secret elements.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct SeedChainView {
    /// The published anchor `c_0`, 64 hex: every chained hand's chain seed hashes down to
    /// it.
    pub anchor: String,
    /// How many positions the chain has.
    pub length: u32,
    /// The table's hand dealt from position 1.
    pub first_hand_no: i64,
    /// The position the table's next hand takes (`length + 1` once used up).
    pub next_position: u64,
    /// Positions left for the table's next hands.
    pub remaining: u64,
}

/// A chain of `length` positions from a fresh tail, built off the async runtime (a chain
/// of 1,000,000 positions is a million hashes), refused outside `1..=MAX_CHAIN_LENGTH`
/// (`422 invalid_table`).
pub async fn generate(length: u32) -> ApiResult<SeedChain> {
    if length == 0 || length > MAX_CHAIN_LENGTH {
        return Err(ApiError::new(
            Code::InvalidTable,
            format!("seed_chain.length must be 1 to {MAX_CHAIN_LENGTH}, not {length}"),
        ));
    }
    tokio::task::spawn_blocking(move || SeedChain::generate(length))
        .await
        .map_err(ApiError::internal)?
        .map_err(ApiError::internal)
}

/// The row that keeps `chain` for `table`'s hands from `first_hand_no` on, sealed.
pub fn row(
    svc: &Service,
    club: &str,
    table: &str,
    first_hand_no: i64,
    chain: &SeedChain,
    now: i64,
) -> ApiResult<SeedChainRow> {
    let anchor = chain.anchor().to_hex();
    Ok(SeedChainRow {
        club_id: club.to_string(),
        table_id: table.to_string(),
        first_hand_no,
        length: i32::try_from(chain.length()).map_err(ApiError::internal)?,
        sealed: svc.seal.seal(
            &chain_aad(club, table, first_hand_no, &anchor),
            &chain.to_bytes(),
        )?,
        anchor,
        created_ms: now,
    })
}

/// How a chain row looks to callers, with `next_hand_no` the table's next hand.
pub fn view(row: &SeedChainRow, next_hand_no: i64) -> SeedChainView {
    let length = u64::try_from(row.length).unwrap_or(0);
    let used = u64::try_from(next_hand_no.saturating_sub(row.first_hand_no)).unwrap_or(0);
    SeedChainView {
        anchor: row.anchor.clone(),
        length: u32::try_from(row.length).unwrap_or(0),
        first_hand_no: row.first_hand_no,
        next_position: used.min(length).saturating_add(1),
        remaining: length.saturating_sub(used),
    }
}

/// The link the table's hand `hand_no` is dealt from, if the table has a seed chain:
/// `409 seed_chain_exhausted` when its chain is used up, `409 record_damaged` naming the
/// `seed_chains` row when the row no longer unseals as this table's chain of its length.
pub async fn link_for(
    svc: &Service,
    table: &TableRow,
    hand_no: i64,
) -> ApiResult<Option<ChainLink>> {
    let Some(row) = svc
        .store
        .seed_chain(&table.club_id, &table.table_id, hand_no)
        .await?
    else {
        return Ok(None);
    };
    let chain = unsealed(svc, &row)?;
    let position = hand_no
        .checked_sub(row.first_hand_no)
        .and_then(|p| p.checked_add(1))
        .and_then(|p| u32::try_from(p).ok())
        .filter(|p| i64::from(*p) <= i64::from(row.length))
        .ok_or_else(|| {
            ApiError::new(
                Code::SeedChainExhausted,
                format!(
                    "the table's seed chain of {} positions (anchor {}) is used up: set a new \
                     chain with POST /v1/tables/{}/seed-chain to deal on",
                    row.length, row.anchor, table.table_id
                ),
            )
        })?;
    let link = tokio::task::spawn_blocking(move || chain.link(position))
        .await
        .map_err(ApiError::internal)?
        .map_err(ApiError::internal)?;
    Ok(Some(link))
}

/// How a `seed_chains` row is named in a `record_damaged` problem and by the audit: its
/// key, `(club_id, table_id, first_hand_no)`.
pub fn row_name(row: &SeedChainRow) -> String {
    format!(
        "(club_id, table_id, first_hand_no) = ({}, {}, {})",
        row.club_id, row.table_id, row.first_hand_no
    )
}

/// What is wrong with a stored chain row, if anything: it must unseal under its own club,
/// table, first hand and anchor (the associated data binds them), as a chain whose anchor
/// and length are the row's. The cause only, never the sealed bytes.
pub fn row_damage(svc: &Service, row: &SeedChainRow) -> Option<String> {
    unsealed(svc, row).err().map(|e| {
        e.extra
            .get("record")
            .and_then(|r| r.get("expected"))
            .and_then(serde_json::Value::as_str)
            .unwrap_or("a chain that unseals as this row's")
            .to_string()
    })
}

/// The chain a row keeps. A row that does not unseal as this table's chain of the row's
/// anchor and length was changed behind the service's back: `409 record_damaged` naming
/// the row (the cause, never the bytes).
fn unsealed(svc: &Service, row: &SeedChainRow) -> ApiResult<SeedChain> {
    let damaged = |expected: &str| ApiError::record_damaged("seed_chains", row_name(row), expected);
    let anchor = replayer::log::Hash::from_hex(&row.anchor)
        .map_err(|_| damaged("an anchor of 64 hex digits"))?;
    let plain = svc
        .seal
        .unseal(
            &chain_aad(&row.club_id, &row.table_id, row.first_hand_no, &row.anchor),
            &row.sealed,
        )
        .map_err(|_| {
            damaged(
                "a sealed chain that unseals under this row's club, table, first_hand_no and \
                 anchor",
            )
        })?;
    let chain = SeedChain::from_bytes(anchor, &plain)
        .map_err(|_| damaged("a sealed chain of the documented form"))?;
    if i64::from(chain.length()) != i64::from(row.length) {
        return Err(damaged(&format!(
            "length {} (the sealed chain's)",
            chain.length()
        )));
    }
    Ok(chain)
}

/// The table's current chain, as shown (none for a table without one).
pub async fn current(svc: &Service, table: &TableRow) -> ApiResult<Option<SeedChainView>> {
    let next = svc
        .store
        .next_hand_no(&table.club_id, &table.table_id)
        .await?;
    Ok(svc
        .store
        .seed_chain(&table.club_id, &table.table_id, next)
        .await?
        .map(|r| view(&r, next)))
}

/// `POST /v1/tables/{table_id}/seed-chain` (admin): a new chain for a table whose chain is
/// used up, from its next hand on. `409 no_seed_chain` for a table dealt without one (it
/// commits to a chain from its first hand or never: a chain begun mid-match could not be
/// told from one chosen after seeing the seats' play), `409 seed_chain_in_use` while the
/// current chain has positions left (replacing it early would let the operator pick the
/// next hand's seeds).
pub async fn renew(
    svc: &Service,
    caller: &Caller,
    table_id: &str,
    req: NewSeedChain,
    idem: Option<IdemCtx>,
) -> ApiResult<Reply> {
    caller.require_admin()?;
    let table = crate::tables::table_row(svc, caller, table_id).await?;
    let club = table.club_id.as_str();
    let next = svc.store.next_hand_no(club, table_id).await?;
    let Some(cur) = svc.store.seed_chain(club, table_id, next).await? else {
        return Err(ApiError::new(
            Code::NoSeedChain,
            "the table deals without a seed chain: a table commits to a chain when it is \
             created (\"seed_chain\": {\"length\": N})",
        ));
    };
    let shown = view(&cur, next);
    if shown.remaining > 0 {
        return Err(ApiError::new(
            Code::SeedChainInUse,
            format!(
                "the table's seed chain has {} position(s) left: a new chain only once it is \
                 used up",
                shown.remaining
            ),
        )
        .with("remaining", shown.remaining));
    }
    let chain = generate(req.length).await?;
    let now = i64::try_from(now_ms()).unwrap_or(i64::MAX);
    let new_row = row(svc, club, table_id, next, &chain, now)?;
    let reply = Reply::new(StatusCode::CREATED, view(&new_row, next))?;
    let idem_row = idem
        .as_ref()
        .map(|c| c.row(&svc.seal, &reply, now))
        .transpose()?;
    match svc.store.add_seed_chain(&new_row, idem_row.as_ref()).await {
        Ok(()) => Ok(reply),
        Err(StoreError::Conflict { .. }) => Err(ApiError::new(
            Code::SeedChainInUse,
            "another request set the table's next seed chain first",
        )),
        Err(e) => Err(e.into()),
    }
}
