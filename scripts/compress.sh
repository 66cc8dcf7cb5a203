#!/usr/bin/env bash
# Writes precompressed copies of the release bundle's wasm, JS and CSS beside them in dist/
# (`.br`, brotli quality 11, and `.gz`, gzip -9; brotli by Node's zlib, so no other tool is
# needed), for static hosts that serve a precompressed file when the browser accepts it.
# See docs/building.md, "Hosting dist/".
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f dist/index.html ] || { echo "compress: no release bundle in dist/; run 'make build' first" >&2; exit 1; }
node - <<'JS'
const { readdirSync, readFileSync, writeFileSync, statSync } = require('node:fs');
const { join } = require('node:path');
const z = require('node:zlib');
const files = [];
const walk = (dir) => { for (const f of readdirSync(dir)) { const p = join(dir, f); if (statSync(p).isDirectory()) walk(p); else if (/\.(wasm|js|css|json|svg|html)$/.test(f)) files.push(p); } };
walk('dist');
for (const f of files) {
  const body = readFileSync(f);
  writeFileSync(f + '.br', z.brotliCompressSync(body, { params: { [z.constants.BROTLI_PARAM_QUALITY]: 11, [z.constants.BROTLI_PARAM_SIZE_HINT]: body.length } }));
  writeFileSync(f + '.gz', z.gzipSync(body, { level: 9 }));
}
console.log(`compress: wrote .br and .gz copies of ${files.length} files in dist/`);
JS
