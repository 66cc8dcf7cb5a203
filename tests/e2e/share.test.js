// Share links and scenario import/export (issue 15): a link replays the story in a fresh
// browser context, a tampered link shows load-error and the default scenario, and an exported
// story imported again gives the same counts.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, openPlayground, finish, textOf } from './harness.js';

let server;
let browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

const QUEUES = ['billing', 'packing', 'sms', 'sms-dlq'];
const counts = async (page) => {
  const out = {};
  for (const q of QUEUES) {
    out[q] = [await textOf(page, `queue-${q}-visible`), await textOf(page, `queue-${q}-inflight`)];
  }
  return out;
};

/** A few commands: two publishes, a worker on packing, time played, a refund. */
async function tellAStory(page) {
  await page.getByTestId('publish').click();
  await page.getByTestId('step').click();
  await page.getByTestId('publish').click();
  await page.getByTestId('event-type').selectOption('RefundIssued');
  await page.getByTestId('publish').click();
  await page.getByTestId('step').click();
  await page.getByTestId('step').click();
  await page.getByTestId('queue-billing-receive').click();
}

test('a copied link opened in a fresh browser context shows the same clock, counts and event log', async () => {
  const { page, problems } = await openPlayground(browser, server.url);
  await tellAStory(page);
  const clock = await textOf(page, 'clock');
  const before = await counts(page);
  const log = await textOf(page, 'event-log');
  await page.getByTestId('share-copy').click();
  await page.getByTestId('share-link').waitFor();
  const link = await page.getByTestId('share-link').inputValue();
  assert.match(link, /#share=[A-Za-z0-9_-]+$/);
  assert.match(await textOf(page, 'share-status'), new RegExp(`\\(${link.length} characters\\)`));
  assert.ok(link.length < 2000, `a few commands fit well under 2,000 characters (${link.length})`);
  assert.deepEqual(await finish(page, problems, 'share-copied'), []);

  const fresh = await openPlayground(browser, link);
  await fresh.page.waitForFunction((c) => document.querySelector('[data-testid="clock"]')?.textContent.trim() === c, clock);
  assert.deepEqual(await counts(fresh.page), before);
  assert.equal(await textOf(fresh.page, 'event-log'), log);
  assert.equal(await fresh.page.getByTestId('load-error').count(), 0);
  assert.deepEqual(await finish(fresh.page, fresh.problems, 'share-opened'), []);
});

test('a tampered link shows load-error and opens the default scenario', async () => {
  const { page, problems } = await openPlayground(browser, server.url);
  await tellAStory(page);
  await page.getByTestId('share-copy').click();
  await page.getByTestId('share-link').waitFor();
  const link = await page.getByTestId('share-link').inputValue();
  await finish(page, problems, 'share-before-tamper');
  const i = link.length - 12;
  const tampered = link.slice(0, i) + (link[i] === 'A' ? 'B' : 'A') + link.slice(i + 1);
  for (const [bad, why] of [[tampered, /cut short or changed/], [link.slice(0, -10), /cut short or changed/], [link + '%%', /not base64url/]]) {
    const opened = await openPlayground(browser, bad);
    assert.match(await textOf(opened.page, 'load-error'), why);
    assert.equal(await textOf(opened.page, 'clock'), '00:00:00.000');
    assert.deepEqual(Object.values(await counts(opened.page)).flat(), Array(8).fill('0'), 'the default scenario, untouched');
    assert.deepEqual(await finish(opened.page, opened.problems, 'share-tampered'), []);
  }
});

test('export then import gives the same counts; a malformed file changes nothing', async () => {
  const { page, problems } = await openPlayground(browser, server.url);
  await tellAStory(page);
  const before = await counts(page);
  const clock = await textOf(page, 'clock');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('scenario-export').click()]);
  const file = await download.path();
  assert.match(download.suggestedFilename(), /\.json$/);
  await page.getByTestId('reset').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="queue-billing-visible"]')?.textContent.trim() === '0');
  await page.getByTestId('scenario-import').setInputFiles(file);
  await page.waitForFunction((c) => document.querySelector('[data-testid="clock"]')?.textContent.trim() === c, clock);
  assert.deepEqual(await counts(page), before);

  await page.getByTestId('scenario-import').setInputFiles({
    name: 'broken.json', mimeType: 'application/json',
    buffer: Buffer.from('{"name": "x", "steps": [{"advance": "1s"}, {"action": "PurgeQueue", "params": {"QueueUrl": "nope"}}]}'),
  });
  await page.getByTestId('load-error').waitFor();
  assert.match(await textOf(page, 'load-error'), /^broken\.json: step 2\b.*QueueDoesNotExist/);
  assert.deepEqual(await counts(page), before, 'the story is unchanged');
  assert.equal(await textOf(page, 'clock'), clock);
  assert.deepEqual(await finish(page, problems, 'share-import'), []);
});
