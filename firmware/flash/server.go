package flash

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"sync"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/packterm/pos/firmware/bundle"
	"github.com/packterm/pos/firmware/fwkey"
	"github.com/packterm/pos/firmware/slot"
	"github.com/packterm/pos/internal/guesses"
)

// Installer installs verified firmware bundles; *slot.Store is one.
type Installer interface {
	// Check says whether a bundle with this manifest may be installed (before the
	// payload is transferred).
	Check(m *bundle.Manifest) error
	Install(ctx context.Context, r *bundle.Reader) (slot.Installed, error)
}

var _ Installer = (*slot.Store)(nil)

// Item is a provisioning destination: the installed file and how to verify a candidate.
type Item struct {
	// Path is the installed file, replaced atomically once Verify accepts the new one.
	Path string
	// Verify checks a received file (a private copy in the spool) before it replaces
	// Path: the daemon passes ledger, status list, key and config verification here.
	Verify func(ctx context.Context, path string) error
	// MaxSize bounds the file (DefaultMaxItemSize when 0).
	MaxSize int64
	// Install, when set, verifies and installs the received file itself, failing closed
	// (for a ledger, whose installed name depends on its block): Path and Verify are then
	// not used. It returns what it installed, for the host.
	Install func(ctx context.Context, path string) (string, error)
}

// Size limits of transfers.
const (
	MaxFirmwareSize    = 256 << 20
	DefaultMaxItemSize = 64 << 20
)

// Server is the terminal's side of the maintenance link.
type Server struct {
	// TokenHash is the SHA-256 of the technician token; the zero value refuses everyone.
	TokenHash [32]byte
	// SpoolDir keeps partial transfers (for resume) on the terminal's own storage.
	SpoolDir string
	// Firmware installs bundles signed by a key of Trust; nil refuses firmware.
	Firmware Installer
	Trust    *fwkey.TrustStore
	// Items are the provisioning kinds accepted (Config, Keys, Ledger, Status).
	Items map[Kind]Item
	// OnInstalled, when set, is told after each successful install (e.g. to reload the
	// config or to restart into the new slot).
	OnInstalled func(kind Kind, info string)
	// IdleTimeout ends a session (authentication included) after no frame for that long
	// (default 30 s). AuthDelay is waited before answering a bad token (default 1 s;
	// negative: none).
	IdleTimeout time.Duration
	AuthDelay   time.Duration
	// SyncEvery and SyncInterval bound what a power cut may cost a resumed transfer:
	// received data is made durable once SyncEvery bytes (default 4 MiB) or SyncInterval
	// (default 2 s) have gone by since the last time (and always when a session ends).
	SyncEvery    int64
	SyncInterval time.Duration
	Clock        clockwork.Clock
	Logger       *slog.Logger

	mu       sync.Mutex
	last     lastInstall
	activity time.Time       // when the last frame arrived (LastActivity)
	guesses  guesses.Limiter // wrong tokens
}

// LastActivity is when the last frame (of any session, authenticated or not) arrived; the
// zero time before the first. The daemon waits for the link to be quiet before it
// restarts to take in what was installed, so that one technician's session of several
// items costs one restart.
func (s *Server) LastActivity() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.activity
}

func (s *Server) active(now time.Time) {
	s.mu.Lock()
	s.activity = now
	s.mu.Unlock()
}

// lastInstall is the item this Server installed last, kept in memory only: a host whose
// link broke before Done arrived is told on its next Begin, instead of sending the whole
// item again only to have it refused. A restart of the daemon (the only way a trial slot
// rolls back) forgets it, so a re-flash after a rollback is a real install.
type lastInstall struct {
	b    begin
	info string
	at   time.Time
}

// recallFor is how long a finished install is remembered.
const recallFor = 10 * time.Minute

func (s *Server) remember(b begin, info string, now time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.last = lastInstall{b: b, info: info, at: now}
}

func (s *Server) recall(b begin, now time.Time) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.last.info == "" || s.last.b != b || now.Sub(s.last.at) > recallFor {
		return "", false
	}
	return s.last.info, true
}

func (s *Server) defaults() (clockwork.Clock, *slog.Logger) {
	c, l := s.Clock, s.Logger
	if c == nil {
		c = clockwork.NewRealClock()
	}
	if l == nil {
		l = slog.New(slog.DiscardHandler)
	}
	return c, l
}

