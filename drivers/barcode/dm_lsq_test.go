package barcode

import (
	"path/filepath"
	"testing"
)

// TestDMLeastSquaresReads reads three DataMatrix 18×18 symbols of the third generator's
// tuning frames, cut to 160 px round the symbol, that only the least-squares reads after the
// passes read (dm_lsq.go): jpeg-0 (1.51 px, 26 % contrast, JPEG quality 37: no outline's
// timing passes the gate, its outline's best polished size reads), mixed-278 (1.35–1.73 px
// in perspective, 29 %, JPEG quality 47) and mixed-10 (1.35–1.82 px in perspective, motion
// blur 0.87 px, noise ×8). None read without them.
func TestDMLeastSquaresReads(t *testing.T) {
	skipUnderRace(t)
	readCropDir(t, filepath.Join("testdata", "gen3-dmlsq"))
}
