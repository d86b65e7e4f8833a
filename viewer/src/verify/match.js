// Verifying a match file (docs/BUNDLE.md §8): each hand as a bundle, then the links
// between hands in the order of §8's rules, stopping the links at the first break as the
// reference does. Rule 5 (`after_match_over`) needs the game's engine and is not checked.
import { JsonNumber, UnreadableJson, canonicalBytes, jsonEqual } from './json.js';
import { concat, fromHex, isLowerHex, sha256, tag, toHex } from './bytes.js';
import { keyIdOf, verifyStrict } from './ed25519.js';
import { chainWalk } from './shuffle.js';
import { eventHash, GAME_IDS, isAdjustment } from './eventlog.js';
import { MATCH_FORMAT, readInput, verifyBundleSync } from './bundle.js';

// docs/DISPUTES.md, "The record" and "The ruling's signature".
const ENTRY_HASH_TAG = tag('persian-cards/dispute-entry/v1');
const ENTRY_SIG_TAG = tag('persian-cards/dispute-entry-signature/v1');
const RULING_SIG_TAG = tag('persian-cards/ruling/v1');

const isObj = (v) => v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof JsonNumber);
const has = (o, k) => Object.prototype.hasOwnProperty.call(o, k);

/** Match-level checks, in the order the panel lists them. */
export const MATCH_CHECK_IDS = ['format', 'hands', 'links', 'seed_chain', 'match_over'];

const MATCH_RULE_CHECK = {
  unreadable: 'format',
  unsupported: 'format',
  quarantined: 'links',
  hand: 'hands',
  match_header: 'links',
  hand_no: 'links',
  prev_hand: 'links',
  same_match: 'links',
  match_state: 'links',
  adjustment_entry: 'links',
  adjustment_signature: 'links',
  adjustment_official: 'links',
  adjustment_hand: 'links',
  adjustment_twice: 'links',
  adjustment_award: 'links',
  seed_chain: 'seed_chain',
  seed_chain_link: 'seed_chain',
  seed_chain_anchor: 'seed_chain',
};

function matchChecks(problem, applicable) {
  const failed = problem ? MATCH_RULE_CHECK[problem.rule] : null;
  return MATCH_CHECK_IDS.map((id) => {
    if (id === 'match_over') {
      return { id, ok: null, seq: null, rule: 'after_match_over', message: 'not checked in the browser: whether a hand ended the match is the engine\'s word' };
    }
    if (id === failed) {
      const where = problem.index === null ? 'match' : `hand ${problem.index} (${problem.hand})`;
      return { id, ok: false, seq: problem.seq, rule: problem.rule, hand_index: problem.index, hand_id: problem.hand, expected: problem.expected, found: problem.found, in_hand: problem.in_hand ?? null, message: `${where}: ${problem.rule}: expected ${problem.expected}, found ${problem.found}` };
    }
    if (applicable[id] === false) return { id, ok: null, seq: null, rule: null, message: 'not applicable: no hand is dealt from a seed chain' };
    if (problem) return { id, ok: null, seq: null, rule: null, message: `not finished: the links stop at the first break (${problem.rule})` };
    return { id, ok: true, seq: null, rule: null, message: 'passed' };
  });
}

const prob = (index, hand, rule, expected, found, extra = {}) => ({ index, hand, rule, expected, found, seq: null, ...extra });

