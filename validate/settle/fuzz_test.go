package settle

import (
	"bytes"
	"testing"

	"github.com/packterm/pos/validate/codes"
)

// FuzzReadManifest: any input gives a manifest that passes its checks, or ErrManifest;
// never a panic.
func FuzzReadManifest(f *testing.F) {
	f.Add([]byte(manifestJSON(7, seed)))
	f.Add([]byte(`{"block": 7, "seed": "zz"}`))
	f.Add([]byte(`{"block": -1}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := ReadManifest(bytes.NewReader(b))
		if err != nil {
			return
		}
		if m.Block == 0 || m.Packs < 0 || m.Packs > codes.PacksPerBlock || m.Patterns < 0 {
			t.Fatalf("accepted %+v", m)
		}
	})
}
