// The clock runs on animation frames only while playing; the diagram and the message chips
// update in place: a keyboard-focused node or chip keeps its focus while messages change.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, openPlayground, finish, whilePlaying, stageBuilt, viewsLoaded } from './harness.js';

let server;
let browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

// A click from script: unlike a mouse click it does not move the keyboard focus.
const press = (page, id) => page.evaluate((id) => document.querySelector(`[data-testid="${id}"]`).click(), id);

test('a keyboard-focused diagram node keeps focus while messages arrive', async () => {
  const { page, problems } = await openPlayground(browser, server.url);
  await page.getByTestId('queue-packing-add-worker').click();
  await page.getByTestId('worker-packing-w1').waitFor();
  const node = page.locator('.topology [data-select="queue:packing"]');
  await node.focus();
  await node.evaluate((el) => { window.focusedNode = el; });
  const label = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label'));
  assert.equal(await label(), 'Queue packing: 0 visible, 0 in flight');
  for (let i = 0; i < 3; i++) await press(page, 'publish');
  // The long-polling worker takes the first at once; two wait.
  await page.waitForFunction(() => /2 visible, 1 in flight/.test(document.activeElement?.getAttribute('aria-label')), null, { timeout: 5_000 });
  // Let the worker take and finish messages: counts and the worker's state change, node stays.
  await page.getByTestId('speed').evaluate((el) => { el.value = '6'; el.dispatchEvent(new Event('change', { bubbles: true })); });
  await press(page, 'play-pause');
  await whilePlaying(page, () => /in flight/.test(document.activeElement?.getAttribute('aria-label'))
    && !/2 visible/.test(document.activeElement.getAttribute('aria-label')));
  await page.waitForSelector('[data-testid="diagram-consumer-packing-w1"].processing');
  await press(page, 'play-pause');
  const kept = await page.evaluate(() => document.activeElement === window.focusedNode && window.focusedNode.isConnected);
  assert.equal(kept, true, 'the focused node is the same element, still on the page');
  const stat = await node.locator('.stat').textContent();
  assert.match(await label(), new RegExp(`Queue packing: ${stat.replace(' · ', ', ')}`), 'the text follows the label');
  // Enter on the focused node still selects it.
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => /Queue packing/.test(document.querySelector('[data-testid="inspector"]')?.textContent));
  assert.deepEqual(await finish(page, problems, 'diagram-focus'), []);
});