/** Verifies a match file: its text, bytes or parsed JSON. Never throws for bad input. */
export async function verifyMatch(input, opts = {}) {
  const fail = (p) => ({ ok: false, checks: matchChecks(p, {}), hands: [], first_problem: null });
  let m;
  try {
    m = readInput(input);
  } catch (e) {
    if (e instanceof UnreadableJson) {
      const r = fail(prob(null, null, 'unreadable', 'a JSON text the format reads', e.message));
      r.first_problem = r.checks.find((c) => c.ok === false);
      return r;
    }
    throw e;
  }
  const envProblem = readMatchEnvelope(m);
  if (envProblem) {
    const r = fail(prob(null, null, envProblem.rule, 'a readable match file (docs/BUNDLE.md §8)', envProblem.message));
    r.first_problem = r.checks.find((c) => c.ok === false);
    return r;
  }
  const verdicts = m.hands.map((h) => verifyBundleSync(h, { ...opts, walkAnchor: false }));
  const quarantined = m.version >= 2 && Array.isArray(m.quarantined) ? m.quarantined : [];
  const carried = [];
  const problem = links(m, verdicts, quarantined, rulingKeys(m, opts), carried);
  const chained = m.hands.some((h) => isObj(h) && Array.isArray(h.records) && isObj(h.records[0]?.event?.body) && has(h.records[0].event.body, 'seed_chain'));
  const checks = matchChecks(problem, { seed_chain: chained });
  // the hands, in hand_no order, quarantined ones in their places
  const hands = verdicts.map((v, i) => ({ ...v, hand_no: startBody(m.hands[i])?.hand_no ?? null }));
  for (const q of quarantined) hands.push({ quarantined: true, ok: null, hand_id: q.hand, hand_no: q.hand_no, reason: q.reason, quarantined_ms: q.quarantined_ms, seq: q.seq, rule: q.rule, message: 'quarantined by the service (its word, unsigned): the hand has no verifiable bundle' });
  hands.sort((a, b) => (a.hand_no ?? 0) - (b.hand_no ?? 0));
  return {
    ok: problem === null,
    club: m.club,
    table: m.table,
    game: m.game,
    checks,
    hands,
    quarantined,
    adjustments: carried,
    first_problem: checks.find((c) => c.ok === false) ?? null,
  };
}

function readMatchEnvelope(m) {
  if (!isObj(m)) return { rule: 'unreadable', message: 'the file is not a JSON object' };
  if (m.format !== MATCH_FORMAT || !(m.version === 1 || m.version === 2 || m.version === 3)) {
    return { rule: 'unsupported', message: `an unsupported match file: format ${JSON.stringify(m.format)}, version ${JSON.stringify(m.version instanceof JsonNumber ? m.version.text : m.version)}` };
  }
  const required = ['format', 'version', 'club', 'table', 'game', 'hands', ...(m.version === 2 ? ['quarantined'] : [])];
  const optional = m.version === 3 ? ['quarantined', 'rulings', 'ruling_keys', 'trailing_adjustments'] : [];
  for (const k of required) if (!has(m, k)) return { rule: 'unreadable', message: `the match file has no member "${k}"` };
  for (const k of Object.keys(m)) if (!required.includes(k) && !optional.includes(k)) return { rule: 'unreadable', message: `the match file has an unknown member "${k}"` };
  if (m.version === 3) {
    for (const k of ['rulings', 'ruling_keys', 'trailing_adjustments']) {
      if (has(m, k) && !Array.isArray(m[k])) return { rule: 'unreadable', message: `${k} is not an array` };
    }
    for (const r of m.rulings ?? []) {
      if (!isObj(r) || !isObj(r.entry) || !isObj(r.entry.body) || !isLowerHex(r.hash, 64) || typeof r.signer !== 'string' || !isLowerHex(r.sig, 128)) {
        return { rule: 'unreadable', message: 'a ruling is not a signed dispute entry {entry, hash, signer, sig}' };
      }
    }
    for (const k of m.ruling_keys ?? []) {
      if (!isObj(k) || typeof k.key_id !== 'string' || !isLowerHex(k.public_key, 64) || keyIdOf(fromHex(k.public_key)) !== k.key_id) {
        return { rule: 'unreadable', message: 'a ruling key is not {key_id, public_key} with its own id' };
      }
    }
    if ((m.trailing_adjustments ?? []).some((a) => !isAdjustment(a))) return { rule: 'unreadable', message: 'a trailing adjustment is not {dispute, seq, hash, award}' };
  }
  if (typeof m.club !== 'string' || typeof m.table !== 'string') return { rule: 'unreadable', message: 'club and table are strings' };
  if (!GAME_IDS.includes(m.game)) return { rule: 'unreadable', message: `game ${JSON.stringify(m.game)} is not a game id` };
  if (!Array.isArray(m.hands) || m.hands.length === 0) return { rule: 'unreadable', message: 'hands is not a non-empty array' };
  if (m.version === 2) {
    if (!Array.isArray(m.quarantined) || m.quarantined.length === 0) return { rule: 'unreadable', message: 'quarantined is not a non-empty array' };
    const names = ['hand', 'hand_no', 'reason', 'quarantined_ms', 'seq', 'rule'];
    for (const q of m.quarantined) {
      if (!isObj(q) || names.some((k) => !has(q, k)) || Object.keys(q).some((k) => !names.includes(k))) {
        return { rule: 'unreadable', message: 'a quarantined entry is not {hand, hand_no, reason, quarantined_ms, seq, rule}' };
      }
      if (typeof q.hand !== 'string' || !Number.isInteger(q.hand_no) || typeof q.reason !== 'string' || typeof q.rule !== 'string') {
        return { rule: 'unreadable', message: 'a quarantined entry of the wrong types' };
      }
    }
  }
  return null;
}

