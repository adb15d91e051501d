//go:build !race

// The full frame set is too heavy for the race detector (frame synthesis and gozxing run
// 5–10× slower instrumented): it runs in ordinary test builds, the -race run keeps
// TestFramesSmoke.

package barcode

import (
	"slices"
	"testing"
	"time"
)

// TestFrameSet decodes 500 seeded photo-like frames per kind with Decode: each of Code 128,
// ITF and QR must read ≥ 99 %, and at least as often as zbarimg on the same frames.
// DataMatrix is measured beside QR (our locator and gozxing alone) for docs/codes.md.
func TestFrameSet(t *testing.T) {
	if testing.Short() {
		t.Skip("full frame set skipped in -short mode (TestFramesSmoke covers it)")
	}
	n := frameSetSize()
	dir := t.TempDir()
	_, haveZbar := lookTool("zbarimg")
	for _, f := range []Format{Code128, ITF, QRCode} {
		cases, ok, times := genFrames(t, f, n, dir, decodeDefault)
		got := count(ok)
		rate := float64(got) / float64(n)
		slices.Sort(times)
		t.Logf("%-8v ours: %d/%d = %.1f %%, decode median %v, p90 %v", f, got, n, 100*rate,
			times[n/2].Round(10*time.Microsecond), times[n*9/10].Round(10*time.Microsecond))
		for i, c := range cases {
			if !ok[i] {
				t.Logf("  %v frame %d unread: %+v", f, i, c.params)
			}
		}
		if rate < 0.99 {
			t.Errorf("%v: read rate %.1f %% < 99 %%", f, 100*rate)
		}
		if !haveZbar {
			t.Logf("zbarimg not installed (Debian package zbar-tools): comparison skipped")
			continue
		}
		files := make([]string, n)
		for i, c := range cases {
			files[i] = c.path
		}
		zr := zbarScanParallel(t, f, files)
		zgot := 0
		for _, c := range cases {
			if texts := zr[c.path]; len(texts) > 0 && texts[0] == c.text {
				zgot++
			}
		}
		t.Logf("%-8v zbarimg: %d/%d = %.1f %%", f, zgot, n, 100*float64(zgot)/float64(n))
		if got < zgot {
			t.Errorf("%v: we read %d frames, zbarimg %d", f, got, zgot)
		}
	}
	// DataMatrix against QR: the measurement behind the choice of symbology.
	rates := map[string]float64{}
	for _, f := range []Format{QRCode, DataMatrix} {
		_, ok, _ := genFrames(t, f, n, "", withDecoder(Options{Formats: f}))
		_, okPlain, _ := genFrames(t, f, n, "", plainGozxing(f))
		rates[f.String()] = float64(count(ok)) / float64(n)
		t.Logf("%-10v with our locator: %.1f %%; gozxing alone on the frame: %.1f %%", f,
			100*float64(count(ok))/float64(n), 100*float64(count(okPlain))/float64(n))
	}
	if rates["qr"] < rates["datamatrix"] {
		t.Errorf("QR reads less than DataMatrix (%.3f < %.3f): revisit the choice in docs/codes.md", rates["qr"], rates["datamatrix"])
	}
}
