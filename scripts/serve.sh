#!/usr/bin/env bash
# Builds the release bundle and serves it on 127.0.0.1, on PORT or the next free port (said aloud).
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
echo "serve: building the release bundle, then serving Fan-out Playground on http://127.0.0.1:$port"
# No auto-reload: trunk 0.22.1 leaves its script's address placeholder unfilled, and the page would
# log a WebSocket error every 5 s.
exec trunk serve --release --no-autoreload --port "$port" --address 127.0.0.1
