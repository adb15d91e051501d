package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/packterm/pos/validate/game"
)

func TestGameShowJSON(t *testing.T) {
	out, err := run(t, "game", "show", "--json")
	if err != nil {
		t.Fatal(err)
	}
	d, err := game.ParseJSON([]byte(out))
	if err != nil {
		t.Fatalf("posctl game show --json is not a valid definition: %v", err)
	}
	want, _ := json.Marshal(game.Reglement())
	got, _ := json.Marshal(d)
	if !bytes.Equal(got, want) {
		t.Fatal("posctl game show --json differs from the règlement")
	}
}

func TestGameShowTables(t *testing.T) {
	out, err := run(t, "game", "show", "--json=false")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"473 380  lots de             3 €   1 420 140 €", "11 250 140 €", "« La soirée privée »", "Accessible seulement par multiplication : 15 000 €"} {
		if !strings.Contains(out, want) {
			t.Errorf("game show lacks %q", want)
		}
	}
}

func TestGamePlay(t *testing.T) {
	out, err := run(t, "game", "play", "7", "50", "--seed", "3", "--compact")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"« La soirée privée »", "La piscine party", "Résultat : gagnant, 50 €", "Forme compacte : "} {
		if !strings.Contains(out, want) {
			t.Errorf("game play lacks %q:\n%s", want, out)
		}
	}
	again, _ := run(t, "game", "play", "7", "50", "--seed", "3", "--compact")
	if again != out {
		t.Error("same seed, different play")
	}
	if out, _ := run(t, "game", "play", "5", "0", "--seed", "1"); !strings.Contains(out, "Résultat : perdant") {
		t.Errorf("losing play: %s", out)
	}
	for _, bad := range [][]string{{"game", "play", "9", "1"}, {"game", "play", "5", "15"}, {"game", "play", "x", "1"}, {"game", "play", "1", "abc"}} {
		if _, err := run(t, bad...); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
}

// game play says which zones make up the lot, for every game.
func TestGamePlayNamesTheWinningZones(t *testing.T) {
	for _, c := range []struct{ game, lot, want string }{
		{"1", "30", "la zone à gratter « Grattez ici » (4.2.4) : la somme de 30 € → 30 €"},
		{"2", "100", "le mot « BULLE » et sa somme → 100 €"},
		{"3", "10", "(4.4.5) : deux symboles « "},
		{"4", "20", "(4.5.5) : trois symboles « "},
		{"5", "15000", "multiplié par "},
		{"6", "20000", "la 2e surface de jeu, la plaque (4.7.4) : un symbole « téléviseur » → 5 000 €"},
		{"7", "50000", "la 3e surface « La piscine party » (4.8.5) : 6 symboles « personnage » → 15 000 €"},
		{"8", "10", "le mot « JET7 » et sa somme → 10 €"},
	} {
		out, err := run(t, "game", "play", c.game, c.lot, "--seed", "4")
		if err != nil {
			t.Fatalf("game %s: %v", c.game, err)
		}
		if !strings.Contains(out, "Le lot est formé de :\n") || !strings.Contains(out, c.want) {
			t.Errorf("game play %s %s lacks %q:\n%s", c.game, c.lot, c.want, out)
		}
	}
	if out, _ := run(t, "game", "play", "5", "0", "--seed", "1"); strings.Contains(out, "formé de") {
		t.Errorf("a losing play names winning zones:\n%s", out)
	}
}

// TestGameLotGrammar: posctl reads a lot with the grammar of the configuration (money.Parse):
// a decimal comma and grouped thousands are read, a dot is refused as the config refuses it.
func TestGameLotGrammar(t *testing.T) {
	for s, want := range map[string]int64{"50": 50_00, "2,50": 2_50, "15 000": 15_000_00, "30 €": 30_00} {
		if got, err := parseEurosArg(s); err != nil || int64(got) != want {
			t.Errorf("parseEurosArg(%q) = %d, %v; want %d", s, got, err, want)
		}
	}
	for _, s := range []string{"1.50", "2.5", "-5", "10000001", "abc"} {
		if got, err := parseEurosArg(s); err == nil {
			t.Errorf("parseEurosArg(%q) = %d, want an error", s, got)
		}
	}
	if _, err := run(t, "game", "play", "7", "1.50"); err == nil || !strings.Contains(err.Error(), "dot") {
		t.Errorf("game play 7 1.50: %v, want the dot refused", err)
	}
}
