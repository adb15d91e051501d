package barcode

import (
	"path/filepath"
	"testing"
)

// TestDMPolishModulesReads: the candidate crop of a tuning frame of the third generator
// (testdata/dm-polish: `mixed` seed 366, 18×18 at 1.9 px, 32 % contrast, uneven light, JPEG
// quality 33) reads only with the corners polished on all the modules (dmPolishModules):
// polished on the fixed pattern alone, 27–36 of its 324 modules sample wrong, past
// Reed–Solomon and the soft read; polished on the modules, 17–19.
func TestDMPolishModulesReads(t *testing.T) {
	img, want := loadCrop(t, filepath.Join("testdata", "dm-polish", "mixed-366.png"))
	g := toGray(img)
	d := NewDecoder(Options{Formats: DataMatrix})
	if r, ok := d.decodeDM(&g); !ok || r.Text != want {
		t.Errorf("read %q, %v; want %q", r.Text, ok, want)
	}
}
