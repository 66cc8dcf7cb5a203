// Accessibility (issue 50): axe-core (pinned in package.json) checks every view against the
// WCAG 2.0, 2.1 and 2.2 rules of levels A and AA, at 1280 px in light and at 375 px in dark, with
// the panels open that a learner opens: the inspector on a queue, a lesson's panel, a drill's
// panel, the interview's review, the embed. Any violation fails the test, which prints each one:
// the rule, the element (axe's selector) and what axe says to fix.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, mkdir } from 'node:fs/promises';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, launchBrowser, screenshotDir, stageBuilt } from './harness.js';

const AXE_PATH = join(dirname(fileURLToPath(import.meta.url)), '..', 'node_modules', 'axe-core', 'axe.min.js');
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

let server;
let browser;
let axeSource;
before(async () => {
  axeSource = await readFile(AXE_PATH, 'utf8');
  server = await startServer();
  browser = await launchBrowser();
});
after(async () => { await browser?.close(); await server?.close(); });

/** Runs axe over the whole page (after injecting it) and returns its violations and how many
 * rules it ran, so that a test can tell "nothing found" from "nothing checked". */
async function runAxe(page) {
  await page.evaluate(axeSource);
  return page.evaluate(async (tags) => {
    const r = await window.axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    const checked = r.passes.length + r.violations.length + r.incomplete.length + r.inapplicable.length;
    return {
      version: window.axe.version,
      checked,
      violations: r.violations.map((v) => ({
        id: v.id, impact: v.impact, help: v.help,
        nodes: v.nodes.map((n) => ({ target: n.target.join(' '), summary: n.failureSummary })),
      })),
    };
  }, TAGS);
}

/** One line per violating element: rule, element, axe's summary of the fix. */
function describe(violations) {
  const lines = [];
  for (const v of violations) {
    for (const n of v.nodes) {
      lines.push(`${v.id} (${v.impact}): ${v.help}\n    element: ${n.target}\n    ${n.summary.replace(/\n/g, '\n    ')}`);
    }
  }
  return lines.join('\n');
}

const countByRule = (violations) => Object.fromEntries(violations.map((v) => [v.id, v.nodes.length]));

/** The views, each with its address, the element that says it is drawn, and what the learner
 * opens in it before it is checked. */
const VIEWS = [
  { name: 'sandbox-inspector', path: '', ready: 'publish', open: async (page) => {
    await stageBuilt(page);
    await page.locator('#diagram [data-select="queue:billing"]').click();
    await page.waitForFunction(() => /Queue billing/.test(document.querySelector('[data-testid="inspector"]')?.textContent));
  } },
  { name: 'lesson-overview', path: 'lesson.html', ready: 'lesson-overview' },
  { name: 'lesson-step', path: 'lesson.html?lesson=first-fan-out&step=2', ready: 'lesson-panel', open: stageBuilt },
  { name: 'compare', path: 'compare.html?compare=fanout,workqueue', ready: 'compare', open: stageBuilt },
  { name: 'interview', path: 'compare.html?interview=checkout&step=1', ready: 'interview' },
  { name: 'interview-review', path: 'compare.html?interview=checkout&step=8', ready: 'interview-review' },
  // A practice run: a question asked, an earlier attempt kept, and the question before a new one.
  { name: 'interview-practice', path: '?interview=checkout', ready: 'interview', open: async (page) => {
    await page.getByTestId('interview-practice').click();
    await page.getByTestId('interview-ask-1').click();
    await page.getByTestId('interview-answer').fill('20 orders a second');
    await page.getByTestId('interview-new-attempt').click();
    await page.getByTestId('interview-confirm-yes').click();
    await page.getByTestId('interview-attempt-1').waitFor();
    await page.getByTestId('interview-ask-2').click();
    await page.getByTestId('interview-new-attempt').click();
    await page.getByTestId('interview-confirm-new').waitFor();
  } },
  { name: 'drills', path: '?drills', ready: 'drill-list' },
  { name: 'drill', path: '?drill=charged-twice', ready: 'drill-panel', open: stageBuilt },
  { name: 'export', path: 'export.html', ready: 'export-panel' },
  { name: 'embed', path: 'embed.html?scenario=quilt-store&panels=cards', ready: 'embed-root', open: stageBuilt },
];

const SIZES = [
  { label: '1280-light', viewport: { width: 1280, height: 860 }, colorScheme: 'light' },
  { label: '375-dark', viewport: { width: 375, height: 800 }, colorScheme: 'dark' },
];

test('the checker fails on a page with a violation (it is loaded and reports)', async () => {
  const page = await browser.newPage();
  await page.setContent('<!doctype html><html lang="en"><title>t</title><main><p style="color:#bbb;background:#fff">faint</p></main></html>');
  const { version, violations } = await runAxe(page);
  await page.close();
  assert.equal(version, '4.14.1');
  assert.deepEqual(countByRule(violations), { 'color-contrast': 1 });
});

for (const size of SIZES) {
  for (const view of VIEWS) {
    test(`axe finds no WCAG 2.2 A/AA violation: ${view.name} at ${size.label}`, async () => {
      const context = await browser.newContext({ viewport: size.viewport, colorScheme: size.colorScheme });
      const page = await context.newPage();
      const problems = [];
      page.on('console', (m) => { if (m.type() === 'error') problems.push(`console error: ${m.text()}`); });
      page.on('pageerror', (e) => problems.push(`uncaught: ${e.message}`));
      await page.goto(server.url + view.path);
      await page.getByTestId(view.ready).waitFor({ timeout: 20_000 });
      if (view.open) await view.open(page);
      const { checked, violations } = await runAxe(page);
      await mkdir(screenshotDir, { recursive: true });
      await page.screenshot({ path: join(screenshotDir, `axe-${view.name}-${size.label}.png`) });
      await context.close();
      const nodes = violations.reduce((n, v) => n + v.nodes.length, 0);
      console.log(`axe ${view.name} ${size.label}: ${nodes} ${JSON.stringify(countByRule(violations))}`);
      assert.ok(checked > 20, `axe ran its rules (${checked})`);
      assert.deepEqual(problems, []);
      assert.equal(nodes, 0, `${nodes} violations on ${view.name} at ${size.label}:\n${describe(violations)}`);
    });
  }
}
