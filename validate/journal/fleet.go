package journal

import (
	bolt "go.etcd.io/bbolt"
)

// Fleet additions (device/fleet, docs/fleet.md): the marker of a payout made while the
// fleet server could not be reached, the conflict record, and reading from a sequence
// number on (the fleet publisher catches up from its last acknowledged record).

// ReasonUnconfirmed is the Reason of a payout made offline, within the offline limit,
// before any other terminal could be asked: the fleet claims it once it reconnects.
const ReasonUnconfirmed = "unconfirmed"

// Reasons of a KindConflict record (Detail names the other terminal, its record and time).
const (
	// ReasonPaidElsewhere: this terminal paid offline; another had claimed the ticket.
	ReasonPaidElsewhere = "paid-elsewhere"
	// ReasonPaidOfflineElsewhere: this terminal holds the claim; another paid it offline.
	ReasonPaidOfflineElsewhere = "paid-offline-elsewhere"
)

// Unconfirmed reports whether r is a payout made offline (see ReasonUnconfirmed).
func (r Record) Unconfirmed() bool { return r.Kind == KindPayout && r.Reason == ReasonUnconfirmed }

// EachFrom calls fn with every record from sequence number seq on, in order, each
// decoded and checked; it stops at fn's first error. It seeks: the cost is that of the
// records read, not of the journal.
func (j *Journal) EachFrom(seq uint64, fn func(Record) error) error {
	return j.view("each from", func(tx *bolt.Tx) error {
		c := tx.Bucket(bRecords).Cursor()
		for k, v := c.Seek(be64(seq)); k != nil; k, v = c.Next() {
			r, err := DecodeRecord(v)
			if err != nil {
				return corrupt(u64(k), "%v", err)
			}
			if err := fn(r); err != nil {
				return err
			}
		}
		return nil
	})
}
