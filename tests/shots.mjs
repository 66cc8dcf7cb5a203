// Screenshots for a person to look at: node shots.mjs OUTDIR path1 path2 ...
import { startServer, launchBrowser } from './e2e/harness.js';
const [out, ...paths] = process.argv.slice(2);
const server = await startServer();
const browser = await launchBrowser();
for (const path of paths) {
  for (const [w, h] of [[375, 800], [1280, 860]]) {
    for (const scheme of ['light', 'dark']) {
      const ctx = await browser.newContext({ viewport: { width: w, height: h }, colorScheme: scheme });
      const page = await ctx.newPage();
      const errors = [];
      page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') errors.push(m.text()); });
      await page.goto(server.url + path);
      await page.waitForTimeout(1500);
      const name = `${out}/${path.replace(/[^a-z0-9]+/gi, '_') || 'index'}-${w}-${scheme}.png`;
      await page.screenshot({ path: name, fullPage: false });
      console.log(name, errors.length ? errors : 'console clean');
      await ctx.close();
    }
  }
}
await browser.close(); await server.close();
