#!/usr/bin/env bash
# The server load benchmark: wrk on loopback, 64 connections, against
#   - the ceiling: a bare Hummingbird endpoint (Sources/ceiling-server) that only decodes the
#     same JSON and answers 202;
#   - `actionable serve` on SQLite (the default: WAL, synchronous=FULL, group commit), with
#     token verification and idempotency;
#   - `actionable serve` on PostgreSQL, one instance, then two instances sharing one database
#     (two wrk processes, 32 connections each).
# Every request answers a new notification with a valid token, so each is a new 202; the rows
# stored are counted afterwards. The ceiling and SQLite runs alternate, ROUNDS times, in the
# same script run; the table reports each run and the medians.
#
# Usage: [ACTIONABLE_BINARY=PATH] Benchmarks/server-load.sh [SECONDS_PER_RUN] [ROUNDS]   (defaults: 15 3)
# Needs wrk (apt-get install wrk) and, for PostgreSQL, its server binaries (as CI has).
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
# shellcheck source=lib/serve.sh
source "$here/lib/serve.sh"
duration="${1:-15}"
rounds="${2:-3}"
connections=64

needs wrk python3

# ACTIONABLE_BINARY measures another build of actionable (e.g. the commit before a change) against
# the same ceiling and bodies.
build_release ceiling-server action-bodies
ceiling="$root/.build/release/ceiling-server"

scratch load
pg_dir=""
extra_cleanup() { [ -n "$pg_dir" ] && "$root/scripts/postgres-test-cluster" stop "$pg_dir"; }

key="load=$(head -c 32 /dev/urandom | base64)"
bodies=$((duration * 16000))
echo "minting $bodies action tokens..." >&2
"$root/.build/release/action-bodies" "$key" "$bodies" "$work/bodies.txt"
# Halves for the two-instance run: each wrk sends its own notifications.
split -n l/2 -d "$work/bodies.txt" "$work/half."

# shellcheck source=lib/wrk.sh
source "$here/lib/wrk.sh"

serve() {  # serve NAME PORT STORAGE
    start "$1" "$2" /readyz "$actionable" serve --categories "$root/Categories" --port "$2" --storage "$3" \
        --token-key "$key" --max-in-flight 4096
}

sqlite_rows() { python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('SELECT count(*) FROM action_responses').fetchone()[0])" "$1"; }

for round in $(seq 1 "$rounds"); do
    port="$(free_port)"
    start "ceiling-$round" "$port" - "$ceiling" "$port"
    load "ceiling-$round" "$port" "$connections" "$work/bodies.txt"
    stop_all
    record "ceiling (bare Hummingbird)" "-" "$work/ceiling-$round.wrk"

    port="$(free_port)"
    serve "sqlite-$round" "$port" "sqlite:$work/sqlite-$round.sqlite"
    load "sqlite-$round" "$port" "$connections" "$work/bodies.txt"
    stop_all
    record "actionable serve, SQLite FULL" "$(sqlite_rows "$work/sqlite-$round.sqlite")" "$work/sqlite-$round.wrk"
done

if pg="$("$root/scripts/postgres-test-cluster" start)"; then
    eval "$pg"
    pg_dir="$ACTIONABLE_TEST_POSTGRES_DIR"
    psql="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)/psql"
    pg_rows() { "$psql" "$ACTIONABLE_TEST_POSTGRES_URL" -Atc "SELECT count(*) FROM $1.action_responses"; }
    port="$(free_port)"
    serve pg-one "$port" "$ACTIONABLE_TEST_POSTGRES_URL?schema=load_one"
    load pg-one "$port" "$connections" "$work/bodies.txt"
    stop_all
    record "actionable serve, PostgreSQL, 1 instance" "$(pg_rows load_one)" "$work/pg-one.wrk"

    ports=("$(free_port)" "$(free_port)")
    serve pg-two-a "${ports[0]}" "$ACTIONABLE_TEST_POSTGRES_URL?schema=load_two"
    serve pg-two-b "${ports[1]}" "$ACTIONABLE_TEST_POSTGRES_URL?schema=load_two"
    load pg-two-a "${ports[0]}" $((connections / 2)) "$work/half.00" &
    other=$!
    load pg-two-b "${ports[1]}" $((connections / 2)) "$work/half.01"
    wait "$other"
    stop_all
    record "actionable serve, PostgreSQL, 2 instances" "$(pg_rows load_two)" "$work/pg-two-a.wrk" "$work/pg-two-b.wrk"
else
    echo "PostgreSQL could not start: its runs are skipped" >&2
fi

python3 - "$results" "$duration" "$connections" <<'EOF'
import statistics, sys
rows = [line.rstrip("\n").split("|") for line in open(sys.argv[1])]
print(f"wrk -t1 -c{sys.argv[3]} -d{sys.argv[2]}s on loopback; `actionable serve` with token verification and idempotency.\n")
print("| run | requests/s | p50 ms | p99 ms | requests | errors | rows stored |")
print("|---|---:|---:|---:|---:|---:|---:|")
for label, rps, p50, p99, requests, errors, stored in rows:
    print(f"| {label} | {rps} | {p50} | {p99} | {requests} | {errors} | {stored} |")
def median(label, column):
    values = [float(r[column]) for r in rows if r[0] == label]
    return statistics.median(values) if values else None
ceiling, sqlite = "ceiling (bare Hummingbird)", "actionable serve, SQLite FULL"
if median(ceiling, 1) and median(sqlite, 1):
    print(f"\nMedians: ceiling {median(ceiling, 1):.0f} req/s, p99 {median(ceiling, 3):.2f} ms; "
        f"SQLite FULL {median(sqlite, 1):.0f} req/s ({100 * median(sqlite, 1) / median(ceiling, 1):.0f}% of the ceiling), "
        f"p99 {median(sqlite, 3):.2f} ms ({median(sqlite, 3) / median(ceiling, 3):.2f}x the ceiling's).")
EOF
