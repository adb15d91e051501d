package barcode

import (
	"math/rand/v2"
	"testing"
)

// TestLocatorLength checks the allocation-free Berlekamp–Massey against the decoder: on a
// QR block with e errors it finds e (e within the code's reach), and a word that
// correctSyndromes corrects within rsSlack always has a short enough locator.
func TestLocatorLength(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n, nsym = 44, 16
	buf := make([]byte, 3*(nsym+2))
	for trial := range 400 {
		cw := qrEncodeBlock(rng, n, nsym)
		e := trial % 12
		for _, p := range rng.Perm(n)[:e] {
			cw[p] ^= byte(1 + rng.IntN(255))
		}
		synd, _ := qrField.syndromes(cw, nsym)
		l := qrField.locatorLength(synd, buf)
		if e <= nsym/2 && l != e {
			t.Fatalf("%d errors: locator length %d", e, l)
		}
		if _, ok := qrField.correctSyndromes(append([]byte(nil), cw...), synd, nil); ok && 2*l > nsym-rsSlack {
			t.Fatalf("%d errors corrected with a locator of %d", e, l)
		}
	}
}

// qrEncodeBlock returns a random codeword of QR's field: n−nsym data codewords and their
// check codewords (the remainder of the data times x^nsym by the generator).
func qrEncodeBlock(rng *rand.Rand, n, nsym int) []byte {
	f := qrField
	gen := []byte{1}
	for j := range nsym {
		next := make([]byte, len(gen)+1)
		root := f.pow(f.fcr + j)
		for i, c := range gen {
			next[i] ^= c
			next[i+1] ^= f.mul(c, root)
		}
		gen = next
	}
	msg := make([]byte, n)
	for i := range n - nsym {
		msg[i] = byte(rng.IntN(256))
	}
	rem := append([]byte(nil), msg...)
	for i := range n - nsym {
		c := rem[i]
		if c == 0 {
			continue
		}
		for j, g := range gen {
			rem[i+j] ^= f.mul(c, g)
		}
	}
	copy(msg[n-nsym:], rem[n-nsym:])
	return msg
}
