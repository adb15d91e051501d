package game

import (
	"slices"
	"strings"
	"testing"
)

// Every generated winning play of every lot of every game names its winning zones: they
// add up to the lot, cite the game's article, and a losing play names none.
func TestWinsMakeUpTheLot(t *testing.T) {
	d := Reglement()
	r := testRand(9)
	for _, g := range d.Games {
		lots := []Cents{0}
		for _, x := range g.Tiers {
			lots = append(lots, x.Amount)
		}
		for _, lot := range lots {
			for range 50 {
				p, err := d.Generate(r, g.Number, lot)
				if err != nil {
					t.Fatal(err)
				}
				ws, err := d.Wins(p)
				if err != nil {
					t.Fatalf("game %d, %s: %v", g.Number, EncodePlay(p), err)
				}
				if (lot == 0) != (len(ws) == 0) {
					t.Fatalf("game %d, lot %v, %s: wins %v", g.Number, lot, EncodePlay(p), ws)
				}
				var sum Cents
				for _, w := range ws {
					sum += w.Lot
					if !strings.HasPrefix(w.Article, g.Article+".") || w.Zone == "" || w.Found == "" || w.Lot <= 0 {
						t.Fatalf("game %d (article %s), %s: win %+v", g.Number, g.Article, EncodePlay(p), w)
					}
				}
				if sum != lot {
					t.Fatalf("game %d, %s: wins add up to %v, lot %v", g.Number, EncodePlay(p), sum, lot)
				}
				// "Only by adding" lots (4.7.2, 4.8.2) come from several surfaces.
				if slices.Contains(g.CumulationOnly, lot) && len(ws) < 2 {
					t.Fatalf("game %d, %s: %v from one surface: %v", g.Number, EncodePlay(p), lot, ws)
				}
			}
		}
	}
}

// One play per game, as a person would read the winning zones.
func TestWinsNameTheZones(t *testing.T) {
	d := Reglement()
	for _, c := range []struct {
		game int
		play string
		want []string
	}{
		{1, "30", []string{"la zone à gratter « Grattez ici » (4.2.4) : la somme de 30 € → 30 €"}},
		{2, "BULLE:30", []string{"la zone à gratter « Grattez ici » (4.3.4) : le mot « BULLE » et sa somme → 30 €"}},
		{3, "PS,PS|10", []string{"« Grattez ici » et « Gain » (4.4.5) : deux symboles « parasol » identiques, la somme du Gain → 10 €"}},
		{4, "SM,SM,SM|20", []string{"« Grattez ici, ici et là » et « Gain » (4.5.5) : trois symboles « sac à main » identiques, la somme du Gain → 20 €"}},
		{5, "AP,MI,AP|5000|x3a", []string{"1re phase « Grattez ici, ici et là » et « Gain », 2e phase les magazines (4.6.3.3, 4.6.4) : " +
			"deux symboles « appareil photo », Gain de 5 000 €, multiplié par 3 (2e phase) → 15 000 €"}},
		{6, "TP:15000,CH:5,GA:50|TV", []string{
			"la 1re surface de jeu (4.7.3) : un symbole « tête de personnage » et sa somme → 15 000 €",
			"la 2e surface de jeu, la plaque (4.7.4) : un symbole « téléviseur » → 5 000 €"}},
		{7, "VIP:15000|BG:3,CS:6,LA:30|PE,PE,PE,PE,PE,PE|3+4:5000|x4a", []string{
			"la 1re surface « L'invitation » (4.8.3) : le mot « VIP » et sa somme → 15 000 €",
			"la 3e surface « La piscine party » (4.8.5) : 6 symboles « personnage » → 15 000 €",
			"la 4e surface « La star des DJ » (4.8.6.2, 4.8.6.3) : disques d'or 3 + 4 = 7, Gain de 5 000 €, multiplié par 4 (2e phase) → 20 000 €"}},
		{7, "VIE:20|BG:3,VC:6,VC:3|PE,BU,BA,CN,VG,VG|2+4:10|x1a", []string{
			"la 2e surface « Le coin cosy » (4.8.4) : 2 symboles « verre à cocktail » : 6 € + 3 € → 9 €"}},
		{8, "JET7:10", []string{"la zone à gratter « Grattez ici » (4.9.4) : le mot « JET7 » et sa somme → 10 €"}},
	} {
		p, err := ParsePlay(c.game, c.play)
		if err != nil {
			t.Fatal(err)
		}
		ws, err := d.Wins(p)
		if err != nil {
			t.Fatalf("game %d, %s: %v", c.game, c.play, err)
		}
		var got []string
		for _, w := range ws {
			got = append(got, w.String())
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("game %d, %s:\n got %q\nwant %q", c.game, c.play, got, c.want)
		}
	}
}

// A play the règlement does not allow gets Evaluate's error, not a list of wins.
func TestWinsOfAnInvalidPlay(t *testing.T) {
	p, err := ParsePlay(7, "VIP:20|VC:3,BG:6,VC:30|PE,PE,BU,BA,PE,VG|3+4:10|x2a") // 103 €: no lot of game 7
	if err != nil {
		t.Fatal(err)
	}
	if ws, err := Reglement().Wins(p); ws != nil || err == nil {
		t.Fatalf("wins %v, error %v", ws, err)
	} else if _, ok := err.(*PlayError); !ok {
		t.Fatalf("error %v, want a *PlayError", err)
	}
}
