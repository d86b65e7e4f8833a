//! The hand driver: one hand's engine, its committed shuffles and its stream of events.
//!
//! The service deals through a [`LiveHand`] and the `replayer simulate` command does the
//! same; the verifier folds a recorded stream through the very same [`LiveHand::fold`], so
//! what is checked later is exactly what was enforced live.
//!
//! The life of a hand in events:
//!
//! 1. `hand_started` (seq 0) records the game, rules, match state, seats, deck and the
//!    commitment to shuffle 0.
//! 2. `client_seed` events add the seats' entropy to the next shuffle (if the table collects
//!    it).
//! 3. `action` events, each checked by the engine, with the engine's public effects.
//! 4. When the engine asks for a shuffle, `shuffled` uses the next committed shuffle, and a
//!    `shuffle_committed` for the one after it follows at once: every shuffle is committed
//!    before anyone can know whether or how it will be used.
//! 5. `hand_ended` (or `abandoned`) and then `seeds_revealed`, the last event.

use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::cards::{Card, DeckKind};
use std::collections::BTreeMap;

use crate::engine::{
    Actor, DynGame, DynHand, GameId, SeatIndex, SetupError, ToAct, Viewer, Violation,
};
use crate::games::registry;
use crate::log::{
    action_message, input_commitment, seal, Body, Event, Hash, LogError, OpenedInput, PlayerSig,
    PlayerSignatures, PrevHand, Record, RevealedSeed, SeatInfo, SigningKeyPair,
    EVENT_FORMAT_VERSION,
};
use crate::seed_chain::{ChainLink, ChainSeed, SeedChainRef};
use crate::shuffle::{
    deck_seed, shuffle_cards, ClientSeed, Commitment, ServerSeed, ShuffleError, SHUFFLE_VERSION,
};

/// Longest abandon reason, in characters.
pub const MAX_REASON_CHARS: usize = 500;
/// Longest hand id, in bytes (the shuffle spec's limit).
pub const MAX_HAND_ID_BYTES: usize = 128;

/// Everything that identifies a new hand.
#[derive(Clone, Debug)]
pub struct HandParams {
    /// The hand's id (1 to 128 bytes).
    pub hand_id: String,
    /// The club.
    pub club: String,
    /// The table.
    pub table: String,
    /// Which hand of the match, from 1.
    pub hand_no: u64,
    /// The game.
    pub game: GameId,
    /// The house rules (any subset; defaults fill the rest).
    pub rules: Value,
    /// The match state the hand starts from.
    pub match_state: Value,
    /// The seats.
    pub seats: Vec<SeatInfo>,
    /// Whether seats may add client seeds.
    pub client_entropy: bool,
    /// The previous hand of the match (none for a match's first hand).
    pub prev_hand: Option<PrevHand>,
}

/// What a new hand records besides [`HandParams`]: options a table sets once for all its
/// hands.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HandOptions {
    /// Every action by a seat must carry its player's signature (`hand_started`'s
    /// `player_signatures`); every seat must then have a registered key.
    pub signatures_required: bool,
    /// The penalty rulings carried into the match state before this hand, in order
    /// (`hand_started`'s `adjustments`): the hand's `match_state` must already be the state
    /// after them. The dealer records them; the match's verification checks them.
    pub adjustments: Vec<crate::log::Adjustment>,
}

/// Where server seeds come from.
#[derive(Clone)]
pub enum SeedSource {
    /// The operating system's CSPRNG (the service).
    Os,
    /// A seed chain (`docs/SHUFFLE.md` §12): shuffle k's server seed is
    /// [`ChainSeed::server_seed`]`(k)` of the link's chain seed, and the hand records the
    /// link's anchor, length and position in its first event and reveals the chain seed at
    /// its end. Salts of private actions still come from the operating system.
    Chain(ChainLink),
    /// From a fixed 32-byte seed (the simulator's `--seed`, tests): shuffle 0 uses the seed
    /// itself, so `replayer deck --seed` shows the same first deck; shuffle k ≥ 1 uses
    /// `SHA-256("persian-cards/simulated-server-seed/v1" || 0x00 || seed || u32be(k))`.
    Derived([u8; 32]),
}

impl std::fmt::Debug for SeedSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SeedSource::Os => f.write_str("Os"),
            SeedSource::Derived(_) => f.write_str("Derived(<redacted>)"),
            SeedSource::Chain(l) => write!(f, "Chain({:?})", l.header),
        }
    }
}

impl SeedSource {
    /// The salt of the private input at event `seq`: random from the OS, or (simulations)
    /// `SHA-256("persian-cards/simulated-salt/v1" || 0x00 || seed || u64be(seq))`.
    fn salt(&self, seq: u64) -> Result<Hash, ShuffleError> {
        match self {
            SeedSource::Os | SeedSource::Chain(_) => Ok(Hash(*ServerSeed::generate()?.as_bytes())),
            SeedSource::Derived(s) => {
                let mut h = Sha256::new();
                h.update(b"persian-cards/simulated-salt/v1\0");
                h.update(s);
                h.update(seq.to_be_bytes());
                Ok(Hash(h.finalize().into()))
            }
        }
    }

    fn seed(&self, k: u32) -> Result<ServerSeed, ShuffleError> {
        match self {
            SeedSource::Os => ServerSeed::generate(),
            SeedSource::Chain(l) => Ok(l.seed.server_seed(k)),
            SeedSource::Derived(s) if k == 0 => Ok(ServerSeed::from_bytes(*s)),
            SeedSource::Derived(s) => {
                let mut h = Sha256::new();
                h.update(b"persian-cards/simulated-server-seed/v1\0");
                h.update(s);
                h.update(k.to_be_bytes());
                Ok(ServerSeed::from_bytes(h.finalize().into()))
            }
        }
    }
}

/// Where a hand stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HandStatus {
    /// Being played.
    InProgress,
    /// Played to its end.
    Completed,
    /// Abandoned before its end.
    Abandoned,
}

impl HandStatus {
    /// The status as written in the API and the store.
    pub fn as_str(self) -> &'static str {
        match self {
            HandStatus::InProgress => "in_progress",
            HandStatus::Completed => "completed",
            HandStatus::Abandoned => "abandoned",
        }
    }
}

/// A recorded event that does not follow from the events before it. Names the rule, and
/// what was expected against what was found. Never holds a secret of a running hand: the
/// verifier works on finished hands, and the service only folds what it produced itself.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{rule}: expected {expected}, found {found}")]
pub struct Mismatch {
    /// The seat concerned, if any.
    pub seat: Option<SeatIndex>,
    /// The rule or check that fails (an engine rule id, or `commitment`, `chain`, …).
    pub rule: String,
    /// What the rules or the earlier events imply.
    pub expected: String,
    /// What the event says.
    pub found: String,
}

impl Mismatch {
    fn new(rule: &str, expected: impl Into<String>, found: impl Into<String>) -> Self {
        Mismatch {
            seat: None,
            rule: rule.to_string(),
            expected: expected.into(),
            found: found.into(),
        }
    }

    fn from_violation(actor: Actor, v: &Violation) -> Self {
        Mismatch {
            seat: match actor {
                Actor::Seat(s) => Some(s),
                Actor::Service => None,
            },
            rule: v.rule.clone(),
            expected: format!("a legal action ({})", v.section),
            found: v.detail.clone(),
        }
    }
}

