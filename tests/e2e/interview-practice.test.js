// The interview as a candidate meets it (issue 40): the review copied as Markdown with its box
// closed, the printout without the buttons, a reload that keeps the step and the timer,
// impossible saved values dropped, an overrun flagged, a try-it that plays, and dependency
// boxes whose text fits.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, finish, textOf } from './harness.js';

let server;
let browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

async function open(context, url, ready = 'interview') {
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text()); });
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(url);
  await page.getByTestId(ready).waitFor({ timeout: 10_000 });
  return { page, problems };
}

const KEY = 'fanout-interview-checkout';

test('the review copies its Markdown with the box closed, with follow-ups and times; print hides the buttons', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await context.addInitScript((key) => {
    if (!sessionStorage.getItem('seeded')) {
      sessionStorage.setItem('seeded', '1');
      localStorage.setItem(key, JSON.stringify({ answers: ['Call them in turn.'], times: [400000, 61000] }));
    }
  }, KEY);
  const { page, problems } = await open(context, `${server.url}?interview=checkout&step=8`);
  await page.getByTestId('interview-review').waitFor();
  assert.equal(await page.locator('.interview-review details').getAttribute('open'), null, 'the Markdown box is closed');
  await page.getByTestId('interview-copy').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="interview-copied"]').textContent.includes('Copied'));
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert.match(copied, /Time in all: 7:41/);
  assert.match(copied, /## 1\. The coupled version\n\nTime: 6:40 of 5 min/);
  assert.match(copied, /\*\*Follow-ups\.\*\*\n\n- What sets checkout's response time\?/);
  assert.match(copied, /Call them in turn\./);
  await page.emulateMedia({ media: 'print' });
  for (const id of ['interview-print', 'interview-copy', 'interview-back', 'interview-next']) {
    assert.equal(await page.getByTestId(id).isVisible(), false, `${id} is not printed`);
  }
  assert.ok(await page.getByTestId('interview-review').isVisible(), 'the review is printed');
  await page.emulateMedia({ media: 'screen' });
  assert.deepEqual(await finish(page, problems, 'interview-practice-copy-1280'), []);
});

test('a reload keeps the step (in the address) and the running timer', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  let { page, problems } = await open(context, `${server.url}?interview=checkout`);
  await page.getByTestId('interview-next').click();
  await page.getByTestId('interview-next').click();
  assert.equal(await textOf(page, 'interview-step'), '3 / 7');
  assert.match(page.url(), /[?&]interview=checkout&step=3$/);
  await page.getByTestId('interview-timer').locator('input').check();
  await page.waitForFunction(() => /0:02 of 7 min/.test(document.querySelector('[data-testid="interview-timer"]').textContent));
  await page.reload();
  await page.getByTestId('interview').waitFor();
  assert.equal(await textOf(page, 'interview-step'), '3 / 7');
  assert.ok(await page.getByTestId('interview-timer').locator('input').isChecked(), 'the timer still runs');
  await page.waitForFunction(() => /0:0[3-9] of 7 min/.test(document.querySelector('[data-testid="interview-timer"]').textContent));
  // Without a step in the address, the saved one.
  await page.goto(`${server.url}?interview=checkout`);
  await page.getByTestId('interview').waitFor();
  assert.equal(await textOf(page, 'interview-step'), '3 / 7');
  assert.deepEqual(await finish(page, problems, 'interview-practice-reload'), []);
});

test('impossible saved values are dropped with a one-line notice; an overrun is flagged', async () => {
  const context = await browser.newContext({ viewport: { width: 375, height: 800 }, colorScheme: 'dark' });
  await context.addInitScript((key) => localStorage.setItem(key,
    '{"answers": ["kept"], "times": [400000, 18446744073709551615], "step": 40}'), KEY);
  const { page, problems } = await open(context, `${server.url}?interview=checkout`);
  const notice = await textOf(page, 'interview-notice');
  assert.match(notice, /step 2's time/);
  assert.match(notice, /the step/);
  assert.equal(await textOf(page, 'interview-step'), '1 / 7', 'the dropped step: the first');
  assert.equal(await page.getByTestId('interview-answer').inputValue(), 'kept');
  assert.equal(await textOf(page, 'interview-overrun'), '1:40 over');
  assert.match(await page.getByTestId('interview-timer').getAttribute('class'), /\bover\b/);
  const all = await page.locator('.interview').textContent();
  assert.ok(!all.includes('307445734561825'), 'no impossible time shown');
  assert.deepEqual(await finish(page, problems, 'interview-practice-notice-375-dark'), []);
});

test('a try-it plays: play, step, the ledger; the dependency boxes hold their text', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  let { page, problems } = await open(context, `${server.url}?interview=checkout&step=1`);
  await page.getByTestId('interview-try').click();
  await page.getByTestId('interview-try-run').waitFor();
  assert.equal(await page.getByTestId('play-pause').getAttribute('aria-label'), 'Pause', 'it plays from its start');
  await page.getByTestId('play-pause').click();
  const t0 = await textOf(page, 'clock');
  await page.getByTestId('step').click();
  assert.notEqual(await textOf(page, 'clock'), t0, 'a step moves the clock');
  // Every dependency box's text inside its box.
  const boxes = await page.evaluate(() => [...document.querySelectorAll('.interview-try [data-testid^="diagram-call-"]')].map((g) => {
    const r = g.querySelector('rect').getBBox();
    return [...g.querySelectorAll('text')].map((t) => { const b = t.getBBox(); return [t.textContent, b.x >= r.x && b.x + b.width <= r.x + r.width]; });
  }));
  assert.equal(boxes.length, 3, 'three dependencies drawn');
  for (const texts of boxes) for (const [text, inside] of texts) assert.ok(inside, `"${text}" fits its box`);
  // Step 7's text names the ledger: the side effects show it once the run has played.
  await page.goto(`${server.url}?interview=checkout&step=7`);
  await page.getByTestId('interview-try').click();
  await page.getByTestId('interview-try-run').waitFor();
  await page.waitForFunction(() => /slip printed × 1 for 1 event/.test(document.querySelector('[data-testid="side-effects"]')?.textContent ?? ''), null, { timeout: 20_000 });
  assert.match(await page.getByTestId('interview-try-run').textContent(), /side effects/);
  assert.deepEqual(await finish(page, problems, 'interview-practice-try-1280'), []);
});
