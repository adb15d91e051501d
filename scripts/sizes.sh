#!/usr/bin/env bash
# Prints the size of each binary in dist/ (scripts/build.sh first) as a table, for the
# bench report (scripts/bench.sh prints it after the benchmarks when dist/ exists).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d dist ] || { echo "no dist/: run scripts/build.sh"; exit 1; }
printf '%-32s %12s %10s\n' "binary" "bytes" "MiB"
# dist/posd-* is the production posd (-tags production); dist/lab/posd-* the lab one (--emulate).
for f in dist/* dist/lab/*; do
	[ -f "$f" ] || continue
	s=$(stat -c %s "$f")
	awk -v n="${f#dist/}" -v s="$s" 'BEGIN { printf("%-32s %12d %10.2f\n", n, s, s / 1048576) }'
done
