package settle

import (
	"testing"

	"github.com/packterm/pos/internal/testblock"
	"github.com/packterm/pos/validate/block"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/game"
)

// testDefinition is the eight-pack test game with 2 € winners (internal/testblock).
const testDefinition = testblock.TwoEuroDefinition

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
