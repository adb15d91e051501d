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

// TestSlideIsTheNaiveScan: gray.slide, rows then columns through slideLine, equals the
// extremum of every clipped square window, radii wider than the image included.
func TestSlideIsTheNaiveScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(34, 2))
	for trial := range 60 {
		w, h := 1+rng.IntN(40), 1+rng.IntN(40)
		g := gray{w: w, h: h, pix: make([]byte, w*h)}
		for i := range g.pix {
			g.pix[i] = byte(rng.IntN(1 + trial*4)) // few levels at first: many ties
		}
		r := rng.IntN(max(w, h) + 2)
		for _, maxima := range []bool{false, true} {
			got := g.slide(r, maxima)
			for y := range h {
				for x := range w {
					e := g.pix[max(0, y-r)*w+max(0, x-r)]
					for yy := max(0, y-r); yy < min(h, y+r+1); yy++ {
						for xx := max(0, x-r); xx < min(w, x+r+1); xx++ {
							if v := g.pix[yy*w+xx]; maxima {
								e = max(e, v)
							} else {
								e = min(e, v)
							}
						}
					}
					if got.pix[y*w+x] != e {
						t.Fatalf("%d×%d r %d max %v: at (%d,%d) got %d, want %d", w, h, r, maxima, x, y, got.pix[y*w+x], e)
					}
				}
			}
		}
	}
}

func BenchmarkSlide(b *testing.B) {
	rng := rand.New(rand.NewPCG(34, 3))
	g := gray{w: 240, h: 240, pix: make([]byte, 240*240)}
	for i := range g.pix {
		g.pix[i] = byte(rng.IntN(256))
	}
	for b.Loop() {
		g.slide(5, true)
	}
}
