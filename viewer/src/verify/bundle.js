// Verifying a hand bundle (docs/BUNDLE.md) in the order of docs/EVENT-LOG.md §12, so that
// the first problem named here is the one `replayer verify` names, for every rule that does
// not need a game's rules engine. The engine re-run (rules, effects other than the faces,
// settlement) is not done here: the result says so.
import { JsonNumber, UnreadableJson, encodingProblem, jsonEqual, parseStrict } from './json.js';
import { bytesEqual, fromHex, isAnyHex, isLowerHex, toHex, utf8 } from './bytes.js';
import { decodePoint, keyIdOf, verifyStrict } from './ed25519.js';
import {
  GAME_IDS,
  eventFormatProblem,
  eventHash,
  playerMessage,
  privateInputCommitment,
  serviceMessage,
} from './eventlog.js';
import {
  ShuffleError,
  chainServerSeed,
  chainWalk,
  commitmentOf,
  deckCards,
  deckSeed,
  shuffleCards,
  sortCanonical,
} from './shuffle.js';
import { Problem, buildChecks } from './checks.js';
import { checkLogProof, proofOfBundle, vkeyOf } from './transparency.js';

export const BUNDLE_FORMAT = 'persian-cards/hand-bundle';
export const MATCH_FORMAT = 'persian-cards/match';
const ZERO_HASH = '0'.repeat(64);
const STATUSES = ['in_progress', 'completed', 'abandoned'];

const isObj = (v) => v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof JsonNumber);
const has = (o, k) => Object.prototype.hasOwnProperty.call(o, k);

/** Reads a bundle or match file given as text, bytes or an already-parsed value. */
export function readInput(input) {
  if (typeof input === 'string') return parseStrict(input);
  if (input instanceof ArrayBuffer) input = new Uint8Array(input);
  if (input instanceof Uint8Array) {
    let text;
    try {
      text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(input);
    } catch {
      throw new UnreadableJson('the file is not UTF-8', 0);
    }
    return parseStrict(text);
  }
  return input;
}

class Unreadable extends Error {
  constructor(rule, message) {
    super(message);
    this.rule = rule;
  }
}

/** §12 A.2–A.4 and docs/BUNDLE.md §1: the envelope, read strictly. */
function readEnvelope(b) {
  if (!isObj(b)) throw new Unreadable('unreadable', 'the file is not a JSON object');
  if (has(b, 'format') && has(b, 'version')) {
    const okVersion = b.version === 1 || b.version === 2;
    if (b.format !== BUNDLE_FORMAT || !okVersion) {
      throw new Unreadable('unsupported', `an unsupported bundle: format ${JSON.stringify(b.format)}, version ${b.version instanceof JsonNumber ? b.version.text : JSON.stringify(b.version)}`);
    }
  }
  const required = ['format', 'version', 'hand', 'game', 'status', 'keys', 'records'];
  const optional = b.version === 2 ? ['log_proof'] : [];
  for (const k of required) if (!has(b, k)) throw new Unreadable('unreadable', `the bundle has no member "${k}"`);
  for (const k of Object.keys(b)) {
    if (!required.includes(k) && !optional.includes(k)) throw new Unreadable('unreadable', `the bundle has an unknown member "${k}"`);
  }
  if (typeof b.hand !== 'string') throw new Unreadable('unreadable', 'the bundle\'s "hand" is not a string');
  if (!GAME_IDS.includes(b.game)) throw new Unreadable('unreadable', `the bundle's "game" ${JSON.stringify(b.game)} is not a game id`);
  if (!STATUSES.includes(b.status)) throw new Unreadable('unreadable', `the bundle's "status" ${JSON.stringify(b.status)} is not a status`);
  if (!Array.isArray(b.keys)) throw new Unreadable('unreadable', 'the bundle\'s "keys" is not an array');
  const keys = b.keys.map((k, i) => {
    if (!isObj(k) || Object.keys(k).length !== 2 || !has(k, 'key_id') || !has(k, 'public_key')) {
      throw new Unreadable('unreadable', `keys[${i}] is not {"key_id", "public_key"}`);
    }
    if (typeof k.key_id !== 'string') throw new Unreadable('unreadable', `keys[${i}].key_id is not a string`);
    const pubHex = typeof k.public_key === 'string' ? k.public_key.trim() : null;
    if (!isAnyHex(pubHex, 64)) throw new Unreadable('unreadable', `keys[${i}].public_key is not 64 hex characters`);
    const pub = fromHex(pubHex);
    if (!decodePoint(pub)) throw new Unreadable('unreadable', `keys[${i}].public_key is not a valid Ed25519 public key`);
    return { key_id: k.key_id, pub };
  });
  if (!Array.isArray(b.records)) throw new Unreadable('unreadable', 'the bundle\'s "records" is not an array');
  if (b.records.length === 0) throw new Unreadable('unreadable', 'the bundle has no records');
  const records = b.records.map((r, i) => readRecord(r, i));
  return { hand: b.hand, game: b.game, status: b.status, keys, records, logProof: has(b, 'log_proof') ? b.log_proof : undefined };
}

