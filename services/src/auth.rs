//! Who is calling: API keys (club admin, auditor) and seat tokens.
//!
//! Token formats (ids and secrets are lowercase hex, so URL-safe and free of `_`):
//!
//! * API key: `ak_<club id>_<key id: 16 hex>_<secret: 64 hex>`
//! * seat token: `st_<club id>_<token id: 16 hex>_<secret: 64 hex>`
//!
//! where the club id is the club's, `c_<16 hex>`. A token names the club it belongs to,
//! so that it is looked up by `(club_id, id)` like every other row of a request, and a
//! store distributed by club finds it on the club's own node (docs/SCALING.md). It is
//! read from the right, the secret and the id having fixed lengths and no `_`; what is
//! left between the prefix and them is the club id, checked for its shape.
//!
//! Deprecated, legacy: `ak_<key id>_<secret>` and `st_<token id>_<secret>`, the format
//! of the tokens issued before PostgreSQL schema V7 (SQLite V5). Such a token's club is
//! read from `token_routes` ([`Store::legacy_token_club`]), which those migrations
//! filled for the keys and seats that existed then; a token issued since has no route
//! there, so its legacy spelling is refused. A legacy token may also be sent in the
//! new spelling, with its club id (`GET /v1/me`) put in.
//!
//! [`Store::legacy_token_club`]: crate::store::Store::legacy_token_club
//!
//! They are sent as `Authorization: Bearer <token>`. The store holds only
//! `hex(SHA-256(secret))`; the presented secret's hash is compared with it in constant
//! time, on every request. A token is never logged.
//!
//! The rows a token is checked against (an API key's, a seat's) are never changed or
//! deleted once written, so a process keeps those it has read for a while
//! ([`TokenCache`], [`TOKEN_ROW_TTL`]) instead of reading the same row again on every
//! request: a seat acting asked the database for its own row twice per action (its
//! legal actions, then the action), two of the four round trips of an action
//! (ops/README.md, fifth round). Only rows found are kept; an unknown id is looked up
//! each time.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use actix_web::{dev::Payload, http::header, web, FromRequest, HttpMessage, HttpRequest};
use replayer::engine::SeatIndex;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use crate::api::errors::{ApiError, ApiResult, Code};
use crate::store::{KeyRole, TokenKind};
use crate::Service;

/// Prefix of API keys.
pub const API_KEY_PREFIX: &str = "ak";
/// Prefix of seat tokens.
pub const SEAT_TOKEN_PREFIX: &str = "st";
/// Prefix of share-link tokens (`crate::shares`): `sh_<club id>_<share id>_<secret>`.
pub const SHARE_TOKEN_PREFIX: &str = "sh";

/// Prefix of club ids.
pub const CLUB_PREFIX: &str = "c";

const ID_BYTES: usize = 8;
const SECRET_BYTES: usize = 32;

/// A freshly made token: shown once to its owner, stored as `id` and `hash`.
#[derive(Clone)]
pub struct NewToken {
    /// The public id, unique within the club.
    pub id: String,
    /// The whole token, `<prefix>_<club id>_<id>_<secret>`: show once, never store or
    /// log.
    pub token: String,
    /// `hex(SHA-256(secret))`, for the store.
    pub hash: String,
}

impl std::fmt::Debug for NewToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "NewToken({})", self.id)
    }
}

fn random_bytes<const N: usize>() -> ApiResult<[u8; N]> {
    let mut b = [0u8; N];
    getrandom::fill(&mut b).map_err(|_| ApiError::internal("os random generator failed"))?;
    Ok(b)
}

/// A random id: `<prefix>_` and 16 hex characters (tables `t`, hands `h`, clubs `c`).
pub fn random_id(prefix: &str) -> ApiResult<String> {
    Ok(format!(
        "{prefix}_{}",
        hex::encode(random_bytes::<ID_BYTES>()?)
    ))
}

/// `hex(SHA-256(secret))`.
pub fn hash_secret(secret: &str) -> String {
    hex::encode(Sha256::digest(secret.as_bytes()))
}

/// Whether `s` is `n` bytes in hex.
fn hex_of(s: &str, n: usize) -> bool {
    s.len() == 2 * n && s.bytes().all(|b| b.is_ascii_hexdigit())
}

/// Whether `s` has the shape of a club id, `c_<16 hex>` (as [`random_id`] makes them):
/// the only club ids a token can name.
pub fn is_club_id(s: &str) -> bool {
    s.strip_prefix(CLUB_PREFIX)
        .and_then(|r| r.strip_prefix('_'))
        .is_some_and(|h| hex_of(h, ID_BYTES))
}

