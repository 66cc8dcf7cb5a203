// Screenshots of the release build in dist/ (run `scripts/build.sh` or `make build` first).
//
//   node shots.mjs --docs            the documentation's PNGs, written to docs/img/ (`make shots`)
//   node shots.mjs OUTDIR PATH...    each address at 375 and 1280 px, light and dark, for a person
//                                    to look at; prints any console error or warning
//
// The documentation's shots are driven to a telling moment by the page's own controls, one
// deterministic step at a time (no wall-clock playing), so two runs show the same story. Each is
// a viewport screenshot, kept at most 150 KB (scripts/check_links.py checks it).
import { mkdir, stat } from 'node:fs/promises';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, launchBrowser, stageBuilt } from './e2e/harness.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const MAX_BYTES = 150 * 1024;

/** Presses a control `times` times, letting the page settle after each. */
async function press(page, testId, times = 1) {
  for (let i = 0; i < times; i++) {
    await page.getByTestId(testId).click();
    await page.waitForTimeout(60);
  }
}

/** The documentation's shots: file name, viewport, address, and how to reach the moment shown. */
const DOCS = [
  {
    // The sandbox: orders published, workers on the queues, the poison order on its way to the DLQ.
    name: 'sandbox.png', viewport: { width: 1280, height: 860 }, scale: 0.8, path: 'index.html?scenario=workers',
    ready: 'publish',
    async act(page) {
      await press(page, 'publish', 3);
      await page.getByTestId('event-type').selectOption('PoisonOrder');
      await press(page, 'publish');
      await press(page, 'step', 5);
      await page.locator('.topology [data-select^="msg:"]').first().click();
    },
  },
  {
    // A lesson: the panel beside the diagram, at its prediction.
    name: 'lesson.png', viewport: { width: 1280, height: 800 }, path: 'lesson.html?lesson=visibility-timeout&step=2',
    ready: 'lesson-panel',
    async act(page) {
      await page.getByTestId('predict-choice-2').click();
      await page.getByTestId('predict-submit').click();
      await page.getByTestId('predict-result').waitFor({ timeout: 15_000 });
    },
  },
  {
    // Compare mode: two designs fed the same orders while the SMS provider is slow.
    name: 'compare.png', viewport: { width: 1280, height: 1000 }, scale: 0.8, path: 'compare.html?compare=fanout,directcalls',
    ready: 'compare-table',
    async act(page) {
      await press(page, 'fault-sms-slow');
      await press(page, 'publish', 3);
      await press(page, 'step', 12);
    },
  },
  {
    // public/embed-example.html: a documentation-like page with a demo in its iframe, as a reader sees it.
    name: 'embed.png', viewport: { width: 800, height: 720 }, path: 'embed-example.html',
    ready: null,
    async act(page) {
      const frame = page.frameLocator('iframe[data-fanout]').first();
      await frame.locator('svg.topology').first().waitFor({ timeout: 15_000 });
      await frame.getByTestId('embed-add-worker').click();
      for (let i = 0; i < 4; i++) {
        await frame.getByTestId('step').click();
        await page.waitForTimeout(60);
      }
    },
  },
];

async function docsShots(browser, server) {
  const out = join(root, 'docs', 'img');
  await mkdir(out, { recursive: true });
  let failed = 0;
  for (const shot of DOCS) {
    const context = await browser.newContext({
      viewport: shot.viewport, deviceScaleFactor: shot.scale ?? 1, colorScheme: 'light', reducedMotion: 'reduce',
    });
    const page = await context.newPage();
    const problems = [];
    page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text()); });
    page.on('pageerror', (e) => problems.push(`uncaught: ${e.message}`));
    await page.goto(server.url + shot.path);
    if (shot.ready) {
      await page.getByTestId(shot.ready).first().waitFor({ timeout: 15_000 });
      await stageBuilt(page);
    }
    await shot.act(page);
    await page.waitForTimeout(400);
    const file = join(out, shot.name);
    await page.screenshot({ path: file, animations: 'disabled', caret: 'hide' });
    const { size } = await stat(file);
    const over = size > MAX_BYTES;
    if (over || problems.length) failed++;
    console.log(`docs/img/${shot.name}: ${size} bytes${over ? ` (over ${MAX_BYTES}: make the viewport smaller)` : ''}`,
      problems.length ? problems : 'console clean');
    await context.close();
  }
  return failed;
}

async function looseShots(browser, server, out, paths) {
  await mkdir(out, { recursive: true });
  for (const path of paths) {
    for (const [w, h] of [[375, 800], [1280, 860]]) {
      for (const scheme of ['light', 'dark']) {
        const ctx = await browser.newContext({ viewport: { width: w, height: h }, colorScheme: scheme });
        const page = await ctx.newPage();
        const errors = [];
        page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') errors.push(m.text()); });
        await page.goto(server.url + path);
        await page.waitForTimeout(1500);
        const name = `${out}/${path.replace(/[^a-z0-9]+/gi, '_') || 'index'}-${w}-${scheme}.png`;
        await page.screenshot({ path: name, fullPage: false });
        console.log(name, errors.length ? errors : 'console clean');
        await ctx.close();
      }
    }
  }
}

const [first, ...rest] = process.argv.slice(2);
if (!first) {
  console.error('usage: node shots.mjs --docs | node shots.mjs OUTDIR PATH...');
  process.exit(2);
}
const server = await startServer();
const browser = await launchBrowser();
let failed = 0;
try {
  if (first === '--docs') failed = await docsShots(browser, server);
  else await looseShots(browser, server, first, rest);
} finally {
  await browser.close();
  await server.close();
}
process.exit(failed ? 1 : 0);
