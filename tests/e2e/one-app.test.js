// One app (issue 33): every view is a view of one bundle. Moving between them fetches no wasm and
// keeps the sandbox's story; every scenario opens in the sandbox with its cards, metrics, share
// link and export; a lesson can start from an EventBridge scenario; old addresses still work.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, launchBrowser, openPlayground, finish, textOf, viewsLoaded, whilePlaying, playedUntilShown } from './harness.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
let server;
let browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

test('moving between the views fetches no wasm and keeps the sandbox story', async () => {
  const { page, problems } = await openPlayground(browser, server.url);
  await page.getByTestId('publish').click();
  await page.getByTestId('step').click();
  const story = [await textOf(page, 'clock'), await textOf(page, 'queue-billing-visible')];
  await viewsLoaded(page);
  const fetched = [];
  page.on('request', (r) => { if (/\.(wasm|js)$/.test(new URL(r.url()).pathname)) fetched.push(r.url()); });
  const views = [
    ['nav-lessons', 'lesson-overview', /lesson\.html$/],
    ['nav-compare', 'compare', /compare\.html\?compare=/],
    ['nav-interview', 'interview', /compare\.html\?interview=checkout/],
    ['nav-playground', 'publish', /\/$/],
  ];
  for (const [link, shown, address] of views) {
    await page.getByTestId(link).click();
    await page.getByTestId(shown).waitFor();
    assert.match(page.url(), address, `${link} names its view in the address`);
  }
  assert.deepEqual([await textOf(page, 'clock'), await textOf(page, 'queue-billing-visible')], story, 'the story is where it was');
  // To AWS and back: the same story, exported.
  await page.getByTestId('export-open').click();
  await page.getByTestId('export-text').waitFor();
  assert.match(page.url(), /export\.html#share=/, 'the export view names its story');
  assert.match(await textOf(page, 'export-text'), /AWSTemplateFormatVersion/);
  await page.getByTestId('export-back').click();
  await page.getByTestId('publish').waitFor();
  assert.deepEqual([await textOf(page, 'clock'), await textOf(page, 'queue-billing-visible')], story);
  // Back and Forward move between the views too.
  await page.goBack();
  await page.getByTestId('export-text').waitFor();
  await page.goBack();
  await page.getByTestId('publish').waitFor();
  assert.deepEqual(fetched, [], 'no script or wasm fetched when moving between views');
  assert.deepEqual(await finish(page, problems, 'one-app-moves'), []);
});

test('leaving a view before it has finished building keeps the app alive', async () => {
  // What lies under and beside a stage's first screen is built when the browser is next idle.
  // A learner who leaves a lesson before then (here at once, with the CPU 4x slower, as on a
  // phone) must find the next view working: the late build finds its place gone and does nothing.
  const { page, problems } = await openPlayground(browser, server.url);
  await (await page.context().newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate: 4 });
  const moves = [['nav-lessons', 'lesson-open-visibility-timeout'], ['lesson-open-visibility-timeout', 'lesson-text'],
    ['nav-compare', 'fault-sms-slow'], ['nav-playground', 'publish']];
  for (let round = 0; round < 3; round++) {
    for (const [click, shown] of moves) {
      const seen = await page.evaluate(([click, shown]) => new Promise((done) => {
        const start = performance.now();
        const watch = () => {
          if (document.querySelector(`[data-testid="${shown}"]`)) done(true);
          else if (performance.now() - start > 10_000) done(false);
          else requestAnimationFrame(watch);
        };
        document.querySelector(`[data-testid="${click}"]`).click();
        watch();
      }), [click, shown]);
      assert.ok(seen, `round ${round + 1}: ${shown} appears after ${click} is clicked`);
    }
  }
  await page.getByTestId('publish').click();
  await page.getByTestId('queue-billing-visible').waitFor();
  assert.deepEqual(await finish(page, problems, 'one-app-quick-moves'), []);
});

test('a view left with its own story running keeps the app alive: Interview try-it, Drills and the AWS call panel', async () => {
  // Two fresh walks crashed the page here: the interview's try-it stage (its own clock) left for the
  // sandbox, and a drill's AWS call panel left behind while the sandbox's story changed.
  const { page, problems } = await openPlayground(browser, server.url);
  for (let round = 0; round < 2; round++) {
    await page.getByTestId('nav-interview').click();
    await page.getByTestId('interview-try').first().click();
    await page.getByTestId('interview-try-run').first().waitFor();
    await page.getByTestId('nav-playground').click();
    await page.getByTestId('publish').click();
    await page.getByTestId('nav-drills').click();
    await page.locator('[data-testid^="drill-open-"]').first().click();
    await page.getByTestId('aws-call').waitFor();
    await page.getByTestId('nav-playground').click();
    await page.getByTestId('publish').click();
    await page.getByTestId('play-pause').click();
    await page.getByTestId('play-pause').click();
  }
  assert.equal(await page.locator('.crashed').count(), 0, 'no error panel');
  assert.deepEqual(await finish(page, problems, 'one-app-left-stories'), []);
});

