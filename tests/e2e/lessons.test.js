// The browser tutorial: lessons fetched when opened, played in the panel beside the diagram,
// judged by the engine, resumed from saved progress and from the address; each lesson's first
// screen at 375 and 1280 px, light and dark.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { startServer, launchBrowser, screenshotDir, whilePlaying, playedUntilShown, skipRun } from './harness.js';

const KEY = 'fanout-playground.lessons';
let server;
let browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

/** A fresh page (its own storage) that collects console errors and warnings. */
async function open(path, { viewport = { width: 1280, height: 860 }, colorScheme = 'light', init } = {}) {
  const context = await browser.newContext({ viewport, colorScheme });
  if (init) await context.addInitScript(init);
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`uncaught: ${e.message}`));
  await page.goto(server.url + path);
  await page.getByTestId('publish').waitFor({ state: 'attached', timeout: 10_000 });
  return { page, problems };
}

async function done(page, problems, name) {
  await mkdir(screenshotDir, { recursive: true });
  await page.screenshot({ path: join(screenshotDir, `${name}.png`), fullPage: false });
  await page.context().close();
  assert.deepEqual(problems, []);
}

const stepText = (page) => page.getByTestId('lesson-step').textContent().then((t) => t.trim());
const atStep = (page, text) => page.waitForFunction(
  (t) => document.querySelector('[data-testid="lesson-step"]')?.textContent.trim() === t, text, { timeout: 20_000 });
/** Presses Tab until the element with this test id has the focus (keyboard only). */
async function tabTo(page, id) {
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((id) => document.activeElement?.dataset?.testid === id, id)) return;
  }
  throw new Error(`Tab never reached ${id}`);
}

test('lesson 5 (poison messages) can be finished with the keyboard only', async () => {
  const { page, problems } = await open('?lesson=poison-messages');
  await page.getByTestId('lesson-panel').waitFor();
  await atStep(page, '1 / 8');
  await page.keyboard.press('Enter');
  // Steps 2, 3 and 5 are predictions: a letter picks (B the second choice; a digit picks
  // nothing, since labels are often numbers), Enter commits, Enter ends the run, Enter goes on.
  const predict = async (letter, next) => {
    const k = letter.charCodeAt(0) - 'a'.charCodeAt(0) + 1;
    await page.keyboard.press(String(k));
    assert.equal(await page.getByTestId(`predict-choice-${k}`).getAttribute('aria-pressed'), 'false');
    await page.keyboard.press(letter);
    assert.equal(await page.getByTestId(`predict-choice-${k}`).getAttribute('aria-pressed'), 'true');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await playedUntilShown(page, 'predict-result');
    await page.keyboard.press('Enter');
    await atStep(page, next);
  };
  // Checkpoints: Tab to "show me", Enter; Enter ends its run; the focus moves to Next.
  const checkpoint = async (next) => {
    await tabTo(page, 'checkpoint-show-me');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await whilePlaying(page, () => document.querySelector('[data-testid="checkpoint"]')?.dataset.done === 'true');
    await page.waitForFunction(() => document.activeElement?.dataset?.testid === 'lesson-next');
    await page.keyboard.press('Enter');
    await atStep(page, next);
  };
  await atStep(page, '2 / 8');
  await predict('b', '3 / 8');
  await predict('b', '4 / 8');
  await checkpoint('5 / 8');
  await predict('a', '6 / 8');
  // A run step: Enter ends its run, Enter goes on.
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await atStep(page, '7 / 8');
  await checkpoint('8 / 8');
  await page.getByTestId('lesson-remember').waitFor();
  const saved = JSON.parse(await page.evaluate((k) => localStorage.getItem(k), KEY));
  assert.equal(saved.lessons['poison-messages'].done, true);
  assert.deepEqual(saved.lessons['poison-messages'].answered, [2, 3, 5]);
  // Backspace really goes back: step 7's story, with sms-dlq empty after the redrive.
  await page.keyboard.press('Backspace');
  await atStep(page, '7 / 8');
  assert.equal(await page.getByTestId('checkpoint').getAttribute('data-done'), 'true');
  assert.equal((await page.getByTestId('queue-sms-dlq-visible').textContent()).trim(), '0');
  await page.getByTestId('lessons-button').click();
  await page.getByTestId('lesson-overview').waitFor();
  assert.equal(await page.getByTestId('lesson-card-poison-messages').getAttribute('data-status'), 'done');
  assert.equal(await page.getByTestId('lesson-card-ordering').getAttribute('data-status'), 'not-started');
  await done(page, problems, 'lessons-keyboard-done');
});

