//! A club's transparency log, served as C2SP tlog-tiles under
//! `/v1/clubs/{club_id}/log/` (`docs/TRANSPARENCY.md`): its latest checkpoint, its tiles
//! and entry bundles, and the key that signs it. Public: a leaf is a blinded commitment
//! that reveals no card, no player and no hand. A hand's log proof, which carries the
//! hand's salt, is served with its other readers' resources (`api::hands`).

use actix_web::http::header;
use actix_web::{web, HttpResponse};
use replayer::tlog::TileId;

use super::errors::{ApiError, ApiResult, Code, Problem};
use crate::auth::Reader;
use crate::clublog::{self, ProofOutcome};
use crate::Service;

const IMMUTABLE: &str = "public, max-age=31536000, immutable";

fn club_of(club_id: &str) -> ApiResult<&str> {
    if crate::plausible_id(club_id) {
        Ok(club_id)
    } else {
        Err(ApiError::not_found("club log"))
    }
}

/// The club log's latest signed checkpoint (a C2SP signed note).
#[utoipa::path(get, path = "/v1/clubs/{club_id}/log/checkpoint", operation_id = "get_club_log_checkpoint", tag = "log",
    params(("club_id" = String, Path)),
    responses((status = 200, description = "The checkpoint, text/plain (docs/TRANSPARENCY.md §5)", content_type = "text/plain", body = String),
        (status = 404, body = Problem, description = "No such club, or its log has no checkpoint yet")))]
pub async fn checkpoint(
    svc: web::Data<Service>,
    path: web::Path<String>,
) -> ApiResult<HttpResponse> {
    let club = club_of(&path)?;
    let cp = svc
        .store
        .latest_checkpoint(club)
        .await?
        .ok_or_else(|| ApiError::not_found("club log"))?;
    Ok(HttpResponse::Ok()
        .insert_header((header::CONTENT_TYPE, "text/plain; charset=utf-8"))
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .body(cp.note))
}

/// The vkey of the key that signs the club log's checkpoints (docs/TRANSPARENCY.md §5).
#[utoipa::path(get, path = "/v1/clubs/{club_id}/log/key", operation_id = "get_club_log_key", tag = "log",
    params(("club_id" = String, Path)),
    responses((status = 200, description = "The vkey, `<origin>+<key id>+<base64 key>`, text/plain", content_type = "text/plain", body = String),
        (status = 404, body = Problem)))]
pub async fn key(svc: web::Data<Service>, path: web::Path<String>) -> ApiResult<HttpResponse> {
    let club = club_of(&path)?;
    let (_, signer) = clublog::log_signer(svc.keys.current(), &svc.log_base, club)
        .map_err(|_| ApiError::not_found("club log"))?;
    Ok(HttpResponse::Ok()
        .insert_header((header::CONTENT_TYPE, "text/plain; charset=utf-8"))
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .body(format!("{}\n", signer.verifier().vkey())))
}

/// A signed checkpoint of the club log by its tree size: every checkpoint the log
/// published stays readable, for a hand's log proof (its `tree_size`) and for consistency
/// checks against an earlier one.
#[utoipa::path(get, path = "/v1/clubs/{club_id}/log/checkpoints/{size}", operation_id = "get_club_log_checkpoint_at", tag = "log",
    params(("club_id" = String, Path), ("size" = u64, Path)),
    responses((status = 200, description = "The checkpoint, text/plain", content_type = "text/plain", body = String),
        (status = 404, body = Problem, description = "No checkpoint of this size: 0, or beyond the latest"),
        (status = 409, body = Problem, description = "log_damaged: no stored note, and the stored tiles give no root consistent with the latest checkpoint")))]
pub async fn checkpoint_at(
    svc: web::Data<Service>,
    path: web::Path<(String, String)>,
) -> ApiResult<HttpResponse> {
    let (club, size) = path.into_inner();
    let club = club_of(&club)?;
    // Decimal without sign or leading zero, as in a checkpoint.
    let size = (!size.is_empty()
        && size.len() <= 19
        && size.bytes().all(|b| b.is_ascii_digit())
        && (size == "0" || !size.starts_with('0')))
    .then(|| size.parse::<i64>().ok())
    .flatten()
    .ok_or_else(|| ApiError::not_found("checkpoint"))?;
    let (note, stored) = clublog::checkpoint_note(&svc, club, size)
        .await?
        .ok_or_else(|| ApiError::not_found("checkpoint"))?;
    Ok(HttpResponse::Ok()
        .insert_header((header::CONTENT_TYPE, "text/plain; charset=utf-8"))
        // A note signed on request is the same bytes only while its key is current.
        .insert_header((
            header::CACHE_CONTROL,
            if stored { IMMUTABLE } else { "no-cache" },
        ))
        .body(note))
}

