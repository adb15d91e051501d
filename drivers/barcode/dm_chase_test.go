package barcode

import (
	"math/rand/v2"
	"testing"

	dmencoder "github.com/makiuchi-d/gozxing/datamatrix/encoder"
)

// TestDMSoftChase draws a DataMatrix 18×18 symbol (one block of 18 data and 14 check
// codewords) with one bit wrong in each of 9 codewords, more than the 7 errors its check
// codewords correct, the wrong bits unsure among a right but unsure bit of each other codeword
// (as strong sensor noise leaves a fitted symbol): the soft correction alone does not
// correct it, Chase's search (dmSoftDecodeChase) does, within chaseAffords' bound. A symbol of
// random modules reads nothing.
func TestDMSoftChase(t *testing.T) {
	const text = "EWK02AGEY0AY5KWX4YD4VC"
	m, err := dmWriter(text, dmencoder.SymbolShapeHint_FORCE_SQUARE)
	if err != nil || m.GetWidth() != 18 || m.GetHeight() != 18 {
		t.Fatalf("writer: %v (%d×%d)", err, m.GetWidth(), m.GetHeight())
	}
	const n = 18
	l := dmLayoutFor(n, n)
	if a := chaseAffords(32, 14); a < fitChaseTrials/4 || a > fitChaseTrials {
		t.Fatalf("chaseAffords(32, 14) = %d", a)
	}
	rng := rand.New(rand.NewPCG(34, 18))
	dark, conf := make([]bool, n*n), make([]float64, n*n)
	for i := range dark {
		dark[i], conf[i] = m.Get(i%n, i/n), 1
	}
	perm := rng.Perm(len(l.bits))
	for i, k := range perm {
		mod := l.bits[k][rng.IntN(8)]
		if i < 9 {
			dark[mod] = !dark[mod]
			conf[mod] = 0.05 + 0.2*rng.Float64()
		} else {
			conf[mod] = 0.02 + 0.28*rng.Float64()
		}
	}
	never := func() bool { return false }
	d := NewDecoder(Options{Formats: DataMatrix})
	if r, ok := d.dmSoftDecodeChase(dark, conf, n, softSearch{}); ok {
		t.Fatalf("soft correction alone read %q", r.Text)
	}
	if r, ok := d.dmSoftDecodeChase(dark, conf, n, softSearch{trials: fitChaseTrials, stop: never}); !ok || r.Text != text {
		t.Fatalf("Chase's search: read %q, %v; want %q", r.Text, ok, text)
	}
	for range 20 {
		for i := range dark {
			dark[i], conf[i] = rng.IntN(2) == 0, rng.Float64()
		}
		if r, ok := d.dmSoftDecodeChase(dark, conf, n, softSearch{trials: fitChaseTrials, stop: never}); ok {
			t.Fatalf("random modules read %q", r.Text)
		}
	}
}
