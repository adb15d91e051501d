#!/usr/bin/env bash
# The project's test command (the README's second command; .ci/run calls it).
#
#   1. gofmt and goimports checks, and go vet
#   2. go test -race ./... on the host, then validate/... again at full counts without -race
#   3. the README's main command, run as a smoke test (the emulated terminal playing
#      scripts/demo.posd, whose checks fail the run), and the operator's demo (scripts/demo.sh)
#   4. cross-builds of every command for linux/arm (GOARM=6, 7) and linux/arm64, static
#   5. the test binaries of the hardware-free packages run under qemu-arm-static and
#      qemu-aarch64-static (-test.short), installing qemu-user-static when missing and allowed
#
# Each stage prints its name, then its output as it comes (go test: one line per package
# as it finishes), a heartbeat line every 30 s while it runs, and its duration; a table
# of the durations ends the run.
#
# Environment: QEMU=0 skips step 5 and SMOKE=0 step 3 (for a quick local run; CI=true
# runs step 3 regardless and makes a missing qemu an error).
set -euo pipefail
cd "$(dirname "$0")/.."
export CGO_ENABLED=${CGO_ENABLED:-1}

out=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$out"' EXIT

# The README's main command, with a script of checks and a data directory of its own. CI
# proves it works; the operator's demo runs after it.
readme_main=(go run ./cmd/posd --emulate --fresh --script scripts/demo.posd --data "$out/posd")
operator_demo=(bash scripts/demo.sh)
durations=()
run_start=$(date +%s)

# stage NAME FUNCTION: runs FUNCTION (under set -e, in a subshell) with a heartbeat and
# its duration; the run stops at the first failing stage.
stage() {
	local name=$1 start rc=0
	shift
	printf '\n== %s\n' "$name"
	start=$(date +%s)
	"$@" &
	local pid=$!
	# The sleep gets no copy of stdout: once killed, the heartbeat holds no pipe open.
	(while sleep 30 >/dev/null 2>&1; do printf '   … %s: still running (%ds)\n' "$name" $(($(date +%s) - start)); done) &
	local beat=$!
	wait "$pid" || rc=$?
	kill "$beat" 2>/dev/null || true
	wait "$beat" 2>/dev/null || true
	local took=$(($(date +%s) - start))
	durations+=("$(printf '%5ds  %s' "$took" "$name")")
	if [ "$rc" -ne 0 ]; then
		printf -- '-- %s: FAILED (exit %d) after %ds\n' "$name" "$rc" "$took"
		exit "$rc"
	fi
	printf -- '-- %s: done in %ds\n' "$name" "$took"
}

tools() {
	# command:package pairs the tests use; installed when missing and allowed (CI=true or root).
	local tools="chromium:chromium qemu-arm-static:qemu-user-static qemu-aarch64-static:qemu-user-static zbarimg:zbar-tools dmtxread:dmtx-utils dmtxwrite:dmtx-utils zint:zint"
	local missing="" t
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
}

gofmt_check() {
	local files unformatted
	files=$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')
	unformatted=$(gofmt -l $files)
	if [ -n "$unformatted" ]; then
		echo "gofmt would change:"; echo "$unformatted"; exit 1
	fi
	# goimports (import groups), built once from the module proxy into the Go cache.
	unformatted=$(go run golang.org/x/tools/cmd/goimports@v0.52.0 -l $files)
	if [ -n "$unformatted" ]; then
		echo "goimports would change:"; echo "$unformatted"; exit 1
	fi
	echo ok
}

vet() { go vet ./...; echo ok; }

race_tests() { go test -race -count=1 ./...; }

full_tests() {
	go test -count=1 ./validate/...
	# Held-out desk and camera frame sets (150 / 110 per symbology): read-rate floors, ≥ gozxing alone and
	# zbarimg per class, no read on clutter (excluded under -race; BARCODE_FULL=1 for the full sets).
	go test -count=1 -run 'TestFrameSet|TestCameraFrameSet|TestCameraClutterReadsNothing|TestCameraRightAngles' ./drivers/barcode
}

main_job() {
	if [ "${SMOKE:-1}" = 0 ] && [ "${CI:-}" != true ]; then
		echo "skipped (SMOKE=0)"
		return
	fi
	smoke "the README's main command" "${readme_main[@]}"
	smoke "the operator's demo" "${operator_demo[@]}"
}

# smoke WHAT CMD...: runs CMD, its output to a log shown whole when it fails.
smoke() {
	local what=$1; shift
	echo "$*"
	local log="$out/smoke.log"
	if ! "$@" >"$log" 2>&1; then
		cat "$log"; echo "FAIL: $what ($*) failed"; exit 1
	fi
	grep -v '^[[:space:]]*$' "$log" | tail -n 3 | sed 's/^/   | /'
}

cross_builds() {
	local cmds
	cmds=$(go list -f '{{if eq .Name "main"}}{{.ImportPath}}{{end}}' ./cmd/...)
	build() { # GOARCH GOARM label
		local c f
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
}

qemu_tests() {
	if [ "${QEMU:-1}" = 0 ]; then
		echo "skipped (QEMU=0)"
		return
	fi
	if ! command -v qemu-arm-static >/dev/null || ! command -v qemu-aarch64-static >/dev/null; then
		if [ "${CI:-}" = true ]; then
			echo "qemu-user-static missing (CI=true)"; exit 1
		fi
		echo "qemu-user-static missing and not allowed to install it (not root, CI unset): skipped"
		return
	fi
	# Hardware-free packages: everything under validate/ plus the pure-software driver
	# packages listed in scripts/qemu-packages.txt (one import path pattern per line).
	local pkgs arch goarch goarm emu p dir bin
	pkgs=$(go list ./validate/... $(grep -v '^#' scripts/qemu-packages.txt 2>/dev/null || true) | sort -u)
	for arch in arm:7:qemu-arm-static arm:6:qemu-arm-static arm64::qemu-aarch64-static; do
		IFS=: read -r goarch goarm emu <<<"$arch"
		for p in $pkgs; do
			dir=$(go list -f '{{.Dir}}' "$p")
			ls "$dir"/*_test.go >/dev/null 2>&1 || continue
			bin="$out/qemu-$goarch$goarm-$(echo "$p" | tr / _).test"
			CGO_ENABLED=0 GOOS=linux GOARCH=$goarch GOARM=$goarm go test -c -o "$bin" "$p"
			# Run from the package directory so testdata/ resolves.
			local t0=$(date +%s)
			if ! (cd "$dir" && "$emu" "$bin" -test.short -test.count=1 >"$bin.log" 2>&1); then
				cat "$bin.log"; echo "FAIL under $emu ($goarch$goarm): $p"; exit 1
			fi
			echo "ok   $p ($goarch${goarm:+v$goarm} under $emu) $(($(date +%s) - t0))s"
		done
	done
}

stage "test tools" tools
stage "gofmt and goimports" gofmt_check
stage "go vet" vet
stage "go test -race ./... (host)" race_tests
stage "full-size tests without the race detector (validate/... at full counts, barcode read rates)" full_tests
stage "the README's main command and the operator's demo (smoke tests)" main_job
stage "cross-builds (CGO_ENABLED=0, static)" cross_builds
stage "ARM test binaries under qemu-user" qemu_tests

printf '\n== durations\n'
printf '%s\n' "${durations[@]}"
printf '%5ds  total\n' $(($(date +%s) - run_start))
echo
echo "all checks passed"
