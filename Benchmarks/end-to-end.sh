#!/usr/bin/env bash
# End to end: taps that reach the backend a second, not taps accepted. wrk on loopback (64
# connections, every request a new tap with a valid token) for SECONDS, then the queue drains;
# the upstream is a sink that is not ours — nginx (Debian's nginx-light) answering `return 204`
# and logging `$msec $http_webhook_id $http_webhook_endpoint` for every call.
#
#   end to end = upstream calls / (first request … last upstream call)
#
# Beside it, in the same run, the same build accepting with no endpoint (the accept rate). Runs:
# SQLite with 1 and 3 endpoints (each tap delivered three times), and — with
# ACTIONABLE_E2E_POSTGRES_URL set (scripts/postgres-test-cluster start prints one) — PostgreSQL
# accepting with no endpoint (its own accept rate), with 1 instance and with 2 (each taking half the
# connections). Then the tap → upstream latency
# (the sink's arrival time less the server's receivedAt) at about half the measured one-endpoint
# SQLite rate: wrk with a pause before each request (Benchmarks/wrk/post-bodies-paced.lua).
#
# Usage: [ACTIONABLE_BINARY=PATH] Benchmarks/end-to-end.sh [SECONDS] [ROUNDS]   (defaults: 10 3)
# Needs wrk and nginx (nginx-light).
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
# shellcheck source=lib/serve.sh
source "$here/lib/serve.sh"
duration="${1:-10}"
rounds="${2:-3}"
connections=64
needs wrk nginx

build_release action-bodies

scratch e2e
# shellcheck source=lib/wrk.sh
source "$here/lib/wrk.sh"
# shellcheck source=lib/sink.sh
source "$here/lib/sink.sh"

# Every run has a database of its own, so one file of bodies serves them all (every request of a
# run a new tap: 16,000 a second is more than the accept path takes here); two instances sharing
# a database split it.
bodies=$((duration * 16000))
mint_taps "$bodies"
half_lines=$((bodies / 2))
head -n "$half_lines" "$work/bodies.txt" >"$work/bodies-0-of-2.txt"
tail -n +"$((half_lines + 1))" "$work/bodies.txt" >"$work/bodies-1-of-2.txt"

# The sink: nginx on loopback, `return 204`, one log line per call.
sink_port="$(free_port)"
start_sink "$sink_port"

calls() { sink_calls; }
# drain EXPECTED : returns once the sink has logged EXPECTED calls more than before the run, or
# when no call arrived for 15 s (then the run reports what did arrive)
drain() {
    local before="$1" expected="$2" last quiet=0
    last="$(calls)"
    while [ $(($(calls) - before)) -lt "$expected" ] && [ "$quiet" -lt 150 ]; do
        sleep 0.1  # waiting for the queue to drain, not a measurement
        local now; now="$(calls)"
        if [ "$now" = "$last" ]; then quiet=$((quiet + 1)); else quiet=0; last="$now"; fi
    done
    flush_sink
}

# serve_to NAME PORT STORAGE ENDPOINTS : actionable serve delivering every tap to ENDPOINTS
# endpoints (patterns that all take it) on the sink
serve_to() {
    local patterns=("*" "invite.*" "invite.accept") forwards=()
    for index in $(seq 0 $(($4 - 1))); do
        forwards+=(--forward "${patterns[$index]}=http://127.0.0.1:$sink_port/sink/$index")
    done
    start "$1" "$2" /readyz "$actionable" serve --categories "$root/Categories" --port "$2" --storage "$3" \
        --token-key "$key" --max-in-flight 4096 --max-connections-per-address 0 --forward-secret "$secret" "${forwards[@]}"
}

# e2e LABEL STORAGE ENDPOINTS INSTANCES : one run; appends "LABEL accept_rate e2e_rate calls
# accepted drain_seconds distinct_calls" to $work/e2e.txt (wrk does not count the requests still in
# flight when it stops, so a few more taps are accepted — and delivered — than it counted)
e2e() {
    local label="$1" storage="$2" endpoints="$3" instances="$4" ports=() files=() loads=()
    for index in $(seq 1 "$instances"); do
        ports+=("$(free_port)")
        serve_to "$label-$index" "${ports[-1]}" "$storage" "$endpoints"
    done
    local before; before="$(calls)"
    local started; started="$(date +%s.%N)"
    for index in $(seq 0 $((instances - 1))); do
        local file="$work/bodies.txt"
        [ "$instances" = 1 ] || file="$work/bodies-$index-of-2.txt"
        wrk -t1 -c$((connections / instances)) -d"${duration}s" --latency -s "$here/wrk/post-bodies.lua" \
            "http://127.0.0.1:${ports[$index]}" -- "$file" >"$work/$label-$index.wrk" &
        loads+=($!)
        files+=("$work/$label-$index.wrk")
    done
    for load in "${loads[@]}"; do wait "$load"; done
    local accepted
    local refused
    read -r rps _ _ accepted refused < <(figures "${files[@]}")
    drain "$before" $((accepted * (endpoints == 0 ? 0 : endpoints)))
    python3 - "$work/nginx/logs/calls.log" "$before" "$started" "$label" "$rps" "$accepted" "$refused" >>"$work/e2e.txt" <<'EOF'
import sys
path, before, started, label, rps, accepted, refused = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), sys.argv[4], float(sys.argv[5]), int(sys.argv[6]), int(sys.argv[7])
lines = open(path).read().split("\n")[before:]
times = [float(line.split()[0]) for line in lines if line.strip()]
# A call is one (webhook-id, endpoint): the same pair twice would be an attempt repeated.
distinct = len({tuple(line.split()[1:3]) for line in lines if line.strip()})
calls = len(times)
span = (max(times) - started) if times else 0.0
rate = calls / span if span > 0 else 0.0
print(f"{label} {rps:.0f} {rate:.0f} {calls} {accepted} {span:.1f} {distinct} {refused}")
EOF
    stop_all
}

