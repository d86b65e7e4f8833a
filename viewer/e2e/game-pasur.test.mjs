// Pasur (Chahar Barg) on the replay page, in headless Chromium: a hand simulated by the
// replayer is dropped on an offline page (the table drawn by the browser's own model,
// src/games/pasur.js) and written as a `replayer view` page (the replayer's views); each is
// stepped through a capture and a sur, and the table it draws is read back and compared
// with `replayer replay --step N --json`.
//
//   cd viewer && node --test e2e/game-pasur.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { pathToFileURL } from 'node:url';
import { execFileSync } from 'node:child_process';
import { chromium } from 'playwright-core';
import { binary } from './service.mjs';

const TMP = mkdtempSync(join(tmpdir(), 'viewer-e2e-pasur-'));

/** Waits until the browser's verification has finished (no row pending). */
async function verified(page) {
  await page.waitForSelector('.check[data-check="chain"]:not([data-ok="pending"])', { timeout: 30000 });
}

async function stepTo(page, seq) {
  await page.evaluate((s) => {
    location.hash = `step=${s}`;
  }, seq);
  await page.waitForFunction((s) => document.getElementById('step-text')?.dataset.seq === String(s), seq);
}

/** The faces the page draws in the middle of the table, sorted. */
async function tableFaces(page) {
  const faces = await page.locator('.table .played [data-card]').evaluateAll((els) => els.map((e) => e.dataset.card));
  return faces.sort();
}

test('a Pasur hand on the replay page in Chromium', { timeout: 240000 }, async () => {
  const replayer = binary('replayer', 'REPLAYER_BIN');
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_BIN || '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const hand = join(TMP, 'pasur.json');
    execFileSync(replayer, ['simulate', '--game', 'pasur', '--players', '2', '--seed', '7a'.repeat(32), '--output', hand]);
    const bundle = JSON.parse(readFileSync(hand, 'utf8'));
    const records = bundle.records.map((r) => r.event);
    const played = (e) => (e.body.type === 'action' ? e.body.effects.find((x) => x.type === 'played') : null);
    // A step where a card takes two or more table cards, one where a card stays, and the
    // first sur (if the hand has one).
    const capture = records.find((e) => (played(e)?.capture ?? []).length >= 2);
    const trail = records.find((e) => played(e) && !(played(e).capture ?? []).length);
    const sur = records.find((e) => e.body.type === 'action' && e.body.effects.some((x) => x.type === 'sur'));
    assert.ok(capture && trail, 'the hand has a capture of two cards and a card left on the table');
    const steps = [capture, trail, sur].filter(Boolean);
    /** The table the replayer draws after event `seq`. */
    const replayTable = (seq) => {
      const out = execFileSync(replayer, ['replay', hand, '--step', String(seq), '--json']);
      return JSON.parse(out.toString()).table;
    };

    // Dropped on an offline page: the browser's own model draws the table.
    const drop = join(TMP, 'drop.html');
    execFileSync(replayer, ['view', '--out', drop]);
    const page = await browser.newPage();
    await page.goto(pathToFileURL(drop).href);
    await page.waitForSelector('#file', { state: 'attached' });
    await page.locator('#file').setInputFiles(hand);
    await page.waitForSelector('#step-text');
    await verified(page);
    assert.equal(await page.locator('.check[data-check="chain"]').getAttribute('data-ok'), 'true');
    assert.equal(await page.locator('.views-source').getAttribute('data-source'), 'browser');
    for (const e of steps) {
      await stepTo(page, e.seq);
      const want = replayTable(e.seq).table.map((c) => c.face).sort();
      assert.deepEqual(await tableFaces(page), want, `the table after event ${e.seq}`);
      const text = await page.locator('#step-text').textContent();
      const p = played(e);
      assert.ok(text.includes(`(${p.card.face})`), `the played card is named: ${text}`);
      if (e === capture) assert.match(text, /takes/, text);
      if (e === trail) assert.match(text, /onto the table/, text);
      if (e === sur) assert.match(text, /sur!/, text);
    }
    // The last step: the hand's points, side by side.
    await stepTo(page, records[records.length - 1].seq);
    assert.deepEqual(await tableFaces(page), []);
    await page.close();

    // The replayer's own page for the hand: the same table at the same steps.
    const out = join(TMP, 'hand.html');
    execFileSync(replayer, ['view', hand, '--out', out]);
    const native = await browser.newPage();
    await native.goto(pathToFileURL(out).href);
    await native.waitForSelector('#step-text');
    await verified(native);
    assert.equal(await native.locator('.views-source').getAttribute('data-source'), 'native');
    for (const e of steps) {
      await stepTo(native, e.seq);
      const want = replayTable(e.seq).table.map((c) => c.face).sort();
      assert.deepEqual(await tableFaces(native), want, `native: the table after event ${e.seq}`);
    }
    await native.close();
  } finally {
    await browser.close();
    rmSync(TMP, { recursive: true, force: true });
  }
});
