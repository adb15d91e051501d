package game

import (
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The règlement as published, kept in testdata: the tables are read from it.
const reglementText = "testdata/reglement.txt"

func readReglement(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(reglementText)
	if err != nil {
		t.Fatal(err)
	}
	// Thousands are separated by no-break spaces (U+00A0, U+202F) in the text.
	return strings.NewReplacer("\u00a0", " ", "\u202f", " ").Replace(string(b))
}

// euros reads "11 250 140" (spaces as thousands separators).
func euros(t *testing.T, s string) Cents {
	t.Helper()
	n, err := strconv.ParseInt(strings.ReplaceAll(strings.TrimSpace(s), " ", ""), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return Euros(n)
}

type parsedTable struct {
	tiers []Tier
	count int
	total Cents
}

var (
	rowRE   = regexp.MustCompile(`\|\s*([\d ]+?)\s+lots de\s*\|\s*([\d ]+?)\s*€\s*\|\s*([\d ]+?)\s*€\s*\|`)
	totalRE = regexp.MustCompile(`\|\s*([\d ]+?)\s+lots formant un total de\s+([\d ]+?)\s*€`)
)

// parseTables reads every prize table of the règlement text, in order: 3.1, then 4.2.2
// to 4.9.2.
func parseTables(t *testing.T, text string) []parsedTable {
	t.Helper()
	var out []parsedTable
	var cur parsedTable
	rows := rowRE.FindAllStringSubmatchIndex(text, -1)
	totals := totalRE.FindAllStringSubmatchIndex(text, -1)
	ri := 0
	for _, tot := range totals {
		for ; ri < len(rows) && rows[ri][0] < tot[0]; ri++ {
			m := rows[ri]
			n, _ := strconv.Atoi(strings.ReplaceAll(text[m[2]:m[3]], " ", ""))
			cur.tiers = append(cur.tiers, Tier{Count: n, Amount: euros(t, text[m[4]:m[5]]), Total: euros(t, text[m[6]:m[7]])})
		}
		cur.count, _ = strconv.Atoi(strings.ReplaceAll(text[tot[2]:tot[3]], " ", ""))
		cur.total = euros(t, text[tot[4]:tot[5]])
		out = append(out, cur)
		cur = parsedTable{}
	}
	return out
}

// TestDefinitionMatchesReglementText reads the tables out of the règlement's own text and
// compares them, line by line and to the unit, with the embedded definition.
func TestDefinitionMatchesReglementText(t *testing.T) {
	text := readReglement(t)
	tables := parseTables(t, text)
	d := Reglement()
	if len(tables) != 1+len(d.Games) {
		t.Fatalf("found %d tables in the règlement, want %d", len(tables), 1+len(d.Games))
	}
	check := func(name string, got []Tier, count int, total Cents, want parsedTable) {
		t.Helper()
		if !slices.Equal(got, want.tiers) {
			t.Errorf("%s: tiers %v, règlement says %v", name, got, want.tiers)
		}
		if count != want.count || total != want.total {
			t.Errorf("%s: %d lots, %v; règlement says %d lots, %v", name, count, total, want.count, want.total)
		}
	}
	check("3.1", d.PackTable, d.PackTotalCount, d.PackTotal, tables[0])
	for i, g := range d.Games {
		check(g.Article+".2", g.Tiers, g.TotalCount, g.Total, tables[i+1])
	}

	// Article 2: blocks of 1,500,000 packs at 10 €.
	if !strings.Contains(text, "blocs de 1 500 000 packs") || d.BlockPacks != 1_500_000 {
		t.Errorf("block of %d packs", d.BlockPacks)
	}
	if !strings.Contains(text, "prix de vente du pack est fixé à 10 euros") || d.PackPrice != Euros(10) {
		t.Errorf("pack price %v", d.PackPrice)
	}
	// 3.1: the amounts reachable only by cumulation.
	if m := regexp.MustCompile(`Les montants de ([^.]*?) indiqués dans le tableau ci-dessus ne sont accessibles qu'en cumulant`).FindStringSubmatch(text); m == nil {
		t.Error("3.1 cumulation sentence not found")
	} else if got := amountsIn(t, m[1]); !slices.Equal(got, d.PackCumulationOnly) {
		t.Errorf("3.1 cumulation-only %v, règlement %v", d.PackCumulationOnly, got)
	}
	// 3.2: winners per pack and minimum.
	if !strings.Contains(text, "Un pack comporte 1, 2, 3, 4, 5 ou 7 ticket(s) gagnant(s)") ||
		!slices.Equal(d.WinnersPerPack, []int{1, 2, 3, 4, 5, 7}) {
		t.Errorf("3.2 winners per pack %v", d.WinnersPerPack)
	}
	if !strings.Contains(text, "montant minimum de 3 euros") || d.PackMinimum != Euros(3) {
		t.Errorf("3.2 minimum %v", d.PackMinimum)
	}
	// 4.6.2, 4.7.2, 4.8.2: the "only by" lots of games 5, 6, 7.
	only := map[int]struct {
		re   string
		mult bool
	}{
		5: {`Le lot de ([\d ]+ €) n'est accessible qu'en multipliant`, true},
		6: {`Le lot de ([\d ]+ €) n'est accessible qu'en cumulant`, false},
		7: {`Les lots de ([^.]*?) ne sont accessibles qu'en cumulant`, false},
	}
	for _, g := range d.Games {
		o, ok := only[g.Number]
		if !ok {
			if len(g.MultiplicationOnly)+len(g.CumulationOnly) > 0 {
				t.Errorf("game %d has \"only by\" lots the règlement does not give", g.Number)
			}
			continue
		}
		m := regexp.MustCompile(o.re).FindStringSubmatch(text)
		if m == nil {
			t.Fatalf("game %d: \"only by\" sentence not found", g.Number)
		}
		got, other := g.CumulationOnly, g.MultiplicationOnly
		if o.mult {
			got, other = other, got
		}
		if want := amountsIn(t, m[1]); !slices.Equal(got, want) || len(other) > 0 {
			t.Errorf("game %d: \"only by\" %v / %v, règlement %v", g.Number, got, other, want)
		}
	}
	// 4.1 to 4.9: the games' names, in order.
	for _, g := range d.Games {
		if !strings.Contains(text, "« "+g.Name+" »") {
			t.Errorf("game %d: name %q not in the règlement", g.Number, g.Name)
		}
	}
}

func amountsIn(t *testing.T, s string) []Cents {
	var out []Cents
	for _, m := range regexp.MustCompile(`(\d[\d ]*?)\s*€`).FindAllStringSubmatch(s, -1) {
		out = append(out, euros(t, m[1]))
	}
	return out
}

// TestTotalsRederived re-derives every TOTAL column, every table's count and total, the
// per-game totals and their sum, independently of Validate.
func TestTotalsRederived(t *testing.T) {
	d := Reglement()
	sum := func(tiers []Tier) (int, Cents) {
		n, s := 0, Cents(0)
		for _, x := range tiers {
			if x.Amount*Cents(x.Count) != x.Total {
				t.Errorf("%d × %v ≠ %v", x.Count, x.Amount, x.Total)
			}
			n += x.Count
			s += x.Amount * Cents(x.Count)
		}
		return n, s
	}
	n, s := sum(d.PackTable)
	if n != 1_500_000 || s != Euros(11_250_140) || n != d.PackTotalCount || s != d.PackTotal {
		t.Errorf("pack table: %d lots, %v", n, s)
	}
	wantGames := []Cents{Euros(878_100), Euros(873_500), Euros(861_100), Euros(1_603_300),
		Euros(1_663_500), Euros(1_627_100), Euros(2_800_640), Euros(942_900)}
	var all Cents
	for i, g := range d.Games {
		n, s := sum(g.Tiers)
		if n != g.TotalCount || s != g.Total || s != wantGames[i] {
			t.Errorf("game %d: %d lots, %v (stated %d, %v)", g.Number, n, s, g.TotalCount, g.Total)
		}
		all += s
	}
	if all != Euros(11_250_140) || all != s {
		t.Errorf("the games add up to %v, the pack table to %v", all, s)
	}
}

// TestTopPackIsTheTopOfGames1To7 checks a consequence of 3.1 and 3.2 used by the block
// generator: a 100,000 € pack can only be the top prizes of games 1–7 together (7 winners),
// and the 500 € and 200 € lots only fit in 1,000 € packs.
func TestTopPackIsTheTopOfGames1To7(t *testing.T) {
	d := Reglement()
	packAmounts := map[Cents]bool{}
	for _, x := range d.PackTable {
		packAmounts[x.Amount] = true
	}
	var found [][]Cents
	var rec func(g int, sum Cents, winners int, lots []Cents)
	rec = func(g int, sum Cents, winners int, lots []Cents) {
		if g == len(d.Games) {
			if packAmounts[sum] && slices.Contains(d.WinnersPerPack, winners) {
				for _, l := range lots {
					if (l == Euros(500) || l == Euros(200)) && sum != Euros(1000) {
						t.Errorf("a %v lot fits a %v pack: %v", l, sum, lots)
					}
				}
				if sum == Euros(100_000) {
					found = append(found, slices.Clone(lots))
				}
			}
			return
		}
		rec(g+1, sum, winners, append(lots, 0))
		for _, x := range d.Games[g].Tiers {
			if sum+x.Amount <= Euros(100_000) {
				rec(g+1, sum+x.Amount, winners+1, append(lots, x.Amount))
			}
		}
	}
	if testing.Short() {
		t.Skip("exhaustive enumeration of pack compositions skipped in -short mode")
	}
	rec(0, 0, 0, nil)
	want := []Cents{Euros(1000), Euros(2000), Euros(2000), Euros(10_000), Euros(15_000), Euros(20_000), Euros(50_000), 0}
	if len(found) != 1 || !slices.Equal(found[0], want) {
		t.Errorf("100,000 € packs: %v, want only %v", found, want)
	}
}
