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
# ACTIONABLE_BINARY names a binary to measure instead) and each PRODUCT (ceiling-server and
# action-bodies of the main package, the others of the Benchmarks package). Needs $root and $here (the repository and Benchmarks/).
build_release() {
    echo "building (release)..." >&2
    actionable="${ACTIONABLE_BINARY:-$root/.build/release/actionable}"
    [ -n "${ACTIONABLE_BINARY:-}" ] || (cd "$root" && swift build -c release --product actionable >&2)
    local product
    for product in "$@"; do
        case "$product" in
        # The main package's: the test command's guard runs them too.
        ceiling-server | action-bodies) (cd "$root" && swift build -c release --product "$product" >&2) ;;
        *) (cd "$here" && swift build -c release --product "$product" >&2) ;;
        esac
    done
}

# needs TOOL… : exits, saying what to install, unless every TOOL is on the PATH (nginx comes
# from Debian's nginx-light).
needs() {
    local tool package
    for tool in "$@"; do
        package="$tool"
        [ "$tool" = nginx ] && package=nginx-light
        command -v "$tool" >/dev/null || { echo "$(basename "$0") needs $tool: apt-get install $package" >&2; exit 1; }
    done
}

# scratch NAME : a scratch folder in $work, and $pids (servers started) and $nginx_pid (the
# sink) stopped, and the folder removed, when the script exits — after `extra_cleanup`, when the
# script defines one.
scratch() {
    work="$(mktemp -d "/tmp/actionable-$1.XXXXXX")"
    pids=()
    nginx_pid=""
    trap scratch_cleanup EXIT
}

scratch_cleanup() {
    local pid
    for pid in "${pids[@]}" $nginx_pid; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    if declare -F extra_cleanup >/dev/null; then extra_cleanup; fi
    rm -rf "$work"
}

# mint_taps COUNT : a token key in $key, a webhook secret in $secret, and COUNT request bodies in
# $work/bodies.txt, one a line, each a tap on a notification of its own with a valid token.
mint_taps() {
    key="load=$(head -c 32 /dev/urandom | base64)"
    secret="whsec_$(head -c 32 /dev/urandom | base64)"
    echo "minting $1 action tokens..." >&2
    "$root/.build/release/action-bodies" "$key" "$1" "$work/bodies.txt"
}
