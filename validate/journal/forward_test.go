package journal

import (
	"errors"
	"testing"
	"time"

	"github.com/packterm/pos/validate/codes"
)

// The retailer (root) sets the clock back to a day the limits have not counted yet
// (issue 47): the journal refuses every record dated earlier than its last one by more
// than ClockTolerance, across a restart, and records nothing; a clock a little behind
// (within the tolerance) is recorded at the last record's time, so the times never go
// back and the day a payout counts against never does either.
func TestClockSetBackIsRefused(t *testing.T) {
	f := newFixture(t)
	f.append(t, payoutN(0))
	f.clock.Advance(time.Hour)
	last := f.append(t, payoutN(1))
	f.reopen(t) // restarted, clock set back a day
	f.clock.Advance(-25 * time.Hour)
	for _, e := range []Entry{payoutN(2), {Kind: KindReport}} {
		_, err := f.j.Append(e)
		var ce *ClockError
		if !errors.Is(err, ErrClockBehind) || !errors.As(err, &ce) || !ce.Last.Equal(last.Time) {
			t.Fatalf("append %s with the clock a day behind: %v", e.Kind, err)
		}
		if _, err := f.j.Prepare(e); !errors.Is(err, ErrClockBehind) {
			t.Fatalf("prepare %s with the clock a day behind: %v", e.Kind, err)
		}
	}
	if err := f.j.AppendBatch([]Entry{payoutN(3)}); !errors.Is(err, ErrClockBehind) {
		t.Fatalf("batch with the clock a day behind: %v", err)
	}
	if f.j.Health() != nil {
		t.Fatalf("a clock behind put the journal in its no-payout state: %v", f.j.Health())
	}
	if seq, _ := f.j.Head(); seq != last.Seq {
		t.Fatalf("head %d, want %d: something was recorded", seq, last.Seq)
	}
	if at, behind := f.j.Behind(f.clock.Now()); !behind || !at.Equal(last.Time) {
		t.Fatalf("Behind = %v %v", at, behind)
	}
	// The day a payout would count against is the last record's, not the clock's.
	today, err := f.j.Today(f.clock.Now())
	if err != nil || today.Day != "2026-12-02" || today.PayoutsAmount != 2*3000 {
		t.Fatalf("Today with the clock behind: %+v %v", today, err)
	}
	// Within the tolerance: recorded, dated at the last record.
	f.clock.Advance(25*time.Hour - ClockTolerance + time.Second)
	if _, behind := f.j.Behind(f.clock.Now()); behind {
		t.Fatal("behind within the tolerance")
	}
	r := f.append(t, payoutN(4))
	if !r.Time.Equal(last.Time) {
		t.Fatalf("record within the tolerance dated %v, want the last record's %v", r.Time, last.Time)
	}
	if rep, err := f.j.Verify(); err != nil || rep.Records != r.Seq {
		t.Fatalf("verify: %+v %v", rep, err)
	}
	f.clock.Advance(time.Hour) // the clock set right: records go on
	f.append(t, payoutN(5))
}

// A clock crossing midnight backwards within the tolerance never opens the day before.
func TestClockWithinToleranceKeepsTheDay(t *testing.T) {
	f := newFixture(t)
	midnight := time.Date(2026, 12, 3, 0, 0, 30, 0, testStart.Location())
	f.clock.Advance(midnight.Sub(f.clock.Now()))
	f.append(t, payoutN(0))
	f.clock.Advance(-time.Minute) // 2 December, 23:59:30
	r := f.append(t, payoutN(1))
	if got := r.Time.Format(time.DateOnly); got != "2026-12-03" {
		t.Fatalf("record dated %s", got)
	}
	if d, err := f.j.Day(midnight); err != nil || d.Payouts != 2 {
		t.Fatalf("3 December: %+v %v", d, err)
	}
	if d, err := f.j.Today(f.clock.Now()); err != nil || d.Day != "2026-12-03" || d.Payouts != 2 {
		t.Fatalf("Today: %+v %v", d, err)
	}
}

// A journal written before Append refused a clock set back (issue 47: record 10 dated the
// day before record 9, and `journal verify` said ok): Verify counts such records and names
// the first, the chain still intact.
func TestVerifyNamesRecordsDatedBackward(t *testing.T) {
	f := newFixture(t)
	f.append(t, payoutN(0))
	f.append(t, payoutN(1))
	old := payoutN(2)
	old.Time = f.clock.Now().Add(-25 * time.Hour)
	f.j.mu.Lock()
	r, err := f.j.prepare(old, f.j.head+1, f.j.headHash) // as the code before did
	if err == nil {
		r, err = f.j.write(r)
	}
	f.j.mu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	f.append(t, payoutN(3))
	rep, err := f.j.Verify()
	if err != nil || rep.Backward != 1 || rep.BackwardFrom != r.Seq {
		t.Fatalf("verify: backward %d from %d, want 1 from %d: %v", rep.Backward, rep.BackwardFrom, r.Seq, err)
	}
}

// AppendTrace keeps a trace on a clock set back, dated at the last record; money it
// refuses as Append does.
func TestAppendTraceOnAClockBehind(t *testing.T) {
	f := newFixture(t)
	last := f.append(t, payoutN(0))
	f.clock.Advance(-24 * time.Hour)
	r, err := f.j.AppendTrace(Entry{Kind: KindStatusInstall, Detail: "version 3 (fleet)"})
	if err != nil || !r.Time.Equal(last.Time) {
		t.Fatalf("trace: %v at %v, want %v", err, r.Time, last.Time)
	}
	for _, e := range []Entry{payoutN(1), {Kind: KindSale, Ticket: codes.TicketID{Block: 1, Pack: 3}, Amount: 1000}} {
		if _, err := f.j.AppendTrace(e); !errors.Is(err, ErrClockBehind) {
			t.Fatalf("%s by AppendTrace on a clock behind: %v", e.Kind, err)
		}
	}
	f.clock.Advance(25 * time.Hour)
	if r, err := f.j.AppendTrace(Entry{Kind: KindTamper}); err != nil || !r.Time.Equal(f.clock.Now()) {
		t.Fatalf("trace on a clock set right: %v at %v", err, r.Time)
	}
}
