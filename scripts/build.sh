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
# The browser bundles compile the standard library with them, at the bundle's own settings
# (opt-level z, LTO into one unit), and compile a panic to a trap: no panic message, location or
# formatting code is shipped (the engine never panics on any input; a panic was an abort before).
# This saves 41 KB gzip in the app; docs/performance.md has the figures. It needs rust-src
# (scripts/bootstrap.sh adds it) and unstable cargo flags, which RUSTC_BOOTSTRAP allows on the
# pinned stable toolchain for this build only: tests, clippy and the CLI use the plain build.
export RUSTC_BOOTSTRAP=1
export CARGO_UNSTABLE_BUILD_STD=std,panic_abort
# -inline-threshold=0: LLVM inlines only what must be (7 KB gzip; the frame and scrub figures of
# docs/performance.md hold). PANIC_MESSAGES=1 keeps panic messages, for finding a bug.
flags="-Cllvm-args=-inline-threshold=0"
[ -n "${PANIC_MESSAGES:-}" ] || flags="-Zunstable-options -Cpanic=immediate-abort $flags"
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="$flags"
trunk build --release
source scripts/pages.sh
for view in "${views[@]}"; do
    cp dist/index.html "dist/$view.html"
done
out=target/pages/embed
trunk build embed.html --release true --dist "$out"
cp "$out/index.html" dist/embed.html
cp "$out"/embed-*.js "$out"/embed-*_bg.wasm dist/
