package game

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func testRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x5eed)) }

func playsPerTier() int {
	if testing.Short() {
		return 200
	}
	return 3000
}

// TestGeneratedPlaysEvaluateToTheirLot: for every tier of every game (and for losing
// plays), generated plays evaluate back to exactly their lot, read back from their compact
// form unchanged, and show only amounts their zone may show.
func TestGeneratedPlaysEvaluateToTheirLot(t *testing.T) {
	d := Reglement()
	r := testRand(1)
	for _, g := range d.Games {
		lots := []Cents{0}
		for _, x := range g.Tiers {
			lots = append(lots, x.Amount)
		}
		for _, lot := range lots {
			for i := 0; i < playsPerTier(); i++ {
				p, err := d.Generate(r, g.Number, lot)
				if err != nil {
					t.Fatalf("game %d lot %v: %v", g.Number, lot, err)
				}
				if p.Game() != g.Number {
					t.Fatalf("game %d: generated a play of game %d", g.Number, p.Game())
				}
				got, err := d.Evaluate(p)
				if err != nil || got != lot {
					t.Fatalf("game %d: play %s for lot %v evaluates to %v, %v", g.Number, EncodePlay(p), lot, got, err)
				}
				enc := EncodePlay(p)
				q, err := ParsePlay(g.Number, enc)
				if err != nil || q != p {
					t.Fatalf("game %d: %s reads back as %#v, %v", g.Number, enc, q, err)
				}
				checkShownAmounts(t, g, p)
			}
		}
	}
}

// checkShownAmounts: the amounts under each zone are amounts that zone shows (the table
// for games 1–4 and 8, the play model's sets for the others).
func checkShownAmounts(t *testing.T, g Game, p Play) {
	t.Helper()
	in := func(set []int64, c Cents) bool { return c%100 == 0 && slices.Contains(set, int64(c/100)) }
	bad := func(c Cents) { t.Fatalf("game %d: %s shows %v, not an amount of its zone", g.Number, EncodePlay(p), c) }
	switch p := p.(type) {
	case CaviarPlay:
		if p.Amount != 0 && !g.HasLot(p.Amount) {
			bad(p.Amount)
		}
	case JacuzziPlay:
		if !g.HasLot(p.Amount) {
			bad(p.Amount)
		}
	case FarnientePlay:
		if !g.HasLot(p.Gain) {
			bad(p.Gain)
		}
	case ShoppingPlay:
		if !g.HasLot(p.Gain) {
			bad(p.Gain)
		}
	case PaparazziPlay:
		if !in(paparazziGains, p.Gain) || p.Gain == Euros(15_000) {
			bad(p.Gain)
		}
	case LimousinePlay:
		for _, a := range p.Amounts {
			if !in(limousineAmounts, a) || a == Euros(20_000) {
				bad(a)
			}
		}
	case SoireePlay:
		if !in(soireeWordAmounts, p.WordAmount) {
			bad(p.WordAmount)
		}
		for _, a := range p.TableAmounts {
			if !in(soireeTableAmounts, a) {
				bad(a)
			}
		}
		if !in(soireeDJGains, p.DJGain) {
			bad(p.DJGain)
		}
	case YachtPlay:
		if p.Amount != 0 && !g.HasLot(p.Amount) {
			bad(p.Amount)
		}
	default:
		t.Fatalf("unknown play type %T", p)
	}
}

// TestOnlyByRulesInGeneratedPlays: the "only by" lots come out the one way the règlement
// allows, with variety in how they are reached.
func TestOnlyByRulesInGeneratedPlays(t *testing.T) {
	d := Reglement()
	r := testRand(2)
	for i := 0; i < playsPerTier(); i++ {
		// 4.6.2: 15,000 € only by multiplying the phase-1 gain.
		p, _ := d.Generate(r, 5, Euros(15_000))
		if pp := p.(PaparazziPlay); paparazziSentences[pp.Sentence].mult < 2 {
			t.Fatalf("4.6.2: 15000 € without a multiplier: %s", EncodePlay(p))
		}
		// 4.7.2: 20,000 € only as surface 1 + surface 2.
		p, _ = d.Generate(r, 6, Euros(20_000))
		if o, _ := p.outcome(d.Game(6)); o.surfaces != 2 {
			t.Fatalf("4.7.2: 20000 € from %d surfaces: %s", o.surfaces, EncodePlay(p))
		}
		// 4.8.2: 50,000 € and 50 € only as a sum of surfaces.
		for _, lot := range []Cents{Euros(50_000), Euros(50)} {
			p, _ = d.Generate(r, 7, lot)
			if o, _ := p.outcome(d.Game(7)); o.surfaces < 2 {
				t.Fatalf("4.8.2: %v from %d surface: %s", lot, o.surfaces, EncodePlay(p))
			}
		}
	}
	// Every lot of games 5–7 is reachable several ways where the play model offers them.
	seen := map[string]bool{}
	for i := 0; i < 500; i++ {
		p, _ := d.Generate(r, 7, Euros(6))
		o, _ := p.outcome(d.Game(7))
		seen[string(rune('0'+o.surfaces))+"/"+string(rune('0'+o.mult))] = true
	}
	if len(seen) < 3 {
		t.Errorf("game 7, 6 €: only %d shapes of winning play: %v", len(seen), seen)
	}
}

