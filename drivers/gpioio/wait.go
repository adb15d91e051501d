package gpioio

import (
	"context"
	"time"

	"github.com/jonboulle/clockwork"
)

// sleepStep bounds each Sleep so a cancelled context is noticed within 10 ms.
const sleepStep = 10 * time.Millisecond

// sleep waits d on clk in steps, returning early with ctx's error when it is cancelled.
// It only uses clk.Sleep, so a virtual clock (gpiosim.Clock) runs it instantly.
func sleep(ctx context.Context, clk clockwork.Clock, d time.Duration) error {
	for d > 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
		s := min(d, sleepStep)
		clk.Sleep(s)
		d -= s
	}
	return ctx.Err()
}

func orReal(clk clockwork.Clock) clockwork.Clock {
	if clk == nil {
		return clockwork.NewRealClock()
	}
	return clk
}
