#!/usr/bin/env bash
# Prints the raw and gzip -9 sizes of each page's wasm and JS in the release bundle (run after a
# release build), and fails when any page's wasm + JS gzipped reach the budget: 460,000 bytes,
# the most the project allows (400,000 until the engine grew the routes of issue 16 — SNS
# delivery retries and subscription dead-letter queues, access policies, Lambda asynchronous
# invocation, the outbox — and the one scenario pipeline; EventBridge and those routes are only in
# the routes page). The budget is what one page downloads: each page is its own binary (scripts/build.sh).
# See README, Measurements. Override with SIZE_BUDGET=bytes to try a change against another figure.
set -euo pipefail
cd "$(dirname "$0")/.."
budget=${SIZE_BUDGET:-460000}
gz() { gzip -9 -c "$1" | wc -c; }
status=0
source scripts/pages.sh
for bin in app "${pages[@]}"; do
    wasm=$(ls dist/"$bin"-*_bg.wasm 2>/dev/null | head -1)
    js=$(ls dist/"$bin"-*.js 2>/dev/null | head -1)
    [ -n "$wasm" ] && [ -n "$js" ] || { echo "size: no '$bin' bundle in dist/; run 'make build' first" >&2; exit 1; }
    w_raw=$(wc -c < "$wasm"); w_gz=$(gz "$wasm"); j_raw=$(wc -c < "$js"); j_gz=$(gz "$js")
    total=$((w_gz + j_gz))
    printf 'size: %-8s wasm %s bytes (%s gzip), js %s bytes (%s gzip), total %s bytes gzip (budget %s)\n' \
        "$bin" "$w_raw" "$w_gz" "$j_raw" "$j_gz" "$total" "$budget"
    if [ "$total" -ge "$budget" ]; then
        echo "size: $bin is over budget by $((total - budget)) bytes; see README, Measurements, for what the bundle holds" >&2
        status=1
    fi
done
exit $status
