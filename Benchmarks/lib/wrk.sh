# Shared by the wrk load scripts (source it after setting `work`, `pids=()`, `duration` and
# `here`): starting and stopping servers, one wrk run, and its figures recorded in
# $work/results.txt.

# start NAME PORT READY COMMAND... : starts a server in the background and waits until GET READY
# answers 200 (actionable serve listens before its storage is open: /readyz says when it is), or,
# with READY "-", until the port accepts a connection.
start() {
    local name="$1" port="$2" ready="$3"; shift 3
    "$@" >"$work/$name.log" 2>&1 &
    pids+=($!)
    for _ in $(seq 1 600); do
        if [ "$ready" = - ]; then
            if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then return 0; fi
        elif python3 -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=1)' \
            "http://127.0.0.1:$port$ready" 2>/dev/null; then return 0; fi
        sleep 0.05  # polling a server while it starts, not a measurement
    done
    echo "$name did not start:" >&2; cat "$work/$name.log" >&2; exit 1
}

stop_all() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    pids=()
}

# load NAME PORT CONNECTIONS BODIES : one wrk run; its output is kept in $work/NAME.wrk
load() {
    wrk -t1 -c"$3" -d"${duration}s" --latency -s "$here/wrk/post-bodies.lua" "http://127.0.0.1:$2" -- "$4" >"$work/$1.wrk"
}

# figures FILE... : requests/s (summed), p50 and p99 in ms (the worst of the files), requests, errors
figures() {
    python3 - "$@" <<'EOF'
import re, sys
def ms(text):
    value, unit = re.match(r"([\d.]+)(us|ms|s)", text).groups()
    return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]
rps = p50 = p99 = 0.0
requests = errors = 0
for path in sys.argv[1:]:
    out = open(path).read()
    rps += float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    p50 = max(p50, ms(re.search(r"\n\s+50%\s+(\S+)", out).group(1)))
    p99 = max(p99, ms(re.search(r"\n\s+99%\s+(\S+)", out).group(1)))
    requests += int(re.search(r"(\d+) requests in", out).group(1))
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    if non2xx: errors += int(non2xx.group(1))
    socket = re.search(r"Socket errors: (.*)", out)
    if socket: errors += sum(int(n) for n in re.findall(r"\d+", socket.group(1)))
print(f"{rps:.0f} {p50:.2f} {p99:.2f} {requests} {errors}")
EOF
}

results="$work/results.txt"
: >"$results"
record() {  # record LABEL ROWS FILE...
    local label="$1" rows="$2"; shift 2
    read -r rps p50 p99 requests errors < <(figures "$@")
    echo "$label|$rps|$p50|$p99|$requests|$errors|$rows" >>"$results"
    echo "$label: $rps req/s, p50 $p50 ms, p99 $p99 ms ($requests requests, $errors errors, $rows rows)" >&2
}

