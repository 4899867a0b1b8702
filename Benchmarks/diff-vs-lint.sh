#!/usr/bin/env bash
# `actionable diff` of two N-file catalogs beside `actionable lint` of one of them (release build,
# hyperfine, process start included). The new catalog is the old one with every 100th file
# changed: a title retitled (a warning), an action retired (information), and in every 1,000th
# file an action removed (an error) — so the diff reports, and positions, real changes.
# Usage: Benchmarks/diff-vs-lint.sh [N ...]   (default: 1000 10000)
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=("${@:-1000 10000}")
# Both binaries from the benchmark package's release build (it depends on this package).
(cd Benchmarks && swift build -c release --product actionable >/dev/null && swift build -c release --product generate-categories >/dev/null)
actionable=Benchmarks/.build/release/actionable
for n in ${sizes[@]}; do
    old="${TMPDIR:-/tmp}/actionable-diff-old-$n"
    new="${TMPDIR:-/tmp}/actionable-diff-new-$n"
    rm -rf "$old" "$new"
    Benchmarks/.build/release/generate-categories "$n" "$old"
    cp -r "$old" "$new"
    for ((i = 0; i < n; i += 100)); do
        file="$new/category$i.yaml"
        sed -i 's/title: { en: Accept, de: Annehmen }/title: { en: Yes, de: Ja }/' "$file"
        if ((i % 1000 == 0)); then
            # Remove the decline action (three lines) and its context entries.
            sed -i "/- id: category$i.decline/,+3d; s/, category$i.decline//" "$file"
        else
            sed -i "s/    destructive: \(true\|false\)/    retired: true/; s/, category$i.decline//" "$file"
        fi
    done
    $actionable lint "$new" >/dev/null
    echo "## N = $n ($($actionable diff "$old" "$new" 2>&1 >/dev/null | tail -1))"
    table="$(mktemp)"
    hyperfine --warmup 1 --runs 10 --style none -i --export-markdown "$table" \
        -n "actionable lint (one catalog)" "$actionable lint $old" \
        -n "actionable diff (two catalogs)" "$actionable diff $old $new"
    cat "$table"
    rm -f "$table"
done
