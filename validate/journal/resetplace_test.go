package journal

import (
	"crypto/ed25519"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"

	"github.com/packterm/pos/validate/ledger"
)

// forgedReset is the entry of a journal-reset record as a forger would write it.
func forgedReset() Entry {
	return Entry{Kind: KindReset, Reason: "missing", Detail: "started afresh by technician (token scan); found: journal.db missing"}
}

// TestAppendRefusesReset: a journal-reset record is written only by Reset, as the first
// record of a new journal; Append (and the batch path) refuse the kind and write nothing.
func TestAppendRefusesReset(t *testing.T) {
	f := newFixture(t)
	f.append(t, payoutN(1))
	seq, hash := f.j.Head()
	if _, err := f.j.Append(forgedReset()); !errors.Is(err, ErrInvalidEntry) || !strings.Contains(err.Error(), "journal-reset") {
		t.Fatalf("Append of a journal-reset record: %v", err)
	}
	if err := f.j.appendBatch([]Entry{payoutN(2), forgedReset()}); !errors.Is(err, ErrInvalidEntry) {
		t.Fatalf("batch with a journal-reset record: %v", err)
	}
	// Prepare and Commit (receipts spooled before the record) are another way in.
	if _, err := f.j.Prepare(forgedReset()); !errors.Is(err, ErrInvalidEntry) {
		t.Fatalf("Prepare of a journal-reset record: %v", err)
	}
	p, err := f.j.Prepare(payoutN(2))
	if err != nil {
		t.Fatal(err)
	}
	p.Kind = KindReset
	if _, err := f.j.Commit(p); !errors.Is(err, ErrInvalidEntry) {
		t.Fatalf("Commit of a journal-reset record: %v", err)
	}
	if s, h := f.j.Head(); s != seq || h != hash || f.j.Health() != nil {
		t.Fatalf("head moved to %d or health %v", s, f.j.Health())
	}
	if _, err := f.j.Verify(); err != nil {
		t.Fatal(err)
	}
}

// insertAt inserts rec (its kind and fields; seq, chain and terminal set here) as record
// at, before the one there: the later records are renumbered and re-chained, their paid
// index entries moved and the head set, as a retailer editing journal.db with bbolt would.
// sign seals each rewritten record (nil: the attacker has no key, the stored signature
// bytes stay as they were, the inserted record taking those of the one it displaces).
func insertAt(at uint64, rec Record, sign func(*Record) []byte) func(tx *bolt.Tx) error {
	return func(tx *bolt.Tx) error {
		b, paid := tx.Bucket(bRecords), tx.Bucket(bPaid)
		var recs []Record
		c := b.Cursor()
		for k, v := c.First(); k != nil; k, v = c.Next() {
			r, err := DecodeRecord(v)
			if err != nil {
				return err
			}
			recs = append(recs, r)
		}
		i := slices.IndexFunc(recs, func(r Record) bool { return r.Seq == at })
		old := recs[i]
		rec.Terminal, rec.Boot, rec.Time, rec.Version, rec.Key, rec.Sig = old.Terminal, old.Boot, old.Time, old.Version, old.Key, old.Sig
		recs = slices.Insert(recs, i, rec)
		prev := old.Prev
		for j := i; j < len(recs); j++ {
			r := &recs[j]
			r.Seq, r.Prev = at+uint64(j-i), prev
			enc := seal(r)
			if sign != nil {
				enc = sign(r)
			}
			if err := b.Put(be64(r.Seq), enc); err != nil {
				return err
			}
			if r.Kind == KindPayout {
				if err := paid.Put(ticketKey(r.Ticket), be64(r.Seq)); err != nil {
					return err
				}
			}
			prev = r.Hash
		}
		return putHead(tx, recs[len(recs)-1].Seq, prev)
	}
}

