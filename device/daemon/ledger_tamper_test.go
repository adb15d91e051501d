package daemon

import (
	"cmp"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/packterm/pos/internal/syncbuf"
	"github.com/packterm/pos/internal/testblock"
	"github.com/packterm/pos/validate/block"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/journal"
	"github.com/packterm/pos/validate/ledger"
)

// TestRetailerRewritesInstalledLedger: the retailer is root on their board. While posd runs
// with the installed ledger mapped, they rewrite one entry of data/block-5.ledger in place
// so that the code of one of their own losing tickets opens to its game's top prize. The
// code is refused on the screen (DONNÉES REFUSÉES), nothing is paid or claimed, the refusal
// is journalled as ledger-tampered and logged. A real winner in the other half of the block is paid. Then the
// file is truncated under the mapping: the next code is refused the same way and posd goes
// on running (no SIGBUS).
func TestRetailerRewritesInstalledLedger(t *testing.T) {
	tb := newTestBlock(t, 9)
	b := newBoard(t, tb)
	b.installLedger(t, tb)
	logs := &syncbuf.Buffer{}
	d := b.start(t, Options{Logger: slog.New(slog.NewTextHandler(logs, nil))})
	path := filepath.Join(b.cfg.DataDir, ledger.FileName(testBlockNumber))
	loser := tb.pick(t, func(tk block.Ticket) bool { return tk.Tier == 0 && tk.ID.Pack < 4 })
	winner := tb.pick(t, func(tk block.Ticket) bool { return tk.Tier > 0 && tk.ID.Pack >= 4 && tk.Lot <= 10_00 })
	// The test game has one prize line per game: tier 1 is its top prize.
	if err := testblock.ForgeEntry(path, loser, tb.tickets[loser].Secret, 1); err != nil {
		t.Fatal(err)
	}
	d.scan(b, tb.codeOf(loser), "DONNÉES REFUSÉES")
	d.press(b, "SCANNEZ")
	d.scan(b, tb.codeOf(winner), "GAGNANT")
	d.press(b, "PAYÉ")

	if err := os.Truncate(path, 100); err != nil {
		t.Fatal(err)
	}
	other := tb.pick(t, func(tk block.Ticket) bool { return tk.Tier > 0 && tk.ID.Pack >= 4 })
	d.scan(b, tb.codeOf(other), "DONNÉES REFUSÉES")
	select {
	case err := <-d.done:
		t.Fatalf("posd ended on a truncated ledger: %v", err)
	default:
	}

	rs := records(t, b.cfg.DataDir)
	tampered := 0
	for _, r := range rs {
		switch {
		case r.Kind == journal.KindRefused && r.Reason == "ledger-tampered":
			tampered++
		case (r.Kind == journal.KindPayout || r.Kind == journal.KindClaim) && r.Ticket != winner:
			t.Errorf("%v of %v recorded", r.Kind, r.Ticket)
		}
	}
	if tampered != 2 {
		t.Errorf("%d ledger-tampered refusals journalled, want 2", tampered)
	}
	if kinds(rs)[journal.KindPayout] != 1 {
		t.Errorf("payouts %d, want the real winner's only", kinds(rs)[journal.KindPayout])
	}
	if n := strings.Count(logs.String(), "installed ledger changed on disk"); n != 2 {
		t.Errorf("%d log lines for the tampered ledger, want 2:\n%s", n, logs.String())
	}
}

// pick is a ticket not used yet that passes f, in ticket order.
func (tb *testBlock) pick(t testing.TB, f func(block.Ticket) bool) codes.TicketID {
	t.Helper()
	ids := slices.SortedFunc(maps.Keys(tb.tickets), func(a, b codes.TicketID) int { return cmp.Compare(a.String(), b.String()) })
	for _, id := range ids {
		if !tb.used[id] && f(tb.tickets[id]) {
			tb.used[id] = true
			return id
		}
	}
	t.Fatal("no such ticket left in the test block")
	return codes.TicketID{}
}

// codeOf is the validation code of ticket id.
func (tb *testBlock) codeOf(id codes.TicketID) string {
	return codes.ValidationCodeOf(id, tb.tickets[id].Secret).String()
}
