package slot

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzStateFiles: any content of ROOT/state and ROOT/highwater gives a parsed state or an
// error, and Boot over such a root (no slots) fails cleanly with no bootable slot.
func FuzzStateFiles(f *testing.F) {
	f.Add([]byte(`{"active":"a","high_water":"1.0.0"}`), []byte(`"2.0.0"`))
	f.Add([]byte(`{"active":"b","previous":"a","trial":true,"boots":9,"high_water":"0.0.1"}`), []byte(`"x"`))
	f.Fuzz(func(t *testing.T, state, hw []byte) {
		root := t.TempDir()
		os.WriteFile(filepath.Join(root, "state"), state, 0o644)
		os.WriteFile(filepath.Join(root, "highwater"), hw, 0o644)
		s, err := Open(root, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if st, err := s.State(); err == nil && st.HighWater.Less(s.readHighWater()) {
			t.Fatal("high-water mark below the highwater file")
		}
		if _, err := s.Boot(); err == nil {
			t.Fatal("booted a root without slots")
		}
	})
}
