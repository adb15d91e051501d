package terminal

import (
	"context"
	"fmt"
	"time"
)

// The machine's waits for input end on an input or on their timeout (a result screen
// going back to idle, a fault retried, an offer abandoned, the printer asked at rest).
// These let a driver of a virtual clock (the emulator's --clock) move time forward
// deterministically: a wait that comes due is let time out, and the machine settles,
// before the next input is sent.

// timedOut counts a wait that ended on its timeout and marks the machine busy in the same
// step, so SettleTimedOut never sees the new count while the machine still looks idle.
func (t *Terminal) timedOut() {
	t.mu.Lock()
	t.timeouts++
	t.waiting, t.due = false, time.Time{}
	t.mu.Unlock()
}

// Timeouts is the number of waits for input that have ended on their timeout so far.
func (t *Terminal) Timeouts() uint64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.timeouts
}

// WaitDeadline is when the machine's current wait for input times out, by its clock; ok is
// false when it is not waiting, or waits without a timeout.
func (t *Terminal) WaitDeadline() (due time.Time, ok bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.due, t.waiting && !t.due.IsZero()
}

// SettleTimedOut blocks until more than n waits have timed out (n from Timeouts) and the
// machine waits for the next input with none queued.
func (t *Terminal) SettleTimedOut(ctx context.Context, n uint64) error {
	for {
		t.mu.Lock()
		ch := t.settled
		if t.timeouts > n && t.waiting && len(t.events) == 0 {
			t.mu.Unlock()
			return nil
		}
		t.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return fmt.Errorf("terminal: settle after a timeout: in state %s: %w", t.StateName(), ctx.Err())
		}
	}
}
