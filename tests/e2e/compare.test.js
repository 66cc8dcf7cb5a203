// Compare mode: designs side by side on one clock, fed the same orders and faults, with the
// difference table under them.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, openPlayground, finish, textOf, whilePlaying } from './harness.js';

let server;
let browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

/** Plays at 32× until the shared clock has passed `seconds`, then pauses. */
async function playUntil(page, seconds) {
  await page.getByTestId('speed').selectOption('7');
  await page.getByTestId('play-pause').click();
  await whilePlaying(page, (s) => {
    const t = document.querySelector('[data-testid="clock"]').textContent.trim();
    const m = t.match(/(?:(\d+):)?(\d+):(\d+)(?:\.(\d+))?/);
    return m && (+(m[1] ?? 0) * 3600 + +m[2] * 60 + +m[3]) >= s;
  }, seconds);
  await page.getByTestId('play-pause').click();
}

test('one order: fan-out runs all three jobs, the work queue only one', async () => {
  const { page, problems } = await openPlayground(browser, `${server.url}?compare=fanout,workqueue`);
  await page.getByTestId('compare').waitFor();
  for (const d of ['fanout', 'workqueue']) {
    assert.ok(await page.getByTestId(`compare-design-${d}`).locator('svg').count() > 0, `${d} has its diagram`);
  }
  await page.getByTestId('publish').click();
  await playUntil(page, 3);
  await page.getByTestId('compare-row-4401').waitFor();
  assert.equal(await textOf(page, 'compare-cell-4401-fanout'), 'billing, packing, sms', 'three copies, three jobs');
  const wq = await textOf(page, 'compare-cell-4401-workqueue');
  assert.ok(['billing', 'packing', 'sms'].includes(wq), `one copy, one job: ${wq}`);
  assert.match(await page.getByTestId('compare-cell-4401-fanout').getAttribute('class'), /differs/);
  // A click selects the order in that design's inspector.
  await page.getByTestId('compare-cell-4401-fanout').locator('button').click();
  await page.getByTestId('compare-design-fanout').locator('.compare-inspector[open]').waitFor();
  assert.deepEqual(await finish(page, problems, 'compare-fanout-workqueue-1280'), []);
});

test('a slow SMS provider raises checkout latency only in the direct-calls design', async () => {
  const url = `${server.url}?compare=fanout,oneworker,directcalls`;
  const { page, problems } = await openPlayground(browser, url);
  const latency = (d) => textOf(page, `compare-summary-latency-${d}`);
  await page.getByTestId('publish').click();
  await playUntil(page, 2);
  const before = { fanout: await latency('fanout'), oneworker: await latency('oneworker'), directcalls: await latency('directcalls') };
  assert.equal(before.directcalls, '700 ms / 700 ms', 'the three calls added up');
  await page.getByTestId('fault-sms-slow').click();
  await page.getByTestId('publish').click();
  await playUntil(page, 25);
  assert.equal(await latency('directcalls'), '700 ms / 10 s', 'the slow checkout waits for its 10 s timeout');
  assert.equal(await latency('fanout'), before.fanout, 'fan-out checkout unchanged');
  assert.equal(await latency('oneworker'), before.oneworker, 'one-worker checkout unchanged');
  assert.equal(await textOf(page, 'compare-summary-availability-directcalls'), '50.00%');
  assert.equal(await textOf(page, 'compare-summary-availability-fanout'), '100.00%');
  assert.deepEqual(await finish(page, problems, 'compare-slow-sms-1280'), []);
});

for (const [width, scheme] of [[1280, 'dark'], [375, 'light'], [375, 'dark']]) {
  test(`compare at ${width} px, ${scheme}: designs ${width < 700 ? 'stacked' : 'side by side'}`, async () => {
    const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme: scheme });
    const page = await context.newPage();
    const problems = [];
    page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text()); });
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(`${server.url}?compare=fanout,workqueue,directcalls`);
    await page.getByTestId('publish').click();
    await page.getByTestId('fault-sms-slow').click();
    await page.getByTestId('publish').click();
    await playUntil(page, 12);
    const a = await page.getByTestId('compare-design-fanout').boundingBox();
    const b = await page.getByTestId('compare-design-workqueue').boundingBox();
    if (width < 700) assert.ok(b.y > a.y + a.height - 1, 'stacked on a phone');
    else assert.equal(Math.round(a.y), Math.round(b.y), 'side by side');
    const doc = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(doc <= width, `no sideways scroll of the page (${doc} px)`);
    const [inner, shown] = await page.locator('.compare-table-wrap .scroll').evaluate((e) => [e.scrollWidth, e.clientWidth]);
    assert.ok(inner <= shown, `the table's three designs without sideways scrolling (${inner} > ${shown} px)`);
    assert.deepEqual(await finish(page, problems, `compare-${width}-${scheme}`), []);
  });
}

test('mid-run, an order still held is in progress, not half done; only settled differences are highlighted', async () => {
  const { page, problems } = await openPlayground(browser, `${server.url}?compare=fanout,workqueue,directcalls`, undefined, 'compare');
  for (let i = 0; i < 3; i++) await page.getByTestId('publish').click();
  await page.getByTestId('fault-sms-slow').click();
  for (let i = 0; i < 3; i++) await page.getByTestId('publish').click();
  await playUntil(page, 20);
  assert.equal(await textOf(page, 'compare-summary-half-done-fanout'), '0', 'fan-out leaves no order half done');
  assert.ok(+(await textOf(page, 'compare-summary-in-progress-fanout')) > 0, 'its slow SMS copies are in progress');
  const rows = await page.locator('[data-testid^="compare-row-"]').evaluateAll((trs) => trs.map((tr) => ({
    text: tr.textContent, marked: tr.querySelector('td.differs') !== null,
  })));
  for (const r of rows) if (r.marked) assert.ok(!r.text.includes('in progress'), `a row still in progress is not highlighted: ${r.text}`);
  const marked = await page.locator('.compare-table td.differs').count();
  const cells = await page.locator('.compare-table td').count();
  assert.ok(marked < cells / 2, `the highlight picks out a few cells (${marked} of ${cells})`);
  assert.deepEqual(await finish(page, problems, 'compare-mid-run-1280'), []);
});
