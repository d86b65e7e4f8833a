// A hand's log proof against its club's transparency log (docs/TRANSPARENCY.md §2–§7):
// the blinded leaf of the hand's last event, the RFC 9162 inclusion proof up to a root, and
// the signed checkpoint (C2SP signed note) that names that root, under a log key the user
// trusts (a vkey from outside the bundle).
import { concat, fromHex, sha256, tag, toHex, u32be, utf8, bytesEqual, isLowerHex } from './bytes.js';
import { eventHash } from './eventlog.js';
import { verifyStrict } from './ed25519.js';

const LEAF_TAG = tag('persian-cards/tlog-leaf/v1');

function u64be(n) {
  const b = new Uint8Array(8);
  let x = BigInt(n);
  for (let i = 7; i >= 0; i--) {
    b[i] = Number(x & 0xffn);
    x >>= 8n;
  }
  return b;
}

/** §2: the 33-byte entry of an event in its club's log. */
export function leafEntry(salt, club, hand, seq, evHash) {
  const c = utf8(club);
  const h = utf8(hand);
  const commitment = sha256(LEAF_TAG, salt, u32be(c.length), c, u32be(h.length), h, u64be(seq), evHash);
  return concat(new Uint8Array([1]), commitment);
}

/** §3 (RFC 6962): the leaf hash and the node hash. */
export const leafHash = (entry) => sha256(new Uint8Array([0]), entry);
export const nodeHash = (l, r) => sha256(new Uint8Array([1]), l, r);

/** RFC 9162 §2.1.3.2: whether `proof` leads from leaf `index` of a tree of `size` to `root`. */
export function verifyInclusion(index, size, leaf, proof, root) {
  if (!(Number.isSafeInteger(index) && Number.isSafeInteger(size)) || index < 0 || index >= size) return false;
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  for (const p of proof) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      r = nodeHash(p, r);
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
      }
    } else {
      r = nodeHash(r, p);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && bytesEqual(r, root);
}

function b64decode(s) {
  if (typeof s !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(s) || s.length % 4 !== 0) return null;
  let bin;
  try {
    bin = atob(s);
  } catch {
    return null;
  }
  const out = Uint8Array.from(bin, (c) => c.charCodeAt(0));
  return b64encode(out) === s ? out : null; // canonical only
}
const b64encode = (b) => btoa(String.fromCharCode(...b));

/**
 * §5: a vkey `<name>+<hex key id>+<base64(0x01 || public key)>`, checked, or null. The name
 * holds no `+` (C2SP signed-note) and the key id is 8 hex digits, so the text splits at its
 * first two `+`; the base64 after them may hold `+` of its own (Go's sum.golang.org key
 * does), so it is never split further.
 */
export function parseVkey(vkey) {
  if (typeof vkey !== 'string') return null;
  const text = vkey.trim();
  const a = text.indexOf('+');
  const b = a < 0 ? -1 : text.indexOf('+', a + 1);
  if (a < 0 || b < 0) return null;
  const name = text.slice(0, a);
  const idHex = text.slice(a + 1, b);
  const keyB64 = text.slice(b + 1);
  if (/\s/.test(name)) return null;
  const raw = b64decode(keyB64);
  if (!name || !/^[0-9a-f]{8}$/.test(idHex) || !raw || raw.length !== 33 || raw[0] !== 1) return null;
  const pub = raw.subarray(1);
  const id = toHex(sha256(utf8(name), new Uint8Array([0x0a, 0x01]), pub).subarray(0, 4));
  return id === idHex ? { name, keyId: idHex, pub } : null;
}

/**
 * §5: opens a signed checkpoint under a trusted key: {origin, size, root} or {error}. Every
 * signature by the known key must verify and at least one must; others are ignored.
 */
export function openCheckpoint(note, key) {
  if (typeof note !== 'string' || !note.endsWith('\n')) return { error: 'a note that does not end in a newline' };
  if (/[\u0000-\u0009\u000b-\u001f\u007f]/.test(note)) return { error: 'a control character in the note' };
  const sep = note.indexOf('\n\n');
  if (sep < 0) return { error: 'no blank line before the signatures' };
  const text = note.slice(0, sep + 1);
  const sigLines = note.slice(sep + 2, -1).split('\n');
  if (sigLines.length === 0 || sigLines.length > 100 || sigLines[0] === '') return { error: 'no signature' };
  let good = 0;
  for (const line of sigLines) {
    const m = /^\u2014 ([^ +]+) ([A-Za-z0-9+/=]+)$/.exec(line);
    if (!m) return { error: 'a malformed signature line' };
    const raw = b64decode(m[2]);
    if (!raw || raw.length < 5) return { error: 'a malformed signature' };
    if (m[1] !== key.name || toHex(raw.subarray(0, 4)) !== key.keyId) continue;
    if (raw.length !== 68 || !verifyStrict(key.pub, raw.subarray(4), utf8(text))) return { error: 'a signature by the log key that does not verify' };
    good++;
  }
  if (good === 0) return { error: 'no signature by the log key' };
  if (good > 1) return { error: 'the log key signs more than once' };
  const lines = text.slice(0, -1).split('\n');
  if (lines.length < 3 || lines.length > 19 || lines.some((l) => l === '')) return { error: 'a malformed checkpoint text' };
  const [origin, sizeText, rootB64] = lines;
  if (!/^(0|[1-9][0-9]*)$/.test(sizeText) || BigInt(sizeText) >= 2n ** 64n) return { error: 'a malformed tree size' };
  const root = b64decode(rootB64);
  if (!root || root.length !== 32) return { error: 'a malformed root hash' };
  if (origin !== key.name) return { error: 'a checkpoint whose origin is not the key name' };
  return { origin, size: Number(sizeText), root };
}

