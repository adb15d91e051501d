package guesses

import (
	"sync"
	"time"
)

// Free is how many wrong guesses in a row are allowed before the pauses begin.
const Free = 5

// First and Longest bound a pause: the first lasts First, each further one twice the one
// before, none more than Longest.
const (
	First   = time.Minute
	Longest = 24 * time.Hour
)

// Limiter counts the wrong guesses of one secret. Its methods are safe for concurrent use;
// the zero value is ready.
type Limiter struct {
	mu    sync.Mutex
	wrong int       // wrong guesses in a row
	until time.Time // no guess is checked before this
}

// Pause is how long guesses are still refused unchecked at now (0: check this one).
func (l *Limiter) Pause(now time.Time) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	return max(l.until.Sub(now), 0)
}

// Result records a checked guess at now: right (ok) clears the count, wrong counts and may
// start a pause. It returns the wrong guesses in a row.
func (l *Limiter) Result(now time.Time, ok bool) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	if ok {
		l.wrong, l.until = 0, time.Time{}
		return 0
	}
	l.wrong++
	if l.wrong >= Free {
		l.until = now.Add(min(First<<min(l.wrong-Free, 11), Longest))
	}
	return l.wrong
}
