package printer_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/packterm/pos/drivers/printer"
	"github.com/packterm/pos/drivers/serialport/conntest"
)

// TestSessionPlayback replays byte exchanges recorded against the emulator (go test -update
// records them again): a sale, then a receipt interrupted by paper end and printed again after
// the roll is changed. Any change in the bytes the driver sends fails here, without a pty.
func TestSessionPlayback(t *testing.T) {
	path := filepath.Join("testdata", "sessions.conntest")
	if *update {
		r := newRig(t, 48)
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
