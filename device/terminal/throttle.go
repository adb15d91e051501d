package terminal

import (
	"sync"
	"time"
)

// Throttle bounds online guessing of validation codes: after Max forged codes within Window,
// validation locks for Lock, doubled at each further lock, at most MaxLock.
type Throttle struct {
	Max     int
	Window  time.Duration
	Lock    time.Duration
	MaxLock time.Duration
}

func (c Throttle) withDefaults() Throttle {
	if c.Max <= 0 {
		c.Max = 5
	}
	if c.Window <= 0 {
		c.Window = 10 * time.Minute
	}
	if c.Lock <= 0 {
		c.Lock = time.Minute
	}
	if c.MaxLock <= 0 {
		c.MaxLock = 24 * time.Hour
	}
	return c
}

type throttleState struct {
	cfg    Throttle
	mu     sync.Mutex
	recent []time.Time
	locks  int
	until  time.Time
}

func newThrottle(c Throttle) *throttleState { return &throttleState{cfg: c} }

// durationLock is a lock's length.
type durationLock time.Duration

func (d durationLock) Duration() time.Duration { return time.Duration(d) }
func (d durationLock) String() string          { return time.Duration(d).String() }

// locked is the time left of the current lock (0: not locked).
func (s *throttleState) locked(now time.Time) time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	if now.Before(s.until) {
		return s.until.Sub(now)
	}
	return 0
}

// forged notes a forged code at now; it returns the lock it starts (0: none).
func (s *throttleState) forged(now time.Time) durationLock {
	s.mu.Lock()
	defer s.mu.Unlock()
	keep := s.recent[:0]
	for _, t := range s.recent {
		if now.Sub(t) < s.cfg.Window {
			keep = append(keep, t)
		}
	}
	s.recent = append(keep, now)
	if len(s.recent) < s.cfg.Max {
		return 0
	}
	s.recent = s.recent[:0]
	d := s.cfg.Lock
	for i := 0; i < s.locks && d < s.cfg.MaxLock; i++ {
		d *= 2
	}
	d = min(d, s.cfg.MaxLock)
	s.locks++
	s.until = now.Add(d)
	return durationLock(d)
}

// restore replays a lock found in the journal at start: it counts, and holds if not over.
func (s *throttleState) restore(at time.Time, d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.locks++
	if end := at.Add(d); end.After(s.until) {
		s.until = end
	}
}

// restoreForged replays a forged code found in the journal at start.
func (s *throttleState) restoreForged(at time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.recent = append(s.recent, at)
}
