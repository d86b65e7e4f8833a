//! Matches as chains of hands, and the match file that carries one (`docs/BUNDLE.md`,
//! "Match files"; JSON Schema `docs/match-v1.schema.json`).
//!
//! Every hand of a match but the first names, in its first event, the previous hand and the
//! hash of that hand's last event (`prev_hand`), and starts from the match state that hand's
//! verified end gives: the `next_match` of its `hand_ended`, or, for a hand abandoned before
//! its end, the match state it started from. A match file holds all hands of one match in
//! order; [`verify_match_value`] verifies each hand's bundle and then the links, and names
//! the first break: a missing, reordered or edited hand, or a match state that does not
//! follow.
//!
//! A hand whose stored log no longer verifies may be quarantined by the service: it has no
//! bundle that verifies, so it cannot be a link of the chain. A match file of version 2
//! lists such hands under `quarantined` (number, id, the service's recorded reason); the
//! chain skips them: their numbers are accounted for, and the next hand names the last
//! hand before them and starts from the match state that hand left, exactly as if the
//! quarantined hands had never been dealt. A file with no quarantined hand is version 1.
//!
//! A club official's penalty ruling on a finished hand counts in the match: the next hand
//! to start carries it (`hand_started`'s `adjustments`) and starts from the state the hand
//! before left with the award applied by the game's engine. A match file whose hands carry
//! rulings is version 3: it holds the signed ruling entries they name (`rulings`, with the
//! keys that signed them) and those carried after its last hand (`trailing_adjustments`),
//! and rule 7 checks each ruling: its entry, both signatures, the hand it rules
//! on, that no dispute's award counts twice, and the award recomputed by the engine.
//!
//! ```json
//! { "format": "persian-cards/match", "version": 1,
//!   "club": "…", "table": "…", "game": "hokm",
//!   "hands": [ { hand bundle }, { hand bundle }, … ] }
//! ```

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::bundle::{Bundle, BundleKey};
use crate::dealer::HandStatus;
use crate::dispute::{
    entry_signature_message, hash_entry, official_signed, Decision, EntryBody, EntryRecord,
};
use crate::engine::{Award, DynGame, GameId};
use crate::log::{Adjustment, Body, Hash, PublicKey, Record};
use crate::seed_chain::{ChainSeed, SeedChainRef};
use crate::verify::{self, BundleError, Options, Problem, Trust, Verdict};

/// The `format` field of every match file.
pub const MATCH_FORMAT: &str = "persian-cards/match";
/// The match file format version: 1, or 2 when the file lists quarantined hands, or 3 when
/// its hands carry penalty rulings.
pub const MATCH_VERSION: u32 = 1;
/// The version of a match file that lists quarantined hands.
pub const MATCH_VERSION_QUARANTINE: u32 = 2;
/// The version of a match file whose hands carry penalty rulings into the match
/// (`hand_started`'s `adjustments`): it holds the signed ruling entries they name.
pub const MATCH_VERSION_ADJUSTED: u32 = 3;

/// A hand of the match that the service quarantined: its stored log does not verify, so it
/// is not in the file as a bundle. What is said here is the service's word, unsigned: the
/// verifier only checks that the chain accounts for the hand's number.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QuarantinedHand {
    /// The hand's id.
    pub hand: String,
    /// Its number in the match.
    pub hand_no: u64,
    /// Why it was quarantined, as the club's admin recorded it.
    pub reason: String,
    /// When (unix milliseconds).
    pub quarantined_ms: u64,
    /// The event at which its stored log failed verification when it was quarantined.
    pub seq: u64,
    /// The check that failed there.
    pub rule: String,
}

/// All hands of one match, in order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MatchFile {
    /// Always [`MATCH_FORMAT`].
    pub format: String,
    /// [`MATCH_VERSION`], [`MATCH_VERSION_QUARANTINE`] when `quarantined` is not empty, or
    /// [`MATCH_VERSION_ADJUSTED`] when the file carries rulings.
    pub version: u32,
    /// The club.
    pub club: String,
    /// The table whose match this is.
    pub table: String,
    /// The game.
    pub game: GameId,
    /// Every hand, first to last, each a hand bundle; quarantined hands left out.
    pub hands: Vec<Bundle>,
    /// The quarantined hands, by number (version 2, and version 3 when there are any).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub quarantined: Vec<QuarantinedHand>,
    /// The signed dispute entries of the penalty rulings the match carries (version 3):
    /// every entry an adjustment names, each once.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rulings: Vec<EntryRecord>,
    /// The service keys that signed `rulings` (version 3).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ruling_keys: Vec<BundleKey>,
    /// The penalty rulings carried into the match after its last hand, in order (version
    /// 3): those the next hand will start with, or those that ended the match.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub trailing_adjustments: Vec<Adjustment>,
}

