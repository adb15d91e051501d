package barcode

import (
	"bytes"
	"image"
	"image/color"

	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/datamatrix"
	"github.com/makiuchi-d/gozxing/oned"
	"github.com/makiuchi-d/gozxing/qrcode"
)

// decodeFull is the fallback when no located region read: what gozxing alone does on the
// whole frame, so that the decoder does not read fewer frames than gozxing by itself. The
// frame's luminance is gozxing's own (zxLuminance). Its QR and DataMatrix readers run with
// TRY_HARDER, then on the pure-barcode path (an image that is the symbol and its quiet zone,
// such as a render). Its Code 128 and ITF readers run as with TRY_HARDER on the frame and on
// the frame turned by 90° (fullRows), a row's read counting once a row beside it agrees
// (rowConfirmed): where gozxing alone reads a linear code on one row only, the located
// candidates read it (TestFallbackIsGozxingAlone).
//
// One exception bounds the cost: a frame over smallFrame pixels whose adjacent pixels are
// uncorrelated (pure sensor noise: a covered lens, a dark room at high gain) is not read. On
// it gozxing's finder-pattern search turns cubic (hundreds of ms on 640×480) and its row
// readers try a start pattern at every one of hundreds of transitions per row (tens of ms);
// a photographed print, whose modules span pixels, measures 0.6 and more. A smaller image is
// read whatever it holds (a render with 1-pixel modules is as uncorrelated as noise). The
// fallback has no share of the 2D pixel budget: it runs once per frame, after the located
// candidates.
func (d *Decoder) decodeFull(img image.Image, g *gray) (Result, bool) {
	if g.w*g.h > smallFrame && g.neighbourCorr(0, 0, g.w, g.h) < minNeighbourCorr {
		return Result{}, false
	}
	lum := zxLuminance(img, g)
	if d.opt.Formats&TwoD != 0 {
		if r, ok := d.fullMatrix(lum, g.w, g.h); ok {
			return r, true
		}
	}
	if d.opt.Formats&OneD == 0 {
		return Result{}, false
	}
	// A YCbCr frame's Y plane is another luminance than gozxing's, unless its chroma is
	// neutral (a grey frame): then the clockwise-turned frame's rows read nothing new.
	_, ycc := img.(*image.YCbCr)
	return d.fullRows(lum, g, ycc && !bytes.Equal(lum, g.pix))
}

// smallFrame is the size (pixels) up to which the fallback runs even on an uncorrelated
// image: gozxing's readers on 256×256 pixels of noise cost a few ms.
const smallFrame = 256 * 256

// fullMatrix runs gozxing's QR and DataMatrix readers on the w×h luminance lum: TRY_HARDER,
// then PURE_BARCODE.
func (d *Decoder) fullMatrix(lum []byte, w, h int) (Result, bool) {
	src, err := gozxing.NewPlanarYUVLuminanceSource(lum, w, h, 0, 0, w, h, false)
	if err != nil {
		return Result{}, false
	}
	bmp, err := gozxing.NewBinaryBitmap(gozxing.NewHybridBinarizer(src))
	if err != nil {
		return Result{}, false
	}
	var readers []gozxing.Reader
	if d.opt.Formats&QRCode != 0 {
		readers = append(readers, qrcode.NewQRCodeReader())
	}
	if d.opt.Formats&DataMatrix != 0 {
		readers = append(readers, datamatrix.NewDataMatrixReader())
	}
	for _, hint := range []gozxing.DecodeHintType{gozxing.DecodeHintType_TRY_HARDER, gozxing.DecodeHintType_PURE_BARCODE} {
		for _, rd := range readers {
			if !d.affords(w * h) { // TRY_HARDER on a busy 640×480 frame: tens of ms a reader
				return Result{}, false
			}
			if res, err := rd.Decode(bmp, map[gozxing.DecodeHintType]interface{}{hint: true}); err == nil {
				if r, ok := d.result(res, false); ok {
					return r, true
				}
			}
		}
	}
	return Result{}, false
}

