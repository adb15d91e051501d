package server

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/device/floors"
)

// handleHead answers a terminal's "what do you hold of my journal?" (fleet.head.<id>,
// docs/fleet.md "A restored terminal") with the last record of its in the journal stream
// and the epoch it was published under. A request whose head is behind that record under
// the same epoch is a terminal put back from an earlier copy: the answer says so and the
// finding is recorded in the refusals stream (RefusedRestored), once per connection.
func (s *Service) handleHead(ctx context.Context, terminal string, m *nats.Msg) {
	req, err := fleet.DecodeHeadRequest(m.Data)
	if err != nil {
		s.replyError(m, err)
		return
	}
	ctx, cancel := context.WithTimeout(ctx, opTimeout)
	defer cancel()
	rep, err := s.lastRecord(ctx, terminal)
	if err != nil {
		s.o.Logger.Warn("fleet service: head undecided", "terminal", terminal, "err", err)
		s.replyError(m, err)
		return
	}
	if rep.Epoch != "" && rep.Epoch == req.Epoch && req.Seq < rep.Seq {
		rep.Restored = true
		s.o.Logger.Error("fleet service: terminal's journal behind what it published (restored from an earlier copy)",
			"terminal", terminal, "journal_head", req.Seq, "fleet_holds", rep.Seq)
		s.recordRefusal(ctx, fleet.Refusal{At: s.o.Clock.Now(), Terminal: terminal, Reason: fleet.RefusedRestored,
			Detail: fmt.Sprintf("journal head %d, the fleet holds record %d of the same journal (epoch %s)", req.Seq, rep.Seq, rep.Epoch),
			Record: fmt.Sprintf("%s/%d", terminal, rep.Seq)})
	}
	if req.Floors {
		fctx, cancel := context.WithTimeout(ctx, floorsTimeout)
		f, err := s.installFloors(fctx, terminal)
		cancel()
		if err != nil {
			s.o.Logger.Warn("fleet service: install floors not read", "terminal", terminal, "err", err)
		} else {
			rep.Floors = &f
		}
	}
	rep.Time = s.o.Clock.Now().UnixMilli() // the terminal compares its clock with it
	b, _ := json.Marshal(rep)
	m.Respond(b)
}

// lastRecord is the last record of terminal the journal stream holds (Seq 0: none).
func (s *Service) lastRecord(ctx context.Context, terminal string) (fleet.HeadReply, error) {
	msg, err := s.st.Journal.GetLastMsgForSubject(ctx, "journal."+terminal+".>")
	if errors.Is(err, jetstream.ErrMsgNotFound) {
		return fleet.HeadReply{}, nil
	}
	if err != nil {
		return fleet.HeadReply{}, fmt.Errorf("fleet: last record: %w", err)
	}
	r, err := fleet.DecodeJournalMsg(msg.Subject, msg.Data)
	if err != nil { // junk under the terminal's own subject: it holds nothing we can compare
		return fleet.HeadReply{}, nil
	}
	return fleet.HeadReply{Seq: r.Seq, Hash: hex.EncodeToString(r.Hash[:]), Epoch: msg.Header.Get(fleet.EpochHeader)}, nil
}

// maxFloorReads bounds the install records of one kind read for a terminal's floors
// (the last of each kind is read besides, so the newest install always counts), and
// floorsTimeout the whole read: the head is answered without floors past it, well within
// the client's request timeout (2 s by default). About 0.1 ms a record (docs/fleet.md).
const (
	maxFloorReads = 512
	floorsTimeout = 500 * time.Millisecond
)

// installFloors are the install floors of terminal's records in the journal stream
// (fleet.Floored): every record of each install kind (floors.Kinds), on its own subject,
// journal.<terminal>.<kind>, whatever the epoch, read one after the other by subject
// (up to maxFloorReads a kind, then the last one). Records that do not decode are
// skipped. At most fleet.MaxLedgerFloors blocks are named (the highest numbers).
func (s *Service) installFloors(ctx context.Context, terminal string) (floors.Floors, error) {
	var f floors.Floors
	for _, kind := range floors.Kinds {
		subject := "journal." + terminal + "." + kind.String()
		add := func(m *jetstream.RawStreamMsg) {
			if r, err := fleet.DecodeJournalMsg(m.Subject, m.Data); err == nil {
				f.Add(r.Kind, r.Detail)
			}
		}
		seq, n := uint64(1), 0
		for ; n < maxFloorReads; n++ {
			m, err := s.st.Journal.GetMsg(ctx, seq, jetstream.WithGetMsgSubject(subject))
			if errors.Is(err, jetstream.ErrMsgNotFound) {
				break
			}
			if err != nil {
				return floors.Floors{}, fmt.Errorf("fleet: install floors: %w", err)
			}
			add(m)
			seq = m.Sequence + 1
		}
		if n == maxFloorReads {
			s.o.Logger.Warn("fleet service: install floors: more records than read", "terminal", terminal, "kind", kind.String(), "read", n)
			m, err := s.st.Journal.GetLastMsgForSubject(ctx, subject)
			if err != nil {
				return floors.Floors{}, fmt.Errorf("fleet: install floors: %w", err)
			}
			add(m)
		}
	}
	for len(f.Ledgers) > fleet.MaxLedgerFloors {
		delete(f.Ledgers, slices.Min(slices.Collect(maps.Keys(f.Ledgers))))
	}
	return f, nil
}
