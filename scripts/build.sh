#!/usr/bin/env bash
# Builds the release bundle in dist/:
#   index.html   the playground (binary `app`): the sandbox, the lessons, compare mode, the
#                interview walkthrough, the drills and the export, one app; Trunk copies public/.
#                Its wasm is split (wasm-split-cli): the first load holds the engine, Leptos and
#                the sandbox; each other view's own code is a module of its own, fetched when the
#                first screen is up (so that moving to the view fetches nothing), or at once when
#                the address opens that view.
#   lesson.html, compare.html, export.html, routes.html
#                copies of index.html, so that every address the playground has had loads the
#                same bundle (the app reads the address; see app/src/route.rs).
#   embed.html   embed mode, for an iframe in a documentation page (binary `embed`, its own
#                bundle, built by Trunk: no other view, so it loads sooner).
# Trunk always writes its page as index.html, so the embed is built into target/pages/embed and
# its page, script and wasm are copied into dist/.
set -euo pipefail
cd "$(dirname "$0")/.."
# The stable compiler of rust-toolchain.toml, with no unstable flag: the standard library is the
# one rustup ships for wasm32 (the bundle once compiled its own with -Zbuild-std and a panic to a
# bare trap, -Cpanic=immediate-abort, 49 KB gzip smaller, on RUSTC_BOOTSTRAP; docs/performance.md).
# A panic aborts (profile wasm-release) after console_error_panic_hook has logged its message.
# -inline-threshold=0: LLVM inlines only what must be (7 KB gzip; the frame and scrub figures of
# docs/performance.md hold). --emit-relocs keeps what wasm-split-cli needs to split the app (the
# embed gets it too, so that both builds share their compiled crates; wasm-opt drops it).
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="-Cllvm-args=-inline-threshold=0 -Clink-args=--emit-relocs"

# wasm-opt warns of what wasm-split-cli leaves in a module and it then drops: a linking section
# (the split's relocations, of no use after it) and a name subsection it does not know. Every
# other message is shown.
quiet() { grep -v -e 'linking section is present' -e 'unknown name subsection' || true; }

# Builds binary $1 into dist/<bin>-<hash>/ and puts its loader in page $2 (a Trunk page whose
# Rust link has data-trunk-skip). wasm-split-cli splits the wasm at the app's split functions
# (app/src/main.rs; the embed has none: its wasm stays whole, and the tool only drops what the
# split needs, the relocations). Every file the tools write keeps the name they gave it, in a
# directory named by the bundle's content (so that a host's cache never mixes two builds): the
# tools' references between their files (the bindings' import of __wasm_split.js, its URLs of the
# modules, relative to itself) hold as written, and nothing edits their output.
bundle() {
    local bin=$1 page=$2
    cargo build --offline --locked --profile wasm-release --target wasm32-unknown-unknown -p app --bin "$bin"
    local input="target/wasm32-unknown-unknown/wasm-release/$bin.wasm"
    local dir="$bin-$(sha256sum "$input" | cut -c1-16)"
    local split="target/pages/split-$bin"
    rm -rf "$split" "dist/$bin"-*/ && mkdir -p "$split/out" "dist/$dir"
    wasm-split-cli "$input" "$split/out" --target web --out-name "$bin"
    # The modules: every wasm wasm-split-cli wrote but the main one (none for the embed). A split
    # wasm keeps the linker's exports: the modules call into the main one through them.
    local keep=() modules=() f
    for f in "$split/out"/*.wasm; do [ "$f" = "$split/out/$bin.wasm" ] || modules+=("$f"); done
    [ "${#modules[@]}" -eq 0 ] || keep=(--keep-lld-exports)
    wasm-bindgen --target web --no-typescript "${keep[@]}" --out-dir "$split/bindgen" --out-name "$bin" "$split/out/$bin.wasm"
    cp "$split/bindgen/$bin.js" "dist/$dir/"
    wasm-opt "${opt[@]}" "$split/bindgen/${bin}_bg.wasm" -o "dist/$dir/${bin}_bg.wasm" 2> >(quiet >&2)
    # The split's loader (which the bindings import) and its modules.
    if [ "${#modules[@]}" -gt 0 ]; then
        cp "$split/out/__wasm_split.js" "dist/$dir/"
        for f in "${modules[@]}"; do
            wasm-opt "${opt[@]}" "$f" -o "dist/$dir/$(basename "$f")" 2> >(quiet >&2)
        done
    fi
    node scripts/page-loader.mjs "$page" "/$dir/$bin.js" "/$dir/${bin}_bg.wasm"
}
# wasm-opt: -Oz; --low-memory-unused lets it fold address arithmetic into loads and stores (about
# 4 KB gzip): the low 1 KB is the bottom of the 1 MB stack that Rust places first, reached only
# just before a stack overflow. --converge repeats the passes until they gain nothing (about
# 0.4 KB gzip). --strip-producers and --strip-target-features drop two custom sections no browser
# reads (about 0.2 KB gzip).
opt=(-Oz --low-memory-unused --converge --strip-producers --strip-target-features --strip-debug
     --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals
     --enable-reference-types --enable-multivalue)

trunk build --release
bundle app dist/index.html
source scripts/pages.sh
for view in "${views[@]}"; do
    cp dist/index.html "dist/$view.html"
done
trunk build embed.html --release true --dist target/pages/embed
cp target/pages/embed/index.html dist/embed.html
bundle embed dist/embed.html
