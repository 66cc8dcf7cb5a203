// A mock interview (issue 52): in a practice run the candidate asks the interviewer (the log of
// answers, at the clock's time, survives a reload and reaches the review); a new attempt asks
// before it replaces anything, and every attempt is kept, listed, downloaded and deleted; the
// clock stays in view, labelled, and flags a step's overrun.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { startServer, launchBrowser, finish, textOf } from './harness.js';

let server;
let browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

const KEY = 'fanout-interview-checkout';
const ATTEMPTS = 'fanout-interview-checkout-attempts';
const UP_TO_YOU = "That's up to you: say what you would assume.";

async function open(context, url) {
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text()); });
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(url);
  await page.getByTestId('interview').waitFor({ timeout: 10_000 });
  return { page, problems };
}

/** Seeds `localStorage` once per context (a reload keeps what the page saved since). */
async function seed(context, entries) {
  await context.addInitScript((all) => {
    if (sessionStorage.getItem('seeded')) return;
    sessionStorage.setItem('seeded', '1');
    for (const [k, v] of all) localStorage.setItem(k, v);
  }, entries);
}

const logItems = (page) => page.getByTestId('interview-asked').locator(':scope > li');

test('in a practice run the candidate asks, the interviewer answers at the clock\'s time, and the log survives a reload', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const { page, problems } = await open(context, `${server.url}?interview=checkout`);
  await page.getByTestId('interview-practice').click();
  await page.getByTestId('interview-practice-on').waitFor();
  assert.equal(await page.getByTestId('interview-follow-up').count(), 0, 'no answer shown before it is asked');
  assert.equal(await page.getByTestId('interview-ask-5').count(), 1, 'step 0 has five follow-ups to ask');
  assert.equal(await logItems(page).count(), 0);
  await page.waitForFunction(() => /Practice: 0:0[1-9]/.test(document.querySelector('[data-testid="interview-timer"]').textContent));
  await page.getByTestId('interview-ask-1').click();
  assert.equal(await logItems(page).count(), 1);
  assert.match(await logItems(page).first().textContent(), /^at 0:0\d How many orders at peak\?\s*Interviewer: About 20 a second/);
  await page.getByTestId('interview-ask-1').click();
  assert.equal(await logItems(page).count(), 1, 'a follow-up asked again is logged once');
  assert.match(await page.getByTestId('interview-ask-1').textContent(), /asked at 0:0\d/);
  // In the candidate's own words: no match, then a match.
  await page.getByTestId('interview-ask-text').fill('What colour is the <b>logo</b>?');
  await page.getByTestId('interview-ask-text').press('Enter');
  assert.equal(await logItems(page).count(), 2);
  assert.match(await logItems(page).nth(1).textContent(), /What colour is the <b>logo<\/b>\?/, 'typed text stays text');
  assert.ok((await logItems(page).nth(1).textContent()).includes(UP_TO_YOU));
  assert.equal(await page.getByTestId('interview-ask-text').inputValue(), '', 'the box empties once asked');
  await page.getByTestId('interview-ask-text').fill('do events arrive in order?');
  await page.getByTestId('interview-ask-send').click();
  assert.match(await logItems(page).nth(2).textContent(), /Not across orders/);
  // By keyboard.
  await page.getByTestId('interview-ask-4').focus();
  await page.keyboard.press('Enter');
  assert.match(await logItems(page).nth(3).textContent(), /25 s a text for 40 minutes/);
  const before = await page.getByTestId('interview-asked').textContent();
  await page.reload();
  await page.getByTestId('interview-practice-on').waitFor();
  assert.equal(await logItems(page).count(), 4, 'the log survives a reload');
  assert.equal(await page.getByTestId('interview-asked').textContent(), before);
  // The review lists what was asked, and when; so does its Markdown.
  for (let n = 0; n < 8; n++) await page.getByTestId('interview-next').click();
  await page.getByTestId('interview-review').waitFor();
  const asked = page.getByTestId('interview-review-step-0').getByTestId('interview-review-asked');
  assert.match(await asked.textContent(), /at 0:0\d How many orders at peak\?/);
  assert.equal(await page.getByTestId('interview-review-step-1').getByTestId('interview-review-asked').count(), 0, 'nothing asked on step 1');
  const md = await page.getByTestId('interview-markdown').inputValue();
  assert.match(md, /\*\*Asked the interviewer\.\*\*\n\n- at 0:0\d: How many orders at peak\? — About 20 a second/);
  assert.ok(md.includes(`What colour is the <b>logo</b>? — ${UP_TO_YOU}`));
  assert.deepEqual(await finish(page, problems, 'interview-ask-review-1280'), []);
});

