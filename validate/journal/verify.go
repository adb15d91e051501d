package journal

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/ledger"
)

// Report sums up a full verification.
type Report struct {
	Records     uint64 // records in the chain (= head)
	Payouts     int    // payout records (= paid index entries)
	Sales       int    // sale records (= sold index entries)
	Days        int    // day summaries
	Checkpoints int    // signed checkpoints, all verified
	LastSigned  uint64 // record covered by the last checkpoint (0: none)

	Signed    uint64 // records signed one by one (format version 2), all verified
	Unvouched uint64 // unsigned records (format version 1) after the last signature of a record or checkpoint: nothing vouches for them
	// UnvouchedFrom is the first of them (records UnvouchedFrom..head); 0 when there are none.
	UnvouchedFrom uint64
	Key           ledger.KeyID // the device key every signature was checked with
	// KeyTrusted: the key was given by the caller (a copy kept apart from the terminal:
	// Options.PublicKey or Options.DeviceKey), not read from the journal's directory, where
	// whoever can edit the journal can replace it.
	KeyTrusted bool
	KeyFile    string // the key file read from the journal's directory ("" when the key was given)
	// Backward counts the records dated more than ClockTolerance before the record before
	// them (a clock set back, written before Append refused it: forward.go); BackwardFrom
	// is the first of them (0: none). They are intact records: a finding, not damage.
	Backward     uint64
	BackwardFrom uint64
}

// vouch records what the signatures cover once the chain (up to head) has verified.
func (r *Report) vouch(sc *sigCheck, head uint64) {
	r.Signed = sc.count
	if sc.unsignedFrom != 0 && head > r.LastSigned {
		r.UnvouchedFrom = max(sc.unsignedFrom, r.LastSigned+1)
		r.Unvouched = head - r.UnvouchedFrom + 1
	}
}

// Vouched is nil when the journal that verified is vouched for whole: every record
// covered by a signature (its own, a later record's or a checkpoint's) made with a key
// the caller trusts. Otherwise it says what could not be vouched for (wrapping
// ErrUnvouched): an intact chain signed by a key found next to the journal proves nothing
// against whoever could replace that key.
func (r Report) Vouched() error {
	var why []string
	if r.Unvouched > 0 {
		why = append(why, fmt.Sprintf("the last %d records (%d..%d) are signed by nothing: written before records were signed, after the last checkpoint",
			r.Unvouched, r.UnvouchedFrom, r.UnvouchedFrom+r.Unvouched-1))
	}
	if !r.KeyTrusted {
		why = append(why, fmt.Sprintf("chain intact, signatures by the key found next to the journal (%s, key %v), which is not a trusted key",
			r.KeyFile, r.Key))
	}
	if len(why) == 0 {
		return nil
	}
	return fmt.Errorf("journal: %s: %w", strings.Join(why, "; "), ErrUnvouched)
}

// Verify checks the whole journal, not only from the last checkpoint as Open does: every
// record (decoding, own hash, sequence without gap, chain), every checkpoint (signature
// with the device key, the hash of the record it covers, its day's totals at that record),
// the paid and sold indexes against the records both ways, and every day's totals against
// a recomputation. The first failure is a *CorruptError naming the record.
func (j *Journal) Verify() (Report, error) {
	rep := Report{Key: ledger.IDOf(j.pub), KeyTrusted: j.keyTrusted}
	if !j.keyTrusted {
		rep.KeyFile = filepath.Join(j.dir, DevicePubFile)
		if !j.readOnly {
			rep.KeyFile = filepath.Join(j.dir, DeviceKeyFile)
		}
	}
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
		cps, badSig, err := allCheckpoints(tx, j, head, &rep)
		if err != nil {
			return err
		}
		days := map[string]*DayTotals{}
		claims := map[codes.TicketID]bool{} // tickets claimed (the claim index holds one entry each)
		byKind := 0                         // records in the kind index
		check := func(seq uint64, hash [32]byte) error {
			if err := badSig[seq]; err != nil {
				return err
			}
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
		sc := newSigCheck(j.pub)
		var before time.Time // the previous record's time
		_, err = walkChain(tx, j.terminal, from, prev, head, headHash, sc, func(r *Record) error {
			if !before.IsZero() && before.Sub(r.Time) > ClockTolerance {
				rep.Backward++
				if rep.BackwardFrom == 0 {
					rep.BackwardFrom = r.Seq
				}
			}
			before = r.Time
			if counts(r.Kind) {
				d := r.day()
				if days[d] == nil {
					days[d] = &DayTotals{Day: d}
				}
				days[d].add(r)
			}
			if r.Kind == KindClaim {
				claims[r.Ticket] = true
			}
			switch r.Kind {
			case KindPayout:
				rep.Payouts++
			case KindSale:
				rep.Sales++
			}
			rep.Records++
			if kindIndexed(r.Kind) {
				byKind++
			}
			return check(r.Seq, r.Hash)
		})
		if err != nil {
			return err
		}
		rep.vouch(sc, head)
		if err := checkPaidIndex(tx, rep.Payouts); err != nil {
			return err
		}
		if err := checkIndex(tx, bSold, "sold", KindSale, rep.Sales, 6); err != nil {
			return err
		}
		if tx.Bucket(bClaimed) != nil {
			if err := checkIndex(tx, bClaimed, "claimed", KindClaim, len(claims), 7); err != nil {
				return err
			}
		}
		if err := checkKindIndex(tx, byKind); err != nil {
			return err
		}
		return checkDays(tx, days, &rep)
	})
	return rep, err
}

// allCheckpoints decodes the checkpoints. A checkpoint whose signature does not verify is
// returned apart (badSig, by the record it covers), for the walk to report in sequence
// order: a record before it whose own signature fails is named first.
func allCheckpoints(tx *bolt.Tx, j *Journal, head uint64, rep *Report) (cps map[uint64][]Checkpoint, badSig map[uint64]error, err error) {
	cps, badSig = map[uint64][]Checkpoint{}, map[uint64]error{}
	c := tx.Bucket(bCheckpoints).Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		cp, err := DecodeCheckpoint(v)
		if err != nil {
			return nil, nil, corrupt(0, "checkpoint %d: %v", u64(k), err)
		}
		if cp.Terminal != j.terminal || cp.Seq > head {
			return nil, nil, corrupt(cp.Seq, "checkpoint %d is not of this journal's chain", u64(k))
		}
		if cp.Seq < rep.LastSigned {
			return nil, nil, corrupt(cp.Seq, "checkpoint %d goes back from record %d", u64(k), rep.LastSigned)
		}
		if err := cp.Verify(j.pub); err != nil {
			if badSig[cp.Seq] == nil {
				badSig[cp.Seq] = corrupt(cp.Seq, "%v", err)
			}
			continue
		}
		cps[cp.Seq] = append(cps[cp.Seq], cp)
		rep.Checkpoints++
		rep.LastSigned = cp.Seq
	}
	return cps, badSig, nil
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

// String sums up the report in one line, with the key the signatures were checked with
// and whether it is trusted.
func (r Report) String() string {
	trust := "given, trusted"
	if !r.KeyTrusted {
		trust = "found next to the journal, NOT trusted"
	}
	return fmt.Sprintf("%d records, %d payouts, %d sales, %d days, %d checkpoints (last at record %d), %d records signed by device key %v (%s)",
		r.Records, r.Payouts, r.Sales, r.Days, r.Checkpoints, r.LastSigned, r.Signed, r.Key, trust)
}
