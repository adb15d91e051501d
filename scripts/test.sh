#!/usr/bin/env bash
# The project's test command (the README's second command; .ci/run calls it).
#
#   1. gofmt and goimports checks, and go vet
#   2. go test -race ./... on the host, then without -race validate/... at full counts, the
#      fleet's cluster tests at full size and drivers/barcode whole (full_tests)
#   3. the README's main command, run as a smoke test (the emulated terminal playing
#      scripts/demo.posd, whose checks fail the run), and the operator's demo (scripts/demo.sh), then the fleet demo (scripts/fleet-demo.sh) on its block;
#      each is bounded (SMOKE_LIMIT, 600 s: about 60 s for the three on 2 idle cores), as are
#      step 5's posd runs: a hang fails the stage with the stacks of every Go program it ran
#      (SIGQUIT), and step 6's test binaries with -test.timeout
#   4. scripts/build.sh --check: every command for linux/arm (GOARM=6, 7), linux/arm64 and the
#      host into dist/, static, then armv7's production posd built again with an empty build
#      cache: identical bytes (CHECK_TARGETS= CHECK_WHAT=all rebuilds every command of every target)
#   5. dist/lab/'s posd (the lab build, with the emulator: dist/'s posd is the production one,
#      which has none) on each ARM target under qemu-user and on the host, playing
#      scripts/demo.posd on the same block and a virtual clock (--clock): the receipts (text
#      and PNG), the journal export (CSV and JSONL, each side's own posctl) and the output must
#      be identical byte for byte, or the run fails with the diff
#   6. the test binaries of the hardware-free packages run under qemu-arm-static and
#      qemu-aarch64-static (-test.short), two at a time
#   armv6 runs under qemu-arm-static -cpu arm1176 (the Raspberry Pi Zero and 1's core), so an
#   ARMv7-only instruction in them fails the run (qemu-arm's default CPU accepts it); the
#   decoder's statistical no-read tests and its fits' whole-frame tests run on arm64 only (qemu_skip says why);
#   qemu-user-static is installed when missing and allowed.
#   7. IMAGE=1 only: the bootable image (issue 35): scripts/image.sh built twice (identical
#      bytes), then scripts/image-test.sh boots it under qemu-system-aarch64 -M virt and
#      checks it end to end (about 15 min on 2 cores: over the 5 min a CI stage may take;
#      its last figures are in docs/firmware.md, "The image"). Installs qemu-system-arm,
#      qemu-utils, mtools, dosfstools, e2fsprogs, fdisk, cpio and kmod when missing.
#
# Each stage prints its name, then its output as it comes (go test: one line per package
# as it finishes), a heartbeat line every 30 s while it runs, and its duration; a table
# of the durations ends the run.
#
# Environment: QEMU=0 skips steps 5 and 6 and SMOKE=0 step 3 (for a quick local run; CI=true
# runs step 3 regardless and makes a missing qemu an error).
set -euo pipefail
cd "$(dirname "$0")/.."
export CGO_ENABLED=${CGO_ENABLED:-1}

out=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$out"' EXIT

