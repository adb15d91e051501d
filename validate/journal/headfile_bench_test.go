package journal

import (
	"log/slog"
	"path/filepath"
	"testing"
)

// BenchmarkHeadMarker is what each Append adds for the head markers: two in-place
// rewrites (DIR/journal.head and a copy), no fsync.
func BenchmarkHeadMarker(b *testing.B) {
	dir := b.TempDir()
	m := openMarks([]string{filepath.Join(dir, HeadFile), filepath.Join(dir, "copy.head")}, slog.New(slog.DiscardHandler))
	defer m.close()
	h := Head{Terminal: "T0042", Time: testStart}
	for b.Loop() {
		h.Seq++
		m.write(h, false)
	}
}
