import { startServer, launchBrowser } from './e2e/harness.js';
const server = await startServer(); const browser = await launchBrowser();
const ctx = await browser.newContext({ viewport: { width: 1280, height: 860 } });
const page = await ctx.newPage();
const errs = []; page.on('console', m => { if (m.type() === 'error') errs.push(m.text()); });
await page.goto(server.url); await page.getByTestId('publish').waitFor();
const mode = process.argv[2];
if (mode === 'workers') { await page.getByTestId('scenario-picker').selectOption('workers'); await page.getByTestId('diagram-consumer-packing-w2').waitFor(); }
await page.evaluate(async () => { const b = document.querySelector('[data-testid="publish"]'); for (let i = 0; i < 300; i++) b.click(); await new Promise(r => requestAnimationFrame(r)); });
await page.getByTestId('speed').selectOption({ label: '64×' });
const cdp = await ctx.newCDPSession(page);
await cdp.send('Profiler.enable'); await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
await page.getByTestId('play-pause').click();
await page.waitForTimeout(300);
await cdp.send('Profiler.start');
await page.waitForTimeout(3000);
const { profile } = await cdp.send('Profiler.stop');
const self = new Map(); const byId = new Map(profile.nodes.map(n => [n.id, n]));
const counts = new Map(); for (const s of profile.samples) counts.set(s, (counts.get(s) || 0) + 1);
let total = 0;
for (const [id, c] of counts) { const n = byId.get(id); const k = n.callFrame.functionName || n.callFrame.url.split('/').pop() || '(anon)'; self.set(k, (self.get(k) || 0) + c); total += c; }
// inclusive
const parent = new Map(); for (const n of profile.nodes) for (const ch of n.children || []) parent.set(ch, n.id);
const incl = new Map();
for (const [id, c] of counts) { const seen = new Set(); let x = id; while (x !== undefined) { const n = byId.get(x); const k = n.callFrame.functionName || '(anon)'; if (!seen.has(k)) { incl.set(k, (incl.get(k) || 0) + c); seen.add(k); } x = parent.get(x); } }
console.log('total samples', total, errs.slice(0, 2));
console.log('SELF'); [...self].sort((a, b) => b[1] - a[1]).slice(0, 25).forEach(([k, v]) => console.log((100 * v / total).toFixed(1).padStart(5), k.slice(0, 120)));
console.log('INCLUSIVE'); [...incl].sort((a, b) => b[1] - a[1]).slice(0, 60).forEach(([k, v]) => console.log((100 * v / total).toFixed(1).padStart(5), k.slice(0, 120)));
await browser.close(); await server.close();
