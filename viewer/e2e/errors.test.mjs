// What a person meets when an address is wrong, in headless Chromium against the real
// service (services/src/api/page_error.rs; docs/API.md, "The replay page"): `?step=abc`
// or any query the page does not take answers a page in English and Persian with the
// page's own security headers, saying what happened and what to do, showing no key and
// leaving none in the address bar; its link opens the hand (a share link's key, kept from
// the fragment, still works); a key put after `?` is named as such; an address with no
// page answers a page too; `/favicon.ico` is an icon Chromium draws, linked from every page.
// Screenshots go to viewer/e2e/artifacts/errors-*.png.
//
//   cd viewer && node --test e2e/errors.test.mjs      (ops/test.sh runs every e2e/*.test.mjs)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startService, must, createTable, startHand, playToEnd } from './service.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ARTIFACTS = join(HERE, 'artifacts');
mkdirSync(ARTIFACTS, { recursive: true });

async function shot(page, name) {
  await page.screenshot({ path: join(ARTIFACTS, `errors-${name}.png`), fullPage: true });
}

/** The headers every page of the service carries. */
const PAGE_HEADERS = ['content-security-policy', 'referrer-policy', 'x-content-type-options', 'cross-origin-opener-policy'];

/**
 * Opens `path` and checks the error page: `problem`, `status`, the shell's headers, both
 * languages shown, none of `secrets` in the address bar, the page's text or its HTML.
 */
async function errorPage(page, base, path, { problem, status, secrets, shellHeaders }) {
  const res = await page.goto(base + path);
  assert.equal(res.status(), status, path);
  const headers = res.headers();
  assert.match(headers['content-type'], /^text\/html/, path);
  for (const h of PAGE_HEADERS) assert.equal(headers[h], shellHeaders[h], `${path}: ${h}`);
  const main = page.locator('main.page-error');
  assert.equal(await main.getAttribute('data-problem'), problem, path);
  // The script has taken the query and the fragment out of the address bar.
  await page.waitForFunction(() => location.search === '' && location.hash === '');
  const url = page.url();
  const html = await page.content();
  const text = await page.locator('body').innerText();
  for (const s of secrets) {
    assert.ok(!url.includes(s), `${path}: the address bar keeps ${s}`);
    assert.ok(!html.includes(s), `${path}: the page holds ${s}`);
  }
  const en = page.locator('section[lang="en"]');
  const fa = page.locator('section[lang="fa"]');
  assert.equal(await fa.getAttribute('dir'), 'rtl');
  assert.ok(await en.isVisible());
  assert.ok(await fa.isVisible());
  assert.ok((await en.locator('h1').innerText()).length > 10);
  assert.match(await fa.locator('h1').innerText(), /[\u0600-\u06FF]/, 'the Persian title is in Persian letters');
  // Persian runs right to left: its heading starts at the right.
  const box = await fa.locator('h1').boundingBox();
  const sec = await fa.boundingBox();
  assert.ok(sec.x + sec.width - (box.x + box.width) < 40, 'the Persian heading sits at the right');
  assert.ok(!text.trimStart().startsWith('{'), 'not problem+json');
  return { en, fa, text };
}

/** The page's icon: linked, served as an icon, and drawn by Chromium. */
async function iconOf(page) {
  return page.evaluate(async () => {
    const link = document.querySelector('link[rel="icon"]');
    if (!link) return null;
    const r = await fetch(link.href);
    const img = new Image();
    img.src = link.href;
    await img.decode();
    return { href: link.getAttribute('href'), status: r.status, type: r.headers.get('content-type'), width: img.naturalWidth };
  });
}