impl MatchFile {
    /// A match file of these hands.
    pub fn new(club: &str, table: &str, game: GameId, hands: Vec<Bundle>) -> MatchFile {
        MatchFile {
            format: MATCH_FORMAT.to_string(),
            version: MATCH_VERSION,
            club: club.to_string(),
            table: table.to_string(),
            game,
            hands,
            quarantined: Vec::new(),
            rulings: Vec::new(),
            ruling_keys: Vec::new(),
            trailing_adjustments: Vec::new(),
        }
    }

    /// The same file listing these quarantined hands (version 2 when there are any).
    pub fn with_quarantined(mut self, mut quarantined: Vec<QuarantinedHand>) -> MatchFile {
        quarantined.sort_by_key(|q| q.hand_no);
        self.quarantined = quarantined;
        self.set_version();
        self
    }

    /// The same file carrying these signed ruling entries (signed by `keys`) and the
    /// adjustments after its last hand (version 3 when there are any rulings).
    pub fn with_rulings(
        mut self,
        rulings: Vec<EntryRecord>,
        keys: Vec<PublicKey>,
        trailing: Vec<Adjustment>,
    ) -> MatchFile {
        self.rulings = rulings;
        self.ruling_keys = keys
            .into_iter()
            .map(|k| BundleKey {
                key_id: k.key_id(),
                public_key: k,
            })
            .collect();
        self.trailing_adjustments = trailing;
        self.set_version();
        self
    }

    fn set_version(&mut self) {
        self.version = if !self.rulings.is_empty() || !self.trailing_adjustments.is_empty() {
            MATCH_VERSION_ADJUSTED
        } else if !self.quarantined.is_empty() {
            MATCH_VERSION_QUARANTINE
        } else {
            MATCH_VERSION
        };
    }
}

/// The first break in a match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MatchProblem {
    /// The hand's position in the file, from 0.
    pub index: usize,
    /// The hand's id, as its bundle says.
    pub hand: String,
    /// The problem inside the hand's own bundle, when the hand itself does not verify.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub in_hand: Option<Problem>,
    /// The check that fails: `hand` (the bundle does not verify), `match_header`,
    /// `hand_no`, `prev_hand`, `match_state`, `same_match` (club, table, game, rules or
    /// seats differ), `after_match_over`, `quarantined` (the list of quarantined hands
    /// names a hand twice, or a hand the file also holds as a bundle), and for the
    /// penalty rulings a hand carries (`docs/BUNDLE.md` §8, rule 7): `adjustment_entry`,
    /// `adjustment_signature`, `adjustment_official`, `adjustment_hand`,
    /// `adjustment_twice`, `adjustment_award`.
    pub rule: String,
    /// What was expected.
    pub expected: String,
    /// What was found.
    pub found: String,
}

impl std::fmt::Display for MatchProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "hand {} ({}): ", self.index, self.hand)?;
        match &self.in_hand {
            Some(p) => write!(f, "{p}"),
            None => write!(
                f,
                "{}: expected {}, found {}",
                self.rule, self.expected, self.found
            ),
        }
    }
}

/// The verdict on a match file.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MatchVerdict {
    /// Whether every hand verifies and every link holds.
    pub valid: bool,
    /// The table.
    pub table: String,
    /// The game.
    pub game: GameId,
    /// How many hands the file holds.
    pub hands: usize,
    /// How far the signatures can be trusted.
    pub trust: Trust,
    /// The match state after the last hand, when every hand verified.
    pub match_state: Option<Value>,
    /// Each hand's own verdict, in order (up to the first break).
    pub verdicts: Vec<Verdict>,
    /// The first break, when not valid.
    pub problem: Option<MatchProblem>,
    /// The hands the file lists as quarantined: not verified, skipped by the chain.
    pub quarantined: Vec<QuarantinedHand>,
    /// The penalty rulings carried into the match, in the order applied, each with the
    /// hand that applied it (checked, up to the first break).
    pub adjustments: Vec<AppliedAdjustment>,
}

