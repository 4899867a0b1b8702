#!/usr/bin/env bash
# The accept path by its CPU: CPU µs per accepted tap of `actionable serve` (user + system time of
# the process over the run ÷ taps answered 202) beside CPU µs per request of the ceiling (a bare
# Hummingbird endpoint that only decodes the same JSON and answers 202, Sources/ceiling-server),
# alternating ceiling, SQLite (synchronous = FULL) and — when PostgreSQL's server binaries are
# here — PostgreSQL, ROUNDS times in one run. wrk on loopback, 64 connections, every request a new
# tap with a valid token. CPU time is steadier than requests/s on a shared machine (requests/s
# are reported beside it).
#
# Usage: [ACTIONABLE_BINARY=PATH [ACTIONABLE_CATEGORIES=DIR]] [ACTIONABLE_ACCEPT_PERF=DIR] [ACTIONABLE_ACCEPT_RATIOS=FILE]
#        Benchmarks/accept-cost.sh [SECONDS_PER_RUN] [ROUNDS]
#        (defaults: 8 3; an older binary reads the category files of its own commit:
#        git -C REPO archive COMMIT Categories | tar -x -C DIR; with ACTIONABLE_ACCEPT_PERF, the last round of each server is profiled with
#        perf record -g into DIR/perf-LABEL.data — its CPU figures then include perf's own cost;
#        with ACTIONABLE_ACCEPT_RATIOS, FILE gets "SERVER RATIO CPU_µS CEILING_CPU_µS RATE_SHARE" a line:
#        what scripts/check-accept-cost reads)
# Needs wrk (apt-get install wrk).
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
# shellcheck source=lib/serve.sh
source "$here/lib/serve.sh"
duration="${1:-8}"
rounds="${2:-3}"
connections=64

needs wrk python3
build_release ceiling-server action-bodies
ceiling="$root/.build/release/ceiling-server"

scratch accept-cost
pg_dir=""
extra_cleanup() { [ -n "$pg_dir" ] && "$root/scripts/postgres-test-cluster" stop "$pg_dir"; }
# Every run takes its own taps: a tap answered before is a duplicate (200), not an accept.
mint_taps $((duration * 12000 * rounds * 3))
split -n "l/$((rounds * 3))" -d -a 3 "$work/bodies.txt" "$work/part."
parts=("$work"/part.*)
next_part=0

# shellcheck source=lib/wrk.sh
source "$here/lib/wrk.sh"

# cpu_ticks PID : user + system clock ticks the process has used so far.
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

# measure LABEL PORT : one wrk run against the server started last; appends
# "LABEL requests/s requests non-2xx cpu-µs" to $work/costs.txt.
measure() {
    local label="$1" port="$2" pid="${pids[-1]}" before after
    local bodies="${parts[$next_part]}"
    next_part=$((next_part + 1))
    local profile=""
    if [ -n "${ACTIONABLE_ACCEPT_PERF:-}" ] && [ "${label##*-}" = "$rounds" ]; then
        mkdir -p "$ACTIONABLE_ACCEPT_PERF"
        perf record -e cpu-clock -F 1999 -g -o "$ACTIONABLE_ACCEPT_PERF/perf-$label.data" -p "$pid" -- sleep "$duration" \
            >/dev/null 2>&1 &
        profile=$!
    fi
    before="$(cpu_ticks "$pid")"
    load "$label" "$port" "$connections" "$bodies"
    after="$(cpu_ticks "$pid")"
    if [ -n "$profile" ]; then wait "$profile" || true; fi
    read -r rps _ _ requests errors < <(figures "$work/$label.wrk")
    local ticks; ticks="$(getconf CLK_TCK)"
    echo "$label $rps $requests $errors $(((after - before) * 1000000 / ticks))" >>"$work/costs.txt"
    stop_all
}

# Builds older than the per-address limit (the bisect in BENCHMARKS.md runs them) have no such flag.
per_address=()
if "$actionable" serve --help 2>&1 | grep -q -- --max-connections-per-address; then per_address=(--max-connections-per-address 0); fi

serve() {  # serve NAME PORT STORAGE
    start "$1" "$2" /readyz "$actionable" serve --categories "${ACTIONABLE_CATEGORIES:-$root/Categories}" --port "$2" --storage "$3" \
        --token-key "$key" --max-in-flight 4096 "${per_address[@]}"
}

