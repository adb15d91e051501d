package flashserial_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"io"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/packterm/pos/drivers/serialport/serialemul"
	"github.com/packterm/pos/firmware/bundle"
	"github.com/packterm/pos/firmware/bundle/bundletest"
	"github.com/packterm/pos/firmware/flash"
	"github.com/packterm/pos/firmware/flash/flashserial"
	"github.com/packterm/pos/firmware/slot"
)

// hostCable is the technician's end of an emulated cable (the serialemul pty master): each
// Dial plugs it in and gives a fresh pipe of received bytes; it is pulled once cutAfter
// bytes have been written.
type hostCable struct {
	d        *serialemul.Device
	mu       sync.Mutex
	pw       *io.PipeWriter
	written  int
	cutAfter int
}

func (h *hostCable) received(b []byte) {
	h.mu.Lock()
	pw := h.pw
	h.mu.Unlock()
	if pw != nil {
		pw.Write(b)
	}
}

type hostEnd struct {
	h  *hostCable
	pr *io.PipeReader
}

func (e hostEnd) Read(b []byte) (int, error) { return e.pr.Read(b) }
func (e hostEnd) Close() error               { return e.pr.Close() }
func (e hostEnd) Write(b []byte) (int, error) {
	h := e.h
	h.mu.Lock()
	h.written += len(b)
	cut := h.cutAfter > 0 && h.written > h.cutAfter
	if cut {
		h.cutAfter = 0
	}
	h.mu.Unlock()
	if cut {
		h.d.Unplug()
		return 0, errors.New("cable pulled")
	}
	return h.d.Write(b)
}

func (h *hostCable) dial(context.Context) (io.ReadWriteCloser, error) {
	if err := h.d.Replug(); err != nil {
		return nil, err
	}
	pr, pw := io.Pipe()
	h.mu.Lock()
	if h.pw != nil {
		h.pw.Close()
	}
	h.pw = pw
	h.mu.Unlock()
	return hostEnd{h, pr}, nil
}

// TestServeOnSerialPort runs the terminal's flash server on a serial port (a pty) with
// flashserial.Serve; the cable is pulled mid-transfer, the port comes back and the host
// resumes.
func TestServeOnSerialPort(t *testing.T) {
	key := bundletest.NewKey()
	dir := t.TempDir()
	store, _ := slot.Open(filepath.Join(dir, "slots"), slot.Options{})
	tok := []byte("tok")
	srv := &flash.Server{TokenHash: sha256.Sum256(tok), SpoolDir: filepath.Join(dir, "spool"), Firmware: store,
		Trust: key.Trust(), AuthDelay: -1, SyncEvery: 4096}
	h := &hostCable{cutAfter: 60 << 10}
	d, err := serialemul.New(filepath.Join(dir, "ttyMAINT"), h.received)
	if err != nil {
		t.Fatal(err)
	}
	h.d = d
	defer d.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- flashserial.Serve(ctx, srv, d.Path(), 115200, nil) }()

	b := key.Build(bundletest.Spec{Version: "1.0.0", Posd: bytes.Repeat([]byte{1, 2, 3}, 40<<10)})
	// A Hello sent while the terminal is still reopening its port is lost: the short reply
	// timeout makes the host try again soon (real time: the port is real).
	c := &flash.Client{Token: tok, Dial: h.dial, Attempts: 30, Backoff: -1, Timeout: 300 * time.Millisecond}
	res, err := c.Send(ctx, flash.Firmware, bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Resumed) == 0 || res.Resumed[0] < 32<<10 {
		t.Fatalf("no resume after the pulled cable: %+v", res)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if hd, err := store.Verify(slot.A); err != nil || hd.Manifest.Version != (bundle.Version{Major: 1}) {
		t.Fatalf("installed slot: %v", err)
	}
}
