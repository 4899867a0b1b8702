# Shared by the load scripts (source it): a free port of loopback, and waiting for a server
# to answer /readyz.

# Prints a TCP port of 127.0.0.1 nothing listens on.
free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Returns once http://127.0.0.1:PORT/readyz answers 200 (at most about 10 s).
wait_ready() {
    for _ in $(seq 1 200); do
        python3 -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=1)' \
            "http://127.0.0.1:$1/readyz" 2>/dev/null && return 0
        sleep 0.05  # polling a server while it starts, not a measurement
    done
    echo "the server on port $1 did not become ready" >&2
    return 1
}

# build_release PRODUCT… : builds `actionable` in release into $actionable (unless
# ACTIONABLE_BINARY names a binary to measure instead) and each PRODUCT of the Benchmarks
# package. Needs $root and $here (the repository and Benchmarks/).
build_release() {
    echo "building (release)..." >&2
    actionable="${ACTIONABLE_BINARY:-$root/.build/release/actionable}"
    [ -n "${ACTIONABLE_BINARY:-}" ] || (cd "$root" && swift build -c release --product actionable >&2)
    local product
    for product in "$@"; do (cd "$here" && swift build -c release --product "$product" >&2); done
}
