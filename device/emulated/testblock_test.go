package emulated

import (
	"context"
	"path/filepath"
	"sync"
	"testing"

	"github.com/packterm/pos/validate/block"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/game"
	"github.com/packterm/pos/validate/ledger"
)

// tinyDefinition is a feasible eight-pack game: one winning ticket per pack, lots of 3, 5, 10
// and 30 €.
const tinyDefinition = `{
  "source": "test", "comment": "eight packs", "pack_price_eur": 10, "block_packs": 8, "tickets_per_pack": 8,
  "pack": {"article": "3.1",
    "tiers": [{"count": 1, "amount_eur": 30, "total_eur": 30}, {"count": 1, "amount_eur": 10, "total_eur": 10},
              {"count": 5, "amount_eur": 5, "total_eur": 25}, {"count": 1, "amount_eur": 3, "total_eur": 3}],
    "total_count": 8, "total_eur": 68, "cumulation_only_eur": [], "winners_per_pack": [1, 2, 3, 4, 5, 7], "min_eur": 3},
  "games": [
    {"number": 1, "article": "4.2", "name": "Le p'tit dej au caviar", "tiers": [{"count": 1, "amount_eur": 5, "total_eur": 5}], "total_count": 1, "total_eur": 5},
    {"number": 2, "article": "4.3", "name": "Buller dans mon jacuzzi", "tiers": [{"count": 1, "amount_eur": 5, "total_eur": 5}], "total_count": 1, "total_eur": 5},
    {"number": 3, "article": "4.4", "name": "La pause farniente", "tiers": [{"count": 1, "amount_eur": 10, "total_eur": 10}], "total_count": 1, "total_eur": 10},
    {"number": 4, "article": "4.5", "name": "La virée shopping", "tiers": [{"count": 1, "amount_eur": 5, "total_eur": 5}], "total_count": 1, "total_eur": 5},
    {"number": 5, "article": "4.6", "name": "Jouer avec les paparazzi", "tiers": [{"count": 1, "amount_eur": 30, "total_eur": 30}], "total_count": 1, "total_eur": 30},
    {"number": 6, "article": "4.7", "name": "La sortie en limousine", "tiers": [{"count": 1, "amount_eur": 5, "total_eur": 5}], "total_count": 1, "total_eur": 5},
    {"number": 7, "article": "4.8", "name": "La soirée privée", "tiers": [{"count": 1, "amount_eur": 3, "total_eur": 3}], "total_count": 1, "total_eur": 3},
    {"number": 8, "article": "4.9", "name": "Bonus, l'after sur le yacht", "tiers": [{"count": 1, "amount_eur": 5, "total_eur": 5}], "total_count": 1, "total_eur": 5}
  ]
}`

// testBlock is a generated small block: its ledger, key and every ticket's code and lot.
type testBlock struct {
	dir     string
	ledger  *ledger.Ledger
	trust   *ledger.TrustStore
	key     string // operator private key file
	tickets map[codes.TicketID]block.Ticket
}

const testBlockNumber = 7

func newTestBlock(t testing.TB) *testBlock {
	t.Helper()
	def, err := game.ParseSource([]byte(tinyDefinition))
	if err != nil {
		t.Fatal(err)
	}
	tb := &testBlock{dir: t.TempDir(), tickets: map[codes.TicketID]block.Ticket{}}
	var mu sync.Mutex
	err = GenerateBlock(context.Background(), tb.dir, def, testBlockNumber, block.Seed{7}, func(tk *block.Ticket) {
		mu.Lock()
		tb.tickets[tk.ID] = *tk
		mu.Unlock()
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	d := demoPaths(tb.dir, testBlockNumber)
	if tb.trust, err = ledger.LoadTrustStore(d.Pub); err != nil {
		t.Fatal(err)
	}
	if tb.ledger, err = ledger.OpenFile(d.Ledger, tb.trust); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tb.ledger.Close() })
	tb.key = filepath.Join(tb.dir, "keys", ledger.OperatorPrivateFile)
	return tb
}

// code is the validation code of a ticket.
func (tb *testBlock) code(id codes.TicketID) string {
	return codes.ValidationCodeOf(id, tb.tickets[id].Secret).String()
}

// find returns a ticket matching f, not in skip packs.
func (tb *testBlock) find(t testing.TB, f func(block.Ticket) bool) codes.TicketID {
	t.Helper()
	for pack := uint32(0); pack < 8; pack++ {
		for pos := uint8(1); pos <= 8; pos++ {
			id := codes.TicketID{Block: testBlockNumber, Pack: pack, Position: pos}
			if f(tb.tickets[id]) {
				return id
			}
		}
	}
	t.Fatal("no such ticket in the test block")
	return codes.TicketID{}
}
