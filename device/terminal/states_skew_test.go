package terminal_test

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/device/terminal/terminaltest"
	"github.com/packterm/pos/validate/journal"
)

// skewedFleet is a fleet that claims as fleet.Fake and says how far the terminal's clock
// is from its time, as the fleet client does once connected.
type skewedFleet struct {
	fleet.Fake
	off atomic.Bool
}

func (f *skewedFleet) ClockSkew() (time.Duration, error) {
	if f.off.Load() {
		return 10 * time.Minute, fmt.Errorf("fleet: clock 10m0s off the fleet's: %w", fleet.ErrClockSkew)
	}
	return 0, nil
}

// Issue 47: online, a clock 10 minutes off the fleet's time (ahead: the journal sees
// nothing wrong) puts the terminal in the clock fault: a winner scanned is neither judged
// nor paid. Set right (the fleet's next answer), it resumes and pays. Before, a terminal
// whose clock was ahead of the fleet's paid.
func TestClockOffTheFleetsPaysNothing(t *testing.T) {
	f := &skewedFleet{Fake: fleet.Fake{Terminal: "T-0001"}}
	f.off.Store(true)
	r := newRig(t, func(o *terminaltest.Options) { o.Fleet = f })
	r.Run(t, nil)
	code := winnerN(t, 5_00, 0)
	if got := pays(t, r, code); got != "fault" || !strings.Contains(strings.Join(r.Terminal.Screen(), " "), "HORLOGE") {
		t.Fatalf("scan on a clock off the fleet's: %s %q", got, r.Terminal.Screen())
	}
	if n := len(records(t, r, journal.KindPayout)); n != 0 || r.Drawer.Opens() != 0 {
		t.Fatalf("%d payouts, drawer opened %d times", n, r.Drawer.Opens())
	}
	f.off.Store(false)
	deadline := time.Now().Add(5 * time.Second)
	for r.Terminal.StateName() != "idle" || !r.Terminal.AtRest() {
		if time.Now().After(deadline) {
			t.Fatalf("still %s once the clock agrees with the fleet's", r.Terminal.StateName())
		}
		r.Clock.Advance(2 * time.Second) // the fault's poll
		time.Sleep(100 * time.Microsecond)
	}
	if got := pays(t, r, code); got != "result:paid" {
		t.Fatalf("clock set right: %s", got)
	}
}
