// Stage 2: the table models. For every bundle we have (the vectors, the fixtures, every hand
// of the match vectors, and, where the replayer is built, freshly simulated hands of every
// engine), each step's view must deep-equal the replayer's (`replayer replay FILE --step N
// --json`, its `table`): directly where the replayer is built, and always against the
// golden digests in fixtures/golden/views.json, made from the replayer by make-golden.mjs
// (and checked to be its views still, where it is built).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { mkdtempSync, writeFileSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { VECTORS, FIXTURES, REPO, readJson, readText, allBundles, viewDigest } from './helpers.mjs';
import { stepViews, SUPPORTED_GAMES } from '../src/games/index.js';
import { verifyBundle } from '../src/verify/index.js';
import { REPLAYER, runReplayer } from './replayer.mjs';

// Every file this test writes goes under one folder, removed when its tests end.
const TMP = mkdtempSync(join(tmpdir(), 'viewer-test-'));
after(() => rmSync(TMP, { recursive: true, force: true }));

test('every game with an engine in the replayer has a table model', () => {
  const src = readFileSync(join(REPO, 'replayer', 'src', 'games', 'mod.rs'), 'utf8');
  const reg = src.slice(src.indexOf('pub fn registry'));
  const body = reg.slice(0, reg.indexOf('\n}\n'));
  const engines = [...body.matchAll(/GameId::([A-Za-z]+)\s*=>\s*Ok/g)].map((m) => m[1].replace(/[A-Z]/g, (c) => '-' + c.toLowerCase()).slice(1));
  assert.ok(engines.length >= 3, `engines found in the registry: ${engines}`);
  for (const g of engines) assert.ok(SUPPORTED_GAMES.includes(g), `the replayer has an engine for ${g} but the viewer has no table model for it`);
});

test('a game without a model throws unsupported_game', () => {
  const b = readJson(join(VECTORS, 'bundles-v1', 'bluff-4-seats-relabel.json'));
  b.records[0].event.body.game = 'no-such-game';
  assert.throws(() => stepViews(b, {}), (e) => e.code === 'unsupported_game');
});

const golden = existsSync(join(FIXTURES, 'golden', 'views.json')) ? readJson(join(FIXTURES, 'golden', 'views.json')) : {};

for (const [name, b] of allBundles()) {
  test(`views ${name}: every step as the replayer draws it`, async () => {
    const r = await verifyBundle(b);
    assert.equal(r.ok, true, JSON.stringify(r.first_problem));
    const steps = stepViews(b, r.decks);
    assert.equal(steps.length, b.records.length);
    for (const s of steps) {
      assert.ok(s.text.en.length > 0 && s.text.fa.length > 0, `text at ${s.seq}`);
      assert.match(s.text.fa, /[\u0600-\u06FF]/, `Persian text at ${s.seq}`);
    }
    const g = golden[name];
    assert.ok(g, `no golden digests for ${name}: run node test/make-golden.mjs --write with the replayer built`);
    assert.equal(g.length, steps.length);
    for (const s of steps) {
      if (viewDigest(s.view) !== g[s.seq]) {
        let detail = '';
        if (REPLAYER) detail = JSON.stringify(diffOne(b, s));
        assert.fail(`${name}: the view after event ${s.seq} differs from the replayer's ${detail}`);
      }
    }
  });
}

// The golden digests are what the replayer draws now: a change to an engine's view that
// left views.json behind would otherwise go on testing the viewer against the old views.
for (const [name, b] of allBundles()) {
  test(`golden digests of ${name} are the replayer's views now`, { skip: !REPLAYER && 'the replayer is not built' }, () => {
    const g = golden[name];
    assert.ok(g, `no golden digests for ${name}`);
    assert.equal(g.length, b.records.length, `${name}: golden digests for ${g.length} steps, the bundle has ${b.records.length}`);
    const p = bundleFile(b);
    b.records.forEach((_, i) => {
      const rep = runReplayer(['replay', p, '--step', String(i), '--json']);
      assert.equal(rep.code, 0, rep.stderr);
      assert.equal(viewDigest(JSON.parse(rep.stdout).table), g[i], `${name}: views.json is behind the replayer at step ${i}: node test/make-golden.mjs --write`);
    });
  });
}

// The bundle written to a file of its own under TMP, for the replayer to read.
function bundleFile(b) {
  const p = join(mkdtempSync(join(TMP, 'vlib-b-')), 'b.json');
  writeFileSync(p, JSON.stringify(b));
  return p;
}

function diffOne(b, s) {
  const p = bundleFile(b);
  const want = JSON.parse(runReplayer(['replay', p, '--step', String(s.seq), '--json']).stdout).table;
  const diffs = [];
  const walk = (a, w, path) => {
    if (JSON.stringify(a) === JSON.stringify(w)) return;
    if (a && w && typeof a === 'object' && typeof w === 'object') {
      for (const k of new Set([...Object.keys(a), ...Object.keys(w)])) walk(a[k], w[k], `${path}.${k}`);
    } else diffs.push({ path, js: a, replayer: w });
  };
  walk(s.view, want, '');
  return diffs.slice(0, 5);
}

