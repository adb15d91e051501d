package game

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestReglementJSONShape(t *testing.T) {
	b, err := json.Marshal(Reglement())
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		PackPrice  int64 `json:"pack_price_cents"`
		BlockPacks int   `json:"block_packs"`
		PackTable  []struct {
			Amount int64 `json:"amount_cents"`
			Count  int   `json:"count"`
		} `json:"pack_table"`
		Games []struct {
			Number int    `json:"number"`
			Name   string `json:"name"`
			Tiers  []struct {
				Amount int64 `json:"amount_cents"`
				Count  int   `json:"count"`
			} `json:"tiers"`
		} `json:"games"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	if v.PackPrice != 1000 || v.BlockPacks != 1_500_000 || len(v.PackTable) != 10 || len(v.Games) != 8 {
		t.Fatalf("shape: %+v", v)
	}
	if v.PackTable[0].Amount != 10_000_000 || v.PackTable[0].Count != 2 || v.PackTable[9].Amount != 300 || v.PackTable[9].Count != 473_380 {
		t.Errorf("pack table: %+v", v.PackTable)
	}
	if g := v.Games[0]; g.Number != 1 || g.Name != "Le p'tit dej au caviar" || g.Tiers[0].Amount != 100_000 || g.Tiers[0].Count != 2 {
		t.Errorf("game 1: %+v", g)
	}
	if g := v.Games[6]; g.Number != 7 || g.Name != "La soirée privée" || g.Tiers[8].Amount != 300 || g.Tiers[8].Count != 350_380 {
		t.Errorf("game 7: %+v", g)
	}
	// Its own JSON form reads back to the same definition.
	d, err := ParseJSON(b)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := json.Marshal(d)
	if string(c) != string(b) {
		t.Error("ParseJSON(Marshal(d)) differs from d")
	}
}

// TestValidateRejects: every kind of inconsistency in a source file is refused with a
// reason, and the embedded definition is left as it was.
func TestValidateRejects(t *testing.T) {
	src := string(ReglementSource())
	before, _ := json.Marshal(Reglement())
	for _, c := range []struct {
		name, from, to, want string
	}{
		{"a TOTAL column", `"count": 18,     "amount_eur": 1000,   "total_eur": 18000`, `"count": 18,     "amount_eur": 1000,   "total_eur": 18001`, "the TOTAL column says"},
		{"a count", `"count": 1000,   "amount_eur": 100,    "total_eur": 100000`, `"count": 1001,   "amount_eur": 100,    "total_eur": 100100`, "lots add up to"},
		{"a game total", `"total_count": 288784, "total_eur": 942900`, `"total_count": 288784, "total_eur": 942901`, "TOTAL column adds up"},
		{"games against pack table", `"count": 4,      "amount_eur": 100, "total_eur": 400}`, `"count": 5,      "amount_eur": 100, "total_eur": 500}`, "lots add up to"},
		{"order of amounts", `{"count": 2,      "amount_eur": 1000, "total_eur": 2000},`, `{"count": 2,      "amount_eur": 1, "total_eur": 2},`, "strictly decrease"},
		{"winners per pack", `"winners_per_pack": [1, 2, 3, 4, 5, 7]`, `"winners_per_pack": [1, 2, 3, 4, 5, 9]`, "winners per pack"},
		{"an only-by amount", `"cumulation_only_eur": [20000]`, `"cumulation_only_eur": [25000]`, "not a lot of the table"},
		{"a game number", `"number": 3, "article": "4.4"`, `"number": 4, "article": "4.4"`, "numbered 4"},
		{"block size", `"block_packs": 1500000`, `"block_packs": 1400000`, "every pack must win"},
		{"an unknown field", `"min_eur": 3`, `"min_eur": 3, "bonus": 1`, "unknown field"},
		{"a negative amount", `"pack_price_eur": 10`, `"pack_price_eur": -10`, "out of range"},
		{"trailing data", "", "", "trailing data"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := strings.Replace(src, c.from, c.to, 1)
			if c.from == "" {
				s = src + "{}"
			} else if s == src {
				t.Fatalf("test case does not apply: %q not in the source", c.from)
			}
			_, err := ParseSource([]byte(s))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want an error saying %q", err, c.want)
			}
		})
	}
	after, _ := json.Marshal(Reglement())
	if string(before) != string(after) {
		t.Fatal("a rejected file changed the embedded definition")
	}
}

func TestCloneIsDeep(t *testing.T) {
	c := Reglement().Clone()
	c.Games[0].Tiers[0].Count = 7
	c.PackTable[0].Count = 7
	if Reglement().Games[0].Tiers[0].Count != 2 || Reglement().PackTable[0].Count != 2 {
		t.Fatal("Clone shares tables with the original")
	}
}
