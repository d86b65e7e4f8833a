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
import { isBookkeeping } from '../src/ui/steps.js';

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
      const ended = all.steps.find((s) => s.event.event.body.type === 'hand_ended').step;
      assert.equal(await seqShown(page), ended, 'opens at the result, not at the seed reveal after it');
      assert.ok(ended < last);
      await page.waitForSelector('.result');
      assert.match(await page.locator('.result').textContent(), /over and settled/);
      // An API key's address cannot be passed on, and the page says so.
      assert.equal(await page.locator('.link-note').getAttribute('data-link'), 'private');
      await verified(page);
      await page.waitForSelector('#verdict[data-state="verified"]');
      assert.match(await page.locator('#verdict').textContent(), /signed by the service's published key ed25519:[0-9a-f]{16}/);
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
      // The arrows walk the play; seeds and shuffles are passed over (one click away in the list).
      const play = all.steps.filter((s) => s.step > 0 && !isBookkeeping(s.event)).map((s) => s.step);
      assert.ok(play.length < all.steps.length - 1, 'the hand has bookkeeping steps');
      for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
      assert.equal(await seqShown(page), play[2]);
      assert.ok(page.url().endsWith(`#step=${play[2]}`), page.url());
      await page.keyboard.press('ArrowLeft');
      assert.equal(await seqShown(page), play[1]);
      // The bookkeeping steps are grouped in the list, and a click opens one.
      const groups = await page.locator('.step-list li.book').count();
      assert.ok(groups >= 1);
      const book = all.steps.find((s) => isBookkeeping(s.event));
      await page.locator(`.step-list li.book summary`).first().click();
      await page.locator(`.step-list button[data-step="${book.step}"]`).click();
      assert.equal(await seqShown(page), book.step);
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

    await t.test('a share link works until revoked, and until it expires; its address can be passed on', async () => {
      const made = await must(svc, 'POST', `/v1/hands/${hand}/share`, svc.admin, {});
      const ctx = await browser.newContext();
      const page = await ctx.newPage();
      await page.goto(made.url);
      await page.waitForSelector('.seat');
      await verified(page);
      assert.equal((await check(page, 'rules')).ok, 'true');
      // The address in the bar is the share link, now with the step: it can be passed on.
      assert.equal(await page.locator('.link-note').getAttribute('data-link'), 'share');
      // Stepped with the buttons, the address follows the step and keeps the link.
      await page.locator('#first').click();
      await page.locator('#next').click();
      await page.locator('#next').click();
      const at = await seqShown(page);
      assert.ok(at > 0);
      const passed = page.url();
      assert.ok(passed.includes(`#share=${made.url.split('#share=')[1]}`) && passed.endsWith(`step=${at}`), passed);
      await shot(page, 'share');
      const other = await browser.newContext();
      const p3 = await other.newPage();
      await p3.goto(passed);
      await p3.waitForSelector('#step-text');
      assert.equal(await seqShown(p3), at, 'the passed-on address opens at the same step, for someone else');
      await verified(p3);
      assert.equal((await check(p3, 'signatures')).ok, 'true');
      await other.close();
      await must(svc, 'DELETE', `/v1/hands/${hand}/share/${made.share_id}`, svc.admin);
      await page.reload();
      await page.waitForSelector('section.gone');
      assert.equal(await page.locator('section.gone').getAttribute('data-code'), 'share_revoked');
      assert.match(await page.locator('section.gone h2').textContent(), /revoked/);
      assert.match(await page.locator('section.gone').textContent(), /ask the club for a new link/);
      assert.equal(await page.locator('#credential').count(), 0, 'no form asking for an API key');
      await shot(page, 'share-revoked');
      await ctx.close();
      const short = await must(svc, 'POST', `/v1/hands/${hand}/share`, svc.admin, { expires_in_secs: 1 });
      await new Promise((r) => setTimeout(r, 1500));
      const p2 = await browser.newPage();
      await p2.goto(short.url + '&lang=fa');
      await p2.waitForSelector('section.gone');
      assert.equal(await p2.locator('section.gone').getAttribute('data-code'), 'share_expired');
      assert.match(await p2.locator('section.gone h2').textContent(), /مهلت/);
      assert.equal(await p2.locator('#credential').count(), 0, 'no form asking for an API key');
      await shot(p2, 'share-expired-fa');
      await p2.goto(short.url.replace('#share=', '#lang=en&share='));
      await p2.reload();
      await p2.waitForSelector('section.gone h2');
      assert.match(await p2.locator('section.gone h2').textContent(), /expired/);
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
      // Each card of the trick in front of the seat that played it.
      const slots = await page.$$eval('.played-slot', (els) => els.map((e) => [Number(e.dataset.seat), e.dataset.cards]));
      const playedHere = match.hands[1].records.slice(0, at + 1).flatMap((r) => (r.event.body.effects ?? []).filter((e) => e.type === 'played'));
      const onTable = playedHere.slice(-want.trick.length);
      assert.deepEqual(onTable.map((e) => e.card.face), want.trick.map((c) => c.face), 'the trick, in the order played');
      assert.deepEqual(slots.sort(), onTable.map((e) => [e.seat, e.card.face]).sort());
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

    /** Simulates one hand with the replayer and writes its `replayer view` page. */
    function simulated(game, players, seedByte, extra = []) {
      const file = join(TMP, `${game}-${players}-${seedByte}.json`);
      execFileSync(replayer, ['simulate', '--game', game, '--players', String(players), '--seed', seedByte.repeat(32), '-o', file, ...extra]);
      const html = file.replace(/\.json$/, '.html');
      execFileSync(replayer, ['view', file, '--out', html]);
      return { file, html, bundle: JSON.parse(readFileSync(file, 'utf8')) };
    }

    await t.test('a tampered bundle: the verdict, the marked steps and the table say so', async () => {
      // A Hokm hand whose played card is changed in one record (not re-signed).
      const { bundle } = simulated('hokm', 4, '3c');
      const plays = bundle.records.map((r, i) => (r.event.body.type === 'action' && r.event.body.action.type === 'play' ? i : -1)).filter((i) => i >= 0);
      const k = plays[9];
      const forged = JSON.parse(JSON.stringify(bundle));
      const eff = forged.records[k].event.body.effects.find((e) => e.type === 'played');
      eff.card.face = eff.card.face === 'AS' ? 'KS' : 'AS';
      const path = join(TMP, 'hokm-forged.json');
      writeFileSync(path, JSON.stringify(forged));
      const out = join(TMP, 'hokm-forged.html');
      execFileSync(replayer, ['view', path, '--out', out]);
      const { page } = await openFromDisk(out);
      await page.waitForSelector('#verdict[data-state="failed"]');
      const verdict = page.locator('#verdict');
      assert.equal(await verdict.getAttribute('data-bad-from'), String(k));
      assert.match(await verdict.textContent(), new RegExp(`NOT verified.*first problem is at step ${k}.*changed after it was signed.*from step ${k} on is what the file claims`));
      assert.match(await page.locator('header .status').textContent(), /claims “completed”, not verified/);
      // Every step in the list at or after k is marked, none before.
      const marks = await page.$$eval('.step-list button[data-step]', (els) => els.map((e) => [Number(e.dataset.step), e.dataset.unproven]));
      assert.equal(marks.length, bundle.records.length);
      for (const [seq, u] of marks) assert.equal(u, String(seq >= k), `step ${seq}`);
      assert.equal(await page.locator('#slider').getAttribute('data-unproven-from'), String(k));
      // The table and the text at a step before, at, and after the forged one.
      for (const [seq, bad] of [[k - 1, false], [k, true], [k + 2, true]]) {
        await stepTo(page, seq);
        assert.equal(await page.locator('#step-text').getAttribute('data-unproven'), String(bad), `text at ${seq}`);
        assert.equal(await page.locator('.board .table').getAttribute('data-unproven'), String(bad), `table at ${seq}`);
        if (bad) {
          assert.match(await page.locator('#step-text').textContent(), /^⚠ Unproven: /);
          assert.match(await page.locator('.board').textContent(), new RegExp(`Unproven.*step ${k}`));
        }
      }
      await stepTo(page, k);
      await shot(page, 'tampered-hokm');
      await page.locator('#verdict-goto').click();
      assert.equal(await seqShown(page), k);
      await page.close();
    });

    await t.test("a Hokm hand: each trick's four cards and winner, and the result, read off the page", async () => {
      const { bundle, html } = simulated('hokm', 4, '5e');
      const { page } = await openFromDisk(html);
      await page.waitForSelector('.seat');
      await page.waitForSelector('#verdict[data-state="self"]');
      const seats = bundle.records[0].event.body.seats.map((s) => s.player);
      let tricks = 0;
      const started = [];
      for (const r of bundle.records) {
        const effects = r.event.body.effects ?? [];
        for (const e of effects) if (e.type === 'played') started.push(e);
        const won = effects.find((e) => e.type === 'trick_won');
        if (!won) continue;
        const trick = started.splice(0);
        await stepTo(page, r.event.seq);
        const slots = await page.$$eval('.played-slot', (els) => els.map((e) => ({ seat: Number(e.dataset.seat), card: e.dataset.cards, winner: e.dataset.winner })));
        assert.equal(slots.length, 4, `trick at ${r.event.seq}: four cards, the last one included`);
        assert.deepEqual(slots.map((x) => [x.seat, x.card]).sort(), trick.map((e) => [e.seat, e.card.face]).sort());
        assert.deepEqual(slots.filter((x) => x.winner === 'true').map((x) => x.seat), [won.seat], 'the winner marked');
        assert.match(await page.locator('.trick-banner').textContent(), new RegExp(`${seats[won.seat]} takes the trick`));
        if (tricks === 2) await shot(page, 'hokm-trick');
        tricks++;
      }
      assert.ok(tricks >= 7);
      // The result, where the hand opens.
      const o = bundle.records.find((r) => r.event.body.type === 'hand_ended').event.body.outcome;
      await page.goto(pathToFileURL(html).href);
      await page.waitForSelector('.result');
      const title = await page.locator('.result h3').textContent();
      const seating = o.next.seating;
      const team = o.winner === 0 ? [seating[0], seating[2]] : [seating[1], seating[3]];
      assert.match(title, new RegExp(`Team ${o.winner === 0 ? 'A' : 'B'} \\(${seats[team[0]]} & ${seats[team[1]]}\\) wins the hand`));
      assert.equal(await page.locator('.result').getAttribute('data-winners'), team.join(','));
      const lines = await page.locator('.result').textContent();
      assert.match(lines, new RegExp(`Tricks: Team A ${o.tricks[0]}, Team B ${o.tricks[1]}`));
      assert.match(lines, new RegExp(`Points for this hand: ${o.points[o.winner]} to Team ${o.winner === 0 ? 'A' : 'B'}`));
      assert.match(lines, new RegExp(`Match score: Team A ${o.next.scores[0]}, Team B ${o.next.scores[1]}`));
      // The score on the table names the teams.
      assert.match(await page.locator('.center').textContent(), /Team A \d+, Team B \d+/);
      await shot(page, 'hokm-result');
      await page.close();
    });

    await t.test("watching from a seat: its cards only during play, everything after the reveal", async () => {
      const { bundle, file, html } = simulated('hokm', 4, '7a');
      const plays = bundle.records.map((r, i) => (r.event.body.type === 'action' && r.event.body.action.type === 'play' ? i : -1)).filter((i) => i >= 0);
      const at = plays[5];
      const { page } = await openFromDisk(html);
      await page.waitForSelector('#watch:not([disabled])');
      await stepTo(page, at);
      await page.locator('#watch').selectOption('1');
      await page.waitForSelector('[data-watching="seat"]');
      const want = JSON.parse(execFileSync(replayer, ['replay', file, '--step', String(at), '--as', '1', '--json']).toString()).table;
      for (let s = 0; s < 4; s++) {
        const zone = want.zones.find((z) => z.zone === 'hand' && z.of === s);
        const faces = (zone?.cards ?? []).filter((c) => c.face).map((c) => c.face).sort();
        const el = page.locator(`.seat[data-seat="${s}"]`);
        assert.deepEqual((await el.getAttribute('data-cards')).split(',').filter(Boolean).sort(), faces, `seat ${s} as seat 1 saw it`);
        if (s !== 1) assert.ok(Number(await el.getAttribute('data-hidden')) > 0, `seat ${s}'s cards are backs`);
      }
      assert.equal(await page.locator('.seat[data-seat="1"]').getAttribute('data-pos'), '0', 'the watched seat at the bottom');
      assert.ok(page.url().includes('as=1'));
      await shot(page, 'watch-seat-1');
      // After the reveal: every card.
      await page.keyboard.press('End');
      await page.waitForSelector('[data-watching="after"]');
      assert.match(await page.locator('.watch-note').textContent(), /every card is shown/);
      await page.close();
    });

    await t.test('a Bluff hand: the pile never covers the page; the result names King and Thief', async () => {
      const { bundle, html } = simulated('bluff', 6, '4d');
      const { stepViews } = await import('../src/games/index.js');
      const views = stepViews(bundle, null);
      let big = 0;
      views.forEach((v, i) => {
        if ((v.view?.pile_size ?? 0) > (views[big].view?.pile_size ?? 0)) big = i;
      });
      assert.ok(views[big].view.pile_size >= 8, `a large pile (${views[big].view.pile_size})`);
      for (const [w, hgt, name] of [[1280, 800, 'bluff-pile'], [390, 844, 'bluff-pile-phone']]) {
        const ctx = await browser.newContext({ viewport: { width: w, height: hgt } });
        const page = await ctx.newPage();
        await page.goto(`${pathToFileURL(html).href}#step=${views[big].seq}`);
        await page.waitForSelector('.center');
        const box = async (sel) => page.locator(sel).first().boundingBox();
        const pile = await box('.center');
        for (const sel of ['header.top', '#step-text', 'nav.controls', '#verdict']) {
          const b = await box(sel);
          const overlap = !(pile.x + pile.width <= b.x || b.x + b.width <= pile.x || pile.y + pile.height <= b.y || b.y + b.height <= pile.y);
          assert.ok(!overlap, `${name}: the pile does not cover ${sel}`);
        }
        assert.equal(await page.locator('.center .pile').getAttribute('data-size'), String(views[big].view.pile_size));
        const next = await box('#next');
        assert.ok(next.y + next.height <= hgt, `${name}: the step buttons are on the first screen (${next.y})`);
        await shot(page, name);
        await ctx.close();
      }
      const o = bundle.records.find((r) => r.event.body.type === 'hand_ended').event.body.outcome;
      const seats = bundle.records[0].event.body.seats.map((s) => s.player);
      const { page } = await openFromDisk(html);
      await page.waitForSelector('.result');
      const items = await page.$$eval('.result li', (els) => els.map((e) => e.textContent));
      assert.equal(items.length, o.order.length);
      assert.equal(items[0], `1. ${seats[o.order[0]]}: King`);
      assert.equal(items[items.length - 1], `${o.order.length}. ${seats[o.order[o.order.length - 1]]}: Thief`);
      await shot(page, 'bluff-result');
      await page.close();
    });

    await t.test('Persian: names keep their punctuation, Persian digits and words, mirrored buttons and keys, lang after load', async () => {
      const names = ['Sara!', 'داریوش؟', '(Babak)'];
      const tb = await createTable(svc, names);
      const h3 = await startHand(svc, tb);
      await playToEnd(svc, h3, tb, 23);
      const steps = (await must(svc, 'GET', `/v1/hands/${h3}/replay/steps`, svc.admin)).steps;
      const page = await browser.newPage();
      await page.goto(`${svc.base}/hands/${h3}#token=${svc.admin}&step=1`);
      await page.waitForSelector('#step-text');
      assert.equal(await page.evaluate(() => document.documentElement.dir), 'ltr');
      // `&lang=fa` added to the address after the page has loaded.
      await page.evaluate(() => {
        location.hash += '&lang=fa';
      });
      await page.waitForFunction(() => document.documentElement.dir === 'rtl');
      assert.equal(await page.evaluate(() => document.title), 'بیست و یک · بازپخش دست', 'the tab title in Persian');
      await verified(page);
      // A step whose words name Sara!: the name is isolated, its "!" drawn after its "a".
      const seq = steps.find((s) => s.event.event.body.type === 'action' && s.event.event.body.actor?.seat === 0).step;
      await stepTo(page, seq);
      const bdi = page.locator('#step-text bdi').first();
      assert.equal(await bdi.textContent(), 'Sara!');
      assert.equal(await bdi.getAttribute('dir'), 'auto');
      const order = await page.evaluate(() => {
        const b = document.querySelector('#step-text bdi');
        const node = b.firstChild;
        const at = (i) => {
          const r = document.createRange();
          r.setStart(node, i);
          r.setEnd(node, i + 1);
          return r.getBoundingClientRect().x;
        };
        return { a: at(3), bang: at(4), s: at(0) };
      });
      assert.ok(order.s < order.a && order.a < order.bang, `"Sara!" reads left to right with "!" last: ${JSON.stringify(order)}`);
      // Names at the seats too.
      assert.deepEqual(await page.$$eval('.seat .name bdi', (els) => els.map((e) => e.textContent)), names);
      // Digits: the step label and the panel in Persian digits; phases in words.
      const label = await page.locator('#step-label').textContent();
      assert.match(label, /^گام [۰-۹]+ از [۰-۹]+$/);
      assert.doesNotMatch(await page.locator('.panel').textContent(), /\d+ events/);
      assert.match(await page.locator('.check[data-check="chain"] .detail').textContent(), /[۰-۹]+ رویداد/);
      const phase = await page.locator('.center .phase').textContent().catch(() => '');
      assert.doesNotMatch(phase, /_/);
      // « ‹ › » mirrored, and ← goes forward.
      assert.equal(await page.locator('#next').textContent(), '‹');
      assert.equal(await page.locator('#first').textContent(), '»');
      const before = await seqShown(page);
      await page.keyboard.press('ArrowLeft');
      assert.ok((await seqShown(page)) > before, '← goes forward right to left');
      await page.keyboard.press('ArrowRight');
      assert.equal(await seqShown(page), before);
      await shot(page, 'persian-names');
      await page.close();
    });

    await t.test('a phone: the step buttons on the first screen, the verdict at the top', async () => {
      const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 });
      const page = await ctx.newPage();
      await page.goto(`${svc.base}/hands/${hand}#token=${svc.admin}`);
      await page.waitForSelector('.seat');
      await verified(page);
      for (const sel of ['#next', '#prev', '#play', '#step-text', '#verdict']) {
        const b = await page.locator(sel).boundingBox();
        assert.ok(b.y >= 0 && b.y + b.height <= 844, `${sel} on the first screen (${b.y})`);
      }
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight / 2));
      const b = await page.locator('#next').boundingBox();
      assert.ok(b.y >= 0 && b.y + b.height <= 844, 'and still there when scrolled');
      await shot(page, 'phone-result');
      await ctx.close();
    });

    assert.ok(!svc.log().includes(svc.admin.split('_').pop()), 'no credential in the service log');
  } finally {
    await browser.close();
    svc.stop();
    rmSync(TMP, { recursive: true, force: true });
  }
});

