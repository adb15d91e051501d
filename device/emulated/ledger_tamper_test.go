package emulated

import (
	"context"
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/packterm/pos/internal/syncbuf"
	"github.com/packterm/pos/internal/testblock"
	"github.com/packterm/pos/validate/block"
	"github.com/packterm/pos/validate/journal"
	"github.com/packterm/pos/validate/ledger"
)

// TestRetailerRewritesLedgerUnderEmulator: the emulator maps its --ledger file (the rig's
// ledger is ledger.OpenFile of it, as posd --emulate opens it). The retailer, root on the
// machine, rewrites one entry of that file in place so that the code of their own losing
// ticket opens to its game's top prize. The code is refused (DONNÉES REFUSÉES): nothing paid
// or claimed, the refusal journalled as ledger-tampered and logged. A real winner elsewhere
// in the block is still paid. Then the file is truncated under the mapping: the next code is
// refused the same way and the emulator goes on (no SIGBUS).
func TestRetailerRewritesLedgerUnderEmulator(t *testing.T) {
	tb := newTestBlock(t)
	logs := &syncbuf.Buffer{}
	clock := clockwork.NewFakeClockAt(time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC))
	rig, err := Start(context.Background(), Options{Dir: t.TempDir(), Ledgers: []*ledger.Ledger{tb.ledger}, AllDelivered: true,
		Clock: clock, Logger: slog.New(slog.NewTextHandler(logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer rig.Close()
	e := &e2e{t: t, tb: tb, rig: rig, clock: clock}
	// The loser in the first half of the block, the winner in the second: different
	// segments of the lookup check.
	loser := tb.find(t, func(tk block.Ticket) bool { return tk.Tier == 0 && tk.ID.Pack < 4 })
	winner := tb.find(t, func(tk block.Ticket) bool { return tk.Tier > 0 && tk.ID.Pack >= 4 })
	path := demoPaths(tb.dir, tb.number).Ledger
	if err := testblock.ForgeEntry(path, loser, tb.tickets[loser].Secret, 1); err != nil {
		t.Fatal(err)
	}
	e.do(tb.code(loser))
	e.expect("DONNÉES REFUSÉES")
	e.do("!ok")
	if _, paid, _ := rig.Journal.Paid(loser); paid || e.count(journal.KindPayout, loser) != 0 || e.count(journal.KindClaim, loser) != 0 {
		t.Fatal("the forged entry was paid or claimed")
	}
	if n := tamperedRefusals(t, rig.Journal); n != 1 {
		t.Errorf("%d ledger-tampered refusals journalled, want 1", n)
	}
	if !strings.Contains(logs.String(), "installed ledger changed on disk") {
		t.Errorf("no log line for the tampered ledger:\n%s", logs.String())
	}
	e.do(tb.code(winner), "!ok")
	e.expect("PAYÉ")
	if _, paid, _ := rig.Journal.Paid(winner); !paid {
		t.Error("the real winner was not paid")
	}

	// Truncated under the mapping: a clear refusal, the emulator still answers.
	if err := os.Truncate(path, 1000); err != nil {
		t.Fatal(err)
	}
	other := tb.find(t, func(tk block.Ticket) bool { return tk.Tier > 0 && tk.ID != winner })
	e.do(tb.code(other))
	e.expect("DONNÉES REFUSÉES")
	e.do("!ok")
	if _, paid, _ := rig.Journal.Paid(other); paid {
		t.Error("paid from a truncated ledger")
	}
	if n := tamperedRefusals(t, rig.Journal); n != 2 {
		t.Errorf("%d ledger-tampered refusals journalled, want 2", n)
	}
}

func tamperedRefusals(t *testing.T, j *journal.Journal) int {
	t.Helper()
	n := 0
	if err := j.Each(time.Time{}, func(r journal.Record) error {
		if r.Kind == journal.KindRefused && r.Reason == "ledger-tampered" {
			n++
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return n
}
