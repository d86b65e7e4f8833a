// The data `replayer view` embeds (README, "Embedded data"): the page's reader
// (src/embedded.js) against hand-made patches, and, where the replayer is built, against
// the replayer itself: every step's view read back from a `replayer view` page must
// deep-equal `replayer replay FILE --step N --json`'s table, for simulated hands of every
// engine, a match file and a tampered bundle (views up to its first problem only).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { mkdtempSync, writeFileSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { applyPatch, expandViews, readEmbedded } from '../src/embedded.js';
import { REPLAYER, runReplayer } from './replayer.mjs';

const TMP = mkdtempSync(join(tmpdir(), 'viewer-embedded-'));
after(() => rmSync(TMP, { recursive: true, force: true }));

test('applyPatch: add, remove, replace at any depth, pointers escaped, the input untouched', () => {
  const doc = { seats: [{ cards: ['7H', '9D', 'KS'] }, { cards: [] }], 'a/b': 1, 'c~d': { x: null }, 'سارا!': 2 };
  const before = JSON.stringify(doc);
  const out = applyPatch(doc, [
    { op: 'remove', path: '/seats/0/cards/1' },
    { op: 'add', path: '/seats/1/cards/0', value: 'QC' },
    { op: 'add', path: '/seats/1/cards/-', value: 'AS' },
    { op: 'replace', path: '/a~1b', value: [1] },
    { op: 'remove', path: '/c~0d/x' },
    { op: 'add', path: '/سارا!', value: { n: 3 } },
    { op: 'add', path: '/new', value: null },
  ]);
  assert.deepEqual(out, { seats: [{ cards: ['7H', 'KS'] }, { cards: ['QC', 'AS'] }], 'a/b': [1], 'c~d': {}, 'سارا!': { n: 3 }, new: null });
  assert.equal(JSON.stringify(doc), before, 'the previous step keeps its view');
  assert.deepEqual(applyPatch({ a: 1 }, [{ op: 'replace', path: '', value: [2] }]), [2]);
  assert.throws(() => applyPatch({ a: [] }, [{ op: 'remove', path: '/a/b/c' }]));
  assert.throws(() => applyPatch({ a: [] }, [{ op: 'add', path: '/a/5', value: 1 }]));
  assert.throws(() => applyPatch({ a: 1 }, [{ op: 'move', from: '/a', path: '/b' }]));
});

test('readEmbedded: version 2 views made whole, version 1 as it is', () => {
  const v2 = {
    format: 'persian-cards/replay-page',
    version: 2,
    native: {
      verdict: { valid: true },
      hands: [{ verdict: { valid: true }, views: { encoding: 'first+json-patch', count: 3, first: { p: [1] }, patches: [[{ op: 'add', path: '/p/1', value: 2 }], []] } }],
    },
  };
  const r = readEmbedded(v2);
  assert.deepEqual(r.native.hands[0].steps, [
    { step: 0, view: { p: [1] } },
    { step: 1, view: { p: [1, 2] } },
    { step: 2, view: { p: [1, 2] } },
  ]);
  assert.notEqual(r.native.hands[0].steps[1].view, r.native.hands[0].steps[2].view, 'each step its own object');
  assert.deepEqual(expandViews({ encoding: 'first+json-patch', count: 0, first: null, patches: [] }), []);
  const v1 = { version: 1, native: { hands: [{ steps: [{ step: 0, view: {} }] }] } };
  assert.equal(readEmbedded(v1), v1);
});

function embeddedOf(html) {
  const m = /<script type="application\/json" id="embedded-data">([\s\S]*?)<\/script>/.exec(html);
  assert.ok(m, 'the page holds its data');
  return JSON.parse(m[1]);
}

function must(args) {
  const r = runReplayer(args);
  assert.equal(r.code, 0, `replayer ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

/** Writes `bundle` and checks every step of `views` (whole) against `replayer replay`. */
function sameAsReplay(name, bundle, steps) {
  const p = join(TMP, `${name}.json`);
  writeFileSync(p, JSON.stringify(bundle));
  for (const s of steps) {
    const table = JSON.parse(must(['replay', p, '--step', String(s.step), '--json'])).table;
    assert.deepEqual(s.view, table, `${name}: step ${s.step}`);
  }
}

function viewPage(file) {
  const out = `${file}.html`;
  must(['view', file, '--out', out]);
  return readEmbedded(embeddedOf(readFileSync(out, 'utf8')));
}

const SIMULATED = [
  ['bist-o-yek', 4, '31'],
  ['hokm', 4, '5a'],
  ['bluff', 4, 'c3'],
  ['bluff', 6, '07'],
];

for (const [game, players, seed] of SIMULATED) {
  test(`replayer view, ${game} for ${players}: every step's view read back is the replayer's`, { skip: !REPLAYER && 'the replayer is not built' }, () => {
    const file = join(TMP, `${game}-${players}.json`);
    must(['simulate', '--game', game, '--players', String(players), '--seed', seed.repeat(32), '-o', file]);
    const bundle = JSON.parse(readFileSync(file, 'utf8'));
    const data = viewPage(file);
    assert.equal(data.version, 2);
    const steps = data.native.hands[0].steps;
    assert.equal(steps.length, bundle.records.length);
    assert.deepEqual(steps.map((s) => s.step), bundle.records.map((_, i) => i));
    sameAsReplay(`${game}-${players}`, bundle, steps);
  });
}

test('replayer view of a match file: every hand, every step', { skip: !REPLAYER && 'the replayer is not built' }, () => {
  const file = join(TMP, 'match.json');
  must(['simulate', '--game', 'hokm', '--players', '4', '--hands', '3', '--rules', '{"target_points": 2}', '--seed', '9e'.repeat(32), '-o', file]);
  const match = JSON.parse(readFileSync(file, 'utf8'));
  const data = viewPage(file);
  assert.equal(data.kind, 'match');
  assert.equal(data.native.hands.length, match.hands.length);
  match.hands.forEach((h, i) => {
    const steps = data.native.hands[i].steps;
    assert.equal(steps.length, h.records.length, `hand ${i}`);
    // Every step of the first hand; a sample of the others.
    sameAsReplay(`match-hand-${i}`, h, i === 0 ? steps : steps.filter((_, k) => k % 7 === 0));
  });
});

test('replayer view of a tampered bundle: views up to its first problem only', { skip: !REPLAYER && 'the replayer is not built' }, () => {
  const file = join(TMP, 'sound.json');
  must(['simulate', '--game', 'bluff', '--players', '4', '--seed', 'd4'.repeat(32), '-o', file]);
  const bundle = JSON.parse(readFileSync(file, 'utf8'));
  const k = Math.floor(bundle.records.length / 2);
  bundle.records[k].hash = '00'.repeat(32);
  const bad = join(TMP, 'tampered.json');
  writeFileSync(bad, JSON.stringify(bundle));
  const data = viewPage(bad);
  assert.equal(data.native.verdict.valid, false);
  assert.equal(data.native.verdict.problem.event, k);
  const steps = data.native.hands[0].steps;
  assert.equal(steps.length, k);
  sameAsReplay('tampered', bundle, steps.filter((_, i) => i % 5 === 0 || i === k - 1));
});
