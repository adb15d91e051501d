package barcode

import (
	"path/filepath"
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
	skipUnderRace(t)
	readCropDir(t, filepath.Join("testdata", "gen3-deblur"))
}
