// Every embed the documentation offers plays to its point with the controls it shows: the
// README's snippet and public/embed-example.html's iframes, each opened as documented and driven
// only through the controls that embed draws. A documented embed with no playthrough here fails.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, launchBrowser, finish, whilePlaying, playedUntilShown } from './harness.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
let server;
let browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

/** The embed addresses the documentation shows (query strings, `&amp;` read as `&`). */
async function documented() {
  const found = new Set();
  for (const file of ['README.md', 'public/embed-example.html', 'docs/embedding.md']) {
    const text = await readFile(join(root, file), 'utf8').catch(() => '');
    for (const m of text.matchAll(/embed\.html\?([^"'\s)<>]+)/g)) found.add(m[1].replaceAll('&amp;', '&'));
  }
  return [...found];
}

const node = (page, queue) => page.locator(`.topology [data-select="queue:${queue}"]`);

/** How each documented embed reaches its point, with the controls it shows. */
const PLAYTHROUGHS = {
  // The poison order fails on every receive until SQS moves it to the dead-letter queue.
  'poison-dlq': async (page) => {
    await page.getByTestId('embed-add-worker').click();
    await page.getByTestId('play-pause').click();
    await whilePlaying(page, () => /sms-dlq: 1 message/.test(document.querySelector('.topology [data-select="queue:sms-dlq"]')?.getAttribute('aria-label')));
  },
  // The crashed worker's message comes back when its visibility timeout runs out.
  'crash-visibility': async (page) => {
    assert.match(await node(page, 'packing').getAttribute('aria-label'), /1 in flight/);
    await page.getByTestId('play-pause').click();
    await whilePlaying(page, () => /2 visible, 0 in flight/.test(document.querySelector('.topology [data-select="queue:packing"]')?.getAttribute('aria-label')));
  },
  // A lesson step: the prediction can be answered and its result is shown in the frame.
  'lesson:visibility-timeout': async (page) => {
    await page.getByTestId('predict-choice-1').click();
    await page.getByTestId('predict-submit').click();
    await playedUntilShown(page, 'predict-result');
    assert.ok(await page.getByTestId('predict-result').isVisible());
  },
};

test('every documented embed plays to its point with the controls it shows', async () => {
  const embeds = await documented();
  assert.ok(embeds.length >= 3, `found ${embeds.length} documented embeds`);
  for (const query of embeds) {
    const params = new URLSearchParams(query);
    const key = params.get('lesson') ? `lesson:${params.get('lesson')}` : params.get('scenario');
    assert.ok(PLAYTHROUGHS[key], `the documented embed ${query} has a playthrough`);
    const context = await browser.newContext({ viewport: { width: 640, height: 900 } });
    const page = await context.newPage();
    const problems = [];
    page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`); });
    page.on('pageerror', (e) => problems.push(`uncaught: ${e.message}`));
    await page.goto(`${server.url}embed.html?${query}`);
    await page.locator('svg.topology').first().waitFor({ timeout: 15_000 });
    await PLAYTHROUGHS[key](page);
    assert.equal(await page.getByTestId('embed-notice').count(), 0, `${query}: every parameter understood`);
    assert.deepEqual(await finish(page, problems, `embed-docs-${key.replace(':', '-')}`), [], query);
  }
});

test('an embed says which parameters it did not understand, in the frame and in the console; a fixed height scrolls', async () => {
  const context = await browser.newContext({ viewport: { width: 480, height: 900 } });
  const page = await context.newPage();
  const warnings = [];
  page.on('console', (m) => { if (m.type() === 'warning') warnings.push(m.text()); });
  await page.goto(`${server.url}embed.html?embed=1&lesson=visibility-timeout&step=2&controls=tiny&speed=9x&theme=blue&height=200`);
  await page.getByTestId('lesson-panel').waitFor({ timeout: 15_000 });
  const notice = await page.getByTestId('embed-notice').textContent();
  for (const name of ['controls=tiny', 'speed=9x', 'theme=blue']) {
    assert.ok(notice.includes(name), `${name} named in the frame: ${notice}`);
    assert.ok(warnings.some((w) => w.includes(name)), `${name} named in the console`);
  }
  // At 200 px the frame scrolls: a choice and Commit can be reached and pressed, nothing cut off.
  assert.equal(Math.round((await page.getByTestId('embed-root').boundingBox()).height), 200);
  await page.getByTestId('predict-choice-1').click();
  await page.getByTestId('predict-submit').click();
  await playedUntilShown(page, 'predict-result');
  await context.close();
});
