// The lesson panel, the overview, the interview and compare mode as components (issue 33): only
// what changes is redrawn, so what the learner typed or picked, and the focus, stay where they
// were left; lesson text is elements, never markup from the file; no control is routed by a
// `data-act` attribute.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, finish, textOf } from './harness.js';

let server;
let browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

/** A fresh page (its own storage) that collects console errors and warnings. */
async function open(path, ready, viewport = { width: 1280, height: 860 }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`uncaught: ${e.message}`));
  await page.goto(server.url + path);
  await page.getByTestId(ready).waitFor({ timeout: 15_000 });
  return { page, problems };
}

const atStep = (page, text) => page.waitForFunction(
  (t) => document.querySelector('[data-testid="lesson-step"]')?.textContent.trim() === t, text, { timeout: 20_000 });
/** Clicks a control without moving the focus (as a script or an assistive tool may). */
const press = (page, id) => page.evaluate((id) => document.querySelector(`[data-testid="${id}"]`).click(), id);
/** How many elements under `selector` carry a `data-act`. */
const dataActs = (page, selector) => page.evaluate((s) => [...document.querySelectorAll(s)].reduce((n, el) => n + el.querySelectorAll('[data-act]').length, 0), selector);

test('a number typed into a prediction keeps its value and the focus while the story changes', async () => {
  const { page, problems } = await open('?lesson=idempotent-consumers&step=6', 'lesson-panel');
  await atStep(page, '6 / 11');
  const field = page.getByTestId('predict-number');
  await field.fill('3');
  const before = await field.elementHandle();
  // The story moves under the panel: a publish and a step, the focus left in the field.
  await press(page, 'publish');
  await press(page, 'step');
  await page.waitForTimeout(200);
  const after = await before.evaluate((el) => ({ connected: el.isConnected, focused: document.activeElement === el, value: el.value }));
  assert.deepEqual(after, { connected: true, focused: true, value: '3' }, 'the same field, with its value and the focus');
  // Enter commits what is typed; the field then shows it, closed.
  await page.keyboard.press('Enter');
  await page.getByTestId('lesson-next').click();
  await page.getByTestId('predict-result').waitFor();
  assert.equal(await field.inputValue(), '3');
  assert.equal(await field.isDisabled(), true);
  assert.deepEqual(await finish(page, problems, 'lesson-components-number'), []);
});

test('a picked choice keeps the focus; Next is the same button from step to step', async () => {
  const { page, problems } = await open('?lesson=poison-messages&step=2', 'lesson-panel');
  await atStep(page, '2 / 8');
  await page.getByTestId('predict-choice-2').click();
  assert.equal(await page.getByTestId('predict-choice-2').getAttribute('aria-pressed'), 'true');
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'predict-choice-2', 'the pressed choice keeps the focus');
  await page.getByTestId('predict-choice-1').click();
  assert.equal(await page.getByTestId('predict-choice-2').getAttribute('aria-pressed'), 'false');
  assert.equal(await page.getByTestId('predict-choice-1').getAttribute('aria-pressed'), 'true');
  const next = await page.getByTestId('lesson-next').elementHandle();
  assert.equal(await next.evaluate((el) => el.disabled), true, 'no Next before the answer is committed');
  await page.getByTestId('predict-submit').click();
  // The run plays; skip to its end once it does, and go on once the result is there.
  await page.waitForFunction(() => document.querySelector('[data-testid="predict-result"]')
    || document.querySelector('[data-testid="lesson-next"]')?.textContent.trim() === 'Skip to the end');
  if (!(await page.getByTestId('predict-result').count())) await page.getByTestId('lesson-next').click();
  await page.getByTestId('predict-result').waitFor();
  await page.waitForFunction(() => document.querySelector('[data-testid="lesson-next"]')?.textContent.trim() === 'Next');
  await page.getByTestId('lesson-next').click();
  await atStep(page, '3 / 8');
  assert.equal(await next.evaluate((el) => el.isConnected), true, 'Next stays the same element');
  // The new step's text has the focus (found without a test id), and its choices are fresh.
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'lesson-text');
  assert.equal(await page.locator('[data-testid^="predict-choice-"][aria-pressed="true"]').count(), 0);
  assert.equal(await dataActs(page, '[data-testid="lesson-panel"]'), 0, 'no data-act in the panel');
  assert.deepEqual(await finish(page, problems, 'lesson-components-choice'), []);
});

test('lesson text shows emphasis and code as elements, and the overview is components', async () => {
  const { page, problems } = await open('?lesson=filter-policies&step=2', 'lesson-panel');
  await atStep(page, '2 / 9');
  const code = page.getByTestId('lesson-text').locator('code');
  assert.equal(await code.count(), 1);
  assert.equal(await code.textContent(), '{"event_type": ["OrderPlaced", "OrderShipped"]}');
  await page.getByTestId('lessons-button').click();
  await page.getByTestId('lesson-card-filter-policies').waitFor();
  assert.equal(await page.getByTestId('lesson-card-filter-policies').getAttribute('data-status'), 'in-progress');
  assert.match(await textOf(page, 'lesson-card-filter-policies'), /In progress · step 2/);
  assert.equal(await textOf(page, 'lesson-open-filter-policies'), 'Continue');
  assert.equal(await dataActs(page, '[data-testid="lesson-overview"]'), 0, 'no data-act in the overview');
  // Continue opens the lesson where it was left.
  await page.getByTestId('lesson-open-filter-policies').click();
  await atStep(page, '2 / 9');
  await page.getByTestId('lesson-back').click();
  await atStep(page, '1 / 9');
  assert.deepEqual(await page.getByTestId('lesson-text').locator('em').allTextContents(), ['placed', 'shipped', 'filter policy']);
  assert.deepEqual(await finish(page, problems, 'lesson-components-rich'), []);
});

