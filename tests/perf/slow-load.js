// The learner's wait on a phone on a slow network: a cold load of the playground until Publish is
// usable (the frame that paints it is done and the tasks queued before it have run), under
// Lighthouse's mobile profile: 150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up (Chromium's
// network emulation, CDP Network.emulateNetworkConditions) and the CPU 4x slower
// (Emulation.setCPUThrottlingRate). dist/ is served as docs/building.md tells a host to: the
// precompressed copies scripts/compress.sh writes (brotli, else gzip), wasm as application/wasm.
// Median of 3 cold loads (a fresh browser context each: nothing cached).
// Run alone: cd tests && node perf/slow-load.js (after make build); make perf runs it too.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { join, extname, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchBrowser } from '../e2e/harness.js';

const dist = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist');
const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.wasm': 'application/wasm',
  '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml', '.png': 'image/png',
};
/** Lighthouse's "slow 4G" mobile profile (its throughputKbps are 1,024-bit kilobits). */
export const PROFILE = { latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8, cpu: 4 };

/** dist/ served as a host would: a file's .br (or .gz) copy when the browser accepts it.
 * `encodings` lists the copies the host has (ENCODINGS=gzip node perf/slow-load.js: gzip only). */
export async function startCompressedServer(encodings = (process.env.ENCODINGS ?? 'br,gzip').split(',')) {
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    let file = resolve(dist, '.' + path);
    if (!file.startsWith(dist) || path.endsWith('/')) file = join(dist, 'index.html');
    if (!(await stat(file).then((s) => s.isFile(), () => false))) file = join(dist, 'index.html');
    const accepts = req.headers['accept-encoding'] ?? '';
    const headers = { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-cache', vary: 'accept-encoding' };
    for (const [enc, ext] of [['br', '.br'], ['gzip', '.gz']]) {
      if (!accepts.includes(enc) || !encodings.includes(enc)) continue;
      const body = await readFile(file + ext).catch(() => null);
      if (body) { res.writeHead(200, { ...headers, 'content-encoding': enc }); res.end(body); return; }
    }
    res.writeHead(200, headers);
    res.end(await readFile(file));
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  return { url: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((ok) => server.close(ok)) };
}

/** `n` cold loads of `path`; each: ms from navigation start to a usable Publish, and bytes
 * transferred (compressed, headers included) by then. */
export async function slowLoads(browser, url, n = 3) {
  const loads = [];
  for (let i = 0; i < n; i++) {
    const context = await browser.newContext({ viewport: { width: 412, height: 823 }, isMobile: true, hasTouch: true });
    await context.addInitScript(() => {
      window.publishUsable = new Promise((usable) => {
        const watch = new MutationObserver(() => {
          if (!document.querySelector('[data-testid="publish"]')) return;
          watch.disconnect();
          requestAnimationFrame(() => setTimeout(() => usable(performance.now())));
        });
        watch.observe(document, { childList: true, subtree: true });
      });
    });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    let bytes = 0; let counting = true; const files = [];
    cdp.on('Network.loadingFinished', (e) => { if (counting) bytes += e.encodedDataLength; });
    cdp.on('Network.responseReceived', (e) => { if (counting) files.push(new URL(e.response.url).pathname); });
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false, latency: PROFILE.latency, downloadThroughput: PROFILE.downloadThroughput, uploadThroughput: PROFILE.uploadThroughput,
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: PROFILE.cpu });
    await page.goto(url, { waitUntil: 'commit' });
    const ms = await page.evaluate(() => window.publishUsable);
    counting = false;
    loads.push({ ms, bytes, files });
    await context.close();
  }
  return loads;
}

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const server = await startCompressedServer();
  const browser = await launchBrowser();
  try {
    const loads = await slowLoads(browser, server.url, Number(process.env.LOADS ?? 3));
    console.log(`slow network (150 ms RTT, 1.6 Mbit/s down, 750 kbit/s up, CPU 4x), served ${process.env.ENCODINGS ?? 'br,gzip'}: cold load to a usable Publish, median of ${loads.length}: ${median(loads.map((l) => l.ms)).toFixed(0)} ms`
      + ` (each: ${loads.map((l) => l.ms.toFixed(0)).join(', ')} ms; ${median(loads.map((l) => l.bytes))} bytes transferred by then)`);
    if (process.env.VERBOSE) console.log(loads[0].files.join('\n'));
  } finally {
    await browser.close();
    await server.close();
  }
}
