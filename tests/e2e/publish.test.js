import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, openPlayground, finish, textOf } from './harness.js';

let server;
let browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

test('publishing OrderPlaced puts one message in each of billing, packing and sms', async () => {
  const { page, problems } = await openPlayground(browser, server.url);
  for (const q of ['billing', 'packing', 'sms']) {
    assert.equal(await textOf(page, `queue-${q}-visible`), '0', `${q} starts empty`);
  }
  await page.getByTestId('publish').click();
  for (const q of ['billing', 'packing', 'sms']) {
    await page.waitForFunction((id) => document.querySelector(`[data-testid="${id}"]`)?.textContent.trim() === '1',
      `queue-${q}-visible`, { timeout: 5_000 });
    assert.equal(await textOf(page, `queue-${q}-visible`), '1', `${q} holds the published event`);
  }
  assert.equal(await textOf(page, 'queue-sms-dlq-visible'), '0', 'the dead-letter queue gets nothing from a publish');
  assert.deepEqual(await finish(page, problems, 'publish-order-placed'), []);
});

test('the sms subscription filter drops a RefundIssued event while billing and packing get it', async () => {
  const { page, problems } = await openPlayground(browser, server.url);
  await page.getByTestId('event-type').selectOption('RefundIssued');
  await page.getByTestId('publish').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="queue-billing-visible"]')?.textContent.trim() === '1');
  assert.equal(await textOf(page, 'queue-packing-visible'), '1');
  assert.equal(await textOf(page, 'queue-sms-visible'), '0');
  assert.match(await textOf(page, 'event-log'), /filtered out for sms/);
  assert.deepEqual(await finish(page, problems, 'publish-refund-filtered'), []);
});