/// A token of the club `club_id` from its parts; an internal error for a club id that a
/// token cannot name (every club's id can: see [`is_club_id`]).
pub fn token_from(
    prefix: &str,
    club_id: &str,
    id_bytes: &[u8],
    secret_bytes: &[u8],
) -> ApiResult<NewToken> {
    if !is_club_id(club_id) {
        return Err(ApiError::internal("a token for a club id of another shape"));
    }
    let id = hex::encode(id_bytes);
    let secret = hex::encode(secret_bytes);
    Ok(NewToken {
        token: format!("{prefix}_{club_id}_{id}_{secret}"),
        hash: hash_secret(&secret),
        id,
    })
}

/// A fresh random token of the club `club_id`.
pub fn new_token(prefix: &str, club_id: &str) -> ApiResult<NewToken> {
    token_from(
        prefix,
        club_id,
        &random_bytes::<ID_BYTES>()?,
        &random_bytes::<SECRET_BYTES>()?,
    )
}

/// A presented token, split into its parts.
#[derive(Debug, PartialEq, Eq)]
struct Presented<'a> {
    prefix: &'a str,
    /// The club the token names; `None` in the legacy format.
    club_id: Option<&'a str>,
    id: &'a str,
    secret: &'a str,
}

/// Splits `<prefix>_<club id>_<id>_<secret>`, or the legacy `<prefix>_<id>_<secret>`;
/// `None` unless well formed.
fn parse_token(token: &str) -> Option<Presented<'_>> {
    let (prefix, rest) = token.split_once('_')?;
    let (head, secret) = rest.rsplit_once('_')?;
    if !hex_of(secret, SECRET_BYTES) {
        return None;
    }
    let (club_id, id) = match head.rsplit_once('_') {
        Some((club_id, id)) if is_club_id(club_id) => (Some(club_id), id),
        Some(_) => return None,
        None => (None, head),
    };
    hex_of(id, ID_BYTES).then_some(Presented {
        prefix,
        club_id,
        id,
        secret,
    })
}

/// A share link's token split into (club id, share id, secret); `None` unless it is one,
/// well formed (share tokens have no legacy form).
pub(crate) fn parse_share_token(token: &str) -> Option<(&str, &str, &str)> {
    let t = parse_token(token)?;
    match (t.prefix, t.club_id) {
        (SHARE_TOKEN_PREFIX, Some(club)) => Some((club, t.id, t.secret)),
        _ => None,
    }
}

/// Whether `SHA-256(secret)` equals the stored hex hash, in constant time.
pub(crate) fn secret_matches(secret: &str, stored_hex: &str) -> bool {
    let got = Sha256::digest(secret.as_bytes());
    let mut want = [0u8; 32];
    if hex::decode_to_slice(stored_hex, &mut want).is_err() {
        return false;
    }
    bool::from(got.as_slice().ct_eq(&want))
}

/// What a caller is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Role {
    /// A club admin key.
    Admin,
    /// A read-only auditor key.
    Auditor,
    /// A seat token: one seat of one table.
    Seat {
        /// The table.
        table_id: String,
        /// The seat.
        seat: SeatIndex,
    },
}

/// An authenticated caller.
#[derive(Clone, Debug)]
pub struct Caller {
    /// The caller's club.
    pub club_id: String,
    /// The key id or seat token id.
    pub id: String,
    /// What the caller may do.
    pub role: Role,
}

impl Caller {
    /// 403 unless a club admin.
    pub fn require_admin(&self) -> ApiResult<()> {
        match self.role {
            Role::Admin => Ok(()),
            _ => Err(ApiError::forbidden("this needs the club's admin key")),
        }
    }

    /// 403 for auditors (who only read).
    pub fn require_writer(&self) -> ApiResult<()> {
        match self.role {
            Role::Auditor => Err(ApiError::forbidden("an auditor key is read-only")),
            _ => Ok(()),
        }
    }

    /// The namespace of this caller's idempotency keys.
    pub fn idem_scope(&self) -> String {
        match self.role {
            Role::Seat { .. } => format!("{SEAT_TOKEN_PREFIX}:{}", self.id),
            _ => format!("{API_KEY_PREFIX}:{}", self.id),
        }
    }

