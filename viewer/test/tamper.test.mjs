// Tampered bundles and match files: each change must be caught by the right check, at the
// right event, with the rule docs/EVENT-LOG.md §12 names. Where the replayer is built
// (cargo build -p replayer), the same tampered files are given to `replayer verify --json`
// and both verdicts must name the same first problem.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { VECTORS, FIXTURES, readJson, readText, listJson, resign, clone, TEST_PUBLIC, TEST_SECRET } from './helpers.mjs';
import { verifyBundle, verifyMatch, verifyRecords, RULE_CHECK } from '../src/verify/index.js';
import { replayerVerify, REPLAYER } from './replayer.mjs';

// Every file this test writes goes under one folder, removed when its tests end.
const TMP = mkdtempSync(join(tmpdir(), 'viewer-test-'));
after(() => rmSync(TMP, { recursive: true, force: true }));

/** `replayer verify --json` on `input`, written as `file` in a folder of its own under TMP. */
function replayerOn(input, file) {
  const p = join(mkdtempSync(join(TMP, 'vlib-')), file);
  writeFileSync(p, input);
  return replayerVerify(p);
}

const BUNDLES = [...listJson(join(VECTORS, 'bundles-v1')), ...listJson(FIXTURES).filter((f) => readJson(f).format === 'persian-cards/hand-bundle')];
const MATCHES = [...listJson(join(VECTORS, 'match-v1')), ...listJson(FIXTURES).filter((f) => readJson(f).format === 'persian-cards/match')];

const body = (b, i) => b.records[i].event.body;
const idxOf = (b, pred, nth = 0) => {
  let seen = 0;
  for (let i = 0; i < b.records.length; i++) if (pred(b.records[i].event.body, i)) if (seen++ === nth) return i;
  return -1;
};
const faceIn = (v) => {
  if (Array.isArray(v)) {
    for (const x of v) {
      const r = faceIn(x);
      if (r) return r;
    }
  } else if (v && typeof v === 'object') {
    if (typeof v.face === 'string' && (v.card || v.ref)) return v;
    for (const k of Object.keys(v)) {
      const r = faceIn(v[k]);
      if (r) return r;
    }
  }
  return null;
};
const firstFace = (b) => idxOf(b, (x) => (x.type === 'action' || x.type === 'shuffled') && faceIn(x.effects));
const otherCard = (c) => (c === 'AS' ? 'KS' : 'AS');
const hexFlip = (h, at = 10) => h.slice(0, at) + (h[at] === '0' ? '1' : '0') + h.slice(at + 1);

/**
 * The tampers: name → (bundle) => {bundle|text, seq, rule} (seq null for the bundle as a
 * whole), or null where the bundle has nothing to tamper with.
 */
