package terminal_test

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/packterm/pos/device/retail"
	"github.com/packterm/pos/device/terminal"
	"github.com/packterm/pos/device/terminal/terminaltest"
	"github.com/packterm/pos/validate/block"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/decide"
	"github.com/packterm/pos/validate/journal"
)

// The state tests (Mender style): each state of the machine run alone on the fakes of
// terminaltest, with its inputs queued first, asserting the next state and what it did
// to the journal, the printer, the drawer and the lamps. No pty, no emulator, no real
// time: the whole set runs in well under a second.

var (
	blockOnce sync.Once
	blockDir  string
	testBlk   *terminaltest.Block
	blockErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if testBlk != nil {
		testBlk.Close()
	}
	if blockDir != "" {
		os.RemoveAll(blockDir)
	}
	os.Exit(code)
}

// blk is the test block, generated once for the package's tests.
func blk(t testing.TB) *terminaltest.Block {
	t.Helper()
	blockOnce.Do(func() {
		if blockDir, blockErr = os.MkdirTemp("", "terminal-states-"); blockErr != nil {
			return
		}
		testBlk, blockErr = terminaltest.MakeBlock(context.Background(), blockDir)
	})
	if blockErr != nil {
		t.Fatal(blockErr)
	}
	return testBlk
}

// newRig is a terminal on fakes with the test block's ledger; opt changes its options.
func newRig(t testing.TB, opt ...func(*terminaltest.Options)) *terminaltest.Rig {
	t.Helper()
	o := terminaltest.Options{Ledgers: blk(t).Set()}
	for _, f := range opt {
		f(&o)
	}
	return terminaltest.New(t, o)
}

// step runs st alone with evs queued first and returns the state it leads to.
func step(t testing.TB, r *terminaltest.Rig, st terminal.State, evs ...terminal.Event) terminal.State {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for _, ev := range evs {
		if err := r.Terminal.Send(ctx, ev); err != nil {
			t.Fatal(err)
		}
	}
	next := r.Terminal.Step(ctx, st)
	if ctx.Err() != nil {
		t.Fatalf("state %s did not end: %v", st.Name(), ctx.Err())
	}
	return next
}

// stepTimeout runs st alone, with no input: once it waits, the clock moves to the
// wait's deadline.
func stepTimeout(t testing.TB, r *terminaltest.Rig, st terminal.State) terminal.State {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	done := make(chan struct{})
	defer close(done)
	go func() {
		for {
			select {
			case <-done:
				return
			case <-time.After(50 * time.Microsecond):
			}
			if due, ok := r.Terminal.WaitDeadline(); ok {
				r.Clock.Advance(due.Sub(r.Clock.Now()))
				return
			}
		}
	}()
	next := r.Terminal.Step(ctx, st)
	if ctx.Err() != nil {
		t.Fatalf("state %s did not end: %v", st.Name(), ctx.Err())
	}
	return next
}

// run follows the machine from st, stepping each state alone with no input, until it
// reaches the state named stop, which it returns.
func run(t testing.TB, r *terminaltest.Rig, st terminal.State, stop string) terminal.State {
	t.Helper()
	for i := 0; i < 20; i++ {
		if st == nil {
			t.Fatalf("machine stopped before %s", stop)
		}
		if st.Name() == stop {
			return st
		}
		st = step(t, r, st)
	}
	t.Fatalf("no %s within 20 states", stop)
	return nil
}

func wantState(t testing.TB, st terminal.State, name string) {
	t.Helper()
	switch {
	case st == nil:
		t.Fatalf("next state nil, want %s", name)
	case st.Name() != name:
		t.Fatalf("next state %s, want %s", st.Name(), name)
	}
}

func scan(text string) terminal.Event           { return terminal.Event{Kind: terminal.EvScan, Text: text} }
func press(k terminal.EventKind) terminal.Event { return terminal.Event{Kind: k} }

// at is an input made at the rig's current time (an answer to an offer must not be
// earlier than the offer).
func at(r *terminaltest.Rig, ev terminal.Event) terminal.Event {
	ev.At = r.Clock.Now()
	return ev
}

func validationCode(t testing.TB, s string) codes.ValidationCode {
	t.Helper()
	c, err := codes.ParseValidation(s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// winner is a winning code of cents and its verdict, as the ledger judges it.
func winner(t testing.TB, cents int64) (string, retail.Verdict) {
	t.Helper()
	s, _, err := blk(t).Winner(cents)
	if err != nil {
		t.Fatal(err)
	}
	v := retail.JudgeCode(blk(t).Set(), nil, validationCode(t, s))
	if v.Outcome != decide.Winner || v.Amount() != cents {
		t.Fatalf("winner of %d: %v %d", cents, v.Outcome, v.Amount())
	}
	return s, v
}

func packCode(t testing.TB) (string, codes.PackCode) {
	t.Helper()
	row, err := blk(t).Find(func(block.Row) bool { return true })
	if err != nil {
		t.Fatal(err)
	}
	p, err := codes.ParsePack(row.PackCode)
	if err != nil {
		t.Fatal(err)
	}
	return row.PackCode, p
}

// records are the journal's records of kind k.
func records(t testing.TB, r *terminaltest.Rig, k journal.Kind) []journal.Record {
	t.Helper()
	all, err := r.Journal.Tail(1000)
	if err != nil {
		t.Fatal(err)
	}
	var out []journal.Record
	for _, rec := range all {
		if rec.Kind == k {
			out = append(out, rec)
		}
	}
	return out
}

// printed are the letters of the receipts printed ("J C" for a payout's two).
func printed(r *terminaltest.Rig) string {
	var l []string
	for _, id := range r.Printer.PrintedIDs() {
		l = append(l, id[strings.LastIndex(id, "-")+1:])
	}
	return strings.Join(l, " ")
}
