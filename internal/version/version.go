// Package version holds the version and commit stamped into the project's binaries at
// build time by scripts/build.sh:
//
//	go build -ldflags "-X github.com/packterm/pos/internal/version.Version=v1.2.3 \
//	    -X github.com/packterm/pos/internal/version.Commit=0123abc \
//	    -X github.com/packterm/pos/internal/version.stamp=@(#)pos-stamp;version=v1.2.3;commit=0123abc;"
//
// The stamp carries both again between markers, so that a tool reads them from the binary
// without running it (FromBinary: `posctl fw build` checks that posd and posctl are the
// version the bundle says, for ARM binaries too). A plain `go build` or `go run` leaves
// the "dev"/"unknown" defaults and no stamp. posd, posctl and posboot print Line for
// --version.
package version

// Version and Commit are set by the linker (-X); they are strings (the linker can only set
// string variables) and never changed at run time. When the stamp is set, it is what
// String and Line say.
var (
	Version = "dev"
	Commit  = "unknown"
	stamp   string
)

// Current is the version and commit of this binary: the stamp's when there is one, else
// Version and Commit.
func Current() (version, commit string) {
	if s, ok := parseStamp([]byte(stamp)); ok {
		return s.Version, s.Commit
	}
	return Version, Commit
}

// String is "VERSION (commit COMMIT)".
func String() string {
	v, c := Current()
	return v + " (commit " + c + ")"
}

// Line is the --version line of the command name, the same form for every binary:
// "posd 2.1.0 (commit 0123abc)".
func Line(name string) string { return name + " " + String() }
