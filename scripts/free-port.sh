# Sourced by serve.sh and dev.sh: sets `port` to `want` or the next free loopback port (of 20),
# says so when it is not `want`, and exits naming `hint` (the make variable) when none is free.
# Needs `want`, `who` (the script's name for its messages) and `hint`.
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
[ -n "$port" ] || { echo "$who: ports $want to $((want + 19)) are all in use; run '$hint=<free port>'" >&2; exit 1; }
[ "$port" = "$want" ] || echo "$who: port $want is in use; serving on port $port instead"