# The README's main command, with a script of checks and a data directory of its own. CI
# proves it works; the operator's demo runs after it.
readme_main=(go run ./cmd/posd --emulate --fresh --script scripts/demo.posd --data "$out/posd")
operator_demo=(env OUT="$out/operator" bash scripts/demo.sh)
# The fleet in one command, on the operator demo's keys and block (scripts/fleet-demo.sh).
# Its working directory is kept in $out: when it fails, smoke shows its terminals' logs.
fleet_work="$out/fleet-demo"
fleet_demo=(env BLOCK="$out/operator" WORK="$fleet_work" bash scripts/fleet-demo.sh)
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
	# systemd-analyze (and -sysusers, -tmpfiles): cmd/posboot's TestServiceUnit rates scripts/posboot.service.
	# identify (imagemagick) and zint: drivers/barcode's third frame generator (scripts/gen3; identify,
	# not convert, since a machine may carry a convert that is not ImageMagick's).
	# python3: scripts/fleet-demo.sh reads the journals and the report (JSON).
	local tools="python3:python3 chromium:chromium qemu-arm-static:qemu-user-static qemu-aarch64-static:qemu-user-static zbarimg:zbar-tools dmtxread:dmtx-utils dmtxwrite:dmtx-utils zint:zint identify:imagemagick systemd-analyze:systemd systemd-sysusers:systemd systemd-tmpfiles:systemd"
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
	# goimports (import groups: std, third party, then ours), built once from the module
	# proxy into the Go cache; importgroups.awk: no group mixes them.
	unformatted=$(go run golang.org/x/tools/cmd/goimports@v0.52.0 -local github.com/packterm/pos -l $files)
	if [ -n "$unformatted" ]; then
		echo "goimports -local github.com/packterm/pos would change:"; echo "$unformatted"; exit 1
	fi
	awk -f scripts/importgroups.awk $files
	# README's map names every package.
	local p missing=
	for p in $(go list ./... | sed 's|^github.com/packterm/pos/||'); do
		grep -q "\`$p\`" README.md || missing="$missing $p"
	done
	if [ -n "$missing" ]; then
		echo "README.md's map does not name:$missing"; exit 1
	fi
	echo ok
}

# vet: go vet, and every command built with -tags production (the image's binaries; the
# dist/ builds check posd's, not posctl's or posboot's).
vet() {
	go vet ./...
	go build -tags production ./cmd/...
	echo ok
}

race_tests() { go test -race -count=1 ./...; }

# full_tests: three lanes at once on the two cores: validate/... at full counts, then
# device/fleet's cluster tests at full size (200 terminals; under -race they race 50 and
# leave the real servers out); and drivers/barcode whole without -race in two halves, its
# measured frame sets (the desk and camera sets, 150 / 110 per symbology, and the camera's
# right angles: read-rate floors, ≥ gozxing alone and zbarimg per class) and the camera's
# clutter in one, every other test in the other: no read on clutter, noise or near misses,
# and the camera-frame cases, which -race and -short skip (BARCODE_FULL=1 for the full sets).
barcode_sets='^(TestFrameSet|TestCameraFrameSet|TestCameraRightAngles|TestCameraClutterReadsNothing)$'
full_tests() {
	local rc=0 pids=() bin="$out/barcode.test"
	(go test -count=1 ./validate/... && go test -count=1 -run '^TestCluster' ./device/fleet) &
	pids+=($!)
	go test -c -o "$bin" ./drivers/barcode # once for both halves
	barcode_half "the frame sets" -test.run "$barcode_sets" &
	pids+=($!)
	barcode_half "every other test" -test.skip "$barcode_sets" &
	pids+=($!)
	for p in "${pids[@]}"; do wait "$p" || rc=$?; done
	return "$rc"
}

# barcode_half WHAT FLAGS...: the drivers/barcode test binary from its directory (testdata/),
# its output shown when it fails.
barcode_half() {
	local what=$1 t0 log
	shift
	t0=$(date +%s)
	log=$(mktemp "$out/barcode.XXXX")
	if (cd drivers/barcode && "$out/barcode.test" -test.count=1 -test.timeout=20m "$@" >"$log" 2>&1); then
		echo "ok  	drivers/barcode, $what	$(($(date +%s) - t0))s"
	else
		cat "$log"
		echo "FAIL	drivers/barcode, $what	$(($(date +%s) - t0))s"
		return 1
	fi
}

main_job() {
	if [ "${SMOKE:-1}" = 0 ] && [ "${CI:-}" != true ]; then
		echo "skipped (SMOKE=0)"
		return
	fi
	smoke "the README's main command" "${readme_main[@]}"
	smoke "the operator's demo" "${operator_demo[@]}"
	smoke "the fleet demo" "${fleet_demo[@]}"
}

