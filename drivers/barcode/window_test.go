package barcode

import (
	"math/rand/v2"
	"testing"
)

// TestSlidingExtremeIsTheNaiveScan: the O(n) running extremum (binarize's local min/max,
// shadeBits' closing) equals the scan of every clipped window, windows wider than the
// profile and ties (quantised profiles) included.
func TestSlidingExtremeIsTheNaiveScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(34, 1))
	for trial := range 300 {
		n := 1 + rng.IntN(300)
		p := make([]float64, n)
		for i := range p {
			p[i] = float64(rng.IntN(1 + trial%20)) // few levels: many ties
		}
		h := rng.IntN(n + 3)
		for _, isMax := range []bool{false, true} {
			got := make([]float64, n)
			slidingExtreme(p, h, isMax, got)
			for i := range p {
				e := p[max(0, i-h)]
				for _, v := range p[max(0, i-h):min(n, i+h+1)] {
					if isMax {
						e = max(e, v)
					} else {
						e = min(e, v)
					}
				}
				if got[i] != e {
					t.Fatalf("n %d h %d max %v: at %d got %v, want %v", n, h, isMax, i, got[i], e)
				}
			}
		}
	}
}