const TAMPERS = {
  'a face in an effect, not re-signed': (b) => {
    const i = firstFace(b);
    const f = faceIn(body(b, i).effects);
    f.face = otherCard(f.face);
    return { bundle: b, seq: i, rule: 'hash' };
  },
  'a later face in an effect, re-signed by the key holder': (b) => {
    const first = firstFace(b);
    const i = idxOf(b, (x, k) => k > first + 5 && (x.type === 'action' || x.type === 'shuffled') && faceIn(x.effects));
    if (i < 0) return null;
    const f = faceIn(body(b, i).effects);
    f.face = otherCard(f.face);
    return { bundle: resign(b, i), seq: i, rule: 'effects' };
  },
  'a face in an effect, re-signed by the key holder': (b) => {
    const i = firstFace(b);
    const f = faceIn(body(b, i).effects);
    f.face = otherCard(f.face);
    return { bundle: resign(b, i), seq: i, rule: 'effects' };
  },
  'an action, not re-signed': (b) => {
    const i = idxOf(b, (x) => x.type === 'action', 2);
    body(b, i).action.type += 'x';
    return { bundle: b, seq: i, rule: 'hash' };
  },
  'a revealed server seed, not re-signed': (b) => {
    const n = b.records.length - 1;
    body(b, n).seeds[0].server_seed = hexFlip(body(b, n).seeds[0].server_seed);
    return { bundle: b, seq: n, rule: 'hash' };
  },
  'a revealed server seed, re-signed': (b) => {
    const n = b.records.length - 1;
    body(b, n).seeds[0].server_seed = hexFlip(body(b, n).seeds[0].server_seed);
    return { bundle: resign(b, n), seq: n, rule: body(b, 0).seed_chain ? 'commitment' : 'commitment' };
  },
  'an uppercase revealed server seed, re-signed': (b) => {
    const n = b.records.length - 1;
    body(b, n).seeds[0].server_seed = body(b, n).seeds[0].server_seed.toUpperCase().replace(/^[0-9]*/, 'F');
    return { bundle: resign(b, n), seq: n, rule: 'server_seed' };
  },
  'a seed missing from the reveal, re-signed': (b) => {
    const n = b.records.length - 1;
    body(b, n).seeds.pop();
    return { bundle: resign(b, n), seq: n, rule: 'reveal_all' };
  },
  'a client seed, re-signed': (b) => {
    const i = idxOf(b, (x) => x.type === 'client_seed');
    if (i < 0) return null;
    body(b, i).seed = hexFlip(body(b, i).seed, 0);
    // the first event whose effects show a face of shuffle 0 is where the deck is caught
    const j = idxOf(b, (x, k) => k > i && (x.type === 'action' || x.type === 'shuffled') && faceIn(x.effects));
    return { bundle: resign(b, i), seq: j, rule: 'effects', engineMayBeEarlier: true };
  },
  'a record signature (first)': (b) => {
    const i = 0;
    b.records[i].sig = hexFlip(b.records[i].sig, 3);
    return { bundle: b, seq: i, rule: 'signature' };
  },
  'a record hash (first)': (b) => {
    const i = 0;
    b.records[i].hash = hexFlip(b.records[i].hash, 5);
    return { bundle: b, seq: i, rule: 'hash' };
  },
  'a record signature (middle)': (b) => {
    const i = Math.floor(b.records.length / 2);
    b.records[i].sig = hexFlip(b.records[i].sig, 3);
    return { bundle: b, seq: i, rule: 'signature' };
  },
  'a record hash (middle)': (b) => {
    const i = Math.floor(b.records.length / 2);
    b.records[i].hash = hexFlip(b.records[i].hash, 5);
    return { bundle: b, seq: i, rule: 'hash' };
  },
  'a record signature (last)': (b) => {
    const i = b.records.length - 1;
    b.records[i].sig = hexFlip(b.records[i].sig, 3);
    return { bundle: b, seq: i, rule: 'signature' };
  },
  'a record hash (last)': (b) => {
    const i = b.records.length - 1;
    b.records[i].hash = hexFlip(b.records[i].hash, 5);
    return { bundle: b, seq: i, rule: 'hash' };
  },
  'a prev link, re-signed at that record only (early)': (b) => {
    const i = 1;
    b.records[i].event.prev = hexFlip(b.records[i].event.prev, 7);
    const r = resign({ records: [b.records[i]] }, 0);
    b.records[i] = r.records[0];
    return { bundle: b, seq: i, rule: 'chain' };
  },
  'a prev link, re-signed at that record only (middle)': (b) => {
    const i = Math.floor(b.records.length / 2);
    b.records[i].event.prev = hexFlip(b.records[i].event.prev, 7);
    const r = resign({ records: [b.records[i]] }, 0);
    b.records[i] = r.records[0];
    return { bundle: b, seq: i, rule: 'chain' };
  },
  'a prev link, re-signed at that record only (last)': (b) => {
    const i = b.records.length - 1;
    b.records[i].event.prev = hexFlip(b.records[i].event.prev, 7);
    const r = resign({ records: [b.records[i]] }, 0);
    b.records[i] = r.records[0];
    return { bundle: b, seq: i, rule: 'chain' };
  },
  'an uppercase prev, re-signed': (b) => {
    const i = 4;
    b.records[i].event.prev = b.records[i - 1].hash.toUpperCase();
    const r = resign({ records: [b.records[i]] }, 0);
    b.records[i] = r.records[0];
    return { bundle: b, seq: i, rule: 'event_format' };
  },
  'a record removed': (b) => {
    const i = 5;
    b.records.splice(i, 1);
    return { bundle: b, seq: i, rule: 'sequence' };
  },
  'two records swapped': (b) => {
    const i = 6;
    [b.records[i], b.records[i + 1]] = [b.records[i + 1], b.records[i]];
    return { bundle: b, seq: i, rule: 'sequence' };
  },
  'the reveal cut off': (b) => {
    b.records.pop();
    return { bundle: b, seq: b.records.length, rule: 'complete' };
  },
  'time going back, re-signed': (b) => {
    const i = 8;
    b.records[i].event.time_ms = b.records[i - 1].event.time_ms - 1;
    return { bundle: resign(b, i), seq: i, rule: 'time_order' };
  },
  'another hand id in one event, re-signed': (b) => {
    const i = 7;
    b.records[i].event.hand += '-x';
    return { bundle: resign(b, i), seq: i, rule: 'hand_id' };
  },
  'an event written with player_sig null, re-signed': (b) => {
    const i = idxOf(b, (x) => x.type === 'action');
    b.records[i].event.player_sig = null;
    return { bundle: resign(b, i), seq: i, rule: 'event_format' };
  },
  'an unknown member in an event, re-signed': (b) => {
    const i = 2;
    b.records[i].event.body.extra = 1;
    return { bundle: resign(b, i), seq: i, rule: 'event_format' };
  },
  'a number written 1.0 in an event': (b) => {
    const text = JSON.stringify(b).replace('"hand_no":1,', '"hand_no":1.0,');
    return { text, seq: 0, rule: 'encoding' };
  },
  'a duplicate member name': (b) => {
    const text = JSON.stringify(b).replace('"format":', '"game":"hokm","format":');
    return { text, seq: null, rule: 'unreadable' };
  },
  'a header status that the events do not say': (b) => {
    b.status = b.status === 'completed' ? 'abandoned' : 'completed';
    return { bundle: b, seq: null, rule: 'header' };
  },
  'a bundle key under another key id': (b) => {
    b.keys[0].key_id = 'ed25519:0000000000000000';
    return { bundle: b, seq: null, rule: 'bundle_key_id' };
  },
  'a commitment changed, re-signed': (b) => {
    const i = idxOf(b, (x) => x.type === 'shuffle_committed');
    body(b, i).commitment = hexFlip(body(b, i).commitment);
    return { bundle: resign(b, i), seq: b.records.length - 1, rule: 'commitment' };
  },
  'a shuffle commitment moved after another event, re-signed': (b) => {
    const i = idxOf(b, (x) => x.type === 'shuffle_committed');
    if (i + 1 >= b.records.length - 2) return null;
    [b.records[i], b.records[i + 1]] = [b.records[i + 1], b.records[i]];
    b.records.forEach((r, k) => (r.event.seq = k));
    return { bundle: resign(b, i), seq: i, rule: 'commit_at_once' };
  },
  'a client seed given twice, re-signed': (b) => {
    const i = idxOf(b, (x) => x.type === 'client_seed');
    if (i < 0) return null;
    b.records.splice(i + 1, 0, clone(b.records[i]));
    b.records.forEach((r, k) => (r.event.seq = k));
    return { bundle: resign(b, i + 1), seq: i + 1, rule: 'client_seed_once' };
  },
  'an abandon reason of 501 characters, re-signed': (b) => {
    const n = b.records.length;
    const i = idxOf(b, (x) => x.type === 'hand_ended');
    if (i < 0) return null;
    b.records[i].event.body = { type: 'abandoned', reason: 'ب'.repeat(501) };
    b.status = 'abandoned';
    return { bundle: resign(b, i), seq: i, rule: 'abandon_reason', n };
  },
};

