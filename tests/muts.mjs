import { startServer, launchBrowser } from './e2e/harness.js';
const server = await startServer(); const browser = await launchBrowser();
const ctx = await browser.newContext({ viewport: { width: 1280, height: 860 } });
const page = await ctx.newPage();
await page.goto(server.url); await page.getByTestId('publish').waitFor();
await page.evaluate(async () => { const b = document.querySelector('[data-testid="publish"]'); for (let i = 0; i < 300; i++) b.click(); await new Promise(r => requestAnimationFrame(r)); });
await page.getByTestId('speed').selectOption({ label: '64×' });
await page.getByTestId('play-pause').click();
await page.waitForTimeout(300);
console.log(await page.evaluate(() => new Promise((done) => {
  const seen = new Map();
  const where = (n) => { let e = n.nodeType === 1 ? n : n.parentElement; const path = []; while (e && path.length < 4) { path.push(e.tagName.toLowerCase() + (e.dataset?.testid ? '[' + e.dataset.testid + ']' : e.className && typeof e.className === 'string' ? '.' + e.className.split(' ')[0] : '')); e = e.parentElement; } return path.reverse().join(' > '); };
  const mo = new MutationObserver((ms) => { for (const m of ms) { const k = m.type + ' ' + (m.attributeName || '') + ' ' + where(m.target); seen.set(k, (seen.get(k) || 0) + 1); } });
  mo.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  let frames = 0; const t = () => { frames++; if (frames < 60) requestAnimationFrame(t); else { mo.disconnect(); done([...seen].sort((a, b) => b[1] - a[1]).slice(0, 30).map(([k, v]) => v + ' ' + k).join('\n')); } };
  requestAnimationFrame(t);
})));
await browser.close(); await server.close();
