// The views' modules (scripts/build.sh splits every view but the sandbox into wasm modules of
// their own) fail softly: with every module download aborted, the sandbox still publishes, the
// lessons say they could not be loaded and offer to try again, and once the network is back,
// trying again opens them. No bug panel: a module that does not arrive is not a bug. When the
// site serves a newer build than the page (a deploy replaced the files), the view says to reload.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, finish } from './harness.js';

let server;
let browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

/** A view's module: any wasm of the app's bundle (dist/app-<hash>/, scripts/build.sh) but its
 * first load, app_bg.wasm. */
const MODULE = (url) => /^\/app-[0-9a-f]+\/[^/]+\.wasm$/.test(url.pathname) && !url.pathname.endsWith('/app_bg.wasm');

/** The sandbox, opened with every module download aborted; `problems` collects what is not the
 * expected failed downloads (an uncaught exception, or a console error about anything else). */
async function openOffline() {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const aborted = [];
  await context.route(MODULE, (route) => { aborted.push(route.request().url()); return route.abort('internetdisconnected'); });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (msg) => {
    const text = msg.text();
    if (msg.type() === 'error' && !/Failed to load|Failed to fetch|ERR_INTERNET_DISCONNECTED|net::ERR_FAILED/.test(text)) problems.push(`console error: ${text}`);
  });
  page.on('pageerror', (err) => problems.push(`uncaught: ${err.message}`));
  await page.goto(server.url);
  await page.getByTestId('publish').waitFor({ timeout: 10_000 });
  return { context, page, problems, aborted };
}

test('with every module download aborted, the sandbox publishes and Lessons offers to try again, which works once the network is back', async () => {
  const { context, page, problems, aborted } = await openOffline();
  await page.getByTestId('publish').click();
  for (const q of ['billing', 'packing', 'sms']) {
    await page.waitForFunction((id) => document.querySelector(`[data-testid="${id}"]`)?.textContent.trim() === '1', `queue-${q}-visible`, { timeout: 10_000 });
  }
  await page.getByTestId('nav-lessons').click();
  const notLoaded = page.getByTestId('view-not-loaded');
  await notLoaded.waitFor({ timeout: 20_000 });
  assert.match(await notLoaded.textContent(), /The lessons could not be loaded/);
  assert.ok(aborted.length > 0, 'the lessons\' module was asked for, and its download aborted');
  assert.equal(await page.locator('.crashed, .error-panel').count(), 0, 'no bug panel');
  // Back to the sandbox: it still works.
  await page.getByTestId('nav-playground').click();
  await page.getByTestId('publish').waitFor({ timeout: 10_000 });
  const before = Number(await page.getByTestId('queue-billing-visible').textContent());
  await page.getByTestId('publish').click();
  await page.waitForFunction((n) => Number(document.querySelector('[data-testid="queue-billing-visible"]')?.textContent) === n, before + 1, { timeout: 10_000 });
  // The network is back: Try again opens the lessons.
  await page.getByTestId('nav-lessons').click();
  await page.getByTestId('view-retry').waitFor({ timeout: 20_000 });
  await context.unroute(MODULE);
  await page.getByTestId('view-retry').click();
  await page.getByTestId('lesson-overview').waitFor({ timeout: 20_000 });
  assert.equal(await page.getByTestId('view-not-loaded').count(), 0);
  assert.equal(await page.locator('.crashed, .error-panel').count(), 0, 'no bug panel');
  assert.deepEqual(await finish(page, problems, 'module-failure-retry'), []);
});

test('when the site has a newer build than the page, a view that cannot be loaded says to reload', async () => {
  const { context, page, problems } = await openOffline();
  // The site's pages now name other scripts (a deploy replaced the files).
  await context.route((url) => url.searchParams.has('fresh'), (route) => route.fulfill({
    status: 200, contentType: 'text/html', body: '<!doctype html><link rel=modulepreload href=/app-0000000000000000/app.js>',
  }));
  await page.getByTestId('nav-lessons').click();
  const notLoaded = page.getByTestId('view-not-loaded');
  await notLoaded.waitFor({ timeout: 20_000 });
  assert.match(await notLoaded.textContent(), /newer version .* Reload the page/);
  await page.getByTestId('view-reload').waitFor();
  assert.equal(await page.locator('.crashed, .error-panel').count(), 0, 'no bug panel');
  assert.deepEqual(await finish(page, problems, 'module-failure-stale'), []);
});