# smoke WHAT CMD...: runs CMD (bounded, SMOKE_LIMIT seconds), its output to a log shown
# whole when it fails; then the last lines of the fleet demo's own logs, when it made any.
smoke() {
	local what=$1; shift
	echo "$*"
	local log="$out/smoke.log" rc=0
	bounded "${SMOKE_LIMIT:-600}" "$@" >"$log" 2>&1 || rc=$?
	if [ "$rc" -ne 0 ]; then
		cat "$log"
		local f
		for f in "$fleet_work"/server.err "$fleet_work"/T*/err; do
			[ -s "$f" ] && { echo "--- the last lines of $f"; tail -n 300 "$f"; }
		done
		echo "FAIL: $what ($*) failed (exit $rc)"; exit 1
	fi
	grep -v '^[[:space:]]*$' "$log" | tail -n 3 | sed 's/^/   | /'
}

# bounded SECONDS CMD...: runs CMD in a session of its own and returns its status. When it
# outlasts SECONDS, the session's processes are listed, each program in it but the shells
# gets SIGQUIT (a Go program prints every goroutine's stack on its stderr), and 10 s later
# the whole session SIGKILL; bounded then returns 124. A hang fails its stage with the
# stacks that show where, instead of holding the run until CI cuts it.
bounded() {
	local limit=$1 pid start
	shift
	start=$(date +%s)
	setsid -w "$@" &
	pid=$! # setsid runs CMD as the session's leader: its pid is the session's id
	while kill -0 "$pid" 2>/dev/null; do
		if [ $(($(date +%s) - start)) -ge "$limit" ]; then
			echo "TIMEOUT: $* ran for over ${limit}s; the processes of its session:"
			ps -o pid,ppid,stat,etimes,args -s "$pid" || true
			local p c
			while read -r p c; do
				case "$c" in bash | sh | sleep | timeout | setsid) ;; *) kill -QUIT "$p" 2>/dev/null || true ;; esac
			done < <(ps -o pid=,comm= -s "$pid" 2>/dev/null || true)
			sleep 10
			pkill -KILL -s "$pid" 2>/dev/null || true
			wait "$pid" 2>/dev/null || true
			return 124
		fi
		sleep 1
	done
	wait "$pid"
}

# dist/ for every target; the second build with an empty cache for armv7's production posd
# only (the board's target and the binary it runs; every command of every target costs about
# 5 CPU-minutes more: CHECK_TARGETS= CHECK_WHAT=all runs it).
builds() { CHECK_TARGETS=${CHECK_TARGETS-linux-armv7} CHECK_WHAT=${CHECK_WHAT-posd} scripts/build.sh --check; }

# qemu_ready: true when qemu-user can run ARM binaries here; false (with the reason) when
# the qemu steps are skipped; exits under CI=true when qemu is missing.
qemu_ready() {
	if [ "${QEMU:-1}" = 0 ]; then
		echo "skipped (QEMU=0)"
		return 1
	fi
	if ! command -v qemu-arm-static >/dev/null || ! command -v qemu-aarch64-static >/dev/null; then
		if [ "${CI:-}" = true ]; then
			echo "qemu-user-static missing (CI=true)"; exit 1
		fi
		echo "qemu-user-static missing and not allowed to install it (not root, CI unset): skipped"
		return 1
	fi
}

# The CPU the armv6 builds run on under qemu-arm (qemu's default for qemu-arm is a later
# core that also runs ARMv7 code).
armv6_cpu=arm1176

# The virtual clock of the ARM comparison: each input line of the script moves it 1 s.
emu_clock=2026-12-01T09:00:00+01:00

# arm_emulator: the README's main job (scripts/demo.posd: a sale, payouts, a refusal, a
# claim, paper out, a duplicate, the report) on dist/lab/'s posd for the host, then on each
# ARM build under qemu-user, on the same demo block (the main job's, else the host run
# makes it) and the same virtual clock; every output must be the host's, byte for byte.
arm_emulator() {
	qemu_ready || return 0
	local host
	host=$(go env GOHOSTOS)-$(go env GOHOSTARCH)
	mkdir -p "$out/emu"
	if [ -d "$out/posd/demo" ]; then
		cp -r "$out/posd/demo" "$out/emu/demo"
	fi
	emu_run "$host" "" "$host"
	emu_run armv7 qemu-arm-static linux-armv7
	emu_same armv7 "$host"
	emu_run arm64 qemu-aarch64-static linux-arm64
	emu_same arm64 "$host"
	emu_run armv6 "qemu-arm-static -cpu $armv6_cpu" linux-armv6
	emu_same armv6 "$host"
}

