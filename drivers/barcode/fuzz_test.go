package barcode

import (
	"errors"
	"image"
	"testing"
)

// FuzzDecode: any pixels either decode (Decode, DecodeAll) to non-empty texts of enabled
// formats with their AIM identifiers, or give ErrNotFound; never a panic (gozxing included).
func FuzzDecode(f *testing.F) {
	img, _ := Render(QRCode, "00N0Y4G2VTPVXVR14D2PF2DBS", RenderOptions{Module: 1, QuietZone: 2})
	f.Add(uint8(img.Rect.Dx()), img.Pix)
	bars, _ := Render(Code128, "004201234560", RenderOptions{Module: 1, Height: 8, QuietZone: 10})
	f.Add(uint8(bars.Rect.Dx()-1), bars.Pix[:bars.Rect.Dx()*8])
	f.Add(uint8(16), make([]byte, 256))
	f.Add(uint8(9), []byte{0, 255, 0, 255, 0, 255, 0, 255, 0, 255, 0})
	f.Fuzz(func(t *testing.T, w uint8, pix []byte) {
		width := int(w)
		// Small images keep executions fast; the frame sets cover full-size ones.
		if width < 1 || len(pix) < width || len(pix) > 1<<13 {
			return
		}
		h := len(pix) / width
		g := &image.Gray{Pix: pix[:width*h], Stride: width, Rect: image.Rect(0, 0, width, h)}
		all, errAll := NewDecoder(Options{Formats: AllFormats}).DecodeAll(g)
		if errAll != nil && !errors.Is(errAll, ErrNotFound) {
			t.Fatalf("DecodeAll error %v is not ErrNotFound", errAll)
		}
		for _, r := range all {
			if r.Text == "" || r.Format == 0 || r.Symbology == "" {
				t.Fatalf("DecodeAll: empty result %+v", r)
			}
		}
		r, err := NewDecoder(Options{Formats: AllFormats}).Decode(g)
		if err != nil {
			if !errors.Is(err, ErrNotFound) {
				t.Fatalf("error %v is not ErrNotFound", err)
			}
			return
		}
		if r.Text == "" || r.Format == 0 || r.Symbology == "" {
			t.Fatalf("empty result %+v", r)
		}
	})
}
