//! The test kit every engine shares (feature `testkit`, on for this crate's own tests):
//!
//! * [`Table`], a given-when-then harness for one engine with no dealer: given a match and
//!   a stacked deck, when a seat acts, expect these effects or this violation, with the
//!   core's invariants checked after every step;
//! * [`check_hand`], the property run: one whole hand played with random legal actions
//!   through the very dealer the service uses, with every invariant checked before every
//!   step (cards conserved, no view leaks a face, the legal families are exactly what
//!   `decide` accepts, the hand can always go on), then the bundle verified and its replay
//!   compared with the live hand. Every engine keeps its cards in the core's zones, so the
//!   first two hold for every game; [`Checked::hidden`] says whether they had anything to
//!   check (a hand whose bank everyone declines deals no card).
//!   `replayer/tests/every_game.rs` runs it for every registered game, player count and
//!   sampled house rules.

use serde_json::Value;

use crate::bundle::Bundle;
use crate::cards::Card;
use crate::dealer::{HandParams, HandStatus, LiveHand};
use crate::engine::{
    apply, apply_shuffle, check_legal_of, leak_of, Actor, Game, GameId, SeatIndex, Viewer,
};
use crate::games::registry;
use crate::log::{SeatInfo, SigningKeyPair};
use crate::sim::{new_match_state, simulate_hand_observed, SimSpec};
use crate::verify::{replay_bytes, verify_value, Options};

/// A deck with `top` first (in that order) and the rest of `deck` after, in its order: the
/// stacked deck of a worked example. Panics if a card of `top` is not in `deck`.
pub fn stack(deck: &[Card], top: &[Card]) -> Vec<Card> {
    let mut rest = deck.to_vec();
    for c in top {
        let i = rest
            .iter()
            .position(|d| d == c)
            .unwrap_or_else(|| panic!("{c} is not in the deck (or is stacked twice)"));
        rest.remove(i);
    }
    let mut v = top.to_vec();
    v.extend(rest);
    v
}

/// Cards from their codes: `cards("AS 10D QH")`.
pub fn cards(codes: &str) -> Vec<Card> {
    codes
        .split_whitespace()
        .map(|c| c.parse().unwrap_or_else(|e| panic!("{e}")))
        .collect()
}

/// One engine's hand under test, with no dealer: shuffles are given as orders.
pub struct Table<G: Game> {
    /// The state.
    pub state: G::State,
    /// Every effect so far, in order.
    pub log: Vec<G::Effect>,
    shuffles: u32,
    seats: u8,
}

