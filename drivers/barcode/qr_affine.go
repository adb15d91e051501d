package barcode

import (
	"math"
	"strconv"

	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/common"
	"github.com/makiuchi-d/gozxing/qrcode/detector"
)

// decodeQRAffine reads a QR symbol from its three finder patterns alone, ignoring the
// alignment pattern. gozxing's detector looks for the alignment pattern near where the
// finders put it and, when a glare spot, a finger or dirt covers it, often takes some other
// black-white blob there for it and samples the grid through a wrong transform. On our
// upright crops the symbol is affine to a few per cent, so the three finders fix the grid.
func (d *Decoder) decodeQRAffine(g *gray, bmp *gozxing.BinaryBitmap) (Result, bool) {
	bits, err := bmp.GetBlackMatrix()
	if err != nil {
		return Result{}, false
	}
	read := d.qrGridRead
	finder := detector.NewFinderPatternFinder(bits, nil)
	info, err := finder.Find(nil)
	if err != nil {
		return d.decodeQRTwoFinders(g, bits, finder.GetPossibleCenters(), read)
	}
	tl, tr, bl := info.GetTopLeft(), info.GetTopRight(), info.GetBottomLeft()
	module := (tl.GetEstimatedModuleSize() + tr.GetEstimatedModuleSize() + bl.GetEstimatedModuleSize()) / 3
	if module < 1 {
		return Result{}, false
	}
	d.qrFinders = true
	return qrReadFinders(g, bits, tl, tr, bl, module, false, read, d.expired)
}

// qrGridRead reads a sampled QR module grid with gozxing's decoder (format, version,
// unmasking, Reed–Solomon, bit stream).
func (d *Decoder) qrGridRead(grid *gozxing.BitMatrix) (Result, bool) {
	if d.expired() { // each grid tried costs a sampling and a decode: up to a few ms
		return Result{}, false
	}
	dr, err := d.qr.GetDecoder().Decode(grid, nil)
	if err != nil || dr.GetText() == "" {
		return Result{}, false
	}
	return Result{Text: dr.GetText(), Symbology: "]Q" + strconv.Itoa(dr.GetSymbologyModifier()),
		Format: QRCode, Located: true}, true
}

// qrReadFinders reads the QR symbol whose finder patterns are centred at tl, tr and bl,
// of modules about module pixels. An inferred finder (decodeQRTwoFinders) gets the
// measured dimension only and no searched fourth corner: it is one guess of several. It
// gives up between its steps once stop reports the frame's time budget spent.
func qrReadFinders(g *gray, bits *gozxing.BitMatrix, tl, tr, bl gozxing.ResultPoint, module float64, inferred bool, read func(*gozxing.BitMatrix) (Result, bool), stop func() bool) (Result, bool) {
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
		// Halfway between two versions: the finders' module misjudged by a tenth or more
		// (ink spread, curved paper). Both neighbours are tried below.
		dim -= 2
	}
	dims := []int{dim, dim + 4, dim - 4}
	if inferred {
		dims = dims[:1]
	}
	// Try the measured dimension first, then its neighbours (module size misjudged): the
	// binarized crop sampled through the finders' affine grid, then our own sampler
	// (qr_grid.go) on the grey levels.
	for _, dd := range dims {
		if dd < 21 || dd > 177 {
			continue
		}
		if stop() {
			break
		}
		tf := detector.Detector_createTransform(tl, tr, bl, nil, dd)
		if grid, err := detector.Detector_sampleGrid(bits, tf, dd); err == nil {
			if r, ok := read(grid); ok {
				return r, true
			}
		}
		if g == nil || dd != dim || module < qrSampleMinModule {
			continue // our sampler on the measured dimension only: it costs more
		}
		gt, aligned := qrGridTransform(g, tl, tr, bl, module, dd)
		transforms := []*common.PerspectiveTransform{gt}
		if aligned {
			transforms = append(transforms, tf)
		}
		for _, t := range transforms {
			if res, ok := qrReadGrid(g, t, dd, read); ok {
				return res, true
			}
		}
		// The searched fourth corner (qr_corner.go) costs about a hundred samplings of the
		// grid: only once the others failed.
		if inferred || stop() {
			continue
		}
		if ct := qrCornerTransform(g, tl, tr, bl, dd); ct != nil {
			if res, ok := qrReadGrid(g, ct, dd, read); ok {
				return res, true
			}
		}
	}
	return Result{}, false
}