# emu_run NAME EMULATOR TARGET: dist/lab/posd-TARGET plays scripts/demo.posd in $out/emu/NAME
# (under EMULATOR unless empty); dist/posctl-TARGET exports its journal.
emu_run() {
	local name=$1 emu=$2 target=$3 dir="$out/emu/$1" t0
	t0=$(date +%s)
	mkdir -p "$dir"
	if [ -d "$out/emu/demo" ]; then
		cp -r "$out/emu/demo" "$dir/demo"
	fi
	if ! bounded "${SMOKE_LIMIT:-600}" $emu "dist/lab/posd-$target" --emulate --script scripts/demo.posd --clock "$emu_clock" --data "$dir" \
		--receipts "$dir/receipts" >"$dir/output.txt" 2>"$dir/stderr.txt"; then
		tail -n 40 "$dir/output.txt"; cat "$dir/stderr.txt"
		echo "FAIL: dist/lab/posd-$target --emulate --script scripts/demo.posd ${emu:+under $emu}"; exit 1
	fi
	$emu "dist/posctl-$target" journal export "$dir/terminal/journal" --format csv >"$dir/journal.csv"
	$emu "dist/posctl-$target" journal export "$dir/terminal/journal" --format jsonl >"$dir/journal.jsonl"
	if [ ! -d "$out/emu/demo" ]; then
		cp -r "$dir/demo" "$out/emu/demo" # made by this first run: the next ones use it
	fi
	echo "$name: $(ls "$dir/receipts" | wc -l) receipt files, $(($(wc -l <"$dir/journal.csv") - 1)) journal records," \
		"$(wc -l <"$dir/output.txt") lines of output ($(($(date +%s) - t0))s${emu:+ under $emu})"
}

# emu_same NAME REF: the outputs of run NAME are those of run REF, byte for byte.
emu_same() {
	local a="$out/emu/$2" b="$out/emu/$1" f
	if [ -z "$(ls "$b/receipts")" ] || [ "$(wc -l <"$b/journal.csv")" -lt 2 ]; then
		echo "FAIL: $1: no receipt or no journal record to compare"; exit 1
	fi
	local differ=""
	for f in receipts journal.csv journal.jsonl output.txt; do
		if ! diff -r -u "$a/$f" "$b/$f" >"$out/emu/diff" 2>&1; then
			echo "FAIL: $f differs between posd on $2 and on $1 (same script, block and clock):"
			head -n 40 "$out/emu/diff"
			differ="$differ $f"
		fi
	done
	if [ -n "$differ" ]; then
		echo "FAIL: $1 against $2:$differ differ"; exit 1
	fi
	echo "   same bytes as $2: receipts (text and PNG), journal.csv, journal.jsonl, output.txt"
}

# The packages whose tests take longest under qemu (drivers/barcode: about 4 min on arm64,
# which runs every decoder test; validate/ledger and validate/journal under a minute each),
# started first so that the two runners end together.
qemu_slow_first="drivers/barcode validate/block validate/ledger validate/journal"

