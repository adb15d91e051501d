package daemon

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/device/fleet/fleettest"
	"github.com/packterm/pos/internal/techcard"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/journal"
)

// epochBoard is posd T-1 in a fleet (through a proxy the test can cut), with an offline
// limit of 5 €.
func epochBoard(t *testing.T) (*testBlock, *testBoard, *testFleet, *fleettest.Proxy) {
	t.Helper()
	tb := newTestBlock(t, 13)
	b := newBoard(t, tb)
	b.installLedger(t, tb)
	f := newTestFleet(t, tb, map[string]uint32{"T-1": 1})
	px := fleettest.NewProxy(t, f.srv.Addr().String())
	b.cfg.Fleet.URL, b.cfg.Fleet.Credentials = px.URL(), f.seeds["T-1"]
	b.cfg.Limits.OfflinePerTicket, b.cfg.Limits.OfflineTotal = 5_00, 50_00
	return tb, b, f, px
}

// payOnline pays code online and waits for its claim and its payout in the JOURNAL stream.
func payOnline(t *testing.T, d *daemon, b *testBoard, f *testFleet, id codes.TicketID, code string) {
	t.Helper()
	d.scan(b, code, "GAGNANT")
	d.press(b, "PAYÉ")
	if c, ok := f.claim(t, id); !ok || c.Terminal != "T-1" || c.Unconfirmed {
		t.Fatalf("claim of the payout: %+v %v", c, ok)
	}
	wait(t, "the payout in the JOURNAL stream", func() bool {
		for _, r := range f.published(t, "T-1") {
			if r.Kind == journal.KindPayout && r.Ticket == id {
				return true
			}
		}
		return false
	})
}

// refusedAs is the reason of the refusal of id journalled in the data directory ("" if none).
func refusedAs(t *testing.T, dataDir string, id codes.TicketID) (reason string, paid bool) {
	t.Helper()
	for _, r := range records(t, dataDir) {
		switch {
		case r.Kind == journal.KindRefused && r.Ticket == id:
			reason = r.Reason
		case r.Kind == journal.KindPayout && r.Ticket == id:
			paid = true
		}
	}
	return reason, paid
}

// TestPaidBeforeJournalReset: posd pays a winner online (claimed, journalled, published);
// journal.db is removed; the technician starts a new journal (token, OK, restart). The
// same ticket scanned again: the new journal does not know it, the fleet holds T-1's own
// claim, and before epochs that meant "yours: pay": it was PAID AGAIN. Now it is refused
// as already paid (DÉJÀ PAYÉ, when, T-1), nothing is paid or printed, and the refusal is
// journalled (paid-before-reset). With the fleet then out of reach, the reset journal pays
// nothing unconfirmed, even within the offline limit (offline-after-reset); with the fleet
// back, it pays another winner.
func TestPaidBeforeJournalReset(t *testing.T) {
	tb, b, f, px := epochBoard(t)
	paid, paidCode := tb.winner(t, func(lot int64) bool { return lot <= 150_00 })
	d := b.start(t, Options{})
	wait(t, "the fleet connection", d.r.Fleet.Online)
	payOnline(t, d, b, f, paid, paidCode)
	receipts(t, b, 2)
	must(t, d.stop())

	must(t, os.Remove(filepath.Join(b.cfg.DataDir, "journal", journal.DBFile)))
	d = b.start(t, Options{})
	d.expect("JOURNAL EFFACÉ")
	card, err := techcard.Encode([]byte(testToken)) // the technician's card
	must(t, err)
	d.scan(b, card, "NOUVEAU JOURNAL")
	d.press(b, "REDÉMARRAGE")
	var re *RestartError
	if err := d.ended(20 * time.Second); !errors.As(err, &re) {
		t.Fatalf("no restart after the reset: %v", err)
	}

	d = b.start(t, Options{})
	wait(t, "the fleet connection", d.r.Fleet.Online)
	d.scan(b, paidCode, "GAGNANT")
	d.press(b, "DÉJÀ PAYÉ", "T-1")
	if n := receipts(t, b, 0); n != 2 {
		t.Fatalf("%d receipts printed, want the first payout's 2 only", n)
	}
	if reason, again := refusedAs(t, b.cfg.DataDir, paid); again || reason != "paid-before-reset" {
		t.Fatalf("after the reset: paid %v, refusal %q", again, reason)
	}

	// The fleet out of reach: nothing unconfirmed from a reset journal.
	px.Block()
	wait(t, "the fleet connection lost", func() bool { return !d.r.Fleet.Online() })
	small, smallCode := tb.winner(t, func(lot int64) bool { return lot <= 5_00 })
	d.scan(b, smallCode, "GAGNANT")
	d.press(b, "RÉSEAU INJOIGNABLE", "NON PAYÉ")
	if reason, p := refusedAs(t, b.cfg.DataDir, small); p || reason != "offline-after-reset" {
		t.Fatalf("offline after the reset: paid %v, refusal %q", p, reason)
	}
	px.Heal()
	wait(t, "the fleet connection", d.r.Fleet.Online)
	next, nextCode := tb.winner(t, func(lot int64) bool { return lot <= 5_00 })
	d.scan(b, nextCode, "GAGNANT")
	d.press(b, "PAYÉ")
	receipts(t, b, 4)
	if _, p := refusedAs(t, b.cfg.DataDir, next); !p {
		t.Fatal("the reset journal does not pay with the fleet's confirmation")
	}
	must(t, d.stop())
}

