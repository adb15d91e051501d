//go:build !race

package barcode

import (
	"path/filepath"
	"testing"
)

// The trimmed second start's tests read whole checked-in tuning frames of the third generator
// (gen3Load, which is not built under -race).

// readDMStart reads frame name of testdata/gen3-dmstart, every format enabled.
func readDMStart(t *testing.T, name string) {
	t.Helper()
	base := filepath.Join("testdata", "gen3-dmstart", name)
	sf, err := gen3Load(base+".txt", base+".jpg", "jpg", "mixed")
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewDecoder(Options{Formats: AllFormats, ITFLengths: []int{14}, Code128Digits: []int{12}}).Decode(sf.img)
	if err != nil {
		t.Fatalf("%s: %v (%s)", name, err, sf.info)
	}
	if r.Text != sf.text {
		t.Fatalf("%s: read %q, want %q", name, r.Text, sf.text)
	}
}

// TestFitStartTrimmedUnderLight reads seed 637 (2.6-px modules, 2.1 on the far side of a
// perspective, 30 % contrast under a light falling to 62 %, JPEG q48, noise ×6.4): the start
// measured 60 px, and 52 on the window smoothed and flattened, for a symbol of about 44, so
// 18×18 was searched at 2.9 px, where it matched 0.40; the second start trimmed measures
// 44 px, and 18×18 matches 0.86 and reads. Nothing read it before.
func TestFitStartTrimmedUnderLight(t *testing.T) {
	readDMStart(t, "dm-mixed-637")
}

// TestFitStartTrimmedUnderNoise reads seed 900 (2.9-px modules, 2.2 on the far side, 25 %
// contrast under a light at 78 %, JPEG q54, noise ×9.7): the first start spread over 76 px
// and was refused, the second measured 62 px, so 18×18 came to 3.5 px, past fitMaxModule,
// and was never searched; the second start trimmed measures 52 px, and it reads. Nothing
// read it before.
func TestFitStartTrimmedUnderNoise(t *testing.T) {
	readDMStart(t, "dm-mixed-900")
}
