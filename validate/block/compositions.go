package block

import (
	"slices"

	"github.com/packterm/pos/validate/game"
)

// MaxGames bounds the tickets of a pack this package handles.
const MaxGames = 8

// A Composition is the content of one pack: for each ticket position (= game), the tier
// of the game's table it wins (1-based, table order) or 0 when it loses.
type Composition [MaxGames]uint8

// Winners is the number of winning tickets.
func (c Composition) Winners() int {
	n := 0
	for _, t := range c {
		if t != 0 {
			n++
		}
	}
	return n
}

// Amount is the pack's global lot (3.1).
func (c Composition) Amount(d *game.Definition) game.Cents {
	var s game.Cents
	for g, t := range c[:len(d.Games)] {
		if t != 0 {
			s += d.Games[g].Tiers[t-1].Amount
		}
	}
	return s
}

// Lot is the lot of the ticket at position (1-based).
func (c Composition) Lot(d *game.Definition, position int) game.Cents {
	t := c[position-1]
	if t == 0 {
		return 0
	}
	return d.Games[position-1].Tiers[t-1].Amount
}

// rules of 3.2 and 3.1 that a single pack must satisfy.
type packRules struct {
	winners        []int
	cumulationOnly []game.Cents
	minimum        game.Cents
}

func rulesOf(d *game.Definition) packRules {
	return packRules{winners: d.WinnersPerPack, cumulationOnly: d.PackCumulationOnly, minimum: d.PackMinimum}
}

func (r packRules) allows(amount game.Cents, winners int) bool {
	if !slices.Contains(r.winners, winners) || amount < r.minimum {
		return false
	}
	return winners >= 2 || !slices.Contains(r.cumulationOnly, amount)
}

// enumerate lists every composition of a pack worth amount that the pack rules allow,
// with at most maxWinners winning tickets.
func enumerate(d *game.Definition, amount game.Cents, maxWinners int) []Composition {
	rules := rulesOf(d)
	var out []Composition
	var c Composition
	var rec func(g int, sum game.Cents, w int)
	rec = func(g int, sum game.Cents, w int) {
		if g == len(d.Games) {
			if sum == amount && rules.allows(amount, w) {
				out = append(out, c)
			}
			return
		}
		c[g] = 0
		rec(g+1, sum, w)
		if w == maxWinners {
			return
		}
		for k, t := range d.Games[g].Tiers {
			if sum+t.Amount <= amount {
				c[g] = uint8(k + 1)
				rec(g+1, sum+t.Amount, w+1)
			}
		}
		c[g] = 0
	}
	rec(0, 0, 0)
	return out
}