function startBody(h) {
  const b = isObj(h) && Array.isArray(h.records) && isObj(h.records[0]) && isObj(h.records[0].event) ? h.records[0].event.body : null;
  return isObj(b) && b.type === 'hand_started' ? b : null;
}

function lastBody(h, type) {
  if (!isObj(h) || !Array.isArray(h.records)) return null;
  for (const r of h.records) if (isObj(r?.event?.body) && r.event.body.type === type) return r.event.body;
  return null;
}

/** The keys a ruling entry's service signature is checked against: the trusted keys when
 * given, else the file's own (its ruling_keys and the hands' keys), as for the bundles. */
function rulingKeys(m, opts) {
  const trusted = opts.trustedKeys ?? [];
  if (trusted.length) return trusted.map((k) => String(k).toLowerCase());
  const out = (m.ruling_keys ?? []).map((k) => k.public_key);
  for (const h of m.hands) for (const k of (isObj(h) && Array.isArray(h.keys) ? h.keys : [])) if (isObj(k) && isLowerHex(k.public_key, 64)) out.push(k.public_key);
  return out;
}

/** The match state a finished hand left: its hand_ended's next_match, else where it started. */
function leftOf(h) {
  const ended = lastBody(h, 'hand_ended');
  return ended ? ended.next_match : startBody(h).match_state;
}

/**
 * Hokm's arithmetic for an award carried into the match (hokm §12.3, §11.5 steps 4–5, as the
 * engine's apply_award): the points to each side that gains, then the round and match
 * checks. The 2-player deuce is left to the engine (null: not re-derived here).
 */
function hokmApply(rules, state, award) {
  if (!isObj(state) || !Array.isArray(state.seating) || !Array.isArray(state.scores) || !isObj(rules)) return null;
  if (state.seating.length === 2 && rules.deuce_2p !== 'off') return null;
  const s = JSON.parse(JSON.stringify(state));
  const sideOf = (seat) => (s.seating.length === 4 ? s.seating.indexOf(seat) % 2 : seat);
  for (const g of award.beneficiaries) s.scores[sideOf(g[0])] += award.points;
  const best = Math.max(...s.scores);
  if (best >= rules.target_points) {
    const side = s.scores.indexOf(best);
    s.rounds[side] = Math.min(s.rounds[side] + 1, 3);
    s.scores = s.scores.map(() => 0);
    s.deuce = false;
    if (s.rounds[side] >= rules.rounds_to_win) {
      s.over = true;
      s.winner = side;
    } else if (rules.new_round_hakem === 'redraw') {
      s.hakem = null;
    }
  }
  return s;
}

/**
 * Rule 7's checks of the penalty rulings carried before hand `i` (or after the last hand):
 * each names a signed ruling entry of the file, signed by the service and its official, on
 * an earlier hand, of a dispute not carried before, with the award the entry records; the
 * state after them, or a problem. The award's recomputation from the penalty needs the
 * engine: `replayer verify-match` does it.
 */