test("a lesson's story opened in the sandbox says where it came from, and the AWS call panel tells AWS's calls from the playground's own", async () => {
  const { page, problems } = await open('?lesson=first-fan-out&step=3');
  await atStep(page, '3 / 6');
  await page.getByTestId('lesson-exit').click();
  await page.waitForFunction(() => !new URLSearchParams(location.search).has('lesson'));
  // The menu names the story open (never blank); the description is the lesson's, not what
  // its scenario said before the lesson added workers ("No worker reads them yet").
  const picker = page.getByTestId('scenario-picker');
  assert.equal(await picker.inputValue(), '');
  assert.equal(await page.getByTestId('scenario-picker-own').textContent(), 'Your first fan-out (lesson)');
  const lede = await page.locator('.lede').first().textContent();
  assert.match(lede, /as you left it at step 3 of 6/);
  assert.doesNotMatch(lede, /No worker reads them yet/);
  // A built-in scenario picked from the menu hides that line again.
  await picker.selectOption('quilt-store');
  await page.waitForFunction(() => document.querySelector('[data-testid="scenario-picker-own"]')?.hidden === true);
  assert.equal(await picker.inputValue(), 'quilt-store');
  // The AWS call panel lists UpdateWorker apart, and says it is not an AWS call.
  await page.getByTestId('aws-call').locator('summary').click();
  const groups = await page.getByTestId('aws-call-action').locator('optgroup').evaluateAll((gs) =>
    gs.map((g) => [g.label, [...g.querySelectorAll('option')].map((o) => o.value.split(':')[0])]));
  const [aws, own] = groups;
  assert.equal(aws[0], 'AWS API calls');
  assert.ok(aws[1].includes('SetQueueAttributes') && !aws[1].includes('UpdateWorker'), `${aws[1]}`);
  assert.ok(own[1].includes('UpdateWorker') && !own[1].includes('Publish'), `${own[1]}`);
  assert.equal(await page.getByTestId('aws-call-own').isVisible(), false);
  const worker = await page.getByTestId('aws-call-action').locator('option').evaluateAll((os) => os.map((o) => o.value).find((v) => v.startsWith('UpdateWorker')));
  await page.getByTestId('aws-call-action').selectOption(worker);
  assert.match(await page.getByTestId('aws-call-own').textContent(), /^UpdateWorker is the playground's own, not an AWS call/);
  await done(page, problems, 'lessons-to-sandbox');
});

test('a wrong prediction shows the right answer, judged by the engine, and why', async () => {
  const { page, problems } = await open('?lesson=poison-messages&step=2');
  await atStep(page, '2 / 8');
  await page.getByTestId('predict-choice-1').click();
  await page.getByTestId('predict-submit').click();
  await page.getByTestId('lesson-next').click(); // skips to the end of the run
  const result = page.getByTestId('predict-result');
  await result.waitFor();
  const text = await result.textContent();
  assert.match(text, /Not quite\./);
  assert.match(text, /The run gave 5 (receives|failures)\./);
  assert.match(text, /Right answer: 5: one per receive allowed — Each of the 5 receives allowed by maxReceiveCount fails/);
  assert.match(text, /Your answer: 4: the 5th receive moves it — The 5th receive still hands it/);
  assert.equal(await result.evaluate((el) => el.classList.contains('right')), false);
  // The diagram shows what the verdict talks about: the poison order in sms-dlq.
  assert.equal((await page.getByTestId('queue-sms-dlq-visible').textContent()).trim(), '1');
  await done(page, problems, 'lessons-wrong-answer');
});

test('a reload mid-lesson resumes at the same step, and Back goes back', async () => {
  const { page, problems } = await open('?lesson=visibility-timeout');
  await atStep(page, '1 / 10');
  await page.getByTestId('lesson-next').click();
  await atStep(page, '2 / 10');
  await page.getByTestId('predict-choice-1').click();
  await page.getByTestId('predict-submit').click();
  await page.getByTestId('lesson-next').click();
  await page.getByTestId('predict-result').waitFor();
  await page.getByTestId('lesson-next').click();
  await atStep(page, '3 / 10');
  assert.match(page.url(), /\?lesson=visibility-timeout&step=3$/);
  await page.reload();
  await atStep(page, '3 / 10');
  assert.equal(await page.getByTestId('checkpoint').getAttribute('data-done'), 'false');
  // Without a step in the address, the saved one.
  await page.goto(server.url + '?lesson=visibility-timeout');
  await atStep(page, '3 / 10');
  await page.getByTestId('lesson-back').click();
  await atStep(page, '2 / 10');
  await page.getByTestId('lessons-button').click();
  assert.equal(await page.getByTestId('lesson-card-visibility-timeout').getAttribute('data-status'), 'in-progress');
  await done(page, problems, 'lessons-resume');
});

test('a corrupt saved state is discarded with a notice and the overview', async () => {
  const { page, problems } = await open('lesson.html');
  await page.evaluate((k) => localStorage.setItem(k, '{"version": 1, "lessons": {"ordering": {"step": "x"'), KEY);
  await page.reload();
  await page.getByTestId('lesson-overview').waitFor();
  assert.match(await page.getByTestId('lesson-notice').textContent(), /saved lesson progress could not be read .*discarded/);
  assert.equal(await page.evaluate((k) => localStorage.getItem(k), KEY), null);
  await page.getByTestId('lesson-card-three-designs').waitFor();
  const index = JSON.parse(await readFile(new URL('../../public/lessons/index.json', import.meta.url)));
  assert.equal(await page.locator('[data-testid^="lesson-card-"]').count(), index.lessons.length, 'every lesson is listed');
  await done(page, problems, 'lessons-corrupt-state');
});

test('a saved step that cannot be (999, 2^32 - 1, or past the lesson\'s end) is dropped with a notice', async () => {
  const { page, problems } = await open('lesson.html');
  for (const step of ['999', '4294967295']) {
    await page.evaluate(([k, n]) => localStorage.setItem(k, `{"version": 1, "lessons": {"ordering": {"step": ${n}, "answered": [], "done": false}}}`), [KEY, step]);
    await page.reload();
    await page.getByTestId('lesson-overview').waitFor();
    assert.match(await page.getByTestId('lesson-notice').textContent(), /could not be read .*discarded/, step);
    assert.equal(await page.getByTestId('lesson-card-ordering').getAttribute('data-status'), 'not-started', step);
  }
  // Within any lesson's reach but past this one's ten steps: dropped when it opens, and it starts again.
  await page.evaluate((k) => localStorage.setItem(k, '{"version": 1, "lessons": {"ordering": {"step": 12, "answered": [], "done": false}}}'), KEY);
  await page.reload();
  await page.getByTestId('lesson-open-ordering').click();
  await atStep(page, '1 / 9');
  assert.match(await page.getByTestId('lesson-notice').textContent(), /step 12 of 9\) could not be used and was discarded/);
  await done(page, problems, 'lessons-impossible-step');
});

