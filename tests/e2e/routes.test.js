import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, openPlayground, finish, whilePlaying } from './harness.js';

let server;
let browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

async function pick(page, scenario) {
  const before = await page.locator('svg.topology').first().innerHTML();
  await page.getByTestId('scenario-picker').selectOption(scenario);
  await page.waitForFunction((b) => document.querySelector('svg.topology')?.innerHTML !== b, before);
}

const label = (page, id) => page.getByTestId(id).getAttribute('aria-label');

// Opens the routes page (it starts on the EventBridge scenario) and picks `scenario`; waits for
// the node with test id `drawn`.
async function openRoutes(scenario, drawn) {
  const opened = await openPlayground(browser, server.url + 'routes.html');
  await opened.page.getByTestId('diagram-bus-shop').waitFor();
  await pick(opened.page, scenario);
  await opened.page.getByTestId(drawn).waitFor();
  return opened;
}

// Plays at 64× until `done` holds in the page, then pauses.
async function playUntil(page, done) {
  await page.getByTestId('speed').selectOption({ label: '64×' });
  await page.getByTestId('play-pause').click();
  await whilePlaying(page, done);
  await page.getByTestId('play-pause').click();
}

test('an EventBridge scenario renders its bus, its rules and their targets; an event put from the page is routed', async () => {
  const { page, problems } = await openPlayground(browser, server.url + 'routes.html');
  // The routes page opens on the EventBridge scenario: the bus shop, one row per rule target.
  await page.getByTestId('diagram-bus-shop').waitFor();
  for (const rule of ['audit', 'big-orders', 'shipping']) await page.getByTestId(`diagram-rule-${rule}`).waitFor();
  assert.match(await label(page, 'diagram-rule-big-orders'), /Rule big-orders on shop, to big-orders: .*numeric/);
  // The scenario put a total of 250 and one of 40: big-orders matched 1, audit 2.
  assert.equal(await label(page, 'rule-big-orders-matched'), 'Rule big-orders: 1 matched');
  assert.equal(await label(page, 'rule-audit-matched'), 'Rule audit: 2 matched');
  assert.match(await page.getByTestId('rule-audit-matched').textContent(), /^2 matchedtransformed$/);
  // The shipping rule's target was deleted: drawn as missing, its DLQ under the rule's badge.
  assert.match(await label(page, 'diagram-endpoint-warehouse-v1'), /missing warehouse-v1: does not exist/);
  const dlq = page.getByTestId('diagram-sub-dlq-shipping-dlq');
  assert.match(await dlq.textContent(), /shipping-dlq · 0/);
  assert.match(await dlq.getAttribute('aria-label'), /the events rule shipping could not deliver to warehouse-v1/);
  // Publish puts the preset on the bus (PutEvents): a shipment goes to the target's DLQ at once.
  assert.equal((await page.getByTestId('publish').textContent()).trim(), 'Put on bus shop');
  await page.getByTestId('event-type').selectOption('OrderShipped');
  await page.getByTestId('publish').click();
  await page.waitForFunction(() => /shipping-dlq · 1/.test(document.querySelector('[data-testid="diagram-sub-dlq-shipping-dlq"]')?.textContent));
  assert.equal(await label(page, 'rule-shipping-matched'), 'Rule shipping: 1 matched');
  assert.equal(await label(page, 'rule-audit-matched'), 'Rule audit: 3 matched');
  assert.match(await page.locator('#diagram').textContent(), /archive shop-archive: 3 events/);
  // A big order reaches big-orders; the log says where EventBridge delivered it.
  await page.getByTestId('event-type').selectOption('BigOrder');
  await page.getByTestId('publish').click();
  await page.waitForFunction(() => /Queue big-orders: 2 visible/.test(document.querySelector('#diagram [data-select="queue:big-orders"]')?.getAttribute('aria-label')));
  assert.match(await page.getByTestId('event-log').textContent(), /DeliveredToTarget/);
  // A rule opens in the inspector: its pattern, each target's retry policy and DLQ.
  await page.getByTestId('diagram-rule-shipping').click();
  const inspector = page.getByTestId('inspector');
  await page.waitForFunction(() => /Rule shipping on shop/.test(document.querySelector('[data-testid="inspector"]').textContent));
  const text = await inspector.textContent();
  assert.match(text, /OrderShipped/);
  assert.match(text, /up to 5 retries over 10 min/);
  assert.match(text, /shipping-dlq/);
  assert.deepEqual(await finish(page, problems, 'routes-eventbridge'), []);
});

test('a webhook that is down is retried by SNS while a blocked queue\'s copy is in the subscription DLQ at once', async () => {
  const { page, problems } = await openRoutes('webhook-retries', 'diagram-endpoint-partner');
  const partner = page.getByTestId('diagram-endpoint-partner');
  assert.match(await partner.getAttribute('aria-label'), /^HTTPS partner: 3 sent · 1 ok · 2 failed; down · 1 copy waits to retry$/);
  assert.match(await page.getByTestId('diagram-sub-dlq-ledger-sns-dlq').textContent(), /ledger-sns-dlq · 1/);
  // Played on, the 8th attempt at 92.5 s finds it up.
  await playUntil(page, () => /: 9 sent · 2 ok · 7 failed$/.test(document.querySelector('[data-testid="diagram-endpoint-partner"]')?.getAttribute('aria-label')));
  assert.deepEqual(await finish(page, problems, 'routes-webhook'), []);
});

