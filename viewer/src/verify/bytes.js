// Byte helpers: hex, UTF-8, concatenation, big-endian u32 (docs/SHUFFLE.md, Notation).
import { sha256 as nobleSha256 } from '@noble/hashes/sha2.js';

const encoder = new TextEncoder();

/** UTF-8 bytes of a string. */
export const utf8 = (s) => encoder.encode(s);

/** SHA-256 of the concatenation of the parts (FIPS 180-4), 32 bytes. */
export function sha256(...parts) {
  return nobleSha256(concat(...parts));
}

/** The concatenation of byte arrays. */
export function concat(...parts) {
  let len = 0;
  for (const p of parts) len += p.length;
  const out = new Uint8Array(len);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** u32be(v): 4 bytes, most significant first. */
export function u32be(v) {
  if (!Number.isInteger(v) || v < 0 || v > 0xffffffff) throw new RangeError(`not a u32: ${v}`);
  return new Uint8Array([(v >>> 24) & 0xff, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff]);
}

/** enc(x) = u32be(length) || x. */
export const enc = (x) => concat(u32be(x.length), x);

/** A tag followed by its 0x00 byte. */
export const tag = (s) => concat(utf8(s), new Uint8Array([0]));

/** Lowercase hex of bytes. */
export function toHex(b) {
  let s = '';
  for (const x of b) s += x.toString(16).padStart(2, '0');
  return s;
}

const HEX_ANY = /^(?:[0-9a-fA-F]{2})*$/;
const HEX_LOWER = /^(?:[0-9a-f]{2})*$/;

/** Bytes of a hex text (either case); throws on malformed hex. */
export function fromHex(h) {
  if (typeof h !== 'string' || !HEX_ANY.test(h)) throw new Error('malformed hex');
  const out = new Uint8Array(h.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(h.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/** Whether `h` is lowercase hex of exactly `chars` characters (any even count when null). */
export function isLowerHex(h, chars = null) {
  return typeof h === 'string' && HEX_LOWER.test(h) && (chars === null || h.length === chars);
}

/** Whether `h` is hex of either case of exactly `chars` characters. */
export function isAnyHex(h, chars) {
  return typeof h === 'string' && HEX_ANY.test(h) && h.length === chars;
}

/** Byte-wise equality. */
export function bytesEqual(a, b) {
  if (a.length !== b.length) return false;
  let d = 0;
  for (let i = 0; i < a.length; i++) d |= a[i] ^ b[i];
  return d === 0;
}
