#!/usr/bin/env bash
# The badge ledger under load: POST /v1/notifications (a send recorded, its user's badge counted)
# beside POST /v1/actions (an answer stored, its notification read in the same transaction),
# wrk on loopback, 64 connections, `actionable serve` on SQLite FULL, a fresh database per run.
# The two alternate ROUNDS times in one run. Every request is new (a 201 or a 202).
#
# Usage: [ACTIONABLE_BINARY=PATH] Benchmarks/badge-load.sh [SECONDS] [ROUNDS]   (defaults: 10 3)
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
# shellcheck source=lib/serve.sh
source "$here/lib/serve.sh"
duration="${1:-10}"
rounds="${2:-3}"
command -v wrk >/dev/null || { echo "badge-load.sh needs wrk: apt-get install wrk" >&2; exit 1; }

build_release action-bodies

work="$(mktemp -d "$root/.build/badge-load.XXXXXX")"
pid=""
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$work"' EXIT
key="load=$(head -c 32 /dev/urandom | base64)"
backend="badge-load-backend-token-0123456789"
count=$((duration * 30000))
"$root/.build/release/action-bodies" "$key" "$count" "$work/actions.txt" tap
awk -v n="$count" 'BEGIN { for (i = 0; i < n; i++) printf "{\"user\":\"user-%d\",\"notificationId\":\"send-%d\",\"category\":\"invite\"}\n", i % 1000, i }' \
    >"$work/notifications.txt"

echo "machine: $(nproc) cores, $(uname -sr); ${duration}s runs, 64 connections"
echo "| round | endpoint | requests/s | p50 | p99 |"
echo "| --- | --- | ---: | ---: | ---: |"
for round in $(seq 1 "$rounds"); do
    for endpoint in actions notifications; do
        port="$(free_port)"
        "$actionable" serve --categories "$root/Categories" --port "$port" --storage "sqlite:$work/$endpoint-$round.sqlite" \
            --token-key "$key" --backend-token "$backend" --max-in-flight 4096 >"$work/$endpoint-$round.log" 2>&1 &
        pid=$!
        wait_ready "$port"
        if [ "$endpoint" = actions ]; then
            args=("$work/actions.txt" /v1/actions)
        else
            args=("$work/notifications.txt" /v1/notifications "$backend")
        fi
        wrk -t1 -c64 -d"${duration}s" --latency -s "$here/wrk/post-bodies.lua" "http://127.0.0.1:$port" -- "${args[@]}" \
            >"$work/$endpoint-$round.wrk"
        kill "$pid"; wait "$pid" || true; pid=""
        rps="$(awk '/Requests\/sec/ {print $2}' "$work/$endpoint-$round.wrk")"
        p50="$(awk '$1 == "50%" {print $2}' "$work/$endpoint-$round.wrk")"
        p99="$(awk '$1 == "99%" {print $2}' "$work/$endpoint-$round.wrk")"
        if grep -q "Non-2xx" "$work/$endpoint-$round.wrk"; then rps="$rps (with non-2xx answers)"; fi
        echo "| $round | POST /v1/$endpoint | $rps | $p50 | $p99 |"
    done
done
