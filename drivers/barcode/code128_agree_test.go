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
	row := gozxing.NewBitArray(at + 80)
	pos := 40
	for i, r := range runs {
		if i%2 == 0 {
			row.SetRange(pos, pos+r)
		}
		pos += r
	}
	return row
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
