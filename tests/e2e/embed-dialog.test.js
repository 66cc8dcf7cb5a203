// The Embed dialog (issue 51): an author builds a story in the sandbox, opens Embed, writes a
// title and a caption, copies the snippet into a page on another origin, and that page shows the
// same story with the title and caption. The dialog at 1280 and 375 px, by keyboard (the focus
// moves in, Escape closes, the focus comes back), a label on every field; a lesson step's Embed;
// the options in the snippet and the preview; the snippet's length for the quilt store and for
// a story of 50 commands (written to target/e2e-screenshots/embed-lengths.txt).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startServer, launchBrowser, openPlayground, finish, textOf, screenshotDir } from './harness.js';
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

/** Where the dialog's screenshots go besides the harness's directory (SHOTS=dir to change). */
const shots = process.env.EMBED_SHOTS ?? screenshotDir;

/** Sends one AWS call from the sandbox's AWS call panel. */
async function awsCall(page, action, params) {
  const call = page.getByTestId('aws-call');
  if (!await call.evaluate((d) => d.open)) await call.locator('summary').click();
  await page.getByTestId('aws-call-action').selectOption(action);
  await page.getByTestId('aws-call-params').fill(JSON.stringify(params));
  await page.getByTestId('aws-call-send').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="aws-call-answer"]') && !document.querySelector('[data-testid="aws-call-answer"]').hidden);
  assert.equal(await textOf(page, 'aws-call-error'), '', `${action} was accepted`);
}

/** The queues' nodes as the diagram reads them out: name, counts, consumers. */
const queueLabels = (scope) => scope.$$eval('.topology [data-select^="queue:"]', (ns) => ns.map((n) => n.getAttribute('aria-label')).sort());

/** Opens the dialog with Embed and waits for its snippet to hold the story. */
async function openDialog(page) {
  await page.getByTestId('embed-this').click();
  const dialog = page.getByTestId('embed-dialog');
  await dialog.waitFor({ timeout: 15_000 });
  await page.waitForFunction(() => document.querySelector('[data-testid="embed-snippet"]')?.value.includes('<iframe'));
  return dialog;
}

const focusInDialog = (page) => page.evaluate(() => !!document.activeElement?.closest('[data-testid="embed-dialog"]'));

