package barcode

import (
	"slices"
)

// shadeBits turns a band's profile into bars after removing the light falling on it: a hard
// shadow edge or a glare spot across the bars multiplies the paper's level on one part of
// the band, and both the derivative's edges and a local min/max threshold then see an edge
// where the light changes. The paper's level at every sample is the profile's morphological
// closing (a running maximum, then a running minimum, over about six narrow elements: wider
// than any bar, so bars are filled in while the step of the shadow, a wide structure, stays),
// and the profile over it is the print alone; its bars are found by edge detection. It
// reports false when the profile holds no bars.
func shadeBits(p []float64, out []bool) bool {
	n := len(p)
	if !edgeBits(p, out) {
		return false
	}
	narrow := narrowRun(out)
	if narrow == 0 {
		return false
	}
	w := 6 * narrow
	if w >= n/4 {
		return false
	}
	up := runningExtreme(runningExtreme(p, w, true), w, false)
	q := make([]float64, n)
	for i, v := range p {
		q[i] = 255 * v / max(up[i], 1)
	}
	return edgeBits(q, out)
}

// narrowRun is the width of a narrow element: the 25th percentile of the run lengths in
// the middle half of bits (0 when there are too few runs).
func narrowRun(bits []bool) int {
	n := len(bits)
	var ls []int
	for i := 0; i < n; {
		j := i
		for j < n && bits[j] == bits[i] {
			j++
		}
		if j > n/4 && i < 3*n/4 {
			ls = append(ls, j-i)
		}
		i = j
	}
	if len(ls) < 8 {
		return 0
	}
	slices.Sort(ls)
	return max(1, ls[len(ls)/4])
}

// runningExtreme returns the maximum (or minimum) of p over a window of w samples centred
// on each sample (clipped at the ends).
func runningExtreme(p []float64, w int, isMax bool) []float64 {
	out := make([]float64, len(p))
	slidingExtreme(p, w/2, isMax, out)
	return out
}
