// Every embed the documentation offers plays its point from Play (issue 51): each snippet in
// docs/embedding.md, pasted as it is into a page on another origin, and each iframe of
// public/embed-example.html, served from that other origin too. A frame is driven only by Play
// and the one control its instruction line names (a lesson: its step's own control), and the
// point is checked (the DLQ count, the redelivery, the lesson's result). A documented embed with
// no playthrough here fails, and so does an address in the docs that no snippet holds.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, launchBrowser, finish, whilePlaying, playedUntilShown } from './harness.js';
import { startDocs, hostPage } from './docs-server.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
let playground;
let docs;
let browser;
before(async () => {
  playground = await startServer();
  docs = await startDocs(playground.url);
  browser = await launchBrowser();
});
after(async () => { await browser?.close(); await docs?.close(); await playground?.close(); });

const read = (file) => readFile(join(root, file), 'utf8');
/** The embed addresses a text shows (query strings, `&amp;` read as `&`). */
const addresses = (text) => [...text.matchAll(/embed\.html\?([^"'\s)<>`]+)/g)].map((m) => m[1].replaceAll('&amp;', '&'));

/** The snippets of docs/embedding.md: its html code blocks that hold an iframe. */
async function snippets() {
  const text = await read('docs/embedding.md');
  return [...text.matchAll(/```html\n([\s\S]*?)```/g)].map((m) => m[1]).filter((s) => s.includes('<iframe data-fanout'));
}

const dlqHolds = (n) => new RegExp(`sms-dlq: ${n} message`).test(document.querySelector('.topology [data-select="queue:sms-dlq"]')?.getAttribute('aria-label'));

/** How each documented embed shows its point once its control and Play are pressed. */
const POINTS = {
  // The poison order fails on every receive until SQS moves it to the dead-letter queue.
  'poison-dlq': (frame) => whilePlaying(frame, dlqHolds, 1),
  // The crashed worker's message comes back when its visibility timeout runs out.
  'crash-visibility': async (frame) => {
    assert.match(await frame.locator('.topology [data-select="queue:packing"]').getAttribute('aria-label'), /1 in flight/);
    await whilePlaying(frame, () => /2 visible, 0 in flight/.test(document.querySelector('.topology [data-select="queue:packing"]')?.getAttribute('aria-label')));
  },
};

/** Presses Play and the one control the frame's instruction names, then waits for its point. */
async function playThrough(frame, key) {
  if (key.startsWith('lesson:')) {
    // A lesson step's instruction is its text; its one control is the prediction and Commit.
    await frame.getByTestId('lesson-panel').waitFor({ timeout: 15_000 });
    // Without the author's caption, the line says the step, not Play, drives it.
    assert.match(await frame.getByTestId('embed-frame-caption').textContent(), /^The step under the diagram says what to do/);
    await frame.getByTestId('predict-choice-1').click();
    await frame.getByTestId('predict-submit').click();
    await playedUntilShown(frame, 'predict-result');
    assert.ok(await frame.getByTestId('predict-result').isVisible());
    return;
  }
  assert.ok(POINTS[key], `the documented embed of ${key} has a point to check`);
  const said = (await frame.getByTestId('embed-frame-caption').textContent()).trim();
  assert.match(said, /Play/, `${key}: its instruction names Play: ${said}`);
  // The one control besides Play the instruction names, and nothing else.
  if (said.includes('+ Worker')) await frame.getByTestId('embed-add-worker').click();
  else if (said.includes('Publish')) await frame.getByTestId('publish').click();
  else assert.equal(await frame.getByTestId('embed-add-worker').count(), 0, `${key}: no control it does not name`);
  await frame.getByTestId('play-pause').click();
  await POINTS[key](frame);
}

const keyOf = (src) => {
  const params = new URL(src).searchParams;
  return params.get('lesson') ? `lesson:${params.get('lesson')}` : params.get('scenario') ?? 'quilt-store';
};

/** Plays every frame of the host page at `url`, each scrolled into view first. */
async function playPage(url, name, viewport = { width: 900, height: 900 }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`uncaught: ${e.message}`));
  await page.goto(url);
  const played = [];
  const iframes = page.locator('iframe[data-fanout]');
  for (let i = 0; i < await iframes.count(); i++) {
    const iframe = iframes.nth(i);
    await iframe.scrollIntoViewIfNeeded();
    const src = await iframe.getAttribute('src');
    assert.ok(src.startsWith(playground.url), `${src} is on the playground's origin, not the page's (${url})`);
    const frame = await (await iframe.elementHandle()).contentFrame();
    await frame.locator('svg.topology').first().waitFor({ timeout: 15_000 });
    await playThrough(frame, keyOf(src));
    assert.equal(await frame.getByTestId('embed-notice').count(), 0, `${src}: every parameter understood`);
    played.push(new URL(src).search.slice(1));
  }
  assert.deepEqual(await finish(page, problems, name), [], url);
  return played;
}

test('every snippet in docs/embedding.md and every embed of embed-example.html plays its point from Play, on another origin', async () => {
  const found = await snippets();
  assert.ok(found.length >= 1, 'embedding.md has a snippet');
  const played = [];
  for (const [i, snippet] of found.entries()) {
    docs.pages[`/snippet-${i}.html`] = hostPage(`Snippet ${i + 1}`, snippet.replaceAll('https://PLAYGROUND/', playground.url));
    played.push(...await playPage(`${docs.url}snippet-${i}.html`, `embed-docs-snippet-${i}`));
  }
  played.push(...await playPage(docs.url, 'embed-docs-example', { width: 900, height: 1200 }));
  // Every address the documents show is in a snippet or the example page, and so was played.
  for (const file of ['README.md', 'docs/embedding.md', 'public/embed-example.html']) {
    for (const query of addresses(await read(file))) {
      assert.ok(played.some((p) => p.startsWith(query.split('#')[0])), `${file}'s embed.html?${query} is played by a snippet or the example page`);
    }
  }
});

test('an embed says which parameters it did not understand, in the frame and in the console; a fixed height scrolls', async () => {
  const context = await browser.newContext({ viewport: { width: 480, height: 900 } });
  const page = await context.newPage();
  const warnings = [];
  page.on('console', (m) => { if (m.type() === 'warning') warnings.push(m.text()); });
  await page.goto(`${playground.url}embed.html?embed=1&lesson=visibility-timeout&step=2&controls=tiny&speed=100x&theme=blue&height=200`);
  await page.getByTestId('lesson-panel').waitFor({ timeout: 15_000 });
  const notice = await page.getByTestId('embed-notice').textContent();
  for (const name of ['controls=tiny', 'speed=100x', 'theme=blue']) {
    assert.ok(notice.includes(name), `${name} named in the frame: ${notice}`);
    assert.ok(warnings.some((w) => w.includes(name)), `${name} named in the console`);
  }
  // The lesson's own panel drives it: no "+ Worker" for a queue the lesson is not about.
  assert.equal(await page.getByTestId('embed-add-worker').count(), 0);
  // At 200 px the frame scrolls: a choice and Commit can be reached and pressed, nothing cut off.
  assert.equal(Math.round((await page.getByTestId('embed-root').boundingBox()).height), 200);
  await page.getByTestId('predict-choice-1').click();
  await page.getByTestId('predict-submit').click();
  await playedUntilShown(page, 'predict-result');
  await context.close();
});

test('a speed between the presets plays at the nearest one and says so; an unknown id names the closest ones', async () => {
  const context = await browser.newContext({ viewport: { width: 640, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${playground.url}embed.html?embed=1&scenario=poison&controls=full&speed=3`);
  await page.getByTestId('load-error').waitFor({ timeout: 15_000 });
  assert.match(await page.getByTestId('load-error').textContent(), /no scenario "poison"; the closest: poison-dlq/);
  assert.match(await page.getByTestId('embed-notice').textContent(), /speed=3 is not one of the speeds .*; using 4×/);
  assert.equal(await page.getByTestId('speed').evaluate((s) => s.selectedOptions[0].textContent), '4×');
  await page.goto(`${playground.url}embed.html?embed=1&lesson=visibilty-timeout&controls=min`);
  await page.getByTestId('load-error').waitFor({ timeout: 15_000 });
  assert.match(await page.getByTestId('load-error').textContent(), /There is no lesson "visibilty-timeout"; the closest: visibility-timeout/);
  await context.close();
});