function readRecord(r, i) {
  const names = ['event', 'hash', 'signer', 'sig'];
  if (!isObj(r)) throw new Unreadable('unreadable', `records[${i}] is not an object`);
  for (const k of names) if (!has(r, k)) throw new Unreadable('unreadable', `records[${i}] has no member "${k}"`);
  for (const k of Object.keys(r)) if (!names.includes(k)) throw new Unreadable('unreadable', `records[${i}] has an unknown member "${k}"`);
  if (!isAnyHex(r.hash, 64)) throw new Unreadable('unreadable', `records[${i}].hash is not 64 hex characters`);
  if (!isAnyHex(r.sig, 128)) throw new Unreadable('unreadable', `records[${i}].sig is not 128 hex characters`);
  if (typeof r.signer !== 'string') throw new Unreadable('unreadable', `records[${i}].signer is not a string`);
  return { event: r.event, hash: fromHex(r.hash), signer: r.signer, sig: fromHex(r.sig) };
}

/** Trusted keys given by the user: 64 hex characters each (whitespace around ignored). */
function readTrustedKeys(list) {
  if (list === undefined || list === null) return null;
  if (!Array.isArray(list)) throw new Unreadable('unreadable', 'trustedKeys is not an array of public keys');
  const out = new Map();
  for (const h of list) {
    const t = typeof h === 'string' ? h.trim() : '';
    const pub = isAnyHex(t, 64) ? fromHex(t) : null;
    if (!pub || !decodePoint(pub)) throw new Unreadable('unreadable', `a trusted key that is not an Ed25519 public key: ${String(h).slice(0, 80)}`);
    out.set(keyIdOf(pub), pub);
  }
  return out.size ? out : null;
}

/**
 * Pass 1 (§12 B): the bundle's keys under their own ids, then per record: encoding, hash,
 * signer, signature, event format, sequence, chain, hand. Signatures one by one, strictly
 * (§8 allows it: the same verdict as the reference's batch).
 */
export function integrityPass({ hand, keys, records, trusted, firstSeq = 0, firstPrev = ZERO_HASH, checkBundleKeys = true }) {
  const signers = [];
  if (checkBundleKeys) {
    for (const k of keys) {
      const id = keyIdOf(k.pub);
      if (k.key_id !== id) return { problem: new Problem(null, 'bundle_key_id', `key id ${id}`, k.key_id), signers, hashes: [] };
    }
  }
  const known = trusted ?? new Map(keys.map((k) => [k.key_id, k.pub]));
  const hashes = [];
  for (let i = 0; i < records.length; i++) {
    const r = records[i];
    const seq = firstSeq + i;
    const enc = encodingProblem(r.event);
    if (enc) return { problem: new Problem(seq, 'encoding', 'integers of at most 2^53 - 1 and nesting of at most 32', enc), signers, hashes };
    let h;
    try {
      h = eventHash(r.event);
    } catch (e) {
      return { problem: new Problem(seq, 'encoding', 'an event with canonical bytes', String(e.message)), signers, hashes };
    }
    if (!bytesEqual(h, r.hash)) return { problem: new Problem(seq, 'hash', toHex(h), toHex(r.hash)), signers, hashes };
    const pub = known.get(r.signer);
    if (!pub) {
      const expected = trusted ? `one of the trusted keys (${[...trusted.keys()].join(', ')})` : `a key the bundle carries (${[...known.keys()].join(', ') || 'none'})`;
      return { problem: new Problem(seq, 'signer', expected, r.signer), signers, hashes };
    }
    if (!signers.includes(r.signer)) signers.push(r.signer);
    if (!verifyStrict(pub, r.sig, serviceMessage(h))) {
      return { problem: new Problem(seq, 'signature', `a signature by ${r.signer} that verifies`, 'a signature that does not verify'), signers, hashes };
    }
    const fmt = eventFormatProblem(r.event);
    if (fmt) return { problem: new Problem(seq, 'event_format', 'an event of version 1', fmt), signers, hashes };
    const e = r.event;
    if (e.seq !== seq) return { problem: new Problem(seq, 'sequence', `seq ${seq}`, `seq ${e.seq}`), signers, hashes };
    const prev = i === 0 ? firstPrev : toHex(hashes[i - 1]);
    if (prev !== null && e.prev !== prev) return { problem: new Problem(seq, 'chain', `prev ${prev}`, `prev ${e.prev}`), signers, hashes };
    if (hand !== null && e.hand !== hand) return { problem: new Problem(seq, 'hand_id', `hand ${JSON.stringify(hand)}`, `hand ${JSON.stringify(e.hand)}`), signers, hashes };
    hashes.push(h);
  }
  return { problem: null, signers, hashes };
}

