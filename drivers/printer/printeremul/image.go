package printeremul

import (
	"image"
	"image/color"

	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/qrcode"
)

// maxQRImage bounds the raster images searched for a QR code (a receipt QR is a few hundred
// dots; larger images are logos).
const maxQRImage = 600

// readQR decodes a QR code drawn in a raster image ("QR" and its text), or returns "", "".
func readQR(img *image.Gray) (symbology, text string) {
	b := img.Rect
	if b.Dx() < 21 || b.Dy() < 21 || b.Dx() > maxQRImage || b.Dy() > maxQRImage {
		return "", ""
	}
	bmp, err := gozxing.NewBinaryBitmapFromImage(img)
	if err != nil {
		return "", ""
	}
	res, err := qrcode.NewQRCodeReader().Decode(bmp, map[gozxing.DecodeHintType]any{gozxing.DecodeHintType_PURE_BARCODE: true})
	if err != nil {
		return "", ""
	}
	return "QR", res.GetText()
}

func fill(img *image.Gray) {
	for i := range img.Pix {
		img.Pix[i] = 0xFF
	}
}

// rasterImage decodes row-major raster data, MSB left, 1 = black.
func rasterImage(data []byte, widthBytes, height int) *image.Gray {
	img := image.NewGray(image.Rect(0, 0, widthBytes*8, height))
	fill(img)
	for y := 0; y < height; y++ {
		for xb := 0; xb < widthBytes; xb++ {
			i := y*widthBytes + xb
			if i >= len(data) {
				return img
			}
			for bit := 0; bit < 8; bit++ {
				if data[i]&(0x80>>bit) != 0 {
					img.SetGray(xb*8+bit, y, color.Gray{})
				}
			}
		}
	}
	return img
}

// scale enlarges img by integer factors (nearest neighbour).
func scale(img *image.Gray, sx, sy int) *image.Gray {
	if sx == 1 && sy == 1 {
		return img
	}
	b := img.Rect
	out := image.NewGray(image.Rect(0, 0, b.Dx()*sx, b.Dy()*sy))
	for y := 0; y < out.Rect.Dy(); y++ {
		for x := 0; x < out.Rect.Dx(); x++ {
			out.Pix[y*out.Stride+x] = img.Pix[(y/sy)*img.Stride+x/sx]
		}
	}
	return out
}

// stack puts b under a (same width).
func stack(a, b *image.Gray) *image.Gray {
	out := image.NewGray(image.Rect(0, 0, a.Rect.Dx(), a.Rect.Dy()+b.Rect.Dy()))
	copy(out.Pix, a.Pix)
	copy(out.Pix[len(a.Pix):], b.Pix)
	return out
}