test('an author embeds their own story with a title and caption; a page on another origin shows the same story', async () => {
  const { page, problems } = await openPlayground(browser, playground.url);
  // The story: a queue added with the AWS call panel, subscribed, a worker on it, three orders.
  await awsCall(page, 'CreateQueue', { QueueName: 'gifts' });
  await awsCall(page, 'Subscribe', {
    TopicArn: 'arn:aws:sns:us-east-1:000000000000:order-events', Protocol: 'sqs',
    Endpoint: 'arn:aws:sqs:us-east-1:000000000000:gifts', Attributes: { RawMessageDelivery: 'true' },
  });
  await page.getByTestId('queue-gifts-add-worker').click();
  for (let i = 0; i < 3; i++) {
    await page.getByTestId('publish').click();
    await page.getByTestId('step').click();
  }
  const clock = await textOf(page, 'clock');
  const labels = await queueLabels(page);
  assert.ok(labels.some((l) => l.startsWith('Queue gifts')), labels.join(' / '));

  // Embed: the focus moves into the dialog; every field has a visible label.
  const dialog = await openDialog(page);
  assert.ok(await focusInDialog(page), 'the focus is in the dialog');
  const unlabelled = await dialog.evaluate((d) => [...d.querySelectorAll('input, select, textarea')].filter((f) => {
    const label = f.closest('label') ?? (f.id && d.querySelector(`label[for="${f.id}"]`));
    return !label || label.getBoundingClientRect().height === 0 || !label.textContent.trim();
  }).map((f) => f.dataset.testid));
  assert.deepEqual(unlabelled, [], 'a visible label on every field');
  const title = 'Gift orders <b>fan out</b> & "queue"';
  const caption = 'Three orders reach billing, packing, sms and the new gifts queue, whose worker takes them.';
  await page.getByTestId('embed-title').fill(title);
  await page.getByTestId('embed-caption').fill(caption);
  await page.waitForFunction((t) => document.querySelector('[data-testid="embed-snippet"]').value.includes(t), 'title=Gift%20orders');
  // By default a reader watches the story happen from its start (start=0); unticked, the frame
  // opens at the author's moment.
  const fromStart = await page.getByTestId('embed-snippet').inputValue();
  assert.match(fromStart, /&amp;controls=min&amp;start=0&amp;title=/);
  assert.match(await dialog.locator('label', { has: page.getByTestId('embed-from-start') }).textContent(), /where you are now/);
  await page.getByTestId('embed-from-start').uncheck();
  await page.waitForFunction(() => !document.querySelector('[data-testid="embed-snippet"]').value.includes('start=0'));
  const snippet = await page.getByTestId('embed-snippet').inputValue();
  assert.match(snippet, /^<iframe data-fanout title="Gift orders &lt;b&gt;fan out&lt;\/b&gt; &amp; &quot;queue&quot;"/);
  assert.match(snippet, /#share=[A-Za-z0-9_-]+"><\/iframe>\n<script src="http:\/\/127\.0\.0\.1:\d+\/embed\.js"><\/script>$/);
  // The preview shows the frame as the page will, title and caption as text.
  const preview = page.frameLocator('[data-testid="embed-preview"]');
  await preview.getByTestId('embed-frame-title').filter({ hasText: 'fan out' }).waitFor({ timeout: 20_000 });
  assert.equal(await preview.getByTestId('embed-frame-title').textContent(), title);
  await page.getByTestId('embed-copy').click();
  await page.waitForFunction(() => /copied|by hand/.test(document.querySelector('[data-testid="embed-length"]').textContent));
  assert.match(await textOf(page, 'embed-length'), /\d+ characters/);
  await mkdir(shots, { recursive: true });
  await page.screenshot({ path: join(shots, 'embed-dialog-open-1280.png') });

  // Escape closes it, and Embed has the focus again.
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'embed-this');

  // The snippet, pasted into a page on another origin.
  docs.pages['/my-doc.html'] = hostPage('Gift orders', `${snippet}\n${fromStart}`);
  const context = await browser.newContext({ viewport: { width: 900, height: 1000 } });
  const host = await context.newPage();
  const hostProblems = [];
  host.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') hostProblems.push(`${m.type()}: ${m.text()}`); });
  await host.goto(`${docs.url}my-doc.html`);
  assert.notEqual(new URL(docs.url).origin, new URL(playground.url).origin);
  const iframe = host.locator('iframe[data-fanout]').first();
  assert.equal(await iframe.getAttribute('title'), title, 'the iframe is titled as the author wrote');
  const frame = await (await iframe.elementHandle()).contentFrame();
  await frame.locator('svg.topology').first().waitFor({ timeout: 15_000 });
  assert.equal(await frame.getByTestId('embed-frame-title').textContent(), title, 'the title, as text');
  assert.equal(await frame.getByTestId('embed-frame-caption').textContent(), caption);
  assert.equal(await frame.locator('.embed b').count(), 0, 'no markup from the title');
  assert.equal(await textOf(frame, 'clock'), clock, 'the same moment of the story');
  assert.deepEqual(await queueLabels(frame), labels, 'the same queues, counts and consumers');
  const text = await frame.locator('body').textContent();
  assert.ok(!text.includes('The quilt store') && !text.includes('Checkout publishes each order'), 'not the base scenario\'s title or description');
  await host.waitForFunction(() => parseFloat(document.querySelector('iframe[data-fanout]').style.height) > 100);
  // The second frame plays the story from its start: the clock at 0, the author's orders still
  // to come (a step reaches the first of them, at a moment past 0).
  await host.locator('iframe[data-fanout]').nth(1).scrollIntoViewIfNeeded();
  const second = await (await host.locator('iframe[data-fanout]').nth(1).elementHandle()).contentFrame();
  await second.locator('svg.topology').first().waitFor({ timeout: 15_000 });
  assert.equal(await textOf(second, 'clock'), '00:00:00.000', 'from the start');
  await second.getByTestId('step').click();
  await second.waitForFunction(() => document.querySelector('[data-testid="clock"]').textContent.trim() !== '00:00:00.000');
  assert.ok(await textOf(second, 'clock') <= clock, 'a step reaches the author\'s first order, not past their moment');
  assert.deepEqual(await finish(host, hostProblems, 'embed-dialog-host'), []);
  assert.deepEqual(await finish(page, problems, 'embed-dialog-1280'), []);
});