# Tests left out on one target, as LABEL:PACKAGE=REGEXP (-test.skip). The decoder's
# statistical no-read tests (random frames that must read nothing) run on the host and on
# arm64, the one ARM target whose floating point differs from the host's (Go fuses
# multiply-adds there); the 32-bit targets, whose floating point is the host's, leave them
# out with the whole-frame tests of the fits (near misses drawn by the dozen, frames at the
# envelope's corner decoded with and without a fit, ordered statistics' searches and frames:
# about 150 s under qemu-arm), which arm64 runs. armv7 differs from armv6 in its instructions only (the same 32-bit ints and
# floating point): it leaves the decoder's frame tests (frames drawn, rendered by zint or
# decoded whole) to armv6 and runs its unit tests, and the ledger's and journal's longest
# loops (concurrent installs, byte flips, crash kills) to armv6 too. Two regression tests of single near
# misses, each drawing up to 100 frames to reach its own, and the frames that once read a wrong
# linear text (six whole frames decoded: about 60 s under qemu-aarch64, the run's longest leg) run
# on the host only.
qemu_regressions="TestNearMissSubstitutionRefused|TestNearMissReadAsBlurredITF|TestLinearNoWrongReadUnderNoise"
qemu_no_read_tests="TestMatrixFittedUnderStrongNoise|TestDMFittedUnderStrongNoise|TestBeyondLimit|TestNearMissCodesReadNothing|TestClutterFramesReadNothing|TestDMSoftRefusesNoise|TestMatrixFittedFrames|TestCode128CornerFrames|TestCode128FitRefusesNearMisses|TestMatrixFittedPerspective|TestMatrixFittedEarlyUnderBudget|TestLocateTexturedFaintSymbol|TestLocateTexturedReads|TestSmoothedTexturedReads|TestQRCorrFindersReadBrokenRuns|TestOSDReadsFittedFrames|TestOSDSearchBeyondChase|TestFitStartUnderStrongNoise|TestFitStartUnderUnevenLight|TestQRCorrFitBesideClutter|$qemu_regressions"
qemu_frame_tests="TestWeReadZint|TestFramesSmoke|TestGen3Sample|TestMatrixDeblurredFrames|TestMatrixFittedRefusesRandomData|TestBudgetGivesUp|TestZbarimgReadsOurCodes|TestDmtxreadReadsOurDataMatrix|TestDecodeNothing|TestRSCorrectErasures|TestFitModulesSyntheticGrid|TestSoftEvidenceLikelihood|TestDMReadsDistortedCrops|TestITFCornerFrames"
qemu_skip=(
	"armv6:drivers/barcode=^($qemu_no_read_tests)\$"
	"armv7:drivers/barcode=^($qemu_no_read_tests|$qemu_frame_tests)\$"
	"arm64:drivers/barcode=^($qemu_regressions)\$"
	"armv7:validate/ledger=^(TestConcurrentInstallsNeverRollBack)\$"
	"armv7:validate/journal=^(TestByteFlips|TestCrashKill|TestFirstStartCrashKill)\$"
)

# qemu_skipped LABEL PKG: the -test.skip pattern for PKG on LABEL, empty when none.
qemu_skipped() {
	local e
	for e in "${qemu_skip[@]}"; do
		local key=${e%%=*}
		if [ "${key%%:*}" = "$1" ] && [[ $2 == */"${key#*:}" ]]; then
			echo "${e#*=}"
			return
		fi
	done
}

