//go:build !race

package barcode

import (
	"image"
	"testing"
)

// TestFallbackIsGozxingAlone: on desk frames (and camera frames, where zint is installed)
// the fallback alone (decodeFull) reads every frame that gozxing alone reads (its own reader
// for the symbology on the whole frame, TRY_HARDER, 1D also on the frame turned by 90°),
// with the same text; so Decode never reads fewer frames than gozxing alone. The linear
// codes are the exception: the fallback takes a Code 128 or ITF row only when a neighbour row
// reads it too (a single row across a tilted longer ITF reads a run of its pairs, a single
// noisy Code 128 row can pass its check misread: rowConfirmed), so there the frames gozxing
// alone reads must be read by Decode as a whole (its located candidates).
func TestFallbackIsGozxingAlone(t *testing.T) {
	if testing.Short() {
		t.Skip("frames skipped in -short mode")
	}
	type frame struct {
		img  image.Image
		text string
	}
	frames := map[Format][]frame{}
	n := 12
	for _, f := range []Format{Code128, ITF, QRCode, DataMatrix} {
		for i := range n {
			img, text, _ := deskFrameAt(f, heldOutBase+i)
			frames[f] = append(frames[f], frame{img, text})
		}
	}
	if _, ok := lookTool("zint"); ok {
		for _, f := range []Format{Code128, ITF, QRCode} {
			for i := range n {
				cf, text, err := camFrameAt(f, heldOutBase+i)
				if err != nil {
					t.Fatal(err)
				}
				frames[f] = append(frames[f], frame{cf.img, text})
			}
		}
	}
	d := NewDecoder(Options{Formats: AllFormats, ITFLengths: []int{14}})
	for f, fs := range frames {
		zx, full := 0, 0
		for i, fr := range fs {
			alone := gozxingAlone(f, fr.img, fr.text)
			g := toGray(fr.img)
			// The fallback's one exception, pure noise, is no frame of the sets.
			if c := g.neighbourCorr(0, 0, g.w, g.h); c < minNeighbourCorr {
				t.Errorf("%v frame %d: adjacent-pixel correlation %.2f, taken for noise", f, i, c)
			}
			r, ok := d.decodeFull(fr.img, &g)
			zx += b2i(alone)
			full += b2i(ok && r.Text == fr.text)
			if ok && r.Text != fr.text {
				t.Errorf("%v frame %d: fallback read %q, want %q", f, i, r.Text, fr.text)
			}
			if alone && !(ok && r.Text == fr.text) {
				if f != ITF && f != Code128 {
					t.Errorf("%v frame %d: gozxing alone reads it, the fallback does not", f, i)
				} else if res, err := d.Decode(fr.img); err != nil || res.Text != fr.text {
					t.Errorf("%v frame %d: gozxing alone reads it, neither the fallback (unconfirmed row) nor Decode does", f, i)
				}
			}
		}
		t.Logf("%v: gozxing alone %d, fallback %d of %d frames", f, zx, full, len(fs))
		if zx == 0 && f != DataMatrix {
			t.Errorf("%v: gozxing alone read none of %d frames: the comparison is vacuous", f, len(fs))
		}
	}
}
