package flash

import (
	"context"
	"fmt"
	"time"
)

// One technician session holds the terminal at a time (Server.owner): the installs of two
// sessions must not interleave, and a partial transfer is spooled per kind.

// closeGrace is how long, in real time, a claim waits for a session whose connection may
// have closed just before (the network stack's moment, not a protocol timer).
const closeGrace = 500 * time.Millisecond

// handling marks ss as handling a frame received at now; false when a newer session has
// replaced it meanwhile.
func (s *Server) handling(ss *session, now time.Time) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ss.evicted {
		return false
	}
	ss.busy, ss.lastFrame = true, now
	if ss.authed {
		s.activity = now
	}
	return true
}

// handled marks the frame done at now; a technician session's frames are the link's
// activity (LastActivity).
func (s *Server) handled(ss *session, now time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ss.busy, ss.lastFrame = false, now
	if ss.authed {
		s.activity = now
	}
}

// claim makes ss the technician session, called with the right token at now. Another
// session holds the terminal: if it is handling a frame or was heard from within
// TakeoverAfter, claim says why ss must wait (busy); otherwise it is replaced (its
// connection closed) and claim returns once it has let go of its transfer.
func (s *Server) claim(ctx context.Context, ss *session, now time.Time) string {
	takeover := orDefault(s.TakeoverAfter, DefaultTakeoverAfter)
	s.mu.Lock()
	o := s.owner
	if o != nil && o != ss && (o.busy || now.Sub(o.lastFrame) < takeover) {
		// The same technician's previous connection may have closed a moment ago, its
		// end not noticed yet (the next item of a provision): give it that moment.
		s.mu.Unlock()
		select {
		case <-o.ended:
		case <-time.After(closeGrace):
		case <-ctx.Done():
		}
		s.mu.Lock()
		o = s.owner
	}
	if o == nil || o == ss {
		s.owner = ss
		s.mu.Unlock()
		return ""
	}
	silent := now.Sub(o.lastFrame)
	if o.busy || silent < takeover {
		s.mu.Unlock()
		return fmt.Sprintf("another technician's session is in progress on this terminal (heard from %v ago); try again when it has ended",
			max(silent, 0).Round(time.Second))
	}
	o.evicted = true
	close(o.evict)
	s.owner = ss
	s.mu.Unlock()
	ss.log.Info("flash: a silent session is replaced", "silent", silent.Round(time.Second))
	select {
	case <-o.ended:
	case <-ctx.Done():
	}
	return ""
}

// letGo ends ss's hold on the terminal.
func (s *Server) letGo(ss *session) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.owner == ss {
		s.owner = nil
	}
}
