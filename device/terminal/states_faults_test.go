package terminal_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/packterm/pos/device/retail"
	"github.com/packterm/pos/device/terminal"
	"github.com/packterm/pos/device/terminal/terminaltest"
	"github.com/packterm/pos/drivers/printer/spooltest"
	"github.com/packterm/pos/validate/journal"
)

// A sale whose receipt cannot be kept sells nothing: the storage fault, then the offer
// again.
func TestStateSellSpoolFull(t *testing.T) {
	_, pack := packCode(t)
	fs := &spooltest.FaultFS{}
	r := newRig(t, func(o *terminaltest.Options) { o.Spool.FS = fs; o.Config.AllDelivered = true })
	fs.SetFull(true)
	next := step(t, r, terminal.SellState(pack, 10_00))
	if k, _ := terminal.FaultKind(next); k != retail.FaultStorage {
		t.Fatalf("next %s fault %v", next.Name(), k)
	}
	wantState(t, terminal.Then(next), "sale")
	if n := len(records(t, r, journal.KindSale)); n != 0 {
		t.Errorf("%d sales", n)
	}
}

// Receipts staged whose queuing failed after the record's commit: the delivery waits for
// the storage, then queues and prints them, once.
func TestStateDeliverQueuesStagedReceiptsAgain(t *testing.T) {
	_, v := winner(t, 5_00)
	fs := &spooltest.FaultFS{}
	r := newRig(t, func(o *terminaltest.Options) { o.Spool.FS = fs })
	fs.SetRenameFails(true)
	next := step(t, r, terminal.PayState(v))
	wantState(t, next, "deliver")
	if n := len(records(t, r, journal.KindPayout)); n != 1 {
		t.Fatalf("%d payouts", n)
	}
	next = step(t, r, next)
	if k, _ := terminal.FaultKind(next); k != retail.FaultStorage {
		t.Fatalf("next %s fault %v", next.Name(), k)
	}
	wantState(t, terminal.Then(next), "deliver")
	fs.SetRenameFails(false)
	next = stepTimeout(t, r, next)
	run(t, r, next, "result:paid")
	if got := printed(r); got != "J C" || r.Drawer.Opens() != 1 {
		t.Errorf("printed %q, drawer %d", got, r.Drawer.Opens())
	}
}

// A state directory that takes no write after the drawer opened: the fault waits for
// it, and the drawer does not open a second time.
func TestStateFinishWaitsForTheStateFile(t *testing.T) {
	_, v := winner(t, 5_00)
	r := newRig(t)
	next := step(t, r, terminal.PayState(v))
	next = step(t, r, next) // delivered: finish next
	wantState(t, next, "finish")
	state := r.Config.StateDir
	if err := os.RemoveAll(state); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(state, nil, 0o600); err != nil { // a file where the directory was
		t.Fatal(err)
	}
	next = step(t, r, next)
	if k, _ := terminal.FaultKind(next); k != retail.FaultStorage {
		t.Fatalf("next %s fault %v", next.Name(), k)
	}
	if r.Drawer.Opens() != 1 {
		t.Fatalf("drawer %d", r.Drawer.Opens())
	}
	if err := os.Remove(state); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(state, 0o700); err != nil {
		t.Fatal(err)
	}
	next = stepTimeout(t, r, next)
	wantState(t, next, "finish")
	wantState(t, step(t, r, next), "result:paid")
	if r.Drawer.Opens() != 1 {
		t.Errorf("drawer opened %d times", r.Drawer.Opens())
	}
	if _, err := os.Stat(filepath.Join(state, "done.seq")); err != nil {
		t.Errorf("operation not marked done: %v", err)
	}
}

// A journal that cannot be read: nothing is judged or paid.
func TestStateJournalFault(t *testing.T) {
	code, _ := winner(t, 5_00)
	r := newRig(t)
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	wantState(t, step(t, r, terminal.ValidationState(validationCode(t, code))), "result:journal-fault")
	if r.Drawer.Opens() != 0 || len(r.Printer.PrintedIDs()) != 0 {
		t.Error("paid on a closed journal")
	}
}

// Once the new journal is started, the terminal waits for the restart: it takes no
// code, only scanner plugs, until it stops.
func TestStateJournalResetDoneWaits(t *testing.T) {
	code, _ := winner(t, 5_00)
	r := newRig(t)
	x := startState(t, r, terminal.JournalResetDoneState())
	x.do(scan(code))
	x.do(press(terminal.EvOK))
	x.do(press(terminal.EvScannerBack))
	if x.ended() || !r.Terminal.ScannerPresent() {
		t.Fatalf("ended %v, scanner %v", x.ended(), r.Terminal.ScannerPresent())
	}
	x.stop()
	if n := len(records(t, r, journal.KindRefused)); n != 0 {
		t.Errorf("%d refusals", n)
	}
}
