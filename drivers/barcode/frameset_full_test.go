//go:build !race

// The frame sets are too heavy for the race detector (frame synthesis and gozxing run 5–10×
// slower instrumented): they run in ordinary test builds, the -race run keeps
// TestFramesSmoke.

package barcode

import (
	"testing"
)

// TestFrameSet measures the desk frames (frames_test.go) of the held-out range: 150 per
// symbology in CI, 500 with BARCODE_FULL=1 (FRAMES=n overrides). Per symbology ours must
// read ≥ readFloor and no fewer than gozxing alone or zbarimg. DataMatrix is measured beside
// QR: QR must read about as often, a point less at most (the choice of symbology,
// docs/codes.md).
func TestFrameSet(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("full frame set skipped in -short mode and under -race (TestFramesSmoke covers it)")
	}
	n := 150
	if fullSets() {
		n = 500
	}
	n = frameSetSizeOr(n)
	rates := map[Format]float64{}
	for _, f := range formatsUnderTest() {
		out := measureSet(t, f, indices(frameBase(), n), deskSource(f), true)
		checkSet(t, "desk", f, out)
		var a tally
		for _, o := range out {
			a.add(o)
		}
		rates[f] = float64(a.ours) / float64(a.n)
	}
	// Since our own DataMatrix reader, the two read alike (docs/codes.md): QR, the
	// validation code, may trail DataMatrix by a point at most (one or two frames).
	if rates[QRCode] < rates[DataMatrix]-0.01 {
		t.Errorf("QR reads less than DataMatrix (%.3f < %.3f): revisit the choice in docs/codes.md", rates[QRCode], rates[DataMatrix])
	}
}
