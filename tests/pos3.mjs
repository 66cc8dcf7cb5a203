import { startServer, launchBrowser } from '/work/main/tests/e2e/harness.js';
const server = await startServer(); const browser = await launchBrowser();
const [path, out, w, scheme] = process.argv.slice(2);
const ctx = await browser.newContext({ viewport: { width: +w, height: 800 }, colorScheme: scheme });
const page = await ctx.newPage();
await page.goto(server.url + path); await page.waitForTimeout(1500);
const el = await page.$('#diagram');
await el.screenshot({ path: out });
await browser.close(); await server.close();
