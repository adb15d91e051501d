package fleet

import (
	"errors"
	"fmt"
	"time"
)

// The fleet's time (docs/fleet.md, "The fleet's time"). Every head reply carries the
// service's clock (HeadReply.Time); the client compares it with the terminal's at every
// connection, then every headEvery while connected, and at once when the terminal's
// clock went back since. A terminal whose clock is more than MaxClockSkew off the
// fleet's, ahead or behind, is in the clock fault (nothing sold, judged or paid) until
// the clock is set right: while it is off, the client asks again at every round and the
// fault clears at the first answer within the bound.

// MaxClockSkew is how far the terminal's clock may be from the fleet's.
const MaxClockSkew = 5 * time.Minute

// headEvery is how often a connected client asks the fleet's head (and time) again.
const headEvery = 10 * time.Minute

// ErrClockSkew: the terminal's clock is more than MaxClockSkew off the fleet's.
var ErrClockSkew = errors.New("the terminal's clock is off the fleet's")

// Clocked is a Claimer that knows how far the terminal's clock is from the fleet's
// (*Client); the terminal asks it with its own clock checks.
type Clocked interface {
	// ClockSkew is the terminal's clock minus the fleet's at the fleet's last answer
	// (positive: ahead), and an error wrapping ErrClockSkew when it is beyond
	// MaxClockSkew. Never measured (offline since the start, or an older service): 0, nil.
	ClockSkew() (time.Duration, error)
}

var _ Clocked = (*Client)(nil)

// checkClock compares the terminal's clock with the fleet's time in a head reply (Unix
// milliseconds; 0: an older service, nothing to compare).
func (c *Client) checkClock(fleetMillis int64) {
	if fleetMillis == 0 {
		return
	}
	fleetNow := time.UnixMilli(fleetMillis)
	now := c.clock.Now().Round(0) // the wall clock: the one set wrong, or right
	c.headAt = now
	skew := now.Sub(fleetNow)
	bad := skew > MaxClockSkew || skew < -MaxClockSkew
	c.mu.Lock()
	was := c.skewBad
	c.skew, c.skewBad = skew, bad
	c.mu.Unlock()
	switch {
	case bad && !was:
		c.log.Error("fleet: the terminal's clock is off the fleet's: nothing is sold or paid until it is set right (a technician; the fleet's time is given)",
			"skew", skew.Round(time.Second), "fleet_time", fleetNow.UTC().Format(time.RFC3339), "bound", MaxClockSkew)
	case !bad && was:
		c.log.Info("fleet: the terminal's clock agrees with the fleet's again", "skew", skew.Round(time.Second))
	}
}

// clockDue reports whether the fleet's time is to be asked again though the connection's
// check was made: headEvery since the last answer, or the clock went back since (Sync's
// goroutine only). A restored terminal is not asked again (the service records the
// finding at each head request).
func (c *Client) clockDue() bool {
	if c.headAt.IsZero() || c.restored() != nil {
		return false
	}
	since := c.clock.Now().Round(0).Sub(c.headAt) // wall clock: one set back is seen
	return since >= headEvery || since < 0
}

// ClockSkew: see Clocked.
func (c *Client) ClockSkew() (time.Duration, error) {
	c.mu.Lock()
	skew, bad := c.skew, c.skewBad
	c.mu.Unlock()
	if !bad {
		return skew, nil
	}
	return skew, fmt.Errorf("fleet: clock %v off the fleet's (at most %v): %w", skew.Round(time.Second), MaxClockSkew, ErrClockSkew)
}