test('the dialog at 375 px: one column, nothing wider than the screen, every field reachable by keyboard', async () => {
  const { page, problems } = await openPlayground(browser, playground.url, { width: 375, height: 812 });
  const dialog = await openDialog(page);
  assert.ok(await focusInDialog(page));
  const [scroll, client] = await dialog.evaluate((d) => [d.scrollWidth, d.clientWidth]);
  assert.ok(scroll <= client + 1, `no sideways scroll (${scroll} > ${client})`);
  const box = await dialog.boundingBox();
  assert.ok(box.x >= 0 && box.x + box.width <= 375 + 1, `the dialog fits the screen: ${JSON.stringify(box)}`);
  // Tab moves through every field and button, and never to the page under the dialog (a modal
  // dialog leaves the browser's own controls in the cycle: the focus may pass to the window).
  const reached = new Set();
  for (let i = 0; i < 24; i++) {
    await page.keyboard.press('Tab');
    const where = await page.evaluate(() => (document.activeElement === document.body ? 'body'
      : document.activeElement?.closest('[data-testid="embed-dialog"]') ? 'dialog' : document.activeElement?.outerHTML.slice(0, 80)));
    assert.ok(where === 'dialog' || where === 'body', `Tab ${i + 1} stays in the dialog: ${where}`);
    reached.add(await page.evaluate(() => document.activeElement?.dataset.testid));
  }
  for (const id of ['embed-title', 'embed-caption', 'embed-controls', 'embed-theme', 'embed-speed', 'embed-height', 'embed-copy', 'embed-close']) {
    assert.ok(reached.has(id), `${id} is reached by Tab: ${[...reached].join(', ')}`);
  }
  await page.getByTestId('embed-title').fill('A phone-sized demo');
  await page.frameLocator('[data-testid="embed-preview"]').getByTestId('embed-frame-title').filter({ hasText: 'phone-sized' }).waitFor({ timeout: 20_000 });
  await mkdir(shots, { recursive: true });
  await page.screenshot({ path: join(shots, 'embed-dialog-open-375.png') });
  await page.getByTestId('embed-snippet').scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(shots, 'embed-dialog-open-375-snippet.png') });
  await page.getByTestId('embed-close').click();
  await dialog.waitFor({ state: 'detached' });
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'embed-this');
  assert.deepEqual(await finish(page, problems, 'embed-dialog-375'), []);
});

