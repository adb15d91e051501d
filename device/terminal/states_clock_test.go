package terminal_test

import (
	"strings"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/packterm/pos/device/terminal"
	"github.com/packterm/pos/device/terminal/terminaltest"
	"github.com/packterm/pos/validate/journal"
)

// winnerN is the validation code of the n-th winner (from 0) of exactly cents.
func winnerN(t testing.TB, cents int64, n int) string {
	t.Helper()
	for _, r := range blk(t).Rows {
		if int64(r.Prize) == cents {
			if n == 0 {
				return r.Validation
			}
			n--
		}
	}
	t.Fatalf("no winner %d of %d", n, cents)
	return ""
}

// limited is a terminal on dir with the limits (30 € a ticket, 50 € a day) and
// its clock at at.
func limited(dir string, at time.Time) func(*terminaltest.Options) {
	return func(o *terminaltest.Options) {
		o.Dir = dir
		o.Config.PerTicket, o.Config.PerDay = 30_00, 50_00
		o.Config.Clock = clockwork.NewFakeClockAt(at)
	}
}

// pays scans code and confirms an offer; it returns the state the terminal ends in.
func pays(t *testing.T, r *terminaltest.Rig, code string) string {
	t.Helper()
	st := r.Do(t, scan(code))
	if st == "pay-offer" {
		st = r.Do(t, at(r, press(terminal.EvOK)))
	}
	return st
}

// Issue 47, the retailer with root sets the clock back: 45 € paid at 09:00 on 1 December,
// a 10 € winner claimed at 10:00 for the 50 € day limit; restarted with the clock at any
// time before that last record (30 November, that morning, two minutes and a second
// before), the terminal shows the clock fault and pays nothing. Once the clock is set
// right it resumes, the day limit as it was; a clock within the tolerance behind counts
// against the last record's day.
func TestClockSetBackPaysNothing(t *testing.T) {
	dir := terminaltest.TempDir(t)
	dec1 := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	t.Run("1 December", func(t *testing.T) {
		r := newRig(t, limited(dir, dec1))
		r.Run(t, nil)
		for _, c := range []string{winnerN(t, 30_00, 0), winnerN(t, 5_00, 0), winnerN(t, 5_00, 1), winnerN(t, 5_00, 2)} {
			if got := pays(t, r, c); got != "result:paid" {
				t.Fatalf("on 1 December at 09:00: %s", got)
			}
		}
		r.Clock.Advance(time.Hour)
		if got := pays(t, r, winnerN(t, 10_00, 0)); got != "result:claim" {
			t.Fatalf("10 € above the day limit: %s", got)
		}
	})
	last := dec1.Add(time.Hour)
	try := []string{winnerN(t, 5_00, 3), winnerN(t, 5_00, 4), winnerN(t, 3_00, 0)}
	for _, clk := range []time.Time{
		time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC), time.Date(2026, 11, 30, 23, 59, 0, 0, time.UTC),
		time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC), dec1, last.Add(-journal.ClockTolerance - time.Second),
	} {
		t.Run("clock at "+clk.Format(time.DateTime), func(t *testing.T) {
			r := newRig(t, limited(dir, clk))
			r.Run(t, nil)
			if got := r.Terminal.StateName(); got != "fault" || !strings.Contains(strings.Join(r.Terminal.Screen(), " "), "HORLOGE") {
				t.Errorf("at start: %s %q", got, r.Terminal.Screen())
			}
			for _, c := range try {
				if got := pays(t, r, c); got != "fault" {
					t.Errorf("scan on a clock set back: %s", got)
				}
			}
			for _, k := range []terminal.EventKind{terminal.EvReport, terminal.EvReprint} {
				r.Do(t, press(k))
			}
			if n := len(records(t, r, journal.KindPayout)); n != 4 || r.Drawer.Opens() != 0 || len(r.Printer.PrintedIDs()) != 0 {
				t.Fatalf("%d payouts, drawer opened %d times, %d receipts", n, r.Drawer.Opens(), len(r.Printer.PrintedIDs()))
			}
			if seq, _ := r.Journal.Head(); seq != 5 {
				t.Fatalf("head %d: the clock fault recorded something", seq)
			}
		})
	}
	t.Run("set right", func(t *testing.T) {
		r := newRig(t, limited(dir, time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)))
		r.Run(t, nil)
		r.Clock.Advance(last.Add(time.Hour).Sub(r.Clock.Now())) // a technician sets the clock
		// The fault's check runs every 2 s of the terminal's clock: each round moves the
		// fake clock on by that much, whether or not the check's timer was already set
		// when the clock was set right (under load it may not be).
		for i := 0; r.Terminal.StateName() != "idle" || !r.Terminal.AtRest(); i++ {
			if i == 3000 {
				t.Fatalf("still %s once the clock is set right", r.Terminal.StateName())
			}
			if i%100 == 99 {
				r.Clock.Advance(2 * time.Second)
			}
			time.Sleep(time.Millisecond)
		}
		if got := pays(t, r, try[0]); got != "result:paid" {
			t.Fatalf("5 € within the day's 50 €: %s", got)
		}
		if got := pays(t, r, try[1]); got != "result:claim" {
			t.Fatalf("5 € above the day's 50 €: %s", got)
		}
	})
	t.Run("within the tolerance", func(t *testing.T) {
		r := newRig(t, limited(dir, last.Add(time.Hour-time.Minute)))
		r.Run(t, nil)
		if got := pays(t, r, try[2]); got != "result:claim" {
			t.Errorf("within the tolerance, 1 December's limit: %s", got)
		}
		if n := len(records(t, r, journal.KindPayout)); n != 5 || r.Drawer.Opens() != 0 {
			t.Fatalf("%d payouts, drawer %d", n, r.Drawer.Opens())
		}
		for day, want := range map[time.Time]int64{dec1: 50_00, dec1.Add(-24 * time.Hour): 0} {
			if d, err := r.Journal.Day(day); err != nil || d.PayoutsAmount != want {
				t.Errorf("%s: %+v %v", day.Format(time.DateOnly), d, err)
			}
		}
	})
}