// TestRetailerInsertsResetMidChain: the retailer (root) inserts a journal-reset record
// as record 30 of 40 (after the last checkpoint, at 20), re-chaining every later record,
// for instance to pass the payouts before it off as an old journal's. Signed with the
// device key, which root can read from device.key, every signature holds: the misplaced
// reset is what names record 30, at Open (no payout) and in Verify with the terminal's
// key. Before the check, this journal (its head marker removed) opened healthy and
// verified. Re-signed with the
// retailer's own key (device.key and device.pub replaced, every record and checkpoint
// re-signed): verify with the terminal's key refuses the key anyway, and without it the
// misplaced reset is named instead of "intact, not vouched". Not re-signed: the edit is
// named.
func TestRetailerInsertsResetMidChain(t *testing.T) {
	reset := Record{Entry: forgedReset()}
	t.Run("signed with the device key", func(t *testing.T) {
		f := build(t, 40, 20)
		pub := f.pubKey(t)
		key, err := ledger.LoadPrivateKey(filepath.Join(f.dir, DeviceKeyFile)) // root reads it
		if err != nil {
			t.Fatal(err)
		}
		tamper(t, f.dir, insertAt(30, reset, func(r *Record) []byte { return sealSigned(key, ledger.IDOf(pub), r) }))
		// The head marker names the old record 40: the retailer removes it too (the
		// marker alone refused this journal before the check, for another reason).
		if err := os.Remove(filepath.Join(f.dir, HeadFile)); err != nil {
			t.Fatal(err)
		}
		f.j = nil
		f.reopen(t)
		wantMisplacedReset(t, f.j.Health())
		f.j.Close()
		ro, err := Open(f.dir, Options{ReadOnly: true, PublicKey: pub})
		if err != nil {
			t.Fatal(err)
		}
		defer ro.Close()
		wantMisplacedReset(t, ro.Health())
		_, err = ro.Verify()
		wantMisplacedReset(t, err)
	})
	t.Run("re-signed with the retailer's key", func(t *testing.T) {
		f := build(t, 40, 20)
		real := f.pubKey(t)
		_, evil, _ := ed25519.GenerateKey(nil)
		evilPub := evil.Public().(ed25519.PublicKey)
		resign := func(r *Record) []byte { return sealSigned(evil, ledger.IDOf(evilPub), r) }
		tamper(t, f.dir, rechain(1, func(*Record) {}, resign))
		tamper(t, f.dir, insertAt(30, reset, resign))
		tamper(t, f.dir, resignCheckpoints(evil))
		writeKeys(t, f.dir, evil)
		ro, err := Open(f.dir, Options{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		_, err = ro.Verify()
		ro.Close()
		wantMisplacedReset(t, err)
		ro, err = Open(f.dir, Options{ReadOnly: true, PublicKey: real})
		if err != nil {
			t.Fatal(err)
		}
		defer ro.Close()
		_, err = ro.Verify()
		wantCorruptAt(t, err, 1)
		if !strings.Contains(err.Error(), "signed by key "+ledger.IDOf(evilPub).String()) {
			t.Fatalf("verify with the terminal's key: %v", err)
		}
	})
	t.Run("not re-signed", func(t *testing.T) {
		f := build(t, 40, 20)
		pub := f.pubKey(t)
		tamper(t, f.dir, insertAt(30, reset, nil))
		ro, err := Open(f.dir, Options{ReadOnly: true, PublicKey: pub})
		if err != nil {
			t.Fatal(err)
		}
		defer ro.Close()
		wantCorruptAt(t, ro.Health(), 30)
		_, err = ro.Verify()
		wantCorruptAt(t, err, 30)
	})
}

// wantMisplacedReset wants the error that names record 30 as a journal-reset record out
// of place.
func wantMisplacedReset(t *testing.T, err error) {
	t.Helper()
	wantCorruptAt(t, err, 30)
	if !strings.Contains(err.Error(), "a journal-reset record after record 29") {
		t.Fatalf("reason: %v", err)
	}
}

// TestResetJournalFirstRecordChanged: in a journal a technician started afresh, the
// retailer turns the journal-reset record into another kind, signed with the device key:
// a journal with a base must begin with its reset record, and the record is named. The
// reset journal as Reset made it verifies.
func TestResetJournalFirstRecordChanged(t *testing.T) {
	f := newFixture(t)
	seq, _ := paidJournal(t, f)
	os.Remove(filepath.Join(f.dir, DBFile))
	j, err := Open(f.dir, f.opts())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := j.Reset("technician test"); err != nil {
		t.Fatal(err)
	}
	j.Close()
	f.j = nil
	f.reopen(t)
	f.append(t, payoutN(60))
	if _, err := f.j.Verify(); err != nil {
		t.Fatalf("the reset journal: %v", err)
	}
	pub := f.j.PublicKey()
	f.j.Close()
	key, err := ledger.LoadPrivateKey(filepath.Join(f.dir, DeviceKeyFile))
	if err != nil {
		t.Fatal(err)
	}
	first := seq + 1
	tamper(t, f.dir, rechain(first, func(r *Record) { r.Kind, r.Reason = KindReport, "" },
		func(r *Record) []byte { return sealSigned(key, ledger.IDOf(pub), r) }))
	ro, err := Open(f.dir, Options{ReadOnly: true, PublicKey: pub})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	_, err = ro.Verify()
	wantCorruptAt(t, err, first)
	if !strings.Contains(err.Error(), "not journal-reset") {
		t.Fatalf("reason: %v", err)
	}
}
