package emulated

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/packterm/pos/device/fleet"
	"github.com/packterm/pos/validate/block"
	"github.com/packterm/pos/validate/codes"
	"github.com/packterm/pos/validate/journal"
	"github.com/packterm/pos/validate/ledger"
)

// A terminal in a fleet claims each winner before it pays: a ticket another terminal holds
// is refused with that terminal named ("DÉJÀ PAYÉ AILLEURS"); with the fleet out of reach
// it pays within the offline limit only, marked unconfirmed. (The claims themselves, on a
// real JetStream cluster, are device/fleet's tests; here the terminal's side of them.)
func TestFleetClaimsBeforePaying(t *testing.T) {
	tb := newTestBlock(t)
	clock := clockwork.NewFakeClockAt(time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC))
	elsewhere := tb.find(t, func(tk block.Ticket) bool { return tk.Tier > 0 && tk.Lot <= 20_00 })
	claims := &fleet.Fake{Terminal: "EMU-0001", At: clock.Now().Add(-time.Hour),
		Held: map[codes.TicketID]string{elsewhere: "T-0077"}}
	rig, err := Start(context.Background(), Options{Dir: t.TempDir(), Ledgers: []*ledger.Ledger{tb.ledger}, AllDelivered: true, PerTicket: 20_00,
		Clock: clock, Fleet: claims, OfflinePerTicket: 5_00})
	if err != nil {
		t.Fatal(err)
	}
	defer rig.Close()
	e := &e2e{t: t, tb: tb, rig: rig, clock: clock}

	e.do(tb.code(elsewhere), "!ok")
	e.expect("PAYÉ AILLEURS", "T-0077")
	if _, paid, _ := rig.Journal.Paid(elsewhere); paid {
		t.Fatal("a ticket held by another terminal was paid")
	}

	used := map[codes.TicketID]bool{elsewhere: true}
	winner := func(f func(int64) bool) codes.TicketID {
		id := tb.find(t, func(tk block.Ticket) bool { return tk.Tier > 0 && !used[tk.ID] && f(int64(tk.Lot)) })
		used[id] = true
		return id
	}
	online := winner(func(a int64) bool { return a <= 20_00 })
	e.do(tb.code(online), "!ok")
	e.expect("PAYÉ")
	if r, paid, _ := rig.Journal.Paid(online); !paid || r.Unconfirmed() {
		t.Fatalf("online payout: paid %v, record %+v", paid, r)
	}
	if claims.Notified == 0 {
		t.Error("the fleet was not told of the new record")
	}
	// Every record is published at once, not only payouts: the report's too.
	notified := claims.Notified
	e.do("!report")
	e.expect("RAPPORT DU JOUR")
	if claims.Notified <= notified {
		t.Error("the fleet was not told of the report's record")
	}

	claims.Err = fmt.Errorf("test: %w", fleet.ErrOffline)
	small := winner(func(a int64) bool { return a <= 5_00 })
	e.do(tb.code(small), "!ok")
	e.expect("PAYÉ")
	if r, paid, _ := rig.Journal.Paid(small); !paid || !r.Unconfirmed() {
		t.Fatalf("offline payout within the limit: paid %v, unconfirmed %v", paid, r.Unconfirmed())
	}
	big := winner(func(a int64) bool { return a > 5_00 && a <= 20_00 })
	e.do(tb.code(big), "!ok")
	e.expect("NON PAYÉ")
	if _, paid, _ := rig.Journal.Paid(big); paid {
		t.Fatal("paid above the offline limit while offline")
	}
	claims.Err = fmt.Errorf("test: a bad reply")
	other := winner(func(a int64) bool { return a <= 5_00 })
	e.do(tb.code(other), "!ok")
	e.expect("ERREUR RÉSEAU")
	if _, paid, _ := rig.Journal.Paid(other); paid {
		t.Fatal("paid after a failed claim")
	}

	// The claim service refuses the claim (its ledger says otherwise, the pack is not this
	// retailer's): nothing is paid, the refusal is journalled with the fleet's reason.
	claims.Err = nil
	refused := winner(func(a int64) bool { return a <= 5_00 })
	claims.Refused = map[codes.TicketID]string{refused: fleet.RefusedNotDelivered}
	e.do(tb.code(refused), "!ok")
	e.expect("REFUS")
	if _, paid, _ := rig.Journal.Paid(refused); paid {
		t.Fatal("paid after the fleet refused the claim")
	}
	var reason string
	rig.Journal.Each(time.Time{}, func(r journal.Record) error {
		if r.Kind == journal.KindRefused && r.Ticket == refused {
			reason = r.Reason
		}
		return nil
	})
	if reason != "fleet-refused:not-delivered" {
		t.Fatalf("refusal journalled as %q", reason)
	}
}
