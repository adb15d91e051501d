package barcode

import (
	"math"
	"testing"
)

// TestGrayAtClamps: points off the image, infinite or NaN (a degenerate transform's) read
// the nearest pixel instead of indexing out of the image.
func TestGrayAtClamps(t *testing.T) {
	g := gray{w: 2, h: 2, pix: []byte{10, 20, 30, 40}}
	nan, inf := math.NaN(), math.Inf(1)
	for _, c := range []struct{ x, y, want float64 }{
		{0, 0, 10}, {1, 1, 40}, {0.5, 0, 15},
		{-5, -5, 10}, {9, 9, 40}, {nan, 0, 10}, {nan, nan, 10}, {1, nan, 20},
		{inf, -inf, 20}, {-inf, inf, 30},
	} {
		if got := g.at(c.x, c.y); got != c.want {
			t.Errorf("at(%v, %v) = %v, want %v", c.x, c.y, got, c.want)
		}
	}
}
