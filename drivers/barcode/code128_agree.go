package barcode

import (
	"math"

	"github.com/makiuchi-d/gozxing"
)

// code128Agrees reports whether our similar-edge reading of each character (code128Char)
// agrees with gozxing's read res of row, character by character, wherever ours reads one.
// gozxing matches a character's six element widths against the 107 patterns and takes the
// nearest however near its second; under blur a narrow element is widened by its
// neighbours' edges, and a character can come out nearer another pattern (11 read as 1 on a
// near miss whose wrong check then matched: one time in 103). The similar-edge distances
// (bar plus space, leading edge to leading edge) cancel that widening, so where the two
// readers disagree on a character the row is ambiguous and is not taken; another band, or
// another frame, reads the symbol. A character ours cannot read (−1) counts as neither, nor
// does a first character ours reads as other than a start (gozxing found its start pattern
// there: only another start would be another symbol).
func code128Agrees(row *gozxing.BitArray, res *gozxing.Result) bool {
	raw := res.GetRawBytes()
	pts := res.GetResultPoints()
	if len(raw) < 3 || len(pts) == 0 {
		return true
	}
	// The row's runs, bar first from the first bar: their widths and where each starts.
	n := row.GetSize()
	var w []float64
	var at []int
	for i := 0; i < n; {
		j := i
		for j < n && row.Get(j) == row.Get(i) {
			j++
		}
		if len(w) > 0 || row.Get(i) {
			w, at = append(w, float64(j-i)), append(at, i)
		}
		i = j
	}
	// The start character: the bar run whose character spans gozxing's left point (the
	// middle of its start pattern).
	left := pts[0].GetX()
	s := -1
	for j := 0; j+6 <= len(w); j += 2 {
		end := at[j+5] + int(w[j+5])
		if float64(at[j]) <= left && left <= float64(end) {
			s = j
			break
		}
	}
	if s < 0 {
		return true
	}
	if !code128PitchSteady(w, s, len(raw)) {
		return false
	}
	for k, c := range raw[:len(raw)-1] { // the stop (seven elements) left out
		j := s + 6*k
		if j+6 > len(w) {
			break
		}
		v := code128Char(w[j:])
		if k == 0 && (v < 103 || v > 105) {
			continue // not a start: gozxing found its start pattern there, and no other start
		}
		if v >= 0 && v != int(c) {
			return false
		}
	}
	return true
}

// code128PitchSlack1 and code128PitchSlack2 are how far (in modules) one character, and two
// side by side, may lie from as many characters on either side of them (their mean) in a row
// that reads: 5 and 4.3 standard deviations of a tenth of a module's jitter on every element.
const (
	code128PitchSlack1 = 1.5
	code128PitchSlack2 = 1.8
)

// code128PitchSteady reports whether each character of the symbol whose start begins at
// element s (n characters, the stop last, its final bar left out), and each two side by
// side, is as wide as the mean of as many characters before and after it, within
// code128PitchSlack1 and 2 modules. Every character spans 11 modules from its first bar's leading
// edge to the next one's (edges of one kind, which blur and the threshold move alike), and a
// perspective changes that width smoothly (the mean of both sides cancels a steady change).
// A row whose characters are not one symbol's pitch holds other bars: a code with a slab of
// bars cut out (the third generator's near misses) left a piece of nine modules and a
// spurious thin bar that read, with the character before, as two characters 2 modules short
// of 22, and the check passed, one time in 103.
func code128PitchSteady(w []float64, s, n int) bool {
	if s+6*n > len(w) {
		return true
	}
	width := func(k, l int) float64 {
		t := 0.0
		for _, x := range w[s+6*k : s+6*(k+l)] {
			t += x
		}
		return t
	}
	for l := 1; l <= 2; l++ {
		for k := l; k+2*l <= n; k++ {
			near := (width(k-l, l) + width(k+l, l)) / 2
			slack := code128PitchSlack1
			if l == 2 {
				slack = code128PitchSlack2
			}
			if math.Abs(width(k, l)-near) > slack*near/float64(11*l) {
				return false
			}
		}
	}
	return true
}
