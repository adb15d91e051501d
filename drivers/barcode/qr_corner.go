package barcode

import (
	"math"

	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/common"
)

// The fourth corner of a tilted QR symbol whose alignment pattern is hidden (a finger, a
// glare spot) or absent (version 1). Three finder centres fix an affine grid; under a
// perspective tilt the corner they leave free drifts by modules, and the data modules
// beside it are sampled on their edges. The corner is searched instead: the grid through
// the three finders and a trial corner is sampled at the module centres, and the corner
// whose modules stand furthest from their local thresholds (a registered grid samples
// module centres, a misregistered one their edges, halfway between ink and paper) wins.

// qrCornerTransform returns the transform from module coordinates to crop pixels (as
// qrGridTransform) through the finder centres and the searched fourth corner, or nil
// when no trial corner sharpens the grid beyond the parallelogram's.
func qrCornerTransform(g *gray, tl, tr, bl gozxing.ResultPoint, dim int) *common.PerspectiveTransform {
	n := float64(dim - 7)
	ex := [2]float64{(tr.GetX() - tl.GetX()) / n, (tr.GetY() - tl.GetY()) / n}
	ey := [2]float64{(bl.GetX() - tl.GetX()) / n, (bl.GetY() - tl.GetY()) / n}
	bx, by := tr.GetX()-tl.GetX()+bl.GetX(), tr.GetY()-tl.GetY()+bl.GetY()
	far := float64(dim) - 3.5
	at := func(a, b float64) *common.PerspectiveTransform {
		return common.PerspectiveTransform_QuadrilateralToQuadrilateral(
			3.5, 3.5, far, 3.5, far, far, 3.5, far,
			tl.GetX(), tl.GetY(), tr.GetX(), tr.GetY(),
			bx+a*ex[0]+b*ey[0], by+a*ex[1]+b*ey[1], bl.GetX(), bl.GetY())
	}
	centres := make([]float64, 2*dim*dim)
	for j := range dim {
		for i := range dim {
			k := 2 * (j*dim + i)
			centres[k], centres[k+1] = float64(i)+0.5, float64(j)+0.5
		}
	}
	pts := make([]float64, len(centres))
	lv := make([]float64, dim*dim)
	score := func(a, b float64) float64 {
		copy(pts, centres)
		at(a, b).TransformPoints(pts)
		for m := range lv {
			lv[m] = g.at(pts[2*m]-0.5, pts[2*m+1]-0.5)
		}
		return gridSharpness(lv, dim)
	}
	base := score(0, 0)
	best, ba, bb := base, 0.0, 0.0
	// Coarse: every whole-module offset within qrCornerReach; then halving steps round the
	// best.
	for a := -qrCornerReach; a <= qrCornerReach; a++ {
		for b := -qrCornerReach; b <= qrCornerReach; b++ {
			if s := score(a, b); s > best {
				best, ba, bb = s, a, b
			}
		}
	}
	for step := 0.5; step >= 0.125; step /= 2 {
		for moved := true; moved; {
			moved = false
			for _, d := range [4][2]float64{{step, 0}, {-step, 0}, {0, step}, {0, -step}} {
				if s := score(ba+d[0], bb+d[1]); s > best {
					best, ba, bb, moved = s, ba+d[0], bb+d[1], true
				}
			}
		}
	}
	if best <= base*1.02 {
		return nil
	}
	return at(ba, bb)
}

// qrCornerReach is how far, in modules along each axis, the fourth corner is searched from
// the parallelogram's: a 40° tilt moves it by about three modules on a version-4 symbol.
const qrCornerReach = 4.0

// gridSharpness is the mean distance of each module's level from the midpoint of the
// levels around it (within two modules), over that window's range.
func gridSharpness(lv []float64, dim int) float64 {
	var s float64
	for j := range dim {
		for i := range dim {
			lo, hi := windowRange(lv, dim, dim, i, j, 2)
			if hi > lo {
				s += math.Abs(lv[j*dim+i]-(lo+hi)/2) / (hi - lo)
			}
		}
	}
	return s / float64(dim*dim)
}
