//go:build !race

package barcode

import (
	"math"
	"testing"

	"github.com/makiuchi-d/gozxing"
)

// c128Row draws modules widths w at scale samples a module (rounded edge by edge) between
// quiet zones of 40 samples, with the elements of character k (after the start) replaced by
// samples, as a row for gozxing.
func c128Row(w []int, scale float64, k int, samples []int) *gozxing.BitArray {
	var runs []int
	x, at := 0.0, 0
	for i, m := range w {
		if c := (i - 6) / 6; i >= 6 && c == k && samples != nil {
			if (i-6)%6 == 0 {
				for _, s := range samples {
					runs = append(runs, s)
					x += float64(s) / scale
					at += s
				}
			}
			continue
		}
		x += float64(m)
		end := int(math.Round(x * scale))
		runs, at = append(runs, end-at), end
	}
	return runsRow(runs)
}

// TestCode128AgreesRefusesAWidenedCharacter: the character 1 (2 2 2 1 2 2) of a symbol
// drawn with the widths a blurred 11 (2 3 1 2 1 2) came out with on a near miss (7 9 6 5 5
// 6 samples at 3.56 a module: its narrow elements widened by their neighbours' edges) reads
// as 1 through gozxing's pattern match, and the symbol's check, computed for 1, passes: the
// near miss's wrong read. Our similar-edge distances read that character as 11, so the
// readers disagree and the row is not taken; the same symbol drawn clean agrees.
func TestCode128AgreesRefusesAWidenedCharacter(t *testing.T) {
	w := c128Widths("956001087629", -1, nil)
	reader := NewDecoder(DefaultOptions()).code128
	for _, tc := range []struct {
		name    string
		samples []int
		agree   bool
	}{
		{"clean", nil, true},
		{"character 3 widened", []int{7, 9, 6, 5, 5, 6}, false},
	} {
		row := c128Row(w, 3.56, 2, tc.samples)
		res, err := reader.DecodeRow(0, row, nil)
		if err != nil || res.GetText() != "956001087629" {
			t.Fatalf("%s: gozxing reads %v, %v: the row does not test the check", tc.name, res, err)
		}
		if got := code128Agrees(row, res); got != tc.agree {
			t.Errorf("%s: code128Agrees %v, want %v", tc.name, got, tc.agree)
		}
	}
}

// runsRow lays out runs (bar first) between quiet zones of 40 samples, as a row for gozxing.
func runsRow(runs []int) *gozxing.BitArray {
	n := 80
	for _, r := range runs {
		n += r
	}
	row := gozxing.NewBitArray(n)
	pos := 40
	for i, r := range runs {
		if i%2 == 0 {
			row.SetRange(pos, pos+r)
		}
		pos += r
	}
	return row
}

// TestCode128AgreesRefusesAnUnsteadyPitch: a band of the third generator's near miss
// code128 nearmiss-10115 (a Code 128 of 157263441469 with 24 modules cut out of its bars, a
// spurious thin bar in a space; testdata/gen3-wrong) thresholds to runs that gozxing and our
// similar-edge reading both read as 15723333, whose check passes; its fourth and fifth
// characters span 54 and 60 samples where their neighbours span 62–63 (5.7 a module). The
// row is disputed (code128PitchSteady) and our edge reader refuses it; the same text drawn
// whole agrees, and so does a symbol whose module grows by 30 % from end to end (a
// perspective).
func TestCode128AgreesRefusesAnUnsteadyPitch(t *testing.T) {
	reader := NewDecoder(DefaultOptions()).code128
	band := []int{11, 6, 6, 11, 17, 12, 5, 7, 16, 11, 12, 11, 6, 12, 11, 23, 5, 6, 6, 6, 5, 12, 11, 14,
		3, 6, 6, 17, 9, 19, 6, 5, 23, 11, 6, 12, 11, 17, 17, 6, 6, 6, 11}
	var slanted []int
	x, at := 0.0, 0
	for i, m := range c128Widths("157263441469", -1, nil) {
		x += float64(m) * 5 * (1 + 0.3*float64(i)/60)
		slanted, at = append(slanted, int(math.Round(x))-at), int(math.Round(x))
	}
	for _, tc := range []struct {
		name, text string
		row        *gozxing.BitArray
		agree      bool
	}{
		{"the near miss's band", "15723333", runsRow(band), false},
		{"the same text whole", "15723333", c128Row(c128Widths("15723333", -1, nil), 5.7, -1, nil), true},
		{"a symbol at a slant", "157263441469", runsRow(slanted), true},
	} {
		res, err := reader.DecodeRow(0, tc.row, nil)
		if err != nil || res.GetText() != tc.text {
			t.Fatalf("%s: gozxing reads %v, %v: the row does not test the pitch", tc.name, res, err)
		}
		if got := code128Agrees(tc.row, res); got != tc.agree {
			t.Errorf("%s: code128Agrees %v, want %v", tc.name, got, tc.agree)
		}
	}
	// Our edge reader refuses the band beside it (where it reads every character: its
	// fourth spans 53 samples).
	w := []float64{11, 6, 6, 11, 17, 12, 5, 6, 17, 11, 12, 11, 6, 12, 11, 23, 5, 6, 6, 5, 6, 12, 11, 13,
		4, 6, 6, 16, 10, 19, 6, 6, 22, 11, 7, 11, 11, 17, 17, 6, 5, 6, 12, 232}
	if vals, ok := code128From(w, 0, false); ok {
		t.Errorf("the near miss's band: code128From reads %v", vals)
	}
}