// A trace the clock set back must not erase: a forged code refused while the clock is
// behind is journalled, dated at the last record.
func TestClockBehindKeepsTraces(t *testing.T) {
	forged, err := blk(t).Forged()
	if err != nil {
		t.Fatal(err)
	}
	r := newRig(t)
	if _, err := r.Journal.Append(journal.Entry{Kind: journal.KindReport}); err != nil {
		t.Fatal(err)
	}
	lastRec, _ := r.Journal.Last()
	r.Clock.Advance(-24 * time.Hour)
	wantState(t, step(t, r, terminal.ValidationState(validationCode(t, forged))), "result:forged")
	rs := records(t, r, journal.KindRefused)
	if len(rs) != 1 || !rs[0].Time.Equal(lastRec.Time) {
		t.Fatalf("refusals %+v", rs)
	}
}

// A limit of 0 is a limit: nothing is paid over the counter, every winner gets a claim
// receipt. Before, the terminal took a 0 for "unset" and paid up to 150 € a ticket.
func TestZeroLimitPaysNothing(t *testing.T) {
	r := newRig(t, func(o *terminaltest.Options) { o.Config.PerTicket, o.Config.PerDay = 0, 50_00 })
	r.Run(t, nil)
	if got := pays(t, r, winnerN(t, 5_00, 0)); got != "result:claim" {
		t.Fatalf("a 5 € winner with a limit of 0 per ticket: %s", got)
	}
	if n := len(records(t, r, journal.KindPayout)); n != 0 || r.Drawer.Opens() != 0 {
		t.Fatalf("%d payouts, drawer opened %d times", n, r.Drawer.Opens())
	}
}
