package flash_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/packterm/pos/firmware/flash"
)

// The tests here bound their waits in real time (a context, a read deadline) only so that
// a server that never answers fails them instead of hanging; nothing sleeps.

var cfg = []byte("[terminal]\nid = \"T9\"\n")

// peer is a raw connection to the terminal, from the loopback address from (e.g.
// "127.0.0.2": every 127/8 address is the host's own).
type peer struct {
	t  *testing.T
	c  net.Conn
	fr *flash.FrameReader
}

func dialFrom(t *testing.T, addr, from string) *peer {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return &peer{t: t, c: c, fr: flash.NewFrameReader(c)}
}

func (p *peer) send(typ byte, payload []byte) {
	p.t.Helper()
	if _, err := p.c.Write(flash.AppendFrame(nil, typ, payload)); err != nil {
		p.t.Fatal(err)
	}
}

// next is the next frame, waiting 5 s at most.
func (p *peer) next() (flash.Frame, error) {
	p.c.SetReadDeadline(time.Now().Add(5 * time.Second))
	return p.fr.Next()
}

// hello says Hello with tok and returns the answer's type.
func (p *peer) hello(tok []byte) flash.Frame {
	p.t.Helper()
	p.send('H', append([]byte{flash.ProtocolVersion}, tok...))
	f, err := p.next()
	if err != nil {
		p.t.Fatalf("hello: %v", err)
	}
	return f
}

// begin announces a config of cfg and waits for Resume: the server has handled every
// frame before it.
func (p *peer) begin() {
	p.t.Helper()
	sum := sha256.Sum256(cfg)
	b := binary.BigEndian.AppendUint64([]byte{byte(flash.Config)}, uint64(len(cfg)))
	p.send('B', append(b, sum[:]...))
	if f, err := p.next(); err != nil || f.Type != 'R' {
		p.t.Fatalf("begin: %v %q", err, f.Payload)
	}
}

// closed says whether the server closed the connection (within 5 s).
func (p *peer) closed() bool {
	for {
		_, err := p.next()
		if err != nil {
			return errors.Is(err, io.EOF) || errors.Is(err, syscall.ECONNRESET)
		}
	}
}

func sendWithin(t *testing.T, c *flash.Client, d time.Duration) (flash.Result, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	return c.Send(ctx, flash.Config, strings.NewReader(string(cfg)), int64(len(cfg)))
}

// TestSilentConnectionClosed: a connection that says nothing does not hold the link: the
// technician who connects meanwhile is served at once, and the silent connection is
// closed once HelloTimeout has passed on the terminal's clock. Frames without the token
// are not the link's activity (they would put the daemon's restart off).
func TestSilentConnectionClosed(t *testing.T) {
	tm := newTerminal(t)
	clock := tm.srv.Clock.(*clockwork.FakeClock)
	silent := dialFrom(t, tm.addr, "127.0.0.1")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := clock.BlockUntilContext(ctx, 2); err != nil {
		t.Errorf("no hello deadline armed for the silent connection: %v", err)
	}
	if res, err := sendWithin(t, tm.client(token, 0), 10*time.Second); err != nil || !strings.Contains(res.Message, "config installed") {
		t.Fatalf("the technician behind a silent connection: %+v %v", res, err)
	}
	// The technician's last frame counts once its answer is written: wait for the
	// session's end before taking the time a stranger must not move.
	waitConnections(t, tm.srv, 1)
	stranger := dialFrom(t, tm.addr, "127.0.0.3")
	stranger.send('B', make([]byte, 41))
	if f, err := stranger.next(); err != nil || f.Type != 'X' {
		t.Fatalf("a Begin without a session: %v %q", err, f.Payload)
	}
	before := tm.srv.LastActivity()
	clock.Advance(flash.DefaultHelloTimeout)
	if !silent.closed() {
		t.Fatal("the silent connection is still open after the hello deadline")
	}
	if !stranger.closed() {
		t.Fatal("the stranger's connection is still open after the hello deadline")
	}
	if got := tm.srv.LastActivity(); !got.Equal(before) {
		t.Errorf("a stranger's frame moved LastActivity to %v", got)
	}
}

