// Measures the playground in Debian's headless Chromium against the release build in dist/:
// first paint, frame times with 500 messages on screen at 16x, scrubbing a 10,000-event
// history and a busy one (workers consuming), and the gzipped bundle. A measurement, not a test: it prints the figures of docs/performance.md.
// Run: make perf (or: cd tests && node perf/measure.js)
import { startServer, launchBrowser, stageBuilt, viewsLoaded } from '../e2e/harness.js';
import { startDocs } from '../e2e/docs-server.js';
import { startCompressedServer, slowLoads, median } from './slow-load.js';
import { readdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';

const dist = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist');
const pct = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p / 100 * s.length))]; };
const ms = (x) => `${x.toFixed(1)} ms`;

/** The workers scenario with 300 orders (900 messages) playing at 64x: frame times over 3 s. */
async function workers900(page) {
  await page.getByTestId('scenario-picker').selectOption('workers');
  // Scenarios are fetched: publish only once the workers scenario is drawn.
  await page.getByTestId('diagram-consumer-packing-w2').waitFor();
  await page.evaluate(async () => {
    const button = document.querySelector('[data-testid="publish"]');
    for (let i = 0; i < 300; i++) button.click();
    await new Promise((r) => requestAnimationFrame(() => r()));
  });
  await page.getByTestId('speed').selectOption({ label: '64×' });
  const frames = await page.evaluate(() => new Promise((done) => {
    document.querySelector('[data-testid="play-pause"]').click();
    const deltas = []; let last = performance.now(); const end = last + 3000;
    const tick = (t) => { deltas.push(t - last); last = t; if (t < end) requestAnimationFrame(tick); else done(deltas); };
    requestAnimationFrame(tick);
  }));
  return frames.slice(1);
}

