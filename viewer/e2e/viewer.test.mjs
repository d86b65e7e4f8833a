// The replay page end to end, in headless Chromium (Debian's `chromium`, driven by
// playwright-core): the real service on its embedded store, a hand played over the API,
// the page opened at /hands/{id}#token=…, stepped through, what is drawn and said checked
// at chosen steps; a seat's running hand; share links (and their revocation and expiry);
// a `replayer view` page and a dropped file, sound and tampered. Screenshots go to
// viewer/e2e/artifacts/ (kept by CI, ignored by git).
//
//   cd viewer && node --test e2e/        (ops/test.sh runs it after the cargo tests)
//
// AUDIT_SERVICE_BIN, REPLAYER_BIN: the binaries (default <target>/debug/…);
// CHROMIUM_BIN: the browser (default /usr/bin/chromium).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { execFileSync } from 'node:child_process';
import { chromium } from 'playwright-core';
import { startService, must, api, createTable, startHand, playToEnd, step, rng, binary } from './service.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ARTIFACTS = join(HERE, 'artifacts');
mkdirSync(ARTIFACTS, { recursive: true });
const TMP = mkdtempSync(join(tmpdir(), 'viewer-e2e-files-'));

/** Every face in a view (a card with a `face`), as a multiset-free list. */
function facesIn(v, out = []) {
  if (Array.isArray(v)) v.forEach((x) => facesIn(x, out));
  else if (v && typeof v === 'object') {
    if (typeof v.face === 'string') out.push(v.face);
    for (const [k, x] of Object.entries(v)) if (k !== 'face' && x && typeof x === 'object') facesIn(x, out);
  }
  return out;
}

