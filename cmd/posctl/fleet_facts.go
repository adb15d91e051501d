package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/device/fleet/server"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/journal"
)

// refused is a stream message the reader refused (the journal's, or the refusals
// stream's), as the JSON output carries it.
type refused struct {
	Stream  string `json:"stream"`
	Seq     uint64 `json:"seq"`
	Subject string `json:"subject"`
	Error   string `json:"error"`
}

func refusedOf(stream string, bad []server.BadMessage) []refused {
	out := make([]refused, 0, len(bad))
	for _, b := range bad {
		out = append(out, refused{Stream: stream, Seq: b.Seq, Subject: b.Subject, Error: b.Err.Error()})
	}
	return out
}

func (b refused) line() string {
	return fmt.Sprintf("refused message %d on %s: %s", b.Seq, b.Subject, b.Error)
}

// badValue is a bucket entry that does not read, as the JSON output carries it.
type badValue struct {
	Bucket string `json:"bucket"`
	Key    string `json:"key"`
	Error  string `json:"error"`
}

func badValuesOf(bad []server.BadValue) []badValue {
	out := make([]badValue, 0, len(bad))
	for _, b := range bad {
		out = append(out, badValue{Bucket: b.Bucket, Key: b.Key, Error: b.Err.Error()})
	}
	return out
}

func (b badValue) line() string {
	return fmt.Sprintf("bad value in bucket %s, key %.80q: %s", b.Bucket, b.Key, b.Error)
}

// writeUnread writes a line per refused message and bad value.
func writeUnread(w io.Writer, bad []refused, values []badValue) {
	for _, b := range bad {
		fmt.Fprintln(w, b.line())
	}
	for _, b := range values {
		fmt.Fprintln(w, b.line())
	}
}

// fleetFacts is what the operator's tools read from the fleet: the journal stream's
// records, the claims bucket (ticket → holding terminal) and the conflicts bucket; and
// everything that did not read, a finding each: the messages of the journal and
// refusals streams the readers refused, the entries of the claims, conflicts and status
// buckets that do not decode.
type fleetFacts struct {
	recs      []journal.Record
	received  []time.Time // when the stream stored each of recs
	claims    map[codes.TicketID]string
	conflicts []fleet.Conflict
	bad       []refused
	values    []badValue
}

// unread is the number of messages and entries that did not read.
func (ff *fleetFacts) unread() int { return len(ff.bad) + len(ff.values) }

func readFleetFacts(ctx context.Context, fc *fleetConn) (*fleetFacts, error) {
	nc, js, st, err := fc.open(ctx)
	if err != nil {
		return nil, err
	}
	defer nc.Close()
	ff := &fleetFacts{}
	bad, err := server.ReadJournalAt(ctx, js, func(r journal.Record, at time.Time) error {
		ff.recs, ff.received = append(ff.recs, r), append(ff.received, at)
		return nil
	})
	if err != nil {
		return nil, err
	}
	ff.bad = refusedOf(fleet.JournalStream, bad)
	bad, err = server.ReadRefusals(ctx, js, func(fleet.Refusal) error { return nil })
	if err != nil && !errors.Is(err, jetstream.ErrStreamNotFound) { // a fleet set up before the stream existed
		return nil, err
	}
	ff.bad = append(ff.bad, refusedOf(fleet.RefusalStream, bad)...)
	var values, more []server.BadValue
	if ff.claims, values, err = server.AllClaims(ctx, st.Claims); err != nil {
		return nil, err
	}
	if ff.conflicts, more, err = server.ReadConflicts(ctx, st.Conflicts, ">", 0); err != nil {
		return nil, err
	}
	values = append(values, more...)
	if more, err = server.CheckStatusBucket(ctx, st.Status); err != nil {
		return nil, err
	}
	ff.values = badValuesOf(append(values, more...))
	return ff, nil
}
