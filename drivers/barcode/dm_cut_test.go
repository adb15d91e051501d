package barcode

import (
	"math/rand/v2"
	"testing"

	"github.com/makiuchi-d/gozxing"
	dmencoder "github.com/makiuchi-d/gozxing/datamatrix/encoder"
)

// withBand returns m with a dark band of n rows added beyond its top timing row, one light
// row away: clutter in the quiet zone, close enough to be grouped with the symbol, so that
// the symbol's outline runs on over it on one side.
func withBand(t *testing.T, m *gozxing.BitMatrix, n int) *gozxing.BitMatrix {
	t.Helper()
	w, h := m.GetWidth(), m.GetHeight()
	out, err := gozxing.NewBitMatrix(w, h+n+1)
	if err != nil {
		t.Fatal(err)
	}
	for y := range n {
		for x := range w {
			out.Set(x, y)
		}
	}
	for y := range h {
		for x := range w {
			if m.Get(x, y) {
				out.Set(x, y+n+1)
			}
		}
	}
	return out
}

// TestDMReadsOutlineLongOnOneSide: a square symbol whose outline runs on 40 % beyond its
// timing side (a dark band in its quiet zone grouped with it) reads at every quarter turn
// and between: with its L at a corner, the outline's longer arm is tried cut to the
// shorter's length (dmFits). Before, no size fitted the long outline and none read.
func TestDMReadsOutlineLongOnOneSide(t *testing.T) {
	rng := rand.New(rand.NewPCG(34, 21))
	d := NewDecoder(Options{Formats: DataMatrix})
	for _, text := range []string{"00N0Y4G2VTPVXVR14D2PF2DBS", "HJES6MKMS9RGQ3GM2KT3V592W"} {
		m := dmMatrix(t, text, dmencoder.SymbolShapeHint_FORCE_SQUARE)
		band := withBand(t, m, m.GetHeight()*2/5-1)
		for _, rot := range []float64{0, 33, 90, 151, 180, 222, 270, 318} {
			sc := dmScene{rot: rot, ink: 40, paper: 210, size: 240, module: 5, noise: 3, blur: 1}
			g := sc.draw(band, rng)
			if r, ok := d.decodeDM(g); !ok || r.Text != text {
				t.Errorf("%q at %v°: read %q, %v", text, rot, r.Text, ok)
			}
		}
	}
}