test('a saved state from before questions were asked loads; a bad asked list is dropped with a notice', async () => {
  const context = await browser.newContext({ viewport: { width: 375, height: 800 } });
  await seed(context, [[KEY, JSON.stringify({ answers: ['', 'kept'], times: [1000, 2000], step: 1, practice: true, timing: false, first_step: 0 })]]);
  let { page, problems } = await open(context, `${server.url}?interview=checkout`);
  assert.equal(await page.getByTestId('interview-notice').count(), 0, 'no notice: nothing was wrong');
  assert.equal(await textOf(page, 'interview-step'), '1 / 7');
  assert.equal(await page.getByTestId('interview-answer').inputValue(), 'kept');
  assert.equal(await logItems(page).count(), 0);
  await page.getByTestId('interview-ask-3').click();
  assert.match(await logItems(page).first().textContent(), /^at 0:03 Three services at 99\.9% each/);
  assert.deepEqual(problems, []);
  await page.close();
  const context2 = await browser.newContext({ viewport: { width: 375, height: 800 } });
  await seed(context2, [[KEY, JSON.stringify({ answers: [], practice: true, first_step: 0, asked: [[{ follow_up: 0, at: 5000 }, { follow_up: 99, at: 1 }], 'x'] })]]);
  ({ page, problems } = await open(context2, `${server.url}?interview=checkout`));
  assert.match(await textOf(page, 'interview-notice'), /step 0's questions asked, step 1's questions asked/);
  assert.equal(await logItems(page).count(), 1, 'the good question is kept');
  await context.close();
  assert.deepEqual(await finish(page, problems, 'interview-ask-old-state-375'), []);
});

test('a new attempt asks first; every attempt is kept, listed, downloaded as Markdown and deleted', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  await seed(context, [[KEY, JSON.stringify({ answers: ['my first try'], times: [90000], ticks: [[true, true]], first_step: 0 })]]);
  const { page, problems } = await open(context, `${server.url}?interview=checkout`);
  assert.match(await textOf(page, 'interview-attempts'), /No earlier attempts yet/);
  await page.getByTestId('interview-practice').click();
  const confirm = page.getByTestId('interview-confirm-new');
  assert.match(await confirm.textContent(), /Start a new attempt\?.*1:30 used, score 6%/);
  await page.waitForFunction(() => document.activeElement?.dataset.testid === 'interview-confirm-yes'); // focus is on the question
  assert.equal(await page.getByTestId('interview-practice-on').count(), 0, 'nothing started yet');
  await page.getByTestId('interview-confirm-no').click();
  assert.equal(await confirm.count(), 0);
  assert.equal(await page.getByTestId('interview-answer').inputValue(), 'my first try', 'nothing replaced');
  // From the list's own button, confirmed by keyboard.
  await page.getByTestId('interview-new-attempt').click();
  await page.waitForFunction(() => document.activeElement?.dataset.testid === 'interview-confirm-yes');
  await page.keyboard.press('Enter');
  await page.getByTestId('interview-practice-on').waitFor();
  assert.equal(await page.getByTestId('interview-answer').inputValue(), '', 'the new attempt starts empty');
  const first = page.getByTestId('interview-attempt-1');
  assert.match(await first.textContent(), /Attempt 1 ended \d{4}-\d\d-\d\d \d\d:\d\d UTC · 1:30 used · score 6%/);
  assert.equal(await textOf(page, 'interview-best-checkout'), 'best 6%', 'its score joins the best');
  const stored = await page.evaluate((k) => JSON.parse(localStorage.getItem(k)), ATTEMPTS);
  assert.equal(stored.attempts[0].work.answers[0], 'my first try', 'the whole work is kept');
  await page.getByTestId('interview-answer').fill('second try');
  await page.getByTestId('interview-new-attempt').click();
  await page.getByTestId('interview-confirm-yes').click();
  await page.getByTestId('interview-attempt-2').waitFor();
  await page.reload();
  await page.getByTestId('interview-attempts').waitFor();
  const rows = await page.getByTestId('interview-attempts').locator('li').evaluateAll((l) => l.map((e) => e.dataset.testid));
  assert.deepEqual(rows, ['interview-attempt-2', 'interview-attempt-1'], 'newest first, kept across a reload');
  // Downloaded as the review's Markdown.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('interview-attempt-export-1').click()]);
  assert.equal(download.suggestedFilename(), 'checkout-attempt-1.md');
  const md = await readFile(await download.path(), 'utf8');
  assert.match(md, /^Attempt 1, ended \d{4}-\d\d-\d\d \d\d:\d\d UTC\n\n# /);
  assert.match(md, /Score: 6% \(2 \/ 33 points\)/);
  assert.match(md, /my first try/);
  assert.match(md, /- \[x\] /);
  // Two side by side.
  await page.getByTestId('interview-attempt-compare-2').check();
  assert.equal(await page.getByTestId('interview-compare').count(), 0, 'one chosen: nothing to compare yet');
  await page.getByTestId('interview-attempt-compare-1').check();
  const side = await textOf(page, 'interview-compare');
  assert.match(side, /Attempt 1.*1:30 used · score 6%.*Attempt 2.*not scored/);
  assert.match(side, /0\. Requirements and load.*my first try.*second try/);
  // Deleted after a second press.
  await page.getByTestId('interview-attempt-delete-2').click();
  assert.equal(await page.getByTestId('interview-attempt-2').count(), 1, 'one press deletes nothing');
  await page.getByTestId('interview-attempt-delete-yes-2').click();
  assert.equal(await page.getByTestId('interview-attempt-2').count(), 0);
  assert.equal(await page.getByTestId('interview-attempt-1').count(), 1);
  const left = await page.evaluate((k) => JSON.parse(localStorage.getItem(k)).attempts.map((a) => a.n), ATTEMPTS);
  assert.deepEqual(left, [1]);
  assert.equal(await page.getByTestId('interview-compare').count(), 0, 'a deleted attempt leaves the comparison');
  assert.deepEqual(await finish(page, problems, 'interview-attempts-1280'), []);
});