impl<G: Game> Table<G>
where
    G::State: Send + Sync,
{
    /// Given these house rules and this set-up: the match's first hand.
    pub fn new(rules: &G::Rules, setup: &G::Setup) -> Table<G> {
        let m = G::new_match(rules, setup).unwrap_or_else(|e| panic!("set-up: {e}"));
        Table::from_match(rules, &m)
    }

    /// Given this match state: its next hand.
    pub fn from_match(rules: &G::Rules, m: &G::Match) -> Table<G> {
        let state = G::new_hand(rules, m).unwrap_or_else(|e| panic!("new hand: {e}"));
        let t = Table {
            state,
            log: Vec::new(),
            shuffles: 0,
            seats: G::seat_count(m),
        };
        t.check();
        t
    }

    /// When the pending shuffle comes out in `order` (top first). Panics if no shuffle is
    /// pending or `order` is not a permutation of the cards asked for.
    pub fn shuffle(&mut self, order: &[Card]) -> Vec<G::Effect> {
        let req = G::to_act(&self.state)
            .shuffle
            .unwrap_or_else(|| panic!("no shuffle is pending"));
        let mut want = req.cards.clone();
        let mut got = order.to_vec();
        want.sort();
        got.sort();
        assert_eq!(
            got,
            want,
            "the order is not a permutation of the {} cards the {} shuffle asks for",
            req.cards.len(),
            req.reason
        );
        let k = self.shuffles;
        let effects = apply_shuffle::<G>(&mut self.state, k, order)
            .unwrap_or_else(|v| panic!("shuffle {k} refused: {v}"));
        self.shuffles += 1;
        self.log.extend(effects.iter().cloned());
        self.check();
        effects
    }

    /// When the pending shuffle comes out with `top` first and the rest in canonical order.
    pub fn shuffle_top(&mut self, top: &[Card]) -> Vec<G::Effect> {
        let req = G::to_act(&self.state)
            .shuffle
            .unwrap_or_else(|| panic!("no shuffle is pending"));
        let order = stack(&req.cards, top);
        self.shuffle(&order)
    }

    /// When `actor` does `action`: the effects. Panics with the violation if refused.
    pub fn act(&mut self, actor: Actor, action: G::Action) -> Vec<G::Effect> {
        let effects = apply::<G>(&mut self.state, actor, &action)
            .unwrap_or_else(|v| panic!("{actor} {action:?} refused: {v}"));
        self.log.extend(effects.iter().cloned());
        self.check();
        effects
    }

    /// When `actor` does `action`: expect the violation `rule`, and the hand unchanged.
    pub fn reject(&mut self, actor: Actor, action: G::Action, rule: &str) {
        let before = self.view(Viewer::All);
        match G::decide(&self.state, actor, &action) {
            Ok(e) => panic!("{actor} {action:?} was accepted ({e:?}), expected {rule}"),
            Err(v) => assert_eq!(v.rule, rule, "{actor} {action:?}: {v}"),
        }
        assert_eq!(
            self.view(Viewer::All),
            before,
            "a refused action changed the hand"
        );
    }

    /// What `viewer` sees, as JSON.
    pub fn view(&self, viewer: Viewer) -> Value {
        serde_json::to_value(G::view(&self.state, viewer)).unwrap_or(Value::Null)
    }

    /// The core's invariants, now: cards conserved, no view leaks, legal families agree
    /// with `decide`.
    pub fn check(&self) {
        if let Err(e) = G::zones(&self.state).check() {
            panic!("cards not conserved: {e}");
        }
        let mut viewers: Vec<Viewer> = (0..self.seats)
            .map(|s| Viewer::Seat(SeatIndex(s)))
            .collect();
        viewers.push(Viewer::Public);
        for v in viewers {
            for seed in [1u64, 7, 1234] {
                if let Some(leak) = leak_of::<G>(&self.state, v, seed) {
                    panic!("{leak}");
                }
            }
        }
        let mut rng =
            rand_chacha::ChaCha8Rng::seed_from_u64(u64::try_from(self.log.len()).unwrap_or(0));
        for a in G::to_act(&self.state).actors {
            if let Err(e) = check_legal_of::<G>(&self.state, a, &mut rng) {
                panic!("{e}");
            }
        }
    }
}

use rand_chacha::rand_core::SeedableRng;

/// What a checked hand came to.
#[derive(Debug)]
pub struct Checked {
    /// The hand's bundle (verified).
    pub bundle: Bundle,
    /// Steps checked.
    pub steps: usize,
    /// The most cards hidden from the public at one step (faces the no-leak check
    /// scrambled): 0 if no card was ever dealt.
    pub hidden: usize,
}

/// The property run for one hand (see the module docs). `Err` names the first failure.
pub fn check_hand(spec: &SimSpec, key: &SigningKeyPair) -> Result<Checked, String> {
    let (rules, match_state) =
        new_match_state(spec.game, spec.players, &spec.rules, spec.setup.as_ref())
            .map_err(|e| e.to_string())?;
    let params = HandParams {
        hand_id: format!("checked-{}", hex::encode(&spec.seed[..6])),
        club: "checked".into(),
        table: "checked".into(),
        hand_no: 1,
        game: spec.game,
        rules,
        match_state,
        seats: (0..spec.players)
            .map(|i| SeatInfo {
                seat: SeatIndex(i),
                player: format!("p{i}"),
                public_key: None,
            })
            .collect(),
        client_entropy: true,
        prev_hand: None,
    };
    let mut steps = 0usize;
    let mut hidden = 0usize;
    let players = spec.players;
    let mut rng = rand_chacha::ChaCha8Rng::from_seed(spec.seed);
    let mut live_table = Value::Null;
    let mut pool: Vec<Value> = Vec::new();
    let mut observe = |hand: &LiveHand| -> Result<(), String> {
        steps += 1;
        live_table = hand.view(Viewer::All);
        let now = hand
            .engine()
            .zones()
            .iter()
            .filter(|(_, p)| !p.seen.is_public())
            .count();
        hidden = hidden.max(now);
        step_invariants(
            hand,
            players,
            u64::try_from(steps).unwrap_or(0),
            &mut rng,
            &mut pool,
        )
    };
    let bundle = simulate_hand_observed(params, spec.seed, key, 0, &mut observe)
        .map_err(|e| e.to_string())?;
    let value = serde_json::to_value(&bundle).map_err(|e| e.to_string())?;
    let opts = Options {
        trusted_keys: vec![key.public()],
    };
    let verdict = verify_value(value.clone(), &opts).map_err(|e| e.to_string())?;
    if !verdict.valid {
        return Err(format!("the hand does not verify: {:?}", verdict.problem));
    }
    if bundle.status != HandStatus::Completed {
        return Err(format!(
            "the hand did not finish by random legal play ({})",
            bundle.status.as_str()
        ));
    }
    // Replay equals live play: the replayed final table is what the live hand showed.
    let bytes = serde_json::to_vec(&value).map_err(|e| e.to_string())?;
    let replay = replay_bytes(&bytes, None, &opts).map_err(|e| e.to_string())?;
    if replay.table != live_table {
        return Err("the replayed table differs from the live hand's".into());
    }
    Ok(Checked {
        bundle,
        steps,
        hidden,
    })
}

