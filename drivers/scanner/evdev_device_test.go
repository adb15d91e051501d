package scanner_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/packterm/pos/drivers/scanner"
)

// fakeInput stands for a USB keyboard scanner: a FIFO as its /dev/input/eventN node and the
// by-id link udev makes to it. Writing recorded input_event bytes into it is the scanner
// typing; unplugging closes the writer (the reader sees the end, as a read of an evdev node
// fails with ENODEV) and removes node and link. The FIFO is opened for writing first, so
// the driver never opens it without a writer.
type fakeInput struct {
	t     *testing.T
	dir   string // …/input
	name  string
	w     *os.File
	event string
}

func newFakeInput(t *testing.T) *fakeInput {
	d := &fakeInput{t: t, dir: filepath.Join(t.TempDir(), "input"), name: "usb-Test_Barcode_Scanner-event-kbd"}
	if err := os.MkdirAll(filepath.Join(d.dir, "by-id"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if d.w != nil {
			d.w.Close()
		}
	})
	return d
}

func (d *fakeInput) byID() string { return filepath.Join(d.dir, "by-id") }
func (d *fakeInput) path() string { return filepath.Join(d.byID(), d.name) }

func (d *fakeInput) plug(n int) {
	d.event = filepath.Join(d.dir, fmt.Sprintf("event%d", n))
	if err := syscall.Mkfifo(d.event, 0o600); err != nil {
		d.t.Fatal(err)
	}
	w, err := os.OpenFile(d.event, os.O_RDWR, 0)
	if err != nil {
		d.t.Fatal(err)
	}
	d.w = w
	if err := os.Symlink(filepath.Join("..", filepath.Base(d.event)), d.path()); err != nil {
		d.t.Fatal(err)
	}
}

func (d *fakeInput) unplug() {
	os.Remove(d.path())
	os.Remove(d.event)
	d.w.Close()
	d.w = nil
}

// write sends b in pieces of chunk bytes (a pipe may split events; evdev never does).
func (d *fakeInput) write(b []byte, chunk int) {
	for len(b) > 0 {
		n := min(chunk, len(b))
		if _, err := d.w.Write(b[:n]); err != nil {
			d.t.Fatal(err)
		}
		b = b[n:]
	}
}

func nativeRecording(t *testing.T, name string) []byte {
	b, err := os.ReadFile(filepath.Join("testdata", "evdev", fmt.Sprintf("%s.ev%d", name, scanner.NativeWord*8)))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

var usCodes = []string{"PACK-0042-7", "https://x.example/v?a=1&b=2_#~", "0103453120000011\x1d17291231", "123", "Pack-ok"}

// A keyboard scanner read through its by-id name: codes delivered as scans like a serial
// scanner's; unplugged mid-code, the fragment is dropped, the device reopened by name (as
// another eventN) with exponential backoff on the injected clock.
func TestKeyboardScannerUnplugReplug(t *testing.T) {
	dev := newFakeInput(t)
	dev.plug(3)
	fc := clockwork.NewFakeClock()
	kb, err := scanner.NewKeyboard(scanner.KeyboardConfig{Input: dev.name, Dir: dev.byID(), Keymap: scanner.KeymapUS,
		Clock: fc, MinBackoff: 100 * time.Millisecond, MaxBackoff: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer kb.Close()
	s := scanner.NewKeyboardScanner(kb, scanner.Config{Suffix: scanner.CR, DedupWindow: -1, Clock: clockwork.NewFakeClock()})
	r := &rig{events: make(chan scanner.Event, 16)}
	ctx, cancel := context.WithCancel(testCtx(t))
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx, r.events) }()
	defer func() {
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Errorf("Run: %v", err)
		}
	}()
	r.expect(t, scanner.EventConnected)
	rec := nativeRecording(t, "us-codes")
	dev.write(rec, 7)
	for _, c := range usCodes {
		ev := r.expect(t, scanner.EventScan)
		if ev.Scan.Text != c || ev.Scan.Source != "keyboard:"+dev.path() {
			t.Fatalf("scan %q from %q, want %q", ev.Scan.Text, ev.Scan.Source, c)
		}
	}
	// Half a code, then the cable is pulled.
	dev.write(rec[:20*scanner.EventSize(scanner.NativeWord)], 1<<20)
	dev.unplug()
	if ev := r.expect(t, scanner.EventDisconnected); ev.Err == nil || !strings.Contains(ev.Err.Error(), dev.name) {
		t.Fatalf("disconnect: %v", ev.Err)
	}
	// Absent: each try fails, the wait doubles up to MaxBackoff.
	start := fc.Now()
	for range 4 {
		if err := fc.BlockUntilContext(ctx, 1); err != nil {
			t.Fatal(err)
		}
		fc.Advance(time.Second)
	}
	dev.plug(7) // the try under way may find it already, or the next one
	go pump(ctx, fc)
	r.expect(t, scanner.EventConnected)
	if fc.Since(start) < 4*time.Second {
		t.Fatalf("reconnected after %v", fc.Since(start))
	}
	dev.write(rec, 1<<20)
	for _, c := range usCodes {
		ev := r.expect(t, scanner.EventScan)
		if ev.Scan.Text != c {
			t.Fatalf("after replug: %q, want %q (a fragment glued on?)", ev.Scan.Text, c)
		}
	}
}