function carryInto(m, i, id, adjustments, earlier, rules, state, keys, done, carried) {
  let now = state;
  for (const a of adjustments) {
    const named = `dispute ${a.dispute} entry ${a.seq} (${a.hash})`;
    const r = (m.rulings ?? []).find((x) => x.hash === a.hash);
    if (!r) return { problem: prob(i, id, 'adjustment_entry', `the signed ruling entry ${named} among the file's rulings`, 'no entry with that hash') };
    const e = r.entry;
    let h;
    try {
      h = toHex(sha256(ENTRY_HASH_TAG, canonicalBytes(e)));
    } catch {
      h = null;
    }
    if (h !== r.hash || e.dispute !== a.dispute || e.seq !== a.seq || e.club !== m.club) {
      return { problem: prob(i, id, 'adjustment_entry', `entry ${named} of club ${m.club}, hashing to its hash`, `dispute ${e.dispute} entry ${e.seq} hashing to ${h}`) };
    }
    const key = keys.find((k) => keyIdOf(fromHex(k)) === r.signer);
    if (!key || !verifyStrict(fromHex(key), fromHex(r.sig), concat(ENTRY_SIG_TAG, fromHex(r.hash)))) {
      return { problem: prob(i, id, 'adjustment_signature', `entry ${named} signed by a trusted key or one of the file's`, `a signature by ${r.signer} that does not verify so`) };
    }
    const b = e.body;
    let official = false;
    if (b.type === 'ruling' && isObj(b.official) && isLowerHex(b.official.public_key, 64) && isLowerHex(b.official_sig, 128)) {
      const terms = { club: e.club, decision: b.decision, dispute: e.dispute, hand: e.hand, official: b.official, penalty: has(b, 'penalty') ? b.penalty : null, prev: e.prev, reason: b.reason, seq: e.seq };
      try {
        official = verifyStrict(fromHex(b.official.public_key), fromHex(b.official_sig), concat(RULING_SIG_TAG, canonicalBytes(terms)));
      } catch {
        official = false;
      }
    }
    if (!official) return { problem: prob(i, id, 'adjustment_official', `entry ${named} signed by its official over the ruling message`, 'a signature that does not verify') };
    if (!earlier.includes(e.hand)) return { problem: prob(i, id, 'adjustment_hand', `entry ${named} ruling on an earlier hand of this match`, `a ruling on hand ${e.hand}`) };
    if (done.has(e.dispute)) return { problem: prob(i, id, 'adjustment_twice', `dispute ${e.dispute}'s award carried into the match once`, `entry ${e.seq} of it carried again`) };
    if (b.decision !== 'penalty' || !jsonEqual(b.award, a.award)) {
      return { problem: prob(i, id, 'adjustment_award', 'a penalty ruling whose award is the one carried', `${JSON.stringify(b.award ?? null)} in the entry, ${JSON.stringify(a.award)} in the hand`) };
    }
    const after = m.game === 'hokm' ? hokmApply(rules, now, a.award) : undefined;
    if (after === undefined) return { problem: prob(i, id, 'adjustment_award', `an award the rules of ${m.game} carry into the match`, 'the rules of this game give no penalty') };
    done.add(e.dispute);
    carried.push({ applied_by: i < m.hands.length ? id : null, ruled_hand: e.hand, dispute: e.dispute, seq: e.seq, hash: a.hash, award: a.award, official: b.official.name, reason: b.reason });
    // null: the arithmetic is the engine's alone here (the 2-player deuce)
    now = after;
  }
  return { state: now };
}