test('the clock asks for animation frames only while playing', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  await context.addInitScript(() => {
    window.timers = { frames: 0, intervals: 0 };
    const raf = window.requestAnimationFrame.bind(window);
    window.requestAnimationFrame = (f) => { window.timers.frames++; return raf(f); };
    const every = window.setInterval.bind(window);
    window.setInterval = (...args) => { window.timers.intervals++; return every(...args); };
  });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (msg) => { if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`); });
  page.on('pageerror', (err) => problems.push(`uncaught: ${err.message}`));
  await page.goto(server.url);
  await page.getByTestId('publish').waitFor();
  // What the page builds once, after its first screen (the stage's idle work, the views' code
  // fetched), asks for frames of its own: counted from when it is done.
  await stageBuilt(page);
  await viewsLoaded(page);
  const counts = () => page.evaluate(() => ({ ...window.timers }));
  const clock = () => page.evaluate(() => document.querySelector('[data-testid="clock"]').textContent.trim());
  const idle = await counts();
  await page.waitForTimeout(400);
  assert.deepEqual(await counts(), idle, 'paused: nothing is scheduled');
  assert.equal(idle.intervals, 0, 'no interval timer at all');
  await press(page, 'play-pause');
  await page.waitForTimeout(500);
  const playing = await counts();
  assert.ok(playing.frames - idle.frames >= 5, `playing: a frame after frame (${playing.frames - idle.frames})`);
  // At 1×, half a second of real time is about half a second of virtual time.
  const t = await clock();
  assert.match(t, /^00:00:00\.[2-9]\d\d$|^00:00:01\.\d\d\d$/, t);
  await press(page, 'play-pause');
  await page.waitForTimeout(100);
  const paused = await counts();
  const stopped = await clock();
  await page.waitForTimeout(400);
  assert.deepEqual(await counts(), paused, 'paused again: no more frames');
  assert.equal(await clock(), stopped, 'and virtual time stands still');
  assert.deepEqual(await finish(page, problems, 'clock-frames'), []);
});

test('a focused message chip keeps focus when its message is received, and its ring counts down', async () => {
  const { page, problems } = await openPlayground(browser, server.url);
  await press(page, 'publish');
  const chip = page.locator('[data-testid="queue-packing"] .chip').first();
  await chip.waitFor();
  await chip.focus();
  await chip.evaluate((el) => { window.focusedChip = el; });
  await press(page, 'queue-packing-receive');
  await page.waitForSelector('[data-testid="queue-packing"] .chip.inflight');
  assert.equal(await page.evaluate(() => document.activeElement === window.focusedChip), true, 'the same chip, still focused');
  assert.match(await chip.getAttribute('aria-label'), /^msg-\d+ OrderPlaced #4417 1: in flight, received 1 time$/, 'what the chip shows, then its state');
  const dash = () => chip.locator('.left').getAttribute('stroke-dasharray');
  assert.equal(await dash(), '100.0 100', 'a full ring: the whole visibility timeout is left');
  await press(page, 'play-pause');
  await page.waitForFunction(() => document.querySelector('[data-testid="clock"]').textContent.trim() >= '00:00:00.500');
  await press(page, 'play-pause');
  assert.ok(parseFloat(await dash()) < 100, `the ring counts down: ${await dash()}`);
  // Enter on the focused chip inspects its message.
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => /in packing/.test(document.querySelector('[data-testid="inspector"] h3')?.textContent));
  assert.match(await page.getByTestId('inspector').textContent(), /in flight until/);
  assert.equal(await chip.evaluate((el) => el.classList.contains('selected')), true, 'the inspected chip is marked');
  assert.deepEqual(await finish(page, problems, 'chip-focus'), []);
});

test('the event log and the diagram\'s tokens keep their items while events come and go', async () => {
  const { page, problems } = await openPlayground(browser, server.url);
  const seqs = () => page.evaluate(() => [...document.querySelectorAll('[data-testid="event-log"] li')].map((li) => Number(li.dataset.seq)));
  const start = await seqs();
  assert.deepEqual(start, [...start].sort((a, b) => b - a), 'newest first');
  await page.evaluate(() => { window.oldest = document.querySelector('[data-testid="event-log"] li:last-child'); });
  await press(page, 'publish');
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid="event-log"] li').length > n, start.length);
  // OrderPlaced reaches billing, packing and sms: a token travels to each.
  const tokens = await page.evaluate(() => [...document.querySelectorAll('.tokens circle')].map((c) => c.namespaceURI));
  assert.equal(tokens.length, 3);
  assert.ok(tokens.every((ns) => ns === 'http://www.w3.org/2000/svg'), 'tokens are SVG circles');
  await page.evaluate(() => { window.token = document.querySelector('.tokens circle'); });
  await press(page, 'publish');
  await page.waitForFunction(() => document.querySelectorAll('.tokens circle').length === 6);
  assert.equal(await page.evaluate(() => window.token.isConnected), true, 'an earlier token keeps its element (and its animation)');
  const after = await seqs();
  assert.deepEqual(after, [...after].sort((a, b) => b - a));
  assert.equal(after[0], Math.max(...after));
  // Undo takes the last publish back: its events leave the top of the log, the rest stay.
  await press(page, 'undo');
  await page.waitForFunction(() => document.querySelectorAll('.tokens circle').length === 3);
  const undone = await seqs();
  assert.deepEqual(undone, after.slice(after.length - undone.length));
  assert.ok(undone.length < after.length);
  assert.equal(await page.evaluate(() => window.oldest.isConnected && window.oldest === document.querySelector('[data-testid="event-log"] li:last-child')), true);
  assert.deepEqual(await finish(page, problems, 'log-and-tokens'), []);
});
