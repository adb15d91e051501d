package barcode

import (
	"image"
	"testing"
)

// BenchmarkDecodeLargeFrame decodes large frames (frames_large_test.go, tuning range: six
// per symbology of Code 128, ITF and QR, 1600×1200 and 3000×2250 JPEG phone photos), every
// format enabled, as a phone photo reaches the decoder (*image.YCbCr); it reports the
// median, 99th percentile and worst time per frame and the share read.
func BenchmarkDecodeLargeFrame(b *testing.B) {
	needZint(b)
	var imgs []image.Image
	var texts []string
	for _, f := range []Format{Code128, ITF, QRCode} {
		for i := range 6 {
			cf, text, err := largeFrameAt(f, i)
			if err != nil {
				b.Fatal(err)
			}
			imgs = append(imgs, cf.img)
			texts = append(texts, text)
		}
	}
	d := NewDecoder(Options{Formats: AllFormats, ITFLengths: []int{14}})
	benchDecode(b, imgs, texts, d.Decode)
}