/** Pass 2: the reveal, and the seed chain. */
function revealPass(events, { walkAnchor }) {
  const n = events.length;
  const commitments = [];
  for (const e of events) if (e.body.type === 'hand_started' || e.body.type === 'shuffle_committed') commitments.push(e.body.commitment);
  const last = events[n - 1].body;
  if (last.type !== 'seeds_revealed') return { problem: new Problem(n, 'complete', 'seeds_revealed as the last event', last.type) };
  const at = n - 1;
  if (last.seeds.length !== commitments.length) return { problem: new Problem(at, 'reveal_all', `${commitments.length} seeds`, `${last.seeds.length} seeds`) };
  const seeds = [];
  for (let k = 0; k < last.seeds.length; k++) {
    const s = last.seeds[k];
    if (s.shuffle !== k) return { problem: new Problem(at, 'reveal_order', `shuffle ${k}`, `shuffle ${s.shuffle}`) };
    if (!isLowerHex(s.server_seed, 64)) return { problem: new Problem(at, 'server_seed', '64 lowercase hex characters', `a malformed server seed for shuffle ${k}`) };
    const seed = fromHex(s.server_seed);
    const c = toHex(commitmentOf(seed));
    if (c !== commitments[k]) return { problem: new Problem(at, 'commitment', `commitment ${commitments[k]}`, `the seed of shuffle ${k} hashes to ${c}`) };
    seeds.push(seed);
  }
  const first = events[0].body;
  const chain = first.type === 'hand_started' && has(first, 'seed_chain') ? first.seed_chain : null;
  const chainSeedHex = has(last, 'chain_seed') ? last.chain_seed : null;
  if ((chain === null) !== (chainSeedHex === null)) {
    return { problem: new Problem(at, 'seed_chain', chain ? 'a chain seed' : 'no chain seed', chainSeedHex ? 'a chain seed' : 'none') };
  }
  let chainSeed = null;
  if (chain) {
    chainSeed = fromHex(chainSeedHex);
    for (let j = 0; j < seeds.length; j++) {
      if (!bytesEqual(chainServerSeed(chainSeed, j), seeds[j])) {
        return { problem: new Problem(at, 'seed_chain_seeds', `server seed ${j} derived from the chain seed`, 'another server seed') };
      }
    }
    const inRange = Number.isInteger(chain.position) && Number.isInteger(chain.length) && chain.position >= 1 && chain.position <= chain.length && chain.length <= 1000000;
    if (walkAnchor && inRange) {
      const a = toHex(chainWalk(chainSeed, chain.position, chain.position));
      if (a !== chain.anchor) return { problem: new Problem(at, 'seed_chain_anchor', `anchor ${chain.anchor}`, `the chain seed walks down to ${a}`) };
    }
  }
  return { problem: null, commitments, seeds, chainSeed, inputs: has(last, 'inputs') ? last.inputs : [] };
}

const utf8Len = (s) => utf8(s).length;
const scalarCount = (s) => [...s].length;

/** Every {face, card|ref: {shuffle, pos}} in a JSON value, in document order. */
function facesIn(v, out = []) {
  if (Array.isArray(v)) {
    for (const x of v) facesIn(x, out);
  } else if (isObj(v)) {
    if (typeof v.face === 'string') {
      for (const m of ['card', 'ref']) {
        const r = v[m];
        if (isObj(r) && Object.keys(r).length === 2 && Number.isInteger(r.shuffle) && Number.isInteger(r.pos)) out.push({ ref: r, face: v.face });
      }
    }
    for (const k of Object.keys(v)) facesIn(v[k], out);
  }
  return out;
}

