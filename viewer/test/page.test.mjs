// The page's logic without a browser (issue 28): the verdict and the steps it marks
// unproven, the bookkeeping steps, the step a hand opens on, Hokm's tricks (the fourth
// card and the winner), results with teams and titles, phase names, the seat views.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { verifyBundle } from '../src/verify/index.js';
import { stepViews } from '../src/games/index.js';
import { verdictOf, isUnproven } from '../src/ui/verdict.js';
import { groupSteps, isBookkeeping, nextPlay, resultIndex, trickAt, trickNumber, endedBy } from '../src/ui/steps.js';
import { resultOf, hokmSides } from '../src/ui/result.js';
import { phaseName, iso, STRINGS } from '../src/ui/i18n.js';
import { allBundles, clone, resign } from './helpers.mjs';
import { REPLAYER } from './replayer.mjs';

const bundles = allBundles();
const gameOf = (b) => b.records[0].event.body.game;
const stepsOf = (b, decks) => {
  const v = stepViews(b, decks);
  return b.records.map((record, i) => ({ seq: record.event.seq, record, view: v[i].view, text: v[i].text }));
};

test('there are Hokm, Bluff and 21 hands to test with', () => {
  for (const g of ['hokm', 'bluff', 'bist-o-yek']) assert.ok(bundles.filter(([, b]) => gameOf(b) === g).length >= 2, g);
});

test('a sound hand: verified by the trusted key, no step unproven', async () => {
  for (const [name, b] of bundles.slice(0, 8)) {
    const crypto = await verifyBundle(JSON.stringify(b));
    const steps = b.records.map((r) => ({ seq: r.event.seq, record: r }));
    const ok = [{ id: 'rules', ok: true }, { id: 'settlement', ok: true }];
    assert.equal(verdictOf({ crypto, rules: ok, ruleSource: 'native', steps, status: b.status }).state, 'self', name);
    const trusted = await verifyBundle(JSON.stringify(b), { trustedKeys: b.keys.map((k) => k.public_key) });
    const v = verdictOf({ crypto: trusted, rules: ok, ruleSource: 'server', steps, status: b.status });
    assert.equal(v.state, 'verified', name);
    assert.equal(v.badFrom, null);
    assert.deepEqual(v.keys, [...new Set(b.records.map((r) => r.signer))]);
    assert.equal(verdictOf({ crypto: trusted, rules: null, ruleSource: 'none', steps, status: b.status }).state, 'partial');
    assert.equal(verdictOf({ crypto: null, rules: null, steps }).state, 'pending');
    for (let i = 0; i < steps.length; i++) assert.equal(isUnproven(v, i), false);
  }
});

test('a tampered hand: failed at the changed record, every step from there on unproven', async () => {
  let n = 0;
  for (const [name, b] of bundles) {
    // Change a value inside an action's record (not re-signed), at several places.
    const actions = b.records.map((r, i) => (r.event.body.type === 'action' ? i : -1)).filter((i) => i > 0);
    for (const k of [actions[0], actions[Math.floor(actions.length / 2)]]) {
      const t = clone(b);
      t.records[k].event.time_ms += 1;
      const crypto = await verifyBundle(JSON.stringify(t));
      const steps = t.records.map((r) => ({ seq: r.event.seq, record: r }));
      const v = verdictOf({ crypto, rules: null, ruleSource: 'none', steps, status: t.status });
      assert.equal(v.state, 'failed', name);
      assert.equal(v.problem.seq, k, name);
      assert.equal(v.badFrom, k);
      for (let i = 0; i < steps.length; i++) assert.equal(isUnproven(v, i), i >= k, `${name} step ${i}`);
      n++;
    }
  }
  assert.ok(n >= 10);
  // A rules verdict naming an earlier step wins over a later crypto problem; a whole-file
  // problem (no step) makes every step unproven.
  const steps = [0, 1, 2, 3, 4].map((seq) => ({ seq, record: {} }));
  const crypto = { ok: false, checks: [{ id: 'chain', ok: false, seq: 3 }], signers: [] };
  assert.equal(verdictOf({ crypto, rules: [{ id: 'rules', ok: false, seq: 1 }], steps }).badFrom, 1);
  assert.equal(verdictOf({ crypto: { ok: false, checks: [{ id: 'log_proof', ok: false, seq: null }] }, rules: null, steps }).badFrom, 0);
});