# qemu_tests: the test binaries of the hardware-free packages, built per target in one go
# test -c (linked in parallel; -trimpath like dist/, so the packages compiled for it are
# reused), then run under qemu-user from their package directories, QEMU_JOBS (2) at a time
# over all three targets, the slowest first.
qemu_tests() {
	qemu_ready || return 0
	# Hardware-free packages: everything under validate/ plus the pure-software driver
	# packages listed in scripts/qemu-packages.txt (one import path pattern per line).
	local pkgs arch goarch goarm emu label bindir p dir t0 failed jobs="" job s rank i
	pkgs=$(go list ./validate/... $(grep -v '^#' scripts/qemu-packages.txt 2>/dev/null || true) | sort -u)
	declare -A dirs
	while read -r p dir; do dirs[$p]=$dir; done < <(go list -f '{{.ImportPath}} {{.Dir}}' $pkgs)
	for arch in arm:7:qemu-arm-static arm:6:qemu-arm-static arm64::qemu-aarch64-static; do
		IFS=: read -r goarch goarm emu <<<"$arch"
		label=$goarch${goarm:+v$goarm}
		bindir="$out/qemu-$label"
		t0=$(date +%s)
		CGO_ENABLED=0 GOOS=linux GOARCH=$goarch GOARM=$goarm go test -c -trimpath -o "$bindir/" $pkgs
		echo "$label: $(ls "$bindir" | wc -l) test binaries built in $(($(date +%s) - t0))s"
		for p in $pkgs; do
			[ -f "$bindir/$(basename "$p").test" ] || continue # no tests
			rank=9 i=0
			for s in $qemu_slow_first; do
				if [[ $p == */$s ]]; then rank=$i; fi
				i=$((i + 1))
			done
			jobs="$jobs $rank:$p:$label:$emu"
		done
	done
	t0=$(date +%s)
	# The slow ones first, in their order, each on every target; then the rest.
	for job in $(printf '%s\n' $jobs | sort -s -t: -k1,1n); do
		IFS=: read -r rank p label emu <<<"$job"
		while [ "$(jobs -rp | wc -l)" -ge "${QEMU_JOBS:-2}" ]; do wait -n || true; done
		qemu_run "$p" "${dirs[$p]}" "$out/qemu-$label/$(basename "$p").test" "$emu" "$label" &
	done
	wait
	failed=$(ls "$out"/qemu-*/*.failed 2>/dev/null || true)
	if [ -n "$failed" ]; then
		for f in $failed; do cat "${f%.failed}.log"; done
		echo "FAIL under qemu:" $failed; exit 1
	fi
	echo "every test binary passed under qemu-user (armv7, armv6, arm64) in $(($(date +%s) - t0))s"
}

# qemu_run PKG DIR BIN EMULATOR LABEL: runs one test binary from its package's directory
# (so testdata/ resolves); a failure leaves BIN.failed beside BIN.log. armv6 binaries run
# on the arm1176 CPU (QEMU_CPU).
qemu_run() {
	local t0 emu=$4
	t0=$(date +%s)
	local cpu=()
	if [ "$5" = armv6 ]; then
		cpu=(env "QEMU_CPU=$armv6_cpu")
		emu="$4 -cpu $armv6_cpu"
	fi
	local skip
	skip=$(qemu_skipped "$5" "$1")
	if (cd "$2" && ${cpu[@]+"${cpu[@]}"} "$4" "$3" -test.short -test.count=1 -test.timeout=15m ${skip:+-test.skip "$skip"} >"$3.log" 2>&1); then
		echo "ok   $1 ($5 under $emu) $(($(date +%s) - t0))s${skip:+ (left out here: $skip)}"
	else
		touch "$3.failed"
		echo "FAIL $1 ($5 under $emu) $(($(date +%s) - t0))s"
	fi
}

# image_stage: the bootable arm64 image, built twice and tested whole under qemu (IMAGE=1).
image_stage() {
	local missing="" t
	for t in qemu-system-aarch64:qemu-system-arm qemu-img:qemu-utils mcopy:mtools mkfs.vfat:dosfstools \
		mke2fs:e2fsprogs debugfs:e2fsprogs sfdisk:fdisk cpio:cpio depmod:kmod; do
		command -v "${t%%:*}" >/dev/null || missing+=" ${t#*:}"
	done
	if [ -n "$missing" ]; then
		(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing) >/dev/null 2>&1 ||
			{ echo "apt-get install$missing failed"; exit 1; }
	fi
	IMAGE_CHECK=1 bash scripts/image.sh
	bash scripts/image-test.sh
}

stage "test tools" tools
stage "gofmt and goimports" gofmt_check
stage "go vet" vet
stage "go test -race ./... (host)" race_tests
stage "full-size tests without the race detector (validate/... at full counts, fleet cluster, drivers/barcode whole)" full_tests
stage "the README's main command and the operator's demo (smoke tests)" main_job
stage "builds: scripts/build.sh --check (dist/, static; armv7 identical when rebuilt with an empty cache)" builds
stage "posd on ARM under qemu-user against the host build (receipts, journal, output byte for byte)" arm_emulator
stage "ARM test binaries under qemu-user" qemu_tests
if [ "${IMAGE:-0}" = 1 ]; then
	stage "bootable image: scripts/image.sh twice (identical bytes), scripts/image-test.sh under qemu-system-aarch64" image_stage
fi

printf '\n== durations\n'
printf '%s\n' "${durations[@]}"
printf '%5ds  total\n' $(($(date +%s) - run_start))
echo
echo "all checks passed"
