//! The simulator: plays a complete hand with random legal actions through the same
//! [`LiveHand`] the service uses, and writes its signed bundle. Also renders a replay step
//! as text.

use std::fmt::Write as _;

use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::bundle::Bundle;
use crate::dealer::{DealerError, HandOptions, HandParams, HandStatus, LiveHand, SeedSource};
use crate::engine::{Actor, GameId, SeatIndex, SetupError};
use crate::games::registry;
use crate::log::{action_message, PlayerSig, PrevHand, SeatInfo, SigningKeyPair};
use crate::matches::MatchFile;
use crate::seed_chain::SeedChain;
use crate::shuffle::ClientSeed;
use crate::verify::ReplayStep;

/// Most events a simulated hand may take before it is abandoned.
pub const MAX_STEPS: usize = 20_000;

/// Why a simulation failed.
#[derive(Debug, thiserror::Error)]
pub enum SimError {
    /// The game or player count cannot be set up.
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// The dealer refused something the simulator did: a bug in an engine's legal actions.
    #[error("the simulated hand failed: {0}")]
    Dealer(#[from] DealerError),
    /// An invariant the observer checks failed (the property suite).
    #[error("event {seq}: {detail}")]
    Check {
        /// The next event's seq when the check failed.
        seq: u64,
        /// What failed.
        detail: String,
    },
}

/// Looks at the hand before every step of a simulation (the property suite's checks).
pub type Observer<'a> = &'a mut dyn FnMut(&LiveHand) -> Result<(), String>;

/// What to simulate: the game, the seats, the house rules and match set-up (any subset:
/// defaults fill the rest, validated as the service validates a new table's), and the seed.
#[derive(Clone, Debug)]
pub struct SimSpec {
    /// The game.
    pub game: GameId,
    /// How many seats.
    pub players: u8,
    /// House rules, as given (an object; `{}` for the defaults).
    pub rules: Value,
    /// The match set-up; `None` for the game's default for `players` seats.
    pub setup: Option<Value>,
    /// The first server seed; it also seeds the random players, so the same seed plays the
    /// same hands.
    pub seed: [u8; 32],
}

impl SimSpec {
    /// The defaults of `game` for `players` seats.
    pub fn new(game: GameId, players: u8, seed: [u8; 32]) -> SimSpec {
        SimSpec {
            game,
            players,
            rules: Value::Object(serde_json::Map::new()),
            setup: None,
            seed,
        }
    }
}

/// Play one complete hand of `game` for `players` seats with the default house rules and
/// random legal actions, every seat adding a client seed before each shuffle. `seed` is the
/// first server seed and seeds the random players, so the same seed plays the same hand.
pub fn simulate(
    game: GameId,
    players: u8,
    seed: [u8; 32],
    key: &SigningKeyPair,
    now_ms: u64,
) -> Result<Bundle, SimError> {
    simulate_with(&SimSpec::new(game, players, seed), key, now_ms)
}

/// Play the first hand of a match set up by `spec`.
pub fn simulate_with(
    spec: &SimSpec,
    key: &SigningKeyPair,
    now_ms: u64,
) -> Result<Bundle, SimError> {
    let m = simulate_match(spec, 1, key, now_ms)?;
    m.hands
        .into_iter()
        .next()
        .ok_or(SimError::Setup(SetupError::MatchOver))
}

/// The match state a new table starts from, from house rules and a set-up as a client gives
/// them: the rules completed with defaults and validated, the set-up validated for
/// `players` seats. The service uses the same function for a new table.
pub fn new_match_state(
    game: GameId,
    players: u8,
    rules: &Value,
    setup: Option<&Value>,
) -> Result<(Value, Value), SetupError> {
    let def = registry(game)?;
    let (min, max) = def.seats();
    if players < min || players > max {
        return Err(SetupError::Seats {
            game,
            min,
            max,
            found: usize::from(players),
        });
    }
    if !rules.is_object() {
        return Err(SetupError::Rules(
            "house rules must be a JSON object".into(),
        ));
    }
    let rules = def.normalize_rules_for(rules, players)?;
    let setup = match setup {
        Some(v) if !v.is_object() => {
            return Err(SetupError::Match(
                "the match set-up must be a JSON object".into(),
            ))
        }
        Some(v) => v.clone(),
        None => def.default_setup(players)?,
    };
    let match_state = def.new_match(&rules, &setup)?;
    let n = def.seat_count(&match_state)?;
    if n != players {
        return Err(SetupError::Match(format!(
            "the set-up is for {n} seats but {players} players were asked for"
        )));
    }
    Ok((rules, match_state))
}

/// How a simulated table deals and signs, beyond [`SimSpec`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TableOptions {
    /// Deal the match from a seed chain of this length (`docs/SHUFFLE.md` §12), made from a
    /// tail derived from the spec's seed; hand `k` takes position `k`.
    pub seed_chain: Option<u32>,
    /// Give every seat a key (derived from the spec's seed: [`simulated_player_key`]),
    /// require player signatures, and sign every seat's action.
    pub signatures_required: bool,
}

