//! Every error the API answers: one table of stable codes, each turned into an
//! `application/problem+json` body (RFC 9457) by one [`ResponseError`] impl.
//!
//! A problem never holds an internal cause, SQL text, a seed, a hidden card or a token:
//! internal causes are logged (without secrets) and answered with a bare `internal`.

use std::fmt;

use actix_web::http::{header, StatusCode};
use actix_web::{HttpResponse, ResponseError};
use serde::Serialize;
use serde_json::{Map, Value};

use crate::store::StoreError;

macro_rules! error_codes {
    ($($variant:ident => $code:literal, $status:ident, $title:literal;)*) => {
        /// A stable error code: `code` in every problem body.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Code {
            $(
                #[doc = $title]
                $variant,
            )*
        }

        impl Code {
            /// Every code, in table order.
            pub const ALL: &'static [Code] = &[$(Code::$variant,)*];

            /// The snake_case code.
            pub fn as_str(self) -> &'static str {
                match self { $(Code::$variant => $code,)* }
            }

            /// The HTTP status.
            pub fn status(self) -> StatusCode {
                match self { $(Code::$variant => StatusCode::$status,)* }
            }

            /// A short, fixed, human summary.
            pub fn title(self) -> &'static str {
                match self { $(Code::$variant => $title,)* }
            }
        }
    };
}