for (const f of BUNDLES) {
  const name = f.split('/').pop();
  for (const [tname, fn] of Object.entries(TAMPERS)) {
    test(`tamper ${name}: ${tname}`, async (t) => {
      const made = fn(clone(readJson(f)));
      if (!made) return t.skip('nothing of that kind in this bundle');
      const input = made.text ?? JSON.stringify(made.bundle);
      const r = await verifyBundle(input);
      assert.equal(r.ok, false, `${tname}: not caught`);
      assert.equal(r.first_problem.rule, made.rule, JSON.stringify(r.first_problem));
      if (!made.engineMayBeEarlier) assert.equal(r.first_problem.seq, made.seq, r.first_problem.message);
      assert.equal(r.first_problem.id, RULE_CHECK[made.rule] ?? 'format');
      const failed = r.checks.filter((c) => c.ok === false);
      assert.equal(failed.length, 1, 'one failing check');
      if (REPLAYER) {
        const v = replayerOn(input, 'b.json');
        if (made.rule === 'unreadable') {
          assert.equal(v.code, 2, 'the replayer finds it unreadable too');
        } else {
          assert.equal(v.code, 1, `replayer exit ${v.code}: ${v.stderr}`);
          const rp = v.verdict.problem;
          if (made.engineMayBeEarlier && rp.event < r.first_problem.seq && !(rp.rule in RULE_CHECK)) {
            // the engine saw the changed deck before any face was shown: an engine rule
          } else {
            assert.deepEqual({ event: rp.event, rule: rp.rule }, { event: r.first_problem.seq, rule: r.first_problem.rule }, 'same first problem as replayer verify');
          }
        }
      }
    });
  }
}

