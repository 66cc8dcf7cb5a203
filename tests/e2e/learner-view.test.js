// What a learner sees (issue 12): each test drives the release build as a learner would, saves
// a screenshot under target/e2e-screenshots/ for people to look at, and fails on any console
// error. The last test serves the page with `make serve`'s own server (scripts/serve.sh, which
// builds every page and serves dist/ with a static server) and fails on any console message.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, launchBrowser, openPlayground, finish, screenshotDir, whilePlaying } from './harness.js';
import { mkdir } from 'node:fs/promises';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

let server;
let browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

/** A screenshot in the middle of a test (finish takes the last one and closes the page). */
async function shot(page, name) {
  await mkdir(screenshotDir, { recursive: true });
  await page.screenshot({ path: join(screenshotDir, `${name}.png`), fullPage: true });
}

const pick = (page, scenario) => page.getByTestId('scenario-picker').selectOption(scenario);

/** Publishes a custom message from the Publish panel. */
async function publishCustom(page, body, attributes, group) {
  if (!(await page.getByTestId('custom-toggle').isChecked())) await page.getByTestId('custom-toggle').check();
  await page.getByTestId('custom-body').fill(body);
  await page.getByTestId('custom-attributes').fill(attributes);
  if (group !== undefined) await page.getByTestId('custom-group').fill(group);
  await page.getByTestId('publish').click();
}

test('a right-to-left override in an attribute stays inside its own word', async () => {
  const { page, problems } = await openPlayground(browser, server.url);
  // sms's filter drops anything but OrderPlaced; the reason quotes the attribute's value.
  const value = '\u202EOrderPlaced';
  await publishCustom(page, '{"order_id": 1}', JSON.stringify({ event_type: { DataType: 'String', StringValue: value } }));
  const item = page.locator('#events li', { hasText: 'filtered out for' }).first();
  await item.waitFor({ timeout: 5_000 });
  // The override is inside a <bdi>, and the app's words after it are laid out after the word
  // that holds it, left to right: measured on the page, not only in the markup. (Without the
  // isolation the override would lay " not one of …" out to the left of the word.)
  const layout = await item.evaluate((li) => {
    const text = li.querySelector('.text');
    const nodes = [];
    const walker = document.createTreeWalker(text, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) nodes.push(n);
    const i = nodes.findIndex((n) => n.textContent.includes('\u202E'));
    const box = (n, which) => {
      const r = document.createRange();
      r.selectNodeContents(n);
      const rects = [...r.getClientRects()].filter((b) => b.width > 0);
      return which === 'first' ? rects[0] : rects[rects.length - 1];
    };
    const word = box(nodes[i], 'last');
    const after = nodes[i + 1] && box(nodes[i + 1], 'first');
    return {
      isolated: nodes[i]?.parentElement.tagName,
      word: word && { left: word.left, right: word.right, top: word.top },
      after: after && { left: after.left, top: after.top, text: nodes[i + 1].textContent },
    };
  });
  assert.equal(layout.isolated, 'BDI', `the override is isolated: ${JSON.stringify(layout)}`);
  assert.match(layout.after.text, /not one of/);
  const sameLine = Math.abs(layout.after.top - layout.word.top) < 6;
  assert.ok(sameLine ? layout.after.left >= layout.word.right - 1 : layout.after.top > layout.word.top,
    `the words after it come after it: ${JSON.stringify(layout)}`);
  // In the inspector too: the event's summary and the message's attributes.
  await item.locator('button').click();
  assert.ok(await page.locator('[data-testid="inspector"] p bdi').count() >= 1, 'the inspector isolates it too');
  assert.deepEqual(await finish(page, problems, 'bidi-override-isolated'), []);
});

