package printer

import (
	"fmt"

	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/qrcode"

	"github.com/packterm/pos/drivers/printer/escpos"
)

// qrQuietZone is the quiet zone around a raster QR code, in modules (ISO/IEC 18004: 4).
const qrQuietZone = 4

// rasterQR draws a QR code with gozxing's writer and sends it as a GS v 0 raster image,
// centred, for printers without GS ( k. The module size shrinks if the code would not fit
// the print area (maxDots wide), down to 2 dots (0.25 mm at 203 dpi: a 1-dot module is beyond
// what retail scanners read).
func rasterQR(w *escpos.Builder, data string, module int, ecc byte, maxDots int) error {
	hints := map[gozxing.EncodeHintType]any{
		gozxing.EncodeHintType_ERROR_CORRECTION: string(ecc),
		gozxing.EncodeHintType_MARGIN:           qrQuietZone,
		gozxing.EncodeHintType_CHARACTER_SET:    "UTF-8",
	}
	// Width 0: one pixel per module, quiet zone included.
	bm, err := qrcode.NewQRCodeWriter().Encode(data, gozxing.BarcodeFormat_QR_CODE, 0, 0, hints)
	if err != nil {
		return fmt.Errorf("QR code: %w", err)
	}
	n := bm.GetWidth()
	for module > 2 && n*module > maxDots {
		module--
	}
	if n*module > maxDots {
		return fmt.Errorf("QR code of %d modules wider than %d dots", n, maxDots)
	}
	side := n * module
	wb := (side + 7) / 8
	img := make([]byte, wb*side)
	for y := 0; y < side; y++ {
		row := img[y*wb : (y+1)*wb]
		for x := 0; x < side; x++ {
			if bm.Get(x/module, y/module) {
				row[x/8] |= 0x80 >> (x % 8)
			}
		}
	}
	w.Align(escpos.AlignCenter).Raster(wb, side, img).Align(escpos.AlignLeft)
	return nil
}
