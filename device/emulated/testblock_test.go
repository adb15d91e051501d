package emulated

import (
	"context"
	"path/filepath"
	"sync"
	"testing"

	"github.com/packterm/pos/internal/testblock"
	"github.com/packterm/pos/validate/block"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/game"
	"github.com/packterm/pos/validate/ledger"
)

// tinyDefinition is the shared test game of eight packs (internal/testblock).
const tinyDefinition = testblock.Definition

// testBlock is a generated small block: its ledger, key and every ticket's code and lot.
type testBlock struct {
	dir     string
	ledger  *ledger.Ledger
	trust   *ledger.TrustStore
	key     string // operator private key file
	number  uint16
	tickets map[codes.TicketID]block.Ticket
}

const testBlockNumber = 7

func newTestBlock(t testing.TB) *testBlock {
	t.Helper()
	return newTestBlockOf(t, testBlockNumber)
}

// newTestBlockOf generates block number (its own operator key).
func newTestBlockOf(t testing.TB, number uint16) *testBlock {
	t.Helper()
	def, err := game.ParseSource([]byte(tinyDefinition))
	if err != nil {
		t.Fatal(err)
	}
	tb := &testBlock{dir: t.TempDir(), number: number, tickets: map[codes.TicketID]block.Ticket{}}
	var mu sync.Mutex
	err = GenerateBlock(context.Background(), tb.dir, def, number, block.Seed{byte(number)}, func(tk *block.Ticket) {
		mu.Lock()
		tb.tickets[tk.ID] = *tk
		mu.Unlock()
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	d := demoPaths(tb.dir, number)
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
			id := codes.TicketID{Block: tb.number, Pack: pack, Position: pos}
			if f(tb.tickets[id]) {
				return id
			}
		}
	}
	t.Fatal("no such ticket in the test block")
	return codes.TicketID{}
}
