package journal

import (
	"errors"
	"testing"

	bolt "go.etcd.io/bbolt"

	"github.com/packterm/pos/validate/ledger"
)

func claimN(n int) Entry {
	id := ticketN(n)
	return Entry{Kind: KindClaim, Ticket: id, Game: int(id.Position), Amount: 200_00, Receipts: []string{"R" + id.String()}}
}

// TestClaimOncePerTicket: a second claim of a ticket is refused (ErrDuplicateClaim, nothing
// written), so the day counts one claim per ticket; a payout of a claimed ticket is refused
// too; Claimed finds the claim record, after a reopen as well. Before the claim index, the
// journal took every claim: 3 scans of one 200 € ticket made 3 claims, 600 €.
func TestClaimOncePerTicket(t *testing.T) {
	f := newFixture(t)
	first := f.append(t, claimN(1))
	for range 2 {
		if _, err := f.j.Append(claimN(1)); !errors.Is(err, ErrDuplicateClaim) {
			t.Fatalf("second claim: %v, want ErrDuplicateClaim", err)
		}
	}
	p := payoutN(1)
	if _, err := f.j.Append(p); !errors.Is(err, ErrDuplicateClaim) {
		t.Fatalf("payout of a claimed ticket: %v, want ErrDuplicateClaim", err)
	}
	if err := f.j.Health(); err != nil {
		t.Fatalf("a refused claim put the journal in its no-payout state: %v", err)
	}
	d, err := f.j.Day(testStart)
	if err != nil || d.Claims != 1 || d.ClaimsAmount != 200_00 {
		t.Fatalf("day: %d claims, %d cents (%v); want 1, 20000", d.Claims, d.ClaimsAmount, err)
	}
	f.reopen(t)
	r, ok, err := f.j.Claimed(ticketN(1))
	if err != nil || !ok || r.Seq != first.Seq {
		t.Fatalf("Claimed: %v %v %v, want record %d", r.Seq, ok, err, first.Seq)
	}
	if _, ok, _ := f.j.Claimed(ticketN(2)); ok {
		t.Fatal("an unclaimed ticket is claimed")
	}
	if _, err := f.j.Verify(); err != nil {
		t.Fatal(err)
	}
}

// TestClaimIndexBuiltForOldJournal: a journal written before claims were indexed (no
// claimed bucket, the same ticket claimed twice) still answers Claimed (by a scan), gets
// its index at the next append (the first claim of each ticket), verifies, and refuses a
// third claim of the ticket.
func TestClaimIndexBuiltForOldJournal(t *testing.T) {
	f := newFixture(t)
	a := f.append(t, claimN(3))
	appendUnindexed(t, f.j, claimN(3))
	f.reopen(t)
	if err := f.j.Health(); err != nil {
		t.Fatal(err)
	}
	if r, ok, err := f.j.Claimed(ticketN(3)); err != nil || !ok || r.Seq != a.Seq {
		t.Fatalf("Claimed without an index: %d %v %v", r.Seq, ok, err)
	}
	f.append(t, Entry{Kind: KindReport, Detail: "2026-12-02"})
	if _, err := f.j.Append(claimN(3)); !errors.Is(err, ErrDuplicateClaim) {
		t.Fatalf("third claim: %v", err)
	}
	if r, ok, err := f.j.Claimed(ticketN(3)); err != nil || !ok || r.Seq != a.Seq {
		t.Fatalf("Claimed from the index built: %d %v %v", r.Seq, ok, err)
	}
	f.reopen(t)
	if err := f.j.Health(); err != nil {
		t.Fatal(err)
	}
	if _, err := f.j.Verify(); err != nil {
		t.Fatal(err)
	}
}

// TestPrepareCommit: Commit writes exactly the record Prepare sealed (sequence, time,
// hash), later than its preparation; a record appended in between makes it ErrHeadMoved
// with nothing written.
func TestPrepareCommit(t *testing.T) {
	f := newFixture(t)
	p, err := f.j.Prepare(payoutN(1))
	if err != nil {
		t.Fatal(err)
	}
	f.clock.Advance(5e9)
	r, err := f.j.Commit(p)
	if err != nil {
		t.Fatal(err)
	}
	if r.Seq != p.Seq || r.Hash != p.Hash || !r.Time.Equal(p.Time) || r.Sig != p.Sig {
		t.Fatalf("committed %d %x, prepared %d %x", r.Seq, r.Hash[:4], p.Seq, p.Hash[:4])
	}
	p, err = f.j.Prepare(payoutN(2))
	if err != nil {
		t.Fatal(err)
	}
	f.append(t, Entry{Kind: KindReport, Detail: "x"})
	if _, err := f.j.Commit(p); !errors.Is(err, ErrHeadMoved) {
		t.Fatalf("commit after another append: %v", err)
	}
	if _, paid, _ := f.j.Paid(ticketN(2)); paid {
		t.Fatal("a refused commit was written")
	}
	if err := f.j.Health(); err != nil {
		t.Fatal(err)
	}
	f.reopen(t)
	if _, err := f.j.Verify(); err != nil {
		t.Fatal(err)
	}
}

// TestAt: any record by its number.
func TestAt(t *testing.T) {
	f := newFixture(t)
	f.append(t, payoutN(1))
	c := f.append(t, claimN(2))
	if r, ok, err := f.j.At(c.Seq); err != nil || !ok || r.Hash != c.Hash {
		t.Fatalf("At(%d): %v %v", c.Seq, ok, err)
	}
	if _, ok, err := f.j.At(99); ok || err != nil {
		t.Fatalf("At(99): %v %v", ok, err)
	}
}

// appendUnindexed appends e as the journal did before claims were indexed: no claim
// index (it is removed) and no claim check.
func appendUnindexed(t *testing.T, j *Journal, e Entry) {
	t.Helper()
	j.mu.Lock()
	defer j.mu.Unlock()
	r, err := j.prepare(e, j.head+1, j.headHash)
	if err != nil {
		t.Fatal(err)
	}
	enc := sealSigned(j.priv, ledger.IDOf(j.pub), &r)
	err = j.db.Update(func(tx *bolt.Tx) error {
		for _, b := range [][]byte{bClaimed, bKinds} { // neither index existed then
			if tx.Bucket(b) != nil {
				if err := tx.DeleteBucket(b); err != nil {
					return err
				}
			}
		}
		if err := tx.Bucket(bRecords).Put(be64(r.Seq), enc); err != nil {
			return err
		}
		days := tx.Bucket(bDays)
		d := DayTotals{Day: r.day()}
		if v := days.Get([]byte(d.Day)); v != nil {
			if d, err = decodeTotals(d.Day, v); err != nil {
				return err
			}
		}
		d.add(&r)
		if err := days.Put([]byte(d.Day), d.appendBinary(nil)); err != nil {
			return err
		}
		return putHead(tx, r.Seq, r.Hash)
	})
	if err != nil {
		t.Fatal(err)
	}
	j.advance(r, nil)
}