error_codes! {
    InvalidJson          => "invalid_json",           BAD_REQUEST,            "The body is not JSON of the expected shape";
    InvalidQuery         => "invalid_query",          BAD_REQUEST,            "A query parameter is invalid";
    InvalidName          => "invalid_name",           BAD_REQUEST,            "A name is empty, too long or holds characters that cannot be shown";
    InvalidIdempotencyKey => "invalid_idempotency_key", BAD_REQUEST,          "The Idempotency-Key header is invalid";
    BundleUnreadable     => "bundle_unreadable",      BAD_REQUEST,            "The body is not a readable hand bundle";
    InvalidTilePath      => "invalid_tile_path",      BAD_REQUEST,            "The path is not the one spelling C2SP tlog-tiles gives a tile or entry bundle";
    WeakPublicKey        => "weak_public_key",        BAD_REQUEST,            "The public key is a weak Ed25519 key (a point of small order): anyone can forge signatures that verify under it";
    Unauthorized         => "unauthorized",           UNAUTHORIZED,           "Missing or invalid credentials";
    ShareExpired         => "share_expired",          UNAUTHORIZED,           "The share link has expired: ask the club for a new one";
    ShareRevoked         => "share_revoked",          UNAUTHORIZED,           "The share link was revoked by the club";
    Forbidden            => "forbidden",              FORBIDDEN,              "The credentials do not allow this";
    NotFound             => "not_found",              NOT_FOUND,              "No such resource";
    MethodNotAllowed     => "method_not_allowed",     METHOD_NOT_ALLOWED,     "The route does not take this method";
    SeqConflict          => "seq_conflict",           CONFLICT,               "The hand has moved on: expected_seq is not its next seq";
    HandInProgress       => "hand_in_progress",       CONFLICT,               "A hand is in progress";
    NotInLogYet          => "not_in_log_yet",         CONFLICT,               "The hand's last event is not under a signed checkpoint of its club's log yet: retry in a second";
    LogDamaged           => "log_damaged",            CONFLICT,               "The club's order of events or its transparency log does not hold together: nothing is proven from it until it is repaired (the audit names the row)";
    HandOver             => "hand_over",              CONFLICT,               "The hand is over";
    MatchOver            => "match_over",             CONFLICT,               "The table's match is over";
    MatchBroken          => "match_broken",           CONFLICT,               "The match cannot go on: its last hand's record is missing or does not verify";
    HandDamaged          => "hand_damaged",           CONFLICT,               "The hand's stored log fails verification: it can be read as events only, or quarantined";
    DisputeDamaged       => "dispute_damaged",        CONFLICT,               "An entry of the dispute's stored record does not read as a dispute entry";
    RecordDamaged        => "record_damaged",         CONFLICT,               "A stored record the service relies on differs from what its signed record says: `record` names it (the audit names it too)";
    HandQuarantined      => "hand_quarantined",       CONFLICT,               "The hand is quarantined: its log failed verification and it was set aside";
    HandNotDamaged       => "hand_not_damaged",       CONFLICT,               "The hand's log verifies: only a damaged hand can be quarantined (abandon a healthy one)";
    HandNotLatest        => "hand_not_latest",        CONFLICT,               "A later hand of the table already follows this one: only the table's latest hand can be quarantined";
    NoShufflePending     => "no_shuffle_pending",     CONFLICT,               "No shuffle is pending";
    EntropyOff           => "entropy_off",            CONFLICT,               "This table takes no client seeds";
    AlreadyContributed   => "already_contributed",    CONFLICT,               "The seat already gave a client seed for this shuffle";
    NotAsked             => "not_asked",              CONFLICT,               "The pending shuffle asks this seat for no client seed (it is out of play)";
    EntropyWindowOpen    => "entropy_window_open",    CONFLICT,               "The seats asked may still add client seeds: a seat may deal once the table's deadline has passed";
    IdempotencyInFlight  => "idempotency_in_flight",  CONFLICT,               "A request with this Idempotency-Key is being handled";
    SeedChainExhausted   => "seed_chain_exhausted",   CONFLICT,               "The table's seed chain is used up: set a new chain (POST /v1/tables/{table_id}/seed-chain) to deal on";
    SeedChainInUse       => "seed_chain_in_use",      CONFLICT,               "The table's seed chain still has positions: a new chain only once it is used up";
    NoSeedChain          => "no_seed_chain",          CONFLICT,               "The table deals without a seed chain: a chain is set when a table is created";
    DisputeMovedOn       => "dispute_moved_on",       CONFLICT,               "The dispute has an entry newer than the one the ruling was signed over: sign again over its head";
    OfficialExists       => "official_exists",        CONFLICT,               "This key is already registered as an official of the club";
    RevocationExists     => "revocation_exists",      CONFLICT,               "This official's key is revoked already";
    BodyTimeout          => "body_timeout",           REQUEST_TIMEOUT,        "The body did not arrive in time";
    PayloadTooLarge      => "payload_too_large",      PAYLOAD_TOO_LARGE,      "The body is too large";
    InvalidShare         => "invalid_share",          UNPROCESSABLE_ENTITY,   "The share link cannot be made as asked (expires_in_secs out of range)";
    IllegalAction        => "illegal_action",         UNPROCESSABLE_ENTITY,   "The rules do not allow this action";
    BadPlayerSignature   => "bad_player_signature",   UNPROCESSABLE_ENTITY,   "The player signature does not verify";
    PlayerSignatureRequired => "player_signature_required", UNPROCESSABLE_ENTITY, "The table requires player signatures: the action carries none";
    PublicKeyRequired    => "public_key_required",    UNPROCESSABLE_ENTITY,   "A table that requires player signatures needs a public key for every seat";
    ExpectedSeqRequired  => "expected_seq_required",  UNPROCESSABLE_ENTITY,   "A player signature needs expected_seq";
    InvalidTable         => "invalid_table",          UNPROCESSABLE_ENTITY,   "The table cannot be set up";
    InvalidSeed          => "invalid_seed",           UNPROCESSABLE_ENTITY,   "The client seed must be 1 to 64 bytes of hex";
    IdempotencyKeyReused => "idempotency_key_reused", UNPROCESSABLE_ENTITY,   "The Idempotency-Key was used for another request";
    InvalidDispute       => "invalid_dispute",        UNPROCESSABLE_ENTITY,   "The dispute cannot be opened as asked: an unknown kind, or an event the hand does not have";
    InvalidRuling        => "invalid_ruling",         UNPROCESSABLE_ENTITY,   "The ruling cannot be recorded: an unknown decision, or a penalty the game's rules do not give";
    UnknownOfficial      => "unknown_official",       UNPROCESSABLE_ENTITY,   "The ruling's official is not registered for this club under that name and key";
    BadOfficialSignature => "bad_official_signature", UNPROCESSABLE_ENTITY,   "The official's signature does not verify over the ruling";
    InvalidOfficial      => "invalid_official",       UNPROCESSABLE_ENTITY,   "The official cannot be registered: the public key is not an Ed25519 public key";
    OfficialRevoked      => "official_revoked",       UNPROCESSABLE_ENTITY,   "The ruling's official key was revoked: it signs no further ruling";
    Internal             => "internal",               INTERNAL_SERVER_ERROR,  "Internal error";
    Unavailable          => "unavailable",            SERVICE_UNAVAILABLE,    "The storage is unavailable; retry later";
    Busy                 => "busy",                   SERVICE_UNAVAILABLE,    "The server is receiving as many large bodies as it takes at once; retry later";
}

