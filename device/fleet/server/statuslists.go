package server

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/jonboulle/clockwork"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/packterm/pos/validate/ledger"
)

// DefaultStatusMaxAge is how long the claim service uses a retailer's status list before
// it reads the bucket again (a list the operator publishes is in force within it).
const DefaultStatusMaxAge = 5 * time.Second

// StatusLists are the retailers' signed pack status lists of the status bucket, each
// verified against the operator's keys before use (fail closed: a list that does not
// verify is no list) and kept for MaxAge.
type StatusLists struct {
	kv     jetstream.KeyValue
	trust  *ledger.TrustStore
	clock  clockwork.Clock
	maxAge time.Duration

	mu    sync.Mutex
	cache map[uint32]statusEntry
}

type statusEntry struct {
	at   time.Time
	rev  uint64
	list *ledger.StatusList
	err  error // ErrNoStatus, wrapped
}

// NewStatusLists reads the lists of bucket kv (Stores.Status), trusting trust's keys;
// maxAge 0 is DefaultStatusMaxAge, clock nil the real one.
func NewStatusLists(kv jetstream.KeyValue, trust *ledger.TrustStore, maxAge time.Duration, clock clockwork.Clock) *StatusLists {
	if maxAge <= 0 {
		maxAge = DefaultStatusMaxAge
	}
	if clock == nil {
		clock = clockwork.NewRealClock()
	}
	return &StatusLists{kv: kv, trust: trust, clock: clock, maxAge: maxAge, cache: map[uint32]statusEntry{}}
}

// Status is retailer's verified list; an error wrapping ErrNoStatus when the bucket has
// none or the one it has does not verify (or is another retailer's).
func (s *StatusLists) Status(ctx context.Context, retailer uint32) (*ledger.StatusList, error) {
	now := s.clock.Now()
	s.mu.Lock()
	e, ok := s.cache[retailer]
	s.mu.Unlock()
	if ok && now.Sub(e.at) < s.maxAge {
		return e.list, e.err
	}
	kve, err := s.kv.Get(ctx, StatusKey(retailer))
	switch {
	case errors.Is(err, jetstream.ErrKeyNotFound):
		e = statusEntry{err: fmt.Errorf("none published: %w", ErrNoStatus)}
	case err != nil:
		return nil, err // the store, not the list: undecided
	case ok && kve.Revision() == e.rev:
		// unchanged since it was verified
	default:
		e = statusEntry{rev: kve.Revision()}
		list, err := ledger.ParseStatus(kve.Value(), s.trust)
		switch {
		case err != nil:
			e.err = fmt.Errorf("the published list does not verify (%v): %w", err, ErrNoStatus)
		case list.Retailer != retailer:
			e.err = fmt.Errorf("the published list is retailer %d's: %w", list.Retailer, ErrNoStatus)
		default:
			e.list = list
		}
	}
	e.at = now
	s.mu.Lock()
	s.cache[retailer] = e
	s.mu.Unlock()
	return e.list, e.err
}
