#!/usr/bin/env bash
# ActionableClient's throughput: sequential reports per second through ActionReporter.report()
# with an fsync'd report queue, beside plain URLSession POSTs without one (and a report queue
# without fsync), against `actionable serve` on SQLite on loopback, in one run. The report queue
# is on the same disk as the server's database (not tmpfs), so its fsyncs are real.
#
# Usage: Benchmarks/client-reports.sh [REPORTS_PER_RUN] [ROUNDS]   (defaults: 2000 5)
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
# shellcheck source=lib/serve.sh
source "$here/lib/serve.sh"
per_run="${1:-2000}"
rounds="${2:-5}"
port="$(free_port)"
key="bench=client-benchmark-key-of-at-least-32-bytes"

echo "building (release)..." >&2
(cd "$root" && swift build -c release --product actionable >&2)
(cd "$here" && swift build -c release --product client-reports >&2) && (cd "$root" && swift build -c release --product action-bodies >&2)

work="$(mktemp -d "$root/.build/client-bench.XXXXXX")"
server=""
cleanup() {
    [ -n "$server" ] && kill "$server" 2>/dev/null || true
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

cp -R "$root/Categories" "$work/Categories"
"$root/.build/release/action-bodies" "$key" $((per_run * rounds * 3)) "$work/bodies.txt" client
(cd "$work" && exec "$root/.build/release/actionable" serve --port "$port" --token-key "$key" \
    --storage "sqlite:$work/actions.sqlite" >"$work/serve.log" 2>&1) &
server=$!
wait_ready "$port"

echo "machine: $(nproc) cores, $(uname -sr), report queue on $(df -T "$work" | awk 'NR==2 {print $2}')"
"$here/.build/release/client-reports" "http://127.0.0.1:$port/" "$work/bodies.txt" "$work/report-queue" "$per_run" "$rounds"
