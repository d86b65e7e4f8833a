// Issue 28, point 1: a log key (a C2SP vkey, docs/TRANSPARENCY.md §5) whose base64 holds a
// `+` was refused ("the log key is not a valid vkey"), so every hand signed by such a key was
// shown as failing its log proof. These tests use many keys, the published vkeys of real
// logs, and a checkpoint signed by one of them (Go's checksum database).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { parseVkey, vkeyOf, openCheckpoint } from '../src/verify/transparency.js';
import { verifyBundle } from '../src/verify/index.js';
import { publicKeyOf, sign, keyIdOf } from '../src/verify/ed25519.js';
import { sha256, utf8, concat } from '../src/verify/bytes.js';
import { VECTORS, readJson, resign, clone, toHex } from './helpers.mjs';

// Published vkeys of real logs (Ed25519, type byte 0x01). Their key ids are checked by
// parseVkey against SHA-256(name || 0x0A || 0x01 || key), so a typo here fails the test.
const REAL_VKEYS = [
  // Go's checksum database: the key cmd/go carries (cmd/go/internal/modfetch/key.go).
  ['sum.golang.org', 'sum.golang.org+033de0ae+Ac4zctda0e5eza+HJyk9SxEdh+s3Ux18htTTAD8OuAn8'],
  // The Armory Drive firmware transparency log.
  ['armory-drive-log', 'armory-drive-log+16541b8f+AYDPmG5pQp4Bgu0a1mr5uDZ196+t8lIVIfWQSPWmP+Jv'],
  // The example key of golang.org/x/mod/sumdb/note's documentation ('/' in its base64).
  ['PeterNeumann', 'PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW'],
];

// A checkpoint of Go's checksum database signed by sum.golang.org (tree size 65,664,258),
// as served at https://sum.golang.org/latest. Its origin is not its key's name, which this
// project's checkpoints require (§5), so it opens as far as that check: the signature holds.
const GO_NOTE =
  'go.sum database tree\n65664258\nWVVNVD2qx+fTq31zkj6UAqxT5X6HvGphGM+o8Thnbsg=\n\n' +
  '\u2014 sum.golang.org Az3grligJmgX7KGyGPKybykNTh3VgsbLvUuvOwrM5zLVlulmFp2wdvbxOw74/gcNxURShXEpb7RXcs3+BYflYN+w0gQ=\n';

test('the published vkeys of real logs are read, "+" and "/" in their base64 included', () => {
  assert.ok(REAL_VKEYS.some(([, v]) => v.split('+').length > 3), 'a key whose base64 holds a +');
  for (const [name, vkey] of REAL_VKEYS) {
    const k = parseVkey(vkey);
    assert.ok(k, vkey);
    assert.equal(k.name, name);
    assert.equal(k.pub.length, 32);
    // Written back, the same text: nothing was lost at a '+'.
    assert.equal(vkeyOf(name, k.pub), vkey);
    // One changed character of the key id, or of the key, is refused.
    assert.equal(parseVkey(vkey.replace(/\+([0-9a-f]{8})\+/, (m, id) => `+${id.slice(0, 7)}${id[7] === '0' ? '1' : '0'}+`)), null);
    const tail = vkey.slice(-2);
    assert.equal(parseVkey(vkey.slice(0, -2) + (tail === 'AA' ? 'AB' : 'AA')), null);
  }
});

test("a checkpoint signed by Go's checksum database opens under its vkey as far as its origin", () => {
  const go = parseVkey(REAL_VKEYS[0][1]);
  assert.equal(openCheckpoint(GO_NOTE, go).error, 'a checkpoint whose origin is not the key name');
  assert.equal(openCheckpoint(GO_NOTE.replace('65664258', '65664259'), go).error, 'a signature by the log key that does not verify');
  assert.equal(openCheckpoint(GO_NOTE, parseVkey(REAL_VKEYS[1][1])).error, 'no signature by the log key');
});

