package fleet_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/device/fleet/fleettest"
	"github.com/packterm/pos/device/fleet/server"
	"github.com/packterm/pos/validate/decide"
	"github.com/packterm/pos/validate/journal"
	"github.com/packterm/pos/validate/settle"
)

func streamRecords(t *testing.T, f *testFleet) ([]journal.Record, []server.BadMessage) {
	t.Helper()
	// Right after a node was killed the stream may still be electing its leader (no
	// responders): the read is tried again for a while.
	deadline := time.Now().Add(15 * time.Second)
	for {
		var recs []journal.Record
		bad, err := server.ReadJournal(context.Background(), f.js, func(r journal.Record) error { recs = append(recs, r); return nil })
		if err == nil {
			return recs, bad
		}
		if time.Now().After(deadline) {
			t.Fatal(err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// TestPublishCatchUpAndDedup: records published in order; a terminal cut off keeps
// paying, then catches up in order; publishing everything again stores nothing twice.
func TestPublishCatchUpAndDedup(t *testing.T) {
	f := newRegistry(t, 1)
	f.start(t, 1, nil)
	px := fleettest.NewProxy(t, f.nodes[0].Addr().String())
	tm := f.terminal(t, "T000", px.URL(), nil)
	waitOnline(t, tm.c)
	ctx := context.Background()
	for i := range 5 {
		if _, err := tm.j.Append(payout(ticketN(i), 500, false)); err != nil {
			t.Fatal(err)
		}
	}
	if err := tm.c.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	if tm.c.Acked() != 5 {
		t.Fatalf("acked %d, want 5", tm.c.Acked())
	}
	px.Block()
	for i := 5; i < 12; i++ {
		if _, err := tm.j.Append(payout(ticketN(i), 500, false)); err != nil {
			t.Fatal(err)
		}
	}
	if err := tm.c.Sync(ctx); err == nil {
		t.Fatal("sync through a partition succeeded")
	}
	px.Heal()
	waitOnline(t, tm.c)
	if err := tm.c.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	// A terminal that lost its state publishes everything again: stored once.
	tm2 := f.terminal(t, "T000", f.urls[0], func(o *fleet.Options) { o.Journal = tm.j; o.StateDir = "" })
	waitOnline(t, tm2.c)
	if err := tm2.c.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	recs, bad := streamRecords(t, f)
	if len(bad) != 0 || len(recs) != 12 {
		t.Fatalf("stream holds %d records (%d bad), want 12", len(recs), len(bad))
	}
	for i, r := range recs {
		if r.Seq != uint64(i+1) || r.Terminal != "T000" {
			t.Fatalf("stream record %d is %s", i, r.ID())
		}
	}
}

// TestRunStopsOnContext: the worker publishes what is appended and returns on cancel.
func TestRunStopsOnContext(t *testing.T) {
	f := newRegistry(t, 1)
	f.start(t, 1, nil)
	tm := f.terminal(t, "T000", f.urls[0], func(o *fleet.Options) { o.Retry = 20 * time.Millisecond })
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- tm.c.Run(ctx) }()
	tm.j.Append(payout(ticketN(1), 100, false))
	tm.c.Notify()
	for deadline := time.Now().Add(10 * time.Second); tm.c.Acked() != 1; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("record never acknowledged")
		}
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not stop")
	}
}

// TestClaims: first claim wins, a second terminal is refused with the winner named, the
// winner claiming again is told the claim is its own.
func TestClaims(t *testing.T) {
	f := newRegistry(t, 2)
	f.start(t, 1, nil)
	a := f.terminal(t, "T000", f.urls[0], nil)
	b := f.terminal(t, "T001", f.urls[0], nil)
	waitOnline(t, a.c)
	waitOnline(t, b.c)
	ctx := context.Background()
	id := ticketN(3)
	if c, err := a.c.Claim(ctx, codeOf(id), lotOf(id)); err != nil || c.Terminal != "T000" {
		t.Fatalf("first claim: %v %v", c, err)
	}
	_, err := b.c.Claim(ctx, codeOf(id), lotOf(id))
	var taken *fleet.TakenError
	if !errors.As(err, &taken) || taken.Holder.Terminal != "T000" || taken.Holder.At.IsZero() {
		t.Fatalf("second terminal's claim: %v", err)
	}
	if _, err := a.c.Claim(ctx, codeOf(id), lotOf(id)); err != nil {
		t.Fatalf("winner claiming again: %v", err)
	}
}

// TestPartitionConflict: a terminal cut off pays offline within the limit, another pays
// the same ticket online; after the heal both journals hold the conflict.
func TestPartitionConflict(t *testing.T) {
	f := newRegistry(t, 2)
	f.start(t, 1, nil)
	px := fleettest.NewProxy(t, f.nodes[0].Addr().String())
	a := f.terminal(t, "T000", f.urls[0], nil)
	b := f.terminal(t, "T001", px.URL(), func(o *fleet.Options) { o.Timeout = 300 * time.Millisecond })
	waitOnline(t, a.c)
	waitOnline(t, b.c)
	ctx := context.Background()
	id, other := ticketN(10), ticketN(11)
	px.Block()
	start := time.Now()
	// [limits] offline_per_ticket and offline_total, the payouts not yet claimed read from
	// b's journal.
	off := func(err error, amount int64) decide.Reason {
		d, _ := decideOn(b.c, err, amount, 50_00, lotOf(id)+lotOf(other), b.c)
		return d.Reason
	}
	_, err := b.c.Claim(ctx, codeOf(id), lotOf(id))
	if d := off(err, lotOf(id)); d != decide.Unconfirmed {
		t.Fatalf("claim through a partition: %v: %v", err, d)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("offline answer took %v", d)
	}
	_, err = b.c.Claim(ctx, codeOf(bigN(0)), lotOf(bigN(0)))
	if d := off(err, lotOf(bigN(0))); d != decide.OfflineOverLimit {
		t.Fatalf("claim above the offline limit through a partition: %v", d)
	}
	mustAppend(t, b.j, payout(id, lotOf(id), true)) // paid offline, unconfirmed
	_, err = b.c.Claim(ctx, codeOf(other), lotOf(other))
	if d := off(err, lotOf(other)); d != decide.Unconfirmed {
		t.Fatalf("one payout unclaimed, the other within the offline total: %v", d)
	}
	mustAppend(t, b.j, payout(other, lotOf(other), true)) // paid offline, nobody else
	_, err = b.c.Claim(ctx, codeOf(ticketN(13)), lotOf(ticketN(13)))
	if d := off(err, 1); d != decide.OfflineOverTotal {
		t.Fatalf("one cent past the offline total: %v", d)
	}
	if _, err := a.c.Claim(ctx, codeOf(id), lotOf(id)); err != nil {
		t.Fatal(err)
	}
	mustAppend(t, a.j, payout(id, lotOf(id), false))
	if err := a.c.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	px.Heal()
	waitOnline(t, b.c)
	if err := b.c.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	if n, err := b.c.Unclaimed(); err != nil || n != 0 {
		t.Errorf("after the heal, %d cents still unclaimed (%v)", n, err)
	}
	if err := a.c.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	for _, tm := range []*terminal{a, b} {
		n := 0
		tm.j.Each(time.Time{}, func(r journal.Record) error {
			if r.Kind == journal.KindConflict {
				n++
				if r.Ticket != id || !strings.Contains(r.Detail, map[string]string{"T000": "T001", "T001": "T000"}[tm.id]) {
					t.Errorf("%s: conflict record %v %q", tm.id, r, r.Detail)
				}
			}
			return nil
		})
		if n != 1 {
			t.Errorf("%s: %d conflict records, want 1", tm.id, n)
		}
	}
	// The other offline payout got its claim: another terminal is refused.
	var taken *fleet.TakenError
	if _, err := a.c.Claim(ctx, codeOf(other), lotOf(other)); !errors.As(err, &taken) || taken.Holder.Terminal != "T001" || !taken.Holder.Unconfirmed {
		t.Fatalf("claim of a ticket paid offline and reconciled: %v", err)
	}
	cs, err := server.Conflicts(ctx, f.stores.Conflicts, "c.>", 0)
	if err != nil || len(cs) != 2 {
		t.Fatalf("conflicts bucket: %v %v", cs, err)
	}
	// A second round records nothing twice.
	b.c.Sync(ctx)
	a.c.Sync(ctx)
	recs, _ := streamRecords(t, f)
	conflicts := 0
	for _, r := range recs {
		if r.Kind == journal.KindConflict {
			conflicts++
		}
	}
	if conflicts != 2 {
		t.Fatalf("stream holds %d conflict records, want 2", conflicts)
	}
	// The operator's report shows the conflict on both sides and the unconfirmed payouts.
	rep := settle.Build(recs, func(id string) (uint32, bool) { tm, ok := f.reg.Terminal(id); return tm.Retailer, ok })
	if len(rep.Conflicts) != 2 || rep.Conflicts[0].Record[:4] == rep.Conflicts[1].Record[:4] {
		t.Fatalf("report conflicts %+v", rep.Conflicts)
	}
	unconfirmed := 0
	for _, row := range rep.Rows {
		unconfirmed += row.Unconfirmed
	}
	if unconfirmed != 2 || len(rep.Gaps) != 0 {
		t.Fatalf("report: %d unconfirmed, gaps %v", unconfirmed, rep.Gaps)
	}
}

func mustAppend(t testing.TB, j *journal.Journal, e journal.Entry) journal.Record {
	t.Helper()
	r, err := j.Append(e)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestStateAheadOfJournal: a state file that claims more than the journal holds (a
// journal replaced or restored) does not stop publishing.
func TestStateAheadOfJournal(t *testing.T) {
	f := newRegistry(t, 1)
	f.start(t, 1, nil)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, fleet.StateFile), []byte(`{"acked":100,"reconciled":100,"recorded":{}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	tm := f.terminal(t, "T000", f.urls[0], func(o *fleet.Options) { o.StateDir = dir })
	waitOnline(t, tm.c)
	mustAppend(t, tm.j, payout(ticketN(1), lotOf(ticketN(1)), true))
	mustAppend(t, tm.j, payout(ticketN(2), 100, false))
	if err := tm.c.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	if recs, _ := streamRecords(t, f); len(recs) != 2 || tm.c.Acked() != 2 {
		t.Fatalf("published %d, acked %d", len(recs), tm.c.Acked())
	}
	if _, err := f.stores.Claims.Get(context.Background(), fleet.ClaimKey(ticketN(1))); err != nil {
		t.Fatalf("unconfirmed payout not claimed: %v", err)
	}
}

// TestJournalResetNotDropped: a terminal whose journal was replaced starts again at
// record 1; its new records are stored, not taken for duplicates of the old ones, and the
// same record published again is still stored once.
func TestJournalResetNotDropped(t *testing.T) {
	f := newRegistry(t, 1)
	f.start(t, 1, nil)
	ctx := context.Background()
	old := f.terminal(t, "T000", f.urls[0], func(o *fleet.Options) { o.StateDir = "" })
	waitOnline(t, old.c)
	mustAppend(t, old.j, payout(ticketN(1), 100, false))
	if err := old.c.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	fresh := f.terminal(t, "T000", f.urls[0], func(o *fleet.Options) { o.StateDir = "" })
	waitOnline(t, fresh.c)
	mustAppend(t, fresh.j, payout(ticketN(2), 100, false))
	if err := fresh.c.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	again := f.terminal(t, "T000", f.urls[0], func(o *fleet.Options) { o.StateDir = ""; o.Journal = old.j })
	waitOnline(t, again.c)
	if err := again.c.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	recs, _ := streamRecords(t, f)
	if len(recs) != 2 || recs[0].Ticket == recs[1].Ticket {
		t.Fatalf("stream holds %d records, want the old and the new record 1", len(recs))
	}
	rep := settle.Build(recs, func(string) (uint32, bool) { return 1, true })
	if len(rep.Forks) != 1 || rep.Forks[0] != "T000/1" {
		t.Fatalf("forks %v", rep.Forks)
	}
}

// TestServiceDownLosesNothing: without the claim service (which also takes the journal
// into the stream: the journal's intake) a winner within the offline limit is paid
// unconfirmed and the records wait in the terminal's journal, the queue; once a service
// answers again they are published, and the unconfirmed payout claimed.
func TestServiceDownLosesNothing(t *testing.T) {
	f := newRegistry(t, 1)
	f.start(t, 1, nil)
	f.stop[0]()
	tm := f.terminal(t, "T000", f.urls[0], func(o *fleet.Options) { o.Timeout = 200 * time.Millisecond })
	waitOnline(t, tm.c)
	ctx := context.Background()
	_, err := tm.c.Claim(ctx, codeOf(ticketN(5)), lotOf(ticketN(5)))
	if d, _ := decideOn(tm.c, err, 100, 10000, 0, nil); d.Reason != decide.Unconfirmed {
		t.Fatalf("claim without a service: %v %v", err, d)
	}
	mustAppend(t, tm.j, payout(ticketN(5), lotOf(ticketN(5)), true))
	mustAppend(t, tm.j, payout(ticketN(6), 100, false))
	if err := tm.c.Sync(ctx); !errors.Is(err, fleet.ErrOffline) {
		t.Fatalf("sync without a service: %v", err)
	}
	if tm.c.Acked() != 0 {
		t.Fatalf("acked %d without the service that takes them in", tm.c.Acked())
	}
	sctx, cancel := context.WithCancel(ctx)
	ready, done := make(chan struct{}), make(chan struct{})
	so := f.serviceOptions(t)
	so.Ready = ready
	svc := server.NewService(f.op, f.stores, so)
	go func() { defer close(done); svc.Run(sctx) }()
	defer func() { cancel(); <-done }()
	<-ready
	if err := tm.c.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	if tm.c.Acked() != 2 {
		t.Fatalf("acked %d once the service is back, want 2", tm.c.Acked())
	}
	e, err := f.stores.Claims.Get(ctx, fleet.ClaimKey(ticketN(5)))
	if err != nil {
		t.Fatalf("unconfirmed payout not claimed: %v", err)
	}
	if c, _ := fleet.DecodeClaim(e.Value()); c.Terminal != "T000" || !c.Unconfirmed || c.Record != "T000/1" {
		t.Fatalf("claim %+v", c)
	}
}
