import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startServer, launchBrowser, openPlayground, finish, textOf, screenshotDir, whilePlaying } from './harness.js';

let server;
let browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

const waitText = (page, id, want) =>
  page.waitForFunction(([id, want]) => document.querySelector(`[data-testid="${id}"]`)?.textContent.trim() === want,
    [id, want], { timeout: 5_000 });

// Picks a scenario and waits until it is drawn (scenarios are fetched: a click or a key sooner
// would act on the one before).
async function pick(page, scenario) {
  const before = await page.locator('svg.topology').first().innerHTML();
  await page.getByTestId('scenario-picker').selectOption(scenario);
  await page.waitForFunction((b) => document.querySelector('svg.topology')?.innerHTML !== b, before);
}

test('a crashed worker\'s message returns when its visibility timeout runs out', async () => {
  const { page, problems } = await openPlayground(browser, server.url);
  await pick(page, 'crash-visibility');
  await waitText(page, 'queue-packing-inflight', '1');
  assert.equal(await textOf(page, 'queue-packing-visible'), '1');
  await page.getByTestId('step').click();
  await waitText(page, 'clock', '00:00:30.000');
  assert.equal(await textOf(page, 'queue-packing-inflight'), '0');
  assert.equal(await textOf(page, 'queue-packing-visible'), '2', 'the crashed worker\'s message is visible again');
  assert.match(await textOf(page, 'event-log'), /visible again in packing after 1 receive(?!s)/);
  assert.deepEqual(await finish(page, problems, 'crash-visibility'), []);
});

test('a poison message reaches the DLQ on the receive after maxReceiveCount', async () => {
  const { page, problems } = await openPlayground(browser, server.url);
  await pick(page, 'poison-dlq');
  await waitText(page, 'queue-sms-visible', '1');
  for (let i = 1; i <= 3; i++) {
    await page.getByTestId('queue-sms-receive').click();
    await waitText(page, 'queue-sms-inflight', '1');
    await page.getByTestId('step').click();
    await waitText(page, 'queue-sms-visible', '1');
  }
  assert.equal(await textOf(page, 'queue-sms-dlq-visible'), '0', 'not moved until the next receive');
  await page.getByTestId('queue-sms-receive').click();
  await waitText(page, 'queue-sms-dlq-visible', '1');
  assert.equal(await textOf(page, 'queue-sms-visible'), '0');
  assert.match(await textOf(page, 'event-log'), /moved from sms to sms-dlq after 3 receives/);
  assert.deepEqual(await finish(page, problems, 'poison-dlq'), []);
});

test('an invalid filter policy is rejected inline and changes nothing', async () => {
  const { page, problems } = await openPlayground(browser, server.url);
  const editor = page.getByTestId('subscription-sms-policy');
  await editor.fill('{"event_type": [{"prefx": "Order"}]}');
  await page.waitForFunction(() => document.querySelector('[data-testid="subscription-sms-policy-error"]')?.textContent.includes('event_type'));
  assert.equal(await page.getByTestId('subscription-sms-policy-apply').isDisabled(), true);
  await editor.fill('{"event_type": [');
  await page.waitForFunction(() => document.querySelector('[data-testid="subscription-sms-policy-error"]')?.textContent.length > 0);
  // The subscription still filters as before: a refund does not reach sms.
  await page.getByTestId('event-type').selectOption('RefundIssued');
  await page.getByTestId('publish').click();
  await waitText(page, 'queue-billing-visible', '1');
  assert.equal(await textOf(page, 'queue-sms-visible'), '0');
  // A valid policy applies.
  await editor.fill('{"event_type": ["RefundIssued"]}');
  await page.getByTestId('subscription-sms-policy-apply').click();
  await page.getByTestId('publish').click();
  await waitText(page, 'queue-sms-visible', '1');
  assert.deepEqual(await finish(page, problems, 'filter-policy-inline-error'), []);
});

