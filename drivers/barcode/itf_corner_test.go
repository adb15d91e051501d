//go:build !race

package barcode

import (
	"math/rand/v2"
	"testing"
)

// TestITFCornerFrames draws ITF at issue 34's envelope corner as whole frames (1.5-px
// modules, 25 % contrast, sensor noise, angles spread over 0–180°) and reads them through the
// decoder with the terminal's options: each must read its text. The blur is σ 1.05 here
// because this drawing (drawBarsFrame) blurs nothing else, where the third generator's σ 0.8
// comes on top of ImageMagick's resampling filter; at σ 1.05 the edge readers read none of
// the twelve (the runs of narrow elements lose their inner edges) and the fit
// (itf_profile.go) every one.
func TestITFCornerFrames(t *testing.T) {
	n := 12
	if testing.Short() {
		n = 3
	}
	rng := rand.New(rand.NewPCG(34, 5))
	d := NewDecoder(DefaultOptions())
	read := 0
	for i := range n {
		text := randDigits(rng, 14)
		angle := 180 * (float64(i) + rng.Float64()) / float64(n)
		img := drawBarsFrame(rng, itfElementModules(text, true), 1.5, angle, 1.05, 0.25, 2)
		if r, err := d.Decode(img); err == nil {
			if r.Text != text {
				t.Fatalf("angle %.0f: read %q, want %q", angle, r.Text, text)
			}
			read++
		} else {
			t.Logf("angle %.0f: %v", angle, err)
		}
	}
	if read < n {
		t.Fatalf("%d of %d corner frames read", read, n)
	}
}
