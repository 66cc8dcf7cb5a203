// The interview walkthrough: seven steps, answers kept across a reload, the review.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, finish, textOf } from './harness.js';

let server;
let browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

async function open(context, url) {
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text()); });
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(url);
  await page.getByTestId('interview').waitFor({ timeout: 10_000 });
  return { page, problems };
}

test('step 1 to the review, typed answers kept across a reload', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  let { page, problems } = await open(context, `${server.url}?interview=checkout`);
  // The requirements come first, as step 0; the seven keep their numbers.
  assert.equal(await textOf(page, 'interview-step'), '0 / 7');
  assert.match(await page.getByTestId('interview-step').locator('xpath=..').textContent(), /Requirements and load/);
  await page.getByTestId('interview-next').click();
  assert.equal(await textOf(page, 'interview-step'), '1 / 7');
  assert.match(await textOf(page, 'interview-question'), /charge the card/);
  await page.getByTestId('interview-answer').fill('Call them in turn; latency adds up.');
  await page.getByTestId('interview-reveal').click();
  assert.match(await textOf(page, 'interview-model-answer'), /product/);
  await page.getByTestId('interview-try').click();
  await page.locator('.interview-try svg').first().waitFor();
  await page.getByTestId('interview-timer').locator('input').check();
  for (let n = 2; n <= 7; n++) {
    await page.getByTestId('interview-next').click();
    assert.equal(await textOf(page, 'interview-step'), `${n} / 7`);
    await page.getByTestId('interview-answer').fill(`answer ${n}: <b>not markup</b>`);
  }
  assert.deepEqual(problems, []);
  await page.close();
  ({ page, problems } = await open(context, `${server.url}?interview=checkout&step=3`));
  assert.equal(await textOf(page, 'interview-step'), '3 / 7');
  assert.equal(await page.getByTestId('interview-answer').inputValue(), 'answer 3: <b>not markup</b>', 'kept across the reload');
  await page.getByTestId('interview-back').click();
  await page.getByTestId('interview-back').click();
  assert.equal(await page.getByTestId('interview-answer').inputValue(), 'Call them in turn; latency adds up.');
  for (let n = 1; n <= 7; n++) await page.getByTestId('interview-next').click();
  const review = await textOf(page, 'interview-review');
  assert.match(review, /Call them in turn; latency adds up\./);
  for (let n = 2; n <= 7; n++) assert.ok(review.includes(`answer ${n}: <b>not markup</b>`), `answer ${n} shown as text`);
  assert.match(await page.getByTestId('interview-markdown').inputValue(), /## 1\. The coupled version[\s\S]*\*\*Model answer\.\*\*/);
  assert.deepEqual(await finish(page, problems, 'interview-review-1280'), []);
});

test('corrupt saved answers start afresh with a note, at 375 px in dark', async () => {
  const context = await browser.newContext({ viewport: { width: 375, height: 800 }, colorScheme: 'dark' });
  await context.addInitScript(() => localStorage.setItem('fanout-interview-checkout', '{not json'));
  const { page, problems } = await open(context, `${server.url}?interview=checkout&step=5`);
  assert.equal(await textOf(page, 'interview-step'), '5 / 7');
  assert.match(await page.locator('.interview').textContent(), /could not be read/);
  await page.getByTestId('interview-reveal').click();
  await page.getByTestId('interview-try').click();
  await page.locator('.interview-try svg').first().waitFor();
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(wide <= 375, `no sideways scroll of the page (${wide} px)`);
  assert.deepEqual(await finish(page, problems, 'interview-step5-375-dark'), []);
});
