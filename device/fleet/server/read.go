package server

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/validate/journal"
	"github.com/packterm/pos/validate/ledger"
)

// PublishStatus verifies a signed status list against trust and stores it as its
// retailer's list.
func PublishStatus(ctx context.Context, st *Stores, data []byte, trust *ledger.TrustStore) (*ledger.StatusList, error) {
	s, err := ledger.ParseStatus(data, trust)
	if err != nil {
		return nil, fmt.Errorf("fleet: publish status list: %w", err)
	}
	if _, err := st.Status.Put(ctx, StatusKey(s.Retailer), data); err != nil {
		return nil, fmt.Errorf("fleet: publish status list: %w", err)
	}
	return s, nil
}

// BadMessage is a journal stream message that does not decode or that a terminal
// published as another (report: listed, never counted).
type BadMessage struct {
	Seq     uint64
	Subject string
	Err     error
}

// ReadJournal calls fn with every record of the journal stream present when it starts,
// in stream order, and returns the messages it refused.
func ReadJournal(ctx context.Context, js jetstream.JetStream, fn func(journal.Record) error) ([]BadMessage, error) {
	return ReadJournalAt(ctx, js, func(r journal.Record, _ time.Time) error { return fn(r) })
}

// ReadJournalAt is ReadJournal with the time the stream stored each record (when the
// fleet received it; the record's own Time is the terminal's clock).
func ReadJournalAt(ctx context.Context, js jetstream.JetStream, fn func(r journal.Record, received time.Time) error) ([]BadMessage, error) {
	return readStream(ctx, js, fleet.JournalStream, "journal", func(subject string, data []byte, at time.Time) error {
		r, err := fleet.DecodeJournalMsg(subject, data)
		if err != nil {
			return &badMsgError{err}
		}
		return fn(r, at)
	})
}

// badMsgError marks a message that does not decode: readStream lists it and goes on.
type badMsgError struct{ err error }

func (e *badMsgError) Error() string { return e.err.Error() }

// fetchWait is how long one fetch of readStream waits for messages, and stallFetches how
// many fetches in a row may come back empty before a read that has not reached the end
// gives up (ErrStalled): a read never waits on a stream that delivers nothing more.
const (
	fetchWait    = 2 * time.Second
	stallFetches = 5
)

// ErrStalled is a stream read that stopped receiving messages before the end it was
// reading to.
var ErrStalled = errors.New("stream read stalled")

// readStream calls each with every message of stream present when it starts, in stream
// order (what names the stream in errors). A *badMsgError from each is listed in the
// BadMessages returned and the read goes on; any other error stops it. The read ends at
// the last message present when it started, or at a message after which nothing is
// pending (the last ones were removed: the stream's last sequence outlives them); it
// fails with ErrStalled when stallFetches fetches in a row bring nothing before either.
func readStream(ctx context.Context, js jetstream.JetStream, stream, what string, each func(subject string, data []byte, at time.Time) error) ([]BadMessage, error) {
	s, err := js.Stream(ctx, stream)
	if err != nil {
		return nil, fmt.Errorf("fleet: %s stream: %w", what, err)
	}
	info, err := s.Info(ctx)
	if err != nil {
		return nil, fmt.Errorf("fleet: %s stream: %w", what, err)
	}
	last := info.State.LastSeq
	if info.State.Msgs == 0 {
		return nil, nil
	}
	cons, err := s.OrderedConsumer(ctx, jetstream.OrderedConsumerConfig{})
	if err != nil {
		return nil, fmt.Errorf("fleet: %s stream: %w", what, err)
	}
	var bad []BadMessage
	var seen uint64
	for empty := 0; ; {
		batch, err := cons.Fetch(500, jetstream.FetchMaxWait(fetchWait))
		if err != nil {
			return bad, fmt.Errorf("fleet: reading the %s stream: %w", what, err)
		}
		n := 0
		for m := range batch.Messages() {
			n++
			md, err := m.Metadata()
			if err != nil {
				return bad, err
			}
			seen = md.Sequence.Stream
			var be *badMsgError
			if err := each(m.Subject(), m.Data(), md.Timestamp); errors.As(err, &be) {
				bad = append(bad, BadMessage{Seq: md.Sequence.Stream, Subject: m.Subject(), Err: be.err})
			} else if err != nil {
				return bad, err
			}
			if md.Sequence.Stream >= last || md.NumPending == 0 {
				return bad, nil
			}
		}
		if err := batch.Error(); err != nil && !errors.Is(err, jetstream.ErrNoMessages) {
			return bad, fmt.Errorf("fleet: reading the %s stream: %w", what, err)
		}
		if n > 0 {
			empty = 0
			continue
		}
		if ctx.Err() != nil {
			return bad, ctx.Err()
		}
		if empty++; empty >= stallFetches {
			return bad, fmt.Errorf("fleet: reading the %s stream: %w: nothing after message %d of %d in %v",
				what, ErrStalled, seen, last, stallFetches*fetchWait)
		}
	}
}