test('saved attempts that cannot be read are left alone, and the question says the work cannot be kept', async () => {
  const context = await browser.newContext({ viewport: { width: 375, height: 800 }, colorScheme: 'dark' });
  await seed(context, [[KEY, JSON.stringify({ answers: ['work'], first_step: 0 })], [ATTEMPTS, '[1, 2']]);
  const { page, problems } = await open(context, `${server.url}?interview=checkout`);
  assert.match(await textOf(page, 'interview-attempts'), /could not be read/);
  await page.getByTestId('interview-practice').click();
  assert.match(await textOf(page, 'interview-confirm-new'), /cannot be kept/);
  await page.getByTestId('interview-confirm-yes').click();
  await page.getByTestId('interview-practice-on').waitFor();
  assert.equal(await page.evaluate((k) => localStorage.getItem(k), ATTEMPTS), '[1, 2', 'the bad list is unchanged');
  assert.deepEqual(await finish(page, problems, 'interview-attempts-unreadable-375-dark'), []);
});

test('the clock stays in view while a step scrolls, its checkbox is labelled, and a practice step\'s overrun is flagged', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 700 } });
  await seed(context, [[KEY, JSON.stringify({ answers: [], times: [400000], practice: true, first_step: 0, step: 0 })]]);
  const { page, problems } = await open(context, `${server.url}?interview=checkout`);
  assert.equal(await page.getByRole('checkbox', { name: 'Clock running' }).count(), 1);
  assert.equal(await textOf(page, 'interview-overrun'), 'this step 1:40 over');
  await page.getByTestId('interview-next').click();
  await page.getByTestId('interview-try').click();
  await page.getByTestId('interview-try-run').waitFor();
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  const box = await page.getByTestId('interview-timer').boundingBox();
  assert.ok(box && box.y >= -1 && box.y < 5, `the clock is at the top of the view (${box?.y})`);
  const size = await page.evaluate(() => parseFloat(getComputedStyle(document.querySelector('.interview-timer .clock-read')).fontSize));
  assert.ok(size >= 16, `the clock reads at ${size} px`);
  assert.deepEqual(await finish(page, problems, 'interview-clock-sticky-1280'), []);
});
