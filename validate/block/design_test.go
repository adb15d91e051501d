package block

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
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
	for seed := range uint64(seeds(0, 4)) {
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

var (
	designOnce sync.Once
	design     *Design
	designErr  error
)

// reglementDesignFile is a design of the règlement the solver found (seed 3, 3), checked in
// so that the tests that only read a design need no solve in -short mode nor under the race
// detector (the solve takes about 2 s here, 45 s under -race and 2–3 min under qemu-user; the
// full-count stage without -race solves it); -update-design writes it again.
const reglementDesignFile = "testdata/reglement.design.json"

var updateDesign = flag.Bool("update-design", false, "write "+reglementDesignFile+" from a new solve")

// reglementDesign is one design of the règlement shared by the tests that only read it:
// solved (seed 3, 3), or in -short mode or under -race the checked-in one, verified.
func reglementDesign(t *testing.T) *Design {
	t.Helper()
	designOnce.Do(func() {
		if (testing.Short() || raceEnabled) && !*updateDesign {
			design, designErr = loadDesign(reglementDesignFile)
			return
		}
		design, designErr = Solve(game.Reglement(), rand.New(rand.NewPCG(3, 3)))
		if designErr == nil && *updateDesign {
			b, _ := json.Marshal(design.Patterns)
			designErr = os.WriteFile(reglementDesignFile, b, 0o644)
		}
	})
	if designErr != nil {
		t.Fatal(designErr)
	}
	return design
}

func loadDesign(path string) (*Design, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	d := &Design{}
	if err := json.Unmarshal(b, &d.Patterns); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if err := d.Verify(game.Reglement()); err != nil {
		return nil, fmt.Errorf("%s no longer fits the règlement (go test -run Design -update-design): %w", path, err)
	}
	return d, nil
}

// TestReglementDesignFile: the checked-in design is a valid design of the règlement.
func TestReglementDesignFile(t *testing.T) {
	if _, err := loadDesign(reglementDesignFile); err != nil {
		t.Fatal(err)
	}
}

// TestSolveSmallDefinitionsManySeeds: random small definitions, feasible by construction,
// are solved exactly on many seeds.
func TestSolveSmallDefinitionsManySeeds(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 13))
	for i := range seeds(8, 200) {
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
	ds := reglementDesign(t)
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
			if pa[0] != pb[0] && pa.Amount(d) != pb.Amount(d) && c.Patterns[a].Packs > 1 && c.Patterns[b].Packs > 1 {
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
	if err := c.Verify(d); err == nil || !strings.Contains(err.Error(), "article") {
		t.Errorf("swapped lots: %v, want a table or rule broken", err)
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

// TestDesignVariety: packs of the same amount come in many compositions, not a handful
// (the design mixes several solutions of the relaxation).
func TestDesignVariety(t *testing.T) {
	d := game.Reglement()
	ds := reglementDesign(t)
	by := map[game.Cents]int{}
	for _, p := range ds.Patterns {
		by[p.Composition.Amount(d)]++
	}
	for _, tier := range d.PackTable {
		if tier.Count >= 10_000 && by[tier.Amount] < 10 {
			t.Errorf("%d packs of %v come in only %d compositions", tier.Count, tier.Amount, by[tier.Amount])
		}
	}
	t.Logf("%d patterns: %v", len(ds.Patterns), by)
}