// fullRows reads the frame's rows and columns as gozxing's Code 128 and ITF readers do with
// TRY_HARDER (oned.OneDReader.Decode) given the frame and given the frame turned by 90°
// clockwise: the rows of the frame (luminance lum), then of the frame turned counter-
// clockwise (every (w>>8)-th column, from the middle out); the frame turned clockwise has its
// middle one column over, so its rows are the other columns; its own turn back is the frame's
// rows again, read already unless the turned frame's luminance is another: g, the Y plane
// of a YCbCr frame (ycc), which JPEG keeps at full resolution where gozxing's RGB average
// mixes in the subsampled chroma's blocks.
func (d *Decoder) fullRows(lum []byte, g *gray, ycc bool) (Result, bool) {
	hints := map[gozxing.DecodeHintType]interface{}{
		gozxing.DecodeHintType_TRY_HARDER:      true,
		gozxing.DecodeHintType_ALLOWED_LENGTHS: d.itfLengths(),
	}
	turned := g.pix
	if !ycc {
		turned = lum
	}
	type pass struct {
		pix  func() []byte
		w, h int
	}
	passes := []pass{
		{func() []byte { return lum }, g.w, g.h},
		{func() []byte { return turnLuma(lum, g.w, g.h, false) }, g.h, g.w},
		{func() []byte { return turnLuma(turned, g.w, g.h, true) }, g.h, g.w},
	}
	if ycc {
		passes = append(passes, pass{func() []byte { return g.pix }, g.w, g.h})
	}
	for _, p := range passes {
		if d.expired() {
			return Result{}, false
		}
		src, err := gozxing.NewPlanarYUVLuminanceSource(p.pix(), p.w, p.h, 0, 0, p.w, p.h, false)
		if err != nil {
			return Result{}, false
		}
		b, err := gozxing.NewBinaryBitmap(gozxing.NewHybridBinarizer(src))
		if err != nil {
			return Result{}, false
		}
		if r, ok := d.readRows(b, hints); ok {
			return r, true
		}
	}
	return Result{}, false
}

// readRows is what gozxing's Code 128 and ITF readers do with the rows of a bitmap
// (oned.OneDReader.doDecode, TRY_HARDER): every (h>>8)-th row from the middle outwards, each
// read both ways round. Both readers share one pass: each row is binarized once (gozxing's
// GetBlackRow) and handed to both, and a row with fewer bars than the shortest symbol of
// either (minRowBars) is not handed to them, since no read can come of it. Which rows are
// read, how they are binarized and decoded is gozxing's own, so this reads every row either
// reader does.
func (d *Decoder) readRows(b *gozxing.BinaryBitmap, hints map[gozxing.DecodeHintType]interface{}) (Result, bool) {
	var readers []rowDecoder
	if d.opt.Formats&Code128 != 0 {
		readers = append(readers, oned.NewCode128Reader().(rowDecoder))
	}
	if d.opt.Formats&ITF != 0 {
		readers = append(readers, oned.NewITFReader().(rowDecoder))
	}
	w, h := b.GetWidth(), b.GetHeight()
	row := gozxing.NewBitArray(w)
	step := max(1, h>>8)
	for x := range h {
		y := h/2 - step*((x+1)/2)
		if x&1 == 0 {
			y = h/2 + step*((x+1)/2)
		}
		if y < 0 || y >= h {
			break
		}
		if x%budgetRows == budgetRows-1 && d.expired() {
			return Result{}, false
		}
		var err error
		if row, err = b.GetBlackRow(y, row); err != nil || countBars(row, minRowBars) < minRowBars {
			continue
		}
		for rev := range 2 {
			if rev == 1 {
				row.Reverse()
			}
			for _, rd := range readers {
				if res, err := rd.DecodeRow(y, row, hints); err == nil && (res.GetBarcodeFormat() != gozxing.BarcodeFormat_ITF || itfGuardsNarrow(row, res)) {
					if r, ok := d.result(res, false); ok && rowConfirmed(b, rd, y, rev == 1, r.Text, hints) {
						return r, true
					}
				}
			}
		}
	}
	return Result{}, false
}

