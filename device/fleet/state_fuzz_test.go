package fleet

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzLoadState: any state file loads (a damaged one as a fresh state), never a panic.
func FuzzLoadState(f *testing.F) {
	f.Add([]byte(`{"acked":3,"reconciled":2,"recorded":{"c.T2.7.1.1":true}}`))
	f.Add([]byte(`{"acked":-1}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, b []byte) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, StateFile), b, 0o600); err != nil {
			t.Fatal(err)
		}
		st, err := loadState(dir)
		if err != nil {
			t.Fatal(err)
		}
		if st.Recorded == nil {
			t.Fatal("nil conflict set")
		}
		if err := st.save(); err != nil {
			t.Fatal(err)
		}
	})
}