/// A penalty ruling the match carries, as verified.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AppliedAdjustment {
    /// The hand whose `hand_started` applies it; `None` for one after the last hand.
    pub applied_by: Option<String>,
    /// The hand the ruling is on.
    pub ruled_hand: String,
    /// The dispute.
    pub dispute: String,
    /// The ruling entry's seq and hash.
    pub seq: u64,
    /// The ruling entry's hash.
    pub hash: Hash,
    /// The award.
    pub award: Award,
}

/// What a verified hand says about its match.
#[derive(Clone)]
struct Link {
    hand: String,
    hand_no: u64,
    club: String,
    table: String,
    game: GameId,
    rules: Value,
    seats: Value,
    starts_from: Value,
    prev: Option<(String, Hash)>,
    last_hash: Hash,
    /// The match state the next hand must start from.
    leaves: Value,
    /// The seed chain it is dealt from and its revealed chain seed.
    chain: Option<(SeedChainRef, ChainSeed)>,
    /// The penalty rulings carried into the match before it.
    adjustments: Vec<Adjustment>,
}

fn link_of(records: &[Record], status: HandStatus) -> Option<Link> {
    let first = records.first()?;
    let last = records.last()?;
    let Body::HandStarted {
        club,
        table,
        hand_no,
        game,
        rules,
        match_state,
        seats,
        prev_hand,
        seed_chain,
        adjustments,
        ..
    } = &first.event.body
    else {
        return None;
    };
    let chain = match (seed_chain, &last.event.body) {
        (
            Some(h),
            Body::SeedsRevealed {
                chain_seed: Some(c),
                ..
            },
        ) => Some((*h, *c)),
        _ => None,
    };
    let leaves = match status {
        HandStatus::Completed => records.iter().find_map(|r| match &r.event.body {
            Body::HandEnded { next_match, .. } => Some(next_match.clone()),
            _ => None,
        })?,
        _ => match_state.clone(),
    };
    Some(Link {
        hand: first.event.hand.clone(),
        hand_no: *hand_no,
        club: club.clone(),
        table: table.clone(),
        game: *game,
        rules: rules.clone(),
        seats: serde_json::to_value(seats).ok()?,
        starts_from: match_state.clone(),
        prev: prev_hand.as_ref().map(|p| (p.hand.clone(), p.hash)),
        last_hash: last.hash,
        leaves,
        chain,
        adjustments: adjustments.clone(),
    })
}