test('durations read as durations, plurals agree, the FIFO topic name fits', async () => {
  const { page, problems } = await openPlayground(browser, server.url);
  await page.getByTestId('publish').click();
  await page.getByTestId('play-pause').click();
  await page.waitForFunction(() => /00:00:0[3-9]/.test(document.querySelector('[data-testid="clock"]').textContent));
  await page.getByTestId('play-pause').click();
  const meta = await page.locator('[data-testid="queue-billing"] .meta').textContent();
  assert.match(meta, /oldest message \d+(\.\d)? s old/, meta);
  assert.doesNotMatch(meta, /\d\d:\d\d:\d\d/, 'no time of day for an age');
  assert.match(meta, /visibility 30 s/, meta);
  await page.locator('.topology [data-select="queue:billing"]').click();
  const inspector = await page.getByTestId('inspector').textContent();
  assert.match(inspector, /oldest message\s*\d+(\.\d)? s old/, inspector);
  // Standard topic: no MessageGroupId field.
  await page.getByTestId('custom-toggle').check();
  assert.equal(await page.getByTestId('custom-group').isVisible(), false, 'no group field for a standard topic');
  await finish(page, [], 'durations-1280');
  // The FIFO topic: its name inside its node; the group field is there; an error says its
  // code once.
  const fifo = await openPlayground(browser, server.url);
  await pick(fifo.page, 'fifo-groups');
  // Wait for the FIFO scenario's own topic: the quilt store's order-events is drawn until it loads.
  await fifo.page.waitForFunction(() => /order-events\.fifo/.test(document.querySelector('.topology .topic')?.textContent ?? ''));
  const fit = await fifo.page.evaluate(() => {
    const node = document.querySelector('.topology .topic');
    const rect = node.querySelector('rect').getBBox();
    const name = node.querySelector('text.name').getBBox();
    return { rect: [rect.x, rect.x + rect.width], name: [name.x, name.x + name.width], text: node.querySelector('text.name').textContent };
  });
  assert.ok(fit.name[0] >= fit.rect[0] && fit.name[1] <= fit.rect[1], `the topic's name fits its node: ${JSON.stringify(fit)}`);
  assert.equal(fit.text, 'order-events.fifo');
  await fifo.page.getByTestId('custom-toggle').check();
  await fifo.page.getByTestId('custom-group').waitFor({ state: 'visible' });
  await publishCustom(fifo.page, '{"order_id": 1}', '', '');
  const error = await fifo.page.getByTestId('error').textContent();
  assert.match(error, /^Invalid parameter: .*MessageGroupId/, error);
  assert.deepEqual(await finish(fifo.page, fifo.problems, 'fifo-topic-name'), []);
  assert.deepEqual(problems, []);
});

test('adding a worker keeps the diagram\'s text its size', async () => {
  const { page, problems } = await openPlayground(browser, server.url);
  const size = () => page.evaluate(() => document.querySelector('.topology [data-select="queue:billing"] text.name').getBoundingClientRect().height);
  const was = await size();
  await page.getByTestId('queue-billing-add-worker').click();
  await page.getByTestId('worker-billing-w1').waitFor();
  // The same size (to a hundredth of a pixel: a taller page may move the layout by less).
  const now = await size();
  assert.ok(Math.abs(now - was) < 0.01, `the same size after the first worker: ${was} then ${now}`);
  assert.deepEqual(await finish(page, problems, 'worker-added-text-size'), []);
});

test('a setting shows its own error inline, marked invalid, and changes nothing', async () => {
  const { page, problems } = await openPlayground(browser, server.url);
  await page.locator('.topology [data-select="queue:packing"]').click();
  const field = page.getByTestId('queue-packing-visibility');
  for (const bad of ['-1', '50000']) {
    await field.fill(bad);
    await field.press('Enter');
    await field.blur();
    const error = page.getByTestId('queue-packing-visibility-error');
    await page.waitForFunction(() => document.querySelector('[data-testid="queue-packing-visibility-error"]')?.textContent.trim());
    assert.match(await error.textContent(), /VisibilityTimeout|visibility/i);
    assert.match(await error.textContent(), /Not applied: still 30/);
    assert.equal(await field.getAttribute('aria-invalid'), 'true');
    assert.match(await field.getAttribute('class'), /invalid/);
    assert.equal((await page.getByTestId('error').textContent()).trim(), '', 'nothing in the Publish panel');
  }
  const meta = await page.locator('[data-testid="queue-packing"] .meta').textContent();
  assert.match(meta, /visibility 30 s/, 'the queue kept its setting');
  // A good value clears the error.
  await field.fill('45');
  await field.blur();
  await page.waitForFunction(() => !document.querySelector('[data-testid="queue-packing-visibility-error"]')?.textContent.trim());
  assert.deepEqual(await finish(page, problems, 'setting-error-inline'), []);
});

