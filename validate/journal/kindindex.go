package journal

import (
	"bytes"
	"encoding/binary"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// bKinds is the kind index: kind (1) ‖ seq (8, big-endian) → empty, one entry for each
// record of a kind other than payout and sale (those are in paid and sold). The terminal's
// start reads from it the last tamper, unlock and lock records and the latest refusals,
// instead of every record of the journal (docs/journal.md, "Buckets and indexes").
var bKinds = []byte("kinds")

// kindIndexed reports whether records of kind k have an entry in the kind index.
func kindIndexed(k Kind) bool { return k != KindPayout && k != KindSale }

func kindKey(k Kind, seq uint64) []byte {
	return binary.BigEndian.AppendUint64([]byte{byte(k)}, seq)
}

// indexKind puts r in the kind index (when the journal has one: an open for writing makes
// it), in r's own transaction.
func indexKind(tx *bolt.Tx, r *Record) error {
	b := tx.Bucket(bKinds)
	if b == nil || !kindIndexed(r.Kind) {
		return nil
	}
	return b.Put(kindKey(r.Kind, r.Seq), []byte{})
}

// inKindIndex reports whether b holds key.
func inKindIndex(b *bolt.Bucket, key []byte) bool {
	k, _ := b.Cursor().Seek(key)
	return bytes.Equal(k, key)
}

// ensureKindIndex makes and fills the kind index of a journal written before it existed
// (once, at its first open for writing since: a read of each record's kind byte, about a
// second for a million records). It reports how many records it indexed.
func ensureKindIndex(tx *bolt.Tx) (int, error) {
	if tx.Bucket(bKinds) != nil {
		return 0, nil
	}
	b, err := tx.CreateBucket(bKinds)
	if err != nil {
		return 0, fmt.Errorf("journal: kind index: %w", err)
	}
	b.FillPercent = 1 // each kind's keys only grow
	n := 0
	c := tx.Bucket(bRecords).Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if len(k) != 8 || len(v) < 2 {
			return 0, corrupt(u64(k), "record malformed")
		}
		if kind := Kind(v[1]); kindIndexed(kind) { // byte 1 of every format: the kind
			if err := b.Put(kindKey(kind, u64(k)), []byte{}); err != nil {
				return 0, err
			}
			n++
		}
	}
	return n, nil
}

// checkKindIndexed is the walk's check that r has its entry in the kind index (b nil: the
// journal has none yet).
func checkKindIndexed(b *bolt.Bucket, r *Record) error {
	if b == nil || !kindIndexed(r.Kind) || inKindIndex(b, kindKey(r.Kind, r.Seq)) {
		return nil
	}
	return corrupt(r.Seq, "%s record not in the kind index", r.Kind)
}

// checkKindIndex is Verify's count of the kind index: the walk has checked that each
// indexed record has its entry; as many well-formed entries as such records means none
// points anywhere else.
func checkKindIndex(tx *bolt.Tx, want int) error {
	b := tx.Bucket(bKinds)
	if b == nil {
		return nil
	}
	n := 0
	c := b.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if len(k) != 9 || len(v) != 0 || !kindIndexed(Kind(k[0])) || !Kind(k[0]).Valid() {
			return corrupt(0, "kind index entry %x is malformed", k)
		}
		n++
	}
	if n != want {
		return corrupt(0, "kind index holds %d entries for %d records", n, want)
	}
	return nil
}

// Latest calls fn with the records of kind k, newest first, each decoded and checked,
// until fn returns false. It reads the kind index, so its cost is that of the records
// read, not of the journal (a journal opened read-only that has no index yet is read
// backwards from its head). Payouts and sales are not indexed by kind (Paid and Sold
// answer for them): asking for them is an error. fn must not call the journal.
func (j *Journal) Latest(k Kind, fn func(Record) bool) error {
	if !k.Valid() || !kindIndexed(k) {
		return fmt.Errorf("journal: latest: %s records are not indexed by kind", k)
	}
	return j.view("latest", func(tx *bolt.Tx) error {
		b := tx.Bucket(bKinds)
		if b == nil {
			return latestByScan(tx, k, fn)
		}
		c := b.Cursor()
		key, _ := c.Seek(kindKey(k+1, 0))
		if key == nil {
			key, _ = c.Last()
		} else {
			key, _ = c.Prev()
		}
		for ; key != nil && len(key) == 9 && Kind(key[0]) == k; key, _ = c.Prev() {
			seq := binary.BigEndian.Uint64(key[1:])
			r, ok, err := recordAt(tx, seq, true)
			if err != nil {
				return err
			}
			if !ok || r.Kind != k {
				return corrupt(seq, "kind index names a %s record that is not there", k)
			}
			if !fn(r) {
				return nil
			}
		}
		return nil
	})
}

// latestByScan is Latest on a journal without a kind index: every record, from the head back.
func latestByScan(tx *bolt.Tx, k Kind, fn func(Record) bool) error {
	c := tx.Bucket(bRecords).Cursor()
	for key, v := c.Last(); key != nil; key, v = c.Prev() {
		if len(v) < 2 || Kind(v[1]) != k {
			continue
		}
		r, err := DecodeRecord(v)
		if err != nil {
			return corrupt(u64(key), "%v", err)
		}
		if !fn(r) {
			return nil
		}
	}
	return nil
}