test('keyboard only: Space plays and pauses, arrows step', async () => {
  const { page, problems } = await openPlayground(browser, server.url);
  await pick(page, 'crash-visibility');
  // The scenario is fetched: wait for it (a key pressed sooner steps the previous one).
  await waitText(page, 'queue-packing-inflight', '1');
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('ArrowRight');
  await waitText(page, 'clock', '00:00:30.000');
  await page.keyboard.press('ArrowLeft');
  await waitText(page, 'clock', '00:00:00.000');
  assert.equal(await textOf(page, 'queue-packing-inflight'), '1');
  await page.keyboard.press(' ');
  await page.waitForFunction(() => document.querySelector('[data-testid="play-pause"]').getAttribute('aria-pressed') === 'true');
  await page.waitForFunction(() => document.querySelector('[data-testid="clock"]').textContent.trim() !== '00:00:00.000');
  await page.keyboard.press(' ');
  await page.waitForFunction(() => document.querySelector('[data-testid="play-pause"]').getAttribute('aria-pressed') === 'false');
  // Every control is reachable with Tab and has a name.
  const unnamed = await page.evaluate(() => [...document.querySelectorAll('button, select, input, textarea')]
    .filter((el) => !(el.getAttribute('aria-label') || el.textContent.trim() || el.closest('label') || el.title))
    .map((el) => el.outerHTML.slice(0, 80)));
  assert.deepEqual(unnamed, []);
  assert.deepEqual(await finish(page, problems, 'keyboard'), []);
});

