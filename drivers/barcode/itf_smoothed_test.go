package barcode

import (
	"math/rand/v2"
	"testing"
)

// TestSmoothedBandsFitNoITF: a band of the smoothed pass is never read as ITF by fitting
// (edgeRow): blurred ITF profiles that only the fit reads are read on a band of the frame
// itself and refused on a smoothed one. The 3×3 smoothing correlates neighbouring samples'
// noise, so the fit's margins, counted in the residual's variance, overstate how sure each
// pair is: on three smoothed bands of a held-out `mixed` frame (1001537: JPEG, motion,
// uneven light, noise ×6) the fit read a 14-digit text that shares no pair with the code's.
func TestSmoothedBandsFitNoITF(t *testing.T) {
	rng := rand.New(rand.NewPCG(34, 2))
	d := NewDecoder(Options{Formats: ITF, ITFLengths: []int{14}})
	fitted := 0
	for i := range 12 {
		text := randDigits(rng, 14)
		p := itfProfileOf(text, true, []float64{2.5, 2.75, 3}[i%3], 1.5, 0.85, 50, 1.5, rng)
		if w, st := edgeElements(pruneEdges(findEdges(p))); len(w) > 0 {
			if _, ok := itfEdgesQuiet(w, st); ok {
				continue // read by its edges: not the fit's
			}
		}
		d.smoothedBands = false
		if _, ok := d.edgeRow(p); !ok {
			continue
		}
		fitted++
		d.smoothedBands = true
		if row, ok := d.edgeRow(p); ok {
			r, _ := d.decodeBits(row)
			t.Errorf("%s: a smoothed band read %q by fitting", text, r.Text)
		}
	}
	if fitted < 4 {
		t.Fatalf("only %d of 12 profiles read by the fit on a plain band: the test shows nothing", fitted)
	}
}
