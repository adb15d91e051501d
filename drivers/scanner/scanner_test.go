package scanner_test

import (
	"context"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/oned"
	"github.com/makiuchi-d/gozxing/qrcode"

	"github.com/packterm/pos/drivers/barcode"
	"github.com/packterm/pos/drivers/scanner"
	"github.com/packterm/pos/drivers/scanner/scanneremul"
	"github.com/packterm/pos/drivers/serialport"
)

func testCtx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return c
}

type rig struct {
	emu    *scanneremul.Emulator
	port   *serialport.Port
	events chan scanner.Event
	clock  *clockwork.FakeClock // dedup window
	pc     *clockwork.FakeClock // port backoff
}

func newRig(t *testing.T, cfg scanner.Config, ecfg scanneremul.Config) *rig {
	t.Helper()
	emu, err := scanneremul.New(filepath.Join(t.TempDir(), "ttySCN"), ecfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { emu.Close() })
	pc := clockwork.NewFakeClock()
	port, err := serialport.Open(serialport.Config{Path: emu.Path(), Clock: pc})
	if err != nil {
		t.Fatal(err)
	}
	fc := clockwork.NewFakeClock()
	cfg.Clock = fc
	s := scanner.NewSerial(port, cfg)
	r := &rig{emu: emu, port: port, events: make(chan scanner.Event, 16), clock: fc, pc: pc}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx, r.events) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != context.Canceled {
			t.Errorf("Run returned %v", err)
		}
		port.Close()
	})
	r.expect(t, scanner.EventConnected)
	return r
}

func (r *rig) next(t *testing.T) scanner.Event {
	t.Helper()
	select {
	case ev := <-r.events:
		return ev
	case <-testCtx(t).Done():
		t.Fatal("no event")
	}
	return scanner.Event{}
}

func (r *rig) expect(t *testing.T, k scanner.EventKind) scanner.Event {
	t.Helper()
	ev := r.next(t)
	if ev.Kind != k {
		t.Fatalf("event %v %+v, want %v", ev.Kind, ev, k)
	}
	return ev
}

func (r *rig) expectScan(t *testing.T, text, sym string) {
	t.Helper()
	ev := r.expect(t, scanner.EventScan)
	if ev.Scan.Text != text || ev.Scan.Symbology != sym {
		t.Fatalf("scan %q %q, want %q %q", ev.Scan.Text, ev.Scan.Symbology, text, sym)
	}
}

func TestSerialScansAIMAndSuffixes(t *testing.T) {
	for _, suffix := range []scanner.Suffix{scanner.CR, scanner.LF, scanner.CRLF} {
		t.Run(suffix.String(), func(t *testing.T) {
			r := newRig(t, scanner.Config{Suffix: suffix, AIM: true}, scanneremul.Config{Suffix: suffix, AIM: true})
			ctx := testCtx(t)
			if err := r.emu.Scan(ctx, "PACK-0042-7", "]C0"); err != nil {
				t.Fatal(err)
			}
			r.expectScan(t, "PACK-0042-7", "]C0")
			if err := r.emu.Scan(ctx, "01234567890128", "]I0"); err != nil {
				t.Fatal(err)
			}
			r.expectScan(t, "01234567890128", "]I0")
		})
	}
}