test('an SMS whose carrier is down is retried on the short schedule; the e-mail down for good is still trying', async () => {
  const { page, problems } = await openRoutes('sms-retries', 'diagram-endpoint-asha');
  assert.equal(await label(page, 'diagram-endpoint-asha'), 'SMS asha: 1 sent · 0 ok · 1 failed; down · 1 copy waits to retry');
  assert.match(await label(page, 'diagram-endpoint-ops'), /^e-mail ops: 2 sent · 1 ok · 1 failed; down · 1 copy waits to retry$/);
  // Each step goes to the next moment something happens: here, the next pair of attempts
  // (0, 10, 20, 30, 41.2 s …). The 14th, at 31 min 29.6 s, finds the carrier back.
  for (let i = 0; i < 20 && !/14 sent · 1 ok · 13 failed/.test(await label(page, 'diagram-endpoint-asha')); i++) {
    await page.getByTestId('step').click();
  }
  assert.equal(await label(page, 'diagram-endpoint-asha'), 'SMS asha: 14 sent · 1 ok · 13 failed');
  assert.match(await page.getByTestId('clock').textContent(), /^00:31:29/);
  assert.match(await label(page, 'diagram-endpoint-ops'), /: 15 sent · 1 ok · 14 failed; down · 1 copy waits to retry$/);
  assert.deepEqual(await finish(page, problems, 'routes-sms'), []);
});

test('an SNS-invoked function is drawn with where its records go; routes.html is the sandbox on the EventBridge scenario', async () => {
  const { page, problems } = await openRoutes('lambda-destinations', 'diagram-endpoint-charge');
  const charge = page.getByTestId('diagram-endpoint-charge');
  assert.match(await charge.getAttribute('aria-label'), /λ function charge: .*; ok → charge-ok · failed → charge-failed/);
  assert.deepEqual(await finish(page, problems, 'routes-lambda'), []);
  // The old routes page's address opens the sandbox, share bar and all, on its first scenario.
  const old = await openPlayground(browser, server.url + 'routes.html');
  assert.equal(await old.page.getByTestId('scenario-picker').inputValue(), 'eventbridge-orders');
  await old.page.getByTestId('share-copy').waitFor();
  assert.equal(await old.page.getByTestId('nav-playground').getAttribute('href'), './');
  assert.deepEqual(await finish(old.page, old.problems, 'routes-address'), []);
});

test('dual write or outbox: a relay crash after publishing sends the event twice and the idempotent mailer skips the copy', async () => {
  const { page, problems } = await openRoutes('outbox', 'diagram-service-shop-outbox');
  assert.equal(await label(page, 'diagram-service-shop-dualwrite'), 'Order service shop-dualwrite (dual write): 1 order · 0 lost');
  assert.equal(await label(page, 'diagram-service-shop-outbox'), 'Order service shop-outbox (outbox): 1 order · 0 unsent');
  // A crash between save and publish: the dual write's order exists, its event never goes out.
  assert.equal((await page.getByTestId('publish').textContent()).trim(), 'Place the order');
  await page.getByTestId('event-type').selectOption('DualWriteCrash');
  await page.getByTestId('publish').click();
  await page.waitForFunction(() => /\(dual write\): crashed · 2 orders · 1 lost/.test(document.querySelector('[data-testid="diagram-service-shop-dualwrite"]')?.getAttribute('aria-label')));
  // The relay publishes 5502's row, crashes before marking it sent, and publishes it again.
  await page.getByTestId('event-type').selectOption('RelayCrash');
  await page.getByTestId('publish').click();
  await playUntil(page, () => /SideEffectSkipped/.test(document.querySelector('[data-testid="event-log"]')?.textContent));
  assert.match(await page.getByTestId('event-log').textContent(), /evt-5502 skipped \(duplicate/);
  // The relay under the outbox's database counts each publish: 5501 once, 5502 twice.
  assert.equal(await label(page, 'diagram-relay-shop-outbox'), 'relay shop-outbox-relay: 3 published');
  // Its database in the inspector: the outbox row published twice.
  await page.getByTestId('diagram-service-shop-outbox').click();
  await page.waitForFunction(() => /outbox table/.test(document.querySelector('[data-testid="inspector"]').textContent));
  assert.match(await page.getByTestId('inspector').textContent(), /row 2 · evt-5502 · sent at [0-9:.]+ · published 2×/);
  assert.deepEqual(await finish(page, problems, 'routes-outbox'), []);
});

test('the bus archive replays from the rule inspector: the archived events reach the rules again, and are not archived twice', async () => {
  const { page, problems } = await openPlayground(browser, server.url + 'routes.html');
  await page.getByTestId('diagram-bus-shop').waitFor();
  assert.equal(await label(page, 'rule-audit-matched'), 'Rule audit: 2 matched');
  // The rule's inspector lists the bus's archive with a button that starts a replay (StartReplay).
  await page.getByTestId('diagram-rule-audit').click();
  const replay = page.getByTestId('replay-shop-archive');
  assert.equal((await replay.textContent()).trim(), 'Replay them to shop');
  await replay.click();
  // The replay runs in virtual time, a minute of event time a step; both events match audit again.
  await playUntil(page, () => /2 replayed, completed/.test(document.querySelector('#diagram')?.textContent));
  assert.equal(await label(page, 'rule-audit-matched'), 'Rule audit: 4 matched');
  assert.match(await page.getByTestId('event-log').textContent(), /ReplayStarted/);
  // Replayed events are not archived again: the archive still keeps 2.
  assert.match(await page.locator('#diagram').textContent(), /archive shop-archive: 2 events/);
  assert.deepEqual(await finish(page, problems, 'routes-replay'), []);
});
