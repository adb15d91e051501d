package printer_test

import (
	"context"
	"errors"
	"github.com/packterm/pos/drivers/printer/internal/golden"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/packterm/pos/drivers/printer"
	"github.com/packterm/pos/drivers/printer/printeremul"
	"github.com/packterm/pos/drivers/serialport"
)

type rig struct {
	emu   *printeremul.Emulator
	port  *serialport.Port
	prn   *printer.Printer
	clock *clockwork.FakeClock // printer: status timeouts, Run's ticker
	pc    *clockwork.FakeClock // port: reconnect backoff
	spool string
}

// newRig runs the real driver over tarm/serial on a pty against the emulated printer.
func newRig(t *testing.T, cols int) *rig {
	t.Helper()
	dir := t.TempDir()
	emu, err := printeremul.NewEmulator(filepath.Join(dir, "ttyPRN"), printeremul.Config{Columns: cols})
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
	r := &rig{emu: emu, port: port, clock: clockwork.NewFakeClock(), pc: pc, spool: filepath.Join(dir, "spool")}
	r.prn = r.newPrinter(t, cols)
	return r
}

func (r *rig) newPrinter(t *testing.T, cols int) *printer.Printer {
	p, err := printer.New(r.port, printer.Config{Layout: printer.Layout{Columns: cols}, SpoolDir: r.spool, Clock: r.clock})
	if err != nil {
		t.Fatal(err)
	}
	return p
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

func TestGoldenReceipts(t *testing.T) {
	for _, cols := range []int{42, 48} {
		t.Run(strings.TrimSpace(strings.Repeat(" ", 0))+map[int]string{42: "42cols", 48: "48cols"}[cols], func(t *testing.T) {
			r := newRig(t, cols)
			if err := r.prn.Print(ctx(t), sample()); err != nil {
				t.Fatal(err)
			}
			if err := r.prn.Print(ctx(t), printer.TestPage(printer.Layout{Columns: cols}, false)); err != nil {
				t.Fatal(err)
			}
			got, err := r.emu.WaitReceipts(ctx(t), 2)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 2 {
				t.Fatalf("%d receipts", len(got))
			}
			if u := r.emu.Unknown(); len(u) > 0 {
				t.Errorf("driver sent sequences the emulator does not know: %v", u)
			}
			for i, name := range []string{"sale", "testpage"} {
				base := name + "-" + map[int]string{42: "42", 48: "48"}[cols]
				golden.Check(t, base+".txt", got[i].Text())
				if golden.Updating() {
					f, err := os.Create(filepath.Join("testdata", base+".png"))
					if err != nil {
						t.Fatal(err)
					}
					if err := got[i].WritePNG(f); err != nil {
						t.Fatal(err)
					}
					f.Close()
				}
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
}

func TestCoverOpenBeforeReceipt(t *testing.T) {
	r := newRig(t, 48)
	r.emu.SetCoverOpen(true)
	err := r.prn.Print(ctx(t), sample())
	var fe *printer.FaultError
	if !errors.As(err, &fe) || !errors.Is(err, printer.ErrCoverOpen) || fe.Pending != 1 || fe.Interrupted {
		t.Fatalf("Print with cover open: %v", err)
	}
	if n := r.emu.LinesPrinted(); n != 0 {
		t.Fatalf("%d lines printed with the cover open", n)
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
}

func TestPaperOutMidReceipt(t *testing.T) {
	r := newRig(t, 48)
	r.emu.PaperOutAfter(5)
	err := r.prn.Print(ctx(t), sample())
	var fe *printer.FaultError
	if !errors.As(err, &fe) || !errors.Is(err, printer.ErrPaperEnd) || !fe.Interrupted || fe.Pending != 1 {
		t.Fatalf("Print running out of paper: %v", err)
	}
	// Still out: a flush keeps everything and prints nothing.
	if n, err := r.prn.Flush(ctx(t)); n != 0 || !errors.Is(err, printer.ErrPaperEnd) {
		t.Fatalf("Flush while out of paper: %d, %v", n, err)
	}
	r.emu.LoadPaper()
	if n, err := r.prn.Flush(ctx(t)); n != 1 || err != nil {
		t.Fatalf("Flush after loading paper: %d, %v", n, err)
	}
	got, _ := r.emu.WaitReceipts(ctx(t), 2)
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
	// Nothing lost: the reprint is the whole receipt, as printed on a printer with paper.
	ref := newRig(t, 48)
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
	// Nothing twice: one complete receipt, one drawer kick, spool empty.
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
	if p, _ := r.prn.Pending(); len(p) != 0 {
		t.Errorf("%d left in spool", len(p))
	}
}

func TestUnplugReplug(t *testing.T) {
	r := newRig(t, 42)
	r.emu.Unplug()
	if err := r.port.WaitDisconnected(ctx(t)); err != nil {
		t.Fatal(err)
	}
	err := r.prn.Print(ctx(t), sample())
	if !errors.Is(err, printer.ErrNoResponse) || !errors.Is(err, serialport.ErrDisconnected) {
		t.Fatalf("Print while unplugged: %v", err)
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
}

func pump(ctx context.Context, fc *clockwork.FakeClock) {
	for ctx.Err() == nil {
		if fc.BlockUntilContext(ctx, 1) != nil {
			return
		}
		fc.Advance(time.Minute)
	}
}

func TestSpoolSurvivesRestartAndRunRetries(t *testing.T) {
	r := newRig(t, 48)
	r.emu.SetOffline(true)
	if err := r.prn.Print(ctx(t), sample()); !errors.Is(err, printer.ErrOffline) {
		t.Fatalf("Print offline: %v", err)
	}
	// The terminal restarts: a new driver finds the receipt in the spool.
	p2 := r.newPrinter(t, 48)
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
}

func TestNearEndIsAWarning(t *testing.T) {
	r := newRig(t, 48)
	r.emu.SetNearEnd(true)
	if err := r.prn.Print(ctx(t), sample()); err != nil {
		t.Fatal(err)
	}
	if st := r.prn.LastStatus(); !st.NearEnd || !st.Ready() {
		t.Fatalf("status %v", st)
	}
}
