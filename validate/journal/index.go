package journal

import (
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/packterm/pos/validate/codes"
)

// view runs fn in a read transaction, guarded against a damaged file.
func (j *Journal) view(what string, fn func(tx *bolt.Tx) error) error {
	if j.db == nil {
		j.mu.Lock()
		h := j.health
		j.mu.Unlock()
		return fmt.Errorf("journal: %s: %w", what, h)
	}
	err := guard(what, func() error { return j.db.View(fn) })
	if err != nil {
		if _, ok := err.(*CorruptError); ok {
			j.setCorrupt(err)
		}
	}
	return err
}

// recordAt reads and decodes record seq (nil, false when missing).
func recordAt(tx *bolt.Tx, seq uint64, full bool) (Record, bool, error) {
	v := tx.Bucket(bRecords).Get(be64(seq))
	if v == nil {
		return Record{}, false, nil
	}
	var r Record
	var err error
	if full {
		r, err = DecodeRecord(v)
	} else {
		r, err = decodeFast(v)
	}
	if err != nil {
		return Record{}, false, corrupt(seq, "%v", err)
	}
	if r.Seq != seq {
		return Record{}, false, corrupt(seq, "stored under key %d but holds record %d", seq, r.Seq)
	}
	return r, true, nil
}

// Paid answers "paid already? when, at which terminal, which record" from the paid
// index alone, which holds it (paidindex.go): the payout of ticket id as a Record holding
// its Kind, Ticket, Terminal, Seq and Time, and its Reason when it was made offline
// (ReasonUnconfirmed; empty otherwise). At(r.Seq) reads the whole record.
// A journal open for writing answers from its paid index in memory (paidmem.go), without
// a read of the file; a read-only one from the paid bucket.
func (j *Journal) Paid(id codes.TicketID) (Record, bool, error) {
	p, known := j.paid.lookup(id)
	switch {
	case known && p.seq == 0:
		return Record{}, false, nil
	case known:
		return p.record(j.terminal, id), true, nil
	}
	var r Record
	var ok bool
	err := j.view("paid", func(tx *bolt.Tx) (err error) {
		r, ok, err = paidFromFile(tx, j.terminal, id)
		return err
	})
	if err != nil {
		return Record{}, false, err
	}
	return r, ok, nil
}

// Sold is the sale record of pack (block, pack), from the pack index.
func (j *Journal) Sold(block uint16, pack uint32) (Record, bool, error) {
	return j.indexed("sold", bSold, packKey(block, pack), KindSale)
}

func (j *Journal) indexed(what string, bucket, key []byte, kind Kind) (r Record, ok bool, err error) {
	err = j.view(what, func(tx *bolt.Tx) error {
		v := tx.Bucket(bucket).Get(key)
		if v == nil {
			return nil
		}
		seq := u64(v)
		if r, ok, err = recordAt(tx, seq, false); err != nil {
			return err
		}
		if !ok || r.Kind != kind {
			ok = false
			return corrupt(seq, "%s index points at a record that is not a %s", what, kind)
		}
		return nil
	})
	if err != nil {
		return Record{}, false, err
	}
	return r, ok, nil
}

// Day is the summary of day (its date in day's own location), read from the per-day
// bucket; a day without sales, payouts or claims has zero totals.
func (j *Journal) Day(day time.Time) (DayTotals, error) {
	k := dayKey(day)
	t := DayTotals{Day: k}
	err := j.view("day", func(tx *bolt.Tx) error {
		v := tx.Bucket(bDays).Get([]byte(k))
		if v == nil {
			return nil
		}
		var err error
		if t, err = decodeTotals(k, v); err != nil {
			return corrupt(0, "day %s: %v", k, err)
		}
		return nil
	})
	return t, err
}

// Each calls fn with every record whose time is not before since (zero: all), in
// sequence order, each decoded and checked; it stops at fn's first error.
func (j *Journal) Each(since time.Time, fn func(Record) error) error {
	return j.view("each", func(tx *bolt.Tx) error {
		c := tx.Bucket(bRecords).Cursor()
		for k, v := c.First(); k != nil; k, v = c.Next() {
			r, err := DecodeRecord(v)
			if err != nil {
				return corrupt(u64(k), "%v", err)
			}
			if !since.IsZero() && r.Time.Before(since) {
				continue
			}
			if err := fn(r); err != nil {
				return err
			}
		}
		return nil
	})
}

// Tail returns the last n records, oldest first.
func (j *Journal) Tail(n int) ([]Record, error) {
	var out []Record
	err := j.view("tail", func(tx *bolt.Tx) error {
		c := tx.Bucket(bRecords).Cursor()
		for k, v := c.Last(); k != nil && len(out) < n; k, v = c.Prev() {
			r, err := DecodeRecord(v)
			if err != nil {
				return corrupt(u64(k), "%v", err)
			}
			out = append(out, r)
		}
		return nil
	})
	for i, k := 0, len(out)-1; i < k; i, k = i+1, k-1 {
		out[i], out[k] = out[k], out[i]
	}
	return out, err
}
