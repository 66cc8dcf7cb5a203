// The export view (issue 17): the sandbox's "To AWS" opens the current story, the learner's edits
// included, in place on export.html as CloudFormation, boto3 or AWS CLI, with copy and download.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { startServer, launchBrowser, openPlayground, finish } from './harness.js';

let server;
let browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

const exportText = (page) => page.getByTestId('export-text').textContent();

/** Presses "To AWS": the export view opens in place, in the same tab (one app). */
async function openExport(page) {
  await page.getByTestId('export-open').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="export-text"]')?.textContent.includes('AWSTemplateFormatVersion'));
  return { popup: page, problems: [] };
}

test('Export to AWS opens the story on the export page: the quilt store as CloudFormation, then boto3, downloaded', async () => {
  const { page, problems } = await openPlayground(browser, server.url);
  // The learner's edit and a publish are in the story the export page receives.
  await page.getByTestId('subscription-billing-policy').fill('{"event_type": ["ShipmentSent"]}');
  await page.getByTestId('subscription-billing-policy-apply').click();
  await page.getByTestId('publish').click();
  const { popup, problems: popupProblems } = await openExport(page);
  assert.match(new URL(popup.url()).pathname, /export\.html$/);
  assert.equal(await popup.getByTestId('export-panel').getAttribute('open'), '', 'the panel is open');
  const template = await exportText(popup);
  assert.match(template, /Type: AWS::SNS::Topic/);
  assert.match(template, /Type: AWS::SQS::QueuePolicy/);
  assert.match(template, /TopicName: order-events/);
  assert.match(template, /ShipmentSent/, 'the learner\'s filter edit is exported');

  // Another format, another text; the script sends the story's publishes.
  await popup.getByTestId('export-format').selectOption({ label: 'Python (boto3)' });
  await popup.waitForFunction(() => document.querySelector('[data-testid="export-text"]').textContent.includes('import boto3'));
  const script = await exportText(popup);
  assert.notEqual(script, template);
  assert.match(script, /publish\(/);

  const [download] = await Promise.all([popup.waitForEvent('download'), popup.getByTestId('export-download').click()]);
  assert.equal(download.suggestedFilename(), 'fanout-make.py');
  assert.equal(await readFile(await download.path(), 'utf8'), script, 'the file is the text shown');

  await popup.getByTestId('export-format').selectOption({ label: 'AWS CLI (bash)' });
  await popup.waitForFunction(() => document.querySelector('[data-testid="export-text"]').textContent.includes('aws '));

  // Back to the playground: the same story, in the sandbox.
  await popup.getByTestId('export-back').click();
  await popup.getByTestId('publish').waitFor();
  assert.equal(await popup.getByTestId('clock').textContent(), await page.getByTestId('clock').textContent());
  assert.deepEqual(popupProblems, []);
  assert.deepEqual(await finish(page, problems, 'export-panel'), []);
});

test('the export page opened with a damaged link says so and exports the default scenario', async () => {
  const { page, problems } = await openPlayground(browser, `${server.url}export.html#share=AAAA`, undefined, 'export-panel');
  await page.getByTestId('load-error').waitFor();
  assert.match(await page.getByTestId('load-error').textContent(), /could not be opened/);
  await page.waitForFunction(() => document.querySelector('[data-testid="export-text"]')?.textContent.includes('TopicName: order-events'));
  assert.deepEqual(await finish(page, problems, 'export-bad-link'), []);
});