// qrSampleMinModule is the smallest module, in crop pixels, that our sampler and the searched
// fourth corner take: the levels of smaller modules blur into their neighbours' whatever the
// grid, and finders of clutter taken for a symbol of 133 such modules cost a third of a
// second a frame.
const qrSampleMinModule = 2

// decodeQRTwoFinders reads a QR symbol of which gozxing's finder search confirmed two finder
// patterns only (a shadow edge or a glare spot over the third): the third lies where a
// square symbol puts it, beside either of them on either side (the two share a side of the
// symbol) or across their diagonal, each guess read as three found finders would be. Only
// pairs of confirmed centres (seen on two rows or more) of like module size are tried, two
// pairs at most, and a guess whose finder would lie outside the crop is skipped.
func (d *Decoder) decodeQRTwoFinders(g *gray, bits *gozxing.BitMatrix, centres []*detector.FinderPattern, read func(*gozxing.BitMatrix) (Result, bool)) (Result, bool) {
	var sure []*detector.FinderPattern
	for _, c := range centres {
		if c.GetCount() >= 2 {
			sure = append(sure, c)
		}
	}
	pairs := 0
	for i := 0; i < len(sure) && pairs < 2; i++ {
		for j := i + 1; j < len(sure) && pairs < 2; j++ {
			a, b := sure[i], sure[j]
			ma, mb := a.GetEstimatedModuleSize(), b.GetEstimatedModuleSize()
			module := (ma + mb) / 2
			if module < 1 || math.Abs(ma-mb) > 0.25*module {
				continue
			}
			if n := math.Hypot(a.GetX()-b.GetX(), a.GetY()-b.GetY()) / module; n < 14 || n > 240 {
				continue
			}
			pairs++
			for _, third := range qrThirdFinders(a, b) {
				x, y := third.GetX(), third.GetY()
				if m := 3.5 * module; x < m || y < m || x > float64(bits.GetWidth())-m || y > float64(bits.GetHeight())-m {
					continue
				}
				bl, tl, tr := gozxing.ResultPoint_OrderBestPatterns(a, b, third)
				if d.expired() {
					return Result{}, false
				}
				if res, ok := qrReadFinders(g, bits, tl, tr, bl, module, true, read, d.expired); ok {
					return res, true
				}
			}
		}
	}
	return Result{}, false
}

// qrThirdFinders returns where the third finder pattern of a symbol with finders at a and b
// may lie: beside a or beside b, a quarter turn from the other either way, or across the
// diagonal ab either way.
func qrThirdFinders(a, b gozxing.ResultPoint) []gozxing.ResultPoint {
	ax, ay, bx, by := a.GetX(), a.GetY(), b.GetX(), b.GetY()
	dx, dy := bx-ax, by-ay
	mx, my := (ax+bx)/2, (ay+by)/2
	return []gozxing.ResultPoint{
		gozxing.NewResultPoint(ax-dy, ay+dx), gozxing.NewResultPoint(ax+dy, ay-dx),
		gozxing.NewResultPoint(bx-dy, by+dx), gozxing.NewResultPoint(bx+dy, by-dx),
		gozxing.NewResultPoint(mx-dy/2, my+dx/2), gozxing.NewResultPoint(mx+dy/2, my-dx/2),
	}
}

// qrReadGrid reads the dim×dim grid of transform t on g as sampled, then with its columns
// and rows moved where the timing patterns put them (curved paper, a tilt left over).
func qrReadGrid(g *gray, t *common.PerspectiveTransform, dim int, read func(*gozxing.BitMatrix) (Result, bool)) (Result, bool) {
	if res, ok := qrReadLevels(qrLevels(g, t, dim, nil, nil), dim, read); ok {
		return res, true
	}
	if du, dv := qrTimingOffsets(g, t, dim); du != nil {
		return qrReadLevels(qrLevels(g, t, dim, du, dv), dim, read)
	}
	return Result{}, false
}

// qrReadLevels decides the modules of a dim×dim grid of levels against those within two
// modules, then three, and reads each matrix as decided (read), then with soft decisions.
func qrReadLevels(lv []float64, dim int, read func(*gozxing.BitMatrix) (Result, bool)) (Result, bool) {
	for _, r := range []int{2, 3} {
		dark, conf := moduleBits(lv, dim, dim, r)
		if res, ok := read(qrMatrix(dark, dim)); ok {
			return res, true
		}
		if res, ok := qrSoftDecode(dark, conf, dim); ok {
			return res, true
		}
	}
	return Result{}, false
}
