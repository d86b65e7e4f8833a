// The event log of docs/EVENT-LOG.md, version 1: the written form of an event (§2–§3),
// its hash (§6), the service's signature message (§8) and the player's (§9).
import { canonicalBytes } from './json.js';
import { concat, isLowerHex, sha256, tag } from './bytes.js';
import { DECK_IDS } from './shuffle.js';

export const EVENT_HASH_TAG = tag('persian-cards/event/v1');
export const EVENT_SIG_TAG = tag('persian-cards/event-signature/v1');
export const ACTION_SIG_TAG = tag('persian-cards/action/v1');
export const PRIVATE_INPUT_TAG = tag('persian-cards/private-input/v1');

export const GAME_IDS = ['bist-o-yek', 'hokm', 'shelem', 'ghahve', 'pasur', 'haft-khabis', 'bluff', 'sheytoonak'];

/** §6: SHA-256("persian-cards/event/v1" || 0x00 || JCS(event)), over the event as given. */
export const eventHash = (event) => sha256(EVENT_HASH_TAG, canonicalBytes(event));

/** §8: the 65-byte message the service signs. */
export const serviceMessage = (hash) => concat(EVENT_SIG_TAG, hash);

/** §9: the player's message for an action event. */
export const playerMessage = (event) =>
  concat(
    ACTION_SIG_TAG,
    canonicalBytes({
      action: event.body.action,
      actor: event.body.actor,
      hand: event.hand,
      prev: event.prev,
      seq: event.seq,
    }),
  );

/** §3.9: the commitment of a private action's opening. */
export const privateInputCommitment = (salt, action, actor, hand, seq) =>
  sha256(PRIVATE_INPUT_TAG, salt, canonicalBytes({ action, actor, hand, seq }));

const MAX_U32 = 4294967295;
const MAX_U53 = 9007199254740991;

const isObj = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const isInt = (v, max, min = 0) => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
const has = (o, k) => Object.prototype.hasOwnProperty.call(o, k);

/** Thrown inside the shape check; carries what is wrong. */
class Shape extends Error {}

function members(o, where, required, optional = []) {
  if (!isObj(o)) throw new Shape(`${where} is not an object`);
  for (const k of required) if (!has(o, k)) throw new Shape(`${where} has no member "${k}"`);
  for (const k of Object.keys(o)) {
    if (!required.includes(k) && !optional.includes(k)) throw new Shape(`${where} has an unknown member "${k}"`);
    if (optional.includes(k) && o[k] === null) throw new Shape(`${where}.${k} is null (an optional member is absent, never null)`);
  }
}
const need = (ok, what) => {
  if (!ok) throw new Shape(what);
};
const str = (v, w) => need(typeof v === 'string', `${w} is not a string`);
const u32 = (v, w) => need(isInt(v, MAX_U32), `${w} is not an integer 0 to 2^32 - 1`);
const u53 = (v, w) => need(isInt(v, MAX_U53), `${w} is not an integer 0 to 2^53 - 1`);
const seat = (v, w) => need(isInt(v, 255), `${w} is not a seat 0 to 255`);
const hex = (v, chars, w) => need(isLowerHex(v, chars), `${w} is not ${chars} lowercase hex characters`);
const bool = (v, w) => need(typeof v === 'boolean', `${w} is not a boolean`);
const arr = (v, w) => need(Array.isArray(v), `${w} is not an array`);
const ref = (v, w) => {
  members(v, w, ['shuffle', 'pos']);
  u32(v.shuffle, `${w}.shuffle`);
  u32(v.pos, `${w}.pos`);
};
/** A penalty ruling carried into the match (docs/EVENT-LOG.md §3.1 `adjustments`). */
function adjustmentShape(a, w) {
  members(a, w, ['dispute', 'seq', 'hash', 'award']);
  str(a.dispute, `${w}.dispute`);
  u53(a.seq, `${w}.seq`);
  hex(a.hash, 64, `${w}.hash`);
  const aw = a.award;
  members(aw, `${w}.award`, ['penalty', 'section', 'offender', 'beneficiaries', 'points']);
  str(aw.penalty, `${w}.award.penalty`);
  str(aw.section, `${w}.award.section`);
  seat(aw.offender, `${w}.award.offender`);
  arr(aw.beneficiaries, `${w}.award.beneficiaries`);
  aw.beneficiaries.forEach((g, i) => {
    arr(g, `${w}.award.beneficiaries[${i}]`);
    g.forEach((x, j) => seat(x, `${w}.award.beneficiaries[${i}][${j}]`));
  });
  u32(aw.points, `${w}.award.points`);
}

/** Whether a value is a well-formed adjustment: for the match file's `trailing_adjustments`. */
export function isAdjustment(a) {
  try {
    adjustmentShape(a, 'adjustment');
    return true;
  } catch (e) {
    if (e instanceof Shape) return false;
    throw e;
  }
}

const actor = (v, w) => {
  if (v === 'service') return;
  need(isObj(v), `${w} is neither {"seat": n} nor "service"`);
  members(v, w, ['seat']);
  seat(v.seat, `${w}.seat`);
};

