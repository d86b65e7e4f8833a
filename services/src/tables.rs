//! The tables domain: a game, its house rules, its seats (each with a seat token shown
//! once) and the match carried from hand to hand; and the match scoreboard.

use actix_web::http::StatusCode;
use replayer::engine::{GameId, SetupError};
use replayer::games::registry;
use replayer::log::PublicKey;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use utoipa::ToSchema;

use crate::api::errors::{ApiError, ApiResult, Code};
use crate::auth::{new_token, random_id, Caller, Role, SEAT_TOKEN_PREFIX};
use crate::history::HandSummary;
use crate::idempotency::{IdemCtx, Reply};
use crate::names::display_name;
use crate::seed_chains::{self, NewSeedChain, SeedChainView};
use crate::store::{HandFilter, HandStatus, SeatRow, TableRow};
use crate::{now_ms, Service};

/// Longest player name.
pub const MAX_PLAYER_LEN: usize = 64;
/// Most hands a scoreboard lists.
pub const SCOREBOARD_MAX_HANDS: usize = 5000;

/// A seat of a new table.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewSeat {
    /// The player's name at the table: 1 to 64 characters, stored in Unicode NFC with
    /// white space around it trimmed; no control, bidirectional or zero-width characters
    /// (a zero-width non-joiner only between two Arabic-script letters). Else `400
    /// invalid_name`.
    pub player: String,
    /// The player's Ed25519 public key (64 hex), to sign their own actions.
    pub public_key: Option<String>,
}

/// `POST /v1/tables`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateTable {
    /// The game id: `bist-o-yek` (the only engine so far).
    pub game: String,
    /// House rules: any subset; defaults fill the rest.
    #[schema(value_type = Option<Object>)]
    pub rules: Option<Value>,
    /// The match set-up; for bist-o-yek `{"seats": n, "first_banker"?: n, "balances"?: [...]}`
    /// (`seats` is filled in from the seats when left out).
    #[schema(value_type = Option<Object>)]
    pub setup: Option<Value>,
    /// The seats, in play order.
    pub seats: Vec<NewSeat>,
    /// Whether seats add client seeds before each shuffle (default true).
    pub client_entropy: Option<bool>,
    /// How long (ms, 0 to 86,400,000) the seats a pending shuffle asks may add client seeds
    /// before any seat may deal without them (default 30,000; the admin may deal at any
    /// time). The `shuffled` event names the seats that gave none.
    pub entropy_deadline_ms: Option<u64>,
    /// Pre-commit to the server seeds of the table's next `length` hands (1 to 1,000,000)
    /// by publishing only a seed chain's anchor (`docs/SHUFFLE.md` §12).
    pub seed_chain: Option<NewSeedChain>,
    /// `required`: every seat's action must carry its player's signature, and every seat
    /// must register a `public_key` (else `422 public_key_required`); `optional` (the
    /// default): a seat with a key may sign.
    pub signatures: Option<Signatures>,
}

/// Whether a table requires its players' signatures on their actions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Signatures {
    /// A seat with a registered key may sign its actions.
    #[default]
    Optional,
    /// Every action by a seat must be signed by its player (`player_signature_required`).
    Required,
}

/// A seat as shown (no token).
#[derive(Debug, Serialize, ToSchema)]
pub struct SeatView {
    /// Seat index, from 0.
    pub seat: u8,
    /// The player's name.
    pub player: String,
    /// The player's public key, hex.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub public_key: Option<String>,
}

/// A seat of a new table, with its token (shown once).
#[derive(Debug, Serialize, ToSchema)]
pub struct SeatCreated {
    /// Seat index, from 0.
    pub seat: u8,
    /// The player's name.
    pub player: String,
    /// The player's public key, hex.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub public_key: Option<String>,
    /// The seat token `st_<club id>_<token id>_<secret>`: shown only in this response.
    pub token: String,
}

/// `POST /v1/tables` → 201.
#[derive(Debug, Serialize, ToSchema)]
pub struct TableCreated {
    /// The table.
    pub table_id: String,
    /// The game.
    pub game: String,
    /// The house rules, every option written out.
    #[schema(value_type = Object)]
    pub rules: Value,
    /// The match set-up.
    #[schema(value_type = Object)]
    pub setup: Value,
    /// The match state the first hand starts from.
    #[schema(value_type = Object)]
    pub match_state: Value,
    /// Whether seats add client seeds.
    pub client_entropy: bool,
    /// Whether the players must sign their actions.
    pub signatures: Signatures,
    /// The table's seed chain: its anchor is published here, before any hand.
    pub seed_chain: Option<SeedChainView>,
    /// The seats, with their tokens.
    pub seats: Vec<SeatCreated>,
    /// Unix ms.
    pub created_ms: i64,
}

