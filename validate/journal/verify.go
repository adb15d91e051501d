package journal

import (
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// Report sums up a full verification.
type Report struct {
	Records     uint64 // records in the chain (= head)
	Payouts     int    // payout records (= paid index entries)
	Sales       int    // sale records (= sold index entries)
	Days        int    // day summaries
	Checkpoints int    // signed checkpoints, all verified
	LastSigned  uint64 // record covered by the last checkpoint (0: none)
}

// Verify checks the whole journal, not only from the last checkpoint as Open does: every
// record (decoding, own hash, sequence without gap, chain), every checkpoint (signature
// with the device key, the hash of the record it covers, its day's totals at that record),
// the paid and sold indexes against the records both ways, and every day's totals against
// a recomputation. The first failure is a *CorruptError naming the record.
func (j *Journal) Verify() (Report, error) {
	var rep Report
	err := j.view("verify", func(tx *bolt.Tx) error {
		for _, name := range allBuckets {
			if tx.Bucket(name) == nil {
				return corrupt(0, "bucket %q missing", name)
			}
		}
		head, headHash, err := readHead(tx.Bucket(bMeta))
		if err != nil {
			return err
		}
		cps, err := allCheckpoints(tx, j, head, &rep)
		if err != nil {
			return err
		}
		days := map[string]*DayTotals{}
		check := func(seq uint64, hash [32]byte) error {
			for _, cp := range cps[seq] {
				if cp.Hash != hash {
					return corrupt(seq, "record does not match the checkpoint signed at %s", cp.Time.Format("2006-01-02 15:04:05"))
				}
				t := days[cp.Totals.Day]
				if t == nil {
					t = &DayTotals{Day: cp.Totals.Day}
				}
				if *t != cp.Totals {
					return corrupt(seq, "day %s: totals differ from the checkpoint signed at %s", cp.Totals.Day, cp.Time.Format("2006-01-02 15:04:05"))
				}
			}
			return nil
		}
		if err := check(0, [32]byte{}); err != nil {
			return err
		}
		from, prev, err := readBase(tx.Bucket(bMeta))
		if err != nil {
			return err
		}
		_, err = walkChain(tx, j.terminal, from, prev, head, headHash, func(r *Record) error {
			if counts(r.Kind) {
				d := r.day()
				if days[d] == nil {
					days[d] = &DayTotals{Day: d}
				}
				days[d].add(r)
			}
			switch r.Kind {
			case KindPayout:
				rep.Payouts++
			case KindSale:
				rep.Sales++
			}
			rep.Records++
			return check(r.Seq, r.Hash)
		})
		if err != nil {
			return err
		}
		if err := checkIndex(tx, bPaid, "paid", KindPayout, rep.Payouts, 7); err != nil {
			return err
		}
		if err := checkIndex(tx, bSold, "sold", KindSale, rep.Sales, 6); err != nil {
			return err
		}
		return checkDays(tx, days, &rep)
	})
	return rep, err
}

func allCheckpoints(tx *bolt.Tx, j *Journal, head uint64, rep *Report) (map[uint64][]Checkpoint, error) {
	cps := map[uint64][]Checkpoint{}
	c := tx.Bucket(bCheckpoints).Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		cp, err := DecodeCheckpoint(v)
		if err != nil {
			return nil, corrupt(0, "checkpoint %d: %v", u64(k), err)
		}
		if err := cp.Verify(j.pub); err != nil {
			return nil, corrupt(cp.Seq, "%v", err)
		}
		if cp.Terminal != j.terminal || cp.Seq > head {
			return nil, corrupt(cp.Seq, "checkpoint %d is not of this journal's chain", u64(k))
		}
		if cp.Seq < rep.LastSigned {
			return nil, corrupt(cp.Seq, "checkpoint %d goes back from record %d", u64(k), rep.LastSigned)
		}
		cps[cp.Seq] = append(cps[cp.Seq], cp)
		rep.Checkpoints++
		rep.LastSigned = cp.Seq
	}
	return cps, nil
}

// checkIndex counts the entries of an index. The walk has checked that each record of
// the kind has its own entry pointing at it (so distinct records, distinct entries); as
// many entries as records then means no entry points anywhere else. Each entry's form is
// checked too.
func checkIndex(tx *bolt.Tx, bucket []byte, what string, kind Kind, want, keyLen int) error {
	n := 0
	c := tx.Bucket(bucket).Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if len(k) != keyLen || len(v) != 8 {
			return corrupt(u64(v), "%s index entry %x is malformed", what, k)
		}
		n++
	}
	if n != want {
		return corrupt(0, "%s index holds %d entries for %d %s records", what, n, want, kind)
	}
	return nil
}

func checkDays(tx *bolt.Tx, days map[string]*DayTotals, rep *Report) error {
	c := tx.Bucket(bDays).Cursor()
	n := 0
	for k, v := c.First(); k != nil; k, v = c.Next() {
		t, err := decodeTotals(string(k), v)
		if err != nil {
			return corrupt(0, "day %.12q: %v", k, err)
		}
		if w := days[string(k)]; w == nil || *w != t {
			return corrupt(0, "day %s: stored totals differ from the records", k)
		}
		n++
	}
	if n != len(days) {
		return corrupt(0, "%d day summaries for %d days with records", n, len(days))
	}
	rep.Days = n
	return nil
}

// String sums up the report in one line.
func (r Report) String() string {
	return fmt.Sprintf("%d records, %d payouts, %d sales, %d days, %d checkpoints (last at record %d)",
		r.Records, r.Payouts, r.Sales, r.Days, r.Checkpoints, r.LastSigned)
}
