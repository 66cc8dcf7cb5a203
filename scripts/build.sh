#!/usr/bin/env bash
# Builds the release bundle in dist/:
#   index.html   the playground (binary `app`): the sandbox, the lessons, compare mode, the
#                interview walkthrough and the export, one app; Trunk also copies public/.
#   lesson.html, compare.html, export.html, routes.html
#                copies of index.html, so that every address the playground has had loads the
#                same bundle (the app reads the address; see app/src/route.rs).
#   embed.html   embed mode, for an iframe in a documentation page (binary `embed`, its own
#                bundle: no other view, so it loads sooner).
# Trunk always writes its page as index.html, so the embed is built into target/pages/embed and
# its page, script and wasm are copied into dist/.
set -euo pipefail
cd "$(dirname "$0")/.."
trunk build --release
source scripts/pages.sh
for view in "${views[@]}"; do
    cp dist/index.html "dist/$view.html"
done
out=target/pages/embed
trunk build embed.html --release true --dist "$out"
cp "$out/index.html" dist/embed.html
cp "$out"/embed-*.js "$out"/embed-*_bg.wasm dist/
