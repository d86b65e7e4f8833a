//! Share links: a club admin hands one finished hand to a player or an outside auditor as
//! a link to the replay page, `<public base>/hands/{hand_id}#share=<token>`.
//!
//! The link's token, `sh_<club id>_<share id>_<secret>`, is read-only, for that hand's GET
//! routes only (the hand, its events, replay, bundle, verdict and log proof; see
//! [`crate::auth::Reader`]), expiring (`expires_in_secs`, [`DEFAULT_EXPIRY_SECS`] by
//! default, at most [`MAX_EXPIRY_SECS`]) and revocable. It travels in the URL's fragment,
//! which browsers never send to a server; the store keeps only `SHA-256(secret)`, compared
//! in constant time, and the token is never logged. A share's row is looked up on every
//! request (no cache), so a revocation holds at once.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::api::errors::{ApiError, ApiResult, Code};
use crate::auth::{self, Caller};
use crate::idempotency::{IdemCtx, Reply};
use crate::store::{HandStatus, ShareRow, StoreError};
use crate::Service;

/// A link lasts this long unless the admin says otherwise: a week.
pub const DEFAULT_EXPIRY_SECS: u64 = 7 * 24 * 3600;
/// The longest a link may last: 90 days.
pub const MAX_EXPIRY_SECS: u64 = 90 * 24 * 3600;
/// The shortest: a second (a link for a moment, and for tests of expiry).
pub const MIN_EXPIRY_SECS: u64 = 1;

/// What a share token may do, for the `403` it gets anywhere else.
pub const ONLY_ITS_HAND: &str = "a share link's token only reads its own hand: GET \
     /v1/hands/{hand_id}, /events, /replay, /replay/steps, /bundle, /verify, /log-proof";

/// `POST /v1/hands/{hand_id}/share`.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ShareRequest {
    /// How long the link works, in seconds: 1 to 7,776,000 (90 days); default 604,800
    /// (a week).
    pub expires_in_secs: Option<u64>,
}

/// The answer to `POST /v1/hands/{hand_id}/share`: the link, shown once.
#[derive(Debug, Serialize, ToSchema)]
pub struct ShareCreated {
    /// The page of the hand with the link's token in the fragment:
    /// `<public base>/hands/{hand_id}#share=<token>`.
    pub url: String,
    /// The share's id (for `DELETE /v1/hands/{hand_id}/share/{share_id}`).
    pub share_id: String,
    /// The hand.
    pub hand_id: String,
    /// When it was made (unix ms).
    pub created_ms: i64,
    /// When it stops working (unix ms).
    pub expires_ms: i64,
}

/// A share as the admin lists it (never its token).
#[derive(Debug, Serialize, ToSchema)]
pub struct ShareView {
    /// The share's id.
    pub share_id: String,
    /// The hand.
    pub hand_id: String,
    /// `active`, `expired` or `revoked`.
    pub status: String,
    /// When it was made (unix ms).
    pub created_ms: i64,
    /// When it stops (or stopped) working (unix ms).
    pub expires_ms: i64,
    /// The admin key that made it.
    pub created_by: String,
    /// When it was revoked.
    pub revoked_ms: Option<i64>,
    /// The admin key that revoked it.
    pub revoked_by: Option<String>,
}

/// `GET /v1/hands/{hand_id}/shares`.
#[derive(Debug, Serialize, ToSchema)]
pub struct ShareList {
    /// The hand.
    pub hand_id: String,
    /// Its shares, newest first.
    pub shares: Vec<ShareView>,
}

fn now_i() -> i64 {
    i64::try_from(crate::now_ms()).unwrap_or(i64::MAX)
}

fn view(s: ShareRow, now: i64) -> ShareView {
    let status = if s.revoked_ms.is_some() {
        "revoked"
    } else if now >= s.expires_ms {
        "expired"
    } else {
        "active"
    };
    ShareView {
        share_id: s.share_id,
        hand_id: s.hand_id,
        status: status.to_string(),
        created_ms: s.created_ms,
        expires_ms: s.expires_ms,
        created_by: s.created_by,
        revoked_ms: s.revoked_ms,
        revoked_by: s.revoked_by,
    }
}

/// The club's hand, for its admin: `404` for any other.
async fn admin_hand(
    svc: &Service,
    caller: &Caller,
    hand_id: &str,
) -> ApiResult<crate::store::HandRow> {
    caller.require_admin()?;
    if !crate::plausible_id(hand_id) {
        return Err(ApiError::not_found("hand"));
    }
    svc.store
        .get_hand(&caller.club_id, hand_id)
        .await?
        .ok_or_else(|| ApiError::not_found("hand"))
}

