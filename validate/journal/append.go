package journal

import (
	"errors"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/ledger"
)

// Append records e, signed with the device key, and returns the record once it is durable: bbolt's commit has written
// and fsynced the data pages, then the meta page (docs/journal.md, "Durability"). The
// terminal opens the drawer or prints "payé" only after that. It fails with ErrReadOnly in
// the no-payout state, ErrDuplicatePayout for a payout (or claim) of a ticket already paid,
// ErrDuplicateClaim for a claim (or payout) of a ticket already claimed, ErrDuplicateSale
// for a pack already sold, ErrInvalidEntry for an entry out of range (a
// code on anything but a payout among others). A storage failure puts the journal in its
// no-payout state: the terminal cannot prove it recorded the payout.
func (j *Journal) Append(e Entry) (Record, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	r, err := j.next(e)
	if err != nil {
		return Record{}, err
	}
	return j.write(r)
}

// next is e as the record after the head, unsealed, when the journal takes it (Append and
// Prepare); j.mu is held.
func (j *Journal) next(e Entry) (Record, error) {
	if err := j.writable(); err != nil {
		return Record{}, err
	}
	if err := appendable(e.Kind); err != nil {
		return Record{}, err
	}
	if e.Time.IsZero() {
		e.Time = j.clock.Now()
	}
	if err := forward(&e, j.lastTime()); err != nil { // forward.go
		return Record{}, fmt.Errorf("journal: append: %w", err)
	}
	return j.prepare(e, j.head+1, j.headHash)
}

// write seals r (its hash and the device key's signature) and stores it; j.mu is held.
func (j *Journal) write(r Record) (Record, error) {
	enc := sealSigned(j.priv, ledger.IDOf(j.pub), &r) // vouched for by the device key as it is written
	var cp *Checkpoint
	err := guard("append", func() error {
		return j.db.Update(func(tx *bolt.Tx) error {
			var err error
			if cp, err = j.maybeDaily(tx, &r); err != nil {
				return err
			}
			return putRecord(tx, &r, enc)
		})
	})
	if err != nil {
		return Record{}, j.failed("append", err)
	}
	j.advance(r, cp)
	j.log.Debug("journal: appended", "id", r.ID(), "kind", r.Kind.String(), "amount", r.Amount)
	return r, nil
}

// lastTime is the last record's time (zero when the journal is empty); j.mu is held.
func (j *Journal) lastTime() time.Time {
	if j.head == 0 {
		return time.Time{}
	}
	return j.last.Time
}

// appendable refuses the kinds that only the journal itself writes: a journal-reset
// record is the first record of a journal a technician started afresh, written by Reset
// in the transaction that creates the journal, never appended.
func appendable(k Kind) error {
	if k == KindReset {
		return fmt.Errorf("journal: append: a %s record is written only by a technician's reset, as the first record of a new journal: %w", k, ErrInvalidEntry)
	}
	return nil
}

// writable is nil when records may be appended.
func (j *Journal) writable() error {
	if j.readOnly {
		return fmt.Errorf("journal: append: opened read-only: %w", ErrReadOnly)
	}
	if j.health != nil {
		return fmt.Errorf("journal: append: %w: %w", ErrReadOnly, j.health)
	}
	return nil
}

// failed classifies an Update error: refusals are returned as they are; anything else
// (a write or fsync failure, a damaged file) enters the no-payout state.
func (j *Journal) failed(what string, err error) error {
	if errors.Is(err, ErrDuplicatePayout) || errors.Is(err, ErrDuplicateClaim) || errors.Is(err, ErrDuplicateSale) ||
		errors.Is(err, ErrInvalidEntry) || errors.Is(err, ErrHeadMoved) || errors.Is(err, ErrClockBehind) {
		return err
	}
	j.setCorruptLocked(corrupt(0, "%s: storage failed, the record may not be durable: %v", what, err))
	return fmt.Errorf("journal: %s: %w: %w", what, ErrReadOnly, err)
}

func (j *Journal) advance(r Record, cp *Checkpoint) {
	j.head, j.headHash, j.last = r.Seq, r.Hash, r
	j.paid.note(&r) // paidmem.go
	if cp != nil {
		j.cp = cp
	}
	j.marks.write(j.headMark(), cp != nil) // keep.go: the head marker, outside the file
}

// prepare turns an entry into the record of sequence seq, checked.
func (j *Journal) prepare(e Entry, seq uint64, prev [32]byte) (Record, error) {
	if e.Time.IsZero() {
		e.Time = j.clock.Now()
	}
	_, off := e.Time.Zone()
	e.Time = time.Unix(0, e.Time.UnixNano()).In(zone(off))
	if e.Game == 0 && e.Ticket.Position != 0 {
		e.Game = int(e.Ticket.Game()) // the one place a ticket's game is set: its position
	}
	if len(e.Receipts) == 0 {
		e.Receipts = nil
	} else {
		e.Receipts = append([]string(nil), e.Receipts...)
	}
	r := Record{Entry: e, Terminal: j.terminal, Seq: seq, Boot: j.boot, Prev: prev}
	if err := checkRecord(&r); err != nil {
		return Record{}, fmt.Errorf("journal: append: %w", err)
	}
	return r, nil
}

