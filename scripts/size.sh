#!/usr/bin/env bash
# Prints what a learner downloads on a first load (wasm + JS of a bundle, raw, gzip -9 and
# brotli -q 11) for the playground (`app`: every view) and the embed, against the budget:
# 600,000 bytes gzip, what the whole engine and every view may cost on a first load.
# The app is over that budget today (issue 33 stays open; docs/performance.md says by how much
# and what the bundle holds), so this script prints the overrun and fails only past a ceiling:
# the current size plus about 1%, so that no change makes it worse unnoticed. Lower the ceiling
# with every saving; when the app is under the budget, the ceiling is the budget.
# Run after a release build. Override with SIZE_BUDGET=bytes or SIZE_CEILING=bytes.
set -euo pipefail
cd "$(dirname "$0")/.."
budget=${SIZE_BUDGET:-600000}
ceiling=${SIZE_CEILING:-784000}
gz() { gzip -9 -c "$1" | wc -c; }
br() { node -e 'const z=require("zlib");process.stdout.write(String(z.brotliCompressSync(require("fs").readFileSync(process.argv[1]),{params:{[z.constants.BROTLI_PARAM_QUALITY]:11}}).length))' "$1"; }
status=0
for bin in app embed; do
    wasm=$(ls dist/"$bin"-*_bg.wasm 2>/dev/null | head -1)
    js=$(ls dist/"$bin"-*.js 2>/dev/null | head -1)
    [ -n "$wasm" ] && [ -n "$js" ] || { echo "size: no '$bin' bundle in dist/; run 'make build' first" >&2; exit 1; }
    w_raw=$(wc -c < "$wasm"); w_gz=$(gz "$wasm"); j_raw=$(wc -c < "$js"); j_gz=$(gz "$js")
    total=$((w_gz + j_gz)); total_br=$(( $(br "$wasm") + $(br "$js") ))
    printf 'size: %-6s wasm %s bytes (%s gzip), js %s bytes (%s gzip), total %s bytes gzip, %s brotli (budget %s gzip)\n' \
        "$bin" "$w_raw" "$w_gz" "$j_raw" "$j_gz" "$total" "$total_br" "$budget"
    if [ "$total" -ge "$ceiling" ]; then
        echo "size: $bin is $total bytes gzip, past the ceiling of $ceiling: a change made the bundle bigger; see docs/performance.md for what it holds" >&2
        status=1
    elif [ "$total" -ge "$budget" ]; then
        echo "size: $bin is over the budget by $((total - budget)) bytes gzip (ceiling $ceiling not reached): the budget is not met yet"
    fi
done
exit $status
