// Every golden vector of docs/vectors re-derived by the JS verifier from the docs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { VECTORS, readJson, readText, listJson } from './helpers.mjs';
import { commitmentOf, deckSeedPreimage, deckSeed, Keystream, fisherYates, deckCards, chainStep, chainServerSeed } from '../src/verify/shuffle.js';
import { canonicalText, canonicalBytes, parseStrict } from '../src/verify/json.js';
import { eventHash, playerMessage, serviceMessage } from '../src/verify/eventlog.js';
import { keyIdOf, verifyStrict, sign } from '../src/verify/ed25519.js';
import { fromHex, toHex, sha256, concat, tag } from '../src/verify/bytes.js';
import { verifyBundle, verifyMatch } from '../src/verify/index.js';

const shuffle = readJson(join(VECTORS, 'shuffle-v1.json'));

test('shuffle-v1: version 1 and at least a dozen vectors', () => {
  assert.equal(shuffle.version, 1);
  assert.ok(shuffle.vectors.length >= 12);
});

for (const v of shuffle.vectors) {
  test(`shuffle-v1 ${v.name}`, () => {
    const seed = fromHex(v.server_seed);
    assert.equal(toHex(commitmentOf(seed)), v.commitment, 'commitment');
    const clients = v.client_seeds.map((c) => ({ seat: c.seat, seed: fromHex(c.seed) }));
    assert.equal(toHex(deckSeedPreimage(seed, v.hand_id, v.shuffle, clients)), v.deck_seed_preimage, 'preimage');
    const ds = deckSeed(seed, v.hand_id, v.shuffle, clients);
    assert.equal(toHex(ds), v.deck_seed, 'deck seed');
    const ks = new Keystream(ds);
    const words = Array.from({ length: 8 }, () => ks.nextWord());
    assert.deepEqual(words, v.first_words, 'first words');
    const ks2 = new Keystream(ds);
    const perm = fisherYates(v.n, ks2);
    assert.deepEqual(perm, v.permutation, 'permutation');
    assert.equal(ks2.used, v.words_used, 'words used');
    if (v.deck) assert.deepEqual(deckCards(v.deck), v.cards, 'deck cards');
    if (v.cards) {
      assert.equal(v.cards.length, v.n);
      assert.deepEqual(perm.map((p) => v.cards[p]), v.order, 'order');
    }
  });
}

test('shuffle: the RFC 8439 check words of docs/SHUFFLE.md §4', () => {
  const ks = new Keystream(new Uint8Array(32));
  assert.equal(ks.nextWord(), 0xade0b876);
  assert.equal(ks.nextWord(), 0x903df1a0);
  // words across the 16-block buffer boundary stay in order
  const a = new Keystream(new Uint8Array(32).fill(7));
  const b = new Keystream(new Uint8Array(32).fill(7));
  const wa = Array.from({ length: 600 }, () => a.nextWord());
  const wb = [];
  for (let i = 0; i < 600; i++) wb.push(b.nextWord());
  assert.deepEqual(wa, wb);
});

const ev = readJson(join(VECTORS, 'event-log-v1.json'));
const evText = readText(join(VECTORS, 'event-log-v1.json'));

test('event-log-v1: the test keys and their ids', () => {
  for (const k of [ev.service_key, ev.player_key]) {
    assert.equal(keyIdOf(fromHex(k.public_key)), k.key_id);
  }
});

// The vectors' events read strictly from the file's text, so that escapes are the file's.
const evStrict = parseStrict(evText);
evStrict.vectors.forEach((v, i) => {
  test(`event-log-v1 ${v.name}`, () => {
    const want = ev.vectors[i];
    assert.equal(canonicalText(v.event), want.canonical, 'canonical text');
    assert.equal(toHex(canonicalBytes(v.event)), want.canonical_hex, 'canonical bytes');
    const h = eventHash(v.event);
    assert.equal(toHex(h), want.hash, 'hash');
    if (i > 0) assert.equal(v.event.prev, ev.vectors[i - 1].hash, 'chain');
    assert.equal(want.signer, ev.service_key.key_id);
    assert.ok(verifyStrict(fromHex(ev.service_key.public_key), fromHex(want.sig), serviceMessage(h)), 'service signature');
    // Ed25519 signing is deterministic: re-signing gives the same bytes
    assert.equal(toHex(sign(fromHex(ev.service_key.secret), serviceMessage(h))), want.sig, 're-signed');
    if (want.player_message !== null) {
      const msg = playerMessage(v.event);
      assert.equal(toHex(msg), want.player_message_hex, 'player message');
      assert.ok(verifyStrict(fromHex(ev.player_key.public_key), fromHex(v.event.player_sig.sig), msg), 'player signature');
    }
  });
});