test('a value typed and then applied with the button is sent once (leaving the field applies; the click finds it done)', async () => {
  const { page, problems } = await openPlayground(browser, server.url);
  await page.locator('.topology [data-select="queue:packing"]').click();
  const sets = () => page.evaluate(() => [...document.querySelectorAll('.log li')].filter((li) => /QueueAttributesSet/.test(li.textContent)).length);
  const before = await sets();
  await page.getByTestId('queue-packing-visibility').fill('45');
  await page.getByTestId('queue-packing-visibility-apply').click();
  await page.waitForFunction(() => /visibility 45 s/.test(document.querySelector('[data-testid="queue-packing"] .meta')?.textContent));
  assert.equal(await sets(), before + 1, 'one SetQueueAttributes for one Apply');
  // Apply again with nothing changed: nothing is sent.
  await page.getByTestId('queue-packing-visibility-apply').click();
  assert.equal(await sets(), before + 1, 'nothing sent when nothing changed');
  assert.deepEqual(await finish(page, problems, 'setting-applied-once'), []);
});

test('a long ARN is shortened in the inspector, whole on hover and when copied', async () => {
  const { page, problems } = await openPlayground(browser, server.url);
  await page.locator('.topology .badges').first().click();
  const arn = page.locator('[data-testid="inspector"] .abbr').first();
  await arn.waitFor();
  const full = await arn.getAttribute('data-full');
  assert.match(full, /^arn:aws:sns:us-east-1:\d{12}:order-events:/);
  assert.equal(await arn.getAttribute('title'), full);
  assert.ok((await arn.textContent()).length < full.length, 'shortened on the page');
  const box = await arn.boundingBox();
  assert.ok(box.height < 24, `one line (${box.height}px)`);
  const copied = await arn.evaluate((el) => {
    const r = document.createRange();
    r.selectNodeContents(el);
    getSelection().removeAllRanges();
    getSelection().addRange(r);
    const data = new DataTransfer();
    const event = new ClipboardEvent('copy', { clipboardData: data, bubbles: true, cancelable: true });
    el.dispatchEvent(event);
    return data.getData('text/plain');
  });
  assert.equal(copied, full, 'the whole ARN is copied');
  assert.deepEqual(await finish(page, problems, 'arn-abbreviated'), []);
});

const clockText = (page) => page.evaluate(() => document.querySelector('[data-testid="clock"]').textContent.trim());
const active = (page) => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName);

test('the keyboard: focus stays on the control that replaces the pressed one; keys work from any button', async () => {
  const { page, problems } = await openPlayground(browser, server.url);
  await page.getByTestId('queue-packing-add-worker').click();
  await page.getByTestId('worker-packing-w1-crash').focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'worker-packing-w1-restart', null, { timeout: 5_000 });
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'worker-packing-w1-crash', null, { timeout: 5_000 });
  await page.getByTestId('worker-packing-w1-pause').focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'worker-packing-w1-resume', null, { timeout: 5_000 });
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'worker-packing-w1-pause', null, { timeout: 5_000 });
  await page.getByTestId('worker-packing-w1-remove').focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'queue-packing-add-worker', null, { timeout: 5_000 });
  // From a focused button, → steps and Space plays: the transport, not the button.
  await page.getByTestId('publish').click();
  const before = await clockText(page);
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction((b) => document.querySelector('[data-testid="clock"]').textContent.trim() !== b, before);
  assert.equal(await active(page), 'publish', 'focus stays where it was');
  const published = await page.locator('#events li').count();
  await page.keyboard.press('Space');
  await page.waitForFunction(() => document.querySelector('[data-testid="play-pause"]').getAttribute('aria-pressed') === 'true');
  await page.keyboard.press('Space');
  await page.waitForFunction(() => document.querySelector('[data-testid="play-pause"]').getAttribute('aria-pressed') === 'false');
  assert.ok(await page.locator('#events li', { hasText: 'published to' }).count() <= published, 'Space did not press Publish');
  // In a text field, keys are the field's.
  await page.getByTestId('custom-toggle').check();
  await page.getByTestId('custom-body').focus();
  const t = await clockText(page);
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Space');
  assert.equal(await clockText(page), t);
  assert.equal(await page.getByTestId('play-pause').getAttribute('aria-pressed'), 'false');
  // The inspector is no live region: the page has one, the status line.
  await page.locator('.topology [data-select="queue:packing"]').click();
  assert.equal(await page.getByTestId('inspector').getAttribute('aria-live'), null);
  assert.equal(await page.locator('[aria-live]').count(), 1, 'one live region');
  assert.deepEqual(await finish(page, problems, 'keyboard-focus-kept'), []);
});

