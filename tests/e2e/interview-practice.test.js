// The interview as a candidate meets it (issue 40): the review copied as Markdown with its box
// closed, the printout without the buttons, a reload that keeps the step and the timer,
// impossible saved values dropped, an overrun flagged, a try-it that plays, and dependency
// boxes whose text fits.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startServer, launchBrowser, finish, textOf, screenshotDir, whilePlaying } from './harness.js';

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
  assert.equal(await page.locator('.interview-review > details').getAttribute('open'), null, 'the Markdown box is closed');
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
  assert.equal(await textOf(page, 'interview-step'), '0 / 7', 'the requirements come first, as step 0');
  assert.match(page.url(), /[?&]interview=checkout&step=0$/);
  for (let n = 1; n <= 3; n++) await page.getByTestId('interview-next').click();
  assert.equal(await textOf(page, 'interview-step'), '3 / 7');
  assert.match(page.url(), /[?&]interview=checkout&step=3$/);
  await page.getByTestId('interview-timer').locator('input').check();
  await page.waitForFunction(() => /0:02 of 6 min/.test(document.querySelector('[data-testid="interview-timer"]').textContent));
  await page.reload();
  await page.getByTestId('interview').waitFor();
  assert.equal(await textOf(page, 'interview-step'), '3 / 7');
  assert.ok(await page.getByTestId('interview-timer').locator('input').isChecked(), 'the timer still runs');
  await page.waitForFunction(() => /0:0[3-9] of 6 min/.test(document.querySelector('[data-testid="interview-timer"]').textContent));
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
  assert.equal(await textOf(page, 'interview-step'), '0 / 7', 'the dropped step: the first');
  // Saved before step 0 came first: the work saved on step 1 is still on step 1.
  assert.equal(await page.getByTestId('interview-answer').inputValue(), '');
  await page.getByTestId('interview-next').click();
  assert.equal(await textOf(page, 'interview-step'), '1 / 7');
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
  await whilePlaying(page, () => /slip printed × 1 for 1 event/.test(document.querySelector('[data-testid="side-effects"]')?.textContent ?? ''));
  assert.match(await page.getByTestId('interview-try-run').textContent(), /side effects/);
  assert.deepEqual(await finish(page, problems, 'interview-practice-try-1280'), []);
});

/** Answers step `n` of a practice run and ticks the first two points when the rubric is shown. */
async function answer(page, n) {
  await page.getByTestId('interview-answer').fill(`practice answer ${n}`);
}

for (const [width, scheme] of [[1280, 'light'], [375, 'dark']]) {
  test(`a whole practice run at ${width} px, ${scheme}: reload midway, the report, ticks, score, Markdown`, async () => {
    const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme: scheme });
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    let { page, problems } = await open(context, `${server.url}?interview=checkout`);
    await page.getByTestId('interview-practice').click();
    await page.getByTestId('interview-practice-on').waitFor();
    assert.equal(await textOf(page, 'interview-step'), '0 / 7');
    assert.equal(await page.getByTestId('interview-reveal').count(), 0, 'no model answer during practice');
    assert.equal(await page.getByTestId('interview-follow-up').count(), 0, 'no follow-up answers during practice');
    assert.match(await textOf(page, 'interview-timer'), /Practice: 0:0\d of 45 min/);
    for (let n = 1; n <= 4; n++) {
      await answer(page, n);
      await page.getByTestId('interview-next').click();
    }
    await page.waitForFunction(() => /Practice: 0:0[2-9]/.test(document.querySelector('[data-testid="interview-timer"]').textContent));
    if (width === 1280) await page.screenshot({ path: join(screenshotDir, 'interview-practice-step-1280-light.png'), fullPage: true });
    // A reload midway: the answers, the step and the running clock survive.
    await page.reload();
    await page.getByTestId('interview-practice-on').waitFor();
    assert.equal(await textOf(page, 'interview-step'), '4 / 7');
    await page.getByTestId('interview-back').click();
    assert.equal(await page.getByTestId('interview-answer').inputValue(), 'practice answer 4');
    await page.getByTestId('interview-next').click();
    const before = await textOf(page, 'interview-timer');
    await page.waitForFunction((b) => document.querySelector('[data-testid="interview-timer"]').textContent.trim() !== b, before);
    for (let n = 5; n <= 8; n++) {
      await answer(page, n);
      await page.getByTestId('interview-next').click();
    }
    // The report: the answers, the self-check to tick, the score, the time per step.
    await page.getByTestId('interview-review').waitFor();
    assert.equal(await page.getByTestId('interview-practice').count(), 1, 'the run has ended');
    const step1 = page.getByTestId('interview-review-step-1');
    await step1.getByTestId('interview-tick-0').check();
    await step1.getByTestId('interview-tick-1').check();
    await page.getByTestId('interview-review-step-2').getByTestId('interview-tick-0').check();
    await page.getByTestId('interview-review-step-2').getByTestId('interview-flag-0').check();
    assert.equal(await step1.getByTestId('interview-step-score').textContent(), 'Score: 2 / 4');
    assert.match(await textOf(page, 'interview-score'), /^Score: 6% \(2 \/ 33 points\)$/);
    assert.match(await step1.getByTestId('interview-review-time').textContent(), /^0:\d\d of 5 min$/);
    await page.reload();
    await page.getByTestId('interview-review').waitFor();
    assert.ok(await page.getByTestId('interview-review-step-1').getByTestId('interview-tick-1').isChecked(), 'ticks are saved');
    await page.getByTestId('interview-copy').click();
    await page.waitForFunction(() => document.querySelector('[data-testid="interview-copied"]').textContent.includes('Copied'));
    const md = await page.evaluate(() => navigator.clipboard.readText());
    assert.match(md, /Score: 6% \(2 \/ 33 points\)/);
    assert.match(md, /- \[x\] Names the calls in turn/);
    assert.match(md, /- \[x\] Red flag: /);
    assert.match(md, /practice answer 7/);
    assert.match(await textOf(page, 'interview-best-checkout'), /best 6%/);
    await page.getByTestId('interview-review-step-1').locator('.follow-up-answer summary').first().click();
    assert.deepEqual(await finish(page, problems, `interview-report-${width}-${scheme}`), []);
  });
}

