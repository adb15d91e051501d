package server

import (
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
)

// TestLimiter: a terminal gets its burst at once, then its rate; a flood is recorded
// once at its start, then once per interval, and what is left when the terminal is back
// under its limit; terminals do not share buckets.
func TestLimiter(t *testing.T) {
	clock := clockwork.NewFakeClock()
	l := NewLimiter(2, 5, clock)
	for i := range 5 {
		if ok, rec, _ := l.Allow("A"); !ok || rec {
			t.Fatalf("claim %d of the burst: ok %v record %v", i, ok, rec)
		}
	}
	if ok, rec, n := l.Allow("A"); ok || !rec || n != 1 {
		t.Fatalf("past the burst: ok %v record %v count %d", ok, rec, n)
	}
	for range 9 {
		if ok, rec, _ := l.Allow("A"); ok || rec {
			t.Fatal("flood: allowed or recorded again within the interval")
		}
	}
	if ok, _, _ := l.Allow("B"); !ok {
		t.Fatal("B held back by A's flood")
	}
	clock.Advance(500 * time.Millisecond) // one token
	if ok, rec, n := l.Allow("A"); !ok || !rec || n != 9 {
		t.Fatalf("back under the limit: ok %v record %v count %d, want the 9 unrecorded", ok, rec, n)
	}
	if ok, _, _ := l.Allow("A"); ok {
		t.Fatal("a second token out of half a second at 2/s")
	}
	clock.Advance(RateLimitedRecordEvery)
	for range 5 {
		l.Allow("A")
	}
	if ok, rec, n := l.Allow("A"); ok || !rec || n != 1 {
		t.Fatalf("a flood after the interval: ok %v record %v count %d", ok, rec, n)
	}
	clock.Advance(time.Hour)
	for i := range 5 { // the bucket holds at most its burst
		if ok, _, _ := l.Allow("A"); !ok {
			t.Fatalf("claim %d after an hour", i)
		}
	}
	if ok, _, _ := l.Allow("A"); ok {
		t.Fatal("more than the burst after an hour")
	}
	if d := NewLimiter(0, 0, nil); d.rate != DefaultClaimRate || d.burst != DefaultClaimBurst {
		t.Fatalf("defaults %v %v", d.rate, d.burst)
	}
}