// Serve runs sessions on conn until its reads fail (a closed TCP connection: nil for
// io.EOF) or ctx ends. On a serial line it runs for as long as the port stays open: a
// pulled cable only ends the current session, whose transfer stays spooled for resume.
// When conn is an io.Closer it is closed as ctx ends.
func (s *Server) Serve(ctx context.Context, conn io.ReadWriter) error {
	clock, log := s.defaults()
	if c, ok := conn.(io.Closer); ok {
		stop := context.AfterFunc(ctx, func() { c.Close() })
		defer stop()
	}
	l := newLink(conn)
	defer l.stop()
	ss := &session{s: s, l: l, clock: clock, log: log}
	defer ss.reset()
	idle := s.IdleTimeout
	if idle <= 0 {
		idle = 30 * time.Second
	}
	timer := clock.NewTimer(idle)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-timer.Chan():
			if ss.authed {
				log.Info("flash: session idle, closed")
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
			s.active(clock.Now())
			if err := ss.handle(ctx, f); err != nil {
				log.Warn("flash: session ended", "err", err)
				ss.reset()
			}
		}
	}
}

// session is the state of one technician session on a Server.
type session struct {
	s      *Server
	l      *link
	clock  clockwork.Clock
	log    *slog.Logger
	authed bool
	t      *transfer
}

// reset ends the session: the transfer stays spooled for a resume.
func (ss *session) reset() {
	ss.authed = false
	ss.closeTransfer()
}

func (ss *session) closeTransfer() {
	if ss.t != nil {
		ss.t.close()
		ss.t = nil
	}
}

// fail sends an Error frame; the returned error is only the link's.
func (ss *session) fail(code byte, format string, a ...any) error {
	msg := fmt.Sprintf(format, a...)
	ss.log.Warn("flash: refused", "code", code, "why", msg)
	return ss.l.send(tError, encodeError(code, msg))
}

func (ss *session) handle(ctx context.Context, f Frame) error {
	if f.Type == tHello {
		return ss.hello(ctx, f.Payload)
	}
	if !ss.authed {
		return ss.fail(codeAuth, "say hello with the technician token first")
	}
	switch f.Type {
	case tBegin:
		return ss.begin(f.Payload)
	case tData:
		return ss.data(f.Payload)
	case tEnd:
		return ss.end(ctx)
	}
	return ss.fail(codeProtocol, "unexpected frame type %q", f.Type)
}

func (ss *session) hello(ctx context.Context, p []byte) error {
	ss.reset()
	if len(p) < 1 || p[0] != ProtocolVersion || len(p)-1 > MaxTokenSize {
		return ss.fail(codeProtocol, "hello: protocol version or token size")
	}
	now := ss.clock.Now()
	if wait := ss.s.guesses.Pause(now); wait > 0 {
		ss.authDelay(ctx)
		return ss.fail(codeAuth, "too many wrong tokens: none is checked for %v", wait.Round(time.Second))
	}
	sum := sha256.Sum256(p[1:])
	want := ss.s.TokenHash
	ok := subtle.ConstantTimeCompare(sum[:], want[:]) == 1 && want != [32]byte{}
	ss.s.guesses.Result(now, ok)
	if !ok {
		ss.authDelay(ctx)
		return ss.fail(codeAuth, "technician token refused")
	}
	ss.authed = true
	ss.log.Info("flash: technician session opened")
	return ss.l.send(tHelloOK, []byte{ProtocolVersion})
}

// authDelay waits AuthDelay (default 1 s) before a refusal is answered.
func (ss *session) authDelay(ctx context.Context) {
	d := ss.s.AuthDelay
	if d == 0 {
		d = time.Second
	}
	if d > 0 {
		select {
		case <-ss.clock.After(d):
		case <-ctx.Done():
		}
	}
}

