// The lesson's stage shows what its text talks about (issue 34): the producer's edge goes to
// the topic it publishes to, the alarms a step speaks of are on the diagram with their states,
// and no two pieces of text on the diagram or a chart are drawn over each other or cut off,
// at a phone's width and a laptop's.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, openPlayground, finish, whilePlaying, playedUntilShown } from './harness.js';

let server;
let browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

const PHONE = { width: 375, height: 812 };
const LAPTOP = { width: 1280, height: 860 };

const atStep = (page, text) => page.waitForFunction(
  (t) => document.querySelector('[data-testid="lesson-step"]')?.textContent.trim() === t, text, { timeout: 20_000 });

/**
 * Pairs of text boxes under `selector` that overlap by more than a pixel each way, and texts
 * that stick out of their SVG: [] when every label can be read.
 */
const textClashes = (page, selector) => page.evaluate((selector) => {
  const out = [];
  for (const svg of document.querySelectorAll(selector)) {
    const frame = svg.getBoundingClientRect();
    const boxes = [...svg.querySelectorAll('text')]
      .filter((t) => t.textContent.trim() !== '' && t.getClientRects().length > 0)
      .map((t) => ({ text: t.textContent.trim(), r: t.getBoundingClientRect() }));
    for (const { text, r } of boxes) {
      if (r.left < frame.left - 1 || r.right > frame.right + 1 || r.top < frame.top - 1 || r.bottom > frame.bottom + 1) {
        out.push(`"${text}" is cut off by its drawing`);
      }
    }
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i].r;
        const b = boxes[j].r;
        const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
        const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
        if (w > 1 && h > 1) out.push(`"${boxes[i].text}" and "${boxes[j].text}" overlap`);
      }
    }
  }
  return out;
}, selector);

/** The vertical centre of a diagram node, in page pixels. */
const middle = (page, testid) => page.evaluate((id) => {
  const r = document.querySelector(`[data-testid="${id}"]`).getBoundingClientRect();
  return r.top + r.height / 2;
}, testid);

for (const [size, viewport] of [['phone', PHONE], ['laptop', LAPTOP]]) {
  test(`the alarms step draws both alarms by sms-dlq, the producer beside order-events, no label over another (${size})`, async () => {
    const { page, problems } = await openPlayground(browser, `${server.url}?lesson=poison-messages&step=6`, viewport, 'lesson-panel');
    await atStep(page, '6 / 8');
    for (const alarm of ['sms-dlq-visible', 'sms-dlq-sent']) {
      await page.getByTestId(`diagram-alarm-${alarm}`).waitFor({ timeout: 10_000 });
      const label = await page.getByTestId(`diagram-alarm-${alarm}`).getAttribute('aria-label');
      assert.match(label, new RegExp(`^Alarm ${alarm}: (OK|ALARM|INSUFFICIENT_DATA)$`));
    }
    // The page's Publish sends to order-events: it is the topic drawn level with the producer.
    if (size === 'laptop') {
      const producer = await page.evaluate(() => {
        const r = document.querySelector('#diagram .node.producer').getBoundingClientRect();
        return r.top + r.height / 2;
      });
      assert.ok(Math.abs(producer - await middle(page, 'diagram-topic-order-events')) < 2, 'checkout faces order-events');
      assert.ok(Math.abs(producer - await middle(page, 'diagram-topic-on-call')) > 20, 'not the alarm topic');
    }
    assert.deepEqual(await textClashes(page, '#diagram'), []);
    // The metrics charts name each alarm in a list of their own.
    await page.getByTestId('metrics-sms-dlq').waitFor({ timeout: 10_000 });
    assert.deepEqual(await textClashes(page, '.chart svg'), []);
    for (const alarm of ['sms-dlq-visible', 'sms-dlq-sent']) {
      assert.equal(await page.getByTestId(`chart-alarm-${alarm}`).isVisible(), true, `${alarm} listed under its chart`);
    }
    assert.deepEqual(await finish(page, problems, `lesson-stage-alarms-${size}`), []);
  });

  test(`five workers on a queue: two drawn and "+3 more" inside the diagram (${size})`, async () => {
    const { page, problems } = await openPlayground(browser, server.url, viewport);
    for (let i = 0; i < 5; i++) await page.getByTestId('queue-billing-add-worker').click();
    await page.waitForFunction(() => [...document.querySelectorAll('#diagram text.more')].some((t) => t.textContent === '+3 more'));
    assert.deepEqual(await textClashes(page, '#diagram'), []);
    assert.deepEqual(await finish(page, problems, `lesson-stage-workers-${size}`), []);
  });
}

