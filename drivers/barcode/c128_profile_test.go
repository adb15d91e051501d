//go:build !race

package barcode

import (
	"math/rand/v2"
	"testing"
)

// TestCode128CornerFrames draws pack codes (Code 128, set C, 12 digits) at issue 34's
// envelope corner as whole frames (1.5-px modules, 25 % contrast, sensor noise, angles over
// 0–180°; blur σ 1.05 as TestITFCornerFrames draws it) and reads them through the decoder
// with the terminal's options: each must read its text. Without the fit (Code128Digits
// nil) the edge readers read few of them.
func TestCode128CornerFrames(t *testing.T) {
	n := 12
	if testing.Short() {
		n = 3
	}
	rng := rand.New(rand.NewPCG(34, 6))
	fit := NewDecoder(DefaultOptions())
	noFit := DefaultOptions()
	noFit.Code128Digits = nil
	edges := NewDecoder(noFit)
	read, byEdges := 0, 0
	for i := range n {
		text := randDigits(rng, 12)
		angle := 180 * (float64(i) + rng.Float64()) / float64(n)
		img := drawBarsFrame(rng, c128Widths(text, -1, nil), 1.5, angle, 1.05, 0.25, 2)
		if r, err := fit.Decode(img); err == nil {
			if r.Text != text {
				t.Fatalf("angle %.0f: read %q, want %q", angle, r.Text, text)
			}
			read++
		} else {
			t.Logf("angle %.0f: %v", angle, err)
		}
		if r, err := edges.Decode(img); err == nil && r.Text == text {
			byEdges++
		}
	}
	t.Logf("%d of %d read, %d without the fit", read, n, byEdges)
	if read < n {
		t.Fatalf("%d of %d corner frames read", read, n)
	}
}

// TestCode128FitRefusesNearMisses: at the same corner, pack codes with a wrong check, with
// a data character changed, and 14-digit ITF symbols read nothing as Code 128 through the
// fit (the check character and the margins refuse them).
func TestCode128FitRefusesNearMisses(t *testing.T) {
	n := 8
	if testing.Short() {
		n = 2
	}
	rng := rand.New(rand.NewPCG(34, 7))
	d := NewDecoder(Options{Formats: Code128, Code128Digits: []int{12}})
	for i := range 3 * n {
		text := randDigits(rng, 12)
		var w []int
		switch i % 3 {
		case 0:
			good := c128Widths(text, -1, nil)
			for w == nil {
				if c := c128Widths(text, rng.IntN(103), nil); !equalInts(c, good) {
					w = c
				}
			}
		case 1:
			w = c128WidthsEdited(text, rng.IntN(6), rng.IntN(100))
		default:
			w = itfWidths(randDigits(rng, 14), true)
		}
		angle := 180 * rng.Float64()
		img := drawBarsFrame(rng, w, 1.5, angle, 1.05, 0.25, 2)
		if r, err := d.Decode(img); err == nil {
			t.Errorf("near miss %d (kind %d, angle %.0f) read %s %q", i, i%3, angle, r.Symbology, r.Text)
		}
	}
}
