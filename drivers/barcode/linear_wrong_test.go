//go:build !race

package barcode

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestLinearNoWrongReadUnderNoise decodes two tuning frames of the third generator's `mixed`
// class (testdata/gen3-wrong: perspective, JPEG at quality 38–45, noise ×8.8–10, clutter)
// on which the decoder once read a wrong text: a Code 128 read on a single row of the
// fallback (four of six characters misread, the modulo-103 check passed: rowConfirmed) and
// an ITF read alike on two bands of the smoothed level (no check character:
// bandsNeeded). Either may read its own text or nothing, never another.
func TestLinearNoWrongReadUnderNoise(t *testing.T) {
	skipUnderRace(t)
	d := NewDecoder(Options{Formats: AllFormats, ITFLengths: []int{14}, Code128Digits: []int{12}})
	for _, name := range []string{"code128-mixed-249", "itf-mixed-318"} {
		base := filepath.Join("testdata", "gen3-wrong", name)
		class, _, _ := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(name, "code128-"), "itf-"), "-")
		sf, err := gen3Load(base+".txt", base+".jpg", "jpg", class)
		if err != nil {
			t.Fatal(err)
		}
		if r, err := d.Decode(sf.img); err == nil && r.Text != sf.text {
			t.Errorf("%s: read %v %q, want %q or nothing", name, r.Format, r.Text, sf.text)
		} else {
			t.Logf("%s: %v %q (%v)", name, r.Format, r.Text, err)
		}
	}
}

// TestBandsNeeded: an ITF read on the smoothed level needs a third band; every other read
// (Code 128 there, ITF on the frame itself) two.
func TestBandsNeeded(t *testing.T) {
	d := NewDecoder(Options{Formats: AllFormats})
	itf, c128 := Result{Text: "12345678901231", Format: ITF}, Result{Text: "004201234560", Format: Code128}
	if n := d.bandsNeeded(itf); n != 2 {
		t.Errorf("ITF on the frame: %d bands, want 2", n)
	}
	d.smoothedBands = true
	if n := d.bandsNeeded(itf); n != smoothedITFBands || n < 3 {
		t.Errorf("ITF on the smoothed level: %d bands, want %d (≥ 3)", n, smoothedITFBands)
	}
	if n := d.bandsNeeded(c128); n != 2 {
		t.Errorf("Code 128 on the smoothed level: %d bands, want 2", n)
	}
	v := bandVotes{}
	for i, want := range []bool{false, false, true} {
		if got := v.add(itf, true, 3); got != want {
			t.Errorf("vote %d of 3: counts %v, want %v", i+1, got, want)
		}
	}
	if v.add(c128, false, 2) || v.add(c128, false, 2) {
		t.Error("two disputed bands counted")
	}
}