/// The seed chain from the hand before (`before`, in the file) to this one
/// (`docs/BUNDLE.md` §8, rule 8). Every hand of a table takes the next position of its
/// chain, quarantined hands included, so positions advance with hand numbers:
///
/// * on the same chain as the hand before (same anchor and length), the position is the one
///   before plus the difference in hand numbers `d` (`seed_chain`), and the chain seed hashes
///   down to the one before in `d` steps (`seed_chain_link`);
/// * where a chain starts in the file (the first hand, or a new chain), the chain seed
///   hashes down to the anchor (`seed_chain_anchor`: `position` hashes). A new chain follows
///   only a chain that is used up: the hands between take the old chain's last positions
///   and then the new chain's first ones (`seed_chain`). The first hand of the file is at
///   the position its number says;
/// * a hand after a chained hand is chained too, and a chain does not begin after a hand
///   without one (`seed_chain`): a table commits to its chain from its first hand.
fn chain_link(before: Option<&Link>, link: &Link) -> Result<(), (&'static str, String, String)> {
    let before_chain = before.and_then(|b| b.chain.as_ref());
    let Some((h, c)) = &link.chain else {
        return match before_chain {
            Some(_) => Err((
                "seed_chain",
                "a hand dealt from the table's seed chain, as the hand before was".into(),
                "a hand without one".into(),
            )),
            None => Ok(()),
        };
    };
    let position = u64::from(h.position);
    let anchored = |c: &ChainSeed| {
        if h.anchors(c) {
            Ok(())
        } else {
            Err((
                "seed_chain_anchor",
                format!(
                    "a chain seed that hashes down to the anchor {} in {} steps",
                    h.anchor, h.position
                ),
                format!("one that gives {}", c.anchor(h.position)),
            ))
        }
    };
    let Some(b) = before else {
        if position != link.hand_no {
            return Err((
                "seed_chain",
                format!(
                    "position {} (hand {} of the match)",
                    link.hand_no, link.hand_no
                ),
                format!("position {position}"),
            ));
        }
        return anchored(c);
    };
    let d = link.hand_no.saturating_sub(b.hand_no);
    match before_chain {
        None => Err((
            "seed_chain",
            "no seed chain (the hand before has none: a table commits to its chain from its              first hand)"
                .into(),
            format!("a chain at position {position}"),
        )),
        Some((bh, bc)) if bh.anchor == h.anchor && bh.length == h.length => {
            let want = u64::from(bh.position).saturating_add(d);
            if position != want {
                return Err((
                    "seed_chain",
                    format!("position {want} of the chain"),
                    format!("position {position}"),
                ));
            }
            let steps = u32::try_from(d).unwrap_or(u32::MAX);
            match c.back(h.position, steps) {
                Some(down) if down == *bc => Ok(()),
                _ => Err((
                    "seed_chain_link",
                    format!(
                        "a chain seed that hashes down in {d} step(s) to hand {}'s chain seed",
                        b.hand
                    ),
                    "one that does not".into(),
                )),
            }
        }
        Some((bh, _)) => {
            // d − 1 hands between: the old chain's remaining positions, then the new one's
            // positions before this hand's.
            let left = u64::from(bh.length.saturating_sub(bh.position));
            if left.saturating_add(position) != d {
                return Err((
                    "seed_chain",
                    format!(
                        "a new chain only after the chain before is used up ({left} position(s)                          of it left before this hand)"
                    ),
                    format!("a new chain at position {position}, {d} hand(s) on"),
                ));
            }
            anchored(c)
        }
    }
}

/// What the checks of a carried penalty ruling need from the whole file.
struct Carry<'a> {
    club: &'a str,
    engine: &'static dyn DynGame,
    /// The file's ruling entries, by the hash they claim.
    rulings: &'a [EntryRecord],
    /// The keys a ruling entry's service signature may be checked against: the trusted
    /// keys when given, else the file's own (its `ruling_keys` and the hands' keys).
    keys: Vec<PublicKey>,
    trusted: bool,
}

