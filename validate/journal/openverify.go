package journal

import (
	"bytes"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// verifyOpen is Open's check: the meta bucket, the last checkpoint (signature, and the
// record it names has the hash it names), then every record after it (decoding, own
// hash, sequence with no gap, chain of hashes, signature, index entries) up to the stored
// head. It loads the head, the last record and the last checkpoint.
func (j *Journal) verifyOpen() error {
	return j.db.View(func(tx *bolt.Tx) error {
		for _, name := range allBuckets {
			if tx.Bucket(name) == nil {
				return corrupt(0, "bucket %q missing", name)
			}
		}
		m := tx.Bucket(bMeta)
		if v := m.Get(kFormat); !bytes.Equal(v, []byte{metaFormatWant}) {
			return corrupt(0, "journal format %x, want %d", v, metaFormatWant)
		}
		t := string(m.Get(kTerminal))
		if err := checkTerminal(t); err != nil {
			return corrupt(0, "stored terminal id: %v", err)
		}
		if j.terminal == "" {
			j.terminal = t
		} else if t != j.terminal {
			return fmt.Errorf("journal: open: the journal belongs to terminal %q, not %q", t, j.terminal)
		}
		head, headHash, err := readHead(m)
		if err != nil {
			return err
		}
		cp, err := lastCheckpoint(tx, j)
		if err != nil {
			return err
		}
		from, prev, err := readBase(m)
		if err != nil {
			return err
		}
		sc := newSigCheck(j.pub)
		if cp != nil {
			if cp.Seq > head {
				return corrupt(cp.Seq, "the last checkpoint covers record %d, the journal ends at %d", cp.Seq, head)
			}
			if cp.Seq > 0 {
				r, ok, err := recordAt(tx, cp.Seq, true)
				if err != nil {
					return err
				}
				if !ok || r.Hash != cp.Hash {
					return corrupt(cp.Seq, "record does not match the signed checkpoint")
				}
				sc.signed = r.Signed() // no unsigned record after a signed one
			}
			from, prev = cp.Seq+1, cp.Hash
		}
		last, err := walkChain(tx, j.terminal, from, prev, head, headHash, sc, nil)
		if err != nil {
			return err
		}
		if head > 0 && last.Seq == 0 {
			if last, _, err = recordAt(tx, head, true); err != nil {
				return err
			}
		}
		j.head, j.headHash, j.last, j.cp = head, headHash, last, cp
		return nil
	})
}

func readHead(m *bolt.Bucket) (uint64, [32]byte, error) {
	var h [32]byte
	v := m.Get(kHead)
	if v == nil {
		return 0, h, nil
	}
	if len(v) != 40 || u64(v[:8]) == 0 {
		return 0, h, corrupt(0, "stored head is malformed")
	}
	copy(h[:], v[8:])
	return u64(v[:8]), h, nil
}

// lastCheckpoint decodes and verifies the newest checkpoint (nil when there is none).
func lastCheckpoint(tx *bolt.Tx, j *Journal) (*Checkpoint, error) {
	k, v := tx.Bucket(bCheckpoints).Cursor().Last()
	if k == nil {
		return nil, nil
	}
	cp, err := DecodeCheckpoint(v)
	if err != nil {
		return nil, corrupt(0, "checkpoint %d: %v", u64(k), err)
	}
	if err := cp.Verify(j.pub); err != nil {
		return nil, corrupt(cp.Seq, "%v", err)
	}
	if cp.Terminal != j.terminal {
		return nil, corrupt(cp.Seq, "checkpoint of terminal %q", cp.Terminal)
	}
	return &cp, nil
}

// walkChain checks records from..head: key and sequence, decoding and own hash, the
// chain from prev, the terminal, each payout and sale in its index, each record's
// signature (sc: signed records only, in batches; an unsigned one after a signed one is
// refused); and that the last one is the stored head. visit, when not nil, sees each
// record. It returns the last record walked (zero when none). Its error names the first
// bad record in sequence order, whatever check found it.
func walkChain(tx *bolt.Tx, terminal string, from uint64, prev [32]byte, head uint64, headHash [32]byte, sc *sigCheck, visit func(*Record) error) (Record, error) {
	last, err := walkRecords(tx, terminal, from, prev, head, headHash, sc, visit)
	return last, sc.settle(err)
}

func walkRecords(tx *bolt.Tx, terminal string, from uint64, prev [32]byte, head uint64, headHash [32]byte, sc *sigCheck, visit func(*Record) error) (Record, error) {
	paid, sold, claimed, m := tx.Bucket(bPaid), tx.Bucket(bSold), tx.Bucket(bClaimed), tx.Bucket(bMeta)
	first, _, err := readBase(m)
	if err != nil {
		return Record{}, err
	}
	based := m.Get(kBase) != nil
	kinds := tx.Bucket(bKinds) // kindindex.go
	c := tx.Bucket(bRecords).Cursor()
	want := from
	var last Record
	for k, v := c.Seek(be64(from)); k != nil; k, v = c.Next() {
		if len(k) != 8 || u64(k) != want {
			return last, corrupt(want, "record missing (found key %x next)", k)
		}
		r, err := DecodeRecord(v)
		if err != nil {
			return last, corrupt(want, "%v", err)
		}
		switch {
		case r.Seq != want:
			return last, corrupt(want, "holds sequence number %d", r.Seq)
		case r.Prev != prev:
			return last, corrupt(want, "previous hash does not match record %d", want-1)
		case r.Terminal != terminal:
			return last, corrupt(want, "written by terminal %q", r.Terminal)
		}
		if err := checkPlace(&r, first, based); err != nil {
			return last, err
		}
		if err := sc.add(&r); err != nil {
			return last, err
		}
		switch r.Kind {
		case KindPayout:
			if err := checkPaidIndexed(paid, &r); err != nil { // paidindex.go
				return last, err
			}
		case KindSale:
			if u64(sold.Get(packKey(r.Ticket.Block, r.Ticket.Pack))) != r.Seq {
				return last, corrupt(want, "sale of %v not in the sold index", r.Ticket)
			}
		case KindClaim:
			if err := checkClaimIndexed(claimed, &r); err != nil {
				return last, err
			}
		}
		if err := checkKindIndexed(kinds, &r); err != nil {
			return last, err
		}
		if visit != nil {
			if err := visit(&r); err != nil {
				return last, err
			}
		}
		prev, last = r.Hash, r
		want++
	}
	if want-1 != head && !(from > head && want == from) {
		return last, corrupt(want, "the chain ends at record %d, the stored head is %d", want-1, head)
	}
	if want > from && prev != headHash {
		return last, corrupt(want-1, "hash differs from the stored head")
	}
	return last, nil
}

// checkPlace refuses a journal-reset record anywhere but first in its journal (only
// Reset writes one, in the transaction that creates the journal; Append refuses the
// kind), and a journal started afresh (it has a base) whose first record is not one.
func checkPlace(r *Record, first uint64, based bool) error {
	switch {
	case r.Kind == KindReset && r.Seq != first:
		return corrupt(r.Seq, "a %s record after record %d: only a technician's reset writes one, as the first record of a new journal (this journal's first is record %d)",
			KindReset, r.Seq-1, first)
	case based && r.Seq == first && r.Kind != KindReset:
		return corrupt(r.Seq, "the first record of a journal started afresh is a %s record, not %s", r.Kind, KindReset)
	}
	return nil
}