    /// The seat, for a seat token.
    pub fn seat(&self) -> Option<(&str, SeatIndex)> {
        match &self.role {
            Role::Seat { table_id, seat } => Some((table_id, *seat)),
            _ => None,
        }
    }

    /// Whether this caller may see anything of `table_id` (admins and auditors: any
    /// table of their club; seats: their own table).
    pub fn sees_table(&self, table_id: &str) -> bool {
        match &self.role {
            Role::Seat { table_id: t, .. } => t == table_id,
            _ => true,
        }
    }
}

/// How long a process keeps a token's row it has read. Nothing changes or deletes these
/// rows; the bound is for a row removed by hand behind the service's back, which every
/// process then refuses within this time.
pub const TOKEN_ROW_TTL: Duration = Duration::from_secs(60);

/// Most token rows kept; past it the stale ones go, and if none is stale, all of them.
const TOKEN_ROWS_MAX: usize = 65_536;

/// A token's row as read: the stored hash of its secret and the caller it makes.
#[derive(Clone, Debug)]
struct TokenRow {
    hash: String,
    caller: Caller,
    read: Instant,
}

/// The token rows this process has read lately (see the module's documentation), by
/// kind, club and id. The presented secret is still compared with the stored hash on
/// every request; only the database read is saved.
#[derive(Default)]
pub struct TokenCache {
    rows: Mutex<HashMap<(TokenKind, String, String), TokenRow>>,
}

impl std::fmt::Debug for TokenCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Ids and hashes are not secrets, but nothing here needs to show them.
        f.write_str("TokenCache")
    }
}

impl TokenCache {
    /// The row of `(kind, club, id)` if it was read less than [`TOKEN_ROW_TTL`] before
    /// `now`.
    fn get(&self, kind: TokenKind, club: &str, id: &str, now: Instant) -> Option<TokenRow> {
        let rows = self.rows.lock().unwrap_or_else(|p| p.into_inner());
        rows.get(&(kind, club.to_owned(), id.to_owned()))
            .filter(|r| now.saturating_duration_since(r.read) < TOKEN_ROW_TTL)
            .cloned()
    }

    /// Keeps a row read at `row.read`.
    fn put(&self, kind: TokenKind, club: &str, id: &str, row: TokenRow) {
        let mut rows = self.rows.lock().unwrap_or_else(|p| p.into_inner());
        if rows.len() >= TOKEN_ROWS_MAX {
            let now = row.read;
            rows.retain(|_, r| now.saturating_duration_since(r.read) < TOKEN_ROW_TTL);
            if rows.len() >= TOKEN_ROWS_MAX {
                rows.clear();
            }
        }
        rows.insert((kind, club.to_owned(), id.to_owned()), row);
    }

