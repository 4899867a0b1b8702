#!/usr/bin/env bash
# Idle cost on PostgreSQL: INSTANCES `serve` instances on one database, each with one endpoint
# (the same --forward), nothing tapped; PostgreSQL's committed transactions a second over SECONDS
# (`pg_stat_database.xact_commit` of the database, read before and after; the two reads are
# PostgreSQL's own and are subtracted). A throwaway cluster of its own (scripts/postgres-test-cluster).
#
# Usage: [ACTIONABLE_BINARY=PATH] Benchmarks/idle-commits.sh [INSTANCES] [SECONDS]   (defaults: 4 20)
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
# shellcheck source=lib/serve.sh
source "$here/lib/serve.sh"
instances="${1:-4}"
seconds="${2:-20}"

actionable="${ACTIONABLE_BINARY:-$root/.build/release/actionable}"
[ -n "${ACTIONABLE_BINARY:-}" ] || (cd "$root" && swift build -c release --product actionable >&2)
scratch idle
eval "$("$root/scripts/postgres-test-cluster" start)"
extra_cleanup() { "$root/scripts/postgres-test-cluster" stop "$ACTIONABLE_TEST_POSTGRES_DIR"; }
cp -r "$root/Categories" "$work/Categories"

for index in $(seq 1 "$instances"); do
    port="$(free_port)"
    (cd "$work" && exec "$actionable" serve --categories Categories --port "$port" --storage "$ACTIONABLE_TEST_POSTGRES_URL" \
        --forward "invite.*=http://127.0.0.1:9/idle" --forward-secret "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw" \
        >"$work/serve-$index.log" 2>&1) &
    pids+=($!)
    wait_ready "$port"
done
commits() {
    psql "$ACTIONABLE_TEST_POSTGRES_URL" -qAt -c "select xact_commit from pg_stat_database where datname = current_database()"
}
sleep 2  # the instances' first claims and reads after start are not idle
before="$(commits)"
sleep "$seconds"  # the measured idle period
after="$(commits)"
python3 -c "
import sys
before, after, seconds, instances = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
print(f'{instances} idle instances, one endpoint: {(after - before - 1) / seconds:.2f} commits/s in PostgreSQL ({after - before - 1} in {seconds:.0f} s)')
" "$before" "$after" "$seconds" "$instances"
