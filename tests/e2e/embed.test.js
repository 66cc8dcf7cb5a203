// Embed mode (issue 15): public/embed-example.html served from one loopback origin embeds the
// playground from another port; every embed renders without console errors, reports its height
// and is resized by embed.js; embed mode writes nothing to storage; an off-screen embed waits.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, finish, playedUntilShown } from './harness.js';
import { startDocs, hostPage } from './docs-server.js';

let playground;
let docs;
let browser;


before(async () => {
  playground = await startServer();
  docs = await startDocs(playground.url);
  browser = await launchBrowser();
});
after(async () => { await browser?.close(); await docs?.close(); await playground?.close(); });

async function openDocs(colorScheme, viewport = { width: 900, height: 2400 }) {
  const context = await browser.newContext({ viewport, colorScheme });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`uncaught: ${e.message}`));
  await page.goto(docs.url);
  return { page, problems };
}

const embedFrames = (page) => page.frames().filter((f) => f.url().includes('embed=1'));

test('the example page: every embed renders, reports its height and is resized; nothing in storage', async () => {
  const { page, problems } = await openDocs('light');
  await page.waitForFunction(() => document.querySelectorAll('iframe[data-fanout]').length === 3);
  await page.waitForFunction(() => [...document.querySelectorAll('iframe[data-fanout]')].every((f) => f.style.height !== ''), null, { timeout: 20_000 });
  assert.equal(embedFrames(page).length, 3);
  for (const frame of embedFrames(page)) {
    await frame.getByTestId('embed-root').waitFor();
    await frame.locator('svg.topology').first().waitFor({ timeout: 15_000 });
    await frame.getByTestId('play-pause').waitFor();
    assert.equal(await frame.getByTestId('load-error').count(), 0, frame.url());
  }
  const sizes = await page.$$eval('iframe[data-fanout]', (fs) => fs.map((f) => [parseFloat(f.style.height), f.contentWindow ? 1 : 0]));
  for (const [h] of sizes) assert.ok(h > 200 && h < 4000, `resized to the content (${h} px)`);
  // The frame's height is its content's: no inner scroll bar, no growth loop.
  for (const frame of embedFrames(page)) {
    const [content, viewport] = await frame.evaluate(() => [document.querySelector('[data-testid="embed-root"]').getBoundingClientRect().height, innerHeight]);
    assert.ok(Math.abs(content - viewport) <= 2, `${content} fits ${viewport}`);
  }
  assert.equal(await page.evaluate(() => document.activeElement === document.body), true, 'no embed took focus');
  // Acting in one embed does not touch the other, and nothing is written to storage.
  const [first, second] = embedFrames(page);
  await first.getByTestId('publish').click();
  await first.getByTestId('step').click();
  assert.notEqual(await first.getByTestId('clock').textContent(), await second.getByTestId('clock').textContent());
  for (const frame of embedFrames(page)) {
    assert.deepEqual(await frame.evaluate(() => [localStorage.length, sessionStorage.length]), [0, 0]);
  }
  assert.deepEqual(await finish(page, problems, 'embed-example-light'), []);
});

test('an embed below the fold does no work until it is scrolled into view', async () => {
  const { page, problems } = await openDocs('dark', { width: 420, height: 700 });
  await page.waitForTimeout(300);
  const lesson = () => page.frames().find((f) => f.url().includes('lesson=visibility-timeout'));
  // Lazy loading may not have fetched it at all; if it did, it only waits.
  if (lesson()) assert.equal(await lesson().locator('svg.topology').count(), 0, 'no diagram before it is seen');
  await page.locator('iframe[src*="lesson=visibility-timeout"]').scrollIntoViewIfNeeded();
  await page.waitForFunction(() => true);
  await (async () => { for (let i = 0; i < 100 && !lesson(); i++) await page.waitForTimeout(100); })();
  await lesson().locator('svg.topology').first().waitFor({ timeout: 15_000 });
  await lesson().getByTestId('lesson-panel').waitFor();
  assert.equal((await lesson().getByTestId('lesson-step').textContent()).trim(), '2 / 10');
  assert.equal(await lesson().evaluate(() => document.documentElement.dataset.theme), 'dark');
  assert.deepEqual(await finish(page, problems, 'embed-example-dark-375'), []);
});

