package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	put := func(s string) func(io.Writer) error {
		return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
	}
	if err := Write(path, 0o600, put("one"), nil); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "one" {
		t.Fatalf("content %q", b)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v", st.Mode().Perm())
	}
	// A failing writer or a refusing check leaves the old file and no temporary file.
	boom := errors.New("boom")
	if err := Write(path, 0o600, func(io.Writer) error { return boom }, nil); !errors.Is(err, boom) {
		t.Fatalf("writer error: %v", err)
	}
	if err := Write(path, 0o600, put("two"), func(string) error { return boom }); err != boom {
		t.Fatalf("check error not returned as it is: %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "one" {
		t.Fatalf("content after refusals %q", b)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Fatalf("%d files left in the directory", len(ents))
	}
}
