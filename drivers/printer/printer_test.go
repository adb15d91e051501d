package printer_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/packterm/pos/drivers/printer"
	"github.com/packterm/pos/drivers/printer/internal/golden"
	"github.com/packterm/pos/drivers/printer/printeremul"
	"github.com/packterm/pos/drivers/serialport"
)

type rig struct {
	mode  printerMode
	emu   *printeremul.Emulator
	port  *serialport.Port
	prn   *printer.Printer
	clock *testClock           // printer: status timeouts, polls, Run's ticker
	pc    *clockwork.FakeClock // port: reconnect backoff
	spool string
}

// printerMode is one generation of printer the driver tests run against.
type printerMode struct {
	name      string
	noGSH     bool         // the emulated printer lacks GS ( H
	want      printer.Mode // what the driver must detect
	probeOnly int          // GS ( H sequences the emulator skips per connection (the probe)
}

var printerModes = []printerMode{
	{name: "gs-h", want: printer.ModeProcessID},
	{name: "no-gs-h", noGSH: true, want: printer.ModeStatusPolling, probeOnly: 1},
}

// eachMode runs f against both printer generations.
func eachMode(t *testing.T, f func(t *testing.T, m printerMode)) {
	for _, m := range printerModes {
		t.Run(m.name, func(t *testing.T) { f(t, m) })
	}
}

const (
	testProbeTimeout = 300 * time.Millisecond
	testStatusPoll   = 100 * time.Millisecond
)

// testClock is a fake clock on which the status polls of ModeStatusPolling elapse at once (and,
// against a printer known to lack GS ( H, the probe's timeout): the tests never wait, and
// count the polls. Every other timer waits for Advance.
type testClock struct {
	*clockwork.FakeClock
	instantProbe bool
	mu           sync.Mutex
	polls        int
}

func (c *testClock) NewTimer(d time.Duration) clockwork.Timer {
	// The probe's timer is ProbeTimeout plus the 11 bytes' transmission time.
	probe := c.instantProbe && d > testProbeTimeout && d < testProbeTimeout+50*time.Millisecond
	if d == testStatusPoll || probe {
		c.mu.Lock()
		if !probe {
			c.polls++
		}
		c.mu.Unlock()
		return firedTimer(c.Now())
	}
	return c.FakeClock.NewTimer(d)
}

func (c *testClock) Polls() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.polls
}

type fired struct{ ch chan time.Time }

func firedTimer(now time.Time) clockwork.Timer {
	f := fired{ch: make(chan time.Time, 1)}
	f.ch <- now
	return f
}

func (f fired) Chan() <-chan time.Time   { return f.ch }
func (f fired) Reset(time.Duration) bool { return false }
func (f fired) Stop() bool               { return false }

// newRig runs the real driver over tarm/serial on a pty against the emulated printer.
func newRig(t *testing.T, m printerMode, cols int) *rig {
	t.Helper()
	dir := t.TempDir()
	emu, err := printeremul.NewEmulator(filepath.Join(dir, "ttyPRN"), printeremul.Config{Columns: cols, NoProcessID: m.noGSH})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { emu.Close() })
	pc := clockwork.NewFakeClock()
	port, err := serialport.Open(serialport.Config{Path: emu.Path(), Clock: pc})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { port.Close() })
	waitConnected(t, port)
	r := &rig{mode: m, emu: emu, port: port, clock: &testClock{FakeClock: clockwork.NewFakeClock(), instantProbe: m.noGSH},
		pc: pc, spool: filepath.Join(dir, "spool")}
	r.prn = r.newPrinter(t, cols)
	return r
}

func (r *rig) newPrinter(t *testing.T, cols int) *printer.Printer {
	p, err := printer.New(r.port, printer.Config{Layout: printer.Layout{Columns: cols}, SpoolDir: r.spool, Clock: r.clock,
		ProbeTimeout: testProbeTimeout, StatusPoll: testStatusPoll, PollSettle: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// checkMode asserts the mode detected and that GS ( H went out only as the probe(s) and, on
// a printer that has it, with every receipt.
func (r *rig) checkMode(t *testing.T, probes int) {
	t.Helper()
	if got := r.prn.Mode(); got != r.mode.want {
		t.Errorf("mode %v, want %v", got, r.mode.want)
	}
	if u := r.emu.Unknown(); len(u) != r.mode.probeOnly*probes {
		t.Errorf("emulator skipped %d sequences, want %d probes: %v", len(u), r.mode.probeOnly*probes, u)
	}
	if r.mode.want == printer.ModeStatusPolling && r.clock.Polls() == 0 {
		t.Error("status polling mode never polled")
	}
}

// waitSkipped waits until the emulator has skipped n unsupported sequences.
func (r *rig) waitSkipped(t *testing.T, n int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); len(r.emu.Unknown()) < n; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the emulator skipped %d sequences, want %d", len(r.emu.Unknown()), n)
		}
	}
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return c
}

