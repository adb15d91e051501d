package barcode

import (
	"math/rand/v2"
	"testing"
)

// TestChaseSearchBeyondErasures corrects a QR block (version 2-M: 44 codewords, 16 check)
// with 10 codewords wrong by one bit each, every wrong bit among the 16 least sure of the
// block, but 6 right bits less sure still: beyond errors alone (8 at most), beyond the soft
// correction (erasing the least sure codewords takes the right ones first), within Chase's
// search. A word at random is refused by the same search.
func TestChaseSearchBeyondErasures(t *testing.T) {
	rng := rand.New(rand.NewPCG(34, 11))
	const n, nsym = 44, 16
	for trial := range 20 {
		want := qrEncodeBlock(rng, n, nsym)
		cw := append([]byte(nil), want...)
		sc := make([]softCodeword, n)
		for p := range sc {
			sc[p].rel = 1
			for b := range 8 {
				sc[p].conf[b] = float32(0.3 + 0.7*rng.Float64())
				sc[p].trust[b] = float32(bitTrust(float64(sc[p].conf[b])))
			}
		}
		// 10 wrong bits (confidence 0.05–0.2), and 6 right ones less sure (0–0.05).
		perm := rng.Perm(n)
		for i, p := range perm[:16] {
			b := rng.IntN(8)
			if i < 10 {
				cw[p] ^= 0x80 >> b
				sc[p].conf[b] = float32(0.05 + 0.15*rng.Float64())
			} else {
				sc[p].conf[b] = float32(0.05 * rng.Float64())
			}
		}
		for p := range sc {
			for b, c := range sc[p].conf {
				if float64(c) < sc[p].rel {
					sc[p].rel, sc[p].weak = float64(c), 0x80>>b
				}
				sc[p].trust[b] = float32(bitTrust(float64(c)))
			}
		}
		if _, ok := softCorrect(qrField, append([]byte(nil), cw...), nsym, sc, 8*rsSlack); ok {
			t.Fatalf("trial %d: the soft correction alone corrected the block", trial)
		}
		got, ok := chaseSearch(qrField, append([]byte(nil), cw...), nsym, sc, 20000, func() bool { return false })
		if !ok || string(got) != string(want) {
			t.Fatalf("trial %d: chase corrected %v, to the codeword %v", trial, ok, string(got) == string(want))
		}
		if trial >= 3 {
			continue // a word at random tries every word of the search: three suffice
		}
		random := make([]byte, n)
		for p := range random {
			random[p] = byte(rng.IntN(256))
		}
		if got, ok := chaseSearch(qrField, random, nsym, sc, 20000, func() bool { return false }); ok {
			t.Fatalf("trial %d: a word at random corrected to %x", trial, got)
		}
	}
}

// TestChaseSearchStops checks that the search looks at stop every chaseStopEvery words and
// ends when told.
func TestChaseSearchStops(t *testing.T) {
	rng := rand.New(rand.NewPCG(34, 12))
	const n, nsym = 44, 16
	random := make([]byte, n)
	for p := range random {
		random[p] = byte(rng.IntN(256))
	}
	sc := make([]softCodeword, n)
	for p := range sc {
		for b := range 8 {
			sc[p].conf[b] = float32(rng.Float64())
		}
	}
	calls := 0
	if _, ok := chaseSearch(qrField, random, nsym, sc, 20000, func() bool { calls++; return calls == 3 }); ok {
		t.Fatal("a word at random corrected")
	}
	if calls != 3 {
		t.Fatalf("stop called %d times, want 3", calls)
	}
}

// TestChaseAffords checks the search's bound on false corrections: version 2-M's block
// affords the 20,000 words the fitted pass asks; blocks of few check codewords, where a
// word at random corrects far more often, ten at most.
func TestChaseAffords(t *testing.T) {
	if a := chaseAffords(44, 16); a < fitChaseTrials || a > 40000 {
		t.Errorf("version 2-M (44, 16) affords %d words", a)
	}
	for _, b := range [][2]int{{26, 10}, {26, 7}, {44, 10}} {
		if a := chaseAffords(b[0], b[1]); a > 10 {
			t.Errorf("block (%d, %d) affords %d words", b[0], b[1], a)
		}
	}
}
