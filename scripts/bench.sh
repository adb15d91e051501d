#!/usr/bin/env bash
# Runs every benchmark of the project and prints one table:
# package, benchmark, ns/op, B/op, allocs/op and any custom metric (b.ReportMetric).
#
#   scripts/bench.sh                 all packages, default -benchtime
#   scripts/bench.sh ./validate/...  some packages
#   BENCHTIME=2s scripts/bench.sh    longer runs
#   BENCH='Evaluate' scripts/bench.sh  only benchmarks matching a regexp
#   BENCH='Decode.*Frame' scripts/bench.sh ./drivers/barcode  the camera decoder: 640×480 desk,
#       camera, empty and noise frames, and large phone photos (DecodeLargeFrame, timed apart)
set -euo pipefail
cd "$(dirname "$0")/.."
pkgs=("$@"); [ ${#pkgs[@]} -gt 0 ] || pkgs=(./...)
raw=$(mktemp); trap 'rm -f "$raw"' EXIT
go test -run '^$' -bench "${BENCH:-.}" -benchmem -benchtime "${BENCHTIME:-1s}" -timeout 60m "${pkgs[@]}" | tee "$raw" >&2
echo
awk '
/^pkg: / { pkg = $2; sub(/^.*\/pos\//, "", pkg); next }
/^Benchmark/ {
	name = $1; sub(/^Benchmark/, "", name); sub(/-[0-9]+$/, "", name)
	ns = "-"; b = "-"; al = "-"; extra = ""
	for (i = 3; i < NF; i += 2) {
		v = $i; u = $(i+1)
		if (u == "ns/op") ns = v
		else if (u == "B/op") b = v
		else if (u == "allocs/op") al = v
		else extra = extra (extra == "" ? "" : "  ") v " " u
	}
	rows[++n] = sprintf("%-28s %-40s %14s %12s %10s  %s", pkg, name, ns, b, al, extra)
}
END {
	printf("%-28s %-40s %14s %12s %10s  %s\n", "package", "benchmark", "ns/op", "B/op", "allocs/op", "other metrics")
	for (i = 1; i <= n; i++) print rows[i]
}' "$raw"
# Binary size per target (scripts/build.sh builds dist/).
if [ -d dist ]; then
	echo
	scripts/sizes.sh
fi
