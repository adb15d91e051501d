package slot

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/packterm/pos/firmware/bundle"
	"github.com/packterm/pos/firmware/bundle/bundletest"
)

// FuzzHighWaterManifest: whatever ROOT/highwater.manifest holds, a bundle of the
// high-water version is accepted only when the file holds that bundle's manifest digest.
func FuzzHighWaterManifest(f *testing.F) {
	k := bundletest.NewKey()
	r, err := bundle.NewReader(bytes.NewReader(k.Build(bundletest.Spec{Version: "2.0.0"})), k.Trust())
	if err != nil {
		f.Fatal(err)
	}
	m := r.Manifest()
	d, err := manifestDigest(m)
	if err != nil {
		f.Fatal(err)
	}
	f.Add([]byte(d + "\n"))
	f.Add([]byte(" " + d[:63] + "\n"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, content []byte) {
		root := t.TempDir()
		os.WriteFile(filepath.Join(root, hwManifestFile), content, 0o644)
		s, err := Open(root, Options{})
		if err != nil {
			t.Fatal(err)
		}
		err = s.checkSameVersion(State{HighWater: m.Version}, m)
		want := len(content) <= 256 && string(bytes.TrimSpace(content)) == d
		if (err == nil) != want {
			t.Fatalf("highwater.manifest %q: accepted %v, want %v (%v)", content, err == nil, want, err)
		}
	})
}
