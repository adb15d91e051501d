package journal

import (
	"errors"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/packterm/pos/validate/codes"
)

// ErrDuplicateClaim: a claim (or a payout) of a ticket already claimed here. A claim
// receipt is out for that ticket: it is paid by a payment centre only, and its claim is
// counted once.
var ErrDuplicateClaim = errors.New("ticket already claimed")

// bClaimed is the claim index: ticket → sequence of its claim record. It is made at the
// first append of a journal written before it existed, filled from the claim records then.
var bClaimed = []byte("claimed")

// claimIndex is the claim index of tx, made and filled from the records when the journal
// has none yet (a journal written before claims were indexed; the first claim of a
// ticket claimed more than once then is the one indexed).
func claimIndex(tx *bolt.Tx) (*bolt.Bucket, error) {
	if b := tx.Bucket(bClaimed); b != nil {
		return b, nil
	}
	b, err := tx.CreateBucket(bClaimed)
	if err != nil {
		return nil, err
	}
	c := tx.Bucket(bRecords).Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		r, err := decodeFast(v)
		if err != nil {
			return nil, corrupt(u64(k), "%v", err)
		}
		if r.Kind != KindClaim {
			continue
		}
		if key := ticketKey(r.Ticket); b.Get(key) == nil {
			if err := b.Put(key, be64(r.Seq)); err != nil {
				return nil, err
			}
		}
	}
	return b, nil
}

// indexClaim checks a payout or claim r against the claim index and indexes a claim.
func indexClaim(tx *bolt.Tx, r *Record) error {
	if r.Kind != KindClaim && r.Kind != KindPayout {
		return nil
	}
	b, err := claimIndex(tx)
	if err != nil {
		return err
	}
	k := ticketKey(r.Ticket)
	if v := b.Get(k); v != nil {
		return fmt.Errorf("journal: %s: ticket %v claimed by record %s/%d: %w", r.Kind, r.Ticket, r.Terminal, u64(v), ErrDuplicateClaim)
	}
	if r.Kind != KindClaim {
		return nil
	}
	return b.Put(k, be64(r.Seq))
}

// Claimed is the claim record of ticket id, from the claim index in O(1) (a journal not
// appended to since it was written without the index: a scan of its records).
func (j *Journal) Claimed(id codes.TicketID) (r Record, ok bool, err error) {
	key := ticketKey(id)
	err = j.view("claimed", func(tx *bolt.Tx) error {
		b := tx.Bucket(bClaimed)
		if b == nil {
			r, ok, err = scanClaim(tx, id)
			return err
		}
		v := b.Get(key)
		if v == nil {
			return nil
		}
		seq := u64(v)
		if r, ok, err = recordAt(tx, seq, false); err != nil {
			return err
		}
		if !ok || r.Kind != KindClaim || r.Ticket != id {
			ok = false
			return corrupt(seq, "claimed index points at a record that is not the claim of %v", id)
		}
		return nil
	})
	if err != nil {
		return Record{}, false, err
	}
	return r, ok, nil
}

func scanClaim(tx *bolt.Tx, id codes.TicketID) (Record, bool, error) {
	c := tx.Bucket(bRecords).Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		r, err := decodeFast(v)
		if err != nil {
			return Record{}, false, corrupt(u64(k), "%v", err)
		}
		if r.Kind == KindClaim && r.Ticket == id {
			return r, true, nil
		}
	}
	return Record{}, false, nil
}

// checkClaimIndexed is the walk's check of a claim record: its ticket is in the claim
// index (when the journal has one) at this record or an earlier claim of the ticket.
func checkClaimIndexed(claimed *bolt.Bucket, r *Record) error {
	if claimed == nil || r.Kind != KindClaim {
		return nil
	}
	v := claimed.Get(ticketKey(r.Ticket))
	if v == nil || u64(v) > r.Seq {
		return corrupt(r.Seq, "claim of %v not in the claimed index", r.Ticket)
	}
	return nil
}

// At is record seq, decoded and checked (false when there is none).
func (j *Journal) At(seq uint64) (r Record, ok bool, err error) {
	err = j.view("record", func(tx *bolt.Tx) error {
		v := tx.Bucket(bRecords).Get(be64(seq))
		if v == nil {
			return nil
		}
		if r, err = DecodeRecord(v); err != nil {
			return corrupt(seq, "%v", err)
		}
		if r.Seq != seq {
			return corrupt(seq, "stored under key %d but holds record %d", seq, r.Seq)
		}
		ok = true
		return nil
	})
	if err != nil {
		return Record{}, false, err
	}
	return r, ok, nil
}