const server = await startServer();
const browser = await launchBrowser();
const results = {};
try {
  // 1. First paint and first interactive, 5 cold loads.
  const paints = []; const ready = [];
  for (let i = 0; i < 5; i++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    const page = await context.newPage();
    const start = Date.now();
    await page.goto(server.url);
    await page.getByTestId('publish').waitFor();
    ready.push(Date.now() - start);
    const fcp = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN);
    paints.push(fcp);
    await context.close();
  }
  results.firstContentfulPaint = pct(paints, 50);
  results.firstInteractive = pct(ready, 50);

  // 1b. The same cold load with the CPU throttled 4x (a mid-range phone), 5 loads of each kind,
  // taken in turns. Time to interactive is timed by the page itself, from its navigation start:
  // when the frame that paints Publish is done and the tasks queued before it have run (a click
  // then gets an answer at once). Publish's arrival in the DOM is noted too. In the first kind
  // nothing of Playwright's runs in the page until then: the test waits on a promise of the page's
  // own. The second kind waits as the e2e tests do, with `waitFor`, whose script (60 to 90 ms of
  // main thread at 4x) runs in the page during the load, and whose checks come 100 to 500 ms
  // apart; its wall-clock figure is the one this section printed until 2026-12-04.
  const slow = []; const added = []; const painted = []; const seenPainted = []; const viewsIn = [];
  for (let i = 0; i < 10; i++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    await context.addInitScript(() => {
      window.publishShown = new Promise((shown) => {
        const watch = new MutationObserver(() => {
          if (!document.querySelector('[data-testid="publish"]')) return;
          watch.disconnect();
          const added = performance.now();
          requestAnimationFrame(() => setTimeout(() => shown({ added, painted: performance.now() })));
        });
        watch.observe(document, { childList: true, subtree: true });
      });
    });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    const start = Date.now();
    await page.goto(server.url);
    if (i % 2 === 0) {
      const shown = await page.evaluate(() => window.publishShown);
      added.push(shown.added); painted.push(shown.painted);
      // The other views' modules, fetched once the first screen is up: when are they all in?
      viewsIn.push(await page.evaluate(() => new Promise((done) => {
        const html = document.documentElement;
        if (html.dataset.views === 'loaded') { done(performance.now()); return; }
        new MutationObserver((_, watch) => { if (html.dataset.views === 'loaded') { watch.disconnect(); done(performance.now()); } })
          .observe(html, { attributes: true, attributeFilter: ['data-views'] });
      })));
      assert(await page.getByTestId('publish').isVisible(), 'Publish is on the first screen');
    } else {
      await page.getByTestId('publish').waitFor();
      slow.push(Date.now() - start);
      seenPainted.push((await page.evaluate(() => window.publishShown)).painted);
    }
    await context.close();
  }
  results.slowInteractive = pct(slow, 50);
  results.slowAdded = pct(added, 50);
  results.slowPainted = pct(painted, 50);
  results.slowPaintedAll = painted;
  results.viewsIn = pct(viewsIn, 50);
  results.slowSeenPainted = pct(seenPainted, 50);

  // 1e. The learner's wait on a phone on a slow network (Lighthouse's mobile profile: 150 ms round
  // trip, 1.6 Mbit/s down, 750 kbit/s up, CPU 4x slower), dist/ served brotli-compressed as a host
  // does (docs/building.md): navigation start to a usable Publish, median of 3 cold loads
  // (perf/slow-load.js, which also runs alone).
  {
    const compressed = await startCompressedServer();
    const loads = await slowLoads(browser, compressed.url, 3);
    await compressed.close();
    results.slowNetwork = median(loads.map((l) => l.ms));
    results.slowNetworkAll = loads.map((l) => l.ms);
    results.slowNetworkBytes = median(loads.map((l) => l.bytes));
  }

  // 1c. A lesson opened cold, CPU 4x slower: until its panel's text is painted (timed in the page,
  // as 1b), 5 loads.
  const lessonPainted = [];
  for (let i = 0; i < 5; i++) {
    const c = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    await c.addInitScript(() => {
      window.lessonShown = new Promise((shown) => {
        const watch = new MutationObserver(() => {
          if (!document.querySelector('[data-testid="lesson-text"]')) return;
          watch.disconnect();
          requestAnimationFrame(() => setTimeout(() => shown(performance.now())));
        });
        watch.observe(document, { childList: true, subtree: true });
      });
    });
    const p = await c.newPage();
    await (await c.newCDPSession(p)).send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await p.goto(server.url + 'lesson.html?lesson=visibility-timeout');
    lessonPainted.push(await p.evaluate(() => window.lessonShown));
    await c.close();
  }
  results.lessonCold = pct(lessonPainted, 50);
  results.lessonColdAll = lessonPainted;

  // 1d. Moving between views, CPU 4x slower: from the click on the header's link to the frame that
  // paints the view's first control; no wasm or script may be fetched on the way. Three rounds of
  // sandbox → lessons → a lesson → compare → sandbox; the median of each move.
  {
    const c = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    const p = await c.newPage();
    await p.goto(server.url);
    await p.getByTestId('publish').waitFor();
    await stageBuilt(p);
    await viewsLoaded(p);
    const fetched = [];
    p.on('request', (r) => { if (/\.(wasm|js)$/.test(new URL(r.url()).pathname)) fetched.push(r.url()); });
    await (await c.newCDPSession(p)).send('Emulation.setCPUThrottlingRate', { rate: 4 });
    const moves = [['nav-lessons', 'lesson-open-visibility-timeout'], ['lesson-open-visibility-timeout', 'lesson-text'],
      ['nav-compare', 'fault-sms-slow'], ['nav-playground', 'publish']];
    const times = {};
    for (let round = 0; round < 3; round++) {
      for (const [click, shown] of moves) {
        const t = await p.evaluate(([click, shown]) => new Promise((done) => {
          const start = performance.now();
          const watch = () => {
            if (document.querySelector(`[data-testid="${shown}"]`)) requestAnimationFrame(() => setTimeout(() => done(performance.now() - start)));
            else requestAnimationFrame(watch);
          };
          document.querySelector(`[data-testid="${click}"]`).click();
          watch();
        }), [click, shown]);
        (times[`${click} → ${shown}`] ??= []).push(t);
      }
    }
    results.switches = Object.entries(times).map(([k, ts]) => [k, pct(ts, 50)]);
    results.switchFetched = fetched.length;
    await c.close();
  }

  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const page = await context.newPage();
  await page.goto(server.url);
  await page.getByTestId('publish').waitFor();
  await stageBuilt(page);

  // 2. 500 messages on screen, playing at 16x: frame times over 5 s.
  await page.evaluate(async () => {
    const button = document.querySelector('[data-testid="publish"]');
    for (let i = 0; i < 170; i++) button.click();
    await new Promise((r) => requestAnimationFrame(() => r()));
    // Every card lists all its messages (its scrolling list), not only its first chips.
    for (const b of document.querySelectorAll('[data-testid$="-show-all"]')) b.click();
    await new Promise((r) => requestAnimationFrame(() => r()));
  });
  results.chips = await page.evaluate(() => document.querySelectorAll('.chip').length);
  await page.getByTestId('speed').selectOption({ label: '16×' });
  await page.getByTestId('play-pause').click();
  const frames = await page.evaluate(() => new Promise((done) => {
    const deltas = []; let last = performance.now(); const end = last + 5000;
    const tick = (t) => { deltas.push(t - last); last = t; if (t < end) requestAnimationFrame(tick); else done(deltas); };
    requestAnimationFrame(tick);
  }));
  await page.getByTestId('play-pause').click();
  results.frameP50 = pct(frames, 50);
  results.frameP95 = pct(frames, 95);
  results.fps = 1000 / pct(frames, 50);

  // 3. A 10,000-event history: publish until the log is that long, then scrub.
  await page.getByTestId('reset').click();
  results.events = await page.evaluate(async () => {
    const button = document.querySelector('[data-testid="publish"]');
    for (let i = 0; i < 2500; i++) button.click();
    await new Promise((r) => requestAnimationFrame(() => r()));
    return Number(document.querySelector('[data-testid="event-log"] li')?.dataset.seq ?? 0) + 1;
  });
  // Spread the story over time so the timeline has range to scrub: play a minute at 64x.
  await page.getByTestId('speed').selectOption({ label: '64×' });
  await page.getByTestId('play-pause').click();
  await page.waitForTimeout(1000);
  await page.getByTestId('play-pause').click();
  // Each move: from the input event until the next frame is drawn (frame-quantised: at least
  // the rest of the current frame), and the work it costs the main thread: the handlers, the
  // effects they schedule (microtasks, then a task after them) and the style and layout they
  // leave (forced), measured from a move started at the beginning of a frame.
  const scrub = (work) => page.evaluate(async (work) => {
    const el = document.querySelector('[data-testid="timeline"]');
    const max = Number(el.max); const times = [];
    const task = () => new Promise((r) => { const c = new MessageChannel(); c.port1.onmessage = () => r(); c.port2.postMessage(0); });
    for (let i = 0; i < 30; i++) {
      if (work) await new Promise((r) => requestAnimationFrame(() => r()));
      const clock = document.querySelector('[data-testid="clock"]').textContent;
      const t0 = performance.now();
      el.value = String(Math.floor(((i * 7919) % 30) / 30 * max));
      el.dispatchEvent(new Event('input', { bubbles: true }));
      if (work) {
        await task();
        document.body.getBoundingClientRect();
        // The move is drawn by then (its clock shows the new time), or it does not count.
        if (document.querySelector('[data-testid="clock"]').textContent === clock) continue;
      } else {
        await new Promise((r) => requestAnimationFrame(() => r()));
      }
      times.push(performance.now() - t0);
    }
    return times;
  }, work);
  const scrubs = await scrub(false);
  results.scrubP50 = pct(scrubs, 50);
  results.scrubP95 = pct(scrubs, 95);
  results.scrubMax = Math.max(...scrubs);
  const works = await scrub(true);
  results.scrubWorkP50 = pct(works, 50);
  results.scrubWorkP95 = pct(works, 95);
  results.scrubWorkMax = Math.max(...works);
  results.scrubWorkMoves = works.length;

  // 4. A busy history: workers consuming 300 orders for two virtual minutes, so something
  // happens all along the timeline and a seek back has to rebuild from a checkpoint.
  // 900 messages (300 orders, three queues) playing at 64x, then on for two virtual minutes.
  const frames900 = await workers900(page);
  results.frame900P50 = pct(frames900, 50);
  results.frame900P95 = pct(frames900, 95);
  await page.waitForFunction(() => document.querySelector('[data-testid="clock"]').textContent.trim() >= '00:02:00.000');
  await page.getByTestId('play-pause').click();
  results.busyEvents = await page.evaluate(() => Number(document.querySelector('[data-testid="event-log"] li')?.dataset.seq ?? 0) + 1);
  const busy = await scrub(false);
  results.busyP50 = pct(busy, 50);
  results.busyP95 = pct(busy, 95);
  results.busyMax = Math.max(...busy);
  // Step back and undo in that story: from the click until the next frame is drawn.
  const untilDrawn = (testid, times) => page.evaluate(async ([testid, times]) => {
    const out = [];
    for (let i = 0; i < times; i++) {
      const el = document.querySelector(`[data-testid="${testid}"]`);
      if (!el || el.disabled) break;
      const t0 = performance.now();
      el.click();
      await new Promise((r) => requestAnimationFrame(() => r()));
      out.push(performance.now() - t0);
    }
    return out;
  }, [testid, times]);
  const backs = await untilDrawn('step-back', 10);
  results.stepBackP50 = pct(backs, 50); results.stepBackMax = Math.max(...backs);
  const undos = await untilDrawn('undo', 10);
  results.undoP50 = pct(undos, 50); results.undoMax = Math.max(...undos);
  results.undos = undos.length;

  // Nothing changes: the quilt store's 900 stored messages wait (no worker) while the clock
  // plays at 64x. The main thread's share of busy time over 3 s (CDP task durations): once in
  // this page, after the sections above, and once in a fresh page (5c), where nothing the
  // earlier sections left behind (their histories, the garbage they made) is counted.
  results.idleBusy = await idleBusy(context, page);
  await context.close();

  // 5b. The same 900 messages at 64x in a fresh page (the figure above comes after the 2,500
  // publishes and scrubs of section 3 in the same page, which slows frames down).
  {
    const c = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    const q = await c.newPage();
    await q.goto(server.url);
    await q.getByTestId('publish').waitFor();
    await stageBuilt(q);
    const f = await workers900(q);
    results.fresh900P50 = pct(f, 50);
    results.fresh900P95 = pct(f, 95);
    await c.close();
  }

  // 5c. Nothing changing, as above, in a fresh page.
  {
    const c = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    const q = await c.newPage();
    await q.goto(server.url);
    await q.getByTestId('publish').waitFor();
    await stageBuilt(q);
    results.freshIdleBusy = await idleBusy(c, q);
    await c.close();
  }

  // 6. The example page's three embeds (another origin), CPU throttled 4x: until every visible
  // embed's controls are live (its play button drawn), median of 3 cold loads.
  const docs = await startDocs(server.url);
  const embedTimes = [];
  for (let i = 0; i < 3; i++) {
    const ctx = await browser.newContext({ viewport: { width: 900, height: 3000 } });
    const p = await ctx.newPage();
    const cdp = await ctx.newCDPSession(p);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    const start = Date.now();
    await p.goto(docs.url);
    await p.waitForFunction(() => document.querySelectorAll('iframe[data-fanout]').length === 3);
    const live = async () => {
      const frames = p.frames().filter((f) => f.url().includes('embed=1'));
      if (frames.length < 3) return false;
      for (const f of frames) if (!(await f.locator('[data-testid="play-pause"]').count())) return false;
      return true;
    };
    while (!(await live())) await p.waitForTimeout(20);
    embedTimes.push(Date.now() - start);
    await ctx.close();
  }
  await docs.close();
  results.embedInteractive = pct(embedTimes, 50);

  // 7. A share link of 50 commands: opened (replayed and drawn) in a new page, median of 5.
  {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    const p = await ctx.newPage();
    await p.goto(server.url);
    await p.getByTestId('publish').click();
    for (let i = 0; i < 24; i++) {
      await p.getByTestId('publish').click();
      await p.getByTestId('queue-billing-receive').click();
    }
    await p.getByTestId('publish').click();
    await p.getByTestId('share-copy').click();
    await p.getByTestId('share-link').waitFor();
    const link = await p.getByTestId('share-link').inputValue();
    const clock = (await p.getByTestId('clock').textContent()).trim();
    results.shareLinkChars = link.length;
    await ctx.close();
    const opensFor = async (url, want) => { const opens = [];
    for (let i = 0; i < 5; i++) {
      const c = await browser.newContext({ viewport: { width: 1280, height: 860 } });
      const q = await c.newPage();
      await q.goto(server.url);
      await q.getByTestId('publish').waitFor();
      const t = await q.evaluate(async ([url, want]) => {
        const t0 = performance.now();
        return new Promise((done) => {
          const frame = document.createElement('iframe');
          frame.style.cssText = 'width:1280px;height:860px;position:absolute;left:0;top:0';
          frame.onload = () => {
            const poll = () => {
              const c = frame.contentDocument?.querySelector('[data-testid="clock"]');
              if (c && c.textContent.trim() === want && frame.contentDocument.querySelector('[data-testid="queue-billing-visible"]')) {
                requestAnimationFrame(() => done(performance.now() - t0));
              } else requestAnimationFrame(poll);
            };
            poll();
          };
          frame.src = url;
          document.body.append(frame);
        });
      }, [url, want]);
      opens.push(t);
      await c.close();
    }
    return pct(opens, 50); };
    results.shareOpen = await opensFor(link, clock);
    results.plainOpen = await opensFor(server.url, '00:00:00.000');
  }
} finally {
  await browser.close();
  await server.close();
}

