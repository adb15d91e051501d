package daemon

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jonboulle/clockwork"
)

// Health is what the daemon knows of itself, for the service manager's watchdog and for
// the trial boot of a new firmware slot. Two levels:
//
//   - Live: every loop of the running terminal (state machine, scanner, buttons, board) is
//     still running; it goes false for good as soon as one of them returns.
//   - Healthy, reached once and then kept while live: the terminal has shown its first
//     screen (so the display took it), a ledger is installed and opened (its signature,
//     header and hash tree verified at open, LoadData), and the printer answered a
//     real-time status query (DLE EOT; an answer saying "paper out" counts: the printer is
//     there). The board's GPIO lines and display were opened before the terminal started.
//     A ledger installed while running is read at the restart that follows the install
//     (restart.go); until then a terminal with none is not healthy.
type Health struct {
	live    atomic.Bool
	once    sync.Once
	healthy chan struct{}
}

func newHealth() *Health { return &Health{healthy: make(chan struct{})} }

// Live reports whether every loop of the terminal is running.
func (h *Health) Live() bool { return h.live.Load() }

// Healthy is closed once the terminal is healthy (see Health).
func (h *Health) Healthy() <-chan struct{} { return h.healthy }

// OK reports whether the terminal is healthy and live (the watchdog's test).
func (h *Health) OK() bool {
	select {
	case <-h.healthy:
		return h.Live()
	default:
		return false
	}
}

func (h *Health) setHealthy() { h.once.Do(func() { close(h.healthy) }) }

// Printer status queries while waiting to become healthy.
const (
	healthRetry   = 5 * time.Second
	healthTimeout = 3 * time.Second
)

// ErrNoLedger is why a terminal with no ledger installed is not healthy.
var ErrNoLedger = errors.New("daemon: no ledger installed")

// watchHealth marks h healthy once ready is closed, a ledger is in use (noData nil) and printerStatus
// answers, asking every healthRetry until ctx ends. It logs why it is not (once per
// reason).
func watchHealth(ctx context.Context, h *Health, clock clockwork.Clock, log *slog.Logger, ready <-chan struct{}, noData error, printerStatus func(context.Context) error) {
	select {
	case <-ready:
	case <-ctx.Done():
		return
	}
	if noData != nil {
		log.Warn("posd: not healthy: no ledger in use (the trial slot, if any, is not marked good)", "err", noData)
		return
	}
	var last string
	for {
		qctx, cancel := context.WithTimeout(ctx, healthTimeout)
		err := printerStatus(qctx)
		cancel()
		if err == nil {
			log.Info("posd: healthy: first screen shown, ledger loaded, printer answered")
			h.setHealthy()
			return
		}
		if ctx.Err() != nil {
			return
		}
		if err.Error() != last {
			log.Warn("posd: not healthy yet: the printer does not answer", "err", err)
			last = err.Error()
		}
		select {
		case <-clock.After(healthRetry):
		case <-ctx.Done():
			return
		}
	}
}
