package journal

import (
	"errors"
	"fmt"
	"time"
)

// ClockTolerance is how far a record's time may be earlier than the last record's and
// still be recorded: a clock corrected by a few seconds (NTP, a technician's setting)
// must not stop the terminal. Such a record is dated at the last record's time, so the
// journal's times never go back (docs/journal.md, "Time moves forward").
const ClockTolerance = 2 * time.Minute

// ErrClockBehind: the clock is behind the journal's last record by more than
// ClockTolerance. Nothing was recorded: the clock must be set right first.
var ErrClockBehind = errors.New("clock is behind the journal")

// ClockError says how far the clock is behind the journal. It wraps ErrClockBehind.
type ClockError struct {
	Last time.Time // the journal's last record's time
	Now  time.Time // the time the record would have had
}

func (e *ClockError) Error() string {
	return fmt.Sprintf("journal: the clock (%s) is %s behind the last record (%s): %v",
		e.Now.Format(time.RFC3339), e.Last.Sub(e.Now).Round(time.Second), e.Last.Format(time.RFC3339), ErrClockBehind)
}

func (e *ClockError) Unwrap() error { return ErrClockBehind }

// forward dates e after the record at last (zero: none): a time before it by more than
// ClockTolerance is refused; a time within the tolerance becomes last's time (in e's
// zone).
func forward(e *Entry, last time.Time) error {
	if last.IsZero() || !e.Time.Before(last) {
		return nil
	}
	if last.Sub(e.Time) > ClockTolerance {
		return &ClockError{Last: last, Now: e.Time}
	}
	e.Time = last.In(e.Time.Location())
	return nil
}

// Behind reports whether now is behind the journal's last record by more than
// ClockTolerance (a record dated now would be refused with ErrClockBehind), with that
// record's time.
func (j *Journal) Behind(now time.Time) (last time.Time, behind bool) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.head == 0 {
		return time.Time{}, false
	}
	return j.last.Time, j.last.Time.Sub(now) > ClockTolerance
}

// Today is the totals of the day a payout made now counts against: the day of now, or of
// the last record when now is earlier (a clock set back never opens a fresh day), in
// now's location.
func (j *Journal) Today(now time.Time) (DayTotals, error) {
	j.mu.Lock()
	last, ok := j.last.Time, j.head > 0
	j.mu.Unlock()
	if ok && last.After(now) {
		now = last.In(now.Location())
	}
	return j.Day(now)
}

// AppendTrace appends e as Append does, except that a record that must not be lost when
// the clock is behind (an install, a tamper, an unlock, a lock, a refusal: any kind but a
// sale, a payout or a claim) is then dated at the last record's time instead of being
// refused with ErrClockBehind: its order is kept and the trace is there. Money is never
// dated so: a sale, payout or claim is refused as Append refuses it.
func (j *Journal) AppendTrace(e Entry) (Record, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if e.Time.IsZero() {
		e.Time = j.clock.Now()
	}
	if last := j.lastTime(); !counts(e.Kind) && !last.IsZero() && last.Sub(e.Time) > ClockTolerance {
		j.log.Warn("journal: clock behind the last record: trace dated at it", "kind", e.Kind.String(),
			"clock", e.Time, "last_record", last)
		e.Time = last.In(e.Time.Location())
	}
	r, err := j.next(e)
	if err != nil {
		return Record{}, err
	}
	return j.write(r)
}