test('tampered bundles: an engine-only change re-signed is beyond the JS, and says so', async () => {
  const b = clone(readJson(BUNDLES[0]));
  const i = idxOf(b, (x) => x.type === 'action', 3);
  body(b, i).action.type = 'stand_on_nothing';
  const r = await verifyBundle(JSON.stringify(resign(b, i)));
  // the formats all hold; only the engine could refuse the action
  assert.equal(r.ok, true);
  assert.match(r.engine, /not checked/);
});

test('malformed input never throws', async () => {
  for (const x of [null, 1, 'nope', '{', '[]', '{"format":"persian-cards/hand-bundle","version":9}', {}, { records: 5 }, new Uint8Array([0xff, 0xfe])]) {
    const r = await verifyBundle(x);
    assert.equal(r.ok, false);
    assert.equal(r.first_problem.id, 'format');
    const m = await verifyMatch(x);
    assert.equal(m.ok, false);
    const rr = await verifyRecords(x, { trustedKeys: [TEST_PUBLIC] });
    assert.equal(rr.ok, false);
  }
});

test('verifyRecords: a running hand\'s records, chain and signatures only', async () => {
  const b = readJson(BUNDLES[0]);
  const recs = b.records.slice(0, 20);
  const ok = await verifyRecords(recs, { keys: b.keys });
  assert.equal(ok.ok, true, JSON.stringify(ok.first_problem));
  assert.deepEqual(ok.checks.map((c) => c.id), ['format', 'chain', 'signatures', 'player_signatures']);
  const ok2 = await verifyRecords({ hand_id: b.hand, events: recs, next_from: 20 }, { trustedKeys: [TEST_PUBLIC] });
  assert.equal(ok2.ok, true);
  const later = await verifyRecords(b.records.slice(20, 30), { trustedKeys: [TEST_PUBLIC], prevHash: b.records[19].hash });
  assert.equal(later.ok, true, JSON.stringify(later.first_problem));
  const bad = clone(recs);
  bad[7].sig = hexFlip(bad[7].sig);
  const r = await verifyRecords(bad, { keys: b.keys });
  assert.equal(r.first_problem.rule, 'signature');
  assert.equal(r.first_problem.seq, 7);
  const bad2 = clone(recs);
  bad2[9].event.body.x = 1;
  const r2 = await verifyRecords(bad2, { keys: b.keys });
  assert.equal(r2.first_problem.rule, 'hash');
  assert.equal(r2.first_problem.seq, 9);
});