/// A table as shown.
#[derive(Debug, Serialize, ToSchema)]
pub struct TableView {
    /// The table.
    pub table_id: String,
    /// The game.
    pub game: String,
    /// The house rules.
    #[schema(value_type = Object)]
    pub rules: Value,
    /// The match set-up.
    #[schema(value_type = Object)]
    pub setup: Value,
    /// The current match state.
    #[schema(value_type = Object)]
    pub match_state: Value,
    /// Whether the match is over.
    pub match_over: bool,
    /// Whether seats add client seeds.
    pub client_entropy: bool,
    /// Whether the players must sign their actions.
    pub signatures: Signatures,
    /// The table's current seed chain, if it deals from one.
    pub seed_chain: Option<SeedChainView>,
    /// The seats.
    pub seats: Vec<SeatView>,
    /// Unix ms.
    pub created_ms: i64,
    /// The hand in progress (not shown to auditors).
    pub current_hand: Option<String>,
}

/// `GET /v1/tables`.
#[derive(Debug, Serialize, ToSchema)]
pub struct TableList {
    /// The tables the caller may see.
    pub tables: Vec<TableView>,
}

/// One seat's standing in the match.
#[derive(Debug, Serialize, ToSchema)]
pub struct Standing {
    /// The seat.
    pub seat: u8,
    /// The player.
    pub player: String,
    /// Balance (bist-o-yek, toman) or the seat's side's score (hokm, points), from the
    /// engine's typed standings.
    pub balance: Option<i64>,
    /// The sum of the seat's results over the hands listed (toman won or lost; points
    /// scored), from the engine's typed results.
    pub net_total: i64,
}

/// `GET /v1/tables/{table_id}/scoreboard`.
#[derive(Debug, Serialize, ToSchema)]
pub struct Scoreboard {
    /// The table.
    pub table_id: String,
    /// The game.
    pub game: String,
    /// Finished hands (completed, abandoned and quarantined).
    pub hands_played: usize,
    /// Completed hands.
    pub completed: usize,
    /// Abandoned hands.
    pub abandoned: usize,
    /// Quarantined hands: their logs failed verification; they count for nothing.
    pub quarantined: usize,
    /// Finished hands, oldest first, with their outcomes (at most 5000).
    pub hands: Vec<HandSummary>,
    /// The current match state.
    #[schema(value_type = Object)]
    pub match_state: Value,
    /// Each seat's standing.
    pub standings: Vec<Standing>,
    /// Who holds the role that passes from hand to hand next (`next_role`), when the game
    /// has one.
    pub next_seat: Option<u8>,
    /// That role: `banker` (bist-o-yek: offered the bank), `hakem` (hokm), `dealer`
    /// (bluff).
    pub next_role: Option<String>,
    /// What `standings[].balance` counts: `toman`, `points` or `none`.
    #[schema(value_type = Option<String>)]
    pub score_unit: Option<replayer::engine::ScoreUnit>,
    /// The sides, for games played in teams (hokm's partnerships): seats per side.
    pub sides: Vec<Vec<u8>>,
    /// Whether the match is over.
    pub match_over: bool,
    /// The hand in progress (not shown to auditors).
    pub current_hand: Option<String>,
}

/// Default of a table's `entropy_deadline_ms`.
pub const DEFAULT_ENTROPY_DEADLINE_MS: u64 = 30_000;

/// How long (ms) the seats asked may add client seeds to a pending shuffle before any seat
/// may deal without them.
pub fn entropy_deadline_ms(t: &TableRow) -> u64 {
    t.setup
        .get("entropy_deadline_ms")
        .and_then(Value::as_u64)
        .unwrap_or(DEFAULT_ENTROPY_DEADLINE_MS)
}

/// Whether a table collects client seeds.
pub fn client_entropy(t: &TableRow) -> bool {
    t.setup
        .get("client_entropy")
        .and_then(Value::as_bool)
        .unwrap_or(true)
}