// A recording in a regular file is replayed once: its end ends the stream.
func TestKeyboardRecordingEnds(t *testing.T) {
	path, _ := filepath.Abs(filepath.Join("testdata", "evdev", fmt.Sprintf("repeat.ev%d", scanner.NativeWord*8)))
	kb, err := scanner.NewKeyboard(scanner.KeyboardConfig{Input: path})
	if err != nil {
		t.Fatal(err)
	}
	defer kb.Close()
	s := scanner.NewKeyboardScanner(kb, scanner.Config{Suffix: scanner.CR, Clock: clockwork.NewFakeClock()})
	out := make(chan scanner.Event, 16)
	err = s.Run(testCtx(t), out)
	if !errors.Is(err, io.EOF) {
		t.Fatalf("Run: %v", err)
	}
	close(out)
	var got []string
	for ev := range out {
		if ev.Kind == scanner.EventScan {
			got = append(got, ev.Scan.Text)
		}
	}
	if strings.Join(got, "|") != "12456|OK" {
		t.Fatalf("scans %q", got)
	}
	if kb.Repeats() != 8 {
		t.Fatalf("%d repeats dropped, want 8", kb.Repeats())
	}
}

func TestKeyboardClosedWhileWaiting(t *testing.T) {
	kb, err := scanner.NewKeyboard(scanner.KeyboardConfig{Input: "absent-event-kbd", Dir: t.TempDir(), Clock: clockwork.NewFakeClock()})
	if err != nil {
		t.Fatal(err)
	}
	errc := make(chan error, 1)
	go func() {
		for {
			if _, err := kb.Next(testCtx(t)); err != nil {
				errc <- err
				return
			}
		}
	}()
	kb.Close()
	if err := <-errc; !errors.Is(err, os.ErrClosed) {
		t.Fatalf("Next after Close: %v", err)
	}
}

// TestKeyboardClosedWhileConnecting: Close while Next opens the device (the daemon shuts
// down as the scanner connects). Next learns from connect whether it opened the device;
// it read the device field unlocked before, which Close clears under the lock: the race
// detector caught it in device/daemon.
func TestKeyboardClosedWhileConnecting(t *testing.T) {
	path, _ := filepath.Abs(filepath.Join("testdata", "evdev", fmt.Sprintf("repeat.ev%d", scanner.NativeWord*8)))
	for range 20 {
		kb, err := scanner.NewKeyboard(scanner.KeyboardConfig{Input: path})
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		go func() {
			defer close(done)
			kb.Next(testCtx(t))
		}()
		kb.Close()
		<-done
	}
}