// Fresh hands of every engine, simulated by the replayer under default and other house
// rules, compared with the replayer at every step (one process per step: a few seconds).
const RULES = {
  bistA: { max_bet: { fixed: 200 }, khabar_multiple: 2, side_bets: true, tie_rule: 'push', banker_swap: 'every_duel', deal_mode: 'one_at_a_time', shuffle_every_round: true },
  hokmA: { hakem_draw: 'highest_card', cut: 'dealers_left_cuts', removed_two: 'S', ten_low: 'unlimited', peek_burned: true, kot_3p: true, bam_fail: 'plain_win', new_round_hakem: 'redraw', target_points: 3, rounds_to_win: 2 },
  hokmB: { hakem_draw: 'highest_card', partnerships: 'by_draw', dealer_seat: 'hakem_right_allowed', cut: 'none', trump_methods: ['direct', 'sar_ghermez', 'sar_siah', 'barg_vasat', 'ya_x_ya_y'], ten_low: 'unlimited', kot_at_six: 'on_any', dealer_peek: true },
  pasurA: { deal_packet: 1, table_jack_return: 'bottom_of_stock', capture_compulsion: 'optional', multi_set_capture: true, sur_forbidden: 'never', clubs_bonus: 'seven_or_more' },
  bluffA: { uneven_deal: 'set_aside_remainder', follow_count: 'same_as_lead', max_cards_per_play: 'unlimited', allow_pass: true },
};
const SIMS = [
  ['bist-o-yek', 2, {}], ['bist-o-yek', 6, RULES.bistA], ['bist-o-yek', 9, {}],
  ['hokm', 2, RULES.hokmA], ['hokm', 3, RULES.hokmA], ['hokm', 4, RULES.hokmB],
  ['bluff', 4, RULES.bluffA], ['bluff', 6, RULES.bluffA],
  ['pasur', 2, {}], ['pasur', 3, RULES.pasurA], ['pasur', 4, { four_player_mode: 'individual', tie_break_eligibility: 'tied_only' }],
];
SIMS.forEach(([game, players, rules], n) => {
  test(`views of a simulated ${game} hand, ${players} players, equal the replayer's at every step`, { skip: !REPLAYER && 'the replayer is not built' }, async () => {
    const dir = mkdtempSync(join(TMP, 'vlib-s-'));
    const out = join(dir, 'b.json');
    const seed = (0x40 + n).toString(16).repeat(32);
    const sim = runReplayer(['simulate', '--game', game, '--players', String(players), '--rules', JSON.stringify(rules), '--seed', seed, '--output', out]);
    assert.equal(sim.code, 0, sim.stderr);
    const b = readJson(out);
    const r = await verifyBundle(readText(out));
    assert.equal(r.ok, true, JSON.stringify(r.first_problem));
    const steps = stepViews(b, r.decks);
    for (const s of steps) {
      const rep = runReplayer(['replay', out, '--step', String(s.seq), '--json']);
      assert.equal(rep.code, 0, rep.stderr);
      assert.deepEqual(s.view, JSON.parse(rep.stdout).table, `${game} ${players}: step ${s.seq}`);
    }
  });
});

test('the words say what the effects say', () => {
  const bl = readJson(join(VECTORS, 'bundles-v1', 'bluff-4-seats-relabel.json'));
  const steps = stepViews(bl);
  const endIdx = bl.records.findIndex((r) => r.event.body.type === 'hand_ended');
  const thief = bl.records.flatMap((r) => r.event.body.effects ?? []).find((e) => e.type === 'hand_ended').thief;
  assert.match(steps[endIdx].text.en, new RegExp(`seat ${thief}\\) thief`));
  assert.match(steps[endIdx].text.fa, /دزد/);
  const by = readJson(join(VECTORS, 'bundles-v1', 'bist-o-yek-5-seats-restocks.json'));
  const bs = stepViews(by);
  const bet = by.records.findIndex((r) => r.event.body.type === 'action' && r.event.body.action.type === 'bet');
  assert.match(bs[bet].text.en, new RegExp(`bets ${by.records[bet].event.body.action.amount} toman`));
  assert.match(bs[bet].text.fa, /خواند/);
  const m = readJson(join(VECTORS, 'match-v1', 'hokm-4-seats-3-hands.json'));
  const h = m.hands[0];
  const hs = stepViews(h);
  const play = h.records.findIndex((r) => r.event.body.type === 'action' && r.event.body.action.type === 'play');
  const face = h.records[play].event.body.effects.find((e) => e.type === 'played').card.face;
  assert.ok(hs[play].text.en.includes(`(${face})`), hs[play].text.en);
});

test('a penalty ruling carried into the match is said in words at the hand that applies it', async () => {
  const { describe } = await import('../src/ui/describe.js');
  const m = readJson(join(VECTORS, 'match-v3', 'hokm-4-seats-2-hands-penalty.json'));
  const started = m.hands[1].records[0];
  const players = started.event.body.seats.map((s) => s.player);
  const words = describe(started, { game: 'hokm', players });
  assert.match(words.en, /penalty ruling counts in the match before this hand \(dispute d_penalty, ruling entry 1\)/);
  // Names in Unicode isolates (drawn as <bdi>), so that their punctuation stays in place.
  assert.match(words.en, /the cheating penalty \(hokm §12\.3\) against \u2068Shirin\u2069 \(seat 1\), 1 point\(s\) to \u2068Dariush\u2069 \(seat 0\) and \u2068Babak\u2069 \(seat 2\)/);
  assert.match(words.fa, /رأی جریمهٔ داور باشگاه/);
  assert.match(words.fa, /جریمهٔ تقلب/);
  const first = describe(m.hands[0].records[0], { game: 'hokm', players });
  assert.doesNotMatch(first.en, /penalty/);
});
