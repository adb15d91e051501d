package terminal_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/device/retail"
	"github.com/packterm/pos/device/terminal"
	"github.com/packterm/pos/device/terminal/terminaltest"
	"github.com/packterm/pos/drivers/printer"
	"github.com/packterm/pos/drivers/printer/spooltest"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/decide"
	"github.com/packterm/pos/validate/journal"
)

func TestStatePayOfferAnswers(t *testing.T) {
	_, v := winner(t, 5_00)
	r := newRig(t)
	wantState(t, step(t, r, terminal.PayOfferState(v), at(r, press(terminal.EvOK))), "pay")
	wantState(t, step(t, r, terminal.PayOfferState(v), at(r, press(terminal.EvCancel))), "result:pay-cancelled")
	wantState(t, stepTimeout(t, r, terminal.PayOfferState(v)), "result:pay-cancelled")
	// A press made before the offer showed confirms nothing.
	early := terminal.Event{Kind: terminal.EvOK, At: r.Clock.Now().Add(-time.Second)}
	wantState(t, step(t, r, terminal.PayOfferState(v), early, at(r, press(terminal.EvCancel))), "result:pay-cancelled")
	if !r.Green.On() {
		t.Error("green LED off on a winner")
	}
	// Another code drops the offer.
	code, _ := winner(t, 3_00)
	wantState(t, step(t, r, terminal.PayOfferState(v), scan(code)), "validation")
	if n := len(records(t, r, journal.KindPayout)); n != 0 {
		t.Errorf("%d payouts", n)
	}
}

// The amount confirmed on a panel that does not answer is not paid: the display fault,
// then the offer again.
func TestStatePayOfferOnADeadPanel(t *testing.T) {
	_, v := winner(t, 5_00)
	r := newRig(t)
	r.Screen.ReadBack = true
	r.Screen.SetErr(errors.New("no answer"))
	next := step(t, r, terminal.PayOfferState(v), at(r, press(terminal.EvOK)))
	if k, _ := terminal.FaultKind(next); k != retail.FaultDisplay {
		t.Fatalf("next %s fault %v", next.Name(), k)
	}
	wantState(t, terminal.Then(next), "pay-offer")
}

// pay records the payout (with its code and both receipts), then the delivery prints
// the receipts, opens the drawer once and marks the operation done.
func TestStatePayRecordsPrintsAndOpensTheDrawer(t *testing.T) {
	_, v := winner(t, 5_00)
	r := newRig(t)
	next := step(t, r, terminal.PayState(v))
	wantState(t, next, "deliver")
	if !terminal.OpensDrawer(next) {
		t.Error("a payout's delivery does not open the drawer")
	}
	ps := records(t, r, journal.KindPayout)
	if len(ps) != 1 || ps[0].Amount != 5_00 || ps[0].Ticket != v.Ticket || !ps[0].HasCode() || len(ps[0].Receipts) != 2 {
		t.Fatalf("payouts %+v", ps)
	}
	if r.Drawer.Opens() != 0 || len(r.Printer.PrintedIDs()) != 0 {
		t.Fatal("drawer opened or receipts printed before the delivery")
	}
	next = step(t, r, next)
	wantState(t, next, "finish")
	if got := printed(r); got != "J C" {
		t.Errorf("printed %q", got)
	}
	wantState(t, step(t, r, next), "result:paid")
	if r.Drawer.Opens() != 1 {
		t.Errorf("drawer opened %d times", r.Drawer.Opens())
	}
	// Paid again by the same state (a race with another writer): refused, no second payout.
	wantState(t, step(t, r, terminal.PayState(v)), "result:already-paid")
	if n := len(records(t, r, journal.KindPayout)); n != 1 {
		t.Errorf("%d payouts", n)
	}
}

// Receipts that cannot be kept: nothing is recorded, the storage fault holds the offer
// until the spool takes writes again.
func TestStatePaySpoolFull(t *testing.T) {
	_, v := winner(t, 5_00)
	fs := &spooltest.FaultFS{}
	r := newRig(t, func(o *terminaltest.Options) { o.Spool.FS = fs })
	fs.SetFull(true)
	next := step(t, r, terminal.PayState(v))
	if k, _ := terminal.FaultKind(next); k != retail.FaultStorage {
		t.Fatalf("next %s fault %v", next.Name(), k)
	}
	wantState(t, terminal.Then(next), "pay-offer")
	if n := len(records(t, r, journal.KindPayout)); n != 0 || r.Drawer.Opens() != 0 {
		t.Fatalf("%d payouts, drawer %d", n, r.Drawer.Opens())
	}
	fs.SetFull(false)
	wantState(t, stepTimeout(t, r, next), "pay-offer")
}

