#!/usr/bin/env bash
# The FCM sending benchmark, on loopback: COUNT messages per run with 200 in flight, each client in
# one process, to `actionable fcm-stand-in` (HTTPS; it checks every access token and message as
# Google does), started afresh for every run (a new service account each time):
#   - ceiling: a bare async-http-client posting the same bodies with one access token got
#     beforehand, and nothing else (Sources/fcm-send, mode ceiling) — what the stand-in can take;
#   - actionable: ActionableFCM's FCMClient (Sources/fcm-send, mode actionable): the shared access
#     token, the message, FCM's answer read.
# ROUNDS rounds, interleaved; the table has each run, the medians and the grants per run.
#
# Usage: Benchmarks/fcm-send.sh [COUNT] [ROUNDS]   (defaults: 20000 3)
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
count="${1:-20000}"
rounds="${2:-3}"
concurrency=200

echo "building (release)..." >&2
(cd "$root" && swift build -c release --product actionable >&2)
(cd "$here" && swift build -c release --product fcm-send >&2)
actionable="$root/.build/release/actionable"
sender="$here/.build/release/fcm-send"

work="$(mktemp -d /tmp/actionable-fcm.XXXXXX)"
stand_in=""
cleanup() {
    [ -n "$stand_in" ] && kill "$stand_in" 2>/dev/null || true
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

# run CLIENT: a fresh stand-in, one client run, one JSON line appended to results.
run() {
    local client="$1" dir
    dir="$(mktemp -d "$work/run.XXXXXX")"
    (cd "$dir" && exec "$actionable" fcm-stand-in --port 0 --project-id bench > stand-in.log 2>&1) &
    stand_in=$!
    local port=""
    for _ in $(seq 1 100); do
        port="$(grep -o 'https://127.0.0.1:[0-9]*' "$dir/stand-in.log" 2>/dev/null | head -1 | cut -d: -f3)" || true
        [ -n "$port" ] && [ -s "$dir/.actionable/fcm-stand-in/service-account.json" ] && break
        sleep 0.1
    done
    [ -n "$port" ] || { echo "the stand-in did not start: $(cat "$dir/stand-in.log")" >&2; exit 1; }
    "$sender" "$client" "https://127.0.0.1:$port" "$dir/.actionable/fcm-stand-in/certificate.pem" \
        "$dir/.actionable/fcm-stand-in/service-account.json" "$count" "$concurrency" | tee -a "$work/results.jsonl" >&2
    kill "$stand_in"; wait "$stand_in" 2>/dev/null || true
    stand_in=""
}

for round in $(seq 1 "$rounds"); do
    echo "round $round of $rounds" >&2
    run ceiling
    run actionable
done

python3 - "$work/results.jsonl" "$count" <<'PY'
import json, statistics, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
print(f"{sys.argv[2]} messages per run, 200 in flight; median of {len(rows) // 2} rounds (each run: rate, p50, p99)\n")
print("| client | messages/s | p50 ms | p99 ms | failed | access tokens granted per run | runs (messages/s) |")
print("| --- | ---: | ---: | ---: | ---: | --- | --- |")
groups = {}
for row in rows:
    groups.setdefault(row["client"], []).append(row)
for client, runs in groups.items():
    median = lambda key: statistics.median(run[key] for run in runs)
    print(f"| {client} | {median('rate'):,.0f} | {median('p50_ms'):.1f} | {median('p99_ms'):.1f} | "
          f"{sum(run['failed'] for run in runs)} | {', '.join(str(run['grants']) for run in runs)} | {', '.join(format(run['rate'], ',') for run in runs)} |")
ceiling = statistics.median(r["rate"] for r in groups["ceiling"])
ours = statistics.median(r["rate"] for r in groups["actionable"])
print(f"\nactionable / ceiling: {ours / ceiling:.0%}")
PY
