package fleet

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/packterm/pos/device/floors"
	"github.com/packterm/pos/internal/strictjson"
)

// A terminal restored from an earlier copy (docs/fleet.md, "A restored terminal"). A data
// directory or an SD card put back from a copy holds a journal that is behind what the
// terminal published since: the payouts after the copy are in the fleet's JOURNAL stream,
// not in the journal, so the terminal would pay their tickets again (its claims answer
// "yours": the same epoch). At every connection the client asks the fleet for the last
// record it holds of this terminal (fleet.head.<terminal>); when that record is of this
// journal (the same epoch, carried on every published record as EpochHeader) and the
// journal does not hold it (its head is behind, or its record of that number differs),
// the terminal was restored: it pays nothing, online or not (ErrRestored), until a
// technician starts its journal afresh (a new epoch). The service records the finding
// (Refusal reason RefusedRestored) and settlement shows the payouts made in between as
// forks.

// HeadPrefix + terminal: "what do you hold of my journal?" (HeadRequest → HeadReply).
const HeadPrefix = "fleet.head."

// EpochHeader carries, on every journal record published, the epoch of the journal it
// is from (journal.Journal.Epoch).
const EpochHeader = "Fleet-Epoch"

// RefusedRestored: the terminal's journal is behind what the fleet holds of it under the
// same epoch: it was put back from an earlier copy (a finding in the refusals stream).
const RefusedRestored = "restored"

// ErrRestored: this terminal's journal is behind what it published (restored from an
// earlier copy): nothing is paid until a technician starts the journal afresh.
var ErrRestored = errors.New("journal restored from an earlier copy")

// HeadRequest is the terminal's journal head, sent on fleet.head.<terminal>.
type HeadRequest struct {
	Epoch string `json:"epoch,omitempty"`
	Seq   uint64 `json:"seq"`
	Hash  string `json:"hash,omitempty"` // hex, the head record's hash
	// Floors asks for the install floors too (floors.go): at each connection.
	Floors bool `json:"floors,omitempty"`
}

// HeadReply is the last record the fleet holds of the terminal (Seq 0: none).
type HeadReply struct {
	Seq   uint64 `json:"seq"`
	Hash  string `json:"hash,omitempty"`  // hex
	Epoch string `json:"epoch,omitempty"` // the epoch it was published under ("" before EpochHeader)
	// Restored: the service found the request's head behind its record, same epoch.
	Restored bool `json:"restored,omitempty"`
	// Time is the service's clock when it answered, Unix milliseconds (0: an older
	// service); the client compares it with the terminal's (skew.go).
	Time int64 `json:"time,omitempty"`
	// Floors are the install floors of the records the fleet holds of the terminal,
	// when asked (floors.go; nil: not asked, or an older service).
	Floors *floors.Floors `json:"floors,omitempty"`
}

// DecodeHeadRequest decodes and checks a head request.
func DecodeHeadRequest(b []byte) (HeadRequest, error) {
	var r HeadRequest
	if err := decodeJSON(b, &r, "head request"); err != nil {
		return HeadRequest{}, err
	}
	if err := checkHead(r.Epoch, r.Hash); err != nil {
		return HeadRequest{}, err
	}
	return r, nil
}

// DecodeHeadReply decodes and checks a head reply.
func DecodeHeadReply(b []byte) (HeadReply, error) {
	var r HeadReply
	if len(b) > maxHeadReply {
		return HeadReply{}, badMessage("head reply: %d bytes, at most %d", len(b), maxHeadReply)
	}
	if err := strictjson.Unmarshal(b, &r); err != nil {
		return HeadReply{}, badMessage("head reply: %v", err)
	}
	if r.Floors != nil && len(r.Floors.Ledgers) > MaxLedgerFloors {
		return HeadReply{}, badMessage("head reply: floors of %d blocks, at most %d", len(r.Floors.Ledgers), MaxLedgerFloors)
	}
	if r.Time < 0 {
		return HeadReply{}, badMessage("head reply: time %d before 1970", r.Time)
	}
	if err := checkHead(r.Epoch, r.Hash); err != nil {
		return HeadReply{}, err
	}
	return r, nil
}