test('pages for people when an address is wrong', { timeout: 300000 }, async (t) => {
  const svc = await startService();
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_BIN || '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const table = await createTable(svc, ['Sara!', 'Dariush', 'Mehr "M." Nazari']);
    const hand = await startHand(svc, table);
    await playToEnd(svc, hand, table, 23);
    const share = await must(svc, 'POST', `/v1/hands/${hand}/share`, svc.admin, {});
    const shareToken = share.url.split('#share=')[1];
    const page = await browser.newPage();
    const shellRes = await page.goto(`${svc.base}/hands/${hand}`);
    assert.equal(shellRes.status(), 200);
    const shellHeaders = shellRes.headers();

    await t.test('?step=abc with a key in the fragment: a page, the key gone, the link opens the hand', async () => {
      const { en } = await errorPage(page, svc.base, `/hands/${hand}?step=abc#token=${svc.admin}`, {
        problem: 'bad_step',
        status: 400,
        secrets: [svc.admin, 'abc'],
        shellHeaders,
      });
      assert.match(await en.innerText(), /whole number/);
      await shot(page, 'bad-step');
      await page.setViewportSize({ width: 390, height: 844 });
      await shot(page, 'bad-step-phone');
      await page.setViewportSize({ width: 1280, height: 720 });
      // The way on: the hand from its first step, read with the key the fragment held.
      await en.locator('a.again').click();
      await page.waitForSelector('#step-text', { timeout: 30000 });
      assert.ok(!page.url().includes(svc.admin), 'the replay page takes the key out of the address');
      assert.ok(!page.url().includes('abc'));
      assert.equal(await page.locator('main.page-error').count(), 0);
    });

    await t.test('a share link with a damaged query still opens after its error page', async () => {
      await errorPage(page, svc.base, `/hands/${hand}?step=7x#share=${shareToken}`, {
        problem: 'bad_step',
        status: 400,
        secrets: [shareToken, '7x'],
        shellHeaders,
      });
      await shot(page, 'share-bad-step');
      await page.locator('section[lang="fa"] a.again').click();
      await page.waitForSelector('#step-text', { timeout: 30000 });
      // A share link is made to be passed on: the page keeps its key in the fragment
      // (never sent to a server), never in the query.
      const url = new URL(page.url());
      assert.ok(!url.search.includes(shareToken), 'the key is not in the query');
      assert.ok(!url.search.includes('7x'), 'the damaged query is gone');
    });

    await t.test('a key after ? is named as one, and not shown', async () => {
      for (const [q, key] of [
        [`token=${svc.admin}`, svc.admin],
        [`share=${shareToken}`, shareToken],
        [`step=2&x=${table.tokens[1]}`, table.tokens[1]],
      ]) {
        const { en } = await errorPage(page, svc.base, `/hands/${hand}?${q}`, {
          problem: 'credential_in_query',
          status: 400,
          secrets: [key],
          shellHeaders,
        });
        assert.match(await en.innerText(), /after “#”/);
      }
      await shot(page, 'credential-in-query');
    });

    await t.test('a parameter the page does not take; the drop page too', async () => {
      await errorPage(page, svc.base, `/hands/${hand}?lang=fa&step=3`, { problem: 'unknown_query', status: 400, secrets: ['lang=fa'], shellHeaders });
      await shot(page, 'unknown-query');
      await errorPage(page, svc.base, `/viewer/?step=%D9%A3`, { problem: 'bad_step', status: 400, secrets: ['%D9%A3', '٣'], shellHeaders });
    });

    await t.test('no page at an address: a page, with the way to the replay page', async () => {
      await errorPage(page, svc.base, `/hands/${hand}/steps#token=${svc.admin}`, { problem: 'no_such_page', status: 404, secrets: [svc.admin], shellHeaders });
      await shot(page, 'no-such-page');
      await page.locator('section[lang="en"] a.again').click();
      await page.waitForURL(`${svc.base}/viewer/`);
    });

    await t.test('a revoked share link reaches the page, not a problem body', async () => {
      const other = await must(svc, 'POST', `/v1/hands/${hand}/share`, svc.admin, {});
      await must(svc, 'DELETE', `/v1/hands/${hand}/share/${other.share_id}`, svc.admin);
      const res = await page.goto(other.url.replace(/^https?:\/\/[^/]+/, svc.base));
      assert.equal(res.status(), 200);
      assert.match(res.headers()['content-type'], /^text\/html/);
      // The page itself says the link was revoked (viewer/e2e/viewer.test.mjs checks its words).
      await page.waitForSelector('section.gone', { timeout: 30000 });
      assert.equal(await page.locator('section.gone').getAttribute('data-code'), 'share_revoked');
      assert.equal(await page.locator('#credential').count(), 0, 'no form asking for an API key');
      assert.ok(!new URL(page.url()).search.includes(other.url.split('#share=')[1]));
      assert.ok(!(await page.locator('body').innerText()).trimStart().startsWith('{'));
    });

    await t.test('/favicon.ico: an icon on every page', async () => {
      for (const path of [`/hands/${hand}`, '/viewer/', `/hands/${hand}?step=x`, '/nowhere']) {
        await page.goto(svc.base + path);
        const icon = await iconOf(page);
        assert.ok(icon, `${path}: a linked icon`);
        assert.equal(icon.href, '/favicon.ico', path);
        assert.equal(icon.status, 200, path);
        assert.equal(icon.type, 'image/x-icon', path);
        assert.ok(icon.width >= 16, `${path}: Chromium draws it (${icon.width} px)`);
      }
      const res = await page.goto(`${svc.base}/favicon.ico`);
      assert.equal(res.status(), 200);
      await shot(page, 'favicon');
    });
  } finally {
    await browser.close();
    svc.stop();
  }
});
