package daemon

import (
	"context"
	"errors"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
)

// A requested restart waits for the maintenance link to be quiet for the whole quiet
// period and for the terminal to be at rest, then stops with every reason; it waits
// on the injected clock and ends with its context.
func TestRestartWaitsForQuietAndRest(t *testing.T) {
	clock := clockwork.NewFakeClock()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var last atomic.Int64
	last.Store(clock.Now().UnixNano())
	var rest atomic.Bool
	g := restartGate{clock: clock, quiet: 10 * time.Second,
		lastActivity: func() time.Time { return time.Unix(0, last.Load()) }, atRest: rest.Load}
	r := newRestarter()
	stopped := make(chan error, 1)
	go r.run(ctx, g, slog.New(slog.DiscardHandler), func(err error) { stopped <- err })
	r.request("ledger installed")
	r.request("status installed")
	step := func() {
		t.Helper()
		if err := clock.BlockUntilContext(ctx, 1); err != nil {
			t.Fatal(err)
		}
		clock.Advance(restartPoll)
	}
	notYet := func(why string) {
		t.Helper()
		select {
		case err := <-stopped:
			t.Fatalf("%s: stopped with %v", why, err)
		case <-time.After(20 * time.Millisecond):
		}
	}
	rest.Store(true)
	for range 19 { // 9.5 s of a 10 s quiet period
		step()
	}
	notYet("link active 9.5 s ago")
	last.Store(clock.Now().UnixNano()) // the technician sends another item
	rest.Store(false)
	for range 25 {
		step()
	}
	notYet("terminal busy")
	rest.Store(true)
	step()
	select {
	case err := <-stopped:
		var re *RestartError
		if !errors.As(err, &re) || !errors.Is(err, ErrRestart) || len(re.Why) != 2 {
			t.Fatalf("stopped with %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no restart once quiet and at rest")
	}

	// Without a request nothing happens, and the worker ends with its context.
	r = newRestarter()
	done := make(chan struct{})
	cctx, ccancel := context.WithCancel(ctx)
	go func() {
		r.run(cctx, g, slog.New(slog.DiscardHandler), func(error) { t.Error("stopped without a request") })
		close(done)
	}()
	ccancel()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("restart worker did not end with its context")
	}
}
