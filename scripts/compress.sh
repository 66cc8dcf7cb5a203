#!/usr/bin/env bash
# Writes precompressed copies of the release bundle's wasm, JS and CSS beside them in dist/
# (`.gz` always, `.br` when the `brotli` tool is installed), for static hosts that serve a
# precompressed file when the browser accepts it. See README, "Hosting dist/".
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f dist/index.html ] || { echo "compress: no release bundle in dist/; run 'make build' first" >&2; exit 1; }
for f in dist/*.wasm dist/*.js dist/*.css; do
    [ -f "$f" ] || continue
    gzip -9 -k -f "$f"
    if command -v brotli > /dev/null; then brotli -q 11 -k -f "$f"; fi
done
echo "compress: wrote $(ls dist/*.gz dist/*.br 2>/dev/null | wc -l) precompressed files beside the bundle in dist/"
