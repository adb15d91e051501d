package emulated

import (
	"strings"
	"testing"
)

// FuzzParse: any line is an input, no input, or a clear error; never a panic.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"", "# comment", "!ok", "!photo", "!photo a.png", "!unlock 1234", "!nope", "00N0Y4G2VTPVXVR14D2PF2DBS", "!", "  !OK  "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		in, ok, err := Parse(line)
		if err != nil && (ok || in != (Input{})) {
			t.Fatalf("%q: error %v with input %+v", line, err, in)
		}
		if ok && in.Action == ActScan && strings.HasPrefix(strings.TrimSpace(line), "!") {
			t.Fatalf("%q scanned as a code", line)
		}
	})
}