func checkHead(epoch, hash string) error {
	if err := checkEpoch(epoch); err != nil {
		return err
	}
	if hash != "" {
		if b, err := hex.DecodeString(hash); err != nil || len(b) != 32 {
			return badMessage("head: hash is not 32 bytes in hex")
		}
	}
	return nil
}

// Behind reports whether the fleet's record (rep) is of this journal (epoch) and the
// journal does not hold it: its head (seq) is before it, or its own record of that
// number has another hash (own: the journal's hash of record rep.Seq, when it has one).
func Behind(epoch string, seq uint64, rep HeadReply, own func(seq uint64) (hash string, ok bool)) bool {
	if rep.Seq == 0 || rep.Epoch == "" || rep.Epoch != epoch {
		return false
	}
	if seq < rep.Seq {
		return true
	}
	h, ok := own(rep.Seq)
	return !ok || h != rep.Hash
}

// checkRestored asks the fleet for the last record it holds of this terminal and, when
// the journal is behind it (Behind), puts the client in the restored state, kept in its
// state file.
func (c *Client) checkRestored(ctx context.Context) error {
	j := c.o.Journal
	epoch, err := j.Epoch()
	if err != nil {
		return fmt.Errorf("fleet: head: the journal's epoch: %w", err)
	}
	req := HeadRequest{Epoch: epoch, Floors: c.floorsDue.Load()}
	if seq, hash := j.Head(); seq > 0 {
		req.Seq, req.Hash = seq, hex.EncodeToString(hash[:])
	}
	body, _ := json.Marshal(req)
	ctx, cancel := context.WithTimeout(ctx, c.o.Timeout)
	defer cancel()
	msg, err := c.nc.RequestWithContext(ctx, HeadPrefix+c.o.Terminal, body)
	if err != nil {
		return fmt.Errorf("fleet: head: %w (%v)", ErrOffline, err)
	}
	if e := msg.Header.Get(ErrorHeader); e != "" {
		if req.Floors { // a service older than the floors refuses the field: ask without, this connection
			c.floorsDue.Store(false)
			c.log.Warn("fleet: head: the service refused the floors request: asked without them until the next connection", "err", e)
			return c.checkRestored(ctx)
		}
		return fmt.Errorf("fleet: head: the service: %.200s", e)
	}
	rep, err := DecodeHeadReply(msg.Data)
	if err != nil {
		return fmt.Errorf("fleet: head: %w", err)
	}
	c.checkClock(rep.Time)
	if rep.Floors != nil {
		c.floorsDue.Store(false)
		if err := c.raiseFloors(rep.Floors); err != nil {
			return err
		}
	}
	own := func(seq uint64) (string, bool) {
		r, ok, err := j.At(seq)
		if err != nil || !ok {
			return "", false
		}
		return hex.EncodeToString(r.Hash[:]), true
	}
	if !rep.Restored && !Behind(epoch, req.Seq, rep, own) {
		return nil
	}
	c.log.Error("fleet: this journal is behind what the terminal published: restored from an earlier copy; nothing is paid until a technician starts the journal afresh",
		"journal_head", req.Seq, "fleet_holds", rep.Seq)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.state.Restored = &restoredState{Epoch: epoch, Head: req.Seq, Fleet: rep.Seq}
	return c.state.save()
}

// restoredState is kept in the state file: the journal (its epoch) found behind the fleet.
type restoredState struct {
	Epoch string `json:"epoch"`
	Head  uint64 `json:"head"`  // the journal's head then
	Fleet uint64 `json:"fleet"` // the last record the fleet held
}

// restored returns ErrRestored, wrapped, while the journal is the one found behind the
// fleet (a journal started afresh has another epoch: the technician acted).
func (c *Client) restored() error {
	c.mu.Lock()
	r := c.state.Restored
	c.mu.Unlock()
	if r == nil || c.o.Journal == nil {
		return nil
	}
	if epoch, err := c.o.Journal.Epoch(); err == nil && epoch != r.Epoch {
		return nil
	}
	return fmt.Errorf("fleet: journal head %d, the fleet holds record %d: %w", r.Head, r.Fleet, ErrRestored)
}
