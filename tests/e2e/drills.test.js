// Incident drills (issue 39): drill 1 solved with the page's own controls, judged by the engine,
// with its debrief; progress and the best time kept across a reload; a corrupt saved state
// dropped with a notice; a change the drill does not allow refused in words, changing nothing;
// the list and a drill's first screen at 375 and 1280 px, light and dark.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startServer, launchBrowser, screenshotDir, stageBuilt, whilePlaying } from './harness.js';

const KEY = 'fanout-playground.drills';
let server;
let browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

/** A fresh context (its own storage) and page that collects console errors and warnings. */
async function open(path, { viewport = { width: 1280, height: 860 }, colorScheme = 'light', init, ready } = {}) {
  const context = await browser.newContext({ viewport, colorScheme });
  if (init) await context.addInitScript(init);
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`uncaught: ${e.message}`));
  await page.goto(server.url + path);
  if (ready) await page.getByTestId(ready).waitFor({ timeout: 20_000 });
  return { page, problems };
}

async function done(page, problems, name, fullPage = false) {
  await mkdir(screenshotDir, { recursive: true });
  await page.screenshot({ path: join(screenshotDir, `${name}.png`), fullPage });
  await page.context().close();
  assert.deepEqual(problems, []);
}

const text = async (page, id) => (await page.getByTestId(id).textContent()).trim();
const verdict = (page, passed) => whilePlaying(page, (p) => !!document.querySelector(`[data-testid="drill-verdict"][data-passed="${p}"]`), passed);

/** Opens drill 1 from the list, as a learner does. */
async function openChargedTwice(page) {
  await page.getByTestId('drill-list').waitFor();
  await page.getByTestId('drill-open-charged-twice').click();
  await page.getByTestId('drill-report').waitFor({ timeout: 20_000 });
  await stageBuilt(page);
}

/** Makes a worker idempotent in the inspector, opened from the worker's row in its queue card. */
async function idempotent(page, worker) {
  await page.getByRole('button', { name: `Inspect worker ${worker}` }).click();
  const button = page.getByTestId(`worker-${worker}-idempotent`);
  assert.equal(await button.isDisabled(), false);
  await button.click();
  await page.waitForFunction((id) => document.querySelector(`[data-testid="${id}"]`)?.disabled, `worker-${worker}-idempotent`);
  assert.match(await button.textContent(), /^Idempotent/);
}