test('a reading is written in its unit, and every fact shows the value it checked', async () => {
  const { page, problems } = await open('?lesson=three-designs&step=2');
  await atStep(page, '2 / 6');
  await page.getByTestId('predict-choice-1').click();
  await page.getByTestId('predict-submit').click();
  await page.getByTestId('lesson-next').click(); // skips to the end of the run
  const result = page.getByTestId('predict-result');
  await result.waitFor();
  const text = await result.textContent();
  assert.match(text, /The run gave \d+\.\d%\./, 'a share in percent, not parts per million');
  // The explanation is in view when it appears, not below the panel's fold.
  await page.waitForFunction(() => {
    const el = document.querySelector('[data-testid="predict-result"]');
    const r = el.getBoundingClientRect(); const p = el.closest('.lesson-panel').getBoundingClientRect();
    return r.top >= p.top - 1 && r.top < Math.min(p.bottom, innerHeight) - 20;
  }, null, { timeout: 5_000 });
  assert.doesNotMatch(text, /\d{5,}/, 'no raw ppm or ms number');
  for (const li of await result.locator('.lesson-facts li').all()) {
    assert.ok((await li.locator('.reading').textContent()).trim().length > 0, 'each fact shows its value');
  }
  await done(page, problems, 'lessons-reading-units');
});