/// The key of seat `seat` in a simulation with player keys: its secret is
/// `SHA-256("persian-cards/simulated-player-key/v1" || 0x00 || seed || u8(seat))`.
pub fn simulated_player_key(seed: &[u8; 32], seat: u8) -> SigningKeyPair {
    SigningKeyPair::from_secret(
        Sha256::new()
            .chain_update(b"persian-cards/simulated-player-key/v1\0")
            .chain_update(seed)
            .chain_update([seat])
            .finalize()
            .into(),
    )
}

/// The tail of a simulated seed chain: `SHA-256("persian-cards/simulated-chain-tail/v1" ||
/// 0x00 || seed)`.
pub fn simulated_chain_tail(seed: &[u8; 32]) -> crate::seed_chain::ChainSeed {
    crate::seed_chain::ChainSeed(
        Sha256::new()
            .chain_update(b"persian-cards/simulated-chain-tail/v1\0")
            .chain_update(seed)
            .finalize()
            .into(),
    )
}

/// Play up to `hands` hands of one match (fewer if the match ends first), each hand's first
/// event linked to the one before, and write them as a match file.
pub fn simulate_match(
    spec: &SimSpec,
    hands: u32,
    key: &SigningKeyPair,
    now_ms: u64,
) -> Result<MatchFile, SimError> {
    simulate_match_with(spec, TableOptions::default(), hands, key, now_ms)
}

/// [`simulate_match`] at a table with these options.
pub fn simulate_match_with(
    spec: &SimSpec,
    options: TableOptions,
    hands: u32,
    key: &SigningKeyPair,
    now_ms: u64,
) -> Result<MatchFile, SimError> {
    let game = spec.game;
    let players = spec.players;
    let (rules, mut match_state) =
        new_match_state(game, players, &spec.rules, spec.setup.as_ref())?;
    let def = registry(game)?;
    let mut rng = ChaCha8Rng::from_seed(
        Sha256::new()
            .chain_update(b"persian-cards/simulate/v1\0")
            .chain_update(spec.seed)
            .finalize()
            .into(),
    );
    let player_keys: Vec<SigningKeyPair> = if options.signatures_required {
        (0..players)
            .map(|i| simulated_player_key(&spec.seed, i))
            .collect()
    } else {
        Vec::new()
    };
    let seats: Vec<SeatInfo> = (0..players)
        .map(|i| SeatInfo {
            seat: SeatIndex(i),
            player: format!("player-{i}"),
            public_key: player_keys.get(usize::from(i)).map(SigningKeyPair::public),
        })
        .collect();
    let chain = options
        .seed_chain
        .map(|n| SeedChain::from_tail(simulated_chain_tail(&spec.seed), n))
        .transpose()
        .map_err(|e| SimError::Setup(SetupError::Match(e.to_string())))?;
    let mut out: Vec<Bundle> = Vec::new();
    let mut prev_hand: Option<PrevHand> = None;
    for k in 0..hands {
        if def.match_over(&match_state)? {
            break;
        }
        let seed = hand_seed(&spec.seed, k);
        let digest: [u8; 32] = Sha256::digest(seed).into();
        let params = HandParams {
            hand_id: format!("sim-{}", hex::encode(&digest[..8])),
            club: "simulated".into(),
            table: "simulated".into(),
            hand_no: u64::from(k) + 1,
            game,
            rules: rules.clone(),
            match_state: match_state.clone(),
            seats: seats.clone(),
            client_entropy: true,
            prev_hand: prev_hand.take(),
        };
        let source = match &chain {
            Some(c) => SeedSource::Chain(
                c.link(k.saturating_add(1))
                    .map_err(|e| SimError::Setup(SetupError::Match(e.to_string())))?,
            ),
            None => SeedSource::Derived(seed),
        };
        let table = SimTable {
            options: HandOptions {
                signatures_required: options.signatures_required,
                ..HandOptions::default()
            },
            source,
            player_keys: &player_keys,
        };
        let (hand, records) = play_hand(params, &table, &mut rng, key, now_ms, &mut |_| Ok(()))?;
        let Some(last) = records.last() else {
            break;
        };
        prev_hand = Some(PrevHand {
            hand: hand.hand_id().to_string(),
            hash: last.hash,
        });
        if let Some(next) = hand.next_match() {
            match_state = next.clone();
        }
        out.push(Bundle::new(
            hand.hand_id(),
            game,
            hand.status(),
            vec![key.public()],
            records,
        ));
    }
    Ok(MatchFile::new("simulated", "simulated", game, out))
}

