package barcode

import (
	"github.com/makiuchi-d/gozxing"
)

// readCandidateRows reads linear candidate r as gozxing reads a frame's rows (readRows:
// from the middle out, both ways round, each read confirmed by a row rowConfirmRows away,
// ITF's guards), on the candidate rectified: a crop at the frame's own scale, its rows
// along the bars' normal over the bands' length, its columns along the bars over their
// height. A band averages lines along the bars, which blur and a slight convergence of the
// bars (perspective) spread; a single row thresholded by gozxing's sharpened row
// binarizer keeps a narrow element of 1 px that the average loses. It is the fallback's
// reading (fallback.go) on the candidate alone: a few ms where the whole frame's rows
// (three ways turned) cost hundreds.
func (d *Decoder) readCandidateRows(g *gray, r region) (Result, bool) {
	if d.expired() {
		return Result{}, false
	}
	a, ux, uy, vx, vy := alignBars(g, r)
	half := a.halfU + linearMargin(a)
	w, h := int(2*half), int(2*a.halfV)
	if w < 32 || h < 2*rowConfirmRows+1 || w > 4000 {
		return Result{}, false
	}
	crop := g.resample(a.cx-half*ux-a.halfV*vx, a.cy-half*uy-a.halfV*vy, ux, uy, vx, vy, w, h)
	src, err := gozxing.NewPlanarYUVLuminanceSource(crop.pix, w, h, 0, 0, w, h, false)
	if err != nil {
		return Result{}, false
	}
	b, err := gozxing.NewBinaryBitmap(gozxing.NewGlobalHistgramBinarizer(src))
	if err != nil {
		return Result{}, false
	}
	hints := map[gozxing.DecodeHintType]interface{}{
		gozxing.DecodeHintType_TRY_HARDER:      true,
		gozxing.DecodeHintType_ALLOWED_LENGTHS: d.itfLengths(),
	}
	res, ok := d.readRows(b, hints)
	res.Located = ok
	return res, ok
}
