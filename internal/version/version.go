// Package version holds the version and commit stamped into the project's binaries at
// build time by scripts/build.sh:
//
//	go build -ldflags "-X github.com/packterm/pos/internal/version.Version=v1.2.3 \
//	    -X github.com/packterm/pos/internal/version.Commit=0123abc"
//
// A plain `go build` or `go run` leaves the "dev"/"unknown" defaults. posd and posctl print
// String for --version.
package version

// Version and Commit are set by the linker (-X); they are strings (the linker can only set
// string variables) and never changed at run time.
var (
	Version = "dev"
	Commit  = "unknown"
)

// String is "VERSION (commit COMMIT)".
func String() string { return Version + " (commit " + Commit + ")" }