const BODY = {
  hand_started(b) {
    members(
      b,
      'body',
      ['type', 'club', 'table', 'hand_no', 'game', 'rules', 'match_state', 'seats', 'deck', 'shuffle_version', 'commitment', 'client_entropy'],
      ['prev_hand', 'seed_chain', 'player_signatures', 'adjustments'],
    );
    str(b.club, 'club');
    str(b.table, 'table');
    u53(b.hand_no, 'hand_no');
    need(GAME_IDS.includes(b.game), `game ${JSON.stringify(b.game)} is not a game id`);
    arr(b.seats, 'seats');
    b.seats.forEach((s, i) => {
      members(s, `seats[${i}]`, ['seat', 'player'], ['public_key']);
      seat(s.seat, `seats[${i}].seat`);
      str(s.player, `seats[${i}].player`);
      if (has(s, 'public_key')) hex(s.public_key, 64, `seats[${i}].public_key`);
    });
    need(DECK_IDS.includes(b.deck), `deck ${JSON.stringify(b.deck)} is not a deck id`);
    u32(b.shuffle_version, 'shuffle_version');
    hex(b.commitment, 64, 'commitment');
    bool(b.client_entropy, 'client_entropy');
    if (has(b, 'prev_hand')) {
      members(b.prev_hand, 'prev_hand', ['hand', 'hash']);
      str(b.prev_hand.hand, 'prev_hand.hand');
      hex(b.prev_hand.hash, 64, 'prev_hand.hash');
    }
    if (has(b, 'adjustments')) {
      arr(b.adjustments, 'adjustments');
      need(b.adjustments.length > 0, 'adjustments is empty (absent when there are none)');
      b.adjustments.forEach((a, i) => adjustmentShape(a, `adjustments[${i}]`));
    }
    if (has(b, 'seed_chain')) {
      members(b.seed_chain, 'seed_chain', ['anchor', 'length', 'position']);
      hex(b.seed_chain.anchor, 64, 'seed_chain.anchor');
      u32(b.seed_chain.length, 'seed_chain.length');
      u32(b.seed_chain.position, 'seed_chain.position');
    }
    if (has(b, 'player_signatures')) need(b.player_signatures === 'required', 'player_signatures is not "required"');
  },
  shuffle_committed(b) {
    members(b, 'body', ['type', 'shuffle', 'commitment']);
    u32(b.shuffle, 'shuffle');
    hex(b.commitment, 64, 'commitment');
  },
  client_seed(b) {
    members(b, 'body', ['type', 'shuffle', 'seat', 'seed']);
    u32(b.shuffle, 'shuffle');
    seat(b.seat, 'seat');
    need(isLowerHex(b.seed) && b.seed.length >= 2 && b.seed.length <= 128, 'seed is not 1 to 64 bytes of lowercase hex');
  },
  shuffled(b) {
    members(b, 'body', ['type', 'shuffle', 'reason', 'cards', 'effects'], ['missing', 'source']);
    u32(b.shuffle, 'shuffle');
    str(b.reason, 'reason');
    u32(b.cards, 'cards');
    arr(b.effects, 'effects');
    if (has(b, 'missing')) {
      arr(b.missing, 'missing');
      b.missing.forEach((s, i) => seat(s, `missing[${i}]`));
    }
    if (has(b, 'source')) {
      need(isObj(b.source), 'source is not an object');
      if (has(b.source, 'deck')) {
        members(b.source, 'source', ['deck']);
        need(DECK_IDS.includes(b.source.deck), 'source.deck is not a deck id');
      } else {
        members(b.source, 'source', ['gather']);
        arr(b.source.gather, 'source.gather');
        b.source.gather.forEach((r, i) => ref(r, `source.gather[${i}]`));
      }
    }
  },
  action(b) {
    members(b, 'body', ['type', 'actor', 'action', 'effects']);
    actor(b.actor, 'actor');
    arr(b.effects, 'effects');
  },
  private_action(b) {
    members(b, 'body', ['type', 'actor', 'commitment', 'public']);
    actor(b.actor, 'actor');
    hex(b.commitment, 64, 'commitment');
  },
  hand_ended(b) {
    members(b, 'body', ['type', 'outcome', 'next_match']);
  },
  abandoned(b) {
    members(b, 'body', ['type', 'reason']);
    str(b.reason, 'reason');
  },
  seeds_revealed(b) {
    members(b, 'body', ['type', 'seeds'], ['inputs', 'chain_seed']);
    arr(b.seeds, 'seeds');
    b.seeds.forEach((s, i) => {
      members(s, `seeds[${i}]`, ['shuffle', 'server_seed']);
      u32(s.shuffle, `seeds[${i}].shuffle`);
      // its case and length are rule server_seed, judged in pass 2
      str(s.server_seed, `seeds[${i}].server_seed`);
    });
    if (has(b, 'chain_seed')) hex(b.chain_seed, 64, 'chain_seed');
    if (has(b, 'inputs')) {
      arr(b.inputs, 'inputs');
      b.inputs.forEach((x, i) => {
        members(x, `inputs[${i}]`, ['seq', 'salt', 'action']);
        u53(x.seq, `inputs[${i}].seq`);
        hex(x.salt, 64, `inputs[${i}].salt`);
      });
    }
  },
};

/**
 * §2–§3, the written form: null when `event` is an event of version 1 (with any `v` from 0
 * to 2^32 − 1; its value is checked in the fold), else a text saying what is wrong.
 */
export function eventFormatProblem(event) {
  try {
    members(event, 'the event', ['v', 'hand', 'seq', 'prev', 'time_ms', 'body'], ['player_sig']);
    u32(event.v, 'v');
    str(event.hand, 'hand');
    u53(event.seq, 'seq');
    hex(event.prev, 64, 'prev');
    u53(event.time_ms, 'time_ms');
    need(isObj(event.body), 'body is not an object');
    need(typeof event.body.type === 'string' && has(BODY, event.body.type), `body type ${JSON.stringify(event.body.type)} is not a body of version 1`);
    BODY[event.body.type](event.body);
    if (has(event, 'player_sig')) {
      members(event.player_sig, 'player_sig', ['key_id', 'sig']);
      str(event.player_sig.key_id, 'player_sig.key_id');
      hex(event.player_sig.sig, 128, 'player_sig.sig');
    }
    return null;
  } catch (e) {
    if (e instanceof Shape) return e.message;
    throw e;
  }
}