/// Whether a table requires its players' signatures on their actions.
pub fn signatures(t: &TableRow) -> Signatures {
    match t.setup.get("signatures").and_then(Value::as_str) {
        Some("required") => Signatures::Required,
        _ => Signatures::Optional,
    }
}

/// The game's own setup of a table (its stored `setup` also holds the table's entropy
/// settings).
pub fn game_setup(t: &TableRow) -> Value {
    t.setup.get("setup").cloned().unwrap_or(Value::Null)
}

fn invalid(detail: impl Into<String>) -> ApiError {
    ApiError::new(Code::InvalidTable, detail)
}

fn setup_error(e: SetupError) -> ApiError {
    invalid(e.to_string())
}

fn match_over(game: &str, m: &Value) -> bool {
    game.parse::<GameId>()
        .ok()
        .and_then(|g| registry(g).ok())
        .and_then(|e| e.match_over(m).ok())
        .unwrap_or(false)
}

/// Whether the table's match is over: by its stored state, or because the penalty awards
/// carried after its last hand ended it (no hand can start then: `409 match_over`).
async fn table_over(svc: &Service, t: &TableRow) -> ApiResult<bool> {
    if match_over(&t.game, &t.match_state) {
        return Ok(true);
    }
    crate::disputes::carry::awards_end_match(svc, t).await
}

/// `POST /v1/tables`.
pub async fn create(
    svc: &Service,
    caller: &Caller,
    req: CreateTable,
    idem: Option<IdemCtx>,
) -> ApiResult<Reply> {
    caller.require_admin()?;
    let game: GameId = req
        .game
        .parse()
        .map_err(|e: replayer::engine::UnknownGame| invalid(e.to_string()))?;
    let engine = registry(game).map_err(setup_error)?;
    let (min, max) = engine.seats();
    let n = req.seats.len();
    if n < usize::from(min) || n > usize::from(max) {
        return Err(setup_error(SetupError::Seats {
            game,
            min,
            max,
            found: n,
        }));
    }
    let n8 = u8::try_from(n).map_err(ApiError::internal)?;
    // Validated and defaulted knowing the seat count, as the hand's first event records them.
    let rules = engine
        .normalize_rules_for(&req.rules.unwrap_or_else(|| json!({})), n8)
        .map_err(setup_error)?;
    let setup = match req.setup {
        None | Some(Value::Null) => engine.default_setup(n8).map_err(setup_error)?,
        Some(Value::Object(mut m)) => {
            match m.get("seats") {
                None => {
                    m.insert("seats".into(), json!(n8));
                }
                Some(v) if v.as_u64() == Some(u64::from(n8)) => {}
                Some(v) => {
                    return Err(invalid(format!(
                        "setup.seats is {v} but the table has {n} seats"
                    )))
                }
            }
            Value::Object(m)
        }
        Some(_) => return Err(invalid("setup must be a JSON object")),
    };
    let match_state = engine.new_match(&rules, &setup).map_err(setup_error)?;
    // A first hand must be able to start from it.
    engine.new_hand(&rules, &match_state).map_err(setup_error)?;
    for (what, v) in [
        ("rules", &rules),
        ("setup", &setup),
        ("match state", &match_state),
    ] {
        replayer::log::check_json(v).map_err(|e| invalid(format!("{what}: {e}")))?;
    }
    let mut seats = Vec::with_capacity(n);
    let mut shown = Vec::with_capacity(n);
    for (i, s) in req.seats.into_iter().enumerate() {
        let player = display_name(&s.player, MAX_PLAYER_LEN)
            .map_err(|e| ApiError::invalid_name(&format!("seats[{i}].player"), &e))?;
        let public_key = s
            .public_key
            .as_deref()
            .map(|k| {
                let k = PublicKey::from_hex(k)
                    .map_err(|e| invalid(format!("seat {i}: public_key: {e}")))?;
                crate::keys::refuse_weak(&k, &format!("seats[{i}].public_key"))?;
                Ok::<_, ApiError>(k.to_hex())
            })
            .transpose()?;
        let token = new_token(SEAT_TOKEN_PREFIX, &caller.club_id)?;
        let seat = u8::try_from(i).map_err(ApiError::internal)?;
        seats.push(SeatRow {
            seat: i16::from(seat),
            player: player.clone(),
            token_id: token.id.clone(),
            token_hash: token.hash.clone(),
            public_key: public_key.clone(),
        });
        shown.push(SeatCreated {
            seat,
            player,
            public_key,
            token: token.token,
        });
    }
    let signatures = req.signatures.unwrap_or_default();
    if signatures == Signatures::Required {
        if let Some(i) = seats.iter().position(|s| s.public_key.is_none()) {
            return Err(ApiError::new(
                Code::PublicKeyRequired,
                format!(
                    "the table requires player signatures, and seat {i} has no public_key:                      every seat registers one (replayer keygen makes a key)"
                ),
            )
            .with("field", format!("seats[{i}].public_key")));
        }
    }
    let client_entropy = req.client_entropy.unwrap_or(true);
    let deadline = req
        .entropy_deadline_ms
        .unwrap_or(DEFAULT_ENTROPY_DEADLINE_MS);
    if deadline > 86_400_000 {
        return Err(invalid(
            "entropy_deadline_ms must be at most 86400000 (a day)",
        ));
    }
    let chain = match &req.seed_chain {
        Some(c) => Some(seed_chains::generate(c.length).await?),
        None => None,
    };
    let now = i64::try_from(now_ms()).unwrap_or(i64::MAX);
    let mut stored_setup = json!({
        "setup": setup,
        "client_entropy": client_entropy,
        "entropy_deadline_ms": deadline,
    });
    if let (Signatures::Required, Some(m)) = (signatures, stored_setup.as_object_mut()) {
        m.insert("signatures".into(), json!("required"));
    }
    let table_id = random_id("t")?;
    let chain_row = chain
        .as_ref()
        .map(|c| seed_chains::row(svc, &caller.club_id, &table_id, 1, c, now))
        .transpose()?;
    let table = TableRow {
        club_id: caller.club_id.clone(),
        table_id,
        game: game.as_str().to_string(),
        rules: rules.clone(),
        setup: stored_setup,
        match_state: match_state.clone(),
        match_version: 0,
        seats,
        created_ms: now,
    };
    let reply = Reply::new(
        StatusCode::CREATED,
        TableCreated {
            table_id: table.table_id.clone(),
            game: table.game.clone(),
            rules,
            setup,
            match_state,
            client_entropy,
            signatures,
            seed_chain: chain_row.as_ref().map(|r| seed_chains::view(r, 1)),
            seats: shown,
            created_ms: now,
        },
    )?;
    let idem_row = idem
        .as_ref()
        .map(|c| c.row(&svc.seal, &reply, now))
        .transpose()?;
    match &chain_row {
        Some(c) => {
            svc.store
                .create_chained_table(&table, c, idem_row.as_ref())
                .await?
        }
        None => svc.store.create_table(&table, idem_row.as_ref()).await?,
    }
    Ok(reply)
}

