// Writes `make dev`'s Trunk page (argv[3]) from the release page (argv[2]): the same page, but
// its Rust link names the unsplit `dev` binary and lets Trunk build it (the release page has
// data-trunk-skip: scripts/build.sh builds its split bundle). Fails, saying why, unless the page
// has exactly one such link.
import { readFileSync, writeFileSync } from 'node:fs';

const [from, to] = process.argv.slice(2);
const page = readFileSync(from, 'utf8');
const release = '<link data-trunk rel="rust" href="app/Cargo.toml" data-bin="app" data-trunk-skip />';
const count = page.split(release).length - 1;
if (count !== 1) {
  console.error(`dev-page: ${from} has ${count} copies of the app's Rust link (want 1): ${release}`);
  process.exit(1);
}
writeFileSync(to, page.replace(release, '<link data-trunk rel="rust" href="app/Cargo.toml" data-bin="dev" data-cargo-profile="wasm-dev" />'));
