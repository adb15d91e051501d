package fleet_test

import (
	"context"
	"testing"

	"github.com/packterm/pos/device/fleet"
)

// TestFleetCopyCarriesSignatures: each record reaches the fleet's copy with the device
// key's signature it was written with, so the operator can check it record by record
// with the terminal's key; the same record published twice is still stored once.
func TestFleetCopyCarriesSignatures(t *testing.T) {
	f := newRegistry(t, 1)
	f.start(t, 1, nil)
	tm := f.terminal(t, "T000", f.urls[0], nil)
	waitOnline(t, tm.c)
	ctx := context.Background()
	for i := range 3 {
		if _, err := tm.j.Append(payout(ticketN(i), 500, false)); err != nil {
			t.Fatal(err)
		}
	}
	if err := tm.c.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	again := f.terminal(t, "T000", f.urls[0], func(o *fleet.Options) { o.Journal = tm.j; o.StateDir = "" })
	waitOnline(t, again.c)
	if err := again.c.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	recs, bad := streamRecords(t, f)
	if len(bad) != 0 || len(recs) != 3 {
		t.Fatalf("stream holds %d records (%d bad), want 3", len(recs), len(bad))
	}
	for _, r := range recs {
		if !r.Signed() {
			t.Fatalf("fleet copy of %s has no signature", r.ID())
		}
		if err := r.VerifySignature(tm.j.PublicKey()); err != nil {
			t.Fatalf("fleet copy: %v", err)
		}
	}
}
