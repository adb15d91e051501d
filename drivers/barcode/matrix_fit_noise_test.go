package barcode

import (
	"path/filepath"
	"testing"
)

// TestMatrixFittedUnderStrongNoise reads four QR symbols of 1.6–1.7-px modules at 28–34 %
// contrast under the third generator's strongest sensor noise (σ about 20 levels at the
// paper), cut to 128–224 px round the symbol: the tuning frame noise-102 of the noise class,
// and noise-2, noise-9 and noise-22 of a tuning draw of that class forced to 25–40 %
// contrast, noise ×6–10 and modules of 1.5–1.8 px (frame.sh's GEN3_CONTRAST, GEN3_NOISE,
// GEN3_MODULE). At the finders' pose and a blur of 0.75–1.15 px the fitted modules are
// 4–8 % wrong; at the pose refined on the fit's residual, a blur of 0.4–0.6 and through
// Chase's search over the least sure bits each reads; noise-22's grid is matched only on the
// window's 3×3 means (its own pixels match it under 0.6). None read before.
func TestMatrixFittedUnderStrongNoise(t *testing.T) {
	skipUnderRace(t)
	readCropDir(t, filepath.Join("testdata", "gen3-qrnoise"))
}