test('a corrupt saved state shows a notice and the question list', async () => {
  const context = await browser.newContext({ viewport: { width: 375, height: 800 } });
  await context.addInitScript((key) => localStorage.setItem(key, '[1, 2'), KEY);
  const { page, problems } = await open(context, `${server.url}?interview=checkout`);
  assert.match(await textOf(page, 'interview-notice'), /could not be read/);
  assert.ok(await page.getByTestId('interview-questions').isVisible());
  assert.equal(await textOf(page, 'interview-best-checkout'), 'not scored yet');
  // The rubric on a step, outside practice: the self-check opens on request.
  await page.getByTestId('interview-check').click();
  await page.getByTestId('interview-tick-2').check();
  assert.equal(await textOf(page, 'interview-step-score'), 'Score: 1 / 4');
  await page.getByTestId('interview-question').locator('.follow-up-answer summary').first().click();
  assert.deepEqual(await finish(page, problems, 'interview-rubric-375-light'), []);
});

// Screenshots for people to look at: a step, the rubric and the report, at 375 and 1280 px,
// light and dark; the page never scrolls sideways.
for (const [width, scheme] of [[375, 'light'], [375, 'dark'], [1280, 'light'], [1280, 'dark']]) {
  test(`screenshots of a step, the rubric and the report at ${width} px, ${scheme}`, async () => {
    const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme: scheme });
    await context.addInitScript(() => {
      if (sessionStorage.getItem('seeded')) return;
      sessionStorage.setItem('seeded', '1');
      localStorage.setItem('fanout-interview-payment-first', JSON.stringify({
        answers: ['Ask: peak load? must the customer see the payment? 50 orders/s, 150 messages/s.', 'Synchronous payment with a timeout; a saga to undo stock.'],
        times: [530000, 250000], ticks: [[true, true, true, false, false, false, true], [true, false, true]],
      }));
    });
    const { page, problems } = await open(context, `${server.url}?interview=payment-first&step=1`);
    const shot = (name) => page.screenshot({ path: join(screenshotDir, `interview-shot-${name}-${width}-${scheme}.png`), fullPage: true });
    await page.getByTestId('interview-try').click();
    await page.getByTestId('interview-try-run').waitFor();
    await page.getByTestId('play-pause').click();
    await shot('step');
    await page.getByTestId('interview-check').click();
    await page.getByTestId('interview-question').locator('.follow-up-answer summary').first().click();
    await page.getByTestId('interview-rubric').scrollIntoViewIfNeeded();
    await shot('rubric');
    for (let n = 1; n <= 5; n++) await page.getByTestId('interview-next').click();
    await page.getByTestId('interview-review').waitFor();
    assert.match(await textOf(page, 'interview-score'), /^Score: \d+% \(\d+ \/ \d+ points\)$/);
    await shot('report');
    await page.emulateMedia({ media: 'print' });
    await shot('report-print');
    await page.emulateMedia({ media: 'screen' });
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(wide <= width, `no sideways scroll (${wide} px)`);
    assert.deepEqual(await finish(page, problems, `interview-shot-list-${width}-${scheme}`), []);
  });
}
