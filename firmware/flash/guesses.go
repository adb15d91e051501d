package flash

import "time"

// Token guesses: the link's delay before each refusal (AuthDelay) bounds guesses to one a
// second per connection; after authFree wrong tokens in a row, no token (the right one
// included) is even checked for a minute, twice as long after each further wrong one (at
// most a day), so that a short technician token cannot be found by guessing over the link.
const authFree = 5

type guesses struct {
	wrong int       // wrong tokens in a row
	until time.Time // no token is checked before this
}

// authPause is how long tokens are still refused unchecked at now (0: check).
func (s *Server) authPause(now time.Time) time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return max(s.guess.until.Sub(now), 0)
}

// authResult counts a checked token: a right one clears the count.
func (s *Server) authResult(now time.Time, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ok {
		s.guess = guesses{}
		return
	}
	s.guess.wrong++
	if s.guess.wrong >= authFree {
		s.guess.until = now.Add(min(time.Minute<<min(s.guess.wrong-authFree, 11), 24*time.Hour))
	}
}
