package server

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/packterm/pos/device/fleet"
)

// ReadRefusals calls fn with every refused claim the service recorded in the refusals
// stream, present when it starts, in order; messages that do not decode are returned.
func ReadRefusals(ctx context.Context, js jetstream.JetStream, fn func(fleet.Refusal) error) ([]BadMessage, error) {
	return readStream(ctx, js, fleet.RefusalStream, "refusals", func(subject string, data []byte, _ time.Time) error {
		r, err := fleet.DecodeRefusal(data)
		if err == nil && fleet.RefusalPrefix+r.Terminal != subject {
			err = fmt.Errorf("fleet: refusal of %s on %.80q: %w", r.Terminal, subject, fleet.ErrMessage)
		}
		if err != nil {
			return &badMsgError{err}
		}
		return fn(r)
	})
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
