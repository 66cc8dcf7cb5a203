#!/usr/bin/env bash
# Prints the raw and gzip -9 sizes of the release bundle's wasm and JS (run after a release build).
set -euo pipefail
cd "$(dirname "$0")/.."
wasm=$(ls dist/*_bg.wasm 2>/dev/null | head -1)
js=$(ls dist/app-*.js 2>/dev/null | head -1)
[ -n "$wasm" ] && [ -n "$js" ] || { echo "size: no release bundle in dist/; run 'make build' first" >&2; exit 1; }
gz() { gzip -9 -c "$1" | wc -c; }
w_raw=$(wc -c < "$wasm"); w_gz=$(gz "$wasm"); j_raw=$(wc -c < "$js"); j_gz=$(gz "$js")
printf 'size: wasm %s bytes (%s gzip), js %s bytes (%s gzip), total %s bytes gzip\n' "$w_raw" "$w_gz" "$j_raw" "$j_gz" "$((w_gz + j_gz))"