test('drill 1 is solved with the page\'s own controls, and its progress and best time survive a reload', async () => {
  const { page, problems } = await open('?drills', { ready: 'drill-list' });
  assert.equal(await text(page, 'drill-status-charged-twice'), 'Not tried');
  assert.equal(await page.getByTestId('nav-drills').getAttribute('aria-current'), 'page');
  await openChargedTwice(page);
  assert.match(page.url(), /\?drill=charged-twice$/);
  assert.match(await text(page, 'drill-report'), /charged twice for one order/);
  assert.match(await text(page, 'drill-from'), /Asha, customer support/);
  assert.equal(await text(page, 'drill-attempts'), '0');
  assert.equal(await page.getByTestId('drill-hints').count(), 0, 'no hint before a check');

  // Left alone, the engine says "not yet", goal by goal, and the first hint unlocks.
  await page.getByTestId('drill-check').click();
  await verdict(page, 'false');
  assert.equal(await page.getByTestId('drill-goal-0').getAttribute('data-holds'), 'false');
  assert.match(await text(page, 'drill-goal-0'), /no card is charged a second time.*it must be 0/s);
  assert.equal(await text(page, 'drill-attempts'), '1');
  assert.equal(await page.locator('[data-testid="drill-hints"] li').count(), 1);
  assert.equal(await page.getByTestId('drill-debrief').count(), 0, 'no debrief before a fix');

  // The fix, with the inspector's own control: the id and the charge in one transaction.
  await idempotent(page, 'billing-w1');
  await idempotent(page, 'billing-w2');
  assert.equal(await text(page, 'error'), '');
  // Let the story play a little, as a learner would, then check.
  await page.getByTestId('play-pause').click();
  await page.waitForTimeout(500);
  await page.getByTestId('drill-check').click();
  assert.equal(await page.getByTestId('play-pause').getAttribute('aria-pressed'), 'false', 'checking pauses the story');
  await verdict(page, 'true');
  assert.equal(await text(page, 'drill-attempts'), '2');
  assert.equal(await page.locator('[data-testid^="drill-goal-"][data-holds="false"]').count(), 0);

  // The debrief: the cause, the rule with its AWS page, the learner's fix beside the recorded one.
  const debrief = page.getByTestId('drill-debrief');
  await debrief.waitFor();
  assert.match(await debrief.textContent(), /check, act, record leaves a gap/);
  assert.match(await debrief.locator('a').first().getAttribute('href'), /^https:\/\/docs\.aws\.amazon\.com\//);
  const yours = await text(page, 'drill-your-fix');
  assert.match(yours, /UpdateWorker billing-w1: Idempotency = Atomic/);
  assert.match(yours, /UpdateWorker billing-w2: Idempotency = Atomic/);
  assert.match(await text(page, 'drill-recorded-fix'), /UpdateWorker billing-w1: Idempotency = Atomic/);
  assert.equal(await page.getByTestId('drill-give-up').isVisible(), false);
  // The timer stopped at the solve.
  const time = await text(page, 'drill-timer');
  await page.waitForTimeout(1_200);
  assert.equal(await text(page, 'drill-timer'), time, 'the timer stops once solved');
  await page.screenshot({ path: join(screenshotDir, 'drills-solved.png'), fullPage: true });

  const saved = JSON.parse(await page.evaluate((k) => localStorage.getItem(k), KEY));
  const mine = saved.drills['charged-twice'];
  assert.equal(mine.solved, true);
  assert.equal(mine.attempts, 2);
  assert.ok(Number.isInteger(mine.best_s) && mine.best_s >= 0, JSON.stringify(mine));

  // A reload keeps it: the list says solved, with the best time as the drill showed it.
  await page.reload();
  await page.getByTestId('drill-report').waitFor({ timeout: 20_000 });
  await page.getByTestId('drill-to-list').click();
  await page.getByTestId('drill-list').waitFor();
  const status = await text(page, 'drill-status-charged-twice');
  assert.equal(status, `✓ Solved · best ${time}`);
  assert.equal(await page.getByTestId('drill-card-charged-twice').getAttribute('data-status'), 'done');
  await done(page, problems, 'drills-list-after-reload');
});

test('a change the drill does not allow is refused in words and changes nothing', async () => {
  const { page, problems } = await open('?drill=charged-twice', { ready: 'drill-report' });
  await stageBuilt(page);
  const counts = async () => [await text(page, 'queue-billing-visible'), await text(page, 'queue-billing-inflight'), await text(page, 'clock')];
  const before = await counts();
  await page.getByTestId('queue-billing-purge').click();
  assert.equal(await text(page, 'error'),
    'Not allowed in this drill: it does not let you change PurgeQueue. Nothing was changed.');
  assert.deepEqual(await counts(), before, 'the queue is as it was');
  assert.equal(await page.getByTestId('undo').isDisabled(), true, 'no command was kept');
  // A setting in the inspector says so beside itself, and shows the queue's value again.
  await page.getByTestId('queue-billing-name').click();
  const retention = page.getByTestId('queue-billing-retention');
  const was = await retention.inputValue();
  await retention.fill('2');
  await page.getByTestId('queue-billing-retention-apply').click();
  assert.match(await text(page, 'queue-billing-retention-error'),
    /^Not allowed in this drill: it does not let you change SetQueueAttributes:MessageRetentionPeriod\. Nothing was changed\. Not applied: still \d+\.$/);
  // A change the drill allows goes through, and the error line clears.
  await page.getByRole('button', { name: 'Inspect worker billing-w1' }).click();
  await page.getByTestId('worker-billing-w1-slow').click();
  assert.equal(await text(page, 'error'), '');
  assert.equal(await page.getByTestId('undo').isDisabled(), false);
  assert.ok(was);
  await done(page, problems, 'drills-refused');
});

test('the silent subscription is solved with AWS calls: the queue policy read, edited and sent back, a subscription DLQ set', async () => {
  const { page, problems } = await open('?drill=silent-subscription', { ready: 'drill-report' });
  await stageBuilt(page);
  const call = page.getByTestId('aws-call');
  await call.locator('summary').click();
  const action = page.getByTestId('aws-call-action');
  const params = page.getByTestId('aws-call-params');
  // The drill offers its own changes and the reads; nothing it does not allow.
  const offered = await action.locator('option').evaluateAll((os) => os.map((o) => o.value));
  assert.deepEqual(offered.filter((o) => !/^(Get|Describe|List)/.test(o)),
    ['SetQueueAttributes:Policy', 'SetSubscriptionAttributes:RedrivePolicy', 'SetSubscriptionAttributes:RawMessageDelivery', 'Subscribe', 'CreateQueue', 'CreateWorker']);
  assert.ok(offered.includes('GetQueueAttributes'));

  // Packing selected, its policy is filled in as it is now: the renamed topic is not the one that sends.
  await page.getByTestId('queue-packing-name').click();
  await action.selectOption('SetQueueAttributes:Policy');
  const filled = JSON.parse(await params.inputValue());
  assert.match(filled.QueueUrl, /\/packing$/);
  const policy = JSON.parse(filled.Attributes.Policy);
  const source = policy.Statement[0].Condition.ArnEquals['aws:SourceArn'];
  assert.notEqual(source, 'arn:aws:sns:us-east-1:000000000000:order-events');

  // Not JSON: said, and nothing sent.
  await params.fill('{"QueueUrl": ');
  await page.getByTestId('aws-call-send').click();
  assert.match(await text(page, 'aws-call-error'), /^The parameters are not JSON: .*line 1 column \d+\. Nothing was sent\.$/);
  assert.equal(await page.getByTestId('undo').isDisabled(), true, 'nothing was kept');
  // A setting the drill does not allow, slipped into the call: refused in words.
  await params.fill(JSON.stringify({ QueueUrl: filled.QueueUrl, Attributes: { VisibilityTimeout: '60' } }));
  await page.getByTestId('aws-call-send').click();
  assert.equal(await text(page, 'aws-call-error'),
    'Not allowed in this drill: it does not let you change SetQueueAttributes:VisibilityTimeout. Nothing was changed.');
  assert.equal(await page.getByTestId('undo').isDisabled(), true);

  // The fix: the policy names the topic that sends, and copies SNS cannot deliver are kept.
  policy.Statement[0].Condition.ArnEquals['aws:SourceArn'] = 'arn:aws:sns:us-east-1:000000000000:order-events';
  await params.fill(JSON.stringify({ QueueUrl: filled.QueueUrl, Attributes: { Policy: JSON.stringify(policy) } }));
  await page.getByTestId('aws-call-send').click();
  assert.equal(await text(page, 'aws-call-error'), '');
  assert.equal(await text(page, 'aws-call-answer'), '{}');
  await action.selectOption('SetSubscriptionAttributes:RedrivePolicy');
  const sub = JSON.parse(await params.inputValue());
  assert.equal(sub.AttributeName, 'RedrivePolicy');
  sub.AttributeValue = JSON.stringify({ deadLetterTargetArn: 'arn:aws:sqs:us-east-1:000000000000:packing-sns-dlq' });
  // With packing selected, the subscription filled in is packing's.
  assert.match(sub.SubscriptionArn, /^arn:aws:sns:us-east-1:000000000000:order-events:/);
  await params.fill(JSON.stringify(sub));
  await page.getByTestId('aws-call-send').click();
  assert.equal(await text(page, 'aws-call-error'), '');

  // A read answers without changing the story: packing's policy now names order-events.
  await action.selectOption('GetQueueAttributes');
  await page.getByTestId('aws-call-send').click();
  assert.match(await text(page, 'aws-call-answer'), /aws:SourceArn.*order-events/s);

  await page.getByTestId('drill-check').click();
  await verdict(page, 'true');
  assert.match(await text(page, 'drill-your-fix'), /SetQueueAttributes packing: Policy/);
  await done(page, problems, 'drills-aws-call', true);
});

// Every drill can be solved on the page: its recorded fix, command by command, sent through the
// AWS call panel as a learner would (the call chosen from what the drill offers, its parameters
// those the panel filled in, changed as the fix changes them), and the engine passes it.
const drillIds = JSON.parse(await readFile(new URL('../../public/drills/index.json', import.meta.url))).drills.map((d) => d.id);
for (const id of drillIds) {
  test(`drill ${id} is solved through the page's AWS call panel`, async () => {
    const drill = JSON.parse(await readFile(new URL(`../../public/drills/${id}.json`, import.meta.url)));
    const { page, problems } = await open(`?drill=${id}`, { ready: 'drill-report' });
    await stageBuilt(page);
    await page.getByTestId('aws-call').locator('summary').click();
    const action = page.getByTestId('aws-call-action');
    const params = page.getByTestId('aws-call-params');
    const offered = await action.locator('option').evaluateAll((os) => os.map((o) => o.value));
    for (const { action: name, params: fix } of drill.debrief.fix) {
      // The names this call sets, as may_change spells them.
      const sets = name === 'SetQueueAttributes' ? Object.keys(fix.Attributes ?? {})
        : name === 'SetSubscriptionAttributes' ? [fix.AttributeName] : Object.keys(fix);
      const entry = offered.find((o) => o === name || (o.startsWith(`${name}:`) && sets.includes(o.split(':')[1])));
      assert.ok(entry, `${id}: the panel offers ${name} (${sets}) among ${offered}`);
      if (fix.QueueUrl) await page.getByTestId(`queue-${fix.QueueUrl}-name`).click();
      await action.selectOption(entry);
      const filled = JSON.parse(await params.inputValue());
      // A name the drill file writes as a placeholder is the one the panel filled in.
      const mine = Object.fromEntries(Object.entries(fix).map(([k, v]) => [k, typeof v === 'string' && v.startsWith('${') ? filled[k] : v]));
      await params.fill(JSON.stringify(mine));
      await page.getByTestId('aws-call-send').click();
      assert.equal(await text(page, 'aws-call-error'), '', `${id}: ${name} ${JSON.stringify(mine)}`);
    }
    await page.getByTestId('drill-check').click();
    await verdict(page, 'true');
    await done(page, problems, `drill-solved-${id}`);
  });
}

test('a corrupt or impossible saved state is dropped with a one-line notice', async () => {
  for (const bad of ['{"version": 1, "drills": {"charged-twice": {"solved": false, "best_s": 30, "attempts": 1}}}', '{oops']) {
    const { page, problems } = await open('?drills', {
      ready: 'drill-list',
      init: `if (!sessionStorage.getItem('seeded')) { sessionStorage.setItem('seeded', '1'); localStorage.setItem('${KEY}', ${JSON.stringify(bad)}); }`,
    });
    const notice = page.getByTestId('drill-notice');
    await notice.waitFor();
    assert.match(await notice.textContent(), /Your saved drill progress could not be read \(.+\) and was discarded\./);
    assert.equal(await page.evaluate((k) => localStorage.getItem(k), KEY), null, 'the bad state is removed');
    assert.equal(await text(page, 'drill-status-charged-twice'), 'Not tried');
    // The drills still run.
    await page.getByTestId('drill-open-charged-twice').click();
    await page.getByTestId('drill-report').waitFor({ timeout: 20_000 });
    await done(page, problems, 'drills-corrupt-notice');
  }
});

test('an unknown drill in the address says so on the list', async () => {
  const { page, problems } = await open('?drill=no-such-drill', { ready: 'drill-list' });
  await page.getByTestId('drill-notice').waitFor();
  assert.match(await text(page, 'drill-notice'), /There is no drill "no-such-drill"/);
  assert.match(page.url(), /\?drills$/);
  await done(page, problems, 'drills-unknown');
});

test('the drill list and a drill\'s first screen at 375 and 1280 px, light and dark', async () => {
  for (const [width, height] of [[375, 800], [1280, 860]]) {
    for (const colorScheme of ['light', 'dark']) {
      const list = await open('?drills', { viewport: { width, height }, colorScheme, ready: 'drill-list' });
      await list.page.getByTestId('drill-card-lost-receipts').waitFor();
      await done(list.page, list.problems, `drills-list-${width}-${colorScheme}`);
      const one = await open('?drill=charged-twice', { viewport: { width, height }, colorScheme, ready: 'drill-report' });
      await stageBuilt(one.page);
      await one.page.waitForTimeout(300);
      // Nothing is wider than the screen.
      const overflow = await one.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `the page is ${overflow} px wider than the ${width} px screen`);
      await done(one.page, one.problems, `drills-first-${width}-${colorScheme}`);
    }
  }
});