test('the options become the snippet\'s parameters, and the preview follows them', async () => {
  const { page, problems } = await openPlayground(browser, `${playground.url}?scenario=poison-dlq`);
  await openDialog(page);
  await page.getByTestId('embed-controls').selectOption('full');
  await page.getByTestId('embed-theme').selectOption('dark');
  await page.getByTestId('embed-speed').selectOption({ label: '8×' });
  await page.getByTestId('embed-autoplay').check();
  await page.getByTestId('embed-panel-cards').check();
  const snippet = () => page.getByTestId('embed-snippet').inputValue();
  await page.waitForFunction(() => document.querySelector('[data-testid="embed-snippet"]').value.includes('panels=cards'));
  assert.match(await snippet(), /embed\.html\?embed=1&amp;controls=full&amp;theme=dark&amp;speed=8x&amp;autoplay=1&amp;panels=cards#share=/);
  // The preview loads the same address.
  await page.waitForFunction(() => document.querySelector('[data-testid="embed-preview"]').src.includes('panels=cards'));
  const preview = page.frameLocator('[data-testid="embed-preview"]');
  await preview.getByTestId('queue-sms').waitFor({ timeout: 20_000 });
  assert.equal(await preview.locator('html').getAttribute('data-theme'), 'dark');
  // A fixed height is in the address; the frame starts at the height typed.
  await page.getByTestId('embed-height').fill('420');
  await page.getByTestId('embed-fixed-height').check();
  await page.waitForFunction(() => document.querySelector('[data-testid="embed-snippet"]').value.includes('height=420'));
  assert.match(await snippet(), /height: 420px/);
  assert.deepEqual(await finish(page, problems, 'embed-dialog-options'), []);
});

test('a lesson step\'s Embed gives that step\'s snippet, previewed with its panel', async () => {
  const { page, problems } = await openPlayground(browser, `${playground.url}lesson.html?lesson=visibility-timeout&step=2`, undefined, 'lesson-panel');
  await openDialog(page);
  const snippet = await page.getByTestId('embed-snippet').inputValue();
  assert.match(snippet, /embed\.html\?embed=1&amp;lesson=visibility-timeout&amp;step=2&amp;controls=min"/);
  assert.ok(!snippet.includes('#share='), 'a lesson embeds its step, not a story');
  assert.equal(await page.getByTestId('embed-autoplay').count(), 0, 'a lesson plays its own steps');
  await page.frameLocator('[data-testid="embed-preview"]').getByTestId('lesson-panel').waitFor({ timeout: 20_000 });
  await page.keyboard.press('Escape');
  await page.getByTestId('embed-dialog').waitFor({ state: 'detached' });
  assert.deepEqual(await finish(page, problems, 'embed-dialog-lesson'), []);
});

test('the snippet\'s length: the quilt store as it opens, and a story of 50 commands', async () => {
  const { page, problems } = await openPlayground(browser, playground.url);
  const measure = async () => {
    await openDialog(page);
    const snippet = await page.getByTestId('embed-snippet').inputValue();
    const fragment = snippet.match(/#share=[A-Za-z0-9_-]+/)[0].length;
    const note = await textOf(page, 'embed-length');
    await page.keyboard.press('Escape');
    await page.getByTestId('embed-dialog').waitFor({ state: 'detached' });
    return { snippet: snippet.length, fragment, note };
  };
  const quilt = await measure();
  assert.match(quilt.note, new RegExp(`^${quilt.snippet} characters, ${quilt.fragment} of them the story`));
  // 50 commands: a worker on each of three queues, then 47 orders of the five kinds, time
  // stepped between them.
  for (const q of ['billing', 'packing', 'sms']) await page.getByTestId(`queue-${q}-add-worker`).click();
  const kinds = await page.getByTestId('event-type').locator('option').evaluateAll((os) => os.map((o) => o.value));
  for (let i = 0; i < 47; i++) {
    await page.getByTestId('event-type').selectOption(kinds[i % kinds.length]);
    await page.getByTestId('publish').click();
    if (i % 3 === 2) await page.getByTestId('step').click();
  }
  const fifty = await measure();
  const said = `quilt store: snippet ${quilt.snippet} characters, fragment ${quilt.fragment}\n`
    + `50 commands: snippet ${fifty.snippet} characters, fragment ${fifty.fragment}\n${fifty.note}\n`;
  await mkdir(screenshotDir, { recursive: true });
  await writeFile(join(screenshotDir, 'embed-lengths.txt'), said);
  console.log(said);
  assert.ok(fifty.fragment > quilt.fragment);
  assert.deepEqual(await finish(page, problems, 'embed-dialog-lengths'), []);
});
