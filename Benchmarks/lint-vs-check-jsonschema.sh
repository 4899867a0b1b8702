#!/usr/bin/env bash
# End to end, as CI pays for it: `actionable lint` (release build) against check-jsonschema
# (PyPI) validating the same generated files against schema/category.schema.json, and against
# the floor of reading + parsing them with Yams alone is in the in-process benchmark
# (`swift package benchmark`). Needs hyperfine (Debian) and check-jsonschema (pip).
# Usage: Benchmarks/lint-vs-check-jsonschema.sh [N ...]   (default: 100 1000 10000)
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=("${@:-100 1000 10000}")
swift build -c release --product actionable >/dev/null
(cd Benchmarks && swift build -c release --product generate-categories >/dev/null)
for n in ${sizes[@]}; do
    dir="${TMPDIR:-/tmp}/actionable-bench-$n"
    rm -rf "$dir"
    Benchmarks/.build/release/generate-categories "$n" "$dir"
    runs=10
    [ "$n" -ge 10000 ] && runs=3
    echo "## N = $n"
    table="$(mktemp)"
    hyperfine --warmup 1 --runs "$runs" --style none --export-markdown "$table" \
        -n "actionable lint" "./.build/release/actionable lint $dir" \
        -n "check-jsonschema" "check-jsonschema --schemafile schema/category.schema.json $dir/*.yaml"
    cat "$table"
    rm -f "$table"
done
