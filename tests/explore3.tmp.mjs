import { startServer, launchBrowser } from './e2e/harness.js';
const server = await startServer(); const browser = await launchBrowser();
for (const [w,h,scheme] of [[1280,860,'light'],[375,800,'dark']]) {
const ctx = await browser.newContext({ viewport: { width: w, height: h }, colorScheme: scheme });
const page = await ctx.newPage();
await page.goto(server.url + '?drill=charged-twice');
await page.getByTestId('drill-report').waitFor();
await page.getByTestId('drill-check').click();
await page.waitForSelector('[data-testid="drill-verdict"]');
await page.waitForTimeout(300);
await page.screenshot({ path: `/tmp/drillcheck/notyet-${w}.png` });
for (const wk of ['billing-w1','billing-w2']) {
  await page.getByRole('button', { name: `Inspect worker ${wk}` }).click();
  await page.getByTestId(`worker-${wk}-idempotent`).click();
  if (w < 500) await page.getByTestId('inspector-close').click();
}
await page.getByTestId('drill-check').click();
await page.waitForSelector('[data-testid="drill-verdict"][data-passed="true"]');
await page.waitForTimeout(300);
await page.screenshot({ path: `/tmp/drillcheck/solved-${w}.png` });
await page.evaluate(() => document.querySelector('.drill-debrief').scrollIntoView());
await page.waitForTimeout(200);
await page.screenshot({ path: `/tmp/drillcheck/debrief-${w}.png` });
await ctx.close();
}
await browser.close(); await server.close();
