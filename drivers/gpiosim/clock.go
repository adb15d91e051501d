package gpiosim

import (
	"time"

	"github.com/jonboulle/clockwork"
)

// Clock is a clockwork fake clock on which Sleep advances the time by the requested duration
// and returns at once: virtual time. Timers, After and tickers behave as on
// clockwork.FakeClock (they fire when some Sleep or Advance passes their deadline).
//
// Concurrent sleepers each advance the clock; virtual time is meant for one driver at a time.
type Clock struct {
	*clockwork.FakeClock
}

var _ clockwork.Clock = (*Clock)(nil)

// NewClock returns a virtual clock starting at a fixed, arbitrary date (so runs are
// reproducible).
func NewClock() *Clock {
	return &Clock{clockwork.NewFakeClockAt(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))}
}

// Sleep advances the virtual time by d (nothing for d <= 0).
func (c *Clock) Sleep(d time.Duration) {
	if d > 0 {
		c.Advance(d)
	}
}