/// Why the dealer refused a request.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum DealerError {
    /// The engine rejected the action.
    #[error("illegal action: {0}")]
    Illegal(Violation),
    /// The hand is over.
    #[error("the hand is over")]
    HandOver,
    /// The table does not collect client seeds.
    #[error("this table does not take client seeds")]
    EntropyOff,
    /// The seat already gave a client seed for this shuffle.
    #[error("{0} already added a client seed for this shuffle")]
    AlreadyContributed(SeatIndex),
    /// The pending shuffle does not ask this seat for a client seed (it is out of play).
    #[error("{0} is not asked for a client seed for this shuffle")]
    NotAsked(SeatIndex),
    /// No such seat.
    #[error("no {0} at this table")]
    NoSuchSeat(SeatIndex),
    /// No shuffle is pending.
    #[error("no shuffle is pending: the hand is not waiting for a deal")]
    NoShufflePending,
    /// A player's signature is not valid for the action.
    #[error("the player signature does not verify: {0}")]
    BadPlayerSignature(String),
    /// The hand requires player signatures and the action by this seat carries none.
    #[error("the hand requires player signatures: the action of {0} carries none")]
    PlayerSignatureRequired(SeatIndex),
    /// Setting up the hand failed.
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// Drawing a seed failed.
    #[error(transparent)]
    Seed(#[from] ShuffleError),
    /// Encoding failed.
    #[error(transparent)]
    Log(#[from] LogError),
    /// A recorded event does not follow (restoring a hand).
    #[error("event {seq}: {mismatch}")]
    Fold {
        /// The event.
        seq: u64,
        /// What is wrong.
        mismatch: Mismatch,
    },
}

/// One hand: the engine, the shuffles, and the log's head.
#[derive(Debug)]
pub struct LiveHand {
    hand_id: String,
    game: GameId,
    deck: DeckKind,
    seats: Vec<SeatInfo>,
    client_entropy: bool,
    engine: Box<dyn DynHand>,
    commitments: Vec<Commitment>,
    /// Server seeds known to this hand (the service's, or the revealed ones).
    seeds: Vec<Option<ServerSeed>>,
    client_seeds: Vec<Vec<(SeatIndex, ClientSeed)>>,
    used: u32,
    next_seq: u64,
    head: Hash,
    status: HandStatus,
    outcome: Option<Value>,
    next_match: Option<Value>,
    seed_source: SeedSource,
    last_action: Option<Value>,
    revealed: bool,
    /// Set after shuffle k is used: the very next event must commit shuffle k + 1.
    commit_due: Option<u32>,
    last_time_ms: u64,
    /// Openings of private actions known to this hand (the service's own, or revealed), by
    /// the seq of their `private_action` event.
    openings: BTreeMap<u64, OpenedInput>,
    /// The private actions folded so far: seq → (actor, commitment).
    sealed: BTreeMap<u64, (Actor, Hash)>,
    /// The seed chain the hand is dealt from, as its first event says.
    seed_chain: Option<SeedChainRef>,
    /// Its chain seed, when known: the service's own, or the revealed one.
    chain_seed: Option<ChainSeed>,
    /// Every action by a seat must be signed by its player.
    signatures_required: bool,
}

impl Clone for LiveHand {
    fn clone(&self) -> Self {
        LiveHand {
            hand_id: self.hand_id.clone(),
            game: self.game,
            deck: self.deck,
            seats: self.seats.clone(),
            client_entropy: self.client_entropy,
            engine: self.engine.clone_box(),
            commitments: self.commitments.clone(),
            seeds: self.seeds.clone(),
            client_seeds: self.client_seeds.clone(),
            used: self.used,
            next_seq: self.next_seq,
            head: self.head,
            status: self.status,
            outcome: self.outcome.clone(),
            next_match: self.next_match.clone(),
            seed_source: self.seed_source.clone(),
            last_action: self.last_action.clone(),
            revealed: self.revealed,
            commit_due: self.commit_due,
            last_time_ms: self.last_time_ms,
            openings: self.openings.clone(),
            sealed: self.sealed.clone(),
            seed_chain: self.seed_chain,
            chain_seed: self.chain_seed,
            signatures_required: self.signatures_required,
        }
    }
}

fn usize_of(k: u32) -> usize {
    usize::try_from(k).unwrap_or(usize::MAX)
}

impl LiveHand {
    /// Start a hand: draws the first server seed and returns the `hand_started` record.
    pub fn start(
        params: HandParams,
        seed_source: SeedSource,
        key: &SigningKeyPair,
        now_ms: u64,
    ) -> Result<(LiveHand, Vec<Record>), DealerError> {
        LiveHand::start_with_options(params, HandOptions::default(), seed_source, key, now_ms)
    }

    /// [`LiveHand::start`] with the table's [`HandOptions`]. A [`SeedSource::Chain`] deals
    /// the hand from its chain seed and records the chain in the first event.
    pub fn start_with_options(
        params: HandParams,
        options: HandOptions,
        seed_source: SeedSource,
        key: &SigningKeyPair,
        now_ms: u64,
    ) -> Result<(LiveHand, Vec<Record>), DealerError> {
        let def = registry(params.game)?;
        LiveHand::start_full(params, options, def, seed_source, key, now_ms)
    }

    /// [`LiveHand::start`] on a given engine definition (an engine not in the registry: the
    /// toy engine the core's tests drive the dealer with).
    pub fn start_with_engine(
        params: HandParams,
        engine_def: &'static dyn DynGame,
        seed_source: SeedSource,
        key: &SigningKeyPair,
        now_ms: u64,
    ) -> Result<(LiveHand, Vec<Record>), DealerError> {
        LiveHand::start_full(
            params,
            HandOptions::default(),
            engine_def,
            seed_source,
            key,
            now_ms,
        )
    }

    fn start_full(
        params: HandParams,
        options: HandOptions,
        engine_def: &'static dyn DynGame,
        seed_source: SeedSource,
        key: &SigningKeyPair,
        now_ms: u64,
    ) -> Result<(LiveHand, Vec<Record>), DealerError> {
        let n_seats = u8::try_from(params.seats.len()).unwrap_or(u8::MAX);
        let rules = engine_def.normalize_rules_for(&params.rules, n_seats)?;
        let seed0 = seed_source.seed(0)?;
        let commitment = seed0.commitment();
        let engine = engine_def.new_hand(&rules, &params.match_state)?;
        let (min, max) = engine_def.seats();
        let n = params.seats.len();
        if n < usize::from(min) || n > usize::from(max) {
            return Err(SetupError::Seats {
                game: params.game,
                min,
                max,
                found: n,
            }
            .into());
        }
        let in_match = engine_def.seat_count(&params.match_state)?;
        if n != usize::from(in_match) {
            return Err(SetupError::Match(format!(
                "the match is for {in_match} seats but the hand lists {n}"
            ))
            .into());
        }
        let body = Body::HandStarted {
            club: params.club,
            table: params.table,
            hand_no: params.hand_no,
            game: params.game,
            rules,
            match_state: params.match_state,
            seats: params.seats,
            deck: engine.deck(),
            shuffle_version: SHUFFLE_VERSION,
            commitment,
            client_entropy: params.client_entropy,
            prev_hand: params.prev_hand,
            seed_chain: match &seed_source {
                SeedSource::Chain(l) => Some(l.header),
                _ => None,
            },
            player_signatures: options
                .signatures_required
                .then_some(PlayerSignatures::Required),
            adjustments: options.adjustments,
        };
        let mut hand = LiveHand::from_started(&params.hand_id, &body, seed_source, engine_def)?;
        hand.seeds = vec![Some(seed0)];
        let records = hand.emit(vec![(body, None)], key, now_ms)?;
        Ok((hand, records))
    }

    /// Rebuild a hand from its first event alone (`seeds` still empty).
    fn from_started(
        hand_id: &str,
        started: &Body,
        seed_source: SeedSource,
        engine_def: &'static dyn DynGame,
    ) -> Result<LiveHand, DealerError> {
        let Body::HandStarted {
            game,
            rules,
            match_state,
            seats,
            deck,
            shuffle_version,
            commitment,
            client_entropy,
            hand_no,
            prev_hand,
            seed_chain,
            player_signatures,
            ..
        } = started
        else {
            return Err(DealerError::Fold {
                seq: 0,
                mismatch: Mismatch::new("first_event", "hand_started", started.kind()),
            });
        };
        let fold_err = |m: Mismatch| DealerError::Fold {
            seq: 0,
            mismatch: m,
        };
        if hand_id.is_empty() || hand_id.len() > MAX_HAND_ID_BYTES {
            return Err(fold_err(Mismatch::new(
                "hand_id",
                format!("a hand id of 1 to {MAX_HAND_ID_BYTES} bytes"),
                format!("{} bytes", hand_id.len()),
            )));
        }
        if let Some(p) = prev_hand {
            if *hand_no < 2 {
                return Err(fold_err(Mismatch::new(
                    "prev_hand",
                    "no previous hand for a match's first hand",
                    format!("hand {hand_no} naming a previous hand"),
                )));
            }
            if p.hand.is_empty() || p.hand.len() > MAX_HAND_ID_BYTES || p.hand == hand_id {
                return Err(fold_err(Mismatch::new(
                    "prev_hand",
                    format!("another hand's id of 1 to {MAX_HAND_ID_BYTES} bytes"),
                    format!("{} bytes", p.hand.len()),
                )));
            }
        }
        if let Some(c) = seed_chain {
            c.check().map_err(|e| {
                fold_err(Mismatch::new(
                    "seed_chain",
                    "a position in the chain",
                    e.to_string(),
                ))
            })?;
        }
        let chain_seed = match (&seed_source, seed_chain) {
            (SeedSource::Chain(l), Some(c)) if l.header == *c => Some(l.seed),
            (SeedSource::Chain(l), _) => {
                return Err(fold_err(Mismatch::new(
                    "seed_chain",
                    format!("the seed chain the hand is dealt from ({:?})", l.header),
                    format!("{seed_chain:?}"),
                )))
            }
            _ => None,
        };
        let signatures_required = player_signatures.is_some();
        if signatures_required {
            if let Some(s) = seats.iter().find(|s| s.public_key.is_none()) {
                let mut m = Mismatch::new(
                    "player_signatures",
                    "a registered key for every seat (the hand requires player signatures)",
                    "a seat without one",
                );
                m.seat = Some(s.seat);
                return Err(fold_err(m));
            }
        }
        if *shuffle_version != SHUFFLE_VERSION {
            return Err(fold_err(Mismatch::new(
                "shuffle_version",
                SHUFFLE_VERSION.to_string(),
                shuffle_version.to_string(),
            )));
        }
        if engine_def.id() != *game {
            return Err(fold_err(Mismatch::new(
                "game",
                engine_def.id().to_string(),
                game.to_string(),
            )));
        }
        let normalized =
            engine_def.normalize_rules_for(rules, u8::try_from(seats.len()).unwrap_or(u8::MAX))?;
        if &normalized != rules {
            return Err(fold_err(Mismatch::new(
                "house_rules",
                "house rules written out in full",
                rules.to_string(),
            )));
        }
        let engine = engine_def.new_hand(rules, match_state)?;
        if engine.deck() != *deck {
            return Err(fold_err(Mismatch::new(
                "deck",
                engine.deck().to_string(),
                deck.to_string(),
            )));
        }
        for (i, s) in seats.iter().enumerate() {
            if s.seat.index() != i {
                return Err(fold_err(Mismatch::new(
                    "seats",
                    format!("seat {i}"),
                    s.seat.to_string(),
                )));
            }
        }
        let (min, max) = engine_def.seats();
        if seats.len() < usize::from(min) || seats.len() > usize::from(max) {
            return Err(SetupError::Seats {
                game: *game,
                min,
                max,
                found: seats.len(),
            }
            .into());
        }
        let in_match = engine_def.seat_count(match_state)?;
        if seats.len() != usize::from(in_match) {
            return Err(fold_err(Mismatch::new(
                "seats",
                format!("{in_match} seats, as the match state says"),
                format!("{} seats", seats.len()),
            )));
        }
        Ok(LiveHand {
            hand_id: hand_id.to_string(),
            game: *game,
            deck: *deck,
            seats: seats.clone(),
            client_entropy: *client_entropy,
            engine,
            commitments: vec![*commitment],
            seeds: Vec::new(),
            client_seeds: vec![Vec::new()],
            used: 0,
            next_seq: 0,
            head: Hash::ZERO,
            status: HandStatus::InProgress,
            outcome: None,
            next_match: None,
            seed_source,
            last_action: None,
            revealed: false,
            commit_due: None,
            last_time_ms: 0,
            openings: BTreeMap::new(),
            sealed: BTreeMap::new(),
            seed_chain: *seed_chain,
            chain_seed,
            signatures_required,
        })
    }

    /// Rebuild a running or finished hand from its records, the server seeds known for it
    /// (`seeds[k]` for shuffle k) and the openings of its private actions (the service's
    /// own, kept sealed while the hand runs, or those its reveal published): a
    /// `private_action` does not fold without its opening. Used by the service after a
    /// restart, and by the verifier.
    pub fn restore(
        records: &[Record],
        seeds: Vec<Option<ServerSeed>>,
        openings: Vec<OpenedInput>,
        seed_source: SeedSource,
    ) -> Result<LiveHand, DealerError> {
        let first = records.first().ok_or(DealerError::Fold {
            seq: 0,
            mismatch: Mismatch::new("first_event", "hand_started", "no events"),
        })?;
        let def = match &first.event.body {
            Body::HandStarted { game, .. } => registry(*game)?,
            other => {
                return Err(DealerError::Fold {
                    seq: 0,
                    mismatch: Mismatch::new("first_event", "hand_started", other.kind()),
                })
            }
        };
        LiveHand::restore_with_engine(records, seeds, openings, seed_source, def)
    }

    /// [`LiveHand::restore`] with the openings of the hand's private actions known so far,
    /// on a given engine definition.
    pub fn restore_with_engine(
        records: &[Record],
        seeds: Vec<Option<ServerSeed>>,
        openings: Vec<OpenedInput>,
        seed_source: SeedSource,
        def: &'static dyn DynGame,
    ) -> Result<LiveHand, DealerError> {
        let first = records.first().ok_or(DealerError::Fold {
            seq: 0,
            mismatch: Mismatch::new("first_event", "hand_started", "no events"),
        })?;
        let mut hand =
            LiveHand::from_started(&first.event.hand, &first.event.body, seed_source, def)?;
        hand.seeds = seeds;
        hand.set_openings(openings);
        for r in records {
            hand.fold_record(&r.event, r.hash)
                .map_err(|mismatch| DealerError::Fold {
                    seq: r.event.seq,
                    mismatch,
                })?;
        }
        Ok(hand)
    }

    /// Start from a recorded first event (no seeds known yet).
    pub(crate) fn from_first_event(
        first: &Event,
        seed_source: SeedSource,
    ) -> Result<LiveHand, DealerError> {
        let def = match &first.body {
            Body::HandStarted { game, .. } => registry(*game)?,
            other => {
                return Err(DealerError::Fold {
                    seq: 0,
                    mismatch: Mismatch::new("first_event", "hand_started", other.kind()),
                })
            }
        };
        LiveHand::from_started(&first.hand, &first.body, seed_source, def)
    }

    /// Set the openings of private actions known for the hand (revealed at its end).
    pub(crate) fn set_openings(&mut self, openings: Vec<OpenedInput>) {
        self.openings = openings.into_iter().map(|o| (o.seq, o)).collect();
    }

    /// Set the server seeds known for the hand's shuffles.
    pub(crate) fn set_seeds(&mut self, seeds: Vec<Option<ServerSeed>>) {
        self.seeds = seeds;
    }

    /// Fold a recorded event whose hash is `hash` (already checked by the caller).
    pub fn fold_record(&mut self, event: &Event, hash: Hash) -> Result<(), Mismatch> {
        self.fold(event)?;
        self.head = hash;
        Ok(())
    }

    /// Whether the seeds have been revealed (the stream is closed).
    pub fn is_revealed(&self) -> bool {
        self.revealed
    }

    /// Fold one recorded event into the hand, re-running every check the live service ran:
    /// sequence, chain link, commitments, client seeds, the engine's decision on each action
    /// and shuffle (whose effects must equal the recorded ones), the outcome, and the
    /// revealed seeds.
    pub fn fold(&mut self, event: &Event) -> Result<(), Mismatch> {
        if event.v != EVENT_FORMAT_VERSION {
            return Err(Mismatch::new(
                "event_version",
                EVENT_FORMAT_VERSION.to_string(),
                event.v.to_string(),
            ));
        }
        if event.hand != self.hand_id {
            return Err(Mismatch::new("hand_id", &self.hand_id, &event.hand));
        }
        if event.seq != self.next_seq {
            return Err(Mismatch::new(
                "sequence",
                format!("seq {}", self.next_seq),
                format!("seq {}", event.seq),
            ));
        }
        if event.prev != self.head {
            return Err(Mismatch::new(
                "chain",
                format!("prev = {}", self.head),
                format!("prev = {}", event.prev),
            ));
        }
        if self.revealed {
            return Err(Mismatch::new(
                "after_reveal",
                "no event after seeds_revealed",
                event.body.kind(),
            ));
        }
        if self.status != HandStatus::InProgress
            && !matches!(event.body, Body::SeedsRevealed { .. })
        {
            return Err(Mismatch::new(
                "after_end",
                "seeds_revealed or nothing",
                event.body.kind(),
            ));
        }
        if event.time_ms < self.last_time_ms {
            return Err(Mismatch::new(
                "time_order",
                format!("time_ms >= {}", self.last_time_ms),
                format!("time_ms {}", event.time_ms),
            ));
        }
        if let Some(k) = self.commit_due {
            let ok = matches!(event.body, Body::ShuffleCommitted { shuffle, .. } if shuffle == k);
            if !ok {
                return Err(Mismatch::new(
                    "commit_at_once",
                    format!(
                        "shuffle_committed for shuffle {k} right after shuffle {}",
                        k.saturating_sub(1)
                    ),
                    event.body.kind(),
                ));
            }
        }
        if event.player_sig.is_some() && !matches!(event.body, Body::Action { .. }) {
            return Err(Mismatch::new(
                "player_signature",
                "a player signature only on an action",
                event.body.kind(),
            ));
        }
        match &event.body {
            Body::HandStarted { .. } => {
                if event.seq != 0 {
                    return Err(Mismatch::new("first_event", "one hand_started", "another"));
                }
            }
            Body::ShuffleCommitted {
                shuffle,
                commitment,
            } => {
                let k = usize_of(*shuffle);
                if k != self.commitments.len() || *shuffle != self.used {
                    return Err(Mismatch::new(
                        "commitment_order",
                        format!("a commitment for shuffle {}", self.used),
                        format!("shuffle {shuffle}"),
                    ));
                }
                self.commitments.push(*commitment);
                self.client_seeds.push(Vec::new());
                self.commit_due = None;
            }
            Body::ClientSeed {
                shuffle,
                seat,
                seed,
            } => {
                if !self.client_entropy {
                    return Err(Mismatch::new(
                        "client_entropy",
                        "no client seeds at this table",
                        "a client seed",
                    ));
                }
                if *shuffle != self.used || usize_of(*shuffle) >= self.commitments.len() {
                    return Err(Mismatch::new(
                        "client_seed_window",
                        format!("a client seed for shuffle {}", self.used),
                        format!("shuffle {shuffle}"),
                    ));
                }
                if seat.index() >= self.seats.len() {
                    return Err(Mismatch::new(
                        "seat",
                        format!("a seat below {}", self.seats.len()),
                        seat.to_string(),
                    ));
                }
                if let Some(req) = self.engine.to_act().shuffle {
                    if !self.asked(&req).contains(seat) {
                        let mut m = Mismatch::new(
                            "client_seed_asked",
                            "a client seed from a seat the shuffle asks",
                            "one from another seat",
                        );
                        m.seat = Some(*seat);
                        return Err(m);
                    }
                }
                let list = self
                    .client_seeds
                    .get_mut(usize_of(*shuffle))
                    .ok_or_else(|| {
                        Mismatch::new("client_seed_window", "a pending shuffle", "none")
                    })?;
                if list.iter().any(|(s, _)| s == seat) {
                    let mut m = Mismatch::new(
                        "client_seed_once",
                        "one client seed per seat per shuffle",
                        "a second one",
                    );
                    m.seat = Some(*seat);
                    return Err(m);
                }
                list.push((*seat, seed.clone()));
            }
            Body::Shuffled {
                shuffle,
                reason,
                cards,
                effects,
                source,
                missing,
            } => {
                let request = self.engine.to_act().shuffle.ok_or_else(|| {
                    Mismatch::new("shuffle_when_asked", "no shuffle here", "a shuffle")
                })?;
                if *shuffle != self.used {
                    return Err(Mismatch::new(
                        "shuffle_order",
                        format!("shuffle {}", self.used),
                        format!("shuffle {shuffle}"),
                    ));
                }
                if reason != &request.reason
                    || usize::try_from(*cards).ok() != Some(request.cards.len())
                {
                    return Err(Mismatch::new(
                        "shuffle_request",
                        format!("{} of {} cards", request.reason, request.cards.len()),
                        format!("{reason} of {cards} cards"),
                    ));
                }
                if source.as_ref().is_some_and(|s| *s != request.source) {
                    return Err(Mismatch::new(
                        "shuffle_source",
                        source_text(&request.source),
                        source.as_ref().map_or_else(String::new, source_text),
                    ));
                }
                if let Some(m) = missing {
                    let want = self.missing(&request);
                    if *m != want {
                        return Err(Mismatch::new(
                            "shuffle_missing",
                            format!("seats without a client seed: {want:?}"),
                            format!("{m:?}"),
                        ));
                    }
                }
                let order = self.order_for(*shuffle, &request.cards)?;
                let got = self
                    .engine
                    .apply_shuffle(*shuffle, &order)
                    .map_err(|v| Mismatch::from_violation(Actor::Service, &v))?;
                compare_effects(&got, effects, None)?;
                self.used = self.used.saturating_add(1);
                self.commit_due = Some(self.used);
            }
            Body::Action {
                actor,
                action,
                effects,
            } => {
                if self.engine.public_part(action).is_some() {
                    return Err(Mismatch::new(
                        "private_input",
                        "a private action sealed as private_action",
                        "its plaintext in the public log",
                    ));
                }
                match (&event.player_sig, actor) {
                    (Some(ps), _) => {
                        self.check_player_sig(event.seq, &event.prev, *actor, action, ps)?
                    }
                    (None, Actor::Seat(seat)) if self.signatures_required => {
                        let mut m = Mismatch::new(
                            "player_signature_required",
                            "the acting player's signature (the hand requires them)",
                            "an unsigned action",
                        );
                        m.seat = Some(*seat);
                        return Err(m);
                    }
                    (None, _) => {}
                }
                let got = self
                    .engine
                    .apply(*actor, action)
                    .map_err(|v| Mismatch::from_violation(*actor, &v))?;
                let seat = match actor {
                    Actor::Seat(s) => Some(*s),
                    Actor::Service => None,
                };
                compare_effects(&got, effects, seat)?;
                self.last_action = Some(serde_json::json!({ "actor": actor, "action": action }));
            }
            Body::PrivateAction {
                actor,
                commitment,
                public,
            } => {
                let opening = self.openings.get(&event.seq).cloned().ok_or_else(|| {
                    Mismatch::new(
                        "private_input",
                        format!("the opening of the private action at seq {}", event.seq),
                        "none revealed",
                    )
                })?;
                let want = input_commitment(
                    &self.hand_id,
                    event.seq,
                    *actor,
                    &opening.salt,
                    &opening.action,
                )
                .map_err(|e| {
                    Mismatch::new("private_input", "an encodable action", e.to_string())
                })?;
                if want != *commitment {
                    return Err(Mismatch::new(
                        "private_input",
                        format!("an opening of commitment {commitment}"),
                        format!("an opening of {want}"),
                    ));
                }
                match self.engine.public_part(&opening.action) {
                    None => {
                        return Err(Mismatch::new(
                            "private_input",
                            "an action the rules keep private",
                            "a public action sealed",
                        ))
                    }
                    Some(p) if p != *public => {
                        return Err(Mismatch::new(
                            "private_input",
                            format!("the public part {p}"),
                            public.to_string(),
                        ))
                    }
                    Some(_) => {}
                }
                self.engine
                    .apply(*actor, &opening.action)
                    .map_err(|v| Mismatch::from_violation(*actor, &v))?;
                self.sealed.insert(event.seq, (*actor, *commitment));
                self.last_action = Some(serde_json::json!({ "actor": actor, "private": true }));
            }
            Body::HandEnded {
                outcome,
                next_match,
            } => {
                let want = self.engine.outcome().ok_or_else(|| {
                    Mismatch::new("hand_over", "the hand still running", "hand_ended")
                })?;
                if &want != outcome {
                    return Err(Mismatch::new(
                        "outcome",
                        want.to_string(),
                        outcome.to_string(),
                    ));
                }
                let want_next = self.engine.next_match().unwrap_or(Value::Null);
                if &want_next != next_match {
                    return Err(Mismatch::new(
                        "next_match",
                        want_next.to_string(),
                        next_match.to_string(),
                    ));
                }
                self.status = HandStatus::Completed;
                self.outcome = Some(outcome.clone());
                self.next_match = Some(next_match.clone());
            }
            Body::Abandoned { reason } => {
                if reason.chars().count() > MAX_REASON_CHARS {
                    return Err(Mismatch::new(
                        "abandon_reason",
                        format!("a reason of at most {MAX_REASON_CHARS} characters"),
                        format!("{} characters", reason.chars().count()),
                    ));
                }
                self.status = HandStatus::Abandoned;
            }
            Body::SeedsRevealed {
                seeds,
                inputs,
                chain_seed,
            } => {
                if self.status == HandStatus::InProgress {
                    return Err(Mismatch::new(
                        "reveal_at_end",
                        "hand_ended or abandoned first",
                        "seeds_revealed",
                    ));
                }
                if seeds.len() != self.commitments.len() {
                    return Err(Mismatch::new(
                        "reveal_all",
                        format!("{} seeds", self.commitments.len()),
                        format!("{} seeds", seeds.len()),
                    ));
                }
                for (k, (r, c)) in seeds.iter().zip(&self.commitments).enumerate() {
                    if r.server_seed.bytes().any(|b| b.is_ascii_uppercase()) {
                        return Err(Mismatch::new(
                            "server_seed",
                            "64 lowercase hex characters",
                            "uppercase hex",
                        ));
                    }
                    let seed = ServerSeed::from_hex(&r.server_seed).map_err(|e| {
                        Mismatch::new("server_seed", "64 hex characters", e.to_string())
                    })?;
                    if usize_of(r.shuffle) != k {
                        return Err(Mismatch::new(
                            "reveal_order",
                            format!("shuffle {k}"),
                            format!("shuffle {}", r.shuffle),
                        ));
                    }
                    if seed.commitment() != *c {
                        return Err(Mismatch::new(
                            "commitment",
                            format!("a seed whose commitment is {c}"),
                            format!("commitment {}", seed.commitment()),
                        ));
                    }
                    if let Some(Some(known)) = self.seeds.get(k) {
                        if known.as_bytes() != seed.as_bytes() {
                            return Err(Mismatch::new(
                                "server_seed",
                                "the seed used for the shuffle",
                                "another seed",
                            ));
                        }
                    }
                }
                self.check_openings(inputs)?;
                self.check_chain_reveal(seeds, chain_seed.as_ref())?;
                self.chain_seed = *chain_seed;
                self.seeds = seeds
                    .iter()
                    .map(|r| ServerSeed::from_hex(&r.server_seed).ok())
                    .collect();
                self.set_openings(inputs.clone());
                self.revealed = true;
            }
        }
        // Card conservation, from the core's zones (every engine keeps its cards there):
        // checked at every event, live and on verification.
        self.engine.zones().check().map_err(|e| {
            Mismatch::new("cards", "every card in exactly one place", e.to_string())
        })?;
        self.next_seq = self.next_seq.saturating_add(1);
        self.last_time_ms = event.time_ms;
        Ok(())
    }

    /// The seats a pending shuffle asks for client seeds (none on a table without them).
    fn asked(&self, req: &crate::engine::ShuffleRequest) -> Vec<SeatIndex> {
        if !self.client_entropy {
            return Vec::new();
        }
        let all = self.seats.iter().map(|s| s.seat);
        match &req.ask {
            None => all.collect(),
            Some(list) => all.filter(|s| list.contains(s)).collect(),
        }
    }

    /// The seats asked for the next shuffle that have given no client seed yet.
    fn missing(&self, req: &crate::engine::ShuffleRequest) -> Vec<SeatIndex> {
        let given = self.client_seeds.get(usize_of(self.used));
        self.asked(req)
            .into_iter()
            .filter(|s| !given.is_some_and(|l| l.iter().any(|(g, _)| g == s)))
            .collect()
    }

    /// The reveal opens exactly the private actions folded, in seq order, each opening its
    /// commitment (and equal to the one the hand knew, if it knew one).
    fn check_openings(&self, inputs: &[OpenedInput]) -> Result<(), Mismatch> {
        let want: Vec<u64> = self.sealed.keys().copied().collect();
        let got: Vec<u64> = inputs.iter().map(|i| i.seq).collect();
        if want != got {
            return Err(Mismatch::new(
                "reveal_inputs",
                format!("openings of the private actions at seqs {want:?}"),
                format!("openings at seqs {got:?}"),
            ));
        }
        for i in inputs {
            let (actor, commitment) = self.sealed.get(&i.seq).copied().ok_or_else(|| {
                Mismatch::new("reveal_inputs", "a private action", "an opening of none")
            })?;
            let c =
                input_commitment(&self.hand_id, i.seq, actor, &i.salt, &i.action).map_err(|e| {
                    Mismatch::new("reveal_inputs", "an encodable action", e.to_string())
                })?;
            let known = self.openings.get(&i.seq);
            if c != commitment || known.is_some_and(|k| k != i) {
                return Err(Mismatch::new(
                    "reveal_inputs",
                    format!("the opening of the private action at seq {}", i.seq),
                    "another",
                ));
            }
        }
        Ok(())
    }

    /// The reveal of a chained hand carries its chain seed, every revealed server seed
    /// derives from it, and it is the one the hand was dealt from (when known); a hand
    /// without a chain reveals none. Whether the chain seed hashes down to the anchor (or to
    /// the previous hand's) is checked by the verifier, outside the fold: it costs up to
    /// `position` hashes ([`check_chain_anchor`]).
    fn check_chain_reveal(
        &self,
        seeds: &[RevealedSeed],
        chain_seed: Option<&ChainSeed>,
    ) -> Result<(), Mismatch> {
        check_chain_seeds(self.seed_chain.as_ref(), seeds, chain_seed)?;
        if let (Some(known), Some(c)) = (&self.chain_seed, chain_seed) {
            if known != c {
                return Err(Mismatch::new(
                    "seed_chain",
                    "the chain seed the hand was dealt from",
                    "another chain seed",
                ));
            }
        }
        Ok(())
    }

    fn order_for(&self, shuffle: u32, cards: &[Card]) -> Result<Vec<Card>, Mismatch> {
        let k = usize_of(shuffle);
        let seed = self.seeds.get(k).and_then(|s| s.as_ref()).ok_or_else(|| {
            Mismatch::new(
                "server_seed",
                format!("the server seed of shuffle {shuffle}"),
                "none revealed",
            )
        })?;
        let c = self.commitments.get(k).ok_or_else(|| {
            Mismatch::new(
                "commitment",
                format!("a commitment to shuffle {shuffle} before it is used"),
                "none",
            )
        })?;
        if seed.commitment() != *c {
            return Err(Mismatch::new(
                "commitment",
                format!("a seed whose commitment is {c}"),
                format!("commitment {}", seed.commitment()),
            ));
        }
        let clients = self.client_seeds.get(k).map(Vec::as_slice).unwrap_or(&[]);
        let ds = deck_seed(seed, &self.hand_id, shuffle, clients)
            .map_err(|e| Mismatch::new("deck_seed", "a derivable deck seed", e.to_string()))?;
        Ok(shuffle_cards(&ds, cards))
    }

    fn check_player_sig(
        &self,
        seq: u64,
        prev: &Hash,
        actor: Actor,
        action: &Value,
        ps: &PlayerSig,
    ) -> Result<(), Mismatch> {
        let Actor::Seat(seat) = actor else {
            return Err(Mismatch::new(
                "player_signature",
                "a player signature only on a seat's action",
                "one on the service's",
            ));
        };
        let key = self
            .seats
            .get(seat.index())
            .and_then(|s| s.public_key)
            .ok_or_else(|| {
                let mut m = Mismatch::new(
                    "player_signature",
                    "a registered key for the seat",
                    "none registered",
                );
                m.seat = Some(seat);
                m
            })?;
        let mut m = Mismatch::new(
            "player_signature",
            format!("a valid signature by {}", key.key_id()),
            format!("a signature claiming {}", ps.key_id),
        );
        m.seat = Some(seat);
        if key.key_id() != ps.key_id {
            return Err(m);
        }
        let msg = action_message(&self.hand_id, seq, prev, actor, action)
            .map_err(|e| Mismatch::new("player_signature", "an encodable action", e.to_string()))?;
        if !key.verify(&msg, &ps.sig) {
            m.found = "a signature that does not verify".to_string();
            return Err(m);
        }
        Ok(())
    }

    /// Seal bodies into records, folding each through [`LiveHand::fold`] first.
    fn emit(
        &mut self,
        bodies: Vec<(Body, Option<PlayerSig>)>,
        key: &SigningKeyPair,
        now_ms: u64,
    ) -> Result<Vec<Record>, DealerError> {
        let mut out = Vec::with_capacity(bodies.len());
        for (body, player_sig) in bodies {
            let event = Event {
                v: EVENT_FORMAT_VERSION,
                hand: self.hand_id.clone(),
                seq: self.next_seq,
                prev: self.head,
                time_ms: now_ms,
                body,
                player_sig,
            };
            let seq = event.seq;
            self.fold(&event)
                .map_err(|mismatch| DealerError::Fold { seq, mismatch })?;
            let record = seal(event, key)?;
            self.head = record.hash;
            out.push(record);
        }
        Ok(out)
    }

    /// After an accepted event: use pending shuffles that need nobody's entropy, and close
    /// the hand when the engine says it is over.
    fn settle(&mut self, key: &SigningKeyPair, now_ms: u64) -> Result<Vec<Record>, DealerError> {
        let mut out = Vec::new();
        loop {
            if self.status != HandStatus::InProgress {
                break;
            }
            let to_act = self.engine.to_act();
            if let Some(req) = &to_act.shuffle {
                if !self.missing(req).is_empty() {
                    break;
                }
                out.extend(self.shuffle_records(
                    req.reason.clone(),
                    req.cards.len(),
                    key,
                    now_ms,
                )?);
                continue;
            }
            if to_act.is_over() {
                out.extend(self.end_records(key, now_ms)?);
            }
            break;
        }
        Ok(out)
    }

    fn shuffle_records(
        &mut self,
        reason: String,
        cards: usize,
        key: &SigningKeyPair,
        now_ms: u64,
    ) -> Result<Vec<Record>, DealerError> {
        let k = self.used;
        let request = self
            .engine
            .to_act()
            .shuffle
            .ok_or(DealerError::NoShufflePending)?;
        let order = self
            .order_for(k, &request.cards)
            .map_err(|mismatch| DealerError::Fold {
                seq: self.next_seq,
                mismatch,
            })?;
        let mut probe = self.engine.clone_box();
        let effects = probe
            .apply_shuffle(k, &order)
            .map_err(DealerError::Illegal)?;
        let missing = self.client_entropy.then(|| self.missing(&request));
        let next = k.saturating_add(1);
        let seed = self.seed_source.seed(next)?;
        let commitment = seed.commitment();
        let mut out = self.emit(
            vec![(
                Body::Shuffled {
                    shuffle: k,
                    reason,
                    cards: u32::try_from(cards).unwrap_or(u32::MAX),
                    effects,
                    source: Some(request.source),
                    missing,
                },
                None,
            )],
            key,
            now_ms,
        )?;
        self.seeds.push(Some(seed));
        out.extend(self.emit(
            vec![(
                Body::ShuffleCommitted {
                    shuffle: next,
                    commitment,
                },
                None,
            )],
            key,
            now_ms,
        )?);
        Ok(out)
    }

    fn end_records(
        &mut self,
        key: &SigningKeyPair,
        now_ms: u64,
    ) -> Result<Vec<Record>, DealerError> {
        let outcome = self.engine.outcome().unwrap_or(Value::Null);
        let next_match = self.engine.next_match().unwrap_or(Value::Null);
        let mut out = self.emit(
            vec![(
                Body::HandEnded {
                    outcome,
                    next_match,
                },
                None,
            )],
            key,
            now_ms,
        )?;
        out.extend(self.reveal_records(key, now_ms)?);
        Ok(out)
    }

    fn reveal_records(
        &mut self,
        key: &SigningKeyPair,
        now_ms: u64,
    ) -> Result<Vec<Record>, DealerError> {
        let mut seeds = Vec::with_capacity(self.seeds.len());
        for (k, s) in self.seeds.iter().enumerate() {
            let shuffle = u32::try_from(k).unwrap_or(u32::MAX);
            let seed = s.as_ref().ok_or_else(|| DealerError::Fold {
                seq: self.next_seq,
                mismatch: Mismatch::new(
                    "server_seed",
                    format!("the server seed of shuffle {shuffle} to reveal"),
                    "none known",
                ),
            })?;
            seeds.push(RevealedSeed {
                shuffle,
                server_seed: seed.to_hex(),
            });
        }
        let inputs: Vec<OpenedInput> = self
            .openings
            .values()
            .filter(|o| self.sealed.contains_key(&o.seq))
            .cloned()
            .collect();
        let chain_seed = if self.seed_chain.is_some() {
            Some(self.chain_seed.ok_or_else(|| DealerError::Fold {
                seq: self.next_seq,
                mismatch: Mismatch::new(
                    "seed_chain",
                    "the hand's chain seed to reveal",
                    "none known",
                ),
            })?)
        } else {
            None
        };
        self.emit(
            vec![(
                Body::SeedsRevealed {
                    seeds,
                    inputs,
                    chain_seed,
                },
                None,
            )],
            key,
            now_ms,
        )
    }

    /// A seat adds a client seed to the next shuffle. May trigger the shuffle when every
    /// seat has now given one.
    pub fn contribute(
        &mut self,
        seat: SeatIndex,
        seed: ClientSeed,
        key: &SigningKeyPair,
        now_ms: u64,
    ) -> Result<Vec<Record>, DealerError> {
        self.ensure_running()?;
        if !self.client_entropy {
            return Err(DealerError::EntropyOff);
        }
        if seat.index() >= self.seats.len() {
            return Err(DealerError::NoSuchSeat(seat));
        }
        if self
            .client_seeds
            .get(usize_of(self.used))
            .is_some_and(|l| l.iter().any(|(s, _)| *s == seat))
        {
            return Err(DealerError::AlreadyContributed(seat));
        }
        if let Some(req) = self.engine.to_act().shuffle {
            if !self.asked(&req).contains(&seat) {
                return Err(DealerError::NotAsked(seat));
            }
        }
        let mut out = self.emit(
            vec![(
                Body::ClientSeed {
                    shuffle: self.used,
                    seat,
                    seed,
                },
                None,
            )],
            key,
            now_ms,
        )?;
        out.extend(self.settle(key, now_ms)?);
        Ok(out)
    }

    /// Use the pending shuffle now, with the client seeds given so far ("deal").
    pub fn shuffle_now(
        &mut self,
        key: &SigningKeyPair,
        now_ms: u64,
    ) -> Result<Vec<Record>, DealerError> {
        self.ensure_running()?;
        let req = self
            .engine
            .to_act()
            .shuffle
            .ok_or(DealerError::NoShufflePending)?;
        let mut out = self.shuffle_records(req.reason, req.cards.len(), key, now_ms)?;
        out.extend(self.settle(key, now_ms)?);
        Ok(out)
    }

    /// An actor acts. The engine checks it; on success the records to append (the action,
    /// and whatever follows automatically: shuffles that need no entropy, the end of the hand
    /// and the reveal).
    pub fn act(
        &mut self,
        actor: Actor,
        action: Value,
        player_sig: Option<PlayerSig>,
        key: &SigningKeyPair,
        now_ms: u64,
    ) -> Result<Vec<Record>, DealerError> {
        self.ensure_running()?;
        if let Some(public) = self.engine.public_part(&action) {
            return self.act_private(actor, action, public, player_sig, key, now_ms);
        }
        match (&player_sig, actor) {
            (Some(ps), _) => self
                .check_player_sig(self.next_seq, &self.head, actor, &action, ps)
                .map_err(|m| DealerError::BadPlayerSignature(m.to_string()))?,
            (None, Actor::Seat(seat)) if self.signatures_required => {
                return Err(DealerError::PlayerSignatureRequired(seat))
            }
            (None, _) => {}
        }
        let mut probe = self.engine.clone_box();
        let effects = probe.apply(actor, &action).map_err(DealerError::Illegal)?;
        let mut out = self.emit(
            vec![(
                Body::Action {
                    actor,
                    action,
                    effects,
                },
                player_sig,
            )],
            key,
            now_ms,
        )?;
        out.extend(self.settle(key, now_ms)?);
        Ok(out)
    }

    /// A private action: checked like any other, then written as a salted commitment; the
    /// plaintext is kept (the service seals it) and opened when the hand ends.
    fn act_private(
        &mut self,
        actor: Actor,
        action: Value,
        public: Value,
        player_sig: Option<PlayerSig>,
        key: &SigningKeyPair,
        now_ms: u64,
    ) -> Result<Vec<Record>, DealerError> {
        if player_sig.is_some() {
            return Err(DealerError::BadPlayerSignature(
                "a private action carries no player signature in this version".into(),
            ));
        }
        let mut probe = self.engine.clone_box();
        probe.apply(actor, &action).map_err(DealerError::Illegal)?;
        let seq = self.next_seq;
        let salt = self.seed_source.salt(seq)?;
        let commitment = input_commitment(&self.hand_id, seq, actor, &salt, &action)?;
        self.openings.insert(seq, OpenedInput { seq, salt, action });
        let emitted = self.emit(
            vec![(
                Body::PrivateAction {
                    actor,
                    commitment,
                    public,
                },
                None,
            )],
            key,
            now_ms,
        );
        let mut out = match emitted {
            Ok(r) => r,
            Err(e) => {
                self.openings.remove(&seq);
                return Err(e);
            }
        };
        out.extend(self.settle(key, now_ms)?);
        Ok(out)
    }

    /// The openings of the private actions so far (secret while the hand runs: the service
    /// seals them like server seeds).
    pub fn openings(&self) -> Vec<OpenedInput> {
        self.openings.values().cloned().collect()
    }

    /// Abandon the hand: records why, then reveals every seed all the same.
    pub fn abandon(
        &mut self,
        reason: &str,
        key: &SigningKeyPair,
        now_ms: u64,
    ) -> Result<Vec<Record>, DealerError> {
        self.ensure_running()?;
        let mut out = self.emit(
            vec![(
                Body::Abandoned {
                    reason: reason.chars().take(MAX_REASON_CHARS).collect(),
                },
                None,
            )],
            key,
            now_ms,
        )?;
        out.extend(self.reveal_records(key, now_ms)?);
        Ok(out)
    }

    /// Apply automatic steps right after the hand started (a shuffle that needs no entropy).
    pub fn settle_after_start(
        &mut self,
        key: &SigningKeyPair,
        now_ms: u64,
    ) -> Result<Vec<Record>, DealerError> {
        self.settle(key, now_ms)
    }

    fn ensure_running(&self) -> Result<(), DealerError> {
        if self.status == HandStatus::InProgress {
            Ok(())
        } else {
            Err(DealerError::HandOver)
        }
    }

    /// The engine, for the property suite's checks ([`DynHand::zones`],
    /// [`DynHand::leak`], [`DynHand::check_legal`]).
    pub fn engine(&self) -> &dyn DynHand {
        self.engine.as_ref()
    }

    /// The hand's id.
    pub fn hand_id(&self) -> &str {
        &self.hand_id
    }

    /// The game.
    pub fn game(&self) -> GameId {
        self.game
    }

    /// The seats.
    pub fn seats(&self) -> &[SeatInfo] {
        &self.seats
    }

    /// Where the hand stands.
    pub fn status(&self) -> HandStatus {
        self.status
    }

    /// The seats the pending shuffle asks for a client seed (empty when none is pending or
    /// the table takes none).
    pub fn asked_seats(&self) -> Vec<SeatIndex> {
        match self.to_act().shuffle {
            Some(req) => self.asked(&req),
            None => Vec::new(),
        }
    }

    /// When the last event was appended (Unix ms): a pending shuffle has waited since.
    pub fn last_time_ms(&self) -> u64 {
        self.last_time_ms
    }

    /// The sequence number the next event will have.
    pub fn next_seq(&self) -> u64 {
        self.next_seq
    }

    /// Who the hand waits for (nobody once it is over).
    pub fn to_act(&self) -> ToAct {
        if self.status == HandStatus::InProgress {
            self.engine.to_act()
        } else {
            ToAct::default()
        }
    }

    /// The legal actions of an actor.
    pub fn legal_actions(&self, actor: Actor) -> Vec<Value> {
        if self.status == HandStatus::InProgress {
            self.engine.legal_actions(actor)
        } else {
            Vec::new()
        }
    }

    /// A random legal action of `actor`.
    pub fn random_action(&self, actor: Actor, rng: &mut dyn rand_core::RngCore) -> Option<Value> {
        if self.status == HandStatus::InProgress {
            self.engine.random_action(actor, rng)
        } else {
            None
        }
    }

    /// What `viewer` may see of the table. [`Viewer::All`] only makes sense once the hand
    /// is over or for the service's own use.
    pub fn view(&self, viewer: Viewer) -> Value {
        self.engine.view(viewer)
    }

    /// The outcome, once completed.
    pub fn outcome(&self) -> Option<&Value> {
        self.outcome.as_ref()
    }

    /// The next match state, once completed.
    pub fn next_match(&self) -> Option<&Value> {
        self.next_match.as_ref()
    }

    /// The last action folded (actor and action).
    pub fn last_action(&self) -> Option<&Value> {
        self.last_action.as_ref()
    }

    /// The commitments published so far.
    pub fn commitments(&self) -> &[Commitment] {
        &self.commitments
    }

    /// Client seeds per shuffle.
    pub fn client_seeds(&self) -> &[Vec<(SeatIndex, ClientSeed)>] {
        &self.client_seeds
    }

    /// The server seeds this hand holds (secret while it runs).
    pub fn server_seeds(&self) -> &[Option<ServerSeed>] {
        &self.seeds
    }

    /// The number of the next shuffle to be used (its client seeds are being collected).
    pub fn next_shuffle(&self) -> u32 {
        self.used
    }

    /// The deck.
    pub fn deck(&self) -> DeckKind {
        self.deck
    }

    /// The seed chain the hand is dealt from, as its first event says.
    pub fn seed_chain(&self) -> Option<&SeedChainRef> {
        self.seed_chain.as_ref()
    }

    /// The hand's chain seed, once revealed (or the service's own: secret while it runs).
    pub fn chain_seed(&self) -> Option<&ChainSeed> {
        self.chain_seed.as_ref()
    }

    /// Whether every action by a seat must carry its player's signature.
    pub fn signatures_required(&self) -> bool {
        self.signatures_required
    }

    /// The hash of the last event (the head a player signs an action after).
    pub fn head(&self) -> Hash {
        self.head
    }
}

/// The chain part of a reveal, without the anchor: a chain seed exactly when the hand is
/// dealt from a chain (`seed_chain`), and every revealed server seed `k` equal to the
/// chain seed's server seed `k` (`seed_chain_seeds`).
pub fn check_chain_seeds(
    header: Option<&SeedChainRef>,
    seeds: &[RevealedSeed],
    chain_seed: Option<&ChainSeed>,
) -> Result<(), Mismatch> {
    match (header, chain_seed) {
        (None, None) => Ok(()),
        (None, Some(_)) => Err(Mismatch::new(
            "seed_chain",
            "no chain seed (the hand is not dealt from a seed chain)",
            "a chain seed",
        )),
        (Some(h), None) => Err(Mismatch::new(
            "seed_chain",
            format!("the chain seed of position {} revealed", h.position),
            "none",
        )),
        (Some(_), Some(c)) => {
            for (k, r) in seeds.iter().enumerate() {
                let shuffle = u32::try_from(k).unwrap_or(u32::MAX);
                let want = c.server_seed(shuffle).to_hex();
                if r.server_seed != want {
                    return Err(Mismatch::new(
                        "seed_chain_seeds",
                        format!("the server seed of shuffle {shuffle} derived from the chain seed"),
                        "another seed",
                    ));
                }
            }
            Ok(())
        }
    }
}

/// Whether a revealed chain seed at its header's position hashes down to the header's
/// anchor (`seed_chain_anchor`): `position` hashes, at most [`crate::seed_chain::MAX_CHAIN_LENGTH`].
pub fn check_chain_anchor(header: &SeedChainRef, chain_seed: &ChainSeed) -> Result<(), Mismatch> {
    header
        .check()
        .map_err(|e| Mismatch::new("seed_chain", "a position in the chain", e.to_string()))?;
    if !header.anchors(chain_seed) {
        return Err(Mismatch::new(
            "seed_chain_anchor",
            format!(
                "a chain seed that hashes down to the anchor {} in {} steps",
                header.anchor, header.position
            ),
            format!("one that gives {}", chain_seed.anchor(header.position)),
        ));
    }
    Ok(())
}

/// A shuffle's source, short, for a mismatch.
fn source_text(s: &crate::engine::ShuffleSource) -> String {
    match s {
        crate::engine::ShuffleSource::Deck(d) => format!("a fresh {d} deck"),
        crate::engine::ShuffleSource::Gather(refs) => format!(
            "the {} cards {}",
            refs.len(),
            refs.iter()
                .map(|r| format!("{}/{}", r.shuffle, r.pos))
                .collect::<Vec<_>>()
                .join(" ")
        ),
    }
}

/// Compare the effects the engine computed with the recorded ones.
fn compare_effects(
    got: &[Value],
    recorded: &[Value],
    seat: Option<SeatIndex>,
) -> Result<(), Mismatch> {
    for (i, (g, r)) in got.iter().zip(recorded).enumerate() {
        if g != r {
            let mut m = Mismatch::new(
                "effects",
                format!("effect {i} = {g}"),
                format!("effect {i} = {r}"),
            );
            m.seat = seat;
            return Err(m);
        }
    }
    if got.len() != recorded.len() {
        let mut m = Mismatch::new(
            "effects",
            format!("{} effects", got.len()),
            format!("{} effects", recorded.len()),
        );
        m.seat = seat;
        return Err(m);
    }
    Ok(())
}

/// Build the match state of a new table's first hand.
pub fn new_match(game: GameId, rules: &Value, setup: &Value) -> Result<Value, SetupError> {
    registry(game)?.new_match(rules, setup)
}