// TestPaidBeforeDataWiped: the retailer wipes the whole data directory; posd starts as
// new (nothing on the terminal says it had a journal) with the same fleet credentials.
// The fleet's claim is the only trace: the ticket paid before is refused as already paid
// (before epochs: paid again).
func TestPaidBeforeDataWiped(t *testing.T) {
	tb, b, f, _ := epochBoard(t)
	paid, paidCode := tb.winner(t, func(lot int64) bool { return lot <= 150_00 })
	d := b.start(t, Options{})
	wait(t, "the fleet connection", d.r.Fleet.Online)
	payOnline(t, d, b, f, paid, paidCode)
	receipts(t, b, 2)
	must(t, d.stop())

	must(t, os.RemoveAll(b.cfg.DataDir))
	b.installLedger(t, tb)
	d = b.start(t, Options{})
	if d.r.Journal.Missing() != nil {
		t.Fatal("the wiped terminal did not start as new")
	}
	wait(t, "the fleet connection", d.r.Fleet.Online)
	d.scan(b, paidCode, "GAGNANT")
	d.press(b, "DÉJÀ PAYÉ", "T-1")
	if n := receipts(t, b, 0); n != 2 {
		t.Fatalf("%d receipts printed, want the first payout's 2 only", n)
	}
	if reason, again := refusedAs(t, b.cfg.DataDir, paid); again || reason != "paid-before-reset" {
		t.Fatalf("after the wipe: paid %v, refusal %q", again, reason)
	}
	must(t, d.stop())
}

// TestClaimRetryAfterCrash: posd claimed a winner and was killed before the payout reached
// its journal (the claim is in the fleet, the journal has no record). The retry, under the
// same journal, must still pay: the claim is this journal's.
func TestClaimRetryAfterCrash(t *testing.T) {
	tb, b, f, _ := epochBoard(t)
	id, code := tb.winner(t, func(lot int64) bool { return lot <= 150_00 })
	d := b.start(t, Options{}) // the journal exists
	must(t, d.stop())

	// The claim posd made before it was killed, with its journal's epoch.
	j, err := journal.Open(filepath.Join(b.cfg.DataDir, "journal"), journal.Options{Terminal: "T-1"})
	must(t, err)
	c, err := fleet.Connect(fleet.Options{Terminal: "T-1", URL: f.srv.URL(), Credentials: f.seeds["T-1"], Journal: j})
	must(t, err)
	wait(t, "the connection", c.Online)
	if _, err := c.Claim(context.Background(), codes.ValidationCodeOf(id, tb.tickets[id].Secret), int64(tb.tickets[id].Lot)); err != nil {
		t.Fatal(err)
	}
	epoch, err := j.Epoch()
	must(t, err)
	c.Close()
	must(t, j.Close())

	d = b.start(t, Options{})
	wait(t, "the fleet connection", d.r.Fleet.Online)
	d.scan(b, code, "GAGNANT")
	d.press(b, "PAYÉ")
	receipts(t, b, 2)
	if _, p := refusedAs(t, b.cfg.DataDir, id); !p {
		t.Fatal("the retry after a crash was not paid")
	}
	if cl, _ := f.claim(t, id); cl.Epoch != epoch {
		t.Fatalf("claim %+v, want epoch %s", cl, epoch)
	}
	must(t, d.stop())
}
