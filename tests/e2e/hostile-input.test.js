// Inputs that once froze the tab (issue 35) and text that could turn into markup (issue 33): the
// page given any of them answers with an error or shows the text as text, and stays responsive.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, launchBrowser, openPlayground, finish, textOf } from './harness.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
let server;
let browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

const importFile = (page, name, text) =>
  page.getByTestId('scenario-import').setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(text) });

/** The page still answers: a script round trip within a second. */
async function responsive(page) {
  const started = Date.now();
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => done())));
  assert.ok(Date.now() - started < 1_000, 'the tab is not frozen');
}

test('a dead-letter cycle imported or played does not freeze the tab', async () => {
  const { page, problems } = await openPlayground(browser, server.url);
  const cycle = await readFile(join(root, 'engine/tests/scenarios/dlq-cycle.json'), 'utf8');
  await importFile(page, 'dlq-cycle.json', cycle);
  await page.getByTestId('queue-a-visible').waitFor({ timeout: 10_000 });
  await responsive(page);
  // Played on for hours of virtual time at the fastest speed, the page keeps answering.
  await page.getByTestId('speed').selectOption({ label: '64×' });
  await page.getByTestId('play-pause').click();
  await page.waitForTimeout(1_500);
  await responsive(page);
  await page.getByTestId('play-pause').click();
  assert.deepEqual(await finish(page, problems, 'hostile-dlq-cycle'), []);
});

test('an advance past the horizon or a pattern nested too deep is refused with where, and changes nothing', async () => {
  const { page, problems } = await openPlayground(browser, server.url);
  const before = await textOf(page, 'queue-billing-visible');
  await importFile(page, 'forever.json', JSON.stringify({ name: 'forever', steps: [
    { action: 'CreateQueue', params: { QueueName: 'q' } }, { advance: '999999999999h' }] }));
  await page.waitForFunction(() => /step 2/.test(document.querySelector('[data-testid="load-error"]')?.textContent ?? ''), null, { timeout: 10_000 });
  assert.match(await textOf(page, 'load-error'), /30 days|horizon/i);
  assert.equal(await textOf(page, 'queue-billing-visible'), before, 'the story is unchanged');
  const deep = '{"a":'.repeat(5000) + '1' + '}'.repeat(5000);
  await importFile(page, 'deep.json', JSON.stringify({ name: 'deep', steps: [
    { action: 'PutRule', params: { Name: 'r', EventPattern: deep } }] }));
  await page.waitForFunction(() => /nest|deep/i.test(document.querySelector('[data-testid="load-error"]')?.textContent ?? ''), null, { timeout: 10_000 });
  await responsive(page);
  // Typed into a filter policy, the same nesting is refused inline.
  const editor = page.getByTestId('subscription-sms-policy');
  await editor.fill('{"a":'.repeat(3000) + '["x"]' + '}'.repeat(3000));
  await page.waitForFunction(() => /nest|deep/i.test(document.querySelector('[data-testid="subscription-sms-policy-error"]')?.textContent ?? ''), null, { timeout: 10_000 });
  assert.equal(await page.getByTestId('subscription-sms-policy-apply').isDisabled(), true);
  await responsive(page);
  assert.deepEqual(await finish(page, problems, 'hostile-limits'), []);
});

// Markup and a bidi override, as a learner might type them (or a link carry them).
const PAYLOADS = [
  '<img src=x onerror="window.__pwned=1">',
  '<svg onload="window.__pwned=2"></svg>',
  '"><script>window.__pwned=3</script>',
  '\u202Eevil words',
];

/** Elements a payload could have made: any, beyond what the page had when it loaded. */
const made = (page) => page.evaluate(() => ({
  pwned: window.__pwned ?? null,
  scripts: document.querySelectorAll('script').length,
  handlers: document.querySelectorAll('[onerror], [onload]').length,
  imgs: [...document.querySelectorAll('img')].filter((i) => i.getAttribute('src') === 'x').length,
}));

function crc32(bytes) {
  let c = ~0;
  for (const b of bytes) { c ^= b; for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1)); }
  return ~c >>> 0;
}

