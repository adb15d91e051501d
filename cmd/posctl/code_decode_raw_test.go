package main

import (
	"errors"
	"image"
	"image/draw"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/packterm/pos/drivers/barcode"
)

// TestCodeDecodeRaw: --raw prints every symbol in the image, whatever it holds (here texts
// that are none of the terminal's codes, and an ITF of 8 digits the default decoder refuses),
// one "FORMAT AIM TEXT" line each; without --raw the same image is refused as before.
func TestCodeDecodeRaw(t *testing.T) {
	dir := t.TempDir()
	syms := []struct {
		f    barcode.Format
		text string
	}{
		{barcode.Code128, "HELLO-42"},
		{barcode.ITF, "12345670"},
		{barcode.QRCode, "https://example.org/x?y=1"},
		{barcode.DataMatrix, "camera test"},
	}
	// One image holding all four, one under the other on white (side by side on one axis,
	// two linear codes would read as one candidate).
	var imgs []*image.Gray
	w, h := 0, 0
	for _, s := range syms {
		img, err := barcode.Render(s.f, s.text, barcode.RenderOptions{Module: 3})
		if err != nil {
			t.Fatal(err)
		}
		imgs = append(imgs, img)
		h += img.Rect.Dy() + 20
		w = max(w, img.Rect.Dx())
	}
	all := image.NewGray(image.Rect(0, 0, w, h))
	draw.Draw(all, all.Rect, image.White, image.Point{}, draw.Src)
	y := 0
	for _, img := range imgs {
		draw.Draw(all, img.Rect.Add(image.Pt(0, y)), img, image.Point{}, draw.Src)
		y += img.Rect.Dy() + 20
	}
	file := filepath.Join(dir, "all.png")
	writePNGFile(t, file, all)
	out, err := run(t, "code", "decode", "--raw", file)
	if err != nil {
		t.Fatalf("--raw: %v\n%s", err, out)
	}
	for _, s := range syms {
		line := s.f.String() + " " + s.f.Symbology() + " " + s.text + "\n"
		if !strings.Contains(out, line) {
			t.Errorf("--raw output lacks %q:\n%s", line, out)
		}
	}
	if n := strings.Count(out, "\n"); n != len(syms) {
		t.Errorf("--raw printed %d lines, want %d:\n%s", n, len(syms), out)
	}
	// Without --raw: one symbol holding none of our codes is an error, as before.
	single := filepath.Join(dir, "one.png")
	writePNGFile(t, single, imgs[0])
	if _, err := run(t, "code", "decode", single); err == nil || !strings.Contains(err.Error(), "holds no terminal code") {
		t.Errorf("without --raw: %v", err)
	}
	if out, err := run(t, "code", "decode", "--raw", single); err != nil || out != "code128 ]C0 HELLO-42\n" {
		t.Errorf("--raw single: %q %v", out, err)
	}
	// Nothing in the image: exit status 1.
	blank := filepath.Join(dir, "blank.png")
	writePNGFile(t, blank, image.NewGray(image.Rect(0, 0, 64, 64)))
	_, err = run(t, "code", "decode", "--raw", blank)
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != 1 || !strings.Contains(err.Error(), "no code found") {
		t.Errorf("--raw blank: %v", err)
	}
}

func writePNGFile(t *testing.T, path string, img image.Image) {
	t.Helper()
	fh, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	if err := png.Encode(fh, img); err != nil {
		t.Fatal(err)
	}
}
