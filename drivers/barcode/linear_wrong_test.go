//go:build !race

package barcode

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestLinearNoWrongReadUnderNoise decodes tuning frames of the third generator on which the
// decoder once read a wrong text (testdata/gen3-wrong). Four of its `mixed` class
// (perspective, JPEG at quality 38–45 or motion blur, noise ×8.8–10, clutter): a Code 128
// read on a single row of the fallback (four of six characters misread, the modulo-103
// check passed: rowConfirmed), an ITF read alike on two bands of the smoothed level (no
// check character: bandsNeeded), and, in crops of frames drawn at 25–40 % and noise ×7–10,
// an ITF read on three bands of one piece of the code after the other piece had read two
// texts (itfConflict) and one fitted on two bands with its least clear pairs at 18 and 22
// (itfReadMargin). And two near misses of its class nearmiss that read a wrong text whose
// characters were not of one pitch (code128PitchSteady): a Code 128 with 24 modules of its
// bars cut out (its text file's "-": it may read nothing) read 15723333 on two bands, and
// one with a stroke of ink across its bars read 689151922092 (two characters misread, their
// weighted sum kept) through our edge reader. Each may read its own text or nothing, never
// another.
func TestLinearNoWrongReadUnderNoise(t *testing.T) {
	skipUnderRace(t)
	d := NewDecoder(Options{Formats: AllFormats, ITFLengths: []int{14}, Code128Digits: []int{12}})
	for _, name := range []string{"code128-mixed-249.jpg", "itf-mixed-318.jpg", "itf-mixed-0-corner.png",
		"itf-mixed-893-corner.png", "code128-nearmiss-10115.jpg", "code128-nearmiss-11009.jpg"} {
		name, ext, _ := strings.Cut(name, ".")
		base := filepath.Join("testdata", "gen3-wrong", name)
		class, _, _ := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(name, "code128-"), "itf-"), "-")
		sf, err := gen3Load(base+".txt", base+"."+ext, ext, class)
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

// TestITFReadsOnTheSameBars: two bands' ITF reads lie on the same bars when their lines are
// near parallel, each within the bars' height of the other and their symbols overlap by
// half; a text read where another was read in the frame does not count, on any candidate,
// while two codes apart (parallel beyond their bars' height, end to end, crossed) keep
// theirs.
func TestITFReadsOnTheSameBars(t *testing.T) {
	at := func(text string, x0, y0, x1, y1 float64) itfBandRead {
		return itfBandRead{text: text, x0: x0, y0: y0, x1: x1, y1: y1, halfV: 20}
	}
	code := at("95276787193544", 100, 300, 100, 40) // bars across a vertical line, 260 px
	for _, c := range []struct {
		name string
		b    itfBandRead
		same bool
	}{
		{"the same line", at("x", 100, 300, 100, 40), true},
		{"a piece of it, 10 px aside, 3° off", at("x", 110, 290, 103, 150), true},
		{"the other way round", at("x", 102, 60, 98, 290), true},
		{"parallel, beyond the bars' height", at("x", 130, 300, 130, 40), false},
		{"end to end", at("x", 100, 40, 100, -220), false},
		{"overlapping by a third", at("x", 100, 130, 100, -130), false},
		{"crossed", at("x", -30, 170, 230, 170), false},
	} {
		if got := sameBars(code, c.b); got != c.same {
			t.Errorf("%s: sameBars %v, want %v", c.name, got, c.same)
		}
		if got := sameBars(c.b, code); got != c.same {
			t.Errorf("%s (swapped): sameBars %v, want %v", c.name, got, c.same)
		}
	}
	// A band's read lies where its row's bars are; the edge reader's row, rebuilt from
	// widths, over the whole scan (it once escaped the rule: a held-out frame read its
	// wrong text that way beside its own, on the same region).
	r := region{cx: 100, cy: 50, halfV: 20}
	row := make([]bool, 200) // 100 px at 2 samples a pixel, from x = 50
	for i := 40; i < 160; i += 3 {
		row[i] = true
	}
	if b := itfBandReadOf("x", row, 200, r, 1, 0, 0, 1, 50, 0, 2); b.x0 != 70 || b.x1 != 129 || b.y0 != 50 {
		t.Errorf("a row's read placed at x %.1f–%.1f, y %.1f; want 70–129, 50", b.x0, b.x1, b.y0)
	}
	if b := itfBandReadOf("x", nil, 200, r, 1, 0, 0, 1, 50, 5, 2); b.x0 != 50 || b.x1 != 150 || b.y0 != 55 {
		t.Errorf("the edge reader's read placed at x %.1f–%.1f, y %.1f; want the scan, 50–150, 55", b.x0, b.x1, b.y0)
	}

	d := NewDecoder(Options{Formats: ITF})
	wrong, piece := at("95276787194944", 100, 300, 100, 40), at("95276787193544", 101, 290, 100, 160)
	if d.itfConflict(piece) || d.itfConflict(piece) {
		t.Error("one text read twice: a conflict")
	}
	if !d.itfConflict(wrong) || !d.itfConflict(wrong) {
		t.Error("another text on the same bars: no conflict")
	}
	if d.itfConflict(at("12345678901231", 300, 300, 300, 40)) {
		t.Error("a second code beside the first: a conflict")
	}
}
