package barcode

import (
	"path/filepath"
	"testing"
)

// TestDMFittedUnderStrongNoise reads three DataMatrix 18×18 symbols of 1.8–1.9-px modules
// at 26–28 % contrast under the third generator's strong sensor noise, cut to 160 px round
// the symbol from the faint tuning draw of the noise class (frames noise-32, noise-36 and
// noise-53). The fitted pass finds each grid, but the soft correction does not reach its
// wrong codewords: at the blur that explains the pixels best, the pose refined finely there
// and through Chase's search over the least sure bits each reads. None read before.
func TestDMFittedUnderStrongNoise(t *testing.T) {
	skipUnderRace(t)
	readCropDir(t, filepath.Join("testdata", "gen3-dmnoise"))
}
