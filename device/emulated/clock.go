package emulated

import (
	"context"
	"encoding/binary"
	"io"
	"math/rand/v2"
	"time"

	"github.com/jonboulle/clockwork"
)

// DefaultStep is how far a reproducible run's clock moves per input line (posd --clock-step).
const DefaultStep = time.Second

// NewVirtualClock is the clock of a reproducible run (posd --emulate --clock): it starts at
// start and moves only when the rig steps it (Options.Step), so the same script on the same
// block gives the same journal and receipts, byte for byte, whatever the machine's speed.
// The drivers keep running on real time: only the terminal's and the journal's times are
// virtual.
func NewVirtualClock(start time.Time) *clockwork.FakeClock {
	return clockwork.NewFakeClockAt(start)
}

// step moves the virtual clock forward by Options.Step before an input. A wait of the
// terminal that comes due on the way (a result screen going back to idle, a fault
// retried) is let time out at its own time, and the terminal settles, before the clock
// moves on: the input then always meets the same state.
func (r *Rig) step(ctx context.Context) error {
	if r.fake == nil {
		return nil
	}
	end := r.fake.Now().Add(r.opts.Step)
	for {
		due, ok := r.Terminal.WaitDeadline()
		if !ok || due.After(end) {
			break
		}
		n := r.Terminal.Timeouts()
		r.fake.Advance(due.Sub(r.fake.Now()))
		if err := r.Terminal.SettleTimedOut(ctx, n); err != nil {
			return err
		}
	}
	r.fake.Advance(end.Sub(r.fake.Now()))
	return nil
}

// rand is the terminal's source of its receipt tag: nil (crypto/rand) unless the run is
// reproducible (a step on a fake clock), where it is seeded by the clock's start, so the
// same script prints the same receipt ids.
func (o Options) rand() io.Reader {
	fake, ok := o.Clock.(*clockwork.FakeClock)
	if o.Step == 0 || !ok {
		return nil
	}
	var seed [32]byte
	binary.BigEndian.PutUint64(seed[:], uint64(fake.Now().UnixNano()))
	return rand.NewChaCha8(seed)
}