// TestLosingPlaysAreNearMisses: losing plays look like real tickets that nearly won.
func TestLosingPlaysAreNearMisses(t *testing.T) {
	d := Reglement()
	r := testRand(3)
	const n = 4000
	var shopPair, paparazziOne, poolOne, dj68, words int
	for i := 0; i < n; i++ {
		p, _ := d.Generate(r, 4, 0)
		sp := p.(ShoppingPlay)
		if sp.Symbols[0] == sp.Symbols[1] || sp.Symbols[1] == sp.Symbols[2] || sp.Symbols[0] == sp.Symbols[2] {
			shopPair++
		}
		p, _ = d.Generate(r, 5, 0)
		pp := p.(PaparazziPlay)
		cams := 0
		for _, s := range pp.Symbols {
			if s == winning {
				cams++
			}
		}
		if cams >= 2 {
			t.Fatalf("game 5 loser with %d cameras: %s", cams, EncodePlay(p))
		}
		paparazziOne += cams
		p, _ = d.Generate(r, 7, 0)
		so := p.(SoireePlay)
		if sum := so.Digits[0] + so.Digits[1]; sum == 6 || sum == 8 {
			dj68++
		} else if sum == 7 {
			t.Fatalf("game 7 loser with digits adding up to 7: %s", EncodePlay(p))
		}
		if slices.Contains(so.Pool[:], winning) {
			poolOne++
		}
		p, _ = d.Generate(r, 2, 0)
		if jp := p.(JacuzziPlay); jp.Word == winning {
			t.Fatalf("game 2 loser shows BULLE")
		} else {
			words++
		}
	}
	for _, c := range []struct {
		what  string
		count int
		min   float64
	}{
		{"4.5 losers with two identical symbols", shopPair, 0.6},
		{"4.6 losers with one appareil photo", paparazziOne, 0.5},
		{"4.8.6 losers with digits adding up to 6 or 8", dj68, 0.6},
		{"4.8.5 losers with one personnage", poolOne, 0.3},
	} {
		if f := float64(c.count) / n; f < c.min {
			t.Errorf("%s: %.0f%%, want at least %.0f%%", c.what, 100*f, 100*c.min)
		}
	}
	if words != n {
		t.Errorf("game 2: %d of %d losers", words, n)
	}
}

func TestGenerateRejectsLotsOutsideTheTable(t *testing.T) {
	d := Reglement()
	r := testRand(4)
	for _, c := range []struct {
		game int
		lot  Cents
	}{{1, Euros(3)}, {5, Euros(5000)}, {6, Euros(5000)}, {7, Euros(15_000)}, {8, Euros(1000)}, {9, Euros(1)}, {0, 0}} {
		if p, err := d.Generate(r, c.game, c.lot); err == nil {
			t.Errorf("game %d lot %v: generated %s", c.game, c.lot, EncodePlay(p))
		}
	}
}

func TestGenerateIsReproducible(t *testing.T) {
	d := Reglement()
	a, b := testRand(99), testRand(99)
	for i := 0; i < 1000; i++ {
		g := 1 + i%8
		lot := d.Game(g).Tiers[i%len(d.Game(g).Tiers)].Amount
		p, _ := d.Generate(a, g, lot)
		q, _ := d.Generate(b, g, lot)
		if p != q {
			t.Fatalf("same seed, different plays: %s vs %s", EncodePlay(p), EncodePlay(q))
		}
	}
}

func TestDescribeNamesEveryZone(t *testing.T) {
	d := Reglement()
	r := testRand(5)
	wantLines := map[int]int{1: 1, 2: 1, 3: 2, 4: 2, 5: 3, 6: 2, 7: 5, 8: 1}
	for n, want := range wantLines {
		p, _ := d.Generate(r, n, d.Game(n).Tiers[0].Amount)
		lines := p.Describe()
		if len(lines) != want {
			t.Errorf("game %d: %d lines, want %d: %q", n, len(lines), want, lines)
		}
		for _, l := range lines {
			if len(l) < 10 || slices.Contains([]rune(l), '?') {
				t.Errorf("game %d: line %q", n, l)
			}
		}
	}
}