test('event-log-v1: the UTF-16 member order and escapes of §5', () => {
  assert.equal(canonicalText({ 'ﬁ': 1, '😀': 2, a: 0, Z: -9007199254740991 }), '{"Z":-9007199254740991,"a":0,"😀":2,"ﬁ":1}');
  const s = 'Javad: "all in?" \\ no/yes\n\ttab \u0001\u001f\u007f \u2028 é';
  assert.equal(canonicalText(s), '"Javad: \\"all in?\\" \\\\ no/yes\\n\\ttab \\u0001\\u001f\u007f \u2028 é"');
});

test('event-log-v1: the worked example of §13', () => {
  const e = {
    v: 1,
    hand: 'tehran-club/table-3/hand-42',
    seq: 1,
    prev: 'ea6830c413d20a40744543ec6a1694502702e292d3908cfa611370d86202c70a',
    time_ms: 1767225601000,
    body: { type: 'client_seed', shuffle: 0, seat: 0, seed: 'd8acd988d8a7d8af' },
  };
  assert.equal(canonicalBytes(e).length, 227);
  assert.equal(toHex(eventHash(e)), 'b55d123d7e9446807bff4bd2cf22a08edbac5c57ae1ee35166ad3b6f7803bdee');
});

const chains = readJson(join(VECTORS, 'seed-chain-v1.json'));
for (const ch of chains.chains) {
  test(`seed-chain-v1 ${ch.name}`, () => {
    // the anchor is the tail hashed down `length` steps
    let c = fromHex(ch.tail);
    const elements = [toHex(c)];
    for (let i = ch.length; i >= 1; i--) {
      c = chainStep(i, c);
      elements.unshift(toHex(c));
    }
    assert.equal(elements[0], ch.anchor, 'anchor');
    if (ch.elements && ch.elements.length) assert.deepEqual(elements, ch.elements, 'elements');
    const last = concat(tag('persian-cards/seed-chain/v1'), new Uint8Array([0, 0, 0, 0]), fromHex(ch.tail));
    last.set([(ch.length >>> 24) & 255, (ch.length >>> 16) & 255, (ch.length >>> 8) & 255, ch.length & 255], 28);
    assert.equal(toHex(last), ch.last_step_preimage_hex, 'last step preimage');
    for (const p of ch.positions) {
      assert.equal(elements[p.position], p.chain_seed, `c_${p.position}`);
      assert.equal(elements[p.position - 1], p.previous, `c_${p.position - 1}`);
      for (const s of p.server_seeds) {
        const seed = chainServerSeed(fromHex(p.chain_seed), s.shuffle);
        assert.equal(toHex(seed), s.server_seed, 'server seed');
        assert.equal(toHex(commitmentOf(seed)), s.commitment, 'commitment');
        assert.equal(toHex(concat(tag('persian-cards/chain-server-seed/v1'), fromHex(p.chain_seed), new Uint8Array([0, 0, 0, s.shuffle]))), s.preimage_hex);
      }
    }
  });
}

for (const ps of chains.player_signatures) {
  test(`seed-chain-v1 player signature ${ps.name}`, () => {
    const event = { v: 1, hand: ps.hand, seq: ps.seq, prev: ps.head, time_ms: 0, body: { type: 'action', actor: ps.actor, action: ps.action, effects: [] } };
    const msg = playerMessage(event);
    assert.equal(canonicalText({ action: ps.action, actor: ps.actor, hand: ps.hand, prev: ps.head, seq: ps.seq }), ps.message);
    assert.equal(toHex(msg), ps.message_hex);
    assert.equal(keyIdOf(fromHex(ps.public_key)), ps.key_id);
    assert.equal(ps.player_sig.key_id, ps.key_id);
    assert.ok(verifyStrict(fromHex(ps.public_key), fromHex(ps.player_sig.sig), msg));
    assert.equal(toHex(sign(fromHex(ps.secret), msg)), ps.player_sig.sig);
  });
}

