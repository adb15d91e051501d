package journal

import (
	"bytes"
	"encoding/binary"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/packterm/pos/validate/codes"
)

// The paid index (bucket "paid") maps a ticket (7 bytes) to what Paid answers about its
// payout, so that a look-up reads no record: the payout's sequence number (8), its time
// (Unix ns, 8), its zone offset in seconds (4, signed) and a flags byte (bit 0: a payout
// made offline, Reason "unconfirmed"): 21 bytes, docs/journal.md "Buckets and indexes".
// A journal written before held the sequence number alone (8 bytes): its index is
// rewritten in the transaction of its first open for writing since (ensurePaidTimes);
// read-only, it is read as it is.
const (
	paidValueLen    = 21
	paidValueLenOld = 8

	paidFlagUnconfirmed = 1
	maxZoneOffset       = 18 * 3600 // the decoder's bound on a record's zone offset
)

// paidAt is one paid index entry: what Paid returns of the payout.
type paidAt struct {
	seq         uint64
	ns          int64 // the payout's time, Unix ns
	off         int32 // its zone offset, seconds
	unconfirmed bool  // made offline (Reason ReasonUnconfirmed)
}

// paidOf is the paid index entry of payout r.
func paidOf(r *Record) paidAt {
	_, off := r.Time.Zone()
	return paidAt{seq: r.Seq, ns: r.Time.UnixNano(), off: int32(off), unconfirmed: r.Unconfirmed()}
}

func (p paidAt) appendBinary(b []byte) []byte {
	b = binary.BigEndian.AppendUint64(b, p.seq)
	b = binary.BigEndian.AppendUint64(b, uint64(p.ns))
	b = binary.BigEndian.AppendUint32(b, uint32(p.off))
	var flags byte
	if p.unconfirmed {
		flags |= paidFlagUnconfirmed
	}
	return append(b, flags)
}

// decodePaid decodes a paid index value. timed is false for the older format (the
// sequence number alone); ok is false when v is neither.
func decodePaid(v []byte) (p paidAt, timed, ok bool) {
	switch len(v) {
	case paidValueLenOld:
		return paidAt{seq: binary.BigEndian.Uint64(v)}, false, true
	case paidValueLen:
		p = paidAt{seq: binary.BigEndian.Uint64(v), ns: int64(binary.BigEndian.Uint64(v[8:])),
			off: int32(binary.BigEndian.Uint32(v[16:])), unconfirmed: v[20]&paidFlagUnconfirmed != 0}
		if v[20]&^paidFlagUnconfirmed != 0 || p.off < -maxZoneOffset || p.off > maxZoneOffset || p.seq == 0 {
			return paidAt{}, false, false
		}
		return p, true, true
	}
	return paidAt{}, false, false
}

// paidSeq is the sequence number a paid index value names (0 when malformed).
func paidSeq(v []byte) uint64 {
	p, _, _ := decodePaid(v)
	return p.seq
}

// record is what Paid returns: the payout of ticket id at terminal, as the index holds it
// (kind, ticket, terminal, sequence number, time, and Reason when made offline).
func (p paidAt) record(terminal string, id codes.TicketID) Record {
	r := Record{Entry: Entry{Kind: KindPayout, Ticket: id, Time: time.Unix(0, p.ns).In(zone(int(p.off)))},
		Terminal: terminal, Seq: p.seq}
	if p.unconfirmed {
		r.Reason = ReasonUnconfirmed
	}
	return r
}

// putPaid puts payout r in the paid index b.
func putPaid(b *bolt.Bucket, r *Record) error {
	return b.Put(ticketKey(r.Ticket), paidOf(r).appendBinary(make([]byte, 0, paidValueLen)))
}

