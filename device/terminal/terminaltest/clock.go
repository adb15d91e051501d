package terminaltest

import (
	"time"

	"github.com/jonboulle/clockwork"
)

// epoch is when a fake clock starts: a fixed date, so runs are reproducible.
var epoch = time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)

// Epoch is when NewClock's clock starts.
func Epoch() time.Time { return epoch }

// NewClock returns a clockwork fake clock at Epoch: nothing moves until the test
// advances it.
func NewClock() *clockwork.FakeClock { return clockwork.NewFakeClockAt(epoch) }