// Match files: links between hands.
const MATCH_TAMPERS = {
  'a hand removed': (m) => {
    m.hands.splice(1, 1);
    return { m, rule: 'hand_no', index: 1 };
  },
  'two hands swapped': (m) => {
    [m.hands[1], m.hands[2]] = [m.hands[2], m.hands[1]];
    return { m, rule: 'hand_no', index: 1 };
  },
  'a match state edited between hands, the hand re-signed': (m) => {
    const h = m.hands[1];
    const ms = h.records[0].event.body.match_state;
    const k = Object.keys(ms).find((x) => typeof ms[x] === 'number') ?? Object.keys(ms)[0];
    if (typeof ms[k] === 'number') ms[k] += 1;
    else ms[k] = 'x';
    resign(h, 0);
    // the next hand's prev_hand now names a changed hash: that is later; this hand breaks first
    return { m, rule: 'match_state', index: 1, engineMayDiffer: true, resigned: true };
  },
  'a prev_hand hash changed, the hand re-signed': (m) => {
    const h = m.hands[2];
    h.records[0].event.body.prev_hand.hash = hexFlip(h.records[0].event.body.prev_hand.hash);
    resign(h, 0);
    return { m, rule: 'prev_hand', index: 2, resigned: true };
  },
  'another club in one hand, re-signed': (m) => {
    const h = m.hands[0];
    h.records[0].event.body.club += '-x';
    resign(h, 0);
    return { m, rule: 'match_header', index: 0, resigned: true };
  },
  'a hand that does not verify': (m) => {
    m.hands[1].records[3].sig = hexFlip(m.hands[1].records[3].sig);
    return { m, rule: 'hand', index: 1 };
  },
};

for (const f of MATCHES) {
  const name = f.split('/').pop();
  for (const [tname, fn] of Object.entries(MATCH_TAMPERS)) {
    test(`tamper match ${name}: ${tname}`, async () => {
      const made = fn(clone(readJson(f)));
      const input = JSON.stringify(made.m);
      const r = await verifyMatch(input);
      assert.equal(r.ok, false);
      const signed = made.m.hands.some((h) => h.records[0].event.body.player_signatures === 'required');
      if (signed && made.resigned) {
        // re-signing changes every later prev, which the players' own signatures bind:
        // a forger holding the service key but not theirs is caught at the first signed action
        made.rule = 'hand';
        assert.equal(r.first_problem.in_hand.rule, 'player_signature');
      }
      assert.equal(r.first_problem.rule, made.rule, JSON.stringify(r.first_problem));
      assert.equal(r.first_problem.hand_index, made.index);
      if (REPLAYER) {
        const v = replayerOn(input, 'm.json');
        assert.equal(v.code, 1, v.stderr);
        const rp = v.verdict.problem;
        if (made.engineMayDiffer && rp.rule !== made.rule) {
          // the engine refused the edited match state inside the hand first (rule `hand`)
          assert.equal(rp.rule, 'hand');
        } else {
          assert.equal(rp.rule, made.rule, JSON.stringify(rp));
        }
      }
    });
  }
}

