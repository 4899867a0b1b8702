#!/usr/bin/env bash
# Scale out on PostgreSQL: N = 1, 2 and 4 `serve` instances on one PostgreSQL, each instance held
# to 0.2 core and PostgreSQL to 0.8 by cgroup v1 quotas (`cpu.cfs_quota_us` of a 100 ms period),
# as hosts of their own would be. Every instance forwards each tap to one endpoint, a sink that is
# not ours (nginx, `return 204`, one log line per call); wrk splits 64 connections and the taps
# over the instances, every request a new tap with a valid token.
#
# Per run: taps/s accepted (wrk), delivered end to end (sink calls / first request … last call),
# the CPU per delivered tap of the instances together and of PostgreSQL (`cpuacct.usage` read
# before the load and after the queue drained), how often PostgreSQL's and the instances' quotas
# bound (`cpu.stat` nr_throttled / nr_periods), and PostgreSQL's commits and rows written per
# delivered tap (`pg_stat_database`). Then per N the median, and N's delivered rate ÷ N × one
# instance's.
#
# Usage: [ACTIONABLE_BINARY=PATH] [ACTIONABLE_SCALE_COUNTS="1 2 4"] [ACTIONABLE_SCALE_PERF=1] Benchmarks/scale-out.sh [SECONDS] [ROUNDS]
#        (defaults: 10 2; the fleet of 1 instance must be among the counts, as the others are divided by it)
# Needs root (the cgroup v1 `cpu` and `cpuacct` controllers under /sys/fs/cgroup), wrk, nginx
# (nginx-light) and PostgreSQL's server binaries.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
# shellcheck source=lib/serve.sh
source "$here/lib/serve.sh"
duration="${1:-10}"
rounds="${2:-2}"
counts="${ACTIONABLE_SCALE_COUNTS:-1 2 4}"  # the fleets measured (each of 1 to 4 instances)
connections=64
needs wrk nginx psql
cgroups=/sys/fs/cgroup
if [ ! -w "$cgroups/cpu" ] || [ ! -w "$cgroups/cpuacct" ]; then
    echo "scale-out.sh needs root and the cgroup v1 cpu and cpuacct controllers under $cgroups" >&2
    exit 1
fi

build_release action-bodies
scratch scale
# shellcheck source=lib/wrk.sh
source "$here/lib/wrk.sh"
# shellcheck source=lib/sink.sh
source "$here/lib/sink.sh"