/** The first face in `effects` that is not the card at its reference, or null. */
function wrongFace(effects, orders) {
  for (const { ref, face } of facesIn(effects)) {
    const order = orders[ref.shuffle];
    if (order === null) continue; // that shuffle's cards could not be named (no source)
    const actual = order === undefined ? undefined : order[ref.pos];
    if (actual !== face) {
      return {
        expected: actual === undefined ? `no card at {shuffle ${ref.shuffle}, pos ${ref.pos}}` : `${actual} at {shuffle ${ref.shuffle}, pos ${ref.pos}}`,
        found: face,
      };
    }
  }
  return null;
}

/**
 * Pass 3 without the engine: the start of the hand, the order of events, commitments and
 * client seeds in their windows, player signatures, every deck derived from its seeds and
 * source, every face shown beside a reference, private inputs opened, the reveal at the end.
 */
function foldPass(events, hashes, { seeds, inputs }, handId) {
  const st = {
    status: null,
    orders: [],
    decksComplete: true,
    playerSigs: 0,
    outcome: null,
    startBody: null,
    privateSeqs: [],
  };
  const fail = (seq, rule, expected, found, seat = null) => ({ problem: new Problem(seq, rule, expected, found, seat), st });
  const b0 = events[0].body;
  // Start
  if (b0.type !== 'hand_started') return fail(0, 'first_event', 'hand_started', b0.type);
  const id = events[0].hand;
  if (utf8Len(id) < 1 || utf8Len(id) > 128) return fail(0, 'hand_id', 'a hand id of 1 to 128 bytes', `${utf8Len(id)} bytes`);
  if (has(b0, 'prev_hand')) {
    const ph = b0.prev_hand.hand;
    if (b0.hand_no < 2) return fail(0, 'prev_hand', 'no prev_hand in hand 1', `prev_hand in hand ${b0.hand_no}`);
    if (utf8Len(ph) < 1 || utf8Len(ph) > 128 || ph === id) return fail(0, 'prev_hand', 'another hand id of 1 to 128 bytes', JSON.stringify(ph));
  }
  if (has(b0, 'seed_chain')) {
    const { position, length } = b0.seed_chain;
    if (!(position >= 1 && position <= length && length <= 1000000)) return fail(0, 'seed_chain', '1 <= position <= length <= 1000000', `position ${position}, length ${length}`);
  }
  if (b0.player_signatures === 'required') {
    const s = b0.seats.findIndex((x) => !has(x, 'public_key'));
    if (s >= 0) return fail(0, 'player_signatures', 'a public key for every seat', 'a seat without one', s);
  }
  if (b0.shuffle_version !== 1) return fail(0, 'shuffle_version', 'shuffle version 1', `version ${b0.shuffle_version}`);
  for (let j = 0; j < b0.seats.length; j++) {
    if (b0.seats[j].seat !== j) return fail(0, 'seats', `seat ${j}`, `seat ${b0.seats[j].seat}`);
  }
  st.startBody = b0;
  st.status = 'in_progress';

  const openings = new Map();
  for (const x of inputs) if (!openings.has(x.seq)) openings.set(x.seq, x);
  let committed = 0;
  let used = 0;
  const clientSeeds = new Map(); // k -> Map(seat -> bytes)
  let revealed = false;
  for (let i = 0; i < events.length; i++) {
    const e = events[i];
    const b = e.body;
    const seatOf = (a) => (isObj(a) ? a.seat : null);
    if (e.v !== 1) return fail(i, 'event_version', 'v 1', `v ${e.v}`);
    if (revealed) return fail(i, 'after_reveal', 'no event after seeds_revealed', b.type);
    if ((st.status === 'completed' || st.status === 'abandoned') && b.type !== 'seeds_revealed') return fail(i, 'after_end', 'seeds_revealed', b.type);
    if (i > 0 && e.time_ms < events[i - 1].time_ms) return fail(i, 'time_order', `time_ms at least ${events[i - 1].time_ms}`, `${e.time_ms}`);
    if (i > 0 && events[i - 1].body.type === 'shuffled') {
      const k = events[i - 1].body.shuffle;
      if (b.type !== 'shuffle_committed' || b.shuffle !== k + 1) {
        return fail(i, 'commit_at_once', `shuffle_committed ${k + 1}`, b.type === 'shuffle_committed' ? `shuffle_committed ${b.shuffle}` : b.type);
      }
    }
    if (has(e, 'player_sig') && b.type !== 'action') return fail(i, 'player_signature', 'no player signature on a ' + b.type, 'a player signature');
    switch (b.type) {
      case 'hand_started':
        if (i !== 0) return fail(i, 'first_event', 'hand_started only at event 0', `hand_started at event ${i}`);
        committed = 1;
        break;
      case 'shuffle_committed':
        if (b.shuffle !== committed || b.shuffle !== used) return fail(i, 'commitment_order', `shuffle ${committed} (committed ${committed}, used ${used})`, `shuffle ${b.shuffle}`);
        committed++;
        break;
      case 'client_seed': {
        if (!b0.client_entropy) return fail(i, 'client_entropy', 'no client seeds at this table', 'a client seed', b.seat);
        if (b.shuffle !== used || b.shuffle >= committed) return fail(i, 'client_seed_window', `a seed for shuffle ${used}, committed and not yet used`, `shuffle ${b.shuffle}`, b.seat);
        if (b.seat >= b0.seats.length) return fail(i, 'seat', `a seat below ${b0.seats.length}`, `seat ${b.seat}`, b.seat);
        if (!clientSeeds.has(b.shuffle)) clientSeeds.set(b.shuffle, new Map());
        const m = clientSeeds.get(b.shuffle);
        if (m.has(b.seat)) return fail(i, 'client_seed_once', 'one client seed per seat and shuffle', 'a second one', b.seat);
        m.set(b.seat, fromHex(b.seed));
        break;
      }
      case 'shuffled': {
        const k = b.shuffle;
        if (k !== used) return fail(i, 'shuffle_order', `shuffle ${used}`, `shuffle ${k}`);
        if (k >= seeds.length) return fail(i, 'server_seed', `a revealed seed for shuffle ${k}`, 'none');
        if (k >= committed) return fail(i, 'commitment', `a commitment to shuffle ${k}`, 'none');
        const clients = [...(clientSeeds.get(k) ?? new Map())].map(([seat, seed]) => ({ seat, seed }));
        let ds;
        try {
          ds = deckSeed(seeds[k], handId, k, clients);
        } catch (err) {
          if (err instanceof ShuffleError) return fail(i, 'deck_seed', 'a deck seed', err.kind);
          throw err;
        }
        let cards = null;
        if (has(b, 'source')) {
          if (has(b.source, 'deck')) {
            cards = deckCards(b.source.deck);
          } else {
            const faces = [];
            for (const r of b.source.gather) {
              const o = r.shuffle < k ? st.orders[r.shuffle] : undefined;
              if (o === null) {
                faces.length = 0;
                break;
              }
              if (o === undefined || r.pos >= o.length) return fail(i, 'shuffle_source', 'references to cards of earlier shuffles', `{shuffle ${r.shuffle}, pos ${r.pos}}`);
              faces.push(o[r.pos]);
            }
            cards = faces.length === b.source.gather.length ? sortCanonical(faces) : null;
          }
          if (cards && cards.length !== b.cards) return fail(i, 'shuffle_request', `${cards.length} cards, as its source names`, `${b.cards} cards`);
        }
        if (cards) {
          st.orders[k] = shuffleCards(cards, ds).order;
        } else {
          st.orders[k] = null;
          st.decksComplete = false;
        }
        used++;
        const wf = wrongFace(b.effects, st.orders);
        if (wf) return fail(i, 'effects', wf.expected, wf.found);
        break;
      }
      case 'action': {
        const seat = seatOf(b.actor);
        if (!has(e, 'player_sig')) {
          if (seat !== null && b0.player_signatures === 'required') return fail(i, 'player_signature_required', 'a player signature', 'none', seat);
        } else {
          if (seat === null) return fail(i, 'player_signature', 'no player signature on an action by the service', 'a player signature');
          const s = b0.seats[seat];
          if (!s || !has(s, 'public_key')) return fail(i, 'player_signature', 'a seat with a registered key', 'a seat without one', seat);
          const pub = fromHex(s.public_key);
          const kid = keyIdOf(pub);
          if (e.player_sig.key_id !== kid) return fail(i, 'player_signature', `key id ${kid}`, e.player_sig.key_id, seat);
          if (!verifyStrict(pub, fromHex(e.player_sig.sig), playerMessage(e))) return fail(i, 'player_signature', 'a player signature that verifies', 'one that does not', seat);
          st.playerSigs++;
        }
        const wf = wrongFace(b.effects, st.orders);
        if (wf) return fail(i, 'effects', wf.expected, wf.found, seat);
        break;
      }
      case 'private_action': {
        const seat = seatOf(b.actor);
        const o = openings.get(i);
        if (!o) return fail(i, 'private_input', 'an opening in seeds_revealed', 'none', seat);
        const c = toHex(privateInputCommitment(fromHex(o.salt), o.action, b.actor, e.hand, i));
        if (c !== b.commitment) return fail(i, 'private_input', `an opening of commitment ${b.commitment}`, `one of ${c}`, seat);
        st.privateSeqs.push(i);
        break;
      }
      case 'hand_ended':
        st.status = 'completed';
        st.outcome = b.outcome;
        break;
      case 'abandoned':
        if (scalarCount(b.reason) > 500) return fail(i, 'abandon_reason', 'a reason of at most 500 characters', `${scalarCount(b.reason)} characters`);
        st.status = 'abandoned';
        break;
      case 'seeds_revealed': {
        if (st.status !== 'completed' && st.status !== 'abandoned') return fail(i, 'reveal_at_end', 'the hand over', 'a hand still running');
        const got = (b.inputs ?? []).map((x) => x.seq);
        if (!jsonEqual(got, st.privateSeqs)) return fail(i, 'reveal_inputs', `openings of events [${st.privateSeqs.join(', ')}]`, `[${got.join(', ')}]`);
        revealed = true;
        break;
      }
      default:
        break;
    }
  }
  return { problem: null, st };
}