/** §5: the vkey of an Ed25519 public key under a log's name (origin). */
export function vkeyOf(name, pub) {
  const id = toHex(sha256(utf8(name), new Uint8Array([0x0a, 0x01]), pub).subarray(0, 4));
  return `${name}+${id}+${b64encode(concat(new Uint8Array([0x01]), pub))}`;
}

/**
 * docs/BUNDLE.md §9: a version-2 bundle's `log_proof` ({checkpoint, leaf_index, salt,
 * inclusion}) as the proof file of §7 (its origin and tree size the checkpoint's), with the
 * checkpoint note; null when it is not of that shape or its checkpoint cannot be read.
 */
export function proofOfBundle(hand, lp) {
  const names = ['checkpoint', 'leaf_index', 'salt', 'inclusion'];
  if (!lp || typeof lp !== 'object' || Object.keys(lp).length !== names.length || names.some((k) => !(k in lp))) return null;
  if (typeof lp.checkpoint !== 'string') return null;
  const lines = lp.checkpoint.split('\n');
  if (lines.length < 3 || !/^(0|[1-9][0-9]*)$/.test(lines[1])) return null;
  return {
    note: lp.checkpoint,
    proof: { format: 'persian-cards/log-proof', version: 1, origin: lines[0], hand, salt: lp.salt, leaf_index: lp.leaf_index, tree_size: Number(lines[1]), inclusion: lp.inclusion },
  };
}

/**
 * §7: checks a log proof for a bundle (parsed) against a checkpoint note under a vkey.
 * Returns {ok: true, message} or {ok: false, message}.
 */
export function checkLogProof(bundle, proof, checkpointNote, vkey) {
  const key = parseVkey(vkey);
  if (!key) return { ok: false, message: 'the log key is not a valid vkey' };
  const names = ['format', 'version', 'origin', 'hand', 'salt', 'leaf_index', 'tree_size', 'inclusion'];
  if (!proof || typeof proof !== 'object' || names.some((k) => !(k in proof)) || Object.keys(proof).some((k) => !names.includes(k))) {
    return { ok: false, message: 'the log proof is not a proof file of version 1' };
  }
  if (proof.format !== 'persian-cards/log-proof' || proof.version !== 1) return { ok: false, message: 'an unsupported log proof' };
  if (!isLowerHex(proof.salt, 64) || !Array.isArray(proof.inclusion) || proof.inclusion.some((h) => !isLowerHex(h, 64))) {
    return { ok: false, message: 'a malformed log proof' };
  }
  const cp = openCheckpoint(checkpointNote, key);
  if (cp.error) return { ok: false, message: `checkpoint: ${cp.error}` };
  const records = bundle.records;
  const last = records[records.length - 1].event;
  const club = records[0].event.body.club;
  if (proof.hand !== bundle.hand) return { ok: false, message: `the proof is for hand ${proof.hand}` };
  if (proof.origin !== cp.origin || proof.origin !== `${cp.origin.slice(0, cp.origin.lastIndexOf('/clubs/'))}/clubs/${club}/log`) {
    return { ok: false, message: `the proof's origin ${proof.origin} is not the log of club ${club} the checkpoint names` };
  }
  if (proof.tree_size !== cp.size) return { ok: false, message: `a proof for tree size ${proof.tree_size}, the checkpoint is of size ${cp.size}` };
  const leaf = leafHash(leafEntry(fromHex(proof.salt), club, bundle.hand, last.seq, eventHash(last)));
  const ok = verifyInclusion(proof.leaf_index, proof.tree_size, leaf, proof.inclusion.map(fromHex), cp.root);
  return ok
    ? { ok: true, message: `the hand's last event is leaf ${proof.leaf_index} of ${cp.origin} at size ${cp.size}` }
    : { ok: false, message: 'the inclusion proof does not lead to the checkpoint\'s root' };
}
