// Ed25519 as docs/EVENT-LOG.md §8 asks: strict verification (RFC 8032 §5.1.7 with the
// rules of ed25519-dalek's verify_strict): S below the group order L, neither the public
// key A nor the signature's R of small order, and R' = [S]B − [k]A, k = SHA-512(R || A || M)
// mod L, equal to R byte for byte (the cofactorless equation). The curve arithmetic is
// @noble/curves'; the equation is written here so that it is the one the docs name
// (noble's own `verify` checks the cofactored equation).
import { ed25519 } from '@noble/curves/ed25519.js';
import { sha512 } from '@noble/hashes/sha2.js';
import { bytesEqual, concat, sha256, toHex } from './bytes.js';

const Point = ed25519.Point;
const L = Point.Fn.ORDER;

function leToBigInt(b) {
  let x = 0n;
  for (let i = b.length - 1; i >= 0; i--) x = (x << 8n) | BigInt(b[i]);
  return x;
}

/** Decodes a 32-byte public key strictly (canonical y, a curve point), or null. */
export function decodePoint(bytes) {
  if (!(bytes instanceof Uint8Array) || bytes.length !== 32) return null;
  try {
    return Point.fromBytes(bytes, false);
  } catch {
    return null;
  }
}

/** Whether 32 bytes are a valid public key: an Ed25519 point by RFC 8032 decoding. */
export const isValidPublicKey = (bytes) => decodePoint(bytes) !== null;

// A bundle's records are signed by one or two keys: their decoded points are kept, with
// precomputed multiples, so that each signature costs one multiplication less to set up.
const keyCache = new Map();
function keyPoint(pub) {
  const id = String.fromCharCode(...pub);
  let A = keyCache.get(id);
  if (A === undefined) {
    A = decodePoint(pub);
    if (A && !A.isSmallOrder()) A.precompute(8, false);
    if (keyCache.size > 64) keyCache.clear();
    keyCache.set(id, A);
  }
  return A;
}

/** Strict verification of a 64-byte signature over `msg` under the 32-byte key `pub`. */
export function verifyStrict(pub, sig, msg) {
  if (!(sig instanceof Uint8Array) || sig.length !== 64) return false;
  if (!(pub instanceof Uint8Array) || pub.length !== 32) return false;
  const A = keyPoint(pub);
  if (!A) return false;
  const rBytes = sig.subarray(0, 32);
  const R = decodePoint(rBytes);
  if (!R) return false;
  const s = leToBigInt(sig.subarray(32, 64));
  if (s >= L) return false;
  if (A.isSmallOrder() || R.isSmallOrder()) return false;
  const k = leToBigInt(sha512(concat(rBytes, pub, msg))) % L;
  // R' = [S]B − [k]A
  const sB = s === 0n ? Point.ZERO : Point.BASE.multiplyUnsafe(s);
  const kA = k === 0n ? Point.ZERO : A.multiplyUnsafe(k);
  const rPrime = sB.subtract(kA);
  return bytesEqual(rPrime.toBytes(), rBytes);
}

/** §8: "ed25519:" + lowercase hex of the first 8 bytes of SHA-256(public key). */
export const keyIdOf = (pub) => 'ed25519:' + toHex(sha256(pub).subarray(0, 8));

/** Ed25519 signing (used by the tests to forge re-signed bundles). */
export const sign = (secret, msg) => ed25519.sign(msg, secret);

/** The public key of a 32-byte secret. */
export const publicKeyOf = (secret) => ed25519.getPublicKey(secret);
