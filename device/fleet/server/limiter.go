package server

import (
	"sync"
	"time"

	"github.com/jonboulle/clockwork"
)

// Default claim rate limits per terminal: a terminal pays a few tickets a minute; a burst
// covers the reconciliation of a day's offline payouts, which is retried at the next
// round for the rest.
const (
	DefaultClaimRate  = 2.0 // claims per second, sustained
	DefaultClaimBurst = 60  // claims at once
	// DefaultRequestRate and DefaultRequestBurst limit a terminal's other requests
	// (conflicts, status lists): its client asks for its conflicts once a round (every
	// 5 s at most) and for its status list every 10 minutes.
	DefaultRequestRate  = 1.0
	DefaultRequestBurst = 20
	// RateLimitedRecordEvery: while a terminal stays over its limit, one refusal record
	// per interval stands for all (Refusal.Count), so a flood cannot flood the record.
	RateLimitedRecordEvery = 10 * time.Second
)

// Limiter is a token bucket per terminal: Burst tokens, refilled at Rate per second;
// each claim takes one. The clock is injected (tests never sleep).
type Limiter struct {
	rate  float64
	burst float64
	clock clockwork.Clock

	mu      sync.Mutex
	buckets map[string]*tokenBucket
}

type tokenBucket struct {
	tokens   float64
	at       time.Time
	limited  int       // refusals since the last record
	recorded time.Time // last rate-limited record
}

// NewLimiter makes a limiter; rate ≤ 0 or burst ≤ 0 take the defaults, clock nil the real one.
func NewLimiter(rate float64, burst int, clock clockwork.Clock) *Limiter {
	if rate <= 0 {
		rate = DefaultClaimRate
	}
	if burst <= 0 {
		burst = DefaultClaimBurst
	}
	if clock == nil {
		clock = clockwork.NewRealClock()
	}
	return &Limiter{rate: rate, burst: float64(burst), clock: clock, buckets: map[string]*tokenBucket{}}
}

// Allow takes a token of terminal's bucket; ok false when there is none. record says
// this call is to be recorded as a rate-limited refusal standing for count refusals: the
// first refusal of a flood, then one per RateLimitedRecordEvery; and, with ok, the
// refusals not yet recorded when the terminal is back under its limit.
func (l *Limiter) Allow(terminal string) (ok bool, record bool, count int) {
	now := l.clock.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.buckets[terminal]
	if b == nil {
		b = &tokenBucket{tokens: l.burst, at: now}
		l.buckets[terminal] = b
	}
	if el := now.Sub(b.at).Seconds(); el > 0 {
		b.tokens = min(l.burst, b.tokens+el*l.rate)
	}
	b.at = now
	if b.tokens >= 1 {
		b.tokens--
		count, b.limited = b.limited, 0
		return true, count > 0, count
	}
	b.limited++
	if b.recorded.IsZero() || now.Sub(b.recorded) >= RateLimitedRecordEvery {
		count, b.limited, b.recorded = b.limited, 0, now
		return false, true, count
	}
	return false, false, 0
}

// onceEvery says yes to a terminal at most once per interval (a log line, an answer).
type onceEvery struct {
	every time.Duration
	clock clockwork.Clock
	mu    sync.Mutex
	last  map[string]time.Time
}

func newOnceEvery(every time.Duration, clock clockwork.Clock) *onceEvery {
	if clock == nil {
		clock = clockwork.NewRealClock()
	}
	return &onceEvery{every: every, clock: clock, last: map[string]time.Time{}}
}

func (o *onceEvery) allow(terminal string) bool {
	now := o.clock.Now()
	o.mu.Lock()
	defer o.mu.Unlock()
	if l, ok := o.last[terminal]; ok && now.Sub(l) < o.every {
		return false
	}
	if len(o.last) > 1<<16 { // forget old entries rather than grow without end
		for k, l := range o.last {
			if now.Sub(l) >= o.every {
				delete(o.last, k)
			}
		}
	}
	o.last[terminal] = now
	return true
}
