// The diagram in words (issue 50): what a learner who cannot see the diagram reads instead. Its
// table lists every node it draws, with what feeds what and each node's counts as they change;
// the page's one live region says what a run does ("… published to order-events: copied to 3
// queues"), and a prediction's result is read out where it appears.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, finish, stageBuilt } from './harness.js';

let server;
let browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

async function open(path, ready, viewport = { width: 1280, height: 860 }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console error: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`uncaught: ${e.message}`));
  await page.goto(server.url + path);
  await page.getByTestId(ready).waitFor({ timeout: 20_000 });
  await stageBuilt(page);
  return { page, problems };
}

/** The table's rows, as [node, what it shows]. */
const rows = (page) => page.$$eval('[data-testid="diagram-table"] tbody tr',
  (trs) => trs.map((tr) => [tr.querySelector('th').textContent.trim(), tr.querySelector('td').textContent.trim()]));

test('the diagram as a table names every node, what feeds what, and follows the counts', async () => {
  const { page, problems } = await open('', 'publish');
  const table = page.getByTestId('diagram-table');
  assert.equal(await table.locator('table').count(), 0, 'nothing built while it is closed');
  await table.locator('summary').click();
  let found = await rows(page);
  const row = (name) => found.find(([node]) => node === name)?.[1];
  assert.equal(row('Producer checkout'), 'sends to order-events', JSON.stringify(found));
  assert.equal(row('SNS topic order-events'), 'feeds billing, packing, sms');
  assert.match(row('Queue billing'), /^0 visible, 0 in flight/);
  await page.getByTestId('publish').click();
  await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="diagram-table"] tbody th')]
    .some((th) => th.textContent.trim() === 'Queue billing' && /^1 visible/.test(th.nextElementSibling.textContent.trim())));
  found = await rows(page);
  for (const q of ['billing', 'packing', 'sms']) assert.match(row(`Queue ${q}`), /^1 visible, 0 in flight/, q);
  // Every live node of the diagram is a row: its accessible name, split at its first colon.
  const labels = await page.$$eval('#diagram [aria-label]', (els) => els.map((el) => el.getAttribute('aria-label').split(': ')[0]));
  for (const l of labels) assert.ok(found.some(([node]) => node === l), `the node "${l}" has a row`);
  assert.deepEqual(await finish(page, problems, 'diagram-table'), []);
});

test("the live region says what lesson 0's run does, at most once a second, and the prediction's result is read where it appears", async () => {
  const { page, problems } = await open('lesson.html?lesson=first-fan-out&step=2', 'lesson-panel');
  await page.evaluate(() => {
    window.said = [];
    const region = document.querySelector('.sr-only[role="status"][aria-live="polite"]');
    new MutationObserver(() => window.said.push([performance.now(), region.textContent.trim()]))
      .observe(region, { childList: true, characterData: true, subtree: true });
  });
  await page.getByTestId('predict-choice-3').click();
  await page.getByTestId('predict-submit').click();
  await page.getByTestId('predict-result').waitFor({ timeout: 30_000 });
  await page.waitForFunction(() => window.said.some(([, t]) => t), null, { timeout: 5_000 });
  const said = (await page.evaluate(() => window.said)).filter(([, t]) => t);
  assert.ok(said.some(([, t]) => /published to order-events: copied to 3 queues/.test(t)), JSON.stringify(said));
  for (let i = 1; i < said.length; i++) {
    assert.ok(said[i][0] - said[i - 1][0] >= 990, `two announcements ${Math.round(said[i][0] - said[i - 1][0])} ms apart`);
  }
  // The result sits in the step's polite live region, so it is read when it appears.
  const live = await page.getByTestId('predict-result').evaluate((el) => el.closest('[aria-live="polite"]') !== null);
  assert.equal(live, true, 'the result is inside a polite live region');
  assert.match(await page.getByTestId('predict-result').textContent(), /^Right\. The run gave 3 deliveries\./);
  assert.deepEqual(await finish(page, problems, 'diagram-live-region'), []);
});
