#!/usr/bin/env bash
# Builds every command under cmd/ as static, reproducible binaries into dist/:
#
#   dist/<cmd>-linux-armv6   GOARCH=arm GOARM=6 (Raspberry Pi Zero/1)
#   dist/<cmd>-linux-armv7   GOARCH=arm GOARM=7
#   dist/<cmd>-linux-arm64   GOARCH=arm64
#   dist/<cmd>-<os>-<arch>   the host
#
# CGO_ENABLED=0, -trimpath, -buildvcs=false and an empty build id make the bytes depend on
# the source and the Go version only; the version (git describe --always --dirty) and the
# commit are stamped with -X into internal/version (`posctl --version`, `posd --version`).
# VERSION=... and COMMIT=... override them (e.g. for a release from a tarball).
#
#   scripts/build.sh           build into dist/ and print the sizes
#   scripts/build.sh --check   build twice (the second time with an empty Go build cache, in
#                              another directory) and fail unless every binary is identical
set -euo pipefail
cd "$(dirname "$0")/.."

version=${VERSION:-$(git describe --always --dirty 2>/dev/null || echo dev)}
commit=${COMMIT:-$(git rev-parse HEAD 2>/dev/null || echo unknown)}
pkg=github.com/packterm/pos/internal/version
ldflags="-s -w -buildid= -X $pkg.Version=$version -X $pkg.Commit=$commit"
cmds=$(go list -f '{{if eq .Name "main"}}{{.ImportPath}}{{end}}' ./cmd/...)
hostos=$(go env GOHOSTOS)
hostarch=$(go env GOHOSTARCH)

build_all() { # OUTDIR
	local out=$1 c name
	mkdir -p "$out"
	for t in linux:arm:6:linux-armv6 linux:arm:7:linux-armv7 linux:arm64::linux-arm64 "$hostos:$hostarch::$hostos-$hostarch"; do
		IFS=: read -r goos goarch goarm label <<<"$t"
		for c in $cmds; do
			name=$(basename "$c")
			CGO_ENABLED=0 GOOS=$goos GOARCH=$goarch GOARM=$goarm \
				go build -trimpath -buildvcs=false -ldflags "$ldflags" -o "$out/$name-$label" "$c"
		done
	done
}

if [ "${1:-}" = --check ]; then
	a=$(mktemp -d) b=$(mktemp -d) cache=$(mktemp -d)
	trap 'chmod -R u+w "$cache" 2>/dev/null; rm -rf "$a" "$b" "$cache"' EXIT
	build_all "$a"
	GOCACHE=$cache build_all "$b"
	(cd "$a" && sha256sum *) >"$a.sums"
	(cd "$b" && sha256sum *) >"$b.sums"
	if ! diff "$a.sums" "$b.sums"; then
		rm -f "$a.sums" "$b.sums"
		echo "build.sh --check: the two builds differ (not reproducible)"; exit 1
	fi
	rm -f "$a.sums" "$b.sums"
	echo "build.sh --check: $(ls "$a" | wc -l) binaries, identical in both builds ($version)"
	exit 0
fi

rm -rf dist
build_all dist
for f in dist/*; do
	# A static binary has no program interpreter (PT_INTERP).
	if [[ $f == *-linux-* ]] && command -v readelf >/dev/null && readelf -l "$f" | grep -q INTERP; then
		echo "$f is not static"; exit 1
	fi
done
echo "version $version, commit $commit"
scripts/sizes.sh
