package guesses

import (
	"sync"
	"time"
)

// Free is how many wrong guesses in a row are allowed before the pauses begin.
const Free = 5

// First and Longest bound a Limiter's pause: the first lasts First, each further one
// twice the one before, none more than Longest.
const (
	First   = time.Minute
	Longest = 24 * time.Hour
)

// record is one source's wrong guesses in a row and its pause: the rule of the package.
type record struct {
	wrong int       // wrong guesses in a row
	until time.Time // no guess is checked before this
	last  time.Time // the last wrong guess
}

func (r *record) pause(now time.Time) time.Duration { return max(r.until.Sub(now), 0) }

// result records a checked guess at now, pauses at most longest; it returns the wrong
// guesses in a row.
func (r *record) result(now time.Time, ok bool, longest time.Duration) int {
	if ok {
		*r = record{}
		return 0
	}
	r.wrong++
	r.last = now
	if r.wrong >= Free {
		r.until = now.Add(min(First<<min(r.wrong-Free, 11), longest))
	}
	return r.wrong
}

// Limiter counts the wrong guesses of one secret from one source. Its methods are safe for
// concurrent use; the zero value is ready.
type Limiter struct {
	mu sync.Mutex
	r  record
}

// Pause is how long guesses are still refused unchecked at now (0: check this one).
func (l *Limiter) Pause(now time.Time) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.r.pause(now)
}

// Result records a checked guess at now: right (ok) clears the count, wrong counts and may
// start a pause. It returns the wrong guesses in a row.
func (l *Limiter) Result(now time.Time, ok bool) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.r.result(now, ok, Longest)
}