for (const [size, viewport] of [['phone', PHONE], ['laptop', LAPTOP]]) {
  test(`lesson 1 draws each design while it runs it: calls, one queue, a topic (${size})`, async () => {
    const { page, problems } = await openPlayground(browser, `${server.url}?lesson=three-designs&step=2`, viewport, 'lesson-panel');
    await atStep(page, '2 / 6');
    // The question is asked over design 1 (its producer is made by the run), and design 1 runs:
    // checkout calls each service in turn; no topic, no queue is drawn.
    await page.getByTestId('diagram-call-sms-api').waitFor({ timeout: 10_000 });
    const drawn = () => page.evaluate(() => ({
      calls: [...document.querySelectorAll('#diagram [data-testid^="diagram-call-"]')].map((n) => n.dataset.testid.slice(13)),
      topics: document.querySelectorAll('#diagram [data-testid^="diagram-topic-"]').length,
      queues: [...document.querySelectorAll('#diagram [data-select^="queue:"]')].map((n) => n.dataset.select.slice(6)),
    }));
    const designOne = { calls: ['payment-api', 'billing-api', 'packing-api', 'sms-api'], topics: 0, queues: [] };
    assert.deepEqual(await drawn(), designOne, 'before the run');
    await page.getByTestId('predict-choice-1').click();
    await page.getByTestId('predict-submit').click();
    await page.waitForTimeout(300);
    assert.deepEqual(await drawn(), designOne, 'while it runs');
    assert.equal(await page.locator('#diagram .node.producer text').first().textContent(), 'checkout-1');
    assert.deepEqual(await textClashes(page, '#diagram'), []);
    // Design 2: the one queue and its worker.
    await playedUntilShown(page, 'predict-result');
    await page.getByTestId('lesson-next').click();
    await atStep(page, '3 / 6');
    await page.waitForFunction(() => document.querySelector('#diagram .node.producer text')?.textContent === 'checkout-2', null, { timeout: 10_000 });
    assert.deepEqual(await drawn(), { calls: [], topics: 0, queues: ['all-jobs'] }, 'design 2 before its run');
    await page.getByTestId('predict-choice-1').click();
    await page.getByTestId('predict-submit').click();
    await page.waitForFunction(() => document.querySelector('#diagram .node.producer text')?.textContent === 'checkout-2', null, { timeout: 10_000 });
    assert.deepEqual(await drawn(), { calls: [], topics: 0, queues: ['all-jobs'] });
    assert.deepEqual(await finish(page, problems, `lesson-stage-designs-${size}`), []);
  });
}

/** The smallest text on the diagram as drawn on the screen, in CSS px, and what it says. */
const smallestText = (page) => page.evaluate(() => {
  const svg = document.querySelector('#diagram');
  const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  let smallest = { px: Infinity, text: '' };
  for (const t of svg.querySelectorAll('text, tspan')) {
    if (t.textContent.trim() === '' || t.getClientRects().length === 0) continue;
    const px = parseFloat(getComputedStyle(t).fontSize) * scale;
    if (px < smallest.px) smallest = { px, text: t.textContent.trim() };
  }
  return smallest;
});

for (const [what, path, ready] of [
  ['the quilt store', '', 'publish'],
  ['the poison lesson with its alarms', '?lesson=poison-messages&step=6', 'lesson-panel'],
  ['filter policies', '?lesson=filter-policies&step=3', 'lesson-panel'],
]) {
  test(`on a phone every text of the diagram is at least 11 px and none overlaps: ${what}`, async () => {
    const { page, problems } = await openPlayground(browser, server.url + path, PHONE, ready);
    await page.locator('#diagram.narrow').waitFor({ timeout: 10_000 });
    // Messages inside the queues, with their labels.
    if (path === '') {
      for (let i = 0; i < 3; i++) await page.getByTestId('publish').click();
    }
    await page.waitForTimeout(300);
    const smallest = await smallestText(page);
    assert.ok(smallest.px >= 11, `"${smallest.text}" is ${smallest.px.toFixed(1)} px`);
    assert.deepEqual(await textClashes(page, '#diagram'), []);
    assert.deepEqual(await finish(page, problems, `lesson-stage-phone-text-${path === '' ? 'sandbox' : path.slice(8, 20)}`), []);
  });
}

