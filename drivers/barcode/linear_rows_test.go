package barcode

import (
	"path/filepath"
	"testing"
)

// TestCandidateRowsReadABlurredLabel: ZXing's photo of a shipping label (code128-2/06.png,
// real: a Code 128 of 1.9-px modules, blurred until a thresholded row shows its narrow
// spaces one pixel wide) reads on the located candidate's single rows (readCandidateRows),
// where before only the whole frame's rows read it, after every pass (550 ms: never under
// the camera's 40-ms budget).
func TestCandidateRowsReadABlurredLabel(t *testing.T) {
	if raceEnabled {
		t.Skip("a real photograph's decode: seconds under -race")
	}
	img := loadRealPhoto(t, filepath.Join(realPhotoDir(t), "oned/testdata/code128/06.png"))
	r, err := NewDecoder(DefaultOptions()).Decode(img)
	if err != nil || r.Text != "15182881" || r.Format != Code128 {
		t.Fatalf("read %v %q, %v; want Code 128 15182881", r.Format, r.Text, err)
	}
	if !r.Located {
		t.Error("read by the whole frame's rows, not on the located candidate")
	}
}
