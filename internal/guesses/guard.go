package guesses

import (
	"errors"
	"fmt"
	"sync"
	"time"
)

// The Guard's figures (docs/firmware.md, "Guessing the token", does the arithmetic).
const (
	// SourceLongest bounds one source's pause in a Guard: the global budget, not the
	// source's pause, is what bounds the guesses, so a source (the serial cable, an
	// address the technician shares) is never held for long.
	SourceLongest = 15 * time.Minute
	// Budget is how many guesses all sources together may have checked at once; one more
	// comes back every Refill, up to Budget.
	Budget = 30
	Refill = 20 * time.Second
	// Reserve is the part of the budget kept for sources with fewer wrong guesses: a
	// source with w wrong guesses in a row has its guess checked only while at least
	// Reserve·min(w, Free)/Free + 1 guesses are left. A source with none (the technician
	// who has not mistyped) may take the last one.
	Reserve = 10
	// MaxSources is how many sources a Guard remembers; when full, a source it does not
	// know shares one record with every other such source. Forget is how long after its
	// last wrong guess (and its pause over) a source is forgotten.
	MaxSources = 4096
	Forget     = 24 * time.Hour
)

// overflow is the record shared by the sources a full Guard does not remember.
const overflow = "\x00overflow"

// ErrSource and ErrBudget are what a PauseError wraps: the source's own wrong guesses, or
// all sources' (the budget is spent).
var (
	ErrSource = errors.New("guesses: too many wrong guesses from this source")
	ErrBudget = errors.New("guesses: too many wrong guesses from all sources")
)

// PauseError refuses a guess unchecked: Wait is how long before one may be checked.
type PauseError struct {
	Wait time.Duration
	Err  error // ErrSource or ErrBudget
}

func (e *PauseError) Error() string {
	return fmt.Sprintf("%v: none is checked for %v", e.Err, e.Wait.Round(time.Second))
}

func (e *PauseError) Unwrap() error { return e.Err }

// Guard throttles the guesses of one secret coming from several sources (the maintenance
// link's peers, one per network address). Check before each guess, Result after. Its
// methods are safe for concurrent use; the zero value is ready, its budget full.
type Guard struct {
	mu      sync.Mutex
	sources map[string]*record
	spent   float64   // guesses taken from the budget and not yet back, at `at`
	at      time.Time // when spent was last brought up to date
	swept   time.Time // the last sweep of stale sources
}

// Check says whether a guess from source may be checked at now. When it may (nil), it has
// taken one guess from the budget and Result must follow. Otherwise the error is a
// *PauseError wrapping ErrSource or ErrBudget.
func (g *Guard) Check(source string, now time.Time) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	r := g.lookup(source, now)
	wrong := 0
	if r != nil {
		if p := r.pause(now); p > 0 {
			return &PauseError{Wait: p, Err: ErrSource}
		}
		wrong = r.wrong
	}
	g.refill(now)
	// Left must stay above the reserve of this source's rank.
	need := float64(Reserve*min(wrong, Free)/Free) + 1
	if left := Budget - g.spent; left < need {
		wait := time.Duration((need - left) * float64(Refill))
		return &PauseError{Wait: max(wait, time.Second), Err: ErrBudget}
	}
	g.spent++
	return nil
}

// Result records the guess from source that Check let through: a right one (ok) gives its
// share of the budget back and forgets the source; a wrong one counts and may start the
// source's pause. It returns the source's wrong guesses in a row.
func (g *Guard) Result(source string, now time.Time, ok bool) int {
	g.mu.Lock()
	defer g.mu.Unlock()
	if ok {
		g.refill(now)
		g.spent = max(g.spent-1, 0)
		delete(g.sources, source)
		return 0
	}
	r := g.lookup(source, now)
	if r == nil {
		r = g.add(source, now)
	}
	return r.result(now, false, SourceLongest)
}

// refill brings spent up to date: one guess back every Refill.
func (g *Guard) refill(now time.Time) {
	if now.After(g.at) {
		if !g.at.IsZero() {
			g.spent = max(g.spent-float64(now.Sub(g.at))/float64(Refill), 0)
		}
		g.at = now
	}
}

// lookup is source's record (nil: none, a clean source). A full Guard answers for a source
// it does not know with the shared overflow record.
func (g *Guard) lookup(source string, now time.Time) *record {
	r := g.sources[source]
	if r != nil && g.stale(r, now) {
		delete(g.sources, source)
		r = nil
	}
	if r == nil && len(g.sources) >= MaxSources {
		g.sweep(now)
		if len(g.sources) >= MaxSources {
			return g.sources[overflow]
		}
	}
	return r
}

// add makes a record for source (the overflow one when the Guard is full).
func (g *Guard) add(source string, now time.Time) *record {
	if g.sources == nil {
		g.sources = map[string]*record{}
	}
	if len(g.sources) >= MaxSources {
		g.sweep(now)
		if len(g.sources) >= MaxSources {
			source = overflow
			if r := g.sources[source]; r != nil {
				return r
			}
		}
	}
	r := &record{}
	g.sources[source] = r
	return r
}

func (g *Guard) stale(r *record, now time.Time) bool {
	return r.pause(now) == 0 && now.Sub(r.last) >= Forget
}

// sweep forgets the stale sources, at most once a minute (a full table would otherwise be
// walked at every guess).
func (g *Guard) sweep(now time.Time) {
	if now.Sub(g.swept) < time.Minute {
		return
	}
	g.swept = now
	for k, r := range g.sources {
		if g.stale(r, now) {
			delete(g.sources, k)
		}
	}
}