test('a lesson step in an embed: the lesson panel, predict then see, Back, a link to the lesson page; nothing saved', async () => {
  const context = await browser.newContext({ viewport: { width: 700, height: 1400 } });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`); });
  await page.goto(`${playground.url}embed.html?embed=1&lesson=visibility-timeout&step=2&controls=min`);
  await page.getByTestId('lesson-panel').waitFor({ timeout: 15_000 });
  assert.equal((await page.getByTestId('lesson-step').textContent()).trim(), '2 / 10');
  assert.equal(await page.getByTestId('lesson-exit').count(), 0, 'no "Open in the sandbox" inside an embed');
  // The learner predicts; the engine's count after the run says which answer was right.
  await page.getByTestId('predict-choice-1').click();
  await page.getByTestId('predict-submit').click();
  await playedUntilShown(page, 'predict-result');
  assert.match(await page.getByTestId('predict-result').textContent(), /zero|0/i);
  await page.getByTestId('lesson-next').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="lesson-step"]')?.textContent.trim() === '3 / 10');
  await page.getByTestId('checkpoint').waitFor();
  const href = await page.getByTestId('embed-open-full').getAttribute('href');
  assert.match(href, /lesson\.html\?lesson=visibility-timeout&step=3$/);
  await page.getByTestId('lesson-back').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="lesson-step"]')?.textContent.trim() === '2 / 10');
  assert.deepEqual(await page.evaluate(() => [localStorage.length, sessionStorage.length]), [0, 0], 'an embed saves no progress');
  assert.ok(!page.url().includes('step=3'), 'the embed leaves its address alone');
  assert.deepEqual(problems, []);
  await context.close();
});

test('"Open in the full playground" opens the same story in a new tab', async () => {
  const context = await browser.newContext({ viewport: { width: 700, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${playground.url}?embed=1&scenario=poison-dlq&controls=min`);
  await page.getByTestId('publish').click();
  await page.getByTestId('step').click();
  const clock = (await page.getByTestId('clock').textContent()).trim();
  const [tab] = await Promise.all([context.waitForEvent('page'), page.getByTestId('embed-open-full').click()]);
  await tab.waitForURL(/#share=/);
  await tab.getByTestId('share-copy').waitFor();
  await tab.waitForFunction((c) => document.querySelector('[data-testid="clock"]')?.textContent.trim() === c, clock);
  assert.equal(await tab.getByTestId('embed-root').count(), 0, 'the full playground, not the embed');
  await context.close();
});

test('embed parameters: autoplay at a speed, no controls, a fixed height, a dark theme, and a loop', async () => {
  const context = await browser.newContext({ viewport: { width: 480, height: 900 }, colorScheme: 'light' });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text()); });
  await page.goto(`${playground.url}?embed=1&scenario=crash-visibility&controls=none&autoplay=1&speed=64x&loop=1&height=420&theme=dark`);
  await page.locator('svg.topology').first().waitFor();
  assert.equal(await page.getByTestId('play-pause').count(), 0, 'controls=none shows no controls');
  assert.equal(Math.round((await page.getByTestId('embed-root').boundingBox()).height), 420);
  assert.equal(await page.evaluate(() => getComputedStyle(document.documentElement).colorScheme), 'dark');
  const seconds = async () => {
    const [h, m, s] = (await page.getByTestId('clock').textContent()).trim().split(':').map(Number);
    return h * 3600 + m * 60 + s;
  };
  // Playing by itself at 64x: the crashed worker's message returns at 30 s, then all is quiet;
  // 30 s later the story starts again, so the clock goes back.
  let top = 0;
  let looped = false;
  for (let i = 0; i < 200 && !looped; i++) {
    const t = await seconds();
    if (t + 5 < top) looped = true;
    top = Math.max(top, t);
    await page.waitForTimeout(50);
  }
  assert.ok(top > 30, `it played on by itself (${top} s)`);
  assert.ok(looped, 'it started again');
  assert.deepEqual(problems, []);
  await context.close();
});

test('the playground\'s own address with ?embed=1 forwards to the embed page, parameters and all', async () => {
  const context = await browser.newContext({ viewport: { width: 600, height: 700 } });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
  await page.goto(`${playground.url}?embed=1&scenario=poison-dlq&controls=min`);
  await page.getByTestId('embed-root').waitFor();
  await page.locator('svg.topology').first().waitFor({ timeout: 15_000 });
  const url = new URL(page.url());
  assert.match(url.pathname, /embed\.html$/);
  assert.equal(url.search, '?embed=1&scenario=poison-dlq&controls=min');
  assert.match(await page.locator('.embed-bar').textContent(), /Poison message to the DLQ/);
  assert.deepEqual(await finish(page, problems, 'embed-forwarded'), []);
});

test('embed.js titles a frame its author left untitled with what the embed shows, and keeps an author\'s title', async () => {
  const src = `${playground.url}embed.html?embed=1&scenario=poison-dlq&controls=min`;
  docs.pages['/titles.html'] = hostPage('Frame titles', `<iframe data-fanout loading="eager" style="width:100%;height:300px;border:0" src="${src}"></iframe>
<iframe data-fanout title="Mine" loading="eager" style="width:100%;height:300px;border:0" src="${src}"></iframe>
<script src="/embed.js"></script>`);
  const context = await browser.newContext({ viewport: { width: 800, height: 1400 } });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`uncaught: ${e.message}`));
  await page.goto(`${docs.url}titles.html`);
  await page.waitForFunction(() => [...document.querySelectorAll('iframe[data-fanout]')].every((f) => f.style.height !== ''), null, { timeout: 20_000 });
  // The first report comes before the story is in (the page's title is the generic one then).
  await page.waitForFunction(() => /: a Fan-out Playground demo$/.test(document.querySelector('iframe[data-fanout]').title), null, { timeout: 20_000 });
  const titles = await page.$$eval('iframe[data-fanout]', (fs) => fs.map((f) => f.getAttribute('title')));
  const shown = (await embedFrames(page)[0].getByTestId('embed-frame-title').textContent()).trim();
  assert.deepEqual(titles, [`${shown}: a Fan-out Playground demo`, 'Mine']);
  assert.deepEqual(problems, []);
  await context.close();
});
