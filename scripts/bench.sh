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
#   BENCH='DecodeCameraSymbology' BENCHTIME=176x scripts/bench.sh ./drivers/barcode  median and
#       p99 per symbology over 88 camera frames each (176x: every frame twice)
#   BENCH='DecodeSet' BENCHTIME=112x BARCODE_GEN3_BENCH=$PWD/out/gen3/qr scripts/bench.sh ./drivers/barcode
#       issue 34's speed target per set (desk, camera, gen3, nearmiss, clutter, real), each without a
#       budget, with the camera's 40-ms one and with it counted in CPU time: median, p99 and
#       worst per frame in wall and CPU time (ms-*, cpu-ms-*) and the share read; out/gen3/qr
#       is the third generator's QR classes (the wider QR set), drawn by
#       scripts/gen3/frame.sh (docs/codes.md, Speed); without it, its checked-in sample only
#   BENCH='CameraStream' BENCHTIME=112x BARCODE_GEN3_BENCH=$PWD/out/gen3/qr scripts/bench.sh ./drivers/barcode
#       the same sets as a camera meets them (barcode.DefaultCadence: one frame in four up to
#       40 ms, the others 6 ms; each frame shown until it reads): CPU ms per frame shown, the
#       share read, the frames and CPU until a read
#   BENCH='MatrixFitted|MatrixCornerFrame|QRCorrFinders' scripts/bench.sh ./drivers/barcode
#       the matrix fitted pass (CPU ms per candidate: read, clutter, random data), a corner
#       frame under the camera's Full budget (share read, CPU ms), the QR correlation search
#   SIZES=0 scripts/bench.sh        without the binary sizes
#
# The table ends with the size of each binary per target (package "dist", benchmark
# BinarySize/<binary>): scripts/build.sh builds dist/ first when it is missing (the firmware
# benchmarks flash a bundle of dist/'s posd and posctl).
set -euo pipefail
cd "$(dirname "$0")/.."
pkgs=("$@"); [ ${#pkgs[@]} -gt 0 ] || pkgs=(./...)
raw=$(mktemp); trap 'rm -f "$raw"' EXIT
# dist/ first: the firmware benchmarks flash a bundle of its posd and posctl.
if [ "${SIZES:-1}" != 0 ] && [ ! -d dist ]; then
	echo "bench.sh: no dist/: scripts/build.sh" >&2
	scripts/build.sh >&2
fi
go test -run '^$' -bench "${BENCH:-.}" -benchmem -benchtime "${BENCHTIME:-1s}" -timeout 60m "${pkgs[@]}" | tee "$raw" >&2
if [ "${SIZES:-1}" != 0 ]; then
	# One row per binary, in the benchmark output's form: bytes and MiB as its metrics.
	echo "pkg: github.com/packterm/pos/dist" >>"$raw"
	for f in dist/* dist/lab/*; do # dist/lab/posd-*: the lab posd (with the emulator)
		[ -f "$f" ] || continue
		s=$(stat -c %s "$f")
		awk -v n="${f#dist/}" -v s="$s" 'BEGIN { printf("BenchmarkBinarySize/%s 1 %d bytes %.2f MiB\n", n, s, s / 1048576) }' >>"$raw"
	done
fi
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