if pg="$("$root/scripts/postgres-test-cluster" start 2>/dev/null)"; then
    eval "$pg"
    pg_dir="$ACTIONABLE_TEST_POSTGRES_DIR"
else
    echo "PostgreSQL could not start: its runs are skipped" >&2
fi

: >"$work/costs.txt"
for round in $(seq 1 "$rounds"); do
    port="$(free_port)"
    start "ceiling-$round" "$port" - "$ceiling" "$port"
    measure "ceiling-$round" "$port"

    port="$(free_port)"
    serve "sqlite-$round" "$port" "sqlite:$work/sqlite-$round.sqlite"
    measure "sqlite-$round" "$port"

    if [ -n "$pg_dir" ]; then
        port="$(free_port)"
        serve "postgres-$round" "$port" "$ACTIONABLE_TEST_POSTGRES_URL?schema=accept_$round"
        measure "postgres-$round" "$port"
    fi
done

python3 - "$work/costs.txt" "$duration" "$connections" "$(nproc)" "${ACTIONABLE_ACCEPT_RATIOS:-}" <<'EOF'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1]) if line.strip()]
print(f"wrk -t1 -c{sys.argv[3]} -d{sys.argv[2]}s on loopback, {sys.argv[4]} cores; CPU is user + system time of the server process.\n")
print("| run | requests/s | requests | not 2xx | CPU µs / accepted request |")
print("| --- | ---: | ---: | ---: | ---: |")
cost = {}
rate = {}
for label, rps, requests, errors, cpu in rows:
    accepted = int(requests) - int(errors)
    per = int(cpu) / accepted if accepted else float("nan")
    kind = label.rsplit("-", 1)[0]
    cost.setdefault(kind, []).append(per)
    rate.setdefault(kind, []).append(float(rps))
    print(f"| {label} | {float(rps):.0f} | {requests} | {errors} | {per:.0f} |")
print("\n| server | median CPU µs / accepted request | ÷ the ceiling's | median requests/s | ÷ the ceiling's |")
print("| --- | ---: | ---: | ---: | ---: |")
base_cost = statistics.median(cost["ceiling"])
base_rate = statistics.median(rate["ceiling"])
summary = []
for kind in cost:
    c, r = statistics.median(cost[kind]), statistics.median(rate[kind])
    print(f"| {kind} | {c:.0f} | {c / base_cost:.2f}× | {r:.0f} | {100 * r / base_rate:.0f}% |")
    summary.append(f"{kind} {c / base_cost:.3f} {c:.1f} {base_cost:.1f} {r / base_rate:.3f}\n")
if sys.argv[5]:  # for scripts/check-accept-cost: "server ratio cpu-µs ceiling-cpu-µs rate-share" a line
    open(sys.argv[5], "w").write("".join(summary))
EOF

# With ACTIONABLE_ACCEPT_PERF: the last round's CPU per request split by stage (lib/accept-stages.py
# says how a sample is given to a stage).
if [ -n "${ACTIONABLE_ACCEPT_PERF:-}" ]; then
    tables=()
    for data in "$ACTIONABLE_ACCEPT_PERF"/perf-*-"$rounds".data; do
        label="$(basename "$data" .data)"
        label="${label#perf-}"
        per="$(awk -v l="$label" '$1 == l { a = $3 - $4; printf "%.1f", a ? $5 / a : 0 }' "$work/costs.txt")"
        perf script -i "$data" -F comm,ip,sym 2>/dev/null | swift demangle --simplified >"$work/$label.stacks"
        python3 "$here/lib/accept-stages.py" "$per" "$work/$label.stacks" >"$work/$label.stages"
        tables+=("$label")
    done
    echo
    printf "| stage (CPU µs per request, last round) |"; for label in "${tables[@]}"; do printf " %s |" "$label"; done; echo
    printf "| --- |"; for _ in "${tables[@]}"; do printf " ---: |"; done; echo
    cut -f1 "$work/${tables[0]}.stages" | while read -r stage; do
        printf "| %s |" "$stage"
        for label in "${tables[@]}"; do printf " %s |" "$(awk -F'\t' -v s="$stage" '$1 == s { print $2 " (" $3 ")" }' "$work/$label.stages")"; done
        echo
    done
fi
