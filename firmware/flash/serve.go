package flash

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"time"

	"github.com/jonboulle/clockwork"
)

// Defaults of the Server's timing fields.
const (
	DefaultIdleTimeout   = 30 * time.Second
	DefaultHelloTimeout  = 5 * time.Second
	DefaultTakeoverAfter = 10 * time.Second
	DefaultKeepAlive     = 15 * time.Second
)

func orDefault[T int | time.Duration](v, d T) T {
	if v <= 0 {
		return d
	}
	return v
}

// physical is the guessing source of a link whose peer is a device on the terminal (a
// serial cable): whoever holds it.
const physical = "physical"

// Serve runs sessions on conn until its reads fail (a closed connection: nil for io.EOF)
// or ctx ends. When conn is an io.Closer it is closed as ctx ends.
//
// A net.Conn is served as ServeListener serves it: closed without a technician session
// within HelloTimeout or idle for IdleTimeout. Any other conn is a link whose peer is
// physical (a serial line): it runs for as long as the port stays open, a pulled cable or
// an idle session only ends the session, whose transfer stays spooled for resume.
func (s *Server) Serve(ctx context.Context, conn io.ReadWriter) error {
	if c, ok := conn.(net.Conn); ok {
		return s.serve(ctx, conn, sourceOf(c.RemoteAddr()), true)
	}
	return s.serve(ctx, conn, physical, false)
}

// serve is Serve's loop; network says conn is a connection to close on the hello deadline
// and on idle.
func (s *Server) serve(ctx context.Context, conn io.ReadWriter, source string, network bool) error {
	clock, log := s.defaults()
	if c, ok := conn.(io.Closer); ok {
		stop := context.AfterFunc(ctx, func() { c.Close() })
		defer stop()
	}
	chunk := MaxChunk
	if network {
		chunk = MaxNetChunk
	}
	l := newLink(conn, 8+chunk)
	defer l.stop()
	ss := &session{s: s, l: l, clock: clock, log: log.With("source", source), source: source, chunk: chunk,
		evict: make(chan struct{}), ended: make(chan struct{})}
	defer ss.hangUp()
	idle := orDefault(s.IdleTimeout, DefaultIdleTimeout)
	timer := clock.NewTimer(idle)
	defer timer.Stop()
	// helloBy fires when a network connection has had no technician session for
	// HelloTimeout; nil while a session is open.
	var hello clockwork.Timer
	var helloBy <-chan time.Time
	armHello := func() {
		if network && !ss.authed && helloBy == nil {
			hello = clock.NewTimer(orDefault(s.HelloTimeout, DefaultHelloTimeout))
			helloBy = hello.Chan()
		}
	}
	defer func() {
		if hello != nil {
			hello.Stop()
		}
	}()
	armHello()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-ss.evict:
			log.Info("flash: silent session replaced by a new one", "source", source)
			return nil
		case <-helloBy:
			log.Info("flash: no technician token in time: connection closed", "source", source)
			return nil
		case <-timer.Chan():
			if ss.authed {
				log.Info("flash: session idle, closed", "source", source)
			}
			if network {
				return nil
			}
			ss.reset()
			timer.Reset(idle)
		case f, ok := <-l.frames:
			if !ok {
				if errors.Is(l.err, io.EOF) || ctx.Err() != nil {
					return nil
				}
				return fmt.Errorf("flash: serve: %w", l.err)
			}
			timer.Reset(idle)
			now := clock.Now()
			if !s.handling(ss, now) {
				return nil // replaced meanwhile
			}
			err := ss.handle(ctx, f)
			s.handled(ss, clock.Now())
			if err != nil {
				log.Warn("flash: session ended", "source", source, "err", err)
				ss.reset()
			}
			if ss.authed && hello != nil {
				hello.Stop()
				hello, helloBy = nil, nil
			}
			armHello()
		}
	}
}

// ServeListener accepts connections (e.g. TCP on the maintenance network) and serves each
// in its own goroutine until ctx ends; it returns once they have all ended. Accepted TCP
// connections have keepalive on (KeepAlive).
func (s *Server) ServeListener(ctx context.Context, ln net.Listener) error {
	_, log := s.defaults()
	stop := context.AfterFunc(ctx, func() { ln.Close() })
	defer stop()
	var running sync.WaitGroup
	defer running.Wait()
	for {
		c, err := ln.Accept()
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("flash: accept: %w", err)
		}
		s.keepAlive(c, log)
		source := sourceOf(c.RemoteAddr())
		if why := s.admit(source); why != "" {
			log.Warn("flash: connection refused", "source", source, "why", why)
			go refuse(c, why)
			continue
		}
		running.Go(func() {
			defer s.release(source)
			err := s.serve(ctx, c, source, true)
			c.Close()
			if err != nil {
				log.Warn("flash: connection ended", "source", source, "err", err)
			}
		})
	}
}

// refuse tells a connection beyond the limits that the terminal is busy, and closes it.
func refuse(c net.Conn, why string) {
	c.SetWriteDeadline(time.Now().Add(time.Second))
	c.Write(AppendFrame(nil, tError, encodeError(codeBusy, why)))
	c.Close()
}

// keepAlive turns TCP keepalive on for an accepted connection: a peer that vanished
// without a word (cable, power, a NAT forgetting it) is noticed within about twice
// KeepAlive.
func (s *Server) keepAlive(c net.Conn, log interface{ Warn(string, ...any) }) {
	kc, ok := c.(interface {
		SetKeepAliveConfig(net.KeepAliveConfig) error
	})
	if !ok {
		return
	}
	idle := orDefault(s.KeepAlive, DefaultKeepAlive)
	cfg := net.KeepAliveConfig{Enable: true, Idle: idle, Interval: max(idle/3, time.Second), Count: 3}
	if err := kc.SetKeepAliveConfig(cfg); err != nil {
		log.Warn("flash: keepalive not set", "err", err)
	}
}

// admit counts a network connection from source in, or says why not.
func (s *Server) admit(source string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.nconns >= orDefault(s.MaxConns, 16) {
		return "too many connections to this terminal; try again shortly"
	}
	if s.conns[source] >= orDefault(s.MaxConnsPerSource, 4) {
		return "too many connections from your address; close the others"
	}
	if s.conns == nil {
		s.conns = map[string]int{}
	}
	s.conns[source]++
	s.nconns++
	return ""
}

func (s *Server) release(source string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nconns--
	if s.conns[source]--; s.conns[source] <= 0 {
		delete(s.conns, source)
	}
}

// sourceOf is the guessing source of a peer: its IPv4 address, its IPv6 /64 (one host
// has a whole /64 to pick addresses from), or the address as written.
func sourceOf(a net.Addr) string {
	ta, ok := a.(*net.TCPAddr)
	if !ok || ta.IP == nil {
		if a == nil {
			return "unknown"
		}
		return a.String()
	}
	if ip4 := ta.IP.To4(); ip4 != nil {
		return ip4.String()
	}
	return (&net.IPNet{IP: ta.IP.Mask(net.CIDRMask(64, 128)), Mask: net.CIDRMask(64, 128)}).String()
}
