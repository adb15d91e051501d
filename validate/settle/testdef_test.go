package settle

import (
	"testing"

	"github.com/packterm/pos/validate/block"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/game"
)

// testDefinition is a feasible eight-pack game with 2 € winners (game 1), losers in
// every pack, and lots of 1 to 10 €: small enough that its plan builds in milliseconds.
const testDefinition = `{
  "source": "test", "comment": "eight packs, 2 EUR winners", "pack_price_eur": 10, "block_packs": 8, "tickets_per_pack": 8,
  "pack": {"article": "3.1",
    "tiers": [{"count": 1, "amount_eur": 10, "total_eur": 10}, {"count": 4, "amount_eur": 5, "total_eur": 20},
              {"count": 3, "amount_eur": 3, "total_eur": 9}],
    "total_count": 8, "total_eur": 39, "cumulation_only_eur": [], "winners_per_pack": [1, 2, 3, 4, 5, 7], "min_eur": 3},
  "games": [
    {"number": 1, "article": "4.2", "name": "Le p'tit dej au caviar", "tiers": [{"count": 1, "amount_eur": 5, "total_eur": 5}, {"count": 3, "amount_eur": 2, "total_eur": 6}], "total_count": 4, "total_eur": 11},
    {"number": 2, "article": "4.3", "name": "Buller dans mon jacuzzi", "tiers": [{"count": 2, "amount_eur": 1, "total_eur": 2}], "total_count": 2, "total_eur": 2},
    {"number": 3, "article": "4.4", "name": "La pause farniente", "tiers": [{"count": 1, "amount_eur": 2, "total_eur": 2}, {"count": 1, "amount_eur": 1, "total_eur": 1}], "total_count": 2, "total_eur": 3},
    {"number": 4, "article": "4.5", "name": "La virée shopping", "tiers": [{"count": 1, "amount_eur": 5, "total_eur": 5}], "total_count": 1, "total_eur": 5},
    {"number": 5, "article": "4.6", "name": "Jouer avec les paparazzi", "tiers": [{"count": 1, "amount_eur": 4, "total_eur": 4}], "total_count": 1, "total_eur": 4},
    {"number": 6, "article": "4.7", "name": "La sortie en limousine", "tiers": [{"count": 1, "amount_eur": 10, "total_eur": 10}], "total_count": 1, "total_eur": 10},
    {"number": 7, "article": "4.8", "name": "La soirée privée", "tiers": [{"count": 1, "amount_eur": 3, "total_eur": 3}], "total_count": 1, "total_eur": 3},
    {"number": 8, "article": "4.9", "name": "Bonus, l'after sur le yacht", "tiers": [{"count": 1, "amount_eur": 1, "total_eur": 1}], "total_count": 1, "total_eur": 1}
  ]
}`

// testBlock is block 7 of testDefinition made from seed: its plan, and the tickets the
// tests pay (a 2 € winner, a loser, any winner), found from the plan.
type testBlock struct {
	def                *game.Definition
	plan               *block.Plan
	two, loser, winner codes.TicketID
}

func newTestBlock(t testing.TB) *testBlock {
	t.Helper()
	def, err := game.ParseSource([]byte(testDefinition))
	if err != nil {
		t.Fatal(err)
	}
	p, err := block.NewPlan(def, 7, seed)
	if err != nil {
		t.Fatal(err)
	}
	tb := &testBlock{def: def, plan: p}
	for pack := range def.BlockPacks {
		for pos := 1; pos <= 8; pos++ {
			id := codes.TicketID{Block: 7, Pack: uint32(pack), Position: uint8(pos)}
			_, lot, _ := p.Prize(id)
			switch {
			case lot == game.Euros(2) && tb.two.Block == 0:
				tb.two = id
			case lot == 0 && tb.loser.Block == 0:
				tb.loser = id
			case lot > game.Euros(2) && tb.winner.Block == 0:
				tb.winner = id
			}
		}
	}
	if tb.two.Block == 0 || tb.loser.Block == 0 || tb.winner.Block == 0 {
		t.Fatalf("test block lacks a ticket: %+v", tb)
	}
	return tb
}

func (tb *testBlock) prize(id codes.TicketID) int64 {
	_, lot, _ := tb.plan.Prize(id)
	return int64(lot)
}

func (tb *testBlock) truth(t testing.TB) *Truth {
	t.Helper()
	tr, err := NewTruth(Block{Manifest: Manifest{Block: 7, Seed: seed, Packs: 8, Patterns: len(tb.plan.Design.Patterns),
		DefinitionSHA256: block.DefinitionSHA256(tb.def)}, Def: tb.def})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}
