#!/usr/bin/env bash
# Builds every command under cmd/ as static, reproducible binaries into dist/:
#
#   dist/<cmd>-linux-armv6   GOARCH=arm GOARM=6 (Raspberry Pi Zero/1)
#   dist/<cmd>-linux-armv7   GOARCH=arm GOARM=7
#   dist/<cmd>-linux-arm64   GOARCH=arm64
#   dist/<cmd>-<os>-<arch>   the host
#   dist/lab/posd-<target>   the lab posd of each target (with --emulate), for CI's ARM comparison
#
# dist/'s posd is the production one: built with -tags production, it links no emulator
# (hd44780emul, printeremul, scanneremul, serialemul, gpiosim), no creack/pty, no
# block generator (validate/block) and no LP solver (gonum); `posd --emulate` says it was
# built without the emulator. The build fails if go list -deps finds one of them in it
# (check_production). dist/lab/posd-* is the same source without the tag (posd --emulate, as
# `go run ./cmd/posd`): never installed on a terminal.
#
# CGO_ENABLED=0, -trimpath, -buildvcs=false and an empty build id make the bytes depend on
# the source and the Go version only; the version (git describe --always --dirty) and the
# commit are stamped with -X into internal/version (`posctl --version`, `posd --version`).
# VERSION=... and COMMIT=... override them (e.g. for a release from a tarball).
#
#   scripts/build.sh           build into dist/ and print the sizes
#   scripts/build.sh --check   the same, then build everything again in another directory with
#                              an empty Go build cache and fail unless every binary is identical
#                              to dist/'s
#   CHECK_TARGETS="linux-armv7 host" scripts/build.sh --check
#                              the second build for those targets only
#   CHECK_WHAT=posd            the second build of the production posd alone, the binary a
#                              terminal runs (CI: linux-armv7's, about half the time of
#                              every command of that target: no nats-server, no LP solver)
set -euo pipefail
cd "$(dirname "$0")/.."

version=${VERSION:-$(git describe --always --dirty 2>/dev/null || echo dev)}
commit=${COMMIT:-$(git rev-parse HEAD 2>/dev/null || echo unknown)}
pkg=github.com/packterm/pos/internal/version
ldflags="-s -w -buildid= -X $pkg.Version=$version -X $pkg.Commit=$commit -X $pkg.stamp=@(#)pos-stamp;version=$version;commit=$commit;"
cmds=$(go list -f '{{if eq .Name "main"}}{{.ImportPath}}{{end}}' ./cmd/... | grep -v '/cmd/posd$')
posd=github.com/packterm/pos/cmd/posd
# What the production posd must not link (go list -deps import paths, as extended regexps).
forbidden='/hd44780emul$|/printeremul$|/scanneremul$|/serialemul$|/gpiosim$|^github.com/creack/pty$|/validate/block$|^gonum.org/|/device/emulated$' 
hostos=$(go env GOHOSTOS)
hostarch=$(go env GOHOSTARCH)

targets="linux:arm:6:linux-armv6 linux:arm:7:linux-armv7 linux:arm64::linux-arm64 $hostos:$hostarch::$hostos-$hostarch"

build_all() { # OUTDIR [LABEL...]: per target (all, or those labels; "host" is the host's),
	# the production posd (-tags production), the commands in one go build (packages build
	# in parallel) and the lab posd (OUTDIR/lab/); with what=posd the production posd alone
	local out=$1 c t tmp=$1/.tmp
	shift
	mkdir -p "$tmp" "$out/lab"
	for t in $targets; do
		IFS=: read -r goos goarch goarm label <<<"$t"
		if [ $# -gt 0 ] && ! [[ " $* " == *" $label "* || ($label == "$hostos-$hostarch" && " $* " == *" host "*) ]]; then
			continue
		fi
		( # the target's environment for these builds only
			export CGO_ENABLED=0 GOOS=$goos GOARCH=$goarch GOARM=$goarm
			go build -trimpath -buildvcs=false -tags production -ldflags "$ldflags" -o "$out/posd-$label" $posd
			if [ "${what:-all}" = posd ]; then
				exit 0
			fi
			go build -trimpath -buildvcs=false -ldflags "$ldflags" -o "$tmp/" $cmds
			for c in $cmds; do
				mv "$tmp/$(basename "$c")" "$out/$(basename "$c")-$label"
			done
			go build -trimpath -buildvcs=false -ldflags "$ldflags" -o "$out/lab/posd-$label" $posd
			check_production "$label"
		)
	done
	rmdir "$tmp"
}

check_production() { # LABEL: the production posd of the target in the environment links
	# nothing of the lab (the lab posd does, or the check would prove nothing)
	local bad
	bad=$(go list -deps -tags production $posd | grep -E "$forbidden" || true)
	if [ -n "$bad" ]; then
		echo "build.sh: the production posd for $1 links the lab:"; echo "$bad"; exit 1
	fi
	local lab # the whole list first: grep -q ends at its first match, and under pipefail the
	lab=$(go list -deps $posd) # writer's SIGPIPE would fail the pipe (CI saw "the check is broken")
	if ! grep -qE "$forbidden" <<<"$lab"; then
		echo "build.sh: check_production sees no lab package in the lab posd either: the check is broken"; exit 1
	fi
}

check=false
case "${1:-}" in
--check) check=true ;;
"") ;;
*) echo "usage: scripts/build.sh [--check]" >&2; exit 2 ;;
esac

t0=$(date +%s)
rm -rf dist
build_all dist
for f in dist/* dist/lab/*; do
	[ -f "$f" ] || continue
	# A static binary has no program interpreter (PT_INTERP).
	if [[ $f == *-linux-* ]] && command -v readelf >/dev/null && readelf -l "$f" | grep -q INTERP; then
		echo "$f is not static"; exit 1
	fi
done
echo "version $version, commit $commit: $(find dist -type f | wc -l) binaries in dist/ (posd: production; dist/lab/: with the emulator) ($(($(date +%s) - t0))s)"
if $check; then
	t0=$(date +%s)
	again=$(mktemp -d) cache=$(mktemp -d)
	trap 'chmod -R u+w "$cache" 2>/dev/null; rm -rf "$again" "$cache"' EXIT
	# shellcheck disable=SC2086 # a list of labels
	GOCACHE=$cache what=${CHECK_WHAT:-all} build_all "$again" ${CHECK_TARGETS:-}
	if ! diff <(cd dist && sha256sum $(cd "$again" && find . -type f | sort)) <(cd "$again" && sha256sum $(find . -type f | sort)); then
		echo "build.sh --check: a second build with an empty build cache differs from dist/ (not reproducible)"; exit 1
	fi
	echo "build.sh --check: the $(find "$again" -type f | wc -l) binaries built again with an empty build cache" \
		"(${CHECK_TARGETS:-every target}${CHECK_WHAT:+, $CHECK_WHAT}) are identical to dist/'s ($(($(date +%s) - t0))s)"
fi
scripts/sizes.sh
