package fleet_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/decide"
	"github.com/packterm/pos/validate/journal"
)

// epochTerminal is terminal T000 on the journal in dir (opened as posd would: the journal
// refused when it was removed) and a client on it.
type epochTerminal struct {
	j *journal.Journal
	c *fleet.Client
}

func (f *testFleet) epochTerminal(t *testing.T, dir string) *epochTerminal {
	t.Helper()
	j, err := journal.Open(dir, journal.Options{Terminal: "T000"})
	if err != nil {
		t.Fatal(err)
	}
	c, err := fleet.Connect(fleet.Options{Terminal: "T000", URL: f.urls[0], Credentials: f.seeds["T000"], Journal: j,
		StateDir: dir, Timeout: 2 * time.Second})
	if err != nil {
		j.Close()
		t.Fatal(err)
	}
	waitOnline(t, c)
	return &epochTerminal{j: j, c: c}
}

func (e *epochTerminal) close() {
	e.c.Close()
	e.j.Close()
}

// storedClaim reads the bucket's claim of id.
func (f *testFleet) storedClaim(t *testing.T, id codes.TicketID) fleet.Claim {
	t.Helper()
	e, err := f.stores.Claims.Get(context.Background(), fleet.ClaimKey(id))
	if err != nil {
		t.Fatalf("claim of %v: %v", id, err)
	}
	c, err := fleet.DecodeClaim(e.Value())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func epochNow(t *testing.T, j *journal.Journal) string {
	t.Helper()
	ep, err := j.Epoch()
	if err != nil {
		t.Fatal(err)
	}
	return ep
}

// TestPaidBeforeJournalReset: terminal T000 pays a winner (claim won, payout journalled
// and published); its journal is removed and the technician starts a new one. The same
// ticket claimed again must not be "yours, pay": the claim is T000's own but from the
// journal before, so the ticket was paid (on the code before epochs, Claim returned nil
// and the terminal paid it again). A claim made under the new journal and retried after a
// crash (no record appended) is still this terminal's to pay, and an offline payout of
// the new journal is reconciled with the new journal's epoch.
func TestPaidBeforeJournalReset(t *testing.T) {
	f := newRegistry(t, 1)
	f.start(t, 1, nil)
	ctx := context.Background()
	dir := t.TempDir()
	paid := ticketN(1)

	a := f.epochTerminal(t, dir)
	before := epochNow(t, a.j)
	if _, err := a.c.Claim(ctx, codeOf(paid), lotOf(paid)); err != nil {
		t.Fatal(err)
	}
	mustAppend(t, a.j, payout(paid, lotOf(paid), false))
	if err := a.c.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	if c := f.storedClaim(t, paid); c.Terminal != "T000" || c.Epoch != before {
		t.Fatalf("stored claim %+v, want T000's under epoch %s", c, before)
	}
	a.close()

	// The journal removed: refused; the technician resets; the terminal restarts.
	if err := os.Remove(filepath.Join(dir, journal.DBFile)); err != nil {
		t.Fatal(err)
	}
	j, err := journal.Open(dir, journal.Options{Terminal: "T000"})
	if err != nil || j.Missing() == nil {
		t.Fatalf("open after removal: %v %v", err, j.Health())
	}
	if _, err := j.Reset("technician (test)"); err != nil {
		t.Fatal(err)
	}
	j.Close()
	b := f.epochTerminal(t, dir)
	after := epochNow(t, b.j)
	if after == before {
		t.Fatal("the reset journal has the old epoch")
	}
	if afresh, err := b.j.StartedAfresh(); !afresh || err != nil {
		t.Fatalf("started afresh: %v %v", afresh, err)
	}
	if _, ok, _ := b.j.Paid(paid); ok {
		t.Fatal("the new journal knows the old payout: nothing to test")
	}
	_, err = b.c.Claim(ctx, codeOf(paid), lotOf(paid))
	var pb *fleet.PaidBeforeError
	if !errors.As(err, &pb) || pb.Holder.Terminal != "T000" || pb.Holder.Epoch != before || pb.Epoch != after {
		t.Fatalf("claim of the ticket paid before the reset: %v", err)
	}
	if d, h := decideOn(b.c, err, lotOf(paid), 100_00, 0, nil); d.Reason != decide.PaidBeforeReset || h.Holder.At.IsZero() {
		t.Fatalf("decision %v", d)
	}
	if c := f.storedClaim(t, paid); c.Epoch != before {
		t.Fatalf("the claim changed: %+v", c)
	}

	// A crash between the claim and the append: the retry, same journal, still pays.
	retried := ticketN(2)
	if _, err := b.c.Claim(ctx, codeOf(retried), lotOf(retried)); err != nil {
		t.Fatal(err)
	}
	b.close() // no record: killed before the append
	b = f.epochTerminal(t, dir)
	defer b.close()
	if _, err := b.c.Claim(ctx, codeOf(retried), lotOf(retried)); err != nil {
		t.Fatalf("retry after a crash under the same journal: %v", err)
	}
	if c := f.storedClaim(t, retried); c.Epoch != after {
		t.Fatalf("claim under the new journal: %+v", c)
	}

	// An offline payout of the new journal is reconciled with its epoch.
	offline := ticketN(3)
	mustAppend(t, b.j, payout(offline, lotOf(offline), true))
	if err := b.c.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	if c := f.storedClaim(t, offline); c.Terminal != "T000" || !c.Unconfirmed || c.Epoch != after {
		t.Fatalf("reconciled claim %+v, want under epoch %s", c, after)
	}
	if n, err := b.c.Unclaimed(); n != 0 || err != nil {
		t.Fatalf("unclaimed after the reconciliation: %d %v", n, err)
	}
}

// TestPaidBeforeDataWiped: the retailer wipes the whole data directory; the terminal
// starts as new (a first start: new device key, journal from record 1) with the same
// fleet credentials. The fleet is the only trace: the ticket paid before is refused. An
// offline payout the new journal made of a ticket paid before (it cannot know) is
// reconciled without blocking the rest (settlement flags the second payout).
func TestPaidBeforeDataWiped(t *testing.T) {
	f := newRegistry(t, 1)
	f.start(t, 1, nil)
	ctx := context.Background()
	paid, paidToo := ticketN(1), ticketN(2)

	a := f.epochTerminal(t, t.TempDir())
	for _, id := range []codes.TicketID{paid, paidToo} {
		if _, err := a.c.Claim(ctx, codeOf(id), lotOf(id)); err != nil {
			t.Fatal(err)
		}
		mustAppend(t, a.j, payout(id, lotOf(id), false))
	}
	a.close()

	b := f.epochTerminal(t, t.TempDir()) // everything wiped: a first start
	defer b.close()
	_, err := b.c.Claim(ctx, codeOf(paid), lotOf(paid))
	var pb *fleet.PaidBeforeError
	if !errors.As(err, &pb) || pb.Holder.Terminal != "T000" {
		t.Fatalf("claim of the ticket paid before the wipe: %v", err)
	}
	// Paid offline meanwhile (no fleet then): reconciled, refused as paid before, and the
	// reconciliation goes on to the next payout.
	mustAppend(t, b.j, payout(paidToo, lotOf(paidToo), true))
	fresh := ticketN(4)
	mustAppend(t, b.j, payout(fresh, lotOf(fresh), true))
	if err := b.c.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	if c := f.storedClaim(t, fresh); !c.Unconfirmed || c.Epoch != epochNow(t, b.j) {
		t.Fatalf("the next offline payout's claim: %+v", c)
	}
	if n, _ := b.c.Unclaimed(); n != 0 {
		t.Fatalf("unclaimed %d", n)
	}
}

// TestPaidBeforeOlderClaims: claims stored before claims carried epochs (none): one older
// than the journal's first record was made under an earlier journal (refused); one newer
// was made under this journal (a retry: paid).
func TestPaidBeforeOlderClaims(t *testing.T) {
	f := newRegistry(t, 1)
	f.start(t, 1, nil)
	ctx := context.Background()
	tm := f.epochTerminal(t, t.TempDir())
	defer tm.close()
	old, retry := ticketN(1), ticketN(2)
	put := func(id codes.TicketID, at time.Time) {
		v, _ := json.Marshal(fleet.Claim{Terminal: "T000", At: at, Amount: lotOf(id)})
		if _, err := f.stores.Claims.Create(ctx, fleet.ClaimKey(id), v); err != nil {
			t.Fatal(err)
		}
	}
	put(old, time.Now().Add(-24*time.Hour))
	// Empty journal: any claim without an epoch is from before it.
	_, err := tm.c.Claim(ctx, codeOf(old), lotOf(old))
	var pb *fleet.PaidBeforeError
	if !errors.As(err, &pb) {
		t.Fatalf("older claim, empty journal: %v", err)
	}
	first := mustAppend(t, tm.j, journal.Entry{Kind: journal.KindRefused, Reason: "forged"})
	if _, err := tm.c.Claim(ctx, codeOf(old), lotOf(old)); !errors.As(err, &pb) {
		t.Fatalf("claim older than the journal's first record: %v", err)
	}
	put(retry, first.Time.Add(time.Second))
	if _, err := tm.c.Claim(ctx, codeOf(retry), lotOf(retry)); err != nil {
		t.Fatalf("claim without an epoch made under this journal: %v", err)
	}
}