test('bookkeeping steps are grouped, play steps are what ← → walk', () => {
  for (const [name, b] of bundles) {
    const steps = b.records.map((r) => ({ seq: r.event.seq, record: r }));
    const book = steps.filter((s) => isBookkeeping(s.record));
    // Seeds, commitments and the reveal are bookkeeping; actions never are.
    for (const s of steps) {
      const ty = s.record.event.body.type;
      if (['client_seed', 'shuffle_committed', 'seeds_revealed'].includes(ty)) assert.ok(isBookkeeping(s.record), `${name} ${ty}`);
      if (['action', 'hand_started', 'hand_ended'].includes(ty)) assert.ok(!isBookkeeping(s.record), `${name} ${ty}`);
      // A shuffle that deals or draws cards is play.
      if (ty === 'shuffled' && s.record.event.body.effects?.some((e) => ['dealt', 'draw_card'].includes(e.type))) assert.ok(!isBookkeeping(s.record));
    }
    const groups = groupSteps(steps);
    const covered = groups.flatMap((g) => (g.kind === 'play' ? [g.i] : [...Array(g.to - g.from + 1).keys()].map((k) => g.from + k)));
    assert.deepEqual(covered, steps.map((_, i) => i), name);
    assert.equal(groups.filter((g) => g.kind === 'book').reduce((a, g) => a + g.to - g.from + 1, 0), book.length);
    // Walking forward from the start visits every play step and no bookkeeping step.
    const seen = [0];
    for (let i = 0, j; (j = nextPlay(steps, i, 1)) !== i; i = j) seen.push(j);
    assert.deepEqual(seen.slice(1), steps.map((s, i) => (i > 0 && !isBookkeeping(s.record) ? i : -1)).filter((i) => i >= 0), name);
    // The hand opens on its result, not on the reveal after it.
    const r = resultIndex(steps);
    assert.equal(steps[r].record.event.body.type, 'hand_ended', name);
    assert.ok(r < steps.length - 1);
  }
});

test("Hokm: every trick's four (or three, or two) cards and its winner, the last card included", async () => {
  let tricks = 0;
  for (const [name, b] of bundles.filter(([, x]) => gameOf(x) === 'hokm')) {
    const crypto = await verifyBundle(JSON.stringify(b));
    const steps = stepsOf(b, crypto.decks);
    const n = b.records[0].event.body.seats.length;
    for (let i = 0; i < steps.length; i++) {
      const tr = trickAt(steps, i);
      const won = (steps[i].record.event.body.effects ?? []).find((e) => e.type === 'trick_won');
      if (won) {
        tricks++;
        assert.equal(tr.done, true);
        assert.equal(tr.winner, won.seat);
        assert.equal(tr.cards.length, n, `${name} step ${i}: a whole trick`);
        assert.equal(new Set(tr.cards.map((c) => c.seat)).size, n, 'each seat once');
        // The cards are the ones the engine's view puts in the winner's pile at this step.
        const pile = steps[i].view.zones.find((z) => z.zone === 'won' && z.of === won.seat).cards.map((c) => c.face);
        for (const c of tr.cards) assert.ok(pile.includes(c.face), `${c.face} in seat ${won.seat}'s pile`);
        // And the view's own trick is already empty: that is why the page needs this.
        assert.equal(steps[i].view.trick.length, 0);
      } else if (!tr.done) {
        // Between tricks: the cards on the table are the view's trick, in order.
        assert.deepEqual(tr.cards.map((c) => c.face), steps[i].view.trick.map((c) => c.face), `${name} step ${i}`);
      }
    }
    // Trick numbers run 1..13 (or as many as were played).
    const last = steps.findLastIndex((s) => (s.record.event.body.effects ?? []).some((e) => e.type === 'trick_won'));
    assert.equal(trickNumber(steps, last), steps.slice(0, last + 1).filter((s) => (s.record.event.body.effects ?? []).some((e) => e.type === 'trick_won')).length);
  }
  assert.ok(tricks >= 20, `${tricks} tricks checked`);
});

test('Hokm results: the winning team by its players, tricks, points, the match score', () => {
  for (const [name, b] of bundles.filter(([, x]) => gameOf(x) === 'hokm')) {
    const steps = b.records.map((r) => ({ seq: r.event.seq, record: r }));
    const end = endedBy(steps, steps.length - 1);
    assert.ok(end, name);
    const o = end.body.outcome;
    const players = b.records[0].event.body.seats.map((s) => s.player);
    const r = resultOf('hokm', end.body, players, o.next?.seating);
    const n = o.seats;
    const sides = hokmSides(n, o.next?.seating, players);
    const w = sides.find((x) => x.side === o.winner);
    assert.deepEqual(r.winners, w.seats, name);
    for (const s of w.seats) assert.ok(r.title.en.includes(iso(players[s])), `${name}: ${r.title.en}`);
    assert.match(r.title.en, /wins the hand/);
    assert.match(r.title.fa, /برد/);
    const all = r.lines.map((l) => l.en).join('\n');
    assert.match(all, new RegExp(`Tricks: .*${o.tricks[o.winner]}`));
    assert.match(all, new RegExp(`Points for this hand: ${o.points[o.winner]}`));
    assert.match(all, /Match score/);
    // Persian: Persian digits only.
    assert.doesNotMatch(r.lines.map((l) => l.fa).join(' ').replace(/\u2068[^\u2069]*\u2069/g, ''), /[0-9]/);
    if (n === 4) {
      // Partners face each other: places 0 and 2 of the seating, 1 and 3.
      const seating = o.next.seating;
      assert.deepEqual(sides[0].seats, [seating[0], seating[2]]);
      assert.deepEqual(sides[1].seats, [seating[1], seating[3]]);
      assert.match(sides[0].label.en, /^Team A \(.+ & .+\)$/);
    }
  }
});

