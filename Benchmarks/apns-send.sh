#!/usr/bin/env bash
# The APNs sending benchmark, on loopback: COUNT notifications with 200 in flight, each client in
# one process, to `actionable apns-stand-in` (HTTP/2 over TLS, checking every provider token and
# header as Apple does), started afresh for every run (a new provider key each time, so no run's
# token counts as another's update):
#   - ceiling: async-http-client posting the same bytes with one bearer made beforehand, and
#     nothing else (Sources/apns-send, mode ceiling) — what the stand-in can take;
#   - actionable: ActionableAPNs' APNsClient (Sources/apns-send) over 1, 2 and 8 connections;
#   - aioapns (PyPI) over 1, 2 and 8 connections (apns-send-aioapns.py).
# ROUNDS rounds, interleaved; the table has each run and the medians.
#
# Usage: Benchmarks/apns-send.sh [COUNT] [ROUNDS]   (defaults: 20000 3); needs python3 with aioapns.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
count="${1:-20000}"
rounds="${2:-3}"
concurrency=200

python3 -c "import aioapns" 2>/dev/null || python3 -m pip install --quiet --disable-pip-version-check aioapns
echo "building (release)..." >&2
(cd "$root" && swift build -c release --product actionable >&2)
(cd "$here" && swift build -c release --product apns-send >&2)
actionable="$root/.build/release/actionable"
sender="$here/.build/release/apns-send"

work="$(mktemp -d /tmp/actionable-apns.XXXXXX)"
stand_in=""
cleanup() {
    [ -n "$stand_in" ] && kill "$stand_in" 2>/dev/null || true
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

# run NAME CONNECTIONS: a fresh stand-in, one client run, one JSON line appended to results.
run() {
    local client="$1" connections="$2" dir
    dir="$(mktemp -d "$work/run.XXXXXX")"
    (cd "$dir" && exec "$actionable" apns-stand-in --port 0 --key-id BENCH1 --team-id TEAM > stand-in.log 2>&1) &
    stand_in=$!
    local port=""
    for _ in $(seq 1 100); do
        port="$(grep -o 'https://127.0.0.1:[0-9]*' "$dir/stand-in.log" 2>/dev/null | head -1 | cut -d: -f3)" || true
        [ -n "$port" ] && break
        sleep 0.1
    done
    [ -n "$port" ] || { echo "the stand-in did not start: $(cat "$dir/stand-in.log")" >&2; exit 1; }
    local files=("https://127.0.0.1:$port" "$dir/.actionable/apns-stand-in/certificate.pem"
        "$dir/.actionable/apns-stand-in/AuthKey_BENCH1.p8" BENCH1 TEAM "$connections" "$count" "$concurrency")
    case "$client" in
        aioapns) python3 "$here/apns-send-aioapns.py" "${files[@]}" ;;
        *) "$sender" "$client" "${files[@]}" ;;
    esac | tee -a "$work/results.jsonl" >&2
    kill "$stand_in"; wait "$stand_in" 2>/dev/null || true
    stand_in=""
}

for round in $(seq 1 "$rounds"); do
    echo "round $round of $rounds" >&2
    run ceiling 2
    for connections in 1 2 8; do
        run actionable "$connections"
        run aioapns "$connections"
    done
done

python3 - "$work/results.jsonl" "$count" <<'PY'
import json, statistics, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
print(f"{sys.argv[2]} notifications per run, 200 in flight; median of {len(rows) // 7} rounds (each run: rate, p50, p99)\n")
print("| client | connections | notifications/s | p50 ms | p99 ms | failed | runs (notifications/s) |")
print("| --- | ---: | ---: | ---: | ---: | ---: | --- |")
groups = {}
for row in rows:
    groups.setdefault((row["client"], row["connections"]), []).append(row)
for (client, connections), runs in groups.items():
    median = lambda key: statistics.median(run[key] for run in runs)
    print(f"| {client} | {connections} | {median('rate'):,.0f} | {median('p50_ms'):.1f} | {median('p99_ms'):.1f} | "
          f"{sum(run['failed'] for run in runs)} | {', '.join(format(run['rate'], ',') for run in runs)} |")
PY
