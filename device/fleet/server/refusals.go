package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/packterm/pos/device/fleet"
)

// ReadRefusals calls fn with every refused claim the service recorded in the refusals
// stream, present when it starts, in order; messages that do not decode are returned.
func ReadRefusals(ctx context.Context, js jetstream.JetStream, fn func(fleet.Refusal) error) ([]BadMessage, error) {
	s, err := js.Stream(ctx, fleet.RefusalStream)
	if err != nil {
		return nil, fmt.Errorf("fleet: refusals stream: %w", err)
	}
	info, err := s.Info(ctx)
	if err != nil {
		return nil, fmt.Errorf("fleet: refusals stream: %w", err)
	}
	last := info.State.LastSeq
	if info.State.Msgs == 0 {
		return nil, nil
	}
	cons, err := s.OrderedConsumer(ctx, jetstream.OrderedConsumerConfig{})
	if err != nil {
		return nil, fmt.Errorf("fleet: refusals stream: %w", err)
	}
	var bad []BadMessage
	for {
		batch, err := cons.Fetch(500, jetstream.FetchMaxWait(2*time.Second))
		if err != nil {
			return bad, fmt.Errorf("fleet: reading the refusals stream: %w", err)
		}
		n := 0
		for m := range batch.Messages() {
			n++
			md, err := m.Metadata()
			if err != nil {
				return bad, err
			}
			r, err := fleet.DecodeRefusal(m.Data())
			if err == nil && fleet.RefusalPrefix+r.Terminal != m.Subject() {
				err = fmt.Errorf("fleet: refusal of %s on %.80q: %w", r.Terminal, m.Subject(), fleet.ErrMessage)
			}
			if err != nil {
				bad = append(bad, BadMessage{Seq: md.Sequence.Stream, Subject: m.Subject(), Err: err})
			} else if err := fn(r); err != nil {
				return bad, err
			}
			if md.Sequence.Stream >= last {
				return bad, nil
			}
		}
		if err := batch.Error(); err != nil && !errors.Is(err, jetstream.ErrNoMessages) {
			return bad, fmt.Errorf("fleet: reading the refusals stream: %w", err)
		}
		if n == 0 && ctx.Err() != nil {
			return bad, ctx.Err()
		}
	}
}

// recordRefusal logs the refusal for the operator and stores it in the refusals stream.
func (s *Service) recordRefusal(ctx context.Context, r fleet.Refusal) {
	s.o.Logger.Warn("fleet service: claim refused", "terminal", r.Terminal, "retailer", r.Retailer,
		"ticket", r.Ticket.String(), "reason", r.Reason, "detail", r.Detail, "amount", r.Amount, "count", r.Count)
	b, _ := json.Marshal(r)
	if _, err := s.js.Publish(ctx, fleet.RefusalPrefix+r.Terminal, b); err != nil {
		s.o.Logger.Error("fleet service: recording a refused claim", "terminal", r.Terminal, "ticket", r.Ticket.String(), "err", err)
	}
}
