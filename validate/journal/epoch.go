package journal

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// The journal's epoch (docs/journal.md, "Epoch"): which of the journals a terminal has had
// this one is. The fleet stores it with each claim, so that a terminal whose journal was
// started afresh (Reset) or whose data was wiped, and so does not know its old payouts,
// does not take its own claim of a ticket it paid under an earlier journal for a retry.

// kEpoch holds the epoch of a journal created since epochs exist: epochLen random bytes,
// written in the transaction that creates the journal (create, createAfter), never after.
var kEpoch = []byte("epoch")

const epochLen = 8

// MaxEpochLen bounds an epoch's text: 16 hex digits for a stored epoch, or a record id and
// its hash prefix ("T/N#xxxxxxxx") for a journal created before epochs were stored.
const MaxEpochLen = MaxTerminalLen + 30

// initNew makes the buckets of a new journal (initBuckets) and draws its epoch.
func (j *Journal) initNew(tx *bolt.Tx) error {
	if err := j.initBuckets(tx); err != nil {
		return err
	}
	var e [epochLen]byte
	rand.Read(e[:]) // never fails (crypto/rand since Go 1.24)
	return tx.Bucket(bMeta).Put(kEpoch, e[:])
}

// Epoch identifies this journal among every journal the terminal has had. It is drawn at
// random when the journal is created, by a first start or by Reset, and stays the same for
// the life of the file (restarts, reopening); a reset, or a data directory wiped and
// started as new, makes a new journal and so a new epoch. Its text is 16 hex digits.
//
// A journal created before epochs were stored has none: its epoch is then its first
// record's id and hash prefix, "T/N#xxxxxxxx" (N is 1, or the record after the base of a
// journal Reset started), fixed once that record is written; "" while such a journal is
// empty (no epoch known). It fails when the journal cannot be read (refused, damaged).
func (j *Journal) Epoch() (string, error) {
	var ep string
	err := j.view("epoch", func(tx *bolt.Tx) error {
		m := tx.Bucket(bMeta)
		if m == nil {
			return corrupt(0, "meta bucket missing")
		}
		if v := m.Get(kEpoch); v != nil {
			if len(v) != epochLen {
				return corrupt(0, "stored epoch is malformed")
			}
			ep = hex.EncodeToString(v)
			return nil
		}
		r, ok, err := firstRecord(tx)
		if err != nil || !ok {
			return err
		}
		ep = fmt.Sprintf("%s#%x", r.ID(), r.Hash[:4])
		return nil
	})
	return ep, err
}

// First is the journal's first record: record 1, or for a journal Reset started its
// KindReset record; false while the journal is empty.
func (j *Journal) First() (Record, bool, error) {
	var r Record
	var ok bool
	err := j.view("first record", func(tx *bolt.Tx) error {
		var err error
		r, ok, err = firstRecord(tx)
		return err
	})
	return r, ok, err
}

// StartedAfresh reports whether this journal was started by Reset: its first record is
// a KindReset record. Such a journal pays nothing unconfirmed (docs/fleet.md, "Epochs").
func (j *Journal) StartedAfresh() (bool, error) {
	r, ok, err := j.First()
	return ok && r.Kind == KindReset, err
}

func firstRecord(tx *bolt.Tx) (Record, bool, error) {
	m := tx.Bucket(bMeta)
	if m == nil {
		return Record{}, false, corrupt(0, "meta bucket missing")
	}
	from, _, err := readBase(m)
	if err != nil {
		return Record{}, false, err
	}
	return recordAt(tx, from, false)
}
