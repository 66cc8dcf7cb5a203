#!/usr/bin/env bash
# `make dev`: the playground for working on it. Trunk builds the app unsplit (binary `dev`,
# app/src/bin/dev.rs) in a debug build that keeps panic messages, serves it on 127.0.0.1:PORT
# (8081, or the next free port) and rebuilds it when a file under app/, engine/ or public/ changes
# (reload the page to see it). Not the release bundle: no split, no wasm-opt, no embed page.
set -euo pipefail
cd "$(dirname "$0")/.."
want=${1:-8081}
who=dev hint="make dev DEV_PORT"
# shellcheck source=free-port.sh
. scripts/free-port.sh
# Trunk's page for it: index.html with the dev binary, which Trunk builds itself (the release page
# skips its Rust link: scripts/build.sh builds the split bundle). Written beside index.html, so
# that its links resolve as index.html's do; git ignores it.
node scripts/dev-page.mjs index.html dev.html
echo "dev: building the app (debug, unsplit) and serving it on http://127.0.0.1:$port/ (Ctrl-C stops it)"
exec trunk serve dev.html --dist target/dev-dist --port "$port" --no-autoreload \
    --watch app --watch engine/src --watch public --watch index.html
