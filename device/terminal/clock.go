package terminal

import (
	"errors"

	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/device/retail"
	"github.com/packterm/pos/validate/journal"
)

// clockWrong reports whether the clock is behind the journal's last record by more than
// journal.ClockTolerance (the journal would refuse a record now: journal.ErrClockBehind),
// or, online, more than fleet.MaxClockSkew off the fleet's time (fleet.ErrClockSkew).
// Nothing is sold, paid or reported until the clock is set right (docs/terminal.md,
// "Clock").
func (t *Terminal) clockWrong() bool {
	_, behind := t.data.Journal.Behind(t.cfg.Clock.Now())
	return behind || t.clockSkew() != nil
}

// clockSkew is the fleet client's finding that the clock is off the fleet's (nil: not
// found, or no fleet to compare with).
func (t *Terminal) clockSkew() error {
	c, ok := t.data.Fleet.(fleet.Clocked)
	if !ok {
		return nil
	}
	_, err := c.ClockSkew()
	return err
}

// clockFault is the fault state of a clock behind the journal, or off the fleet's:
// HORLOGE EN RETARD. It resumes with then once the clock is set right.
func (t *Terminal) clockFault(then State) State {
	now := t.cfg.Clock.Now()
	if err := t.clockSkew(); errors.Is(err, fleet.ErrClockSkew) {
		t.log.Error("terminal: the clock is off the fleet's time: nothing is sold or paid until a technician sets it right",
			"now", now, "err", err)
	} else {
		last, _ := t.data.Journal.Behind(now)
		t.log.Error("terminal: the clock is behind the journal: nothing is sold or paid until it is set right",
			"now", now, "last_record", last)
	}
	if then == nil {
		then = idle{}
	}
	return fault{kind: retail.FaultClock, then: then}
}

// recordTrace appends e as record does; a trace that must not be lost (a tamper, an unlock,
// a lock, a refusal) is dated at the journal's last record when the clock is behind it,
// never earlier (journal.AppendTrace): its order is kept, and the trace is there.
func (t *Terminal) recordTrace(e journal.Entry) (journal.Record, error) {
	return t.recorded(t.data.Journal.AppendTrace(e))
}
