package flash

import (
	"context"
	"log/slog"
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
//
// On a network connection (ServeListener, or Serve given a net.Conn) the peer must say
// Hello with the technician token within HelloTimeout or the connection is closed; an
// authenticated session with no frame for IdleTimeout is closed too. Connections are
// served at once, each apart, but one technician session holds the terminal at a time: a
// second one is told the terminal is busy (an Error frame, ErrBusy on the host), unless
// the first has been silent for TakeoverAfter (a link that broke without the terminal
// noticing), which it then replaces. Token guesses are throttled per source (the peer's
// IPv4 address or IPv6 /64; "physical" for a serial line) within one global budget
// (internal/guesses.Guard).
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
	// (default 30 s), and closes a network connection. AuthDelay is waited before
	// answering a bad token (default 1 s; negative: none).
	IdleTimeout time.Duration
	AuthDelay   time.Duration
	// HelloTimeout is how long a network connection may stay without a technician session
	// before it is closed (default 5 s). TakeoverAfter is how long a session must have
	// been silent before another technician session replaces it (default 10 s).
	HelloTimeout  time.Duration
	TakeoverAfter time.Duration
	// MaxConns and MaxConnsPerSource bound the network connections served at once
	// (defaults 16 and 4); one more is told the terminal is busy and closed.
	MaxConns, MaxConnsPerSource int
	// KeepAlive is the idle time before TCP keepalive probes on accepted connections
	// (default 15 s; then a probe every KeepAlive/3, 3 unanswered: the peer is gone).
	KeepAlive time.Duration
	// Guesses throttles wrong tokens; nil: the Server's own.
	Guesses *guesses.Guard
	// SyncEvery and SyncInterval bound what a power cut may cost a resumed transfer:
	// received data is made durable once SyncEvery bytes (default 4 MiB) or SyncInterval
	// (default 2 s) have gone by since the last time (and always when a session ends).
	SyncEvery    int64
	SyncInterval time.Duration
	Clock        clockwork.Clock
	Logger       *slog.Logger

	mu       sync.Mutex
	last     lastInstall
	activity time.Time      // when the last frame of a technician session arrived
	guard    guesses.Guard  // wrong tokens, when Guesses is nil
	owner    *session       // the technician session holding the terminal
	conns    map[string]int // network connections served, per source
	nconns   int
}

// LastActivity is when the last frame of a technician session (authenticated, or the
// Hello that opened it) arrived; the zero time before the first. The daemon waits for the
// link to be quiet before it restarts to take in what was installed, so that one
// technician's session of several items costs one restart. Frames from peers without the
// token do not count: they could put the restart off for ever.
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

func (s *Server) guesses() *guesses.Guard {
	if s.Guesses != nil {
		return s.Guesses
	}
	return &s.guard
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
