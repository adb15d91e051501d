#!/usr/bin/env bash
# The project's test command (the README's second command; .ci/run calls it).
#
#   1. gofmt check and go vet
#   2. go test -race ./... on the host, then validate/... again at full counts without -race
#   3. cross-builds of every command for linux/arm (GOARM=6, 7) and linux/arm64, static
#   4. the test binaries of the hardware-free packages run under qemu-arm-static and
#      qemu-aarch64-static (-test.short), installing qemu-user-static when missing and allowed
#
# Environment: QEMU=0 skips step 4 (for a quick local run); CI=true makes a missing qemu an error.
set -euo pipefail
cd "$(dirname "$0")/.."
export CGO_ENABLED=${CGO_ENABLED:-1}

step() { printf '\n== %s\n' "$*"; }

step "test tools"
# command:package pairs the tests use; installed when missing and allowed (CI=true or root).
tools="qemu-arm-static:qemu-user-static qemu-aarch64-static:qemu-user-static zbarimg:zbar-tools dmtxread:dmtx-utils dmtxwrite:dmtx-utils zint:zint"
missing=""
for t in $tools; do
	command -v "${t%%:*}" >/dev/null || missing="$missing ${t#*:}"
done
missing=$(echo $missing | tr ' ' '\n' | sort -u | tr '\n' ' ')
if [ -z "${missing// /}" ]; then
	echo "all present"
elif [ "${CI:-}" = true ] || [ "$(id -u)" = 0 ]; then
	echo "installing:$missing"
	(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing) >/dev/null 2>&1 ||
		{ echo "apt-get install$missing failed"; exit 1; }
else
	echo "missing and not allowed to install (not root, CI unset):$missing — tests that need them skip"
fi

step "gofmt"
unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$unformatted" ]; then
	echo "gofmt would change:"; echo "$unformatted"; exit 1
fi
echo ok

step "go vet"
go vet ./...
echo ok

step "go test -race ./... (host)"
go test -race -count=1 ./...

step "full-size tests without the race detector (validate/... at full counts, barcode read rates)"
go test -count=1 ./validate/...
# Held-out desk and camera frame sets (150 / 110 per symbology): read-rate floors, ≥ gozxing alone and
# zbarimg per class, no read on clutter (excluded under -race; BARCODE_FULL=1 for the full sets).
go test -count=1 -run 'TestFrameSet|TestCameraFrameSet|TestCameraClutterReadsNothing|TestCameraRightAngles' ./drivers/barcode

step "cross-builds (CGO_ENABLED=0, static)"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cmds=$(go list -f '{{if eq .Name "main"}}{{.ImportPath}}{{end}}' ./cmd/...)
build() { # GOARCH GOARM label
	for c in $cmds; do
		CGO_ENABLED=0 GOOS=linux GOARCH=$1 GOARM=$2 go build -trimpath -o "$out/$3/$(basename "$c")" "$c"
	done
	for f in "$out/$3"/*; do
		# A static binary has no program interpreter (PT_INTERP).
		if command -v readelf >/dev/null && readelf -l "$f" | grep -q INTERP; then
			echo "$f is not static"; exit 1
		fi
	done
	echo "$3: $(cd "$out/$3" && ls | tr '\n' ' ')"
}
build arm 6 armv6
build arm 7 armv7
build arm64 "" arm64

step "ARM test binaries under qemu-user"
if [ "${QEMU:-1}" = 0 ]; then
	echo "skipped (QEMU=0)"
else
	if ! command -v qemu-arm-static >/dev/null || ! command -v qemu-aarch64-static >/dev/null; then
		echo "qemu-user-static missing and not allowed to install it (not root, CI unset): skipped"
		exit 0
	fi
	# Hardware-free packages: everything under validate/ plus the pure-software driver
	# packages listed in scripts/qemu-packages.txt (one import path pattern per line).
	pkgs=$(go list ./validate/... $(grep -v '^#' scripts/qemu-packages.txt 2>/dev/null || true) | sort -u)
	for arch in arm:7:qemu-arm-static arm:6:qemu-arm-static arm64::qemu-aarch64-static; do
		IFS=: read -r goarch goarm emu <<<"$arch"
		for p in $pkgs; do
			dir=$(go list -f '{{.Dir}}' "$p")
			ls "$dir"/*_test.go >/dev/null 2>&1 || continue
			bin="$out/qemu-$goarch$goarm-$(echo "$p" | tr / _).test"
			CGO_ENABLED=0 GOOS=linux GOARCH=$goarch GOARM=$goarm go test -c -o "$bin" "$p"
			# Run from the package directory so testdata/ resolves.
			if ! (cd "$dir" && "$emu" "$bin" -test.short -test.count=1 >"$bin.log" 2>&1); then
				cat "$bin.log"; echo "FAIL under $emu ($goarch$goarm): $p"; exit 1
			fi
			echo "ok   $p ($goarch${goarm:+v$goarm} under $emu)"
		done
	done
fi
echo
echo "all checks passed"
