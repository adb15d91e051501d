package barcode

import (
	"math"
	"math/rand/v2"
	"slices"
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

// TestSoftCorrectDoubtful: a block of 16 check codewords with 10 codewords read wholly from
// modules of no confidence (a glare spot: all wrong) and 6 right codewords each with one
// such module, all tied as least sure, reads only when the most doubtful codewords are
// erased first: erasing the tied codewords in place leaves 2 of the wrong ones as errors.
func TestSoftCorrectDoubtful(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 3))
	for trial := range 50 {
		orig := rsBlock(t, reedsolomon.GenericGF_DATA_MATRIX_FIELD_256, rng, 28, 16)
		cw := append([]byte(nil), orig...)
		sc := make([]softCodeword, len(cw))
		for p := range sc {
			sc[p] = softCodeword{rel: 0.9, sure: 0xFF}
		}
		perm := rng.Perm(16)
		slices.Sort(perm[:6])
		for _, p := range perm[:6] { // right, one weak bit: first among the ties
			bit := byte(0x80 >> rng.IntN(8))
			sc[p] = softCodeword{weak: bit, sure: 0xFF &^ bit, doubt: 1}
		}
		for _, p := range perm[6:] { // wrong, every bit weak
			cw[p] ^= byte(1 + rng.IntN(255))
			sc[p] = softCodeword{weak: 0x80, doubt: 8}
		}
		fixed, ok := softCorrect(dmField, cw, 16, sc, dmSoftEvidence)
		if !ok || string(fixed) != string(orig) {
			t.Fatalf("trial %d: ok %v, corrected %v", trial, ok, string(fixed) == string(orig))
		}
	}
}

// TestSoftEvidenceLikelihood: bits of some trust (no sure one) that a correction keeps vouch
// for it through the likelihood ratio; for words at random the evidence reaches e bits under
// 1.5 × 2^−e of the time (the bound softEvidence claims), whatever the trust of the bits.
func TestSoftEvidenceLikelihood(t *testing.T) {
	cw := make([]byte, 5)
	sc := make([]softCodeword, 5)
	erased := []int{0, 1, 2, 3, 4}
	for p := range sc {
		for b := range sc[p].trust {
			sc[p].trust[b] = 0.8
		}
	}
	// 40 bits of trust 0.8 kept, two spare check codewords: 16 + 40·log2(1.6) − 1.
	if got, want := softEvidence(2, cw, cw, erased, sc), 15+40*math.Log2(1.6); math.Abs(got-want) > 1e-6 {
		t.Fatalf("evidence %.2f, want %.2f", got, want)
	}
	rng := rand.New(rand.NewPCG(8, 9))
	trusts := []float32{0.7, 0.8, 0.93, 0.98}
	const trials, e = 200000, 8.0
	pass := 0
	fixed := make([]byte, len(cw))
	for range trials {
		for p := range sc {
			cw[p] = byte(rng.IntN(256))
			sc[p].sure = 0
			for b := range sc[p].trust {
				tr := trusts[rng.IntN(len(trusts))]
				sc[p].trust[b] = tr
				if tr >= 0.98 {
					sc[p].sure |= 0x80 >> b
				}
			}
			fixed[p] = byte(rng.IntN(256))
		}
		if softEvidence(0, cw, fixed, erased, sc) >= e {
			pass++
		}
	}
	if bound := 1.5 * trials / math.Exp2(e); float64(pass) > bound {
		t.Fatalf("%d of %d words at random reach %.0f bits of evidence, over the bound %.0f", pass, trials, e, bound)
	}
}

// TestSoftEvidence: 8 bits per spare check codeword, plus the binomial tail of the sure
// bits of the erased codewords that the correction kept.
func TestSoftEvidence(t *testing.T) {
	cw := []byte{0x0F, 0xAA, 0x55}
	fixed := []byte{0x0F, 0xAB, 0x55}
	sc := []softCodeword{{}, {sure: 0x03}, {sure: 0xF0}}
	// Erased: codewords 1 (bit 0x01 sure and changed, 0x02 sure and kept) and 2 (4 sure, kept).
	// 6 sure bits, one changed: 16 + 6 − log2(1 + 6).
	if got, want := softEvidence(2, cw, fixed, []int{1, 2}, sc), 22-math.Log2(7); math.Abs(got-want) > 1e-9 {
		t.Fatalf("evidence %.3f, want %.3f", got, want)
	}
	// Every sure bit kept: one bit each.
	if got := softEvidence(0, cw, cw, []int{1, 2}, sc); got != 6 {
		t.Fatalf("evidence %.3f, want 6", got)
	}
	// Half of them changed: about what a word at random gets, under a bit.
	half := []byte{0x0F, 0xA9, 0x35}
	if got := softEvidence(0, cw, half, []int{1, 2}, sc); got > 1 {
		t.Fatalf("evidence %.3f for half the sure bits changed", got)
	}
}
