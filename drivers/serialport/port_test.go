package serialport_test

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/packterm/pos/drivers/serialport"
	"github.com/packterm/pos/drivers/serialport/serialemul"
)

// pump advances fc whenever a goroutine waits on it, so backoff never sleeps for real.
func pump(ctx context.Context, fc *clockwork.FakeClock) {
	for ctx.Err() == nil {
		if fc.BlockUntilContext(ctx, 1) != nil {
			return
		}
		fc.Advance(time.Hour)
	}
}

func next(t *testing.T, p *serialport.Port) serialport.Packet {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	pk, err := p.Next(ctx)
	if err != nil {
		t.Fatalf("Next: %v", err)
	}
	return pk
}

// readUntil collects data packets until want has been received.
func readUntil(t *testing.T, p *serialport.Port, want []byte) {
	t.Helper()
	var got []byte
	for !bytes.Contains(got, want) {
		pk := next(t, p)
		if pk.Data == nil {
			t.Fatalf("state %v while waiting for %q (got %q)", pk.State, want, got)
		}
		got = append(got, pk.Data...)
	}
}

func TestUnplugReplug(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	fc := clockwork.NewFakeClock()
	go pump(ctx, fc)

	var seen bytes.Buffer
	written := make(chan []byte, 16)
	link := filepath.Join(t.TempDir(), "ttyEMU")
	dev, err := serialemul.New(link, func(b []byte) { written <- b })
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close()
	p, err := serialport.Open(serialport.Config{Path: link, Clock: fc})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if pk := next(t, p); pk.State != serialport.Connected || pk.Data != nil {
		t.Fatalf("first packet %+v, want Connected", pk)
	}
	if _, err := dev.Write([]byte("ABC\r")); err != nil {
		t.Fatal(err)
	}
	readUntil(t, p, []byte("ABC\r"))
	if _, err := p.Write([]byte("host")); err != nil {
		t.Fatal(err)
	}
	for seen.Len() < 4 {
		seen.Write(<-written)
	}
	if seen.String() != "host" {
		t.Fatalf("device got %q", seen.String())
	}

	dev.Unplug()
	pk := next(t, p)
	if pk.State != serialport.Disconnected || pk.Err == nil {
		t.Fatalf("after unplug got %+v, want Disconnected with a cause", pk)
	}
	if _, err := p.Write([]byte("x")); !errors.Is(err, serialport.ErrDisconnected) {
		t.Fatalf("write while unplugged: %v", err)
	}
	if err := dev.Replug(); err != nil {
		t.Fatal(err)
	}
	// The device talks right after reappearing: nothing may be lost.
	if pk := next(t, p); pk.State != serialport.Connected {
		t.Fatalf("after replug got %+v", pk)
	}
	if _, err := dev.Write([]byte("AFTER\r")); err != nil {
		t.Fatal(err)
	}
	readUntil(t, p, []byte("AFTER\r"))
}

func TestReplugSamePathRepeatedly(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	fc := clockwork.NewFakeClock()
	go pump(ctx, fc)
	link := filepath.Join(t.TempDir(), "ttyEMU")
	dev, err := serialemul.New(link, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close()
	p, err := serialport.Open(serialport.Config{Path: link, Clock: fc})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	for i := range 3 {
		if pk := next(t, p); pk.State != serialport.Connected {
			t.Fatalf("round %d: %+v", i, pk)
		}
		dev.Unplug()
		if pk := next(t, p); pk.State != serialport.Disconnected {
			t.Fatalf("round %d: %+v", i, pk)
		}
		if err := dev.Replug(); err != nil {
			t.Fatal(err)
		}
	}
}

func TestStartsAbsent(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	fc := clockwork.NewFakeClock()
	link := filepath.Join(t.TempDir(), "ttyEMU")
	p, err := serialport.Open(serialport.Config{Path: link, Clock: fc, MinBackoff: time.Second, MaxBackoff: 4 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	// Three failed attempts: waits of 1 s, 2 s, 4 s on the fake clock.
	for _, d := range []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 4 * time.Second} {
		if err := fc.BlockUntilContext(ctx, 1); err != nil {
			t.Fatal(err)
		}
		fc.Advance(d - time.Millisecond)
		if p.Connected() {
			t.Fatal("connected with no device")
		}
		fc.Advance(time.Millisecond)
	}
	dev, err := serialemul.New(link, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close()
	go pump(ctx, fc)
	wctx, wcancel := context.WithTimeout(ctx, 5*time.Second)
	defer wcancel()
	if err := p.WaitConnected(wctx); err != nil {
		t.Fatal(err)
	}
}

func TestConfigErrors(t *testing.T) {
	for _, c := range []serialport.Config{
		{},
		{Path: "/dev/null", Baud: 14400},
		{Path: "/dev/null", ReadTimeout: time.Millisecond},
		{Path: "/dev/null", ReadTimeout: time.Minute},
	} {
		if _, err := serialport.Open(c); err == nil {
			t.Errorf("Open(%+v) accepted", c)
		}
	}
}
