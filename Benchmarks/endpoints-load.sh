#!/usr/bin/env bash
# Accepted responses a second while they are delivered to one endpoint, and to three, and to one
# with tracing on (--otel-endpoint: every request, accept, commit and attempt a span, exported to
# the sink's POST /v1/traces), beside the same server with no endpoint (the accept path alone)
# and the ceiling (a bare Hummingbird endpoint), all in one run: wrk on loopback, 64 connections, every
# request a new notification with a valid token (a new 202). `actionable serve` runs on SQLite
# (the default) with its endpoints seeded by --forward, each delivering to POST /sink/{endpoint}
# of a second ceiling-server (204) while the load runs; the deliveries made by the end of each
# run are counted in the database. The three are run ROUNDS times, interleaved; the table
# reports each run and the medians as a share of the ceiling.
#
# Usage: [ACTIONABLE_BINARY=PATH] Benchmarks/endpoints-load.sh [SECONDS_PER_RUN] [ROUNDS]   (defaults: 15 3)
# Needs wrk (apt-get install wrk).
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
# shellcheck source=lib/serve.sh
source "$here/lib/serve.sh"
duration="${1:-15}"
rounds="${2:-3}"
connections=64

needs wrk

build_release ceiling-server action-bodies
ceiling="$root/.build/release/ceiling-server"

scratch endpoints
# shellcheck source=lib/wrk.sh
source "$here/lib/wrk.sh"

bodies=$((duration * 16000))
mint_taps "$bodies"

# serve_to NAME PORT SINK_PORT ENDPOINTS [traced] : actionable serve on SQLite, delivering every
# response to ENDPOINTS endpoints (patterns that all take it) on the sink; with "traced", its
# spans go to the sink too.
serve_to() {
    local patterns=("*" "invite.*" "invite.accept") forwards=()
    for index in $(seq 0 $(($4 - 1))); do  # none for 0: the accept path alone
        forwards+=(--forward "${patterns[$index]}=http://127.0.0.1:$3/sink/$index")
    done
    if [ "${5:-}" = traced ]; then forwards+=(--otel-endpoint "http://127.0.0.1:$3"); fi
    start "$1" "$2" /readyz "$actionable" serve --categories "$root/Categories" --port "$2" --storage "sqlite:$work/$1.sqlite" \
        --token-key "$key" --max-in-flight 4096 --forward-secret "$secret" "${forwards[@]}"
}

# delivered FILE : endpoint deliveries delivered / made, when the run ended
delivered() {
    python3 -c "
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
done, total = db.execute(\"SELECT sum(status = 'delivered'), count(*) FROM endpoint_deliveries\").fetchone()
print(f'{done or 0}/{total}')" "$1"
}

sink_port="$(free_port)"
for round in $(seq 1 "$rounds"); do
    port="$(free_port)"
    start "ceiling-$round" "$port" - "$ceiling" "$port"
    load "ceiling-$round" "$port" "$connections" "$work/bodies.txt"
    stop_all
    record "ceiling (bare Hummingbird)" "-" "$work/ceiling-$round.wrk"

    for run in 0 1 3 1-traced; do
        endpoints="${run%-traced}"
        traced="${run#"$endpoints"}"
        name="endpoints-$run-$round"
        start "sink-$name" "$sink_port" - "$ceiling" "$sink_port"
        port="$(free_port)"
        serve_to "$name" "$port" "$sink_port" "$endpoints" "${traced#-}"
        load "$name" "$port" "$connections" "$work/bodies.txt"
        stop_all
        record "actionable serve, SQLite, $endpoints endpoint(s)${traced:+, tracing on}" "$(delivered "$work/$name.sqlite")" "$work/$name.wrk"
    done
done

python3 - "$results" "$duration" "$connections" <<'PY'
import statistics, sys
rows = [line.rstrip("\n").split("|") for line in open(sys.argv[1])]
print(f"wrk -t1 -c{sys.argv[3]} -d{sys.argv[2]}s on loopback; deliveries to a sink on loopback while the load runs.\n")
print("| run | accepted/s | p50 ms | p99 ms | requests | errors | deliveries done/made at the end |")
print("|---|---:|---:|---:|---:|---:|---:|")
for label, rps, p50, p99, requests, errors, delivered in rows:
    print(f"| {label} | {rps} | {p50} | {p99} | {requests} | {errors} | {delivered} |")
def median(label):
    values = [float(r[1]) for r in rows if r[0] == label]
    return statistics.median(values) if values else None
ceiling = median("ceiling (bare Hummingbird)")
print()
for endpoints in ("0 endpoint(s)", "1 endpoint(s)", "3 endpoint(s)", "1 endpoint(s), tracing on"):
    value = median(f"actionable serve, SQLite, {endpoints}")
    if ceiling and value:
        print(f"- {endpoints}: median {value:.0f} accepted/s, {100 * value / ceiling:.0f}% of the ceiling's {ceiling:.0f}")
PY
