package version

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestString(t *testing.T) {
	if got := String(); got != "dev (commit unknown)" {
		t.Fatalf("String() = %q", got)
	}
	if got := Line("posd"); got != "posd dev (commit unknown)" {
		t.Fatalf("Line() = %q", got)
	}
}

// TestFromBinary: the stamp is found wherever it lies (across the reader's chunks too),
// the marker alone (as in the reading code) is no stamp, and two different stamps are an
// error.
func TestFromBinary(t *testing.T) {
	s := StampValue("2.1.0", "0123abc")
	for _, at := range []int{0, 100, 1<<20 - 10, 1<<20 - len(s), 1 << 20, 3<<20 + 7} {
		b := make([]byte, at+len(s)+50)
		copy(b[at:], s)
		copy(b[at+len(s)+5:], stampPrefix+"\x00garbage") // the bare marker, as code holds it
		got, err := FromBinary(bytes.NewReader(b))
		if err != nil || got != (Stamp{"2.1.0", "0123abc"}) {
			t.Fatalf("at %d: %+v %v", at, got, err)
		}
	}
	if _, err := FromBinary(strings.NewReader("no stamp here " + stampPrefix)); !errors.Is(err, ErrNoStamp) {
		t.Fatalf("no stamp: %v", err)
	}
	two := s + "xx" + StampValue("2.2.0", "0123abc")
	if _, err := FromBinary(strings.NewReader(two)); !errors.Is(err, ErrSeveralStamps) {
		t.Fatalf("two stamps: %v", err)
	}
	if got, err := FromBinary(strings.NewReader(s + s)); err != nil || got.Version != "2.1.0" {
		t.Fatalf("the same stamp twice: %+v %v", got, err)
	}
}

// TestBinariesSayTheirStamp builds posd, posctl and posboot as scripts/build.sh does
// (static, -trimpath, stripped, -X stamps) and checks that each one's --version line has
// the one form, Line(name), with the stamped version, and that FromBinary reads that
// version from the file without running it.
func TestBinariesSayTheirStamp(t *testing.T) {
	if testing.Short() {
		t.Skip("builds three binaries")
	}
	dir := t.TempDir()
	const pkg = "github.com/packterm/pos/internal/version"
	ldflags := "-s -w -buildid= -X " + pkg + ".Version=v9.8.7 -X " + pkg + ".Commit=feedbee -X " + pkg + ".stamp=" + StampValue("v9.8.7", "feedbee")
	cmd := exec.Command("go", "build", "-trimpath", "-buildvcs=false", "-ldflags", ldflags, "-o", dir+"/",
		"../../cmd/posd", "../../cmd/posctl", "../../cmd/posboot")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, name := range []string{"posd", "posctl", "posboot"} {
		bin := filepath.Join(dir, name)
		out, err := exec.Command(bin, "--version").Output()
		if err != nil {
			t.Fatalf("%s --version: %v", name, err)
		}
		if want := name + " v9.8.7 (commit feedbee)\n"; string(out) != want {
			t.Errorf("%s --version = %q, want %q", name, out, want)
		}
		f, err := os.Open(bin)
		if err != nil {
			t.Fatal(err)
		}
		s, err := FromBinary(f)
		f.Close()
		if err != nil || s != (Stamp{"v9.8.7", "feedbee"}) {
			t.Errorf("%s: stamp %+v, %v", name, s, err)
		}
	}
}

// FuzzFromBinary: any bytes give one well-formed stamp that is in them, or an error.
func FuzzFromBinary(f *testing.F) {
	f.Add([]byte("xx" + StampValue("2.1.0", "abc") + "yy"))
	f.Add([]byte(stampPrefix + "1.0;commit=;"))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := FromBinary(bytes.NewReader(b))
		if err != nil {
			return
		}
		if !bytes.Contains(b, []byte(StampValue(s.Version, s.Commit))) {
			t.Fatalf("stamp %+v is not in the input", s)
		}
	})
}
