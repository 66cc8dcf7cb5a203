#!/usr/bin/env bash
# Runs every check and test, continues past failures, and ends with a summary and the exit code.
set -uo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=${CARGO_TERM_COLOR:-never}

names=(); results=(); times=()
step() {
  local name=$1; shift
  printf '\n\033[1m==> %s\033[0m\n' "$name"
  local start=$SECONDS
  if "$@"; then results+=(PASS); else results+=(FAIL); fi
  names+=("$name"); times+=($((SECONDS - start)))
}

# Every data file the pages load (scenarios, lessons, compare designs, interview walkthroughs), and
# the e2e tests' fixture lessons.
scenarios() { cargo run --quiet --release --bin fanout -- test public/scenarios/*.json engine/tests/scenarios/*.json public/lessons/*.json public/designs/*.json public/interview/*.json public/drills/*.json tests/e2e/fixtures/lessons/*.json; }
no_feature_cfg_in_views() {
  # What differs between the app and the embed is decided where each is assembled.
  if grep -rn 'cfg(feature\|cfg!(feature\|cfg_attr(feature' app/src --include=*.rs | grep -v '^app/src/bin/\|^app/src/lib.rs:'; then
    echo "no cargo feature may decide what a shared view is (app/src outside bin/ and lib.rs)"; return 1
  fi
}
no_web_in_engine() {
  if cargo tree -p fanout-engine -e normal --prefix none | grep -E '^(wasm-bindgen|web-sys|js-sys|leptos|gloo)' ; then
    echo "the engine's dependency tree must not contain web crates"; return 1
  fi
}

step "format (cargo fmt --check)"          cargo fmt --all --check
step "lint (cargo clippy -D warnings)"     cargo clippy --workspace --all-targets -- -D warnings
step "lint wasm (clippy, wasm32)"          cargo clippy -p app --target wasm32-unknown-unknown --all-targets -- -D warnings
step "engine has no web dependency"        no_web_in_engine
step "no feature cfg in shared views"      no_feature_cfg_in_views
step "docs links (check_links.py)"         python3 scripts/check_links.py
step "unit and property tests (native)"    cargo test --workspace
step "data files (fanout test)"               scenarios
step "AWS exports (cfn-lint, moto)"        scripts/export_check.sh
step "component tests (wasm, Chromium)"    cargo test -p app --target wasm32-unknown-unknown
step "release build (app split, embed)"   scripts/build.sh
step "bundle size"                         scripts/size.sh
step "end-to-end tests (Chromium)"         bash -c 'cd tests && npm test'

printf '\n\033[1mSummary\033[0m\n'
failed=0
for i in "${!names[@]}"; do
  printf '  %-4s %-38s %4ss\n' "${results[$i]}" "${names[$i]}" "${times[$i]}"
  [ "${results[$i]}" = PASS ] || failed=$((failed + 1))
done
echo "steps: $(( ${#names[@]} - failed )) passed, $failed failed"
[ "$failed" -eq 0 ]