test('a trap in the app shows the error panel, once, with a way to reload', async () => {
  // The release build compiles a panic to a WebAssembly trap; the page's script answers it.
  for (const address of [server.url, server.url + 'embed.html?embed=1&scenario=poison-dlq']) {
    const { page, problems } = await openPlayground(browser, address, undefined, address.includes('embed') ? 'embed-root' : 'publish');
    assert.equal(await page.locator('.crashed').count(), 0, 'no panel on a working page');
    await page.evaluate(() => {
      window.dispatchEvent(new ErrorEvent('error', { error: new TypeError('not a trap') }));
      for (let i = 0; i < 2; i++) window.dispatchEvent(new ErrorEvent('error', { error: new WebAssembly.RuntimeError('unreachable') }));
    });
    const panel = page.locator('.crashed[role="alert"]');
    assert.equal(await panel.count(), 1, `${address}: one panel for two traps, none for another error`);
    assert.match(await panel.textContent(), /Something went wrong.*Reload the playground/s);
    await Promise.all([page.waitForEvent('load'), panel.getByRole('button', { name: 'Reload the playground' }).click()]);
    assert.deepEqual(await finish(page, problems, 'one-app-trap'), []);
  }
});

test('every scenario opens in the sandbox with its cards, metrics, share link and export', async () => {
  const ids = (await readdir(join(root, 'public/scenarios'))).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5));
  const { page, problems } = await openPlayground(browser, server.url);
  const offered = await page.getByTestId('scenario-picker').locator('option').evaluateAll((os) => os.filter((o) => o.value !== '').map((o) => o.value));
  assert.deepEqual([...offered].sort(), [...ids].sort(), 'the picker offers every scenario file');
  for (const id of ids) {
    await page.getByTestId('scenario-picker').selectOption(id);
    await page.waitForFunction((want) => new URLSearchParams(location.search).get('scenario') === want || (want === 'quilt-store' && location.search === ''), id);
    await page.locator('.queues').waitFor({ state: 'attached' });
    await page.locator('.metrics').waitFor({ state: 'attached' });
    await page.getByTestId('share-copy').click();
    await page.waitForFunction(() => /Link (copied|ready)/.test(document.querySelector('[data-testid="share-status"]')?.textContent), null, { timeout: 10_000 })
      .catch(async () => assert.fail(`${id}: no link: ${await textOf(page, 'share-status')}`));
    assert.match(await page.getByTestId('share-link').inputValue(), /#share=/, `${id}: a share link`);
    await page.getByTestId('export-open').click();
    await page.getByTestId('export-text').waitFor();
    assert.match(await textOf(page, 'export-text'), /AWSTemplateFormatVersion/, `${id}: CloudFormation`);
    if (id.startsWith('eventbridge')) assert.match(await textOf(page, 'export-text'), /AWS::Events::Rule/, `${id}: its rules`);
    await page.getByTestId('export-back').click();
    await page.getByTestId('publish').waitFor();
    assert.equal(await page.getByTestId('scenario-picker').inputValue(), id, `${id}: the same story after the export`);
  }
  assert.deepEqual(await finish(page, problems, 'one-app-every-scenario'), []);
});

test('a lesson can start from an EventBridge scenario', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const fixture = await readFile(join(root, 'tests/e2e/fixtures/lessons/eventbridge-fixture.json'), 'utf8');
  const index = JSON.parse(await readFile(join(root, 'public/lessons/index.json'), 'utf8'));
  const { title, summary, minutes } = JSON.parse(fixture);
  index.lessons.push({ id: 'eventbridge-fixture', title, summary, minutes, part: index.parts.at(-1).id, assumes: [] });
  await context.route('**/lessons/index.json', (r) => r.fulfill({ contentType: 'application/json', body: JSON.stringify(index) }));
  await context.route('**/lessons/eventbridge-fixture.json', (r) => r.fulfill({ contentType: 'application/json', body: fixture }));
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
  await page.goto(`${server.url}lesson.html?lesson=eventbridge-fixture`);
  await page.getByTestId('diagram-bus-shop').waitFor({ timeout: 15_000 });
  await page.getByTestId('predict-choice-2').click();
  await page.getByTestId('predict-submit').click();
  await playedUntilShown(page, 'predict-result');
  assert.match(await textOf(page, 'predict-result'), /^Right\./);
  await page.getByTestId('lesson-next').click();
  await page.getByTestId('checkpoint-show-me').click();
  await whilePlaying(page, () => document.querySelector('[data-testid="checkpoint"]')?.dataset.done === 'true');
  assert.deepEqual(await finish(page, problems, 'one-app-eventbridge-lesson'), []);
});

test('old addresses open their view: index.html?lesson=, compare.html?compare=, export.html#share=', async () => {
  const lesson = await openPlayground(browser, `${server.url}index.html?lesson=visibility-timeout`, undefined, 'lesson-panel');
  assert.match(lesson.page.url(), /lesson\.html\?lesson=visibility-timeout&step=1$/);
  await finish(lesson.page, lesson.problems, 'one-app-old-lesson');
  const compare = await openPlayground(browser, `${server.url}index.html?compare=fanout,directcalls`, undefined, 'compare');
  await compare.page.getByTestId('compare-design-directcalls').waitFor();
  await finish(compare.page, compare.problems, 'one-app-old-compare');
  const { page, problems } = await openPlayground(browser, server.url);
  await page.getByTestId('publish').click();
  await page.getByTestId('share-copy').click();
  await page.getByTestId('share-link').waitFor();
  const link = await page.getByTestId('share-link').inputValue();
  const exported = await openPlayground(browser, link.replace(/\/[^/#]*#/, '/export.html#'), undefined, 'export-text');
  assert.match(await textOf(exported.page, 'export-text'), /order-events/);
  await exported.page.getByTestId('export-back').click();
  await exported.page.getByTestId('publish').waitFor();
  assert.equal(await textOf(exported.page, 'queue-billing-visible'), '1', 'back in the sandbox with the linked story');
  assert.deepEqual([...problems, ...exported.problems], []);
});