/** §8 rules 0–4 and 6–8, hand by hand; the first break or null. */
function links(m, verdicts, quarantined, keys = [], carried = []) {
  const done = new Set();
  const ids = m.hands.map((h) => (isObj(h) ? h.hand : null));
  // rule 0
  const qNos = new Set();
  const qIds = new Set();
  for (const q of quarantined) {
    if (q.hand_no < 1 || qNos.has(q.hand_no) || qIds.has(q.hand) || ids.includes(q.hand)) {
      return prob(null, q.hand, 'quarantined', 'each quarantined hand listed once, with a number of its own, not among the hands', `hand ${JSON.stringify(q.hand)} (number ${q.hand_no})`);
    }
    qNos.add(q.hand_no);
    qIds.add(q.hand);
  }
  let prevNo = 0;
  for (let i = 0; i < m.hands.length; i++) {
    const h = m.hands[i];
    const v = verdicts[i];
    const id = ids[i];
    // rule 1
    if (!v.ok) return prob(i, id, 'hand', 'a hand that verifies', v.first_problem ? v.first_problem.message : 'a hand that does not', { in_hand: v.first_problem, seq: v.first_problem ? v.first_problem.seq : null });
    if (v.status !== 'completed' && v.status !== 'abandoned') return prob(i, id, 'hand', 'a finished hand', `status ${v.status}`);
    const b = startBody(h);
    // rule 2
    if (b.club !== m.club || b.table !== m.table || b.game !== m.game) {
      return prob(i, id, 'match_header', `club ${m.club}, table ${m.table}, game ${m.game}`, `club ${b.club}, table ${b.table}, game ${b.game}`);
    }
    // rule 3
    let want = prevNo + 1;
    while (qNos.has(want)) want++;
    if (b.hand_no !== want) return prob(i, id, 'hand_no', `hand_no ${want}`, `hand_no ${b.hand_no}`);
    // rule 4
    if (i === 0) {
      if (has(b, 'prev_hand')) return prob(i, id, 'prev_hand', 'no prev_hand in the first hand', JSON.stringify(b.prev_hand));
      if (has(b, 'adjustments')) return prob(i, id, 'adjustment_hand', 'no penalty ruling carried before the match\'s first hand', `dispute ${b.adjustments[0].dispute} entry ${b.adjustments[0].seq}`);
    } else {
      const ph = m.hands[i - 1];
      const lastHash = toHex(eventHash(ph.records[ph.records.length - 1].event));
      const want4 = { hand: ids[i - 1], hash: lastHash };
      if (!has(b, 'prev_hand') || !jsonEqual(b.prev_hand, want4)) return prob(i, id, 'prev_hand', JSON.stringify(want4), has(b, 'prev_hand') ? JSON.stringify(b.prev_hand) : 'none');
      const pb = startBody(ph);
      // rule 5 (after_match_over) needs the engine: not checked here.
      // rule 6
      if (!jsonEqual(b.rules, pb.rules) || !jsonEqual(b.seats, pb.seats)) return prob(i, id, 'same_match', 'the rules and seats of the hand before', 'others');
      // rule 7, with the penalty rulings carried before the hand
      let left = leftOf(ph);
      if (has(b, 'adjustments')) {
        const c = carryInto(m, i, id, b.adjustments, ids.slice(0, i), b.rules, left, keys, done, carried);
        if (c.problem) return c.problem;
        left = c.state;
      }
      if (left !== null && !jsonEqual(b.match_state, left)) return prob(i, id, 'match_state', JSON.stringify(left), JSON.stringify(b.match_state));
    }
    // rule 8
    const c8 = chainLink(m, i, b, prevNo);
    if (c8) return c8;
    prevNo = b.hand_no;
  }
  // rule 3, after the last hand
  for (const q of quarantined) {
    if (q.hand_no > prevNo) return prob(null, q.hand, 'hand_no', `a quarantined hand numbered at most ${prevNo}`, `number ${q.hand_no}`);
  }
  // rule 7 for the rulings carried after the last hand
  const trailing = m.version === 3 ? m.trailing_adjustments ?? [] : [];
  if (trailing.length) {
    const last = m.hands[m.hands.length - 1];
    const c = carryInto(m, m.hands.length, '(after the last hand)', trailing, ids, startBody(last).rules, leftOf(last), keys, done, carried);
    if (c.problem) return c.problem;
  }
  return null;
}

function chainLink(m, i, b, prevNo) {
  const id = m.hands[i].hand;
  const sc = has(b, 'seed_chain') ? b.seed_chain : null;
  const pb = i > 0 ? startBody(m.hands[i - 1]) : null;
  const psc = pb && has(pb, 'seed_chain') ? pb.seed_chain : null;
  if (i > 0 && (sc === null) !== (psc === null)) return prob(i, id, 'seed_chain', psc ? 'a chained hand after a chained one' : 'no chain after a hand without one', sc ? 'a chained hand' : 'a hand without a chain');
  if (!sc) return null;
  const seed = fromHex(lastBody(m.hands[i], 'seeds_revealed').chain_seed);
  const d = b.hand_no - prevNo;
  const walkToAnchor = () => {
    const a = toHex(chainWalk(seed, sc.position, sc.position));
    return a === sc.anchor ? null : prob(i, id, 'seed_chain_anchor', `anchor ${sc.anchor}`, `the chain seed walks down to ${a}`);
  };
  if (i === 0) {
    if (sc.position !== b.hand_no) return prob(i, id, 'seed_chain', `position ${b.hand_no} (the hand's number)`, `position ${sc.position}`);
    return walkToAnchor();
  }
  if (sc.anchor === psc.anchor && sc.length === psc.length) {
    if (sc.position !== psc.position + d) return prob(i, id, 'seed_chain', `position ${psc.position + d}`, `position ${sc.position}`);
    const prevSeed = lastBody(m.hands[i - 1], 'seeds_revealed').chain_seed;
    const w = toHex(chainWalk(seed, sc.position, d));
    if (w !== prevSeed) return prob(i, id, 'seed_chain_link', `the previous hand's chain seed ${prevSeed}`, w);
    return null;
  }
  // a new chain: only after a used-up one
  if (psc.length - psc.position + sc.position !== d) {
    return prob(i, id, 'seed_chain', `a new chain after the old one is used up (old length - old position + new position = ${d})`, `${psc.length} - ${psc.position} + ${sc.position}`);
  }
  return walkToAnchor();
}
