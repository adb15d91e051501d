package barcode

import (
	"image"
	"image/color"
	_ "image/jpeg" // real photographs and the generators' JPEG frames
	_ "image/png"
	"math/rand/v2"
	"os"
	"testing"
)

func grayFromPix(pix []byte, w, h int) *image.Gray {
	return &image.Gray{Pix: pix, Stride: w, Rect: image.Rect(0, 0, w, h)}
}

// greyPalette is a 256-level grey palette.
func greyPalette() color.Palette {
	p := make(color.Palette, 256)
	for i := range p {
		p[i] = color.Gray{Y: uint8(i)}
	}
	return p
}

// loadImage decodes a PNG or JPEG file.
func loadImage(t testing.TB, path string) image.Image {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	img, _, err := image.Decode(fh)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return img
}

// randDigits returns n random decimal digits.
func randDigits(rng *rand.Rand, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte('0' + rng.IntN(10))
	}
	return string(b)
}