func TestSerialDiscardsGarbageAndRepeats(t *testing.T) {
	r := newRig(t, scanner.Config{Suffix: scanner.CR, MaxLen: 32}, scanneremul.Config{Suffix: scanner.CR})
	ctx := testCtx(t)
	for _, raw := range [][]byte{[]byte("\x00\x01\x02\xff\xfe\r"), make([]byte, 100), []byte("\r")} {
		if err := r.emu.WriteRaw(ctx, raw); err != nil {
			t.Fatal(err)
		}
	}
	for range 3 { // the same code held under the beam
		if err := r.emu.Scan(ctx, "TICKET-1", ""); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.emu.Scan(ctx, "TICKET-2", ""); err != nil {
		t.Fatal(err)
	}
	r.expectScan(t, "TICKET-1", "")
	r.expectScan(t, "TICKET-2", "")
	// After the window the same code counts again.
	r.clock.Advance(2 * time.Second)
	if err := r.emu.Scan(ctx, "TICKET-1", ""); err != nil {
		t.Fatal(err)
	}
	r.expectScan(t, "TICKET-1", "")
}

func pump(ctx context.Context, fc *clockwork.FakeClock) {
	for ctx.Err() == nil {
		if fc.BlockUntilContext(ctx, 1) != nil {
			return
		}
		fc.Advance(time.Minute)
	}
}

func TestSerialUnplugReplug(t *testing.T) {
	r := newRig(t, scanner.Config{Suffix: scanner.CRLF}, scanneremul.Config{Suffix: scanner.CRLF})
	ctx := testCtx(t)
	go pump(ctx, r.pc)
	// Half a line, then the cable is pulled: the fragment must not glue onto the next code.
	if err := r.emu.WriteRaw(ctx, []byte("HALF-A-CO")); err != nil {
		t.Fatal(err)
	}
	r.emu.Unplug()
	if ev := r.expect(t, scanner.EventDisconnected); ev.Err == nil {
		t.Fatal("disconnect without a cause")
	}
	if err := r.emu.Scan(ctx, "LOST", ""); err == nil {
		t.Fatal("an unplugged scanner accepted a scan")
	}
	if err := r.emu.Replug(); err != nil {
		t.Fatal(err)
	}
	r.expect(t, scanner.EventConnected)
	// Codes sent right after the scanner comes back are all delivered.
	for _, c := range []string{"AFTER-1", "AFTER-2", "AFTER-3"} {
		if err := r.emu.Scan(ctx, c, ""); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []string{"AFTER-1", "AFTER-2", "AFTER-3"} {
		r.expectScan(t, c, "")
	}
}

func TestEmulatorBaudPacing(t *testing.T) {
	fc := clockwork.NewFakeClock()
	r := newRig(t, scanner.Config{Suffix: scanner.CR}, scanneremul.Config{Suffix: scanner.CR, Baud: 9600, Clock: fc})
	ctx := testCtx(t)
	start := fc.Now()
	done := make(chan error, 1)
	go func() { done <- r.emu.Scan(ctx, "0123456789", "") }()
	bt := r.emu.ByteTime()
	if bt != 10*time.Second/9600 {
		t.Fatalf("byte time %v", bt)
	}
	for range 11 { // ten digits and CR, one byte time each
		if err := fc.BlockUntilContext(ctx, 1); err != nil {
			t.Fatal(err)
		}
		fc.Advance(bt)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got := fc.Since(start); got != 11*bt {
		t.Fatalf("scan took %v on the line, want %v", got, 11*bt)
	}
	r.expectScan(t, "0123456789", "")
}

func code128(t *testing.T, text string) image.Image {
	m, err := oned.NewCode128Writer().Encode(text, gozxing.BarcodeFormat_CODE_128, 400, 100, nil)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestEmulatorScanImage(t *testing.T) {
	r := newRig(t, scanner.Config{Suffix: scanner.CR, AIM: true},
		scanneremul.Config{Suffix: scanner.CR, AIM: true, Decoder: scanner.BarcodeDecoder(barcode.Options{Formats: barcode.AllFormats})})
	if err := r.emu.ScanImage(testCtx(t), code128(t, "PACK-7781")); err != nil {
		t.Fatal(err)
	}
	r.expectScan(t, "PACK-7781", "]C0")
}

func TestImagesFromFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, img image.Image) string {
		p := filepath.Join(dir, name)
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := png.Encode(f, img); err != nil {
			t.Fatal(err)
		}
		return p
	}
	qr, err := qrcode.NewQRCodeWriter().Encode("VALID-0042-SECRET", gozxing.BarcodeFormat_QR_CODE, 200, 200, nil)
	if err != nil {
		t.Fatal(err)
	}
	itf, err := oned.NewITFWriter().Encode("01234567890128", gozxing.BarcodeFormat_ITF, 400, 100, nil)
	if err != nil {
		t.Fatal(err)
	}
	paths := []string{
		write("pack.png", code128(t, "PACK-0001")),
		write("ticket.png", itf),
		write("latex.png", qr),
		write("blank.png", image.NewGray(image.Rect(0, 0, 50, 50))),
		write("again.png", code128(t, "PACK-0001")), // repeat within the window
	}
	src := scanner.NewImages(scanner.BarcodeDecoder(barcode.Options{Formats: barcode.AllFormats}), scanner.Config{Clock: clockwork.NewFakeClock()})
	in := make(chan scanner.ImageFrame)
	out := make(chan scanner.Event, 8)
	ctx := testCtx(t)
	go func() {
		defer close(in)
		for _, p := range paths {
			fr, err := scanner.LoadFrame(p)
			if err != nil {
				t.Error(err)
				return
			}
			in <- fr
		}
	}()
	if err := src.Run(ctx, in, out); err != nil {
		t.Fatal(err)
	}
	close(out)
	var got []scanner.Event
	for ev := range out {
		got = append(got, ev)
	}
	want := []struct {
		kind      scanner.EventKind
		text, sym string
	}{
		{scanner.EventScan, "PACK-0001", "]C0"},
		{scanner.EventScan, "01234567890128", "]I0"},
		{scanner.EventScan, "VALID-0042-SECRET", "]Q1"},
		{scanner.EventError, "", ""},
	}
	if len(got) != len(want) {
		t.Fatalf("events %+v", got)
	}
	for i, w := range want {
		if got[i].Kind != w.kind || got[i].Scan.Text != w.text || got[i].Scan.Symbology != w.sym {
			t.Errorf("event %d: %+v, want %+v", i, got[i], w)
		}
	}
	if _, err := scanner.LoadFrame(filepath.Join(dir, "missing.png")); err == nil {
		t.Error("missing file loaded")
	}
}
