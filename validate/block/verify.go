package block

import (
	"fmt"

	"github.com/packterm/pos/validate/game"
)

// Verify checks a design against every table and rule, counting from scratch: each
// pack's amount is a line of the pack table (3.1) and the table's counts are met exactly;
// each pack has an allowed number of winners and at least the minimum (3.2); the
// cumulation-only amounts come from several winners (3.1); every game's table is used
// exactly (4.x.2), one ticket of each game per pack (4.1).
func (ds *Design) Verify(d *game.Definition) error {
	if ds.Packs() != d.BlockPacks {
		return fmt.Errorf("block: design has %d packs, the block %d", ds.Packs(), d.BlockPacks)
	}
	rules := rulesOf(d)
	packs := map[game.Cents]int{}
	lots := make([]map[game.Cents]int, len(d.Games))
	for g := range lots {
		lots[g] = map[game.Cents]int{}
	}
	for _, pt := range ds.Patterns {
		c := pt.Composition
		if pt.Packs <= 0 {
			return fmt.Errorf("block: pattern %v has %d packs", c, pt.Packs)
		}
		for g := range c {
			if g >= len(d.Games) && c[g] != 0 || g < len(d.Games) && int(c[g]) > len(d.Games[g].Tiers) {
				return fmt.Errorf("block: pattern %v: no tier %d in game %d", c, c[g], g+1)
			}
		}
		a, w := c.Amount(d), c.Winners()
		if !rules.allows(a, w) {
			return fmt.Errorf("block: pattern %v: a %v pack with %d winners breaks article 3", c, a, w)
		}
		packs[a] += pt.Packs
		for g := range d.Games {
			if l := c.Lot(d, g+1); l != 0 {
				lots[g][l] += pt.Packs
			}
		}
	}
	for _, t := range d.PackTable {
		if packs[t.Amount] != t.Count {
			return fmt.Errorf("block: %d packs of %v, article 3.1 says %d", packs[t.Amount], t.Amount, t.Count)
		}
		delete(packs, t.Amount)
	}
	for a, n := range packs {
		return fmt.Errorf("block: %d packs of %v, not an amount of the pack table", n, a)
	}
	for g, gm := range d.Games {
		for _, t := range gm.Tiers {
			if lots[g][t.Amount] != t.Count {
				return fmt.Errorf("block: game %d has %d lots of %v, article %s.2 says %d", gm.Number, lots[g][t.Amount], t.Amount, gm.Article, t.Count)
			}
		}
	}
	return nil
}
