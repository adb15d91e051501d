package journal

import (
	"os"
	"path/filepath"
	"testing"
)

// A kill while a journal is being created leaves at most a temporary file, which the next
// Open replaces: the journal is created whole and healthy (it once was a store file without
// buckets, which Open took for a damaged journal: posd's crash test found it).
func TestCreateIsAtomic(t *testing.T) {
	dir := t.TempDir()
	tmp := filepath.Join(dir, DBFile+".new")
	if err := os.WriteFile(tmp, []byte("a half-made store file"), 0o600); err != nil {
		t.Fatal(err)
	}
	j, err := Open(dir, Options{Terminal: "T0042"})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if err := j.Health(); err != nil {
		t.Fatalf("new journal unhealthy: %v", err)
	}
	if _, err := os.Stat(tmp); !os.IsNotExist(err) {
		t.Errorf("temporary file left: %v", err)
	}
	if _, err := j.Append(payoutN(1)); err != nil {
		t.Fatal(err)
	}
	if j.Boot() != 1 {
		t.Errorf("first start counted as boot %d", j.Boot())
	}
}
