#!/usr/bin/env bash
# Builds the release bundle (every page) and serves dist/ on 127.0.0.1, on PORT or the next free
# port (said aloud).
set -euo pipefail
cd "$(dirname "$0")/.."
want=${1:-8080}
who=serve hint="make serve PORT"
# shellcheck source=free-port.sh
. scripts/free-port.sh
echo "serve: building the release bundle (scripts/build.sh), then serving it"
scripts/build.sh
echo "serve: serving Fan-out Playground on http://127.0.0.1:$port (Ctrl-C stops it)"
# A plain static server over dist/, as a host would serve it: every page is its own bundle
# (trunk serve serves one). no-cache: a rebuilt page is picked up on reload.
exec python3 - "$port" <<'PY'
import functools, http.server, sys

class Handler(http.server.SimpleHTTPRequestHandler):
    def end_headers(self):
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, *args):
        pass

server = http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), functools.partial(Handler, directory="dist"))
server.serve_forever()
PY
