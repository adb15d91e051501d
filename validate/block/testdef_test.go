package block

import (
	"math/rand/v2"
	"slices"

	"github.com/packterm/pos/validate/game"
)

// smallDefinition makes a random game definition of packs packs that is feasible by
// construction: it draws random packs under the rules of 3.2 (each game's lots a random
// subset of its règlement amounts, so that plays exist for them) and writes their
// tables. It is the "small test game definition" the block tests run on many seeds.
func smallDefinition(r *rand.Rand, packs int) *game.Definition {
	for {
		if d := trySmallDefinition(r, packs); d != nil {
			return d
		}
	}
}

// trySmallDefinition returns nil when the draw has too many pack amounts for a table.
func trySmallDefinition(r *rand.Rand, packs int) *game.Definition {
	ref := game.Reglement()
	d := ref.Clone()
	d.BlockPacks = packs
	// Each game keeps a random subset of its lots (at least one), skipping those above 100 €.
	subsets := make([][]game.Cents, len(d.Games))
	for g, gm := range ref.Games {
		for _, t := range gm.Tiers {
			if t.Amount <= game.Euros(30) && r.IntN(2) > 0 {
				subsets[g] = append(subsets[g], t.Amount)
			}
		}
		if len(subsets[g]) == 0 {
			subsets[g] = append(subsets[g], gm.Tiers[len(gm.Tiers)-1].Amount)
		}
	}
	packCount := map[game.Cents]int{}
	single := map[game.Cents]bool{}
	lotCount := make([]map[game.Cents]int, len(d.Games))
	for g := range lotCount {
		lotCount[g] = map[game.Cents]int{}
	}
	allowedW := []int{1, 2, 3, 4, 5}
	// Pack amounts come from a small set, as in the règlement's table.
	targets := map[game.Cents]bool{}
	for _, e := range []int64{3, 5, 10, 15, 20, 30, 50, 100} {
		if r.IntN(4) > 0 {
			targets[game.Euros(e)] = true
		}
	}
	targets[game.Euros(5)] = true
	for i := 0; i < packs; {
		w := allowedW[r.IntN(len(allowedW))]
		if r.IntN(2) == 0 {
			w = 1 + r.IntN(2)
		}
		games := r.Perm(len(d.Games))[:w]
		var sum game.Cents
		var lots [MaxGames]game.Cents
		for _, g := range games {
			lots[g] = subsets[g][r.IntN(len(subsets[g]))]
			sum += lots[g]
		}
		if !targets[sum] {
			continue
		}
		for g, l := range lots {
			if l != 0 {
				lotCount[g][l]++
			}
		}
		packCount[sum]++
		if w == 1 {
			single[sum] = true
		}
		i++
	}
	tiers := func(m map[game.Cents]int) ([]game.Tier, int, game.Cents) {
		var amounts []game.Cents
		for a := range m {
			amounts = append(amounts, a)
		}
		slices.Sort(amounts)
		slices.Reverse(amounts)
		var out []game.Tier
		n, tot := 0, game.Cents(0)
		for _, a := range amounts {
			out = append(out, game.Tier{Amount: a, Count: m[a], Total: a * game.Cents(m[a])})
			n += m[a]
			tot += a * game.Cents(m[a])
		}
		return out, n, tot
	}
	d.PackTable, d.PackTotalCount, d.PackTotal = tiers(packCount)
	d.PackCumulationOnly = nil
	for _, t := range d.PackTable {
		if !single[t.Amount] && r.IntN(2) == 0 {
			d.PackCumulationOnly = append(d.PackCumulationOnly, t.Amount)
		}
	}
	d.PackMinimum = d.PackTable[len(d.PackTable)-1].Amount
	for g := range d.Games {
		gm := &d.Games[g]
		gm.Tiers, gm.TotalCount, gm.Total = tiers(lotCount[g])
		gm.MultiplicationOnly, gm.CumulationOnly = nil, nil
		if len(gm.Tiers) == 0 { // a game that never won: draw again
			return nil
		}
	}
	if d.Validate() != nil {
		return nil
	}
	return d
}