test('step forward then back returns to the same moment; undo then redo restores the clock', async () => {
  const { page, problems } = await openPlayground(browser, server.url);
  await pick(page, 'workers');
  await page.getByTestId('publish').click();
  await page.getByTestId('publish').click();
  const moments = [await clockText(page)];
  for (let i = 0; i < 6; i++) {
    const was = moments[moments.length - 1];
    await page.getByTestId('step').click();
    await page.waitForFunction((w) => document.querySelector('[data-testid="clock"]').textContent.trim() !== w, was);
    moments.push(await clockText(page));
  }
  // Each moment forward has something in the log at that time.
  const logged = await page.locator('#events li time').allTextContents();
  for (const m of moments.slice(1)) assert.ok(logged.includes(m), `something happens at ${m}`);
  const back = [moments[moments.length - 1]];
  for (let i = 0; i < 6; i++) {
    const was = back[back.length - 1];
    await page.getByTestId('step-back').click();
    await page.waitForFunction((w) => document.querySelector('[data-testid="clock"]').textContent.trim() !== w, was);
    back.push(await clockText(page));
  }
  assert.deepEqual(back.reverse(), moments, 'the same moments both ways');
  // Undo after playing, then redo: the clock comes back too.
  await page.getByTestId('speed').selectOption({ label: '8×' });
  await page.getByTestId('play-pause').click();
  await whilePlaying(page, () => /00:00:[2-5]\d/.test(document.querySelector('[data-testid="clock"]').textContent));
  await page.getByTestId('play-pause').click();
  const played = await clockText(page);
  const counts = await page.getByTestId('queue-packing-visible').textContent();
  await page.getByTestId('undo').click();
  await page.waitForFunction((p) => document.querySelector('[data-testid="clock"]').textContent.trim() !== p, played);
  await page.getByTestId('redo').click();
  await page.waitForFunction((p) => document.querySelector('[data-testid="clock"]').textContent.trim() === p, played, { timeout: 5_000 });
  assert.equal(await page.getByTestId('queue-packing-visible').textContent(), counts);
  assert.deepEqual(await finish(page, problems, 'step-symmetric-undo-redo'), []);
});

test('a FIFO message held back by its group is drawn blocked, and the inspector says why', async () => {
  const { page, problems } = await openPlayground(browser, server.url);
  await pick(page, 'fifo-groups');
  // Order 4417's second event waits behind its first, which is in flight until 30 s.
  const blocked = page.locator('#chips-packing\\.fifo .chip.blocked');
  await blocked.first().waitFor({ timeout: 5_000 });
  assert.equal(await blocked.count(), 1, 'one message waits; order 4418 flows');
  assert.equal(await blocked.locator('.lock').count(), 1, 'a padlock');
  assert.match(await blocked.getAttribute('aria-label'), /waiting behind msg-1/);
  assert.equal(await page.locator('#chips-packing\\.fifo .chip.visible:not(.blocked)').count(), 1);
  await blocked.click();
  await page.waitForFunction(() => /waiting: msg-1 of group 4417 is in flight until 00:00:30/.test(document.querySelector('[data-testid="inspector"]').textContent));
  assert.equal(await page.getByTestId('speed').inputValue(), '3', 'the scenario starts at its own speed, 2×');
  await shot(page, 'fifo-blocked-1280');
  // When the in-flight message's timer runs out, nothing waits any more.
  await page.getByTestId('step').click();
  await page.waitForFunction(() => document.querySelectorAll('.chip.blocked').length === 0);
  assert.deepEqual(await finish(page, problems, 'fifo-unblocked'), []);
});

