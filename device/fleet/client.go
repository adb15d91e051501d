package fleet

import (
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jonboulle/clockwork"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/packterm/pos/validate/journal"
)

// Options configure a terminal's fleet client.
type Options struct {
	Terminal    string           // required; the journal's terminal id
	URL         string           // [fleet] url (nats:// or tls://)
	Credentials string           // [fleet] credentials: an nkey seed file or a .creds (JWT) file
	CA          string           // [fleet] ca: TLS is on, with this CA, when set
	TLS         *tls.Config      // tests: instead of CA
	Journal     *journal.Journal // the terminal's journal (required for Run)
	StateDir    string           // where fleet-state.json lives (default: none, state in memory)
	// Status, when set, makes Run fetch and install the retailer's pack status list at
	// every round (see FetchStatus).
	Status *StatusOptions

	// Timeout bounds a claim (and each request): past it, the server is "unreachable"
	// and the payout, if within the offline limit, is unconfirmed. Default 2 s.
	Timeout time.Duration
	// Retry is how often Run retries while offline or idle. Default 5 s.
	Retry  time.Duration
	Clock  clockwork.Clock // nil = real
	Logger *slog.Logger    // nil = discard
}

// Client is a terminal's connection to the fleet. Its methods are safe for concurrent use.
type Client struct {
	o      Options
	nc     *nats.Conn
	js     jetstream.JetStream
	log    *slog.Logger
	clock  clockwork.Clock
	notify chan struct{}

	mu    sync.Mutex // guards state and its file, skew and skewBad
	state state
	// skew is the terminal's clock minus the fleet's at the last head reply; skewBad:
	// beyond MaxClockSkew (skew.go).
	skew    time.Duration
	skewBad bool

	statusAt time.Time // last status list fetch (Run's goroutine only)
	headAt   time.Time // the last head reply with the fleet's time (Sync's goroutine only)
	// headDue: the journal's head is to be checked against the fleet's (checkRestored)
	// before the next publication: at every connection.
	headDue atomic.Bool
	// floorsDue: the next head request asks for the install floors (floors.go): at every
	// connection, until answered.
	floorsDue atomic.Bool
}

// Connect connects to the fleet server. It returns at once even when the server cannot
// be reached: the connection keeps retrying in the background and the terminal works
// offline meanwhile (Claim returns ErrOffline).
func Connect(o Options) (*Client, error) {
	if err := CheckTerminal(o.Terminal); err != nil {
		return nil, fmt.Errorf("fleet: connect: %w", err)
	}
	if o.URL == "" {
		return nil, errors.New("fleet: connect: no server URL")
	}
	if o.Timeout <= 0 {
		o.Timeout = 2 * time.Second
	}
	if o.Retry <= 0 {
		o.Retry = 5 * time.Second
	}
	c := &Client{o: o, log: o.Logger, clock: o.Clock, notify: make(chan struct{}, 1)}
	c.headDue.Store(true) // the first connection's check
	c.floorsDue.Store(true)
	if c.log == nil {
		c.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if c.clock == nil {
		c.clock = clockwork.NewRealClock()
	}
	st, err := loadState(o.StateDir)
	if err != nil {
		return nil, err
	}
	c.state = st
	opts := []nats.Option{
		nats.Name("posd " + o.Terminal),
		nats.CustomInboxPrefix(InboxPrefix + o.Terminal),
		nats.RetryOnFailedConnect(true),
		nats.MaxReconnects(-1),
		nats.ReconnectWait(time.Second),
		nats.Timeout(o.Timeout),
		nats.ReconnectBufSize(-1), // nothing is queued while offline: the journal is the queue
		nats.ReconnectHandler(func(*nats.Conn) { c.connected() }),
		nats.ConnectHandler(func(*nats.Conn) { c.connected() }),
		nats.DisconnectErrHandler(func(_ *nats.Conn, err error) { c.log.Warn("fleet: disconnected", "err", err) }),
		nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) { c.log.Warn("fleet: connection error", "err", err) }),
	}
	if o.Credentials != "" {
		opt, err := CredentialsOption(o.Credentials)
		if err != nil {
			return nil, err
		}
		opts = append(opts, opt)
	}
	if o.TLS != nil {
		opts = append(opts, nats.Secure(o.TLS))
	} else if o.CA != "" {
		opts = append(opts, nats.RootCAs(o.CA))
	}
	nc, err := nats.Connect(o.URL, opts...)
	if err != nil {
		return nil, fmt.Errorf("fleet: connect: %w", err)
	}
	c.nc = nc
	if c.js, err = jetstream.New(nc); err != nil {
		nc.Close()
		return nil, fmt.Errorf("fleet: connect: %w", err)
	}
	return c, nil
}

// CredentialsOption is the nats option of a credentials file: a .creds file (user JWT and
// seed: operator/account mode) or a bare nkey seed (nkey users, the embedded server).
func CredentialsOption(path string) (nats.Option, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("fleet: credentials: %w", err)
	}
	if strings.Contains(string(b), "BEGIN NATS USER JWT") {
		return nats.UserCredentials(path), nil
	}
	opt, err := nats.NkeyOptionFromSeed(path)
	if err != nil {
		return nil, fmt.Errorf("fleet: credentials %s: %w", path, err)
	}
	return opt, nil
}

// Online reports whether the connection is up now.
func (c *Client) Online() bool { return c.nc.Status() == nats.CONNECTED }

// Notify wakes Run: call it after each journal append.
func (c *Client) Notify() {
	select {
	case c.notify <- struct{}{}:
	default:
	}
}

// Close closes the connection (after Run has returned).
func (c *Client) Close() { c.nc.Close() }

// Conn is the underlying connection (tests, benchmarks).
func (c *Client) Conn() *nats.Conn { return c.nc }

// connected asks for the head check, and the install floors, before the next publication.
func (c *Client) connected() {
	c.headDue.Store(true)
	c.floorsDue.Store(true)
	c.Notify()
}
