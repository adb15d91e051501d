package emulated

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/validate/block"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/decide"
	"github.com/packterm/pos/validate/journal"
)

// refusalReason is the reason of the last refusal journalled for id ("" when none).
func (e *e2e) refusalReason(id codes.TicketID) string {
	var reason string
	e.rig.Journal.Each(time.Time{}, func(r journal.Record) error {
		if r.Kind == journal.KindRefused && r.Ticket == id {
			reason = r.Reason
		}
		return nil
	})
	return reason
}

// The terminal's side of a claim this terminal made under an earlier journal (the fleet's
// PaidBeforeError, here from the fake): refused as already paid, with when and where,
// nothing paid, the refusal journalled as paid-before-reset.
func TestFleetPaidBeforeReset(t *testing.T) {
	tb := newTestBlock(t)
	clock := clockwork.NewFakeClockAt(time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC))
	paid := tb.find(t, func(tk block.Ticket) bool { return tk.Tier > 0 && tk.Lot <= 20_00 })
	claims := &fleet.Fake{Terminal: "EMU-0001", Before: map[codes.TicketID]time.Time{paid: clock.Now().Add(-48 * time.Hour)}}
	e := rigOn(t, tb, Options{Dir: t.TempDir(), AllDelivered: true, PerTicket: 20_00, Clock: clock, Fleet: claims, OfflinePerTicket: 20_00})
	defer e.rig.Close()
	e.do(tb.code(paid), "!ok")
	e.expect("DÉJÀ PAYÉ", "30/11", "EMU-0001")
	if e.count(journal.KindPayout, paid) != 0 {
		t.Fatal("a ticket this terminal paid under its earlier journal was paid again")
	}
	if r := e.refusalReason(paid); r != decide.PaidBeforeReset.String() {
		t.Fatalf("refusal journalled as %q", r)
	}
}

// A journal a technician started afresh pays nothing unconfirmed: with the fleet out of
// reach, a winner within the offline limit is refused (offline-after-reset); with the
// fleet's confirmation it is paid. A first start's journal still pays within the limit, and
// so does a terminal without a fleet after a reset (nothing to ask).
func TestResetJournalPaysNothingOffline(t *testing.T) {
	tb := newTestBlock(t)
	clock := clockwork.NewFakeClockAt(time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC))
	dir := t.TempDir()
	used := map[codes.TicketID]bool{}
	small := func() codes.TicketID {
		id := tb.find(t, func(tk block.Ticket) bool { return tk.Tier > 0 && tk.Lot <= 5_00 && !used[tk.ID] })
		used[id] = true
		return id
	}
	claims := &fleet.Fake{Terminal: "EMU-0001", Err: fmt.Errorf("test: %w", fleet.ErrOffline)}
	o := Options{Dir: dir, AllDelivered: true, PerTicket: 20_00, Clock: clock, Fleet: claims, OfflinePerTicket: 5_00}
	e := rigOn(t, tb, o)
	first := small()
	e.do(tb.code(first), "!ok")
	e.expect("PAYÉ")
	if e.count(journal.KindPayout, first) != 1 {
		t.Fatal("a first start's journal did not pay within the offline limit")
	}
	epochMust(t, e.rig.Close())

	// The journal removed; the technician starts a new one.
	epochMust(t, os.Remove(filepath.Join(dir, "journal", journal.DBFile)))
	e = rigOn(t, tb, o)
	if e.rig.Journal.Missing() == nil {
		t.Fatalf("journal not refused: %v", e.rig.Journal.Health())
	}
	if _, err := e.rig.Journal.Reset("technician (test)"); err != nil {
		t.Fatal(err)
	}
	epochMust(t, e.rig.Close())

	e = rigOn(t, tb, o)
	defer func() { e.rig.Close() }()
	offline := small()
	e.do(tb.code(offline), "!ok")
	e.expect("NON PAYÉ")
	if e.count(journal.KindPayout, offline) != 0 {
		t.Fatal("a reset journal paid unconfirmed")
	}
	if r := e.refusalReason(offline); r != decide.OfflineAfterReset.String() {
		t.Fatalf("refusal journalled as %q", r)
	}
	claims.Err = nil
	e.do(tb.code(offline), "!ok")
	e.expect("PAYÉ")
	if r, ok, _ := e.rig.Journal.Paid(offline); !ok || r.Unconfirmed() {
		t.Fatalf("with the fleet's confirmation: paid %v, %v", ok, r)
	}

	// A terminal without a fleet has nothing to ask: its offline limit stands.
	epochMust(t, e.rig.Close())
	o.Fleet = fleet.OfflineOnly{}
	e = rigOn(t, tb, o)
	alone := small()
	e.do(tb.code(alone), "!ok")
	e.expect("PAYÉ")
	if r, ok, _ := e.rig.Journal.Paid(alone); !ok || !r.Unconfirmed() {
		t.Fatalf("without a fleet, after a reset: paid %v, %v", ok, r)
	}
}

func epochMust(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
