// Puts a bundle's loader in a page Trunk wrote: node scripts/page-loader.mjs PAGE SCRIPT WASM
// (SCRIPT and WASM are the bundle's bindings and main wasm, as addresses from the site's root).
// The loader takes the place of the page's Rust link marked data-trunk-skip, which Trunk leaves
// in the page (scripts/build.sh builds the bundle, Trunk cannot split a wasm): the link is found
// by reading the page's tags and their attributes, not by a pattern, and the step fails, saying
// why, unless there is exactly one. Tested by tests/e2e/page-loader.test.js; the pages that load
// it, by the end-to-end tests.
import { readFileSync, writeFileSync } from 'node:fs';

/** The loader: the bindings and the wasm fetched at once, side by side (the browser compiles the
 * wasm as it streams in), then started. */
export function loader(script, wasm) {
  for (const url of [script, wasm]) {
    if (!/^\/[\w./-]+$/.test(url)) throw new Error(`page-loader: not a plain site address: ${url}`);
  }
  return `<link crossorigin href=${script} rel=modulepreload>`
    + `<link as=fetch crossorigin href=${wasm} rel=preload type=application/wasm>`
    + `<script type=module>import init from"${script}";await init({module_or_path:"${wasm}"});</script>`;
}

/** The tags named `name` in `html`: where each starts and ends, and its attributes' names. */
export function tags(html, name) {
  const out = [];
  const open = `<${name}`;
  for (let at = html.indexOf(open); at !== -1; at = html.indexOf(open, at + 1)) {
    const after = html[at + open.length];
    if (after !== ' ' && after !== '\n' && after !== '\t' && after !== '/' && after !== '>') continue;
    let i = at + open.length; let quote = null; const attrs = []; let word = '';
    for (; i < html.length; i++) {
      const c = html[i];
      if (quote) { if (c === quote) quote = null; continue; }
      if (c === '"' || c === "'") { quote = c; continue; }
      if (c === '>' || c === ' ' || c === '\n' || c === '\t' || c === '=' || c === '/') {
        if (word && !(html[i - word.length - 1] === '=')) attrs.push(word.toLowerCase());
        word = '';
        if (c === '>') break;
        continue;
      }
      word += c;
    }
    out.push({ start: at, end: i + 1, attrs });
  }
  return out;
}

/** `page` with its one skipped Rust link replaced by the loader. */
export function withLoader(page, script, wasm) {
  const skipped = tags(page, 'link').filter((t) => t.attrs.includes('data-trunk-skip'));
  if (skipped.length !== 1) throw new Error(`page-loader: ${skipped.length} links with data-trunk-skip in the page (want 1)`);
  const [{ start, end }] = skipped;
  return page.slice(0, start) + loader(script, wasm) + page.slice(end);
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const [page, script, wasm] = process.argv.slice(2);
  try {
    writeFileSync(page, withLoader(readFileSync(page, 'utf8'), script, wasm));
  } catch (e) {
    console.error(`${page}: ${e.message}`);
    process.exit(1);
  }
}