for (const f of listJson(join(VECTORS, 'bundles-v1'))) {
  test(`bundles-v1 ${f.split('/').pop()} verifies, every deck derived`, async () => {
    const r = await verifyBundle(readText(f));
    assert.equal(r.ok, true, JSON.stringify(r.first_problem));
    assert.equal(r.first_problem, null);
    const byId = Object.fromEntries(r.checks.map((c) => [c.id, c]));
    for (const id of ['format', 'chain', 'signatures', 'commitments', 'decks']) assert.equal(byId[id].ok, true, id);
    const b = readJson(f);
    const shuffled = b.records.filter((x) => x.event.body.type === 'shuffled');
    assert.equal(Object.keys(r.decks).length, shuffled.length);
    for (const s of shuffled) assert.equal(r.decks[s.event.body.shuffle].length, s.event.body.cards);
    // with the trusted key, and with a wrong one
    const t = await verifyBundle(readText(f), { trustedKeys: [ev.service_key.public_key] });
    assert.equal(t.ok, true);
    assert.equal(t.trust, 'trusted_key');
    const w = await verifyBundle(readText(f), { trustedKeys: [ev.player_key.public_key] });
    assert.equal(w.ok, false);
    assert.equal(w.first_problem.rule, 'signer');
    assert.equal(w.first_problem.seq, 0);
  });
}

for (const f of listJson(join(VECTORS, 'match-v1'))) {
  test(`match-v1 ${f.split('/').pop()} verifies with its links`, async () => {
    const r = await verifyMatch(readText(f));
    assert.equal(r.ok, true, JSON.stringify(r.first_problem));
    assert.equal(r.hands.length, 3);
    for (const h of r.hands) assert.equal(h.ok, true);
    const byId = Object.fromEntries(r.checks.map((c) => [c.id, c]));
    assert.equal(byId.links.ok, true);
    assert.equal(byId.hands.ok, true);
    if (f.includes('seed-chain')) {
      assert.equal(byId.seed_chain.ok, true);
      for (const h of r.hands) assert.ok(h.player_signatures_verified > 0);
    }
  });
}

// docs/vectors/match-v3/: a match whose second hand carries a penalty ruling on its first
// (docs/BUNDLE.md §8, version 3): verified, the ruling's entry and signatures checked, the
// award applied to the score; and each way of breaking it named by its rule.
for (const f of listJson(join(VECTORS, 'match-v3'))) {
  test(`match-v3 ${f.split('/').pop()} verifies with its penalty ruling carried`, async () => {
    const r = await verifyMatch(readText(f));
    assert.equal(r.ok, true, JSON.stringify(r.first_problem));
    assert.equal(r.adjustments.length, 1);
    const m = readJson(f);
    const second = m.hands[1];
    assert.equal(r.adjustments[0].applied_by, second.hand);
    assert.equal(r.adjustments[0].ruled_hand, m.hands[0].hand);
    const broken = async (edit, rule) => {
      const x = readJson(f);
      edit(x);
      const v = await verifyMatch(x);
      assert.equal(v.ok, false, rule);
      assert.equal(v.first_problem.rule, rule, JSON.stringify(v.first_problem));
    };
    await broken((x) => { x.rulings = []; }, 'adjustment_entry');
    await broken((x) => { x.rulings[0].entry.body.award.points = 3; }, 'adjustment_entry');
    await broken((x) => { x.trailing_adjustments = x.hands[1].records[0].event.body.adjustments; }, 'adjustment_twice');
    await broken((x) => { x.rulings[0].signer = 'ed25519:0000000000000000'; }, 'adjustment_signature');
    // another reason, not re-hashed: the entry's hash tells (tamper.test.mjs changes rulings
    // as a forger with the service's key would, re-hashed and re-signed)
    const k = readJson(f);
    k.rulings[0].entry.body.reason = 'another reason';
    const v = await verifyMatch(k);
    assert.equal(v.ok, false);
    assert.equal(v.first_problem.rule, 'adjustment_entry');
  });
}

// docs/vectors/transparency-v1.json: leaves, proofs, the checkpoint, and the hand proof of
// bundles-v1/bluff-4-seats-relabel.json, checked through a version-2 bundle's log_proof.
import { leafEntry, leafHash, verifyInclusion, parseVkey, openCheckpoint } from '../src/verify/transparency.js';
const tv = readJson(join(VECTORS, 'transparency-v1.json'));

test('transparency-v1: leaves', () => {
  assert.ok(tv.leaves.length >= 4);
  for (const l of tv.leaves) {
    const e = leafEntry(fromHex(l.salt), l.club, l.hand, l.seq, fromHex(l.event_hash));
    assert.equal(toHex(e), l.entry, l.name);
    assert.equal(toHex(leafHash(e)), l.leaf_hash, l.name);
  }
});