test('verifyRecords: a running hand\'s player signatures, and a forged one', async () => {
  const m = readJson(join(VECTORS, 'match-v1', 'hokm-4-seats-3-hands-seed-chain.json'));
  const recs = m.hands[0].records.slice(0, 30);
  const r = await verifyRecords(recs, { trustedKeys: [TEST_PUBLIC] });
  assert.equal(r.ok, true, JSON.stringify(r.first_problem));
  assert.ok(r.player_signatures_verified > 0);
  const bad = clone(recs);
  const i = bad.findIndex((x) => x.event.player_sig);
  bad[i].event.player_sig.sig = hexFlip(bad[i].event.player_sig.sig, 2);
  resign({ records: bad }, i);
  const f = await verifyRecords(bad, { trustedKeys: [TEST_PUBLIC] });
  assert.equal(f.first_problem.rule, 'player_signature');
  assert.equal(f.first_problem.seq, i);
});

// Any one change anywhere inside an event, not re-signed, is caught at that event: 60
// changes drawn by a fixed generator over every kind of value an event holds.
test('random single changes inside events are caught at their event', async () => {
  let x = 12345;
  const rnd = (n) => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return x % n;
  };
  const bundles = BUNDLES.map((f) => readJson(f));
  for (let t = 0; t < 60; t++) {
    const b = clone(bundles[rnd(bundles.length)]);
    const i = rnd(b.records.length);
    // every path to a scalar in the event
    const paths = [];
    const walk = (v, p) => {
      if (v !== null && typeof v === 'object') for (const k of Object.keys(v)) walk(v[k], [...p, k]);
      else paths.push(p);
    };
    walk(b.records[i].event, []);
    const p = paths[rnd(paths.length)];
    let o = b.records[i].event;
    for (const k of p.slice(0, -1)) o = o[k];
    const k = p[p.length - 1];
    const v = o[k];
    o[k] = typeof v === 'number' ? v + 1 : typeof v === 'string' ? v + 'x' : typeof v === 'boolean' ? !v : 0;
    const r = await verifyBundle(JSON.stringify(b));
    assert.equal(r.ok, false, `changing ${p.join('.')} of event ${i} went unseen`);
    assert.equal(r.first_problem.seq, i, `${p.join('.')}: ${r.first_problem.message}`);
    assert.equal(r.first_problem.rule, 'hash');
  }
});

// Private actions (docs/EVENT-LOG.md §3.9): no engine has one yet, so a hand with one is
// built here from a vector, with its opening in the reveal, and re-signed.
import { privateInputCommitment } from '../src/verify/eventlog.js';
import { fromHex as hx, toHex as th } from '../src/verify/bytes.js';

function withPrivateAction(opening = (o) => o) {
  const b = clone(readJson(BUNDLES[0]));
  const i = idxOf(b, (x) => x.type === 'action', 1) + 1;
  const prevEvent = b.records[i - 1].event;
  const action = { type: 'arrange', order: [2, 0, 1] };
  const actor = { seat: 1 };
  const salt = '0d'.repeat(32);
  const ev = { v: 1, hand: b.hand, seq: i, prev: '', time_ms: prevEvent.time_ms, body: { type: 'private_action', actor, commitment: '', public: { type: 'arrange' } } };
  ev.body.commitment = th(privateInputCommitment(hx(salt), action, actor, b.hand, i));
  b.records.splice(i, 0, { event: ev, hash: '', signer: b.records[0].signer, sig: '' });
  b.records.forEach((r, k) => (r.event.seq = k));
  const last = b.records[b.records.length - 1].event.body;
  last.inputs = opening([{ seq: i, salt, action }]);
  if (last.inputs === null) delete last.inputs;
  return { b: resign(b, i), i };
}