/// The `type` URI of a code's problems.
pub fn type_uri(code: Code) -> String {
    format!("urn:persian-cards:problem:{}", code.as_str())
}

/// An API error: a code, a detail for people, and extra members (`rule`, `section`,
/// `expected_seq` …).
#[derive(Clone, Debug)]
pub struct ApiError {
    /// The code.
    pub code: Code,
    /// What happened, for people. Never holds a secret.
    pub detail: String,
    /// Extra members of the problem body.
    pub extra: Map<String, Value>,
}

/// The problem+json body, as documented in the OpenAPI description.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct Problem {
    /// `urn:persian-cards:problem:<code>`.
    #[serde(rename = "type")]
    pub type_: String,
    /// The code's fixed summary.
    pub title: String,
    /// The HTTP status.
    pub status: u16,
    /// What happened.
    pub detail: String,
    /// The stable error code.
    pub code: String,
    /// `illegal_action`: the engine's rule id, e.g. `BetBelowMin`; `hand_damaged`: the
    /// check the stored log fails, e.g. `hash`, `chain`, `sealed_seed`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// `hand_damaged`: the event at which the stored log fails.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seq: Option<u64>,
    /// `illegal_action`: the spec section, e.g. `bist-o-yek §5.3`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub section: Option<String>,
    /// `seq_conflict`: the hand's next seq; `dispute_moved_on`: the dispute's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_seq: Option<u64>,
    /// `dispute_moved_on`: the hash of the dispute's last entry, to sign a ruling over.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub head: Option<String>,
    /// `invalid_query`: the unknown query parameter.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parameter: Option<String>,
    /// `invalid_name`: the field, e.g. `seats[1].player`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// `record_damaged`: the stored record concerned, `{"table", "row", "expected"}`: the
    /// database table, the row's key and what the signed record says it should hold.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub record: Option<Value>,
}

impl ApiError {
    /// An error with a detail.
    pub fn new(code: Code, detail: impl Into<String>) -> Self {
        ApiError {
            code,
            detail: detail.into(),
            extra: Map::new(),
        }
    }

    /// Adds an extra member.
    pub fn with(mut self, key: &str, value: impl Into<Value>) -> Self {
        self.extra.insert(key.to_string(), value.into());
        self
    }

    /// A `409 record_damaged`: the stored row `row` of database table `table` differs from
    /// what the signed record says it holds (`expected`). Never holds a secret: callers
    /// name ids, hashes and public values only.
    pub fn record_damaged(
        table: &str,
        row: impl Into<String>,
        expected: impl Into<String>,
    ) -> Self {
        let row = row.into();
        let expected = expected.into();
        ApiError::new(
            Code::RecordDamaged,
            format!("the stored {table} row {row} was changed behind the service's back: expected {expected}"),
        )
        .with(
            "record",
            serde_json::json!({"table": table, "row": row, "expected": expected}),
        )
    }

    /// A 404 for any resource kind.
    pub fn not_found(what: &str) -> Self {
        ApiError::new(Code::NotFound, format!("no such {what}"))
    }

    /// A 403.
    pub fn forbidden(detail: impl Into<String>) -> Self {
        ApiError::new(Code::Forbidden, detail)
    }