func waitConnected(t *testing.T, p *serialport.Port) {
	t.Helper()
	if err := p.WaitConnected(ctx(t)); err != nil {
		t.Fatal(err)
	}
}

func sample() printer.Receipt {
	return printer.Receipt{ID: "vente-17", Items: []printer.Item{
		printer.Text{Text: "PACK TERMINAL", Style: printer.Style{Align: printer.Center, Bold: true, DoubleWidth: true}},
		printer.Text{Text: "Tabac de la Gare — 12 rue Émile Zola, 69003 Lyon", Style: printer.Style{Align: printer.Center}},
		printer.Rule{},
		printer.Pair{Left: "Pack 8 tickets", Right: "10,00 €"},
		printer.Pair{Left: "TOTAL", Right: "10,00 €", Style: printer.Style{Bold: true, DoubleHeight: true}},
		printer.Text{Text: "Payé en espèces. Conservez ce reçu : il n'est ni échangé ni remboursé."},
		printer.Barcode{Symbology: printer.Code128, Data: "0001234567890042"},
		printer.Barcode{Symbology: printer.ITF, Data: "12345678901231"},
		printer.QR{Data: "PK1-0042-BULLE", Module: 4},
		printer.Text{Text: "Merci et à bientôt !", Style: printer.Style{Align: printer.Center, Underline: true}},
	}, OpenDrawer: true}
}

// The paper is the same whatever the printer generation: one set of golden files.
func TestGoldenReceipts(t *testing.T) {
	eachMode(t, func(t *testing.T, m printerMode) {
		for _, cols := range []int{42, 48} {
			t.Run(fmt.Sprintf("%dcols", cols), func(t *testing.T) {
				r := newRig(t, m, cols)
				if err := r.prn.Print(ctx(t), sample()); err != nil {
					t.Fatal(err)
				}
				if err := r.prn.Print(ctx(t), printer.TestPage(printer.Layout{Columns: cols}, false, golden.TestPageWords())); err != nil {
					t.Fatal(err)
				}
				got, err := r.emu.WaitReceipts(ctx(t), 2)
				if err != nil {
					t.Fatal(err)
				}
				if len(got) != 2 {
					t.Fatalf("%d receipts", len(got))
				}
				r.checkMode(t, 1)
				for i, name := range []string{"sale", "testpage"} {
					checkGolden(t, fmt.Sprintf("%s-%d", name, cols), got[i])
				}
				txt := got[0].PlainText()
				for _, want := range []string{"10,00 €", "Émile", "à bientôt", "[Code128 0001234567890042]", "[ITF 12345678901231]", "[QR PK1-0042-BULLE]"} {
					if !strings.Contains(txt, want) {
						t.Errorf("receipt lacks %q:\n%s", want, txt)
					}
				}
				if got[0].Cut != "partial" || len(got[0].Drawer) != 1 || got[0].Drawer[0].OnMs != 50 {
					t.Errorf("cut %q drawer %+v", got[0].Cut, got[0].Drawer)
				}
				if n, _ := r.prn.Pending(); len(n) != 0 {
					t.Errorf("%d receipts left in spool", len(n))
				}
			})
		}
	})
}