// The fleet's refusals: each is journalled with its reason, nothing is paid, the drawer
// stays shut.
func TestStatePayFleetRefusals(t *testing.T) {
	_, v := winner(t, 5_00)
	offline := fmt.Errorf("test: %w", fleet.ErrOffline)
	for _, c := range []struct {
		name   string
		fleet  *fleet.Fake
		cfg    terminal.Config
		want   string
		reason string
	}{
		{"paid-elsewhere", &fleet.Fake{Terminal: "T-0001", Held: map[codes.TicketID]string{v.Ticket: "T-0002"}}, terminal.Config{}, "result:paid-elsewhere", "paid-elsewhere"},
		{"paid-before-reset", &fleet.Fake{Terminal: "T-0001", Before: map[codes.TicketID]time.Time{v.Ticket: terminaltest.Epoch()}}, terminal.Config{}, "result:already-paid", decide.PaidBeforeReset.String()},
		{"refused-by-fleet", &fleet.Fake{Refused: map[codes.TicketID]string{v.Ticket: "not-yours"}}, terminal.Config{}, "result:fleet-refused", "fleet-refused:not-yours"},
		{"offline-above-limit", &fleet.Fake{Err: offline}, terminal.Config{OfflinePerTicket: 2_00}, "result:fleet-offline", "fleet-offline"},
		{"claim-failed", &fleet.Fake{Err: errors.New("tls: bad certificate")}, terminal.Config{}, "result:claim-failed", "claim-failed"},
		// Restored from an earlier copy: refused even within the offline limit.
		{"journal-restored", &fleet.Fake{Err: fmt.Errorf("test: %w", fleet.ErrRestored)}, terminal.Config{OfflinePerTicket: 50_00},
			"result:journal-restored", decide.JournalRestored.String()},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := newRig(t, func(o *terminaltest.Options) { o.Fleet, o.Config = c.fleet, c.cfg })
			wantState(t, step(t, r, terminal.PayState(v)), c.want)
			rs := records(t, r, journal.KindRefused)
			if len(rs) != 1 || rs[0].Reason != c.reason {
				t.Fatalf("refusals %+v", rs)
			}
			if n := len(records(t, r, journal.KindPayout)); n != 0 || r.Drawer.Opens() != 0 {
				t.Fatalf("%d payouts, drawer %d", n, r.Drawer.Opens())
			}
		})
	}
}

// Out of the fleet's reach within the offline limit: paid, journalled unconfirmed.
func TestStatePayOfflineWithinTheLimit(t *testing.T) {
	_, v := winner(t, 5_00)
	f := &fleet.Fake{Err: fmt.Errorf("test: %w", fleet.ErrOffline)}
	r := newRig(t, func(o *terminaltest.Options) { o.Fleet, o.Config.OfflinePerTicket = f, 10_00 })
	run(t, r, terminal.PayState(v), "result:paid")
	ps := records(t, r, journal.KindPayout)
	if len(ps) != 1 || ps[0].Reason != journal.ReasonUnconfirmed {
		t.Fatalf("payouts %+v", ps)
	}
	if r.Drawer.Opens() != 1 || f.Notified == 0 {
		t.Errorf("drawer %d, fleet notified %d", r.Drawer.Opens(), f.Notified)
	}
}

func TestStateClaimPrintsItsReceiptAndPaysNothing(t *testing.T) {
	_, v := winner(t, 30_00)
	r := newRig(t)
	next := step(t, r, terminal.ClaimState(v))
	wantState(t, next, "deliver")
	if terminal.OpensDrawer(next) {
		t.Error("a claim opens the drawer")
	}
	run(t, r, next, "result:claim")
	if got := printed(r); got != "R" || r.Drawer.Opens() != 0 {
		t.Errorf("printed %q, drawer %d", got, r.Drawer.Opens())
	}
	if cs := records(t, r, journal.KindClaim); len(cs) != 1 || cs[0].Amount != 30_00 || cs[0].HasCode() {
		t.Fatalf("claims %+v", cs)
	}
}

// A printer fault during a delivery keeps the receipts in the spool; the drawer opens
// only once they have printed, once.
func TestStateDeliverWaitsForThePrinter(t *testing.T) {
	_, v := winner(t, 5_00)
	r := newRig(t)
	r.Printer.SetFault(printer.ErrPaperEnd)
	next := step(t, r, terminal.PayState(v))
	next = step(t, r, next) // deliver
	if k, _ := terminal.FaultKind(next); k != retail.FaultPaper {
		t.Fatalf("next %s fault %v", next.Name(), k)
	}
	if r.Drawer.Opens() != 0 || len(r.Printer.PrintedIDs()) != 0 {
		t.Fatal("drawer opened or receipt printed during the fault")
	}
	pending, _ := r.Printer.Pending()
	if len(pending) != 2 {
		t.Fatalf("%d receipts kept", len(pending))
	}
	r.Printer.SetFault(nil)
	next = step(t, r, next, press(terminal.EvPrinter))
	wantState(t, next, "finish")
	run(t, r, next, "result:paid")
	if got := printed(r); got != "J C" || r.Drawer.Opens() != 1 {
		t.Errorf("printed %q, drawer %d", got, r.Drawer.Opens())
	}
}

