package flash

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzSpoolMeta: whatever a spool's .meta and .part files hold (the attacker holds every
// file), opening a transfer resumes at an offset within both the announced size and the
// data present, or starts afresh; never a panic.
func FuzzSpoolMeta(f *testing.F) {
	f.Add([]byte(`{"kind":2,"size":10,"sha256":"00","offset":4}`), []byte("abcdef"), int64(10))
	f.Add([]byte(`{"kind":2,"size":10,"sha256":"0000000000000000000000000000000000000000000000000000000000000000","offset":99}`), []byte("ab"), int64(10))
	f.Fuzz(func(t *testing.T, meta, part []byte, size int64) {
		if size < 0 || size > 1<<20 {
			return
		}
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "config.meta"), meta, 0o600)
		os.WriteFile(filepath.Join(dir, "config.part"), part, 0o600)
		tr, err := openTransfer(dir, begin{Kind: Config, Size: size})
		if err != nil {
			t.Fatalf("a damaged spool blocks the transfer: %v", err)
		}
		defer tr.discard()
		if tr.off < 0 || tr.off > size || tr.off > int64(len(part)) {
			t.Fatalf("resume at %d (size %d, %d bytes present)", tr.off, size, len(part))
		}
	})
}