// putRecord stores r (encoded as enc) with its index entries, the day's totals and the new
// head, in tx; the duplicate checks are in the same transaction.
func putRecord(tx *bolt.Tx, r *Record, enc []byte) error {
	recs, paid, sold := tx.Bucket(bRecords), tx.Bucket(bPaid), tx.Bucket(bSold)
	if recs == nil || paid == nil || sold == nil {
		return corrupt(0, "bucket missing")
	}
	recs.FillPercent = 1 // keys only ever grow: full pages
	switch r.Kind {
	case KindPayout, KindClaim:
		// The integrity guard, not the pay decision (validate/decide refuses a ticket paid
		// here before anything is recorded): whatever a caller decided, the journal never
		// holds two payouts of a ticket. A storage invariant, checked in this transaction.
		k := ticketKey(r.Ticket)
		if v := paid.Get(k); v != nil {
			return fmt.Errorf("journal: %s: ticket %v paid by record %s/%d: %w", r.Kind, r.Ticket, r.Terminal, paidSeq(v), ErrDuplicatePayout)
		}
		if err := indexClaim(tx, r); err != nil {
			return err
		}
		if r.Kind == KindPayout {
			if err := putPaid(paid, r); err != nil { // paidindex.go
				return err
			}
		}
	case KindSale:
		k := packKey(r.Ticket.Block, r.Ticket.Pack)
		if v := sold.Get(k); v != nil {
			return fmt.Errorf("journal: sale: pack %v sold by record %s/%d: %w", r.Ticket, r.Terminal, u64(v), ErrDuplicateSale)
		}
		if err := sold.Put(k, be64(r.Seq)); err != nil {
			return err
		}
	}
	if err := recs.Put(be64(r.Seq), enc); err != nil {
		return err
	}
	if err := indexKind(tx, r); err != nil { // kindindex.go
		return err
	}
	if counts(r.Kind) {
		days := tx.Bucket(bDays)
		if days == nil {
			return corrupt(0, "bucket missing")
		}
		day := r.day()
		t, err := decodeTotals(day, days.Get([]byte(day)))
		if days.Get([]byte(day)) == nil {
			t, err = DayTotals{Day: day}, nil
		}
		if err != nil {
			return corrupt(r.Seq, "%v", err)
		}
		t.add(r)
		if err := days.Put([]byte(day), t.appendBinary(nil)); err != nil {
			return err
		}
	}
	return putHead(tx, r.Seq, r.Hash)
}

func putHead(tx *bolt.Tx, seq uint64, hash [32]byte) error {
	m := tx.Bucket(bMeta)
	if m == nil {
		return corrupt(0, "meta bucket missing")
	}
	return m.Put(kHead, append(be64(seq), hash[:]...))
}

func ticketKey(id codes.TicketID) []byte {
	return []byte{byte(id.Block >> 8), byte(id.Block), byte(id.Pack >> 24), byte(id.Pack >> 16), byte(id.Pack >> 8), byte(id.Pack), id.Position}
}

func packKey(block uint16, pack uint32) []byte {
	return []byte{byte(block >> 8), byte(block), byte(pack >> 24), byte(pack >> 16), byte(pack >> 8), byte(pack)}
}

// appendBatch appends entries in one transaction (one fsync): the fast path that builds
// large fixtures for benchmarks and tests. The terminal appends one record at a time.
func (j *Journal) appendBatch(entries []Entry) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if err := j.writable(); err != nil {
		return err
	}
	seq, prev, after := j.head, j.headHash, j.lastTime()
	kid := ledger.IDOf(j.pub)
	var last Record
	var paid []Record
	err := guard("append", func() error {
		return j.db.Update(func(tx *bolt.Tx) error {
			paid = paid[:0]
			for _, e := range entries {
				if err := appendable(e.Kind); err != nil {
					return err
				}
				if e.Time.IsZero() {
					e.Time = j.clock.Now()
				}
				if err := forward(&e, after); err != nil {
					return fmt.Errorf("journal: append batch: %w", err)
				}
				r, err := j.prepare(e, seq+1, prev)
				if err != nil {
					return err
				}
				if err := putRecord(tx, &r, sealSigned(j.priv, kid, &r)); err != nil {
					return err
				}
				seq, prev, last, after = r.Seq, r.Hash, r, r.Time
				paid = append(paid, r)
			}
			return nil
		})
	})
	if err != nil {
		return j.failed("append batch", err)
	}
	for i := range paid {
		j.paid.note(&paid[i])
	}
	if len(entries) > 0 {
		j.advance(last, nil)
	}
	return nil
}
