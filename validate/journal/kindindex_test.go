package journal

import (
	"errors"
	"testing"

	bolt "go.etcd.io/bbolt"

	"github.com/packterm/pos/validate/codes"
)

// kindsFixture is a journal of payouts with a tamper (record 4), its unlock (6), a second
// tamper (9), two refusals and a lock among them, and a checkpoint at record cpAt (0: none).
func kindsFixture(t *testing.T, cpAt int) *fixture {
	t.Helper()
	f := newFixture(t)
	es := []Entry{payoutN(0), {Kind: KindRefused, Reason: "forged"}, payoutN(1), {Kind: KindTamper, Reason: "case-opened"},
		payoutN(2), {Kind: KindUnlock, Reason: "token"}, {Kind: KindRefused, Reason: "forged"},
		{Kind: KindLock, Reason: "forged", Detail: "1m0s"}, {Kind: KindTamper, Reason: "case-opened"}, payoutN(3)}
	for i, e := range es {
		f.append(t, e)
		if i+1 == cpAt {
			if _, err := f.j.Checkpoint(); err != nil {
				t.Fatal(err)
			}
		}
	}
	return f
}

func latestSeqs(t *testing.T, j *Journal, k Kind) []uint64 {
	t.Helper()
	var seqs []uint64
	if err := j.Latest(k, func(r Record) bool {
		if r.Kind != k {
			t.Errorf("Latest(%s) gave a %s record", k, r.Kind)
		}
		seqs = append(seqs, r.Seq)
		return true
	}); err != nil {
		t.Fatal(err)
	}
	return seqs
}

// TestLatestFromKindIndex: the records of a kind, newest first, from the kind index, which
// Verify counts; payouts and sales are asked of Paid and Sold.
func TestLatestFromKindIndex(t *testing.T) {
	f := kindsFixture(t, 0)
	check := func(j *Journal) {
		t.Helper()
		for k, want := range map[Kind][]uint64{KindTamper: {9, 4}, KindUnlock: {6}, KindRefused: {7, 2}, KindLock: {8}, KindClaim: nil, KindReset: nil} {
			if got := latestSeqs(t, j, k); !equalSeqs(got, want) {
				t.Errorf("%s: %v, want %v", k, got, want)
			}
		}
		n := 0
		if err := j.Latest(KindTamper, func(Record) bool { n++; return false }); err != nil || n != 1 {
			t.Errorf("stopping at the first: %d read, %v", n, err)
		}
		if err := j.Latest(KindPayout, func(Record) bool { return true }); err == nil {
			t.Error("payouts by kind: no error")
		}
		if _, err := j.Verify(); err != nil {
			t.Fatal(err)
		}
	}
	check(f.j)
	f.reopen(t)
	check(f.j)
}

func equalSeqs(a, b []uint64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestKindIndexMadeForOlderJournal: a journal written before the kind index is read by
// scanning when opened read-only, and indexed at its next open for writing.
func TestKindIndexMadeForOlderJournal(t *testing.T) {
	f := kindsFixture(t, 3)
	f.j.Close()
	tamper(t, f.dir, func(tx *bolt.Tx) error { return tx.DeleteBucket(bKinds) })
	ro, err := Open(f.dir, Options{ReadOnly: true})
	if err != nil || ro.Health() != nil {
		t.Fatal(err, ro.Health())
	}
	if got := latestSeqs(t, ro, KindTamper); !equalSeqs(got, []uint64{9, 4}) {
		t.Errorf("read-only, no index: %v", got)
	}
	if _, err := ro.Verify(); err != nil {
		t.Fatal(err)
	}
	ro.Close()
	f.j = nil
	f.reopen(t)
	if err := f.j.db.View(func(tx *bolt.Tx) error {
		if tx.Bucket(bKinds) == nil || tx.Bucket(bKinds).Stats().KeyN != 6 {
			return errors.New("kind index not made with its 6 entries")
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	f.append(t, Entry{Kind: KindUnlock, Reason: "token"})
	if got := latestSeqs(t, f.j, KindUnlock); !equalSeqs(got, []uint64{11, 6}) {
		t.Errorf("after the index was made: %v", got)
	}
	if _, err := f.j.Verify(); err != nil {
		t.Fatal(err)
	}
}

// TestRetailerRemovesTamperFromKindIndex: the retailer (root, bbolt, the documented format)
// deletes the entry of the last tamper from the kind index, so that a restart would not
// lock the terminal again. After the last checkpoint, Open names the record and the
// journal pays nothing; before it, Verify (posctl journal verify) finds the index short.
func TestRetailerRemovesTamperFromKindIndex(t *testing.T) {
	remove := func(tx *bolt.Tx) error { return tx.Bucket(bKinds).Delete(kindKey(KindTamper, 9)) }

	f := kindsFixture(t, 5) // the tamper at 9 is after the checkpoint
	f.j.Close()
	tamper(t, f.dir, remove)
	f.j = nil
	f.reopen(t)
	wantCorruptAt(t, f.j.Health(), 9)
	if _, err := f.j.Append(payoutN(50)); !errors.Is(err, ErrReadOnly) {
		t.Errorf("append on a journal whose kind index lost a tamper: %v", err)
	}

	f = kindsFixture(t, 10) // before it
	f.j.Close()
	tamper(t, f.dir, remove)
	f.j = nil
	f.reopen(t)
	if _, err := f.j.Verify(); !errors.Is(err, ErrCorrupt) {
		t.Errorf("Verify of a kind index without its tamper entry: %v", err)
	}
}

// TestPaidFromMemoryInStep: the paid index in memory answers what the file does, for the
// payouts there at Open and those appended since; a second payout is still refused in the
// append's transaction.
func TestPaidFromMemoryInStep(t *testing.T) {
	f := build(t, 20, 10)
	f.j = nil
	f.reopen(t)
	f.j.paid.wait()
	if _, known := f.j.paid.lookup(ticketN(3)); !known {
		t.Fatal("the paid index in memory was not filled")
	}
	f.append(t, payoutN(20))
	for i := range 22 {
		r, ok, err := f.j.Paid(ticketN(i))
		if err != nil || ok != (i <= 20) || ok && (r.Kind != KindPayout || r.Ticket != ticketN(i)) {
			t.Errorf("ticket %d: %v %v %v", i, r, ok, err)
		}
	}
	if _, err := f.j.Append(payoutN(20)); !errors.Is(err, ErrDuplicatePayout) {
		t.Errorf("second payout: %v", err)
	}
	// The memory is filled from the file, and a payout appended while it fills is kept.
	p := newPaidMem(f.j.db)
	p.note(&Record{Entry: Entry{Kind: KindPayout, Ticket: codes.TicketID{Block: 9, Pack: 1, Position: 1}}, Seq: 99})
	p.wait()
	if s, _ := p.lookup(codes.TicketID{Block: 9, Pack: 1, Position: 1}); s.seq != 99 {
		t.Errorf("payout noted during the fill lost: %d", s.seq)
	}
	if s, _ := p.lookup(ticketN(20)); s.seq != 21 {
		t.Errorf("payout in the file: seq %d", s.seq)
	}
}