const files = readdirSync(dist);
const gz = (f) => gzipSync(readFileSync(join(dist, f)), { level: 9 }).length;
// The app (every view) and the embed: each its wasm and its JS, by the binary's name.
results.gzip = {};
// The first load is the main wasm and every script of the bundle (the app's loader of its views'
// modules included); the views' modules come after the first screen.
for (const page of ['app', 'embed']) {
  // The bundle's directory, dist/<page>-<hash>/ (scripts/build.sh).
  const dir = files.find((f) => f.startsWith(`${page}-`) && !f.includes('.'));
  if (!dir) continue;
  const inDir = readdirSync(join(dist, dir)).map((f) => join(dir, f));
  const wasm = inDir.find((f) => f.endsWith(`/${page}_bg.wasm`));
  const js = inDir.filter((f) => f.endsWith('.js'));
  if (wasm && js.length) results.gzip[page] = gz(wasm) + js.reduce((n, f) => n + gz(f), 0);
}

console.log('Fan-out Playground performance (headless Chromium, loopback server, release build)');
console.log(`  first contentful paint (median of 5)    ${ms(results.firstContentfulPaint)}`);
console.log(`  first interactive (median of 5)         ${results.firstInteractive} ms`);
console.log(`  ${results.chips} message chips at 16x: frame p50 ${ms(results.frameP50)}, p95 ${ms(results.frameP95)} (${results.fps.toFixed(0)} fps at p50)`);
console.log(`  scrubbing a ${results.events}-event history: p50 ${ms(results.scrubP50)}, p95 ${ms(results.scrubP95)}, max ${ms(results.scrubMax)} to the next drawn frame; main-thread work (${results.scrubWorkMoves} moves that changed the clock) p50 ${ms(results.scrubWorkP50)}, p95 ${ms(results.scrubWorkP95)}, max ${ms(results.scrubWorkMax)}`);
console.log(`  cold load, CPU 4x slower: interactive (Publish painted, timed in the page) at ${results.slowPainted.toFixed(0)} ms (median of 5: ${results.slowPaintedAll.map((t) => t.toFixed(0)).join(', ')}); Publish added at ${results.slowAdded.toFixed(0)} ms`);
console.log(`    the same load with Playwright's waitFor in the page: it saw Publish at ${results.slowInteractive} ms (median of 5), painted in the page at ${results.slowSeenPainted.toFixed(0)} ms`);
console.log(`    every other view's module in (html[data-views="loaded"]) at ${results.viewsIn.toFixed(0)} ms (median of 5)`);
console.log(`  slow network (150 ms RTT, 1.6 Mbit/s down, 750 kbit/s up, CPU 4x slower), served brotli: cold load to a usable Publish at ${results.slowNetwork.toFixed(0)} ms (median of 3: ${results.slowNetworkAll.map((t) => t.toFixed(0)).join(', ')}; ${results.slowNetworkBytes} bytes transferred by then) (target 3,000 ms)`);
console.log(`  a lesson opened cold, CPU 4x slower: its text painted at ${results.lessonCold.toFixed(0)} ms (median of 5: ${results.lessonColdAll.map((t) => t.toFixed(0)).join(', ')})`);
console.log(`  moving between views, CPU 4x slower (click to the new view's first control painted, median of 3): ${results.switches.map(([k, t]) => `${k} ${t.toFixed(0)} ms`).join('; ')}; scripts or wasm fetched on the way: ${results.switchFetched}`);
console.log(`  workers, 300 orders (900 messages) playing at 64x: frame p50 ${ms(results.frame900P50)}, p95 ${ms(results.frame900P95)} after the 10,000-event story in the same page; in a fresh page p50 ${ms(results.fresh900P50)}, p95 ${ms(results.fresh900P95)}`);
console.log(`  scrubbing that busy ${results.busyEvents}-event history (workers): p50 ${ms(results.busyP50)}, p95 ${ms(results.busyP95)}, max ${ms(results.busyMax)}`);
console.log(`  step back in it: p50 ${ms(results.stepBackP50)}, max ${ms(results.stepBackMax)}; undo (${results.undos}): p50 ${ms(results.undoP50)}, max ${ms(results.undoMax)} (click to drawn frame)`);
console.log(`  nothing changing (900 stored messages, no consumer, playing at 64x): main thread ${(results.idleBusy * 100).toFixed(1)}% busy after the sections above in the same page, ${(results.freshIdleBusy * 100).toFixed(1)}% in a fresh page`);
console.log(`  three embeds on the example page, CPU 4x slower: interactive at ${results.embedInteractive} ms (median of 3)`);
console.log(`  a share link of 50 commands (${results.shareLinkChars} characters) opened, replayed and drawn: ${ms(results.shareOpen)} (median of 5, page load included; the page without a link: ${ms(results.plainOpen)})`);
console.log(`  bundles (wasm + JS, Node's gzip -9): ${Object.entries(results.gzip).map(([p, n]) => `${p} ${n}`).join(', ')} bytes`);

// The main thread's share of busy time (CDP task durations) over 3 s while the quilt store's
// 900 stored messages wait with no consumer and the clock plays at 64x.
async function idleBusy(context, page) {
  await page.getByTestId('scenario-picker').selectOption('quilt-store');
  await page.getByTestId('diagram-topic-order-events').waitFor();
  await page.waitForFunction(() => !document.querySelector('[data-testid="diagram-consumer-packing-w1"]'));
  await page.evaluate(async () => {
    const button = document.querySelector('[data-testid="publish"]');
    for (let i = 0; i < 300; i++) button.click();
    await new Promise((r) => requestAnimationFrame(() => r()));
  });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  const task = async () => (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'TaskDuration').value;
  await page.getByTestId('play-pause').click();
  await page.waitForTimeout(500);
  const [t0, w0] = [await task(), Date.now()];
  await page.waitForTimeout(3000);
  const [t1, w1] = [await task(), Date.now()];
  await page.getByTestId('play-pause').click();
  return (t1 - t0) * 1000 / (w1 - w0);
}
