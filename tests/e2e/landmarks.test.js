// Landmarks and the keyboard (issue 50): every view has a language, one main, a banner header
// with its nav, and headings in order; the first Tab stop is a skip link to the main content (on
// a lesson, to the step); the event log is one Tab stop, its events reached with the arrow keys;
// the focus outline is 2 px with at least 3:1 against what is behind it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, finish, stageBuilt } from './harness.js';

let server;
let browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

async function open(path, ready, { viewport = { width: 1280, height: 860 }, colorScheme = 'light' } = {}) {
  const context = await browser.newContext({ viewport, colorScheme });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console error: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`uncaught: ${e.message}`));
  await page.goto(server.url + path);
  await page.getByTestId(ready).waitFor({ timeout: 20_000 });
  await stageBuilt(page);
  return { page, problems };
}

const VIEWS = [
  ['', 'publish'], ['lesson.html', 'lesson-overview'], ['lesson.html?lesson=first-fan-out&step=4', 'lesson-panel'],
  ['compare.html?compare=fanout,workqueue', 'compare'], ['compare.html?interview=checkout&step=1', 'interview'],
  ['compare.html?interview=checkout&step=8', 'interview-review'], ['?drills', 'drill-list'],
  ['?drill=charged-twice', 'drill-panel'], ['export.html', 'export-panel'],
];

test('every view has a language, one main, a banner with its nav, and headings that never skip a level', async () => {
  for (const [path, ready] of VIEWS) {
    const { page, problems } = await open(path, ready);
    const found = await page.evaluate(() => {
      const shown = (el) => !!(el.offsetWidth || el.offsetHeight || el.getClientRects().length);
      const inSection = (el) => !!el.parentElement.closest('main, article, aside, nav, section');
      const levels = [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')].filter(shown).map((h) => Number(h.tagName[1]));
      const skips = levels.filter((l, i) => i > 0 && l > levels[i - 1] + 1);
      return {
        lang: document.documentElement.lang,
        mains: document.querySelectorAll('main, [role="main"]').length,
        banners: [...document.querySelectorAll('header')].filter((h) => !inSection(h)).length,
        navInBanner: !!document.querySelector('header:not(main header) nav'),
        first: levels[0],
        skips,
      };
    });
    assert.deepEqual(found, { lang: 'en', mains: 1, banners: 1, navInBanner: true, first: 1, skips: [] }, path || 'sandbox');
    await page.context().close();
    assert.deepEqual(problems, [], path);
  }
});

test('the first Tab is a skip link to the main content; on a lesson it leads to the step, a few Tabs from its first choice after a 300-order run', async () => {
  let { page, problems } = await open('', 'publish');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'skip-link');
  assert.equal((await page.getByTestId('skip-link').textContent()).trim(), 'Skip to the main content');
  assert.ok(await page.getByTestId('skip-link').isVisible(), 'shown while focused');
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement?.tagName), 'MAIN');
  await page.context().close();
  assert.deepEqual(problems, []);

  ({ page, problems } = await open('lesson.html?lesson=first-fan-out&step=4', 'lesson-panel'));
  await page.getByTestId('predict-choice-1').waitFor();
  // After a 300-order run: the event log and the chips it fills stay one Tab stop each.
  await page.evaluate(() => { for (let i = 0; i < 300; i++) document.querySelector('[data-testid="publish"]').click(); });
  await page.waitForFunction(() => Number(document.querySelector('[data-testid="queue-billing-visible"]')?.textContent) >= 300, null, { timeout: 20_000 });
  await page.getByTestId('skip-link').focus();
  assert.equal((await page.getByTestId('skip-link').textContent()).trim(), 'Skip to the step');
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'lesson-text', 'the step\'s text has the focus');
  let presses = 0;
  while (presses < 40) {
    await page.keyboard.press('Tab');
    presses++;
    if (await page.evaluate(() => document.activeElement?.dataset.testid === 'predict-choice-1')) break;
  }
  console.log(`${presses} Tab presses from the step to its first choice`);
  assert.ok(presses <= 10, `${presses} Tab presses from the step to its first choice`);
  assert.deepEqual(await finish(page, problems, 'skip-link-lesson'), []);
});

test('the event log is one Tab stop: the arrow keys move between its events, Tab leaves it', async () => {
  const { page, problems } = await open('', 'publish');
  for (let i = 0; i < 5; i++) await page.getByTestId('publish').click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="event-log"] .event').length > 10);
  const stops = () => page.evaluate(() => [...document.querySelectorAll('[data-testid="event-log"] .event')].filter((e) => e.tabIndex === 0).length);
  await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="event-log"] .event')].filter((e) => e.tabIndex === 0).length === 1);
  // Tab from the log's filter reaches the log once.
  await page.getByTestId('log-filter').focus();
  await page.keyboard.press('Tab');
  const at = () => page.evaluate(() => {
    const a = document.activeElement;
    return a?.classList.contains('event') ? [...document.querySelectorAll('[data-testid="event-log"] .event')].indexOf(a) : -1;
  });
  assert.equal(await at(), 0, 'the newest event');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  assert.equal(await at(), 2);
  await page.keyboard.press('ArrowUp');
  assert.equal(await at(), 1);
  await page.keyboard.press('End');
  const last = await page.evaluate(() => document.querySelectorAll('[data-testid="event-log"] .event').length - 1);
  assert.equal(await at(), last);
  assert.equal(await stops(), 1, 'still one stop: the focused event');
  await page.keyboard.press('Tab');
  assert.equal(await at(), -1, 'Tab leaves the log');
  await page.keyboard.press('Shift+Tab');
  assert.equal(await at(), last, 'Shift+Tab comes back to the event last focused');
  // Enter still opens it in the inspector.
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => /in the log/.test(document.querySelector('[data-testid="inspector"]')?.textContent));
  assert.deepEqual(await finish(page, problems, 'event-log-roving'), []);
});