test('transparency-v1: the test log\'s inclusion proofs, and each one altered fails', () => {
  const t = tv.test_log;
  const roots = Object.fromEntries(t.roots.map((r) => [r.size, r.root]));
  assert.ok(t.inclusion.length >= 8);
  for (const p of t.inclusion) {
    const leaf = fromHex(p.leaf_hash);
    const proof = p.proof.map(fromHex);
    const root = fromHex(p.root ?? roots[p.size]);
    assert.ok(verifyInclusion(p.index, p.size, leaf, proof, root), `leaf ${p.index} of ${p.size}`);
    if (proof.length) {
      const bad = proof.map((x) => x.slice());
      bad[0][0] ^= 1;
      assert.equal(verifyInclusion(p.index, p.size, leaf, bad, root), false);
    }
    if (p.size > 1) assert.equal(verifyInclusion((p.index + 1) % p.size, p.size, leaf, proof, root), false);
  }
});

test('transparency-v1: the checkpoint opens under its vkey, and not under another', () => {
  const key = parseVkey(tv.log_key.vkey);
  assert.ok(key);
  assert.equal(toHex(key.pub), tv.log_key.public_key);
  const cp = openCheckpoint(tv.checkpoint.signed, key);
  assert.equal(cp.error, undefined);
  assert.equal(cp.size, tv.checkpoint.size);
  assert.equal(toHex(cp.root), tv.checkpoint.root);
  assert.ok(openCheckpoint(tv.checkpoint.signed.replace('\n1000\n', '\n1001\n'), key).error);
  assert.equal(parseVkey(tv.log_key.vkey.replace('+8bfef3fc+', '+8bfef3fd+')), null);
});

test('transparency-v1: the hand proof, carried as a version-2 bundle\'s log_proof', async () => {
  const hp = tv.hand_proof;
  const b = readJson(join(VECTORS, hp.bundle));
  const v2 = { ...b, version: 2, log_proof: hp.log_proof };
  const ok = await verifyBundle(JSON.stringify(v2), { logKey: hp.vkey, checkpoint: hp.checkpoint });
  assert.equal(ok.ok, true, JSON.stringify(ok.first_problem));
  const lp = ok.checks.find((c) => c.id === 'log_proof');
  assert.equal(lp.ok, true, lp.message);
  // without a log key: not checked
  const none = await verifyBundle(JSON.stringify(v2));
  assert.equal(none.ok, true);
  assert.equal(none.checks.find((c) => c.id === 'log_proof').ok, null);
  assert.match(none.checks.find((c) => c.id === 'log_proof').message, /not checked in the browser/);
  // an altered proof hash, or another leaf index
  for (const alter of [(p) => (p.inclusion[1] = p.inclusion[1].replace(/^./, (c) => (c === '0' ? '1' : '0'))), (p) => (p.leaf_index += 1)]) {
    const bad = JSON.parse(JSON.stringify(v2));
    alter(bad.log_proof);
    const r = await verifyBundle(JSON.stringify(bad), { logKey: hp.vkey, checkpoint: hp.checkpoint });
    assert.equal(r.ok, false);
    assert.equal(r.first_problem.id, 'log_proof');
  }
  // a version-1 bundle may not carry one
  const v1 = await verifyBundle(JSON.stringify({ ...b, log_proof: hp.log_proof }));
  assert.equal(v1.first_problem.rule, 'unreadable');
});

test('bundles-v2: the log proof a version-2 bundle carries (docs/BUNDLE.md §9) is checked as replayer verify checks it', async () => {
  const b = readJson(join(VECTORS, 'bundles-v2', 'bluff-4-seats-relabel.json'));
  const good = await verifyBundle(JSON.stringify(b));
  assert.equal(good.ok, true, JSON.stringify(good.first_problem));
  const lp = good.checks.find((c) => c.id === 'log_proof');
  assert.equal(lp.ok, true, lp.message);
  assert.match(lp.message, /leaf 5 of .* at size 11/);
  assert.match(lp.message, /ONLY against the keys the bundle itself carries/);
  // A changed salt, proof hash or leaf index, or a checkpoint altered after signing.
  const alters = [
    (p) => (p.salt = '0e'.repeat(32)),
    (p) => (p.inclusion[0] = p.inclusion[0].replace(/^./, (c) => (c === '0' ? '1' : '0'))),
    (p) => (p.leaf_index += 1),
    (p) => (p.checkpoint = p.checkpoint.replace('\n11\n', '\n12\n')),
  ];
  for (const alter of alters) {
    const bad = JSON.parse(JSON.stringify(b));
    alter(bad.log_proof);
    const r = await verifyBundle(JSON.stringify(bad));
    assert.equal(r.ok, false, alter.toString());
    assert.equal(r.first_problem.id, 'log_proof', alter.toString());
  }
});
