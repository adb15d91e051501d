package barcode

import (
	"errors"
	"fmt"
	"image"
	"image/png"
	"io"

	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/datamatrix"
	dmencoder "github.com/makiuchi-d/gozxing/datamatrix/encoder"
	"github.com/makiuchi-d/gozxing/oned"
	"github.com/makiuchi-d/gozxing/qrcode"
	qrdecoder "github.com/makiuchi-d/gozxing/qrcode/decoder"
)

// RenderOptions sizes a rendered code. Zero fields take the defaults below.
type RenderOptions struct {
	// Module is the width of the narrowest bar or of one matrix module, in pixels.
	// Default 4 for linear codes (0.34 mm at 300 dpi: read by a hand scanner at arm's
	// length; ITF's wide bars are 3 modules), 8 for matrix codes (0.68 mm at 300 dpi).
	Module int
	// QuietZone is the blank margin on every side, in modules. Default 10 for linear codes
	// (ISO/IEC 15417 and 16390 ask ≥ 10X), 4 for QR (ISO/IEC 18004) and 4 for DataMatrix
	// (the standard asks ≥ 1; gozxing's writer adds none and dmtxread needs one).
	QuietZone int
	// Height is the bar height of linear codes, in pixels. Default: 20 % of the symbol's
	// length or 60 modules, whichever is larger.
	Height int
}

// ErrRender wraps every rendering failure.
var ErrRender = errors.New("barcode: render")

// Render draws text as format (exactly one of Code128, ITF, QRCode, DataMatrix) on a white
// grey image, black on white, with the quiet zone included.
func Render(format Format, text string, opt RenderOptions) (*image.Gray, error) {
	if text == "" {
		return nil, fmt.Errorf("%w: empty text", ErrRender)
	}
	var (
		m   *gozxing.BitMatrix
		err error
	)
	linear := format&OneD != 0
	def := RenderOptions{Module: 8, QuietZone: 4}
	if linear {
		def = RenderOptions{Module: 4, QuietZone: 10}
	}
	if opt.Module <= 0 {
		opt.Module = def.Module
	}
	if opt.QuietZone <= 0 {
		opt.QuietZone = def.QuietZone
	}
	if opt.Module > 64 || opt.QuietZone > 64 {
		return nil, fmt.Errorf("%w: module %d px or quiet zone %d modules too large", ErrRender, opt.Module, opt.QuietZone)
	}
	noMargin := map[gozxing.EncodeHintType]interface{}{gozxing.EncodeHintType_MARGIN: 0}
	switch format {
	case Code128:
		m, err = oned.NewCode128Writer().Encode(text, gozxing.BarcodeFormat_CODE_128, 0, 0, noMargin)
	case ITF:
		for _, c := range text {
			if c < '0' || c > '9' {
				return nil, fmt.Errorf("%w: ITF encodes digits only, got %q", ErrRender, c)
			}
		}
		if len(text)%2 != 0 {
			return nil, fmt.Errorf("%w: ITF needs an even number of digits, got %d", ErrRender, len(text))
		}
		m, err = oned.NewITFWriter().Encode(text, gozxing.BarcodeFormat_ITF, 0, 0, noMargin)
	case QRCode:
		hints := map[gozxing.EncodeHintType]interface{}{
			gozxing.EncodeHintType_MARGIN:           0,
			gozxing.EncodeHintType_ERROR_CORRECTION: qrdecoder.ErrorCorrectionLevel_M,
		}
		m, err = qrcode.NewQRCodeWriter().Encode(text, gozxing.BarcodeFormat_QR_CODE, 0, 0, hints)
	case DataMatrix:
		hints := map[gozxing.EncodeHintType]interface{}{
			gozxing.EncodeHintType_DATA_MATRIX_SHAPE: dmencoder.SymbolShapeHint_FORCE_SQUARE,
		}
		m, err = datamatrix.NewDataMatrixWriter().Encode(text, gozxing.BarcodeFormat_DATA_MATRIX, 0, 0, hints)
	default:
		return nil, fmt.Errorf("%w: format %v is not a single symbology", ErrRender, format)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %v %q: %v", ErrRender, format, text, err)
	}
	return paint(m, linear, opt), nil
}

// paint scales the one-pixel-per-module matrix m into a grey image with a quiet zone.
func paint(m *gozxing.BitMatrix, linear bool, opt RenderOptions) *image.Gray {
	mw, mh := m.GetWidth(), m.GetHeight()
	q := opt.QuietZone * opt.Module
	w := mw*opt.Module + 2*q
	var h int
	if linear {
		h = opt.Height
		if h <= 0 {
			h = max(w/5, 60*opt.Module)
		}
		h += 2 * q
	} else {
		h = mh*opt.Module + 2*q
	}
	img := image.NewGray(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = 0xFF
	}
	for y := q; y < h-q; y++ {
		my := 0
		if !linear {
			my = (y - q) / opt.Module
		}
		row := img.Pix[y*img.Stride:]
		for x := q; x < w-q; x++ {
			if m.Get((x-q)/opt.Module, my) {
				row[x] = 0
			}
		}
	}
	return img
}

// WritePNG encodes img as PNG.
func WritePNG(w io.Writer, img image.Image) error {
	if err := png.Encode(w, img); err != nil {
		return fmt.Errorf("barcode: write png: %w", err)
	}
	return nil
}
