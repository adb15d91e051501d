package barcode

import (
	"math/rand/v2"
	"testing"

	"github.com/makiuchi-d/gozxing/common/reedsolomon"
)

// TestSoftCorrectFlips: a block with 11 wrong codewords, 6 of them wrong in one bit read
// from an unsure module (with 2 right codewords as unsure) and 5 wrong for sure, is beyond
// erasures (erasing the 8 unsure leaves 5 errors: 18 > 16 − 2) but corrected by flipping the
// unsure bits (5 errors left: 10 ≤ 14); with nothing marked unsure it is refused.
func TestSoftCorrectFlips(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 7))
	for _, c := range []struct {
		f  *rsField
		gf *reedsolomon.GenericGF
	}{{qrField, reedsolomon.GenericGF_QR_CODE_FIELD_256}, {dmField, reedsolomon.GenericGF_DATA_MATRIX_FIELD_256}} {
		const k, nsym = 28, 16
		for trial := range 50 {
			orig := rsBlock(t, c.gf, rng, k, nsym)
			cw := append([]byte(nil), orig...)
			sc := make([]softCodeword, len(cw))
			for p := range sc {
				sc[p] = softCodeword{rel: 0.9, sure: 0xFF}
			}
			perm := rng.Perm(len(cw))
			for i, p := range perm[:8] {
				bit := byte(0x80 >> rng.IntN(8))
				sc[p] = softCodeword{rel: 0.05 + 0.01*float64(rng.IntN(10)), weak: bit, sure: 0xFF &^ bit}
				if i < 6 {
					cw[p] ^= bit
				}
			}
			for _, p := range perm[8:13] {
				cw[p] ^= byte(1 + rng.IntN(255))
			}
			fixed, ok := softCorrect(c.f, cw, nsym, sc, 8*rsSlack)
			if !ok || string(fixed) != string(orig) {
				t.Fatalf("trial %d: ok %v, corrected %v", trial, ok, string(fixed) == string(orig))
			}
			for p := range sc {
				sc[p].rel = 0.9
			}
			if _, ok := softCorrect(c.f, cw, nsym, sc, 8*rsSlack); ok {
				t.Fatalf("trial %d: 11 errors corrected with nothing unsure", trial)
			}
		}
	}
}

// TestSoftEvidence: a correction that changes a sure bit of an erased codeword loses 8 bits
// of evidence; one that keeps it gains one.
func TestSoftEvidence(t *testing.T) {
	cw := []byte{0x0F, 0xAA, 0x55}
	fixed := []byte{0x0F, 0xAB, 0x55}
	sc := []softCodeword{{}, {sure: 0x03}, {sure: 0xF0}}
	// Erased: codewords 1 (bit 0x01 sure and changed, 0x02 sure and kept) and 2 (4 sure, kept).
	if got, want := softEvidence(2, cw, fixed, []int{1, 2}, sc), 16+1-8+4; got != want {
		t.Fatalf("evidence %d, want %d", got, want)
	}
}
