package barcode

import "github.com/makiuchi-d/gozxing"

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