// TestIdleSessionClosed: an authenticated session that goes silent is closed, connection
// and all, after IdleTimeout.
func TestIdleSessionClosed(t *testing.T) {
	tm := newTerminal(t)
	clock := tm.srv.Clock.(*clockwork.FakeClock)
	p := dialFrom(t, tm.addr, "127.0.0.1")
	if f := p.hello(token); f.Type != 'O' {
		t.Fatalf("hello: %c %q", f.Type, f.Payload)
	}
	p.begin()
	clock.Advance(flash.DefaultIdleTimeout)
	if !p.closed() {
		t.Fatal("an idle technician session's connection is still open")
	}
}

// TestSecondTechnicianBusy: while one technician session holds the terminal, a second one
// is told at once that the terminal is busy, in words; once the first has been silent for
// TakeoverAfter (a link that died unnoticed), the second replaces it and is served.
func TestSecondTechnicianBusy(t *testing.T) {
	tm := newTerminal(t)
	clock := tm.srv.Clock.(*clockwork.FakeClock)
	first := dialFrom(t, tm.addr, "127.0.0.1")
	if f := first.hello(token); f.Type != 'O' {
		t.Fatalf("hello: %c %q", f.Type, f.Payload)
	}
	first.begin()
	_, err := sendWithin(t, tm.client(token, 0), 5*time.Second)
	if !errors.Is(err, flash.ErrBusy) || !strings.Contains(err.Error(), "another technician's session is in progress") {
		t.Fatalf("second technician: %v", err)
	}
	clock.Advance(flash.DefaultTakeoverAfter)
	if res, err := sendWithin(t, tm.client(token, 0), 10*time.Second); err != nil || !strings.Contains(res.Message, "config installed") {
		t.Fatalf("second technician after the first went silent: %+v %v", res, err)
	}
	if !first.closed() {
		t.Fatal("the replaced session's connection is still open")
	}
}

// TestStrangerElsewhereNoLockout: wrong tokens from another address, enough to lock any
// address out, leave the technician's address alone; on the stranger's own the pause
// holds.
func TestStrangerElsewhereNoLockout(t *testing.T) {
	tm := newTerminal(t)
	for i := range 20 {
		p := dialFrom(t, tm.addr, "127.0.0.2")
		if f := p.hello([]byte(fmt.Sprintf("guess-%d", i))); f.Type != 'X' {
			t.Fatalf("guess %d: %c", i, f.Type)
		}
		p.c.Close()
	}
	p := dialFrom(t, tm.addr, "127.0.0.2")
	if !strings.Contains(string(p.hello(token).Payload), "too many wrong tokens") {
		t.Fatal("the stranger's address is not paused")
	}
	p.c.Close()
	if res, err := sendWithin(t, tm.client(token, 0), 10*time.Second); err != nil || !strings.Contains(res.Message, "config installed") {
		t.Fatalf("the technician after a stranger's guesses elsewhere: %+v %v", res, err)
	}
}

// TestTooManyConnections: one address holds at most MaxConnsPerSource connections; one
// more is told busy and closed, while another address is still served.
func TestTooManyConnections(t *testing.T) {
	tm := newTerminal(t)
	for range 4 {
		dialFrom(t, tm.addr, "127.0.0.2")
	}
	p := dialFrom(t, tm.addr, "127.0.0.2")
	if f, err := p.next(); err != nil || f.Type != 'X' || !strings.Contains(string(f.Payload), "too many connections from your address") {
		t.Fatalf("fifth connection: %v %q", err, f.Payload)
	}
	if res, err := sendWithin(t, tm.client(token, 0), 10*time.Second); err != nil {
		t.Fatalf("the technician elsewhere: %+v %v", res, err)
	}
}

// keptConns is a listener that hands the test each connection it accepts.
type keptConns struct {
	net.Listener
	conns chan net.Conn
}

func (k keptConns) Accept() (net.Conn, error) {
	c, err := k.Listener.Accept()
	if err == nil {
		k.conns <- c
	}
	return c, err
}