/** A share link to the quilt store with these commands, as the page writes one. */
async function shareLink(commands) {
  const { deflateSync } = await import('node:zlib');
  const { seed } = JSON.parse(await readFile(join(root, 'public/scenarios/quilt-store.json'), 'utf8'));
  const now = Math.max(0, ...commands.map((c) => c[0]));
  const json = Buffer.from(JSON.stringify({ v: 1, scenario: 'quilt-store', seed, now, log: commands }));
  const framed = Buffer.concat([Buffer.alloc(4), json]);
  framed.writeUInt32BE(crc32(json), 0);
  return `${server.url}#share=${deflateSync(framed).toString('base64url')}`;
}

test('markup and a bidi override typed into any field stay text: body, attribute, policy, file, link, answer', async () => {
  const { page, problems } = await openPlayground(browser, server.url);
  const clean = await made(page);
  for (const payload of PAYLOADS) {
    // A message body and a message attribute value, published and inspected.
    await page.getByTestId('custom-toggle').check();
    await page.getByTestId('custom-body').fill(payload);
    await page.getByTestId('custom-attributes').fill(JSON.stringify({ note: { DataType: 'String', StringValue: payload } }));
    await page.getByTestId('publish').click();
    await page.locator('[data-testid="queue-billing"] .chip').last().click();
    await page.waitForFunction((p) => document.querySelector('[data-testid="inspector"]').textContent.includes(p), payload);
    // A filter policy: the engine's error may quote it; it shows as text.
    await page.getByTestId('subscription-sms-policy').fill(payload);
    await page.waitForFunction(() => document.querySelector('[data-testid="subscription-sms-policy-error"]').textContent.length > 0);
    assert.deepEqual(await made(page), clean, `nothing made by ${JSON.stringify(payload)}`);
  }
  await page.getByTestId('custom-toggle').uncheck();
  // A queue name in an imported file: refused, named as text.
  for (const payload of PAYLOADS) {
    await importFile(page, 'bad.json', JSON.stringify({ name: payload, steps: [{ action: 'CreateQueue', params: { QueueName: payload } }] }));
    await page.waitForFunction((p) => document.querySelector('[data-testid="load-error"]')?.textContent.includes(p), payload, { timeout: 10_000 });
    assert.deepEqual(await made(page), clean, `nothing made by the file with ${JSON.stringify(payload)}`);
  }
  assert.deepEqual(await finish(page, problems, 'hostile-text-stage'), []);

  // A worker in a share link: a name with markup is refused and quoted; an effect with markup is drawn as text.
  for (const payload of PAYLOADS) {
    const refused = await openPlayground(browser, await shareLink([[0, 'CreateWorker', { WorkerName: payload, QueueUrl: 'billing' }]]));
    await refused.page.waitForFunction((p) => document.querySelector('[data-testid="load-error"]')?.textContent.includes(p), payload, { timeout: 10_000 });
    assert.deepEqual(await made(refused.page), clean);
    await finish(refused.page, refused.problems, 'hostile-link-refused');
    const shown = await openPlayground(browser, await shareLink([
      [0, 'CreateWorker', { WorkerName: 'billing-w1', QueueUrl: 'billing', Job: payload, Effect: payload }],
      [0, 'Publish', { TopicArn: 'arn:aws:sns:us-east-1:000000000000:order-events', Message: payload }],
      [5000, 'DescribeWorker', { WorkerName: 'billing-w1' }]]));
    await shown.page.waitForFunction((p) => document.querySelector('[data-testid="side-effects"]')?.textContent.includes(p), payload, { timeout: 10_000 });
    assert.deepEqual(await made(shown.page), clean);
    assert.deepEqual(await finish(shown.page, shown.problems, 'hostile-link-shown'), []);
  }

  // An interview answer, on its step and in the review.
  const iv = await openPlayground(browser, `${server.url}compare.html?interview=checkout`, undefined, 'interview-answer');
  await iv.page.getByTestId('interview-answer').fill(PAYLOADS.join(' '));
  for (let n = 0; n <= 7; n++) await iv.page.getByTestId('interview-next').click();
  const review = await textOf(iv.page, 'interview-review');
  for (const payload of PAYLOADS) assert.ok(review.includes(payload), `the review shows ${JSON.stringify(payload)} as text`);
  assert.deepEqual(await made(iv.page), clean);
  assert.deepEqual(await finish(iv.page, iv.problems, 'hostile-interview'), []);
});