/// A tile (`tile/{L}/{N}[.p/{W}]`) or entry bundle (`tile/entries/{N}[.p/{W}]`) of the club
/// log, as C2SP tlog-tiles spells its path; only within the latest checkpoint's tree.
#[utoipa::path(get, path = "/v1/clubs/{club_id}/log/tile/{tile}", operation_id = "get_club_log_tile", tag = "log",
    params(("club_id" = String, Path), ("tile" = String, Path, description = "The rest of the tile path, e.g. `0/x001/234.p/7` or `entries/005`")),
    responses((status = 200, description = "The tile's bytes", content_type = "application/octet-stream", body = Vec<u8>),
        (status = 400, body = Problem, description = "invalid_tile_path"),
        (status = 404, body = Problem, description = "No such club, or the tile is beyond the latest checkpoint"),
        (status = 409, body = Problem, description = "log_damaged: the stored tile is not a part of the signed tree")))]
pub async fn tile(
    svc: web::Data<Service>,
    path: web::Path<(String, String)>,
) -> ApiResult<HttpResponse> {
    let (club, rest) = path.into_inner();
    let club = club_of(&club)?;
    let full_path = format!("tile/{rest}");
    let id =
        TileId::parse(&full_path).map_err(|e| ApiError::new(Code::InvalidTilePath, e.reason))?;
    let latest = svc.store.latest_checkpoint(club).await?;
    let size = latest
        .as_ref()
        .map_or(0, |c| u64::try_from(c.size).unwrap_or(0));
    let in_tree = TileId::in_tree(id.kind, id.index, size).is_some_and(|t| {
        if id.is_full() {
            t.is_full()
        } else {
            t.width >= id.width
        }
    });
    if !in_tree {
        return Err(ApiError::not_found("tile"));
    }
    let bytes = match clublog::read_tile(svc.store.as_ref(), club, &id).await {
        Ok(b) => b,
        // Within the tree but not stored: the store was damaged (audit names it).
        Err(clublog::LogError::Tiles(e)) => {
            tracing::warn!(club_id = %club, error = %e, "a published tile cannot be read");
            return Err(ApiError::not_found("tile"));
        }
        Err(e) => return Err(e.into()),
    };
    // Served only once it is proven a part of the signed tree: a tile changed in the store
    // is `409 log_damaged`, never served as the log.
    if let Some(cp) = &latest {
        clublog::check_tile(
            svc.store.as_ref(),
            club,
            &id,
            &bytes,
            size,
            &replayer::log::Hash(cp.root),
        )
        .await?;
    }
    Ok(HttpResponse::Ok()
        .insert_header((header::CONTENT_TYPE, "application/octet-stream"))
        .insert_header((
            header::CACHE_CONTROL,
            if id.is_full() {
                IMMUTABLE
            } else {
                "public, max-age=60"
            },
        ))
        .body(bytes))
}

/// The hand's log proof (docs/TRANSPARENCY.md §7): its salt and the inclusion proof of its
/// last event against the club log's latest checkpoint, for whoever may read the hand's
/// bundle. Check it with `replayer log inclusion BUNDLE --checkpoint FILE --proof FILE`,
/// the checkpoint being `GET /v1/clubs/{club_id}/log/checkpoints/{tree_size}`.
#[utoipa::path(get, path = "/v1/hands/{hand_id}/log-proof", operation_id = "get_hand_log_proof", tag = "log",
    params(("hand_id" = String, Path)),
    responses((status = 200, description = "The log proof (format persian-cards/log-proof, version 1), against the checkpoint of its `tree_size`", body = Object),
        (status = 404, body = Problem), (status = 409, body = Problem, description = "hand_in_progress, not_in_log_yet, log_damaged")),
    security(("bearer" = [])))]
pub async fn hand_proof(
    svc: web::Data<Service>,
    Reader(caller): Reader,
    path: web::Path<String>,
) -> ApiResult<HttpResponse> {
    // The same readers as the bundle's, once the hand is over.
    let row = crate::hands::bundle_reader_row(&svc, &caller, &path).await?;
    match clublog::hand_log_proof(&svc, &row.club_id, &row.hand_id).await? {
        ProofOutcome::Proof(p) => {
            let (proof, _checkpoint) = *p;
            Ok(HttpResponse::Ok()
                .insert_header((header::CACHE_CONTROL, "private, no-store"))
                .json(proof))
        }
        ProofOutcome::NotYet => Err(ApiError::new(
            Code::NotInLogYet,
            "the hand's last event is not under a signed checkpoint yet",
        )
        .with("retry_after_s", 1)),
    }
}