test('the interview copies its review as Markdown; its controls are components', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text()); });
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(`${server.url}?interview=checkout&step=7`);
  await page.getByTestId('interview').waitFor();
  await page.getByTestId('interview-answer').fill('Publish once; each job has its queue.');
  assert.equal(await dataActs(page, '[data-testid="interview"]'), 0, 'no data-act in the interview');
  await page.getByTestId('interview-next').click();
  await page.getByTestId('interview-review').waitFor();
  await page.locator('.interview-review > details summary').click();
  await page.getByTestId('interview-copy').click();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert.equal(copied, await page.getByTestId('interview-markdown').inputValue());
  assert.match(copied, /Publish once; each job has its queue\./);
  assert.deepEqual(await finish(page, problems, 'lesson-components-interview-copy'), []);
});

test('a click on a difference cell lands while the designs play', async () => {
  const { page, problems } = await open('?compare=fanout,workqueue', 'compare');
  assert.equal(await dataActs(page, '[data-testid="compare"]'), 0, 'no data-act in compare mode');
  await page.getByTestId('speed').selectOption('5');
  await page.getByTestId('publish').click();
  await page.getByTestId('publish').click();
  await page.getByTestId('compare-row-4401').waitFor();
  await page.getByTestId('play-pause').click();
  assert.equal(await page.getByTestId('play-pause').getAttribute('aria-label'), 'Pause');
  // The table is redrawn as the story moves; the button under the pointer stays.
  await page.getByTestId('compare-cell-4401-workqueue').locator('button').click();
  await page.getByTestId('compare-design-workqueue').locator('.compare-inspector[open]').waitFor();
  await page.getByTestId('play-pause').click();
  assert.equal(await page.getByTestId('speed').inputValue(), '5', 'the speed picked stays picked');
  assert.deepEqual(await finish(page, problems, 'lesson-components-compare-click'), []);
});

test("a worker's poison rule is said on its row and in the inspector until the fix removes it; side effects name the events done twice", async () => {
  const { page, problems } = await open('?lesson=poison-messages&step=5', 'lesson-panel');
  await atStep(page, '5 / 8');
  assert.match(await textOf(page, 'worker-sms-w1-rule'), /fails every message where data\.phone is shorter than 13 characters/);
  await page.goto(server.url + '?lesson=poison-messages&step=6');
  await atStep(page, '6 / 8');
  // The run step's fact is ticked once its run is over: the rule is gone from the row.
  await page.waitForSelector('.lesson-facts li.held', { timeout: 20_000 });
  assert.equal(await page.getByTestId('worker-sms-w1-rule').count(), 0, 'no rule line once the rule is removed');
  await page.getByRole('button', { name: 'Inspect worker sms-w1' }).click();
  assert.match(await textOf(page, 'inspector'), /poison rule\s*none/);
  // Visibility timeout, after the step where a 5 s timeout hands order 4418 to two workers.
  await page.goto(server.url + '?lesson=visibility-timeout&step=7');
  await atStep(page, '7 / 10');
  assert.match(await textOf(page, 'side-effects'), /duplicates? \(evt-4418 × [2-9]/, 'the duplicates name the order printed twice or more');
  assert.deepEqual(await finish(page, problems, 'lesson-components-poison-rule'), []);
});

test("on a phone, a prediction's result brings the diagram back with one press (and at 1280 px, where both are in view, offers nothing)", async () => {
  for (const [viewport, shown] of [[{ width: 375, height: 812 }, true], [{ width: 1280, height: 800 }, false]]) {
    const { page, problems } = await open('?lesson=first-fan-out&step=2', 'lesson-panel', viewport);
    await atStep(page, '2 / 6');
    await page.getByTestId('predict-choice-3').click();
    await page.getByTestId('predict-submit').click();
    await page.waitForFunction(() => document.querySelector('[data-testid="predict-result"]')
      || document.querySelector('[data-testid="lesson-next"]')?.textContent.trim() === 'Skip to the end');
    if (!(await page.getByTestId('predict-result').count())) await page.getByTestId('lesson-next').click();
    await page.getByTestId('predict-result').waitFor();
    const button = page.getByTestId('predict-see-diagram');
    assert.equal(await button.isVisible(), shown, `the button at ${viewport.width} px`);
    if (shown) {
      await button.click();
      const top = await page.evaluate(() => document.querySelector('.lesson-stage .diagram').getBoundingClientRect().top);
      assert.ok(Math.abs(top) < 2, `the diagram's top at the window's top, not ${top}`);
    }
    assert.deepEqual(await finish(page, problems, `lesson-components-see-diagram-${viewport.width}`), []);
  }
});
