package printer_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/packterm/pos/drivers/printer"
	"github.com/packterm/pos/drivers/printer/escpos"
	"github.com/packterm/pos/drivers/printer/internal/golden"
	"github.com/packterm/pos/drivers/serialport/conntest"
)

// TestSessionPlayback replays byte exchanges recorded against the emulator (go test -update
// records them again): the GS ( H probe, a sale, then a receipt interrupted by paper end and printed again after
// the roll is changed. Any change in the bytes the driver sends fails here, without a pty.
func TestSessionPlayback(t *testing.T) {
	path := filepath.Join("testdata", "sessions.conntest")
	if golden.Updating() {
		r := newRig(t, printerModes[0], 48)
		rec := &conntest.Record{Port: r.port}
		p, err := printer.New(rec, printer.Config{Layout: printer.Layout{Columns: 48}, SpoolDir: t.TempDir(), Clock: r.clock})
		if err != nil {
			t.Fatal(err)
		}
		session(t, p, func() { r.emu.PaperOutAfter(5) }, func() { r.emu.LoadPaper() })
		if err := os.WriteFile(path, conntest.Marshal(rec.Ops), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ops, err := conntest.Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	pb := &conntest.Playback{Ops: ops}
	p, err := printer.New(pb, printer.Config{Layout: printer.Layout{Columns: 48}, SpoolDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	session(t, p, func() {}, func() {})
	if err := pb.Close(); err != nil {
		t.Fatal(err)
	}
}

func session(t *testing.T, p *printer.Printer, paperOut, loadPaper func()) {
	t.Helper()
	if err := p.Print(ctx(t), sample()); err != nil {
		t.Fatal(err)
	}
	paperOut()
	if err := p.Print(ctx(t), sample()); !errors.Is(err, printer.ErrPaperEnd) {
		t.Fatalf("Print at paper end: %v", err)
	}
	loadPaper()
	if n, err := p.Flush(ctx(t)); n != 1 || err != nil {
		t.Fatalf("Flush: %d, %v", n, err)
	}
}

// A real printer answers DLE EOT as soon as the request arrives, maybe before the receipt has
// printed. Here it reports ready, then runs out of paper while printing: the process ID reply
// never comes, the driver asks again, sees paper end, clears the buffers and keeps the receipt.
func TestConfirmationMissingThenPaperEnd(t *testing.T) {
	data, err := printer.Render(sample(), printer.Layout{Columns: 48})
	if err != nil {
		t.Fatal(err)
	}
	statusReq := []byte{0x10, 4, 1, 0x10, 4, 2, 0x10, 4, 4}
	job := append(append(append([]byte(nil), data...), 0x1D, '(', 'H', 6, 0, 48, 48, '0', '0', '0', '1'), statusReq...)
	pb := &conntest.Playback{Ops: []conntest.IO{
		{W: statusReq, R: []byte{0x12, 0x12, 0x12}}, // before: ready
		{W: job, R: []byte{0x12, 0x12, 0x12}},       // sent: ready (still printing)
		{W: statusReq, R: []byte{0x1A, 0x32, 0x72}}, // after the wait: paper end
		{W: []byte(escpos.ClearBuffers), R: []byte{0x37, 0x25, 0}},
	}}
	fc := clockwork.NewFakeClock()
	tm88v, _ := printer.ProfileByName("tm-t88v") // GS ( H known: no probe
	p, err := printer.New(pb, printer.Config{Profile: tm88v, SpoolDir: t.TempDir(), Clock: fc, PrintTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	start := fc.Now()
	done := make(chan error, 1)
	go func() { done <- p.Print(ctx(t), sample()) }()
	// Replies are queued the moment a write matches, so only the confirmation wait can time out.
	pctx, stop := context.WithCancel(ctx(t))
	defer stop()
	go pump(pctx, fc)
	err = <-done
	var fe *printer.FaultError
	if !errors.As(err, &fe) || !errors.Is(err, printer.ErrPaperEnd) || !fe.Interrupted || fe.Pending != 1 {
		t.Fatalf("Print: %v", err)
	}
	if err := pb.Close(); err != nil {
		t.Fatal(err)
	}
	if got := fc.Since(start); got < 5*time.Second {
		t.Fatalf("gave up after %v, before PrintTimeout", got)
	}
}

// Status polling (a printer without GS ( H): the status read right after the receipt says
// ready, as a real printer answers before it has printed; paper runs out while it prints and
// the next poll sees it: buffers cleared, receipt kept for a whole reprint.
func TestPollingSeesPaperEndWhilePrinting(t *testing.T) {
	prof, _ := printer.ProfileByName("tm-t88iv")
	data, err := printer.Render(sample(), prof.Layout())
	if err != nil {
		t.Fatal(err)
	}
	statusReq := []byte{0x10, 4, 1, 0x10, 4, 2, 0x10, 4, 4}
	job := append(append([]byte(nil), data...), statusReq...)
	ready := []byte{0x12, 0x12, 0x12}
	pb := &conntest.Playback{Ops: []conntest.IO{
		{W: statusReq, R: ready}, // before
		{W: job, R: ready},       // sent: ready (still printing)
		{W: statusReq, R: ready}, // first poll
		{W: statusReq, R: []byte{0x1A, 0x32, 0x72}},
		{W: []byte(escpos.ClearBuffers), R: []byte{0x37, 0x25, 0}},
	}}
	fc := clockwork.NewFakeClock()
	p, err := printer.New(pb, printer.Config{Profile: prof, SpoolDir: t.TempDir(), Clock: fc, StatusPoll: time.Second, PollSettle: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if p.Mode() != printer.ModeStatusPolling {
		t.Fatalf("mode %v for a TM-T88IV", p.Mode())
	}
	done := make(chan error, 1)
	go func() { done <- p.Print(ctx(t), sample()) }()
	pctx, stop := context.WithCancel(ctx(t))
	defer stop()
	go pump(pctx, fc)
	err = <-done
	var fe *printer.FaultError
	if !errors.As(err, &fe) || !errors.Is(err, printer.ErrPaperEnd) || !fe.Interrupted || fe.Pending != 1 {
		t.Fatalf("Print: %v", err)
	}
	if err := pb.Close(); err != nil {
		t.Fatal(err)
	}
}

// Status polling to the end: a receipt counts as printed only after PollSettle of clean polls.
func TestPollingSettles(t *testing.T) {
	prof, _ := printer.ProfileByName("tm-t88iv")
	data, _ := printer.Render(sample(), prof.Layout())
	statusReq := []byte{0x10, 4, 1, 0x10, 4, 2, 0x10, 4, 4}
	ready := []byte{0x12, 0x12, 0x12}
	ops := []conntest.IO{{W: statusReq, R: ready}, {W: append(append([]byte(nil), data...), statusReq...), R: ready}}
	// 10 s settle + about 0.6 s on the line at 9600 baud, polled every second: 11 polls.
	for range 11 {
		ops = append(ops, conntest.IO{W: statusReq, R: ready})
	}
	pb := &conntest.Playback{Ops: ops}
	fc := clockwork.NewFakeClock()
	p, err := printer.New(pb, printer.Config{Profile: prof, SpoolDir: t.TempDir(), Clock: fc, StatusPoll: time.Second, PollSettle: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	start := fc.Now()
	done := make(chan error, 1)
	go func() { done <- p.Print(ctx(t), sample()) }()
	pctx, stop := context.WithCancel(ctx(t))
	defer stop()
	go pump(pctx, fc)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if err := pb.Close(); err != nil {
		t.Fatal(err)
	}
	if got := fc.Since(start); got < 10*time.Second {
		t.Fatalf("printed after %v of polling, before PollSettle", got)
	}
}