    /// How many rows are kept.
    pub fn len(&self) -> usize {
        self.rows.lock().map(|r| r.len()).unwrap_or(0)
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The row of a token of `kind` with id `id` in `club_id`, and the caller it makes: from
/// the process's [`TokenCache`] when read lately, else from the store (and then kept).
async fn token_row(
    svc: &Service,
    kind: TokenKind,
    club_id: &str,
    id: &str,
) -> ApiResult<Option<TokenRow>> {
    let now = Instant::now();
    if let Some(row) = svc.tokens.get(kind, club_id, id, now) {
        return Ok(Some(row));
    }
    let row = match kind {
        TokenKind::ApiKey => svc
            .store
            .find_api_key(club_id, id)
            .await?
            .map(|r| TokenRow {
                hash: r.key_hash,
                caller: Caller {
                    club_id: r.club_id,
                    id: r.key_id,
                    role: match r.role {
                        KeyRole::Admin => Role::Admin,
                        KeyRole::Auditor => Role::Auditor,
                    },
                },
                read: now,
            }),
        TokenKind::Seat => svc
            .store
            .find_seat_by_token(club_id, id)
            .await?
            .and_then(|r| {
                Some(TokenRow {
                    hash: r.seat.token_hash,
                    caller: Caller {
                        club_id: r.club_id,
                        id: r.seat.token_id,
                        role: Role::Seat {
                            table_id: r.table_id,
                            seat: SeatIndex(u8::try_from(r.seat.seat).ok()?),
                        },
                    },
                    read: now,
                })
            }),
    };
    if let Some(r) = &row {
        svc.tokens.put(kind, club_id, id, r.clone());
    }
    Ok(row)
}

/// Resolves a bearer token to a caller; `None` when unknown or wrong.
pub async fn authenticate(svc: &Service, token: &str) -> ApiResult<Option<Caller>> {
    let Some(t) = parse_token(token) else {
        return Ok(None);
    };
    let kind = match t.prefix {
        API_KEY_PREFIX => TokenKind::ApiKey,
        SEAT_TOKEN_PREFIX => TokenKind::Seat,
        _ => return Ok(None),
    };
    // A fixed dummy hash, compared against when the id is unknown, so that unknown and
    // known ids take about as long.
    const DUMMY: &str = "0000000000000000000000000000000000000000000000000000000000000000";
    let club_id = match t.club_id {
        Some(club_id) => club_id.to_owned(),
        // The legacy format: the club from the routes of the tokens issued before it
        // was replaced. An unknown id skips the second lookup; ids are not secrets
        // (`GET /v1/me` shows them), and the secret is still compared, with the dummy.
        None => match svc.store.legacy_token_club(kind, t.id).await? {
            Some(club_id) => club_id,
            None => {
                let _ = secret_matches(t.secret, DUMMY);
                return Ok(None);
            }
        },
    };
    let row = token_row(svc, kind, &club_id, t.id).await?;
    let ok = secret_matches(t.secret, row.as_ref().map_or(DUMMY, |r| r.hash.as_str()));
    let caller = row.filter(|_| ok).map(|r| r.caller);
    if caller.is_some() && t.club_id.is_none() {
        svc.metrics.observe_legacy_token(kind);
    }
    Ok(caller)
}

/// The bearer token of a request, if it sends one.
pub(crate) fn bearer(req: &HttpRequest) -> Option<String> {
    let v = req.headers().get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = v.trim().split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| token.trim().to_string())
}

/// Whether a path is served to anyone, without a token: the health and metrics routes,
/// the OpenAPI description, the service's keys, `POST /v1/verify`, the clubs' logs and the
/// replay page. Every other route authenticates its caller.
pub(crate) fn is_public(path: &str) -> bool {
    !path.starts_with("/v1/")
        || matches!(path, "/v1/verify" | "/v1/openapi.json" | "/v1/keys")
        || path.starts_with("/v1/clubs/")
}

/// The credentials of a request, taken when its extractors start and checked first when
/// something else about it is wrong (its body, its query): a caller who is not
/// authenticated learns `401` and nothing about what the route would make of the rest
/// (issue 29). Checking them costs nothing on the way of a good request.
pub(crate) struct Gate {
    svc: Option<web::Data<Service>>,
    token: Option<String>,
    public: bool,
}

impl Gate {
    /// The gate of `req`'s route and credentials.
    pub(crate) fn of(req: &HttpRequest) -> Gate {
        Gate {
            svc: req.app_data::<web::Data<Service>>().cloned(),
            token: bearer(req),
            public: is_public(req.path()),
        }
    }

    /// The caller, when the route authenticates one and the token is an API key or a seat
    /// token that authenticates; `Ok(None)` for a public route or a share link's token
    /// that is valid (which routes it reads is its extractor's to say); `401` else.
    pub(crate) async fn caller(self) -> ApiResult<Option<Caller>> {
        if self.public {
            return Ok(None);
        }
        let svc = self
            .svc
            .ok_or_else(|| ApiError::internal("service state missing"))?;
        let token = self.token.ok_or_else(|| {
            ApiError::new(
                Code::Unauthorized,
                "send an API key or seat token as Authorization: Bearer <token>",
            )
        })?;
        if token.starts_with("sh_") {
            crate::shares::authenticate(&svc, &token).await?;
            return Ok(None);
        }
        authenticate(&svc, &token)
            .await?
            .map(Some)
            .ok_or_else(|| ApiError::new(Code::Unauthorized, "the token is not valid"))
    }

    /// `err`, unless the credentials fail first: then their error.
    pub(crate) async fn first(self, err: ApiError) -> ApiError {
        match self.caller().await {
            Err(e) => e,
            Ok(_) => err,
        }
    }
}

impl FromRequest for Caller {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = ApiResult<Caller>>>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        // Authenticated already by the route's gate (a request with a query).
        if let Some(caller) = req.extensions().get::<Caller>().cloned() {
            return Box::pin(async move { Ok(caller) });
        }
        let svc = req.app_data::<web::Data<Service>>().cloned();
        let token = bearer(req);
        Box::pin(async move {
            let svc = svc.ok_or_else(|| ApiError::internal("service state missing"))?;
            let token = token.ok_or_else(|| {
                ApiError::new(
                    Code::Unauthorized,
                    "send an API key or seat token as Authorization: Bearer <token>",
                )
            })?;
            if token.starts_with("sh_") {
                // A share link's token reads its hand's GET routes only ([`Reader`]).
                crate::shares::authenticate(&svc, &token).await?;
                return Err(ApiError::forbidden(crate::shares::ONLY_ITS_HAND));
            }
            authenticate(&svc, &token)
                .await?
                .ok_or_else(|| ApiError::new(Code::Unauthorized, "the token is not valid"))
        })
    }
}

