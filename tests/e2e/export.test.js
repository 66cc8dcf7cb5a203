// The Export panel (issue 17): the current story's topology as CloudFormation, boto3 or AWS CLI,
// with the learner's edits, copy and download.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { startServer, launchBrowser, openPlayground, finish } from './harness.js';

let server;
let browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

const exportText = (page) => page.getByTestId('export-text').textContent();

test('the Export panel shows the quilt store as CloudFormation, then as a boto3 script, and downloads it', async () => {
  const { page, problems } = await openPlayground(browser, server.url);
  assert.equal(await page.getByTestId('export-text').isVisible(), false, 'the panel starts closed');
  await page.getByTestId('export-panel').locator('summary').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="export-text"]')?.textContent.includes('AWSTemplateFormatVersion'));
  const template = await exportText(page);
  assert.match(template, /Type: AWS::SNS::Topic/);
  assert.match(template, /Type: AWS::SQS::QueuePolicy/);
  assert.match(template, /TopicName: order-events/);

  // The learner's edit is in the export: a filter policy on billing.
  assert.doesNotMatch(template, /ShipmentSent/);
  await page.getByTestId('subscription-billing-policy').fill('{"event_type": ["ShipmentSent"]}');
  await page.getByTestId('subscription-billing-policy-apply').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="export-text"]').textContent.includes('ShipmentSent'));

  // Another format, another text; the script sends the story's publishes.
  await page.getByTestId('publish').click();
  await page.getByTestId('export-format').selectOption({ label: 'Python (boto3)' });
  await page.waitForFunction(() => document.querySelector('[data-testid="export-text"]').textContent.includes('import boto3'));
  const script = await exportText(page);
  assert.notEqual(script, template);
  assert.match(script, /publish\(/);

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-download').click()]);
  assert.equal(download.suggestedFilename(), 'fanout-make.py');
  assert.equal(await readFile(await download.path(), 'utf8'), script, 'the file is the text shown');

  await page.getByTestId('export-format').selectOption({ label: 'AWS CLI (bash)' });
  await page.waitForFunction(() => document.querySelector('[data-testid="export-text"]').textContent.includes('aws '));
  assert.deepEqual(await finish(page, problems, 'export-panel'), []);
});
