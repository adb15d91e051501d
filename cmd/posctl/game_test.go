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
