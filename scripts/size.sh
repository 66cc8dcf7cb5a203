#!/usr/bin/env bash
# Prints what a learner downloads on a first load (raw, gzip -9 and brotli -q 11) for the
# playground (`app`: every view) and the embed, beside a mark of 600,000 bytes gzip each.
# A first load is the main wasm and every script of the bundle (wasm + JS). The app's other views
# (lessons, compare, interview, drills, export) are modules of their own, fetched once the first
# screen is up (scripts/build.sh): printed beside it, not counted in it.
# Bytes are a signal, not the goal: it says when a first load is over 600,000 bytes gzip, and
# does not fail (the budget is the learner's seconds: `make perf`, docs/performance.md).
# Run after a release build. Override the mark with SIZE_BUDGET=bytes.
set -euo pipefail
cd "$(dirname "$0")/.."
budget=${SIZE_BUDGET:-600000}
gzeach() { local n=0 f; for f in "$@"; do n=$((n + $(gzip -9 -c "$f" | wc -c))); done; echo $n; }
br() { node -e 'const z=require("zlib");let n=0;for(const f of process.argv.slice(1))n+=z.brotliCompressSync(require("fs").readFileSync(f),{params:{[z.constants.BROTLI_PARAM_QUALITY]:11}}).length;process.stdout.write(String(n))' "$@"; }
status=0
for bin in app embed; do
    # The bundle's directory, dist/<bin>-<hash>/ (scripts/build.sh).
    wasm=$(ls dist/"$bin"-*/"${bin}_bg.wasm" 2>/dev/null | head -1)
    mapfile -t js < <(ls dist/"$bin"-*/*.js 2>/dev/null)
    [ -n "$wasm" ] && [ "${#js[@]}" -gt 0 ] || { echo "size: no '$bin' bundle in dist/; run 'make build' first" >&2; exit 1; }
    w_raw=$(wc -c < "$wasm"); w_gz=$(gzeach "$wasm"); j_raw=$(cat "${js[@]}" | wc -c); j_gz=$(gzeach "${js[@]}")
    total=$((w_gz + j_gz)); total_br=$(br "$wasm" "${js[@]}")
    printf 'size: %-6s first load: wasm %s bytes (%s gzip), js %s bytes (%s gzip), total %s bytes gzip, %s brotli (mark %s gzip)\n' \
        "$bin" "$w_raw" "$w_gz" "$j_raw" "$j_gz" "$total" "$total_br" "$budget"
    mapfile -t modules < <(ls dist/"$bin"-*/*.wasm 2>/dev/null | grep -vx "dist/$bin-[0-9a-f]*/${bin}_bg\.wasm" || true)
    if [ "${#modules[@]}" -gt 0 ]; then
        printf 'size: %-6s the views'"'"' modules, fetched after the first screen: %s files, %s bytes gzip, %s brotli\n' \
            "$bin" "${#modules[@]}" "$(gzeach "${modules[@]}")" "$(br "${modules[@]}")"
    fi
    if [ "$total" -gt "$budget" ]; then
        echo "size: note: $bin's first load is $total bytes gzip, over the mark of $budget by $((total - budget)); see docs/performance.md for what it holds and what the learner waits"
    fi
done
exit $status
