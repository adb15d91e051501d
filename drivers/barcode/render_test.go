package barcode

import (
	"bytes"
	"errors"
	"image"
	"image/png"
	"testing"
)

var samples = []struct {
	f    Format
	text string
}{
	{Code128, "004201234560"},
	{ITF, "30042012345631"},
	{QRCode, "00N0Y4G2VTPVXVR14D2PF2DBS"},
	{DataMatrix, "00N0Y4G2VTPVXVR14D2PF2DBS"},
}

// TestRenderDecode renders every format and reads it back with the decoder, including after
// a PNG round trip, and checks the AIM identifier.
func TestRenderDecode(t *testing.T) {
	d := NewDecoder(Options{Formats: AllFormats})
	for _, s := range samples {
		img, err := Render(s.f, s.text, RenderOptions{})
		if err != nil {
			t.Fatalf("%v: %v", s.f, err)
		}
		var buf bytes.Buffer
		if err := WritePNG(&buf, img); err != nil {
			t.Fatal(err)
		}
		back, err := png.Decode(&buf)
		if err != nil {
			t.Fatal(err)
		}
		for _, im := range []image.Image{img, back} {
			r, err := d.Decode(im)
			if err != nil || r.Text != s.text || r.Format != s.f || r.Symbology != s.f.Symbology() {
				t.Errorf("%v: decoded %+v, %v", s.f, r, err)
			}
		}
	}
}

// TestRenderQuietZone checks that every side has the quiet zone the standard asks for, all
// white, and that the symbol touches it (no extra margin hides a missing one).
func TestRenderQuietZone(t *testing.T) {
	for _, s := range samples {
		img, err := Render(s.f, s.text, RenderOptions{})
		if err != nil {
			t.Fatal(err)
		}
		q := 10 * 4
		if s.f&TwoD != 0 {
			q = 4 * 8
		}
		b := img.Bounds()
		dark := func(x0, y0, x1, y1 int) bool {
			for y := y0; y < y1; y++ {
				for x := x0; x < x1; x++ {
					if img.GrayAt(x, y).Y < 128 {
						return true
					}
				}
			}
			return false
		}
		if dark(0, 0, q, b.Dy()) || dark(b.Dx()-q, 0, b.Dx(), b.Dy()) || dark(0, 0, b.Dx(), q) || dark(0, b.Dy()-q, b.Dx(), b.Dy()) {
			t.Errorf("%v: ink inside the %d px quiet zone", s.f, q)
		}
		if !dark(q, 0, q+1, b.Dy()) || !dark(0, q, b.Dx(), q+1) {
			t.Errorf("%v: symbol does not start right after the quiet zone", s.f)
		}
		if s.f&OneD != 0 && b.Dy()-2*q < 60*4 {
			t.Errorf("%v: bars %d px tall, want ≥ 60 modules", s.f, b.Dy()-2*q)
		}
	}
}

func TestRenderErrors(t *testing.T) {
	cases := []struct {
		f    Format
		text string
	}{
		{ITF, "123"},
		{ITF, "12A4"},
		{Code128, ""},
		{Code128 | QRCode, "12"},
		{Format(0), "12"},
		{QRCode, string(make([]byte, 8000))},
	}
	for _, c := range cases {
		if img, err := Render(c.f, c.text, RenderOptions{}); !errors.Is(err, ErrRender) || img != nil {
			t.Errorf("Render(%v, %q): %v", c.f, c.text, err)
		}
	}
	if _, err := Render(QRCode, "x", RenderOptions{Module: 100}); !errors.Is(err, ErrRender) {
		t.Errorf("huge module: %v", err)
	}
}

func TestDecodeNothing(t *testing.T) {
	blank := image.NewGray(image.Rect(0, 0, 640, 480))
	for i := range blank.Pix {
		blank.Pix[i] = byte(i * 7 % 13 * 10)
	}
	if _, err := Decode(blank); !errors.Is(err, ErrNotFound) {
		t.Errorf("noise: %v", err)
	}
	if _, err := Decode(image.NewGray(image.Rect(0, 0, 4, 4))); !errors.Is(err, ErrNotFound) {
		t.Errorf("tiny: %v", err)
	}
}

// TestDecodeImageTypes feeds the same frame as the image types cameras and files produce.
func TestDecodeImageTypes(t *testing.T) {
	img, err := Render(QRCode, samples[2].text, RenderOptions{Module: 4})
	if err != nil {
		t.Fatal(err)
	}
	b := img.Bounds()
	rgba := image.NewRGBA(b)
	nrgba := image.NewNRGBA(b)
	ycc := image.NewYCbCr(b, image.YCbCrSubsampleRatio420)
	pal := image.NewPaletted(b, greyPalette())
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := img.GrayAt(x, y)
			rgba.Set(x, y, c)
			nrgba.Set(x, y, c)
			ycc.Y[ycc.YOffset(x, y)] = c.Y
			pal.Set(x, y, c)
		}
	}
	for i := range ycc.Cb {
		ycc.Cb[i], ycc.Cr[i] = 128, 128
	}
	sub := rgba.SubImage(image.Rect(3, 2, b.Dx(), b.Dy())) // non-zero origin
	for _, im := range []image.Image{rgba, nrgba, ycc, pal, sub} {
		r, err := Decode(im)
		if err != nil || r.Text != samples[2].text {
			t.Errorf("%T: %+v %v", im, r, err)
		}
	}
}

func TestFormatNames(t *testing.T) {
	for _, n := range []string{"code128", "itf", "qr", "datamatrix"} {
		f, ok := ParseFormat(n)
		if !ok || f.String() != n {
			t.Errorf("%s: %v %v", n, f, ok)
		}
	}
	if _, ok := ParseFormat("pdf417"); ok {
		t.Error("pdf417 accepted")
	}
	if s := (Code128 | QRCode).String(); s != "code128+qr" {
		t.Errorf("set: %s", s)
	}
	if !AllFormats.Has(ITF) || OneD.Has(QRCode) {
		t.Error("Has")
	}
}
