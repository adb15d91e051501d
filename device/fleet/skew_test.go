package fleet_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/validate/journal"
)

// offsetClock is real time moved by an offset the test sets (a terminal's clock set wrong,
// then right).
type offsetClock struct {
	clockwork.Clock
	off atomic.Int64
}

func (c *offsetClock) Now() time.Time { return c.Clock.Now().Add(time.Duration(c.off.Load())) }

// TestClockSkewFromTheFleet: the fleet's head reply carries its time. A terminal whose
// clock is 10 minutes ahead, or behind, of the fleet's is told so at its connection
// (ErrClockSkew: the terminal's clock fault); set right, the next round asks again and
// the fault clears. Within the bound (2 minutes off) nothing is said. A clock set back, or
// an hour ahead, while connected is asked again at the next round. Before, the client
// never compared its clock with the fleet's.
func TestClockSkewFromTheFleet(t *testing.T) {
	f := newRegistry(t, 1)
	f.start(t, 1, nil)
	ctx := context.Background()
	dir := t.TempDir()
	j, err := journal.Open(dir, journal.Options{Terminal: "T000"})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	clock := &offsetClock{Clock: clockwork.NewRealClock()}
	c, err := fleet.Connect(fleet.Options{Terminal: "T000", URL: f.urls[0], Credentials: f.seeds["T000"], Journal: j,
		StateDir: dir, Timeout: 2 * time.Second, Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	waitOnline(t, c)
	for _, step := range []struct {
		off  time.Duration
		skew bool
	}{{10 * time.Minute, true}, {0, false}, {-10 * time.Minute, true}, {2 * time.Minute, false}, {time.Hour, true}} {
		clock.off.Store(int64(step.off))
		if err := c.Sync(ctx); err != nil {
			t.Fatal(err)
		}
		got, err := c.ClockSkew()
		if errors.Is(err, fleet.ErrClockSkew) != step.skew {
			t.Fatalf("clock %v off: skew %v, %v", step.off, got, err)
		}
		if d := got - step.off; d < -time.Minute || d > time.Minute {
			t.Fatalf("clock %v off: measured %v", step.off, got)
		}
	}
}