// checkGolden compares a receipt's text with testdata/base.txt; -update also draws base.png.
func checkGolden(t *testing.T, base string, rc printeremul.Receipt) {
	t.Helper()
	golden.Check(t, base+".txt", rc.Text())
	if golden.Updating() {
		f, err := os.Create(filepath.Join("testdata", base+".png"))
		if err != nil {
			t.Fatal(err)
		}
		if err := rc.WritePNG(f); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
}

func TestCoverOpenBeforeReceipt(t *testing.T) {
	eachMode(t, func(t *testing.T, m printerMode) {
		r := newRig(t, m, 48)
		r.emu.SetCoverOpen(true)
		err := r.prn.Print(ctx(t), sample())
		var fe *printer.FaultError
		if !errors.As(err, &fe) || !errors.Is(err, printer.ErrCoverOpen) || fe.Pending != 1 || fe.Interrupted {
			t.Fatalf("Print with cover open: %v", err)
		}
		if n := r.emu.LinesPrinted(); n != 0 {
			t.Fatalf("%d lines printed with the cover open", n)
		}
		if r.prn.Mode() != printer.ModeUnknown {
			t.Fatalf("probed a printer with its cover open: %v", r.prn.Mode())
		}
		// A second receipt queues behind the first.
		second := sample()
		second.ID = "vente-18"
		if err := r.prn.Print(ctx(t), second); !errors.Is(err, printer.ErrCoverOpen) {
			t.Fatalf("second Print: %v", err)
		}
		r.emu.SetCoverOpen(false)
		n, err := r.prn.Flush(ctx(t))
		if err != nil || n != 2 {
			t.Fatalf("Flush: %d, %v", n, err)
		}
		got, _ := r.emu.WaitReceipts(ctx(t), 2)
		if len(got) != 2 || got[0].Text() != got[1].Text() || got[0].Interrupted {
			t.Fatalf("after the cover closed: %d receipts", len(got))
		}
		r.checkMode(t, 1)
	})
}

// A fault in the middle of a receipt: the torn fragment, then the whole receipt once, after
// the fault clears; both modes, paper end and cover opened.
func TestFaultMidReceipt(t *testing.T) {
	faults := []struct {
		name   string
		kind   error
		inject func(*printeremul.Emulator)
		clear  func(*printeremul.Emulator)
	}{
		{"paper-out", printer.ErrPaperEnd, func(e *printeremul.Emulator) { e.PaperOutAfter(5) }, func(e *printeremul.Emulator) { e.LoadPaper() }},
		{"cover-open", printer.ErrCoverOpen, func(e *printeremul.Emulator) { e.CoverOpenAfter(5) }, func(e *printeremul.Emulator) { e.SetCoverOpen(false) }},
	}
	eachMode(t, func(t *testing.T, m printerMode) {
		for _, f := range faults {
			t.Run(f.name, func(t *testing.T) {
				r := newRig(t, m, 48)
				f.inject(r.emu)
				err := r.prn.Print(ctx(t), sample())
				var fe *printer.FaultError
				if !errors.As(err, &fe) || !errors.Is(err, f.kind) || !fe.Interrupted || fe.Pending != 1 {
					t.Fatalf("Print with a fault mid receipt: %v", err)
				}
				// Still faulty: a flush keeps everything and prints nothing.
				if n, err := r.prn.Flush(ctx(t)); n != 0 || !errors.Is(err, f.kind) {
					t.Fatalf("Flush during the fault: %d, %v", n, err)
				}
				f.clear(r.emu)
				if n, err := r.prn.Flush(ctx(t)); n != 1 || err != nil {
					t.Fatalf("Flush after the fault cleared: %d, %v", n, err)
				}
				got, _ := r.emu.WaitReceipts(ctx(t), 2)
				checkOneWholeReceipt(t, m, got)
				if p, _ := r.prn.Pending(); len(p) != 0 {
					t.Errorf("%d left in spool", len(p))
				}
				r.checkMode(t, 1)
			})
		}
	})
}

// checkOneWholeReceipt: a torn fragment of 5 lines, then the whole receipt as a printer
// without fault prints it; one complete receipt, one drawer kick.
func checkOneWholeReceipt(t *testing.T, m printerMode, got []printeremul.Receipt) {
	t.Helper()
	if len(got) != 2 {
		t.Fatalf("%d receipts, want the torn fragment and the full receipt", len(got))
	}
	frag, full := got[0], got[1]
	if !frag.Interrupted || len(frag.Lines) != 5 || frag.Cut != "" {
		t.Errorf("fragment: interrupted %v, %d lines, cut %q", frag.Interrupted, len(frag.Lines), frag.Cut)
	}
	if full.Interrupted || full.Cut != "partial" {
		t.Errorf("reprint: interrupted %v, cut %q", full.Interrupted, full.Cut)
	}
	ref := newRig(t, m, 48)
	if err := ref.prn.Print(ctx(t), sample()); err != nil {
		t.Fatal(err)
	}
	want, _ := ref.emu.WaitReceipts(ctx(t), 1)
	if full.Text() != want[0].Text() {
		t.Errorf("reprint differs:\n%s\nwant\n%s", full.Text(), want[0].Text())
	}
	if !strings.HasPrefix(full.PlainText(), frag.PlainText()) {
		t.Errorf("fragment is not the start of the receipt")
	}
	complete, kicks := 0, 0
	for _, rc := range got {
		if !rc.Interrupted {
			complete++
		}
		kicks += len(rc.Drawer)
	}
	if complete != 1 || kicks != 1 {
		t.Errorf("%d complete receipts, %d drawer kicks", complete, kicks)
	}
}

func TestUnplugReplug(t *testing.T) {
	eachMode(t, func(t *testing.T, m printerMode) {
		r := newRig(t, m, 42)
		if _, err := r.prn.Detect(ctx(t)); err != nil {
			t.Fatal(err)
		}
		// A printer without GS ( H says nothing to the probe: the driver has stopped waiting
		// for an answer, but the emulator may not have read the probe yet (a loaded
		// machine), and an unplug drops what it has not read.
		r.waitSkipped(t, r.mode.probeOnly)
		r.emu.Unplug()
		if err := r.port.WaitDisconnected(ctx(t)); err != nil {
			t.Fatal(err)
		}
		err := r.prn.Print(ctx(t), sample())
		if !errors.Is(err, printer.ErrNoResponse) || !errors.Is(err, serialport.ErrDisconnected) {
			t.Fatalf("Print while unplugged: %v", err)
		}
		if r.prn.Mode() != printer.ModeUnknown {
			t.Fatalf("mode %v kept across an unplug (another printer may come back)", r.prn.Mode())
		}
		if err := r.emu.Replug(); err != nil {
			t.Fatal(err)
		}
		go pump(ctx(t), r.pc) // reconnect backoff on the port's fake clock
		waitConnected(t, r.port)
		if n, err := r.prn.Flush(ctx(t)); n != 1 || err != nil {
			t.Fatalf("Flush after replug: %d, %v", n, err)
		}
		got, _ := r.emu.WaitReceipts(ctx(t), 1)
		if len(got) != 1 || got[0].Interrupted || !strings.Contains(got[0].PlainText(), "TOTAL") {
			t.Fatalf("after replug: %d receipts", len(got))
		}
		r.checkMode(t, 2) // probed again after the replug
	})
}

func pump(ctx context.Context, fc *clockwork.FakeClock) {
	for ctx.Err() == nil {
		if fc.BlockUntilContext(ctx, 1) != nil {
			return
		}
		fc.Advance(time.Minute)
	}
}

// The durable spool: a receipt kept while the printer is offline prints after a restart,
// from Run's poll, in both modes.
func TestSpoolSurvivesRestartAndRunRetries(t *testing.T) {
	eachMode(t, func(t *testing.T, m printerMode) {
		r := newRig(t, m, 48)
		r.emu.SetOffline(true)
		if err := r.prn.Print(ctx(t), sample()); !errors.Is(err, printer.ErrOffline) {
			t.Fatalf("Print offline: %v", err)
		}
		// The terminal restarts: a new driver finds the receipt in the spool.
		p2 := r.newPrinter(t, 48)
		r.prn = p2
		if list, err := p2.Pending(); err != nil || len(list) != 1 || list[0].ID != "vente-17" {
			t.Fatalf("pending after restart: %v, %v", list, err)
		}
		runCtx, cancel := context.WithCancel(ctx(t))
		done := make(chan error, 1)
		go func() { done <- p2.Run(runCtx) }()
		r.emu.SetOffline(false)
		// Run polls on its ticker: one tick of the fake clock prints the receipt.
		if err := r.clock.BlockUntilContext(ctx(t), 1); err != nil {
			t.Fatal(err)
		}
		r.clock.Advance(2 * time.Second)
		if _, err := r.emu.WaitReceipts(ctx(t), 1); err != nil {
			t.Fatal(err)
		}
		// Flush waits for Run's flush to finish; nothing is left to print.
		if n, err := p2.Flush(ctx(t)); n != 0 || err != nil {
			t.Fatalf("Flush after Run: %d, %v", n, err)
		}
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Fatalf("Run: %v", err)
		}
		if list, _ := p2.Pending(); len(list) != 0 {
			t.Fatalf("%d pending", len(list))
		}
		if rs := r.emu.Receipts(); len(rs) != 1 || rs[0].Interrupted {
			t.Fatalf("%d receipts", len(rs))
		}
		r.checkMode(t, 1)
	})
}

func TestNearEndIsAWarning(t *testing.T) {
	eachMode(t, func(t *testing.T, m printerMode) {
		r := newRig(t, m, 48)
		r.emu.SetNearEnd(true)
		if err := r.prn.Print(ctx(t), sample()); err != nil {
			t.Fatal(err)
		}
		if st := r.prn.LastStatus(); !st.NearEnd || !st.Ready() {
			t.Fatalf("status %v", st)
		}
	})
}
