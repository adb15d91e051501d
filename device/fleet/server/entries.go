package server

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/ledger"
)

// BadValue is a bucket entry whose key or value is not what the fleet writes there (a
// value sent there by something else than the claim service or the operator's tools):
// the report and settlement list it with its bucket and key, and read the others.
type BadValue struct {
	Bucket string
	Key    string
	Err    error
}

// ErrBadValue wraps every BadValue's Err.
var ErrBadValue = errors.New("malformed bucket entry")

func badValue(bucket, key string, err error) BadValue {
	return BadValue{Bucket: bucket, Key: key, Err: fmt.Errorf("%w: %w", ErrBadValue, err)}
}

// eachEntry calls fn with every key under filter (each once) and its value; it stops at
// fn's error or a store error.
func eachEntry(ctx context.Context, kv jetstream.KeyValue, filter string, fn func(key string, value []byte) error) error {
	l, err := kv.ListKeysFiltered(ctx, filter)
	if err != nil {
		return fmt.Errorf("fleet: listing %s: %w", kv.Bucket(), err)
	}
	defer l.Stop()
	seen := map[string]bool{}
	for k := range l.Keys() {
		if seen[k] {
			continue
		}
		seen[k] = true
		e, err := kv.Get(ctx, k)
		if err != nil {
			return fmt.Errorf("fleet: reading %s entry %.80q: %w", kv.Bucket(), k, err)
		}
		if err := fn(k, e.Value()); err != nil {
			return err
		}
	}
	return nil
}

// ClaimEntry reads an entry of the claims bucket: its ticket and its claim.
func ClaimEntry(key string, value []byte) (codes.TicketID, fleet.Claim, error) {
	var id codes.TicketID
	if _, err := fmt.Sscanf(key, "t.%d.%d.%d", &id.Block, &id.Pack, &id.Position); err != nil || fleet.ClaimKey(id) != key || id.Validate() != nil {
		return id, fleet.Claim{}, fmt.Errorf("key %.80q is no ticket's", key)
	}
	c, err := fleet.DecodeClaim(value)
	return id, c, err
}

// AllClaims reads the whole claims bucket: ticket → holding terminal (the report's
// claim check; operator side, once a report), and the entries that do not read.
func AllClaims(ctx context.Context, kv jetstream.KeyValue) (map[codes.TicketID]string, []BadValue, error) {
	out := map[codes.TicketID]string{}
	var bad []BadValue
	err := eachEntry(ctx, kv, ">", func(k string, v []byte) error {
		id, c, err := ClaimEntry(k, v)
		if err != nil {
			bad = append(bad, badValue(fleet.ClaimsBucket, k, err))
		} else {
			out[id] = c.Terminal
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return out, bad, nil
}

// ConflictEntry reads an entry of the conflicts bucket: the conflict must be stored
// under one of its terminals' keys (fleet.ConflictEntryKey, or the older
// fleet.ConflictKey) for its ticket.
func ConflictEntry(key string, value []byte) (fleet.Conflict, error) {
	c, err := fleet.DecodeConflict(value)
	if err != nil {
		return fleet.Conflict{}, err
	}
	h, o := c.Holder.Terminal, c.Other.Terminal
	for _, k := range []string{fleet.ConflictEntryKey(h, o, c.Ticket), fleet.ConflictEntryKey(o, h, c.Ticket),
		fleet.ConflictKey(h, c.Ticket), fleet.ConflictKey(o, c.Ticket)} {
		if k == key {
			return c, nil
		}
	}
	return fleet.Conflict{}, fmt.Errorf("conflict over %v between %s and %s under key %.80q", c.Ticket, h, o, key)
}

// ReadConflicts lists the conflicts of the bucket under filter (at most max; 0: all),
// and the entries that do not read.
func ReadConflicts(ctx context.Context, kv jetstream.KeyValue, filter string, max int) ([]fleet.Conflict, []BadValue, error) {
	var out []fleet.Conflict
	var bad []BadValue
	err := eachEntry(ctx, kv, filter, func(k string, v []byte) error {
		c, err := ConflictEntry(k, v)
		switch {
		case err != nil:
			bad = append(bad, badValue(fleet.ConflictBucket, k, err))
		case max <= 0 || len(out) < max:
			out = append(out, c)
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return out, bad, nil
}

// Conflicts is ReadConflicts without the entries that do not read.
func Conflicts(ctx context.Context, kv jetstream.KeyValue, filter string, max int) ([]fleet.Conflict, error) {
	cs, _, err := ReadConflicts(ctx, kv, filter, max)
	return cs, err
}

// StatusEntry reads an entry of the status bucket without trusting it: a pack status
// list in its format, its retailer the key's (the signature is the service's to check,
// with the operator's keys: a list that does not verify is no list, StatusLists).
func StatusEntry(key string, value []byte) (*ledger.StatusList, error) {
	n, ok := strings.CutPrefix(key, "r.")
	r, err := strconv.ParseUint(n, 10, 32)
	if !ok || err != nil || StatusKey(uint32(r)) != key {
		return nil, fmt.Errorf("key %.80q is no retailer's", key)
	}
	s, _, err := ledger.InspectStatus(value, nil)
	if err != nil {
		return nil, err
	}
	if s.Retailer != uint32(r) {
		return nil, fmt.Errorf("the list of retailer %d under key %s", s.Retailer, key)
	}
	return s, nil
}

// CheckStatusBucket returns the entries of the status bucket that do not read.
func CheckStatusBucket(ctx context.Context, kv jetstream.KeyValue) ([]BadValue, error) {
	var bad []BadValue
	err := eachEntry(ctx, kv, ">", func(k string, v []byte) error {
		if _, err := StatusEntry(k, v); err != nil {
			bad = append(bad, badValue(fleet.StatusBucket, k, err))
		}
		return nil
	})
	return bad, err
}
