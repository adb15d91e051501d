package barcode

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMatrixDeblurredFrames reads QR and DataMatrix frames at issue 34's matrix corner:
// 1.5-px modules blurred σ 0.8, 100 % contrast (the third generator's sweep frames of the
// tuning seed 500000: QR at 40°, 90° and 130°, DataMatrix at 0°, 40° and 130°, cut to
// 160×160 px around the symbol to keep the repository small). Without the deblurred retry
// (matrix_deblur.go) none reads: the finder patterns are blobs; each must read its text, as
// nothing else. (The QR frame at 0° reads whole but not so cut: the symbol then lies 30 px
// from the cut's edge.)
func TestMatrixDeblurredFrames(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "gen3-deblur", "*.png"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no frames: %v", err)
	}
	d := NewDecoder(Options{Formats: AllFormats, ITFLengths: []int{14}})
	for _, fn := range files {
		data, err := os.ReadFile(fn)
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: %v", fn, err)
		}
		want, err := os.ReadFile(strings.TrimSuffix(fn, ".png") + ".txt")
		if err != nil {
			t.Fatal(err)
		}
		r, err := d.Decode(img)
		if err != nil {
			t.Errorf("%s: %v", filepath.Base(fn), err)
			continue
		}
		if r.Text != strings.TrimSpace(string(want)) {
			t.Errorf("%s: read %q, want %q", filepath.Base(fn), r.Text, strings.TrimSpace(string(want)))
		}
	}
}