async fn view(svc: &Service, caller: &Caller, t: TableRow) -> ApiResult<TableView> {
    let current_hand = if caller.role == Role::Auditor {
        None
    } else {
        svc.store
            .current_hand(&t.club_id, &t.table_id)
            .await?
            .map(|h| h.hand_id)
    };
    let seed_chain = seed_chains::current(svc, &t).await?;
    let over = table_over(svc, &t).await?;
    Ok(TableView {
        match_over: over,
        client_entropy: client_entropy(&t),
        signatures: signatures(&t),
        seed_chain,
        setup: game_setup(&t),
        seats: seat_views(&t),
        table_id: t.table_id,
        game: t.game,
        rules: t.rules,
        match_state: t.match_state,
        created_ms: t.created_ms,
        current_hand,
    })
}

fn seat_views(t: &TableRow) -> Vec<SeatView> {
    t.seats
        .iter()
        .map(|s| SeatView {
            seat: u8::try_from(s.seat).unwrap_or(u8::MAX),
            player: s.player.clone(),
            public_key: s.public_key.clone(),
        })
        .collect()
}

/// The table, if the caller may see it (404 otherwise).
pub(crate) async fn table_row(
    svc: &Service,
    caller: &Caller,
    table_id: &str,
) -> ApiResult<TableRow> {
    if !crate::plausible_id(table_id) || !caller.sees_table(table_id) {
        return Err(ApiError::not_found("table"));
    }
    svc.store
        .get_table(&caller.club_id, table_id)
        .await?
        .ok_or_else(|| ApiError::not_found("table"))
}

/// `GET /v1/tables/{table_id}`.
pub async fn get(svc: &Service, caller: &Caller, table_id: &str) -> ApiResult<TableView> {
    let t = table_row(svc, caller, table_id).await?;
    view(svc, caller, t).await
}