/**
 * Verifies a hand bundle. `input` is the file's text (best: read strictly), its bytes, or
 * the parsed JSON. Never throws for bad input.
 */
export async function verifyBundle(input, opts = {}) {
  try {
    return verifyBundleSync(input, opts);
  } catch (e) {
    // a bug, not a verdict: still no throw, but say so
    const p = new Problem(null, 'unreadable', 'a bundle the verifier can judge', `internal error: ${e && e.message}`);
    return resultOf({ problem: p, game: null, hand: null });
  }
}

function resultOf({ problem, game, hand, applicable = {}, done = [], notes = {}, decks = {}, extra = {} }) {
  const checks = buildChecks(problem, { applicable, done, notes });
  const first = checks.find((c) => c.ok === false) ?? null;
  return { ok: problem === null, game, hand_id: hand, checks, decks, first_problem: first, ...extra };
}

/** The synchronous core of verifyBundle (also used for the hands of a match). */
export function verifyBundleSync(input, opts = {}) {
  let value;
  try {
    value = readInput(input);
  } catch (e) {
    if (e instanceof UnreadableJson) return resultOf({ problem: new Problem(null, 'unreadable', 'a JSON text the format reads', e.message), game: null, hand: null });
    throw e;
  }
  let env;
  let trusted;
  try {
    env = readEnvelope(value);
    trusted = readTrustedKeys(opts.trustedKeys);
  } catch (e) {
    if (e instanceof Unreadable) {
      const hand = isObj(value) && typeof value.hand === 'string' ? value.hand : null;
      const game = isObj(value) && typeof value.game === 'string' ? value.game : null;
      return resultOf({ problem: new Problem(null, e.rule, 'a readable hand bundle (docs/BUNDLE.md §1)', e.message), game, hand });
    }
    throw e;
  }
  const events = env.records.map((r) => r.event);
  const ev0 = isObj(events[0]) && isObj(events[0].body) ? events[0].body : {};
  const anyPlayerSig = events.some((e) => isObj(e) && has(e, 'player_sig'));
  const lastBody = isObj(events[events.length - 1]) && isObj(events[events.length - 1].body) ? events[events.length - 1].body : {};
  const applicable = {
    seed_chain: has(ev0, 'seed_chain') || has(lastBody, 'chain_seed'),
    player_signatures: anyPlayerSig || ev0.player_signatures === 'required',
    private_inputs: events.some((e) => isObj(e) && isObj(e.body) && e.body.type === 'private_action') || has(lastBody, 'inputs'),
    log_proof: false,
  };
  const notes = {
    seed_chain: 'not applicable: the hand is not dealt from a seed chain',
    player_signatures: 'not applicable: no action carries a player signature',
    private_inputs: 'not applicable: the hand has no private action',
    log_proof: env.logProof === undefined ? 'not applicable: the bundle carries no log proof' : 'not checked in the browser',
  };
  const trust = trusted ? 'trusted_key' : 'bundle_keys_only';
  const base = { game: env.game, hand: env.hand, applicable, notes };
  const extra = (more) => ({ trust, status: null, signers: [], player_signatures_verified: 0, outcome: null, engine: ENGINE_NOTE, ...more });

  // Pass 1
  const p1 = integrityPass({ hand: env.hand, keys: env.keys, records: env.records, trusted });
  if (p1.problem) return resultOf({ ...base, problem: p1.problem, extra: extra({ signers: p1.signers }) });
  const done = ['signatures'];
  // Pass 2
  const p2 = revealPass(events, { walkAnchor: opts.walkAnchor !== false });
  if (p2.problem) return resultOf({ ...base, problem: p2.problem, done, extra: extra({ signers: p1.signers }) });
  done.push('seed_chain');
  // Pass 3
  const p3 = foldPass(events, p1.hashes, p2, events[0].hand);
  const decks = {};
  p3.st.orders.forEach((o, k) => {
    if (o) decks[k] = o;
  });
  const more = extra({ signers: p1.signers, status: p3.st.startBody ? p3.st.status : null, player_signatures_verified: p3.st.playerSigs, outcome: p3.st.outcome });
  if (!p3.st.decksComplete) {
    applicable.decks = false;
    notes.decks = 'not derived: a shuffle records no source, so only the rules engine can name its cards';
  }
  if (p3.problem) return resultOf({ ...base, problem: p3.problem, done, decks, extra: more });
  // Header
  if (env.game !== ev0.game) return resultOf({ ...base, problem: new Problem(null, 'header', `game ${ev0.game}`, `game ${env.game}`), done, decks, extra: more });
  if (env.status !== p3.st.status) return resultOf({ ...base, problem: new Problem(null, 'header', `status ${p3.st.status}`, `status ${env.status}`), done, decks, extra: more });
  // The log proof (a v2 bundle's `log_proof`): checked only against a club log key the
  // user trusts (opts.logKey, a vkey) and a checkpoint (opts.checkpoint, or the proof's own).
  let logCheck = null;
  const official = env.logProof === undefined ? null : proofOfBundle(env.hand, env.logProof);
  if (official) {
    // docs/BUNDLE.md §9, as `replayer verify` checks it: the checkpoint signed by the log
    // key given, else by a trusted key, else by one of the bundle's own keys.
    const note = opts.checkpoint ?? official.note;
    const vkeys = opts.logKey
      ? [opts.logKey]
      : [...(trusted ? trusted.values() : env.keys.map((k) => k.pub))].map((pub) => vkeyOf(official.proof.origin, pub));
    const results = vkeys.map((k) => checkLogProof(value, official.proof, note, k));
    logCheck = results.find((r) => r.ok) ?? results[0] ?? { ok: false, message: 'no key to check the checkpoint with' };
    if (logCheck.ok && !opts.logKey && !trusted) logCheck = { ok: true, message: `${logCheck.message} (the checkpoint checked ONLY against the keys the bundle itself carries)` };
  } else if (env.logProof !== undefined) {
    const lp = env.logProof;
    const note = opts.checkpoint ?? (isObj(lp) && typeof lp.checkpoint === 'string' ? lp.checkpoint : null);
    if (opts.logKey && note) {
      const file = isObj(lp) && has(lp, 'checkpoint') ? Object.fromEntries(Object.entries(lp).filter(([k]) => k !== 'checkpoint')) : lp;
      logCheck = checkLogProof(value, file, note, opts.logKey);
    } else {
      notes.log_proof = 'not checked in the browser: give the club log\'s key (opts.logKey) and a checkpoint to check it';
    }
  }
  notes.decks = notes.decks ?? `${Object.keys(decks).length} shuffle(s) derived from their seeds; every face shown matches`;
  notes.commitments = `${p2.seeds.length} server seed(s) match their commitments`;
  notes.chain = `${events.length} events linked by their hashes`;
  notes.signatures = `${events.length} service signatures verify (${trust === 'trusted_key' ? 'against the trusted key(s) given' : 'ONLY against the keys the bundle itself carries'})`;
  if (applicable.player_signatures) notes.player_signatures = `${p3.st.playerSigs} player signature(s) verify`;
  if (logCheck) {
    if (logCheck.ok) {
      applicable.log_proof = true;
      notes.log_proof = logCheck.message;
    } else {
      return resultOf({ ...base, problem: new Problem(null, 'log_proof', 'a log proof that leads to the checkpoint', logCheck.message), done: ['format', 'chain', 'signatures', 'commitments', 'seed_chain', 'decks', 'player_signatures', 'private_inputs'], decks, extra: more });
    }
  }
  return resultOf({ ...base, problem: null, decks, extra: more });
}