func TestStateSaleAnswers(t *testing.T) {
	text, pack := packCode(t)
	r := newRig(t, func(o *terminaltest.Options) { o.Config.AllDelivered = true })
	next := step(t, r, terminal.SaleState(pack), at(r, press(terminal.EvOK)))
	wantState(t, next, "sell")
	wantState(t, step(t, r, terminal.SaleState(pack), at(r, press(terminal.EvCancel))), "result:sale-cancelled")
	wantState(t, stepTimeout(t, r, terminal.SaleState(pack)), "result:sale-cancelled")
	run(t, r, next, "result:sold")
	if got := printed(r); got != "V" || r.Drawer.Opens() != 0 {
		t.Errorf("printed %q, drawer %d", got, r.Drawer.Opens())
	}
	ss := records(t, r, journal.KindSale)
	if len(ss) != 1 || ss[0].Ticket.Pack != pack.Pack || ss[0].Amount <= 0 {
		t.Fatalf("sales %+v", ss)
	}
	wantState(t, step(t, r, terminal.SaleState(pack)), "result:already-sold")
	wantState(t, step(t, r, terminal.IdleState(), scan(text)), "sale")
}

// A pack without a status list (and not all delivered) is no pack to sell.
func TestStateSaleRefused(t *testing.T) {
	_, pack := packCode(t)
	r := newRig(t)
	wantState(t, step(t, r, terminal.SaleState(pack)), "result:sale-refused")
	if n := len(records(t, r, journal.KindSale)); n != 0 {
		t.Errorf("%d sales", n)
	}
}

func TestStateReportPrintsAndCheckpoints(t *testing.T) {
	r := newRig(t)
	run(t, r, terminal.ReportState(), "result:report")
	if got := printed(r); got != "Z" {
		t.Errorf("printed %q", got)
	}
	rs := records(t, r, journal.KindReport)
	if len(rs) != 1 || rs[0].Detail != terminaltest.Epoch().Format(time.DateOnly) {
		t.Fatalf("reports %+v", rs)
	}
}

// A reprint prints duplicates (journalled as a reprint), never opens the drawer, and
// refuses what printed nothing.
func TestStateReprint(t *testing.T) {
	_, v := winner(t, 5_00)
	r := newRig(t)
	wantState(t, step(t, r, terminal.ReprintState(0)), "result:nothing-to-reprint")
	wantState(t, step(t, r, terminal.ReprintState(42)), "result:nothing-to-reprint")
	run(t, r, terminal.PayState(v), "result:paid")
	seq := records(t, r, journal.KindPayout)[0].Seq
	run(t, r, terminal.ReprintState(seq), "result:reprint")
	if got := printed(r); got != "J C DJ DC" {
		t.Errorf("printed %q", got)
	}
	run(t, r, terminal.ReprintState(0), "result:reprint") // the last receipt: C
	if got := printed(r); got != "J C DJ DC DC" {
		t.Errorf("printed %q", got)
	}
	if n := len(records(t, r, journal.KindReprint)); n != 2 || r.Drawer.Opens() != 1 {
		t.Errorf("%d reprints, drawer %d", n, r.Drawer.Opens())
	}
	wantState(t, terminal.ReprintAsked(fmt.Sprint(seq)), "reprint")
}

// The reprint menu walks back through the records with receipts: OK reprints the one
// shown, CANCEL shows the one before.
func TestStateReprintMenu(t *testing.T) {
	r := newRig(t, func(o *terminaltest.Options) { o.Config.AllDelivered = true })
	wantState(t, step(t, r, terminal.ReprintMenuState()), "result:nothing-to-reprint")
	_, v := winner(t, 5_00)
	_, pack := packCode(t)
	run(t, r, terminal.PayState(v), "result:paid")
	run(t, r, terminal.SellState(pack, 10_00), "result:sold")
	next := step(t, r, terminal.ReprintMenuState(), at(r, press(terminal.EvCancel)))
	wantState(t, next, "reprint-menu")
	next = step(t, r, next, at(r, press(terminal.EvOK)))
	wantState(t, next, "reprint")
	run(t, r, next, "result:reprint")
	if got := printed(r); got != "J C V DJ DC" {
		t.Errorf("printed %q", got)
	}
	wantState(t, stepTimeout(t, r, terminal.ReprintMenuState()), "idle")
}
