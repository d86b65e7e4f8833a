// The committed shuffle of docs/SHUFFLE.md, version 1, re-derived from the text:
// commitment (§2), deck seed (§3), ChaCha20 keystream (§4), uniform (§5), Fisher–Yates (§6),
// cards and deck ids (§7), seed chains (§12).
import { chacha20 } from '@noble/ciphers/chacha.js';
import { sha256 as nobleSha256 } from '@noble/hashes/sha2.js';
import { concat, enc, sha256, tag, u32be, utf8 } from './bytes.js';

export const SHUFFLE_VERSION = 1;

const COMMITMENT_TAG = tag('persian-cards/commitment/v1');
const DECK_SEED_TAG = tag('persian-cards/deck-seed/v1');
const CHAIN_TAG = tag('persian-cards/seed-chain/v1');
const CHAIN_SERVER_SEED_TAG = tag('persian-cards/chain-server-seed/v1');

/** §2: SHA-256("persian-cards/commitment/v1" || 0x00 || server_seed). */
export const commitmentOf = (serverSeed) => sha256(COMMITMENT_TAG, serverSeed);

/** Errors of §3, with the names of the summary of errors. */
export class ShuffleError extends Error {
  constructor(kind, message) {
    super(message);
    this.kind = kind;
  }
}

/**
 * §3: the bytes hashed into the deck seed. `clientSeeds` is [{seat, seed: Uint8Array}] in
 * any order: they are sorted by seat here.
 */
export function deckSeedPreimage(serverSeed, handId, k, clientSeeds) {
  const id = utf8(handId);
  if (id.length === 0) throw new ShuffleError('EmptyHandId', 'the hand id is empty');
  if (id.length > 128) throw new ShuffleError('HandIdTooLong', 'the hand id is over 128 bytes');
  if (serverSeed.length !== 32) throw new ShuffleError('HexLength', 'a server seed is 32 bytes');
  const sorted = [...clientSeeds].sort((a, b) => a.seat - b.seat);
  const parts = [DECK_SEED_TAG, serverSeed, enc(id), u32be(k), u32be(sorted.length)];
  for (let i = 0; i < sorted.length; i++) {
    const { seat, seed } = sorted[i];
    if (i > 0 && sorted[i - 1].seat === seat) throw new ShuffleError('DuplicateSeat', `two client seeds for seat ${seat}`);
    if (seed.length < 1 || seed.length > 64) throw new ShuffleError('ClientSeedLength', 'a client seed is 1 to 64 bytes');
    parts.push(u32be(seat), enc(seed));
  }
  return concat(...parts);
}

/** §3: the deck seed. */
export const deckSeed = (serverSeed, handId, k, clientSeeds) =>
  sha256(deckSeedPreimage(serverSeed, handId, k, clientSeeds));

/**
 * §4: the keystream of ChaCha20 (RFC 8439) keyed by the deck seed, zero nonce, counter
 * from 0, read as 32-bit little-endian words, strictly in order.
 */
export class Keystream {
  constructor(seed) {
    this.key = seed;
    this.block = 0;
    this.buf = new Uint8Array(0);
    this.pos = 0;
    this.used = 0;
  }
  nextWord() {
    if (this.pos + 4 > this.buf.length) {
      // 16 blocks at a time: encrypting zeros gives the keystream itself
      const zeros = new Uint8Array(64 * 16);
      this.buf = chacha20(this.key, new Uint8Array(12), zeros, undefined, this.block);
      this.block += 16;
      this.pos = 0;
    }
    const b = this.buf;
    const p = this.pos;
    this.pos += 4;
    this.used++;
    return (b[p] | (b[p + 1] << 8) | (b[p + 2] << 16) | (b[p + 3] << 24)) >>> 0;
  }
}

const TWO32 = 4294967296;

/** §5: an unbiased integer in 0 … b−1 by rejection sampling. */
export function uniform(stream, b) {
  if (!Number.isInteger(b) || b < 1 || b > TWO32) throw new RangeError('uniform: 1 <= b <= 2^32');
  const zone = TWO32 - (TWO32 % b);
  for (;;) {
    const x = stream.nextWord();
    if (x < zone) return x % b;
  }
}

/** §6: the permutation of n items; a[p] is the canonical position of the item at p. */
export function fisherYates(n, stream) {
  const a = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i >= 1; i--) {
    const j = uniform(stream, i + 1);
    const t = a[i];
    a[i] = a[j];
    a[j] = t;
  }
  return a;
}