test('a private action opened in the reveal verifies; a wrong, missing or extra opening is refused', async () => {
  const good = withPrivateAction();
  const r = await verifyBundle(JSON.stringify(good.b));
  assert.equal(r.ok, true, JSON.stringify(r.first_problem));
  assert.equal(r.checks.find((c) => c.id === 'private_inputs').ok, true);

  const wrong = withPrivateAction((o) => [{ ...o[0], action: { type: 'arrange', order: [0, 1, 2] } }]);
  let f = await verifyBundle(JSON.stringify(wrong.b));
  assert.equal(f.first_problem.rule, 'private_input');
  assert.equal(f.first_problem.seq, wrong.i);
  assert.equal(f.first_problem.id, 'private_inputs');

  const missing = withPrivateAction(() => null);
  f = await verifyBundle(JSON.stringify(missing.b));
  assert.equal(f.first_problem.rule, 'private_input');
  assert.equal(f.first_problem.seq, missing.i);

  const extra = withPrivateAction((o) => [...o, { seq: o[0].seq + 1, salt: '0e'.repeat(32), action: {} }]);
  f = await verifyBundle(JSON.stringify(extra.b));
  assert.equal(f.first_problem.rule, 'reveal_inputs');
  assert.equal(f.first_problem.seq, extra.b.records.length - 1);
});

test('a version-2 match with a quarantined hand: the links skip it, and a bad list is refused', async () => {
  const m = clone(readJson(join(VECTORS, 'match-v1', 'hokm-4-seats-3-hands.json')));
  const [h1, h2, h3] = m.hands;
  const b3 = h3.records[0].event.body;
  b3.prev_hand = { hand: h1.hand, hash: h1.records[h1.records.length - 1].hash };
  b3.match_state = h1.records.find((r) => r.event.body.type === 'hand_ended').event.body.next_match;
  resign(h3, 0);
  const q = { hand: h2.hand, hand_no: 2, reason: 'a row edited behind the service\'s back', quarantined_ms: 1796139876840, seq: 7, rule: 'hash' };
  const v2 = { ...m, version: 2, hands: [h1, h3], quarantined: [q] };
  const r = await verifyMatch(JSON.stringify(v2));
  assert.equal(r.ok, true, JSON.stringify(r.first_problem));
  assert.deepEqual(r.hands.map((h) => [h.hand_no, !!h.quarantined]), [[1, false], [2, true], [3, false]]);
  // the same file as version 1 has a gap in the numbers
  const v1 = await verifyMatch(JSON.stringify({ ...m, hands: [h1, h3] }));
  assert.equal(v1.first_problem.rule, 'hand_no');
  // a quarantined hand listed twice, or numbered past the end
  const twice = await verifyMatch(JSON.stringify({ ...v2, quarantined: [q, { ...q, hand: 'other' }] }));
  assert.equal(twice.first_problem.rule, 'quarantined');
  const past = await verifyMatch(JSON.stringify({ ...v2, quarantined: [q, { ...q, hand: 'other', hand_no: 9 }] }));
  assert.equal(past.first_problem.rule, 'hand_no');
});

// Match files that carry penalty rulings (version 3, docs/BUNDLE.md §8 rule 7), changed by a
// forger who holds the service's key (the vectors' test key, secret 0x01 × 32): every
// entry is re-hashed and re-signed with it, and the hand that carries the ruling re-linked
// to the new hash and re-signed, so that the hash and the service's signatures all hold and
// only the check named can tell. The forger of the ruling on the carrying hand also holds
// the official's key (secret 0x02 × 32, as replayer/tests/penalty_match.rs signs the
// vector's ruling).
import { sign } from '../src/verify/ed25519.js';
import { sha256, concat, tag } from '../src/verify/bytes.js';
import { canonicalBytes } from '../src/verify/json.js';

const V3 = listJson(join(VECTORS, 'match-v3'));
const OFFICIAL_SECRET = new Uint8Array(32).fill(2);
// The domain tags of docs/DISPUTES.md, re-derived here from their names.
const ENTRY_HASH = tag('persian-cards/dispute-entry/v1');
const ENTRY_SIG = tag('persian-cards/dispute-entry-signature/v1');
const RULING_SIG = tag('persian-cards/ruling/v1');

