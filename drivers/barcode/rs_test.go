package barcode

import (
	"math/rand/v2"
	"testing"

	"github.com/makiuchi-d/gozxing/common/reedsolomon"
)

// rsBlock encodes k random data codewords with nsym check codewords (gozxing's encoder, in
// the field gf).
func rsBlock(t testing.TB, gf *reedsolomon.GenericGF, rng *rand.Rand, k, nsym int) []byte {
	t.Helper()
	ints := make([]int, k+nsym)
	for i := range k {
		ints[i] = rng.IntN(256)
	}
	if err := reedsolomon.NewReedSolomonEncoder(gf).Encode(ints, nsym); err != nil {
		t.Fatal(err)
	}
	out := make([]byte, len(ints))
	for i, v := range ints {
		out[i] = byte(v)
	}
	return out
}

// TestRSCorrectErasures: blocks of QR's and DataMatrix's shapes, each in its field, with e
// errors and ρ erasures (2e + ρ within the check codewords less rsSlack) are corrected
// exactly; an erasure may hit a codeword that is right. Beyond that the block is refused or,
// rarely, decoded into another codeword, never left half-changed.
func TestRSCorrectErasures(t *testing.T) {
	t.Run("qr", func(t *testing.T) {
		testRSCorrect(t, qrField, reedsolomon.GenericGF_QR_CODE_FIELD_256,
			[][2]int{{19, 7}, {28, 16}, {13, 13}, {9, 17}, {15, 28}, {43, 30}, {116, 30}})
	})
	t.Run("datamatrix", func(t *testing.T) {
		testRSCorrect(t, dmField, reedsolomon.GenericGF_DATA_MATRIX_FIELD_256,
			[][2]int{{3, 5}, {8, 10}, {30, 20}, {36, 24}, {44, 28}, {49, 28}, {62, 36}, {156, 62}})
	})
}

func testRSCorrect(t *testing.T, f *rsField, gf *reedsolomon.GenericGF, shapes [][2]int) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, sh := range shapes {
		k, nsym := sh[0], sh[1]
		for trial := range 200 {
			orig := rsBlock(t, gf, rng, k, nsym)
			n := k + nsym
			budget := nsym - rsSlack
			rho := rng.IntN(budget + 1)
			errs := rng.IntN((budget-rho)/2 + 1)
			perm := rng.Perm(n)
			cw := append([]byte(nil), orig...)
			erased := perm[:rho]
			for _, p := range erased {
				if rng.IntN(2) == 0 {
					cw[p] ^= byte(1 + rng.IntN(255))
				}
			}
			for _, p := range perm[rho : rho+errs] {
				cw[p] ^= byte(1 + rng.IntN(255))
			}
			got, ok := f.correct(cw, nsym, erased)
			if !ok || string(cw) != string(orig) {
				t.Fatalf("(%d,%d) trial %d: %d erasures, %d errors: ok %v, got %d errors, block right %v",
					n, k, trial, rho, errs, ok, got, string(cw) == string(orig))
			}
			if got > errs {
				t.Fatalf("(%d,%d): reported %d errors, made %d", n, k, got, errs)
			}
			// Too many errors: refused, or another codeword (then consistent).
			bad := append([]byte(nil), orig...)
			for _, p := range perm[:nsym/2+1] {
				bad[p] ^= byte(1 + rng.IntN(255))
			}
			before := append([]byte(nil), bad...)
			if _, ok := f.correct(bad, nsym, nil); !ok && string(bad) != string(before) {
				t.Fatalf("(%d,%d): refused block was changed", n, k)
			} else if ok {
				if _, ok2 := f.correct(append([]byte(nil), bad...), nsym, nil); !ok2 {
					t.Fatalf("(%d,%d): accepted block is not a codeword", n, k)
				}
			}
		}
	}
}

// FuzzRSCorrect: any block, check count and erasure list is corrected into a codeword or
// refused unchanged, in QR's field and in DataMatrix's; never a panic.
func FuzzRSCorrect(f *testing.F) {
	f.Add([]byte("0123456789abcdefghijklmnopqrstuvwxyz0123456789"), uint8(16), []byte{1, 5, 9})
	f.Add(make([]byte, 26), uint8(10), []byte{})
	f.Add([]byte{1, 2, 3}, uint8(2), []byte{0, 0})
	f.Fuzz(func(t *testing.T, cw []byte, nsym uint8, er []byte) {
		erased := make([]int, len(er))
		for i, e := range er {
			erased[i] = int(e)
		}
		for _, f := range []*rsField{qrField, dmField} {
			cw := append([]byte(nil), cw...)
			before := append([]byte(nil), cw...)
			_, ok := f.correct(cw, int(nsym), erased)
			if !ok {
				if string(cw) != string(before) {
					t.Fatal("refused block was changed")
				}
				continue
			}
			if _, ok := f.correct(append([]byte(nil), cw...), int(nsym), nil); !ok {
				t.Fatal("corrected block is not a codeword")
			}
		}
	})
}