test('the filter badge counts its drops and keeps the latest reason until the next delivery', async () => {
  const { page, problems } = await openPlayground(browser, server.url);
  const stats = page.getByTestId('filter-sms-dropped');
  await stats.waitFor();
  assert.equal((await stats.locator('.count').textContent()).trim(), '0 filtered out');
  await page.getByTestId('event-type').selectOption('RefundIssued');
  await page.getByTestId('publish').click();
  await page.waitForFunction(() => /1 filtered out/.test(document.querySelector('[data-testid="filter-sms-dropped"] .count')?.textContent));
  const why = stats.locator('.why');
  await why.waitFor();
  assert.match(await stats.getAttribute('aria-label'), /RefundIssued/);
  // Each chip says which kind of event it carries.
  assert.match(await page.locator('#chips-billing .chip .etype').first().textContent(), /RefundIssued/);
  await page.waitForTimeout(600);
  assert.equal(await why.count(), 1, 'the reason stays after the drop animation');
  await shot(page, 'filter-badge-drop-1280');
  await page.getByTestId('event-type').selectOption('OrderPlaced');
  await page.getByTestId('publish').click();
  await page.waitForFunction(() => !document.querySelector('[data-testid="filter-sms-dropped"] .why'));
  assert.equal((await stats.locator('.count').textContent()).trim(), '1 filtered out', 'the count stays');
  assert.deepEqual(await finish(page, problems, 'filter-badge-delivered'), []);
});

/** A port nothing listens on now, from the OS. */
async function freePort() {
  const probe = createServer();
  await new Promise((ok) => probe.listen(0, '127.0.0.1', ok));
  const { port } = probe.address();
  await new Promise((ok) => probe.close(ok));
  return port;
}

/**
 * Starts scripts/serve.sh (what `make serve` runs after its bootstrap) on a free port, in its
 * own process group so that trunk and everything it started can be stopped together. Resolves
 * with the page's address once the server answers; rejects if the script exits first.
 */
async function startMakeServe() {
  const port = await freePort();
  const child = spawn(join(root, 'scripts', 'serve.sh'), [String(port)], { cwd: root, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => { output += d; });
  child.stderr.on('data', (d) => { output += d; });
  const exited = new Promise((_, fail) => child.on('exit', (code) => fail(new Error(`serve.sh exited (${code}):\n${output}`))));
  const stop = () => { try { process.kill(-child.pid, 'SIGTERM'); } catch { /* already gone */ } };
  const url = await Promise.race([exited, (async () => {
    // The script may move to the next port if this one was taken meanwhile: it says so.
    for (let waited = 0; waited < 900_000; waited += 500) {
      const said = output.match(/serving Fan-out Playground on (http:\/\/127\.0\.0\.1:\d+)/);
      if (said) {
        const ok = await fetch(said[1] + '/').then((r) => r.ok && r.text()).catch(() => false);
        if (ok && ok.includes('data-trunk') === false && ok.includes('.wasm')) return `${said[1]}/`;
      }
      await new Promise((ok) => setTimeout(ok, 500));
    }
    throw new Error(`serve.sh did not answer within 15 minutes:\n${output}`);
  })()]).catch((e) => { stop(); throw e; });
  return { url, stop };
}

test('make serve\'s own server: no console message at all, not even a warning', { timeout: 1_000_000 }, async () => {
  const served = await startMakeServe();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    const page = await context.newPage();
    const messages = [];
    page.on('console', (msg) => messages.push(`${msg.type()}: ${msg.text()}`));
    page.on('pageerror', (err) => messages.push(`uncaught: ${err.message}`));
    page.on('requestfailed', (req) => messages.push(`request failed: ${req.url()}`));
    const asked = [];
    page.on('request', (req) => asked.push(new URL(req.url()).pathname));
    const response = await page.goto(served.url);
    const html = await response.text();
    assert.doesNotMatch(html, /__trunk_address__|WebSocket/, 'no auto-reload script in the page');
    await page.getByTestId('publish').waitFor({ timeout: 20_000 });
    await page.getByTestId('publish').click();
    // Trunk's auto-reload script, when present, retries every 5 s: wait past that.
    await page.waitForTimeout(6_000);
    await finish(page, [], 'make-serve-console');
    assert.deepEqual(messages, [], 'the console stays empty');
    // index.html asks for the default scenario early; the app's own fetch must take that
    // response (an unused preload would also have drawn a warning above), not ask again.
    assert.equal(asked.filter((p) => p === '/scenarios/quilt-store.json').length, 1, `the default scenario is fetched once: ${asked.join(' ')}`);
    assert.equal(asked.filter((p) => p.endsWith('_bg.wasm')).length, 1, `the wasm is fetched once: ${asked.join(' ')}`);
  } finally {
    served.stop();
  }
});