/** The official's signature over a ruling entry's terms, as a forger with their key makes it. */
function resignOfficial(e) {
  const b = e.body;
  const terms = { club: e.club, decision: b.decision, dispute: e.dispute, hand: e.hand, official: b.official, penalty: 'penalty' in b ? b.penalty : null, prev: e.prev, reason: b.reason, seq: e.seq };
  b.official_sig = th(sign(OFFICIAL_SECRET, concat(RULING_SIG, canonicalBytes(terms))));
}

/**
 * Re-hashes and re-signs match `m`'s ruling with the service's test key, points the
 * adjustment that carries it (in whichever hand) at the new hash, and re-signs that hand.
 */
function resignRuling(m) {
  const r = m.rulings[0];
  const old = r.hash;
  r.hash = th(sha256(ENTRY_HASH, canonicalBytes(r.entry)));
  r.sig = th(sign(TEST_SECRET, concat(ENTRY_SIG, hx(r.hash))));
  for (const h of m.hands) {
    const adj = h.records[0].event.body.adjustments ?? [];
    const a = adj.find((x) => x.hash === old);
    if (a) {
      a.hash = r.hash;
      resign(h, 0);
    }
  }
  return m;
}

const V3_TAMPERS = {
  // The official signs the reason: the service's key alone cannot change it.
  'a ruling\'s reason changed, re-signed with the service key': (m) => {
    m.rulings[0].entry.body.reason = 'another reason';
    return { m: resignRuling(m), rule: 'adjustment_official', index: 1 };
  },
  // The official signs the penalty, not the award (the engine's arithmetic from it): an
  // award changed in the entry alone no longer matches the one the hand carries.
  'a ruling\'s award changed in its entry only, re-signed with the service key': (m) => {
    m.rulings[0].entry.body.award.points += 2;
    return { m: resignRuling(m), rule: 'adjustment_award', index: 1 };
  },
  // A ruling may only reach back: one on the hand that carries it is refused, even signed
  // by its official.
  'a ruling on the hand that carries it, re-signed with the service and official keys': (m) => {
    const e = m.rulings[0].entry;
    e.hand = m.hands[1].hand;
    resignOfficial(e);
    return { m: resignRuling(m), rule: 'adjustment_hand', index: 1 };
  },
  // Carried twice: the second hand's adjustment listed again after the match's last hand.
  'a ruling carried into the match twice, re-signed with the service key': (m) => {
    m.trailing_adjustments = [clone(m.hands[1].records[0].event.body.adjustments[0])];
    return { m: resignRuling(m), rule: 'adjustment_twice', index: 2 };
  },
};

for (const f of V3) {
  const name = f.split('/').pop();
  test(`match-v3 ${name}: the vector's ruling still verifies after resignRuling (the helper forges nothing by itself)`, async () => {
    const m = resignRuling(clone(readJson(f)));
    const r = await verifyMatch(JSON.stringify(m));
    assert.equal(r.ok, true, JSON.stringify(r.first_problem));
    assert.equal(r.adjustments.length, 1);
  });
  for (const [tname, fn] of Object.entries(V3_TAMPERS)) {
    test(`tamper match-v3 ${name}: ${tname}`, async () => {
      const made = fn(clone(readJson(f)));
      const input = JSON.stringify(made.m);
      const r = await verifyMatch(input);
      assert.equal(r.ok, false);
      assert.equal(r.first_problem.rule, made.rule, JSON.stringify(r.first_problem));
      assert.equal(r.first_problem.hand_index, made.index, JSON.stringify(r.first_problem));
      if (REPLAYER) {
        const v = replayerOn(input, 'm.json');
        assert.equal(v.code, 1, v.stderr);
        assert.equal(v.verdict.problem.rule, made.rule, JSON.stringify(v.verdict.problem));
      }
    });
  }
}
