package block

import (
	"math/rand/v2"
	"testing"

	"github.com/packterm/pos/validate/game"
)

func seeds(short, long int) int {
	if testing.Short() || raceEnabled {
		return short
	}
	return long
}

// TestSolveReglementManySeeds: the solver finds an exact design of the real block for
// every seed tried (Solve verifies its result; Verify is checked again here).
func TestSolveReglementManySeeds(t *testing.T) {
	d := game.Reglement()
	for seed := range uint64(seeds(1, 6)) {
		ds, err := Solve(d, rand.New(rand.NewPCG(seed, 7)))
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if err := ds.Verify(d); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		t.Logf("seed %d: %d patterns, %+v", seed, len(ds.Patterns), ds.Stats)
	}
}

// TestSolveSmallDefinitionsManySeeds: random small definitions, feasible by construction,
// are solved exactly on many seeds.
func TestSolveSmallDefinitionsManySeeds(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 13))
	for i := range seeds(20, 200) {
		d := smallDefinition(r, 50+r.IntN(400))
		ds, err := Solve(d, rand.New(rand.NewPCG(uint64(i), 1)))
		if err != nil {
			t.Fatalf("definition %d (%d packs): %v", i, d.BlockPacks, err)
		}
		if err := ds.Verify(d); err != nil {
			t.Fatalf("definition %d: %v", i, err)
		}
	}
}

// TestVerifyCatchesBrokenDesigns: Verify is not a rubber stamp.
func TestVerifyCatchesBrokenDesigns(t *testing.T) {
	d := game.Reglement()
	ds, err := Solve(d, rand.New(rand.NewPCG(3, 3)))
	if err != nil {
		t.Fatal(err)
	}
	clone := func() *Design {
		c := &Design{Patterns: append([]Pattern(nil), ds.Patterns...)}
		return c
	}
	// One pack fewer.
	c := clone()
	c.Patterns[len(c.Patterns)-1].Packs--
	if c.Verify(d) == nil {
		t.Error("a missing pack passed")
	}
	// Two packs swapping a lot of the same game keep the block's totals but break a
	// pack's amount: find patterns of different amounts.
	c = clone()
	var i, j = -1, -1
	for a := range c.Patterns {
		for b := range c.Patterns {
			pa, pb := c.Patterns[a].Composition, c.Patterns[b].Composition
			if pa[0] != pb[0] && pa.Amount(d) != pb.Amount(d) {
				i, j = a, b
			}
		}
	}
	if i < 0 {
		t.Fatal("no two patterns to swap")
	}
	c.Patterns[i].Packs--
	c.Patterns[j].Packs--
	pa, pb := c.Patterns[i].Composition, c.Patterns[j].Composition
	pa[0], pb[0] = pb[0], pa[0]
	c.Patterns = append(c.Patterns, Pattern{pa, 1}, Pattern{pb, 1})
	if err := c.Verify(d); err == nil {
		t.Error("swapped lots passed")
	} else {
		t.Log(err)
	}
	// A cumulation-only amount from a single ticket.
	c = clone()
	one := Composition{}
	for k, t := range d.Games[6].Tiers { // game 7's 50 € line, alone
		if t.Amount == game.Euros(50) {
			one[6] = uint8(k + 1)
		}
	}
	if one.Lot(d, 7) != game.Euros(50) {
		t.Fatalf("test setup: %v", one.Lot(d, 7))
	}
	c.Patterns = append(c.Patterns, Pattern{one, 1})
	if c.Verify(d) == nil {
		t.Error("a 50 € pack of one winner passed")
	}
}
