// Compact by default (issue 51): an embed's first height is its title, controls and diagram;
// panels nobody asked for stay closed; at controls=full every built-in scenario and a shared
// story is at most one screen tall at 1280×800 and one and a half at 375×812. The heights are
// written to target/e2e-screenshots/embed-heights.txt (docs/embedding.md quotes the tallest).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, mkdir, writeFile } from 'node:fs/promises';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, launchBrowser, openPlayground, finish, screenshotDir } from './harness.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
let server;
let browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

const SCREENS = [
  { name: '1280', viewport: { width: 1280, height: 800 }, most: 800 },
  { name: '375', viewport: { width: 375, height: 812 }, most: 1.5 * 812 },
];

/** The embed's content height, as it reports it to its parent, once its diagram is drawn. */
async function heightOf(page, url) {
  await page.goto(url);
  await page.locator('svg.topology').first().waitFor({ timeout: 15_000 });
  // Laid out: two frames after the diagram.
  await page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok))));
  return page.evaluate(() => Math.ceil(document.querySelector('[data-testid="embed-root"]').getBoundingClientRect().height));
}

/** A shared story's fragment: the quilt store with workers and orders, from Copy link. */
async function sharedStory() {
  const { page, problems } = await openPlayground(browser, server.url);
  for (const q of ['billing', 'packing', 'sms']) await page.getByTestId(`queue-${q}-add-worker`).click();
  for (let i = 0; i < 3; i++) await page.getByTestId('publish').click();
  await page.getByTestId('step').click();
  await page.getByTestId('share-copy').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="share-link"]')?.value.includes('#share='));
  const link = await page.getByTestId('share-link').inputValue();
  assert.deepEqual(await finish(page, problems, 'embed-height-story'), []);
  return link.slice(link.indexOf('#share='));
}

test('a full-controls embed is at most one screen tall at 1280×800 and one and a half at 375×812, panels closed', async () => {
  const ids = (await readdir(join(root, 'public', 'scenarios'))).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort();
  const share = await sharedStory();
  const embeds = [
    ...ids.map((id) => [id, `embed.html?embed=1&scenario=${id}&controls=full`]),
    ['a shared story', `embed.html?embed=1&controls=full${share}`],
    ['a shared story (controls=min)', `embed.html?embed=1&controls=min${share}`],
  ];
  const rows = [];
  for (const { name, viewport, most } of SCREENS) {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    const problems = [];
    page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`); });
    for (const [what, address] of embeds) {
      const h = await heightOf(page, `${server.url}${address}`);
      rows.push([what, name, h]);
      assert.ok(h <= most, `${what} at ${name}: ${h} px, more than ${most}`);
      // Nothing the author did not ask for: no queue cards, no event log, no description.
      assert.equal(await page.locator('.embed .queues, .embed .log').count(), 0, `${what}: panels closed`);
      assert.equal(await page.locator('.embed .lede').count(), 0, `${what}: no long description`);
    }
    // A panel asked for is open.
    await heightOf(page, `${server.url}embed.html?embed=1&scenario=quilt-store&controls=min&panels=cards`);
    assert.equal(await page.getByTestId('queue-billing').count(), 1, 'panels=cards opens the queue cards');
    await page.screenshot({ path: join(screenshotDir, `embed-height-${name}.png`), fullPage: true });
    assert.deepEqual(problems, []);
    await context.close();
  }
  await mkdir(screenshotDir, { recursive: true });
  const text = rows.map(([what, screen, h]) => `${what}\t${screen}\t${h}`).join('\n');
  await writeFile(join(screenshotDir, 'embed-heights.txt'), `${text}\n`);
  console.log(text);
});