test('scrubbing back and forth gives the same counts', async () => {
  const { page, problems } = await openPlayground(browser, server.url);
  await pick(page, 'crash-visibility');
  await page.getByTestId('step').click();
  await waitText(page, 'queue-packing-visible', '2');
  const scrub = (ms) => page.getByTestId('timeline').evaluate((el, ms) => {
    el.value = String(ms);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, ms);
  await scrub(10_000);
  await waitText(page, 'queue-packing-inflight', '1');
  assert.equal(await textOf(page, 'clock'), '00:00:10.000');
  await scrub(30_000);
  await waitText(page, 'queue-packing-visible', '2');
  await scrub(0);
  await waitText(page, 'queue-packing-inflight', '1');
  await scrub(30_000);
  await waitText(page, 'queue-packing-inflight', '0');
  assert.equal(await textOf(page, 'queue-packing-visible'), '2');
  assert.deepEqual(await finish(page, problems, 'scrubbing'), []);
});

test('the phone-size layout fits 375 px and still publishes', async () => {
  const { page, problems } = await openPlayground(browser, server.url, { width: 375, height: 812 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(overflow <= 375, `the page is ${overflow}px wide`);
  // The first screen holds the diagram and the Publish button.
  const onFirstScreen = (id) => page.getByTestId(id).evaluate((el) => el.getBoundingClientRect().bottom <= innerHeight);
  assert.ok(await page.locator('#diagram').evaluate((el) => el.getBoundingClientRect().top < innerHeight), 'the diagram starts on the first screen');
  assert.ok(await onFirstScreen('publish'), 'Publish is on the first screen');
  // The diagram is drawn top to bottom: nothing in it scrolls sideways or leaves the screen,
  // and the queues stack one under the other.
  const diagram = await page.evaluate(() => {
    const scroll = document.querySelector('.topology-scroll');
    const boxes = [...document.querySelectorAll('#diagram .node, #diagram .badge')].map((n) => n.getBoundingClientRect());
    const queues = [...document.querySelectorAll('#diagram .node.queue')].map((n) => n.getBoundingClientRect());
    return {
      scrolls: scroll.scrollWidth > scroll.clientWidth,
      outside: boxes.filter((b) => b.left < 0 || b.right > innerWidth).length,
      nodes: boxes.length,
      stacked: queues.every((q, i) => i === 0 || q.top >= queues[i - 1].bottom),
      queues: queues.length,
    };
  });
  assert.equal(diagram.scrolls, false, 'the diagram does not scroll sideways');
  assert.ok(diagram.nodes > 5 && diagram.outside === 0, `every node on screen: ${JSON.stringify(diagram)}`);
  assert.ok(diagram.queues === 3 && diagram.stacked, `the queues one under the other: ${JSON.stringify(diagram)}`);
  await page.getByTestId('publish').click();
  await waitText(page, 'queue-packing-visible', '1');
  // Tapping a message opens the inspector as a sheet over the bottom of the screen.
  await page.locator('[data-testid="queue-packing"] .chip').first().click();
  const sheet = page.getByTestId('inspector');
  await page.waitForFunction(() => /in packing/.test(document.querySelector('[data-testid="inspector"]').textContent));
  const box = await sheet.boundingBox();
  assert.ok(Math.abs(box.y + box.height - 812) <= 1 && box.width >= 374, `the sheet sits on the bottom edge: ${JSON.stringify(box)}`);
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= 375, 'still no sideways scrolling');
  await page.screenshot({ path: join(screenshotDir, 'phone-sheet.png') });
  // Close (a button, so the keyboard reaches it) puts the sheet away.
  await page.getByTestId('inspector-close').click();
  assert.notEqual(await sheet.evaluate((el) => getComputedStyle(el).position), 'fixed', 'the sheet is put away');
  assert.deepEqual(await finish(page, problems, 'phone-layout'), []);
});

test('a full queue card shows its first chips, and Show all lists the rest in a scrolling list', async () => {
  const { page, problems } = await openPlayground(browser, server.url);
  await page.evaluate(() => { const b = document.querySelector('[data-testid="publish"]'); for (let i = 0; i < 30; i++) b.click(); });
  await waitText(page, 'queue-billing-visible', '30');
  const chips = () => page.locator('#chips-billing .chip').count();
  await page.waitForFunction(() => document.querySelectorAll('#chips-billing .chip').length === 24);
  const more = page.locator('[data-testid="queue-billing"] .more');
  assert.match(await more.textContent(), /and 6 more\s*Show all 30/);
  const before = await page.getByTestId('queue-billing').boundingBox();
  await page.getByTestId('queue-billing-show-all').click();
  await page.waitForFunction(() => document.querySelectorAll('#chips-billing .chip').length === 30);
  const list = await page.locator('#chips-billing').evaluate((ul) => ({ overflow: getComputedStyle(ul).overflowY, max: getComputedStyle(ul).maxHeight }));
  assert.deepEqual(list, { overflow: 'auto', max: '240px' }, 'the whole list scrolls inside the card');
  assert.equal(await page.getByTestId('queue-billing-show-all').textContent(), 'Show fewer');
  const after = await page.getByTestId('queue-billing').boundingBox();
  assert.ok(after.height <= before.height + 240, `the card stays bounded: ${before.height} -> ${after.height}`);
  await page.getByTestId('queue-billing-show-all').click();
  await page.waitForFunction(() => document.querySelectorAll('#chips-billing .chip').length === 24);
  assert.equal(await chips(), 24);
  assert.deepEqual(await finish(page, problems, 'queue-show-all'), []);
});

test('a crashed worker holds its message until the visibility timeout; restart brings it back', async () => {
  const { page, problems } = await openPlayground(browser, server.url);
  await page.getByTestId('queue-packing-add-worker').click();
  await page.getByTestId('worker-packing-w1').waitFor();
  await page.getByTestId('publish').click();
  // The worker long-polls: it takes the message the moment it is published.
  await waitText(page, 'queue-packing-inflight', '1');
  // The diagram draws the worker beside its queue, busy; its inspector page says what it holds.
  await page.waitForSelector('[data-testid="diagram-consumer-packing-w1"].processing');
  await page.getByTestId('diagram-consumer-packing-w1').click();
  await page.waitForFunction(() => /Worker packing-w1/.test(document.querySelector('[data-testid="inspector"]')?.textContent));
  assert.match(await textOf(page, 'inspector'), /holding\s*msg-/);
  await page.getByTestId('worker-packing-w1-crash').click();
  await page.getByTestId('worker-packing-w1-restart').waitFor();
  await page.waitForSelector('[data-testid="diagram-consumer-packing-w1"].crashed');
  assert.match(await textOf(page, 'inspector'), /Crashed/);
  await page.getByTestId('speed').selectOption({ label: '64×' });
  await page.getByTestId('play-pause').click();
  await waitText(page, 'queue-packing-visible', '1');
  await page.getByTestId('play-pause').click();
  assert.match(await textOf(page, 'event-log'), /visible again in packing/);
  await page.getByTestId('worker-packing-w1-restart').click();
  await page.getByTestId('worker-packing-w1-crash').waitFor();
  assert.deepEqual(await finish(page, problems, 'worker-crash'), []);
});

test('the workers scenario draws metrics, and an event explains the AWS rule behind it', async () => {
  const { page, problems } = await openPlayground(browser, server.url);
  await pick(page, 'workers');
  await page.getByTestId('publish').click();
  await page.getByTestId('speed').selectOption({ label: '64×' });
  await page.getByTestId('play-pause').click();
  await page.getByTestId('metrics-packing').waitFor({ timeout: 5_000 });
  await page.getByTestId('play-pause').click();
  assert.match(await textOf(page, 'side-effects'), /slip printed/);
  await page.getByTestId('log-filter').selectOption('sms');
  const event = page.locator('[data-testid="event-log"] .event', { hasText: 'Received' }).first();
  await event.click();
  await page.waitForFunction(() => document.querySelector('[data-testid="inspector"] .fidelity a')?.href.startsWith('https://docs.aws.amazon.com/'));
  assert.match(await textOf(page, 'inspector'), /visibility timeout/);
  assert.deepEqual(await finish(page, problems, 'metrics-and-fidelity'), []);
});

test('a copy SNS could not deliver goes to the subscription DLQ, drawn apart from the queue DLQ', async () => {
  const { page, problems } = await openPlayground(browser, server.url);
  // The sms queue is deleted under its subscription; the subscription's RedrivePolicy names
  // sms-undeliverable (SNS docs: a client-side error goes to the subscription's DLQ).
  const file = new URL('../../engine/tests/scenarios/sns-deleted-queue.json', import.meta.url).pathname;
  await page.getByTestId('scenario-import').setInputFiles(file);
  const node = page.getByTestId('diagram-sub-dlq-sms-undeliverable');
  await node.waitFor();
  assert.match(await node.textContent(), /sms-undeliverable · 1/);
  assert.match(await node.getAttribute('aria-label'), /copies SNS could not deliver to sms/);
  assert.match(await page.locator('#diagram').textContent(), /delivery failures/);
  // It is drawn under the subscription, not as a queue of its own on the diagram.
  assert.equal(await page.locator('#diagram [data-select="queue:sms-undeliverable"]').count(), 1);
  assert.deepEqual(await finish(page, problems, 'subscription-dlq'), []);
});

test('a queue\'s messages are drawn inside its node: colour by state, the timer\'s seconds, a tap inspects', async () => {
  const { page, problems } = await openPlayground(browser, server.url);
  await page.getByTestId('publish').click();
  await page.getByTestId('queue-sms-receive').click();
  const dot = page.locator('#diagram [data-testid^="diagram-msg-sms-"]');
  await dot.first().waitFor();
  assert.equal(await dot.count(), 1);
  // sms's visibility timeout is 60 s: the received message is in flight, its seconds written;
  // alone in its queue, its receives too.
  assert.match(await dot.getAttribute('class'), /inflight/);
  assert.equal((await dot.locator('text').textContent()).trim(), '60s · 1/5');
  assert.match(await dot.locator('title').textContent(), /in flight, received 1 of 5 times before the DLQ/);
  await dot.click();
  await page.waitForFunction(() => /in sms/.test(document.querySelector('[data-testid="inspector"]').textContent));
  // When its timeout runs out it is visible again, its receive count against the maximum.
  await page.getByTestId('speed').selectOption({ label: '64×' });
  await page.getByTestId('play-pause').click();
  await whilePlaying(page, () => document.querySelector('#diagram [data-testid^="diagram-msg-sms-"]')?.classList.contains('visible'));
  await page.getByTestId('play-pause').click();
  assert.equal((await dot.locator('text').textContent()).trim(), '1/5');
  assert.deepEqual(await finish(page, problems, 'diagram-messages'), []);
});

test('applying one filter policy keeps what was typed in the others', async () => {
  const { page, problems } = await openPlayground(browser, server.url);
  const sms = page.getByTestId('subscription-sms-policy');
  await sms.fill('{"event_type": ["OrderPlaced", "Ord');
  await page.getByTestId('subscription-billing-policy').fill('{"event_type": ["OrderPlaced"]}');
  await page.getByTestId('subscription-billing-policy-apply').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="subscription-billing-policy-apply"]').disabled);
  // Applied: billing's editor shows its new policy; sms's still holds the half-typed one.
  assert.equal(await page.getByTestId('subscription-billing-policy').inputValue(), '{"event_type": ["OrderPlaced"]}');
  assert.equal(await sms.inputValue(), '{"event_type": ["OrderPlaced", "Ord');
  assert.equal(await sms.getAttribute('aria-invalid'), 'true', 'still marked invalid, with its error');
  // Time passing and a publish do not rewrite it either.
  await page.getByTestId('publish').click();
  await page.getByTestId('step').click();
  assert.equal(await sms.inputValue(), '{"event_type": ["OrderPlaced", "Ord');
  assert.deepEqual(await finish(page, problems, 'filter-editors-keep-typing'), []);
});

test('Undo says what it takes back and that the clock goes back with it', async () => {
  const { page, problems } = await openPlayground(browser, server.url);
  await page.getByTestId('step').click();
  await page.getByTestId('publish').click();
  await page.getByTestId('step').click();
  await page.getByTestId('step').click();
  assert.match(await page.getByTestId('undo').getAttribute('title'), /^Undo Publish, given at /);
  await page.getByTestId('undo').click();
  await page.getByTestId('undo-note').waitFor();
  assert.match(await textOf(page, 'undo-note'), /Undid Publish \(given at .*\): the story went back to that moment, from /);
  // The next change of the story takes the note away.
  await page.getByTestId('publish').click();
  await page.getByTestId('undo-note').waitFor({ state: 'hidden' });
  assert.deepEqual(await finish(page, problems, 'undo-says-what'), []);
});
