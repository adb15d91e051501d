package server

import (
	"context"
	"errors"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/journal"
)

// StreamBad is a message of a stream (fleet.JournalStream or fleet.RefusalStream) its
// reader refused.
type StreamBad struct {
	Stream string
	BadMessage
}

// Facts are what the operator's tools (posctl fleet report and settle, the console) read
// from the fleet: the journal stream's records and when the stream stored each, the
// refusals stream, the claims bucket (ticket → holding terminal) and the conflicts
// bucket; and everything that did not read: the messages the readers refused and the
// entries of the claims, conflicts and status buckets that do not decode.
type Facts struct {
	Records   []journal.Record
	Received  []time.Time // when the stream stored each of Records
	JournalTo uint64      // the journal stream's sequence of the last record read
	Refusals  []fleet.Refusal
	Claims    map[codes.TicketID]string
	Conflicts []fleet.Conflict
	Bad       []StreamBad
	Values    []BadValue
}

// Unread is the number of messages and entries that did not read.
func (f *Facts) Unread() int { return len(f.Bad) + len(f.Values) }

func streamBad(stream string, bad []BadMessage) []StreamBad {
	out := make([]StreamBad, 0, len(bad))
	for _, b := range bad {
		out = append(out, StreamBad{stream, b})
	}
	return out
}

// ReadFacts reads the fleet's facts through js and st (it writes nothing). A fleet set
// up before the refusals stream existed reads without it.
func ReadFacts(ctx context.Context, js jetstream.JetStream, st *Stores) (*Facts, error) {
	f := &Facts{}
	if s, err := js.Stream(ctx, fleet.JournalStream); err == nil {
		if info, err := s.Info(ctx); err == nil {
			f.JournalTo = info.State.LastSeq
		}
	}
	bad, err := ReadJournalAt(ctx, js, func(r journal.Record, at time.Time) error {
		f.Records, f.Received = append(f.Records, r), append(f.Received, at)
		return nil
	})
	if err != nil {
		return nil, err
	}
	f.Bad = streamBad(fleet.JournalStream, bad)
	bad, err = ReadRefusals(ctx, js, func(r fleet.Refusal) error { f.Refusals = append(f.Refusals, r); return nil })
	if err != nil && !errors.Is(err, jetstream.ErrStreamNotFound) {
		return nil, err
	}
	f.Bad = append(f.Bad, streamBad(fleet.RefusalStream, bad)...)
	var values, more []BadValue
	if f.Claims, values, err = AllClaims(ctx, st.Claims); err != nil {
		return nil, err
	}
	if f.Conflicts, more, err = ReadConflicts(ctx, st.Conflicts, ">", 0); err != nil {
		return nil, err
	}
	values = append(values, more...)
	if more, err = CheckStatusBucket(ctx, st.Status); err != nil {
		return nil, err
	}
	f.Values = append(values, more...)
	return f, nil
}