// rowConfirmed reports whether a row rowConfirmRows above or below row y reads the same
// text as y did. ITF has no check character and a start pattern of four narrow elements,
// which data holds too: a row that crosses a tilted symbol from one long side to the other
// (entering and leaving through the paper above and below the bars, which looks like quiet
// zones) reads a run of its pairs as a shorter symbol: a 16-digit code as its first 14
// digits (TestNearMissCodesReadNothing). Rows a few pixels apart cross those sides far
// apart along the symbol (by the offset over the tilt's tangent), so they read other digits
// or nothing, where a row across the whole symbol has a neighbour that reads it whole.
// Code 128's modulo-103 check lets one misread row in 103 through: under strong noise,
// JPEG and motion a single thresholded row misread four of a pack code's six characters and
// passed it (TestLinearNoWrongReadUnderNoise); the neighbouring rows' noise is another. One
// neighbour is enough: gozxing alone reads some upright codes on a row at the edge of the
// rows that read (TestFallbackIsGozxingAlone).
func rowConfirmed(b *gozxing.BinaryBitmap, rd rowDecoder, y int, reversed bool, text string, hints map[gozxing.DecodeHintType]interface{}) bool {
	h := b.GetHeight()
	for _, dy := range []int{-rowConfirmRows, rowConfirmRows} {
		yy := y + dy
		if yy < 0 || yy >= h {
			continue
		}
		row, err := b.GetBlackRow(yy, nil)
		if err != nil {
			continue
		}
		if reversed {
			row.Reverse()
		}
		if res, err := rd.DecodeRow(yy, row, hints); err == nil && res.GetText() == text {
			return true
		}
	}
	return false
}

// budgetRows is how many rows readRows reads between two looks at the time budget (a row
// costs a few µs to tens of µs).
const budgetRows = 32

// rowConfirmRows is how far above or below a fallback row's read its confirming row lies.
const rowConfirmRows = 4

// minRowBars is the fewest bars a row holding a Code 128 or ITF symbol has (Code 128: start,
// one character, check character and stop; ITF of 6 digits has 19).
const minRowBars = 13

// countBars counts the runs of set bits of row, up to limit.
func countBars(row *gozxing.BitArray, limit int) int {
	size := row.GetSize()
	n := 0
	for i := row.GetNextSet(0); i < size && n < limit; i = row.GetNextSet(row.GetNextUnset(i)) {
		n++
	}
	return n
}

// turnLuma returns the w×h luminance pix turned by 90°, clockwise or counter-clockwise (as
// gozxing turns a source): an h×w image.
func turnLuma(pix []byte, w, h int, clockwise bool) []byte {
	out := make([]byte, w*h)
	for y := range h {
		row := pix[y*w : (y+1)*w]
		for x, v := range row {
			if clockwise {
				out[x*h+h-1-y] = v
			} else {
				out[(w-1-x)*h+y] = v
			}
		}
	}
	return out
}

// zxLuminance returns the frame's luminance exactly as gozxing computes it from an image
// (gozxing.NewLuminanceSourceFromImage: (R + 2G + B)/4 of the colour, alpha over white):
// the fallback must see what gozxing alone sees. That is g itself for grey and opaque RGBA
// frames; a camera's YCbCr frame is converted to RGB first, as image.YCbCr.At does.
func zxLuminance(img image.Image, g *gray) []byte {
	switch m := img.(type) {
	case *image.Gray:
		return g.pix
	case *image.RGBA:
		if m.Opaque() {
			return g.pix
		}
	case *image.YCbCr:
		b := m.Bounds()
		out := make([]byte, g.w*g.h)
		for y := range g.h {
			for x := range g.w {
				yi := m.YOffset(b.Min.X+x, b.Min.Y+y)
				ci := m.COffset(b.Min.X+x, b.Min.Y+y)
				r, gg, bb, _ := color.YCbCr{Y: m.Y[yi], Cb: m.Cb[ci], Cr: m.Cr[ci]}.RGBA()
				out[y*g.w+x] = byte((r + 2*gg + bb) * 255 / (4 * 0xffff))
			}
		}
		return out
	}
	return gozxing.NewLuminanceSourceFromImage(img).GetMatrix()
}