test('on a phone, committing a prediction brings the diagram into view while the run plays', async () => {
  const { page, problems } = await open('?lesson=visibility-timeout&step=2', { viewport: { width: 375, height: 740 } });
  await page.getByTestId('predict-choice-1').click();
  await page.getByTestId('predict-submit').click();
  await page.waitForFunction(() => {
    const r = document.querySelector('.lesson-stage .diagram').getBoundingClientRect();
    return r.top >= -1 && r.top < innerHeight / 2;
  }, null, { timeout: 5_000 });
  await done(page, problems, 'lessons-phone-watch');
});

test('a goal about an outcome is not ticked before the outcome has happened', async () => {
  const { page, problems } = await open('?lesson=fanout-and-work-queues&step=4');
  await page.getByTestId('checkpoint').waitFor();
  const line = page.getByTestId('checkpoint').locator('li', { hasText: 'No slip printed twice' });
  assert.equal(await line.evaluate((li) => li.classList.contains('held')), false, 'nothing printed yet: not ticked');
  await page.getByTestId('checkpoint-show-me').click();
  await whilePlaying(page, () => document.querySelector('[data-testid="checkpoint"]')?.dataset.done === 'true');
  assert.equal(await line.evaluate((li) => li.classList.contains('held')), true, 'ticked once the slips are printed');
  await done(page, problems, 'lessons-goal-after');
});

test('Commit waits for an answer: disabled until a choice is picked or a number typed', async () => {
  const { page, problems } = await open('?lesson=visibility-timeout&step=2');
  await page.getByTestId('predict-submit').waitFor();
  assert.equal(await page.getByTestId('predict-submit').isDisabled(), true, 'nothing picked yet');
  // The lesson's text is the only instruction: no sandbox description of the scenario over Publish.
  assert.equal(await page.locator('.controls .lede').count(), 0);
  await page.getByTestId('predict-choice-1').click();
  assert.equal(await page.getByTestId('predict-submit').isDisabled(), false);
  await done(page, problems, 'lessons-commit-waits');
});

test('?lesson=<id>&step=<n> opens at that step; bad ids and steps say so', async () => {
  let { page, problems } = await open('?lesson=ordering&step=4');
  await atStep(page, '4 / 9');
  assert.equal(await page.getByTestId('checkpoint').getAttribute('data-done'), 'false');
  // By hand: delete the first message with the inspector, then receive (the sandbox controls).
  await done(page, problems, 'lessons-open-at-step');
  for (const [path, said] of [['?lesson=no-such-lesson', /no lesson "no-such-lesson"/], ['?lesson=ordering&step=12', /steps 1 to 9; there is no step "12"/]]) {
    ({ page, problems } = await open(path));
    await page.getByTestId('lesson-overview').waitFor();
    assert.match(await page.getByTestId('lesson-notice').textContent(), said);
    assert.equal(await page.getByTestId('lesson-panel').isVisible(), false);
    await done(page, problems, 'lessons-bad-link');
  }
});

test('blocked storage still lets a lesson run', async () => {
  const init = () => Object.defineProperty(window, 'localStorage', { get() { throw new DOMException('blocked', 'SecurityError'); } });
  const { page, problems } = await open('?lesson=filter-policies', { init });
  await atStep(page, '1 / 9');
  await page.keyboard.press('Enter');
  await atStep(page, '2 / 9');
  await page.getByTestId('lessons-button').click();
  await page.getByTestId('lesson-card-filter-policies').waitFor();
  await done(page, problems, 'lessons-blocked-storage');
});

const lessonFile = async (id) => JSON.parse(await readFile(new URL(`../../public/lessons/${id}.json`, import.meta.url)));
const nextReady = (page) => page.waitForFunction(() => {
  const b = document.querySelector('[data-testid="lesson-next"]');
  return b && !b.disabled && b.textContent.trim() === 'Next';
}, null, { timeout: 30_000 });

/**
 * When a prediction's answer appears, the diagram shows the state the answer is about: a probe
 * of a queue's visible messages reads the same number the queue's node on the diagram shows,
 * and a probe of an alarm's state the state its badge on the diagram shows.
 */
