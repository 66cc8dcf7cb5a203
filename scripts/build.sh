#!/usr/bin/env bash
# Builds the release bundle in dist/. Each page is its own Trunk target with its own binary of
# the app crate, so a page's wasm carries only the code that page draws:
#   index.html    the sandbox (binary `app`), which also copies public/ into dist/
#   compare.html  compare mode and the interview walkthrough (binary `compare`)
#   embed.html    embed mode, for an iframe in a documentation page (binary `embed`)
#   export.html   the story as CloudFormation, boto3 or AWS CLI (binary `export`)
#   lesson.html   the lesson overview and the lessons (binary `lesson`)
#   routes.html   EventBridge and the other routes (binary `routes`, the app's `routes` feature)
# Trunk always writes its page as index.html, so the other pages are built into target/pages/
# and their page, script and wasm are copied into dist/ under the page's own name.
set -euo pipefail
cd "$(dirname "$0")/.."
trunk build --release
source scripts/pages.sh
for page in "${pages[@]}"; do
    out=target/pages/$page
    trunk build "$page.html" --release true --dist "$out"
    cp "$out/index.html" "dist/$page.html"
    cp "$out/$page"-*.js "$out/$page"-*_bg.wasm dist/
done
