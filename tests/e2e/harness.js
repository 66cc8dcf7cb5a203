// End-to-end harness: serves the release build (dist/) on a free loopback port, drives Debian's
// headless Chromium through playwright-core (never a downloaded browser), fails a test on any
// console error or uncaught exception (a Rust panic included), and saves one screenshot per
// test under target/e2e-screenshots/ for people to look at.
import { createServer } from 'node:http';
import { readFile, mkdir, stat } from 'node:fs/promises';
import { join, extname, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dist = join(root, 'dist');
export const screenshotDir = join(root, 'target', 'e2e-screenshots');

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.wasm': 'application/wasm',
  '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml', '.png': 'image/png',
};

/** A static file server over dist/ on 127.0.0.1 and a free port; unknown paths get index.html. */
export async function startServer() {
  await stat(join(dist, 'index.html')).catch(() => {
    throw new Error('dist/index.html is missing: run `trunk build --release` (make test does) first');
  });
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    let file = resolve(dist, '.' + path);
    if (!file.startsWith(dist) || path.endsWith('/')) file = join(dist, 'index.html');
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
      res.end(body);
    } catch {
      const body = await readFile(join(dist, 'index.html'));
      res.writeHead(200, { 'content-type': TYPES['.html'] });
      res.end(body);
    }
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((ok) => server.close(ok)) };
}

const FLAGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

export async function launchBrowser() {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: FLAGS, headless: true });
}

/**
 * Opens the playground in a fresh page and returns it with a `problems` list that collects
 * console errors and uncaught exceptions. Call `finish(page, name)` at the end of the test.
 */
export async function openPlayground(browser, url, viewport = { width: 1280, height: 860 }, ready = 'publish') {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (msg) => { if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`); });
  page.on('pageerror', (err) => problems.push(`uncaught: ${err.message}`));
  await page.goto(url);
  await page.getByTestId(ready).waitFor({ timeout: 10_000 });
  // Tests start when the whole stage is there.
  await stageBuilt(page);
  return { page, problems };
}

/** Waits until the stage has built what lies under and beside its first screen (queue cards,
 * inspector, event log): that is done in idle callbacks asked for at the frame that paints the
 * first screen, and an idle callback asked for after that frame runs after them. */
export function stageBuilt(page) {
  return page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestIdleCallback(() => done()))));
}

/** Waits until the app has fetched the code of every view but the sandbox (scripts/build.sh
 * splits it into modules of their own, fetched once the first screen is painted): from then on,
 * moving between views fetches nothing. */
export function viewsLoaded(page) {
  return page.waitForSelector('html[data-views="loaded"]', { state: 'attached', timeout: 10_000 });
}

/**
 * Waits for `fn(arg)` (run in `scope`, a page or a frame) to hold, for as long as the story it
 * waits on is playing: a wait on a run derives from the run, never from a fixed guess of how
 * long it plays. While the story's clock (`[data-testid="clock"]`) keeps moving the wait goes
 * on, however slowly a busy machine plays it (below 10 frames a second virtual time slows down:
 * app/src/view/clock.rs caps a frame at 100 ms). It fails when the clock has not moved for
 * `stallMs` with `fn` still false: the run ended (or never started) without it. A view without
 * a clock is waited on for `noClockMs`: three times the longest a lesson's run plays
 * (RUN_MS, app/src/view/lesson/play.rs), and as much again.
 */
export const RUN_MS = 30_000;
export async function whilePlaying(scope, fn, arg, { stallMs = 20_000, noClockMs = 6 * RUN_MS } = {}) {
  const clock = () => scope.evaluate(() => document.querySelector('[data-testid="clock"]')?.textContent.trim() ?? null);
  const start = Date.now();
  let last = await clock();
  let moved = Date.now();
  for (;;) {
    if (await scope.evaluate(fn, arg)) return;
    const now = await clock();
    if (now !== last) { last = now; moved = Date.now(); }
    const waited = Date.now() - (last === null ? start : moved);
    if (waited > (last === null ? noClockMs : stallMs)) {
      throw new Error(last === null
        ? `whilePlaying: not reached in ${noClockMs} ms (no story clock on the page): ${fn}`
        : `whilePlaying: the story's clock stopped at ${last} for ${stallMs} ms before this held: ${fn}`);
    }
    await new Promise((ok) => setTimeout(ok, 200));
  }
}

/** Waits, while the story plays, for an element with this test id to be in the page. */
export const playedUntilShown = (scope, testId, opts) => whilePlaying(scope, (id) => !!document.querySelector(`[data-testid="${id}"]`), testId, opts);

/** Ends a lesson's run if it is still playing ("Skip to the end"), in one step in the page: a
 * click decided outside it could land on Next instead, if the run ends in between. */
export function skipRun(scope) {
  return scope.evaluate(() => {
    const next = document.querySelector('[data-testid="lesson-next"]');
    if (next && next.textContent.trim() === 'Skip to the end') next.click();
  });
}

/** Saves the test's screenshot, closes its page, and returns the problems seen. */
export async function finish(page, problems, name) {
  await mkdir(screenshotDir, { recursive: true });
  await page.screenshot({ path: join(screenshotDir, `${name}.png`), fullPage: true });
  await page.context().close();
  return problems;
}

export async function textOf(page, testId) {
  return (await page.getByTestId(testId).textContent())?.trim();
}