test('the focus outline is 2 px, with at least 3:1 against the page, in light and in dark', async () => {
  for (const colorScheme of ['light', 'dark']) {
    const { page, problems } = await open('', 'publish', { colorScheme });
    await page.getByTestId('publish').focus();
    await page.keyboard.press('Tab');
    const ring = await page.evaluate(() => {
      const s = getComputedStyle(document.activeElement);
      const rgb = (c) => c.match(/[\d.]+/g).slice(0, 3).map(Number);
      const lum = (c) => {
        const [r, g, b] = rgb(c).map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
      };
      const bg = getComputedStyle(document.body).backgroundColor;
      const [a, b] = [lum(s.outlineColor), lum(bg)].sort((x, y) => y - x);
      return { width: s.outlineWidth, style: s.outlineStyle, contrast: (a + 0.05) / (b + 0.05) };
    });
    assert.equal(ring.width, '2px', colorScheme);
    assert.equal(ring.style, 'solid', colorScheme);
    assert.ok(ring.contrast >= 3, `${colorScheme}: ${ring.contrast.toFixed(2)}:1`);
    await page.context().close();
    assert.deepEqual(problems, []);
  }
});

test('with reduced motion, no token flies and nothing animates; the counts still change', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, reducedMotion: 'reduce' });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(server.url);
  await page.getByTestId('publish').waitFor();
  await stageBuilt(page);
  await page.getByTestId('publish').click();
  // The copies' tokens are drawn (their layer follows the events) but not shown, and nothing runs.
  await page.waitForFunction(() => /1 visible/.test(document.querySelector('#diagram [data-select="queue:billing"]')?.getAttribute('aria-label')));
  const moving = await page.evaluate(() => ({
    drawn: document.querySelectorAll('.topology .token').length > 0,
    shownTokens: [...document.querySelectorAll('.topology .token')].filter((t) => getComputedStyle(t).display !== 'none').length,
    running: document.getAnimations().filter((a) => a.playState === 'running').length,
  }));
  assert.deepEqual(moving, { drawn: true, shownTokens: 0, running: 0 });
  await context.close();
  assert.deepEqual(problems, []);
});

test('at 320 px wide no view scrolls sideways (the diagram scrolls in its own box)', async () => {
  for (const [path, ready] of VIEWS) {
    const { page, problems } = await open(path, ready, { viewport: { width: 320, height: 700 } });
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(wide <= 320, `${path || 'sandbox'}: the page is ${wide} px wide`);
    await page.context().close();
    assert.deepEqual(problems, [], path);
  }
});

test('the live region announces what happens, politely and at most once a second, a burst summed up', async () => {
  const { page, problems } = await open('', 'publish');
  const region = page.locator('.sr-only[role="status"][aria-live="polite"]');
  assert.equal(await region.count(), 1);
  // Every change of the region's text, with its time.
  await page.evaluate(() => {
    window.said = [];
    const el = document.querySelector('.sr-only[role="status"][aria-live="polite"]');
    new MutationObserver(() => window.said.push([performance.now(), el.textContent])).observe(el, { childList: true, characterData: true, subtree: true });
  });
  await page.getByTestId('publish').click();
  await page.waitForFunction(() => window.said.some(([, t]) => /published to order-events: copied to 3 queues/.test(t)));
  for (let i = 0; i < 6; i++) await page.getByTestId('publish').click();
  await page.waitForFunction(() => window.said.some(([, t]) => /^\d+ messages published, \d+ copies delivered to queues$/.test(t)), null, { timeout: 5_000 });
  const said = await page.evaluate(() => window.said.filter(([, t]) => t));
  const gaps = said.slice(1).map(([t], i) => t - said[i][0]);
  assert.ok(gaps.every((g) => g >= 950), `announcements at least a second apart: ${JSON.stringify(said)}`);
  const total = said.reduce((n, [, t]) => n + Number(t.match(/^(\d+) messages published,/)?.[1] ?? (t.match(/published to/g) ?? []).length), 0);
  assert.equal(total, 7, `every publish is in some announcement: ${JSON.stringify(said)}`);
  assert.deepEqual(await finish(page, problems, 'live-region'), []);
});

test('a queue\'s message chips are one Tab stop too, reached with the arrow keys', async () => {
  const { page, problems } = await open('', 'publish');
  for (let i = 0; i < 4; i++) await page.getByTestId('publish').click();
  const chips = '[data-testid="queue-billing"] .chips .chip';
  await page.waitForFunction((sel) => document.querySelectorAll(sel).length === 4
    && [...document.querySelectorAll(sel)].filter((c) => c.tabIndex === 0).length === 1, chips);
  const at = () => page.evaluate((sel) => [...document.querySelectorAll(sel)].indexOf(document.activeElement), chips);
  // Shift+Tab from the card's first button after the list ("+ Worker") lands on the list's stop: its first chip.
  await page.getByTestId('queue-billing-add-worker').focus();
  await page.keyboard.press('Shift+Tab');
  assert.equal(await at(), 0);
  await page.keyboard.press('ArrowDown');
  assert.equal(await at(), 1);
  await page.keyboard.press('End');
  assert.equal(await at(), 3);
  assert.equal(await page.evaluate((sel) => [...document.querySelectorAll(sel)].filter((c) => c.tabIndex === 0).length, chips), 1);
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => /in billing/.test(document.querySelector('[data-testid="inspector"] h3')?.textContent));
  assert.deepEqual(await finish(page, problems, 'chips-roving'), []);
});
