//! The one error type every [`Store`](super::Store) implementation returns.

/// What went wrong in the store.
///
/// The `Display` text of every variant is safe to log: it never holds SQL text, a
/// parameter value or a secret. Only [`StoreError::Conflict`],
/// [`StoreError::IdempotencyConflict`], [`StoreError::NotFound`] and
/// [`StoreError::Duplicate`] are meant to be turned into a message for the caller;
/// [`StoreError::Unavailable`] becomes a bare 503 and the rest a bare 500.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// An optimistic-concurrency check failed: another writer got there first.
    ///
    /// `expected` is what the caller assumed and `found` what the store holds:
    /// - `append`: the hand's next sequence number (a unique violation on
    ///   `(club_id, hand_id, seq)` lands here too), or, for a table update, the
    ///   table's `match_version`;
    /// - `create_hand`: the number of hands in progress on the table (`expected: 0,
    ///   found: 1`), or, when `hand_no` was already taken, the caller's `hand_no`
    ///   against the table's actual next hand number.
    #[error("conflict: expected {expected}, found {found}")]
    Conflict {
        /// The value the caller based its write on.
        expected: i64,
        /// The value the store holds now.
        found: i64,
    },

    /// The idempotency key is already recorded for this club: the request was (or is
    /// being) handled once; read the stored response with `get_idempotency`.
    #[error("idempotency key already used")]
    IdempotencyConflict,

    /// A row the write depends on does not exist (the name says which kind: "club",
    /// "table", "hand").
    #[error("{0} not found")]
    NotFound(&'static str),

    /// A row with the same identity already exists (the name says which kind: "club",
    /// "api key", "table", "seat token", "hand", "secret").
    #[error("{0} already exists")]
    Duplicate(&'static str),

    /// The database cannot be reached, the pool timed out, or the database asked us
    /// to retry (serialization failure, deadlock, busy). Retrying later may succeed.
    #[error("storage unavailable: {0}")]
    Unavailable(String),

    /// The store could not be set up from its configuration (a malformed database URL,
    /// a data folder that cannot be created).
    #[error("storage misconfigured: {0}")]
    Config(String),

    /// The club's order of events (`clubs.next_gid`, `club_log`, PostgreSQL's
    /// `log_cursors`) or its transparency log does not hold together: the sequencer will
    /// not order the club's events, and its log proofs are refused, until it is repaired.
    /// The text names the row and what was expected; it holds ids and numbers only.
    #[error("club log damaged: {0}")]
    LogDamaged(String),

    /// Anything else: a bug, a broken invariant, data the store cannot decode. The
    /// text is for logs only and never shown to callers.
    #[error("internal storage error: {0}")]
    Internal(String),
}

impl StoreError {
    /// Whether this is one of the optimistic-concurrency outcomes (`409 Conflict` in the
    /// API): [`StoreError::Conflict`] or [`StoreError::IdempotencyConflict`].
    pub fn is_conflict(&self) -> bool {
        matches!(
            self,
            StoreError::Conflict { .. } | StoreError::IdempotencyConflict
        )
    }
}

impl From<serde_json::Error> for StoreError {
    fn from(e: serde_json::Error) -> Self {
        StoreError::Internal(format!("json: {e}"))
    }
}
