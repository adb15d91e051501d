package web

import (
	"bytes"
	"encoding/json"
	"image"
	"image/png"
	"strings"
	"testing"

	"github.com/packterm/pos/drivers/scanner"
)

// FuzzDecodeImage: an upload decodes to an image within the bounds, or is refused with
// an error; never a panic or a huge allocation.
func FuzzDecodeImage(f *testing.F) {
	var b bytes.Buffer
	_ = png.Encode(&b, image.NewGray(image.Rect(0, 0, 4, 3)))
	f.Add(b.Bytes())
	f.Add([]byte("GIF89a\x01\x00\x01\x00"))
	f.Add([]byte{0xff, 0xd8, 0xff})
	f.Fuzz(func(t *testing.T, data []byte) {
		img, err := decodeImage(data)
		if err == nil {
			bd := img.Bounds()
			if bd.Dx()*bd.Dy() > scanner.MaxPhotoPixels {
				t.Fatalf("%v accepted", bd)
			}
		}
	})
}

// FuzzInputRequest: the controls' JSON decodes or is refused, and only known actions map.
func FuzzInputRequest(f *testing.F) {
	f.Add(`{"action":"ok"}`)
	f.Add(`{"action":"scan","code":"000700000002"}`)
	f.Add(`{"action":"unlock","code":"x"}`)
	f.Fuzz(func(t *testing.T, body string) {
		var req inputRequest
		if err := json.NewDecoder(strings.NewReader(body)).Decode(&req); err != nil {
			return
		}
		if a, ok := actions[req.Action]; ok && a == 0 {
			t.Fatal("zero action")
		}
	})
}

// FuzzReadable: the panel's text is rewritten without losing what is outside braces.
func FuzzReadable(f *testing.F) {
	f.Add("PAY{É} 5,00 {€}")
	f.Add("{cg3}{")
	f.Add("}{}{{x}}")
	f.Fuzz(func(t *testing.T, s string) {
		out := readable([]string{s})
		if len(out) != 1 || len(out[0]) > len(s) {
			t.Fatalf("%q -> %q", s, out)
		}
	})
}