/// A caller that reads one hand: an API key or seat token (as [`Caller`]), or the token of
/// a share link of the hand named by the route's `{hand_id}`, which reads as an auditor
/// would (finished hands only) and that hand only: another hand is `404`.
#[derive(Clone, Debug)]
pub struct Reader(pub Caller);

impl FromRequest for Reader {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = ApiResult<Reader>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let share = bearer(req).filter(|t| t.starts_with("sh_"));
        let Some(token) = share else {
            let caller = Caller::from_request(req, payload);
            return Box::pin(async move { caller.await.map(Reader) });
        };
        let svc = req.app_data::<web::Data<Service>>().cloned();
        let hand = req.match_info().get("hand_id").map(str::to_string);
        Box::pin(async move {
            let svc = svc.ok_or_else(|| ApiError::internal("service state missing"))?;
            let share = crate::shares::authenticate(&svc, &token).await?;
            if hand.as_deref() != Some(share.hand_id.as_str()) {
                return Err(ApiError::not_found("hand"));
            }
            Ok(Reader(Caller {
                club_id: share.club_id,
                id: share.share_id,
                role: Role::Auditor,
            }))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CLUB: &str = "c_0123456789abcdef";

    #[test]
    fn tokens_name_their_club_parse_and_match() {
        let t = new_token(API_KEY_PREFIX, CLUB).unwrap();
        assert!(t.token.starts_with("ak_c_0123456789abcdef_"), "{t:?}");
        let p = parse_token(&t.token).unwrap();
        assert_eq!(
            (p.prefix, p.club_id, p.id),
            ("ak", Some(CLUB), t.id.as_str())
        );
        assert!(secret_matches(p.secret, &t.hash));
        assert!(!secret_matches(p.secret, &hash_secret("other")));
        let s = new_token(SEAT_TOKEN_PREFIX, CLUB).unwrap();
        assert_eq!(parse_token(&s.token).unwrap().club_id, Some(CLUB));
    }

    #[test]
    fn legacy_tokens_parse_without_a_club() {
        let (id, secret) = ("a".repeat(16), "b".repeat(64));
        let token = format!("st_{id}_{secret}");
        let p = parse_token(&token).unwrap();
        assert_eq!(
            p,
            Presented {
                prefix: "st",
                club_id: None,
                id: &id,
                secret: &secret
            }
        );
    }

    #[test]
    fn malformed_tokens_do_not_parse() {
        let (id, secret) = ("a".repeat(16), "b".repeat(64));
        for bad in [
            "ak_12_34".to_string(),
            "nonsense".to_string(),
            String::new(),
            format!("ak_{id}"),
            format!("ak_{id}_{secret}x"),
            format!("ak_{id}x_{secret}"),
            // Club ids of other shapes, and empty parts.
            format!("ak_c_0123_{id}_{secret}"),
            format!("ak_x_0123456789abcdef_{id}_{secret}"),
            format!("ak_c0123456789abcdef_{id}_{secret}"),
            format!("ak__{id}_{secret}"),
            format!("ak_{CLUB}__{secret}"),
            format!("ak_{CLUB}_{id}_"),
            format!("ak_{CLUB}_{CLUB}_{id}_{secret}"),
        ] {
            assert_eq!(parse_token(&bad), None, "{bad}");
        }
    }

    fn admin_row(read: Instant) -> TokenRow {
        TokenRow {
            hash: "ab".repeat(32),
            caller: Caller {
                club_id: CLUB.into(),
                id: "k".into(),
                role: Role::Admin,
            },
            read,
        }
    }

    #[test]
    fn token_rows_are_kept_for_a_while_by_kind_club_and_id() {
        let cache = TokenCache::default();
        let t0 = Instant::now();
        cache.put(TokenKind::ApiKey, CLUB, "k", admin_row(t0));
        let later = t0 + Duration::from_secs(1);
        assert!(cache.get(TokenKind::ApiKey, CLUB, "k", later).is_some());
        assert!(cache.get(TokenKind::Seat, CLUB, "k", later).is_none());
        assert!(cache
            .get(TokenKind::ApiKey, "c_fedcba9876543210", "k", later)
            .is_none());
        assert!(cache.get(TokenKind::ApiKey, CLUB, "k2", later).is_none());
        assert!(
            cache
                .get(TokenKind::ApiKey, CLUB, "k", t0 + TOKEN_ROW_TTL)
                .is_none(),
            "read again once stale"
        );
    }

    #[test]
    fn token_rows_kept_are_bounded() {
        let cache = TokenCache::default();
        let t0 = Instant::now();
        for i in 0..TOKEN_ROWS_MAX + 10 {
            cache.put(TokenKind::Seat, CLUB, &i.to_string(), admin_row(t0));
        }
        assert!(cache.len() <= TOKEN_ROWS_MAX);
        assert!(!cache.is_empty());
    }

    /// A row kept from an earlier request still has every presented secret compared with
    /// its hash: a wrong secret is refused whether the row was read now or before.
    #[tokio::test]
    async fn a_kept_row_still_checks_the_secret() {
        use crate::store::{ApiKeyRow, ClubRow, SeatRow, TableRow};
        let dir = tempfile::tempdir().unwrap();
        let svc = Service::open(&crate::config::StoreArgs::embedded(dir.path()))
            .await
            .unwrap();
        let admin = token_from(API_KEY_PREFIX, CLUB, &[1; 8], &[2; 32]).unwrap();
        let seat = token_from(SEAT_TOKEN_PREFIX, CLUB, &[3; 8], &[4; 32]).unwrap();
        let store = svc.store.as_ref();
        store
            .create_club(
                &ClubRow {
                    club_id: CLUB.into(),
                    name: "Club".into(),
                    created_ms: 0,
                },
                &ApiKeyRow {
                    club_id: CLUB.into(),
                    key_id: admin.id.clone(),
                    key_hash: admin.hash.clone(),
                    role: KeyRole::Admin,
                    created_ms: 0,
                },
            )
            .await
            .unwrap();
        store
            .create_table(
                &TableRow {
                    club_id: CLUB.into(),
                    table_id: "t_1".into(),
                    game: "bist-o-yek".into(),
                    rules: serde_json::json!({}),
                    setup: serde_json::json!({}),
                    match_state: serde_json::json!({}),
                    match_version: 0,
                    seats: vec![SeatRow {
                        seat: 0,
                        player: "p".into(),
                        token_id: seat.id.clone(),
                        token_hash: seat.hash.clone(),
                        public_key: None,
                    }],
                    created_ms: 0,
                },
                None,
            )
            .await
            .unwrap();
        let wrong_admin = token_from(API_KEY_PREFIX, CLUB, &[1; 8], &[9; 32]).unwrap();
        let wrong_seat = token_from(SEAT_TOKEN_PREFIX, CLUB, &[3; 8], &[9; 32]).unwrap();
        for round in 0..2 {
            let a = authenticate(&svc, &admin.token).await.unwrap().unwrap();
            assert_eq!((a.role, a.id.as_str()), (Role::Admin, admin.id.as_str()));
            let s = authenticate(&svc, &seat.token).await.unwrap().unwrap();
            assert_eq!(
                s.role,
                Role::Seat {
                    table_id: "t_1".into(),
                    seat: SeatIndex(0)
                }
            );
            assert!(authenticate(&svc, &wrong_admin.token)
                .await
                .unwrap()
                .is_none());
            assert!(authenticate(&svc, &wrong_seat.token)
                .await
                .unwrap()
                .is_none());
            assert_eq!(
                svc.tokens.len(),
                2,
                "round {round}: the two rows found are kept"
            );
        }
        // An unknown id is not kept, and stays unknown.
        let unknown = token_from(SEAT_TOKEN_PREFIX, CLUB, &[5; 8], &[4; 32]).unwrap();
        assert!(authenticate(&svc, &unknown.token).await.unwrap().is_none());
        assert_eq!(svc.tokens.len(), 2);
    }

    #[test]
    fn a_token_names_only_a_club_of_the_usual_shape() {
        assert!(is_club_id(&random_id(CLUB_PREFIX).unwrap()));
        assert!(!is_club_id("c1"));
        assert!(new_token(API_KEY_PREFIX, "c1").is_err());
        assert!(token_from(API_KEY_PREFIX, "c_x", &[0; 8], &[0; 32]).is_err());
    }
}
