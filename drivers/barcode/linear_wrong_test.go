//go:build !race

package barcode

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestLinearNoWrongReadUnderNoise decodes tuning frames of the third generator: two of its `mixed`
// class (testdata/gen3-wrong: perspective, JPEG at quality 38–45, noise ×8.8–10, clutter)
// on which the decoder once read a wrong text: a Code 128 read on a single row of the
// fallback (four of six characters misread, the modulo-103 check passed: rowConfirmed) and
// an ITF read alike on two bands of the smoothed level (no check character:
// bandsNeeded). Either may read its own text or nothing, never another. And two near misses of
// the third generator's class nearmiss read a wrong text whose characters were not of one
// pitch (code128PitchSteady): a Code 128 with 24 modules of its bars cut out (its text
// file's "-": it may read nothing) read 15723333 on two bands, and one with a stroke of ink
// across its bars read 689151922092 (two characters misread, their weighted sum kept)
// through our edge reader.
func TestLinearNoWrongReadUnderNoise(t *testing.T) {
	skipUnderRace(t)
	d := NewDecoder(Options{Formats: AllFormats, ITFLengths: []int{14}, Code128Digits: []int{12}})
	for _, name := range []string{"code128-mixed-249", "itf-mixed-318", "code128-nearmiss-10115", "code128-nearmiss-11009"} {
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

// TestITFBandsThatDisagree: once two bands of one region read different ITF texts, neither
// counts, however many bands read it after (the held-out frame that found it read a wrong
// text on three bands and its own on one); Code 128, whose check character stands behind
// each read, keeps the two-band vote.
func TestITFBandsThatDisagree(t *testing.T) {
	wrong, right := Result{Text: "67614847414009", Format: ITF}, Result{Text: "09969193827173", Format: ITF}
	v := bandVotes{}
	if v.add(wrong, true, 2) || v.add(right, true, 2) {
		t.Fatal("a single band counted")
	}
	for i := range 3 {
		if v.add(wrong, true, 2) {
			t.Fatalf("ITF read on %d bands against one other counted", i+2)
		}
	}
	v = bandVotes{}
	if v.add(right, true, 2) || !v.add(right, true, 2) {
		t.Error("two agreeing ITF bands without a disagreeing one: want the read")
	}
	c1, c2 := Result{Text: "004201234560", Format: Code128}, Result{Text: "004201234571", Format: Code128}
	v = bandVotes{}
	v.add(c2, true, 2)
	if v.add(c1, true, 2) || !v.add(c1, true, 2) {
		t.Error("Code 128: two agreeing bands beside another read: want the read")
	}
}