type Break = (&'static str, String, String);

impl Carry<'_> {
    /// Rule 7 for one adjustment carried into `state` before the hand (or the end of the
    /// file) whose house rules are `rules`: its entry is in the file under the hash
    /// named, signed by the service and by its official, a penalty ruling on an earlier
    /// hand `earlier` holds, of a dispute not carried before (`carried`), with the award
    /// the game's rules make of it. The match state after it.
    fn apply(
        &self,
        adj: &Adjustment,
        earlier: &[Link],
        carried: &mut std::collections::BTreeSet<String>,
        rules: &Value,
        state: &Value,
    ) -> Result<(Value, String), Break> {
        let named = format!("dispute {} entry {} ({})", adj.dispute, adj.seq, adj.hash);
        let Some(r) = self.rulings.iter().find(|r| r.hash == adj.hash) else {
            return Err((
                "adjustment_entry",
                format!("the signed ruling entry {named} among the file's rulings"),
                "no entry with that hash".into(),
            ));
        };
        let e = &r.entry;
        if hash_entry(e).ok() != Some(r.hash)
            || e.dispute != adj.dispute
            || e.seq != adj.seq
            || e.club != self.club
        {
            return Err((
                "adjustment_entry",
                format!("entry {named} of club {}, hashing to its hash", self.club),
                format!(
                    "dispute {} entry {} of club {} hashing to {}",
                    e.dispute,
                    e.seq,
                    e.club,
                    hash_entry(e).map_or_else(|_| "nothing".into(), |h| h.to_hex())
                ),
            ));
        }
        let key = self
            .keys
            .iter()
            .find(|k| k.key_id() == r.signer)
            .filter(|k| k.verify(&entry_signature_message(&r.hash), &r.sig));
        if key.is_none() {
            let whose = if self.trusted {
                "a trusted key"
            } else {
                "one of the file's keys"
            };
            return Err((
                "adjustment_signature",
                format!("entry {named} signed by {whose}"),
                format!("a signature by {} that does not verify so", r.signer),
            ));
        }
        let EntryBody::Ruling {
            decision,
            penalty,
            award,
            official,
            ..
        } = &e.body
        else {
            return Err((
                "adjustment_official",
                format!("entry {named} a ruling"),
                format!("an entry of type {}", e.body.kind()),
            ));
        };
        if !official_signed(e) {
            return Err((
                "adjustment_official",
                format!(
                    "entry {named} signed by its official {} over the ruling message",
                    official.public_key.key_id()
                ),
                "a signature that does not verify".into(),
            ));
        }
        let Some(ruled) = earlier.iter().find(|l| l.hand == e.hand) else {
            return Err((
                "adjustment_hand",
                format!("entry {named} ruling on an earlier hand of this match"),
                format!("a ruling on hand {}", e.hand),
            ));
        };
        if carried.contains(&e.dispute) {
            return Err((
                "adjustment_twice",
                format!("dispute {}'s award carried into the match once", e.dispute),
                format!("entry {} of it carried again", e.seq),
            ));
        }
        let (Decision::Penalty, Some(p), Some(recorded)) = (decision, penalty, award) else {
            return Err((
                "adjustment_award",
                format!("entry {named} a penalty ruling with its award"),
                format!("a ruling whose decision is {}", decision.as_str()),
            ));
        };
        let recomputed = self.engine.penalty(&ruled.rules, &ruled.leaves, p);
        let agrees = recomputed.as_ref().ok() == Some(recorded) && *recorded == adj.award;
        if !agrees {
            return Err((
                "adjustment_award",
                match &recomputed {
                    Ok(a) => format!(
                        "the award the rules make of the penalty against the match hand {} \
                         left: {}",
                        ruled.hand,
                        serde_json::to_string(a).unwrap_or_default()
                    ),
                    Err(v) => format!("a penalty the rules give ({v})"),
                },
                format!(
                    "{} in the entry, {} in the hand",
                    serde_json::to_string(recorded).unwrap_or_default(),
                    serde_json::to_string(&adj.award).unwrap_or_default()
                ),
            ));
        }
        if self.engine.match_over(state).unwrap_or(false) {
            return Err((
                "after_match_over",
                "no award carried into a match that is over".into(),
                format!("entry {named} carried after the match ended"),
            ));
        }
        let after = self
            .engine
            .apply_award(rules, state, &adj.award)
            .map_err(|v| {
                (
                    "adjustment_award",
                    "an award the rules carry into the match".into(),
                    v.to_string(),
                )
            })?;
        carried.insert(e.dispute.clone());
        Ok((after, e.hand.clone()))
    }
}

/// Verify a match file given as bytes (duplicate keys refused, as for a bundle).
pub fn verify_match_bytes(bytes: &[u8], opts: &Options) -> Result<MatchVerdict, BundleError> {
    verify_match_value(verify::parse_strict(bytes)?, opts)
}

/// Whether a JSON document is a match file (by its `format`), rather than a hand bundle.
pub fn is_match_file(v: &Value) -> bool {
    v.get("format").and_then(Value::as_str) == Some(MATCH_FORMAT)
}

