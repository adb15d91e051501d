package terminal

import (
	"testing"
	"time"
)

func TestThrottleGrowsWithEachLock(t *testing.T) {
	s := newThrottle(Throttle{}.withDefaults())
	now := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
	for i := range 4 {
		if d := s.forged(now.Add(time.Duration(i) * time.Minute)); d != 0 {
			t.Fatalf("locked after %d forged codes", i+1)
		}
	}
	// The first of the five is more than 10 minutes old by now: no lock.
	if d := s.forged(now.Add(11 * time.Minute)); d != 0 {
		t.Fatal("locked on codes spread over more than the window")
	}
	s = newThrottle(Throttle{}.withDefaults())
	at := now.Add(12 * time.Minute)
	var d durationLock
	for i := range 5 {
		d = s.forged(at.Add(time.Duration(i) * time.Second))
	}
	if d.Duration() != time.Minute || s.locked(at.Add(5*time.Second)) == 0 {
		t.Fatalf("first lock %v", d)
	}
	if s.locked(at.Add(2*time.Minute)) != 0 {
		t.Error("still locked after the lock")
	}
	at = at.Add(time.Hour)
	for i := range 5 {
		d = s.forged(at.Add(time.Duration(i) * time.Second))
	}
	if d.Duration() != 2*time.Minute {
		t.Errorf("second lock %v, want 2m", d)
	}
}

// FuzzParseDone: the state file reader never panics and reads only plain numbers.
func FuzzParseDone(f *testing.F) {
	for _, s := range []string{"12\n", "", "x", "-1", "18446744073709551616", " 7 "} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		n := parseDone(b)
		if n != 0 {
			if len(b) > 32 {
				t.Fatalf("%q read as %d", b, n)
			}
		}
	})
}
