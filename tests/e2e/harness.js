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