// paidFromFile is Paid read from the file: the paid index's entry, and for an entry of
// the older format the payout's record.
func paidFromFile(tx *bolt.Tx, terminal string, id codes.TicketID) (Record, bool, error) {
	v := tx.Bucket(bPaid).Get(ticketKey(id))
	if v == nil {
		return Record{}, false, nil
	}
	p, timed, ok := decodePaid(v)
	if !ok {
		return Record{}, false, corrupt(0, "paid index entry %x is malformed", ticketKey(id))
	}
	if !timed {
		r, found, err := recordAt(tx, p.seq, false)
		if err != nil {
			return Record{}, false, err
		}
		if !found || r.Kind != KindPayout || r.Ticket != id {
			return Record{}, false, corrupt(p.seq, "paid index points at a record that is not the payout of %v", id)
		}
		p = paidOf(&r)
	}
	return p.record(terminal, id), true, nil
}

// paidRewriteBatch is how many entries ensurePaidTimes rewrites between two seeks of its
// cursor (bbolt's cursors are not to be used across a Put).
const paidRewriteBatch = 8192

// ensurePaidTimes rewrites the paid index of a journal written before it held the
// payout's time (8-byte values) in the format of today, in tx: one read of each payout's
// record, once (the open for writing's start transaction: a crash leaves the older index
// whole, rewritten at the next start). It reports how many entries it rewrote.
func ensurePaidTimes(tx *bolt.Tx) (int, error) {
	b := tx.Bucket(bPaid)
	if b == nil {
		return 0, corrupt(0, "bucket missing")
	}
	k, v := b.Cursor().First()
	if k == nil || len(v) != paidValueLenOld {
		return 0, nil
	}
	type entry struct {
		key []byte
		val []byte
	}
	batch := make([]entry, 0, paidRewriteBatch)
	n := 0
	var from []byte
	for {
		batch = batch[:0]
		c := b.Cursor()
		k, v := c.First()
		if from != nil {
			k, v = c.Seek(from)
			if bytes.Equal(k, from) {
				k, v = c.Next()
			}
		}
		for ; k != nil && len(batch) < paidRewriteBatch; k, v = c.Next() {
			p, timed, ok := decodePaid(v)
			if len(k) != 7 || !ok || timed {
				return 0, corrupt(0, "paid index entry %x is malformed", k)
			}
			r, found, err := recordAt(tx, p.seq, false)
			if err != nil {
				return 0, err
			}
			if !found || r.Kind != KindPayout || !bytes.Equal(ticketKey(r.Ticket), k) {
				return 0, corrupt(p.seq, "paid index entry %x points at a record that is not its payout", k)
			}
			batch = append(batch, entry{bytes.Clone(k), paidOf(&r).appendBinary(make([]byte, 0, paidValueLen))})
		}
		if len(batch) == 0 {
			return n, nil
		}
		for _, e := range batch {
			if err := b.Put(e.key, e.val); err != nil {
				return 0, err
			}
		}
		n += len(batch)
		from = batch[len(batch)-1].key
	}
}

// checkPaidIndexed is the walk's check that payout r is in the paid index as it is: its
// sequence number and, in today's format, its time and flag.
func checkPaidIndexed(b *bolt.Bucket, r *Record) error {
	p, timed, ok := decodePaid(b.Get(ticketKey(r.Ticket)))
	switch {
	case !ok || p.seq != r.Seq:
		return corrupt(r.Seq, "payout of %v not in the paid index", r.Ticket)
	case timed && p != paidOf(r):
		return corrupt(r.Seq, "the paid index entry of %v differs from its payout (time or offline mark)", r.Ticket)
	}
	return nil
}

// checkPaidIndex is Verify's count of the paid index: well-formed entries, all of one
// format, as many as payouts (the walk has checked each payout's entry).
func checkPaidIndex(tx *bolt.Tx, want int) error {
	n, size := 0, 0
	c := tx.Bucket(bPaid).Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if _, _, ok := decodePaid(v); len(k) != 7 || !ok || (size != 0 && len(v) != size) {
			return corrupt(paidSeq(v), "paid index entry %x is malformed", k)
		}
		size = len(v)
		n++
	}
	if n != want {
		return corrupt(0, "paid index holds %d entries for %d %s records", n, want, KindPayout)
	}
	return nil
}
