package barcode

import (
	"image"
	"testing"
)

// TestFallbackReadsStrips: symbols our locator cannot see (images under two 16-pixel cells
// high: no cell statistics at all) are read by the full-frame fallback alone, which must
// read them as gozxing does with TRY_HARDER: a strip of bars 20 pixels high, upright or
// turned by 90° (gozxing then reads the columns), a QR code of 1-pixel modules (whose
// adjacent pixels are as uncorrelated as noise).
func TestFallbackReadsStrips(t *testing.T) {
	d := NewDecoder(Options{Formats: AllFormats})
	for _, s := range samples[:3] {
		img, err := Render(s.f, s.text, RenderOptions{Module: 1, QuietZone: 10})
		if s.f == QRCode {
			img, err = Render(s.f, s.text, RenderOptions{Module: 1, QuietZone: 1})
		} else if err == nil {
			img = img.SubImage(image.Rect(0, 0, img.Rect.Dx(), 20)).(*image.Gray)
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, turned := range []bool{false, true} {
			im := image.Image(img)
			if turned {
				im = rotate90(img)
			}
			r, err := d.Decode(im)
			if err != nil || r.Text != s.text || r.Format != s.f {
				t.Errorf("%v (%dx%d, turned %v): got %+v, %v", s.f, im.Bounds().Dx(), im.Bounds().Dy(), turned, r, err)
				continue
			}
			if r.Located {
				t.Errorf("%v: read by the locator on a %v image: the test no longer exercises the fallback", s.f, im.Bounds().Size())
			}
		}
	}
}