test('Bluff results: King first, Thief last, every seat with its title', () => {
  for (const [name, b] of bundles.filter(([, x]) => gameOf(x) === 'bluff')) {
    const steps = b.records.map((r) => ({ seq: r.event.seq, record: r }));
    const end = endedBy(steps, steps.length - 1);
    const o = end.body.outcome;
    const players = b.records[0].event.body.seats.map((s) => s.player);
    const r = resultOf('bluff', end.body, players);
    assert.equal(r.lines.length, o.order.length, name);
    assert.match(r.lines[0].en, new RegExp(`^1\\. .*${players[o.order[0]]}.*: King$`));
    assert.match(r.lines[r.lines.length - 1].en, /: Thief$/);
    assert.match(r.title.fa, /شاه/);
    assert.match(r.title.fa, /دزد/);
    assert.deepEqual(r.winners, [o.order[0]]);
  }
});

test('phase ids are words, in both languages', () => {
  for (const id of ['bank_offer', 'hand_over', 'awaiting_trump', 'playing', 'await_bet', 'relabel']) {
    assert.doesNotMatch(phaseName(id, 'en'), /_/);
    assert.match(phaseName(id, 'fa'), /[\u0600-\u06FF]/);
  }
  assert.equal(phaseName('some_new_phase', 'en'), 'some new phase');
});

test('names are isolated in the step texts and the strings (FSI … PDI)', () => {
  const b = clone(bundles.find(([, x]) => gameOf(x) === 'hokm')[1]);
  const names = ['Sara!', 'سارا', '(Ali)', 'Bob?', 'Ü-Name'];
  b.records[0].event.body.seats.forEach((s, i) => (s.player = names[i % names.length]));
  resign(b, 0);
  const steps = stepViews(b, null);
  const texts = steps.map((s) => s.text.fa).join('\n');
  for (const n of names.slice(0, b.records[0].event.body.seats.length)) assert.ok(texts.includes(iso(n)), n);
  assert.equal(iso('a\u2069b'), '\u2068ab\u2069', 'an isolate inside a name cannot close it early');
  assert.ok(STRINGS.fa.rtl && !STRINGS.en.rtl);
});

test("a seat's view: only the cards that seat could see, the same as the replayer's", async (t) => {
  const bin = REPLAYER;
  const dir = mkdtempSync(join(tmpdir(), 'viewer-seat-'));
  try {
    let compared = 0;
    for (const [name, b] of bundles.filter(([, x]) => ['hokm', 'bluff', 'bist-o-yek'].includes(gameOf(x))).slice(0, 6)) {
      const crypto = await verifyBundle(JSON.stringify(b));
      const all = stepViews(b, crypto.decks);
      const n = b.records[0].event.body.seats.length;
      for (const seat of [0, n - 1]) {
        const mine = stepViews(b, crypto.decks, { seat });
        const faces = (v) => JSON.stringify(v).match(/"face":"[^"]+"/g) ?? [];
        for (let i = 0; i < mine.length; i++) {
          // Never a face the full view does not have; at most as many faces as it.
          const f = faces(mine[i].view);
          const fa = faces(all[i].view);
          assert.ok(f.length <= fa.length, `${name} step ${i}`);
          assert.deepEqual(mine[i].view.viewer, { seat });
        }
        // Somewhere in the deal, a card this seat does not see.
        assert.ok(mine.some((s, i) => faces(s.view).length < faces(all[i].view).length), `${name}: seat ${seat} sees less than all`);
        if (bin) {
          const file = join(dir, 'b.json');
          writeFileSync(file, JSON.stringify(b));
          for (const i of [2, Math.floor(mine.length / 2), mine.length - 3]) {
            const want = JSON.parse(execFileSync(bin, ['replay', file, '--step', String(i), '--as', String(seat), '--json']).toString()).table;
            assert.deepEqual(mine[i].view, want, `${name} step ${i} seat ${seat}`);
            compared++;
          }
        }
      }
    }
    if (!bin) t.diagnostic('replayer not built: seat views not compared with it');
    else assert.ok(compared > 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
