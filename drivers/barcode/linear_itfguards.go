package barcode

import (
	"slices"

	"github.com/makiuchi-d/gozxing"
)

// ITF's start is four narrow elements and its stop a wide bar and two narrow elements, and
// gozxing's ITF reader matches both by their proportions alone (oned.PatternMatchVariance
// scales each pattern to its own width). Four wide elements in a row are proportioned as a
// start too, and a pair of data holds them whenever its first digit's bars and its second's
// spaces end wide (77, 12, 47 …). A band that crosses a tilted symbol's corner, entering
// through the paper above the bars (which looks like a quiet zone), then begins at such a
// pair's wide elements and reads the pairs after them as a shorter symbol: a 16-digit code
// as its last 14 digits, seen on a held-out near miss of the third generator (nearmiss
// 1000821: the `length` kind, a 16-digit code at 98 % contrast with a perspective, read on
// two bands at the top of its bars; TestITFStartOfWideElements). A symbol's own start and
// stop are of its narrow width: itfGuardsNarrow holds a read to that, each against the digit
// pair beside it (the width follows a perspective).

// itfGuardsNarrow reports whether the start and stop of gozxing's ITF read res on row are
// of the symbol's narrow width: the start's four elements narrower, on average, than the
// midpoint between the narrow and the wide elements of the first digit pair, and, where the
// pairs fill the row from the start to the stop exactly, the stop's two narrow elements
// narrower than the last pair's midpoint and its wide bar wider. gozxing also reads rows where
// noise merged two elements of the last pair (its last pair then takes in the stop's first
// elements, and the text may still be right): there the stop is not judged, the start is.
func itfGuardsNarrow(row *gozxing.BitArray, res *gozxing.Result) bool {
	pts := res.GetResultPoints()
	if len(pts) != 2 {
		return false
	}
	ps, pe := int(pts[0].GetX()), int(pts[1].GetX())
	if ps < 0 || ps >= row.GetSize() {
		return false
	}
	start := rowRunsBefore(row, ps, 4)
	runs := rowRunsFrom(row, ps) // the pairs, the stop, the quiet zone
	if len(start) < 4 || len(runs) < 10 {
		return false
	}
	if mean(start[0], start[1], start[2], start[3]) >= itfPairMidpoint(runs[:10]) {
		return false
	}
	// The pairs fill the row exactly when a multiple of ten runs ends at the stop.
	k := 0
	for x := ps; x < pe && k < len(runs); k++ {
		x += runs[k]
	}
	if k < 10 || k%10 != 0 {
		return true
	}
	if len(runs) < k+3 {
		return false
	}
	stop, mid := runs[k:k+3], itfPairMidpoint(runs[k-10:k])
	return mean(stop[1], stop[2]) < mid && float64(stop[0]) > mid
}

// itfPairMidpoint is the width halfway between a digit pair's narrow elements (the three
// narrowest bars and spaces) and its wide ones (the two widest of each).
func itfPairMidpoint(pair []int) float64 {
	var narrow, wide float64
	for k := range 2 {
		e := []int{pair[k], pair[k+2], pair[k+4], pair[k+6], pair[k+8]}
		slices.Sort(e)
		narrow += float64(e[0] + e[1] + e[2])
		wide += float64(e[3] + e[4])
	}
	return (narrow/6 + wide/4) / 2
}

// rowRunsFrom returns the widths of the runs of row from x to its end.
func rowRunsFrom(row *gozxing.BitArray, x int) []int {
	var runs []int
	for n := row.GetSize(); x < n; {
		v, w := row.Get(x), 0
		for x < n && row.Get(x) == v {
			x, w = x+1, w+1
		}
		runs = append(runs, w)
	}
	return runs
}

// rowRunsBefore returns the widths of the n runs of row that end at x (x excluded), in the
// row's order; fewer when the row begins first.
func rowRunsBefore(row *gozxing.BitArray, x, n int) []int {
	var runs []int
	for x = min(x, row.GetSize()) - 1; x >= 0 && len(runs) < n; {
		v, w := row.Get(x), 0
		for x >= 0 && row.Get(x) == v {
			x, w = x-1, w+1
		}
		runs = append(runs, w)
	}
	slices.Reverse(runs)
	return runs
}

// mean is the mean of widths.
func mean(w ...int) float64 {
	s := 0
	for _, v := range w {
		s += v
	}
	return float64(s) / float64(len(w))
}
