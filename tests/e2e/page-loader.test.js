// The step of scripts/build.sh that puts a bundle's loader in a page (scripts/page-loader.mjs):
// the loader it writes, and where. The pages it writes are loaded by every other e2e test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { withLoader, loader, tags } from '../../scripts/page-loader.mjs';

const SCRIPT = '/app-0123456789abcdef/app.js';
const WASM = '/app-0123456789abcdef/app_bg.wasm';

test('the loader fetches the bindings and the wasm side by side, then starts the bundle with that wasm', () => {
  const l = loader(SCRIPT, WASM);
  assert.match(l, /<link crossorigin href=\/app-0123456789abcdef\/app\.js rel=modulepreload>/);
  assert.match(l, /<link as=fetch crossorigin href=\/app-0123456789abcdef\/app_bg\.wasm rel=preload type=application\/wasm>/);
  assert.match(l, /<script type=module>import init from"\/app-0123456789abcdef\/app\.js";await init\(\{module_or_path:"\/app-0123456789abcdef\/app_bg\.wasm"\}\);<\/script>/);
  assert.throws(() => loader('/a.js"><script>', WASM), /not a plain site address/);
});

test('the skipped Rust link is replaced, whatever its attributes\' order or quoting; the rest stays', () => {
  for (const link of ['<link data-trunk rel="rust" href="app/Cargo.toml" data-bin="app" data-trunk-skip />',
    '<link data-trunk-skip data-bin=app href=app/Cargo.toml rel=rust data-trunk>',
    '<link rel="rust" data-trunk-skip="" href="a>b">']) {
    const page = `<!doctype html><html><head><link rel=stylesheet href=/style.css>${link}<link rel="icon" href="/icon.svg"></head><body></body></html>`;
    const out = withLoader(page, SCRIPT, WASM);
    assert.equal(out, page.replace(link, loader(SCRIPT, WASM)), link);
  }
});

test('no skipped link, or two, is an error that says so', () => {
  assert.throws(() => withLoader('<html><head><link rel=stylesheet href=/s.css></head></html>', SCRIPT, WASM), /0 links with data-trunk-skip/);
  assert.throws(() => withLoader('<link data-trunk-skip><link data-trunk-skip>', SCRIPT, WASM), /2 links/);
  assert.equal(tags('<linkage data-trunk-skip>', 'link').length, 0, 'another tag whose name starts with "link" is not a link');
});

test('the source pages have the one link the build replaces', () => {
  for (const page of ['index.html', 'embed.html']) {
    const html = readFileSync(new URL(`../../${page}`, import.meta.url), 'utf8');
    assert.equal(tags(html, 'link').filter((t) => t.attrs.includes('data-trunk-skip')).length, 1, page);
  }
});
