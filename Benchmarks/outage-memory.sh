#!/usr/bin/env bash
# Memory through an upstream outage, and the drain when it ends. `actionable serve` (SQLite, one
# endpoint) forwards to a port nothing listens on while wrk sends new taps at a steady rate
# (16 connections, a pause before each request) for SECONDS; the process's RSS is sampled every
# 5 s (/proc/PID/status). Then the upstream comes back — nginx (Debian's nginx-light) answering
# `return 204` on that port — and the backlog's drain is timed: how long until the first call (the
# open circuit breaker's next probe) and the calls the sink logged / (first call … last call).
#
# Usage: [ACTIONABLE_BINARY=PATH] Benchmarks/outage-memory.sh [SECONDS] [RATE]   (defaults: 600 1000)
# Needs wrk and nginx (nginx-light).
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
# shellcheck source=lib/serve.sh
source "$here/lib/serve.sh"
seconds="${1:-600}"
rate="${2:-1000}"
needs wrk nginx
build_release action-bodies

scratch outage
duration="$seconds"
# shellcheck source=lib/wrk.sh
source "$here/lib/wrk.sh"
# shellcheck source=lib/sink.sh
source "$here/lib/sink.sh"

taps=$((seconds * rate * 11 / 10))
mint_taps "$taps"

sink_port="$(free_port)"  # nothing listens here until the outage ends
port="$(free_port)"
start outage "$port" /readyz "$actionable" serve --categories "$root/Categories" --port "$port" \
    --storage "sqlite:$work/outage.sqlite" --token-key "$key" --max-connections-per-address 0 \
    --forward-secret "$secret" --forward "*=http://127.0.0.1:$sink_port/sink"
server="${pids[-1]}"

rss() { awk '/^VmRSS/ { print int($2 / 1024) }' "/proc/$server/status"; }
echo "outage: ${seconds}s of taps at about ${rate}/s, the upstream down" >&2
pause="$(python3 -c "print(max(1, round(16 * 1000 / $rate)))")"
wrk -t1 -c16 -d"${seconds}s" --latency -s "$here/wrk/post-bodies-paced.lua" "http://127.0.0.1:$port" -- \
    "$work/bodies.txt" "$pause" >"$work/outage.wrk" &
load_pid=$!
peak=0
samples=()
while kill -0 "$load_pid" 2>/dev/null; do
    now="$(rss)"
    samples+=("$now")
    [ "$now" -gt "$peak" ] && peak="$now"
    sleep 5  # a sampling interval, not synchronisation
done
wait "$load_pid" || true
read -r accepted_rate _ _ accepted _ < <(figures "$work/outage.wrk")

# The upstream comes back: the sink on the port the endpoint names.
up="$(date +%s.%N)"
start_sink "$sink_port"
calls() { sink_calls; }
last="$(calls)"
quiet=0
while [ "$(calls)" -lt "$accepted" ] && [ "$quiet" -lt 300 ]; do
    sleep 0.2  # waiting for the backlog to drain, not a measurement
    now="$(calls)"
    if [ "$now" = "$last" ]; then quiet=$((quiet + 1)); else quiet=0; last="$now"; fi
    current="$(rss)"
    [ "$current" -gt "$peak" ] && peak="$current"
done
flush_sink
python3 - "$work/nginx/logs/calls.log" "$up" "$accepted" "$accepted_rate" "$peak" "${samples[*]}" "$(nproc)" <<'EOF'
import sys
path, up, accepted, accepted_rate, peak, samples, cores = sys.argv[1:]
times = [float(line.split()[0]) for line in open(path) if line.strip()]
ids = {line.split()[1] for line in open(path) if len(line.split()) > 1}
span = max(times) - float(up) if times else 0.0
# The open breaker probes the endpoint every 60 s: the first call waits for the next probe, then
# the held deliveries are let go at once.
wait = min(times) - float(up) if times else 0.0
flow = max(times) - min(times) if times else 0.0
series = [int(s) for s in samples.split()]
print(f"machine: {cores} cores")
print(f"outage: {accepted} taps accepted at {float(accepted_rate):.0f}/s while the upstream was down")
print(f"RSS (MB) every 5 s: first {series[0] if series else '-'}, last {series[-1] if series else '-'}, peak (outage and drain) {peak}")
print(f"drain: {len(times)} calls ({len(ids)} distinct webhook-ids) in {span:.1f} s after the upstream came back")
print(f"  first call {wait:.1f} s after it came back (the open breaker's next probe), then {len(times) / flow if flow > 0 else 0:.0f} calls/s")
EOF
