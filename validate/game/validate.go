package game

import (
	"errors"
	"fmt"
	"slices"
)

// Validate checks that d is a coherent game: every stated TOTAL column equals
// count × amount, every table's totals add up, every pack of a block wins (3.1), the
// games' tables add up to the pack table (3.1, last paragraph), the "only by" amounts
// are lots of their tables, and the pack rules of 3.2 are consistent.
func (d *Definition) Validate() error {
	if d.PackPrice <= 0 || d.PackPrice > Euros(maxEuros) {
		return fmt.Errorf("game: invalid definition: pack price %v", d.PackPrice)
	}
	if d.BlockPacks <= 0 || d.BlockPacks > maxCount {
		return fmt.Errorf("game: invalid definition: %d packs per block", d.BlockPacks)
	}
	if d.TicketsPerPack < 1 || d.TicketsPerPack > maxGames {
		return fmt.Errorf("game: invalid definition: %d tickets per pack", d.TicketsPerPack)
	}
	if len(d.Games) != d.TicketsPerPack {
		return fmt.Errorf("game: invalid definition: %d games for %d tickets per pack (article 4.1: one game per ticket)", len(d.Games), d.TicketsPerPack)
	}
	if err := checkTable("pack table (3.1)", d.PackTable, d.PackTotalCount, d.PackTotal); err != nil {
		return err
	}
	if d.PackTotalCount != d.BlockPacks {
		return fmt.Errorf("game: invalid definition: pack table (3.1) has %d lots for %d packs: every pack must win", d.PackTotalCount, d.BlockPacks)
	}
	for _, a := range d.PackCumulationOnly {
		if !slices.ContainsFunc(d.PackTable, func(t Tier) bool { return t.Amount == a }) {
			return fmt.Errorf("game: invalid definition: cumulation-only amount %v is not in the pack table (3.1)", a)
		}
	}
	if len(d.WinnersPerPack) == 0 {
		return errors.New("game: invalid definition: no allowed number of winners per pack (3.2)")
	}
	for i, w := range d.WinnersPerPack {
		if w < 1 || w > d.TicketsPerPack || (i > 0 && w <= d.WinnersPerPack[i-1]) {
			return fmt.Errorf("game: invalid definition: winners per pack (3.2) must increase within 1..%d: %v", d.TicketsPerPack, d.WinnersPerPack)
		}
	}
	minPack := d.PackTable[len(d.PackTable)-1].Amount
	if d.PackMinimum <= 0 || d.PackMinimum > minPack {
		return fmt.Errorf("game: invalid definition: pack minimum (3.2) %v must be positive and at most the smallest pack lot %v", d.PackMinimum, minPack)
	}
	var sum Cents
	winners := 0
	for i := range d.Games {
		g := &d.Games[i]
		if g.Number != i+1 {
			return fmt.Errorf("game: invalid definition: game at position %d is numbered %d (article 4.1: ticket k is game k)", i+1, g.Number)
		}
		if g.Name == "" {
			return fmt.Errorf("game: invalid definition: game %d has no name", g.Number)
		}
		name := fmt.Sprintf("game %d table (%s.2)", g.Number, g.Article)
		if err := checkTable(name, g.Tiers, g.TotalCount, g.Total); err != nil {
			return err
		}
		if g.TotalCount > d.BlockPacks {
			return fmt.Errorf("game: invalid definition: %s has %d winners for %d tickets", name, g.TotalCount, d.BlockPacks)
		}
		for _, a := range append(slices.Clone(g.MultiplicationOnly), g.CumulationOnly...) {
			if !g.HasLot(a) {
				return fmt.Errorf("game: invalid definition: %s: \"only by\" amount %v is not a lot of the table", name, a)
			}
		}
		sum += g.Total
		winners += g.TotalCount
	}
	if sum != d.PackTotal {
		return fmt.Errorf("game: invalid definition: the games' tables add up to %v, the pack table (3.1) to %v", sum, d.PackTotal)
	}
	lo, hi := d.WinnersPerPack[0]*d.BlockPacks, d.WinnersPerPack[len(d.WinnersPerPack)-1]*d.BlockPacks
	if winners < lo || winners > hi {
		return fmt.Errorf("game: invalid definition: %d winning tickets cannot fill %d packs with %v winners each (3.2)", winners, d.BlockPacks, d.WinnersPerPack)
	}
	return nil
}

// checkTable re-derives a table's TOTAL column, its lot count and its total.
func checkTable(name string, tiers []Tier, count int, total Cents) error {
	if len(tiers) == 0 || len(tiers) > maxTiers {
		return fmt.Errorf("game: invalid definition: %s has %d tiers", name, len(tiers))
	}
	n := 0
	var sum Cents
	for i, t := range tiers {
		if t.Amount <= 0 || t.Amount > Euros(maxEuros) {
			return fmt.Errorf("game: invalid definition: %s: amount %v out of range", name, t.Amount)
		}
		if t.Count <= 0 || t.Count > maxCount {
			return fmt.Errorf("game: invalid definition: %s: %d lots of %v", name, t.Count, t.Amount)
		}
		if i > 0 && t.Amount >= tiers[i-1].Amount {
			return fmt.Errorf("game: invalid definition: %s: amounts must strictly decrease (%v after %v)", name, t.Amount, tiers[i-1].Amount)
		}
		if got := t.Amount * Cents(t.Count); got != t.Total {
			return fmt.Errorf("game: invalid definition: %s: %d lots of %v make %v, the TOTAL column says %v", name, t.Count, t.Amount, got, t.Total)
		}
		n += t.Count
		sum += t.Total
	}
	if n != count {
		return fmt.Errorf("game: invalid definition: %s: the lots add up to %d, the table says %d", name, n, count)
	}
	if sum != total {
		return fmt.Errorf("game: invalid definition: %s: the TOTAL column adds up to %v, the table says %v", name, sum, total)
	}
	return nil
}
