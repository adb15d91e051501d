package barcode

import (
	"image"
	"math"
	"testing"

	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/qrcode/detector"
)

// TestQRTwoFinders: a QR symbol, turned 20°, with one finder pattern washed out by a glare
// spot (each of the three in turn) leaves gozxing's finder search two patterns; the third is
// put where a square symbol puts it (beside either found one, or across their diagonal) and
// the symbol reads.
func TestQRTwoFinders(t *testing.T) {
	const text = "HTTPS://EXAMPLE.TEST/V/0123456789ABCDEF"
	a := 20 * math.Pi / 180
	const c0x, c0y, side = 90.0, 60.0, 200.0
	quad := [8]float64{}
	for k, p := range [][2]float64{{0, 0}, {1, 0}, {1, 1}, {0, 1}} {
		quad[2*k] = c0x + side*(p[0]*math.Cos(a)-p[1]*math.Sin(a))
		quad[2*k+1] = c0y + side*(p[0]*math.Sin(a)+p[1]*math.Cos(a))
	}
	for _, corner := range []struct {
		name string
		u, v float64 // the finder's centre, in modules from the far corner
	}{{"top left", 0, 0}, {"top right", 1, 0}, {"bottom left", 0, 1}} {
		t.Run(corner.name, func(t *testing.T) {
			g, dim, truth := warpedQR(t, text, 400, 400, quad)
			d := float64(dim)
			pt := []float64{3.5 + corner.u*(d-7), 3.5 + corner.v*(d-7)}
			truth.TransformPoints(pt)
			module := side / d
			// A glare spot: white over the finder and its separator.
			r := 4.2 * module
			for y := range g.h {
				for x := range g.w {
					if math.Hypot(float64(x)-pt[0], float64(y)-pt[1]) < r {
						g.pix[y*g.w+x] = 250
					}
				}
			}
			src, _ := gozxing.NewPlanarYUVLuminanceSource(g.pix, g.w, g.h, 0, 0, g.w, g.h, false)
			bmp, _ := gozxing.NewBinaryBitmap(gozxing.NewHybridBinarizer(src))
			bits, _ := bmp.GetBlackMatrix()
			if _, err := detector.NewFinderPatternFinder(bits, nil).Find(nil); err == nil {
				t.Fatal("gozxing found three finder patterns: the case tests nothing")
			}
			img := &image.Gray{Pix: g.pix, Stride: g.w, Rect: image.Rect(0, 0, g.w, g.h)}
			res, err := NewDecoder(Options{Formats: QRCode}).Decode(img)
			if err != nil || res.Text != text {
				t.Fatalf("got %+v, %v", res, err)
			}
		})
	}
}
