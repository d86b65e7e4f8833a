// Shared helpers for the verifier's tests: where the vectors are, the test keys, re-signing.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { eventHash, serviceMessage } from '../src/verify/eventlog.js';
import { sign, publicKeyOf } from '../src/verify/ed25519.js';
import { toHex, fromHex, sha256, utf8 } from '../src/verify/bytes.js';
import { canonicalText } from '../src/verify/json.js';

export const HERE = dirname(fileURLToPath(import.meta.url));
export const VIEWER = join(HERE, '..');
export const REPO = join(VIEWER, '..');
export const VECTORS = join(REPO, 'docs', 'vectors');
export const FIXTURES = join(HERE, 'fixtures');

export const readText = (p) => readFileSync(p, 'utf8');
export const readJson = (p) => JSON.parse(readText(p));
export const listJson = (dir) => (existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.json')).sort().map((f) => join(dir, f)) : []);

/** The public test key of the vectors (secret 0x01 × 32). */
export const TEST_SECRET = new Uint8Array(32).fill(1);
export const TEST_PUBLIC = toHex(publicKeyOf(TEST_SECRET));

/** Re-hashes and re-signs records from index `from` on, re-linking `prev` (a forger with the key). */
export function resign(bundle, from = 0, secret = TEST_SECRET) {
  for (let i = from; i < bundle.records.length; i++) {
    const r = bundle.records[i];
    if (i > 0) r.event.prev = bundle.records[i - 1].hash;
    const h = eventHash(r.event);
    r.hash = toHex(h);
    r.sig = toHex(sign(secret, serviceMessage(h)));
  }
  return bundle;
}

export const clone = (v) => JSON.parse(JSON.stringify(v));
export { fromHex, toHex };

/** Every hand bundle we have, as [name, bundle]. */
export function allBundles() {
  const out = [];
  const add = (name, v) => {
    if (v.format === 'persian-cards/match') v.hands.forEach((h, i) => out.push([`${name}#${i}`, h]));
    else out.push([name, v]);
  };
  for (const f of [...listJson(join(VECTORS, 'bundles-v1')), ...listJson(join(VECTORS, 'match-v1'))]) add(`vectors/${f.split('/').slice(-2).join('/')}`, readJson(f));
  for (const f of listJson(FIXTURES)) add(`fixtures/${f.split('/').pop()}`, readJson(f));
  return out;
}

export const viewDigest = (v) => toHex(sha256(utf8(canonicalText(v)))).slice(0, 32);