func (ss *session) begin(p []byte) error {
	ss.closeTransfer()
	b, err := decodeBegin(p)
	if err != nil {
		return ss.fail(codeProtocol, "%v", err)
	}
	max := int64(MaxFirmwareSize)
	switch it, ok := ss.s.Items[b.Kind]; {
	case b.Kind == Firmware:
		if ss.s.Firmware == nil || ss.s.Trust.Len() == 0 {
			return ss.fail(codeRefused, "this terminal takes no firmware over the link")
		}
	case ok:
		max = it.MaxSize
		if max <= 0 {
			max = DefaultMaxItemSize
		}
	default:
		return ss.fail(codeRefused, "this terminal takes no %v", b.Kind)
	}
	if b.Size > max {
		return ss.fail(codeRefused, "%v of %d bytes, at most %d", b.Kind, b.Size, max)
	}
	if info, ok := ss.s.recall(b, ss.clock.Now()); ok {
		return ss.l.send(tDone, []byte(info+" (already installed)"))
	}
	t, err := openTransfer(ss.s.SpoolDir, b)
	if err != nil {
		return ss.fail(codeInternal, "%v", err)
	}
	ss.t = t
	t.syncedAt = ss.clock.Now()
	if t.off > 0 {
		ss.log.Info("flash: resuming", "kind", b.Kind.String(), "offset", t.off, "size", b.Size)
		if b.Kind == Firmware {
			if err := ss.checkHeader(); err != nil {
				ss.t.discard()
				ss.t = nil
				return ss.fail(codeRefused, "%v", err)
			}
		}
	}
	return ss.l.send(tResume, encodeOffset(t.off))
}

func (ss *session) data(p []byte) error {
	t := ss.t
	if t == nil {
		return ss.fail(codeProtocol, "data before begin")
	}
	off, err := decodeOffset(p, "data")
	if err != nil {
		return ss.fail(codeProtocol, "%v", err)
	}
	chunk := p[8:]
	if off != t.off {
		// A retransmission or a lost frame: tell the host where we are.
		return ss.l.send(tAck, encodeOffset(t.off))
	}
	if off+int64(len(chunk)) > t.b.Size {
		return ss.fail(codeProtocol, "data past the announced size %d", t.b.Size)
	}
	if _, err := t.f.Write(chunk); err != nil {
		return ss.fail(codeInternal, "spool: %v", err)
	}
	t.off += int64(len(chunk))
	every, interval := ss.s.SyncEvery, ss.s.SyncInterval
	if every <= 0 {
		every = 4 << 20
	}
	if interval <= 0 {
		interval = 2 * time.Second
	}
	if t.off-t.synced >= every || ss.clock.Since(t.syncedAt) >= interval {
		t.syncedAt = ss.clock.Now()
		if err := t.persist(); err != nil {
			return ss.fail(codeInternal, "%v", err)
		}
	}
	if t.b.Kind == Firmware && !t.headerOK {
		if err := ss.checkHeader(); err != nil {
			ss.t.discard()
			ss.t = nil
			return ss.fail(codeRefused, "%v", err)
		}
	}
	return ss.l.send(tAck, encodeOffset(t.off))
}

// checkHeader verifies a firmware bundle's header as soon as the spool holds it: trusted
// signature, declared size, and the installer's own checks (target, anti-rollback).
func (ss *session) checkHeader() error {
	t := ss.t
	h, err := bundle.ReadHeader(io.NewSectionReader(t.f, 0, t.off))
	if errors.Is(err, io.ErrUnexpectedEOF) && t.off < t.b.Size {
		return nil // not all in yet
	}
	if err != nil {
		return err
	}
	if err := h.Verify(ss.s.Trust); err != nil {
		return err
	}
	if h.BundleSize() != t.b.Size {
		return fmt.Errorf("flash: bundle of %d bytes announced as %d", h.BundleSize(), t.b.Size)
	}
	if err := ss.s.Firmware.Check(h.Manifest); err != nil {
		return err
	}
	t.headerOK = true
	ss.log.Info("flash: bundle header accepted", "version", h.Manifest.Version.String(), "key", h.KeyID.String())
	return nil
}

// ServeListener accepts connections (e.g. TCP on the maintenance network) and serves
// them one at a time until ctx ends.
func (s *Server) ServeListener(ctx context.Context, ln net.Listener) error {
	stop := context.AfterFunc(ctx, func() { ln.Close() })
	defer stop()
	for {
		c, err := ln.Accept()
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("flash: accept: %w", err)
		}
		err = s.Serve(ctx, c)
		c.Close()
		if err != nil {
			_, log := s.defaults()
			log.Warn("flash: connection ended", "err", err)
		}
	}
}