/// The server seed of a simulated match's hand `k`: the given seed for the first hand (so a
/// one-hand simulation is what it always was), then `SHA-256("persian-cards/simulated-hand/v1"
/// || 0x00 || seed || u32be(k))`.
fn hand_seed(seed: &[u8; 32], k: u32) -> [u8; 32] {
    if k == 0 {
        return *seed;
    }
    Sha256::new()
        .chain_update(b"persian-cards/simulated-hand/v1\0")
        .chain_update(seed)
        .chain_update(k.to_be_bytes())
        .finalize()
        .into()
}

/// Play one hand set up by `params` to its end with random legal actions seeded by `seed`
/// (also its first server seed), and write its bundle. For tests and tools that need a hand
/// the other functions here would not set up (a chosen match state, a chosen link).
pub fn simulate_hand(
    params: HandParams,
    seed: [u8; 32],
    key: &SigningKeyPair,
    now_ms: u64,
) -> Result<Bundle, SimError> {
    simulate_hand_observed(params, seed, key, now_ms, &mut |_| Ok(()))
}

/// [`simulate_hand`] at a table with these options, its seeds from `source` (a seed chain's
/// link, for one), each seat signing its actions with its key in `player_keys` (if any).
/// `seed` seeds the random players only.
pub fn simulate_hand_dealt(
    params: HandParams,
    options: HandOptions,
    source: SeedSource,
    player_keys: &[SigningKeyPair],
    seed: [u8; 32],
    key: &SigningKeyPair,
    now_ms: u64,
) -> Result<Bundle, SimError> {
    let game = params.game;
    let mut rng = ChaCha8Rng::from_seed(seed);
    let table = SimTable {
        options,
        source,
        player_keys,
    };
    let (hand, records) = play_hand(params, &table, &mut rng, key, now_ms, &mut |_| Ok(()))?;
    Ok(Bundle::new(
        hand.hand_id(),
        game,
        hand.status(),
        vec![key.public()],
        records,
    ))
}

/// [`simulate_hand`], with `observe` called on the hand before every step and once at the
/// end.
pub fn simulate_hand_observed(
    params: HandParams,
    seed: [u8; 32],
    key: &SigningKeyPair,
    now_ms: u64,
    observe: Observer<'_>,
) -> Result<Bundle, SimError> {
    let game = params.game;
    let mut rng = ChaCha8Rng::from_seed(seed);
    let table = SimTable {
        options: HandOptions::default(),
        source: SeedSource::Derived(seed),
        player_keys: &[],
    };
    let (hand, records) = play_hand(params, &table, &mut rng, key, now_ms, observe)?;
    Ok(Bundle::new(
        hand.hand_id(),
        game,
        hand.status(),
        vec![key.public()],
        records,
    ))
}

/// How one simulated hand is dealt and signed.
struct SimTable<'a> {
    options: HandOptions,
    source: SeedSource,
    /// Each seat's key, when the seats sign their actions.
    player_keys: &'a [SigningKeyPair],
}

/// A seat's signature over its action as the next event of `hand`.
fn sign_action(
    key: &SigningKeyPair,
    hand: &LiveHand,
    actor: Actor,
    action: &Value,
) -> Result<PlayerSig, SimError> {
    let msg = action_message(hand.hand_id(), hand.next_seq(), &hand.head(), actor, action)
        .map_err(DealerError::Log)?;
    Ok(PlayerSig {
        key_id: key.key_id(),
        sig: key.sign(&msg),
    })
}

