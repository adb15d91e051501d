package main

import (
	"context"
	"fmt"
	"io"
	"time"

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

// fleetFacts are the fleet's facts (server.ReadFacts) with what did not read as the
// JSON output carries it.
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
	f, err := server.ReadFacts(ctx, js, st)
	if err != nil {
		return nil, err
	}
	ff := &fleetFacts{recs: f.Records, received: f.Received, claims: f.Claims, conflicts: f.Conflicts,
		bad: make([]refused, 0, len(f.Bad)), values: badValuesOf(f.Values)}
	for _, b := range f.Bad {
		ff.bad = append(ff.bad, refusedOf(b.Stream, []server.BadMessage{b.BadMessage})...)
	}
	return ff, nil
}