/// Verify a match file given as JSON.
pub fn verify_match_value(value: Value, opts: &Options) -> Result<MatchVerdict, BundleError> {
    let obj = value
        .as_object()
        .ok_or_else(|| BundleError::Shape("a match file is a JSON object".into()))?;
    let format = obj.get("format").and_then(Value::as_str).unwrap_or("");
    let version = obj.get("version").and_then(Value::as_u64);
    let known = [
        MATCH_VERSION,
        MATCH_VERSION_QUARANTINE,
        MATCH_VERSION_ADJUSTED,
    ]
    .map(u64::from);
    if format != MATCH_FORMAT || !version.is_some_and(|v| known.contains(&v)) {
        return Err(BundleError::Shape(format!(
            "not a match file of format {MATCH_FORMAT:?} version {MATCH_VERSION}, \
             {MATCH_VERSION_QUARANTINE} or {MATCH_VERSION_ADJUSTED}"
        )));
    }
    let v2 = version == Some(u64::from(MATCH_VERSION_QUARANTINE));
    let v3 = version == Some(u64::from(MATCH_VERSION_ADJUSTED));
    for k in obj.keys() {
        let fields: &[&str] = if v3 {
            &[
                "format",
                "version",
                "club",
                "table",
                "game",
                "hands",
                "quarantined",
                "rulings",
                "ruling_keys",
                "trailing_adjustments",
            ]
        } else if v2 {
            &[
                "format",
                "version",
                "club",
                "table",
                "game",
                "hands",
                "quarantined",
            ]
        } else {
            &["format", "version", "club", "table", "game", "hands"]
        };
        if !fields.contains(&k.as_str()) {
            return Err(BundleError::Shape(format!(
                "unknown field {:?} in a match file",
                k.chars().take(40).collect::<String>()
            )));
        }
    }
    let text = |k: &str| -> Result<String, BundleError> {
        obj.get(k)
            .and_then(Value::as_str)
            .map(str::to_string)
            .ok_or_else(|| BundleError::Shape(format!("{k} must be a string")))
    };
    let club = text("club")?;
    let table = text("table")?;
    let game: GameId = text("game")?
        .parse()
        .map_err(|e: crate::engine::UnknownGame| BundleError::Shape(e.to_string()))?;
    let hands = obj
        .get("hands")
        .and_then(Value::as_array)
        .ok_or_else(|| BundleError::Shape("hands must be an array of hand bundles".into()))?;
    if hands.is_empty() {
        return Err(BundleError::Empty);
    }
    let quarantined: Vec<QuarantinedHand> = match obj.get("quarantined") {
        None if v2 => {
            return Err(BundleError::Shape(
                "a match file of version 2 lists its quarantined hands".into(),
            ))
        }
        None => Vec::new(),
        Some(q) => serde_json::from_value(q.clone()).map_err(|e| {
            BundleError::Shape(format!("quarantined must list quarantined hands: {e}"))
        })?,
    };
    if v2 && quarantined.is_empty() {
        return Err(BundleError::Shape(
            "a match file of version 2 lists at least one quarantined hand".into(),
        ));
    }
    let member = |k: &str, what: &str| -> Result<Value, BundleError> {
        match obj.get(k) {
            None => Ok(Value::Array(Vec::new())),
            Some(v @ Value::Array(_)) => Ok(v.clone()),
            Some(_) => Err(BundleError::Shape(format!(
                "{k} must be an array of {what}"
            ))),
        }
    };
    let rulings: Vec<EntryRecord> =
        serde_json::from_value(member("rulings", "entries")?).map_err(|e| {
            BundleError::Shape(format!("rulings must list signed dispute entries: {e}"))
        })?;
    let ruling_keys: Vec<BundleKey> = serde_json::from_value(member("ruling_keys", "keys")?)
        .map_err(|e| BundleError::Shape(format!("ruling_keys must list keys: {e}")))?;
    let trailing: Vec<Adjustment> =
        serde_json::from_value(member("trailing_adjustments", "adjustments")?).map_err(|e| {
            BundleError::Shape(format!("trailing_adjustments must list adjustments: {e}"))
        })?;
    if ruling_keys
        .iter()
        .any(|k| k.key_id != k.public_key.key_id())
    {
        return Err(BundleError::Shape(
            "a key of ruling_keys has another key's id".into(),
        ));
    }
    let engine = crate::games::registry(game)
        .map_err(|e| BundleError::Shape(format!("the game's engine: {e}")))?;
    let carry = Carry {
        club: &club,
        engine,
        rulings: &rulings,
        keys: if opts.trusted_keys.is_empty() {
            let mut keys: Vec<PublicKey> = ruling_keys.iter().map(|k| k.public_key).collect();
            for h in hands {
                let held: Vec<BundleKey> = h
                    .get("keys")
                    .and_then(|k| serde_json::from_value(k.clone()).ok())
                    .unwrap_or_default();
                keys.extend(held.into_iter().map(|k| k.public_key));
            }
            keys
        } else {
            opts.trusted_keys.clone()
        },
        trusted: !opts.trusted_keys.is_empty(),
    };
    let mut carried: std::collections::BTreeSet<String> = std::collections::BTreeSet::new();
    let mut earlier: Vec<Link> = Vec::new();
    let mut out = MatchVerdict {
        valid: false,
        table: table.clone(),
        game,
        hands: hands.len(),
        trust: if opts.trusted_keys.is_empty() {
            Trust::BundleKeysOnly
        } else {
            Trust::TrustedKey
        },
        match_state: None,
        verdicts: Vec::new(),
        problem: None,
        quarantined: quarantined.clone(),
        adjustments: Vec::new(),
    };
    // Numbers of quarantined hands, each once, none of them a hand of the file.
    let mut skipped: std::collections::BTreeSet<u64> = std::collections::BTreeSet::new();
    let mut ids: std::collections::BTreeSet<&str> = std::collections::BTreeSet::new();
    let held: Vec<&str> = hands
        .iter()
        .filter_map(|h| h.get("hand").and_then(Value::as_str))
        .collect();
    for q in &quarantined {
        if q.hand_no == 0
            || !skipped.insert(q.hand_no)
            || !ids.insert(q.hand.as_str())
            || held.contains(&q.hand.as_str())
        {
            out.problem = Some(MatchProblem {
                index: 0,
                hand: q.hand.chars().take(128).collect(),
                in_hand: None,
                rule: "quarantined".into(),
                expected: "each quarantined hand listed once, by a number from 1, and not \
                           also held as a bundle"
                    .into(),
                found: format!("hand {} listed as quarantined", q.hand_no),
            });
            return Ok(out);
        }
    }
    // The number the next hand of the file must have.
    let mut next_no: u64 = 1;
    let mut before: Option<Link> = None;
    for (index, h) in hands.iter().enumerate() {
        while skipped.contains(&next_no) {
            next_no = next_no.saturating_add(1);
        }
        let name = h
            .get("hand")
            .and_then(Value::as_str)
            .unwrap_or("?")
            .chars()
            .take(128)
            .collect::<String>();
        let fail = |rule: &str, expected: String, found: String| MatchProblem {
            index,
            hand: name.clone(),
            in_hand: None,
            rule: rule.to_string(),
            expected,
            found,
        };
        let verdict = match verify::verify_value_in_match(h.clone(), opts) {
            Ok(v) => v,
            Err(e) => {
                out.problem = Some(fail("hand", "a readable hand bundle".into(), e.to_string()));
                return Ok(out);
            }
        };
        if !verdict.valid {
            let mut p = fail(
                "hand",
                "a hand that verifies".into(),
                "one that does not".into(),
            );
            p.in_hand = verdict.problem.clone();
            out.verdicts.push(verdict);
            out.problem = Some(p);
            return Ok(out);
        }
        out.verdicts.push(verdict);
        let bundle: Bundle = match serde_json::from_value(h.clone()) {
            Ok(b) => b,
            Err(e) => {
                out.problem = Some(fail("hand", "a hand bundle".into(), e.to_string()));
                return Ok(out);
            }
        };
        let Some(link) = link_of(&bundle.records, bundle.status) else {
            out.problem = Some(fail(
                "hand",
                "a hand that starts and ends".into(),
                format!("a {} hand", bundle.status.as_str()),
            ));
            return Ok(out);
        };
        if bundle.status == HandStatus::InProgress {
            out.problem = Some(fail(
                "hand",
                "a finished hand (completed or abandoned)".into(),
                "a hand in progress".into(),
            ));
            return Ok(out);
        }
        if link.club != club || link.table != table || link.game != game {
            out.problem = Some(fail(
                "match_header",
                format!("a hand of club {club}, table {table}, game {game}"),
                format!(
                    "club {}, table {}, game {}",
                    link.club, link.table, link.game
                ),
            ));
            return Ok(out);
        }
        let want_no = next_no;
        next_no = next_no.saturating_add(1);
        if link.hand_no != want_no {
            out.problem = Some(fail(
                "hand_no",
                format!("hand {want_no} of the match"),
                format!("hand {}", link.hand_no),
            ));
            return Ok(out);
        }
        match &before {
            None => {
                if let Some((p, _)) = &link.prev {
                    out.problem = Some(fail(
                        "prev_hand",
                        "no previous hand (the match's first)".into(),
                        format!("a link to {p}"),
                    ));
                    return Ok(out);
                }
                if let Some(a) = link.adjustments.first() {
                    out.problem = Some(fail(
                        "adjustment_hand",
                        "no penalty ruling carried before the match's first hand".into(),
                        format!("dispute {} entry {}", a.dispute, a.seq),
                    ));
                    return Ok(out);
                }
            }
            Some(b) => {
                let want = (b.hand.clone(), b.last_hash);
                if link.prev.as_ref() != Some(&want) {
                    out.problem = Some(fail(
                        "prev_hand",
                        format!("a link to hand {} ending in {}", want.0, want.1),
                        match &link.prev {
                            Some((h, x)) => format!("a link to hand {h} ending in {x}"),
                            None => "no link".into(),
                        },
                    ));
                    return Ok(out);
                }
                let over = crate::games::registry(game)
                    .and_then(|g| g.match_over(&b.leaves))
                    .unwrap_or(false);
                if over {
                    out.problem = Some(fail(
                        "after_match_over",
                        format!("no hand after hand {}, which ended the match", b.hand),
                        "another hand".into(),
                    ));
                    return Ok(out);
                }
                if link.rules != b.rules || link.seats != b.seats {
                    out.problem = Some(fail(
                        "same_match",
                        "the house rules and seats of the hands before".into(),
                        "other rules or seats".into(),
                    ));
                    return Ok(out);
                }
                let mut state = b.leaves.clone();
                for a in &link.adjustments {
                    match carry.apply(a, &earlier, &mut carried, &link.rules, &state) {
                        Ok((after, ruled)) => {
                            out.adjustments.push(AppliedAdjustment {
                                applied_by: Some(link.hand.clone()),
                                ruled_hand: ruled,
                                dispute: a.dispute.clone(),
                                seq: a.seq,
                                hash: a.hash,
                                award: a.award.clone(),
                            });
                            state = after;
                        }
                        Err((rule, expected, found)) => {
                            out.problem = Some(fail(rule, expected, found));
                            return Ok(out);
                        }
                    }
                }
                if engine.match_over(&state).unwrap_or(false) {
                    out.problem = Some(fail(
                        "after_match_over",
                        format!(
                            "no hand after the penalty rulings carried after hand {} ended \
                             the match",
                            b.hand
                        ),
                        "another hand".into(),
                    ));
                    return Ok(out);
                }
                if link.starts_from != state {
                    let with = if link.adjustments.is_empty() {
                        String::new()
                    } else {
                        format!(
                            " with the {} penalty ruling(s) it carries applied",
                            link.adjustments.len()
                        )
                    };
                    out.problem = Some(fail(
                        "match_state",
                        format!("the match state hand {} ended with{with}: {state}", b.hand),
                        link.starts_from.to_string(),
                    ));
                    return Ok(out);
                }
            }
        }
        if let Err((rule, expected, found)) = chain_link(before.as_ref(), &link) {
            out.problem = Some(fail(rule, expected, found));
            return Ok(out);
        }
        earlier.push(link.clone());
        before = Some(link);
    }
    // Quarantined hands after the last bundle follow it without a gap.
    while skipped.contains(&next_no) {
        next_no = next_no.saturating_add(1);
    }
    if let Some(q) = quarantined.iter().find(|q| q.hand_no >= next_no) {
        out.problem = Some(MatchProblem {
            index: hands.len(),
            hand: q.hand.chars().take(128).collect(),
            in_hand: None,
            rule: "hand_no".into(),
            expected: format!("a quarantined hand numbered below {next_no}"),
            found: format!("hand {}", q.hand_no),
        });
        return Ok(out);
    }
    // The penalty rulings carried after the last hand (rule 7, as for a next hand).
    let mut end_state = before.as_ref().map(|b| b.leaves.clone());
    if let (Some(last), Some(state)) = (before.as_ref(), end_state.as_mut()) {
        for a in &trailing {
            match carry.apply(a, &earlier, &mut carried, &last.rules, state) {
                Ok((after, ruled)) => {
                    out.adjustments.push(AppliedAdjustment {
                        applied_by: None,
                        ruled_hand: ruled,
                        dispute: a.dispute.clone(),
                        seq: a.seq,
                        hash: a.hash,
                        award: a.award.clone(),
                    });
                    *state = after;
                }
                Err((rule, expected, found)) => {
                    out.problem = Some(MatchProblem {
                        index: hands.len(),
                        hand: "(after the last hand)".into(),
                        in_hand: None,
                        rule: rule.into(),
                        expected,
                        found,
                    });
                    return Ok(out);
                }
            }
        }
    }
    out.match_state = end_state;
    out.valid = true;
    Ok(out)
}