export const ENGINE_NOTE = 'the rules and settlement (the engine re-run) are not checked by this verifier: they come from the server\'s verdict';

/** The ids and hashes of a verified bundle's records, for match links. */
export function recordHashes(value) {
  return value.records.map((r) => toHex(eventHash(r.event)));
}

/**
 * Chain and signatures only, for a running hand's records (no reveal yet). `records` is
 * an array of records, the API's `{"events": [...]}` answer, or its text. `opts.keys` the
 * service keys (the `/v1/keys` answer or its `keys` array) or `opts.trustedKeys` (hex).
 */
export async function verifyRecords(records, opts = {}) {
  const only = ['format', 'chain', 'signatures', 'player_signatures'];
  const finish = (problem, more = {}) => {
    const checks = buildChecks(problem, {}).filter((c) => only.includes(c.id));
    return { ok: problem === null, checks, first_problem: checks.find((c) => c.ok === false) ?? null, ...more };
  };
  try {
    let v;
    try {
      v = readInput(records);
    } catch (e) {
      if (e instanceof UnreadableJson) return finish(new Problem(null, 'unreadable', 'JSON', e.message));
      throw e;
    }
    if (isObj(v) && Array.isArray(v.events)) v = v.events;
    if (!Array.isArray(v) || v.length === 0) return finish(new Problem(null, 'unreadable', 'an array of records', 'something else'));
    let recs;
    let keys = [];
    let trusted;
    try {
      recs = v.map((r, i) => readRecord(r, i));
      let ks = opts.keys;
      if (isObj(ks) && Array.isArray(ks.keys)) ks = ks.keys;
      if (Array.isArray(ks)) {
        keys = ks.map((k) => {
          const pub = fromHex(String(k.public_key).trim());
          if (!decodePoint(pub)) throw new Unreadable('unreadable', 'a key that is not an Ed25519 public key');
          return { key_id: keyIdOf(pub), pub };
        });
      }
      trusted = readTrustedKeys(opts.trustedKeys);
    } catch (e) {
      if (e instanceof Unreadable) return finish(new Problem(null, e.rule, 'records as the API gives them', e.message));
      throw e;
    }
    const first = recs[0].event;
    const firstSeq = isObj(first) && Number.isInteger(first.seq) ? first.seq : 0;
    const hand = opts.hand ?? (isObj(first) && typeof first.hand === 'string' ? first.hand : null);
    const firstPrev = firstSeq === 0 ? ZERO_HASH : (opts.prevHash ?? null);
    if (!trusted && keys.length === 0) {
      return finish(new Problem(firstSeq, 'signer', 'a service key to check against (opts.keys or opts.trustedKeys)', 'none given'));
    }
    const p1 = integrityPass({ hand, keys, records: recs, trusted, firstSeq, firstPrev, checkBundleKeys: false });
    const more = { signers: p1.signers, head: p1.hashes.length ? toHex(p1.hashes[p1.hashes.length - 1]) : null, trust: trusted ? 'trusted_key' : 'given_keys', player_signatures_verified: 0 };
    if (p1.problem) return finish(p1.problem, more);
    // Player signatures, when the records start at the hand's first event (its seats' keys).
    const b0 = recs[0].event.body;
    if (firstSeq === 0 && b0.type === 'hand_started') {
      for (const r of recs) {
        const e = r.event;
        if (!has(e, 'player_sig')) continue;
        const seat = isObj(e.body.actor) ? e.body.actor.seat : null;
        const s = seat === null ? null : b0.seats[seat];
        if (e.body.type !== 'action' || !s || !has(s, 'public_key')) return finish(new Problem(e.seq, 'player_signature', 'a player signature only on an action by a seat with a key', 'one elsewhere', seat), more);
        const pub = fromHex(s.public_key);
        if (e.player_sig.key_id !== keyIdOf(pub) || !verifyStrict(pub, fromHex(e.player_sig.sig), playerMessage(e))) {
          return finish(new Problem(e.seq, 'player_signature', 'a player signature that verifies', 'one that does not', seat), more);
        }
        more.player_signatures_verified++;
      }
    }
    return finish(null, more);
  } catch (e) {
    return finish(new Problem(null, 'unreadable', 'records the verifier can judge', `internal error: ${e && e.message}`));
  }
}

export { readEnvelope, Unreadable };