// TestKeepAliveOnAccepted: the server turns TCP keepalive on for the connections it
// accepts, whatever the listener's own setting.
func TestKeepAliveOnAccepted(t *testing.T) {
	lc := net.ListenConfig{KeepAlive: -1}
	ln, err := lc.Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	kept := keptConns{ln, make(chan net.Conn, 1)}
	srv := &flash.Server{TokenHash: sha256.Sum256(token), SpoolDir: t.TempDir(), AuthDelay: -1, Clock: clockwork.NewFakeClock()}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { srv.ServeListener(ctx, kept); close(done) }()
	defer func() { cancel(); <-done }()
	p := dialFrom(t, ln.Addr().String(), "127.0.0.1")
	if f := p.hello(token); f.Type != 'O' {
		t.Fatalf("hello: %c", f.Type)
	}
	raw, err := (<-kept.conns).(*net.TCPConn).SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var on, idle int
	raw.Control(func(fd uintptr) {
		on, _ = syscall.GetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_KEEPALIVE)
		idle, _ = syscall.GetsockoptInt(int(fd), syscall.IPPROTO_TCP, syscall.TCP_KEEPIDLE)
	})
	if on != 1 || time.Duration(idle)*time.Second != flash.DefaultKeepAlive {
		t.Fatalf("keepalive %d, idle %d s; want on, %v", on, idle, flash.DefaultKeepAlive)
	}
}

// pipeLink is one end of a link whose peer is physical (not a net.Conn), as a serial line.
type pipeLink struct {
	io.Reader
	io.Writer
}

// TestPhysicalLinkStays: on a link whose peer is physical (a serial line) there is no
// hello deadline and an idle session does not end the link: the port stays served.
func TestPhysicalLinkStays(t *testing.T) {
	clock := clockwork.NewFakeClock()
	srv := &flash.Server{TokenHash: sha256.Sum256(token), SpoolDir: t.TempDir(), AuthDelay: -1, Clock: clock}
	toSrv, fromHost := io.Pipe()
	fromSrv, toHost := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, pipeLink{toSrv, toHost}) }()
	defer func() { cancel(); fromHost.Close(); fromSrv.Close(); <-done }()
	wctx, wcancel := context.WithTimeout(ctx, 5*time.Second)
	defer wcancel()
	if err := clock.BlockUntilContext(wctx, 1); err != nil {
		t.Fatal(err)
	}
	clock.Advance(flash.DefaultHelloTimeout + flash.DefaultIdleTimeout)
	go fromHost.Write(flash.AppendFrame(nil, 'H', append([]byte{flash.ProtocolVersion}, token...)))
	if f, err := flash.NewFrameReader(fromSrv).Next(); err != nil || f.Type != 'O' {
		t.Fatalf("hello on the physical link after a long silence: %v %c", err, f.Type)
	}
}

// frozenConn stops carrying bytes once limit have been written, without closing: the
// terminal does not notice (a half-open connection). Close leaves the socket open.
type frozenConn struct {
	net.Conn
	left *atomic.Int64
}

func (c frozenConn) Write(p []byte) (int, error) {
	if c.left.Add(-int64(len(p))) < 0 {
		return 0, errors.New("link frozen")
	}
	return c.Conn.Write(p)
}

func (c frozenConn) Close() error { return nil }

// TestReconnectTakesOverDeadSession: the technician's link dies without the terminal
// noticing; the reconnection is told busy and retries, and once the dead session has been
// silent for TakeoverAfter it is replaced and the transfer resumes.
func TestReconnectTakesOverDeadSession(t *testing.T) {
	tm := newTerminal(t)
	clock := tm.srv.Clock.(*clockwork.FakeClock)
	var dials atomic.Int32
	c := &flash.Client{
		Token: token, Backoff: -1, Attempts: 5, Clock: clockwork.NewFakeClock(),
		Dial: func(ctx context.Context) (io.ReadWriteCloser, error) {
			n := dials.Add(1)
			if n == 3 {
				clock.Advance(flash.DefaultTakeoverAfter)
			}
			conn, err := net.Dial("tcp", tm.addr)
			if err != nil || n > 1 {
				return conn, err
			}
			t.Cleanup(func() { conn.Close() })
			left := &atomic.Int64{}
			left.Store(60 << 10)
			return frozenConn{conn, left}, nil
		},
	}
	b := bigBundle("2.0.0", key)
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	res, err := c.Send(ctx, flash.Firmware, bytes.NewReader(b), int64(len(b)))
	if err != nil || res.Attempts != 3 || len(res.Resumed) != 1 {
		t.Fatalf("after a dead link: %+v %v; want 3 links (frozen, busy, taken over) and a resume", res, err)
	}
}

// waitConnections waits (5 s at most, in real time: the network stack's moment) until srv
// serves n connections.
func waitConnections(t *testing.T, srv *flash.Server, n int) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); srv.Connections() != n; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the server serves %d connections, want %d", srv.Connections(), n)
		}
	}
}