test('the worker opened from the diagram can be paused there; Show me stays in view with the inspector open', async () => {
  const { page, problems } = await openPlayground(browser, `${server.url}?lesson=poison-messages&step=7`, LAPTOP, 'lesson-panel');
  await atStep(page, '7 / 8');
  await page.getByTestId('diagram-consumer-sms-w1').click();
  await page.getByTestId('inspector-worker-pause').click();
  await page.waitForFunction(() => /Paused|Pausing/.test(document.querySelector('[data-testid="diagram-consumer-sms-w1"]').getAttribute('aria-label')));
  assert.equal(await page.getByTestId('inspector-worker-resume').isVisible(), true, 'Pause became Resume');
  // "Show me" is in the panel's bar: inside the panel's box and the window, not scrolled away.
  const inView = await page.evaluate(() => {
    const b = document.querySelector('[data-testid="checkpoint-show-me"]').getBoundingClientRect();
    const p = document.querySelector('[data-testid="lesson-panel"]').getBoundingClientRect();
    return b.height > 0 && b.top >= p.top && b.bottom <= p.bottom + 1 && b.bottom <= innerHeight;
  });
  assert.equal(inView, true);
  await page.getByTestId('inspector-worker-resume').click();
  await page.getByTestId('checkpoint-show-me').click();
  await whilePlaying(page, () => document.querySelector('[data-testid="checkpoint"]')?.dataset.done === 'true');
  assert.deepEqual(await finish(page, problems, 'lesson-stage-inspector-worker'), []);
});

test('a run slows down for the moment its step is about: design 3 plays the SMS slowdown at 4x, the rest at its 16x', async () => {
  const { page, problems } = await openPlayground(browser, `${server.url}?lesson=three-designs&step=4`, LAPTOP, 'lesson-panel');
  await atStep(page, '4 / 6');
  const seconds = (t) => t.split(':').reduce((s, x) => s * 60 + Number(x), 0);
  const start = seconds((await page.getByTestId('clock').textContent()).trim());
  // Samples of the speed shown and the story's clock, every 40 ms of the run.
  await page.evaluate(() => {
    window.paceSamples = [];
    window.paceTimer = setInterval(() => {
      const speed = document.querySelector('[data-testid="speed"]');
      window.paceSamples.push([speed.selectedOptions[0].textContent.trim(), document.querySelector('[data-testid="clock"]').textContent.trim()]);
    }, 40);
  });
  await page.getByTestId('predict-choice-1').click();
  await page.getByTestId('predict-submit').click();
  await playedUntilShown(page, 'predict-result');
  const samples = await page.evaluate(() => { clearInterval(window.paceTimer); return window.paceSamples; });
  const runs = samples.reduce((out, [speed, clock]) => {
    if (out.at(-1)?.speed !== speed) out.push({ speed, at: seconds(clock) - start });
    return out;
  }, []).filter((r) => r.at >= 0);
  const slow = runs.find((r) => r.speed === '4×');
  assert.ok(slow, `the run never played at 4×: ${JSON.stringify(runs)}`);
  // The clock's text is rewritten every 100 ms of wall time: at 16× it can lag 1.6 s of story.
  assert.ok(slow.at >= 16 && slow.at <= 20, `4× began ${slow.at} s into the run, not at 18 s: ${JSON.stringify(runs)}`);
  // The rest plays at the step's own 16× (it fits 30 s), before and after the window.
  const fast = runs.filter((r) => r.speed === '16×');
  assert.ok(fast.some((r) => r.at < slow.at) && fast.some((r) => r.at >= 58 && r.at < 62), `16× before and from 60 s on: ${JSON.stringify(runs)}`);
  assert.deepEqual(problems, []);
  await page.context().close();
});

test('the queue cards and Publish keep to the design a step draws', async () => {
  const { page, problems } = await openPlayground(browser, `${server.url}?lesson=three-designs&step=2`, LAPTOP, 'lesson-panel');
  const cards = () => page.locator('section.queues article.queue-card').evaluateAll((cs) => cs.map((c) => c.dataset.testid));
  // Design 1 calls the services in turn: no queue, and no topic to publish to.
  await atStep(page, '2 / 6');
  assert.deepEqual(await cards(), []);
  assert.match(await page.getByTestId('publish-off-stage').textContent(), /no topic to publish to: checkout-1 sends the orders itself/);
  // Design 2: its one queue.
  await page.goto(`${server.url}?lesson=three-designs&step=3`);
  await atStep(page, '3 / 6');
  await page.waitForFunction(() => document.querySelectorAll('section.queues article.queue-card').length === 1);
  assert.deepEqual(await cards(), ['queue-all-jobs']);
  assert.equal(await page.getByTestId('publish-off-stage').count(), 1);
  // Design 3 fans out from order-events: its queues, and Publish to that topic.
  await page.goto(`${server.url}?lesson=three-designs&step=4`);
  await atStep(page, '4 / 6');
  await page.waitForFunction(() => document.querySelectorAll('section.queues article.queue-card').length >= 3);
  const three = await cards();
  assert.ok(['queue-billing', 'queue-packing', 'queue-sms'].every((c) => three.includes(c)) && !three.includes('queue-all-jobs'), three.join(', '));
  assert.equal(await page.getByTestId('publish-off-stage').count(), 0);
  assert.match(await page.getByRole('button', { name: /Publish to order-events/ }).textContent(), /order-events/);
  assert.deepEqual(problems, []);
  await page.context().close();
});