# The groups: one per instance, one for PostgreSQL, under a parent of this run's own.
parent="actionable-scale-$$"
mkgroup() {  # mkgroup NAME QUOTA : QUOTA µs of CPU in every 100,000 (20000: 0.2 core)
    local controller
    for controller in cpu cpuacct; do mkdir -p "$cgroups/$controller/$parent/$1"; done
    echo 100000 >"$cgroups/cpu/$parent/$1/cpu.cfs_period_us"
    echo "$2" >"$cgroups/cpu/$parent/$1/cpu.cfs_quota_us"
}
# in_group NAME COMMAND… : runs COMMAND in group NAME (its threads and children too).
in_group() {
    local name="$1"; shift
    # exec: started in the background, the process keeps the pid `$!` gave, so it can be stopped.
    exec sh -c 'echo $$ >"$1/cpu/$2/cgroup.procs"; echo $$ >"$1/cpuacct/$2/cgroup.procs"; shift 2; exec "$@"' \
        sh "$cgroups" "$parent/$name" "$@"
}
usage_ns() { cat "$cgroups/cpuacct/$parent/$1/cpuacct.usage"; }
throttled() { awk '/^nr_periods/ {p=$2} /^nr_throttled/ {t=$2} END {print p, t}' "$cgroups/cpu/$parent/$1/cpu.stat"; }
extra_cleanup() {
    [ -n "${ACTIONABLE_TEST_POSTGRES_DIR:-}" ] && "$root/scripts/postgres-test-cluster" stop "$ACTIONABLE_TEST_POSTGRES_DIR"
    local controller group
    for controller in cpu cpuacct; do
        for group in "$cgroups/$controller/$parent"/*/; do [ -d "$group" ] && rmdir "$group" 2>/dev/null || true; done
        rmdir "$cgroups/$controller/$parent" 2>/dev/null || true
    done
}

mkgroup postgres 80000
for index in 1 2 3 4; do mkgroup "instance-$index" 20000; done
# PostgreSQL starts inside its group: the postmaster and every backend it forks stay in it.
eval "$(in_group postgres "$root/scripts/postgres-test-cluster" start)"
database="$ACTIONABLE_TEST_POSTGRES_URL"
# pg_stat_statements, to say which statements PostgreSQL's time per tap goes to: loaded at a
# restart (in the group again: a subshell, as in_group replaces the shell it runs in).
psql "$database" -qc "alter system set shared_preload_libraries = 'pg_stat_statements'"
"$root/scripts/postgres-test-cluster" halt "$ACTIONABLE_TEST_POSTGRES_DIR"
(in_group postgres "$root/scripts/postgres-test-cluster" resume "$ACTIONABLE_TEST_POSTGRES_DIR")
psql "$database" -qc "create extension if not exists pg_stat_statements"

# Taps: more than four instances could take in a run (each line is used once).
bodies=$((duration * 2500))
mint_taps "$bodies"

sink_port="$(free_port)"
start_sink "$sink_port"

# drain EXPECTED : returns once the sink logged EXPECTED calls more than before the run, or when
# no call came for 15 s (the run then reports what did come).
drain() {
    local before="$1" expected="$2" last quiet=0 now
    last="$(sink_calls)"
    while [ $(($(sink_calls) - before)) -lt "$expected" ] && [ "$quiet" -lt 150 ]; do
        sleep 0.1  # waiting for the queue to drain, not a measurement
        now="$(sink_calls)"
        if [ "$now" = "$last" ]; then quiet=$((quiet + 1)); else quiet=0; last="$now"; fi
    done
    flush_sink
}

stats() {  # commits and rows written so far in the database
    psql "$database" -qAt -F' ' -c \
        "select xact_commit, tup_inserted + tup_updated + tup_deleted from pg_stat_database where datname = current_database()"
}

# run LABEL N : N instances on a schema of their own; appends a line to $work/runs.txt
run() {
    local label="$1" count="$2" ports=() loads=() files=() index
    local storage="$database?schema=scale$(date +%s)_$label"
    storage="${storage//-/_}"
    for index in $(seq 1 "$count"); do
        ports+=("$(free_port)")
        start "$label-$index" "${ports[-1]}" /readyz in_group "instance-$index" "$actionable" serve \
            --categories "$root/Categories" --port "${ports[-1]}" --storage "$storage" --token-key "$key" \
            --max-in-flight 4096 --max-connections-per-address 0 --forward-secret "$secret" \
            --forward "invite.*=http://127.0.0.1:$sink_port/sink"
    done
    split -n "l/$count" -d "$work/bodies.txt" "$work/part-$label-"
    local before_calls; before_calls="$(sink_calls)"
    local before_usage=() groups=(postgres) group
    for index in $(seq 1 "$count"); do groups+=("instance-$index"); done
    for group in "${groups[@]}"; do before_usage+=("$(usage_ns "$group") $(throttled "$group")"); done
    local before_stats; before_stats="$(stats)"
    psql "$database" -qAt -c "select pg_stat_statements_reset()" >/dev/null
    local started; started="$(date +%s.%N)"
    # With ACTIONABLE_SCALE_PERF set, a fleet of one is profiled while it takes the load (its CPU
    # figures then include perf's own cost).
    local profile=""
    if [ -n "${ACTIONABLE_SCALE_PERF:-}" ] && [ "$count" = 1 ]; then
        perf record -e cpu-clock -F 999 -g -o "$work/perf-$label.data" -p "${pids[-1]}" -- sleep "$duration" >/dev/null 2>&1 &
        profile=$!
    fi
    for index in $(seq 0 $((count - 1))); do
        wrk -t1 -c$((connections / count)) -d"${duration}s" --latency -s "$here/wrk/post-bodies.lua" \
            "http://127.0.0.1:${ports[$index]}" -- "$(ls "$work/part-$label-"* | sed -n "$((index + 1))p")" \
            >"$work/$label-$index.wrk" &
        loads+=($!)
        files+=("$work/$label-$index.wrk")
    done
    for load in "${loads[@]}"; do wait "$load"; done
    if [ -n "$profile" ]; then wait "$profile" || true; fi
    local rps accepted refused
    read -r rps _ _ accepted refused < <(figures "${files[@]}")
    drain "$before_calls" "$accepted"
    local after_usage=()
    for group in "${groups[@]}"; do after_usage+=("$(usage_ns "$group") $(throttled "$group")"); done
    local after_stats; after_stats="$(stats)"
    # The statements of the run: calls and execution time per delivered tap, the costliest first.
    psql "$database" -qAt -F'|' -c "select calls, total_exec_time, rows, regexp_replace(case when length(query) > 150 then left(query, 80) || ' … ' || right(query, 60) else query end, '\s+', ' ', 'g')
        from pg_stat_statements where dbid = (select oid from pg_database where datname = current_database())
        order by total_exec_time desc limit 14" >"$work/statements-$label.txt"
    python3 - "$work/nginx/logs/calls.log" "$before_calls" "$started" "$label" "$count" "$rps" "$accepted" "$refused" \
        "$before_stats" "$after_stats" "${#groups[@]}" "${before_usage[@]}" "${after_usage[@]}" >>"$work/runs.txt" <<'EOF'
import sys
args = sys.argv[1:]
path, before, started, label, count, rps, accepted, refused = args[0], int(args[1]), float(args[2]), args[3], int(args[4]), float(args[5]), int(args[6]), int(args[7])
commits0, rows0 = map(int, args[8].split())
commits1, rows1 = map(int, args[9].split())
groups = int(args[10])
usage0 = [list(map(int, value.split())) for value in args[11:11 + groups]]
usage1 = [list(map(int, value.split())) for value in args[11 + groups:11 + 2 * groups]]
lines = [line for line in open(path).read().split("\n")[before:] if line.strip()]
times = [float(line.split()[0]) for line in lines]
calls = len(times)
span = (max(times) - started) if times else 0.0
e2e = calls / span if span > 0 else 0.0
cpu = [(a[0] - b[0]) / 1000 for a, b in zip(usage1, usage0)]  # µs
periods = [(a[1] - b[1], a[2] - b[2]) for a, b in zip(usage1, usage0)]
per = lambda value: value / calls if calls else 0.0
pg_throttled = periods[0][1] / periods[0][0] * 100 if periods[0][0] else 0.0
inst_periods = sum(p for p, _ in periods[1:])
inst_throttled = sum(t for _, t in periods[1:]) / inst_periods * 100 if inst_periods else 0.0
print(f"{label} {count} {rps:.0f} {e2e:.0f} {calls} {accepted} {refused} {per(sum(cpu[1:])):.0f} {per(cpu[0]):.0f} "
      f"{pg_throttled:.0f} {inst_throttled:.0f} {per(commits1 - commits0):.2f} {per(rows1 - rows0):.2f} {span:.1f}")
EOF
    stop_all
    rm -f "$work/part-$label-"*
}

: >"$work/runs.txt"
for round in $(seq 1 "$rounds"); do
    for count in $counts; do run "n$count-r$round" "$count"; done
done

if [ -n "${ACTIONABLE_SCALE_PERF:-}" ] && [ -f "$work/perf-n1-r$rounds.data" ]; then
    echo
    echo "Where one instance's CPU goes (perf record -e cpu-clock -g, last round; self time by library, then by symbol):"
    echo
    perf report -i "$work/perf-n1-r$rounds.data" --no-children --sort dso --stdio -g none 2>/dev/null | grep -v '^#' | grep -v '^$' | head -12
    echo
    perf report -i "$work/perf-n1-r$rounds.data" --no-children --sort dso,sym --stdio -g none 2>/dev/null | grep -v '^#' | grep -v '^$' | head -40
fi

for count in $counts; do
    python3 - "$work/statements-n$count-r$rounds.txt" "$(grep "^n$count-r$rounds " "$work/runs.txt" | awk '{print $5}')" "$count" <<'EOF'
import sys
calls_total = int(sys.argv[2]) or 1
print(f"\nPostgreSQL's statements with {sys.argv[3]} instance(s), last round, per delivered tap ({calls_total} taps; execution time only, not parsing, planning or the protocol):\n")
print("| statement | calls / tap | rows / call | execution µs / tap |")
print("| --- | ---: | ---: | ---: |")
for line in open(sys.argv[1]):
    calls, total, rows, query = line.rstrip("\n").split("|", 3)
    calls, total, rows = int(calls), float(total), int(rows)
    print(f"| `{query.strip()}` | {calls / calls_total:.2f} | {rows / calls if calls else 0:.1f} | {total * 1000 / calls_total:.0f} |")
EOF
done

python3 - "$work/runs.txt" "$(nproc)" <<'EOF'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1]) if line.strip()]
print(f"machine: {sys.argv[2]} cores; instances 0.2 core each, PostgreSQL 0.8 (cgroup v1 quotas)\n")
print("| run | instances | accepted/s | delivered end to end /s | calls | taps wrk counted | not 2xx | instance CPU µs / delivered tap | PostgreSQL CPU µs / delivered tap | PostgreSQL throttled | instances throttled | commits / tap | rows written / tap | first request → last call (s) |")
print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
for r in rows:
    print(f"| {r[0]} | {r[1]} | {r[2]} | {r[3]} | {r[4]} | {r[5]} | {r[6]} | {r[7]} | {r[8]} | {r[9]}% | {r[10]}% | {r[11]} | {r[12]} | {r[13]} |")
median = lambda n, column: statistics.median(float(r[column]) for r in rows if r[1] == str(n))
one = median(1, 3)
print("\n| instances | median delivered /s | ÷ (N × one instance) | instance CPU µs / tap | PostgreSQL CPU µs / tap | PostgreSQL throttled | commits / tap |")
print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
for n in sorted({int(r[1]) for r in rows}):
    delivered = median(n, 3)
    print(f"| {n} | {delivered:.0f} | {delivered / (n * one):.2f} | {median(n, 7):.0f} | {median(n, 8):.0f} | {median(n, 9):.0f}% | {median(n, 11):.2f} |")
EOF
