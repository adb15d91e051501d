package flash_test

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"io"
	"net"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/packterm/pos/firmware/flash"
)

// TestNetworkLinkWideChunks: over TCP the terminal offers MaxNetChunk and the client sends
// chunks that long by default (a 300 KiB bundle in about ten round trips, not seventy-five);
// a client asking for MaxChunk still gets it, and both install.
func TestNetworkLinkWideChunks(t *testing.T) {
	for _, c := range []struct {
		chunk, want int
	}{{0, flash.MaxNetChunk}, {flash.MaxChunk, flash.MaxChunk}} {
		tm := newTerminal(t)
		b := bigBundle("2.0.0", key)
		cl := tm.client(token, 0)
		cl.Chunk = c.chunk
		acks := 0
		cl.Progress = func(done, total int64) { acks++ }
		if _, err := send(t, cl, flash.Firmware, b); err != nil {
			t.Fatalf("chunk %d: %v", c.chunk, err)
		}
		if want := (len(b) + c.want - 1) / c.want; acks != want {
			t.Errorf("chunk %d: %d acknowledged chunks for %d bytes, want %d (chunks of %d)", c.chunk, acks, len(b), want, c.want)
		}
	}
}

// hello opens a session on conn and returns the HelloOK's payload.
func hello(t *testing.T, w io.Writer, r io.Reader) []byte {
	t.Helper()
	go w.Write(flash.AppendFrame(nil, 'H', append([]byte{flash.ProtocolVersion}, token...)))
	f, err := flash.NewFrameReader(r).Next()
	if err != nil || f.Type != 'O' {
		t.Fatalf("hello: %v %c", err, f.Type)
	}
	return f.Payload
}

// TestHelloOKOffersChunk: the terminal offers MaxNetChunk on a network link and MaxChunk on
// a physical one (a serial line, where a frame hit by noise costs a resynchronisation and
// a retransmission: short frames), and its frame reader takes no longer frame there.
func TestHelloOKOffersChunk(t *testing.T) {
	offer := func(p []byte) int {
		if len(p) != 3 || p[0] != flash.ProtocolVersion {
			t.Fatalf("HelloOK payload %x, want the version and a uint16 chunk", p)
		}
		return int(binary.BigEndian.Uint16(p[1:]))
	}
	srv := &flash.Server{TokenHash: sha256.Sum256(token), SpoolDir: t.TempDir(), AuthDelay: -1, Clock: clockwork.NewFakeClock()}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { srv.ServeListener(ctx, ln); close(done) }()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	if n := offer(hello(t, c, c)); n != flash.MaxNetChunk {
		t.Errorf("network link offers %d, want %d", n, flash.MaxNetChunk)
	}
	c.Close()

	toSrv, fromHost := io.Pipe()
	fromSrv, toHost := io.Pipe()
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, pipeLink{toSrv, toHost}) }()
	if n := offer(hello(t, fromHost, fromSrv)); n != flash.MaxChunk {
		t.Errorf("physical link offers %d, want %d", n, flash.MaxChunk)
	}
	cancel()
	fromHost.Close()
	fromSrv.Close()
	<-served
	<-done
}

// TestOfferedChunk: a HelloOK without a chunk (a terminal of before it) or with one out of
// range gets MaxChunk, the only chunk such a terminal's reader takes.
func TestOfferedChunk(t *testing.T) {
	v := byte(flash.ProtocolVersion)
	for _, c := range []struct {
		p    []byte
		want int
	}{
		{[]byte{v}, flash.MaxChunk},
		{nil, flash.MaxChunk},
		{[]byte{v, 0x80}, flash.MaxChunk},
		{[]byte{v, 0x80, 0x00}, flash.MaxNetChunk},
		{[]byte{v, 0x10, 0x00}, flash.MaxChunk},
		{[]byte{v, 0x20, 0x00}, 0x2000},
		{[]byte{v, 0x00, 0x10}, flash.MaxChunk},
		{[]byte{v, 0xff, 0xff}, flash.MaxChunk},
	} {
		if got := flash.OfferedChunk(c.p); got != c.want {
			t.Errorf("OfferedChunk(%x) = %d, want %d", c.p, got, c.want)
		}
	}
}

// FuzzOfferedChunk: whatever a HelloOK carries, the chunk taken is one the terminal's
// reader accepts on some link, never more than MaxNetChunk nor less than MaxChunk.
func FuzzOfferedChunk(f *testing.F) {
	f.Add([]byte{1})
	f.Add([]byte{1, 0x80, 0x00})
	f.Fuzz(func(t *testing.T, p []byte) {
		if n := flash.OfferedChunk(p); n < flash.MaxChunk || n > flash.MaxNetChunk {
			t.Fatalf("OfferedChunk(%x) = %d", p, n)
		}
	})
}