    /// A 400 `invalid_name` naming the field and what is wrong with it.
    pub fn invalid_name(field: &str, e: &crate::names::NameError) -> Self {
        ApiError::new(Code::InvalidName, format!("{field} {e}")).with("field", field)
    }

    /// A 500. The cause is logged (it must not hold a secret), never answered.
    pub fn internal(cause: impl fmt::Display) -> Self {
        tracing::error!(cause = %cause, "internal error");
        ApiError::new(Code::Internal, "the request could not be completed")
    }

    /// The problem body.
    pub fn body(&self) -> Value {
        let mut m = Map::new();
        m.insert("type".into(), type_uri(self.code).into());
        m.insert("title".into(), self.code.title().into());
        m.insert("status".into(), self.code.status().as_u16().into());
        m.insert("detail".into(), self.detail.clone().into());
        m.insert("code".into(), self.code.as_str().into());
        for (k, v) in &self.extra {
            m.insert(k.clone(), v.clone());
        }
        Value::Object(m)
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code.as_str(), self.detail)
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        self.code.status()
    }

    fn error_response(&self) -> HttpResponse {
        let mut res = HttpResponse::build(self.status_code());
        res.insert_header((header::CONTENT_TYPE, "application/problem+json"));
        if self.status_code() == StatusCode::UNAUTHORIZED {
            res.insert_header((header::WWW_AUTHENTICATE, "Bearer"));
        }
        if let Some(secs) = self.extra.get("retry_after_s").and_then(Value::as_u64) {
            res.insert_header((header::RETRY_AFTER, secs.to_string()));
        }
        if self.code == Code::BodyTimeout {
            // The rest of the body may still be on its way: never read it as a next request.
            res.insert_header((header::CONNECTION, "close"));
        }
        res.body(self.body().to_string())
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::Conflict { .. } => ApiError::new(
                Code::SeqConflict,
                "another request changed this resource first; reload and retry",
            ),
            StoreError::IdempotencyConflict => ApiError::new(
                Code::IdempotencyInFlight,
                "a request with this Idempotency-Key was handled concurrently; retry to get its response",
            ),
            StoreError::NotFound(what) => ApiError::not_found(what),
            StoreError::LogDamaged(why) => {
                tracing::warn!(damage = %why, "club log damaged: request refused");
                ApiError::new(Code::LogDamaged, why)
            }
            StoreError::Unavailable(cause) => {
                tracing::warn!(cause = %cause, "storage unavailable");
                ApiError::new(Code::Unavailable, "the storage is unavailable; retry later")
                    .with("retry_after_s", 1)
            }
            other => ApiError::internal(other),
        }
    }
}

impl From<crate::keys::KeyError> for ApiError {
    fn from(e: crate::keys::KeyError) -> Self {
        ApiError::internal(e)
    }
}

/// The error of the `Result`s the handlers return.
pub type ApiResult<T> = Result<T, ApiError>;

impl From<crate::clublog::LogError> for ApiError {
    fn from(e: crate::clublog::LogError) -> Self {
        match e {
            crate::clublog::LogError::Store(e) => e.into(),
            crate::clublog::LogError::Damaged(why) => {
                tracing::warn!(damage = %why, "club log damaged: request refused");
                ApiError::new(Code::LogDamaged, why)
            }
            other => ApiError::internal(other),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_snake_case() {
        let mut seen = std::collections::HashSet::new();
        for c in Code::ALL {
            assert!(seen.insert(c.as_str()), "{} twice", c.as_str());
            assert!(c
                .as_str()
                .chars()
                .all(|ch| ch.is_ascii_lowercase() || ch == '_'));
        }
    }

    #[test]
    fn problem_body_has_the_rfc_9457_members() {
        let e = ApiError::new(Code::IllegalAction, "no").with("rule", "BetBelowMin");
        let b = e.body();
        assert_eq!(b["status"], 422);
        assert_eq!(b["code"], "illegal_action");
        assert_eq!(b["rule"], "BetBelowMin");
        assert_eq!(b["type"], "urn:persian-cards:problem:illegal_action");
    }
}
