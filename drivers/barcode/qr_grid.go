package barcode

import (
	"math"

	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/common"
	"github.com/makiuchi-d/gozxing/qrcode/detector"
)

// A QR sampler of our own, for symbols gozxing's binarizer breaks up: a glare spot's halo
// over the data, faint ink under shot noise, modules of two pixels. The grid comes from the
// three finder patterns and, from version 2 on, the alignment pattern, found on the grey
// levels (gozxing's search on the binarized crop takes a glare blob for it). Each module's
// level is the mean of nine points over its central part, and is decided against the levels
// of the modules around it rather than a per-pixel threshold. gozxing's QR decoder (format,
// version, unmasking, Reed–Solomon, bit stream) then reads the module matrix.

// decodeQRFaint reads a QR crop whose ink is faint under sensor noise: gozxing's binarizer
// breaks the finder patterns' runs on it. The crop is smoothed over about a third of a module
// (3×3 mean) before its local contrast is equalised over about three modules, then read as
// the other crops are (gozxing, then the finders' grid).
func (d *Decoder) decodeQRFaint(c *gray) (Result, bool) {
	if d.opt.Formats&QRCode == 0 {
		return Result{}, false
	}
	if d.budget -= c.w * c.h; d.budget < 0 || !d.affords(c.w*c.h) {
		return Result{}, false
	}
	s := c.boxMean(1)
	s.stretch()
	n := s.equalise()
	src, err := gozxing.NewPlanarYUVLuminanceSource(n.pix, n.w, n.h, 0, 0, n.w, n.h, false)
	if err != nil {
		return Result{}, false
	}
	bmp, err := gozxing.NewBinaryBitmap(gozxing.NewHybridBinarizer(src))
	if err != nil {
		return Result{}, false
	}
	if res, err := d.qr.Decode(bmp, nil); err == nil {
		if r, ok := d.result(res, true); ok {
			return r, true
		}
	}
	if d.expired() {
		return Result{}, false
	}
	return d.decodeQRAffine(&n, bmp)
}

// qrGridTransform returns the transform from module coordinates (module (i, j) centred at
// (i+½, j+½)) of a dim×dim symbol to crop pixels (gozxing's convention: pixel x spans
// [x, x+1)), from the finder centres and, when found on g, the alignment pattern.
func qrGridTransform(g *gray, tl, tr, bl gozxing.ResultPoint, module float64, dim int) (*common.PerspectiveTransform, bool) {
	affine := detector.Detector_createTransform(tl, tr, bl, nil, dim)
	if dim < 25 {
		return affine, false
	}
	// The alignment pattern's centre is module (dim−7, dim−7): a dark centre, a light ring,
	// a dark ring. Search ±2 modules around where the finders put it, on the grey levels.
	c := float64(dim) - 6.5
	pts := []float64{c, c, c + 1, c, c, c + 1}
	affine.TransformPoints(pts)
	ex, ey := [2]float64{pts[2] - pts[0], pts[3] - pts[1]}, [2]float64{pts[4] - pts[0], pts[5] - pts[1]}
	best, bx, by := math.Inf(-1), 0.0, 0.0
	for a := -2.0; a <= 2; a += 0.25 {
		for b := -2.0; b <= 2; b += 0.25 {
			x := pts[0] + a*ex[0] + b*ey[0] - 0.5
			y := pts[1] + a*ex[1] + b*ey[1] - 0.5
			var light, dark float64
			for i := -2; i <= 2; i++ {
				for j := -2; j <= 2; j++ {
					v := g.at(x+float64(i)*ex[0]+float64(j)*ey[0], y+float64(i)*ex[1]+float64(j)*ey[1])
					if max(abs(i), abs(j)) == 1 {
						light += v
					} else {
						dark += v
					}
				}
			}
			// Mean of the light ring (8 modules) over the dark ones (17), with a slight
			// preference for the predicted place.
			if s := light/8 - dark/17 - 2*math.Hypot(a, b); s > best {
				best, bx, by = s, x+0.5, y+0.5
			}
		}
	}
	if best <= 0 {
		return affine, false
	}
	ap := detector.NewAlignmentPattern(bx, by, module)
	return detector.Detector_createTransform(tl, tr, bl, ap, dim), true
}

func abs(i int) int {
	if i < 0 {
		return -i
	}
	return i
}

// qrLevels returns the level of each module of the dim×dim grid (row major): the mean of g
// at nine points ±0.2 module around its centre, moved by du[i] modules for column i and
// dv[j] for row j (qrTimingOffsets; nil: not moved).
func qrLevels(g *gray, tf *common.PerspectiveTransform, dim int, du, dv []float64) []float64 {
	pts := make([]float64, 0, 18*dim)
	lv := make([]float64, dim*dim)
	offs := [3]float64{0.3, 0.5, 0.7}
	for j := range dim {
		pts = pts[:0]
		for i := range dim {
			u, v := float64(i), float64(j)
			if du != nil {
				u, v = u+du[i], v+dv[j]
			}
			for _, dy := range offs {
				for _, dx := range offs {
					pts = append(pts, u+dx, v+dy)
				}
			}
		}
		tf.TransformPoints(pts)
		for i := range dim {
			var s float64
			for k := range 9 {
				p := pts[18*i+2*k:]
				s += g.at(p[0]-0.5, p[1]-0.5)
			}
			lv[j*dim+i] = s / 9
		}
	}
	return lv
}

// qrTimingOffsets measures where the module columns and rows of a dim×dim symbol lie
// against the transform tf (paper bent round a cylinder, a tilt the transform leaves
// over) along its timing patterns: row 6 and column 6, light at module 7 (the finder's
// separator), then alternating to module dim−8, light again. It returns the offsets of the
// columns' and rows' centres in modules (the finders' columns and rows unmoved), or nil when
// neither pattern could be followed.
func qrTimingOffsets(g *gray, tf *common.PerspectiveTransform, dim int) (du, dv []float64) {
	n := dim - 14
	pt := make([]float64, 2)
	at := func(u, v float64) float64 {
		pt[0], pt[1] = u, v
		tf.TransformPoints(pt)
		return g.at(pt[0]-0.5, pt[1]-0.5)
	}
	cols := trackTiming(n, func(t float64) float64 { return at(7+t, 6.5) }, false)
	rows := trackTiming(n, func(t float64) float64 { return at(6.5, 7+t) }, false)
	if cols == nil && rows == nil {
		return nil, nil
	}
	du, dv = make([]float64, dim), make([]float64, dim)
	copy(du[7:], cols)
	copy(dv[7:], rows)
	return du, dv
}
