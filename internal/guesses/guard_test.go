package guesses

import (
	"errors"
	"fmt"
	"testing"
	"time"
)

var day0 = time.Date(2026, 12, 5, 10, 0, 0, 0, time.UTC)

// guess is one try from source: whether it was checked (a wrong one is then recorded).
func guess(g *Guard, source string, now time.Time, right bool) (bool, error) {
	if err := g.Check(source, now); err != nil {
		return false, err
	}
	g.Result(source, now, right)
	return true, nil
}

// TestGuardStrangerElsewhere: a stranger guessing wrong tokens from one address, once a
// second for two hours, never keeps the technician at another address out, not even for a
// second; on the stranger's own address the pause stays within SourceLongest.
func TestGuardStrangerElsewhere(t *testing.T) {
	var g Guard
	now := day0
	for i := range 2 * 3600 {
		guess(&g, "10.0.0.66", now, false)
		if i%600 == 0 {
			if ok, err := guess(&g, "10.0.0.7", now, true); !ok {
				t.Fatalf("after %v of a stranger's guesses the technician is kept out: %v", now.Sub(day0), err)
			}
		}
		now = now.Add(time.Second)
	}
	err := g.Check("10.0.0.66", now)
	var pe *PauseError
	if !errors.As(err, &pe) || !errors.Is(err, ErrSource) || pe.Wait > SourceLongest {
		t.Fatalf("the stranger's own address: %v", err)
	}
}

// TestGuardBudgetBoundsADay: a stranger with as many addresses as they like (5 new ones
// every second of a simulated day, each guessing as long as it is let) has at most
// Budget + 1 day / Refill guesses checked in the day.
func TestGuardBudgetBoundsADay(t *testing.T) {
	var g Guard
	now := day0
	checked, n := 0, 0
	for range 24 * 3600 {
		for range 5 {
			if ok, _ := guess(&g, fmt.Sprintf("s%d", n), now, false); ok {
				checked++
			}
			n++
		}
		now = now.Add(time.Second)
	}
	limit := Budget + int(24*time.Hour/Refill)
	if checked > limit {
		t.Fatalf("%d guesses checked in a day, at most %d wanted", checked, limit)
	}
	if checked < limit*9/10 {
		t.Errorf("only %d guesses checked: the budget (%d a day) is not what limits", checked, limit)
	}
	t.Logf("%d guesses checked in a day from %d addresses (bound %d)", checked, n, limit)
}

// TestGuardTechnicianBeforeFlood: 50 stranger addresses guessing every second drain the
// budget, yet the technician (no wrong guess) waits one Refill at most, and one who
// mistyped once no more than two: the strangers' addresses, each with wrong guesses, may
// not take the reserve.
func TestGuardTechnicianBeforeFlood(t *testing.T) {
	var g Guard
	now := day0
	flood := func(d time.Duration) {
		for end := now.Add(d); now.Before(end); now = now.Add(time.Second) {
			for i := range 50 {
				guess(&g, fmt.Sprintf("10.0.1.%d", i), now, false)
			}
		}
	}
	flood(10 * time.Minute)
	if err := g.Check("10.0.0.7", now); errors.Is(err, ErrSource) {
		t.Fatalf("technician: %v", err)
	}
	// The technician tries every second while the flood goes on.
	waited := func(source string, right bool) time.Duration {
		start := now
		for now.Sub(start) < time.Hour {
			if ok, _ := guess(&g, source, now, right); ok {
				return now.Sub(start)
			}
			flood(time.Second)
		}
		return time.Hour
	}
	if w := waited("10.0.0.7", true); w > Refill {
		t.Fatalf("the technician waited %v under the flood, at most %v wanted", w, Refill)
	}
	flood(time.Minute)
	waited("10.0.0.8", false) // a mistyped token
	if w := waited("10.0.0.8", true); w > 2*Refill {
		t.Fatalf("the technician who mistyped once waited %v, at most %v wanted", w, 2*Refill)
	}
}

// TestGuardSourcePause: on one source the rule is the Limiter's, its pauses at most
// SourceLongest; a right guess clears it.
func TestGuardSourcePause(t *testing.T) {
	var g Guard
	now := day0
	for i := range Free {
		if ok, err := guess(&g, "serial", now, false); !ok {
			t.Fatalf("wrong guess %d not checked: %v", i+1, err)
		}
	}
	if err := g.Check("serial", now); !errors.Is(err, ErrSource) {
		t.Fatalf("after %d wrong: %v", Free, err)
	}
	for range 20 {
		now = now.Add(SourceLongest)
		guess(&g, "serial", now, false)
	}
	var pe *PauseError
	if err := g.Check("serial", now); !errors.As(err, &pe) || pe.Wait != SourceLongest {
		t.Fatalf("after %d wrong: %v, want a pause of %v", Free+20, err, SourceLongest)
	}
	now = now.Add(SourceLongest)
	if ok, err := guess(&g, "serial", now, true); !ok {
		t.Fatal(err)
	}
	if ok, _ := guess(&g, "serial", now, false); !ok || g.sources["serial"].wrong != 1 {
		t.Fatal("a right guess did not clear the count")
	}
}

// TestGuardForgets: the table of sources stays within MaxSources (plus the shared overflow
// record), and a source is forgotten a day after its last wrong guess.
func TestGuardForgets(t *testing.T) {
	var g Guard
	now := day0
	for i := range MaxSources + 100 {
		g.mu.Lock()
		g.add(fmt.Sprintf("s%d", i), now).result(now, false, SourceLongest)
		g.mu.Unlock()
	}
	if len(g.sources) > MaxSources+1 {
		t.Fatalf("%d sources remembered", len(g.sources))
	}
	// A source the full table does not know shares the overflow record, paused by the 100
	// wrong guesses before.
	if err := g.Check("new", now); !errors.Is(err, ErrSource) || g.sources["new"] != nil {
		t.Fatalf("a source the full table does not know: %v", err)
	}
	now = now.Add(Forget)
	if ok, _ := guess(&g, "new", now, false); !ok || g.sources["new"] == nil || len(g.sources) > 2 {
		t.Fatalf("stale sources not forgotten: %d left", len(g.sources))
	}
}