// Issue 28, point 1: a service whose log key's vkey holds a '+' in its base64 (about half of
// all keys do). Such a service is started (a fresh store, a fresh key, until one does), a
// hand is played on it, and its page must show the log proof passed and the hand verified.
test("a page served with a log key whose vkey holds a '+'", { timeout: 300000 }, async () => {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_BIN || '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  let svc = null;
  try {
    let vkey = null;
    for (let i = 0; i < 24 && vkey === null; i++) {
      svc = await startService();
      const k = (await api(svc, 'GET', `/v1/clubs/${svc.club}/log/key`)).text.trim();
      if (k.split('+').length > 3) vkey = k;
      else svc.stop();
    }
    assert.ok(vkey, 'a key whose vkey holds a + (each try about 1 in 2)');
    const table = await createTable(svc, ['Roya', 'Kian', 'Nima']);
    const hand = await startHand(svc, table);
    await playToEnd(svc, hand, table, 31);
    // The bundle becomes version 2 (with its log proof) once a checkpoint covers the hand.
    let bundle = null;
    for (let i = 0; i < 40; i++) {
      bundle = JSON.parse((await api(svc, 'GET', `/v1/hands/${hand}/bundle`, svc.admin)).text);
      if (bundle.version === 2) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    assert.equal(bundle.version, 2, 'the bundle carries its log proof');
    const page = await browser.newPage();
    await page.goto(`${svc.base}/hands/${hand}#token=${svc.admin}`);
    await page.waitForSelector('.check[data-check="log_proof"]:not([data-ok="pending"])', { timeout: 30000 });
    const lp = page.locator('.check[data-check="log_proof"]');
    assert.equal(await lp.getAttribute('data-ok'), 'true', await lp.textContent());
    assert.doesNotMatch(await page.locator('.panel').textContent(), /not a valid vkey/);
    await page.waitForSelector('#verdict[data-state="verified"]');
    await shot(page, 'served-plus-key');
    await page.close();
  } finally {
    await browser.close();
    if (svc) svc.stop();
  }
});