/// `POST /v1/hands/{hand_id}/share` (admin): a new link to a finished hand. `page_base` is
/// where the service's pages are reached (`https://cards.example.org`).
pub async fn create(
    svc: &Service,
    caller: &Caller,
    hand_id: &str,
    body: &ShareRequest,
    page_base: &str,
    idem: Option<IdemCtx>,
) -> ApiResult<Reply> {
    let row = admin_hand(svc, caller, hand_id).await?;
    match row.status {
        HandStatus::InProgress => {
            return Err(ApiError::new(
                Code::HandInProgress,
                "a hand can be shared once it is over",
            ))
        }
        HandStatus::Quarantined => {
            return Err(ApiError::new(
                Code::HandQuarantined,
                "a quarantined hand cannot be shared: its log failed verification",
            ))
        }
        HandStatus::Completed | HandStatus::Abandoned => {}
    }
    let secs = body.expires_in_secs.unwrap_or(DEFAULT_EXPIRY_SECS);
    if !(MIN_EXPIRY_SECS..=MAX_EXPIRY_SECS).contains(&secs) {
        return Err(ApiError::new(
            Code::InvalidShare,
            format!(
                "expires_in_secs must be {MIN_EXPIRY_SECS} to {MAX_EXPIRY_SECS} (90 days), not {secs}"
            ),
        )
        .with("field", "expires_in_secs"));
    }
    let now = now_i();
    let expires_ms =
        now.saturating_add(i64::try_from(secs).unwrap_or(i64::MAX).saturating_mul(1000));
    let token = auth::new_token(auth::SHARE_TOKEN_PREFIX, &caller.club_id)?;
    let share = ShareRow {
        club_id: caller.club_id.clone(),
        share_id: token.id.clone(),
        hand_id: row.hand_id.clone(),
        token_hash: token.hash.clone(),
        created_ms: now,
        expires_ms,
        created_by: caller.id.clone(),
        revoked_ms: None,
        revoked_by: None,
    };
    let reply = Reply::new(
        actix_web::http::StatusCode::CREATED,
        ShareCreated {
            url: format!(
                "{}/hands/{}#share={}",
                page_base.trim_end_matches('/'),
                row.hand_id,
                token.token
            ),
            share_id: share.share_id.clone(),
            hand_id: row.hand_id.clone(),
            created_ms: now,
            expires_ms,
        },
    )?;
    let idem_row = idem
        .as_ref()
        .map(|c| c.row(&svc.seal, &reply, now))
        .transpose()?;
    match svc
        .store
        .shares()
        .create_share(&share, idem_row.as_ref())
        .await
    {
        Ok(()) => Ok(reply),
        Err(StoreError::IdempotencyConflict) => {
            IdemCtx::replayed(idem.as_ref(), svc.store.as_ref(), &svc.seal).await
        }
        Err(e) => Err(e.into()),
    }
}

/// `GET /v1/hands/{hand_id}/shares` (admin).
pub async fn list(svc: &Service, caller: &Caller, hand_id: &str) -> ApiResult<ShareList> {
    let row = admin_hand(svc, caller, hand_id).await?;
    let now = now_i();
    let shares = svc
        .store
        .shares()
        .list_shares(&row.club_id, &row.hand_id)
        .await?
        .into_iter()
        .map(|s| view(s, now))
        .collect();
    Ok(ShareList {
        hand_id: row.hand_id,
        shares,
    })
}

/// `DELETE /v1/hands/{hand_id}/share/{share_id}` (admin): revokes the link at once;
/// revoking it again changes nothing. The share as it then stands.
pub async fn revoke(
    svc: &Service,
    caller: &Caller,
    hand_id: &str,
    share_id: &str,
) -> ApiResult<ShareView> {
    let row = admin_hand(svc, caller, hand_id).await?;
    if !crate::plausible_id(share_id) {
        return Err(ApiError::not_found("share"));
    }
    let now = now_i();
    svc.store
        .shares()
        .revoke_share(&row.club_id, &row.hand_id, share_id, &caller.id, now)
        .await?
        .map(|s| view(s, now))
        .ok_or_else(|| ApiError::not_found("share"))
}

/// The share a share-link token names, if the token is right and the link still works:
/// `401 unauthorized` for a malformed, unknown or wrong token, `401 share_revoked` and
/// `401 share_expired` for a right one that no longer works.
pub async fn authenticate(svc: &Service, token: &str) -> ApiResult<ShareRow> {
    let unauthorized = || ApiError::new(Code::Unauthorized, "the share link's token is not valid");
    let Some((club, id, secret)) = auth::parse_share_token(token) else {
        return Err(unauthorized());
    };
    let row = svc.store.shares().get_share(club, id).await?;
    // Unknown ids are compared against a dummy hash too, so they take about as long.
    const DUMMY: &str = "0000000000000000000000000000000000000000000000000000000000000000";
    let ok = auth::secret_matches(
        secret,
        row.as_ref().map_or(DUMMY, |r| r.token_hash.as_str()),
    );
    let row = row.filter(|_| ok).ok_or_else(unauthorized)?;
    if row.revoked_ms.is_some() {
        return Err(ApiError::new(
            Code::ShareRevoked,
            "this share link was revoked by the club",
        ));
    }
    if now_i() >= row.expires_ms {
        return Err(ApiError::new(
            Code::ShareExpired,
            "this share link has expired",
        ));
    }
    Ok(row)
}