test('vkeys that are not: refused', () => {
  const good = REAL_VKEYS[0][1];
  for (const bad of [
    '',
    'sum.golang.org',
    'sum.golang.org+033de0ae',
    'sum.golang.org+033de0ae+',
    '+033de0ae+Ac4zctda0e5eza+HJyk9SxEdh+s3Ux18htTTAD8OuAn8',
    'sum.golang.org+033DE0AE+Ac4zctda0e5eza+HJyk9SxEdh+s3Ux18htTTAD8OuAn8',
    'sum golang.org+033de0ae+Ac4zctda0e5eza+HJyk9SxEdh+s3Ux18htTTAD8OuAn8',
    good.replace('+Ac4z', '+Ac4z '),
    good + '=',
    good.replace('Ac4z', 'Ac4y'),
  ]) assert.equal(parseVkey(bad), null, JSON.stringify(bad));
  assert.ok(parseVkey(` ${good}\n`), 'surrounding whitespace is ignored');
});

test('500 random keys: each vkey reads back to its key, whatever its base64 holds', () => {
  let plus = 0;
  let slash = 0;
  for (let i = 0; i < 500; i++) {
    const pub = publicKeyOf(new Uint8Array(randomBytes(32)));
    const name = ['cards.example.org/v1/clubs/tehran-club/log', 'log', 'کلوپ.example/log'][i % 3];
    const vkey = vkeyOf(name, pub);
    if (vkey.split('+').length > 3) plus++;
    if (vkey.includes('/', name.length)) slash++;
    const k = parseVkey(vkey);
    assert.ok(k, vkey);
    assert.equal(toHex(k.pub), toHex(pub), vkey);
    assert.equal(k.name, name);
  }
  assert.ok(plus > 100 && slash > 100, `keys with + (${plus}) and / (${slash}) both tested`);
});

/**
 * The version-2 vector re-signed by a club whose key is `secret`: every record, and the
 * checkpoint, so that its log proof is checked under the vkey of that key (the page's way
 * on the service: the checkpoint under the service's published keys).
 */
function signedBy(secret) {
  const b = clone(readJson(join(VECTORS, 'bundles-v2', 'bluff-4-seats-relabel.json')));
  const pub = publicKeyOf(secret);
  b.keys = [{ key_id: keyIdOf(pub), public_key: toHex(pub) }];
  resign(b, 0, secret);
  for (const r of b.records) r.signer = keyIdOf(pub);
  const cp = b.log_proof.checkpoint;
  const text = cp.slice(0, cp.indexOf('\n\n') + 1);
  const origin = text.split('\n')[0];
  const id = sha256(utf8(origin), new Uint8Array([0x0a, 0x01]), pub).subarray(0, 4);
  const sig = sign(secret, utf8(text));
  b.log_proof.checkpoint = `${text}\n\u2014 ${origin} ${Buffer.from(concat(id, sig)).toString('base64')}\n`;
  return { bundle: b, pub: toHex(pub), vkey: vkeyOf(origin, pub) };
}

test('40 club keys: a sound version-2 bundle passes its log proof under each, "+" in the vkey or not', async () => {
  let plus = 0;
  for (let i = 0; i < 40; i++) {
    const { bundle, pub, vkey } = signedBy(new Uint8Array(randomBytes(32)));
    if (vkey.split('+').length > 3) plus++;
    const text = JSON.stringify(bundle);
    for (const opts of [{ trustedKeys: [pub] }, {}, { logKey: vkey }]) {
      const r = await verifyBundle(text, opts);
      const lp = r.checks.find((c) => c.id === 'log_proof');
      assert.equal(lp.ok, true, `${vkey} ${JSON.stringify(Object.keys(opts))}: ${lp.message}`);
      assert.equal(r.ok, true, JSON.stringify(r.first_problem));
    }
    // And a tampered checkpoint is still caught under such a key.
    const bad = clone(bundle);
    bad.log_proof.checkpoint = bad.log_proof.checkpoint.replace('\n11\n', '\n12\n');
    const r = await verifyBundle(JSON.stringify(bad), { trustedKeys: [pub] });
    assert.equal(r.first_problem.id, 'log_proof');
  }
  assert.ok(plus >= 5, `${plus} of the 40 vkeys hold a + in their base64`);
});
