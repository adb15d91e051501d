package game

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
)

// WriteTables prints the definition's tables for people, in the règlement's layout,
// every TOTAL column re-derived from counts and amounts.
func (d *Definition) WriteTables(w io.Writer) error {
	p := func(format string, a ...any) { fmt.Fprintf(w, format, a...) }
	table := func(tiers []Tier) error {
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintf(tw, "NOMBRE DE LOTS\t\tMONTANT DU LOT\tTOTAL\t\n")
		n := 0
		var sum Cents
		for _, t := range tiers {
			total := t.Amount * Cents(t.Count)
			fmt.Fprintf(tw, "%s\tlots de\t%v\t%v\t\n", count(t.Count), t.Amount, total)
			n += t.Count
			sum += total
		}
		fmt.Fprintf(tw, "%s\tlots\t\t%v\t\n", count(n), sum)
		return tw.Flush()
	}
	p("Pack de %d tickets, %v ; blocs de %s packs (articles 2 et 4.1)\n\n", d.TicketsPerPack, d.PackPrice, count(d.BlockPacks))
	p("Article 3.1 : lots du pack, par bloc\n")
	if err := table(d.PackTable); err != nil {
		return err
	}
	p("Montants accessibles seulement par cumul de tickets : %s\n", amounts(d.PackCumulationOnly))
	p("Article 3.2 : %s tickets gagnants par pack, au moins %v par pack\n", d.WinnersText(), d.PackMinimum)
	var all Cents
	for _, g := range d.Games {
		p("\nJeu %d, « %s » (article %s.2)\n", g.Number, g.Name, g.Article)
		if err := table(g.Tiers); err != nil {
			return err
		}
		if len(g.MultiplicationOnly) > 0 {
			p("Accessible seulement par multiplication : %s\n", amounts(g.MultiplicationOnly))
		}
		if len(g.CumulationOnly) > 0 {
			p("Accessible seulement par cumul de surfaces : %s\n", amounts(g.CumulationOnly))
		}
		all += g.Total
	}
	_, err := fmt.Fprintf(w, "\nTotal des huit jeux : %v (table 3.1 : %v)\n", all, d.PackTotal)
	return err
}

func count(n int) string { return GroupDigits(int64(n)) }

func amounts(a []Cents) string {
	s := make([]string, len(a))
	for i, c := range a {
		s[i] = c.String()
	}
	return strings.Join(s, ", ")
}

// WinnersText lists the allowed numbers of winning tickets per pack (3.2): "1, 2, 3, 4, 5, 7".
func (d *Definition) WinnersText() string {
	s := make([]string, len(d.WinnersPerPack))
	for i, n := range d.WinnersPerPack {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ", ")
}
