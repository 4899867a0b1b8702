#!/usr/bin/env bash
# SQLite's write-ahead log during an upstream outage, two builds side by side: each `serve`
# forwards to a port nothing listens on, takes LOAD_SECONDS of taps (20 000 distinct ones, then
# duplicates), and keeps retrying its pending responses until MINUTES have passed. The size of
# each build's log file is printed every 30 s. Both run at once, under the same load, so the
# machine's drift hits both alike. Needs wrk, and Benchmarks' action-bodies built in release.
#
# Usage: Benchmarks/wal-outage.sh A_BINARY B_BINARY [MINUTES] [LOAD_SECONDS]   (defaults: 10 120)
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
# shellcheck source=lib/serve.sh
source "$here/lib/serve.sh"
a="${1:?usage: $0 A_BINARY B_BINARY [MINUTES] [LOAD_SECONDS]}"
b="${2:?usage: $0 A_BINARY B_BINARY [MINUTES] [LOAD_SECONDS]}"
minutes="${3:-10}"
load="${4:-120}"
command -v wrk >/dev/null || { echo "wal-outage.sh needs wrk: apt-get install wrk" >&2; exit 1; }
(cd "$root" && swift build -c release --product action-bodies >&2)

work="$(mktemp -d /tmp/actionable-wal.XXXXXX)"
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"' EXIT
key="load=$(head -c 32 /dev/urandom | base64)"
"$root/.build/release/action-bodies" "$key" 20000 "$work/bodies.txt"
down="$(free_port)"  # nothing listens here: every delivery attempt fails

declare -A port
for which in A B; do
    binary="$a"; [ "$which" = B ] && binary="$b"
    port[$which]="$(free_port)"
    "$binary" serve --categories "$root/Categories" --port "${port[$which]}" --storage "sqlite:$work/$which.sqlite" \
        --token-key "$key" --max-in-flight 4096 \
        --forward "*=http://127.0.0.1:$down/rsvp" --forward-secret "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw" \
        >"$work/$which.log" 2>&1 &
    pids+=($!)
    wait_ready "${port[$which]}"
done
for which in A B; do
    wrk -t1 -c16 -d"${load}s" -s "$here/wrk/post-bodies.lua" "http://127.0.0.1:${port[$which]}" -- "$work/bodies.txt" \
        >"$work/$which.wrk" &
    pids+=($!)
done

size() { stat -c %s "$work/$1.sqlite-wal" 2>/dev/null || echo 0; }
echo "| time | A log | B log |"
echo "| ---: | ---: | ---: |"
peak_a=0; peak_b=0
for tick in $(seq 1 $((minutes * 2))); do
    sleep 30  # the sampling period of the measurement
    sa="$(size A)"; sb="$(size B)"
    [ "$sa" -gt "$peak_a" ] && peak_a="$sa"
    [ "$sb" -gt "$peak_b" ] && peak_b="$sb"
    printf '| %d:%02d | %.1f MB | %.1f MB |\n' $((tick / 2)) $((tick % 2 * 30)) "$(echo "$sa / 1000000" | bc -l)" \
        "$(echo "$sb / 1000000" | bc -l)"
done
printf '| peak | %.1f MB | %.1f MB |\n' "$(echo "$peak_a / 1000000" | bc -l)" "$(echo "$peak_b / 1000000" | bc -l)"
for which in A B; do
    echo "$which: $(awk '/Requests\/sec/ {print $2}' "$work/$which.wrk") taps/s during the load;" \
        "database $(du -h "$work/$which.sqlite" | cut -f1)"
done