async function diagramAgrees(page, id, i, step) {
  const read = (await page.getByTestId('predict-result').textContent()).match(/The run gave ([^.]*)\./)?.[1];
  const where = `${id} step ${i + 1}`;
  if (step.probe.queue && step.probe.field === 'visible') {
    const q = step.probe.queue;
    const shown = await page.evaluate((q) => [...document.querySelectorAll('.diagram [aria-label]')]
      .map((e) => e.getAttribute('aria-label'))
      .find((l) => l.startsWith(`Queue ${q}: `) || new RegExp(`dead-letter queue ${q}: `, "i").test(l)), q);
    assert.ok(shown, `${where}: the diagram draws no ${q}`);
    assert.equal(Number(shown.match(/: (\d+)/)[1]), Number(read.match(/^\d+/)?.[0]), `${where}: the engine read "${read}", the diagram shows "${shown}"`);
  }
  if (step.probe.action === 'DescribeAlarms') {
    const name = step.probe.params.AlarmNames?.[0];
    const badge = page.getByTestId(`diagram-alarm-${name}`);
    assert.equal(await badge.count(), 1, `${where}: alarm ${name} is on the diagram`);
    assert.match(await badge.textContent(), new RegExp(read.replace(/_/g, '.')), `${where}: the engine read "${read}"`);
  }
}

/**
 * Walks lesson `id` from its first step to its last by the test hooks alone, as a learner who
 * answers every prediction right and presses Show me at every checkpoint: each answer is judged
 * right by the engine in the browser, each checkpoint is met, and the last screen is reached.
 * Screenshots of `shots` steps (1-based) at this width are saved on the way.
 */
async function walk(id, { width = 1280, colorScheme = 'light', shots = [] } = {}) {
  const lesson = await lessonFile(id);
  const n = lesson.steps.length;
  const { page, problems } = await open(`?lesson=${id}`, { viewport: { width, height: 860 }, colorScheme });
  const shot = async (i, what) => {
    if (!shots.includes(i + 1)) return;
    await mkdir(screenshotDir, { recursive: true });
    if (width === 375) await page.getByTestId('lesson-panel').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(screenshotDir, `walk-${id}-${width}-${colorScheme}-step${i + 1}${what}.png`) });
  };
  // Nothing in the panel is wider than the panel: a long reading wraps rather than scrolling it sideways.
  const fits = async (i, when) => {
    const over = await page.getByTestId('lesson-panel').evaluate((el) => el.scrollWidth - el.clientWidth);
    assert.ok(over <= 1, `${id} step ${i + 1}${when}: the panel is ${over} px wider than itself at ${width} px`);
  };
  // No engine reading is shown raw: no JSON list where a learner reads a value (a filter
  // policy, itself JSON, is shown as the policy it is).
  const noRawReading = async (i) => {
    for (const r of await page.locator('.lesson-facts .reading').allTextContents()) {
      assert.ok(!/^\s*\[/.test(r), `${id} step ${i + 1}: a raw reading "${r.slice(0, 60)}"`);
    }
  };
  for (const [i, step] of lesson.steps.entries()) {
    await atStep(page, `${i + 1} / ${n}`);
    await shot(i, '');
    await fits(i, '');
    if (step.kind === 'predict') {
      const k = step.choices.findIndex((c) => c.id === step.right) + 1;
      if (step.answer === 'number') await page.getByTestId('predict-number').fill(String(step.choices[k - 1].is ?? step.choices[k - 1].min));
      else await page.getByTestId(`predict-choice-${k}`).click();
      await page.getByTestId('predict-submit').click();
      const result = page.getByTestId('predict-result');
      // Skips to the end of the run, if it is still playing (a run without time ends at once);
      // then the result is the engine's reading, with nothing left to play.
      await page.waitForFunction(() => document.querySelector('[data-testid="predict-result"]')
        || document.querySelector('[data-testid="lesson-next"]')?.textContent.trim() === 'Skip to the end', null, { timeout: 10_000 });
      await skipRun(page);
      await playedUntilShown(page, 'predict-result');
      assert.equal(await result.evaluate((el) => el.classList.contains('right')), true, `${id} step ${i + 1}: ${await result.textContent()}`);
      await shot(i, '-result');
      await fits(i, ' (its result)');
      await diagramAgrees(page, id, i, step);
      await noRawReading(i);
    } else if (step.kind === 'checkpoint') {
      await page.getByTestId('checkpoint-show-me').click();
      await skipRun(page);
      await whilePlaying(page, () => document.querySelector('[data-testid="checkpoint"]')?.dataset.done === 'true');
      await shot(i, '-done');
    } else if (step.kind === 'run') {
      await skipRun(page);
      await shot(i, '-ran');
      await noRawReading(i);
    } else if (step.kind === 'remember') {
      await page.getByTestId('lesson-remember').waitFor();
      break;
    }
    await nextReady(page);
    await page.getByTestId('lesson-next').click();
  }
  const saved = JSON.parse(await page.evaluate((k) => localStorage.getItem(k), KEY));
  assert.equal(saved.lessons[id].done, true, `${id} is saved as done`);
  await done(page, problems, `walk-${id}-${width}-${colorScheme}-end`);
}

