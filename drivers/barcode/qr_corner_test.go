package barcode

import (
	"math"
	"testing"

	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/common"
)

// warpedQR draws text as a QR symbol (ink 40, paper 210) into a w×h crop through the
// perspective that puts its module-grid corners (0,0), (dim,0), (dim,dim), (0,dim) at quad
// (x, y pairs in that order), 3×3 supersamples per pixel, and returns the crop, the symbol's
// dimension and the module-to-pixel transform.
func warpedQR(t *testing.T, text string, w, h int, quad [8]float64) (gray, int, *common.PerspectiveTransform) {
	t.Helper()
	img, err := Render(QRCode, text, RenderOptions{Module: 1, QuietZone: 4})
	if err != nil {
		t.Fatal(err)
	}
	dim := img.Rect.Dx() - 8
	d := float64(dim)
	toPix := common.PerspectiveTransform_QuadrilateralToQuadrilateral(0, 0, d, 0, d, d, 0, d,
		quad[0], quad[1], quad[2], quad[3], quad[4], quad[5], quad[6], quad[7])
	toMod := common.PerspectiveTransform_QuadrilateralToQuadrilateral(
		quad[0], quad[1], quad[2], quad[3], quad[4], quad[5], quad[6], quad[7], 0, 0, d, 0, d, d, 0, d)
	g := gray{w: w, h: h, pix: make([]byte, w*h)}
	pts := make([]float64, 18)
	for y := range h {
		for x := range w {
			for k := range 9 {
				pts[2*k], pts[2*k+1] = float64(x)+(float64(k%3)+0.5)/3, float64(y)+(float64(k/3)+0.5)/3
			}
			toMod.TransformPoints(pts)
			sum := 0
			for k := range 9 {
				u, v := int(math.Floor(pts[2*k])), int(math.Floor(pts[2*k+1]))
				if u >= 0 && v >= 0 && u < dim && v < dim && img.GrayAt(u+4, v+4).Y < 128 {
					sum += 40
				} else {
					sum += 210
				}
			}
			g.pix[y*w+x] = byte(sum / 9)
		}
	}
	return g, dim, toPix
}

// finderCentres returns the three finder centres of a module-to-pixel transform.
func finderCentres(tf *common.PerspectiveTransform, dim int) (tl, tr, bl gozxing.ResultPoint) {
	far := float64(dim) - 3.5
	p := []float64{3.5, 3.5, far, 3.5, 3.5, far}
	tf.TransformPoints(p)
	return gozxing.NewResultPoint(p[0], p[1]), gozxing.NewResultPoint(p[2], p[3]), gozxing.NewResultPoint(p[4], p[5])
}

// TestQRCornerTransform: under a keystone tilt the three finders' parallelogram puts the
// fourth corner modules off; the searched corner lands within a fifth of a module of the
// true one, and its grid reads. On an affine symbol the search keeps the parallelogram.
func TestQRCornerTransform(t *testing.T) {
	const text = "HTTPS://EXAMPLE.TEST/V/0123456789ABCDEF"
	for _, tc := range []struct {
		name     string
		quad     [8]float64
		affine   bool
		minDrift float64 // modules between the parallelogram's corner and the true one
	}{
		{"keystone", [8]float64{40, 30, 300, 50, 330, 330, 20, 290}, false, 1.5},
		{"affine", [8]float64{40, 30, 290, 60, 260, 310, 10, 280}, true, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, dim, truth := warpedQR(t, text, 360, 360, tc.quad)
			tl, tr, bl := finderCentres(truth, dim)
			far := float64(dim) - 3.5
			want := []float64{far, far}
			truth.TransformPoints(want)
			module := math.Hypot(tr.GetX()-tl.GetX(), tr.GetY()-tl.GetY()) / float64(dim-7)
			px, py := tr.GetX()-tl.GetX()+bl.GetX(), tr.GetY()-tl.GetY()+bl.GetY()
			drift := math.Hypot(px-want[0], py-want[1]) / module
			if drift < tc.minDrift {
				t.Fatalf("the parallelogram's corner is %.2f modules off: the case tests nothing", drift)
			}
			t.Logf("parallelogram corner %.2f modules off", drift)
			ct := qrCornerTransform(&g, tl, tr, bl, dim)
			if tc.affine {
				if ct != nil {
					got := []float64{far, far}
					ct.TransformPoints(got)
					if off := math.Hypot(got[0]-want[0], got[1]-want[1]) / module; off > 0.2 {
						t.Errorf("affine symbol: corner moved %.2f modules off the true one", off)
					}
				}
				return
			}
			if ct == nil {
				t.Fatal("no corner found on a keystoned symbol")
			}
			got := []float64{far, far}
			ct.TransformPoints(got)
			if off := math.Hypot(got[0]-want[0], got[1]-want[1]) / module; off > 0.2 {
				t.Errorf("searched corner %.2f modules off the true one", off)
			}
			d := NewDecoder(Options{Formats: QRCode})
			res, ok := qrReadGrid(&g, ct, dim, func(m *gozxing.BitMatrix) (Result, bool) {
				dr, err := d.qr.GetDecoder().Decode(m, nil)
				if err != nil {
					return Result{}, false
				}
				return Result{Text: dr.GetText()}, true
			})
			if !ok || res.Text != text {
				t.Errorf("the searched grid read %q, %v; want %q", res.Text, ok, text)
			}
		})
	}
}
