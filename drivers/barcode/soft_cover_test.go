package barcode

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/makiuchi-d/gozxing/qrcode/decoder"
)

// TestCoveredModulesShadedCover: a cover whose shading spans more than a quarter of the
// symbol's contrast across three modules (a finger lit from one side) is taken for a
// cover by its levels' fit to a plane: the modules under it are unsure; on the same symbol
// uncovered, hardly any module is.
func TestCoveredModulesShadedCover(t *testing.T) {
	dark, dim := qrSymbol(t, "00N0Y4G2VTPVXVR14D2PF2DBS", 2, decoder.ErrorCorrectionLevel_M)
	rng := rand.New(rand.NewPCG(5, 6))
	clean := make([]float64, dim*dim)
	for m, d := range dark {
		clean[m] = 200 + 3*rng.NormFloat64()
		if d {
			clean[m] = 50 + 3*rng.NormFloat64()
		}
	}
	const cx, cy, radius = 12.0, 15.0, 3.8
	covered := append([]float64(nil), clean...)
	var inner []int
	for y := range dim {
		for x := range dim {
			dx, dy := float64(x)-cx, float64(y)-cy
			if math.Hypot(dx, dy) > radius {
				continue
			}
			covered[y*dim+x] = 120 + 20*dx + 3*rng.NormFloat64() // lit from the right
			if math.Hypot(dx, dy) <= radius-1.5 {
				inner = append(inner, y*dim+x)
			}
		}
	}
	// The shading alone keeps the cover's 3×3 windows above a quarter of the range around
	// (7×7): the flatness test misses them.
	rng3 := func(r int) float64 {
		lo, hi := math.Inf(1), math.Inf(-1)
		for y := int(cy) - r; y <= int(cy)+r; y++ {
			for x := int(cx) - r; x <= int(cx)+r; x++ {
				lo, hi = min(lo, covered[y*dim+x]), max(hi, covered[y*dim+x])
			}
		}
		return hi - lo
	}
	if rng3(1) < 0.25*rng3(3) {
		t.Fatalf("the cover's centre spans %.0f of %.0f: too flat for the test", rng3(1), rng3(3))
	}
	_, conf := moduleBits(covered, dim, dim, 2)
	for _, m := range inner {
		if conf[m] > 0.1 {
			t.Errorf("module (%d, %d) under the cover: confidence %.2f, want ≤ 0.1", m%dim, m/dim, conf[m])
		}
	}
	_, conf = moduleBits(clean, dim, dim, 2)
	unsure := 0
	for _, c := range conf {
		if c < 0.1 {
			unsure++
		}
	}
	if unsure > dim*dim/20 {
		t.Errorf("%d of %d modules unsure on the clean symbol, want ≤ 5 %%", unsure, dim*dim)
	}
}