/// Most probe actions kept (the oldest make way).
const POOL: usize = 64;

fn step_invariants(
    hand: &LiveHand,
    players: u8,
    seed: u64,
    rng: &mut rand_chacha::ChaCha8Rng,
    pool: &mut Vec<Value>,
) -> Result<(), String> {
    let engine = hand.engine();
    engine.zones().check().map_err(|e| e.to_string())?;
    // The public's view at every step, and one seat's in turn (every seat's over a hand).
    let seat = u8::try_from(seed % u64::from(players.max(1))).unwrap_or(0);
    for v in [Viewer::Public, Viewer::Seat(SeatIndex(seat))] {
        if let Some(l) = engine.leak(v, seed) {
            return Err(l);
        }
    }
    if hand.status() != HandStatus::InProgress {
        return Ok(());
    }
    let to_act = hand.to_act();
    let mut everyone: Vec<Actor> = (0..players).map(|s| Actor::Seat(SeatIndex(s))).collect();
    everyone.push(Actor::Service);
    let mut anyone = false;
    for a in everyone {
        let legal = hand.legal_actions(a);
        if to_act.shuffle.is_some() && !legal.is_empty() {
            return Err(format!("{a} has legal actions while a shuffle is pending"));
        }
        if !legal.is_empty() && !to_act.actors.contains(&a) {
            return Err(format!(
                "{a} has legal actions but is not among those to act"
            ));
        }
        if to_act.actors.contains(&a) && legal.is_empty() {
            return Err(format!("{a} is to act but has no legal action"));
        }
        anyone |= !legal.is_empty();
        engine.check_legal(a, rng)?;
        // Every family as served over JSON can be read back and sampled (what a client or
        // the end-to-end suite does through the registry).
        let def = registry(hand.game()).map_err(|e| e.to_string())?;
        for family in &legal {
            if def.sample_legal(family, rng).is_none() {
                return Err(format!(
                    "{a}: the legal family {family} cannot be read back"
                ));
            }
        }
        for x in engine.samples(a, rng) {
            if !pool.contains(&x) {
                if pool.len() >= POOL {
                    pool.remove(0);
                }
                pool.push(x);
            }
        }
    }
    // decide accepts nothing beyond the legal families: every action seen in the hand so
    // far (stale ones, other seats' ones) is tried for every actor.
    for s in 0..players {
        engine.check_only_legal(Actor::Seat(SeatIndex(s)), pool)?;
    }
    engine.check_only_legal(Actor::Service, pool)?;
    if to_act.shuffle.is_none() && !anyone {
        return Err("the hand waits for nobody and nothing but is not over".into());
    }
    Ok(())
}

/// Every registered game with every player count it allows.
pub fn every_game() -> Vec<(GameId, u8)> {
    GameId::ALL
        .into_iter()
        .filter_map(|g| registry(g).ok().map(|d| (g, d.seat_counts())))
        .flat_map(|(g, counts)| counts.into_iter().map(move |n| (g, n)))
        .collect()
}
