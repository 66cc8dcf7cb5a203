#!/usr/bin/env bash
# Installs only what is missing for building (and, with `test`, testing) the playground.
# Every tool comes from a package registry (crates.io, npm, Debian); nothing else is fetched.
# Usage: scripts/bootstrap.sh build|test
set -euo pipefail
cd "$(dirname "$0")/.."

TRUNK_VERSION=0.22.1
BINARYEN_VERSION=132.0.0      # Debian's binaryen 108 silently produces a blank page
WASM_SPLIT_VERSION=0.2.4      # wasm_split_cli_support, for wasm_split_helpers 0.2.3 (Cargo.lock)
# wasm-bindgen-cli must equal the wasm-bindgen in Cargo.lock (Trunk.toml pins the same).
WASM_BINDGEN_VERSION=$(awk '/^name = "wasm-bindgen"$/{getline; gsub(/version = |"/,""); print; exit}' Cargo.lock)

say()  { printf '\033[1m==> %s\033[0m\n' "$*"; }
fail() { printf 'bootstrap: %s\n' "$*" >&2; exit 1; }
need() { command -v "$1" >/dev/null 2>&1 || fail "$1 is missing: $2"; }

need cargo  "install Rust with rustup (https://rustup.rs), then run make again"
need rustup "install Rust with rustup (https://rustup.rs), then run make again"
need npm    "install Node.js and npm (apt-get install -y nodejs npm), then run make again"
[ -n "$WASM_BINDGEN_VERSION" ] || fail "cannot read the wasm-bindgen version from Cargo.lock"

# rust-toolchain.toml names the compiler, its components and the wasm target; rustup installs
# exactly that (and nothing when it is present). Every cargo below, trunk's build included, uses it.
TOOLCHAIN=$(awk -F'"' '/^channel *=/{print $2; exit}' rust-toolchain.toml)
[ -n "$TOOLCHAIN" ] || fail "cannot read the channel from rust-toolchain.toml"
if [ "$(rustc --version 2>/dev/null | awk '{print $2}')" != "$TOOLCHAIN" ] \
   || ! rustup target list --installed | grep -qx wasm32-unknown-unknown \
   || ! rustup component list --installed | grep -q '^clippy' || ! rustup component list --installed | grep -q '^rustfmt'; then
  say "installing Rust $TOOLCHAIN with rustfmt, clippy and the wasm32 target (rust-toolchain.toml)"
  rustup toolchain install || fail "could not install the toolchain of rust-toolchain.toml: run 'rustup toolchain install' here"
fi

if [ "$(trunk --version 2>/dev/null)" != "trunk $TRUNK_VERSION" ]; then
  # trunk 0.22.1 declares rust-version 1.96.1: the project's toolchain builds it.
  say "installing trunk $TRUNK_VERSION (built from source with Rust $TOOLCHAIN; about 8 minutes once)"
  cargo install --locked trunk --version "$TRUNK_VERSION" \
    || fail "could not build trunk: run 'cargo install --locked trunk --version $TRUNK_VERSION' here"
fi

if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $WASM_BINDGEN_VERSION" ]; then
  say "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (about 2 minutes once)"
  # Not --locked: its lockfile wants a webpki-roots version the registry mirror lacks.
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" \
    || fail "could not build wasm-bindgen-cli: run 'cargo install wasm-bindgen-cli --version $WASM_BINDGEN_VERSION'"
fi

# wasm-split-cli splits the app's wasm at its #[lazy] functions (scripts/build.sh); its version
# goes with the wasm_split_helpers in Cargo.lock (Leptos's lazy loading).
if ! cargo install --list 2>/dev/null | grep -qx "wasm_split_cli_support v$WASM_SPLIT_VERSION:" || ! command -v wasm-split-cli >/dev/null; then
  say "installing wasm-split-cli $WASM_SPLIT_VERSION (about 1 minute once)"
  cargo install --locked wasm_split_cli_support --version "$WASM_SPLIT_VERSION" --features build-binary \
    || fail "could not build wasm-split-cli: run 'cargo install --locked wasm_split_cli_support --version $WASM_SPLIT_VERSION --features build-binary'"
fi

if ! wasm-opt --version 2>/dev/null | grep -q "version ${BINARYEN_VERSION%%.*}"; then
  say "installing wasm-opt from npm binaryen@$BINARYEN_VERSION"
  npm install --global --prefix /usr/local "binaryen@$BINARYEN_VERSION" >/dev/null \
    || fail "could not install binaryen: run 'npm install --global --prefix /usr/local binaryen@$BINARYEN_VERSION'"
  wasm-opt --version | grep -q "version ${BINARYEN_VERSION%%.*}" \
    || fail "wasm-opt on PATH is not binaryen ${BINARYEN_VERSION%%.*} ($(command -v wasm-opt)); put /usr/local/bin first"
fi

# Trunk runs cargo offline (Trunk.toml), so every crate must already be in the local registry.
cargo fetch --locked >/dev/null 2>&1 || cargo fetch --locked || fail "cargo fetch failed: check the crates.io mirror"

[ "${1:-build}" = test ] || exit 0

need python3 "install Python 3 (apt-get install -y python3), then run make again"
if ! python3 -c 'import venv, ensurepip' >/dev/null 2>&1; then
  say "installing Debian's python3-venv (for scripts/export_check.sh)"
  command -v apt-get >/dev/null || fail "python3 -m venv is missing: install python3-venv by hand"
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null) \
    || fail "could not install python3-venv: run 'apt-get update && apt-get install -y python3-venv'"
fi

if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
  say "installing Debian's chromium and chromium-driver"
  command -v apt-get >/dev/null || fail "chromium is missing: install Chromium and ChromeDriver by hand"
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null) \
    || fail "could not install chromium: run 'apt-get update && apt-get install -y chromium chromium-driver'"
fi

# npm ci again whenever the lock file changed (a new or updated package, such as axe-core).
if [ ! -d tests/node_modules/playwright-core ] || [ ! -d tests/node_modules/axe-core ] \
   || [ tests/package-lock.json -nt tests/node_modules/.package-lock.json ]; then
  say "installing the end-to-end test driver (playwright-core; it never downloads a browser) and axe-core"
  (cd tests && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund >/dev/null) \
    || fail "npm ci in tests/ failed: run 'cd tests && npm ci'"
fi