async function shot(page, name) {
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

async function stepTo(page, seq) {
  await page.evaluate((s) => {
    location.hash = `step=${s}`;
  }, seq);
  await page.waitForFunction((s) => document.getElementById('step-text')?.dataset.seq === String(s), seq);
}

async function seqShown(page) {
  return Number(await page.locator('#step-text').getAttribute('data-seq'));
}

async function check(page, id) {
  const el = page.locator(`.check[data-check="${id}"]`);
  return { ok: await el.getAttribute('data-ok'), seq: await el.getAttribute('data-seq') };
}

/** Waits until the browser's verification has finished (no row pending). */
async function verified(page) {
  await page.waitForSelector('.check[data-check="chain"]:not([data-ok="pending"])', { timeout: 30000 });
}

test('the replay page in Chromium', { timeout: 300000 }, async (t) => {
  const svc = await startService();
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_BIN || '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  const replayer = binary('replayer', 'REPLAYER_BIN');
  try {
    const table = await createTable(svc);
    const hand = await startHand(svc, table);
    await playToEnd(svc, hand, table, 17);
    const all = await must(svc, 'GET', `/v1/hands/${hand}/replay/steps`, svc.admin);
    const last = all.steps[all.steps.length - 1].step;
    // A step where a duel's total is on the table, and one where a seat bets.
    const totalStep = all.steps.find((s) => Number.isInteger(s.view?.duel?.total));
    const betStep = all.steps.find((s) => s.event.event.body.type === 'action' && s.event.event.body.action.type === 'bet');
    assert.ok(totalStep, 'the hand has a duel with a total');
    assert.ok(betStep, 'the hand has a bet');
    const bundleText = (await api(svc, 'GET', `/v1/hands/${hand}/bundle`, svc.admin)).text;
    const bundlePath = join(TMP, 'hand.json');
    writeFileSync(bundlePath, bundleText);

    /** The table at `totalStep` as the page draws it: the duel player's cards and total. */
    async function checkTotal(page) {
      await stepTo(page, totalStep.step);
      const duel = totalStep.view.duel;
      const seat = page.locator(`.seat[data-seat="${duel.player}"]`);
      assert.equal(await seat.getAttribute('data-total'), String(duel.total), 'the total drawn at the duel player');
      const drawn = (await seat.getAttribute('data-cards')).split(',').filter(Boolean);
      for (const c of duel.cards) assert.ok(drawn.includes(c.face), `${c.face} in seat ${duel.player}'s hand: ${drawn}`);
      // Every face drawn anywhere is one the view shows, and every face of a seat's cards too.
      const faces = await page.$$eval('.table .card', (els) => els.map((e) => e.dataset.card).filter((c) => c !== 'hidden'));
      const want = facesIn(totalStep.view);
      for (const f of faces) assert.ok(want.includes(f), `${f} drawn but not in the view`);
      if (totalStep.view.banker !== null && Number.isInteger(totalStep.view.banker_total)) {
        const b = page.locator(`.seat[data-seat="${totalStep.view.banker}"]`);
        assert.equal(await b.getAttribute('data-total'), String(totalStep.view.banker_total));
      }
    }

    await t.test('a served hand: drawn, said, stepped, verified', async () => {
      const page = await browser.newPage();
      await page.goto(`${svc.base}/hands/${hand}#token=${svc.admin}`);
      await page.waitForSelector('#step-text');
      assert.ok(!page.url().includes(svc.admin), 'the credential leaves the address bar');
      assert.equal(await seqShown(page), last, 'opens at the last step');
      await verified(page);
      for (const id of ['commitments', 'decks', 'chain', 'signatures', 'rules', 'settlement']) {
        assert.equal((await check(page, id)).ok, 'true', id);
      }
      assert.equal(await page.locator('.panel .source').getAttribute('data-source'), 'server');
      await checkTotal(page);
      await shot(page, 'served-total');
      await stepTo(page, betStep.step);
      const amount = betStep.event.event.body.action.amount;
      assert.match(await page.locator('#step-text').textContent(), new RegExp(`bets ${amount}`));
      // The keyboard, the slider, autoplay.
      await page.keyboard.press('Home');
      assert.equal(await seqShown(page), 0);
      assert.match(await page.locator('#step-text').textContent(), /starts/);
      for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
      assert.equal(await seqShown(page), 3);
      assert.ok(page.url().endsWith('#step=3'), page.url());
      await page.keyboard.press('End');
      assert.equal(await seqShown(page), last);
      await page.locator('#first').click();
      await page.locator('#play').click();
      await page.waitForFunction(() => Number(document.getElementById('step-text').dataset.seq) >= 2, null, { timeout: 10000 });
      await page.locator('#play').click();
      await page.locator('#slider').evaluate((el) => {
        el.value = '5';
        el.dispatchEvent(new Event('input', { bubbles: true }));
      });
      assert.equal(await seqShown(page), 5);
      // Persian, right to left.
      await page.locator('button.lang').click();
      assert.equal(await page.evaluate(() => document.documentElement.dir), 'rtl');
      await stepTo(page, betStep.step);
      assert.match(await page.locator('#step-text').textContent(), /شرط/);
      await shot(page, 'served-fa');
      // A link to a step opens there.
      const linked = await browser.newPage();
      await linked.goto(`${svc.base}/hands/${hand}#token=${svc.admin}&step=${totalStep.step}`);
      await linked.waitForSelector('#step-text');
      assert.equal(await seqShown(linked), totalStep.step);
      await linked.close();
      await page.close();
    });

    await t.test('a phone-sized screen', async () => {
      const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 });
      const page = await ctx.newPage();
      await page.goto(`${svc.base}/hands/${hand}#token=${svc.admin}&step=${totalStep.step}`);
      await page.waitForSelector('.seat');
      const wide = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(wide <= 392, `no sideways scrolling (${wide}px)`);
      await shot(page, 'phone');
      await ctx.close();
    });

    await t.test("a seat's running hand shows no other seat's face", async () => {
      const h2 = await startHand(svc, table);
      const r = rng(5);
      // Play until a seat sees a face the public does not (its own card) while another
      // card on the table stays hidden from it.
      const hiddenIn = (v, n = 0) => {
        if (Array.isArray(v)) return v.reduce((a, x) => hiddenIn(x, a), n);
        if (!v || typeof v !== 'object') return n;
        if ('face_up' in v && !('face' in v)) n++;
        for (const x of Object.values(v)) if (x && typeof x === 'object') n = hiddenIn(x, n);
        return n;
      };
      let me = null;
      for (let i = 0; i < 300 && me === null; i++) {
        const done = await step(svc, h2, table, r);
        assert.equal(done, null, 'the hand is still running');
        const pub = facesIn((await must(svc, 'GET', `/v1/hands/${h2}`, svc.admin)).view);
        for (let s = 0; s < table.tokens.length && me === null; s++) {
          const view = (await must(svc, 'GET', `/v1/hands/${h2}`, table.tokens[s])).view;
          const mine = facesIn(view).some((f) => !pub.includes(f));
          if (mine && hiddenIn(view) > 0) me = s;
        }
      }
      assert.notEqual(me, null, 'a seat holds a hidden card of its own');
      const publicFaces = facesIn((await must(svc, 'GET', `/v1/hands/${h2}`, svc.admin)).view);
      const page = await browser.newPage();
      await page.goto(`${svc.base}/hands/${h2}#token=${table.tokens[me]}`);
      await page.waitForSelector('.seat');
      assert.equal(await page.locator('[data-viewer]').getAttribute('data-viewer'), 'seat');
      const seats = await page.$$eval('.seat', (els) => els.map((e) => ({ seat: Number(e.dataset.seat), pos: e.dataset.pos, cards: [...e.querySelectorAll('.card')].map((c) => c.dataset.card) })));
      const mine = seats.find((s) => s.seat === me);
      assert.equal(mine.pos, '0', 'the seat is drawn at the bottom');
      assert.ok(mine.cards.some((c) => c !== 'hidden'), 'the seat sees its own card');
      for (const s of seats.filter((x) => x.seat !== me)) {
        for (const c of s.cards) assert.ok(c === 'hidden' || publicFaces.includes(c), `seat ${s.seat}'s ${c} is not public`);
        assert.ok(s.cards.length === 0 || s.cards.includes('hidden') || s.cards.every((c) => publicFaces.includes(c)));
      }
      await verified(page);
      assert.equal((await check(page, 'chain')).ok, 'true');
      await shot(page, 'seat-running');
      await page.close();
      await playToEnd(svc, h2, table, 9);
    });

    await t.test('a share link works until revoked, and until it expires', async () => {
      const made = await must(svc, 'POST', `/v1/hands/${hand}/share`, svc.admin, {});
      const ctx = await browser.newContext();
      const page = await ctx.newPage();
      await page.goto(made.url);
      await page.waitForSelector('.seat');
      assert.ok(!page.url().includes('share='), 'the token leaves the address bar');
      await verified(page);
      assert.equal((await check(page, 'rules')).ok, 'true');
      await shot(page, 'share');
      await must(svc, 'DELETE', `/v1/hands/${hand}/share/${made.share_id}`, svc.admin);
      await page.reload();
      await page.waitForSelector('.error');
      assert.match(await page.locator('.error').textContent(), /share_revoked/);
      await ctx.close();
      const short = await must(svc, 'POST', `/v1/hands/${hand}/share`, svc.admin, { expires_in_secs: 1 });
      await new Promise((r) => setTimeout(r, 1500));
      const p2 = await browser.newPage();
      await p2.goto(short.url);
      await p2.waitForSelector('.error');
      assert.match(await p2.locator('.error').textContent(), /share_expired/);
      await p2.close();
    });

    // The bundle tampered with: a bet's amount changed, its record not re-signed.
    const tampered = JSON.parse(bundleText);
    const k = tampered.records.findIndex((r) => r.event.body.type === 'action' && r.event.body.action.type === 'bet');
    tampered.records[k].event.body.action.amount += 1;
    const tamperedPath = join(TMP, 'tampered.json');
    writeFileSync(tamperedPath, JSON.stringify(tampered, null, 1));

    /** Opens a page from disk, collecting every request it makes. */
    async function openFromDisk(path) {
      const page = await browser.newPage();
      const requests = [];
      page.on('request', (r) => requests.push(r.url()));
      await page.goto(pathToFileURL(path).href);
      return { page, requests };
    }
    const onlyLocal = (requests) => requests.every((u) => u.startsWith('file:') || u.startsWith('data:'));

    await t.test('a replayer view page: native rules, no request', async () => {
      const out = join(TMP, 'hand.html');
      execFileSync(replayer, ['view', bundlePath, '--out', out]);
      const { page, requests } = await openFromDisk(out);
      await page.waitForSelector('#step-text');
      await verified(page);
      assert.equal(await page.locator('.panel .source').getAttribute('data-source'), 'native');
      assert.equal(await page.locator('.views-source').getAttribute('data-source'), 'native');
      for (const id of ['commitments', 'decks', 'chain', 'signatures', 'rules', 'settlement']) assert.equal((await check(page, id)).ok, 'true', id);
      await checkTotal(page);
      await shot(page, 'replayer-view');
      assert.ok(onlyLocal(requests), `requests left the page: ${requests}`);
      await page.close();

      const bad = join(TMP, 'tampered.html');
      execFileSync(replayer, ['view', tamperedPath, '--out', bad]);
      const t2 = await openFromDisk(bad);
      await t2.page.waitForSelector('#step-text');
      await verified(t2.page);
      const chain = await check(t2.page, 'chain');
      assert.equal(chain.ok, 'false');
      assert.equal(chain.seq, String(k), 'the failure is named at the tampered step');
      await t2.page.locator(`.check[data-check="chain"] .goto`).click();
      assert.equal(await seqShown(t2.page), k);
      await shot(t2.page, 'replayer-view-tampered');
      assert.ok(onlyLocal(t2.requests));
      await t2.page.close();
    });

    await t.test('a dropped file, sound and tampered', async () => {
      const drop = join(TMP, 'drop.html');
      execFileSync(replayer, ['view', '--out', drop]);
      const { page, requests } = await openFromDisk(drop);
      await page.waitForSelector('#file', { state: 'attached' });
      await page.locator('#file').setInputFiles(bundlePath);
      await page.waitForSelector('#step-text');
      await verified(page);
      for (const id of ['commitments', 'decks', 'chain', 'signatures']) assert.equal((await check(page, id)).ok, 'true', id);
      assert.equal(await page.locator('.panel .source').getAttribute('data-source'), 'none');
      // The table from the in-browser engines (src/games), the same as the service's.
      assert.equal(await page.locator('.views-source').getAttribute('data-source'), 'browser');
      await checkTotal(page);
      await stepTo(page, betStep.step);
      assert.match(await page.locator('#step-text').textContent(), /bets/);
      await shot(page, 'dropped');
      await page.reload();
      await page.waitForSelector('#file', { state: 'attached' });
      await page.locator('#file').setInputFiles(tamperedPath);
      await page.waitForSelector('#step-text');
      await verified(page);
      const chain = await check(page, 'chain');
      assert.equal(chain.ok, 'false');
      assert.equal(chain.seq, String(k));
      await page.locator(`.check[data-check="chain"] .goto`).click();
      assert.equal(await seqShown(page), k);
      await shot(page, 'dropped-tampered');
      assert.ok(onlyLocal(requests), `requests left the page: ${requests}`);
      await page.close();
    });

    await t.test('a match file hand by hand (Hokm): the cards in their seats, the trick, trump', async () => {
      const matchPath = join(TMP, 'match.json');
      execFileSync(replayer, ['simulate', '--game', 'hokm', '--players', '4', '--hands', '2', '--seed', '11'.repeat(32), '-o', matchPath]);
      const match = JSON.parse(readFileSync(matchPath, 'utf8'));
      assert.ok(match.hands.length >= 2, 'two hands');
      const h2Path = join(TMP, 'match-hand-2.json');
      writeFileSync(h2Path, JSON.stringify(match.hands[1]));
      // A step with cards on the trick: two plays after the first.
      const plays = match.hands[1].records.map((r, i) => (r.event.body.type === 'action' && r.event.body.action.type === 'play' ? i : -1)).filter((i) => i >= 0);
      const at = plays[1];
      const want = JSON.parse(execFileSync(replayer, ['replay', h2Path, '--step', String(at), '--json']).toString()).table;
      const out = join(TMP, 'match.html');
      execFileSync(replayer, ['view', matchPath, '--out', out]);
      const { page, requests } = await openFromDisk(out);
      await page.waitForSelector('.seat');
      await verified(page);
      assert.equal(await page.locator('.match-verdict').getAttribute('data-ok'), 'true');
      await page.locator('#next-hand').click();
      assert.equal(await page.locator('#hand-label').textContent(), `Hand 2 of ${match.hands.length}`);
      await stepTo(page, at);
      for (let s = 0; s < 4; s++) {
        const zone = want.zones.find((z) => z.zone === 'hand' && z.of === s);
        const faces = (zone?.cards ?? []).map((c) => c.face).sort();
        const drawn = (await page.locator(`.seat[data-seat="${s}"]`).getAttribute('data-cards')).split(',').filter(Boolean).sort();
        assert.deepEqual(drawn, faces, `seat ${s}'s cards`);
      }
      const trick = await page.$$eval('.center .played-card .card', (els) => els.map((e) => e.dataset.card));
      assert.deepEqual(trick, want.trick.map((c) => c.face), 'the trick, in the order played');
      if (want.trump) assert.match(await page.locator('.center').textContent(), /♠|♥|♦|♣/);
      assert.match(await page.locator('#step-text').textContent(), /plays (ace|king|queen|jack|\d+) of/);
      await shot(page, 'match-hokm');
      assert.ok(onlyLocal(requests));
      await page.close();
    });

    await t.test('a dropped match file whose second hand carries a penalty ruling says so', async () => {
      const vector = join(HERE, '..', '..', 'docs', 'vectors', 'match-v3', 'hokm-4-seats-2-hands-penalty.json');
      const m = JSON.parse(readFileSync(vector, 'utf8'));
      const carried = m.hands[1].records[0].event.body.adjustments;
      assert.equal(carried.length, 1, 'the vector carries one ruling into hand 2');
      const drop = join(TMP, 'drop-match.html');
      execFileSync(replayer, ['view', '--out', drop]);
      const { page, requests } = await openFromDisk(drop);
      await page.waitForSelector('#file', { state: 'attached' });
      await page.locator('#file').setInputFiles(vector);
      await page.waitForSelector('#step-text');
      assert.equal(await page.locator('.match-verdict').getAttribute('data-ok'), 'true');
      await page.locator('#next-hand').click();
      await stepTo(page, 0);
      // The table and its words from this browser's models: no native steps in a dropped file.
      assert.equal(await page.locator('.views-source').getAttribute('data-source'), 'browser');
      const text = await page.locator('#step-text').textContent();
      assert.match(text, /starts/);
      assert.match(text, new RegExp(`penalty ruling counts in the match before this hand \\(dispute ${carried[0].dispute}, ruling entry ${carried[0].seq}\\)`));
      assert.ok(onlyLocal(requests));
      await page.close();
    });

    assert.ok(!svc.log().includes(svc.admin.split('_').pop()), 'no credential in the service log');
  } finally {
    await browser.close();
    svc.stop();
    rmSync(TMP, { recursive: true, force: true });
  }
});