/// Play one hand to its end with random legal actions.
fn play_hand(
    params: HandParams,
    table: &SimTable<'_>,
    rng: &mut ChaCha8Rng,
    key: &SigningKeyPair,
    now_ms: u64,
    observe: Observer<'_>,
) -> Result<(LiveHand, Vec<crate::log::Record>), SimError> {
    let (mut hand, mut records) = LiveHand::start_with_options(
        params,
        table.options.clone(),
        table.source.clone(),
        key,
        now_ms,
    )?;
    records.extend(hand.settle_after_start(key, now_ms)?);
    let mut steps = 0usize;
    let check = |hand: &LiveHand, observe: &mut dyn FnMut(&LiveHand) -> Result<(), String>| {
        observe(hand).map_err(|detail| SimError::Check {
            seq: hand.next_seq(),
            detail,
        })
    };
    while hand.status() == HandStatus::InProgress && steps < MAX_STEPS {
        steps += 1;
        check(&hand, observe)?;
        let to_act = hand.to_act();
        if to_act.shuffle.is_some() {
            let k = hand.next_shuffle();
            for seat in hand.asked_seats() {
                let given = hand
                    .client_seeds()
                    .get(usize::try_from(k).unwrap_or(usize::MAX))
                    .is_some_and(|l| l.iter().any(|(s, _)| *s == seat));
                if !given && hand.status() == HandStatus::InProgress && hand.next_shuffle() == k {
                    let mut b = vec![0u8; 16];
                    rng.fill_bytes(&mut b);
                    let cs = ClientSeed::new(b).map_err(DealerError::Seed)?;
                    records.extend(hand.contribute(seat, cs, key, now_ms)?);
                }
            }
            if hand.next_shuffle() == k {
                records.extend(hand.shuffle_now(key, now_ms)?);
            }
            continue;
        }
        let seats: Vec<Actor> = to_act
            .actors
            .iter()
            .copied()
            .filter(|a| matches!(a, Actor::Seat(_)))
            .collect();
        let actor = if seats.is_empty() {
            match to_act.actors.first() {
                Some(a) => *a,
                None => break,
            }
        } else {
            let i = usize::try_from(rng.next_u32()).unwrap_or(0) % seats.len();
            seats.get(i).copied().unwrap_or(Actor::Service)
        };
        let Some(action) = hand.random_action(actor, rng) else {
            break;
        };
        let player_sig = match actor {
            Actor::Seat(s) if hand.engine().public_part(&action).is_none() => table
                .player_keys
                .get(s.index())
                .map(|k| sign_action(k, &hand, actor, &action))
                .transpose()?,
            _ => None,
        };
        records.extend(hand.act(actor, action, player_sig, key, now_ms)?);
    }
    if hand.status() == HandStatus::InProgress {
        records.extend(hand.abandon("simulation step limit reached", key, now_ms)?);
    }
    check(&hand, observe)?;
    Ok((hand, records))
}

fn render_value(out: &mut String, v: &Value, indent: usize) {
    let pad = "  ".repeat(indent);
    match v {
        Value::Object(o) => {
            for (k, x) in o {
                match x {
                    Value::Object(inner) if !inner.is_empty() => {
                        let _ = writeln!(out, "{pad}{k}:");
                        render_value(out, x, indent + 1);
                    }
                    Value::Array(a) if a.iter().any(|e| e.is_object() || e.is_array()) => {
                        let _ = writeln!(out, "{pad}{k}:");
                        for e in a {
                            let _ = writeln!(out, "{pad}  -");
                            render_value(out, e, indent + 2);
                        }
                    }
                    _ => {
                        let _ = writeln!(out, "{pad}{k}: {}", inline(x));
                    }
                }
            }
        }
        other => {
            let _ = writeln!(out, "{pad}{}", inline(other));
        }
    }
}

fn inline(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => "-".into(),
        Value::Array(a) => a.iter().map(inline).collect::<Vec<_>>().join(" "),
        other => other.to_string(),
    }
}

/// A replay step as readable text.
pub fn render_replay(r: &ReplayStep) -> String {
    let mut out = String::new();
    let kind = r
        .event
        .get("body")
        .and_then(|b| b.get("type"))
        .and_then(Value::as_str)
        .unwrap_or("?");
    let _ = writeln!(
        out,
        "After event {} of {} ({kind}), hand {}",
        r.step,
        r.events.saturating_sub(1),
        r.status.as_str()
    );
    if let Some(a) = &r.last_action {
        let _ = writeln!(out, "Last action: {}", inline_action(a));
    }
    let waiting: Vec<String> = r.to_act.actors.iter().map(ToString::to_string).collect();
    match (&r.to_act.shuffle, waiting.is_empty()) {
        (Some(s), _) => {
            let _ = writeln!(
                out,
                "Waiting for: a committed shuffle ({}, {} cards)",
                s.reason,
                s.cards.len()
            );
        }
        (None, false) => {
            let _ = writeln!(out, "Waiting for: {}", waiting.join(", "));
        }
        (None, true) => {
            let _ = writeln!(out, "Waiting for: nobody (the hand is over)");
        }
    }
    let _ = writeln!(out, "Table:");
    render_value(&mut out, &r.table, 1);
    if let Some(p) = &r.problem {
        let _ = writeln!(out, "WARNING: the bundle does not verify up to here: {p}");
    }
    out
}

fn inline_action(a: &Value) -> String {
    let actor = match a.get("actor") {
        Some(Value::Object(o)) => o
            .get("seat")
            .map_or_else(|| "?".to_string(), |s| format!("seat {s}")),
        Some(Value::String(s)) => s.replace('_', " "),
        _ => "?".into(),
    };
    format!(
        "{actor}: {}",
        a.get("action").map_or_else(String::new, |x| x.to_string())
    )
}
