package journal

import (
	"testing"
)

func TestConflictRecordAndEachFrom(t *testing.T) {
	f := newFixture(t)
	p := payoutN(1)
	p.Reason = ReasonUnconfirmed
	r := f.append(t, p)
	if !r.Unconfirmed() {
		t.Fatal("offline payout not unconfirmed")
	}
	f.append(t, payoutN(2))
	c := f.append(t, Entry{Kind: KindConflict, Ticket: p.Ticket, Game: p.Game, Amount: p.Amount,
		Reason: ReasonPaidElsewhere, Detail: "claimed by T0007/12 at 2026-12-02T09:31:00Z"})
	if c.Kind.String() != "conflict" {
		t.Fatalf("kind name %q", c.Kind)
	}
	if _, err := f.j.Append(Entry{Kind: KindConflict, Ticket: p.Ticket, Code: p.Code}); err == nil {
		t.Fatal("a conflict record took a validation code")
	}
	var seqs []uint64
	if err := f.j.EachFrom(2, func(r Record) error { seqs = append(seqs, r.Seq); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(seqs) != 2 || seqs[0] != 2 || seqs[1] != 3 {
		t.Fatalf("EachFrom(2) = %v", seqs)
	}
	f.reopen(t)
	if err := f.j.Health(); err != nil {
		t.Fatal(err)
	}
	if rep, err := f.j.Verify(); err != nil {
		t.Fatalf("verify: %v %v", rep, err)
	}
}
