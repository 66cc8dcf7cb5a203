#!/usr/bin/env bash
# Builds the release bundle (every page) and serves dist/ on 127.0.0.1, on PORT or the next free
# port (said aloud).
set -euo pipefail
cd "$(dirname "$0")/.."
want=${1:-8080}
port=$(python3 - "$want" <<'PY'
import socket, sys
start = int(sys.argv[1])
for port in range(start, start + 20):
    s = socket.socket()
    try:
        s.bind(("127.0.0.1", port)); s.close(); print(port); break
    except OSError:
        s.close()
PY
)
[ -n "$port" ] || { echo "serve: ports $want to $((want + 19)) are all in use; run 'make serve PORT=<free port>'" >&2; exit 1; }
[ "$port" = "$want" ] || echo "serve: port $want is in use; serving on port $port instead"
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
