package daemon

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/jonboulle/clockwork"
)

// ErrRestart is what Run returns (wrapped in a *RestartError) when it stopped to take in
// what was installed while it ran: posd exits with ExitRestart and the service manager
// starts it again (through posboot, which boots a newly installed firmware slot).
var ErrRestart = errors.New("daemon: restart to take in what was installed")

// ExitRestart is posd's exit status when Run returns ErrRestart (EX_TEMPFAIL: systemd's
// Restart=always, or Restart=on-failure, brings it back).
const ExitRestart = 75

// RestartError says why the daemon stopped to be started again.
type RestartError struct {
	Why []string // what was installed, in order
}

func (e *RestartError) Error() string {
	return ErrRestart.Error() + ": " + strings.Join(e.Why, "; ")
}

// Unwrap makes errors.Is(err, ErrRestart) true.
func (e *RestartError) Unwrap() error { return ErrRestart }

// Restart timing: the maintenance link must have been quiet for DefaultRestartQuiet
// (a technician's `posctl provision` sends its items one after the other: one restart
// for all), then the terminal at rest; both are checked every restartPoll.
const (
	DefaultRestartQuiet = 10 * time.Second
	restartPoll         = 500 * time.Millisecond
)

// restarter collects restart requests and stops the daemon once it may.
type restarter struct {
	mu   sync.Mutex
	why  []string
	wake chan struct{}
}

func newRestarter() *restarter { return &restarter{wake: make(chan struct{}, 1)} }

// request asks for a restart, for the reason given.
func (r *restarter) request(why string) {
	r.mu.Lock()
	r.why = append(r.why, why)
	r.mu.Unlock()
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

func (r *restarter) reasons() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.why...)
}

// restartGate says when a requested restart may happen.
type restartGate struct {
	clock clockwork.Clock
	quiet time.Duration
	// lastActivity is when the maintenance link last received a frame (nil: no link).
	lastActivity func() time.Time
	// atRest reports whether the terminal is idle or shows a result, nothing queued.
	atRest func() bool
}

func (g restartGate) open() bool {
	if g.lastActivity != nil {
		if last := g.lastActivity(); !last.IsZero() && g.clock.Since(last) < g.quiet {
			return false
		}
	}
	return g.atRest()
}

// run waits for a request, then for the gate, then calls stop with a *RestartError. It
// returns when ctx ends or after stop.
func (r *restarter) run(ctx context.Context, g restartGate, log *slog.Logger, stop func(error)) {
	select {
	case <-r.wake:
	case <-ctx.Done():
		return
	}
	log.Info("posd: restart requested; waiting for the maintenance link to be quiet and the terminal at rest", "why", r.reasons())
	for !g.open() {
		select {
		case <-g.clock.After(restartPoll):
		case <-ctx.Done():
			return
		}
	}
	err := &RestartError{Why: r.reasons()}
	log.Warn("posd: restarting", "why", err.Why)
	stop(err)
}
