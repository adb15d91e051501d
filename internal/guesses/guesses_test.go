package guesses

import (
	"testing"
	"time"
)

// TestLimiter: Free wrong guesses are free, then pauses of 1, 2, 4… minutes, at most a
// day; a right guess clears the count.
func TestLimiter(t *testing.T) {
	var l Limiter
	now := time.Date(2026, 12, 5, 10, 0, 0, 0, time.UTC)
	for i := 1; i < Free; i++ {
		if n := l.Result(now, false); n != i || l.Pause(now) != 0 {
			t.Fatalf("wrong guess %d: count %d, pause %v", i, n, l.Pause(now))
		}
	}
	for i, want := range []time.Duration{time.Minute, 2 * time.Minute, 4 * time.Minute} {
		l.Result(now, false)
		if got := l.Pause(now); got != want {
			t.Fatalf("pause %d: %v, want %v", i, got, want)
		}
		now = now.Add(want)
		if got := l.Pause(now); got != 0 {
			t.Fatalf("pause %d still %v after it", i, got)
		}
	}
	for range 40 {
		l.Result(now, false)
	}
	if got := l.Pause(now); got != Longest {
		t.Errorf("after 48 wrong guesses: %v, want %v", got, Longest)
	}
	l.Result(now, true)
	if l.Pause(now) != 0 || l.Result(now, false) != 1 {
		t.Error("a right guess did not clear the count")
	}
}
