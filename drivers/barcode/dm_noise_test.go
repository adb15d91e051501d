package barcode

import (
	"path/filepath"
	"testing"
)

// TestDMFittedUnderStrongNoise reads five DataMatrix 18×18 symbols of 1.6–1.9-px modules
// at 26–28 % contrast under the third generator's strong sensor noise (window noise 19–21
// grey levels), cut to 160–200 px round the symbol from the faint tuning draw of the noise
// class (frames noise-5, -32, -33, -36 and -53). On noise-32, -36 and -53 the fitted pass
// finds the grid but the soft correction does not reach the wrong codewords: at the blur
// that explains the pixels best, the pose refined finely there and through Chase's search
// over the least sure bits each reads. On noise-5 and -33 the grid's own pixels match it
// under fitMinScore (a wrong size was read instead): matched on the window's 3×3 means it is
// found and reads. None read before.
func TestDMFittedUnderStrongNoise(t *testing.T) {
	skipUnderRace(t)
	readCropDir(t, filepath.Join("testdata", "gen3-dmnoise"))
}
