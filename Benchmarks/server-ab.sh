#!/usr/bin/env bash
# Interleaved A/B of two builds of `actionable serve` on SQLite FULL: the same bodies, rounds
# alternating A, B, A, B… so that the machine's drift hits both alike. Prints requests/s and
# p99 per run. Needs wrk, and Benchmarks' action-bodies built in release.
#
# Usage: Benchmarks/server-ab.sh A_BINARY B_BINARY [SECONDS] [ROUNDS]     (defaults: 10 4)
# AB_A_FLAGS and AB_B_FLAGS add flags to A's and B's `serve` (e.g. AB_B_FLAGS="--retention 1s").
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
# shellcheck source=lib/serve.sh
source "$here/lib/serve.sh"
a="${1:?usage: $0 A_BINARY B_BINARY [SECONDS] [ROUNDS]}"
b="${2:?usage: $0 A_BINARY B_BINARY [SECONDS] [ROUNDS]}"
duration="${3:-10}"
rounds="${4:-4}"
command -v wrk >/dev/null || { echo "server-ab.sh needs wrk: apt-get install wrk" >&2; exit 1; }
(cd "$root" && swift build -c release --product action-bodies >&2)

work="$(mktemp -d /tmp/actionable-ab.XXXXXX)"
pid=""
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$work"' EXIT
key="load=$(head -c 32 /dev/urandom | base64)"
"$root/.build/release/action-bodies" "$key" $((duration * 20000)) "$work/bodies.txt"

echo "| round | build | requests/s | p99 |"
echo "| --- | --- | ---: | ---: |"
for round in $(seq 1 "$rounds"); do
    for which in A B; do
        binary="$a"; flags="${AB_A_FLAGS:-}"
        [ "$which" = B ] && binary="$b" && flags="${AB_B_FLAGS:-}"
        port="$(free_port)"
        # shellcheck disable=SC2086  # $flags is a list of words
        "$binary" serve --categories "$root/Categories" --port "$port" --storage "sqlite:$work/$which-$round.sqlite" \
            --token-key "$key" --max-in-flight 4096 $flags >"$work/$which-$round.log" 2>&1 &
        pid=$!
        wait_ready "$port"
        wrk -t1 -c64 -d"${duration}s" --latency -s "$here/wrk/post-bodies.lua" "http://127.0.0.1:$port" -- "$work/bodies.txt" \
            >"$work/$which-$round.wrk"
        kill "$pid"; wait "$pid" || true; pid=""
        rps="$(awk '/Requests\/sec/ {print $2}' "$work/$which-$round.wrk")"
        p99="$(awk '$1 == "99%" {print $2}' "$work/$which-$round.wrk")"
        if grep -q "Non-2xx" "$work/$which-$round.wrk"; then rps="$rps (with non-2xx answers)"; fi
        echo "| $round | $which | $rps | $p99 |"
    done
done