: >"$work/e2e.txt"
# A schema of its own per run of this script: the minted taps' notification ids repeat from one run
# to the next, and a database that already holds them refuses them as answered.
schema_prefix="e2e$(date +%s)_"
for round in $(seq 1 "$rounds"); do
    e2e "accept-only-$round" "sqlite:$work/a$round.sqlite" 0 1
    e2e "sqlite-1-$round" "sqlite:$work/b$round.sqlite" 1 1
    e2e "sqlite-3-$round" "sqlite:$work/c$round.sqlite" 3 1
    if [ -n "${ACTIONABLE_E2E_POSTGRES_URL:-}" ]; then
        e2e "postgres-accept-only-$round" "$ACTIONABLE_E2E_POSTGRES_URL?schema=${schema_prefix}0r$round" 0 1
        e2e "postgres-1x1-$round" "$ACTIONABLE_E2E_POSTGRES_URL?schema=${schema_prefix}1r$round" 1 1
        e2e "postgres-1x2-$round" "$ACTIONABLE_E2E_POSTGRES_URL?schema=${schema_prefix}2r$round" 1 2
    fi
done

# Latency at half the one-endpoint SQLite rate: a paced load, then arrival − receivedAt.
half="$(python3 -c "
import statistics, sys
rows = [l.split() for l in open(sys.argv[1]) if l.startswith('sqlite-1-')]
print(max(1, int(statistics.median(float(r[2]) for r in rows) / 2)))" "$work/e2e.txt")"
port="$(free_port)"
serve_to latency "$port" "sqlite:$work/latency.sqlite" 1
before="$(calls)"
# 16 connections, each pausing so that together they send about HALF taps a second.
pause="$(python3 -c "print(max(1, round(16 * 1000 / $half)))")"
wrk -t1 -c16 -d"${duration}s" --latency -s "$here/wrk/post-bodies-paced.lua" "http://127.0.0.1:$port" -- \
    "$work/bodies.txt" "$pause" >"$work/latency.wrk"
read -r _ _ _ requests _ < <(figures "$work/latency.wrk")
drain "$before" "$requests"
python3 - "$work/nginx/logs/calls.log" "$before" "$work/latency.sqlite" "$half" >"$work/latency.txt" <<'EOF'
import sqlite3, statistics, sys
path, before, database, rate = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
arrivals = {}
for line in open(path).read().split("\n")[before:]:
    parts = line.split()
    if len(parts) >= 2: arrivals.setdefault(parts[1], float(parts[0]))
received = dict(sqlite3.connect(database).execute("SELECT id, received_at FROM action_responses").fetchall())
latencies = sorted((arrivals[i] - received[i]) * 1000 for i in arrivals if i in received)
if latencies:
    p = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))]
    print(f"{rate} {len(latencies)} {p(0.5):.1f} {p(0.99):.1f}")
else:
    print(f"{rate} 0 - -")
EOF
stop_all

python3 - "$work/e2e.txt" "$work/latency.txt" "$(nproc)" <<'EOF'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1]) if line.strip()]
def runs(prefix): return [r for r in rows if r[0].rsplit("-", 1)[0] == prefix]
accept = statistics.median(float(r[1]) for r in runs("accept-only"))
print(f"machine: {sys.argv[3]} cores; accept rate with no endpoint (median): {accept:.0f} taps/s\n")
print("| run | accepted/s | end to end /s | calls | distinct (webhook-id, endpoint) | taps wrk counted | not 2xx | first request → last call (s) | end to end ÷ accept rate |")
print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
for r in rows:
    label, rps, e2e, calls, taps, span, distinct, refused = r
    share = f"{float(e2e) / accept * 100:.0f}%" if "accept-only" not in label else "—"
    print(f"| {label} | {rps} | {e2e} | {calls} | {distinct} | {taps} | {refused} | {span} | {share} |")
postgres_accept = runs("postgres-accept-only")
postgres_accept = statistics.median(float(r[1]) for r in postgres_accept) if postgres_accept else None
if postgres_accept: print(f"\naccept rate with no endpoint on PostgreSQL (median): {postgres_accept:.0f} taps/s")
print("\n| configuration | median end to end /s | ÷ median accept rate (SQLite) | ÷ median accept rate on the same storage |")
print("| --- | ---: | ---: | ---: |")
for prefix in ["sqlite-1", "sqlite-3", "postgres-1x1", "postgres-1x2"]:
    chosen = runs(prefix)
    if chosen:
        median = statistics.median(float(r[2]) for r in chosen)
        same = accept if prefix.startswith("sqlite") else postgres_accept
        print(f"| {prefix} | {median:.0f} | {median / accept * 100:.0f}% | {median / same * 100:.0f}% |")
rate, count, p50, p99 = open(sys.argv[2]).read().split()
print(f"\ntap → upstream at {rate} taps/s (half the one-endpoint end-to-end rate, SQLite): {count} taps, p50 {p50} ms, p99 {p99} ms")
EOF
