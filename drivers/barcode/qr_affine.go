package barcode

import (
	"math"
	"strconv"

	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/qrcode/detector"
)

// decodeQRAffine reads a QR symbol from its three finder patterns alone, ignoring the
// alignment pattern. gozxing's detector looks for the alignment pattern near where the
// finders put it and, when a glare spot, a finger or dirt covers it, often takes some other
// black-white blob there for it and samples the grid through a wrong transform. On our
// upright crops the symbol is affine to a few per cent, so the three finders fix the grid.
func (d *Decoder) decodeQRAffine(bmp *gozxing.BinaryBitmap) (Result, bool) {
	bits, err := bmp.GetBlackMatrix()
	if err != nil {
		return Result{}, false
	}
	info, err := detector.NewFinderPatternFinder(bits, nil).Find(nil)
	if err != nil {
		return Result{}, false
	}
	tl, tr, bl := info.GetTopLeft(), info.GetTopRight(), info.GetBottomLeft()
	module := (tl.GetEstimatedModuleSize() + tr.GetEstimatedModuleSize() + bl.GetEstimatedModuleSize()) / 3
	if module < 1 {
		return Result{}, false
	}
	dist := func(a, b gozxing.ResultPoint) float64 {
		return math.Hypot(a.GetX()-b.GetX(), a.GetY()-b.GetY())
	}
	// The dimension as ZXing computes it: finder centres are dimension−7 modules apart.
	dim := int(math.Round(dist(tl, tr)/module)+math.Round(dist(tl, bl)/module))/2 + 7
	switch dim & 3 {
	case 0:
		dim++
	case 2:
		dim--
	case 3:
		return Result{}, false
	}
	qd := d.qr.GetDecoder()
	// Try the measured dimension first, then its neighbours (module size misjudged).
	for _, dd := range []int{dim, dim + 4, dim - 4} {
		if dd < 21 || dd > 177 {
			continue
		}
		tf := detector.Detector_createTransform(tl, tr, bl, nil, dd)
		grid, err := detector.Detector_sampleGrid(bits, tf, dd)
		if err != nil {
			continue
		}
		dr, err := qd.Decode(grid, nil)
		if err != nil || dr.GetText() == "" {
			continue
		}
		return Result{Text: dr.GetText(), Symbology: "]Q" + strconv.Itoa(dr.GetSymbologyModifier()),
			Format: QRCode, Located: true}, true
	}
	return Result{}, false
}
