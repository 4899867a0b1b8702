#!/usr/bin/env bash
# What delivering a tap costs beside what accepting it costs, each alone: `serve`'s CPU time (user
# + system, from /proc) per tap accepted while the endpoint's upstream is down (the breaker holds
# the deliveries), then per call made while the backlog drains into nginx `return 204` once it is
# up. Less sensitive to a noisy machine than a rate: a neighbour's load slows both phases, but
# barely moves the CPU each item takes. End to end with one endpoint can reach half the accept rate
# only when a delivered call costs no more than an accepted tap.
#
# Usage: [ACTIONABLE_BINARY=PATH] Benchmarks/drain-cost.sh [SECONDS] [ROUNDS]   (defaults: 8 3)
# Needs wrk and nginx (nginx-light).
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
# shellcheck source=lib/serve.sh
source "$here/lib/serve.sh"
duration="${1:-8}"
rounds="${2:-3}"
needs wrk nginx
build_release action-bodies
scratch drain
# shellcheck source=lib/wrk.sh
source "$here/lib/wrk.sh"
# shellcheck source=lib/sink.sh
source "$here/lib/sink.sh"

bodies=$((duration * 16000))
mint_taps "$bodies"

cpu() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }  # clock ticks (1/100 s)
: >"$work/rounds.txt"
for round in $(seq 1 "$rounds"); do
    sink_port="$(free_port)"  # nothing listens here until the drain
    port="$(free_port)"
    start "drain-$round" "$port" /readyz "$actionable" serve --categories "$root/Categories" --port "$port" \
        --storage "sqlite:$work/d$round.sqlite" --token-key "$key" --max-in-flight 4096 --max-connections-per-address 0 \
        --forward-secret "$secret" --breaker-probe 1s --forward "*=http://127.0.0.1:$sink_port/sink/0"
    server="${pids[-1]}"
    before="$(cpu "$server")"
    wrk -t1 -c64 -d"${duration}s" --latency -s "$here/wrk/post-bodies.lua" "http://127.0.0.1:$port" -- \
        "$work/bodies.txt" >"$work/accept-$round.wrk"
    accepting="$(cpu "$server")"
    read -r rps _ _ accepted _ < <(figures "$work/accept-$round.wrk")
    start_sink "$sink_port"
    last=0 quiet=0
    while [ "$(sink_calls)" -lt "$accepted" ] && [ "$quiet" -lt 150 ]; do
        sleep 0.1  # waiting for the backlog to drain, not a measurement
        now="$(sink_calls)"
        if [ "$now" = "$last" ]; then quiet=$((quiet + 1)); else quiet=0; last="$now"; fi
    done
    drained="$(cpu "$server")"
    flush_sink
    python3 - "$work/nginx/logs/calls.log" "$rps" "$accepted" "$((accepting - before))" "$((drained - accepting))" \
        >>"$work/rounds.txt" <<'PY'
import sys
path, rps, accepted, accept_ticks, drain_ticks = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
times = sorted(float(line.split()[0]) for line in open(path) if line.strip())
calls = len(times)
rate = calls / (times[-1] - times[0]) if calls > 1 else 0.0
print(f"{rps:.0f} {accept_ticks * 10000 / max(1, accepted):.0f} {rate:.0f} {drain_ticks * 10000 / max(1, calls):.0f} {accepted} {calls}")
PY
    stop_all
    kill "$nginx_pid" 2>/dev/null || true
    wait "$nginx_pid" 2>/dev/null || true
    nginx_pid=""
    rm -rf "$work/nginx"
done

python3 - "$work/rounds.txt" "$(nproc)" <<'PY'
import statistics, sys
rows = [[float(x) for x in line.split()] for line in open(sys.argv[1]) if line.strip()]
print(f"machine: {sys.argv[2]} cores; one endpoint, SQLite; serve's CPU time (user + system)\n")
print("| round | accepted/s | µs of CPU per accepted tap | drained calls/s | µs of CPU per delivered call | taps | calls |")
print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
for index, (rps, accept_us, rate, call_us, taps, calls) in enumerate(rows, 1):
    print(f"| {index} | {rps:.0f} | {accept_us:.0f} | {rate:.0f} | {call_us:.0f} | {taps:.0f} | {calls:.0f} |")
accept = statistics.median(r[1] for r in rows)
call = statistics.median(r[3] for r in rows)
print(f"\nmedian: {accept:.0f} µs per accepted tap, {call:.0f} µs per delivered call — a call costs {call / accept:.2f}× a tap")
PY
