// Ghahve's table model (src/games/ghahve.js) against the replayer: simulated hands under the
// default house rules and with buying, partners by draw and no cut; every step's view must
// deep-equal `replayer replay FILE --step N --json`'s table, and every step has English and
// Persian words.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { stepViews } from '../src/games/index.js';
import { verifyBundle } from '../src/verify/index.js';
import { REPLAYER, runReplayer } from './replayer.mjs';

const TMP = mkdtempSync(join(tmpdir(), 'viewer-ghahve-'));
after(() => rmSync(TMP, { recursive: true, force: true }));

const CASES = [
  [1, {}],
  [2, { buying: 'on', partnerships: 'by_draw', cut: 'none' }],
  [3, { joker_lead: 'calls_spades', cj_release: 'next_trick', bj_deadline: 9, cheating_penalty: 'none' }],
];
for (const [i, rules] of CASES) {
  test(`ghahve views, house rules ${JSON.stringify(rules)}, equal the replayer's at every step`, { skip: !REPLAYER && 'the replayer is not built' }, async () => {
    const out = join(TMP, `g${i}.json`);
    const sim = runReplayer(['simulate', '--game', 'ghahve', '--players', '4', '--rules', JSON.stringify(rules), '--seed', String(50 + i).repeat(32), '--output', out]);
    assert.equal(sim.code, 0, sim.stderr);
    const text = readFileSync(out, 'utf8');
    const r = await verifyBundle(text);
    assert.equal(r.ok, true, JSON.stringify(r.first_problem));
    const steps = stepViews(JSON.parse(text), r.decks);
    for (const s of steps) {
      assert.ok(s.text.en.length > 0, `words at ${s.seq}`);
      assert.match(s.text.fa, /[\u0600-\u06FF]/, `Persian words at ${s.seq}`);
      const rep = runReplayer(['replay', out, '--step', String(s.seq), '--json']);
      assert.equal(rep.code, 0, rep.stderr);
      assert.deepEqual(s.view, JSON.parse(rep.stdout).table, `step ${s.seq}`);
    }
  });
}