// Every lesson of the index, walked to its end by its hooks at both widths, light and dark,
// with a screenshot of every step.
const everyLesson = JSON.parse(await readFile(new URL('../../public/lessons/index.json', import.meta.url))).lessons.map((l) => l.id);
for (const id of everyLesson) {
  test(`lesson ${id} can be finished in the browser, every answer judged by the engine`, async () => {
    const steps = (await lessonFile(id)).steps.map((_, i) => i + 1);
    for (const colorScheme of ['light', 'dark']) {
      await walk(id, { width: 1280, colorScheme, shots: steps });
      await walk(id, { width: 375, colorScheme, shots: steps });
    }
  });
}

test('the overview shows the path in parts with minutes and what each lesson builds on; the glossary opens', async () => {
  const index = JSON.parse(await readFile(new URL('../../public/lessons/index.json', import.meta.url)));
  const { page, problems } = await open('lesson.html');
  await page.getByTestId('lesson-path').waitFor();
  for (const part of index.parts) {
    const lessons = index.lessons.filter((l) => l.part === part.id);
    const minutes = lessons.reduce((sum, l) => sum + l.minutes, 0);
    assert.match(await page.getByTestId(`lesson-path-${part.id}`).textContent(), new RegExp(`${part.title}.*${lessons.length} lessons? · ${minutes} min`));
    const cards = page.getByTestId(`lesson-part-${part.id}`).locator('[data-testid^="lesson-card-"]');
    assert.deepEqual(await cards.evaluateAll((els) => els.map((e) => e.dataset.testid)), lessons.map((l) => `lesson-card-${l.id}`));
  }
  assert.match(await page.getByTestId('lesson-assumes-first-fan-out').textContent(), /Assumes nothing/);
  assert.match(await page.getByTestId('lesson-assumes-poison-messages').textContent(), /Builds on \d+\. The visibility timeout/);
  await page.screenshot({ path: join(screenshotDir, 'lessons-path.png'), fullPage: true });
  // The glossary, from a lesson's panel: closed at first, every term once opened, text as text.
  await page.getByTestId('lesson-open-first-fan-out').click();
  await atStep(page, `1 / ${(await lessonFile('first-fan-out')).steps.length}`);
  assert.equal(await page.getByTestId('lesson-glossary').isVisible(), false);
  await page.getByTestId('lesson-glossary-open').click();
  await page.getByTestId('glossary-sqs').waitFor();
  assert.match(await page.getByTestId('glossary-sqs').textContent(), /Amazon Simple Queue Service/);
  assert.equal(await page.getByTestId('lesson-glossary').locator('dt').count(), index.glossary.length);
  assert.equal(await page.getByTestId('glossary-event').locator('code').textContent(), 'OrderPlaced', 'code as an element, not markup text');
  await page.getByTestId('lesson-glossary-open').click();
  assert.equal(await page.getByTestId('lesson-glossary').isVisible(), false);
  await done(page, problems, 'lessons-glossary');
});

test("each lesson's first screen at 375 and 1280 px, light and dark", async () => {
  const index = JSON.parse(await readFile(new URL('../../public/lessons/index.json', import.meta.url)));
  for (const { id } of index.lessons) {
    for (const width of [375, 1280]) {
      for (const colorScheme of ['light', 'dark']) {
        const { page, problems } = await open(`?lesson=${id}`, { viewport: { width, height: 860 }, colorScheme });
        await atStep(page, `1 / ${(JSON.parse(await readFile(new URL(`../../public/lessons/${id}.json`, import.meta.url)))).steps.length}`);
        if (width === 375) await page.getByTestId('lesson-panel').scrollIntoViewIfNeeded();
        await page.waitForTimeout(300);
        await done(page, problems, `lesson-${id}-${width}-${colorScheme}`);
      }
    }
  }
});