/// `GET /v1/tables`: the club's tables (a seat token: its own table).
pub async fn list(svc: &Service, caller: &Caller) -> ApiResult<TableList> {
    let rows = match caller.seat() {
        Some((table_id, _)) => svc
            .store
            .get_table(&caller.club_id, table_id)
            .await?
            .into_iter()
            .collect(),
        None => svc.store.list_tables(&caller.club_id).await?,
    };
    let mut tables = Vec::with_capacity(rows.len());
    for t in rows {
        tables.push(view(svc, caller, t).await?);
    }
    Ok(TableList { tables })
}

/// A match state's typed standings (the engine reads its own JSON; the service never
/// does).
fn standings_of(game: &str, m: &Value) -> Option<replayer::engine::Standings> {
    let g: GameId = game.parse().ok()?;
    registry(g).ok()?.standings(m).ok()
}

/// Each seat's `delta` in a recorded outcome, typed by the engine.
pub(crate) fn deltas_of(game: &str, outcome: &Value) -> Vec<i64> {
    game.parse::<GameId>()
        .ok()
        .and_then(|g| registry(g).ok())
        .and_then(|e| e.results(outcome).ok())
        .map(|r| r.iter().map(|x| x.delta).collect())
        .unwrap_or_default()
}

/// `GET /v1/tables/{table_id}/scoreboard`.
pub async fn scoreboard(svc: &Service, caller: &Caller, table_id: &str) -> ApiResult<Scoreboard> {
    let t = table_row(svc, caller, table_id).await?;
    let mut hands: Vec<HandSummary> = Vec::new();
    let mut current_hand = None;
    let mut filter = HandFilter {
        table_id: Some(t.table_id.clone()),
        limit: 500,
        ..HandFilter::default()
    };
    loop {
        let page = svc.store.reader().list_hands(&t.club_id, &filter).await?;
        let full = page.len() == 500;
        filter.cursor = page.last().map(|h| (h.started_ms, h.hand_id.clone()));
        for h in page {
            if h.status == HandStatus::InProgress {
                if caller.role != Role::Auditor {
                    current_hand = Some(h.hand_id.clone());
                }
            } else if hands.len() < SCOREBOARD_MAX_HANDS {
                hands.push(HandSummary::from(h));
            }
        }
        if !full || hands.len() >= SCOREBOARD_MAX_HANDS {
            break;
        }
    }
    hands.reverse();
    let typed = standings_of(&t.game, &t.match_state);
    let balances: Vec<i64> = typed
        .as_ref()
        .map(|s| s.per_seat.clone())
        .unwrap_or_default();
    let deltas: Vec<Vec<i64>> = hands
        .iter()
        .map(|h| {
            h.outcome
                .as_ref()
                .map(|o| deltas_of(&t.game, o))
                .unwrap_or_default()
        })
        .collect();
    let standings = t
        .seats
        .iter()
        .enumerate()
        .map(|(i, s)| Standing {
            seat: u8::try_from(s.seat).unwrap_or(u8::MAX),
            player: s.player.clone(),
            balance: balances.get(i).copied(),
            net_total: deltas
                .iter()
                .filter_map(|d| d.get(i).copied())
                .fold(0i64, i64::saturating_add),
        })
        .collect();
    let next_seat = typed
        .as_ref()
        .and_then(|s| s.next.as_ref())
        .map(|(_, seat)| seat.0);
    let next_role = typed
        .as_ref()
        .and_then(|s| s.next.as_ref())
        .map(|(role, _)| role.clone());
    let score_unit = typed.as_ref().map(|s| s.unit);
    let sides = typed
        .as_ref()
        .map(|s| {
            s.sides
                .iter()
                .map(|side| side.iter().map(|x| x.0).collect())
                .collect()
        })
        .unwrap_or_default();
    let count = |status: HandStatus| hands.iter().filter(|h| h.status == status.as_str()).count();
    let over = table_over(svc, &t).await?;
    Ok(Scoreboard {
        hands_played: hands.len(),
        completed: count(HandStatus::Completed),
        abandoned: count(HandStatus::Abandoned),
        quarantined: count(HandStatus::Quarantined),
        match_over: over,
        table_id: t.table_id,
        game: t.game,
        hands,
        match_state: t.match_state,
        standings,
        next_seat,
        next_role,
        score_unit,
        sides,
        current_hand,
    })
}
