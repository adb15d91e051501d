package barcode

import "math"

// Timing patterns (alternating dark and light modules along a known line: a DataMatrix
// symbol's two dashed sides, a QR symbol's row and column 6) measure where the module
// columns and rows really lie on curved paper or under a residual tilt, which the
// symbol's outline or finder patterns alone do not fix.

// trackTiming measures where the module boundaries of a timing pattern really lie: along the
// line through its module centres (at(t) samples it, t in modules, from the pattern's start),
// each boundary is the strongest step of the expected sign within ±0.4 module of where the
// previous boundary and the local module width put it. It returns the offset of each
// module's centre from its nominal place (n entries), or nil when the tracking loses the
// pattern (its end more than half a module off).
func trackTiming(n int, at func(t float64) float64, darkFirst bool) []float64 {
	const per = 8 // samples per module
	m := n*per + 1
	prof := make([]float64, m)
	for i := range prof {
		prof[i] = at(float64(i) / per)
	}
	edges := make([]float64, n+1) // edges[j]: boundary before module j
	edges[0] = 0
	width := 1.0
	found := 0
	for j := 1; j < n; j++ {
		pred := edges[j-1] + width
		// Module j−1 dark (even index when darkFirst) → a rising step into j.
		rising := (j-1)%2 == 0 == darkFirst
		lo := int(math.Ceil((pred - 0.4*width) * per))
		hi := int(math.Floor((pred + 0.4*width) * per))
		best, bi := 0.0, -1
		for i := max(1, lo); i <= min(m-2, hi); i++ {
			d := prof[i+1] - prof[i-1]
			if !rising {
				d = -d
			}
			if d > best {
				best, bi = d, i
			}
		}
		if bi < 0 {
			edges[j] = pred
			continue
		}
		found++
		edges[j] = float64(bi) / per
		width = 0.7*width + 0.3*(edges[j]-edges[j-1])
	}
	edges[n] = float64(n)
	if found < n/2 || math.Abs(edges[n-1]+width-float64(n)) > 0.5 {
		return nil
	}
	off := make([]float64, n)
	for j := range n {
		off[j] = (edges[j]+edges[j+1])/2 - (float64(j) + 0.5)
	}
	return off
}
