// A Shelem hand on the replay page, in headless Chromium: a 4-player hand simulated by the
// replayer and dropped on the page (no server: the table comes from the in-browser model,
// src/games/shelem.js), stepped through; at a step inside a trick and at the end, the
// seats' cards, the trick and the words are read off the page and compared with the
// replayer's own view of the same step (`replayer replay FILE --step N --json`). The laid-
// away cards are a private action: the step after it shows the hakem with 12 cards.
//
//   cd viewer && CHROMIUM_BIN=$(command -v chromium) node --test e2e/game-shelem.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { execFileSync } from 'node:child_process';
import { chromium } from 'playwright-core';
import { binary } from './service.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ARTIFACTS = join(HERE, 'artifacts');
mkdirSync(ARTIFACTS, { recursive: true });
const TMP = mkdtempSync(join(tmpdir(), 'viewer-e2e-shelem-'));

async function stepTo(page, seq) {
  await page.evaluate((s) => {
    location.hash = `step=${s}`;
  }, seq);
  await page.waitForFunction((s) => document.getElementById('step-text')?.dataset.seq === String(s), seq);
}

test('a Shelem hand on the replay page', { timeout: 300000 }, async () => {
  const replayer = binary('replayer', 'REPLAYER_BIN');
  // A hand that is played (not passed out): try seeds until one is.
  let path = null;
  let b = null;
  for (let i = 1; i < 30 && !path; i++) {
    const p = join(TMP, `shelem-${i}.json`);
    execFileSync(replayer, ['simulate', '--game', 'shelem', '--players', '4', '--seed', i.toString(16).padStart(2, '0').repeat(32), '-o', p]);
    const x = JSON.parse(readFileSync(p, 'utf8'));
    if (x.records.some((r) => r.event.body.type === 'private_action')) {
      path = p;
      b = x;
    }
  }
  assert.ok(path, 'a played shelem hand');
  const recs = b.records.map((r) => r.event.body);
  const plays = recs.map((x, i) => (x.type === 'action' && x.action.type === 'play' ? i : -1)).filter((i) => i >= 0);
  const laid = recs.findIndex((x) => x.type === 'private_action');
  const want = (n) => JSON.parse(execFileSync(replayer, ['replay', path, '--step', String(n), '--json']).toString()).table;

  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_BIN || '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const drop = join(TMP, 'drop.html');
    execFileSync(replayer, ['view', '--out', drop]);
    const page = await browser.newPage();
    const requests = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(pathToFileURL(drop).href);
    await page.waitForSelector('#file', { state: 'attached' });
    await page.locator('#file').setInputFiles(path);
    await page.waitForSelector('#step-text');
    await page.waitForSelector('.check[data-check="chain"]:not([data-ok="pending"])', { timeout: 30000 });
    for (const id of ['commitments', 'decks', 'chain', 'signatures']) {
      assert.equal(await page.locator(`.check[data-check="${id}"]`).getAttribute('data-ok'), 'true', id);
    }
    assert.equal(await page.locator('.views-source').getAttribute('data-source'), 'browser');

    // After the lay-away: the hakem holds 12 cards, as the replayer says.
    const hakem = recs[laid].actor.seat;
    await stepTo(page, laid);
    const atLaid = want(laid);
    const hakemCards = (atLaid.zones.find((z) => z.zone === 'hand' && z.of === hakem)?.cards ?? []).map((c) => c.face).sort();
    assert.equal(hakemCards.length, 12);
    const drawnHakem = (await page.locator(`.seat[data-seat="${hakem}"]`).getAttribute('data-cards')).split(',').filter(Boolean).sort();
    assert.deepEqual(drawnHakem, hakemCards, "the hakem's 12 cards after laying 4 away");
    assert.match(await page.locator('#step-text').textContent(), /secret choice/);

    // Inside the second trick: every seat's cards and the trick, in the order played.
    const at = plays[5];
    await stepTo(page, at);
    const w = want(at);
    for (let s = 0; s < 4; s++) {
      const zone = w.zones.find((z) => z.zone === 'hand' && z.of === s);
      const faces = (zone?.cards ?? []).map((c) => c.face).sort();
      const drawn = (await page.locator(`.seat[data-seat="${s}"]`).getAttribute('data-cards')).split(',').filter(Boolean).sort();
      assert.deepEqual(drawn, faces, `seat ${s}'s cards`);
    }
    const trick = await page.$$eval('.center .played-card .card', (els) => els.map((e) => e.dataset.card));
    assert.deepEqual(trick, w.trick.map((c) => c.face), 'the trick, in the order played');
    assert.match(await page.locator('#step-text').textContent(), /plays (the )?(ace|king|queen|jack|\d+) of/);
    assert.ok(w.trump, 'trump was named by the first lead');
    await page.screenshot({ path: join(ARTIFACTS, 'shelem-trick.png'), fullPage: true });

    // The last play: the count, in words.
    const last = plays[plays.length - 1];
    await stepTo(page, last);
    const end = want(last);
    assert.ok(end.row && end.row.h + end.row.o === 165, JSON.stringify(end.row));
    assert.match(await page.locator('#step-text').textContent(), new RegExp(`hakem team took ${end.row.h}`));
    assert.ok(requests.every((u) => u.startsWith('file:') || u.startsWith('data:')), `requests left the page: ${requests}`);
    await page.close();
  } finally {
    await browser.close();
  }
});