// §7: cards, canonical order, deck ids.
export const SUITS = ['S', 'H', 'D', 'C'];
export const RANKS = ['2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K', 'A'];
export const JOKERS = ['BJ', 'CJ'];

/** The 54 distinct cards in canonical order. */
export const CANONICAL = [...SUITS.flatMap((s) => RANKS.map((r) => r + s)), ...JOKERS];
const CANONICAL_INDEX = new Map(CANONICAL.map((c, i) => [c, i]));

/** Whether `c` is a card code of §7. */
export const isCard = (c) => typeof c === 'string' && CANONICAL_INDEX.has(c);

/** Position of a card in the canonical order (for sorting), or -1. */
export const canonicalIndex = (c) => CANONICAL_INDEX.get(c) ?? -1;

/** Sorts card codes into canonical order (duplicates stay adjacent). */
export const sortCanonical = (cards) => [...cards].sort((a, b) => canonicalIndex(a) - canonicalIndex(b));

/** The deck-spec table of §7: ranks, removed cards, jokers, packs. */
const DECK_SPECS = {
  'standard-52': { ranks: RANKS, removed: [], jokers: [], packs: 1 },
  'standard-54': { ranks: RANKS, removed: [], jokers: ['BJ', 'CJ'], packs: 1 },
  'bist-o-yek-36': { ranks: RANKS.slice(4), removed: [], jokers: [], packs: 1 },
  'hokm-51-without-2S': { ranks: RANKS, removed: ['2S'], jokers: [], packs: 1 },
  'hokm-51-without-2H': { ranks: RANKS, removed: ['2H'], jokers: [], packs: 1 },
  'hokm-51-without-2D': { ranks: RANKS, removed: ['2D'], jokers: [], packs: 1 },
  'hokm-51-without-2C': { ranks: RANKS, removed: ['2C'], jokers: [], packs: 1 },
  'ghahve-52': { ranks: RANKS, removed: ['2H', '2D'], jokers: ['BJ', 'CJ'], packs: 1 },
  'bluff-104': { ranks: RANKS, removed: [], jokers: [], packs: 2 },
  'sheytoonak-53': { ranks: RANKS, removed: [], jokers: ['BJ'], packs: 1 },
};

export const DECK_IDS = Object.keys(DECK_SPECS);

/** The cards of a deck id in canonical order, or null for an unknown id. */
export function deckCards(id) {
  const spec = Object.prototype.hasOwnProperty.call(DECK_SPECS, id) ? DECK_SPECS[id] : null;
  if (!spec) return null;
  const pack = [...SUITS.flatMap((s) => spec.ranks.map((r) => r + s)).filter((c) => !spec.removed.includes(c)), ...spec.jokers];
  const out = [];
  for (let k = 0; k < spec.packs; k++) out.push(...pack);
  return out;
}

/** §6–§7: shuffle `cards` (canonical order) with a deck seed; returns {permutation, order, wordsUsed}. */
export function shuffleCards(cards, seed) {
  const ks = new Keystream(seed);
  const permutation = fisherYates(cards.length, ks);
  return { permutation, order: permutation.map((p) => cards[p]), wordsUsed: ks.used };
}

// §12: seed chains.

/** One step down the chain: c_{i−1} = SHA-256(tag || u32be(i) || c_i). */
export const chainStep = (i, c) => sha256(CHAIN_TAG, u32be(i), c);

/**
 * Walks c_position down `steps` steps (to c_{position−steps}): up to a million hashes for a
 * single bundle, so one 64-byte preimage buffer is reused (tag, position, chain seed).
 */
export function chainWalk(c, position, steps) {
  const buf = new Uint8Array(CHAIN_TAG.length + 4 + 32);
  buf.set(CHAIN_TAG, 0);
  const at = CHAIN_TAG.length;
  buf.set(c, at + 4);
  for (let i = position; i > position - steps; i--) {
    buf[at] = (i >>> 24) & 0xff;
    buf[at + 1] = (i >>> 16) & 0xff;
    buf[at + 2] = (i >>> 8) & 0xff;
    buf[at + 3] = i & 0xff;
    buf.set(nobleSha256(buf), at + 4);
  }
  return buf.slice(at + 4);
}

/** The server seed of shuffle j of the hand whose chain seed is c. */
export const chainServerSeed = (c, j) => sha256(CHAIN_SERVER_SEED_TAG, c, u32be(j));
