package daemon

import (
	"context"
	"errors"
	"log/slog"
	"sync/atomic"
	"testing"

	"github.com/jonboulle/clockwork"
)

func TestHealthWaitsForThePrinter(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	clock := clockwork.NewFakeClock()
	h := newHealth()
	h.live.Store(true)
	ready := make(chan struct{})
	var asked atomic.Int32
	done := make(chan struct{})
	go func() {
		defer close(done)
		watchHealth(ctx, h, clock, slog.New(slog.DiscardHandler), ready, nil, func(context.Context) error {
			if asked.Add(1) < 3 {
				return errors.New("printer: no answer")
			}
			return nil
		})
	}()
	if h.OK() {
		t.Fatal("healthy before the first screen")
	}
	close(ready)
	for i := 0; i < 2; i++ {
		if err := clock.BlockUntilContext(ctx, 1); err != nil {
			t.Fatal(err)
		}
		if h.OK() {
			t.Fatalf("healthy after %d unanswered status queries", asked.Load())
		}
		clock.Advance(healthRetry)
	}
	<-done
	if !h.OK() || asked.Load() != 3 {
		t.Fatalf("OK %v after %d queries", h.OK(), asked.Load())
	}
	h.live.Store(false)
	if h.OK() {
		t.Error("OK while a loop has stopped")
	}
}

func TestHealthNeedsALedger(t *testing.T) {
	h := newHealth()
	h.live.Store(true)
	ready := make(chan struct{})
	close(ready)
	watchHealth(context.Background(), h, clockwork.NewFakeClock(), slog.New(slog.DiscardHandler), ready, ErrNoLedger, func(context.Context) error { return nil })
	select {
	case <-h.Healthy():
		t.Error("healthy with no ledger")
	default:
	}
}
