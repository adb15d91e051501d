package server

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/jonboulle/clockwork"
	"github.com/nats-io/nats.go/jetstream"
)

// SetupOptions configure SetupStores.
type SetupOptions struct {
	Replicas int           // copies of each stream and bucket (1, 3 or 5)
	Attempt  time.Duration // bound of one attempt (default 5 s)
	// First and Max bound the wait between attempts, doubled each time (default 100 ms
	// and 2 s).
	First, Max time.Duration
	Clock      clockwork.Clock
	Logger     *slog.Logger
}

// SetupStores is EnsureStores retried with backoff until it succeeds or ctx ends: on a
// cluster that has just started, the JetStream meta leader is not elected yet, and
// several claim services started together race to create the same streams and buckets
// (each attempt is idempotent: CreateOrUpdate with the same configuration). It returns
// the last error, wrapped, when ctx ends first.
func SetupStores(ctx context.Context, js jetstream.JetStream, o SetupOptions) (*Stores, error) {
	if o.Attempt <= 0 {
		o.Attempt = 5 * time.Second
	}
	if o.First <= 0 {
		o.First = 100 * time.Millisecond
	}
	if o.Max < o.First {
		o.Max = max(o.First, 2*time.Second)
	}
	if o.Clock == nil {
		o.Clock = clockwork.NewRealClock()
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if o.Replicas <= 0 {
		o.Replicas = 1
	}
	wait := o.First
	for n := 1; ; n++ {
		actx, cancel := context.WithTimeout(ctx, o.Attempt)
		st, err := EnsureStores(actx, js, o.Replicas)
		cancel()
		if err == nil {
			if n > 1 {
				o.Logger.Info("fleet: stores ready", "attempts", n)
			}
			return st, nil
		}
		o.Logger.Warn("fleet: stores not ready, retrying", "attempt", n, "in", wait, "err", err)
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("fleet: setting up the stores (%d attempts): %w", n, err)
		case <-o.Clock.After(wait):
		}
		wait = min(2*wait, o.Max)
	}
}
